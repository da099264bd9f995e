"""ParaEval (Zhou, Lin & Hovy 2006): paraphrase-aware MT evaluation.

The package face. :mod:`.configs` names the configurations (``default``, ``contextual``,
``paper``); :mod:`.paper` is the paper's two-tier scorer (paraphrases, then unigrams) as the tool
has always computed it (:mod:`.paper_values`: its statistics, scores and matched spans);
:mod:`.graded` the graded scorer of the other configs (:mod:`.explained`: what it matched in one
segment); :mod:`.scoring` builds either from a config name with the command line's defaults
(:func:`paraeval` gives what ``paralign paraeval --format json`` prints). Not for
meta-evaluation (:mod:`paralign.metrics.correlation`) or the command line
(:mod:`paralign.cli.paraeval`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._moved import first_use_names
from ...resources import fast_wordnet_synonyms
from .. import f_measure
from .configs import CONFIGS, Config, get_config
from .explained import GradedExplanation, TierMatch
from .paper import (
    STAT_COLUMNS,
    VERSION,
    ParaEval,
    ParaEvalMetric,
    PreparedReferences,
    build_sources,
    paraeval_metrics,
)
from .paper_values import (
    EXACT,
    PARAPHRASE,
    SYNONYM,
    TIERS,
    UNMATCHED,
    MatchedSpan,
    ParaEvalScore,
    SegmentMatch,
    SegmentStats,
    sum_stats,
)

if TYPE_CHECKING:  # pragma: no cover - what a checker sees of the names imported on first use
    from .graded import GradedParaEval
    from .scoring import (
        metrics_of,
        paraeval,
        scorer,
        system_scores,
        systems_scores,
        systems_significance,
    )

#: The module (of this package) of each name imported on first use: the graded scorer imports
#: numpy, and the command line imports this package to list the configs without loading numpy.
_LAZY: dict[str, str] = {
    "GradedParaEval": "graded",
    "metrics_of": "scoring",
    "paraeval": "scoring",
    "scorer": "scoring",
    "system_scores": "scoring",
    "systems_scores": "scoring",
    "systems_significance": "scoring",
}


__getattr__ = first_use_names(__name__, {name: f"{__name__}.{module}" for name, module in _LAZY.items()}, globals())


__all__ = [
    "CONFIGS", "Config", "GradedExplanation", "GradedParaEval", "TierMatch", "get_config", "metrics_of",
    "scorer", "system_scores", "systems_scores", "systems_significance",
    "EXACT", "PARAPHRASE", "STAT_COLUMNS", "SYNONYM", "TIERS", "UNMATCHED", "VERSION",
    "MatchedSpan", "ParaEval", "ParaEvalMetric", "ParaEvalScore", "PreparedReferences",
    "SegmentMatch", "SegmentStats", "build_sources", "f_measure", "fast_wordnet_synonyms",
    "paraeval", "paraeval_metrics", "sum_stats",
]
