"""Word similarity for the Sultan et al. (2014) aligner: 1 (same word), ppdbSim (related), 0.

The related-word test is pluggable: anything with ``name`` and ``related(a, b) -> bool`` over
lower-cased words (or over words as written, for one whose ``cased`` is true: a paraphrase
table built with ``--keep-case``, matched with its case as every consumer matches it). PPDB lexical pairs are the default (the paper's resource); WordNet synonyms
and any paraphrase table (a Parquet or TSV file) plug in the same way, and several can be combined.
"""

from __future__ import annotations

import functools
import os
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from ...caching import CappedDict
from ...errors import ConfigurationError, FormatError
from ...paraphrases import ParaphraseSource, ParaphraseTable, looked_up_as_typed, lookup_key
from ...stemming import stem as snowball_stem

#: The reference implementation's punctuation list, plus the PTB quote/bracket spellings.
PUNCTUATION: frozenset[str] = frozenset(
    ["(", "-lrb-", ".", ",", "-", "?", "!", ";", "_", ":", "{", "}", "[", "/", "]", "...", '"', "'", ")", "-rrb-", "-lsb-", "-rsb-", "-lcb-", "-rcb-", "``", "''", "`", "--", "‘", "’", "“", "”", "–", "—", "…"]
)

#: The most words whose lookup key a table's word similarity keeps (a server's lives long).
KEY_CACHE_SIZE = 100_000

#: Lemmas the content-word stages never align (clitics the reference skips).
CLITICS: frozenset[str] = frozenset({"'s", "'d", "'ll"})


@runtime_checkable
class RelatedWords(Protocol):
    """A source of related (paraphrase) word pairs; both words are lower-cased."""

    name: str

    def related(self, a: str, b: str) -> bool:
        """True when the lower-cased words `a` and `b` are related (paraphrases)."""
        ...


class PPDBSimilarity:
    """PPDB 1.0 XXXL lexical pairs (Sultan et al.'s list), looked up in both orders."""

    name = "ppdb"
    cased = False  # given lower-cased words (:func:`is_cased`)

    def __init__(self) -> None:
        from ...resources import ppdb_pairs

        self._pairs = ppdb_pairs()

    def related(self, a: str, b: str) -> bool:
        """True when (a, b) is a PPDB lexical pair (the set holds both orders)."""
        return (a, b) in self._pairs


class WordNetSimilarity:
    """Two words are related when they share a WordNet synset."""

    name = "wordnet"
    cased = False  # given lower-cased words (:func:`is_cased`)

    def related(self, a: str, b: str) -> bool:
        """True when either word is among the other's WordNet synonyms."""
        from ...resources import wordnet_synonyms

        return b in wordnet_synonyms(a) or a in wordnet_synonyms(b)


class SpellingSimilarity:
    """Spelling variants and typos: long alphabetic words one edit apart (OSA distance).

    An extension, not in the paper: RTE hypotheses and translations misspell names
    ("Stompanato"/"Stomponato"). Short words are left out, where one edit often changes the
    word ("house"/"horse").
    """

    name = "spelling"
    cased = False  # given lower-cased words (:func:`is_cased`)

    def __init__(self, min_length: int = 6, max_edits: int = 1) -> None:
        self.min_length = min_length
        self.max_edits = max_edits

    def related(self, a: str, b: str) -> bool:
        """True for alphabetic words of at least `min_length` within `max_edits` OSA edits."""
        if min(len(a), len(b)) < self.min_length or abs(len(a) - len(b)) > self.max_edits:
            return False
        if not (a.isalpha() and b.isalpha()):
            return False
        if self.max_edits == 1:  # the default: the same answer in one pass (the aligner asks ~160 times a pair)
            return within_one_edit(a, b)
        return osa_distance(a, b, self.max_edits) <= self.max_edits


def within_one_edit(a: str, b: str) -> bool:
    """``osa_distance(a, b) <= 1`` in one pass over the words: they are equal, or one edit
    apart (a character inserted, deleted or substituted, or two neighbours swapped), which is
    what an optimal-string-alignment distance of 1 is. Past the first difference, the rest of
    the words must be equal after that one edit."""
    la, lb = len(a), len(b)
    if la < lb:
        a, b, la, lb = b, a, lb, la
    if la - lb > 1:
        return False
    i = 0
    while i < lb and a[i] == b[i]:
        i += 1
    if i == lb:  # b is a, or a without its last character
        return True
    if la != lb:  # one character of a deleted
        return a[i + 1:] == b[i:]
    return a[i + 1:] == b[i + 1:] or (a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:])


def osa_distance(a: str, b: str, limit: int | None = None) -> int:
    """Optimal-string-alignment edit distance (insert, delete, substitute, swap neighbours).

    With ``limit``, returns ``limit + 1`` as soon as the distance must exceed it.
    """
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            value = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, prev2[j - 2] + 1)
            cur[j] = value
        if limit is not None and min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


class SourceSimilarity:
    """Adapter: any :class:`~paralign.paraphrases.ParaphraseSource` (e.g. a table file), asked
    for each word as it holds its phrases (:func:`~paralign.paraphrases.lookup_key`): a table
    that pivot built with its regex tokenizer relates ``man's`` (a ``--tokenized`` word) as it
    holds it, ``man 's``, and spaCy's ``u.s.`` as ``u.s .``. A table matched with its case
    (built with ``--keep-case``) is :attr:`cased`: it is given the words as written, so that
    its ``US -> America`` relates ``US``, not ``us``, as ``paralign paraphrases`` finds it."""

    def __init__(self, source: ParaphraseSource) -> None:
        self.source = source
        self.name = source.name
        #: whether `related` takes words as written (a table matched with its case)
        self.cased = isinstance(source, ParaphraseTable) and not source.lowercase
        #: each word's key, for a table whose tokenizer is known (None: the word itself)
        self._keys: CappedDict[str, str] | None = None if looked_up_as_typed(source) else CappedDict(KEY_CACHE_SIZE)

    def related(self, a: str, b: str) -> bool:
        """True when the source lists either word as a paraphrase of the other."""
        keys = self._keys
        if keys is not None:
            a, b = self._key(a, keys), self._key(b, keys)
        return b in self.source.paraphrases(a) or a in self.source.paraphrases(b)

    def _key(self, word: str, keys: CappedDict[str, str]) -> str:
        found = keys.get(word)
        if found is None:
            found = keys[word] = lookup_key(self.source, word)
        return found


class CombinedSimilarity:
    """Related when any of several sources says so."""

    def __init__(self, sources: Sequence[RelatedWords]) -> None:
        self.sources = tuple(sources)
        self.name = "+".join(s.name for s in self.sources)
        #: whether `related` takes words as written: one of the sources is cased (it is given
        #: them so, the others lower-cased)
        self.cased = any(is_cased(s) for s in self.sources)

    def related(self, a: str, b: str) -> bool:
        """True when any of the sources relates the two words (a loop, not ``any()`` over a
        generator, which cost the aligner a fifth of its word-similarity time)."""
        if self.cased:
            return self._related_cased(a, b)
        for source in self.sources:  # noqa: SIM110 - any() over a generator is the slower form here
            if source.related(a, b):
                return True
        return False

    def _related_cased(self, a: str, b: str) -> bool:
        """:meth:`related` of words as written: each cased source given them so, the others
        lower-cased (as they hold their words)."""
        low_a, low_b = a.lower(), b.lower()
        for source in self.sources:
            if source.related(a, b) if is_cased(source) else source.related(low_a, low_b):
                return True
        return False


def is_cased(related: RelatedWords) -> bool:
    """True when `related` takes words as written (its ``cased``), not lower-cased: a paraphrase
    table matched with its case (:class:`SourceSimilarity`)."""
    return getattr(related, "cased", False) is True


class NoSimilarity:
    """No related pairs at all: only identical words match (the '- word similarity' ablation)."""

    name = "none"
    cased = False  # given lower-cased words (:func:`is_cased`)

    def related(self, a: str, b: str) -> bool:
        """Always False: no pair of different words is related."""
        return False


def load_similarity(spec: str | RelatedWords | ParaphraseSource | None) -> RelatedWords:
    """A similarity source from a spec: `ppdb`, `wordnet`, `spelling`, `none`, a table file's path
    (Parquet or TSV, :func:`paralign.paraphrases.load_source`), or `a+b`."""
    if spec is None:
        return PPDBSimilarity()
    if isinstance(spec, RelatedWords):
        return spec
    if isinstance(spec, ParaphraseSource):
        return SourceSimilarity(spec)
    if isinstance(spec, os.PathLike) and isinstance(os.fspath(spec), str):  # was an "unknown source"
        return _table_similarity(os.fspath(spec))
    if not isinstance(spec, str) or not spec:
        raise ConfigurationError(f"unknown word-similarity source {spec!r}")
    if "+" in spec:
        return CombinedSimilarity([load_similarity(part) for part in spec.split("+")])
    if spec == "ppdb":
        return PPDBSimilarity()
    if spec == "wordnet":
        return WordNetSimilarity()
    if spec == "none":
        return NoSimilarity()
    if spec == "spelling":
        return SpellingSimilarity()
    return _table_similarity(spec)


def _table_similarity(spec: str) -> RelatedWords:
    """The similarity of a table file, ``PATH[:THRESHOLD]`` (:func:`paralign.paraphrases.load_source`)."""
    from ...paraphrases import load_source

    try:
        return SourceSimilarity(load_source(spec))
    except (FormatError, ConfigurationError):
        raise  # a table's bad line, or a bad threshold: their messages name the file (and line)
    except (OSError, ValueError) as exc:
        raise ConfigurationError(
            f"word-similarity source {spec!r}: use {SOURCES_HINT} ({exc})"
        ) from exc


#: The word-similarity sources known by name (anything else is a table file's path).
SIMILARITY_NAMES = ("ppdb", "wordnet", "none", "spelling")
#: What a word-similarity source can be, as its errors say it: a table file is read as Parquet or
#: TSV (:func:`paralign.paraphrases.load_table`; a TSV path was all they named).
SOURCES_HINT = "ppdb, wordnet, none or a table file (FILE.parquet, FILE.tsv or FILE.tsv.gz)"


def check_similarity_spec(spec: object) -> None:
    """Check a spec as :func:`load_similarity` reads it, without loading anything: each part of
    ``a+b`` a known name or an existing file (``path[:threshold]``). An unknown name fails when
    the aligner is made, not at its first alignment (ConfigurationError, the same message)."""
    if not isinstance(spec, str):
        return  # None (PPDB) or an object: load_similarity takes it or says why
    for part in spec.split("+"):
        if part in SIMILARITY_NAMES or Path(part).exists():
            continue
        if ":" in part and Path(part.rpartition(":")[0]).exists():
            continue  # a threshold: load_source checks it when the table is read
        raise ConfigurationError(f"word-similarity source {spec!r}: use {SOURCES_HINT} "
                                 f"({part or 'an empty name'}: no such file)")


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Snowball (English) stem of a lower-cased word (:mod:`paralign.stemming`: nltk's stems,
    without importing nltk)."""
    return snowball_stem(word)


def canonical(word: str) -> str:
    """Lower-cased form without '.', '-' and ',' (for words longer than one character)."""
    word = word.lower()
    if len(word) > 1:
        stripped = word.replace(".", "").replace("-", "").replace(",", "")
        return stripped or word
    return word


def is_punctuation(word: str) -> bool:
    """In the reference list, or made only of Unicode punctuation/symbol characters."""
    if word.lower() in PUNCTUATION:
        return True
    return bool(word) and all(unicodedata.category(c)[0] in "PS" for c in word)


class WordForm:
    """The precomputed facts word similarity needs about one surface form (or lemma)."""

    __slots__ = ("canon", "digit", "lower", "number", "punct", "stem", "stop", "text")

    def __init__(self, word: str, tag: str, stop_words: frozenset[str]) -> None:
        self.text = word  # as written: what a cased source is asked with
        self.lower = word.lower()
        self.canon = canonical(word)
        self.stem = stem(self.lower)
        self.digit = word.isdigit()
        self.number = tag == "CD"
        self.stop = self.lower in stop_words
        self.punct = is_punctuation(word)


def form_similarity(a: WordForm, b: WordForm, related: RelatedWords | None, ppdb_sim: float) -> float:
    """The reference's wordRelatedness on two prepared forms: 1, ppdb_sim or 0."""
    if a.canon == b.canon:
        return 1.0
    if a.punct or b.punct:
        return 0.0
    if a.stem == b.stem:
        return 1.0
    if a.digit and b.digit:
        return 0.0
    if a.number and b.number and not a.digit and not b.digit:
        return 0.0
    if a.stop != b.stop:
        return 0.0
    if related is not None and (related.related(a.text, b.text) if is_cased(related)
                                else related.related(a.lower, b.lower)):
        return ppdb_sim
    return 0.0


def word_similarity(
    word1: str, word2: str, *, tags: tuple[str, str] = ("", ""), lemmas: tuple[str, str] | None = None,
    related: RelatedWords | None = None, ppdb_sim: float = 0.9, stop_words: Iterable[str] | None = None,
) -> float:
    """Similarity of two words (max over surface forms and lemmas): 1, ppdb_sim or 0."""
    from ...resources import stopwords

    stops = frozenset(stop_words) if stop_words is not None else stopwords()
    best = form_similarity(
        WordForm(word1, tags[0], stops), WordForm(word2, tags[1], stops), related, ppdb_sim
    )
    if lemmas is not None and best < 1.0:
        best = max(best, form_similarity(
            WordForm(lemmas[0], tags[0], stops), WordForm(lemmas[1], tags[1], stops), related, ppdb_sim
        ))
    return best
