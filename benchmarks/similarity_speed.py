"""Throughput of `paralign similarity` on the STS Benchmark dev set (1,500 pairs).

Runs the real command end to end (model loading, spaCy annotation, alignment, output) in a
subprocess and reports pairs per wall-clock second and per CPU second (the machine is shared, so
CPU time is the steadier figure), for each --workers value and aligner asked for.

    .venv/bin/python benchmarks/similarity_speed.py [--workers 1,2] [--aligners sultan,exact] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paralign.corpora.sts import load_sts
from paralign.settings import data_dir


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(pairs_file: Path, n: int, aligner: str, workers: int) -> dict:
    exe = Path(sys.executable).with_name("paralign")
    cmd = [str(exe), "similarity", "--pairs", str(pairs_file), "--aligner", aligner, "--workers", str(workers)]
    cpu0, t0 = child_cpu(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall, cpu = time.perf_counter() - t0, child_cpu() - cpu0
    scores = done.stdout.split()
    if len(scores) != n:
        raise SystemExit(f"expected {n} scores, got {len(scores)}")
    return {
        "aligner": aligner,
        "workers": workers,
        "pairs": n,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "pairs_per_s": round(n / wall, 1),
        "pairs_per_cpu_s": round(n / cpu, 1),
        "command": " ".join(["paralign"] + cmd[1:]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--aligners", default="sultan,exact")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    root = data_dir()
    if root is None:
        print("corpora not found: set PARALIGN_DATA", file=sys.stderr)
        return 2
    data = load_sts(root / "similarity" / "stsbenchmark" / "sts-dev.csv")
    pairs = data.pairs[: args.limit] if args.limit else data.pairs
    with tempfile.TemporaryDirectory() as tmp:
        pairs_file = Path(tmp) / "sts-dev-pairs.tsv"
        pairs_file.write_text("".join(f"{p.sentence1}\t{p.sentence2}\n" for p in pairs), encoding="utf-8")
        rows = [
            run_once(pairs_file, len(pairs), aligner, int(w))
            for aligner in args.aligners.split(",")
            for w in args.workers.split(",")
        ]
    if args.format == "json":
        print(json.dumps(rows, indent=1))
        return 0
    print(f"STS Benchmark dev, {len(pairs)} pairs, {os.cpu_count()} cores (shared machine)\n")
    print("| aligner | workers | wall s | CPU s | pairs/s | pairs/CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['aligner']} | {r['workers']} | {r['wall_s']} | {r['cpu_s']} | {r['pairs_per_s']} | {r['pairs_per_cpu_s']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
