"""Old import paths keep working for one release, each with a DeprecationWarning (paralign._moved)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

#: (old module, name, new module, new name) for a sample of every kind of move.
MOVED_NAMES = [
    ("paralign.similarity", "get_aligner", "paralign.aligners.registry", "get_aligner"),
    ("paralign.similarity", "AlignedSentences", "paralign.alignment", "AlignedSentences"),
    ("paralign.similarity", "align_pairs", "paralign.aligners.batch", "align_pairs"),
    ("paralign.similarity", "read_sentence_pairs", "paralign.corpora.sentence_pairs", "read_sentence_pairs"),
    ("paralign.paraphrase_model", "LogisticModel", "paralign.similarity.model", "LogisticModel"),
    ("paralign.paraphrase_model", "FEATURES", "paralign.similarity.features", "FEATURES"),
    ("paralign.paraphrases", "require_file", "paralign.textio", "require_file"),
    ("paralign.paraphrases", "Utf8LineReader", "paralign.textio", "Utf8LineReader"),
    ("paralign.aligners.evaluation", "read_pairs", "paralign.corpora.sentence_pairs", "read_input_pairs"),
    ("paralign.aligners.evaluation", "align_input", "paralign.aligners.batch", "align_input"),
    ("paralign.metrics.correlation", "given_scores", "paralign.metrics.given_scores", "given_scores"),
]

MOVED_MODULES = [
    ("paralign.config", "paralign.settings"),
    ("paralign.aligners.wordsim", "paralign.aligners.sultan.wordsim"),
    ("paralign.aligners.depequiv", "paralign.aligners.sultan.depequiv"),
    ("paralign.aligners.external_parse", "paralign.aligners.sultan.external_parse"),
]


@pytest.mark.parametrize(("old", "name", "new", "new_name"), MOVED_NAMES)
def test_a_moved_name_still_imports_with_a_warning(old: str, name: str, new: str, new_name: str) -> None:
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=rf"{old}\.{name} has moved to {new}\.{new_name}"):
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(new), new_name)


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        importlib.import_module("paralign.paraphrase_model").no_such_name  # noqa: B018


@pytest.mark.parametrize(("old", "new"), MOVED_MODULES)
def test_a_moved_module_is_the_new_module_with_a_warning(old: str, new: str) -> None:
    """In a fresh interpreter, so the old module is really imported (not found in sys.modules)."""
    code = (
        "import importlib, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module({old!r})\n"
        f"assert old is importlib.import_module({new!r}), old\n"
        f"assert any(issubclass(w.category, DeprecationWarning) and {new!r} in str(w.message) for w in caught)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_library_code_never_imports_an_old_path() -> None:
    """`import paralign` and the whole CLI load with DeprecationWarnings as errors."""
    code = (
        "import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
        "import paralign, paralign.cli, pkgutil, importlib\n"
        "for m in pkgutil.iter_modules(paralign.cli.__path__):\n"
        "    importlib.import_module('paralign.cli.' + m.name)\n"
        "paralign.cli.build_parser()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
