"""`paralign parametric align|table`: ParaMetric scores of an aligner or a paraphrase table.

Not for: the scores themselves (:mod:`paralign.metrics.parametric`) or their text tables
(:mod:`._render`); this module reads the options and turns `--system sultan` into an aligner.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from ..aligners.signature import aligner_signature_parts
from ..aligners.sultan import Aligner
from ..alignment import Alignment
from ..errors import ConfigurationError
from ..metrics.parametric import (
    AlignTokens,
    PairLike,
    Progress,
    align_scores_files,
    table_scores_files,
)
from ..metrics.parametric_align import DEFAULT_MAX_LENGTH, names_a_skipped_item
from ..signature import file_name_part
from ._cluster import add_cluster_options, cluster_runner
from ._commands import add_command
from ._common import (
    add_format,
    add_output,
    emit,
    input_name,
    open_out,
    positive_int,
    progress,
    stdin_once,
    table_progress,
)
from ._metavars import ACTION, FILE, FILE_OR_NAME, SOURCE, N
from ._render import render_align_scores, render_table_scores
from ._table_options import check_table_names
from ._warnings import warn, warn_item

LINK_CHOICES = ("sure", "sure+possible")

#: Aligner names `--system` takes instead of a file, to align the gold pairs on the fly. Not a
#: registry (that is paralign.similarity.ALIGNER_NAMES): the names `--system` has always accepted.
#: `exact` stays out: `--system exact` names a file, as before.
ALIGNERS = ("sultan",)


def aligner_named(name: str) -> AlignTokens:
    """The aligner `--system NAME` runs on the gold pairs' tokens: `sultan` is the Sultan aligner
    with its default options (its own annotation and process pool); ConfigurationError otherwise."""
    if name not in ALIGNERS:
        raise ConfigurationError(f"unknown aligner {name!r} (known: {', '.join(ALIGNERS)})")
    return Aligner().align_many


def align_with(
    name: str, gold: Sequence[PairLike], *, workers: int = 1, progress: Progress | None = None
) -> list[Alignment]:
    """Align the gold pairs' token lists with a named aligner (`sultan`)."""
    pairs = [(g.source, g.target) for g in gold]
    return aligner_named(name)(pairs, workers=workers, progress=progress)


#: What `parametric align --help` says of its output: every column of the text table, its rows.
ALIGN_OUTPUT = (
    "Output: one row per length bound (Length = 1, Length <= n: the phrase pairs whose longer side "
    "has at most n words), summed over the scored pairs. AlignPrec = matched / system; "
    "AlignRecall = matched / gold (n/a when nothing is counted); matched = phrase pairs (compared "
    "by their spans) found in both the system's and the gold's; system = the non-identical "
    "consistent phrase pairs of the system's alignments; gold = those of the gold alignments. "
    "JSON adds f1, pairs, skipped, skipped_rows, warnings and the same counts under by_length; "
    "signature = the settings that made the numbers (the last line of text)."
)
#: What `parametric table --help` says of its output.
TABLE_OUTPUT = (
    "Output: one row per length bound (Length = 1, Length <= n: a phrase and its paraphrase both "
    "of at most n words), counted once per (group, distinct sentence, distinct phrase of it) and "
    "summed. LB-Prec = correct / posited (LB-Precision, a lower bound: the reference is "
    "incomplete); Rel-Recall = correct / reference (n/a when nothing is counted); correct = "
    "posited paraphrases that are in the reference; posited = the table's paraphrases (other than "
    "the phrase itself) of every phrase of the groups' sentences; reference = the paraphrases the "
    "gold alignments give those phrases (para_REF). JSON adds groups, sentences, skipped_groups, "
    "beyond_max_length (posited paraphrases too long to score), skipped_rows, warnings and the "
    "same counts under by_length; signature = the settings that made the numbers (the last line of "
    "text)."
)


def _common_options(parser: argparse.ArgumentParser, links_help: str) -> None:
    parser.add_argument("--gold", required=True, metavar=FILE,
                        help="gold alignment file (jacana JSON, JSONL, ...; - = stdin)")
    parser.add_argument("--max-length", type=positive_int, default=DEFAULT_MAX_LENGTH, metavar=N,
                        help="longest phrase, in words on either side (default: %(default)s)")
    parser.add_argument("--links", choices=LINK_CHOICES, default="sure",
                        help=f"{links_help} (default: %(default)s)")
    add_format(parser)
    add_output(parser)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "parametric",
        description="ParaMetric (Callison-Burch et al. 2008) scores, by phrase length.",
    )
    commands = parser.add_subparsers(dest="parametric_command", metavar=ACTION, required=True)

    align = commands.add_parser(
        "align", help="AlignPrec/AlignRecall of a system's alignments against the gold",
        description="Compare the non-identical consistent phrase pairs of a system's alignments "
        "with the gold's, pairs joined by position (texts compared case-insensitively). A pair "
        "with a bad gold or system item is left out on both sides with a warning (skipped_rows "
        "in JSON); the other pairs are scored.",
        epilog=ALIGN_OUTPUT,
    )
    _common_options(align, "links the phrase pairs are extracted from, the gold's and the "
                    "system's: the system's possible links count only with sure+possible")
    align.add_argument("--system", required=True, metavar=FILE_OR_NAME,
                       help="system alignment file (- = stdin), or an aligner name "
                       f"({', '.join(ALIGNERS)}) to align the gold pairs on the fly")
    add_cluster_options(align, "aligning the gold pairs, for an aligner --system names")
    align.add_argument("--tight", action="store_true",
                       help="diagnostic: only phrase pairs whose edge words are aligned "
                       "(no extension over unaligned words)")
    align.set_defaults(func=run_align)

    table = commands.add_parser(
        "table", help="LB-Precision/Rel-Recall of a paraphrase table against reference groups",
        description="Reference paraphrases come from groups of aligned equivalent sentences "
        "(group key = pair id without its last dot-field, as in MTReference). A bad gold item is "
        "left out with a warning (skipped_rows in JSON); its group is scored on its other pairs.",
        epilog=TABLE_OUTPUT,
    )
    _common_options(table, "gold links the reference phrase pairs are extracted from")
    table.add_argument("--table", required=True, metavar=SOURCE,
                       help="ppdb, wordnet, a Parquet table (FILE.parquet) or a TSV file phrase<TAB>paraphrase[<TAB>score] "
                       "(.gz too; PATH:THRESHOLD keeps scores >= THRESHOLD; unscored rows are kept); - = stdin "
                       "(with a threshold: --table=-:THRESHOLD). A table that pivot or paraphrase-table built is "
                       "asked for the gold's phrases as its tokenizer splits them; any other is matched as "
                       "written, so split its phrases as the gold's tokens are (a warning counts those it "
                       "holds split otherwise)")
    table.add_argument("--only-referenced", action="store_true",
                       help="count posited paraphrases only for phrases with reference paraphrases")
    table.add_argument("--sentences", choices=("all", "hub"), default="all",
                       help="score every distinct sentence of a group, or only those in every "
                       "pair of it, as in the paper (default: %(default)s)")
    table.add_argument("--tight", action="store_true",
                       help="build the reference from phrase pairs whose edge words are aligned "
                       "(at most one paraphrase per pair and phrase)")
    table.set_defaults(func=run_table)


def _system(path: str) -> str | AlignTokens:
    """What `--system` names: an aligner to run on the gold pairs (`sultan`), else a file."""
    return aligner_named(path) if path in ALIGNERS else path


def run_align(args: argparse.Namespace) -> int:
    if args.system not in ALIGNERS:  # a file, which the signature names (system:FILE#HASH)
        file_name_part(args.system, "system:FILE#HASH", option="--system")
    with ExitStack() as stack:
        paths, _ = stdin_once(stack, gold=[args.gold], system=[args.system])
        stack.enter_context(cluster_runner(args))  # one cluster for the command, started on first need
        gold, system = paths["gold"][0], _system(paths["system"][0])
        result = align_scores_files(
            gold, system, args.max_length, links=args.links, tight=args.tight,
            workers=args.workers,
            progress=lambda items: progress(items, "aligning"),
            gold_name=input_name(args.gold), system_name=input_name(args.system),
            system_parts=aligner_signature_parts(system) if callable(system) else None,
        )
    _warn(result.warnings)
    with open_out(args.output) as out:
        emit(result.to_dict(), args.format, lambda _: render_align_scores(result), out)
    return 0


def _warn(warnings: Sequence[str]) -> None:
    """A result's `warnings` on stderr in their order: each note, and each skipped pair or group
    as a bad item (`warn_item`: the first few of the run shown, the rest counted)."""
    for message in warnings:
        (warn_item if names_a_skipped_item(message) else warn)(message)


def _split_table(spec: str) -> tuple[str, str]:
    """(path, suffix) of a table spec: `-:0.5` -> ('-', ':0.5'); ppdb, wordnet -> (spec, '')."""
    if spec.startswith("-:") and not Path(spec).exists():
        return "-", spec[1:]
    return spec, ""


def run_table(args: argparse.Namespace) -> int:
    table_path, suffix = _split_table(args.table)
    check_table_names("--table", [args.table])
    with ExitStack() as stack:
        paths, names = stdin_once(stack, gold=[args.gold], table=[table_path])
        gold, table = paths["gold"][0], paths["table"][0]
        result = table_scores_files(
            gold, table + suffix, args.max_length, links=args.links,
            only_referenced=args.only_referenced, sentences=args.sentences, tight=args.tight,
            gold_name=input_name(args.gold), table_name=names.get(table),
            progress=table_progress(input_name(table_path)),
        )
    _warn(result.warnings)
    with open_out(args.output) as out:
        emit(result.to_dict(), args.format, lambda _: render_table_scores(result), out)
    return 0
