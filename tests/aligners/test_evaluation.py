"""aligners.evaluation: an aligner given by name is named as the mistake it is (API audit,
second pass: evaluate_aligner("sultan", gold) was "'str' object has no attribute 'related'")."""

from __future__ import annotations

from pathlib import Path

import pytest

from paralign.aligners.evaluation import best_of_grid, evaluate_aligner, tune_aligner
from paralign.errors import InputTypeError

GOLD = Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.json"


@pytest.mark.parametrize("evaluate", [evaluate_aligner, tune_aligner])
def test_a_name_is_not_an_aligner(evaluate) -> None:
    with pytest.raises(InputTypeError, match=r"aligner must be an Aligner \(paralign.Aligner\(...\).*not str"):
        evaluate("sultan", GOLD)


@pytest.mark.parametrize("evaluate", [evaluate_aligner, tune_aligner])
def test_the_class_is_not_an_aligner(evaluate) -> None:
    """evaluate_aligner(paralign.Aligner, gold), the call's brackets forgotten, was a TypeError
    from deep inside ("Aligner.annotate() missing 1 required positional argument: 'items'"):
    it now says what to do."""
    from paralign.aligners.exact import ExactAligner

    with pytest.raises(InputTypeError, match=r"not the class ExactAligner: call it \(ExactAligner\(\)"):
        evaluate(ExactAligner, GOLD)


@pytest.mark.parametrize("evaluate", [evaluate_aligner, tune_aligner])
def test_pairs_in_memory_are_told_the_way_to_score_them(evaluate) -> None:
    """evaluate_aligner(aligner, load_pairs(gold)), the pairs a newcomer has just read, said "a
    file path must be a str or a pathlib.Path, not list": it now says the gold is a file's path
    and how pairs in memory are scored."""
    from paralign.aligners.sultan import Aligner
    from paralign.corpora import load_pairs

    with pytest.raises(InputTypeError, match=r"the gold is a gold file's path \(a str or a Path\), not a list: "
                                             r".*score_alignments\(\[p.alignment for p in pairs\], aligner.align_many"):
        evaluate(Aligner(), load_pairs(GOLD))


class _Untouchable:
    """An aligner that fails the test when it is loaded or asked to annotate or align."""

    @property
    def related(self) -> object:
        raise AssertionError("the aligner was loaded")

    def annotate(self, *args: object, **kwargs: object) -> list:
        raise AssertionError("the gold was annotated")

    def align_annotated(self, *args: object, **kwargs: object) -> list:
        raise AssertionError("the gold was aligned")

    def with_params(self, **changes: object) -> _Untouchable:
        return self


@pytest.mark.parametrize("evaluate", [evaluate_aligner, tune_aligner])
def test_an_unknown_link_set_is_refused_before_any_pair_is_aligned(evaluate) -> None:
    """links="sure+poss" was refused by score_alignments, after the aligner had loaded and
    aligned every gold pair (tune_aligner: once a setting of its grid; minutes on MSR RTE2 with
    the Sultan aligner): it is now refused first."""
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=r"unknown link set 'sure\+poss': use 'sure' or 'sure\+possible'"):
        evaluate(_Untouchable(), GOLD, "sure+poss")


def test_a_skipped_gold_item_keeps_its_id_as_score_alignments_records_it(tmp_path) -> None:
    """read_gold (evaluate-aligner's and tune-aligner's reader) recorded a bad gold item with
    id None, though the reader knew it ("known-7", whose link lies outside its sentences):
    their skipped_rows said "id": null where score-alignments, scoring the same file, names the
    item. The record now carries the reader's id, as score-alignments' does (the line number
    for a line that cannot be read as JSON at all, as the reader names that item)."""
    from paralign.aligners.evaluation import read_gold
    from paralign.metrics.alignment_scores import score_files

    good = '{"id": "ok-%d", "source": "a b", "target": "a b", "sure": [[0, 0], [1, 1]]}'
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([good % 1, '{"id": "known-7", "source": "a b", "target": "a b", "sure": [[9, 9]]}',
                               '{"id": "broken", "source": "a"', good % 2]) + "\n", encoding="utf-8")
    _, positions, skipped = read_gold(gold)
    assert positions == [1, 4]
    assert [(s.pair, s.id, s.line) for s in skipped] == [(2, "known-7", 2), (3, "3", 3)]
    assert "pair 2 (gold 'known-7') skipped" in str(skipped[0])
    assert [r.to_dict() for r in skipped] == score_files(gold, gold).to_dict()["skipped_rows"]


def test_a_gold_item_with_one_side_empty_is_said_so_not_links_only(tmp_path) -> None:
    """A JSONL gold record with an empty source (and a target) was skipped as 'no source or
    target sentence (links only)': it names the side now, as align does (`empty source
    sentence`); a record with links alone is still said to have links only."""
    from paralign.aligners.evaluation import read_gold

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "a", "source": "a b", "target": "a b", "sure": [[0, 0]]}\n'
                    '{"id": "b", "source": "", "target": "a b", "sure": []}\n'
                    '{"id": "c", "source": "a b", "target": "  ", "sure": []}\n'
                    '{"id": "d", "sure": [[0, 0]]}\n', encoding="utf-8")
    _, positions, skipped = read_gold(gold)
    assert positions == [1]
    assert [(s.line, s.reason.split(": an aligner", 1)[0]) for s in skipped] == [
        (2, "empty source sentence"), (3, "empty target sentence"), (4, "no source or target sentence (links only)")]


@pytest.mark.parametrize("limit", [2.5, float("nan")])
def test_a_limit_that_is_not_a_whole_number_is_a_configuration_error(limit) -> None:
    """API audit: `evaluate_aligner(aligner, gold, limit=2.5)` was a TypeError from slicing the
    gold pairs, after loading them."""
    from paralign.aligners.evaluation import load_gold
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="limit must be a whole number"):
        load_gold("examples/demo/gold.jsonl", limit=limit)


def test_the_reports_have_the_keys_their_typeddicts_declare() -> None:
    """evaluate_aligner's and tune_aligner's reports are typed (AlignerResult, TuneResult): each
    TypedDict's keys are the report's, in the report's order (the JSON's), so that mypy checks
    what a caller reads against what is there."""
    from paralign.aligners.evaluation import AlignerResult, BestRow, GridRow, TuneResult
    from paralign.aligners.sultan import Aligner

    def keys(typed: type) -> list[str]:  # in the order declared, its bases' first
        return list(typed.__annotations__)

    result = evaluate_aligner(Aligner(), GOLD)
    assert list(result) == keys(AlignerResult)
    assert result["signature"].startswith("aligner:sultan:default|") and result["gold"] == str(GOLD)
    tuned = tune_aligner(Aligner(), GOLD, ppdb_grid=[0.9], w_grid=[0.9, 0.8])
    assert list(tuned) == keys(TuneResult)
    # a row's own keys come first (ppdb_sim, w), then the macro scores GridRow takes from PRFDict
    assert [set(row) for row in tuned["grid"]] == [set(keys(GridRow))] * 2 and set(tuned["best"]) == set(keys(BestRow))
    assert list(tuned["best"]) == [*tuned["grid"][0], "tied", "signature"]


def test_a_tie_goes_to_the_point_nearest_0_9_then_to_grid_order() -> None:
    """(0.7, 0.9) and (0.8, 0.8) are equally near (0.9, 0.9), but in floats |0.8 - 0.9| twice
    summed below |0.7 - 0.9|, so (0.8, 0.8) won by rounding noise; now the first in grid order."""
    row = {"precision": 0.5, "recall": 0.5, "f1": 0.5, "exact": 0.0}
    for grid in ([(0.6, 0.6), (0.7, 0.9), (0.8, 0.8)], [(0.6, 0.6), (0.8, 0.8), (0.7, 0.9)]):
        rows = [{"ppdb_sim": p, "w": w, **row} for p, w in grid]
        best = best_of_grid(rows)
        assert (best["ppdb_sim"], best["w"]) == grid[1]
    rows[0]["f1"] = 0.6  # a better F1 wins however far from (0.9, 0.9)
    assert (best_of_grid(rows)["ppdb_sim"], best_of_grid(rows)["w"]) == (0.6, 0.6)


def test_ppdb_sim_is_not_searched_for_an_aligner_with_no_related_words() -> None:
    """ppdb_sim is the similarity of two related words: with no word similarity every value gives
    the same links, yet each was tried (10 times the work by default) and all tied, the tie rule
    picking a "best" ppdb_sim as if the search had found it. It is tried at the aligner's own
    value alone now, and a warning says why; an aligner with related words still searches it."""
    from paralign import Aligner

    plain = tune_aligner(Aligner(use_word_similarity=False, ppdb_sim=0.7), GOLD, ppdb_grid=[0.5, 0.9],
                         w_grid=[0.9])
    assert [row["ppdb_sim"] for row in plain["grid"]] == [0.7] and plain["best"]["ppdb_sim"] == 0.7
    assert any(w.startswith("ppdb_sim not searched (0.5, 0.9)") and "tried at 0.7 alone" in w
               for w in plain["warnings"])
    assert "ppdb_sim=0.7," in plain["signature"]
    related = tune_aligner(Aligner(), GOLD, ppdb_grid=[0.5, 0.9], w_grid=[0.9])
    assert [row["ppdb_sim"] for row in related["grid"]] == [0.5, 0.9]
    assert not any("not searched" in w for w in related["warnings"])
