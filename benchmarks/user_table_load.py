"""How long a user's paraphrase table takes to load and sign, the first time and the next.

    PYTHONPATH=src python benchmarks/user_table_load.py --corpus CORPUS.txt --work DIR \
        [--rows 3000000] [--sizes 1000,10000,100000,1000000] [--tables tsv,parquet,tsv-SIZE] [--repeat 2]
        [--cache-all] [--src SRC] [--out F]

1. **The tables.** `--rows` rows of realistic phrases are written once into `--work` (reused
   when there): phrases are word 1- to 3-grams of the English side of a real corpus
   (`--corpus`, one sentence a line, lower-cased words as they stand), each phrase with about
   ten paraphrases drawn from the same n-grams, a score each (six significant digits), grouped
   by phrase in sorted order, as a table file holds them; a TSV, and the same rows as Parquet
   written by :class:`paralign.tables.TableWriter` (the writer `pivot` uses) with no record of
   a tokenizer (a user's table). `--sizes` writes smaller TSVs of the first rows, to see where
   the cache starts to pay.
2. **The load.** Each run is a fresh interpreter that imports paralign from `--src` (default:
   this tree's `src`, so a worktree of an older commit can be timed with the same file) and
   does what `paraeval --table`, `parametric table --table` and `serve --table` do: loads the
   table with :func:`paralign.paraphrases.load_source` (``PATH:0.1``, a threshold as users
   give one) and takes its signature (:func:`paralign.metrics.paraeval.signature.source_signature`,
   which hashes the rows). Timed apart: the load, the signature. "cold" runs with an empty
   `PARALIGN_CACHE_DIR` folder (the first command on a machine, or after the file changed),
   "warm" right after it with the same folder, "no cache" with `PARALIGN_CACHE_DIR` empty.
   Each signature is checked equal across the runs. `--cache-all` keeps a table of any size
   (``paraphrases.CACHED_TABLE_BYTES`` 0), to see at what size the cache starts to pay.

The page cache is not dropped (that needs root and would time the disk, not the parser); the
file is read once before the runs. Figures are wall seconds, the median of `--repeat` runs, and
the peak resident memory of the process (ru_maxrss).

Not for: looking a phrase up in a table file without loading it (`benchmarks/table_query.py`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: --cache-all: keep a table of any size (paraphrases.CACHED_TABLE_BYTES 0), to see where it pays.
CACHE_ALL = False

#: What one run does, in a fresh interpreter: load and sign, each timed (see the docstring).
SNIPPET = r"""
import json, os, resource, sys, time
start = time.perf_counter()
from paralign import paraphrases
from paralign.paraphrases import load_source
if os.environ.get("BENCH_CACHED_TABLE_BYTES"):  # --cache-all: a table of any size is kept
    paraphrases.CACHED_TABLE_BYTES = int(os.environ["BENCH_CACHED_TABLE_BYTES"])
from paralign.metrics.paraeval.signature import source_signature
imported = time.perf_counter()
table = load_source(sys.argv[1])
loaded = time.perf_counter()
signature = source_signature(table)
signed = time.perf_counter()
print(json.dumps({"import": imported - start, "load": loaded - imported, "sign": signed - loaded,
                  "signature": signature, "pairs": len(table),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def ngrams(corpus: Path, limit: int = 200_000) -> list[str]:
    """The distinct word 1- to 3-grams of `corpus`'s first `limit` lines, lower-cased, sorted."""
    out: set[str] = set()
    with open(corpus, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if number >= limit:
                break
            words = line.lower().split()
            for n in (1, 2, 3):
                out.update(" ".join(words[i:i + n]) for i in range(len(words) - n + 1))
    return sorted(out)


def write_tables(corpus: Path, work: Path, rows: int, sizes: list[int]) -> dict[str, Path]:
    """The TSV and Parquet tables of `rows` rows and the smaller TSVs (see the docstring)."""
    work.mkdir(parents=True, exist_ok=True)
    tsv, parquet = work / f"table-{rows}.tsv", work / f"table-{rows}.parquet"
    out = {"tsv": tsv, "parquet": parquet} | {f"tsv-{size}": work / f"table-{size}.tsv" for size in sizes}
    if all(path.exists() for path in out.values()):
        return out
    grams = ngrams(corpus)
    rng = random.Random(13)
    phrases = sorted(rng.sample(grams, min(len(grams), rows // 10 + 1)))
    lines: list[str] = []
    for phrase in phrases:
        paras = sorted(set(rng.sample(grams, 10)) - {phrase})
        lines.extend(f"{phrase}\t{para}\t{rng.random():.6g}\n" for para in paras)
        if len(lines) >= rows:
            break
    del lines[rows:]
    for size in [rows, *sizes]:
        path = work / f"table-{size}.tsv"
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(lines[:size])
    import pyarrow as pa

    sys.path.insert(0, str(ROOT / "src"))
    from paralign.tables import TableWriter

    schema = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("score", pa.float64())])
    fields = [line.rstrip("\n").split("\t") for line in lines]
    with TableWriter(parquet, schema) as writer:
        for start in range(0, len(fields), 500_000):
            part = fields[start:start + 500_000]
            writer.write(pa.table({"phrase": [f[0] for f in part], "paraphrase": [f[1] for f in part],
                                   "score": [float(f[2]) for f in part]}, schema=schema))
    return out


def run(src: Path, spec: str, cache: str) -> dict:
    """One load and signature in a fresh interpreter with PARALIGN_CACHE_DIR=`cache`."""
    env = dict(os.environ, PYTHONPATH=str(src), PARALIGN_CACHE_DIR=cache)
    if CACHE_ALL:
        env["BENCH_CACHED_TABLE_BYTES"] = "0"
    done = subprocess.run([sys.executable, "-c", SNIPPET, spec], env=env, capture_output=True, text=True,
                          check=True, timeout=1800)
    return json.loads(done.stdout.splitlines()[-1])


def measure(src: Path, spec: str, repeat: int) -> dict[str, list[dict]]:
    """`repeat` rounds of: no cache; cold (a new empty cache folder); warm (the same folder)."""
    out: dict[str, list[dict]] = {"no cache": [], "cold": [], "warm": []}
    for _ in range(repeat):
        out["no cache"].append(run(src, spec, ""))
        folder = tempfile.mkdtemp(prefix="paralign-bench-cache-")
        try:
            out["cold"].append(run(src, spec, folder))
            out["warm"].append(run(src, spec, folder))
            out["cold"][-1]["entry_mb"] = sum(p.stat().st_size for p in Path(folder).iterdir()) / 2**20
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return out


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def report(results: dict[str, dict[str, list[dict]]], args: argparse.Namespace, files: dict[str, Path]) -> str:
    """The markdown table of the results (wall seconds, medians) and the signatures seen."""
    lines = [f"Run of {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, `--src {args.src}`, {args.repeat} rounds, "
             f"{'--cache-all, ' if args.cache_all else ''}"
             f"load average {os.getloadavg()[0]:.1f} at the end.", "",
             "| table | rows | MB | run | load s | sign s | load + sign s | peak RSS MB | cache entry MB |",
             "|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    for name, runs in results.items():
        path = files[name]
        for kind, items in runs.items():
            entry = f"{median(items, 'entry_mb'):.0f}" if items and "entry_mb" in items[0] else ""
            lines.append(f"| {path.suffix[1:]} | {items[0]['pairs']:,} | {path.stat().st_size / 2**20:.0f} | {kind} "
                         f"| {median(items, 'load'):.2f} | {median(items, 'sign'):.2f} "
                         f"| {statistics.median(r['load'] + r['sign'] for r in items):.2f} "
                         f"| {median(items, 'rss_mb'):.0f} | {entry} |")
        signatures = {r["signature"] for items in runs.values() for r in items}
        lines.append(f"<!-- {name}: signatures {sorted(signatures)} -->")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--rows", type=int, default=3_000_000)
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--tables", default="", help="comma-separated: tsv, parquet, tsv-SIZE (default: all)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--threshold", default="0.1")
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--cache-all", action="store_true",
                        help="keep a table of any size in the cache (paraphrases.CACHED_TABLE_BYTES = 0)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    global CACHE_ALL
    CACHE_ALL = args.cache_all
    sizes = [int(s) for s in args.sizes.split(",") if s]
    files = write_tables(args.corpus, args.work, args.rows, sizes)
    chosen = [t for t in args.tables.split(",") if t] or list(files)
    results = {}
    for name in chosen:
        files[name].read_bytes()  # into the page cache
        results[name] = measure(args.src, f"{files[name]}:{args.threshold}", args.repeat)
        signatures = {r["signature"] for items in results[name].values() for r in items}
        if len(signatures) != 1:
            raise SystemExit(f"{name}: the signatures differ across runs: {sorted(signatures)}")
        print(name, json.dumps({k: [round(r["load"] + r["sign"], 2) for r in v] for k, v in results[name].items()}),
              file=sys.stderr, flush=True)
    text = report(results, args, files)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
