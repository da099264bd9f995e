"""A count of one is said in the singular in what the CLI and its pictures show.

Renderings wrote ``{n} pairs`` whatever n was: "over 1 pairs", "1 groups", "2 states, 1 edges",
"used by 1 of the 1 sentences", "1 resamples". They now say each count through
`paralign.errors.counted` (``1 pair``, ``2 pairs``).
"""

from __future__ import annotations

import re

from paralign.cli import main
from paralign.cli._pipelines import render_report
from paralign.cli._render import render_align_scores, render_table_scores

#: "1 " and a word ending in s that is no singular noun the renderings use.
ONE_PLURAL = re.compile(r"\b1 (?!bus\b)[a-z]+s\b")


def test_a_table_report_of_one_row(capsys) -> None:
    text = render_report({"output": "t.tsv", "rows": 1, "phrases": 1, "corpora": [], "resumed_stages": []})
    assert "wrote 1 paraphrase pair for 1 phrase to t.tsv" in text
    assert "wrote 2 paraphrase pairs for 2 phrases" in render_report({"output": "t.tsv", "rows": 2, "phrases": 2, "resumed_stages": [],
                                                                       "corpora": []})


def test_parametric_titles_of_one_item() -> None:
    from paralign.metrics.parametric import TableScores
    from paralign.metrics.parametric_align import AlignScores

    align = render_align_scores(AlignScores(by_length={}, max_length=5, pairs=1))
    table = render_table_scores(TableScores(source="t.tsv", by_length={}, max_length=5, groups=1, sentences=1))
    assert "over 1 pair" in align and "over 1 group, 1 sentence" in table
    assert not ONE_PLURAL.search(align + table), align + table


def test_a_lattice_drawing_of_one_word_says_1_edge(tmp_path) -> None:
    group = tmp_path / "g.txt"
    group.write_text("hello\n", encoding="utf-8")
    out = tmp_path / "l.svg"
    assert main(["lattice", "draw", str(group), "--tokenized", "-o", str(out), "--format", "json"]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "2 states, 1 edge" in svg
    assert not ONE_PLURAL.search(svg), ONE_PLURAL.findall(svg)


def test_lattice_stats_of_one_group(tmp_path, capsys) -> None:
    groups = tmp_path / "groups.tsv"
    groups.write_text("the cat sat\tthe cat sat down\n", encoding="utf-8")
    assert main(["lattice", "stats", "--groups", str(groups), "--tokenized"]) == 0
    text = capsys.readouterr().out
    assert ": 1 group, mean log10" in text
    assert not ONE_PLURAL.search(text), ONE_PLURAL.findall(text)
