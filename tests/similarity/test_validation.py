"""similarity.validation: the fold count of k-fold cross-validation is checked against the items."""

from __future__ import annotations

import re

import pytest

from paralign.errors import ConfigurationError
from paralign.similarity.model import LogisticModel
from paralign.similarity.validation import (
    check_folds,
    check_stratified_folds,
    cross_validate_model,
    cross_validate_threshold,
    stratified_folds,
)


def test_more_folds_than_items_are_refused() -> None:
    """cross_validate_threshold(folds=10) on 4 items ran, six of its folds holding nothing out,
    and reported itself as 10-fold; a fold count like 10**20 looped over empty folds for ever.
    Both are a ConfigurationError naming the two numbers; as many folds as items run."""
    scores, labels = [0.9, 0.8, 0.2, 0.1], [True, True, False, False]
    for folds in (5, 10**20):
        with pytest.raises(ConfigurationError, match=f"with {folds} folds needs at least {folds} usable "
                           "training pairs, got 4"):
            cross_validate_threshold(scores, labels, folds=folds)
    assert cross_validate_threshold(scores, labels, folds=2).folds == 2
    assert sorted(stratified_folds(labels, 2, seed=0)) == [0, 0, 1, 1]  # each class dealt round-robin


def test_check_folds_without_a_count_of_items_checks_the_count_alone() -> None:
    check_folds(10**20)
    with pytest.raises(ConfigurationError, match="at least 2 folds, got 1"):
        check_folds(1, 100)


def test_folds_a_class_cannot_fill_are_refused() -> None:
    """Each class is dealt round-robin from fold 0, so 4 folds over 2 paraphrases and 2 others
    left folds 2 and 3 empty: their thresholds (and models) were chosen on every pair, held
    nothing out, and the run was reported as 4-fold. The larger class's count is the most folds
    the pairs fill; more is a ConfigurationError saying so, before anything is fitted."""
    scores, labels = [0.9, 0.8, 0.2, 0.1], [True, True, False, False]
    said = ("cross-validation with 4 folds needs at least 4 usable training pairs of one class (each class is "
            "dealt over the folds in turn), got 2 paraphrases and 2 others: at most 2 folds")
    with pytest.raises(ConfigurationError, match=f"^{re.escape(said)}$"):
        stratified_folds(labels, 4, seed=0)
    with pytest.raises(ConfigurationError, match=re.escape(said)):
        cross_validate_threshold(scores, labels, folds=4)
    with pytest.raises(ConfigurationError, match=re.escape(said)):
        cross_validate_model([[s] for s in scores], labels, features=["x"], folds=4)
    with pytest.raises(ConfigurationError, match="with 3 folds .* got 1 paraphrases and 2 others: at most 2 folds"):
        check_stratified_folds(3, [True, False, False])
    check_stratified_folds(10**20, [])  # no labels: the count alone (no usable pair is its own error)
    with pytest.raises(ConfigurationError, match="at least 2 folds, got 1"):
        check_stratified_folds(1, [])


@pytest.mark.parametrize("seed", range(5))
def test_folds_the_classes_fill_are_dealt_as_before(seed) -> None:
    """Where no fold is empty the assignment is the one published CV figures used: each class
    shuffled by random.Random(seed), in the order paraphrases then others, dealt round-robin."""
    import random

    labels = [k % 3 == 0 for k in range(23)]  # 8 paraphrases, 15 others: up to 15 folds
    for folds in (2, 5, 8, 15):
        rng, expected = random.Random(seed), [0] * len(labels)
        for cls in (True, False):
            members = [k for k, g in enumerate(labels) if g is cls]
            rng.shuffle(members)
            for position, k in enumerate(members):
                expected[k] = position % folds
        assert stratified_folds(labels, folds, seed) == expected
        assert set(expected) == set(range(folds))  # no fold empty
    with pytest.raises(ConfigurationError, match="at most 15 folds"):
        stratified_folds(labels, 16, seed)


def test_check_model_classes_needs_both_classes_and_two_of_each_with_folds() -> None:
    from paralign.errors import ConfigurationError, FormatError
    from paralign.similarity.validation import check_model_classes

    check_model_classes([True, False])  # one of each fits one model
    check_model_classes([True, True, False, False], folds=2)
    with pytest.raises(FormatError, match="all 2 training pairs are non-paraphrases"):
        check_model_classes([False, False])
    with pytest.raises(ConfigurationError, match="got 1 paraphrase and 5 others"):
        check_model_classes([True] + [False] * 5, folds=3)


@pytest.mark.parametrize(("options", "said"), [
    ({"repeats": 0}, "cross-validation repeats must be at least 1, got 0"),
    ({"repeats": -2}, "cross-validation repeats must be at least 1, got -2"),
    ({"repeats": 1.5}, "cross-validation repeats must be a whole number"),
    ({"folds": 2.5}, "cross-validation folds must be a whole number"),
    ({"folds": None}, "cross-validation folds must be a whole number"),
])
def test_a_fold_or_repeat_count_that_is_no_count_is_a_configuration_error(options, said) -> None:
    """repeats=0 was statistics' StatisticsError ('fmean requires at least one data point') and
    folds=2.5 range()'s TypeError, not paralign's error naming the setting."""
    scores, labels = [0.1, 0.2, 0.3, 0.7, 0.8, 0.9], [False, False, True, False, True, True]
    with pytest.raises(ConfigurationError, match=re.escape(said)):
        cross_validate_threshold(scores, labels, **{"folds": 2, **options})
    with pytest.raises(ConfigurationError, match=re.escape(said)):
        cross_validate_model([[s] for s in scores], labels, features=["x"], **{"folds": 2, **options})


def test_a_fold_whose_model_does_not_converge_is_named():
    """Without an L2 penalty the logistic model does not converge where a fold's training pairs are
    separable though all of them are not (one negative among the positives, held out): the run
    failed, after fitting on all 21 pairs and aligning every pair, with "does not converge on
    these 16 training pairs", a count the user never gave. The error names the fold and how many
    of the training pairs it fitted on."""
    rows = [[float(i)] for i in range(20)] + [[15.0]]
    labels = [i >= 10 for i in range(20)] + [False]
    assert LogisticModel.fit(rows, labels, features=("x",), l2=0.0).l2 == 0.0  # all 21: it converges
    with pytest.raises(ConfigurationError, match=r"^cross-validation fold \d of 5, its model fitted on 16 of the "
                       r"21 training pairs: the logistic model does not converge .*use l2 > 0"):
        cross_validate_model(rows, labels, l2=0.0, features=("x",), folds=5)
    assert cross_validate_model(rows, labels, l2=1.0, features=("x",), folds=5).folds == 5
