"""CPU time of the syntax lattice (Pang et al. 2003) of two long lines, and of its squeezing.

Each size N builds the syntax lattice of a group of two lines of N words: the Bible (Old
Testament, ASV) from Genesis 1:1 on, verses joined until the line has N whitespace words, and
the same line with the full stop nearest its middle made a semicolon. The two parses then differ
at the top (one sentence fewer), so the merged forest holds the lines as two alternatives and
squeezing merges almost every state of one with the other's (the words are the same): the
case that made squeezing slow, about one merge a word.
The lines are parsed once, outside the timings; what is timed (CPU time, the machine may be
shared) is :func:`~paralign.lattice.lattice_from_trees` (merging the trees, linearising the
forest, squeezing, freezing) and, on its own, :meth:`~paralign.lattice.LatticeBuilder.squeeze`
of the same forest. The lattice is compared by its JSON record's SHA-256, so two versions of
the code can be shown to build the same lattice.

Usage: .venv/bin/python benchmarks/lattice_squeeze.py [--sizes 500 1000 2000 4000] [--json]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import time
from typing import TypedDict

from paralign.lattice import Merger, lattice_from_trees, parse_tree
from paralign.lattice.build import forest_to_builder, lattice_annotator
from paralign.settings import data_dir


class SizeResult(TypedDict):
    """One size's figures (what --json prints, a list of these)."""

    words: int
    states: int
    edges: int
    merges: int
    build_cpu_seconds: float
    squeeze_cpu_seconds: float
    sha256: str


def lines(n: int) -> list[str]:
    """Two lines of n whitespace words: consecutive ASV verses joined, and the same with the
    full stop nearest the middle made a semicolon."""
    root = data_dir()
    if root is None:
        raise SystemExit("corpora not found: set PARALIGN_DATA")
    path = root / "multitranslation/bible-ot/bible_7versions_ot.tsv"
    words: list[str] = []
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            words.extend(row["ASV"].split())
            if len(words) >= n:
                break
    first = words[:n]
    stops = [k for k, w in enumerate(first) if w.endswith(".")]
    if not stops:
        raise SystemExit(f"no full stop in the first {n} words")
    mid = min(stops, key=lambda k: abs(k - n // 2))
    second = list(first)
    second[mid] = second[mid][:-1] + ";"
    return [" ".join(first), " ".join(second)]


def measure(n: int) -> SizeResult:
    """Parse the two lines of size n, then time building their lattice and squeezing it."""
    trees = [parse_tree(s) for s in lattice_annotator().pipe(lines(n))]
    c0 = time.process_time()
    lattice = lattice_from_trees(trees)
    build_cpu = time.process_time() - c0
    forest = Merger().merge_all(trees)
    if forest is None:
        raise SystemExit("no trees")
    builder = forest_to_builder(forest)
    c0 = time.process_time()
    merges = builder.squeeze()
    squeeze_cpu = time.process_time() - c0
    digest = hashlib.sha256(json.dumps(lattice.to_dict(), sort_keys=True).encode()).hexdigest()
    return SizeResult(words=n, states=lattice.n_states, edges=lattice.n_edges, merges=merges,
                      build_cpu_seconds=round(build_cpu, 2), squeeze_cpu_seconds=round(squeeze_cpu, 2),
                      sha256=digest[:16])


def main() -> None:
    """Measure each size and print a table (or --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 4000], metavar="N")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    results = [measure(n) for n in args.sizes]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print("| words | states | edges | merges | build (CPU) | squeeze (CPU) | lattice SHA-256 |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        print(f"| {r['words']:,} | {r['states']:,} | {r['edges']:,} | {r['merges']:,} "
              f"| {r['build_cpu_seconds']} s | {r['squeeze_cpu_seconds']} s | `{r['sha256']}` |")


if __name__ == "__main__":
    main()
