"""The ``align_many`` of the aligners that annotate every sentence once, then align the pairs
(the Sultan and exact aligners): :func:`annotate_and_align`.

Its own module so both aligners import it from below them: it lived in :mod:`.exact`, so the
Sultan aligner imported the exact aligner's module for it.

Not for: aligning many pairs with failures in place (:mod:`.batch`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from ..alignment import Alignment
from ..errors import check_pairs
from ..nlp import TextOrTokens, check_sentence_pairs
from ..sentence import Sentence
from ..workers import Progress


class _Annotating(Protocol):
    """An aligner with the batch methods :func:`annotate_and_align` calls."""

    def annotate(self, items: Iterable[TextOrTokens], workers: int = 1,
                 progress: Progress | None = None) -> list[Sentence]: ...

    def align_annotated(self, pairs: Sequence[tuple[Sentence, Sentence]], workers: int = 1,
                        progress: Progress | None = None) -> list[Alignment]: ...


def annotate_and_align(aligner: _Annotating, pairs: object, workers: int,
                       progress: Progress | None) -> list[Alignment]:
    """The ``align_many`` of the Sultan and exact aligners: `pairs` checked (an item that is not
    a (source, target) pair, or whose sentence is not one, is an InputTypeError naming it), one
    annotation pass over every sentence (``aligner.annotate``), then ``aligner.align_annotated``
    of the pairs in input order."""
    checked = check_pairs(pairs)
    check_sentence_pairs(checked)
    sentences = aligner.annotate([x for pair in checked for x in pair], workers=workers)
    return aligner.align_annotated(list(zip(sentences[0::2], sentences[1::2], strict=True)), workers=workers,
                                   progress=progress)
