"""similarity.scores: an empty sentence has no similarity, as on the command line (API audit W5)."""

from __future__ import annotations

import pytest

from paralign.aligners.exact import exact_match_aligner
from paralign.errors import SimilarityError
from paralign.similarity.scores import similarity, similarity_many


@pytest.mark.parametrize(("a", "b"), [("", ""), ("a cat", ""), ("  ", "a cat"), ([], ["cat"])])
def test_similarity_of_an_empty_sentence_is_an_error_not_zero(a, b) -> None:
    """`paralign similarity` prints NA and warns 'empty sentence'; the library gave 0.0."""
    with pytest.raises(SimilarityError, match=r"pair could not be scored: empty (first|second|first and second) sentence"):
        similarity(a, b, aligner=exact_match_aligner)


def test_similarity_many_keeps_the_empty_pairs_in_place_as_failures() -> None:
    batch = similarity_many([(["a", "cat"], ["a", "cat"]), (["a", "cat"], [])], aligner=exact_match_aligner)
    assert batch.scores == (1.0, None)
    assert [(f.index, f.error) for f in batch.failures] == [(1, "empty second sentence")]


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


def test_similarity_over_the_exact_aligner_parses_nothing_where_the_signal_reads_tokens(spacy_calls) -> None:
    """sultan2014 and the other unweighted proportions read tokens alone, as the exact aligner
    does: the pairs are tokenised, not parsed (similarity and evaluate-sts --aligner exact parsed
    every sentence, about 70% of their time on STS 2013), with the scores a parse gives; token
    lists sign no spaCy model. An IDF signal reads lemmas: its pairs are still parsed."""
    from paralign._version import __version__
    from paralign.nlp import annotate
    from paralign.similarity.signals import fit_signal

    texts = [("The cats didn't sleep on 3 mats.", "the cat did not sleep on three mats"),
             ("A man is playing a flute.", "A man plays the flute!")]
    lists = [(["A", "cat", "sat", "on", "1", "mat"], ["a", "cat", "sat"])]
    parsed = [(annotate(a), annotate(b)) for a, b in texts]  # Sentences pass through: as before
    for signal in ("sultan2014", "sultan2015", "numbers", "all-words", "mean-proportion"):
        calls = dict(spacy_calls)
        batch = similarity_many(texts + lists, signal=signal, aligner="exact")
        assert (spacy_calls["pipe"], spacy_calls["tokenize"]) == (calls["pipe"], calls["tokenize"] + 1), signal
        assert batch.scores == similarity_many(parsed + lists, signal=signal, aligner="exact").scores, signal
        assert batch.signature is not None and "|spacy:" in batch.signature  # spaCy's tokenizer read the texts
    alone = similarity_many(lists, aligner="exact")
    assert alone.signature == f"signal:sultan2014|aligner:exact|tok:none|version:{__version__}"  # its own tokens
    idf = fit_signal("idf", [annotate(a) for a, _ in texts])
    calls = spacy_calls["pipe"]
    weighted = similarity_many(lists, signal=idf, aligner="exact")
    assert spacy_calls["pipe"] == calls + 1 and weighted.signature is not None and "|spacy:" in weighted.signature


def test_a_batch_signs_the_tokens_its_pairs_were_given() -> None:
    """similarity_many over token lists scores the caller's tokens, not spaCy's, and signs
    them as align_pairs signs each pair (tok:none; none/spacy for one side's; mixed where the
    batch's pairs differ); a batch of texts signs as before."""
    from paralign.similarity import similarity_many

    lists, texts = (["A", "cat", "sat"], ["A", "cat"]), ("A cat sat.", "A cat.")
    tok = [dict(p.split(":", 1) for p in similarity_many(pairs, aligner="exact").signature.split("|")).get("tok")
           for pairs in ([lists], [(lists[0], texts[1])], [texts], [lists, texts])]
    assert tok == ["none", "none/spacy", None, "mixed"]
