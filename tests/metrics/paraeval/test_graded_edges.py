"""Graded ParaEval at its edges (metrics.paraeval.configs, graded): what an audit found."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError
from paralign.metrics.paraeval.configs import Config


def test_a_tier_named_twice_is_refused():
    # each mention added the tier's weighted matches once more: "the cat sat" against "the cat
    # sat down" had precision 2.0 and recall 1.75 under tiers exact+exact
    with pytest.raises(ConfigurationError, match="'exact' is named twice"):
        Config("x", tiers=("exact", "stem", "exact"), resources=())


def test_tiers_out_of_their_order_are_refused():
    # TIER_ORDER is the order the tiers run in; the scorer ran them as given, so paraphrase+exact
    # matched "cat" to "kitty" (0.3) before "cat" could match "cat" (0.4 in the order)
    from paralign.metrics.paraeval.graded import GradedParaEval
    from paralign.paraphrases import ParaphraseTable

    with pytest.raises(ConfigurationError, match="run in the order exact, stem, synonym, paraphrase, contextual: "
                                                 "give paraphrase\\+exact as exact\\+paraphrase"):
        Config("x", tiers=("paraphrase", "exact"), resources=())
    table = ParaphraseTable.from_pairs([("cat", "kitty", 0.5)], "t")
    found = GradedParaEval(Config("x", tiers=("exact", "paraphrase"), resources=()), [table]).explain(
        "cat kitty", ["kitty cat"])
    assert [m.tier for m in found.matches] == ["exact", "exact"]


@pytest.mark.parametrize(("hyp", "refs"), [
    ("", ["a b c d", "x"]),  # nothing matches: every reference scores 0
    ("biker suffers leg injury", ["biker suffers leg injuries", "biker suffers leg injury"]),  # stem 1 = exact 1
    ("the dog", ["a cat", "big red car"]),
])
def test_the_best_reference_does_not_depend_on_the_order_of_the_references(hyp, refs):
    import numpy as np

    from paralign.metrics.paraeval.graded import COLUMNS, GradedParaEval, score_parts

    config = Config("x", tiers=("exact", "stem"), resources=()).with_(weights={"stem": 1.0})
    scorer = GradedParaEval(config, [])
    forward = scorer.segment_stats([hyp], [[r] for r in refs])[0]
    backward = scorer.segment_stats([hyp], [[r] for r in reversed(refs)])[0]
    assert np.array_equal(forward, backward)  # the first of tied references was taken
    assert score_parts(forward, config)["score"] == max(
        score_parts(scorer.segment_stats([hyp], [[r]])[0], config)["score"] for r in refs)
    explained = scorer.explain(hyp, list(reversed(refs)))
    assert explained.stats == tuple(forward)  # the explanation takes the same reference
    if not hyp:  # a tie of scores: the reference of fewest words, as sacrebleu's BLEU
        assert forward[COLUMNS.index("ref_content")] + forward[COLUMNS.index("ref_function")] == 1
    if "leg" in hyp:  # then more weight in the earlier tiers: the exact match
        assert forward[COLUMNS.index("exact_hc")] == 4


@pytest.mark.parametrize(("changes", "message"), [
    ({"beta": float("nan")}, "beta must be a number >= 0, got nan"),  # a segment score of NaN
    ({"system_beta": float("nan")}, "system_beta must be a number >= 0"),  # a corpus score of NaN
    ({"system_beta": -1.0}, "system_beta must be"),  # the message named beta
    ({"weights": {"exact": 2.0}}, "the weight of tier 'exact' must be in \\[0, 1\\], got 2.0"),  # precision 2
    ({"weights": {"exact": float("nan")}}, "the weight of tier 'exact'"),  # P and R NaN, score 0
    ({"weights": {"exct": 1.0}}, "weight of unknown ParaEval tier 'exct'"),  # ignored
    ({"weights": (("exact", 1.0),)}, "tier 'stem' has no weight"),  # a KeyError when scoring
    ({"threshold": float("nan")}, "threshold must be a cosine"),  # no contextual match, silently
])
def test_a_config_of_impossible_numbers_is_refused(changes, message):
    with pytest.raises(ConfigurationError, match=message):
        Config("x", tiers=("exact", "stem"), resources=()).with_(**changes)


_WORDS = ("a", "b", "c", "x", "y", "z", "w", "dog", "dogs", "hound", "big", "the", "q", "r")
_TEXT = st.lists(st.sampled_from(_WORDS), max_size=6).map(" ".join)


def _table_scorer():
    from paralign.metrics.paraeval.graded import GradedParaEval
    from paralign.paraphrases import ParaphraseTable

    table = ParaphraseTable.from_pairs([("b c", "y", 1.0), ("x", "z w", 0.5), ("dog", "hound", 1.0),
                                        ("big dog", "hound", 0.7), ("r q", "q r", 1.0)], "t")
    return GradedParaEval(Config("x", tiers=("exact", "stem", "paraphrase"), resources=()), [table])


_SCORER = _table_scorer()


@settings(max_examples=400, deadline=None)
@given(_TEXT, _TEXT)
def test_the_alignment_against_a_brute_force_reading_of_its_matches(hyp, ref):
    from collections import Counter

    from paralign.metrics.paraeval.graded import COLUMNS

    found = _SCORER.explain(hyp, [ref])
    row = dict(found.counts)
    matches = sorted(found.matches, key=lambda m: m.hyp_start)
    hyp_words = [i for m in matches for i in range(m.hyp_start, m.hyp_end)]
    ref_words = [j for m in matches for j in range(m.ref_start, m.ref_end)]
    assert len(hyp_words) == len(set(hyp_words)) and len(ref_words) == len(set(ref_words))  # each word once
    assert (row["matches"], row["ref_matches"]) == (len(hyp_words), len(ref_words))
    # the exact tier matches as many words as identity can (it runs first)
    exact = sum(m.hyp_end - m.hyp_start for m in matches if m.tier == "exact")
    assert exact == sum(min(n, Counter(ref.split())[w]) for w, n in Counter(hyp.split()).items())
    # a chunk: matches adjacent in both sides, in order (a phrase match is one run)
    runs: list[list] = []
    for m in matches:
        if runs and runs[-1][-1].hyp_end == m.hyp_start and runs[-1][-1].ref_end == m.ref_start:
            runs[-1].append(m)
        else:
            runs.append([m])
    assert row["chunks"] == len(runs)
    assert found.chunks == tuple((run[0].hyp_start, run[-1].hyp_end) for run in runs)
    for tier in ("exact", "stem", "paraphrase"):  # the row's grades are the matches'
        side = [(m.hyp_end - m.hyp_start) * m.grade for m in matches if m.tier == tier]
        assert row[f"{tier}_hc"] + row[f"{tier}_hf"] == pytest.approx(sum(side))
    assert len(COLUMNS) == len(found.counts)


@pytest.mark.parametrize(("hyp", "ref", "chunks"), [
    ("", "a b", 0), ("a", "a", 1), ("a b c", "a b c", 1), ("c b a", "a b c", 3), ("a b c", "x a b y c", 2),
])
def test_chunks_at_their_edges(hyp, ref, chunks):
    from paralign.metrics.paraeval.graded import COLUMNS, score_parts

    row = _SCORER.segment_stats([hyp], [[ref]])[0]
    assert row[COLUMNS.index("chunks")] == chunks
    parts = score_parts(row, _SCORER.config)
    if hyp == ref:  # identical: the maximum, no penalty
        assert parts["score"] == 1.0 and parts["penalty"] == 0.0
    if not hyp:  # nothing matched: every figure 0 (an empty hypothesis's precision is 0)
        assert parts["p"] == parts["score"] == 0.0


class _Layered:
    """An encoder as the signature sees it (nothing is encoded: only the signature is read)."""

    model = "fake"

    def __init__(self, word_layer: int = -1, stride: int | None = None) -> None:
        self.word_layer, self.stride = word_layer, stride


def test_the_signature_records_the_encoders_layer_and_stride_where_they_are_not_its_defaults():
    # Encoder(word_layer=2) gave other contextual matches (0.599 where the last layer gives
    # 0.650 on two WMT-like segments) under the same signature
    from paralign.metrics.paraeval.graded import GradedParaEval

    config = Config("ctx", tiers=("exact", "contextual"), resources=())

    def signature(encoder: _Layered) -> str:
        return GradedParaEval(config, [], encoder=encoder, cache_vectors=False).signature(1)

    assert "|encoder:fake|version:" in signature(_Layered())
    assert "|encoder:fake|layer:2|version:" in signature(_Layered(word_layer=2))
    assert "|encoder:fake|stride:64|version:" in signature(_Layered(stride=64))
    assert len({signature(_Layered()), signature(_Layered(2)), signature(_Layered(stride=64))}) == 3


def test_segment_corpus_and_bootstrap_figures_come_from_the_same_rows():
    # sacrebleu's model: a segment's row does not depend on the other segments of the call, the
    # corpus score is the score of the summed rows, and the bootstrap's point estimate is it too
    import random

    import numpy as np

    from paralign.metrics.paraeval.graded import score_parts
    from paralign.metrics.paraeval.scoring import system_scores, systems_significance

    rng = random.Random(7)

    def text() -> str:
        return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 6)))

    hyps, first, second = ([text() for _ in range(60)] for _ in range(3))
    rows = _SCORER.segment_stats(hyps, [first, second])
    alone = np.array([_table_scorer().segment_stats([h], [[a], [b]])[0] for h, a, b in zip(hyps, first, second, strict=True)])
    assert np.array_equal(rows, alone)
    result = system_scores(_SCORER, hyps, [first, second], sentence_level=True, with_stats=True)
    assert np.array_equal(result["stats"], rows)
    assert result["score"] == float(score_parts(rows.sum(axis=0), _SCORER.config, "system")["score"])
    assert [s["score"] for s in result["segments"]] == [float(v) for v in score_parts(rows, _SCORER.config)["score"]]
    bootstrap = systems_significance(_SCORER, [rows], n_resamples=20)[0]["confidence"]
    assert bootstrap["score"] == result["score"]


@pytest.mark.parametrize("changes", [
    {"delta": 0.5}, {"alpha": 0.5}, {"beta": 0.3}, {"gamma": 0.5}, {"system_alpha": 0.9}, {"system_beta": 0.4},
    {"system_gamma": 0.1}, {"system_delta": 0.4}, {"max_length": 3}, {"synonyms": "lemma"},
    {"tiers": ("exact", "stem", "synonym")}, {"weights": {"exact": 0.9}}, {"weights": {"stem": 0.5}},
    {"weights": {"synonym": 0.5}}, {"weights": {"paraphrase": 0.5}}, {"name": "other"},
])
def test_every_setting_that_changes_a_number_changes_the_signature(changes):
    from paralign.metrics.paraeval.configs import DEFAULT
    from paralign.metrics.paraeval.graded import GradedParaEval
    from paralign.paraphrases import ParaphraseTable, WordNetSynonyms

    table = ParaphraseTable.from_pairs([("big", "large", 0.5), ("took a seat", "sat", 1.0)], "t.tsv")
    signature = GradedParaEval(DEFAULT, [table, WordNetSynonyms()]).signature(1)
    assert GradedParaEval(DEFAULT.with_(**changes), [table, WordNetSynonyms()]).signature(1) != signature


@pytest.mark.parametrize(("score", "grade"), [(0.0, 0.0), (1e-6, 1e-6), (0.5, 0.5), (1.0, 1.0), (3.0, 1.0)])
def test_a_paraphrase_pair_counts_its_probability_down_to_zero(score, grade):
    # a pair scored 0 was given full credit (grade 1), one scored 1e-6 almost none
    from paralign.metrics.paraeval.graded import GradedParaEval
    from paralign.paraphrases import ParaphraseTable

    table = ParaphraseTable.from_pairs([("big", "large", score)], "t")
    found = GradedParaEval(Config("x", resources=()), [table]).explain("a big house", ["a large house"])
    assert [(m.tier, m.grade) for m in found.matches if m.tier == "paraphrase"] == [("paraphrase", grade)]


def test_a_blank_reference_has_no_recall_f_or_score_and_loses_to_a_reference_with_words():
    """A reference of no word gave recall, F and the score 0 (``R 0.0000``), a hypothesis scored
    against nothing read as one that matched nothing; the paper config says n/a there. Now they
    are None (NaN in the scorer's arrays), the precision 0 as before, for a segment and for a
    corpus whose every reference is blank; a corpus of some blank segments is defined. And of two
    references, a blank one tied on 0 with one of words was taken as the shorter, so the
    segment escaped that reference's recall: the one with words is taken now, in either order."""
    from paralign.metrics.paraeval import paraeval

    blank = paraeval(["a cat sat", "the dog"], [["", " "]], resources=["none"], sentence_level=True)
    assert (blank["score"], blank["precision"], blank["recall"], blank["f"]) == (None, 0.0, None, None)
    assert all((s["score"], s["recall"], s["f"]) == (None, None, None) for s in blank["segments"])
    some = paraeval(["a cat sat", "the dog"], [["a cat sat", ""]], resources=["none"], sentence_level=True)
    assert some["recall"] == 1.0 and some["precision"] == pytest.approx(0.6)  # "the dog" counts in P alone
    assert some["segments"][1]["recall"] is None and some["segments"][0]["score"] is not None
    streams = [["a cat sat", ""], ["the cat sat", "a dog barked"]]
    for refs in (streams, streams[::-1]):
        tied = paraeval(["a cat sat", "zzz"], refs, resources=["none"], sentence_level=True)
        second = tied["segments"][1]
        assert second["recall"] == 0.0 and second["counts"]["ref_content"] + second["counts"]["ref_function"] == 3
        assert tied["recall"] == pytest.approx(0.5)  # was 1.0: segment 2 scored against the blank reference
