"""`paralign evaluate-sts`: Pearson/Spearman of alignment similarity against STS gold scores."""

from __future__ import annotations

import argparse
from typing import Any

from ..similarity import DEFAULT_SIGNAL, StsReport, evaluate_sts_files
from ..similarity.contextual import NEURAL_SIGNAL_NAMES
from ._aligner_options import check_aligner_preset
from ._bootstrap_options import (
    add_bootstrap_options,
    bootstrap_signature,
    check_bootstrap_options,
    too_few_to_resample,
)
from ._commands import add_command
from ._common import add_format, add_output, add_report, write_report, write_result
from ._encoder_options import add_encoder_options, check_encoder_options, encoder_device
from ._metavars import FILE
from ._similarity_options import add_similarity_options, aligns_with_encoder, evaluate_inputs

#: What --encoder and --device reach in this command (its help, and the error when none is used).
ENCODER_USERS = "--preset contextual (or --aligner contextual) or a neural signal (embedding, contextual-alignment, hybrid)"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "evaluate-sts",
        description="Score every pair of each --data file with a similarity signal (as similarity scores a pair) "
        "and correlate the scores with the file's gold scores: Pearson and Spearman, printed in percent "
        "(the JSON report's are fractions), with the pairs scored and the rows skipped (a bad row, a gold "
        "score missing or outside 0-5: listed on stderr). "
        "Several --data files give per-file results and their size-weighted mean. Each file "
        "is named by its file name, or by its last path parts when files share one (2012/OnWN.test.tsv). "
        "The last line is the signature of the settings behind the numbers.",
    )
    parser.add_argument("--data", action="append", required=True, metavar=FILE,
                        help="STS file: SemEval (score TAB s1 TAB s2), the STS Benchmark, or a CSV or TSV whose "
                        "first line names its columns, sentence1, sentence2 and score (or label) among them "
                        "(repeatable; - = stdin)")
    parser.add_argument("--train", action="append", default=[], metavar=FILE,
                        help="training STS file of --signal hybrid (repeatable; the blend is chosen to hold "
                        "across them and saved under \"model\" in the JSON report, for similarity --model, whose "
                        "\"train\" lists these files (as given; no scores); "
                        "without it, the blend paralign ships, fitted on STS 2012's training files)")
    add_similarity_options(parser)
    add_encoder_options(parser, ENCODER_USERS)
    add_bootstrap_options(parser, "95%% bootstrap intervals of each file's Pearson and Spearman and of "
                          "their size-weighted means (each file's pairs resampled within the file)")
    add_output(parser)
    add_format(parser)
    add_report(parser, "per file, system score against gold as a scatter plot, the correlations "
               "(with --confidence, their intervals) and the largest errors")
    parser.set_defaults(func=run)


def render(result: dict) -> str:
    wide = "pearson_interval" in result  # --confidence: each correlation's 95% interval beside it
    rows = [(s["name"], s) for s in result["sets"]]
    if len(result["sets"]) > 1:
        rows.append(("weighted mean", result))
    kinds = ("pearson", "spearman")
    # wide only: an interval column as wide as its widest interval (``[-100.00, 100.00]``), 15 at least
    shown = {k: [_interval(row.get(f"{k}_interval")) for _, row in rows] for k in kinds} if wide else {}
    widths = {k: max([15, *map(len, shown[k])]) for k in kinds} if wide else {}
    head = " ".join(f"{k:>8}" + (f"  {'95% interval':<{widths[k]}}" if wide else "") for k in kinds)
    lines = [f"{'set':<28} {'pairs':>6} {head} {'skipped':>7}"]
    for k, (name, row) in enumerate(rows):
        figures = [_num(row[kind]) + (f"  {shown[kind][k]:<{widths[kind]}}" if wide else "") for kind in kinds]
        lines.append(f"{name:<28} {row['pairs']:>6} {' '.join(figures)} {row['skipped']:>7}")
    model = result.get("model")
    if model:
        blend = " + ".join(f"{s['weight']:.3f}·{s['name']}" for s in model["signals"])
        trained = ", ".join(result["train"]) or f"{', '.join(model.get('groups', ()))} (the blend paralign ships)"
        lines.append(f"hybrid (standardised signals, l2 {model['l2']:g}): {blend}; trained on {trained}")
    if result["failed"]:  # JSON's "failed": not in the table's pairs, nor in the correlations
        n = result["failed"]
        lines.append(f"failed: {n} pair{'s' if n > 1 else ''} could not be scored and "
                     f"{'are' if n > 1 else 'is'} left out of the correlations (reported on stderr)")
    lines.append(f"signature: {result['signature']}")  # last, under the scores, as sacrebleu's
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return f"{'n/a':>8}" if value is None else f"{100 * value:>8.2f}"


def _interval(interval: dict | None) -> str:
    """``[86.91, 88.52]`` (percent, as the correlations), ``n/a`` when undefined (a warning
    says why), as every command with --confidence shows an interval it has not; unpadded, for
    :func:`render` to size its column to the widest (it was padded to 15, and ``[-100.00, 100.00]``
    pushed the columns after it out of line)."""
    if not interval or interval["low"] is None:
        return "n/a"
    return f"[{100 * interval['low']:.2f}, {100 * interval['high']:.2f}]"


def _add_intervals(args: argparse.Namespace, report: StsReport, result: dict) -> list[str]:
    """--confidence: each correlation's bootstrap interval beside it (``pearson_interval``,
    ``spearman_interval``), the resampling under ``resamples`` and ``seed`` (as the other
    commands' confidence objects name it) and in the signature (``bs:N|seed:S``). Returns why a
    file has none (null): fewer than 3 scored pairs (over 2 a correlation is +1 or -1 in every
    resample: significance.MIN_CORRELATED), or a correlation undefined as the scores or
    the gold scores do not vary (then neither does any resample's)."""
    from ..similarity.sts import sts_intervals

    intervals: dict[str, Any] = sts_intervals(report, n_resamples=args.resamples, seed=args.seed)  # JSON's
    for row, found in [*zip(result["sets"], intervals["sets"], strict=True), (result, intervals)]:
        for kind in ("pearson", "spearman"):
            row[f"{kind}_interval"] = None if found is None else found[kind]
    result["resamples"], result["seed"] = intervals["resamples"], intervals["seed"]
    result["signature"] = bootstrap_signature(args, result["signature"])
    return [f"{s['path']}: " + (too_few_to_resample(s["pairs"], "scored pair", correlated=True) or
                                "no bootstrap interval (n/a): the correlation is undefined (the scores "
                                "or the gold scores do not vary)")
            for s in result["sets"] if s["pearson_interval"] is None]


def run(args: argparse.Namespace) -> int:
    check_aligner_preset(args)
    check_bootstrap_options(args)
    check_encoder_options(args, args.signal in NEURAL_SIGNAL_NAMES or aligns_with_encoder(args), ENCODER_USERS)
    reports: list[StsReport] = []

    def evaluate(paths: dict, **common) -> dict:
        reports.append(evaluate_sts_files(paths["data"], signal=args.signal or DEFAULT_SIGNAL,
                                          idf_from=paths["idf_from"], train=paths["train"],
                                          encoder=args.encoder, device=encoder_device(args), **common))
        return reports[0].to_dict()

    result, names = evaluate_inputs(args, evaluate, data=args.data, idf_from=args.idf_from, train=args.train)
    for s in result["sets"]:
        if s["path"] in names.values():
            s["name"] = s["path"]  # not the copy's file name
    undefined = _add_intervals(args, reports[0], result) if args.confidence else []
    items = [f"{s['path']}:{row['line']}: skipped: {row['reason']}" for s in result["sets"] for row in s["skipped_rows"]]
    items += [f"{s['path']}:{f['line']}: {f['error']}" for s in result["sets"] for f in s["failures"]]
    write_result(args, result, render, result["notes"] + undefined, items)  # the bad rows' list is capped
    if args.report is not None:
        from ..viz.reports import sts_report

        write_report(args.report, sts_report(reports[0], result))
    return 0
