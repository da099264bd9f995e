"""Names a module serves from another: old import paths that keep working for one release, with
a DeprecationWarning, and a package's names loaded from their modules on first use.

When the layout moves a name, its old module keeps a module-level ``__getattr__`` made by
:func:`moved_names`, so ``from paralign.old import name`` still works and says where the name lives
now. When a whole module moves, its old file calls :func:`alias_module` and becomes the new module.

A package whose names would load heavy libraries when opened serves them with
:func:`first_use_names` instead (``paralign``, ``paralign.lattice``): each is imported from its
module when first asked for, then kept in the package. :func:`first_use_imports` reads those
names and modules from the package's own ``if TYPE_CHECKING:`` imports, so one list serves the
type checker and the package (``paralign.lattice``).

Not for: anything but names served from another module. No behaviour lives here, and library
code never imports an old path (the warning is for users' code).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

#: The release that drops the old paths.
REMOVED_IN = "0.3"


def _warn(old: str, new: str, stacklevel: int) -> None:
    warnings.warn(
        f"{old} has moved to {new}; the old path is removed in paralign {REMOVED_IN}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def moved_names(old_module: str, new_homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that serves each moved name from its new module, with a warning.

    ``new_homes`` maps a name to the module it now lives in, or to ``module:new_name`` when it
    was renamed too."""

    def __getattr__(name: str) -> Any:
        home = new_homes.get(name)
        if home is None:
            raise AttributeError(f"module {old_module!r} has no attribute {name!r}")
        module, _, new_name = home.partition(":")
        new_name = new_name or name
        _warn(f"{old_module}.{name}", f"{module}.{new_name}", stacklevel=3)
        return getattr(importlib.import_module(module), new_name)

    return __getattr__


def alias_module(old_module: str, new_module: str) -> None:
    """Make ``old_module`` the module ``new_module`` (same object, private names too), with a warning.

    Call it from the old module's file: ``alias_module(__name__, "paralign.new.place")``."""
    _warn(old_module, new_module, stacklevel=4)
    module = importlib.import_module(new_module)
    sys.modules[old_module] = module
    parent, _, child = old_module.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, module)


def first_use_names(package: str, homes: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for `package` that imports each name of `homes` (name -> the
    module it lives in) on first use and keeps it in `namespace` (the package's ``globals()``),
    so the module is asked once; any other name is an AttributeError."""

    def __getattr__(name: str) -> Any:
        module = homes.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(importlib.import_module(module), name)
        return value

    return __getattr__


def type_checking_homes(package: str) -> dict[str, str]:
    """{name: module} of each ``from module import name`` in the ``if TYPE_CHECKING:`` block at the
    top level of `package`'s source (relative modules resolved against it): the names a type
    checker sees imported there. ImportError when the source cannot be read (a package installed
    without its .py files) or the block renames a name (``import a as b``: first use imports by
    the one name)."""
    import ast

    get_source = getattr(getattr(sys.modules[package].__spec__, "loader", None), "get_source", None)
    source = get_source(package) if get_source is not None else None
    if source is None:
        raise ImportError(f"{package}: its names load on first use from its source's TYPE_CHECKING imports, "
                          "and its source cannot be read")
    homes: dict[str, str] = {}
    for block in ast.parse(source).body:
        if not (isinstance(block, ast.If) and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")):
            continue
        for line in block.body:
            if not isinstance(line, ast.ImportFrom):
                continue
            base = package if line.level else ""
            for _ in range(line.level - 1):
                base = base.rpartition(".")[0]
            module = ".".join(part for part in (base, line.module) if part)
            for alias in line.names:
                if alias.asname not in (None, alias.name):
                    raise ImportError(f"{package}: TYPE_CHECKING imports {alias.name} as {alias.asname}; "
                                      "a name loaded on first use keeps its name")
                homes[alias.name] = module
    return homes


def first_use_imports(package: str, namespace: dict[str, Any]) -> Callable[[str], Any]:
    """:func:`first_use_names` for the names of `package`'s ``if TYPE_CHECKING:`` imports
    (:func:`type_checking_homes`, read when a name is first asked for, so opening the package
    parses nothing): the block the type checker reads is the one list of them."""
    homes: dict[str, str] = {}
    served: list[Callable[[str], Any]] = []

    def __getattr__(name: str) -> Any:
        if not served:
            homes.update(type_checking_homes(package))
            served.append(first_use_names(package, homes, namespace))
        return served[0](name)

    return __getattr__
