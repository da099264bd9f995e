"""Consistent phrase pairs from a word alignment (Och & Ney 2004; ParaMetric's PP).

A span pair ([s1, s2), [t1, t2)) is *consistent* with a set of links when it contains at least
one link and no link leaves it: every link with its source end inside [s1, s2) has its target end
inside [t1, t2) and vice versa.  This is exactly the PP set of Callison-Burch et al. (2008),
which includes spans that start or end with unaligned words on either side.  The extraction
follows Koehn's standard algorithm: every source span is enumerated (so unaligned source words at
its edges come for free), the tight target span is the min/max of the targets linked to it, and
that span is then extended over the unaligned target words at its edges (every combination,
within `max_length`).  Unaligned words *inside* a span are allowed, as in the definition.

Cost: O(|source| · max_length · (max_length + extensions)) after an O(|links|) pass; no loop
over all span pairs times all links.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .alignment import (
    LINK_SETS as LINK_SETS,  # the link sets phrase extraction takes, named here too
)
from .alignment import MAX_PHRASE_LENGTH, Alignment, Link, check_link_set
from .errors import AlignmentIndexError, check_count, check_texts

Span = tuple[int, int]
SpanPair = tuple[int, int, int, int]  # s1, s2, t1, t2 with [s1, s2) and [t1, t2)


@dataclass(frozen=True, slots=True)
class PhrasePair:
    """Two aligned spans ([start, end) token offsets) and their texts (tokens joined by spaces).

    `length` is the word count of the LONGER side; ParaMetric's by-length breakdown
    ("Length <= n") counts a pair under n when `length <= n`, i.e. when both sides fit.
    """

    source_span: Span
    target_span: Span
    source_text: str
    target_text: str

    @property
    def source_length(self) -> int:
        """Number of source tokens in the pair."""
        return self.source_span[1] - self.source_span[0]

    @property
    def target_length(self) -> int:
        """Number of target tokens in the pair."""
        return self.target_span[1] - self.target_span[0]

    @property
    def length(self) -> int:
        """Words on the longer side (the length used for ParaMetric's by-length breakdown)."""
        return max(self.source_length, self.target_length)

    @property
    def spans(self) -> SpanPair:
        """(source start, source end, target start, target end), the ends exclusive."""
        return (*self.source_span, *self.target_span)


def _link_set(alignment_or_links: Alignment | Iterable[Link], links: str) -> frozenset[Link]:
    """The links of `links` (one of :data:`LINK_SETS`) in an alignment; a bare set of links is
    all sure. An unknown name is a ConfigurationError listing every accepted one, from
    :data:`LINK_SETS` (it named two of the three)."""
    check_link_set(links)
    if isinstance(alignment_or_links, Alignment):
        return alignment_or_links.links(links)
    return Alignment.from_links(alignment_or_links).sure  # checked: not Pharaoh text, None, (-1, 0)


def phrase_spans(
    alignment_or_links: Alignment | Iterable[Link],
    source_length: int,
    target_length: int,
    max_length: int = MAX_PHRASE_LENGTH,
    *,
    links: str = "sure",
    tight: bool = False,
) -> list[SpanPair]:
    """All consistent span pairs `(s1, s2, t1, t2)` ([s1, s2), [t1, t2)), both sides <= max_length.

    The fast variant of `phrase_pairs` (no texts), for large corpora.  For an `Alignment`,
    `links` chooses the link set ("sure" or "sure+possible"); a plain link iterable is used as is.
    `tight=True` keeps only the pairs whose four edge words are aligned (no extension over
    unaligned words; a diagnostic, not the PP definition).
    Raises AlignmentIndexError for a link outside the sentences.
    """
    check_count(max_length, "max_length")  # 2.5 was taken, NaN a TypeError from range()
    link_set = _link_set(alignment_or_links, links)
    # Per source position: min/max linked target; per target position: min/max linked source.
    src_min = [target_length] * source_length
    src_max = [-1] * source_length
    tgt_min = [source_length] * target_length
    tgt_max = [-1] * target_length
    for i, j in link_set:
        if not (0 <= i < source_length and 0 <= j < target_length):
            raise AlignmentIndexError(
                f"link {i}-{j} outside sentences of {source_length} and {target_length} tokens"
            )
        src_min[i] = min(src_min[i], j)
        src_max[i] = max(src_max[i], j)
        tgt_min[j] = min(tgt_min[j], i)
        tgt_max[j] = max(tgt_max[j], i)
    out: list[SpanPair] = []
    for s1 in range(source_length):
        lo, hi = target_length, -1
        for s2 in range(s1, min(s1 + max_length, source_length)):
            if src_max[s2] >= 0:
                lo = min(lo, src_min[s2])
                hi = max(hi, src_max[s2])
            if hi < 0:
                continue  # no link yet
            if tight and (src_max[s1] < 0 or src_max[s2] < 0):
                continue
            if hi - lo + 1 > max_length:
                break  # the tight target span only grows with s2
            # Consistency: no target word in [lo, hi] links outside [s1, s2] (unaligned target
            # words have tgt_min = source_length and tgt_max = -1, so they never fail).
            if min(tgt_min[lo : hi + 1]) < s1 or max(tgt_max[lo : hi + 1]) > s2:
                continue
            if tight:
                out.append((s1, s2 + 1, lo, hi + 1))
                continue
            # Extend over unaligned target words at both edges.
            t1 = lo
            while t1 >= 0 and (t1 == lo or tgt_max[t1] < 0) and hi - t1 + 1 <= max_length:
                t2 = hi
                while t2 < target_length and (t2 == hi or tgt_max[t2] < 0) and t2 - t1 + 1 <= max_length:
                    out.append((s1, s2 + 1, t1, t2 + 1))
                    t2 += 1
                t1 -= 1
    return out


def phrase_pairs(
    alignment_or_links: Alignment | Iterable[Link],
    source_tokens: Sequence[str],
    target_tokens: Sequence[str],
    max_length: int = MAX_PHRASE_LENGTH,
    include_identical: bool = False,
    *,
    links: str = "sure",
    tight: bool = False,
) -> list[PhrasePair]:
    """Consistent phrase pairs with their texts, sorted by spans.

    `include_identical=False` (ParaMetric's constraint) drops pairs whose two texts are equal
    ignoring case.  See `phrase_spans` for `links`, `tight` and the extraction rule.
    The tokens are lists of str (InputTypeError for one str, whose characters would be the tokens).
    """
    check_texts(source_tokens, "source_tokens")
    check_texts(target_tokens, "target_tokens")
    out: list[PhrasePair] = []
    for s1, s2, t1, t2 in sorted(
        phrase_spans(alignment_or_links, len(source_tokens), len(target_tokens), max_length,
                     links=links, tight=tight)
    ):
        src = " ".join(source_tokens[s1:s2])
        tgt = " ".join(target_tokens[t1:t2])
        if not include_identical and src.lower() == tgt.lower():
            continue
        out.append(PhrasePair((s1, s2), (t1, t2), src, tgt))
    return out
