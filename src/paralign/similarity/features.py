"""Features of an aligned pair for the paraphrase classifier: what is left unaligned, and MT overlap.

Sultan et al. (2014, 4.2.2) threshold one number, the aligned content-word proportion. That
number cannot see *what* is left unaligned: a name, a number or a verb, in one sentence or in
both, in a short pair or a long one. :data:`FEATURES` adds such counts, all read off the same
alignment and annotation. :data:`OVERLAP_FEATURES` add MT metrics' surface overlap of the two
sentences (n-gram precisions, chrF, TER), as Madnani, Tetreault & Chodorow (2012) used for MSRP.
:class:`LogisticModel` weighs them on training pairs. Its probability is then thresholded like
any signal (``evaluate_paraphrase(classifier="features")``).

Not for: the model that weighs them (:mod:`paralign.similarity.model`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..alignment import AlignedSentences
from ..errors import ConfigurationError, InputTypeError, shown_value
from ..metrics import f_measure
from ..resources import stopwords
from ..sentence import Sentence, fold_apostrophe
from ..shown_text import shown_form
from .signals import content_indices, is_number

if TYPE_CHECKING:  # pragma: no cover
    from sacrebleu.metrics import BLEU, CHRF, TER

    from .contextual import EmbeddingFeatures

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

#: Features from the neural extra's encoder (issue 19; see
#: :data:`paralign.similarity.contextual.EMBEDDING_FEATURES`, spelt out here so that naming them
#: loads nothing).
EMBEDDING_FEATURES: tuple[str, ...] = ("embedding",) + tuple(
    f"{name}_{side}"
    for side in ("min", "max")
    for name in ("soft", "worst", "weak5", "weak7", "kernel30", "kernel50", "kernel70", "kernel80", "kernel90",
                 "kernel100", "missed_names")
) + ("length_gap",)

#: Every feature a model may use.
KNOWN_FEATURES: tuple[str, ...] = FEATURES + EMBEDDING_FEATURES

#: Named feature sets of the ``features`` classifier (``--feature-set``).
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "alignment": ALIGNMENT_FEATURES,
    "alignment+mt": FEATURES,
    "alignment+mt+embedding": FEATURES + EMBEDDING_FEATURES,
}
DEFAULT_FEATURE_SET = "alignment+mt"
#: The logistic model's L2 penalty for a feature set when none is given (chosen by 10-fold CV on
#: the MSRP training pairs: docs/results/similarity.md for the lexical sets, 1;
#: docs/results/neural-similarity.md for the embedding set, 10, as its 24 correlated encoder
#: features want more shrinkage).
FEATURE_SET_L2: dict[str, float] = {"alignment": 1.0, "alignment+mt": 1.0, "alignment+mt+embedding": 10.0}
#: Feature sets whose classifier, by default, also fine-tunes a cross-encoder on the training pairs
#: and averages its probability with the logistic model's (issue 19; the neural extra).
CROSS_ENCODER_SETS: frozenset[str] = frozenset({"alignment+mt+embedding"})

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
    """One sentence's part, its words counted as the signals count them: content words, else
    every word, else (a sentence of punctuation only: "...") every token, so that the
    ``content`` feature is the ``sultan2014`` signal and ``all_words`` the ``all-words`` one
    (two identical "..." had 0 for both, and a model read them as a pair with nothing aligned)."""
    words = [i for i, tok in enumerate(sentence.tokens) if any(ch.isalnum() for ch in tok)] or list(range(len(sentence)))
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
def _mt_metrics() -> tuple[BLEU, CHRF, TER]:
    """sacrebleu's BLEU (on given tokens, effective order for short sentences), chrF and TER."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    return BLEU(tokenize="none", effective_order=True), CHRF(), TER()


def overlap_features(source: Sentence, target: Sentence) -> tuple[float, ...]:
    """The :data:`OVERLAP_FEATURES` of two annotated sentences (no alignment needed), over their
    tokens as they show (:func:`~paralign.shown_text.shown_form`, as the aligners compare a given
    token): "café" with a combining accent (NFD) shared no character n-gram or word with "café"
    (NFC), so a pair of token lists the same but for their normal form scored as unrelated."""
    bleu, chrf, ter = _mt_metrics()
    a = " ".join(shown_form(tok).lower() for tok in source.tokens)
    b = " ".join(shown_form(tok).lower() for tok in target.tokens)
    forward = bleu.sentence_score(a, [b]).precisions
    backward = bleu.sentence_score(b, [a]).precisions
    pairs = [(forward[n], backward[n]) for n in range(4)]
    pairs.append((chrf.sentence_score(a, [b]).score, chrf.sentence_score(b, [a]).score))
    pairs.append((ter.sentence_score(a, [b]).score, ter.sentence_score(b, [a]).score))
    return tuple(v / 100.0 for x, y in pairs for v in (min(x, y), max(x, y)))


def pair_features(
    pair: AlignedSentences, features: Sequence[str] = FEATURES, *, encoder: str | None = None, device: str = "auto",
) -> tuple[float, ...]:
    """The named `features` of an aligned pair, in that order (default: :data:`FEATURES`); each
    kind is computed only when one of its features is asked for. The encoder features come from
    the encoder `encoder` on `device` (:func:`embedding_features`)."""
    values: dict[str, float] = {}
    if any(name in _ALIGNMENT_SET for name in features):
        values.update(zip(ALIGNMENT_FEATURES, alignment_features(pair), strict=True))
    if any(name in _OVERLAP_SET for name in features):
        values.update(zip(OVERLAP_FEATURES, overlap_features(pair.source, pair.target), strict=True))
    if any(name in _EMBEDDING_SET for name in features):
        values.update(zip(EMBEDDING_FEATURES, embedding_features(encoder, device)(pair), strict=True))
    try:
        return tuple(values[name] for name in features)
    except KeyError as exc:
        raise ConfigurationError(
            f"unknown paraphrase feature {exc.args[0]!r}: choose from {', '.join(KNOWN_FEATURES)}"
        ) from None


def embedding_features(encoder: str | None = None, device: str = "auto") -> EmbeddingFeatures:
    """The process's :class:`paralign.similarity.contextual.EmbeddingFeatures` of the encoder
    `encoder` on `device` (:class:`paralign.neural.Encoder`'s `model` and `device`; default: the
    ``PARALIGN_ENCODER`` setting, ``auto``), one per (encoder, device) and process (the neural
    extra; its error when missing), shared so that :func:`prepare_features` batches for it."""
    return _embedding_features(encoder, device)


@cache
def _embedding_features(encoder: str | None, device: str) -> EmbeddingFeatures:
    """:func:`embedding_features`, cached by its arguments as given positionally (so that
    ``embedding_features()`` and ``embedding_features(None, "auto")`` are one instance)."""
    from .contextual import EmbeddingFeatures

    return EmbeddingFeatures(encoder, device)


def prepare_features(
    pairs: Sequence[AlignedSentences | None], features: Sequence[str], *, encoder: str | None = None,
    device: str = "auto",
) -> None:
    """Batch work before :func:`pair_features` is mapped over `pairs` (with the same `encoder`
    and `device`): encode their sentences at once when `features` include encoder features
    (worker processes forked later inherit it)."""
    if any(name in _EMBEDDING_SET for name in features):
        embedding_features(encoder, device).prepare(pairs)


def uses_encoder(features: Sequence[str]) -> bool:
    """Whether some of `features` come from the neural encoder (:data:`EMBEDDING_FEATURES`)."""
    return any(name in _EMBEDDING_SET for name in features)


def feature_set(name: str) -> tuple[str, ...]:
    """The feature names of a named set (:data:`FEATURE_SETS`); a name that is no str is an
    InputTypeError (a list was "unhashable type")."""
    if not isinstance(name, str):
        raise InputTypeError(f"feature_set must be a feature set's name ({', '.join(FEATURE_SETS)}), not "
                             f"{type(name).__name__} {shown_value(name)}")
    try:
        return FEATURE_SETS[name]
    except KeyError:
        raise ConfigurationError(f"unknown feature set {name!r}: choose from {', '.join(FEATURE_SETS)}") from None


_ALIGNMENT_SET = frozenset(ALIGNMENT_FEATURES)
_OVERLAP_SET = frozenset(OVERLAP_FEATURES)
_EMBEDDING_SET = frozenset(EMBEDDING_FEATURES)
