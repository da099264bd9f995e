"""`paralign align`: word-align sentence pairs with the Sultan et al. (2014) aligner.

Input: TSV lines `source<TAB>target` (or `id<TAB>source<TAB>target`), JSONL lines with
"source"/"target", or two line-aligned files (`--source F --target F`). Output: one Pharaoh line
per input line (`i-j ...`, 0-based), or JSON Lines (one JSON object per pair, with the aligned
token pairs). A malformed input line or an empty sentence is reported on stderr with its line
number and gives an EMPTY output line (text) or an object with an "error" field (json), so output
lines stay aligned with input lines. The exit status is 1 when every input pair is bad.
"""

from __future__ import annotations

import argparse
import json

from .._moved import moved_names
from ..aligners.batch import align_input, alignment_record
from ..corpora.sentence_pairs import read_input_pairs, read_parallel
from ..errors import ConfigurationError
from ._common import add_format, add_output, input_name, open_in, open_out, progress, warn
from ._options import add_aligner_options, aligner_from_args


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "align", help="word-align sentence pairs (Sultan et al. 2014)",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", nargs="?", default="-", help="TSV or JSONL pairs (default: stdin)")
    parser.add_argument("--source", help="file of source sentences, one a line (with --target)")
    parser.add_argument("--target", help="file of target sentences, line-aligned with --source")
    parser.add_argument("--input-format", choices=("auto", "tsv", "jsonl"), default="auto")
    parser.add_argument("--tokenized", action="store_true",
                        help="sentences are whitespace-tokenised: keep those tokens exactly")
    add_aligner_options(parser)
    add_format(parser, help="text: one Pharaoh line per pair; json: JSON Lines, one object per "
               "pair (default: %(default)s)")
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    aligner = aligner_from_args(args)
    if bool(args.source) != bool(args.target):
        raise ConfigurationError("--source and --target go together")
    if args.source:
        with open_in(args.source) as src, open_in(args.target) as tgt:
            pairs = list(read_parallel(src, tgt, args.tokenized, source_name=args.source,
                                       target_name=args.target))
    else:
        with open_in(args.input) as handle:
            pairs = list(read_input_pairs(handle, args.input_format, args.tokenized))
    name = args.source or input_name(args.input)
    for pair in pairs:
        if pair.error:
            warn(f"{pair.origin or name}:{pair.line}: {pair.error} (empty output line)")
    results = align_input(aligner, pairs, workers=args.workers,
                          progress=lambda items: progress(items, "aligning", total=len(pairs)))
    bad = 0
    with open_out(args.output) as out:
        for pair, source, target, alignment in results:
            if alignment is None or source is None or target is None:
                bad += 1
                if args.format == "json":
                    out.write(json.dumps({"line": pair.line, "error": pair.error}) + "\n")
                else:
                    out.write("\n")
                continue
            if args.format == "json":
                record = alignment_record(pair, source, target, alignment)
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            else:
                out.write(alignment.to_pharaoh() + "\n")
    return 1 if bad and bad == len(pairs) else 0


# Helpers shared with other commands moved; the old names work until 0.3, with a warning.
__getattr__ = moved_names(__name__, {
    "add_preset_option": "paralign.cli._options",
    "add_gold_options": "paralign.cli._options",
})
