"""The user documentation stays true where a program can tell. docs/ARCHITECTURE.md ("the map:
keep it true") names every module of src/paralign (a package's modules in its package's row) and
states the layers of the ``layers`` contract in pyproject.toml.

The README's library examples run as doctests in tests/test_readme.py.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "paralign"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"


# -- docs/ARCHITECTURE.md against the tree and pyproject.toml ----------------------------------


def architecture_rows() -> dict[str, str]:
    """The parts table: `part` -> the row's text."""
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", ARCHITECTURE.read_text(encoding="utf-8"), re.M)
    return dict(rows)


def unnamed_modules() -> list[str]:
    """Modules of src/paralign that ARCHITECTURE.md does not name: a top-level module or package
    by a row or in its text (`config.py`, `__main__.py`), any other module (`fsa.py`) or
    package (`reports/`) in the row of the nearest package above it that has one, or by its
    path anywhere (`aligners/wordsim.py`, an old-path file). The command
    modules of cli/ are its row's "one module per command"."""
    rows, text = architecture_rows(), ARCHITECTURE.read_text(encoding="utf-8")
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts == ("__init__.py",) or (parts[0] == "cli" and len(parts) == 2 and not parts[1].startswith("_")):
            continue
        is_face = parts[-1] == "__init__.py"
        folders = parts[:-2] if is_face else parts[:-1]
        name = parts[-2] + "/" if is_face else parts[-1]
        if "/".join(folders + (name,)) in rows:
            continue
        if not folders:
            named = f"`{name}`" in text
        else:
            owner = next(n for n in range(len(folders), -1, -1) if n == 0 or "/".join(folders[:n]) + "/" in rows)
            row = rows.get("/".join(folders[:owner]) + "/", text)
            named = f"`{name}`" in row or f"`{'/'.join(folders[owner:] + (name,))}`" in row \
                or f"`{'/'.join(parts)}`" in text  # an old-path file, by its path
        if not named:
            missing.append("/".join(parts))
    return missing


def test_architecture_names_every_module() -> None:
    missing = unnamed_modules()
    assert not missing, f"modules docs/ARCHITECTURE.md does not name (in their package's row): {missing}"


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def architecture_layers() -> list[set[str]]:
    """The layers of ARCHITECTURE.md's block, top first: each numbered line's parts (`a | b/`,
    before the description), with the parts of an unnumbered line that continues them."""
    block = ARCHITECTURE.read_text(encoding="utf-8").split("Layers, top to bottom.")[1].split("```")[1]
    layers: list[set[str]] = []
    for line in block.strip("\n").splitlines():
        numbered = re.match(r"\s*\d+\S*\s+(.*)", line)
        if not numbered and (line[:20].strip() == "" or not layers):
            continue  # a description's second line
        parts = re.split(r"\s{2,}", (numbered[1] if numbered else line).strip())[0]
        names = {n.strip().rstrip("/") for n in parts.split("|") if n.strip()}
        if numbered:
            layers.append(names)
        else:
            layers[-1] |= names
    return layers


def test_architecture_states_the_layers_of_the_contract() -> None:
    contract = [{part.strip() for part in layer.split("|")} for layer in _contracts()["layers"]["layers"]]
    assert architecture_layers() == contract
