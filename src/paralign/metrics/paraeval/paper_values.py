"""What the paper's ParaEval scorer (:mod:`.paper`) gives, as frozen values: one segment's
sufficient statistics (:class:`SegmentStats`, summed into a corpus's by :func:`sum_stats`), a
score with its signature (:class:`ParaEvalScore`), and how each hypothesis token matched
(:class:`MatchedSpan` in a tier of :data:`TIERS`, :class:`SegmentMatch`), which the HTML report
and the web app draw.

Not for: matching or scoring (:mod:`.paper`); the graded scorer's statistics
(:mod:`.graded_stats`, :mod:`.explained`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Final, Literal

from .. import f_measure
from .configs import Tier


@dataclass(frozen=True, slots=True)
class SegmentStats:
    """Sufficient statistics of one segment (or, summed, of a corpus)."""

    hyp_words: int = 0
    hyp_matched: int = 0
    ref_words: int = 0  # summed over the references
    ref_matched: int = 0  # summed over the references
    hyp_paraphrase: int = 0  # hypothesis words matched in the paraphrase tier
    segments: int = 1

    def __add__(self, other: SegmentStats) -> SegmentStats:
        return SegmentStats(
            self.hyp_words + other.hyp_words, self.hyp_matched + other.hyp_matched,
            self.ref_words + other.ref_words, self.ref_matched + other.ref_matched,
            self.hyp_paraphrase + other.hyp_paraphrase, self.segments + other.segments,
        )

    def as_tuple(self) -> tuple[int, int, int, int, int]:
        """(hyp_words, hyp_matched, ref_words, ref_matched, hyp_paraphrase) for numpy arrays."""
        return (self.hyp_words, self.hyp_matched, self.ref_words, self.ref_matched,
                self.hyp_paraphrase)

    @property
    def precision(self) -> float:
        """Matched over hypothesis words; 0 for an empty hypothesis (it matches nothing)."""
        return self.hyp_matched / self.hyp_words if self.hyp_words else 0.0

    @property
    def recall(self) -> float | None:
        return self.ref_matched / self.ref_words if self.ref_words else None

    @property
    def f(self) -> float | None:
        return f_measure(self.precision, self.recall)


def sum_stats(stats: Iterable[SegmentStats]) -> SegmentStats:
    """Corpus statistics: the sum of the segments'."""
    total = SegmentStats(segments=0)
    for item in stats:
        total = total + item
    return total


@dataclass(frozen=True, slots=True)
class ParaEvalScore:
    """A segment or corpus score with its settings signature."""

    stats: SegmentStats
    signature: str

    @property
    def precision(self) -> float:
        return self.stats.precision

    @property
    def recall(self) -> float | None:
        return self.stats.recall

    @property
    def f(self) -> float | None:
        return self.stats.f

    def to_dict(self) -> dict[str, object]:
        return {"precision": self.precision, "recall": self.recall, "f": self.f,
                "signature": self.signature, "counts": asdict(self.stats)}

    def __repr__(self) -> str:  # the scores first, then what they come from
        return (f"ParaEvalScore(precision={self.precision!r}, recall={self.recall!r}, f={self.f!r}, "
                f"stats={self.stats!r}, signature={self.signature!r})")


#: How a hypothesis token matched (:meth:`.paper.ParaEval.matched_spans`): in the paraphrase tier, a
#: phrase of more than one word on either side (paraphrase) or one word for one word (synonym);
#: by identity in the unigram tier (exact); or not at all (unmatched).
PARAPHRASE: Final = "paraphrase"
SYNONYM: Final = "synonym"
EXACT: Final = "exact"
UNMATCHED: Final = "unmatched"
TIERS = (PARAPHRASE, EXACT, SYNONYM, UNMATCHED)
#: A span's tier: the paper scorer's (above) or a graded scorer's (:data:`.configs.Tier`), or unmatched.
SpanTier = Literal[Tier, "unmatched"]


@dataclass(frozen=True, slots=True)
class MatchedSpan:
    """Hypothesis tokens ``start:end`` and their tier; `matched` the reference phrases a
    paraphrase-tier span consumed (one per reference that had one)."""

    start: int
    end: int
    tier: SpanTier
    matched: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SegmentMatch:
    """A hypothesis as matched: its tokens (as compared), spans covering them in order, stats."""

    tokens: tuple[str, ...]
    spans: tuple[MatchedSpan, ...]
    stats: SegmentStats
