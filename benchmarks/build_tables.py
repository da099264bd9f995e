"""Build the paraphrase tables of docs/results/pivot.md into build/tables/ (not committed).

    .venv/bin/python benchmarks/build_tables.py [--only NAME ...] [--bible-groups N] [--sultan-groups N]

Tables (stable names, used by other parts of the project):
  multi30k-pivot.tsv.gz     Multi30k train, English pivoted through German, French and Czech
  multi30k-pivot-de.tsv.gz  the same through German only
  opennmt-pivot.tsv.gz      OpenNMT toy English-German (Moses-tokenised; length ratio <= 2)
  bible-mono-eflomal.tsv.gz Bible OT groups, all version pairs of the first N verses, eflomal
  bible-mono-eflomal-min2.tsv.gz  the same, pairs seen at least twice
  bible-mono-sultan.tsv.gz  the same on a smaller sample with the Sultan aligner
Work directories are kept in build/work/NAME (keep_work=True), so an interrupted build resumes
and bible-mono-eflomal-min2 reuses bible-mono-eflomal's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


from paralign.pivot import (  # noqa: E402
    PivotOptions,
    monolingual_paraphrases,
    pivot_paraphrases,
)
from paralign.settings import data_dir  # noqa: E402

OUT = ROOT / "build" / "tables"
WORK = ROOT / "build" / "work"


def _progress(items: Iterable[Any], desc: str = "", total: int | None = None) -> Iterable[Any]:
    from tqdm import tqdm

    return tqdm(items, desc=desc, total=total, file=sys.stderr, leave=False, mininterval=5)


def build(name: str, args: argparse.Namespace) -> dict:
    data = data_dir()
    if data is None:
        raise SystemExit("corpora not found: set PARALIGN_DATA")
    m30k = data / "parallel" / "multi30k" / "task1_raw"
    nmt = data / "parallel" / "opennmt-toy-ende-10k"
    bible = data / "multitranslation" / "bible-ot" / "bible_7versions_ot.tsv"
    output = OUT / f"{name}.tsv.gz"
    work_dir = WORK / name
    if name == "multi30k-pivot":
        corpora = [(m30k / "train.en.gz", m30k / f"train.{lang}.gz") for lang in ("de", "fr", "cs")]
        report = pivot_paraphrases(corpora, output, PivotOptions(), work_dir=work_dir, keep_work=True, progress=_progress)
    elif name == "multi30k-pivot-de":
        report = pivot_paraphrases([(m30k / "train.en.gz", m30k / "train.de.gz")], output, PivotOptions(),
                                   work_dir=work_dir, keep_work=True, progress=_progress)
    elif name == "opennmt-pivot":
        options = PivotOptions(tokenizer="moses", max_length_ratio=2.0)
        report = pivot_paraphrases([(nmt / "src-train.txt", nmt / "tgt-train.txt")], output, options,
                                   work_dir=work_dir, keep_work=True, progress=_progress)
    elif name == "bible-mono-eflomal":
        options = PivotOptions(max_length_ratio=2.0)
        report = monolingual_paraphrases(
            bible, output, options, aligner="eflomal", max_groups=args.bible_groups, work_dir=work_dir, keep_work=True,
            progress=_progress,
        )
    elif name == "bible-mono-eflomal-min2":  # same work directory, output stage only
        options = PivotOptions(max_length_ratio=2.0, min_count=2)
        report = monolingual_paraphrases(
            bible, output, options, aligner="eflomal", max_groups=args.bible_groups,
            work_dir=WORK / "bible-mono-eflomal", keep_work=True, progress=_progress,
        )
    elif name == "bible-mono-sultan":
        options = PivotOptions(max_length_ratio=2.0, chunk_size=500)
        report = monolingual_paraphrases(
            bible, output, options, aligner="sultan", max_groups=args.sultan_groups,
            workers=args.workers, work_dir=work_dir, keep_work=True, progress=_progress,
        )
    else:
        raise SystemExit(f"unknown table {name}")
    return report.to_dict()


NAMES = ("multi30k-pivot", "multi30k-pivot-de", "opennmt-pivot", "bible-mono-eflomal",
         "bible-mono-eflomal-min2", "bible-mono-sultan")


DEFAULT_SHOW = ("man", "woman", "dog", "street", "little", "big", "shirt", "is playing", "a group of",
                "in front of", "people", "said", "lord", "therefore", "went up", "we must")


def show(names, phrases, k: int) -> None:
    """A markdown table: phrase x table -> top-k paraphrases with probabilities."""
    from paralign.pivot import top_paraphrases

    names = [n for n in names if (OUT / f"{n}.tsv.gz").exists()]
    tops = {n: top_paraphrases(OUT / f"{n}.tsv.gz", phrases, k) for n in names}
    print("| phrase | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for phrase in phrases:
        cells = [", ".join(f"{q} ({p:.2f})" for q, p in tops[n][phrase]) or "—" for n in names]
        print(f"| {phrase} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", choices=NAMES, default=None)
    parser.add_argument("--bible-groups", type=int, default=3000)
    parser.add_argument("--sultan-groups", type=int, default=150)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--show", nargs="*", default=None, metavar="PHRASE",
                        help="build nothing; print the top paraphrases of PHRASEs in the built tables")
    parser.add_argument("--k", type=int, default=4)
    args = parser.parse_args()
    if args.show is not None:
        show(args.only or NAMES, args.show or DEFAULT_SHOW, args.k)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.only or NAMES:
        start = time.perf_counter()
        result = build(name, args)
        result["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps({name: result}), flush=True)


if __name__ == "__main__":
    main()
