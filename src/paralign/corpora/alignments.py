"""Gold-alignment files: format detection and the loaders of :mod:`paralign.corpora`'s formats.

Not for: one format's parsing (its own module) or unaligned input (:mod:`.sentence_pairs`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..errors import ConfigurationError, FormatError, InputTypeError, shown_value
from ..signature import file_name_part, short_hash
from ..textio import require_file
from .base import AlignedPair, BadPair, PairOrBad, read_lines, strict
from .giza import iter_giza, read_giza
from .jacana import combine_sure_possible, companion_files, iter_jacana, read_jacana
from .jsonl import iter_jsonl, read_jsonl
from .multimwa import MIN_FIELDS, SURE_FIELD, iter_multimwa, read_multimwa
from .pharaoh import iter_pharaoh, read_pharaoh

FORMATS: dict[str, Callable[[str | Path], Iterator[AlignedPair]]] = {
    "jacana": iter_jacana,
    "jsonl": iter_jsonl,
    "giza": iter_giza,
    "multimwa": iter_multimwa,
    "pharaoh": iter_pharaoh,
}

#: The same formats' lenient readers `(path, name) -> AlignedPair | BadPair, ...`.
_READERS: dict[str, Callable[[str | Path, str | None], Iterator[PairOrBad]]] = {
    "jacana": read_jacana,
    "jsonl": read_jsonl,
    "giza": read_giza,
    "multimwa": read_multimwa,
    "pharaoh": read_pharaoh,
}

#: The formats whose possible links may come from a second file of the same format (`possible_path`):
#: jacana's sure / sure+poss pairs, and Pharaoh lines kept as a sure file and a possible file.
SEPARATE_POSSIBLE = ("jacana", "pharaoh")

_PHARAOH_LINE = re.compile(r"^(\d+[-?p]\d+)?(\s+\d+[-?p]\d+)*\s*$")


def format_of_line(text: str) -> str | None:
    """The format a file's first non-blank line (stripped) says it is in (:func:`detect_format`), or None."""
    if text.startswith("["):
        return "jacana"
    if text.startswith("{"):
        return "jsonl"
    if text.startswith("#") and "sentence pair" in text.lower():
        return "giza"
    fields = text.split("\t")
    if len(fields) >= MIN_FIELDS and _PHARAOH_LINE.match(fields[SURE_FIELD]):
        return "multimwa"
    if _PHARAOH_LINE.match(text):
        return "pharaoh"
    return None


def detect_format(path: str | Path, *, name: str | None = None, lines: int = 10) -> str:
    """Guess a file's format from its first recognisable non-blank line (of the first `lines`).

    A bad first line thus does not hide the format of the rest (the readers then report it).
    FormatError, naming the first line, when none fits. `name` is what messages call the
    file (default: its path).
    """
    path = require_file(path, name)
    name = str(path) if name is None else name
    first: tuple[int, str | FormatError] | None = None
    seen = 0
    for number, text in read_lines(path, name):
        if isinstance(text, str):
            text = text.strip()
            if not text:
                continue
            fmt = format_of_line(text)
            if fmt is not None:
                return fmt
        first = first or (number, text)
        seen += 1
        if seen >= lines:
            break
    if first is None:
        return "pharaoh"  # an empty file: no pairs
    number, text = first
    if isinstance(text, FormatError):
        raise text
    raise FormatError(
        f"cannot tell the alignment format from the line {text[:60]!r} "
        f"(known: {', '.join(FORMATS)}){_pairs_hint(text)}",
        source=name,
        line=number,
    )


def _pairs_hint(text: str) -> str:
    """What to do with a line of sentence pairs (``source<TAB>target``, or an id before them)
    given where a gold alignment is read: it has no links to score against. Before, the message
    listed the gold formats alone, as for any line it could not tell."""
    tabs = text.count("\t")
    if tabs in (1, 2):
        return ("; it looks like a line of sentence pairs, with no links: a gold alignment file gives each "
                "pair's links (paralign align aligns sentence pairs)")
    if tabs >= 3 and not any(field.strip() and _PHARAOH_LINE.match(field) for field in text.split("\t")):
        return (f"; it holds {tabs + 1} tab-separated fields and no links, as a groups file of equivalent "
                "sentences (or the Bible TSV's verse_id header) does: a gold alignment file gives each pair's links")
    return ""


def _resolve_format(path: str | Path, format: str | None, name: str | None = None) -> str:
    if format is not None and not isinstance(format, str):  # a list was "unhashable type" below
        raise InputTypeError(f"format must be a format's name ({', '.join(FORMATS)}) or None, not "
                             f"{type(format).__name__} {shown_value(format)}")
    fmt = format or detect_format(path, name=name)
    if fmt not in FORMATS:
        raise FormatError(f"unknown alignment format {fmt!r} (known: {', '.join(FORMATS)})",
                          source=str(path) if name is None else name)
    return fmt


def _combination(path: Path, fmt: str, possible_path: str | Path | None) -> tuple[Path, Path] | None:
    """(sure file, sure+poss file) whose links `read_pairs` combines for a gold `path` of format
    `fmt`, or None when it reads `path` alone (see `load_pairs` for `possible_path`)."""
    if fmt not in SEPARATE_POSSIBLE or possible_path is None:
        return None
    if possible_path == "auto":
        return companion_files(path) if fmt == "jacana" else None
    return path, require_file(possible_path)


def possible_links_source(path: str | Path, format: str | None = None, *,
                          possible_path: str | Path | None = "auto", name: str | None = None) -> str:
    """Where `read_pairs(path, format, possible_path=possible_path)` takes the gold's possible
    links from, as a signature records it: ``gold`` when from the file itself (its own possible
    links, if it has any), else the sure+poss file combined with it, by basename and a hash of
    its bytes (``gold.test.sure+poss.json#1a2b3c4d``).

    Why: the same sure links scored with and without a companion sure+poss file give different
    AER (and sure+possible scores), so a signature that does not say which was read lets two
    different numbers pass as one. `name` as for `read_pairs`; ConfigurationError naming the file
    when its name holds ``|`` (:func:`paralign.signature.file_name_part`)."""
    path = require_file(path, name)
    combined = _combination(path, _resolve_format(path, format, name), possible_path)
    if combined is None:
        return "gold"
    merged = combined[1]
    shown = name if merged == path and name is not None else str(merged)
    return f"{file_name_part(shown, 'possible:FILE#HASH')}#{short_hash(merged.read_bytes())}"


def sure_links_elsewhere(path: str | Path, format: str | None = None, *,
                         possible_path: str | Path | None = "auto", name: str | None = None) -> bool:
    """Whether `read_pairs(path, format, possible_path=possible_path)` takes the gold's sure
    links from another file than `path`: a jacana sure+poss gold (``NAME.sure+poss.json``, whose
    links are all sure read alone) completed by its ``NAME.sure.json`` companion. Otherwise the
    sure links are the gold's own and a companion gives only possible links. `name` as for
    `read_pairs`."""
    path = require_file(path, name)
    combined = _combination(path, _resolve_format(path, format, name), possible_path)
    return combined is not None and combined[0] != path


def iter_pairs(path: str | Path, format: str | None = None) -> Iterator[AlignedPair]:
    """Stream the pairs of one file as stored (no sure/sure+poss combination)."""
    path = require_file(path)
    return FORMATS[_resolve_format(path, format)](path)


def read_pairs(path: str | Path, format: str | None = None, *,
               possible_path: str | Path | None = "auto", name: str | None = None
               ) -> list[PairOrBad]:
    """Read all items of a file: an AlignedPair, or a BadPair in the place of a bad item.

    Like `load_pairs` (same `possible_path`), but one bad item does not stop the others; a
    file that cannot be read at all (missing, unknown format, broken JSON list, broken GIZA
    structure) still raises. `name` is what messages call the file (e.g. `<stdin>`).
    """
    return _read_all(path, format, possible_path, name, list)


def _read_all(
    path: str | Path,
    format: str | None,
    possible_path: str | Path | None,
    name: str | None,
    collect: Callable[[Iterator[PairOrBad]], list],
) -> list:
    """The items of a file (and of a jacana companion), each reader's stream passed through
    `collect`: `list` keeps BadPairs; `lambda items: list(strict(items))` stops at the first."""
    path = require_file(path, name)
    fmt = _resolve_format(path, format, name)
    if fmt not in SEPARATE_POSSIBLE and possible_path not in (None, "auto"):  # was ignored without a word
        raise ConfigurationError(
            f"{name or path} is {fmt}: a file of possible links ({possible_path}) completes a "
            f"{' or '.join(SEPARATE_POSSIBLE)} gold only; the other formats carry their own possible links")
    reader = _READERS[fmt]
    items = collect(reader(path, name))
    combined = _combination(path, fmt, possible_path)
    if combined is None:
        return items
    sure_file, merged_file = combined
    sure_items = items if sure_file == path else collect(reader(sure_file, None))
    merged_items = items if merged_file == path else collect(reader(merged_file, None))
    sure_name = name if sure_file == path and name is not None else str(sure_file)
    merged_name = name if merged_file == path and name is not None else str(merged_file)
    return combine_sure_possible(sure_items, merged_items, sure_path=sure_name,
                                 merged_path=merged_name)


def load_pairs(path: str | Path, format: str | None = None, *,
               possible_path: str | Path | None = "auto") -> list[AlignedPair]:
    """Read all pairs of a gold alignment file as :class:`~.base.AlignedPair`s (``id``,
    ``source`` and ``target`` tokens, ``alignment``, ``line``); FormatError (naming file and
    line) at the first bad item: :func:`read_pairs` gives every item instead, a bad one as a
    :class:`~.base.BadPair` in its place. `format` is one of :data:`FORMATS` (``jacana``,
    ``jsonl``, ``giza``, ``multimwa``, ``pharaoh``), or None: told by the file's first line.

    >>> from importlib.resources import files
    >>> pairs = paralign.load_pairs(files("paralign") / "data" / "demo" / "gold.jsonl")
    >>> len(pairs), pairs[0].id, pairs[0].source[:4]
    (6, 'demo-1', ('The', 'company', "'s", 'chief'))
    >>> pairs[0].alignment                      # '?' marks a possible link, '-' a sure one
    Alignment.from_pharaoh('0-0 1-1 2-2 3-3 4-3 5-4 6?5 7-5 8-6')

    For jacana files, `possible_path` names a `sure+poss` file whose links (minus nothing: they
    include the sure ones) become the possible links; with "auto" (default) a companion
    `NAME.sure.json` <-> `NAME.sure+poss.json` beside `path` is used when present; None reads `path`
    alone. Loading a sure+poss file with its companion thus gives the same pairs as loading the
    sure file. For Pharaoh lines, `possible_path` names a second file of Pharaoh lines, line by
    line, whose links become possible links (whether or not it repeats the sure ones), as
    gold standards kept as a sure file and a possible file are; "auto" finds none. A
    `possible_path` given with a file of another format is a ConfigurationError (those formats
    carry their own possible links).
    """
    return _read_all(path, format, possible_path, None, lambda items: list(strict(items)))


def split_bad(items: Iterable[PairOrBad]) -> tuple[list[AlignedPair], list[BadPair]]:
    """(the good pairs, the bad items) of `read_pairs`' result, each in file order."""
    good: list[AlignedPair] = []
    bad: list[BadPair] = []
    for item in items:
        if isinstance(item, BadPair):
            bad.append(item)
        else:
            good.append(item)
    return good, bad


def group_key(pair_id: str) -> str:
    """MTReference source-segment key: the id without its last dot-field."""
    return pair_id.rsplit(".", 1)[0] if "." in pair_id else pair_id


def _grouped(pairs: Iterable[AlignedPair]) -> dict[str, list[AlignedPair]]:
    groups: dict[str, list[AlignedPair]] = {}
    for pair in pairs:
        groups.setdefault(group_key(pair.id), []).append(pair)
    return groups


def load_groups(path: str | Path, format: str | None = None) -> dict[str, list[AlignedPair]]:
    """Pairs grouped by source segment (MTReference ids `<doc>.<segment>.<hit>`), in file order.

    FormatError (naming file and line) at the first bad item; see `read_groups` for batch jobs.
    """
    return _grouped(load_pairs(path, format))


def read_groups(path: str | Path, format: str | None = None, *, name: str | None = None
                ) -> tuple[dict[str, list[AlignedPair]], list[tuple[int, BadPair]]]:
    """`load_groups` that goes on past bad items: (the groups of the good pairs, each bad item
    with its position in the file, 1-based).

    A file that cannot be read at all still raises (see `read_pairs`, also for `name`).
    """
    items = read_pairs(path, format, name=name)
    bad = [(number, item) for number, item in enumerate(items, start=1) if isinstance(item, BadPair)]
    return _grouped(item for item in items if not isinstance(item, BadPair)), bad
