"""`paralign similarity`: one alignment-based similarity score per sentence pair (TSV `s1 TAB s2`)."""

from __future__ import annotations

import argparse
import json
import math
from contextlib import ExitStack
from itertools import islice

from .._moved import moved_names
from ..aligners.registry import ALIGNER_NAMES, aligner_label, get_aligner
from ..corpora.sentence_pairs import read_sentence_pairs
from ..errors import FormatError, invalid_json
from ..similarity import DEFAULT_SIGNAL, Signal, fit_on_files, make_signal, similarity_many
from ..similarity.hybrid import HybridModel, HybridSignal, aligner_mismatch
from ..similarity.model import TrainedClassifier
from ..similarity.signature import similarity_signature
from ..textio import open_text, strip_bom
from ._common import (
    add_encoding_errors,
    add_format,
    add_output,
    batch_status,
    check_stdin_once,
    emit,
    input_name,
    open_in,
    open_out,
    progress_callback,
    stdin_once,
    undecodable_lines,
    warn,
    warn_each,
)
from ._options import add_similarity_options, cluster_runner, similarity_aligner

BLOCK = 512  #: pairs read and scored at a time (streaming)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "similarity",
        help="alignment-based similarity of sentence pairs (one score per input pair)",
        description="Read TAB-separated sentence pairs (s1 TAB s2, one pair a line) and print one "
        "similarity score per pair, in [0, 1], except with a hybrid blend (--signal hybrid, or its --model), whose scores "
        "are mostly in [0, 1] but not clipped (clipping would change its correlations). "
        "Scores are in input order; bad rows print NA and are reported. "
        "With --model, classify the pairs with a paraphrase classifier trained by evaluate-paraphrase: "
        "each line is the score and 1 (paraphrase) or 0.",
    )
    parser.add_argument("--pairs", default="-", help="TSV of sentence pairs (default: stdin)")
    parser.add_argument(
        "--model",
        metavar="REPORT",
        help="JSON report of `evaluate-paraphrase --format json` (its classifier, threshold and aligner "
        "replace --signal, --aligner and --preset) or of `evaluate-sts --signal hybrid --train F --format json` "
        "(its fitted blend and aligner; scores only)",
    )
    add_similarity_options(parser)
    add_encoding_errors(parser)
    add_output(parser)
    add_format(parser)
    parser.set_defaults(func=run)


def _trained(path: str) -> TrainedClassifier:
    """The classifier saved in an evaluate-paraphrase JSON report, or the hybrid signal saved in
    an evaluate-sts report (no threshold: NaN, so no pair is labelled)."""
    try:  # open_text: errors name the file (and line), as every input's do; gzip and a BOM read
        with open_text(path) as handle:
            report = json.loads(strip_bom(handle.read()))
    except json.JSONDecodeError as exc:
        raise FormatError(invalid_json(exc), source=path, line=exc.lineno) from exc
    if not isinstance(report, dict):
        raise FormatError("not an evaluate-paraphrase report", source=path)
    if report.get("signal") == "hybrid":
        name, _, preset = str(report.get("aligner") or "sultan:default").partition(":")
        if name not in ALIGNER_NAMES:
            raise FormatError(f"aligner {report.get('aligner')!r} cannot be rebuilt", source=path)
        model = HybridModel.from_dict(report.get("model"), path)
        return TrainedClassifier(HybridSignal(model), math.nan, name, preset or "default")
    return TrainedClassifier.from_report(report, path)


def run(args: argparse.Namespace) -> int:
    trained = _trained(args.model) if args.model else None
    if trained is not None:
        signal: Signal = trained.signal  # type: ignore[assignment]
        aligner = get_aligner(trained.aligner, trained.preset)
    else:
        signal = make_signal(args.signal or DEFAULT_SIGNAL)
        if args.idf_from or getattr(signal, "trainable", False):
            check_stdin_once({"pairs": [args.pairs], "idf_from": args.idf_from})  # --pairs: stdin by default
            with ExitStack() as stack:  # '-' or a pipe, read once
                paths, _ = stdin_once(stack, idf_from=args.idf_from)
                signal = fit_on_files(signal, paths["idf_from"])
        aligner = similarity_aligner(args)
        mismatch = aligner_mismatch(signal, aligner)
        if mismatch:
            warn(mismatch)
    classify = trained is not None and not math.isnan(trained.threshold)  # a paraphrase model
    scores: list[float | None] = []
    problems: list[dict] = []
    update, close = progress_callback(None, "similarity")
    with open_in(args.pairs, args.encoding_errors) as handle, open_out(args.output) as out, cluster_runner(args):
        rows = read_sentence_pairs(handle)
        undecodable = undecodable_lines(handle)
        while block := list(islice(rows, BLOCK)):
            good = [(n, r) for n, r in block if not isinstance(r, str)]
            batch = similarity_many(
                [r for _, r in good], args.workers, signal=signal, aligner=aligner, progress=update
            )
            by_line: dict[int, float | None] = {n: s for (n, _), s in zip(good, batch.scores, strict=True)}
            for failure in batch.failures:
                problems.append({"line": good[failure.index][0], "reason": failure.error})
            for number, row in block:
                if isinstance(row, str):
                    problems.append({"line": number, "reason": undecodable.get(number, row)})
                score = by_line.get(number)
                scores.append(score)
                if args.format == "text":
                    label = "" if not classify or score is None else f"\t{int(score > trained.threshold)}"
                    out.write("NA\n" if score is None else f"{score:.6f}{label}\n")
        close()
        problems.sort(key=lambda p: p["line"])
        if args.format == "json":
            result = {"signal": signal.name, "signature": similarity_signature(signal, aligner, model_file=args.model),
                      "pairs": len(scores), "scores": scores, "skipped": len(problems), "skipped_rows": problems}
            if trained is not None:
                result["aligner"] = aligner_label(aligner)
            if classify:
                result["threshold"] = trained.threshold
                result["paraphrase"] = [None if s is None else s > trained.threshold for s in scores]
            emit(result, "json", str, out)
    source = input_name(args.pairs)
    warn_each([f"{source}:{p['line']}: {p['reason']}" for p in problems], "bad rows")
    if not scores:
        warn(f"{source}: no sentence pairs")
    return batch_status(args, sum(s is None for s in scores), len(scores), source)


# Helpers shared with other commands moved; the old names work until 0.3, with a warning.
__getattr__ = moved_names(__name__, {"aligner_preset": "paralign.cli._options"})
