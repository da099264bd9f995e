"""lattice.lm: a sentence's word spelled as a marker (<s>, </s>) is a word like any other
(lattice audit after the trees)."""

from __future__ import annotations

import math

import pytest

from paralign.lattice import NGramLM


@pytest.mark.parametrize("marker", ["</s>", "<s>", "</S>", "\\</s>"])
@pytest.mark.parametrize("order", [1, 2, 3])
def test_a_word_spelled_as_a_marker_is_only_a_word(marker: str, order: int) -> None:
    """Renaming a word the scored sentences never hold changes no score. A </s> inside a
    training sentence counted as its end (and <s> as its start): "x" then looked as likely to
    end after x as a sentence that did end there."""
    corpus = [["x", "{}", "y"], ["{}", "x"], ["y", "x", "y"]]
    with_marker = NGramLM(order).fit([[marker if w == "{}" else w for w in s] for s in corpus])
    with_word = NGramLM(order).fit([["zz" if w == "{}" else w for w in s] for s in corpus])
    for sentence in (["x"], ["x", "y"], ["y"], ["y", "x"]):
        assert math.isclose(with_marker.entropy(sentence), with_word.entropy(sentence), rel_tol=1e-12)
    assert math.isclose(with_marker.entropy(["x", marker]), with_word.entropy(["x", "zz"]), rel_tol=1e-12)
