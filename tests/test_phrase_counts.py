"""Vectorised phrase-pair counting equals `phrases.phrase_spans` sentence by sentence."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paralign.errors import AlignmentIndexError, FormatError
from paralign.phrase_counts import count_phrase_pairs, parse_pharaoh, split_tokens
from paralign.phrases import phrase_spans


@st.composite
def chunks(draw):
    """A chunk of sentence pairs with random links (empty sentences and link lines included)."""
    rows = []
    for _ in range(draw(st.integers(1, 6))):
        n, m = draw(st.integers(0, 8)), draw(st.integers(0, 8))
        e = [draw(st.sampled_from("abcde")) for _ in range(n)]
        f = [draw(st.sampled_from("vwxyz")) for _ in range(m)]
        links = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, m - 1)), max_size=n + m)) if n and m else set()
        rows.append((" ".join(e), " ".join(f), " ".join(f"{i}-{j}" for i, j in sorted(links))))
    return rows, draw(st.integers(1, 5))


def reference(rows, max_length, *, include_identical=True, symmetric=False) -> Counter:
    counts: Counter = Counter()
    for e, f, a in rows:
        es, fs = e.split(), f.split()
        links = [tuple(map(int, x.split("-"))) for x in a.split()]
        for s1, s2, t1, t2 in phrase_spans(links, len(es), len(fs), max_length):
            pair = " ".join(es[s1:s2]), " ".join(fs[t1:t2])
            if include_identical or pair[0] != pair[1]:
                counts[pair] += 1
                if symmetric:
                    counts[pair[1], pair[0]] += 1
    return counts


def as_counter(table) -> Counter:
    return Counter(dict(zip(zip(table["e"].to_pylist(), table["f"].to_pylist(), strict=True),
                            table["count"].to_pylist(), strict=True)))


@given(chunks())
def test_counts_equal_phrase_spans_sentence_by_sentence(chunk):
    rows, max_length = chunk
    e, f, a = zip(*rows, strict=True)
    assert as_counter(count_phrase_pairs(e, f, a, max_length)) == reference(rows, max_length)


@given(chunks())
def test_monolingual_counts_drop_identical_and_count_both_ways(chunk):
    rows, max_length = chunk
    rows = [(e, f.translate(str.maketrans("vwxyz", "abcde")), a) for e, f, a in rows]  # one vocabulary
    e, f, a = zip(*rows, strict=True)
    got = count_phrase_pairs(e, f, a, max_length, include_identical=False, symmetric=True)
    assert as_counter(got) == reference(rows, max_length, include_identical=False, symmetric=True)


def test_tokens_split_like_str_split_and_links_parse():
    tokens, offsets = split_tokens(["a  b", "", "  c "])
    assert tokens.to_pylist() == ["a", "b", "c"] and offsets.tolist() == [0, 2, 2, 3]
    sentence, i, j = parse_pharaoh(["0-1 2-0", "", "3-3"])
    assert (sentence.tolist(), i.tolist(), j.tolist()) == ([0, 0, 2], [0, 2, 3], [1, 0, 3])


def test_bad_links_name_file_and_line():
    with pytest.raises(FormatError, match=r"a\.txt:11: malformed link '1-x'"):
        count_phrase_pairs(["a b", "c d"], ["x y", "z w"], ["0-0", "0-0 1-x"], source="a.txt", first_line=10)
    with pytest.raises(AlignmentIndexError, match=r"a\.txt:2: link 2-0 outside sentences of 2 and 2 tokens"):
        count_phrase_pairs(["a b", "c d"], ["x y", "z w"], ["0-0", "2-0"], source="a.txt")


def test_a_link_past_int64_is_named_at_its_line():
    """Audit: a link index too large for int64 failed Arrow's cast and was 'malformed links' at
    the chunk's first line (10 here), naming neither the link nor its line (11)."""
    with pytest.raises(AlignmentIndexError, match=r"a\.txt:11: link 99999999999999999999-0 outside any sentence"):
        count_phrase_pairs(["a b", "c d"], ["x y", "z w"], ["0-0", "0-0 99999999999999999999-0"], source="a.txt",
                           first_line=10)
    with pytest.raises(AlignmentIndexError, match=r"a\.txt:10: link 9223372036854775807-0 outside sentences"):
        count_phrase_pairs(["a b"], ["x y"], ["9223372036854775807-0"], source="a.txt", first_line=10)


@pytest.mark.parametrize("max_length", [0, 2.5, True, float("nan")])
def test_a_max_length_that_is_no_count_is_refused_as_phrase_spans_refuses_it(max_length):
    """Audit: count_phrase_pairs took 2.5, True or NaN past its `< 1` test, to a TypeError from
    numpy; phrase_spans (its reference) refuses them with a ConfigurationError."""
    from paralign.errors import ConfigurationError

    for extract in (lambda: count_phrase_pairs(["a b"], ["x y"], ["0-0 1-1"], max_length),
                    lambda: phrase_spans([(0, 0)], 2, 2, max_length)):
        with pytest.raises(ConfigurationError, match="max_length must be"):
            extract()
