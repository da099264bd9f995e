"""Top-down merging of a group's parse trees into a parse forest (Pang et al. 2003, sect. 3.1).

Two nodes of the same type with the same expansion (the same sequence of child labels) are
assumed paraphrases: they merge and the merge recurses into their children pair by pair; at a
node whose expansions differ the new subtree is kept as an *alternative* expansion. Leaves of
the same POS merge into one leaf with alternative words ("people" / "persons").

With ``max_gaps`` > 0 (an extension, not in the paper; off by default) two expansions that differ
by at most that many children merge along the longest common subsequence of their child labels,
the unaligned children becoming optional (skippable by an epsilon edge).

Keyword checking guards every merge: before merging a_i with b_i, b_i's keywords (the nouns,
verbs and adjectives it spans) must share no word with any *other* child a_j (j != i); if one
does (as in "people killed in the battle" vs "the battle killed people"), the expansion is not
merged and is added as an alternative instead. With ``synonyms`` (e.g. WordNet), words that are
synonyms count as shared keywords too.

The check tests keywords as bit masks (a bit per distinct word of the group), each tree node's
made once from its children's: a node's keyword set, kept at every node of the trees and the
forest, held 3 GB for two parses 6,000 levels deep (each level spans all the words below it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..errors import MismatchError
from .trees import Tree

SynonymFn = Callable[[str], Iterable[str]]


@dataclass(slots=True)
class ForestNode:
    """A merged node: a label with alternative expansions, or a leaf with alternative words."""

    label: str
    alternatives: list[list[ForestNode]] = field(default_factory=list)
    words: dict[str | None, int] = field(default_factory=dict)  # leaf words (None: skippable) -> times seen
    trees: list[Tree] = field(default_factory=list)  # the tree nodes merged into this one, in order
    leaf: bool = False

    @property
    def keywords(self) -> frozenset[str]:
        """The keywords of the tree nodes merged into this one (gathered when read)."""
        return frozenset().union(*(t.keywords for t in self.trees))

    @classmethod
    def from_tree(cls, tree: Tree) -> ForestNode:
        """A forest holding one tree (an explicit stack: a tree thousands of levels deep does not recurse)."""
        root = cls._one(tree)
        stack = [(root, tree)]
        while stack:
            node, t = stack.pop()
            if not node.leaf:
                children = [cls._one(c) for c in t.children]
                node.alternatives.append(children)
                stack.extend(zip(children, t.children, strict=True))
        return root

    @classmethod
    def _one(cls, tree: Tree) -> ForestNode:
        """The node of `tree`'s root alone: a leaf with its word, or a phrase with no expansion yet."""
        if tree.is_leaf:
            return cls(tree.label, words={tree.word: 1}, trees=[tree], leaf=True)
        return cls(tree.label, trees=[tree])

    def size(self) -> int:
        """Number of forest nodes (for diagnostics)."""
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(c for alt in node.alternatives for c in alt)
        return count


class Merger:
    """Merges trees top-down into a forest, with keyword checking (optionally with synonyms).

    It keeps the keyword masks of the trees it merges (and the trees) until its next
    :meth:`merge_all`: one group at a time, a Merger not shared between threads."""

    def __init__(
        self, *, keyword_check: bool = True, synonyms: SynonymFn | None = None, max_gaps: int = 0
    ) -> None:
        self.keyword_check = keyword_check
        self.synonyms = synonyms
        self.max_gaps = max_gaps
        self._syn_cache: dict[str, frozenset[str]] = {}
        self._bits: dict[str, int] = {}  # keyword -> its bit in the masks
        self._masks: dict[int, int] = {}  # id(tree node) -> its keywords' mask
        self._expanded: dict[int, int] = {}  # id(tree node) -> the mask of its keywords and their synonyms
        self._indexed: list[Tree] = []  # the trees whose nodes have masks: alive, so no other node has their ids

    def merge_all(self, trees: Iterable[Tree]) -> ForestNode | None:
        """The forest of several trees (None for no trees); trees must share their root label."""
        forest: ForestNode | None = None
        for table in (self._bits, self._masks, self._expanded, self._indexed):
            table.clear()  # a new group: new words, a bit each from 0
        for tree in trees:
            if forest is None:
                forest = ForestNode.from_tree(tree)
            else:
                self.merge(forest, tree)
        return forest

    def merge(self, node: ForestNode, tree: Tree) -> None:
        """Merge `tree` into `node` (same label assumed), top-down.

        The pairs of children to merge wait on an explicit stack, not in recursive calls, so a
        tree thousands of levels deep merges. They are taken in the recursive order (depth first,
        left to right), and a pair's merge reads and changes only its own two subtrees (the
        keyword check at a node reads its children's keywords, which only merges below it change),
        so the forest is the one recursion built."""
        stack = [(node, tree)]
        while stack:
            stack.extend(reversed(self._merge_node(*stack.pop())))

    def _merge_node(self, node: ForestNode, tree: Tree) -> list[tuple[ForestNode, Tree]]:
        """Merge `tree`'s root into `node`; returns the pairs of their children still to merge."""
        node.trees.append(tree)
        if node.leaf or tree.is_leaf:
            if node.leaf and tree.is_leaf:
                node.words[tree.word] = node.words.get(tree.word, 0) + 1
                return []
            raise MismatchError(f"cannot merge a leaf with a phrase under label {node.label!r}")
        expansion = tree.expansion()
        for alt in node.alternatives:
            if tuple(c.label for c in alt) == expansion and self._keywords_ok(alt, tree.children):
                return list(zip(alt, tree.children, strict=True))
        if self.max_gaps:
            for alt in node.alternatives:
                pairs = self._relaxed_pairs(alt, tree.children)
                if pairs is not None:
                    return self._merge_with_gaps(alt, tree.children, pairs)
        node.alternatives.append([ForestNode.from_tree(c) for c in tree.children])
        return []

    # -- relaxed merging (an extension, off by default) ------------------------------------------
    def _relaxed_pairs(self, alt: list[ForestNode], children: tuple[Tree, ...]) -> list[tuple[int, int]] | None:
        """Children aligned by the longest common subsequence of their labels, if at most
        `max_gaps` children (both sides) stay unaligned, at least one pair aligns, and keyword
        checking passes for the pairs and for the unaligned children (which must share no keyword
        with the other side: they become optional, so sharing one would repeat or drop it)."""
        m, k = len(alt), len(children)
        if not m or not k or abs(m - k) > self.max_gaps:
            return None
        table = [[0] * (k + 1) for _ in range(m + 1)]
        for i in range(m - 1, -1, -1):
            for j in range(k - 1, -1, -1):
                if alt[i].label == children[j].label and alt[i].leaf == children[j].is_leaf:
                    table[i][j] = table[i + 1][j + 1] + 1
                else:
                    table[i][j] = max(table[i + 1][j], table[i][j + 1])
        if not table[0][0] or (m - table[0][0]) + (k - table[0][0]) > self.max_gaps:
            return None
        pairs, i, j = [], 0, 0
        while i < m and j < k:
            if alt[i].label == children[j].label and alt[i].leaf == children[j].is_leaf and table[i][j] == table[i + 1][j + 1] + 1:
                pairs.append((i, j))
                i, j = i + 1, j + 1
            elif table[i + 1][j] >= table[i][j + 1]:
                i += 1
            else:
                j += 1
        if self.keyword_check:
            aligned_a = {i for i, _ in pairs}
            aligned_b = {j for _, j in pairs}
            mine = [self._mask(b, expanded=True) for b in children]
            theirs = [self._forest_mask(a) for a in alt]
            for i, j in pairs:
                if any(i2 != i and mine[j] & kw for i2, kw in enumerate(theirs)):
                    return None
            for j in range(k):
                if j not in aligned_b and any(mine[j] & kw for kw in theirs):
                    return None
            for i in range(m):
                if i not in aligned_a and any(kw & theirs[i] for kw in mine):
                    return None
        return pairs

    def _merge_with_gaps(
        self, alt: list[ForestNode], children: tuple[Tree, ...], pairs: list[tuple[int, int]]
    ) -> list[tuple[ForestNode, Tree]]:
        """Make `alt` the merged expansion: the aligned `pairs` in place, the other children of
        both sides optional; returns the aligned pairs, still to merge."""
        merged: list[ForestNode] = []
        todo: list[tuple[ForestNode, Tree]] = []
        i = j = 0
        for ai, bj in [*pairs, (len(alt), len(children))]:
            while i < ai:
                merged.append(_optional(alt[i]))
                i += 1
            while j < bj:
                merged.append(_optional(ForestNode.from_tree(children[j])))
                j += 1
            if ai < len(alt):
                todo.append((alt[ai], children[bj]))
                merged.append(alt[ai])
                i, j = i + 1, j + 1
        alt[:] = merged
        return todo

    # -- keyword checking -------------------------------------------------------------------------
    def _keywords_ok(self, alt: list[ForestNode], children: tuple[Tree, ...]) -> bool:
        """No child b_i shares a keyword (or, with synonyms, a synonym of one) with a child a_j, j != i."""
        if not self.keyword_check or len(alt) < 2:
            return True
        theirs: list[int] | None = None  # the a_j's masks, made when a b_i has keywords
        for i, b in enumerate(children):
            mine = self._mask(b, expanded=True)
            if not mine:
                continue
            if theirs is None:
                theirs = [self._forest_mask(a) for a in alt]
            if any(j != i and mine & kw for j, kw in enumerate(theirs)):
                return False
        return True

    def _forest_mask(self, node: ForestNode) -> int:
        """The mask of a forest node's keywords: those of the tree nodes merged into it."""
        mask = 0
        for tree in node.trees:
            mask |= self._mask(tree)
        return mask

    def _mask(self, tree: Tree, *, expanded: bool = False) -> int:
        """A tree node's keywords as a bit mask (`expanded`: with their synonyms): words are
        shared when masks ``&`` to non-zero. Its subtree is indexed the first time it is read."""
        if id(tree) not in self._masks:
            self._index(tree)
        return (self._expanded if expanded and self.synonyms is not None else self._masks)[id(tree)]

    def _index(self, tree: Tree) -> None:
        """Make the masks of `tree`'s nodes, children before parents: a node whose keywords are
        its children's ORs their masks (an int of a bit per word of the group, not a set of
        words per node). Subtrees indexed before are not walked again."""
        masks, expanded, synonyms = self._masks, self._expanded, self.synonyms is not None
        order, stack = [], [tree]  # a node before the nodes below it
        while stack:
            node = stack.pop()
            if id(node) not in masks:
                order.append(node)
                stack.extend(node.children)
        for node in reversed(order):
            mask = wide = 0
            if node.own_keywords is None:
                for child in node.children:
                    mask |= masks[id(child)]
                    if synonyms:
                        wide |= expanded[id(child)]
            else:
                for word in node.own_keywords:
                    mask |= 1 << self._bit(word)
                    if synonyms:
                        wide |= self._synonym_mask(word)
            masks[id(node)] = mask
            if synonyms:
                expanded[id(node)] = wide
        self._indexed.append(tree)

    def _bit(self, word: str) -> int:
        return self._bits.setdefault(word, len(self._bits))

    def _synonym_mask(self, word: str) -> int:
        """The bits of `word` and of its synonyms (lower-cased)."""
        syn = self._syn_cache.get(word)
        if syn is None:
            assert self.synonyms is not None
            syn = frozenset(s.lower() for s in self.synonyms(word))
            self._syn_cache[word] = syn
        mask = 1 << self._bit(word)
        for s in syn:
            mask |= 1 << self._bit(s)
        return mask


def _optional(node: ForestNode) -> ForestNode:
    """Let a node be skipped: an empty word (epsilon) for a leaf, an empty expansion otherwise."""
    if node.leaf:
        node.words.setdefault(None, 0)
    elif [] not in node.alternatives:
        node.alternatives.append([])
    return node


def wordnet_synonym_fn() -> SynonymFn:
    """WordNet synonyms of a word (paralign.resources.wordnet_synonyms)."""
    from ..resources import wordnet_synonyms

    return wordnet_synonyms
