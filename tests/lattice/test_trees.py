"""Deep parse trees (lattice.trees, lattice.forest): a sentence parsed thousands of levels deep
builds its lattice. A 6,000-token Bible sentence of clauses joined by "and" ended in a
RecursionError in the tree builder, and the forest merge, ForestNode.from_tree, Tree.leaves,
nodes, == and hash recursed one Python frame (or two) per level too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.lattice import (
    ForestNode,
    LatticeOptions,
    Merger,
    Tree,
    build_lattice,
    parse_tree,
    projective_heads,
)
from paralign.lattice.build import forest_to_builder
from paralign.sentence import ROOT, Sentence

#: Levels of the deep trees: past Python's default limit of 1,000 frames, and fast to build.
DEPTH = 1500


def chain(words: list[str], pos: str) -> Sentence:
    """A sentence whose every token depends on the one before it: a parse as deep as it is long."""
    n = len(words)
    return Sentence(tuple(words), tags=(pos,) * n, pos=(pos,) * n, heads=(ROOT, *range(n - 1)),
                    deps=("nmod",) * n)


def depth(tree: Tree) -> int:
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in node.children)
    return deepest


@pytest.mark.parametrize("pos", ["NOUN", "VERB", "ADP"])
def test_a_parse_thousands_of_levels_deep_builds_its_lattice(pos) -> None:
    words = [f"w{i}" for i in range(DEPTH)]
    other = [*words[:-1], "other"]
    tree = parse_tree(chain(words, pos))
    assert depth(tree) > DEPTH
    assert tree.leaves() == words
    lattice = build_lattice([chain(words, pos), chain(other, pos)], LatticeOptions(lowercase=False))
    assert lattice.path_count() == 2
    assert lattice.accepts(words) and lattice.accepts(other)
    assert lattice.n_edges == DEPTH + 1  # merged all the way down: only the last word differs


def deep_tree(words: list[str]) -> Tree:
    """NP -> NOUN NP -> NOUN NP ...: a tree with one level per word."""
    tree = Tree("NP", (Tree("NOUN", word=words[-1], keywords=frozenset({words[-1]})),), keywords=frozenset({words[-1]}))
    for w in reversed(words[:-1]):
        keywords = tree.keywords | {w}
        tree = Tree("NP", (Tree("NOUN", word=w, keywords=frozenset({w})), tree), keywords=keywords)
    return Tree("ROOT", (tree,), keywords=tree.keywords)


def test_deep_trees_are_walked_compared_and_merged_without_recursion() -> None:
    words = [f"w{i}" for i in range(DEPTH)]
    tree, again, other = deep_tree(words), deep_tree(words), deep_tree([*words[:-1], "other"])
    assert tree.leaves() == words
    assert len(list(tree.nodes())) == 2 * DEPTH + 1
    assert tree == again and hash(tree) == hash(again) and tree != other
    forest = Merger().merge_all([tree, other])
    assert forest is not None and forest.size() == 2 * DEPTH + 1
    assert ForestNode.from_tree(tree).size() == 2 * DEPTH + 1
    lattice = forest_to_builder(forest).freeze()
    assert lattice.path_count() == 2 and lattice.accepts([*words[:-1], "other"])


def test_walking_a_tree_gives_what_recursion_gave() -> None:
    """The stacks keep the order: leaves left to right, nodes pre-order."""
    tree = Tree("ROOT", (
        Tree("S", (Tree("NP", (Tree("DET", word="the"), Tree("NOUN", word="people"))),
                   Tree("VP", (Tree("VERB", word="died"),)))),
        Tree("PUNCT", word="."),
        Tree("X"),
    ))
    assert tree.leaves() == ["the", "people", "died", "."]
    assert [n.label for n in tree.nodes()] == ["ROOT", "S", "NP", "DET", "NOUN", "VP", "VERB", "PUNCT", "X"]
    assert tree != Tree("ROOT", tree.children[:2]) and tree != "(ROOT)"
    assert tree != Tree("ROOT", tree.children, keywords=frozenset({"people"}))


def lifted_by_definition(heads: list[int]) -> list[int]:
    """projective_heads as it was first written: each token's set of ancestors, made again
    after every lift (time and memory: length times depth), the first non-projective arc lifted."""
    heads = [h if h == ROOT or 0 <= h < len(heads) and h != i else ROOT for i, h in enumerate(heads)]
    for i in range(len(heads)):
        seen, k = set(), i
        while k != ROOT and k not in seen:
            seen.add(k)
            k = heads[k]
        if k != ROOT:
            heads[k] = ROOT

    def ancestors(k: int) -> set[int]:
        out, k = set(), heads[k]
        while k != ROOT:
            out.add(k)
            k = heads[k]
        return out

    changed = True
    while changed:
        changed = False
        above = [ancestors(k) for k in range(len(heads))]
        for d, h in enumerate(heads):
            if h != ROOT and any(h not in above[k] for k in range(min(d, h) + 1, max(d, h))):
                heads[d] = heads[h]
                changed = True
                break
    return heads


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(-2, 12), min_size=1, max_size=12))
def test_projective_heads_lifts_the_arcs_the_definition_lifts(heads) -> None:
    """The pre-order spans and the single walk of each token to its root give the heads that
    sets of ancestors gave (malformed heads too: out of range, self, cycles)."""
    assert projective_heads(heads) == lifted_by_definition(heads)


def test_projective_heads_of_a_deep_parse_is_fast() -> None:
    """A parse 6,000 levels deep: 15 s and 3 GB with a set of ancestors per token."""
    heads = [ROOT, *range(5999)]
    heads[3000] = 2990  # projective: 2991-2999 are below 2990
    heads[2995] = 3005  # crosses 3001-3004, which are above 3005: lifted to 3004, ..., 3000
    lifted = [*heads[:2995], 3000, *heads[2996:]]
    assert projective_heads(heads) == lifted
    assert lifted_by_definition(heads[:3010]) == lifted[:3010]


# --- keywords: gathered, not a set per node ----------------------------------------------------
def test_a_deep_chain_of_nouns_builds_in_linear_memory() -> None:
    """Two parses 3,000 levels deep: every Tree node and ForestNode held a set of all the
    keywords below it (4.5 million words a tree; 6,000 levels: 3 GB and 10 s)."""
    import tracemalloc

    words = [f"w{i}" for i in range(3000)]
    tracemalloc.start()
    try:
        lattice = build_lattice([chain(words, "NOUN"), chain([*words[:-1], "other"], "NOUN")],
                                LatticeOptions(lowercase=False))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert lattice.path_count() == 2 and lattice.n_edges == 3001
    assert peak < 60 * 2**20, f"peak {peak / 2**20:.0f} MB"


def test_a_phrase_gathers_its_keywords_from_below() -> None:
    """parse_tree's phrases store no keywords: read, they are the leaves' together, as when each
    node stored the union; equality and hash do not depend on how keywords were given."""
    words = ["w0", "w1", "w2", "w1"]
    tree = parse_tree(chain(words, "NOUN"))
    assert tree.keywords == {"w0", "w1", "w2"}
    assert tree.children[0].own_keywords is None
    assert [sorted(n.keywords) for n in tree.nodes()][-2:] == [["w1"], ["w1"]]

    def stored(t: Tree) -> Tree:  # the same tree with every node's keywords given
        return Tree(t.label, tuple(stored(c) for c in t.children), t.word, t.keywords)

    assert tree == stored(tree) and stored(tree) == tree and hash(tree) == hash(stored(tree))
    assert tree != Tree(tree.label, tree.children, keywords=frozenset({"w0"}))
    assert Tree("NP", (Tree("NOUN", word="x", keywords=frozenset({"x"})),)).keywords == frozenset()  # default: none


LABELS = ("A", "B")
WORDS = ("a", "b", "c", "d", "e", "f")


@st.composite
def small_trees(draw, depth: int = 2) -> Tree:
    """A small tree: leaves with 0-2 keywords; phrases whose keywords are given (any set) or
    their children's (None)."""
    if depth == 0 or draw(st.booleans()):
        return Tree(draw(st.sampled_from(LABELS)), word="w",
                    keywords=frozenset(draw(st.lists(st.sampled_from(WORDS), max_size=1))))
    children = tuple(draw(st.lists(small_trees(depth - 1), min_size=1, max_size=3)))
    given = draw(st.none() | st.frozensets(st.sampled_from(WORDS), max_size=2))
    return Tree(draw(st.sampled_from(LABELS)), children, keywords=given)


SYNONYMS = {"a": {"B"}, "c": {"D", "zz"}, "e": {"e", "F"}}


def synonym(word: str) -> set[str]:
    return SYNONYMS.get(word, set())


@settings(max_examples=200, deadline=None)
@given(st.lists(small_trees(), min_size=2, max_size=3), st.lists(small_trees(), min_size=2, max_size=3),
       st.lists(small_trees(), min_size=2, max_size=3), st.integers(1, 2))
def test_the_keyword_check_on_masks_is_the_check_on_sets(earlier, later, children, gaps) -> None:
    """The masks give the check the sets gave: b_i's keywords (with their synonyms) against the
    keywords of the tree nodes merged into each a_j, j != i, and so for relaxed merging."""
    n = min(len(earlier), len(later), len(children))
    alt = [ForestNode.from_tree(t) for t in earlier[:n]]
    for a, t in zip(alt, later[:n], strict=True):
        a.trees.append(t)  # a second tree merged into each: a_j's keywords are both trees'
    children = tuple(children[:n])
    assert all(a.keywords == earlier[k].keywords | later[k].keywords for k, a in enumerate(alt))
    for syn in (None, synonym):
        def expand(words: frozenset[str], syn=syn) -> set[str]:
            return {*words, *(s.lower() for w in words for s in (syn(w) if syn else ()))}

        def apart(pairs: list[tuple[int, int]], expand=expand) -> bool:  # no keyword shared off the pairs
            return all(expand(b.keywords).isdisjoint(a.keywords)
                       for j, b in enumerate(children) for i, a in enumerate(alt) if (i, j) not in pairs)

        assert Merger(synonyms=syn)._keywords_ok(alt, children) == apart([(i, i) for i in range(n)])
        pairs = Merger(keyword_check=False, max_gaps=gaps)._relaxed_pairs(alt, children)
        checked = Merger(synonyms=syn, max_gaps=gaps)._relaxed_pairs(alt, children)
        assert checked == (pairs if pairs is not None and apart(pairs) else None)


# --- repr and pickle ---------------------------------------------------------------------------
def test_a_deep_tree_has_a_repr_and_pickles() -> None:
    """repr and pickle (and deepcopy) recursed a few frames per level: a RecursionError."""
    import copy
    import pickle

    words = [f"w{i}" for i in range(DEPTH)]
    for tree in (deep_tree(words), parse_tree(chain(words, "NOUN"))):
        for again in (pickle.loads(pickle.dumps(tree)), copy.deepcopy(tree)):
            assert again == tree and [(n.label, n.word) for n in again.nodes()] == [(n.label, n.word) for n in tree.nodes()]
            assert [n.own_keywords for n in again.nodes()] == [n.own_keywords for n in tree.nodes()]
    text = repr(deep_tree(words[-300:]))
    assert text.startswith("Tree(label='ROOT', children=(Tree(label='NP', children=(Tree(label='NOUN', "
                           "children=(), word='w1200', keywords=frozenset({'w1200'})), Tree(label='NP'")
    assert text.count("Tree(") == 601 and text.endswith(f"keywords={deep_tree(words[-300:]).keywords!r})")


def test_repr_and_pickle_of_a_small_tree_are_as_before() -> None:
    """The text the dataclass's repr gave (keywords as read), and a round trip keeping how each
    node's keywords were given."""
    import pickle
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Before:  # Tree as the dataclass it was, for its repr
        label: str
        children: tuple = ()
        word: str | None = None
        keywords: frozenset[str] = frozenset()

    Before.__qualname__ = "Tree"

    def before(t: Tree) -> Before:
        return Before(t.label, tuple(before(c) for c in t.children), t.word, t.keywords)

    people = Tree("NOUN", word="people", keywords=frozenset({"people"}))
    for tree in (
        Tree("ROOT", (Tree("S", (Tree("NP", (Tree("DET", word="the"), people), keywords=None),
                                 Tree("VP", (Tree("VERB", word="died"),)))), Tree("PUNCT", word="."), Tree("X"))),
        parse_tree(Sentence(("people", "died", "."), pos=("NOUN", "VERB", "PUNCT"), heads=(1, ROOT, 1),
                            deps=("nsubj", "ROOT", "punct"))),
        Tree("ROOT"), people,
    ):
        assert repr(tree) == repr(before(tree))
        again = pickle.loads(pickle.dumps(tree))
        assert again == tree and repr(again) == repr(tree)
        assert [n.own_keywords for n in again.nodes()] == [n.own_keywords for n in tree.nodes()]
