"""Alignment scores: conventions on hand examples, properties, and the published anchors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paralign.alignment import Alignment
from paralign.corpora import AlignedPair
from paralign.errors import AlignmentIndexError, MismatchError
from paralign.metrics.alignment_scores import (
    EmptyScoringError,
    PairCounts,
    render_scores,
    score_alignments,
    score_files,
    score_pairs,
)

A = Alignment.from_links


def test_macro_is_f1_of_mean_precision_and_recall() -> None:
    gold = [A([(0, 0), (1, 1)]), A([(0, 0), (1, 1), (2, 2), (3, 3)])]
    system = [A([(0, 0)]), A([(0, 0), (1, 1), (2, 2), (3, 3), (0, 1), (1, 0), (2, 3), (3, 2)])]
    scores = score_alignments(gold, system)
    # pair 1: P 1, R 1/2; pair 2: P 1/2, R 1 -> means 3/4, 3/4; F1 of means 3/4
    assert scores.macro.precision == pytest.approx(0.75)
    assert scores.macro.recall == pytest.approx(0.75)
    assert scores.macro.f1 == pytest.approx(0.75)
    mean_pair_f1 = sum(p.f1 for p in scores.per_pair) / 2
    assert mean_pair_f1 == pytest.approx(2 / 3) and scores.macro.f1 != pytest.approx(mean_pair_f1)
    # micro: 5 correct of 9 system links, of 6 gold links
    assert scores.micro.precision == pytest.approx(5 / 9)
    assert scores.micro.recall == pytest.approx(5 / 6)
    assert scores.micro.f1 == pytest.approx(2 * (5 / 9) * (5 / 6) / (5 / 9 + 5 / 6))
    assert scores.exact_count == 0 and scores.exact == 0


def test_empty_pairs_conventions() -> None:
    """Empty system: precision 1 (jacana); empty gold: recall 1; both empty: exact."""
    gold = [A([(0, 0), (1, 1)]), A(), A()]
    system = [A(), A([(0, 0)]), A()]
    scores = score_alignments(gold, system)
    assert [p.precision for p in scores.per_pair] == [1.0, 0.0, 1.0]
    assert [p.recall for p in scores.per_pair] == [0.0, 1.0, 1.0]
    assert [p.exact for p in scores.per_pair] == [False, False, True]
    assert scores.macro.precision == pytest.approx(2 / 3)
    assert scores.micro.precision == 0.0 and scores.micro.recall == 0.0 and scores.micro.f1 == 0.0


def test_gold_link_sets_and_aer() -> None:
    gold = [Alignment.from_links(sure=[(0, 0), (1, 1)], possible=[(2, 2)])]
    system = [A([(0, 0), (2, 2), (2, 3)])]
    sure = score_alignments(gold, system, "sure")
    both = score_alignments(gold, system, "sure+possible")
    assert sure.per_pair[0] == PairCounts(2, 3, 1, 2, 1, 2, False)
    assert (sure.macro.precision, sure.macro.recall) == pytest.approx((1 / 3, 1 / 2))
    assert (both.macro.precision, both.macro.recall) == pytest.approx((2 / 3, 2 / 3))
    # AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|) = 1 - (1 + 2) / (3 + 2), whatever `links` says
    assert sure.aer == pytest.approx(0.4) and both.aer == pytest.approx(0.4)
    exact = score_alignments(gold, [A([(0, 0), (1, 1), (2, 2)])], "sure+possible")
    assert exact.exact == 1.0 and exact.aer == 0.0


def test_system_possible_links_count_as_predicted() -> None:
    gold = [A([(0, 0), (1, 1)])]
    system = [Alignment.from_links(sure=[(0, 0)], possible=[(1, 1)])]
    assert score_alignments(gold, system).exact == 1.0


def test_to_dict_shape_and_text() -> None:
    result = score_alignments([A([(0, 0)])], [A([(0, 0), (1, 1)])]).to_dict(per_pair=True)
    assert {"pairs", "macro", "micro", "exact", "aer", "exact_count", "links"} <= set(result)
    assert set(result["macro"]) == set(result["micro"]) == {"precision", "recall", "f1"}
    assert result["pairs"] == 1 and result["per_pair"][0]["correct"] == 1
    text = render_scores(result)
    assert "macro" in text and "50.0" in text and "AER" in text


def test_errors() -> None:
    with pytest.raises(MismatchError, match="2 gold alignments but 1"):
        score_alignments([A(), A()], [A()])
    with pytest.raises(EmptyScoringError):
        score_alignments([], [])
    with pytest.raises(ValueError, match="unknown link set"):
        score_alignments([A()], [A()], links="possible-only")


def test_score_pairs_checks_fit() -> None:
    gold = [AlignedPair("g1", ("a", "b"), ("c",), A([(0, 0)]), line=3)]
    with pytest.raises(AlignmentIndexError, match=r"sys.txt:5:.*'s1'.*2-0"):
        score_pairs(gold, [AlignedPair("s1", (), (), A([(2, 0)]), line=5)], system_name="sys.txt")
    with pytest.raises(MismatchError, match="'s1' has 1\\+1 tokens.*'g1'"):
        score_pairs(gold, [AlignedPair("s1", ("a",), ("c",), A(), line=5)])
    with pytest.raises(MismatchError, match="sys.txt has 0 pairs but gold.json has 1"):
        score_pairs(gold, [], gold_name="gold.json", system_name="sys.txt")
    lower = [AlignedPair("1", ("A", "B"), ("C",), A([(0, 0)]))]
    assert score_pairs(gold, lower).exact == 1.0


alignments = st.builds(
    lambda s, p: Alignment(s, p),
    st.frozensets(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=12),
    st.frozensets(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=12),
)


@given(st.lists(st.tuples(alignments, alignments), min_size=1, max_size=8),
       st.sampled_from(["sure", "sure+possible"]))
def test_scores_are_proportions_derived_from_pair_counts(pairs, links: str) -> None:
    gold, system = zip(*pairs, strict=True)
    scores = score_alignments(list(gold), list(system), links)
    result = scores.to_dict()
    for key in ("macro", "micro"):
        for value in result[key].values():
            assert 0.0 <= value <= 1.0
    assert 0.0 <= result["exact"] <= 1.0 and 0.0 <= result["aer"] <= 1.0
    n = len(pairs)
    assert scores.macro.precision == pytest.approx(sum(p.precision for p in scores.per_pair) / n)
    perfect = score_alignments(list(gold), [g if links == "sure+possible" else Alignment(g.sure) for g in gold], links)
    assert perfect.exact == 1.0 and perfect.macro.f1 == 1.0 and perfect.micro.f1 == 1.0


# -- anchors from the corpus READMEs (jacana's published figures) -----------------------------
MSR_GOLD = "msr-rte2/converted/RTE2_test_M.align.json"
EDI_GOLD = "edinburgh-pp/gold/gold.test.sure.json"
ANCHORS = [
    # gold, system, macro P, R, F1, exact count (None: not published)
    (MSR_GOLD, "msr-rte2/baselines/giza/RTE2_test_M.align.giza.intersect.txt", 82.5, 74.4, 78.3, 112),
    (MSR_GOLD, "msr-rte2/baselines/giza/RTE2_test_M.align.giza.intersect.json", 82.5, 74.4, 78.3, 112),
    (MSR_GOLD, "msr-rte2/baselines/giza/RTE2_test_M.align.giza.grow-diag-final.txt", 22.6, 87.9, 36.0, 0),
    (MSR_GOLD, "msr-rte2/baselines/giza/RTE2_test_M.align.giza.grow-diag-final.json", 23.0, 85.1, 36.2, 0),
    (MSR_GOLD, "msr-rte2/baselines/berkeley/RTE2_test_M.align.berkeley-unsupervised.txt", 39.9, 64.8, 49.4, 3),
    (MSR_GOLD, "msr-rte2/baselines/ted/RTE2_test_M.align.ted.txt", 79.9, 79.0, 79.4, 106),
    (MSR_GOLD, "msr-rte2/baselines/meteor/msr06-meteor.macacc.json", 82.5, 81.2, 81.9, 120),
    (MSR_GOLD, "msr-rte2/baselines/itg/msr.s2t.sitg.json", 84.8, 84.8, 84.8, 173),
    (EDI_GOLD, "edinburgh-pp/baselines/giza/edinburgh.align.giza.intersect.json", 89.7, 81.7, 85.5, 40),
    (EDI_GOLD, "edinburgh-pp/baselines/giza/edinburgh.align.giza.grow-diag-final.json", 65.7, 90.2, 76.0, 20),
    (EDI_GOLD, "edinburgh-pp/baselines/giza/edinburgh.align.giza.union.json", 63.4, 91.3, 74.8, 19),
    (EDI_GOLD, "edinburgh-pp/baselines/meteor/edinburgh-meteor.macacc.json", 88.3, 80.5, 84.2, None),
    (EDI_GOLD, "edinburgh-pp/baselines/ted/edinburgh.test.align.ted.json", 82.0, 60.7, 69.8, None),
    (EDI_GOLD, "edinburgh-pp/baselines/itg/edinburgh.s2t.sitg.json", 90.0, 72.7, 80.4, 23),
]


@pytest.mark.data
@pytest.mark.parametrize(("gold", "system", "p", "r", "f1", "exact"), ANCHORS,
                         ids=[Path(a[1]).name for a in ANCHORS])
def test_published_anchors(data: Path, gold: str, system: str, p: float, r: float, f1: float,
                           exact: int | None) -> None:
    root = data / "alignment"
    scores = score_files(root / gold, root / system, "sure")
    macro = scores.macro
    assert 100 * macro.precision == pytest.approx(p, abs=0.05 + 1e-9)
    assert 100 * macro.recall == pytest.approx(r, abs=0.05 + 1e-9)
    assert 100 * macro.f1 == pytest.approx(f1, abs=0.05 + 1e-9)
    if exact is not None:
        assert scores.exact_count == exact


@pytest.mark.data
def test_msr_giza_intersection_micro(data: Path) -> None:
    """README: micro 84.8/74.7/79.4 for GIZA++ intersection on MSR test."""
    root = data / "alignment"
    micro = score_files(root / MSR_GOLD, root / ANCHORS[0][1]).micro
    assert [round(100 * v, 1) for v in (micro.precision, micro.recall, micro.f1)] == [84.8, 74.7, 79.4]


def test_aligned_pairs_are_accepted() -> None:
    pair = AlignedPair("p", ("a",), ("a",), A([(0, 0)]))
    assert score_alignments([pair], [A([(0, 0)])]).exact == 1.0
