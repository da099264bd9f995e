"""Which published figures the whitespace fix (commit 40e7f5e, `nlp.one_space`) can move.

Before that commit spaCy made a token of every whitespace character but a single space (a run
of spaces, a tab, a newline, a no-break or thin space), which the aligner aligned and the
signals counted. This script

1. counts, in every data file a results page reads as raw text, the rows whose sentences (as
   the library's readers give them: STS and MSRP fields are stripped) change under
   `one_space`; MTReference groups are token lists, kept exactly, so only a token holding
   whitespace would count;
2. with ``--old-src``, scores the changed rows with both source trees (each in its own
   interpreter, this file run with ``--dump``) and lists what differs per file: the tokens, the
   links (as the linked words, since indices shift), each similarity signal and the
   paraphrase feature vector. A file whose changed rows all score the same gives the same
   figures: every other row is annotated as before.

    .venv/bin/python benchmarks/whitespace_rows.py                   # counts only
    .venv/bin/python benchmarks/whitespace_rows.py --old-src /work/wt-old/src --new-src src \\
        [--aligners sultan:default,sultan:paraphrase,sultan:paper,exact,contextual] [--embedding]

``contextual`` and ``--embedding`` need the neural extra (MiniLM).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

STS_FILES = ("sts/2012/MSRpar.train.tsv", "sts/2012/SMTeuroparl.train.tsv", "sts/2012/MSRpar.test.tsv",
             "sts/2012/SMTeuroparl.test.tsv", "sts/2012/SMTnews.test.tsv", "sts/2012/OnWN.test.tsv",
             "sts/2013/headlines.test.tsv", "sts/2013/OnWN.test.tsv", "sts/2013/FNWN.test.tsv",
             "stsbenchmark/sts-train.csv", "stsbenchmark/sts-dev.csv")
MSRP_FILES = ("msrp/msr-para-train.tsv", "msrp/msr-para-val.tsv", "msrp/msr-para-test.tsv")
MTREF_FILES = ("mt-reference.dev.json", "mt-reference.test.json")
BIBLE = "multitranslation/bible-ot/bible_7versions_ot.tsv"
LEXICAL_SIGNALS = ("sultan2014", "sultan2015", "mean-proportion", "numbers", "all-words")


def one_space(text: str) -> str:
    """What `paralign.nlp.one_space` makes of a text (written out: the old tree has none)."""
    return " ".join(text.split())


def changed_rows(root: Path) -> tuple[list[tuple[str, int, int]], dict[str, tuple[str, str]]]:
    """Per file (rows, rows that change); and the changed pairs by ``file:row`` (row: the STS
    file's line, the MSRP pair's index)."""
    from paralign.corpora.groups import alignment_groups, iter_groups
    from paralign.corpora.msrp import load_msrp
    from paralign.corpora.sts import load_sts

    counts: list[tuple[str, int, int]] = []
    pairs: dict[str, tuple[str, str]] = {}
    for name in STS_FILES:
        sts = list(load_sts(root / "similarity" / name))
        hit = {f"{name}:{p.line}": (p.sentence1, p.sentence2) for p in sts
               if one_space(p.sentence1) != p.sentence1 or one_space(p.sentence2) != p.sentence2}
        counts.append((name, len(sts), len(hit)))
        pairs.update(hit)
    for name in MSRP_FILES:
        msrp = list(load_msrp(root / "similarity" / name))
        hit = {f"{name}:{k}": (p.sentence1, p.sentence2) for k, p in enumerate(msrp)
               if one_space(p.sentence1) != p.sentence1 or one_space(p.sentence2) != p.sentence2}
        counts.append((name, len(msrp), len(hit)))
        pairs.update(hit)
    for name in MTREF_FILES:
        token_groups = list(alignment_groups(root / "alignment" / "mtreference" / name))
        bad = sum(any(one_space(t) != t or not t for tokens in sents for t in tokens) for _, sents in token_groups)
        counts.append((f"{name} (groups)", len(token_groups), bad))
    verses = list(iter_groups(root / BIBLE))
    counts.append((f"{Path(BIBLE).name} (verses)", len(verses),
                   sum(any(one_space(s) != s for s in g.sentences) for g in verses)))
    return counts, pairs


def dump(root: Path, aligners: list[str], embedding: bool, out: Path) -> None:
    """Score the changed pairs with the paralign on PYTHONPATH; write JSON to `out`."""
    from paralign.aligners.batch import align_pairs
    from paralign.aligners.registry import get_aligner
    from paralign.similarity.features import FEATURE_SETS, pair_features, prepare_features
    from paralign.similarity.scores import score_aligned

    _, pairs = changed_rows(root)
    keys = list(pairs)
    result: dict[str, dict] = {}
    for label in aligners:
        name, _, preset = label.partition(":")
        batch = align_pairs([pairs[k] for k in keys], aligner=get_aligner(name, preset or "default"))
        rows: dict[str, dict] = {}
        for key, item in zip(keys, batch.items, strict=True):
            rows[key] = {} if item is None else {
                "tokens": [list(item.source.tokens), list(item.target.tokens)],
                "links": sorted([item.source.tokens[i], item.target.tokens[j]] for i, j in item.alignment.sure)}
        signals = ("contextual-alignment", "embedding") if name == "contextual" else LEXICAL_SIGNALS
        for signal in signals:
            for key, score in zip(keys, score_aligned(batch, signal).scores, strict=True):
                rows[key][signal] = score
        if name != "contextual":
            names = FEATURE_SETS["alignment+mt+embedding" if embedding else "alignment+mt"]
            prepare_features(batch.items, names)
            for key, item in zip(keys, batch.items, strict=True):
                rows[key]["features"] = None if item is None else list(pair_features(item, names))
        result[label] = rows
    out.write_text(json.dumps(result), encoding="utf-8")


def differences(old: dict, new: dict, tolerance: float = 1e-12) -> dict[str, Counter]:
    """Per aligner, (file, field) -> how many changed pairs differ there."""
    found: dict[str, Counter] = defaultdict(Counter)
    for label, rows in old.items():
        for key, before in rows.items():
            after = new[label][key]
            file = key.rsplit(":", 1)[0]
            for field, value in before.items():
                other = after.get(field)
                if field == "features" and value is not None and other is not None:
                    same = all(abs(a - b) <= tolerance for a, b in zip(value, other, strict=True))
                elif isinstance(value, float) and isinstance(other, float):
                    same = abs(value - other) <= tolerance
                else:
                    same = value == other
                if not same:
                    found[label][(file, field)] += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-src", help="src folder of the tree before the fix (a git worktree)")
    parser.add_argument("--new-src", default="src")
    parser.add_argument("--aligners", default="sultan:default,sultan:paraphrase,sultan:paper,exact")
    parser.add_argument("--embedding", action="store_true", help="alignment+mt+embedding features (neural extra)")
    parser.add_argument("--dump", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    from paralign.settings import data_dir

    root = data_dir()
    if root is None:
        print("corpora not found: set PARALIGN_DATA", file=sys.stderr)
        return 2
    aligners = [a for a in args.aligners.split(",") if a]
    if args.dump:
        dump(root, aligners, args.embedding, Path(args.dump))
        return 0
    counts, pairs = changed_rows(root)
    print("| file | rows | rows that change |\n|---|---:|---:|")
    for name, rows, hit in counts:
        print(f"| {name} | {rows:,} | {hit} |")
    if not args.old_src:
        return 0
    dumps = {}
    with tempfile.TemporaryDirectory() as tmp:
        for tree, src in (("old", args.old_src), ("new", args.new_src)):
            out = Path(tmp) / f"{tree}.json"
            env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
            command = [sys.executable, __file__, "--dump", str(out), "--aligners", args.aligners]
            subprocess.run(command + (["--embedding"] if args.embedding else []), env=env, check=True)
            dumps[tree] = json.loads(out.read_text(encoding="utf-8"))
    print(f"\n{len(pairs)} changed pairs scored by both trees; what differs (pairs):")
    for label, found in differences(dumps["old"], dumps["new"]).items():
        print(f"- {label}: " + "; ".join(f"{file} {field} {n}" for (file, field), n in sorted(found.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
