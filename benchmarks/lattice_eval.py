"""Pang, Knight & Marcu (2003) evaluations of our word lattices, on the Bible (7 English versions
a verse) and on MTReference groups of >= 4 distinct translations.

For each corpus: path counts by sentence length; leave-one-out ed_input (nearest other input) vs
ed_lattice (lattice of the others); ed as translations are added; repetition ratio of the
syntax-based lattices vs the progressive-MSA baseline; mean per-word entropy (trigram
Witten-Bell LM trained on held-out text of the same corpus) of the inputs vs sampled paths.
Also writes the paraphrase table of the lattices of MTReference *dev* groups (outside the test
set) to build/tables/lattice-paraphrases.tsv.gz for ParaMetric scoring.

Usage: .venv/bin/python benchmarks/lattice_eval.py [--bible 2000] [--seed 13] [--skip-bible]
Writes build/results/lattice_eval.json and prints markdown tables.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

import paralign  # noqa: F401 - configures NLTK data
from paralign.lattice import LatticeOptions, evaluate_groups, incremental
from paralign.lattice.evaluate import (
    annotate_groups,
    lattice_paraphrases,
    mtreference_groups,
    read_groups,
    sample_groups,
)
from paralign.lattice.lm import NGramLM
from paralign.nlp import default_annotator
from paralign.settings import data_dir

ROOT = Path(__file__).resolve().parents[1]
GAPS2 = LatticeOptions(max_gaps=2)  # relaxed merging (our extension)


def corpora_root() -> Path:
    """The corpora folder; the run stops with a message when it is absent."""
    root = data_dir()
    if root is None:
        raise SystemExit("corpora not found: set PARALIGN_DATA")
    return root


def texts(sentences: list[str] | list[list[str]]) -> list[str]:
    """A group's sentences from `read_groups` of a groups TSV, untokenized: texts (its token
    lists are a JSON file's, or a `tokenized` read's)."""
    out = [s for s in sentences if isinstance(s, str)]
    if len(out) != len(sentences):
        raise TypeError("expected the texts of an untokenized groups TSV, got token lists")
    return out


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def run_corpus(name: str, groups, lm, *, msa_loo: bool, extra: bool, incremental_groups: int) -> dict:
    out: dict = {}
    t = time.perf_counter()
    out["syntax"], _ = evaluate_groups(groups, LatticeOptions(), leave_one_out=True, lm=lm, lm_samples=20)
    log(f"{name}: syntax done in {time.perf_counter() - t:.0f} s")
    t = time.perf_counter()
    out["msa"], _ = evaluate_groups(groups, LatticeOptions(method="msa"), leave_one_out=msa_loo, lm=lm, lm_samples=20)
    log(f"{name}: msa done in {time.perf_counter() - t:.0f} s")
    t = time.perf_counter()
    out["syntax_max_gaps_2"], _ = evaluate_groups(groups, GAPS2, leave_one_out=True, lm=lm, lm_samples=20)
    log(f"{name}: syntax_max_gaps_2 done in {time.perf_counter() - t:.0f} s")
    if extra:
        for label, options in (
            ("syntax_wordnet", LatticeOptions(wordnet=True)),
            ("syntax_no_keyword_check", LatticeOptions(keyword_check=False)),
            ("syntax_no_squeeze", LatticeOptions(squeeze=False)),
        ):
            t = time.perf_counter()
            out[label], _ = evaluate_groups(groups, options, leave_one_out=True)
            log(f"{name}: {label} done in {time.perf_counter() - t:.0f} s")
    sub = groups[:incremental_groups]
    out["incremental_syntax"] = incremental(sub, LatticeOptions(), min_size=4, seed=1)
    out["incremental_msa"] = incremental(sub, LatticeOptions(method="msa"), min_size=4, seed=1)
    out["incremental_syntax_max_gaps_2"] = incremental(sub, GAPS2, min_size=4, seed=1)
    return out


def bible(n: int, seed: int, lm_verses: int) -> dict:
    path = corpora_root() / "multitranslation/bible-ot/bible_7versions_ot.tsv"
    # distinct sentences as the lattice counts them
    all_groups = [(gid, texts(sents)) for gid, sents in read_groups(path, min_size=4)]
    test = sample_groups(all_groups, n, seed)
    test_ids = {gid for gid, _ in test}
    held = [g for g in all_groups if g[0] not in test_ids]
    held = sample_groups(held, lm_verses, seed + 1)
    tokenizer = default_annotator().nlp.tokenizer
    log(f"bible: {len(all_groups)} verses with >= 4 versions; test {len(test)}; LM on {len(held)} held-out verses")
    lm = NGramLM().fit([t.text for t in tokenizer(s)] for _, sents in held for s in sents)
    t = time.perf_counter()
    annotated = list(annotate_groups(test))
    log(f"bible: parsed {sum(len(s) for _, s in annotated)} sentences in {time.perf_counter() - t:.0f} s")
    gc.collect()
    gc.freeze()
    result = run_corpus("bible", annotated, lm, msa_loo=False, extra=False, incremental_groups=500)
    result["setup"] = {"verses": len(test), "seed": seed, "lm_sentences": sum(len(s) for _, s in held)}
    return result


def mtreference() -> dict:
    root = corpora_root() / "alignment/mtreference"
    test = mtreference_groups(root / "mt-reference.test.json", min_size=4)
    dev = mtreference_groups(root / "mt-reference.dev.json", min_size=1)
    lm = NGramLM().fit(s for _, sents in dev for s in sents)
    t = time.perf_counter()
    annotated = list(annotate_groups(test))
    log(f"mtref: parsed {sum(len(s) for _, s in annotated)} sentences in {time.perf_counter() - t:.0f} s")
    result = run_corpus("mtref", annotated, lm, msa_loo=True, extra=True, incremental_groups=len(annotated))
    result["setup"] = {"groups": len(annotated), "lm_sentences": sum(len(s) for _, s in dev)}
    return result


def paraphrase_tables() -> dict:
    root = corpora_root() / "alignment/mtreference"
    dev = mtreference_groups(root / "mt-reference.dev.json", min_size=2)
    annotated = list(annotate_groups(dev))
    out = {}
    target = ROOT / "build/tables"
    target.mkdir(parents=True, exist_ok=True)
    for label, options, minimal in (("lattice-paraphrases", LatticeOptions(), True),
                                    ("lattice-paraphrases-allpairs", LatticeOptions(), False),
                                    ("lattice-msa-paraphrases", LatticeOptions(method="msa"), True)):
        table, errors = lattice_paraphrases(annotated, options, max_length=5, minimal=minimal)
        path = target / f"{label}.tsv.gz"
        table.to_tsv(path)
        out[label] = {"groups": len(dev), "pairs": len(table), "errors": len(errors), "path": str(path)}
        log(f"table {label}: {len(table)} pairs -> {path}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bible", type=int, default=2000, help="test verses (seeded sample)")
    ap.add_argument("--lm-verses", type=int, default=5000, help="held-out verses for the Bible LM")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--skip-bible", action="store_true")
    ap.add_argument("--skip-tables", action="store_true")
    ap.add_argument("--skip-mtref", action="store_true")
    ap.add_argument("--output", default=str(ROOT / "build/results/lattice_eval.json"))
    ap.add_argument("--render", default=None, metavar="JSON", help="only print the tables of a saved run")
    args = ap.parse_args()
    if args.render:
        print(render(json.loads(Path(args.render).read_text())))
        return
    results: dict = {"command": " ".join(["benchmarks/lattice_eval.py", *sys.argv[1:]])}
    if not args.skip_mtref:
        results["mtreference"] = mtreference()
    if not args.skip_tables:
        results["tables"] = paraphrase_tables()
    if not args.skip_bible:
        results["bible"] = bible(args.bible, args.seed, args.lm_verses)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=2))
    print(render(results))


def render(results: dict) -> str:
    lines = []
    for corpus in ("mtreference", "bible"):
        if corpus not in results:
            continue
        r = results[corpus]
        lines.append(f"\n## {corpus}\n")
        lines.append("| lattices | groups | sent. | mean len | mean log10 paths | ed_input | ed_lattice | "
                     "gain | lattice better | ed/word input | ed/word lattice | rep. ratio | nonzero share | "
                     "nonzero mean | ent inputs | ent paths |")
        lines.append("|" + "---|" * 16)
        for label, s in r.items():
            if not isinstance(s, dict) or "ed_input" not in s:
                continue
            f = lambda x, d=3: "–" if x is None else f"{x:.{d}f}"  # noqa: E731
            gain = None if s["ed_input"] is None else s["ed_input"] - s["ed_lattice"]
            lines.append(
                f"| {label} | {s['groups']} | {s['sentences']} | {f(s['mean_length'], 1)} | "
                f"{f(s['mean_log10_paths'], 2)} | {f(s['ed_input'], 2)} | {f(s['ed_lattice'], 2)} | {f(gain, 2)} | "
                f"{f(s['share_groups_lattice_better'])} | {f(s['ed_input_per_word'])} | "
                f"{f(s['ed_lattice_per_word'])} | {f(s['repetition_ratio'], 4)} | "
                f"{f(s['repetition_nonzero_share'])} | {f(s['repetition_nonzero_mean'])} | "
                f"{f(s['ent_inputs'], 2)} | {f(s['ent_paths'], 2)} |"
            )
        lines.append("\npaths by mean sentence length (syntax | msa):\n")
        lines.append("| length | groups | mean log10 paths | max log10 paths | msa mean | msa max |")
        lines.append("|---|---|---|---|---|---|")
        msa = {row["length"]: row for row in r["msa"]["paths_by_length"]}
        for row in r["syntax"]["paths_by_length"]:
            m = msa.get(row["length"], {})
            lines.append(f"| {row['length']} | {row['groups']} | {row['mean_log10_paths']:.2f} | "
                         f"{row['max_log10_paths']:.2f} | {m.get('mean_log10_paths', 0):.2f} | "
                         f"{m.get('max_log10_paths', 0):.2f} |")
        lines.append("\nadding translations (one held-out test sentence, lattice of the first n others):\n")
        lines.append("| n | groups | ed_input_n | ed_lattice_n (syntax) | gain | ed_lattice_n (msa) | gain | "
                     "ed_lattice_n (max_gaps 2) | gain |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        msa_rows = {row["n"]: row for row in r["incremental_msa"]}
        gap_rows = {row["n"]: row for row in r.get("incremental_syntax_max_gaps_2", [])}
        for row in r["incremental_syntax"]:
            m = msa_rows[row["n"]]
            gp = gap_rows.get(row["n"], {"ed_lattice": float("nan"), "gain": float("nan")})
            lines.append(f"| {row['n']} | {row['groups']} | {row['ed_input']:.2f} | {row['ed_lattice']:.2f} | "
                         f"{row['gain']:.2f} | {m['ed_lattice']:.2f} | {m['gain']:.2f} | {gp['ed_lattice']:.2f} | "
                         f"{gp['gain']:.2f} |")
    if "tables" in results:
        lines.append("\n## paraphrase tables (MTReference dev lattices)\n")
        for label, t in results["tables"].items():
            lines.append(f"- {label}: {t['pairs']} pairs from {t['groups']} groups -> {t['path']}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
