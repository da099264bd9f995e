"""Full-test-set evaluation and ablations of the Sultan et al. (2014) aligner (docs/results/aligner.md).

    .venv/bin/python benchmarks/aligner_eval.py [--sets msr-test,edb-test,...] [--configs full,...]
                                                [--limit N] [--json FILE]

Each gold file is annotated once (spaCy); every configuration then aligns it. Prints markdown
tables of macro P/R/F1 and exact match (jacana's macro average: mean per-pair P and R, F1 of the
means), plus micro F1. Sets: msr-dev, msr-test (majority, sure), edb-train, edb-test (sure),
mtref-test (sure) and mtref-test-sp (sure+possible).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.aligners.evaluation import annotate_gold, load_gold  # noqa: E402
from paralign.aligners.sultan import PAPER_OPTIONS, Aligner  # noqa: E402
from paralign.aligners.sultan.external_parse import apply_parse, read_mst  # noqa: E402
from paralign.metrics.alignment_scores import score_alignments  # noqa: E402
from paralign.settings import data_dir  # noqa: E402

SETS: dict[str, tuple[str, str]] = {  # name -> (path under the data folder, links)
    "msr-dev": ("alignment/msr-rte2/derived/RTE2_dev_M.jsonl", "sure"),
    "msr-test": ("alignment/msr-rte2/derived/RTE2_test_M.jsonl", "sure"),
    "edb-train": ("alignment/edinburgh-pp/gold/gold.train.sure.json", "sure"),
    "edb-test": ("alignment/edinburgh-pp/gold/gold.test.sure.json", "sure"),
    "mtref-test": ("alignment/multimwa-mtref/mtref-test.tsv", "sure"),
    "mtref-test-sp": ("alignment/multimwa-mtref/mtref-test.tsv", "sure+possible"),
}

#: Stanford basic-dependency parses shipped with the corpora (tokens match 1:1).
PARSES: dict[str, str] = {
    "msr-dev": "alignment/msr-rte2/parse/RTE2_dev_M.mst",
    "msr-test": "alignment/msr-rte2/parse/RTE2_test_M.mst",
    "edb-train": "alignment/edinburgh-pp/parse/edinburgh.train.mst.gz",
    "edb-test": "alignment/edinburgh-pp/parse/edinburgh.test.mst.gz",
}
EXTERNAL = "Stanford parse from the corpus (spaCy lemmas/NER)"

#: Table 3 of the paper plus variants; values are Aligner options.
CONFIGS: dict[str, dict] = {
    "full": {},
    "- word similarity": {"use_word_similarity": False},
    "- contextual evidence": {"use_word_sequences": False, "use_dependency_context": False,
                              "use_textual_context": False},
    "- dependencies": {"use_dependency_context": False},
    "- text neighborhood": {"use_textual_context": False},
    "- stop words": {"align_stop_words": False},
    "reference wsAlign (all-stop-word sequences)": {"sequences_need_content": False},
    "- named entities": {"align_named_entities": False},
    "paper only (all paralign extensions off)": dict(PAPER_OPTIONS),
    "- sentence-start evidence (ext.)": {"start_evidence": False},
    "- quote pairs (ext.)": {"align_quotes": False},
    "- spelling variants (ext.)": {"spelling_variants": False},
    "- identical words first on ties (ext.)": {"prefer_identical": False},
    "- coordinator on every conjunct (ext.)": {"coordination_edges": False},
    "- determiner noun phrases (ext.)": {"determiner_spans": False},
    "- repeated swTextAlign (ext.)": {"iterate_stop_text": False},
    "- closed compounds (ext.)": {"closed_compounds": False},
    "- symbol words (ext.)": {"symbol_words": False},
    "- article variants (ext.)": {"article_variants": False},
    "- possessive 's / of (ext.)": {"possessive_of": False},
    "- modal lemmas (ext.)": {"modal_lemmas": False},
    "punctuation in dependency context (spaCy)": {"punct_dependencies": True},
    "+ context-only links (2 neighbours; option)": {"context_only_links": 2},
    "+ context-only links (1 neighbour; option)": {"context_only_links": 1},
    "partial mentions spread for all entity types (reference)": {
        "partial_mention_types": ("PERSON", "ORGANIZATION", "LOCATION")},
    "copula heads the subject (spaCy style)": {"stanford_copula": False},
    "no ROOT evidence": {"root_evidence": False},
    "swDepAlign ignores labels (reference code)": {"stop_word_labels": False},
    "+ unique identical stop words (extension)": {"align_unique_stop_words": True},
    "PPDB + WordNet similarity": {"similarity": "ppdb+wordnet"},
    EXTERNAL: {},
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="msr-test,edb-test,mtref-test,mtref-test-sp")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", default=None, help="also write all results as JSON here")
    parser.add_argument("--by-module", action="store_true",
                        help="also print, per set, the correct/wrong links each module made and "
                        "the gold links nobody found (default configuration)")
    args = parser.parse_args()
    root = data_dir()
    if root is None:
        print("corpora not found: set PARALIGN_DATA", file=sys.stderr)
        return 2
    names = [c.strip() for c in args.configs.split(",") if c.strip()]
    base = Aligner()
    results: dict[str, dict[str, dict]] = {}
    annotated_cache: dict[str, tuple[list, list]] = {}
    for set_name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        rel, links = SETS[set_name]
        path = root / rel
        if rel not in annotated_cache:
            gold = load_gold(path, args.limit)
            start = time.perf_counter()
            annotated_cache[rel] = (gold, annotate_gold(base, gold))
            print(f"# {set_name}: annotated {len(gold)} pairs in {time.perf_counter() - start:.1f}s",
                  file=sys.stderr)
        gold, annotated = annotated_cache[rel]
        if args.by_module:
            print(module_table(set_name, base, gold, annotated, links))
        for name in names:
            options = dict(CONFIGS[name])
            pairs_in = annotated
            if name == EXTERNAL:
                if set_name not in PARSES:
                    continue
                pairs_in = with_parse(annotated, root / PARSES[set_name])
            if "similarity" in options:
                aligner = Aligner(similarity=options.pop("similarity"), **options)
            else:
                aligner = base.with_params(**options)
            aligner.related  # noqa: B018
            start = time.perf_counter()
            system = aligner.align_annotated(pairs_in)
            seconds = time.perf_counter() - start
            scores = score_alignments([p.alignment for p in gold], system, links).to_dict()
            results.setdefault(set_name, {})[name] = {**scores, "align_seconds": round(seconds, 2)}
            m = scores["macro"]
            print(f"# {set_name} | {name}: P {100 * m['precision']:.1f} R {100 * m['recall']:.1f} "
                  f"F1 {100 * m['f1']:.1f} E {100 * scores['exact']:.1f}", file=sys.stderr)
    print(render(results, names))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


def module_table(set_name: str, aligner: Aligner, gold: list, annotated: list, links: str) -> str:
    """Markdown table: links made by each module, how many are in the gold, and the misses."""
    made: dict[str, list[int]] = {}
    missed = {"content-content": 0, "stop/punct-stop/punct": 0, "mixed": 0}
    why: dict[tuple[str, str], int] = {}
    for pair, (s, t) in zip(gold, annotated, strict=True):
        ps, pt = aligner.prepare(s), aligner.prepare(t)
        trace = aligner.trace_prepared(ps, pt)
        gold_links = pair.alignment.links(links)
        for link, module in trace.items():
            made.setdefault(module, [0, 0])[0 if link in gold_links else 1] += 1
        sim = aligner._similarities(ps, pt)
        busy_s, busy_t = {i for i, _ in trace}, {j for _, j in trace}
        for i, j in gold_links - set(trace):
            kind = ("content-content" if ps.content[i] and pt.content[j] else
                    "stop/punct-stop/punct" if ps.stopish[i] and pt.stopish[j] else "mixed")
            missed[kind] += 1
            reason = ("no word similarity" if (i, j) not in sim else
                      "similar, a word aligned elsewhere" if i in busy_s or j in busy_t else
                      "similar, both words left free")
            why[(kind, reason)] = why.get((kind, reason), 0) + 1
    rows = [f"\n**{set_name}: links by module** (default configuration)\n",
            "| module | correct | wrong | precision |", "|---|---|---|---|"]
    for module, (good, bad) in made.items():
        rows.append(f"| {module} | {good} | {bad} | {100 * good / max(good + bad, 1):.1f} |")
    rows.append("\n| gold links not found | " + " | ".join(missed) + " |")
    rows.append("|---|" + "---|" * len(missed))
    rows.append("| count | " + " | ".join(str(v) for v in missed.values()) + " |")
    rows += ["\n| missed gold link | why | count |", "|---|---|---|"]
    rows += [f"| {kind} | {reason} | {n} |" for (kind, reason), n in sorted(why.items())]
    return "\n".join(rows)


def with_parse(annotated: list, path: Path) -> list:
    """The annotated pairs with the corpus's Stanford parses swapped in (source, target order)."""
    parses = list(read_mst(path))
    flat = [x for pair in annotated for x in pair]
    swapped = [apply_parse(s, p, where=f"{path} sentence {k + 1}")
               for k, (s, p) in enumerate(zip(flat, parses[: len(flat)], strict=True))]
    return list(zip(swapped[0::2], swapped[1::2], strict=True))


def render(results: dict[str, dict[str, dict]], names: list[str]) -> str:
    """One markdown table per set: configuration rows, macro P/R/F1, exact, micro F1."""
    out = []
    for set_name, rows in results.items():
        out.append(f"\n**{set_name}** ({SETS[set_name][1]} links, {next(iter(rows.values()))['pairs']} pairs)\n")
        out.append("| configuration | P | R | F1 | E (exact %) | micro F1 |")
        out.append("|---|---|---|---|---|---|")
        for name in names:
            s = rows.get(name)
            if s is None:
                continue
            m = s["macro"]
            out.append(f"| {name} | {100 * m['precision']:.1f} | {100 * m['recall']:.1f} | "
                       f"{100 * m['f1']:.1f} | {100 * s['exact']:.1f} | {100 * s['micro']['f1']:.1f} |")
    return "\n".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
