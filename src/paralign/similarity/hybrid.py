"""The ``hybrid`` STS signal: a linear blend of similarity signals fitted on training STS files,
with the blend chosen so that it holds across those files (issue 19).

A least-squares fit over every signal on the pooled training pairs learns the training files'
domains: their gold means differ, the signals' means differ with them, and the fit spends its
weights on telling the files apart. On STS 2012's two training files (MSRpar, SMTeuroparl) such
a fit fell below the embedding alone on STS 2013. So the hybrid is fitted and chosen this way:

* **Within-file least squares.** Every training file is centred (its signals and its gold) before
  the fit, so a file's mean never enters the weights: only how the signals rank pairs *inside*
  a file, which is what a file's Pearson correlation measures. Signals are standardised over
  all training pairs first; a ridge penalty `l2` (times the number of pairs) shrinks the weights.
* **Non-negative weights.** Every pooled signal is a similarity that should rise with the gold
  score, so a negative weight can only be a training-domain artefact (an unconstrained fit
  learned ``1.63·numbers − 1.33·mean-proportion``, a length-symmetry shape of the two training
  files that broke on pairs of unequal length). The fit is NNLS (:func:`scipy.optimize.nnls`).
* **Chosen across files.** Every candidate (a set of at most `max_signals` signals from
  :data:`HYBRID_POOL` and an `l2` from :data:`L2_GRID`) is fitted on all training files but one
  and scored, by Pearson's r, on the one left out, for each file in turn; a candidate's figure is
  its *worst* held-out file. One training file is split into :data:`SINGLE_FILE_FOLDS` seeded
  folds instead.
* **The one-standard-error rule.** The best worst-file figure is itself uncertain: its standard
  error is measured by resampling the held-out pairs (:data:`BOOTSTRAP_SAMPLES` bootstrap
  samples of every held-out file, seeded). Of the candidates within one standard error of the
  best, the simplest wins: fewest signals, then the largest `l2` (the most shrunk), then the
  better worst file and mean. On the STS 2012 training files the top candidates differ in the
  fifth decimal while the standard error is about .02, so taking the bare maximum would be a
  coin toss between blends of two and three signals; the rule (Breiman et al. 1984; Hastie,
  Tibshirani and Friedman, *Elements of Statistical Learning*, 7.10) settles such ties on the
  side of the simpler, more shrunk blend. The winner is then refitted on every file.

The score is the predicted gold over the top of the STS scale (5): the blend (its size refitted
without penalty, so a large `l2` shapes the blend but does not shrink the scores) plus the training
pairs' mean gold, divided by 5. It is mostly in [0, 1] but not clipped (clipping would change
correlations). The model, its selection table included, round-trips through JSON
(:meth:`HybridModel.to_dict`): ``evaluate-sts --signal hybrid --train FILE ... --format json``
writes it under ``"model"`` and ``similarity --model FILE`` reuses it.

paralign ships one such model (:data:`DEFAULT_MODEL_FILE`, fitted this way on STS 2012's two
training files with the sultan aligner's default preset): ``make_signal("hybrid")``,
``similarity --signal hybrid`` and ``evaluate-sts --signal hybrid`` without ``--train`` use it,
so the blend needs no training files of one's own. ``scripts/fit_default_hybrid.py``
rebuilds it, and a test refits it from the data and compares.

Not for: the signals blended (:mod:`paralign.similarity.signals`,
:mod:`paralign.similarity.contextual`) or STS evaluation (:mod:`paralign.similarity.sts`).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from numbers import Real
from pathlib import Path
from typing import TYPE_CHECKING

from ..aligners.batch import AlignedBatch, align_pairs
from ..aligners.registry import aligner_label
from ..alignment import AlignedSentences, AlignFunction
from ..corpora.sts import SCORE_RANGE, load_sts
from ..errors import ConfigurationError, FormatError, MismatchError, check_count
from ..nlp import Annotator
from ..shown_text import one_space
from .contextual import encoder_options
from .scores import score_aligned
from .signals import Signal, cache_options, make_signal, needs_alignment, register_signal
from .signature import check_signals_encoder

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: Signals a hybrid may blend. Trainable ones (IDF) are left out: a saved report keeps no
#: statistics. ``sultan2015`` equals ``sultan2014`` up to rare one-to-many links, so it is left out too.
HYBRID_POOL: tuple[str, ...] = (
    "sultan2014",
    "numbers",
    "all-words",
    "mean-proportion",
    "embedding",
    "contextual-alignment",
)
#: Ridge penalties tried (times the number of training pairs, on standardised signals).
#: Large penalties keep the weights' ratio (Pearson's r ignores their scale): at the top of the grid
#: the blend weights each signal by its within-file covariance with the gold score.
L2_GRID: tuple[float, ...] = (0.0, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
#: Most signals in one blend.
MAX_SIGNALS = 3
#: Folds a single training file is split into for the choice (seeded).
SINGLE_FILE_FOLDS = 5
#: The fewest pairs of a held-out fold (a training file, or a fifth of a single one): a Pearson
#: of fewer is undefined or +-1 whatever the blend.
MIN_FOLD_PAIRS = 3
#: Bootstrap samples of the held-out pairs for the one-standard-error rule (seeded).
BOOTSTRAP_SAMPLES = 200


@dataclass(frozen=True, slots=True)
class Candidate:
    """One blend tried: its signals, penalty and the Pearson's r of each held-out file."""

    signals: tuple[str, ...]
    l2: float
    held_out: tuple[float, ...]

    @property
    def worst(self) -> float:
        return min(self.held_out)

    @property
    def mean(self) -> float:
        return sum(self.held_out) / len(self.held_out)

    def to_dict(self) -> dict:
        return {"signals": list(self.signals), "l2": self.l2, "held_out": list(self.held_out),
                "worst": self.worst, "mean": self.mean}


def saved_number(value: object) -> float:
    """A number a saved report holds, as a float: a JSON number, else a TypeError (its reader
    makes it a FormatError naming the report). float() took `true` as 1.0 and `"0.5"` as 0.5."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{value!r} is not a number")
    return float(value)


@dataclass(frozen=True, slots=True)
class HybridModel:
    """A fitted blend: ``score = (intercept + Σ weight · (signal - mean) / scale) / top``.

    `groups` names the training files (or folds) the choice held out; `candidates` is the
    choice's table: the chosen blend first, then the others by their worst held-out file (only
    the first :data:`KEPT_CANDIDATES` are kept); `tolerance` is the standard error of the best
    worst-file figure, the margin of the one-standard-error rule."""

    signals: tuple[str, ...]
    weights: tuple[float, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    intercept: float
    l2: float = 0.0
    top: float = SCORE_RANGE[1]
    groups: tuple[str, ...] = ()
    candidates: tuple[Candidate, ...] = field(default=(), compare=False)
    tolerance: float = 0.0
    #: the aligner whose alignments the alignment-reading signals were fitted on, as
    #: :func:`~paralign.aligners.registry.aligner_label` writes it ("": not recorded)
    aligner: str = field(default="", compare=False)

    def predict(self, values: Sequence[float]) -> float:
        """The score of one pair from its signals' values (in :attr:`signals` order)."""
        if len(values) != len(self.signals):
            raise MismatchError(f"expected {len(self.signals)} signal values, got {len(values)}")
        blend = sum(w * (v - m) / s for w, v, m, s in zip(self.weights, values, self.means, self.scales, strict=True))
        return (self.intercept + blend) / self.top

    def to_dict(self) -> dict:
        return {
            "kind": "hybrid",
            "l2": self.l2,
            "intercept": self.intercept,
            "top": self.top,
            "signals": [
                {"name": n, "weight": w, "mean": m, "scale": s}
                for n, w, m, s in zip(self.signals, self.weights, self.means, self.scales, strict=True)
            ],
            "groups": list(self.groups),
            "rule": "one-standard-error",
            "tolerance": self.tolerance,
            "selection": [c.to_dict() for c in self.candidates],
            **({"aligner": self.aligner} if self.aligner else {}),
        }

    @classmethod
    def from_dict(cls, data: object, source: str = "report") -> HybridModel:
        """The model :meth:`to_dict` wrote; anything else is a FormatError naming `source`,
        as is a model whose numbers cannot score: one that is not finite (a hand-edited NaN
        weight gave NaN scores, exit 0), a scale or ``top`` that is not positive (``top`` 0 failed
        every pair with a ZeroDivisionError)."""
        if not isinstance(data, dict) or data.get("kind") != "hybrid":
            found = f"a {type(data).__name__}" if not isinstance(data, dict) else f'"kind" {data.get("kind")!r}'
            raise FormatError(f'not a hybrid model ({found}, not an object with "kind": "hybrid")', source=source)
        try:
            rows = data["signals"]
            model = cls(
                tuple(str(r["name"]) for r in rows),
                tuple(saved_number(r["weight"]) for r in rows),
                tuple(saved_number(r["mean"]) for r in rows),
                tuple(saved_number(r["scale"]) for r in rows),
                saved_number(data["intercept"]),
                saved_number(data.get("l2", 0.0)),
                saved_number(data.get("top", SCORE_RANGE[1])),
                tuple(str(g) for g in data.get("groups", ())),
                tolerance=saved_number(data.get("tolerance", 0.0)),
                aligner=str(data.get("aligner") or ""),
            )
        except KeyError as exc:
            raise FormatError(f'not a hybrid model (no "{exc.args[0]}")', source=source) from None
        except (TypeError, ValueError) as exc:
            raise FormatError(f"not a hybrid model ({exc})", source=source) from None
        unknown = [n for n in model.signals if n not in HYBRID_POOL]
        if unknown or not model.signals or any(s <= 0 for s in model.scales):
            raise FormatError(f"not a usable hybrid model (signals {', '.join(model.signals) or 'none'})", source=source)
        numbers = [*model.weights, *model.means, *model.scales, model.intercept, model.l2, model.top, model.tolerance]
        if not all(map(math.isfinite, numbers)) or model.top <= 0:
            raise FormatError("not a usable hybrid model (a number that is not finite, or a top <= 0)", source=source)
        return model


#: Rows of the choice's table kept in a model (and its report).
KEPT_CANDIDATES = 10


#: The shipped blend, in ``paralign/data`` (see the module's docstring).
DEFAULT_MODEL_FILE = "hybrid_sts2012.json"
#: The training files the shipped blend was fitted on (STS 2012, in ``$PARALIGN_DATA``).
DEFAULT_TRAINING_FILES: tuple[str, ...] = ("similarity/sts/2012/MSRpar.train.tsv",
                                           "similarity/sts/2012/SMTeuroparl.train.tsv")


#: The key of the shipped model file that lists its training pairs' :func:`pair_digest`\ s.
TRAINING_PAIRS_KEY = "training_pairs"


@functools.cache
def _shipped_document() -> dict:
    """The shipped model file (:data:`DEFAULT_MODEL_FILE`), read once."""
    return json.loads(resources.files("paralign").joinpath("data", DEFAULT_MODEL_FILE).read_text("utf-8"))


@functools.cache
def default_model() -> HybridModel:
    """The shipped blend (:data:`DEFAULT_MODEL_FILE`), read once."""
    return HybridModel.from_dict(_shipped_document(), DEFAULT_MODEL_FILE)


def shipped_training_pairs() -> frozenset[str]:
    """The :func:`pair_digest` of every pair the shipped blend was fitted on (the file keeps no
    text: the corpora's licences are research-only)."""
    return frozenset(_shipped_document().get(TRAINING_PAIRS_KEY, ()))


def pair_digest(sentence1: str, sentence2: str) -> str:
    """A sentence pair's fingerprint (16 hex digits of SHA-256), the same whichever sentence comes
    first and however white space runs: the same pair in two corpora (STS 2012's MSRpar.train
    rows are MSRP test pairs, the STS Benchmark's MSRpar rows STS 2012's) has one digest."""
    first, second = sorted(one_space(s) for s in (sentence1, sentence2))
    return hashlib.sha256(f"{first}\t{second}".encode()).hexdigest()[:16]


def file_digests(paths: Iterable[str | Path]) -> frozenset[str]:
    """The :func:`pair_digest` of every usable pair of STS files."""
    return frozenset(pair_digest(p.sentence1, p.sentence2) for path in paths for p in load_sts(path).pairs)


def training_overlap(pairs: Sequence[tuple[str, str, str]], trained_on: frozenset[str], what: str,
                     blend: str) -> str | None:
    """A note when some of `pairs` (sentence1, sentence2, where: ``file:line``; `what` names
    them, e.g. ``the pairs of headlines.tsv``) are pairs the hybrid `blend` was fitted on
    (`trained_on`: their digests): the figures on them are not held out. None when none is."""
    shared = [where for s1, s2, where in pairs if pair_digest(s1, s2) in trained_on]
    if not shared:
        return None
    n = len(shared)
    return (f"{n} of {len(pairs)} {what} {'are also training pairs' if n > 1 else 'is also a training pair'} "
            f"of the hybrid blend ({blend}; first {shared[0]}): the figures are not held out")


#: How notes name the shipped blend.
SHIPPED_BLEND = "the blend paralign ships, fitted on STS 2012's MSRpar.train and SMTeuroparl.train"


class HybridSignal:
    """``hybrid``: a fitted :class:`HybridModel` used as a similarity signal (its component
    signals computed on each pair). Made without a model it is unfitted (``fitted`` False):
    scoring then fails; fit one with :func:`fit_hybrid` or read one from a report. The
    registry's ``hybrid`` (:func:`make_signal`) is made with the shipped :func:`default_model`.
    `cache_size` bounds the caches of the components that keep one (:func:`cache_options`;
    None: their defaults). The neural components (``embedding``, ``contextual-alignment``) use
    the encoder `encoder` on `device` (:class:`paralign.neural.Encoder`'s `model` and `device`;
    default: the ``PARALIGN_ENCODER`` setting, ``auto``)."""

    name = "hybrid"

    def __init__(self, model: HybridModel | None = None, cache_size: int | None = None, *,
                 encoder: str | None = None, device: str = "auto") -> None:
        self.model = model
        self.fitted = model is not None
        self.components: tuple[Signal, ...] = () if model is None else tuple(
            make_signal(n, **cache_options(n, cache_size), **encoder_options(n, encoder, device))
            for n in model.signals)

    @property
    def needs_alignment(self) -> bool:
        """Whether some component reads the pair's alignment (unfitted: assume so)."""
        return self.model is None or any(needs_alignment(c) for c in self.components)

    def prepare(self, pairs: Iterable[AlignedSentences | None]) -> None:
        """Let every component do its batch work (sentence vectors, contextual alignments)."""
        items = list(pairs)
        for component in self.components:
            prepare = getattr(component, "prepare", None)
            if callable(prepare):
                prepare(items)

    def __call__(self, pair: AlignedSentences) -> float:
        if self.model is None:
            raise ConfigurationError(
                "the hybrid signal needs a fitted model: evaluate-sts --signal hybrid --train FILE, "
                "then similarity --model FILE"
            )
        return self.model.predict([float(c(pair)) for c in self.components])


def _shipped_hybrid(model: HybridModel | None = None, cache_size: int | None = None, *,
                    encoder: str | None = None, device: str = "auto") -> HybridSignal:
    return HybridSignal(model or default_model(), cache_size, encoder=encoder, device=device)


register_signal("hybrid", _shipped_hybrid)


def _design(rows: np.ndarray, columns: Sequence[int], means: np.ndarray, scales: np.ndarray) -> np.ndarray:
    return (rows[:, columns] - means[columns]) / scales[columns]


def _within_fit(groups: Sequence[tuple[np.ndarray, np.ndarray]], l2: float) -> np.ndarray:
    """Non-negative ridge weights of gold on (standardised) signals with every group centred:
    least squares under ``weights >= 0`` (scipy's NNLS on the ridge-augmented system)."""
    import numpy as np
    from scipy.optimize import nnls

    z = np.vstack([x - x.mean(axis=0) for x, _ in groups])
    y = np.concatenate([g - g.mean() for _, g in groups])
    penalty = np.sqrt(l2 * len(y) + 1e-9) * np.eye(z.shape[1])
    weights, _ = nnls(np.vstack([z, penalty]), np.concatenate([y, np.zeros(z.shape[1])]))
    return weights


def _rescaled(weights: np.ndarray, groups: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """`weights` times the least-squares scale of their blend on the gold (within files). The
    penalty chooses the blend's direction; shrinking its size would pull every predicted score
    toward the mean gold (Pearson's r would not change, the scores' scale would)."""
    import numpy as np

    blend = np.concatenate([(x - x.mean(axis=0)) @ weights for x, _ in groups])
    gold = np.concatenate([g - g.mean() for _, g in groups])
    size = float(blend @ blend)
    return weights * (float(blend @ gold) / size) if size > 0 else weights


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    import numpy as np

    if x.std() == 0 or y.std() == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])


def _held_out(
    groups: Sequence[tuple[np.ndarray, np.ndarray]], columns: list[int], l2: float,
    means: np.ndarray, scales: np.ndarray,
) -> list[np.ndarray]:
    """Each group's scores, predicted by a blend fitted on the other groups."""
    out = []
    for k, (rows, _) in enumerate(groups):
        others = [(_design(x, columns, means, scales), g) for j, (x, g) in enumerate(groups) if j != k]
        out.append(_design(rows, columns, means, scales) @ _within_fit(others, l2))
    return out


def _worst_error(predictions: Sequence[np.ndarray], golds: Sequence[np.ndarray], samples: int, seed: int = 0) -> float:
    """The standard error of the worst held-out Pearson's r: its spread over `samples` bootstrap
    resamples of every held-out group's pairs (seeded)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    worst = []
    for _ in range(samples):
        draws = [rng.integers(0, len(g), len(g)) for g in golds]
        worst.append(min(_pearson(p[d], g[d]) for p, g, d in zip(predictions, golds, draws, strict=True)))
    return float(np.std(worst))


def _one_standard_error(candidates: list[Candidate], tolerance: float) -> Candidate:
    """The simplest candidate within `tolerance` of the best worst file: fewest signals, then the
    largest penalty, then the better worst file and mean."""
    top = max(c.worst for c in candidates)
    near = [c for c in candidates if c.worst >= top - tolerance]
    return min(near, key=lambda c: (len(c.signals), -c.l2, -c.worst, -c.mean))


def _split(rows: np.ndarray, gold: np.ndarray, folds: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    import numpy as np

    order = np.random.default_rng(seed).permutation(len(gold))
    return [(rows[order[k::folds]], gold[order[k::folds]]) for k in range(folds)]


def training_problem(golds: Sequence[Sequence[float] | np.ndarray], labels: Sequence[str]) -> str | None:
    """Why training groups (each file's gold scores, named by `labels`) cannot fit a hybrid, or
    None: too few pairs for its held-out folds, a file of several too small to be a fold (its
    held-out Pearson would be nan, or 0 or +-1 by chance), or gold scores that do not vary (no
    blend follows them: it was fitted with weight 0, scoring every pair alike; of one file
    among several, every blend's worst held-out Pearson was 0, and the first blend was kept)."""
    total = sum(len(g) for g in golds)
    if total < MIN_FOLD_PAIRS * SINGLE_FILE_FOLDS:
        return f"too few training pairs to fit a hybrid: {total}, at least {MIN_FOLD_PAIRS * SINGLE_FILE_FOLDS}"
    small = [(label, len(g)) for label, g in zip(labels, golds, strict=False) if len(g) < MIN_FOLD_PAIRS]
    if len(golds) > 1 and small:
        label, count = small[0]
        return (f"training file {label} has {count} usable pair{'s' if count != 1 else ''}: each file is a held-out "
                f"fold of the hybrid's choice, whose Pearson needs at least {MIN_FOLD_PAIRS}")
    every = {float(v) for g in golds for v in g}
    if len(every) == 1:
        return f"the gold scores of the {total} training pairs do not vary (all {every.pop():g}): no blend can follow them"
    flat = [(label, float(g[0])) for label, g in zip(labels, golds, strict=False) if len({float(v) for v in g}) == 1]
    if len(golds) > 1 and flat:  # its held-out Pearson is 0 whatever the blend: every blend ties
        label, value = flat[0]
        return (f"the gold scores of training file {label} do not vary (all {value:g}): each file is a held-out fold "
                "of the hybrid's choice, whose Pearson is then undefined")
    return None


def fit_hybrid(
    groups: Sequence[tuple[Sequence[Sequence[float]], Sequence[float]]],
    signals: Sequence[str],
    *,
    names: Sequence[str] = (),
    max_signals: int = MAX_SIGNALS,
    l2_grid: Sequence[float] = L2_GRID,
    aligner: str = "",
) -> HybridModel:
    """Choose and fit a hybrid on training groups (one per training file): each group is (rows
    of the `signals`' values, one row per pair; gold scores). See the module text for the rule.
    `names` names the groups in the model; `aligner` labels the aligner the rows came from."""
    import numpy as np

    if not signals or not l2_grid:  # no candidate blend to choose: a TypeError deep inside
        raise ConfigurationError(f"a hybrid needs at least one {'signal' if not signals else 'l2 value'} to choose from")
    check_count(max_signals, "max_signals")
    if not groups or any(len(rows) != len(gold) for rows, gold in groups):
        raise MismatchError("every training group needs one row of signal values per gold score")
    data = [(np.asarray(rows, dtype=float).reshape(len(gold), len(signals)), np.asarray(gold, dtype=float))
            for rows, gold in groups]
    labels = tuple(names) or tuple(f"file {k + 1}" for k in range(len(data)))
    problem = training_problem([g for _, g in data], labels)
    if problem:
        raise ConfigurationError(problem)
    if len(data) == 1:
        data = _split(*data[0], SINGLE_FILE_FOLDS)
        labels = tuple(f"{labels[0]} fold {k + 1}" for k in range(SINGLE_FILE_FOLDS))
    every = np.vstack([x for x, _ in data])
    means = every.mean(axis=0)
    scales = every.std(axis=0)
    scales[scales == 0] = 1.0
    golds = [g for _, g in data]
    candidates, top, top_predictions = [], None, None
    for size in range(1, min(max_signals, len(signals)) + 1):
        for columns in itertools.combinations(range(len(signals)), size):
            for l2 in l2_grid:
                predictions = _held_out(data, list(columns), l2, means, scales)
                held = tuple(_pearson(p, g) for p, g in zip(predictions, golds, strict=True))
                candidates.append(Candidate(tuple(signals[c] for c in columns), l2, held))
                if top is None or candidates[-1].worst > top.worst:
                    top, top_predictions = candidates[-1], predictions
    # a candidate was kept: signals, l2_grid and max_signals (at least 1) are checked above
    assert top_predictions is not None
    tolerance = _worst_error(top_predictions, golds, BOOTSTRAP_SAMPLES)
    best = _one_standard_error(candidates, tolerance)
    candidates.sort(key=lambda c: (c is not best, -c.worst, -c.mean, len(c.signals), -c.l2))
    chosen = [list(signals).index(n) for n in best.signals]
    weights = _rescaled(_within_fit([(_design(x, chosen, means, scales), g) for x, g in data], best.l2),
                        [(_design(x, chosen, means, scales), g) for x, g in data])
    gold = np.concatenate([g for _, g in data])
    return HybridModel(
        best.signals,
        tuple(float(w) for w in weights),
        tuple(float(means[c]) for c in chosen),
        tuple(float(scales[c]) for c in chosen),
        float(gold.mean()),
        best.l2,
        groups=labels,
        candidates=tuple(candidates[:KEPT_CANDIDATES]),
        tolerance=tolerance,
        aligner=aligner,
    )


def signal_rows(batch: AlignedBatch, signals: Sequence[str | Signal]) -> list[tuple[float, ...] | None]:
    """Every signal's value on every aligned pair (None for a pair that failed or that some
    signal could not score)."""
    columns = [score_aligned(batch, signal).scores for signal in signals]
    return [None if any(v is None for v in row) else tuple(row) for row in zip(*columns, strict=True)]


def fit_hybrid_files(
    paths: Sequence[str | Path],
    *,
    signals: Sequence[str] = HYBRID_POOL,
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    encoder: str | None = None,
    device: str = "auto",
) -> HybridModel:
    """Align the pairs of training STS files (any layout :func:`load_sts` reads), score them
    with every candidate signal (the neural ones on the encoder `encoder` on `device`, as
    :class:`HybridSignal` takes them) and :func:`fit_hybrid` on them, one group per file."""
    if not paths:
        raise ConfigurationError("the hybrid signal needs training STS files (--train FILE)")
    # a missing extra fails before any alignment
    made = [make_signal(name, **encoder_options(name, encoder, device)) for name in signals]
    check_signals_encoder(made, encoder, device)  # and a GPU torch does not see, as a missing encoder
    loaded = [load_sts(path).pairs for path in paths]  # every file read and checked before any alignment
    for path, pairs in zip(paths, loaded, strict=True):
        if not pairs:
            raise FormatError("no usable STS pairs to train on", source=str(path))
    problem = training_problem([[p.score for p in pairs] for pairs in loaded], [Path(p).name for p in paths])
    if problem:
        raise FormatError(problem, source=", ".join(map(str, paths)))
    groups = []
    for pairs in loaded:
        # parsed whatever the aligner: the candidates read lemmas (idf) and texts (the neural ones)
        batch = align_pairs([(p.sentence1, p.sentence2) for p in pairs], aligner=aligner, annotator=annotator,
                            workers=workers, progress=progress, parse=True)
        rows = signal_rows(batch, made)
        usable = [(row, p.score) for row, p in zip(rows, pairs, strict=True) if row is not None]
        groups.append(([row for row, _ in usable], [g for _, g in usable]))
    return fit_hybrid(groups, signals, names=[Path(p).name for p in paths], aligner=aligner_label(aligner))


def aligner_mismatch(signal: object, aligner: AlignFunction | str | None) -> str | None:
    """Why a hybrid `signal`'s scores may be off when its pairs are aligned by `aligner` (or by
    the aligner of that :func:`~paralign.aligners.registry.aligner_label` label): its
    blend reads alignments, and was fitted on another aligner's (a blend's weights, means and
    scales hold for the alignments it was fitted on: the shipped blend with ``--preset
    paraphrase`` drops from 87.73 to 84.59 Pearson on STS Benchmark dev). None when nothing is
    amiss, or when the blend does not record its aligner. For a caller to warn with."""
    model = getattr(signal, "model", None)
    if getattr(signal, "name", "") != "hybrid" or not isinstance(model, HybridModel) or not model.aligner:
        return None
    used = aligner if isinstance(aligner, str) else aligner_label(aligner)
    reading = [n for n, c in zip(model.signals, getattr(signal, "components", ()), strict=True) if needs_alignment(c)]
    if used == model.aligner or not reading:
        return None
    return (f"the hybrid blend was fitted on {model.aligner} alignments, but the pairs are aligned by {used}: "
            f"{' and '.join(reading)} will not be on the scale the blend was fitted for; fit a blend for this "
            "aligner with evaluate-sts --signal hybrid --train FILE")
