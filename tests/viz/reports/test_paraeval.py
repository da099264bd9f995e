"""`paraeval --report` (paralign.viz.reports.paraeval): the score table and the tier legend
count the same words."""

from __future__ import annotations

import re

from paralign.metrics.paraeval import ParaEval, ParaEvalScore, sum_stats
from paralign.paraphrases import load_source


def test_the_paraphrase_tier_count_is_the_legends_paraphrase_and_synonym_words(tmp_path, report_page) -> None:
    """'matched as paraphrases: 3' stood above a legend 'paraphrase: 0, synonym: 3': the count
    is every word matched in the paraphrase tier, which the legend splits in two."""
    from paralign.viz.reports import paraeval_report

    table = tmp_path / "t.tsv"
    table.write_text("mat\trug\t0.9\nsat on\twas sitting on\t0.8\n", encoding="utf-8")
    scorer = ParaEval(sources=[load_source(str(table))])
    hyps, refs = ["the cat sat on the mat"], [["a cat was sitting on the rug"]]
    matches = scorer.segment_matches(hyps, refs)
    corpus = ParaEvalScore(sum_stats(m.stats for m in matches), scorer.signature(1)).to_dict()
    page = report_page(paraeval_report(corpus, matches, [["a cat was sitting on the rug"]]))
    legend = {span["data-tier"]: span for span in page.find("span", class_="tier") if "data-tier" in span}
    assert {"paraphrase", "synonym"} <= set(legend)
    counted = {tier: sum(sp.end - sp.start for sp in matches[0].spans if sp.tier == tier)
               for tier in ("paraphrase", "synonym")}
    assert counted["paraphrase"] > 0 and counted["synonym"] > 0
    assert corpus["counts"]["hyp_paraphrase"] == counted["paraphrase"] + counted["synonym"]
    assert "matched in the paraphrase tier (paraphrase + synonym)" in page.text


def test_each_words_tooltip_names_its_tier() -> None:
    """The tooltip said "matched “sat”" whatever the tier: which tier a word matched in (stem,
    synonym, paraphrase ...) was told by its colour and border alone."""
    from paralign.metrics.paraeval.paper import MatchedSpan
    from paralign.viz.reports.paraeval import highlighted

    tokens = ("a", "cat", "was", "sitting")
    spans = (MatchedSpan(0, 1, "unmatched"), MatchedSpan(1, 2, "exact", ("cat",)),
             MatchedSpan(2, 3, "stem", ("is",)), MatchedSpan(3, 4, "synonym", ("sat",)))
    titles = [span.get("title") for span in highlighted(tokens, spans).children if not isinstance(span, str)]
    assert titles == ["unmatched", "exact: matched “cat”", "stem: matched “is”", "synonym: matched “sat”"]


def test_what_a_phrase_matched_is_written_out_not_only_in_a_tooltip(tmp_path, report_page) -> None:
    """Which reference phrase a paraphrase-tier span matched was only in its tooltip: a mouse
    showed it, a keyboard, a phone and many screen readers did not."""
    from paralign.viz.reports import paraeval_report

    table = tmp_path / "t.tsv"
    table.write_text("mat\trug\t0.9\nsat on\twas sitting on\t0.8\n", encoding="utf-8")
    scorer = ParaEval(sources=[load_source(str(table))])
    matches = scorer.segment_matches(["the cat sat on the mat"], [["a cat was sitting on the rug"]])
    corpus = ParaEvalScore(sum_stats(m.stats for m in matches), scorer.signature(1)).to_dict()
    page = report_page(paraeval_report(corpus, matches, [["a cat was sitting on the rug"]]))
    (listed,) = [e for e in page.root.iter() if e.tag == "ul" and e.get("class") == "matched"]
    items = {li.get("data-tier") + ": " + li.text for li in listed}
    assert "paraphrase: “sat on” (paraphrase) matched “was sitting on”" in items
    assert "synonym: “mat” (synonym) matched “rug”" in items
    assert not any("(exact)" in item for item in items)  # the same words: nothing to say


def test_a_graded_segment_lists_what_each_phrase_matched() -> None:
    from paralign.metrics.paraeval.paper import MatchedSpan
    from paralign.viz.reports.paraeval import match_list

    tokens = ("a", "cat", "was", "sitting")
    spans = (MatchedSpan(0, 1, "unmatched"), MatchedSpan(1, 2, "exact", ("cat",)),
             MatchedSpan(2, 4, "paraphrase", ("sat",)))
    listed = match_list(tokens, spans)
    assert [li.children[0] for li in listed.children] == ["“was sitting” (paraphrase) matched “sat”"]
    assert match_list(tokens, spans[:2]) is None


def test_no_two_tiers_differ_by_colour_alone() -> None:
    """The stem and contextual tiers were both dashed boxes, told apart by colour only."""
    from paralign.viz.reports.paraeval import GRADED_LABELS, TIER_CSS

    looks = {}
    for tier in GRADED_LABELS:
        rule = re.search(rf"\.tier-{tier} \{{([^}}]*)\}}", TIER_CSS).group(1)
        border = re.search(r"border:\s*[\d.]+px (\w+)", rule)
        looks[tier] = (border.group(1) if border else None, "line-through" in rule)
    assert len(set(looks.values())) == len(looks), looks


def test_a_legend_entry_does_not_break_across_lines() -> None:
    """'paraphrase (PPDB or a table): 0' wrapped in the middle at a window's edge."""
    from paralign.viz.reports.paraeval import TIER_CSS

    assert re.search(r"\.legend \.tier \{[^}]*white-space: nowrap", TIER_CSS)


def test_a_comparison_of_systems_none_scored_shows_no_empty_signature(report_page) -> None:
    """`paraeval --report` of several inputs none of which could be scored showed "signature:"
    over an empty box: there is no signature to show, so there is no line."""
    from paralign.viz.reports import systems_report

    page = report_page(systems_report([{"input": "a.txt", "error": "a.txt: 3 lines, the references 4"},
                                       {"input": "b.txt", "error": "b.txt: not UTF-8"}]))
    assert "signature:" not in page.text and page.count("code") == 0
    assert "no system scored" in page.text and "a.txt: 3 lines, the references 4" in page.text
    signed = report_page(systems_report([{"input": "a.txt", "f": 0.5, "signature": "nrefs:1|version:X"}]))
    assert "signature: nrefs:1|version:X" in signed.text


def test_a_comparison_of_systems_none_scored_has_no_empty_table(report_page) -> None:
    """With no system scored the page said "no system scored" above a table of one heading cell,
    "system", and no row."""
    from paralign.viz.reports import systems_report

    for systems in ([], [{"input": "a.txt", "error": "a.txt: not UTF-8"}]):
        assert report_page(systems_report(systems)).count("table") == 0
    assert report_page(systems_report([{"input": "a.txt", "f": 0.5, "signature": "s"}])).count("table") == 1


def test_a_long_system_name_keeps_the_systems_table_in_the_window(browser, tmp_path) -> None:
    """An input named by a long path (308 characters, no space) made the systems table 3,500 px
    wide in a 1,000 px window, every score out of sight; in Chromium the name now wraps in its cell."""
    from paralign.viz.reports import systems_report

    name = "outputs/" + "x" * 300 + ".txt"
    figures = {"f": 0.5, "precision": 0.4, "recall": 0.6, "signature": "s"}
    path = tmp_path / "report.html"
    path.write_text(systems_report([{"input": name, **figures}, {"input": "b.txt", **figures}]), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    try:
        page.goto(path.as_uri())
        right = page.evaluate("Math.ceil(document.querySelector('table').getBoundingClientRect().right)")
        assert right <= 1000 and page.evaluate("document.documentElement.scrollWidth") <= 1000
        assert set(page.evaluate("[...document.querySelectorAll('td.value')].map(td => td.getClientRects().length)")) == {1}
    finally:
        page.close()
