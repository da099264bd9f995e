"""WMT21 segment-level meta-evaluation of ParaEval, BLEU and chrF (reference A).

For cs-en, de-en and ru-en: `paralign meta-eval --pair NAME --level segment --metrics LIST --format json`
(the command itself, through `paralign.cli.main`), then one table per pair: WMT DARR
Kendall-like tau (metric ties count as discordant, WMT20/21), the same without ties, Pearson and
Kendall tau-b of segment scores with the segment DA z-scores, each with its 95% bootstrap
interval over source segments, and the DARR pair counts; then the means over the three pairs.

ParaEval runs with `--paraeval-config paper` unless told otherwise (the figures before issue 21's
graded configs; `paraeval` is then the paper's F).

Usage: python benchmarks/segment_meta_eval.py [--pairs cs-en,de-en,ru-en] [--resamples 1000]
       [--metrics paraeval,bleu,chrf,mup,gm,gm_bp] [--out docs/results/paraeval-segment.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from pathlib import Path

from paralign.cli import main as paralign_main

KINDS = ("darr_tau", "darr_tau_no_ties", "pearson", "kendall")


def run_pair(pair: str, metrics: str, resamples: int, config: str = "paper") -> dict:
    """The JSON of one `paralign meta-eval --level segment` run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{pair}.json"
        argv = ["meta-eval", "--pair", pair, "--refs", "A", "--level", "segment",
                "--metrics", metrics, "--resamples", str(resamples), "--format", "json",
                "--paraeval-config", config, "--output", str(out)]
        if paralign_main(argv) != 0:
            raise SystemExit(f"paralign {' '.join(argv)} failed")
        return json.loads(out.read_text(encoding="utf-8"))


def cell(entry: dict) -> str:
    v, lo, hi = entry["value"], entry["low"], entry["high"]
    if v is None:
        return "n/a"
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]" if lo is not None else f"{v:.3f}"


def pair_table(result: dict) -> list[str]:
    seg = result["segment"]
    first = next(iter(seg.values()))
    pairs = first["darr_pairs"]
    lines = [f"## {result['pair']} (reference A; {len(result['systems'])} systems, "
             f"{first['judged']} judged segments, {pairs['pairs']} DARR pairs of which "
             f"{pairs['identical']} of identical outputs)", "",
             "| metric | DARR τ (WMT, ties discordant) | DARR τ, ties left out | Pearson | "
             "Kendall τ_b | concordant / discordant / ties | ties beyond identical outputs |",
             "|---|---|---|---|---|---|---|"]
    for name, m in seg.items():
        p = m["darr_pairs"]
        lines.append(f"| {name} | " + " | ".join(cell(m[k]) for k in KINDS)
                     + f" | {p['concordant']} / {p['discordant']} / {p['ties']} | "
                     + f"{p['ties'] - p['identical']} |")
    return lines + [""]


def means(results: list[dict]) -> list[str]:
    names = list(results[0]["segment"])
    pairs = ", ".join(r["pair"] for r in results)
    lines = [f"## Means over {pairs}", "",
             "| metric | mean DARR τ (WMT) | mean DARR τ, ties left out | mean Pearson | "
             "mean Kendall τ_b |", "|---|---|---|---|---|"]
    for name in names:
        row = []
        for kind in KINDS:
            values = [r["segment"][name][kind]["value"] for r in results]
            row.append("n/a" if None in values else f"{sum(values) / len(values):.3f}")
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    return lines + [""]


def render(results: list[dict], command: str, elapsed: float, resamples: int) -> str:
    signatures = results[0]["signatures"]
    lines = ["# ParaEval meta-evaluation on WMT21 to-English (segment level)", "",
             f"Command: `{command}`  ",
             f"Date: {datetime.date.today().isoformat()}; run time: {elapsed / 60:.1f} min", "",
             "Each pair is `paralign meta-eval --pair NAME --refs A --level segment --metrics ... "
             "--format json`. Segment DA from `humaneval/ad-seg-scores-<lp>.csv`, SIDs mapped to "
             "lines through `humaneval/seg-line-map-<lp>.tsv`; HUMAN rows left out. DARR: pairs "
             "of outputs for one source segment whose raw DA differs by more than 25 points; WMT "
             "τ = (concordant − discordant − ties) / all pairs (a metric tie counts as "
             "discordant, as WMT20/21 report it); the variant leaves ties out. Pearson and "
             "Kendall τ_b: every judged (system, segment) against its DA z-score, no grouping. "
             f"Intervals: 95% percentile bootstrap, {resamples} resamples of source segments, "
             "seed 12345. BLEU = sentence BLEU as `sacrebleu.sentence_bleu` (effective order); "
             "chrF = sacrebleu's sentence chrF; ParaEval with PPDB + WordNet (the CLI's defaults).",
             ""]
    if signatures:
        lines += ["Signatures: " + "; ".join(f"`{k}`: `{v}`" for k, v in signatures.items()), ""]
    for result in results:
        lines.extend(pair_table(result))
    lines.extend(means(results))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default="cs-en,de-en,ru-en")
    parser.add_argument("--metrics", default="paraeval,bleu,chrf,mup,gm,gm_bp")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--out", default="docs/results/paraeval-segment.md")
    parser.add_argument("--paraeval-config", default="paper",
                        help="ParaEval config (default paper: the table of issue 21's baseline)")
    args = parser.parse_args()
    start = time.perf_counter()
    results = []
    for pair in args.pairs.split(","):
        print(f"{pair} ...", file=sys.stderr, flush=True)
        results.append(run_pair(pair, args.metrics, args.resamples, args.paraeval_config))
    elapsed = time.perf_counter() - start
    command = "python " + " ".join(sys.argv)
    Path(args.out).write_text(render(results, command, elapsed, args.resamples), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
