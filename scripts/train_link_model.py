"""Fit the contextual aligner's link classifier and write src/paralign/data/contextual_links.json.

    PYTHONPATH=src .venv/bin/python scripts/train_link_model.py [--cache DIR] [--out FILE]

Training data: the training splits only, never a test split: MSR RTE2 dev (majority, sure
links), Edinburgh++ train (sure links) and MultiMWA-MTRef train (whose possible links were
merged into sure by the corpus). Every pair is annotated (spaCy), encoded (MiniLM, layer
`LAYER`), aligned by the two lexical pipelines, and its candidate links described by
`paralign.aligners.contextual.features` exactly as the aligner does at run time.

Fitting: scikit-learn's HistGradientBoostingClassifier with fixed settings and seeds; each
dataset weighs the same in total (sample weights), so the 2398 MTRef pairs do not drown the 800
MSR pairs. A fifth of each dataset's pairs (fixed seed) is held out: the decision threshold is
the one with the best mean macro F1 of the three held-out parts. The model is then refitted on
all training pairs with that threshold, its trees exported to JSON (evaluated by numpy at run
time, checked here against scikit-learn's own predictions). Deterministic: the same data give
the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.aligners.contextual import ContextualAligner, LinkModel  # noqa: E402
from paralign.aligners.contextual.features import FEATURES  # noqa: E402
from paralign.aligners.contextual.linkmodel import FORMAT, MODEL_FILE  # noqa: E402
from paralign.aligners.evaluation import load_gold  # noqa: E402
from paralign.alignment import Alignment  # noqa: E402
from paralign.metrics.alignment_scores import score_alignments  # noqa: E402
from paralign.settings import data_dir  # noqa: E402

#: name -> path under the data folder (training splits only).
TRAIN_SETS: dict[str, str] = {
    "msr-dev": "alignment/msr-rte2/derived/RTE2_dev_M.jsonl",
    "edb-train": "alignment/edinburgh-pp/gold/gold.train.sure+poss.json",
    "mtref-train": "alignment/multimwa-mtref/mtref-train.tsv",
}
#: Encoder layer (chosen on the training splits: docs/results/contextual-aligner.md), candidates
#: per word and direction, and the final pass's similarity threshold.
LAYER, TOP_K, FINAL_THRESHOLD = 3, 3, 0.5
#: The classifier's settings (fixed, not searched on test data).
PARAMS = {"max_iter": 300, "learning_rate": 0.08, "max_leaf_nodes": 15, "min_samples_leaf": 40,
          "l2_regularization": 1.0, "random_state": 0}
HOLDOUT, SEED = 0.2, 0


def untrained_aligner() -> ContextualAligner:
    """A contextual aligner whose model has no trees yet (only the settings features need)."""
    model = LinkModel.from_dict({
        "format": FORMAT, "features": list(FEATURES), "baseline": 0.0, "depth": 0, "threshold": 0.5,
        "trees": [{"feature": [0], "threshold": [0.0], "left": [0], "right": [0], "value": [0.0]}],
        "settings": {"layer": LAYER, "top_k": TOP_K, "final_threshold": FINAL_THRESHOLD},
    })
    return ContextualAligner(device="cpu", model=model)


def set_features(aligner: ContextualAligner, name: str, cache: Path | None) -> dict:
    """Features, labels, pair numbers and links of every candidate of a training set."""
    path = cache / f"{name}-L{LAYER}-k{TOP_K}.npz" if cache else None
    gold = load_gold(data_dir() / TRAIN_SETS[name])
    if path is not None and path.is_file():
        data = dict(np.load(path))
        data["gold"] = [p.alignment for p in gold]
        return data
    start = time.perf_counter()
    flat = [x for p in gold for x in (list(p.source), list(p.target))]
    sentences = aligner.annotate(flat)
    encoded = aligner.encoder.encode(sentences)
    xs, ys, groups, links = [], [], [], []
    for k, pair in enumerate(gold):
        a, b = encoded[2 * k].matrix, encoded[2 * k + 1].matrix
        a = a / np.linalg.norm(a, axis=1, keepdims=True)
        b = b / np.linalg.norm(b, axis=1, keepdims=True)
        evidence = aligner.evidence(sentences[2 * k], sentences[2 * k + 1], (a @ b.T).astype(np.float64))
        found, x = aligner.scored_links(evidence)
        xs.append(x)
        ys.append(np.array([link in pair.alignment.sure for link in found], dtype=bool))
        groups.append(np.full(len(found), k))
        links.extend(found)
    data = {"x": np.concatenate(xs), "y": np.concatenate(ys), "group": np.concatenate(groups),
            "links": np.array(links, dtype=np.int32)}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **data)
    print(f"{name}: {len(gold)} pairs, {len(data['y'])} candidates "
          f"({time.perf_counter() - start:.0f}s)", file=sys.stderr)
    data["gold"] = [p.alignment for p in gold]
    return data


def macro_f1(data: dict, pairs: np.ndarray, probability: np.ndarray, rows: np.ndarray,
             threshold: float) -> float:
    """Macro F1 (sure links) of `pairs` when the candidate `rows` with probability >= threshold are kept."""
    kept: dict[int, set] = {int(k): set() for k in pairs}
    for row, p in zip(rows, probability, strict=True):
        if p >= threshold:
            kept[int(data["group"][row])].add(tuple(int(v) for v in data["links"][row]))
    system = [Alignment(frozenset(kept[int(k)])) for k in pairs]
    return score_alignments([data["gold"][int(k)] for k in pairs], system, "sure").macro.f1


def export(clf, threshold: float, provenance: dict) -> dict:
    """The JSON form of a fitted HistGradientBoostingClassifier (binary)."""
    trees = []
    depth = 0
    for (predictor,) in clf._predictors:
        nodes = predictor.nodes
        leaf = nodes["is_leaf"].astype(bool)
        index = np.arange(len(nodes))
        trees.append({
            "feature": np.where(leaf, 0, nodes["feature_idx"]).tolist(),
            "threshold": [float(v) for v in np.where(leaf, np.inf, nodes["num_threshold"])],
            "left": np.where(leaf, index, nodes["left"]).tolist(),
            "right": np.where(leaf, index, nodes["right"]).tolist(),
            "value": [round(float(v), 10) if is_leaf else 0.0 for v, is_leaf in zip(nodes["value"], leaf, strict=True)],
        })
        depth = max(depth, int(nodes["depth"].max()))
    for tree in trees:  # JSON has no infinity: a leaf's threshold is never read (it points to itself)
        tree["threshold"] = [0.0 if not np.isfinite(v) else v for v in tree["threshold"]]
    return {
        "format": FORMAT, "features": list(FEATURES),
        "baseline": float(np.ravel(clf._baseline_prediction)[0]), "depth": depth,
        "threshold": threshold, "trees": trees,
        "settings": {"layer": LAYER, "top_k": TOP_K, "final_threshold": FINAL_THRESHOLD},
        "training": provenance,
    }


def main() -> int:  # long: the whole fitting procedure, step by step
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=None, help="folder for per-set feature caches")
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "paralign" / "data" / MODEL_FILE)
    args = parser.parse_args()
    from sklearn import __version__ as sklearn_version
    from sklearn.ensemble import HistGradientBoostingClassifier

    aligner = untrained_aligner()
    sets = {name: set_features(aligner, name, args.cache) for name in TRAIN_SETS}
    rng = np.random.default_rng(SEED)
    held: dict[str, np.ndarray] = {}
    fit_rows, weights, fit_all, weights_all = [], [], [], []
    offset = 0
    for name, data in sets.items():
        n = len(data["gold"])
        order = rng.permutation(n)
        held[name] = np.sort(order[: int(round(HOLDOUT * n))])
        in_held = np.isin(data["group"], held[name])
        fit_rows.append(offset + np.nonzero(~in_held)[0])
        weights.append(np.full(int((~in_held).sum()), 1.0 / max(1, int((~in_held).sum()))))
        fit_all.append(offset + np.arange(len(data["y"])))
        weights_all.append(np.full(len(data["y"]), 1.0 / len(data["y"])))
        offset += len(data["y"])
    x = np.concatenate([d["x"] for d in sets.values()])
    y = np.concatenate([d["y"] for d in sets.values()])
    rows, w = np.concatenate(fit_rows), np.concatenate(weights)
    clf = HistGradientBoostingClassifier(**PARAMS).fit(x[rows], y[rows], sample_weight=w * len(w))
    grid = [round(t, 2) for t in np.arange(0.2, 0.81, 0.02)]
    scores: dict[float, dict[str, float]] = {t: {} for t in grid}
    offset = 0
    for name, data in sets.items():
        held_rows = np.nonzero(np.isin(data["group"], held[name]))[0]
        p = clf.predict_proba(x[offset + held_rows])[:, 1]
        for t in grid:
            scores[t][name] = macro_f1(data, held[name], p, held_rows, t)
        offset += len(data["y"])
    threshold = max(grid, key=lambda t: (round(float(np.mean(list(scores[t].values()))), 9), -abs(t - 0.5)))
    print(f"threshold {threshold}: held-out macro F1 "
          + ", ".join(f"{k} {100 * v:.2f}" for k, v in scores[threshold].items()), file=sys.stderr)
    rows, w = np.concatenate(fit_all), np.concatenate(weights_all)
    final = HistGradientBoostingClassifier(**PARAMS).fit(x[rows], y[rows], sample_weight=w * len(w))
    provenance = {
        "script": "scripts/train_link_model.py", "sklearn": sklearn_version, "params": PARAMS,
        "sets": {name: {"path": TRAIN_SETS[name], "pairs": len(d["gold"]), "candidates": len(d["y"]),
                        "positives": int(d["y"].sum())} for name, d in sets.items()},
        "holdout": HOLDOUT, "seed": SEED,
        "heldout_macro_f1": {k: round(100 * v, 3) for k, v in scores[threshold].items()},
    }
    model_json = export(final, threshold, provenance)
    check = LinkModel.from_dict(model_json).probability(x[:5000])
    expected = final.predict_proba(x[:5000])[:, 1]
    assert np.abs(check - expected).max() < 1e-6, np.abs(check - expected).max()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model_json, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB, {len(model_json['trees'])} trees)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
