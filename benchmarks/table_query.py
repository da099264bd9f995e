"""How fast `paralign paraphrases` answers from a large Parquet table (issue 20: "reads with
pyarrow filters, so a 10 GB table answers in well under a second").

    PYTHONPATH=src python benchmarks/table_query.py --base T.parquet --big /tmp/big.parquet \
        [--size-gb 10] [--queries 20] [--repeat 3] [--out docs/results/table-query.md]

1. **The table.** A real table (`--base`, e.g. `paralign pivot` on Multi30k's 29k lines with
   `-o T.parquet`) is replicated until the file reaches `--size-gb`: replica k holds every row of
   the base with ``r<k> `` (zero-padded) put before its phrase, so every phrase is distinct and
   the file stays sorted by phrase, as `pivot` writes it. It is written by
   `paralign.tables.TableWriter`, the writer `pivot` uses (zstd, row groups of
   `tables.ROW_GROUP_ROWS` rows). A `--big` file that already exists with the asked size is
   reused (building 10 GB takes minutes).
2. **The queries.** `--queries` phrases drawn at random (seeded) from random replicas, plus as
   many absent phrases, each looked up `--repeat` times:
   - in this process with `paralign.tables.lookup` (what the command calls), with the footer
     read for each lookup (as a new process does) and kept (`table_parquet` keeps the last few
     files' footers while they stay the same), and beside it
     with pyarrow's filtered read, ``pq.read_table(filters=...)``, which `lookup` used before;
   - as a whole command, `python -m paralign paraphrases PHRASE --table BIG --top-k 10
     --format json`, a fresh interpreter each time; beside it, the same command on the
     `--base` table, so the price of the size shows apart from the interpreter's start.

The first lookup of a run reads the file's footer from disk or the page cache; the machine's
page cache is not dropped (that needs root and would time the disk, not the reader). The
figures are wall seconds: median and maximum.

Not for: building tables (`benchmarks/pivot_scaling.py`) or the TSV reader (a scan by design).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TypedDict

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign import table_parquet  # noqa: E402
from paralign.tables import TableWriter, lookup  # noqa: E402


def build(base: Path, big: Path, size_gb: float) -> int:
    """Write `big` from `base` replicated until it holds `size_gb` GB; return the replicas."""
    table = pq.read_table(base)
    metadata = json.loads(table.schema.metadata.get(b"paralign", b"{}"))
    schema = table.schema.remove_metadata()
    one = base.stat().st_size
    replicas = max(1, round(size_gb * 1e9 / one))
    width = len(str(replicas - 1))
    start = time.perf_counter()
    with TableWriter(big, schema, {**metadata, "benchmark": f"{base.name} x {replicas}"}) as writer:
        for k in range(replicas):
            prefix = pa.scalar(f"r{k:0{width}d} ")
            part = table.set_column(0, "phrase", pc.binary_join_element_wise(prefix, table["phrase"], ""))
            writer.write(part)
            if k % 50 == 0:
                print(f"  replica {k + 1} of {replicas} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return replicas


def sample_phrases(base: Path, replicas: int, count: int, seed: int) -> list[str]:
    """`count` phrases of the big table (random replicas of random base phrases) and `count`
    that it does not hold (a replica number past the last)."""
    phrases = pq.read_table(base, columns=["phrase"])["phrase"].unique().to_pylist()
    rng = random.Random(seed)
    width = len(str(replicas - 1))
    present = [f"r{rng.randrange(replicas):0{width}d} {rng.choice(phrases)}" for _ in range(count)]
    absent = [f"r{replicas + k:0{width}d} {rng.choice(phrases)}" for k in range(count)]
    return present + absent


def time_lookups(path: Path, phrases: list[str], repeat: int, *, keep_footer: bool) -> tuple[list[float], list[float], int]:
    """Seconds of each `lookup` (every phrase, `repeat` times) of the phrases the table holds
    (the first half of `phrases`) and of the others, and the rows found in one round. Without
    `keep_footer` the footer `table_parquet` keeps is dropped before each lookup (a new process reads
    it); with it, it is read once (a server or a script asking again)."""
    held: list[float] = []
    absent: list[float] = []
    found = 0
    half = len(phrases) // 2
    for round_ in range(repeat):
        for number, phrase in enumerate(phrases):
            if not keep_footer:
                table_parquet._parquet_file.cache_clear()
            start = time.perf_counter()
            rows = lookup(path, [phrase], top_k=10)[phrase]
            (held if number < half else absent).append(time.perf_counter() - start)
            found += len(rows) if round_ == 0 else 0
    return held, absent, found


def time_dataset_filter(path: Path, phrases: list[str], repeat: int) -> list[float]:
    """Seconds of pyarrow's own filtered read, ``pq.read_table(filters=...)`` (what `lookup`
    did before it chose row groups itself), for the phrases the table holds."""
    seconds = []
    for _ in range(repeat):
        for phrase in phrases[: len(phrases) // 2]:
            start = time.perf_counter()
            pq.read_table(path, filters=[("phrase", "in", [phrase])])
            seconds.append(time.perf_counter() - start)
    return seconds


def time_commands(path: Path, phrases: list[str], repeat: int) -> list[float]:
    """Wall seconds of the whole command, a fresh interpreter each time."""
    seconds = []
    for _ in range(repeat):
        for phrase in phrases:
            command = [sys.executable, "-m", "paralign", "paraphrases", phrase, "--table", str(path),
                       "--top-k", "10", "--format", "json"]
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
            seconds.append(time.perf_counter() - start)
    return seconds


class Measurements(TypedDict):
    """What the page reports: rows found for the present phrases, and (what, table, seconds) rows."""

    found: int
    timings: list[tuple[str, str, list[float]]]


def report(args: argparse.Namespace, replicas: int, rows: Measurements) -> str:
    meta = pq.ParquetFile(args.big).metadata
    lines = [
        "# Looking up a phrase in a 10 GB Parquet table (issue 20)",
        "",
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; command (from the repository root):",
        "",
        "    PYTHONPATH=src python " + " ".join(["benchmarks/table_query.py", *sys.argv[1:]]),
        "",
        f"- Base table: `{args.base.name}`, {args.base.stat().st_size / 1e6:.1f} MB, "
        f"{pq.ParquetFile(args.base).metadata.num_rows:,} rows.",
        f"- Big table: the base replicated {replicas} times (a replica number before each phrase), "
        f"{args.big.stat().st_size / 1e9:.2f} GB, {meta.num_rows:,} rows, {meta.num_row_groups:,} row groups, "
        f"footer {meta.serialized_size / 1e6:.1f} MB.",
        f"- Queries: {args.queries} phrases the big table holds and {args.queries} it does not, "
        f"each {args.repeat} times; rows found for the present ones (top 10 each): {rows['found']}.",
        "",
        "| what is timed | table | runs | median s | max s |",
        "|---|---|---:|---:|---:|",
    ]
    for label, table, seconds in rows["timings"]:
        lines.append(f"| {label} | {table} | {len(seconds)} | {statistics.median(seconds):.3f} | {max(seconds):.3f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="a paralign Parquet table to replicate")
    parser.add_argument("--big", type=Path, required=True, help="where the big table is (built if absent)")
    parser.add_argument("--size-gb", type=float, default=10.0)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write the results page here (else stdout)")
    args = parser.parse_args()
    one = args.base.stat().st_size
    replicas = max(1, round(args.size_gb * 1e9 / one))
    if args.big.exists() and pq.ParquetFile(args.big).metadata.num_rows == replicas * pq.ParquetFile(args.base).metadata.num_rows:
        print(f"reusing {args.big}", file=sys.stderr)
    else:
        build(args.base, args.big, args.size_gb)
    phrases = sample_phrases(args.base, replicas, args.queries, args.seed)
    held, absent, found = time_lookups(args.big, phrases, args.repeat, keep_footer=False)
    warm_held, warm_absent, _ = time_lookups(args.big, phrases, args.repeat, keep_footer=True)
    timings = [
        ("`tables.lookup`, a phrase the table holds, footer read", "big", held),
        ("`tables.lookup`, a phrase it does not hold, footer read", "big", absent),
        ("`tables.lookup`, a phrase the table holds, footer kept", "big", warm_held),
        ("`tables.lookup`, a phrase it does not hold, footer kept", "big", warm_absent),
        ("`pq.read_table(filters=[(phrase, in, [PHRASE])])` (the reader before), a phrase the table holds",
         "big", time_dataset_filter(args.big, phrases, args.repeat)),
        ("`paralign paraphrases PHRASE --top-k 10` (whole command)", "big", time_commands(args.big, phrases, 1)),
        ("`paralign paraphrases PHRASE --top-k 10` (whole command)", "base", time_commands(args.base, phrases, 1)),
    ]
    page = report(args, replicas, {"found": found, "timings": timings})
    if args.out:
        args.out.write_text(page, encoding="utf-8")
    else:
        sys.stdout.write(page)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
