"""corpora.gold_input: a gold alignment file given where sentence pairs are read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from paralign.corpora.gold_input import gold_input, gold_input_pairs

GOLD = Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.tsv"


def test_gold_lines_give_the_pairs_of_a_file_with_the_same_content() -> None:
    found: list[str] = []
    pairs, _ = gold_input(GOLD.read_text(encoding="utf-8").splitlines(keepends=True), found)
    assert pairs == gold_input_pairs(GOLD) and found == ["multimwa"]


def test_other_lines_are_given_back_unread_past_their_first_line() -> None:
    """A stream that is no gold file (stdin typed line by line) is not read to its end to tell."""
    def typed() -> Iterator[str]:
        yield from ("\n", "A cat sat.\tA cat sits.\n")
        raise AssertionError("read past the first line")

    pairs, lines = gold_input(typed())
    assert pairs is None
    assert [next(lines), next(lines)] == ["\n", "A cat sat.\tA cat sits.\n"]


def test_a_byte_order_mark_does_not_hide_a_gold_file() -> None:
    """A gold file on stdin that began with a byte-order mark (MSR RTE2's orig/*.txt do) was read
    line by line, every line bad, where the same file by its path gave its pairs: its first line
    is now told as the gold readers read it, the mark no part of it."""
    text = GOLD.read_text(encoding="utf-8").splitlines(keepends=True)
    found: list[str] = []
    pairs, _ = gold_input(["\ufeff" + text[0], *text[1:]], found)
    assert pairs == gold_input_pairs(GOLD) and found == ["multimwa"]


def test_a_line_that_was_not_utf8_makes_its_pair_bad_at_that_line() -> None:
    """A line the input's reader read as an empty line (--encoding-errors skip) was a blank line
    of the gold unsaid: its pair lost, or its reason what the blank left (a GIZA pair's: a link
    outside a sentence of 0 tokens). The gold reader now reads it as a file's line that is not
    UTF-8: its pair bad at that line for the reader's reason, the others read."""
    text = GOLD.read_text(encoding="utf-8").splitlines(keepends=True)
    why = "not UTF-8 (byte 0xff at column 1); re-encode the file"
    pairs, _ = gold_input([text[0], "\n", *text[2:]], reason_of={2: why}.get)
    whole = gold_input_pairs(GOLD)
    assert pairs is not None and whole is not None and len(pairs) == len(whole)
    assert (pairs[1].line, pairs[1].error, pairs[1].source) == (2, why, None)
    assert pairs[0] == whole[0] and pairs[2:] == whole[2:]
