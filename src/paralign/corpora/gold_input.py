"""A gold alignment file given where sentence pairs are read (``align FILE``, ``similarity
--pairs FILE``): its pairs on the gold's own tokens, one :class:`~.sentence_pairs.InputPair`
an item, a bad item in its place.

Not for: scoring alignments against a gold (:mod:`paralign.corpora.alignments` reads it whole,
links and all), or pairs given as TSV or JSONL lines (:mod:`paralign.corpora.sentence_pairs`).
"""

from __future__ import annotations

import tempfile
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from itertools import chain, islice
from pathlib import Path

from ..errors import ParalignError
from ..textio import strip_bom
from .alignments import detect_format, format_of_line, read_pairs
from .base import BadPair, read_lines
from .sentence_pairs import InputPair, detect_layout, takewhile_blank

#: The gold alignment formats align reads as a whole file (its own reader takes TSV and JSONL lines).
GOLD_INPUTS = ("jacana", "giza", "multimwa")
#: How messages name them.
GOLD_NAMES = {"jacana": "jacana JSON", "giza": "GIZA", "multimwa": "MultiMWA TSV"}


def gold_input_pairs(path: str | Path, found: list[str] | None = None) -> list[InputPair] | None:
    """The pairs of a gold alignment file that align's line reader cannot read (jacana JSON,
    GIZA, MultiMWA TSV: :data:`GOLD_INPUTS`), each on the gold's own tokens, so the output
    indexes them as the gold does, and named by its line; a bad item in its place. None for
    any other file (TSV or JSONL lines: read line by line), or what is no regular file. Before,
    every line of such a file was a bad line. The format read is appended to `found`. The
    commands give theirs as opened lines (:func:`gold_input`), which it reads as a copy.

    A file that ``similarity`` reads as a table or STS (:func:`_pairs_layout`) is none, though
    its first line has the fields of a MultiMWA line."""
    if not Path(path).is_file():
        return None
    try:  # a gold file says so on its first line; a later line such as [1, 2] is a bad line
        fmt = detect_format(path, lines=1)
        if fmt not in GOLD_INPUTS or not _pairs_layout(path):
            return None
        read = read_pairs(path, possible_path=None)
    except ParalignError:  # no gold format, or not one as a whole: the line reader reports its lines
        return None
    if found is not None:
        found.append(fmt)
    return [InputPair(item.line or 0, None, None, item.id, item.reason) if isinstance(item, BadPair)
            else InputPair(item.line or 0, list(item.source), list(item.target), item.id)
            for item in read]


def gold_input(lines: Iterable[str], found: list[str] | None = None,
               reason_of: Callable[[int], str | None] | None = None,
               ) -> tuple[list[InputPair] | None, Iterator[str]]:
    """The pairs of a gold alignment file given where sentence pairs are read, by ``align`` and
    ``similarity`` alike, as `lines` (an opened file or stdin: one path for both), as
    :func:`gold_input_pairs` gives those of a file with the same content, or None; and the lines,
    to read line by line when they are none. Only an input whose first line that is not blank
    says a gold format (:func:`~.alignments.format_of_line`, a byte-order mark not part of it, as
    the gold readers read it) is read to its end here (into a temporary file, as the gold readers
    read a file whole): any other is left to stream, its first lines given back.

    `reason_of(line)`: why a line the input's reader could not decode was read as an empty line
    (``--encoding-errors skip``), or None: the pair whose record holds such a line is bad at that
    line for that reason, as the gold readers report a file's line that is not UTF-8, and the
    other pairs are read (:data:`UNDECODED`).

    Before, a file was read by its path and stdin by its lines, each its own way: a gold file on
    stdin that began with a byte-order mark was read line by line (every line of it bad), a line
    that was not UTF-8 blanked unsaid on stdin (``pair '2': link 0-0 outside sentences of 0 and 9
    tokens``), and a file's read ignoring ``--encoding-errors``."""
    lines = iter(lines)
    head = list(takewhile_blank(lines))
    fmt = format_of_line(strip_bom(head[-1]).strip()) if head else None
    if fmt not in GOLD_INPUTS:
        return None, chain(head, lines)
    read = head + list(lines)
    bad = {} if reason_of is None else {line: why for line in range(1, len(read) + 1)
                                        if (why := reason_of(line)) is not None}
    whole = fmt == "jacana"  # one JSON document, not a record a line
    with tempfile.TemporaryDirectory(prefix="paralign-") as tmp:
        copy = Path(tmp) / "input"
        copy.write_bytes(b"".join((b"\n" if whole else UNDECODED) if number in bad else line.encode("utf-8")
                                  for number, line in enumerate(read, start=1)))
        pairs = gold_input_pairs(copy, found)
    return (None if pairs is None else _undecoded(pairs, bad)), iter(read)


#: What the copy of a gold of a record a line (GIZA, MultiMWA) holds in place of a line the
#: input's reader could not decode: a line that is not UTF-8, which its reader reports as it
#: reports one of a file. A jacana file's copy holds an empty line there (a bad byte would spoil
#: the whole JSON document, every pair with it), whose pair :func:`_undecoded` makes bad.
UNDECODED = b"\xff\n"


def _undecoded(pairs: list[InputPair], bad: dict[int, str]) -> list[InputPair]:
    """`pairs` with each whose record holds a line of `bad` (line -> why the input's reader could
    not decode it) bad for that reason at that line, as the gold readers report a file's line
    that is not UTF-8; a line before the first record is the first pair's."""
    starts = [pair.line for pair in pairs]
    marked: set[int] = set()
    for line, why in sorted(bad.items()):  # a record's first such line names it
        at = max(bisect_right(starts, line) - 1, 0)
        if at < len(pairs) and at not in marked:
            marked.add(at)
            pairs[at] = replace(pairs[at], line=line, source=None, target=None, error=why)
    return pairs


def _pairs_layout(path: str | Path, sample_lines: int = 50) -> bool:
    """Whether a file's first lines are of the ``pairs`` layout (:func:`.sentence_pairs.detect_layout`),
    as a gold file's are: not a table whose header names sentence1 and sentence2 (GLUE's STS-B
    TSV: 10 columns) nor STS Benchmark rows (9 fields in some), which have 8 fields or more, as a
    MultiMWA line has: each would be read as a MultiMWA file, every line of it bad."""
    sample = [text for _, text in islice(read_lines(path, str(path)), sample_lines) if isinstance(text, str)]
    return detect_layout(sample) == "pairs"


def scored_gold_note(fmt: str) -> str:
    """What ``similarity`` says of a gold alignment file (`fmt`: one of :data:`GOLD_INPUTS`) it
    was given as pairs: each pair scored on the gold's tokens, as a gold JSONL record's are, and
    its links not read. Before, each of its lines was a bad line (``10 fields, expected 2
    TAB-separated sentences``) where ``align`` read the file as its pairs."""
    return (f"a gold alignment file ({GOLD_NAMES[fmt]}): its sentence pairs are scored on the gold's tokens; "
            "its links are not read (score-alignments scores an alignment against them)")
