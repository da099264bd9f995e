"""Scaling of the Dask pivot pipeline, and its speed against the old one, on Multi30k task 1 (en-de).

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/pivot_scaling.py \
        [--sizes 10000 100000 300000] [--workers 1 2] [--memory-limit 2GB] \
        [--compare 29000 --old-src PATH/src] [--computed] [--format text|json]

Data: the 29,000 training lines of Multi30k task 1 (English, German), tokenised as `pivot`
does by default (regex, lower-cased), aligned once by `paralign word-align` (eflomal, 8
iterations; cached in --cache) and given to every run with `--alignment`, so all runs build
tables from the same links.  Sizes above 29,000 replicate those lines; every line of a
scaling run starts with a distinct line id token on both sides (`id<N>`, linked to each other),
so no two lines are equal and the phrase table grows with the corpus as a real one does.

Each run is one `paralign pivot` command in a child process (`--workers N --memory-limit M`,
a local Dask cluster); the parent samples the resident memory of the command and of each of
its descendant processes (the Dask workers) every 0.2 s with psutil and reports the largest
worker peak.  `--compare N` also runs the old pipeline (a checkout given by --old-src, e.g.
`git worktree add /work/wt-old main`) and the new one with 1 and 2 workers on the first N
real lines (no ids), in the same run; `--computed` adds a run of each that aligns with
eflomal itself (timed with eflomal).  Take the benchmark lock: the machine is shared.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def prepare(cache: Path) -> tuple[list[str], list[str], list[str]]:
    """Tokenised Multi30k train (en, de) and its eflomal alignment (cached)."""
    from paralign.aligners.eflomal import tokenize
    from paralign.settings import data_dir

    cache.mkdir(parents=True, exist_ok=True)
    files = [cache / name for name in ("train.en", "train.de", "train.align")]
    if not all(path.exists() for path in files):
        data = data_dir()
        if data is None:
            raise SystemExit("corpora not found: set PARALIGN_DATA")
        source = data / "parallel" / "multi30k" / "task1_raw"
        for lang, path in zip(("en", "de"), files, strict=False):
            with gzip.open(source / f"train.{lang}.gz", "rt", encoding="utf-8") as handle:
                path.write_text("".join(" ".join(tokenize(line, "regex", True)) + "\n" for line in handle),
                                encoding="utf-8")
        subprocess.run([sys.executable, "-m", "paralign", "word-align", "--source", str(files[0]), "--target",
                        str(files[1]), "--iterations", "8", "-o", str(files[2])], check=True,
                       env={**os.environ, "PYTHONPATH": str(SRC)})
    en, de, align = (path.read_text(encoding="utf-8").splitlines() for path in files)
    return en, de, align


def write_corpus(lines: tuple[list[str], list[str], list[str]], size: int, folder: Path, *, ids: bool) -> list[Path]:
    """The first `size` lines (replicated beyond 29,000), with a line id token when `ids`."""
    paths = [folder / f"{size}{'-ids' if ids else ''}.{ext}" for ext in ("en", "de", "align")]
    if paths[0].exists():
        return paths
    en, de, align = lines
    with open(paths[0], "w", encoding="utf-8") as e, open(paths[1], "w", encoding="utf-8") as f, \
            open(paths[2], "w", encoding="utf-8") as a:
        for n in range(size):
            k = n % len(en)
            if not ids:
                e.write(en[k] + "\n")
                f.write(de[k] + "\n")
                a.write(align[k] + "\n")
                continue
            shifted = " ".join(f"{int(i) + 1}-{int(j) + 1}" for i, j in (x.split("-") for x in align[k].split()))
            e.write(f"id{n} {en[k]}\n")
            f.write(f"id{n} {de[k]}\n")
            a.write(("0-0 " + shifted).strip() + "\n")
    return paths


def run(command: list[str], env: dict[str, str]) -> dict:
    """Run a command; wall time, and peak RSS of it and of each descendant (sampled)."""
    import psutil

    start = time.perf_counter()
    load = load_average()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parent = psutil.Process(process.pid)
    peaks: dict[int, int] = {}
    while process.poll() is None:
        with contextlib.suppress(psutil.Error):
            for proc in [parent, *parent.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    peaks[proc.pid] = max(peaks.get(proc.pid, 0), proc.memory_info().rss)
        time.sleep(0.2)
    out, err = process.communicate()
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{err[-3000:]}")
    report = json.loads(out)
    driver = peaks.pop(process.pid, 0)
    return {"wall_s": round(wall, 1), "driver_peak_mb": round(driver / 2**20), "rows": report["rows"],
            "worker_peak_mb": round(max(peaks.values(), default=0) / 2**20), "load_before": load,
            "load_after": load_average()}


def pivot_command(paths: list[Path], out: Path, *, workers: int | None, memory: str | None, given: bool,
                  whitespace: bool = True) -> list[str]:
    command = [sys.executable, "-m", "paralign", "pivot", "--english", str(paths[0]), "--foreign", str(paths[1]),
               "-o", str(out), "--format", "json", "--work-dir", str(out) + ".work", "--restart"]
    if whitespace:
        command += ["--tokenizer", "whitespace"]
    command += ["--alignment", str(paths[2])] if given else ["--iterations", "8"]
    if workers is not None:
        command += ["--workers", str(workers)] + (["--memory-limit", memory] if memory else [])
    return command


def main() -> None:  # long: the benchmark's runs in order, then the table
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10000, 100000, 300000])
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--memory-limit", default="2GB")
    parser.add_argument("--compare", type=int, default=None, metavar="N", help="old vs new on N real lines")
    parser.add_argument("--old-src", default=None, help="src folder of the old pipeline's checkout")
    parser.add_argument("--computed", action="store_true", help="--compare also with eflomal run by the command")
    parser.add_argument("--cache", default=str(ROOT / "build" / "pivot-scaling"))
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    lines = prepare(Path(args.cache))
    new_env = {**os.environ, "PYTHONPATH": str(SRC)}
    new_env.pop("PARALIGN_SCHEDULER", None)
    results = []
    with tempfile.TemporaryDirectory(prefix="pivot-scaling-") as tmp:
        folder = Path(tmp)
        if args.compare:
            paths = write_corpus(lines, args.compare, Path(args.cache), ids=False)
            runs: list[tuple[str, dict[str, str], int | None]] = []
            if args.old_src:
                runs.append(("old", {**new_env, "PYTHONPATH": args.old_src}, None))
            runs += [("new", new_env, w) for w in (1, 2)]
            for given in (True, False) if args.computed else (True,):
                for name, env, workers in runs:
                    command = pivot_command(paths, folder / f"{name}.tsv", workers=workers,
                                            memory=args.memory_limit if workers else None, given=given)
                    result = {"kind": "compare", "pipeline": name, "workers": workers or 1, "lines": args.compare,
                              "alignment": "given" if given else "computed", **run(command, env)}
                    print(json.dumps(result), file=sys.stderr, flush=True)
                    results.append(result)
        for size in args.sizes:
            paths = write_corpus(lines, size, Path(args.cache), ids=True)
            for workers in args.workers:
                command = pivot_command(paths, folder / f"{size}-{workers}.parquet", workers=workers,
                                        memory=args.memory_limit, given=True)
                result = {"kind": "scaling", "pipeline": "new", "workers": workers, "lines": size,
                          "alignment": "given", **run(command, new_env)}
                result["s_per_1k_lines"] = round(1000 * result["wall_s"] / size, 3)
                print(json.dumps(result), file=sys.stderr, flush=True)
                results.append(result)
    if args.format == "json":
        print(json.dumps(results, indent=2))
        return
    print("| run | pipeline | alignment | lines | workers | wall s | s / 1k lines | worker peak MB | driver peak MB "
          "| rows | load before / after |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        per_k = r.get("s_per_1k_lines", round(1000 * r["wall_s"] / r["lines"], 3))
        print(f"| {r['kind']} | {r['pipeline']} | {r['alignment']} | {r['lines']} | {r['workers']} | {r['wall_s']} "
              f"| {per_k} | {r['worker_peak_mb']} | {r['driver_peak_mb']} | {r['rows']} "
              f"| {r['load_before']} / {r['load_after']} |")


if __name__ == "__main__":
    main()
