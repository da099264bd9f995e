"""lattice.build.LatticeOptions checks its settings when made (API audit R4)."""

from __future__ import annotations

import pytest

from paralign.errors import ConfigurationError
from paralign.lattice import LatticeOptions


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"max_gaps": -1}, "max_gaps must be a count >= 0, got -1"),
        ({"max_gaps": 1.5}, "max_gaps must be a count >= 0, got 1.5"),
        ({"method": "nosuch"}, "unknown lattice method 'nosuch'"),
    ],
)
def test_bad_options_are_refused_when_made(bad, message) -> None:
    """max_gaps=-1 was accepted and, being non-zero, turned relaxed merging on."""
    with pytest.raises(ConfigurationError, match=message):
        LatticeOptions(**bad)
    assert LatticeOptions(method="msa", max_gaps=2).max_gaps == 2


def test_sentence_key_is_the_words_of_the_lattice() -> None:
    """One rule for what is one sentence of a group: its tokens, lower-cased unless the lattice
    keeps the case."""
    from paralign.lattice.build import sentence_key

    assert sentence_key(["The", "Cat"]) == sentence_key(("the", "cat")) == ("the", "cat")
    assert sentence_key(["The", "Cat"], lowercase=False) == ("The", "Cat")


@pytest.mark.parametrize(("texts", "lowercase", "kept"), [
    (["The cat sat.", "the cat sat .", "THE CAT SAT ."], True, ["The cat sat."]),
    (["The cat sat.", "the cat sat ."], False, ["The cat sat.", "the cat sat ."]),
    (["ΟΔΟΣ .", "οδος."], True, ["ΟΔΟΣ ."]),  # a final sigma is lower-cased as the lattice does
    (["the cat sat", "the cats at"], True, ["the cat sat", "the cats at"]),  # same letters, other words
    (["a b", "a b", "c"], True, ["a b", "c"]),
])
def test_distinct_texts_are_the_lattices_distinct_sentences(texts, lowercase, kept) -> None:
    """distinct_texts (what --min-size counts, before parsing) keeps the first text of each of
    the distinct sentences that build_lattice makes a path of, after parsing."""
    from paralign.lattice.build import distinct_sentences, lattice_annotator
    from paralign.lattice.evaluate import distinct_texts

    assert distinct_texts(texts, lowercase=lowercase) == kept
    sentences, _ = distinct_sentences(lattice_annotator().pipe(texts), lowercase)
    assert [s.tokens for s in sentences] == [s.tokens for s in lattice_annotator().pipe(kept)]


def test_a_run_of_spaces_is_no_other_sentence() -> None:
    """What sentence_key's docstring says of white space (it said, from before whitespace runs
    were one space, that "the cat  sat" was another sentence than "the cat sat")."""
    from paralign import build_lattice

    lattice = build_lattice(["the cat  sat", "The cat sat"])
    assert list(lattice.paths()) == [("the", "cat", "sat")] and lattice.weights == (1, 1, 1)


@pytest.mark.parametrize("method", ["syntax", "msa"])
@pytest.mark.parametrize("long", ["a b " * 300_000, ["ab"] * 60_000])
def test_a_sentence_too_long_to_parse_is_a_format_error(method, long) -> None:
    """build_lattice of a text over spaCy's 1,000,000 characters was spaCy's ValueError E088 (a
    traceback from `lattice build`), and a token list past 100,000 characters asked the parser
    for gigabytes. Both are refused before anything is parsed, as align refuses such a pair."""
    from paralign.errors import FormatError
    from paralign.lattice import build_lattice
    from paralign.lattice.groups import annotate_groups

    with pytest.raises(FormatError, match=r"sentence 2 too long to parse \([\d,]+ characters, more than 100,000"):
        build_lattice(["a short one", long], LatticeOptions(method=method))
    with pytest.raises(FormatError, match=r"group g7: sentence 2 too long to parse"):
        next(annotate_groups([("g7", ["a short one", long])]))


GROUPS_OF_EVERY_KIND = [
    ["The firm\u2019s CEO didn\u2019t quit.", "the firm's ceo didn't quit .", "A cafe\u0301 &amp; bar   closed"],
    ["the c\u200bat sat", "The cat sat.", "On Monday, the cat sat on the mat!"],
    [["a", "", " ", "b"], ["a", "b"], "a  b", ["A", "don\u2019t"]],
]


@pytest.mark.parametrize("group", GROUPS_OF_EVERY_KIND)
@pytest.mark.parametrize("lowercase", [True, False])
def test_msa_reads_the_tokens_parsing_gives_without_parsing(group, lowercase, monkeypatch) -> None:
    """The MSA baseline reads tokens alone, but build_lattice parsed its sentences (two 10,000-word
    lines: 1.4 s of parsing for 0.7 s of aligning, 612 MB RSS against 82 MB). The lattice is the
    one of the tokens parsing gives, and nothing is parsed."""
    from paralign.lattice import build_lattice, msa_lattice
    from paralign.lattice.build import distinct_sentences, lattice_annotator

    parsed = list(lattice_annotator().pipe(group))
    _, tokens = distinct_sentences(parsed, lowercase)
    expected = msa_lattice(tokens).with_weights(tokens).to_dict() | {"lowercase": lowercase}
    monkeypatch.setattr(type(lattice_annotator()), "pipe", lambda *a, **k: pytest.fail("parsed"))
    assert build_lattice(group, LatticeOptions(method="msa", lowercase=lowercase)).to_dict() == expected
