"""The graded scorer's word-level helpers: the key tiers (identical words, stems), the reference
positions they look up, and the test whether a matched word continues its chunk.

Functions over the alignment state of :meth:`.graded.GradedParaEval._align_list` (the lists of
matched positions, tiers and grades of both sides), moved out of :mod:`.graded` to keep it short.

Not for: the phrase tiers or the contextual tier (they need the scorer's lookups: :mod:`.graded`).
"""

from __future__ import annotations

from collections.abc import Sequence

#: The alignment state the tiers fill, per word of the hypothesis (h) and the reference (r): the
#: matched position on the other side (-1: none; `ah`, `ar`), the tier's code (`th`, `tr`), the
#: grade (`gh`, `gr`), and the phrase matches of n words to m != n words (see `_continues`).
TierState = tuple[list[int], list[int], list[int], list[int], list[float], list[float],
                  dict[int, tuple[int, int]]]


def _continues(i: int, ah: Sequence[int], phrases: dict[int, tuple[int, int]]) -> bool:
    """Whether matched hypothesis word `i` continues the chunk of word ``i - 1`` (matched too):
    both are in one phrase match, or `i`'s reference word follows ``i - 1``'s match in the
    reference. A phrase match of n words to m != n words (`phrases`: each of its hypothesis
    words -> the match's first word and the reference position after its span) is one run, as
    METEOR counts a phrase match; n == m matches map word to word, as single words do."""
    here, before = phrases.get(i), phrases.get(i - 1)
    if here is not None and before is not None and here[0] == before[0]:
        return True
    return ah[i] == (before[1] if before is not None else ah[i - 1] + 1)


def _positions(keys: Sequence[str]) -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for j, k in enumerate(keys):
        out.setdefault(k, []).append(j)
    return {k: tuple(v) for k, v in out.items()}


def _key_tier(hk: Sequence[str], places: dict[str, tuple[int, ...]], nr: int, code: int,
              state: TierState, links: list | None = None) -> None:
    """Match free words by equal keys (tokens or stems, `places`: the reference's positions of
    each), continuing chunks where possible, else nearest the word's relative position."""
    ah, ar, th, tr, gh, gr, _ = state
    scale = nr / len(hk) if hk else 0.0
    for i, k in enumerate(hk):
        if ah[i] >= 0:
            continue
        cands = places.get(k)
        if cands is None:
            continue
        if len(cands) == 1:
            j = cands[0]
            if ar[j] >= 0:
                continue
        else:
            free = [c for c in cands if ar[c] < 0]
            if not free:
                continue
            prev = ah[i - 1] + 1 if i and ah[i - 1] >= 0 else -1
            j = prev if prev in free else min(free, key=lambda c: abs(c - i * scale))
        ah[i], ar[j], th[i], tr[j], gh[i], gr[j] = j, i, code, code, 1.0, 1.0
        if links is not None:
            links.append((code, i, 1, j, 1, 1.0))
