"""`paralign paraphrase-table`: a paraphrase table from groups of equivalent English sentences."""

from __future__ import annotations

import argparse
from typing import Any

from ._common import positive_int, progress
from ._pipelines import add_pipeline_options, options_from_args, run_table_pipeline


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "paraphrase-table",
        help="build a paraphrase table by aligning equivalent English sentences (monolingual SMT)",
        description="Align every pair of sentences within each group (eflomal trained on all those "
        "pairs, or the Sultan aligner), extract non-identical phrase pairs and score them "
        "p(e2|e1) = c(e1,e2) / sum_e c(e1,e). Groups: one group a line as TSV of equivalent "
        "sentences, or the Bible TSV layout (header verse_id book chapter verse V1 V2 ...).",
    )
    parser.add_argument("--groups", required=True, help="groups file (TSV, .gz allowed; - = stdin)")
    parser.add_argument("--aligner", choices=("eflomal", "sultan"), default="eflomal")
    parser.add_argument("--max-groups", type=int, default=None, help="use only the first N groups")
    parser.add_argument("--workers", type=positive_int, default=1, help="processes for the Sultan aligner")
    add_pipeline_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..pivot import monolingual_paraphrases

    def build(inputs: list[str], output: str, work_dir: str | None) -> Any:
        return monolingual_paraphrases(
            inputs[0],
            output,
            options_from_args(args),
            aligner=args.aligner,
            max_groups=args.max_groups,
            workers=args.workers,
            work_dir=work_dir,
            restart=args.restart,
            keep_work=args.keep_work,
            progress=progress,
        )

    return run_table_pipeline(args, [args.groups], build)
