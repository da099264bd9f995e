"""Rebuild the hybrid STS blend paralign ships (``src/paralign/data/hybrid_sts2012.json``).

The blend is fitted exactly as ``evaluate-sts --signal hybrid --train ...`` fits one
(:func:`paralign.similarity.hybrid.fit_hybrid_files`, the sultan aligner's default preset) on
SemEval STS 2012's two training files, MSRpar and SMTeuroparl, found under ``PARALIGN_DATA``.
No test file is read. ``tests/similarity/test_hybrid.py`` refits it and compares with the file.

    NLTK_DATA=../shared/data/nltk_data .venv/bin/python scripts/fit_default_hybrid.py
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from paralign.settings import data_dir
from paralign.similarity.hybrid import (
    DEFAULT_MODEL_FILE,
    DEFAULT_TRAINING_FILES,
    TRAINING_PAIRS_KEY,
    file_digests,
    fit_hybrid_files,
)

ABOUT = ("paralign's shipped hybrid STS blend: fitted by paralign.similarity.hybrid.fit_hybrid_files "
         "on SemEval STS 2012's training files (MSRpar.train.tsv, SMTeuroparl.train.tsv) with the sultan "
         "aligner's default preset; rebuilt by `python scripts/fit_default_hybrid.py` and checked "
         "against a refit by tests/similarity/test_hybrid.py when the data is present; training_pairs: "
         "the digests (paralign.similarity.hybrid.pair_digest) of the pairs it was fitted on, so that evaluate-sts "
         "and evaluate-paraphrase say when a pair they score is one")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1] / "src" / "paralign" / "data" / DEFAULT_MODEL_FILE
    parser.add_argument("-o", "--output", type=Path, default=default, help=f"model file (default: {default})")
    args = parser.parse_args()
    root = data_dir()
    if root is None:
        print("no corpora folder: set PARALIGN_DATA", file=sys.stderr)
        return 2
    paths = [root / name for name in DEFAULT_TRAINING_FILES]
    model = fit_hybrid_files(paths)
    document = {"about": ABOUT, **model.to_dict(),  # the aligner (sultan:default) included
                TRAINING_PAIRS_KEY: sorted(file_digests(paths))}
    args.output.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    blend = " + ".join(f"{w:.3f}·{n}" for n, w in zip(model.signals, model.weights, strict=True))
    print(f"{args.output}: {blend} (l2 {model.l2:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
