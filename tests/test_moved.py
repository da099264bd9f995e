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


def test_a_package_serves_the_names_of_its_type_checking_imports_on_first_use(tmp_path, monkeypatch) -> None:
    """paralign.lattice listed its names loaded on first use twice, in its TYPE_CHECKING imports
    (what mypy reads) and in a table of names and modules (what its __getattr__ read), and
    nothing held the two alike. `first_use_imports` reads the block itself: one list."""
    package = tmp_path / "firstuse"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from paralign._moved import first_use_imports\n"
        "if TYPE_CHECKING:\n"
        "    from .heavy import Thing, make\n"
        "    from .sub.deep import deep_name\n"
        "    from json import dumps\n"
        "__getattr__ = first_use_imports(__name__, globals())\n",
        encoding="utf-8",
    )
    (package / "heavy.py").write_text("Thing = object()\ndef make(): return 1\n", encoding="utf-8")
    (package / "sub").mkdir()
    (package / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (package / "sub" / "deep.py").write_text("deep_name = 'deep'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "firstuse", raising=False)
    module = importlib.import_module("firstuse")
    assert "firstuse.heavy" not in sys.modules  # opening the package imports none of them
    from firstuse import Thing, deep_name, dumps, make

    assert Thing is importlib.import_module("firstuse.heavy").Thing and make() == 1 and deep_name == "deep"
    assert dumps is importlib.import_module("json").dumps and vars(module)["make"] is make  # kept
    with pytest.raises(AttributeError, match="no attribute 'other'"):
        module.other  # noqa: B018
    for name in [m for m in sys.modules if m.startswith("firstuse")]:
        monkeypatch.delitem(sys.modules, name)


def test_a_renamed_type_checking_import_is_refused(tmp_path, monkeypatch) -> None:
    """First use imports a name by the name it is asked for, so `import a as b` cannot be served."""
    (tmp_path / "renamed.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from paralign._moved import first_use_imports\n"
        "if TYPE_CHECKING:\n"
        "    from json import dumps as to_json\n"
        "__getattr__ = first_use_imports(__name__, globals())\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "renamed", raising=False)
    module = importlib.import_module("renamed")
    with pytest.raises(ImportError, match="imports dumps as to_json"):
        module.to_json  # noqa: B018
    monkeypatch.delitem(sys.modules, "renamed")
