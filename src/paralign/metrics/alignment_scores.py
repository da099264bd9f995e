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

The gold link set G is the sure links (`links="sure"`) or sure+possible (`"sure+possible"`); the
system's link set A is all its links (sure and possible).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..alignment import Alignment
from ..errors import AlignmentIndexError, MismatchError, ParalignError
from . import f_measure

LINK_SETS = ("sure", "sure+possible")


class EmptyScoringError(ParalignError, ValueError):
    """There are no pairs to score."""


def _ratio(numerator: int, denominator: int) -> float:
    """numerator / denominator, or 1.0 when the denominator is 0 (nothing claimed or to find)."""
    return numerator / denominator if denominator else 1.0


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Sufficient statistics of one pair: sizes of gold G, system A, and their overlaps."""

    gold: int
    system: int
    correct: int
    sure: int
    system_sure: int
    system_possible: int
    exact: bool

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

    def to_dict(self) -> dict[str, float]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1}


@dataclass(frozen=True, slots=True)
class AlignmentScores:
    """Corpus scores derived from the per-pair counts in `per_pair`."""

    per_pair: tuple[PairCounts, ...]
    links: str = "sure"

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

    def to_dict(self, per_pair: bool = False) -> dict:
        """{"pairs", "links", "macro": {...}, "micro": {...}, "exact", "exact_count", "aer", ...}."""
        result: dict = {
            "pairs": self.pairs,
            "links": self.links,
            "macro": self.macro.to_dict(),
            "micro": self.micro.to_dict(),
            "exact": self.exact,
            "exact_count": self.exact_count,
            "aer": self.aer,
            "gold_links": sum(p.gold for p in self.per_pair),
            "system_links": sum(p.system for p in self.per_pair),
        }
        if per_pair:
            result["per_pair"] = [
                {"gold": p.gold, "system": p.system, "correct": p.correct, "precision": p.precision,
                 "recall": p.recall, "f1": p.f1, "exact": p.exact}
                for p in self.per_pair
            ]
        return result


def score_alignments(gold: Sequence[Alignment], system: Sequence[Alignment],
                     links: str = "sure") -> AlignmentScores:
    """Score system alignments against gold ones, paired by position.

    Items may also be `AlignedPair`s (their `.alignment` is used); `score_pairs` additionally
    checks that the pairs fit together.
    """
    gold = [getattr(g, "alignment", g) for g in gold]
    system = [getattr(s, "alignment", s) for s in system]
    if links not in LINK_SETS:
        raise ValueError(f"unknown link set {links!r}: use 'sure' or 'sure+possible'")
    if len(gold) != len(system):
        raise MismatchError(f"{len(gold)} gold alignments but {len(system)} system alignments")
    if not gold:
        raise EmptyScoringError("no alignments to score")
    return AlignmentScores(
        tuple(PairCounts.of(g, s, links) for g, s in zip(gold, system, strict=True)), links
    )


def score_pairs(gold: Sequence, system: Sequence, links: str = "sure", *,
                gold_name: str = "gold", system_name: str = "system") -> AlignmentScores:
    """Score `AlignedPair`s by position, checking that they fit together.

    Counts must match; a system pair with tokens must have the gold pair's token counts (texts may
    differ in case: baselines are lower-cased); every system link must lie inside the gold
    sentences. Errors name both files, the system line and the pair id.
    """
    if len(gold) != len(system):
        raise MismatchError(
            f"{system_name} has {len(system)} pairs but {gold_name} has {len(gold)}"
        )
    for g, s in zip(gold, system, strict=True):
        where = f"{system_name}:{s.line}: " if s.line else f"{system_name}: "
        if (s.source or s.target) and (len(s.source), len(s.target)) != (len(g.source), len(g.target)):
            raise MismatchError(
                f"{where}pair {s.id!r} has {len(s.source)}+{len(s.target)} tokens but gold pair "
                f"{g.id!r} ({gold_name}:{g.line}) has {len(g.source)}+{len(g.target)}"
            )
        for i, j in sorted(s.alignment.possible):
            if not (0 <= i < len(g.source) and 0 <= j < len(g.target)):
                raise AlignmentIndexError(
                    f"pair {s.id!r}: link {i}-{j} outside the gold sentences of {len(g.source)} "
                    f"and {len(g.target)} tokens (gold pair {g.id!r})",
                    source=system_name,
                    line=s.line or None,
                )
    return score_alignments([p.alignment for p in gold], [p.alignment for p in system], links)


def score_files(gold_path, system_path, links: str = "sure", *, gold_format: str | None = None,
                system_format: str | None = None, possible_path=None) -> AlignmentScores:
    """Load a gold and a system alignment file (formats detected) and score them by position.

    `possible_path` optionally names a jacana sure+poss file that supplies the gold's possible
    links (by default a companion `*.sure+poss.json` beside a `*.sure.json` gold is used).
    """
    from ..corpora import load_pairs

    gold = load_pairs(gold_path, gold_format, possible_path=possible_path or "auto")
    system = load_pairs(system_path, system_format, possible_path=None)
    return score_pairs(gold, system, links, gold_name=str(gold_path), system_name=str(system_path))


def render_scores(result: dict) -> str:
    """A small text table of `AlignmentScores.to_dict()`: macro and micro P/R/F1, exact, AER."""

    def pct(value: float) -> str:
        return f"{100 * value:5.1f}"

    lines = [
        f"pairs: {result['pairs']}  gold links: {result['links']} ({result['gold_links']})  "
        f"system links: {result['system_links']}",
        "          P      R      F1",
    ]
    for key in ("macro", "micro"):
        prf = result[key]
        lines.append(f"{key:<7} {pct(prf['precision'])}  {pct(prf['recall'])}  {pct(prf['f1'])}")
    lines.append(f"exact   {pct(result['exact'])}% ({result['exact_count']} of {result['pairs']})")
    lines.append(f"AER     {pct(result['aer'])}")
    return "\n".join(lines)
