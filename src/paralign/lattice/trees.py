"""Phrase-structure trees from spaCy dependency parses (a documented head-driven conversion).

Pang et al. (2003) merged Charniak parses; no constituency parser with a bundled model installs
from PyPI, so :func:`parse_tree` derives a Penn-style tree from a dependency parse instead.

The conversion, for a head token h with its dependents (in sentence order):

* non-projective arcs are first *lifted* (the dependent is re-attached to its head's head until
  every arc is projective), so each head's subtree is a contiguous span and the tree's leaves,
  read left to right, are exactly the sentence's tokens;
* a verb or auxiliary with a subject dependent (nsubj, nsubjpass, csubj, csubjpass, expl) before
  it projects ``S -> [pre-subject dependents] NP-subject VP [trailing punctuation]`` where the
  VP holds the auxiliaries, the verb and its other dependents; without a (preceding) subject
  it projects a flat ``VP`` (or ``S`` when the subject follows, e.g. "said he");
* a clause with a ``mark`` dependent ("because", "that", "if") is wrapped as
  ``SBAR -> mark S``;
* a noun, proper noun, pronoun or number projects ``NP``: the head with its left dependents
  form a core NP, and right dependents (PPs, relative clauses) attach above it,
  ``NP -> NP PP ...``;
* a preposition projects ``PP``, an adjective ``ADJP``, an adverb ``ADVP``, a subordinating
  conjunction ``SBAR``, anything else ``XP``;
* single-token constituents are wrapped in their phrase (NP, ADJP, ADVP) when they are
  clause-level dependents (so "killed people" and "killed the people" have the same
  ``VP -> VERB NP`` expansion), and stay bare leaves inside noun phrases;
* every tree has a ``ROOT`` node above the root tokens' constituents.

Leaves are labelled with the universal POS tag (coarser than Penn tags, so "killed"/"died" or
"people"/"person" sit in same-label nodes and can merge). Each node carries its *keywords*: the
lower-cased lemmas and words of the nouns, proper nouns, verbs and adjectives it spans (the paper's
keyword checking uses them). Only the leaves store theirs; a phrase's are its children's
together, gathered when read, so a tree n levels deep holds n small sets, not n**2 words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..sentence import ROOT, Sentence

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
KEYWORD_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})
PHRASE_OF_POS = {
    "NOUN": "NP", "PROPN": "NP", "PRON": "NP", "NUM": "NP",
    "ADP": "PP", "ADJ": "ADJP", "ADV": "ADVP", "SCONJ": "SBAR",
    "VERB": "VP", "AUX": "VP",
}
WRAP_SINGLE = frozenset({"NOUN", "PROPN", "PRON", "ADJ", "ADV"})


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Tree:
    """A phrase-structure node: a phrase label with children, or a leaf (POS label and word).

    `keywords` are the words it spans that keyword checking compares. Given as None they are
    the children's keywords together, not stored but gathered when read (:attr:`keywords`):
    :func:`parse_tree` builds its phrases so, as a set per node held 18 million words for a
    parse 6,000 levels deep. `own_keywords` is what was given (None or a set)."""

    label: str
    children: tuple[Tree, ...]
    word: str | None
    own_keywords: frozenset[str] | None

    def __init__(self, label: str, children: tuple[Tree, ...] = (), word: str | None = None,
                 keywords: frozenset[str] | None = frozenset()) -> None:
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "children", children)
        object.__setattr__(self, "word", word)
        object.__setattr__(self, "own_keywords", keywords)

    @property
    def keywords(self) -> frozenset[str]:
        """The keywords given, or (None given) the children's together, gathered from the nodes
        below that were given theirs (time linear in the subtree; nothing is kept)."""
        if self.own_keywords is not None:
            return self.own_keywords
        out: set[str] = set()
        stack = list(self.children)
        while stack:
            node = stack.pop()
            if node.own_keywords is None:
                stack.extend(node.children)
            else:
                out |= node.own_keywords
        return frozenset(out)

    @property
    def is_leaf(self) -> bool:
        return self.word is not None

    def leaves(self) -> list[str]:
        """The words under this node, left to right."""
        return [node.word for node in self.nodes() if node.word is not None]

    def expansion(self) -> tuple[str, ...]:
        """The labels of the children (the syntactic rule this node is expanded by)."""
        return tuple(child.label for child in self.children)

    def nodes(self) -> Iterator[Tree]:
        """All nodes, pre-order (an explicit stack: a tree thousands of levels deep does not recurse)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def _written(self, parts: Callable[[Tree], str | tuple[str, str, str]]) -> str:
        """Text written node by node from an explicit stack (a tree thousands of levels deep does
        not recurse): `parts(node)` is a node's whole text, or its (opening, separator between
        children, closing) around its children's texts."""
        out: list[str] = []
        stack: list[Tree | str] = [self]  # a str is text to write as it is
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                out.append(item)
                continue
            found = parts(item)
            if isinstance(found, str):
                out.append(found)
                continue
            opening, separator, closing = found
            out.append(opening)
            stack.append(closing)
            for k in range(len(item.children) - 1, -1, -1):
                stack.append(item.children[k])
                if k:
                    stack.append(separator)
        return "".join(out)

    def __eq__(self, other: object) -> bool:
        """Equal labels, words, keywords and children, node by node (as the dataclass's ``__eq__``,
        without its recursion). Two nodes whose keywords are both their children's have equal
        keywords when their children do, so only a node given its keywords gathers the other's."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Tree)
        stack: list[tuple[Tree, Tree]] = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if a.label != b.label or a.word != b.word or len(a.children) != len(b.children):
                return False
            if (a.own_keywords is not None or b.own_keywords is not None) and a.keywords != b.keywords:
                return False
            stack.extend(zip(a.children, b.children, strict=True))
        return True

    def __hash__(self) -> int:
        """A hash of every node's label, word and number of children (keywords left out: equal
        trees hash alike however their keywords were given)."""
        return hash(tuple((node.label, node.word, len(node.children)) for node in self.nodes()))

    def __repr__(self) -> str:
        """The dataclass's repr, with the keywords as :attr:`keywords` reads them, written from a
        stack (the dataclass's, through the children's tuple, recursed two frames per level)."""
        return self._written(lambda node: (
            f"Tree(label={node.label!r}, children=(", ", ",
            f"{',' if len(node.children) == 1 else ''}), word={node.word!r}, keywords={node.keywords!r})"))

    def __reduce__(self) -> tuple[Callable[[list[_FlatNode]], Tree], tuple[list[_FlatNode]]]:
        """Pickle (and copy) a flat list: each node's label, word, given keywords and number of
        children, pre-order. The default pickled each child inside its parent, recursing a few
        frames per level (a RecursionError past a few hundred levels)."""
        return _from_flat, ([(n.label, n.word, n.own_keywords, len(n.children)) for n in self.nodes()],)


_FlatNode = tuple[str, "str | None", "frozenset[str] | None", int]


def _from_flat(flat: list[_FlatNode]) -> Tree:
    """The tree of :meth:`Tree.__reduce__`'s list, built from its end: each node's children are
    the last ones built (the first child on top)."""
    built: list[Tree] = []
    for label, word, keywords, count in reversed(flat):
        children = tuple(reversed(built[len(built) - count:]))
        del built[len(built) - count:]
        built.append(Tree(label, children, word, keywords))
    return built[0]


def projective_heads(heads: Sequence[int]) -> list[int]:
    """Heads with every non-projective arc lifted to the head's head (until all are projective).

    The first non-projective arc (by dependent) is lifted, and the search starts again. An arc
    is projective when every token between its ends is below its head, told by the tokens'
    pre-order numbers (:func:`_subtree_spans`), so each round takes time linear in the sentence
    and its arcs' lengths, not in its length times its depth (a set of ancestors per token: 3 s
    and 800 MB for a parse 3,000 levels deep)."""
    heads = list(heads)
    n = len(heads)
    for i, h in enumerate(heads):  # repair out-of-range or self heads: make them roots
        if h != ROOT and not 0 <= h < n or h == i:
            heads[i] = ROOT
    _break_cycles(heads)
    while True:
        first, last = _subtree_spans(heads)
        lifted = next((d for d, h in enumerate(heads) if h != ROOT and any(
            not first[h] < first[k] <= last[h] for k in range(min(d, h) + 1, max(d, h)))), None)
        if lifted is None:
            return heads
        heads[lifted] = heads[heads[lifted]]


def _subtree_spans(heads: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each token's pre-order number in the (acyclic) dependency forest, and the last number of
    its subtree: k is below h exactly when first[h] < first[k] <= last[h]."""
    n = len(heads)
    deps: list[list[int]] = [[] for _ in range(n)]
    roots: list[int] = []
    for k, h in enumerate(heads):
        (roots if h == ROOT else deps[h]).append(k)
    order: list[int] = []
    stack = roots
    while stack:
        k = stack.pop()
        order.append(k)
        stack.extend(deps[k])
    first = [0] * n
    for number, k in enumerate(order):
        first[k] = number
    size = [1] * n
    for k in reversed(order):
        if heads[k] != ROOT:
            size[heads[k]] += size[k]
    return first, [first[k] + size[k] - 1 for k in range(n)]


def _break_cycles(heads: list[int]) -> None:
    """Make a token a root when following heads from it loops (malformed input): the first
    token met twice, following heads from each token in turn. A token once followed to a root
    is not followed again (its way there stays: only tokens on a loop get new heads), so this
    takes time linear in the sentence, not in its length times its depth."""
    rooted: set[int] = set()  # tokens whose heads lead to a root
    for i in range(len(heads)):
        seen: set[int] = set()
        k = i
        while k != ROOT and k not in rooted and k not in seen:
            seen.add(k)
            k = heads[k]
        if k in seen:
            heads[k] = ROOT
        rooted |= seen


def parse_tree(sentence: Sentence, *, lowercase: bool = False) -> Tree:
    """The phrase-structure tree of an annotated sentence (see the module doc for the rules).

    An unparsed sentence (all heads ROOT) gives a flat ``ROOT`` over its leaves; an empty one a
    ``ROOT`` with no children.
    """
    n = len(sentence)
    heads = projective_heads(sentence.heads)
    deps: list[list[int]] = [[] for _ in range(n)]
    roots: list[int] = []
    for i, h in enumerate(heads):
        (roots if h == ROOT else deps[h]).append(i)
    words = [t.lower() if lowercase else t for t in sentence.tokens]
    leaves = [
        Tree(
            sentence.pos[i] or "X",
            word=words[i],
            keywords=keywords_of(sentence, i),
        )
        for i in range(n)
    ]
    built = _build_all(roots, sentence, deps, leaves)
    return _node("ROOT", [built[r] for r in roots])


def keywords_of(sentence: Sentence, i: int) -> frozenset[str]:
    """Token `i`'s keywords: for a noun, proper noun, verb or adjective its lemma and its word,
    lower-cased (none for another token). Its lemma alone let one word tagged two ways pass the
    check: "everlasting" as a verb is "everlast", as a noun "everlasting", and two versions
    merged into "the everlasting everlasting god" (the paper's check compares words)."""
    if sentence.pos[i] not in KEYWORD_POS:
        return frozenset()
    return frozenset({sentence.lemmas[i].lower(), sentence.tokens[i].lower()})


def _node(label: str, children: Sequence[Tree]) -> Tree:
    """A phrase whose keywords are its children's (gathered when read, not stored)."""
    return Tree(label, tuple(children), None, None)


def _build_all(roots: Sequence[int], s: Sentence, deps: list[list[int]], leaves: list[Tree]) -> dict[int, Tree]:
    """Every token's constituent, by token, each built after its dependents' (an explicit stack,
    not recursion: a parse thousands of levels deep, as a long sentence of clauses joined by
    "and" has, builds). A dependent is clause-level unless it precedes a noun-phrase head."""
    clause_level = dict.fromkeys(roots, True)
    order: list[int] = []  # pre-order: a head before its dependents
    stack = list(roots)
    while stack:
        h = stack.pop()
        order.append(h)
        in_np = PHRASE_OF_POS.get(s.pos[h], "XP") == "NP"
        for d in deps[h]:
            clause_level[d] = not in_np or d > h
            stack.append(d)
    built: dict[int, Tree] = {}
    for h in reversed(order):
        built[h] = _build(h, s, deps, leaves, clause_level[h], built)
    return built


def _build(h: int, s: Sentence, deps: list[list[int]], leaves: list[Tree], clause_level: bool,
           sub: dict[int, Tree]) -> Tree:
    """Token `h`'s constituent, its dependents' already in `sub`."""
    pos = s.pos[h]
    phrase = PHRASE_OF_POS.get(pos, "XP")
    if not deps[h]:
        if clause_level and pos in WRAP_SINGLE:
            return _node(phrase, [leaves[h]])
        return leaves[h]
    ordered = sorted([*deps[h], h])

    def parts(indices: Sequence[int]) -> list[Tree]:
        return [leaves[i] if i == h else sub[i] for i in indices]

    if phrase == "VP":
        return _clause(h, s, deps[h], ordered, parts)
    if phrase == "NP":
        left = [i for i in ordered if i <= h]
        right = [i for i in ordered if i > h]
        if not right:
            return _node("NP", parts(left))
        core = _node("NP", parts(left)) if len(left) > 1 else leaves[h]
        return _node("NP", [core, *parts(right)])
    return _node(phrase, parts(ordered))


def _clause(h: int, s: Sentence, dependents: list[int], ordered: list[int], parts) -> Tree:
    marks = [d for d in dependents if s.deps[d] == "mark" and d < h and d == ordered[0]]
    rest = [i for i in ordered if i not in marks]
    subjects = [d for d in dependents if s.deps[d] in SUBJECT_DEPS]
    if subjects and subjects[0] < h:
        subj = subjects[0]
        before = [i for i in rest if i < subj]
        after = [i for i in rest if i > subj]
        trailing: list[int] = []
        while after and after[-1] != h and s.pos[after[-1]] == "PUNCT":
            trailing.insert(0, after.pop())
        vp = _node("VP", parts(after)) if len(after) > 1 else parts(after)[0]
        clause = _node("S", [*parts(before), *parts([subj]), vp, *parts(trailing)])
    elif subjects:
        clause = _node("S", parts(rest))
    else:
        clause = _node("VP", parts(rest)) if len(rest) > 1 else parts(rest)[0]
    if marks:
        return _node("SBAR", [*parts(marks), clause])
    return clause
