"""How long ``POST /api/paraphrases`` takes on a large TSV table of more than three columns, and
what the server keeps for it beyond the table in memory.

    PYTHONPATH=src python benchmarks/serve_table_rows.py [--rows 200000] [--requests 50] [--table FILE]

1. **The table.** `--rows` rows of a pivot-like TSV table with a header (``# phrase TAB
   paraphrase TAB probability TAB pivots TAB support``) and no ``# paralign:`` record (a
   user's table, matched without case), four paraphrases a phrase, written to `--table` (a
   temporary file by default). Deterministic: the same rows on every run.
2. **The server.** The app of ``paralign serve --table FILE --resources none`` (the engine built
   around the table as ``Engine.load`` builds it, without spaCy, which this route does not use),
   answered in this process through Starlette's TestClient. The table's load times (the rows in
   memory, then :class:`paralign.web.table_rows.TableFile`) and the bytes of the TSV index
   (:class:`paralign.web.row_index.RowIndex`) are printed; with ``--memory``, what tracemalloc
   counts for the rows in memory (a second load, slowed several times by tracemalloc).
3. **The requests.** `--requests` phrases spread over the table, each asked once after one
   warm-up request; the median and the maximum wall time are printed.

Run it on two source trees (``PYTHONPATH=/path/to/main/src`` and ``PYTHONPATH=src``) to compare.

Not for: Parquet tables (``benchmarks/table_query.py``) or the other routes.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path


def write_table(path: Path, rows: int) -> None:
    """`rows` rows, four paraphrases of each phrase, with a header naming five columns."""
    with path.open("w", encoding="utf-8") as out:
        out.write("# phrase\tparaphrase\tprobability\tpivots\tsupport\n")
        for n in range(rows):
            phrase = n // 4
            out.write(f"phrase {phrase}\tparaphrase {phrase} {n % 4}\t{0.4 - 0.1 * (n % 4):.2f}\t{n % 7 + 1}\t{n % 13 + 2}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--table", type=Path, help="where to write the table (default: a temporary file)")
    parser.add_argument("--memory", action="store_true", help="also count the rows in memory (tracemalloc, slow)")
    args = parser.parse_args()

    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.paraphrases import load_source
    from paralign.web import Engine, create_app
    from paralign.web.table_rows import TableFile

    with tempfile.TemporaryDirectory() as tmp:
        path = args.table or Path(tmp) / "big.tsv"
        write_table(path, args.rows)
        start = time.perf_counter()
        source = load_source(str(path))
        loaded = time.perf_counter() - start
        start = time.perf_counter()
        file = TableFile.of(str(path), None)
        indexed = time.perf_counter() - start
        index_bytes = getattr(getattr(file, "index", None), "nbytes", 0)  # a tree without the index: none
        print(f"table: {args.rows:,} rows, {path.stat().st_size / 1e6:.1f} MB; rows in memory {loaded:.2f} s; "
              f"TableFile {indexed:.2f} s, its index {index_bytes / 1e6:.2f} MB")
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
            client.post("/api/paraphrases", json={"phrase": phrases[0], "table": path.name}).raise_for_status()
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
