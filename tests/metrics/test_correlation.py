"""Correlations, bootstrap intervals and the paired test."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from paralign.errors import ConfigurationError, MismatchError
from paralign.metrics.correlation import (
    CORRELATIONS,
    bootstrap_correlations,
    correlation,
    interval,
    meta_evaluate,
    paired_test,
    resample_counts,
    row_correlations,
    with_tests,
)


def test_correlations_match_scipy():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=9), rng.normal(size=9)
    assert correlation("pearson", x, y) == pytest.approx(sps.pearsonr(x, y)[0])
    assert correlation("spearman", x, y) == pytest.approx(sps.spearmanr(x, y)[0])
    assert correlation("kendall", x, y) == pytest.approx(sps.kendalltau(x, y)[0])
    assert np.isnan(correlation("pearson", [1, 1, 1], [1, 2, 3]))
    with pytest.raises(MismatchError):
        correlation("pearson", [1, 2], [1, 2])
    with pytest.raises(ConfigurationError):
        correlation("cosine", x, y)


def test_an_unknown_correlation_is_refused_whatever_the_scores():
    """A misspelt name over constant scores was NaN (the constant test came first), and over 2
    systems a count error: the name is what is wrong."""
    for x in ([1.0, 1.0, 1.0], [1.0, 2.0]):
        with pytest.raises(ConfigurationError, match="unknown correlation 'kendal'; choose from pearson"):
            correlation("kendal", x, [1.0, 2.0, 3.0][:len(x)])


def test_row_correlations_match_scipy_row_by_row():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(20, 7)), rng.normal(size=7)
    x[3] = x[3, 0]  # a constant row gives nan, not an error
    for kind in CORRELATIONS:
        rows = row_correlations(kind, x, y)
        for b in (0, 5, 19):
            assert rows[b] == pytest.approx(correlation(kind, x[b], y))
        assert np.isnan(rows[3])


def test_a_constant_resample_is_undefined_whatever_its_value():
    """Systems all scored 0.1 in a resample: their Pearson correlation is undefined, as
    :func:`correlation` says of the same scores, not 0 (centred on their mean,
    0.10000000000000002, they were a tiny constant, not 0)."""
    x, y = np.array([[0.1, 0.1, 0.1], [0.3, 0.3, 0.3], [0.1, 0.2, 0.4]]), [1.0, 2.0, 3.0]
    for kind in CORRELATIONS:
        rows = row_correlations(kind, x, y)
        assert np.isnan(rows[:2]).all() and np.isnan(correlation(kind, x[0], y))
        assert rows[2] == pytest.approx(correlation(kind, x[2], y))


def test_resample_counts_are_seeded_bootstraps():
    a, b = resample_counts(50, 200, seed=7), resample_counts(50, 200, seed=7)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, resample_counts(50, 200, seed=8))
    assert a.shape == (200, 50) and np.all(a.sum(axis=1) == 50)


def _toy(n_systems: int = 8, n_segments: int = 200, noise: float = 0.0, seed: int = 3):
    """Segment stats (matched, total) whose corpus ratio tracks a hidden quality."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(0.3, 0.8, n_systems)
    human = {f"s{i}": float(q) for i, q in enumerate(quality)}
    stats = {}
    for i, q in enumerate(quality):
        total = rng.integers(5, 30, size=n_segments).astype(float)
        p = np.clip(q + rng.normal(0, noise, size=n_segments), 0, 1)
        stats[f"s{i}"] = np.stack([rng.binomial(total.astype(int), p), total], axis=1)
    return stats, human


def ratio(sums: np.ndarray) -> np.ndarray:
    return sums[..., 0] / sums[..., 1]


def test_bootstrap_interval_brackets_a_good_metric():
    stats, human = _toy()
    counts = resample_counts(200, 300)
    result = bootstrap_correlations(stats, ratio, human, counts, name="good")
    for kind in CORRELATIONS:
        c = result.correlations[kind]
        assert c.low <= c.value + 1e-9 and c.value <= c.high + 1e-9
        assert c.value > 0.8
    assert result.scores["s0"] == pytest.approx(ratio(stats["s0"].sum(axis=0)))


def test_paired_test_prefers_the_better_metric():
    stats, human = _toy()
    noisy, _ = _toy(noise=0.6, seed=4)
    noisy = {k: v for k, v in zip(stats, noisy.values(), strict=True)}
    shuffled = dict(zip(stats, list(noisy.values())[::-1], strict=True))  # anti-correlated
    counts = resample_counts(200, 300)
    good = bootstrap_correlations(stats, ratio, human, counts, name="good")
    bad = bootstrap_correlations(shuffled, ratio, human, counts, name="bad")
    good = with_tests(good, [bad, good])
    assert set(good.tests) == {"bad"}
    test = good.tests["bad"]["pearson"]
    assert test.delta.value > 0 and test.p_value < 0.05
    same = paired_test(0.5, 0.5, good.samples["pearson"], good.samples["pearson"])
    assert same.delta.value == 0 and same.p_value == 1.0
    assert good.to_dict()["vs"]["bad"]["pearson"]["p_value"] == pytest.approx(test.p_value,
                                                                               abs=1e-4)


def test_interval_edge_cases_and_too_few_systems():
    nan = interval(0.3, np.array([np.nan, np.nan]))
    assert np.isnan(nan.low) and nan.to_dict()["low"] is None
    stats, human = _toy(n_systems=2)
    # raised 'need at least 3 systems', which stopped meta-eval and lost every other figure
    two = bootstrap_correlations(stats, ratio, human, resample_counts(200, 10))
    assert two.reason == "fewer than 3 systems to correlate (got 2): over 2 a correlation is +1 or -1 " \
                         "whatever the scores"
    assert len(two.scores) == 2 and all(np.isnan(two.samples[k]).all() for k in two.samples)
    assert two.to_dict()["pearson"] == {"value": None, "low": None, "high": None}
    assert two.to_dict()["reason"] == two.reason
    with pytest.raises(MismatchError, match="fewer than 3 systems"):
        correlation("pearson", [1.0, 2.0], [1.0, 2.0])


def test_resolve_metrics_names_what_is_wrong() -> None:
    """API audit (second pass): one str was read letter by letter ("unknown metric 'b'"), and the
    list of valid names left out the ParaEval ones."""
    from paralign.errors import ConfigurationError, InputTypeError
    from paralign.metrics.correlation import resolve_metrics

    with pytest.raises(InputTypeError, match=r"such as \['bleu'\], not one str"):
        resolve_metrics("bleu")
    with pytest.raises(ConfigurationError, match="unknown metric 'nosuch'; choose from paraeval, paraeval_score, "
                                                 "paraeval_p, paraeval_r, paraeval_f, bleu"):
        resolve_metrics(["bleu", "nosuch"])
    assert [m.name for m in resolve_metrics(iter(["bleu", "chrf"]))] == ["bleu", "chrf"]


def test_equal_correlations_are_a_tie_in_the_paired_test_whatever_the_rounding():
    """Two metrics ranking the systems with one adjacent swap each, at different places, have
    the same Spearman rho (the same sum of squared rank differences), computed as two floats a
    bit apart: the last bit made one of them "above" the other in every resample (p 0, where
    a tie is p 1: the metric is not above the baseline). So did BLEU and GM x BP (BLEU / 100)."""
    human = np.arange(8.0)
    ranks = [np.arange(8.0), np.arange(8.0)]
    ranks[0][[0, 1]], ranks[1][[1, 2]] = ranks[0][[1, 0]], ranks[1][[2, 1]]
    a, b = np.array([ranks[0]] * 20), np.array([ranks[1]] * 20)
    samples = [row_correlations("spearman", m, human) for m in (a, b)]
    values = [correlation("spearman", m[0], human) for m in (a, b)]
    for first, second in ((0, 1), (1, 0)):
        test = paired_test(values[first], values[second], samples[first], samples[second])
        assert test.p_value == 1.0
        assert test.delta.value == test.delta.low == test.delta.high == 0.0
    bleu = np.array([[24.6, 26.2, 28.3, 28.6, 28.9, 30.2, 31.1, 31.7]] * 20)
    bleu[::2] += np.linspace(0.0, 1.3, 8)  # resamples differ
    human = [-0.4, -0.1, 0.0, 0.05, 0.1, 0.3, 0.2, 0.5]
    gm_bp, bleu_r = row_correlations("pearson", bleu / 100, human), row_correlations("pearson", bleu, human)
    assert paired_test(0.9, 0.9, gm_bp, bleu_r).p_value == 1.0


def test_an_undefined_paired_test_is_null_in_json_not_nan():
    """A paired test whose correlations are undefined on every resample (a metric that scores
    every system alike, e.g. identical system outputs) has p = nan. Its to_dict gave NaN, which
    `meta-eval --format json` wrote as the bare word NaN: not JSON (strict parsers such as
    JavaScript's JSON.parse refuse the file). It is null now, as an undefined interval already is."""
    import json

    undefined = np.full(20, np.nan)
    test = paired_test(float("nan"), 0.5, undefined, np.linspace(0, 1, 20))
    assert np.isnan(test.p_value)
    assert test.to_dict() == {"value": None, "low": None, "high": None, "p_value": None}
    json.dumps(test.to_dict(), allow_nan=False)  # strict JSON


def test_an_undefined_system_score_is_null_in_json_not_nan():
    """A system whose corpus score is undefined (the paper ParaEval's F when none of its
    references has a word: NaN) is null in the metric's "scores", as its undefined
    correlations are; round(nan, 6) wrote the bare word NaN, which strict JSON parsers refuse."""
    import json

    stats = {s: np.array([[k + 1.0, 2.0]] * 4) for k, s in enumerate("abcd")}
    stats["d"][:, 1] = 0.0  # nothing to divide by: an undefined score

    def ratio(sums: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(sums[..., 1] > 0, sums[..., 0] / sums[..., 1], np.nan)

    result = bootstrap_correlations(stats, ratio, dict(zip("abcd", [0.1, 0.2, 0.4, 0.3], strict=True)),
                                    resample_counts(4, 30))
    assert result.to_dict()["scores"] == {"a": 0.5, "b": 1.0, "c": 1.5, "d": None}
    json.dumps(result.to_dict(), allow_nan=False)  # strict JSON


def test_resample_counts_larger_than_any_array_is_a_memory_error() -> None:
    """numpy's ValueError ("array is too big") for `--resamples 9223372036854775807` was a
    traceback in meta-eval; it is a MemoryError (the CLI's one "out of memory" line)."""
    with pytest.raises(MemoryError, match=f"{sys.maxsize} resamples of 3 items"):
        resample_counts(3, sys.maxsize)


def test_resolve_metrics_refuses_what_is_not_a_scorer() -> None:
    """A config name given for the scorer (``resolve_metrics(["paraeval"], "paper")``) was taken
    for a paper scorer: an AttributeError ('str' object has no attribute 'prepare_cached') once
    the metric scored a system. It is an InputTypeError naming what it should be, at once."""
    from paralign.errors import InputTypeError
    from paralign.metrics.correlation import resolve_metrics

    for wrong in ("paper", 5):
        with pytest.raises(InputTypeError, match=r"paraeval_scorer must be a ParaEval scorer.* not (str 'paper'|int 5)"):
            resolve_metrics(["paraeval"], wrong)
    assert [m.name for m in resolve_metrics(["bleu"])] == ["bleu"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.1, 0.3, 1.0, 7.5]), st.sampled_from([-1.0, 0.0, 0.2, 2.0])),
                min_size=3, max_size=9))
def test_correlations_are_scipys_with_ties_and_undefined_where_a_side_is_constant(points):
    """Scores with many ties (0.1: its mean does not round back to it): every correlation, and
    its resampled row, is scipy's (pearsonr, spearmanr, kendalltau tau-b), NaN where one side
    is constant."""
    x, y = [p[0] for p in points], [p[1] for p in points]
    constant = np.ptp(x) == 0 or np.ptp(y) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns on a constant input
        expected = {"pearson": np.nan if constant else sps.pearsonr(x, y)[0],
                    "spearman": np.nan if constant else sps.spearmanr(x, y)[0],
                    "kendall": np.nan if constant else sps.kendalltau(x, y)[0]}
    for kind in CORRELATIONS:
        assert correlation(kind, x, y) == pytest.approx(expected[kind], nan_ok=True, abs=1e-12)
        assert row_correlations(kind, np.array([x]), y)[0] == pytest.approx(expected[kind], nan_ok=True, abs=1e-12)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_score_that_is_no_finite_number_is_refused_by_name(bad: float) -> None:
    """A NaN or infinite metric or human score reached scipy: Pearson NaN after a RuntimeWarning
    (an infinity), Spearman and Kendall a number (an infinity ranked as the largest score).
    Each kind refuses it, naming the score (1-based), as STS's correlations do."""
    from paralign.errors import FormatError

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for kind in CORRELATIONS:
            with pytest.raises(FormatError, match=r"metric score 3 is -?(nan|inf), not a finite number"):
                correlation(kind, [1.0, 2.0, bad, 4.0], [1.0, 3.0, 2.0, 5.0])
            with pytest.raises(FormatError, match=r"human score 2 is -?(nan|inf)"):
                correlation(kind, [1.0, 2.0, 3.0, 4.0], [1.0, bad, 2.0, 5.0])
            with pytest.raises(FormatError, match=r"human score 1 is -?(nan|inf)"):
                row_correlations(kind, np.array([[1.0, 2.0, 3.0]]), [bad, 1.0, 2.0])


def _ratio(sums: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sums[..., 1] > 0, sums[..., 0] / sums[..., 1], np.nan)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_meta_evaluation_refuses_a_human_score_that_is_no_finite_number(bad: float) -> None:
    """A human system score of inf gave a Pearson of NaN after scipy's RuntimeWarning, and
    Spearman and Kendall numbers; NaN made them NaN silently. FormatError naming the system."""
    from paralign.errors import FormatError

    stats = {s: np.array([[k + 1.0, 2.0]] * 4) for k, s in enumerate("abcd")}
    human = dict(zip("abcd", [0.1, 0.2, bad, 0.3], strict=True))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FormatError, match=r"the human score of system 'c' is (nan|inf), not a finite number"):
            bootstrap_correlations(stats, _ratio, human, resample_counts(4, 30), "m")


def test_meta_evaluation_refuses_an_infinite_system_score_and_says_why_a_nan_one_is_undefined() -> None:
    """A metric whose corpus score is inf for one system (no metric here gives one: a caller's)
    gave a Pearson of NaN after a RuntimeWarning: FormatError naming the metric and system. An
    undefined (NaN) score leaves the correlations undefined, as before, now with the reason."""
    from paralign.errors import FormatError

    human = dict(zip("abcd", [0.1, 0.2, 0.4, 0.3], strict=True))
    stats = {s: np.array([[k + 1.0, 2.0]] * 4) for k, s in enumerate("abcd")}

    def infinite(sums: np.ndarray) -> np.ndarray:
        return np.where(sums[..., 0] > 10, np.inf, sums[..., 0])

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FormatError, match=r"the m score of system 'c' is inf, not a finite number"):
            bootstrap_correlations(stats, infinite, human, resample_counts(4, 30), "m")
        stats["d"][:, 1] = 0.0
        result = bootstrap_correlations(stats, _ratio, human, resample_counts(4, 30), "m")
    assert result.reason == "the m score of system 'd' is undefined"
    assert all(np.isnan(result.correlations[kind].value) for kind in CORRELATIONS)


def test_meta_evaluate_refuses_a_files_scores_against_another_reference():
    """meta_evaluate (the system level alone, as a library user calls it) checks each given
    metric's reference as meta_evaluate_levels does: before, scores against ref B were
    correlated beside --refs A."""
    from paralign.metrics.given_scores import given_scores

    against_b = given_scores("m-refB.sys.score", "m", lines=["A 0.5", "B 0.25"])
    with pytest.raises(MismatchError, match=r"^m-refB.sys.score: scores against reference B .*, but --refs A: "):
        meta_evaluate(object(), ["A"], [against_b])
