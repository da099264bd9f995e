"""CLI: paralign align / evaluate-aligner / tune-aligner / demo (thin wrappers, small inputs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paralign.aligners.evaluation import read_pairs, read_parallel
from paralign.cli import main
from paralign.errors import MismatchError

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo"


def test_read_pairs_reports_bad_lines() -> None:
    lines = ["a b\tc d\n", "no tab here\n", "\n", '{"source": "x", "target": ["y"]}\n', "{oops\n",
             "id7\ta\tb\n"]
    pairs = list(read_pairs(lines, tokenized=True))
    assert [p.error is None for p in pairs] == [True, False, False, True, False, True]
    assert pairs[0].source == ["a", "b"] and pairs[3].target == ["y"] and pairs[5].id == "id7"
    assert pairs[1].line == 2 and "tab" in pairs[1].error
    with pytest.raises(MismatchError):
        list(read_parallel(["a\n", "b\n"], ["c\n"]))


def test_align_tsv_keeps_line_positions(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.tsv"
    src.write_text("The cat sat .\tThe cat sat down .\nbroken line\nDogs bark .\tDogs bark .\n",
                   encoding="utf-8")
    assert main(["align", str(src), "--tokenized"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.split("\n")
    assert lines[1] == "" and "0-0" in lines[2] and "1-1" in lines[0]
    assert "in.tsv:2:" in captured.err


def test_align_parallel_files_json(tmp_path: Path, capsys) -> None:
    (tmp_path / "s.txt").write_text("Zoë lives in Zürich .\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("Zoë resides in Zürich .\n", encoding="utf-8")
    assert main(["align", "--source", str(tmp_path / "s.txt"), "--target", str(tmp_path / "t.txt"),
                 "--tokenized", "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert ["Zoë", "Zoë"] in record["pairs"] and ["Zürich", "Zürich"] in record["pairs"]


def test_evaluate_and_tune_on_demo_gold(capsys) -> None:
    gold = str(DEMO / "gold.jsonl")
    assert main(["evaluate-aligner", "--gold", gold, "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("macro", "micro", "exact", "aer", "annotate_seconds", "align_seconds", "pairs_per_second"):
        assert key in result
    assert result["pairs"] == 6 and result["macro"]["f1"] > 0.8
    assert main(["tune-aligner", "--gold", gold, "--ppdb-grid", "0.5,0.9", "--w-grid", "0.9",
                 "--format", "json"]) == 0
    tuned = json.loads(capsys.readouterr().out)
    assert len(tuned["grid"]) == 2 and tuned["best"]["f1"] >= result["macro"]["f1"] - 1e-9


def test_demo_runs(capsys) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "macro" in out and "Zürich=Zürich" in out


def test_align_paper_preset_and_context_links(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.tsv"
    src.write_text('" I sneezed loudly .\t" I wrote a poem .\n', encoding="utf-8")
    assert main(["align", str(src), "--tokenized"]) == 0
    assert "0-0" in capsys.readouterr().out.split()  # sentence-start extension
    assert main(["align", str(src), "--tokenized", "--paper"]) == 0
    assert "0-0" not in capsys.readouterr().out.split()
    assert main(["align", str(src), "--context-links", "-1"]) != 0
    assert "--context-links" in capsys.readouterr().err
    assert main(["align", str(src), "--tokenized", "--preset", "paper"]) == 0
    assert "0-0" not in capsys.readouterr().out.split()
    assert main(["align", str(src), "--paper", "--preset", "paraphrase"]) != 0
    assert "contradicts" in capsys.readouterr().err
    verbs = tmp_path / "verbs.tsv"
    verbs.write_text("Rebels ambushed the convoy .\tRebels raided the convoy .\n", encoding="utf-8")
    assert main(["align", str(verbs), "--tokenized"]) == 0
    assert "1-1" not in capsys.readouterr().out.split()
    assert main(["align", str(verbs), "--tokenized", "--preset", "paraphrase"]) == 0
    assert "1-1" in capsys.readouterr().out.split()
    assert main(["align", str(verbs), "--tokenized", "--preset", "paraphrase", "--context-links", "0"]) == 0
    assert "1-1" not in capsys.readouterr().out.split()
