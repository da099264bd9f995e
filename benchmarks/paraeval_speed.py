"""ParaEval speed beside sacrebleu BLEU: every WMT21 de-en system against references A and B.

Both metrics score the same 19 systems x 1,000 segments x 2 references in the same process.
BLEU is timed the way people call it (`BLEU().corpus_score(hyps, refs)` per system). ParaEval
is timed cold (references indexed, paraphrase lookups cached on first use) and, separately, the
one-off loading of PPDB and WordNet, which a long-running process pays once.

Usage: .venv/bin/python benchmarks/paraeval_speed.py [--pair de-en] [--resources ppdb,wordnet]
       [--table TABLE ...] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from sacrebleu.metrics import BLEU

from paralign.corpora.wmt import load_wmt
from paralign.metrics.paraeval import ParaEval, build_sources, fast_wordnet_synonyms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="de-en")
    parser.add_argument("--resources", default="ppdb,wordnet")
    parser.add_argument("--table", action="append", default=[])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    data = load_wmt(None, args.pair)
    refs = [list(r) for r in data.reference_streams(["A", "B"])]
    systems = {name: list(h) for name, h in data.systems.items()}

    t0 = time.perf_counter()
    sources = build_sources(args.resources.split(","), args.table)
    if "wordnet" in args.resources:
        fast_wordnet_synonyms("warm")  # WordNet reader + offset index
    load = time.perf_counter() - t0

    runs = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        bleu = {n: BLEU().corpus_score(h, refs).score for n, h in systems.items()}
        t_bleu = time.perf_counter() - t0
        scorer = ParaEval(sources)  # fresh: no cached lookups or references
        t0 = time.perf_counter()
        prepared = scorer.prepare(refs)
        pe = {n: scorer.corpus_score(h, prepared).f for n, h in systems.items()}
        t_pe = time.perf_counter() - t0
        runs.append({"bleu_s": round(t_bleu, 2), "paraeval_s": round(t_pe, 2),
                     "ratio": round(t_pe / t_bleu, 2)})
    result = {"pair": args.pair, "systems": len(systems), "segments": len(data),
              "references": 2, "resource_load_s": round(load, 2), "runs": runs,
              "signature": scorer.signature(2),
              "example": {"system": next(iter(systems)), "bleu": round(next(iter(bleu.values())), 2),
                          "paraeval_f": round(next(iter(pe.values())), 4)}}
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
