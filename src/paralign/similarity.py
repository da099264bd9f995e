"""Sentence similarity and paraphrase identification from word alignments (Sultan et al. 2014, 4.2).

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

Paraphrase identification thresholds a score: pairs scoring above a threshold chosen on
training data are paraphrases. :data:`THRESHOLD_RULES` names the ways to choose it (default:
the lowest of the thresholds of maximum training accuracy); :func:`cross_validate_threshold`
compares them by k-fold cross-validation on the training pairs only.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from statistics import fmean, stdev
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from .alignment import Alignment
from .errors import ConfigurationError, FormatError, MismatchError, SimilarityError
from .metrics import f_measure
from .nlp import Annotator, default_annotator
from .resources import stopwords
from .sentence import Sentence, fold_apostrophe

if TYPE_CHECKING:  # pragma: no cover
    from .aligners.sultan import Aligner as SultanAligner
    from .paraphrase_model import LogisticModel

TextLike = str | Sequence[str] | Sentence
AlignFunction = Callable[[Sentence, Sentence], Alignment]

DEFAULT_SIGNAL = "sultan2014"

#: Paraphrase classifiers of :func:`evaluate_paraphrase`: a threshold on a logistic model's
#: probability over alignment and MT-overlap features, or on one similarity signal (Sultan et al. 2014).
CLASSIFIERS: tuple[str, ...] = ("features", "signal")
DEFAULT_CLASSIFIER = "features"

_CLITICS = {"n't": "not", "'s": "s", "'d": "d", "'ll": "ll", "'re": "re", "'ve": "ve", "'m": "m"}


# -- content words ---------------------------------------------------------------------------
def is_content_word(token: str, stop: frozenset[str] | None = None) -> bool:
    """True unless the token is punctuation/symbols only or (after clitic mapping) a stop word."""
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
    return (sentence.lemmas[i] or sentence.tokens[i]).lower()


# -- aligned pairs and signals ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AlignedSentences:
    """Two annotated sentences and their word alignment: what every signal scores."""

    source: Sentence
    target: Sentence
    alignment: Alignment


@runtime_checkable
class Signal(Protocol):
    """A similarity signal: a name and a score in [0, 1] for an aligned pair."""

    name: str

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
    """A numeral written in digits: a digit, and nothing but digits and ``. , / : % -``."""
    return _NUMBER.fullmatch(token) is not None


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
    their weight.
    """
    words = [i for i, tok in enumerate(sentence.tokens) if any(ch.isalnum() for ch in tok)]
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
    A sentence without content words falls back to all its non-punctuation tokens.
    """

    name: str = DEFAULT_SIGNAL
    pooled: bool = False
    arithmetic: bool = False
    trainable: bool = False
    idf: IdfTable | None = None
    stop_weight: float = 0.0
    number_weight: float = 1.0

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


def register_signal(name: str, factory: SignalFactory, *, replace_existing: bool = False) -> None:
    """Register a signal factory under `name` (refuses to overwrite unless asked)."""
    if name in SIGNALS and not replace_existing:
        raise ConfigurationError(f"signal {name!r} is already registered")
    SIGNALS[name] = factory


def make_signal(spec: str | Signal = DEFAULT_SIGNAL, **options: object) -> Signal:
    """A Signal from a registered name (with factory options) or a Signal passed through."""
    if not isinstance(spec, str):
        return spec
    factory = SIGNALS.get(spec)
    if factory is None:
        raise ConfigurationError(f"unknown signal {spec!r}: choose from {', '.join(sorted(SIGNALS))}")
    return factory(**options)


def fit_signal(signal: Signal, sentences: Iterable[Sentence]) -> Signal:
    """Fit a trainable signal (one with a ``fit`` method) on training sentences; else return it."""
    fit = getattr(signal, "fit", None)
    return fit(sentences) if callable(fit) else signal


def needs_fit(signal: Signal) -> bool:
    """True when the signal must be fitted on training sentences before use."""
    return bool(getattr(signal, "trainable", False)) and getattr(signal, "idf", None) is None


register_signal("sultan2014", lambda: ContentProportion("sultan2014"))
register_signal("sultan2015", lambda: ContentProportion("sultan2015", pooled=True))
register_signal("mean-proportion", lambda: ContentProportion("mean-proportion", arithmetic=True))
register_signal("all-words", lambda: ContentProportion("all-words", stop_weight=1.0))
register_signal("numbers", lambda: ContentProportion("numbers", number_weight=2.0))
register_signal(
    "idf", lambda idf=None: ContentProportion("idf", trainable=True, idf=idf)  # type: ignore[arg-type]
)
register_signal(
    "idf2015",
    lambda idf=None: ContentProportion("idf2015", pooled=True, trainable=True, idf=idf),  # type: ignore[arg-type]
)


# -- aligning pairs --------------------------------------------------------------------------
def default_aligner() -> AlignFunction:
    """The Sultan et al. 2014 aligner with default options (`align_sentences`), built once."""
    return _preset_aligner("default").align_sentences


def exact_match_aligner(source: Sentence, target: Sentence) -> Alignment:
    """Baseline: link identical lower-cased tokens one-to-one, left to right (no context)."""
    free: dict[str, list[int]] = {}
    for j, tok in enumerate(target.tokens):
        free.setdefault(tok.lower(), []).append(j)
    links = []
    for i, tok in enumerate(source.tokens):
        slots = free.get(tok.lower())
        if slots:
            links.append((i, slots.pop(0)))
    return Alignment.from_links(links)


#: The aligner preset paraphrase identification uses unless told otherwise.
PARAPHRASE_PRESET = "paraphrase"


@dataclass(frozen=True, slots=True)
class PresetAligner:
    """The Sultan aligner with a named option preset, built once per process.

    It holds only the preset's name, so process pools pickle it cheaply; each worker builds (and
    loads the word-similarity data for) its own aligner on first use.
    """

    preset: str

    def __post_init__(self) -> None:
        from .aligners.sultan import preset_options

        preset_options(self.preset)  # an unknown name fails here, not in a worker

    def __call__(self, source: Sentence, target: Sentence) -> Alignment:
        return _preset_aligner(self.preset).align_sentences(source, target)


@functools.cache
def _preset_aligner(preset: str) -> SultanAligner:
    """The aligner of a preset, built once per process (workers inherit or build their own)."""
    from .aligners.sultan import Aligner, preset_options

    return Aligner(**preset_options(preset))


def get_aligner(name: str, preset: str = "default") -> AlignFunction:
    """An alignment function by name: ``sultan`` with an option ``preset`` (see
    :data:`paralign.aligners.sultan.PRESETS`) or ``exact`` (which has no presets)."""
    if name == "sultan":
        return PresetAligner(preset)
    if name == "exact":
        if preset != "default":
            raise ConfigurationError(f"the exact-match aligner has no presets (got {preset!r})")
        return exact_match_aligner
    raise ConfigurationError(f"unknown aligner {name!r}: use 'sultan' or 'exact'")


def aligner_label(aligner: AlignFunction | None) -> str:
    """How an alignment function is named in results and signatures (``sultan:paraphrase``)."""
    if aligner is None:
        return "sultan:default"
    if isinstance(aligner, PresetAligner):
        return f"sultan:{aligner.preset}"
    if aligner is exact_match_aligner:
        return "exact"
    return getattr(aligner, "__qualname__", type(aligner).__name__)


ALIGNER_NAMES = ("sultan", "exact")


@dataclass(frozen=True, slots=True)
class PairFailure:
    """An input pair (0-based index in the batch) that could not be aligned, and why."""

    index: int
    error: str

    def to_dict(self) -> dict:
        return {"index": self.index, "error": self.error}


@dataclass(frozen=True, slots=True)
class AlignedBatch:
    """Aligned pairs in input order (None where the pair failed) and the failures."""

    items: tuple[AlignedSentences | None, ...]
    failures: tuple[PairFailure, ...] = ()

    def __len__(self) -> int:
        return len(self.items)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _annotate_chunk(annotator: Annotator, texts: list[TextLike]) -> list[Sentence | str]:
    """Annotate texts (Sentences pass through); a failing item becomes its error message."""
    todo = [k for k, t in enumerate(texts) if not isinstance(t, Sentence)]
    out: list[Sentence | str] = [t if isinstance(t, Sentence) else "" for t in texts]  # type: ignore[misc]
    try:
        for k, sentence in zip(todo, annotator.pipe([texts[k] for k in todo]), strict=True):  # type: ignore[misc]
            out[k] = sentence
    except Exception:  # noqa: BLE001 - retry one by one so one bad text does not sink the chunk
        for k in todo:
            try:
                out[k] = annotator(texts[k])  # type: ignore[arg-type]
            except Exception as exc:  # noqa: BLE001
                out[k] = f"annotation failed: {_describe(exc)}"
    return out


def _align_chunk(
    align: AlignFunction | None, annotator: Annotator | None, chunk: list[tuple[TextLike, TextLike]]
) -> list[AlignedSentences | str]:
    """Annotate and align one chunk of pairs; failures become error strings (worker-safe)."""
    align = align or default_aligner()
    annotator = annotator or default_annotator()
    flat: list[TextLike] = [x for pair in chunk for x in pair]
    sentences = _annotate_chunk(annotator, flat)
    results: list[AlignedSentences | str] = []
    for k in range(len(chunk)):
        s, t = sentences[2 * k], sentences[2 * k + 1]
        if isinstance(s, str) or isinstance(t, str):
            results.append(s if isinstance(s, str) else t)  # type: ignore[arg-type]
            continue
        try:
            results.append(AlignedSentences(s, t, align(s, t)))
        except Exception as exc:  # noqa: BLE001 - a batch never loses other items' results
            results.append(f"alignment failed: {_describe(exc)}")
    return results


def _warm_up(aligner: AlignFunction | None, annotator: Annotator | None) -> None:
    """Load the spaCy pipeline and the default aligner's word-similarity data in this process."""
    used = annotator or default_annotator()
    if isinstance(used, Annotator):
        used.nlp  # noqa: B018 - loads the pipeline
    if aligner is None or isinstance(aligner, PresetAligner):
        _preset_aligner(getattr(aligner, "preset", "default")).related  # noqa: B018 - loads PPDB


_I = TypeVar("_I")
_R = TypeVar("_R")
_T = TypeVar("_T")


def _run_chunks(
    task: Callable[[list[_I]], list[_R]],
    items: Sequence[_I],
    worker_failed: Callable[[list[_I], str], Iterable[_R]],
    *,
    workers: int,
    chunk_size: int,
    progress: Callable[[int], None] | None,
    before_pool: Callable[[], None] | None = None,
) -> list[_R]:
    """``task`` over chunks of `items`, results in input order: here, or in a process pool when
    ``workers > 1`` and there is more than one chunk (`task` must then be picklable).
    ``progress(n)`` gets each chunk's size when it is done. A chunk whose worker died becomes
    ``worker_failed(chunk, why)``; a ConfigurationError (a caller's mistake) propagates."""
    if workers < 1:
        raise ConfigurationError(f"workers must be at least 1, got {workers}")
    size = max(1, chunk_size)
    chunks = [list(items[start : start + size]) for start in range(0, len(items), size)]
    results: list[_R] = []
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            results.extend(task(chunk))
            if progress is not None:
                progress(len(chunk))
        return results
    if before_pool is not None:
        before_pool()
    from concurrent.futures import ProcessPoolExecutor  # only when asked: slow to import

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(task, chunk) for chunk in chunks]
        for chunk, future in zip(chunks, futures, strict=True):
            try:
                results.extend(future.result())
            except ConfigurationError:
                raise
            except Exception as exc:  # noqa: BLE001 - e.g. a worker died: report the chunk
                results.extend(worker_failed(chunk, f"worker failed: {_describe(exc)}"))
            if progress is not None:
                progress(len(chunk))
    return results


def align_pairs(
    pairs: Iterable[tuple[TextLike, TextLike]],
    *,
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    chunk_size: int = 64,
    progress: Callable[[int], None] | None = None,
) -> AlignedBatch:
    """Annotate (texts or token lists; Sentences are used as given) and align many pairs.

    With ``workers > 1`` chunks go to a process pool (the aligner must then be picklable).
    ``progress(n)`` is called with the number of pairs finished after each chunk. A pair that
    fails is reported in ``failures`` and the others are still returned.
    """
    results = _run_chunks(
        functools.partial(_align_chunk, aligner, annotator),
        list(pairs),
        lambda chunk, why: [why] * len(chunk),
        workers=workers,
        chunk_size=chunk_size,
        progress=progress,
        before_pool=lambda: _warm_up(aligner, annotator),  # forked workers inherit the loaded model
    )
    failures = tuple(PairFailure(k, r) for k, r in enumerate(results) if isinstance(r, str))
    aligned = tuple(None if isinstance(r, str) else r for r in results)
    return AlignedBatch(aligned, failures)


# -- similarity ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SimilarityBatch:
    """Scores in input order (None for failed pairs), the failures and the signal's name."""

    scores: tuple[float | None, ...]
    failures: tuple[PairFailure, ...] = ()
    signal: str = DEFAULT_SIGNAL

    def to_dict(self) -> dict:
        return {
            "signal": self.signal,
            "pairs": len(self.scores),
            "scores": list(self.scores),
            "failures": [f.to_dict() for f in self.failures],
        }


def score_aligned(batch: AlignedBatch, signal: str | Signal = DEFAULT_SIGNAL) -> SimilarityBatch:
    """Score already aligned pairs with a signal (align once, compare many signals)."""
    sig = make_signal(signal)
    scores, failures = map_aligned(batch, lambda item: float(sig(item)), "signal")
    return SimilarityBatch(tuple(scores), failures, sig.name)


def _map_chunk(
    function: Callable[[AlignedSentences], _T], items: Sequence[AlignedSentences | None]
) -> list[tuple[_T | None, str | None]]:
    """``function`` of each item of one chunk: (value, None), or (None, why) when it raised
    (worker-safe); a ConfigurationError is a caller's mistake and propagates."""
    out: list[tuple[_T | None, str | None]] = []
    for item in items:
        if item is None:
            out.append((None, None))
            continue
        try:
            out.append((function(item), None))
        except ConfigurationError:
            raise
        except Exception as exc:  # noqa: BLE001 - a batch never loses other items' results
            out.append((None, _describe(exc)))
    return out


def map_aligned(
    batch: AlignedBatch,
    function: Callable[[AlignedSentences], _T],
    what: str,
    progress: Callable[[int], None] | None = None,
    *,
    workers: int = 1,
    chunk_size: int = 64,
) -> tuple[list[_T | None], tuple[PairFailure, ...]]:
    """``function`` of every aligned pair in input order (None where the pair failed to align or
    `function` raised); the batch's failures plus one per raising pair, by index.

    For slow functions (the MT-overlap features): ``workers > 1`` maps chunks in a process pool
    (`function` must then be picklable, e.g. a module-level function or a ``functools.partial``
    of one), and ``progress(n)`` is called with the number of pairs done after each chunk."""
    results = _run_chunks(
        functools.partial(_map_chunk, function),
        batch.items,
        lambda chunk, why: [(None, None if item is None else why) for item in chunk],
        workers=workers,
        chunk_size=chunk_size,
        progress=progress,
    )
    failures = list(batch.failures)
    failures.extend(PairFailure(k, f"{what} failed: {why}") for k, (_, why) in enumerate(results) if why is not None)
    failures.sort(key=lambda f: f.index)
    return [value for value, _ in results], tuple(failures)


def similarity_many(
    pairs: Iterable[tuple[TextLike, TextLike]],
    workers: int = 1,
    *,
    signal: str | Signal = DEFAULT_SIGNAL,
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimilarityBatch:
    """Similarity of many pairs (texts, token lists or Sentences); bad pairs are reported."""
    sig = make_signal(signal)
    if needs_fit(sig):  # fail before the expensive alignment
        raise ConfigurationError(
            f"signal {sig.name!r} must be fitted on training sentences first (fit_signal)"
        )
    batch = align_pairs(pairs, aligner=aligner, annotator=annotator, workers=workers, progress=progress)
    return score_aligned(batch, sig)


def similarity(
    a: TextLike,
    b: TextLike,
    *,
    signal: str | Signal = DEFAULT_SIGNAL,
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
) -> float:
    """Similarity in [0, 1] of two sentences (texts, token lists or annotated Sentences)."""
    result = similarity_many([(a, b)], signal=signal, aligner=aligner, annotator=annotator)
    if result.failures:
        raise SimilarityError(f"pair could not be scored: {result.failures[0].error}")
    score = result.scores[0]
    assert score is not None
    return score


# -- evaluation: STS -------------------------------------------------------------------------
def _correlate(kind: str, x: Sequence[float], y: Sequence[float]) -> float | None:
    """scipy's coefficient, or None when undefined (fewer than 2 items or a constant series)."""
    if len(x) != len(y):
        raise MismatchError(f"{len(x)} scores vs {len(y)} gold values")
    if len(x) < 2 or min(x) == max(x) or min(y) == max(y):
        return None
    from scipy import stats

    value = stats.pearsonr(x, y)[0] if kind == "pearson" else stats.spearmanr(x, y)[0]
    return max(-1.0, min(1.0, float(value)))


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's r, or None when undefined (fewer than 2 items or a constant series)."""
    return _correlate("pearson", x, y)


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho (Pearson on average ranks), or None when undefined."""
    return _correlate("spearman", x, y)


@dataclass(frozen=True, slots=True)
class StsEvaluation:
    """Correlation of system scores with gold STS scores over the pairs that could be scored."""

    pairs: int
    pearson: float | None
    spearman: float | None
    failures: tuple[PairFailure, ...] = ()
    signal: str = DEFAULT_SIGNAL

    def to_dict(self) -> dict:
        return {
            "pairs": self.pairs,
            "pearson": self.pearson,
            "spearman": self.spearman,
            "failed": len(self.failures),
            "failures": [f.to_dict() for f in self.failures],
            "signal": self.signal,
        }


def sts_from_scores(
    scores: Sequence[float | None], gold: Sequence[float], failures: Sequence[PairFailure] = (), signal: str = ""
) -> StsEvaluation:
    """Pearson/Spearman of scores against gold, ignoring (and reporting) pairs without a score."""
    if len(scores) != len(gold):
        raise MismatchError(f"{len(scores)} scores vs {len(gold)} gold values")
    xs = [s for s, _ in zip(scores, gold, strict=True) if s is not None]
    ys = [g for s, g in zip(scores, gold, strict=True) if s is not None]
    return StsEvaluation(len(xs), pearson(xs, ys), spearman(xs, ys), tuple(failures), signal)


def evaluate_sts(
    pairs: Sequence[tuple[TextLike, TextLike, float]],
    *,
    signal: str | Signal = DEFAULT_SIGNAL,
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> StsEvaluation:
    """Score (sentence1, sentence2, gold) triples and correlate with the gold scores."""
    result = similarity_many(
        [(a, b) for a, b, _ in pairs],
        workers,
        signal=signal,
        aligner=aligner,
        annotator=annotator,
        progress=progress,
    )
    return sts_from_scores(result.scores, [g for _, _, g in pairs], result.failures, result.signal)


def weighted_mean(values: Sequence[tuple[float | None, int]]) -> float | None:
    """Size-weighted mean of (value, size) pairs, ignoring undefined values (SemEval's 'mean')."""
    usable = [(v, n) for v, n in values if v is not None and n > 0]
    total = sum(n for _, n in usable)
    return sum(v * n for v, n in usable) / total if total else None


# -- paraphrase identification ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BinaryScores:
    """Accuracy, and precision/recall/F1 of the positive (paraphrase) class, with counts."""

    accuracy: float
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    tn: int
    fn: int

    def to_dict(self) -> dict:
        return {
            "accuracy": self.accuracy,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "tp": self.tp,
            "fp": self.fp,
            "tn": self.tn,
            "fn": self.fn,
        }


def binary_scores(predicted: Sequence[bool], gold: Sequence[bool]) -> BinaryScores:
    """Accuracy and positive-class P/R/F1 (0 when undefined)."""
    if len(predicted) != len(gold):
        raise MismatchError(f"{len(predicted)} predictions vs {len(gold)} gold labels")
    tp = sum(1 for p, g in zip(predicted, gold, strict=True) if p and g)
    fp = sum(1 for p, g in zip(predicted, gold, strict=True) if p and not g)
    fn = sum(1 for p, g in zip(predicted, gold, strict=True) if not p and g)
    tn = len(gold) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = f_measure(precision, recall)
    accuracy = (tp + tn) / len(gold) if gold else 0.0
    return BinaryScores(accuracy, precision, recall, f1, tp, fp, tn, fn)


def accuracy_curve(scores: Sequence[float], labels: Sequence[bool]) -> tuple[list[float], list[int]]:
    """Candidate thresholds (ascending) and the number of training pairs each classifies right.

    Candidates are one value below the lowest score (all positive), the midpoints between
    consecutive distinct scores, and the highest score itself (all negative); ``score > t`` is
    the paraphrase decision.
    """
    if len(scores) != len(labels):
        raise MismatchError(f"{len(scores)} scores vs {len(labels)} labels")
    if not scores:
        raise ConfigurationError("cannot choose a threshold without training pairs")
    order = sorted(range(len(scores)), key=lambda k: scores[k])
    values = [scores[k] for k in order]
    ordered_labels = [labels[k] for k in order]
    correct = sum(ordered_labels)  # threshold below everything: all predicted positive
    thresholds, counts = [values[0] - 1.0], [correct]
    k = 0
    while k < len(values):
        end = k
        while end + 1 < len(values) and values[end + 1] == values[k]:
            end += 1
        for m in range(k, end + 1):  # these items switch to "not paraphrase"
            correct += -1 if ordered_labels[m] else 1
        thresholds.append((values[k] + values[end + 1]) / 2 if end + 1 < len(values) else values[k])
        counts.append(correct)
        k = end + 1
    return thresholds, counts


def _first_best(thresholds: Sequence[float], counts: Sequence[int]) -> float:
    """The lowest threshold of maximum accuracy on a curve from :func:`accuracy_curve`."""
    return thresholds[counts.index(max(counts))]


def _lowest_best(scores: Sequence[float], labels: Sequence[bool]) -> float:
    return _first_best(*accuracy_curve(scores, labels))


def _plateau_middle(scores: Sequence[float], labels: Sequence[bool]) -> float:
    thresholds, counts = accuracy_curve(scores, labels)
    best = max(counts)
    tied = [t for t, c in zip(thresholds, counts, strict=True) if c == best]
    return tied[(len(tied) - 1) // 2]  # the (lower) median: itself a maximum-accuracy threshold


def _silverman_bandwidth(scores: Sequence[float]) -> float:
    """Silverman's rule-of-thumb bandwidth, ``0.9·min(sd, IQR/1.34)·n^(-1/5)`` (> 0)."""
    import numpy as np

    x = np.asarray(scores, dtype=float)
    sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    q75, q25 = np.percentile(x, [75, 25])
    spread = min(sd, float(q75 - q25) / 1.34) or sd
    return max(0.9 * spread * len(x) ** -0.2, 1e-6)


def _smoothed(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Maximise kernel-smoothed accuracy: the expected accuracy when the threshold is jittered
    by Gaussian noise of Silverman's bandwidth; a single outlying pair cannot move the peak."""
    import numpy as np
    from scipy.special import ndtr

    thresholds, _ = accuracy_curve(scores, labels)
    x = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    h = _silverman_bandwidth(scores)
    cand = np.asarray(thresholds[1:-1] or thresholds, dtype=float)
    pos, neg = x[y], x[~y]
    smooth = np.zeros(len(cand))
    for block in range(0, len(cand), 256):  # P(score > t) for positives, P(score <= t) for negatives
        c = cand[block : block + 256, None]
        smooth[block : block + 256] = ndtr((pos[None, :] - c) / h).sum(1) + ndtr((c - neg[None, :]) / h).sum(1)
    return float(cand[int(np.argmax(smooth))])


BOOTSTRAP_SAMPLES = 200


def _bootstrap_median(scores: Sequence[float], labels: Sequence[bool], seed: int = 0) -> float:
    """The median of the accuracy-maximising (lowest) thresholds of bootstrap resamples.

    Each resample is a multinomial weighting of the pairs; its curve is that of
    :func:`accuracy_curve` on the resampled pairs (only scores drawn at least once are candidates).
    """
    import numpy as np

    values, inverse = np.unique(np.asarray(scores, dtype=float), return_inverse=True)
    y = np.asarray(labels, dtype=bool)
    rng = np.random.default_rng(seed)
    n = len(scores)
    picks = []
    for _ in range(BOOTSTRAP_SAMPLES):
        weight = np.bincount(rng.integers(0, n, size=n), minlength=n)
        pos = np.bincount(inverse, weights=weight * y, minlength=len(values))
        neg = np.bincount(inverse, weights=weight * ~y, minlength=len(values))
        present = (pos + neg) > 0
        v, pos, neg = values[present], pos[present], neg[present]
        correct = np.concatenate([[pos.sum()], pos.sum() - np.cumsum(pos) + np.cumsum(neg)])
        best = int(np.argmax(correct))  # first maximum = lowest threshold
        if best == 0:
            picks.append(float(v[0]) - 1.0)
        elif best < len(v):
            picks.append(float(v[best - 1] + v[best]) / 2)
        else:
            picks.append(float(v[-1]))
    return float(np.percentile(picks, 50, method="lower"))


def _logistic(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Where a one-feature logistic regression (maximum likelihood) gives P(paraphrase) = 1/2.

    Falls back to the lowest accuracy-maximising threshold when the classes are separable or
    the slope is not positive (the fit has no finite crossing); clipped to the candidate range.
    """
    import numpy as np

    from .paraphrase_model import logistic_weights

    x = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    thresholds, counts = accuracy_curve(scores, labels)
    lowest = _first_best(thresholds, counts)  # the fallback: the `lowest` rule's threshold
    if max(counts) == len(scores):  # one class, or separable: no finite maximum-likelihood fit
        return lowest
    beta = logistic_weights(np.column_stack([np.ones_like(x), x]), y)
    if beta is None or beta[1] <= 0:
        return lowest
    return min(max(float(-beta[0] / beta[1]), float(x.min()) - 1.0), float(x.max()))  # candidate range


#: Threshold-selection rules by name; ``lowest`` is the historical default.
THRESHOLD_RULES: dict[str, Callable[[Sequence[float], Sequence[bool]], float]] = {
    "lowest": _lowest_best,
    "plateau-middle": _plateau_middle,
    "smoothed": _smoothed,
    "bootstrap-median": _bootstrap_median,
    "logistic": _logistic,
}
DEFAULT_THRESHOLD_RULE = "lowest"


def choose_threshold(scores: Sequence[float], labels: Sequence[bool], rule: str = DEFAULT_THRESHOLD_RULE) -> float:
    """The threshold t for ``score > t`` chosen on training data by a named rule.

    * ``lowest``: maximum training accuracy; the lowest of equally good thresholds.
    * ``plateau-middle``: the (lower) median of all equally good (maximum-accuracy) thresholds.
    * ``smoothed``: maximum of the accuracy curve smoothed with a Gaussian kernel (Silverman
      bandwidth), robust to a flat, jagged optimum.
    * ``bootstrap-median``: (lower) median of the ``lowest`` thresholds of 200 bootstrap resamples
      (seed 0).
    * ``logistic``: the score where a fitted logistic regression gives P(paraphrase) = 1/2.
    """
    chooser = THRESHOLD_RULES.get(rule)
    if chooser is None:
        raise ConfigurationError(f"unknown threshold rule {rule!r}: choose from {', '.join(THRESHOLD_RULES)}")
    if len(scores) != len(labels):
        raise MismatchError(f"{len(scores)} scores vs {len(labels)} labels")
    if not scores:
        raise ConfigurationError("cannot choose a threshold without training pairs")
    return chooser(scores, labels)


@dataclass(frozen=True, slots=True)
class CrossValidation:
    """k-fold cross-validation of a threshold rule on training pairs (never on test).

    ``pooled``: the held-out predictions of every fold pooled, averaged over ``repeats`` random
    fold assignments (accuracy, P, R, F1 and their standard deviations over the repeats).
    """

    rule: str
    folds: int
    repeats: int
    seed: int
    accuracy: float
    precision: float
    recall: float
    f1: float
    accuracy_sd: float
    thresholds: tuple[float, ...]
    repeat_accuracies: tuple[float, ...] = ()
    held_out: tuple[bool, ...] = ()  #: the first repeat's held-out predictions, in input order

    def to_dict(self) -> dict:
        return {
            "rule": self.rule,
            "folds": self.folds,
            "repeats": self.repeats,
            "seed": self.seed,
            "accuracy": self.accuracy,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "accuracy_sd": self.accuracy_sd,
            "mean_threshold": sum(self.thresholds) / len(self.thresholds),
            "repeat_accuracies": list(self.repeat_accuracies),
        }

    def paired_difference(self, baseline: CrossValidation) -> tuple[float, float]:
        """Mean and standard error of the per-repeat accuracy difference to `baseline`
        (same folds when both used the same seed, folds and repeats)."""
        if (self.folds, self.repeats, self.seed) != (baseline.folds, baseline.repeats, baseline.seed):
            raise ConfigurationError("paired comparison needs the same folds, repeats and seed")
        diffs = [a - b for a, b in zip(self.repeat_accuracies, baseline.repeat_accuracies, strict=True)]
        if len(diffs) < 2:
            return fmean(diffs), 0.0
        return fmean(diffs), stdev(diffs) / math.sqrt(len(diffs))


def mcnemar(a: Sequence[bool], b: Sequence[bool], gold: Sequence[bool]) -> tuple[int, int, float]:
    """Exact McNemar test of two classifiers on the same items: (items only `a` gets right, items
    only `b` gets right, two-sided p-value of the binomial test on those discordant items)."""
    if not len(a) == len(b) == len(gold):
        raise MismatchError(f"{len(a)}, {len(b)} and {len(gold)} items")
    only_a = sum(1 for x, y, g in zip(a, b, gold, strict=True) if (x == g) and (y != g))
    only_b = sum(1 for x, y, g in zip(a, b, gold, strict=True) if (y == g) and (x != g))
    n = only_a + only_b
    if n == 0:
        return 0, 0, 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return only_a, only_b, min(1.0, 2 * tail)


def stratified_folds(labels: Sequence[bool], folds: int, seed: int) -> list[int]:
    """A fold number for every item: each class shuffled (seeded) and dealt round-robin."""
    import random

    if folds < 2:
        raise ConfigurationError(f"cross-validation needs at least 2 folds, got {folds}")
    rng = random.Random(seed)
    assignment = [0] * len(labels)
    for cls in (True, False):
        members = [k for k, g in enumerate(labels) if bool(g) is cls]
        rng.shuffle(members)
        for position, k in enumerate(members):
            assignment[k] = position % folds
    return assignment


def cross_validate_threshold(
    scores: Sequence[float],
    labels: Sequence[bool],
    rule: str = DEFAULT_THRESHOLD_RULE,
    *,
    folds: int = 10,
    repeats: int = 1,
    seed: int = 0,
) -> CrossValidation:
    """Choose the threshold by `rule` on k-1 folds, classify the held-out fold; pool, repeat.

    Repeat r uses fold assignment seed ``seed + r``, so two rules compared with the same seed
    see exactly the same folds (a paired comparison).
    """
    if len(scores) != len(labels):
        raise MismatchError(f"{len(scores)} scores vs {len(labels)} labels")
    fixed = list(scores)
    return _cross_validate(lambda _train: fixed, labels, rule, folds, repeats, seed)


def cross_validate_model(
    rows: Sequence[Sequence[float]],
    labels: Sequence[bool],
    rule: str = DEFAULT_THRESHOLD_RULE,
    *,
    l2: float = 1.0,
    features: Sequence[str] | None = None,
    folds: int = 10,
    repeats: int = 1,
    seed: int = 0,
) -> CrossValidation:
    """Like :func:`cross_validate_threshold` for the ``features`` classifier: on every k-1 folds the
    model is fitted, and the threshold on its probabilities chosen by `rule`, before the held-out
    fold is classified (same folds as :func:`cross_validate_threshold` for the same seed).
    `features` names the columns of `rows` (default: :data:`paralign.paraphrase_model.FEATURES`)."""
    from .paraphrase_model import FEATURES, LogisticModel

    names = FEATURES if features is None else tuple(features)
    if len(rows) != len(labels):
        raise MismatchError(f"{len(rows)} feature rows vs {len(labels)} labels")

    def fold_scores(train: list[int]) -> list[float]:
        model = LogisticModel.fit([rows[k] for k in train], [labels[k] for k in train], features=names, l2=l2)
        return model.probabilities(rows)  # type: ignore[return-value]  # no None rows here

    return _cross_validate(fold_scores, labels, rule, folds, repeats, seed)


def _cross_validate(
    fold_scores: Callable[[list[int]], Sequence[float]],
    labels: Sequence[bool],
    rule: str,
    folds: int,
    repeats: int,
    seed: int,
) -> CrossValidation:
    """k-fold CV where ``fold_scores(training indices)`` scores every item (fitting on those
    indices when the score is learnt) and the threshold is chosen on the training items' scores."""
    per_repeat: list[BinaryScores] = []
    thresholds: list[float] = []
    first: list[bool] = []
    gold = [bool(g) for g in labels]
    for r in range(repeats):
        assignment = stratified_folds(labels, folds, seed + r)
        predicted = [False] * len(labels)
        for fold in range(folds):
            train = [k for k, f in enumerate(assignment) if f != fold]
            scores = fold_scores(train)
            t = choose_threshold([scores[k] for k in train], [labels[k] for k in train], rule)
            thresholds.append(t)
            for k, f in enumerate(assignment):
                if f == fold:
                    predicted[k] = scores[k] > t
        per_repeat.append(binary_scores(predicted, gold))
        if r == 0:
            first = predicted

    acc = [b.accuracy for b in per_repeat]
    return CrossValidation(
        rule,
        folds,
        repeats,
        seed,
        fmean(acc),
        fmean([b.precision for b in per_repeat]),
        fmean([b.recall for b in per_repeat]),
        fmean([b.f1 for b in per_repeat]),
        stdev(acc) if len(acc) > 1 else 0.0,
        tuple(thresholds),
        tuple(acc),
        tuple(first),
    )


@dataclass(frozen=True, slots=True)
class ParaphraseEvaluation:
    """Threshold chosen on training pairs and the test scores it gives.

    ``classifier`` is ``signal`` (a threshold on one signal, the paper's method) or
    ``features`` (a threshold on the probability of :attr:`model`, fitted on the training pairs).
    """

    threshold: float
    test: BinaryScores
    train: BinaryScores
    train_pairs: int
    test_pairs: int
    failures: tuple[tuple[str, PairFailure], ...] = ()
    signal: str = DEFAULT_SIGNAL
    rule: str = DEFAULT_THRESHOLD_RULE
    cross_validation: CrossValidation | None = None  #: of the rule on the training pairs
    aligner: str = ""  #: e.g. ``sultan:paraphrase`` (see :func:`aligner_label`)
    classifier: str = "signal"
    model: LogisticModel | None = None  #: the fitted model of the ``features`` classifier
    feature_set: str = ""  #: the model's named feature set (``features`` classifier only)

    def to_dict(self) -> dict:
        cv = self.cross_validation
        return {
            "threshold": self.threshold,
            "classifier": self.classifier,
            "feature_set": self.feature_set or None,
            "rule": self.rule,
            "aligner": self.aligner,
            "cross_validation": None if cv is None else cv.to_dict(),
            "accuracy": self.test.accuracy,
            "precision": self.test.precision,
            "recall": self.test.recall,
            "f1": self.test.f1,
            "test": self.test.to_dict(),
            "train": self.train.to_dict(),
            "train_pairs": self.train_pairs,
            "test_pairs": self.test_pairs,
            "failed": len(self.failures),
            "failures": [{"split": s, **f.to_dict()} for s, f in self.failures],
            "signal": self.signal,
            "model": None if self.model is None else self.model.to_dict(),
        }


def paraphrase_from_scores(
    train_scores: Sequence[float | None],
    train_labels: Sequence[bool],
    test_scores: Sequence[float | None],
    test_labels: Sequence[bool],
    signal: str = "",
    rule: str = DEFAULT_THRESHOLD_RULE,
    cv_folds: int = 0,
    cv_repeats: int = 1,
) -> ParaphraseEvaluation:
    """Choose the threshold on training scores by `rule`, apply it to test (unscored test pairs:
    negative). With ``cv_folds`` >= 2 the rule is also cross-validated on the training pairs."""
    train = [(s, g) for s, g in zip(train_scores, train_labels, strict=True) if s is not None]
    scores, labels = [s for s, _ in train], [g for _, g in train]
    threshold = choose_threshold(scores, labels, rule)
    cv = None
    if cv_folds:
        cv = cross_validate_threshold(scores, labels, rule, folds=cv_folds, repeats=cv_repeats)
    train_eval = binary_scores([s > threshold for s in scores], labels)
    predicted = [s is not None and s > threshold for s in test_scores]
    return ParaphraseEvaluation(
        threshold,
        binary_scores(predicted, list(test_labels)),
        train_eval,
        len(train),
        len(test_scores),
        (),
        signal,
        rule,
        cv,
    )


def evaluate_paraphrase(
    train: Sequence[tuple[TextLike, TextLike, bool]],
    test: Sequence[tuple[TextLike, TextLike, bool]],
    *,
    classifier: str = DEFAULT_CLASSIFIER,
    signal: str | Signal | None = None,
    feature_set: str | None = None,
    rule: str = DEFAULT_THRESHOLD_RULE,
    cv_folds: int = 0,
    l2: float = 1.0,
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> ParaphraseEvaluation:
    """Classify (s1, s2, is_paraphrase) test pairs with a threshold chosen on training pairs.

    ``classifier="features"`` (default) thresholds the probability of a logistic regression over
    the features of :mod:`paralign.paraphrase_model` (``feature_set``: a name in its
    ``FEATURE_SETS``, default alignment and MT-overlap features), fitted on the training pairs
    (``l2``: its regularisation); ``"signal"`` thresholds one similarity `signal` (default
    ``sultan2014``), the method of Sultan et al. 2014 (docs/results/similarity.md compares them).
    ``aligner=None`` is the Sultan aligner with the ``paraphrase`` preset
    (:data:`PARAPHRASE_PRESET`: options chosen on paraphrase alignments, and better than the
    default options on held-out MSRP training folds). A trainable signal (IDF) is fitted on the
    training sentences first.
    """
    if classifier not in CLASSIFIERS:
        raise ConfigurationError(f"unknown classifier {classifier!r}: choose from {', '.join(CLASSIFIERS)}")
    if classifier == "features" and signal is not None:
        raise ConfigurationError(
            "a signal applies to the 'signal' classifier; the 'features' classifier uses its own "
            "features (paralign.paraphrase_model.FEATURES)"
        )
    if classifier == "signal" and feature_set is not None:
        raise ConfigurationError("a feature set applies to the 'features' classifier, not to 'signal'")
    if classifier == "features":
        from .paraphrase_model import DEFAULT_FEATURE_SET
        from .paraphrase_model import feature_set as named_features

        feature_set = DEFAULT_FEATURE_SET if feature_set is None else feature_set
        features = named_features(feature_set)  # an unknown name fails before any alignment
    if aligner is None:
        aligner = PresetAligner(PARAPHRASE_PRESET)
    kw = {"aligner": aligner, "annotator": annotator, "workers": workers, "progress": progress}
    train_batch = align_pairs([(a, b) for a, b, _ in train], **kw)  # type: ignore[arg-type]
    test_batch = align_pairs([(a, b) for a, b, _ in test], **kw)  # type: ignore[arg-type]
    train_labels, test_labels = [g for _, _, g in train], [g for _, _, g in test]
    if classifier == "features":
        result, train_failures, test_failures = features_evaluation(
            train_batch, train_labels, test_batch, test_labels, rule, cv_folds, l2, features, progress, workers
        )
        result = replace(result, feature_set=feature_set)
    else:
        sig = make_signal(DEFAULT_SIGNAL if signal is None else signal)
        if needs_fit(sig):
            sig = fit_signal(sig, training_sentences(train_batch))
        train_scored = score_aligned(train_batch, sig)
        test_scored = score_aligned(test_batch, sig)
        result = paraphrase_from_scores(
            train_scored.scores, train_labels, test_scored.scores, test_labels, sig.name, rule, cv_folds
        )
        train_failures, test_failures = train_scored.failures, test_scored.failures
    failures = tuple(("train", f) for f in train_failures) + tuple(("test", f) for f in test_failures)
    return replace(result, failures=failures, aligner=aligner_label(aligner))


def features_evaluation(
    train_batch: AlignedBatch,
    train_labels: Sequence[bool],
    test_batch: AlignedBatch,
    test_labels: Sequence[bool],
    rule: str,
    cv_folds: int,
    l2: float,
    features: Sequence[str] | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
) -> tuple[ParaphraseEvaluation, tuple[PairFailure, ...], tuple[PairFailure, ...]]:
    """The ``features`` classifier on aligned batches: fit the logistic model on the training
    pairs' `features` (default: all), threshold its probability by `rule`, classify the test
    pairs; the CV (if asked) refits the model on every k-1 folds. Also returns each side's
    failed pairs. Features are computed by `workers` processes; `progress(n)` counts the pairs
    featurised (after the alignment's own calls)."""
    from .paraphrase_model import FEATURES, pair_features

    names = FEATURES if features is None else tuple(features)
    featurise = functools.partial(pair_features, features=names)
    train_rows, train_failures = map_aligned(train_batch, featurise, "features", progress, workers=workers)
    test_rows, test_failures = map_aligned(test_batch, featurise, "features", progress, workers=workers)
    result = evaluate_feature_rows(train_rows, train_labels, test_rows, test_labels, rule, cv_folds, l2, names)
    return result, train_failures, test_failures


def evaluate_feature_rows(
    train_rows: Sequence[Sequence[float] | None],
    train_labels: Sequence[bool],
    test_rows: Sequence[Sequence[float] | None],
    test_labels: Sequence[bool],
    rule: str,
    cv_folds: int,
    l2: float,
    features: Sequence[str],
) -> ParaphraseEvaluation:
    """The ``features`` classifier on feature rows already computed (None: a failed pair, left
    out of the fit): fit, threshold by `rule`, classify the test rows, and cross-validate on the
    usable training rows when `cv_folds` is given."""
    from .paraphrase_model import LogisticModel

    usable = [(row, g) for row, g in zip(train_rows, train_labels, strict=True) if row is not None]
    fit_rows, fit_labels = [row for row, _ in usable], [g for _, g in usable]
    model = LogisticModel.fit(fit_rows, fit_labels, features=features, l2=l2)
    result = paraphrase_from_scores(
        model.probabilities(train_rows),
        train_labels,
        model.probabilities(test_rows),
        test_labels,
        "",
        rule,
    )
    cv = None
    if cv_folds:
        cv = cross_validate_model(fit_rows, fit_labels, rule, l2=l2, features=features, folds=cv_folds)
    return replace(result, classifier="features", model=model, cross_validation=cv)


def training_sentences(batch: AlignedBatch) -> Iterator[Sentence]:
    """Both sentences of every aligned pair (to fit IDF on a training side)."""
    for item in batch.items:
        if item is not None:
            yield item.source
            yield item.target


# -- files: the work behind the CLI commands ---------------------------------------------------
def read_sentence_pairs(lines: Iterable[str]) -> Iterator[tuple[int, tuple[str, str] | str]]:
    """Yield (line number, (s1, s2)) for `s1 TAB s2` lines, or (line number, reason) for bad rows.

    A leading byte-order mark and CR/LF are removed; any other field count is a bad row.
    """
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if number == 1:
            line = line.lstrip("\ufeff")
        fields = line.split("\t")
        if len(fields) != 2:
            yield number, f"{len(fields)} field(s), expected 2 TAB-separated sentences"
        elif not fields[0].strip() or not fields[1].strip():
            yield number, "empty sentence"
        else:
            yield number, (fields[0].strip(), fields[1].strip())


def sentences_from_file(path: str | Path) -> list[str]:
    """The sentences of an STS, STS Benchmark or MSRP file, else of a text file (one a line)."""
    return list(iter_sentences_from_file(path))


def iter_sentences_from_file(path: str | Path, sample_lines: int = 50) -> Iterator[str]:
    """Stream the sentences of an STS, STS Benchmark or MSRP file, else of a text file.

    The format is decided on the first `sample_lines` lines, so a large plain-text file (an
    IDF corpus) is read once, line by line, and never held in memory.
    """
    from itertools import islice

    from .corpora.msrp import load_msrp
    from .corpora.sts import load_sts
    from .paraphrases import open_text

    with open_text(path) as handle:
        sample = [line.rstrip("\r\n").lstrip("\ufeff") for line in islice(handle, sample_lines)]
    if sample and sample[0].split("\t")[0].strip().lower() == "quality":
        for p in load_msrp(path):
            yield from (p.sentence1, p.sentence2)
        return
    rows = [line.split("\t") for line in sample if line.strip()]
    if rows and sum(_looks_like_sts(fields) for fields in rows) * 2 >= len(rows):
        for p in load_sts(path).pairs:
            yield from (p.sentence1, p.sentence2)
        return
    with open_text(path) as handle:
        for line in handle:
            if line.strip():
                yield line.strip()


def _looks_like_sts(fields: list[str]) -> bool:
    """A row of `score TAB s1 TAB s2` or of the STS Benchmark (score in field 5)."""
    from .corpora.sts import parse_score

    return (len(fields) >= 3 and parse_score(fields[0]) is not None) or (
        len(fields) >= 7 and parse_score(fields[4]) is not None
    )


def fit_on_files(
    signal: str | Signal, paths: Sequence[str | Path], annotator: Annotator | None = None
) -> Signal:
    """Fit a trainable signal (IDF) on the sentences of `paths` (tagged and lemmatised only)."""
    sig = make_signal(signal)
    if not getattr(sig, "trainable", False):
        return sig
    if not paths:
        raise ConfigurationError(
            f"signal {sig.name!r} needs training sentences for its IDF statistics (--idf-from FILE)"
        )
    texts = (s for path in paths for s in iter_sentences_from_file(path))
    annotator = annotator or Annotator(disable=("parser", "ner"))
    return fit_signal(sig, annotator.pipe(texts))


@dataclass(frozen=True, slots=True)
class StsFileResult:
    """One STS file: its evaluation and the loader's row report."""

    name: str
    path: str
    evaluation: StsEvaluation
    skipped_rows: tuple[dict, ...] = ()

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "path": self.path,
            **self.evaluation.to_dict(),
            "skipped": len(self.skipped_rows),
            "skipped_rows": list(self.skipped_rows),
        }


@dataclass(frozen=True, slots=True)
class StsReport:
    """Per-file STS results and their size-weighted means (SemEval's aggregate)."""

    sets: tuple[StsFileResult, ...]
    signal: str
    aligner: str = ""  #: e.g. ``sultan:default`` (see :func:`aligner_label`)

    def to_dict(self) -> dict:
        sizes = [r.evaluation.pairs for r in self.sets]
        return {
            "pairs": sum(sizes),
            "pearson": weighted_mean([(r.evaluation.pearson, n) for r, n in zip(self.sets, sizes, strict=True)]),
            "spearman": weighted_mean([(r.evaluation.spearman, n) for r, n in zip(self.sets, sizes, strict=True)]),
            "skipped": sum(len(r.skipped_rows) for r in self.sets),
            "failed": sum(len(r.evaluation.failures) for r in self.sets),
            "signal": self.signal,
            "aligner": self.aligner,
            "sets": [r.to_dict() for r in self.sets],
        }


def evaluate_sts_files(
    paths: Sequence[str | Path],
    *,
    signal: str | Signal = DEFAULT_SIGNAL,
    idf_from: Sequence[str | Path] = (),
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> StsReport:
    """Evaluate a signal on STS files (any layout :func:`load_sts` reads): Pearson per file."""
    from .corpora.sts import load_sts

    sig = fit_on_files(signal, idf_from) if needs_fit(make_signal(signal)) else make_signal(signal)
    results = []
    for path in paths:
        data = load_sts(path)
        ev = evaluate_sts(
            [(p.sentence1, p.sentence2, p.score) for p in data.pairs],
            signal=sig,
            aligner=aligner,
            annotator=annotator,
            workers=workers,
            progress=progress,
        )
        results.append(StsFileResult(Path(path).name, str(path), ev, tuple(r.to_dict() for r in data.skipped)))
    return StsReport(tuple(results), sig.name, aligner_label(aligner))


def evaluate_paraphrase_files(
    train_paths: Sequence[str | Path],
    test_path: str | Path,
    *,
    classifier: str = DEFAULT_CLASSIFIER,
    signal: str | Signal | None = None,
    feature_set: str | None = None,
    rule: str = DEFAULT_THRESHOLD_RULE,
    cv_folds: int = 0,
    l2: float = 1.0,
    aligner: AlignFunction | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """Train on MSRP-format training files, evaluate on the test file (see :func:`evaluate_paraphrase`); with row reports."""
    from .corpora.msrp import load_msrp

    train = load_msrp(*train_paths)
    test = load_msrp(test_path)
    if not train.pairs:
        raise FormatError("no usable training pairs", source=", ".join(map(str, train_paths)))
    if not test.pairs:
        raise FormatError("no usable test pairs", source=str(test_path))
    ev = evaluate_paraphrase(
        [(p.sentence1, p.sentence2, p.label) for p in train.pairs],
        [(p.sentence1, p.sentence2, p.label) for p in test.pairs],
        classifier=classifier,
        signal=signal,
        feature_set=feature_set,
        rule=rule,
        cv_folds=cv_folds,
        l2=l2,
        aligner=aligner,
        annotator=annotator,
        workers=workers,
        progress=progress,
    )
    result = ev.to_dict()
    result["skipped"] = len(train.skipped) + len(test.skipped)
    result["skipped_rows"] = train.summary()["skipped_rows"] + test.summary()["skipped_rows"]
    return result
