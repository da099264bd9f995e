"""What the paraphrases page and ``POST /api/paraphrases`` show of a phrase's rows: what the
source holds, as ``paralign paraphrases`` prints a table's rows (:class:`ParaphraseRows`).

A table loaded from a file (``paralign serve --table``) is held in memory with one score a
row, which the page showed under "score" whatever the table calls it. What the file holds
beyond that (a pivot table's ``pivots`` and ``support``, a monolingual table's ``count`` and
``phrase_count``; ``column4``, ``column5``... in a TSV table without a header, as ``paralign
paraphrases`` names them) is read from the file when asked, by the function ``paralign paraphrases``
reads it with (:func:`~paralign.phrase_keys.lookup_held`: a Parquet table reads only the row
groups that can hold the phrase, a TSV table only the phrase's lines, found by its
:class:`.row_index.RowIndex`, built when the table was loaded), and the score is named as the table
names it (:func:`~paralign.tables.score_column`: ``probability`` in a table pivot built).

Not for: loading the sources (:mod:`.engine`) or showing the rows (:mod:`.api`, the template).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..paraphrases import Score, source_spec_parts
from ..phrase_keys import lookup_held, row_key, table_form
from ..tables import extra_names, is_parquet_file, score_column, table_columns
from .row_index import RowIndex

#: What a source that is not a table file names its score (PPDB's pairs, WordNet, a table built
#: in memory), as ``paralign paraphrases`` names the score of a table that names none.
SCORE = "score"


@dataclass(frozen=True, slots=True)
class TableFile:
    """A paraphrase table the server loaded from a file: its path, the threshold it kept rows by
    (None: every row), what it names its score, and the names of its columns after the score
    (none in a table of three columns, whose rows memory holds whole)."""

    path: str
    threshold: float | None
    score_column: str
    columns: tuple[str, ...]
    #: where a TSV table's rows are, by phrase (None: a Parquet table, or no column to read)
    index: RowIndex | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, spec: str, threshold: float | None) -> TableFile:
        """The file of a ``--table`` spec (``path[:threshold]``) the server loaded with `threshold`;
        its columns after the score named as ``paralign paraphrases`` names them
        (:func:`~paralign.tables.extra_names`): as its header or schema names them, else
        ``column4``, ``column5``... up to its widest row. A TSV table without a header had none,
        so its rows of more columns were shown with their score alone. A TSV table of more
        columns is indexed (:class:`.row_index.RowIndex`), in the one pass that finds its widest row."""
        path = table_path(spec)
        names = table_columns(path)
        score = score_column(path)
        index = None if is_parquet_file(path) else RowIndex.build(path, row_key(table_form(path)))
        columns = tuple(extra_names(names, max(len(names), index.widest if index else 0), score))
        return cls(path, threshold, score, columns, index if columns else None)

    def rows(self, phrase: str) -> tuple[str, list[dict[str, Any]]]:
        """The key `phrase` is looked up by, and its rows in the file with every column, as
        ``paralign paraphrases --format json`` gives them, but only those the server holds:
        a row scored under the threshold is left out, as it was when the table was loaded. A
        TSV table reads the phrase's lines alone (its index's), or all of them if the file
        changed since it was indexed."""
        index = self.index if self.index is not None and self.index.current() else None
        held, found = lookup_held(self.path, [phrase], lines=None if index is None else index.lines)
        key, name = held[phrase], self.score_column
        kept = [row for row in found[key] if self.threshold is None or row[name] is None or row[name] >= self.threshold]
        return key, kept


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
