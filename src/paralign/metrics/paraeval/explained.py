"""What the graded scorer matched in one segment, as frozen values
(:meth:`paralign.metrics.paraeval.graded.GradedParaEval.explain`).

A :class:`GradedExplanation` is made from the very alignment that gives the segment's statistics
row (the scorer records its matches while it computes the row), so it cannot disagree with the
score: each :class:`TierMatch` holds the hypothesis and reference words of one match, its tier,
grade (a scored table pair's probability, a contextual match's cosine, else 1) and the config's
weight for that tier; summing the grades of the matched words per tier and side gives the row's
columns, and the chunks are those the fragmentation penalty counts.

Not for: matching or scoring (:mod:`.graded`), or drawing (:mod:`paralign.viz.reports.paraeval`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .configs import Tier
from .paper_values import UNMATCHED, MatchedSpan


@dataclass(frozen=True, slots=True)
class TierMatch:
    """Hypothesis tokens ``hyp_start:hyp_end`` matched reference tokens ``ref_start:ref_end`` in
    `tier` (exact, stem, synonym, paraphrase or contextual). Every word of the match counts
    `grade` in the statistics (unweighted); the score multiplies it by `weight` (the config's
    weight of the tier) and by delta or 1 - delta (content or function word)."""

    tier: Tier
    hyp_start: int
    hyp_end: int
    ref_start: int
    ref_end: int
    grade: float
    weight: float


@dataclass(frozen=True, slots=True)
class GradedExplanation:
    """One segment as the graded scorer matched it.

    `tokens` and `content` are the hypothesis words as compared (lower-cased 13a tokens) and
    whether each is a content word; `reference` is the number (from 0) of the reference the
    segment is scored against (the best of several, as the score takes it), with its words in
    `reference_tokens` and `reference_content`; `reference_scores` the segment's score against
    each reference. `matches` are in hypothesis order; `chunks` are the hypothesis spans
    ``(start, end)`` of the runs of matched words that are also runs in the reference, which
    the fragmentation penalty counts. `counts` is the segment's statistics row by column name
    (:data:`paralign.metrics.paraeval.graded.COLUMNS`), exactly the row ``segment_stats`` gives;
    the scores are its segment-level scores under `config`.
    """

    config: str
    tokens: tuple[str, ...]
    content: tuple[bool, ...]
    reference: int
    reference_tokens: tuple[str, ...]
    reference_content: tuple[bool, ...]
    matches: tuple[TierMatch, ...]
    chunks: tuple[tuple[int, int], ...]
    counts: tuple[tuple[str, float], ...]
    reference_scores: tuple[float, ...]
    precision: float
    recall: float
    f: float
    fmean: float
    penalty: float
    score: float

    @property
    def stats(self) -> tuple[float, ...]:
        """The statistics row (the values of `counts`, in column order)."""
        return tuple(value for _, value in self.counts)

    @property
    def spans(self) -> tuple[MatchedSpan, ...]:
        """The hypothesis covered in order: a span per match (its tier, and the reference words
        it matched), one ``unmatched`` span per word left (as the paper scorer's spans)."""
        return _cover(len(self.tokens), [(m.hyp_start, m.hyp_end, m.tier, m.ref_start, m.ref_end)
                                         for m in self.matches], self.reference_tokens)

    @property
    def reference_spans(self) -> tuple[MatchedSpan, ...]:
        """The same for the reference scored against (the hypothesis words each span matched)."""
        return _cover(len(self.reference_tokens), [(m.ref_start, m.ref_end, m.tier, m.hyp_start, m.hyp_end)
                                                   for m in self.matches], self.tokens)


def _cover(length: int, parts: list[tuple[int, int, Tier, int, int]],
           other: tuple[str, ...]) -> tuple[MatchedSpan, ...]:
    """Spans covering ``range(length)``: each part ``(start, end, tier, other_start, other_end)``
    with the words of `other` it matched, and the positions no part covers as unmatched."""
    spans = [MatchedSpan(s, e, tier, (" ".join(other[a:b]),)) for s, e, tier, a, b in parts]
    covered = {i for s, e, *_ in parts for i in range(s, e)}
    spans += [MatchedSpan(i, i + 1, UNMATCHED) for i in range(length) if i not in covered]
    return tuple(sorted(spans, key=lambda span: span.start))


__all__ = ["GradedExplanation", "TierMatch"]
