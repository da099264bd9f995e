"""Segment-level meta-evaluation: metric segment scores against WMT segment DA judgments.

Two views, as the WMT metrics tasks report them:

- **DARR** (WMT17-21 "relative ranking from DA"): for one source segment, every pair of system
  outputs whose *raw* DA scores differ by more than 25 points is a pair; the metric is concordant
  when it orders the two as the humans did, discordant when it orders them the other way, and
  tied when it gives both the same score. WMT20/21's Kendall-like tau counts a metric tie as
  discordant: ``(C - D - T) / (C + D + T)``. The variant with ties left out,
  ``(C - D) / (C + D)``, is reported beside it (``darr_tau_no_ties``), with the counts;
  ``identical`` counts the pairs whose two outputs are the same text (a tie for any metric).
- **Pearson and Kendall tau-b over all judged segments**, no grouping: every (system, segment)
  with a DA judgment is one point, its metric segment score against its DA *z*-score (undefined,
  with a reason, over fewer than 3 points, as a system-level correlation is).

Everything is computed from per-source-segment statistics, once per metric (the sacrebleu shape):
DARR counts ``(C, D, T)`` and Pearson sums ``(n, Sx, Sy, Sxx, Syy, Sxy)`` per segment, so a
bootstrap resample of source segments (seeded; the multiplicities of
:func:`~paralign.metrics.correlation.resample_counts`) is one matrix product. Kendall tau-b is not
a sum over segments: each resample is re-ranked by scipy.

A metric's segment scores are its ``segment_score(stats)`` when it has one (BLEU: sentence BLEU
as ``sacrebleu.sentence_bleu``, effective order), else ``score(stats)`` row by row on its
per-segment statistics (chrF: sacrebleu's sentence chrF). A score that is undefined for a
segment (ParaEval precision of an empty output: nan) counts as 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
from scipy import stats as sps

from ..errors import ConfigurationError, FormatError, MismatchError, counted
from . import LEVELS  # beside f_measure, so the CLI lists the levels without loading numpy
from .correlation import (
    DEFAULT_SEED,
    Interval,
    MetaEvaluation,
    constant_reason,
    given_digests,
    interval,
    meta_evaluate,
    metric_statistics,
    resample_counts,
    signatures_of,
)
from .given_scores import GivenSystemScores, check_levels, check_references
from .significance import MIN_CORRELATED, too_few_to_correlate

#: Raw DA points by which two outputs must differ to form a DARR pair (WMT17-21).
DARR_MARGIN = 25.0
SEGMENT_CORRELATIONS = ("darr_tau", "darr_tau_no_ties", "pearson", "kendall")


class JudgedScore(Protocol):
    """What :func:`judged_segments` reads of a segment judgment (`corpora.wmt.SegmentScore`)."""

    @property
    def system(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def raw(self) -> float: ...
    @property
    def z(self) -> float: ...


@dataclass(frozen=True, slots=True)
class JudgedSegments:
    """The human side, fixed for every metric: judged points and the DARR pairs among them.

    Points are (system, line) with a DA judgment, sorted by line; `pairs` index points
    (`better`, `worse`: raw DA of `better` above `worse`'s by more than the margin).
    """

    systems: tuple[str, ...]
    system: np.ndarray  # point -> index into systems
    line: np.ndarray  # point -> 0-based line
    raw: np.ndarray
    z: np.ndarray
    better: np.ndarray  # pair -> point
    worse: np.ndarray  # pair -> point
    identical: np.ndarray  # pair -> the two outputs are the same text
    n_lines: int

    @property
    def pair_line(self) -> np.ndarray:
        return self.line[self.better]


def judged_segments(
    scores: Iterable[JudgedScore], outputs: Mapping[str, Sequence[str]], n_lines: int,
    margin: float = DARR_MARGIN,
) -> JudgedSegments:
    """Points and DARR pairs from `corpora.wmt.SegmentScore`-like records (`system`, `line`,
    `raw`, `z`) of the systems in `outputs` (name -> segments, used to find identical outputs);
    one record per system and line (MismatchError for a second: `corpora.wmt` averages a
    segment's judgments into one). A raw or z score that is not a finite number is a
    FormatError naming the system and line (1-based): a NaN raw score formed no DARR pair
    without a word, and a NaN or infinite z made Pearson NaN (`corpora.wmt` refuses one in a
    file, naming the file and line)."""
    systems = tuple(outputs)
    index = {name: k for k, name in enumerate(systems)}
    scores = [s for s in scores if s.system in index]
    for s in scores:
        for kind, value in (("raw", s.raw), ("z", s.z)):
            if not np.isfinite(value):
                raise FormatError(f"the human {kind} score of system {s.system!r} on line {s.line + 1} is "
                                  f"{float(value)!r}, not a finite number")
    rows = sorted((s.line, index[s.system], s.raw, s.z) for s in scores)
    if not rows:
        raise MismatchError("no segment judgments for the systems scored")
    line, system, raw, z = (np.asarray(col) for col in zip(*rows, strict=True))
    if line.max() >= n_lines:
        raise MismatchError(f"a judgment on line {line.max() + 1} but only {n_lines} segments")
    if line.min() < 0:  # numpy would read it from the end
        raise MismatchError(f"a judgment on line {line.min()} (0-based): lines start at 0")
    twice = np.flatnonzero((np.diff(line) == 0) & (np.diff(system) == 0))
    if len(twice):  # two judgments of one output would be a DARR pair of the system with itself
        k = twice[0]
        raise MismatchError(f"system {systems[system[k]]!r} is judged twice on line {line[k] + 1}")
    better: list[int] = []
    worse: list[int] = []
    bounds = np.flatnonzero(np.diff(line)) + 1
    for start, stop in zip(np.r_[0, bounds], np.r_[bounds, len(line)], strict=True):
        a, b = np.triu_indices(stop - start, k=1)
        a, b = a + start, b + start
        diff = raw[a] - raw[b]
        keep = np.abs(diff) > margin
        a, b, diff = a[keep], b[keep], diff[keep]
        better.extend(np.where(diff > 0, a, b).tolist())
        worse.extend(np.where(diff > 0, b, a).tolist())
    better_a, worse_a = np.asarray(better, dtype=np.int64), np.asarray(worse, dtype=np.int64)
    identical = np.array([outputs[systems[system[p]]][line[p]] == outputs[systems[system[q]]][line[q]]
                          for p, q in zip(better_a, worse_a, strict=True)], dtype=bool)
    return JudgedSegments(systems, system.astype(np.int64), line.astype(np.int64),
                          raw.astype(np.float64), z.astype(np.float64), better_a, worse_a,
                          identical, n_lines)


def darr_statistics(judged: JudgedSegments, points: np.ndarray) -> np.ndarray:
    """(lines, 3) concordant / discordant / tied DARR pairs per source segment."""
    diff = points[judged.better] - points[judged.worse]
    line = judged.pair_line
    return np.stack([np.bincount(line, weights=cond, minlength=judged.n_lines)
                     for cond in (diff > 0, diff < 0, diff == 0)], axis=1)


def darr_tau(sums: np.ndarray, ties_discordant: bool = True) -> np.ndarray:
    """WMT's Kendall-like tau from summed (C, D, T) on the last axis (nan without pairs)."""
    c, d, t = sums[..., 0], sums[..., 1], sums[..., 2]
    bad = d + t if ties_discordant else d
    total = c + bad
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, (c - bad) / np.where(total > 0, total, 1), np.nan)


def pearson_statistics(judged: JudgedSegments, points: np.ndarray) -> np.ndarray:
    """(lines, 6) Pearson sums per source segment: n, Sx, Sy, Sxx, Syy, Sxy (both centred on
    their overall means, for accuracy, and scaled by a power of two to a largest magnitude in
    [0.5, 1), so that squares of tiny or huge scores neither underflow nor overflow: z scores of
    1e-200 gave Sxx = 0, an undefined Pearson where scipy's is 1; Pearson does not change, and
    for ordinary scores not even in its last bit, a power of two scaling exactly)."""
    x = _power_of_two_scaled(points - points.mean())
    y = _power_of_two_scaled(judged.z - judged.z.mean())
    cols = (np.ones_like(x), x, y, x * x, y * y, x * y)
    return np.stack([np.bincount(judged.line, weights=c, minlength=judged.n_lines) for c in cols],
                    axis=1)


def _power_of_two_scaled(values: np.ndarray) -> np.ndarray:
    """`values` times the power of two that brings their largest magnitude into [0.5, 1) (as they
    are when all are 0)."""
    largest = float(np.max(np.abs(values))) if values.size else 0.0
    return values if largest == 0.0 else np.ldexp(values, -np.frexp(largest)[1])


def pearson_from_sums(sums: np.ndarray) -> np.ndarray:
    """Pearson r from (n, Sx, Sy, Sxx, Syy, Sxy) on the last axis (nan when undefined)."""
    n, sx, sy, sxx, syy, sxy = (sums[..., k] for k in range(6))
    with np.errstate(divide="ignore", invalid="ignore"):
        cov = sxy - sx * sy / n
        var = (sxx - sx * sx / n) * (syy - sy * sy / n)
        return np.where(var > 0, cov / np.sqrt(np.where(var > 0, var, 1)), np.nan)


def _drawn_points(judged: JudgedSegments, counts: np.ndarray) -> np.ndarray:
    """How many of the judged points each resample drew at least once (a line drawn twice
    repeats its points: no new one)."""
    sizes = np.bincount(judged.line, minlength=judged.n_lines)
    return (counts > 0).astype(np.float64) @ sizes


def _resampled_kendall(judged: JudgedSegments, points: np.ndarray,
                       counts: np.ndarray, enough: np.ndarray) -> np.ndarray:
    """Kendall tau-b of every resample of source segments (points repeated by multiplicity);
    NaN where not `enough` (it drew fewer than :data:`MIN_CORRELATED` points: +1 or -1 whatever
    the scores)."""
    starts = np.searchsorted(judged.line, np.arange(judged.n_lines))
    sizes = np.bincount(judged.line, minlength=judged.n_lines)
    out = np.full(len(counts), np.nan)
    for r, row in enumerate(counts.astype(np.int64)):
        if not enough[r]:
            continue
        lines = np.repeat(np.arange(judged.n_lines), row)
        lengths = sizes[lines]
        offsets = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        idx = np.repeat(starts[lines], lengths) + offsets
        out[r] = sps.kendalltau(points[idx], judged.z[idx])[0]
    return out


def segment_summary(judged: int, pairs: Mapping[str, int]) -> str:
    """The line that heads the segment level in the text output and the report: the judged
    points and DARR pairs (a metric's ``judged`` and ``darr_pairs`` in JSON), and how the two
    DARR taus treat ties."""
    return (f"{counted(judged, 'judged segment')}, {counted(pairs['pairs'], 'DARR pair')} "
            f"({pairs['identical']} of identical outputs); darr_tau counts metric ties as discordant "
            "(WMT20/21), darr_tau_no_ties leaves them out")


@dataclass(frozen=True, slots=True)
class SegmentCorrelation:
    """One metric at segment level: DARR taus, Pearson and Kendall tau-b, with the counts."""

    name: str
    correlations: dict[str, Interval]  # SEGMENT_CORRELATIONS -> value [low, high]
    pairs: dict[str, int]  # DARR pairs, concordant, discordant, ties, identical
    judged: int  # (system, segment) points in Pearson / Kendall
    undefined: int  # points whose metric score was undefined (counted as 0)
    #: why Pearson and Kendall are undefined (too few judged points, MIN_CORRELATED, or a side
    #: constant); None when they are not
    reason: str | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {k: v.to_dict() for k, v in self.correlations.items()}
        if self.reason is not None:
            out["reason"] = self.reason
        out["darr_pairs"] = dict(self.pairs)
        out["judged"] = self.judged
        out["undefined"] = self.undefined
        return out


def segment_points(judged: JudgedSegments, scores: Mapping[str, np.ndarray],
                   name: str = "metric") -> tuple[np.ndarray, int]:
    """The metric score of every judged point (undefined scores as 0) and how many were undefined;
    MismatchError naming a judged system with no scores or another number than the lines;
    FormatError naming the system and line (1-based) of an infinite score, which no metric
    gives (it was read as the largest float, and Pearson's sums of its square were NaN)."""
    for system in judged.systems:
        if system not in scores:
            raise MismatchError(f"no segment scores for system {system!r}")
        if np.shape(scores[system]) != (judged.n_lines,):
            raise MismatchError(f"system {system!r} has segment scores of shape {np.shape(scores[system])}, "
                                f"not one per line ({judged.n_lines})")
    matrix = np.stack([np.asarray(scores[s], dtype=np.float64) for s in judged.systems])
    points = matrix[judged.system, judged.line]
    infinite = np.flatnonzero(np.isinf(points))
    if len(infinite):
        k = infinite[0]
        raise FormatError(f"the {name} segment score of system {judged.systems[judged.system[k]]!r} on line "
                          f"{judged.line[k] + 1} is {float(points[k])!r}, not a finite number")
    undefined = int(np.isnan(points).sum())
    return np.nan_to_num(points, nan=0.0), undefined


def segment_correlation(
    judged: JudgedSegments, scores: Mapping[str, np.ndarray], counts: np.ndarray,
    name: str = "metric",
) -> SegmentCorrelation:
    """Segment-level correlations of one metric (`scores[system]`: one score per line), with
    95% intervals over `counts` (resamples x lines, from `resample_counts`). Pearson and Kendall
    over fewer than :data:`MIN_CORRELATED` judged points are undefined (NaN) with the `reason`,
    as the system level's are, and so is a resample's that drew fewer: over 2 points they are
    +1 or -1 whatever the scores; so are they, with theirs, when the metric or the human side
    is one constant. The DARR taus, shares of pairs, are given over any pairs."""
    if counts.shape[1] != judged.n_lines:
        raise MismatchError(f"{counts.shape[1]} resampled segments but {judged.n_lines} lines")
    points, undefined = segment_points(judged, scores, name)
    darr = darr_statistics(judged, points)
    sums = pearson_statistics(judged, points)
    darr_total, darr_resampled = darr.sum(axis=0), counts @ darr
    reason = too_few_to_correlate(len(points), "judged segment") or constant_reason(
        ((name, points), ("human z", judged.z)), "judged segment")
    enough = _drawn_points(judged, counts) >= MIN_CORRELATED
    nan = float("nan")
    corrs = {
        "darr_tau": interval(float(darr_tau(darr_total)), darr_tau(darr_resampled)),
        "darr_tau_no_ties": interval(float(darr_tau(darr_total, False)),
                                     darr_tau(darr_resampled, False)),
        "pearson": interval(nan if reason else float(pearson_from_sums(sums.sum(axis=0))),
                            np.where(enough, pearson_from_sums(counts @ sums), nan)),
        "kendall": interval(nan if reason else float(sps.kendalltau(points, judged.z)[0]),
                            _resampled_kendall(judged, points, counts, enough)),
    }
    c, d, t = (int(v) for v in darr_total)
    pairs = {"pairs": c + d + t, "concordant": c, "discordant": d, "ties": t,
             "identical": int(judged.identical.sum())}
    return SegmentCorrelation(name, corrs, pairs, len(points), undefined, reason)


def segment_meta_evaluate(
    data: object, metrics: Sequence, statistics: Mapping[str, Mapping[str, np.ndarray]],
    counts: np.ndarray,
) -> dict[str, SegmentCorrelation]:
    """Every metric's segment-level correlations on a `wmt.WMTPair` loaded with segment scores,
    from the per-segment `statistics` of :func:`correlation.metric_statistics`; a metric with
    system scores only (:class:`.given_scores.GivenSystemScores`) has none, and is left out."""
    from ..corpora.wmt import WMTPair

    if not isinstance(data, WMTPair):  # as meta_evaluate refuses it
        raise ConfigurationError("segment meta-evaluation needs a WMTPair (corpora.wmt.load_wmt)")
    if not data.segment_scores:
        raise ConfigurationError("segment level needs the segment DA (load_wmt(..., segments=True))")
    judged = judged_segments(data.segment_scores, data.systems, len(data))
    out: dict[str, SegmentCorrelation] = {}
    for metric in (m for m in metrics if not isinstance(m, GivenSystemScores)):
        by_system = statistics[getattr(metric, "stats_key", metric.name)]
        score = getattr(metric, "segment_score", metric.score)
        scores = {s: np.asarray(score(by_system[s]), dtype=np.float64) for s in by_system}
        out[metric.name] = segment_correlation(judged, scores, counts, metric.name)
    return out


def meta_evaluate_levels(
    data: object, refs: Sequence[str], metrics: Sequence, *, level: str = "system",
    n_resamples: int = 1000, seed: int = DEFAULT_SEED,
    progress: Callable[[Iterable, str, int], Iterable] | None = None,
) -> MetaEvaluation:
    """:func:`correlation.meta_evaluate` at system level, segment level or both, from one
    computation of the per-segment statistics and one set of bootstrap resamples of segments."""
    from ..corpora.wmt import WMTPair
    from .meta_signature import meta_signature, pair_part, refs_part

    if level not in LEVELS:
        raise ConfigurationError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    check_levels(metrics, level)
    check_references(metrics, refs)  # a file's scores against another reference ("all": in the command)
    refs_part(refs)  # a label its signature cannot write: before any work
    if not isinstance(data, WMTPair):  # as metric_statistics refuses it, with its words
        raise ConfigurationError("meta-evaluation needs a WMTPair (corpora.wmt.load_wmt)")
    pair_part(data.pair)  # a pair its signature cannot write: before any work
    statistics = metric_statistics(data, refs, metrics, progress)
    counts = resample_counts(len(data), n_resamples, seed)
    if level == "segment":
        result = MetaEvaluation(
            data.pair, tuple(refs), tuple(data.systems), n_resamples, seed, {},
            signatures_of(metrics, len(refs), level), tuple(data.unscored),
            tuple(data.missing), skipped=tuple(data.skipped), case_twins=data.case_twins)
    else:
        result = meta_evaluate(data, refs, metrics, n_resamples=n_resamples, seed=seed,
                               statistics=statistics, counts=counts)
    if level == "system":
        return result
    return replace(result, level=level, signatures=signatures_of(metrics, len(refs), level),
                   signature=meta_signature(data, refs, level, n_resamples, seed, given_digests(metrics)),
                   segment=segment_meta_evaluate(data, metrics, statistics, counts), unjudged=data.unjudged)
