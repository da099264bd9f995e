"""The value every alignment-corpus loader yields, and helpers shared by the loaders."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..alignment import Alignment, Link, require_alignment
from ..errors import (
    AlignmentIndexError,
    FormatError,
    InputTypeError,
    ParalignError,
    check_texts,
    listed_of,
    shown_value,
)
from ..line_ends import cr_only_error, lf_text, without_line_end
from ..textio import bad_byte, decoded, open_binary, reading

_LINK = re.compile(r"^(\d+)-(\d+)$")


@dataclass(frozen=True, slots=True)
class AlignedPair:
    """A sentence pair with its word alignment (0-based links into the token tuples).

    `line` (where the pair starts in its file, 1-based; 0 when unknown) is for error messages
    and does not take part in equality.
    """

    id: str
    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: Alignment
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        """Tokens as tuples (one str is refused: its characters would be the tokens) and, when
        the pair has tokens, every link inside them (AlignmentIndexError, as the readers check;
        a pair of bare links without tokens, a Pharaoh line, is taken as it is). An `alignment`
        that is not an Alignment is an InputTypeError (it was an AttributeError, or for a pair
        without tokens a value that failed only when scored), and so is an `id` that is not a
        str (an int id matched no gold pair's, which are str), a `line` that is not an int or a
        token that is not a str: the types the hints promise, checked once a pair (the readers
        make one a pair, never one a token)."""
        if not isinstance(self.id, str):  # an int id matched no pair of a str id, silently
            raise InputTypeError(f"AlignedPair.id must be a str, not {type(self.id).__name__} {shown_value(self.id)}")
        if isinstance(self.line, bool) or not isinstance(self.line, int):
            raise InputTypeError(f"AlignedPair.line must be an int (0 when unknown), not {type(self.line).__name__} "
                                 f"{shown_value(self.line)}")
        require_alignment(self.alignment, "AlignedPair.alignment")
        for side in ("source", "target"):
            tokens = getattr(self, side)
            if isinstance(tokens, str):
                raise InputTypeError(f"AlignedPair.{side} is a sequence of tokens, not one str ({tokens[:40]!r})")
            if not isinstance(tokens, Iterable):  # None was "'NoneType' object is not iterable"
                raise InputTypeError(f"AlignedPair.{side} is a sequence of tokens, not {type(tokens).__name__} "
                                     f"{shown_value(tokens)}")
            tokens = tuple(tokens)
            try:
                "".join(tokens)  # fails on a token that is not a str, in C: 0.5 us for 25 tokens
            except TypeError:
                check_texts(tokens, f"AlignedPair.{side}")  # names the token by its number
            object.__setattr__(self, side, tokens)
        if self.source or self.target:
            check_links(self.alignment, len(self.source), len(self.target), pair_id=self.id, path=None,
                        line=self.line or None)

    @property
    def sure(self) -> frozenset[Link]:
        """The sure links."""
        return self.alignment.sure

    @property
    def possible(self) -> frozenset[Link]:
        """Sure and possible links (possible ⊇ sure)."""
        return self.alignment.possible


@dataclass(frozen=True, slots=True)
class BadPair:
    """An item a loader could not read, kept in its place so that pairing by position holds.

    `error` is the exception the strict loaders raise for it (it names file and line).
    """

    id: str
    error: ParalignError

    @property
    def source(self) -> str | None:
        return getattr(self.error, "source", None)

    @property
    def line(self) -> int | None:
        return getattr(self.error, "line", None)

    @property
    def reason(self) -> str:
        """The message without its `file:line: ` prefix."""
        message = str(self.error)
        if self.source is not None:
            where = f"{self.source}:{self.line}: " if self.line is not None else f"{self.source}: "
            return message.removeprefix(where)
        return message.removeprefix(f"line {self.line}: ") if self.line is not None else message

    def __str__(self) -> str:
        return str(self.error)


PairOrBad = AlignedPair | BadPair


def gold_pairs(items: object, what: str) -> list:
    """`items` as a list (read once), each a gold pair: an AlignedPair (or anything with its
    ``source``, ``target`` and an Alignment ``alignment``) or a BadPair in its place. One str,
    None, or an item that is not one is an InputTypeError naming `what` and the item (1-based),
    where the scorers failed with "'str' object has no attribute 'source'" from inside."""
    return listed_of(items, what, "gold pairs (load_pairs reads them)",
                     lambda item: isinstance(item, BadPair) or isinstance(getattr(item, "alignment", None), Alignment),
                     "a gold pair (an AlignedPair: load_pairs reads them)")


def with_sentences(item: PairOrBad, needs: str, name: str | None = None) -> PairOrBad:
    """`item`, or a BadPair in its place (named `name`, at its line) when it has no sentences (a
    Pharaoh line or a JSONL record of links only) or one side empty (``empty target sentence``,
    as `align` names it: :func:`.sts.empty_sides`), saying what `needs` the sentences (``an
    aligner's gold needs the tokens of both``). One rule for the gold of an aligner's evaluation
    and of ParaMetric, whose phrase pairs are spans of both sides' tokens: ParaMetric flagged a
    pair with both sides missing only, so a pair with one empty side was counted as scored with
    no phrase pair in it (and given to the aligner, with `--aligner`), where evaluate-aligner
    skipped and listed it."""
    from .sts import ALIGN_SIDES, empty_sides

    if isinstance(item, BadPair) or (item.source and item.target):
        return item
    why = "no source or target sentence (links only)" if not (item.source or item.target) else \
        empty_sides(zip(ALIGN_SIDES, (item.source, item.target), strict=True))
    return BadPair(item.id, FormatError(f"{why}: {needs}", source=name, line=getattr(item, "line", None) or None))


@dataclass(frozen=True, slots=True)
class LineRange:
    """A run of a file's lines: `count` of them (None: to the end) from byte `offset`, where
    line number `first` (1-based) starts; so one worker reads its chunk of a large file and
    still names lines by their numbers in the whole file."""

    offset: int = 0
    first: int = 1
    count: int | None = None


def strict(items: Iterable[PairOrBad]) -> Iterator[AlignedPair]:
    """The pairs of `items`, raising the error of the first BadPair."""
    for item in items:
        if isinstance(item, BadPair):
            raise item.error
        yield item


def read_lines(path: str | Path, name: str, lines: LineRange | None = None) -> Iterator[tuple[int, str | FormatError]]:
    """(1-based number, text without the line end) per line, gzip for `.gz`, U+FEFF removed;
    with `lines`, only that range (a chunk of a large file read by one worker).

    Lines end at LF (CRLF too); a lone CR reads as a space, and a file with CR-only line ends
    is one FormatError at line 1, raised (`paralign.line_ends`). A line that is not UTF-8
    or holds a NUL comes as a FormatError naming it (`textio.bad_byte`), so a reader can skip
    that line.
    """
    lines = lines or LineRange()
    with reading(name), open_binary(path, name) as handle:
        if lines.offset:
            handle.seek(lines.offset)
        first = b"" if lines.offset else handle.readline()  # the file's first line: CR-only line ends?
        if (error := cr_only_error(first, name)) is not None:
            raise error
        raws = itertools.chain((first,) if first else (), handle)
        for number, raw in enumerate(itertools.islice(raws, lines.count), start=lines.first):
            text, fault = decoded(without_line_end(raw))
            if text is None or fault >= 0:
                yield number, FormatError(bad_byte(raw, fault)[1], source=name, line=number)
                continue
            yield number, lf_text(text.replace("\ufeff", ""))


def read_records(
    path: str | Path, name: str, parse: Callable[[str, int], PairOrBad], *, skip_blank: bool = True,
    lines: LineRange | None = None,
) -> Iterator[PairOrBad]:
    """`parse(text, line number)` for every line of a one-record-a-line file (or of `lines`), in order.

    The shared loop of the line-based readers: a line that is not UTF-8 becomes a BadPair
    in its place, and blank lines are skipped unless `skip_blank` is False. `parse` returns
    the pair, or a BadPair for a line it cannot read.
    """
    for number, text in read_lines(path, name, lines):
        if isinstance(text, FormatError):
            yield BadPair(str(number), text)
        elif text.strip() or not skip_blank:
            yield parse(text, number)


def parse_dash_links(text: str, *, source: str | None = None, line: int | None = None,
                     item: str | None = None) -> frozenset[Link]:
    """Parse jacana/MultiMWA link strings `i-j i-j ...` (0-based); `item` names the pair in errors."""
    links: set[Link] = set()
    if not isinstance(text, str):
        what = f" of pair {item!r}" if item is not None else ""
        raise FormatError(f"the links{what} are {type(text).__name__}, not a str 'i-j ...'", source=source, line=line)
    for part in text.split():
        match = _LINK.match(part)
        if not match:
            what = f" in pair {item!r}" if item is not None else ""
            raise FormatError(f"malformed link {part!r}{what} (expected i-j)", source=source, line=line)
        links.add((int(match.group(1)), int(match.group(2))))
    return frozenset(links)


def make_pair(pair_id: str, source_tokens: Iterable[str], target_tokens: Iterable[str],
              sure: Iterable[Link], possible: Iterable[Link], *, path: str | None = None,
              line: int = 0) -> AlignedPair:
    """Build an AlignedPair and check every link lies inside both sentences."""
    src, tgt = tuple(source_tokens), tuple(target_tokens)
    alignment = located_alignment(sure, possible, pair_id=pair_id, path=path, line=line)
    check_links(alignment, len(src), len(tgt), pair_id=pair_id, path=path, line=line)
    return AlignedPair(pair_id, src, tgt, alignment, line)


def located_alignment(sure: Iterable[Link], possible: Iterable[Link], *, pair_id: str, path: str | None,
                      line: int = 0) -> Alignment:
    """The Alignment of `sure` and `possible` links; a negative index is an error named by file,
    line and pair, as a link past the end is (Alignment alone names neither)."""
    try:
        return Alignment(frozenset(sure), frozenset(possible))
    except FormatError as exc:
        if exc.source is not None:
            raise
        raise type(exc)(f"pair {pair_id!r}: {exc}", source=path, line=line or None) from exc


def check_links(alignment: Alignment, source_length: int, target_length: int, *, pair_id: str,
                path: str | None, line: int | None) -> None:
    """Raise AlignmentIndexError naming file, line and pair when a link leaves a sentence."""
    for i, j in sorted(alignment.possible):
        if not (0 <= i < source_length and 0 <= j < target_length):
            raise AlignmentIndexError(
                f"pair {pair_id!r}: link {i}-{j} outside sentences of {source_length} and "
                f"{target_length} tokens",
                source=path,
                line=line or None,
            )
