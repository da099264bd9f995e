"""`paralign evaluate-sts --report`: scatter per file, correlations equal to the JSON output's,
largest errors listed with their text escaped (exact-match aligner: fast)."""

from __future__ import annotations

import json
from pathlib import Path

from paralign.cli import main

XSS = "<script>alert(1)</script>"
ROWS = [(4.0, "A man plays a guitar.", "A man plays a guitar."), (1.0, "Cats sleep.", "Dogs bark."),
        (3.0, "The cat sleeps.", "The cat naps."), (0.5, f"{XSS} x", "completely other words"),
        (5.0, "The dog runs fast.", "The dog runs fast."), (2.0, "A bird sings.", "A bird flies away.")]


def _sts(path: Path, rows) -> str:
    path.write_text("".join(f"{g}\t{a}\t{b}\n" for g, a, b in rows), encoding="utf-8")
    return str(path)


def test_report_per_file_with_the_json_figures(tmp_path: Path, capsys, report_page) -> None:
    first, second = _sts(tmp_path / "one.tsv", ROWS), _sts(tmp_path / "two.tsv", ROWS[:4])
    report = tmp_path / "sts.html"
    argv = ["evaluate-sts", "--data", first, "--data", second, "--aligner", "exact"]
    assert main([*argv, "--format", "json", "--report", str(report)]) == 0
    result = json.loads(capsys.readouterr().out)
    page = report_page(report.read_text(encoding="utf-8"))
    values = page.values()
    for key in ("pairs", "pearson", "spearman"):
        assert values[key] == result[key]
    for k, s in enumerate(result["sets"]):
        assert values[f"sets.{k}.pearson"] == s["pearson"] and values[f"sets.{k}.pairs"] == s["pairs"]
    assert page.count("svg") == 2 and len(page.find("circle", class_="point")) == 6 + 4
    errors = page.find("tr", class_="error-pair")
    assert len(errors) == 6 + 4
    assert {float(e["data-gold"]) for e in errors} <= {g for g, _, _ in ROWS}
    assert f"{XSS} x" in page.text and XSS not in page.source
    page.assert_self_contained()
    assert main(argv) == 0  # the text output with and without the report is the same
    plain = capsys.readouterr().out
    assert main([*argv, "--report", str(report)]) == 0
    assert capsys.readouterr().out == plain
