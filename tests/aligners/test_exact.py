"""aligners.exact.ExactAligner: the exact-match baseline as an aligner object, so that `align
--aligner exact` and `evaluate-aligner --aligner exact` run it on the path (and the gold) of the
Sultan aligner. Before, the baseline was only a function (`exact_match_aligner`), which
`evaluate_aligner` refused and `paralign align` could not reach."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from paralign._version import __version__
from paralign.aligners import ExactAligner, get_aligner
from paralign.aligners.batch import iter_align_input
from paralign.aligners.evaluation import (
    evaluate_aligner,
    evaluate_aligner_pairs,
    load_gold,
    tune_aligner,
)
from paralign.aligners.exact import exact_match_aligner
from paralign.aligners.registry import aligner_label, is_exact_aligner
from paralign.aligners.signature import alignment_signature, environment_parts
from paralign.corpora.sentence_pairs import InputPair
from paralign.errors import ConfigurationError, InputTypeError
from paralign.metrics.alignment_scores import score_alignments
from paralign.nlp import Annotator, annotate
from paralign.sentence import Sentence

GOLD = Path(__file__).resolve().parents[2] / "examples" / "demo" / "gold.jsonl"


def test_it_aligns_texts_token_lists_and_sentences_as_the_function_does() -> None:
    aligner = ExactAligner()
    x, y = "The cat sat on the mat.", "the cat sat on a mat ."
    expected = exact_match_aligner(annotate(x), annotate(y))
    assert expected.sure
    assert aligner.align(x, y) == aligner(x, y) == expected
    assert aligner.align_sentences(annotate(x), annotate(y)) == expected
    assert aligner.align(["A", "b"], ["b", "a"]).to_pharaoh() == "0-1 1-0"
    assert aligner.align_annotated([(annotate(x), annotate(y))], workers=2) == [expected]
    with pytest.raises(InputTypeError):
        aligner.align_sentences(x, y)  # type: ignore[arg-type]  # a text: align takes those


def test_token_lists_are_kept_exactly_as_the_sultan_aligner_keeps_them() -> None:
    tokens = ["do", "n't", "stop", "-LRB-", "now", "-RRB-"]
    assert ExactAligner().annotate([tokens])[0].tokens == tuple(tokens)


def test_it_is_named_and_signed_as_the_registrys_exact_aligner() -> None:
    """The signature of `align --aligner exact` is similarity's `--aligner exact`'s: `aligner:exact`,
    no `stopwords` part (it reads no stop-word list) and no `sim`."""
    aligner = ExactAligner()
    assert is_exact_aligner(aligner) and is_exact_aligner(aligner.align_sentences)
    assert aligner_label(aligner) == aligner_label(aligner.align_sentences) == "exact"
    assert alignment_signature(aligner) == alignment_signature(get_aligner("exact"))
    assert alignment_signature(aligner).startswith("aligner:exact|spacy:")
    assert "stopwords" not in environment_parts(aligner)


def test_it_travels_to_workers() -> None:
    aligner = ExactAligner()
    assert pickle.loads(pickle.dumps(aligner)) == aligner


def test_evaluate_aligner_scores_it_as_score_alignments_scores_its_alignments() -> None:
    """The figures evaluate-aligner gives the baseline are its alignments on the gold's own
    tokens, scored as any system's."""
    gold = load_gold(GOLD)
    system = [exact_match_aligner(list(p.source), list(p.target)) for p in gold]
    scores = score_alignments([p.alignment for p in gold], system)
    evaluation = evaluate_aligner_pairs(ExactAligner(), GOLD)
    assert [p.system for p in evaluation.pairs] == system
    report = evaluate_aligner(ExactAligner(), GOLD)
    assert (report["macro"], report["exact"], report["aer"]) == \
        (scores.to_dict()["macro"], scores.exact, scores.to_dict()["aer"])
    assert report["signature"] == f"aligner:exact|gold:sure|possible:gold|version:{__version__}"  # no spaCy read


def test_the_align_batch_takes_it() -> None:
    pairs = [InputPair(1, "The cat sat.", "A cat sat."), InputPair(2, None, None, error="bad line"),
             InputPair(3, ["a", "b"], ["b", "a"])]
    results = list(iter_align_input(ExactAligner(), pairs))
    assert [r[3].to_pharaoh() if r[3] is not None else None for r in results] == ["1-1 2-2 3-3", None, "0-1 1-0"]


def test_it_has_nothing_to_tune() -> None:
    """tune_aligner searches the Sultan aligner's ppdb_sim and w: given the baseline, it says so
    before any work (it was an AttributeError on with_params after annotating the gold)."""
    with pytest.raises(ConfigurationError, match="ExactAligner has no parameters to tune.*evaluate_aligner"):
        tune_aligner(ExactAligner(), GOLD)


def test_an_annotator_that_is_not_one_is_named() -> None:
    with pytest.raises(InputTypeError, match="annotator must be a paralign.Annotator"):
        ExactAligner("en_core_web_sm")  # type: ignore[arg-type]  # a model's name


class _Counting(Annotator):
    """An Annotator that counts its full annotations (tagging, parsing) and its tokenisations."""

    def __init__(self) -> None:
        super().__init__()
        self.piped = self.tokenized = 0

    def pipe(self, items, n_process=1):  # type: ignore[no-untyped-def]
        self.piped += 1
        return super().pipe(items, n_process)

    def tokenize(self, texts):  # type: ignore[no-untyped-def]
        self.tokenized += 1
        return super().tokenize(texts)


def test_it_tokenises_texts_and_parses_nothing_for_the_tokens_it_reads() -> None:
    """The exact aligner reads tokens alone: texts get spaCy's tokenizer's tokens, the ones a full
    annotation gives, and token lists no spaCy at all. Before, every sentence was tagged and
    parsed (about 8.5 s of evaluate-aligner on MSR RTE2 test, for the same links)."""
    texts = ["The cat’s toy didn't stop.", "``Yes,'' she said -- twice...", "  a\u200b b  c  ", "U.S. prices: $3.50!"]
    tokens = [["do", "n't", "stop"], ["The", "cat"]]
    counting = _Counting()
    aligner = ExactAligner(counting)
    sentences = aligner.annotate([texts[0], tokens[0], *texts[1:], tokens[1]])
    assert (counting.piped, counting.tokenized) == (0, 1)
    assert [s.tokens for s in sentences] == [annotate(texts[0]).tokens, tuple(tokens[0]),
                                             *(annotate(t).tokens for t in texts[1:]), tuple(tokens[1])]
    aligner.annotate(tokens)
    assert (counting.piped, counting.tokenized) == (0, 1)
    evaluate_aligner(aligner, GOLD)
    assert (counting.piped, counting.tokenized) == (0, 1)  # the warm-up and the gold: tokens given


def test_it_aligns_many_pairs_as_the_other_aligners_do() -> None:
    """ExactAligner had no align_many, which the Sultan and contextual aligners have: code written
    for Aligner().align_many stopped with "'ExactAligner' object has no attribute 'align_many'"
    when given the baseline. It aligns texts, token lists and Sentences as one by one, in order."""
    aligner = ExactAligner()
    sentence = Sentence.plain(["a", "dog", "ran"])
    pairs = [(["The", "cat", "sat", "."], ["A", "cat", "sat", "down", "."]), ("", "A cat ."),
             (sentence, ["A", "dog", "runs"])]
    assert aligner.align_many(pairs) == [aligner.align(s, t) for s, t in pairs]
    assert aligner.align_many(pairs)[0].to_pharaoh() == "1-1 2-2 3-4" and aligner.align_many([]) == []
    with pytest.raises(InputTypeError, match=r"pairs: item 2 \(target\)"):
        aligner.align_many([("a", "b"), ("a", None)])
    with pytest.raises(InputTypeError):
        aligner.align_many([("a", "b", "c")])
