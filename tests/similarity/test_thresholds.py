"""Threshold-selection rules and their cross-validation on training pairs (issue 7)."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError, FormatError
from paralign.similarity import (
    THRESHOLD_RULES,
    accuracy_curve,
    binary_scores,
    choose_threshold,
    cross_validate_threshold,
    mcnemar,
    paraphrase_from_scores,
    stratified_folds,
)


def accuracy(t: float, scores: list[float], labels: list[bool]) -> float:
    return binary_scores([s > t for s in scores], labels).accuracy


def best_accuracy(scores: list[float], labels: list[bool]) -> float:
    candidates = [min(scores) - 1.0] + sorted(set(scores)) + [(a + b) / 2 for a in scores for b in scores]
    return max(accuracy(c, scores, labels) for c in candidates)


scored_labels = st.lists(
    st.tuples(st.integers(0, 20).map(lambda v: v / 20), st.booleans()), min_size=1, max_size=40
)


@settings(max_examples=150, deadline=None)
@given(scored_labels)
def test_lowest_and_plateau_middle_maximise_training_accuracy(data):
    scores = [s for s, _ in data]
    labels = [g for _, g in data]
    best = best_accuracy(scores, labels)
    lowest = choose_threshold(scores, labels, "lowest")
    middle = choose_threshold(scores, labels, "plateau-middle")
    assert accuracy(lowest, scores, labels) == pytest.approx(best)
    assert accuracy(middle, scores, labels) == pytest.approx(best)
    assert middle >= lowest


@settings(max_examples=60, deadline=None)
@given(scored_labels, st.sampled_from(sorted(set(THRESHOLD_RULES) - {"half"})))
def test_every_rule_gives_a_finite_threshold_in_range(data, rule):
    scores = [s for s, _ in data]
    labels = [g for _, g in data]
    t = choose_threshold(scores, labels, rule)
    assert math.isfinite(t)
    assert min(scores) - 1.0 <= t <= max(scores)


def test_half_is_the_probability_boundary_whatever_the_training_scores():
    # for a blend with a fine-tuned cross-encoder, whose training probabilities are not held out
    assert choose_threshold([0.99, 0.98, 0.01], [True, False, False], "half") == 0.5
    assert choose_threshold([0.2], [True], "half") == 0.5


def test_accuracy_curve_counts_correct_pairs_at_every_candidate():
    scores = [0.1, 0.4, 0.4, 0.8]
    labels = [False, True, False, True]
    thresholds, counts = accuracy_curve(scores, labels)
    assert thresholds == pytest.approx([-0.9, 0.25, 0.6, 0.8])
    assert counts == [2, 3, 3, 2]
    for t, c in zip(thresholds, counts, strict=True):
        assert c == round(4 * accuracy(t, scores, labels))


_NEAR = 2 / 3  # and the float just above it, 1 - 1/3: one ratio computed two ways
close_scores = st.one_of(st.sampled_from([_NEAR, math.nextafter(_NEAR, 1), 0.3, math.nextafter(0.3, 1), 0.9,
                                          math.nextafter(0.9, 1), 2.0 ** 53, 2.0 ** 53 + 2]),
                         st.floats(-1e6, 1e6))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(close_scores, st.booleans()), min_size=1, max_size=12))
@example([(_NEAR, False), (math.nextafter(_NEAR, 1), True)])
@example([(2.0 ** 53, False)])
def test_every_candidate_threshold_classifies_as_its_count_says_for_any_scores(data):
    """Scores one float apart (2/3 and 1 - 1/3) had their midpoint round up to the higher one,
    so the candidate meant to part them put both on one side: accuracy_curve counted 2 of
    [2/3 (no), 0.6666666666666667 (yes)] right at 0.6666666666666667, which gets 1, and the
    ``lowest`` rule chose it (training accuracy 0.5, not the 1.0 it reported). Past 2**53,
    ``lowest - 1`` was the lowest score itself, not a threshold below every score."""
    scores = [s for s, _ in data]
    labels = [g for _, g in data]
    thresholds, counts = accuracy_curve(scores, labels)
    for t, c in zip(thresholds, counts, strict=True):
        assert sum((s > t) == g for s, g in zip(scores, labels, strict=True)) == c
    for rule in ("lowest", "plateau-middle", "smoothed"):
        assert round(accuracy(choose_threshold(scores, labels, rule), scores, labels) * len(scores)) in counts
    lowest = choose_threshold(scores, labels, "lowest")
    assert round(accuracy(lowest, scores, labels) * len(scores)) == max(counts)


def test_plateau_middle_moves_away_from_the_permissive_end():
    # maximum accuracy (6/8) at 0.25, 0.45 and 0.65: lowest takes 0.25, the middle 0.45
    scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    labels = [False, False, True, False, True, False, True, True]
    t_low = choose_threshold(scores, labels, "lowest")
    t_mid = choose_threshold(scores, labels, "plateau-middle")
    assert t_low == pytest.approx(0.25)
    assert t_mid == pytest.approx(0.45)
    assert accuracy(t_mid, scores, labels) == accuracy(t_low, scores, labels) == 0.75


def test_smoothed_prefers_a_broad_optimum_to_narrow_spikes():
    # exact optima (22 of 28 right) only in narrow gaps below 0.31; the wide gap (0.5, 0.9) is one
    # pair worse: smoothing picks the wide gap, the raw maximum a spike
    items = [(0.1, False)] * 5 + [(0.2, True)] * 3 + [(0.3, False)] * 3 + [(0.31, True)] * 4
    items += [(0.5, False)] * 3 + [(0.9, True)] * 10
    scores = [s for s, _ in items]
    labels = [g for _, g in items]
    assert choose_threshold(scores, labels, "lowest") < 0.31
    smoothed = choose_threshold(scores, labels, "smoothed")
    assert 0.5 < smoothed < 0.9
    assert accuracy(smoothed, scores, labels) == pytest.approx(best_accuracy(scores, labels) - 1 / 28)


def test_smoothed_considers_all_positive_and_all_negative():
    """The smoothed rule left out accuracy_curve's two ends (below the lowest score, all
    positive; the highest, all negative), which every other rule and scikit-learn's roc_curve
    consider: training pairs of one class got a midpoint, the lowest (highest) pair labelled
    wrong where every one can be right (0.15 for five paraphrases scored 0.1 to 0.5)."""
    scores = [0.1, 0.2, 0.3, 0.4, 0.5]
    for labels in ([True] * 5, [True, True, False, True, True]):
        assert choose_threshold(scores, labels, "smoothed") < 0.1  # all positive, as `lowest`
    for labels in ([False] * 5, [True, False, False, False, False]):
        assert choose_threshold(scores, labels, "smoothed") >= 0.5  # all negative, as `lowest`
    assert accuracy(choose_threshold(scores, [True] * 5, "smoothed"), scores, [True] * 5) == 1.0


def full_scan_smoothed(scores: list[float], labels: list[bool]) -> float:
    """The smoothed rule as its definition reads: every candidate's smoothed count, first maximum."""
    import numpy as np
    from scipy.special import ndtr

    from paralign.similarity.thresholds import _silverman_bandwidth

    thresholds, _ = accuracy_curve(scores, labels)
    cand = np.asarray(thresholds, dtype=float)
    x, y, h = np.asarray(scores, dtype=float), np.asarray(labels, dtype=bool), _silverman_bandwidth(scores)
    smooth = [ndtr((x[y] - c) / h).sum() + ndtr((c - x[~y]) / h).sum() for c in cand]
    return float(cand[int(np.argmax(smooth))])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.integers(0, 30).map(lambda v: v / 30), st.floats(-2, 2)), st.booleans()),
                min_size=1, max_size=300))
def test_smoothed_picks_what_a_scan_of_every_candidate_picks(data):
    scores, labels = [s for s, _ in data], [g for _, g in data]
    assert choose_threshold(scores, labels, "smoothed") == full_scan_smoothed(scores, labels)


def test_smoothed_pruning_is_exact_on_thousands_of_continuous_scores():
    import random

    rng = random.Random(7)
    for n, spread in ((3000, 1.2), (2000, 0.4), (500, 3.0)):
        labels = [rng.random() < 0.67 for _ in range(n)]
        scores = [1 / (1 + math.exp(-rng.gauss(1.0 if g else -0.3, spread))) for g in labels]
        assert choose_threshold(scores, labels, "smoothed") == full_scan_smoothed(scores, labels)


def test_logistic_threshold_of_mirror_symmetric_data_is_the_centre():
    # every (s, paraphrase) has a mirror (1 - s, not paraphrase): the MLE crossing is 0.5
    half = [(0.55, True), (0.7, True), (0.45, True), (0.9, True), (0.3, True), (0.65, True)]
    data = half + [(1 - s, not g) for s, g in half]
    t = choose_threshold([s for s, _ in data], [g for _, g in data], "logistic")
    assert t == pytest.approx(0.5, abs=1e-6)
    # shifting every score shifts the crossing by the same amount
    shifted = choose_threshold([s + 0.1 for s, _ in data], [g for _, g in data], "logistic")
    assert shifted == pytest.approx(0.6, abs=1e-6)


def test_logistic_falls_back_when_classes_are_separable():
    scores = [0.1, 0.2, 0.8, 0.9]
    labels = [False, False, True, True]
    assert choose_threshold(scores, labels, "logistic") == pytest.approx(0.5)
    assert choose_threshold([0.1, 0.2], [True, True], "logistic") == pytest.approx(-0.9)


def test_bootstrap_median_is_deterministic_and_inside_the_gap():
    scores = [0.05 * k for k in range(8)] + [0.6 + 0.05 * k for k in range(8)]
    labels = [False] * 8 + [True] * 8
    t = choose_threshold(scores, labels, "bootstrap-median")
    assert 0.35 <= t < 0.6
    assert choose_threshold(scores, labels, "bootstrap-median") == t


def test_unknown_rule_and_empty_training_are_errors():
    with pytest.raises(ConfigurationError, match="unknown threshold rule"):
        choose_threshold([0.1], [True], "median-of-nothing")
    with pytest.raises(ConfigurationError):
        choose_threshold([], [], "lowest")
    with pytest.raises(ValueError):
        choose_threshold([0.1, 0.2], [True], "lowest")


def test_paraphrase_from_scores_uses_and_reports_the_rule():
    train = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    labels = [False, False, True, False, True, False, True, True]
    low = paraphrase_from_scores(train, labels, [0.3, 0.5], [True, False], rule="lowest")
    mid = paraphrase_from_scores(train, labels, [0.3, 0.5], [True, False], rule="plateau-middle")
    assert low.to_dict()["rule"] == "lowest" and mid.to_dict()["rule"] == "plateau-middle"
    assert (low.test.tp, low.test.fp) == (1, 1)  # 0.3 and 0.5 above 0.25
    assert (mid.test.tp, mid.test.fp) == (0, 1)  # only 0.5 above 0.45


@pytest.mark.parametrize("rule", sorted(THRESHOLD_RULES))
@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_a_score_that_is_not_a_finite_number_is_a_format_error_naming_it(rule, bad):
    # a NaN sorted anywhere: the rules chose a NaN threshold (every pair then "not paraphrase")
    # and smoothed raised numpy's bare ValueError
    with pytest.raises(FormatError, match=r"training score 2 is (nan|inf), not a finite number"):
        choose_threshold([0.1, bad, 0.8, 0.9], [False, False, True, True], rule)
    with pytest.raises(FormatError, match=r"test score 2 is (nan|inf)"):  # not silently a non-paraphrase
        paraphrase_from_scores([0.1, 0.9], [False, True], [0.8, bad, None], [True, True, False], rule=rule)


# -- cross-validation ------------------------------------------------------------------------
def test_stratified_folds_balance_classes_and_depend_on_the_seed():
    labels = [True] * 23 + [False] * 17
    folds = stratified_folds(labels, 5, seed=3)
    assert folds == stratified_folds(labels, 5, seed=3)
    assert folds != stratified_folds(labels, 5, seed=4)
    for f in range(5):
        pos = sum(1 for g, k in zip(labels, folds, strict=True) if k == f and g)
        neg = sum(1 for g, k in zip(labels, folds, strict=True) if k == f and not g)
        assert pos in (4, 5) and neg in (3, 4)
    with pytest.raises(ConfigurationError):
        stratified_folds(labels, 1, seed=0)


def test_cross_validation_matches_a_manual_two_fold_run():
    scores = [0.1, 0.35, 0.3, 0.5, 0.62, 0.7, 0.2, 0.9, 0.4, 0.55]
    labels = [False, True, False, True, False, True, False, True, True, True]
    cv = cross_validate_threshold(scores, labels, "lowest", folds=2, repeats=1, seed=7)
    folds = stratified_folds(labels, 2, seed=7)
    predicted = [False] * len(scores)
    for f in (0, 1):
        train = [k for k in range(len(scores)) if folds[k] != f]
        t = choose_threshold([scores[k] for k in train], [labels[k] for k in train], "lowest")
        for k in range(len(scores)):
            if folds[k] == f:
                predicted[k] = scores[k] > t
    expected = binary_scores(predicted, labels)
    assert cv.accuracy == pytest.approx(expected.accuracy)
    assert cv.precision == pytest.approx(expected.precision)
    assert cv.recall == pytest.approx(expected.recall)
    assert len(cv.thresholds) == 2 and cv.repeat_accuracies == (cv.accuracy,)


def test_cross_validation_of_separable_data_is_perfect_and_paired_differences():
    scores = [0.01 * k for k in range(30)] + [0.6 + 0.01 * k for k in range(30)]
    labels = [False] * 30 + [True] * 30
    cv = cross_validate_threshold(scores, labels, "lowest", folds=5, repeats=3, seed=0)
    assert cv.accuracy == 1.0 and cv.accuracy_sd == 0.0
    noisy = labels[:]
    noisy[0], noisy[59] = True, False  # two flipped labels cost held-out accuracy
    worse = cross_validate_threshold(scores, noisy, "lowest", folds=5, repeats=3, seed=0)
    assert worse.accuracy < 1.0
    diff, se = worse.paired_difference(cv)
    assert diff == pytest.approx(worse.accuracy - 1.0) and se >= 0.0
    other = cross_validate_threshold(scores, labels, "lowest", folds=5, repeats=2, seed=0)
    with pytest.raises(ConfigurationError):
        other.paired_difference(cv)
    assert cv.to_dict()["repeats"] == 3


def test_mcnemar_counts_discordant_items_and_gives_an_exact_p_value():
    gold = [True] * 10
    a = [True] * 10
    b = [True] * 2 + [False] * 8
    only_a, only_b, p = mcnemar(a, b, gold)
    assert (only_a, only_b) == (8, 0)
    assert p == pytest.approx(2 / 2**8)  # two-sided exact binomial, 8 of 8 discordant one way
    assert mcnemar(a, a, gold) == (0, 0, 1.0)
    assert mcnemar([True, False], [False, True], [True, True])[2] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        mcnemar([True], [True, False], [True])
