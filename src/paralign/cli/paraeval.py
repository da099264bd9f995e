"""`paralign paraeval`: ParaEval of one or many hypothesis files against the same references."""

from __future__ import annotations

import argparse
import glob
from contextlib import ExitStack
from typing import IO, TYPE_CHECKING

from ..corpora.outputs import read_outputs
from ..errors import (
    ConfigurationError,
    EmptyScoringError,
    InputFileError,
    MismatchError,
    ParalignError,
    SameReferenceError,
    refuse_repeated_stream,
)
from ..metrics.paraeval.configs import CONFIGS, get_config
from ._bootstrap_options import (
    add_bootstrap_options,
    bootstrap_signature,
    check_bootstrap_options,
    too_few_to_resample,
)
from ._cluster import add_cluster_options, cluster_runner
from ._commands import add_command
from ._common import (
    add_format,
    add_output,
    add_report,
    check_stdin_once,
    counted,
    emit,
    input_name,
    is_stdin,
    open_in,
    open_out,
    progress_callback,
    table_progress,
    warn,
    write_report,
)
from ._encoder_options import add_encoder_options, check_encoder_options
from ._metavars import FILE, NAME
from ._sacrebleu import add_spellings, use_spellings
from ._table_options import (
    add_paraeval_source_options,
    check_paper_options,
    check_table_names,
    paraeval_sources,
    resource_names,
    table_path,
)
from ._warnings import warn_item

if TYPE_CHECKING:
    from ..metrics.paraeval.paper import PaperOptions
    from ..metrics.paraeval.scoring import Scorer

#: What --encoder and --device reach in this command (its help, and the error when none is used).
ENCODER_USERS = "--config contextual (its contextual tier)"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "paraeval",
        description="Matching of a hypothesis against one or more references; 13a tokens, "
                    "lower-cased. --config default: graded tiers (exact, stem, WordNet synonym: "
                    "two words sharing a synset, PPDB paraphrase), recall-weighted F and a fragmentation penalty, the best "
                    "reference of several; --config contextual adds contextual word vectors (the "
                    "neural extra); --config paper: the paper's two tiers (paraphrases, then "
                    "unigrams). Many -i: the sources load and the references are indexed once. "
                    "The precision of an empty hypothesis is 0; the recall, F and score of a blank "
                    "reference n/a (a warning names its lines).")
    parser.add_argument("-r", "--reference", action="append", required=True, metavar=FILE,
                        help="reference file, one segment a line (repeat for more references)")
    parser.add_argument("-i", "--input", action="extend", nargs="+", default=None, metavar=FILE,
                        help="hypothesis files or globs (-i A B, as sacrebleu's -i, or -i A -i B: "
                             "each system scored against "
                             "the same references; of many, one that cannot be, e.g. of another "
                             "length, is reported and left out; a file given twice is scored once, "
                             "in its first place; default: stdin)")
    parser.add_argument("--config", default="default", choices=sorted(CONFIGS), metavar=NAME,
                        help="default, contextual or paper (default: %(default)s). The default and "
                        "contextual configs' system score is their graded recall (ParaEval's finding: "
                        "recall is what follows human judgments across systems), so it does not punish "
                        "added words: a system padding every line with reference words scores high; "
                        "read its precision beside it, or the segment scores, which weigh both")
    add_paraeval_source_options(parser, "--config")
    add_encoder_options(parser, ENCODER_USERS)
    parser.add_argument("--no-lowercase", action="store_true",
                        help="--config paper: case-sensitive unigrams")
    parser.add_argument("--tokenize", choices=("13a", "none"), default=None,
                        help="--config paper: tokenizer (default 13a)")
    parser.add_argument("--keep-stopword-phrases", action="store_true",
                        help="--config paper: also paraphrase-match phrases of stop words only")
    parser.add_argument("--sentence-level", action="store_true",
                        help="segment scores with the counts behind each (--format json: one "
                             'document, {"segments": [...], "corpus": {...}}; many inputs: '
                             '{"systems": [{"input": ..., "segments": ..., "corpus": ...}]}; the '
                             "corpus's --confidence and --paired-bs figures only there)")
    add_bootstrap_options(parser, "bootstrap 95%% confidence of each system's headline score (the "
                          "paper config's F), resampling its segments: mean ± half-width, as "
                          "sacrebleu's --confidence")
    parser.add_argument("--paired-bs", action="store_true",
                        help="paired bootstrap test (Koehn 2004), as sacrebleu's --paired-bs: the first "
                             "-i is the baseline, every other system gets the p-value of its difference "
                             "from it on the same resamples (* when p < 0.05), and its confidence")
    add_cluster_options(parser, "scoring whole systems (each worker indexes the references once), or "
                        "with --config paper matching segments")
    add_format(parser, choices=("text", "json", "tsv"),
               help="output format: text, json, or tsv (a header, then a row per system, per segment "
                    "with --sentence-level: input, [segment,] score, precision, recall, f, [mean, ci, "
                    "p_value with --confidence or --paired-bs,] signature; the JSON's numbers, blank "
                    "where null) (default: text)")
    add_output(parser, {"text": ("text", "a text report"), "json": ("JSON", "a JSON report"),
                        "tsv": ("TSV", "a TSV table")})
    add_report(parser, "the corpus scores (with --confidence, its bootstrap), then each hypothesis with its words highlighted by "
               "tier (exact, stem, synonym, paraphrase, contextual, unmatched; with a graded "
               "config also the reference it was scored against, and its score); with several -i, one "
               "table of the systems, highest score first, with their bootstrap and --paired-bs p-values")
    add_spellings(parser, "paraeval")
    parser.set_defaults(func=run)


def read_segments(path: str) -> list[str]:
    """All lines of a file (or stdin for '-'), without their line ends or a leading BOM."""
    from ..textio import without_bom

    with open_in(path) as handle:
        return [line.rstrip("\n").rstrip("\r") for line in without_bom(handle)]


def input_paths(patterns: list[str] | None) -> list[str]:
    """Each -i as given, or the sorted files its glob matches, folders left out (a glob matching
    none: an error, naming the folders it matches when it matches only folders). A name that
    exists is that file, even with glob characters in it (``hyp[1].txt``)."""
    import os

    out: list[str] = []
    for pattern in patterns or ["-"]:
        if pattern != "-" and glob.has_magic(pattern) and not os.path.exists(pattern):
            matched = sorted(glob.glob(pattern))
            found = [path for path in matched if not os.path.isdir(path)]
            if not found:
                import errno

                folders = "" if not matched else (  # `-i 'out/*'` of one folder a system: "no file" alone puzzled
                    f", only {counted(len(matched), 'folder')} ({', '.join(matched[:3])}"
                    f"{', ...' if len(matched) > 3 else ''}), which -i leaves out: name the files in them")
                raise InputFileError(f"no file matches this pattern{folders}", source=pattern, errno=errno.ENOENT)
            out.extend(found)
        else:
            out.append(pattern)
    return out


def distinct_inputs(paths: list[str]) -> list[str]:
    """`paths` with each file once, in its first place: a later path naming a file already given
    (the baseline again in a glob, ``./hyp.txt`` beside ``hyp.txt``, a link to it) is left out
    with a warning, as sacrebleu's --paired-bs ignores a system also given as the baseline.
    Scored twice, it was two results of one name, and its own paired test (p = 1)."""
    again = _given_before(paths)
    for k, before in again.items():
        warn(f"{input_name(paths[k])}: the same file as {input_name(before)} (given before); scored once")
    return [path for k, path in enumerate(paths) if k not in again]


def _given_before(paths: list[str]) -> dict[int, str]:
    """The index of each of `paths` naming a file given before it (the same path, ``./x`` beside
    ``x``, a link), and that earlier path; stdin is never one (twice, it is a usage error:
    :func:`check_stdin_once`)."""
    import os

    first: dict[str, str] = {}
    again: dict[int, str] = {}
    for k, path in enumerate(paths):
        if is_stdin(path):
            continue
        key = os.path.realpath(path)
        if key in first:
            again[k] = first[key]
        else:
            first[key] = path
    return again


def check_distinct_references(paths: list[str]) -> None:
    """SameReferenceError (a ConfigurationError: a usage error, before anything is read) when two -r name one file:
    scored against two copies of one reference, as if they were two, under a signature saying
    ``nrefs:2``, and a reference of another length than the outputs was named "X and X"; as
    ``meta-eval --refs A,A`` is refused."""
    again = _given_before(paths)
    if again:
        k, before = next(iter(again.items()))
        first, later = input_name(before), input_name(paths[k])
        raise SameReferenceError(f"argument -r/--reference: {later} is the same file as {first} (given before): "
                                 "give each reference once", first=first, again=later)


def _paper_options(args: argparse.Namespace) -> PaperOptions:
    """The paper scorer's settings given on the command line (only those)."""
    options: PaperOptions = {}
    if args.min_paraphrase_length is not None:
        options["min_paraphrase_length"] = args.min_paraphrase_length
    if args.no_lowercase:
        options["lowercase"] = False
    if args.tokenize is not None:
        options["tokenize"] = args.tokenize
    if args.keep_stopword_phrases:
        options["skip_stopword_phrases"] = False
    return options


def run(args: argparse.Namespace) -> int:
    from ..metrics.paraeval.scoring import scorer as make_scorer
    from ..metrics.paraeval.scoring import systems_scores

    use_spellings(args, "paraeval")  # sacrebleu's --paired-bs-n ... before the bootstrap options are checked
    check_bootstrap_options(args, ("--confidence", "--paired-bs"))
    check_paper_options(args, args.config, "--config")
    check_encoder_options(args, "contextual" in get_config(args.config).tiers, ENCODER_USERS)
    given = input_paths(args.input)
    check_stdin_once({"-i" if args.input else "-i (stdin when not given)": given, "-r": args.reference,
                      "--table": [table_path(spec)[0] for spec in args.table]})
    check_distinct_references(args.reference)
    paths = distinct_inputs(given)
    check_table_names("--table", args.table)
    resources = resource_names(args.resources)
    if args.sentence_level and args.format != "json" and (args.confidence or args.paired_bs):
        # text and tsv have one line a segment and none for the corpus these figures are about
        raise ConfigurationError("--confidence and --paired-bs are figures of the corpus score, which "
                                 f"--sentence-level {args.format} does not show: use --format json (its "
                                 '"corpus"), or leave out --sentence-level')
    if args.paired_bs and len(paths) < 2:
        raise ConfigurationError("--paired-bs compares systems with the first -i (the baseline): give two or more")
    refs = [read_segments(path) for path in args.reference]
    _check_references(args.reference, refs)
    _warn_blank_references(args.reference, refs, has_score=get_config(args.config).scorer != "paper")
    systems, bad = _read_systems(args, paths, refs)
    with ExitStack() as stack:  # a table from stdin is read whole as it loads
        sources = paraeval_sources(stack, args.config, resources, args.table, table_progress())
    scorer = make_scorer(args.config, sources=sources, max_length=args.max_length,
                         encoder=args.encoder, device=args.device, **_paper_options(args))
    bootstrap = args.confidence or args.paired_bs
    update, close = progress_callback(len(systems), "ParaEval systems")  # a bar on a terminal only
    try:
        with cluster_runner(args):  # systems (graded configs) or segments (paper) on its workers
            scores = systems_scores(scorer, [hyps for _, hyps in systems], refs, args.sentence_level,
                                    with_stats=bootstrap, progress=update)
    finally:
        close()
    if bootstrap:
        _add_significance(args, scorer, scores, [path for path, _ in systems])
    results = [(path, result) for (path, _), result in zip(systems, scores, strict=True)]
    _write(args, results, bad, many=len(given) > 1)
    if args.report is not None and len(paths) > 1:  # a comparison: the systems, ranked
        from ..viz.reports import systems_report

        write_report(args.report, systems_report(_documents(results, bad, False)))
    elif args.report is not None:
        _report(args, scorer, systems[0][1], refs, results[0][1])
    return 0


def _check_references(paths: list[str], refs: list[list[str]]) -> None:
    """MismatchError naming every reference file and its length when they differ: checked before
    any system is read, as it is the references' fault, not each system's (every system was
    otherwise reported bad for it, one of the same length as the first reference too).
    SameReferenceError naming the two files when two hold the same lines (a copy, as the
    library refuses the same stream twice: :func:`paralign.errors.repeated_stream`)."""
    if len({len(stream) for stream in refs}) > 1:
        lengths = ", ".join(f"{input_name(path)} has {counted(len(stream), 'line')}"
                            for path, stream in zip(paths, refs, strict=True))
        raise MismatchError(f"the references differ in length: {lengths} (each has one line a segment)")
    refuse_repeated_stream(refs, [input_name(path) for path in paths],
                           lambda first, again: f"argument -r/--reference: {again} has the same lines as {first}: "
                           f"give each reference once (scored against both as against one, signed nrefs:{len(refs)})")


def _warn_blank_references(paths: list[str], refs: list[list[str]], *, has_score: bool) -> None:
    """A warning naming the segments whose every reference is blank (white space alone): their
    recall, F and score are n/a (no reference word to match: JSON null, text ``n/a``), and the
    corpus's too when every line is; without `has_score` (the paper config, whose headline is
    F: it has no score column) their recall and F, the figures it shows. The scores say so themselves; the warning says why, once,
    where a segment's n/a among many would be missed (sacrebleu scores such a reference 0
    without a word, which reads as a translation that matched nothing).

    Why: a reference file blank on every line (a wrong file, a failed extraction) scored
    ``R = 0.0000`` under the graded configs, silently."""
    blank = [i for i in range(len(refs[0])) if not any(stream[i].strip() for stream in refs)]
    if not blank:
        return
    names = " and ".join(input_name(path) for path in paths)
    if len(blank) == len(refs[0]):
        figures = "recall, F and the score are" if has_score else "recall and F are"
        warn(f"{names}: every reference line is blank: {figures} n/a (no reference word to match)")
        return
    lines = ", ".join(str(i + 1) for i in blank[:10]) + (", ..." if len(blank) > 10 else "")
    one = len(blank) == 1
    their = "its" if one else "their"
    figures = "recall, F and score are" if has_score else "recall and F are"
    warn(f"{names}: {counted(len(blank), 'segment')} of {len(refs[0])} {'has' if one else 'have'} no reference "
         f"word (blank: line{'' if one else 's'} {lines}): {their} {figures} n/a; the corpus "
         f"figures count {their} hypothesis words in the precision alone")


def _read_system(path: str) -> list[str]:
    """One -i file's segments; EmptyScoringError when it has none."""
    hyps = read_segments(path)
    if not hyps:  # an evaluator with nothing to score fails (docs/CLI.md, empty input)
        raise EmptyScoringError(f"{input_name(path)}: no hypothesis lines: nothing to score")
    return hyps


def _read_systems(args: argparse.Namespace, paths: list[str],
                  refs: list[list[str]]) -> tuple[list[tuple[str, list[str]]], dict[int, tuple[str, str]]]:
    """The systems that can be scored, and the others: their index among `paths` -> (path, why).

    Many -i are a batch (docs/CLI.md, Batches): a system whose file is empty, not UTF-8 or of
    another length than the references is reported on stderr and left out, so the others are
    still scored. One -i, every system bad, or a bad baseline of --paired-bs stop the run (exit
    1); a file that cannot be opened stops it as a usage error, as in every command; and so do
    references of another length than every system read, two or more of one length: each system
    was reported bad for them. Read by :func:`paralign.corpora.outputs.read_outputs`, meta-eval's
    rule too."""
    count = len(refs[0])  # the references' lengths are one (_check_references)

    def length_error(k: int, hyps: list[str]) -> MismatchError:
        return MismatchError(f"{input_name(args.reference[0])} has {counted(count, 'line')} but the "
                             f"hypothesis {input_name(paths[k])} has {len(hyps)}")

    def fatal(error: ParalignError) -> bool:
        return len(paths) == 1 or getattr(error, "cannot_open", False)

    kept, errors = read_outputs(dict(enumerate(paths)), _read_system, count,
                                " and ".join(input_name(path) for path in args.reference), length_error, fatal)
    systems = [(paths[k], hyps) for k, hyps in kept.items()]
    bad = {k: (paths[k], str(error)) for k, error in errors.items()}
    if args.paired_bs and 0 in bad:
        raise EmptyScoringError(f"the baseline of --paired-bs (the first -i) cannot be scored: {bad[0][1]}")
    for _, message in bad.values():
        warn_item(f"{message}; not scored")
    if not systems:
        raise EmptyScoringError(f"none of the {counted(len(paths), 'system')} could be scored (reported above)")
    if args.paired_bs and len(systems) < 2:
        raise EmptyScoringError("no system left to compare with the baseline (reported above)")
    return systems, bad


def _add_significance(args: argparse.Namespace, scorer: Scorer, scores: list[dict], paths: list[str]) -> None:
    """Each system's bootstrap figures (``confidence``, and ``paired_bootstrap`` against the first
    with --paired-bs) in its result, its statistics rows taken out, and the resampling's settings
    in every signature (``bs:N|seed:S``, as sacrebleu signs them).

    Null with a warning where undefined: over fewer than 2 segments, and for a system whose score
    is n/a (the paper's F when no reference has a word), which has no interval, nor a p-value in
    a paired test with it or with such a baseline (the library gives None there:
    :func:`~paralign.metrics.paraeval.scoring.systems_significance`)."""
    from ..metrics.paraeval.scoring import systems_significance

    stats = [result.pop("stats") for result in scores]
    reason = too_few_to_resample(len(stats[0]), "segment")  # the systems have as many as the references
    if reason:
        warn(reason + ("; no paired test either" if args.paired_bs else ""))
    figures = systems_significance(scorer, stats, paired=args.paired_bs,
                                   n_resamples=args.resamples, seed=args.seed)
    undefined = {k for k, result in enumerate(scores) if result.get("score", result.get("f")) is None}
    for k, (path, result, extra) in enumerate(zip(paths, scores, figures, strict=True)):
        if k in undefined and not reason:
            warn(f"{input_name(path)}: no bootstrap interval (n/a): its score is n/a")
        result["signature"] = bootstrap_signature(args, result["signature"])
        result.update(extra)
        paired = extra.get("paired_bootstrap")
        if isinstance(paired, dict):  # with --paired-bs
            paired["baseline"] = input_name(paths[0])


def _write(args: argparse.Namespace, results: list[tuple[str, dict]], bad: dict[int, tuple[str, str]],
           many: bool) -> None:
    """The scores to -o, in --format (per segment with --sentence-level); a system that could
    not be scored (`bad`: its -i index and why) is an ``{"input", "error"}`` record in its place
    in JSON, and has no line in text (its warning is on stderr). Text names a system as a
    message does, its control characters escaped (JSON: the exact name)."""
    with open_out(args.output) as out:
        if args.format == "json":
            documents = _documents(results, bad, args.sentence_level)
            if not many:
                emit({k: v for k, v in documents[0].items() if k != "input"}, "json", str, out)
                return
            emit({"systems": documents}, "json", str, out)
            return
        from ..viz.terminal import safe

        if args.format == "tsv":
            _write_tsv(out, results, args.sentence_level)
            return
        for path, result in results:  # a name's tab, line break or ESC escaped: one column, one line
            prefix = f"{safe(input_name(path))}\t" if many else ""
            if args.sentence_level:
                for segment in result["segments"]:
                    out.write(f"{prefix}{segment['segment']}\t{_text(segment)}\n")
            else:
                out.write(f"{prefix}{_text(result)}\n")


#: The figures of --format tsv's rows, after the input (and segment).
TSV_FIGURES = ("score", "precision", "recall", "f")


def _write_tsv(out: IO[str], results: list[tuple[str, dict]], sentence_level: bool) -> None:
    """--format tsv: a header, then a row per system (per segment with `sentence_level`) of the
    JSON's numbers (a float as JSON writes it, blank for null), the bootstrap's mean, ci and
    p_value when there is one, and the signature; a name's tab or line break escaped, as the
    text output escapes it, so each row is one line of the same columns."""
    from ..viz.terminal import safe

    def cell(value: object) -> str:
        return "" if value is None else repr(value)

    bootstrap = any("confidence" in result for _, result in results)
    head = ["input", *(["segment"] if sentence_level else []), *TSV_FIGURES,
            *(["mean", "ci", "p_value"] if bootstrap else []), "signature"]
    out.write("\t".join(head) + "\n")
    for path, result in results:
        for row in result["segments"] if sentence_level else [result]:
            cells = [safe(input_name(path)), *([str(row["segment"])] if sentence_level else []),
                     *(cell(row.get(key)) for key in TSV_FIGURES)]
            if bootstrap:
                found, paired = row.get("confidence") or {}, row.get("paired_bootstrap") or {}
                cells += [cell(found.get("mean")), cell(found.get("ci")), cell(paired.get("p_value"))]
            out.write("\t".join([*cells, row["signature"]]) + "\n")


def _documents(results: list[tuple[str, dict]], bad: dict[int, tuple[str, str]],
               sentence_level: bool) -> list[dict]:
    """The JSON's ``systems``: each system's document, and an ``{"input", "error"}`` record in
    the place of each that could not be scored (`bad`: its -i index and why)."""
    documents = [{"input": input_name(path), **_document(result, sentence_level)} for path, result in results]
    for k, (path, message) in sorted(bad.items()):
        documents.insert(k, {"input": input_name(path), "error": message})
    return documents


def _document(result: dict, sentence_level: bool) -> dict:
    corpus = {k: v for k, v in result.items() if k != "segments"}
    if sentence_level:
        return {"segments": result["segments"], "corpus": corpus}
    return corpus


def _report(args: argparse.Namespace, scorer: Scorer, hyps: list[str], refs: list[list[str]],
            result: dict) -> None:
    from ..metrics.paraeval import ParaEvalScore, sum_stats
    from ..metrics.paraeval.graded import GradedParaEval
    from ..viz.reports import paraeval_report

    by_segment = [[stream[i] for stream in refs] for i in range(len(hyps))]
    if isinstance(scorer, GradedParaEval):  # a graded config: each segment explained by the scorer itself
        from ..viz.reports import graded_report

        explained = scorer.explain_segments(hyps, refs)
        corpus = {k: v for k, v in result.items() if k != "segments"}
        write_report(args.report, graded_report(corpus, explained, by_segment))
        return
    matches = scorer.segment_matches(hyps, refs)
    score = ParaEvalScore(sum_stats(m.stats for m in matches), result["signature"])
    public = {k: v for k, v in score.to_dict().items() if k != "segments"}
    if "confidence" in result:  # --confidence: the bootstrap's figures, as the text and JSON show them
        public["confidence"] = result["confidence"]
    write_report(args.report, paraeval_report(public, matches, by_segment))


def _text(score: dict) -> str:
    def num(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.4f}"

    bootstrap = _bootstrap_text(score)  # beside the score it is about: the headline, or the paper's F
    head = f"ParaEval {num(score['score'])} {bootstrap}" if "score" in score else "ParaEval "
    tail = "" if "score" in score else bootstrap.rstrip()
    return (f"{head}P = {num(score['precision'])} R = {num(score['recall'])} "
            f"F = {num(score['f'])}{' ' if tail else ''}{tail}\t{score['signature']}")


def _bootstrap_text(score: dict) -> str:
    """``(μ = 0.4170 ± 0.0123, p = 0.0170*) `` after the headline score, as sacrebleu shows a
    bootstrap (the baseline of a paired test says so instead of a p-value); nothing without one;
    ``(μ = n/a, p = n/a)`` over fewer than 2 segments (a warning says why)."""
    from ..metrics import SIGNIFICANT

    if "confidence" not in score:
        return ""
    found = score["confidence"]
    figures = "μ = n/a" if found is None else f"μ = {found['mean']:.4f} ± {found['ci']:.4f}"
    paired = score.get("paired_bootstrap")
    if paired is not None and paired["is_baseline"]:
        figures += ", baseline"
    elif paired is not None and paired["p_value"] is None:
        figures += ", p = n/a"
    elif paired is not None:
        p = paired["p_value"]
        figures += f", p = {p:.4f}{'*' if p < SIGNIFICANT else ''}"
    return f"({figures}) "
