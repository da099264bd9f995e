"""lattice.word_lattice: token arguments are lists of words, not one str (API audit, second pass:
distance("the cat sat") measured characters and gave 10, accepts() and find_path() said no, and
with_weights(["the cat sat"]) counted no edge)."""

from __future__ import annotations

from collections import Counter

import pytest

from paralign.errors import InputTypeError
from paralign.lattice import Lattice, build_lattice, msa_lattice


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


@pytest.mark.timeout(20)  # each of these never ended, growing its memory
def test_a_list_of_paths_no_memory_holds_is_a_memory_error_before_it_is_made(lattice) -> None:
    """sample(10**20) (`lattice paths --sample 100000000000000000000`) appended path after path
    and never ended; kbest(10**20) on a lattice of 2**60 paths kept up to 10**20 candidates a
    state. Both are a MemoryError (the CLI's one "out of memory" line) before any path is made,
    counted low: a list slot and a tuple of the shortest path's words per path."""
    from paralign.lattice import Lattice

    with pytest.raises(MemoryError, match=r"^100000000000000000000 paths of 3 or more words need at least "
                                          r"6\.71e\+12 GiB; this machine has [0-9.e+]+ GiB$"):
        lattice.sample(10**20)
    wide = Lattice(61, tuple((i, w, i + 1) for i in range(60) for w in (f"a{i}", f"b{i}")))
    with pytest.raises(MemoryError, match=f"^{2**60} paths of 60 or more words"):  # its every path
        wide.kbest(10**20)
    with pytest.raises(MemoryError, match=r"^100000000000000000000 paths of 0 or more words"):
        Lattice(1, ()).sample(10**20)  # the empty path is one shared tuple: still a list slot each
    assert len(lattice.kbest(10**20)) == 2 == len(set(lattice.sample(50)))  # at most the lattice's paths


@pytest.mark.timeout(20)
def test_kbest_counts_the_candidates_it_keeps_at_every_state(monkeypatch) -> None:
    """kbest(k) keeps up to k candidates at each state, not only the k paths it returns: on 71
    states of two edges a step (2**70 paths), with 8 GiB, k = 3,000,000 passed a check of the
    returned list alone (1.7 GiB) while its candidates need about 13 GiB, and it ran until the
    system killed it. They are now counted first: min(k, paths to it) at each state."""
    import paralign.lattice.word_lattice as word_lattice
    from paralign.lattice import Lattice

    monkeypatch.setattr(word_lattice, "_memory", lambda: 8 * 2**30)
    wide = Lattice(71, tuple((i, w, i + 1) for i in range(70) for w in (f"a{i}", f"b{i}")))
    wide.check_list_size(3_000_000)  # the returned list alone would fit
    with pytest.raises(MemoryError, match=r"^3000000 paths of 70 or more words and the k-best candidates "
                                          r"need at least 1[0-9.]+ GiB; this machine has 8 GiB$"):
        wide.kbest(3_000_000)
    assert len(wide.kbest(3)) == 3


@pytest.mark.timeout(20)  # 10**20 states made a list per state and never ended
def test_states_that_no_path_can_hold_are_not_a_lattice() -> None:
    """A lattice's states are each on a start-to-end path, and each edge comes after the edges
    into the state it leaves (the path counts read them in order). More states than its edges can reach
    were allocated first (10**20 never ended) or gave 0 paths (log10 of 0: a traceback); edges
    out of order gave wrong counts silently."""
    from paralign.errors import LatticeError
    from paralign.lattice import Lattice

    with pytest.raises(LatticeError, match=r"^100000000000000000000 states, but 1 edge can reach at most 2$"):
        Lattice(10**20, ((0, "a", 1),))
    with pytest.raises(LatticeError, match=r"^no path from the start reaches state 2$"):
        Lattice(3, ((0, "a", 1), (0, "b", 1)))
    with pytest.raises(LatticeError, match=r"^no path leads from state 2 to the end \(state 3\)$"):
        Lattice(4, ((0, "a", 1), (0, "b", 2), (1, "c", 3)))
    with pytest.raises(LatticeError, match=r"^edge 1 \(0->1\) comes after edge 0, which leaves state 1: an edge must "
                                           r"come after every edge into the state it leaves$"):
        Lattice(3, ((1, "b", 2), (0, "a", 1)))  # counted 0 paths
    assert Lattice(4, ((0, "a", 1), (1, "b", 3), (0, "c", 2), (2, "d", 3))).path_count() == 2  # in order enough


@pytest.mark.parametrize(("args", "said"), [
    ((2, ((0, 1, "a"),)), r"edge 0's word must be a string or None \(no word\), got 1"),  # fields out of order
    ((3, ((0, "a", 1), (1, "b"))), r"edge 1 is \(1, 'b'\), expected \(from, word, to\)"),
    ((2, ((0, "a", 1.0),)), r"edge 0's to state must be an integer, got 1.0"),
    ((2, ((True, "a", 1),)), r"edge 0's from state must be an integer, got True"),
    ((2, ("0a1",)), r"edge 0 is '0a1', expected \(from, word, to\)"),
    (("2", ((0, "a", 1),)), r"n_states must be an integer, got '2'"),
    ((2, None), r"edges must be a tuple, got NoneType None"),
    ((2, ((0, "a", 1),), (0.5,)), r"weight 0 must be an integer, got 0.5"),
    ((2, ((0, "a", 1),), (), "yes"), r"lowercase must be True, False or None, got 'yes'"),
])
def test_a_field_of_the_wrong_type_is_named(args, said) -> None:
    """Lattice's fields are checked as its hints say, as the JSON record's are, naming the edge
    (or weight) by its index: Lattice(2, ((0, 1, "a"),)), an edge's fields out of order, was a
    TypeError from comparing 1 with "a" inside, and a float state or weight was taken."""
    from paralign.errors import InputTypeError
    from paralign.lattice import Lattice

    with pytest.raises(InputTypeError, match=f"^{said}$"):
        Lattice(*args)
    assert Lattice(2, [[0, "a", 1]], [3], True).path_count() == 1  # lists hold the same fields


def test_numpy_integers_are_states_and_weights_kept_as_ints() -> None:
    """A lattice made from numpy arrays: 0.2.8's type checks refused numpy integers
    (InputTypeError); any integral value is one (operator.index), kept as a plain int so that
    to_dict gives JSON, which reads back as the same lattice. A bool is still refused."""
    import json

    import numpy as np

    from paralign.errors import InputTypeError
    from paralign.lattice import Lattice

    states = np.array([[0, 1], [0, 1], [1, 2]], dtype=np.int64)
    words = ["the", "a", "cat"]
    lattice = Lattice(np.int64(3), tuple((s, w, d) for (s, d), w in zip(states, words, strict=True)),
                      tuple(np.array([2, 1, 3], dtype=np.int32)))
    assert lattice.path_count() == 2 and lattice.accepts(["a", "cat"])
    assert type(lattice.n_states) is int
    assert all(type(s) is int and type(d) is int for s, _w, d in lattice.edges)
    assert all(type(w) is int for w in lattice.weights)
    text = json.dumps(lattice.to_dict())
    assert Lattice.from_json(text) == lattice == Lattice(3, ((0, "the", 1), (0, "a", 1), (1, "cat", 2)), (2, 1, 3))
    with pytest.raises(InputTypeError, match=r"^edge 0's from state must be an integer, got np.True_$"):
        Lattice(2, ((np.True_, "a", 1),))
    with pytest.raises(InputTypeError, match=r"^n_states must be an integer, got np.float64\(2.0\)$"):
        Lattice(np.float64(2.0), ((0, "a", 1),))


def test_a_word_holding_a_lone_surrogate_is_refused() -> None:
    r"""A word "\ud800" (half a UTF-16 surrogate pair, as bytes.decode(errors="surrogateescape")
    gives) was taken, and to_dot failed while its text was written (UnicodeEncodeError), where
    from_json refuses the JSON escape for it. The constructor names the edge, as it names a word
    of the wrong type; a pair (one character) is a word."""
    import numpy as np

    from paralign.errors import InputTypeError
    from paralign.lattice import Lattice

    word = b"c\xfft".decode("utf-8", errors="surrogateescape")
    said = (r"^edge 1's word must be text, got 'c\\udcfft', which holds half of a UTF-16 surrogate pair "
            r"\(no character\)$")
    for edges in (((0, "a", 1), (1, word, 2)), [[0, "a", 1], [1, word, 2]], ((0, "a", 1), (np.int64(1), word, 2))):
        with pytest.raises(InputTypeError, match=said):
            Lattice(3, edges)
    with pytest.raises(InputTypeError, match=r"^edge 0's word must be text, got '\\ud800'"):
        Lattice(2, ((0, "\ud800", 1), (0, None, 1)))
    lattice = Lattice(3, ((0, None, 1), (1, "c\U0001f600t", 2)))
    assert "c\U0001f600t" in lattice.to_dot().encode("utf-8").decode("utf-8")


def test_sample_is_uniform_over_paths_not_over_edges() -> None:
    """`lattice paths --sample` says "uniformly sampled": each of the 4 paths a quarter of the
    time, where following each state's edges uniformly gives 'b' half the time (as
    uniform=False does on a lattice without weights), within 5 standard deviations."""
    lattice = Lattice(4, ((0, "a", 1), (0, "b", 3), (1, "x", 2), (1, "y", 2), (1, "z", 2), (2, "end", 3)))
    n = 8000
    counts = Counter(lattice.sample(n, seed=11))
    assert set(counts) == set(lattice.paths()) and len(counts) == 4
    assert all(abs(c - n / 4) < 5 * (n * 0.25 * 0.75) ** 0.5 for c in counts.values()), counts
    by_edges = Counter(lattice.sample(n, seed=11, uniform=False))
    assert abs(by_edges[("b",)] - n / 2) < 5 * (n * 0.25) ** 0.5  # what the test above tells apart


def test_a_repeated_edge_is_not_a_lattice(tmp_path, capsys) -> None:
    """A lattice JSON holding one edge twice (edited by hand: `lattice build` keeps a repeated
    edge once) was taken as two edges: 'lattice paths' said 'paths: 2' for the one sentence
    'a', and sampling and k-best weighed it twice. It is now a LatticeError naming both edges
    (a data error, exit 1, naming the file)."""
    from paralign.cli import main
    from paralign.errors import LatticeError

    with pytest.raises(LatticeError, match=r"edge 2 \(0->2, 'a'\) repeats edge 0"):
        Lattice(3, ((0, "a", 2), (0, "b", 1), (0, "a", 2), (1, "c", 2)))
    Lattice(3, ((0, "a", 2), (0, "a", 1), (0, None, 2), (1, "a", 2)))  # same word or states, other edges: kept
    dup = tmp_path / "dup.json"
    dup.write_text('{"states": 2, "edges": [[0, "a", 1], [0, "a", 1]]}\n')
    assert main(["lattice", "paths", "--lattice", str(dup)]) == 1
    assert "dup.json: not a lattice: edge 1 (0->1, 'a') repeats edge 0" in capsys.readouterr().err
