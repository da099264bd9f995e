"""Sultan, Bethard & Sumner (2014) monolingual word aligner, re-implemented for spaCy.

A pipeline of greedy modules, each aligning only words that earlier modules left unaligned:
sentence-final punctuation, identical word sequences (wsAlign), hyphenated tokens, named
entities (neAlign), content words by dependency context per category (cwDepAlign: verbs, nouns,
adjectives, adverbs), content words by textual context (cwTextAlign), leftover hyphen pieces,
stop words by dependency context (swDepAlign) and by adjacent neighbours (swTextAlign).

Every module ranks candidate pairs by ``w * sim + (1 - w) * evidence`` and breaks ties by a key
that is symmetric in the two sentences (relative-position distance, then index sum and product),
so ``align(S, T) == align(T, S).transpose()``. Output links are sure links only.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..alignment import Alignment
from ..errors import ConfigurationError
from ..nlp import Annotator, TextOrTokens
from ..paraphrases import ParaphraseSource
from ..sentence import Sentence, fold_apostrophe
from . import depequiv
from .wordsim import (
    CLITICS,
    CombinedSimilarity,
    NoSimilarity,
    RelatedWords,
    SpellingSimilarity,
    WordForm,
    form_similarity,
    load_similarity,
)

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

#: spaCy entity labels -> the three Stanford classes the reference aligns.
DEFAULT_ENTITY_TYPES: dict[str, str] = {
    "PERSON": "PERSON", "ORG": "ORGANIZATION", "GPE": "LOCATION", "LOC": "LOCATION",
    "FAC": "LOCATION",
}

_CATEGORY_ORDER = ("v", "n", "j", "r")  # cwDepAlign order: verbs, nouns, adjectives, adverbs


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


@dataclass(frozen=True, slots=True)
class AlignerConfig:
    """The aligner's options.

    Defaults: the paper's parameters (ppdbSim = w = 0.9) and rules where it states them; the
    reference code's behaviour where the paper is silent; choices measured on MSR dev and
    Edinburgh++ train elsewhere (see docs/results/aligner.md).
    """

    ppdb_sim: float = 0.9
    w: float = 0.9
    use_word_similarity: bool = True
    use_dependency_context: bool = True
    use_textual_context: bool = True
    use_word_sequences: bool = True
    align_stop_words: bool = True
    align_named_entities: bool = True
    #: wsAlign needs a content word in the sequence (paper; the reference's check never fired).
    sequences_need_content: bool = True
    #: Two root words give each other one piece of dependency evidence (reference behaviour).
    root_evidence: bool = True
    #: swDepAlign needs identical dependency labels (paper; the reference code ignores them).
    stop_word_labels: bool = True
    #: Copulas attach to their predicate for swDepAlign (Stanford's analysis), not to the subject.
    stanford_copula: bool = True
    #: swTextAlign leaves copulas alone (their neighbours say little about them).
    text_skips_copulas: bool = False
    #: Align a leftover hyphenated token to a word equal to one of its pieces.
    align_hyphen_pieces: bool = True
    #: Extension (not in the paper): finally align identical free stop words that occur once
    #: in each sentence.
    align_unique_stop_words: bool = False
    #: Repeat swTextAlign until nothing changes (chains such as "of the"), not just once.
    iterate_stop_text: bool = True
    #: Extension: swTextAlign counts the two sentence starts as aligned neighbours, so
    #: sentence-initial stop words and quotes (not determiners, which follow their noun) align.
    start_evidence: bool = True
    #: Extension: align the quotation marks of quoted spans whose words are aligned to each other.
    align_quotes: bool = True
    #: Punctuation takes part in dependency context. spaCy attaches it; the Stanford
    #: dependencies the reference used leave it out by default, and so do we.
    punct_dependencies: bool = False
    #: Extension: long words one edit apart (typos, spelling variants) are related words too,
    #: whatever the similarity source (see wordsim.SpellingSimilarity).
    spelling_variants: bool = True
    #: Extension: among equally scored candidates, identical words go before stem/lemma matches.
    prefer_identical: bool = True
    #: Extension: for swDepAlign a coordinator ("and") hangs off every conjunct, not only the
    #: first, so "China and Canada" / "Canada and China" still give it evidence.
    coordination_edges: bool = True
    #: Extension: two determiners align when their noun phrases (determiner to head noun)
    #: already share an aligned pair ("The Chicago Bulls" / "The Bulls basketball team").
    determiner_spans: bool = True
    #: Extension: a word spelt closed aligns to the two or three consecutive words it is spelt
    #: open in the other sentence ("percent" / "per cent", "website" / "web site"), as the
    #: hyphenated-token rule does for "year-on-year" / "year on year".
    closed_compounds: bool = True
    #: Extension: "%", "&", "$" and "US$" are matched as "percent", "and" and "dollars" (they
    #: are symbols to the tokeniser, so word similarity never related them to the words).
    symbol_words: bool = True
    #: Extension: "an" is matched as "a" (neither identical nor a PPDB pair, yet gold links).
    article_variants: bool = True
    #: Extension: the possessive "'s" of "X 's Y" aligns to the "of" of "Y of X" when both X and
    #: both Y are already aligned ("Basra 's governor" / "the governor of Basra").
    possessive_of: bool = True
    #: Extension: "would", "could", "should", "might" share the lemma of "will", "can", "shall",
    #: "may" (spaCy gives each its own lemma, so "will" / "would" never matched, unlike is / was).
    modal_lemmas: bool = True
    #: Extension for paraphrase data (off by default): align free content words of one
    #: category with no word similarity when at least this many of their dependency neighbours
    #: are aligned to each other under equivalent labels. Helps Edinburgh++, hurts MSR RTE2,
    #: whose hypotheses reuse a frame with different predicates.
    context_only_links: int = 0
    entity_types: tuple[tuple[str, str], ...] = tuple(DEFAULT_ENTITY_TYPES.items())
    #: Entity types whose partial mentions also align to the rest of the full mention.
    partial_mention_types: tuple[str, ...] = ("PERSON",)

    def __post_init__(self) -> None:
        """Reject `ppdb_sim` or `w` outside (0, 1]."""
        for name in ("ppdb_sim", "w"):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ConfigurationError(f"{name} must be in (0, 1], got {value!r}")


#: The options that switch off every extension beyond the paper and the reference code's
#: intended behaviour (`paralign align --paper`): what remains is the published method.
PAPER_OPTIONS: dict[str, Any] = {
    "start_evidence": False, "align_quotes": False, "spelling_variants": False,
    "prefer_identical": False, "coordination_edges": False, "determiner_spans": False,
    "iterate_stop_text": False, "context_only_links": 0, "align_unique_stop_words": False,
    "closed_compounds": False, "symbol_words": False, "article_variants": False,
    "possessive_of": False, "modal_lemmas": False,
}

#: Options for paraphrase data, chosen on Edinburgh++ train (paraphrase alignments): among the
#: extensions that are off by default, context-only links with one aligned neighbour (86.81 ->
#: 87.69 F1) and then unique identical stop words (-> 87.96). Both cost F1 on MSR RTE2, whose
#: entailment hypotheses reuse a sentence frame with other words (docs/results/aligner.md).
PARAPHRASE_OPTIONS: dict[str, Any] = {"context_only_links": 1, "align_unique_stop_words": True}

#: Named option sets: ``default`` (chosen on MSR RTE2 dev and Edinburgh++ train together),
#: ``paper`` (the published method only) and ``paraphrase`` (chosen on Edinburgh++ train).
PRESETS: dict[str, dict[str, Any]] = {"default": {}, "paper": PAPER_OPTIONS, "paraphrase": PARAPHRASE_OPTIONS}


def preset_options(name: str) -> dict[str, Any]:
    """The aligner options of a preset (a copy); an unknown name is a ConfigurationError."""
    try:
        return dict(PRESETS[name])
    except KeyError:
        raise ConfigurationError(f"unknown aligner preset {name!r}: use one of {', '.join(PRESETS)}") from None


@functools.cache
def _word_variants(symbol_words: bool, article_variants: bool) -> dict[str, str]:
    """Lower-cased spellings matched as another word, by the options that ask for them (built
    once per combination: `prepare` runs for every sentence)."""
    return {**(SYMBOL_WORDS if symbol_words else {}), **(ARTICLE_VARIANTS if article_variants else {})}


def _similarity_settings(config: AlignerConfig) -> tuple[float, bool, bool]:
    """The options word similarity depends on (clones with equal settings share its cache)."""
    return config.ppdb_sim, config.use_word_similarity, config.spelling_variants


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


class _State:
    """Links found so far and which tokens they use."""

    __slots__ = ("links", "module", "origin", "src", "tgt")

    def __init__(self) -> None:
        self.links: set[Link] = set()
        self.src: set[int] = set()
        self.tgt: set[int] = set()
        self.module = ""
        self.origin: dict[Link, str] = {}

    def add(self, i: int, j: int) -> None:
        """Record link (i, j), crediting the current module if it is new, and mark both tokens used."""
        if (i, j) not in self.links:
            self.origin[(i, j)] = self.module
        self.links.add((i, j))
        self.src.add(i)
        self.tgt.add(j)

    def free(self, i: int, j: int) -> bool:
        """True when neither source token i nor target token j is aligned yet."""
        return i not in self.src and j not in self.tgt


class Aligner:
    """The Sultan et al. (2014) word aligner.

    ``similarity`` is ``"ppdb"`` (default), ``"wordnet"``, ``"none"``, a TSV path, ``"a+b"`` or any
    object with ``related(a, b)``; ``annotator`` is a :class:`paralign.nlp.Annotator` (spaCy).
    """

    def __init__(
        self,
        similarity: str | RelatedWords | ParaphraseSource | None = "ppdb",
        ppdb_sim: float = 0.9,
        w: float = 0.9,
        use_word_similarity: bool = True,
        use_dependency_context: bool = True,
        use_textual_context: bool = True,
        align_stop_words: bool = True,
        annotator: Annotator | None = None,
        **options: Any,
    ) -> None:
        try:
            self.config = AlignerConfig(
                ppdb_sim=ppdb_sim, w=w, use_word_similarity=use_word_similarity,
                use_dependency_context=use_dependency_context,
                use_textual_context=use_textual_context, align_stop_words=align_stop_words,
                **options,
            )
        except TypeError as exc:
            raise ConfigurationError(f"unknown aligner option: {exc}") from exc
        self._similarity_spec = similarity
        self._related: RelatedWords | None = None
        self.annotator = annotator
        self._sim_cache: dict[int, float] = {}
        self._forms: _FormTable | None = None
        self._entity_types = dict(self.config.entity_types)

    # -- configuration --------------------------------------------------------------------------
    def with_params(self, **changes: Any) -> Aligner:
        """A copy with some options changed, sharing the similarity source and annotator."""
        self._form_table()  # the clone must share it: the similarity cache is keyed by its type ids
        clone = Aligner.__new__(Aligner)
        clone.config = replace(self.config, **changes)
        clone._similarity_spec = self._similarity_spec
        same_similarity = _similarity_settings(clone.config) == _similarity_settings(self.config)
        clone._related = self._related if same_similarity else None
        clone.annotator = self.annotator
        clone._sim_cache = self._sim_cache if same_similarity else {}
        clone._forms = self._forms
        clone._entity_types = dict(clone.config.entity_types)
        return clone

    @property
    def related(self) -> RelatedWords:
        """The related-word source (loaded on first use); NoSimilarity in the ablation."""
        if self._related is None:
            if not self.config.use_word_similarity:
                self._related = NoSimilarity()
            else:
                self._related = load_similarity(self._similarity_spec)
                if self.config.spelling_variants:
                    self._related = CombinedSimilarity([self._related, SpellingSimilarity()])
        return self._related

    def _annotator(self) -> Annotator:
        if self.annotator is None:
            from ..nlp import default_annotator

            self.annotator = default_annotator()
        return self.annotator

    # -- annotation -----------------------------------------------------------------------------
    @staticmethod
    def _parse_form(item: TextOrTokens) -> TextOrTokens:
        return item if isinstance(item, str) else unescape_ptb(list(item))

    def annotate(self, items: Iterable[TextOrTokens], workers: int = 1) -> list[Sentence]:
        """Annotate texts (spaCy tokenisation) or token lists (kept exactly; PTB escapes parsed
        as the characters they stand for, the given tokens are kept)."""
        originals: list[TextOrTokens] = list(items)
        parsed = self._annotator().pipe((self._parse_form(x) for x in originals), n_process=workers)
        out = []
        for item, sentence in zip(originals, parsed, strict=True):
            if not isinstance(item, str) and tuple(item) != sentence.tokens:
                sentence = replace(sentence, tokens=tuple(item))
            out.append(sentence)
        return out

    def prepare(self, sentence: Sentence) -> Prepared:
        """Index an annotated sentence for alignment under this aligner's options (shared form table)."""
        forms = self._form_table()
        return Prepared(sentence, forms.stop_words, self._entity_types, forms,
                        self.config.stanford_copula, self.config.punct_dependencies,
                        self.config.coordination_edges,
                        _word_variants(self.config.symbol_words, self.config.article_variants),
                        MODAL_LEMMAS if self.config.modal_lemmas else None)

    def _form_table(self) -> _FormTable:
        if self._forms is None:
            from ..resources import stopwords

            self._forms = _FormTable(stopwords())
        return self._forms

    # -- public API -----------------------------------------------------------------------------
    def align(self, source: TextOrTokens | Sentence, target: TextOrTokens | Sentence) -> Alignment:
        """Align two texts or token lists (or annotated Sentences, used as they are); links
        index the (kept or spaCy) tokens."""
        if isinstance(source, Sentence) and isinstance(target, Sentence):
            return self.align_sentences(source, target)
        s, t = self.annotate([x.tokens if isinstance(x, Sentence) else x for x in (source, target)])
        return self.align_sentences(s, t)

    def align_sentences(self, source: Sentence, target: Sentence) -> Alignment:
        """Align two annotated sentences."""
        return self.align_prepared(self.prepare(source), self.prepare(target))

    def align_many(
        self, pairs: Iterable[tuple[TextOrTokens, TextOrTokens]], workers: int = 1,
        progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
    ) -> list[Alignment]:
        """Align many pairs: one batched annotation pass, then alignment (``workers`` processes)."""
        pairs = list(pairs)
        flat = [x for pair in pairs for x in pair]
        sentences = self.annotate(flat, workers=workers)
        annotated = list(zip(sentences[0::2], sentences[1::2], strict=True))
        return self.align_annotated(annotated, workers=workers, progress=progress)

    def align_annotated(
        self, pairs: Sequence[tuple[Sentence, Sentence]], workers: int = 1,
        progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
    ) -> list[Alignment]:
        """Align pre-annotated sentence pairs, in ``workers`` processes when > 1."""
        self.related  # noqa: B018 - load the resource before forking
        if workers > 1 and len(pairs) >= 2 * workers and hasattr(os, "fork"):
            import multiprocessing

            global _worker_aligner
            _worker_aligner = self
            ctx = multiprocessing.get_context("fork")
            chunk = max(1, len(pairs) // (workers * 8))
            with ctx.Pool(workers) as pool:
                results = pool.imap(_align_in_worker, pairs, chunksize=chunk)
                return list(progress(results) if progress else results)
        items = progress(pairs) if progress else pairs
        return [self.align_sentences(s, t) for s, t in items]

    # -- the pipeline ---------------------------------------------------------------------------
    def align_prepared(self, s: Prepared, t: Prepared) -> Alignment:
        """Run the module pipeline on two prepared sentences."""
        if s.n == 0 or t.n == 0:
            return Alignment()
        return Alignment(frozenset(self.trace_prepared(s, t)))

    def trace_prepared(self, s: Prepared, t: Prepared) -> dict[Link, str]:
        """The links of the pipeline, each with the name of the module that made it."""
        cfg = self.config
        if s.n == 0 or t.n == 0:
            return {}
        st = _State()
        run = _Run(self, s, t, self._similarities(s, t), st)
        steps: list[tuple[str, Callable[[], None]]] = [("final_punctuation", run.final_punctuation)]
        if cfg.use_word_sequences:
            steps.append(("word_sequences", run.word_sequences))
        steps.append(("hyphenated", run.hyphenated))
        if cfg.closed_compounds:
            steps.append(("closed_compounds", run.closed_compounds))
        if cfg.align_named_entities:
            steps.append(("named_entities", run.named_entities))
        if cfg.use_dependency_context:
            for category in _CATEGORY_ORDER:
                steps.append((f"content_dependency_{category}",
                              lambda c=category: run.content_dependency(c)))
        steps.append(("content_text", run.content_text))
        if cfg.align_hyphen_pieces:
            steps.append(("hyphen_pieces", run.hyphen_pieces))
        if cfg.context_only_links and cfg.use_dependency_context:
            steps.append(("context_only", run.context_only))
        if cfg.align_stop_words:
            if cfg.align_quotes and cfg.use_textual_context:
                steps.append(("quotes", run.quotes))
            if cfg.use_dependency_context:
                if cfg.possessive_of:
                    steps.append(("possessive_of", run.possessive_of))
                steps.append(("stop_dependency", run.stop_dependency))
                if cfg.determiner_spans:
                    steps.append(("determiners", run.determiners))
            if cfg.use_textual_context:
                steps.append(("stop_text", run.stop_text))
        if cfg.align_stop_words and cfg.align_unique_stop_words:
            steps.append(("unique_stop_words", run.unique_stop_words))
        for name, step in steps:
            st.module = name
            step()
        return st.origin

    def _similarities(self, s: Prepared, t: Prepared) -> dict[Link, float]:
        """Non-zero similarities of all token pairs (computed once per distinct form pair)."""
        related, ppdb_sim, cache = self.related, self.config.ppdb_sim, self._sim_cache
        if len(cache) > 2_000_000:
            cache.clear()
        t_types: dict[int, list[int]] = {}
        for j, key in enumerate(t.keys):
            t_types.setdefault(key, []).append(j)
        s_types: dict[int, list[int]] = {}
        for i, key in enumerate(s.keys):
            s_types.setdefault(key, []).append(i)
        t_items = list(t_types.items())
        out: dict[Link, float] = {}
        for skey, s_idx in s_types.items():
            for tkey, t_idx in t_items:
                ck = (skey << 32) | tkey if skey <= tkey else (tkey << 32) | skey
                value = cache.get(ck)
                if value is None:
                    i0, j0 = s_idx[0], t_idx[0]
                    value = form_similarity(s.word_forms[i0], t.word_forms[j0], related, ppdb_sim)
                    if value < 1.0:
                        value = max(value, form_similarity(
                            s.lemma_forms[i0], t.lemma_forms[j0], related, ppdb_sim))
                    cache[ck] = value
                if value:
                    for i in s_idx:
                        for j in t_idx:
                            out[(i, j)] = value
        return out


_worker_aligner: Aligner | None = None


def _align_in_worker(pair: tuple[Sentence, Sentence]) -> Alignment:
    assert _worker_aligner is not None
    return _worker_aligner.align_sentences(*pair)


@dataclass(slots=True)
class _Run:
    """One alignment run: the two sentences, their similarities and the growing alignment."""

    aligner: Aligner
    s: Prepared
    t: Prepared
    sim: dict[Link, float]
    st: _State
    _rows: dict[int, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Group the similar pairs by source token, for `candidates`."""
        rows: dict[int, list[int]] = {}
        for i, j in self.sim:
            rows.setdefault(i, []).append(j)
        self._rows = rows

    # -- helpers --------------------------------------------------------------------------------
    def key(self, score: float, i: int, j: int) -> tuple[float, int, int, int]:
        """Sort key: best score first, then ties broken symmetrically in (S, T)."""
        n, m = self.s.n, self.t.n
        return (-round(score, 9), abs(i * m - j * n), i + j, i * j)

    def score(self, sim: float, evidence: float) -> float:
        """The paper's combined score: w * similarity + (1 - w) * contextual evidence."""
        w = self.aligner.config.w
        return w * sim + (1.0 - w) * evidence

    def candidates(self, ok: Callable[[int, int], bool]) -> list[tuple[int, int, float]]:
        """Free similar pairs (i, j, sim) passing `ok`."""
        st, out = self.st, []
        for i, js in self._rows.items():
            if i in st.src:
                continue
            for j in js:
                if j not in st.tgt and ok(i, j):
                    out.append((i, j, self.sim[(i, j)]))
        return out

    def greedy(self, scored: list[tuple[float, int, int, Any]],
               on_accept: Callable[[int, int, Any], None] | None = None) -> None:
        """One-to-one greedy selection in decreasing score order (symmetric tie-breaking)."""
        prefer = self.aligner.config.prefer_identical
        s_low, t_low = self.s.lower, self.t.lower

        def order(x: tuple[float, int, int, Any]) -> tuple[float, bool, int, int, int]:
            key = self.key(x[0], x[1], x[2])  # identical words first among equal scores
            return (key[0], prefer and s_low[x[1]] != t_low[x[2]], *key[1:])

        scored.sort(key=order)
        st = self.st
        for _, i, j, extra in scored:
            if st.free(i, j):
                st.add(i, j)
                if on_accept is not None:
                    on_accept(i, j, extra)

    # -- modules --------------------------------------------------------------------------------
    def final_punctuation(self) -> None:
        """Align sentence-final punctuation ('.'/'!' or identical last tokens)."""
        s, t = self.s.tokens, self.t.tokens
        n, m = len(s), len(t)
        enders = (".", "!")
        if (s[-1] in enders and t[-1] in enders) or s[-1] == t[-1]:
            self.st.add(n - 1, m - 1)
        elif n > 1 and s[-2] in enders and t[-1] in enders:
            self.st.add(n - 2, m - 1)
        elif m > 1 and s[-1] in enders and t[-2] in enders:
            self.st.add(n - 1, m - 2)
        elif n > 1 and m > 1 and s[-2] in enders and t[-2] in enders:
            self.st.add(n - 2, m - 2)

    def word_sequences(self) -> None:
        """wsAlign: identical (case-insensitive) sequences of >= 2 words, longest first."""
        import heapq

        s, t, st = self.s, self.t, self.st
        need_content = self.aligner.config.sequences_need_content
        t_pos: dict[str, list[int]] = {}
        for j, w in enumerate(t.lower):
            t_pos.setdefault(w, []).append(j)
        heap: list[tuple] = []

        def push(i: int, j: int, length: int) -> None:
            if length >= 2:
                heapq.heappush(heap, (-length, *self.key(0.0, i, j)[1:], i, j))

        # maximal diagonal runs of identical words
        for i, w in enumerate(s.lower):
            for j in t_pos.get(w, ()):
                if i > 0 and j > 0 and s.lower[i - 1] == t.lower[j - 1]:
                    continue
                length = 0
                while i + length < s.n and j + length < t.n and s.lower[i + length] == t.lower[j + length]:
                    length += 1
                push(i, j, length)
        while heap:
            item = heapq.heappop(heap)
            length, i, j = -item[0], item[-2], item[-1]
            free = [st.free(i + k, j + k) for k in range(length)]
            if all(free):
                if need_content and not any(s.content[i + k] for k in range(length)):
                    continue
                for k in range(length):
                    st.add(i + k, j + k)
                continue
            start = None  # split into runs of still-free positions and retry them
            for k in range(length + 1):
                if k < length and free[k]:
                    if start is None:
                        start = k
                elif start is not None:
                    push(i + start, j + start, k - start)
                    start = None

    def hyphenated(self) -> None:
        """A hyphenated token whose pieces match a contiguous sequence is aligned to all of it."""
        new: list[Link] = []
        for a, b, flip in ((self.s, self.t, False), (self.t, self.s, True)):
            other_src = self.st.tgt if flip else self.st.src
            for i, word in enumerate(a.lower):
                if i in other_src or "-" not in word or word.strip("-") == "" or a.punct[i]:
                    continue
                pieces = [p for p in word.split("-") if p]
                if len(pieces) < 2:
                    continue
                span = _find_longest_run(pieces, b.lower)
                if span is not None and span[1] - span[0] > 1:
                    for k in range(*span):
                        new.append((k, i) if flip else (i, k))
        for i, j in new:
            self.st.add(i, j)

    def closed_compounds(self) -> None:
        """A free word equal to the concatenation of 2-3 consecutive free words of the other
        sentence ("percent" / "per cent") aligns to each of them. The run must occur once, and
        the word itself must not occur in the other sentence. Both directions start from the
        same state and groups that share a token are dropped, so the order of the sentences
        does not matter."""
        groups: list[list[Link]] = []
        for a, b, flip in ((self.s, self.t, False), (self.t, self.s, True)):
            a_used, b_used = (self.st.tgt, self.st.src) if flip else (self.st.src, self.st.tgt)
            runs: dict[str, list[int]] = {}
            for start in range(b.n):
                joined = ""
                for k in range(start, min(start + 3, b.n)):
                    if k in b_used or not b.lower[k].isalpha():
                        break
                    joined += b.lower[k]
                    if k > start:
                        runs.setdefault(joined, []).append(start)
            for i, word in enumerate(a.lower):
                starts = runs.get(word) if len(word) >= 4 and i not in a_used else None
                if not starts or len(starts) != 1 or a.lower.count(word) != 1 or word in b.lower:
                    continue
                k, joined, group = starts[0], "", []
                while joined != word:
                    joined += b.lower[k]
                    group.append((k, i) if flip else (i, k))
                    k += 1
                groups.append(group)
        self.add_unshared(groups)

    def add_unshared(self, groups: list[list[Link]]) -> None:
        """Add every group of links that shares no token with another group (candidates found
        from one state in both directions: dropping the clashes keeps the result symmetric)."""
        src_uses = Counter(i for g in groups for i in {i for i, _ in g})
        tgt_uses = Counter(j for g in groups for j in {j for _, j in g})
        for group in groups:
            if all(src_uses[i] == 1 and tgt_uses[j] == 1 for i, j in group):
                for i, j in group:
                    self.st.add(i, j)

    def named_entities(self) -> None:
        """neAlign: full, partial and acronym mentions of PERSON/ORGANIZATION/LOCATION entities.

        Full matches and identical words of partial mentions need both words free; an acronym
        (itself free) aligns to every word of the entity; the other words of a partial mention
        align to each free remaining word of the full mention (one-to-many).
        """
        s, t, st = self.s, self.t, self.st
        s_ents = _learn_entities(s, t)
        t_ents = _learn_entities(t, s)
        s_free = [k not in st.src for k in range(s.n)]
        t_free = [k not in st.tgt for k in range(t.n)]
        new: set[Link] = set()
        s_words = {s.lower[k] for a, b, _ in s_ents for k in range(a, b)}
        t_words = {t.lower[k] for a, b, _ in t_ents for k in range(a, b)}
        s_counts = _entity_counts(s, s_ents)
        t_counts = _entity_counts(t, t_ents)
        for sa, sb, stype in s_ents:
            s_norm = _entity_norm(s, sa, sb)
            for ta, tb, ttype in t_ents:
                t_norm = _entity_norm(t, ta, tb)
                if s_norm == t_norm:
                    if s_counts[s_norm] > 1 or t_counts[t_norm] > 1:
                        continue
                    new.update((sa + k, ta + k) for k in range(sb - sa)
                               if s_free[sa + k] and t_free[ta + k])
                    continue
                if sb - sa == 1 and s_free[sa] and _is_acronym(s.tokens[sa], t.tokens[ta:tb]):
                    new.update((sa, q) for q in range(ta, tb))
                    continue
                if tb - ta == 1 and t_free[ta] and _is_acronym(t.tokens[ta], s.tokens[sa:sb]):
                    new.update((k, ta) for k in range(sa, sb))
                    continue
                if stype != ttype:
                    continue
                spread = stype in self.aligner.config.partial_mention_types
                if sb - sa <= tb - ta:  # equal lengths: both ways, so the result stays symmetric
                    new.update(_subset_links(s, sa, sb, s_free, t, ta, tb, t_free, s_words, spread))
                if sb - sa >= tb - ta:
                    links = _subset_links(t, ta, tb, t_free, s, sa, sb, s_free, t_words, spread)
                    new.update((i, j) for j, i in links)
        for i, j in sorted(new):
            st.add(i, j)

    def _dep_evidence(self, i: int, j: int, category: str) -> tuple[float, list[Link]]:
        """Dependency-context evidence for (i, j) and the supporting context pairs."""
        s, t, sim, links = self.s, self.t, self.sim, self.st.links
        root = self.aligner.config.root_evidence
        evidence, context = 0.0, []

        def pair_sim(k: int, q: int) -> float | None:
            if k < 0 or q < 0:
                return 1.0 if (root and k < 0 and q < 0) else None
            value = sim.get((k, q))
            if value is None and (k, q) in links:
                return 0.0  # aligned but dissimilar: a context pair worth nothing (reference)
            return value

        combos = ((s.parents[i], t.parents[j], "parent"), (s.children[i], t.children[j], "child"),
                  (s.parents[i], t.children[j], "cross"), (s.children[i], t.parents[j], "cross-rev"))
        for edges_s, edges_t, orientation in combos:
            for k, lk in edges_s:
                for q, ll in edges_t:
                    v = pair_sim(k, q)
                    if v is not None and _labels_match(category, orientation, lk, ll):
                        evidence += v
                        context.append((k, q))
        return evidence, context

    def content_dependency(self, category: str) -> None:
        """cwDepAlign for one category: greedy on w*sim + (1-w)*evidence, evidence > 0."""
        s, t = self.s, self.t
        scored = []
        for i, j, value in self.candidates(
            lambda i, j: s.cat[i] == category and t.cat[j] == category and s.content[i] and t.content[j]
        ):
            evidence, context = self._dep_evidence(i, j, category)
            if evidence > 0:
                scored.append((self.score(value, evidence), i, j, context))
        st = self.st

        def accept(i: int, j: int, context: list[Link]) -> None:
            for k, q in sorted(context, key=lambda kl: self.key(0.0, *kl)):
                if k >= 0 and q >= 0 and st.free(k, q):
                    st.add(k, q)

        self.greedy(scored, accept)

    def content_text(self) -> None:
        """cwTextAlign: content words by similar content neighbours in a (3, 3) window."""
        s, t, sim = self.s, self.t, self.sim
        use_context = self.aligner.config.use_textual_context
        scored = []
        for i, j, value in self.candidates(lambda i, j: s.content[i] and t.content[j]):
            evidence = 0.0
            if use_context:
                for k in range(max(0, i - 3), min(s.n, i + 4)):
                    if k == i or not s.content[k]:
                        continue
                    for q in range(max(0, j - 3), min(t.n, j + 4)):
                        if q == j or not t.content[q]:
                            continue
                        v = sim.get((k, q))
                        if v is not None:
                            evidence += v
            scored.append((self.score(value, evidence), i, j, None))
        self.greedy(scored)

    def context_only(self) -> None:
        """Free content words of one category whose aligned dependency neighbours correspond."""
        s, t, links, st = self.s, self.t, self.st.links, self.st
        need = self.aligner.config.context_only_links
        scored = []
        for i in range(s.n):
            if i in st.src or not s.content[i] or not s.cat[i]:
                continue
            for j in range(t.n):
                if j in st.tgt or not t.content[j] or t.cat[j] != s.cat[i]:
                    continue
                evidence = sum(
                    1
                    for edges_s, edges_t, orientation in ((s.parents[i], t.parents[j], "parent"),
                                                          (s.children[i], t.children[j], "child"))
                    for k, lk in edges_s if k >= 0
                    for q, lq in edges_t
                    if (k, q) in links and _labels_match(s.cat[i], orientation, lk, lq)
                )
                if evidence >= need:
                    scored.append((float(evidence), i, j, None))
        self.greedy(scored)

    def hyphen_pieces(self) -> None:
        """A leftover hyphenated token aligns to a free content word equal to one of its pieces."""
        s, t, st = self.s, self.t, self.st
        scored = []
        for a, b, flip in ((s, t, False), (t, s, True)):
            a_used, b_used = (st.tgt, st.src) if flip else (st.src, st.tgt)
            for i, word in enumerate(a.lower):
                if i in a_used or "-" not in word or a.punct[i]:
                    continue
                pieces = {p for p in word.split("-") if p}
                for k, other in enumerate(b.lower):
                    if k not in b_used and b.content[k] and other in pieces:
                        scored.append((1.0, k, i, None) if flip else (1.0, i, k, None))
        self.greedy(scored)

    def quotes(self) -> None:
        """Quotation marks of two quoted spans that share aligned words align open-open, close-close.

        Quotes pair up in order (1st opens, 2nd closes, ...); an unpaired last quote opens a span
        to the sentence's end (first half) or closes one from its start (second half). Span pairs
        are taken greedily by their number of inner links.
        """
        s_spans, t_spans = _quote_spans(self.s.tokens), _quote_spans(self.t.tokens)
        if not s_spans or not t_spans:
            return
        links = self.st.links
        scored = []
        for sa, sb in s_spans:
            for ta, tb in t_spans:
                inner = sum(1 for i, j in links if sa < i < sb and ta < j < tb)
                if inner:
                    scored.append((inner, sa, sb, ta, tb))
        scored.sort(key=lambda x: (-x[0], *self.key(0.0, x[1], x[3])[1:]))
        st, used_s, used_t = self.st, set(), set()
        for _, sa, sb, ta, tb in scored:
            if (sa, sb) in used_s or (ta, tb) in used_t:
                continue
            used_s.add((sa, sb))
            used_t.add((ta, tb))
            for i, j in ((sa, ta), (sb, tb)):
                if 0 <= i < self.s.n and 0 <= j < self.t.n and self.s.tokens[i] in _QUOTES \
                        and self.t.tokens[j] in _QUOTES and st.free(i, j):
                    st.add(i, j)

    def possessive_of(self) -> None:
        """ "'s" of "X 's Y" and "of" of "Y of X" with both X and both Y aligned; both directions
        from the same state, and pairs that share a token are dropped."""
        pairs: list[Link] = []
        for a, b, flip in ((self.s, self.t, False), (self.t, self.s, True)):
            a_used, b_used = (self.st.tgt, self.st.src) if flip else (self.st.src, self.st.tgt)
            owners = [(p, x, y) for p in range(a.n) if p not in a_used and a.lower[p] in ("'s", "'")
                      for x, lab in a.basic_parents[p] if lab == "case"
                      for y, lab2 in a.basic_parents[x] if lab2 == "poss"]
            if not owners:
                continue
            ofs = [(q, [h for h, lb in b.basic_parents[q] if lb == "prep"],
                    [o for o, lb in b.basic_children[q] if lb == "pobj"])
                   for q in range(b.n) if q not in b_used and b.lower[q] == "of"]
            linked = {(j, i) for i, j in self.st.links} if flip else self.st.links
            for p, x, y in owners:
                for q, heads, objects in ofs:
                    if any((y, h) in linked for h in heads) and any((x, o) in linked for o in objects):
                        pairs.append((q, p) if flip else (p, q))
        self.add_unshared([[pair] for pair in sorted(set(pairs))])

    def determiners(self) -> None:
        """Determiners whose noun phrases (up to their head noun) share an aligned pair."""
        s, t, links = self.s, self.t, self.st.links
        scored = []
        for i, j, value in self.candidates(lambda i, j: s.determiner[i] and t.determiner[j]):
            hs = [k for k, lab in s.basic_parents[i] if lab == "det" and k > i]
            ht = [q for q, lab in t.basic_parents[j] if lab == "det" and q > j]
            if not hs or not ht:
                continue
            evidence = sum(1 for k, q in links if i < k <= hs[0] and j < q <= ht[0])
            if evidence > 0:
                scored.append((self.score(value, evidence), i, j, None))
        self.greedy(scored)

    def stop_dependency(self) -> None:
        """swDepAlign: stop words/punctuation whose aligned parents or children correspond."""
        s, t, links = self.s, self.t, self.st.links
        same_label = self.aligner.config.stop_word_labels
        scored = []
        for i, j, value in self.candidates(lambda i, j: s.stopish[i] and t.stopish[j]):
            evidence = 0
            for edges_s, edges_t in ((s.basic_parents[i], t.basic_parents[j]),
                                     (s.basic_children[i], t.basic_children[j])):
                for k, lk in edges_s:
                    for q, ll in edges_t:
                        if (k, q) in links and (not same_label or lk == ll):
                            evidence += 1
            if evidence > 0:
                scored.append((self.score(value, evidence), i, j, None))
        self.greedy(scored)

    def unique_stop_words(self) -> None:
        """Identical free stop words (not punctuation) occurring once in each sentence."""
        s, t, st = self.s, self.t, self.st
        s_count: dict[str, int] = {}
        t_count: dict[str, int] = {}
        for w in s.lower:
            s_count[w] = s_count.get(w, 0) + 1
        for w in t.lower:
            t_count[w] = t_count.get(w, 0) + 1
        for i, j, _ in self.candidates(lambda i, j: s.stopish[i] and t.stopish[j]):
            w = s.lower[i]
            if (w == t.lower[j] and not s.punct[i] and s_count[w] == 1 and t_count[w] == 1
                    and st.free(i, j)):
                st.add(i, j)

    def stop_text(self) -> None:
        """swTextAlign: stop words/punctuation whose left or right neighbours are aligned."""
        s, t, links = self.s, self.t, self.st.links
        skip = self.aligner.config.text_skips_copulas
        s_ok = [s.stopish[i] and not (skip and i in s.copulas) for i in range(s.n)]
        t_ok = [t.stopish[j] and not (skip and j in t.copulas) for j in range(t.n)]
        start = self.aligner.config.start_evidence
        while True:
            scored = []
            for i, j, value in self.candidates(lambda i, j: s_ok[i] and t_ok[j]):
                evidence = ((i - 1, j - 1) in links) + ((i + 1, j + 1) in links)
                if start and i == 0 and j == 0 and not (s.determiner[i] or t.determiner[j]):
                    evidence += 1
                if evidence > 0:
                    scored.append((self.score(value, evidence), i, j, None))
            before = len(links)
            self.greedy(scored)
            if len(links) == before or not self.aligner.config.iterate_stop_text:
                return


@functools.lru_cache(maxsize=100_000)
def _labels_match(category: str, orientation: str, label_s: str, label_t: str) -> bool:
    """Dependency-label equivalence for one orientation (cached: called in the inner loop)."""
    if orientation == "parent":
        return depequiv.equivalent(category, label_s, label_t, depequiv.PARENT_GROUPS)
    if orientation == "child":
        return depequiv.equivalent(category, label_s, label_t, depequiv.CHILD_GROUPS)
    if orientation == "cross":
        return depequiv.cross_equivalent(category, label_s, label_t)
    return depequiv.cross_equivalent(category, label_t, label_s)


# -- named-entity helpers --------------------------------------------------------------------------
_QUOTES = frozenset({'"', "\u201c", "\u201d", "``", "''"})


def _quote_spans(tokens: Sequence[str]) -> list[tuple[int, int]]:
    """(open, close) positions of quoted spans; an unpaired last quote spans to an edge (-1 or n)."""
    marks = [k for k, tok in enumerate(tokens) if tok in _QUOTES]
    spans = [(marks[k], marks[k + 1]) for k in range(0, len(marks) - 1, 2)]
    if len(marks) % 2:  # an unpaired quote opens (first half) or closes (second half) a span
        last = marks[-1]
        spans.append((last, len(tokens)) if 2 * last < len(tokens) else (-1, last))
    return spans


def _find_longest_run(pieces: Sequence[str], words: Sequence[str]) -> tuple[int, int] | None:
    """The first longest [start, end) of `words` equal to a contiguous run of `pieces`."""
    best: tuple[int, int] | None = None
    for start in range(len(words)):
        for p0 in range(len(pieces)):
            length = 0
            while (start + length < len(words) and p0 + length < len(pieces)
                   and words[start + length] == pieces[p0 + length]):
                length += 1
            if length and (best is None or length > best[1] - best[0]):
                best = (start, start + length)
    return best


def _entity_norm(p: Prepared, a: int, b: int) -> tuple[str, ...]:
    return tuple(p.lower[k].replace(".", "").replace("-", "") for k in range(a, b))


def _entity_counts(p: Prepared, ents: list[tuple[int, int, str]]) -> dict[tuple[str, ...], int]:
    counts: dict[tuple[str, ...], int] = {}
    for a, b, _ in ents:
        key = _entity_norm(p, a, b)
        counts[key] = counts.get(key, 0) + 1
    return counts


def _is_acronym(word: str, entity_tokens: Sequence[str]) -> bool:
    """First-letter acronym test (dots removed, all upper case, one letter per entity token)."""
    letters = word.replace(".", "")
    if len(entity_tokens) < 2 or len(letters) != len(entity_tokens) or not letters.isupper():
        return False
    if not letters.isalpha() or letters.lower() in ("a", "i"):
        return False
    return all(tok[:1] == ch for tok, ch in zip(entity_tokens, letters, strict=True))


def _learn_entities(p: Prepared, other: Prepared) -> list[tuple[int, int, str]]:
    """p's entities plus capitalised words (and acronyms) found in the other sentence's entities."""
    ents = sorted(p.entities)
    covered = {k for a, b, _ in ents for k in range(a, b)}
    other_words: dict[str, str] = {}
    for a, b, label in other.entities:
        for k in range(a, b):
            other_words.setdefault(other.tokens[k], label)
    extra: list[list[Any]] = []
    for i, tok in enumerate(p.tokens):
        if i in covered or not tok[:1].isupper():
            continue
        label = other_words.get(tok)
        if label is None:
            for a, b, lab in other.entities:
                if _is_acronym(tok, other.tokens[a:b]):
                    label = lab
                    break
        if label is None:
            continue
        if extra and extra[-1][1] == i and extra[-1][2] == label:
            extra[-1][1] = i + 1
            continue
        attached = False
        for idx, (a, b, lab) in enumerate(ents):
            if b == i and lab == label:
                ents[idx] = (a, i + 1, lab)
                attached = True
                break
        if not attached:
            extra.append([i, i + 1, label])
    ents.extend((a, b, lab) for a, b, lab in extra)
    return sorted(ents)


def _subset_links(short: Prepared, sa: int, sb: int, short_free: list[bool], long: Prepared,
                  la: int, lb: int, long_free: list[bool], short_entity_words: set[str],
                  spread: bool = True) -> list[Link]:
    """Partial mention: every short-entity word occurs in the long one; align identical free
    words, then each short word to each free remaining word of the long entity (not
    punctuation, not an entity word of the short mention's sentence)."""
    long_words = [long.lower[k] for k in range(la, lb)]
    if not all(short.lower[k] in long_words for k in range(sa, sb)):
        return []
    links: list[Link] = []
    matched: set[int] = set()
    for k in range(sa, sb):
        for q in range(la, lb):
            if q not in matched and long.lower[q] == short.lower[k]:
                matched.add(q)
                if short_free[k] and long_free[q]:
                    links.append((k, q))
                break
    if not spread:
        return links
    for q in range(la, lb):
        if q in matched or not long_free[q] or long.punct[q] or long.lower[q] in short_entity_words:
            continue
        links.extend((k, q) for k in range(sa, sb))
    return links
