"""aligners.batch.align_pairs: an empty sentence is a failure in place, as the command line
reports it, and an item that is not a pair is named (API audit W5, C2)."""

from __future__ import annotations

import pytest

from paralign.aligners.batch import align_pairs, is_blank
from paralign.aligners.exact import exact_match_aligner
from paralign.errors import InputTypeError
from paralign.sentence import Sentence


class _Plain:
    """Stands in for spaCy: texts split on spaces, token lists kept (keeps the test fast)."""

    def pipe(self, items):
        return (self(item) for item in items)

    def __call__(self, item):
        return Sentence.plain(item.split() if isinstance(item, str) else item)


@pytest.mark.parametrize("blank", ["", "   ", " \n", [], ["", " "], Sentence.plain([]),
                                   "\u200b", " \u00ad\ufeff \u2060 "])  # invisible characters alone (annotation drops them)
def test_blank_sentences(blank) -> None:
    assert is_blank(blank)


@pytest.mark.parametrize("words", ["a", [" a "], Sentence.plain(["."]), "\u200ba", ["\u200b"]])
def test_sentences_with_a_word_are_not_blank(words) -> None:
    assert not is_blank(words)


def test_an_empty_sentence_is_a_failure_in_its_place_not_an_alignment() -> None:
    pairs = [("a cat", "a cat"), ("a cat", ""), ("", "  "), ([], ["x"])]
    batch = align_pairs(pairs, aligner=exact_match_aligner, annotator=_Plain())
    assert batch.items[0] is not None and batch.items[0].alignment.sure == {(0, 0), (1, 1)}
    assert batch.items[1:] == (None, None, None)
    assert [(f.index, f.error) for f in batch.failures] == [
        (1, "empty target sentence"), (2, "empty source and target sentence"), (3, "empty source sentence")]


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([("a",)], r"pairs: item 1 is \('a',\), not a \(source, target\) pair"),
        ([("a", "b"), "ab"], "pairs: item 2 is 'ab', not a"),
        ([("a", "b"), ("a", "b", "c")], "item 2 is"),
        ("ab", "pairs must be a list of .source, target. pairs, not str"),
    ],
)
def test_an_item_that_is_not_a_pair_is_named(pairs, message) -> None:
    """It was an IndexError (similarity_many) or zip()'s ValueError from inside the batch."""
    with pytest.raises(InputTypeError, match=message):
        align_pairs(pairs, aligner=exact_match_aligner, annotator=_Plain())


def _no_stop_words(source, target):
    from paralign.errors import ResourceMissingError

    raise ResourceMissingError("NLTK stop words not found: set NLTK_DATA")


def test_missing_data_stops_the_batch_instead_of_failing_every_pair() -> None:
    """Without NLTK data every pair failed on its own ("alignment failed: ResourceMissingError:
    ..."): similarity_many gave all None, and evaluate-sts reported 0 pairs with exit status 0.
    An error of the setup (SETUP_ERRORS) now stops the batch, as the single-pair call does."""
    from paralign import similarity, similarity_many
    from paralign.errors import ResourceMissingError

    pairs = [(["a", "cat"], ["a", "cat"]), (["a", "dog"], ["the", "dog"])]
    with pytest.raises(ResourceMissingError, match="NLTK stop words not found"):
        align_pairs(pairs, aligner=_no_stop_words)
    with pytest.raises(ResourceMissingError, match="NLTK stop words not found"):
        similarity_many(pairs, aligner=_no_stop_words)
    with pytest.raises(ResourceMissingError, match="NLTK stop words not found"):
        similarity(*pairs[0], aligner=_no_stop_words)


def test_a_text_of_escaped_white_space_is_blank() -> None:
    """"&nbsp;" and "&#8203;" (a zero-width space) show nothing: annotation reads them so."""
    assert is_blank(" &nbsp;&#8203; ")
    assert not is_blank("&amp;")


def test_align_pairs_with_the_exact_aligner_parses_nothing_and_signs_spacy_where_it_tokenised(spacy_calls) -> None:
    """The exact aligner reads tokens alone, as ``align --aligner exact`` does: align_pairs gives a
    text spaCy's tokenizer's tokens (those a parse gives) and a token list no spaCy, and a pair
    of token lists signs no ``spacy`` part. Before, every sentence was parsed, and every pair
    signed the spaCy model, token lists too."""
    from paralign._version import __version__
    from paralign.nlp import annotate

    text = ("The cat’s toy didn't stop.", "the cat's toy did not stop!")
    tokens = (["A", "cat", "sat"], ["a", "Cat", "slept"])
    mixed = (["The", "cat"], "The cat sat.")
    batch = align_pairs([text, tokens, mixed], aligner="exact")
    assert spacy_calls == {"pipe": 0, "tokenize": 1}
    assert not batch.failures
    items = [item for item in batch.items if item is not None]
    assert [item.source.tokens for item in items] == [annotate(text[0]).tokens, tuple(tokens[0]), tuple(mixed[0])]
    assert [item.target.tokens for item in items] == [annotate(text[1]).tokens, tuple(tokens[1]),
                                                      annotate(mixed[1]).tokens]
    assert [item.alignment for item in items] == [
        exact_match_aligner(annotate(text[0]), annotate(text[1])), exact_match_aligner(*tokens),
        exact_match_aligner(mixed[0], annotate(mixed[1]))]
    assert items[1].signature == f"aligner:exact|tok:none|version:{__version__}"  # no spaCy read either side
    assert items[0].signature is not None and items[2].signature is not None
    assert "|spacy:" in items[0].signature and "|spacy:" in items[2].signature  # its tokenizer split a text
    assert "tok:" not in items[0].signature and "|tok:none/spacy|" in items[2].signature  # as align signs them
    calls = spacy_calls["pipe"]
    parsed = align_pairs([tokens], aligner="exact", parse=True)  # a caller that reads lemmas asks for the parse
    assert spacy_calls["pipe"] == calls + 1
    signed = parsed.items[0].signature if parsed.items[0] is not None else None
    assert signed is not None and "|spacy:" in signed
