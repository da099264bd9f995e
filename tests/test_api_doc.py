"""docs/api.md's examples run as doctests, so the tour of the Python API shows what paralign
gives. Every fenced block of the page must be a ```pycon block (a snippet in any other block
would be shown and never run); the blocks share one namespace, in order, from the root of the
checkout (they read examples/demo/gold.jsonl); a block whose line before is the comment
``<!-- needs the neural extra ... -->`` is skipped when torch is not installed."""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "api.md"
FENCE = re.compile(r"^```(\w*)$", re.M)
BLOCK = re.compile(r"(?P<lead>[^\n]*)\n\n```pycon\n(?P<body>.*?)```", re.S)


def test_every_snippet_of_the_page_is_a_block_that_runs() -> None:
    """Fences come in pairs, and every opening one is ```pycon."""
    kinds = FENCE.findall(PAGE.read_text(encoding="utf-8"))
    openings = kinds[0::2]
    assert len(kinds) % 2 == 0 and openings and set(openings) == {"pycon"}, openings
    blocks = list(BLOCK.finditer(PAGE.read_text(encoding="utf-8")))
    assert len(openings) == len(blocks)
    marked = [m["body"] for m in blocks if m["lead"].startswith("<!-- needs the neural extra")]
    assert len(marked) == 1 and 'Aligner("contextual")' in marked[0]  # the one neural block is marked


def test_the_pages_examples_give_what_they_show(data, monkeypatch) -> None:
    """Each example's output as the page prints it (doctest's comparison: exact text). `data`:
    PPDB and WordNet come from the corpora folder's NLTK data, so without it the test is skipped."""
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    ran = 0
    text = PAGE.read_text(encoding="utf-8")
    for number, match in enumerate(BLOCK.finditer(text), 1):
        if match["lead"].startswith("<!-- needs the neural extra") and importlib.util.find_spec("torch") is None:
            continue  # the neural extra's block, without the extra
        line = text.count("\n", 0, match.start("body"))  # failures name the page's own lines
        test = parser.get_doctest(match["body"], namespace, f"docs/api.md block {number}", str(PAGE), line)
        result = runner.run(test, clear_globs=False)
        namespace.update(test.globs)  # DocTest works on a copy: carry the names to the next block
        assert result.failed == 0, f"docs/api.md block {number}: {result.failed} example(s) gave other output (above)"
        ran += result.attempted
    if ran == 0:
        pytest.fail("no example of docs/api.md ran")
