"""`paralign evaluate-paraphrase`: paraphrase identification by thresholding alignment similarity."""

from __future__ import annotations

import argparse

from ..similarity import evaluate_paraphrase_files, get_aligner
from ._common import add_format, add_output, emit, fmt_pct, open_out, warn
from .similarity import add_similarity_options, progress_callback


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate-paraphrase",
        help="choose a similarity threshold on MSRP-format training pairs, report test accuracy/P/R/F1",
        description="Pairs scoring above the threshold (maximum training accuracy) are paraphrases; "
        "P/R/F1 are for the paraphrase class. IDF signals are fitted on the training sentences.",
    )
    parser.add_argument("--train", action="append", required=True, metavar="FILE", help="training file (repeatable, e.g. train and val)")
    parser.add_argument("--test", required=True, metavar="FILE", help="test file")
    add_similarity_options(parser, idf=False)
    add_output(parser)
    add_format(parser)
    parser.set_defaults(func=run)


def render(result: dict) -> str:
    return "\n".join(
        [
            f"threshold  {result['threshold']:.4f} (signal {result['signal']}, {result['train_pairs']} training pairs)",
            f"accuracy   {fmt_pct(result['accuracy'])}",
            f"precision  {fmt_pct(result['precision'])}",
            f"recall     {fmt_pct(result['recall'])}",
            f"f1         {fmt_pct(result['f1'])}",
            f"test pairs {result['test_pairs']}, skipped rows {result['skipped']}, failed pairs {result['failed']}",
        ]
    )


def run(args: argparse.Namespace) -> int:
    update, close = progress_callback(None, "evaluate-paraphrase")
    try:
        result = evaluate_paraphrase_files(
            args.train,
            args.test,
            signal=args.signal,
            aligner=get_aligner(args.aligner),
            workers=args.workers,
            progress=update,
        )
    finally:
        close()
    for row in result["skipped_rows"]:
        warn(f"{row['file']}:{row['line']}: skipped: {row['reason']}")
    for f in result["failures"]:
        warn(f"{f['split']} pair {f['index'] + 1}: {f['error']}")
    with open_out(args.output) as out:
        emit(result, args.format, render, out)
    return 0
