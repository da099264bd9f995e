"""corpora.base.AlignedPair is checked when made, as the readers check their pairs (API audit,
second pass: links outside the tokens and one str of tokens were accepted)."""

from __future__ import annotations

import pytest

from paralign.alignment import Alignment
from paralign.corpora import AlignedPair
from paralign.errors import AlignmentIndexError, InputTypeError


def test_a_link_outside_the_tokens_is_refused() -> None:
    with pytest.raises(AlignmentIndexError, match="pair 'x': link 5-5 outside sentences of 1 and 1 tokens"):
        AlignedPair("x", ("a",), ("b",), Alignment.from_pharaoh("5-5"))


def test_one_str_of_tokens_is_refused_and_lists_become_tuples() -> None:
    with pytest.raises(InputTypeError, match=r"AlignedPair.source is a sequence of tokens, not one str \('ab'\)"):
        AlignedPair("x", "ab", ("c", "d"), Alignment.from_pharaoh("0-0"))
    pair = AlignedPair("x", ["a", "b"], ["c"], Alignment.from_pharaoh("1-0"))
    assert pair.source == ("a", "b") and hash(pair) == hash(AlignedPair("x", ("a", "b"), ("c",), pair.alignment))


def test_bare_links_without_tokens_are_kept_as_they_are() -> None:
    """A Pharaoh line has links and no tokens: they are checked against the gold later."""
    assert AlignedPair("1", (), (), Alignment.from_pharaoh("3-4")).sure == {(3, 4)}


def test_links_that_are_not_a_str_are_a_format_error() -> None:
    from paralign.corpora import parse_dash_links
    from paralign.errors import FormatError

    with pytest.raises(FormatError, match="f.json:3: the links of pair 'p' are NoneType, not a str 'i-j ...'"):
        parse_dash_links(None, source="f.json", line=3, item="p")
    assert parse_dash_links("0-1 2-2") == {(0, 1), (2, 2)}


@pytest.mark.parametrize("alignment", ["0-0", None, {(0, 0)}])
@pytest.mark.parametrize("tokens", [(("a",), ("b",)), ((), ())])
def test_alignment_must_be_an_alignment(alignment, tokens) -> None:
    """A Pharaoh str, None or a set of links was an AttributeError ("'str' object has no
    attribute 'possible'"), or without tokens a pair that failed only when scored."""
    with pytest.raises(InputTypeError, match="AlignedPair.alignment must be an Alignment .*from_pharaoh"):
        AlignedPair("x", *tokens, alignment)


def test_a_negative_link_index_is_named_by_file_line_and_pair() -> None:
    """A gold record with the link [-1, 0] was reported without its file and line ("Alignment
    sure: a link must be ...; pair 3 (gold 'r') skipped"), where one past the end names both."""
    from paralign.corpora import make_pair

    with pytest.raises(AlignmentIndexError, match=r"^gold\.jsonl:3: pair 'r': Alignment sure: a link must be two "
                                                  r"non-negative integer indices, got \(-1, 0\)$"):
        make_pair("r", ("a", "b"), ("a", "b"), [(-1, 0)], [(-1, 0)], path="gold.jsonl", line=3)
    with pytest.raises(AlignmentIndexError, match=r"^gold\.jsonl:3: pair 'r': link 0-5 outside"):
        make_pair("r", ("a", "b"), ("a", "b"), [(0, 5)], [(0, 5)], path="gold.jsonl", line=3)


@pytest.mark.parametrize(("args", "said"), [
    ((5, ("a",), ("b",)), r"AlignedPair.id must be a str, not int 5"),
    (("x", ("a", 1), ("b",)), r"AlignedPair.source: item 2 is int 1, not a str"),
    (("x", ("a",), [None]), r"AlignedPair.target: item 1 is NoneType None, not a str"),
    (("x", ("a",), ("b",), Alignment(), "3"), r"AlignedPair.line must be an int \(0 when unknown\), not str '3'"),
    (("x", ("a",), ("b",), Alignment(), True), r"AlignedPair.line must be an int \(0 when unknown\), not bool True"),
])
def test_a_field_of_the_wrong_type_is_refused(args, said) -> None:
    """The types the hints promise (API audit): AlignedPair(5, ...) was taken, and its pair then
    matched no gold pair (their ids are str); a token that is not a str failed far away."""
    if len(args) == 3:
        args = (*args, Alignment())
    with pytest.raises(InputTypeError, match=f"^{said}$"):
        AlignedPair(*args)
