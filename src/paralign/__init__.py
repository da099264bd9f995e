"""paralign: paraphrase-aware comparison of English text.

The public API is re-exported here; submodules hold the details.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .alignment import Alignment, symmetrize
from .config import configure_nltk_data
from .errors import (
    AlignmentIndexError,
    ConfigurationError,
    FormatError,
    MismatchError,
    ParalignError,
    ResourceMissingError,
)
from .nlp import Annotator, annotate, annotate_many
from .paraphrases import ParaphraseSource, ParaphraseTable, WordNetSynonyms, ppdb_table
from .sentence import Entity, Sentence, Token

configure_nltk_data()

__all__ = [
    "Alignment",
    "AlignmentIndexError",
    "Annotator",
    "ConfigurationError",
    "Entity",
    "FormatError",
    "MismatchError",
    "ParalignError",
    "ParaphraseSource",
    "ParaphraseTable",
    "ResourceMissingError",
    "Sentence",
    "Token",
    "WordNetSynonyms",
    "__version__",
    "annotate",
    "annotate_many",
    "ppdb_table",
    "symmetrize",
]
