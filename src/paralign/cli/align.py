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

from ..aligners.evaluation import align_input, alignment_record, read_pairs, read_parallel
from ..aligners.sultan import PRESETS, Aligner, preset_options
from ..errors import ConfigurationError
from ._common import (
    add_format,
    add_output,
    input_name,
    open_in,
    open_out,
    positive_int,
    progress,
    warn,
)


def add_preset_option(container: argparse._ActionsContainer, default: str = "default") -> None:
    """--preset: a named option set of the Sultan aligner (shared with the similarity commands)."""
    container.add_argument(
        "--preset", choices=list(PRESETS), default=default,
        help="option set of the sultan aligner: default, paper (the published method only) or "
        "paraphrase (chosen on paraphrase alignments: context links, unique stop words) "
        "(default: %(default)s)",
    )


def add_aligner_options(parser: argparse.ArgumentParser, *, parameters: bool = True) -> None:
    """Options shared by align, evaluate-aligner and tune-aligner (which searches --ppdb-sim and
    --w itself: `parameters=False` leaves them out)."""
    group = parser.add_argument_group("aligner")
    group.add_argument("--similarity", default="ppdb",
                       help="related-word source: ppdb, wordnet, none, a TSV table, or a+b "
                       "(default: %(default)s)")
    if parameters:
        group.add_argument("--ppdb-sim", type=float, default=0.9,
                           help="similarity of a related pair (default: 0.9)")
        group.add_argument("--w", type=float, default=0.9,
                           help="weight of word vs context similarity (default: 0.9)")
    group.add_argument("--no-word-similarity", action="store_true", help="ablation: identical words only")
    group.add_argument("--no-dependencies", action="store_true", help="ablation: no dependency context")
    group.add_argument("--no-text-context", action="store_true", help="ablation: no textual context")
    group.add_argument("--no-stop-words", action="store_true", help="ablation: no stop-word modules")
    group.add_argument("--stop-word-sequences", action="store_true",
                       help="wsAlign also aligns identical all-stop-word sequences (the reference "
                       "code's behaviour; the paper requires a content word)")
    add_preset_option(group)
    group.add_argument("--paper", action="store_true",
                       help="switch off paralign's extensions (sentence-start evidence, quote "
                       "pairs, spelling variants, ...): the same as --preset paper")
    group.add_argument("--context-links", type=int, default=None, metavar="N",
                       help="also align unrelated content words with N or more corresponding "
                       "aligned dependency neighbours (for paraphrase data; default: the preset's, "
                       "off except in the paraphrase preset)")
    group.add_argument("--workers", type=int, default=1, help="processes for parsing and aligning")


def add_gold_options(parser: argparse.ArgumentParser) -> None:
    """--gold, --gold-links and --limit, for evaluate-aligner and tune-aligner."""
    from ..metrics.alignment_scores import LINK_SETS

    parser.add_argument("--gold", required=True, help="gold alignment file (any format the "
                        "corpora loaders read)")
    parser.add_argument("--gold-links", choices=LINK_SETS, default="sure")
    parser.add_argument("--limit", type=positive_int, default=None, metavar="N",
                        help="only the first N pairs (N >= 1; default: all)")


def aligner_from_args(args: argparse.Namespace) -> Aligner:
    if args.workers < 1:
        raise ConfigurationError(f"--workers must be >= 1, got {args.workers}")
    if args.context_links is not None and args.context_links < 0:
        raise ConfigurationError(f"--context-links must be >= 0, got {args.context_links}")
    if args.paper and args.preset not in ("default", "paper"):
        raise ConfigurationError(f"--paper contradicts --preset {args.preset}")
    options = preset_options("paper" if args.paper else args.preset)
    if args.context_links is not None:
        options["context_only_links"] = args.context_links
    return Aligner(
        similarity=args.similarity, ppdb_sim=getattr(args, "ppdb_sim", 0.9), w=getattr(args, "w", 0.9),
        use_word_similarity=not args.no_word_similarity,
        use_dependency_context=not args.no_dependencies,
        use_textual_context=not args.no_text_context,
        align_stop_words=not args.no_stop_words,
        sequences_need_content=not args.stop_word_sequences,
        **options,
    )


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
            pairs = list(read_pairs(handle, args.input_format, args.tokenized))
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
