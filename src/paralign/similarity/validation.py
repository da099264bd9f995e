"""k-fold cross-validation of threshold rules and of the features model, and McNemar's test:
how paraphrase-identification choices are compared on training pairs only.

Not for: test-set evaluation (:mod:`paralign.similarity.paraphrase`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral
from statistics import fmean, stdev

from ..errors import ConfigurationError, MismatchError, check_count
from .features import FEATURES
from .model import LogisticModel, check_both_classes
from .thresholds import DEFAULT_THRESHOLD_RULE, BinaryScores, binary_scores, choose_threshold


@dataclass(frozen=True, slots=True)
class CrossValidation:
    """k-fold cross-validation of a threshold rule on training pairs (never on test).

    ``pooled``: the held-out predictions of every fold pooled, averaged over ``repeats`` random
    fold assignments (accuracy, P, R, F1 and their standard deviations over the repeats).
    """

    rule: str
    folds: int
    repeats: int
    seed: int
    accuracy: float
    precision: float
    recall: float
    f1: float
    accuracy_sd: float
    thresholds: tuple[float, ...]
    repeat_accuracies: tuple[float, ...] = ()
    held_out: tuple[bool, ...] = ()  #: the first repeat's held-out predictions, in input order

    def to_dict(self) -> dict:
        return {
            "rule": self.rule,
            "folds": self.folds,
            "repeats": self.repeats,
            "seed": self.seed,
            "accuracy": self.accuracy,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "accuracy_sd": self.accuracy_sd,
            "mean_threshold": sum(self.thresholds) / len(self.thresholds),
            "repeat_accuracies": list(self.repeat_accuracies),
        }

    def paired_difference(self, baseline: CrossValidation) -> tuple[float, float]:
        """Mean and standard error of the per-repeat accuracy difference to `baseline`
        (same folds when both used the same seed, folds and repeats)."""
        if (self.folds, self.repeats, self.seed) != (baseline.folds, baseline.repeats, baseline.seed):
            raise ConfigurationError("paired comparison needs the same folds, repeats and seed")
        diffs = [a - b for a, b in zip(self.repeat_accuracies, baseline.repeat_accuracies, strict=True)]
        if len(diffs) < 2:
            return fmean(diffs), 0.0
        return fmean(diffs), stdev(diffs) / math.sqrt(len(diffs))


def mcnemar(a: Sequence[bool], b: Sequence[bool], gold: Sequence[bool]) -> tuple[int, int, float]:
    """Exact McNemar test of two classifiers on the same items: (items only `a` gets right, items
    only `b` gets right, two-sided p-value of the binomial test on those discordant items)."""
    if not len(a) == len(b) == len(gold):
        raise MismatchError(f"{len(a)}, {len(b)} and {len(gold)} items")
    only_a = sum(1 for x, y, g in zip(a, b, gold, strict=True) if (x == g) and (y != g))
    only_b = sum(1 for x, y, g in zip(a, b, gold, strict=True) if (y == g) and (x != g))
    n = only_a + only_b
    if n == 0:
        return 0, 0, 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return only_a, only_b, min(1.0, 2 * tail)


def check_folds(folds: int, items: int | None = None) -> None:
    """ConfigurationError unless `folds` is a usable fold count (2 or more, and no more than
    the `items` to deal into them when given: a fold with nothing held out is no fold, and a
    fold count far beyond the items only loops over empty folds): callers check it before the
    costly work whose result is cross-validated, not after. A count that is not a whole number
    (2.5, None) is refused alike (:func:`~paralign.errors.check_count`), not a TypeError from range()."""
    if isinstance(folds, bool) or not isinstance(folds, Integral):
        check_count(folds, "cross-validation folds", minimum=2)  # not a count: its error
    if folds < 2:
        raise ConfigurationError(f"cross-validation needs at least 2 folds, got {folds}")
    if items is not None and folds > items:
        raise ConfigurationError(f"cross-validation with {folds} folds needs at least {folds} usable "
                                 f"training pairs, got {items}")


def check_stratified_folds(folds: int, labels: Sequence[bool]) -> None:
    """ConfigurationError unless :func:`stratified_folds` fills every one of `folds` folds with
    `labels`: :func:`check_folds`, and no more folds than the larger class has items (each class
    is dealt from fold 0, so 4 folds over 2 paraphrases and 2 others left folds 2 and 3 empty:
    their thresholds chosen on every item, the run reported as 4-fold). Callers check it before
    the costly work, as :func:`check_folds`; with no labels, the count alone (no usable pair is
    an error of its own, where pairs are scored)."""
    check_folds(folds, len(labels) or None)
    positives = sum(1 for g in labels if g)
    larger = max(positives, len(labels) - positives)
    if labels and folds > larger:
        raise ConfigurationError(f"cross-validation with {folds} folds needs at least {folds} usable training pairs "
                                 f"of one class (each class is dealt over the folds in turn), got {positives} "
                                 f"paraphrases and {len(labels) - positives} others: at most {larger} folds")


def check_model_classes(labels: Sequence[bool], folds: int = 0) -> None:
    """For a classifier fitted on `labels` (the features model): FormatError when they are all of
    one class, and with `folds`, ConfigurationError unless each fold's training part (the other
    folds) holds both classes, i.e. two or more pairs of each class (each class is dealt from
    fold 0, so a class of one pair is missing from the training part of the fold holding it).
    Checked before the pairs are aligned: the model's own check came after, and named a fold's
    pair count ("all 1 training pairs are paraphrases") where 4 pairs were given."""
    check_both_classes(labels)
    positives = sum(1 for g in labels if g)
    others = len(labels) - positives
    if folds and labels and min(positives, others) < 2:
        raise ConfigurationError(f"cross-validation of a fitted classifier needs at least 2 usable training pairs "
                                 f"of each class (each fold's model is fitted on the other folds), got {positives} "
                                 f"paraphrase{'s' if positives != 1 else ''} and {others} "
                                 f"other{'s' if others != 1 else ''}")


def stratified_folds(labels: Sequence[bool], folds: int, seed: int) -> list[int]:
    """A fold number for every item: each class shuffled (seeded) and dealt round-robin from
    fold 0; ConfigurationError when a fold would be empty (:func:`check_stratified_folds`)."""
    import random

    check_folds(folds, len(labels))
    check_stratified_folds(folds, labels)
    rng = random.Random(seed)
    assignment = [0] * len(labels)
    for cls in (True, False):
        members = [k for k, g in enumerate(labels) if bool(g) is cls]
        rng.shuffle(members)
        for position, k in enumerate(members):
            assignment[k] = position % folds
    return assignment


def cross_validate_threshold(
    scores: Sequence[float],
    labels: Sequence[bool],
    rule: str = DEFAULT_THRESHOLD_RULE,
    *,
    folds: int = 10,
    repeats: int = 1,
    seed: int = 0,
) -> CrossValidation:
    """Choose the threshold by `rule` on k-1 folds, classify the held-out fold; pool, repeat.

    Repeat r uses fold assignment seed ``seed + r``, so two rules compared with the same seed
    see exactly the same folds (a paired comparison).
    """
    if len(scores) != len(labels):
        raise MismatchError(f"{len(scores)} scores vs {len(labels)} labels")
    fixed = list(scores)
    return _cross_validate(lambda _train: fixed, labels, rule, folds, repeats, seed)


def cross_validate_model(
    rows: Sequence[Sequence[float]],
    labels: Sequence[bool],
    rule: str = DEFAULT_THRESHOLD_RULE,
    *,
    l2: float = 1.0,
    features: Sequence[str] | None = None,
    folds: int = 10,
    repeats: int = 1,
    seed: int = 0,
) -> CrossValidation:
    """Like :func:`cross_validate_threshold` for the ``features`` classifier: on every k-1 folds the
    model is fitted, and the threshold on its probabilities chosen by `rule`, before the held-out
    fold is classified (same folds as :func:`cross_validate_threshold` for the same seed).
    `features` names the columns of `rows` (default: :data:`paralign.similarity.features.FEATURES`)."""
    names = FEATURES if features is None else tuple(features)
    if len(rows) != len(labels):
        raise MismatchError(f"{len(rows)} feature rows vs {len(labels)} labels")

    def fold_scores(train: list[int]) -> list[float]:
        model = LogisticModel.fit([rows[k] for k in train], [labels[k] for k in train], features=names, l2=l2)
        return model.probabilities(rows)

    return _cross_validate(fold_scores, labels, rule, folds, repeats, seed)


def _fold_scores(fold_scores: Callable[[list[int]], Sequence[float]], train: list[int], fold: str,
                 items: int) -> Sequence[float]:
    """``fold_scores(train)``, or the ConfigurationError of a fit that fails on the fold's training
    items (a logistic model that does not converge on them, as without an L2 penalty it does not
    where they are separable, though all the training pairs are not) naming the fold and how many
    of the training items it fits on: it said "does not converge on these 16 training pairs" of a
    run on 21, after the model on all 21 had been fitted and every pair aligned."""
    try:
        return fold_scores(train)
    except ConfigurationError as exc:
        raise ConfigurationError(f"cross-validation {fold}, its model fitted on {len(train)} of the {items} "
                                 f"training pairs: {exc}") from exc


def _cross_validate(
    fold_scores: Callable[[list[int]], Sequence[float]],
    labels: Sequence[bool],
    rule: str,
    folds: int,
    repeats: int,
    seed: int,
) -> CrossValidation:
    """k-fold CV where ``fold_scores(training indices)`` scores every item (fitting on those
    indices when the score is learnt) and the threshold is chosen on the training items' scores.
    `repeats` is a whole number >= 1 (ConfigurationError): 0 was statistics' bare StatisticsError.
    A fold whose fit fails (:func:`_fold_scores`) is a ConfigurationError naming the fold."""
    check_count(repeats, "cross-validation repeats")
    per_repeat: list[BinaryScores] = []
    thresholds: list[float] = []
    first: list[bool] = []
    gold = [bool(g) for g in labels]
    for r in range(repeats):
        assignment = stratified_folds(labels, folds, seed + r)
        predicted = [False] * len(labels)
        for fold in range(folds):
            train = [k for k, f in enumerate(assignment) if f != fold]
            scores = _fold_scores(fold_scores, train, f"fold {fold + 1} of {folds}"
                                  + (f" (repeat {r + 1} of {repeats})" if repeats > 1 else ""), len(labels))
            t = choose_threshold([scores[k] for k in train], [labels[k] for k in train], rule)
            thresholds.append(t)
            for k, f in enumerate(assignment):
                if f == fold:
                    predicted[k] = scores[k] > t
        per_repeat.append(binary_scores(predicted, gold))
        if r == 0:
            first = predicted

    acc = [b.accuracy for b in per_repeat]
    return CrossValidation(
        rule,
        folds,
        repeats,
        seed,
        fmean(acc),
        fmean([b.precision for b in per_repeat]),
        fmean([b.recall for b in per_repeat]),
        fmean([b.f1 for b in per_repeat]),
        stdev(acc) if len(acc) > 1 else 0.0,
        tuple(thresholds),
        tuple(acc),
        tuple(first),
    )
