"""The value every alignment-corpus loader yields, and helpers shared by the loaders."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..alignment import Alignment, Link
from ..errors import AlignmentIndexError, FormatError

_LINK = re.compile(r"^(\d+)-(\d+)$")


@dataclass(frozen=True, slots=True)
class AlignedPair:
    """A sentence pair with its word alignment (0-based links into the token tuples).

    `line` (where the pair starts in its file, 1-based; 0 when unknown) is for error messages
    and does not take part in equality.
    """

    id: str
    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: Alignment
    line: int = field(default=0, compare=False)

    @property
    def sure(self) -> frozenset[Link]:
        return self.alignment.sure

    @property
    def possible(self) -> frozenset[Link]:
        """Sure and possible links (possible ⊇ sure)."""
        return self.alignment.possible


def parse_dash_links(text: str, *, source: str | None = None, line: int | None = None,
                     item: str | None = None) -> frozenset[Link]:
    """Parse jacana/MultiMWA link strings `i-j i-j ...` (0-based); `item` names the pair in errors."""
    links: set[Link] = set()
    for part in text.split():
        match = _LINK.match(part)
        if not match:
            what = f" in pair {item!r}" if item is not None else ""
            raise FormatError(f"malformed link {part!r}{what} (expected i-j)", source=source, line=line)
        links.add((int(match.group(1)), int(match.group(2))))
    return frozenset(links)


def make_pair(pair_id: str, source_tokens: Iterable[str], target_tokens: Iterable[str],
              sure: Iterable[Link], possible: Iterable[Link], *, path: str | None = None,
              line: int = 0) -> AlignedPair:
    """Build an AlignedPair and check every link lies inside both sentences."""
    src, tgt = tuple(source_tokens), tuple(target_tokens)
    alignment = Alignment(frozenset(sure), frozenset(possible))
    check_links(alignment, len(src), len(tgt), pair_id=pair_id, path=path, line=line)
    return AlignedPair(pair_id, src, tgt, alignment, line)


def check_links(alignment: Alignment, source_length: int, target_length: int, *, pair_id: str,
                path: str | None, line: int | None) -> None:
    """Raise AlignmentIndexError naming file, line and pair when a link leaves a sentence."""
    for i, j in sorted(alignment.possible):
        if not (0 <= i < source_length and 0 <= j < target_length):
            raise AlignmentIndexError(
                f"pair {pair_id!r}: link {i}-{j} outside sentences of {source_length} and "
                f"{target_length} tokens",
                source=path,
                line=line or None,
            )
