"""Sentence similarity and paraphrase identification from word alignments (Sultan et al. 2014, 4.2).

aligned pair -> signals (scores) -> STS correlation | features -> model -> threshold -> paraphrase?

The similarity of two sentences is read off their word alignment: the more of their content
words align, the more similar they are. :mod:`.signals` holds the scores (registered by name in
``SIGNALS``), :mod:`.scores` aligns and scores batches, :mod:`.sts` correlates scores with gold
STS scores, :mod:`.features` and :mod:`.model` make the paraphrase classifier,
:mod:`.thresholds` and :mod:`.validation` choose and compare thresholds on training pairs, and
:mod:`.paraphrase` evaluates paraphrase identification.

This module only re-exports: the signals and scores (and the parts that register signals) at
import, the STS, paraphrase-identification, threshold and validation parts and their names on
first use (``_LAZY``, ``_PARTS``), so opening the package loads none of them. Names that lived
in the old ``similarity.py`` but now belong to another part (aligners, input reading) still work
from here until paralign 0.3, with a DeprecationWarning.
"""

from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING
from typing import Any as _Any

from .._moved import first_use_names as _first_use_names
from .._moved import moved_names
from . import contextual, hybrid  # noqa: F401 - they register the embedding, contextual-alignment and hybrid signals
from .scores import (
    SimilarityBatch,
    map_aligned,
    score_aligned,
    similarity,
    similarity_many,
    training_sentences,
)
from .signals import (
    DEFAULT_SIGNAL,
    SIGNALS,
    ContentProportion,
    IdfTable,
    Signal,
    SignalFactory,
    content_indices,
    fit_on_files,
    fit_signal,
    is_content_word,
    is_number,
    make_signal,
    needs_fit,
    register_signal,
)

if TYPE_CHECKING:  # pragma: no cover - what a checker sees of the names imported on first use (_LAZY)
    from .paraphrase import (
        CLASSIFIERS,
        DEFAULT_CLASSIFIER,
        PARAPHRASE_PRESET,
        ParaphraseEvaluation,
        evaluate_feature_rows,
        evaluate_paraphrase,
        evaluate_paraphrase_files,
        features_evaluation,
        paraphrase_from_scores,
    )
    from .sts import (
        StsEvaluation,
        StsFileResult,
        StsReport,
        evaluate_sts,
        evaluate_sts_files,
        pearson,
        spearman,
        sts_from_scores,
        weighted_mean,
    )
    from .thresholds import (
        BOOTSTRAP_SAMPLES,
        DEFAULT_THRESHOLD_RULE,
        THRESHOLD_RULES,
        BinaryScores,
        accuracy_curve,
        binary_scores,
        choose_threshold,
    )
    from .validation import (
        CrossValidation,
        cross_validate_model,
        cross_validate_threshold,
        mcnemar,
        stratified_folds,
    )

#: Names imported on first use from the parts that only STS and paraphrase identification need
#: (the signals and the scores are imported above: the signals' registry must hold every signal
#: whichever part asks for one, and the hybrid signal imports the scores).
_LAZY: dict[str, str] = {
    **dict.fromkeys(["CLASSIFIERS", "DEFAULT_CLASSIFIER", "PARAPHRASE_PRESET", "ParaphraseEvaluation",
                     "evaluate_feature_rows", "evaluate_paraphrase", "evaluate_paraphrase_files",
                     "features_evaluation", "paraphrase_from_scores"], f"{__name__}.paraphrase"),
    **dict.fromkeys(["StsEvaluation", "StsFileResult", "StsReport", "evaluate_sts", "evaluate_sts_files", "pearson",
                     "spearman", "sts_from_scores", "weighted_mean"], f"{__name__}.sts"),
    **dict.fromkeys(["BOOTSTRAP_SAMPLES", "DEFAULT_THRESHOLD_RULE", "THRESHOLD_RULES", "BinaryScores",
                     "accuracy_curve", "binary_scores", "choose_threshold"], f"{__name__}.thresholds"),
    **dict.fromkeys(["CrossValidation", "cross_validate_model", "cross_validate_threshold", "mcnemar",
                     "stratified_folds"], f"{__name__}.validation"),
}

#: The parts `paralign.similarity.NAME` gives (as when this module imported them all): imported
#: when first asked for, as a name of theirs is.
_PARTS = frozenset({"features", "model", "paraphrase", "paraphrase_evaluation", "paraphrase_features", "split_notes",
                    "sts", "thresholds", "validation"})

__all__ = [
    "BOOTSTRAP_SAMPLES",
    "CLASSIFIERS",
    "DEFAULT_CLASSIFIER",
    "DEFAULT_SIGNAL",
    "DEFAULT_THRESHOLD_RULE",
    "PARAPHRASE_PRESET",
    "SIGNALS",
    "THRESHOLD_RULES",
    "BinaryScores",
    "ContentProportion",
    "CrossValidation",
    "IdfTable",
    "ParaphraseEvaluation",
    "Signal",
    "SignalFactory",
    "SimilarityBatch",
    "StsEvaluation",
    "StsFileResult",
    "StsReport",
    "accuracy_curve",
    "binary_scores",
    "choose_threshold",
    "content_indices",
    "cross_validate_model",
    "cross_validate_threshold",
    "evaluate_feature_rows",
    "evaluate_paraphrase",
    "evaluate_paraphrase_files",
    "evaluate_sts",
    "evaluate_sts_files",
    "features_evaluation",
    "fit_on_files",
    "fit_signal",
    "is_content_word",
    "is_number",
    "make_signal",
    "map_aligned",
    "mcnemar",
    "needs_fit",
    "paraphrase_from_scores",
    "pearson",
    "register_signal",
    "score_aligned",
    "similarity",
    "similarity_many",
    "spearman",
    "stratified_folds",
    "sts_from_scores",
    "training_sentences",
    "weighted_mean",
]

# Moved out of the old similarity.py to the part they belong to; the old names work until 0.3.
_moved = moved_names(
    __name__,
    {
        "AlignedSentences": "paralign.alignment",
        "AlignFunction": "paralign.alignment",
        "TextLike": "paralign.aligners.batch",
        "ALIGNER_NAMES": "paralign.aligners.registry",
        "PresetAligner": "paralign.aligners.registry",
        "aligner_label": "paralign.aligners.registry",
        "default_aligner": "paralign.aligners.registry",
        "get_aligner": "paralign.aligners.registry",
        "exact_match_aligner": "paralign.aligners.exact",
        "AlignedBatch": "paralign.aligners.batch",
        "PairFailure": "paralign.aligners.batch",
        "align_pairs": "paralign.aligners.batch",
        "read_sentence_pairs": "paralign.corpora.sentence_pairs",
        "sentences_from_file": "paralign.corpora.sentence_pairs",
        "iter_sentences_from_file": "paralign.corpora.sentence_pairs",
    },
)
_first_use = _first_use_names(__name__, _LAZY, globals())


def __getattr__(name: str) -> _Any:
    """A name of :data:`_LAZY` or a part of :data:`_PARTS`, imported now; an old name, with its warning."""
    if name in _LAZY:
        return _first_use(name)
    if name in _PARTS:
        return _importlib.import_module(f"{__name__}.{name}")
    return _moved(name)


def __dir__() -> list[str]:
    """The module's names, the public ones imported on first use and the parts, so ``dir()`` and
    ``help()`` list them (not TYPE_CHECKING, the checker's flag: it listed none before)."""
    return sorted(set(globals()) - {"TYPE_CHECKING"} | set(__all__) | _PARTS)
