"""What the engine's methods return, as frozen values the routes turn into JSON or pages: an
aligned pair (:class:`Aligned`, with :func:`link_confidences`), a ParaEval segment
(:class:`ParaEvalResult`), a scored batch (:class:`BatchResult`) and a lattice
(:class:`LatticeResult`).

Not for: computing them (:mod:`.engine`) or showing them (:mod:`.api`, :mod:`.pages`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..alignment import Alignment
from ..metrics.paraeval import Config, GradedExplanation, SegmentMatch
from ..sentence import Sentence
from ..similarity.rows import Row


@dataclass(frozen=True, slots=True)
class Aligned:
    """An aligned pair: the annotated sentences, the alignment, its confidences (link -> [0, 1],
    when the aligner gives them) and the aligner's name."""

    source: Sentence
    target: Sentence
    alignment: Alignment
    confidence: Mapping[tuple[int, int], float] | None
    aligner: str


@dataclass(frozen=True, slots=True)
class ParaEvalResult:
    """One segment scored by a ParaEval config: the config, the signature, and what was matched:
    the paper scorer's spans (a SegmentMatch) or the graded scorer's matches by tier (a
    GradedExplanation, whose row gives the score)."""

    config: Config
    signature: str
    matched: SegmentMatch | GradedExplanation


@dataclass(frozen=True, slots=True)
class BatchResult:
    """A batch of sentence pairs scored by one signal: its rows as read (line, the sentences or
    why there are none, id, file), each row's score and reason for none (None: scored), and
    what ``paralign similarity`` writes for the same input: its JSON record and its text."""

    rows: tuple[Row, ...]
    scores: tuple[float | None, ...]
    errors: tuple[str | None, ...]
    report: dict[str, Any]
    text: str


@dataclass(frozen=True, slots=True)
class LatticeResult:
    """A lattice and a few of its paths."""

    lattice: Any
    some_paths: tuple[str, ...]


def link_confidences(alignment: Alignment) -> dict[tuple[int, int], float] | None:
    """The alignment's per-link confidences (``Alignment.confidence``, given by the contextual
    aligner) as floats; None when it has none. (`Alignment` checks them: each a number in
    [0, 1] of one of its links.)"""
    found = alignment.confidence
    return {link: float(value) for link, value in found.items()} if found else None
