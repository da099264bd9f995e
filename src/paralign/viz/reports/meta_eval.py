"""`meta-eval --report`: per metric, its system scores against the human scores as a scatter
plot (one dot per system, the least-squares line), with each correlation and its bootstrap
interval as in the JSON output.

Not for: computing scores or correlations (:mod:`paralign.metrics.correlation`) or writing the
file (the CLI).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...metrics import least_squares
from ..html import Section, figure, page
from ..scatter import Point, scatter
from ..svg import Element, el
from .parts import CSS, lookup, value_cell

if TYPE_CHECKING:  # pragma: no cover
    from ...metrics.correlation import MetaEvaluation, MetricCorrelation


def correlation_table(data: Mapping, name: str) -> Element:
    """Each correlation of metric `name`: value, low and high (the JSON output's ``data``)."""
    from ...metrics.correlation import CORRELATIONS  # numpy and scipy: only when a report is drawn

    rows = [el("tr", el("th", "correlation"), el("th", "value"), el("th", "95% low"), el("th", "95% high"))]
    for kind in CORRELATIONS:
        cells = [value_cell(f"metrics.{name}.{kind}.{part}", lookup(data, f"metrics.{name}.{kind}.{part}"))
                 for part in ("value", "low", "high")]
        rows.append(el("tr", el("th", kind), *cells))
    return el("table", *rows, class_="scores")


def metric_section(result: MetaEvaluation, metric: MetricCorrelation, data: Mapping, index: int) -> Section:
    """One metric: the scatter of its system scores against the human scores and its correlations."""
    systems = [s for s in metric.scores if s in result.human]
    points = [Point(result.human[s], metric.scores[s], s) for s in systems]
    line = least_squares([p.x for p in points], [p.y for p in points])
    pearson = metric.correlations["pearson"]
    caption = (f"Pearson {pearson.value:.3f} [{pearson.low:.3f}, {pearson.high:.3f}] over "
               f"{len(points)} systems")
    body = (
        el("p", caption, class_="note"),
        figure(scatter(points, x_label="human score (DA z)", y_label=f"{metric.name} score",
                       title=f"{metric.name} against human scores ({result.pair})",
                       ident=f"metric-{index + 1}-scatter", line=line)),
        correlation_table(data, metric.name),
    )
    return Section(metric.name, body, f"metric-{index + 1}")


def meta_eval_report(result: MetaEvaluation, *, title: str | None = None) -> str:
    """The page: the setting (pair, references, systems, resamples), then a section per metric."""
    data = result.to_dict()
    intro: list[Element] = [el("p", f"{result.pair}, references {'+'.join(result.refs)}: "
                                    f"{len(result.systems)} systems, {result.n_resamples} bootstrap "
                                    f"resamples (seed {result.seed}); intervals are 95% percentile "
                                    "intervals", class_="note")]
    for name, signature in result.signatures.items():
        intro.append(el("p", f"{name}: ", el("code", signature), class_="note"))
    for label, names in (("left out, no output file", result.missing),
                         ("left out, no human score", result.unscored)):
        if names:
            intro.append(el("p", f"{label}: {', '.join(names)}", class_="note"))
    sections = [metric_section(result, m, data, k) for k, m in enumerate(result.metrics.values())]
    return page(title or f"Meta-evaluation: {result.pair}", sections, intro=intro, css=CSS)
