"""The contract for bad arguments, name by name (docs/api.md, Errors): a public name given a
value it cannot use raises one of :mod:`paralign.errors`' errors naming the argument, never a
built-in error from deep inside (ZeroDivisionError, AttributeError, "'NoneType' object is not
iterable"). Each test here is a case that broke it."""

from __future__ import annotations

import pytest

import paralign
from paralign.errors import EmptyScoringError
from paralign.metrics.alignment_scores import AlignmentScores, PairCounts


def test_alignment_scores_of_no_pair_is_refused_when_built() -> None:
    """`AlignmentScores(per_pair=())` could be built, then its `to_dict()` (and `macro`,
    `exact`) raised ZeroDivisionError: 'division by zero'. No pair has no figure: it is the
    EmptyScoringError that `score_alignments([], [])` raises, when it is built."""
    with pytest.raises(EmptyScoringError, match="no alignments to score"):
        AlignmentScores(per_pair=())
    with pytest.raises(EmptyScoringError, match="no alignments to score"):
        paralign.score_alignments([], [])
    one = paralign.Alignment.from_pharaoh("0-0 1-1")
    counts = PairCounts.of(one, one)
    assert AlignmentScores(per_pair=(counts,)).to_dict()["macro"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
