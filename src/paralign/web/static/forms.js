// paralign serve, the pages whose form is sent in the URL (align, similarity, ParaEval, lattice,
// paraphrases): a form longer than any the server takes within its limits (the form's
// data-max-query bytes, paralign.web.models.QUERY_BYTES) is not sent, and the page says why.
// Sent, a pasted megabyte was refused by the HTTP server before the app saw it: the browser
// showed its own "HTTP ERROR 400" page, and what was typed was gone.
"use strict";
(() => {
  // The page's error line (the server's, else a new one before `form`): where a form that is not
  // sent says why. The batch page's script (batch.js) says it there too: window.paralignErrorNote.
  function errorNote(form) {
    let note = document.getElementById("error");
    if (!note) {
      note = document.createElement("p");
      note.className = "error";
      note.id = "error";
      note.setAttribute("role", "alert");
      form.before(note);
    }
    return note;
  }
  window.paralignErrorNote = errorNote;

  for (const form of document.querySelectorAll("form[method=get][data-max-query]")) {
    const most = Number(form.dataset.maxQuery);
    form.addEventListener("submit", (event) => {
      if (new URLSearchParams(new FormData(form)).toString().length <= most) return;
      event.preventDefault();
      const fields = [...form.querySelectorAll("input[type=text], input:not([type]), textarea")];
      const longest = fields.reduce((a, b) => (b.value.length > a.value.length ? b : a));
      const label = form.querySelector(`label[for="${longest.id}"]`);
      const name = label ? label.textContent.trim() : longest.name;
      const note = errorNote(form);
      // the field's own limit, in the units a user can act on (its data-limit: "at most 500
      // characters"); the message named only GET /api/info and the command line
      const limit = longest.dataset.limit ? `: this page takes ${longest.dataset.limit}` : "";
      note.textContent = `Not sent: the ${name} has ${[...longest.value].length.toLocaleString("en")} characters, `
        + `far more than this server takes in one request${limit}. Shorten it and send it again; `
        + "for longer texts, use the paralign command line, which has no such limit.";
      longest.focus();
    });
  }
})();
