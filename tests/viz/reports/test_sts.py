"""`evaluate-sts --report` (paralign.viz.reports.sts): the largest-errors heading counts the pairs
it lists."""

from __future__ import annotations

from paralign.corpora.sts import StsPair
from paralign.similarity.sts import StsFileResult, StsReport, sts_from_scores
from paralign.viz.reports.sts import sts_report


def _report(gold: list[float], scores: list[float]) -> StsReport:
    pairs = tuple(StsPair(str(k), g, f"sentence {k} a", f"sentence {k} b", k + 1) for k, g in enumerate(gold))
    result = StsFileResult("small.tsv", "small.tsv", sts_from_scores(scores, gold, signal="sultan2014"), (), pairs)
    return StsReport((result,), "sultan2014", "sultan:default")


def test_a_small_file_lists_as_many_errors_as_it_has_pairs(report_page) -> None:
    """A 3-pair file's heading said 'the 10 pairs farthest from the line' above 3 rows."""
    report = _report([1.0, 3.0, 5.0], [0.2, 0.9, 0.8])
    page = report_page(sts_report(report, report.to_dict()))
    assert len(page.find("tr", class_="error-pair")) == 3
    assert "largest errors (the 3 pairs farthest from the line)" in page.text
    report = _report([2.0, 2.0], [0.5, 0.7])  # one gold value: no line, no errors
    page = report_page(sts_report(report, report.to_dict()))
    assert page.find("tr", class_="error-pair") == []
    assert "largest errors: none (no line fits these scores)" in page.text


def test_the_reports_notes_are_shown_as_warnings(report_page) -> None:
    """A hybrid blend used with another aligner than its own: the JSON's note, on the page too."""
    from dataclasses import replace

    report = _report([1.0, 3.0, 5.0], [0.2, 0.9, 0.8])
    assert report_page(sts_report(report, report.to_dict())).find("p", class_="warning") == []
    noted = replace(report, notes=("the hybrid blend was fitted on sultan:default alignments, but ...",))
    page = report_page(sts_report(noted, noted.to_dict()))
    assert len(page.find("p", class_="warning")) == 1
    assert "warning: the hybrid blend was fitted on sultan:default" in page.text
