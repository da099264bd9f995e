"""`paralign paraeval`: ParaEval precision/recall/F of a hypothesis file against references."""

from __future__ import annotations

import argparse

from ..errors import EmptyScoringError, MismatchError
from ..metrics.paraeval import ParaEval, ParaEvalScore, sum_stats
from ._common import (
    add_format,
    add_output,
    add_report,
    check_stdin_once,
    emit,
    input_name,
    open_in,
    open_out,
    positive_int,
    write_report,
)
from ._options import add_scheduler_option, cluster_runner, paraphrase_sources, table_path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "paraeval", help="ParaEval (Zhou et al. 2006): paraphrase-aware MT precision/recall/F",
        description="Two-tier matching (paraphrases, then unigrams) of a hypothesis against one "
                    "or more references; 13a tokens, lower-cased by default.")
    parser.add_argument("-r", "--reference", action="append", required=True, metavar="REF",
                        help="reference file, one segment a line (repeat for more references)")
    parser.add_argument("-i", "--input", default="-", metavar="HYP",
                        help="hypothesis file (default: stdin)")
    parser.add_argument("--table", action="append", default=[], metavar="TABLE",
                        help="paraphrase table TSV (gzip ok), `path[:threshold]`; repeatable")
    parser.add_argument("--resources", default="ppdb,wordnet",
                        help="built-in sources: ppdb, wordnet or none (default: %(default)s)")
    parser.add_argument("--max-length", type=int, default=4, help="longest paraphrase (words)")
    parser.add_argument("--min-paraphrase-length", type=int, default=1,
                        help="match only paraphrases of >= N words (the paper's 3 variant)")
    parser.add_argument("--no-lowercase", action="store_true", help="case-sensitive unigrams")
    parser.add_argument("--tokenize", choices=("13a", "none"), default="13a")
    parser.add_argument("--keep-stopword-phrases", action="store_true",
                        help="also paraphrase-match phrases made only of stop words")
    parser.add_argument("--sentence-level", action="store_true",
                        help="one line per segment (with --format json: one JSON document, "
                        '{"segments": [...], "corpus": {...}})')
    parser.add_argument("--workers", type=positive_int, default=1,
                        help="Dask worker processes matching segments (default: %(default)s: in this process)")
    add_scheduler_option(parser)
    add_format(parser)
    add_output(parser)
    add_report(parser, "the corpus scores, then each hypothesis with its words highlighted by "
               "tier: paraphrase, exact, synonym, unmatched")
    parser.set_defaults(func=run)


def read_segments(path: str) -> list[str]:
    """All lines of a file (or stdin for '-'), without their line ends."""
    with open_in(path) as handle:
        return [line.rstrip("\n").rstrip("\r") for line in handle]


def run(args: argparse.Namespace) -> int:
    check_stdin_once({"input": [args.input], "reference": args.reference,  # -i is stdin by default
                      "table": [table_path(spec)[0] for spec in args.table]})
    hyps = read_segments(args.input)
    if not hyps:  # an evaluator with nothing to score fails (docs/CLI.md, empty input)
        raise EmptyScoringError(f"{input_name(args.input)}: no hypothesis lines: nothing to score")
    refs = [read_segments(path) for path in args.reference]
    for path, stream in zip(args.reference, refs, strict=True):
        if len(stream) != len(hyps):
            raise MismatchError(f"{path} has {len(stream)} lines but the hypothesis "
                                f"{args.input if args.input != '-' else '(stdin)'} has {len(hyps)}")
    scorer = ParaEval(
        paraphrase_sources(args.resources, args.table), max_length=args.max_length,
        min_paraphrase_length=args.min_paraphrase_length, lowercase=not args.no_lowercase,
        tokenize=args.tokenize, skip_stopword_phrases=not args.keep_stopword_phrases)
    with cluster_runner(args):
        _write(args, scorer, hyps, refs)
    if args.report is not None:
        from ..viz.reports import paraeval_report

        by_segment = [[stream[i] for stream in refs] for i in range(len(hyps))]
        matches = scorer.segment_matches(hyps, refs)  # the references indexed by _write, reused
        corpus = ParaEvalScore(sum_stats(m.stats for m in matches), scorer.signature(len(refs)))
        write_report(args.report, paraeval_report(_public(corpus), matches, by_segment))
    return 0


def _write(args: argparse.Namespace, scorer: ParaEval, hyps: list[str], refs: list[list[str]]) -> None:
    """The scores to -o, in --format (per segment with --sentence-level)."""
    with open_out(args.output) as out:
        if args.sentence_level:
            signature = scorer.signature(len(refs))
            stats = scorer.segment_stats(hyps, refs, workers=args.workers)
            if args.format == "json":  # one document: the segments and their corpus score
                segments = [{"segment": number, **_public(ParaEvalScore(item, signature))}
                            for number, item in enumerate(stats, start=1)]
                corpus = _public(ParaEvalScore(sum_stats(stats), signature))
                emit({"segments": segments, "corpus": corpus}, "json", str, out)
                return
            for number, item in enumerate(stats, start=1):
                out.write(f"{number}\t{_text(ParaEvalScore(item, signature))}\n")
            return
        score = scorer.corpus_score(hyps, refs, workers=args.workers)
        emit(_public(score), args.format, lambda r: _text(score), out)


def _public(score: ParaEvalScore) -> dict[str, object]:
    d = score.to_dict()
    return {k: d[k] for k in ("precision", "recall", "f", "signature")} | {"counts": d["counts"]}


def _text(score: ParaEvalScore) -> str:
    def num(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.4f}"

    return (f"ParaEval P = {num(score.precision)} R = {num(score.recall)} F = {num(score.f)}"
            f"\t{score.signature}")
