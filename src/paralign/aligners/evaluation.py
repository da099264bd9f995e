"""Aligner evaluation: `evaluate-aligner` and `tune-aligner`.

Scoring an aligner on a gold file (annotation and alignment timed separately) and the
(ppdb_sim, w) grid search of the paper (annotate once, align many times).

Not for: reading input pairs (:mod:`paralign.corpora.sentence_pairs`) or aligning a batch
(:mod:`paralign.aligners.batch`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from .._moved import moved_names
from ..alignment import Alignment
from ..errors import ConfigurationError, FormatError, InputTypeError, check_count, check_progress
from ..metrics.alignment_scores import PRFDict, ScoresDict, SkippedRow, check_scored_links
from ..nlp import TextOrTokens
from ..sentence import Sentence
from ..workers import Progress, in_steps
from .signature import alignment_signature, tuning_signature

if TYPE_CHECKING:
    from ..corpora.base import AlignedPair
    from ..metrics.alignment_scores import AlignmentScores, PairCounts, SkippedPair


class GoldAligner(Protocol):
    """What :func:`evaluate_aligner` needs of an aligner: it loads its resources (``related``)
    outside the timings, annotates the gold tokens in one batch and aligns the annotated pairs.
    The Sultan ``Aligner``, the ``ContextualAligner`` (``Aligner("contextual")``) and the
    ``ExactAligner`` (the exact-match baseline) are each one."""

    @property
    def related(self) -> Any: ...

    def annotate(self, items: Iterable[TextOrTokens], workers: int = 1,
                 progress: Progress | None = None) -> list[Sentence]: ...

    def align_annotated(self, pairs: Sequence[tuple[Sentence, Sentence]], workers: int = 1,
                        progress: Progress | None = None) -> list[Alignment]: ...


class TunableAligner(GoldAligner, Protocol):
    """What :func:`tune_aligner` needs beside: a copy with some options changed (both aligners
    have it; the contextual one changes its lexical pipeline's) and its options; the
    ``related`` it also reads (:func:`_searched_ppdb_sims`) is :class:`GoldAligner`'s."""

    def with_params(self, **changes: Any) -> TunableAligner: ...

    @property
    def config(self) -> Any: ...  # its options (ppdb_sim, w): the contextual aligner's lexical pipeline's


class AlignerResult(ScoresDict):
    """What :func:`evaluate_aligner` reports: the scores' keys (:meth:`AlignmentScores.to_dict`,
    with the aligner's ``signature``: :func:`alignment_signature`), the gold file and the timings."""

    gold: str
    annotate_seconds: float
    align_seconds: float
    pairs_per_second: float  #: end to end: annotation and alignment
    align_ms_per_pair: float


class GridRow(PRFDict):
    """One setting of :func:`tune_aligner`'s grid: ``ppdb_sim``, ``w``, the macro precision,
    recall and F1 and the share of pairs aligned exactly as the gold."""

    ppdb_sim: float
    w: float
    exact: float


class BestRow(GridRow):
    """The setting :func:`tune_aligner` reports: its grid row, how many settings share its F1
    (``tied``, itself included) and its full aligner ``signature``."""

    tied: int
    signature: str


class TuneResult(TypedDict):
    """What :func:`tune_aligner` reports (``signature``: what the grid shares,
    :func:`tuning_signature`)."""

    gold: str
    pairs: int
    links: str
    gold_possible_links: int  #: the gold's possible links beyond the sure ones
    best: BestRow
    grid: list[GridRow]
    skipped: int
    skipped_rows: list[SkippedRow]
    warnings: list[str]  #: as the scores' (:func:`~paralign.metrics.alignment_scores.gold_warnings`)
    signature: str


#: The paper's grid: ppdbSim and w in {0.1, ..., 1.0}.
GRID: tuple[float, ...] = tuple(round(0.1 * k, 1) for k in range(1, 11))


# -- evaluation ------------------------------------------------------------------------------------
def _check_limit(limit: int | None) -> None:
    if limit is not None:
        check_count(limit, "limit")


def load_gold(path: str | Path, limit: int | None = None) -> list[AlignedPair]:
    """Gold pairs of any format the corpora loaders read (optionally the first `limit` >= 1)."""
    from ..corpora import load_pairs

    _check_limit(limit)
    pairs = load_pairs(path)
    return pairs if limit is None else pairs[:limit]


def _check_gold_path(path: object) -> None:
    """A gold file's path, not the pairs read from one: ``evaluate_aligner(aligner,
    load_pairs(gold))`` said "a file path must be a str or a pathlib.Path, not list", not
    what to do with pairs in memory."""
    if isinstance(path, Sequence) and not isinstance(path, str):
        raise InputTypeError(
            f"the gold is a gold file's path (a str or a Path), not a {type(path).__name__}: the evaluation "
            "reads the file itself (its bad pairs skipped and listed, its name signed); for pairs in memory, "
            "score_alignments([p.alignment for p in pairs], aligner.align_many([(p.source, p.target) "
            "for p in pairs]))")


def read_gold(
    path: str | Path, limit: int | None = None
) -> tuple[list[AlignedPair], list[int], list[SkippedPair]]:
    """Like :func:`load_gold`, but a bad gold item is left out and recorded instead of stopping
    the run: (usable pairs, their 1-based positions, SkippedPair records). No usable pair at all
    is a FormatError naming the first reason."""
    from ..corpora import read_pairs
    from ..corpora.base import with_sentences
    from ..metrics.alignment_scores import usable_pairs

    _check_gold_path(path)
    _check_limit(limit)
    items = [with_sentences(item, "an aligner's gold needs the tokens of both", str(path)) for item in read_pairs(path)]
    if not items:
        raise FormatError("no pairs in the gold file", source=str(path))
    gold, positions, skipped = usable_pairs(items if limit is None else items[:limit])
    if not gold:
        raise FormatError(f"no usable pairs in the gold file ({skipped[0].reason})", source=str(path))
    return gold, positions, skipped


def gold_parts(gold_path: str | Path, links: str, limit: int | None) -> dict[str, object]:
    """What a signature records of the gold scored against: the link set (``gold``), where its
    possible links came from (``possible``: a jacana companion sure+poss file changes AER) and
    ``--limit``."""
    from ..corpora.alignments import possible_links_source

    return {"gold": links, "possible": possible_links_source(gold_path), "limit": limit}


def annotate_gold(
    aligner: GoldAligner, gold: Sequence[AlignedPair], workers: int = 1, progress: Progress | None = None
) -> list[tuple[Sentence, Sentence]]:
    """Parse both sides of every gold pair in one batch, so alignment can be timed (and tuned)
    apart; ``progress`` is given the gold pairs as both their sentences are parsed
    (:class:`~paralign.workers.Steps` ``"annotating"``)."""
    flat = [x for p in gold for x in (list(p.source), list(p.target))]
    by_pairs = None if progress is None else _by_pairs(progress, len(gold))
    sentences = aligner.annotate(flat, workers=workers, progress=by_pairs)
    return list(zip(sentences[0::2], sentences[1::2], strict=True))


def _by_pairs(progress: Progress, pairs: int) -> Progress:
    """A `progress` of the sentences of `pairs` pairs that gives `progress` the pairs (the first
    and second sentence, the third and fourth...) as the second of each comes."""

    def sentences(parsed: Iterable[Any]) -> Iterator[Any]:
        both = iter(parsed)
        for pair in in_steps(progress, zip(both, both, strict=True), pairs, "annotating"):
            yield from pair

    return sentences


@dataclass(frozen=True, slots=True)
class PairResult:
    """One scored gold pair: its 1-based position in the gold file, the gold pair (tokens,
    id, gold alignment), the system's alignment and the link counts the scores derive from."""

    position: int
    gold: AlignedPair
    system: Alignment
    counts: PairCounts


@dataclass(frozen=True, slots=True)
class AlignerEvaluation:
    """What :func:`evaluate_aligner` reports (`result`) and the per-pair results it comes from."""

    result: AlignerResult
    pairs: tuple[PairResult, ...]


def pair_results(gold: Sequence[AlignedPair], system: Sequence[Alignment],
                 scores: AlignmentScores) -> tuple[PairResult, ...]:
    """Each gold pair with its system alignment and counts, from `scores` of them (positions
    1..n unless the scores record others)."""
    positions = scores.positions or range(1, len(gold) + 1)
    return tuple(PairResult(*row) for row in zip(positions, gold, system, scores.per_pair, strict=True))


def evaluate_aligner_pairs(aligner: GoldAligner, gold_path: str | Path, links: str = "sure", workers: int = 1,
                           limit: int | None = None, progress: Progress | None = None) -> AlignerEvaluation:
    """:func:`evaluate_aligner`'s report together with every pair's system alignment and counts
    (in gold order; what a report of the pairs shows)."""
    from ..metrics.alignment_scores import gold_warnings, score_alignments

    _check_aligner(aligner)
    check_scored_links(links)  # before the aligner loads and aligns every pair, not after
    check_progress(progress)
    gold, positions, skipped = read_gold(gold_path, limit)
    for _ in in_steps(progress, [aligner], 1, "loading"):  # resources, outside the timings
        aligner.related  # noqa: B018
        aligner.annotate([["Warm", "up", "the", "parser", "."]])  # tokens, as the gold's: the exact aligner loads no spaCy
    start = time.perf_counter()
    annotated = annotate_gold(aligner, gold, workers, progress)
    annotate_seconds = time.perf_counter() - start
    start = time.perf_counter()
    system = aligner.align_annotated(annotated, workers=workers, progress=progress)
    align_seconds = time.perf_counter() - start
    scores = score_alignments(
        [p.alignment for p in gold], system, links, source=str(gold_path), positions=positions, skipped=skipped
    )
    scores = replace(scores, warnings=gold_warnings(scores, str(gold_path)))
    result: AlignerResult = {  # "signature" is replaced where the scores have it, the rest added after
        **scores.to_dict(), "gold": str(gold_path), "annotate_seconds": round(annotate_seconds, 3),
        "align_seconds": round(align_seconds, 3),
        "pairs_per_second": round(len(gold) / max(annotate_seconds + align_seconds, 1e-9), 2),
        "align_ms_per_pair": round(1000 * align_seconds / len(gold), 3),
        "signature": alignment_signature(aligner, given_tokens=True, **gold_parts(gold_path, links, limit)),
    }
    return AlignerEvaluation(result, pair_results(gold, system, scores))


def _check_aligner(aligner: object) -> None:
    """An Aligner object (it annotates gold tokens its own way, in one batch), not a name, nor
    the class itself (``evaluate_aligner(paralign.Aligner, gold)`` was a TypeError from deep
    inside, ``Aligner.annotate() missing 1 required positional argument: 'items'``)."""
    if isinstance(aligner, type):
        raise InputTypeError(f"aligner must be an aligner object, not the class {aligner.__name__}: "
                             f"call it ({aligner.__name__}(), with any options)")
    if not callable(getattr(aligner, "align_annotated", None)):
        raise InputTypeError(f"aligner must be an Aligner (paralign.Aligner(...), "
                             f"paralign.Aligner('contextual') or paralign.aligners.ExactAligner()), not "
                             f"{type(aligner).__name__}")


def evaluate_aligner(aligner: GoldAligner, gold_path: str | Path, links: str = "sure", workers: int = 1,
                     limit: int | None = None, progress: Progress | None = None) -> AlignerResult:
    """Align every pair of the gold file `gold_path` (any format :func:`paralign.load_pairs`
    reads) on the gold's tokens and score the alignments against it: the record ``paralign
    evaluate-aligner --format json`` writes (score-alignments' scores, ``signature``, ``gold``
    and the timings: ``annotate_seconds``, ``align_seconds``, ``pairs_per_second``).

    `aligner` is an aligner object, loaded once: ``paralign.Aligner(...)`` (the Sultan aligner,
    or ``Aligner("contextual")``) or ``paralign.aligners.ExactAligner()`` (the exact-match
    baseline), not a name nor :func:`~paralign.get_aligner`'s function. `links` is the gold link
    set scored against: ``"sure"`` or ``"sure+possible"``. A gold pair that cannot be read is
    left out and listed under ``skipped_rows`` (its file, line and reason), as the command warns
    of it; `limit` scores the first pairs only.

    >>> from importlib.resources import files
    >>> from paralign.aligners import ExactAligner
    >>> report = paralign.evaluate_aligner(ExactAligner(), files("paralign") / "data" / "demo" / "gold.jsonl")
    >>> report["pairs"], round(report["macro"]["f1"], 4), report["skipped_rows"]
    (6, 0.8384, [])
    >>> report["signature"].split("|")[:2]
    ['aligner:exact', 'gold:sure']

    ``progress`` is given the aligner while it loads its resources, the gold pairs as they are annotated, (with
    the contextual aligner, their sentences as they are encoded,) then as they are aligned, each
    step a :class:`~paralign.workers.Steps` (its ``name``, ``"loading"``, ``"annotating"``,
    ``"encoding"`` or ``"aligning"``, and ``len``: tqdm shows the total)."""
    return evaluate_aligner_pairs(aligner, gold_path, links, workers, limit, progress).result


def best_of_grid(rows: Sequence[GridRow]) -> GridRow:
    """The row of the best macro F1 (to 12 digits); of several, the one nearest the paper's
    (0.9, 0.9) by the sum of the two distances (to 9 digits: in floats, |0.8 - 0.9| twice came
    out below |0.7 - 0.9|, so float noise chose between points equally near), then the first
    in grid order."""
    return max(rows, key=lambda r: (round(r["f1"], 12), -round(abs(r["ppdb_sim"] - 0.9) + abs(r["w"] - 0.9), 9)))


def tuned_on_test(gold_path: str | Path) -> str | None:
    """A warning when the gold file's name calls it a test split (`test` as a word of it:
    RTE2_test_M, gold.test.sure, mtref-test; not contest), None otherwise: tuning on it leaves
    no held-out figure for the setting it picks."""
    name = Path(gold_path).name
    if re.search(r"(?<![a-z])test(?![a-z])", name.lower()) is None:
        return None
    return (f"{name} is named as a test split: tune on dev or train pairs, then evaluate-aligner "
            "the best setting on test (a setting tuned on test has no held-out figure)")


def _searched_ppdb_sims(aligner: TunableAligner, grid: tuple[float, ...]) -> tuple[tuple[float, ...], str | None]:
    """The ppdb_sim values worth trying of `grid`, and why the others are not: ppdb_sim is the
    similarity of two related words, so an aligner with no related-word source (the
    ``--no-word-similarity`` ablation, or ``--similarity none`` without spelling variants) gives
    the same links at every value. It is then tried at the aligner's own value alone, and a
    warning says so. Before, every value was tried (10 times the work by default) and all tied,
    the "best" one chosen by the tie rule as if it had been found."""
    from .sultan.wordsim import NoSimilarity

    if len(grid) < 2 or not isinstance(aligner.related, NoSimilarity):
        return grid, None
    own = float(aligner.config.ppdb_sim)
    return (own,), (f"ppdb_sim not searched ({', '.join(map(str, grid))}): it is the similarity of related "
                    f"words, and this aligner has no related-word source (no word similarity), so every value "
                    f"gives the same links; tried at {own} alone")


def tune_aligner(aligner: TunableAligner, gold_path: str | Path, links: str = "sure",
                 ppdb_grid: Sequence[float] = GRID, w_grid: Sequence[float] = GRID,
                 workers: int = 1, limit: int | None = None,
                 progress: Progress | None = None) -> TuneResult:
    """Grid-search (ppdb_sim, w) by macro F1 on a gold file; annotation is done once.

    The report's ``signature`` is what stays the same across the grid (:func:`tuning_signature`);
    ``best["signature"]`` is the best setting's full aligner signature, the one
    :func:`evaluate_aligner` gives that setting. ``best["tied"]`` counts the settings with the
    best F1, itself included: among them the one nearest the paper's (0.9, 0.9) is reported
    (:func:`best_of_grid`), which says nothing about the others (on a small dev slice, often the whole grid).
    ``progress`` is given the gold pairs as they are annotated, then the settings as they are
    tried, as :func:`evaluate_aligner` gives its steps (named ``"annotating"`` and ``"grid"``)."""
    from ..metrics.alignment_scores import gold_warnings, score_alignments

    _check_aligner(aligner)
    check_scored_links(links)  # before the gold is annotated and aligned once a setting, not after
    if not callable(getattr(aligner, "with_params", None)):  # the exact-match aligner: it has no options
        raise ConfigurationError(f"{type(aligner).__name__} has no parameters to tune (tune_aligner searches the "
                                 "Sultan aligner's ppdb_sim and w): score it with evaluate_aligner")
    gold, _, skipped = read_gold(gold_path, limit)
    annotated = annotate_gold(aligner, gold, workers, progress)
    gold_alignments = [p.alignment for p in gold]
    # a value given twice ('0.9,0.9') would align the gold twice and tie with itself
    ppdb_grid, w_grid = tuple(dict.fromkeys(ppdb_grid)), tuple(dict.fromkeys(w_grid))
    ppdb_grid, unused = _searched_ppdb_sims(aligner, ppdb_grid)
    grid = [(p, w) for p in ppdb_grid for w in w_grid]
    rows: list[GridRow] = []
    warnings: tuple[str, ...]
    possible, warnings = 0, ()  # the gold's, the same at every setting
    for ppdb_sim, w in in_steps(progress, grid, len(grid), "grid"):
        variant = aligner.with_params(ppdb_sim=ppdb_sim, w=w)
        scores = score_alignments(gold_alignments, variant.align_annotated(annotated, workers=workers), links)
        macro, possible = scores.macro, scores.gold_possible_links
        warnings = gold_warnings(scores, str(gold_path))
        rows.append({"ppdb_sim": ppdb_sim, "w": w, "precision": macro.precision,
                     "recall": macro.recall, "f1": macro.f1, "exact": scores.exact})
    best = best_of_grid(rows)
    tied = sum(round(r["f1"], 12) == round(best["f1"], 12) for r in rows)
    best_aligner = aligner.with_params(ppdb_sim=best["ppdb_sim"], w=best["w"])
    signed = gold_parts(gold_path, links, limit)
    reported: BestRow = {**best, "tied": tied, "signature": alignment_signature(best_aligner, given_tokens=True, **signed)}
    fixed = tuning_signature(aligner, {"ppdb_sim": ppdb_grid, "w": w_grid}, **signed)
    return {"gold": str(gold_path), "pairs": len(gold), "links": links,
            "gold_possible_links": possible, "best": reported, "grid": rows,
            "skipped": len(skipped), "skipped_rows": [r.to_dict() for r in skipped],
            "warnings": [w for w in (tuned_on_test(gold_path), unused, *warnings) if w is not None],
            "signature": fixed}


# Input parsing and align_input moved; the old names work until paralign 0.3.
__getattr__ = moved_names(
    __name__,
    {
        "InputPair": "paralign.corpora.sentence_pairs",
        "parse_tsv_line": "paralign.corpora.sentence_pairs",
        "parse_jsonl_line": "paralign.corpora.sentence_pairs",
        "read_pairs": "paralign.corpora.sentence_pairs:read_input_pairs",
        "read_parallel": "paralign.corpora.sentence_pairs",
        "align_input": "paralign.aligners.batch",
        "alignment_record": "paralign.aligners.batch",
    },
)
