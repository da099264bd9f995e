"""Number options out of range are usage errors naming the flag as typed.

The library refuses the same values (`AlignerConfig`, `PivotOptions`, the logistic model, ...),
but names them as Python does: `paralign align --ppdb-sim 0` said ``ppdb_sim must be a number in
(0, 1]``, `--w 1.5` said ``w must be``, `pivot --max-length-ratio 0` ``max_length_ratio must
be``: not what the user typed. Each option now has an argparse type stating its range
(`_common.number_in`, `positive_int`), so the value is refused when the options are parsed,
before any input is read or cluster started: ``argument --ppdb-sim: must be ...``, exit 2.
"""

from __future__ import annotations

import argparse

import pytest

from paralign.cli import build_parser, main

PAIRS = "The cat sat .\tA cat sat .\n"
GOLD = '{"id": "p1", "source": "The cat sat .", "target": "A cat sat .", "sure": [[0, 0]], "possible": []}\n'
MSRP = ("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n1\t1\t2\tA man plays.\tA man plays.\n"
        "0\t3\t4\tCats sleep.\tDogs bark.\n")
ENGLISH = "the car is small\nthe dog is big\n"
LINKS = "0-0 1-1 2-2 3-3\n0-0 1-1 2-2 3-3\n"

#: (command line, with {NAME} for an input file of FILES; the flag; its bad value).
CASES = [
    (("align", "{pairs}", "--similarity", "none"), "--ppdb-sim", "0"),
    (("align", "{pairs}", "--similarity", "none"), "--ppdb-sim", "1.5"),
    (("align", "{pairs}", "--similarity", "none"), "--w", "1.5"),
    (("align", "{pairs}", "--similarity", "none"), "--w", "-1"),
    (("evaluate-aligner", "--gold", "{gold}", "--similarity", "none"), "--w", "0"),
    (("evaluate-paraphrase", "--train", "{msrp}", "--test", "{msrp}", "--aligner", "exact"), "--l2", "-1"),
    (("evaluate-paraphrase", "--train", "{msrp}", "--test", "{msrp}", "--aligner", "exact"), "--cv-folds", "1"),
    (("evaluate-paraphrase", "--train", "{msrp}", "--test", "{msrp}", "--aligner", "exact"), "--cv-folds", "-1"),
    (("evaluate-paraphrase", "--train", "{msrp}", "--test", "{msrp}", "--aligner", "exact"),
     "--fine-tune-learning-rate", "0"),
    (("pivot", "--english", "{english}", "--foreign", "{english}", "--alignment", "{links}", "-o", "{out}"),
     "--max-length-ratio", "0.5"),
    (("pivot", "--english", "{english}", "--foreign", "{english}", "--alignment", "{links}", "-o", "{out}"),
     "--min-translation-prob", "1"),
    (("pivot", "--english", "{english}", "--foreign", "{english}", "--alignment", "{links}", "-o", "{out}"),
     "--min-translation-prob", "-0.5"),
    (("align", "{pairs}", "--similarity", "none"), "--context-links", "-1"),
    (("align", "{pairs}", "--similarity", "none", "--preset", "contextual"), "--min-confidence", "1.5"),
    (("pivot", "--english", "{english}", "--foreign", "{english}", "--alignment", "{links}", "-o", "{out}"),
     "--threshold", "2"),
    (("parametric", "align", "--gold", "{gold}", "--system", "{links}"), "--max-length", "0"),
    (("parametric", "table", "--gold", "{gold}", "--table", "{links}"), "--max-length", "-1"),
    (("lattice", "paths", "{english}", "--sample", "1"), "--seed", "-5"),  # random.Random(-5) is Random(5)
    (("lattice", "stats", "{english}", "--sample", "1"), "--seed", "-1"),
]


@pytest.mark.parametrize(("argv", "flag", "value"), CASES, ids=[f"{c[0][0]}{c[1]}={c[2]}" for c in CASES])
def test_an_out_of_range_number_names_the_flag(tmp_path, capsys, monkeypatch, argv, flag, value) -> None:
    monkeypatch.chdir(tmp_path)
    files = {"pairs": PAIRS, "gold": GOLD, "msrp": MSRP, "english": ENGLISH, "links": LINKS}
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    line = [arg.format(out="out.tsv", **{k: f"{k}.txt" for k in files}) for arg in argv] + [flag, value]
    try:
        code = main(line)
    except SystemExit as exc:  # argparse's usage error
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"argument {flag}: must be" in err, err
    python_name = flag.lstrip("-").replace("-", "_")
    assert f"{python_name} must" not in err, err  # not as the library names its parameter
    assert not (tmp_path / "out.tsv").exists()


#: Number options parsed as a bare float or int, with why no range of theirs is checked when
#: the options are parsed (any other number option must have a type that checks its range).
UNCHECKED = {
    "--fine-tune-seed": "any integer seeds torch and random.Random",
}


def _number_options(parser: argparse.ArgumentParser, command: str = "") -> list[tuple[str, str]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _number_options(sub, f"{command} {name}".strip())
        elif action.option_strings and action.type in (float, int):
            found.append((command, max(action.option_strings, key=len)))
    return found


def test_every_number_option_states_its_range() -> None:
    """A new option typed `float` or `int` would again leave its range to the library, which names
    it as Python does: give it a type from `_common` (number_in, positive_int, ...) or a reason here."""
    unchecked = [f"{command} {flag}" for command, flag in _number_options(build_parser()) if flag not in UNCHECKED]
    assert unchecked == []
