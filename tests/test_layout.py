"""The layout's rules, checked by tools instead of by hand (docs/ARCHITECTURE.md):

- the import-linter contracts in pyproject.toml hold (layers in data-flow order, CLI commands
  independent, the library never importing the CLI);
- no import cycle between modules of src/paralign;
- no module over 600 lines, no function over 80 lines unless a ``# long:`` comment above it says why;
- tests/ mirrors src/paralign/;
- mypy finds no error in src/paralign and benchmarks, and ruff none in src, tests and benchmarks;
- every ``type: ignore`` in src names its code and a reason.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "paralign"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
#: Modules allowed over the limit for now, with the issue that will split them.
LONG_MODULES_ALLOWED: dict[str, str] = {}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_ids(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
            if name == "TYPE_CHECKING":
                skip.update(id(n) for sub in node.body for n in ast.walk(sub))
    return skip


def import_graph() -> dict[str, set[str]]:
    """Module -> package modules it imports (top level and inside functions; not under
    TYPE_CHECKING). Edges leaving an ``__init__`` are left out: a face re-exports its children,
    so a child importing a sibling through the face is not a cycle."""
    names = {_name(p): p for p in _modules()}
    graph: dict[str, set[str]] = {}
    for me, path in names.items():
        graph[me] = set()
        if path.name == "__init__.py":
            continue
        package = me.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_ids(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            for target in targets:
                while target and target not in names:
                    target = target.rpartition(".")[0]
                if target and target != me:
                    graph[me].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of modules, or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in graph:
        if state.get(start):
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph.get(nxt, ()))))
    return None


def test_find_cycle_finds_one_and_only_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_import_contracts_hold() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if lint is None:
        pytest.fail("lint-imports is not installed (pip install -e '.[dev]' installs import-linter)")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout


def test_annotations_type_check() -> None:
    """mypy finds no error in src/paralign and benchmarks ([tool.mypy] in pyproject.toml): paralign ships
    py.typed, so users' type checkers read its annotations as they are, and a wrong one is an
    error in their code. mypy found five bugs the tests had not (0.2.9)."""
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed (pip install -e '.[dev]' installs it)")
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


#: A ``type: ignore`` kept in src: its codes and, after two spaces, why mypy cannot follow the line.
_IGNORE_WITH_REASON = re.compile(r"# type: ignore\[[a-z-]+(?:, ?[a-z-]+)*\]  # \S")


def _ignores_without_reason(path: Path) -> list[tuple[int, str]]:
    """The (line, comment) of each ``type: ignore`` comment in `path` that lacks a code or a reason."""
    with path.open(encoding="utf-8") as f:
        return [(t.start[0], t.string) for t in tokenize.generate_tokens(f.readline)
                if t.type == tokenize.COMMENT and "type: ignore" in t.string
                and not _IGNORE_WITH_REASON.search(t.string)]


def test_every_type_ignore_names_its_code_and_reason() -> None:
    """A ``# type: ignore`` silences mypy on its line for good, and one without a reason hid a bug
    (fit_hybrid with an empty grid, 0.2.9): each names its error codes and says why the line is
    right, as ``# type: ignore[code]  # reason``, so a reader can judge it."""
    bare = [f"{p.relative_to(ROOT)}:{n}: {c}" for p in _modules() for n, c in _ignores_without_reason(p)]
    assert not bare, "type: ignore without [code] and a reason:\n" + "\n".join(bare)


def test_the_ignore_check_finds_a_bare_one(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("x = 1  # type: ignore[misc]\ny = 2  # type: ignore[misc]  # why\n"
                      "s = '# type: ignore'\nz = 3  # type: ignore\n", encoding="utf-8")
    assert [n for n, _ in _ignores_without_reason(module)] == [1, 4]


#: ruff's options for PEP 8's blank-line rules, as make lint runs them beside [tool.ruff]'s.
BLANK_LINE_RULES = ("--preview", "--select", "E301,E302,E303,E304,E305,E306")


def test_ruff_is_clean() -> None:
    """ruff check over src, tests and benchmarks ([tool.ruff] in pyproject.toml, and PEP 8's
    blank lines), as make lint runs it."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed (pip install -e '.[dev]' installs it)")
    done = subprocess.run([ruff, "check", "--no-cache", "src", "tests", "benchmarks"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    # PEP 8's blank lines are ruff preview rules; [tool.ruff] cannot turn on preview for them
    # alone (preview also changes stable rules, such as F822 on the moved names' __all__)
    blank_lines = subprocess.run([ruff, "check", "--no-cache", *BLANK_LINE_RULES, "src", "tests",
                                  "benchmarks"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert blank_lines.returncode == 0, blank_lines.stdout[-6000:] + blank_lines.stderr[-2000:]


def test_no_module_over_the_limit() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert set(long) <= set(LONG_MODULES_ALLOWED), f"modules over {MAX_MODULE_LINES} lines: {long}"


def _long_functions(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            said_why = first >= 2 and lines[first - 2].strip().startswith("# long:")
            if length > MAX_FUNCTION_LINES and not said_why:
                out.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_no_function_over_the_limit_without_a_reason() -> None:
    long = [f for p in _modules() for f in _long_functions(p)]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines without a '# long:' comment: {long}"


def test_tests_mirror_the_package() -> None:
    """Every test folder is a package folder of src/paralign (tests/cli/ for paralign/cli/ ...)."""
    tests = ROOT / "tests"
    folders = {p.relative_to(tests) for p in tests.rglob("*") if p.is_dir() and p.name != "__pycache__"}
    folders = {f for f in folders if not any(part.startswith(".") for part in f.parts)}
    strays = [str(f) for f in folders if not (PACKAGE / f).is_dir() and f.parts[0] != "data"]
    assert not strays, f"test folders without a package of that name in src/paralign: {strays}"
