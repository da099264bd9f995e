"""What the six `paralign lattice` actions share: their options (`add_lattice_options`,
`add_groups`), the reading of one group's sentences or a lattice's JSON (`lattice_from_input`), of
a --sentences batch and of a groups file (`groups_of`, its failures `group_errors`).

Not for: an action's own options, running it or its text (:mod:`.lattice`); building or querying
lattices (:mod:`paralign.lattice`).
"""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from typing import TYPE_CHECKING

from ..errors import ConfigurationError, FormatError
from ..lattice import CHUNK_GROUPS
from ..textio import without_bom
from ._cluster import add_cluster_options
from ._common import (
    add_format,
    add_output,
    input_name,
    is_stdin,
    non_negative_int,
    open_in,
    positive_int,
    shown_names,
    stdin_given_once,
    stdin_once,
    undecodable_lines,
    warn_skipped_pairs,
)
from ._metavars import FILE, N
from ._warnings import warn, warn_item

if TYPE_CHECKING:  # pragma: no cover - the lattice package loads on first use (numpy, spaCy)
    from ..lattice import Lattice, LatticeOptions
    from ..lattice.evaluate import TextGroup


def add_lattice_options(
    p: argparse.ArgumentParser, lattice_input: bool = True, format_help: str | None = None, lattice_note: str = ""
) -> None:
    """The options of every action: the input (unless `lattice_input` is False) and --lattice (its
    help ending with `lattice_note`, what it means for this action), how a lattice is built,
    --format (with `format_help`) and -o."""
    if lattice_input:  # None, not '-', when not given: --lattice leaves a given one unused
        p.add_argument("input", nargs="?", default=None, metavar=FILE,
                       help="one group: sentences one a line (default: stdin)")
        p.add_argument("--lattice", default=None, metavar=FILE,
                       help=f"use a lattice written by `lattice build --format json` instead of sentences{lattice_note}")
    p.add_argument("--tokenized", action="store_true",
                   help="sentences are whitespace-tokenised (parsed as given)")
    p.add_argument("--method", choices=("syntax", "msa"), default="syntax",
                   help="syntax-based merging (Pang et al.) or the MSA baseline (default: %(default)s)")
    p.add_argument("--wordnet", action="store_true", help="WordNet synonyms count as shared keywords")
    p.add_argument("--no-keyword-check", action="store_true", help="merge without keyword checking")
    p.add_argument("--no-squeeze", action="store_true", help="skip squeezing")
    p.add_argument("--max-gaps", type=non_negative_int, default=0, metavar=N,
                   help="relaxed merging (extension): merge expansions differing by <= N children")
    p.add_argument("--keep-case", action="store_true", help="do not lower-case words")
    add_format(p, help=format_help)
    add_output(p)


def add_groups(p: argparse.ArgumentParser, also_seeds: str = "") -> None:
    """--groups and which of them (paraphrases, stats); `also_seeds`: what --seed seeds besides
    --sample, in its help."""
    p.add_argument("--groups", required=True, metavar=FILE,
                   help="groups file: TSV, one group a line, every cell of a line is a sentence (no id column, "
                   "no header line: they would be merged as sentences), or the Bible layout (a header "
                   "verse_id book chapter verse V1 V2 ...: one verse a group), or jacana JSON "
                   "(MTReference; told by its contents, so .json.gz and stdin too); - = stdin")
    p.add_argument("--min-size", type=positive_int, default=1, metavar=N,
                   help="skip groups with fewer than N distinct sentences, counted as the lattice counts "
                   "them: sentences with the same words (lower-cased unless --keep-case) are one (default: "
                   "%(default)s: every group)")
    p.add_argument("--sample", type=positive_int, default=None, metavar=N,
                   help="a seeded sample of N >= 1 groups (default: all)")
    p.add_argument("--seed", type=non_negative_int, default=None, metavar=N,
                   help=f"seed of --sample{also_seeds} (default: 0)")
    add_cluster_options(p, "parsing, building and measuring the groups' lattices, the results summed here in "
                        "input order: the same output as one process")
    p.add_argument("--chunk-size", type=positive_int, default=CHUNK_GROUPS, metavar=N,
                   help="groups a chunk sent to a worker (default: %(default)s)")


#: How a lattice is built from sentences, as (flag, argparse dest, default): what a --lattice
#: JSON, a lattice built already, leaves unused. All but --method are syntax-based merging's,
#: which --method msa (no trees, no squeezing) leaves unused.
BUILD_OPTIONS = (("--method", "method", "syntax"), ("--max-gaps", "max_gaps", 0), ("--no-squeeze", "no_squeeze", False),
                 ("--no-keyword-check", "no_keyword_check", False), ("--wordnet", "wordnet", False))


def check_lattice_options(args: argparse.Namespace) -> None:
    """ConfigurationError (a usage error, before anything is read) for what would be silently
    unused: with --lattice a sentences file and the options of :data:`BUILD_OPTIONS` (and, but
    for `distance`, which reads sentences, --tokenized and --keep-case); with
    --method msa those of syntax-based merging; --wordnet with --no-keyword-check (synonyms
    count only in keyword checking); and, without --lattice, `lattice distance --sentences -`
    beside the group's stdin (its input when none is given), which it would have read whole."""
    typed = [flag for flag, dest, default in BUILD_OPTIONS if getattr(args, dest) != default]
    if getattr(args, "lattice", None):
        unused = ([args.input] if args.input is not None else []) + typed
        if not hasattr(args, "sentences"):  # paths, draw: no sentence is read, split or cased
            unused += [flag for flag, dest in (("--tokenized", "tokenized"), ("--keep-case", "keep_case"))
                       if getattr(args, dest)]
        if unused:
            raise ConfigurationError(f"--lattice {args.lattice} is a lattice built already, so {', '.join(unused)} "
                                     "(how to build one from sentences, or read them) would be unused: give the "
                                     "sentences or --lattice, not both")
        return
    if args.method == "msa" and (merging := [flag for flag in typed if flag != "--method"]):
        verb, them = ("matters", "it") if len(merging) == 1 else ("matter", "them")
        raise ConfigurationError(f"{', '.join(merging)} only {verb} with --method syntax (merging parse trees): "
                                 f"the --method msa baseline would leave {them} unused")
    if args.wordnet and args.no_keyword_check:
        raise ConfigurationError("--wordnet makes synonyms count as shared keywords in keyword checking, which "
                                 "--no-keyword-check turns off: give one of them")
    if getattr(args, "sentences", None) is not None and is_stdin(args.sentences) and is_stdin(args.input):
        stdin_given_once([args.input or "-", "--sentences"])


def lattice_options(args: argparse.Namespace) -> LatticeOptions:
    from ..lattice import LatticeOptions

    return LatticeOptions(method=args.method, lowercase=not args.keep_case,
                          keyword_check=not args.no_keyword_check, wordnet=args.wordnet,
                          squeeze=not args.no_squeeze, max_gaps=args.max_gaps)


def read_sentences(path: str | None, *, empty: bool = False, needs: str = "a lattice",
                   instead: str = "give it as --lattice {path}", group: bool = True) -> list[str]:
    """The non-blank lines of `path` ('-' or None: stdin), stripped (and a leading BOM dropped); none
    at all is a FormatError (saying what `needs` them) unless `empty`. A lattice's JSON (what
    `lattice build --format json` writes) is a ConfigurationError saying what to do
    `instead` ({path}: `path`, - for stdin): read as sentences, each of its lines was one, and a lattice of ``"edges": [``,
    ``0,`` and ``"the",`` was built, drawn or counted without a word said. Lines of one `group`
    (not --lm-train's text) every one of which holds a tab are a groups file's, it seems: a warning
    says so (:func:`_warn_a_groups_file`)."""
    with open_in(path) as handle:
        lines = [line.strip() for line in without_bom(handle) if line.strip()]
    if not lines and not empty:
        raise FormatError(f"no sentences: {needs} needs at least one", source=input_name(path))
    _refuse_a_lattice_of_lines(lines, input_name(path), instead.format(path=path or "-"))
    if group:
        _warn_a_groups_file(lines, input_name(path))
    return lines


def _warn_a_groups_file(lines: list[str], name: str) -> None:
    """A warning when every one of a group's sentence `lines` holds a tab: a groups file given where
    one group's sentences go (`lattice paths groups.tsv`), each of whose lines, its sentences joined
    (a tab reads as a space), was one sentence of a lattice of them all, without a word said."""
    if lines and all("\t" in line for line in lines):
        warn(f"{name}: every line holds a tab, and each line is one sentence of the group here (its tabs "
             "spaces): a groups file (a group a line, its sentences separated by tabs) is read by lattice stats "
             "and lattice paraphrases --groups")


def _refuse_a_lattice_of_lines(lines: list[str], name: str, instead: str) -> None:
    """ConfigurationError when the non-blank `lines` of a sentences input `name` are a lattice's JSON
    (what `lattice build --format json` writes), saying what to do `instead`: read as sentences, each of
    its lines was one. The one check of every input of sentences (:func:`read_sentences`,
    :func:`sentence_lines`)."""
    from ..lattice.record import is_lattice_record

    if lines and lines[0].startswith("{") and is_lattice_record("\n".join(lines)):
        raise ConfigurationError(f"{name} holds a lattice (the JSON of lattice build --format json), not "
                                 f"sentences one a line: {instead}")


def _refuse_a_lattice(path: str, given: str) -> None:
    """ConfigurationError when the groups file `path` (`given` on the command line) is a
    lattice's JSON: read as gold alignments (its first characters are JSON's), it was "no usable
    pairs in the groups file (invalid JSON (column 2) ...)" of a valid JSON document. A file
    whose head is not JSON's (a TSV groups file) is told by :func:`~paralign.corpora.groups.is_alignment_json`,
    as the groups reader tells it; only one whose head names a lattice's keys is read whole."""
    from ..corpora.groups import is_alignment_json
    from ..lattice.record import is_lattice_record
    from ..textio import open_text

    if not is_alignment_json(path):  # a lattice's JSON starts as gold alignments' JSONL: {"
        return
    with open_text(path) as handle:
        text = handle.read(4096)
        if '"states"' not in text or '"edges"' not in text:  # gold alignments: not read whole
            return
        text += handle.read()
    if is_lattice_record(text):
        raise ConfigurationError(f"--groups {given} holds a lattice (the JSON of lattice build --format json), "
                                 "not groups: give a groups file (TSV, one group a line, or gold alignments "
                                 "as JSON), or the lattice as --lattice of lattice draw, paths or distance")


def lattice_from_input(args: argparse.Namespace) -> Lattice:
    """The lattice of `--lattice JSON` or of the sentences in `input`."""
    return lattice_and_case(args)[0]


def lattice_and_case(args: argparse.Namespace) -> tuple[Lattice, bool]:
    """The lattice of `--lattice JSON` or of the sentences in `input`, and whether its words are
    lower-cased: as the lattice records it (``"lowercase"`` in the JSON `build` writes); for a
    JSON without the record, not when a word holds a capital, else as --keep-case says (as for
    a lattice built here)."""
    from ..lattice import Lattice

    check_lattice_options(args)
    lowercase = not args.keep_case
    if not args.lattice:
        return group_lattice(args, read_sentences(args.input)), lowercase
    with open_in(args.lattice) as handle:
        text = handle.read()
    lattice = Lattice.from_json(text, source=input_name(args.lattice))  # each field checked, with its line
    if lattice.lowercase is not None:
        return lattice, lattice.lowercase
    return lattice, lowercase and not any(w is not None and w != w.lower() for _, w, _ in lattice.edges)


def group_lattice(args: argparse.Namespace, lines: list[str]) -> Lattice:
    """The lattice of a group's lines, as the library builds it (:func:`paralign.build_lattice`)."""
    from ..lattice import build_lattice

    return build_lattice([line.split() for line in lines] if args.tokenized else lines, lattice_options(args))


def group_keys(args: argparse.Namespace, lines: list[str]) -> list[tuple[str, ...]]:
    """A group's sentences as its lattice (:func:`group_lattice`) spells them: split on white
    space with --tokenized, else by spaCy's tokenizer (the annotation's tokens), lower-cased
    unless --keep-case (:func:`paralign.lattice.build.sentence_key`)."""
    from ..lattice.build import lattice_annotator, sentence_key

    tokens = [line.split() for line in lines] if args.tokenized else lattice_annotator().tokenize(lines)
    return [sentence_key(t, not args.keep_case) for t in tokens]


def sentence_lines(path: str, errors: str) -> tuple[list[str], dict[int, str]]:
    """Every line of `path` ('-': stdin), stripped (and a leading BOM dropped), and why a line
    is bad (line number -> reason: blank, or not UTF-8 with `errors` skip), bad ones kept as ""
    (a batch keeps their places); no line at all is a FormatError, a lattice's JSON a ConfigurationError
    (each of its lines was measured as a sentence: ``{``, ``"states": 19,``)."""
    with open_in(path, errors) as handle:
        lines = [line.strip() for line in without_bom(handle)]
        bad = dict(undecodable_lines(handle))
    if not lines:
        raise FormatError("no sentences: give at least one line", source=input_name(path))
    _refuse_a_lattice_of_lines([line for line in lines if line], f"--sentences {input_name(path)}",
                               "--sentences takes the sentences to measure, one a line; a lattice is given as --lattice")
    for number, line in enumerate(lines, start=1):
        if not line:
            bad.setdefault(number, "empty line")
    return lines, bad


def groups_of(args: argparse.Namespace) -> tuple[int, list[TextGroup], dict[str, int], list[dict]]:
    """The groups of --groups (sampled), their sentences as read (annotated where each group is
    measured: :func:`paralign.lattice.evaluate_groups`): their number, the groups, the line
    of each group of a TSV by id (for reporting a group that fails), and the bad pairs of a
    JSON file, left out and each reported on stderr as evaluate-aligner reports a bad gold
    pair (``skipped_rows``: docs/CLI.md, Batches)."""
    from ..lattice.groups import read_groups, sample_groups
    from ..metrics.alignment_scores import skipped_rows

    lines: dict[str, int] = {}
    bad: list = []
    with ExitStack() as stack:  # '-' or a pipe read once
        paths, names = stdin_once(stack, groups=[args.groups])
        _refuse_a_lattice(paths["groups"][0], args.groups)
        groups = sample_groups(read_groups(paths["groups"][0], tokenized=args.tokenized, min_size=args.min_size,
                                           lowercase=not args.keep_case, lines=lines, skipped=bad),
                               args.sample, args.seed)
        skipped = shown_names(skipped_rows(bad), names)
    warn_skipped_pairs(skipped)
    return len(groups), groups, lines, skipped


def group_errors(args: argparse.Namespace, errors: list[dict], lines: dict[str, int], total: int) -> list[dict]:
    """The failed groups, each once, with its line (None for a JSON groups file), each reported
    on stderr as FILE:LINE: group ID: error; LatticeError when every one of `total` groups
    failed (a batch exits 1 only then, docs/CLI.md)."""
    from ..errors import LatticeError

    name = input_name(args.groups)
    records: dict[str, dict] = {}
    for err in errors:
        records.setdefault(err["group"], {"group": err["group"], "line": lines.get(err["group"]),
                                          "error": err["error"]})
    for r in records.values():
        warn_item(f"{name}{'' if r['line'] is None else ':' + str(r['line'])}: group {r['group']}: {r['error']}")
    if total and len(records) == total:
        raise LatticeError(f"{name}: every group failed ({total}); see the warnings above")
    return list(records.values())
