"""Word alignments: sure and possible links between two token sequences, with I/O and algebra."""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real
from types import MappingProxyType
from typing import Any

from .errors import (
    AlignmentIndexError,
    ConfigurationError,
    FormatError,
    InputTypeError,
    shown_value,
)
from .sentence import Sentence
from .shown_text import unescape_entities, without_invisible

Link = tuple[int, int]

_LINK = re.compile(r"^(\d+)([-?p])(\d+)$")
#: A line of sure links only (the common case, as aligners write them): parsed without a match per link.
_SURE_LINE = re.compile(r"\d+-\d+(?:\s+\d+-\d+)*")


def _links(items: object, what: str = "links", owner: str = "Alignment") -> frozenset[Link]:
    """`items` as a frozenset of (int, int) links, each checked: two non-negative integer indices
    (Python or numpy ints; not bools or floats, which no sequence takes as an index).

    A frozenset of such links, as the aligners build, is returned as it is after one quick pass
    (about 2 µs for 25 links: nothing beside aligning a pair); anything else is rebuilt link by
    link. `owner` and `what` name the argument in messages (``Alignment sure``, ``symmetrize
    forward``). Errors: InputTypeError
    for a value that is not a collection of links (one str of Pharaoh text, None, a number);
    FormatError for an item that is not two integers; AlignmentIndexError for a negative or
    non-integer number."""
    if isinstance(items, frozenset):
        try:
            for i, j in items:
                if type(i) is not int or type(j) is not int or i < 0 or j < 0:
                    break
            else:
                return items
        except (TypeError, ValueError):  # an item that is not a pair: named below
            pass
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        hint = " (Alignment.from_pharaoh parses Pharaoh text such as '0-0 1?1')" if isinstance(items, str) else ""
        raise InputTypeError(f"{owner} {what}: expected a collection of (i, j) links, not "
                             f"{type(items).__name__} {shown_value(items)}{hint}")
    out = set()
    for item in items:
        try:
            i, j = item
            link = (_index(i), _index(j))
        except (TypeError, ValueError) as exc:
            if isinstance(item, tuple | list) and len(item) == 2 and all(isinstance(x, Real) for x in item):
                raise AlignmentIndexError(f"{owner} {what}: a link must be two non-negative integer "
                                          f"indices, got {shown_value(item)}") from exc
            raise FormatError(f"{owner} {what}: a link must be two integer indices, got "
                              f"{shown_value(item)}") from exc
        if link[0] < 0 or link[1] < 0:
            raise AlignmentIndexError(f"{owner} {what}: a link must be two non-negative integer indices, "
                                      f"got {shown_value(item)}")
        out.add(link)
    return frozenset(out)


def _index(value: object) -> int:
    """An index as `operator.index` reads it (ints, numpy ints), bools refused (TypeError)."""
    if isinstance(value, bool):
        raise TypeError("a bool is not an index")
    return operator.index(value)  # type: ignore[arg-type]  # any object: its TypeError is the test


def _confidence(value: object) -> float:
    """A link's confidence as read from JSON: a number in [0, 1] (ValueError otherwise)."""
    # not float(value) first: a JSON integer past float's range raised OverflowError
    if isinstance(value, bool) or not isinstance(value, Real) or value < 0.0 or not value <= 1.0:
        raise ValueError(f"a link's confidence must be a number in [0, 1], got {value!r}")
    return float(value)


#: The link sets an alignment offers (:meth:`Alignment.links`); "possible" is sure+possible,
#: possible links being a superset of sure ones.
LINK_SETS = ("sure", "sure+possible", "possible")

#: The longest phrase, in words, of the phrase pairs a paraphrase table is made of, by default:
#: consistent phrase pairs of an alignment (:mod:`paralign.phrases`, :mod:`paralign.phrase_counts`,
#: the pivot pipelines' ``PivotOptions.max_length``) and a lattice's sub-path pairs
#: (:meth:`paralign.lattice.Lattice.paraphrase_pairs`, `lattice paraphrases --max-length`). Here,
#: the lowest module all of them import, so that one number serves them.
MAX_PHRASE_LENGTH = 5


def check_link_set(which: str) -> None:
    """ConfigurationError for a name not in :data:`LINK_SETS`, listing every one (the message
    named two of the three)."""
    if which not in LINK_SETS:
        raise ConfigurationError(f"unknown link set {which!r}: use one of {', '.join(map(repr, LINK_SETS))}")


@dataclass(frozen=True, slots=True)
class Alignment:
    """Sure links and possible links (i in source, j in target, 0-based); sure ⊆ possible.

    `possible` always includes the sure links, as in Och & Ney's AER definition.
    """

    sure: frozenset[Link] = field(default_factory=frozenset)
    possible: frozenset[Link] = field(default_factory=frozenset)
    #: An aligner's confidence in [0, 1] for each of its links (None when it gives none, as the
    #: lexical aligners and gold files), read-only. Not part of equality: the links are the
    #: alignment.
    confidence: Mapping[Link, float] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        """Check every link (see :func:`_links`: a user may build one by hand, and a bad link
        would otherwise surface far away, as a wrong score or an IndexError in a signal), fold
        the sure links into `possible`, and check the confidences: one per link of the
        alignment, each a number in [0, 1]."""
        sure = _links(self.sure, "sure")
        possible = _links(self.possible, "possible")
        object.__setattr__(self, "sure", sure)
        object.__setattr__(self, "possible", possible | sure)
        if self.confidence is not None:  # a read-only copy: the value is frozen, its confidences too
            object.__setattr__(self, "confidence", MappingProxyType(self._checked_confidence()))

    def _checked_confidence(self) -> dict[Link, float]:
        """The confidences as a new dict; FormatError for one of a link the alignment lacks or
        one that is not a number in [0, 1], InputTypeError when they are not a mapping."""
        if not isinstance(self.confidence, Mapping):
            raise InputTypeError("Alignment confidence: expected a mapping of (i, j) links to numbers "
                                 f"in [0, 1], not {type(self.confidence).__name__} {shown_value(self.confidence)}")
        found = dict(self.confidence)
        for link, value in found.items():
            if link not in self.possible:
                raise FormatError(f"Alignment confidence: {shown_value(link)} is not a link of the alignment")
            try:
                _confidence(value)
            except ValueError as exc:
                raise FormatError(f"Alignment confidence of link {link[0]}-{link[1]}: {exc}") from None
        return found

    def __reduce__(self) -> tuple[type[Alignment], tuple[Any, ...]]:
        """Pickle (to Dask workers, caches) through the constructor: a read-only mapping has no
        pickle of its own."""
        confidence = None if self.confidence is None else dict(self.confidence)
        return type(self), (self.sure, self.possible, confidence)

    @classmethod
    def from_links(cls, sure: Iterable[Link] = (), possible: Iterable[Link] = ()) -> Alignment:
        """Build from any iterables of (i, j) pairs, checking each link (as the constructor does)."""
        return cls(_links(sure, "sure"), _links(possible, "possible"))

    # -- views -------------------------------------------------------------------------------
    @property
    def possible_only(self) -> frozenset[Link]:
        """Links that are possible but not sure."""
        return self.possible - self.sure

    def links(self, which: str = "sure") -> frozenset[Link]:
        """`sure` or `sure+possible` (alias `possible`): one of :data:`LINK_SETS`
        (:func:`check_link_set`)."""
        check_link_set(which)
        return self.sure if which == "sure" else self.possible

    def __len__(self) -> int:
        """Number of links, sure and possible together."""
        return len(self.possible)

    def __bool__(self) -> bool:
        """True when there is at least one link."""
        return bool(self.possible)

    def __iter__(self) -> Iterator[Link]:
        """All links (sure and possible), sorted."""
        return iter(sorted(self.possible))

    # -- algebra -----------------------------------------------------------------------------
    def transpose(self) -> Alignment:
        """Swap source and target."""
        confidence = None if self.confidence is None else {(j, i): c for (i, j), c in self.confidence.items()}
        return Alignment(
            frozenset((j, i) for i, j in self.sure), frozenset((j, i) for i, j in self.possible),
            confidence,
        )

    def union(self, other: Alignment) -> Alignment:
        """Links in either alignment (sure and possible sets combined separately)."""
        require_alignment(other, "union's other")  # a list was "'list' object has no attribute 'sure'"
        return Alignment(self.sure | other.sure, self.possible | other.possible)

    def intersection(self, other: Alignment) -> Alignment:
        """Links in both alignments (sure and possible sets intersected separately)."""
        require_alignment(other, "intersection's other")
        return Alignment(self.sure & other.sure, self.possible & other.possible)

    __or__ = union
    __and__ = intersection

    def validate(
        self, source_length: int, target_length: int, *, source: str | None = None, line: int | None = None
    ) -> Alignment:
        """Raise AlignmentIndexError if a link points outside a sentence; return self. A length
        that is not a whole number is an InputTypeError (None was "'<' not supported ...")."""
        for what, length in (("source_length", source_length), ("target_length", target_length)):
            if type(length) is not int and (isinstance(length, bool) or not isinstance(length, Integral)):
                raise InputTypeError(f"{what} must be a number of tokens (an int), not "
                                     f"{type(length).__name__} {shown_value(length)}")
        if self.possible:
            sources, targets = zip(*self.possible, strict=True)
            if min(sources) >= 0 and min(targets) >= 0 and max(sources) < source_length \
                    and max(targets) < target_length:
                return self
        for i, j in sorted(self.possible):  # the first link outside, in order, for the message
            if not (0 <= i < source_length and 0 <= j < target_length):
                raise AlignmentIndexError(
                    f"link {i}-{j} outside sentences of {source_length} and {target_length} tokens",
                    source=source,
                    line=line,
                )
        return self

    def __repr__(self) -> str:
        """The links in Pharaoh notation, sorted: ``Alignment.from_pharaoh('0-0 1-1 2?2')``."""
        return f"Alignment.from_pharaoh({self.to_pharaoh()!r})"

    # -- text I/O ----------------------------------------------------------------------------
    def to_pharaoh(self) -> str:
        """`i-j` for sure links, `i?j` for possible-only links, sorted."""
        parts = [(i, j, "-") for i, j in self.sure] + [(i, j, "?") for i, j in self.possible_only]
        return " ".join(f"{i}{sep}{j}" for i, j, sep in sorted(parts))

    @classmethod
    def from_pharaoh(cls, text: str, *, source: str | None = None, line: int | None = None) -> Alignment:
        """Parse `i-j` (sure), `i?j` or `ipj` (possible) links separated by white space."""
        if not isinstance(text, str):
            raise InputTypeError(f"Pharaoh links are a str such as '0-0 1?1', not {type(text).__name__}")
        if _SURE_LINE.fullmatch(text.strip()):
            numbers = list(map(int, text.replace("-", " ").split()))
            links = frozenset(zip(numbers[::2], numbers[1::2], strict=True))
            return cls(links, links)
        sure: set[Link] = set()
        possible: set[Link] = set()
        for item in text.split():
            match = _LINK.match(item)
            if not match:
                raise FormatError(f"malformed link {item!r} (expected i-j, i?j or ipj)", source=source, line=line)
            link = (int(match.group(1)), int(match.group(3)))
            (sure if match.group(2) == "-" else possible).add(link)
        return cls(frozenset(sure), frozenset(possible))

    def to_json(self) -> dict[str, list[list[int]] | list[list[float]]]:
        """Sorted `[i, j]` lists: `sure`, and `possible` with only the possible-only links; with
        an aligner's confidences, `confidence` as sorted `[i, j, c]` lists (read back by
        :meth:`from_json`)."""
        data: dict[str, Any] = {"sure": sorted(map(list, self.sure)), "possible": sorted(map(list, self.possible_only))}
        if self.confidence is not None:
            data["confidence"] = [[i, j, c] for (i, j), c in sorted(self.confidence.items())]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any] | str, *, source: str | None = None, line: int | None = None) -> Alignment:
        """From {"sure": [[i,j],...], "possible": [[i,j],...]} (possible may include the sure
        links) and, when present, "confidence": [[i,j,c],...]."""
        try:
            # any JSON value: one that is no object fails at .get (AttributeError, caught below)
            record: Any = json.loads(data) if isinstance(data, str) else data
            confidence = record.get("confidence")
            if confidence is not None:
                confidence = {link: _confidence(c) for *pair, c in confidence for link in _links([pair])}
            return cls(_links(record.get("sure", ())), _links(record.get("possible", ())), confidence)
        except (AttributeError, TypeError, ValueError) as exc:  # JSONDecodeError is a ValueError
            raise FormatError(f"malformed alignment JSON: {exc}", source=source, line=line) from exc


def require_alignment(value: object, what: str) -> None:
    """InputTypeError naming `what` unless `value` is an Alignment: for the records that hold
    one (a str of Pharaoh links or a set of pairs would fail far from where it was given)."""
    if not isinstance(value, Alignment):
        raise InputTypeError(f"{what} must be an Alignment (Alignment.from_pharaoh parses '0-0 1-1'), "
                             f"not {type(value).__name__} {shown_value(value)}")


# -- symmetrisation of two directional alignments ---------------------------------------------
_NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1))
_DIAG_NEIGHBOURS = _NEIGHBOURS + ((-1, -1), (-1, 1), (1, -1), (1, 1))


def symmetrize(forward: Iterable[Link], backward: Iterable[Link], method: str = "grow-diag-final-and") -> frozenset[Link]:
    """Combine source->target and target->source links (both as (src, tgt) pairs), Koehn style.

    Methods: intersection, union, grow-diag, grow-diag-final, grow-diag-final-and. Each link
    is checked as an Alignment's are (a negative, float or str index was returned as a link).
    """
    if isinstance(forward, str) or isinstance(backward, str):
        raise InputTypeError("symmetrize takes two sets of (i, j) links, not Pharaoh text: "
                             "Alignment.from_pharaoh(text).sure gives the links of a line")
    e2f, f2e = _links(forward, "forward", "symmetrize"), _links(backward, "backward", "symmetrize")
    inter, union = e2f & f2e, e2f | f2e
    if method == "intersection":
        return inter
    if method == "union":
        return union
    if method not in ("grow-diag", "grow-diag-final", "grow-diag-final-and"):
        raise ConfigurationError(
            f"unknown symmetrisation {method!r} (known: intersection, union, grow-diag, "
            "grow-diag-final, grow-diag-final-and)"
        )
    alignment = set(inter)
    aligned_src = {i for i, _ in alignment}
    aligned_tgt = {j for _, j in alignment}
    added = True
    while added:
        added = False
        for i, j in sorted(alignment):
            for di, dj in _DIAG_NEIGHBOURS:
                cand = (i + di, j + dj)
                if cand in union and cand not in alignment and (
                    cand[0] not in aligned_src or cand[1] not in aligned_tgt
                ):
                    alignment.add(cand)
                    aligned_src.add(cand[0])
                    aligned_tgt.add(cand[1])
                    added = True
    if method == "grow-diag":
        return frozenset(alignment)
    for directional in (e2f, f2e):
        for i, j in sorted(directional):
            if method == "grow-diag-final":
                ok = i not in aligned_src or j not in aligned_tgt
            else:
                ok = i not in aligned_src and j not in aligned_tgt
            if ok and (i, j) not in alignment:
                alignment.add((i, j))
                aligned_src.add(i)
                aligned_tgt.add(j)
    return frozenset(alignment)


@dataclass(frozen=True, slots=True)
class AlignedSentences:
    """Two annotated sentences and their word alignment: what every signal scores, and what
    :meth:`to_dict` shows as ``paralign align --format json`` does.

    >>> aligner = paralign.Aligner()
    >>> source, target = aligner.annotate(["The senator sponsored the bill.", "The senator drafted the bill."])
    >>> pair = paralign.AlignedSentences(source, target, aligner.align(source, target))
    >>> pair.to_dict()["pairs"][:3]
    [['The', 'The'], ['senator', 'senator'], ['the', 'the']]
    """

    source: Sentence
    target: Sentence
    alignment: Alignment
    #: the settings that made the alignment (:func:`paralign.aligners.signature.alignment_signature`
    #: of its aligner), when known: the library's batch (``align_pairs``) and ``paralign align`` set it
    signature: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        """InputTypeError unless `source` and `target` are Sentences (a str was taken, its
        characters counted as tokens by the link check, and failed in the first signal) and
        `alignment` an Alignment; AlignmentIndexError for a link outside the sentences (a signal
        would index past a token list, or score a link that is not there). A min/max over the
        links: nothing beside annotating the pair."""
        for what, value in (("source", self.source), ("target", self.target)):
            if not isinstance(value, Sentence):
                raise InputTypeError(f"AlignedSentences.{what} must be a Sentence (Aligner.annotate or "
                                     f"Sentence.plain makes one), not {type(value).__name__} {shown_value(value)}")
        require_alignment(self.alignment, "AlignedSentences.alignment")
        self.alignment.validate(len(self.source), len(self.target))
        if self.signature is not None and not isinstance(self.signature, str):  # to_dict wrote 3 as it was
            raise InputTypeError(f"AlignedSentences.signature must be a str (alignment_signature(aligner)) or None, "
                                 f"not {type(self.signature).__name__} {shown_value(self.signature)}")

    def to_dict(self) -> dict[str, Any]:
        """The pair as ``paralign align --format json`` shows it (which adds its input line and
        id): the tokens (``source``, ``target``), the links in Pharaoh notation (``alignment``),
        the sure links sorted (``links``) and the word pairs they link (``pairs``); with an
        aligner that gives them (the contextual preset) each link's ``confidence``, in the order
        of ``links``; last the ``signature`` of the settings that made it (None when unknown)."""
        links = sorted(self.alignment.sure)
        source, target = self.source.tokens, self.target.tokens
        record: dict[str, Any] = {
            "source": list(source), "target": list(target),
            "alignment": self.alignment.to_pharaoh(), "links": [list(x) for x in links],
            "pairs": [[source[i], target[j]] for i, j in links],
        }
        if self.alignment.confidence is not None:
            record["confidence"] = [round(self.alignment.confidence.get(link, 1.0), 4) for link in links]
        record["signature"] = self.signature
        return record


def is_blank(item: object) -> bool:
    """A sentence with no words: a text of white space and invisible characters only, written
    as they are or as HTML references (``&nbsp;``), which annotation reads so
    (:func:`~paralign.shown_text.without_invisible`, :func:`~paralign.shown_text.unescape_entities`);
    no token but blank ones; a Sentence of no token. Bytes are not a sentence (nor blank: their
    items are ints), so annotating them fails and says so, not "empty sentence"."""
    if isinstance(item, str):
        return not without_invisible(unescape_entities(item)).strip()
    if isinstance(item, bytes | bytearray):
        return False
    tokens = item.tokens if isinstance(item, Sentence) else item
    if not isinstance(tokens, Sequence):
        return False  # not a sentence at all: annotating it fails and says so
    return not any(isinstance(token, str) and token.strip() for token in tokens)


#: An alignment function: two annotated sentences in, their word alignment out.
AlignFunction = Callable[[Sentence, Sentence], Alignment]
#: What :func:`paralign.get_aligner` returns: an :data:`AlignFunction` that also takes texts and
#: token lists, annotating them first (so it can be given wherever an AlignFunction can).
TextAlignFunction = Callable[[Sentence | str | Sequence[str], Sentence | str | Sequence[str]], Alignment]
