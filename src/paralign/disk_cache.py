"""A disk cache of what paralign derives from a resource file: :func:`derived`.

PPDB's 210,000 lexical pairs take 0.3-0.7 s to parse and normalise, which every command using
them paid on every run (``paraeval`` scoring 19 systems in about 3 s, ``align`` on one pair).
Here the derived value is written once under :func:`paralign.settings.cache_dir` with
:mod:`marshal` (builtin types only: dicts, strings, tuples, frozensets; loading one runs no
code, unlike pickle) and read back in about a seventh of the time. The entry's name holds a hash
of what the value depends on: the source file's real path, size and modification time, the
deriving code's `version`, paralign's version and Python's (marshal's format is Python's own),
so a changed file or a new release never reads an old entry. A cache never changes a result:
an entry that cannot be read, or whose bytes are not those kept (their SHA-256 is checked
first), is derived again, and one that cannot be written (a read-only
home, PARALIGN_CACHE_DIR empty) is simply not kept. Only a regular file is a source: a pipe, a
FIFO or a device (``/dev/stdin``) gives other bytes each time it is read, and a path in
:func:`not_kept` (a temporary copy of stdin, which no later command reads) would only leave
entries behind; their values are derived every time.

Each entry starts with a record of what it was derived from (the source's real path, size and
time, the versions), read without the value, so :func:`entries` can tell an entry whose source
is gone or changed (no command reads it again) and :func:`prune` remove it; :func:`purge`
empties the folders (``paralign cache``). Keeping an entry also removes the stale ones it can
tell by their record (:func:`_prune_stale`), so a folder does not fill with entries of table
files deleted or moved. :func:`entries` and :func:`purge` also cover ParaEval's vector cache
(PARALIGN_VECTOR_CACHE), whose files hold vectors computed from segments rather than from a
source file.

Not for: values other than builtin containers (marshal refuses them), caches that live in
memory (:mod:`paralign.caching`), or writing the ParaEval vector cache
(:mod:`paralign.metrics.paraeval.graded`).
"""

from __future__ import annotations

import contextlib
import errno
import fnmatch
import hashlib
import marshal
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, cast

from ._version import __version__
from .errors import OPEN_REASONS, ConfigurationError, InputFileError, InputTypeError, shown_value
from .settings import cache_dir, vector_cache_dir

#: The values marshal writes, which an entry holds (a value of another type inside one of the
#: containers is a ValueError when it is kept, caught: the value is then not kept)
Marshallable = None | bool | int | float | complex | str | bytes | tuple[Any, ...] | list[Any] | dict[Any, Any] | \
    set[Any] | frozenset[Any]
T = TypeVar("T", bound=Marshallable)

#: The entry format, part of every entry's key: an entry of an older format is never read.
FORMAT = 3
#: What an entry starts with, then its record's length (4 bytes, little-endian), the SHA-256 of
#: the record's bytes and of the value's, the record (marshal: what it was derived from) and the
#: value (marshal). The bytes are checked before marshal reads them: it reads damaged bytes as
#: another value (a flipped bit gave a key 'qairs' for 'pairs'), or as a list of a billion items
#: it allocates first (out of memory), not as an error.
MAGIC = b"paralign-cache-%d\n" % FORMAT
_LENGTH = len(MAGIC) + 4
_DIGEST = hashlib.sha256().digest_size
_HEAD = _LENGTH + 2 * _DIGEST
#: The most a record takes (one is a few hundred bytes: a path and five short values).
_RECORD_BYTES = 1 << 16
#: An entry's file name ends with this (``NAME-HASH.marshal``).
SUFFIX = ".marshal"
#: A write in progress (or one a killed process never finished) has a name starting with this.
TEMP_PREFIX = ".paralign-tmp-"
#: The caches `paralign cache` shows: this module's, and ParaEval's vector cache.
KINDS = ("derived", "vectors")
_ENTRY_PATTERN = {"derived": f"*{SUFFIX}", "vectors": "vectors-*.npy"}
_TEMP_PATTERN = {"derived": f"{TEMP_PREFIX}*", "vectors": ".tmp*-vectors-*.npy"}  # tables.atomic_path's
_SETTING = {"derived": "cache", "vectors": "PARALIGN_VECTOR_CACHE"}


#: The real paths that :func:`not_kept` keeps out of the cache while its block runs.
_NOT_KEPT: set[str] = set()


@contextlib.contextmanager
def not_kept(path: str | os.PathLike[str]) -> Iterator[None]:
    """While the block runs, nothing derived from `path` is read from or kept in the cache: a
    temporary file (a copy of stdin or of a pipe, which the CLI reads through such a copy) has
    a name no later command gives, so an entry of it would only take room until removed."""
    real = os.path.realpath(path)
    _NOT_KEPT.add(real)
    try:
        yield
    finally:
        _NOT_KEPT.discard(real)


def _entry(name: str, source: str | os.PathLike[str], version: str,
           min_bytes: int) -> tuple[Path, dict[str, object]] | None:
    """Where :func:`derived` keeps `name` derived from `source` by code of `version`, and the
    record kept at the head of that entry (what it was derived from, for :func:`entries` and
    :func:`prune`); None when there is no cache folder, the source cannot be stat'ed, is not a
    regular file, is smaller than `min_bytes` or is in :func:`not_kept`."""
    folder = derived_folder()
    if folder is None:
        return None
    try:
        status = os.stat(source)
    except OSError:
        return None
    real = os.path.realpath(source)
    if not stat.S_ISREG(status.st_mode) or status.st_size < min_bytes or real in _NOT_KEPT:
        return None
    python = "{}.{}".format(*sys.version_info[:2])
    key = "|".join(map(str, (real, status.st_size, status.st_mtime_ns, version, __version__,
                             sys.version_info[:2], FORMAT)))
    record: dict[str, object] = {"name": name, "source": real, "size": status.st_size,
                                 "mtime_ns": status.st_mtime_ns, "version": version,
                                 "paralign": __version__, "python": python}
    return folder / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:16]}{SUFFIX}", record


def derived(name: str, source: str | os.PathLike[str], build: Callable[[], T], *, version: str,
            min_bytes: int = 0) -> T:
    """`build()`, the value `name` derived from the file `source` by code of `version` (change it
    when that code changes what it gives), read from the cache when an entry is there, else built
    and kept for the next process (older entries of `name`, and entries whose source is gone or
    changed, are removed: :func:`_keep`). A source smaller than `min_bytes` is not worth an entry
    (it is parsed about as fast as an entry is read): its value is built every time, as is the
    value of a source that changed while `build` read it."""
    found = _entry(name, source, version, min_bytes)
    if found is not None:
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
            # the value build() gave when the entry was kept (the key holds `name` and `version`)
            return cast("T", _read_value(found[0]))
    value = build()
    if found is not None and found == _entry(name, source, version, min_bytes):
        _keep(*found, value)  # not when the file changed while it was read: the value is of neither
    return value


def _open_entry(path: Path) -> BinaryIO:
    """`path` opened for reading if it is a regular file, else ValueError: a FIFO in the folder
    (which another user of a shared folder can make) blocked `open` for ever, and a link to a
    device such as /dev/zero gave bytes without end. Opened without blocking, checked, read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{path}: not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _read_value(path: Path) -> object:
    """The value of the entry at `path`, its record skipped without being read (ValueError for a
    file of another format, no regular file, or one whose bytes are not those kept)."""
    with _open_entry(path) as handle:
        data = handle.read()
    if not data.startswith(MAGIC):
        raise ValueError(f"{path}: not a paralign cache entry")
    start = _HEAD + int.from_bytes(data[len(MAGIC):_LENGTH], "little")
    record, value = memoryview(data)[_HEAD:start], memoryview(data)[start:]
    if hashlib.sha256(record).digest() + hashlib.sha256(value).digest() != data[_LENGTH:_HEAD]:
        raise ValueError(f"{path}: damaged (its bytes are not those kept)")
    return marshal.loads(value)


def _keep(path: Path, record: dict[str, object], value: Marshallable) -> None:
    """Write `record` and `value` to `path` under a temporary name, then rename (a reader never
    sees half an entry; two processes writing at once each write a whole one); remove the other
    entries of the same name and those of sources gone or changed (:func:`_prune_stale`). Best
    effort: a folder that cannot be written to keeps nothing."""
    name = str(record["name"])
    try:
        data = marshal.dumps(value)  # a value marshal cannot write: ValueError
        head = marshal.dumps({**record, "value_bytes": len(data)})
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{name}-", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(MAGIC + len(head).to_bytes(4, "little") + hashlib.sha256(head).digest()
                          + hashlib.sha256(data).digest() + head)
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        for old in path.parent.glob(f"{name}-*{SUFFIX}"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
        _prune_stale(path.parent)
    except (OSError, ValueError):
        return


# -- what the cache holds: `paralign cache` ---------------------------------------------------

#: An entry's state. fresh: its source is as recorded (a command can read it); missing: the source
#: is gone (deleted or moved; no command reads the entry again); changed: the source has another
#: size or time, or is no longer a regular file (the next command derives a new entry); unknown:
#: no record of a source (an entry in an older paralign's format, or one that cannot be read).
STATES = ("fresh", "missing", "changed", "unknown")
#: The states :func:`prune` removes.
STALE = frozenset({"missing", "changed", "unknown"})
#: A temporary file older than this (seconds) was left by a write that never finished (a killed
#: process); a younger one may be another process's write in progress, which nothing removes.
ABANDONED_AFTER = 3600.0


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """One file of a cache folder. `kind`: ``derived`` (an entry of :func:`derived`, in
    :func:`paralign.settings.cache_dir`) or ``vectors`` (ParaEval's contextual vectors of a
    stream of segments, in :func:`paralign.settings.vector_cache_dir`: keyed by the words and the
    encoder, with no source file, so `state` is None); `record`: what :func:`derived` recorded
    (source path, its size and time, the deriving code's version, paralign's and Python's)."""

    kind: str
    path: Path
    bytes: int
    state: str | None
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The derived value's name (``ppdb-table``, ``table-1a2b3c4d``, ``vectors``)."""
        return str(self.record.get("name") or self.path.name.rsplit("-", 1)[0])

    def to_dict(self) -> dict[str, Any]:
        """The entry as ``paralign cache list --format json`` shows it (keys always present)."""
        mtime = self.record.get("mtime_ns")
        return {"kind": self.kind, "file": str(self.path), "name": self.name, "bytes": self.bytes,
                "state": self.state, "source": self.record.get("source"),
                "source_bytes": self.record.get("size"),
                "source_mtime": None if mtime is None else _iso_time(int(mtime)),
                "paralign": self.record.get("paralign"), "python": self.record.get("python")}


@dataclass(frozen=True, slots=True)
class Removed:
    """What :func:`purge` or :func:`prune` removed (`entries`, `temporary`: unfinished writes'
    files), and the files it could not remove with the reason (`failed`)."""

    entries: list[CacheEntry]
    temporary: list[Path]
    failed: list[tuple[Path, str]]

    @property
    def bytes(self) -> int:
        """The room the removed entries took."""
        return sum(entry.bytes for entry in self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {"removed": [entry.to_dict() for entry in self.entries],
                "temporary": [str(path) for path in self.temporary], "bytes": self.bytes,
                "failed": [{"file": str(path), "reason": reason} for path, reason in self.failed]}


def derived_folder() -> Path | None:
    """:func:`paralign.settings.cache_dir`, the folder of :func:`derived`'s entries;
    ConfigurationError for a relative PARALIGN_CACHE_DIR (:func:`_absolute`)."""
    return _absolute(cache_dir(), "PARALIGN_CACHE_DIR")


def vector_folder() -> Path | None:
    """:func:`paralign.settings.vector_cache_dir`, the folder of ParaEval's contextual vectors
    (None: no such cache); ConfigurationError for a relative PARALIGN_VECTOR_CACHE
    (:func:`_absolute`): ``PARALIGN_VECTOR_CACHE=vecs`` wrote the vectors under whichever folder a
    run started in, and a run from another folder encoded them all again."""
    return _absolute(vector_cache_dir(), "PARALIGN_VECTOR_CACHE")


def _absolute(folder: Path | None, variable: str) -> Path | None:
    """`folder`, the one the environment `variable` names; ConfigurationError when it is relative:
    the cache would be in another folder for every folder a command runs in (each run deriving
    again, entries left everywhere), so it is refused, once, rather than made absolute against
    whichever folder came first."""
    if folder is not None and not folder.is_absolute():
        raise ConfigurationError(f"{variable}={shown_value(os.environ.get(variable, ''))} is "
                                 "a relative path: the cache would be in another folder wherever a command "
                                 "runs; give an absolute path (~/... is the home folder), or set it empty "
                                 "for no cache")
    return folder


def cache_folders() -> dict[str, Path | None]:
    """Each kind's folder (None: no such cache: PARALIGN_CACHE_DIR set empty, or
    PARALIGN_VECTOR_CACHE unset); ConfigurationError for a relative one (:func:`_absolute`)."""
    return {"derived": derived_folder(), "vectors": vector_folder()}


def folder_names() -> dict[str, str | None]:
    """The folders as ``paralign cache`` shows them: ``folder`` (derived entries) and
    ``vector_folder`` (None: no such cache)."""
    folders = cache_folders()
    return {"folder": _str(folders["derived"]), "vector_folder": _str(folders["vectors"])}


def entries(kinds: Iterable[str] = KINDS) -> list[CacheEntry]:
    """The entries of each kind's folder, sorted by kind and file name (a folder that is not
    there holds none). Raises :class:`~paralign.errors.InputFileError` naming a folder that
    cannot be read."""
    found = []
    for kind in _kinds(kinds):
        for path in _files(kind, _ENTRY_PATTERN[kind]):
            with contextlib.suppress(FileNotFoundError):  # removed meanwhile by another process
                size = path.stat().st_size
                if kind == "vectors":
                    found.append(CacheEntry(kind, path, size, None))
                else:
                    record = _record(path)
                    found.append(CacheEntry(kind, path, size, _state(record), record or {}))
    return found


def purge(kinds: Iterable[str] = KINDS) -> Removed:
    """Remove every entry of each kind's folder, and the files of writes that never finished
    (:data:`ABANDONED_AFTER`); nothing else in the folders (PARALIGN_VECTOR_CACHE may name a
    folder that holds other files). A command running meanwhile is not disturbed: an entry it
    reads is read whole or derived again, one it writes is kept or not."""
    kinds = _kinds(kinds)
    return _remove(entries(kinds), kinds)


def _kinds(kinds: object) -> tuple[str, ...]:
    """`kinds` as a tuple of cache kinds (:data:`KINDS`); one str (its letters were taken as
    kinds: KeyError 'd'), a value that is not a list (None: "not iterable") or an unknown kind
    is named."""
    if isinstance(kinds, str) or not isinstance(kinds, Iterable):
        raise InputTypeError(f"kinds must be a list of cache kinds ({', '.join(KINDS)}), not "
                             f"{type(kinds).__name__} {shown_value(kinds)}")
    out = tuple(kinds)
    for kind in out:
        if kind not in KINDS:
            raise ConfigurationError(f"unknown cache kind {shown_value(kind)}: use {', '.join(KINDS)}")
    return out


def prune() -> Removed:
    """Remove the derived entries no command will read again (:data:`STALE`: a source gone or
    changed, or no record of one) and the files of writes that never finished. Vector entries
    have no source file to check and stay (:func:`purge` removes them)."""
    return _remove([entry for entry in entries(("derived",)) if entry.state in STALE], ("derived",))


def _remove(chosen: list[CacheEntry], kinds: tuple[str, ...]) -> Removed:
    removed, failed = [], []
    for entry in chosen:
        try:
            entry.path.unlink()
            removed.append(entry)
        except FileNotFoundError:
            continue  # another process removed or replaced it first
        except OSError as exc:
            failed.append((entry.path, exc.strerror or str(exc)))
    temporary = []
    now = time.time()
    for kind in kinds:
        for path in _files(kind, _TEMP_PATTERN[kind]):
            try:
                if now - path.stat().st_mtime > ABANDONED_AFTER:
                    path.unlink()
                    temporary.append(path)
            except FileNotFoundError:
                continue
            except OSError as exc:
                failed.append((path, exc.strerror or str(exc)))
    return Removed(removed, temporary, failed)


def _files(kind: str, pattern: str) -> list[Path]:
    """The files of `kind`'s folder matching `pattern`, sorted (none without a folder). A
    folder named like an entry is not one (paralign never makes one; unlinking it failed, so a
    prune or purge exited 1 for it every time) and is left alone, as other files are."""
    folder = cache_folders()[kind]
    if folder is None:
        return []
    try:
        with os.scandir(folder) as scan:
            names = [item.name for item in scan
                     if fnmatch.fnmatchcase(item.name, pattern) and not _is_folder(item)]
    except FileNotFoundError:
        return []
    except OSError as exc:
        reason = OPEN_REASONS.get(exc.errno or 0, exc.strerror or str(exc))
        if exc.errno == errno.ENOTDIR and os.path.lexists(folder):  # not "no such file": it is there
            reason = "not a folder (a file of that name is there)"
        raise InputFileError(f"cannot read the {_SETTING[kind]} folder: {reason}", source=str(folder),
                             errno=exc.errno) from exc
    return [folder / name for name in sorted(names)]


def _is_folder(item: os.DirEntry[str]) -> bool:
    """Whether `item` is a folder itself (a link to one is a file to unlink, as any link)."""
    try:
        return item.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _record(path: Path) -> dict[str, Any] | None:
    """The record at the head of a derived entry, reading only it (None: another format, a file
    that cannot be read, or one whose length is not the one kept)."""
    try:
        with _open_entry(path) as handle:
            head = handle.read(_HEAD)
            length = int.from_bytes(head[len(MAGIC):_LENGTH], "little")
            if len(head) < _HEAD or not head.startswith(MAGIC) or length > _RECORD_BYTES:
                return None  # a damaged length: read() allocates what it is asked for, up to 4 GB
            data = handle.read(length)
            if hashlib.sha256(data).digest() != head[_LENGTH:_LENGTH + _DIGEST]:
                return None  # damaged, or the length is: the record cannot be read
            record = marshal.loads(data)
            whole = isinstance(record, dict) and os.fstat(handle.fileno()).st_size == \
                _HEAD + length + record.get("value_bytes", -1)  # not cut short, nor longer
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return record if whole and {"source", "size", "mtime_ns"} <= record.keys() else None


def _state(record: dict[str, Any] | None) -> str:
    """:data:`STATES`' word for an entry with `record`."""
    if record is None:
        return "unknown"
    try:
        status = os.stat(record["source"])
    except (OSError, TypeError, ValueError):
        return "missing"
    same = (stat.S_ISREG(status.st_mode) and status.st_size == record["size"]
            and status.st_mtime_ns == record["mtime_ns"])
    return "fresh" if same else "changed"


def _prune_stale(folder: Path) -> None:
    """Remove the entries of `folder` whose source is gone or changed (no command reads them
    again), after :func:`_keep` wrote one: a stat and a read of a few hundred bytes per entry,
    only when a value was derived (seconds of parsing) rather than read. Entries in another
    format and temporary files are left alone (``paralign cache prune`` removes those): a
    temporary file may be another process's write in progress, and an entry of another format
    may be read by another paralign sharing the folder."""
    with contextlib.suppress(OSError):
        for path in folder.glob(f"*{SUFFIX}"):
            record = _record(path)
            if record is not None and _state(record) != "fresh":
                with contextlib.suppress(OSError):
                    path.unlink()


def _iso_time(ns: int) -> str:
    """A file time as UTC ISO 8601 to the second."""
    return datetime.fromtimestamp(ns / 1e9, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def info() -> dict[str, Any]:
    """Each folder, its entries' count and size, and how many derived entries are stale, as
    ``paralign cache info --format json`` shows them (the keys are always there; a folder that
    is not set is None, with no entries)."""
    names, found = folder_names(), entries()
    derived_entries = [entry for entry in found if entry.kind == "derived"]
    vectors = [entry for entry in found if entry.kind == "vectors"]
    return {"folder": names["folder"], "entries": len(derived_entries),
            "bytes": sum(entry.bytes for entry in derived_entries),
            "stale": sum(entry.state in STALE for entry in derived_entries),
            "vector_folder": names["vector_folder"], "vector_entries": len(vectors),
            "vector_bytes": sum(entry.bytes for entry in vectors)}


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)
