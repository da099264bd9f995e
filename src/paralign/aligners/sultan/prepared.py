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
    (for parsing and word matching: "’s" is the clitic "'s")."""
    return [fold_apostrophe(PTB_ESCAPES.get(t, t)) for t in tokens]


#: Content-word category from the Penn tag's first letter (PRP is not a noun).
_CATEGORIES = {"V": "v", "N": "n", "J": "j", "R": "r"}


class _FormTable:
    """Interned word forms and (word, lemma) types, so facts are computed once per string."""

    __slots__ = ("forms", "stop_words", "types")

    def __init__(self, stop_words: frozenset[str]) -> None:
        self.stop_words = stop_words
        self.forms: dict[tuple[str, bool], WordForm] = {}
        self.types: dict[tuple[int, int], int] = {}

    def form(self, word: str, is_cd: bool) -> WordForm:
        """The shared WordForm of `word` (CD-tagged or not); the table is cleared past 500,000 forms."""
        key = (word, is_cd)
        found = self.forms.get(key)
        if found is None:
            if len(self.forms) > 500_000:
                self.forms.clear()
            found = self.forms[key] = WordForm(word, "CD" if is_cd else "", self.stop_words)
        return found

    def type_id(self, word: WordForm, lemma: WordForm) -> int:
        """A small integer naming the (word, lemma) form pair, assigned on first sight."""
        key = (id(word), id(lemma))
        found = self.types.get(key)
        if found is None:
            found = self.types[key] = len(self.types)
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
        tokens = unescape_ptb(sentence.tokens)
        if variants:
            tokens = [variants.get(t.lower(), t) for t in tokens]
        n = self.n = len(tokens)
        self.tokens = tokens
        tags = sentence.tags
        lemmas = [fold_apostrophe(PTB_ESCAPES.get(lem, lem)) or tok for lem, tok in zip(sentence.lemmas, tokens, strict=True)]
        if variants:
            lemmas = [variants.get(lem.lower(), lem) for lem in lemmas]
        if lemma_variants:
            lemmas = [lemma_variants.get(lem.lower(), lem) for lem in lemmas]
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
        self.parents, self.children = depequiv.collapsed_edges(tokens, lemmas, sentence.heads, sentence.deps)
        if not punct_dependencies:
            self.parents = [[e for e in edges if e[1] != "punct"] for edges in self.parents]
            self.children = [[e for e in edges if e[1] != "punct"] for edges in self.children]
        self.basic_parents: list[list[tuple[int, str]]] = [[] for _ in range(n)]
        self.basic_children: list[list[tuple[int, str]]] = [[] for _ in range(n)]
        # Stanford's copula analysis for stop words: "is" in "X is Y" hangs off the predicate Y
        # (cop) instead of heading the subject, so it is aligned only when the predicates are.
        copula_of: dict[int, int] = {}
        for i, h in enumerate(sentence.heads):
            if stanford_copula and 0 <= h < n and h != i and sentence.deps[i] in ("attr", "acomp") and (
                    lemmas[h].lower() == "be") and h not in copula_of:
                copula_of[h] = i
        self.copulas = frozenset(copula_of)
        for i, h in enumerate(sentence.heads):
            if not punct_dependencies and sentence.deps[i] == "punct":
                continue
            if i in copula_of:
                pred = copula_of[i]
                self.basic_parents[i].append((pred, "cop"))
                self.basic_children[pred].append((i, "cop"))
                continue
            if 0 <= h < n and h != i and h not in copula_of:
                self.basic_parents[i].append((h, sentence.deps[i]))
                self.basic_children[h].append((i, sentence.deps[i]))
            elif h in copula_of and i != copula_of[h]:
                pred = copula_of[h]
                self.basic_parents[i].append((pred, sentence.deps[i]))
                self.basic_children[pred].append((i, sentence.deps[i]))
        if coordination_edges:  # a coordinator hangs off every conjunct, not just the first
            conjuncts: dict[int, list[int]] = {}
            for c, h in enumerate(sentence.heads):
                if sentence.deps[c] == "conj" and 0 <= h < n:
                    conjuncts.setdefault(h, []).append(c)
            for i, h in enumerate(sentence.heads):
                if sentence.deps[i] == "cc":
                    for c in conjuncts.get(h, ()):
                        self.basic_parents[i].append((c, "cc"))
                        self.basic_children[c].append((i, "cc"))
        self.entities = []
        for e in sentence.entities:
            a, b = e.start, e.end
            while a < b and self.stopish[a]:
                a += 1
            while b > a and self.stopish[b - 1]:
                b -= 1
            if a < b and e.label in entity_types:
                self.entities.append((a, b, entity_types[e.label]))
