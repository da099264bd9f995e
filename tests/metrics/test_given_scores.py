"""metrics/given_scores.py: a metric whose scores a file gives (``meta-eval --scores``)."""

from __future__ import annotations

import re

import pytest

from paralign.errors import ConfigurationError
from paralign.metrics.given_scores import GivenScores, GivenSystemScores, given_scores


@pytest.mark.parametrize(("name", "held"), [
    ("a+b", "'+'"), ("a#b", "'#'"), ("a|b", "'|'"), ("a:b", "':'"), ("a=b", "'='"), ("x|y:z+w", "'|', ':', '+'"),
])
def test_a_name_holding_a_separator_of_the_signature_is_refused(tmp_path, name, held):
    """The meta-evaluation's signature writes each given metric as NAME#HASH, joined by ``+``,
    in a ``key:value|...`` string: a name holding one of those marks (or ``=``, that of
    ``--scores NAME=FILE``) made it ambiguous (``scores:a+b#1a2b3c4d``: one metric or two).
    Before, any name was taken; now a ConfigurationError names the file and the marks, for a
    name given or the file's stem."""
    path = tmp_path / "mine.tsv"
    path.write_text("A\t0.5\nB\t0.25\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="^" + re.escape(f"{path}: the name '{name}' holds {held}, ")):
        given_scores(str(path), name)
    stem = tmp_path / "x#y.tsv"
    stem.write_text("A\t0.5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"the name 'x#y' holds '#', "):
        given_scores(str(stem))


def test_the_layout_of_the_lines_gives_system_or_segment_scores(tmp_path):
    """One SYSNAME SCORE line a system is system scores; blocks of them, segment scores; the same
    segment scores as system<TAB>segment<TAB>score lines hash alike."""
    path = tmp_path / "m.seg.score"
    assert isinstance(given_scores(str(path), "m", lines=["A 0.5", "B 0.25"]), GivenSystemScores)
    blocks = given_scores(str(path), "m", lines=["A 0.5", "A 0.75", "B 0.25", "B 1"])
    rows = given_scores(str(path), "m", lines=["B\t2\t1", "A\t1\t0.5", "B\t1\t0.25", "A\t2\t0.75"])
    assert isinstance(blocks, GivenScores) and blocks.digest == rows.digest
    assert blocks.system_stats("B", 2).tolist() == [[0.25, 1.0], [1.0, 1.0]]


def test_system_scores_at_the_segment_level_are_refused_naming_the_option_and_its_values(tmp_path):
    """System scores have no segment level: the usage error said "meta-evaluate them at level
    system or both (--level)", unlike the CLI's others (``--OPTION VALUE: ... give ...``); now it
    names the level as it was given, the command's ``--level`` or the library's ``level``, and
    the values that take them. Segment scores, or the levels system and both, pass."""
    from paralign.metrics.given_scores import check_levels

    path = tmp_path / "m.sys.score"
    system = given_scores(str(path), "m", lines=["A 0.5", "B 0.25"])
    segment = given_scores(str(path), "m", lines=["A 0.5", "A 0.75", "B 0.25", "B 1"])
    with pytest.raises(ConfigurationError, match="^" + re.escape(
            f"--level segment: {path} has system scores only, no segment level: give --level system or --level both")):
        check_levels([segment, system], "segment", "--level")
    with pytest.raises(ConfigurationError, match="^level segment: .* give level system or level both$"):
        check_levels([system], "segment")
    check_levels([system], "system")
    check_levels([system], "both")
    check_levels([segment], "segment")
