"""How far apart two metrics' system-level Pearson correlations are: a paired bootstrap over systems.

    python benchmarks/paraeval_paired_bootstrap.py --keep /tmp/paraeval-acceptance \
        [--pairs cs-en de-en ru-en] [--resamples 10000]

Reads the `meta-eval` JSON that `benchmarks/paraeval_acceptance.py --keep DIR` kept
(`<pair>-default-<n>.json` and `<pair>-paper-<n>.json`) and the human system scores (DA z,
HUMAN rows left out) from the WMT21 data under PARALIGN_DATA. For each pair it prints the
Pearson r of the default config's headline score and of the paper config's recall with the
human scores, their difference, and a 95% interval of that difference. The interval comes from
resampling the systems with replacement, the same systems for both metrics. It measures only;
nothing is chosen from it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def main() -> None:
    from paralign.corpora.wmt import load_human_scores

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", required=True, help="the folder paraeval_acceptance.py --keep wrote")
    parser.add_argument("--pairs", nargs="*", default=["cs-en", "de-en", "ru-en"])
    parser.add_argument("--resamples", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    keep = Path(args.keep)
    print("| pair | systems | default r | paper R r | difference | 95% interval | resamples below 0 |")
    print("|---|---:|---:|---:|---:|---|---:|")
    for pair in args.pairs:
        default = json.loads(next(keep.glob(f"{pair}-default-*.json")).read_text(encoding="utf-8"))
        paper = json.loads(next(keep.glob(f"{pair}-paper-*.json")).read_text(encoding="utf-8"))
        human = load_human_scores(None, pair)
        names = [name for name in default["systems"] if name in human]
        z = np.array([human[name].z for name in names])
        x = np.array([default["metrics"]["paraeval"]["scores"][name] for name in names])
        y = np.array([paper["metrics"]["paraeval_r"]["scores"][name] for name in names])

        def r(u: np.ndarray, v: np.ndarray) -> float:
            return float(np.corrcoef(u, v)[0, 1])

        rng = np.random.default_rng(args.seed)
        diffs = []
        for _ in range(args.resamples):
            picked = rng.integers(0, len(z), len(z))
            if len(set(picked.tolist())) >= 3:  # a correlation needs three distinct systems
                diffs.append(r(x[picked], z[picked]) - r(y[picked], z[picked]))
        spread = np.array(diffs)
        spread = spread[np.isfinite(spread)]
        low, high = np.percentile(spread, [2.5, 97.5])
        print(f"| {pair} | {len(z)} | {r(x, z):.4f} | {r(y, z):.4f} | {r(x, z) - r(y, z):+.4f} | "
              f"[{low:+.4f}, {high:+.4f}] | {np.mean(spread < 0):.2f} |")


if __name__ == "__main__":
    main()
