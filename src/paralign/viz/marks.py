"""Which links a picture of an alignment draws, and as what: one :class:`LinkMark` per link.

:class:`AlignmentView` is what every alignment picture is given: the two token sequences, the
alignment, optionally a gold alignment and confidences, checked once, and its marks. A mark is
a link (i, j) with its kind (``sure`` or ``possible``), its status against a gold
alignment when there is one (``correct``, ``missed`` or ``wrong``) and its confidence in [0, 1]
when the aligner gave one. Against gold the statuses count exactly what the scores count
(:mod:`paralign.metrics.alignment_scores`): with G the gold links (`links`: ``sure`` or
``sure+possible``) and A every system link, correct = A ∩ G, wrong = A − G, missed = G − A.
The grid, the side-by-side lines and the terminal view all draw these same marks.

Not for: drawing (:mod:`.grid`, :mod:`.lines`, :mod:`.terminal`) or the scores themselves.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..alignment import Alignment, Link
from ..errors import ConfigurationError

SURE, POSSIBLE = "sure", "possible"
CORRECT, MISSED, WRONG = "correct", "missed", "wrong"
#: The statuses against gold, in the order legends list them.
STATUSES = (CORRECT, MISSED, WRONG)
#: Link -> confidence in [0, 1], as an aligner that gives confidences reports them.
Confidences = Mapping[Link, float]


@dataclass(frozen=True, slots=True)
class LinkMark:
    """One link as a picture draws it."""

    i: int
    j: int
    kind: str
    status: str | None = None
    confidence: float | None = None

    @property
    def classes(self) -> str:
        """The CSS classes of the link's element: ``link sure``, ``link possible correct`` ..."""
        return " ".join(x for x in ("link", self.kind, self.status) if x)

    def describe(self, source: Sequence[str], target: Sequence[str]) -> str:
        """A tooltip: ``cat ↔ chat (sure, correct, confidence 0.80)``."""
        notes = [x for x in (self.kind, self.status) if x]
        if self.confidence is not None:
            notes.append(f"confidence {self.confidence:.2f}")
        return f"{source[self.i]} ↔ {target[self.j]} ({', '.join(notes)})"


def check_confidences(confidence: Confidences | None) -> None:
    """ConfigurationError unless every confidence is a number in [0, 1]."""
    for link, value in (confidence or {}).items():
        if not isinstance(value, numbers.Real) or not 0.0 <= value <= 1.0:
            raise ConfigurationError(f"the confidence of link {link} must be in [0, 1], got {value!r}")


def link_marks(
    alignment: Alignment,
    gold: Alignment | None = None,
    *,
    links: str = "sure",
    confidence: Confidences | None = None,
) -> tuple[LinkMark, ...]:
    """The marks of `alignment` (and, with `gold`, of the gold links it missed), sorted by (i, j).

    `links` says which gold links count (``sure`` or ``sure+possible``), as for the scores.
    A missed link has the gold's kind and no confidence.
    """
    check_confidences(confidence)
    confidence = confidence or {}

    def kind(a: Alignment, link: Link) -> str:
        return SURE if link in a.sure else POSSIBLE

    if gold is None:
        return tuple(LinkMark(i, j, kind(alignment, (i, j)), None, confidence.get((i, j)))
                     for i, j in sorted(alignment.possible))
    expected = gold.links(links)
    marks = [
        LinkMark(i, j, kind(alignment, (i, j)), CORRECT if (i, j) in expected else WRONG, confidence.get((i, j)))
        for i, j in alignment.possible
    ]
    marks += [LinkMark(i, j, kind(gold, (i, j)), MISSED) for i, j in expected - alignment.possible]
    return tuple(sorted(marks, key=lambda m: (m.i, m.j)))


def status_counts(marks: Sequence[LinkMark]) -> dict[str, int]:
    """How many marks have each status (``correct``, ``missed``, ``wrong``), zeros included."""
    return {status: sum(1 for m in marks if m.status == status) for status in STATUSES}


def aligned_words(marks: Sequence[LinkMark]) -> tuple[set[int], set[int]]:
    """The source and target positions that a system link touches (missed links do not count)."""
    system = [m for m in marks if m.status != MISSED]
    return {m.i for m in system}, {m.j for m in system}


@dataclass(frozen=True, slots=True)
class AlignmentView:
    """An aligned pair as the pictures show it: tokens, alignment, optional gold (`links`: which
    gold links count, as for the scores) and confidences (link -> [0, 1]; default: the
    alignment's own, as the contextual aligner gives them), and the resulting `marks`. AlignmentIndexError when a link is outside the sentences."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: Alignment
    gold: Alignment | None = None
    links: str = "sure"
    confidence: Confidences | None = field(default=None, hash=False)
    marks: tuple[LinkMark, ...] = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", tuple(self.source))
        object.__setattr__(self, "target", tuple(self.target))
        self.alignment.validate(len(self.source), len(self.target))
        if self.gold is not None:
            self.gold.validate(len(self.source), len(self.target))
        if self.confidence is None and self.alignment.confidence:  # the aligner's own (contextual)
            object.__setattr__(self, "confidence", dict(self.alignment.confidence))
        marks = link_marks(self.alignment, self.gold, links=self.links, confidence=self.confidence)
        object.__setattr__(self, "marks", marks)

    @property
    def against_gold(self) -> bool:
        """Is the alignment shown against a gold alignment?"""
        return self.gold is not None

    def describe(self, mark: LinkMark) -> str:
        """A mark's tooltip (:meth:`LinkMark.describe` with these sentences)."""
        return mark.describe(self.source, self.target)

    @property
    def too_large(self) -> str:
        """How a picture too large to draw names the pair (:func:`.svg.check_side`'s `what`)."""
        return f"a pair of {len(self.source):,} and {len(self.target):,} words"


#: What a pair too large to picture can be written as instead (:func:`.svg.check_side`'s `instead`):
#: its links have no size limit.
TOO_LARGE_INSTEAD = ("write its links as text instead (`paralign align --format text`: Pharaoh links; "
                     "Alignment.to_pharaoh) or JSON (`--format json`, with the aligned words)")
