"""Line ends: the one contract of every reader of paralign, and its two checks.

A line ends at LF, and a CR just before it is part of the line end (CRLF reads as LF). A lone
CR is no line end (as for sacrebleu, Moses' scripts and eflomal), so a stray CR in one file of
a parallel pair cannot shift every later line, and the byte offsets of a line index
(``corpora.parallel.line_index``, where each Dask worker starts its chunk) count the lines
every reader counts; inside a line it reads as a space (:func:`lf_text`), the white space it
is to str.split, so no tokeniser makes a token of it (spaCy would) and no output echoes it (a
terminal would go back to the start of its line). An input that holds a CR but no LF at all
has CR-only line ends (classic Mac OS): read by that rule it would be one giant line, so every
reader refuses it with one FormatError at line 1 (:func:`cr_only_error`), whatever the
encoding-errors mode, as UTF-16 text is. An input whose start holds a NUL byte is binary data,
not a Mac text file (an executable has CRs and may have no LF in its first kilobytes): the
readers' bad-byte check names it (``textio.bad_byte``: "a NUL byte ...: binary data, not text").

Why one contract: :class:`paralign.textio.Utf8LineReader` (``align``, ``similarity``, tables)
split lines at a lone CR as text mode does, while the readers that split bytes themselves
(gold alignments, WMT, parallel text for ``pivot``) did not, so one file had different lines,
and different line numbers in messages, from one command to the next.

Not for: opening files (:mod:`paralign.textio`), which applies this.
"""

from __future__ import annotations

from .errors import FormatError

#: Why an input with CR-only line ends is refused, and how to convert it.
CR_ONLY = ("line ends are CR only (classic Mac OS), not LF or CRLF: the file holds carriage returns and no line "
           "feed; convert it with tr '\\r' '\\n' < FILE > NEW")


def cr_only_error(start: bytes, name: str) -> FormatError | None:
    """The FormatError (line 1, naming `name`) for an input with CR-only line ends, else None.

    `start`: the input's bytes from its beginning up to and with its first LF, or all of them
    when it has none (a first line as ``readline`` gives it; a first block cut at an LF; a
    whole file). Holding a CR and no LF, it is the whole input and has no line end but CRs.
    A reader checks its first line only, so the check costs nothing per line. A NUL in `start`
    makes it binary data, not text of CR line ends: None, for the bad-byte check to name (before,
    the head of an executable was told to convert its line ends with tr)."""
    if b"\r" in start and b"\n" not in start and b"\x00" not in start:
        return FormatError(CR_ONLY, source=name, line=1)
    return None


def lf_text(text: str) -> str:
    """`text` (lines, or one line) with paralign's line ends: CRLF read as LF, a lone CR as a
    space. A text without CR is returned as it is, after one scan for it."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", " ")
    return text


def line_text(line: str) -> str:
    """A decoded line as iteration gives it (a file's, or one a caller hands a reader), without
    its line end (LF, or CRLF) and nothing more, a lone CR in it read as a space (:func:`lf_text`):
    what every reader makes of that line. ``rstrip("\\r\\n")`` dropped every CR before the LF
    (both CRs of a line ending ``\\r\\r\\n``) and kept a lone CR inside the line, which spaCy makes a token of."""
    return lf_text(line).removesuffix("\n")


def without_line_end(raw: bytes) -> bytes:
    """A line as readline gives it, without its line end (:mod:`paralign.line_ends`: LF, or
    CRLF) and nothing more: a lone CR before it, or ending a last line without LF, is no line
    end and stays, for the reader to read as a space (:func:`lf_text`), where
    ``rstrip(b"\\r\\n")`` drops it."""
    if raw.endswith(b"\r\n"):
        return raw[:-2]
    return raw[:-1] if raw.endswith(b"\n") else raw
