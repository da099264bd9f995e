"""`paralign evaluate-paraphrase`: paraphrase identification by thresholding alignment similarity."""

from __future__ import annotations

import argparse

from ..similarity import (
    DEFAULT_THRESHOLD_RULE,
    PARAPHRASE_PRESET,
    THRESHOLD_RULES,
    evaluate_paraphrase_files,
    get_aligner,
)
from ._common import add_format, add_output, emit, fmt_pct, open_out, warn
from .similarity import add_similarity_options, aligner_preset, progress_callback


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate-paraphrase",
        help="choose a similarity threshold on MSRP-format training pairs, report test accuracy/P/R/F1",
        description="Pairs scoring above the threshold (chosen on the training pairs by --rule) are paraphrases; "
        "P/R/F1 are for the paraphrase class. IDF signals are fitted on the training sentences.",
    )
    parser.add_argument("--train", action="append", required=True, metavar="FILE", help="training file (repeatable, e.g. train and val)")
    parser.add_argument("--test", required=True, metavar="FILE", help="test file")
    add_similarity_options(parser, idf=False, preset=PARAPHRASE_PRESET)
    parser.add_argument(
        "--rule",
        default=DEFAULT_THRESHOLD_RULE,
        choices=list(THRESHOLD_RULES),
        help="how the threshold is chosen on the training pairs (default: %(default)s)",
    )
    parser.add_argument(
        "--cv-folds",
        type=int,
        default=0,
        metavar="K",
        help="also report K-fold cross-validation of the rule on the training pairs (default: off)",
    )
    add_output(parser)
    add_format(parser)
    parser.set_defaults(func=run)


def render(result: dict) -> str:
    return "\n".join(
        [
            f"threshold  {result['threshold']:.4f} (aligner {result['aligner']}, signal {result['signal']}, "
            f"rule {result['rule']}, "
            f"{result['train_pairs']} training pairs)",
            f"accuracy   {fmt_pct(result['accuracy'])}",
            f"precision  {fmt_pct(result['precision'])}",
            f"recall     {fmt_pct(result['recall'])}",
            f"f1         {fmt_pct(result['f1'])}",
            f"test pairs {result['test_pairs']}, skipped rows {result['skipped']}, failed pairs {result['failed']}",
        ]
        + _render_cv(result.get("cross_validation"))
    )


def _render_cv(cv: dict | None) -> list[str]:
    if cv is None:
        return []
    return [
        f"training {cv['folds']}-fold cross-validation: accuracy {fmt_pct(cv['accuracy'])}, "
        f"precision {fmt_pct(cv['precision'])}, recall {fmt_pct(cv['recall'])}, f1 {fmt_pct(cv['f1'])}"
    ]


def run(args: argparse.Namespace) -> int:
    update, close = progress_callback(None, "evaluate-paraphrase")
    try:
        result = evaluate_paraphrase_files(
            args.train,
            args.test,
            signal=args.signal,
            rule=args.rule,
            cv_folds=args.cv_folds,
            aligner=get_aligner(args.aligner, aligner_preset(args)),
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
