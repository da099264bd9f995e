"""ParaMetric tables of docs/results/parametric.md (issue 4), printed as markdown.

    .venv/bin/python benchmarks/parametric_eval.py [--no-sultan] [--workers N] [--tables DIR]
        [--output FILE] [--json FILE] [--render JSON]

1. AlignPrec / AlignRecall by phrase length (the paper's Table 3 layout) on MTReference test and
   Edinburgh++ test (gold: sure links), for the GIZA++, Meteor, TED (and ITG, Edinburgh++ only)
   outputs shipped with the corpora, and our Sultan aligner (aligned on the fly);
2. the same at Length <= 5 against gold sure+possible links, and for "tight" phrase pairs;
3. alignment diagnostics: links, unaligned words, phrase pairs per sentence pair;
4. LB-Precision / Rel-Recall on MTReference test groups for the PPDB lexical table, WordNet
   synonyms and every `*.tsv.gz` table in --tables (default build/tables, built by other parts
   of the project; scores >= 0.01 kept, as the paper does), with the counting variants.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paralign.alignment import Alignment  # noqa: E402
from paralign.cli.parametric import align_with  # noqa: E402
from paralign.corpora import AlignedPair, load_groups, load_pairs  # noqa: E402
from paralign.metrics.parametric import align_scores, table_scores  # noqa: E402
from paralign.paraphrases import ParaphraseTable, WordNetSynonyms, ppdb_table  # noqa: E402
from paralign.phrases import phrase_spans  # noqa: E402
from paralign.settings import data_dir  # noqa: E402

LENGTHS = range(1, 6)


def label(n: int) -> str:
    return "Length = 1" if n == 1 else f"Length ≤ {n}"


def f3(value: float | None) -> str:
    return "n/a" if value is None else f".{round(value * 1000):03d}" if value < 1 else f"{value:.3f}"


def corpora(root: Path) -> dict[str, tuple[Path, dict[str, Path]]]:
    mtref = root / "alignment" / "mtreference"
    edin = root / "alignment" / "edinburgh-pp"
    return {
        "MTReference test": (mtref / "mt-reference.test.json", {
            "GIZA++ (as shipped)": mtref / "baselines" / "mt-reference.test.giza.json",
            "Meteor": mtref / "baselines" / "mt-reference.test.meteor.maxacc.json",
            "TED": mtref / "baselines" / "mt-reference.test.ted.json",
        }),
        "Edinburgh++ test": (edin / "gold" / "gold.test.sure.json", {
            "GIZA++ (intersect)": edin / "baselines" / "giza" / "edinburgh.align.giza.intersect.json",
            "GIZA++ (grow-diag-final)": edin / "baselines" / "giza" / "edinburgh.align.giza.grow-diag-final.json",
            "Meteor": edin / "baselines" / "meteor" / "edinburgh-meteor.macacc.json",
            "TED": edin / "baselines" / "ted" / "edinburgh.test.align.ted.json",
            "ITG": edin / "baselines" / "itg" / "edinburgh.s2t.sitg.json",
        }),
    }


def diagnostics(gold, outputs) -> dict:
    """Links, unaligned-word rate and phrase pairs per pair of one system (sure links)."""
    links = unaligned = words = pairs = 0
    for g, out in zip(gold, outputs, strict=True):
        alignment = out if not hasattr(out, "alignment") else out.alignment
        sure = alignment.sure
        links += len(sure)
        words += len(g.source) + len(g.target)
        unaligned += len(g.source) - len({i for i, _ in sure}) + len(g.target) - len({j for _, j in sure})
        pairs += len(phrase_spans(sure, len(g.source), len(g.target), 5))
    return {"links": links, "unaligned": unaligned / words, "pp_per_pair": pairs / len(gold)}


def align_section(root: Path, args: argparse.Namespace, results: dict) -> list[str]:
    lines: list[str] = []
    for corpus, (gold_path, systems) in corpora(root).items():
        gold = load_pairs(gold_path)
        # the shipped outputs' pairs, and the alignments of our aligner run here
        outputs: dict[str, Sequence[AlignedPair | Alignment]] = {
            name: load_pairs(path) for name, path in systems.items()}
        if not args.no_sultan:
            start = time.perf_counter()
            outputs["Sultan (ours)"] = align_with("sultan", gold, workers=args.workers)
            results.setdefault("timing", {})[f"sultan {corpus}"] = time.perf_counter() - start
        scores = {name: align_scores(gold, out) for name, out in outputs.items()}
        for name, score in scores.items():
            if score.warnings:
                print(f"{corpus} {name}: {len(score.warnings)} warnings, e.g. {score.warnings[0]}",
                      file=sys.stderr)
        results.setdefault("align", {})[corpus] = {n: s.to_dict() for n, s in scores.items()}
        names = list(scores)
        lines += [f"### {corpus}: AlignPrec / AlignRecall ({len(gold)} pairs, gold sure links)", "",
                  "| | " + " | ".join(f"AlignPrec {n}" for n in names) + " | "
                  + " | ".join(f"AlignRecall {n}" for n in names) + " |",
                  "|---|" + "---:|" * (2 * len(names))]
        for n in LENGTHS:
            row = [f3(scores[name].by_length[n].precision) for name in names]
            row += [f3(scores[name].by_length[n].recall) for name in names]
            lines.append(f"| {label(n)} | " + " | ".join(row) + " |")
        lines.append("")
        poss = {name: align_scores(gold, out, links="sure+possible", system_links="sure")
                for name, out in outputs.items()}
        tight = {name: align_scores(gold, out, tight=True) for name, out in outputs.items()}
        diag = {name: diagnostics(gold, out) for name, out in outputs.items()}
        diag["gold (sure)"] = diagnostics(gold, gold)
        results.setdefault("align_variants", {})[corpus] = {
            name: {"sure+possible": poss[name].to_dict(), "tight": tight[name].to_dict(),
                   "diagnostics": diag[name]} for name in names}
        lines += [f"### {corpus}: variants at Length ≤ 5, and alignment diagnostics", "",
                  "| system | P / R (gold sure) | P / R (gold sure+possible) | P / R (tight pairs) "
                  "| links | unaligned words | phrase pairs per pair |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for name in [*names, "gold (sure)"]:
            d = diag[name]
            cells = ["", "", ""]
            if name in scores:
                cells = [f"{f3(s.precision)} / {f3(s.recall)}" for s in (scores[name], poss[name], tight[name])]
            lines.append(f"| {name} | " + " | ".join(cells)
                         + f" | {d['links']} | {100 * d['unaligned']:.1f}% | {d['pp_per_pair']:.1f} |")
        lines.append("")
    return lines


def table_sources(args: argparse.Namespace) -> list:
    sources: list = [ppdb_table(), WordNetSynonyms()]
    folder = Path(args.tables)
    if folder.is_dir():
        for path in sorted(folder.glob("*.tsv.gz")):
            sources.append(ParaphraseTable.from_tsv(path, threshold=0.01, name=path.name.removesuffix(".tsv.gz")))
    return sources


def table_section(root: Path, args: argparse.Namespace, results: dict) -> list[str]:
    groups = load_groups(root / "alignment" / "mtreference" / "mt-reference.test.json")
    sources = table_sources(args)
    main_scores = {}
    variants = {}
    for source in sources:
        start = time.perf_counter()
        main_scores[source.name] = table_scores(groups, source)
        results.setdefault("timing", {})[f"table {source.name}"] = time.perf_counter() - start
        variants[source.name] = {
            "only referenced phrases": table_scores(groups, source, only_referenced=True),
            "hub sentences": table_scores(groups, source, sentences="hub"),
            "hub sentences, only referenced": table_scores(groups, source, sentences="hub", only_referenced=True),
            "tight reference pairs": table_scores(groups, source, tight=True),
            "tight reference pairs, only referenced": table_scores(groups, source, tight=True,
                                                                   only_referenced=True),
        }
    results["table"] = {name: {"all sentences": s.to_dict(), **{k: v.to_dict() for k, v in variants[name].items()}}
                        for name, s in main_scores.items()}
    return render_tables(results["table"])


def render_tables(table: dict) -> list[str]:
    """Markdown of the table scores (one row per source; then counts of every variant)."""
    names = list(table)
    first = table[names[0]]["all sentences"]
    cols = ["= 1" if n == 1 else f"≤ {n}" for n in LENGTHS]
    lines = [f"### MTReference test groups: LB-Precision / Rel-Recall ({first['groups']} groups, "
             f"{first['sentences']} distinct sentences, gold sure links)", "",
             "| source | " + " | ".join(f"LB-Prec {c}" for c in cols) + " | "
             + " | ".join(f"Rel-Recall {c}" for c in cols) + " |",
             "|---|" + "---:|" * (2 * len(cols))]
    for name in names:
        by_length = table[name]["all sentences"]["by_length"]
        row = [f3(by_length[str(n)]["lb_precision"]) for n in LENGTHS]
        row += [f3(by_length[str(n)]["rel_recall"]) for n in LENGTHS]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines += ["", "### Counts at Length ≤ 5, with the counting variants", "",
              "| source | variant | correct | posited | reference | LB-Precision | Rel-Recall |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for name in names:
        for variant, c in table[name].items():
            lines.append(f"| {name} | {variant} | {c['correct']:,} | {c['posited']:,} | {c['reference']:,} "
                         f"| {f3(c['lb_precision'])} | {f3(c['rel_recall'])} |")
    lines.append("")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-sultan", action="store_true", help="skip our aligner")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tables", default=str(ROOT / "build" / "tables"))
    parser.add_argument("--skip-tables", action="store_true", help="only the alignment scores")
    parser.add_argument("--skip-align", action="store_true", help="only the table scores")
    parser.add_argument("--output", default=None, help="markdown file (default: stdout)")
    parser.add_argument("--json", default=None, help="also write all numbers as JSON here")
    parser.add_argument("--render", default=None, metavar="JSON",
                        help="only print the table-score tables of a saved --json run")
    args = parser.parse_args()
    if args.render:
        print("\n".join(render_tables(json.loads(Path(args.render).read_text())["table"])))
        return
    root = data_dir()
    if root is None:
        sys.exit("corpora not found: set PARALIGN_DATA")
    results: dict = {}
    lines = [] if args.skip_align else align_section(root, args, results)
    if not args.skip_tables:
        lines += table_section(root, args, results)
    text = "\n".join(lines) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
