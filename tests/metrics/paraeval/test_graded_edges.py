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
