"""`evaluate-sts --report` (paralign.viz.reports.sts): the largest-errors heading counts the pairs
it lists; a file's name in its heading reorders nothing after it."""

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


def test_a_file_without_errors_to_list_has_no_empty_errors_table(report_page) -> None:
    """Where no line fits (one gold value, or no pair scored) the heading says "largest errors:
    none"; under it was a table of column names and no row."""
    report = _report([2.0, 2.0], [0.5, 0.7])
    page = report_page(sts_report(report, report.to_dict()))
    assert page.find("table", class_="errors") == []
    report = _report([1.0, 3.0, 5.0], [0.2, 0.9, 0.8])
    assert len(report_page(sts_report(report, report.to_dict())).find("table", class_="errors")) == 1


def test_the_reports_notes_are_shown_as_warnings(report_page) -> None:
    """A hybrid blend used with another aligner than its own: the JSON's note, on the page too."""
    from dataclasses import replace

    report = _report([1.0, 3.0, 5.0], [0.2, 0.9, 0.8])
    assert report_page(sts_report(report, report.to_dict())).find("p", class_="warning") == []
    noted = replace(report, notes=("the hybrid blend was fitted on sultan:default alignments, but ...",))
    page = report_page(sts_report(noted, noted.to_dict()))
    assert len(page.find("p", class_="warning")) == 1
    assert "warning: the hybrid blend was fitted on sultan:default" in page.text


def _cells(page) -> dict[str, str]:
    """Score cells: data-key -> the figure shown."""
    shown = {}
    for td in page.root.iter("td"):
        if td.get("data-key"):
            shown[td.get("data-key")] = td.text or ""
    return shown


def test_correlations_are_shown_as_correlations_not_percentages(report_page) -> None:
    """Pearson 0.4715 was shown as "47.2%": a correlation is no proportion (the meta-eval report
    shows 0.472, the text output 47.15)."""
    report = _report([1.0, 2.0, 3.0, 4.0, 5.0], [0.1, 0.5, 0.2, 0.9, 0.6])
    data = report.to_dict()
    shown = _cells(report_page(sts_report(report, data)))
    for key in ("pearson", "spearman", "sets.0.pearson", "sets.0.spearman"):
        assert "%" not in shown[key]
        assert shown[key] == f"{data[key.split('.')[-1]]:.4f}"


def test_the_bootstrap_intervals_of_confidence_are_shown(report_page) -> None:
    """With --confidence the JSON and the text output give each correlation its 95% interval;
    the report left them out."""
    report = _report([1.0, 2.0, 3.0, 4.0, 5.0], [0.1, 0.5, 0.2, 0.9, 0.6])
    data = report.to_dict()
    assert "95%" not in report_page(sts_report(report, data)).text
    interval = {"value": 0.5, "low": 0.25, "high": 0.75}
    for row in [data, *data["sets"]]:
        row["pearson_interval"] = row["spearman_interval"] = interval
    page = report_page(sts_report(report, data))
    shown = _cells(page)
    for key in ("pearson_interval", "sets.0.spearman_interval"):
        assert shown[f"{key}.low"] == "0.2500" and shown[f"{key}.high"] == "0.7500"
    assert page.values()["sets.0.pearson_interval.low"] == 0.25


def test_every_dot_of_the_plot_is_also_a_table_row(report_page) -> None:
    """A dot's pair and scores were in its tooltip only, out of reach of the keyboard and of a
    screen reader: the page now lists every scored pair (folded), in file order, as the meta-eval
    report lists its systems."""
    report = _report([1.0, 3.0, 5.0, 2.0], [0.2, 0.9, 0.8, 0.5])
    page = report_page(sts_report(report, report.to_dict()))
    rows = page.find("tr", class_="scored-pair")
    assert [r.get("data-line") for r in rows] == ["1", "2", "3", "4"]
    second = next(r for r in page.root.iter("tr") if r.get("class") == "scored-pair" and r.get("data-line") == "2")
    assert [c.text for c in second.iter("td")] == ["2", "sentence 1 a", "sentence 1 b", "3", "0.900"]
    assert "all 4 scored pairs (the plot's dots as a table)" in page.text
    assert len(page.find("circle", class_="point")) == len(rows)


def test_a_file_name_holding_a_bidi_override_reorders_only_itself(report_page) -> None:
    """A file's section heading is "NAME (PATH)": an RLO (U+202E) in the file name reversed the
    rest of the heading, "(", the path and ")" (the evaluate-aligner report isolates its gold
    file's name, this one did not). Now the name and the path are each in a ``<bdi>``."""
    from dataclasses import replace

    report = _report([1.0, 3.0, 5.0], [0.2, 0.9, 0.8])
    named = replace(report, sets=(replace(report.sets[0], name="a\u202eb.tsv", path="data/a\u202eb.tsv"),))
    page = report_page(sts_report(named, named.to_dict()))
    heading = next(h for h in page.root.iter() if h.tag.endswith("h2") and h.get("id") == "set-1")
    parts = [(child.tag.rsplit("}", 1)[-1], "".join(child.itertext())) for child in heading]
    assert parts == [("bdi", "a\u202eb.tsv"), ("bdi", "data/a\u202eb.tsv")]
    assert "".join(heading.itertext()) == "a\u202eb.tsv (data/a\u202eb.tsv)"


def test_a_file_named_by_its_path_is_named_once(report_page) -> None:
    """`evaluate-sts --data mine.csv --report r.html` headed its section "mine.csv (mine.csv)":
    the path is shown only when it says more than the name."""
    report = _report([1.0, 3.0, 5.0], [0.2, 0.9, 0.8])
    page = report_page(sts_report(report, report.to_dict()))
    heading = next(h for h in page.root.iter() if h.tag.endswith("h2") and h.get("id") == "set-1")
    assert "".join(heading.itertext()) == "small.tsv"


def test_a_report_without_a_signature_shows_no_empty_signature_line(report_page) -> None:
    """A report of scores given to the library (sts_from_scores: no aligner ran, so no signature)
    showed "signature:" over an empty box, where the aligner report shows none."""
    from dataclasses import replace

    report = _report([1.0, 3.0, 5.0], [0.2, 0.9, 0.8])
    assert "signature:" not in report_page(sts_report(report, report.to_dict())).text
    signed = replace(report, signature="sts|version:X")
    assert "signature: sts|version:X" in report_page(sts_report(signed, signed.to_dict())).text


def test_a_sentence_holding_a_long_url_keeps_the_tables_in_the_window(browser, tmp_path) -> None:
    """A sentence holding a 400-character URL could not wrap in its table cell: the largest
    errors table and the table of every pair were 8,417 and 8,497 px wide in a 1,000 px window,
    their gold, score and distance columns out of sight to the right. In Chromium, every table
    now fits the window, the URL wrapped."""
    url = "https://example.org/" + "a" * 400
    pairs = (StsPair("0", 1.0, f"see {url}", "x", 1), StsPair("1", 3.0, " ".join(["word"] * 300), "y", 2),
             StsPair("2", 5.0, "z", url, 3))
    result = StsFileResult("f.tsv", "f.tsv", sts_from_scores([0.2, 0.9, 0.8], [1.0, 3.0, 5.0], signal="sultan2014"),
                           (), pairs)
    report = StsReport((result,), "sultan2014", "sultan:default")
    path = tmp_path / "report.html"
    path.write_text(sts_report(report, report.to_dict()), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    try:
        page.goto(path.as_uri())
        page.click("summary")  # the folded table of every scored pair, too
        widths = page.evaluate("""() => [document.documentElement.scrollWidth,
            ...[...document.querySelectorAll('table')].map(t => Math.ceil(t.getBoundingClientRect().right))]""")
        assert max(widths) <= 1000, widths
        # the figures stay whole: no digit of a score broken onto a line of its own
        heights = page.evaluate("[...document.querySelectorAll('td.value')].map(td => td.getClientRects().length)")
        assert set(heights) == {1}
    finally:
        page.close()


def test_a_file_of_no_scored_pair_says_so_instead_of_empty_axes(report_page) -> None:
    """A file whose every row was skipped or failed showed empty axes from 0 to 1, a "largest
    errors: none" heading and "all 0 scored pairs" folded over an empty table; now its scores
    (pairs scored 0, Pearson n/a) and one line saying nothing was scored."""
    report = _report([], [])
    page = report_page(sts_report(report, report.to_dict()))
    assert page.count("svg") == 0 and page.count("details") == 0 and page.count("h3") == 0
    assert "no pair of this file was scored: nothing to plot or list" in page.text
    assert page.values()["sets.0.pairs"] == 0
