"""Word edit distance from a sentence to a frozen lattice, and one optimal alignment.

The distance is the fewest insertions, deletions and substitutions (of cost `sub_cost`) that turn
a token list into the words of some start-to-end path, by dynamic programming over the states in
topological order: O(len(tokens) x edges), whatever the number of paths. :func:`align` backtraces
the table into :class:`EditOp` steps. Short sentences use a pure-Python DP (numpy's per-call
overhead dominates on short rows), long ones a numpy row-vectorised DP; the table is the same
either way. :meth:`.word_lattice.Lattice.distance`, :meth:`~.word_lattice.Lattice.align` and
:meth:`~.word_lattice.Lattice.accepts` are these functions.

Not for: the distance between two sentences (:func:`.msa.word_edit_distance`) or the lattice's
other queries (:mod:`.word_lattice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    return _distance_frontier(lattice, tokens, sub_cost)


def align(lattice: Lattice, tokens: Sequence[str], *, sub_cost: int = 1) -> tuple[int, list[EditOp]]:
    """The edit distance and one optimal alignment (ops from start to end)."""
    check_texts(tokens, "tokens")
    table = _table(lattice, tokens, sub_cost)
    t, i = lattice.end, len(tokens)
    ops: list[EditOp] = []
    while t != 0 or i != 0:
        here = table[t, i]
        step = None
        for e in lattice.in_edges(t):
            s, w, _ = lattice.edges[e]
            if w is None:
                if table[s, i] == here:
                    step = (EditOp(e, None), s, i)
                    break
                continue
            if i > 0 and table[s, i - 1] + (0 if tokens[i - 1] == w else sub_cost) == here:
                step = (EditOp(e, i - 1), s, i - 1)
                break
        if step is None:
            for e in lattice.in_edges(t):
                s, w, _ = lattice.edges[e]
                if w is not None and table[s, i] + 1 == here:
                    step = (EditOp(e, None), s, i)
                    break
        if step is None:
            if i > 0 and table[t, i - 1] + 1 == here:
                step = (EditOp(None, i - 1), t, i - 1)
            else:  # pragma: no cover - the table is consistent by construction
                raise LatticeError("edit-distance backtrace failed")
        ops.append(step[0])
        t, i = step[1], step[2]
    ops.reverse()
    return int(table[lattice.end, len(tokens)]), ops


def _table(lattice: Lattice, tokens: Sequence[str], sub_cost: int) -> np.ndarray:
    if len(tokens) <= PYTHON_DP_MAX_TOKENS:
        return np.array(_table_python(lattice, tokens, sub_cost), dtype=np.int64)
    return _table_edges(lattice, tokens, sub_cost)


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


def _table_edges(lattice: Lattice, tokens: Sequence[str], sub_cost: int) -> np.ndarray:
    """The DP state by state in topological order, edge by edge."""
    n = len(tokens)
    table = np.full((lattice.n_states, n + 1), np.iinfo(np.int32).max // 4, dtype=np.int64)
    ramp = np.arange(n + 1, dtype=np.int64)
    table[0, 0] = 0
    vocab: dict[str, int] = {}
    tok_ids = np.array([vocab.setdefault(t, len(vocab)) for t in tokens], dtype=np.int64)
    mismatch: dict[Word, np.ndarray] = {}
    for s in range(lattice.n_states):
        row = np.minimum.accumulate(table[s] - ramp) + ramp  # insert sentence tokens at s
        table[s] = row
        for e in lattice.out_edges(s):
            _, w, d = lattice.edges[e]
            target = table[d]
            if w is None:
                np.minimum(target, row, out=target)
                continue
            cost = mismatch.get(w)
            if cost is None:
                cost = np.where(tok_ids == vocab.get(w, -1), 0, sub_cost).astype(np.int64)
                mismatch[w] = cost
            np.minimum(target, row + 1, out=target)
            if n:
                np.minimum(target[1:], row[:-1] + cost, out=target[1:])
    return table


def _distance_frontier(lattice: Lattice, tokens: Sequence[str], sub_cost: int) -> int:
    """The numpy DP keeping only the rows of states not yet processed (memory grows with the
    lattice's width, not its size)."""
    n = len(tokens)
    big = np.iinfo(np.int32).max // 4
    ramp = np.arange(n + 1, dtype=np.int64)
    vocab: dict[str, int] = {}
    tok_ids = np.array([vocab.setdefault(t, len(vocab)) for t in tokens], dtype=np.int64)
    mismatch: dict[Word, np.ndarray] = {}
    first = np.full(n + 1, big, dtype=np.int64)
    first[0] = 0
    rows: dict[int, np.ndarray] = {0: first}
    for s in range(lattice.n_states):
        row = rows.pop(s)
        row = np.minimum.accumulate(row - ramp) + ramp
        if s == lattice.end:
            return int(row[n])
        for e in lattice.out_edges(s):
            _, w, d = lattice.edges[e]
            if w is None:
                cand = row
            else:
                cost = mismatch.get(w)
                if cost is None:
                    cost = mismatch[w] = np.where(tok_ids == vocab.get(w, -1), 0, sub_cost)
                cand = row + 1
                cand[1:] = np.minimum(cand[1:], row[:-1] + cost)
            target = rows.get(d)
            rows[d] = cand.copy() if target is None else np.minimum(target, cand)
    raise LatticeError("the end state was not reached")  # pragma: no cover
