"""Where a pivot run's time goes, stage by stage, with 1 or 2 local workers (issue 20's 2-vs-1 clause).

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/pivot_stages.py \
        --cache /work/scratch/pivot-scaling --corpus 29000 --workers 1 2 [--repeat 3]

Runs `paralign.pivot.pivot_paraphrases` in this process on a corpus that
`benchmarks/pivot_scaling.py` cached (`<cache>/<corpus>.en`, `.de`, `.align`; e.g. `29000` or
`300000-ids`), with the alignment given and the whitespace tokenizer as the scaling benchmark
uses, and prints the seconds from the call's start to each stage boundary the pipeline reports
through its progress hook: the workers connected (imports, the cluster's start, and what the
command reads meanwhile: since the workers read a corpus whose alignment is given in plain
files, only the files' line counts and chunk offsets; before, all of stage 1), extraction
done (with the workers' reading, for such a corpus), the summed pairs written, the filtered parts
written, the output file written and the cluster stopped.  Stages whose two columns differ by
about 2x are shared by the workers; the others are the serial part that bounds the ratio.
Each run is a fresh process (a warm one starts the next cluster about 1 s sooner: its
imports are done); the interpreter's own start (about 0.7 s here) is not included.

It also prints the CPU seconds each run used (user + system, psutil): the command's process
(from the call's start: its imports, the scheduler, graph building, output) and the worker
processes (sampled every 0.1 s while they live, so up to 0.1 s of a worker's last moments can be
missed).  With two cores, a run cannot take less wall time than its CPU seconds / 2, which
bounds the two-worker run from below whatever its scheduling.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

STAGES = ("workers connected", "extract", "pairs", "table", "output, cluster stopped")
CPU = ("command cpu", "workers cpu")


class ChildCpu:
    """CPU seconds (user + system) of this process' descendants, sampled every 0.1 s from a
    thread while they live: the last sample of each process counts."""

    def __init__(self) -> None:
        import psutil

        self._me = psutil.Process()
        self.seconds: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        import psutil

        while not self._stop.wait(0.1):
            for child in self._me.children(recursive=True):
                try:
                    times = child.cpu_times()
                    if "resource_tracker" not in " ".join(child.cmdline()):
                        self.seconds[child.pid] = times.user + times.system
                except psutil.Error:
                    continue

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return sum(self.seconds.values())


def one_run(cache: Path, corpus: str, workers: int, work: Path) -> dict[str, float]:
    """Seconds of each stage of one pivot run."""
    from paralign.cluster import ClusterOptions
    from paralign.pivot import pivot_paraphrases
    from paralign.pivot_input import PivotOptions

    marks: dict[str, float] = {}
    start = time.perf_counter()
    own = time.process_time()
    children = ChildCpu()

    def progress(items, desc: str = "", total: int | None = None):  # noqa: ANN001, ANN202 - the Progress protocol
        yield from items
        marks[desc] = time.perf_counter() - start

    def connected(info: dict[str, object]) -> None:  # the cluster's description, unused
        marks.setdefault("connected", time.perf_counter() - start)

    paths = [str(cache / f"{corpus}.{ext}") for ext in ("en", "de", "align")]
    pivot_paraphrases(
        [(paths[0], paths[1])], work / "table.parquet", PivotOptions(tokenizer="whitespace"),
        alignments=[paths[2]], work_dir=work / "work", restart=True, progress=progress,
        cluster=ClusterOptions(workers=workers, memory_limit="2GB"),
        on_start=connected,
    )
    ends = [marks["connected"], marks["extract"], marks["pairs"], marks["table"], time.perf_counter() - start]
    cpu = {"command cpu": time.process_time() - own, "workers cpu": children.stop()}
    return {**{stage: end - begin for stage, begin, end in zip(STAGES, [0.0, *ends[:-1]], ends, strict=True)}, **cpu}


def worker_runs_parser(description: str, repeat: int) -> argparse.ArgumentParser:
    """The options of a benchmark that runs a pivot per worker count in child processes (this
    one and `pivot_warm.py`): --cache, --corpus, --workers, --repeat, and the child's --one."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", default="build/pivot-scaling")
    parser.add_argument("--corpus", default="29000")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)  # a child: one run, as JSON
    return parser


def alternate(script: str, args: argparse.Namespace) -> dict[int, list[dict]]:
    """`args.repeat` rounds of one child run of `script` per worker count (1, 2, 1, 2, ...), each
    a fresh process printing its run as JSON; every run is echoed on stderr as it ends."""
    runs: dict[int, list[dict]] = {w: [] for w in args.workers}
    for _ in range(args.repeat):
        for workers in args.workers:
            child = subprocess.run([sys.executable, script, "--cache", args.cache, "--corpus", args.corpus,
                                    "--one", str(workers)], check=True, capture_output=True, text=True)
            runs[workers].append(json.loads(child.stdout.splitlines()[-1]))
            print(json.dumps({"workers": workers, **runs[workers][-1]}), file=sys.stderr, flush=True)
    return runs


def main() -> None:
    args = worker_runs_parser(__doc__, repeat=1).parse_args()
    if args.one is not None:
        with tempfile.TemporaryDirectory(prefix="pivot-stages-") as tmp:
            print(json.dumps(one_run(Path(args.cache), args.corpus, args.one, Path(tmp))))
        return
    runs = alternate(__file__, args)
    print(f"| stage ({args.corpus} lines, median of {args.repeat}) | "
          + " | ".join(f"{w} worker{'s' if w > 1 else ''} s" for w in args.workers) + " |")
    print("|---|" + "---:|" * len(args.workers))
    for stage in [*STAGES, "total", *CPU, "total cpu", "total cpu / 2 cores"]:
        cells = [statistics.median(_cell(run, stage) for run in runs[w]) for w in args.workers]
        print(f"| {stage} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")


def _cell(run: dict[str, float], row: str) -> float:
    if row == "total":
        return sum(run[stage] for stage in STAGES)
    if row.startswith("total cpu"):
        return sum(run[name] for name in CPU) / (2 if row.endswith("cores") else 1)
    return run[row]


if __name__ == "__main__":
    main()
