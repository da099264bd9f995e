"""jacana JSON alignment files (MSR RTE2 converted, Edinburgh++, MTReference, baselines).

A file is a JSON list of {"id", "name", "source", "target", "sureAlign": "i-j ...",
"possibleAlign": "i-j ..."}; tokens are the whitespace split of source/target, links 0-based.
`*.sure+poss.json` files put sure AND possible links into sureAlign (possibleAlign empty); with
their companion sure file they give sure = companion's links, possible = the merged links.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from ..alignment import Alignment
from ..errors import FormatError, MismatchError, counted, invalid_json, is_text, lone_surrogate
from ..line_ends import cr_only_error, lf_text
from ..textio import bad_byte, decoded, open_binary, reading
from .base import AlignedPair, BadPair, PairOrBad, make_pair, parse_dash_links, strict

SURE_POSS_MARK = ".sure+poss"


def _objects(text: str, path: str, bad: Mapping[int, FormatError] | None = None,
             ) -> Iterator[tuple[int, object, FormatError | None]]:
    """Yield (line, element, fault) for each element of a top-level JSON list, tracking line
    numbers; the fault is the first line of the element that was not text (`bad`: line -> its
    error, :func:`_read_text`), else a string escape of it that is half a surrogate pair (no
    character: :func:`paralign.errors.lone_surrogate`), at its own line, else None. A list that
    cannot be read on is a FormatError: the first bad line since the last element, when there
    is one (its byte spoilt the JSON), else what is wrong with the JSON."""
    bad = bad or {}
    decoder = json.JSONDecoder()
    pos, n = 0, len(text)

    def skip(p: int) -> int:
        while p < n and text[p] in " \t\r\n":
            p += 1
        return p

    seen = [0, 1]  # position up to which newlines are counted, line number there

    def line_of(p: int) -> int:
        if p < seen[0]:
            return text.count("\n", 0, p) + 1
        seen[1] += text.count("\n", seen[0], p)
        seen[0] = p
        return seen[1]

    def first_bad(first: int, last: int) -> FormatError | None:
        return next((bad[k] for k in sorted(bad) if first <= k <= last), None)

    def failed(message: str, p: int, since: int) -> FormatError:
        return first_bad(since, line_of(p)) or FormatError(message, source=path, line=line_of(p))

    pos = skip(pos)
    if pos >= n or text[pos] != "[":
        raise failed("not a jacana JSON file (expected a JSON list)", pos, 1)
    pos = skip(pos + 1)
    if pos < n and text[pos] == "]":
        return
    after = 1  # the line where the last element ended
    while True:
        try:
            obj, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise failed(invalid_json(exc), exc.pos, after) from exc
        line, after = line_of(pos), line_of(end)
        lone = lone_surrogate(text, pos, end)
        yield line, obj, first_bad(line, after) or (
            None if lone is None else FormatError(lone[1], source=path, line=line_of(lone[0])))
        pos = skip(end)
        if pos < n and text[pos] == ",":
            pos = skip(pos + 1)
            continue
        if pos < n and text[pos] == "]":
            if skip(pos + 1) < n:
                raise failed("unexpected data after the JSON list", skip(pos + 1), after)
            return
        raise failed("expected ',' or ']' in the JSON list", pos, after)


def _read_text(path: str | Path, name: str) -> tuple[str, dict[int, FormatError]]:
    """The whole file as text (gzip told by its data), and the lines that are not text: each
    line holding a byte that is not UTF-8 or a NUL, with the FormatError naming its line and
    column (`textio.bad_byte`), its bad bytes read as U+FFFD, so the element holding it is a
    bad pair and the others are read (:func:`_objects`), as the line readers skip such a line
    (`base.read_lines`). Before, one such byte stopped the whole file, every other pair with it.
    FormatError at line 1 for CR-only line ends (as every reader: JSON would parse, but its
    errors' line numbers would all be 1); a lone CR reads as a space."""
    with reading(name), open_binary(path, name) as handle:
        data = handle.read()
    if (error := cr_only_error(data, name)) is not None:
        raise error
    text, fault = decoded(data)
    bad: dict[int, FormatError] = {}
    if text is None or fault >= 0:
        for number, raw in enumerate(data.split(b"\n"), start=1):
            if (at := decoded(raw)[1]) >= 0:
                line, reason = bad_byte(raw, at, number)
                bad[line] = FormatError(reason, source=name, line=line)
        text = data.decode("utf-8", errors="replace").replace("\x00", "\ufffd")
    return lf_text(text.replace("\ufeff", "")), bad


def _element(obj: object, index: int, line: int, name: str) -> AlignedPair:
    """The pair of one list element; FormatError when it is not one."""
    if not isinstance(obj, dict):
        raise FormatError(f"element {index} is not a JSON object", source=name, line=line)
    pair_id = str(obj.get("id", index))
    try:
        src, tgt = obj["source"], obj["target"]
    except KeyError as exc:
        raise FormatError(f"pair {pair_id!r} lacks {exc.args[0]!r}", source=name, line=line) from None
    if not isinstance(src, str) or not isinstance(tgt, str):
        raise FormatError(f"pair {pair_id!r}: source/target must be strings", source=name, line=line)
    sure = parse_dash_links(str(obj.get("sureAlign") or ""), source=name, line=line, item=pair_id)
    possible = parse_dash_links(str(obj.get("possibleAlign") or ""), source=name, line=line,
                                item=pair_id)
    return make_pair(pair_id, src.split(), tgt.split(), sure, possible, path=name, line=line)


def read_jacana(path: str | Path, name: str | None = None) -> Iterator[PairOrBad]:
    """The pairs of one jacana JSON file, a BadPair per bad element.

    Invalid JSON is a FormatError: the list cannot be read past it. An element holding a line
    that is not UTF-8 (or holds a NUL), or a lone surrogate escape, is a bad element, named at
    that line.
    """
    name = str(path) if name is None else name
    text, bad = _read_text(path, name)
    for index, (line, obj, fault) in enumerate(_objects(text, name, bad), start=1):
        try:
            if fault is not None:
                raise fault
            pair: PairOrBad = _element(obj, index, line, name)
        except FormatError as exc:
            pair_id = str(obj.get("id", index)) if isinstance(obj, dict) else str(index)
            pair = BadPair(pair_id if is_text(pair_id) else str(index), exc)
        yield pair


def iter_jacana(path: str | Path) -> Iterator[AlignedPair]:
    """Read one jacana JSON file (sureAlign -> sure, possibleAlign -> possible)."""
    return strict(read_jacana(path))


def companion_files(path: str | Path) -> tuple[Path, Path] | None:
    """(sure file, sure+poss file) when `path` is one of such a pair and the other exists."""
    path = Path(path)
    name = path.name
    if SURE_POSS_MARK in name:
        candidates = [name.replace(SURE_POSS_MARK + ".", ".sure."), name.replace(SURE_POSS_MARK, "")]
        for candidate in candidates:
            other = path.with_name(candidate)
            if candidate != name and other.is_file():
                return other, path
        return None
    for candidate in (name.replace(".sure.", SURE_POSS_MARK + "."),
                      name.replace(".json", SURE_POSS_MARK + ".json", 1)):
        other = path.with_name(candidate)
        if candidate != name and other.is_file():
            return path, other
    return None


def combine_sure_possible(sure_pairs: Sequence[PairOrBad], merged_pairs: Sequence[PairOrBad], *,
                          sure_path: str = "sure file", merged_path: str = "sure+poss file"
                          ) -> list[PairOrBad]:
    """Sure links from `sure_pairs`, possible = everything in `merged_pairs` (plus the sure links).

    The two lists must hold the same sentences in the same order (checked by position and text).
    A position that is a BadPair in either list stays a BadPair (so AlignedPairs alone give
    AlignedPairs alone). Pairs of links only (Pharaoh lines: a sure file and a possible file)
    combine the same way, line by line.
    """
    if len(sure_pairs) != len(merged_pairs):
        raise MismatchError(
            f"{sure_path} has {counted(len(sure_pairs), 'pair')} but {merged_path} has {len(merged_pairs)}"
        )
    out: list[PairOrBad] = []
    for a, b in zip(sure_pairs, merged_pairs, strict=True):
        if isinstance(a, BadPair) or isinstance(b, BadPair):
            out.append(a if isinstance(a, BadPair) else b)
            continue
        if a.source != b.source or a.target != b.target:
            raise MismatchError(
                f"pair {a.id!r} ({sure_path} line {a.line}) and pair {b.id!r} ({merged_path} line "
                f"{b.line}) have different sentences"
            )
        merged = b.alignment.possible | a.alignment.possible  # each read inside these sentences
        out.append(AlignedPair(a.id, a.source, a.target, Alignment(a.alignment.sure, merged), a.line))
    return out
