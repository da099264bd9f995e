"""metrics.parametric_align: a length bound past the data's longest sentence is no limit."""

from __future__ import annotations

import json

from paralign.alignment import Alignment
from paralign.corpora.base import AlignedPair
from paralign.metrics.parametric_align import align_scores, align_scores_files

SOURCE = ["the", "old", "man", "walked", "slowly", "to", "the", "market"]  # 8 words: the longest sentence
TARGET = ["the", "elderly", "man", "went", "slowly", "to", "market"]
GOLD = [AlignedPair("1", tuple(SOURCE), tuple(TARGET), Alignment.from_links([(0, 0), (1, 1), (2, 2), (3, 3),
                                                                              (4, 4), (5, 5), (7, 6)])),
        AlignedPair("2", ("prices", "rose"), ("prices", "went", "up"), Alignment.from_links([(0, 0), (1, 1)]))]
SYSTEM = [Alignment.from_links([(0, 0), (1, 1), (2, 2), (3, 3), (7, 6)]), Alignment.from_links([(0, 0), (1, 2)])]


def test_a_bound_past_the_longest_sentence_gives_the_longest_sentences_output(tmp_path) -> None:
    """parametric align --max-length 99999999999999999999 never ended: it built one row per
    length. A bound past the longest sentence (8 words) is no limit, and gives the output of 8;
    bounds up to it, and the default's 5 rows on shorter sentences, are as before."""
    longest = align_scores(GOLD, SYSTEM, 8).to_dict()
    assert longest["max_length"] == 8 and list(longest["by_length"]) == [str(n) for n in range(1, 9)]
    for bound in (9, 10**20):
        assert align_scores(GOLD, SYSTEM, bound).to_dict() == longest
    assert list(align_scores(GOLD, SYSTEM, 7).to_dict()["by_length"]) == [str(n) for n in range(1, 8)]
    short = align_scores(GOLD[1:], SYSTEM[1:], 10**20)  # 3 words: the default's rows, as before
    assert short.to_dict() == align_scores(GOLD[1:], SYSTEM[1:]).to_dict() and short.max_length == 5
    gold, system = tmp_path / "gold.jsonl", tmp_path / "system.txt"
    gold.write_text("".join(json.dumps({"id": g.id, "source": " ".join(g.source), "target": " ".join(g.target),
                                        "sure": sorted(g.alignment.sure), "possible": []}) + "\n" for g in GOLD))
    system.write_text("".join(a.to_pharaoh() + "\n" for a in SYSTEM))
    signed = align_scores_files(gold, system, 10**20)
    assert signed.to_dict() == align_scores_files(gold, system, 8).to_dict() and "maxlen:8|" in signed.signature


def test_a_max_length_that_is_not_a_whole_number_is_a_configuration_error() -> None:
    """API audit: `align_scores(gold, system, max_length=2.5)` (or NaN) was a TypeError from
    range() inside the phrase extraction."""
    import pytest

    from paralign.errors import ConfigurationError

    for bad in (2.5, float("nan")):
        with pytest.raises(ConfigurationError, match="max_length must be a whole number"):
            align_scores(GOLD, SYSTEM, max_length=bad)


def test_gold_that_is_not_gold_pairs_is_an_input_type_error() -> None:
    """API audit: `align_scores(None, None)` was "object of type 'NoneType' has no len()",
    `align_scores('x', 'x')` "'str' object has no attribute 'source'"; a generator of pairs
    was refused by len(). Now named, and a generator is read once."""
    import pytest

    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match="gold must be a list of gold pairs .load_pairs reads them., not NoneType"):
        align_scores(None, None)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="gold must be a list of gold pairs .load_pairs reads them., not str 'x'"):
        align_scores("x", "x")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match=r"gold: item 2 is str 'x', not a gold pair"):
        align_scores([GOLD[0], "x"], SYSTEM)  # type: ignore[list-item]
    assert align_scores(iter(GOLD), iter(SYSTEM)).to_dict() == align_scores(GOLD, SYSTEM).to_dict()


def test_a_system_file_is_read_alone_not_with_a_jacana_companion(tmp_path) -> None:
    """A jacana system file `out.json` beside an `out.sure+poss.json` was combined with it, as a
    gold is (the companion's links became the system's possible links, its sure links those of
    the other file), so --links sure+possible scored links the system file does not hold;
    score-alignments reads a system file alone, and so does parametric align now."""
    def jacana(items: list[tuple[AlignedPair, Alignment]]) -> str:
        return json.dumps([{"id": g.id, "source": " ".join(g.source), "target": " ".join(g.target),
                            "sureAlign": " ".join(f"{i}-{j}" for i, j in sorted(a.sure)),
                            "possibleAlign": ""} for g, a in items])

    gold, system = tmp_path / "gold.json", tmp_path / "out.json"
    gold.write_text(jacana([(g, g.alignment) for g in GOLD]), encoding="utf-8")
    system.write_text(jacana(list(zip(GOLD, SYSTEM, strict=True))), encoding="utf-8")
    alone = align_scores_files(gold, system, links="sure+possible").to_dict()
    assert alone["by_length"] == align_scores(GOLD, SYSTEM, links="sure+possible").to_dict()["by_length"]
    more = [Alignment.from_links(a.sure | {(6, 6)} if n == 0 else a.sure) for n, a in enumerate(SYSTEM)]
    (tmp_path / "out.sure+poss.json").write_text(jacana(list(zip(GOLD, more, strict=True))), encoding="utf-8")
    assert align_scores_files(gold, system, links="sure+possible").to_dict() == alone


def test_f1_is_zero_when_nothing_matched_and_none_only_when_undefined() -> None:
    """ParaMetric's F1 was null when precision and recall were both 0 (system and gold pairs,
    none in common), where f_measure and score-alignments give 0; it is now 0, and null only
    when precision or recall is undefined."""
    from paralign.metrics.parametric_align import AlignCounts

    assert AlignCounts(matched=0, system=3, gold=4).f1 == 0.0
    assert AlignCounts(matched=0, system=0, gold=4).f1 is None
    assert AlignCounts(matched=2, system=4, gold=4).f1 == 0.5
    assert AlignCounts(matched=0, system=3, gold=4).to_dict()["f1"] == 0.0


def test_a_system_file_whose_name_holds_a_bar_is_refused(tmp_path) -> None:
    """A system file ``s|1.jsonl`` was signed ``system:s|1.jsonl#HASH``, read back as ``system:s``
    and a keyless ``1.jsonl#HASH``; now a ConfigurationError naming the file."""
    import pytest

    from paralign.errors import ConfigurationError
    from paralign.metrics.parametric_align import system_id

    with pytest.raises(ConfigurationError, match=r"^out/s\|1\.jsonl: the file's name .*system:FILE#HASH"):
        system_id("out/s|1.jsonl", [])
    assert system_id("out/s1.jsonl", []).startswith("s1.jsonl#")


def test_a_gold_pair_with_one_empty_side_is_skipped_as_evaluate_aligner_skips_it(tmp_path) -> None:
    """ParaMetric's gold check flagged a pair only when both sides were missing: a pair with an
    empty target was counted as scored, with no phrase pair in it (and given to the aligner with
    `--aligner`), where evaluate-aligner skipped and listed it. Its phrase pairs are spans of both
    sides' tokens, so it is skipped, named as evaluate-aligner names it (one rule:
    corpora.base.with_sentences), and the scores of the others are unchanged."""
    from paralign.aligners.evaluation import read_gold

    empty = AlignedPair("3", ("a", "big", "dog"), (), Alignment.from_links([]), line=3)
    scores = align_scores([*GOLD, empty], [*SYSTEM, Alignment.from_links([])])
    assert scores.pairs == 2 and scores.skipped == 1
    assert scores.skipped_rows[0].reason.startswith("empty target sentence: ParaMetric's phrase pairs need")
    assert scores.to_dict()["by_length"] == align_scores(GOLD, SYSTEM).to_dict()["by_length"]
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": g.id, "source": " ".join(g.source), "target": " ".join(g.target),
                                        "sure": sorted(g.alignment.sure)}) + "\n" for g in [*GOLD, empty]))
    aligned: list = []

    def aligner(pairs, *, workers, progress):  # the pairs given to an aligner: not the empty one
        aligned.extend(pairs)
        return [Alignment.from_links([(0, 0)]) for _ in pairs]

    assert align_scores_files(gold, aligner).skipped == 1 and len(aligned) == 2
    reason = align_scores_files(gold, aligner).skipped_rows[0].reason
    _, _, skipped = read_gold(gold)  # evaluate-aligner's reading of the same gold
    assert reason.split(":")[0] == skipped[0].reason.split(":")[0] == "empty target sentence"
