"""`meta-eval --report`: per metric, its system scores against the human scores as a scatter
plot (one dot per system, the least-squares line) and as a table, with each correlation and its
bootstrap interval and the paired tests against the baselines (the JSON's ``vs``) as in the JSON
output. At segment level (``--level segment`` or ``both``) the page
shows every metric's DARR tau and Pearson with their intervals as interval plots, then per
metric a table of its segment correlations and DARR pair counts (the JSON output's ``segment``;
there is no per-segment scatter, as the result keeps correlations, not the judged points).

Not for: computing scores or correlations (:mod:`paralign.metrics.correlation`) or writing the
file (the CLI).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...errors import counted
from ...metrics import least_squares
from ..html import Section, figure, page, signed
from ..intervals import Interval, interval_plot
from ..scatter import Point, scatter
from ..svg import Element, el, json_text
from .parts import CSS, lookup, number, score_table, value_cell

if TYPE_CHECKING:  # pragma: no cover
    from ...metrics.correlation import MetaEvaluation, MetricCorrelation

#: The segment correlations the interval plots show, with their axis labels.
SEGMENT_PLOTS = (("darr_tau", "DARR Kendall-like tau (metric ties discordant)"),
                 ("pearson", "Pearson of segment scores with segment DA z"))


def correlation_table(data: Mapping, name: str, level: str = "metrics") -> Element:
    """Each correlation of metric `name`: value, low and high (the JSON output's ``data``, under
    `level`: ``metrics`` for the system level, ``segment`` for the segment level)."""
    from ...metrics.correlation import CORRELATIONS  # numpy and scipy: only when a report is drawn
    from ...metrics.segment_correlation import SEGMENT_CORRELATIONS

    rows = [el("tr", el("th", "correlation"), el("th", "value"), el("th", "95% low"), el("th", "95% high"))]
    for kind in CORRELATIONS if level == "metrics" else SEGMENT_CORRELATIONS:
        cells = [value_cell(f"{level}.{name}.{kind}.{part}", lookup(data, f"{level}.{name}.{kind}.{part}"))
                 for part in ("value", "low", "high")]
        rows.append(el("tr", el("th", kind), *cells))
    return el("table", *rows, class_="scores")


def tests_tables(data: Mapping, name: str) -> list[Element]:
    """Metric `name`'s paired tests (the JSON's ``vs``, the text output's "paired tests"): per
    baseline, each correlation's difference (metric minus baseline), its interval and the
    one-sided p, the share of resamples where the metric is not above the baseline."""
    from ...metrics.correlation import CORRELATIONS

    tables = []
    for other in data["metrics"][name].get("vs", {}):  # lookup(data, f"metrics.{name}"), a dict
        rows = [el("tr", el("th", f"{name} minus {other}"), el("th", "difference"), el("th", "95% low"),
                   el("th", "95% high"), el("th", "p"))]
        for kind in CORRELATIONS:
            key = f"metrics.{name}.vs.{other}.{kind}"
            rows.append(el("tr", el("th", kind), *(value_cell(f"{key}.{part}", lookup(data, f"{key}.{part}"))
                                                    for part in ("value", "low", "high", "p_value"))))
        tables.append(el("table", *rows, class_="scores tests", data_baseline=other))
    if tables:
        tables.insert(0, el("p", "paired tests: p is the share of the bootstrap resamples where the "
                                 "metric's correlation is not above the baseline's", class_="note"))
    return tables


def systems_table(result: MetaEvaluation, metric: MetricCorrelation) -> Element:
    """The dots of the scatter as a table: each system's human and metric score, best human first."""
    systems = sorted((s for s in metric.scores if s in result.human), key=lambda s: (-result.human[s], s))
    rows = [el("tr", el("th", "system"), el("th", "human score (DA z)"), el("th", f"{metric.name} score"))]
    for s in systems:
        rows.append(el("tr", el("th", s, class_="name"), el("td", number(result.human[s]), class_="value"),
                       value_cell(f"metrics.{metric.name}.scores.{s}", round(metric.scores[s], 6)),
                       data_system=s, data_human=json_text(result.human[s])))
    return el("details", el("summary", f"scores of the {counted(len(systems), 'system')}"), el("table", *rows, class_="scores"))


def metric_section(result: MetaEvaluation, metric: MetricCorrelation, data: Mapping, index: int) -> Section:
    """One metric: the scatter of its system scores against the human scores (and the same as a
    table), its correlations and its paired tests against the baselines."""
    systems = [s for s in metric.scores if s in result.human]
    points = [Point(result.human[s], metric.scores[s], s) for s in systems]
    line = least_squares([p.x for p in points], [p.y for p in points])
    value, low, high = _figures(data, f"metrics.{metric.name}.pearson")
    caption = f"Pearson {number(value)} [{number(low)}, {number(high)}] over {counted(len(points), 'system')}"
    body = (
        el("p", caption, class_="note"),
        figure(scatter(points, x_label="human score (DA z)", y_label=f"{metric.name} score",
                       title=f"{metric.name} against human scores ({result.pair})",
                       ident=f"metric-{index + 1}-scatter", line=line)),
        systems_table(result, metric),
        correlation_table(data, metric.name),
        *tests_tables(data, metric.name),
    )
    return Section(metric.name, body, f"metric-{index + 1}")


def _figures(data: Mapping, key: str) -> tuple[float, float, float]:
    """The value, low and high of the correlation at dotted `key` of the JSON output `data` (so
    that a caption or a plot shows the figures its table and ``--format json`` show; None,
    an undefined correlation, as NaN)."""
    value, low, high = (_figure(lookup(data, f"{key}.{part}")) for part in ("value", "low", "high"))
    return value, low, high


def _figure(value: object) -> float:
    """A JSON figure as a float: None (undefined) as NaN."""
    if value is None:
        return float("nan")
    if not isinstance(value, int | float):  # a figure of the JSON output is a number or None
        raise TypeError(f"not a figure: {value!r}")
    return float(value)


def segment_overview(result: MetaEvaluation, data: Mapping, *, ident: str = "segment") -> Section:
    """Every metric's DARR tau and Pearson at segment level, one interval plot each (the figures
    of the JSON output `data`), their ids starting with `ident` (a notebook gives each
    meta-evaluation its own: two shared the page's ``segment-tau``)."""
    body = []
    for kind, label in SEGMENT_PLOTS:
        rows = [Interval(name, *_figures(data, f"segment.{name}.{kind}")) for name in result.segment]
        body.append(figure(interval_plot(rows, x_label=label, span=(-1.0, 1.0), ident=f"{ident}-{kind}",
                                         title=f"{label}, 95% intervals ({result.pair})")))
    from ...metrics.segment_correlation import segment_summary

    first = next(iter(result.segment.values()))
    notes = [el("p", segment_summary(first.judged, first.pairs), class_="note")]
    notes += [el("p", f"segment level n/a (pearson, kendall): {reason}", class_="note")
              for reason in result.segment_undefined]
    return Section("segment level", (*notes, *body), "segment-level")


def segment_section(data: Mapping, name: str, index: int) -> Section:
    """One metric at segment level: its correlations and DARR pair counts."""
    counts = [("DARR pairs", "pairs"), ("concordant", "concordant"), ("discordant", "discordant"),
              ("ties", "ties"), ("identical outputs", "identical")]
    rows = [(label, f"segment.{name}.darr_pairs.{key}", False) for label, key in counts]
    rows += [("judged segments", f"segment.{name}.judged", False),
             ("undefined scores (counted as 0)", f"segment.{name}.undefined", False)]
    return Section(f"{name} (segment level)", (correlation_table(data, name, "segment"), score_table(data, rows)),
                   f"segment-{index + 1}")


def meta_eval_report(result: MetaEvaluation, *, title: str | None = None) -> str:
    """The page: its signature under the title, the setting (pair, references, systems,
    resamples) and each metric's signature, then a section per metric."""
    data = result.to_dict()
    intro: list[Element] = [
        *signed(result.signature),  # the meta-evaluation's own (pair, refs, level, human scores, texts, bs, seed)
        el("p", f"{result.pair}, references {'+'.join(result.refs)}: "
                f"{counted(len(result.systems), 'system')}, "
                f"{counted(result.n_resamples, 'bootstrap resample')} (seed {result.seed}); intervals are 95% percentile "
                "intervals", class_="note")]
    for name, signature in result.signatures.items():
        intro.append(el("p", f"{name}: ", el("code", signature), class_="note"))
    intro += [el("p", f"{label}: {', '.join(names)}", class_="note") for label, names in result.left_out]
    for reason in result.undefined:
        intro.append(el("p", f"system level n/a: {reason}", class_="note"))
    intro += [el("p", f"{name}: {reason}", class_="note") for name, reason in result.without_intervals]
    sections = [metric_section(result, m, data, k) for k, m in enumerate(result.metrics.values())]
    if result.segment:
        sections.append(segment_overview(result, data))
        sections += [segment_section(data, name, k) for k, name in enumerate(result.segment)]
    return page(title or f"Meta-evaluation: {result.pair}", sections, intro=intro, css=CSS)
