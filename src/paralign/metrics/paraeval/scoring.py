"""One way to build a ParaEval scorer from a config name, for the library and the CLI alike,
and its metrics for meta-evaluation (the headline ``paraeval`` beside ``paraeval_p/_r/_f``).

`scorer("default")` in Python and ``paralign paraeval`` on the shell give the same numbers: both
take the config's resources (PPDB + WordNet) unless sources are given.

Not for: matching (:mod:`.paper`, :mod:`.graded`) or the command line.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TypedDict, Unpack

from ...errors import ConfigurationError, InputTypeError, check_count, shown_value
from ...paraphrases import ParaphraseSource
from ...workers import Progress, run_chunks, stop_batch
from ..significance import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MIN_RESAMPLED,
    Confidence,
    confidence,
    corpus_score,
    paired_bootstraps,
)
from .configs import DEFAULT, Config, get_config
from .graded import COLUMNS, GradedParaEval, score_parts
from .inputs import check_hypotheses, check_names, check_references
from .paper import STAT_COLUMNS, PaperOptions, ParaEval, ParaEvalMetric, build_sources

if TYPE_CHECKING:
    import numpy as np

    from ...neural import Encoder
    from .paper_values import ParaEvalScore

Scorer = ParaEval | GradedParaEval
#: The parts every config reports: the headline score, precision, recall and F.
PARTS = ("score", "p", "r", "f")


class ScorerOptions(PaperOptions, total=False):
    """What :func:`scorer` takes besides the config (and so :func:`paraeval`)."""

    resources: Iterable[str] | None
    tables: Iterable[str]
    sources: Sequence[ParaphraseSource] | None
    max_length: int | None
    progress: Progress | None
    encoder: str | os.PathLike[str] | Encoder | None
    device: str | None


class GradedFigures(TypedDict):
    """A graded statistics row's scores (:func:`graded_dict`), as the JSON output shows them."""

    score: float | None
    precision: float
    recall: float | None
    f: float | None
    signature: str
    counts: dict[str, int | float]


def scorer(
    config: str | Config = DEFAULT, *, resources: Iterable[str] | None = None,
    tables: Iterable[str] = (), sources: Sequence[ParaphraseSource] | None = None,
    max_length: int | None = None, progress: Progress | None = None,
    encoder: str | os.PathLike[str] | Encoder | None = None, device: str | None = None,
    **paper_options: Unpack[PaperOptions],
) -> Scorer:
    """The scorer of a config. Sources: `sources` if given, else `resources` (names; default
    the config's: ppdb, wordnet) plus `tables` (``path[:threshold]``, each table's rows wrapped
    by `progress` as they are read). `paper_options` are the paper scorer's other settings
    (min_paraphrase_length, lowercase, ...).

    `encoder` and `device` are the contextual tier's (a config whose tiers include
    ``contextual``): the encoder's model (an installed model package or a local Hugging Face
    model directory; default: the ``PARALIGN_ENCODER`` setting, else the shipped MiniLM) and
    where it runs (auto, cpu, cuda, cuda:N; default auto), or an :class:`~paralign.neural.Encoder`
    itself (then no `device`: it has its own). The signature names the encoder; the device
    changes no score and is not in it. Given for a config without the contextual tier, they are
    a ConfigurationError: nothing would use them."""
    check_names(resources, tables)
    cfg = get_config(config)
    vectors = contextual_encoder(cfg, encoder, device)
    if max_length is not None:
        cfg = cfg.with_(max_length=max_length)
    if sources is None:
        sources = build_sources(cfg.resources if resources is None else list(resources), tables, progress)
    unknown = sorted(set(paper_options) - set(paper_option_names()))
    if unknown:
        raise ConfigurationError(f"unknown ParaEval option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                                 f"(the paper config's options: {', '.join(paper_option_names())})")
    if cfg.scorer == "paper":
        return ParaEval(sources, max_length=cfg.max_length, **paper_options)
    if paper_options:
        raise ConfigurationError(f"{', '.join(sorted(paper_options))}: only for the paper config "
                                 f"(config='paper', --config paper), not {cfg.name!r}")
    return GradedParaEval(cfg, sources, vectors)


def contextual_encoder(config: Config, encoder: str | os.PathLike[str] | Encoder | None,
                       device: str | None) -> Encoder | None:
    """The Encoder of a config's contextual tier for :func:`scorer`'s `encoder` and `device`: the
    one given, or one of that model on that device; None when neither is given (the scorer makes
    the default one: the ``PARALIGN_ENCODER`` setting on ``auto``). A ConfigurationError for
    either given to a config without the contextual tier, or for a device beside an Encoder."""
    given = [name for name, value in (("encoder", encoder), ("device", device)) if value is not None]
    if not given:
        return None
    if "contextual" not in config.tiers:
        raise ConfigurationError(f"{' and '.join(given)}: only for a config with the contextual tier "
                                 f"(config='contextual', --config contextual), not {config.name!r}")
    from ...neural import Encoder

    if isinstance(encoder, Encoder):
        if device is not None:
            raise ConfigurationError("give an Encoder (which has its own device) or a device, not both")
        return encoder
    return Encoder(encoder, device=device or "auto")


def paper_option_names() -> tuple[str, ...]:
    """The paper scorer's settings that :func:`make_scorer` passes on (its keyword arguments
    other than the sources and the phrase length, which every config has)."""
    import inspect

    names = inspect.signature(ParaEval.__init__).parameters
    return tuple(name for name in names if name not in ("self", "sources", "max_length"))


class GradedMetric:
    """One part of a graded scorer (headline score, p, r or f) as a `bleu_steps.SegmentMetric`:
    corpus scores with the config's system-level parameters, segment scores with its
    segment-level ones. Parts of one scorer share `stats_key` (aligned once)."""

    def __init__(self, item: GradedParaEval, part: str = "score", label: str = "paraeval") -> None:
        if part not in PARTS:
            raise ConfigurationError(f"ParaEval part must be one of {', '.join(PARTS)}, got {part!r}")
        self.scorer = item
        self.part = part
        self.name = label if part == "score" else f"{label}_{part}"
        self.stats_key = f"{label}@{id(item)}"

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        return self.scorer.segment_stats(hypotheses, references)

    def score(self, sums: np.ndarray) -> np.ndarray:
        return score_parts(sums, self.scorer.config, "system")[self.part]

    def segment_score(self, stats: np.ndarray) -> np.ndarray:
        return score_parts(stats, self.scorer.config, "segment")[self.part]


def metrics_of(item: Scorer, parts: Iterable[str] = PARTS, label: str = "paraeval") -> list:
    """Meta-evaluation metrics of a scorer: ``paraeval`` (the headline: the graded score, or the
    paper's F) and ``paraeval_p``/``_r``/``_f``."""
    out: list = []
    for part in parts:
        if isinstance(item, GradedParaEval):
            out.append(GradedMetric(item, part, label))
        else:
            name = label if part == "score" else None
            out.append(ParaEvalMetric(item, "f" if part == "score" else part, name=name, label=label))
    return out


def systems_scores(
    item: Scorer, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]],
    sentence_level: bool = False, *, workers: int = 1, with_stats: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, object]]:
    """:func:`system_scores` of each system (its hypotheses), in order, on the batch runner
    (``workers`` local processes, or the cluster of an enclosing :func:`paralign.workers.runner`);
    ``progress(n)`` is told of the systems as they are scored (a command's progress bar).

    A graded scorer scores whole systems there, one task each: every worker gets the scorer once
    and indexes the references on its first system, as this process would. The paper scorer
    matches each system's segments there instead (its chunks of 256). The numbers are the same
    wherever they are computed; a task that fails stops the scoring (a corpus score has no place
    for a missing system). The references are checked here first (:func:`.inputs.check_references`:
    the same set twice, streams of two lengths), so their error is raised in this process as
    itself, before any worker starts, not once a worker's task has failed on it."""
    check_references(references)
    if isinstance(item, GradedParaEval):
        task = functools.partial(_systems_chunk, item, [list(stream) for stream in references], sentence_level,
                                 with_stats)
        return run_chunks(task, [list(hyps) for hyps in systems], stop_batch("ParaEval scoring failed in a worker"),
                          progress=progress, workers=workers, chunk_size=1)
    out = []
    for hyps in systems:
        out.append(system_scores(item, hyps, references, sentence_level, workers=workers, with_stats=with_stats))
        if progress is not None:
            progress(1)
    return out


def _systems_chunk(item: GradedParaEval, references: list[list[str]], sentence_level: bool, with_stats: bool,
                   chunk: list[list[str]]) -> list[dict[str, object]]:
    """The scores of a chunk of systems (a worker's task)."""
    return [system_scores(item, hyps, references, sentence_level, with_stats=with_stats) for hyps in chunk]


def system_scores(
    item: Scorer, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
    sentence_level: bool = False, *, workers: int = 1, with_stats: bool = False,
) -> dict[str, object]:
    """One system's scores as plain data: ``precision``, ``recall``, ``f`` (and ``score``, the
    headline, for a graded config), ``signature`` and ``counts`` (the statistics behind them);
    with `sentence_level` also ``segments``: the same for each segment, numbered from 1; with
    `with_stats` also ``stats``: the segments' statistics rows as an array (what
    :func:`systems_significance` resamples; not JSON). The references are indexed once per
    scorer, however many systems it scores. ``workers`` is the paper scorer's (its segments
    matched on Dask workers); a graded scorer spreads whole systems instead
    (:func:`systems_scores`). No hypothesis at all is an EmptyScoringError (as ``paralign
    paraeval`` on an empty file), not scores of 0."""
    import numpy as np

    if not isinstance(item, ParaEval | GradedParaEval):
        raise InputTypeError(f"item must be a ParaEval scorer (scorer(config) builds one), not "
                             f"{type(item).__name__} {shown_value(item)}")
    check_count(workers, "workers")  # the graded scorer, which spreads systems instead, took 'x' silently
    check_hypotheses(hypotheses, scoring=True)
    out: dict[str, object]
    if isinstance(item, GradedParaEval):
        rows = item.segment_stats(hypotheses, references)  # checks the references: then len() is theirs
        signature = item.signature(len(references))
        out = dict(graded_dict(rows.sum(axis=0), item.config, "system", signature))
        if sentence_level:
            out["segments"] = [{"segment": n, **graded_dict(row, item.config, "segment", signature)}
                               for n, row in enumerate(rows, start=1)]
    else:
        from .paper_values import ParaEvalScore, sum_stats

        stats = item.segment_stats(hypotheses, references, workers=workers)
        signature = item.signature(len(references))
        out = _paper_dict(ParaEvalScore(sum_stats(stats), signature))
        if sentence_level:
            out["segments"] = [{"segment": n, **_paper_dict(ParaEvalScore(s, signature))}
                               for n, s in enumerate(stats, start=1)]
        rows = np.asarray([s.as_tuple() for s in stats], dtype=np.float64).reshape(len(stats), len(STAT_COLUMNS))
    if with_stats:
        out["stats"] = rows
    return out


def systems_significance(
    item: Scorer, stats: Sequence[np.ndarray], *, paired: bool = False,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
) -> list[dict[str, object]]:
    """Bootstrap figures of each system's headline score (a graded config's ``score``, the paper's
    F) from its segments' statistics rows (``system_scores(..., with_stats=True)["stats"]``), as
    sacrebleu's ``--confidence`` and ``--paired-bs`` give them (:mod:`paralign.metrics.significance`):
    ``confidence`` for every system; with `paired`, the first system is the baseline and every
    system gets ``paired_bootstrap``: the baseline's score, the p-value of the difference on the
    same resamples (None for the baseline itself) and ``is_baseline``.

    Over fewer than 2 segments (:data:`~paralign.metrics.significance.MIN_RESAMPLED`) there is
    nothing to resample: ``confidence`` is None, and so is every ``p_value`` (one segment drawn
    every time made any difference look significant, p = 1/(1 + resamples)). A score that is
    n/a (the paper's F when no reference has a word) has no ``confidence`` nor ``p_value``, and
    a baseline's ``baseline_score`` is None; a resample whose score is n/a is left out, as the
    point estimate leaves such segments out (:mod:`paralign.metrics.significance`)."""
    score = metrics_of(item, ("score",))[0].score
    if not paired:
        return [{"confidence": None if len(rows) < MIN_RESAMPLED else
                 _defined(confidence(rows, score, n_resamples=n_resamples, seed=seed))} for rows in stats]
    if len(stats) < 2:
        raise ConfigurationError("a paired test needs a baseline and at least one system to compare with it")
    if len(stats[0]) < MIN_RESAMPLED:
        undefined = {"baseline_score": _number(corpus_score(stats[0], score)), "p_value": None}
        return [{"confidence": None, "paired_bootstrap": {**undefined, "is_baseline": k == 0}}
                for k in range(len(stats))]
    baseline, compared = paired_bootstraps(stats[0], stats[1:], score, n_resamples=n_resamples, seed=seed)
    first = {"baseline_score": _number(baseline.score), "p_value": None, "is_baseline": True}  # no test of itself
    out: list[dict[str, object]] = [{"confidence": _defined(baseline), "paired_bootstrap": first}]
    out.extend({"confidence": _defined(c.confidence),
                "paired_bootstrap": {"baseline_score": _number(c.baseline_score), "p_value": _number(c.p_value),
                                     "is_baseline": False}}
               for c in compared)
    return out


def _number(value: float) -> float | None:
    """A figure, None where it is undefined (NaN is not JSON)."""
    return None if value != value else value


def _defined(found: Confidence) -> dict[str, float | int] | None:
    """A confidence's figures, None when its score is n/a (nothing to be confident about)."""
    return None if _number(found.score) is None else found.to_dict()


def paraeval(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]],
    config: str | Config = DEFAULT, *, sentence_level: bool = False, **options: Unpack[ScorerOptions],
) -> dict[str, object]:
    """One system's ParaEval exactly as ``paralign paraeval --config NAME --format json`` gives
    it (the same defaults: the config's resources, PPDB + WordNet); `options` as :func:`scorer`
    takes them (resources, tables, sources, max_length, the contextual tier's encoder and device,
    the paper scorer's settings).

    With `sentence_level`, the corpus figures gain a ``segments`` list; the command's
    ``--sentence-level`` document groups the same figures as ``{"segments": result.pop("segments"),
    "corpus": result}``.

    >>> result = paralign.paraeval(["he bought two apples for three dollars"],
    ...                            [["he purchased two apples for 3 dollars"]])   # one reference stream
    >>> round(result["score"], 4), result["signature"].split("|")[:2]
    (0.8286, ['nrefs:1', 'config:default'])
    >>> segments = paralign.paraeval(["he bought two apples", "the cat sat"],
    ...                              [["he purchased two apples", "a cat sat"]], sentence_level=True)["segments"]
    >>> [(s["segment"], round(s["score"], 4)) for s in segments]
    [(1, 0.8304), (2, 0.3763)]
    """
    return system_scores(scorer(config, **options), hypotheses, references, sentence_level)


def _paper_dict(score: ParaEvalScore) -> dict[str, object]:
    d = score.to_dict()
    return {k: d[k] for k in ("precision", "recall", "f", "signature", "counts")}


def graded_dict(row: np.ndarray, config: Config, level: str, signature: str) -> GradedFigures:
    """A graded statistics row's scores as ``paralign paraeval --format json`` prints them:
    ``score``, ``precision``, ``recall``, ``f``, ``signature`` and ``counts`` (the row by column);
    recall, F and the score None where undefined (no reference word: :func:`.graded_stats.score_parts`)."""
    parts = score_parts(row, config, level)
    counts = {name: (int(v) if float(v).is_integer() else round(float(v), 6))
              for name, v in zip(COLUMNS, row, strict=True)}
    return {"score": _number(float(parts["score"])), "precision": float(parts["p"]),
            "recall": _number(float(parts["r"])), "f": _number(float(parts["f"])), "signature": signature,
            "counts": counts}


__all__ = ["COLUMNS", "PARTS", "STAT_COLUMNS", "GradedFigures", "GradedMetric", "Scorer", "ScorerOptions",
           "graded_dict", "metrics_of", "paraeval", "scorer", "system_scores", "systems_scores", "systems_significance"]
