"""The paraphrase-table pipelines' shared CLI parts (`pivot`, `paraphrase-table`).

Their options (mapped onto :class:`paralign.pivot.PivotOptions`), the runner that gives the
library real paths for '-' (stdin in, stdout out) and its report (text or JSON).

Not for: building tables (:mod:`paralign.pivot`), `word-align` (but for the case options it
takes as they do: :func:`add_case_options`), or options other commands share (:mod:`._aligner_options`, ...).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..alignment import MAX_PHRASE_LENGTH
from ..errors import ConfigurationError, ParalignError, check_output_folder, written_in_place
from ..tokenizers import CORPUS_TOKENIZERS, DEFAULT_CORPUS_TOKENIZER
from ._cluster import add_cluster_options, announce_cluster
from ._common import (
    STDOUT_NAME,
    add_format,
    copy_to_stdout,
    counted,
    emit,
    fmt_pct,
    is_std,
    length_ratio,
    output_file,
    output_path,
    positive_int,
    probability_below_one,
    shown_names,
    stdin_inputs,
    unit_interval,
    warn,
    warn_skipped_pairs,
)
from ._metavars import DIR, FILE, N, X
from ._stderr import shown
from ._warnings import warn_item

if TYPE_CHECKING:  # pragma: no cover - paralign.pivot loads on first use
    from ..pivot import PivotOptions

#: Said in the --help of every command that runs eflomal (pivot, paraphrase-table, word-align).
EFLOMAL_NOT_SEEDED = (
    "eflomal cannot be seeded (its binary seeds itself from /dev/urandom and has no seed option), "
    "so two runs align differently and build different tables."
)
#: What --max-tokens counts in every command that has it (word-align, pivot, paraphrase-table):
#: :func:`paralign.aligners.eflomal.token_limit`.
MAX_TOKENS_RULE = ("counted in the tokens the links index and phrases are extracted from (word-align, pivot "
                   "and paraphrase-table --max-tokens count alike)")
#: How --alignment makes a table reproducible (pivot, paraphrase-table).
GIVEN_ALIGNMENT = (
    "With --alignment no aligner runs and the table depends on the given links alone, so it is "
    "exactly reproducible; the report records per corpus whether the alignment was computed or "
    "given (with the file's SHA-256). Alignment lines are Pharaoh (i-j, 0-based; i?j possible "
    "links count as links) indexing the tokens that --tokenizer (and --foreign-tokenizer) give, "
    "as word-align --tokenizer T --target-tokenizer F writes them with the same T and F; a line that is not "
    "Pharaoh or whose links do not fit its tokens is skipped and reported (file:line), and a file with "
    "another number of lines than its corpus is an error. Links that fit but mostly miss the last token of both sentences, "
    "and lines that mostly reach past their tokens, are warned about: they were likely written for other tokens "
    "(another --tokenizer)."
)
#: The same for paraphrase-table, whose "corpus" is the sentence pairs its groups form.
GIVEN_PAIR_ALIGNMENT = (
    "With --alignment no aligner runs and the table depends on the given links alone, so it is "
    "exactly reproducible; the report records whether the alignment was computed or given (with "
    "the file's SHA-256). Alignment lines are Pharaoh (i-j, 0-based; i?j possible links count as "
    "links) indexing the tokens that --tokenizer gives; a line that is not Pharaoh or whose links "
    "do not fit its tokens is skipped and reported (file:line), and a file with another number of "
    "lines than the sentence pairs the groups form is an error."
)


def add_pipeline_options(parser: argparse.ArgumentParser, *, threshold: float = 0.01, pivot: bool = True) -> None:
    """Options shared by `pivot` and `paraphrase-table` (they map onto PivotOptions); `pivot`
    False: paraphrase-table's help, where the pivot-only option is said to have no effect."""
    from ..aligners.eflomal import EFLOMAL_MAX_TOKENS, SYMMETRIZATIONS

    parser.add_argument("--output", "-o", required=True, type=output_path, metavar=FILE,
                        help="paraphrase table to write: FILE.parquet = Parquet (sorted by phrase: `paralign "
                        "paraphrases` queries it fast), otherwise TSV (.gz = gzip; - = stdout, the report then "
                        "goes to stderr); both hold the same rows")
    parser.add_argument("--symmetrization", choices=SYMMETRIZATIONS, default=None,
                        help="how eflomal's two directions are joined (default: grow-diag-final-and); "
                        "like --iterations and --align-chunk, only when eflomal aligns")
    parser.add_argument("--max-length", type=positive_int, default=MAX_PHRASE_LENGTH, metavar=N,
                        help="longest phrase in words (default: %(default)s)")
    parser.add_argument("--threshold", type=unit_interval, default=threshold, metavar=X,
                        help="keep paraphrases with p >= this, a number in [0, 1] (default: %(default)s)")
    parser.add_argument("--top-k", type=positive_int, default=None, metavar=N,
                        help="keep the N best paraphrases per phrase, N >= 1 (default: all)")
    parser.add_argument("--min-count", type=positive_int, default=1, metavar=N,
                        help="drop pairs seen fewer than N times, N >= 1 (pivot: support; monolingual: "
                        "pair count; default: %(default)s, every pair, though most rows of a table of a few thousand "
                        "lines are pairs seen once). `paralign paraphrases` shows these counts and p beside each "
                        "paraphrase to choose the cuts by; a rerun in a --keep-work folder with other --threshold, "
                        "--top-k or --min-count cuts the pairs it summed again, nothing more")
    parser.add_argument("--chunk-size", type=positive_int, default=5000, metavar=N, help="lines per map chunk (default: %(default)s)")
    parser.add_argument("--work-dir", default=None, metavar=DIR,
                        help="intermediate files (default: FILE.work for -o FILE, a temporary one for -o -; a new or empty "
                        "folder, or an earlier run's: one holding other files is refused); reuse to resume "
                        "(not possible for an input read from stdin): stages whose options changed are recomputed "
                        "(--max-length, --chunk-size: the chunks; --min-translation-prob: the summed pairs), the "
                        "others, such as the alignment, reused; other inputs, reading or eflomal options are "
                        "refused without --restart")
    parser.add_argument("--restart", action="store_true", help="discard an earlier run in --work-dir")
    parser.add_argument("--keep-work", action="store_true", help="keep --work-dir after success")
    add_case_options(parser)
    parser.add_argument("--tokenizer", choices=CORPUS_TOKENIZERS, default=DEFAULT_CORPUS_TOKENIZER,
                        help="regex (raw text; the default), whitespace or moses (tokenised, XML-escaped)")
    parser.add_argument("--max-tokens", type=positive_int, default=100, metavar=N,
                        help=("skip line pairs with a side of more than N tokens as --tokenizer (the foreign side: "
                              f"--foreign-tokenizer) splits it, {MAX_TOKENS_RULE}, N >= 1 (default: "
                              f"%(default)s); when eflomal aligns, also those with a side of more than {EFLOMAL_MAX_TOKENS} "
                              "tokens, which it leaves without a link (counted over-long)") if pivot else
                        f"skip sentences of more than N tokens as --tokenizer splits them, {MAX_TOKENS_RULE}, N >= 1 "
                        "(default: %(default)s)")
    parser.add_argument("--max-length-ratio", type=length_ratio, default=None, metavar=X,
                        help="skip sentence pairs whose token-length ratio exceeds this, a number >= 1 (default: none skipped)")
    parser.add_argument("--min-translation-prob", type=probability_below_one, default=0.001, metavar=X,
                        help="prune p(f|e), p(e|f) below this before pivoting, a number in [0, 1) (default: %(default)s; 0 = exact)"
                        if pivot else "pivot's pruning of translation probabilities: no effect here "
                        "(pair counts are not pruned); accepted as pivot takes it")
    parser.add_argument("--iterations", type=positive_int, default=None, metavar=N,
                        help="eflomal iterations per model stage, N >= 1 (default: eflomal's, more for a small corpus)")
    parser.add_argument("--align-chunk", type=positive_int, default=None, metavar=N,
                        help="align a corpus longer than N lines in chunks of N lines on the cluster, eflomal's priors "
                        "learnt from its first N lines shared by all chunks (default: one eflomal run)")
    add_cluster_options(parser.add_argument_group("cluster (Dask)"),
                        "extracting the phrase pairs of the --chunk-size chunks and building the table from them",
                        pipeline=True)
    add_format(parser)  # of the report: -o is the table whatever it is
    parser.set_defaults(output_writes=("TSV", "the paraphrase table as TSV (or as Parquet, to a .parquet name)"))


def add_case_options(parser: argparse.ArgumentParser, tokens: str = "tokens", note: str = "") -> None:
    """--lowercase (the default) and --keep-case, one of them: the case of `tokens` (what the
    command lower-cases, said in its help; `note` added to the default's help)."""
    case = parser.add_mutually_exclusive_group()
    case.add_argument("--lowercase", dest="lowercase", action="store_true", default=True,
                      help=f"lower-case {tokens} (default{note})")
    case.add_argument("--keep-case", dest="lowercase", action="store_false", help=f"keep the case of {tokens}")


#: eflomal's options as the table pipelines take them: with no eflomal run they would change
#: nothing, so typing one there is a usage error (:func:`check_eflomal_options`).
EFLOMAL_OPTIONS = ("--symmetrization", "--iterations", "--align-chunk")


def check_eflomal_options(args: argparse.Namespace, no_eflomal: str | None) -> None:
    """A ConfigurationError when an option of :data:`EFLOMAL_OPTIONS` was typed (argparse leaves
    it None otherwise) though no eflomal runs (`no_eflomal` says why; None: eflomal runs), as
    it would be silently unused."""
    for flag in EFLOMAL_OPTIONS:
        if no_eflomal is not None and getattr(args, flag.lstrip("-").replace("-", "_")) is not None:
            raise ConfigurationError(f"{flag} only matters when eflomal aligns a corpus, and {no_eflomal}: "
                                     f"leave {flag} out")


def writes_stdout(path: str) -> bool:
    """Does an output `path` write this command's stdout: '-', or a name of the file stdout is
    (/dev/stdout, /dev/fd/1, the file of ``> FILE``)? Then the report goes to stderr, so that
    stdout holds the output alone: ``-o /dev/stdout`` had the table's (or links') report after
    it, one more line a reader of the table or `pivot --alignment` took for its own."""
    if is_std(path):
        return True
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no such file yet, stdout closed or not a file
        return False


def cluster_announcer(args: argparse.Namespace) -> Callable[[dict], None]:
    """What says where the job runs when it starts: :func:`announce_cluster`, except when the
    JSON report itself goes to stderr (`-o -`, `-o /dev/stdout`), which then holds that report
    alone (the report's "cluster" has the same facts)."""
    if args.format == "json" and writes_stdout(args.output):
        return lambda info: None
    return announce_cluster


def options_from_args(args: argparse.Namespace) -> PivotOptions:
    from ..pivot import PivotOptions

    symmetrization = {} if args.symmetrization is None else {"symmetrization": args.symmetrization}
    return PivotOptions(
        **symmetrization,  # left out: the library's default
        max_length=args.max_length,
        threshold=args.threshold,
        top_k=args.top_k,
        min_count=args.min_count,
        chunk_size=args.chunk_size,
        lowercase=args.lowercase,
        tokenizer=args.tokenizer,
        foreign_tokenizer=getattr(args, "foreign_tokenizer", None),
        max_tokens=args.max_tokens,
        max_length_ratio=args.max_length_ratio,
        encoding_errors=getattr(args, "encoding_errors", "strict"),
        min_translation_prob=args.min_translation_prob,
        eflomal_iterations=args.iterations,
        align_chunk=args.align_chunk,
    )


def render_report(result: dict) -> str:
    output = STDOUT_NAME if is_std(result["output"]) else result["output"]
    lines = [f"wrote {counted(result['rows'], 'paraphrase pair')} for {counted(result['phrases'], 'phrase')} to {output}"]
    for corpus in result["corpora"]:
        corpus = dict(corpus)
        alignment = corpus.pop("alignment", None)
        skipped = corpus.pop("skipped_rows", None)  # the bad pairs of a JSON groups file
        if "lines" in corpus:
            kept = corpus["kept"] / corpus["lines"] if corpus["lines"] else None
            lines.append(
                f"  {corpus['source']} / {corpus['target']}: {corpus['kept']} of "
                f"{counted(corpus['lines'], 'line')} used ({fmt_pct(kept)}%); skipped {corpus['empty']} empty, "
                f"{corpus['too_long']} over-long, {corpus['filtered']} by length ratio; "
                f"{corpus['replaced']} with bad bytes replaced"
            )
        else:
            lines.append("  " + ", ".join(f"{k}: {v}" for k, v in corpus.items()))
        if alignment:
            lines.append("    " + render_alignment(alignment))
        if skipped:  # worded as lattice stats words them
            lines.append(f"    skipped pairs: {len(skipped)}")
    chunks = result.get("chunks") or {}
    if chunks:
        lines.append(f"  chunks: {chunks['computed']} computed, {chunks['reused']} reused (of {chunks['total']})")
    lines += render_stages(result["resumed_stages"], result.get("recomputed_stages") or {})
    return "\n".join(lines)


def render_stages(reused: Sequence[str], recomputed: dict[str, list[str]]) -> list[str]:
    """The report's lines on an earlier run in the work directory: the stages reused (its
    chunks are counted on the "chunks" line) and those recomputed, each with why."""
    lines = []
    stages = [stage for stage in reused if "/extract/" not in stage]
    chunks = len(reused) - len(stages)
    if reused:
        lines.append(f"  resumed: reused {', '.join([*stages, *([counted(chunks, 'chunk')] if chunks else [])])}")
    if recomputed:
        lines.append("  recomputed: " + ", ".join(f"{stage} ({'; '.join(why)})" for stage, why in recomputed.items()))
    return lines


def render_alignment(alignment: dict) -> str:
    """One line of a corpus' alignment record: given (file, SHA-256, bad lines) or computed."""
    if alignment.get("kind") == "given":
        return (f"alignment given: {alignment['file']} (sha256 {alignment['sha256']}); "
                f"{counted(alignment['bad_lines'], 'bad line')} skipped")
    note = " (not reproducible: eflomal cannot be seeded)" if alignment.get("aligner") == "eflomal" else ""
    return f"alignment computed by {alignment.get('aligner')}{note}"


def warn_skips(result: dict, tokenizer: str = DEFAULT_CORPUS_TOKENIZER) -> None:
    """Warn about what reading skipped (each bad pair of a JSON groups file as `lattice stats`
    warns of it), and about a given alignment that seems to index other tokens than
    `tokenizer` gives (:func:`paralign.pivot_input.other_tokens_warning`)."""
    from ..pivot_input import other_tokens_warning

    for corpus in result["corpora"]:
        warn_skipped_pairs(corpus.get("skipped_rows") or ())
        alignment = corpus.get("alignment") or {}
        for message in alignment.get("errors", ()):
            warn_item(f"skipped: {message}")
        if alignment.get("kind") == "given" and (other := other_tokens_warning(alignment, tokenizer)):
            warn(other)
        if alignment.get("bad_lines", 0) > len(alignment.get("errors", ())):
            more = alignment["bad_lines"] - len(alignment["errors"])
            warn(f"{alignment['file']}: {counted(more, 'more bad alignment line')} skipped")
        bad = {k: corpus.get(k, 0) for k in ("empty", "too_long", "replaced")}
        if any(bad.values()):
            warn(
                f"{corpus['source']} / {corpus['target']}: skipped {bad['empty']} empty and "
                f"{bad['too_long']} over-long line pairs; {counted(bad['replaced'], 'line')} had non-UTF-8 bytes replaced"
            )


def run_table_pipeline(
    args: argparse.Namespace, inputs: Sequence[str], build: Callable[[list[str], str, str | None, dict[str, str]], Any]
) -> int:
    """Run a table pipeline (`pivot`, `paraphrase-table`) with '-' as stdin and stdout; report.

    `build(inputs, output, work_dir, names)` runs the library pipeline on real paths (`names`:
    how a copy of stdin is to be shown, for the table's metadata) and returns its PipelineReport.  An input '-' is stdin, copied to a temporary file (the pipeline reads its
    inputs more than once).  With `-o -` the table is built in a temporary directory (with the
    work directory, unless --work-dir is given) and copied to stdout once complete; the report
    then goes to stderr, so stdout holds the table only.
    """
    if args.work_dir is not None:
        check_output_folder(args.work_dir, "--work-dir")
    to_stdout = is_std(args.output)
    # a stream (-o -, /dev/null, a FIFO) is written through a temporary file, its work folder beside it
    streamed = to_stdout or written_in_place(args.output)
    if streamed and args.keep_work and args.work_dir is None:
        warn(f"--keep-work keeps nothing with -o {args.output} unless --work-dir is given (the default one is temporary)")
    to_stderr = writes_stdout(args.output)  # the report: stdout holds the table
    # the default work folder of a run that fails on its input goes (resuming cannot help); a
    # killed run's, a given --work-dir or one from an earlier run stay, to resume
    default_work = None if streamed or args.work_dir is not None or args.keep_work else Path(args.output + ".work")
    leftover = default_work if default_work is not None and not default_work.exists() else None
    with ExitStack() as stack:
        inputs, names = stdin_inputs(stack, inputs)
        output = output_file(stack, args.output, "table.tsv")
        try:
            result = build(inputs, output, args.work_dir, names).to_dict()
        except ParalignError:
            if leftover is not None:
                shutil.rmtree(leftover, ignore_errors=True)
            raise
        if to_stdout:
            copy_to_stdout(output)
            result["output"] = "-"
    result = shown_names(result, names)
    warn_skips(result, args.tokenizer)
    # on stderr (the table holds stdout), the text report is shown as every message there is
    emit(result, args.format, (lambda r: shown(render_report(r))) if to_stderr else render_report,
         sys.stderr if to_stderr else sys.stdout)
    return 0
