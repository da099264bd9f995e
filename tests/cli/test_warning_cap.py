"""One rule for the warnings of bad input, in every command (`cli._warnings`; docs/CLI.md, Exit
status): the first 20 bad items of a run are shown as they are met, then one line says further
ones are counted, not shown, and the run ends with `... and N more warnings`; the output still
marks every bad item, and notes are never cut nor counted.

Before, a command that streamed (`align`, `similarity`, `lattice distance`, `paraphrases
--phrases`, `paraeval -i ...`) printed one warning per bad line, all of them: a wrong file of
100,000 lines printed 100,000 lines on stderr, burying the summary and the first useful one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paralign.cli import main
from paralign.cli._warnings import HIDING, MAX_WARNINGS, capped_warnings, warn, warn_item

PREFIX = "paralign: warning: "
GOOD_PAIR = "A b .\tA b .\n"
NO_TAB = "no tab here\n"


def check_cap(err: str, name: str, bad: list[int]) -> list[str]:
    """Assert the rule on `err` for the bad lines `bad` of file `name` (their warnings start
    ``name:LINE:``): the first 20 named in order, then HIDING, then ``... and N more warnings``
    once; with 20 or fewer, each named and no line of the cap. The lines of `err` returned."""
    lines = err.splitlines()
    at = re.compile(rf"{re.escape(PREFIX + name)}:(\d+):")
    named = [line for line in lines if at.match(line)]
    numbers = [int(match.group(1)) for line in named if (match := at.match(line))]
    hidden = len(bad) - MAX_WARNINGS
    if hidden <= 0:
        assert numbers == bad
        assert PREFIX + HIDING not in lines and not any("more warnings" in line for line in lines)
        return lines
    assert numbers == bad[:MAX_WARNINGS]
    assert lines.count(PREFIX + HIDING) == 1 and lines.index(PREFIX + HIDING) == lines.index(named[-1]) + 1
    more = [line for line in lines if line.endswith(" more warnings")]
    assert more == [f"{PREFIX}... and {hidden} more warnings"]
    assert lines.index(more[0]) > lines.index(PREFIX + HIDING)
    return lines


def _file(tmp_path: Path, name: str, good: str, bad: str, n_bad: int) -> Path:
    """`good`, `n_bad` lines of `bad`, `good` again: the bad lines are 2 .. n_bad + 1."""
    path = tmp_path / name
    path.write_text(good + bad * n_bad + good, encoding="utf-8")
    return path


def test_align_shows_the_first_20_bad_lines_and_counts_the_rest(tmp_path, capsys) -> None:
    """`align`: 25 lines of one field give 20 warnings, the counted-not-shown line and "... and 5
    more warnings", then the summary count (last); stdout has an empty line for each of the 25
    (text) and an "error" object for each (JSON). 3 bad lines: all 3 named, no line of the cap."""
    for n_bad in (25, 3):  # 3: each named, no line of the cap
        path = _file(tmp_path, "pairs.tsv", GOOD_PAIR, NO_TAB, n_bad)
        bad = list(range(2, n_bad + 2))
        assert main(["align", "--tokenized", str(path)]) == 0
        out, err = capsys.readouterr()
        lines = check_cap(err, str(path), bad)
        assert lines[-1].startswith(f"{PREFIX}{path}: {n_bad} of {n_bad + 2} input lines bad")
        assert [n for n, line in enumerate(out.splitlines(), 1) if not line] == bad
        assert main(["align", "--tokenized", str(path), "--format", "json"]) == 0
        out, err = capsys.readouterr()
        check_cap(err, str(path), bad)
        assert [n for n, line in enumerate(out.splitlines(), 1) if "error" in json.loads(line)] == bad


def test_similarity_caps_its_bad_rows_but_not_its_notes(tmp_path, capsys) -> None:
    """`similarity`: the same rule; JSON lists each bad row under skipped_rows (a null score in
    its place); a note (ids repeated) is shown whatever the count, and is not one of the 20."""
    for n_bad in (25, 3):  # 3: each named, no line of the cap
        path = tmp_path / "pairs.jsonl"
        good = json.dumps({"id": "same", "source": "A b .", "target": "A b ."}) + "\n"
        path.write_text(good + "[1, 2]\n" * n_bad + good, encoding="utf-8")
        bad = list(range(2, n_bad + 2))
        assert main(["similarity", "--aligner", "exact", "--pairs", str(path), "--format", "json"]) == 0
        out, err = capsys.readouterr()
        lines = check_cap(err, str(path), bad)
        result = json.loads(out)
        assert [row["line"] for row in result["skipped_rows"]] == bad
        assert [n for n, score in enumerate(result["scores"], 1) if score is None] == bad
        notes = [line for line in lines if "repeats an earlier pair's id" in line]
        assert len(notes) == 1 and result["notes"] and notes[0] == PREFIX + result["notes"][0]


def test_lattice_distance_caps_its_bad_lines(tmp_path, capsys) -> None:
    """`lattice distance --sentences`: the same rule; an empty output line for each bad line."""
    for n_bad in (25, 3):  # 3: each named, no line of the cap
        sentences = _file(tmp_path, "s.txt", "a b\n", "\n", n_bad)
        bad = list(range(2, n_bad + 2))
        assert main(["lattice", "distance", "--tokenized", "--sentences", str(sentences), str(sentences)]) == 0
        out, err = capsys.readouterr()
        lines = check_cap(err, str(sentences), bad)
        assert lines[-1].startswith(f"{PREFIX}{sentences}: {n_bad} of {n_bad + 2} input lines bad")
        assert [n for n, line in enumerate(out.splitlines(), 1) if not line] == bad


def test_paraphrases_caps_the_lines_with_no_phrase(tmp_path, capsys) -> None:
    """`paraphrases --phrases`: the same rule, the summary count last; JSON's skipped_rows lists
    each line left out."""
    for n_bad in (25, 3):  # 3: each named, no line of the cap
        table = tmp_path / "t.tsv"
        table.write_text("a car\tan automobile\t0.5\n", encoding="utf-8")
        phrases = _file(tmp_path, "phrases.txt", "a car\n", " \n", n_bad)
        bad = list(range(2, n_bad + 2))
        assert main(["paraphrases", "--phrases", str(phrases), "--table", str(table), "--format", "json"]) == 0
        out, err = capsys.readouterr()
        lines = check_cap(err, str(phrases), bad)
        assert lines[-1].startswith(f"{PREFIX}{phrases}: {n_bad} lines with no phrase")
        assert [row["line"] for row in json.loads(out)["skipped_rows"]] == bad


def test_paraeval_tells_the_count_before_its_error(tmp_path, capsys) -> None:
    """`paraeval` with every -i bad: the systems' warnings by the same rule, and the count of
    those not shown before the error that ends the run (exit 1)."""
    for n_bad in (25, 3):  # 3: each named, no line of the cap
        (tmp_path / "ref.txt").write_text("a b\nc d\n", encoding="utf-8")
        systems = []
        for k in range(n_bad):
            systems += ["-i", str(tmp_path / f"s{k:02}.txt")]
            # one line short or one too many: outputs all of one other length than the reference
            # would be one error naming the reference (errors.odd_reference), no warning each
            (tmp_path / f"s{k:02}.txt").write_text("a b\n" * (1 + 2 * (k % 2)), encoding="utf-8")
        assert main(["paraeval", "-r", str(tmp_path / "ref.txt"), "--resources", "none", *systems]) == 1
        lines = capsys.readouterr().err.splitlines()
        warned = [line for line in lines if line.endswith("; not scored")]
        assert len(warned) == min(n_bad, MAX_WARNINGS)
        assert (PREFIX + HIDING in lines) == (n_bad > MAX_WARNINGS)
        tail = [f"{PREFIX}... and {n_bad - MAX_WARNINGS} more warnings"] if n_bad > MAX_WARNINGS else []
        assert lines[-1 - len(tail):] == [*tail, f"paralign paraeval: error: none of the {n_bad} systems could be "
                                                 "scored (reported above)"]


def test_evaluate_sts_shows_its_notes_and_the_first_20_bad_rows(tmp_path, capsys) -> None:
    """A command that lists its warnings when it ends follows the same rule: its notes (here an
    interval that is n/a) each shown and not counted, then 20 bad rows, the counted-not-shown
    line and "... and 25 more warnings"; JSON keeps every row. Before, the notes were among the
    20 (2 notes left 18 rows) and no line said the rest were counted."""
    path = tmp_path / "sts.tsv"
    rows = "".join(f"{g}\tA b c .\tA b c .\n" for g in (1, 2, 3, 4, 5))  # the scores do not vary: n/a
    path.write_text(rows + "one field only\n" * 45, encoding="utf-8")
    assert main(["evaluate-sts", "--data", str(path), "--aligner", "exact", "--format", "json",
                 "--confidence", "--resamples", "20"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(json.loads(out)["sets"][0]["skipped_rows"]) == 45
    notes = [line for line in lines if "no bootstrap interval" in line]
    assert notes and lines.index(notes[-1]) < lines.index(next(line for line in lines if ": skipped: " in line))
    check_cap(err, str(path), list(range(6, 51)))


def test_a_run_counts_its_items_only_and_says_the_count_when_it_ends(capsys) -> None:
    """The mechanism: notes are shown and not counted, whenever they come; the count is told as
    the run ends, even when it ends in an error; outside a run each item is shown."""
    with pytest.raises(RuntimeError), capped_warnings():
        for k in range(MAX_WARNINGS + 3):
            warn_item(f"item {k}")
            warn(f"note {k}")
        raise RuntimeError
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if line.startswith(f"{PREFIX}item ")] == [f"{PREFIX}item {k}" for k in range(MAX_WARNINGS)]
    assert [line for line in lines if line.startswith(f"{PREFIX}note ")] == [f"{PREFIX}note {k}" for k in range(MAX_WARNINGS + 3)]
    assert lines[-1] == f"{PREFIX}... and 3 more warnings" and lines.count(PREFIX + HIDING) == 1
    for k in range(MAX_WARNINGS + 3):
        warn_item(f"item {k}")
    assert len(capsys.readouterr().err.splitlines()) == MAX_WARNINGS + 3
