"""`meta-eval --report` (paralign.viz.reports.meta_eval): the figures a caption or a plot shows
are those of the JSON output, as the tables under them are."""

from __future__ import annotations

from dataclasses import replace

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


def _tested() -> MetaEvaluation:
    """Two metrics, the first tested against the second (as meta-eval tests each against BLEU)."""
    from paralign.metrics.correlation import PairedTest

    base = _result()
    bleu = base.metrics["bleu"]
    tests = {"bleu": {kind: PairedTest(Interval(0.0512, -0.0231, 0.1307), 0.1234) for kind in bleu.correlations}}
    other = MetricCorrelation("paraeval", {"A": 0.7, "B": 0.72, "C": 0.69}, bleu.correlations,
                              bleu.samples, tests)
    return MetaEvaluation("de-en", ("A",), ("A", "B", "C"), 100, 1, {"paraeval": other, "bleu": bleu}, {},
                          human={"A": 0.1, "B": 0.2, "C": -0.1})


def test_the_paired_tests_against_the_baselines_are_shown(report_page) -> None:
    """The JSON's "vs" (each metric's correlation minus BLEU's and chrF's, interval and p; the
    text output's "paired tests") was not in the report, which could not say whether a metric
    beats BLEU."""
    result = _tested()
    page = report_page(meta_eval_report(result))
    values = page.values()
    vs = result.to_dict()["metrics"]["paraeval"]["vs"]["bleu"]
    for kind in ("pearson", "spearman", "kendall"):
        for part in ("value", "low", "high", "p_value"):
            assert values[f"metrics.paraeval.vs.bleu.{kind}.{part}"] == vs[kind][part]
    assert "paraeval minus bleu" in page.text
    assert not any(key.startswith("metrics.bleu.vs") for key in values)


def test_each_systems_scores_are_in_a_table_not_only_in_tooltips(report_page) -> None:
    """Which dot is which system was only in each dot's tooltip: no way to read it without a
    pointer (keyboard, screen reader)."""
    result = _result()
    page = report_page(meta_eval_report(result))
    values = page.values()
    assert {key: values[key] for key in values if key.startswith("metrics.bleu.scores.")} == {
        "metrics.bleu.scores.A": 30.0, "metrics.bleu.scores.B": 31.0, "metrics.bleu.scores.C": 29.5}
    rows = [r for r in page.root.iter("tr") if r.get("data-system")]
    assert [r.get("data-system") for r in rows] == ["B", "A", "C"]  # by human score, best first
    assert [r.get("data-human") for r in rows] == ["0.2", "0.1", "-0.1"]


def test_a_segment_plots_undefined_interval_reads_as_null_in_chromium(browser, tmp_path) -> None:
    """The segment-level interval plots wrote an undefined end (NaN: too few resamples, a constant
    side) as ``data-low="nan"``, which JSON.parse in the browser throws on, while the score cells
    under them say ``null``. Read in Chromium, every figure a data-* attribute of the page holds
    is JSON, the undefined one null."""
    from paralign.metrics.segment_correlation import SEGMENT_CORRELATIONS, SegmentCorrelation

    undefined = Interval(0.3, float("nan"), float("nan"))
    segment = SegmentCorrelation("bleu", dict.fromkeys(SEGMENT_CORRELATIONS, undefined),
                                 {"pairs": 3, "concordant": 2, "discordant": 1, "ties": 0, "identical": 0}, 9, 0)
    result = replace(_result(), level="both", segment={"bleu": segment})
    path = tmp_path / "report.html"
    path.write_text(meta_eval_report(result), encoding="utf-8")
    page = browser.new_page()
    try:
        page.goto(path.as_uri())
        read = page.evaluate("""() => [...document.querySelectorAll('[data-value], [data-low], [data-high]')]
            .flatMap(e => ['value', 'low', 'high'].filter(k => k in e.dataset).map(k => {
                try { return [e.dataset.label || e.dataset.key, k, JSON.parse(e.dataset[k])]; }
                catch (error) { return [e.dataset.label || e.dataset.key, k, 'not JSON: ' + e.dataset[k]]; } }))""")
    finally:
        page.close()
    plotted = [row for row in read if row[0] == "bleu"]
    assert len(plotted) == 2 * 3  # two plots (tau, Pearson), a row each, value, low and high
    assert sorted(plotted) == sorted([["bleu", "value", 0.3], ["bleu", "low", None], ["bleu", "high", None]] * 2)
    assert not [row for row in read if isinstance(row[2], str) and row[2].startswith("not JSON")]


def test_a_long_system_name_keeps_the_systems_table_in_the_window(browser, tmp_path) -> None:
    """A system named by 300 characters without a space made the table of the scatter's dots
    wider than a 1,000 px window, its scores out of sight; in Chromium the name now wraps."""
    long = "sys-" + "x" * 300
    base = _result()
    bleu = base.metrics["bleu"]
    metric = MetricCorrelation("bleu", {long: 30.0, "B": 31.0, "C": 29.5}, bleu.correlations, bleu.samples, {})
    result = replace(base, systems=(long, "B", "C"), metrics={"bleu": metric}, human={long: 0.1, "B": 0.2, "C": -0.1})
    path = tmp_path / "report.html"
    path.write_text(meta_eval_report(result), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    try:
        page.goto(path.as_uri())
        page.click("summary")
        right = page.evaluate("Math.ceil(document.querySelector('details table').getBoundingClientRect().right)")
        assert right <= 1000 and page.evaluate("document.documentElement.scrollWidth") <= 1000
    finally:
        page.close()
