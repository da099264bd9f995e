"""Align many pairs, failures kept in place: annotate and align a batch of sentence pairs.

:func:`align_pairs` annotates (texts, token lists, or Sentences as given) and aligns pairs in
chunks through :mod:`paralign.workers`, keeping a :class:`PairFailure` in the place of every pair
that fails; :func:`align_input` does the same for the input pairs of ``paralign align``.

Not for: reading input files (:mod:`paralign.corpora.sentence_pairs`) or scoring alignments.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeAlias

from ..alignment import AlignedSentences, AlignFunction, Alignment, is_blank  # noqa: F401 - importable from here, as it was
from ..corpora.sentence_pairs import ALIGN_SIDES, InputPair
from ..corpora.sts import empty_sides
from ..errors import SETUP_ERRORS, check_pairs, check_progress
from ..nlp import Annotator, TextOrTokens, check_annotator, default_annotator
from ..sentence import Sentence
from ..workers import Progress, describe_error, in_steps, iter_chunk_results, run_chunks
from .exact import ExactAligner
from .registry import default_aligner, is_exact_aligner, resolve_aligner

if TYPE_CHECKING:  # pragma: no cover
    from .contextual import ContextualAligner
    from .sultan import Aligner

TextLike = str | Sequence[str] | Sentence

#: An aligner object that annotates a batch and aligns its annotated pairs (`paralign align`'s).
BatchAligner: TypeAlias = "Aligner | ContextualAligner | ExactAligner"


@dataclass(frozen=True, slots=True)
class PairFailure:
    """An input pair (0-based index in the batch) that could not be aligned, and why."""

    index: int
    error: str

    def to_dict(self) -> dict:
        return {"index": self.index, "error": self.error}


def reindexed(failures: Iterable[PairFailure], kept: Sequence[int]) -> tuple[PairFailure, ...]:
    """`failures` of a batch made of the pairs at the indices `kept` of a larger list (the
    usable ones: ``corpora.sts.usable_pairs``), indexed in that list instead of the batch."""
    return tuple(PairFailure(kept[f.index], f.error) for f in failures)


@dataclass(frozen=True, slots=True)
class AlignedBatch:
    """Aligned pairs in input order (None where the pair failed) and the failures."""

    items: tuple[AlignedSentences | None, ...]
    failures: tuple[PairFailure, ...] = ()

    def __len__(self) -> int:
        return len(self.items)


def given_tokens(item: object) -> bool:
    """Whether a side of a pair is given as tokens (a token list: no spaCy tokenises it), not a
    text or an annotated Sentence (taken as :func:`paralign.annotate` made it, on spaCy's tokens)."""
    return not isinstance(item, str | Sentence)


@dataclass(frozen=True, slots=True)
class PairSignatures:
    """The signature of each pair's alignment (:func:`~.signature.alignment_signature`), by
    which of its sides are given as token lists (:func:`given_tokens`), as ``paralign align``
    signs an input pair: ``tok:none`` for both (``tok:none/spacy`` or ``spacy/none`` for one),
    and no ``spacy`` part when both are and no spaCy model read them (the exact aligner on
    tokens alone). Strings only, so a chunk's task pickles small for a worker."""

    by_sides: Mapping[tuple[bool, bool], str]

    @classmethod
    def of(cls, aligner: AlignFunction | None, parse: bool) -> PairSignatures:
        """The signatures of `aligner`'s alignments, its sentences parsed (`parse`) or not."""
        from .signature import alignment_signature, tokens_part

        return cls({(source, target): alignment_signature(aligner, given_tokens=source and target and not parse,
                                                          **tokens_part((source, target)))
                    for source in (False, True) for target in (False, True)})

    def __call__(self, source: TextLike, target: TextLike) -> str | None:
        return self.by_sides[given_tokens(source), given_tokens(target)]


def _annotate_chunk(annotator: Annotator | None, texts: list[TextLike], parse: bool = True) -> list[Sentence | str]:
    """Annotate texts (Sentences pass through): parsed by `annotator` (else the default one), or
    with `parse` False tokens alone, spaCy's tokenizer's for a text and none for a token list
    (:meth:`~.exact.ExactAligner.annotate`: what the exact aligner reads); a failing item
    becomes its error message."""
    # tokens alone: no spaCy model is loaded unless a text is tokenised
    many: Callable[[list[TextOrTokens]], Iterable[Sentence]] = \
        (annotator or default_annotator()).pipe if parse else ExactAligner(annotator).annotate
    todo: list[tuple[int, TextOrTokens]] = [(k, t) for k, t in enumerate(texts) if not isinstance(t, Sentence)]
    out: list[Sentence | str] = [t if isinstance(t, Sentence) else "" for t in texts]
    try:
        for (k, _), sentence in zip(todo, many([t for _, t in todo]), strict=True):
            out[k] = sentence
    except SETUP_ERRORS:
        raise  # no spaCy model, say: every text would fail
    except Exception:  # noqa: BLE001 - retry one by one so one bad text does not sink the chunk
        for k, text in todo:
            try:
                out[k] = next(iter(many([text])))
            except SETUP_ERRORS:
                raise
            except Exception as exc:  # noqa: BLE001
                out[k] = f"annotation failed: {describe_error(exc)}"
    return out


def _align_chunk(
    align: AlignFunction | None, annotator: Annotator | None, signed: PairSignatures,
    parse: bool, sides: tuple[str, str], chunk: list[tuple[TextLike, TextLike]],
) -> list[AlignedSentences | str]:
    """Annotate (`parse`: by the whole pipeline, else tokens alone) and align one chunk of
    pairs, each aligned pair signed with ``signed(source, target)``; failures become error
    strings (worker-safe), an empty side named as `sides` name them."""
    align = align or default_aligner()
    flat: list[TextLike] = [x for pair in chunk for x in pair]
    sentences = _annotate_chunk(annotator, flat, parse)
    results: list[AlignedSentences | str] = []
    for k in range(len(chunk)):
        empty = empty_sides(zip(sides, chunk[k], strict=True))
        if empty:  # as the command line reports it: no words, nothing to compare
            results.append(empty)
            continue
        s, t = sentences[2 * k], sentences[2 * k + 1]
        if isinstance(s, str):  # its annotation failed: the error (the source's first)
            results.append(s)
            continue
        if isinstance(t, str):
            results.append(t)
            continue
        try:
            results.append(AlignedSentences(s, t, align(s, t), signed(*chunk[k])))
        except SETUP_ERRORS:
            raise  # missing NLTK data or extra, say: every pair would fail, and each say so
        except Exception as exc:  # noqa: BLE001 - a batch never loses other items' results
            results.append(f"alignment failed: {describe_error(exc)}")
    return results


def align_pairs(
    pairs: Iterable[tuple[TextLike, TextLike]],
    *,
    aligner: AlignFunction | str | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    chunk_size: int = 64,
    progress: Callable[[int], None] | None = None,
    parse: bool | None = None,
    sides: tuple[str, str] = ALIGN_SIDES,
) -> AlignedBatch:
    """Annotate (texts or token lists; Sentences are used as given) and align many pairs.

    With ``workers > 1`` chunks go to Dask workers (:mod:`paralign.workers`; the aligner must then
    be picklable: the default and preset aligners load their data once per worker).
    ``progress(n)`` is called with the number of pairs finished after each chunk. A pair that
    fails is reported in ``failures`` and the others are still returned; so is a pair with an
    empty sentence (no words: ``empty target sentence``), as the command line reports it; `sides`
    name the two sides there (``source`` and ``target``, as ``align`` says; ``similarity_many``
    gives ``first`` and ``second``, as the similarity commands say).
    An item that is not a (source, target) pair is an InputTypeError naming it; `aligner` as
    :func:`~paralign.similarity.similarity_many` takes it (a function or a name). Each aligned
    pair carries its aligner's signature (:func:`~paralign.aligners.signature.alignment_signature`),
    so that its :meth:`~paralign.alignment.AlignedSentences.to_dict` is the record
    ``paralign align --format json`` writes (which adds the pair's input line): with ``tok:none``
    for a pair of token lists (the caller's own tokens), ``tok:none/spacy`` (``spacy/none``) for a
    pair of a token list and a text, as ``align`` signs a JSON record's (a Sentence is taken as
    :func:`paralign.annotate` made it, on spaCy's tokens).

    `parse`: whether texts and token lists are tagged and parsed by spaCy; None: as the aligner
    reads them. The exact aligner reads tokens alone (as ``align --aligner exact`` does): a text
    gets spaCy's tokenizer's tokens (the ones a parse gives; no tags, lemmas or parse) and a
    token list no spaCy at all, so a pair of token lists signs no ``spacy`` part. Every other
    aligner parses. A caller whose scores read more than tokens (an IDF signal's lemmas)
    passes True. Why: the exact aligner's batches were parsed whole for links between equal
    lower-cased tokens, and signed the spaCy model on token lists no model read.
    """
    check_annotator(annotator)
    check_progress(progress)
    aligner = resolve_aligner(aligner)  # a name was called: every pair failed, "'str' object is not callable"
    if parse is None:
        parse = not is_exact_aligner(aligner)
    signed = PairSignatures.of(aligner, parse)
    results = run_chunks(
        functools.partial(_align_chunk, aligner, annotator, signed, parse, sides),
        check_pairs(pairs),
        lambda chunk, why: [why] * len(chunk),
        workers=workers,
        chunk_size=chunk_size,
        progress=progress,
    )
    failures = tuple(PairFailure(k, r) for k, r in enumerate(results) if isinstance(r, str))
    aligned = tuple(None if isinstance(r, str) else r for r in results)
    return AlignedBatch(aligned, failures)


#: One aligned input pair: the pair (its ``error`` set when it failed) and its sentences and
#: alignment, or None results for a bad pair.
InputResult = tuple[InputPair, Sentence | None, Sentence | None, Alignment | None]


def _align_input_chunk(aligner: BatchAligner, chunk: list[InputPair]) -> list[InputResult]:
    """Annotate and align the readable pairs of one chunk (worker-safe); a pair that fails gets
    its error and None results, the others are kept (one by one after a failed batch)."""
    out: list[InputResult] = [(p, None, None, None) for p in chunk]
    # a pair read without an error holds both texts
    texts = {k: (p.source, p.target) for k, p in enumerate(chunk)
             if p.error is None and p.source is not None and p.target is not None}
    annotated: dict[int, tuple[Sentence, Sentence]]
    try:
        sentences = aligner.annotate([x for pair in texts.values() for x in pair])
        annotated = dict(zip(texts, zip(sentences[0::2], sentences[1::2], strict=True), strict=True))
    except SETUP_ERRORS:
        raise
    except Exception:  # noqa: BLE001 - annotate one by one so one bad pair does not sink the chunk
        annotated = {}
        for k, pair in texts.items():
            try:
                source, target = aligner.annotate(list(pair))
                annotated[k] = (source, target)
            except SETUP_ERRORS:
                raise
            except Exception as exc:  # noqa: BLE001
                out[k] = _failed(chunk[k], f"annotation failed: {describe_error(exc)}")
    for k, (source, target) in annotated.items():
        try:
            out[k] = (chunk[k], source, target, aligner.align_sentences(source, target))
        except SETUP_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - a batch never loses other items' results
            out[k] = _failed(chunk[k], f"alignment failed: {describe_error(exc)}")
    return out


def _failed(pair: InputPair, why: str) -> InputResult:
    return (pair if pair.error is not None else replace(pair, error=why), None, None, None)


def iter_align_input(aligner: BatchAligner, pairs: Iterable[InputPair], *, workers: int = 1,
                     chunk_size: int = 64) -> Iterator[InputResult]:
    """Align the readable input pairs in chunks (on ``workers`` Dask workers when > 1, see
    :mod:`paralign.workers`), yielding every pair's result in input order as its chunk is done:
    `pairs` is read lazily, so output streams. Unreadable pairs come back with None results, and
    so does a pair that fails to annotate or align, its ``error`` saying why."""
    chunks = iter_chunk_results(
        functools.partial(_align_input_chunk, aligner), pairs,
        lambda chunk, why: [_failed(p, why) for p in chunk], workers=workers, chunk_size=chunk_size,
    )
    return (result for chunk in chunks for result in chunk)


def align_input(aligner: BatchAligner, pairs: Sequence[InputPair], workers: int = 1,
                progress: Progress | None = None) -> list[InputResult]:
    """All of :func:`iter_align_input`, ``progress`` given the results as they come (a
    :class:`~paralign.workers.Steps` ``"aligning"``, with their number)."""
    results = iter_align_input(aligner, pairs, workers=workers,
                               chunk_size=max(1, min(64, len(pairs) // (2 * workers) or 1)))
    return list(in_steps(progress, results, len(pairs), "aligning"))


def alignment_record(pair: InputPair, source: Sentence, target: Sentence, alignment: Alignment,
                     signature: str | None = None) -> dict[str, Any]:
    """JSON output of one aligned pair: its line (and id), then :meth:`AlignedSentences.to_dict`:
    tokens, links and aligned word pairs, with an aligner that gives them each link's
    confidence, and the `signature` of the settings that aligned it."""
    record: dict[str, Any] = {"line": pair.line}
    if pair.id is not None:
        record["id"] = pair.id
    record.update(AlignedSentences(source, target, alignment, signature).to_dict())
    return record
