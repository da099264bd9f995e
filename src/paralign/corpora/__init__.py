"""Corpora: gold alignments (one module per format), unaligned sentence pairs, STS, MSRP,
WMT human judgments, parallel text and sentence groups.

files -> one reader per format -> AlignedPair / InputPair / StsPair / ParaphrasePair / WMTPair / SentenceGroup

Gold-alignment formats (auto-detected from the file's first line by `detect_format`):

- `jacana`: jacana JSON lists (MSR RTE2 converted, Edinburgh++, MTReference, baseline outputs);
  a `*.sure.json` / `*.sure+poss.json` pair is combined into sure + possible links;
- `jsonl`: one JSON object a line (MSR RTE2 derived/*.jsonl, paralign output);
- `giza`: GIZA-style `# sentence pair` text (1-based, `pN` possible, NULL first, BOMs stripped);
- `multimwa`: MultiMWA TSV;
- `pharaoh`: bare link lines (`i-j`, `i?j`), no tokens, paired with a gold file by position.

`load_pairs` and `iter_pairs` raise on the first bad item. `read_pairs` (for batch jobs) puts a
`BadPair` in the place of each item it cannot read, so that pairs matched by position stay
matched, and raises only when the file as a whole cannot be read.
"""

from __future__ import annotations

from .alignments import (
    FORMATS,
    detect_format,
    group_key,
    iter_pairs,
    load_groups,
    load_pairs,
    read_groups,
    read_pairs,
    split_bad,
)
from .base import (
    AlignedPair,
    BadPair,
    PairOrBad,
    check_links,
    make_pair,
    parse_dash_links,
)
from .jacana import combine_sure_possible

__all__ = [
    "FORMATS",
    "AlignedPair",
    "BadPair",
    "PairOrBad",
    "check_links",
    "combine_sure_possible",
    "detect_format",
    "group_key",
    "iter_pairs",
    "load_groups",
    "load_pairs",
    "make_pair",
    "parse_dash_links",
    "read_groups",
    "read_pairs",
    "split_bad",
]
