"""`paralign lattice build|draw|paths|distance|paraphrases|stats`: word lattices (Pang et al. 2003).

One module for the six actions; each is a `run_<action>` with, where its text is more than a
method of the lattice, a module-level `render_<action>`.

Not for: the options and input reading the actions share (the reading of a lattice or a group,
`lattice_from_input`, and of a groups file: :mod:`._lattice_input`); building or querying
lattices (:mod:`paralign.lattice`).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path

from ..alignment import MAX_PHRASE_LENGTH
from ..errors import ConfigurationError, EmptyScoringError, ParalignError, counted
from ..lattice import INCREMENTAL_MIN_SIZE
from ..textout import is_gzip_name, named_suffix
from ._bootstrap_options import check_only_with
from ._cluster import cluster_runner
from ._command_line import BY_SUFFIX
from ._commands import add_command
from ._common import (
    add_encoding_errors,
    batch_status,
    copy_to_stdout,
    emit,
    in_its_place,
    input_name,
    int_at_least,
    is_std,
    non_negative_int,
    open_out,
    output_file,
    positive_int,
    progress,
    warn,
    write_result,
)
from ._lattice_input import (
    add_groups,
    add_lattice_options,
    check_lattice_options,
    group_errors,
    group_keys,
    group_lattice,
    groups_of,
    lattice_and_case,
    lattice_from_input,
    lattice_options,
    read_sentences,
    sentence_lines,
)
from ._metavars import ACTION, FILE, TEXT, N
from ._warnings import warn_item


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "lattice",
        description="Build, draw and query word lattices of groups of equivalent sentences.",
    )
    sub = parser.add_subparsers(dest="lattice_command", metavar=ACTION, required=True)
    _add_build(sub)
    _add_draw(sub)
    _add_paths(sub)
    _add_distance(sub)
    _add_paraphrases(sub)
    _add_stats(sub)


def _add_build(sub: argparse._SubParsersAction) -> None:
    """`paralign lattice build`."""
    p = sub.add_parser("build", help="build a group's lattice (OpenFst text, or JSON for --lattice)",
                       description="Build the word lattice of one group of equivalent sentences (one a line), "
                       "as Pang, Knight & Marcu (2003): parse each sentence, merge the trees top-down with "
                       "keyword checking, turn the forest into a finite-state automaton with alternative "
                       "paths at every merged node, then squeeze it (--method msa: the progressive "
                       "alignment baseline). Every sentence is a path, and sub-paths between the same two "
                       "states are paraphrases. Identical sentences count once (words are lower-cased "
                       "unless --keep-case). Text: OpenFst text format, one SRC TAB DST TAB WORD line per "
                       "edge (<eps>: no word), then the final state; JSON: {states, start, end, edges: "
                       "[[from, word, to], ...], weights: the sentences through each edge, lowercase}, "
                       "which --lattice of the other actions reads back.")
    add_lattice_options(p, lattice_input=False, format_help="text: OpenFst text format; json: the "
                        "lattice as JSON, which --lattice of the other actions reads back (default: "
                        "%(default)s)")
    p.add_argument("input", nargs="?", default="-", metavar=FILE, help="sentences one a line (default: stdin)")
    p.set_defaults(func=run_build, lattice=None, output_writes={"text": ("TSV", "OpenFst text"), "json": (
        "JSON", "the lattice as JSON")}, output_refused=dict.fromkeys(DRAW_SUFFIXES, "lattice build writes no picture: "
        "draw it with lattice draw -o {path} (its sentences, or --lattice of a build's JSON)"))


def _add_draw(sub: argparse._SubParsersAction) -> None:
    """`paralign lattice draw`."""
    p = sub.add_parser("draw", help="draw a lattice: DOT, or -o FILE.svg|FILE.html|FILE.dot|FILE.png",
                       description="Draw the lattice of a group (or of --lattice JSON) left to right: the "
                       "start state filled, the end state a double circle, each edge labelled with its "
                       "word; the number of sentences through it is in brackets after its word in DOT, "
                       "the edge's thickness and tooltip in .svg and .html (whose page also lists the "
                       "edges in a table).")
    add_lattice_options(p, format_help="with -o - (default): text writes DOT, json a JSON object "
                        "{\"dot\": DOT source}; with -o FILE the file's suffix says what is written "
                        "(.svg and .html: a drawing made in Python, no Graphviz needed; .dot or .gv: "
                        "DOT; .png: the drawing converted by rsvg-convert or Graphviz `dot`, when one "
                        "is installed; .svg.gz, .html.gz, .dot.gz: the same, gzip-compressed) and the report of the file written, {\"output\": FILE, "
                        "\"format\": svg|html|dot|png}, is printed as text or JSON (default: "
                        "%(default)s)")
    p.set_defaults(func=run_draw, output_writes=BY_SUFFIX)


def _add_paths(sub: argparse._SubParsersAction) -> None:
    """`paralign lattice paths`."""
    p = sub.add_parser("paths", help="count paths exactly; list k best, sampled or all paths",
                       description="Count the lattice's paths exactly (big integers, never by listing "
                       "them) and list the N most probable (--kbest N), N uniformly sampled (--sample N) or the first N paths (--all N). "
                       "A path's probability is the product of its edges', an edge's (weight + 1) over "
                       "the sum of that over its state's out-edges (weight: the sentences through it). "
                       "Text: 'paths: N (log10 L); states S, edges E', then each list under its heading: "
                       "'k-best (log probability TAB path):', 'sample (N uniformly sampled):', 'all "
                       "(first N):' ('all:' when --all reaches every path). JSON: {paths (a string: it can exceed a JSON number), log10_paths, "
                       "states, edges, kbest: [{logprob, sentence}], sample, all}; logprob: the natural log of its "
                       "probability (log10 is only for the path count). Every input sentence is a path: "
                       "--no-inputs lists only the new ones (text: a 'new paths (...): N' line after the "
                       "count; JSON: new_paths, a string).")
    add_lattice_options(p)
    p.add_argument("-k", "--kbest", type=non_negative_int, default=0, metavar=N,
                   help="the N most probable paths (default: 0, none)")
    p.add_argument("--sample", type=non_negative_int, default=0, metavar=N,
                   help="N paths drawn uniformly, with replacement: a path may come more than once "
                   "(default: 0, none)")
    p.add_argument("--seed", type=non_negative_int, default=None, metavar=N, help="seed of --sample (default: 0)")
    p.add_argument("--all", type=non_negative_int, default=0, metavar=N,
                   help="enumerate up to N paths (default: 0, none)")
    p.add_argument("--no-inputs", action="store_true",
                   help="leave the group's own sentences out: count and list only the new paths, those that "
                   "spell no input sentence (the sentences the lattice makes up; not with --lattice, which "
                   "does not record them)")
    p.set_defaults(func=run_paths)


def _add_distance(sub: argparse._SubParsersAction) -> None:
    """`paralign lattice distance`."""
    p = sub.add_parser("distance", help="word edit distance from sentences to the lattice",
                       description="The word edit distance (insertions, deletions, substitutions, 1 each) "
                       "from each sentence to the nearest path of the lattice: 0 when the lattice holds "
                       "the sentence. Text: one DISTANCE TAB TOKENS TAB SENTENCE line per sentence, in "
                       "order; JSON: [{sentence, tokens, distance}], a bad line {sentence, tokens, "
                       "distance, line, error}.")
    add_lattice_options(p, lattice_note=" (--sentence and --sentences are lower-cased as the lattice was built: the JSON "
                        "records it, --keep-case or not)")
    p.add_argument("--sentence", action="append", default=[], type=_sentence, metavar=TEXT,
                   help="a sentence (repeatable; one of white space alone is a usage error)")
    p.add_argument("--sentences", default=None, metavar=FILE,
                   help="sentences one a line, one output row each, in order (after the --sentence "
                   "ones): a blank line is reported on stderr as FILE:LINE and keeps its place (an "
                   "empty line in text, an \"error\" record in JSON), and so is a line that is not "
                   "UTF-8 (see --encoding-errors); exit 1 when every line is bad, or any with --strict")
    add_encoding_errors(p)
    p.set_defaults(func=run_distance, output_writes={"text": ("TSV", "DISTANCE TAB TOKENS TAB SENTENCE rows"),
                                                     "json": ("JSON", "a JSON list")})


def _sentence(text: str) -> str:
    """argparse type of --sentence: a text with a word in it. A blank one (an unset shell
    variable) was measured as a sentence of no word, where a blank line of --sentences is a bad
    line."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a sentence must hold a word, not be empty or only white space")
    return text


def _add_paraphrases(sub: argparse._SubParsersAction) -> None:
    """`paralign lattice paraphrases`."""
    p = sub.add_parser("paraphrases", help="paraphrase pairs from the lattices of a groups file",
                       description="Paraphrase pairs (sub-paths between the same two states) of the "
                       "lattices of a groups file, one `phrase TAB paraphrase TAB score` row each, "
                       "score = the number of groups giving the pair (named score by the TSV's "
                       "`# phrase TAB paraphrase TAB score` header line, and by paralign paraphrases). Rows are sorted by phrase, then "
                       "by score (highest first), then by paraphrase, so two runs write the same bytes. "
                       "-o FILE.tsv or FILE.tsv.gz (gzip) writes a table `paralign paraphrases --table` reads "
                       "(--format json: -o FILE.json, JSON rows no table reader reads); not Parquet.")
    add_lattice_options(p, lattice_input=False)
    add_groups(p)
    p.add_argument("--max-length", type=positive_int, default=MAX_PHRASE_LENGTH, metavar=N,
                   help="longest sub-path in words (default: %(default)s)")
    p.add_argument("--all-pairs", action="store_true",
                   help="also pairs sharing their first or last word (default: minimal pairs)")
    p.set_defaults(func=run_paraphrases, output_writes={"text": ("TSV", "a TSV table"), "json": (
        "JSON", "JSON rows, which no table reader reads")})


def _add_stats(sub: argparse._SubParsersAction) -> None:
    """`paralign lattice stats`."""
    p = sub.add_parser("stats", help="path counts, leave-one-out edit distances, repetition ratio",
                       description="The evaluations of Pang et al. (2003, sect. 5) over the lattices of a "
                       "groups file, means over groups: groups and sentences measured (distinct ones), "
                       "mean_group_size, mean_length (tokens), mean_log10_paths and max_log10_paths (log10 "
                       "of a lattice's number of paths; paths_by_length: the same by mean sentence length); "
                       "with --leave-one-out each sentence is held out in turn: ed_input = its word edit "
                       "distance to the nearest other sentence, ed_lattice = to the lattice of the others "
                       "(*_per_word: divided by its length; share_groups_lattice_better: groups where "
                       "ed_lattice < ed_input); repetition_ratio = for each word no sentence uses twice, "
                       "the share of the paths holding it that hold it twice or more, averaged "
                       "(repetition_nonzero_share / _mean: over the words with a ratio above 0); with "
                       "--lm-train, ent_inputs and ent_paths = per-word cross-entropy (bits) of a trigram "
                       "LM on the inputs and on 20 sampled paths; errors: the groups that failed; skipped_rows: the bad "
                       "pairs of a JSON groups file, left out. Text: "
                       "one 'key: value' line each (n/a: not measured); JSON: these keys and a few more.")
    add_lattice_options(p, lattice_input=False)
    add_groups(p, also_seeds=" and of --lm-train's sampled paths and --incremental's shuffles")
    p.add_argument("--leave-one-out", action="store_true", help="ed_input vs ed_lattice per held-out sentence")
    p.add_argument("--lm-train", default=None, metavar=FILE,
                   help="held-out text (one sentence a line, split as the groups are: by spaCy, on white "
                   "space with --tokenized) for a trigram LM: entropy of inputs and paths")
    p.add_argument("--incremental", action="store_true",
                   help="ed as translations are added (Pang et al. table 5): in each group of "
                   "--incremental-min-size or more distinct sentences one is held out, and its ed to the "
                   "nearest of n others (ed_input) and to their lattice (ed_lattice) is averaged per n, "
                   "with gain = ed_input - ed_lattice; smaller groups are left out of this table")
    p.add_argument("--incremental-min-size", type=int_at_least(2), default=None, metavar=N,
                   help="the smallest group --incremental uses, in distinct sentences (default: "
                   f"{INCREMENTAL_MIN_SIZE}; at least 2: one held out, one to compare with; only with --incremental)")
    p.set_defaults(func=run_stats)


def run_build(args: argparse.Namespace) -> int:
    check_lattice_options(args)  # build has no --lattice: its lattice is always of sentences
    lines = read_sentences(args.input, empty=True, instead="lattice build builds one from sentences; "
                           "draw, paths and distance read this one with --lattice {path}")
    if not lines:  # a transformer: nothing in, nothing out (docs/CLI.md, empty input)
        with open_out(args.output):
            return 0
    lattice = group_lattice(args, lines)
    with open_out(args.output) as out:  # the library's record, its case for `distance --lattice`
        emit(lattice.to_dict(), args.format, lambda _: lattice.to_openfst(), out)
    return 0


#: What `lattice draw -o FILE` writes, by the file's suffix.
DRAW_SUFFIXES = {".svg": "svg", ".html": "html", ".htm": "html", ".dot": "dot", ".gv": "dot", ".png": "png"}
#: PNG converters, in the order they are tried: (program, its arguments, what it reads).
PNG_CONVERTERS = (("rsvg-convert", ["--format", "png", "--output"], "svg"), ("dot", ["-Tpng", "-o"], "dot"))


def draw_format(target: str) -> str:
    """What `-o target` asks for (svg, html, dot or png), by its suffix looked through a .gz
    (`-o l.svg.gz`: SVG, which `open_out` writes gzip, as every command writes a .gz name);
    ConfigurationError (a usage error) for another suffix, and for a PNG named .gz (PNG is
    compressed already; the converter writes the file, not gzip)."""
    suffix = named_suffix(target)
    if suffix == ".svgz":
        raise ConfigurationError(f"a .svgz file is compressed SVG, which lattice draw writes only to a .gz "
                                 f"name: give -o FILE.svg.gz instead of {target}")
    if suffix not in DRAW_SUFFIXES:
        raise ConfigurationError(f"cannot tell what to write to {target}: give -o with one of the suffixes "
                         f"{', '.join(DRAW_SUFFIXES)}, each also with .gz after it but .png (gzip), "
                         "or -o - for DOT on stdout")
    if DRAW_SUFFIXES[suffix] == "png" and is_gzip_name(target):
        raise ConfigurationError(f"a PNG is compressed already, and lattice draw writes none through gzip: "
                                 f"give -o FILE.png instead of {target}")
    return DRAW_SUFFIXES[suffix]


def png_converter() -> tuple[str, list[str], str]:
    """The first installed PNG converter: (its path, its arguments before the output file, the
    input it reads); ConfigurationError (a usage error) naming the programs when none is installed."""
    for program, options, reads in PNG_CONVERTERS:
        exe = shutil.which(program)
        if exe:
            return exe, options, reads
    raise ConfigurationError("writing PNG needs rsvg-convert (librsvg) or Graphviz `dot`, and neither is "
                     "installed: install one, or write .svg or .html (no program needed)")


def run_draw(args: argparse.Namespace) -> int:
    target = args.output
    if target == "-":
        lattice = lattice_from_input(args)
        with open_out("-") as out:
            emit({"dot": lattice.to_dot()}, args.format, lambda r: r["dot"], out)
        return 0
    kind = draw_format(target)
    converter = png_converter() if kind == "png" else None  # before the (slow) lattice is built
    lattice = lattice_from_input(args)
    produce = converter[2] if converter is not None else kind  # what the file or converter takes
    if produce == "dot":
        text = lattice.to_dot()
    else:
        from ..viz import el, lattice_drawing, page, svg_file
        from ..viz.html import Section, figure
        from ..viz.lattice import edge_table, lattice_key

        name = args.lattice or args.input  # None: stdin
        title = f"word lattice of {Path(input_name(name)).name}"  # <stdin>, as every result names it
        size = f"{counted(lattice.n_states, 'state')}, {counted(lattice.n_edges, 'edge')}"
        drawing = lattice_drawing(lattice, title=f"{title}: {size}")
        key = el("p", lattice_key(lattice), class_="note")
        body = (key, figure(drawing), edge_table(lattice))
        text = page(title, [Section(size, body)]) if produce == "html" else svg_file(drawing)
    if converter is not None:
        exe, options, _ = converter
        from ..tables import atomic_path

        with atomic_path(target) as tmp:  # the picture appears whole or not at all
            done = subprocess.run([exe, *options, str(tmp)], input=text.encode("utf-8"), capture_output=True)
            if done.returncode != 0 or not tmp.is_file():
                raise ParalignError(f"{Path(exe).name} could not write {target}: "
                                    f"{done.stderr.decode('utf-8', 'replace').strip() or 'no file written'}")
    else:
        with open_out(target) as out:
            out.write(text)
    _report(args, {"output": target, "format": kind})
    return 0


def _report(args: argparse.Namespace, result: dict) -> None:
    emit(result, args.format, render_written)


def render_written(r: dict) -> str:
    """`lattice draw -o FILE` as text: the file written and its format, `key: value` lines."""
    return "\n".join(f"{k}: {v}" for k, v in r.items())


def run_paths(args: argparse.Namespace) -> int:
    check_only_with(args, {"--seed": 0}, ("--sample",))  # before the lattice is built
    if args.no_inputs and args.lattice:
        raise ConfigurationError(f"--no-inputs leaves the group's own sentences out of the lists, and --lattice "
                                 f"{args.lattice} (a lattice built already) does not record them: give the "
                                 "sentences instead")
    inputs = None
    if args.no_inputs:
        check_lattice_options(args)
        lines = read_sentences(args.input)
        lattice, inputs = group_lattice(args, lines), group_keys(args, lines)
    else:
        lattice = lattice_from_input(args)
    count = lattice.path_count()
    # every list is whole before anything is written: one that no memory holds is refused first
    lattice.check_list_size(min(args.kbest, count) + args.sample + min(args.all, count), per_state=args.kbest)
    result: dict = {"paths": str(count), "log10_paths": lattice.log10_paths(),
                    "states": lattice.n_states, "edges": lattice.n_edges}
    if inputs is not None:
        from ..lattice.new_paths import NewPaths

        new = NewPaths(lattice, inputs)  # the new paths counted once, for the count and every list
        result["new_paths"] = str(new.count)
        kbest, sample, paths = new.kbest(args.kbest), new.sample(args.sample, args.seed), new.paths()
    else:
        kbest, sample, paths = lattice.kbest(args.kbest), lattice.sample(args.sample, args.seed), lattice.paths()
    if args.kbest:
        result["kbest"] = [{"logprob": lp, "sentence": " ".join(w)} for lp, w in kbest]
    if args.sample:
        result["sample"] = [" ".join(w) for w in sample]
    if args.all:
        import itertools
        import sys

        # a LIMIT above sys.maxsize is no limit (islice refuses it with a traceback)
        result["all"] = [" ".join(w) for w in itertools.islice(paths, min(args.all, sys.maxsize))]
    write_result(args, result, render_paths)
    return 0


def render_paths(r: dict) -> str:
    """`lattice paths` as text: the path count (and with --no-inputs the new paths'), then each
    list asked for under its heading (a reader must tell the sample from the enumeration): the k
    best (log probability TAB path), the sampled paths, the enumerated ones, one a line. A word
    holding a tab, line break or other control character (a --lattice JSON's word can) is written
    escaped (:func:`~paralign.viz.terminal.safe`), so each path stays one line; JSON has the exact
    words. Every line ends with a line break, the last too: a path of no word (a lattice of one
    state, or of an epsilon edge from start to end) listed last was an empty last line, which the
    output's final line break swallowed, so the list showed one path fewer than it held."""
    from ..viz.terminal import safe

    lines = [f"paths: {r['paths']} (log10 {r['log10_paths']:.2f}); states {r['states']}, edges {r['edges']}"]
    listed = int(r["paths"])
    if "new_paths" in r:
        lines.append(f"new paths (no input sentence; every list below holds only these): {r['new_paths']}")
        listed = int(r["new_paths"])
    if "kbest" in r:
        lines.append("k-best (log probability TAB path):")
        lines += [f"{x['logprob']:.3f}\t{safe(x['sentence'])}" for x in r["kbest"]]
    if "sample" in r:
        lines.append(f"sample ({len(r['sample'])} uniformly sampled):")
        lines += map(safe, r["sample"])
    if "all" in r:
        lines.append(f"all (first {len(r['all'])}):" if len(r["all"]) < listed else "all:")
        lines += map(safe, r["all"])
    return "".join(line + "\n" for line in lines)


def run_distance(args: argparse.Namespace) -> int:
    """One row per sentence: the --sentence ones, then each line of --sentences, a batch
    (docs/CLI.md): a blank or undecodable line is reported as FILE:LINE and keeps its place."""
    lattice, lowercase = lattice_and_case(args)
    from_file, bad = sentence_lines(args.sentences, args.encoding_errors) if args.sentences else ([], {})
    sentences = list(args.sentence) + from_file
    if not sentences:
        raise ConfigurationError("give --sentence TEXT or --sentences FILE")
    blank = {len(args.sentence) + line - 1: line for line in sorted(bad)}  # output row -> line
    good = [s for k, s in enumerate(sentences) if k not in blank]
    if args.tokenized:
        token_lists = [s.split() for s in good]
    else:
        from ..nlp import Annotator

        annotator = Annotator(disable=("parser", "ner", "tagger", "lemmatizer", "attribute_ruler"))
        token_lists = [list(s.tokens) for s in annotator.pipe(good)]
    tokens_of = iter(token_lists)
    rows: list[dict] = []
    for k, text in enumerate(sentences):
        if k in blank:
            rows.append({"sentence": "", "tokens": None, "distance": None, "line": blank[k],
                         "error": bad[blank[k]]})
            continue
        tokens = next(tokens_of)
        words = [t.lower() for t in tokens] if lowercase else tokens
        rows.append({"sentence": text, "tokens": len(words), "distance": lattice.distance(words)})
    name = input_name(args.sentences) if args.sentences else ""
    for line in blank.values():  # each a bad item, as a batch reports them (docs/CLI.md, Batches)
        warn_item(f"{name}:{line}: {bad[line]} ({in_its_place(args)})")
    write_result(args, rows, render_distance)
    return batch_status(args, len(blank), len(from_file), name)


def render_distance(r: list) -> str:
    """`lattice distance` as text: distance TAB tokens TAB sentence, one a line (an empty line
    in place of a blank line of --sentences); a sentence's tab or control character escaped
    (:func:`~paralign.viz.terminal.safe`), so each row is one line of three columns."""
    from ..viz.terminal import safe

    return "".join(("" if "error" in x else f"{x['distance']}\t{x['tokens']}\t{safe(x['sentence'])}") + "\n"
                   for x in r)


def run_paraphrases(args: argparse.Namespace) -> int:
    from ..lattice.evaluate import lattice_paraphrases
    from ..tables import is_parquet

    check_only_with(args, {"--seed": 0}, ("--sample",))
    check_lattice_options(args)
    if is_parquet(args.output):  # before the (slow) lattices: TSV under a Parquet name cannot be read back
        raise ConfigurationError(f"lattice paraphrases writes TSV (phrase TAB paraphrase TAB score) or JSON, "
                                 f"not Parquet: give -o FILE.tsv or FILE.tsv.gz instead of {args.output}")
    total, groups, lines, _ = groups_of(args)
    largest = max((len(sentences) for _, sentences in groups), default=0)  # a lattice needs 2 for a paraphrase
    with cluster_runner(args):
        table, errors = lattice_paraphrases(groups, lattice_options(args), max_length=args.max_length,
                                            minimal=not args.all_pairs,
                                            tokenizer="whitespace" if args.tokenized else "spacy",
                                            progress=lambda done: progress(done, "lattices", total),
                                            workers=args.workers, chunk_size=args.chunk_size)
    group_errors(args, errors, lines, total)
    _say_why_empty(args, total, largest)
    if args.format == "json":
        with open_out(args.output) as out:
            emit([{"phrase": e.phrase, "paraphrase": e.paraphrase, "score": e.score} for e in table],
                 "json", str, out)
    else:  # the table's own TSV, on stdout too: `> t.tsv` and `-o t.tsv` are the same bytes
        with ExitStack() as stack:
            output = output_file(stack, args.output, "table.tsv")
            table.to_tsv(output)
            if is_std(args.output):
                copy_to_stdout(output)
    return 0


def _say_why_empty(args: argparse.Namespace, total: int, largest: int,
                   outcome: str = "a lattice needs two for a paraphrase: the table is empty") -> None:
    """Say on stderr why no group could give a paraphrase (or a comparison: `outcome`): none
    left by --min-size, or every group of one distinct sentence (a group's sentences one a line,
    as `lattice build` reads them, are that many groups of one). Before, the empty table (and
    stats of one-path lattices) came without a word, as if the groups held no paraphrase."""
    name = input_name(args.groups)
    if total == 0 and args.min_size > 1:
        warn(f"{name}: no group of --min-size {args.min_size} or more distinct sentences: the table is empty")
    elif total and largest < 2:
        warn(f"{name}: every group ({total}) holds one distinct sentence, and {outcome} (a groups file holds "
             "a group a line, its sentences separated by tabs; sentences one a line are one group for "
             "`lattice build`)")


def run_stats(args: argparse.Namespace) -> int:
    from ..lattice.evaluate import IncrementalTable, evaluate_groups
    from ..lattice.lm import NGramLM

    check_only_with(args, {"--seed": 0}, ("--sample", "--lm-train", "--incremental"))
    check_only_with(args, {"--incremental-min-size": INCREMENTAL_MIN_SIZE}, ("--incremental",))
    check_lattice_options(args)
    lm = NGramLM().fit(_lm_sentences(args)) if args.lm_train else None
    total, groups, lines, skipped = groups_of(args)
    if total == 0:  # statistics of nothing are not zeros (docs/CLI.md, empty input)
        which = f" of --min-size {args.min_size} or more distinct sentences" if args.min_size > 1 else ""
        raise EmptyScoringError(f"{input_name(args.groups)}: no groups{which}: nothing to measure")
    errors: list[dict] = []
    table = IncrementalTable(lattice_options(args), min_size=args.incremental_min_size, seed=args.seed,
                             errors=errors) if args.incremental else None
    with cluster_runner(args):  # each group parsed, measured (and its --incremental rows) where it runs
        summary, _ = evaluate_groups(groups, lattice_options(args), leave_one_out=args.leave_one_out, lm=lm,
                                     seed=args.seed, progress=lambda done: progress(done, "groups", total),
                                     incremental=table, workers=args.workers, chunk_size=args.chunk_size)
    if summary["groups"] and summary["sentences"] == summary["groups"]:
        _say_why_empty(args, summary["groups"], 1, "each lattice is that sentence: these figures compare nothing")
    errors = summary["errors"] + errors  # the measures' failures first, then the table's
    if table is not None:
        summary["incremental_min_size"] = args.incremental_min_size
        summary["incremental"] = table.table()
    summary["errors"] = group_errors(args, errors, lines, total)
    summary["skipped_rows"] = skipped
    write_result(args, summary, render_stats)
    return 0


def _lm_sentences(args: argparse.Namespace) -> Iterator[Sequence[str]]:
    """The sentences of --lm-train split as the groups' are: on white space with --tokenized,
    else by the lattice's tokenizer (spaCy's). Split on white space, "the man's dog." taught
    the LM `man's` and `dog.`, words no path of an untokenized group holds (man 's dog .). A
    file of no sentence is a FormatError: a model of no text gave every word the probability 1,
    and every entropy was 0 bits, a perfect score."""
    from ..lattice.build import lattice_annotator

    lines = read_sentences(args.lm_train, needs="the --lm-train language model", group=False,
                           instead="--lm-train takes held-out sentences, one a line")
    return (line.split() for line in lines) if args.tokenized else lattice_annotator().tokenize(lines)


def _stat(x: object) -> str:
    """A figure of `lattice stats` as text: n/a, 4 significant digits (every digit before the
    point from 10,000 up: `.4g` wrote a mean length of 10,000 tokens as 1e+04, 12,345 as
    1.234e+04), or as it is."""
    if not isinstance(x, float):
        return "n/a" if x is None else str(x)
    return f"{x:.0f}" if abs(x) >= 9999.5 else f"{x:.4g}"  # what .4g rounds to 10,000 or more


def render_stats(s: dict) -> str:
    """`lattice stats` as text: one `key: value` line per figure (each of the JSON's: the share of groups
    the lattice did worse on, the gain's spread and the words the repetition ratio is of were left out,
    so 'better: 0.4' did not say whether the rest were worse or equal), paths by sentence length, the
    --incremental table under its own heading (one row per n, with its gain), errors."""
    keys = ("groups", "sentences", "mean_group_size", "mean_length", "mean_log10_paths", "max_log10_paths",
            "ed_input", "ed_lattice", "ed_input_per_word", "ed_lattice_per_word", "ed_gain_sd",
            "share_groups_lattice_better", "share_groups_lattice_worse", "repetition_ratio", "repetition_words",
            "repetition_nonzero_share", "repetition_nonzero_mean", "ent_inputs", "ent_paths")
    lines = [f"{k}: {_stat(s.get(k))}" for k in keys]
    lines.append("paths by mean sentence length:")
    lines += [f"  {r['length']}: {counted(r['groups'], 'group')}, mean log10 {r['mean_log10_paths']:.2f}, "
              f"max {r['max_log10_paths']:.2f}" for r in s["paths_by_length"]]
    if "incremental" in s:
        size = s.get("incremental_min_size", INCREMENTAL_MIN_SIZE)
        lines.append(f"incremental (one sentence held out vs n others, groups of {size} or more sentences):")
        lines += [f"  n={r['n']}: {counted(r['groups'], 'group')}, ed_input {r['ed_input']:.2f}, ed_lattice "
                  f"{r['ed_lattice']:.2f}, gain {r['gain']:.2f}" for r in s["incremental"]]
        if not s["incremental"]:
            lines.append(f"  none: no group has {size} or more distinct sentences (--incremental-min-size)")
    lines.append(f"errors: {len(s['errors'])}")
    if s.get("skipped_rows"):
        lines.append(f"skipped pairs: {len(s['skipped_rows'])}")
    return "\n".join(lines)
