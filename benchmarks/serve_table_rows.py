"""How long ``POST /api/paraphrases`` takes on a large TSV table of more than three columns, and
what the server keeps for it beyond the table in memory.

    PYTHONPATH=src python benchmarks/serve_table_rows.py [--rows 200000] [--requests 50] [--table FILE]
        [--format tsv|parquet]

1. **The table.** `--rows` rows of a pivot-like table, TSV with a header (``# phrase TAB
   paraphrase TAB probability TAB pivots TAB support``) or Parquet of those columns
   (``--format parquet``, sorted by phrase, row groups of 10,000 rows), with no ``# paralign:``
   record (a user's table, matched without case), four paraphrases a phrase, written to
   `--table` (a temporary file by default). Deterministic: the same rows on every run.
2. **The server.** The app of ``paralign serve --table FILE --resources none`` (the engine built
   around the table as ``Engine.load`` builds it, without spaCy, which this route does not use),
   answered in this process through Starlette's TestClient. The table's load times (the rows in
   memory, then :class:`paralign.web.table_rows.TableFile`: what the server's start spends on the
   file beyond its rows) are printed; with ``--memory``, what tracemalloc counts for the rows in
   memory (a second load, slowed several times by tracemalloc).
3. **The requests.** One first request (which builds what the server builds on first use: a
   TSV table's :class:`paralign.web.row_index.RowIndex`, whose bytes are then printed), then
   `--requests` phrases spread over the table, each asked once; the first request's time, the
   median and the maximum wall time are printed.

Run it on two source trees (``PYTHONPATH=/path/to/main/src`` and ``PYTHONPATH=src``) to compare.

Not for: querying a Parquet table from the command line (``benchmarks/table_query.py``) or the
other routes.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path


def _rows(rows: int) -> Iterator[tuple[str, str, float, int, int]]:
    """`rows` rows, four paraphrases of each phrase, in phrase order."""
    for n in range(rows):
        phrase = n // 4
        yield f"phrase {phrase}", f"paraphrase {phrase} {n % 4}", round(0.4 - 0.1 * (n % 4), 2), n % 7 + 1, n % 13 + 2


def write_table(path: Path, rows: int, kind: str = "tsv") -> None:
    """`rows` rows (:func:`_rows`), TSV with a header naming five columns, or Parquet (`kind`),
    its rows sorted by phrase as the pipelines sort them."""
    if kind == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        names = ["phrase", "paraphrase", "probability", "pivots", "support"]
        table = pa.Table.from_pylist([dict(zip(names, row, strict=True)) for row in _rows(rows)])
        pq.write_table(table.sort_by("phrase"), path, row_group_size=10_000)
        return
    with path.open("w", encoding="utf-8") as out:
        out.write("# phrase\tparaphrase\tprobability\tpivots\tsupport\n")
        for row in _rows(rows):
            out.write("\t".join(f"{v:.2f}" if isinstance(v, float) else str(v) for v in row) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--table", type=Path, help="where to write the table (default: a temporary file)")
    parser.add_argument("--format", choices=("tsv", "parquet"), default="tsv", help="the table's format")
    parser.add_argument("--memory", action="store_true", help="also count the rows in memory (tracemalloc, slow)")
    args = parser.parse_args()

    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.paraphrases import load_source
    from paralign.web import Engine, create_app
    from paralign.web.table_rows import TableFile

    with tempfile.TemporaryDirectory() as tmp:
        path = args.table or Path(tmp) / f"big.{args.format}"
        write_table(path, args.rows, args.format)
        start = time.perf_counter()
        source = load_source(str(path))
        loaded = time.perf_counter() - start
        start = time.perf_counter()
        file = TableFile.of(str(path), None)
        indexed = time.perf_counter() - start
        print(f"table: {args.rows:,} rows, {path.stat().st_size / 1e6:.1f} MB; rows in memory {loaded:.2f} s; "
              f"TableFile {indexed:.2f} s")
        if args.memory:
            tracemalloc.start()
            held = load_source(str(path))
            print(f"the rows in memory (tracemalloc): {tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB")
            tracemalloc.stop()
            del held
        engine = Engine({path.name: source}, ParaEval([source]), {}, table_files={path.name: file})
        phrases = [f"Phrase {k * (args.rows // 4) // args.requests}" for k in range(args.requests)]
        times = []
        with TestClient(create_app(engine=engine)) as client:
            start = time.perf_counter()
            client.post("/api/paraphrases", json={"phrase": phrases[0], "table": path.name}).raise_for_status()
            first = time.perf_counter() - start
            index = getattr(file, "index", None)  # a tree without the index: none; built at start or on first use
            index = index() if callable(index) else index
            print(f"first request {first * 1000:.1f} ms; the TSV index {getattr(index, 'nbytes', 0) / 1e6:.2f} MB")
            for phrase in phrases:
                start = time.perf_counter()
                answer = client.post("/api/paraphrases", json={"phrase": phrase, "table": path.name})
                times.append(time.perf_counter() - start)
                answer.raise_for_status()
                assert answer.json()["total"] == 4 and answer.json()["columns"] == ["pivots", "support"], answer.json()
        print(f"{args.requests} requests: median {statistics.median(times) * 1000:.1f} ms, "
              f"max {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
