"""MultiMWA TSV (Lan et al. 2021): one pair a line, tab-separated, no header.

Columns: 0 id | 1 sentence1 | 2 "N/A" | 3 sentence2 | 4 "N/A" | 5 | 6 | 7 sure "i-j ..." |
8 possible "i-j ..." | trailing empties. Ids can repeat within a file (arXiv test): a repeated id
gets `#<line>` appended so that every pair has a distinct id.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..errors import FormatError
from .base import AlignedPair, BadPair, PairOrBad, make_pair, parse_dash_links, read_records, strict

#: The index of the field of a line's sure links, ``i-j ...`` (format detection looks at it too).
SURE_FIELD = 7
#: A line's fields up to its sure links.
MIN_FIELDS = SURE_FIELD + 1
#: The index of the field of its possible links (optional: a line may end before it).
POSSIBLE_FIELD = 8


def read_multimwa(path: str | Path, name: str | None = None) -> Iterator[PairOrBad]:
    """The pairs of a MultiMWA TSV file (blank lines skipped), a BadPair per bad line."""
    name = str(path) if name is None else name
    seen: set[str] = set()

    def parse(line: str, number: int) -> PairOrBad:
        fields = line.split("\t")
        pair_id = fields[0].strip() or str(number)
        if pair_id in seen:
            pair_id = f"{pair_id}#{number}"
        seen.add(pair_id)
        try:
            if len(fields) < MIN_FIELDS:
                raise FormatError(
                    f"expected at least {MIN_FIELDS} tab-separated fields, got {len(fields)}",
                    source=name, line=number,
                )
            sure = parse_dash_links(fields[SURE_FIELD], source=name, line=number, item=pair_id)
            possible = parse_dash_links(fields[POSSIBLE_FIELD] if len(fields) > POSSIBLE_FIELD else "", source=name,
                                        line=number, item=pair_id)
            return make_pair(pair_id, fields[1].split(), fields[3].split(), sure, possible,
                             path=name, line=number)
        except FormatError as exc:
            return BadPair(pair_id, exc)

    return read_records(path, name, parse)


def iter_multimwa(path: str | Path) -> Iterator[AlignedPair]:
    """Stream the pairs of a MultiMWA TSV file (blank lines skipped)."""
    return strict(read_multimwa(path))
