"""Semantic Textual Similarity data: SemEval STS 2012-2016 TSV and the STS Benchmark CSV.

Two layouts are read (see the READMEs under ``similarity/`` in the data folder):

* ``sts``: SemEval 2012-2016, no header, ``score TAB sentence1 TAB sentence2``; the score may be
  empty (pairs without gold, which must be skipped).
* ``stsb``: STS Benchmark, no header, ``genre TAB source TAB year TAB id TAB score TAB s1 TAB s2``
  with, on some lines, two extra trailing licence fields.

and a user's own table (``table``): a CSV or TSV whose first line names its columns, two of them
``sentence1`` and ``sentence2`` and the gold ``score`` (or ``label``), as GLUE, Hugging Face
datasets and sentence-transformers write them (:func:`table_header`, :func:`table_records`).

Rows that cannot be used are never dropped silently: they are returned in
:attr:`StsData.skipped` with their line numbers (a gold score that is not a finite number in
0-5 among them: it would make every correlation wrong); usable rows with an irregularity
(byte-order mark, extra columns) are listed in :attr:`StsData.notes`. A sentence is read as
written but for the white space around it (STS 2012's SMTeuroparl.train has 114 pairs with a
sentence ending in spaces, SMTnews.test 57, the Benchmark's train split 311 with one starting
or ending with a space), as MSRP's (:mod:`.msrp`) and ``similarity --pairs`` read them.
"""

from __future__ import annotations

import csv
import itertools
import math
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..alignment import is_blank
from ..errors import ConfigurationError, FormatError, counted
from ..line_ends import line_text
from ..textio import BOM, float_field, is_float_field, is_number_field, open_text, strip_bom

#: Layout names accepted by :func:`load_sts`.
STS_FORMATS = ("sts", "stsb", "table")
#: The declared range of gold STS scores (SemEval 0-5): a row outside it is skipped, not scored.
SCORE_RANGE: tuple[float, float] = (0.0, 5.0)


@dataclass(frozen=True, slots=True)
class RowIssue:
    """A row of a data file that was skipped (or kept with a note), with the reason."""

    line: int
    reason: str

    def to_dict(self) -> dict:
        return {"line": self.line, "reason": self.reason}


def empty_sides(sides: Iterable[tuple[str, object]]) -> str | None:
    """Why a pair is not scored when a sentence has no word: bad input of its row, which an
    evaluation skips and lists (never scores, never counts as failed), read from a file or given
    as pairs. ``empty NAME sentence`` (``empty NAME and NAME sentence``) for the (name, sentence) `sides`
    that have no word (white space only; a token list or Sentence with no token but blank ones:
    :func:`~paralign.alignment.is_blank`), else None: the one wording of an empty side, which
    ``align`` names ``source`` and ``target`` (:data:`ALIGN_SIDES`) and the
    similarity commands ``first`` and ``second`` (:data:`SIMILARITY_SIDES`), an STS or MSRP row's
    and every pair ``similarity`` reads."""
    empty = [name for name, sentence in sides if is_blank(sentence)]
    return f"empty {' and '.join(empty)} sentence" if empty else None


#: The names of a pair's sides in the messages on it (``empty target sentence``): `align`'s and
#: the web app's; the similarity commands name them as :data:`SIMILARITY_SIDES` (``first``, ``second``).
ALIGN_SIDES: tuple[str, str] = ("source", "target")


#: The names of a pair's sides in the messages of the similarity commands (``empty second
#: sentence``, ``expected 2 TAB-separated sentences (first, second)``): an STS or MSRP row's, and
#: ``similarity``'s of every input it reads (:func:`.sentence_pairs.read_pair_rows`).
SIMILARITY_SIDES: tuple[str, str] = ("first", "second")


def empty_sentence(first: object, second: object) -> str | None:
    """Why a pair is not scored when a sentence has no word (:func:`empty_sides`: ``empty first
    sentence``, ``empty second sentence`` or ``empty first and second sentence``: which side,
    where it said ``empty sentence`` of either), else None. The one test of the rows
    :func:`load_sts` and ``load_msrp`` read and of the pairs ``evaluate_sts`` and
    ``evaluate_paraphrase`` are given (:func:`usable_pairs`)."""
    return empty_sides(zip(SIMILARITY_SIDES, (first, second), strict=True))


@dataclass(frozen=True, slots=True)
class SkippedPair:
    """A pair given to an evaluation (0-based index in its list) that is not scored, and why:
    what :class:`RowIssue` is for a row of a file."""

    index: int
    reason: str

    def to_dict(self) -> dict:
        return {"index": self.index, "reason": self.reason}


def usable_pairs(pairs: Sequence[Sequence[object]]) -> tuple[list[int], tuple[SkippedPair, ...]]:
    """The indices of the pairs (sentence1, sentence2, ...) an evaluation scores, in order, and
    the ones it skips: a pair with an empty sentence (:func:`empty_sentence`), as the file
    readers skip its row."""
    kept: list[int] = []
    skipped: list[SkippedPair] = []
    for index, pair in enumerate(pairs):
        reason = empty_sentence(pair[0], pair[1])
        if reason is None:
            kept.append(index)
        else:
            skipped.append(SkippedPair(index, reason))
    return kept, tuple(skipped)


@dataclass(frozen=True, slots=True)
class StsPair:
    """A sentence pair with its gold similarity (0-5)."""

    id: str
    score: float
    sentence1: str
    sentence2: str
    line: int
    genre: str = ""


@dataclass(frozen=True, slots=True)
class StsData:
    """The usable pairs of one STS file plus every skipped row and every irregular kept row."""

    path: str
    format: str
    pairs: tuple[StsPair, ...]
    skipped: tuple[RowIssue, ...] = ()
    notes: tuple[RowIssue, ...] = ()

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[StsPair]:
        return iter(self.pairs)


def read_rows(path: str | Path) -> Generator[tuple[int, list[str], list[RowIssue]], None, None]:
    """Yield (line number, TAB fields, notes) for every line, stripping CR/LF and a BOM.

    Shared by the STS and MSRP readers; a BOM anywhere at a line start is removed and noted.
    A generator: a caller that stops early closes it (the file with it).
    """
    with open_text(path) as handle:
        yield from line_rows(handle)


def line_rows(lines: Iterable[str]) -> Iterator[tuple[int, list[str], list[RowIssue]]]:
    """:func:`read_rows`' rows of `lines` (a file's, from its first line)."""
    for number, raw in enumerate(lines, start=1):
        line = line_text(raw)
        notes: list[RowIssue] = []
        if line.startswith(BOM):
            line = line.lstrip(BOM)
            notes.append(RowIssue(number, "byte-order mark removed"))
        yield number, line.split("\t"), notes


def parse_score(text: str) -> float | None:
    """A gold score written in a field, or None (not a number, NaN or infinite)."""
    try:
        value = float_field(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None  # NaN and inf are not scores


#: How many rows that are not blank :func:`detect_format` looks at for an MSRP file.
MSRP_SAMPLE = 50


#: The sentence columns that make a file's first line the header of a table (:func:`table_header`).
TABLE_SENTENCES: tuple[str, str] = ("sentence1", "sentence2")


def table_header(line: str) -> tuple[str, ...] | None:
    """The column names (lower-cased) when `line`, a file's first line, is a header naming
    :data:`TABLE_SENTENCES` columns, TAB-separated when it holds a TAB, else comma-separated
    (Excel's byte-order mark aside); else None."""
    text = line_text(strip_bom(line))
    if not all(name in text.lower() for name in TABLE_SENTENCES):  # a row (its fields may be longer than
        return None  # the csv module's field limit, 131072 characters: it raised on a long SemEval row)
    try:
        names = tuple(name.strip().lower() for name in next(csv.reader([text], delimiter=_delimiter(text)), []))
    except csv.Error:  # not a line of column names
        return None
    return names if all(name in names for name in TABLE_SENTENCES) else None


def _delimiter(header: str) -> str:
    return "\t" if "\t" in header else ","


def table_records(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, str] | str]]:
    """The records of a table whose first line is its header (:func:`table_header`): (the line
    a record starts on, its fields by column name) or (that line, why it has none). A CSV is read
    as Python's csv module reads it (a quoted field holds commas, quotes and line breaks), a TSV
    split on TABs only (GLUE's and PAWS's sentences hold bare quotes)."""
    lines = iter(lines)
    first = next(lines, "")
    header, delimiter = table_header(first) or (), _delimiter(first)
    for start, end, fields in _records(lines, delimiter):
        if isinstance(fields, str):
            yield start, fields
        elif not any(f.strip() for f in fields):
            yield start, "empty line"
        elif len(fields) != len(header):
            spans = f" (a quoted field runs from line {start} to line {end}: a quote not closed?)" if end > start else ""
            yield start, f"{counted(len(fields), 'field')}, expected {len(header)}{spans}"
        else:
            yield start, dict(zip(header, fields, strict=True))


def _records(lines: Iterator[str], delimiter: str) -> Iterator[tuple[int, int, list[str] | str]]:
    """(first line, last line, fields or why there are none) of each record after the header: a
    TSV's line split on TABs, a CSV's record as the csv module reads it (a record it cannot read,
    such as one with a field past its limit of 131072 characters, is why, and reading goes on)."""
    if delimiter == "\t":
        for number, line in enumerate(lines, start=2):
            yield number, number, line_text(line).split("\t")
        return
    reader = csv.reader(lines)
    end = 1
    while True:
        try:
            fields: list[str] | str = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            fields = f"not a CSV record ({exc})"
        start, end = end + 1, 1 + reader.line_num
        yield start, end, fields


def detect_format(path: str | Path) -> str:
    """Guess ``sts`` or ``stsb`` from the first non-empty lines of a file, or ``table`` for a
    table with a header (:func:`table_header`); FormatError for an
    MSRP file (its header, or most sampled rows an MSRP row, as ``similarity --pairs`` tells it):
    its 0/1 labels were read as gold scores and its two ids as the sentences; so is a table of
    paraphrase labels (:func:`_check_not_labels`)."""
    with open_text(path) as handle:  # opened once: the first line tells a table, the rest a layout
        first = next(iter(handle), "")
        if table_header(first) is not None:
            _check_not_labels(path, [first, *itertools.islice(handle, MSRP_SAMPLE)])
            return "table"
        lines = itertools.chain([first] if first else [], handle)
        rows = (fields for _number, fields, _notes in line_rows(lines) if any(f.strip() for f in fields))
        sample = list(itertools.islice(rows, MSRP_SAMPLE))
        _check_not_msrp_or_numbered(path, sample)
        found = format_of_rows(itertools.chain(sample, rows))
    if found is None:
        raise FormatError("no STS rows found (expected 'score TAB s1 TAB s2', the STS Benchmark, or a CSV or TSV "
                          "whose first line names its columns, sentence1, sentence2 and score among them)",
                          source=str(path))
    return found


def _check_not_msrp_or_numbered(path: str | Path, sample: list[list[str]]) -> None:
    """FormatError naming `path` when its first rows that are not blank (`sample`) are an MSRP
    file's, or count up past the gold scores' range as the ids of numbered pairs do
    (:func:`detect_format`)."""
    if sample and ((header := is_msrp_header(sample[0])) or most_rows_msrp(sample)):
        told = "its first line is the 'Quality' header" if header else "a 0/1 label and two ids before the sentences"
        raise FormatError(f"an MSRP paraphrase file ({told}), not STS: its labels are no similarity scores and "
                          "its second and third fields are ids; evaluate it with evaluate-paraphrase", source=str(path))
    firsts = whole_firsts(sample)
    if counts_up(firsts) and firsts[-1][1] > SCORE_RANGE[1]:  # 1, 2, 3 ... 7: ids, rows 1-5 were scored against them
        shown = ", ".join(str(first) for _, first in firsts[:3])
        raise FormatError(f"the first fields ({shown}, ... {firsts[-1][1]}) count up past the gold scores' range "
                          f"({SCORE_RANGE[0]:g}-{SCORE_RANGE[1]:g}) as the ids of numbered pairs do, not gold scores: "
                          "expected 'score TAB s1 TAB s2' (paralign similarity scores numbered pairs)", source=str(path))


def _check_not_labels(path: str | Path, lines: Sequence[str]) -> None:
    """FormatError naming `path`, a table whose gold column is ``label`` (no ``score``), when every
    one of its first :data:`MSRP_SAMPLE` records' labels (in `lines`, its header and the lines
    after it, as :func:`detect_format` read them) is written 0 or 1, both found: MRPC's
    or PAWS's paraphrase labels, as Hugging Face writes them (GLUE's STS-B writes its gold
    scores under ``label`` too, as 3.8, 5.0). evaluate-sts correlated them as gold scores."""
    header = table_header(lines[0]) if lines else None
    if header is None or "score" in header or "label" not in header:
        return
    labels = {record["label"].strip() for _, record in table_records(lines) if not isinstance(record, str)}
    if labels == {"0", "1"}:
        raise FormatError("a table of paraphrase labels (its 'label' column holds 0 and 1 alone), not STS gold "
                          "scores; evaluate it with evaluate-paraphrase", source=str(path), line=1)


def format_of_rows(rows: Iterable[list[str]], votes_needed: int = 20) -> str | None:
    """``sts`` or ``stsb`` by the vote of the first `votes_needed` rows that are either (a score,
    or nothing, first: SemEval STS; else one in field 5: the STS Benchmark; ties to ``sts``), or
    None when no row is: how :func:`detect_format` and ``similarity --pairs``
    (:func:`paralign.corpora.sentence_pairs.read_sentence_pairs`) tell a file's layout."""
    votes = {"sts": 0, "stsb": 0}
    for fields in rows:
        if not any(f.strip() for f in fields):
            continue
        if (layout := row_layout(fields)) is not None:
            votes[layout] += 1
        if sum(votes.values()) >= votes_needed:
            break
    if not any(votes.values()):
        return None
    return max(votes, key=lambda k: votes[k])


def row_layout(fields: list[str]) -> str | None:
    """``sts`` for a row with a gold score, or none, first (SemEval STS: 2015/2016 files leave
    most scores empty), else ``stsb`` for one with it in field 5 (the STS Benchmark), else None:
    the vote of one row in :func:`format_of_rows`, and what makes a row an STS row for
    ``similarity --pairs`` (:func:`paralign.corpora.sentence_pairs.detect_layout`)."""
    if not fields[0].strip() or parse_score(fields[0]) is not None:
        return "sts"
    if len(fields) >= 5 and (not fields[4].strip() or parse_score(fields[4]) is not None):
        return "stsb"
    return None


def numbered(rows: Sequence[list[str]]) -> bool:
    """Whether a file's three-field rows (sampled: `rows`, split on TABs, a blank line as one
    empty field) are `id TAB s1 TAB s2` with numeric ids rather than SemEval STS `score TAB s1
    TAB s2`: every first field that is a number a whole one (digits), and one above the gold
    scores' range (0-5), as ids 1, 2 ... 1000 are, or all counting up by one from 0 or 1
    (:func:`counts_up`), as the ids of a file of up to six pairs do. Other whole numbers within
    0-5 read as scores (:func:`~paralign.corpora.sentence_pairs.layout_note` says so, and
    ``similarity --input-format`` decides); a header line (``id TAB sentence1 TAB sentence2``,
    the ``table`` layout) names them ids for sure. A score file writes 3.8 or 4.000, or an empty
    field, which no id here is; a first field that is no number (``x3``: a bad line's, neither
    an id nor a score) plays no part (:func:`whole_firsts`). ``similarity`` decides this for a
    whole file because its first field may be a score; ``align``, which reads no scores and
    answers line by line, reads every three-field line's first field as its id. (Ids 1 ... 5
    were read as scores, and dropped; so were ids 1, 2, 4, 5 around a bad third line, or ids
    1 ... 10 one of which was mistyped.)"""
    firsts = whole_firsts(rows)
    return bool(firsts) and (any(first > SCORE_RANGE[1] for _, first in firsts) or counts_up(firsts))


def whole_firsts(rows: Sequence[list[str]]) -> list[tuple[int, int]]:
    """(index in `rows`, value) of the first fields of the three-field rows that are numbers,
    when every one is written as a whole number (ASCII digits); else none (a score: 3.8, 4.000,
    an empty field). A first field that is no number at all (``x3``, a bad line's) is left out:
    one such line made a file of ids 1 ... 10 a file of scores."""
    firsts = [(index, fields[0].strip()) for index, fields in enumerate(rows) if len(fields) == 3]
    numbers = [(index, first) for index, first in firsts if not first or is_number_field(first)]
    return [(index, int(first)) for index, first in numbers] if all(f.isascii() and f.isdigit() for _, f in numbers) else []


def counts_up(firsts: Sequence[tuple[int, int]]) -> bool:
    """Whether the values of `firsts` ((row index, value), :func:`whole_firsts`) count up by one
    from 0 or 1, from one numbered row to the next (``1, 2, 3``) or with their rows (``1, 2, 4,
    5`` around a bad or blank third row, which keeps its number): line numbers, which gold scores
    within 0-5 almost never are in a row."""
    if not firsts:
        return False
    values = [value for _, value in firsts]
    start = values[0] - firsts[0][0]  # the first id less its row's index: 0 or 1 for line numbers
    one_by_one = values[0] in (0, 1) and values == list(range(values[0], values[0] + len(values)))
    return one_by_one or start in (0, 1) and all(value - index == start for index, value in firsts)


MSRP_HEADER_FIRST_FIELD = "quality"


def is_msrp_header(fields: list[str]) -> bool:
    """Whether a row's fields are MSRP's header line (``Quality TAB #1 ID ...``), in any case."""
    return bool(fields) and fields[0].strip().lower() == MSRP_HEADER_FIRST_FIELD


def is_msrp_row(fields: list[str]) -> bool:
    """A row of MSRP: ``0|1 TAB id1 TAB id2 TAB s1 TAB s2``, ids of digits, its label given or
    empty (an unlabelled split: as an STS row without a gold score, its ids were the sentences),
    or a labelled row without ids (``load_msrp`` reads it: its empty ids were the sentences)."""
    label, ids = fields[0].strip() if fields else "", [f.strip() for f in fields[1:3]]
    return len(fields) >= 5 and (label in ("0", "1", "") and all(i.isdigit() for i in ids)
                                 or label in ("0", "1") and ids == ["", ""])


def most_rows_msrp(rows: Sequence[list[str]]) -> bool:
    """Whether most of a file's sampled rows (blank ones left out) are MSRP rows
    (:func:`is_msrp_row`): how ``similarity --pairs`` and ``evaluate-sts`` tell an MSRP file
    without its header."""
    return bool(rows) and sum(map(is_msrp_row, rows)) * 2 > len(rows)


#: The columns of a row of each STS layout, as a row with too few fields is told.
LAYOUT_COLUMNS = {"sts": "STS: score, sentence1, sentence2",
                  "stsb": "STS Benchmark: genre, source, year, id, score, sentence1, sentence2",
                  "msrp": "MSRP: quality, id1, id2, sentence1, sentence2"}


def too_few_fields(count: int, layout: str) -> str:
    """Why a row of `count` fields is not a pair of `layout` (``sts``, ``stsb`` or ``msrp``), in
    one wording for ``evaluate-sts``, ``evaluate-paraphrase`` and ``similarity --pairs``: ``2
    fields, expected 3 (STS: score, sentence1, sentence2)``. (evaluate-sts said ``6 fields,
    expected at least 7`` of a Benchmark row, naming no column, and evaluate-paraphrase ``expected
    5 (quality, id1, id2, s1, s2)`` where similarity said ``(MSRP: quality, ids, sentences)``.)"""
    return f"{counted(count, 'field')}, expected {LAYOUT_COLUMNS[layout].count(',') + 1} ({LAYOUT_COLUMNS[layout]})"


def _row(
    fields: list[str], fmt: str, number: int, stem: str
) -> tuple[StsPair | None, str | None, list[str]]:
    """Parse one row: (pair, skip reason, notes)."""
    notes: list[str] = []
    if fmt == "stsb":
        if len(fields) < 7:
            return None, too_few_fields(len(fields), "stsb"), notes
        if len(fields) > 7:
            notes.append(f"{counted(len(fields) - 7, 'extra trailing field')} ignored")
        genre, source, year, sid, score_text, s1, s2 = fields[:7]
        pair_id = f"{source}-{year}-{sid}" if sid else f"{stem}:{number}"
    else:
        if len(fields) < 3:
            return None, too_few_fields(len(fields), "sts"), notes
        if len(fields) > 3:
            notes.append(f"{counted(len(fields) - 3, 'extra trailing field')} ignored")
        score_text, s1, s2 = fields[:3]
        genre, pair_id = "", f"{stem}:{number}"
    if not score_text.strip():
        return None, "no gold score", notes
    score = parse_score(score_text)
    if score is None:  # NaN and inf are numbers, '3,5' is none
        kind = "a finite number" if is_float_field(score_text) else "a number"
        return None, f"gold score {score_text.strip()!r} is not {kind}", notes
    if (empty := empty_sentence(s1, s2)) is not None:
        return None, empty, notes
    if not SCORE_RANGE[0] <= score <= SCORE_RANGE[1]:  # a wrong gold score would give a wrong correlation
        return None, f"gold score {score_text.strip()} outside {SCORE_RANGE[0]:g}-{SCORE_RANGE[1]:g}", notes
    pair = StsPair(pair_id, score, s1.strip(), s2.strip(), number, genre)
    return pair, None, notes


#: The gold column of a table (:func:`table_header`) for :func:`load_sts`, the first found.
TABLE_SCORES: tuple[str, ...] = ("score", "label")


def _table_rows(path: str | Path) -> Iterator[tuple[int, list[str] | str, list[RowIssue]]]:
    """A table's records as :func:`read_rows` gives a SemEval file's rows (score, sentence1,
    sentence2), or why a record has none."""
    return table_rows(path, TABLE_SCORES, f"gold column ({' or '.join(TABLE_SCORES)})",
                      lambda record, gold: [record[gold], *(record[name] for name in TABLE_SENTENCES)])


def table_rows(path: str | Path, gold_columns: Sequence[str], missing: str,
               row: Callable[[dict[str, str], str], list[str]]) -> Iterator[tuple[int, list[str] | str, list[RowIssue]]]:
    """A table's records (:func:`table_records`) as rows of :func:`read_rows`' shape: `row` of
    each record and its gold column, the first of `gold_columns` the header names; or why a
    record has none. FormatError (the `missing` column) when the header names none of them."""
    with open_text(path) as handle:
        first = next(iter(handle), "")
        header = table_header(first) or ()
        gold = next((name for name in gold_columns if name in header), None)
        if gold is None:
            raise FormatError(f"the header names no {missing} beside {' and '.join(TABLE_SENTENCES)}",
                              source=str(path), line=1)
        for number, record in table_records(itertools.chain([first], handle)):
            yield number, (record if isinstance(record, str) else row(record, gold)), []


def load_sts(path: str | Path, format: str | None = None) -> StsData:
    """Read an STS file (``sts`` 3-column TSV or ``stsb`` STS Benchmark, or a CSV or TSV table
    with a header naming ``sentence1``, ``sentence2`` and ``score`` or ``label`` columns; auto-detected, and an
    MSRP file refused: :func:`detect_format`).

    Empty lines, rows without a gold score, rows with too few fields and rows with an empty
    sentence are skipped and listed with their line numbers in the result.
    """
    fmt = format or detect_format(path)
    if fmt not in STS_FORMATS:
        raise ConfigurationError(f"unknown STS format {fmt!r}: use one of {', '.join(STS_FORMATS)}")
    pairs: list[StsPair] = []
    skipped: list[RowIssue] = []
    notes: list[RowIssue] = []
    stem = Path(path).name
    for number, fields, row_notes in (_table_rows(path) if fmt == "table" else read_rows(path)):
        notes.extend(row_notes)
        if isinstance(fields, str) or not any(f.strip() for f in fields):  # a table's record without its fields
            skipped.append(RowIssue(number, fields if isinstance(fields, str) else "empty line"))
            continue
        pair, reason, extra = _row(fields, "sts" if fmt == "table" else fmt, number, stem)
        notes.extend(RowIssue(number, n) for n in extra)
        if pair is None:
            skipped.append(RowIssue(number, reason or "unusable row"))
        else:
            pairs.append(pair)
    return StsData(str(path), fmt, tuple(pairs), tuple(skipped), tuple(notes))
