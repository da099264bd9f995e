"""Pharaoh alignment lines (`i-j` sure, `i?j`/`ipj` possible), one pair a line, no tokens.

Used for system outputs that are paired with a gold file by position, and for golds of links
only (bilingual gold standards; `p`/`?` marks possible links, or a second file of possible
links: `corpora.read_pairs`' `possible_path`), scored without sentence lengths to check. The
pairs carry empty token tuples; their ids are the line numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..alignment import Alignment
from ..errors import FormatError
from .base import AlignedPair, BadPair, LineRange, PairOrBad, read_records, strict


def read_pharaoh(path: str | Path, name: str | None = None, lines: LineRange | None = None) -> Iterator[PairOrBad]:
    """One AlignedPair per line (or per line of `lines`; an empty line is an empty alignment),
    a BadPair per bad line."""
    name = str(path) if name is None else name

    def parse(text: str, number: int) -> PairOrBad:
        try:
            alignment = Alignment.from_pharaoh(text.strip(), source=name, line=number)
        except FormatError as exc:
            return BadPair(str(number), exc)
        return AlignedPair(str(number), (), (), alignment, number)

    return read_records(path, name, parse, skip_blank=False, lines=lines)


def iter_pharaoh(path: str | Path) -> Iterator[AlignedPair]:
    """Stream one AlignedPair per line (an empty line is an empty alignment)."""
    return strict(read_pharaoh(path))
