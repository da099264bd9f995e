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
    // The file is written whole, then closed: a stream the data of which were all taken (written)
    // but which fails when closed ended before its end (Compression Streams: the flush step throws
    // when "the end of the compressed input has not been reached"), where bad data fail the write.
    // The browser's own words are "Failed to fetch" for both.
    const stream = new DecompressionStream("gzip");
    const writer = stream.writable.getWriter();
    const unpacked = new Response(stream.readable).arrayBuffer();
    let taken = false;
    const fed = (async () => {
      await writer.write(new Uint8Array(await chosen.arrayBuffer()));
      taken = true;
      await writer.close();
    })();
    try {
      return (await Promise.all([unpacked, fed]))[0];
    } catch (error) {
      if (taken) throw refused("gzip data cut short (truncated file), as paralign similarity says of it");
      throw new Error("it starts as gzip does but cannot be unpacked here (not gzip data, damaged, or gzip members "
        + "one after another, which paralign similarity reads)");
    }
  }

  function refused(message) {  // an Error of a file paralign similarity refuses too: not offered to it
    const error = new Error(message);
    error.everywhere = true;
    return error;
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
      const elsewhere = error.everywhere ? "" : "; or score it with paralign similarity --pairs FILE";
      note.textContent = `${chosen.name} was not read: ${error.message}${elsewhere}`;
      file.value = "";
    }
  });
})();
