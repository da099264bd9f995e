"""`paralign similarity`: one alignment-based similarity score per sentence pair (TSV `s1 TAB s2`,
the STS and MSRP files, JSONL `{"source", "target"}` lines, a gold alignment file's pairs or two
line-aligned files)."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from itertools import islice
from typing import IO

from .._moved import moved_names
from ..aligners.registry import get_aligner
from ..alignment import AlignFunction
from ..corpora.gold_input import scored_gold_note
from ..corpora.sentence_pairs import INPUT_FORMATS, InputPair, read_pair_rows, read_parallel
from ..errors import ConfigurationError
from ..signature import file_name_part
from ..similarity import (
    DEFAULT_SIGNAL,
    Signal,
    fit_on_files,
    make_signal,
)
from ..similarity.contextual import contextual_aligner, encoder_options
from ..similarity.hybrid import aligner_mismatch
from ..similarity.model import TrainedClassifier, load_model_report
from ..similarity.rows import Row, ScoredRows, score_line
from ..similarity.signature import (
    saved_model_notes,
    similarity_signature,
    uses_encoder,
)
from ._aligner_options import check_aligner_preset
from ._cluster import cluster_runner
from ._commands import add_command
from ._common import (
    add_encoding_errors,
    add_format,
    add_output,
    batch_status,
    check_stdin_once,
    emit,
    gold_input_of,
    input_name,
    input_waits,
    is_std,
    is_stdin,
    open_in,
    open_out,
    progress_callback,
    runs,
    stdin_once,
    undecodable_lines,
    warn,
)
from ._encoder_options import (
    add_encoder_options,
    check_encoder_options,
    encoder_device,
    on_a_scheduler,
)
from ._metavars import FILE
from ._similarity_options import add_similarity_options, similarity_aligner
from ._similarity_options import (
    aligner_preset as _preset,  # the old name here warns (moved_names below)
)
from ._warnings import warn_item

BLOCK = 512  #: pairs read and scored at a time (streaming)
#: What --encoder and --device reach in this command (its help, and the error when none is used).
ENCODER_USERS = ("--preset contextual (or --aligner contextual), a neural signal (embedding, contextual-alignment, "
                 "hybrid) or a --model report with a neural part")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "similarity",
        description="Read sentence pairs (s1 TAB s2 one pair a line, JSONL lines, or two line-aligned "
        "files: --source/--target, as align reads them) and print one "
        "similarity score per pair, in [0, 1], except with a hybrid blend (--signal hybrid, or its --model), whose scores "
        "are mostly in [0, 1] but not clipped (clipping would change its correlations). "
        "Scores are in input order; a pair that cannot be scored prints NA and is reported on stderr "
        "as file:line. "
        "With --model, classify the pairs with a paraphrase classifier trained by evaluate-paraphrase: "
        "each line is the score, TAB and 1 (paraphrase) or 0 (NA TAB NA for a pair that cannot be scored).",
    )
    parser.add_argument("--pairs", default=None, metavar=FILE,
                        help="sentence pairs: TSV (s1 TAB s2, id TAB s1 TAB s2 as align reads it, or an STS, STS "
                        "Benchmark or MSRP file: a numeric first field is a gold score unless every one is a whole number, one over 5 or all counting 1, 2, 3 ...: --input-format decides), a CSV or TSV "
                        "whose first line names sentence1 and sentence2 columns (one score a record; a quoted CSV "
                        "field may hold commas and line breaks; an id column is listed under \"ids\" in the JSON "
                        "output), or JSONL "
                        "(objects with \"source\" and \"target\", or \"sentence1\" and \"sentence2\", and an optional \"id\", which the JSON "
                        "output lists under \"ids\"), told line by line as align tells them: a line opening an object, or "
                        "a JSON value without a tab, is JSON, or a gold alignment file (jacana JSON, GIZA, MultiMWA "
                        "TSV: its pairs scored on the gold's tokens, its links not read, as align reads it) "
                        "(default: stdin)")
    parser.add_argument("--input-format", choices=INPUT_FORMATS, default="auto",
                        help="what --pairs holds, whatever its lines look like: auto (default: told as --pairs "
                        "says, a note on stderr and under \"notes\" where a whole-number first field could be an "
                        "id or a gold score), tsv (every line s1 TAB s2 or id TAB s1 TAB s2, the first of three "
                        "fields an id, as align --input-format tsv reads it), jsonl (every line a JSON record, as "
                        "align reads it), sts (SemEval STS score TAB s1 TAB s2, or the STS Benchmark: gold scores "
                        "dropped) or msrp")
    parser.add_argument("--source", metavar=FILE, help="with --target: two line-aligned files, "
                        "one sentence a line (as align takes them; not with --pairs)")
    parser.add_argument("--target", metavar=FILE, help="the second sentences of --source's pairs")
    parser.add_argument(
        "--model",
        metavar=FILE,
        help="JSON report of `evaluate-paraphrase --format json` (its classifier, threshold and aligner "
        "replace --signal, --aligner and --preset, which cannot be given with it) or of `evaluate-sts --signal hybrid --train FILE --format json` "
        "(its fitted blend and aligner; scores only). A report fitted by another paralign version or "
        "spaCy model (its signature) is a warning",
    )
    add_similarity_options(parser)
    add_encoder_options(parser, ENCODER_USERS)
    add_encoding_errors(parser)
    add_output(parser, {"text": ("TSV", "a score a line (TAB its 1/0 label with --model)"), "json": ("JSON", "a JSON report")})
    add_format(parser)
    parser.set_defaults(func=run)


def _blocks(stack: ExitStack, args: argparse.Namespace, layout: list[str], notes: list[str]) -> Iterator[list[Row]]:
    """The input's rows (:func:`_rows`) in blocks of up to BLOCK, a block ended early where
    stdin's writer waits for the scores of the lines it sent (`_common.runs`); a TSV-like
    input's layout put in `layout`, and the note on how it was told in `notes`
    (:func:`~paralign.corpora.sentence_pairs.read_pair_rows`)."""
    handles: list[IO[str]] = []  # the inputs, as _rows opens them
    for run in runs(_rows(stack, args, handles, layout, notes), lambda: input_waits(*handles)()):
        while block := list(islice(run, BLOCK)):
            yield block


def _rows(stack: ExitStack, args: argparse.Namespace, handles: list[IO[str]], layout: list[str],
          notes: list[str]) -> Iterator[Row]:
    """The input's rows: two line-aligned files (--source/--target), a gold alignment file
    (jacana JSON, GIZA, MultiMWA TSV: its pairs on its tokens, as align reads it, with a note;
    :func:`~paralign.corpora.gold_input.gold_input`, by its path or on stdin), or one file read by
    :func:`~paralign.corpora.sentence_pairs.read_pair_rows` (each line JSON or TSV as
    `is_json_line` says, or as --input-format says). A line that is not UTF-8 (--encoding-errors
    skip) is a row without sentences whose reason says so, whatever the layout. Each input
    opened is put in `handles`; a TSV-like input's layout in `layout`, a note in `notes`."""
    gold: list[str] = []  # a gold alignment file's format, once read
    gold_pairs, lines = None, None
    if not args.source:
        handle = stack.enter_context(open_in(args.pairs, args.encoding_errors))
        gold_pairs, lines = gold_input_of(args.input_format, handle, gold)  # stdin as a file
    if gold_pairs is not None:  # its sentence pairs on its tokens, as align reads them; its links not read
        layout.append("gold")
        notes.append(scored_gold_note(gold[0]))
        yield from (_row(pair, pair.error, None) for pair in gold_pairs)
        return
    if not args.source:
        handles.append(handle)
        for number, row, pair_id in read_pair_rows(handle if lines is None else lines,
                                                   lambda number: undecodable_lines(handle).get(number), layout,
                                                   input_format=args.input_format, notes=notes):
            yield number, row, pair_id, None
        return
    src = stack.enter_context(open_in(args.source, args.encoding_errors))
    tgt = stack.enter_context(open_in(args.target, args.encoding_errors))
    handles += [src, tgt]
    source_name, target_name = input_name(args.source), input_name(args.target)
    named: list[tuple[IO[str], str | None]] = [(src, source_name), (tgt, target_name)]
    pairs: Iterable[InputPair] = read_parallel(src, tgt, source_name=source_name, target_name=target_name)
    for pair in pairs:
        reason, origin = pair.error, pair.origin
        for handle, name in named:
            why = undecodable_lines(handle).get(pair.line)
            if why is not None:
                reason, origin = why, name
                break
        yield _row(pair, reason, origin)


def _row(pair: InputPair, reason: str | None, origin: str | None) -> Row:
    """A row of `pair` (its sentences, or `reason` or its error, and `origin`: the file to name)."""
    if reason is None and pair.source is not None and pair.target is not None:
        return pair.line, (pair.source, pair.target), pair.id, None
    return pair.line, reason or pair.error or "no sentences", pair.id, origin


def _check_inputs(args: argparse.Namespace) -> None:
    """--source and --target go together, and not with --pairs; --model is a file, not stdin (usage errors)."""
    if bool(args.source) != bool(args.target):
        raise ConfigurationError("--source and --target go together")
    if args.source and args.pairs is not None:
        raise ConfigurationError(f"give the pairs as one input (--pairs {args.pairs}) or as --source and "
                                 "--target, not both")
    if args.source and args.input_format != "auto":
        raise ConfigurationError(f"--input-format {args.input_format} says what --pairs holds; --source and "
                                 "--target are one sentence a line")
    if args.source:
        check_stdin_once({"source": [args.source], "target": [args.target]})
    if args.model is not None and is_stdin(args.model):
        raise ConfigurationError("--model reads a report file, not stdin (a saved cross-encoder is found "
                                 "relative to the report): save the report and give its path")
    if args.model is not None:
        file_name_part(args.model, "model:FILE#HASH", option="--model")  # before the report loads


def _check_model_options(args: argparse.Namespace, trained: TrainedClassifier) -> None:
    """--model's report decides the signal and the aligner: --signal and --idf-from with it, or
    an --aligner/--preset other than the report's, were silently ignored; a usage error now."""
    given = [name for name, value in (("--signal", args.signal), ("--idf-from", args.idf_from)) if value]
    if given:
        raise ConfigurationError(f"{' and '.join(given)} cannot go with --model: the report's classifier or "
                                 "blend scores the pairs")
    asked = (args.aligner, _preset(args))
    if asked != ("sultan", "default") and asked != (trained.aligner, trained.preset):
        label = trained.aligner if trained.aligner != "sultan" else f"sultan:{trained.preset}"
        raise ConfigurationError(f"--aligner/--preset: the model in {args.model} was fitted on {label} alignments "
                                 "and scores with them; leave --aligner and --preset out")


def _model_aligner(args: argparse.Namespace, trained: TrainedClassifier) -> AlignFunction:
    """The aligner a --model report was fitted on; its contextual one on --encoder and --device
    when given (as every neural part of the run)."""
    contextual = trained.aligner == "contextual" or trained.preset == "contextual"
    if contextual and (args.encoder is not None or args.device is not None):
        return contextual_aligner(args.encoder, encoder_device(args))
    return get_aligner(trained.aligner, trained.preset)


def _scorer(args: argparse.Namespace) -> tuple[TrainedClassifier | None, object, Signal, AlignFunction]:
    """What scores the pairs: the --model report's classifier (None without one), its saved
    signature, the signal (--signal's, fitted on --idf-from when it needs it, or the report's)
    and the aligner. Every neural part of it runs --encoder on --device, which are refused
    where none does."""
    encoder, device = args.encoder, encoder_device(args)
    trained, saved_signature = (load_model_report(args.model, encoder=encoder, device=device,
                                                  check_gpu=not on_a_scheduler(args)) if args.model
                                else (None, None))
    if trained is not None:
        _check_model_options(args, trained)
        signal, aligner = trained.signal, _model_aligner(args, trained)
    else:
        name = args.signal or DEFAULT_SIGNAL
        signal, aligner = make_signal(name, **encoder_options(name, encoder, device)), similarity_aligner(args)
    if args.encoder is not None or args.device is not None:  # refused where nothing would use them
        check_encoder_options(args, uses_encoder(signal, aligner), ENCODER_USERS)
    if trained is None and (args.idf_from or getattr(signal, "trainable", False)):
        inputs = [args.source, args.target] if args.source else [args.pairs or "-"]  # --pairs: stdin by default
        check_stdin_once({"pairs": inputs, "idf_from": args.idf_from})
        with ExitStack() as stack:  # '-' or a pipe, read once
            paths, _ = stdin_once(stack, idf_from=args.idf_from)
            signal = fit_on_files(signal, paths["idf_from"])
    return trained, saved_signature, signal, aligner


def run(args: argparse.Namespace) -> int:
    check_aligner_preset(args)
    _check_inputs(args)
    trained, saved_signature, signal, aligner = _scorer(args)
    notes: list[str] = []
    mismatch = aligner_mismatch(signal, aligner)  # a hybrid blend (a --model report's too) on another aligner
    if mismatch:
        notes.append(mismatch)
    signature = similarity_signature(signal, aligner, model_file=args.model)
    if trained is not None:
        notes += saved_model_notes(saved_signature, signature, args.model)
    for note in notes:  # before the scores: a long run is not watched to its end for them
        warn(note)
    threshold = math.nan if trained is None else trained.threshold
    classify = not math.isnan(threshold)  # a paraphrase model
    rows = ScoredRows()
    source = input_name(args.source or args.pairs)
    to_terminal = args.format == "text" and is_std(args.output) and sys.stdout.isatty()  # scores streamed there
    update, close = progress_callback(None, "similarity", disable=True if to_terminal else None)  # show the progress
    layout: list[str] = []  # a TSV-like input's (sentence_pairs.detect_layout), once read
    told: list[str] = []  # how it was told (sentence_pairs.layout_note), once read
    with ExitStack() as stack, open_out(args.output) as out, cluster_runner(args):
        for block in _blocks(stack, args, layout, told):
            while told:  # said before the scores it concerns
                notes.append(f"{source}: {told.pop(0)}")
                warn(notes[-1])
            known = len(rows.problems)
            for score in rows.add(block, signal, aligner, args.workers, update):
                if args.format == "text":
                    out.write(score_line(score, threshold if classify else None))
            if out is sys.stdout:  # a pipe sees each block's scores as they come (streaming), not per buffer
                out.flush()
            for problem in rows.problems[known:]:  # each bad row, as its block is done (in line order)
                warn_item(f"{problem.get('file', source)}:{problem['line']}: {problem['reason']}")
        close()
        repeated = rows.repeated_ids_note(source)
        if repeated:
            notes.append(repeated)
            warn(repeated)
        if args.format == "json":  # the library's record of all the rows, and what only the command knows
            result = rows.to_dict(signal, aligner, signature, notes)
            if classify:
                result["threshold"] = threshold
                result["paraphrase"] = [None if s is None else s > threshold for s in rows.scores]
            emit(result, "json", str, out)
    scores = rows.scores
    if not scores:
        warn(f"{source}: no sentence pairs")
    # a quoted CSV field may hold line breaks, a gold file's pair lines (GIZA: 3)
    unit = {"table": "record", "gold": "pair"}.get(layout[0] if layout else "", "input line")
    in_place = "null in the output" if args.format == "json" else "NA in the output"
    return batch_status(args, sum(s is None for s in scores), len(scores), source, unit, in_place)


# Helpers shared with other commands moved; the old names work until 0.3, with a warning.
__getattr__ = moved_names(__name__, {"aligner_preset": "paralign.cli._similarity_options"})
