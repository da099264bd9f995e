"""BLEU steps (MUP, GM, GM x BP) and vectorised BLEU/chrF against sacrebleu."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF

from paralign.errors import ConfigurationError, InputTypeError, MismatchError
from paralign.metrics.bleu_steps import (
    BASELINES,
    baseline,
    bleu_from_stats,
    bleu_statistics,
    brevity_penalty,
    check_lengths,
    geometric_mean,
    modified_unigram_precision,
    sentence_bleu_from_stats,
)
from paralign.metrics.significance import corpus_score

WORDS = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog", "."])
SENT = st.lists(WORDS, max_size=10).map(" ".join)


def test_papineni_figure1_mup_is_2_of_7():
    stats = bleu_statistics(["the the the the the the the"],
                            [["the cat is on the mat"], ["there is a cat on the mat"]])
    assert float(modified_unigram_precision(stats.sum(axis=0))) == pytest.approx(2 / 7)


def test_brevity_penalty_cases():
    # [sys_len, ref_len, ...]
    stats = np.array([[10, 8] + [1] * 8, [8, 10] + [1] * 8, [0, 5] + [0] * 8], dtype=float)
    bp = brevity_penalty(stats)
    assert bp[0] == 1.0
    assert bp[1] == pytest.approx(math.exp(1 - 10 / 8))
    assert bp[2] == 0.0


def test_gm_times_bp_is_unsmoothed_bleu():
    hyps = ["the cat sat on the mat today", "a dog sat on the mat"]
    refs = [["the cat sat on the mat", "the dog sat on a mat"]]
    sums = bleu_statistics(hyps, refs).sum(axis=0)
    expected = BLEU().corpus_score(hyps, refs).score / 100
    assert float(geometric_mean(sums) * brevity_penalty(sums)) == pytest.approx(expected)
    assert float(BASELINES["gm_bp"].score(sums)) == pytest.approx(expected)


@settings(max_examples=120, deadline=None)
@given(pairs=st.lists(st.tuples(SENT, SENT, SENT), min_size=1, max_size=6))
def test_vectorised_bleu_and_chrf_equal_sacrebleu(pairs):
    hyps = [p[0] for p in pairs]
    refs = [[p[1] for p in pairs], [p[2] for p in pairs]]
    sums = bleu_statistics(hyps, refs).sum(axis=0)
    assert float(bleu_from_stats(sums)) == pytest.approx(BLEU().corpus_score(hyps, refs).score,
                                                         abs=1e-9)
    chrf = BASELINES["chrf"]
    assert float(chrf.score(chrf.stats(hyps, refs).sum(axis=0))) == pytest.approx(
        CHRF().corpus_score(hyps, refs).score, abs=1e-9)


def test_scores_vectorise_over_leading_axes():
    hyps = ["the cat sat", "a dog", "on the mat ."]
    refs = [["the cat sat down", "the dog", "on a mat ."]]
    stats = bleu_statistics(hyps, refs)
    for name in ("bleu", "mup", "gm", "gm_bp"):
        metric = BASELINES[name]
        rows = metric.score(stats)
        assert rows.shape == (3,)
        for i in range(3):
            assert rows[i] == pytest.approx(float(metric.score(stats[i])))


def test_corpus_scores_and_errors():
    hyps, refs = ["the cat sat on the mat"], [["the cat sat on the mat"]]
    scores = {name: corpus_score(BASELINES[name].stats(hyps, refs), BASELINES[name].score)
              for name in ("bleu", "chrf", "mup", "gm", "gm_bp")}
    assert scores["bleu"] == pytest.approx(100.0)
    assert scores["mup"] == scores["gm"] == scores["gm_bp"] == pytest.approx(1.0)
    assert scores["chrf"] == pytest.approx(100.0)
    with pytest.raises(MismatchError, match="reference stream 1 has 2 segments"):
        check_lengths(["a"], [["a", "b"]])
    with pytest.raises(ConfigurationError):
        baseline("meteor")


@settings(max_examples=60)
@given(st.lists(st.tuples(SENT, SENT, SENT), min_size=1, max_size=6))
def test_segment_scores_are_sacrebleus_sentence_scores(rows):
    """Segment BLEU = sacrebleu.sentence_bleu (effective order); chrF = CHRF().sentence_score."""
    hyps = [h for h, _, _ in rows]
    refs = [[a for _, a, _ in rows], [b for _, _, b in rows]]
    bleu, chrf = BASELINES["bleu"], BASELINES["chrf"]
    effective = BLEU(effective_order=True)
    got = sentence_bleu_from_stats(bleu.stats(hyps, refs))
    assert np.allclose(bleu.segment_score(bleu.stats(hyps, refs)), got)
    chrf_got = chrf.score(chrf.stats(hyps, refs))
    for i, (h, a, b) in enumerate(rows):
        assert got[i] == pytest.approx(effective.sentence_score(h, [a, b]).score, abs=1e-9)
        assert chrf_got[i] == pytest.approx(CHRF().sentence_score(h, [a, b]).score, abs=1e-9)
    assert not hasattr(chrf, "segment_score")


def test_one_str_where_a_list_is_expected_is_named_not_read_as_characters():
    """References given as one stream (a list of str, not [stream]) were read as streams of
    characters: ["x"] scored "x" against the reference "x" (chrF 100), ["the cat"] was a stream
    of 7 segments, and a hypothesis str was its characters, a count mismatch. Named as the
    ParaEval scorers name it (InputTypeError)."""
    with pytest.raises(InputTypeError, match=r"list of reference streams.*wrap one stream as \[refs\]"):
        BASELINES["chrf"].stats(["x"], ["x"])  # type: ignore[list-item]
    with pytest.raises(InputTypeError, match="list of reference streams"):
        BASELINES["ter"].stats(["the cat"], "the cat")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="hypotheses"):
        BASELINES["bleu"].stats("the cat", [["the cat"]])
    with pytest.raises(InputTypeError, match="reference stream 1: item 2 is NoneType"):
        BASELINES["chrf"].stats(["a", "b"], [["a", None]])  # type: ignore[list-item]
    chrf = BASELINES["chrf"]
    assert corpus_score(chrf.stats(("the cat",), [("the cat",)]), chrf.score) == pytest.approx(100.0)  # tuples are lists


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_references_are_read_once_for_many_systems(name, monkeypatch):
    """The statistics of many systems against the same references read (tokenise, count) the
    references once, as sacrebleu's `references=` does: each system read them again, most of
    the time of `meta-eval` on BLEU and chrF (19 WMT21 de-en systems against refs A and B, BLEU's
    statistics: 10.5 s; read once: 2.0 s). The statistics are sacrebleu's either way."""
    from sacrebleu.metrics.base import Metric

    from paralign.metrics.bleu_steps import baseline

    refs = [["the cat sat on the mat", "a dog ran home"], ["the cat was on the mat", "dogs ran home"]]
    systems = [["the cat sat", "a dog ran"], ["cat on mat", "the dog ran home"], ["a mat", "home"]]
    metric = baseline(name)
    alone = [metric.stats(hyps, refs) for hyps in systems]
    calls: list[int] = []
    real = Metric._cache_references

    def counted(self, references):
        calls.append(len(references))
        return real(self, references)

    monkeypatch.setattr(Metric, "_cache_references", counted)
    fresh = [["x " + r for r in stream] for stream in refs]  # not read before
    found = [metric.stats(hyps, fresh) for hyps in systems]
    assert len(calls) <= 1
    again = [metric.stats(hyps, refs) for hyps in systems]
    assert all(np.array_equal(a, b) for a, b in zip(alone, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(alone, found, strict=True))
