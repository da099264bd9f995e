"""Similarity signals: properties of every lexical signal, IDF-weighted ones included (range,
symmetry, identical sentences at the maximum), and of the Sultan aligner's scores on parsed text.

test_similarity.py and test_signals.py hold these for the unweighted signals on hand-made links."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.aligners.exact import exact_match_aligner
from paralign.alignment import AlignedSentences, Alignment
from paralign.sentence import Sentence
from paralign.similarity import fit_signal, similarity

WORDS = st.sampled_from(["the", "a", "cat", "Cat", "dog", "sat", "ran", "on", "mat", "of", "quickly", "Paris",
                         "2014", "1,000", "n't", ".", ",", "...", "?!"])
SENTENCES = st.lists(WORDS, min_size=1, max_size=9)
LEXICAL = ("sultan2014", "sultan2015", "mean-proportion", "all-words", "numbers", "idf", "idf2015")
TRAINING = st.lists(SENTENCES.map(Sentence.plain), max_size=6)


@st.composite
def aligned_pairs(draw):
    s, t = draw(SENTENCES), draw(SENTENCES)
    links = draw(st.sets(st.tuples(st.integers(0, len(s) - 1), st.integers(0, len(t) - 1)), max_size=10))
    return AlignedSentences(Sentence.plain(s), Sentence.plain(t), Alignment.from_links(links))


@settings(max_examples=150, deadline=None)
@given(aligned_pairs(), st.sampled_from(LEXICAL), TRAINING)
def test_every_lexical_signal_is_in_range_and_symmetric(pair, name, training):
    signal = fit_signal(name, [*training, pair.source])
    score = signal(pair)
    assert 0.0 <= score <= 1.0
    swapped = AlignedSentences(pair.target, pair.source, pair.alignment.transpose())
    assert signal(swapped) == pytest.approx(score)


@settings(max_examples=150, deadline=None)
@given(SENTENCES, st.sampled_from(LEXICAL), TRAINING)
def test_identical_sentences_score_the_maximum_under_every_lexical_signal(tokens, name, training):
    sentence = Sentence.plain(tokens)
    signal = fit_signal(name, training)
    assert signal(AlignedSentences(sentence, sentence, exact_match_aligner(sentence, sentence))) == pytest.approx(1.0)


SPACY_TEXT = st.lists(st.sampled_from(["The", "senator", "sponsored", "drafted", "the", "bill", "a", "law",
                                       "yesterday", "in", "Paris", "3", "cats", "."]), min_size=1, max_size=8
                      ).map(" ".join)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(SPACY_TEXT, SPACY_TEXT)
def test_the_sultan_aligner_scores_identical_sentences_one_and_any_pair_in_range(nlp_annotator, a, b):
    assert similarity(a, a, annotator=nlp_annotator) == pytest.approx(1.0)
    assert 0.0 <= similarity(a, b, annotator=nlp_annotator) <= 1.0
