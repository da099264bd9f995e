"""A gold alignment file given where sentence pairs are read (``align FILE``, ``similarity
--pairs FILE``): its pairs on the gold's own tokens, one :class:`~.sentence_pairs.InputPair`
an item, a bad item in its place.

Not for: scoring alignments against a gold (:mod:`paralign.corpora.alignments` reads it whole,
links and all), or pairs given as TSV or JSONL lines (:mod:`paralign.corpora.sentence_pairs`).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ParalignError
from .alignments import detect_format, read_pairs
from .base import BadPair
from .sentence_pairs import InputPair

#: The gold alignment formats align reads as a whole file (its own reader takes TSV and JSONL lines).
GOLD_INPUTS = ("jacana", "giza", "multimwa")


def gold_input_pairs(path: str | Path) -> list[InputPair] | None:
    """The pairs of a gold alignment file that align's line reader cannot read (jacana JSON,
    GIZA, MultiMWA TSV: :data:`GOLD_INPUTS`), each on the gold's own tokens, so the output
    indexes them as the gold does, and named by its line; a bad item in its place. None for
    any other file (TSV or JSONL lines: read line by line), or what is no regular file. Before,
    every line of such a file was a bad line."""
    if not Path(path).is_file():
        return None
    try:  # a gold file says so on its first line; a later line such as [1, 2] is a bad line
        if detect_format(path, lines=1) not in GOLD_INPUTS:
            return None
        read = read_pairs(path, possible_path=None)
    except ParalignError:  # no gold format, or not one as a whole: the line reader reports its lines
        return None
    return [InputPair(item.line or 0, None, None, item.id, item.reason) if isinstance(item, BadPair)
            else InputPair(item.line or 0, list(item.source), list(item.target), item.id)
            for item in read]
