"""`paralign pivot` (bilingual pivot paraphrase table) and `paralign word-align` (eflomal)."""

from __future__ import annotations

import argparse
import sys
import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from .._moved import moved_names
from ..errors import ConfigurationError
from ..tokenizers import CORPUS_TOKENIZERS, DEFAULT_CORPUS_TOKENIZER
from ._cluster import cluster_from_args
from ._command_line import OUTPUT_PREFIXES
from ._commands import add_command
from ._common import (
    add_format,
    copy_to_stdout,
    emit,
    is_std,
    output_file,
    output_path,
    positive_int,
    progress,
    shown_names,
    stdin_inputs,
    warn,
)
from ._metavars import FILE, PREFIX, N
from ._pipelines import (
    EFLOMAL_NOT_SEEDED,
    GIVEN_ALIGNMENT,
    MAX_TOKENS_RULE,
    add_case_options,
    add_pipeline_options,
    check_eflomal_options,
    cluster_announcer,
    options_from_args,
    run_table_pipeline,
    writes_stdout,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "pivot",
        description="Align English-foreign corpora with eflomal, extract phrase pairs and pivot: "
        "p(e2|e1) = sum_corpora sum_f p(f|e1) p(e2|f). Give --english/--foreign once per corpus. "
        "Columns: phrase, paraphrase, probability (p(e2|e1); summed over the corpora, so it can exceed 1 "
        "with several), pivots (the number of foreign phrases, over all corpora, that link the two), support (the sum "
        "over those pivots of min(c(e1,f), c(e2,f)): the phrase-pair occurrences behind the row; "
        "--min-count filters on it). "
        + EFLOMAL_NOT_SEEDED + " " + GIVEN_ALIGNMENT,
    )
    parser.add_argument("--english", action="append", required=True, metavar=FILE,
                        help="English side (one line a sentence; - = stdin)")
    parser.add_argument("--foreign", action="append", required=True, metavar=FILE, help="foreign side, line-aligned (- = stdin)")
    parser.add_argument("--alignment", action="append", default=None, metavar=FILE,
                        help="Pharaoh alignment of a corpus instead of running eflomal: one line per corpus "
                        "line (empty and skipped lines included), i-j with i an English token, as `word-align "
                        "--source ENGLISH --target FOREIGN --tokenizer T --target-tokenizer T2` writes it, T and T2 "
                        "set as --tokenizer and --foreign-tokenizer are here (the defaults are). Give it once per "
                        "--english/--foreign pair, in the same order, "
                        "or not at all (- = stdin). Makes the table reproducible (eflomal cannot be seeded)")
    parser.add_argument("--foreign-tokenizer", choices=CORPUS_TOKENIZERS, default=None,
                        help="tokenizer of the foreign side (default: --tokenizer)")
    parser.add_argument("--encoding-errors", choices=("strict", "replace"), default="strict",
                        help="non-UTF-8 bytes: stop with an error naming file and line (strict, the default), "
                        "or replace them and warn")
    add_pipeline_options(parser)
    parser.set_defaults(func=run)

    from ..aligners.eflomal import EFLOMAL_MAX_TOKENS, SYMMETRIZATIONS
    from ..corpora.parallel import DEFAULT_MAX_TOKENS

    align = add_command(
        subparsers, "word-align",
        description="Word-align a parallel corpus with eflomal (both directions, symmetrised); one "
        "Pharaoh line per input line (empty for empty lines, those over --max-tokens and those with a side "
        f"of no token or of more than {EFLOMAL_MAX_TOKENS}, which eflomal cannot align; each counted). " + EFLOMAL_NOT_SEEDED
        + " Keep the output and give it to `pivot --alignment` to build a table reproducibly: its links "
        "index the tokens that --tokenizer and --target-tokenizer give, so set them as `pivot --tokenizer T "
        "--foreign-tokenizer T2` is set (the defaults split as pivot's defaults do: regex).",
    )
    align.add_argument("--source", required=True, metavar=FILE,
                       help="source side, one sentence a line (- = stdin): the i of each link i-j, so for "
                       "pivot --alignment the English side (`pivot --english`)")
    align.add_argument("--target", required=True, metavar=FILE,
                       help="target side, line-aligned: the j of each link (`pivot --foreign`; - = stdin)")
    align.add_argument("-o", "--output", default="-", type=output_path, metavar=FILE,
                       help="Pharaoh links (default: stdout; with --format json, one JSON report holding "
                       "the links as 'alignments', one Pharaoh string a line)")
    align.add_argument("--symmetrization", choices=SYMMETRIZATIONS, default="grow-diag-final-and",
                       help="how eflomal's two directions are joined (default: %(default)s)")
    align.add_argument("--tokenizer", choices=CORPUS_TOKENIZERS, default=DEFAULT_CORPUS_TOKENIZER,
                       help="regex (raw text; the default, as pivot's and paraphrase-table's), whitespace "
                       "(input already tokenised) or moses (tokenised, XML-escaped)")
    align.add_argument("--target-tokenizer", choices=CORPUS_TOKENIZERS, default=None,
                       help="tokenizer of the target side (default: --tokenizer), as pivot --foreign-tokenizer splits "
                       "the foreign side")
    add_case_options(align, "the tokens --tokens-output writes",
                     ", as pivot's and paraphrase-table's --lowercase: the tokens pivot --alignment extracts "
                     "phrases from; the links are the same either way, eflomal compares words without case")
    align.add_argument("--tokens-output", default=None, type=tokens_prefix, metavar=PREFIX,
                       help="also write the tokenised sides as PREFIX.src and PREFIX.tgt")
    align.add_argument("--encoding-errors", choices=("strict", "replace"), default="strict",
                       help="non-UTF-8 bytes: stop with an error naming file and line (strict, the "
                       "default), or replace them and warn")
    align.add_argument("--max-tokens", type=positive_int, default=DEFAULT_MAX_TOKENS, metavar=N,
                       help="leave line pairs with a side of more than N tokens as --tokenizer (the target "
                       f"side: --target-tokenizer) splits it unaligned (an empty line), {MAX_TOKENS_RULE}, N >= 1 "
                       "(default: %(default)s); give pivot --alignment the same --max-tokens")
    align.add_argument("--iterations", type=positive_int, default=None, metavar=N,
                       help="eflomal iterations per model stage, N >= 1 (default: eflomal's, more for a small corpus)")
    add_format(align)
    # -o FILE holds the links whatever --format is (a JSON report of them goes to stdout, with -o - alone)
    align.set_defaults(func=run_align, output_writes=("text", "Pharaoh links"))


def tokens_prefix(text: str) -> str:
    """argparse type of --tokens-output: a prefix whose two files (PREFIX.src, PREFIX.tgt) can be
    written, checked as -o is (:func:`output_path`), so a bad one fails before eflomal runs; the
    suffixes are those the whole command line's check of outputs adds (:data:`OUTPUT_PREFIXES`)."""
    if is_std(text):
        raise argparse.ArgumentTypeError("a prefix of two files (PREFIX.src, PREFIX.tgt), not -")
    for suffix in OUTPUT_PREFIXES["tokens_output"]:
        output_path(text + suffix)
    return text


def run(args: argparse.Namespace) -> int:
    from ..pivot import pivot_paraphrases

    if len(args.english) != len(args.foreign):
        raise ConfigurationError(
            f"give --english and --foreign in pairs ({len(args.english)} --english, {len(args.foreign)} --foreign)"
        )
    alignments = args.alignment or []
    if alignments and len(alignments) != len(args.english):
        raise ConfigurationError(
            f"give --alignment once per --english/--foreign pair, in the same order, or not at all "
            f"({len(args.english)} corpora, {len(alignments)} --alignment)"
        )
    check_eflomal_options(args, "--alignment gives every corpus's links" if alignments else None)
    n_corpora = 2 * len(args.english)

    def build(inputs: list[str], output: str, work_dir: str | None, names: dict[str, str]) -> Any:
        corpora, given = inputs[:n_corpora], inputs[n_corpora:]
        return pivot_paraphrases(
            list(zip(corpora[0::2], corpora[1::2], strict=True)),
            output,
            options_from_args(args),
            work_dir=work_dir,
            restart=args.restart,
            keep_work=args.keep_work,
            progress=progress,
            alignments=given or None,
            cluster=cluster_from_args(args),
            on_start=cluster_announcer(args),
            shown_names=names,
        )

    inputs = [path for pair in zip(args.english, args.foreign, strict=True) for path in pair] + alignments
    return run_table_pipeline(args, inputs, build)


def run_align(args: argparse.Namespace) -> int:
    """Pharaoh links to -o (stdout by default); with --format json on stdout, one JSON report."""
    from ..aligners.eflomal import word_align_files

    to_stdout = is_std(args.output)
    to_stderr = writes_stdout(args.output)  # the report, when the links hold stdout (-o /dev/stdout)
    with ExitStack() as stack:
        (source, target), names = stdin_inputs(stack, [args.source, args.target])
        # the library writes a file; stdout gets its content (or the JSON report)
        output = output_file(stack, args.output, "links")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in progress([None], "align (eflomal)", 1):  # one run without a count: a step to show
                result = word_align_files(
                    source, target, output,
                    symmetrization=args.symmetrization, tokenizer=args.tokenizer, lowercase=args.lowercase,
                    target_tokenizer=args.target_tokenizer,
                    tokens_prefix=Path(args.tokens_output) if args.tokens_output else None,
                    encoding_errors=args.encoding_errors, n_iterations=args.iterations, max_tokens=args.max_tokens,
                )
        for item in caught:
            message = str(item.message)
            warn(shown_names(message, names))
        if to_stdout and args.format == "json":
            with open(output, encoding="utf-8") as links:
                result = {**result, "output": "-", "alignments": links.read().splitlines()}
        elif to_stdout:
            copy_to_stdout(output)
    if to_stdout and args.format == "json":
        emit(result, "json", str)
    elif not to_stdout:
        emit(result, args.format, render_align_report, sys.stderr if to_stderr else sys.stdout)
    return 0


def render_align_report(result: dict[str, Any]) -> str:
    """word-align's text report: the lines aligned, the tokens the links index (the tokenizer,
    or source/target ones when they differ: what pivot --tokenizer and --foreign-tokenizer must
    be for these links) and the file."""
    tokenizers = dict.fromkeys((result["tokenizer"], result["target_tokenizer"]))
    return (f"aligned {result['aligned']} of {result['lines']} line pairs -> {result['output']} "
            f"(links index {'/'.join(tokenizers)} tokens)")


# Helpers shared with other commands moved; the old names work until 0.3, with a warning.
__getattr__ = moved_names(__name__, {
    "render_report": "paralign.cli._pipelines",
    "warn_skips": "paralign.cli._pipelines",
})
