"""What the graded scorer matched (GradedParaEval.explain, metrics.paraeval.explained): the
explanation is the score's own alignment, so its matches add up to the segment's statistics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.metrics.paraeval.configs import DEFAULT, TIER_ORDER, Config
from paralign.metrics.paraeval.graded import COLUMNS, GradedParaEval, score_parts
from paralign.metrics.paraeval.scoring import system_scores
from paralign.paraphrases import ParaphraseTable

LEXICAL = Config("test", tiers=("exact", "stem", "synonym", "paraphrase"), resources=())
TABLE = ParaphraseTable.from_pairs([("cat", "feline", 0.8), ("took a seat", "sat", 0.5), ("rug", "mat", 0.4)])


class _Encoded:
    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = matrix


class _WordVectors:
    """A stand-in encoder: each word a fixed vector, 'huge' and 'big' close (cosine ~0.98)."""

    model = "words"

    def vector(self, word: str) -> np.ndarray:
        if word in ("huge", "big"):
            return np.array([1.0, 0.2 if word == "huge" else 0.0, 0.0, 0.0, 0.0])
        return np.eye(5)[1 + sum(map(ord, word)) % 4]

    def encode(self, sentences):
        return [_Encoded(np.stack([self.vector(w) for w in s])) for s in sentences]


def _scorers() -> list[GradedParaEval]:
    contextual = LEXICAL.with_(name="ctx", tiers=LEXICAL.tiers + ("contextual",), threshold=0.9)
    return [GradedParaEval(LEXICAL, []), GradedParaEval(LEXICAL, [TABLE]),
            GradedParaEval(DEFAULT.with_(resources=()), [TABLE]),
            GradedParaEval(contextual, [TABLE], encoder=_WordVectors(), cache_vectors=False)]


SEGMENTS = [
    ("the cat sat down on the mat", ["a feline sat on the rug"]),
    ("the cat sat on the mat", ["a dog barked", "the feline sat on a mat", "on the mat the cat sat"]),
    ("", ["an empty hypothesis"]),
    ("a huge house , they said", ["a big house", "the houses are big"]),
    ("bombings happened", ["the bombing happens"]),
    ("mat mat mat", ["the mat"]),
]


def check_adds_up(explained, row: np.ndarray) -> None:
    """The explanation's matches, summed per tier and side (content or function word), and its
    chunks are the statistics row's columns."""
    counts = dict(explained.counts)
    assert tuple(counts) == COLUMNS and np.array_equal(np.array(explained.stats), row)
    sums = dict.fromkeys(COLUMNS, 0.0)
    for m in explained.matches:
        for i in range(m.hyp_start, m.hyp_end):
            sums[f"{m.tier}_{'hc' if explained.content[i] else 'hf'}"] += m.grade
        for j in range(m.ref_start, m.ref_end):
            sums[f"{m.tier}_{'rc' if explained.reference_content[j] else 'rf'}"] += m.grade
    for tier in TIER_ORDER:
        for side in ("hc", "hf", "rc", "rf"):
            assert sums[f"{tier}_{side}"] == pytest.approx(counts[f"{tier}_{side}"], abs=1e-9), (tier, side)
    assert len(explained.chunks) == counts["chunks"]
    assert sum(m.hyp_end - m.hyp_start for m in explained.matches) == counts["matches"]
    assert sum(end - start for start, end in explained.chunks) == counts["matches"]
    assert counts["hyp_content"] + counts["hyp_function"] == len(explained.tokens)
    assert counts["ref_content"] + counts["ref_function"] == len(explained.reference_tokens)


@pytest.mark.parametrize(("hypothesis", "references"), SEGMENTS)
def test_explanation_is_the_segment_row_and_its_scores(hypothesis, references) -> None:
    for scorer in _scorers():
        explained = scorer.explain(hypothesis, references)
        row = scorer.segment_stats([hypothesis], [[text] for text in references])[0]
        check_adds_up(explained, row)
        parts = score_parts(row, scorer.config, "segment")
        assert (explained.precision, explained.recall, explained.f, explained.fmean, explained.score) == (
            float(parts["p"]), float(parts["r"]), float(parts["f"]), float(parts["fmean"]), float(parts["score"]))
        # the command line's --sentence-level figures of that segment
        segment = system_scores(scorer, [hypothesis], [[text] for text in references], True)["segments"][0]
        assert (segment["score"], segment["precision"], segment["recall"]) == (
            explained.score, explained.precision, explained.recall)
        assert len(explained.reference_scores) == len(references)
        assert explained.reference_scores[explained.reference] == max(explained.reference_scores)
        assert explained.reference_tokens == tuple(scorer._words(references[explained.reference]).tokens)


def test_the_library_default_scorer_explains_its_sentence_scores() -> None:
    """``scorer()`` (the default config, PPDB and WordNet: what ``paralign paraeval`` uses) too,
    with its WordNet synonyms by shared synset."""
    from paralign.metrics.paraeval.scoring import scorer
    from paralign.resources import wordnet_senses

    pytest.importorskip("nltk")
    if not wordnet_senses("sit"):
        pytest.skip("WordNet data not found")
    default = scorer()
    for hypothesis, references in [*SEGMENTS, ("he bought two apples", ["he purchased 2 apples", "he paid"])]:
        explained = default.explain(hypothesis, references)
        check_adds_up(explained, default.segment_stats([hypothesis], [[text] for text in references])[0])
    explained = default.explain("the cat sat on the mat", ["a cat was sitting on the mat"])
    assert [(m.tier, explained.tokens[m.hyp_start]) for m in explained.matches if m.tier == "synonym"] == [
        ("synonym", "sat")]


def test_tiers_grades_weights_and_chunks_are_named() -> None:
    scorer = GradedParaEval(LEXICAL, [TABLE])
    explained = scorer.explain("the cat took a seat on the mat", ["the feline sat on the rug"])
    found = {(" ".join(explained.tokens[m.hyp_start:m.hyp_end]),
              " ".join(explained.reference_tokens[m.ref_start:m.ref_end])): (m.tier, m.grade, m.weight)
             for m in explained.matches}
    weight = LEXICAL.weight("paraphrase")
    assert found == {("the", "the"): ("exact", 1.0, 1.0), ("on", "on"): ("exact", 1.0, 1.0),
                     ("cat", "feline"): ("paraphrase", 0.8, weight),
                     ("took a seat", "sat"): ("paraphrase", 0.5, weight), ("mat", "rug"): ("paraphrase", 0.4, weight)}
    tiers = [(span.start, span.end, span.tier, span.matched) for span in explained.spans]
    assert tiers[:3] == [(0, 1, "exact", ("the",)), (1, 2, "paraphrase", ("feline",)),
                         (2, 5, "paraphrase", ("sat",))]
    assert (2, 3, "paraphrase", ("took a seat",)) in [(s.start, s.end, s.tier, s.matched)
                                                      for s in explained.reference_spans]


def test_the_tier_literals_are_the_tiers_the_scorers_give() -> None:
    """TierMatch.tier is typed Tier and MatchedSpan.tier SpanTier (the web app's answers reuse
    them): Tier is the graded tiers in the order they run (TIER_ORDER, the statistics' column
    order), SpanTier those and the paper scorer's (TIERS), with unmatched last."""
    from typing import get_args

    from paralign.metrics.paraeval import TIERS, GradedExplanation, MatchedSpan, TierMatch
    from paralign.metrics.paraeval.configs import Tier
    from paralign.metrics.paraeval.paper_values import SpanTier

    assert TIER_ORDER == get_args(Tier) == ("exact", "stem", "synonym", "paraphrase", "contextual")
    assert get_args(SpanTier) == (*TIER_ORDER, "unmatched") and set(TIERS) <= set(get_args(SpanTier))
    hints = {cls: typing_hints(cls)["tier"] for cls in (TierMatch, MatchedSpan)}
    assert hints == {TierMatch: Tier, MatchedSpan: SpanTier}
    explained = GradedParaEval(LEXICAL, [TABLE]).explain("the feline sat", ["the cat sat"])
    assert isinstance(explained, GradedExplanation)
    assert {m.tier for m in explained.matches} <= set(TIER_ORDER)
    assert {s.tier for s in explained.spans} <= set(get_args(SpanTier))


def typing_hints(cls: type) -> dict:
    """`cls`'s field types, its string annotations resolved in its module."""
    import sys
    from typing import get_type_hints

    return get_type_hints(cls, vars(sys.modules[cls.__module__]))


def test_chunks_are_the_runs_the_penalty_counts() -> None:
    explained = GradedParaEval(LEXICAL, []).explain("the cat sat on the mat", ["on the mat the cat sat"])
    assert explained.chunks == ((0, 1), (1, 3), (3, 4), (4, 5), (5, 6))  # 'cat sat' is the one run of two
    assert explained.penalty == pytest.approx(LEXICAL.gamma * (5 / 6) ** LEXICAL.beta)
    assert explained.score == pytest.approx(explained.fmean * (1 - explained.penalty))


def test_empty_hypothesis_has_no_match_and_scores_zero() -> None:
    explained = GradedParaEval(LEXICAL, []).explain("", ["a reference", "another one"])
    assert explained.matches == () and explained.chunks == () and explained.spans == ()
    assert explained.precision == 0.0 and explained.score == 0.0 and explained.reference == 0
    assert [s.tier for s in explained.reference_spans] == ["unmatched", "unmatched"]


def test_a_segment_needs_a_str_and_references() -> None:
    from paralign.errors import InputTypeError, MismatchError

    scorer = GradedParaEval(LEXICAL, [])
    with pytest.raises(MismatchError):
        scorer.explain("a b", [])
    with pytest.raises(InputTypeError):
        scorer.explain(["a b"], ["a b"])  # type: ignore[arg-type]


words = st.lists(st.sampled_from(["the", "cat", "cats", "sat", "down", "on", "mat", "rug", "a", "feline", "."]),
                 max_size=9).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(words, st.lists(words, min_size=1, max_size=3))
def test_any_segment_explained_adds_up_to_its_row(hypothesis, references) -> None:
    scorer = GradedParaEval(LEXICAL, [TABLE])
    explained = scorer.explain(hypothesis, references)
    check_adds_up(explained, scorer.segment_stats([hypothesis], [[text] for text in references])[0])
    covered = [i for span in explained.spans for i in range(span.start, span.end)]
    assert covered == list(range(len(explained.tokens)))
