"""Text renderings of results that several commands print (their `--format text`).

`render_scores` (alignment scores: score-alignments, evaluate-aligner, demo), the ParaMetric
tables (`render_align_scores`, `render_table_scores`) and the paraphrase-table pipelines' report
(`render_report`: pivot, paraphrase-table). The results are built by the library; only their text
layout lives here.

Not for: computing any figure (the library does), JSON output (``to_dict`` of the results), or a
rendering only one command uses (that stays in the command's module).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..metrics.parametric import AlignScores, TableScores
from ._common import STDOUT_NAME, fmt_pct, is_std


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
    for key in ("macro", "micro"):
        prf = result[key]
        lines.append(f"{key:<7} {pct(prf['precision'])}  {pct(prf['recall'])}  {pct(prf['f1'])}")
    lines.append(f"exact   {pct(result['exact'])}% ({result['exact_count']} of {result['pairs']})")
    lines.append(f"AER     {pct(result['aer'])}")
    return "\n".join(lines)


def _fmt(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:5.3f}"


def _length_label(n: int) -> str:
    return "Length = 1" if n == 1 else f"Length <= {n}"


def _length_table(title: str, columns: Sequence[tuple[str, int]],
                  rows: Iterable[tuple[int, Sequence[str | int]]]) -> str:
    """`title`, a header of `columns` (name, width), then a line per length bound n: its label
    ("Length <= n") and its cells, each right-aligned to its column's width."""
    lines = [title, " ".join([f"{'':12}", *(f"{name:>{width}}" for name, width in columns)])]
    for n, cells in rows:
        lines.append(" ".join([f"{_length_label(n):12}",
                               *(f"{cell:>{width}}" for cell, (_, width) in zip(cells, columns, strict=True))]))
    return "\n".join(lines)


def render_align_scores(result: AlignScores) -> str:
    """A text table like the paper's Table 3 (AlignPrec and AlignRecall columns)."""
    title = (f"ParaMetric alignment scores over {result.pairs} pairs"
             + (f" ({result.skipped} skipped)" if result.skipped else ""))
    rows = ((n, (_fmt(c.precision), _fmt(c.recall), c.matched, c.system, c.gold))
            for n, c in sorted(result.by_length.items()))
    return _length_table(title, (("AlignPrec", 9), ("AlignRecall", 11), ("matched", 8), ("system", 8),
                                 ("gold", 8)), rows)


def render_table_scores(result: TableScores) -> str:
    """A text table like the paper's Table 3 (LB-Precision and Rel-Recall columns)."""
    title = (f"ParaMetric scores of {result.source} over {result.groups} groups, "
             f"{result.sentences} sentences"
             + (f" ({len(result.skipped_rows)} bad gold item(s) skipped)" if result.skipped_rows else ""))
    rows = ((n, (_fmt(c.lb_precision), _fmt(c.rel_recall), c.correct, c.posited, c.reference))
            for n, c in sorted(result.by_length.items()))
    return _length_table(title, (("LB-Prec", 8), ("Rel-Recall", 10), ("correct", 8), ("posited", 9),
                                 ("reference", 9)), rows)


def render_report(result: dict) -> str:
    output = STDOUT_NAME if is_std(result["output"]) else result["output"]
    lines = [f"wrote {result['rows']} paraphrase pairs for {result['phrases']} phrases to {output}"]
    for corpus in result["corpora"]:
        if "lines" in corpus:
            kept = corpus["kept"] / corpus["lines"] if corpus["lines"] else None
            lines.append(
                f"  {corpus['source']} / {corpus['target']}: {corpus['kept']} of {corpus['lines']} "
                f"lines used ({fmt_pct(kept)}%); skipped {corpus['empty']} empty, "
                f"{corpus['too_long']} over-long, {corpus['filtered']} by length ratio; "
                f"{corpus['replaced']} with bad bytes replaced"
            )
        else:
            lines.append("  " + ", ".join(f"{k}: {v}" for k, v in corpus.items()))
    if result["resumed_stages"]:
        lines.append(f"  resumed: {len(result['resumed_stages'])} finished stages/chunks reused")
    return "\n".join(lines)
