"""A sentence indexed for the Sultan aligner (:class:`Prepared`) and the token facts it uses.

PTB escapes, symbol and article variants, modal lemmas, word forms interned once per string
(:class:`_FormTable`), content-word categories, stop-word flags, dependency edges (collapsed and
basic, with Stanford's copula analysis) and entity spans; :data:`Link`, one aligned token pair.

Not for: alignment itself (:mod:`.modules` runs the paper's modules, :mod:`.aligner` drives
them) or parsing (sentences arrive annotated, :mod:`paralign.nlp`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ...sentence import Sentence, fold_apostrophe
from ...shown_text import shown_form
from . import depequiv
from .wordsim import CLITICS, WordForm

Link = tuple[int, int]

#: PTB/Stanford escapes mapped back to the characters the parser was trained on.
PTB_ESCAPES: dict[str, str] = {
    "-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
    "``": '"', "''": '"', "`": "'",
}

#: Symbols matched as the words they stand for (``symbol_words``): "1.5 %" / "1.5 percent".
SYMBOL_WORDS: dict[str, str] = {"%": "percent", "&": "and", "$": "dollars", "us$": "dollars"}
#: The article's two spellings matched as one word (``article_variants``): "an" / "a".
ARTICLE_VARIANTS: dict[str, str] = {"an": "a"}
#: Past forms of the modals lemmatised to their present (``modal_lemmas``), as "was" is to "be".
MODAL_LEMMAS: dict[str, str] = {"would": "will", "could": "can", "should": "shall", "might": "may"}


def unescape_ptb(tokens: Sequence[str]) -> list[str]:
    """Tokens with PTB bracket/quote escapes replaced and typographic apostrophes made ASCII
    (for parsing and word matching: "’s" is the clitic "'s"), each as it shows (:func:`~paralign.shown_text.shown_form`)."""
    return [shown_form(fold_apostrophe(PTB_ESCAPES.get(t, t))) for t in tokens]


#: Content-word category from the Penn tag's first letter (PRP is not a noun).
_CATEGORIES = {"V": "v", "N": "n", "J": "j", "R": "r"}


class _FormTable:
    """Interned word forms and (word, lemma) types, so facts are computed once per string."""

    __slots__ = ("forms", "next_type", "stop_words", "types")

    def __init__(self, stop_words: frozenset[str]) -> None:
        self.stop_words = stop_words
        self.forms: dict[tuple[str, bool], WordForm] = {}
        self.types: dict[tuple[int, int], int] = {}
        self.next_type = 0  # never reused: the aligner's similarity cache is keyed by type ids

    def form(self, word: str, is_cd: bool) -> WordForm:
        """The shared WordForm of `word` (CD-tagged or not); the table is cleared past 500,000
        forms, and the types with it: they are keyed by the ids of forms, which new forms may
        take once the old ones are gone (a new pair would get an old pair's type)."""
        key = (word, is_cd)
        found = self.forms.get(key)
        if found is None:
            if len(self.forms) > 500_000:
                self.forms.clear()
                self.types.clear()
            found = self.forms[key] = WordForm(word, "CD" if is_cd else "", self.stop_words)
        return found

    def type_id(self, word: WordForm, lemma: WordForm) -> int:
        """A small integer naming the (word, lemma) form pair, assigned on first sight."""
        key = (id(word), id(lemma))
        found = self.types.get(key)
        if found is None:
            found = self.types[key] = self.next_type
            self.next_type += 1
        return found


@functools.cache
def _word_variants(symbol_words: bool, article_variants: bool) -> dict[str, str]:
    """Lower-cased spellings matched as another word, by the options that ask for them (built
    once per combination: `prepare` runs for every sentence)."""
    return {**(SYMBOL_WORDS if symbol_words else {}), **(ARTICLE_VARIANTS if article_variants else {})}


class Prepared:
    """A sentence indexed for alignment: forms, categories, stop/punct flags, edges, entities."""

    __slots__ = ("basic_children", "basic_parents", "cat", "children", "content", "copulas", "entities",
                 "determiner", "keys", "lemma_forms", "lower", "n", "parents", "punct", "stopish", "tokens",
                 "word_forms")

    def __init__(self, sentence: Sentence, stop_words: frozenset[str],
                 entity_types: dict[str, str], forms: _FormTable | None = None,
                 stanford_copula: bool = True, punct_dependencies: bool = True,
                 coordination_edges: bool = True, variants: dict[str, str] | None = None,
                 lemma_variants: dict[str, str] | None = None) -> None:
        forms = forms or _FormTable(stop_words)
        tokens, lemmas = _normalised_words(sentence, variants, lemma_variants)
        n = self.n = len(tokens)
        self.tokens = tokens
        self._index_words(lemmas, sentence.tags, forms, stop_words)
        self.parents, self.children = _collapsed_edges(tokens, lemmas, sentence, punct_dependencies)
        copula_of = _copula_predicates(sentence, lemmas, n)
        self.copulas = frozenset(copula_of)  # for text_skips_copulas, whatever stanford_copula says
        self.basic_parents, self.basic_children = _basic_edges(
            sentence, n, copula_of if stanford_copula else {}, punct_dependencies)
        if coordination_edges:  # a coordinator hangs off every conjunct, not just the first
            _add_coordinator_edges(sentence, n, self.basic_parents, self.basic_children)
        self.entities = _trimmed_entities(sentence, self.stopish, entity_types)

    def _index_words(self, lemmas: list[str], tags: Sequence[str], forms: _FormTable,
                     stop_words: frozenset[str]) -> None:
        """Word and lemma forms, their type keys, and each token's flags and category."""
        n, tokens = self.n, self.tokens
        is_cd = [tag == "CD" for tag in tags]
        self.word_forms = [forms.form(t, is_cd[i]) for i, t in enumerate(tokens)]
        self.lemma_forms = [forms.form(lem, is_cd[i]) for i, lem in enumerate(lemmas)]
        self.lower = [f.lower for f in self.word_forms]
        self.keys = [forms.type_id(w, lf) for w, lf in zip(self.word_forms, self.lemma_forms, strict=True)]
        self.punct = [f.punct for f in self.word_forms]
        lemma_lower = [f.lower for f in self.lemma_forms]
        self.stopish = [
            lemma_lower[i] in stop_words or self.lower[i] in stop_words or self.punct[i]
            or lemma_lower[i] in CLITICS or self.lower[i] in CLITICS
            for i in range(n)
        ]
        self.content = [not s for s in self.stopish]
        self.cat = [_CATEGORIES.get(t[:1], "") for t in tags]
        self.determiner = [t in ("DT", "PDT", "WDT") for t in tags]


#: Dependency edges of each token: (the other token, the label).
Edges = list[list[tuple[int, str]]]


def _normalised_words(sentence: Sentence, variants: dict[str, str] | None,
                      lemma_variants: dict[str, str] | None) -> tuple[list[str], list[str]]:
    """Tokens and lemmas unescaped and with the asked-for variants replaced (a missing lemma is
    its token)."""
    tokens = unescape_ptb(sentence.tokens)
    if variants:
        tokens = [variants.get(t.lower(), t) for t in tokens]
    lemmas = [shown_form(fold_apostrophe(PTB_ESCAPES.get(lem, lem))) or tok
              for lem, tok in zip(sentence.lemmas, tokens, strict=True)]
    if variants:
        lemmas = [variants.get(lem.lower(), lem) for lem in lemmas]
    if lemma_variants:
        lemmas = [lemma_variants.get(lem.lower(), lem) for lem in lemmas]
    return tokens, lemmas


def _collapsed_edges(tokens: list[str], lemmas: list[str], sentence: Sentence,
                     punct_dependencies: bool) -> tuple[Edges, Edges]:
    """(parents, children) in collapsed Stanford style (:func:`.depequiv.collapsed_edges`),
    without punctuation edges unless asked for."""
    parents, children = depequiv.collapsed_edges(tokens, lemmas, sentence.heads, sentence.deps)
    if not punct_dependencies:
        parents = [[e for e in edges if e[1] != "punct"] for edges in parents]
        children = [[e for e in edges if e[1] != "punct"] for edges in children]
    return parents, children


def _copula_predicates(sentence: Sentence, lemmas: list[str], n: int) -> dict[int, int]:
    """Each copula ("be" heading an attr or acomp) -> its predicate, for Stanford's copula analysis
    of stop words: "is" in "X is Y" hangs off the predicate Y (cop) instead of heading the
    subject, so it is aligned only when the predicates are."""
    copula_of: dict[int, int] = {}
    for i, h in enumerate(sentence.heads):
        if 0 <= h < n and h != i and sentence.deps[i] in ("attr", "acomp") and (
                lemmas[h].lower() == "be") and h not in copula_of:
            copula_of[h] = i
    return copula_of


def _basic_edges(sentence: Sentence, n: int, copula_of: dict[int, int],
                 punct_dependencies: bool) -> tuple[Edges, Edges]:
    """(parents, children) of the basic dependencies, with each copula moved under its predicate
    and the copula's other dependents with it."""
    parents: Edges = [[] for _ in range(n)]
    children: Edges = [[] for _ in range(n)]
    for i, h in enumerate(sentence.heads):
        if not punct_dependencies and sentence.deps[i] == "punct":
            continue
        if i in copula_of:
            pred = copula_of[i]
            parents[i].append((pred, "cop"))
            children[pred].append((i, "cop"))
            continue
        if 0 <= h < n and h != i and h not in copula_of:
            parents[i].append((h, sentence.deps[i]))
            children[h].append((i, sentence.deps[i]))
        elif h in copula_of and i != copula_of[h]:
            pred = copula_of[h]
            parents[i].append((pred, sentence.deps[i]))
            children[pred].append((i, sentence.deps[i]))
    return parents, children


def _add_coordinator_edges(sentence: Sentence, n: int, parents: Edges, children: Edges) -> None:
    """Hang each coordinator ("and") off every conjunct of its head too, not only the first."""
    conjuncts: dict[int, list[int]] = {}
    for c, h in enumerate(sentence.heads):
        if sentence.deps[c] == "conj" and 0 <= h < n:
            conjuncts.setdefault(h, []).append(c)
    for i, h in enumerate(sentence.heads):
        if sentence.deps[i] == "cc":
            for c in conjuncts.get(h, ()):
                parents[i].append((c, "cc"))
                children[c].append((i, "cc"))


def _trimmed_entities(sentence: Sentence, stopish: list[bool],
                      entity_types: dict[str, str]) -> list[tuple[int, int, str]]:
    """The sentence's entities of the aligned types, as (start, end, Stanford class), with stop
    words and punctuation trimmed from both ends (an entity of nothing else is dropped)."""
    entities: list[tuple[int, int, str]] = []
    for e in sentence.entities:
        a, b = e.start, e.end
        while a < b and stopish[a]:
            a += 1
        while b > a and stopish[b - 1]:
            b -= 1
        if a < b and e.label in entity_types:
            entities.append((a, b, entity_types[e.label]))
    return entities
