"""JSON-lines alignments: MSR RTE2 derived/*.jsonl and paralign's own output.

One pair a line: {"id", "source", "target", "sure": [[i, j], ...], "possible": [[i, j], ...]},
0-based. source/target may be strings (whitespace tokens) or token lists; sure/possible may also be
Pharaoh strings (`i-j`, `i?j`). An "alignment" key holding a Pharaoh string is accepted too
(`paralign align --format json` output; a "possible" beside it adds possible links, as beside
"sure"), and so are jacana's `sureAlign`/`possibleAlign`. Without source/target a record carries links only (a
system output, checked against the gold when scored); an `{"error": ...}` record without links
is an empty alignment, so one failed item does not stop the scoring of the others. A line that
cannot be read becomes a `BadPair` in `read_jsonl` (the strict `iter_jsonl` raises its error).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ..alignment import Alignment, Link
from ..errors import FormatError, invalid_json, is_text, lone_surrogate
from .base import (
    AlignedPair,
    BadPair,
    PairOrBad,
    located_alignment,
    make_pair,
    read_records,
    strict,
)


def _tokens(value: object, key: str, pair_id: str, path: str, line: int) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return list(value)
    raise FormatError(f"pair {pair_id!r}: {key!r} must be a string or a list of tokens",
                      source=path, line=line)


def _links(value: object, key: str, pair_id: str, path: str, line: int) -> frozenset[Link]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        alignment = Alignment.from_pharaoh(value, source=path, line=line)
        return alignment.possible
    try:
        if not isinstance(value, list):  # a JSON number, object or bool: no links
            raise TypeError
        links = set()
        for item in value:
            i, j = item
            if isinstance(i, bool) or isinstance(j, bool) or not isinstance(i, int) or not isinstance(j, int):
                raise TypeError
            links.add((i, j))
        return frozenset(links)
    except (TypeError, ValueError):
        raise FormatError(f"pair {pair_id!r}: {key!r} must be a list of [i, j] integer pairs",
                          source=path, line=line) from None


#: The keys links are read from (see the module doc).
LINK_KEYS = ("sure", "possible", "alignment", "links")
#: jacana's names for them (:mod:`paralign.corpora.jacana`), read when paralign's are absent: a
#: jacana gold written one pair a line (MTReference, MSR RTE2 converted so) keeps its links.
JACANA_KEYS = {"sureAlign": "sure", "possibleAlign": "possible"}


def _link_keys(obj: dict, pair_id: str, path: str, line: int) -> dict:
    """`obj` with jacana's link keys under paralign's names; FormatError for a key that names
    sure or possible links in another spelling (``sure_links``), or for both spellings of one:
    it would be ignored, and the pair read as having no links, so a whole gold would score 0
    without a word."""
    for key in obj:
        folded = key.lower()
        if key in JACANA_KEYS and JACANA_KEYS[key] in obj:
            raise FormatError(f"pair {pair_id!r} has both {key!r} and {JACANA_KEYS[key]!r}: keep one",
                              source=path, line=line)
        if key not in LINK_KEYS and key not in JACANA_KEYS and ("sure" in folded or "possible" in folded):
            read = "sure" if "sure" in folded else "possible"
            raise FormatError(f"pair {pair_id!r}: key {key!r} is not read: links are read from "
                              f"{read!r} (or {', '.join(repr(k) for k in LINK_KEYS if k != read)})",
                              source=path, line=line)
    if not any(key in obj for key in JACANA_KEYS):
        return obj
    return {JACANA_KEYS.get(key, key): value for key, value in obj.items()}


def _record(line: str, name: str, number: int) -> AlignedPair:
    """The pair on one non-blank line; FormatError when it is not one (invalid JSON, or a string
    escape that is half a surrogate pair: with the column in the line as read, so the position
    is not lost)."""
    text = line.strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(invalid_json(exc, len(line) - len(line.lstrip())), source=name, line=number) from None
    if (lone := lone_surrogate(line)) is not None:  # no character: refused here as a bad byte is
        raise FormatError(lone[1], source=name, line=number)
    if not isinstance(obj, dict):
        raise FormatError("expected a JSON object", source=name, line=number)
    pair_id = str(obj.get("id", number))
    obj = _link_keys(obj, pair_id, name, number)
    if "error" in obj and not any(k in obj for k in ("sure", "alignment", "links")):
        # `paralign align --format json` writes {"line", "error"} for an item it could
        # not align: keep the position, with no links and no tokens.
        return AlignedPair(pair_id, (), (), Alignment(), number)
    if ("source" in obj) != ("target" in obj):
        raise FormatError(f"pair {pair_id!r} has only one of 'source' and 'target'",
                          source=name, line=number)
    src = _tokens(obj.get("source", ""), "source", pair_id, name, number)
    tgt = _tokens(obj.get("target", ""), "target", pair_id, name, number)
    if "alignment" in obj and "sure" not in obj:
        value = obj["alignment"]
        if not isinstance(value, str):
            raise FormatError(f"pair {pair_id!r}: 'alignment' must be a Pharaoh string",
                              source=name, line=number)
        alignment = Alignment.from_pharaoh(value, source=name, line=number)
        # "possible" beside it adds possible links, as beside "sure" (it was ignored without a word)
        sure = alignment.sure
        possible = alignment.possible | _links(obj.get("possible"), "possible", pair_id, name, number)
    else:
        # A Pharaoh string under "sure" keeps its own i?j possible links.
        sure_value = obj.get("sure", obj.get("links"))
        if isinstance(sure_value, str):
            parsed = Alignment.from_pharaoh(sure_value, source=name, line=number)
            sure, extra = parsed.sure, parsed.possible
        else:
            sure, extra = _links(sure_value, "sure", pair_id, name, number), frozenset()
        possible = extra | _links(obj.get("possible"), "possible", pair_id, name, number)
    if "source" not in obj:  # links only: checked later against the gold sentences
        return AlignedPair(pair_id, (), (), located_alignment(sure, possible, pair_id=pair_id, path=name, line=number),
                           number)
    return make_pair(pair_id, src, tgt, sure, possible, path=name, line=number)


def _line_id(text: str, number: int) -> str:
    """The id of a bad line when it can still be read (and is text: no lone surrogate), else
    its line number."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return str(number)
    pair_id = str(obj.get("id", number)) if isinstance(obj, dict) else str(number)
    return pair_id if is_text(pair_id) else str(number)


def read_jsonl(path: str | Path, name: str | None = None) -> Iterator[PairOrBad]:
    """The pairs of a JSONL alignment file (blank lines skipped), a BadPair per bad line."""
    name = str(path) if name is None else name

    def parse(text: str, number: int) -> PairOrBad:
        try:
            return _record(text, name, number)
        except FormatError as exc:
            return BadPair(_line_id(text.strip(), number), exc)

    return read_records(path, name, parse)


def iter_jsonl(path: str | Path) -> Iterator[AlignedPair]:
    """Stream the pairs of a JSONL alignment file (blank lines skipped)."""
    return strict(read_jsonl(path))
