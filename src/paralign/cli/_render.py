"""Text renderings of results that several commands print (their `--format text`).

`render_scores` (alignment scores: score-alignments, evaluate-aligner, demo) and the ParaMetric
tables (`render_align_scores`, `render_table_scores`). The results are built by the library; only
their text layout lives here (the paraphrase-table pipelines' report is in :mod:`._pipelines`).

Not for: computing any figure (the library does), JSON output (``to_dict`` of the results), or a
rendering only one command uses (that stays in the command's module).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import counted

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.parametric import AlignScores, TableScores

#: What each figure of :func:`render_scores` is (score-alignments' and evaluate-aligner's --help).
SCORES_LEGEND = (
    "Output (percent in text, proportions in JSON): macro = P and R averaged over the "
    "pairs and F1 of those two means (jacana's convention); micro = P, R and F1 from the link "
    "counts summed over the pairs; och-ney = Och & Ney's P (system links that are gold sure or "
    "possible) and R (gold sure links found), from the summed counts, with their F1: AER's two "
    "halves, as bilingual word-alignment papers report them; exact = the share of pairs whose "
    "system links equal the gold links; AER = the alignment error rate (Och & Ney 2003) against "
    "the gold's sure and possible links (och-ney and AER whatever --gold-links says); gold links "
    "= the gold links scored against, summed; system links = the system's links (sure and "
    "possible), summed; signature = the settings that made the numbers (the last line of text)."
)


def render_scores(result: dict) -> str:
    """A small text table of `AlignmentScores.to_dict()`: macro and micro P/R/F1, exact, AER."""

    def pct(value: float) -> str:
        return f"{100 * value:5.1f}"

    skipped = f" ({result['skipped']} skipped)" if result.get("skipped") else ""
    lines = [
        f"pairs: {result['pairs']}{skipped}  gold links: {result['links']} ({result['gold_links']})  "
        f"system links: {result['system_links']}",
        "          P      R      F1",
    ]
    for key, label in (("macro", "macro"), ("micro", "micro"), ("och_ney", "och-ney")):
        prf = result[key]
        lines.append(f"{label:<7} {pct(prf['precision'])}  {pct(prf['recall'])}  {pct(prf['f1'])}")
    lines.append(f"exact   {pct(result['exact'])}% ({result['exact_count']} of {result['pairs']})")
    lines.append(f"AER     {pct(result['aer'])}")
    found = result.get("confidence")
    if found and found["macro_f1"] is None:  # --confidence over fewer than 2 pairs (a warning says so)
        lines.append("macro F1 bootstrap: n/a (fewer than 2 pairs to resample)")
    elif found:  # --confidence: the bootstrap of macro F1 over pairs
        f1 = found["macro_f1"]
        lines.append(f"macro F1 bootstrap: μ = {100 * f1['mean']:.2f} ± {100 * f1['ci']:.2f} (95%, "
                     f"{counted(f1['resamples'], 'resample')} of the pairs, seed {f1['seed']})")
    if "per_pair" in result:  # --per-pair: what JSON's "per_pair" holds, one row a scored pair
        lines.extend(_per_pair_rows(result["per_pair"]))
    return "\n".join(lines)


def _per_pair_rows(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """A table of per-pair counts and scores, one row a scored pair (`pair`: its position in
    the input; a skipped pair has no row), in percent as the totals above it."""
    out = ["pair  gold  system  correct      P      R     F1  exact"]
    for row in rows:
        out.append(f"{row['pair']:>4}  {row['gold']:>4}  {row['system']:>6}  {row['correct']:>7}  "
                   f"{100 * row['precision']:5.1f}  {100 * row['recall']:5.1f}  {100 * row['f1']:5.1f}  "
                   f"{'yes' if row['exact'] else 'no'}")
    return out


def _fmt(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:5.3f}"


def _length_label(n: int) -> str:
    return "Length = 1" if n == 1 else f"Length <= {n}"


#: A column of a ParaMetric table: header, width, and the cell of one length bound's counts.
Column = tuple[str, int, Callable[[Any], str | int]]

_ALIGN_COLUMNS: tuple[Column, ...] = (
    ("AlignPrec", 9, lambda c: _fmt(c.precision)), ("AlignRecall", 11, lambda c: _fmt(c.recall)),
    ("matched", 8, lambda c: c.matched), ("system", 8, lambda c: c.system), ("gold", 8, lambda c: c.gold),
)
_TABLE_COLUMNS: tuple[Column, ...] = (
    ("LB-Prec", 8, lambda c: _fmt(c.lb_precision)), ("Rel-Recall", 10, lambda c: _fmt(c.rel_recall)),
    ("correct", 8, lambda c: c.correct), ("posited", 9, lambda c: c.posited),
    ("reference", 9, lambda c: c.reference),
)


def _length_table(title: str, columns: Sequence[Column], by_length: Mapping[int, Any]) -> str:
    """`title`, a header of `columns`, then a line per length bound n: its label ("Length <= n")
    and its cells, each right-aligned to its column's width."""
    lines = [title, " ".join([f"{'':12}", *(f"{name:>{width}}" for name, width, _ in columns)])]
    for n, counts in sorted(by_length.items()):
        cells = (f"{cell(counts):>{width}}" for _, width, cell in columns)
        lines.append(" ".join([f"{_length_label(n):12}", *cells]))
    return "\n".join(lines)


def render_align_scores(result: AlignScores) -> str:
    """A text table like the paper's Table 3 (AlignPrec and AlignRecall columns), then the signature."""
    skipped = f" ({result.skipped} skipped)" if result.skipped else ""
    title = f"ParaMetric alignment scores over {counted(result.pairs, 'pair')}{skipped}"
    return _length_table(title, _ALIGN_COLUMNS, result.by_length) + _signature_line(result.signature)


def render_table_scores(result: TableScores) -> str:
    """A text table like the paper's Table 3 (LB-Precision and Rel-Recall columns), then the signature."""
    left_out = [f"{counted(n, noun)} skipped" for n, noun in ((len(result.skipped_rows), "bad gold item"),
                                                               (result.skipped_groups, "group")) if n]
    skipped = f" ({', '.join(left_out)})" if left_out else ""
    title = (f"ParaMetric scores of {result.source} over {counted(result.groups, 'group')}, "
             f"{counted(result.sentences, 'sentence')}")
    return _length_table(title + skipped, _TABLE_COLUMNS, result.by_length) + _signature_line(result.signature)


def _signature_line(signature: str | None) -> str:
    """The text output's last line, ``signature: ...``, as every signed command ends (none when unsigned)."""
    return "" if signature is None else f"\nsignature: {signature}"
