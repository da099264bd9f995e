"""Alignment scores: properties a researcher relies on (Och & Ney's AER, micro = one concatenated
pair, swapping system and gold, order and duplication, the bootstrap's point estimate).

test_alignment_scores.py holds the hand examples and the bounds / perfect-system property."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.alignment import Alignment
from paralign.metrics.alignment_scores import macro_f1_confidence, score_alignments

LINKS = st.frozensets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=10)
SURE_ONLY = LINKS.map(lambda links: Alignment(links, links))
GOLD = st.builds(lambda s, p: Alignment(s, p), LINKS, LINKS)
LINK_SETS = st.sampled_from(["sure", "sure+possible"])


def _shifted(a: Alignment, by: int) -> Alignment:
    return Alignment(frozenset((i + by, j + by) for i, j in a.sure),
                     frozenset((i + by, j + by) for i, j in a.possible))


def _concatenated(alignments: list[Alignment]) -> Alignment:
    """The pairs as one pair: pair k's links moved past every earlier pair's (indices < 6)."""
    sure: set = set()
    possible: set = set()
    for k, a in enumerate(alignments):
        moved = _shifted(a, 6 * k)
        sure |= moved.sure
        possible |= moved.possible
    return Alignment(frozenset(sure), frozenset(possible))


def _och_ney_aer(gold: Alignment, system: Alignment) -> float:
    """AER from the sets, as Och & Ney (2003) write it: 1 - (|A∩S| + |A∩P|) / (|A| + |S|)."""
    a, s, p = system.possible, gold.sure, gold.possible
    if not a and not s:
        return 0.0
    return 1 - (len(a & s) + len(a & p)) / (len(a) + len(s))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(GOLD, GOLD), min_size=1, max_size=6), LINK_SETS)
def test_micro_scores_and_aer_are_those_of_the_concatenated_corpus(pairs, links):
    gold, system = (list(side) for side in zip(*pairs, strict=True))
    corpus = score_alignments(gold, system, links)
    one = score_alignments([_concatenated(gold)], [_concatenated(system)], links)
    assert corpus.micro == pytest.approx(one.micro)
    assert one.macro == pytest.approx(one.micro)  # one pair: macro is micro
    assert corpus.aer == pytest.approx(one.aer)
    assert corpus.aer == pytest.approx(_och_ney_aer(_concatenated(gold), _concatenated(system)))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(SURE_ONLY, SURE_ONLY), min_size=1, max_size=6))
def test_swapping_system_and_gold_swaps_precision_and_recall(pairs):
    gold, system = (list(side) for side in zip(*pairs, strict=True))
    forward, backward = score_alignments(gold, system), score_alignments(system, gold)
    for level in ("macro", "micro"):
        there, back = getattr(forward, level), getattr(backward, level)
        assert (there.precision, there.recall) == pytest.approx((back.recall, back.precision))
        assert there.f1 == pytest.approx(back.f1)
    assert forward.exact == backward.exact


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(GOLD, st.data()), min_size=1, max_size=6), LINK_SETS)
def test_a_system_between_sure_and_possible_has_aer_zero(items, links):
    """Och & Ney: any A with S ⊆ A ⊆ P scores AER 0; the gold itself (sure+possible) too."""
    gold = [g for g, _ in items]
    system = []
    for g, data in items:
        extra = data.draw(st.frozensets(st.sampled_from(sorted(g.possible)), max_size=6)
                          if g.possible else st.just(frozenset()))
        system.append(Alignment(g.sure | extra))
    assert score_alignments(gold, system, links).aer == pytest.approx(0.0, abs=1e-12)
    perfect = score_alignments(gold, gold, links)
    assert perfect.aer == pytest.approx(0.0, abs=1e-12)
    if links == "sure+possible":
        assert perfect.micro.precision == perfect.micro.recall == perfect.micro.f1 == 1.0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(SURE_ONLY, GOLD), min_size=1, max_size=6))
def test_with_sure_links_only_aer_is_one_minus_micro_f1(pairs):
    """Och & Ney: when the gold has no possible links (S = P), AER = 1 - F over the corpus
    (defined when system or gold has a link)."""
    gold, system = (list(side) for side in zip(*pairs, strict=True))
    scores = score_alignments(gold, system)
    if any(g.sure for g in gold) or any(s.possible for s in system):
        assert scores.aer == pytest.approx(1 - scores.micro.f1)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(GOLD, GOLD), min_size=1, max_size=6), LINK_SETS, st.randoms(use_true_random=False))
def test_scores_ignore_the_order_of_pairs_and_a_corpus_repeated(pairs, links, rng):
    gold, system = (list(side) for side in zip(*pairs, strict=True))
    scores = score_alignments(gold, system, links).to_dict()
    order = list(range(len(pairs)))
    rng.shuffle(order)
    shuffled = score_alignments([gold[k] for k in order], [system[k] for k in order], links).to_dict()
    twice = score_alignments(gold * 2, system * 2, links).to_dict()
    for other in (shuffled, twice):
        for key in ("macro", "micro"):
            assert other[key] == pytest.approx(scores[key])
        assert other["exact"] == pytest.approx(scores["exact"])
        assert other["aer"] == pytest.approx(scores["aer"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(GOLD, GOLD), min_size=2, max_size=6), LINK_SETS)
def test_macro_f1_confidence_reports_the_macro_f1_and_repeats_with_its_seed(pairs, links):
    gold, system = (list(side) for side in zip(*pairs, strict=True))
    scores = score_alignments(gold, system, links)
    found = macro_f1_confidence(scores.per_pair, n_resamples=50, seed=3)
    assert found.score == pytest.approx(scores.macro.f1)
    assert 0.0 <= found.mean <= 1.0 and found.ci >= 0.0
    assert found == macro_f1_confidence(scores.per_pair, n_resamples=50, seed=3)
