"""Batch `paralign align` on Dask: 1 worker (in-process) vs N local workers, MSR RTE2 test
(docs/results/batch-dask.md).

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/batch_align_dask.py [--workers 1,2] [--limit N]

With --old-src DIR the same runs are made on another checkout's src (the multiprocessing engine
before Dask), in the same run. Each run is the real command (`python -m paralign align FILE --format json --workers N`) in a
fresh process, so the times are end to end: start-up, the spaCy model and PPDB loading (in every
worker), the local cluster's start, aligning and writing. Reported per worker count: wall
seconds, pairs/s, and the seconds until the first output line arrives on the pipe (streaming:
output starts before the input is all aligned). The outputs must be identical.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.settings import data_dir  # noqa: E402

MSR_TEST = "alignment/msr-rte2/derived/RTE2_test_M.jsonl"


def run(path: Path, workers: int, chunk_size: int, src: Path = ROOT / "src") -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("PARALIGN_SCHEDULER", None)
    command = [sys.executable, "-m", "paralign", "align", str(path), "--format", "json",
               "--workers", str(workers)]
    if src == ROOT / "src":
        command += ["--chunk-size", str(chunk_size)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    assert process.stdout is not None
    first = None
    lines = []
    for line in process.stdout:
        if first is None:
            first = time.perf_counter() - start
        lines.append(line)
    status = process.wait()
    wall = time.perf_counter() - start
    return {"engine": "dask" if src == ROOT / "src" else f"old ({src})", "workers": workers, "status": status, "pairs": len(lines), "wall_s": round(wall, 2),
            "pairs_per_s": round(len(lines) / wall, 2), "first_line_s": round(first or wall, 2),
            "output": lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--chunk-size", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=1,
                        help="the file this many times over (a longer batch, so start-up weighs less)")
    parser.add_argument("--old-src", type=Path, default=None,
                        help="also run each worker count on this checkout's src (e.g. main's, the "
                        "multiprocessing engine), in the same run")
    args = parser.parse_args()
    root = data_dir()
    if root is None:
        sys.exit("corpora not found: set PARALIGN_DATA")
    records = (root / MSR_TEST).read_text(encoding="utf-8").splitlines()[: args.limit] * args.repeat
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rte2-test.jsonl"
        path.write_text("\n".join(records) + "\n", encoding="utf-8")
        results = [run(path, int(n), args.chunk_size) for n in args.workers.split(",")]
        if args.old_src is not None:
            results += [run(path, int(n), args.chunk_size, args.old_src) for n in args.workers.split(",")]
    same = all(r["output"] == results[0]["output"] for r in results)
    base = results[0]["wall_s"]
    for r in results:
        r.pop("output")
        r["speedup_vs_first"] = round(base / r["wall_s"], 2)
    print(json.dumps({"pairs": len(records), "repeat": args.repeat, "chunk_size": args.chunk_size, "cpus": os.cpu_count(),
                      "identical_output": same, "runs": results}, indent=2))


if __name__ == "__main__":
    main()
