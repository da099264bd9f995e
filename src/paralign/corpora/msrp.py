"""The Microsoft Research Paraphrase corpus (MSRP) TSV: ``Quality TAB #1 ID TAB #2 ID TAB s1 TAB s2``.

The shipped train and test files start with a UTF-8 byte-order mark and use CRLF; sentences hold
bare double quotes, so lines are split on TAB only (no CSV quoting). The header line is optional.
Unusable rows are returned with their line numbers (:attr:`MsrpData.skipped`), never dropped
silently. The standard 4,076-pair training set is train + val of the shipped split:
``load_msrp(train, val)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError, counted
from ..textio import open_text
from .sentence_pairs import _is_sts_benchmark, _sample_fields, detect_layout
from .sts import (
    MSRP_SAMPLE,
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


def check_not_sts(path: str | Path, sample: Sequence[str]) -> None:
    """FormatError naming `path` when its first lines (`sample`: its first :data:`.sts.MSRP_SAMPLE`
    lines as read, read once by :func:`load_msrp`) are an STS file's (SemEval ``score TAB s1
    TAB s2`` or the STS Benchmark, as ``similarity --pairs`` tells them:
    :func:`~.sentence_pairs.detect_layout`) and none of them is a labelled MSRP row (five fields
    or more, 0 or 1 first). Read as MSRP, every row of such a file was skipped (``3 fields,
    expected 5``, or the Benchmark's genre ``label 'main-captions' is not 0 or 1``), and
    evaluate-paraphrase failed with "no usable pairs" without naming the command that reads it, as
    :func:`.sts.detect_format` names evaluate-paraphrase of an MSRP file. So is a table whose
    header names a ``score`` column and no ``label`` (STS-B as sentence-transformers writes it),
    which said only that it named no 'label' column."""
    header = table_header(sample[0]) if sample else None
    if header is not None and "score" in header and "label" not in header:
        raise FormatError("a table of STS gold scores (its header names a 'score' column, no 'label'), not "
                          "paraphrase labels; evaluate it with evaluate-sts", source=str(path), line=1)
    if detect_layout(sample) != "sts":
        return
    if any(len(fields) >= 5 and fields[0].strip() in ("0", "1") for fields in _sample_fields(sample)):
        return  # an MSRP row among them: the file is read as MSRP, its bad rows listed
    told = ("the STS Benchmark: genre, source, year, id, score, sentence1, sentence2" if _is_sts_benchmark(sample)
            else "SemEval STS: score TAB sentence1 TAB sentence2")
    raise FormatError(f"an STS file ({told}), not MSRP: its gold scores are no paraphrase labels; "
                      "evaluate it with evaluate-sts", source=str(path))


def load_msrp(*paths: str | Path) -> MsrpData:
    """Read one or more MSRP TSV files (e.g. train and val) into one labelled pair list; a file
    may be a CSV or TSV table instead, whose header names ``sentence1``, ``sentence2`` and ``label``
    columns (PAWS, GLUE MRPC as Hugging Face writes it: :func:`.sts.table_header`). An STS file is
    a FormatError naming it (:func:`check_not_sts`)."""
    pairs: list[ParaphrasePair] = []
    skipped: list[tuple[str, RowIssue]] = []
    notes: list[tuple[str, RowIssue]] = []
    for path in paths:
        source = str(path)
        with open_text(path) as handle:
            sample = list(itertools.islice(handle, MSRP_SAMPLE))  # as similarity --pairs samples a file
        table = bool(sample) and table_header(sample[0]) is not None
        check_not_sts(path, sample)
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
