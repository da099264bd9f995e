"""Alignment corpora: one loader per format, all yielding `AlignedPair`s.

Formats (auto-detected from the file's first line by `detect_format`):

- `jacana`: jacana JSON lists (MSR RTE2 converted, Edinburgh++, MTReference, baseline outputs);
  a `*.sure.json` / `*.sure+poss.json` pair is combined into sure + possible links;
- `jsonl`: one JSON object a line (MSR RTE2 derived/*.jsonl, paralign output);
- `giza`: GIZA-style `# sentence pair` text (1-based, `pN` possible, NULL first, BOMs stripped);
- `multimwa`: MultiMWA TSV;
- `pharaoh`: bare link lines (`i-j`, `i?j`), no tokens, paired with a gold file by position.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import FormatError, ResourceMissingError
from ..paraphrases import open_text
from .base import AlignedPair, check_links, make_pair, parse_dash_links
from .giza import iter_giza
from .jacana import combine_sure_possible, companion_files, iter_jacana
from .jsonl import iter_jsonl
from .multimwa import iter_multimwa
from .pharaoh import iter_pharaoh

__all__ = [
    "FORMATS",
    "AlignedPair",
    "check_links",
    "combine_sure_possible",
    "detect_format",
    "group_key",
    "iter_pairs",
    "load_groups",
    "load_pairs",
    "make_pair",
    "parse_dash_links",
]

FORMATS: dict[str, Callable[[str | Path], Iterator[AlignedPair]]] = {
    "jacana": iter_jacana,
    "jsonl": iter_jsonl,
    "giza": iter_giza,
    "multimwa": iter_multimwa,
    "pharaoh": iter_pharaoh,
}

_PHARAOH_LINE = re.compile(r"^(\d+[-?p]\d+)?(\s+\d+[-?p]\d+)*\s*$")
_MULTIMWA_MIN_FIELDS = 8


def _check_exists(path: str | Path) -> Path:
    path = Path(path)
    if not path.is_file():
        raise ResourceMissingError(f"{path}: no such alignment file")
    return path


def detect_format(path: str | Path) -> str:
    """Guess a file's format from its first non-blank line; FormatError when none fits."""
    path = _check_exists(path)
    first = ""
    with open_text(path) as handle:
        for raw in handle:
            first = raw.replace("\ufeff", "").strip()
            if first:
                break
    if not first:
        return "pharaoh"  # an empty file: no pairs
    if first.startswith("["):
        return "jacana"
    if first.startswith("{"):
        return "jsonl"
    if first.startswith("#") and "sentence pair" in first.lower():
        return "giza"
    if first.count("\t") + 1 >= _MULTIMWA_MIN_FIELDS:
        return "multimwa"
    if _PHARAOH_LINE.match(first):
        return "pharaoh"
    raise FormatError(
        f"cannot tell the alignment format from the first line {first[:60]!r} "
        f"(known: {', '.join(FORMATS)})",
        source=str(path),
        line=1,
    )


def _resolve_format(path: str | Path, format: str | None) -> str:
    fmt = format or detect_format(path)
    if fmt not in FORMATS:
        raise FormatError(f"unknown alignment format {fmt!r} (known: {', '.join(FORMATS)})",
                          source=str(path))
    return fmt


def iter_pairs(path: str | Path, format: str | None = None) -> Iterator[AlignedPair]:
    """Stream the pairs of one file as stored (no sure/sure+poss combination)."""
    path = _check_exists(path)
    return FORMATS[_resolve_format(path, format)](path)


def load_pairs(path: str | Path, format: str | None = None, *,
               possible_path: str | Path | None = "auto") -> list[AlignedPair]:
    """Read all pairs of a file.

    For jacana files, `possible_path` names a `sure+poss` file whose links (minus nothing: they
    include the sure ones) become the possible links; with "auto" (default) a companion
    `X.sure.json` <-> `X.sure+poss.json` beside `path` is used when present; None reads `path`
    alone. Loading a sure+poss file with its companion thus gives the same pairs as loading the
    sure file.
    """
    path = _check_exists(path)
    fmt = _resolve_format(path, format)
    pairs = list(FORMATS[fmt](path))
    if fmt != "jacana" or possible_path is None:
        return pairs
    if possible_path == "auto":
        companions = companion_files(path)
        if companions is None:
            return pairs
        sure_file, merged_file = companions
    else:
        sure_file, merged_file = path, _check_exists(possible_path)
    sure_pairs = pairs if sure_file == path else list(iter_jacana(sure_file))
    merged_pairs = pairs if merged_file == path else list(iter_jacana(merged_file))
    return combine_sure_possible(sure_pairs, merged_pairs, sure_path=str(sure_file),
                                 merged_path=str(merged_file))


def group_key(pair_id: str) -> str:
    """MTReference source-segment key: the id without its last dot-field."""
    return pair_id.rsplit(".", 1)[0] if "." in pair_id else pair_id


def load_groups(path: str | Path, format: str | None = None) -> dict[str, list[AlignedPair]]:
    """Pairs grouped by source segment (MTReference ids `<doc>.<segment>.<hit>`), in file order."""
    groups: dict[str, list[AlignedPair]] = {}
    for pair in load_pairs(path, format):
        groups.setdefault(group_key(pair.id), []).append(pair)
    return groups
