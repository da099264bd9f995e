"""Names a module serves from another: old import paths that keep working for one release, with
a DeprecationWarning, and a package's names loaded from their modules on first use.

When the layout moves a name, its old module keeps a module-level ``__getattr__`` made by
:func:`moved_names`, so ``from paralign.old import name`` still works and says where the name lives
now. When a whole module moves, its old file calls :func:`alias_module` and becomes the new module.

A package whose names would load heavy libraries when opened serves them with
:func:`first_use_names` instead (``paralign``, ``paralign.lattice``,
``paralign.metrics.paraeval``, ``paralign.neural``, ``paralign.similarity``): each is imported
from its module when first asked for, then kept in the package. :func:`keep_over_submodule`
keeps such a name when it is also the name of a submodule (``paralign.similarity``, the function
and the package).

Not for: anything but names served from another module. No behaviour lives here, and library
code never imports an old path (the warning is for users' code).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from types import ModuleType
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


def first_use_names(package: str, homes: Mapping[str, str], namespace: dict[str, Any],
                    elsewhere: Mapping[str, str] | None = None) -> Callable[[str], Any]:
    """A module ``__getattr__`` for `package` that imports each name of `homes` (name -> the
    module it lives in) on first use and keeps it in `namespace` (the package's ``globals()``),
    so the module is asked once; a name of `elsewhere` (name -> what to use instead: a name a
    newcomer reaches for that the package has under another) is an AttributeError saying what
    to use; any other name is an AttributeError."""

    def __getattr__(name: str) -> Any:
        if elsewhere is not None and name in elsewhere:
            raise AttributeError(f"module {package!r} has no attribute {name!r}: use {elsewhere[name]}",
                                 name=name, obj=sys.modules[package])
        module = homes.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(importlib.import_module(module), name)
        return value

    return __getattr__


def keep_over_submodule(package: str, name: str) -> None:
    """Make the package `package` keep its attribute `name` when its submodule of that name is imported.

    The import system binds a package's submodule as its attribute once the submodule is
    imported (by a first use through :func:`first_use_names`, or by anyone's ``from
    package.name import ...``). ``paralign.similarity`` is the function, which is served on
    first use from the package ``paralign.similarity`` whose name it shares: that binding is
    dropped, so the name keeps (or gets on first use) the function. The submodule is still
    ``sys.modules[f"{package}.{name}"]`` and ``from package.name import X`` works as ever."""
    submodule = f"{package}.{name}"

    class _Package(ModuleType):
        def __setattr__(self, attr: str, value: Any) -> None:
            if attr == name and isinstance(value, ModuleType) and value.__name__ == submodule:
                return
            super().__setattr__(attr, value)

    sys.modules[package].__class__ = _Package
