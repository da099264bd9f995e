"""aligners.evaluation: an aligner given by name is named as the mistake it is (API audit,
second pass: evaluate_aligner("sultan", gold) was "'str' object has no attribute 'related'")."""

from __future__ import annotations

from pathlib import Path

import pytest

from paralign.aligners.evaluation import evaluate_aligner, tune_aligner
from paralign.errors import InputTypeError

GOLD = Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.json"


@pytest.mark.parametrize("evaluate", [evaluate_aligner, tune_aligner])
def test_a_name_is_not_an_aligner(evaluate) -> None:
    with pytest.raises(InputTypeError, match=r"aligner must be an Aligner \(paralign.Aligner\(...\).*not str"):
        evaluate("sultan", GOLD)
