"""BLAS threads per process against worker counts: `paralign align` and `paralign similarity` on
MSRP train with --workers 1 and 2, each under several *_NUM_THREADS settings
(docs/results/batch-dask.md, "BLAS threads per worker").

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/blas_threads.py [--workers 1,2]
        [--threads default,1,2] [--repeat 3] [--limit N]

What a setting means (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and MKL_NUM_THREADS all set to it in the
command's environment, or none of them for "default"):

- with --workers 1 the pairs are parsed and aligned in the command's own process, whose BLAS
  (numpy's OpenBLAS, which spaCy's parser reaches) takes the setting; "default" is one thread per
  core;
- with --workers N > 1 they run on a local Dask cluster whose worker processes Dask starts with
  the three variables at 1 (its ``distributed.nanny.pre-spawn-environ``, which paralign.cluster
  keeps) unless the command's environment sets them, which then wins: "default" is one thread
  per worker, "2" two per worker.

The rule "max(1, cores // workers) threads a worker" is "default" for --workers 1 and "1" for
--workers 2 on a 2-core machine. Each run is the real command in a fresh process, timed end to
end (start-up, the spaCy model and PPDB in every worker, the cluster's start, the work, writing).
The settings alternate within each round so that the machine's other load falls on all of them
alike; reported are every run's wall seconds and CPU seconds (the command and every process it
waited for: its Dask workers too) and, per command, workers and setting, the least,
median and most, and whether all settings wrote the same output. `--probe` runs first and records
the BLAS threads the processes that parse really had under each setting (threadpoolctl).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.settings import data_dir  # noqa: E402

MSRP_TRAIN = "similarity/msrp/msr-para-train.tsv"
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def environment(threads: str) -> dict[str, str]:
    """The command's environment for a setting: "default" (none of THREAD_VARIABLES) or a count."""
    env = {key: value for key, value in os.environ.items() if key not in THREAD_VARIABLES}
    env["PYTHONPATH"] = str(ROOT / "src")
    env.pop("PARALIGN_SCHEDULER", None)
    if threads != "default":
        env.update(dict.fromkeys(THREAD_VARIABLES, threads))
    return env


def pairs_file(root: Path, folder: Path, limit: int | None) -> Path:
    """MSRP train's sentence pairs as `s1 TAB s2` lines (both commands read them so)."""
    rows = (root / MSRP_TRAIN).read_text(encoding="utf-8-sig").splitlines()[1:]
    pairs = [row.split("\t")[3:5] for row in rows if row.strip()][:limit]
    path = folder / "msrp-train-pairs.tsv"
    path.write_text("".join(f"{s1}\t{s2}\n" for s1, s2 in pairs), encoding="utf-8")
    return path


def run(command: str, path: Path, workers: int, threads: str, out: Path) -> dict[str, Any]:
    """One timed run of `paralign COMMAND` on `path`; its output is left in `out`."""
    argv = [sys.executable, "-m", "paralign", command]
    argv += [str(path)] if command == "align" else ["--pairs", str(path)]
    argv += ["--format", "json", "--workers", str(workers), "-o", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    status = subprocess.run(argv, env=environment(threads), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, check=False).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"command": command, "workers": workers, "threads": threads, "status": status,
            "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "load": round(os.getloadavg()[0], 1)}


def probe(workers: int) -> dict[str, Any]:
    """The BLAS threads of the process that parses: this one (one worker) or each worker of a
    local cluster of `workers`, as paralign starts it."""
    from threadpoolctl import threadpool_info

    def blas() -> list[int]:
        import numpy  # noqa: F401 - loads OpenBLAS, as spaCy does

        return sorted({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"})

    if workers == 1:
        return {"in_process": blas()}
    from paralign.cluster import ClusterOptions, connect

    with connect(ClusterOptions(workers=workers)) as client:
        return {"workers": sorted(client.run(blas).values())}


def probes(workers: list[int], settings: list[str]) -> list[dict[str, Any]]:
    found = []
    for count in workers:
        for threads in settings:
            answer = subprocess.run([sys.executable, __file__, "--probe", str(count)], env=environment(threads),
                                    capture_output=True, text=True, check=True).stdout
            found.append({"workers": count, "threads": threads, **json.loads(answer)})
    return found


def summary(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    keys = sorted({(r["command"], r["workers"], r["threads"]) for r in runs})
    for command, workers, threads in keys:
        mine = [r for r in runs if (r["command"], r["workers"], r["threads"]) == (command, workers, threads)]
        walls = [r["wall_s"] for r in mine]
        rows.append({"command": command, "workers": workers, "threads": threads, "runs": len(walls),
                     "min_s": min(walls), "median_s": round(statistics.median(walls), 2), "max_s": max(walls),
                     "median_cpu_s": round(statistics.median(r.get("cpu_s", 0.0) for r in mine), 2)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", default="align,similarity")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--threads", default="default,1,2",
                        help="settings to compare: default (no *_NUM_THREADS set) or a thread count")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each runs every setting once")
    parser.add_argument("--limit", type=int, default=None, help="the first N pairs only")
    parser.add_argument("--probe", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe is not None:
        print(json.dumps(probe(args.probe)))
        return
    root = data_dir()
    if root is None:
        sys.exit("corpora not found: set PARALIGN_DATA")
    workers = [int(n) for n in args.workers.split(",")]
    settings = args.threads.split(",")
    runs, same = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        path = pairs_file(root, Path(tmp), args.limit)
        found = probes(workers, settings)
        outputs: dict[str, set[bytes]] = {}
        for round_ in range(args.repeat):
            for command in args.commands.split(","):
                order = [(w, t) for w in workers for t in settings]
                for count, threads in order[round_ % len(order):] + order[: round_ % len(order)]:
                    out = Path(tmp) / "out.jsonl"
                    runs.append({"round": round_ + 1, **run(command, path, count, threads, out)})
                    print(json.dumps(runs[-1]), file=sys.stderr)
                    outputs.setdefault(command, set()).add(out.read_bytes())
        same = {command: len(seen) == 1 for command, seen in outputs.items()}
        pairs = sum(1 for _ in path.open(encoding="utf-8"))
    print(json.dumps({"pairs": pairs, "cpus": os.cpu_count(), "identical_output": same, "blas_threads": found,
                      "summary": summary(runs), "runs": runs}, indent=2))


if __name__ == "__main__":
    main()
