"""`meta-eval --report` (paralign.viz.reports.meta_eval): the figures a caption or a plot shows
are those of the JSON output, as the tables under them are."""

from __future__ import annotations

import numpy as np

from paralign.metrics.correlation import Interval, MetaEvaluation, MetricCorrelation
from paralign.viz.reports.meta_eval import meta_eval_report


def _result() -> MetaEvaluation:
    # 0.04451 is 0.0445 in the JSON output (4 places), whose 3 places are 0.044; the unrounded
    # value's are 0.045: the caption said 0.045 above a table saying 0.044
    pearson = Interval(0.16424, 0.04451, 0.27431)
    correlations = {"pearson": pearson, "spearman": Interval(0.137, -0.0064, 0.2454),
                    "kendall": Interval(0.1235, float("nan"), 0.2003)}
    metric = MetricCorrelation("bleu", {"A": 30.0, "B": 31.0, "C": 29.5}, correlations,
                               {"pearson": np.zeros(3)}, {})
    return MetaEvaluation("de-en", ("A",), ("A", "B", "C"), 100, 1, {"bleu": metric}, {},
                          human={"A": 0.1, "B": 0.2, "C": -0.1})


def test_the_caption_shows_the_figures_of_the_table_and_the_json(report_page) -> None:
    result = _result()
    page = report_page(meta_eval_report(result))
    data = result.to_dict()["metrics"]["bleu"]["pearson"]
    values = page.values()
    assert [values[f"metrics.bleu.pearson.{part}"] for part in ("value", "low", "high")] == [
        data["value"], data["low"], data["high"]]
    caption = next(p for p in page.root.iter("p") if (p.text or "").startswith("Pearson"))
    assert caption.text == "Pearson 0.164 [0.044, 0.274] over 3 systems"
    assert "0.044" in page.text and "0.045" not in page.text
