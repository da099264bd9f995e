"""Start-up and per-pair cost of `align`, `similarity` and `evaluate-sts`, two source trees side by side.

Each case runs in a fresh interpreter with one tree's ``src`` on PYTHONPATH (``--old-src``: a
``git worktree`` of the old commit; ``--new-src``: this checkout), alternating old and new.
In that interpreter the command runs in-process (``paralign.cli.main``) twice: first on one
pair, which pays the start-up (imports, spaCy's pipeline, PPDB), then on all the pairs, which
pays only the per-pair work (annotation, alignment, scores, output). Both runs are timed in
wall and CPU seconds; the machine is shared, so CPU seconds are the steadier figure. The
outputs of the full run are compared byte for byte between the trees (a speed-up must not
change a result; the version, and so every signature, is the same).

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/everyday_speed.py \\
        --old-src /work/wt-before/src --new-src src --repeat 3

Inputs (from ``PARALIGN_DATA``): MSR RTE2 test (800 pairs, the JSONL of its ``derived/``
folder, aligned from text) for ``align --format json``; STS 2013 headlines (750 pairs) for
``similarity --format json`` (default signal) and ``evaluate-sts --format json``. One worker.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MSR = "alignment/msr-rte2/derived/RTE2_test_M.jsonl"
STS = "similarity/sts/2013/headlines.test.tsv"


def inputs(root: Path, tmp: Path) -> dict[str, tuple[Path, Path, int]]:
    """Case -> (full input, one-pair input, pairs in the full input)."""
    msr, one_msr = tmp / "msr-test.jsonl", tmp / "msr-one.jsonl"
    rows = [json.loads(line) for line in (root / MSR).read_text(encoding="utf-8").splitlines()]
    msr.write_text("".join(json.dumps({k: r[k] for k in ("id", "source", "target")}) + "\n" for r in rows),
                   encoding="utf-8")
    one_msr.write_text(msr.read_text(encoding="utf-8").splitlines(keepends=True)[0], encoding="utf-8")
    sts, one_sts = root / STS, tmp / "sts-one.tsv"
    sts_lines = sts.read_text(encoding="utf-8").splitlines(keepends=True)
    one_sts.write_text(sts_lines[0], encoding="utf-8")
    return {"align": (msr, one_msr, len(rows)), "similarity": (sts, one_sts, len(sts_lines)),
            "evaluate-sts": (sts, one_sts, len(sts_lines))}


def argv(case: str, path: Path, out: Path) -> list[str]:
    """The command line (after `paralign`) of a case on one input."""
    if case == "align":
        return ["align", str(path), "--format", "json", "-o", str(out)]
    if case == "similarity":
        return ["similarity", "--pairs", str(path), "--format", "json", "-o", str(out)]
    return ["evaluate-sts", "--data", str(path), "--format", "json", "-o", str(out)]


def child(case: str, one: str, full: str, out: str) -> None:
    """In the measured interpreter: start-up on one pair, then the full input; print timings."""
    t0, c0 = time.perf_counter(), time.process_time()
    from paralign.cli import main

    scratch = Path(out).with_suffix(".one")
    if main(argv(case, Path(one), scratch)) != 0:
        raise SystemExit(f"{case}: the one-pair run failed")
    t1, c1 = time.perf_counter(), time.process_time()
    if main(argv(case, Path(full), Path(out))) != 0:
        raise SystemExit(f"{case}: the full run failed")
    t2, c2 = time.perf_counter(), time.process_time()
    print(json.dumps({"start_wall": t1 - t0, "start_cpu": c1 - c0, "pairs_wall": t2 - t1, "pairs_cpu": c2 - c1}))


def measure(src: str, case: str, one: Path, full: Path, out: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
    command = [sys.executable, __file__, "--child", case, str(one), str(full), str(out)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:6])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-src", required=True)
    parser.add_argument("--new-src", default="src")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", default="align,similarity,evaluate-sts")
    args = parser.parse_args()
    root = Path(os.environ.get("PARALIGN_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"))
    if not (root / MSR).exists() or not (root / STS).exists():
        print(f"skipped: the MSR RTE2 and STS 2013 files are not under {root} (set PARALIGN_DATA)")
        return 0
    print("| command | pairs | tree | start-up s (CPU) | per-pair ms (CPU) | pairs/s (CPU) | pairs/s (wall) | output |")
    print("|---|---:|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        table = inputs(root, tmp)
        for case in args.cases.split(","):
            full, one, n = table[case]
            found: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
            outs = {label: tmp / f"{case}-{label}.json" for label in found}
            for _ in range(args.repeat):
                for label, src in (("old", args.old_src), ("new", args.new_src)):
                    found[label].append(measure(src, case, one, full, outs[label]))
            same = outs["old"].read_bytes() == outs["new"].read_bytes()
            for label, runs in found.items():
                start = statistics.median(r["start_cpu"] for r in runs)
                cpu = statistics.median(r["pairs_cpu"] for r in runs)
                wall = statistics.median(r["pairs_wall"] for r in runs)
                mark = ("identical " if same else "DIFFERENT ") + digest(outs[label])
                print(f"| {case} | {n} | {label} | {start:.2f} | {1000 * cpu / n:.1f} | {n / cpu:.1f} | "
                      f"{n / wall:.1f} | {mark} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
