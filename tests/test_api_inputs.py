"""The library's entry points, called from Python with wrong types: each answers with a
:mod:`paralign.errors` error naming the argument, not a built-in error from deep inside."""

from __future__ import annotations

import importlib.util

import pytest

import paralign
from paralign.errors import InputTypeError

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
