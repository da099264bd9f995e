"""Word aligners, one module each (Sultan et al. 2014 in :mod:`paralign.aligners.sultan`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .sultan import Aligner, AlignerConfig

__all__ = ["Aligner", "AlignerConfig"]


def __getattr__(name: str) -> Any:
    """Lazy import, so other aligner modules do not pull in the Sultan aligner."""
    if name in __all__:
        from . import sultan

        return getattr(sultan, name)
    raise AttributeError(name)
