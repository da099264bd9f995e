// paralign serve, the batch page: a chosen file is read here (FileReader) into the form's box of
// pairs, which the form posts as text; no upload, so the server needs no multipart parser.
"use strict";
(() => {
  const file = document.getElementById("file");
  const label = document.getElementById("file-label");
  const box = document.getElementById("pairs");
  const name = document.getElementById("name");
  const note = document.getElementById("file-note");
  if (!file || !box || !window.FileReader) return;
  file.hidden = false;  // shown only where it works (with this script)
  label.hidden = false;
  box.addEventListener("input", () => { name.value = ""; });  // typed over: no longer the file
  file.addEventListener("change", () => {
    const chosen = file.files[0];
    if (!chosen) return;
    const most = Number(file.dataset.maxBytes);
    if (chosen.size > most) {
      note.textContent = `${chosen.name} has ${chosen.size} bytes, over the ${most} a batch may take: ` +
        "split it, or score it with paralign similarity --pairs FILE";
      file.value = "";
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      box.value = reader.result;
      name.value = chosen.name;
      note.textContent = `${chosen.name} read into the box (${chosen.size} bytes): press Score`;
    };
    reader.onerror = () => { note.textContent = `${chosen.name} could not be read: ${reader.error}`; };
    reader.readAsText(chosen, "utf-8");
  });
})();
