"""WMT metrics-task submission files: a metric's scores as the task collects them
(``meta-eval --scores``), one TAB-separated row a score naming its metric, pair, test set and
reference. The task's page (github.com/WMT-Metrics-task/WMT-Metrics-task.github.io, index.md,
"Submission Format") has specified two layouts:

* WMT21-22 (no domain, "we no longer include document level evaluation"):
  ``METRIC-NAME LANG-PAIR TESTSET REFERENCE SYSTEM-ID SYSTEM-SCORE`` (``*.sys.score``, 6 fields)
  and ``METRIC-NAME LANG-PAIR TESTSET REFERENCE SYSTEM-ID SEGMENT-NUMBER SEGMENT-SCORE``
  (``*.seg.score``, 7);
* WMT22-23: ``METRIC-NAME LANG-PAIR TESTSET DOMAIN REFERENCE SYSTEM-ID SYSTEM-SCORE`` (7) and
  ``METRIC-NAME LANG-PAIR TESTSET DOMAIN DOCUMENT REFERENCE SYSTEM-ID SEGMENT-NUMBER
  SEGMENT-SCORE`` (9).

SEGMENT-NUMBER is "the line number starting from 1 of the plain text input files"; REFERENCE is
``ref-A`` ... ``ref-D``, or the name of the task's reference file it names
(``newstest2021.de-en.ref.ref-A``), or ``src`` for a metric without reference
(:func:`.wmt_reference.reference_label`). Seven fields are either layout: a reference in the
4th field makes a segment row without domain (a domain is never a reference's name, and the 5th,
the system, may be one: the task scores a human reference, ``ref-B``, as a system), else one in
the 5th a system row with a domain; a row with neither is an error naming its line.

Not for: paralign's and mt-metrics-eval's own layouts (:mod:`.metric_scores`: :func:`.metric_scores.scores_layout`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import FormatError
from .metric_scores import GivenScore, finite_score, line_number, put_once
from .wmt import PREFIX
from .wmt_reference import REFERENCE_FIELD, NamedReference, field_reference, reference_label

#: The numbers of fields of a submission row (6: system, 7: either, 9: segment).
SUBMISSION_WIDTHS = (6, 7, 9)

#: The header of WMT21's ``scores/automatic-scores.tsv`` (wmt21-news-systems): six TAB-separated
#: fields like a submission row's, but BLEU and chrF of every system of every pair, under six
#: metric names (``bleu-A``, ``bleu-B``, ``bleu-all``, ``chrf-A`` ...): several metrics in one
#: file, which meta-eval cannot take as one metric's scores.
AUTOMATIC_SCORES_HEADER = ("pair", "system", "id", "is_constrained", "metric", "score")


@dataclass(frozen=True, slots=True)
class SubmissionRow:
    """One row of a submission file: whose score it is, for which segment (None: a system score)."""

    metric: str
    pair: str
    testset: str
    reference: str
    system: str
    segment: int | None
    score: float
    line: int


def is_submission(lines: Sequence[str]) -> bool:
    """Whether `lines` are a submission file: its first line that is not blank has TABs and 6, 7
    or 9 fields (paralign's own layouts have 2 or 3)."""
    first = next((line for line in lines if line.strip()), "")
    return "\t" in first and len(first.split("\t")) in SUBMISSION_WIDTHS


def is_automatic_scores_row(fields: Sequence[str]) -> bool:
    """Whether `fields` are a row of WMT21's ``automatic-scores.tsv`` (:data:`AUTOMATIC_SCORES_HEADER`):
    six, the 3rd a whole number (the system's submission id) and the 4th ``True`` or ``False``
    (``is_constrained``), where a submission row has its REFERENCE (``ref-A``, ``src``). The file
    without its header line (``tail -n +2``, a grep of one pair's rows) is told by its rows."""
    return (len(fields) == len(AUTOMATIC_SCORES_HEADER) and fields[2].isdigit()
            and fields[3].casefold() in ("true", "false"))


def _row(fields: list[str], source: str, number: int) -> SubmissionRow:
    """The row of `fields` (line `number`); FormatError naming the line: another number of fields,
    seven fields of neither layout, a segment that is not a line number, a score not finite."""
    if len(fields) not in SUBMISSION_WIDTHS:
        raise FormatError(f"expected 6, 7 or 9 TAB-separated fields (a WMT metrics-task submission row), "
                          f"found {len(fields)}", source=source, line=number)
    segment_row = len(fields) == 9 or (len(fields) == 7 and bool(REFERENCE_FIELD.fullmatch(fields[3])))
    if len(fields) == 7 and not segment_row and not REFERENCE_FIELD.fullmatch(fields[4]):
        raise FormatError("7 fields, and the reference (ref-A, ..., src) is neither the 4th field (a segment row "
                          "without domain) nor the 5th (a system row with one)", source=source, line=number)
    system, score = fields[-3 if segment_row else -2], fields[-1]
    reference = fields[-4 if segment_row else -3]
    segment = line_number(fields[-2], source, number) if segment_row else None
    value = finite_score(score, f"the score of system {system!r}", source, number)
    return SubmissionRow(fields[0], fields[1], fields[2], reference, system, segment, value, number)


@dataclass(frozen=True, slots=True)
class Submission:
    """The scores of one pair on one test set in a submission file: `systems` (system ->
    :class:`GivenScore`, as :func:`.metric_scores.read_system_scores` gives) or `segments` (system -> segment
    -> :class:`GivenScore`, as :func:`.metric_scores.read_metric_scores` gives), the other level empty, and
    the reference the rows name (the first row's; None for ``src``: no reference)."""

    systems: dict[str, GivenScore]
    segments: dict[str, dict[int, GivenScore]]
    reference: NamedReference | None


def read_submission(lines: Iterable[str], source: str, pair: str | None = None, testset: str = PREFIX,
                    refs: Sequence[str] | None = None) -> Submission:
    """The scores of `pair` (None: the file's one pair) on `testset` in a submission file
    (:class:`Submission`), against the reference set `refs` names when the file's rows are against
    several (one file of a metric's scores against ref-A and against ref-B, as the task asks for
    each reference: ``--refs``); a file against one reference is read whole, whichever it is
    (:func:`paralign.metrics.given_scores.check_references` says when it is not `refs`).
    Rows of other pairs and test sets are left out, and at system level those of a domain but
    ``all``. FormatError naming the line: a bad row (:func:`_row`), rows of the pair of another
    metric, reference (of those kept) or level than the first (one metric as scored against one
    reference is what a correlation takes), a score given twice, another pair when `pair` is None;
    naming the file: no row of the pair and test set; naming its first line, WMT21's
    ``automatic-scores.tsv`` (:data:`AUTOMATIC_SCORES_HEADER`), several metrics' scores, told by its
    header or, without one, by its first row (:func:`is_automatic_scores_row`)."""
    rows: list[SubmissionRow] = []
    scored: set[str] = set()  # "PAIR on TESTSET" of each row; with a domain but all, "... in DOMAIN"
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split("\t")]
        if not scored and (tuple(field.casefold() for field in fields) == AUTOMATIC_SCORES_HEADER
                           or is_automatic_scores_row(fields)):
            raise _automatic_scores(source, number)
        row = _row(fields, source, number)
        if pair is None and rows and row.pair != rows[0].pair:
            raise FormatError(f"pair {row.pair!r}, the file's first is {rows[0].pair!r}: give the pair to read",
                              source=source, line=number)
        domain = fields[3] if len(fields) in (7, 9) and row.segment is None else "all"
        scored.add(f"{row.pair} on {row.testset}" + ("" if domain == "all" else f" in domain {domain}"))
        if (pair is None or row.pair == pair) and row.testset == testset and domain == "all":
            rows.append(row)
    if not rows:
        only = "; system scores are read from domain all" if any(" in domain " in what for what in scored) else ""
        raise FormatError(f"no scores of {pair or 'any pair'} on {testset} (the file scores "
                          f"{', '.join(sorted(scored)) or 'nothing'}{only})", source=source)
    kept = _of_reference(rows, refs)
    for row in kept:
        _check_alike(row, kept[0], source)
    return Submission(*_scores(kept, source), field_reference(kept[0].reference, kept[0].line))


def _automatic_scores(source: str, line: int) -> FormatError:
    """The error of WMT21's ``automatic-scores.tsv`` (:data:`AUTOMATIC_SCORES_HEADER`), taken for
    a submission file by its six fields and refused at its header ("could not convert 'score'"),
    in words about a layout it is not: what the file is, and what to give instead."""
    return FormatError("WMT21's scores/automatic-scores.tsv (header 'pair system id is_constrained metric score'): "
                       "BLEU and chrF of every system of every pair, under six metric names (bleu-A, bleu-B, "
                       "bleu-all, chrf-A ...), not one metric's scores: the built-in metrics bleu and chrf compute "
                       "these (meta-eval --metrics bleu,chrf), or give one metric's scores of one pair, its rows' "
                       "system and score fields as SYSNAME SCORE lines", source=source, line=line)


def _of_reference(rows: list[SubmissionRow], refs: Sequence[str] | None) -> list[SubmissionRow]:
    """`rows`, or when they are against several references and `refs` is one of them (one set,
    named without case, as ``--refs B``), those against it."""
    if refs is None or len(refs) != 1 or len({_reference_key(row.reference) for row in rows}) < 2:
        return rows
    wanted = [row for row in rows if (reference_label(row.reference) or "").casefold() == refs[0].casefold()]
    return wanted or rows


def _check_alike(row: SubmissionRow, first: SubmissionRow, source: str) -> None:
    """FormatError naming `row`'s line when it is of another metric, reference or level than `first`."""
    for what, mine, theirs in (("metric", row.metric, first.metric), ("reference", row.reference, first.reference),
                               ("level", _level(row), _level(first))):
        if mine != theirs and (what != "reference" or _reference_key(mine) != _reference_key(theirs)):
            pick = "; --refs of one set reads its rows" if what == "reference" else ""
            raise FormatError(f"{what} {mine!r}, where line {first.line} has {theirs!r}: one metric's scores "
                              f"against one reference, at one level, are correlated{pick}", source=source,
                              line=row.line)


def _reference_key(field: str) -> str:
    """What two REFERENCE fields are compared by: the set named (``ref-A`` and
    ``newstest2021.de-en.ref.ref-A`` alike), else the field as written (``src``)."""
    label = reference_label(field)
    return field if label is None else f"ref-{label}"


def _level(row: SubmissionRow) -> str:
    return "system" if row.segment is None else "segment"


def _scores(rows: list[SubmissionRow], source: str) -> tuple[dict[str, GivenScore], dict[str, dict[int, GivenScore]]]:
    """The kept `rows` (all of one level) as (system scores, segment scores), one of them empty;
    FormatError naming the line of a score given twice."""
    systems: dict[str, GivenScore] = {}
    segments: dict[str, dict[int, GivenScore]] = {}
    for row in rows:
        score = GivenScore(row.score, row.line)
        if row.segment is None:
            put_once(systems, row.system, score, f"system {row.system!r}", source)
        else:
            put_once(segments.setdefault(row.system, {}), row.segment, score,
                     f"segment {row.segment} of system {row.system!r}", source)
    return systems, segments
