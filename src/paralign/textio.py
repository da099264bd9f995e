"""Opening input files: UTF-8 text (plain or gzip) read line by line with located errors; and
text output files, written atomically by :mod:`paralign.textout`.

:func:`open_text` reads through :class:`Utf8LineReader`, so a missing or unreadable file is an
InputFileError naming it and a non-UTF-8 byte a FormatError naming the file and line.  Gzip is
told by the data (:func:`gunzipped`: its magic bytes), so a file of any name and a stream on
stdin are read alike; a name ending in .gz (any case) also asks for gzip, as it does when writing.
:func:`open_text` opens outputs too (:func:`paralign.textout.open_output`: an
:class:`~paralign.textout.AtomicTextWriter` writes under a temporary name and renames onto the
target when done).

Line ends are paralign's one contract (:mod:`paralign.line_ends`): LF or CRLF, a lone CR read
as a space, CR-only line ends refused.

Not for: parsing what the lines hold (:mod:`paralign.corpora`, :mod:`paralign.paraphrases`).
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import io
import itertools
import math
import select
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from . import errors as _errors  # the module: open_text has an `errors` parameter
from .errors import OPEN_REASONS, ConfigurationError, FormatError, InputFileError, ParalignError
from .line_ends import cr_only_error, lf_text
from .textout import is_gzip_name, open_output


def input_file_error(exc: BaseException, name: str) -> InputFileError:
    """The InputFileError for an OSError (or a gzip EOFError/zlib.error) met reading `name`."""
    number = getattr(exc, "errno", None)
    if number in OPEN_REASONS:
        reason = OPEN_REASONS[number]
    elif isinstance(exc, gzip.BadGzipFile):
        gz_name = is_gzip_name(name)
        reason = f"not a gzip file ({exc}), though the name ends in .gz" if gz_name else f"corrupt gzip data ({exc})"
    elif isinstance(exc, EOFError):
        reason = "gzip data cut short (truncated file)"
    elif isinstance(exc, zlib.error):
        reason = f"corrupt gzip data ({exc})"
    else:
        reason = f"cannot read ({getattr(exc, 'strerror', None) or exc})"
    return InputFileError(reason, source=name, errno=number)


def decoded(data: bytes) -> tuple[str | None, int]:
    """(`data` decoded as UTF-8, or None when it is not; index of its first byte that is no
    text, or -1): a byte that is not UTF-8, or a NUL, which is valid UTF-8 but no text holds
    (binary data; a C tool such as eflomal reads it as the end of its string)."""
    try:
        return data.decode("utf-8"), data.find(b"\x00")
    except UnicodeDecodeError as exc:
        nul = data.find(b"\x00", 0, exc.start)
        return None, exc.start if nul < 0 else nul


def bad_byte(data: bytes, index: int, first_line: int = 1) -> tuple[int, str]:
    """(line number, reason) of the bad byte `data[index]` (not UTF-8, or a NUL: see
    :func:`decoded`), whose first line is number `first_line`: the one message every reader
    gives for it (byte and column)."""
    head = data[:index]
    column = len(head) - head.rfind(b"\n")
    if data[index] == 0:
        reason = f"a NUL byte (0x00 at column {column}): binary data, not text"
    else:
        reason = f"not UTF-8 (byte {data[index]:#04x} at column {column}); re-encode the file"
    return first_line + head.count(b"\n"), reason


#: The byte-order mark some editors write at the start of a UTF-8 file: never part of its text.
BOM = "\ufeff"


def strip_bom(text: str) -> str:
    """`text` (a file's first line, or its whole text) without the byte-order marks it starts
    with, so the mark never joins the first word; the one helper the line readers share."""
    return text.lstrip(BOM)


def without_bom(lines: Iterable[str]) -> Iterator[str]:
    """The lines of a file (or stdin) as read, the first without a leading byte-order mark
    (:func:`strip_bom`); streaming. :class:`Utf8LineReader` keeps the mark as text mode does,
    so a reader of sentences passes its handle through this."""
    lines = iter(lines)
    for first in lines:
        yield strip_bom(first)
        break
    yield from lines


def float_field(text: str) -> float:
    """A number field of a data file as float reads it (NaN and inf included: the callers say
    whether those are allowed), but a ValueError, worded as float's, for a digit group mark:
    Python reads '0_5' as 5.0 and '1_0' as 10, which no data file means (a score typed 0_5 was
    read as 5, in range, without a word)."""
    if "_" in text:
        raise ValueError(f"could not convert string to float: {text!r}")
    return float(text)


def is_number_field(text: str) -> bool:
    """Whether a field (white space around it ignored) is a number as :func:`float_field` reads
    one: a gold score or label, a human score, where a reader tells a data row from a header or
    a sentence."""
    return is_float_field(text.strip())


def is_float_field(text: str) -> bool:
    """Whether `text` as it is, not stripped, is a number :func:`float_field` reads (NaN and inf
    included): float skips white space around a number but not the separators U+001C to U+001F,
    which str.strip removes, so a field holding one is no number here, as its reader found."""
    try:
        float_field(text)
    except ValueError:
        return False
    return True


def finite_field(text: str) -> float:
    """A score field as a float; ValueError when it is not a finite number (NaN would be taken
    as a score and give a wrong correlation)."""
    value = float_field(text)
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def int_field(text: str) -> int:
    """An integer field of a data file as int reads it, but a ValueError, worded as int's, for a
    digit group mark ('1_0' is 10 for int): :func:`float_field`'s rule for counts and ids."""
    if "_" in text:
        raise ValueError(f"invalid literal for int() with base 10: {text!r}")
    return int(text)


def _check_encoding_errors(errors: str) -> None:
    if errors not in ENCODING_ERRORS:
        raise ConfigurationError(f"unknown encoding-errors mode {errors!r}: use one of {', '.join(ENCODING_ERRORS)}")


#: What a line that is not UTF-8, or holds a NUL byte, does: stop with a FormatError naming it
#: (``strict``), decode with U+FFFD (``replace``), or read as an empty line recorded in
#: ``bad_lines`` (``skip``: a batch reports it in its place and goes on).
ENCODING_ERRORS: tuple[str, ...] = ("strict", "replace", "skip")

READ_ERRORS = (OSError, EOFError, zlib.error)  # gzip.BadGzipFile is an OSError


@contextmanager
def reading(name: str) -> Iterator[None]:
    """Turn an OSError, EOFError or zlib.error met while reading `name` (a cut-off gzip file...)
    into an InputFileError naming it; ParalignErrors (an InputFileError is an OSError) pass."""
    try:
        yield
    except ParalignError:
        raise
    except READ_ERRORS as exc:
        raise input_file_error(exc, name) from exc


def _split_lines(text: str, newlines: int) -> list[str]:
    """`text` (newlines already '\\n', `newlines` of them) as lines keeping their '\\n'.

    str.splitlines is fast but also splits on \\v, \\f, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029,
    which text mode does not: when it finds more lines than newlines, split on '\\n' instead.
    """
    lines = text.splitlines(keepends=True)
    if len(lines) == newlines + (not text.endswith("\n")):
        return lines
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


class _ClosesRaw(io.IOBase):
    """Mixin for a stream over another (`_raw`): closing it closes that one too when `_close_raw`
    (a file it opened), not when the other belongs to someone else (stdin). A subclass of IOBase,
    as every class it is mixed into, so that a checker knows `closed` and the `close` it extends
    (their method resolution order is the same as without it)."""

    _raw: IO[bytes]
    _close_raw: bool

    def close(self) -> None:
        """Close this stream, and the one it reads unless `close_raw` was False."""
        if not self.closed:
            try:
                if self._close_raw:
                    self._raw.close()
            finally:
                super().close()


class Utf8LineReader(_ClosesRaw, io.TextIOBase):
    """A read-only UTF-8 text handle over a binary file (or gzip stream) whose errors name the line.

    Why not io.TextIOWrapper: its UnicodeDecodeError names neither the file nor the line.  Here
    a bad byte raises FormatError naming both, and read errors (bad gzip, I/O) raise
    InputFileError naming the file.  Blocks ending at a newline are decoded at once, so reading
    stays streaming and about as fast as text mode, whose text this gives (encoding "utf-8", a
    byte-order mark kept) but for line ends, which are :mod:`paralign.line_ends`': '\\r\\n' reads
    as '\\n', a lone '\\r' as a space, CR-only line ends are a FormatError.  Supports iteration,
    readline, readlines, read and use as a context manager.
    """

    block_size = 1 << 16

    def __init__(self, raw: IO[bytes], name: str, *, close_raw: bool = True, errors: str = "strict") -> None:
        super().__init__()
        _check_encoding_errors(errors)
        self._raw = raw
        self.name = name
        self._errors = errors
        #: With errors="skip": line number -> why the line was read as an empty line.
        self.bad_lines: dict[int, str] = {}
        self._close_raw = close_raw
        self._rest = b""  # bytes read after the last newline, not decoded yet
        self._eof = False
        self._lines_done = 0  # newlines decoded so far: the line number before the next block
        self._pending: list[str] = []  # decoded lines; those from self._next on not handed out
        self._next = 0

    # typeshed declares TextIOBase's errors and encoding as writable attributes; at run time
    # they are read-only properties, as here
    @property
    def errors(self) -> str:  # type: ignore[override]  # typeshed: a writable attribute
        """What a line that is not UTF-8 does (see :data:`ENCODING_ERRORS`)."""
        return self._errors

    @property
    def encoding(self) -> str:  # type: ignore[override]  # typeshed: a writable attribute
        """Always "utf-8": the only encoding this reader decodes."""
        return "utf-8"

    def readable(self) -> bool:
        """Always True: the handle is read-only."""
        return True

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError("I/O operation on closed file")

    def _read_raw(self, size: int = -1) -> bytes:
        """Up to `size` bytes (all with -1); read1 where there is one, so a pipe is not waited on."""
        try:
            if size >= 0 and hasattr(self._raw, "read1"):
                return self._raw.read1(size)
            return self._raw.read(size)
        except READ_ERRORS as exc:
            raise input_file_error(exc, self.name) from exc

    def _decode(self, data: bytes) -> tuple[str, int]:
        """Decode whole lines (:func:`lf_text`), advance the line count; (text, newlines).
        Before the first line end, an input with CR-only line ends is refused (`data` then
        holds the input's first LF, or is all of it)."""
        if self._lines_done == 0 and (error := cr_only_error(data, self.name)) is not None:
            raise error
        text, fault = decoded(data)
        if fault >= 0:
            if self._errors == "strict":
                line, reason = bad_byte(data, fault, self._lines_done + 1)
                raise FormatError(reason, source=self.name, line=line)
            text = self._decode_per_line(data)
        assert text is not None
        text = lf_text(text)
        newlines = text.count("\n")
        self._lines_done += newlines
        return text, newlines

    def _decode_per_line(self, data: bytes) -> str:
        """Decode line by line (CR and LF are never inside a UTF-8 character): a line that
        is not UTF-8 or holds a NUL is decoded with U+FFFD for each bad byte (``replace``) or
        read as an empty line and recorded in :attr:`bad_lines` (``skip``), so the other lines
        of the block are kept.  A skipped last line with no newline after it (the file's end)
        gets one: "" would be no line at all."""
        lines = data.replace(b"\r\n", b"\n").split(b"\n")
        out = []
        for k, line in enumerate(lines):
            text, fault = decoded(line)
            if fault < 0 and text is not None:
                out.append(text)
            elif self._errors == "replace":
                out.append(line.decode("utf-8", "replace").replace("\x00", "\ufffd"))
            else:
                number, reason = bad_byte(line, fault, self._lines_done + 1 + k)
                self.bad_lines[number] = reason
                out.append("\n" if k == len(lines) - 1 else "")
        return "\n".join(out)

    def _fill(self) -> bool:
        """Decode the next block of whole lines into self._pending; False at the end. A line
        longer than a block is read in blocks as long as what is held of it, so joining them is
        linear, not quadratic, in its length."""
        while not self._eof:
            block = self._read_raw(max(self.block_size, len(self._rest)))
            if not block:
                self._eof = True
                data, self._rest = self._rest, b""
            else:
                data = self._rest + block
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    self._rest = data
                    continue
                data, self._rest = data[:cut], data[cut:]
            if data:
                self._pending, self._next = _split_lines(*self._decode(data)), 0
                return True
        return False

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # typeshed's IOBase gives bytes
        """The next line with its '\\n' (at most `size` characters when >= 0); "" at the end."""
        self._check_open()
        if self._next >= len(self._pending) and not self._fill():
            return ""
        line = self._pending[self._next]
        if size is not None and 0 <= size < len(line):
            self._pending[self._next] = line[size:]
            return line[:size]
        self._next += 1
        return line

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]  # typeshed's IOBase gives bytes
        """Iterate over the remaining lines; a loop left early resumes where it stopped."""
        self._check_open()
        return self._iter_lines()

    def _iter_lines(self) -> Iterator[str]:
        while self._next < len(self._pending) or self._fill():
            lines, done = self._pending, self._next
            for line in itertools.islice(lines, done, None):
                done += 1
                self._next = done  # as each line goes: an abandoned loop leaves the rest to readline or a
                yield line  # new loop, and would_wait knows whether a line is held

    def would_wait(self) -> bool:
        """True when reading the next line would wait for the input's writer: no line is held
        decoded, and the stream under the reader (a pipe, FIFO or terminal: stdin) has no byte
        ready. A file never waits, nor does a stream without a file descriptor.

        Why: a batch that cuts its input into chunks cuts one short here, so a co-process that
        sent a line and waits for its answer gets it (`paralign.cli._common.runs`); it waited
        for a whole chunk (64 pairs) or the end of stdin.  A byte held in a buffer below (gzip)
        only cuts a chunk early, which changes no result."""
        if self._next < len(self._pending) or self._eof or self.closed:
            return False
        try:
            ready, _, _ = select.select([self._raw.fileno()], [], [], 0)
        except (OSError, ValueError):  # no file descriptor (io.BytesIO, a closed stream)
            return False
        return not ready

    def read(self, size: int | None = -1) -> str:
        """Up to `size` characters (everything left when `size` is None or negative)."""
        self._check_open()
        if size is not None and size >= 0:
            parts: list[str] = []
            while size > 0 and (line := self.readline(size)):
                parts.append(line)
                size -= len(line)
            return "".join(parts)
        head = "".join(self._pending[self._next:])
        self._pending, self._next = [], 0
        if self._eof:
            return head
        data, self._rest, self._eof = self._rest + self._read_raw(), b"", True
        return head + self._decode(data)[0]


def require_file(path: str | Path, name: str | None = None) -> Path:
    """`path` as a Path when it is a regular file; else InputFileError naming it (`name`, else
    the path): for readers that must check before opening (to fingerprint or detect a format).
    Missing or a directory, it says so as opening it would (:data:`OPEN_REASONS`): a directory
    given as `score-alignments --gold` or `pivot --foreign` said "not a regular file", where the
    readers that open first say "is a directory, not a file"."""
    path = _errors.file_path(path)
    if not path.is_file():
        number = errno.ENOENT if not path.exists() else errno.EISDIR if path.is_dir() else None
        what = OPEN_REASONS[number] if number is not None else "not a regular file"
        raise InputFileError(what, source=str(path) if name is None else name, errno=number)
    return path


def sha256_file(path: str | Path, name: str | None = None) -> str:
    """The SHA-256 (hex) of a file's bytes as stored (a .gz file is not decompressed), to record
    which input a result was built from; InputFileError naming it when it cannot be read."""
    path = require_file(path, name)
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError as exc:
        raise input_file_error(exc, str(path) if name is None else name) from exc


#: The two bytes every gzip stream starts with (RFC 1952). No UTF-8 text starts with them (0x8b
#: is a continuation byte, which cannot follow the one-byte character 0x1f), so telling gzip
#: by them never takes a text for gzip.
GZIP_MAGIC = b"\x1f\x8b"


def is_gzip_file(path: str | Path) -> bool:
    """True when the file at `path` is read through gzip (:func:`gunzipped`): its name ends in
    .gz in any case, or its data start with :data:`GZIP_MAGIC`. False when it cannot be read
    (the reader that opens it names the fault). For code that must know before reading, such
    as whether a worker can seek to a byte offset in it."""
    if is_gzip_name(path):
        return True
    try:
        with open(path, "rb") as handle:
            return handle.read(len(GZIP_MAGIC)) == GZIP_MAGIC
    except OSError:
        return False


class _Replayed(_ClosesRaw, io.RawIOBase):
    """The bytes read from a stream to sniff it, then the rest of the stream: a pipe (stdin, a
    FIFO) cannot seek back to them.  Closing closes the stream when `close_raw` (not stdin)."""

    def __init__(self, head: bytes, raw: IO[bytes], close_raw: bool) -> None:
        super().__init__()
        self._head = head
        self._raw = raw
        self._close_raw = close_raw

    def readable(self) -> bool:
        """Always True: a read-only stream."""
        return True

    def fileno(self) -> int:
        """The stream's file descriptor (:meth:`Utf8LineReader.would_wait` selects on it)."""
        return self._raw.fileno()

    def readinto(self, buffer: Any) -> int:
        """Fill `buffer` with the sniffed bytes first, then from the stream (read1: a pipe is
        not waited on for more than it has)."""
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n], self._head = self._head[:n], self._head[n:]
            return n
        read = getattr(self._raw, "read1", self._raw.read)
        data = read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _GzipReader(_ClosesRaw, gzip.GzipFile):
    """A gzip reader of an open stream that closes it too when `close_raw` (GzipFile(fileobj=...)
    leaves it open)."""

    def __init__(self, raw: IO[bytes], close_raw: bool) -> None:
        super().__init__(fileobj=raw, mode="rb")
        self._raw = raw
        self._close_raw = close_raw


def _sniff(raw: IO[bytes], close_raw: bool) -> tuple[bytes, IO[bytes]]:
    """(the first bytes of `raw`, up to 2, and a stream reading all of `raw` from its start):
    `raw` itself sought back when it can seek, else a replay of the bytes read (a pipe, from
    which a second byte is read only when the first is gzip's)."""
    if raw.seekable():
        start = raw.tell()
        head = raw.read(len(GZIP_MAGIC))
        raw.seek(start)
        return head, raw
    head = raw.read(1)  # a second byte only after gzip's first: a co-process may send one "\n" and wait
    if head == GZIP_MAGIC[:1]:
        head += raw.read(1)
    return head, io.BufferedReader(_Replayed(head, raw, close_raw))


def gunzipped(raw: IO[bytes], name: str, *, close_raw: bool = True) -> IO[bytes]:
    """The bytes of `raw` (a file or a stream such as stdin's), through gzip when they start
    with :data:`GZIP_MAGIC` or `name` ends in .gz (:func:`is_gzip_name`).

    Why the data and not the name alone: ``FILE.GZ``, a gzip file named ``FILE.txt`` and ``cat FILE.gz |
    paralign ...`` were read as text, a confusing "not UTF-8 (byte 0x8b)".  Line numbers of
    errors are the decompressed text's.  `close_raw`: closing the result closes `raw` (False
    for stdin).  InputFileError naming `name` when the first bytes cannot be read.
    """
    try:
        head, stream = _sniff(raw, close_raw)
    except READ_ERRORS as exc:
        if close_raw:
            raw.close()
        raise input_file_error(exc, name) from exc
    if head.startswith(GZIP_MAGIC) or is_gzip_name(name):
        return _GzipReader(stream, close_raw)  # type: ignore[return-value]  # typeshed: a GzipFile is no IO[bytes]
    return stream


#: Byte-order marks of the encodings a text file is in when it is not UTF-8 (a Windows editor's
#: "Unicode" is UTF-16LE with its mark), longest first: read as UTF-8 the first line is bad and
#: the others are text with a NUL between characters (valid UTF-8), garbage a batch took as
#: sentences, and whose extra lines ('\n' then NUL) made two files' line counts differ.
OTHER_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def _other_encoding(stream: IO[bytes], name: str) -> FormatError | None:
    """The FormatError (line 1) for a stream that starts with the byte-order mark of UTF-16 or
    UTF-32 (:data:`OTHER_BOMS`), else None; reads nothing (peeks)."""
    if hasattr(stream, "peek"):
        head = stream.peek(4)[:4]
    else:  # a seekable stream without peek (io.BytesIO): gunzipped buffers the others
        start = stream.tell()
        head = stream.read(4)
        stream.seek(start)
    for mark, encoding in OTHER_BOMS:
        if head.startswith(mark):
            return FormatError(f"{encoding} text (byte-order mark {mark.hex(' ')}), not UTF-8; re-encode the file "
                               f"(iconv -f {encoding} -t UTF-8)", source=name, line=1)
    return None


def input_bytes(raw: IO[bytes], name: str, *, close_raw: bool = True) -> IO[bytes]:
    """The bytes of an input (a file, or stdin's), decompressed when gzip (:func:`gunzipped`),
    after checking it is not UTF-16 or UTF-32 text: a FormatError naming `name` at line 1 for
    the whole input, whatever the encoding-errors mode, as every one of its lines is wrong.
    InputFileError when the first bytes cannot be read (broken gzip...)."""
    stream = gunzipped(raw, name, close_raw=close_raw)
    try:
        with reading(name):
            error = _other_encoding(stream, name)
    except BaseException:
        if close_raw:
            stream.close()
        raise
    if error is not None:
        if close_raw:
            stream.close()
        raise error
    return stream


def open_binary(path: str | Path, name: str | None = None) -> IO[bytes]:
    """Open a file for reading bytes, through gzip when its data are gzip (or its name ends in
    .gz), UTF-16 and UTF-32 text refused (:func:`input_bytes`); InputFileError naming it
    (`name`, else the path) when it cannot be opened. Readers that decode line by line themselves use this; errors met while reading go
    through :func:`input_file_error`."""
    path = _errors.file_path(path)
    shown = str(path) if name is None else name
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed with what input_bytes returns
    except OSError as exc:
        raise input_file_error(exc, shown) from exc
    return input_bytes(raw, shown)


def open_text(path: str | Path, mode: str = "rt", errors: str = "strict") -> IO[str]:
    """Open a UTF-8 text file; reading goes through gzip when the data are gzip or the name
    ends in .gz (:func:`gunzipped`), writing when the name ends in .gz.

    Reading gives a Utf8LineReader, so every failure is a ParalignError naming the file:
    InputFileError (missing, a directory, unreadable, not gzip) or FormatError naming the line
    of a byte that is not UTF-8 (with `errors` ``strict``; see :data:`ENCODING_ERRORS`).
    Writing ("w") gives an :class:`~paralign.textout.AtomicTextWriter`: the file appears
    whole, or not at all (a device, a FIFO or a path in /dev or /proc, such as /dev/stdout, is
    written in place; through a symbolic link, the file it points to is replaced); appending
    gives a plain text file (OSError as usual).
    """
    path = _errors.file_path(path)
    if "r" not in mode:
        return open_output(path, mode)
    _check_encoding_errors(errors)  # before the file is opened
    # a TextIOBase, which typeshed does not count as an IO[str] (a TextIOWrapper is one)
    return Utf8LineReader(open_binary(path), str(path), errors=errors)  # type: ignore[return-value]  # typeshed: a TextIOBase is no IO[str]
