"""Check the WordNet offset index against nltk's `synsets` on the whole WordNet 3.0 vocabulary.

Words checked: every lemma name of every POS (underscores -> spaces, as `wordnet_synonyms`
expects), as written in the data files (case kept) and lower-cased, plus common inflections
(+s, +es, +d, +ed, +ing, +er, +est, y -> ies/ied, e-drop + ing/ed, doubled final consonant +
ed/ing) and capitalised, title-cased and upper-cased forms. For each word the nltk path
(`resources._nltk_wordnet_synonyms`: `wn.synsets` then lemma names) and the index path
(`_WordNetIndex.synonyms`, which `wordnet_synonyms` goes through) must give the same set.

Timings: a cold sample of 2,000 lemma names (timed before nltk has built and cached any
Synset) and the full pass (nltk's Synset cache is warm by then, as in a long-running
process); the index build time is measured separately. Both paths run uncached.

Usage: nice .venv/bin/python benchmarks/wordnet_index_check.py [--limit N] [--show 50]
       [--format text|json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterable

from paralign import resources

VOWELS = frozenset("aeiou")


def inflections(word: str) -> list[str]:
    """Regular and common irregular-looking inflected forms of a lower-cased lemma."""
    forms = [word + suffix for suffix in ("s", "es", "d", "ed", "ing", "er", "est")]
    if word.endswith("y"):
        forms += [word[:-1] + "ies", word[:-1] + "ied"]
    if word.endswith("e"):
        forms += [word[:-1] + "ing", word[:-1] + "ed"]
    if len(word) > 2 and word[-1].isalpha() and word[-1] not in VOWELS and word[-2] in VOWELS:
        forms += [word + word[-1] + "ed", word + word[-1] + "ing"]
    return forms


def case_forms(word: str) -> list[str]:
    return [word.capitalize(), word.title(), word.upper()]


def base_words() -> set[str]:
    """Every lemma name of WordNet's index (lower-cased), underscores turned to spaces."""
    return {name.replace("_", " ") for name in resources.wordnet().all_lemma_names()}


def vocabulary(lemmas: set[str]) -> tuple[list[str], dict[str, int]]:
    """All words to check (sorted, unique) and how many came from each group."""
    # As written in the data files (case kept), through nltk's own Synset parsing.
    written = {name.replace("_", " ") for synset in resources.wordnet().all_synsets()
               for name in synset.lemma_names()}
    lowered = {w.lower() for w in written}
    inflected = {form for w in lemmas | lowered for form in inflections(w)}
    cased = {form for w in lemmas | lowered | inflected for form in case_forms(w)}
    groups = {"index lemma names": len(lemmas), "data-file names (case kept)": len(written),
              "lower-cased data-file names": len(lowered), "inflected forms": len(inflected),
              "capitalised/title/upper forms": len(cased)}
    return sorted(lemmas | written | lowered | inflected | cased), groups


def timed(fn: Callable[[str], frozenset[str]], words: Iterable[str]) -> tuple[list, float]:
    start = time.perf_counter()
    out = [fn(w) for w in words]
    return out, time.perf_counter() - start


def check(limit: int | None = None, seed: int = 13) -> dict:
    """Compare both paths on the vocabulary (the first `limit` of a seeded shuffle if given)."""
    nltk_path = resources._nltk_wordnet_synonyms
    start = time.perf_counter()
    resources.wordnet()
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    index = resources._WordNetIndex()
    build_s = time.perf_counter() - start
    fast_path = index.synonyms

    lemmas = base_words()
    rng = random.Random(seed)
    cold = rng.sample(sorted(lemmas), 2000)  # real words: every one has synsets
    _, cold_nltk = timed(nltk_path, cold)  # before nltk has built (and cached) any Synset
    _, cold_fast = timed(fast_path, cold)

    words, groups = vocabulary(lemmas)
    rng.shuffle(words)
    if limit is not None:
        words = words[:limit]

    mismatches = []
    nltk_s = fast_s = 0.0
    with_synonyms = 0
    chunk = 20_000
    for i in resources_progress(range(0, len(words), chunk)):
        part = words[i:i + chunk]
        slow, t_slow = timed(nltk_path, part)
        fast, t_fast = timed(fast_path, part)
        nltk_s += t_slow
        fast_s += t_fast
        with_synonyms += sum(1 for a in slow if a)
        for word, a, b in zip(part, slow, fast, strict=True):
            if a != b:
                mismatches.append({"word": word, "nltk_only": sorted(a - b),
                                   "index_only": sorted(b - a)})
    n = len(words)
    return {
        "words_checked": n, "groups": groups, "mismatches": len(mismatches),
        "words_with_synonyms": with_synonyms,
        "reader_load_s": round(load_s, 2), "index_build_s": round(build_s, 2),
        "cold_2000_lemmas": {"nltk_s": round(cold_nltk, 3), "index_s": round(cold_fast, 3)},
        "full_pass": {"nltk_s": round(nltk_s, 1), "index_s": round(fast_s, 1),
                      "nltk_ms_per_1000": round(1000 * nltk_s / n * 1000, 1),
                      "index_ms_per_1000": round(1000 * fast_s / n * 1000, 1),
                      "speedup": round(nltk_s / fast_s, 1) if fast_s else None},
        "mismatch_list": mismatches,
    }


def resources_progress(items: range) -> Iterable[int]:
    from paralign.cli._common import progress

    return progress(items, desc="words/20k")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="check only N words (sampled)")
    parser.add_argument("--show", type=int, default=50, help="mismatches to list")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    result = check(args.limit)
    shown = result["mismatch_list"][:args.show]
    if args.format == "json":
        result["mismatch_list"] = shown
        print(json.dumps(result, indent=1))
    else:
        print(f"words checked: {result['words_checked']:,}")
        for name, count in result["groups"].items():
            print(f"  {name}: {count:,}")
        print(f"words with at least one synonym (nltk path): {result['words_with_synonyms']:,}")
        print(f"mismatches: {result['mismatches']:,}")
        print(f"nltk reader load: {result['reader_load_s']} s; "
              f"index build: {result['index_build_s']} s")
        cold = result["cold_2000_lemmas"]
        print(f"cold 2,000 lemma names: nltk {cold['nltk_s']} s, index {cold['index_s']} s")
        full = result["full_pass"]
        print(f"full pass: nltk {full['nltk_s']} s ({full['nltk_ms_per_1000']} ms/1,000), "
              f"index {full['index_s']} s ({full['index_ms_per_1000']} ms/1,000), "
              f"x{full['speedup']}")
        for m in shown:
            print(f"  {m['word']!r}: nltk only {m['nltk_only']}, index only {m['index_only']}")
    return 1 if result["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
