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


def _nltk_dirs() -> list[Path]:
    """NLTK's data folders in nltk's search order (NLTK_DATA, then ../shared/data/nltk_data as
    :func:`configure_nltk_data` adds it, then nltk's defaults), found without importing nltk
    (which takes seconds: it imports most of its subpackages)."""
    import os
    import sys

    from .settings import _candidate_shared_dirs, data_dir

    dirs = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    if not dirs:
        root = data_dir()
        dirs += [root / "nltk_data"] if root is not None else []
        dirs += [c / "nltk_data" for c in _candidate_shared_dirs()]
    dirs += [Path.home() / "nltk_data", Path(sys.prefix) / "nltk_data",
             Path(sys.prefix) / "share" / "nltk_data", Path(sys.prefix) / "lib" / "nltk_data",
             Path("/usr/share/nltk_data"), Path("/usr/local/share/nltk_data"),
             Path("/usr/lib/nltk_data"), Path("/usr/local/lib/nltk_data")]
    return dirs


def _find(resource: str, package: str, what: str) -> Path:
    for folder in _nltk_dirs():
        if (folder / resource).exists():
            return folder / resource
    configure_nltk_data()  # not found by the quick walk: ask nltk itself
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
    names): the data, index and exception files are read once as raw bytes (about a second)
    into offset -> lemma names, lemma -> POS -> offsets and nltk's exception lists, so the slow
    nltk reader (which also maps WordNet 3.0 onto itself for the multilingual OMW data) is
    never built for synonyms. Morphy is nltk's own code, run over these tables.
    """

    _POS_FILES = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))

    def __init__(self) -> None:
        files = _WordNetFiles()
        self.names: dict[str, dict[int, tuple[str, ...]]] = {}
        self._lemma_pos_offset_map: dict[str, dict[str, list[int]]] = {}
        self._exception_map: dict[str, dict[str, list[str]]] = {}
        self.version = "unknown"
        for pos, suffix in self._POS_FILES:
            text = files.read(f"data.{suffix}")
            if pos == "a":
                found = re.search(r"Word[nN]et (\d+|\d+\.\d+) Copyright", text[:5000])
                self.version = found.group(1) if found else self.version
            table: dict[int, tuple[str, ...]] = {}
            for line in text.splitlines():
                if not line or line.startswith(" "):
                    continue  # licence header
                fields = line.split(" ", 4 + 2 * 255)
                count = int(fields[3], 16)
                table[int(fields[0])] = tuple(
                    _ADJ_MARKER.sub("", name).replace("_", " ").lower()
                    for name in fields[4:4 + 2 * count:2])
            self.names[pos] = table
            for line in files.read(f"index.{suffix}").splitlines():
                if not line or line.startswith(" "):
                    continue
                fields = line.split()
                n_synsets, n_pointers = int(fields[2]), int(fields[3])
                start = 4 + n_pointers + 2
                self._lemma_pos_offset_map.setdefault(fields[0], {})[pos] = [
                    int(f) for f in fields[start:start + n_synsets]]
            self._exception_map[pos] = {
                terms[0]: terms[1:] for terms in
                (line.split() for line in files.read(f"{suffix}.exc").splitlines()) if terms}

    def _morphy(self, form: str, pos: str) -> list[str]:
        """nltk's `WordNetCorpusReader._morphy` (exception list, else one round of the
        substitution rules; the forms WordNet lists for `pos`, the word itself first)."""
        exceptions = self._exception_map[pos]
        if form in exceptions:
            forms = exceptions[form]
        else:
            forms = [form[: -len(old)] + new for old, new in _SUBSTITUTIONS[pos]
                     if form.endswith(old)]
        out: list[str] = []
        index = self._lemma_pos_offset_map
        for candidate in [form, *forms]:
            if pos in index.get(candidate, ()) and candidate not in out:
                out.append(candidate)
        return out

    def multiword_lemmas(self) -> frozenset[str]:
        """Lower-cased WordNet lemma names of more than one word (with spaces)."""
        return frozenset(name.replace("_", " ").lower()
                         for name in self._lemma_pos_offset_map if "_" in name)

    def synonyms(self, word: str) -> frozenset[str]:
        """nltk's `synsets(word)` walk (morphy per POS, then offsets), over the index."""
        key = word.lower().replace(" ", "_")
        index = self._lemma_pos_offset_map
        out: set[str] = set()
        for pos, table in self.names.items():
            for form in self._morphy(key, pos):
                for offset in index[form].get(pos, ()):
                    out.update(table[offset])
        out.discard(word.lower())
        return frozenset(out)


#: nltk's MORPHOLOGICAL_SUBSTITUTIONS (WordNet's morphy rules), per POS.
_NOUN_RULES = (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
               ("shes", "sh"), ("men", "man"), ("ies", "y"))
_VERB_RULES = (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
               ("ing", "e"), ("ing", ""))
_ADJ_RULES = (("er", ""), ("est", ""), ("er", "e"), ("est", "e"))
_SUBSTITUTIONS = {"n": _NOUN_RULES, "v": _VERB_RULES, "a": _ADJ_RULES, "r": ()}

_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")


class _WordNetFiles:
    """The WordNet data files, from a folder or from inside wordnet.zip (read as raw bytes)."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.zip_path: Path | None = None
        for folder in _nltk_dirs():
            if (folder / "corpora" / "wordnet" / "data.noun").is_file():
                self.folder = folder / "corpora" / "wordnet"
                return
            if (folder / "corpora" / "wordnet.zip").is_file():
                self.zip_path = folder / "corpora" / "wordnet.zip"
                return
        raise _missing("WordNet", "wordnet")

    def read(self, name: str) -> str:
        if self.folder is not None:
            return (self.folder / name).read_bytes().decode("utf-8")
        import zipfile

        with zipfile.ZipFile(self.zip_path) as archive:  # type: ignore[arg-type]
            return archive.read(f"wordnet/{name}").decode("utf-8")


def wordnet_multiword() -> frozenset[str]:
    """WordNet's lemma names of more than one word, lower-cased with spaces (from the index)."""
    return _wordnet_index().multiword_lemmas()


def wordnet_version() -> str:
    """The WordNet version of the data files ("3.0" for NLTK's package)."""
    return _wordnet_index().version


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
