"""metrics.significance: bootstrap confidence and the paired bootstrap test give sacrebleu's own
numbers for BLEU (same resamples, same statistic, same p-value), and behave as a test should."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from paralign.errors import ConfigurationError, MismatchError
from paralign.metrics.bleu_steps import baseline
from paralign.metrics.significance import (
    bootstrap_indices,
    confidence,
    correlation_interval,
    estimate_ci,
    paired_bootstrap,
    resampled_scores,
)

WORDS = ["the", "a", "cat", "dog", "sat", "ran", "on", "under", "mat", "rug", "quickly", "slowly", "home", "away", "big", "small"]


def _corpus(seed: int, n: int = 60, rates: tuple[float, float] = (0.15, 0.45)) -> tuple[list[str], list[str], list[str]]:
    """A reference, a close system and a noisier one (words replaced at `rates`): random word
    lists, reproducible."""
    rng = np.random.default_rng(seed)
    refs = [" ".join(rng.choice(WORDS, size=rng.integers(4, 12))) for _ in range(n)]

    def noisy(rate: float) -> list[str]:
        return [" ".join(w if rng.random() > rate else str(rng.choice(WORDS)) for w in ref.split()) for ref in refs]

    return refs, noisy(rates[0]), noisy(rates[1])


@pytest.mark.parametrize("rates", [(0.15, 0.45), (0.30, 0.33)])
def test_bleu_gives_sacrebleus_paired_bootstrap_figures(rates, monkeypatch) -> None:
    """sacrebleu 2's PairedTest (bs, 1000 resamples, its seed 12345) on the same three files: the
    system's score, p-value, bootstrap mean and half-width are ours, for a clearly better system
    and for a close one (p about .25)."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)  # sacrebleu's default seed, 12345
    refs, good, bad = _corpus(1, rates=rates)
    test = PairedTest([("baseline", bad), ("system", good)], {"BLEU": BLEU()}, [refs], test_type="bs",
                      n_samples=1000)
    _, results = test()
    theirs = results["BLEU"][1]
    bleu = baseline("bleu")
    ours = paired_bootstrap(bleu.stats(bad, [refs]), bleu.stats(good, [refs]), bleu.score, n_resamples=1000,
                            seed=12345)
    assert ours.score == pytest.approx(theirs.score, abs=1e-9)
    assert ours.p_value == pytest.approx(theirs.p_value, abs=1e-12)
    assert ours.confidence.mean == pytest.approx(theirs.mean, abs=1e-4)  # sacrebleu sums float32 statistics
    assert ours.confidence.ci == pytest.approx(theirs.ci, abs=1e-4)
    if rates == (0.15, 0.45):
        assert ours.p_value < 0.01 and ours.score > ours.baseline_score  # a clearly better system
    else:
        assert 0.1 < ours.p_value < 0.5  # not shown better


def test_a_system_against_itself_is_never_significant() -> None:
    """p = 1, where sacrebleu's strict count gives 1/(resamples + 1) (the module's one deviation)."""
    refs, good, _ = _corpus(2)
    bleu = baseline("bleu")
    stats = bleu.stats(good, [refs])
    same = paired_bootstrap(stats, stats, bleu.score, n_resamples=200)
    assert same.p_value == pytest.approx(1.0) and same.score == same.baseline_score


def test_confidence_brackets_the_score_and_shrinks_with_more_segments() -> None:
    bleu = baseline("bleu")
    refs, good, _ = _corpus(3, n=40)
    small = confidence(bleu.stats(good, [refs]), bleu.score, n_resamples=400)
    refs, good, _ = _corpus(3, n=400)
    large = confidence(bleu.stats(good, [refs]), bleu.score, n_resamples=400)
    for result in (small, large):
        assert abs(result.mean - result.score) < result.ci and result.ci > 0
    assert large.ci < small.ci
    assert small.to_dict()["resamples"] == 400 and small.to_dict()["seed"] == 12345


def test_the_same_seed_gives_the_same_numbers_and_another_seed_other_ones() -> None:
    bleu = baseline("bleu")
    refs, good, _ = _corpus(4)
    stats = bleu.stats(good, [refs])
    assert confidence(stats, bleu.score, seed=7) == confidence(stats, bleu.score, seed=7)
    assert confidence(stats, bleu.score, seed=7).ci != confidence(stats, bleu.score, seed=8).ci


def test_resampled_scores_are_the_score_of_each_resamples_sum_in_any_block_size(monkeypatch) -> None:
    import paralign.metrics.significance as significance

    stats = np.arange(24, dtype=float).reshape(6, 4)
    indices = bootstrap_indices(6, 9, seed=3)
    want = [float(stats[row].sum(axis=0)[1] / stats[row].sum(axis=0)[0]) for row in indices]

    def ratio(sums: np.ndarray) -> np.ndarray:
        return sums[..., 1] / sums[..., 0]

    assert resampled_scores(stats, ratio, indices) == pytest.approx(want)
    monkeypatch.setattr(significance, "_BLOCK_VALUES", 1)  # one resample at a time
    assert resampled_scores(stats, ratio, indices) == pytest.approx(want)


def test_estimate_ci_is_sacrebleus() -> None:
    from sacrebleu.significance import estimate_ci as theirs

    samples = np.random.default_rng(5).normal(size=1000)
    assert estimate_ci(samples) == pytest.approx(theirs(samples))


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="resamples must be >= 1"):
        bootstrap_indices(5, 0)
    for n in (0, 1):  # one segment was drawn every time: an interval of ± 0 that read as certainty
        with pytest.raises(ConfigurationError, match=f"at least 2 segments to resample, got {n}"):
            bootstrap_indices(n, 10)
    with pytest.raises(ConfigurationError, match="at least 2 segments"):
        confidence(np.ones((1, 2)), lambda s: s[..., 0] / s[..., 1], n_resamples=10)
    with pytest.raises(ConfigurationError, match="at least 2 segments"):
        paired_bootstrap(np.ones((1, 2)), np.ones((1, 2)), lambda s: s[..., 0], n_resamples=10)
    assert len(bootstrap_indices(2, 10)) == 10
    with pytest.raises(MismatchError, match="the baseline has 2 segments but the system 3"):
        paired_bootstrap(np.ones((2, 4)), np.ones((3, 4)), lambda s: s[..., 0])


def test_correlation_interval_of_one_group_and_of_a_weighted_mean() -> None:
    """The value is the correlation on all items (the size-weighted mean over groups), the
    interval brackets it, and a group with a stronger relation has a higher interval."""
    from scipy import stats as sps

    from paralign.metrics.significance import correlation_interval

    rng = np.random.default_rng(0)
    gold_a, gold_b = rng.uniform(0, 5, 200), rng.uniform(0, 5, 50)
    a, b = gold_a + rng.normal(0, 1.0, 200), gold_b + rng.normal(0, 3.0, 50)
    one = correlation_interval([(a, gold_a)], "pearson", n_resamples=300)
    assert one.value == pytest.approx(sps.pearsonr(a, gold_a)[0]) and one.low < one.value < one.high
    rho = correlation_interval([(a, gold_a)], "spearman", n_resamples=300)
    assert rho.value == pytest.approx(sps.spearmanr(a, gold_a)[0]) and rho.low < rho.value < rho.high
    weak = correlation_interval([(b, gold_b)], "pearson", n_resamples=300)
    assert weak.high < one.high and weak.low < one.low
    both = correlation_interval([(a, gold_a), (b, gold_b)], "pearson", n_resamples=300)
    assert both.value == pytest.approx((200 * one.value + 50 * weak.value) / 250)
    assert correlation_interval([(a, gold_a)], n_resamples=300, seed=1) != correlation_interval(
        [(a, gold_a)], n_resamples=300, seed=2)


def test_correlation_interval_refuses_what_it_cannot_correlate() -> None:
    from paralign.metrics.significance import correlation_interval

    with pytest.raises(ConfigurationError, match="choose pearson or spearman"):
        correlation_interval([([1, 2, 3], [1, 2, 3])], "kendall")
    with pytest.raises(MismatchError, match="at least 3"):
        correlation_interval([([1.0], [1.0])])
    with pytest.raises(MismatchError, match="as many scores as gold values"):
        correlation_interval([([1, 2, 3], [1, 2])])


def test_paraeval_figures_over_one_segment_are_none() -> None:
    """systems_significance over one segment gave ± 0 and, paired, p = 1/(1 + resamples) for any
    difference; both are None (undefined), the baseline's score still given."""
    from paralign.metrics.paraeval.scoring import scorer, systems_scores, systems_significance

    item = scorer("default", resources=["none"])
    refs = [["the cat sat on the mat"]]
    stats = [r["stats"] for r in systems_scores(item, [["the cat sat"], ["a cat sat"]], refs, with_stats=True)]
    assert systems_significance(item, stats[:1]) == [{"confidence": None}]
    baseline, other = systems_significance(item, stats, paired=True, n_resamples=20)
    assert baseline == {"confidence": None, "paired_bootstrap": {"baseline_score": 0.5, "p_value": None,
                                                                 "is_baseline": True}}
    assert other["confidence"] is None and other["paired_bootstrap"]["p_value"] is None
    two = [np.concatenate([s, s]) for s in stats]  # two segments: resampled as before
    assert systems_significance(item, two, n_resamples=20)[0]["confidence"]["ci"] == 0.0


def test_a_correlation_interval_needs_3_items_per_group() -> None:
    """Over 2 items a correlation is +1 or -1 whatever the scores (every resample too): the
    interval [1, 1] read as certainty. The shared rule (significance.MIN_CORRELATED) refuses it."""
    from paralign.metrics.significance import (
        MIN_CORRELATED,
        correlation_interval,
        too_few_to_correlate,
    )

    assert MIN_CORRELATED == 3
    with pytest.raises(MismatchError, match="at least 3"):
        correlation_interval([([1.0, 2.0], [1.0, 3.0])])
    assert too_few_to_correlate(3, "system") is None
    assert too_few_to_correlate(2, "system").startswith("fewer than 3 systems to correlate (got 2)")


def test_paper_resamples_leave_out_an_na_f_as_the_point_estimate_does() -> None:
    """--config paper: a segment whose references have no word has no recall, and the point F
    (summed statistics) leaves it out; a resample that drew only such segments has no F either,
    but the bootstrap scored it 0 (a quarter of the resamples of 2 segments), so the interval
    reached down to 0 about a score of 0.86: not an interval of the same statistic. Such a
    resample is now left out, as the point estimate would have it; the point values do not
    change, and a baseline whose F is n/a has no score (None), not 0."""
    from paralign.metrics.paraeval.paper import ParaEvalMetric
    from paralign.metrics.paraeval.scoring import scorer, systems_scores, systems_significance

    item = scorer("paper", resources=["none"])
    refs = [["the cat sat", ""]]
    found = systems_scores(item, [["the cat sat", "dog"], ["the cat", "dog"]], refs, with_stats=True)
    stats = [r["stats"] for r in found]
    assert found[0]["f"] == pytest.approx(2 * 0.75 / 1.75)  # P 3/4 (the dog counts), R 3/3
    f = ParaEvalMetric(item, "f").score
    assert np.isnan(f(stats[0][1])) and f(stats[0].sum(axis=0)) == pytest.approx(found[0]["f"])
    confidence = systems_significance(item, stats, n_resamples=200)[0]["confidence"]
    assert confidence["score"] == pytest.approx(found[0]["f"])
    assert confidence["mean"] - confidence["ci"] > 0.8  # the n/a resamples counted as 0: 0.695 - 0.5
    baseline, other = systems_significance(item, stats, paired=True, n_resamples=200)
    assert 0 < other["paired_bootstrap"]["p_value"] <= 1
    na = [np.array([[1.0, 0.0, 0.0, 0.0, 0.0]] * 2)] * 2  # no reference word at all: F n/a
    assert systems_significance(item, na, paired=True, n_resamples=20)[0]["paired_bootstrap"]["baseline_score"] is None


def test_a_bootstrap_larger_than_any_array_is_a_memory_error() -> None:
    """`--resamples 9223372036854775807`: numpy refuses an array larger than any can be with
    ValueError ("array is too big"), which the CLI showed as a traceback; it is a MemoryError,
    as numpy's own for an array merely too large for this machine."""
    with pytest.raises(MemoryError, match=f"{sys.maxsize} resamples of 5 items"):
        bootstrap_indices(5, sys.maxsize)
    x = [1.0, 2.0, 3.0, 4.0, 5.0]
    with pytest.raises(MemoryError, match=f"{sys.maxsize} resamples of 5 items"):
        correlation_interval([(x, x[::-1])], "pearson", n_resamples=sys.maxsize)


def test_a_constant_draw_is_left_out_whatever_its_value() -> None:
    """A resample that draws one item every time has constant scores and gold: its correlation
    is undefined, and left out of the interval. Scores whose mean does not round back to them
    (0.1 three times: a mean of 0.10000000000000002) were centred to a tiny constant, not to 0,
    and such a draw counted as a correlation of exactly +1 or -1."""
    from paralign.metrics.significance import paired_row_correlations

    for kind in ("pearson", "spearman"):
        assert np.isnan(paired_row_correlations(kind, np.array([[0.1, 0.1, 0.1]]), np.array([[3.2, 3.2, 3.2]])))[0]
        assert np.isnan(paired_row_correlations(kind, np.array([[0.1, 0.1, 0.1]]), np.array([[1.0, 2.0, 3.0]])))[0]
    scores, gold = np.array([0.1, 0.7, 0.3]), np.array([0.2, 0.9, 0.6])
    draws = np.random.default_rng(1).choice(3, size=(1000, 3))
    constant = np.ptp(draws, axis=1) == 0
    assert constant.any()
    resampled = paired_row_correlations("pearson", scores[draws], gold[draws])
    assert np.isnan(resampled[constant]).all() and not np.isnan(resampled[~constant]).any()
    found = correlation_interval([(scores, gold)], n_resamples=1000, seed=1)  # the same draws
    assert (found.low, found.high) == pytest.approx(tuple(np.percentile(resampled[~constant], [2.5, 97.5])))


def test_row_correlations_are_scipys_at_any_scale() -> None:
    """Pearson is scale-free: scores of 1e300 (their squares overflow) or 1e-170 (theirs
    underflow to 0) correlate as scipy's do, not as 0 or undefined; and no correlation is
    rounded past +1 or -1."""
    from scipy import stats as sps

    from paralign.metrics.significance import paired_row_correlations

    x, y = np.array([1.0, 2.0, 3.0, 5.0]), np.array([1.0, 3.0, 2.0, 4.0])
    expected = sps.pearsonr(x, y)[0]
    for scale in (1e300, 1e-170, 1.0):
        assert paired_row_correlations("pearson", (x * scale)[None, :], y[None, :])[0] == pytest.approx(expected)
    scores, gold = np.array([0.1, 0.7, 0.3]), np.array([0.2, 0.9, 0.6])  # rounding past 1: 1.0000000000000002
    found = correlation_interval([(scores, gold)], n_resamples=1000, seed=1)
    assert -1.0 <= found.low <= found.high <= 1.0


def test_an_interval_level_that_is_no_share_is_named() -> None:
    """level=95 (a percentage for 0.95) was numpy's "Percentiles must be in the range [0, 100]",
    and level=0 an interval of width 0 that left out its own value."""
    for level in (95, 0, -0.5, float("nan"), "0.95"):
        with pytest.raises(ConfigurationError, match=r"level must be a share above 0 and at most 1 \(0.95"):
            correlation_interval([([1, 2, 3, 4], [1, 3, 2, 4])], level=level, n_resamples=50)  # type: ignore[arg-type]
    assert correlation_interval([([1, 2, 3, 4], [1, 3, 2, 4])], level=1, n_resamples=50).low >= -1.0


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_correlation_interval_refuses_a_score_that_is_no_finite_number(bad: float) -> None:
    """A NaN or infinite score or gold value gave a NaN correlation without a word: FormatError
    naming the group and item (1-based)."""
    from paralign.errors import FormatError
    from paralign.metrics.significance import correlation_interval

    good = ([0.1, 0.5, 0.3, 0.9], [1.0, 3.0, 2.0, 4.0])
    with pytest.raises(FormatError, match=r"group 2: score 3 is (nan|inf), not a finite number"):
        correlation_interval([good, ([0.1, 0.5, bad, 0.9], [1.0, 3.0, 2.0, 4.0])], n_resamples=10)
    with pytest.raises(FormatError, match=r"group 1: gold value 1 is (nan|inf)"):
        correlation_interval([([0.1, 0.5, 0.3, 0.9], [bad, 3.0, 2.0, 4.0])], "spearman", n_resamples=10)
