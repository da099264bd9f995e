"""Groups of equivalent sentences (multiple translations of one source), one group a line.

Two layouts are read: plain TSV (a group's sentences separated by tabs, optionally preceded by
nothing else) and the Bible TSV layout with a header `verse_id book chapter verse V1 V2 ...`,
where the group id is the verse id and the sentences are the version columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..textio import open_text

BIBLE_META_COLUMNS = ("verse_id", "book", "chapter", "verse")


@dataclass(frozen=True, slots=True)
class SentenceGroup:
    """Equivalent sentences with an id (verse id, or `line N` for plain TSV) and version names."""

    id: str
    sentences: tuple[str, ...]
    names: tuple[str, ...] = ()
    line: int = 0


def iter_groups(path: str | Path, *, skip_empty: bool = True) -> Iterator[SentenceGroup]:
    """Stream the groups of a groups file (plain TSV or Bible TSV with header).

    Empty cells are dropped when `skip_empty`; a line with no sentence left yields nothing.
    """
    with open_text(path) as handle:
        header: list[str] | None = None
        for number, raw in enumerate(handle, start=1):
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if not line.strip():
                continue
            fields = line.split("\t")
            if number == 1 and tuple(f.strip().lower() for f in fields[:1]) == ("verse_id",):
                header = fields
                continue
            if header is not None:
                meta = len([c for c in header if c.lower() in BIBLE_META_COLUMNS])
                group_id = fields[0]
                cells = fields[meta:]
                names = tuple(header[meta:])
            else:
                group_id = f"line {number}"
                cells = fields
                names = ()
            pairs = [(n, s.strip()) for n, s in zip(names or [""] * len(cells), cells, strict=False)]
            if skip_empty:
                pairs = [(n, s) for n, s in pairs if s]
            if not pairs:
                continue
            yield SentenceGroup(
                id=group_id,
                sentences=tuple(s for _, s in pairs),
                names=tuple(n for n, _ in pairs) if names else (),
                line=number,
            )
