"""`paralign evaluate-sts`: Pearson/Spearman of alignment similarity against STS gold scores."""

from __future__ import annotations

import argparse

from ..similarity import DEFAULT_SIGNAL, StsReport, evaluate_sts_files
from ._common import add_format, add_output, add_report, write_report, write_result
from ._options import add_similarity_options, evaluate_inputs


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate-sts",
        help="correlate alignment similarity with STS gold scores (SemEval TSV or STS Benchmark)",
        description="Several --data files give per-file results and their size-weighted mean.",
    )
    parser.add_argument("--data", action="append", required=True, metavar="FILE",
                        help="STS file (repeatable; - = stdin)")
    parser.add_argument("--train", action="append", default=[], metavar="FILE",
                        help="training STS file of --signal hybrid (repeatable; the blend is chosen to hold "
                        "across them and saved under \"model\" in the JSON report, for similarity --model; "
                        "without it, the blend paralign ships, fitted on STS 2012's training files)")
    add_similarity_options(parser)
    add_output(parser)
    add_format(parser)
    add_report(parser, "per file, system score against gold as a scatter plot, the correlations "
               "and the largest errors")
    parser.set_defaults(func=run)


def render(result: dict) -> str:
    lines = [f"{'set':<28} {'pairs':>6} {'pearson':>8} {'spearman':>8} {'skipped':>7}"]
    for s in result["sets"]:
        lines.append(f"{s['name']:<28} {s['pairs']:>6} {_num(s['pearson'])} {_num(s['spearman'])} {s['skipped']:>7}")
    if len(result["sets"]) > 1:
        lines.append(f"{'weighted mean':<28} {result['pairs']:>6} {_num(result['pearson'])} {_num(result['spearman'])} {result['skipped']:>7}")
    model = result.get("model")
    if model:
        blend = " + ".join(f"{s['weight']:.3f}·{s['name']}" for s in model["signals"])
        trained = ", ".join(result["train"]) or f"{', '.join(model.get('groups', ()))} (the blend paralign ships)"
        lines.append(f"hybrid (standardised signals, l2 {model['l2']:g}): {blend}; trained on {trained}")
    lines.append(f"signature: {result['signature']}")  # last, under the scores, as sacrebleu's
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return f"{'n/a':>8}" if value is None else f"{100 * value:>8.2f}"


def run(args: argparse.Namespace) -> int:
    reports: list[StsReport] = []

    def evaluate(paths: dict, **common) -> dict:
        reports.append(evaluate_sts_files(paths["data"], signal=args.signal or DEFAULT_SIGNAL,
                                          idf_from=paths["idf_from"], train=paths["train"], **common))
        return reports[0].to_dict()

    result, names = evaluate_inputs(args, evaluate, data=args.data, idf_from=args.idf_from, train=args.train)
    for s in result["sets"]:
        if s["path"] in names.values():
            s["name"] = s["path"]  # not the copy's file name
    warnings = [f"{s['path']}:{row['line']}: skipped: {row['reason']}" for s in result["sets"] for row in s["skipped_rows"]]
    warnings += [f"{s['path']}: pair {f['index'] + 1}: {f['error']}" for s in result["sets"] for f in s["failures"]]
    warnings += result["notes"]
    write_result(args, result, render, warnings)
    if args.report is not None:
        from ..viz.reports import sts_report

        write_report(args.report, sts_report(reports[0], result))
    return 0
