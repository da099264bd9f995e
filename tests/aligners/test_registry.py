"""aligners.registry.get_aligner: the functions it returns take texts and token lists as well as
annotated Sentences (API audit C1: text was "'str' object has no attribute 'tokens'")."""

from __future__ import annotations

import pytest

from paralign.aligners import get_aligner
from paralign.errors import InputTypeError
from paralign.nlp import annotate


@pytest.mark.parametrize("name", ["sultan", "exact"])
def test_texts_and_token_lists_align_as_their_annotated_sentences(name) -> None:
    align = get_aligner(name)
    source, target = "The cat sat on the mat.", "A cat sat on the rug."
    expected = align(annotate(source), annotate(target))
    assert expected.sure  # the two sentences share words
    assert align(source, target) == expected
    assert align(list(annotate(source).tokens), list(annotate(target).tokens)) == expected
    with pytest.raises(InputTypeError, match="not NoneType None"):
        align(None, target)
