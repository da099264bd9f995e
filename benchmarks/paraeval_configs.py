"""Choosing ParaEval's graded config on WMT21 de-en only, and its ablation on all three pairs.

Per-segment statistics are computed once per *alignment* (tiers, max length, contextual
threshold: what changes which words match) and cached as .npz (`--cache`); weights, delta,
alpha, beta and gamma act on the cached statistics (graded.score_parts), so the search never
re-aligns. The search runs on de-en (reference A) only: a coarse grid over alpha, beta, gamma and
delta, then the tier weights, maximising DARR tau (WMT, ties discordant) + segment Pearson +
the system Pearson. cs-en and ru-en are only scored with the chosen values (held out).

The ablation table: the chosen config, then one piece removed at a time (each tier, graded
weights, delta, the recall weighting, the fragmentation penalty), each re-aligned where the piece
changes the alignment; system Pearson, segment DARR tau (with ties) and Pearson per pair.

`refine` (used for the contextual config): from a config, on de-en only, the highest segment
Pearson whose DARR tau (with --keep-system also the system Pearson) is not below the starting
config's.

Usage: python benchmarks/paraeval_configs.py search [--config contextual]
       python benchmarks/paraeval_configs.py refine --config contextual [--keep-system]
       python benchmarks/paraeval_configs.py ablation [--pairs cs-en,de-en,ru-en]
                  [--out docs/results/paraeval-configs.md]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import stats as sps

from paralign.corpora.wmt import load_wmt
from paralign.metrics.paraeval.configs import CONFIGS, Config
from paralign.metrics.paraeval.graded import COLUMNS, GradedParaEval, score_parts
from paralign.metrics.segment_correlation import (
    darr_statistics,
    darr_tau,
    judged_segments,
    pearson_from_sums,
    pearson_statistics,
)

_DATA: dict[str, tuple] = {}


def pair_data(pair: str) -> tuple:
    """(WMTPair with segment scores, JudgedSegments) of a pair, loaded once."""
    if pair not in _DATA:
        data = load_wmt(None, pair, segments=True)
        _DATA[pair] = (data, judged_segments(data.segment_scores, data.systems, len(data)))
    return _DATA[pair]


def alignment_key(config: Config) -> str:
    synonyms = "" if config.synonyms == "lemma" else f"|syn:{config.synonyms}"  # keeps older caches' keys
    text = f"{config.tiers}|{config.max_length}|{config.resources}|{config.threshold}{synonyms}|v3"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def pair_stats(pair: str, config: Config, cache: Path) -> dict[str, np.ndarray]:
    """system -> (segments, len(COLUMNS)) statistics against reference A, cached on disk."""
    path = cache / f"{pair}-{alignment_key(config)}.npz"
    if path.is_file():
        with np.load(path) as saved:
            return {name: saved[name] for name in saved.files}
    data, _ = pair_data(pair)
    scorer = GradedParaEval(config)
    refs = data.reference_streams(["A"])
    start = time.perf_counter()
    out = {name: scorer.segment_stats(hyps, refs) for name, hyps in data.systems.items()}
    print(f"  aligned {pair} {'+'.join(config.tiers)} in {time.perf_counter() - start:.0f} s",
          file=sys.stderr, flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **out)  # type: ignore[arg-type]  # numpy's stub lets **out fill allow_pickle: bool; its keys are system names
    return out


def evaluate(pair: str, stats: dict[str, np.ndarray], config: Config) -> dict[str, float]:
    """System Pearson, segment DARR tau (ties discordant), its ties, segment Pearson."""
    data, judged = pair_data(pair)
    names = list(judged.systems)
    corpus = [float(score_parts(stats[n].sum(axis=0), config, "system")["score"]) for n in names]
    human = [data.human[n].z for n in names]
    matrix = score_parts(np.stack([stats[n] for n in names]), config)["score"]
    points = matrix[judged.system, judged.line]
    darr = darr_statistics(judged, points).sum(axis=0)
    return {"system": float(sps.pearsonr(corpus, human)[0]),
            "tau": float(darr_tau(darr)), "ties": int(darr[2]),
            "pearson": float(pearson_from_sums(pearson_statistics(judged, points).sum(axis=0)))}


def objective(m: dict[str, float]) -> float:
    return m["tau"] + m["pearson"] + m["system"]


def search(base: Config, cache: Path) -> Config:
    """Coarse grids on de-en: alpha/beta/gamma/delta, then the tier weights, then again."""
    stats = pair_stats("de-en", base, cache)
    grids = [
        {"alpha": (0.5, 0.7, 0.8, 0.85, 0.9, 0.95), "beta": (0.2, 0.5, 1.0, 2.0, 3.0),
         "gamma": (0.0, 0.2, 0.4, 0.6), "delta": (0.5, 0.65, 0.75, 0.85, 1.0)},
        {"system_alpha": (0.8, 0.9, 0.95, 1.0), "system_beta": (0.5, 1.0, 2.0),
         "system_gamma": (0.0, 0.2, 0.4), "system_delta": (0.5, 0.65, 0.75, 0.85)},
        {"stem": (0.4, 0.6, 0.8, 1.0), "synonym": (0.4, 0.6, 0.8, 1.0),
         "paraphrase": (0.2, 0.4, 0.6, 0.8, 1.0)}
        | ({"contextual": (0.4, 0.6, 0.8, 1.0)} if "contextual" in base.tiers else {}),
    ]
    return _coordinate_search(base, grids, objective, stats)


def refine(base: Config, cache: Path, keep_system: bool = False) -> Config:
    """On de-en only: the highest segment Pearson whose DARR tau (and with `keep_system` the
    system Pearson) is not below `base`'s (segment-level alpha/beta/gamma/delta, then the tier
    weights, twice; the system-level parameters as they are)."""
    stats = pair_stats("de-en", base, cache)
    start = evaluate("de-en", stats, base)
    grids = [
        {"alpha": (0.7, 0.75, 0.8, 0.85, 0.9, 0.95), "beta": (0.1, 0.2, 0.3, 0.5),
         "gamma": (0.2, 0.3, 0.4, 0.5, 0.6), "delta": (0.55, 0.6, 0.65, 0.7, 0.75)},
        {"stem": (0.8, 0.9, 1.0), "synonym": (0.4, 0.5, 0.6, 0.7, 0.8),
         "paraphrase": (0.6, 0.7, 0.8, 0.9, 1.0)}
        | ({"contextual": (0.6, 0.7, 0.8, 0.9, 1.0)} if "contextual" in base.tiers else {}),
    ]

    def value(m: dict[str, float]) -> float | None:
        """Segment Pearson, where tau (and with keep_system the system Pearson) holds."""
        if m["tau"] < start["tau"] or (keep_system and m["system"] < start["system"]):
            return None
        return m["pearson"]

    return _coordinate_search(base, grids, value, stats)


def _coordinate_search(base: Config, grids: list[dict], value: Callable[[dict[str, float]], float | None],
                       stats: dict[str, np.ndarray]) -> Config:
    """Each grid in turn, twice, from the best config so far: the candidate of highest
    `value(metrics on de-en)` (None: not allowed) replaces it."""
    best = base
    best_value = value(evaluate("de-en", stats, base))
    for _round in range(2):
        for grid in grids:
            keys = list(grid)
            for values in itertools.product(*(grid[k] for k in keys)):
                changes = dict(zip(keys, values, strict=True))
                weights = {k: v for k, v in changes.items() if k in dict(best.weights)}
                params = {k: v for k, v in changes.items() if k not in weights}
                candidate = best.with_(weights=weights, **params)
                got = value(evaluate("de-en", stats, candidate))
                if got is not None and (best_value is None or got > best_value + 1e-9):
                    best, best_value = candidate, got
            print(f"  {best.settings()}  value {best_value}", file=sys.stderr, flush=True)
    return best


def variants(chosen: Config) -> list[tuple[str, Config]]:
    """The chosen config, then each piece taken away."""
    out = [("chosen", chosen)]
    for tier in ("stem", "synonym", "paraphrase", "contextual"):
        if tier in chosen.tiers:
            out.append((f"− {tier} tier", chosen.with_(tiers=tuple(t for t in chosen.tiers if t != tier))))
    if "synonym" in chosen.tiers and chosen.synonyms == "sense":
        out.append(("− shared-synset synonyms (ParaEval's lemma lookup)", chosen.with_(synonyms="lemma")))
    ungraded = {t: 1.0 for t in chosen.tiers}
    out += [("− graded weights (every tier 1)", chosen.with_(weights=ungraded)),
            ("− delta (function words weigh as content)", chosen.with_(delta=0.5, system_delta=0.5)),
            ("− recall weighting (alpha 0.5)", chosen.with_(alpha=0.5, system_alpha=0.5)),
            ("− fragmentation penalty (gamma 0)", chosen.with_(gamma=0.0, system_gamma=0.0)),
            ("− system-level parameters (the segment ones)",
             chosen.with_(system_alpha=None, system_beta=None, system_gamma=None,
                          system_delta=None))]
    return out


def ablation(chosen: Config, pairs: list[str], cache: Path) -> list[str]:
    lines = ["| variant | " + " | ".join(f"{p} sys r | {p} τ | {p} ties | {p} seg r" for p in pairs)
             + " | mean τ |", "|---|" + "---|" * (4 * len(pairs) + 1)]
    for label, config in variants(chosen):
        cells, taus = [], []
        for pair in pairs:
            m = evaluate(pair, pair_stats(pair, config, cache), config)
            taus.append(m["tau"])
            cells += [f"{m['system']:.3f}", f"{m['tau']:.3f}", str(m["ties"]), f"{m['pearson']:.3f}"]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {np.mean(taus):.3f} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("search", "refine", "ablation"))
    parser.add_argument("--config", default="default", choices=sorted(CONFIGS))
    parser.add_argument("--pairs", default="cs-en,de-en,ru-en")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/paraeval-configs-cache"))
    parser.add_argument("--out", default=None)
    parser.add_argument("--keep-system", action="store_true",
                        help="refine: the system Pearson may not fall either")
    args = parser.parse_args()
    config = CONFIGS[args.config]
    if args.what in ("search", "refine"):
        chosen = (search(config, args.cache) if args.what == "search"
                  else refine(config, args.cache, args.keep_system))
        print(repr(chosen))
        for pair in args.pairs.split(","):
            print(pair, evaluate(pair, pair_stats(pair, chosen, args.cache), chosen))
        return
    lines = ablation(config, args.pairs.split(","), args.cache)
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    assert COLUMNS
    main()
