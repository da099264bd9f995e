"""Metric-human correlation with segment-bootstrap confidence intervals and a paired test.

System-level meta-evaluation as in ParaEval section 4.1: each metric's corpus score per system is
correlated (Pearson, Spearman, Kendall tau-b; scipy) with the human scores. Confidence
intervals come from bootstrap resampling: in each of `n_resamples` runs (1,000 by default,
seeded) the segments are drawn with replacement, every system's corpus score is recomputed from
its summed per-segment statistics on that sample, and correlated with the (fixed) human system
scores, as the paper did with documents. The 95% interval is the 2.5th-97.5th percentile.
The paired test uses the *same* resamples for two metrics: the p-value is the share of runs in
which metric A's correlation is not above metric B's (one-sided, A better than B).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import stats as sps

from .._moved import moved_names
from ..errors import (
    ConfigurationError,
    InputTypeError,
    MismatchError,
    check_finite,
    shown_value,
)
from . import DEFAULT_SEED
from .given_scores import (
    NOTHING_TO_RESAMPLE,
    GivenScores,
    GivenSystemScores,
    check_references,
    check_scored,
    given_digests,
)
from .significance import (
    Interval,
    check_bootstrap,
    interval,
    paired_row_correlations,
    seeded_rng,
    too_few_to_correlate,
)

if TYPE_CHECKING:
    from .paraeval.scoring import Scorer

CORRELATIONS: tuple[str, ...] = ("pearson", "spearman", "kendall")


def correlation(kind: str, x: Sequence[float], y: Sequence[float]) -> float:
    """One correlation coefficient by name (nan when undefined, e.g. a constant input); an
    unknown name is a ConfigurationError whatever the scores, and a score that is not a finite
    number a FormatError naming it (:func:`check_finite`)."""
    if kind not in CORRELATIONS:  # before the constant test, which would answer NaN to any name
        raise ConfigurationError(f"unknown correlation {kind!r}; choose from {', '.join(CORRELATIONS)}")
    if len(x) != len(y):
        raise MismatchError(f"{len(x)} metric scores but {len(y)} human scores")
    reason = too_few_to_correlate(len(x), "system")
    if reason is not None:
        raise MismatchError(reason)
    check_finite(x, "metric score")
    check_finite(y, "human score")
    if np.ptp(np.asarray(x, dtype=float)) == 0 or np.ptp(np.asarray(y, dtype=float)) == 0:
        return float("nan")
    return coefficient(kind, x, y)


def coefficient(kind: str, x: Sequence[float], y: Sequence[float]) -> float:
    """scipy's coefficient by name, with no policy of its own on sizes or constant inputs (the
    callers decide: :func:`correlation` for systems, ``similarity.sts`` for STS pairs)."""
    if kind == "pearson":
        return float(sps.pearsonr(x, y)[0])
    if kind == "spearman":
        return float(sps.spearmanr(x, y)[0])
    if kind == "kendall":
        return float(sps.kendalltau(x, y)[0])
    raise ConfigurationError(f"unknown correlation {kind!r}; choose from {', '.join(CORRELATIONS)}")


def correlations(x: Sequence[float], y: Sequence[float]) -> dict[str, float]:
    """Pearson, Spearman and Kendall correlation of x with y, by name."""
    return {kind: correlation(kind, x, y) for kind in CORRELATIONS}


def resample_counts(n_items: int, n_resamples: int = 1000, seed: int = DEFAULT_SEED) -> np.ndarray:
    """(n_resamples, n_items) multiplicities of a with-replacement bootstrap, seeded; at least
    two items, as :func:`~.significance.bootstrap_indices` (:func:`~.significance.check_bootstrap`)."""
    check_bootstrap(n_resamples, n_items)
    rng = seeded_rng(seed)
    idx = rng.integers(0, n_items, size=(n_resamples, n_items))
    counts = np.zeros((n_resamples, n_items), dtype=np.float64)
    np.add.at(counts, (np.arange(n_resamples)[:, None], idx), 1.0)
    return counts


def _row_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of every row of x with y: significance's row correlation (NaN for a constant
    row, told by its values, as :func:`correlation` tells one)."""
    return paired_row_correlations("pearson", x, np.broadcast_to(y, x.shape))


def row_correlations(kind: str, x: np.ndarray, y: Sequence[float]) -> np.ndarray:
    """Correlation of every row of x (resamples x systems) with y, the human scores, each a
    finite number (FormatError naming it: :func:`check_finite`). A row's undefined (NaN) score
    makes its correlation undefined."""
    check_finite(y, "human score")
    target = np.asarray(y, dtype=np.float64)
    if kind == "pearson":
        return _row_pearson(x, target)
    if kind == "spearman":
        return _row_pearson(sps.rankdata(x, axis=1), sps.rankdata(target))
    if kind == "kendall":
        out = np.empty(len(x))
        for b, row in enumerate(x):
            out[b] = sps.kendalltau(row, target)[0] if np.ptp(row) > 0 else np.nan
        return out
    raise ConfigurationError(f"unknown correlation {kind!r}; choose from {', '.join(CORRELATIONS)}")


@dataclass(frozen=True, slots=True)
class PairedTest:
    """Metric A's correlation minus metric B's: point value, bootstrap interval, one-sided p."""

    delta: Interval
    p_value: float

    def to_dict(self) -> dict[str, object]:
        """The difference's interval and p, rounded; an undefined p is None (JSON null, as an
        undefined interval is: NaN is not JSON)."""
        p = None if np.isnan(self.p_value) else round(self.p_value, 4)
        return {**self.delta.to_dict(), "p_value": p}


#: Two correlations closer than this are one number, a tie in the paired test: Spearman's rho of
#: two rankings with the same sum of squared rank differences is computed as two floats a bit
#: apart (0.9761904761904763 and ...762), and so is Pearson's of GM x BP and of BLEU (BLEU / 100
#: at corpus level); the last bit decided those ties at random (p 0.58 or 0.621 as rounding went).
SAME_CORRELATION = 1e-12


def _rounded_ties(values: np.ndarray) -> np.ndarray:
    """`values` (differences of correlations) with those within :data:`SAME_CORRELATION` of 0 as 0."""
    return np.where(np.abs(values) <= SAME_CORRELATION, 0.0, values)


def paired_test(value_a: float, value_b: float, samples_a: np.ndarray,
                samples_b: np.ndarray) -> PairedTest:
    """Does A correlate better than B? p = share of resamples where A <= B (a tie, within
    :data:`SAME_CORRELATION`, is not A above B)."""
    diff = _rounded_ties(np.asarray(samples_a, dtype=np.float64) - samples_b)
    ok = ~np.isnan(diff)
    p = float(np.mean(diff[ok] <= 0)) if ok.any() else float("nan")
    point = value_a - value_b
    return PairedTest(interval(0.0 if abs(point) <= SAME_CORRELATION else point, diff), p)


@dataclass(frozen=True, slots=True)
class MetricCorrelation:
    """One metric's system scores, correlations with intervals, and paired tests. `reason` says
    why the correlations are undefined (NaN, JSON null) when they are not computed at all: too
    few systems (:func:`~.significance.too_few_to_correlate`); None when they are."""

    name: str
    scores: dict[str, float]  # system -> corpus score
    correlations: dict[str, Interval]
    samples: dict[str, np.ndarray]  # kind -> resampled correlations (for paired tests)
    tests: dict[str, dict[str, PairedTest]]  # other metric -> kind -> test
    reason: str | None = None
    #: why the correlations have no interval and no paired test when they have values (system
    #: scores given: :func:`given_correlations`); None when they have both
    interval_reason: str | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {k: v.to_dict() for k, v in self.correlations.items()}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.interval_reason is not None:
            out["interval_reason"] = self.interval_reason
        # an undefined system score (NaN) is null, as an undefined correlation is: NaN is not JSON
        out["scores"] = {k: None if np.isnan(v) else round(v, 6) for k, v in self.scores.items()}
        if self.tests:
            out["vs"] = {other: {k: t.to_dict() for k, t in by_kind.items()}
                         for other, by_kind in self.tests.items()}
        return out


ScoreFn = Callable[[np.ndarray], np.ndarray]


def bootstrap_correlations(
    system_stats: Mapping[str, np.ndarray], score: ScoreFn, human: Mapping[str, float],
    counts: np.ndarray, name: str = "metric",
) -> MetricCorrelation:
    """Correlations of one metric with the human scores, with bootstrap intervals.

    `system_stats[s]` is system s's (segments, k) statistics; `score` maps summed statistics
    (..., k) to scores; `counts` comes from `resample_counts` (share it for paired tests).
    Over fewer than 3 systems with human scores (bad system files left out) the system scores
    are given, but every correlation, interval and resample is undefined (NaN), with the
    `reason`: a correlation over 2 points is +1 or -1 whatever the scores; so too when a
    system's score is undefined (NaN: the paper ParaEval's F of references with no word), and
    when every system has the same score, or the same human score (a constant). A
    human score or a system score that is not a finite number otherwise (inf, or a NaN human
    score) is a FormatError naming the system (:func:`check_finite`).
    """
    names = [s for s in system_stats if s in human]
    full = {s: float(score(system_stats[s].sum(axis=0))) for s in names}
    y, reason = _correlated(full, human, name)
    if reason is not None:
        return _undefined(name, full, reason, len(counts))
    resampled = np.stack([score(counts @ system_stats[s]) for s in names], axis=1)
    x = [full[s] for s in names]
    corrs: dict[str, Interval] = {}
    samples: dict[str, np.ndarray] = {}
    for kind in CORRELATIONS:
        samples[kind] = row_correlations(kind, resampled, y)
        corrs[kind] = interval(correlation(kind, x, y), samples[kind])
    return MetricCorrelation(name, full, corrs, samples, {})


def _correlated(full: Mapping[str, float], human: Mapping[str, float], name: str) -> tuple[list[float], str | None]:
    """The human scores of the systems of `full` (a metric's system scores), each checked finite
    (FormatError naming the system, as a finite metric score is), and why they cannot be
    correlated (too few systems, an undefined metric score, one side constant; None when they can)."""
    check_finite({s: human[s] for s in full}, "the human score")
    y = [human[s] for s in full]
    check_finite({s: v for s, v in full.items() if not np.isnan(v)}, f"the {name} score")
    reason = too_few_to_correlate(len(full), "system") or next(
        (f"the {name} score of system {s!r} is undefined" for s, v in full.items() if np.isnan(v)), None) or \
        constant_reason(((name, list(full.values())), ("human", y)), "system")
    return y, reason


def _undefined(name: str, full: dict[str, float], reason: str, n_resamples: int) -> MetricCorrelation:
    """Metric `name`'s system scores with every correlation, interval and resample undefined (NaN), for `reason`."""
    undefined = np.full(n_resamples, np.nan)
    return MetricCorrelation(name, full, {k: interval(float("nan"), undefined) for k in CORRELATIONS},
                             {k: undefined for k in CORRELATIONS}, {}, reason)


def given_correlations(metric: GivenSystemScores, systems: Iterable[str], human: Mapping[str, float],
                       n_resamples: int) -> MetricCorrelation:
    """Correlations of a metric's given system scores (:class:`.given_scores.GivenSystemScores`)
    with the human scores of `systems` (those correlated, each of which the file must score), as
    :func:`bootstrap_correlations` gives them but with no interval and no paired test: nothing
    the bootstrap over segments resamples changes a given system score, and a ``[r, r]``
    interval would read as certainty (``interval_reason`` says why; the resamples are NaN)."""
    full = {s: metric.system_score(s) for s in systems if s in human}
    y, reason = _correlated(full, human, metric.name)
    if reason is not None:
        return _undefined(metric.name, full, reason, n_resamples)
    x = list(full.values())
    undefined = np.full(n_resamples, np.nan)
    return MetricCorrelation(metric.name, full,
                             {k: interval(correlation(k, x, y), undefined) for k in CORRELATIONS},
                             {k: undefined for k in CORRELATIONS}, {}, interval_reason=NOTHING_TO_RESAMPLE)


def constant_reason(sides: Iterable[tuple[str, Sequence[float] | np.ndarray]], item: str) -> str | None:
    """Why a correlation is undefined when one of its `sides` (what, values: a metric's scores,
    the human scores) has the same value for every `item`; None when none does."""
    return next((f"the {what} score of every {item} is {float(values[0])!r}: a correlation with a constant is "
                 "undefined" for what, values in sides if len(values) and np.ptp(np.asarray(values, dtype=float)) == 0),
                None)


def with_tests(result: MetricCorrelation, others: Iterable[MetricCorrelation]) -> MetricCorrelation:
    """`result` with paired tests against each other metric (same resamples assumed)."""
    tests = dict(result.tests)
    for other in others:
        if other.name == result.name:
            continue
        tests[other.name] = {
            kind: paired_test(result.correlations[kind].value, other.correlations[kind].value,
                              result.samples[kind], other.samples[kind])
            for kind in CORRELATIONS}
    return replace(result, tests=tests)


# -- WMT meta-evaluation ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MetaEvaluation:
    """All metrics' correlations for one language pair and reference set."""

    pair: str
    refs: tuple[str, ...]
    systems: tuple[str, ...]
    n_resamples: int
    seed: int
    metrics: dict[str, MetricCorrelation]
    signatures: dict[str, str]
    unscored: tuple[str, ...] = ()  #: systems left out: an output but no human score
    missing: tuple[str, ...] = ()  #: systems left out: human scores but no output file
    #: the human z-score of each system correlated (what a report plots; not in to_dict)
    human: Mapping[str, float] = field(default_factory=dict, compare=False, repr=False)
    #: "system", "segment" or "both": which of `metrics` (system) and `segment` were measured
    level: str = "system"
    #: metric -> its `segment_correlation.SegmentCorrelation` (level segment or both)
    segment: Mapping[str, Any] = field(default_factory=dict)
    #: systems left out: human scores, but an output file that could not be read
    #: (`corpora.wmt.SkippedSystem`: file, line, reason); ``skipped_systems`` in JSON
    skipped: tuple[Any, ...] = ()
    #: systems with no segment DA score, left out of the segment level (``unjudged`` in JSON
    #: when the segment level was measured)
    unjudged: tuple[str, ...] = ()
    #: (human-scored name, output's name) of the systems left out whose two names differ only in
    #: case (`corpora.wmt.WMTPair.case_twins`; ``case_twins`` in JSON, as the warnings say it)
    case_twins: tuple[tuple[str, str], ...] = ()
    #: meta-eval's own signature (``pair``, ``refs``, ``level``, ``human``, ``text``, ``scores``, ``bs``, ``seed``:
    #: :func:`.meta_signature.meta_signature`); `signatures` are the metrics'
    signature: str = ""

    @property
    def undefined(self) -> tuple[str, ...]:
        """Why system-level correlations are undefined (each reason once; empty when none is)."""
        return tuple(dict.fromkeys(m.reason for m in self.metrics.values() if m.reason))

    @property
    def without_intervals(self) -> tuple[tuple[str, str], ...]:
        """(metric, why) of each system-level metric whose correlations have values but no
        interval and no paired test (system scores given)."""
        return tuple((name, m.interval_reason) for name, m in self.metrics.items() if m.interval_reason)

    @property
    def left_out(self) -> list[tuple[str, list[str]]]:
        """(why, systems) of each kind of system left out that has any, as the text output and
        the report list them: no output file, no human score, an output that cannot be read (with
        its file and reason), no segment score (at segment level)."""
        kinds = (("left out, no output file", list(self.missing)),
                 ("left out, no human score", list(self.unscored)),
                 ("left out, cannot be read", [f"{s.name} ({s})" for s in self.skipped]),
                 ("left out at segment level, no segment scores", list(self.unjudged)))
        return [(label, names) for label, names in kinds if names]

    @property
    def segment_undefined(self) -> tuple[str, ...]:
        """Why segment-level Pearson and Kendall are undefined (too few judged segments, or one
        side constant: each reason once; empty when none is)."""
        return tuple(dict.fromkeys(m.reason for m in self.segment.values() if m.reason))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "pair": self.pair, "refs": list(self.refs), "systems": list(self.systems),
            "unscored": list(self.unscored), "missing": list(self.missing),
            **({"unjudged": list(self.unjudged)} if self.level != "system" else {}),
            "skipped_systems": [s.to_dict() for s in self.skipped],
            "case_twins": [{"human": human, "output": output} for human, output in self.case_twins],
            # `resamples` as every other command's JSON names it; `n_resamples` until paralign 0.3
            "resamples": self.n_resamples, "n_resamples": self.n_resamples, "seed": self.seed,
            "signature": self.signature, "signatures": self.signatures}
        if self.level != "segment":
            out["metrics"] = {k: v.to_dict() for k, v in self.metrics.items()}
        if self.level != "system":
            out["segment"] = {k: v.to_dict() for k, v in self.segment.items()}
        return out


def known_metrics() -> list[str]:
    """Every metric name :func:`resolve_metrics` takes, in the order the messages list them."""
    from .bleu_steps import BASELINES
    from .paraeval.scoring import PARTS

    return ["paraeval", *(f"paraeval_{part}" for part in PARTS), *BASELINES]


def resolve_metrics(names: Iterable[str], paraeval_scorer: Scorer | None = None) -> list:
    """Metric objects from names: baselines (bleu, chrf, ter, mup, gm, gm_bp), `paraeval` (the
    config's headline score, with its P, R and F beside it) or `paraeval_p`/`_r`/`_f`, the
    ParaEval ones from `paraeval_scorer` (a scorer, as :func:`.paraeval.scoring.scorer` builds
    it; default: the ``default`` config's). A name given twice (``paraeval,paraeval_f``) gives
    one metric."""
    from .bleu_steps import baseline
    from .paraeval.scoring import PARTS, GradedParaEval, ParaEval, metrics_of, scorer

    if isinstance(names, str):  # its letters would be the names: "unknown metric 'b'"
        raise InputTypeError(f"names must be a list of metric names, such as [{names!r}], not one str")
    if paraeval_scorer is not None and not isinstance(paraeval_scorer, ParaEval | GradedParaEval):
        # a config name ("paper") was taken for a scorer: an AttributeError once the metric was scored
        raise InputTypeError("paraeval_scorer must be a ParaEval scorer, as paralign.metrics.paraeval.scoring.scorer "
                             f"builds one (scorer('paper')), not {type(paraeval_scorer).__name__} "
                             f"{shown_value(paraeval_scorer)}")
    names = list(names)
    known = known_metrics()
    unknown = [name for name in (n.strip() for n in names) if name and name not in known]
    if unknown:
        raise ConfigurationError(f"unknown metric {unknown[0]!r}; choose from {', '.join(known)}")
    out: list = []
    seen: set[str] = set()
    for name in (n.strip() for n in names):
        if not name:
            continue
        if name == "paraeval" or name.startswith("paraeval_"):
            if paraeval_scorer is None:
                paraeval_scorer = scorer()
            parts = PARTS if name == "paraeval" else (name.rpartition("_")[2],)
            metrics = metrics_of(paraeval_scorer, parts)
        else:
            metrics = [baseline(name)]
        for metric in metrics:
            if metric.name not in seen:
                seen.add(metric.name)
                out.append(metric)
    return out


def metric_statistics(
    data: object, refs: Sequence[str], metrics: Sequence,
    progress: Callable[[Iterable, str, int], Iterable] | None = None,
) -> dict[str, dict[str, np.ndarray]]:
    """Per-segment statistics of every system of a `wmt.WMTPair`, once per statistics family
    (`stats_key`: BLEU steps share sacrebleu's counts, ParaEval P/R/F share theirs):
    stats_key -> system -> (segments, k) array."""
    from ..corpora.wmt import WMTPair

    if not isinstance(data, WMTPair):
        raise ConfigurationError("meta-evaluation needs a WMTPair (corpora.wmt.load_wmt)")
    check_scored(metrics, data)  # a system a scores file lacks: before any is computed
    streams = data.reference_streams(refs)
    by_key: dict[str, dict[str, np.ndarray]] = {}
    for metric in metrics:
        key = getattr(metric, "stats_key", metric.name)
        if isinstance(metric, GivenSystemScores):  # no segments: its scores are the file's
            continue
        if key not in by_key:
            systems: Iterable[str] = data.systems
            if progress is not None:
                systems = progress(list(data.systems), f"{data.pair} {metric.name}",
                                   len(data.systems))
            given = getattr(metric, "system_stats", None)  # GivenScores: read, not computed
            by_key[key] = {s: given(s, len(data)) if given is not None else metric.stats(data.systems[s], streams)
                           for s in systems}
    return by_key


def sacrebleu_signature(name: str, nrefs: int, segment: bool = False) -> str | None:
    """sacrebleu's own signature of the metric behind baseline `name` (``bleu``, ``chrf``,
    ``ter``) with `nrefs` references, as sacrebleu prints it beside a score
    (``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``); `segment`: of its segment
    scores (BLEU's are sentence BLEU, ``eff:yes``; chrF's and TER's are the corpus formula on one
    segment, the same signature). None for a metric that is not sacrebleu's (mup, gm, gm_bp:
    ParaEval's steps, computed here from sacrebleu's BLEU statistics)."""
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.metrics.base import Metric

    makers: dict[str, Callable[[], Metric]] = {"bleu": lambda: BLEU(effective_order=segment), "chrf": CHRF, "ter": TER}
    if name not in makers:
        return None
    metric = makers[name]()
    metric.corpus_score(["a"], [["a"]] * nrefs)  # sacrebleu signs a metric once it has scored (nrefs)
    return str(metric.get_signature())


def signatures_of(metrics: Sequence, nrefs: int, level: str = "system") -> dict[str, str]:
    """Metric name -> the settings signature of its numbers at `level` (system, segment or
    both): a scorer's (ParaEval's), or sacrebleu's for BLEU, chrF and TER
    (:func:`sacrebleu_signature`). Sentence BLEU, BLEU's segment scores, is signed apart as
    ``bleu@segment`` (``eff:yes``); ``bleu`` is the corpus BLEU of the system level."""
    out: dict[str, str] = {}
    for metric in metrics:
        scorer = getattr(metric, "scorer", None)
        if scorer is not None:
            out[metric.name] = scorer.signature(nrefs)
            continue
        if isinstance(metric, GivenScores | GivenSystemScores):
            out[metric.name] = metric.signature
            continue
        segment_apart = metric.name == "bleu"
        if level != "segment" or not segment_apart:
            found = sacrebleu_signature(metric.name, nrefs)
            if found is not None:
                out[metric.name] = found
        if level != "system" and segment_apart:
            sentence = sacrebleu_signature(metric.name, nrefs, segment=True)  # bleu's: never None
            if sentence is not None:
                out[f"{metric.name}@segment"] = sentence
    return out


def meta_evaluate(
    data: object, refs: Sequence[str], metrics: Sequence, *, n_resamples: int = 1000,
    seed: int = DEFAULT_SEED, against: Sequence[str] = ("bleu", "chrf"),
    progress: Callable[[Iterable, str, int], Iterable] | None = None,
    statistics: Mapping[str, Mapping[str, np.ndarray]] | None = None,
    counts: np.ndarray | None = None,
) -> MetaEvaluation:
    """Correlate each metric's system scores with the human z-scores of a `wmt.WMTPair`.

    Statistics are computed once per statistics family (:func:`metric_statistics`, or given as
    `statistics`); all metrics use the same bootstrap resamples (:func:`resample_counts`, or
    given as `counts`), and each metric is
    paired-tested against the metrics named in `against` that are present. Systems the loader
    left out (`data.unscored`, `data.missing`, `data.skipped`) are listed in the result. A
    metric whose file's scores are against other references than `refs` is a MismatchError
    (:func:`.given_scores.check_references`).
    """
    from ..corpora.wmt import WMTPair
    from .meta_signature import meta_signature, pair_part, refs_part

    check_references(metrics, refs)
    refs_part(refs)  # a label its signature cannot write: before any work
    if not isinstance(data, WMTPair):
        raise ConfigurationError("meta_evaluate needs a WMTPair (corpora.wmt.load_wmt)")
    pair_part(data.pair)
    if statistics is None:
        statistics = metric_statistics(data, refs, metrics, progress)
    human = {name: score.z for name, score in data.human.items()}
    if counts is None:
        counts = resample_counts(len(data), n_resamples, seed)
    results: dict[str, MetricCorrelation] = {}
    for metric in metrics:
        if isinstance(metric, GivenSystemScores):
            results[metric.name] = given_correlations(metric, data.systems, human, len(counts))
            continue
        key = getattr(metric, "stats_key", metric.name)
        results[metric.name] = bootstrap_correlations(statistics[key], metric.score, human, counts,
                                                      metric.name)
    baselines = [results[b] for b in against if b in results]
    tested = {name: res if res.interval_reason else with_tests(res, baselines) for name, res in results.items()}
    return MetaEvaluation(data.pair, tuple(refs), tuple(data.systems), n_resamples, seed, tested,
                          signatures_of(metrics, len(refs)), tuple(data.unscored),
                          tuple(data.missing), human, skipped=tuple(data.skipped), case_twins=data.case_twins,
                          signature=meta_signature(data, refs, "system", n_resamples, seed,
                                                   given_digests(metrics)))


__getattr__ = moved_names(__name__, {"given_scores": "paralign.metrics.given_scores"})
