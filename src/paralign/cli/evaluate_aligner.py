"""`paralign evaluate-aligner`: align every pair of a gold file and score the result."""

from __future__ import annotations

import argparse

from ..aligners.evaluation import PairResult, evaluate_aligner_pairs
from ..viz.html import DRAWN
from ._aligner_options import add_aligner_options, add_gold_options, loaded_aligner, on_gold
from ._bootstrap_options import add_bootstrap_options, add_macro_confidence, check_bootstrap_options
from ._cluster import cluster_runner
from ._commands import add_command
from ._common import (
    add_format,
    add_output,
    add_report,
    progress,
    warn_skipped_pairs,
    write_report,
    write_result,
)
from ._render import SCORES_LEGEND, render_scores


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "evaluate-aligner",
        description="Align every pair of a gold alignment file (any format score-alignments "
        "reads) with the --aligner chosen (sultan, its contextual preset, or the exact-match "
        "baseline: the same gold and scores for each, the signature naming the aligner) and print "
        "the gold file (as given), score-alignments' scores plus annotate_seconds, align_seconds "
        "and pairs_per_second.",
        epilog=f"{SCORES_LEGEND} gold = the gold file, as given (the first line of text); time = the seconds spent annotating (spaCy; with --preset "
        "contextual or --aligner contextual, the encoder too) and aligning, and the pairs per second of the two together.",
    )
    add_gold_options(parser)
    add_aligner_options(parser)
    add_bootstrap_options(parser, "95%% bootstrap confidence of macro F1, resampling the pairs: mean ± half-width")
    add_format(parser)
    add_output(parser)
    add_report(parser, f"the scores, then every pair against gold, worst first, the {DRAWN:,} worst "
               "with their grids, filterable by missed or wrong links")
    parser.set_defaults(func=run)


def _render(result: dict) -> str:
    return f"gold: {result['gold']}\n" + render_scores(result) + (
        f"\ntime    annotate {result['annotate_seconds']:.1f}s  align {result['align_seconds']:.1f}s"
        f"  ({result['pairs_per_second']:.1f} pairs/s end to end)"
        f"\nsignature: {result['signature']}"
    )


def run(args: argparse.Namespace) -> int:
    check_bootstrap_options(args)
    pairs: list[PairResult] = []

    def evaluate(gold: str) -> dict:
        evaluation = evaluate_aligner_pairs(
            loaded_aligner(args), gold, args.gold_links, workers=args.workers, limit=args.limit,
            progress=lambda steps: progress(steps, getattr(steps, "name", "aligning")),  # loading, annotating, aligning
        )
        pairs.extend(evaluation.pairs)
        return dict(evaluation.result)  # a plain dict: --confidence adds a key the report type lacks

    with cluster_runner(args):
        result = on_gold(args, evaluate)
    if args.confidence:
        add_macro_confidence(args, result, [pair.counts for pair in pairs])
    write_result(args, result, _render, result["warnings"])
    if args.report is not None:
        from ..viz.reports import alignment_report

        write_report(args.report, alignment_report(result, pairs))
    warn_skipped_pairs(result["skipped_rows"])
    return 0
