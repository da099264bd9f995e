"""Graded ParaEval at its edges (metrics.paraeval.configs, graded): what an audit found."""

from __future__ import annotations

import pytest

from paralign.errors import ConfigurationError
from paralign.metrics.paraeval.configs import Config


def test_a_tier_named_twice_is_refused():
    # each mention added the tier's weighted matches once more: "the cat sat" against "the cat
    # sat down" had precision 2.0 and recall 1.75 under tiers exact+exact
    with pytest.raises(ConfigurationError, match="'exact' is named twice"):
        Config("x", tiers=("exact", "stem", "exact"), resources=())
