"""Align many pairs, failures kept in place: annotate and align a batch of sentence pairs.

:func:`align_pairs` annotates (texts, token lists, or Sentences as given) and aligns pairs in
chunks through :mod:`paralign.workers`, keeping a :class:`PairFailure` in the place of every pair
that fails; :func:`align_input` does the same for the input pairs of ``paralign align``.

Not for: reading input files (:mod:`paralign.corpora.sentence_pairs`) or scoring alignments.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..alignment import AlignedSentences, AlignFunction, Alignment
from ..corpora.sentence_pairs import InputPair
from ..nlp import Annotator, default_annotator
from ..sentence import Sentence
from ..workers import Progress, describe_error, run_chunks
from .registry import PresetAligner, _preset_aligner, default_aligner

if TYPE_CHECKING:  # pragma: no cover
    from .sultan import Aligner

TextLike = str | Sequence[str] | Sentence


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
                out[k] = f"annotation failed: {describe_error(exc)}"
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
            results.append(f"alignment failed: {describe_error(exc)}")
    return results


def _warm_up(aligner: AlignFunction | None, annotator: Annotator | None) -> None:
    """Load the spaCy pipeline and the default aligner's word-similarity data in this process."""
    used = annotator or default_annotator()
    if isinstance(used, Annotator):
        used.nlp  # noqa: B018 - loads the pipeline
    if aligner is None or isinstance(aligner, PresetAligner):
        _preset_aligner(getattr(aligner, "preset", "default")).related  # noqa: B018 - loads PPDB


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
    results = run_chunks(
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


def align_input(aligner: Aligner, pairs: Sequence[InputPair], workers: int = 1,
                progress: Progress | None = None) -> list[tuple[InputPair, Sentence | None,
                                                                 Sentence | None, Alignment | None]]:
    """Align the readable pairs (batched); unreadable ones come back with None results."""
    good = [p for p in pairs if p.error is None]
    flat: list[str | list[str]] = [x for p in good for x in (p.source, p.target)]  # type: ignore[misc]
    sentences = aligner.annotate(flat, workers=workers)
    annotated = list(zip(sentences[0::2], sentences[1::2], strict=True))
    alignments = aligner.align_annotated(annotated, workers=workers, progress=progress)
    results: dict[int, tuple[Sentence, Sentence, Alignment]] = {
        p.line: (s, t, a) for p, (s, t), a in zip(good, annotated, alignments, strict=True)
    }
    out = []
    for p in pairs:
        s, t, a = results.get(p.line, (None, None, None))
        out.append((p, s, t, a))
    return out


def alignment_record(pair: InputPair, source: Sentence, target: Sentence, alignment: Alignment) -> dict[str, Any]:
    """JSON output of one aligned pair: tokens, links and aligned word pairs, and with an aligner
    that gives them (the contextual preset) each link's confidence, in the order of `links`."""
    links = sorted(alignment.sure)
    record: dict[str, Any] = {"line": pair.line}
    if pair.id is not None:
        record["id"] = pair.id
    record.update({
        "source": list(source.tokens), "target": list(target.tokens),
        "alignment": alignment.to_pharaoh(), "links": [list(x) for x in links],
        "pairs": [[source.tokens[i], target.tokens[j]] for i, j in links],
    })
    if alignment.confidence is not None:
        record["confidence"] = [round(alignment.confidence.get(link, 1.0), 4) for link in links]
    return record
