"""WMT21 system-level meta-evaluation of ParaEval against BLEU, chrF and the BLEU steps.

For every language pair (cs-en, de-en, ru-en) and reference set (A, B, A+B): each metric's
corpus score per system is correlated with the human DA z-scores (HUMAN rows left out), with 95%
intervals from 1,000 seeded segment-bootstrap resamples and paired tests against BLEU and chrF.
ParaEval configurations: PPDB+WordNet; no paraphrases (its unigram tier alone, an ablation);
and, when pivot tables exist under build/tables/*.tsv.gz, the tables (+PPDB+WordNet) with
minimum paraphrase length 1 and 3.

Usage: .venv/bin/python benchmarks/meta_eval.py [--pairs cs-en,de-en,ru-en] [--resamples 1000]
       [--tables 'build/tables/multi30k-pivot*.tsv.gz:0.1'] [--configs pe,pe-lex,...] [--out FILE] [--json FILE]
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from pathlib import Path

from paralign.corpora.wmt import load_wmt
from paralign.metrics.bleu_steps import BASELINES
from paralign.metrics.correlation import CORRELATIONS, meta_evaluate
from paralign.metrics.paraeval import ParaEval, build_sources, paraeval_metrics

#: Paired tests: every metric against BLEU, chrF and ParaEval without paraphrases.
AGAINST = ("bleu", "chrf", "pe-lex_p", "pe-lex_r", "pe-lex_f")
REF_SETS = {"A": ["A"], "B": ["B"], "A+B": ["A", "B"]}


CONFIGS = ("pe", "pe-lex", "pe-pivot", "pe-pivot-only", "pe-pivot-min3")


def configs(tables: list[str], names: list[str]) -> dict[str, ParaEval]:
    """ParaEval scorers by label (the pivot ones only when tables are given)."""
    out: dict[str, ParaEval] = {}
    base = build_sources() if {"pe", "pe-pivot", "pe-pivot-min3"} & set(names) else []
    pivot = build_sources(("none",), tables) if tables else []
    for name in names:
        if name not in CONFIGS:
            raise SystemExit(f"unknown config {name!r}; choose from {', '.join(CONFIGS)}")
        if name == "pe":
            out[name] = ParaEval(base)
        elif name == "pe-lex":
            out[name] = ParaEval([])
        elif pivot:
            sources = pivot if name == "pe-pivot-only" else pivot + base
            out[name] = ParaEval(sources, min_paraphrase_length=3 if name.endswith("min3") else 1)
    return out


def fmt(d: dict) -> str:
    v, lo, hi = d["value"], d["low"], d["high"]
    if v is None:
        return "n/a"
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]" if lo is not None else f"{v:.3f}"


def test_cell(entry: dict, other: str, kind: str = "pearson") -> str:
    t = entry.get("vs", {}).get(other, {}).get(kind)
    if not t or t["value"] is None:
        return ""
    return f"{t['value']:+.3f} (p={t['p_value']:.3f})"


def summary(results: list[dict], kind: str, conds: list[tuple[str, str]],
            names: list[str]) -> list[str]:
    """One row per metric, one column per (pair, reference set): the `kind` correlation."""
    lines = [f"## {kind.capitalize()} per language pair and reference set", "",
             "| metric | " + " | ".join(f"{p} {ref}" for p, ref in conds) + " |",
             "|---|" + "---|" * len(conds)]
    for name in names:
        values = [r["metrics"][name][kind]["value"] for r in results]
        lines.append(f"| {name} | " + " | ".join(
            "n/a" if v is None else f"{v:.3f}" for v in values) + " |")
    return lines + [""]


def render(results: list[dict], command: str, tables: list[str], elapsed: float,
           resamples: int = 1000) -> str:
    lines = ["# ParaEval meta-evaluation on WMT21 to-English (system level)", "",
             f"Command: `{command}`  ", f"Run time: {elapsed / 60:.1f} min; pivot tables: "
             f"{', '.join(tables) if tables else 'none found'}", "",
             "Cells: correlation with the official DA z-scores (HUMAN rows left out) "
             "[95% bootstrap interval, "
             f"{resamples} segment resamples, seed 12345]. "
             "`vs BLEU`/`vs chrF`: Pearson difference and one-sided paired-bootstrap p-value "
             "(share of resamples where the metric's Pearson is not above the baseline's).", ""]
    if results:
        lines.append("Signatures: " + "; ".join(
            f"`{k}`: `{v}`" for k, v in results[-1]["signatures"].items() if k.endswith("_f")))
        lines.append("")
    # summary: Pearson per condition
    conds = [(r["pair"], "+".join(r["refs"])) for r in results]
    names = list(results[0]["metrics"]) if results else []
    for kind in CORRELATIONS:
        lines += summary(results, kind, conds, names)
    for r in results:
        lines += ["", f"## {r['pair']}, references {'+'.join(r['refs'])} "
                  f"({len(r['systems'])} systems)", "",
                  "| metric | " + " | ".join(CORRELATIONS)
                  + " | vs BLEU | vs chrF | vs same part without paraphrases (pe-lex) |",
                  "|---|" + "---|" * (len(CORRELATIONS) + 3)]
        for name, entry in r["metrics"].items():
            lex = "pe-lex_" + name.rpartition("_")[2] if name.startswith("pe") else ""
            lex_cell = test_cell(entry, lex) if lex and lex != name else ""
            lines.append(f"| {name} | " + " | ".join(fmt(entry[k]) for k in CORRELATIONS)
                         + f" | {test_cell(entry, 'bleu')} | {test_cell(entry, 'chrf')}"
                         f" | {lex_cell} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default="cs-en,de-en,ru-en")
    parser.add_argument("--refs", default="A,B,A+B")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--tables", default="build/tables/multi30k-pivot*.tsv.gz:0.1",
                        help="glob of pivot tables, optional :threshold on their score")
    parser.add_argument("--configs", default="pe,pe-lex,pe-pivot,pe-pivot-min3",
                        help=f"ParaEval configurations among {', '.join(CONFIGS)}")
    parser.add_argument("--out", default="docs/results/paraeval-meta.md")
    parser.add_argument("--json", default=None)
    parser.add_argument("--from-json", default=None,
                        help="only re-render the markdown from a --json file of an earlier run")
    args = parser.parse_args()
    pattern, _, threshold = (args.tables or "").partition(":")
    tables = [f"{path}:{threshold}" if threshold else path
              for path in sorted(glob.glob(pattern))] if pattern else []
    if args.from_json:
        saved = json.loads(Path(args.from_json).read_text(encoding="utf-8"))
        Path(args.out).write_text(render(saved["results"], saved["command"], saved["tables"],
                                         saved["elapsed"], saved["resamples"]), encoding="utf-8")
        return 0
    start = time.time()
    scorers = configs(tables, args.configs.split(","))
    results = []
    for pair in args.pairs.split(","):
        data = load_wmt(None, pair)
        for label in args.refs.split(","):
            metrics = [BASELINES[n] for n in ("bleu", "chrf", "mup", "gm", "gm_bp")]
            for name, scorer in scorers.items():
                metrics += paraeval_metrics(scorer, label=name)
            t0 = time.time()
            result = meta_evaluate(data, REF_SETS[label], metrics, n_resamples=args.resamples,
                                   against=AGAINST)
            results.append(result.to_dict())
            print(f"{pair} {label}: {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    elapsed = time.time() - start
    command = "python " + " ".join(sys.argv)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(render(results, command, tables, elapsed, args.resamples), encoding="utf-8")
    if args.json:
        saved = {"command": command, "tables": tables, "elapsed": elapsed,
                 "resamples": args.resamples, "results": results}
        Path(args.json).write_text(json.dumps(saved, indent=1), encoding="utf-8")
    print(f"wrote {args.out} in {elapsed / 60:.1f} min", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
