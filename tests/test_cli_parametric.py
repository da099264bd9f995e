"""`paralign parametric align|table` end to end through `paralign.cli.main`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paralign.cli import main

GOLD = [
    {"id": "doc.1.a", "source": "he quit his job .", "target": "he resigned from his job .",
     "sureAlign": "0-0 1-1 1-2 2-3 3-4 4-5", "possibleAlign": ""},
    {"id": "doc.1.b", "source": "he quit his job .", "target": "he left his post .",
     "sureAlign": "0-0 1-1 2-2 3-3 4-4", "possibleAlign": ""},
    {"id": "doc.2.a", "source": "same words", "target": "same words",
     "sureAlign": "0-0 1-1", "possibleAlign": ""},
]


def write_json(path: Path, items: list[dict]) -> Path:
    path.write_text(json.dumps(items), encoding="utf-8")
    return path


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    return write_json(tmp_path / "gold.json", GOLD)


def run_json(capsys, argv: list[str]) -> tuple[int, dict, str]:
    code = main(argv + ["--format", "json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {}, captured.err


def test_align_json_layout(tmp_path, gold, capsys):
    system = [dict(item, sureAlign="0-0 1-1 2-4 3-3 4-5") if n == 0 else item
              for n, item in enumerate(GOLD)]
    system[1] = dict(system[1], source=system[1]["source"].upper())  # case is ignored
    path = write_json(tmp_path / "system.json", system)
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                          "--system", str(path)])
    assert code == 0 and err == ""
    assert set(result["by_length"]) == {"1", "2", "3", "4", "5"}
    assert {"precision", "recall"} <= set(result["by_length"]["1"])
    assert 0 < result["precision"] < 1 and 0 < result["recall"] < 1
    assert result["pairs"] == 3 and result["skipped"] == 0


def test_align_reports_mismatched_pair(tmp_path, gold, capsys):
    system = [dict(item) for item in GOLD]
    system[1]["target"] = "an entirely different sentence"
    system[1]["sureAlign"] = "0-0"
    path = write_json(tmp_path / "system.json", system)
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                          "--system", str(path)])
    assert code == 0 and result["skipped"] == 1 and result["pairs"] == 2
    assert "doc.1.b" in err and "warning" in err
    assert result["precision"] == 1.0 and result["recall"] == 1.0


def test_align_text_output_and_missing_file(tmp_path, gold, capsys):
    assert main(["parametric", "align", "--gold", str(gold), "--system", str(gold),
                 "--max-length", "3"]) == 0
    out = capsys.readouterr().out
    assert "Length <= 3" in out and "Length <= 4" not in out and "AlignPrec" in out
    code, tight, _ = run_json(capsys, ["parametric", "align", "--gold", str(gold), "--system",
                                       str(gold), "--tight"])
    assert code == 0 and tight["precision"] == 1.0 and tight["gold"] > 0
    assert main(["parametric", "align", "--gold", str(gold), "--system",
                 str(tmp_path / "absent.json")]) == 1
    assert "absent.json" in capsys.readouterr().err


def test_table_json_layout_and_single_sentence_group(tmp_path, gold, capsys):
    table = tmp_path / "table.tsv"
    table.write_text("quit\tresigned from\t0.5\nquit\tleft\t0.3\njob\tpost\t0.001\n", encoding="utf-8")
    code, result, err = run_json(capsys, ["parametric", "table", "--gold", str(gold),
                                          "--table", f"{table}:0.01"])
    assert code == 0
    assert {"lb_precision", "rel_recall", "posited", "correct", "reference", "by_length"} <= set(result)
    assert result["posited"] == 2 and result["correct"] == 2  # job->post is below the threshold
    assert result["lb_precision"] == 1.0 and 0 < result["rel_recall"] < 1
    assert result["skipped_groups"] == 1 and "'doc.2'" in err
    code, tight, _ = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table",
                                       str(table), "--tight", "--only-referenced",
                                       "--sentences", "hub"])
    assert code == 0 and tight["tight"] is True and tight["sentence_mode"] == "hub"
    assert tight["reference"] < result["reference"]


def test_table_line_without_tab(tmp_path, gold, capsys):
    table = tmp_path / "bad.tsv"
    table.write_text("quit\tleft\nquit left\n", encoding="utf-8")
    assert main(["parametric", "table", "--gold", str(gold), "--table", str(table)]) == 1
    assert f"{table}:2" in capsys.readouterr().err


def test_align_with_sultan(gold, capsys):
    code, result, _ = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                        "--system", "sultan"])
    assert code == 0 and result["pairs"] == 3 and result["system"] > 0


def test_align_reports_bad_lines_and_scores_the_rest(tmp_path, gold, capsys):
    """A malformed system line or gold item skips that pair on both sides, keeping positions."""
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 1-1 1-2 2-3 3-4 4-5\n0-0 x-1\n0-0 1-1\n", encoding="utf-8")
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                          "--system", str(system)])
    assert code == 0 and result["pairs"] == 2 and result["skipped"] == 1
    assert f"{system}:2: malformed link 'x-1'" in err and "doc.1.b" in err
    assert result["skipped_rows"][0] == {"pair": 2, "id": "doc.1.b", "file": str(system), "line": 2,
                                         "reason": "malformed link 'x-1' (expected i-j, i?j or ipj)"}
    assert result["precision"] == 1.0 and result["recall"] == 1.0  # pairs 1 and 3 stay matched
    bad_gold = write_json(tmp_path / "bad_gold.json",
                          [GOLD[0], dict(GOLD[1], sureAlign="0-0 9-9"), GOLD[2]])
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(bad_gold),
                                          "--system", str(gold)])
    assert code == 0 and result["pairs"] == 2 and f"{bad_gold}:" in err and "9-9" in err


def test_align_every_pair_bad_is_an_error(tmp_path, gold, capsys):
    system = tmp_path / "system.pharaoh"
    system.write_text("9-9\n0-0 8-8\n7-0\n", encoding="utf-8")  # every link outside
    assert main(["parametric", "align", "--gold", str(gold), "--system", str(system),
                 "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "no pair could be scored" in captured.err
