"""The Sultan aligner's options: :class:`AlignerConfig` and the named option sets (presets).

What each option means and whether it is the paper's, the reference code's or an extension; the
``paper`` and ``paraphrase`` option sets and :func:`preset_options`, which names them.

Not for: anything that aligns or loads resources. This module imports no spaCy, NLTK or word
similarity, so the CLI and :mod:`paralign.similarity` can check a preset name cheaply.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from ...errors import ConfigurationError, check_count, check_switch

#: spaCy entity labels -> the three Stanford classes the reference aligns.
DEFAULT_ENTITY_TYPES: dict[str, str] = {
    "PERSON": "PERSON", "ORG": "ORGANIZATION", "GPE": "LOCATION", "LOC": "LOCATION",
    "FAC": "LOCATION",
}


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
        """Reject `ppdb_sim` or `w` outside (0, 1] (or not a number), a `context_only_links`
        that is not a count and an on/off option that is not a bool; keep the type lists as
        tuples, so that the config stays hashable when they are given as lists."""
        for name in ("ppdb_sim", "w"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 < value <= 1.0:
                raise ConfigurationError(f"{name} must be a number in (0, 1], got {value!r}")
        # -1 switched the module on (bool(-1)) with no evidence needed: any free content words
        # of one category aligned; --context-links refused it, the library took it
        check_count(self.context_only_links, "context_only_links", minimum=0)
        for option in fields(self):  # "no" (truthy) switched use_word_similarity on, silently
            if isinstance(option.default, bool):
                object.__setattr__(self, option.name, check_switch(option.name, getattr(self, option.name)))
        object.__setattr__(self, "entity_types", _entity_types(self.entity_types))
        object.__setattr__(self, "partial_mention_types", _labels(self.partial_mention_types))


def _entity_types(value: object) -> tuple[tuple[str, str], ...]:
    """`entity_types` as (spaCy label, class) pairs, given so or as a mapping (the shape of
    :data:`DEFAULT_ENTITY_TYPES`); anything else a ConfigurationError naming the option. Why: a
    dict was read as its keys, each split into characters, and failed with a bare ValueError
    ("dictionary update sequence element #0 has length 6") when the aligner was made."""
    if isinstance(value, Mapping):
        value = list(value.items())
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ConfigurationError("entity_types must map spaCy entity labels to classes (a dict, or "
                                 f"(label, class) pairs), not {type(value).__name__} {value!r}")
    pairs = []
    for item in value:
        pair = () if isinstance(item, str) or not isinstance(item, Iterable) else tuple(item)
        if len(pair) != 2 or not all(isinstance(x, str) for x in pair):
            raise ConfigurationError(f"entity_types must map spaCy entity labels to classes: {item!r} "
                                     "is no (label, class) pair")
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def _labels(value: object) -> tuple[str, ...]:
    """`partial_mention_types` as a tuple of labels; one str (read as its characters, so
    "PERSON" silently spread no partial mention) or a non-list is a ConfigurationError."""
    labels = None if isinstance(value, str) or not isinstance(value, Iterable) else tuple(value)
    if labels is None or not all(isinstance(x, str) for x in labels):
        raise ConfigurationError(f"partial_mention_types must be a list of entity classes, e.g. "
                                 f"('PERSON',), not {value!r}")
    return labels


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
#: ``paper`` (the published method only), ``paraphrase`` (chosen on Edinburgh++ train) and
#: ``contextual`` (the default lexical options inside the contextual aligner of
#: :mod:`paralign.aligners.contextual`, which needs the `neural` extra).
PRESETS: dict[str, dict[str, Any]] = {"default": {}, "paper": PAPER_OPTIONS,
                                      "paraphrase": PARAPHRASE_OPTIONS, "contextual": {}}

#: Presets that are not the Sultan aligner alone but the contextual aligner around it.
NEURAL_PRESETS: frozenset[str] = frozenset({"contextual"})


def preset_options(name: str) -> dict[str, Any]:
    """The aligner options of a preset (a copy); an unknown name is a ConfigurationError."""
    try:
        return dict(PRESETS[name])
    except KeyError:
        raise ConfigurationError(f"unknown aligner preset {name!r}: use one of {', '.join(PRESETS)}") from None
