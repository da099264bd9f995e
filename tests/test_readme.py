"""The README's library examples (its ```pycon blocks) run as doctests, so what it shows is what
paralign gives. The blocks share one namespace, in order, as a reader's session would; the block
after "With the `neural` extra" is skipped when torch is not installed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"(?P<lead>[^\n]*)\n\n```pycon\n(?P<body>.*?)```", re.S)


def readme_blocks() -> list[tuple[str, str]]:
    """(the line before the block, the block's text) for every pycon block, in order."""
    return [(m["lead"], m["body"]) for m in BLOCK.finditer(README.read_text(encoding="utf-8"))]


def test_the_readme_has_library_examples() -> None:
    blocks = readme_blocks()
    assert len(blocks) >= 2 and all(">>> " in body for _, body in blocks)


def test_the_readme_library_examples_give_what_they_show(data, monkeypatch, tmp_path, run_pycon_blocks) -> None:
    """Each example's output as the README prints it (doctest's comparison: exact text), run from
    an empty folder, as a user of an installed paralign would (no example may read a file of the
    checkout). `data`: PPDB and WordNet come from the corpora folder's NLTK data, so without it
    the test is skipped."""
    monkeypatch.chdir(tmp_path)
    without_torch = importlib.util.find_spec("torch") is None
    # the neural extra's block, without the extra
    if run_pycon_blocks(README, skip=lambda lead: "neural" in lead and without_torch) == 0:
        pytest.fail("no README example ran")
