"""The library's entry points, called from Python with bad *values* of the right type: a str
holding a lone surrogate (what ``bytes.decode(errors="surrogateescape")`` makes of a bad byte,
no character), and one bad item in a batch. Each is a :mod:`paralign.errors` error naming the
argument (and, in a list, the item), or, in a batch that keeps failures in place, a failure
saying why: never a UnicodeEncodeError or a TypeError from spaCy or a tokenizer deep inside.
(Wrong types: tests/test_api_inputs.py.)"""

from __future__ import annotations

import importlib.util

import pytest

import paralign
from paralign.errors import InputTypeError

X, Y = "The senator sponsored the bill.", "The senator drafted the bill."
LONE = "the senator \ud800 sponsored"  # as "surrogateescape" decodes a bad byte (there \udc80-\udcff)
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="needs the neural extra (torch)")


@pytest.mark.parametrize("text", [LONE, "\udcff", ["the", "b\udc80d", "bill"]],
                         ids=["text", "alone", "token"])
@pytest.mark.parametrize("call", [
    lambda t: paralign.annotate(t),
    lambda t: paralign.annotate_many([X, t]),
    lambda t: paralign.get_aligner("exact")(X, t),
    lambda t: paralign.similarity(t, Y),
], ids=["annotate", "annotate_many", "exact", "similarity"])
def test_a_lone_surrogate_is_an_input_type_error_naming_it(call, text) -> None:
    """`annotate`, the aligners and `similarity` sent the text to spaCy, which failed encoding it:
    a bare UnicodeEncodeError ('surrogates not allowed') from spacy/strings.pyx, and in
    `similarity` a SimilarityError quoting it, as if the pair had failed. A str holding half a
    UTF-16 pair is no text: an InputTypeError naming the character, as for None."""
    with pytest.raises(InputTypeError, match=r"lone surrogate, '\\ud[89a-f][0-9a-f]{2}' at character \d"):
        call(text)


def test_the_sultan_aligner_names_a_lone_surrogate(data) -> None:
    aligner = paralign.Aligner()
    for call in (lambda: aligner.align(LONE, Y), lambda: aligner.align(["a", "\ud800"], ["a"]),
                 lambda: aligner.align_many([(X, Y), (X, LONE)]), lambda: aligner.annotate([X, LONE])):
        with pytest.raises(InputTypeError, match="lone surrogate"):
            call()


@needs_torch
def test_the_contextual_aligner_names_a_lone_surrogate() -> None:
    """It checked its sentences before loading a model, but let a lone surrogate through to
    spaCy (UnicodeEncodeError)."""
    aligner = paralign.Aligner("contextual")
    with pytest.raises(InputTypeError, match="lone surrogate"):
        aligner.align(LONE, Y)
    assert "_loaded" not in vars(aligner.encoder)  # refused before any model loads


def test_a_batch_keeps_a_pair_with_a_lone_surrogate_as_a_failure_saying_so(data) -> None:
    """`similarity_many` and `evaluate_sts` kept the pair's place, as they do for any bad pair,
    but its failure read "annotation failed: UnicodeEncodeError: 'utf-8' codec can't encode
    character '\\ud800' in position 12: surrogates not allowed"."""
    batch = paralign.similarity_many([(X, Y), (LONE, Y), (X, Y)])
    assert batch.scores[0] == batch.scores[2] is not None and batch.scores[1] is None
    [failure] = batch.failures
    assert failure.index == 1 and "lone surrogate" in failure.error and "Unicode" not in failure.error
    report = paralign.evaluate_sts([(X, Y, 4.0), (Y, LONE, 2.0), (X, X, 5.0), ("A man eats.", "A cat.", 1.0)])
    [failure] = report.to_dict()["failures"]
    assert failure["index"] == 1 and "lone surrogate" in failure["error"] and report.to_dict()["pairs"] == 3


def test_text_with_control_characters_is_text() -> None:
    """A NUL, BEL or ESC is a character: annotated as any other (the CLI's stderr escapes them,
    the pictures replace them), not refused."""
    sentence = paralign.annotate("the cat\x00 sat\x07 on\x1b the mat")
    assert sentence.tokens[:3] == ("the", "cat\x00", "sat\x07")


@pytest.mark.parametrize(("call", "named"), [
    (lambda a: paralign.annotate_many([X, Y, None]), "items: item 3: "),
    (lambda a: a.annotate([X, 3]), "items: item 2: "),
    (lambda a: a.align_many([(X, Y), (X, ["the", None])]), r"pairs: item 2 \(target\): "),
    (lambda a: a.align_many([(X, Y), (LONE, Y)]), r"pairs: item 2 \(source\): "),
    (lambda a: a.align(X, None), "target: "),
    (lambda a: paralign.get_aligner("exact")("", None), "target: "),
    (lambda a: paralign.similarity(X, 3), "b: "),
], ids=["annotate_many", "Aligner.annotate", "align_many-type", "align_many-surrogate", "align",
        "exact", "similarity"])
def test_a_batch_that_refuses_a_bad_item_names_it(call, named) -> None:
    """The batches that give plain results (`annotate_many`, `Aligner().annotate`, `align_many`)
    refuse a value that is not a sentence before any work, as docs/api.md says, but the
    InputTypeError did not say which of the items it was ("a sentence is a text (str) or a token
    list (list of str), not NoneType None"); nor did `align` and `similarity` say which side.
    The exact aligner returned the empty alignment for ("", None), its blank side read first."""
    aligner = paralign.Aligner()
    with pytest.raises(InputTypeError, match=f"^{named}a sentence is a text"):
        call(aligner)


@needs_torch
def test_the_contextual_aligner_names_the_bad_item() -> None:
    aligner = paralign.Aligner("contextual")
    with pytest.raises(InputTypeError, match=r"^pairs: item 2 \(source\): a sentence is a text"):
        aligner.align_many([(X, Y), (None, Y)])  # type: ignore[list-item]
    with pytest.raises(InputTypeError, match="^target: a sentence is a text"):
        aligner.align(X, LONE)


@pytest.mark.parametrize("call", [
    lambda: paralign.paraeval([X, LONE], [[Y, X]]),
    lambda: paralign.paraeval([X, Y], [[Y, X], [X, LONE]]),
    lambda: paralign.ParaEval().corpus_score([X, LONE], [[Y, X]]),
    lambda: paralign.ParaEval().sentence_score(X, [Y, LONE]),
], ids=["paraeval-hypotheses", "paraeval-references", "paper-corpus", "paper-sentence"])
def test_paraeval_refuses_a_lone_surrogate_naming_the_segment(call) -> None:
    """ParaEval scored a lone surrogate as a word of its own, a number without a complaint
    (0.58 for a hypothesis of the audit), and under the `contextual` config failed in the
    encoder's tokenizer with a TypeError from transformers. It is refused before scoring, as a
    segment that is not a str is, named by its stream and number."""
    with pytest.raises(InputTypeError, match=r"item 2 holds a lone surrogate, '\\ud800' at character 13"):
        call()


def test_a_paraphrase_table_refuses_a_phrase_holding_a_lone_surrogate(tmp_path) -> None:
    """`ParaphraseTable.from_pairs` and `add` took such a phrase; the table then failed far away,
    with a UnicodeEncodeError from `to_tsv` (writing it) or from a ParaEval scorer given it as a
    source (hashing it for the signature). from_pairs names the row, as it names a row that is
    not two str; add says what the phrase is."""
    with pytest.raises(paralign.FormatError, match=r"^row 2 is .*lone surrogate, '\\ud800' at character 3"):
        paralign.ParaphraseTable.from_pairs([("a man", "a guy"), ("a \ud800", "x", 0.5)])
    with pytest.raises(paralign.FormatError, match=r"^row 1 is .*lone surrogate, '\\udc80'"):
        paralign.ParaphraseTable.from_pairs([["x", "y\udc80"]])
    table = paralign.ParaphraseTable.from_pairs([("a man", "a guy")])
    with pytest.raises(InputTypeError, match="lone surrogate"):
        table.add("a man", "a \udcff")
    table.to_tsv(tmp_path / "table.tsv")  # the table is as it was
    assert dict(paralign.ParaphraseTable.from_tsv(tmp_path / "table.tsv").paraphrases("a man")) == {"a guy": None}
