"""Link marks: kinds, statuses against gold as the scores count them, confidences."""

from __future__ import annotations

import pytest

from paralign.alignment import Alignment
from paralign.errors import AlignmentIndexError, ConfigurationError
from paralign.metrics.alignment_scores import PairCounts
from paralign.viz.marks import AlignmentView, LinkMark, aligned_words, link_marks, status_counts

SYSTEM = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 3)], possible=[(2, 2), (3, 4)])
GOLD = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 3), (3, 1)], possible=[(2, 2)])


def test_without_gold_every_link_has_its_kind() -> None:
    marks = link_marks(SYSTEM)
    assert [(m.i, m.j, m.kind, m.status) for m in marks] == [
        (0, 0, "sure", None), (1, 1, "sure", None), (2, 2, "possible", None), (2, 3, "sure", None),
        (3, 4, "possible", None)]
    assert marks[2].classes == "link possible"


@pytest.mark.parametrize("links", ["sure", "sure+possible"])
def test_statuses_count_what_the_scores_count(links: str) -> None:
    counts = status_counts(link_marks(SYSTEM, GOLD, links=links))
    scores = PairCounts.of(GOLD, SYSTEM, links)
    assert counts == {"correct": scores.correct, "wrong": scores.system - scores.correct,
                      "missed": scores.gold - scores.correct}
    expected = {"sure": {"correct": 3, "missed": 1, "wrong": 2},
                "sure+possible": {"correct": 4, "missed": 1, "wrong": 1}}
    assert counts == expected[links]


def test_a_missed_link_has_the_gold_kind_and_touches_no_word() -> None:
    marks = link_marks(SYSTEM, GOLD)
    missed = [m for m in marks if m.status == "missed"]
    assert missed == [LinkMark(3, 1, "sure", "missed")] and missed[0].classes == "link sure missed"
    on_source, on_target = aligned_words(marks)
    assert on_source == {0, 1, 2, 3} and on_target == {0, 1, 2, 3, 4}
    assert aligned_words(link_marks(Alignment(), GOLD)) == (set(), set())


def test_confidences_are_kept_and_checked() -> None:
    marks = link_marks(SYSTEM, confidence={(1, 1): 0.25})
    assert [m.confidence for m in marks] == [None, 0.25, None, None, None]
    assert marks[1].describe(["a", "b", "c", "d"], ["v", "w", "x", "y", "z"]) == "b ↔ w (sure, confidence 0.25)"
    for bad in (1.5, -0.1, "high", float("nan")):
        with pytest.raises(ConfigurationError, match="confidence"):
            link_marks(SYSTEM, confidence={(0, 0): bad})


def test_unknown_link_set_is_refused() -> None:
    with pytest.raises(ConfigurationError):
        link_marks(SYSTEM, GOLD, links="all")


def test_a_view_checks_its_links_once_and_keeps_its_marks() -> None:
    view = AlignmentView(["a", "b", "c", "d"], ["v", "w", "x", "y", "z"], SYSTEM, gold=GOLD)
    assert view.source == ("a", "b", "c", "d") and view.against_gold
    assert view.marks == link_marks(SYSTEM, GOLD)
    assert view.describe(view.marks[0]) == "a ↔ v (sure, correct)"
    assert not AlignmentView(["a"], ["b"], Alignment()).against_gold
    with pytest.raises(AlignmentIndexError):
        AlignmentView(["a", "b", "c", "d"], ["v", "w"], SYSTEM)
    with pytest.raises(AlignmentIndexError):
        AlignmentView(["a", "b", "c", "d"], ["v", "w", "x", "y", "z"], SYSTEM, gold=Alignment.from_links([(9, 0)]))
    with pytest.raises(ConfigurationError):
        AlignmentView(["a", "b", "c", "d"], ["v", "w", "x", "y", "z"], SYSTEM, confidence={(1, 1): 2})


def test_a_view_shows_the_alignments_own_confidences_unless_given() -> None:
    aligned = Alignment(frozenset({(0, 0), (1, 1)}), confidence={(0, 0): 0.25, (1, 1): 0.75})
    view = AlignmentView(["a", "b"], ["x", "y"], aligned)
    assert {(m.i, m.j): m.confidence for m in view.marks} == {(0, 0): 0.25, (1, 1): 0.75}
    given = AlignmentView(["a", "b"], ["x", "y"], aligned, confidence={(0, 0): 0.5, (1, 1): 0.5})
    assert {m.confidence for m in given.marks} == {0.5}
