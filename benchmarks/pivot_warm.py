"""What a second worker gives a pivot run when nothing has to start: issue 20's 2-vs-1 clause
with the fixed costs taken out.

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/pivot_warm.py \
        --cache /work/scratch/pivot-scaling --corpus 29000 --workers 1 2 [--repeat 3]

For each worker count, one child process starts a local cluster as `paralign pivot` does
(`cluster._start_local`: one thread per worker, 2 GB each), has every worker import the
pipeline's modules, turns on Dask's task stream, and only then times `pivot_paraphrases`
against that cluster's address (the corpus cached by `benchmarks/pivot_scaling.py`, its
alignment given, whitespace tokenizer).  So the interpreter's start, the imports of the command
and of the workers, and the cluster's start and stop are all outside the timed span: what is
left is the work that two workers can share.  Per run it reports the wall seconds, the compute
seconds each worker spent in tasks and the seconds spent moving data between workers (both from
the task stream), and the ratio of the medians of wall seconds (1 worker / 2 workers).

The runs alternate (1, 2, 1, 2, ...), each in a fresh process.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pivot_stages import alternate, worker_runs_parser  # noqa: E402 - this folder is on sys.path


def _warm_imports() -> None:
    import dask.dataframe  # noqa: F401

    import paralign.pivot_frames  # noqa: F401
    import paralign.pivot_input  # noqa: F401


def one_run(cache: Path, corpus: str, workers: int) -> dict[str, object]:
    """One timed pivot on a started, warmed local cluster of `workers` workers."""
    from distributed import Client

    from paralign.cluster import ClusterOptions, _start_local
    from paralign.pivot import pivot_paraphrases
    from paralign.pivot_input import PivotOptions

    cluster = _start_local(ClusterOptions(workers=workers, memory_limit="2GB"))
    client = Client(cluster)
    try:
        client.run(_warm_imports)
        _warm_imports()
        client.get_task_stream(start=time.time())  # the scheduler records from here on
        started = time.time()
        paths = [str(cache / f"{corpus}.{ext}") for ext in ("en", "de", "align")]
        with tempfile.TemporaryDirectory(prefix="pivot-warm-") as tmp:
            clock = time.perf_counter()
            report = pivot_paraphrases(
                [(paths[0], paths[1])], Path(tmp) / "table.parquet", PivotOptions(tokenizer="whitespace"),
                alignments=[paths[2]], work_dir=Path(tmp) / "work", restart=True,
                cluster=ClusterOptions(scheduler=cluster.scheduler_address))
            wall = time.perf_counter() - clock
        compute: Counter[str] = Counter()
        transfer = 0.0
        for task in client.get_task_stream(start=started):
            for span in task["startstops"]:
                seconds = span["stop"] - span["start"]
                if span["action"] == "compute":
                    compute[task["worker"]] += seconds
                elif span["action"] == "transfer":
                    transfer += seconds
    finally:
        client.close()
        cluster.close()
    return {"workers": workers, "wall_s": round(wall, 3), "rows": report.rows,
            "compute_s_per_worker": sorted((round(s, 2) for s in compute.values()), reverse=True),
            "transfer_s": round(transfer, 2)}


def main() -> None:
    args = worker_runs_parser(__doc__, repeat=3).parse_args()
    if args.one is not None:
        print(json.dumps(one_run(Path(args.cache), args.corpus, args.one)))
        return
    runs = alternate(__file__, args)
    medians = {w: statistics.median(run["wall_s"] for run in runs[w]) for w in args.workers}
    print(f"| workers | wall s (median of {args.repeat}) | compute s per worker (median run) | transfer s | rows |")
    print("|---:|---:|---|---:|---:|")
    for workers in args.workers:
        middle = sorted(runs[workers], key=lambda run: run["wall_s"])[len(runs[workers]) // 2]
        print(f"| {workers} | {medians[workers]:.2f} | {' / '.join(map(str, middle['compute_s_per_worker']))} "
              f"| {middle['transfer_s']:.2f} | {middle['rows']:,} |")
    if 1 in medians:
        for workers in args.workers:
            if workers != 1:
                print(f"\n{workers} workers against 1: {medians[1] / medians[workers]:.2f}x")


if __name__ == "__main__":
    main()
