"""The Microsoft Research Paraphrase corpus (MSRP) TSV: ``Quality TAB #1 ID TAB #2 ID TAB s1 TAB s2``.

The shipped train and test files start with a UTF-8 byte-order mark and use CRLF; sentences hold
bare double quotes, so lines are split on TAB only (no CSV quoting). The header line is optional.
Unusable rows are returned with their line numbers (:attr:`MsrpData.skipped`), never dropped
silently. The standard 4,076-pair training set is train + val of the shipped split:
``load_msrp(train, val)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import counted
from ..textio import open_text
from .sts import (
    TABLE_SENTENCES,
    RowIssue,
    empty_sentence,
    read_rows,
    table_header,
    table_rows,
    too_few_fields,
)
from .sts import is_msrp_header as is_header


@dataclass(frozen=True, slots=True)
class ParaphrasePair:
    """A sentence pair labelled paraphrase (True) or not (False)."""

    id: str
    label: bool
    sentence1: str
    sentence2: str
    line: int
    source: str = ""


@dataclass(frozen=True, slots=True)
class MsrpData:
    """The usable pairs of one or more MSRP files plus skipped rows and notes (with file names)."""

    paths: tuple[str, ...]
    pairs: tuple[ParaphrasePair, ...]
    skipped: tuple[tuple[str, RowIssue], ...] = ()
    notes: tuple[tuple[str, RowIssue], ...] = ()

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[ParaphrasePair]:
        return iter(self.pairs)

    @property
    def labels(self) -> list[bool]:
        return [p.label for p in self.pairs]

    def summary(self) -> dict:
        """Counts and the skipped rows, for reports."""
        return {
            "paths": list(self.paths),
            "pairs": len(self.pairs),
            "positive": sum(self.labels),
            "skipped": len(self.skipped),
            "skipped_rows": [{"file": f, **r.to_dict()} for f, r in self.skipped],
            "notes": len(self.notes),
        }


def _parse(fields: list[str], number: int, source: str) -> tuple[ParaphrasePair | None, str, list[str]]:
    notes: list[str] = []
    if len(fields) < 5:
        header = ", or a first line naming the columns, sentence1, sentence2 and label among them" if number == 1 else ""
        return None, f"{too_few_fields(len(fields), 'msrp')}{header}", notes
    if len(fields) > 5:
        notes.append(f"{counted(len(fields) - 5, 'extra trailing field')} ignored")
    quality, id1, id2, s1, s2 = (f.strip() for f in fields[:5])
    if quality not in ("0", "1"):
        reason = "no label" if not quality else f"label {quality!r} is not 0 or 1"
        return None, reason, notes
    if (empty := empty_sentence(s1, s2)) is not None:
        return None, empty, notes
    pair_id = "-".join(i for i in (id1, id2) if i) or f"{Path(source).name}:{number}"  # a table's one id alone
    return ParaphrasePair(pair_id, quality == "1", s1, s2, number, source), "", notes


def _table_rows(path: str | Path) -> Iterator[tuple[int, list[str] | str, list[RowIssue]]]:
    """A table's records (:func:`.sts.table_rows`) as MSRP rows (label, id, '', sentence1,
    sentence2), or why a record has none; FormatError for a header without a ``label`` column."""
    return table_rows(path, ("label",), "'label' column (1 paraphrase, 0 not)",
                      lambda record, gold: [record[gold], record.get("id", ""), "", *(record[n] for n in TABLE_SENTENCES)])


def load_msrp(*paths: str | Path) -> MsrpData:
    """Read one or more MSRP TSV files (e.g. train and val) into one labelled pair list; a file
    may be a CSV or TSV table instead, whose header names ``sentence1``, ``sentence2`` and ``label``
    columns (PAWS, GLUE MRPC as Hugging Face writes it: :func:`.sts.table_header`)."""
    pairs: list[ParaphrasePair] = []
    skipped: list[tuple[str, RowIssue]] = []
    notes: list[tuple[str, RowIssue]] = []
    for path in paths:
        source = str(path)
        with open_text(path) as handle:
            table = table_header(next(iter(handle), "")) is not None
        for number, fields, row_notes in (_table_rows(path) if table else read_rows(path)):
            if isinstance(fields, str):  # a table's record without its fields
                skipped.append((source, RowIssue(number, fields)))
                continue
            notes.extend((source, n) for n in row_notes)
            if not any(f.strip() for f in fields):
                skipped.append((source, RowIssue(number, "empty line")))
                continue
            if is_header(fields):
                notes.append((source, RowIssue(number, "header line")))
                continue
            pair, reason, extra = _parse(fields, number, source)
            notes.extend((source, RowIssue(number, n)) for n in extra)
            if pair is None:
                skipped.append((source, RowIssue(number, reason)))
            else:
                pairs.append(pair)
    return MsrpData(tuple(str(p) for p in paths), tuple(pairs), tuple(skipped), tuple(notes))
