"""How often greedy paraphrase matching loses words that plain unigram matching would match.

Compares ParaEval with PPDB+WordNet against the same scorer without sources, per segment, on
WMT21 de-en reference A: an optimal matching could at most win back these words.

Usage: .venv/bin/python benchmarks/paraeval_greedy_loss.py [--systems Online-W,UEdin,happypoet]
"""

from __future__ import annotations

import argparse
import json
import sys

from paralign.corpora.wmt import load_wmt
from paralign.metrics.paraeval import ParaEval, build_sources


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="de-en")
    parser.add_argument("--systems", default="Online-W,UEdin,happypoet")
    args = parser.parse_args()
    data = load_wmt(None, args.pair)
    refs = data.reference_streams(["A"])
    para, plain = ParaEval(build_sources()), ParaEval([])
    out = {"segments": 0, "hyp_loss_segments": 0, "hyp_loss_words": 0, "ref_loss_segments": 0,
           "ref_loss_words": 0, "ref_words": 0}
    for name in args.systems.split(","):
        hyps = data.systems[name]
        for a, b in zip(para.segment_stats(hyps, refs), plain.segment_stats(hyps, refs),
                        strict=True):
            out["segments"] += 1
            out["ref_words"] += a.ref_words
            if a.hyp_matched < b.hyp_matched:
                out["hyp_loss_segments"] += 1
                out["hyp_loss_words"] += b.hyp_matched - a.hyp_matched
            if a.ref_matched < b.ref_matched:
                out["ref_loss_segments"] += 1
                out["ref_loss_words"] += b.ref_matched - a.ref_matched
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
