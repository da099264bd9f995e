"""Similarity of sentence pairs: align, then score with a signal, in batches.

Not for: choosing a signal or aligner (:mod:`paralign.similarity.signals`,
:mod:`paralign.aligners`) or evaluating scores against gold (:mod:`paralign.similarity.sts`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from ..aligners.batch import AlignedBatch, PairFailure, TextLike, align_pairs, given_tokens
from ..aligners.registry import is_exact_aligner, resolve_aligner
from ..alignment import AlignedSentences, AlignFunction, Alignment
from ..corpora.sts import SIMILARITY_SIDES
from ..errors import SETUP_ERRORS, ConfigurationError, SimilarityError, check_pairs
from ..nlp import Annotator, check_text_or_tokens
from ..sentence import Sentence
from ..workers import describe_error, run_chunks
from .signals import (
    DEFAULT_SIGNAL,
    Signal,
    make_signal,
    needs_alignment,
    needs_fit,
    reads_tokens_only,
)
from .signature import scored_aligner, similarity_signature

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class SimilarityBatch:
    """Scores in input order (None for failed pairs), the failures, the signal's name, the
    aligner whose alignments the scores read and the signature of every setting that made them.

    `aligner` and `signature` are :func:`similarity_many`'s (None from :func:`score_aligned`,
    which is given alignments and not the aligner that made them)."""

    scores: tuple[float | None, ...]
    failures: tuple[PairFailure, ...] = ()
    signal: str = DEFAULT_SIGNAL
    #: the aligner whose alignments the signal read (:func:`~.signature.scored_aligner`:
    #: ``sultan:paraphrase``; ``none`` for a signal that reads no alignment)
    aligner: str | None = None
    #: every setting that changed a score (:func:`~.signature.similarity_signature`)
    signature: str | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        """The record ``paralign similarity --format json`` writes, which adds only what the
        command alone knows (its input's skipped rows, the JSONL ids, its notes)."""
        return {
            "signal": self.signal,
            "aligner": self.aligner,
            "signature": self.signature,
            "pairs": len(self.scores),
            "scores": list(self.scores),
            "failures": [f.to_dict() for f in self.failures],
        }


def score_aligned(batch: AlignedBatch, signal: str | Signal = DEFAULT_SIGNAL) -> SimilarityBatch:
    """Score already aligned pairs with a signal (align once, compare many signals)."""
    sig = make_signal(signal)
    prepare = getattr(sig, "prepare", None)
    if callable(prepare):  # batch work first (sentence vectors): a neural signal encodes in batches
        try:
            prepare(batch.items)
        except SETUP_ERRORS:
            raise
        except Exception:  # noqa: BLE001 - each pair is then scored (and fails) on its own
            pass
    scores, failures = map_aligned(batch, lambda item: float(sig(item)), "signal")
    return SimilarityBatch(tuple(scores), failures, sig.name)


def _map_chunk(
    function: Callable[[AlignedSentences], _T], items: Sequence[AlignedSentences | None]
) -> list[tuple[_T | None, str | None]]:
    """``function`` of each item of one chunk: (value, None), or (None, why) when it raised
    (worker-safe); a setup error (:data:`~paralign.errors.SETUP_ERRORS`: a caller's mistake, missing
    data) propagates."""
    out: list[tuple[_T | None, str | None]] = []
    for item in items:
        if item is None:
            out.append((None, None))
            continue
        try:
            out.append((function(item), None))
        except SETUP_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - a batch never loses other items' results
            out.append((None, describe_error(exc)))
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
    results = run_chunks(
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
    aligner: AlignFunction | str | None = None,
    annotator: Annotator | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimilarityBatch:
    """Similarity of many pairs (texts, token lists or Sentences): a :class:`SimilarityBatch` of
    scores in input order, None for a pair that could not be scored (an empty sentence, a
    failed annotation), each such pair in its ``failures``. `aligner` is an alignment function
    (:func:`paralign.get_aligner`, or an ``Aligner`` object with options of its own) or its name
    (``"exact"``, ``"sultan:paraphrase"``); None is the Sultan aligner with default options.
    Missing data or a setup mistake (:data:`~paralign.errors.SETUP_ERRORS`) stops the batch.
    The batch names the aligner the scores read and the run's signature, so that its
    :meth:`~SimilarityBatch.to_dict` is the record ``paralign similarity --format json`` writes.

    >>> batch = paralign.similarity_many([("A man is eating.", "A man eats."), ("", "A cat.")])
    >>> batch.scores, batch.failures[0].error             # a bad pair does not stop the others
    ((1.0, None), 'empty first sentence')
    >>> batch.to_dict()["failures"]
    [{'index': 1, 'error': 'empty first sentence'}]
    """
    aligner = resolve_aligner(aligner)
    sig = make_signal(signal)
    if needs_fit(sig):  # fail before the expensive alignment
        raise ConfigurationError(
            f"signal {sig.name!r} must be fitted on training sentences first (fit_signal)"
        )
    pairs = check_pairs(pairs)
    tokens_alone = parses_nothing(sig, aligner)
    signature = similarity_signature(sig, aligner, given_tokens=tokens_alone and all_given(pairs),
                                     sides=given_sides(pairs))
    used = scored_aligner(sig, aligner, signature)
    if not needs_alignment(sig):  # the sentences are annotated as usual, but never aligned
        aligner = no_alignment
    batch = align_pairs(pairs, aligner=aligner, annotator=annotator, workers=workers, progress=progress,
                        parse=not tokens_alone, sides=SIMILARITY_SIDES)
    return replace(score_aligned(batch, sig), aligner=used, signature=signature)


def parses_nothing(signal: Signal, aligner: AlignFunction | str | None) -> bool:
    """Whether scores of `signal` over `aligner`'s alignments read each sentence's tokens alone,
    so the pairs are tokenised, not parsed (:func:`~paralign.aligners.batch.align_pairs`'s
    `parse` False): the exact aligner (which reads tokens alone) under a signal that reads
    tokens alone too (:func:`~.signals.reads_tokens_only`: ``sultan2014``, not ``idf``, whose
    weights are keyed by lemma). Why: ``similarity --aligner exact`` and ``evaluate-sts
    --aligner exact`` parsed every sentence for scores that read none of the parse."""
    return needs_alignment(signal) and reads_tokens_only(signal) and is_exact_aligner(resolve_aligner(aligner))


def all_given(pairs: Iterable[tuple[object, object]]) -> bool:
    """Whether both sides of every pair are given as token lists (:func:`~paralign.aligners.batch.
    given_tokens`): over the exact aligner, no spaCy model reads any (so none is signed)."""
    return all(given_tokens(source) and given_tokens(target) for source, target in pairs)


def given_sides(pairs: Iterable[tuple[object, object]]) -> set[tuple[bool, bool]]:
    """Which sides of `pairs` are given as token lists (:func:`~paralign.aligners.batch.given_tokens`),
    each pair's (source, target) once: what a batch's ``tok`` part signs
    (:func:`~paralign.aligners.signature.batch_tokens_part`), as ``align`` signs each pair's."""
    return {(given_tokens(source), given_tokens(target)) for source, target in pairs}


def no_alignment(source: Sentence, target: Sentence) -> Alignment:
    """The empty alignment: the aligner used for signals that never read the links (fast, and
    picklable for worker processes)."""
    return Alignment()


def similarity(
    a: TextLike,
    b: TextLike,
    *,
    signal: str | Signal = DEFAULT_SIGNAL,
    aligner: AlignFunction | str | None = None,
    annotator: Annotator | None = None,
) -> float:
    """Similarity in [0, 1] of two sentences (texts, token lists or annotated Sentences), as
    :func:`similarity_many` computes it; a pair that cannot be scored (an empty sentence) is a
    SimilarityError saying why, and a value that is not a sentence (None, a number) an
    InputTypeError: a caller's mistake, not a pair that failed.

    >>> x, y = "The senator sponsored the bill.", "The senator drafted the bill."
    >>> round(paralign.similarity(x, y), 3)                # aligned content words (the default signal)
    0.667
    >>> paralign.similarity(x, y, aligner="sultan:paraphrase")
    1.0
    """
    check_text_or_tokens(a, "a")
    check_text_or_tokens(b, "b")
    result = similarity_many([(a, b)], signal=signal, aligner=aligner, annotator=annotator)
    if result.failures:
        raise SimilarityError(f"pair could not be scored: {result.failures[0].error}")
    score = result.scores[0]
    assert score is not None
    return score


def training_sentences(batch: AlignedBatch) -> Iterator[Sentence]:
    """Both sentences of every aligned pair (to fit IDF on a training side)."""
    for item in batch.items:
        if item is not None:
            yield item.source
            yield item.target
