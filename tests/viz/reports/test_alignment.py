"""The aligner report: a score table carrying the result's values, a section per pair worst
first, the error-type filter, escaped text."""

from __future__ import annotations

from paralign.aligners.evaluation import PairResult
from paralign.alignment import Alignment
from paralign.corpora.base import AlignedPair
from paralign.metrics.alignment_scores import PairCounts, score_alignments
from paralign.viz.reports import alignment_report
from paralign.viz.reports.alignment import FILTERS

XSS = "<script>alert(1)</script>"


def _pair(position: int, source: str, target: str, gold: list, system: list) -> PairResult:
    g = AlignedPair(f"id{position}", tuple(source.split()), tuple(target.split()), Alignment.from_links(gold))
    s = Alignment.from_links(system)
    return PairResult(position, g, s, PairCounts.of(g.alignment, s))


def pairs() -> list[PairResult]:
    return [
        _pair(1, "a cat sat", "a cat sat", [(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 1), (2, 2)]),  # perfect
        _pair(2, "the dog ran", "a dog ran", [(0, 0), (1, 1), (2, 2)], [(1, 1)]),  # missed
        _pair(3, f"x {XSS} &amp;", "x y z", [(0, 0), (1, 1)], [(0, 0), (1, 2), (2, 1)]),  # wrong+missed
    ]


def result(rows: list[PairResult]) -> dict:
    out = score_alignments([p.gold.alignment for p in rows], [p.system for p in rows]).to_dict()
    out.update({"gold": f"gold-{XSS}.jsonl", "annotate_seconds": 0.5, "align_seconds": 0.25})
    return out


def test_scores_then_pairs_worst_first(report_page) -> None:
    rows = pairs()
    res = result(rows)
    page = report_page(alignment_report(res, rows))
    values = page.values()
    assert values["macro.f1"] == res["macro"]["f1"] and values["aer"] == res["aer"]
    assert values["pairs"] == 3 and values["exact"] == res["exact"]
    sections = page.find("section", class_="pair")
    assert len(sections) == 3
    f1s = [float(s["data-f1"]) for s in sections]
    assert f1s == sorted(f1s) and [s["data-position"] for s in sections][-1] == "1"
    assert page.count("svg") == 3


def test_each_pair_is_classed_by_its_errors_and_the_filter_uses_the_classes(report_page) -> None:
    page = report_page(alignment_report(result(pairs()), pairs()))
    by_position = {s["data-position"]: s["class"].split() for s in page.find("section", class_="pair")}
    assert by_position == {"1": ["pair", "perfect"], "2": ["pair", "has-missed"],
                           "3": ["pair", "has-missed", "has-wrong"]}
    radios = page.find("input", type="radio", name="filter")
    assert [r["value"] for r in radios] == [value for value, _, _ in FILTERS]
    assert radios[0].get("checked") == "checked" and all(r.get("checked") is None for r in radios[1:])
    labels = {lab["for"] for lab in page.find("label")}
    assert labels == {r["id"] for r in radios}
    assert "with missed links (2)" in page.text and "perfect (1)" in page.text
    for value, _, cls in FILTERS[1:]:
        assert f"body:has(#filter-{value}:checked) section.pair:not(.{cls})" in page.source


def test_the_filter_finds_its_radio_once_not_once_per_section(report_page) -> None:
    """The filter's rules were ``#filter-missed:checked ~ section.pair:not(.has-missed)``: for each
    section Chromium looked for the radio among the section's preceding siblings, work growing with
    the square of the pairs (a report of 10,000 pairs took 11 to 19 s to show another filter and
    twice as long to open). No rule of the page reaches the sections through a sibling combinator."""
    import re

    page = report_page(alignment_report(result(pairs()), pairs()))
    style = "".join(page.root.find("head").find("style").itertext())
    assert "section.pair" in style
    assert not re.search(r"[~+][^{},]*section", style)


def test_the_filter_works_in_chromium_with_the_keyboard(browser, tmp_path) -> None:
    """In Chromium, the radios reached with Tab and moved with the arrow keys show the pairs of
    the chosen kind only, and "all pairs" shows every pair again."""
    path = tmp_path / "report.html"
    path.write_text(alignment_report(result(pairs()), pairs()), encoding="utf-8")
    page = browser.new_page()
    try:
        page.goto(path.as_uri())
        shown = "() => [...document.querySelectorAll('section.pair')].filter(s => s.checkVisibility())" \
                ".map(s => s.dataset.position)"
        assert page.evaluate(shown) == ["3", "2", "1"]
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "filter-all"
        visible = []
        for _ in FILTERS[1:]:
            page.keyboard.press("ArrowRight")
            visible.append((page.evaluate("document.activeElement.id"), page.evaluate(shown)))
        assert visible == [("filter-missed", ["3", "2"]), ("filter-wrong", ["3"]), ("filter-perfect", ["1"])]
        page.keyboard.press("ArrowRight")  # round to the first
        assert page.evaluate("document.activeElement.id") == "filter-all" and page.evaluate(shown) == ["3", "2", "1"]
    finally:
        page.close()


def test_user_text_stays_text_and_nothing_is_fetched(report_page) -> None:
    page = report_page(alignment_report(result(pairs()), pairs()))
    page.assert_self_contained()
    assert XSS in page.text and f"gold-{XSS}.jsonl" in page.text and "&amp;" in page.text
    assert XSS not in page.source


def test_the_signature_line_is_shown_when_there_is_one_and_left_out_when_not(report_page) -> None:
    rows = pairs()
    signed = report_page(alignment_report({**result(rows), "signature": "aligner:x|gold:sure"}, rows))
    assert "signature: aligner:x|gold:sure" in signed.text
    # a result without one (the library's scores are signed since they carry their settings)
    unsigned = report_page(alignment_report({k: v for k, v in result(rows).items() if k != "signature"}, rows))
    assert "signature:" not in unsigned.text  # was "signature:" and an empty <code>


def test_only_the_worst_pairs_are_drawn_and_the_page_says_so(report_page) -> None:
    """A report draws the grids of its DRAWN worst pairs only (every grid of 10,000 pairs was a
    page of 83 MB that took 22 s to open in Chromium); the others keep their scores, sentences
    and links, with a note in the grid's place, and the page says so above the pairs."""
    from paralign.viz.reports.alignment import DRAWN

    rows = pairs()
    page = report_page(alignment_report(result(rows), rows, draw=2))
    sections = page.root.findall(".//{*}section")
    assert [s.get("data-position") for s in sections] == ["3", "2", "1"]
    assert [len(s.findall(".//{*}svg")) for s in sections] == [1, 1, 0]
    assert "grid not drawn" in "".join(sections[2].itertext())
    assert "system: 0-0 1-1 2-2" in "".join(sections[2].itertext())  # its links, as text
    assert len(page.find("p", class_="drawn-only")) == 1
    assert "Only the 2 worst pairs are drawn as grids; of the other 1 the page shows" in page.text
    everything = report_page(alignment_report(result(rows), rows))  # fewer than DRAWN: no note
    assert everything.count("svg") == 3 and everything.find("p", class_="drawn-only") == []
    assert DRAWN == 1000


def test_a_pair_far_down_a_long_report_is_drawn_when_its_link_is_followed(browser, tmp_path) -> None:
    """The sections of a long report are laid out only near the window (content-visibility): one
    reached by its address (report.html#pair-N) shows its grid, and the page prints every one."""
    rows = [_pair(k, "a cat sat", "a cat sat", [(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 1)]) for k in range(1, 61)]
    path = tmp_path / "report.html"
    path.write_text(alignment_report(result(rows), rows), encoding="utf-8")
    page = browser.new_page(viewport={"width": 900, "height": 700})
    try:
        page.goto(path.as_uri())
        drawn = "id => document.getElementById(id).checkVisibility({contentVisibilityAuto: true})"
        assert page.evaluate("getComputedStyle(document.querySelector('section.pair')).contentVisibility") == "auto"
        assert page.evaluate(drawn, "pair-60-grid") is False  # not laid out yet, far below
        page.goto(path.as_uri() + "#pair-60")
        page.wait_for_function(f"({drawn})('pair-60-grid')")
        assert page.evaluate("document.getElementById('pair-60-grid').getBoundingClientRect().height") > 100
        # printed, every grid is drawn (its cells and legend, a dozen rectangles and more each)
        assert _rectangles(page.pdf()) > 12 * len(rows)
    finally:
        page.close()


def _rectangles(pdf: bytes) -> int:
    """How many rectangles (the ``re`` operator) a PDF's content streams draw."""
    import re
    import zlib

    count = 0
    for stream in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            count += len(re.findall(rb" re\b", zlib.decompress(stream.group(1))))
        except zlib.error:  # not a Flate stream (a font, an image)
            continue
    return count
