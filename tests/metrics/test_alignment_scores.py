"""Alignment scores: conventions on hand examples, properties, and the published anchors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paralign.alignment import Alignment
from paralign.cli._render import render_scores
from paralign.corpora import AlignedPair, BadPair
from paralign.errors import AlignmentIndexError, ConfigurationError, FormatError, MismatchError
from paralign.metrics.alignment_scores import (
    EmptyScoringError,
    PairCounts,
    score_alignments,
    score_files,
    score_pairs,
    usable_pairs,
)

A = Alignment.from_links
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "alignment"


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
    assert sure.per_pair[0] == PairCounts(2, 3, 1, 2, 1, 2, False, 1)
    assert (sure.macro.precision, sure.macro.recall) == pytest.approx((1 / 3, 1 / 2))
    assert (both.macro.precision, both.macro.recall) == pytest.approx((2 / 3, 2 / 3))
    # AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|) = 1 - (1 + 2) / (3 + 2), whatever `links` says
    assert sure.aer == pytest.approx(0.4) and both.aer == pytest.approx(0.4)
    exact = score_alignments(gold, [A([(0, 0), (1, 1), (2, 2)])], "sure+possible")
    assert exact.exact == 1.0 and exact.aer == 0.0


def test_och_ney_precision_and_recall_are_the_halves_of_aer() -> None:
    """P = |A∩P| / |A| (a possible link claimed is no error), R = |A∩S| / |S| (only sure links
    must be found), over the summed counts, whatever `links` says: bilingual alignment papers'
    figures beside AER, which neither macro nor micro (one gold set for both) gives."""
    gold = [Alignment.from_links(sure=[(0, 0), (1, 1)], possible=[(2, 2)]), A([(0, 0)])]
    system = [A([(0, 0), (2, 2), (2, 3)]), A([(0, 0), (1, 1)])]
    for links in ("sure", "sure+possible"):
        scores = score_alignments(gold, system, links)
        # |A| = 5, |A∩P| = 2 + 1, |S| = 3, |A∩S| = 1 + 1
        assert (scores.och_ney.precision, scores.och_ney.recall) == pytest.approx((3 / 5, 2 / 3))
        assert scores.och_ney.f1 == pytest.approx(2 * 0.6 * (2 / 3) / (0.6 + 2 / 3))
        assert scores.aer == pytest.approx(1 - (3 + 2) / (5 + 3))  # AER = 1 - (P|A| + R|S|) / (|A| + |S|)
        assert scores.to_dict()["och_ney"] == scores.och_ney.to_dict()
    assert "och-ney  60.0   66.7   63.2" in render_scores(scores.to_dict())
    no_possible = score_alignments([A([(0, 0), (1, 1)])], [A([(0, 0), (2, 2)])])
    assert no_possible.och_ney == no_possible.micro  # a gold of sure links only: micro against sure


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


def _keys(typed: type) -> list[str]:
    """A TypedDict's keys in the order they are declared (its bases' first)."""
    return list(typed.__annotations__)


def test_to_dict_has_the_keys_its_typeddicts_declare() -> None:
    """ScoresDict and its parts are what to_dict gives, key for key and in its order (the JSON's):
    mypy checks the keys a caller reads against them, so they must not drift from the dicts."""
    from paralign.metrics.alignment_scores import (
        PairRow,
        PerPairScoresDict,
        PRFDict,
        ScoresDict,
        SkippedPair,
        SkippedRow,
    )

    scores = score_alignments([A([(0, 0)])], [A([(0, 0), (1, 1)])],
                              skipped=[SkippedPair(2, "bad", "gold.jsonl", 2, "g2")], positions=[1])
    result, plain = scores.to_dict(per_pair=True), scores.to_dict()
    assert list(plain) == _keys(ScoresDict) and list(result) == _keys(PerPairScoresDict) == [*plain, "per_pair"]
    assert list(result["macro"]) == list(result["micro"]) == _keys(PRFDict)
    assert list(result["skipped_rows"][0]) == _keys(SkippedRow) and list(result["per_pair"][0]) == _keys(PairRow)


def test_errors() -> None:
    with pytest.raises(MismatchError, match="2 gold alignments but 1"):
        score_alignments([A(), A()], [A()])
    with pytest.raises(EmptyScoringError):
        score_alignments([], [])
    with pytest.raises(ConfigurationError, match="unknown link set"):
        score_alignments([A()], [A()], links="possible-only")
    with pytest.raises(EmptyScoringError, match="^gold.jsonl: no alignments to score"):
        score_alignments([], [], source="gold.jsonl")


def test_score_pairs_checks_fit() -> None:
    gold = [AlignedPair("g1", ("a", "b"), ("c",), A([(0, 0)]), line=3)]
    strict = {"skip_bad": False}
    with pytest.raises(AlignmentIndexError, match=r"sys.txt:5:.*'s1'.*2-0"):
        score_pairs(gold, [AlignedPair("s1", (), (), A([(2, 0)]), line=5)], system_name="sys.txt",
                    **strict)
    with pytest.raises(MismatchError, match="'s1' has 1\\+1 tokens.*'g1'"):
        score_pairs(gold, [AlignedPair("s1", ("a",), ("c",), A(), line=5)], **strict)
    with pytest.raises(MismatchError, match="sys.txt has 0 pairs but gold.json has 1"):
        score_pairs(gold, [], gold_name="gold.json", system_name="sys.txt")
    with pytest.raises(MismatchError, match="sys.txt has 1 pair but gold.json has 0$"):  # not '1 pairs'
        score_pairs([], gold, gold_name="gold.json", system_name="sys.txt")
    lower = [AlignedPair("1", ("A", "B"), ("C",), A([(0, 0)]))]
    assert score_pairs(gold, lower).exact == 1.0


def test_score_pairs_skips_misfits_on_both_sides() -> None:
    """A pair that does not fit, or a BadPair on either side, is left out, and the rest scored."""
    gold = [AlignedPair(f"g{k}", ("a", "b"), ("c",), A([(0, 0)]), line=k) for k in range(1, 6)]
    unreadable = BadPair("2", FormatError("malformed link 'x-4'", source="sys.txt", line=2))
    system = [
        AlignedPair("1", (), (), A([(0, 0)]), line=1),
        unreadable,
        AlignedPair("3", (), (), A([(2, 0)]), line=3),  # outside the gold sentences
        AlignedPair("4", ("a",), ("c",), A(), line=4),  # other token counts
        AlignedPair("5", (), (), A([(1, 0)]), line=5),
    ]
    scores = score_pairs(gold, system, gold_name="gold.json", system_name="sys.txt")
    assert scores.pairs == 2 and scores.positions == (1, 5) and scores.exact_count == 1
    assert [(s.pair, s.id, s.source, s.line) for s in scores.skipped] == [
        (2, "g2", "sys.txt", 2), (3, "g3", "sys.txt", 3), (4, "g4", "sys.txt", 4)]
    assert scores.skipped[0].reason == "malformed link 'x-4'"
    assert str(scores.skipped[0]) == "sys.txt:2: malformed link 'x-4'; pair 2 (gold 'g2') skipped"
    assert "1+1 tokens" in scores.skipped[2].reason and not scores.skipped[2].reason.startswith("sys")
    result = scores.to_dict(per_pair=True)
    assert result["skipped"] == 3 and result["skipped_rows"][1]["file"] == "sys.txt"
    assert [p["pair"] for p in result["per_pair"]] == [1, 5]
    bad_gold = [BadPair("1", FormatError("invalid JSON", source="gold.json", line=1)), *gold[1:]]
    scores = score_pairs(bad_gold, [system[0], *[system[4]] * 4])
    assert scores.pairs == 4 and scores.skipped[0].source == "gold.json"
    with pytest.raises(FormatError, match="sys.txt:2: malformed"):
        score_pairs(gold, system, skip_bad=False)


def test_score_pairs_with_every_pair_bad_is_an_error() -> None:
    gold = [AlignedPair("g1", ("a",), ("c",), A(), line=1)]
    bad = [BadPair("1", FormatError("malformed link 'x'", source="sys.txt", line=1))]
    with pytest.raises(EmptyScoringError, match=r"gold.json / sys.txt: no pair could be scored.*"
                       r"sys.txt:1: malformed link 'x'"):
        score_pairs(gold, bad, gold_name="gold.json", system_name="sys.txt")
    with pytest.raises(EmptyScoringError, match="^gold.json / sys.txt: no alignments to score"):
        score_pairs([], [], gold_name="gold.json", system_name="sys.txt")


def test_score_files_skips_a_bad_gold_line(tmp_path: Path) -> None:
    lines = (EXAMPLES / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([lines[0], '{"id": "broken"', *lines[1:]]) + "\n", encoding="utf-8")
    system = tmp_path / "sys.pharaoh"
    system.write_text("\n".join(["0-0", "0-0", "0-3 2-6 3-0 4-1 5-7", "0-0"]) + "\n", encoding="utf-8")
    scores = score_files(gold, system)
    assert scores.pairs == 3 and [s.pair for s in scores.skipped] == [2]
    assert scores.skipped[0].source == str(gold) and scores.skipped[0].line == 2
    assert scores.per_pair[1].exact  # ex2 still meets its own system line


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


def test_usable_pairs_keeps_positions() -> None:
    good = AlignedPair("a", ("x",), ("y",), A([(0, 0)]), line=1)
    bad = BadPair("2", FormatError("invalid JSON", source="g.jsonl", line=2))
    pairs, positions, skipped = usable_pairs([bad, good])
    assert pairs == [good] and positions == [2]
    assert [(s.pair, s.source, s.line, s.reason) for s in skipped] == [(1, "g.jsonl", 2, "invalid JSON")]
    scores = score_alignments(pairs, [A([(0, 0)])], positions=positions, skipped=skipped)
    assert scores.to_dict(per_pair=True)["per_pair"][0]["pair"] == 2 and scores.to_dict()["skipped"] == 1


def test_items_that_are_not_alignments_are_named() -> None:
    """API audit C8: score_alignments(['0-0'], ['0-0']) was "'str' object has no attribute 'links'"."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=r"gold: item 1 is str '0-0', not an Alignment \(Alignment.from_pharaoh"):
        score_alignments(["0-0"], ["0-0"])
    with pytest.raises(InputTypeError, match="system: item 2 is NoneType"):
        score_alignments([Alignment.from_pharaoh("0-0")] * 2, [Alignment.from_pharaoh("0-0"), None])
    # a long value is cut as every message quotes one (errors.shown_value): marked "...", not cut mid-way
    with pytest.raises(InputTypeError, match=r"gold: item 1 is str '0-0 1-1 2-2 3-3 4-4 5-5 6-6 7-7 8-8 \.\.\., not an"):
        score_alignments([" ".join(f"{k}-{k}" for k in range(20))], ["0-0"])


def test_alignments_that_are_not_a_list_are_named() -> None:
    """API audit: `score_alignments(None, None)` was "'NoneType' object is not iterable" from
    inside, and one Pharaoh str was read as its characters ('item 1 is str '0'')."""
    from paralign.errors import InputTypeError
    from paralign.metrics.alignment_scores import score_alignments

    with pytest.raises(InputTypeError, match="gold must be a list of Alignments, not NoneType None"):
        score_alignments(None, None)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="gold must be a list of Alignments, not str '0-0'"):
        score_alignments("0-0", "0-0")  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "error", "said"), [
    ({"skipped": "x"}, "InputTypeError", r"skipped must be a list of SkippedPair records, not str 'x'"),
    ({"skipped": [None]}, "InputTypeError", r"skipped: item 1 is NoneType None, not a SkippedPair \(SkippedPair.of "),
    ({"positions": "2"}, "InputTypeError", r"positions must be a list of 1-based pair numbers, not str '2'"),
    ({"positions": [0]}, "ConfigurationError", r"positions: item 1 must be at least 1, got 0"),
    ({"positions": [1.5]}, "ConfigurationError", r"positions: item 1 must be a whole number \(at least 1\), not float"),
])
def test_skipped_and_positions_are_checked_as_the_other_arguments(options, error, said) -> None:
    """API audit: skipped="x" was taken as one skipped "pair" 'x' (to_dict then failed with an
    AttributeError), positions="2" as the position '2', a position of 0 or 1.5 as it was."""
    import paralign.errors

    with pytest.raises(getattr(paralign.errors, error), match=f"^{said}"):
        score_alignments([A([(0, 0)])], [A([(0, 0)])], **options)
    scores = score_alignments([A([(0, 0)])], [A([(0, 0)])], positions=(p for p in [3]), skipped=())
    assert scores.positions == (3,)  # any iterable of whole numbers, read once


def test_a_system_tokenised_otherwise_than_the_gold_is_named_once_for_the_file() -> None:
    """Pharaoh lines of `paralign align` on a TSV of MSR RTE2 test's sentences (spaCy's tokens,
    not the gold's) had 224 of 800 pairs skipped, each 'link 28-8 outside the gold sentences of
    27 and 9 tokens', and the other 576 scored, which may be misindexed too: nothing said why.
    A file-level warning now asks whether the system was tokenised as the gold was."""
    gold = [AlignedPair(f"g{k}", ("The", "firm's", "boss", "quit", "."), ("He", "left", "."), A([(4, 2)]), line=k)
            for k in range(1, 5)]
    past_the_end = AlignedPair("1", (), (), A([(0, 0), (5, 2)]), line=1)  # "firm", "'s": one token more
    other_counts = AlignedPair("2", ("The", "firm", "'s", "boss", "quit", "."), ("He", "left", "."), A(), line=2)
    fine = AlignedPair("3", (), (), A([(4, 2)]), line=3)
    scores = score_pairs(gold, [past_the_end, other_counts, fine, fine], system_name="sys.txt")
    said = [w for w in scores.warnings if "tokenised" in w]
    assert len(said) == 1 and said[0].startswith("sys.txt: 2 of 4 pairs") and "paralign align" in said[0]
    assert scores.pairs == 2 and said == [w for w in scores.to_dict()["warnings"] if "tokenised" in w]
    assert not any("tokenised" in w for w in score_pairs(gold, [fine] * 4).warnings)
    one_based = [AlignedPair(str(k), (), (), A([(5, 3)]), line=k) for k in range(1, 4)]  # each fits 1 lower
    assert not any("tokenised" in w for w in score_pairs(gold, [*one_based, fine]).warnings)  # its own hint


def test_a_system_with_possible_links_scored_against_sure_ones_says_what_it_measures(tmp_path: Path) -> None:
    """A MultiMWA gold scored against itself read P 87.7 under sure (its 2,072 possible links,
    all the system's predictions, count as wrong against sure links alone) with nothing said why.
    The definition stays (a system's links are all its predictions); a warning now says it."""
    row = "0:0\ta b c\tN/A\ta b c\tN/A\t1\t1\t0-0 1-1\t2-2\t\n"
    gold = tmp_path / "gold.tsv"
    gold.write_text(row * 2, encoding="utf-8")
    scores = score_files(gold, gold, system_name="sys.tsv")
    assert scores.micro.precision == 4 / 6  # 2 of each pair's 3 links are sure
    said = [w for w in scores.warnings if "possible ones" in w]
    assert len(said) == 1 and said[0].startswith("sys.tsv: 2 of its 6 links are possible ones, not sure, and of "
                                                  "those 2 are possible links of the gold's")
    assert "count as wrong" in said[0] and "--gold-links sure+possible" in said[0]
    assert said == [w for w in scores.to_dict()["warnings"] if "possible ones" in w]
    both = score_files(gold, gold, "sure+possible")
    assert both.micro.precision == 1.0 and not any("possible ones" in w for w in both.warnings)
    sure_only = tmp_path / "sure.tsv"
    sure_only.write_text(row.replace("\t2-2\t", "\t\t") * 2, encoding="utf-8")
    assert not any("possible ones" in w for w in score_files(gold, sure_only).warnings)
    elsewhere = tmp_path / "elsewhere.tsv"  # possible links the gold has not: wrong as any link is
    elsewhere.write_text(row.replace("\t2-2\t", "\t0-2\t") * 2, encoding="utf-8")
    assert not any("possible ones" in w for w in score_files(gold, elsewhere).warnings)
    one = tmp_path / "one.tsv"
    one.write_text(row + row.replace("\t2-2\t", "\t\t"), encoding="utf-8")
    assert "1 of its 5 links is a possible one, not sure, and of those 1 is a possible link of the gold's" in \
        score_files(gold, one).warnings[0]
