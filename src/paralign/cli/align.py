"""`paralign align`: word-align sentence pairs with the Sultan et al. (2014) aligner (or another: --aligner).

Input: TSV lines `source<TAB>target` (or `id<TAB>source<TAB>target`; a line whose third field is a
number, a gold score after the sentences, is reported, not aligned), JSONL lines with
"source"/"target" (or "sentence1"/"sentence2"), two line-aligned files (`--source F --target F`),
or a gold alignment file (jacana JSON, GIZA, MultiMWA TSV, JSONL records with links, by its path or
on stdin: its pairs, on the gold's tokens, so the output scores against it with score-alignments).
A gold's links are not read: align aligns its pairs afresh (score-alignments --gold FILE --system
FILE scores its output against them; evaluate-aligner --gold FILE aligns and scores in one run). Output (--format): one
Pharaoh line per input line (per pair of a gold file) (`i-j ...`, 0-based indices of the
tokens aligned: spaCy's, or with --tokenized or a gold file's the input's own, split on white
space, as SimAlign and fast_align users' golds are; json lists them; text), JSON Lines (one JSON object per pair,
with the aligned token pairs, and with the contextual aligner each link's "confidence"; json), the sentences and their links as word pairs (pretty,
coloured when stdout is a terminal), an SVG picture (svg: the alignment grid, or with
--picture lines the two sentences joined by lines; one pair to stdout or -o FILE.svg, several
pairs need -o FILE.svg and give FILE-N.svg for input line N), or one self-contained HTML page
with every pair's sentences and links and the grid and lines of its first pairs (how many: --format) (html). A malformed input line or an empty sentence is
reported on stderr with its line number and gives an EMPTY output line (text) or an object
with an "error" field (json), so output lines stay aligned with input lines (pretty and html
say "not aligned"; svg writes no file for it). The exit status is 1 when every input pair is
bad, 2 for svg to stdout with several pairs, for svg of one pair too large to draw (over
32,767 px a side: of several, it is reported and the others drawn; html says why in its
place) or for -o FILE whose suffix names another format (FILE.svg without --format svg, FILE.html without --format html, any FILE.png). Every
format but text (Pharaoh lines for scripts) carries the settings' signature: json in each
aligned pair's object, pretty as its last line, html under the page's title, svg as the
picture's <desc> (nothing drawn); it says tok:none for a pair on the input's own tokens
(--tokenized, or a JSON record's token lists), per pair: a pretty view or page of pairs that
sign apart gives each signature with the lines it signs.

--aligner picks the aligner: sultan (the default, set by --preset and the other options of the
aligner group), contextual (another spelling of --preset contextual: the same aligner and
signature) or exact (the exact-match baseline, which takes none of the sultan aligner's options:
one typed is a usage error). The signature names it (aligner:sultan:default, aligner:exact).

With --workers N (N > 1) or --scheduler the pairs are annotated and aligned in chunks
(--chunk-size pairs) on a Dask cluster; text and json lines are written as chunks finish, in
input order. An input of one chunk stays in this process unless a scheduler is given (--scheduler
or $PARALIGN_SCHEDULER): a cluster would only cost its start.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import IO

from .._moved import moved_names
from ..aligners.batch import InputResult, alignment_record, iter_align_input
from ..aligners.signature import alignment_signature, tokens_part
from ..corpora.sentence_pairs import InputPair, read_input_pairs, read_parallel
from ..errors import ConfigurationError, written_in_place
from ..textout import is_gzip_name
from ..viz.html import DRAWN
from ._aligner_options import add_aligner_options, loaded_aligner
from ._cluster import cluster_runner
from ._commands import add_command
from ._common import (
    add_encoding_errors,
    add_format,
    add_output,
    batch_status,
    counted,
    gold_input_of,
    in_its_place,
    input_name,
    input_waits,
    is_std,
    json_text,
    open_in,
    open_out,
    positive_int,
    progress,
    runs,
    undecodable_lines,
)
from ._metavars import FILE, N
from ._warnings import warn_item

#: One aligned input pair as `iter_align_input` gives it (None results for a bad pair).
Result = InputResult


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "align",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", nargs="?", default=None, metavar=FILE,
                        help="TSV or JSONL pairs (\"source\" and \"target\", or \"sentence1\" and \"sentence2\"), "
                        "or a gold alignment file, aligned afresh on its tokens: its links are not read "
                        "(default: stdin; not with --source/--target)")
    parser.add_argument("--source", metavar=FILE, help="file of source sentences, one a line (with --target)")
    parser.add_argument("--target", metavar=FILE, help="file of target sentences, line-aligned with --source")
    parser.add_argument("--input-format", choices=("auto", "tsv", "jsonl"), default="auto",
                        help="auto (default): each line as it looks, as similarity reads it: a line opening an "
                        "object, or a JSON value without a tab, is JSON; others are TSV")
    parser.add_argument("--tokenized", action="store_true",
                        help="sentences are whitespace-tokenised: keep those tokens exactly")
    add_aligner_options(parser)
    parser.add_argument("--chunk-size", type=positive_int, default=64, metavar=N,
                        help="pairs per chunk sent to a worker (default: %(default)s)")
    add_format(parser, choices=("text", "json", "pretty", "svg", "html"),
               help="text: one Pharaoh line per pair; json: JSON Lines, one object per pair; "
               "pretty: the sentences and their links as word pairs; svg: one picture per pair "
               "(several pairs need -o FILE.svg: FILE-N.svg for input line N); html: one page "
               f"of every pair, the first {DRAWN:,} with their pictures (default: %(default)s)")
    parser.add_argument("--picture", choices=("grid", "lines"), default=None,
                        help="the picture of --format svg: the alignment grid or the two "
                        "sentences joined by lines (default: grid; only with --format svg: html "
                        "draws both)")
    add_encoding_errors(parser)
    add_output(parser, WRITES)
    parser.set_defaults(func=run, output_refused=REFUSED)


#: What -o holds by --format (paralign.textout.check_output_name refuses a name of another format).
WRITES = {"text": ("text", "Pharaoh links"), "json": ("JSON", "JSON lines"), "pretty": ("text", "a text listing"),
          "svg": ("SVG", "an SVG picture"), "html": ("HTML", "an HTML page")}
#: Names refused whatever --format is.
REFUSED = {".png": "align draws no PNG: write --format svg -o FILE.svg (a converter such as rsvg-convert makes a "
                   "PNG of it) or --format html",
           # gzip by definition: plain SVG text in one is opened by no SVG reader
           ".svgz": "a .svgz file is compressed SVG, which align writes only to a .gz name: give -o FILE.svg.gz "
                    "(the same gzip file) or FILE.svg"}


def run(args: argparse.Namespace) -> int:
    if bool(args.source) != bool(args.target):
        raise ConfigurationError("--source and --target go together")
    if args.source and args.input is not None:
        raise ConfigurationError(f"give the pairs as one input ({args.input}) or as --source and "
                                 "--target, not both")
    _check_picture(args)
    aligner = loaded_aligner(args)
    # each pair's: tok:none where its tokens are the input's own (InputPair.own_sides: --tokenized,
    # or a JSON record's token lists; tok:none/spacy for one side's); a gold file's pairs are on
    # its tokens, --tokenized or not; keyed (own sides, tokens given): the exact aligner reads
    # given tokens with no spaCy
    args.signatures = None if args.format == "text" else {
        (own, given): alignment_signature(aligner, given_tokens=given, **tokens_part(own))
        for own, given in (((False, False), False), ((True, True), True), ((False, False), True),
                           ((True, False), False), ((False, True), False))}
    name = args.source or input_name(args.input)
    gold: list[InputPair] | None = None
    with ExitStack() as stack, cluster_runner(args):
        if args.source:
            src = stack.enter_context(open_in(args.source, args.encoding_errors))
            tgt = stack.enter_context(open_in(args.target, args.encoding_errors))
            pairs: Iterable[InputPair] = read_parallel(src, tgt, args.tokenized, source_name=args.source,
                                                       target_name=args.target)
            handles = [(tgt, args.target), (src, args.source)]
        else:
            handle = stack.enter_context(open_in(args.input, args.encoding_errors))
            gold, lines = gold_input_of(args.input_format, handle)
            pairs, handles = (iter(gold), []) if gold is not None else \
                (read_input_pairs(lines, args.input_format, args.tokenized), [(handle, None)])
        # what a run with no pair aligned signs: its pairs' tokens were to be the input's own, or a gold's
        own = args.tokenized and gold is None
        args.tokens_given = ((own, own), args.tokenized or gold is not None)
        counts = {"total": 0, "bad": 0}
        shown = in_its_place(args)
        read = _reported(_marked(pairs, handles), name, counts, shown)
        if args.format in STREAMED:  # one line per pair, written as its chunk is done
            waits = input_waits(*(handle for handle, _ in handles))  # a run ends where stdin's writer waits
            results: Iterator[Result] = (
                result for run in runs(read, waits)
                for result in iter_align_input(aligner, run, workers=args.workers, chunk_size=args.chunk_size))
            to_terminal = is_std(args.output) and sys.stdout.isatty()  # lines streamed there show the progress
            bar = progress(results, "aligning", disable=True if to_terminal else None)  # (a bar was drawn over them)
            write_lines(args, _counted(bar, name, counts, shown))  # WRITERS' for both
        else:  # a page, pictures or views of all pairs
            listed = list(read)
            # a stream (stdout, /dev/stdout, a FIFO, /dev/null) takes one picture: numbered
            # beside it, /dev/stdout's pictures were files /dev/stdout-1, -2 ... and stdout empty
            if args.format == "svg" and len(listed) > 1 and (is_std(args.output) or written_in_place(args.output)):
                where = "stdout" if is_std(args.output) else args.output
                raise ConfigurationError(
                    f"--format svg writes one picture to {where}, but the input has {len(listed)} "
                    "pairs: give -o FILE.svg (FILE-N.svg for input line N) or use --format html "
                    "(one page for all pairs)")
            results = iter_align_input(aligner, listed, workers=args.workers, chunk_size=args.chunk_size)
            done = list(_counted(progress(results, "aligning", total=len(listed)), name, counts, shown))
            if args.format == "svg":  # a pair too large to draw is refused, the others written
                write_svg(args, done, refuse=_refusal(name, counts, shown))
            else:
                WRITERS[args.format](args, done)
    # a gold file's items are pairs of several lines each (GIZA: 3), as similarity counts them
    return batch_status(args, counts["bad"], counts["total"], name, "input line" if gold is None else "pair")


def _check_picture(args: argparse.Namespace) -> None:
    """ConfigurationError (a usage error, before the aligner loads) for --picture typed with
    another --format than svg, which draws no single picture (html draws both, text, json and
    pretty none): it was silently ignored, `--picture lines --format html` a page of grids and
    lines as without it."""
    if args.picture is not None and args.format != "svg":
        raise ConfigurationError(f"--picture only matters with --format svg (--format {args.format} "
                                 f"{'draws both pictures' if args.format == 'html' else 'draws none'}): "
                                 "add --format svg, or leave it out")


#: The formats written pair by pair as results come (the others need every pair first).
STREAMED = ("text", "json")


def _marked(pairs: Iterable[InputPair], handles: list[tuple[IO[str], str | None]]) -> Iterator[InputPair]:
    """`pairs` with a line that was not UTF-8 (--encoding-errors skip) made an error pair, naming
    its file (a line is read, and its bytes judged, before its pair is made)."""
    for pair in pairs:
        for handle, origin in handles:
            why = undecodable_lines(handle).get(pair.line)
            if why is not None:
                pair = replace(pair, source=None, target=None, error=why, origin=origin)
                break
        yield pair


def _refusal(name: str, counts: dict[str, int], shown: str) -> Callable[[InputPair, str], None]:
    """How a writer refuses one pair of several (svg: too large to draw, :func:`write_svg`): it
    counts as bad and is reported on stderr with why and what the output holds in its place, as
    an unreadable pair is (:func:`_reported`)."""
    def refuse(pair: InputPair, why: str) -> None:
        counts["bad"] += 1
        _warn_pair(pair, why, name, shown)
    return refuse


def _warn_pair(pair: InputPair, why: str, name: str, shown: str) -> None:
    """The one warning line of a bad pair, whether unreadable, failed in aligning or refused by a
    writer: its file (`pair.origin`, else the input's `name`) and line, why, and what the output
    holds in its place (`shown`: _common.in_its_place)."""
    warn_item(f"{pair.origin or name}:{pair.line}: {why} ({shown})")


def _reported(pairs: Iterable[InputPair], name: str, counts: dict[str, int],
              shown: str = "empty output line") -> Iterator[InputPair]:
    """`pairs`, each unreadable one reported on stderr with its line as it is read, and what the
    output holds in its place (`shown`: _common.in_its_place)."""
    for pair in pairs:
        counts["total"] += 1
        if pair.error:
            _warn_pair(pair, pair.error, name, shown)
        yield pair


def _counted(results: Iterable[Result], name: str, counts: dict[str, int],
             shown: str = "empty output line") -> Iterator[Result]:
    """`results`, counting the pairs with no alignment and reporting the ones that failed in
    aligning (the unreadable ones were reported when read), with what the output holds in their
    place (`shown`)."""
    for result in results:
        pair, *_, alignment = result
        if alignment is None:
            counts["bad"] += 1
            if pair.error and pair.error.split(":", 1)[0] in FAILED_IN_ALIGNING:
                _warn_pair(pair, pair.error, name, shown)
        yield result


#: How a pair that failed in annotating or aligning (not in reading) has its error begin.
FAILED_IN_ALIGNING = ("annotation failed", "alignment failed", "worker failed")


def signature_of(args: argparse.Namespace, pair: InputPair) -> str:
    """The signature of `pair`'s alignment: ``tok:none`` in it when the pair's tokens are the
    input's own (:attr:`InputPair.own_sides`; ``tok:none/spacy`` or ``spacy/none`` when one
    side's are), as each pair of a JSON input may or may not give token lists whatever
    --tokenized says; decided per pair, as the input is read after the run begins and its
    outputs are streamed; and no ``spacy`` part for the exact aligner on tokens given (the
    input's own, a gold's), which it reads with no spaCy model."""
    signatures: dict[tuple[tuple[bool, bool], bool], str] = args.signatures
    return signatures[pair.own_sides, isinstance(pair.source, list) and isinstance(pair.target, list)]


def page_signatures(args: argparse.Namespace, results: Sequence[Result]) -> list[tuple[str, str]]:
    """The signatures of a view of all pairs (pretty, html), each with the input lines it signs:
    one, with no lines (``""``), when every aligned pair signs alike (or none was aligned: the
    run's, by --tokenized); else one per signature, ``"lines 1, 3"``, in the order first met."""
    lines: dict[str, list[int]] = {}
    for pair, *_, alignment in results:
        if alignment is not None:
            lines.setdefault(signature_of(args, pair), []).append(pair.line)
    if len(lines) <= 1:
        return [(next(iter(lines), args.signatures[args.tokens_given]), "")]
    return [(sig, ("lines " if len(at) > 1 else "line ") + ", ".join(map(str, at))) for sig, at in lines.items()]


def write_lines(args: argparse.Namespace, results: Iterable[Result]) -> None:
    """text and json: one line per input line (empty, or an "error" object, for a bad pair);
    each aligned pair's JSON object carries its signature (:func:`signature_of`; text lines do not)."""
    with open_out(args.output) as out:
        for pair, source, target, alignment in results:
            if alignment is None or source is None or target is None:  # all None or none
                out.write(json.dumps(error_record(pair)) + "\n" if args.format == "json" else "\n")
            elif args.format == "json":
                record = alignment_record(pair, source, target, alignment, signature_of(args, pair))
                out.write(json_text(record) + "\n")
            else:
                out.write(alignment.to_pharaoh() + "\n")
            if out is sys.stdout:  # a pipe sees each line as it comes (streaming), not per buffer
                out.flush()


def error_record(pair: InputPair) -> dict[str, object]:
    """The JSON object in a bad pair's place: its line, its id when the input gave one (a gold
    file's pair, a JSON record's ``"id"``), as an aligned pair's object has it, and the error.
    Before, it had no id, so a script joining the output to a gold file by id lost the bad pairs."""
    return {"line": pair.line, **({"id": pair.id} if pair.id is not None else {}), "error": pair.error}


def heading(pair: InputPair) -> str:
    """How pictures and views name a pair: its input line, and its id when it has one."""
    return f"line {pair.line}" + (f": {pair.id}" if pair.id is not None else "")


def use_colour(output: str) -> bool:
    """Colour the pretty view: output to stdout, a terminal, and no NO_COLOR in the environment."""
    return is_std(output) and sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def write_pretty(args: argparse.Namespace, results: Sequence[Result]) -> None:
    """pretty: per pair a heading, the sentences and the links as word pairs, a blank line
    between; the settings' signature last (one per signature, with its lines, where pairs sign apart)."""
    from ..viz import AlignmentView, not_aligned, pretty

    colour = use_colour(args.output)
    views = []
    for pair, source, target, alignment in results:
        if alignment is None or source is None or target is None:  # all None or none
            views.append(not_aligned(heading(pair), str(pair.error)))
        else:
            view = AlignmentView(source.tokens, target.tokens, alignment)
            views.append(pretty(view, heading=heading(pair), colour=colour))
    with open_out(args.output) as out:
        signed = [f"signature: {sig}" + (f" ({scope})" if scope else "") for sig, scope in page_signatures(args, results)]
        out.write("\n".join([*views, *signed]) + "\n")


def numbered(path: str, n: int) -> str:
    """`path` with `-n` before its suffix (``out.svg`` → ``out-3.svg``, ``out.svg.gz`` → ``out-3.svg.gz``,
    ``out.svg.GZ`` → ``out-3.svg.GZ``: a .gz in any case is gzip, `paralign.textout.is_gzip_name`)."""
    p = Path(path)
    suffix = "".join(p.suffixes[-2:]) if is_gzip_name(p) else p.suffix
    return str(p.with_name(f"{p.name[: len(p.name) - len(suffix)]}-{n}{suffix}"))


def write_svg(args: argparse.Namespace, results: Sequence[Result],
              refuse: Callable[[InputPair, str], None]) -> None:
    """svg: one picture per pair: to -o (stdout by default) for one pair, else FILE-N.svg; each
    carries the settings' signature as its ``<desc>``. A pair too large to draw
    (:func:`paralign.viz.svg.check_side`, as `lattice draw` refuses a lattice) is a usage error
    when it is the only one (the command line asks for a picture that cannot be drawn; text and
    json write its links); among several it is refused with why (`refuse`, from `run`:
    :func:`_refusal`), no file written for it, and the others
    are drawn. Before, a pair of 3,000 words a side was drawn 72,084 px wide."""
    from ..viz import AlignmentView, alignment_grid, alignment_lines, svg_file, with_description

    draw = alignment_lines if args.picture == "lines" else alignment_grid
    for pair, source, target, alignment in results:
        if alignment is None or source is None or target is None:  # all None or none
            continue
        target_path = args.output if len(results) == 1 else numbered(args.output, pair.line)
        try:
            picture = draw(AlignmentView(source.tokens, target.tokens, alignment),
                           title=f"{heading(pair)}: {' '.join(source.tokens)} / {' '.join(target.tokens)}")
        except ConfigurationError as too_large:
            if len(results) == 1:
                raise
            refuse(pair, str(too_large))
            continue
        with open_out(target_path) as out:
            out.write(svg_file(with_description(picture, f"signature: {signature_of(args, pair)}")))


def write_html(args: argparse.Namespace, results: Sequence[Result]) -> None:
    """html: one self-contained page, the settings' signature under its title (one per signature,
    with its lines, where pairs sign apart: :func:`page_signatures`), a section per input pair:
    its sentences and links, and the pictures of the first DRAWN aligned pairs
    (:data:`paralign.viz.html.DRAWN`, as `evaluate-aligner --report` draws its worst pairs'),
    the others a note in their place, said above the pairs too: every pair drawn, 2,000 pairs
    were a page of 24 MB that took 2.5 to 3 s to open in Chromium (10,000: about 120 MB)."""
    from ..viz import AlignmentView, alignment_section, error_section, page, signature_note
    from ..viz.html import drawn_only

    draw = DRAWN
    sections = []
    aligned = 0
    for pair, source, target, alignment in results:
        ident = f"line-{pair.line}"
        if alignment is None or source is None or target is None:  # all None or none
            sections.append(error_section(heading(pair), f"not aligned: {pair.error}", ident))
        else:
            view = AlignmentView(source.tokens, target.tokens, alignment)
            sections.append(alignment_section(heading(pair), view, ident=ident,
                                              not_drawn_why=None if aligned < draw else NOT_DRAWN))
            aligned += 1
    intro = [signature_note(sig, scope) for sig, scope in page_signatures(args, results)]
    first = f"the first {draw:,} pairs are" if draw != 1 else "the first pair is"
    intro += drawn_only(draw, aligned, f"{first} drawn (grid and lines)", "their sentences and links")
    with open_out(args.output) as out:
        out.write(page(f"paralign align: {counted(len(results), 'pair')}", sections, intro=intro))


#: Why a pair of `align --format html` past the first DRAWN has no pictures, and how to get them.
NOT_DRAWN = ("the page draws the first pairs' pictures only (see above): --format svg -o FILE.svg draws "
             "every pair's (FILE-N.svg for input line N)")


#: The writer of each --format but svg, which `run` calls with its refusal of a pair too large to draw.
WRITERS = {"text": write_lines, "json": write_lines, "pretty": write_pretty, "html": write_html}


# Helpers shared with other commands moved; the old names work until 0.3, with a warning.
__getattr__ = moved_names(__name__, {
    "add_preset_option": "paralign.cli._aligner_options",
    "add_gold_options": "paralign.cli._aligner_options",
})
