"""Wall time and peak memory of short paralign commands, two source trees side by side.

What a user pays for a one-off command is mostly loading: Python, spaCy and its model, PPDB.
This runs the same commands from two checkouts (``--old-src``, ``--new-src``: their ``src``
folders, on the same venv), alternating, and prints the median wall seconds and the largest
peak RSS of the command's own process (``/usr/bin/time``; a worker's memory is not in it).

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/command_startup.py \\
        --old-src /work/wt-before/src --new-src src --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from paralign.settings import data_dir

PAIR = "The senator sponsored the bill.\tThe senator drafted the bill.\n"


def cases(stsb: Path | None, tmp: Path) -> dict[str, tuple[list[str], Path | None]]:
    """Command name -> (arguments after `python -m paralign`, stdin file or None)."""
    one = tmp / "one.tsv"
    one.write_text(PAIR, encoding="utf-8")
    out: dict[str, tuple[list[str], Path | None]] = {
        "align, one pair": (["align"], one),
        "similarity, one pair": (["similarity"], one),
    }
    if stsb is not None:
        pairs = tmp / "stsb-dev.tsv"
        rows = [line.rstrip("\n").split("\t") for line in stsb.read_text(encoding="utf-8").splitlines()]
        pairs.write_text("".join(f"{r[5]}\t{r[6]}\n" for r in rows if len(r) >= 7), encoding="utf-8")
        out["similarity, STS-B dev (1,500 pairs), 1 worker"] = (["similarity", "--pairs", str(pairs)], None)
        out["similarity, STS-B dev (1,500 pairs), 2 workers"] = (
            ["similarity", "--pairs", str(pairs), "--workers", "2"], None)
    return out


def run(src: str, argv: list[str], stdin: Path | None) -> tuple[float, int]:
    """(wall seconds, peak RSS in MB of the command's process)."""
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
    with tempfile.NamedTemporaryFile("r") as timing:
        command = ["/usr/bin/time", "-o", timing.name, "-f", "%e %M", sys.executable, "-m", "paralign", *argv]
        with open(stdin or os.devnull, encoding="utf-8") as handle:
            subprocess.run(command, stdin=handle, stdout=subprocess.DEVNULL, env=env, check=True)
        wall, rss = timing.read().split()[-2:]
    return float(wall), int(rss) // 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-src", required=True)
    parser.add_argument("--new-src", default="src")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    root = data_dir()
    stsb = root / "similarity" / "stsbenchmark" / "sts-dev.csv" if root else None
    with tempfile.TemporaryDirectory() as tmp:
        table = cases(stsb if stsb and stsb.exists() else None, Path(tmp))
        print("| command | old s | new s | old MB | new MB |")
        print("|---|---:|---:|---:|---:|")
        for name, (argv, stdin) in table.items():
            found: dict[str, list[tuple[float, int]]] = {"old": [], "new": []}
            for _ in range(args.repeat):
                for label, src in (("old", args.old_src), ("new", args.new_src)):
                    found[label].append(run(src, argv, stdin))
            walls = {k: statistics.median(w for w, _ in v) for k, v in found.items()}
            peaks = {k: max(m for _, m in v) for k, v in found.items()}
            print(f"| {name} | {walls['old']:.2f} | {walls['new']:.2f} | {peaks['old']} | {peaks['new']} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
