"""How much a second worker can give on this machine: the pivot table's per-partition compute
(pivot_frames: c(e), the pivot join, the sums) on the chunk files of one pivot run, first in
one process, then in two processes at once, no Dask.

    python benchmarks/two_core_probe.py WORK_DIR [--repeat 3]

WORK_DIR is a finished `paralign pivot --work-dir` (its ``c0/chunks/*.parquet``).  Each process
reads all the chunks and runs the steps once; the report gives each step's time alone and the
mean of the two concurrent copies, and the throughput ratio two copies reach
(2 × alone / together).  If two copies of the same single-threaded code, with no scheduler and
no data moving between them, cannot run at twice the rate of one, no two-worker pipeline can.
"""

from __future__ import annotations

import argparse
import glob
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.synchronize import Barrier

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def steps(files: list[str]) -> dict[str, float]:
    """Seconds per step of the table compute over `files`, in this process."""
    import pandas as pd

    from paralign import pivot_frames as pf

    times = {}
    start = time.perf_counter()
    frame = pd.concat([pf._read_file(path) for path in files], ignore_index=True)
    times["read"] = time.perf_counter() - start
    start = time.perf_counter()
    by_e = pf._counts_by_e(frame)
    times["c(e)"] = time.perf_counter() - start
    start = time.perf_counter()
    pivoted = pf._pivot_by_f(by_e, 0.001, pf.fixed_point_scale(1))
    times["pivot join"] = time.perf_counter() - start
    start = time.perf_counter()
    pf._sum_pairs(pivoted, pf.fixed_point_scale(1))
    times["sums"] = time.perf_counter() - start
    return times


def _child(files: list[str], queue: multiprocessing.Queue, barrier: Barrier) -> None:
    steps(files[:1])  # warm: imports
    barrier.wait()
    queue.put(steps(files))


def together(files: list[str], copies: int) -> list[dict[str, float]]:
    queue: multiprocessing.Queue = multiprocessing.Queue()
    barrier = multiprocessing.Barrier(copies)
    processes = [multiprocessing.Process(target=_child, args=(files, queue, barrier)) for _ in range(copies)]
    for process in processes:
        process.start()
    results = [queue.get() for _ in processes]
    for process in processes:
        process.join()
    return results


def _seconds(times: dict[str, float], step: str) -> float:
    return sum(times.values()) if step == "all" else times[step]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("work_dir")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = sorted(glob.glob(str(Path(args.work_dir) / "c0" / "chunks" / "*.parquet")))
    if not files:
        raise SystemExit(f"no chunk files under {args.work_dir}/c0/chunks")
    rows = []
    for _ in range(args.repeat):
        alone = together(files, 1)[0]
        pair = together(files, 2)
        rows.append({"alone": alone, "together": {k: statistics.mean(r[k] for r in pair) for k in alone}})
    print("| step | alone s | two at once s (each) | throughput of two vs one |")
    print("|---|---:|---:|---:|")
    for step in [*rows[0]["alone"], "all"]:
        one = statistics.median(_seconds(r["alone"], step) for r in rows)
        both = statistics.median(_seconds(r["together"], step) for r in rows)
        print(f"| {step} | {one:.2f} | {both:.2f} | {2 * one / both:.2f}x |")
    print(json.dumps(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
