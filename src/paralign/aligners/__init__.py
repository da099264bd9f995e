"""Word aligners: a registry of alignment functions by name, one module (or package) per aligner.

name -> registry (get_aligner) -> sultan/ | exact -> batch (many pairs) -> evaluation (gold)

This module only re-exports. ``Aligner`` and ``AlignerConfig`` (the Sultan aligner) are imported
on first use, so choosing an aligner by name does not load spaCy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .exact import ExactAligner, exact_match_aligner
from .registry import ALIGNER_NAMES, PresetAligner, aligner_label, default_aligner, get_aligner

if TYPE_CHECKING:  # pragma: no cover
    from .sultan import Aligner, AlignerConfig

__all__ = [
    "ALIGNER_NAMES",
    "Aligner",
    "AlignerConfig",
    "ExactAligner",
    "PresetAligner",
    "aligner_label",
    "default_aligner",
    "exact_match_aligner",
    "get_aligner",
]

_SULTAN = ("Aligner", "AlignerConfig")


def __getattr__(name: str) -> Any:
    """Lazy import, so other aligner modules do not pull in the Sultan aligner."""
    if name in _SULTAN:
        from . import sultan

        return getattr(sultan, name)
    raise AttributeError(name)


def __dir__() -> list[str]:
    """The module's names and the lazily imported public ones, so ``dir()`` and ``help()`` list them."""
    return sorted(set(globals()) | set(__all__))
