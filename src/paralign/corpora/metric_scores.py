"""A metric's own scores files (``meta-eval --scores``), in paralign's and mt-metrics-eval's
layouts: ``system<TAB>segment<TAB>score`` lines (:func:`read_metric_scores`) and ``SYSNAME SCORE``
lines, one a system (:func:`read_system_scores`: mt-metrics-eval's ``*.sys.score``, WMT21's
``scores/COMET/<lp>/*.tsv``) or a block a system (:func:`read_segment_blocks`: ``*.seg.score``),
told apart by :func:`scores_layout`; the pieces every scores-file reader shares
(:class:`GivenScore`, :func:`line_number`, :func:`finite_score`, :func:`put_once`). Moved out of
:mod:`.wmt` (600 lines), which reads the WMT21 folder itself.

Not for: WMT metrics-task submission files (:mod:`.wmt_submission`), the reference a file names
(:mod:`.wmt_reference`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import FormatError, counted
from ..textio import finite_field, int_field

#: The header a file of a metric's own segment scores may start with (``meta-eval --scores``).
SCORES_HEADER = ("system", "segment", "score")

#: The layouts a metric's scores file may have (``meta-eval --scores``: :func:`scores_layout`, and
#: :mod:`.wmt_submission`), as a message about a file of none of them lists them.
SCORES_LAYOUTS = ("system<TAB>segment<TAB>score lines (segment scores), SYSNAME SCORE lines (one a system: "
                  "system scores; or a block a system, one a segment in the test set's order: segment scores) "
                  "or a WMT metrics-task submission file (6, 7 or 9 TAB-separated fields a row)")


def no_scores(source: str) -> FormatError:
    """The error of a scores file `source` that holds no score line (empty, blank lines, a header
    alone), in every reader: it lists the layouts a scores file may have (:data:`SCORES_LAYOUTS`).
    Each reader named its own layout only, so an empty file was said to lack
    ``system<TAB>segment<TAB>score`` lines whatever the user meant to give."""
    return FormatError(f"no scores: expected {SCORES_LAYOUTS}", source=source)


@dataclass(frozen=True, slots=True)
class GivenScore:
    """One segment score of a metric's own scores file: the score and the file's line holding it."""

    score: float
    line: int


def line_number(text: str, source: str, line: int) -> int:
    """A segment field of a scores file: the 1-based line of a system's output; FormatError
    naming the `line` of `source` when it is not one."""
    try:
        k = int_field(text)
    except ValueError:
        k = 0
    if k < 1:
        raise FormatError(f"segment {text!r} is not a line number (1, 2, ...)", source=source, line=line)
    return k


def finite_score(text: str, what: str, source: str, line: int) -> float:
    """A score field of a scores file as a float; FormatError naming the `line` of `source`
    (``what: reason``) when it is not a finite number."""
    try:
        return finite_field(text)
    except ValueError as exc:
        raise FormatError(f"{what}: {exc}", source=source, line=line) from None


def read_metric_scores(lines: Iterable[str], source: str) -> dict[str, dict[int, GivenScore]]:
    """A metric's own segment scores (``meta-eval --scores``) from the `lines` of `source`:
    TAB-separated ``system<TAB>segment<TAB>score`` lines, `segment` the 1-based line of the
    system's output file, in any order (a first line ``system<TAB>segment<TAB>score`` is a
    header; blank lines are skipped): system -> segment -> :class:`GivenScore`. FormatError
    naming the line: not 3 fields, a segment that is not a line number, a score that is not a
    finite number, a segment of a system given twice, or no score at all."""
    out: dict[str, dict[int, GivenScore]] = {}
    for number, (system, segment, score) in _score_rows(lines, source, SCORES_HEADER, ""):
        k = line_number(segment, source, number)
        value = finite_score(score, f"the score of system {system!r}, segment {k}", source, number)
        put_once(out.setdefault(system, {}), k, GivenScore(value, number), f"segment {k} of system {system!r}", source)
    if not out:
        raise no_scores(source)
    return out


def put_once(given: dict[Any, GivenScore], key: Any, score: GivenScore, what: str, source: str) -> None:
    """`score` into `given` at `key`; FormatError naming its line of `source` when `given` has a
    score there (``what given twice (first on line N)``): the one check of every scores-file reader."""
    if key in given:
        raise FormatError(f"{what} given twice (first on line {given[key].line})", source=source, line=score.line)
    given[key] = score


def _score_rows(lines: Iterable[str], source: str, header: tuple[str, ...],
                where: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each row of a metric's scores file: stripped, blank lines and a
    first line that is `header` (any case) skipped; FormatError naming the line for a row of
    another number of fields than `header` has (`where`: said after the fields). Three fields
    (``system<TAB>segment<TAB>score``) are TAB-separated; two (``SYSNAME SCORE``) as
    :func:`_pair_fields` splits them. The first row decides the layout (:func:`scores_layout`):
    when it is of none (neither three TAB-separated fields nor two), the error lists those a
    scores file may have (:data:`SCORES_LAYOUTS`), not the three fields of one of them."""
    pairs = len(header) == 2
    first = True
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        fields = _pair_fields(line) if pairs else [field.strip() for field in line.split("\t")]
        if number == 1 and tuple(field.lower() for field in fields) == header:
            continue
        if len(fields) != len(header):
            if first and not pairs and len(_pair_fields(line)) != 2:
                blanks = "" if "\t" in line else f" ({counted(len(line.split()), 'blank-separated field')})"
                raise FormatError(f"{counted(len(fields), 'TAB-separated field')}{blanks}: a row of none of a scores "
                                  f"file's layouts; expected {SCORES_LAYOUTS}", source=source, line=number)
            spelt = "" if pairs else "TAB-separated "
            raise FormatError(f"expected {len(header)} {spelt}fields ({', '.join(header)}){where}, "
                              f"found {len(fields)}", source=source, line=number)
        first = False
        yield number, fields


def _pair_fields(line: str) -> list[str]:
    """The fields of a ``SYSNAME SCORE`` row: TAB-separated when the line holds a TAB (a name may
    then hold a space, as before), else separated by any run of blanks, as mt-metrics-eval's
    README specifies its score files ("Blanks designate any amount of whitespace") and its
    ``data.ReadScoreFile`` splits them (``line.split()``)."""
    return [field.strip() for field in line.split("\t")] if "\t" in line else line.split()


#: The header a system scores file may start with (``system<TAB>score``).
SYSTEM_SCORES_HEADER = ("system", "score")


def scores_layout(lines: Sequence[str]) -> str:
    """How a metric's scores file (`lines`) is laid out, decided by its first line that is neither
    blank nor a header: ``segment`` for ``system<TAB>segment<TAB>score`` lines (or any other
    number of fields: :func:`read_metric_scores` says what is wrong with the line); for
    ``SYSNAME SCORE`` lines (two fields, :func:`_pair_fields`: mt-metrics-eval's ``*.sys.score``
    and ``*.seg.score``, WMT21's ``scores/COMET/<lp>/*.tsv``) the number of lines of each system
    decides: ``system`` when each system has one (:func:`read_system_scores`), else ``blocks``,
    each system's segment scores in the test set's order (:func:`read_segment_blocks`, which
    names the line where the counts part)."""
    for number, line in enumerate(lines, start=1):
        fields = tuple(field.lower() for field in _pair_fields(line))
        if not line.strip() or (number == 1 and fields in (SCORES_HEADER, SYSTEM_SCORES_HEADER)):
            continue
        if len(fields) != 2:
            return "segment"
        names = [row[0] for row in map(_pair_fields, lines) if len(row) == 2]
        return "system" if len(set(names)) == len(names) else "blocks"
    # no score line: the readers of either level say so alike (:func:`no_scores`); a header
    # ``system<TAB>score`` alone is not a bad line of three fields
    header = tuple(field.lower() for field in _pair_fields(lines[0])) if lines else ()
    return "system" if header == SYSTEM_SCORES_HEADER else "segment"


def read_segment_blocks(lines: Iterable[str], source: str) -> dict[str, dict[int, GivenScore]]:
    """A metric's own segment scores in mt-metrics-eval's ``*.seg.score`` layout: ``SYSNAME
    SCORE`` lines (:func:`_pair_fields`; a first line ``system<TAB>score`` is a header, blank
    lines are skipped), each system's k-th line the score of its output's line k, as
    mt-metrics-eval's README has it ("a block of scores for each system ... for all segments in
    the system output file, in order"): system -> segment -> :class:`GivenScore`, as
    :func:`read_metric_scores` gives. FormatError naming the line: not 2 fields, a score that is
    not a finite number, systems with other numbers of lines (a system given twice in a file of
    system scores, a block cut short), or no score at all. Whether a block has a line for each
    segment of the test set, no more, is for the correlation to check (it knows the test set)."""
    out: dict[str, dict[int, GivenScore]] = {}
    for number, system, value in _system_rows(lines, source, ""):
        given = out.setdefault(system, {})
        given[len(given) + 1] = GivenScore(value, number)
    if not out:
        raise no_scores(source)
    _check_blocks(out, source)
    return out


def read_segment_scores(lines: Sequence[str], source: str) -> dict[str, dict[int, GivenScore]]:
    """A metric's own segment scores in either layout :func:`scores_layout` tells apart:
    ``system<TAB>segment<TAB>score`` lines (:func:`read_metric_scores`) or mt-metrics-eval's
    ``SYSNAME SCORE`` blocks (:func:`read_segment_blocks`): system -> segment -> :class:`GivenScore`.
    FormatError (no line) for a file of system scores, one line a system: it has no segment
    scores (:func:`read_system_scores` reads it)."""
    layout = scores_layout(lines)
    if layout == "system":
        raise FormatError("system scores (SYSNAME SCORE lines, one a system), not segment scores", source=source)
    return (read_segment_blocks if layout == "blocks" else read_metric_scores)(lines, source)


def _check_blocks(blocks: dict[str, dict[int, GivenScore]], source: str) -> None:
    """FormatError naming the line where a system's number of lines parts from the others' (the
    count most systems have, the smaller of two as common): the line past the others' count, or
    the last line of a block cut short."""
    counts = [len(block) for block in blocks.values()]
    if len(set(counts)) == 1:
        return
    expected = min(set(counts), key=lambda n: (-counts.count(n), n))
    name, block = next((name, block) for name, block in blocks.items() if len(block) != expected)
    line = block[expected + 1].line if len(block) > expected else block[len(block)].line
    alike = counts.count(expected)
    raise FormatError(
        f"system {name!r} has {counted(len(block), 'line')}, {counted(alike, 'other system')} "
        f"{'has' if alike == 1 else 'have'} {expected}: a file of "
        "SYSNAME SCORE lines has one line a system (system scores, *.sys.score) or, for every system, one "
        "a segment in the test set's order (segment scores, *.seg.score)", source=source, line=line)


def _system_rows(lines: Iterable[str], source: str, where: str) -> Iterator[tuple[int, str, float]]:
    """(line number, system, score) of each ``SYSNAME SCORE`` row (:func:`_score_rows`); FormatError
    naming the line for a score that is not a finite number."""
    for number, (system, score) in _score_rows(lines, source, SYSTEM_SCORES_HEADER, where):
        yield number, system, finite_score(score, f"the score of system {system!r}", source, number)


def read_system_scores(lines: Iterable[str], source: str) -> dict[str, GivenScore]:
    """A metric's own system scores (``meta-eval --scores``) from the `lines` of `source`:
    ``system<TAB>score`` lines (or ``SYSNAME SCORE``, blank-separated: :func:`_pair_fields`), one
    a system, in any order (a first line ``system<TAB>score`` is a header; blank lines are skipped): system -> :class:`GivenScore`. FormatError naming the line:
    not 2 fields (a segment line in a file of system scores), a score that is not a finite number,
    a system given twice, or no score at all."""
    out: dict[str, GivenScore] = {}
    for number, system, value in _system_rows(lines, source, " as in a file of system scores"):
        put_once(out, system, GivenScore(value, number), f"system {system!r}", source)
    if not out:
        raise no_scores(source)
    return out
