"""corpora.gold_input: a gold alignment file given where sentence pairs are read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from paralign.corpora.gold_input import gold_input, gold_input_lines, gold_input_pairs

GOLD = Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.tsv"


def test_gold_lines_give_the_pairs_of_a_file_with_the_same_content() -> None:
    found: list[str] = []
    pairs, _ = gold_input_lines(GOLD.read_text(encoding="utf-8").splitlines(keepends=True), found)
    assert pairs == gold_input_pairs(GOLD) and found == ["multimwa"]


def test_other_lines_are_given_back_unread_past_their_first_line() -> None:
    """A stream that is no gold file (stdin typed line by line) is not read to its end to tell."""
    def typed() -> Iterator[str]:
        yield from ("\n", "A cat sat.\tA cat sits.\n")
        raise AssertionError("read past the first line")

    pairs, lines = gold_input_lines(typed())
    assert pairs is None
    assert [next(lines), next(lines)] == ["\n", "A cat sat.\tA cat sits.\n"]


def test_one_rule_a_file_by_its_path_stdin_by_its_lines() -> None:
    """align and similarity tell a gold file by gold_input: a file's path, stdin's lines."""
    text = GOLD.read_text(encoding="utf-8").splitlines(keepends=True)
    by_path, left = gold_input(GOLD, iter(text))
    on_stdin, _ = gold_input(None, text)
    assert by_path == on_stdin == gold_input_pairs(GOLD) and next(iter(left)) == text[0]
    none, lines = gold_input(None, ["A cat sat.\tA cat sits.\n"])
    assert none is None and list(lines) == ["A cat sat.\tA cat sits.\n"]
