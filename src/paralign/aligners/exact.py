"""The exact-match baseline aligner: identical lower-cased tokens, one-to-one, left to right.

Not for: real alignment (no context, no paraphrases); it is the floor the Sultan aligner is
measured against.
"""

from __future__ import annotations

from ..alignment import Alignment
from ..sentence import Sentence


def exact_match_aligner(source: Sentence, target: Sentence) -> Alignment:
    """Baseline: link identical lower-cased tokens one-to-one, left to right (no context)."""
    free: dict[str, list[int]] = {}
    for j, tok in enumerate(target.tokens):
        free.setdefault(tok.lower(), []).append(j)
    links = []
    for i, tok in enumerate(source.tokens):
        slots = free.get(tok.lower())
        if slots:
            links.append((i, slots.pop(0)))
    return Alignment.from_links(links)
