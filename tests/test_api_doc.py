"""docs/api.md's examples run as doctests, so the tour of the Python API shows what paralign
gives. Every fenced block of the page must be a ```pycon block (a snippet in any other block
would be shown and never run); the blocks share one namespace, in order, run from an empty
folder, as a user of an installed paralign would (they read the demo's gold file from the
package, not examples/ of a checkout); a block whose line before is the comment
``<!-- needs the neural extra ... -->`` is skipped when torch is not installed."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import paralign

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


# -- the table of every name of paralign --------------------------------------------------------


def shown_default(parameter: inspect.Parameter, owner: object) -> str:
    """A default as the page writes it: its repr; a function by its name, a dataclass field's
    factory by what it makes (`frozenset()`), and a repr over 40 characters as `...`."""
    value = parameter.default
    if repr(value) == "<factory>":  # dataclasses' marker of a field with a default_factory
        field = next(f for f in dataclasses.fields(owner) if f.name == parameter.name)  # type: ignore[arg-type]
        value = field.default_factory()  # type: ignore[misc]
    if inspect.isfunction(value) or inspect.isclass(value):
        return value.__name__
    return repr(value) if len(repr(value)) <= 40 else "..."


def public_bases(error: type) -> list[str]:
    """An error's bases by name, a private one (`_Located`) by its own bases."""
    return [name for base in error.__bases__
            for name in (public_bases(base) if base.__name__.startswith("_") else [base.__name__])]


def written_signature(name: str) -> str:
    """`name(parameters)` as docs/api.md's tables write it: the parameters of a function, or of
    a class's constructor, without annotations; an error with its bases; a protocol or a value
    by its name alone. `name` is one of paralign's, or a subpackage's in full
    (`paralign.paraphrases.load_table`)."""
    module, _, attribute = name.rpartition(".")
    value = getattr(importlib.import_module(module) if module else paralign, attribute)
    if inspect.isclass(value) and issubclass(value, BaseException):
        return f"{name}({', '.join(public_bases(value))})"
    if not callable(value) or getattr(value, "_is_protocol", False):
        return name
    if inspect.isclass(value) and value.__init__ is not object.__init__:
        parameters = list(inspect.signature(value.__init__).parameters.values())[1:]  # not self
    else:  # a function, or a class that takes what object() takes
        parameters = list(inspect.signature(value).parameters.values())
    parts: list[str] = []
    for parameter in parameters:
        if parameter.kind is parameter.KEYWORD_ONLY and not any(p.startswith("*") and not p.startswith("**")
                                                                 for p in parts):
            parts.append("*")
        if parameter.kind is parameter.VAR_POSITIONAL:
            parts.append(f"*{parameter.name}")
        elif parameter.kind is parameter.VAR_KEYWORD:
            parts.append(f"**{parameter.name}")
        elif parameter.default is parameter.empty:
            parts.append(parameter.name)
        else:
            parts.append(f"{parameter.name}={shown_default(parameter, value)}")
    return f"{name}({', '.join(parts)})"


def test_the_table_of_names_is_paralign_all_with_its_signatures() -> None:
    """docs/api.md, "Every name of `paralign`": one row per name of `paralign.__all__`, each
    written with the parameters and defaults the code has (the page had no such list: names
    such as `align_scores`, `table_scores`, `load_groups`, `PivotOptions` and nine of the
    thirteen errors were on no page, and none of the signatures)."""
    section = PAGE.read_text(encoding="utf-8").split("## Every name of `paralign`")[1].split("\n## ")[0]
    rows = re.findall(r"^\| `([^`]+)` \| .+ \|$", section.split("The names of the subpackages")[0], re.M)
    documented = {row.split("(")[0]: row for row in rows}
    assert len(documented) == len(rows), "a name has two rows"
    assert set(documented) == set(paralign.__all__), (
        f"not on the page: {sorted(set(paralign.__all__) - set(documented))}; "
        f"not exported: {sorted(set(documented) - set(paralign.__all__))}")
    wrong = [f"page: {row}\ncode: {written_signature(name)}" for name, row in documented.items()
             if row != written_signature(name)]
    assert not wrong, "signatures the page writes otherwise than the code has them:\n" + "\n".join(wrong)


def test_the_signature_check_sees_a_changed_default() -> None:
    assert written_signature("get_aligner") == "get_aligner(name, preset='default')"
    assert written_signature("FormatError") == "FormatError(ParalignError, ValueError)"  # through _Located
    assert written_signature("Alignment") == "Alignment(sure=frozenset(), possible=frozenset(), confidence=None)"
    assert written_signature("Annotator") == "Annotator(model=None, *, disable=(), batch_size=256)"


def test_the_page_names_every_subpackage_face() -> None:
    """Each package of paralign that lists its names in `__all__` is named in the paragraph
    after the table, where `help()` takes a reader further."""
    section = PAGE.read_text(encoding="utf-8").split("## Every name of `paralign`")[1].split("\n## ")[0]
    paragraph = " ".join(section.split("The subpackages' own names")[1].split())
    faces = {".".join(("paralign", *init.parent.relative_to(ROOT / "src" / "paralign").parts))
             for init in (ROOT / "src" / "paralign").rglob("__init__.py")
             if re.search(r"^__all__\b", init.read_text(encoding="utf-8"), re.M)} - {"paralign"}
    assert faces, "no subpackage has __all__"
    missing = sorted(face for face in faces if f"`{face}`" not in paragraph)
    assert not missing, f"subpackages the page does not name: {missing}"


def test_the_subpackage_names_the_page_calls_are_in_its_table_with_their_signatures() -> None:
    """Each name the page's examples import from a subpackage (`from paralign.metrics.paraeval
    import scorer`) and each subpackage function its prose calls (`paralign.paraphrases.load_table(
    path, ...)`) has a row of the second table, written as the code has it (the page showed
    only its examples' calls of them, not their parameters and defaults)."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("The names of the subpackages that this page calls")[1].split("\n## ")[0]
    rows = {row.split("(")[0]: row for row in re.findall(r"^\| `(paralign\.[^`]+)` \| .+ \|$", section, re.M)}
    imported = {f"{module}.{name.strip()}" for module, names in re.findall(r">>> from (paralign\.[\w.]+) import ([\w, ]+)", text)
                for name in names.split(",")}
    called = set(re.findall(r"`(paralign\.[a-z_]+\.[\w.]+)\(", text))
    missing = sorted((imported | called) - set(rows))
    assert not missing, f"names the page uses without a row: {missing}"
    wrong = [f"page: {row}\ncode: {written_signature(name)}" for name, row in rows.items() if row != written_signature(name)]
    assert not wrong, "signatures the page writes otherwise than the code has them:\n" + "\n".join(wrong)
