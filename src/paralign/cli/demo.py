"""`paralign demo`: align the example pairs in examples/demo/ and score them against their gold."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..aligners.evaluation import annotate_gold, load_gold
from ..aligners.sultan import Aligner
from ..errors import ResourceMissingError
from ..metrics.alignment_scores import render_scores, score_alignments
from ._common import add_format, add_output, emit, open_out

#: examples/demo/ of a source checkout (src/paralign/cli/demo.py -> repo root).
DEMO_DIR = Path(__file__).resolve().parents[3] / "examples" / "demo"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="align the example pairs and score them (what `make demo` runs)",
        description="Align the hand-written pairs of examples/demo/gold.jsonl with the Sultan et "
        "al. (2014) aligner, show the aligned words of each pair, and score them against the "
        "hand-made gold (sure links).",
    )
    parser.add_argument("--examples", default=str(DEMO_DIR), help="folder holding gold.jsonl")
    add_format(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def run_demo(examples: str | Path) -> dict:
    """Align and score the demo pairs; returns pairs with aligned words and the scores."""
    gold_path = Path(examples) / "gold.jsonl"
    if not gold_path.is_file():
        raise ResourceMissingError(f"{gold_path}: demo gold not found (run from a source checkout "
                                   "or pass --examples DIR)")
    gold = load_gold(gold_path)
    aligner = Aligner()
    annotated = annotate_gold(aligner, gold)
    system = aligner.align_annotated(annotated)
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
    scores = score_alignments([p.alignment for p in gold], system, "sure").to_dict()
    return {"pairs": pairs, "scores": scores}


def _render(result: dict) -> str:
    lines = []
    for pair in result["pairs"]:
        lines.append(f"[{pair['id']}]")
        lines.append(f"  S: {pair['source']}")
        lines.append(f"  T: {pair['target']}")
        words = "  ".join(f"{a}={b}" + ("" if ok else "(x)") for a, b, ok in pair["aligned"])
        lines.append(f"  aligned: {words}")
        if pair["missed"]:
            lines.append("  missed:  " + "  ".join(f"{a}={b}" for a, b in pair["missed"]))
    lines.append("")
    lines.append("(x) = not in the gold. Scores against the hand-made gold (sure links):")
    lines.append(render_scores(result["scores"]))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    result = run_demo(args.examples)
    with open_out(args.output) as out:
        emit(result, args.format, _render, out)
    return 0
