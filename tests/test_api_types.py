"""What a user's editor and type checker see of the public API: the aligner a constructor
builds, and what the functions that take an aligner need of it (checked on the annotations, as
the project runs no type checker)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_aligner_new_says_which_aligner_it_builds() -> None:
    """`Aligner.__new__` was typed `-> Any` (it builds a ContextualAligner for "contextual"), so
    pyright (an editor's checker) typed `Aligner()` as Any and offered no `.align`. Its
    overloads give the real types: a ContextualAligner for the "contextual" literal, an Aligner
    otherwise."""
    from paralign.aligners.sultan import Aligner

    overloads = typing.get_overloads(Aligner.__new__)
    returns = [o.__annotations__["return"] for o in overloads]
    assert returns == ["ContextualAligner", "Aligner"]
    assert overloads[0].__annotations__["similarity"] in ('Literal["contextual"]', "Literal['contextual']")


@pytest.mark.parametrize("package", ["paralign", "paralign.lattice", "paralign.metrics.paraeval", "paralign.similarity"])
def test_the_lazy_names_of_paralign_are_typed_for_a_checker(package: str) -> None:
    """`paralign.Aligner` (and every name a package imports on first use) came from the module's
    `__getattr__`, typed Any: `paralign.Aligner().align` was unknown to a checker. Each lazy name
    is imported under `if TYPE_CHECKING:` too, so a checker sees the real class or function. The
    two lists are written apart (`_LAZY` for the interpreter, the block for the checker), so this
    holds them alike: the same names, each from the same module."""
    module = importlib.import_module(package)
    path = ROOT / "src" / Path(*package.split(".")) / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typed = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.ImportFrom):
                    home = importlib.util.resolve_name("." * item.level + (item.module or ""), package)
                    typed.update({alias.asname or alias.name: home for alias in item.names})
    lazy = {name: home if home.startswith("paralign") else f"{package}.{home}" for name, home in module._LAZY.items()}
    assert lazy == typed


def _members(protocol: type) -> set[str]:
    """The names a Protocol asks for, its bases' included."""
    return {name for cls in protocol.__mro__ if getattr(cls, "_is_protocol", False) and cls is not typing.Protocol
            for name in vars(cls) if not name.startswith("_")}


def _has(cls: type, name: str) -> bool:
    """Whether instances of `cls` have `name`: a class attribute or property, or an instance
    attribute the class declares (the Sultan aligner's ``config``, set by ``__init__``)."""
    return hasattr(cls, name) or any(name in inspect.get_annotations(base) for base in cls.__mro__)


def test_evaluate_aligner_takes_what_both_aligners_are() -> None:
    """evaluate_aligner and tune_aligner were typed to take the Sultan `Aligner`, though they
    take the contextual aligner too (Aligner("contextual") is one). They are typed with a
    Protocol of what they use, which both aligners have."""
    from paralign.aligners import evaluation
    from paralign.aligners.contextual import ContextualAligner
    from paralign.aligners.sultan import Aligner

    for function in (evaluation.evaluate_aligner, evaluation.evaluate_aligner_pairs, evaluation.tune_aligner):
        protocol = typing.get_type_hints(function)["aligner"]
        assert getattr(protocol, "_is_protocol", False), (function.__name__, protocol)
        assert _members(protocol) and all(_has(cls, name) for cls in (Aligner, ContextualAligner)
                                          for name in _members(protocol))
