"""Sultan, Bethard & Sumner (2014) monolingual word aligner, re-implemented for spaCy.

options (:class:`AlignerConfig`, :data:`PRESETS`) -> annotated sentences indexed
(:class:`Prepared`) -> greedy modules, wsAlign to swTextAlign (:mod:`.modules`) -> sure links
(:class:`Aligner`); word similarity in :mod:`.wordsim`, dependency equivalences in
:mod:`.depequiv`, external Stanford parses in :mod:`.external_parse`.

Not for: other aligners (:mod:`paralign.aligners`), scoring or tuning on gold alignments
(:mod:`paralign.aligners.evaluation`). This file only re-exports.
"""

from __future__ import annotations

from .aligner import Aligner
from .options import (
    DEFAULT_ENTITY_TYPES,
    PAPER_OPTIONS,
    PARAPHRASE_OPTIONS,
    PRESETS,
    AlignerConfig,
    preset_options,
)
from .prepared import (
    ARTICLE_VARIANTS,
    MODAL_LEMMAS,
    PTB_ESCAPES,
    SYMBOL_WORDS,
    Link,
    Prepared,
    unescape_ptb,
)

__all__ = [
    "ARTICLE_VARIANTS", "DEFAULT_ENTITY_TYPES", "MODAL_LEMMAS", "PAPER_OPTIONS",
    "PARAPHRASE_OPTIONS", "PRESETS", "PTB_ESCAPES", "SYMBOL_WORDS", "Aligner", "AlignerConfig",
    "Link", "Prepared", "preset_options", "unescape_ptb",
]
