"""Similarity signals: scores in [0, 1] read off an aligned pair (Sultan et al. 2014, 4.2).

The similarity of two sentences is read off their word alignment: the more of their content
words align, the more similar they are. Scores come from *signals*, functions of an aligned pair
registered by name in :data:`SIGNALS` so that new ones (IDF weighting, embeddings...) can be
added with :func:`register_signal` and measured before becoming the default:

* ``sultan2014`` (default): the proportion of aligned content words in each sentence, combined
  by their harmonic mean, ``2·pS·pT / (pS + pT)`` (TACL 2014 section 4.2, written out in the
  DLS@CU SemEval-2014 paper). With one-to-one links this equals ``2·a / (nS + nT)``.
* ``sultan2015``: aligned content words of both sentences over all content words of both,
  ``(aS + aT) / (nS + nT)`` (DLS@CU SemEval-2015).
* ``idf`` / ``idf2015``: the two formulas above with each content word weighted by its inverse
  document frequency, fitted on training sentences (:meth:`ContentProportion.fit`).
* ``numbers``: ``sultan2014`` with a number written in digits counting as two content words
  (a changed number is a frequent cause of false paraphrases).
* ``all-words``: ``sultan2014`` over every non-punctuation word, stop words included.
* ``mean-proportion``: the arithmetic mean of the two proportions.
* ``embedding``, ``contextual-alignment`` (the neural extra): the cosine of sentence embeddings
  and the confidence-weighted share of content words the contextual aligner links
  (:mod:`paralign.similarity.contextual`, which registers them).
* ``hybrid``: a linear blend of signals fitted on training STS files
  (:mod:`paralign.similarity.hybrid`, which registers it); by name, the blend paralign ships.

Not for: aligning (:mod:`paralign.aligners`) or evaluating signals
(:mod:`paralign.similarity.sts`, :mod:`paralign.similarity.paraphrase`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..alignment import AlignedSentences
from ..corpora.sentence_pairs import iter_sentences_from_file
from ..errors import ConfigurationError, FormatError, InputTypeError
from ..metrics import f_measure
from ..nlp import Annotator
from ..resources import stopwords
from ..sentence import Sentence, fold_apostrophe
from ..shown_text import shown_form
from ..signature import name_part

DEFAULT_SIGNAL = "sultan2014"


_CLITICS = {"n't": "not", "'s": "s", "'d": "d", "'ll": "ll", "'re": "re", "'ve": "ve", "'m": "m"}


# -- content words ---------------------------------------------------------------------------
def is_content_word(token: str, stop: frozenset[str] | None = None) -> bool:
    """True unless the token is punctuation/symbols only or (after clitic mapping) a stop word;
    read as it shows (:func:`~paralign.shown_text.shown_form`), as the aligners read a given token."""
    token = shown_form(token)
    if not any(ch.isalnum() for ch in token):
        return False
    word = fold_apostrophe(token.lower())
    word = _CLITICS.get(word, word)
    return word not in (stopwords() if stop is None else stop)


def content_indices(sentence: Sentence | Sequence[str], stop: frozenset[str] | None = None) -> list[int]:
    """Indices of the content words of a sentence (or token list)."""
    tokens = sentence.tokens if isinstance(sentence, Sentence) else sentence
    stop = stopwords() if stop is None else stop
    return [i for i, tok in enumerate(tokens) if is_content_word(tok, stop)]


def _word_key(sentence: Sentence, i: int) -> str:
    """The IDF key of word `i`: its lemma (else token) as it shows (:func:`~paralign.shown_text.
    shown_form`: NFC, invisible characters dropped), lower-cased. A given token is kept as
    written, so "café" written with a combining accent (NFD) was another word than "café" (NFC),
    unseen in the IDF table and weighted as the rarest word, though the aligner linked the two."""
    return shown_form(sentence.lemmas[i] or sentence.tokens[i]).lower()


@runtime_checkable
class Signal(Protocol):
    """A similarity signal: a name and a score in [0, 1] for an aligned pair."""

    @property
    def name(self) -> str:
        """The signal's name (read only: signals are frozen values)."""
        ...

    def __call__(self, pair: AlignedSentences) -> float: ...


@dataclass(frozen=True, slots=True)
class IdfTable:
    """Inverse document frequencies of lower-cased lemmas, counted over sentences.

    ``idf(w) = ln((N + 1) / (df(w) + 1)) + 1``; unseen words get the highest value,
    ``ln(N + 1) + 1`` (rare words are the informative ones).
    """

    documents: int
    df: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def from_sentences(cls, sentences: Iterable[Sentence]) -> IdfTable:
        """Document frequencies of lemmas, each sentence counting once per lemma (one pass)."""
        df: dict[str, int] = {}
        n = 0
        for sentence in sentences:
            n += 1
            for key in {_word_key(sentence, i) for i in range(len(sentence))}:
                df[key] = df.get(key, 0) + 1
        return cls(n, df)

    def __call__(self, word: str) -> float:
        return math.log((self.documents + 1) / (self.df.get(word.lower(), 0) + 1)) + 1.0


_NUMBER = re.compile(r"[\d.,/:%-]*\d[\d.,/:%-]*")


def is_number(token: str) -> bool:
    """A numeral written in digits: a digit, and nothing but digits and ``. , / : % -`` (as it
    shows: :func:`~paralign.shown_text.shown_form`)."""
    return _NUMBER.fullmatch(shown_form(token)) is not None


def _weighted_counts(
    sentence: Sentence,
    aligned: set[int],
    weight: Callable[[Sentence, int], float],
    stop: frozenset[str],
    stop_weight: float = 0.0,
    number_weight: float = 1.0,
) -> tuple[float, float]:
    """(aligned weight, total weight) over the content words; all non-punctuation words when none.

    Stop words count with `stop_weight` (0: not at all), numbers with `number_weight` times
    their weight. A sentence of punctuation only ("...", "?!") counts its punctuation tokens,
    so that two such identical sentences score 1 rather than 0 for want of words.
    """
    words = [i for i, tok in enumerate(sentence.tokens) if any(ch.isalnum() for ch in tok)]
    if not words:
        words = list(range(len(sentence.tokens)))
    content = set(content_indices(sentence, stop))
    if not content:  # no content word: every word counts fully
        factor = dict.fromkeys(words, 1.0)
    else:
        factor = {i: 1.0 if i in content else stop_weight for i in words}
    if number_weight != 1.0:
        for i in content:
            if is_number(sentence.tokens[i]):
                factor[i] = number_weight
    total = sum(f * weight(sentence, i) for i, f in factor.items() if f)
    hit = sum(f * weight(sentence, i) for i, f in factor.items() if f and i in aligned)
    return hit, total


@dataclass(frozen=True, slots=True)
class ContentProportion:
    """Proportion of aligned content words: harmonic mean of both sides, or pooled counts.

    ``pooled=False`` is Sultan et al. 2014, ``pooled=True`` the 2015 variant; ``arithmetic``
    averages the two proportions instead (the literal reading of "aligned content words over the
    harmonic mean of the content-word counts", equal to it for one-to-one links). With ``trainable``
    the words are IDF-weighted and :meth:`fit` must be called on training sentences first.
    ``stop_weight`` > 0 counts stop words too (1: every non-punctuation word alike);
    ``number_weight`` makes a number written in digits count that many content words.
    A sentence without content words falls back to all its non-punctuation tokens, and one
    without words to its punctuation.
    """

    name: str = DEFAULT_SIGNAL
    pooled: bool = False
    arithmetic: bool = False
    trainable: bool = False
    idf: IdfTable | None = None
    stop_weight: float = 0.0
    number_weight: float = 1.0

    def __post_init__(self) -> None:
        check_signal_name(self.name, "ContentProportion name")

    @property
    def tokens_only(self) -> bool:
        """Whether the signal reads each sentence's tokens alone (:func:`reads_tokens_only`): all
        but the IDF-weighted ones, whose weights are keyed by lemma."""
        return not self.trainable

    def fit(self, sentences: Iterable[Sentence]) -> ContentProportion:
        """A copy with IDF fitted on `sentences` (no-op for unweighted signals)."""
        if not self.trainable:
            return self
        return replace(self, idf=IdfTable.from_sentences(sentences))

    def _weight(self) -> Callable[[Sentence, int], float]:
        if not self.trainable:
            return lambda _s, _i: 1.0
        if self.idf is None:
            raise ConfigurationError(
                f"signal {self.name!r} needs IDF statistics: fit it on training sentences "
                "(signal.fit(sentences)) or pass idf=IdfTable(...)"
            )
        idf = self.idf
        return lambda s, i: idf(_word_key(s, i))

    def __call__(self, pair: AlignedSentences) -> float:
        weight = self._weight()
        stop = stopwords()
        links = pair.alignment.possible
        aligned_s = {i for i, _ in links}
        aligned_t = {j for _, j in links}
        extra = (self.stop_weight, self.number_weight)
        hit_s, tot_s = _weighted_counts(pair.source, aligned_s, weight, stop, *extra)
        hit_t, tot_t = _weighted_counts(pair.target, aligned_t, weight, stop, *extra)
        if self.pooled:
            total = tot_s + tot_t
            return (hit_s + hit_t) / total if total else 0.0
        p = hit_s / tot_s if tot_s else 0.0
        q = hit_t / tot_t if tot_t else 0.0
        return (p + q) / 2 if self.arithmetic else f_measure(p, q)


SignalFactory = Callable[..., Signal]

#: Registered signals by name: factories taking keyword options and returning a Signal.
SIGNALS: dict[str, SignalFactory] = {}


#: How a signature writes a signal's name (:func:`check_signal_name`).
SIGNAL_PART = "signal:NAME"


#: The built-in signal names that hold ``+`` (a saved classifier's blend, :class:`.model.BlendedSignal`),
#: signed as they always were; no other signal's name holds one (:func:`check_signal_name`).
JOINED_NAMES = ("features+cross-encoder",)


def check_signal_name(name: object, what: str = "the Signal's name") -> None:
    """A ConfigurationError naming `what` (the field that holds it) when a signal's `name` holds
    ``|``, which would end the signature's ``signal`` part there, or a line break
    (:func:`paralign.signature.name_part`); or ``+``, which joins the names of signals scored
    together (``signal:a+b``: one signal ``a+b``, or ``a`` and ``b``?), but in a built-in's
    (:data:`JOINED_NAMES`), so that a reader splits the part at every other ``+``. Checked where
    a signal is made or enters (a name that is no str is
    :func:`~paralign.similarity.signature.similarity_signature`'s to refuse)."""
    if isinstance(name, str):
        name_part(name, SIGNAL_PART, what=what, marks="" if name in JOINED_NAMES else "+")


#: The names paralign's own saved classifiers sign with (``similarity --model``: the features
#: model, :class:`.model.ModelSignal`, and its blend with a cross-encoder, :class:`.model.BlendedSignal`),
#: under which no factory is registered; no other signal may take them (:func:`check_signal`).
MODEL_SIGNAL_NAMES = ("features-model", *JOINED_NAMES)


def is_built_in_name(name: str) -> bool:
    """Whether `name` is a built-in signal's: one of :data:`MODEL_SIGNAL_NAMES`, or registered by
    paralign (its factory paralign's own, not a caller's :func:`register_signal`)."""
    factory = SIGNALS.get(name)
    return name in MODEL_SIGNAL_NAMES or factory is not None and _is_paraligns(factory)


def _is_paraligns(thing: object) -> bool:
    """Whether a function or class is defined in the paralign package."""
    return str(getattr(thing, "__module__", "")).split(".")[0] == "paralign"


def _is_built_in(signal: object) -> bool:
    """Whether `signal` is the built-in its name names: of a paralign class, and for a content-word
    proportion the built-in's settings (its IDF statistics aside: the ``idf`` part signs them)."""
    if not _is_paraligns(type(signal)):
        return False
    if isinstance(signal, ContentProportion):
        factory = SIGNALS.get(signal.name)
        return factory is not None and replace(signal, idf=None) == factory()
    return True


def check_signal(signal: object, what: str = "the Signal's name") -> None:
    """:func:`check_signal_name` of a signal's name, and a ConfigurationError naming `what` when a
    signal of the caller's own is named as a built-in (:func:`is_built_in_name`), so its scores
    would sign as the built-in's: a caller's signal named ``features+cross-encoder`` signed
    ``signal:features+cross-encoder|...|encoder:...`` as a saved classifier's blend, one named
    ``sultan2014`` (or ``ContentProportion("sultan2014", stop_weight=1.0)``) as Sultan et al.'s
    proportion. Refused, not signed another way, as a paraphrase source named as a built-in is
    (:func:`paralign.paraphrases.source_name`): every built-in's signature stays as it was."""
    name = getattr(signal, "name", None)
    check_signal_name(name, what)
    if isinstance(name, str) and is_built_in_name(name) and not _is_built_in(signal):
        raise ConfigurationError(f"{what}: {name!r} is a built-in signal's name, but this {type(signal).__name__} is "
                                 "not that signal (another class or other settings): the signature would be the "
                                 "built-in's: name it another way")


def check_joined(names: Sequence[str]) -> None:
    """A ConfigurationError when the names of signals scored together, joined by ``+`` in a
    signature, write a built-in name that holds one (:data:`JOINED_NAMES`): signals named
    ``features`` and ``cross-encoder`` signed ``signal:features+cross-encoder``, a saved
    classifier's blend."""
    for joined in JOINED_NAMES:
        parts = joined.split("+")
        if any(list(names[start:start + len(parts)]) == parts for start in range(len(names) - len(parts) + 1)):
            raise ConfigurationError(f"signals named {' and '.join(map(repr, parts))} scored together would sign as "
                                     f"the built-in {joined} (signal:{joined}): name one another way")


def register_signal(name: str, factory: SignalFactory, *, replace_existing: bool = False) -> None:
    """Register a signal factory under `name` (refuses to overwrite unless asked, a name holding
    ``|``: :func:`check_signal_name`, and a saved classifier's name, :data:`MODEL_SIGNAL_NAMES`)."""
    check_signal_name(name, "register_signal name")
    if name in MODEL_SIGNAL_NAMES:
        raise ConfigurationError(f"register_signal name: {name!r} is what a saved classifier signs as "
                                 "(similarity --model): name it another way")
    if name in SIGNALS and not replace_existing:
        raise ConfigurationError(f"signal {name!r} is already registered")
    SIGNALS[name] = factory


def make_signal(spec: str | Signal = DEFAULT_SIGNAL, **options: object) -> Signal:
    """A Signal from a registered name (with factory options) or a Signal passed through;
    anything else (None, a number) is an InputTypeError."""
    if not isinstance(spec, str):
        if not callable(spec):
            raise InputTypeError(f"a signal is a name ({', '.join(sorted(SIGNALS))}) or a Signal, "
                                 f"not {type(spec).__name__}")
        check_signal(spec)
        return spec
    factory = SIGNALS.get(spec)
    if factory is None:
        raise ConfigurationError(f"unknown signal {spec!r}: choose from {', '.join(sorted(SIGNALS))}")
    return factory(**options)


def cache_options(name: str, cache_size: int | None) -> dict[str, int]:
    """``{"cache_size": cache_size}`` when the factory registered under `name` takes a cache
    bound (the neural signals, the hybrid), else ``{}`` (nothing to bound, or None given): the
    options a long-lived caller (``paralign serve``) passes to :func:`make_signal`."""
    import inspect

    factory = SIGNALS.get(name)
    if cache_size is None or factory is None:
        return {}
    try:
        takes = "cache_size" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a factory without a signature (a builtin)
        return {}
    return {"cache_size": cache_size} if takes else {}


def fit_signal(signal: str | Signal, sentences: Iterable[Sentence]) -> Signal:
    """Fit a trainable signal (one with a ``fit`` method; a name is made first, so ``"idf"``
    works as ``make_signal("idf")`` does) on training sentences; else return it."""
    signal = make_signal(signal)
    fit = getattr(signal, "fit", None)
    return fit(sentences) if callable(fit) else signal


def needs_alignment(signal: Signal) -> bool:
    """True unless the signal says it never reads the pair's word alignment (``needs_alignment``
    False: the neural signals, which read the sentences only), so the caller may skip aligning."""
    return bool(getattr(signal, "needs_alignment", True))


def reads_tokens_only(signal: Signal) -> bool:
    """True when the signal says it reads each sentence's tokens alone (``tokens_only`` True:
    the content-word proportions that no IDF weights), no lemma, tag or parse; so over the exact
    aligner's links, which read tokens alone too, the pair needs no spaCy parse. False for any
    other signal, one that does not say included."""
    return getattr(signal, "tokens_only", False) is True


def needs_fit(signal: Signal) -> bool:
    """True when the signal must be fitted on training data before use (IDF signals without
    their statistics; a signal with a ``fitted`` attribute when it is False: the hybrid)."""
    fitted = getattr(signal, "fitted", None)
    if fitted is not None:
        return not fitted
    return bool(getattr(signal, "trainable", False)) and getattr(signal, "idf", None) is None


register_signal("sultan2014", lambda: ContentProportion("sultan2014"))
register_signal("sultan2015", lambda: ContentProportion("sultan2015", pooled=True))
register_signal("mean-proportion", lambda: ContentProportion("mean-proportion", arithmetic=True))
register_signal("all-words", lambda: ContentProportion("all-words", stop_weight=1.0))
register_signal("numbers", lambda: ContentProportion("numbers", number_weight=2.0))
register_signal(
    "idf", lambda idf=None: ContentProportion("idf", trainable=True, idf=idf)
)
register_signal(
    "idf2015",
    lambda idf=None: ContentProportion("idf2015", pooled=True, trainable=True, idf=idf),
)


def fit_on_files(
    signal: str | Signal, paths: Sequence[str | Path], annotator: Annotator | None = None
) -> Signal:
    """Fit a trainable signal (IDF) on the sentences of `paths` (tagged and lemmatised only); any
    other signal is returned as it is, but given `paths` is a ConfigurationError: it takes no IDF
    statistics, and ``--idf-from`` was silently ignored (scores as without it), as ``--train`` of
    another signal than the hybrid is not."""
    sig = make_signal(signal)
    if not getattr(sig, "trainable", False):
        if paths:
            raise ConfigurationError(f"--idf-from gives the IDF statistics of the idf signals; signal {sig.name!r} "
                                     "takes none")
        return sig
    if not paths:
        raise ConfigurationError(
            f"signal {sig.name!r} needs training sentences for its IDF statistics (--idf-from FILE)"
        )
    texts = (s for path in paths for s in iter_sentences_from_file(path))
    first = next(texts, None)
    if first is None:  # IDF of no document: every word would weigh the same, without a word said
        raise FormatError("no sentences to fit IDF statistics on", source=", ".join(map(str, paths)))
    annotator = annotator or Annotator(disable=("parser", "ner"))
    return fit_signal(sig, annotator.pipe(itertools.chain([first], texts)))
