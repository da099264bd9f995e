"""`paralign paraphrase-table`: a paraphrase table from groups of equivalent English sentences."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ConfigurationError
from ._cluster import cluster_from_args
from ._commands import add_command
from ._common import positive_int, progress
from ._metavars import FILE, N
from ._pipelines import (
    EFLOMAL_NOT_SEEDED,
    GIVEN_PAIR_ALIGNMENT,
    add_pipeline_options,
    check_eflomal_options,
    cluster_announcer,
    options_from_args,
    run_table_pipeline,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "paraphrase-table",
        description="Align every pair of sentences within each group (eflomal trained on all those "
        "pairs, or the Sultan aligner), extract non-identical phrase pairs and score them "
        "p(e2|e1) = c(e1,e2) / sum_e c(e1,e). Groups: one group a line as TSV of equivalent "
        "sentences, the Bible TSV layout (header verse_id book chapter verse V1 V2 ...), or gold "
        "alignments as JSON (MTReference: the pairs of one source segment). Columns: phrase, "
        "paraphrase, probability (p(e2|e1)), count (c(e1,e2): how often the two were aligned; "
        "--min-count filters on it), phrase_count (sum_e c(e1,e): the phrase's aligned occurrences). "
        + EFLOMAL_NOT_SEEDED + " " + GIVEN_PAIR_ALIGNMENT,
    )
    parser.add_argument("--groups", required=True, metavar=FILE,
                        help="groups file: TSV (one group a line, or the Bible layout) or gold "
                        "alignments as JSON (MTReference: a group per source segment; tokenised, "
                        "so --tokenizer whitespace keeps its tokens); .gz allowed; - = stdin")
    parser.add_argument("--aligner", choices=("eflomal", "sultan"), default=None,
                        help="eflomal (default; cannot be seeded, so tables differ between runs) or sultan; "
                        "not with --alignment")
    parser.add_argument("--alignment", default=None, metavar=FILE,
                        help="Pharaoh alignment of the sentence pairs instead of running --aligner: line i for "
                        "the i-th pair the groups form (within each group, every distinct tokenised "
                        "sentence with each later one). Run once with --keep-work to see those pairs, "
                        "tokenised, in WORK/mono/en.tok and WORK/mono/f.tok; `word-align --tokenizer whitespace "
                        "--source WORK/mono/en.tok --target WORK/mono/f.tok` (tokens as they are) writes a matching "
                        "file. Makes the table "
                        "reproducible")
    parser.add_argument("--max-groups", type=positive_int, default=None, metavar=N,
                        help="use only the first N groups (N >= 1; default: all)")
    add_pipeline_options(parser, pivot=False)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..pivot import monolingual_paraphrases

    if args.aligner is not None and args.alignment is not None:
        raise ConfigurationError(f"--aligner {args.aligner} contradicts --alignment (a given alignment: "
                                 "no aligner runs)")
    check_eflomal_options(args, "--alignment gives the links" if args.alignment is not None
                          else "--aligner sultan aligns" if args.aligner == "sultan" else None)

    def build(inputs: list[str], output: str, work_dir: str | None, names: dict[str, str]) -> Any:
        return monolingual_paraphrases(
            inputs[0],
            output,
            options_from_args(args),
            aligner=args.aligner or "eflomal",
            max_groups=args.max_groups,
            workers=args.workers,  # the Sultan aligner's processes too
            work_dir=work_dir,
            restart=args.restart,
            keep_work=args.keep_work,
            progress=progress,
            alignment=inputs[1] if len(inputs) > 1 else None,
            cluster=cluster_from_args(args),
            on_start=cluster_announcer(args),
            shown_names=names,
        )

    return run_table_pipeline(args, [args.groups] + ([args.alignment] if args.alignment else []), build)
