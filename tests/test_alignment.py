"""Alignment: invariants, algebra, Pharaoh/JSON round trips (property tests), symmetrize."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paralign.alignment import Alignment, symmetrize
from paralign.errors import (
    AlignmentIndexError,
    ConfigurationError,
    FormatError,
    InputTypeError,
    ParalignError,
)

links = st.frozensets(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=40)


@st.composite
def alignments(draw) -> Alignment:
    return Alignment(draw(links), draw(links))


def test_possible_includes_sure() -> None:
    a = Alignment.from_links([(0, 0)], [(1, 2)])
    assert a.sure == {(0, 0)}
    assert a.possible == {(0, 0), (1, 2)}
    assert a.possible_only == {(1, 2)}
    assert a.links("sure") == {(0, 0)}
    assert a.links("sure+possible") == a.links("possible") == a.possible
    assert len(a) == 2 and bool(a) and not Alignment()
    with pytest.raises(ValueError):
        a.links("all")


@given(alignments())
def test_invariant_sure_subset_of_possible(a: Alignment) -> None:
    assert a.sure <= a.possible


@given(alignments())
def test_pharaoh_round_trip(a: Alignment) -> None:
    assert Alignment.from_pharaoh(a.to_pharaoh()) == a


@given(alignments())
def test_json_round_trip(a: Alignment) -> None:
    data = json.loads(json.dumps(a.to_json()))
    assert Alignment.from_json(data) == a
    assert Alignment.from_json(json.dumps(data)) == a


@given(alignments())
def test_transpose_is_an_involution(a: Alignment) -> None:
    t = a.transpose()
    assert t.transpose() == a
    assert {(j, i) for i, j in a.sure} == t.sure


@given(alignments(), alignments())
def test_union_and_intersection(a: Alignment, b: Alignment) -> None:
    u, n = a | b, a & b
    assert u == b.union(a) and n == b.intersection(a)
    assert u.sure == a.sure | b.sure and u.possible == a.possible | b.possible
    assert n.sure == a.sure & b.sure and n.possible == a.possible & b.possible
    assert n.sure <= n.possible and u.sure <= u.possible
    assert (a | a) == a == (a & a)


def test_pharaoh_text_forms() -> None:
    a = Alignment.from_pharaoh("0-0 1?2 3p4")
    assert a.sure == {(0, 0)} and a.possible_only == {(1, 2), (3, 4)}
    assert a.to_pharaoh() == "0-0 1?2 3?4"
    assert Alignment.from_pharaoh("  ") == Alignment()


@pytest.mark.parametrize("bad", ["0-", "a-1", "1--2", "1:2", "-1-2", "1-2-3"])
def test_malformed_pharaoh_names_file_and_line(bad: str) -> None:
    with pytest.raises(FormatError) as info:
        Alignment.from_pharaoh(f"0-0 {bad}", source="sys.txt", line=7)
    assert "sys.txt:7" in str(info.value) and bad in str(info.value)
    assert isinstance(info.value, ParalignError) and isinstance(info.value, ValueError)


def test_malformed_json() -> None:
    with pytest.raises(FormatError, match="f.json:3"):
        Alignment.from_json({"sure": [[0, 1, 2]]}, source="f.json", line=3)
    with pytest.raises(FormatError):
        Alignment.from_json({"sure": [["x", 1]]})


def test_validate() -> None:
    a = Alignment.from_links([(0, 0), (2, 1)])
    assert a.validate(3, 2) is a
    with pytest.raises(AlignmentIndexError, match="gold.txt:4.*2-1"):
        a.validate(2, 2, source="gold.txt", line=4)
    with pytest.raises(AlignmentIndexError, match="link 1-5 "):  # the first link outside, in order
        Alignment.from_links([(3, 0), (1, 5), (0, 0)]).validate(2, 2)


@given(alignments())
def test_sure_lines_parse_as_links(a: Alignment) -> None:
    """A line of sure links only (the fast path) reads as its links, however it is spaced."""
    text = "\t ".join(f"{i}-{j}" for i, j in sorted(a.sure)) + " \n"
    assert Alignment.from_pharaoh(text) == Alignment(a.sure, a.sure)


# -- symmetrize on hand examples -------------------------------------------------------------
FORWARD = {(0, 0), (1, 1), (2, 1), (0, 5)}
BACKWARD = {(0, 0), (1, 1), (1, 2), (4, 4)}


def test_symmetrize_intersection_and_union() -> None:
    assert symmetrize(FORWARD, BACKWARD, "intersection") == {(0, 0), (1, 1)}
    assert symmetrize(FORWARD, BACKWARD, "union") == FORWARD | BACKWARD


def test_symmetrize_grow_diag_adds_neighbours_only() -> None:
    # (2,1) and (1,2) touch (1,1) and each has an unaligned end; (0,5) and (4,4) touch no grown link.
    assert symmetrize(FORWARD, BACKWARD, "grow-diag") == {(0, 0), (1, 1), (2, 1), (1, 2)}


def test_symmetrize_final_variants() -> None:
    grown = {(0, 0), (1, 1), (2, 1), (1, 2)}
    # final: (0,5) has an unaligned target word, (4,4) two unaligned words -> both added.
    assert symmetrize(FORWARD, BACKWARD, "grow-diag-final") == grown | {(0, 5), (4, 4)}
    # final-and: only links whose BOTH words are unaligned: (4,4), not (0,5) (source 0 aligned).
    assert symmetrize(FORWARD, BACKWARD, "grow-diag-final-and") == grown | {(4, 4)}


def test_symmetrize_diagonal_growth() -> None:
    # (1,1) is a diagonal neighbour of (0,0): grow-diag adds it.
    assert symmetrize({(0, 0), (1, 1)}, {(0, 0)}, "grow-diag") == {(0, 0), (1, 1)}


@given(links, links)
def test_symmetrize_bounds(forward: frozenset, backward: frozenset) -> None:
    inter, union = forward & backward, forward | backward
    for method in ("grow-diag", "grow-diag-final", "grow-diag-final-and"):
        result = symmetrize(forward, backward, method)
        assert inter <= result <= union
    grown = symmetrize(forward, backward, "grow-diag")
    # The final steps only add links (final-and is not always a subset of final: order matters).
    assert grown <= symmetrize(forward, backward, "grow-diag-final-and")
    assert grown <= symmetrize(forward, backward, "grow-diag-final")


def test_symmetrize_unknown_method() -> None:
    with pytest.raises(ValueError, match="unknown"):
        symmetrize(set(), set(), "grow")


def test_argument_errors_are_paralign_errors() -> None:
    """Unknown link sets and symmetrisations are ConfigurationErrors (still ValueErrors)."""
    with pytest.raises(ConfigurationError, match="^unknown link set 'both': use one of 'sure', "
                                                  r"'sure\+possible', 'possible'$"):
        Alignment.from_links([(0, 0)]).links("both")  # named two of the three
    with pytest.raises(ConfigurationError, match="unknown symmetrisation 'grow'.*grow-diag"):
        symmetrize(set(), set(), "grow")


def test_json_text_that_is_not_json_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="f.json:2: malformed alignment JSON"):
        Alignment.from_json("{oops", source="f.json", line=2)


def test_links_must_be_two_non_negative_integers() -> None:
    with pytest.raises(AlignmentIndexError, match="non-negative"):
        Alignment.from_links([(0, -1)])
    with pytest.raises(AlignmentIndexError):
        Alignment.from_links([(1.5, 2)])
    with pytest.raises(FormatError, match="two integer indices"):
        Alignment.from_links([(0,)])
    with pytest.raises(FormatError, match="two integer indices"):
        Alignment(sure=[("a", 1)])
    assert Alignment.from_links([[0, 1]]).sure == {(0, 1)}


def test_repr_shows_the_links_and_round_trips() -> None:
    a = Alignment.from_pharaoh("2?2 1-1 0-0")
    assert repr(a) == "Alignment.from_pharaoh('0-0 1-1 2?2')"
    assert eval(repr(a), {"Alignment": Alignment}) == a


def test_from_pharaoh_of_something_that_is_not_a_str_is_named() -> None:
    """API audit C11: None was "'NoneType' object has no attribute 'strip'"."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match="Pharaoh links are a str such as '0-0 1.1', not NoneType"):
        Alignment.from_pharaoh(None)


def test_confidences_are_read_only_and_survive_pickling_and_transposing() -> None:
    """A frozen value's confidences cannot be changed through it, nor through the dict it was
    built from; pickling (Dask workers) and transposing keep them."""
    import pickle

    given = {(0, 0): 0.9, (1, 2): 0.4}
    a = Alignment(frozenset({(0, 0)}), frozenset({(1, 2)}), given)
    given[(0, 0)] = 0.1
    assert a.confidence == {(0, 0): 0.9, (1, 2): 0.4}
    with pytest.raises(TypeError):
        a.confidence[(0, 0)] = 1.0  # type: ignore[index]
    copy = pickle.loads(pickle.dumps(a))
    assert copy == a and copy.confidence == a.confidence
    with pytest.raises(TypeError):
        copy.confidence[(0, 0)] = 1.0  # type: ignore[index]
    assert a.transpose().confidence == {(0, 0): 0.9, (2, 1): 0.4}
    assert pickle.loads(pickle.dumps(Alignment.from_links([(0, 1)]))).confidence is None


def test_json_round_trip_keeps_the_confidences() -> None:
    """to_json dropped an aligner's confidences (the contextual preset's), so an alignment saved
    as JSON and read back had none; lexical alignments (no confidence) write the same two keys."""
    a = Alignment(frozenset({(0, 0), (1, 2)}), frozenset({(2, 2)}), {(0, 0): 0.9, (1, 2): 0.55})
    data = json.loads(json.dumps(a.to_json()))
    assert data["confidence"] == [[0, 0, 0.9], [1, 2, 0.55]]
    back = Alignment.from_json(data)
    assert back == a and dict(back.confidence) == {(0, 0): 0.9, (1, 2): 0.55}
    assert set(Alignment.from_pharaoh("0-0").to_json()) == {"sure", "possible"}
    assert Alignment.from_json({"sure": [[0, 0]]}).confidence is None
    # a JSON integer past float's range, NaN: refused as the others, not an OverflowError
    for bad in ([[0, 0, 1.5]], [[0, 0, "x"]], [[0, 0]], [[-1, 0, 0.5]], [[0, 0, 10**400]], [[0, 0, float("nan")]]):
        with pytest.raises(FormatError, match="f.json:2: malformed alignment JSON"):
            Alignment.from_json({"sure": [[0, 0]], "confidence": bad}, source="f.json", line=2)
    with pytest.raises(FormatError, match="f.json:2: malformed alignment JSON"):  # JSON, but no object
        Alignment.from_json("[[0, 0]]", source="f.json", line=2)


def test_symmetrize_given_pharaoh_text_says_how_to_parse_it() -> None:
    """symmetrize("0-0 1-1", ...) was a bare "not enough values to unpack (expected 2, got 1)"."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=r"not Pharaoh text: Alignment.from_pharaoh\(text\).sure"):
        symmetrize("0-0 1-1", [(0, 0)])  # type: ignore[arg-type]
    assert symmetrize(Alignment.from_pharaoh("0-0 1-1").sure, [(0, 0)], "intersection") == {(0, 0)}


# -- the constructor checks what a user gives it ---------------------------------------------------
@pytest.mark.parametrize("sure", [frozenset({(-1, 0)}), frozenset({(0.5, 1)}), [(1.0, 2)], [(True, 0)],
                                  frozenset({(0, -3)})])
def test_constructor_refuses_negative_and_non_integer_indices(sure) -> None:
    """Before, a frozenset was taken unchecked (a negative link scored, then broke a signal) and
    other iterables took 1.0 and True as indices 1."""
    with pytest.raises(AlignmentIndexError, match="Alignment sure: a link must be two non-negative integer"):
        Alignment(sure)
    with pytest.raises(AlignmentIndexError, match="Alignment possible: "):
        Alignment(possible=sure)


@pytest.mark.parametrize("value", ["0-0 1-1", 5, None, b"0-0"])
def test_constructor_refuses_what_is_not_a_collection_of_links(value) -> None:
    """One str was read as its characters ("a link must be two integer indices, got '0'"), a
    number or None was a bare "'int' object is not iterable"."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match="Alignment sure: expected a collection of \\(i, j\\) links") as info:
        Alignment(value)  # type: ignore[arg-type]
    assert ("from_pharaoh" in str(info.value)) == isinstance(value, str)


def test_constructor_names_an_item_that_is_not_a_link() -> None:
    for bad in (frozenset({"ab"}), frozenset({(1, 2, 3)}), [("a", 1)], [None]):
        with pytest.raises(FormatError, match="Alignment sure: a link must be two integer indices"):
            Alignment(bad)  # type: ignore[arg-type]


def test_constructor_takes_numpy_indices_as_ints() -> None:
    import numpy as np

    made = Alignment([(np.int64(0), np.int32(1))], confidence={(0, 1): np.float32(0.5)})
    assert made.sure == {(0, 1)} and all(type(x) is int for link in made.sure for x in link)
    assert made.confidence == {(0, 1): 0.5}


def test_constructor_checks_the_confidences() -> None:
    """A confidence of a link the alignment lacks, or outside [0, 1], was kept silently."""
    from paralign.errors import InputTypeError

    with pytest.raises(FormatError, match=r"confidence: \(1, 1\) is not a link of the alignment"):
        Alignment({(0, 0)}, confidence={(1, 1): 0.5})
    for bad in (1.5, -0.1, float("nan"), True, "0.5"):
        with pytest.raises(FormatError, match="confidence of link 0-0: a link's confidence must be a number"):
            Alignment({(0, 0)}, confidence={(0, 0): bad})
    with pytest.raises(InputTypeError, match="confidence: expected a mapping"):
        Alignment({(0, 0)}, confidence=[0.5])  # type: ignore[arg-type]


def test_aligned_sentences_checks_its_alignment() -> None:
    """A link outside the sentences, or links that are not an Alignment, were taken as they were
    and failed later inside a signal (an IndexError, or 'str' object has no attribute 'sure')."""
    from paralign.alignment import AlignedSentences
    from paralign.errors import InputTypeError
    from paralign.sentence import Sentence

    s, t = Sentence.plain(["a", "b"]), Sentence.plain(["a", "b", "c"])
    assert AlignedSentences(s, t, Alignment({(1, 2)})).alignment.sure == {(1, 2)}
    with pytest.raises(AlignmentIndexError, match="link 2-0 outside sentences of 2 and 3 tokens"):
        AlignedSentences(s, t, Alignment({(2, 0)}))
    with pytest.raises(InputTypeError, match="must be an Alignment .*not str '0-0'"):
        AlignedSentences(s, t, "0-0")  # type: ignore[arg-type]
    # a str was counted by its characters and taken; a token list too, failing in the first signal
    with pytest.raises(InputTypeError, match=r"^AlignedSentences.source must be a Sentence .*not str 'ab'"):
        AlignedSentences("ab", t, Alignment({(1, 2)}))  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match=r"^AlignedSentences.target must be a Sentence .*not list"):
        AlignedSentences(s, ["a", "b", "c"], Alignment({(1, 2)}))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("forward", "error", "message"),
    [({(-1, 0)}, AlignmentIndexError, r"symmetrize forward: .* non-negative integer indices, got \(-1, 0\)"),
     ({(0.5, 0)}, AlignmentIndexError, r"non-negative integer indices, got \(0\.5, 0\)"),
     ({("a", "b")}, FormatError, r"symmetrize forward: a link must be two integer indices, got \('a', 'b'\)"),
     ([(0, 0, 0)], FormatError, r"two integer indices, got \(0, 0, 0\)"),
     (None, InputTypeError, "symmetrize forward: expected a collection of .i, j. links, not NoneType")],
)
def test_symmetrize_checks_its_links_as_an_alignment_does(forward, error, message) -> None:
    """API audit: symmetrize returned (-1, 0), (0.5, 0) or ('a', 'b') as links, silently, where
    Alignment refuses them; None and (0, 0, 0) were a TypeError and a ValueError from inside."""
    with pytest.raises(error, match=message):
        symmetrize(forward, {(0, 0)})
    assert symmetrize([(0, 0), (1, 1)], [(0, 0)], "union") == {(0, 0), (1, 1)}  # a list of links is fine


def test_bytes_are_not_a_blank_sentence_but_an_input_type_error() -> None:
    """API audit: bytes counted as a sentence with no words (their items are ints, not words):
    the exact aligner gave b'A cat.' the empty alignment silently, `similarity_many` reported
    'empty target sentence' and an evaluation skipped the pair as empty."""
    from paralign.aligners import get_aligner
    from paralign.alignment import is_blank

    assert not is_blank(b"A cat.") and is_blank(b"".decode()) and is_blank([" "])
    with pytest.raises(InputTypeError, match="not bytes b'A cat.'"):
        get_aligner("exact")(b"A cat.", "A cat.")
