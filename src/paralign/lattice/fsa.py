"""Building acyclic word lattices: the mutable :class:`LatticeBuilder` and :func:`chain`.

:class:`LatticeBuilder` is the mutable form used while building (linearising a parse forest,
progressive alignment) and squeezing (merging states reached by same-word edges);
:meth:`LatticeBuilder.freeze` turns it into the frozen :class:`~.word_lattice.Lattice`, with
states numbered in topological order. An edge label ``None`` is an epsilon edge (no word).

Not for: what is asked of a finished lattice (paths, edit distance, paraphrase pairs, export):
that is :mod:`.word_lattice`, whose names this module also re-exports (``paralign.lattice.fsa``
has held them all).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import LatticeError
from .word_lattice import EPSILON, Edge, EditOp, Lattice, Word, paraphrase_table

__all__ = [
    "EPSILON", "Edge", "EditOp", "Lattice", "LatticeBuilder", "LatticeError", "Word", "chain",
    "paraphrase_table",
]


class LatticeBuilder:
    """A mutable acyclic lattice: add states and edges, squeeze, then :meth:`freeze`."""

    def __init__(self) -> None:
        self.out: dict[int, dict[Word, set[int]]] = {}
        self.inc: dict[int, dict[Word, set[int]]] = {}
        self._next = 0
        self._desc: dict[int, int] | None = None  # descendant bitsets, kept only while squeezing
        self.start = self.new_state()
        self.end = self.new_state()

    def new_state(self) -> int:
        """Add a state with no edges and return its number."""
        s = self._next
        self._next += 1
        self.out[s] = {}
        self.inc[s] = {}
        return s

    def add_edge(self, src: int, word: Word, dst: int) -> None:
        """Add the edge src --word--> dst (word None: epsilon); a repeated edge is kept once."""
        self.out[src].setdefault(word, set()).add(dst)
        self.inc[dst].setdefault(word, set()).add(src)

    def add_path(self, src: int, words: Sequence[str], dst: int) -> None:
        """A chain of fresh states from src to dst spelling `words` (epsilon edge when empty)."""
        if not words:
            self.add_edge(src, None, dst)
            return
        cur = src
        for w in words[:-1]:
            nxt = self.new_state()
            self.add_edge(cur, w, nxt)
            cur = nxt
        self.add_edge(cur, words[-1], dst)

    @classmethod
    def from_lattice(cls, lattice: Lattice) -> LatticeBuilder:
        """A builder holding a finished lattice's states and edges (to merge or squeeze it again)."""
        b = cls.__new__(cls)
        b.out, b.inc = {}, {}
        b._next = 0
        b._desc = None
        for _ in range(lattice.n_states):
            b.new_state()
        b.start, b.end = lattice.start, lattice.end
        for src, w, dst in lattice.edges:
            b.add_edge(src, w, dst)
        return b

    @property
    def n_edges(self) -> int:
        """Number of edges built so far."""
        return sum(len(d) for row in self.out.values() for d in row.values())

    def reaches(self, a: int, b: int) -> bool:
        """Is there a path from a to b? (bitset lookup while squeezing, else a DFS)"""
        if a == b:
            return True
        if self._desc is not None:
            return bool(self._desc[a] >> b & 1)
        stack, seen = [a], {a}
        while stack:
            s = stack.pop()
            for dsts in self.out[s].values():
                for d in dsts:
                    if d == b:
                        return True
                    if d not in seen:
                        seen.add(d)
                        stack.append(d)
        return False

    def _descendants(self) -> dict[int, int]:
        """Bitset of the states reachable from each state (itself included)."""
        desc: dict[int, int] = {}
        for s in reversed(self._topological()):
            mask = 1 << s
            for dsts in self.out[s].values():
                for d in dsts:
                    mask |= desc[d]
            desc[s] = mask
        return desc

    def _topological(self) -> list[int]:
        indeg = {s: 0 for s in self.out}
        for row in self.out.values():
            for dsts in row.values():
                for d in dsts:
                    indeg[d] += 1
        order: list[int] = []
        ready = [s for s, k in indeg.items() if k == 0]
        while ready:
            s = ready.pop()
            order.append(s)
            for dsts in self.out[s].values():
                for d in dsts:
                    indeg[d] -= 1
                    if indeg[d] == 0:
                        ready.append(d)
        if len(order) != len(self.out):
            raise LatticeError("the lattice has a cycle")
        return order

    def merge_states(self, keep: int, gone: int) -> None:
        """Merge state `gone` into `keep` (caller checks acyclicity)."""
        if self._desc is not None:  # ancestors of either now reach both's descendants
            both = self._desc[keep] | self._desc[gone]
            bits = (1 << keep) | (1 << gone)
            for x, mask in self._desc.items():
                if mask & bits:
                    self._desc[x] = mask | both
            del self._desc[gone]
        for w, dsts in self.out.pop(gone).items():
            for d in dsts:
                self.inc[d][w].discard(gone)
                self.add_edge(keep, w, d)
        for w, srcs in self.inc.pop(gone).items():
            for s in srcs:
                self.out[s][w].discard(gone)
                self.add_edge(s, w, keep)

    def squeeze(self) -> int:
        """Merge states reached by same-word edges from one state (and the mirror case:
        states leaving by same-word edges into one state), exhaustively, skipping merges that
        would create a cycle or merge the start/end state with another. Returns the merges made.
        """
        merges = 0
        self._desc = self._descendants()
        work = sorted(self.out, reverse=True)
        queued = set(work)
        while work:
            s = work.pop()
            queued.discard(s)
            if s not in self.out:
                continue
            for table in (self.out, self.inc):
                for w in list(table[s]):
                    group = table[s].get(w)
                    if group is None or len(group) < 2:
                        continue
                    for kept in self._merge_group(sorted(group)):
                        merges += 1
                        touched = {kept}
                        for row in (self.out[kept], self.inc[kept]):
                            for states in row.values():
                                touched |= states
                        for t in touched - queued:
                            queued.add(t)
                            work.append(t)
        self._desc = None
        return merges

    def _merge_group(self, states: list[int]) -> list[int]:
        """Merge what can be merged among `states`; returns the absorbing state of each merge."""
        heads: list[int] = []
        kept: list[int] = []
        for v in states:
            if v not in self.out or v in (self.start, self.end):
                continue
            for h in heads:
                if h in self.out and not self.reaches(h, v) and not self.reaches(v, h):
                    self.merge_states(h, v)
                    kept.append(h)
                    break
            else:
                heads.append(v)
        return kept

    def freeze(self) -> Lattice:
        """The frozen lattice, states renumbered topologically; raises LatticeError on a cycle."""
        order = self._topological()
        if order[0] != self.start or order[-1] != self.end:
            # states unreachable from start, or not reaching end, would break the one-start/one-end form
            raise LatticeError("the lattice has states not on a start-to-end path")
        rank = {s: k for k, s in enumerate(order)}
        edges = sorted(
            ((rank[s], w, rank[d]) for s, row in self.out.items() for w, dsts in row.items() for d in dsts),
            key=lambda e: (e[0], e[2], e[1] or ""),
        )
        return Lattice(len(order), tuple(edges))


def chain(tokens: Sequence[str]) -> Lattice:
    """The one-path lattice of a sentence."""
    b = LatticeBuilder()
    b.add_path(b.start, list(tokens), b.end)
    return b.freeze()

