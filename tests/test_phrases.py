"""Consistent phrase-pair extraction (Och & Ney 2004 / ParaMetric PP)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.alignment import Alignment, Link
from paralign.errors import AlignmentIndexError, ConfigurationError, ParalignError
from paralign.phrases import PhrasePair, SpanPair, phrase_pairs, phrase_spans


def brute_force_spans(
    links: Iterable[Link], source_length: int, target_length: int, max_length: int = 5
) -> set[SpanPair]:
    """The PP definition applied literally: slow, the reference `phrase_spans` is checked
    against (moved here from paralign.phrases, where nothing used it)."""
    link_list = list(links)
    out: set[SpanPair] = set()
    for s1 in range(source_length):
        for s2 in range(s1 + 1, min(s1 + max_length, source_length) + 1):
            for t1 in range(target_length):
                for t2 in range(t1 + 1, min(t1 + max_length, target_length) + 1):
                    inside = False
                    ok = True
                    for i, j in link_list:
                        in_s, in_t = s1 <= i < s2, t1 <= j < t2
                        if in_s != in_t:
                            ok = False
                            break
                        inside = inside or in_s
                    if ok and inside:
                        out.add((s1, s2, t1, t2))
    return out


@st.composite
def random_alignments(draw):
    n = draw(st.integers(0, 9))
    m = draw(st.integers(0, 9))
    cells = [(i, j) for i in range(n) for j in range(m)]
    links = draw(st.sets(st.sampled_from(cells), max_size=14)) if cells else set()
    max_length = draw(st.integers(1, 6))
    return n, m, frozenset(links), max_length


@settings(max_examples=300, deadline=None)
@given(random_alignments())
def test_matches_brute_force(case):
    n, m, links, max_length = case
    fast = phrase_spans(links, n, m, max_length)
    assert len(fast) == len(set(fast)), "duplicate span pairs"
    assert set(fast) == brute_force_spans(links, n, m, max_length)


@settings(max_examples=200, deadline=None)
@given(random_alignments())
def test_tight_pairs_have_aligned_edges(case):
    n, m, links, max_length = case
    src = {i for i, _ in links}
    tgt = {j for _, j in links}
    expected = {(s1, s2, t1, t2) for s1, s2, t1, t2 in brute_force_spans(links, n, m, max_length)
                if {s1, s2 - 1} <= src and {t1, t2 - 1} <= tgt}
    assert sorted(phrase_spans(links, n, m, max_length, tight=True)) == sorted(expected)


@settings(max_examples=100, deadline=None)
@given(random_alignments())
def test_transpose_symmetry(case):
    n, m, links, max_length = case
    forward = set(phrase_spans(links, n, m, max_length))
    backward = {(t1, t2, s1, s2) for s1, s2, t1, t2 in phrase_spans(
        {(j, i) for i, j in links}, m, n, max_length)}
    assert forward == backward


def test_paper_example_and_texts():
    src = ["some", "want", "to", "impeach", "him"]
    tgt = ["some", "people", "propose", "to", "impeach", "him"]
    links = {(0, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 5)}
    pairs = phrase_pairs(links, src, tgt)
    texts = {(p.source_text, p.target_text) for p in pairs}
    assert ("some", "some people") in texts
    assert ("want", "propose") in texts
    assert ("some want to impeach him", "some people propose to impeach him") not in texts  # 6 > 5
    assert ("to impeach", "to impeach") not in texts  # identical dropped
    with_identical = phrase_pairs(links, src, tgt, include_identical=True)
    assert ("to impeach", "to impeach") in {(p.source_text, p.target_text) for p in with_identical}
    assert len(with_identical) > len(pairs)
    pair = next(p for p in pairs if p.source_text == "some" and p.target_text == "some people")
    assert pair == PhrasePair((0, 1), (0, 2), "some", "some people")
    assert pair.length == 2 and pair.source_length == 1 and pair.target_length == 2


def test_identical_is_case_insensitive():
    pairs = phrase_pairs({(0, 0)}, ["The"], ["the"], include_identical=False)
    assert pairs == []


def test_unaligned_edges_extend():
    # source word 1 and target words 0 and 2 unaligned
    spans = set(phrase_spans({(0, 1), (2, 3)}, 3, 4, 5))
    assert (0, 1, 1, 2) in spans and (0, 1, 0, 2) in spans and (0, 1, 0, 3) in spans
    assert (0, 2, 1, 2) in spans  # unaligned source word at the edge
    assert (0, 1, 1, 4) not in spans  # target 3 is linked to source 2


def test_alignment_link_choice():
    alignment = Alignment.from_links(sure=[(0, 0)], possible=[(1, 0)])
    assert (0, 1, 0, 1) in phrase_spans(alignment, 2, 1)
    assert (0, 1, 0, 1) not in phrase_spans(alignment, 2, 1, links="sure+possible")


def test_errors():
    with pytest.raises(AlignmentIndexError):
        phrase_spans({(3, 0)}, 2, 2)
    with pytest.raises(ConfigurationError):
        phrase_spans({(0, 0)}, 2, 2, 0)
    with pytest.raises(ConfigurationError):
        phrase_spans(Alignment.from_links([(0, 0)]), 2, 2, links="maybe")
    assert issubclass(AlignmentIndexError, ParalignError)


def test_dense_block_pair():
    # 100x100 with fully connected 2x2 blocks on the diagonal: consistent pairs are runs of one
    # or two whole blocks (three blocks = 6 words > 5).
    n = 100
    links = {(i, j) for i in range(n) for j in range(n) if i // 2 == j // 2}
    spans = phrase_spans(links, n, n, 5)
    assert sorted(spans) == sorted(
        [(b, b + 2, b, b + 2) for b in range(0, n, 2)] + [(b, b + 4, b, b + 4) for b in range(0, n - 2, 2)]
    )


def test_token_lists_must_not_be_one_str():
    """API audit W3: "ab" was read as the tokens 'a', 'b' (and phrase pairs made of letters)."""
    from paralign.errors import InputTypeError

    links = Alignment.from_pharaoh("0-0 1-1")
    with pytest.raises(InputTypeError, match="source_tokens must be a list of strings, not one str"):
        phrase_pairs(links, "ab", ["c", "d"])
    with pytest.raises(InputTypeError, match="target_tokens: item 2 is int"):
        phrase_pairs(links, ["a", "b"], ["c", 4])


@pytest.mark.parametrize("max_length", [2.5, float("nan"), None])
def test_a_max_length_that_is_not_a_whole_number_is_a_configuration_error(max_length) -> None:
    """API audit: `phrase_pairs(..., max_length=2.5)` was taken (as 3 on one side, 2 on the
    other), NaN and None were TypeErrors from inside."""
    with pytest.raises(ConfigurationError, match="max_length must be a whole number"):
        phrase_pairs(Alignment.from_pharaoh("0-0 1-1"), ["a", "b"], ["c", "d"], max_length=max_length)


@pytest.mark.parametrize(("links", "message"), [("0-0 1-1", "not str '0-0 1-1' .Alignment.from_pharaoh parses"),
                                                (None, "not NoneType None")])
def test_links_that_are_not_links_are_named(links, message) -> None:
    """API audit: Pharaoh text given as the links was 'not enough values to unpack' and None
    'NoneType object is not iterable', from inside."""
    with pytest.raises(ParalignError, match=message):
        phrase_pairs(links, ["a", "b"], ["c", "d"])


def koehn_extract(links, n: int, m: int, max_length: int) -> set[tuple[int, int, int, int]]:
    """Koehn's (2010, fig. 5.5) phrase extraction, written here apart from paralign's code: each
    source span's tight target span, checked, then extended over unaligned target words at both
    edges while it fits `max_length`."""
    out = set()
    aligned_target = {j for _, j in links}
    for s1 in range(n):
        for s2 in range(s1, min(n, s1 + max_length)):
            targets = [j for i, j in links if s1 <= i <= s2]
            if not targets:
                continue
            t1, t2 = min(targets), max(targets)
            if any(t1 <= j <= t2 and not s1 <= i <= s2 for i, j in links) or t2 - t1 + 1 > max_length:
                continue
            start = t1
            while True:
                end = t2
                while end - start + 1 <= max_length:
                    out.add((s1, s2 + 1, start, end + 1))
                    end += 1
                    if end >= m or end in aligned_target:
                        break
                start -= 1
                if start < 0 or start in aligned_target:
                    break
    return out


@settings(max_examples=300, deadline=None)
@given(random_alignments())
def test_matches_koehns_extraction_written_apart(case):
    """Audit: the extraction against a reference that shares no code with paralign's (the
    brute_force_spans above is the PP definition in its words)."""
    n, m, links, max_length = case
    assert set(phrase_spans(links, n, m, max_length)) == koehn_extract(links, n, m, max_length)


@pytest.mark.parametrize(("links", "n", "m", "max_length", "expected"), [
    ([], 3, 3, 5, set()),  # no link: no pair
    ([(0, 0)], 1, 1, 1, {(0, 1, 0, 1)}),  # one word each side
    ([(0, 0), (1, 1)], 2, 2, 1, {(0, 1, 0, 1), (1, 2, 1, 2)}),  # the 2-word pair is one past the limit
    ([(0, 0), (1, 1)], 2, 2, 2, {(0, 1, 0, 1), (1, 2, 1, 2), (0, 2, 0, 2)}),  # exactly at it
    ([(i, j) for i in range(2) for j in range(2)], 2, 2, 5, {(0, 2, 0, 2)}),  # all aligned: one block
    ([(1, 1)], 3, 3, 2, {(1, 2, 1, 2), (0, 2, 1, 2), (1, 3, 1, 2), (1, 2, 0, 2), (1, 2, 1, 3), (0, 2, 0, 2),
                         (0, 2, 1, 3), (1, 3, 0, 2), (1, 3, 1, 3)}),  # unaligned edges within the limit
])
def test_edge_cases_of_the_extraction(links, n, m, max_length, expected):
    assert set(phrase_spans(links, n, m, max_length)) == expected == koehn_extract(links, n, m, max_length)


@pytest.mark.parametrize("links", ["both", "Sure", ""])
def test_an_unknown_link_set_lists_every_accepted_one(links: str) -> None:
    """Audit: the message named 'sure' and 'sure+possible' but not 'possible', which LINK_SETS
    also accepts; it is now built from LINK_SETS."""
    from paralign.phrases import LINK_SETS

    with pytest.raises(ConfigurationError) as caught:
        phrase_pairs(Alignment(sure=frozenset({(0, 0)})), ["a", "b"], ["a", "c"], links=links)
    assert str(caught.value).endswith(f"use one of {', '.join(map(repr, LINK_SETS))}")
    assert all(repr(name) in str(caught.value) for name in LINK_SETS)
