"""`paralign demo`: align the example pairs in examples/demo/ and score them against their gold."""

from __future__ import annotations

import argparse
import errno
from contextlib import ExitStack
from pathlib import Path

from ..aligners.evaluation import PairResult, annotate_gold, gold_parts, pair_results
from ..aligners.signature import alignment_signature
from ..aligners.sultan import Aligner
from ..alignment import Alignment
from ..corpora import read_pairs
from ..corpora.base import with_sentences
from ..errors import OPEN_REASONS, FormatError, InputFileError
from ..metrics.alignment_scores import score_alignments, usable_pairs
from ._commands import add_command
from ._common import (
    add_format,
    add_output,
    add_report,
    shown_names,
    stdin_once,
    warn_skipped_pairs,
    write_report,
    write_result,
)
from ._metavars import PATH
from ._render import render_scores
from ._stderr import say

#: The demo pairs shipped in the package (paralign/data/demo/; a copy of examples/demo/), so the
#: demo runs from an installed wheel as from a source checkout.
DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "demo",
        description="Align the hand-written demo pairs (gold.jsonl, shipped inside paralign as "
        "paralign/data/demo/, a copy of a checkout's examples/demo/) with the Sultan et al. (2014) "
        "aligner, show the aligned words of each pair, and score them against the hand-made gold "
        "(sure links).",
    )
    parser.add_argument("--examples", default=str(DEMO_DIR), metavar=PATH,
                        help="folder holding gold.jsonl, or a gold JSONL file itself ('-': stdin) (default: "
                        "the copy inside paralign, paralign/data/demo/)")
    add_format(parser)
    add_output(parser)
    add_report(parser, "the scores and every pair's grid against the gold, worst first; its "
               "path is printed on stderr")
    parser.set_defaults(func=run)


def _demo(gold_path: Path) -> tuple[dict, list[PairResult], str]:
    """Align and score the demo pairs of `gold_path` (:func:`gold_file`): the pairs with aligned
    words and the scores, each pair's result and the aligner's signature (for the report).

    A bad gold line is left out and listed in the scores' "skipped_rows"; FormatError when
    the gold has no pairs, EmptyScoringError when none of them can be read.
    """
    items = [with_sentences(item, "the demo aligns both sentences", str(gold_path))
             for item in read_pairs(gold_path, "jsonl")]
    if not items:
        raise FormatError("no pairs in the demo gold", source=str(gold_path))
    gold, positions, skipped = usable_pairs(items)
    system: list[Alignment] = []
    aligner = Aligner()
    if gold:
        system = aligner.align_annotated(annotate_gold(aligner, gold))
    pairs = []
    for pair, alignment in zip(gold, system, strict=True):
        links = sorted(alignment.sure)
        missed = sorted(pair.alignment.sure - alignment.sure)
        pairs.append({
            "id": pair.id, "source": " ".join(pair.source), "target": " ".join(pair.target),
            "alignment": alignment.to_pharaoh(),
            "aligned": [[pair.source[i], pair.target[j], (i, j) in pair.alignment.sure]
                        for i, j in links],
            "missed": [[pair.source[i], pair.target[j]] for i, j in missed],
        })
    scores = score_alignments([p.alignment for p in gold], system, "sure", source=str(gold_path),
                              positions=positions, skipped=skipped)
    # the aligner's, as evaluate-aligner signs the same scores (the scores' own named the gold only)
    signature = alignment_signature(aligner, given_tokens=True, **gold_parts(gold_path, "sure", None))
    result = {"pairs": pairs, "scores": {**scores.to_dict(), "signature": signature}}
    return result, list(pair_results(gold, system, scores)), signature


def gold_file(examples: str | Path) -> Path:
    """The demo gold --examples names: the file itself, or gold.jsonl in the folder. InputFileError
    (a usage error, exit 2) naming what is wrong: nothing at `examples`, or no gold.jsonl in the
    folder. A gold.jsonl that is there but cannot be opened (a directory, no permission) is left
    to the reader, which says so (``is a directory, not a file``), as for every input: it was
    "demo gold not found", a folder there taken for no file. A folder without gold.jsonl says it in
    the readers' words (``FOLDER/gold.jsonl: no such file``, :data:`paralign.errors.OPEN_REASONS`),
    not "demo gold not found"."""
    given = Path(examples)
    if not given.exists():
        raise InputFileError("no such file or folder (--examples: a folder holding gold.jsonl, or a gold "
                             "JSONL file)", source=str(given), errno=errno.ENOENT)
    if not given.is_dir():
        return given
    gold = given / "gold.jsonl"
    if not gold.exists():
        raise InputFileError(f"{OPEN_REASONS[errno.ENOENT]} (--examples: a folder holding gold.jsonl, or a gold "
                             "JSONL file)", source=str(gold), errno=errno.ENOENT)
    return gold


def _render(result: dict) -> str:
    """The demo as text: each pair's id, sentences and aligned (and missed) word pairs, then the
    scores. Ids and words are written as `align --format pretty` shows a token
    (:func:`~paralign.viz.terminal.safe`): a gold's ESC or RLO drove the terminal or reordered
    the rest of the line, a tab or line break split it; JSON has the exact text."""
    from ..viz.terminal import safe

    lines = []
    for pair in result["pairs"]:
        lines.append(f"[{safe(str(pair['id']))}]")
        lines.append(f"  S: {safe(pair['source'])}")
        lines.append(f"  T: {safe(pair['target'])}")
        words = "  ".join(f"{safe(a)}={safe(b)}" + ("" if ok else "(x)") for a, b, ok in pair["aligned"])
        lines.append(f"  aligned: {words}")
        if pair["missed"]:
            lines.append("  missed:  " + "  ".join(f"{safe(a)}={safe(b)}" for a, b in pair["missed"]))
    lines.append("")
    lines.append("(x) = not a gold sure link (some are gold possible links). Scores against the hand-made gold (sure links):")
    lines.append(render_scores(result["scores"]))
    lines.append(f"signature: {result['scores']['signature']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    with ExitStack() as stack:  # '-' (stdin) or a pipe read once, into a copy named as given
        paths, names = stdin_once(stack, examples=[args.examples])
        gold = gold_file(paths["examples"][0])  # once: the scores and the report name the same file
        result, pairs, signature = _demo(gold)
    result, shown_gold, signature = shown_names([result, str(gold), signature], names)
    write_result(args, result, _render)
    warn_skipped_pairs(result["scores"]["skipped_rows"])
    if args.report is not None:
        from ..viz.reports import alignment_report

        data = {**result["scores"], "gold": shown_gold, "signature": signature}
        write_report(args.report, alignment_report(data, pairs, title="paralign demo: alignments against gold"))
        say(f"HTML report of the alignments: {Path(args.report).resolve()}")
    return 0
