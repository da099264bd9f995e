"""ParaEval (Zhou, Lin & Hovy 2006): paraphrase-aware MT evaluation.

The package face: :mod:`.paper` is the paper's two-tier scorer (paraphrases, then unigrams) as
the tool has always computed it. Not for meta-evaluation (:mod:`paralign.metrics.correlation`)
or the command line (:mod:`paralign.cli.paraeval`).
"""

from __future__ import annotations

from ...resources import fast_wordnet_synonyms
from .. import f_measure
from .paper import (
    EXACT,
    PARAPHRASE,
    STAT_COLUMNS,
    SYNONYM,
    TIERS,
    UNMATCHED,
    VERSION,
    MatchedSpan,
    ParaEval,
    ParaEvalMetric,
    ParaEvalScore,
    PreparedReferences,
    SegmentMatch,
    SegmentStats,
    build_sources,
    paraeval,
    paraeval_metrics,
    sum_stats,
)

__all__ = [
    "EXACT", "PARAPHRASE", "STAT_COLUMNS", "SYNONYM", "TIERS", "UNMATCHED", "VERSION",
    "MatchedSpan", "ParaEval", "ParaEvalMetric", "ParaEvalScore", "PreparedReferences",
    "SegmentMatch", "SegmentStats", "build_sources", "f_measure", "fast_wordnet_synonyms",
    "paraeval", "paraeval_metrics", "sum_stats",
]
