"""A lattice's new paths: those that spell none of its group's own sentences, the sentences the
lattice makes up (Pang et al. 2003: a lattice's paths beyond its inputs are its paraphrases).

Every sentence of a group is a path of its lattice, so the lists of `lattice paths` (k best,
sampled, enumerated) hold the group's own sentences too; ``--no-inputs`` lists these instead,
through one :class:`NewPaths` of the lattice and its inputs: their count (exact, since two paths
may spell one string through an epsilon), the k most probable, a uniform sample and the
enumeration (which the counts keep on new paths: see :meth:`NewPaths.paths`). The module's functions (:func:`new_path_count`, :func:`new_kbest`,
:func:`new_sample`, :func:`new_paths`) each make one for a single answer.

How: the lattice is read together with a trie of the inputs (a path's state in the trie is
the input prefix it has spelled so far, or none once it spells no input's prefix), and the new
paths from each such pair of states to the end are counted once, exactly. The count is that
of the start; a sample walks from the start choosing each edge in proportion to the new paths
through it, as :meth:`Lattice.sample` does over every path, so every draw is a new path and a
draw costs one walk, however few of the lattice's paths are new. Before, new paths were drawn
by rejection from every path, doubling the draws until enough were new: a lattice whose paths
nearly all spell an input (2^30 spelling one sentence through epsilons, one path new) drew for
hours for a sample of 3.

`inputs` are the group's sentences as the lattice spells them: token tuples, lower-cased when the
lattice is (:func:`.build.sentence_key`).

Not for: the lists over every path (:class:`.word_lattice.Lattice`).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

from ..errors import ConfigurationError
from .word_lattice import Lattice

#: The trie state of a path that spells no input's prefix: each of its completions is new.
_OFF = -1


@dataclass(frozen=True)
class NewPaths:
    """The paths of `lattice` that spell none of `inputs`, counted once when made: their number
    (:attr:`count`), the k best (:meth:`kbest`), a uniform sample (:meth:`sample`) and the
    enumeration (:meth:`paths`)."""

    lattice: Lattice
    inputs: Collection[tuple[str, ...]]  # kept as a frozenset of tuples
    _children: tuple[dict[str, int], ...] = field(init=False, repr=False, compare=False)
    _spelt: frozenset[int] = field(init=False, repr=False, compare=False)
    _back: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _new: tuple[dict[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", frozenset(tuple(words) for words in self.inputs))
        children: list[dict[str, int]] = [{}]  # trie node -> {word: child}; 0 is the root (nothing spelled)
        spelt = set()  # the nodes where an input ends
        for words in self.inputs:
            node = 0
            for w in words:
                node = children[node].setdefault(w, len(children))
                if node == len(children):
                    children.append({})
            spelt.add(node)
        object.__setattr__(self, "_children", tuple(children))
        object.__setattr__(self, "_spelt", frozenset(spelt))
        object.__setattr__(self, "_back", tuple(self.lattice.backward_counts()))
        object.__setattr__(self, "_new", tuple(self._new_counts()))

    def _step(self, node: int, word: str | None) -> int:
        """The trie node after reading `word` (None: an epsilon, nothing read)."""
        if word is None or node == _OFF:
            return node
        return self._children[node].get(word, _OFF)

    def _new_counts(self) -> list[dict[int, int]]:
        """For each state, {trie node of a path reaching it: the new paths from there to the end},
        for the nodes reachable there (a forward pass, then a backward one over the edges)."""
        edges, end = self.lattice.edges, self.lattice.end
        reach: list[set[int]] = [set() for _ in range(self.lattice.n_states)]
        reach[0].add(0)
        for s, w, d in edges:  # each edge comes after every edge into its source
            reach[d].update(u for u in (self._step(t, w) for t in reach[s]) if u != _OFF)
        new: list[dict[int, int]] = [dict.fromkeys(nodes, 0) for nodes in reach]
        new[end] = {t: int(t not in self._spelt) for t in reach[end]}
        for s, w, d in reversed(edges):  # every edge out of d before the edges into it
            for t in new[s]:
                new[s][t] += self._completions(d, self._step(t, w), new)
        return new

    def _completions(self, state: int, node: int, new: Sequence[dict[int, int]] | None = None) -> int:
        """The new paths from `state` to the end for a path at trie `node` there."""
        return self._back[state] if node == _OFF else (self._new if new is None else new)[state][node]

    @property
    def count(self) -> int:
        """How many paths spell none of the inputs (exact, however large)."""
        return self._completions(0, 0)

    def kbest(self, k: int) -> list[tuple[float, tuple[str, ...]]]:
        """The k most probable new paths, as :meth:`Lattice.kbest` gives paths (log probability,
        words), best first: the k + m best, m the paths spelling an input, hold them."""
        if k == 0:
            return []
        total = self.lattice.path_count()
        best = self.lattice.kbest(min(k + total - self.count, total))
        return [(lp, words) for lp, words in best if words not in self.inputs][:k]

    def sample(self, n: int, seed: int | None = 0) -> list[tuple[str, ...]]:
        """`n` paths drawn uniformly from the new ones, with replacement (none when no path is
        new), seeded: each draw walks from the start, choosing an edge in proportion to the new
        paths through it, so the draws of a larger sample begin with a smaller one's."""
        if n < 0:
            raise ConfigurationError(f"sample size must be >= 0, got {n}")
        self.lattice.check_list_size(n)
        if n == 0 or self.count == 0:
            return []
        rng = random.Random(seed)
        lattice, out = self.lattice, []
        for _ in range(n):
            s, node, words = 0, 0, []
            while s != lattice.end:
                r = rng.randrange(self._completions(s, node))
                for e in lattice.out_edges(s):
                    _, w, d = lattice.edges[e]
                    r -= self._completions(d, self._step(node, w))
                    if r < 0:
                        break
                s, node = d, self._step(node, w)
                if w is not None:
                    words.append(w)
            out.append(tuple(words))
        return out

    def paths(self) -> Iterator[tuple[str, ...]]:
        """The new paths, depth first, in the order of :meth:`Lattice.paths` (lazy): an edge is
        followed only when a new path goes through it (the counts), so every step leads to one
        and the first comes after one walk, however many paths spell an input. Filtering every
        path instead walked each path spelling an input: 10 s for the one new path of a lattice
        of 2^22 paths spelling its input (2^40: days)."""
        lattice, end = self.lattice, self.lattice.end
        stack: list[tuple[int, int, tuple[str, ...]]] = [(0, 0, ())] if self.count else []
        while stack:
            s, node, words = stack.pop()
            if s == end:
                yield words
                continue
            for e in reversed(lattice.out_edges(s)):
                _, w, d = lattice.edges[e]
                after = self._step(node, w)
                if self._completions(d, after):  # a new path goes on through this edge
                    stack.append((d, after, words if w is None else (*words, w)))


def spelling_count(lattice: Lattice, words: Sequence[str]) -> int:
    """How many of the lattice's paths spell `words` (exact: 0 when none does; more than 1 when
    paths differ only where an epsilon edge is)."""
    return input_path_count(lattice, [tuple(words)])


def input_path_count(lattice: Lattice, inputs: Collection[tuple[str, ...]]) -> int:
    """How many paths spell one of `inputs` (each distinct input counted once)."""
    return lattice.path_count() - NewPaths(lattice, inputs).count


def new_path_count(lattice: Lattice, inputs: Collection[tuple[str, ...]]) -> int:
    """How many paths spell none of `inputs` (:attr:`NewPaths.count`)."""
    return NewPaths(lattice, inputs).count


def new_kbest(lattice: Lattice, k: int, inputs: Collection[tuple[str, ...]]) -> list[tuple[float, tuple[str, ...]]]:
    """The k most probable paths that spell none of `inputs` (:meth:`NewPaths.kbest`)."""
    return NewPaths(lattice, inputs).kbest(k)


def new_sample(lattice: Lattice, n: int, seed: int | None, inputs: Collection[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """`n` paths drawn uniformly from those that spell none of `inputs` (:meth:`NewPaths.sample`)."""
    return NewPaths(lattice, inputs).sample(n, seed)


def new_paths(lattice: Lattice, inputs: Collection[tuple[str, ...]]) -> Iterator[tuple[str, ...]]:
    """The paths that spell none of `inputs`, depth first (:meth:`NewPaths.paths`). The counts
    a :class:`NewPaths` makes are what keep the walk on new paths: a millisecond on a Bible
    verse's lattice of 20,000 paths, against seconds to hours for filtering every path."""
    return NewPaths(lattice, inputs).paths()


__all__ = ["NewPaths", "input_path_count", "new_kbest", "new_path_count", "new_paths", "new_sample", "spelling_count"]
