"""Building a group's lattice: parse trees -> top-down merged forest -> linearised FSA -> squeezed.

This is the syntax-based alignment algorithm of Pang, Knight & Marcu (2003): parse every
sentence, merge the trees top-down into a forest (with keyword checking), map the forest to an
FSA by creating alternative paths at every merged node, then squeeze.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import ConfigurationError, FormatError, InputTypeError, check_switch, shown_value
from ..nlp import Annotator, TextOrTokens, check_text_or_tokens
from ..sentence import Sentence
from .forest import ForestNode, Merger, SynonymFn, wordnet_synonym_fn
from .fsa import LatticeBuilder, chain
from .msa import msa_lattice
from .trees import Tree, parse_tree
from .word_lattice import Lattice

METHODS = ("syntax", "msa")

#: The spaCy components a lattice never reads: its trees and keywords take tokens, tags, lemmas
#: and dependency heads, never named entities, and the entity recogniser was over a third of the
#: time spent parsing a corpus of groups (10.3 s against 6.5 s for 2,100 Bible sentences).
UNUSED_COMPONENTS = ("ner",)

_annotator: Annotator | None = None


def lattice_annotator() -> Annotator:
    """The process-wide Annotator of lattices: the configured default model without the
    components of :data:`UNUSED_COMPONENTS` (the same trees, parsed faster); created on first use."""
    global _annotator
    if _annotator is None:
        _annotator = Annotator(disable=UNUSED_COMPONENTS)
    return _annotator


@dataclass(frozen=True, slots=True)
class LatticeOptions:
    """How to build a lattice: `method` syntax (Pang et al.) or msa (baseline); `lowercase` the
    words; `keyword_check` and `wordnet` synonyms for merging; `squeeze` afterwards."""

    method: str = "syntax"
    lowercase: bool = True
    keyword_check: bool = True
    wordnet: bool = False
    squeeze: bool = True
    max_gaps: int = 0  #: relaxed merging (extension): children left unaligned per merge

    def __post_init__(self) -> None:
        """A method of :data:`METHODS`, max_gaps >= 0 (ConfigurationError): -1 was taken as
        relaxed merging, since any non-zero number turns it on; and flags that are True or False
        (:func:`~paralign.errors.check_switch`): lowercase="no" lower-cased, silently."""
        for flag in ("lowercase", "keyword_check", "wordnet", "squeeze"):
            object.__setattr__(self, flag, check_switch(flag, getattr(self, flag)))
        if self.method not in METHODS:
            raise ConfigurationError(f"unknown lattice method {self.method!r} (expected one of {METHODS})")
        if isinstance(self.max_gaps, bool) or not isinstance(self.max_gaps, int) or self.max_gaps < 0:
            raise ConfigurationError(f"max_gaps must be a count >= 0, got {self.max_gaps!r}")


def forest_to_builder(forest: ForestNode) -> LatticeBuilder:
    """Linearise a forest: alternative paths between the same two states for every merged node."""
    builder = LatticeBuilder()
    _linearise(builder, forest, builder.start, builder.end)
    return builder


def _linearise(b: LatticeBuilder, node: ForestNode, src: int, dst: int) -> None:
    """Add `node`'s paths from state `src` to `dst` (with an explicit stack: deep trees do not recurse)."""
    stack = [(node, src, dst)]
    while stack:
        node, s, e = stack.pop()
        if node.leaf:
            for word in node.words:
                b.add_edge(s, word, e)
            continue
        for alt in node.alternatives:
            if not alt:
                b.add_edge(s, None, e)
                continue
            cur = s
            for k, child in enumerate(alt):
                nxt = e if k == len(alt) - 1 else b.new_state()
                stack.append((child, cur, nxt))
                cur = nxt


def lattice_from_trees(
    trees: Sequence[Tree], *, keyword_check: bool = True, synonyms: SynonymFn | None = None,
    squeeze: bool = True, max_gaps: int = 0,
) -> Lattice:
    """The syntax-based lattice of parse trees (all with a ROOT root, as parse_tree gives)."""
    forest = Merger(keyword_check=keyword_check, synonyms=synonyms, max_gaps=max_gaps).merge_all(trees)
    if forest is None:
        raise FormatError("a lattice needs at least one sentence")
    builder = forest_to_builder(forest)
    if squeeze:
        builder.squeeze()
    return builder.freeze()


def build_lattice(sentences: Iterable[Sentence | TextOrTokens], options: LatticeOptions | None = None) -> Lattice:
    """The lattice of a group of sentences (a list or any iterable); every sentence (lower-cased
    when `options.lowercase`) is a path. Identical sentences (after lower-casing) count once, as
    a group is a set of distinct translations; edge weights count the distinct sentences using
    each edge. Sentences may be annotated Sentences, texts or token lists (annotated here with
    :func:`lattice_annotator`; for the MSA baseline, which reads tokens alone, only tokenised). `paralign lattice build` writes this lattice.

    >>> lattice = paralign.build_lattice(["the cat sat on the mat", "a cat sat on the mat"])
    >>> sorted(" ".join(path) for path in lattice.paths())
    ['a cat sat on the mat', 'the cat sat on the mat']
    >>> lattice.to_dict()["weights"]                      # sentences through each edge
    [1, 1, 2, 2, 2, 2, 2]
    """
    options = LatticeOptions() if options is None else options
    if not isinstance(options, LatticeOptions):
        raise InputTypeError(f"options must be a LatticeOptions (paralign.LatticeOptions(method='msa'), ...), "
                             f"not {type(options).__name__} {shown_value(options)}")
    sentences, tokens = distinct_sentences(_annotated(sentences, parse=options.method != "msa"), options.lowercase)
    if not sentences:
        raise FormatError("a lattice needs at least one sentence")
    if options.method == "msa":
        lattice = msa_lattice(tokens)
    elif options.method == "syntax":
        trees = [parse_tree(s, lowercase=options.lowercase) for s in sentences]
        synonyms = wordnet_synonym_fn() if options.wordnet else None
        lattice = lattice_from_trees(
            trees, keyword_check=options.keyword_check, synonyms=synonyms, squeeze=options.squeeze,
            max_gaps=options.max_gaps,
        )
    else:
        raise ConfigurationError(f"unknown lattice method {options.method!r} (expected one of {METHODS})")
    return replace(lattice.with_weights(tokens), lowercase=options.lowercase)  # recorded for queries


def sentence_key(tokens: Iterable[str], lowercase: bool = True) -> tuple[str, ...]:
    """What a sentence is to a lattice: its tokens as the lattice spells them (lower-cased when
    `lowercase`). Two sentences of a group with one key are one sentence: one path, counted
    once in edge weights, in a group's size (`lattice stats`) and by `--min-size`
    (:func:`.groups.read_groups`): "The cat sat." and "the cat sat ." are one sentence
    (spaCy gives both the tokens the, cat, sat and .). A run of white space in a text is one
    space to the tokenizer (:mod:`paralign.nlp`: no whitespace tokens), so "the cat  sat" is
    that sentence too."""
    return tuple(t.lower() for t in tokens) if lowercase else tuple(tokens)


def distinct_sentences(
    sentences: Iterable[Sentence], lowercase: bool = True
) -> tuple[list[Sentence], list[list[str]]]:
    """A group's distinct sentences (:func:`sentence_key`), first occurrence kept, and their
    tokens as the lattice spells them."""
    kept: dict[tuple[str, ...], Sentence] = {}
    for s in sentences:
        kept.setdefault(sentence_key(s.tokens, lowercase), s)
    return list(kept.values()), [list(key) for key in kept]


def _annotated(sentences: Iterable[Sentence | TextOrTokens], parse: bool = True) -> list[Sentence]:
    """The group as Sentences: texts and token lists annotated in one batch, Sentences kept;
    without `parse` (the MSA baseline reads tokens alone) only split into the tokens annotating
    gives them (:meth:`~paralign.nlp.Annotator.tokenize`; a token list as it is): parsing two
    10,000-word lines took twice the time of their alignment, and most of the memory.

    A value of the wrong type is an InputTypeError (a TypeError, as in the rest of the
    library) naming it: one text or Sentence (whose characters or words would become the
    group), a mapping (whose keys would, its values lost), None or a number, or a member that is
    none of a Sentence, a text, a token list."""
    if isinstance(sentences, str | Sentence | Mapping) or not isinstance(sentences, Iterable):
        what = "one " if isinstance(sentences, str | Sentence) else ""
        raise InputTypeError(f"build_lattice takes a group of sentences (a list), not "
                             f"{what}{type(sentences).__name__} {shown_value(sentences)}")
    sentences = list(sentences)  # read twice below: a generator would be used up by the first
    for number, s in enumerate(sentences, start=1):
        if not isinstance(s, str | Sentence) and not (
                isinstance(s, Sequence) and all(isinstance(w, str) for w in s)):
            raise InputTypeError(f"sentence {number} is {type(s).__name__} {shown_value(s)}, not a "
                                 "Sentence, a text or a token list: a lattice is built from those")
        if not isinstance(s, Sentence):  # a lone surrogate: no character, named before any is parsed
            check_text_or_tokens(s, f"sentence {number}")
            check_parsable(s, f"sentence {number}")
    todo = [s for s in sentences if not isinstance(s, Sentence)]
    if parse:
        annotated = iter(lattice_annotator().pipe(todo) if todo else ())
    else:
        texts = [s for s in todo if isinstance(s, str)]
        split = iter(lattice_annotator().tokenize(texts) if texts else ())
        annotated = iter(Sentence.plain(next(split) if isinstance(s, str) else [str(w) for w in s]) for s in todo)
    return [s if isinstance(s, Sentence) else next(annotated) for s in sentences]


def check_parsable(sentence: TextOrTokens, what: str) -> None:
    """FormatError for a sentence longer than the parser takes (:data:`MAX_SENTENCE_CHARS`
    characters, as `align` refuses a pair's): a text over spaCy's 1,000,000 was a ValueError
    traceback from spaCy (E088), and a token list that long asks the parser for gigabytes."""
    from ..corpora.sentence_pairs import MAX_SENTENCE_CHARS

    if isinstance(sentence, str):
        size = len(sentence)
    elif isinstance(sentence, Sequence) and not isinstance(sentence, Sentence) and all(
            isinstance(w, str) for w in sentence):
        size = sum(map(len, sentence))
    else:  # parsed already, or no text: the annotator's checks name it
        return
    if size > MAX_SENTENCE_CHARS:
        raise FormatError(f"{what} too long to parse ({size:,} characters, more than "
                          f"{MAX_SENTENCE_CHARS:,}: the parser needs about 1 GB a 100,000)")


__all__ = [
    "LatticeOptions", "build_lattice", "chain", "check_parsable", "distinct_sentences", "forest_to_builder",
    "lattice_annotator", "lattice_from_trees", "sentence_key",
]
