"""docs/api.md's examples run as doctests, so the tour of the Python API shows what paralign
gives. Every fenced block of the page must be a ```pycon block (a snippet in any other block
would be shown and never run); the blocks share one namespace, in order, run from an empty
folder, as a user of an installed paralign would (they read the demo's gold file from the
package, not examples/ of a checkout); a block whose line before is the comment
``<!-- needs the neural extra ... -->`` is skipped when torch is not installed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "api.md"
FENCE = re.compile(r"^```(\w*)$", re.M)
BLOCK = re.compile(r"(?P<lead>[^\n]*)\n\n```pycon\n(?P<body>.*?)```", re.S)
NEURAL = "<!-- needs the neural extra"


def test_every_snippet_of_the_page_is_a_block_that_runs() -> None:
    """Fences come in pairs, and every opening one is ```pycon."""
    kinds = FENCE.findall(PAGE.read_text(encoding="utf-8"))
    openings = kinds[0::2]
    assert len(kinds) % 2 == 0 and openings and set(openings) == {"pycon"}, openings
    blocks = list(BLOCK.finditer(PAGE.read_text(encoding="utf-8")))
    assert len(openings) == len(blocks)
    marked = [m["body"] for m in blocks if m["lead"].startswith(NEURAL)]
    assert len(marked) == 1 and 'Aligner("contextual")' in marked[0]  # the one neural block is marked


def test_the_pages_examples_give_what_they_show(data, monkeypatch, tmp_path, run_pycon_blocks) -> None:
    """Each example's output as the page prints it (doctest's comparison: exact text), run from
    an empty folder: the page's gold examples read `examples/demo/gold.jsonl`, so they ran from
    the checkout's root only (elsewhere: 'examples/demo/gold.jsonl: no such file'). `data`: PPDB
    and WordNet come from the corpora folder's NLTK data, so without it the test is skipped."""
    monkeypatch.chdir(tmp_path)
    without_torch = importlib.util.find_spec("torch") is None
    if run_pycon_blocks(PAGE, skip=lambda lead: lead.startswith(NEURAL) and without_torch) == 0:
        pytest.fail("no example of docs/api.md ran")


# -- the old import paths the package still serves ----------------------------------------------

def documented_old_paths(text: str) -> set[tuple[str, str | None, str]]:
    """The same triples from the page's table of old import paths: `old` (the module) | `new`,
    or `old`: `a`, `b` | `new` (, as `new_name`)."""
    section = text.split("## Old import paths")[1].split("\n## ")[0]
    documented: set[tuple[str, str | None, str]] = set()
    for old, new in re.findall(r"^\| (`paralign[^|]*) \| (`paralign[^|]*) \|$", section, re.M):
        module, *names = re.findall(r"`([\w.]+)`", old)
        home, *renamed = re.findall(r"`([\w.]+)`", new)
        home += f":{renamed[0]}" if renamed else ""
        documented |= {(module, name, home) for name in names} if names else {(module, None, home)}
    return documented


def test_the_page_lists_every_old_import_path(old_import_paths) -> None:
    """docs/api.md, "Old import paths": every name and module paralign._moved serves from an old
    path, with its new home, and the release that removes them (the page listed none)."""
    from paralign._moved import REMOVED_IN

    text = PAGE.read_text(encoding="utf-8")
    assert f"## Old import paths (removed in {REMOVED_IN})" in text
    served = old_import_paths
    assert ("paralign.config", None, "paralign.settings") in served
    assert ("paralign.aligners.evaluation", "read_pairs", "paralign.corpora.sentence_pairs:read_input_pairs") in served
    documented = documented_old_paths(text)
    assert documented == served, (f"served, not on the page: {sorted(served - documented, key=str)}; "
                                  f"on the page, not served: {sorted(documented - served, key=str)}")
