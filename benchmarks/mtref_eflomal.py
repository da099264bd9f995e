"""Sanity check of monolingual eflomal: train on MTReference dev+test pairs, score on test.

    .venv/bin/python benchmarks/mtref_eflomal.py [--iterations N] [--runs R] [--format text|json]

The 3,998 sentence pairs (tokenised, lower-cased) are aligned by eflomal in one corpus (dev then
test, both as source->target), each symmetrisation is applied to the same directional links,
and the test part is scored against the sure gold with `paralign.metrics.alignment_scores`
(the library behind `paralign score-alignments`).  The Pharaoh files are kept in
build/mtref/ so `paralign score-alignments --gold .../mt-reference.test.json --system FILE`
reproduces each row.  eflomal is stochastic, so `--runs` repeats it and reports mean and range.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.aligners.eflomal import (  # noqa: E402
    SYMMETRIZATIONS,
    iter_symmetrized,
    links_to_pharaoh,
    run_eflomal,
)
from paralign.alignment import Alignment  # noqa: E402
from paralign.corpora import load_pairs  # noqa: E402
from paralign.metrics.alignment_scores import ScoresDict, score_alignments  # noqa: E402
from paralign.settings import data_dir  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    data = data_dir()
    if data is None:
        raise SystemExit("corpora not found: set PARALIGN_DATA")
    folder = data / "alignment" / "mtreference"
    dev = load_pairs(folder / "mt-reference.dev.json")
    test = load_pairs(folder / "mt-reference.test.json")
    gold = [pair.alignment for pair in test]
    out_dir = ROOT / "build" / "mtref"
    out_dir.mkdir(parents=True, exist_ok=True)
    pairs = dev + test
    scores: dict[str, list[ScoresDict]] = {m: [] for m in SYMMETRIZATIONS}
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            fwd, rev = Path(tmp) / "fwd", Path(tmp) / "rev"
            run_eflomal((" ".join(p.source) for p in pairs), (" ".join(p.target) for p in pairs),
                        fwd, rev, n_iterations=args.iterations)
            for method in SYMMETRIZATIONS:
                links = list(iter_symmetrized(fwd, rev, method))[len(dev):]
                system = [Alignment(sure=x) for x in links]
                result = score_alignments(gold, system, "sure").to_dict()
                scores[method].append(result)
                if run == 0:
                    path = out_dir / f"test.eflomal.{method}.pharaoh"
                    path.write_text("".join(links_to_pharaoh(x) + "\n" for x in links), encoding="utf-8")
    summary = {}
    for method, results in scores.items():
        row: dict[str, Any] = {}  # (mean, min, max) of macro P, R and F1; mean AER and exact
        for key in ("precision", "recall", "f1"):
            values = [100 * r["macro"][key] for r in results]
            row[key] = (round(statistics.mean(values), 1), round(min(values), 1), round(max(values), 1))
        row["aer"] = round(100 * statistics.mean(r["aer"] for r in results), 1)
        row["exact"] = round(100 * statistics.mean(r["exact"] for r in results), 1)
        summary[method] = row
    if args.format == "json":
        print(json.dumps(summary, indent=2))
        return
    print(f"| symmetrisation | P | R | F1 | AER | exact | ({args.runs} runs: mean [min-max] of macro P/R/F1)")
    print("|---|---:|---:|---:|---:|---:|")
    for method, row in summary.items():
        cells = [f"{m} [{lo}-{hi}]" for m, lo, hi in (row["precision"], row["recall"], row["f1"])]
        print(f"| {method} | {' | '.join(cells)} | {row['aer']} | {row['exact']} |")


if __name__ == "__main__":
    main()
