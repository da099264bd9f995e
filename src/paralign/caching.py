"""Size-capped lookup caches for long-lived objects: :class:`CappedDict` and :func:`cache_dict`.

A scorer or aligner that lives as long as a server (``paralign serve``) sees a stream of new
words and phrases; a cache that keeps every answer grows with it. A :class:`CappedDict` holds
at most `limit` entries: storing a new key when it is full empties it first (it *starts again*,
as the other capped caches of the package do). Clearing beats dropping the oldest entry here:
a dict that drops its first key again and again walks over the holes it leaves, while a clear is
one step, and the answers it held are recomputed on demand (a cache never changes a result).

Only ``d[key] = value`` is capped: ``setdefault``, ``update`` and ``|=`` are a plain dict's, so
code filling a capped cache stores with ``[]``.

Not for: caches whose entries others hold on to (clearing them would change a result), nor
caches that need a least-recently-used order.
"""

from __future__ import annotations

from typing import TypeVar

from .errors import ConfigurationError

K = TypeVar("K")
V = TypeVar("V")


class CappedDict(dict[K, V]):
    """A dict of at most `limit` entries: storing a new key into a full one clears it first."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        if limit < 1:
            raise ConfigurationError(f"a cache's size must be at least 1, got {limit}")
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.limit and key not in self:
            self.clear()
        super().__setitem__(key, value)

    def __reduce__(self) -> tuple:
        """Pickled with its limit, which must be set before its entries are stored again."""
        return type(self), (self.limit,), None, None, iter(self.items())


def cache_dict(limit: int | None) -> dict:
    """An empty cache of at most `limit` entries (a :class:`CappedDict`), or a plain dict for
    None (no bound: batch scoring, where every answer is asked for again, keeps them all and
    pays nothing for a check)."""
    return {} if limit is None else CappedDict(limit)
