"""Wall time and peak memory of the pivot pipeline on 1k, 10k and all 29k Multi30k lines (en-de).

    .venv/bin/python benchmarks/pivot_speed.py [--sizes 1000 10000 29000] [--chunks 4] [--format text|json]

Each size runs in a fresh child process (`--child`), with a chunk size that makes `--chunks`
map chunks; the child reports its own peak RSS and that of the eflomal binary it ran
(`resource.getrusage`, RUSAGE_SELF and RUSAGE_CHILDREN); the parent also reports the child's
CPU time (user + system, eflomal included), which is less disturbed by a busy machine.  eflomal is given a fixed number of
iterations (`--iterations`, default 8) so time can be compared across sizes (its default
grows as the corpus shrinks).
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def child(en: str, de: str, out: str, chunk: int, iterations: int) -> None:
    from paralign.pivot import PivotOptions, pivot_paraphrases

    stages: dict[str, float] = {}
    start = time.perf_counter()
    report = pivot_paraphrases(
        [(en, de)], out, PivotOptions(chunk_size=chunk, eflomal_iterations=iterations),
        keep_work=False,
    )
    stages["total"] = time.perf_counter() - start
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({
        "seconds": round(stages["total"], 1),
        "python_peak_mb": round(self_kb / 1024, 1),
        "eflomal_peak_mb": round(child_kb / 1024, 1),
        "chunks": report.corpora[0]["chunks"],
        "rows": report.rows,
        "phrases": report.phrases,
    }))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 29000])
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--child", nargs=5, metavar=("EN", "DE", "OUT", "CHUNK", "ITER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        en, de, out, chunk, iterations = args.child
        child(en, de, out, int(chunk), int(iterations))
        return
    from paralign.settings import data_dir

    data = data_dir()
    if data is None:
        raise SystemExit("corpora not found: set PARALIGN_DATA")
    source = data / "parallel" / "multi30k" / "task1_raw"
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            paths = []
            for lang in ("en", "de"):
                with gzip.open(source / f"train.{lang}.gz", "rt", encoding="utf-8") as handle:
                    lines = [line for _, line in zip(range(size), handle, strict=False)]
                path = Path(tmp) / f"{size}.{lang}"
                path.write_text("".join(lines), encoding="utf-8")
                paths.append(str(path))
            chunk = -(-size // args.chunks)
            command = [sys.executable, __file__, "--child", *paths, str(Path(tmp) / f"{size}.tsv.gz"),
                       str(chunk), str(args.iterations)]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            result = {"lines": size, "chunk_size": chunk, "wall_seconds": round(wall, 1),
                      "cpu_seconds": round(cpu, 1), **json.loads(done.stdout.strip().splitlines()[-1])}
            results.append(result)
            print(json.dumps(result), file=sys.stderr, flush=True)
    base = results[0]
    for result in results:
        result["time_per_1k_lines"] = round(1000 * result["wall_seconds"] / result["lines"], 2)
        result["time_ratio_vs_smallest"] = round(result["wall_seconds"] / base["wall_seconds"], 2)
        result["cpu_per_1k_lines"] = round(1000 * result["cpu_seconds"] / result["lines"], 2)
    if args.format == "json":
        print(json.dumps(results, indent=2))
        return
    print("| lines | chunks | wall s | wall s / 1k lines | CPU s | CPU s / 1k lines | python peak MB "
          "| eflomal peak MB | rows |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['lines']} | {r['chunks']} | {r['wall_seconds']} | {r['time_per_1k_lines']} | "
              f"{r['cpu_seconds']} | {r['cpu_per_1k_lines']} | {r['python_peak_mb']} | "
              f"{r['eflomal_peak_mb']} | {r['rows']} |")


if __name__ == "__main__":
    main()
