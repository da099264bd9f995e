"""GIZA-style alignment text (MSR RTE2 orig/ and converted/*.txt, baseline *.txt).

Per pair three lines: `# sentence pair N`, the source (TEXT) tokens, and the target (HYPOTHESIS)
tokens each followed by `({ idx ... / / })`, where idx are 1-BASED source positions, `pN` marks a
possible link and the first entry is NULL. Stray U+FEFF (at file start and glued to tokens) and
CRLF line ends are removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..alignment import Link
from ..errors import FormatError
from .base import AlignedPair, BadPair, PairOrBad, make_pair, read_lines, strict

_HEADER = re.compile(r"^#\s*sentence pair\s*\(?(\d+)\)?", re.IGNORECASE)
_INDEX = re.compile(r"^(p?)(\d+)$")


def parse_giza_target(text: str, *, path: str | None = None, line: int | None = None
                      ) -> tuple[list[str], set[Link], set[Link]]:
    """Parse a `NULL ({ }) tok ({ 1 p2 / / }) ...` line -> target tokens, sure, possible links."""
    parts = text.split()
    tokens: list[str] = []
    sure: set[Link] = set()
    possible: set[Link] = set()
    k, position = 0, -1  # position -1 is NULL
    while k < len(parts):
        word = parts[k]
        if k + 1 >= len(parts) or parts[k + 1] != "({":
            raise FormatError(f"expected '({{' after token {word!r} (token {position + 2})",
                              source=path, line=line)
        k += 2
        in_links = True
        while k < len(parts) and parts[k] != "})":
            item = parts[k]
            if item == "/":
                in_links = False
            elif in_links:
                match = _INDEX.match(item)
                if not match or int(match.group(2)) < 1:
                    raise FormatError(f"malformed link index {item!r} for token {word!r}",
                                      source=path, line=line)
                if position >= 0:
                    link = (int(match.group(2)) - 1, position)
                    (possible if match.group(1) else sure).add(link)
            k += 1
        if k >= len(parts):
            raise FormatError(f"unclosed '({{' after token {word!r}", source=path, line=line)
        k += 1
        if position == -1 and word != "NULL":
            raise FormatError(f"expected NULL as first entry, got {word!r}", source=path, line=line)
        if position >= 0:
            tokens.append(word)
        position += 1
    if position == -1:
        raise FormatError("empty alignment line (expected NULL ({ }) first)", source=path, line=line)
    return tokens, sure, possible


def read_giza(path: str | Path, name: str | None = None) -> Iterator[PairOrBad]:
    """The pairs of a GIZA-style file, a BadPair per pair with a bad line.

    Ids are the numbers in the `# sentence pair` lines. A bad header, or a pair cut short, is
    a FormatError: the three-line structure is lost there.
    """
    name = str(path) if name is None else name
    lines = read_lines(path, name)
    for number, header in lines:
        if isinstance(header, FormatError):
            raise header
        if not header.strip():
            continue
        match = _HEADER.match(header.strip())
        if not match:
            raise FormatError(f"expected '# sentence pair N', got {header[:60]!r}", source=name,
                              line=number)
        pair_id = match.group(1)
        try:
            _, source_line = next(lines)
            target_number, target_line = next(lines)
        except StopIteration:
            raise FormatError(f"pair {pair_id} is cut short (needs 3 lines)", source=name,
                              line=number) from None
        try:
            if isinstance(source_line, FormatError):
                raise source_line
            if isinstance(target_line, FormatError):
                raise target_line
            tokens, sure, possible = parse_giza_target(target_line, path=name, line=target_number)
            pair: PairOrBad = make_pair(pair_id, source_line.split(), tokens, sure, possible,
                                        path=name, line=number)
        except FormatError as exc:
            pair = BadPair(pair_id, exc)
        yield pair


def iter_giza(path: str | Path) -> Iterator[AlignedPair]:
    """Stream the pairs of a GIZA-style file; ids are the numbers in the `# sentence pair` lines."""
    return strict(read_giza(path))
