"""The input rules: lengths, characters, and the messages that name them."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from paralign.web.models import (
    TEXT_PATTERN,
    AlignRequest,
    LatticeRequest,
    check_text,
    shown_bytes,
)
from paralign.web.problems import describe, field_errors


@pytest.mark.parametrize(("size", "shown"), [(0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KiB"), (65_536, "64 KiB"),
                                             (139_264, "136 KiB"), (12_353_536, "11.8 MiB"), (3 * 2**30, "3 GiB")])
def test_a_size_is_shown_as_a_person_reads_it(size, shown) -> None:
    """The batch page said 12353536 bytes in all; a size is shown in KiB, MiB or GiB, one decimal at most."""
    assert shown_bytes(size) == shown


@pytest.mark.parametrize("text", ["a", "  spaced  ", "tab\tand\nline", "émoji 🐈", "<b>&amp;</b>"])
def test_texts_that_pass(text) -> None:
    assert check_text(text) == text
    assert re.fullmatch(TEXT_PATTERN, text, re.DOTALL)  # the schema states the same rule


@pytest.mark.parametrize(("text", "words"), [("   ", "must contain a word"), ("a\x00", "U+0000 at position 1"),
                                             ("\ud800x", "U+D800"), ("x\x1f", "U+001F"), ("\uffff", "U+FFFF")])
def test_texts_that_fail_say_why(text, words) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        check_text(text)
    if "\ud800" not in text:
        assert not re.fullmatch(TEXT_PATTERN, text, re.DOTALL)


def test_the_schema_pattern_and_the_check_agree_on_every_space() -> None:
    """The pattern said "not only spaces" with ``\\s``, which JSON Schema reads as ECMA-262 does:
    without U+0085, so schemathesis sent {"source": "\\u0085"} as valid and the server refused it
    ("Schema-valid request rejected")."""
    assert r"\s" not in TEXT_PATTERN
    for space in (chr(c) for c in range(0x110000) if chr(c).isspace()):
        with pytest.raises(ValueError):
            check_text(space * 2)
        assert not re.fullmatch(TEXT_PATTERN, space * 2, re.DOTALL), hex(ord(space))
    assert re.fullmatch(TEXT_PATTERN, "\ufeffa\u200b", re.DOTALL) and check_text("\ufeffa\u200b")


def test_messages_name_each_field() -> None:
    with pytest.raises(ValidationError) as caught:
        AlignRequest.model_validate({"source": "", "target": "x" * 501, "preset": "fast"})
    errors = field_errors(caught.value.errors())
    assert [e["field"] for e in errors] == ["source", "target", "preset"]
    assert describe(errors).startswith("source: is empty; target: has 501 characters; it may have at most 500 characters; ")
    with_model = field_errors(caught.value.errors(), AlignRequest)
    assert describe(with_model) == ("source: is empty: it must be a text of 1 to 500 characters; target: has 501 "
                                    "characters; it may have at most 500 characters; preset: must be default, paper, paraphrase "
                                    "or contextual")
    with pytest.raises(ValidationError, match="at most 10 items"):
        LatticeRequest.model_validate({"sentences": ["a"] * 11})
    assert describe([]) == "invalid request"


def test_a_list_field_a_page_reads_a_line_an_item_is_counted_in_lines() -> None:
    """A page's box of one sentence a line (`in_lines`) is said to have that many lines, as the user
    typed it; the API, sent a list, is told items (the page patched the message after the fact)."""
    with pytest.raises(ValidationError) as caught:
        LatticeRequest.model_validate({"sentences": ["a"] * 11})
    assert field_errors(caught.value.errors())[0]["message"] == "has 11 items; it may have at most 10"
    in_lines = field_errors(caught.value.errors(), in_lines={"sentences"})
    assert in_lines == [{"field": "sentences", "message": "has 11 lines; it may have at most 10"}]


def test_a_checks_message_has_no_pydantic_prefix() -> None:
    """'source: Value error, must contain a word' showed pydantic's error class to people."""
    with pytest.raises(ValidationError) as caught:
        AlignRequest.model_validate({"source": "  ", "target": "x"})
    assert field_errors(caught.value.errors()) == [{"field": "source", "message": "must contain a word, not only spaces"}]


def test_the_written_out_choices_are_their_registries() -> None:
    """The Literal types of the models are written out (a Literal built from a registry is no type
    to mypy): each must be its registry's names, in its order (the order of the schema's enum), so
    that a name added to a registry cannot be missing from the API."""
    from typing import get_args

    from paralign.aligners.registry import ALIGNER_NAMES
    from paralign.aligners.sultan.options import PRESETS
    from paralign.corpora.sentence_pairs import INPUT_FORMATS
    from paralign.metrics.paraeval import configs, paper_values
    from paralign.metrics.paraeval.configs import CONFIGS
    from paralign.web import models

    assert get_args(models.Preset) == tuple(PRESETS)
    assert get_args(models.AlignerName) == tuple(ALIGNER_NAMES)
    assert get_args(models.ParaEvalConfig) == tuple(CONFIGS)
    assert get_args(models.InputFormat) == INPUT_FORMATS
    # the tiers are the library's Literals, which TierMatch.tier and MatchedSpan.tier are typed with
    assert models.Tier is configs.Tier and models.SpanTier is paper_values.SpanTier
    assert get_args(models.SpanTier) == (*configs.TIER_ORDER, "unmatched")
    # and they are what the models take: a span's tier, a match's, the requests' choices
    fields = {(m.__name__, name): f.annotation for m in (models.Span, models.WordMatch, models.PairRequest,
                                                         models.ParaEvalRequest) for name, f in m.model_fields.items()}
    assert fields["Span", "tier"] == models.SpanTier and fields["WordMatch", "tier"] == models.Tier
    assert fields["PairRequest", "aligner"] == models.AlignerName and fields["PairRequest", "preset"] == models.Preset
    assert fields["ParaEvalRequest", "config"] == models.ParaEvalConfig


def test_the_api_takes_and_refuses_the_presets_the_command_line_does_with_one_message() -> None:
    """Every (aligner, preset): the request models refuse it exactly when the commands' check
    does (registry.preset_clash, one rule), with the same message, each naming the fields its
    own way. The API took "aligner": "contextual" with "preset": "default" while the command
    line refused --aligner contextual --preset default."""
    import argparse

    from paralign.aligners.registry import ALIGNER_NAMES
    from paralign.aligners.sultan import PRESETS
    from paralign.cli._aligner_options import check_aligner_preset
    from paralign.errors import ConfigurationError
    from paralign.web.models import BatchRequest

    for aligner in ALIGNER_NAMES:
        for preset in PRESETS:
            try:
                check_aligner_preset(argparse.Namespace(aligner=aligner, preset=preset))
                command = None
            except ConfigurationError as exc:
                command = str(exc)
            for model, fields in ((AlignRequest, {"source": "a", "target": "a"}), (BatchRequest, {"pairs": "a\ta\n"})):
                try:
                    model(**fields, aligner=aligner, preset=preset)
                    api = None
                except ValidationError as exc:
                    api = field_errors(exc.errors())[0]["message"]
                shown = None if api is None else re.sub(r'"(\w+)"(: "(\w+)")?', lambda m: "--" + " ".join(
                    filter(None, (m.group(1), m.group(3)))), api)
                assert shown == command, (aligner, preset, model.__name__)


def test_every_aligner_and_preset_description_says_what_the_api_takes() -> None:
    """The `preset` fields said exact and contextual took no preset (the pair routes) and that
    any preset was refused with exact (the batch route), while "default" goes with both; the
    answers' `aligner` said "aligner:preset", which "exact" and "sultan:contextual" are not. Each
    description now states what the requests take, aligner by aligner, and the answers' names."""
    from paralign.aligners.registry import ALIGNER_NAMES
    from paralign.aligners.sultan import PRESETS
    from paralign.web.models import (
        AlignResponse,
        BatchRequest,
        SimilarityRequest,
        SimilarityResponse,
    )

    for model, fields in ((AlignRequest, {"source": "a", "target": "a"}), (SimilarityRequest, {"source": "a", "target": "a"}),
                          (BatchRequest, {"pairs": "a\ta\n"})):
        described = model.model_json_schema()["properties"]
        for aligner in ALIGNER_NAMES:
            taken = []
            for preset in PRESETS:
                try:
                    model(**fields, aligner=aligner, preset=preset)
                    taken.append(preset)
                except ValidationError:
                    pass
            said = "sultan takes every preset" if taken == list(PRESETS) else f"{aligner} takes {' or '.join(taken)}"
            assert said in described["preset"]["description"], (model.__name__, aligner)
            assert aligner in described["aligner"]["description"]
        assert "default, the field's default, goes with every aligner" in described["preset"]["description"]
    for model in (AlignResponse, SimilarityResponse):
        named = model.model_json_schema()["properties"]["aligner"]["description"]
        assert "aligner:preset" not in named and "exact for the exact aligner" in named and "sultan:contextual" in named
