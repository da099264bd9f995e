"""`evaluate-sts --report`: per STS file, system score against gold as a scatter plot (with
the least-squares line), its correlations, the pairs farthest from the line, and every plotted
pair as a table (the dots' data for a reader who cannot see the plot or hover over its dots).

Not for: scoring or correlating (:mod:`paralign.similarity.sts`) or writing the file (the CLI).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...corpora.sts import StsPair
from ...errors import counted
from ...metrics import least_squares
from ...similarity.sts import StsError, StsFileResult, StsReport, largest_errors, scored_pairs
from ..html import Section, figure, isolated, merged, page, signed
from ..scatter import Point, scatter
from ..svg import Element, el, json_text
from .parts import CSS, Row, score_table

#: How many of each file's largest errors are listed.
ERRORS = 10
#: Decimals of a correlation: as precise as the text output's 100 r with two (47.15 is 0.4715).
DIGITS = 4


def correlation_rows(prefix: str, suffix: str = "") -> list[Row]:
    """The score rows of a file (`prefix` ``sets.K.``) or of the weighted means (`prefix` ``""``,
    `suffix` naming them): pairs, Pearson and Spearman as correlations (not percentages), each
    with its 95% interval when --confidence gave one (rows whose key is missing are left out)."""
    rows: list[Row] = [("pairs scored", f"{prefix}pairs", False)]
    for name in ("Pearson", "Spearman"):
        key = f"{prefix}{name.lower()}"
        rows += [(f"{name}{suffix}", key, False, DIGITS),
                 (f"{name}{suffix}: 95% interval, low", f"{key}_interval.low", False, DIGITS),
                 (f"{name}{suffix}: 95% interval, high", f"{key}_interval.high", False, DIGITS)]
    return rows + [("rows skipped", f"{prefix}skipped", False), ("pairs failed", f"{prefix}failed", False)]


#: The columns both tables of pairs start with (the errors table adds how far off the line).
_PAIR_COLUMNS = ("line", "sentence 1", "sentence 2", "gold", "score")


def _heading_row(*more: str) -> Element:
    return el("tr", *(el("th", name) for name in (*_PAIR_COLUMNS, *more)))


def _pair_cells(pair: StsPair, score: float) -> tuple[Element, ...]:
    """A scored pair's cells under :data:`_PAIR_COLUMNS`."""
    return (el("td", str(pair.line)), el("td", pair.sentence1, class_="sentence"),
            el("td", pair.sentence2, class_="sentence"),
            el("td", f"{pair.score:g}", class_="value"), el("td", f"{score:.3f}", class_="value"))


def _errors_table(errors: Sequence[StsError]) -> Element:
    rows = [_heading_row("off the line")]
    for e in errors:
        rows.append(el("tr", *_pair_cells(e.pair, e.score), el("td", f"{e.residual:+.3f}", class_="value"),
                       class_="error-pair", data_line=e.pair.line, data_gold=json_text(e.pair.score),
                       data_score=json_text(e.score)))
    return el("table", *rows, class_="scores errors")


def pairs_table(scored: Sequence[tuple[StsPair, float]]) -> Element:
    """The dots of the scatter as a table, folded: each scored pair's line, sentences, gold and
    system score, in file order. A dot's details are otherwise in its tooltip only, which a
    keyboard or screen-reader user cannot reach (the meta-eval report has the same table)."""
    rows = [_heading_row()]
    rows += [el("tr", *_pair_cells(pair, score), class_="scored-pair", data_line=pair.line) for pair, score in scored]
    return el("details", el("summary", f"all {counted(len(scored), 'scored pair')} (the plot's dots as a table)"),
              el("table", *rows, class_="scores pairs"))


def file_scatter(result: StsFileResult, name: str, ident: str,
                 scored: Sequence[tuple[StsPair, float]] | None = None) -> tuple[Element, tuple[float, float] | None]:
    """A file's scatter (`name` as the command shows it, `ident` its id): each scored pair's system
    score against its gold, a pair's line and sentences in its dot's tooltip, and the
    least-squares line, which it gives too (None when no line fits). `scored` is
    :func:`~paralign.similarity.sts.scored_pairs` of `result` when the caller has it already."""
    scored = scored_pairs(result) if scored is None else scored
    points = [Point(p.score, s, f"line {p.line}: {p.sentence1} / {p.sentence2}") for p, s in scored]
    line = least_squares([p.x for p in points], [p.y for p in points])
    return scatter(points, x_label="gold score", y_label=f"system score ({result.evaluation.signal})",
                   title=f"{name}: system score against gold", ident=ident, line=line,
                   empty="no scored pair: nothing to plot"), line


def file_section(result: StsFileResult, data: Mapping, index: int, count: int = ERRORS) -> Section:
    """One file: its correlations (`data`: the whole JSON result), its scatter, largest errors and
    scored pairs."""
    key, shown = f"sets.{index}", data["sets"][index]  # names as the command shows them
    scores = score_table(data, correlation_rows(f"{key}."))
    body: tuple[Element, ...]
    scored = scored_pairs(result)  # once: the scatter and the table of pairs take it
    if not scored:  # every row skipped or failed: no empty axes, no table of nothing
        body = (scores, el("p", "no pair of this file was scored: nothing to plot or list (rows skipped and "
                                "pairs failed are counted above)", class_="note"))
    else:
        plot, line = file_scatter(result, shown["name"], f"set-{index + 1}-scatter", scored)
        errors = largest_errors(result, count, line)  # fewer than `count` in a small file
        body = (
            scores,
            figure(plot),
            el("h3", f"largest errors (the {counted(len(errors), 'pair')} farthest from the line)" if errors
               else "largest errors: none (no line fits these scores)"),
            *([_errors_table(errors)] if errors else []),  # none: no table of column names alone
            pairs_table(scored),
        )
    # the name and the path each isolated: an RLO in a file's name reversed "(", the path and ")";
    # the path only when it says more than the name ("mine.csv (mine.csv)")
    path = [" (", isolated(shown["path"]), ")"] if shown["path"] != shown["name"] else []
    heading = tuple(merged([isolated(shown["name"]), *path]))
    return Section(heading, body, f"set-{index + 1}")


def sts_report(report: StsReport, data: Mapping, *, title: str | None = None, errors: int = ERRORS) -> str:
    """The page: the weighted means, then a section per file. `data` is ``report.to_dict()`` as
    the command printed it (file names as shown), so the figures equal the JSON output's."""
    intro = [
        el("p", f"signal: {data['signal']} · aligner: {data['aligner']}", class_="note"),
        *signed(data.get("signature")),
        *(el("p", f"warning: {note}", class_="note warning") for note in data.get("notes", ())),
        score_table(data, correlation_rows("", " (size-weighted mean)")),
    ]
    sections = [file_section(r, data, k, errors) for k, r in enumerate(report.sets)]
    return page(title or "STS evaluation", sections, intro=intro, css=CSS)
