"""A logistic-regression paraphrase classifier over features read off a word alignment.

Sultan et al. (2014, 4.2.2) threshold one number, the aligned content-word proportion. That
number cannot see *what* is left unaligned: a name, a number or a verb, in one sentence or in
both, in a short pair or a long one. :data:`FEATURES` adds such counts, all read off the same
alignment and annotation. :data:`OVERLAP_FEATURES` add MT metrics' surface overlap of the two
sentences (n-gram precisions, chrF, TER), as Madnani, Tetreault & Chodorow (2012) used for MSRP.
:class:`LogisticModel` weighs them on training pairs. Its probability is then thresholded like
any signal (``evaluate_paraphrase(classifier="features")``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .errors import ConfigurationError, MismatchError
from .metrics import f_measure
from .resources import stopwords
from .sentence import Sentence, fold_apostrophe
from .similarity import content_indices, is_number, make_signal

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .similarity import AlignedSentences

#: Features read off the alignment. ``content`` is the paper's score (``sultan2014``);
#: ``unaligned*`` are log1p counts of unaligned content words.
ALIGNMENT_FEATURES: tuple[str, ...] = (
    "content",  # harmonic mean of the two aligned content-word proportions
    "content_min",  # the lower of the two proportions
    "content_max",  # the higher one
    "all_words",  # harmonic mean over all non-punctuation words
    "unaligned_number",  # 1 when a number written in digits is unaligned on either side
    "length_ratio",  # shorter over longer content-word count
    "unaligned",  # unaligned content words of both sentences
    "unaligned_max",  # of the sentence with more of them
    "unaligned_min",  # of the other
    "log_length",  # log(1 + content words of both)
    "negation_mismatch",  # 1 when only one sentence has a negation
    "unaligned_noun",
    "unaligned_propn",
    "unaligned_verb",
    "unaligned_modifier",  # ADJ and ADV
    "unaligned_num",  # tagged NUM (spelled-out numbers too)
)

#: MT metrics' surface overlap of the lowercased tokens, each sentence in turn the hypothesis:
#: the lower and the higher of the two directions (so the features are symmetric). BLEU's
#: clipped n-gram precisions (n = 1..4), chrF and TER, from sacrebleu, all scaled to 0..1.
OVERLAP_FEATURES: tuple[str, ...] = tuple(
    f"{metric}_{side}" for metric in ("bleu_p1", "bleu_p2", "bleu_p3", "bleu_p4", "chrf", "ter") for side in ("min", "max")
)

#: The default feature set: both kinds (chosen by CV on the MSRP training pairs,
#: docs/results/similarity.md).
FEATURES: tuple[str, ...] = ALIGNMENT_FEATURES + OVERLAP_FEATURES

#: Named feature sets of the ``features`` classifier (``--feature-set``).
FEATURE_SETS: dict[str, tuple[str, ...]] = {"alignment": ALIGNMENT_FEATURES, "alignment+mt": FEATURES}
DEFAULT_FEATURE_SET = "alignment+mt"

_NEGATIONS = frozenset({"not", "n't", "no", "never"})
_POS_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"NOUN"}),
    frozenset({"PROPN"}),
    frozenset({"VERB"}),
    frozenset({"ADJ", "ADV"}),
    frozenset({"NUM"}),
)


@dataclass(frozen=True, slots=True)
class _Side:
    """What one sentence contributes: proportions and counts of its unaligned words."""

    content: float
    all_words: float
    unaligned: int
    unaligned_numbers: int
    length: int
    by_pos: tuple[int, ...]
    negated: bool


def _side(sentence: Sentence, aligned: set[int]) -> _Side:
    words = [i for i, tok in enumerate(sentence.tokens) if any(ch.isalnum() for ch in tok)]
    content = content_indices(sentence, stopwords()) or words
    missing = [i for i in content if i not in aligned]
    pos = sentence.pos or ("",) * len(sentence)
    return _Side(
        content=(len(content) - len(missing)) / len(content) if content else 0.0,
        all_words=sum(i in aligned for i in words) / len(words) if words else 0.0,
        unaligned=len(missing),
        unaligned_numbers=sum(1 for i in missing if is_number(sentence.tokens[i])),
        length=len(content),
        by_pos=tuple(sum(1 for i in missing if pos[i] in group) for group in _POS_GROUPS),
        negated=any(fold_apostrophe(tok.lower()) in _NEGATIONS for tok in sentence.tokens),
    )


def alignment_features(pair: AlignedSentences) -> tuple[float, ...]:
    """The :data:`ALIGNMENT_FEATURES` of an aligned pair (symmetric: swapping the sentences
    changes none)."""
    links = pair.alignment.possible
    s = _side(pair.source, {i for i, _ in links})
    t = _side(pair.target, {j for _, j in links})
    longer = max(s.length, t.length)
    return (
        f_measure(s.content, t.content),
        min(s.content, t.content),
        max(s.content, t.content),
        f_measure(s.all_words, t.all_words),
        float(s.unaligned_numbers + t.unaligned_numbers > 0),
        min(s.length, t.length) / longer if longer else 1.0,
        math.log1p(s.unaligned + t.unaligned),
        math.log1p(max(s.unaligned, t.unaligned)),
        math.log1p(min(s.unaligned, t.unaligned)),
        math.log(s.length + t.length + 1),
        float(s.negated != t.negated),
        *(math.log1p(a + b) for a, b in zip(s.by_pos, t.by_pos, strict=True)),
    )


@cache
def _mt_metrics() -> tuple[object, object, object]:
    """sacrebleu's BLEU (on given tokens, effective order for short sentences), chrF and TER."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    return BLEU(tokenize="none", effective_order=True), CHRF(), TER()


def overlap_features(source: Sentence, target: Sentence) -> tuple[float, ...]:
    """The :data:`OVERLAP_FEATURES` of two annotated sentences (no alignment needed)."""
    bleu, chrf, ter = _mt_metrics()
    a = " ".join(tok.lower() for tok in source.tokens)
    b = " ".join(tok.lower() for tok in target.tokens)
    forward = bleu.sentence_score(a, [b]).precisions  # type: ignore[attr-defined]
    backward = bleu.sentence_score(b, [a]).precisions  # type: ignore[attr-defined]
    pairs = [(forward[n], backward[n]) for n in range(4)]
    pairs.append((chrf.sentence_score(a, [b]).score, chrf.sentence_score(b, [a]).score))  # type: ignore[attr-defined]
    pairs.append((ter.sentence_score(a, [b]).score, ter.sentence_score(b, [a]).score))  # type: ignore[attr-defined]
    return tuple(v / 100.0 for x, y in pairs for v in (min(x, y), max(x, y)))


def pair_features(pair: AlignedSentences, features: Sequence[str] = FEATURES) -> tuple[float, ...]:
    """The named `features` of an aligned pair, in that order (default: :data:`FEATURES`); each
    kind is computed only when one of its features is asked for."""
    values: dict[str, float] = {}
    if any(name in _ALIGNMENT_SET for name in features):
        values.update(zip(ALIGNMENT_FEATURES, alignment_features(pair), strict=True))
    if any(name in _OVERLAP_SET for name in features):
        values.update(zip(OVERLAP_FEATURES, overlap_features(pair.source, pair.target), strict=True))
    try:
        return tuple(values[name] for name in features)
    except KeyError as exc:
        raise ConfigurationError(f"unknown paraphrase feature {exc.args[0]!r}: choose from {', '.join(FEATURES)}") from None


def feature_set(name: str) -> tuple[str, ...]:
    """The feature names of a named set (:data:`FEATURE_SETS`)."""
    try:
        return FEATURE_SETS[name]
    except KeyError:
        raise ConfigurationError(f"unknown feature set {name!r}: choose from {', '.join(FEATURE_SETS)}") from None


_ALIGNMENT_SET = frozenset(ALIGNMENT_FEATURES)
_OVERLAP_SET = frozenset(OVERLAP_FEATURES)


def logistic_weights(
    design: np.ndarray, labels: np.ndarray, l2: float = 0.0, max_iterations: int = 100
) -> np.ndarray | None:
    """Logistic-regression weights by Newton's method (IRLS) for a design matrix whose first
    column is the intercept (not penalised); None when the fit does not converge within
    `max_iterations` (separable classes without `l2`: the weights grow without end)."""
    import numpy as np

    penalty = l2 * np.eye(design.shape[1])
    penalty[0, 0] = 0.0
    w = np.zeros(design.shape[1])
    for _ in range(max_iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ w)))
        gradient = design.T @ (p - labels) + penalty @ w
        hessian = (design * (p * (1 - p))[:, None]).T @ design + penalty + 1e-9 * np.eye(design.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if not np.all(np.isfinite(w)):
            return None
        if np.abs(step).max() < 1e-10:
            return w
    return None


@dataclass(frozen=True, slots=True)
class LogisticModel:
    """L2-regularised logistic regression on standardised features: ``P(paraphrase | features)``.

    Fitted by Newton's method (the problem is small and convex); the intercept is not penalised.
    ``to_dict``/``from_dict`` round-trip it through JSON.
    """

    features: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    l2: float = 1.0

    @classmethod
    def fit(
        cls,
        rows: Sequence[Sequence[float]],
        labels: Sequence[bool],
        *,
        features: Sequence[str] = FEATURES,
        l2: float = 1.0,
        max_iterations: int = 100,
    ) -> LogisticModel:
        """Fit on training rows (one feature vector per pair) and their paraphrase labels."""
        import numpy as np

        if len(rows) != len(labels):
            raise MismatchError(f"{len(rows)} feature rows vs {len(labels)} labels")
        if not rows:
            raise ConfigurationError("cannot fit a paraphrase model without training pairs")
        x = np.asarray(rows, dtype=float)
        if x.ndim != 2 or x.shape[1] != len(features):
            raise MismatchError(f"feature rows must have {len(features)} columns, got shape {x.shape}")
        if l2 < 0:
            raise ConfigurationError(f"l2 must be >= 0, got {l2}")
        if len(set(map(bool, labels))) < 2:
            kind = "paraphrases" if labels[0] else "non-paraphrases"
            raise ConfigurationError(f"all {len(labels)} training pairs are {kind}: a classifier needs both classes")
        y = np.asarray(labels, dtype=float)
        means = x.mean(axis=0)
        scales = x.std(axis=0)
        scales[scales == 0] = 1.0  # a constant feature: leave it at zero after centring
        z = np.hstack([np.ones((len(x), 1)), (x - means) / scales])
        w = logistic_weights(z, y, l2, max_iterations)
        if w is None:
            hint = ": use l2 > 0" if l2 == 0 else f" even with l2 = {l2:g}: try a larger l2"
            raise ConfigurationError(
                f"the logistic model does not converge on these {len(rows)} training pairs (separable classes?){hint}"
            )
        return cls(
            tuple(features),
            tuple(float(v) for v in means),
            tuple(float(v) for v in scales),
            tuple(float(v) for v in w[1:]),
            float(w[0]),
            l2,
        )

    def probability(self, row: Sequence[float]) -> float:
        """P(paraphrase) for one feature vector."""
        return self.probabilities([row])[0]  # type: ignore[return-value]  # a row, so not None

    def probabilities(self, rows: Sequence[Sequence[float] | None]) -> list[float | None]:
        """P(paraphrase) for many feature vectors at once (None stays None: a pair that failed)."""
        import numpy as np

        present = [k for k, row in enumerate(rows) if row is not None]
        out: list[float | None] = [None] * len(rows)
        if not present:
            return out
        x = np.asarray([rows[k] for k in present], dtype=float)
        if x.shape[1] != len(self.weights):
            raise MismatchError(f"expected {len(self.weights)} features, got {x.shape[1]}")
        logits = self.intercept + ((x - np.asarray(self.means)) / np.asarray(self.scales)) @ np.asarray(self.weights)
        for k, value in zip(present, 1.0 / (1.0 + np.exp(-np.clip(logits, -700, 700))), strict=True):
            out[k] = float(value)
        return out

    def to_dict(self) -> dict:
        return {
            "kind": "logistic",
            "l2": self.l2,
            "intercept": self.intercept,
            "features": [
                {"name": n, "weight": w, "mean": m, "scale": s}
                for n, w, m, s in zip(self.features, self.weights, self.means, self.scales, strict=True)
            ],
        }

    @classmethod
    def from_dict(cls, data: dict) -> LogisticModel:
        """The model :meth:`to_dict` wrote (e.g. read back from a JSON report)."""
        try:
            rows = data["features"]
            return cls(
                tuple(str(r["name"]) for r in rows),
                tuple(float(r["mean"]) for r in rows),
                tuple(float(r["scale"]) for r in rows),
                tuple(float(r["weight"]) for r in rows),
                float(data["intercept"]),
                float(data.get("l2", 1.0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigurationError(f"not a paraphrase model: {exc!r}") from exc


@dataclass(frozen=True, slots=True)
class ModelSignal:
    """A fitted :class:`LogisticModel` used as a similarity signal: P(paraphrase) of a pair."""

    model: LogisticModel
    name: str = "features-model"

    def __call__(self, pair: AlignedSentences) -> float:
        return self.model.probability(pair_features(pair, self.model.features))


@dataclass(frozen=True, slots=True)
class TrainedClassifier:
    """What an ``evaluate-paraphrase`` report needs to classify new pairs: the score (a signal or
    the fitted model), the threshold chosen on the training pairs, and the aligner they used."""

    signal: object  #: a :class:`paralign.similarity.Signal`
    threshold: float
    aligner: str  #: ``sultan`` or ``exact``
    preset: str  #: the sultan aligner's preset

    @classmethod
    def from_report(cls, report: dict, source: str = "report") -> TrainedClassifier:
        """Read the JSON of ``paralign evaluate-paraphrase --format json`` (or
        ``ParaphraseEvaluation.to_dict()``); `source` names it in errors."""
        try:
            threshold = float(report["threshold"])
            label = str(report.get("aligner") or "sultan:default")
            classifier = report.get("classifier", "signal")
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigurationError(f"{source}: not an evaluate-paraphrase report ({exc!r})") from exc
        name, _, preset = label.partition(":")
        if name not in ("sultan", "exact"):
            raise ConfigurationError(f"{source}: aligner {label!r} cannot be rebuilt (use sultan or exact)")
        if classifier == "features":
            if not report.get("model"):
                raise ConfigurationError(f"{source}: a features classifier report without its model")
            model = LogisticModel.from_dict(report["model"])
            unknown = [name for name in model.features if name not in FEATURES]
            if unknown:
                raise ConfigurationError(f"{source}: the model uses unknown features {', '.join(unknown)}")
            signal: object = ModelSignal(model)
        else:
            signal = make_signal(str(report.get("signal") or "sultan2014"))
            if getattr(signal, "trainable", False):
                raise ConfigurationError(
                    f"{source}: signal {report.get('signal')!r} needs its training IDF statistics, "
                    "which reports do not keep"
                )
        return cls(signal, threshold, name, preset or "default")
