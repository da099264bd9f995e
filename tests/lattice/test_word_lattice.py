"""lattice.word_lattice: token arguments are lists of words, not one str (API audit, second pass:
distance("the cat sat") measured characters and gave 10, accepts() and find_path() said no, and
with_weights(["the cat sat"]) counted no edge)."""

from __future__ import annotations

import pytest

from paralign.errors import InputTypeError
from paralign.lattice import build_lattice, msa_lattice


@pytest.fixture(scope="module")
def lattice():
    return msa_lattice([["the", "cat", "sat"], ["a", "cat", "sat"]])


@pytest.mark.parametrize("call", [
    lambda lat: lat.distance("the cat sat"), lambda lat: lat.accepts("the cat sat"),
    lambda lat: lat.find_path("the cat sat"), lambda lat: lat.align("the cat sat"),
    lambda lat: lat.with_weights(["the cat sat"]),
])
def test_one_str_of_tokens_is_refused(lattice, call) -> None:
    with pytest.raises(InputTypeError, match=r"tokens must be a list of strings, not one str \('the cat sat'\)"):
        call(lattice)


def test_token_lists_still_work(lattice) -> None:
    assert lattice.distance(["the", "cat", "sat"]) == 0 and lattice.accepts(["a", "cat", "sat"])
    assert lattice.with_weights([["the", "cat", "sat"]]).weights.count(1) == 3


def test_msa_lattice_takes_a_group_of_token_lists() -> None:
    with pytest.raises(InputTypeError, match="msa_lattice takes a group of token lists, not one str"):
        msa_lattice("the cat")
    with pytest.raises(InputTypeError, match="sentence 2 must be a list of strings, not one str"):
        msa_lattice([["the", "cat"], "a cat"])
    assert build_lattice([["a", "b"]]).accepts(["a", "b"])


def test_a_negative_weight_is_not_a_lattice() -> None:
    """`lattice paths --lattice F` with the weight -1 stopped with a traceback
    (ZeroDivisionError in its log probabilities); a weight counts sentences, so it is refused
    when the lattice is read, naming the file and the edge."""
    from paralign.errors import FormatError
    from paralign.lattice import Lattice

    data = {"states": 3, "edges": [[0, "a", 1], [1, "b", 2], [1, "c", 2]], "weights": [1, -1, 1]}
    with pytest.raises(FormatError, match=r"^x\.json: not a lattice: edge 1 has the weight -1: a weight counts "
                                          r"sentences, at least 0$"):
        Lattice.from_dict(data, source="x.json")
    assert [lp for lp, _ in Lattice.from_dict({**data, "weights": [1, 0, 1]}).kbest(2)] == pytest.approx([-0.405465, -1.098612], abs=1e-5)


@pytest.mark.timeout(20)  # 10**20 states made a list per state and never ended
def test_states_that_no_path_can_hold_are_not_a_lattice() -> None:
    """A lattice's states are each on a start-to-end path, and each edge comes after the edges
    into the state it leaves (the path counts read them in order). More states than its edges can reach
    were allocated first (10**20 never ended) or gave 0 paths (log10 of 0: a traceback); edges
    out of order gave wrong counts silently."""
    from paralign.errors import LatticeError
    from paralign.lattice import Lattice

    with pytest.raises(LatticeError, match=r"^100000000000000000000 states, but 1 edges reach at most 2$"):
        Lattice(10**20, ((0, "a", 1),))
    with pytest.raises(LatticeError, match=r"^no path from the start reaches state 2$"):
        Lattice(3, ((0, "a", 1), (0, "b", 1)))
    with pytest.raises(LatticeError, match=r"^no path leads from state 2 to the end \(state 3\)$"):
        Lattice(4, ((0, "a", 1), (0, "b", 2), (1, "c", 3)))
    with pytest.raises(LatticeError, match=r"^edge 1 \(0->1\) comes after edge 0, which leaves state 1: an edge must "
                                           r"come after every edge into the state it leaves$"):
        Lattice(3, ((1, "b", 2), (0, "a", 1)))  # counted 0 paths
    assert Lattice(4, ((0, "a", 1), (1, "b", 3), (0, "c", 2), (2, "d", 3))).path_count() == 2  # in order enough
