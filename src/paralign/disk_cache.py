"""A disk cache of what paralign derives from a resource file: :func:`derived`.

PPDB's 210,000 lexical pairs take 0.3-0.7 s to parse and normalise, which every command using
them paid on every run (``paraeval`` scoring 19 systems in about 3 s, ``align`` on one pair).
Here the derived value is written once under :func:`paralign.settings.cache_dir` with
:mod:`marshal` (builtin types only: dicts, strings, tuples, frozensets; loading one runs no
code, unlike pickle) and read back in about a seventh of the time. The entry's name holds a hash
of what the value depends on: the source file's real path, size and modification time, the
deriving code's `version`, paralign's version and Python's (marshal's format is Python's own),
so a changed file or a new release never reads an old entry. A cache never changes a result:
an entry that cannot be read is derived again, and one that cannot be written (a read-only
home, PARALIGN_CACHE_DIR empty) is simply not kept. Only a regular file is a source: a pipe, a
FIFO or a device (``/dev/stdin``) gives other bytes each time it is read, and a path in
:func:`not_kept` (a temporary copy of stdin, which no later command reads) would only leave
entries behind; their values are derived every time.

Not for: values other than builtin containers (marshal refuses them), caches that live in
memory (:mod:`paralign.caching`), or the ParaEval vector cache (PARALIGN_VECTOR_CACHE).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from ._version import __version__
from .settings import cache_dir

T = TypeVar("T")


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


def entry_path(name: str, source: str | os.PathLike[str], version: str, *, min_bytes: int = 0) -> Path | None:
    """Where :func:`derived` keeps `name` derived from `source` by code of `version` (None when
    there is no cache folder, the source cannot be stat'ed, is not a regular file, is smaller
    than `min_bytes` or is in :func:`not_kept`)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        status = os.stat(source)
    except OSError:
        return None
    real = os.path.realpath(source)
    if not stat.S_ISREG(status.st_mode) or status.st_size < min_bytes or real in _NOT_KEPT:
        return None
    key = "|".join(map(str, (real, status.st_size, status.st_mtime_ns, version, __version__,
                             sys.version_info[:2])))
    return folder / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.marshal"


def derived(name: str, source: str | os.PathLike[str], build: Callable[[], T], *, version: str,
            min_bytes: int = 0) -> T:
    """`build()`, the value `name` derived from the file `source` by code of `version` (change it
    when that code changes what it gives), read from the cache when an entry is there, else built
    and kept for the next process (older entries of `name` are removed). A source smaller than
    `min_bytes` is not worth an entry (it is parsed about as fast as an entry is read): its value
    is built every time, as is the value of a source that changed while `build` read it."""
    path = entry_path(name, source, version, min_bytes=min_bytes)
    if path is not None:
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
            return marshal.loads(path.read_bytes())  # type: ignore[no-any-return]
    value = build()
    if path is not None and path == entry_path(name, source, version, min_bytes=min_bytes):
        _keep(path, name, value)  # not when the file changed while it was read: the value is of neither
    return value


def _keep(path: Path, name: str, value: object) -> None:
    """Write `value` to `path` under a temporary name, then rename (a reader never sees half an
    entry; two processes writing at once each write a whole one); remove `name`'s other entries.
    Best effort: a folder that cannot be written to keeps nothing."""
    try:
        data = marshal.dumps(value)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(prefix=f".{name}-", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        for old in path.parent.glob(f"{name}-*.marshal"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
    except (OSError, ValueError):
        return
