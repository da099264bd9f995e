"""The bootstrap options' contract, the same in every command that takes `--confidence`,
`--resamples` and `--seed` (`add_bootstrap_options`): each command is run here on small inputs."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from paralign.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
ALIGNMENT = ROOT / "examples" / "alignment"
DEMO_GOLD = ROOT / "examples" / "demo" / "gold.jsonl"


def _sts(tmp_path: Path) -> str:
    path = tmp_path / "sts.tsv"
    rows = [(4.0, "A man plays a guitar.", "A man plays a guitar."), (1.0, "Cats sleep.", "Dogs bark."),
            (3.0, "The cat sleeps.", "The cat naps."), (2.0, "A bird sings.", "A bird flies away.")]
    path.write_text("".join(f"{g}\t{a}\t{b}\n" for g, a, b in rows), encoding="utf-8")
    return str(path)


def _paraeval(tmp_path: Path) -> list[str]:
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog barked\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat\na dog barks loudly\n", encoding="utf-8")
    return ["-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "--resources", "none"]


#: Each command with the bootstrap options: argv that runs it on small inputs (without them).
COMMANDS = {
    "score-alignments": lambda tmp: ["score-alignments", "--gold", str(ALIGNMENT / "gold.json"),
                                     "--system", str(ALIGNMENT / "system.pharaoh")],
    "evaluate-aligner": lambda tmp: ["evaluate-aligner", "--gold", str(DEMO_GOLD), "--limit", "2"],
    "evaluate-sts": lambda tmp: ["evaluate-sts", "--data", _sts(tmp), "--aligner", "exact"],
    "paraeval": lambda tmp: ["paraeval", *_paraeval(tmp)],
}

#: Commands with --resamples/--seed but no --confidence, and why they are not checked here.
ALWAYS_RESAMPLE = {
    "meta-eval": "its correlations always have bootstrap intervals and paired tests",
}


def test_every_command_with_the_options_is_covered() -> None:
    """A new command taking --resamples is either run by the tests here or listed as one that
    always resamples."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    found = {name for name, sub in commands.items() if "--resamples" in sub._option_string_actions}
    assert found == set(COMMANDS) | set(ALWAYS_RESAMPLE)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("given", [["--resamples", "50"], ["--seed", "3"], ["--resamples", "1000"],
                                   ["--seed", "12345"], ["--resamples", "50", "--seed", "3"]])
def test_resamples_or_seed_without_confidence_is_a_usage_error(command: str, given: list[str], tmp_path: Path,
                                                                capsys) -> None:
    """--resamples/--seed without --confidence were silently ignored: the run printed no
    interval and the user believed the setting was used. They are a usage error (exit 2, one
    line), told by whether they were typed, so also when typed at their default value."""
    argv = COMMANDS[command](tmp_path)
    assert main(argv) == 0  # the inputs are fine
    capsys.readouterr()
    assert main([*argv, *given]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        f"paralign {command}: error: --resamples/--seed only matter with --confidence"
        + (" or --paired-bs: add one of them" if command == "paraeval" else ": add --confidence")
        + ", or leave them out"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_resamples_and_seed_with_confidence_are_used(command: str, tmp_path: Path, capsys) -> None:
    """With --confidence they still count: the signature carries them, and the defaults when
    they are left out."""
    import json

    argv = [*COMMANDS[command](tmp_path), "--confidence", "--format", "json"]
    assert main([*argv, "--resamples", "20", "--seed", "3"]) == 0
    assert "|bs:20|seed:3|" in json.loads(capsys.readouterr().out)["signature"]
    assert main(argv) == 0
    assert "|bs:1000|seed:12345|" in json.loads(capsys.readouterr().out)["signature"]


def test_paraeval_paired_bs_uses_resamples_without_confidence(tmp_path: Path, capsys) -> None:
    """paraeval's --paired-bs resamples too: --resamples with it alone is no error."""
    import json

    argv = ["paraeval", *_paraeval(tmp_path), "-i", str(tmp_path / "ref.txt"), "--paired-bs",
            "--resamples", "20", "--format", "json"]
    assert main(argv) == 0
    assert all("|bs:20|seed:12345|" in s["signature"] for s in json.loads(capsys.readouterr().out)["systems"])


def _one_pair(tmp_path: Path) -> str:
    path = tmp_path / "one.jsonl"
    path.write_text(DEMO_GOLD.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    return str(path)


def _paraeval_one(tmp_path: Path) -> list[str]:
    (tmp_path / "ref1.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "hyp1.txt").write_text("the cat sat\n", encoding="utf-8")
    return ["-r", str(tmp_path / "ref1.txt"), "-i", str(tmp_path / "hyp1.txt"), "--resources", "none"]


def _sts_one(tmp_path: Path) -> str:
    path = tmp_path / "one.tsv"
    path.write_text("4.0\tA man plays a guitar.\tA man plays a guitar.\n", encoding="utf-8")
    return str(path)


#: Each command over one item (pair, segment): argv, its intervals in the JSON output, and the
#: text line that shows them.
ONE_ITEM = {
    "score-alignments": (lambda tmp: ["score-alignments", "--gold", _one_pair(tmp), "--system", _one_pair(tmp)],
                         lambda r: [r["confidence"]["macro_f1"]], "macro F1 bootstrap: n/a"),
    "evaluate-aligner": (lambda tmp: ["evaluate-aligner", "--gold", str(DEMO_GOLD), "--limit", "1"],
                         lambda r: [r["confidence"]["macro_f1"]], "macro F1 bootstrap: n/a"),
    "evaluate-sts": (lambda tmp: ["evaluate-sts", "--data", _sts_one(tmp), "--aligner", "exact"],
                     lambda r: [r["sets"][0]["pearson_interval"], r["sets"][0]["spearman_interval"],
                                r["pearson_interval"], r["spearman_interval"]], "n/a  n/a"),
    "paraeval": (lambda tmp: ["paraeval", *_paraeval_one(tmp)], lambda r: [r["confidence"]], "(μ = n/a)"),
}


def test_every_command_is_run_over_one_item() -> None:
    assert set(ONE_ITEM) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(ONE_ITEM))
def test_confidence_over_one_item_is_null_and_says_why(command: str, tmp_path: Path, capsys) -> None:
    """--confidence over one item printed an interval of ± 0.00, which reads as certainty (one
    item resampled is that item every time); evaluate-sts left the interval blank without a
    word. Every command now gives null in JSON, n/a in text, and a warning saying why."""
    import json

    build, intervals, shown = ONE_ITEM[command]
    argv = [*build(tmp_path), "--confidence"]
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert intervals(json.loads(out)) == [None] * len(intervals(json.loads(out)))
    fewest = "fewer than 3" if command == "evaluate-sts" else "fewer than 2"  # a correlation needs 3
    assert f"no bootstrap interval (n/a): {fewest}" in err and "(got 1)" in err
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert shown in out and "± 0.0" not in out and fewest in err


def test_paired_bootstrap_over_one_segment_has_no_p_value(tmp_path: Path, capsys) -> None:
    """One segment drawn every time made any difference 'significant' (p = 1/1001, marked *);
    the p-value is null (n/a in text), as the intervals are."""
    import json

    base = _paraeval_one(tmp_path)
    (tmp_path / "other.txt").write_text("a cat sat\n", encoding="utf-8")
    argv = ["paraeval", *base, "-i", str(tmp_path / "other.txt"), "--paired-bs"]
    assert main([*argv, "--format", "json"]) == 0
    baseline, other = json.loads(capsys.readouterr().out)["systems"]
    assert baseline["confidence"] is None is other["confidence"]
    assert other["paired_bootstrap"]["p_value"] is None and other["paired_bootstrap"]["baseline_score"] == 0.5
    assert baseline["paired_bootstrap"]["is_baseline"] and not other["paired_bootstrap"]["is_baseline"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "(μ = n/a, p = n/a)" in out and "*" not in out and "no paired test either" in err


def test_paraeval_confidence_of_an_undefined_score_is_null(tmp_path: Path, capsys) -> None:
    """The paper's F is n/a when no reference has a word; its resamples counted it as 0 and
    printed 'F = n/a (μ = 0.0000 ± 0.0000)'. The interval is null, with a warning."""
    import json

    (tmp_path / "r.txt").write_text("\n\n", encoding="utf-8")
    argv = ["paraeval", "-r", str(tmp_path / "r.txt"), "-i", str(tmp_path / "r.txt"), "--resources", "none",
            "--config", "paper", "--confidence"]
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["f"] is None and json.loads(out)["confidence"] is None
    assert "no bootstrap interval (n/a): its score is n/a" in err
    assert main(argv) == 0
    assert "F = n/a (μ = n/a)" in capsys.readouterr().out


@pytest.mark.parametrize("rows, why", [
    ([(4.0, "A man plays a guitar.", "A man plays a guitar.")] * 3, "the correlation is undefined"),
    ([(4.0, "word " * 200_001, "A word."), (1.0, "word " * 200_001, "A cat.")], "scored pairs to correlate (got 0)"),
])
def test_sts_intervals_that_are_undefined_say_why(rows, why: str, tmp_path: Path, capsys) -> None:
    """Three identical pairs (a constant series: no correlation in any resample) and pairs that all
    fail to score have no interval: null, n/a in text, and a warning naming the file and why."""
    import json

    data = tmp_path / "sts.tsv"
    data.write_text("".join(f"{g}\t{a}\t{b}\n" for g, a, b in rows), encoding="utf-8")
    argv = ["evaluate-sts", "--data", str(data), "--aligner", "exact", "--confidence"]
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["sets"][0]["pearson_interval"] is None
    assert f"{data}: no bootstrap interval (n/a): " in err and why in err
    assert main(argv) == 0
    assert "n/a  n/a" in capsys.readouterr().out
