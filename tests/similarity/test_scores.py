"""similarity.scores: an empty sentence has no similarity, as on the command line (API audit W5)."""

from __future__ import annotations

import pytest

from paralign.aligners.exact import exact_match_aligner
from paralign.errors import SimilarityError
from paralign.similarity.scores import similarity, similarity_many


@pytest.mark.parametrize(("a", "b"), [("", ""), ("a cat", ""), ("  ", "a cat"), ([], ["cat"])])
def test_similarity_of_an_empty_sentence_is_an_error_not_zero(a, b) -> None:
    """`paralign similarity` prints NA and warns 'empty sentence'; the library gave 0.0."""
    with pytest.raises(SimilarityError, match=r"pair could not be scored: empty (source|target|source and target) sentence"):
        similarity(a, b, aligner=exact_match_aligner)


def test_similarity_many_keeps_the_empty_pairs_in_place_as_failures() -> None:
    batch = similarity_many([(["a", "cat"], ["a", "cat"]), (["a", "cat"], [])], aligner=exact_match_aligner)
    assert batch.scores == (1.0, None)
    assert [(f.index, f.error) for f in batch.failures] == [(1, "empty target sentence")]
