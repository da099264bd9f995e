"""The contextual aligner against its baselines on the test splits, and its speed (issue 19).

    flock /work/scratch/bench.lock env PYTHONPATH=src .venv/bin/python benchmarks/contextual_aligner.py \
        [--sets msr-test,edb-test,mtref-test,mtref-test-sp] [--speed-workers 1,2] [--json FILE]

In one run, on each test set (macro P/R/F1 as `paralign evaluate-aligner` reports it):

- the MiniLM mutual-argmax baseline (SimAlign style: layer 3 word vectors of the gold tokens,
  a link where each word is the other's most similar word);
- the Sultan aligner, default preset (what paralign gave before);
- the contextual preset, through the same library call as
  `paralign evaluate-aligner --preset contextual --gold G [--gold-links sure+possible]`.

Speed: MSR RTE2 test, CPU, parse + encode + align end to end (evaluate_aligner's
pairs_per_second, models loaded beforehand), for each worker count, beside the Sultan aligner's
in the same run. Take the lock: other timed runs must not overlap.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.aligners.contextual import ContextualAligner  # noqa: E402
from paralign.aligners.evaluation import evaluate_aligner, evaluate_aligner_pairs, load_gold  # noqa: E402
from paralign.aligners.sultan import Aligner  # noqa: E402
from paralign.alignment import Alignment  # noqa: E402
from paralign.metrics.alignment_scores import ScoresDict, score_alignments  # noqa: E402
from paralign.neural import Encoder  # noqa: E402
from paralign.settings import data_dir  # noqa: E402

SETS: dict[str, tuple[str, str]] = {  # name -> (path under the data folder, links)
    "msr-test": ("alignment/msr-rte2/derived/RTE2_test_M.jsonl", "sure"),
    "edb-test": ("alignment/edinburgh-pp/gold/gold.test.sure.json", "sure"),
    "mtref-test": ("alignment/multimwa-mtref/mtref-test.tsv", "sure"),
    "mtref-test-sp": ("alignment/multimwa-mtref/mtref-test.tsv", "sure+possible"),
}
BASELINE_LAYER = 3


class Report(TypedDict):
    """What --json writes."""

    torch_threads: int
    cpus: int | None
    load_average_at_start: tuple[float, float, float]
    accuracy: dict
    speed: dict
    load_average_at_end: tuple[float, float, float]


def mutual_argmax(encoder: Encoder, pairs: list) -> list[Alignment]:
    """SimAlign's argmax method: links where each word is the other's most similar (cosine)."""
    encoded = encoder.encode([x for p in pairs for x in (list(p.source), list(p.target))])
    out = []
    for k in range(len(pairs)):
        a, b = encoded[2 * k].matrix, encoded[2 * k + 1].matrix
        sim = (a / np.linalg.norm(a, axis=1, keepdims=True)) @ (b / np.linalg.norm(b, axis=1, keepdims=True)).T
        rows, cols = sim.argmax(axis=1), sim.argmax(axis=0)
        out.append(Alignment(frozenset((i, int(j)) for i, j in enumerate(rows) if cols[j] == i)))
    return out


def scores(result: ScoresDict) -> dict:
    """Macro P/R/F1 in percent (4 decimals), as evaluate-aligner's macro fractions x 100."""
    macro = result["macro"]
    return {key: round(100 * macro[key], 4) for key in ("precision", "recall", "f1")}


def accuracy(root: Path, sets: list[str], contextual: ContextualAligner, lexical: Aligner) -> dict:
    """Each set scored; a gold file scored under two link sets is aligned once (evaluate_aligner's
    alignments of it rescored, as `--gold-links sure+possible` would score them)."""
    encoder = Encoder(device="cpu", word_layer=BASELINE_LAYER, sentence_layer=BASELINE_LAYER)
    rows: dict = {}
    aligned: dict = {}
    for name in sets:
        path, links = SETS[name]
        gold_path = root / path
        gold = load_gold(gold_path)
        gold_links = [p.alignment for p in gold]
        if path not in aligned:
            aligned[path] = {
                "minilm_mutual_argmax": mutual_argmax(encoder, gold),
                **{label: [r.system for r in evaluate_aligner_pairs(aligner, gold_path, links).pairs]
                   for label, aligner in (("sultan_default", lexical), ("contextual", contextual))},
            }
        rows[name] = {"links": links, "pairs": len(gold), "gold": path}
        for label, system in aligned[path].items():
            rows[name][label] = scores(score_alignments(gold_links, system, links).to_dict())
        print(name, json.dumps(rows[name]), file=sys.stderr, flush=True)
    return rows


def speed(root: Path, workers: list[int], contextual: ContextualAligner, lexical: Aligner) -> dict:
    gold_path = root / SETS["msr-test"][0]
    out = {}
    for n in workers:
        row: dict[str, Any] = {}  # the aligners' timings, and the ratio of their speeds
        for label, aligner in (("sultan_default", lexical), ("contextual", contextual)):
            start = time.perf_counter()
            result = evaluate_aligner(aligner, gold_path, "sure", workers=n)
            row[label] = {"pairs_per_second": result["pairs_per_second"],
                          "annotate_seconds": result["annotate_seconds"],
                          "align_seconds": result["align_seconds"],
                          "wall_seconds": round(time.perf_counter() - start, 1)}
        row["ratio"] = round(row["contextual"]["pairs_per_second"] / row["sultan_default"]["pairs_per_second"], 3)
        out[f"workers={n}"] = row
        print(f"workers={n}", json.dumps(row), file=sys.stderr, flush=True)
    return out


def markdown(rows: dict) -> str:
    lines = ["| data | links | MiniLM mutual argmax (L3) | Sultan default | contextual P / R / F1 |",
             "|---|---|---|---|---|"]
    for name, row in rows.items():
        c = row["contextual"]
        lines.append(f"| {name} | {row['links']} | {row['minilm_mutual_argmax']['f1']:.2f} | "
                     f"{row['sultan_default']['f1']:.2f} | {c['precision']:.2f} / {c['recall']:.2f} / "
                     f"**{c['f1']:.2f}** |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--speed-workers", default="1,2", help="worker counts to time ('' for none)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    root = data_dir()
    if root is None:
        raise SystemExit("corpora not found: set PARALIGN_DATA")
    import torch

    contextual, lexical = ContextualAligner(device="cpu"), Aligner()
    threads, cpus, load_at_start = torch.get_num_threads(), os.cpu_count(), os.getloadavg()
    sets = [s for s in args.sets.split(",") if s]
    rows = accuracy(root, sets, contextual, lexical) if sets else {}
    workers = [int(w) for w in args.speed_workers.split(",") if w]
    timings = speed(root, workers, contextual, lexical) if workers else {}
    report: Report = {"torch_threads": threads, "cpus": cpus, "load_average_at_start": load_at_start,
                      "accuracy": rows, "speed": timings, "load_average_at_end": os.getloadavg()}
    if report["accuracy"]:
        print(markdown(report["accuracy"]))
    print(json.dumps(report["speed"], indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
