"""similarity.validation: the fold count of k-fold cross-validation is checked against the items."""

from __future__ import annotations

import pytest

from paralign.errors import ConfigurationError
from paralign.similarity.validation import check_folds, cross_validate_threshold, stratified_folds


def test_more_folds_than_items_are_refused() -> None:
    """cross_validate_threshold(folds=10) on 4 items ran, six of its folds holding nothing out,
    and reported itself as 10-fold; a fold count like 10**20 looped over empty folds for ever.
    Both are a ConfigurationError naming the two numbers; as many folds as items run."""
    scores, labels = [0.9, 0.8, 0.2, 0.1], [True, True, False, False]
    for folds in (5, 10**20):
        with pytest.raises(ConfigurationError, match=f"with {folds} folds needs at least {folds} usable "
                           "training pairs, got 4"):
            cross_validate_threshold(scores, labels, folds=folds)
    assert cross_validate_threshold(scores, labels, folds=4).folds == 4
    assert sorted(stratified_folds(labels, 4, seed=0)) == [0, 0, 1, 1]  # each class dealt round-robin


def test_check_folds_without_a_count_of_items_checks_the_count_alone() -> None:
    check_folds(10**20)
    with pytest.raises(ConfigurationError, match="at least 2 folds, got 1"):
        check_folds(1, 100)
