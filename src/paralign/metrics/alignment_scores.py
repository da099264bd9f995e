"""Alignment scores: precision, recall, F1 (macro and micro), exact match and AER.

Per-pair sufficient statistics (link counts) are computed once, as sacrebleu does for BLEU; every
corpus figure derives from them:

- macro (jacana's convention): P = mean of per-pair precision, R = mean of per-pair recall,
  F1 = harmonic mean of those two means (not the mean of per-pair F1). A pair with no system
  links has precision 1, a pair with no gold links has recall 1 (nothing claimed / nothing to
  find); this reproduces jacana's published figures, e.g. TED on Edinburgh++ test, where 9
  system alignments are empty (82.0/60.7/69.8).
- micro: P and R from the link counts summed over all pairs (same empty conventions).
- exact: share (and count) of pairs whose system links equal the gold links.
- AER (Och & Ney 2003): 1 - (|A∩S| + |A∩P|) / (|A| + |S|) over the summed counts, with S the gold
  sure links and P the gold sure+possible links, whatever `links` says.
- Och & Ney P/R (``och_ney``): the two halves of AER, P = |A∩P| / |A| and R = |A∩S| / |S| over
  the summed counts, with their F1, whatever `links` says: what bilingual word-alignment work
  (fast_align, SimAlign, awesome-align) reports beside AER, so a figure can be set beside theirs.

The gold link set G is the sure links (`links="sure"`) or sure+possible (`"sure+possible"`); the
system's link set A is all its links (sure and possible).

Batch scoring (`score_pairs`, `score_files`) leaves out a pair whose gold or system item is bad
(unreadable line, links outside the sentences, token counts that differ) from both sides, keeps
the others in place, and lists the pairs left out in `AlignmentScores.skipped`.

Not for: phrase-pair scores (`paralign.metrics.parametric`) or text tables (`paralign.cli._render`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict, overload

from .._moved import moved_names
from ..alignment import Alignment
from ..corpora.base import AlignedPair, BadPair, PairOrBad
from ..errors import (
    ConfigurationError,
    EmptyScoringError,
    MismatchError,
    ParalignError,
    check_count,
    counted,
    listed,
    listed_of,
)
from ..signature import join_signature
from . import DEFAULT_RESAMPLES, DEFAULT_SEED, f_measure
from .alignment_fit import (
    misfit,
    misread_warnings,
    system_possible_warnings,
    tokenisation_warnings,
    tokenised_otherwise,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .significance import Confidence

LINK_SETS = ("sure", "sure+possible")


class SkippedRow(TypedDict):
    """A pair left out, as a report lists it in ``skipped_rows`` (:meth:`SkippedPair.to_dict`)."""

    pair: int
    id: str | None
    file: str | None
    line: int | None
    reason: str


def check_scored_links(links: object) -> None:
    """ConfigurationError for a gold link set scores are not taken on (:data:`LINK_SETS`):
    :func:`score_alignments` checks it, and the aligner evaluations before any pair is aligned."""
    if links not in LINK_SETS:
        raise ConfigurationError(f"unknown link set {links!r}: use 'sure' or 'sure+possible'")


class PRFDict(TypedDict):
    """Precision, recall and F1 as a report holds them (:meth:`PRF.to_dict`)."""

    precision: float
    recall: float
    f1: float


class PairRow(TypedDict):
    """One scored pair's row of ``--per-pair`` (its 1-based position, link counts and scores)."""

    pair: int
    gold: int
    system: int
    correct: int
    precision: float
    recall: float
    f1: float
    exact: bool


class ScoresDict(TypedDict):
    """:meth:`AlignmentScores.to_dict`: what ``paralign score-alignments --format json`` writes,
    and what evaluate-aligner's report (:class:`paralign.aligners.evaluation.AlignerResult`)
    extends. Typed so that a misspelt key is a type error, not a KeyError at the end of a run."""

    pairs: int
    links: str
    macro: PRFDict
    micro: PRFDict
    exact: float
    exact_count: int
    aer: float
    och_ney: PRFDict
    gold_links: int
    gold_possible_links: int
    system_links: int
    skipped: int
    skipped_rows: list[SkippedRow]
    warnings: list[str]
    signature: str


class PerPairScoresDict(ScoresDict):
    """:meth:`AlignmentScores.to_dict` with ``per_pair=True`` (``--per-pair``): every pair's row too."""

    per_pair: list[PairRow]


@dataclass(frozen=True, slots=True)
class SkippedPair:
    """A pair left out of the scores: its position (1-based), gold id, the file and line at fault, why."""

    pair: int
    reason: str
    source: str | None = None
    line: int | None = None
    id: str | None = None

    @classmethod
    def of(cls, pair: int, error: ParalignError, id: str | None = None) -> SkippedPair:
        """From the error a strict reader or check would raise for the pair (its file and line,
        when it names them, and its message without them)."""
        bad = BadPair(id or str(pair), error)
        return cls(pair, bad.reason, bad.source, bad.line, id)

    @property
    def where(self) -> str:
        """The `file:line: ` prefix of messages about this pair ("" when no file is known)."""
        if not self.source:
            return ""
        return f"{self.source}:{self.line}: " if self.line else f"{self.source}: "

    def __str__(self) -> str:
        gold = f" (gold {self.id!r})" if self.id is not None else ""
        return f"{self.where}{self.reason}; pair {self.pair}{gold} skipped"

    def to_dict(self) -> SkippedRow:
        return {"pair": self.pair, "id": self.id, "file": self.source, "line": self.line,
                "reason": self.reason}

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> SkippedPair:
        """The record :meth:`to_dict` wrote (e.g. in a report's ``skipped_rows``)."""
        return cls(row["pair"], row["reason"], row.get("file"), row.get("line"), row.get("id"))


def skipped_rows(bad: Iterable[tuple[int, BadPair]]) -> list[SkippedRow]:
    """A report's ``skipped_rows`` for the bad items a lenient reader left out ((position,
    BadPair), as :func:`paralign.corpora.alignments.read_groups` gives them): each as
    :meth:`SkippedPair.to_dict`, so that it is reported as evaluate-aligner reports a bad gold
    pair (``FILE:LINE: reason; pair N (gold 'ID') skipped``)."""
    return [SkippedPair.of(number, item.error, item.id).to_dict() for number, item in bad]


def _ratio(numerator: int, denominator: int) -> float:
    """numerator / denominator, or 1.0 when the denominator is 0 (nothing claimed or to find)."""
    return numerator / denominator if denominator else 1.0


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Sufficient statistics of one pair: sizes of gold G, system A, their overlaps, and `possible`
    the gold's possible links beyond its sure ones (whatever G is)."""

    gold: int
    system: int
    correct: int
    sure: int
    system_sure: int
    system_possible: int
    exact: bool
    possible: int

    @classmethod
    def of(cls, gold: Alignment, system: Alignment, links: str = "sure") -> PairCounts:
        gold_links = gold.links(links)
        predicted = system.possible
        return cls(
            gold=len(gold_links),
            system=len(predicted),
            correct=len(predicted & gold_links),
            sure=len(gold.sure),
            system_sure=len(predicted & gold.sure),
            system_possible=len(predicted & gold.possible),
            exact=predicted == gold_links,
            possible=len(gold.possible_only),
        )

    @property
    def precision(self) -> float:
        return _ratio(self.correct, self.system)

    @property
    def recall(self) -> float:
        return _ratio(self.correct, self.gold)

    @property
    def f1(self) -> float:
        return f_measure(self.precision, self.recall)


@dataclass(frozen=True, slots=True)
class PRF:
    """Precision, recall and F1 (proportions in [0, 1])."""

    precision: float
    recall: float
    f1: float

    def to_dict(self) -> PRFDict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1}


@dataclass(frozen=True, slots=True)
class AlignmentScores:
    """Corpus scores derived from the per-pair counts in `per_pair`."""

    per_pair: tuple[PairCounts, ...]
    links: str = "sure"
    positions: tuple[int, ...] = ()  #: 1-based position of each scored pair (default 1..n)
    skipped: tuple[SkippedPair, ...] = ()
    #: Where the gold's possible links came from (:func:`~paralign.corpora.alignments.possible_links_source`):
    #: ``gold`` (the gold alignments as given) or the sure+poss file combined with the gold file.
    possible: str = "gold"
    warnings: tuple[str, ...] = ()  #: on the files as wholes (:func:`gold_warnings`, :func:`score_pairs`)

    def __post_init__(self) -> None:
        """No pair has no figure (macro and exact would be 0/0): refused, as score_alignments does."""
        if not self.per_pair:
            raise EmptyScoringError("no alignments to score (per_pair is empty)")

    @property
    def signature(self) -> str:
        """The settings that change these numbers, sacrebleu-style: the gold link set scored
        (``gold``) and where the gold's possible links came from (``possible``: AER always reads
        them, sure+possible scores too), e.g. ``gold:sure|possible:gold|version:X``."""
        return join_signature({"gold": self.links, "possible": self.possible})

    @property
    def pairs(self) -> int:
        return len(self.per_pair)

    @property
    def macro(self) -> PRF:
        n = len(self.per_pair)
        precision = sum(p.precision for p in self.per_pair) / n
        recall = sum(p.recall for p in self.per_pair) / n
        return PRF(precision, recall, f_measure(precision, recall))

    @property
    def micro(self) -> PRF:
        correct = sum(p.correct for p in self.per_pair)
        precision = _ratio(correct, sum(p.system for p in self.per_pair))
        recall = _ratio(correct, sum(p.gold for p in self.per_pair))
        return PRF(precision, recall, f_measure(precision, recall))

    @property
    def gold_possible_links(self) -> int:
        """The gold's possible links beyond its sure ones, summed (MSR RTE2's majority jacana: 0)."""
        return sum(p.possible for p in self.per_pair)

    @property
    def exact_count(self) -> int:
        return sum(p.exact for p in self.per_pair)

    @property
    def exact(self) -> float:
        return self.exact_count / len(self.per_pair)

    @property
    def aer(self) -> float:
        system = sum(p.system for p in self.per_pair)
        sure = sum(p.sure for p in self.per_pair)
        if system + sure == 0:
            return 0.0
        hits = sum(p.system_sure + p.system_possible for p in self.per_pair)
        return 1.0 - hits / (system + sure)

    @property
    def och_ney(self) -> PRF:
        """Och & Ney's (2003) precision and recall, AER's two halves: system links that are gold
        sure or possible over all system links, gold sure links found over all of them (summed
        counts; 1 when there is nothing to divide by, as :attr:`micro`), and their F1. When the
        gold has no possible links beyond its sure ones, this is :attr:`micro` against sure."""
        precision = _ratio(sum(p.system_possible for p in self.per_pair), sum(p.system for p in self.per_pair))
        recall = _ratio(sum(p.system_sure for p in self.per_pair), sum(p.sure for p in self.per_pair))
        return PRF(precision, recall, f_measure(precision, recall))

    def __repr__(self) -> str:
        """The pairs, the link set and the corpus figures to 4 places, not every pair's counts
        (``per_pair`` holds those): ``AlignmentScores(pairs=6, links='sure', macro=PRF(...), ...)``."""
        def prf(value: PRF) -> str:
            return f"PRF(precision={value.precision:.4f}, recall={value.recall:.4f}, f1={value.f1:.4f})"

        return (f"AlignmentScores(pairs={self.pairs}, links={self.links!r}, macro={prf(self.macro)}, "
                f"micro={prf(self.micro)}, exact={self.exact:.4f}, aer={self.aer:.4f}, "
                f"skipped={len(self.skipped)})")

    @overload
    def to_dict(self, per_pair: Literal[False] = False) -> ScoresDict: ...

    @overload
    def to_dict(self, per_pair: Literal[True]) -> PerPairScoresDict: ...

    @overload
    def to_dict(self, per_pair: bool) -> ScoresDict: ...

    def to_dict(self, per_pair: bool = False) -> ScoresDict:
        """{"pairs", "links", "macro": {...}, "micro": {...}, "exact", "exact_count", "aer", ...}.

        "pairs" counts the pairs scored; "skipped" the pairs left out, listed in "skipped_rows";
        "signature" the settings that made the numbers (:attr:`signature`). It is what
        ``paralign score-alignments --format json`` writes (``per_pair`` for ``--per-pair``).
        """
        result: ScoresDict = {
            "pairs": self.pairs,
            "links": self.links,
            "macro": self.macro.to_dict(),
            "micro": self.micro.to_dict(),
            "exact": self.exact,
            "exact_count": self.exact_count,
            "aer": self.aer,
            "och_ney": self.och_ney.to_dict(),
            "gold_links": sum(p.gold for p in self.per_pair),
            "gold_possible_links": self.gold_possible_links,
            "system_links": sum(p.system for p in self.per_pair),
            "skipped": len(self.skipped),
            "skipped_rows": [s.to_dict() for s in self.skipped],
            "warnings": list(self.warnings),
            "signature": self.signature,
        }
        if per_pair:
            positions = self.positions or range(1, len(self.per_pair) + 1)
            with_pairs: PerPairScoresDict = {**result, "per_pair": [
                {"pair": k, "gold": p.gold, "system": p.system, "correct": p.correct,
                 "precision": p.precision, "recall": p.recall, "f1": p.f1, "exact": p.exact}
                for k, p in zip(positions, self.per_pair, strict=True)
            ]}
            return with_pairs
        return result


def macro_f1_from_sums(sums: np.ndarray) -> np.ndarray:
    """Macro F1 from per-pair rows ``(precision, recall, 1)`` summed (last axis): the harmonic
    mean of mean precision and mean recall, as :attr:`AlignmentScores.macro` computes it;
    vectorised over leading axes, so a bootstrap can resample pairs."""
    import numpy as np

    sums = np.asarray(sums, dtype=np.float64)
    precision, recall = sums[..., 0] / sums[..., 2], sums[..., 1] / sums[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)


def macro_f1_confidence(per_pair: Sequence[PairCounts], *, n_resamples: int = DEFAULT_RESAMPLES,
                        seed: int = DEFAULT_SEED) -> Confidence:
    """Macro F1 of `per_pair` with its bootstrap mean and 95% half-width, resampling the pairs
    (:func:`paralign.metrics.significance.confidence`)."""
    import numpy as np

    from .significance import confidence

    rows = np.asarray([(p.precision, p.recall, 1.0) for p in per_pair], dtype=np.float64).reshape(-1, 3)
    return confidence(rows, macro_f1_from_sums, n_resamples=n_resamples, seed=seed)


def score_alignments(gold: Sequence[Alignment], system: Sequence[Alignment],
                     links: str = "sure", *, source: str | None = None,
                     positions: Sequence[int] | None = None,
                     skipped: Sequence[SkippedPair] = ()) -> AlignmentScores:
    """Score system alignments against gold ones, paired by position.

    >>> gold = [paralign.Alignment.from_pharaoh("0-0 1-1 2?2")]
    >>> system = [paralign.Alignment.from_pharaoh("0-0 1-2 2-2")]
    >>> scores = paralign.score_alignments(gold, system)  # the sure links by default
    >>> scores.macro
    PRF(precision=0.3333333333333333, recall=0.5, f1=0.4)
    >>> round(scores.aer, 4), scores.to_dict()["exact_count"]
    (0.4, 0)

    Items may also be `AlignedPair`s (their `.alignment` is used); `score_pairs` additionally
    checks that the pairs fit together. `source` names the input in errors; `positions` (1-based,
    one per pair) and `skipped` record where the pairs came from when a caller left some out.
    """
    gold = _alignments(gold, "gold")
    system = _alignments(system, "system")
    positions = None if positions is None else _positions(positions)
    skipped = _skipped(skipped)
    check_scored_links(links)
    if len(gold) != len(system):
        raise MismatchError(f"{len(gold)} gold alignments but {len(system)} system alignments")
    if positions is not None and len(positions) != len(gold):
        raise MismatchError(f"{len(positions)} positions for {len(gold)} pairs")
    if not gold:
        where = f"{source}: " if source else ""
        if skipped:
            raise EmptyScoringError(f"{where}no pair could be scored: all {len(skipped)} were "
                                    f"skipped (first: {skipped[0]})")
        raise EmptyScoringError(f"{where}no alignments to score")
    return AlignmentScores(
        tuple(PairCounts.of(g, s, links) for g, s in zip(gold, system, strict=True)), links,
        tuple(positions or ()), tuple(skipped),
    )


def _alignments(items: Sequence[Alignment], what: str) -> list[Alignment]:
    """The Alignments of `items` (an AlignedPair's `.alignment`); anything else is named, and
    so is a value that is not a list of them (None was "'NoneType' object is not iterable")."""
    out = [getattr(item, "alignment", item) for item in listed(items, f"{what} must be a list of Alignments")]
    return listed_of(out, what, "Alignments", lambda item: isinstance(item, Alignment),
                     "an Alignment (Alignment.from_pharaoh parses '0-0 1-1')")


def _positions(items: Sequence[int]) -> list[int]:
    """`positions` as a list of whole numbers of at least 1 (check_count's ConfigurationError
    naming the first that is not); one str is refused, not read as its characters."""
    out = listed(items, "positions must be a list of 1-based pair numbers")
    if set(map(type, out)) <= {int} and min(out, default=1) >= 1:  # 20,000 in 3-4 ms; scoring them, 100+
        return out
    return [check_count(p, f"positions: item {number}") for number, p in enumerate(out, start=1)]


def _skipped(items: Sequence[SkippedPair]) -> list[SkippedPair]:
    """`skipped` as a list of SkippedPairs; anything else is named (one str was taken as its
    characters, each a "pair" the scores said were left out, and failed only in to_dict)."""
    return listed_of(items, "skipped", "SkippedPair records", lambda item: isinstance(item, SkippedPair),
                     "a SkippedPair (SkippedPair.of makes one from a pair's error)")


def usable_pairs(items: Sequence[PairOrBad]) -> tuple[list[AlignedPair], list[int], list[SkippedPair]]:
    """The AlignedPairs of `corpora.read_pairs`' result, their 1-based positions, and a record
    of each BadPair left out with the id its reader gave it, as :func:`score_pairs` records a
    gold item it leaves out (pass the last two to `score_alignments`)."""
    good: list[AlignedPair] = []
    positions: list[int] = []
    skipped: list[SkippedPair] = []
    for position, item in enumerate(items, start=1):
        if isinstance(item, BadPair):
            skipped.append(SkippedPair.of(position, item.error, item.id))
        else:
            good.append(item)
            positions.append(position)
    return good, positions, skipped


def gold_warnings(scores: AlignmentScores, gold_name: str) -> tuple[str, ...]:
    """A warning when the gold has no link to find, or none possible to score sure+possible against."""
    if not any(p.gold for p in scores.per_pair):  # recall 100 by convention: P 0 R 100, or all 100
        why = " (it has possible ones: score against sure+possible?)" if scores.gold_possible_links else ""
        return (f"{gold_name}: no {scores.links} links in the gold: nothing to find, every pair's recall is 100{why}",)
    if scores.links != "sure+possible" or scores.gold_possible_links:
        return ()
    return (f"{gold_name}: no possible links in the gold (only sure ones): scoring against "
            "sure+possible scores its sure links only",)


def blank_tail_hint(extra: Sequence[object]) -> str:
    """When a system's items beyond the gold's pairs are all empty lines (AlignedPairs or
    Alignments with no tokens and no links): what they likely are, for the count mismatch's
    message (score-alignments', parametric align's); "" otherwise."""
    def empty(item: object) -> bool:
        if isinstance(item, BadPair):
            return False
        shown: tuple[object, ...] = (getattr(item, "source", ()), getattr(item, "target", ()),
                                     getattr(item, "alignment", item))
        return not any(shown)

    if not extra or not all(map(empty, extra)):
        return ""
    lines = "line is" if len(extra) == 1 else f"{len(extra)} lines are"
    return (f" (its last {lines} empty: blank lines at the end of the file? Each line is a pair, "
            "an empty one an empty alignment)")


def score_pairs(gold: Sequence[PairOrBad], system: Sequence[PairOrBad], links: str = "sure", *,
                gold_name: str = "gold", system_name: str = "system",
                skip_bad: bool = True) -> AlignmentScores:
    """Score `AlignedPair`s by position, checking that they fit together.

    Counts must match (MismatchError). A position is left out of the scores, on both sides, and
    listed in `.skipped` when either item is a `BadPair` (see `corpora.read_pairs`), when a
    system pair with tokens has other token counts than the gold pair (texts may differ in
    case: baselines are lower-cased), or when a system link lies outside the gold sentences
    (a gold of links only, as Pharaoh lines, has none to check against: its pairs are scored).
    With `skip_bad=False` the first such problem is raised instead. EmptyScoringError when no
    pair is left. Messages name both files, the line and the pair id.
    """
    if len(gold) != len(system):
        raise MismatchError(
            f"{system_name} has {counted(len(system), 'pair')} but {gold_name} has {len(gold)}"
            f"{blank_tail_hint(system[len(gold):])}"
        )
    kept: list[tuple[Alignment, Alignment]] = []
    positions: list[int] = []
    skipped: list[SkippedPair] = []
    retokenised = 0
    for position, (g, s) in enumerate(zip(gold, system, strict=True), start=1):
        problem = misfit(g, s, gold_name, system_name)
        retokenised += tokenised_otherwise(g, s, problem)
        if problem is None:
            assert not isinstance(g, BadPair) and not isinstance(s, BadPair)
            kept.append((g.alignment, s.alignment))
            positions.append(position)
        elif skip_bad:
            skipped.append(SkippedPair.of(position, problem, g.id))
        else:
            raise problem
    where = gold_name if gold_name == system_name else f"{gold_name} / {system_name}"
    scores = score_alignments([g for g, _ in kept], [s for _, s in kept], links, source=where,
                              positions=positions, skipped=skipped)
    return replace(scores, warnings=misread_warnings(kept, system_name)
                   + tokenisation_warnings(retokenised, len(gold), system_name)
                   + system_possible_warnings(kept, links, system_name))


def score_files(gold_path: str | Path, system_path: str | Path, links: str = "sure", *,
                gold_format: str | None = None, system_format: str | None = None,
                possible_path: str | Path | None = None, system_name: str | None = None,
                skip_bad: bool = True) -> AlignmentScores:
    """Load a gold and a system alignment file (formats detected) and score them by position.

    `possible_path` optionally names a jacana sure+poss file that supplies the gold's possible
    links (by default a companion `*.sure+poss.json` beside a `*.sure.json` gold is used).
    A bad item in either file leaves that pair out on both sides (see `score_pairs`);
    `system_name` is what messages call the system file (e.g. `<stdin>`). The scores'
    `possible` (so their `signature`) names the sure+poss file combined with the gold, if any.
    """
    from ..corpora import read_pairs
    from ..corpora.alignments import possible_links_source

    system_name = str(system_path) if system_name is None else system_name
    gold = read_pairs(gold_path, gold_format, possible_path=possible_path or "auto")
    system = read_pairs(system_path, system_format, possible_path=None, name=system_name)
    scores = score_pairs(gold, system, links, gold_name=str(gold_path), system_name=system_name,
                         skip_bad=skip_bad)
    source = possible_links_source(gold_path, gold_format, possible_path=possible_path or "auto")
    return replace(scores, possible=source, warnings=gold_warnings(scores, str(gold_path)) + scores.warnings)


# Text rendering moved to the CLI; the old names work, with a DeprecationWarning, until 0.3.
__getattr__ = moved_names(__name__, {"render_scores": "paralign.cli._render"})
