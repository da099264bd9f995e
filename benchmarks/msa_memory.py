"""Peak memory and time of the MSA baseline lattice (`LatticeOptions(method="msa")`) on long sentences.

Each size builds the progressive-alignment lattice of a group of three synthetic sentences of N
words: one random sentence over a 2,000-word vocabulary and two copies with about 10% of their
words substituted, deleted or inserted (fixed seed), so the alignment has long matched runs and
gaps, as translations of one text do. Peak memory is tracemalloc's (numpy reports its arrays to
it) and the process's peak RSS (the Python process, spaCy not loaded), measured in a fresh
process per size so one size's allocations do not count for another;
time is wall-clock and CPU (the machine may be shared); the lattice is compared by its JSON record's SHA-256, so two versions of the code can be shown to
build the same lattice.

Usage: .venv/bin/python benchmarks/msa_memory.py [--sizes 1000 5000 10000] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from typing import TypedDict


class SizeResult(TypedDict):
    """One size's figures (what --json prints, a list of these)."""

    words: int
    states: int
    edges: int
    peak_mb: float
    rss_mb: float
    seconds: float
    cpu_seconds: float
    sha256: str


def group(n: int, seed: int = 0) -> list[list[str]]:
    """Three sentences of about n words: a random one and two noisy copies of it."""
    rng = random.Random(seed)
    vocab = [f"w{k}" for k in range(2000)]
    base = [rng.choice(vocab) for _ in range(n)]
    out = [base]
    for _ in range(2):
        copy: list[str] = []
        for word in base:
            r = rng.random()
            if r < 0.04:
                copy.append(rng.choice(vocab))  # substituted
            elif r < 0.07:
                continue  # deleted
            elif r < 0.10:
                copy.extend([word, rng.choice(vocab)])  # a word inserted after it
            else:
                copy.append(word)
        out.append(copy)
    return out


def measure(n: int) -> SizeResult:
    """Build the MSA lattice of :func:`group` (n) under tracemalloc, in this process."""
    from paralign.lattice.msa import msa_lattice

    sentences = group(n)
    tracemalloc.start()
    t0, c0 = time.perf_counter(), time.process_time()
    lattice = msa_lattice(sentences)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    digest = hashlib.sha256(json.dumps(lattice.to_dict(), sort_keys=True).encode()).hexdigest()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # kB on Linux
    return SizeResult(words=n, states=lattice.n_states, edges=lattice.n_edges, peak_mb=round(peak / 2**20, 1),
                      rss_mb=round(rss, 1), seconds=round(seconds, 2), cpu_seconds=round(cpu, 2), sha256=digest[:16])


def main() -> None:
    """Measure each size in a child process and print a table (or --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000], metavar="N")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process's size
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one)))
        return
    results: list[SizeResult] = []
    for n in args.sizes:
        done = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print("| words | states | edges | peak (tracemalloc) | peak RSS | time (CPU) | lattice SHA-256 |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        print(f"| {r['words']:,} | {r['states']:,} | {r['edges']:,} | {r['peak_mb']:,} MB | {r['rss_mb']:,} MB "
              f"| {r['seconds']} s ({r['cpu_seconds']} s) "
              f"| `{r['sha256']}` |")


if __name__ == "__main__":
    main()
