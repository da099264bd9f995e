"""aligners.registry.get_aligner: the functions it returns take texts and token lists as well as
annotated Sentences (API audit C1: text was "'str' object has no attribute 'tokens'")."""

from __future__ import annotations

import importlib.util

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


def test_an_aligner_object_is_an_alignment_function_named_by_its_preset() -> None:
    """similarity(aligner=paralign.Aligner(...)) was "aligner must be an alignment function
    (get_aligner) or a name, not Aligner" (the contextual aligner object was taken): an aligner
    built with its own options can now be passed as it is; a Sultan Aligner (or its
    align_sentences) with a preset's options and PPDB is labelled by that preset, so the hybrid
    blend's aligner check does not warn for the aligner it was fitted on."""
    import paralign
    from paralign.aligners.registry import aligner_label
    from paralign.aligners.sultan import Aligner, preset_options
    from paralign.similarity.hybrid import aligner_mismatch
    from paralign.similarity.signals import make_signal

    x, y = "The senator sponsored the bill.", "The senator drafted the bill."
    default, paraphrase = Aligner(), Aligner(**preset_options("paraphrase"))
    assert default(x, y) == default.align(x, y) == get_aligner("sultan")(x, y)
    assert paralign.similarity(x, y, aligner=default) == paralign.similarity(x, y)
    assert paralign.similarity(x, y, aligner=paraphrase) == paralign.similarity(
        x, y, aligner=get_aligner("sultan", "paraphrase"))
    assert aligner_label(default) == aligner_label(default.align_sentences) == "sultan:default"
    assert aligner_label(paraphrase) == "sultan:paraphrase"
    assert aligner_label(Aligner(w=0.5)) == "Aligner" and aligner_label(Aligner("wordnet")) == "Aligner"
    if importlib.util.find_spec("torch") is not None:  # the hybrid signal needs the neural extra
        assert aligner_mismatch(make_signal("hybrid"), default) is None
        assert aligner_mismatch(make_signal("hybrid"), Aligner(w=0.5)) is not None
