"""The sentence-to-lattice alignment without its full table (:func:`edit_distance._align_blocks`):
the same distance and the same ops as the full-table backtrace it replaced, kept here as the
reference, on random lattices and sentences long enough to take the numpy path, and the same
MSA lattices, byte for byte."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.lattice import Lattice, LatticeBuilder, edit_distance, msa_lattice
from paralign.lattice.edit_distance import PYTHON_DP_MAX_TOKENS, EditOp
from paralign.lattice.word_lattice import Word

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS = ["a", "b", "c", "d"]


# --- the reference: the full int64 table and its backtrace, as edit_distance had them --------
def reference_table(lattice: Lattice, tokens: Sequence[str], sub_cost: int) -> np.ndarray:
    """The whole DP table, pushed state by state in topological order, edge by edge."""
    n = len(tokens)
    table = np.full((lattice.n_states, n + 1), np.iinfo(np.int32).max // 4, dtype=np.int64)
    ramp = np.arange(n + 1, dtype=np.int64)
    table[0, 0] = 0
    for s in range(lattice.n_states):
        row = np.minimum.accumulate(table[s] - ramp) + ramp
        table[s] = row
        for e in lattice.out_edges(s):
            _, w, d = lattice.edges[e]
            target = table[d]
            if w is None:
                np.minimum(target, row, out=target)
                continue
            cost = np.array([0 if t == w else sub_cost for t in tokens], dtype=np.int64)
            np.minimum(target, row + 1, out=target)
            if n:
                np.minimum(target[1:], row[:-1] + cost, out=target[1:])
    return table


def reference_align(lattice: Lattice, tokens: Sequence[str], *, sub_cost: int = 1) -> tuple[int, list[EditOp]]:
    """The backtrace of the full table, first in-edge first: match/substitution/epsilon, then
    deletion, then insertion."""
    table = reference_table(lattice, tokens, sub_cost)
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
            assert i > 0 and table[t, i - 1] + 1 == here
            step = (EditOp(None, i - 1), t, i - 1)
        ops.append(step[0])
        t, i = step[1], step[2]
    ops.reverse()
    return int(table[lattice.end, len(tokens)]), ops


# --- random lattices ---------------------------------------------------------------------------
@st.composite
def lattices(draw) -> Lattice:
    """A random acyclic lattice: a few word paths between random earlier and later states of a
    backbone, some with epsilons, squeezed or not."""
    builder = LatticeBuilder()
    backbone = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=12))
    states = [builder.start]
    for word in backbone:
        nxt = builder.new_state()
        builder.add_edge(states[-1], word, nxt)
        states.append(nxt)
    builder.add_edge(states[-1], None if backbone else "a", builder.end)
    states.append(builder.end)
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, len(states) - 2))
        j = draw(st.integers(i + 1, len(states) - 1))
        words: list[Word] = draw(st.lists(st.sampled_from([*WORDS, None]), min_size=1, max_size=4))
        cur = states[i]
        for k, w in enumerate(words):
            nxt = states[j] if k == len(words) - 1 else builder.new_state()
            builder.add_edge(cur, w, nxt)
            cur = nxt
    if draw(st.booleans()):
        builder.squeeze()
    return builder.freeze()


@SLOW
@given(lattices(), st.lists(st.sampled_from([*WORDS, "z"]), max_size=10), st.integers(1, 2), st.integers(1, 5))
def test_blocks_align_as_the_full_table(lattice, tokens, sub_cost, block):
    """Any block size gives the full table's distance and ops, short sentences included."""
    assert edit_distance._align_blocks(lattice, tokens, sub_cost, block) == reference_align(
        lattice, tokens, sub_cost=sub_cost)


@SLOW
@given(lattices(), st.integers(0, 2**32 - 1), st.integers(1, 2))
def test_long_sentences_align_as_the_full_table(lattice, seed, sub_cost):
    """Past PYTHON_DP_MAX_TOKENS, align (the block path) and distance are the reference's."""
    rng = random.Random(seed)
    tokens = [rng.choice([*WORDS, "z"]) for _ in range(PYTHON_DP_MAX_TOKENS + 1 + rng.randrange(40))]
    expected = reference_align(lattice, tokens, sub_cost=sub_cost)
    assert lattice.align(tokens, sub_cost=sub_cost) == expected
    assert lattice.distance(tokens, sub_cost=sub_cost) == expected[0]


@st.composite
def long_groups(draw) -> list[list[str]]:
    """Two to four sentences of about 70-150 words, noisy copies of one, as translations are."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    base = [rng.choice(WORDS + ["e", "f", "g"]) for _ in range(rng.randrange(70, 150))]
    group = [base]
    for _ in range(draw(st.integers(1, 3))):
        copy = [w for w in base if rng.random() > 0.1]
        for _ in range(rng.randrange(10)):
            copy.insert(rng.randrange(len(copy) + 1), rng.choice(WORDS))
        group.append(copy)
    return group


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_groups())
def test_msa_lattices_are_byte_identical(group):
    """The MSA baseline builds, through the block alignment, the lattice the full table built."""
    new = json.dumps(msa_lattice(group).to_dict())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Lattice, "align", reference_align)
        old = json.dumps(msa_lattice(group).to_dict())
    assert new == old


def test_long_alignment_memory_is_not_the_table():
    """Aligning 3,000 words to a 3,001-state lattice kept the int64 table and a cost array per
    word: 80 MB under tracemalloc. The blocks keep a few rows and one block's: 3 MB."""
    import tracemalloc

    rng = random.Random(1)
    words = [f"w{rng.randrange(500)}" for _ in range(3000)]
    lattice = msa_lattice([words])
    other = words[:1500] + [f"x{k}" for k in range(10)] + words[1520:]
    tracemalloc.start()
    cost, _ = lattice.align(other, sub_cost=2)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert cost == 30
    assert peak < 8 * 2**20, f"peak {peak / 2**20:.1f} MB"
