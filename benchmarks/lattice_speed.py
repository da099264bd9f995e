"""Speed and memory of word lattices (issue 8 targets).

* building a lattice for 7 sentences of ~30 tokens (Bible verses, 7 versions) takes well under
  0.2 s beyond parsing (trees + merging + linearisation + squeezing + edge weights);
* edit distance from a sentence to a lattice takes under 10 ms;
* lattices with more than 10^12 paths (several verse lattices chained) are counted, sampled,
  k-best searched and edit-distanced in bounded memory (tracemalloc peak).

Usage: .venv/bin/python benchmarks/lattice_speed.py [--groups N] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
import tracemalloc
from collections.abc import Sequence
from typing import TypedDict

import paralign  # noqa: F401 - configures NLTK data
from lattice_eval import texts  # a sibling script: benchmarks/ is on sys.path when one runs
from paralign.lattice import Lattice, LatticeBuilder, LatticeOptions, build_lattice
from paralign.lattice.evaluate import annotate_groups, read_groups
from paralign.nlp import default_annotator
from paralign.settings import data_dir


class SpeedResult(TypedDict):
    """What --json prints."""

    groups: int
    mean_tokens: float
    parse_seconds_per_group: float
    build_seconds: dict[str, dict[str, float]]
    distance_ms: dict[str, float]
    mean_log10_paths: float
    big_lattice: dict[str, float]


def verse_groups(n: int, lo: int = 26, hi: int = 34) -> list[tuple[str, list[str]]]:
    """The first n Bible verses whose 7 versions are 7 distinct sentences to the lattice
    (read_groups counts them as it does) and all have lo..hi whitespace tokens."""
    root = data_dir()
    if root is None:
        raise SystemExit("corpora not found: set PARALIGN_DATA")
    path = root / "multitranslation/bible-ot/bible_7versions_ot.tsv"
    out = []
    for gid, group in read_groups(path):
        sentences = texts(group)
        if len(sentences) == 7 and all(lo <= len(s.split()) <= hi for s in sentences):
            out.append((gid, sentences))
            if len(out) == n:
                break
    return out


def chained(lattices: Sequence[Lattice]) -> Lattice:
    """One lattice: the given lattices one after another (path counts multiply)."""
    b = LatticeBuilder()
    cur = b.start
    for k, lat in enumerate(lattices):
        last = k == len(lattices) - 1
        ids = {s: b.new_state() for s in range(1, lat.n_states - (1 if last else 0))}
        ids[0] = cur
        if last:
            ids[lat.end] = b.end
        for s, w, d in lat.edges:
            b.add_edge(ids[s], w, ids[d])
        cur = ids[lat.end]
    return b.freeze()


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"mean": statistics.fmean(values), "median": statistics.median(values),
            "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], "max": ordered[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    groups = verse_groups(args.groups)
    default_annotator()("warm up")  # load the model outside the timings
    t0 = time.perf_counter()
    annotated = list(annotate_groups(groups))
    parse_s = time.perf_counter() - t0
    gc.collect()
    gc.freeze()  # the spaCy model's objects: keep full GC passes out of the timings
    build_times, dist_times, lattices, n_tokens = [], [], [], []
    for method in ("syntax", "msa"):
        times = []
        for _gid, sentences in annotated:
            t = time.perf_counter()
            lattice = build_lattice(sentences, LatticeOptions(method=method))
            times.append(time.perf_counter() - t)
            if method == "syntax":
                lattices.append(lattice)
                n_tokens.append(statistics.fmean(len(s) for s in sentences))
        build_times.append((method, times))
    probe = [[t.lower() for t in sentences[0].tokens] for _gid, sentences in annotated]
    for lattice, tokens in zip(lattices, probe[1:] + probe[:1], strict=True):
        runs = []
        for _ in range(5):  # best of 5, as timeit does: the machine is shared
            t = time.perf_counter()
            lattice.distance(tokens)
            runs.append(time.perf_counter() - t)
        dist_times.append(min(runs))

    tracemalloc.start()
    big = chained(lattices)
    t = time.perf_counter()
    count = big.path_count()
    sample = big.sample(10, seed=0)
    best = big.kbest(10)
    sampled_distance = big.distance(list(sample[0]))  # a path: 0
    big_s = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    result: SpeedResult = {
        "groups": len(annotated),
        "mean_tokens": statistics.fmean(n_tokens),
        "parse_seconds_per_group": parse_s / len(annotated),
        "build_seconds": {m: summary(ts) for m, ts in build_times},
        "distance_ms": {k: 1000 * v for k, v in summary(dist_times).items()},
        "mean_log10_paths": statistics.fmean(lat.log10_paths() for lat in lattices),
        "big_lattice": {
            "states": big.n_states, "edges": big.n_edges, "log10_paths": len(str(count)) - 1,
            "seconds": big_s, "peak_MB": peak / 2**20, "sampled_path_words": len(sample[0]), "distance_of_a_sampled_path": sampled_distance,
            "best_logprob": best[0][0],
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['groups']} groups of 7 verses, mean {result['mean_tokens']:.1f} tokens")
    print(f"parsing: {result['parse_seconds_per_group']:.3f} s/group")
    for m, v in result["build_seconds"].items():
        print(f"build ({m}) beyond parsing: mean {v['mean'] * 1000:.1f} ms, median {v['median'] * 1000:.1f} ms, "
              f"p95 {v['p95'] * 1000:.1f} ms, max {v['max'] * 1000:.1f} ms")
    d = result["distance_ms"]
    print(f"edit distance: mean {d['mean']:.2f} ms, median {d['median']:.2f} ms, p95 {d['p95']:.2f} ms, max {d['max']:.2f} ms")
    b = result["big_lattice"]
    print(f"chained lattice: {b['states']} states, {b['edges']} edges, 10^{b['log10_paths']} paths; "
          f"count+sample+10-best+distance {b['seconds']:.2f} s, peak {b['peak_MB']:.1f} MB")


if __name__ == "__main__":
    main()
