"""Writing text files: UTF-8, atomically (a temporary name renamed onto the target when
complete), gzip when the name ends in .gz in any case.

:func:`open_output` is what :func:`paralign.textio.open_text` gives for a mode that does not
read: ``"w"`` an :class:`AtomicTextWriter`, so no reader ever sees half an output (a device, a
FIFO or a path in /dev or /proc is written in place); appending a plain text file.
:func:`is_gzip_name` is the one rule for a name that asks for gzip, which reading
(:mod:`paralign.textio`) follows too.

Not for: reading files (:mod:`paralign.textio`); table files (:mod:`paralign.tables`).
"""

from __future__ import annotations

import gzip
import io
import os
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .errors import written_in_place

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
