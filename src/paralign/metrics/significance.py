"""Bootstrap confidence intervals and paired bootstrap tests of corpus scores, from per-segment
statistics: what sacrebleu's ``--confidence`` and ``--paired-bs`` give, for any metric here.

A corpus metric is anything with a vectorised ``score(sums)`` over statistics summed on the last
axis (:class:`~paralign.metrics.bleu_steps.SegmentMetric`, ParaEval's metrics from
:func:`~paralign.metrics.paraeval.scoring.metrics_of`). A resample draws the segments with
replacement, so its corpus score is the metric applied to the drawn segments' summed statistics:
the statistics are computed once (sacrebleu's model), never the matching.

The method and its numbers are sacrebleu 2's (:mod:`sacrebleu.significance`), so the two can be
compared and a test checks that BLEU gives sacrebleu's figures:

* **Resamples:** ``numpy.random.default_rng(seed).choice(n, size=(resamples, n))``, seed 12345
  and 1,000 resamples by default, as sacrebleu draws them.
* **Confidence:** the mean of the resampled scores, and ``ci``, half the distance between the
  ``resamples // 40``-th smallest and largest of them (a 95% interval): ``mean ± ci``.
* **Paired bootstrap** (Koehn 2004): a baseline and a system scored on the *same* resamples. The
  statistic is the absolute difference of their corpus scores. Its resampled values are centred
  on their mean, and ``p = (1 + #{centred >= observed}) / (1 + resamples)``: the chance of a
  difference this large if the systems were alike (Davison and Hinkley 1997, eq. 4.11).

  **One deviation:** sacrebleu (after Clark et al.'s 2011 MultEval) counts only ``centred >
  observed``. For two identical systems every difference is 0, so it gives p = 1/(1 + resamples),
  "significant" (sacrebleu 2.6 gives 0.000999 for a system against itself, in both its bs and ar
  tests). Counting ties gives such a pair p = 1. For two different systems a tie between
  continuous differences is all but impossible, and the two p-values agree (the BLEU test).

**Undefined scores:** a resample whose corpus score is undefined (NaN: the paper ParaEval's F of
segments whose references have no word, n/a as the point estimate of those segments would be) is
left out of the mean, the interval and the paired test, not counted as 0: the figures are those
of the same statistic the point estimate is.

:func:`correlation_interval` resamples the same way for a correlation with gold scores (STS:
Pearson or Spearman of a file, or the size-weighted mean of several, each file resampled within
itself): a percentile interval (:class:`Interval`), as meta-evaluation gives.

Not for: metric-human correlations over MT systems and segments (:mod:`.correlation`,
:mod:`.segment_correlation`, which resample source segments for meta-evaluation).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigurationError, FormatError, MismatchError
from . import DEFAULT_RESAMPLES, DEFAULT_SEED

#: A corpus metric's score from statistics summed over segments (vectorised over leading axes).
ScoreFunction = Callable[[np.ndarray], np.ndarray]
#: Fewest items (segments, pairs) a bootstrap interval is defined over: one item resampled is
#: that item every time, an interval of width 0 that would read as certainty.
MIN_RESAMPLED = 2
#: Fewest items (systems, scored pairs) a correlation (Pearson, Spearman, Kendall) and its interval
#: are given over: over 2 points every correlation is +1 or -1 (or undefined) whatever the scores,
#: and so is every resample's, an interval [1, 1] that would read as certainty
#: (:func:`too_few_to_correlate` says why; every command's correlation intervals keep to it).
MIN_CORRELATED = 3
#: Most statistics values gathered at once while resampling (bounds the memory, about 16 MB).
_BLOCK_VALUES = 2_000_000


def too_few_to_correlate(n_items: int, item: str) -> str | None:
    """Why a correlation over `n_items` (`item`: what one is, ``"system"``, ``"scored pair"``) is
    not given, for a reason in JSON or a warning beside the null; None when there are enough
    (:data:`MIN_CORRELATED`)."""
    if n_items >= MIN_CORRELATED:
        return None
    return (f"fewer than {MIN_CORRELATED} {item}s to correlate (got {n_items}): over 2 a correlation is "
            "+1 or -1 whatever the scores")


def seeded_rng(seed: int) -> np.random.Generator:
    """numpy's generator for a bootstrap `seed`, which must be an integer >= 0 (ConfigurationError
    naming it; numpy's own ValueError, "expected non-negative integer", names no setting)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigurationError(f"the bootstrap seed must be at least 0, got {seed!r}")
    return np.random.default_rng(seed)


def check_bootstrap(n_resamples: int, n_segments: int) -> None:
    """ConfigurationError unless a bootstrap of `n_resamples` over `n_segments` means something:
    at least one resample and at least :data:`MIN_RESAMPLED` segments (one segment is drawn every
    time, and its interval of width 0 would read as certainty); MemoryError when no machine holds
    it (:func:`check_resample_size`). Both resamplers check it: :func:`bootstrap_indices` (metric
    intervals) and ``correlation.resample_counts`` (meta-evaluation), which took one segment."""
    if n_resamples < 1:
        raise ConfigurationError(f"the number of resamples must be >= 1, got {n_resamples}")
    if n_segments < MIN_RESAMPLED:
        raise ConfigurationError(f"need at least {MIN_RESAMPLED} segments to resample, got {n_segments}: "
                                 "one is drawn every time, an interval of width 0")
    check_resample_size(n_resamples, n_segments)


def check_resample_size(n_resamples: int, n_items: int) -> None:
    """MemoryError when a (resamples, items) array of 8-byte numbers is larger than any array can
    be: numpy refuses one with ValueError ("array is too big", "Maximum allowed dimension
    exceeded") or OverflowError, where a merely too large one is its MemoryError, so every size
    no machine holds is the same error (the CLI's "out of memory", exit 1; a traceback before)."""
    if n_resamples * max(n_items, 1) * 8 > sys.maxsize:
        raise MemoryError(f"{n_resamples} resamples of {n_items} items: a bootstrap larger than any array can be")


def bootstrap_indices(n_segments: int, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> np.ndarray:
    """(resamples, segments) segment indices drawn with replacement, as sacrebleu draws them; at
    least :data:`MIN_RESAMPLED` segments (ConfigurationError otherwise: one segment is drawn every
    time, and its interval of width 0 would read as certainty: :func:`check_bootstrap`)."""
    check_bootstrap(n_resamples, n_segments)
    return seeded_rng(seed).choice(n_segments, size=(n_resamples, n_segments), replace=True)


def resampled_scores(stats: np.ndarray, score: ScoreFunction, indices: np.ndarray) -> np.ndarray:
    """The corpus score of every resample (a row of `indices`) of the segments' `stats`."""
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim != 2 or indices.ndim != 2 or indices.shape[1] != len(stats):
        raise MismatchError(f"{indices.shape[-1]} resampled segments but statistics of shape {stats.shape}")
    block = max(1, _BLOCK_VALUES // max(1, stats.size))
    out = np.empty(len(indices))
    for start in range(0, len(indices), block):
        out[start:start + block] = score(stats[indices[start:start + block]].sum(axis=1))
    return out


def estimate_ci(samples: np.ndarray) -> tuple[float, float]:
    """The mean of `samples` and half the width of their 95% interval (sacrebleu's
    ``estimate_ci``: the ``n // 40``-th smallest and largest, no interpolation), over the
    defined ones (NaN left out, as :func:`interval` does; NaN, NaN when none is)."""
    ordered = np.sort(np.asarray(samples, dtype=np.float64))
    ordered = ordered[~np.isnan(ordered)]
    if not len(ordered):
        return float("nan"), float("nan")
    low = len(ordered) // 40
    return float(ordered.mean()), float(0.5 * (ordered[len(ordered) - low - 1] - ordered[low]))


@dataclass(frozen=True, slots=True)
class Confidence:
    """A corpus score with the mean and 95% half-width of its bootstrap resamples."""

    score: float
    mean: float
    ci: float
    resamples: int
    seed: int

    def to_dict(self) -> dict[str, float | int]:
        return {"score": self.score, "mean": self.mean, "ci": self.ci, "resamples": self.resamples,
                "seed": self.seed}


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """A system against a baseline on the same resamples: both corpus scores, the p-value of
    their difference and the system's confidence over those resamples."""

    score: float
    baseline_score: float
    p_value: float
    confidence: Confidence

    def to_dict(self) -> dict[str, object]:
        return {"score": self.score, "baseline_score": self.baseline_score, "p_value": self.p_value,
                "confidence": self.confidence.to_dict()}


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with its bootstrap percentile interval."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        return {k: (None if np.isnan(v) else round(float(v), 4))
                for k, v in (("value", self.value), ("low", self.low), ("high", self.high))}


def check_level(level: float) -> None:
    """ConfigurationError unless `level`, an interval's coverage, is a share in (0, 1] (numpy's
    "Percentiles must be in the range [0, 100]" named no setting for 95 given for 0.95)."""
    if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)) or not 0 < level <= 1:
        raise ConfigurationError(f"the interval's level must be a share above 0 and at most 1 (0.95 for a 95% "
                                 f"interval), got {level!r}")


def interval(value: float, samples: np.ndarray, level: float = 0.95) -> Interval:
    """`value` with the central `level` percentile interval of its bootstrap `samples` (NaNs dropped)."""
    check_level(level)
    tail = 100 * (1 - level) / 2
    samples = samples[~np.isnan(samples)]
    if not len(samples):
        return Interval(value, float("nan"), float("nan"))
    low, high = np.percentile(samples, [tail, 100 - tail])
    return Interval(float(value), float(low), float(high))


def corpus_score(stats: np.ndarray, score: ScoreFunction) -> float:
    """The corpus score of all the segments' `stats` (what each resample recomputes)."""
    return float(score(np.asarray(stats, dtype=np.float64).sum(axis=0)))


def _confidence(stats: np.ndarray, score: ScoreFunction, resampled: np.ndarray, n_resamples: int,
                seed: int) -> Confidence:
    mean, ci = estimate_ci(resampled)
    return Confidence(corpus_score(stats, score), mean, ci, n_resamples, seed)


def confidence(
    stats: np.ndarray, score: ScoreFunction, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
) -> Confidence:
    """The corpus score of a system's segment `stats` with its bootstrap mean and 95% half-width."""
    indices = bootstrap_indices(len(stats), n_resamples, seed)
    return _confidence(stats, score, resampled_scores(stats, score, indices), n_resamples, seed)


def paired_bootstraps(
    baseline_stats: np.ndarray, systems_stats: Sequence[np.ndarray], score: ScoreFunction, *,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
) -> tuple[Confidence, list[PairedComparison]]:
    """The baseline's confidence, and each system against the baseline (the same segments, in the
    same order): the paired bootstrap test of the module text, over the resamples where both
    scores are defined (p NaN when either corpus score is not). The baseline is resampled once,
    however many systems are compared with it."""
    n_segments = len(baseline_stats)
    for stats in systems_stats:
        if len(stats) != n_segments:
            raise MismatchError(f"the baseline has {n_segments} segments but the system {len(stats)}")
    indices = bootstrap_indices(n_segments, n_resamples, seed)
    baseline = resampled_scores(baseline_stats, score, indices)
    baseline_score = corpus_score(baseline_stats, score)
    compared = []
    for stats in systems_stats:
        system = resampled_scores(stats, score, indices)
        system_confidence = _confidence(stats, score, system, n_resamples, seed)
        observed = abs(system_confidence.score - baseline_score)
        differences = np.abs(system - baseline)
        differences = differences[~np.isnan(differences)]  # resamples where either is undefined
        centred = differences - differences.mean() if len(differences) else differences
        p_value = (float("nan") if np.isnan(observed) or not len(differences)
                   else (int(np.sum(centred >= observed)) + 1) / (len(differences) + 1))
        compared.append(PairedComparison(system_confidence.score, baseline_score, p_value, system_confidence))
    return _confidence(baseline_stats, score, baseline, n_resamples, seed), compared


def paired_bootstrap(
    baseline_stats: np.ndarray, system_stats: np.ndarray, score: ScoreFunction, *,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
) -> PairedComparison:
    """One system against a baseline (:func:`paired_bootstraps`)."""
    return paired_bootstraps(baseline_stats, [system_stats], score, n_resamples=n_resamples, seed=seed)[1][0]


def correlation_interval(
    groups: Sequence[tuple[Sequence[float], Sequence[float]]], kind: str = "pearson", *,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
) -> Interval:
    """The size-weighted mean correlation (``pearson`` or ``spearman``) of (scores, gold) groups,
    e.g. STS files (SemEval's aggregate; one group: its correlation), with the central `level`
    percentile interval of its bootstrap: each resample draws every group's items with
    replacement, within the group, and recomputes the weighted mean. A resample whose
    correlation is undefined (a constant draw) is left out of the interval. Every group needs
    :data:`MIN_CORRELATED` items (MismatchError otherwise), each a finite number (FormatError
    naming the group and item, 1-based: a NaN made the correlation NaN without a word)."""
    if kind not in ("pearson", "spearman"):
        raise ConfigurationError(f"unknown correlation {kind!r}; choose pearson or spearman")
    check_level(level)  # before the resampling, not after it
    arrays = [(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)) for x, y in groups]
    if not arrays or any(len(x) != len(y) or len(x) < MIN_CORRELATED for x, y in arrays):
        raise MismatchError(f"every group needs as many scores as gold values, and at least {MIN_CORRELATED}")
    for number, (x, y) in enumerate(arrays, start=1):
        for what, values in (("score", x), ("gold value", y)):
            bad = np.flatnonzero(~np.isfinite(values))
            if len(bad):
                raise FormatError(f"group {number}: {what} {bad[0] + 1} is {float(values[bad[0]])!r}, "
                                  "not a finite number")
    check_resample_size(n_resamples, max(len(x) for x, _ in arrays))
    rng = seeded_rng(seed)
    sizes = np.array([len(x) for x, _ in arrays], dtype=np.float64)
    full, resampled = np.empty(len(arrays)), np.empty((n_resamples, len(arrays)))
    for k, (x, y) in enumerate(arrays):
        full[k] = paired_row_correlations(kind, x[None, :], y[None, :])[0]
        draws = rng.choice(len(x), size=(n_resamples, len(x)), replace=True)
        resampled[:, k] = paired_row_correlations(kind, x[draws], y[draws])
    return interval(float(full @ sizes / sizes.sum()), resampled @ sizes / sizes.sum(), level)


def paired_row_correlations(kind: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The correlation of each row of `x` with the same row of `y` (NaN where one is constant):
    :func:`correlation_interval`'s resamples, and meta-evaluation's
    (:func:`~paralign.metrics.correlation.row_correlations`).

    Constant is told by the values (every one the same), not by the centred values summing to
    0: three 0.1s have the mean 0.10000000000000002, and centred on it they are a tiny constant
    that correlated as exactly +1 or -1 with any other constant."""
    if kind == "spearman":
        from scipy.stats import rankdata

        x, y = rankdata(x, axis=1), rankdata(y, axis=1)
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, not constant
        constant = (np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0)
    xc, yc = _centred(x), _centred(y)
    denom = np.sqrt((xc ** 2).sum(axis=1) * (yc ** 2).sum(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        found = np.where(denom > 0, (xc * yc).sum(axis=1) / np.where(denom > 0, denom, 1), np.nan)
    return np.where(constant, np.nan, np.clip(found, -1.0, 1.0))


def _centred(values: np.ndarray) -> np.ndarray:
    """Each row of `values` centred on its mean, then scaled to at most 1 in size (as scipy's
    pearsonr does; Pearson does not change): the squares of scores of 1e300 overflowed to inf
    and those of 1e-170 underflowed to 0, a correlation of 0 or NaN where scipy's is defined."""
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, an undefined correlation
        centred = values - values.mean(axis=1, keepdims=True)
        size = np.abs(centred).max(axis=1, keepdims=True)
        return centred / np.where(size > 0, size, 1)
