"""Where each phrase's rows are in a TSV paraphrase table file: the :class:`RowIndex` by which
the paraphrases page reads a phrase's rows, and nothing else, from a table the server loaded.

Why: the page shows a row's columns after the score (``pivots``, ``support``...), which the
table in memory does not hold. They were read by scanning the whole file for every request
(a median of 1.1 to 1.6 s for 200,000 rows on two busy cores; 2 to 9 ms with the index:
``benchmarks/serve_table_rows.py``); the index is built once, on the first request that reads the table's rows, in one more pass over it, and a
request then reads only its phrase's lines. Holding the columns themselves in memory would
cost what their text costs (a pivot table's ``pivots`` and ``support`` about as much again as
the table in memory); the index holds three 8-byte numbers a row whatever the rows hold (4.8 MB for 200,000 rows,
beside the 32 MB of the table in memory): a
hash of the row's phrase as :func:`~paralign.tables.lookup` matches it, the line's byte offset
and its line number, in numpy arrays sorted by hash.

A hash shared by two phrases only reads the other phrase's lines too, which the lookup drops
(it matches each row's phrase). A file changed since it was indexed (its size or modification
time not those seen then) is read whole again, as before the index, so a request never reads
a line at an offset of another file's; a gzip table is read from its start to the phrase's
last line (gzip cannot seek), still one pass at most.

Not for: what the rows show (:mod:`.table_rows`) or reading a row (:func:`~paralign.tables.tsv_rows`).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..line_ends import lf_text
from ..tables import parquet_phrases, row_lines
from ..textio import open_binary, strip_bom


def file_stamp(path: str | Path) -> tuple[int, int]:
    """What tells a file changed: its size and modification time (ns)."""
    found = os.stat(path)
    return found.st_size, found.st_mtime_ns


def unchanged(path: str | Path, stamp: tuple[int, int]) -> bool:
    """Whether the file at `path` is still the one of `stamp` (:func:`file_stamp`; False when it is gone)."""
    try:
        return file_stamp(path) == stamp
    except OSError:
        return False


def _line_text(data: bytes, offset: int) -> str:
    """A line of the file's bytes as the table readers read it (:mod:`paralign.line_ends`: CRLF
    an LF, a lone CR a space; the byte-order mark of the first line dropped). The file was
    read strictly when it was loaded, so a byte that is no UTF-8 now is one of a changed file,
    read with U+FFFD for it."""
    text = lf_text(data.decode("utf-8", errors="replace"))
    return strip_bom(text) if offset == 0 else text


@dataclass(frozen=True, slots=True, eq=False)
class RowIndex:
    """The row lines of a TSV table by phrase: `hashes` (each row's phrase key's hash, sorted),
    and for each the line's byte `offsets` in the (decompressed) file and its line `numbers`,
    in the file's order within one hash; `stamp`: the file's size and modification time when
    it was indexed; `widest`: the most columns a row has (3 at least)."""

    path: str
    hashes: np.ndarray
    offsets: np.ndarray
    numbers: np.ndarray
    stamp: tuple[int, int]
    widest: int

    @classmethod
    def build(cls, path: str, key: Callable[[str], str] | None) -> RowIndex:
        """One pass over the table file at `path`: each row line's phrase keyed by `key` (None:
        as written; :func:`paralign.phrase_keys.row_key`), its offset and number. The lines
        that hold rows are those :func:`~paralign.tables.row_lines` gives (not blank lines,
        comments, or the ``# paralign:`` record)."""
        stamp = file_stamp(path)
        hashes, offsets, numbers = array("q"), array("q"), array("q")
        widest, start, last = 3, [0], ("", "")

        def lines(raw: Iterator[bytes]) -> Iterator[str]:
            offset = 0
            for data in raw:
                start[0] = offset
                yield _line_text(data, offset)
                offset += len(data)

        with open_binary(path) as raw:
            for number, line in row_lines(lines(iter(raw)), source=path):  # start[0]: this line's offset
                phrase = line.split("\t", 1)[0]
                if phrase != last[0]:  # a table's rows come grouped by phrase: one key a run
                    last = (phrase, phrase if key is None else key(phrase))
                hashes.append(hash(last[1]))
                offsets.append(start[0])
                numbers.append(number)
                widest = max(widest, line.count("\t") + 1)
        order = np.argsort(np.frombuffer(hashes, dtype=np.int64), kind="stable")
        return cls(path, np.frombuffer(hashes, dtype=np.int64)[order], np.frombuffer(offsets, dtype=np.int64)[order],
                   np.frombuffer(numbers, dtype=np.int64)[order], stamp, widest)

    @property
    def nbytes(self) -> int:
        """The bytes the index holds."""
        return self.hashes.nbytes + self.offsets.nbytes + self.numbers.nbytes

    def current(self) -> bool:
        """Whether the file is the one indexed (its size and modification time unchanged)."""
        return unchanged(self.path, self.stamp)

    def lines(self, keys: Sequence[str]) -> Iterator[tuple[int, str]]:
        """The numbered row lines (without line ends) whose phrase's key may be one of `keys`,
        in the file's order, read from the file at their offsets."""
        wanted = [np.int64(hash(key)) for key in dict.fromkeys(keys)]
        spans = [np.arange(np.searchsorted(self.hashes, h, "left"), np.searchsorted(self.hashes, h, "right"))
                 for h in wanted]
        found = np.concatenate(spans) if spans else np.empty(0, dtype=np.int64)
        found = found[np.argsort(self.offsets[found], kind="stable")]
        with open_binary(self.path) as raw:
            for offset, number in zip(self.offsets[found].tolist(), self.numbers[found].tolist(), strict=True):
                raw.seek(offset)
                yield number, _line_text(raw.readline(), offset).rstrip("\r\n")


@dataclass(frozen=True, slots=True, eq=False)
class SpellingIndex:
    """The phrases of a user's Parquet table (one without a record, matched by a key: its phrases
    folded, :func:`paralign.phrase_keys.row_key`) by their key, for those whose key is not the
    phrase as written (``Car`` under ``car``): a request then queries the rows of its key and of
    those spellings with the filter ``paralign paraphrases`` queries a built table with
    (:func:`paralign.tables.lookup`'s `written`), where it read every row (0.17 s a request for
    200,000 rows: ``benchmarks/serve_table_rows.py --format parquet``). A table whose phrases are
    written as their keys holds an empty dict. `stamp`: the file's size and time when indexed."""

    path: str
    spellings: dict[str, tuple[str, ...]]
    stamp: tuple[int, int]

    @classmethod
    def build(cls, path: str, key: Callable[[str], str]) -> SpellingIndex:
        """One read of the table's phrase column (:func:`~paralign.tables.parquet_phrases`)."""
        stamp = file_stamp(path)
        spellings: dict[str, set[str]] = {}
        for phrase in parquet_phrases(path):
            if key(phrase) != phrase:
                spellings.setdefault(key(phrase), set()).add(phrase)
        return cls(path, {k: tuple(sorted(v)) for k, v in spellings.items()}, stamp)

    def current(self) -> bool:
        """Whether the file is the one indexed (its size and modification time unchanged)."""
        return unchanged(self.path, self.stamp)

    def written(self, keys: Sequence[str]) -> list[str]:
        """The phrases as the table writes them whose key may be one of `keys`: each key and its other spellings."""
        return list(dict.fromkeys(w for k in keys for w in (k, *self.spellings.get(k, ()))))

