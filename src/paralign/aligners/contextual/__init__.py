"""The contextual aligner (issue 19): the Sultan pipeline with contextual evidence from a neural
encoder and a link classifier that gives every link a confidence (the ``contextual`` preset).

:mod:`.features` (candidate links and their features, the contextual final pass),
:mod:`.linkmodel` (the boosted trees, read from JSON and run in numpy), :mod:`.aligner`
(:class:`ContextualAligner`). Needs the `neural` extra (torch, transformers, the model package).

Not for: the lexical pipeline (:mod:`paralign.aligners.sultan`). This file only re-exports.
"""

from __future__ import annotations

from .aligner import ContextualAligner
from .features import FEATURES, final_pass
from .linkmodel import LinkModel

__all__ = ["FEATURES", "ContextualAligner", "LinkModel", "final_pass"]
