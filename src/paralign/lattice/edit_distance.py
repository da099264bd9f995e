"""Word edit distance from a sentence to a frozen lattice, and one optimal alignment.

The distance is the fewest insertions, deletions and substitutions (of cost `sub_cost`) that turn
a token list into the words of some start-to-end path, by dynamic programming over the states in
topological order: O(len(tokens) x edges), whatever the number of paths. :func:`align` backtraces
the table into :class:`EditOp` steps. Short sentences use a pure-Python DP (numpy's per-call
overhead dominates on short rows), long ones a numpy row-vectorised DP that keeps only the rows
it still needs (:class:`_Rows`), and aligns by filling blocks of states again from checkpoints
(:func:`_align_blocks`) rather than keeping the whole table (940 MB for two sentences of 10,000
words); the rows, and so the distance and the alignment, are the same either way. :meth:`.word_lattice.Lattice.distance`, :meth:`~.word_lattice.Lattice.align` and
:meth:`~.word_lattice.Lattice.accepts` are these functions.

Not for: the distance between two sentences (:func:`.msa.word_edit_distance`) or the lattice's
other queries (:mod:`.word_lattice`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from ..errors import LatticeError, check_texts

if TYPE_CHECKING:
    from .word_lattice import Lattice, Word

#: sentences up to this many tokens use the pure-Python DP (numpy's per-call overhead
#: dominates on short rows); longer ones the numpy row-vectorised DP. Same table either way.
PYTHON_DP_MAX_TOKENS = 64


@dataclass(frozen=True, slots=True)
class EditOp:
    """One step of a sentence-to-lattice alignment: an edge index and/or a token index.

    (edge, token): match or substitution; (edge, None): lattice word deleted (or epsilon);
    (None, token): sentence token inserted.
    """

    edge: int | None
    token: int | None


def distance(lattice: Lattice, tokens: Sequence[str], *, sub_cost: int = 1) -> int:
    """Minimum word edit distance (insertions, deletions, substitutions of cost `sub_cost`)
    between `tokens` and any path, by DP over states in topological order. `tokens` is a
    list of words (InputTypeError for one str, which would be read as its characters)."""
    check_texts(tokens, "tokens")
    if len(tokens) <= PYTHON_DP_MAX_TOKENS:
        return _table_python(lattice, tokens, sub_cost)[lattice.end][len(tokens)]
    return _distance_rows(lattice, tokens, sub_cost)


def align(lattice: Lattice, tokens: Sequence[str], *, sub_cost: int = 1) -> tuple[int, list[EditOp]]:
    """The edit distance and one optimal alignment (ops from start to end). Sentences over
    :data:`PYTHON_DP_MAX_TOKENS` words are aligned by :func:`_align_blocks`, in memory that
    grows with the square root of the lattice's states, not with the whole table: a full int64
    table took 940 MB for two sentences of 10,000 words (docs/results/lattice-msa-memory.md)."""
    check_texts(tokens, "tokens")
    if len(tokens) > PYTHON_DP_MAX_TOKENS:
        return _align_blocks(lattice, tokens, sub_cost)
    table = _table_python(lattice, tokens, sub_cost)
    return table[lattice.end][len(tokens)], _backtrace(lattice, tokens, sub_cost, lambda t: table)


#: the rows a backtrace step at state t reads (its own and its in-edges' sources'), by state
RowsAt = Callable[[int], "Sequence[Sequence[int]] | Mapping[int, np.ndarray]"]


def _backtrace(lattice: Lattice, tokens: Sequence[str], sub_cost: int, rows_at: RowsAt) -> list[EditOp]:
    """One optimal alignment, from the end back: at each cell the first in-edge (in order) whose
    match, substitution or epsilon gives the cell's value, else the first whose word deleted
    does, else the sentence token inserted. `rows_at(t)` holds the rows the step at t reads."""
    t, i = lattice.end, len(tokens)
    ops: list[EditOp] = []
    while t != 0 or i != 0:
        table = rows_at(t)
        here = table[t][i]
        step = None
        for e in lattice.in_edges(t):
            s, w, _ = lattice.edges[e]
            if w is None:
                if table[s][i] == here:
                    step = (EditOp(e, None), s, i)
                    break
                continue
            if i > 0 and table[s][i - 1] + (0 if tokens[i - 1] == w else sub_cost) == here:
                step = (EditOp(e, i - 1), s, i - 1)
                break
        if step is None:
            for e in lattice.in_edges(t):
                s, w, _ = lattice.edges[e]
                if w is not None and table[s][i] + 1 == here:
                    step = (EditOp(e, None), s, i)
                    break
        if step is None:
            if i > 0 and table[t][i - 1] + 1 == here:
                step = (EditOp(None, i - 1), t, i - 1)
            else:  # pragma: no cover - the table is consistent by construction
                raise LatticeError("edit-distance backtrace failed")
        ops.append(step[0])
        t, i = step[1], step[2]
    ops.reverse()
    return ops


def _table_python(lattice: Lattice, tokens: Sequence[str], sub_cost: int) -> list[list[int]]:
    """The DP in plain Python: states in topological order, edge by edge."""
    n = len(tokens)
    big = np.iinfo(np.int32).max // 4
    table: list[list[int]] = [[big] * (n + 1) for _ in range(lattice.n_states)]
    table[0][0] = 0
    positions = range(1, n + 1)
    for s in range(lattice.n_states):
        row = table[s]
        for i in positions:  # insert sentence tokens at s
            v = row[i - 1] + 1
            if v < row[i]:
                row[i] = v
        for e in lattice.out_edges(s):
            _, w, d = lattice.edges[e]
            target = table[d]
            if w is None:
                for i in range(n + 1):
                    if row[i] < target[i]:
                        target[i] = row[i]
                continue
            if row[0] + 1 < target[0]:
                target[0] = row[0] + 1
            for i in positions:
                a = row[i] + 1
                b = row[i - 1] + (0 if tokens[i - 1] == w else sub_cost)
                if b < a:
                    a = b
                if a < target[i]:
                    target[i] = a
    return table


class _Rows:
    """The numpy DP, pulled state by state in topological order: a state's row is the minimum
    over its in-edges of what each brings from its source's row, then the sentence tokens
    inserted at the state. Only the rows of `live` states are kept (states already done whose
    out-edges reach a state not yet done): memory grows with the lattice's width, not its size."""

    def __init__(self, lattice: Lattice, tokens: Sequence[str], sub_cost: int) -> None:
        self.lattice, self.sub_cost, self.n = lattice, sub_cost, len(tokens)
        self.big = np.iinfo(np.int32).max // 4
        self.ramp = np.arange(self.n + 1, dtype=np.int64)
        vocab: dict[str, int] = {}
        self.tok_ids = np.array([vocab.setdefault(t, len(vocab)) for t in tokens], dtype=np.int64)
        self.vocab = vocab
        #: the last state whose row reads each state's row (-1: none, the end)
        self.last_use = [max((lattice.edges[e][2] for e in lattice.out_edges(s)), default=-1)
                         for s in range(lattice.n_states)]

    def cost(self, word: Word) -> np.ndarray:
        """0 where a token is `word`, else the substitution cost. Made again at each use: kept
        one per word, they took vocabulary x tokens x 8 bytes (12 MB for 3,000 tokens of 500
        distinct words, more than the rows)."""
        return np.where(self.tok_ids == self.vocab.get(cast("str", word), -1), 0, self.sub_cost)

    def row(self, t: int, live: dict[int, np.ndarray]) -> np.ndarray:
        """State t's row from the live rows of its in-edges' sources."""
        row = np.full(self.n + 1, self.big, dtype=np.int64)
        if t == 0:
            row[0] = 0
        for e in self.lattice.in_edges(t):
            s, w, _ = self.lattice.edges[e]
            src = live[s]
            if w is None:
                np.minimum(row, src, out=row)
                continue
            np.minimum(row, src + 1, out=row)
            np.minimum(row[1:], src[:-1] + self.cost(w), out=row[1:])
        return np.minimum.accumulate(row - self.ramp) + self.ramp  # insert sentence tokens at t

    def run(self, lo: int, hi: int, live: dict[int, np.ndarray], kept: dict[int, np.ndarray] | None = None,
            ) -> np.ndarray:
        """Fill states lo..hi-1 (`live` updated in place: the live rows after hi-1), each row
        also into `kept` when given; the last row made."""
        row = np.empty(0, dtype=np.int64)
        for t in range(lo, hi):
            row = self.row(t, live)
            if kept is not None:
                kept[t] = row
            for e in self.lattice.in_edges(t):
                s = self.lattice.edges[e][0]
                if self.last_use[s] == t:
                    live.pop(s, None)
            if self.last_use[t] >= 0:
                live[t] = row
        return row


def _distance_rows(lattice: Lattice, tokens: Sequence[str], sub_cost: int) -> int:
    """The numpy DP's distance, keeping the live rows only."""
    return int(_Rows(lattice, tokens, sub_cost).run(0, lattice.n_states, {})[len(tokens)])


def _align_blocks(lattice: Lattice, tokens: Sequence[str], sub_cost: int,
                  block: int | None = None) -> tuple[int, list[EditOp]]:
    """:func:`align` by the numpy DP without its table: a first pass keeps the live rows at
    the start of every `block` states (default the square root of the states); the backtrace,
    reaching a state below the block it has, fills that state's block again from its
    checkpoint, up to the state. A state's in-edges come from its block or from the rows live
    at the block's start, so the step reads the rows it would read in the table. Twice the
    DP's time; memory the checkpoints' rows and one block's."""
    n_states = lattice.n_states
    block = block or max(1, math.isqrt(n_states))
    rows = _Rows(lattice, tokens, sub_cost)
    live: dict[int, np.ndarray] = {}
    checkpoints: list[dict[int, np.ndarray]] = []
    for lo in range(0, n_states, block):
        checkpoints.append(dict(live))  # rows are never written once made: the dicts share them
        last = rows.run(lo, min(lo + block, n_states), live)
    distance = int(last[len(tokens)])
    del live, last
    known: dict[int, np.ndarray] = {}
    start = n_states  # the first state of the block in `known`

    def rows_at(t: int) -> dict[int, np.ndarray]:
        nonlocal start
        if t < start:
            known.clear()
            start = t // block * block
            known.update(checkpoints[t // block])
            rows.run(start, t + 1, dict(known), known)
        return known

    return distance, _backtrace(lattice, tokens, sub_cost, rows_at)
