"""lattice.new_paths: a lattice's paths that spell none of its group's sentences
(`lattice paths --no-inputs`)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.lattice import LatticeBuilder
from paralign.lattice.new_paths import (
    new_kbest,
    new_path_count,
    new_paths,
    new_sample,
    spelling_count,
)

WORDS = ["a", "b", "c"]


@st.composite
def lattices(draw):
    """Small acyclic lattices with epsilon edges, so that two paths can spell one string."""
    b = LatticeBuilder()
    states = [b.start] + [b.new_state() for _ in range(draw(st.integers(0, 3)))] + [b.end]
    for k in range(len(states) - 1):  # a chain, so every state is on a path
        b.add_edge(states[k], draw(st.sampled_from(WORDS)), states[k + 1])
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(states) - 2))
        j = draw(st.integers(i + 1, len(states) - 1))
        b.add_edge(states[i], draw(st.sampled_from([*WORDS, None])), states[j])
    return b.freeze()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lattices(), st.data())
def test_new_paths_are_the_paths_less_those_spelling_an_input(lattice, data):
    every = list(lattice.paths())
    spelt = Counter(every)
    inputs = data.draw(st.lists(st.sampled_from(every), max_size=3))
    for words in set(every) | {("a", "b", "c", "a", "b", "c", "a")}:
        assert spelling_count(lattice, words) == spelt[words]
    new = [p for p in every if p not in set(inputs)]
    assert new_path_count(lattice, inputs) == len(new)
    assert list(new_paths(lattice, inputs)) == new
    best = new_kbest(lattice, 3, inputs)  # the 3 best new paths (ties in any order)
    wanted = [lp for lp, words in lattice.kbest(len(every)) if words not in set(inputs)][:3]
    assert [round(lp, 9) for lp, _ in best] == [round(lp, 9) for lp in wanted]
    assert all(words in new for _, words in best)
    sample = new_sample(lattice, 5, 1, inputs)
    assert len(sample) == (5 if new else 0) and set(sample) <= set(new)
    assert new_sample(lattice, 2, 1, inputs) == sample[:2]  # a larger sample begins with the smaller one


def test_a_sample_of_new_paths_is_uniform_over_them_and_seeded():
    """Every path but the inputs is drawn about as often (uniform over the new paths), and a
    seed gives its sample again."""
    b = LatticeBuilder()
    one, two = b.new_state(), b.new_state()
    for src, words, dst in ((b.start, "ax", one), (one, "b", two), (two, "cz", b.end)):
        for word in words:
            b.add_edge(src, word, dst)
    lattice = b.freeze()  # 4 paths, 2 of them new
    inputs = [("a", "b", "c"), ("x", "b", "z")]
    sample = new_sample(lattice, 2000, 5, inputs)
    counts = Counter(sample)
    assert set(counts) == {("a", "b", "z"), ("x", "b", "c")}
    assert all(850 < c < 1150 for c in counts.values())
    assert new_sample(lattice, 2000, 5, inputs) == sample and new_sample(lattice, 10, 5, inputs) == sample[:10]
    assert new_sample(lattice, 3, 0, [*inputs, ("a", "b", "z"), ("x", "b", "c")]) == []  # no new path


def epsilon_lattice(m: int):
    """A lattice of 2^m paths spelling its one input x^m through epsilons (two paths spelling "x"
    between each two states), and one new path "y", the last that depth-first order reaches."""
    b = LatticeBuilder()
    states = [b.start] + [b.new_state() for _ in range(m - 1)] + [b.end]
    for i in range(m):
        mid = b.new_state()
        b.add_edge(states[i], "x", states[i + 1])
        b.add_edge(states[i], "x", mid)
        b.add_edge(mid, None, states[i + 1])
    b.add_edge(b.start, "y", b.end)
    return b.freeze(), [("x",) * m]


@pytest.mark.timeout(30)
def test_a_sample_comes_at_once_when_nearly_every_path_spells_an_input():
    """New paths were drawn by rejection from every path, the draws doubled until enough were
    new, with no bound: 2^40 paths spelling the one input through epsilons and one path new
    drew for hours (memory growing) for a sample of 3. Each draw now walks only the new paths:
    one walk a draw, and the sample is that one path, drawn 3 times."""
    m = 40
    lattice, inputs = epsilon_lattice(m)
    assert lattice.path_count() == 2**m + 1 and spelling_count(lattice, inputs[0]) == 2**m
    assert new_path_count(lattice, inputs) == 1
    assert new_sample(lattice, 3, 0, inputs) == [("y",)] * 3
    assert new_sample(lattice, 3, 0, [*inputs, ("y",)]) == []


@pytest.mark.timeout(30)
def test_the_new_paths_come_at_once_when_nearly_every_path_spells_an_input():
    """new_paths() made the counts of the new paths, then used none of them: it filtered every
    path of the lattice, so the one new path of 2^40 paths spelling the input came after all of
    them (10 s for 2^22; days for 2^40). The walk now follows only edges that new paths go
    through: one walk for that path, and the other paths are never visited."""
    lattice, inputs = epsilon_lattice(40)
    assert list(new_paths(lattice, inputs)) == [("y",)]
    assert list(new_paths(lattice, [*inputs, ("y",)])) == []
