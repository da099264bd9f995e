"""Speed and memory of the Sultan et al. (2014) aligner on MSR RTE2 test (docs/results/aligner.md).

    .venv/bin/python benchmarks/aligner_speed.py [--limit N] [--workers 1,2]

For each worker count: annotation time (spaCy, ``nlp.pipe``), alignment time, end-to-end pairs/s
(``Aligner.align_many``), and the alignment/annotation time ratio (target < 0.5). Also the time of a
1,000-token pair and the peak resident memory of this process and its children.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.aligners.evaluation import annotate_gold, load_gold  # noqa: E402
from paralign.aligners.sultan import Aligner  # noqa: E402
from paralign.settings import data_dir  # noqa: E402

MSR_TEST = "alignment/msr-rte2/derived/RTE2_test_M.jsonl"


def peak_mb() -> tuple[float, float]:
    """Peak RSS (MB) of this process and of its largest finished child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def long_pair_seconds(aligner: Aligner, n: int = 1000) -> float:
    """Annotate and align two n-token texts made of shuffled MSR-like words; alignment time only."""
    rng = random.Random(13)
    vocab = [
        "the", "a", "of", "in", "to", "and", "said", "government", "people", "year", "new",
        "police", "city", "officials", "report", "killed", "attack", "president", "country",
        ",", ".", "would", "has", "been", "was", "were", "is", "are", "on", "for", "with",
        "by", "company", "market", "percent", "million", "bank", "state", "minister",
        "election", "war", "military",
    ]
    texts = [[rng.choice(vocab) for _ in range(n)] for _ in range(2)]
    s, t = aligner.annotate(texts)
    start = time.perf_counter()
    aligner.align_sentences(s, t)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    root = data_dir()
    if root is None:
        print("corpora not found: set PARALIGN_DATA", file=sys.stderr)
        return 2
    gold = load_gold(root / MSR_TEST, args.limit)
    pairs = [(list(p.source), list(p.target)) for p in gold]
    aligner = Aligner()
    aligner.related  # noqa: B018 - PPDB loaded outside the timings
    aligner.annotate(["Warm up the parser."])
    rows = []
    for workers in [int(w) for w in args.workers.split(",")]:
        start = time.perf_counter()
        annotated = annotate_gold(aligner, gold, workers=workers)
        annotate_s = time.perf_counter() - start
        start = time.perf_counter()
        aligner.align_annotated(annotated, workers=workers)
        align_s = time.perf_counter() - start
        start = time.perf_counter()
        aligner.align_many(pairs, workers=workers)
        end_to_end = time.perf_counter() - start
        rows.append((workers, annotate_s, align_s, end_to_end))
    long_s = long_pair_seconds(aligner)
    own, children = peak_mb()
    n = len(gold)
    print(f"MSR RTE2 test, {n} pairs ({sum(len(p.source) + len(p.target) for p in gold)} tokens)\n")
    print("| workers | annotate s | align s | align ms/pair | align/annotate | end-to-end pairs/s |")
    print("|---|---|---|---|---|---|")
    for workers, annotate_s, align_s, end_to_end in rows:
        print(f"| {workers} | {annotate_s:.1f} | {align_s:.2f} | {1000 * align_s / n:.2f} | "
              f"{align_s / annotate_s:.2f} | {n / end_to_end:.1f} |")
    print(f"\n1,000-token pair: alignment {long_s:.2f} s")
    print(f"peak RSS: {own:.0f} MB (this process), {children:.0f} MB (largest worker)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
