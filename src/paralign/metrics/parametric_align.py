"""ParaMetric's AlignPrec / AlignRecall: a system's alignments against the gold, by phrase length.

The non-identical consistent phrase pairs (PP, see `paralign.phrases`) of a system's
alignments against those of the gold alignments, the intersection summed over the corpus and
divided by the summed system (precision) or gold (recall) counts; and the pieces both
ParaMetric scores share (phrase-pair spans, counts by length bound, skipped-pair warnings).
:mod:`paralign.metrics.parametric` describes both scores and re-exports every name here.

Not for: the paraphrase-table scores (LB-Precision / Rel-Recall, in
:mod:`paralign.metrics.parametric`), choosing or building an aligner, or text tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from ..alignment import Alignment
from ..corpora.base import BadPair, PairOrBad, gold_pairs
from ..corpora.base import with_sentences as gold_with_sentences
from ..errors import (
    AlignmentIndexError,
    EmptyScoringError,
    InputTypeError,
    MismatchError,
    check_count,
    counted,
    listed,
    shown_value,
)
from ..phrases import phrase_spans
from ..signature import file_name_part, join_signature, setting_value, short_hash
from ..workers import Progress
from . import f_measure
from .alignment_fit import misread_warnings, outside_hint
from .alignment_scores import SkippedPair, blank_tail_hint

SpanPair = tuple[int, int, int, int]


class AlignTokens(Protocol):
    """Aligns pairs of token lists, in order (``Aligner.align_many`` fits): an aligner that
    `align_scores_files` runs on the gold pairs instead of reading a system file."""

    def __call__(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], *, workers: int,
                 progress: Progress | None) -> list[Alignment]: ...


class PairLike(Protocol):
    """What the scorers need from a pair (`paralign.corpora.AlignedPair` fits), read only."""

    @property
    def id(self) -> str: ...
    @property
    def source(self) -> tuple[str, ...]: ...
    @property
    def target(self) -> tuple[str, ...]: ...
    @property
    def alignment(self) -> Alignment: ...


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def _cumulate(histogram: Counter[int], max_length: int) -> list[int]:
    """Counts of items with length <= n for n = 1..max_length, from a histogram by length."""
    out, total = [], 0
    for n in range(1, max_length + 1):
        total += histogram.get(n, 0)
        out.append(total)
    return out


def _check_max_length(max_length: int) -> None:
    check_count(max_length, "max_length")  # NaN or 2.5 was a TypeError from range() deep inside


#: The default length bound (words on either side): a result has at least its rows.
DEFAULT_MAX_LENGTH = 5


def length_bound(max_length: int, longest: int) -> int:
    """The rows by length a result has: `max_length`, or for a bound past the `longest` phrase
    the data can hold (no limit: no phrase pair is that long) that length, though never under
    the default's :data:`DEFAULT_MAX_LENGTH` rows. The rows past the longest only repeat its
    row, and a bound like 10**20 built one row per length for ever; any bound up to the
    longest, or up to the default, gives the rows it gave before."""
    return min(max_length, max(longest, DEFAULT_MAX_LENGTH))


# -- AlignPrec / AlignRecall ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AlignCounts:
    """Phrase-pair counts for one length bound: system, gold and their intersection."""

    matched: int
    system: int
    gold: int

    @property
    def precision(self) -> float | None:
        return _ratio(self.matched, self.system)

    @property
    def recall(self) -> float | None:
        return _ratio(self.matched, self.gold)

    @property
    def f1(self) -> float | None:
        """None when precision or recall is undefined (no system or no gold pair); 0 when both
        are 0 (pairs on both sides, none matched), as :func:`~paralign.metrics.f_measure`
        and score-alignments give it."""
        return f_measure(self.precision, self.recall)

    def to_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "matched": self.matched, "system": self.system, "gold": self.gold}


@dataclass(frozen=True, slots=True)
class AlignScores:
    """AlignPrec/AlignRecall by length bound (1..max_length), plus what was skipped and why."""

    by_length: Mapping[int, AlignCounts]
    max_length: int
    pairs: int
    skipped: int = 0
    warnings: tuple[str, ...] = ()
    skipped_rows: tuple[SkippedPair, ...] = ()
    #: The settings that made these numbers (:func:`align_signature`); None when not known.
    signature: str | None = None

    @property
    def overall(self) -> AlignCounts:
        return self.by_length[self.max_length]

    @property
    def precision(self) -> float | None:
        return self.overall.precision

    @property
    def recall(self) -> float | None:
        return self.overall.recall

    def to_dict(self) -> dict:
        signed = {} if self.signature is None else {"signature": self.signature}
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.overall.f1,
            "matched": self.overall.matched,
            "system": self.overall.system,
            "gold": self.overall.gold,
            "pairs": self.pairs,
            "skipped": self.skipped,
            "max_length": self.max_length,
            "by_length": {str(n): c.to_dict() for n, c in sorted(self.by_length.items())},
            "warnings": list(self.warnings),
            "skipped_rows": [row.to_dict() for row in self.skipped_rows],
            **signed,
        }


def nonidentical_spans(
    alignment: Alignment, source: Sequence[str], target: Sequence[str], max_length: int, links: str,
    tight: bool = False,
) -> dict[SpanPair, int]:
    """PP of one pair without the identical pairs (case-insensitive): span pair -> its length."""
    src = [t.lower() for t in source]
    tgt = [t.lower() for t in target]
    out: dict[SpanPair, int] = {}
    for s1, s2, t1, t2 in phrase_spans(alignment, len(src), len(tgt), max_length, links=links,
                                           tight=tight):
        if src[s1:s2] != tgt[t1:t2]:
            out[(s1, s2, t1, t2)] = max(s2 - s1, t2 - t1)
    return out


def _same_text(a: Sequence[str], b: Sequence[str]) -> bool:
    return len(a) == len(b) and all(x.lower() == y.lower() for x, y in zip(a, b, strict=True))


def with_sentences(item: PairOrBad, name: str | None = None) -> PairOrBad:
    """`item`, or a BadPair in its place when it has no sentences (a Pharaoh line: links only) or
    one side empty: ParaMetric's phrase pairs are spans of the gold's tokens, compared as texts,
    so its gold needs both, as an aligner's gold does (one rule: :func:`paralign.corpora.base.with_sentences`)."""
    return gold_with_sentences(item, "ParaMetric's phrase pairs need the gold's tokens of both", name)


def _system_alignment(
    gold: PairLike | BadPair, system: PairLike | Alignment | BadPair, index: int,
    system_name: str | None = None,
) -> Alignment | SkippedPair:
    """The system alignment for a gold pair, or the record of why it cannot be scored."""
    if isinstance(gold, BadPair):
        return SkippedPair.of(index + 1, gold.error, gold.id)
    if isinstance(system, BadPair):
        return SkippedPair.of(index + 1, system.error, gold.id)
    line = getattr(system, "line", None) or None  # a bare Alignment has none
    if isinstance(system, Alignment):
        alignment = system
    elif not isinstance(getattr(system, "alignment", None), Alignment):
        raise InputTypeError(f"system: item {index + 1} is {type(system).__name__} {shown_value(system)}, not a "
                             "pair or an Alignment (Alignment.from_pharaoh parses '0-0 1-1')")
    else:
        alignment = system.alignment
        has_text = bool(system.source or system.target)  # pharaoh outputs carry no tokens
        if has_text and not (
            _same_text(gold.source, system.source) and _same_text(gold.target, system.target)
        ):
            return SkippedPair(
                index + 1,
                f"system pair {system.id!r} has different texts "
                f"({' '.join(system.source)[:60]!r} / {' '.join(system.target)[:60]!r})",
                system_name, line, gold.id,
            )
    try:
        alignment.validate(len(gold.source), len(gold.target))
    except AlignmentIndexError as exc:  # with score-alignments' hint of a 1-based or swapped file
        hint = outside_hint(alignment.possible, len(gold.source), len(gold.target))
        return SkippedPair(
            index + 1, f"system alignment does not fit the gold sentences: {exc}{hint}", system_name,
            line, gold.id,
        )
    return alignment


def possible_part(gold_path: str | Path, links: str, gold_name: str | None = None) -> str | None:
    """The ``possible`` part of a ParaMetric signature: where the gold's possible links came from
    (:func:`~paralign.corpora.alignments.possible_links_source`) for ``sure+possible``, which
    reads them; None (no part) for ``sure``, whose phrase pairs read the sure links alone, unless
    the gold's sure links themselves came from a companion file (a sure+poss gold completed by
    its ``.sure.json``: :func:`~paralign.corpora.alignments.sure_links_elsewhere`), which then
    changes the numbers and is signed as before.

    Why: ``--links sure`` signed the companion's name and hash, so the same gold with another
    ``gold.sure+poss.json`` beside it, or none, gave the same numbers (P 70.7, R 76.3 on
    examples/alignment) under three signatures."""
    from ..corpora.alignments import possible_links_source, sure_links_elsewhere

    if links == "sure" and not sure_links_elsewhere(gold_path, name=gold_name):
        return None
    return possible_links_source(gold_path, name=gold_name)


def possible_warnings(gold: Sequence[PairLike | BadPair], links: str, gold_name: str) -> tuple[str, ...]:
    """The warning of scoring against sure+possible links a gold that has none possible (its sure
    links only scored, signed ``gold:sure+possible``), as score-alignments warns; () otherwise."""
    if links != "sure+possible" or any(g.alignment.possible_only for g in gold if not isinstance(g, BadPair)):
        return ()
    return (f"{gold_name}: no possible links in the gold (only sure ones): scoring against sure+possible "
            "scores its sure links only",)


def _warning(skipped: SkippedPair) -> str:
    """`pair N (gold id ...): [file:line: ]reason; skipped`."""
    name = f"pair {skipped.pair}" + (f" (gold id {skipped.id!r})" if skipped.id is not None else "")
    return f"{name}: {skipped.where}{skipped.reason}; skipped"


def names_a_skipped_item(warning: str) -> bool:
    """Whether one of a ParaMetric result's `warnings` is about one item it left out: a pair
    (:func:`_warning`: `pair N ...; skipped`) or a group of too few distinct sentences
    (`group 'K' ...; skipped`, :func:`~paralign.metrics.parametric.table_scores`), not about a
    file or the run as a whole (a gold with no possible links, a system read 1-based, how many
    groups had no hub sentence). The command line shows the first few of a run's items and
    counts the rest, but every note; the results keep one list, in the order they were met."""
    return warning.startswith(("pair ", "group ")) and warning.endswith("; skipped")


def align_scores(
    gold: Sequence[PairLike | BadPair],
    system: Sequence[PairLike | Alignment | BadPair],
    max_length: int = DEFAULT_MAX_LENGTH,
    *,
    links: str = "sure",
    system_links: str | None = None,
    tight: bool = False,
    system_name: str | None = None,
    gold_name: str | None = None,
) -> AlignScores:
    """AlignPrec and AlignRecall of `system` against `gold`, joined by position.

    `system` items are pairs (texts compared with the gold case-insensitively; a pair whose
    texts differ, or whose links fall outside the gold sentences, is skipped with a warning
    naming it) or bare Alignments.  A `BadPair` on either side (an item `corpora.read_pairs`
    could not read) skips that position the same way.  `links` picks the gold link set
    ("sure" or "sure+possible"); `system_links` the system's (default: the same).
    `tight=True` scores only phrase pairs with aligned edge words (a diagnostic; see
    `paralign.phrases`).  `system_name` (the system file) is named in the skipped pairs'
    records, and in the warning, first of `warnings`, of a system whose links match the gold's
    more often read 1 lower or swapped (1-based, target-source) than as written, as
    score-alignments warns.  Different pair counts raise MismatchError (naming `system_name` and `gold_name`).
    A `max_length` past the longest gold sentence is no limit: the result's ``max_length`` (and
    rows) stop there, or at :data:`DEFAULT_MAX_LENGTH` (:func:`length_bound`).
    """
    _check_max_length(max_length)
    gold = [with_sentences(item) for item in gold_pairs(gold, "gold")]
    system = listed(system, "system must be a list of pairs or Alignments")  # each checked as it is scored
    if len(gold) != len(system):
        raise MismatchError(f"{system_name or 'the system output'} has {counted(len(system), 'pair')} but "
                            f"{gold_name or 'the gold'} has {len(gold)}{blank_tail_hint(system[len(gold):])}")
    max_length = length_bound(max_length, max((max(len(g.source), len(g.target)) for g in gold
                                               if not isinstance(g, BadPair)), default=0))
    system_links = system_links or links
    matched: Counter[int] = Counter()
    sys_count: Counter[int] = Counter()
    gold_count: Counter[int] = Counter()
    skipped: list[SkippedPair] = []
    kept: list[tuple[Alignment, Alignment]] = []  # (gold, system) of the pairs scored
    for index, (g, s) in enumerate(zip(gold, system, strict=True)):
        alignment = _system_alignment(g, s, index, system_name)
        if isinstance(alignment, SkippedPair):
            skipped.append(alignment)
            continue
        assert not isinstance(g, BadPair)  # a bad gold item is skipped above
        gold_pp = nonidentical_spans(g.alignment, g.source, g.target, max_length, links, tight)
        sys_pp = nonidentical_spans(alignment, g.source, g.target, max_length, system_links, tight)
        gold_count.update(gold_pp.values())
        sys_count.update(sys_pp.values())
        matched.update(length for span, length in sys_pp.items() if span in gold_pp)
        kept.append((g.alignment, alignment))
    m, s_, g_ = (_cumulate(c, max_length) for c in (matched, sys_count, gold_count))
    by_length = {n: AlignCounts(m[n - 1], s_[n - 1], g_[n - 1]) for n in range(1, max_length + 1)}
    misread = misread_warnings(kept, system_name or "the system output")  # first: never cut off
    return AlignScores(by_length, max_length, len(kept), len(gold) - len(kept),
                       misread + tuple(_warning(k) for k in skipped), tuple(skipped))


# -- file-level entry point (what the CLI calls) ------------------------------------------------
def align_scores_files(
    gold_path: str | Path,
    system: str | Path | AlignTokens,
    max_length: int = DEFAULT_MAX_LENGTH,
    *,
    links: str = "sure",
    tight: bool = False,
    workers: int = 1,
    progress: Progress | None = None,
    gold_name: str | None = None,
    system_name: str | None = None,
    system_parts: Mapping[str, object] | None = None,
) -> AlignScores:
    """AlignPrec/AlignRecall of a system file (any alignment format) or of an aligner.

    A system file is read alone (a jacana companion ``*.sure+poss.json`` completes a gold, not a
    system: :func:`paralign.metrics.alignment_scores.score_files` reads it so too).
    An aligner (`system` an :class:`AlignTokens`, e.g. ``Aligner().align_many``) aligns the gold
    pairs' token lists, in ``workers`` processes with ``progress``; a bad gold item is not aligned.
    A bad item in either file (or a gold item of links only, without its sentences: a Pharaoh
    line) skips that pair on both sides, with a warning naming file and line; EmptyScoringError when no pair is left to score.  `gold_name` and `system_name` are
    what messages and the result call the files (default: their paths; e.g. `<stdin>`); for an
    aligner, `system_name` is only what the EmptyScoringError message calls it.

    The result carries its :func:`align_signature`: a file is named by its :func:`system_id`
    (from `system_name` when given); an aligner by `system_parts` (what its
    caller knows of it, e.g. :func:`paralign.aligners.signature.aligner_signature_parts`: no
    metric knows an aligner), else by its qualified name.
    """
    from ..corpora import read_pairs

    gold_name = str(gold_path) if gold_name is None else gold_name
    gold = [with_sentences(item, gold_name) for item in read_pairs(gold_path, name=gold_name)]
    outputs: list[PairLike | Alignment | BadPair]
    if callable(system):
        good = [(g.source, g.target) for g in gold if not isinstance(g, BadPair)]
        aligned = iter(system(good, workers=workers, progress=progress))
        outputs = [g if isinstance(g, BadPair) else next(aligned) for g in gold]
        shown = system_name or getattr(system, "__qualname__", type(system).__name__)
        system_name = None
        system_parts = {"system": shown} if system_parts is None else system_parts
    else:
        system_name = str(system) if system_name is None else system_name
        outputs = list(read_pairs(system, possible_path=None, name=system_name))  # alone: no gold's companion
        shown = system_name or str(system)
        system_parts = {"system": system_id(system_name, outputs)}
    result = align_scores(gold, outputs, max_length, links=links, tight=tight,
                          system_name=system_name, gold_name=gold_name)
    if not result.pairs:
        first = f" (first: {result.warnings[0]})" if result.warnings else ""
        raise EmptyScoringError(f"{gold_name} / {shown}: no pair could be scored{first}")
    return replace(result, warnings=possible_warnings(gold, links, gold_name) + result.warnings, signature=align_signature(
        system_parts, links=links, max_length=result.max_length, tight=tight,
        possible=possible_part(gold_path, links, gold_name)))


def system_id(name: str, items: Sequence[PairLike | Alignment | BadPair]) -> str:
    """A system file as a signature names it: the basename of `name` (``<stdin>`` for a copy of
    stdin) and a hash of what was read from it, in order (each pair's tokens and links, a mark
    for an unreadable item), as ParaEval hashes a table's rows: any changed link or token
    changes it, how the file is written (a BOM, CRLF line ends, gzip) does not
    (``out.jsonl#1a2b3c4d``); ConfigurationError naming the file when its name holds ``|``
    (:func:`paralign.signature.file_name_part`)."""
    return f"{file_name_part(name, 'system:FILE#HASH')}#{short_hash(_read_bytes(item) for item in items)}"


def _read_bytes(item: PairLike | Alignment | BadPair) -> bytes:
    if isinstance(item, BadPair):
        return b"!\n"
    if isinstance(item, Alignment):
        return f"{item.to_pharaoh()}\n".encode()
    return f"{' '.join(item.source)}\t{' '.join(item.target)}\t{item.alignment.to_pharaoh()}\n".encode()


def align_signature(system: Mapping[str, object], *, links: str, max_length: int, tight: bool,
                    possible: str | None = "gold") -> str:
    """The signature of AlignPrec/AlignRecall: what made the system's alignments (`system`: a
    file's :func:`system_id` as ``system``, or an aligner's parts), then every setting that
    changes a number: ``gold`` (the gold link set, as evaluate-aligner's signature names it;
    ``links`` is the contextual aligner's link model), ``possible`` (where the gold's possible
    links came from: :func:`possible_part`; None: left out, as for ``sure``), ``maxlen`` (the
    longest phrase), ``tight``; an aligner's ``stopwords`` list and ``spacy`` model and paralign's version last
    (``system:out.jsonl#1a2b3c4d|gold:sure|possible:gold|maxlen:5|tight:no|version:X``)."""
    parts = dict(system)
    environment = {key: parts.pop(key, None) for key in ("stopwords", "spacy")}
    return join_signature({**parts, "gold": links, "possible": possible, "maxlen": max_length,
                           "tight": setting_value(tight), **environment})
