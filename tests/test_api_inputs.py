"""The library's entry points, called from Python with wrong types: each answers with a
:mod:`paralign.errors` error naming the argument, not a built-in error from deep inside."""

from __future__ import annotations

import importlib.util

import pytest

import paralign
from paralign.errors import FormatError, InputTypeError

PAIR = ("The senator sponsored the bill.", "The senator drafted the bill.")


@pytest.mark.parametrize("bad", [None, 3])
def test_similarity_of_a_value_that_is_not_a_sentence_is_an_input_type_error(bad: object) -> None:
    """`similarity(None, y)` was a SimilarityError, 'pair could not be scored: annotation failed:
    InputTypeError: ...': a caller's mistake reported as a pair that failed. It is the
    InputTypeError itself, as `Aligner().align(None, y)` gives it; an empty sentence is still a
    SimilarityError (tests/similarity/test_scores.py)."""
    with pytest.raises(InputTypeError, match="a sentence is a text"):
        paralign.similarity(bad, PAIR[1])  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="a sentence is a text"):
        paralign.similarity(PAIR[0], bad)  # type: ignore[arg-type]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the neural extra (torch)")
@pytest.mark.parametrize("bad", [None, 3, ["a", None]])
def test_the_contextual_aligner_names_a_value_that_is_not_a_sentence(bad: object) -> None:
    """`Aligner("contextual").align(None, y)` was a bare TypeError ("object of type 'NoneType'
    has no len()") from its empty-sentence check, where the lexical aligner says what a
    sentence is; both say it now, before any model loads."""
    aligner = paralign.Aligner("contextual")
    with pytest.raises(InputTypeError, match="a sentence is a text"):
        aligner.align(bad, PAIR[1])  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="a sentence is a text"):
        aligner.align_many([(PAIR[0], bad)])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("rows", "error", "message"),
    [
        ("ab", InputTypeError, "not one str"),
        ([("a",)], FormatError, r"row 1 is \('a',\)"),
        ([("a", "b"), "ab"], FormatError, "row 2 is 'ab'"),
        ([("a", "b", "0.5")], FormatError, "row 1.*score '0.5' is not a number"),
        ([("a", "b", 0.5, "x")], FormatError, "row 1"),
        (None, InputTypeError, "not NoneType"),
    ],
)
def test_a_paraphrase_table_from_rows_that_are_not_pairs_says_which_row(rows, error, message) -> None:
    """`ParaphraseTable.from_pairs` read one str as its characters and failed with IndexError
    ('string index out of range'), a 1-tuple with IndexError and a score given as text with a
    bare TypeError ('must be real number, not str'). A row that is not (phrase, paraphrase[,
    score]) is now a FormatError naming it (1-based), as from_tsv names a bad line."""
    with pytest.raises(error, match=message):
        paralign.ParaphraseTable.from_pairs(rows)  # type: ignore[arg-type]


def test_a_paraphrase_table_from_good_rows_is_unchanged() -> None:
    table = paralign.ParaphraseTable.from_pairs([("a man", "a guy", 0.5), ["big", "large"]])
    assert dict(table.paraphrases("A  Man")) == {"a guy": 0.5}
    assert dict(table.paraphrases("big")) == {"large": None}
