"""Similarity signals from the neural extra: the cosine of sentence embeddings, and the share of
content words the contextual aligner links (issue 19).

* ``embedding``: the cosine of the two sentences' vectors from :class:`paralign.neural.Encoder`
  (all-MiniLM-L6-v2 by default: mean pooling, L2-normalised, as sentence-transformers encodes).
  The words given to the encoder are the sentence's text split at spaces, so the model's own
  tokenizer sees what it would see in the raw text and the score is the model's cosine
  (``SentenceTransformer.encode`` within 1e-5, for a sentence within the model's window: 256
  sub-words for MiniLM; a longer one is encoded whole, in overlapping windows
  (:mod:`paralign.neural.encoder`), where sentence-transformers truncates it, so the two
  differ there). Cosines lie in [-1, 1]; MiniLM's are
  near 0 for unrelated sentences and rarely negative. Not clipped: clipping would change its
  correlations.
* ``contextual-alignment``: the proportion of content words aligned by the ``contextual``
  aligner, each aligned word counting with the confidence of its most confident link, the two
  sentences' proportions combined by their harmonic mean (as ``sultan2014``). It realigns
  the pair itself: the alignment the pair arrives with (the command's ``--aligner``) is not
  read.

Both encode sentences in batches: :func:`paralign.similarity.score_aligned` calls a signal's
``prepare`` with the whole batch first, and the signals keep what they computed (sentence
vectors by their words, alignments by the pair's tokens) for the calls that follow.

Not for: the encoder (:mod:`paralign.neural`), the aligner (:mod:`paralign.aligners`) or
lexical signals (:mod:`paralign.similarity.signals`). torch loads on first use; without the
extra, making either signal raises :class:`paralign.errors.ExtraMissingError`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..alignment import AlignedSentences, AlignFunction, Alignment
from ..errors import ConfigurationError
from ..metrics import f_measure
from ..resources import stopwords
from ..sentence import Sentence
from .signals import content_indices, register_signal

#: The signals that run the neural encoder (registered in this module).
ENCODER_SIGNALS = frozenset({"embedding", "contextual-alignment"})
#: The signal names a command's --signal may give that run the encoder: these and the hybrid
#: (the shipped blend's embedding, and the candidates a --train fit scores).
NEURAL_SIGNAL_NAMES = ENCODER_SIGNALS | {"hybrid"}

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..aligners.contextual import ContextualAligner
    from ..neural import Encoder

#: Entries a signal's cache holds before it starts again (a long stream never grows it without end):
#: the default of the signals' `cache_size`, for batches (a server passes a smaller one).
CACHE_LIMIT = 200_000


def encoder_words(sentence: Sentence) -> tuple[str, ...]:
    """What the encoder is given for a sentence: its text split at spaces (the model's tokenizer
    then splits punctuation as it would in the raw text); its tokens when that gives nothing."""
    return tuple(sentence.text.split()) or sentence.tokens


def _encoder(model: str | None, device: str) -> Encoder:
    from ..neural import Encoder  # numpy and the extra's check: only when a neural signal is made

    return Encoder(model, device=device)


class EmbeddingSignal:
    """``embedding``: the cosine of the two sentences' encoder vectors (see the module text).

    `model` and `device` are :class:`paralign.neural.Encoder`'s (default: the
    ``PARALIGN_ENCODER`` setting, ``auto``). Vectors are cached by the sentence's words, at most
    `cache_size` sentences besides those of the batch asked for."""

    name = "embedding"
    needs_alignment = False  #: reads the sentences only: callers skip the Sultan aligner

    def __init__(self, model: str | None = None, device: str = "auto", cache_size: int = CACHE_LIMIT) -> None:
        self.model = model
        self.device = device
        self.cache_size = cache_size
        self.encoder = _encoder(model, device)
        self._vectors: dict[tuple[str, ...], np.ndarray] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for worker processes without the loaded model (each process loads its own)."""
        return {"model": self.model, "device": self.device, "vectors": self._vectors,
                "cache_size": self.cache_size}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["model"], state["device"], state.get("cache_size", CACHE_LIMIT))  # type: ignore[misc]  # __init__ again, to unpickle
        self._vectors = dict(state["vectors"])

    def prepare(self, pairs: Iterable[AlignedSentences | None]) -> None:
        """Encode, in batches, every sentence of `pairs` not encoded yet."""
        self.vectors(s for pair in pairs if pair is not None for s in (pair.source, pair.target))

    def vectors(self, sentences: Iterable[Sentence]) -> list[np.ndarray]:
        """The sentence vector of each sentence (L2-normalised), encoding only those not cached."""
        keys = [encoder_words(s) for s in sentences]
        missing = list(dict.fromkeys(k for k in keys if k not in self._vectors))
        if missing:
            if len(self._vectors) + len(missing) > self.cache_size:
                self._vectors = {k: self._vectors[k] for k in keys if k in self._vectors}
            for key, encoded in zip(missing, self.encoder.encode(missing), strict=True):
                self._vectors[key] = encoded.sentence
        return [self._vectors[k] for k in keys]

    def __call__(self, pair: AlignedSentences) -> float:
        a, b = self.vectors([pair.source, pair.target])
        return max(-1.0, min(1.0, float(a @ b)))


def link_confidences(alignment: Alignment) -> Mapping[tuple[int, int], float]:
    """Each link's confidence in [0, 1]: the alignment's own (a ``confidence`` mapping, as the
    contextual aligner gives), 1.0 for a link it gives none."""
    given = getattr(alignment, "confidence", None) or {}
    return {link: float(given.get(link, 1.0)) for link in alignment.possible}


def weighted_proportion(sentence: Sentence, best: Mapping[int, float]) -> float:
    """The confidence-weighted share of a sentence's content words (all its non-punctuation
    words when it has none, all its tokens when it is punctuation or symbols only, as
    ``sultan2014`` counts them: two identical "..." score as identical, not 0) that are
    aligned: `best[i]` is word i's best link confidence."""
    words = content_indices(sentence, stopwords()) or [
        i for i, tok in enumerate(sentence.tokens) if any(ch.isalnum() for ch in tok)
    ] or list(range(len(sentence.tokens)))
    return sum(best.get(i, 0.0) for i in words) / len(words) if words else 0.0


def confidence_weighted_score(pair: AlignedSentences, alignment: Alignment) -> float:
    """Harmonic mean of the two sentences' confidence-weighted aligned content-word shares."""
    best_s: dict[int, float] = {}
    best_t: dict[int, float] = {}
    for (i, j), confidence in link_confidences(alignment).items():
        best_s[i] = max(best_s.get(i, 0.0), confidence)
        best_t[j] = max(best_t.get(j, 0.0), confidence)
    return f_measure(weighted_proportion(pair.source, best_s), weighted_proportion(pair.target, best_t))


@functools.cache
def contextual_aligner(model: str | None = None, device: str = "auto") -> ContextualAligner:
    """The ``contextual`` preset's aligner with the encoder `model` on `device` (the encoder
    options :class:`paralign.neural.Encoder` takes), built once per process and per (model,
    device): what ``contextual-alignment`` realigns with, and what the similarity commands'
    ``--preset contextual`` aligns with when given ``--encoder`` or ``--device``."""
    from ..aligners.contextual import ContextualAligner

    return ContextualAligner(model, device=device)


def encoder_options(name: str, model: str | None, device: str) -> dict[str, object]:
    """The options that make the signal registered as `name` use the encoder `model` on `device`
    (for :func:`~paralign.similarity.make_signal`): ``model`` and ``device`` for the neural
    signals (:data:`ENCODER_SIGNALS`), ``encoder`` and ``device`` for the ``hybrid`` (whose
    ``model`` is its blend; it passes them on to its neural components); nothing for another
    signal, or when both are the defaults (None and ``auto``), so a signal made without them is
    made as before."""
    if model is None and device == "auto":
        return {}
    if name in ENCODER_SIGNALS:
        return {"model": model, "device": device}
    return {"encoder": model, "device": device} if name == "hybrid" else {}


def check_run_encoder(encoder: str | None, device: str) -> None:
    """:func:`paralign.neural.check_encoder` on the encoder `encoder` on `device`, before a run's
    work: without the neural extra, with an encoder that is not there, or with a GPU torch does
    not see, the run fails in seconds, not where the model loads once every pair is aligned. A
    GPU is left to a scheduler's workers (the enclosing runner block's,
    :func:`paralign.workers.block_options`), which have their own."""
    from ..neural import check_encoder
    from ..workers import block_options

    options = block_options()
    check_encoder(encoder, device, check_gpu=options is None or options.address() is None)


class ContextualAlignmentSignal:
    """``contextual-alignment``: content words aligned by the contextual aligner,
    confidence-weighted (see the module text). `aligner` replaces the ``contextual`` preset
    (any alignment function; links without a confidence count 1); else the preset's aligner
    encodes with `model` on `device` (:class:`paralign.neural.Encoder`'s options, as
    ``embedding`` takes them; default: the ``PARALIGN_ENCODER`` setting, ``auto``). Alignments
    are cached by the pair's words, at most `cache_size` pairs besides those of the batch asked for."""

    name = "contextual-alignment"
    needs_alignment = False  #: aligns the annotated sentences itself, never reads the pair's links

    def __init__(self, aligner: AlignFunction | None = None, cache_size: int = CACHE_LIMIT, *,
                 model: str | None = None, device: str = "auto") -> None:
        _encoder(model, device)  # without the extra, or a bad device: the one-line error before any work
        if aligner is not None and (model is not None or device != "auto"):
            raise ConfigurationError("contextual-alignment: give an aligner or the encoder's model and "
                                     "device (for the contextual aligner it builds), not both")
        self._given = aligner
        self.model = model
        self.device = device
        self.cache_size = cache_size
        self._alignments: dict[tuple[tuple[str, ...], tuple[str, ...]], Alignment] = {}

    @property
    def aligner(self) -> AlignFunction:
        """The aligner given, else the contextual preset's on this signal's encoder (built on
        first use, once per process and encoder)."""
        return self._given if self._given is not None else contextual_aligner(self.model, self.device)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for worker processes with its alignments and encoder settings, not the
        default aligner's model (each process builds its own)."""
        return {"given": self._given, "alignments": self._alignments, "cache_size": self.cache_size,
                "model": self.model, "device": self.device}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._given = state["given"]
        self.model = state.get("model")
        self.device = state.get("device", "auto")
        self.cache_size = state.get("cache_size", CACHE_LIMIT)
        self._alignments = dict(state["alignments"])

    def prepare(self, pairs: Iterable[AlignedSentences | None]) -> None:
        """Align, in one batch when the aligner can (an ``align_annotated`` method), every pair not
        aligned yet."""
        todo = {(p.source.tokens, p.target.tokens): p for p in pairs if p is not None}
        todo = {k: p for k, p in todo.items() if k not in self._alignments}
        many = getattr(self.aligner, "align_annotated", None)
        if not todo or not callable(many):
            return
        if len(self._alignments) + len(todo) > self.cache_size:
            self._alignments.clear()
        results = many([(p.source, p.target) for p in todo.values()])
        for key, result in zip(todo, results, strict=True):
            alignment = getattr(result, "alignment", result)
            if isinstance(alignment, Alignment):
                self._alignments[key] = alignment

    def alignment(self, pair: AlignedSentences) -> Alignment:
        """The contextual aligner's alignment of the pair's sentences (cached)."""
        key = (pair.source.tokens, pair.target.tokens)
        found = self._alignments.get(key)
        if found is None:
            found = self.aligner(pair.source, pair.target)
            if len(self._alignments) >= self.cache_size:
                self._alignments.clear()
            self._alignments[key] = found
        return found

    def __call__(self, pair: AlignedSentences) -> float:
        return confidence_weighted_score(pair, self.alignment(pair))


#: Paraphrase features from the encoder (``--feature-set alignment+mt+embedding``), each the lower
#: and the higher of the two sentences' values (so swapping the sentences changes none):
#: ``embedding`` the sentence cosine; ``soft`` the mean, over a sentence's content words, of each
#: word's best cosine with any word of the other sentence (contextual word vectors);
#: ``worst`` the lowest such best cosine (the word the other sentence matches least);
#: ``weak5``/``weak7`` log(1 + content words whose best cosine is below 0.5 / 0.7);
#: ``kernel30`` ... ``kernel100`` how many best cosines lie near 0.3, 0.5, 0.7, 0.8, 0.9, 1.0
#: (log(1 + the sum of a Gaussian kernel of width 0.1 over the content words), the fixed
#: kernels of K-NRM, Xiong et al. 2017: a soft histogram of how well the words are matched);
#: ``missed_names`` log(1 + capitalised or digit-bearing content words whose best cosine is
#: below 0.8: names and numbers the other sentence lacks). ``length_gap`` is the squared log
#: ratio of the two sentences' lengths in tokens. Chosen by 10-fold CV on the MSRP training
#: pairs (docs/results/neural-similarity.md).
KERNELS: tuple[float, ...] = (0.3, 0.5, 0.7, 0.8, 0.9, 1.0)
KERNEL_WIDTH = 0.1
WORD_MATCH: tuple[str, ...] = (
    "soft", "worst", "weak5", "weak7", *(f"kernel{round(100 * m)}" for m in KERNELS), "missed_names"
)
EMBEDDING_FEATURES: tuple[str, ...] = ("embedding",) + tuple(
    f"{name}_{side}" for side in ("min", "max") for name in WORD_MATCH
) + ("length_gap",)


class EmbeddingFeatures:
    """The :data:`EMBEDDING_FEATURES` of aligned pairs, from one encoder pass over our tokens
    (word vectors of the last layer, the sentence vector by mean pooling). :meth:`prepare`
    encodes a batch at once; vectors are cached by the sentence's tokens."""

    def __init__(self, model: str | None = None, device: str = "auto") -> None:
        self.model = model
        self.device = device
        self.encoder = _encoder(model, device)
        self._encoded: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"model": self.model, "device": self.device, "encoded": self._encoded}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["model"], state["device"])  # type: ignore[misc]  # __init__ again, to unpickle
        self._encoded = dict(state["encoded"])

    def prepare(self, pairs: Iterable[AlignedSentences | None]) -> None:
        """Encode, in batches, every sentence of `pairs` not encoded yet."""
        self._vectors([s for pair in pairs if pair is not None for s in (pair.source, pair.target)])

    def _vectors(self, sentences: list[Sentence]) -> list[tuple[np.ndarray, np.ndarray]]:
        """(unit word vectors, sentence vector) of each sentence."""
        import numpy as np

        keys = [s.tokens for s in sentences]
        missing = list(dict.fromkeys(k for k in keys if k not in self._encoded))
        if missing:
            if len(self._encoded) + len(missing) > CACHE_LIMIT:  # those asked for are kept
                self._encoded = {k: self._encoded[k] for k in keys if k in self._encoded}
            for key, encoded in zip(missing, self.encoder.encode(missing), strict=True):
                words = encoded.matrix
                words = words / np.maximum(np.linalg.norm(words, axis=1, keepdims=True), 1e-12)
                self._encoded[key] = (words, encoded.sentence)
        return [self._encoded[k] for k in keys]

    def __call__(self, pair: AlignedSentences) -> tuple[float, ...]:
        """The :data:`EMBEDDING_FEATURES` of one pair."""
        (wa, va), (wb, vb) = self._vectors([pair.source, pair.target])
        best = wa @ wb.T
        return (max(-1.0, min(1.0, float(va @ vb))), *word_match_features(pair.source.tokens, pair.target.tokens, best))


def word_match_features(source: tuple[str, ...], target: tuple[str, ...], cosines: np.ndarray) -> tuple[float, ...]:
    """The word-match part of :data:`EMBEDDING_FEATURES` (all but the sentence cosine) of two
    token sequences from their word-by-word cosine matrix (rows: `source`)."""
    import math

    sides = [_word_match(source, cosines.max(axis=1)), _word_match(target, cosines.max(axis=0))]
    low = [min(a, b) for a, b in zip(*sides, strict=True)]
    high = [max(a, b) for a, b in zip(*sides, strict=True)]
    return (*low, *high, math.log(len(source) / len(target)) ** 2)


def _word_match(tokens: tuple[str, ...], best: np.ndarray) -> tuple[float, ...]:
    """:data:`WORD_MATCH` of one sentence from its words' best cosines."""
    import math

    words = content_indices(tokens, stopwords()) or list(range(len(tokens)))
    values = [float(best[i]) for i in words]
    kernels = [math.log1p(sum(math.exp(-((v - m) ** 2) / (2 * KERNEL_WIDTH**2)) for v in values)) for m in KERNELS]
    names = [i for i in words if tokens[i][:1].isupper() or any(ch.isdigit() for ch in tokens[i])]
    return (
        sum(values) / len(values),
        min(values),
        math.log1p(sum(v < 0.5 for v in values)),
        math.log1p(sum(v < 0.7 for v in values)),
        *kernels,
        math.log1p(sum(float(best[i]) < 0.8 for i in names)),
    )


register_signal("embedding", EmbeddingSignal)
register_signal("contextual-alignment", ContextualAlignmentSignal)
