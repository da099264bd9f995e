"""The examples in the docstrings of the library's main entry points run as doctests: what
``help(paralign.X)`` shows is what paralign gives. Each entry point must keep at least one example
(a docstring that lost its example would otherwise pass unseen). They need PPDB, WordNet and the
spaCy model (the `data` fixture: skipped with a reason when the corpora folder is absent)."""

from __future__ import annotations

import doctest
import inspect

import pytest

import paralign

#: The entry points a researcher calls first, by their name in `paralign`.
ENTRY_POINTS = (
    "Aligner",
    "AlignedSentences",
    "similarity",
    "similarity_many",
    "paraeval",
    "ParaphraseTable",
    "build_lattice",
    "score_alignments",
    "evaluate_aligner",
    "get_aligner",
    "load_pairs",
)


def examples(name: str) -> list[doctest.DocTest]:
    """The doctests of the entry point's own docstring (not its methods'), run with `paralign`
    as their only global, as a reader of ``help()`` would type them."""
    value = getattr(paralign, name)
    finder = doctest.DocTestFinder(recurse=False)
    return [test for test in finder.find(value, f"paralign.{name}", globs={"paralign": paralign})
            if test.examples]


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_the_entry_point_has_an_example(name: str) -> None:
    assert examples(name), f"paralign.{name}'s docstring shows no example ({inspect.getsourcefile(getattr(paralign, name))})"


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_the_entry_points_example_gives_what_it_shows(name: str, data) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in examples(name):
        result = runner.run(test)
        assert result.failed == 0, f"{test.name}: {result.failed} example(s) gave other output (above)"


def test_the_packages_own_example_gives_what_it_shows(data) -> None:
    """``help(paralign)`` (``paralign?`` in a notebook), a newcomer's first look, said what the
    package re-exports and not where to start: its docstring now shows an aligner and a
    similarity, and they give what it shows."""
    tests = [test for test in doctest.DocTestFinder(recurse=False).find(paralign, "paralign", globs={})
             if test.examples]
    assert tests, "paralign's own docstring shows no example"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in tests:
        assert runner.run(test).failed == 0, f"{test.name}: an example gave other output (above)"
