"""Annotation time by batch size with spaCy's ``n_process`` 1 and 2 (``Annotator.pipe``): where
does a second process start to pay for its start-up?

    python benchmarks/annotate_processes.py [--source msrp|rte2] [--sizes 200,1000,2000,5000,10000]
                                            [--repeat 2] [--json OUT]

Sentences are real: ``msrp`` the texts of MSRP train, val and test in file order (11,602, as
strings: spaCy tokenises them), ``rte2`` the token lists of MSR RTE2 dev and test, sources and
targets (3,200, as ``evaluate-aligner`` gives them). The pipeline is loaded and warmed (256
sentences) in this process first, as in a command that annotates; then for each size the two
settings alternate, ``--repeat`` times each; the report gives the best and the median seconds
of each, sentences/s and the ratio (n_process 2 over 1: below 1 the second process pays). The
load average is printed beside each row: other work on the machine slows both settings, and
two processes most (on 2 cores busy with other work a second process has no core to run on).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.nlp import Annotator  # noqa: E402
from paralign.settings import data_dir  # noqa: E402

MSRP = ("msr-para-train.tsv", "msr-para-val.tsv", "msr-para-test.tsv")
RTE2 = ("RTE2_dev_M.jsonl", "RTE2_test_M.jsonl")


def sentences(source: str, root: Path) -> list:
    """The benchmark's sentences of `source` under the corpora folder `root`, in file order."""
    out: list = []
    if source == "msrp":
        for name in MSRP:
            path = root / "similarity" / "msrp" / name
            with path.open(encoding="utf-8-sig", newline="") as handle:
                rows = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
                next(rows)
                out.extend(cell for row in rows if len(row) == 5 for cell in row[3:5])
    else:
        for name in RTE2:
            path = root / "alignment" / "msr-rte2" / "derived" / name
            for line in path.read_text(encoding="utf-8").splitlines():
                pair = json.loads(line)
                out.extend([pair["source"].split(" "), pair["target"].split(" ")])
    return out


def seconds(annotator: Annotator, items: list, n_process: int) -> float:
    start = time.perf_counter()
    for _ in annotator.pipe(items, n_process=n_process):
        pass
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", choices=("msrp", "rte2"), default="msrp")
    parser.add_argument("--sizes", default="200,1000,2000,5000,10000")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    root = data_dir()
    if root is None:
        print("corpora not found: set PARALIGN_DATA", file=sys.stderr)
        return 2
    items = sentences(args.source, root)
    annotator = Annotator()
    for _ in annotator.pipe(items[:256]):  # load and warm the pipeline in this process, as a command
        pass  # has it before annotating (the first size's one-process run paid for it otherwise)
    print(f"source {args.source} ({len(items)} sentences), batch_size {annotator.batch_size}, "
          f"{os.cpu_count()} CPUs")
    print(f"{'N':>6} {'np=1 best':>9} {'median':>7} {'np=2 best':>9} {'median':>7} "
          f"{'1: sent/s':>9} {'2: sent/s':>9} {'2/1 time':>8} {'load':>5}")
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        batch = items[:size]
        times: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(args.repeat):
            for n in (1, 2):
                times[n].append(seconds(annotator, batch, n))
        one, two = min(times[1]), min(times[2])
        row = {"n": len(batch), "np1": times[1], "np2": times[2], "ratio_best": two / one,
               "load": os.getloadavg()[0]}
        rows.append(row)
        print(f"{len(batch):>6} {one:>9.2f} {statistics.median(times[1]):>7.2f} {two:>9.2f} "
              f"{statistics.median(times[2]):>7.2f} {len(batch) / one:>9.0f} {len(batch) / two:>9.0f} "
              f"{two / one:>8.2f} {row['load']:>5.2f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"source": args.source, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
