"""Speed of phrase-pair extraction and ParaMetric scoring (issue 4 targets).

* consistent phrase pairs of a 100x100-token pair with a dense alignment: well under 1 s
  (several alignment densities; max_length 5 as in ParaMetric, and max_length 100 with a
  monotone diagonal alignment, the worst case for the number of pairs);
* AlignPrec/AlignRecall of a baseline on the whole MTReference test set, and LB-Precision /
  Rel-Recall of the PPDB lexical table on its groups: under 1 minute each (loading excluded,
  reported separately).

Usage: .venv/bin/python benchmarks/parametric_speed.py [--json]
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.phrases import phrase_pairs  # noqa: E402
from paralign.settings import data_dir  # noqa: E402

T = TypeVar("T")


def timed(function: Callable[[], T], repeat: int = 3) -> tuple[float, T]:
    """Best wall time of `repeat` (>= 1) runs (the machine is shared) and the last result."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def dense_pairs() -> list[dict]:
    n = 100
    tokens = [f"w{k}" for k in range(n)]
    other = [f"v{k}" for k in range(n)]
    rng = random.Random(0)
    cases = {
        "diagonal band, j in i-1..i+1 (298 links)": {(i, j) for i in range(n) for j in range(n) if abs(i - j) <= 1},
        "2x2 blocks (200 links)": {(i, j) for i in range(n) for j in range(n) if i // 2 == j // 2},
        "random 30% (~3000 links)": {(i, j) for i in range(n) for j in range(n) if rng.random() < 0.3},
        "all 10,000 links": {(i, j) for i in range(n) for j in range(n)},
        "sparse: every 3rd word on the diagonal": {(i, i) for i in range(0, n, 3)},
    }
    rows = []
    for name, links in cases.items():
        seconds, pairs = timed(functools.partial(phrase_pairs, links, tokens, other, 5))
        rows.append({"case": name, "max_length": 5, "seconds": seconds, "pairs": len(pairs)})
    diagonal = {(i, i) for i in range(n)}
    seconds, pairs = timed(lambda: phrase_pairs(diagonal, tokens, other, 100), repeat=1)
    rows.append({"case": "diagonal, every span (max_length 100)", "max_length": 100,
                 "seconds": seconds, "pairs": len(pairs)})
    return rows


def corpus_timings() -> list[dict]:
    root = data_dir()
    if root is None:
        return [{"case": "MTReference", "skipped": "corpora not found"}]
    from paralign.corpora import load_groups, load_pairs
    from paralign.metrics.parametric import align_scores, table_scores
    from paralign.paraphrases import ppdb_table

    mtref = root / "alignment" / "mtreference"
    start = time.perf_counter()
    gold = load_pairs(mtref / "mt-reference.test.json")
    system = load_pairs(mtref / "baselines" / "mt-reference.test.giza.json")
    groups = load_groups(mtref / "mt-reference.test.json")
    table = ppdb_table()
    loading = time.perf_counter() - start
    align_s, _ = timed(lambda: align_scores(gold, system), repeat=1)
    table_s, _ = timed(lambda: table_scores(groups, table), repeat=1)
    return [
        {"case": "loading gold + GIZA + groups + PPDB table", "seconds": loading},
        {"case": f"AlignPrec/AlignRecall, GIZA++ on MTReference test ({len(gold)} pairs)",
         "seconds": align_s},
        {"case": f"LB-Precision/Rel-Recall, PPDB on MTReference test ({len(groups)} groups)",
         "seconds": table_s},
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    rows = dense_pairs() + corpus_timings()
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("| case | seconds | phrase pairs |")
    print("|---|---:|---:|")
    for row in rows:
        seconds = f"{row['seconds']:.3f}" if "seconds" in row else row.get("skipped", "")
        print(f"| {row['case']} | {seconds} | {row.get('pairs', '')} |")


if __name__ == "__main__":
    main()
