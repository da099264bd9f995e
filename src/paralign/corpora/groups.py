"""Groups of equivalent sentences (multiple translations of one source), one group a line.

Two layouts are read: plain TSV (a group's sentences separated by tabs, optionally preceded by
nothing else) and the Bible TSV layout with a header `verse_id book chapter verse V1 V2 ...`,
where the group id is the verse id and the sentences are the version columns. A file of gold
alignments as JSON (jacana, as MTReference, or JSONL) is read as the groups of its pairs (see
:func:`is_alignment_json`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import FormatError
from ..table_writer import METADATA_LINE
from ..textio import open_text, strip_bom

if TYPE_CHECKING:  # pragma: no cover
    from .base import AlignedPair, BadPair

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
    copy of stdin or a ``FILE.json.gz`` is one too, and a TSV line starting ``[Laughter]`` is not."""
    with open_text(path) as handle:
        head = strip_bom(handle.read(4096)).lstrip()
    return _ALIGNMENT_JSON.match(head) is not None


def alignment_groups(
    path: str | Path, skipped: list[tuple[int, BadPair]] | None = None, *, as_reached: bool = False,
) -> Iterator[tuple[str, list[tuple[str, ...]]]]:
    """The groups of a JSON file of gold alignments (MTReference: pairs of one source segment,
    ids ``<doc>.<segment>.<hit>``, grouped by the id without its last dot-field), in file order:
    (key, each distinct sentence's tokens, in order of appearance).

    A bad pair (a malformed link, a missing field) is a FormatError naming file and line, unless
    a `skipped` list is given: then it is left out and added to `skipped` with its position
    (1-based), and the other pairs are grouped, as a batch job needs (docs/CLI.md, Batches). A
    file of pairs that are all bad is still a FormatError, naming the first pair's reason.

    The bad pairs are all added when the first group is asked for, unless `as_reached`: then
    each is added as the reading reaches it, so a reader that takes the first N groups only
    (``paraphrase-table --max-groups N``) is told of theirs only. A bad pair belongs to the
    group of its id (a pair without one is known by its place in the file: a group of its own); groups come in the order of
    their first good pair, as without it; a group's bad pairs are added just before it is
    yielded, with those of the groups of bad pairs only that begin before its first good pair
    (passed over: they yield nothing), and the last group with those after it, so that reading
    N groups of a file of N or fewer reports what reading them all does."""
    from .alignments import load_groups, read_groups

    if skipped is None:
        groups = load_groups(path)
    elif as_reached:
        yield from _groups_as_reached(path, skipped)
        return
    else:
        groups, bad = read_groups(path)
        if bad and not groups:
            raise FormatError(f"no usable pairs in the groups file ({bad[0][1].reason})", source=str(path))
        skipped.extend(bad)
    for key, pairs in groups.items():
        yield key, _distinct_sentences(pairs)


def _distinct_sentences(pairs: list[AlignedPair]) -> list[tuple[str, ...]]:
    """Each distinct sentence (its tokens) of a group's pairs, in order of appearance."""
    return list(dict.fromkeys(tuple(side) for pair in pairs for side in (pair.source, pair.target)))


def _groups_as_reached(
    path: str | Path, skipped: list[tuple[int, BadPair]],
) -> Iterator[tuple[str, list[tuple[str, ...]]]]:
    """:func:`alignment_groups` with `as_reached`: the groups of the good pairs in the order of
    their first good pair (as without it, so the first N are the same groups), each group's bad
    pairs (with their 1-based positions) added to `skipped` just before it is yielded, with those
    of the groups of bad pairs only that begin before its first good pair."""
    from .alignments import group_key, read_pairs
    from .base import BadPair

    items = read_pairs(path)
    good: dict[str, list[AlignedPair]] = {}  # in the order of each group's first good pair
    bad: dict[str, list[tuple[int, BadPair]]] = {}
    first_good: dict[str, int] = {}
    for number, item in enumerate(items, start=1):
        key = group_key(item.id)
        if isinstance(item, BadPair):
            bad.setdefault(key, []).append((number, item))
        else:
            good.setdefault(key, []).append(item)
            first_good.setdefault(key, number)
    if items and not good:
        first = next(item for item in items if isinstance(item, BadPair))
        raise FormatError(f"no usable pairs in the groups file ({first.reason})", source=str(path))
    bad_only = sorted((found[0][0], key) for key, found in bad.items() if key not in good)  # by where they begin
    keys = list(good)
    for index, key in enumerate(keys):
        reached = list(bad.get(key, ()))
        while bad_only and (index == len(keys) - 1 or bad_only[0][0] < first_good[key]):
            reached += bad[bad_only.pop(0)[1]]  # passed over before this group (or after the last)
        skipped.extend(sorted(reached, key=lambda found: found[0]))
        yield key, _distinct_sentences(good[key])


def _field_lines(handle: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """(1-based number, tab-separated cells) of each line of a groups file that is not blank,
    its line end and the byte-order marks it starts with off (:func:`~paralign.textio.strip_bom`;
    a line holding only a mark is blank); CRLF and a lone CR were read already
    (:mod:`paralign.line_ends`). The one reading of :func:`refuse_pair_files`' sample and of
    :func:`iter_groups`, so both see the same lines."""
    for number, raw in enumerate(handle, start=1):
        line = strip_bom(raw.rstrip("\n"))
        if line.strip():
            yield number, line.split("\t")


#: How many lines that are not blank :func:`refuse_pair_files` looks at.
PAIR_FILE_SAMPLE = 50


def refuse_pair_files(path: str | Path) -> None:
    """FormatError, naming `path`, for a file of labelled or scored sentence pairs given as
    groups: MSRP (its header, or most sampled rows an MSRP row) or STS (most rows a score and
    two sentences, or the STS Benchmark's seven fields with the score fifth). Read as groups,
    every cell of a row was a sentence: MSRP's label and two ids, STS's score, and pairs that
    are no paraphrases (MSRP's label 0, STS's low scores) were paraphrase groups. So is a TSV
    paraphrase table told by its header or record (``lattice paraphrases``' output given back as
    its --groups: a table of ``# phrase`` -> ``paraphrase`` and ``"`` -> ``1.0``, exit 0)."""
    from ..paraphrase_table import TSV_HEADER
    from .sts import is_msrp_header, most_rows_msrp, parse_score

    with open_text(path) as handle:
        rows = [fields for _, fields in itertools.islice(_field_lines(handle), PAIR_FILE_SAMPLE)]
    if not rows:
        return
    if rows[0][:2] == TSV_HEADER.rstrip("\n").split("\t")[:2] or any(row[0].startswith(METADATA_LINE) for row in rows[:3]):
        raise FormatError(
            "a paraphrase table (its '# phrase TAB paraphrase ...' header, or the '# paralign:' record of one "
            "paralign wrote), not a groups file: its header, phrases, paraphrases and scores would be sentences; "
            "paralign paraphrases --table reads a table, and --groups takes equivalent sentences, one group a line",
            source=str(path))
    header = is_msrp_header(rows[0])
    if header or most_rows_msrp(rows):
        raise FormatError(
            "an MSRP paraphrase file (" + ("its first line is the 'Quality' header" if header else
                                           "a 0/1 label and two ids before the sentences")
            + "), not a groups file: its labels and ids would be sentences, and its pairs labelled 0 (no "
            "paraphrases) groups of equivalent sentences; to use its paraphrases, keep the label-1 pairs: "
            "awk -F'\\t' '$1 == 1 {print $4 \"\\t\" $5}' FILE > groups.tsv", source=str(path))
    scored = sum((len(row) == 3 and parse_score(row[0]) is not None)
                 or (len(row) >= 7 and row[3].strip().isdigit() and parse_score(row[4]) is not None) for row in rows)
    if scored * 2 > len(rows):
        raise FormatError(
            "an STS file (a similarity score and two sentences a row), not a groups file: its scores would be "
            "sentences, and pairs of any score, 0 (unrelated) included, groups of equivalent sentences; give "
            "a file of equivalent sentences, one group a line", source=str(path))


def iter_groups(
    path: str | Path, *, skip_empty: bool = True, skipped: list[tuple[int, BadPair]] | None = None,
    as_reached: bool = False,
) -> Iterator[SentenceGroup]:
    """Stream the groups of a groups file (plain TSV or Bible TSV with header, or gold alignments
    as JSON: :func:`alignment_groups`, each sentence its tokens joined by spaces).

    Empty cells are dropped when `skip_empty`; a line with no sentence left yields nothing. A
    Bible line with more sentences than its header names versions is a FormatError naming it
    (its cells no longer match the names: a tab inside a sentence). A
    `skipped` list gets each bad pair of a JSON file, left out as :func:`alignment_groups`
    says (all at the first group, or with `as_reached` as the reading reaches them); without
    one a bad pair stops the run.
    """
    if is_alignment_json(path):
        for key, sentences in alignment_groups(path, skipped, as_reached=as_reached):
            yield SentenceGroup(id=key, sentences=tuple(" ".join(tokens) for tokens in sentences))
        return
    refuse_pair_files(path)
    with open_text(path) as handle:
        header: list[str] | None = None
        first = True  # the first line that is not blank: the Bible header, if any, after blank lines too
        for number, fields in _field_lines(handle):
            if first and tuple(f.strip().lower() for f in fields[:1]) == ("verse_id",):
                first, header = False, fields
                continue
            first = False
            if header is not None:
                meta = len([c for c in header if c.lower() in BIBLE_META_COLUMNS])
                group_id = fields[0]
                cells = fields[meta:]
                names = tuple(header[meta:])
                if any(cell.strip() for cell in cells[len(names):]):  # zip would drop them, and shift no name back
                    raise FormatError(f"{len(cells)} sentence cells, but the header names {len(names)} versions "
                                      f"({', '.join(names)}): a tab inside a sentence?", source=str(path), line=number)
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
