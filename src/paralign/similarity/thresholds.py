"""Paraphrase decisions from scores: binary scores, the accuracy curve and the threshold rules.

A pair is a paraphrase when its score is above a threshold chosen on training data;
:data:`THRESHOLD_RULES` names the ways to choose it (default: the lowest of the thresholds of
maximum training accuracy).

Not for: cross-validating the rules (:mod:`paralign.similarity.validation`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from ..errors import ConfigurationError, InputTypeError, MismatchError, check_finite, shown_value
from ..metrics import f_measure
from .model import logistic_weights


@dataclass(frozen=True, slots=True)
class BinaryScores:
    """Accuracy, and precision/recall/F1 of the positive (paraphrase) class, with counts."""

    accuracy: float
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    tn: int
    fn: int

    def to_dict(self) -> dict:
        return asdict(self)  # every field, in field order


def binary_scores(predicted: Sequence[bool], gold: Sequence[bool]) -> BinaryScores:
    """Accuracy and positive-class P/R/F1 (0 when undefined)."""
    if len(predicted) != len(gold):
        raise MismatchError(f"{len(predicted)} predictions vs {len(gold)} gold labels")
    tp = sum(1 for p, g in zip(predicted, gold, strict=True) if p and g)
    fp = sum(1 for p, g in zip(predicted, gold, strict=True) if p and not g)
    fn = sum(1 for p, g in zip(predicted, gold, strict=True) if not p and g)
    tn = len(gold) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = f_measure(precision, recall)
    accuracy = (tp + tn) / len(gold) if gold else 0.0
    return BinaryScores(accuracy, precision, recall, f1, tp, fp, tn, fn)


def accuracy_curve(scores: Sequence[float], labels: Sequence[bool]) -> tuple[list[float], list[int]]:
    """Candidate thresholds (ascending) and the number of training pairs each classifies right.

    Candidates are one value below the lowest score (all positive), the midpoints between
    consecutive distinct scores, and the highest score itself (all negative); ``score > t`` is
    the paraphrase decision. Where floats cannot hold a midpoint (two scores one float apart,
    as 2/3 and 1 - 1/3) the lower score is the candidate, and where they cannot hold the lowest
    score minus 1 (past 2**53) the float below it: each candidate parts the scores as counted.
    """
    if len(scores) != len(labels):
        raise MismatchError(f"{len(scores)} scores vs {len(labels)} labels")
    if not scores:
        raise ConfigurationError("cannot choose a threshold without training pairs")
    order = sorted(range(len(scores)), key=lambda k: scores[k])
    values = [scores[k] for k in order]
    ordered_labels = [labels[k] for k in order]
    correct = sum(ordered_labels)  # threshold below everything: all predicted positive
    below = values[0] - 1.0
    thresholds, counts = [below if below < values[0] else math.nextafter(values[0], -math.inf)], [correct]
    k = 0
    while k < len(values):
        end = k
        while end + 1 < len(values) and values[end + 1] == values[k]:
            end += 1
        for m in range(k, end + 1):  # these items switch to "not paraphrase"
            correct += -1 if ordered_labels[m] else 1
        thresholds.append(_between(values[k], values[end + 1]) if end + 1 < len(values) else values[k])
        counts.append(correct)
        k = end + 1
    return thresholds, counts


def _between(low: float, high: float) -> float:
    """The midpoint of two scores, `low` < `high`, or `low` where floats round the midpoint up
    to `high` (two scores one float apart): a threshold t with low <= t < high either way, so
    that ``score > t`` parts them. Halved first: the sum of two scores near 1e308 is inf."""
    middle = low / 2 + high / 2
    return middle if low <= middle < high else low


def _first_best(thresholds: Sequence[float], counts: Sequence[int]) -> float:
    """The lowest threshold of maximum accuracy on a curve from :func:`accuracy_curve`."""
    return thresholds[counts.index(max(counts))]


def _lowest_best(scores: Sequence[float], labels: Sequence[bool]) -> float:
    return _first_best(*accuracy_curve(scores, labels))


def _plateau_middle(scores: Sequence[float], labels: Sequence[bool]) -> float:
    thresholds, counts = accuracy_curve(scores, labels)
    best = max(counts)
    tied = [t for t, c in zip(thresholds, counts, strict=True) if c == best]
    return tied[(len(tied) - 1) // 2]  # the (lower) median: itself a maximum-accuracy threshold


def _silverman_bandwidth(scores: Sequence[float]) -> float:
    """Silverman's rule-of-thumb bandwidth, ``0.9·min(sd, IQR/1.34)·n^(-1/5)`` (> 0)."""
    import numpy as np

    x = np.asarray(scores, dtype=float)
    sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    q75, q25 = np.percentile(x, [75, 25])
    spread = min(sd, float(q75 - q25) / 1.34) or sd
    return max(0.9 * spread * len(x) ** -0.2, 1e-6)


def _smoothed(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Maximise kernel-smoothed accuracy: the expected accuracy when the threshold is jittered
    by Gaussian noise of Silverman's bandwidth; a single outlying pair cannot move the peak.
    Every candidate of :func:`accuracy_curve` is one, the two ends included (below the lowest
    score: all positive; the highest: all negative), as the other rules' and scikit-learn's
    ``roc_curve``'s: without them, training pairs of one class (a cross-validation fold's, say)
    had a midpoint chosen, labelling the lowest (or highest) pair wrong where none need be.

    Exact (the candidate a full scan of every candidate picks, bit for bit) but pruned: the
    candidates are split into gaps, and a gap is split further only while a bound says the
    maximum can be inside it. Cross-validating this rule over 4,000 continuous scores took 46
    times as long as the ``lowest`` rule when every candidate was computed.
    """
    import numpy as np
    from scipy.special import ndtr

    thresholds, _ = accuracy_curve(scores, labels)
    x = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    h = _silverman_bandwidth(scores)
    cand = np.asarray(thresholds, dtype=float)  # ascending
    pos, neg = x[y], x[~y]

    def parts(index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per candidate: P(score > t) summed over positives (falls as t rises) and
        P(score <= t) summed over negatives (rises); each row's sum is the same whichever
        other candidates share its block."""
        above, below = np.empty(len(index)), np.empty(len(index))
        for block in range(0, len(index), 256):
            c = cand[index[block : block + 256], None]
            above[block : block + 256] = ndtr((pos[None, :] - c) / h).sum(1)
            below[block : block + 256] = ndtr((c - neg[None, :]) / h).sum(1)
        return above, below

    # Between candidates a < b none exceeds above[a] + below[b] (each part is monotone); the
    # slack covers rounding in the sums, so a candidate never computed is below the maximum.
    above, below = np.full(len(cand), np.nan), np.full(len(cand), np.nan)
    ends = np.unique([0, len(cand) - 1])
    above[ends], below[ends] = parts(ends)
    slack = 1e-9 * len(x)
    gaps = [(0, len(cand) - 1)]
    while gaps:
        best = np.nanmax(above + below)
        gaps = [(a, b) for a, b in gaps if b > a + 1 and above[a] + below[b] + slack >= best]
        splits = [np.unique(np.linspace(a, b, min(b - a - 1, _SPLIT) + 2).round().astype(int)) for a, b in gaps]
        if not splits:
            break
        new = np.concatenate([points[1:-1] for points in splits])
        above[new], below[new] = parts(new)
        gaps = [(int(a), int(b)) for points in splits for a, b in zip(points[:-1], points[1:], strict=True)]
    smooth = above + below
    return float(cand[int(np.nanargmax(smooth))])  # the first maximum, as a full scan's argmax


_SPLIT = 8  # candidates computed inside each gap still open, per round of _smoothed


BOOTSTRAP_SAMPLES = 200


def _bootstrap_median(scores: Sequence[float], labels: Sequence[bool], seed: int = 0) -> float:
    """The median of the accuracy-maximising (lowest) thresholds of bootstrap resamples.

    Each resample is a multinomial weighting of the pairs; its curve is that of
    :func:`accuracy_curve` on the resampled pairs (only scores drawn at least once are candidates).
    """
    import numpy as np

    values, inverse = np.unique(np.asarray(scores, dtype=float), return_inverse=True)
    y = np.asarray(labels, dtype=bool)
    rng = np.random.default_rng(seed)
    n = len(scores)
    picks = []
    for _ in range(BOOTSTRAP_SAMPLES):
        weight = np.bincount(rng.integers(0, n, size=n), minlength=n)
        pos = np.bincount(inverse, weights=weight * y, minlength=len(values))
        neg = np.bincount(inverse, weights=weight * ~y, minlength=len(values))
        present = (pos + neg) > 0
        v, pos, neg = values[present], pos[present], neg[present]
        correct = np.concatenate([[pos.sum()], pos.sum() - np.cumsum(pos) + np.cumsum(neg)])
        best = int(np.argmax(correct))  # first maximum = lowest threshold
        if best == 0:
            picks.append(float(v[0]) - 1.0)
        elif best < len(v):
            picks.append(float(v[best - 1] + v[best]) / 2)
        else:
            picks.append(float(v[-1]))
    return float(np.percentile(picks, 50, method="lower"))


def _logistic(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Where a one-feature logistic regression (maximum likelihood) gives P(paraphrase) = 1/2.

    Falls back to the lowest accuracy-maximising threshold when the classes are separable or
    the slope is not positive (the fit has no finite crossing); clipped to the candidate range.
    """
    import numpy as np

    x = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    thresholds, counts = accuracy_curve(scores, labels)
    lowest = _first_best(thresholds, counts)  # the fallback: the `lowest` rule's threshold
    if max(counts) == len(scores):  # one class, or separable: no finite maximum-likelihood fit
        return lowest
    beta = logistic_weights(np.column_stack([np.ones_like(x), x]), y)
    if beta is None or beta[1] <= 0:
        return lowest
    return min(max(float(-beta[0] / beta[1]), float(x.min()) - 1.0), float(x.max()))  # candidate range


def _half(scores: Sequence[float], labels: Sequence[bool]) -> float:
    return 0.5


#: Threshold-selection rules by name; ``lowest`` is the historical default.
THRESHOLD_RULES: dict[str, Callable[[Sequence[float], Sequence[bool]], float]] = {
    "lowest": _lowest_best,
    "plateau-middle": _plateau_middle,
    "smoothed": _smoothed,
    "bootstrap-median": _bootstrap_median,
    "logistic": _logistic,
    "half": _half,
}
DEFAULT_THRESHOLD_RULE = "lowest"


def choose_threshold(scores: Sequence[float], labels: Sequence[bool], rule: str = DEFAULT_THRESHOLD_RULE) -> float:
    """The threshold t for ``score > t`` chosen on training data by a named rule.

    * ``lowest``: maximum training accuracy; the lowest of equally good thresholds.
    * ``plateau-middle``: the (lower) median of all equally good (maximum-accuracy) thresholds.
    * ``smoothed``: maximum of the accuracy curve smoothed with a Gaussian kernel (Silverman
      bandwidth), robust to a flat, jagged optimum; its candidates are :func:`accuracy_curve`'s,
      all positive and all negative included.
    * ``bootstrap-median``: (lower) median of the ``lowest`` thresholds of 200 bootstrap resamples
      (seed 0).
    * ``logistic``: the score where a fitted logistic regression gives P(paraphrase) = 1/2.
    * ``half``: 0.5, whatever the training scores: for a score that is itself a probability and
      whose training scores are not held out (a fine-tuned cross-encoder fits its training pairs
      almost perfectly, so a threshold chosen on them says nothing about new pairs).
    """
    chooser = THRESHOLD_RULES[check_rule(rule)]
    if len(scores) != len(labels):
        raise MismatchError(f"{len(scores)} scores vs {len(labels)} labels")
    if not scores:
        raise ConfigurationError("cannot choose a threshold without training pairs")
    check_finite(scores, "training score")
    return chooser(scores, labels)


def check_rule(rule: object) -> str:
    """`rule`, a threshold rule's name (:data:`THRESHOLD_RULES`); else an InputTypeError (a
    list was "unhashable type") or a ConfigurationError naming it: checked before any pair is
    aligned (an unknown name was refused only when the threshold was chosen, after the work)."""
    if not isinstance(rule, str):
        raise InputTypeError(f"rule must be a threshold rule's name ({', '.join(THRESHOLD_RULES)}), not "
                             f"{type(rule).__name__} {shown_value(rule)}")
    if rule not in THRESHOLD_RULES:
        raise ConfigurationError(f"unknown threshold rule {rule!r}: choose from {', '.join(THRESHOLD_RULES)}")
    return rule
