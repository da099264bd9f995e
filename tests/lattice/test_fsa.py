"""Squeezing (:meth:`LatticeBuilder.squeeze`): the reachability kept while merging gives the
lattices the former algorithm gave, byte for byte, and stays fast on long lines.

The former algorithm (an OR of both descendant sets into every state holding either state,
each merge) is kept here as the reference, :class:`FormerReachability`.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.lattice import LatticeBuilder, Merger, parse_tree
from paralign.lattice.build import forest_to_builder
from paralign.lattice.fsa import Reachability
from paralign.lattice.groups import read_groups
from paralign.sentence import Sentence

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class FormerReachability(Reachability):
    """The reachability squeezing kept before: plain descendant bitsets, and on each merge an
    OR of both states' sets into every state whose set holds either (a pass over the lattice)."""

    def reaches(self, a: int, b: int) -> bool:
        return bool(self.desc[a] >> b & 1)

    def merge(self, keep: int, gone: int) -> None:
        both = self.desc[keep] | self.desc[gone]
        bits = (1 << keep) | (1 << gone)
        for x, mask in self.desc.items():
            if mask & bits:
                self.desc[x] = mask | both
        del self.desc[gone]


def squeezed_both_ways(builder: LatticeBuilder, twin: LatticeBuilder) -> tuple[str, str]:
    """Squeeze `builder` as the library does and `twin` (the same lattice) with the former
    algorithm; their JSON records, after checking both made the same number of merges."""
    twin.reachability = FormerReachability  # type: ignore[misc]
    assert builder.squeeze() == twin.squeeze()
    return (json.dumps(builder.freeze().to_dict(), sort_keys=True),
            json.dumps(twin.freeze().to_dict(), sort_keys=True))


# --- random lattices: slots of alternatives, with skips -----------------------------------------
WORDS = st.sampled_from(["a", "b", "c", "d"])
PHRASES = st.lists(WORDS, max_size=3)


@st.composite
def sausages(draw) -> list[tuple[int, int, list[str]]]:
    """Paths (from slot, to slot, words) over slots 0..n: every slot to the next has at least
    one path (so every state is on a start-to-end path), plus random skips forward."""
    n = draw(st.integers(1, 6))
    paths = []
    for k in range(n):
        for words in draw(st.lists(PHRASES, min_size=1, max_size=3)):
            paths.append((k, k + 1, words))
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, n - 1))
        j = draw(st.integers(i + 1, n))
        paths.append((i, j, draw(PHRASES)))
    return paths


def sausage_builder(paths: list[tuple[int, int, list[str]]]) -> LatticeBuilder:
    b = LatticeBuilder()
    n = max(j for _, j, _ in paths)
    slots = [b.start] + [b.new_state() for _ in range(n - 1)] + [b.end]
    for i, j, words in paths:
        b.add_path(slots[i], words, slots[j])
    return b


@SETTINGS
@given(sausages())
def test_random_lattices_squeeze_as_with_the_former_reachability(paths):
    new, former = squeezed_both_ways(sausage_builder(paths), sausage_builder(paths))
    assert new == former


@SETTINGS
@given(sausages(), st.randoms(use_true_random=False))
def test_reachability_after_any_merges_is_the_graphs(paths, rng):
    """Merge random pairs of states that do not reach each other, as squeezing may, and after
    each merge compare every answer of the kept reachability with a search of the graph."""
    b = sausage_builder(paths)
    reach = Reachability(b)
    for _ in range(6):
        inner = sorted(set(b.out) - {b.start, b.end})
        pairs = [(u, v) for u in inner for v in inner if u < v and not b.reaches(u, v) and not b.reaches(v, u)]
        if not pairs:
            break
        keep, gone = rng.choice(pairs)
        b._reach = reach
        b.merge_states(keep, gone)
        b._reach = None
        for u in b.out:
            for v in b.out:
                if u != v:
                    assert reach.reaches(u, v) == b.reaches(u, v), (u, v)


# --- random groups of parsed sentences ----------------------------------------------------------
VOCAB = ["the", "a", "people", "died", "killed", "battle", "in", "."]
POS = ["DET", "NOUN", "VERB", "ADP", "PUNCT"]


@st.composite
def sentences(draw) -> Sentence:
    """Random annotated sentences with arbitrary heads (parse_tree makes them projective)."""
    n = draw(st.integers(1, 8))
    tokens = draw(st.lists(st.sampled_from(VOCAB), min_size=n, max_size=n))
    pos = draw(st.lists(st.sampled_from(POS), min_size=n, max_size=n))
    heads = draw(st.lists(st.integers(-1, n - 1), min_size=n, max_size=n))
    return Sentence(tuple(tokens), tags=tuple(pos), pos=tuple(pos), heads=tuple(heads), deps=("dep",) * n)


def forest_builders(group: list[Sentence], max_gaps: int = 0) -> tuple[LatticeBuilder, LatticeBuilder]:
    forest = Merger(max_gaps=max_gaps).merge_all([parse_tree(s) for s in group])
    assert forest is not None
    return forest_to_builder(forest), forest_to_builder(forest)


@SETTINGS
@given(st.lists(sentences(), min_size=2, max_size=5), st.integers(0, 2))
def test_random_groups_squeeze_as_with_the_former_reachability(group, max_gaps):
    new, former = squeezed_both_ways(*forest_builders(group, max_gaps))
    assert new == former


# --- the shipped example and real groups --------------------------------------------------------
def test_the_example_group_squeezes_as_with_the_former_reachability(nlp_annotator):
    lines = (ROOT / "examples/lattice/group.txt").read_text(encoding="utf-8").splitlines()
    group = list(nlp_annotator.pipe([line for line in lines if line.strip()]))
    new, former = squeezed_both_ways(*forest_builders(group))
    assert new == former


def test_bible_groups_squeeze_as_with_the_former_reachability(nlp_annotator, data):
    path = data / "multitranslation/bible-ot/bible_7versions_ot.tsv"
    if not path.is_file():
        pytest.skip(f"the Bible corpus is not in {data}")
    for _gid, group in itertools.islice(read_groups(path), 25):
        new, former = squeezed_both_ways(*forest_builders(list(nlp_annotator.pipe(group))))
        assert new == former


# --- speed ---------------------------------------------------------------------------------------
def test_two_6000_word_lines_squeeze_in_a_tenth_of_a_second_not_twenty() -> None:
    """Two lines of 6,000 words that differ in one word: about 6,000 merges, from both ends.
    The former reachability updated the whole lattice each merge (cubic: 21 s CPU here, 1.9 s
    at 3,000 words); now each merge touches the merged state alone (0.08 s)."""
    words = [f"w{k}" for k in range(6000)]
    other = list(words)
    other[3000] = "different"
    b = LatticeBuilder()
    b.add_path(b.start, words, b.end)
    b.add_path(b.start, other, b.end)
    t = time.process_time()
    merges = b.squeeze()
    cpu = time.process_time() - t
    assert merges == 5999
    lattice = b.freeze()  # one chain, with the two words as two edges between the same states
    assert (lattice.n_states, lattice.n_edges) == (6001, 6001)
    assert cpu < 2.0, f"squeezing took {cpu:.1f} s CPU"
