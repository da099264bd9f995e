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


def test_an_aligner_may_be_given_by_name() -> None:
    """API audit U2: aligner="exact" was "alignment failed: TypeError: 'str' object is not callable"."""
    from paralign.errors import ConfigurationError, InputTypeError

    pairs = [(["a", "cat", "sat"], ["a", "dog", "sat"])]
    by_name = similarity_many(pairs, aligner="exact")
    assert by_name == similarity_many(pairs, aligner=exact_match_aligner)
    from paralign.aligners import get_aligner

    preset = similarity(*pairs[0], aligner=get_aligner("sultan", "paraphrase"))
    assert similarity(*pairs[0], aligner="sultan:paraphrase") == preset
    with pytest.raises(ConfigurationError, match="unknown aligner 'nosuch'"):
        similarity_many(pairs, aligner="nosuch")
    with pytest.raises(ConfigurationError, match="unknown aligner preset 'nosuch'"):
        similarity_many(pairs, aligner="sultan:nosuch")
    with pytest.raises(InputTypeError, match="aligner must be an alignment function .get_aligner, an Aligner. or a name, not int"):
        similarity_many(pairs, aligner=3)
