"""Many library calls with workers=N: each starting its own local cluster, or all in one
`paralign.parallel` block (docs/results/batch-dask.md, "Many library calls, one cluster").

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/parallel_block.py [--calls 3] [--pairs 200] [--repeat 2]

Each run is a fresh Python process (the script itself, `--mode calls|block`) that loads spaCy
and PPDB once with a small untimed call, then times `--calls` calls of `similarity_many` over
`--pairs` pairs each of MSR RTE2 test (the gold JSONL's sentences, joined tokens), with
`workers=2`: as separate calls, or inside `with paralign.parallel(workers=2):`; and, for
scale, with `workers=1` (in this process, no cluster). The modes alternate, `--repeat` times
each; the scores of every run must be identical.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.settings import data_dir  # noqa: E402

MSR_TEST = "alignment/msr-rte2/derived/RTE2_test_M.jsonl"
MODES = ("one", "calls", "block")
NAMES = {"one": "one worker, in-process", "calls": "2 workers, separate calls", "block": "2 workers, one parallel block"}


def _pairs(limit: int) -> list[tuple[str, str]]:
    folder = data_dir()
    path = None if folder is None else folder / MSR_TEST
    if path is None or not path.exists():
        raise SystemExit(f"skipped: {MSR_TEST} not found under PARALIGN_DATA")
    pairs = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            source, target = record["source"], record["target"]
            pairs.append((" ".join(source) if isinstance(source, list) else source,
                          " ".join(target) if isinstance(target, list) else target))
    return pairs[:limit]


def _timed(mode: str, calls: int, per_call: int) -> dict:
    """One run in this process: `calls` batches of `per_call` pairs, separately or in one block."""
    import paralign

    pairs = _pairs(calls * per_call)
    batches = [pairs[k * per_call:(k + 1) * per_call] for k in range(calls)]
    paralign.similarity_many(pairs[:2])  # spaCy and PPDB load here, untimed
    start = time.perf_counter()
    if mode == "block":
        with paralign.parallel(workers=2):
            scores = [paralign.similarity_many(batch).scores for batch in batches]
    elif mode == "one":
        scores = [paralign.similarity_many(batch).scores for batch in batches]
    else:
        scores = [paralign.similarity_many(batch, workers=2).scores for batch in batches]
    return {"mode": mode, "wall_s": round(time.perf_counter() - start, 2), "scores": scores}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)  # one run, in a child
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=200, help="pairs per call")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    if args.mode:
        print(json.dumps(_timed(args.mode, args.calls, args.pairs)))
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("PARALIGN_SCHEDULER", None)
    runs = []
    for _ in range(args.repeat):
        for mode in MODES:
            out = subprocess.run([sys.executable, __file__, "--mode", mode, "--calls", str(args.calls),
                                  "--pairs", str(args.pairs)], env=env, capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    identical = all(run["scores"] == runs[0]["scores"] for run in runs)
    print(f"{args.calls} calls of {args.pairs} pairs; identical scores: {str(identical).lower()}")
    print("| mode | wall s |\n|---|---:|")
    for run in runs:
        print(f"| {NAMES[run['mode']]} | {run['wall_s']:.2f} |")
    if not identical:
        raise SystemExit("the scores differ between runs")


if __name__ == "__main__":
    main()
