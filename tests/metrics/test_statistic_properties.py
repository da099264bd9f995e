"""Baselines and meta-evaluation statistics: properties against sacrebleu and scipy on random
input (punctuation-only, empty and mixed-case segments, 1-3 references; tied scores), and the
invariances and repeatability of the correlations and their bootstrap.

test_bleu_steps.py compares BLEU and chrF over a small lower-case vocabulary and
test_correlation.py the coefficients over tied points; these add TER, the steps without
smoothing, other texts, and what must not change a correlation."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF, TER
from scipy import stats as sps

from paralign.metrics.bleu_steps import BASELINES
from paralign.metrics.correlation import (
    CORRELATIONS,
    bootstrap_correlations,
    correlation,
    paired_test,
    resample_counts,
    row_correlations,
)
from paralign.metrics.significance import confidence, corpus_score, correlation_interval

TOKENS = st.sampled_from(["The", "cat", "sat", "on", "mat", "dog's", "1,000", "U.S.", "--", "...", "!", "?",
                          ",", "(", ")", "\"", "naïve", "e-mail", "", "  "])
SEGMENT = st.lists(TOKENS, max_size=8).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3).flatmap(lambda k: st.lists(st.lists(SEGMENT, min_size=k + 1, max_size=k + 1),
                                                    min_size=1, max_size=5)))
def test_baselines_equal_sacrebleu_on_any_text(rows):
    hyps = [row[0] for row in rows]
    refs = [list(stream) for stream in zip(*(row[1:] for row in rows), strict=True)]
    found = {name: corpus_score(BASELINES[name].stats(hyps, refs), BASELINES[name].score)
             for name in ("bleu", "chrf", "ter", "mup", "gm_bp")}
    assert found["bleu"] == pytest.approx(BLEU().corpus_score(hyps, refs).score, abs=1e-9)
    assert found["chrf"] == pytest.approx(CHRF().corpus_score(hyps, refs).score, abs=1e-9)
    assert found["ter"] == pytest.approx(-TER().corpus_score(hyps, refs).score, abs=1e-9)
    plain = BLEU(smooth_method="none").corpus_score(hyps, refs)
    assert found["gm_bp"] * 100 == pytest.approx(plain.score, abs=1e-9)  # BLEU without smoothing
    if plain.sys_len:
        assert found["mup"] * 100 == pytest.approx(plain.precisions[0], abs=1e-9)
    ter = BASELINES["ter"]
    segments = ter.score(ter.stats(hyps, refs))
    for i, hyp in enumerate(hyps):
        assert segments[i] == pytest.approx(-TER().sentence_score(hyp, [r[i] for r in refs]).score, abs=1e-9)


SCORES = st.lists(st.sampled_from([0.0, 0.1, 0.3, 0.3, 1.0, 2.5, 7.5]), min_size=3, max_size=9)


def _monotone(values: list[float]) -> list[float]:
    """A strictly increasing, far from affine map of the scores."""
    return [math.exp(3 * v) - v ** 3 for v in values]


@settings(max_examples=150, deadline=None)
@given(SCORES, SCORES.map(lambda v: v[::-1]), st.floats(0.01, 100), st.floats(-50, 50))
def test_rank_correlations_ignore_monotone_maps_and_pearson_ignores_affine_ones(x, y, scale, shift):
    n = min(len(x), len(y))
    x, y = x[:n], y[:n]
    if n < 3:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kind in ("spearman", "kendall"):
            assert correlation(kind, _monotone(x), y) == pytest.approx(correlation(kind, x, y), nan_ok=True, abs=1e-12)
        kendall = correlation("kendall", x, y)
        assert kendall == pytest.approx(sps.kendalltau(x, y, variant="b")[0], nan_ok=True, abs=1e-12)
        pearson = correlation("pearson", [scale * v + shift for v in x], y)
        assert pearson == pytest.approx(correlation("pearson", x, y), nan_ok=True, abs=1e-9)
        for kind in CORRELATIONS:  # a negated side negates every coefficient
            assert correlation(kind, [-v for v in x], y) == pytest.approx(-correlation(kind, x, y), nan_ok=True, abs=1e-12)
        rows = row_correlations("kendall", np.array([_monotone(x), x]), y)
        assert rows[0] == pytest.approx(rows[1], nan_ok=True, abs=1e-12)


def _systems(data, n_systems: int, n_segments: int) -> dict[str, np.ndarray]:
    """BLEU statistics of random systems over the same references (sacrebleu's own)."""
    from paralign.metrics.bleu_steps import bleu_statistics

    refs = data.draw(st.lists(SEGMENT, min_size=n_segments, max_size=n_segments))
    return {f"s{k}": bleu_statistics(data.draw(st.lists(SEGMENT, min_size=n_segments, max_size=n_segments)), [refs])
            for k in range(n_systems)}


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 5), st.integers(2, 6), st.data())
def test_a_metric_bootstrap_repeats_with_its_seed_and_against_itself_is_no_better(n_systems, n_segments, data):
    stats = _systems(data, n_systems, n_segments)
    human = {name: data.draw(st.floats(0, 1)) for name in stats}
    counts = resample_counts(n_segments, 100, seed=7)
    score = BASELINES["bleu"].score
    first = bootstrap_correlations(stats, score, human, counts, "bleu")
    again = bootstrap_correlations(stats, score, human, resample_counts(n_segments, 100, seed=7), "bleu")
    assert first.to_dict() == again.to_dict()
    for kind in CORRELATIONS:
        assert np.array_equal(first.samples[kind], again.samples[kind], equal_nan=True)
        self_test = paired_test(first.correlations[kind].value, first.correlations[kind].value,
                                first.samples[kind], first.samples[kind])
        if first.reason is None:  # defined (not a constant side, as ties of 0 BLEU make)
            assert self_test.delta.value == 0.0 and self_test.p_value == 1.0
        else:
            assert math.isnan(self_test.delta.value) and math.isnan(self_test.p_value)
    one = stats["s0"]
    assert confidence(one, score, n_resamples=50, seed=3) == confidence(one, score, n_resamples=50, seed=3)
    assert confidence(one, score, n_resamples=50, seed=3).score == pytest.approx(float(score(one.sum(axis=0))))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-5, 5), st.floats(-5, 5)), min_size=3, max_size=12), st.sampled_from(["pearson", "spearman"]))
def test_a_correlation_interval_repeats_with_its_seed_and_holds_scipys_value(points, kind):
    x, y = [p[0] for p in points], [p[1] for p in points]
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return
    found = correlation_interval([(x, y)], kind, n_resamples=60, seed=11)
    assert found == correlation_interval([(x, y)], kind, n_resamples=60, seed=11)
    expected = (sps.pearsonr if kind == "pearson" else sps.spearmanr)(x, y)[0]
    assert found.value == pytest.approx(expected, abs=1e-9)
    assert -1.0 <= found.low <= found.high <= 1.0
