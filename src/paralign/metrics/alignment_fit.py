"""Whether a system's pairs fit a gold's (token counts, links inside the gold sentences) and,
when they do not, which common misreading of the system file explains it (1-based indices,
source and target swapped): the checks and warnings of `alignment_scores.score_pairs` and
`parametric_align`; and what a system file's possible links do to scores against the gold's
sure links (:func:`system_possible_warnings`).

Not for: the scores themselves (:mod:`paralign.metrics.alignment_scores`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..alignment import Alignment
from ..corpora.base import BadPair, PairOrBad
from ..errors import AlignmentIndexError, MismatchError, ParalignError


def misfit(g: PairOrBad, s: PairOrBad, gold_name: str, system_name: str) -> ParalignError | None:
    """Why gold item `g` and system item `s` cannot be scored together, or None."""
    if isinstance(g, BadPair):
        return g.error
    if isinstance(s, BadPair):
        return s.error
    if not (g.source or g.target):  # a gold of links only (Pharaoh lines): no lengths to check
        return None
    if (s.source or s.target) and (len(s.source), len(s.target)) != (len(g.source), len(g.target)):
        return MismatchError(
            f"pair {s.id!r} has {len(s.source)}+{len(s.target)} tokens but gold pair "
            f"{g.id!r} ({gold_name}:{g.line}) has {len(g.source)}+{len(g.target)}",
            source=system_name, line=s.line or None)
    lengths = len(g.source), len(g.target)
    for i, j in sorted(s.alignment.possible):
        if not (0 <= i < lengths[0] and 0 <= j < lengths[1]):
            return AlignmentIndexError(
                f"pair {s.id!r}: link {i}-{j} outside the gold sentences of {lengths[0]} "
                f"and {lengths[1]} tokens (gold pair {g.id!r}){outside_hint(s.alignment.possible, *lengths)}",
                source=system_name, line=s.line or None)
    return None


def _fits(links: Iterable[tuple[int, int]], source_length: int, target_length: int) -> bool:
    return all(0 <= i < source_length and 0 <= j < target_length for i, j in links)


def outside_hint(links: frozenset[tuple[int, int]], source_length: int, target_length: int) -> str:
    """Which common mistake explains a system's links outside the gold sentences, when one
    does: every link fits with source and target swapped (an aligner run target to source, as
    awesome-align and fast_align -r can be), or fits 1 lower (1-based indices, as GIZA's), for
    the warning; "" otherwise. A whole file of such warnings otherwise reads as bad data."""
    for misread, (how, question) in MISREAD.items():
        if _fits(map(misread, links), source_length, target_length):
            return f"; all its links fit {how}: {question}"
    return ""


#: The common misreadings of a system file: a link read so, how to say it, what to ask.
MISREAD: dict[Callable[[tuple[int, int]], tuple[int, int]], tuple[str, str]] = {
    lambda ij: (ij[1], ij[0]): ("with source and target swapped", "are the system's links target-source?"),
    lambda ij: (ij[0] - 1, ij[1] - 1): ("1 lower", "are the system's indices 1-based? (Pharaoh links are 0-based)")}


def misread_warnings(kept: Sequence[tuple[Alignment, Alignment]], system_name: str) -> tuple[str, ...]:
    """A warning when the system's links, read swapped or 1 lower, match the gold's 1.2 times as often
    as written (and 5 times or more); correct baselines match 0.55-0.8 times as often 1 lower."""
    as_is = sum(len(s.possible & g.possible) for g, s in kept)
    for misread, (how, question) in MISREAD.items():
        matches = sum(len(set(map(misread, s.possible)) & g.possible) for g, s in kept)
        if matches >= max(5, 1.2 * as_is):
            return (f"{system_name}: its links match the gold's {matches} times read {how}, {as_is} "
                    f"as written: {question}",)
    return ()


def tokenised_otherwise(g: PairOrBad, s: PairOrBad, problem: ParalignError | None) -> bool:
    """Whether `problem` (:func:`misfit`'s for `g` and `s`) says the system was tokenised
    otherwise than the gold: other token counts, or a link past the gold sentences that no
    misreading (:data:`MISREAD`) explains; not a bad item of either file."""
    if problem is None or isinstance(g, BadPair) or isinstance(s, BadPair):
        return False
    return isinstance(problem, MismatchError) or not outside_hint(s.alignment.possible, len(g.source), len(g.target))


def tokenisation_warnings(count: int, pairs: int, system_name: str) -> tuple[str, ...]:
    """One warning for the file when `count` of its `pairs` were left out as tokenised otherwise
    than the gold (:func:`tokenised_otherwise`): each pair's warning says only what misfits."""
    if not count:
        return ()
    return (f"{system_name}: {count} of {pairs} pairs have other token counts than the gold's, or links "
            "past its sentences: was the system's text tokenised otherwise than the gold's? Its links must "
            "index the gold's tokens (a gold file's sentences split on white space: `paralign align GOLD` "
            "aligns on them, as `--tokenized` keeps a TSV's); the pairs scored may be misindexed too",)


def system_possible_warnings(kept: Sequence[tuple[Alignment, Alignment]], links: str,
                             system_name: str) -> tuple[str, ...]:
    """A warning when the system's links include possible ones that are the gold's possible ones
    and the gold's sure links alone are scored against (`links` "sure"): a system's links are all
    its predictions (sure and possible), so those count as wrong. A MultiMWA gold scored against
    itself read P 87.7 under sure with nothing said why."""
    if links != "sure":
        return ()
    wrong = sum(len(s.possible_only & g.possible_only) for g, s in kept)
    if not wrong:
        return ()
    possible = sum(len(s.possible_only) for _, s in kept)
    total = sum(len(s.possible) for _, s in kept)
    are = "is a possible one" if possible == 1 else "are possible ones"
    those = "1 is a possible link of the gold's" if wrong == 1 else f"{wrong} are possible links of the gold's"
    return (f"{system_name}: {possible} of its {total} links {are}, not sure, and of those {those}: a system's "
            "links are all scored as its predictions, so against the gold's sure links alone (--gold-links sure) "
            "these count as wrong (a gold scored against itself has P under 100): score with --gold-links "
            "sure+possible, or give the system's sure links alone",)
