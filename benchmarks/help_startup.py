"""Start-up of `import paralign`, `paralign --help` and `paralign align --help`, two source trees.

Before a command does anything it pays for Python, `import paralign` and its own parser. This
runs each case from two checkouts (``--old-src``, ``--new-src``: their ``src`` folders, on the
same venv), alternating, ``--repeat`` times, and prints the median and the least wall time of
the process, the median of what ``python -X importtime`` counts for its imports (another run
each time), how many modules it imported and which of the heavy libraries (numpy, pandas,
dask, spaCy, torch, ...) were among them.

    flock /work/scratch/bench.lock .venv/bin/python benchmarks/help_startup.py \\
        --old-src /tmp/before/src --new-src src --repeat 10
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: Case name -> the arguments after `python`.
CASES: dict[str, list[str]] = {
    "python -c pass (the floor)": ["-c", "pass"],
    "import paralign": ["-c", "import paralign"],
    "paralign --help": ["-m", "paralign", "--help"],
    "paralign align --help": ["-m", "paralign", "align", "--help"],
}

#: Libraries no --help needs, each a second or a tenth of one to import.
HEAVY = ("numpy", "pandas", "scipy", "pyarrow", "dask", "distributed", "spacy", "thinc", "torch",
         "transformers", "sklearn", "nltk", "fastapi", "jinja2", "tqdm", "psutil")


def _env(src: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(Path(src).resolve())}


def timed(src: str, argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one run of ``python ARGV`` with `src` first on
    the path: on a machine shared with other jobs the CPU time moves far less than the wall time."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, *argv], env=_env(src), stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, process.args)
    return 1000 * (time.perf_counter() - started), 1000 * (usage.ru_utime + usage.ru_stime)


def imported(src: str, argv: list[str]) -> tuple[list[str], float]:
    """The modules one run imports, in order, and the milliseconds of all its imports (the
    cumulative times of ``-X importtime``'s top-level lines)."""
    err = subprocess.run([sys.executable, "-X", "importtime", *argv], env=_env(src), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    rows = [line[len("import time:"):].split("|") for line in err.splitlines()
            if line.startswith("import time:") and "self [us]" not in line]
    top = sum(int(cumulative) for _, cumulative, name in rows if not name.startswith("  "))
    return [name.strip() for _, _, name in rows], top / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-src", required=True)
    parser.add_argument("--new-src", default="src")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    trees = {"old": args.old_src, "new": args.new_src}
    print("| case | wall ms, old | wall ms, new | least, old | least, new | CPU ms, old | CPU ms, new "
          "| import ms, old | import ms, new | modules, old | modules, new | heavy (old / new) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, argv in CASES.items():
        walls: dict[str, list[float]] = {"old": [], "new": []}
        cpus: dict[str, list[float]] = {"old": [], "new": []}
        imports: dict[str, list[float]] = {"old": [], "new": []}
        modules: dict[str, list[str]] = {}
        for _ in range(args.repeat):
            for label, src in trees.items():
                took, cpu = timed(src, argv)
                walls[label].append(took)
                cpus[label].append(cpu)
                modules[label], took = imported(src, argv)
                imports[label].append(took)
        heavy = {label: sorted({m.split(".")[0] for m in found} & set(HEAVY)) or ["none"]
                 for label, found in modules.items()}
        row = [statistics.median(walls["old"]), statistics.median(walls["new"]), min(walls["old"]),
               min(walls["new"]), statistics.median(cpus["old"]), statistics.median(cpus["new"]),
               statistics.median(imports["old"]), statistics.median(imports["new"])]
        print(f"| {name} | {' | '.join(f'{ms:.0f}' for ms in row)} | {len(modules['old'])} | {len(modules['new'])} "
              f"| {', '.join(heavy['old'])} / {', '.join(heavy['new'])} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
