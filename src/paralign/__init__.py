"""paralign: paraphrase-aware comparison of English text.

The public API is re-exported here; submodules hold the details. Heavy parts (the aligner,
metrics, pivoting, lattices) are imported on first use, so `import paralign` stays cheap.

Where to start (each name's ``help()`` has its own example; docs/api.md is the tour):

>>> import paralign
>>> aligner = paralign.Aligner()                    # loads its data once: build one, reuse it
>>> aligner.align("The senator sponsored the bill.", "The senator drafted the bill.")
Alignment.from_pharaoh('0-0 1-1 3-3 4-4 5-5')
>>> round(paralign.similarity("The senator sponsored the bill.", "The senator drafted the bill."), 3)
0.667

Then ``paralign.evaluate_aligner`` (an aligner against a gold file), ``paralign.paraeval`` (MT
output against references), ``paralign.similarity_many``, ``paralign.build_lattice``;
``paralign.__all__`` lists every name.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ._moved import first_use_names
from ._moved import keep_over_submodule as _keep_over_submodule
from ._version import __version__
from .aligners import get_aligner
from .alignment import AlignedSentences, Alignment, symmetrize
from .corpora import AlignedPair, load_groups, load_pairs
from .errors import (
    AlignmentIndexError,
    ClusterStalledError,
    ConfigurationError,
    EmptyScoringError,
    ExtraMissingError,
    FormatError,
    InputFileError,
    InputTypeError,
    LatticeError,
    MismatchError,
    ParalignError,
    ResourceMissingError,
    SameReferenceError,
    SimilarityError,
    TokenIndexError,
)
from .nlp import Annotator, annotate, annotate_many
from .paraphrases import ParaphraseSource, ParaphraseTable, WordNetSynonyms, ppdb_table
from .sentence import Entity, Sentence, Token

if TYPE_CHECKING:  # pragma: no cover - what a checker sees of the names imported on first use (_LAZY)
    from .aligners.evaluation import evaluate_aligner
    from .aligners.sultan import Aligner, AlignerConfig
    from .lattice import Lattice, LatticeOptions, build_lattice
    from .metrics.alignment_scores import score_alignments
    from .metrics.paraeval import ParaEval, paraeval
    from .metrics.parametric import align_scores, table_scores
    from .phrases import PhrasePair, phrase_pairs
    from .pivot import PivotOptions, monolingual_paraphrases, pivot_paraphrases
    from .similarity import evaluate_paraphrase, evaluate_sts, similarity, similarity_many
    from .similarity.model import LogisticModel
    from .viz.notebook import load_ipython_extension as load_ipython_extension
    from .viz.notebook import unload_ipython_extension as unload_ipython_extension
    from .workers import parallel

#: Names imported lazily from submodules on first attribute access.
_LAZY: dict[str, str] = {
    "Aligner": "paralign.aligners.sultan",
    "AlignerConfig": "paralign.aligners.sultan",
    "score_alignments": "paralign.metrics.alignment_scores",
    "evaluate_aligner": "paralign.aligners.evaluation",
    "PhrasePair": "paralign.phrases",
    "phrase_pairs": "paralign.phrases",
    "align_scores": "paralign.metrics.parametric",
    "table_scores": "paralign.metrics.parametric",
    "ParaEval": "paralign.metrics.paraeval",
    "paraeval": "paralign.metrics.paraeval",
    "pivot_paraphrases": "paralign.pivot",
    "monolingual_paraphrases": "paralign.pivot",
    "Lattice": "paralign.lattice",
    "LatticeOptions": "paralign.lattice",
    "PivotOptions": "paralign.pivot",
    "LogisticModel": "paralign.similarity.model",
    # the function `similarity` shares its name with its package: _keep_over_submodule below
    "similarity": "paralign.similarity",
    "similarity_many": "paralign.similarity",
    "evaluate_sts": "paralign.similarity",
    "evaluate_paraphrase": "paralign.similarity",
    "build_lattice": "paralign.lattice",
    "parallel": "paralign.workers",
    # IPython's extension hooks (`%load_ext paralign`), not API: not in __all__
    "load_ipython_extension": "paralign.viz.notebook",
    "unload_ipython_extension": "paralign.viz.notebook",
}


#: Names a newcomer reaches for that paralign has under another, with what to call instead: the
#: AttributeError says it (``paralign.align``, as the command ``paralign align`` is named, was
#: "module 'paralign' has no attribute 'align'").
_ELSEWHERE: dict[str, str] = {
    "align": "an Aligner's align: aligner = paralign.Aligner(); aligner.align(source, target) (build "
             "one and reuse it: it loads its data once), or paralign.get_aligner(name)(source, target)",
}

__getattr__ = first_use_names(__name__, _LAZY, globals(), elsewhere=_ELSEWHERE)

__all__ = [
    "AlignedPair",
    "AlignedSentences",
    "Aligner",
    "AlignerConfig",
    "Alignment",
    "AlignmentIndexError",
    "Annotator",
    "ClusterStalledError",
    "ConfigurationError",
    "EmptyScoringError",
    "ExtraMissingError",
    "Entity",
    "FormatError",
    "InputFileError",
    "InputTypeError",
    "Lattice",
    "LatticeError",
    "LatticeOptions",
    "LogisticModel",
    "MismatchError",
    "ParaEval",
    "ParalignError",
    "ParaphraseSource",
    "ParaphraseTable",
    "PhrasePair",
    "PivotOptions",
    "ResourceMissingError",
    "SameReferenceError",
    "Sentence",
    "SimilarityError",
    "Token",
    "TokenIndexError",
    "WordNetSynonyms",
    "__version__",
    "align_scores",
    "annotate",
    "annotate_many",
    "build_lattice",
    "evaluate_aligner",
    "evaluate_paraphrase",
    "evaluate_sts",
    "get_aligner",
    "load_groups",
    "load_pairs",
    "monolingual_paraphrases",
    "paraeval",
    "parallel",
    "phrase_pairs",
    "pivot_paraphrases",
    "ppdb_table",
    "score_alignments",
    "similarity",
    "similarity_many",
    "symmetrize",
    "table_scores",
]


# `paralign.similarity` is the function, not the package of the same name, whatever is imported first.
_keep_over_submodule(__name__, "similarity")


def __dir__() -> list[str]:
    """The module's names and the lazily imported public ones, so ``dir()`` and ``help()`` list them."""
    return sorted(set(globals()) | set(__all__))


# Inside a running IPython (a Jupyter kernel, an IPython shell) paralign's results show as pictures
# and tables, as after `%load_ext paralign` (paralign.viz.notebook); elsewhere nothing is done and
# IPython is not imported.
if sys.modules.get("IPython") is not None:
    from .viz.notebook import load_in_running_shell

    load_in_running_shell()
