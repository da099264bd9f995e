"""Pharaoh alignment lines (`i-j` sure, `i?j`/`ipj` possible), one pair a line, no tokens.

Used for system outputs that are paired with a gold file by position. The pairs carry empty
token tuples; their ids are the line numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..alignment import Alignment
from ..paraphrases import open_text
from .base import AlignedPair


def iter_pharaoh(path: str | Path) -> Iterator[AlignedPair]:
    """Stream one AlignedPair per line (an empty line is an empty alignment)."""
    name = str(path)
    with open_text(path) as handle:
        for number, raw in enumerate(handle, start=1):
            text = raw.replace("\ufeff", "").strip()
            alignment = Alignment.from_pharaoh(text, source=name, line=number)
            yield AlignedPair(str(number), (), (), alignment, number)
