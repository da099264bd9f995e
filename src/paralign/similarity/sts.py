"""Semantic textual similarity (STS): correlation of similarity scores with gold scores.

Not for: computing the scores (:mod:`paralign.similarity.scores`) or reading STS files
(:mod:`paralign.corpora.sts`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from numbers import Real
from pathlib import Path

from ..aligners.batch import PairFailure, TextLike, reindexed
from ..alignment import AlignFunction
from ..corpora.sentence_pairs import iter_sentences_from_file
from ..corpora.sts import SkippedPair, StsPair, load_sts, usable_pairs
from ..errors import (
    ConfigurationError,
    EmptyScoringError,
    FormatError,
    MismatchError,
    file_paths,
    listed,
)
from ..metrics import DEFAULT_RESAMPLES, DEFAULT_SEED, least_squares
from ..nlp import Annotator
from ..shown_text import one_space
from .hybrid import (
    SHIPPED_BLEND,
    HybridModel,
    HybridSignal,
    aligner_mismatch,
    default_model,
    file_digests,
    fit_hybrid_files,
    shipped_training_pairs,
    training_overlap,
)
from .scores import similarity_many
from .signals import DEFAULT_SIGNAL, Signal, fit_on_files, needs_fit
from .signature import check_signals_encoder, checked_signal, scored_aligner, similarity_signature


def finite_number(value: object, what: str) -> float:
    """`value` as a float when it is a finite real number; else FormatError naming `what` (NaN
    or infinity would make every correlation undefined, and None or a str is no score)."""
    if isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise FormatError(f"{what} is {value!r}, not a finite number")


def _correlate(kind: str, x: Sequence[float], y: Sequence[float]) -> float | None:
    """scipy's coefficient, or None when undefined (fewer than 2 items or a constant series).

    A value that is not a finite number is a FormatError naming it (scipy's NaN would otherwise
    be clipped into range as 1.0)."""
    if len(x) != len(y):
        raise MismatchError(f"{len(x)} scores vs {len(y)} gold values")
    for name, values in (("score", x), ("gold value", y)):
        for i, value in enumerate(values, start=1):
            finite_number(value, f"{kind}: {name} {i}")
    if len(x) < 2 or min(x) == max(x) or min(y) == max(y):
        return None
    from ..metrics.correlation import coefficient  # numpy and scipy: imported when first used

    return max(-1.0, min(1.0, coefficient(kind, x, y)))


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's r, or None when undefined (fewer than 2 items or a constant series)."""
    return _correlate("pearson", x, y)


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho (Pearson on average ranks), or None when undefined."""
    return _correlate("spearman", x, y)


@dataclass(frozen=True, slots=True)
class StsEvaluation:
    """Correlation of system scores with gold STS scores over the pairs that could be scored.

    `scores` is every pair's system score (None when it could not be scored), in input order
    (what a report plots, beside the pairs' gold; not part of :meth:`to_dict`). `aligner` and
    `signature` are the scores' (:class:`~paralign.similarity.SimilarityBatch`'s), as
    ``evaluate-sts`` names them; None when the scores were given (:func:`sts_from_scores`)."""

    pairs: int
    pearson: float | None
    spearman: float | None
    failures: tuple[PairFailure, ...] = ()
    signal: str = DEFAULT_SIGNAL
    scores: tuple[float | None, ...] = field(default=(), compare=False, repr=False)
    aligner: str | None = None
    signature: str | None = field(default=None, repr=False)
    #: the pairs not scored because they are bad input (an empty sentence), by index: what
    #: ``evaluate-sts`` lists as a file's skipped rows, by line
    skipped: tuple[SkippedPair, ...] = ()

    def to_dict(self) -> dict:
        """The figures ``evaluate-sts --format json`` writes for the scored pairs, with the
        aligner and the signature it writes beside them (and the skipped pairs by index, where
        it writes a file's skipped rows by line)."""
        return {
            "pairs": self.pairs,
            "pearson": self.pearson,
            "spearman": self.spearman,
            "failed": len(self.failures),
            "failures": [f.to_dict() for f in self.failures],
            "skipped": len(self.skipped),
            "skipped_rows": [s.to_dict() for s in self.skipped],
            "signal": self.signal,
            "aligner": self.aligner,
            "signature": self.signature,
        }


def sts_from_scores(
    scores: Sequence[float | None], gold: Sequence[float], failures: Sequence[PairFailure] = (), signal: str = ""
) -> StsEvaluation:
    """Pearson/Spearman of scores against gold, ignoring (and reporting) pairs without a score.

    Every gold value must be a finite number (FormatError naming the pair, 1-based)."""
    if len(scores) != len(gold):
        raise MismatchError(f"{len(scores)} scores vs {len(gold)} gold values")
    gold = [finite_number(g, f"the gold score of pair {i}") for i, g in enumerate(gold, start=1)]
    xs = [s for s, _ in zip(scores, gold, strict=True) if s is not None]
    ys = [g for s, g in zip(scores, gold, strict=True) if s is not None]
    return StsEvaluation(len(xs), pearson(xs, ys), spearman(xs, ys), tuple(failures), signal, tuple(scores))


def evaluate_sts(
    pairs: Iterable[tuple[TextLike, TextLike, float]],
    *,
    signal: str | Signal = DEFAULT_SIGNAL,
    aligner: AlignFunction | str | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> StsEvaluation:
    """Score (sentence1, sentence2, gold) triples and correlate with the gold scores.

    Each gold score must be a finite number: a malformed triple, or a gold score that is NaN,
    None or a str, is a FormatError naming the pair (1-based), raised before anything is
    aligned. A pair with an empty sentence is bad input, as its row of a file is to
    ``evaluate-sts``: left out and listed in `skipped` (:func:`~paralign.corpora.sts.usable_pairs`).
    Pairs that cannot be scored are left out and listed in `failures`. Both have None in
    `scores`. `aligner` as :func:`similarity_many` takes it (a function or a name)."""
    pairs = listed(pairs, "pairs must be a list of (sentence1, sentence2, gold) triples")
    gold = [_gold_of(item, i) for i, item in enumerate(pairs, start=1)]
    kept, skipped = usable_pairs(pairs)
    result = similarity_many(
        [(pairs[i][0], pairs[i][1]) for i in kept],
        workers,
        signal=signal,
        aligner=aligner,
        annotator=annotator,
        progress=progress,
    )
    scores: list[float | None] = [None] * len(pairs)
    for index, score in zip(kept, result.scores, strict=True):
        scores[index] = score
    failures = reindexed(result.failures, kept)
    return replace(sts_from_scores(scores, gold, failures, result.signal),
                   aligner=result.aligner, signature=result.signature, skipped=skipped)


def _gold_of(item: object, number: int) -> float:
    """The gold score of one (sentence1, sentence2, gold) triple, checked."""
    if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 3:
        raise FormatError(f"pair {number} is {item!r}, not a (sentence1, sentence2, gold) triple")
    return finite_number(item[2], f"the gold score of pair {number}")


def weighted_mean(values: Sequence[tuple[float | None, int]]) -> float | None:
    """Size-weighted mean of (value, size) pairs, ignoring undefined values (SemEval's 'mean')."""
    usable = [(v, n) for v, n in values if v is not None and n > 0]
    total = sum(n for _, n in usable)
    return sum(v * n for v, n in usable) / total if total else None


@dataclass(frozen=True, slots=True)
class StsFileResult:
    """One STS file: its evaluation, the loader's row report and the pairs scored (in the
    order of `evaluation.scores`; not part of :meth:`to_dict`)."""

    name: str
    path: str
    evaluation: StsEvaluation
    skipped_rows: tuple[dict, ...] = ()
    pairs: tuple[StsPair, ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict:
        """The file's figures (its report carries the aligner and signature, once for all files)."""
        figures = {key: value for key, value in self.evaluation.to_dict().items() if key not in ("aligner", "signature")}
        out = {
            "name": self.name,
            "path": self.path,
            **figures,
            "skipped": len(self.skipped_rows),
            "skipped_rows": list(self.skipped_rows),
        }
        if len(self.pairs) == len(self.evaluation.scores):  # each failure's line in the file,
            # as skipped rows name theirs (its index counts only the usable pairs)
            out["failures"] = [{**f, "line": self.pairs[f["index"]].line} for f in out["failures"]]
        return out


@dataclass(frozen=True, slots=True)
class StsReport:
    """Per-file STS results and their size-weighted means (SemEval's aggregate)."""

    sets: tuple[StsFileResult, ...]
    signal: str
    #: e.g. ``sultan:default``: the aligner whose alignments were scored (see :func:`scored_aligner`;
    #: ``none`` when the signal reads none)
    aligner: str = ""
    model: HybridModel | None = None  #: the fitted blend of the ``hybrid`` signal
    train: tuple[str, ...] = ()  #: the files it was fitted on
    #: every setting that changed a number (:func:`paralign.similarity.signature.similarity_signature`)
    signature: str = ""
    #: what the caller should be told about the scores (a hybrid blend used with another aligner than its own)
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        sizes = [r.evaluation.pairs for r in self.sets]
        extra = {} if self.model is None else {"train": list(self.train), "model": self.model.to_dict()}
        return {
            "pairs": sum(sizes),
            "pearson": weighted_mean([(r.evaluation.pearson, n) for r, n in zip(self.sets, sizes, strict=True)]),
            "spearman": weighted_mean([(r.evaluation.spearman, n) for r, n in zip(self.sets, sizes, strict=True)]),
            "skipped": sum(len(r.skipped_rows) for r in self.sets),
            "failed": sum(len(r.evaluation.failures) for r in self.sets),
            "signal": self.signal,
            "aligner": self.aligner,
            "signature": self.signature,
            "sets": [r.to_dict() for r in self.sets],
            "notes": list(self.notes),
            **extra,
        }


def set_names(paths: Sequence[str | Path]) -> list[str]:
    """How each STS file is named in a report: its file name, or, when two files share it (the
    OnWN test sets of STS 2012 and 2013), its last path parts that tell them apart
    (``2012/OnWN.test.tsv``), so no two rows of the table carry one name.

    One file given twice would count its pairs twice in the size-weighted means: a
    ConfigurationError naming it."""
    parts = [Path(os.path.abspath(path)).parts for path in paths]
    seen: dict[tuple[str, ...], str | Path] = {}
    for path, these in zip(paths, parts, strict=True):
        if these in seen:
            raise ConfigurationError(f"{path} is given twice (as {seen[these]} before): its pairs would "
                                     "count twice in the weighted means")
        seen[these] = path
    names = []
    for path, these in zip(paths, parts, strict=True):
        depth = 1
        while depth < len(these) and sum(other[-depth:] == these[-depth:] for other in parts) > 1:
            depth += 1
        names.append(Path(path).name if depth == 1 else "/".join(these[-depth:]))
    return names


def evaluate_sts_files(
    paths: Sequence[str | Path],
    *,
    signal: str | Signal = DEFAULT_SIGNAL,
    idf_from: Sequence[str | Path] = (),
    train: Sequence[str | Path] = (),
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    encoder: str | None = None,
    device: str = "auto",
) -> StsReport:
    """Evaluate a signal on STS files (any layout :func:`load_sts` reads): Pearson per file.

    A signal given by name that runs the neural encoder (``embedding``, ``contextual-alignment``,
    a hybrid's neural components, in its fit too) runs `encoder` on `device`
    (:class:`paralign.neural.Encoder`'s `model` and `device`; default: the ``PARALIGN_ENCODER``
    setting, ``auto``); a Signal object keeps its own.

    ``signal="hybrid"`` is first fitted on the `train` files (:func:`fit_hybrid_files`, with the
    same aligner), or without them is the blend paralign ships (:func:`default_model`); `train`
    is for the hybrid only. IDF signals are fitted on `idf_from` (for any other signal, a
    ConfigurationError: :func:`~.signals.fit_on_files`). No file is an EmptyScoringError, as
    nothing to score is elsewhere (``evaluate-sts`` needs one ``--data``): it was a report of no
    sets, 0 pairs and n/a correlations. One path where a list is expected (its characters were
    the files) is an InputTypeError naming it."""
    paths, idf_from, train = (file_paths(v, what) for v, what in ((paths, "paths"), (idf_from, "idf_from"),
                                                                    (train, "train")))
    if not paths:
        raise EmptyScoringError("no STS files to evaluate: nothing to score")
    set_names(paths)  # a file given twice is refused before any is read
    datasets = [load_sts(path) for path in paths]  # every file read (and checked: an MSRP file refused) before any work
    if datasets and not any(data.pairs for data in datasets):
        first = next((f"line {r.line}: {r.reason}" for d in datasets for r in d.skipped), "no rows")
        raise FormatError(f"no usable STS pairs ({first})", source=", ".join(map(str, paths)))
    model = None
    if signal == "hybrid" and idf_from:
        fit_on_files(signal, idf_from)  # takes no IDF statistics: its error
    if signal == "hybrid":
        model = (fit_hybrid_files(train, aligner=aligner, annotator=annotator, workers=workers, progress=progress,
                                  encoder=encoder, device=device)
                 if train else default_model())
        sig: Signal = HybridSignal(model, encoder=encoder, device=device)
        if not train:  # a fit checked its whole candidate pool's encoder, before its first alignment
            check_signals_encoder([sig], encoder, device)  # before any pair is scored
    elif train:
        raise ConfigurationError(f"--train fits the hybrid signal; signal {signal if isinstance(signal, str) else signal.name!r} takes none")
    else:
        made = checked_signal(signal, encoder, device)  # before any pair is aligned
        sig = fit_on_files(made, idf_from) if idf_from or needs_fit(made) else made
    results = []
    for path, name, data in zip(paths, set_names(paths), datasets, strict=True):
        ev = evaluate_sts(
            [(p.sentence1, p.sentence2, p.score) for p in data.pairs],
            signal=sig,
            aligner=aligner,
            annotator=annotator,
            workers=workers,
            progress=progress,
        )
        results.append(StsFileResult(name, str(path), ev, tuple(r.to_dict() for r in data.skipped), data.pairs))
    notes = [aligner_mismatch(sig, aligner), *(_held_in(results, train) if model is not None else ()),
             *_idf_seen(results, idf_from), *_left_out_of_means(results)]
    signature = similarity_signature(sig, aligner)
    return StsReport(tuple(results), sig.name, scored_aligner(sig, aligner, signature), model,
                     tuple(map(str, train)), signature, notes=tuple(filter(None, notes)))


def _left_out_of_means(results: Sequence[StsFileResult]) -> list[str]:
    """A note for each file whose correlations are undefined (n/a), saying why (a table's n/a
    does not); of several, that :func:`weighted_mean` leaves it out: the means are then over
    the other files only."""
    means = len(results) >= 2
    return [f"{r.path}: Pearson and Spearman are undefined (n/a: {_why_undefined(r)})"
            + (f", so the weighted means leave its {r.evaluation.pairs} pair{'s' if r.evaluation.pairs != 1 else ''}"
               " out" if means else "")
            for r in results if r.evaluation.pearson is None]


def _why_undefined(result: StsFileResult) -> str:
    """Why a file's correlations are undefined, of the reasons :func:`sts_from_scores` has: under
    2 pairs scored, the gold scores alike, or the system's (it said "the gold scores or the
    system's do not vary, or fewer than 2 pairs were scored" whichever it was)."""
    if len(result.pairs) != len(result.evaluation.scores):  # a result made without its pairs: no gold to tell by
        return "the gold scores or the system's do not vary, or fewer than 2 pairs were scored"
    scored = [(score, pair.score) for score, pair in zip(result.evaluation.scores, result.pairs, strict=True)
              if score is not None]
    if len(scored) < 2:
        return f"fewer than 2 pairs were scored ({len(scored)})"
    if len({gold for _, gold in scored}) == 1:
        return f"the gold scores do not vary: all {scored[0][1]:g}"
    if len({score for score, _ in scored}) == 1:
        return f"the system's scores do not vary: all {scored[0][0]:g}"
    return "the gold scores or the system's do not vary"  # by less than the correlation can tell apart


def _idf_seen(results: Sequence[StsFileResult], idf_from: Sequence[str | Path]) -> list[str | None]:
    """A note for each file of `results` with pairs a sentence of which the `idf_from` files hold
    (white space collapsed): the IDF statistics were fitted on sentences scored, so the figures
    are not held out (``--idf-from`` given a ``--data`` file, say). Only the scored sentences are
    kept while an IDF corpus is read again, so a large one is never held in memory."""
    if not idf_from:
        return []
    scored = {one_space(s) for r in results for p in r.pairs for s in (p.sentence1, p.sentence2)}
    seen = {text for path in idf_from for s in iter_sentences_from_file(path) if (text := one_space(s)) in scored}
    notes: list[str | None] = []
    for r in results:
        shared = [p for p in r.pairs if one_space(p.sentence1) in seen or one_space(p.sentence2) in seen]
        n = len(shared)
        notes.append(None if not n else (
            f"{n} of {len(r.pairs)} pairs of {r.path} {'have' if n > 1 else 'has'} a sentence that the IDF files "
            f"({', '.join(map(str, idf_from))}) hold (first {r.path}:{shared[0].line}): the IDF statistics were "
            "fitted on sentences scored, so the figures are not held out"))
    return notes


def _held_in(results: Sequence[StsFileResult], train: Sequence[str | Path]) -> list[str | None]:
    """A note for each file of `results` holding pairs the hybrid blend was fitted on (those of
    the `train` files, or of the shipped blend's training files when none are given): their
    correlations are not held out. The STS Benchmark's 129 dev and 498 train rows from MSRpar
    2012train are training pairs of the shipped blend."""
    if train:
        trained_on, blend = file_digests(train), f"fitted on {', '.join(map(str, train))}"
    else:
        trained_on, blend = shipped_training_pairs(), SHIPPED_BLEND
    return [training_overlap([(p.sentence1, p.sentence2, f"{r.path}:{p.line}") for p in r.pairs], trained_on,
                             f"pairs of {r.path}", blend) for r in results]


def sts_intervals(
    report: StsReport, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
) -> dict[str, object]:
    """95% bootstrap intervals of a report's correlations (:func:`~paralign.metrics.significance.
    correlation_interval`, each file's scored pairs resampled within the file): ``sets``, per
    file ``{"pearson": {value, low, high}, "spearman": ...}``, and the size-weighted means'
    under ``pearson`` and ``spearman``; ``resamples`` and ``seed``. A file whose correlation is
    undefined, or that has too few scored pairs for an interval (fewer than 3:
    :func:`~paralign.metrics.significance.too_few_to_correlate`), has None and is left out of
    the means' intervals."""
    from ..metrics.significance import correlation_interval, too_few_to_correlate

    groups = []
    for result in report.sets:
        scored = scored_pairs(result)
        groups.append(([s for _, s in scored], [p.score for p, _ in scored]))
    resampled = [r.evaluation.pearson is not None and too_few_to_correlate(r.evaluation.pairs, "scored pair") is None
                 for r in report.sets]
    usable = [g for g, ok in zip(groups, resampled, strict=True) if ok]

    def both(chosen: Sequence[tuple[list[float], list[float]]]) -> dict[str, object] | None:
        if not chosen:
            return None
        return {kind: correlation_interval(chosen, kind, n_resamples=n_resamples, seed=seed).to_dict()
                for kind in ("pearson", "spearman")}

    sets = [both([g]) if ok else None for g, ok in zip(groups, resampled, strict=True)]
    return {"sets": sets, **(both(usable) or {"pearson": None, "spearman": None}),
            "resamples": n_resamples, "seed": seed}


@dataclass(frozen=True, slots=True)
class StsError:
    """A scored pair and how far its score lies from the least-squares line of score on gold
    (`residual` = score - line; the pairs farthest from it lower Pearson's r the most)."""

    pair: StsPair
    score: float
    residual: float


def scored_pairs(result: StsFileResult) -> list[tuple[StsPair, float]]:
    """The pairs of a file that got a score, with the score."""
    return [(p, s) for p, s in zip(result.pairs, result.evaluation.scores, strict=False) if s is not None]


def largest_errors(
    result: StsFileResult, count: int = 10, line: tuple[float, float] | None = None
) -> list[StsError]:
    """The `count` scored pairs of a file farthest from the least-squares line of system score
    on gold score (`line` when the caller has fitted it already), largest first (none when the
    line is undefined)."""
    scored = scored_pairs(result)
    line = line or least_squares([p.score for p, _ in scored], [s for _, s in scored])
    if line is None:
        return []
    slope, intercept = line
    errors = [StsError(p, s, s - (slope * p.score + intercept)) for p, s in scored]
    return sorted(errors, key=lambda e: -abs(e.residual))[:count]
