"""Writing text files: UTF-8, atomically (a temporary name renamed onto the target when
complete), gzip when the name ends in .gz in any case.

:func:`open_output` is what :func:`paralign.textio.open_text` gives for a mode that does not
read: ``"w"`` an :class:`AtomicTextWriter`, so no reader ever sees half an output (a device, a
FIFO or a path in /dev or /proc is written in place); appending a plain text file.
:func:`is_gzip_name` is the one rule for a name that asks for gzip, which reading
(:mod:`paralign.textio`) follows too. :func:`check_output_name` is the one rule for an output's
name: a suffix that names a format (:data:`SUFFIX_FORMATS`) other than the one written is refused.
:func:`json_text` is how paralign writes JSON (the commands' ``--format json``, the web app's downloads).

Not for: reading files (:mod:`paralign.textio`); table files (:mod:`paralign.tables`).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .errors import ConfigurationError, written_in_place

if TYPE_CHECKING:
    from types import TracebackType


def is_gzip_name(path: str | Path) -> bool:
    """True when `path`'s name ends in .gz, in any case (``X.GZ`` too): such a file is written
    as gzip, and read as gzip even when its data do not say so (an error then, not text)."""
    return Path(str(path)).suffix.lower() == ".gz"


def named_suffix(path: str | Path) -> str:
    """The suffix that names what a file holds, lower-cased and looked through a ``.gz``
    (``t.TSV.gz``: ``.tsv``; ``t.gz`` alone: ``.gz``), ``""`` for none."""
    suffixes = [x.lower() for x in Path(str(path)).suffixes[-2:]]
    return suffixes[0] if suffixes[-1:] == [".gz"] and len(suffixes) == 2 else (suffixes or [""])[-1]


#: The formats a file's suffix names (:func:`named_suffix`, so looked through a ``.gz``): the next
#: tool expects a file so named to hold that. ``.jsonl`` names JSON as ``.json`` does (JSON lines or
#: one document: either is JSON to a reader of the other kind more often than not, and a command's
#: --format json writes one of them).
SUFFIX_FORMATS = {".json": "JSON", ".jsonl": "JSON", ".tsv": "TSV", ".csv": "CSV", ".txt": "text",
                  ".svg": "SVG", ".html": "HTML", ".htm": "HTML"}
#: What a command writes to an output: (a format of :data:`SUFFIX_FORMATS`, what it is, for
#: messages), one for every --format, or by --format.
Writes = tuple[str, str] | Mapping[str, tuple[str, str]]


def named_format(path: str | Path) -> str | None:
    """The format `path`'s suffix names (:data:`SUFFIX_FORMATS`), None for any other suffix or none."""
    return SUFFIX_FORMATS.get(named_suffix(path))


def _names(written: str) -> set[str]:
    """The formats whose names suit a file holding `written`: its own, and text for TSV (a TSV
    file is text lines)."""
    return {written, "text"} if written == "TSV" else {written}


def check_output_name(flag: str, path: str, writes: Writes, fmt: str | None = None,
                      refused: Mapping[str, str] | None = None) -> None:
    """ConfigurationError (a usage error, raised before any work) when `path`, the value of
    option `flag`, has a suffix (looked through a ``.gz``) that names another format than the one
    written to it: `writes` (by `fmt`, the --format given, when it is a mapping). A suffix of
    `refused` is refused with its message (``{path}``: the path), whatever is written; any other
    suffix, or none, is accepted.

    Why: a user who writes ``-o result.json`` expects JSON in it; text under that name (or JSON
    under .tsv) was written without a word, and the next tool to read it failed."""
    suffix = named_suffix(path)
    if refused and suffix in refused:
        raise ConfigurationError(f"{flag} {path}: " + refused[suffix].format(path=path))
    named = named_format(path)
    chosen = writes.get(fmt or "") if isinstance(writes, Mapping) else writes
    if named is None or chosen is None:  # no format's name, or a --format of no declared output
        return
    written, what = chosen
    if named in _names(written):
        return
    if isinstance(writes, Mapping):
        others = [name for name, (kind, _) in writes.items() if named in _names(kind)]
        if others:
            raise ConfigurationError(f"{flag} {path}: the suffix {suffix} is for --format {' or '.join(others)}, but "
                                     f"--format {fmt} writes {what}: give --format {others[0]}, or another file name")
    fitting = " or ".join(name for name, kind in SUFFIX_FORMATS.items() if kind in _names(written))
    writer = f"--format {fmt}" if isinstance(writes, Mapping) else flag
    raise ConfigurationError(f"{flag} {path}: the suffix {suffix} names {named}, but {writer} writes {what}: "
                             f"give a name ending in {fitting} (or in no format's suffix)")


def open_output(path: Path, mode: str) -> IO[str]:
    """`path` opened to write (or append) UTF-8 text in `mode` (no "r"): ``"w"`` an
    :class:`AtomicTextWriter` unless the path is written in place (:func:`_atomic_target`);
    through gzip when the name ends in .gz (:func:`is_gzip_name`); OSError as usual."""
    if mode.replace("t", "") == "w" and (real := _atomic_target(path)) is not None:
        return AtomicTextWriter(real)
    if is_gzip_name(path):
        return io.TextIOWrapper(_gzip_writer(path, mode=mode.replace("t", "") + "b"), encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def _gzip_writer(path: Path, fileobj: IO[bytes] | None = None, mode: str = "wb") -> gzip.GzipFile:
    """Gzip writing `path` (or `fileobj`, its temporary file), MTIME 0: a rerun writes the same bytes."""
    name = path if fileobj is None else path.name[:-3]  # the header names `path` without .gz
    return gzip.GzipFile(filename=name, fileobj=fileobj, mode=mode, mtime=0)


def _atomic_target(path: Path) -> Path | None:
    """The file an atomic write of `path` renames onto: the real path behind symbolic links
    (so a link stays a link); None for a path written in place (:func:`.errors.written_in_place`:
    /dev/null, a FIFO, /dev/stdout)."""
    return None if written_in_place(path) else Path(os.path.realpath(path))


def _new_file_mode(path: Path) -> int:
    """The permission bits `open(path, "w")` would give: the existing file's, else 0o666 less
    the umask (mkstemp's 0o600 would surprise whoever reads the output)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


class AtomicTextWriter(io.TextIOWrapper):
    """A UTF-8 text file written under a temporary name beside `path` (gzip when the name ends
    in .gz, in any case: :func:`is_gzip_name`) and renamed onto `path` when closed, so no reader ever sees half an output.

    Why: a command that fails (or is interrupted) half-way must not leave a truncated output
    that looks like a result, nor destroy the previous one. Leaving a ``with`` block through an
    exception, or :meth:`discard`, removes the temporary file and leaves `path` untouched.
    """

    def __init__(self, path: str | Path) -> None:
        self.target = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".part",
                                   dir=self.target.parent if str(self.target.parent) else ".")
        self._tmp = Path(tmp)
        self._keep = True
        try:
            os.fchmod(fd, _new_file_mode(self.target))
            self._file = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            self._tmp.unlink(missing_ok=True)
            raise
        buffer = _gzip_writer(self.target, self._file) if is_gzip_name(self.target) else self._file
        super().__init__(buffer, encoding="utf-8")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if exc_type is not None:
            self._keep = False
        super().__exit__(exc_type, exc, traceback)

    def discard(self) -> None:
        """Close without writing `path`: the temporary file is removed."""
        self._keep = False
        self.close()

    def close(self) -> None:
        """Finish the file and rename it onto `path` (or remove it after :meth:`discard`)."""
        if self.closed:
            return
        done = False
        try:
            try:
                super().close()  # flushes the text (and ends the gzip stream)
            finally:
                self._file.close()
            if self._keep:
                os.replace(self._tmp, self.target)
                done = True
        finally:
            if not done:
                self._tmp.unlink(missing_ok=True)


#: Characters JSON may hold unescaped in a string that other readers take for a line end
#: (Python's str.splitlines, JavaScript before ES2019): json.dumps(ensure_ascii=False) leaves
#: them raw (it escapes the C0 controls only), so a token holding one split a JSON line in two.
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


def json_text(value: Any, **options: Any) -> str:
    """`value` as JSON, non-ASCII characters as they are but for those some readers split lines
    at (U+2028, U+2029, U+0085), written as escapes: still the same JSON value, one line."""
    return json.dumps(value, ensure_ascii=False, **options).translate(_LINE_BREAKS)
