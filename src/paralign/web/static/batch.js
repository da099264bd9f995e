// paralign serve, the batch page: a chosen file is read here into the form's box of pairs, which
// the form posts as text; no upload, so the server needs no multipart parser. The file is read
// as `paralign similarity --pairs` reads one: gzip is unpacked (by its magic bytes, as the
// command tells it), and text that is not UTF-8 is refused, not shown with replacement marks.
"use strict";
(() => {
  const file = document.getElementById("file");
  const label = document.getElementById("file-label");
  const box = document.getElementById("pairs");
  const name = document.getElementById("name");
  const note = document.getElementById("file-note");
  if (!file || !box || !window.TextDecoder || !window.Blob || !Blob.prototype.arrayBuffer) return;
  file.hidden = false;  // shown only where it works (with this script)
  label.hidden = false;
  box.addEventListener("input", () => { name.value = ""; });  // typed over: no longer the file
  const most = Number(file.dataset.maxBytes);

  function shown(n) {  // a size as the page shows its limit (paralign.web.models.shown_bytes)
    for (const [unit, size] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]]) {
      if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
    }
    return `${n} bytes`;
  }

  async function bytesOf(chosen) {
    const head = new Uint8Array(await chosen.slice(0, 2).arrayBuffer());
    if (head[0] !== 0x1f || head[1] !== 0x8b) return chosen.arrayBuffer();
    if (!window.DecompressionStream) throw new Error("it is gzip, which this browser cannot unpack: unpack it first");
    try {
      return await new Response(chosen.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    } catch (error) {  // the browser's own words were "Failed to fetch"
      throw new Error("it starts as gzip does but cannot be unpacked (not gzip data, or cut short), as paralign "
        + "similarity would say");
    }
  }

  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    try {
      if (chosen.size > most) throw new Error(`it has ${shown(chosen.size)}, over the ${shown(most)} a batch may take`);
      const bytes = await bytesOf(chosen);
      if (bytes.byteLength > most) throw new Error(`it unpacks to ${shown(bytes.byteLength)}, over the ${shown(most)} a batch may take`);
      let text;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch (error) {
        throw new Error("it is not UTF-8 text (paralign similarity reads UTF-8): convert it first");
      }
      box.value = text;
      name.value = chosen.name;
      note.textContent = `${chosen.name} read into the box (${shown(bytes.byteLength)}): press Score`;
    } catch (error) {
      note.textContent = `${chosen.name} was not read: ${error.message}; or score it with paralign similarity --pairs FILE`;
      file.value = "";
    }
  });
})();
