"""What the paraphrases page and ``POST /api/paraphrases`` show of a phrase's rows: what the
source holds, as ``paralign paraphrases`` prints a table's rows (:class:`ParaphraseRows`).

A table loaded from a file (``paralign serve --table``) is held in memory with one score a
row, which the page showed under "score" whatever the table calls it. What the file holds
beyond that (a pivot table's ``pivots`` and ``support``, a monolingual table's ``count`` and
``phrase_count``; ``column4``, ``column5``... in a TSV table without a header, as ``paralign
paraphrases`` names them) is read from the file when asked, by the function ``paralign paraphrases``
reads it with (:func:`~paralign.phrase_keys.lookup_held`: a Parquet table reads only the row
groups that can hold the phrase, a TSV table only the phrase's lines, found by its
:class:`.row_index.RowIndex`, built on the first request that reads the file), and the score is named as the table
names it (:func:`~paralign.tables.score_column`: ``probability`` in a table pivot built).

Not for: loading the sources (:mod:`.engine`) or showing the rows (:mod:`.api`, the template).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paraphrases import (
    ParaphraseSource,
    ParaphraseTable,
    Score,
    built_in_named,
    load_source,
    source_spec_parts,
)
from ..phrase_keys import form_of, lookup_held, row_key
from ..tables import TableHead, extra_names, score_name, table_head
from ..workers import Progress
from .row_index import RowIndex, SpellingIndex, file_stamp, unchanged

#: What a source that is not a table file names its score (PPDB's pairs, WordNet, a table built
#: in memory), as ``paralign paraphrases`` names the score of a table that names none.
SCORE = "score"


class _FirstUse:
    """What a :class:`TableFile` finds on its first request that needs it: a TSV table's
    :class:`.row_index.RowIndex` (None once found of no use) and the most columns a row has; a
    user's Parquet table's :class:`.row_index.SpellingIndex`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = False
        self.index: RowIndex | None = None
        self.widest = 3
        self.spellings: SpellingIndex | None = None


@dataclass(frozen=True, slots=True)
class TableFile:
    """A paraphrase table the server loaded from a file: its path, the threshold it kept rows by
    (None: every row), what it names its score, what it says of itself before its rows (its
    :class:`~paralign.tables.TableHead`, read once when the server starts) and the file's size
    and time then."""

    path: str
    threshold: float | None
    score_column: str
    head: TableHead
    stamp: tuple[int, int]
    _first_use: _FirstUse = field(default_factory=_FirstUse, compare=False, repr=False)

    @classmethod
    def of(cls, spec: str, threshold: float | None) -> TableFile:
        """The file of a ``--table`` spec (``path[:threshold]``) the server loaded with `threshold`,
        its head read once (:func:`~paralign.tables.table_head`: the server read it for every request,
        and three times when it started). Nothing else is read until a request needs it: a TSV table's
        :class:`.row_index.RowIndex`, built in one pass over the file when it started, is built on
        the first request for the table's rows (a table of three columns needs none, nor a table no
        one asks)."""
        path = table_path(spec)
        stamp = file_stamp(path)  # before its head is read: a file changed meanwhile is read afresh
        head = table_head(path)
        return cls(path, threshold, score_name(head.names), head, stamp)

    def _found(self) -> _FirstUse:
        """The index of a TSV table and its widest row, found in one pass on first use; a Parquet
        table's columns are its schema's, and a user's table of more columns than three, its
        first column ``phrase`` (which the query filters), has its phrases' spellings read."""
        found, names, key = self._first_use, self.head.names, row_key(form_of(self.head.metadata))
        with found.lock:
            if not found.done and not self.head.parquet:
                index = RowIndex.build(self.path, key)
                found.widest = index.widest
                found.index = index if extra_names(names, max(len(names), index.widest), self.score_column) else None
            elif not found.done and key is not None and names[:1] == ("phrase",) and len(names) > 3:
                found.spellings = SpellingIndex.build(self.path, key)
            found.done = True
        return found

    @property
    def columns(self) -> tuple[str, ...]:
        """The names of its columns after the score, as ``paralign paraphrases`` names them
        (:func:`~paralign.tables.extra_names`): as its header or schema names them, else
        ``column4``, ``column5``... up to its widest row (none in a table of three columns, whose
        rows memory holds whole). A TSV table without a header had none, so its rows of more
        columns were shown with their score alone."""
        width = max(len(self.head.names), self._found().widest)
        return tuple(extra_names(self.head.names, width, self.score_column))

    @property
    def index(self) -> RowIndex | None:
        """Where a TSV table's rows are, by phrase (None: a Parquet table, or no column to read)."""
        return self._found().index

    def rows(self, phrase: str) -> tuple[str, list[dict[str, Any]]]:
        """The key `phrase` is looked up by, and its rows in the file with every column, as
        ``paralign paraphrases --format json`` gives them, but only those the server holds:
        a row scored under the threshold is left out, as it was when the table was loaded. A
        TSV table reads the phrase's lines alone (its index's), a Parquet table the row groups that
        can hold it (a user's table, its spellings too); a file changed since the server started
        is read whole, its head too."""
        found = self._found()
        current = unchanged(self.path, self.stamp)
        index = found.index if current and found.index is not None and found.index.current() else None
        spellings = found.spellings if current and found.spellings is not None and found.spellings.current() else None
        held, found_rows = lookup_held(self.path, [phrase], lines=None if index is None else index.lines,
                                       written=None if spellings is None else spellings.written,
                                       head=self.head if current else None, threshold=self.threshold)
        key = held[phrase]
        return key, found_rows[key]


def table_file(spec: str, source: ParaphraseSource) -> TableFile | None:
    """The :class:`TableFile` of a ``--table`` spec whose rows the server loaded as `source`;
    None for a spec that names a built-in source (PPDB's own file is the built-in ``ppdb``,
    whose pairs have no other column: an index of it was built at every start and never read)."""
    if built_in_named(spec) is not None:
        return None
    return TableFile.of(spec, getattr(source, "threshold", None))


def table_name(spec: str, taken: Iterable[str]) -> str:
    """A table's name in the app: its file name (without ``:threshold``), made unique."""
    base = Path(table_path(spec)).name
    taken = set(taken)
    return next(name for name in itertools.chain([base], (f"{base}-{k}" for k in itertools.count(2)))
                if name not in taken)


def table_source(spec: str, sources: Mapping[str, ParaphraseSource], progress: Progress | None = None,
                 ) -> tuple[str, ParaphraseSource]:
    """A ``--table`` spec's name in the app and its source, given the `sources` loaded before it:
    a built-in among them (``--table ppdb`` with PPDB among the resources, or named twice; PPDB's
    own file by its path) is that source under its name (it was read again, as ``ppdb-2``, 0.6 s
    and 33 MiB); anything else is loaded (`progress` wraps a file's rows), named :func:`table_name`."""
    built_in = built_in_named(spec)
    for name, source in sources.items():
        if built_in is not None and built_in == getattr(source, "built_in", None):
            return name, source
    return table_name(spec, sources), load_source(spec, progress=progress)


#: The phrase the API docs page looks up in its paraphrases example where the source has it.
EXAMPLE_PHRASE = "car"


def example_phrase(source: ParaphraseSource) -> str:
    """A phrase `source` has paraphrases of, for the API docs page's example: :data:`EXAMPLE_PHRASE`
    where a table holds it (and in WordNet, which does), else the table's first phrase of letters
    (else its first): the example asked every source for "car", and a user's table without it
    answered 0 rows. Cheap (a table's phrases in memory, no WordNet lookup): the page is made on
    the event loop."""
    if not isinstance(source, ParaphraseTable) or EXAMPLE_PHRASE in source:
        return EXAMPLE_PHRASE
    phrases = list(itertools.islice(source.phrases(), 1000))
    return next((p for p in phrases if p.replace(" ", "").isalpha()), phrases[0] if phrases else EXAMPLE_PHRASE)


def table_path(spec: str) -> str:
    """The file of a ``--table`` spec: ``path[:threshold]`` without its threshold (a file whose
    name holds a colon is the file)."""
    return source_spec_parts(spec)[0]


@dataclass(frozen=True, slots=True)
class ParaphraseRows:
    """A phrase's paraphrases in a source, best first: the key the source was asked with, what
    the source names its score, the names of its other columns, and the rows (each
    ``paraphrase``, the score keyed by `score_column`, then `columns`), as ``paralign
    paraphrases --format json`` gives a table's."""

    key: str
    score_column: str
    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]

    @classmethod
    def held(cls, key: str, found: Sequence[tuple[str, Score]], name: str = SCORE) -> ParaphraseRows:
        """The rows of a source as memory holds them: a paraphrase and its score, named `name`."""
        return cls(key, name, (), tuple({"paraphrase": paraphrase, name: score} for paraphrase, score in found))
