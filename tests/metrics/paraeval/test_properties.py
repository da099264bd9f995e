"""ParaEval: properties of every config a researcher relies on (a hypothesis equal to its
reference, direction, an unmatched word, white space, the order of references, repeat runs).

test_paper.py, test_graded.py and test_graded_edges.py hold the paper's examples, the bounds
and the alignment against a brute-force reading."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.metrics.paraeval import ParaEval
from paralign.metrics.paraeval.configs import CONFIGS, Config
from paralign.metrics.paraeval.graded import GradedParaEval, score_parts
from paralign.metrics.paraeval.scoring import system_scores
from paralign.paraphrases import ParaphraseTable

WORDS = ("the", "a", "cat", "cats", "dog", "hound", "big", "large", "sat", "sits", "on", "mat", ".", ",")
TEXT = st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join)
WORDY = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join)
TABLE = ParaphraseTable.from_pairs([("dog", "hound", 0.9), ("big", "large", 0.7), ("big dog", "hound", 0.5),
                                    ("sat on", "sits", 1.0)], "t")
LEXICAL = Config("lexical", tiers=("exact", "stem"), resources=())
UNSEEN = "zyzzyva"  # in no table and no reference


class _Encoded:
    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = matrix


class _HashEncoder:
    """Contextual vectors from a hash of each word (no model): the same word, the same vector,
    two words far apart (random in 256 dimensions: cosines near 0, below any threshold)."""

    model = "hash"

    def encode(self, sentences):
        return [_Encoded(np.stack([np.random.default_rng(zlib.crc32(w.encode())).normal(size=256) for w in s]))
                for s in sentences]


def _scorers():
    out = {"paper": ParaEval([TABLE])}
    for name, config in CONFIGS.items():
        if config.scorer == "graded":
            encoder = _HashEncoder() if "contextual" in config.tiers else None
            out[name] = GradedParaEval(config, [TABLE], encoder, cache_vectors=False)
    out["lexical"] = GradedParaEval(LEXICAL, [])
    return out


SCORERS = _scorers()


def _figures(name: str, hypothesis: str, references: list[str]) -> dict:
    """One segment's figures as the command gives them (precision, recall, f; score if graded),
    at system level, with the segment level's in ``segments``."""
    return system_scores(SCORERS[name], [hypothesis], [[r] for r in references], sentence_level=True)


@settings(max_examples=40, deadline=None)
@given(WORDY, st.sampled_from(sorted(SCORERS)))
def test_a_hypothesis_equal_to_its_reference_scores_one_in_every_config(text, name):
    corpus = _figures(name, text, [text])
    for found in (corpus, corpus["segments"][0]):
        assert found["precision"] == pytest.approx(1.0) and found["recall"] == pytest.approx(1.0)
        assert found["f"] == pytest.approx(1.0)
        assert found.get("score", 1.0) == pytest.approx(1.0)


@settings(max_examples=40, deadline=None)
@given(TEXT, st.lists(TEXT, min_size=1, max_size=3), st.sampled_from(sorted(SCORERS)))
def test_scores_are_proportions_and_repeat_in_a_fresh_scorer(hypothesis, references, name):
    found = _figures(name, hypothesis, references)
    for key in ("precision", "recall", "f", "score"):
        assert found.get(key) is None or 0.0 <= found[key] <= 1.0 + 1e-9
    again = system_scores(_scorers()[name], [hypothesis], [[r] for r in references], sentence_level=True)
    assert again == found


@settings(max_examples=60, deadline=None)
@given(TEXT, TEXT, st.sampled_from(["paper-unigram", "lexical"]))
def test_precision_one_way_is_recall_the_other_way(hypothesis, reference, name):
    """Identity and stem matching are symmetric by construction (the paraphrase tier, greedy
    from the hypothesis, and the synonym lookup are not): P(h, r) = R(r, h)."""
    if name == "paper-unigram":
        scorer = ParaEval([])
        there, back = scorer.sentence_score(hypothesis, [reference]), scorer.sentence_score(reference, [hypothesis])
        assert there.precision == pytest.approx(back.recall or 0.0)
        return
    there = score_parts(SCORERS[name].segment_stats([hypothesis], [[reference]])[0], LEXICAL)
    back = score_parts(SCORERS[name].segment_stats([reference], [[hypothesis]])[0], LEXICAL)
    # an empty side's recall is n/a (NaN), as the paper's is None, where the precision is 0
    assert float(there["p"]) == pytest.approx(float(np.nan_to_num(back["r"])))
    assert float(np.nan_to_num(there["r"])) == pytest.approx(float(back["p"]))


def _unmatched_word_changes(before: dict, after: dict) -> None:
    """Precision falls (stays 0 from 0), recall stays, at corpus and segment level."""
    for old, new in ((before, after), (before["segments"][0], after["segments"][0])):
        assert new["precision"] < old["precision"] or new["precision"] == old["precision"] == 0
        assert new["recall"] == pytest.approx(old["recall"], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(WORDY, WORDY, st.sampled_from(sorted(SCORERS)), st.booleans())
def test_an_unmatched_word_lowers_precision_and_leaves_recall(hypothesis, reference, name, at_end):
    """Against one reference, a word no tier can match, before or after the hypothesis. Not
    inside it: it would part a phrase the paraphrase tier matched ("sat on" / "sits"). Nor
    with several references: a segment takes the one that scores best, and the word may
    change which (the contextual config's precision of "the a the" against "the" and "the the
    cat" rises from 0.33 to 0.41 as the longer reference becomes the best)."""
    words = hypothesis.split()
    words.insert(len(words) if at_end else 0, UNSEEN)
    _unmatched_word_changes(_figures(name, hypothesis, [reference]), _figures(name, " ".join(words), [reference]))


SPACES = st.sampled_from([" ", "  ", "\t", " \t "])


@settings(max_examples=40, deadline=None)
@given(WORDY, st.lists(WORDY, min_size=1, max_size=3), st.sampled_from(sorted(SCORERS)), st.data())
def test_white_space_and_the_order_of_references_change_nothing(hypothesis, references, name, data):
    found = _figures(name, hypothesis, references)
    spaced = data.draw(SPACES) + data.draw(SPACES).join(hypothesis.split()) + data.draw(SPACES)
    reordered = data.draw(st.permutations(references))
    assert _figures(name, spaced, reordered) == found


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT, TEXT, TEXT), min_size=1, max_size=4), st.sampled_from(sorted(SCORERS)))
def test_a_segment_scores_in_a_batch_as_alone_and_again_after_another_system(rows, name):
    """The scorers keep prepared references and rows between calls: neither the other segments
    nor a system scored in between changes a segment's figures."""
    refs = [[r[1] for r in rows], [r[2] for r in rows]]
    first = system_scores(SCORERS[name], [r[0] for r in rows], refs, sentence_level=True)
    system_scores(SCORERS[name], [r[3] for r in rows], refs, sentence_level=True)
    assert system_scores(SCORERS[name], [r[0] for r in rows], refs, sentence_level=True) == first
    for row, found in zip(rows, first["segments"], strict=True):
        alone = system_scores(_scorers()[name], [row[0]], [[row[1]], [row[2]]], sentence_level=True)
        assert {**alone["segments"][0], "segment": found["segment"]} == found


# -- the configs as the command builds them (PPDB and WordNet) ---------------------------------
REAL_WORDS = ("the", "a", "car", "automobile", "big", "large", "man", "bought", "purchased", "buys",
              "quickly", "fast", "ran", "runs", "house", "home", "in", "of", ".")
REAL_TEXT = st.lists(st.sampled_from(REAL_WORDS), min_size=1, max_size=7).map(" ".join)


@pytest.fixture(scope="module")
def real_scorers(data):
    from paralign.metrics.paraeval.paper import build_sources

    sources = build_sources(["ppdb", "wordnet"])
    out: dict = {"paper": ParaEval(sources)}
    for name, config in CONFIGS.items():
        if config.scorer == "graded":
            encoder = _HashEncoder() if "contextual" in config.tiers else None
            out[name] = GradedParaEval(config, sources, encoder, cache_vectors=False)
    return out


@pytest.mark.data
@settings(max_examples=25, deadline=None)
@given(REAL_TEXT, st.lists(REAL_TEXT, min_size=1, max_size=3), st.sampled_from(sorted(CONFIGS)),
       st.booleans(), st.data())
def test_the_properties_hold_with_ppdb_and_wordnet(real_scorers, hypothesis, references, name, at_end, data):
    item = real_scorers[name]

    def figures(hyp: str, refs: list[str]) -> dict:
        return system_scores(item, [hyp], [[r] for r in refs], sentence_level=True)

    same = figures(hypothesis, [hypothesis])
    assert (same["precision"], same["recall"], same.get("score", 1.0)) == pytest.approx((1.0, 1.0, 1.0))
    found = figures(hypothesis, references)
    spaced = data.draw(SPACES).join(hypothesis.split()) + data.draw(SPACES)
    assert figures(spaced, data.draw(st.permutations(references))) == found
    words = hypothesis.split()
    words.insert(len(words) if at_end else 0, UNSEEN)
    _unmatched_word_changes(figures(hypothesis, references[:1]), figures(" ".join(words), references[:1]))
