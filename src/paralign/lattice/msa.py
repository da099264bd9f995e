"""Progressive multiple-sequence-alignment lattice: the Barzilay & Lee (2002/2003) style baseline.

Sentences are added one at a time (most central first: ascending total word edit distance to the
others). Each new sentence is aligned to the current lattice by edit-distance DP over the lattice
(:meth:`Lattice.align`, substitutions cost 2 = a deletion plus an insertion, so only identical
words align); its aligned words reuse the lattice state they lead to, and the words between two
aligned words become a new branch between those states. No syntax and no keyword checking, so
different constituent orders produce the bad paths (repeated words) Pang et al. count.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import FormatError, InputTypeError, check_texts
from .edit_distance import PYTHON_DP_MAX_TOKENS
from .fsa import LatticeBuilder, chain
from .word_lattice import Lattice


def word_edit_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance over words. Two sentences both longer than
    :data:`.edit_distance.PYTHON_DP_MAX_TOKENS` words are measured as the distance from the
    longer to the one-path lattice of the shorter, the same table filled by numpy a row at a time
    (:meth:`.word_lattice.Lattice.distance`): in plain Python two sentences of 4,000 words took
    20 s (the MSA baseline's guide order and `lattice stats` measure every pair of a group), two of
    10,000 minutes."""
    if min(len(a), len(b)) > PYTHON_DP_MAX_TOKENS:
        shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
        return chain(shorter).distance(longer)
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def guide_order(sentences: Sequence[Sequence[str]]) -> list[int]:
    """Indices ordered by ascending total edit distance to the other sentences (ties: input order)."""
    n = len(sentences)
    totals = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            d = word_edit_distance(sentences[i], sentences[j])
            totals[i] += d
            totals[j] += d
    return sorted(range(n), key=lambda i: (totals[i], i))


def add_sentence(lattice: Lattice, tokens: Sequence[str]) -> Lattice:
    """The lattice with one more sentence aligned into it (the sentence is then a path)."""
    tokens = list(tokens)
    _, ops = lattice.align(tokens, sub_cost=2)
    anchors = [
        (op.token, lattice.edges[op.edge])
        for op in ops
        if op.edge is not None and op.token is not None and lattice.edges[op.edge][1] == tokens[op.token]
    ]
    if anchors and anchors[-1][1][2] == lattice.end and anchors[-1][0] != len(tokens) - 1:
        anchors.pop()  # words follow it: they would loop on the end state, so leave it unaligned
    builder = LatticeBuilder.from_lattice(lattice)
    current, pos = builder.start, 0
    for k, (i, (src, word, dst)) in enumerate(anchors):
        target = builder.end if k == len(anchors) - 1 and i == len(tokens) - 1 else dst
        gap = tokens[pos:i]  # unaligned words before the aligned word i
        if gap and current != src:
            builder.add_path(current, gap, src)  # a branch into the aligned edge's source
            builder.add_edge(src, word, target)
        else:
            builder.add_path(current, [*gap, tokens[i]], target)  # tokens[i]: the anchor's word
        current, pos = target, i + 1
    if pos < len(tokens) or current != builder.end:
        builder.add_path(current, tokens[pos:], builder.end)
    return builder.freeze()


def msa_lattice(sentences: Sequence[Sequence[str]]) -> Lattice:
    """The progressive-alignment lattice of tokenised sentences (one path per input at least);
    each sentence a list of words (InputTypeError for a str, which would be its characters)."""
    if isinstance(sentences, str):
        raise InputTypeError("msa_lattice takes a group of token lists, not one str")
    for k, tokens in enumerate(sentences, start=1):
        check_texts(tokens, f"sentence {k}")
    if not sentences:
        raise FormatError("msa_lattice needs at least one sentence")
    order = guide_order(sentences)
    lattice = chain(sentences[order[0]])
    for i in order[1:]:
        lattice = add_sentence(lattice, sentences[i])
    return lattice
