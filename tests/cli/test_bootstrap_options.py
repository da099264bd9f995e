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
