"""Sentence: defaults, validation, views, immutability and dict round trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paralign.errors import FormatError, MismatchError, ParalignError
from paralign.sentence import ROOT, Entity, Sentence


def example() -> Sentence:
    return Sentence(
        tokens=("Obama", "visited", "Paris", "."),
        lemmas=("Obama", "visit", "Paris", "."),
        tags=("NNP", "VBD", "NNP", "."),
        pos=("PROPN", "VERB", "PROPN", "PUNCT"),
        heads=(1, ROOT, 1, 1),
        deps=("nsubj", "ROOT", "dobj", "punct"),
        entities=(Entity(0, 1, "PERSON"), Entity(2, 3, "GPE")),
        whitespace=(True, True, False, False),
    )


def test_plain_defaults() -> None:
    s = Sentence.plain(["a", "b"])
    assert s.tokens == ("a", "b") and s.lemmas == ("a", "b")
    assert s.heads == (ROOT, ROOT) and s.tags == ("", "") and s.whitespace == (True, True)
    assert s.text == "a b" and len(s) == 2


def test_token_lists_become_tuples_and_sentences_hash() -> None:
    s = Sentence(tokens=["a", "b"])  # type: ignore[arg-type]
    assert s.tokens == ("a", "b") and isinstance(s.tokens, tuple)
    assert hash(s) == hash(Sentence.plain(("a", "b")))


def test_views() -> None:
    s = example()
    assert s.text == "Obama visited Paris."
    assert [t.text for t in s] == list(s.tokens)
    assert s[1].lemma == "visit" and s[1].tag == "VBD" and s[1].pos == "VERB"
    assert s[1].head == ROOT and s[0].dep == "nsubj" and str(s[-1]) == "."
    assert s[0].entity == Entity(0, 1, "PERSON") and s[1].entity is None
    assert s.entity_at(2).label == "GPE"
    assert s.children(1) == [0, 2, 3]
    with pytest.raises(IndexError, match="outside a 4-token"):
        s[4]


def test_immutable() -> None:
    s = example()
    with pytest.raises(AttributeError):
        s.tokens = ("x",)  # type: ignore[misc]


def test_validation() -> None:
    with pytest.raises(ValueError, match="lemmas has 1 entries for 2 tokens"):
        Sentence(tokens=("a", "b"), lemmas=("a",))
    with pytest.raises(ValueError, match="entity span 1:3 outside a 2-token"):
        Sentence(tokens=("a", "b"), entities=(Entity(1, 3, "X"),))


def test_empty_sentence() -> None:
    s = Sentence.plain([])
    assert len(s) == 0 and s.text == "" and list(s) == []


def test_dict_round_trip() -> None:
    s = example()
    assert Sentence.from_dict(s.to_dict()) == s


@given(st.lists(st.text(min_size=1, max_size=6), max_size=12))
def test_plain_round_trip_keeps_tokens(tokens: list[str]) -> None:
    s = Sentence.plain(tokens)
    assert s.tokens == tuple(tokens)
    assert Sentence.from_dict(s.to_dict()) == s


def test_errors_are_paralign_errors() -> None:
    """Validation errors are ParalignErrors; a token index error is still an IndexError."""
    with pytest.raises(MismatchError, match="tags has 1 entries for 2 tokens"):
        Sentence(tokens=("a", "b"), tags=("DT",))
    with pytest.raises(FormatError, match="entity span 0:0"):
        Sentence(tokens=("a",), entities=(Entity(0, 0, "X"),))
    with pytest.raises(ParalignError) as info:
        Sentence.plain(["a", "b"])[-3]
    assert isinstance(info.value, IndexError) and "outside a 2-token" in str(info.value)


def test_heads_outside_the_sentence_are_refused() -> None:
    with pytest.raises(FormatError, match=r"token 0 \('a'\) has head 5"):
        Sentence(("a", "b"), heads=(5, -1))
    assert Sentence(("a", "b"), heads=(1, -1)).children(1) == [0]


def test_from_dict_names_what_is_wrong() -> None:
    with pytest.raises(FormatError, match=r"f\.json:3: bad sentence record: missing 'tokens'"):
        Sentence.from_dict({}, source="f.json", line=3)
    with pytest.raises(FormatError, match="bad sentence record"):
        Sentence.from_dict({"tokens": ["a"], "entities": [[0, 1]]})
    with pytest.raises(FormatError, match="bad sentence record.*lemmas"):
        Sentence.from_dict({"tokens": ["a"], "lemmas": ["a", "b"]})
    s = Sentence(("New", "York"), heads=(1, -1), entities=(Entity(0, 2, "GPE"),))
    assert Sentence.from_dict(s.to_dict()) == s


def test_repr_shows_the_tokens_and_the_annotation_layers() -> None:
    s = Sentence(tokens=("The", "cat"), lemmas=("the", "cat"), pos=("DET", "NOUN"))
    assert repr(s).startswith("Sentence('The cat' | lemmas")
    long = Sentence(tokens=tuple(f"w{k}" for k in range(100)))
    assert len(repr(long)) < 200 and "..." in repr(long)


@pytest.mark.parametrize("make", [lambda: Sentence.plain("a b"), lambda: Sentence(tokens="ab")])
def test_one_str_is_not_taken_as_a_token_list(make) -> None:
    """API audit W3: Sentence.plain("a b") had the tokens 'a', ' ', 'b'."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=r"Sentence takes a list of tokens, not one str .*paralign.annotate"):
        make()
    assert Sentence.plain(["a", "b"]).tokens == ("a", "b")


def test_a_token_view_outside_its_sentence_is_refused_when_made() -> None:
    """API audit R3: Token(s, 5) was made, and .text then raised a bare IndexError."""
    from paralign.errors import TokenIndexError
    from paralign.sentence import Token

    s = Sentence.plain(["a", "b"])
    with pytest.raises(TokenIndexError, match="token 5 outside a 2-token sentence"):
        Token(s, 5)
    with pytest.raises(TokenIndexError):
        Token(s, -1)
    assert Token(s, 1).text == "b" and s[-1].text == "b"


def test_a_slice_gives_its_tokens_and_a_wrong_index_is_named() -> None:
    """sentence[1:3] was "'<=' not supported between instances of 'int' and 'slice'" and
    sentence['x'] the same kind of error from inside the bounds check."""
    import numpy as np

    from paralign.errors import InputTypeError

    s = example()
    assert [t.text for t in s[1:3]] == ["visited", "Paris"]
    assert [t.text for t in s[::-1]] == [".", "Paris", "visited", "Obama"] and s[9:] == ()
    assert s[np.int64(2)] == s[2] and s[np.int64(2)].i == 2 and type(s[np.int64(2)].i) is int
    with pytest.raises(InputTypeError, match="indexed by an int or a slice, not str 'x'"):
        s["x"]  # type: ignore[call-overload]
    with pytest.raises(InputTypeError, match="not float 1.0"):
        s[1.0]  # type: ignore[call-overload]


def test_tokens_that_are_not_a_list_are_named() -> None:
    """Sentence(None) was "'NoneType' object is not iterable"."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match="Sentence takes a list of tokens, not NoneType None"):
        Sentence(None)  # type: ignore[arg-type]
