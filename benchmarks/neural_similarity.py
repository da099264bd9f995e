"""Neural similarity (issue 19): the plain MiniLM cosine baseline beside paralign's signals on
STS 2012 test and STS 2013, and paraphrase identification on MSRP with and without the
embedding features, all in one run.

* **Baseline**, computed here with transformers directly (not through paralign's signal code):
  sentence-transformers' recipe for all-MiniLM-L6-v2, mean pooling of the last layer over the
  attention mask, L2-normalised, on the raw text; the score is the cosine.
* **paralign**: ``sultan2014`` (the lexical default), ``embedding``, ``contextual-alignment``
  and ``hybrid`` fitted on the STS 2012 training files only (MSRpar.train, SMTeuroparl.train),
  as ``evaluate-sts --signal hybrid --train ... --train ...`` does (the same library calls).
  Every STS file is scored alone; a year's figure is the size-weighted mean.
* **MSRP**: ``evaluate-paraphrase`` with ``--feature-set alignment+mt``, and
  ``alignment+mt+embedding`` with its default fine-tuned cross-encoder and with
  ``--no-cross-encoder`` (train + val to train, test to test; paraphrase preset). The
  cross-encoder fine-tunes with --threads torch threads (2 matches the CLI on a 2-core machine).

    PYTHONPATH=src .venv/bin/python benchmarks/neural_similarity.py \\
        [--out docs/results/neural-similarity.md] [--cache /tmp/paralign-neural-sim] [--threads 1]

Annotated and aligned pairs are cached (pickles keyed by file contents) under --cache, so a
re-run only encodes and scores. Writes the table between the BEGIN/END markers of --out and the
raw figures beside it (.json).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import pickle
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from paralign.aligners.batch import AlignedBatch, align_pairs
from paralign.aligners.registry import get_aligner
from paralign.alignment import AlignFunction
from paralign.corpora.msrp import load_msrp
from paralign.corpora.sts import load_sts
from paralign.neural.cross_encoder import FineTuning
from paralign.settings import data_dir
from paralign.similarity import (
    DEFAULT_THRESHOLD_RULE,
    evaluate_feature_rows,
    make_signal,
    map_aligned,
    score_aligned,
    sts_from_scores,
    weighted_mean,
)
from paralign.similarity.features import (
    CROSS_ENCODER_SETS,
    FEATURE_SET_L2,
    FEATURE_SETS,
    pair_features,
    prepare_features,
)
from paralign.similarity.hybrid import HYBRID_POOL, HybridSignal, fit_hybrid, signal_rows
from paralign.similarity.paraphrase import blend_cross_encoder

YEARS = {
    "STS 2012 test": ["2012/MSRpar.test.tsv", "2012/OnWN.test.tsv", "2012/SMTeuroparl.test.tsv",
                      "2012/SMTnews.test.tsv"],
    "STS 2013": ["2013/headlines.test.tsv", "2013/OnWN.test.tsv", "2013/FNWN.test.tsv"],
}
TRAIN = ["2012/MSRpar.train.tsv", "2012/SMTeuroparl.train.tsv"]
SIGNALS = ("sultan2014", "embedding", "contextual-alignment", "hybrid")
BEGIN, END = "<!-- BEGIN neural_similarity.py -->", "<!-- END neural_similarity.py -->"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def aligned(pairs: Sequence[tuple[str, str]], aligner: AlignFunction | None, label: str,
            cache: Path | None) -> AlignedBatch:
    """Annotate and align `pairs` (the library's default Sultan options or a preset), cached."""
    key = None
    if cache is not None:
        digest = hashlib.sha1(("\n".join(a + "\t" + b for a, b in pairs) + label).encode()).hexdigest()
        key = cache / f"{digest}.pkl"
        if key.exists():
            return pickle.loads(key.read_bytes())
    batch = align_pairs(pairs, aligner=aligner)
    if key is not None:
        key.parent.mkdir(parents=True, exist_ok=True)
        key.write_bytes(pickle.dumps(batch))
    return batch


def baseline_cosines(pairs: Sequence[tuple[str, str]]) -> list[float]:
    """sentence-transformers' all-MiniLM-L6-v2 cosine, computed with transformers directly."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from paralign.neural import model_directory

    directory = model_directory()
    tokenizer = AutoTokenizer.from_pretrained(directory, local_files_only=True)
    model = AutoModel.from_pretrained(directory, local_files_only=True).eval()

    def encode(texts: list[str]) -> torch.Tensor:
        out = []
        for start in range(0, len(texts), 32):
            batch = tokenizer(texts[start:start + 32], padding=True, truncation=True, max_length=256,
                              return_tensors="pt")
            with torch.inference_mode():
                hidden = model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).float()
            out.append(torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=1))
        return torch.cat(out)

    a, b = encode([p[0] for p in pairs]), encode([p[1] for p in pairs])
    return [float(x) for x in (a * b).sum(1)]


def sts_part(root: Path, cache: Path | None, results: dict) -> None:
    """Every STS test file: the baseline and paralign's signals; the hybrid fitted on TRAIN."""
    train_groups = []
    pool = [make_signal(name) for name in HYBRID_POOL]
    t0 = time.perf_counter()
    for name in TRAIN:
        pairs = load_sts(root / name).pairs
        batch = aligned([(p.sentence1, p.sentence2) for p in pairs], None, "sultan:default", cache)
        rows = signal_rows(batch, pool)
        usable = [(row, p.score) for row, p in zip(rows, pairs, strict=True) if row is not None]
        train_groups.append(([r for r, _ in usable], [g for _, g in usable]))
    model = fit_hybrid(train_groups, HYBRID_POOL, names=[Path(n).name for n in TRAIN])
    results["hybrid"] = model.to_dict()
    results["timing"]["hybrid fit s"] = time.perf_counter() - t0
    log(f"hybrid fitted: {model.signals} l2 {model.l2}")
    signals = {name: (HybridSignal(model) if name == "hybrid" else make_signal(name)) for name in SIGNALS}
    for year, files in YEARS.items():
        for name in files:
            pairs = load_sts(root / name).pairs
            gold = [p.score for p in pairs]
            texts = [(p.sentence1, p.sentence2) for p in pairs]
            batch = aligned(texts, None, "sultan:default", cache)
            row = {"year": year, "pairs": len(pairs),
                   "baseline": sts_from_scores(baseline_cosines(texts), gold).pearson}
            for label, signal in signals.items():
                scored = score_aligned(batch, signal)
                row[label] = sts_from_scores(scored.scores, gold, scored.failures, label).pearson
            results["sts"][name] = row
            log(f"{name}: " + ", ".join(f"{k} {v:.4f}" for k, v in row.items() if isinstance(v, float)))
        for column in ("baseline", *SIGNALS):
            values = [(r[column], r["pairs"]) for f, r in results["sts"].items() if f in files]
            results["years"].setdefault(year, {})[column] = weighted_mean(values)


def msrp_part(root: Path, cache: Path | None, results: dict) -> None:
    """evaluate-paraphrase's features classifier with and without the embedding features."""
    train = load_msrp(root / "msrp/msr-para-train.tsv", root / "msrp/msr-para-val.tsv")
    test = load_msrp(root / "msrp/msr-para-test.tsv")
    aligner = get_aligner("sultan", "paraphrase")
    batches = {split: aligned([(p.sentence1, p.sentence2) for p in data.pairs], aligner, "sultan:paraphrase", cache)
               for split, data in (("train", train), ("test", test))}
    names = FEATURE_SETS["alignment+mt+embedding"]
    t0 = time.perf_counter()
    featurise = functools.partial(pair_features, features=names)
    rows = {}
    for split, batch in batches.items():  # every feature once; each set reads its columns
        prepare_features(batch.items, names)
        rows[split], _ = map_aligned(batch, featurise, "features")
    results["timing"]["msrp features s"] = time.perf_counter() - t0
    for feature_set in ("alignment+mt", "alignment+mt+embedding"):
        columns = [names.index(name) for name in FEATURE_SETS[feature_set]]

        def pick(split: str, columns: list[int] = columns) -> list:
            return [None if r is None else [r[c] for c in columns] for r in rows[split]]

        ev = evaluate_feature_rows(pick("train"), train.labels, pick("test"), test.labels, DEFAULT_THRESHOLD_RULE, 0,
                                   FEATURE_SET_L2[feature_set],
                                   FEATURE_SETS[feature_set])
        name = f"{feature_set} --no-cross-encoder" if feature_set in CROSS_ENCODER_SETS else feature_set
        results["msrp"][name] = _msrp_row(ev, FEATURE_SET_L2[feature_set])
        log(f"MSRP {name}: accuracy {ev.test.accuracy:.4f} f1 {ev.test.f1:.4f}")
        if feature_set in CROSS_ENCODER_SETS:  # the set's default: blended with a fine-tuned cross-encoder
            t1 = time.perf_counter()
            blended = blend_cross_encoder(ev, (batches["train"], pick("train"), train.labels),
                                          (batches["test"], pick("test"), test.labels), FineTuning(), rule="half")
            results["timing"]["msrp cross-encoder s"] = time.perf_counter() - t1
            results["msrp"][feature_set] = _msrp_row(blended, FEATURE_SET_L2[feature_set])
            results["msrp"][feature_set]["rule"] = blended.rule
            log(f"MSRP {feature_set} (cross-encoder): accuracy {blended.test.accuracy:.4f} f1 {blended.test.f1:.4f}")


def _msrp_row(ev, l2: float) -> dict:
    return {"accuracy": ev.test.accuracy, "f1": ev.test.f1, "precision": ev.test.precision,
            "recall": ev.test.recall, "threshold": ev.threshold, "l2": l2}


def render(results: dict) -> str:
    cols = ("baseline", *SIGNALS)
    head = "| file | pairs | MiniLM cosine (baseline) | " + " | ".join(f"`{c}`" for c in SIGNALS) + " |"
    lines = [head, "|---|---:|" + "---:|" * len(cols)]
    for year, files in YEARS.items():
        for name in files:
            r = results["sts"][name]
            lines.append(f"| {name} | {r['pairs']} | " + " | ".join(f"{r[c]:.4f}" for c in cols) + " |")
        y = results["years"][year]
        size = sum(results["sts"][f]["pairs"] for f in files)
        lines.append(f"| **{year}** (weighted) | {size} | " + " | ".join(f"**{y[c]:.4f}**" for c in cols) + " |")
    lines += ["", "| MSRP test | accuracy | F1 | precision | recall |", "|---|---:|---:|---:|---:|"]
    for name, r in results["msrp"].items():
        lines.append(f"| `--feature-set {name}` | {100 * r['accuracy']:.2f} | {100 * r['f1']:.2f} | "
                     f"{100 * r['precision']:.2f} | {100 * r['recall']:.2f} |")
    model = results["hybrid"]
    blend = " + ".join(f"{s['weight']:.3f}·`{s['name']}`" for s in model["signals"])
    lines += ["", f"Hybrid chosen on the training files: {blend} (standardised signals, l2 {model['l2']:g}; "
              f"one-standard-error rule, tolerance {model.get('tolerance', 0.0):.4f})."]
    return "\n".join(lines)


def write_block(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else f"{BEGIN}\n{END}\n"
    head, _, rest = old.partition(BEGIN)
    _, _, tail = rest.partition(END)
    path.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/results/neural-similarity.md")
    parser.add_argument("--cache", default=None, help="folder for pickled aligned pairs")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default: %(default)s)")
    parser.add_argument("--skip-msrp", action="store_true")
    args = parser.parse_args(argv)
    data = data_dir()
    if data is None:
        print("corpora not found: set PARALIGN_DATA", file=sys.stderr)
        return 2
    import torch

    torch.set_num_threads(args.threads)
    root = data / "similarity"
    cache = Path(args.cache) if args.cache else None
    results: dict = {"sts": {}, "years": {}, "msrp": {}, "timing": {}}
    t0 = time.perf_counter()
    sts_part(root / "sts", cache, results)
    if not args.skip_msrp:
        msrp_part(root, cache, results)
    results["timing"]["total s"] = time.perf_counter() - t0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write_block(out, render(results))
    log(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
