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


class Reachability:
    """Which state reaches which, kept up to date while :meth:`LatticeBuilder.squeeze` merges.

    ``desc[s]``: bitset over state numbers of the states reachable from live state ``s`` (itself
    included); ``members[s]``: the states merged into ``s`` (itself included). The bit of a
    merged-away state stands for the state it went into, so ``a`` reaches ``b`` when ``desc[a]``
    meets ``members[b]``: merging `gone` into `keep` needs no pass over the lattice to rename
    `gone`'s bit, and the ancestors of `gone` reach `keep` with no update.

    Why: a merge used to OR the union of both descendant sets into every state whose set held
    either, a pass over the whole lattice each merge, and squeezing two long lines that share
    most of their words (about one merge a word) grew with the cube of their length (8.6 s CPU
    at 4,000 words, ``benchmarks/lattice_squeeze.py``). Now a merge updates only the states
    that gain a descendant: the ancestors of `keep` that do not reach `gone`, and only when
    `gone` reaches a state `keep` does not (and the mirror case); merging two lines state by
    state, from either end, that is `keep` alone.
    """

    def __init__(self, builder: LatticeBuilder) -> None:
        """The reachability of the builder's lattice as it stands (LatticeError on a cycle)."""
        self.out, self.inc = builder.out, builder.inc
        self.desc: dict[int, int] = {}
        for s in reversed(builder._topological()):
            mask = 1 << s
            for dsts in self.out[s].values():
                for d in dsts:
                    mask |= self.desc[d]
            self.desc[s] = mask
        self.members = {s: 1 << s for s in self.desc}

    def reaches(self, a: int, b: int) -> bool:
        """Is there a path from live state a to live state b (a != b)?"""
        return bool(self.desc[a] & self.members[b])

    def merge(self, keep: int, gone: int) -> None:
        """Record the merge of `gone` into `keep` (neither reaching the other; called before
        the edges move): a state that reaches either now reaches the descendants of both."""
        d_keep, d_gone = self.desc[keep], self.desc[gone]
        if self._reaches_more(gone, keep):
            self._spread(keep, gone, d_gone)
        if self._reaches_more(keep, gone):
            self._spread(gone, keep, d_keep)
        self.desc[keep] = d_keep | d_gone
        self.members[keep] |= self.members.pop(gone)
        del self.desc[gone]

    def _reaches_more(self, a: int, b: int) -> bool:
        """Does a reach a state that b does not? (looking no further than a's successors
        unless one is outside b's descendants, where the answer is yes)"""
        return any(not self.desc[b] & self.members[d] for dsts in self.out[a].values() for d in dsts)

    def _spread(self, start: int, avoid: int, gained: int) -> None:
        """OR `gained` into the descendant sets of `start` and of its ancestors that do not
        reach `avoid` (an ancestor that does reaches them all already, and so do its own)."""
        stack, seen = [start], {start}
        while stack:
            s = stack.pop()
            self.desc[s] |= gained
            for srcs in self.inc[s].values():
                for p in srcs:
                    if p not in seen and not self.reaches(p, avoid):
                        seen.add(p)
                        stack.append(p)


class LatticeBuilder:
    """A mutable acyclic lattice: add states and edges, squeeze, then :meth:`freeze`."""

    #: how squeezing keeps track of reachability (the tests swap in the former algorithm)
    reachability: type[Reachability] = Reachability

    def __init__(self) -> None:
        self.out: dict[int, dict[Word, set[int]]] = {}
        self.inc: dict[int, dict[Word, set[int]]] = {}
        self._next = 0
        self._reach: Reachability | None = None  # kept only while squeezing
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
        b._reach = None
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
        if self._reach is not None:
            return self._reach.reaches(a, b)
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
        if self._reach is not None:
            self._reach.merge(keep, gone)
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
        self._reach = self.reachability(self)
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
        self._reach = None
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

