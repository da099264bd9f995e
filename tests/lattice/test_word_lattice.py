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
