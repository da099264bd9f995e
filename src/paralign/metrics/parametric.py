"""ParaMetric (Callison-Burch, Cohn & Lapata 2008): score aligners and paraphrase tables.

Two kinds of score, both broken down by phrase length ("Length = 1", "Length <= 2", ...):

* **AlignPrec / AlignRecall** (`align_scores`): the non-identical consistent phrase pairs (PP,
  see `paralign.phrases`) of a system's alignments against those of the gold alignments, the
  intersection summed over the corpus and divided by the summed system (precision) or gold
  (recall) counts.  Phrase pairs are compared by their spans, so a pair only matches in the
  sentence pair it came from.
* **LB-Precision / Rel-Recall** (`table_scores`): a paraphrase source's paraphrases of the
  phrases of the test sentences against reference paraphrase sets built from groups of aligned
  equivalent sentences, as corpus-level counts (the paper's 156/230 = .68, 156/14,078 = .01).

Length of a phrase pair (both scores): the word count of its LONGER side.  A pair is counted
under "Length <= n" when its length is <= n, i.e. when both sides have at most n words.

Counting units for the table scores (see `table_scores`): the paper sums over <s, G> in C and
p in s.  Here s ranges over the DISTINCT sentences (lower-cased token tuples) of a group G (a
sentence that occurs in several pairs of its group is one unit), and p over the DISTINCT
phrase texts (lower-cased, up to `max_length` words) of s.  For each unit (G, s, p):

* reference = para_REF(p, s, G): the union, over the group's pairs that contain s (on either
  side), of the texts p2 of the non-identical phrase pairs (p, p2) whose s-side is p;
* posited = para_M(p): the source's paraphrases of p (normalised, != p), each at most
  `max_length` words (longer ones are counted in `beyond_max_length` and reported, not scored);
* correct = posited ∩ reference.

Each of these is a set, so a paraphrase is counted once per (group, sentence, phrase) however
many pairs or occurrences yield it.  Variants: `only_referenced=True` counts posited paraphrases
only for phrases p that have at least one reference paraphrase (precision where the reference has
an opinion); `tight=True` builds the reference from aligned-edge phrase pairs only (at most
one paraphrase per pair and phrase occurrence, as the paper states); `sentences="hub"` keeps, as the paper's corpus does (the first translation aligned
to the ten others), only the sentences that occur in EVERY pair of their group (both sentences
of a one-pair group); groups without such a sentence are then left out and counted in the
result's `skipped_groups` (reported in one summary warning).

Not for: choosing or building an aligner (`align_scores_files` takes one; the CLI turns
`--system sultan` into it) or text tables (`paralign.cli._render`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from .._moved import moved_names
from ..alignment import Alignment
from ..corpora.base import BadPair
from ..errors import (
    AlignmentIndexError,
    ConfigurationError,
    EmptyScoringError,
    InputTypeError,
    MismatchError,
)
from ..paraphrases import ParaphraseSource, check_source, normalize_phrase
from ..phrases import phrase_spans
from ..workers import Progress
from . import f_measure
from .alignment_scores import SkippedPair

SpanPair = tuple[int, int, int, int]


class AlignTokens(Protocol):
    """Aligns pairs of token lists, in order (``Aligner.align_many`` fits): an aligner that
    `align_scores_files` runs on the gold pairs instead of reading a system file."""

    def __call__(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], *, workers: int,
                 progress: Progress | None) -> list[Alignment]: ...


class PairLike(Protocol):
    """What the scorers need from a pair (`paralign.corpora.AlignedPair` fits)."""

    id: str
    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: Alignment


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
    if max_length < 1:
        raise ConfigurationError(f"max_length must be >= 1, got {max_length}")


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
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None  # undefined, not 0, when nothing matched at all
        return f_measure(p, r)

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


def _system_alignment(
    gold: PairLike | BadPair, system: PairLike | Alignment | BadPair, index: int,
    system_name: str | None = None,
) -> Alignment | SkippedPair:
    """The system alignment for a gold pair, or the record of why it cannot be scored."""
    if isinstance(gold, BadPair):
        return SkippedPair.of(index + 1, gold.error)
    if isinstance(system, BadPair):
        return SkippedPair.of(index + 1, system.error, gold.id)
    line = getattr(system, "line", None) or None  # a bare Alignment has none
    if isinstance(system, Alignment):
        alignment = system
    elif not isinstance(getattr(system, "alignment", None), Alignment):
        raise InputTypeError(f"system: item {index + 1} is {type(system).__name__} {system!r:.40}, not a "
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
    except AlignmentIndexError as exc:
        return SkippedPair(
            index + 1, f"system alignment does not fit the gold sentences: {exc}", system_name,
            line, gold.id,
        )
    return alignment


def _warning(skipped: SkippedPair) -> str:
    """`pair N (gold id ...): [file:line: ]reason; skipped`."""
    name = f"pair {skipped.pair}" + (f" (gold id {skipped.id!r})" if skipped.id is not None else "")
    return f"{name}: {skipped.where}{skipped.reason}; skipped"


def align_scores(
    gold: Sequence[PairLike | BadPair],
    system: Sequence[PairLike | Alignment | BadPair],
    max_length: int = 5,
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
    records.  Different pair counts raise MismatchError (naming `system_name` and `gold_name`).
    """
    _check_max_length(max_length)
    if len(gold) != len(system):
        raise MismatchError(f"{system_name or 'the system output'} has {len(system)} pairs but "
                            f"{gold_name or 'the gold'} has {len(gold)}")
    system_links = system_links or links
    matched: Counter[int] = Counter()
    sys_count: Counter[int] = Counter()
    gold_count: Counter[int] = Counter()
    skipped: list[SkippedPair] = []
    scored = 0
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
        scored += 1
    m, s_, g_ = (_cumulate(c, max_length) for c in (matched, sys_count, gold_count))
    by_length = {n: AlignCounts(m[n - 1], s_[n - 1], g_[n - 1]) for n in range(1, max_length + 1)}
    return AlignScores(by_length, max_length, scored, len(gold) - scored,
                       tuple(_warning(k) for k in skipped), tuple(skipped))


# -- reference paraphrase sets -------------------------------------------------------------------
Sentence = tuple[str, ...]
References = dict[Sentence, dict[str, set[str]]]


def _lower(tokens: Iterable[str]) -> Sentence:
    return tuple(t.lower() for t in tokens)


def group_sentences(pairs: Iterable[PairLike]) -> list[Sentence]:
    """The distinct sentences (lower-cased token tuples) of a group, in order of appearance."""
    seen: dict[Sentence, None] = {}
    for pair in pairs:
        for tokens in (pair.source, pair.target):
            seen.setdefault(_lower(tokens), None)
    return list(seen)


def hub_sentences(pairs: Sequence[PairLike]) -> list[Sentence]:
    """The group's sentences that occur in every one of its pairs (the paper's key sentence)."""
    return [s for s in group_sentences(pairs)
            if all(s in (_lower(p.source), _lower(p.target)) for p in pairs)]


def reference_paraphrases(
    pairs: Iterable[PairLike], max_length: int = 5, *, links: str = "sure", tight: bool = False
) -> References:
    """para_REF for one group: sentence -> phrase -> set of reference paraphrases (texts).

    The union, over the group's pairs containing the sentence, of the non-identical consistent
    phrase pairs whose side in that sentence is the phrase.  Texts are lower-cased.
    `tight=True` uses only phrase pairs with aligned edge words, so that a phrase occurrence has
    at most one paraphrase per pair (the paper: "the maximum size of this set is the number of
    sentence pairs in G").
    """
    refs: References = {}
    for pair in pairs:
        src, tgt = _lower(pair.source), _lower(pair.target)
        src_refs = refs.setdefault(src, {})
        tgt_refs = refs.setdefault(tgt, {})
        for s1, s2, t1, t2 in nonidentical_spans(pair.alignment, src, tgt, max_length, links, tight):
            p, q = " ".join(src[s1:s2]), " ".join(tgt[t1:t2])
            src_refs.setdefault(p, set()).add(q)
            tgt_refs.setdefault(q, set()).add(p)
    return refs


def sentence_phrases(tokens: Sequence[str], max_length: int) -> set[str]:
    """Distinct phrase texts (lower-cased, 1..max_length words) of a sentence."""
    low = [t.lower() for t in tokens]
    return {
        " ".join(low[i:j]) for i in range(len(low)) for j in range(i + 1, min(i + max_length, len(low)) + 1)
    }


# -- LB-Precision / Rel-Recall -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TableCounts:
    """Posited, correct and reference paraphrase counts for one length bound."""

    posited: int
    correct: int
    reference: int

    @property
    def lb_precision(self) -> float | None:
        return _ratio(self.correct, self.posited)

    @property
    def rel_recall(self) -> float | None:
        return _ratio(self.correct, self.reference)

    def to_dict(self) -> dict:
        return {"lb_precision": self.lb_precision, "rel_recall": self.rel_recall,
                "posited": self.posited, "correct": self.correct, "reference": self.reference}


@dataclass(frozen=True, slots=True)
class TableScores:
    """LB-Precision and Rel-Recall of a paraphrase source, by length bound (1..max_length)."""

    source: str
    by_length: Mapping[int, TableCounts]
    max_length: int
    groups: int
    sentences: int
    skipped_groups: int = 0
    beyond_max_length: int = 0
    only_referenced: bool = False
    sentence_mode: str = "all"
    tight: bool = False
    warnings: tuple[str, ...] = field(default=())
    skipped_rows: tuple[SkippedPair, ...] = ()  #: bad gold items, left out (see table_scores_files)

    @property
    def overall(self) -> TableCounts:
        return self.by_length[self.max_length]

    @property
    def lb_precision(self) -> float | None:
        return self.overall.lb_precision

    @property
    def rel_recall(self) -> float | None:
        return self.overall.rel_recall

    def to_dict(self) -> dict:
        return {
            "source": self.source,
            "lb_precision": self.lb_precision,
            "rel_recall": self.rel_recall,
            "posited": self.overall.posited,
            "correct": self.overall.correct,
            "reference": self.overall.reference,
            "groups": self.groups,
            "sentences": self.sentences,
            "skipped_groups": self.skipped_groups,
            "beyond_max_length": self.beyond_max_length,
            "only_referenced": self.only_referenced,
            "sentence_mode": self.sentence_mode,
            "tight": self.tight,
            "max_length": self.max_length,
            "by_length": {str(n): c.to_dict() for n, c in sorted(self.by_length.items())},
            "warnings": list(self.warnings),
            "skipped_rows": [row.to_dict() for row in self.skipped_rows],
        }


class _CachedSource:
    """Memoised, normalised lookups: phrase -> ((paraphrase, word count), ...)."""

    def __init__(self, source: ParaphraseSource) -> None:
        self.source = source
        self.cache: dict[str, tuple[tuple[str, int], ...]] = {}

    def __call__(self, phrase: str) -> tuple[tuple[str, int], ...]:
        hit = self.cache.get(phrase)
        if hit is None:
            found = {normalize_phrase(q) for q in self.source.paraphrases(phrase)}
            found.discard(phrase)
            found.discard("")
            hit = tuple((q, len(q.split())) for q in sorted(found))
            self.cache[phrase] = hit
        return hit


def table_scores(
    groups: Mapping[str, Sequence[PairLike]],
    source: ParaphraseSource,
    max_length: int = 5,
    *,
    links: str = "sure",
    only_referenced: bool = False,
    sentences: str = "all",
    tight: bool = False,
) -> TableScores:
    """LB-Precision and Rel-Recall of `source` against the groups' reference paraphrase sets.

    `tight=True` builds the reference sets from aligned-edge phrase pairs only (see
    `reference_paraphrases`).

    Counting as in the module docstring.  A group with fewer than two distinct sentences has no
    reference paraphrases: it is skipped with a warning naming it.
    """
    _check_max_length(max_length)
    if sentences not in ("all", "hub"):
        raise ConfigurationError(f"sentences must be 'all' or 'hub', got {sentences!r}")
    if not isinstance(groups, Mapping):  # load_groups' form, not load_pairs'
        raise InputTypeError(f"groups must map a group id to its pairs (load_groups), not {type(groups).__name__}")
    lookup = _CachedSource(check_source(source))
    posited: Counter[int] = Counter()
    correct: Counter[int] = Counter()
    reference: Counter[int] = Counter()
    warnings: list[str] = []
    beyond = units = skipped = no_hub = 0
    for key, pairs in groups.items():
        distinct = group_sentences(pairs)
        if len(distinct) < 2:
            ids = ", ".join(repr(p.id) for p in pairs) or "none"
            warnings.append(
                f"group {key!r} has {len(distinct)} distinct sentence(s) (pairs {ids}): "
                "no reference paraphrases; skipped"
            )
            skipped += 1
            continue
        if sentences == "hub":
            distinct = hub_sentences(pairs)
            if not distinct:
                no_hub += 1
                skipped += 1
                continue
        refs = reference_paraphrases(pairs, max_length, links=links, tight=tight)
        for sentence in distinct:
            units += 1
            sent_refs = refs.get(sentence, {})
            for p, ref_set in sent_refs.items():
                p_len = len(p.split())
                reference.update(max(p_len, len(q.split())) for q in ref_set)
            for p in sentence_phrases(sentence, max_length):
                ref_set = sent_refs.get(p)
                if only_referenced and not ref_set:
                    continue
                p_len = len(p.split())
                for q, q_len in lookup(p):
                    if q_len > max_length:
                        beyond += 1
                        continue
                    length = max(p_len, q_len)
                    posited[length] += 1
                    if ref_set and q in ref_set:
                        correct[length] += 1
    if no_hub:
        warnings.append(f"{no_hub} groups have no sentence common to all their pairs; skipped")
    if beyond:
        warnings.append(
            f"{beyond} posited paraphrases longer than {max_length} words were not scored"
        )
    c, p_, r = (_cumulate(x, max_length) for x in (correct, posited, reference))
    by_length = {n: TableCounts(p_[n - 1], c[n - 1], r[n - 1]) for n in range(1, max_length + 1)}
    return TableScores(
        getattr(source, "name", type(source).__name__), by_length, max_length,
        len(groups) - skipped, units, skipped, beyond, only_referenced, sentences, tight,
        tuple(warnings),
    )


# -- file-level entry points (what the CLI calls) ------------------------------------------------
def align_scores_files(
    gold_path: str | Path,
    system: str | Path | AlignTokens,
    max_length: int = 5,
    *,
    links: str = "sure",
    tight: bool = False,
    workers: int = 1,
    progress: Progress | None = None,
    gold_name: str | None = None,
    system_name: str | None = None,
) -> AlignScores:
    """AlignPrec/AlignRecall of a system file (any alignment format) or of an aligner.

    An aligner (`system` an :class:`AlignTokens`, e.g. ``Aligner().align_many``) aligns the gold
    pairs' token lists, in ``workers`` processes with ``progress``; a bad gold item is not aligned.
    A bad item in either file skips that pair on both sides, with a warning naming file and
    line; EmptyScoringError when no pair is left to score.  `gold_name` and `system_name` are
    what messages and the result call the files (default: their paths; e.g. `<stdin>`); for an
    aligner, `system_name` is only what the EmptyScoringError message calls it.
    """
    from ..corpora import read_pairs

    gold_name = str(gold_path) if gold_name is None else gold_name
    gold = read_pairs(gold_path, name=gold_name)
    outputs: list[PairLike | Alignment | BadPair]
    if callable(system):
        good = [(g.source, g.target) for g in gold if not isinstance(g, BadPair)]
        aligned = iter(system(good, workers=workers, progress=progress))
        outputs = [g if isinstance(g, BadPair) else next(aligned) for g in gold]
        shown = system_name or getattr(system, "__qualname__", type(system).__name__)
        system_name = None
    else:
        system_name = str(system) if system_name is None else system_name
        outputs = list(read_pairs(system, name=system_name))
        shown = system_name or str(system)
    result = align_scores(gold, outputs, max_length, links=links, tight=tight,
                          system_name=system_name, gold_name=gold_name)
    if not result.pairs:
        first = f" (first: {result.warnings[0]})" if result.warnings else ""
        raise EmptyScoringError(f"{gold_name} / {shown}: no pair could be scored{first}")
    return result


def table_scores_files(
    gold_path: str | Path,
    table: str | ParaphraseSource,
    max_length: int = 5,
    *,
    links: str = "sure",
    only_referenced: bool = False,
    sentences: str = "all",
    tight: bool = False,
    gold_name: str | None = None,
    table_name: str | None = None,
) -> TableScores:
    """LB-Precision/Rel-Recall of a table spec (`ppdb`, `wordnet`, `path[:threshold]`) on groups.

    A bad gold item is left out (its group is scored on its other pairs), with a warning
    naming file and line, and listed in `skipped_rows`; EmptyScoringError, naming the gold
    file, when no gold pair can be read.  `gold_name` and `table_name` are what messages and
    the result call the gold file and the table (default: their paths; e.g. `<stdin>`).
    """
    from ..corpora import read_groups
    from ..paraphrases import load_source

    gold_name = str(gold_path) if gold_name is None else gold_name
    groups, bad = read_groups(gold_path, name=gold_name)
    skipped = tuple(SkippedPair.of(number, item.error) for number, item in bad)
    if not groups:
        if not skipped:
            raise EmptyScoringError(f"{gold_name}: no gold pairs")
        raise EmptyScoringError(f"{gold_name}: no gold pair could be read "
                                f"(first: {_warning(skipped[0])})")
    source = load_source(table) if isinstance(table, str) else table
    result = table_scores(groups, source, max_length, links=links,
                          only_referenced=only_referenced, sentences=sentences, tight=tight)
    return replace(result, source=result.source if table_name is None else table_name,
                   warnings=tuple(_warning(k) for k in skipped) + result.warnings,
                   skipped_rows=skipped)


# Text rendering and aligner names moved to the CLI; the old names work until 0.3, with a warning.
__getattr__ = moved_names(__name__, {
    "render_align_scores": "paralign.cli._render", "render_table_scores": "paralign.cli._render",
    "ALIGNERS": "paralign.cli.parametric", "align_with": "paralign.cli.parametric",
})
