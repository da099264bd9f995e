"""Lexical resources, loaded once and lazily: stop words, PPDB lexical pairs, WordNet."""

from __future__ import annotations

import functools
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import ResourceMissingError
from .settings import configure_nltk_data

if TYPE_CHECKING:  # pragma: no cover
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

#: NLTK packages `paralign download` fetches.
NLTK_PACKAGES: tuple[str, ...] = ("wordnet", "stopwords", "mwa_ppdb")

PPDB_FILE = "misc/mwa_ppdb/ppdb-1.0-xxxl-lexical.extended.synonyms.uniquepairs"

_lock = threading.RLock()


def _missing(what: str, package: str, exc: Exception | None = None) -> ResourceMissingError:
    detail = f" ({exc})" if exc else ""
    return ResourceMissingError(
        f"{what} not found: set NLTK_DATA to a folder holding the NLTK '{package}' data, "
        f"or run `paralign download` on a machine with internet{detail}"
    )


def _find(resource: str, package: str, what: str) -> Path:
    configure_nltk_data()
    import nltk.data

    try:
        return Path(str(nltk.data.find(resource)))
    except LookupError as exc:
        raise _missing(what, package) from exc


@functools.cache
def stopwords() -> frozenset[str]:
    """NLTK's English stop-word list (the 127-word list of 2014 in the shipped data)."""
    with _lock:
        path = _find("corpora/stopwords/english", "stopwords", "NLTK stop words")
        words = path.read_text(encoding="utf-8").split()
        return frozenset(w.strip().lower() for w in words if w.strip())


@functools.cache
def ppdb_pairs() -> frozenset[tuple[str, str]]:
    """PPDB 1.0 XXXL lexical pairs (lower-cased), in both orders; malformed lines are skipped."""
    with _lock:
        path = _find(PPDB_FILE, "mwa_ppdb", "PPDB lexical pairs (mwa_ppdb)")
        pairs: set[tuple[str, str]] = set()
        with open(path, encoding="utf-8", newline="") as handle:
            # CRLF in NLTK's copy; LF accepted too. Not splitlines(): entries hold \x1c-\x1e.
            for line in handle.read().split("\n"):
                fields = line.rstrip("\r").split("\t")
                if len(fields) != 2 or not fields[0] or not fields[1]:
                    continue
                a, b = fields[0].lower(), fields[1].lower()
                pairs.add((a, b))
                pairs.add((b, a))
        return frozenset(pairs)


def ppdb_similar(word1: str, word2: str) -> bool:
    """True when the lower-cased pair is a PPDB lexical pair (either order)."""
    return (word1.lower(), word2.lower()) in ppdb_pairs()


@functools.cache
def wordnet() -> WordNetCorpusReader:
    """The NLTK WordNet 3.0 reader, checked to be present."""
    with _lock:
        if not (_has("corpora/wordnet") or _has("corpora/wordnet.zip")):
            raise _missing("WordNet", "wordnet")
        from nltk.corpus import wordnet as wn

        try:
            wn.ensure_loaded()
        except LookupError as exc:
            raise _missing("WordNet", "wordnet", exc) from exc
        return wn


def _has(resource: str) -> bool:
    configure_nltk_data()
    import nltk.data

    try:
        nltk.data.find(resource)
        return True
    except LookupError:
        return False


@functools.cache
def wordnet_synonyms(word: str) -> frozenset[str]:
    """Lower-cased WordNet lemma names sharing a synset with `word` (multiword names with spaces).

    nltk's answer (morphy, then every synset's lemma names; `word` itself left out), read from
    an offset index built once instead of nltk's Synset objects. Shown equal to
    :func:`_nltk_wordnet_synonyms` on all 4.7 million WordNet lemma names, their lower-cased,
    inflected and capitalised forms (`benchmarks/wordnet_index_check.py`).
    """
    return _wordnet_index().synonyms(word)


#: Former name of :func:`wordnet_synonyms`, kept for existing callers.
fast_wordnet_synonyms = wordnet_synonyms


def _nltk_wordnet_synonyms(word: str) -> frozenset[str]:
    """Reference path (nltk's `wn.synsets`, then lemma names): only for checking the index."""
    wn = wordnet()
    out: set[str] = set()
    for synset in wn.synsets(word.replace(" ", "_")):
        for lemma in synset.lemma_names():
            out.add(lemma.replace("_", " ").lower())
    out.discard(word.lower())
    return frozenset(out)


class _WordNetIndex:
    """WordNet synonyms without building nltk Synset objects (the path behind `wordnet_synonyms`).

    Same answer as :func:`_nltk_wordnet_synonyms` (nltk's morphy, then every synset's lemma
    names): the data files are read once (about a second) into offset -> lemma names.
    """

    def __init__(self) -> None:
        self.wn = wordnet()
        self.names: dict[str, dict[int, tuple[str, ...]]] = {}
        for pos, filename in (("n", "data.noun"), ("v", "data.verb"), ("a", "data.adj"),
                              ("r", "data.adv")):
            table: dict[int, tuple[str, ...]] = {}
            with self.wn._root.join(filename).open() as handle:  # raw bytes: 30x faster
                text = handle.read().decode("utf-8")
            for line in text.splitlines():
                if not line or line.startswith(" "):
                    continue  # licence header
                fields = line.split(" ", 4 + 2 * 255)
                count = int(fields[3], 16)
                table[int(fields[0])] = tuple(
                    _ADJ_MARKER.sub("", name).replace("_", " ").lower()
                    for name in fields[4:4 + 2 * count:2])
            self.names[pos] = table

    def synonyms(self, word: str) -> frozenset[str]:
        """nltk's `synsets(word)` walk (morphy per POS, then offsets), over the index."""
        key = word.lower().replace(" ", "_")
        index = self.wn._lemma_pos_offset_map
        out: set[str] = set()
        for pos, table in self.names.items():
            for form in self.wn._morphy(key, pos):
                for offset in index[form].get(pos, ()):
                    out.update(table[offset])
        out.discard(word.lower())
        return frozenset(out)


_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")


_index: _WordNetIndex | None = None


def _wordnet_index() -> _WordNetIndex:
    """The offset index, built once per process (under the lock, so threads share one build)."""
    global _index
    if _index is None:
        with _lock:
            if _index is None:
                _index = _WordNetIndex()
    return _index


def download(packages: tuple[str, ...] = NLTK_PACKAGES, target: str | None = None) -> dict[str, bool]:
    """Fetch the NLTK packages paralign uses (needs internet); returns success per package."""
    import nltk

    return {pkg: bool(nltk.download(pkg, download_dir=target, quiet=True)) for pkg in packages}
