"""Long sentences in overlapping model windows, never truncated: where the windows fall
(`windows`) and which window each sub-word takes its vector from (`assign_windows`: the one in
which its word is most central, farthest from a cut edge).

Not for: running the model over the windows (:mod:`.encoder`).
"""

from __future__ import annotations

from collections.abc import Sequence


def windows(length: int, width: int, step: int) -> list[tuple[int, int]]:
    """Windows [start, end) of at most `width` over `length` positions, `step` apart, the last
    one ending at `length` (a single window when everything fits). A `step` wider than `width`
    counts as `width` (windows side by side): wider, it left positions in no window."""
    if length <= width:
        return [(0, length)]
    starts = list(range(0, length - width, min(step, width))) + [length - width]
    return [(start, start + width) for start in starts]


def _centrality(position: float, window: tuple[int, int], length: int) -> float:
    """Distance from `position` to the nearest cut edge of `window` (a sentence edge is no cut)."""
    start, end = window
    left = position - start if start > 0 else float("inf")
    right = end - 1 - position if end < length else float("inf")
    return min(left, right)


def assign_windows(word_of: Sequence[int], spans: list[tuple[int, int]]) -> list[int]:
    """The window of each sub-word: the window, among those holding its whole word, where the
    word's centre is most central; a sub-word whose word fits in no window takes its own."""
    length = len(word_of)
    if len(spans) == 1:
        return [0] * length
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for position, word in enumerate(word_of):
        first.setdefault(word, position)
        last[word] = position
    chosen: list[int] = []
    for position, word in enumerate(word_of):
        lo, hi = first[word], last[word]
        holding = [k for k, (s, e) in enumerate(spans) if s <= lo and hi < e]
        centre = (lo + hi) / 2 if holding else float(position)
        candidates = holding or [k for k, (s, e) in enumerate(spans) if s <= position < e]
        chosen.append(max(candidates, key=lambda k: (_centrality(centre, spans[k], length), -k)))
    return chosen
