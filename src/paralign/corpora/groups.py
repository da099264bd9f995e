"""Groups of equivalent sentences (multiple translations of one source), one group a line.

Two layouts are read: plain TSV (a group's sentences separated by tabs, optionally preceded by
nothing else) and the Bible TSV layout with a header `verse_id book chapter verse V1 V2 ...`,
where the group id is the verse id and the sentences are the version columns. A file of gold
alignments as JSON (jacana, as MTReference, or JSONL) is read as the groups of its pairs (see
:func:`is_alignment_json`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import FormatError
from ..textio import open_text, strip_bom

if TYPE_CHECKING:  # pragma: no cover
    from .base import BadPair

BIBLE_META_COLUMNS = ("verse_id", "book", "chapter", "verse")


@dataclass(frozen=True, slots=True)
class SentenceGroup:
    """Equivalent sentences with an id (verse id, or `line N` for plain TSV) and version names."""

    id: str
    sentences: tuple[str, ...]
    names: tuple[str, ...] = ()
    line: int = 0


#: How a JSON file of gold alignments starts: a jacana list of objects, or a JSONL object.
_ALIGNMENT_JSON = re.compile(r'\[\s*\{|\{\s*"')


def is_alignment_json(path: str | Path) -> bool:
    """True when `path` holds gold alignments as JSON (a jacana list of objects, or JSONL), told
    by its first characters (`[{` or `{"`, white space and a BOM aside), not by its name: a
    copy of stdin or an ``X.json.gz`` is one too, and a TSV line starting ``[Laughter]`` is not."""
    with open_text(path) as handle:
        head = strip_bom(handle.read(4096)).lstrip()
    return _ALIGNMENT_JSON.match(head) is not None


def alignment_groups(
    path: str | Path, skipped: list[tuple[int, BadPair]] | None = None,
) -> Iterator[tuple[str, list[tuple[str, ...]]]]:
    """The groups of a JSON file of gold alignments (MTReference: pairs of one source segment,
    ids ``<doc>.<segment>.<hit>``, grouped by the id without its last dot-field), in file order:
    (key, each distinct sentence's tokens, in order of appearance).

    A bad pair (a malformed link, a missing field) is a FormatError naming file and line, unless
    a `skipped` list is given: then it is left out and added to `skipped` with its position
    (1-based), and the other pairs are grouped, as a batch job needs (docs/CLI.md, Batches). A
    file of pairs that are all bad is still a FormatError, naming the first pair's reason."""
    from .alignments import load_groups, read_groups

    if skipped is None:
        groups = load_groups(path)
    else:
        groups, bad = read_groups(path)
        if bad and not groups:
            raise FormatError(f"no usable pairs in the groups file ({bad[0][1].reason})", source=str(path))
        skipped.extend(bad)
    for key, pairs in groups.items():
        yield key, list(dict.fromkeys(tuple(side) for pair in pairs for side in (pair.source, pair.target)))


def iter_groups(
    path: str | Path, *, skip_empty: bool = True, skipped: list[tuple[int, BadPair]] | None = None,
) -> Iterator[SentenceGroup]:
    """Stream the groups of a groups file (plain TSV or Bible TSV with header, or gold alignments
    as JSON: :func:`alignment_groups`, each sentence its tokens joined by spaces).

    Empty cells are dropped when `skip_empty`; a line with no sentence left yields nothing. A
    `skipped` list gets each bad pair of a JSON file, left out as :func:`alignment_groups`
    says; without one a bad pair stops the run.
    """
    if is_alignment_json(path):
        for key, sentences in alignment_groups(path, skipped):
            yield SentenceGroup(id=key, sentences=tuple(" ".join(tokens) for tokens in sentences))
        return
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
