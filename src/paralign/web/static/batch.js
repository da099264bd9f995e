// paralign serve, the batch page: a chosen file is read here into the form's box of pairs, which
// the form posts as text; no upload, so the server needs no multipart parser. The file is read
// as `paralign similarity --pairs` reads one: gzip is unpacked (by its magic bytes, as the
// command tells it), and text that is not UTF-8 is refused, naming its lines, not shown with
// replacement marks.
"use strict";
(() => {
  // The form over the bytes a batch may take (the file input's data-max-bytes, the server's
  // batch_body_bytes) is not sent, and the page says why: sent, the server answered 413 with its
  // error page, and the pairs pasted were no longer on the screen.
  const form = document.getElementById("batch-form");
  form?.addEventListener("submit", (event) => {
    const limit = Number(document.getElementById("file")?.dataset.maxBytes);
    const size = new URLSearchParams(new FormData(form)).toString().length;  // as the form is posted
    if (!limit || size <= limit) return;
    event.preventDefault();
    const note = window.paralignErrorNote(form);  // forms.js's
    note.textContent = `Not sent: the sentence pairs take ${shown(size)} as the form sends them, over the `
      + `${shown(limit)} a batch may take. Split them, or score them with paralign similarity --pairs FILE, `
      + "which has no such limit.";
    document.getElementById("pairs").focus();
  });

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

  // One gzip member unpacked, or why not: {data}, {cut: true} (the data ended before the member's
  // end) or {bad: true} (not gzip data, damaged, or more bytes after the member's end). The data
  // are written whole, then closed: a stream the data of which were all taken (written) but which
  // fails when closed ended before its end (Compression Streams: the flush step throws when "the
  // end of the compressed input has not been reached"), where bad data fail the write. The
  // browser's own words are "Failed to fetch" for both.
  async function member(bytes) {
    const stream = new DecompressionStream("gzip");
    const writer = stream.writable.getWriter();
    const unpacked = new Response(stream.readable).arrayBuffer();
    let taken = false;
    const fed = (async () => {
      await writer.write(bytes);
      taken = true;
      await writer.close();
    })();
    try {
      return { data: (await Promise.all([unpacked, fed]))[0] };
    } catch (error) {
      return taken ? { cut: true } : { bad: true };
    }
  }

  // Where the member that starts at `start` may end: before each later gzip header (1f 8b 08) and
  // before the end of the data, each after any zero bytes that pad it (Python's gzip skips them),
  // from the first of those zeros on: a member's own last bytes may be zeros too (its CRC and size,
  // an empty member's deflate data).
  function* ends(all, start) {
    for (let next = start + 18; next <= all.length; next++) {
      if (next < all.length && !(all[next] === 0x1f && all[next + 1] === 0x8b && all[next + 2] === 8)) continue;
      let zeros = next;
      while (zeros > start && all[zeros - 1] === 0) zeros--;
      for (let end = zeros; end <= next; end++) yield end;  // the first that is no cut member is its end
    }
  }

  // The members of gzip data one after another, each unpacked (concatenated gzip, as `cat a.gz
  // b.gz` makes it, is one gzip file to paralign similarity, whose Python reader reads every
  // member; Chromium's DecompressionStream refuses the bytes after the first member's end). A
  // member is tried whole first, then ending before each later gzip header until one unpacks.
  async function gunzipped(all) {
    const parts = [];
    let start = 0;
    while (start < all.length) {
      if (all[start] !== 0x1f || all[start + 1] !== 0x8b) {
        throw refused("bytes after its gzip data are not gzip (not a gzip file), as paralign similarity says of them");
      }
      let found = await member(all.subarray(start));
      let end = all.length;
      if (found.bad) {
        for (end of ends(all, start)) {
          found = await member(all.subarray(start, end));
          if (!found.cut) break;
        }
      }
      if (found.cut) throw refused("gzip data cut short (truncated file), as paralign similarity says of it");
      if (found.bad) {
        throw new Error("it starts as gzip does but cannot be unpacked here (not gzip data, or damaged)");
      }
      parts.push(new Uint8Array(found.data));
      start = end;
      while (start < all.length && all[start] === 0) start++;  // zeros after a member: padding, as Python's gzip skips them
    }
    const whole = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
    parts.reduce((at, part) => (whole.set(part, at), at + part.length), 0);
    return whole.buffer;
  }

  async function bytesOf(chosen) {
    const head = new Uint8Array(await chosen.slice(0, 2).arrayBuffer());
    if (head[0] !== 0x1f || head[1] !== 0x8b) return chosen.arrayBuffer();
    if (!window.DecompressionStream) throw new Error("it is gzip, which this browser cannot unpack: unpack it first");
    return gunzipped(new Uint8Array(await chosen.arrayBuffer()));
  }

  // The numbers (from 1) of the lines of `bytes` that are not UTF-8. paralign similarity --pairs
  // reads a file line by line and reports each such line in its place, scoring the others; the
  // box holds text only, so the page reads none of it, and says which lines to re-encode (it said
  // "paralign similarity reads UTF-8: convert it first", then "or score it with paralign
  // similarity --pairs FILE", which does read it).
  function notUtf8Lines(bytes) {
    const all = new Uint8Array(bytes);
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const bad = [];
    let start = 0;
    let number = 1;
    for (let at = 0; at <= all.length; at++) {
      if (at < all.length && all[at] !== 0x0a) continue;
      try {
        decoder.decode(all.subarray(start, at));
      } catch (error) {
        bad.push(number);
      }
      start = at + 1;
      number++;
    }
    return bad;
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
      try {  // one decode for a good file; only a bad one is walked line by line to name its lines
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch (error) {
        const bad = notUtf8Lines(bytes);
        const which = bad.length === 1 ? `line ${bad[0]} is` : `${bad.length} lines are (the first: line ${bad[0]})`;
        throw refused(`${which} not UTF-8 text: re-encode it as UTF-8 and choose it again (paralign similarity ` +
          `--pairs FILE scores its other lines and reports ${bad.length === 1 ? "that one" : "those"} in place)`);
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
