"""Metrics whose scores a file gives, not computed from texts (``meta-eval --scores``: a user's
own metric), as :func:`.correlation.meta_evaluate` takes them beside the built-in ones.

Not for: reading the files (:func:`paralign.corpora.wmt.read_metric_scores`) or correlating
the scores (:mod:`.correlation`, :mod:`.segment_correlation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigurationError, MismatchError, counted


@dataclass(frozen=True, slots=True)
class GivenScores:
    """A metric whose segment scores are given, not computed (``meta-eval --scores``: a user's
    own metric, :func:`given_scores`): its segment scores are those given, its system score is
    the mean of its segment scores, recomputed on each resample of segments as a built-in
    metric's corpus score is (statistics: each segment's score and a 1)."""

    name: str
    scores: Mapping[str, Mapping[int, Any]]  #: system -> segment (1-based) -> `wmt.GivenScore`
    source: str  #: the file, as errors name it
    #: the first 8 hex digits of SHA-256 over the sorted rows: the same scores however the file
    #: is written (order, CRLF, a header), other scores apart
    digest: str

    @property
    def signature(self) -> str:
        """``scores:FILE#HASH|system:mean``: the file's name and :attr:`digest`, and how its
        system score is made."""
        from pathlib import Path

        return f"scores:{Path(self.source).name}#{self.digest}|system:mean"

    @property
    def stats_key(self) -> str:
        return f"scores:{self.name}"  # never a built-in metric's statistics

    def system_stats(self, system: str, n_lines: int) -> np.ndarray:
        """(segments, 2) statistics of `system`; MismatchError naming the file (and line) when it
        has no score for the system, one for a segment past `n_lines`, or none for a segment."""
        given = self.scores.get(system)
        if given is None:  # a name spelt otherwise (WMT21's COMET "Nemo" is the output "NVIDIA-NeMo")
            names = sorted(self.scores)
            shown = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")
            raise MismatchError(f"no scores for system {system!r} (the file scores "
                                f"{counted(len(names), 'system')}: {shown})", source=self.source)
        past = [(v.line, k) for k, v in given.items() if k > n_lines]
        if past:
            line, k = min(past)
            raise MismatchError(f"segment {k} of system {system!r} is past the last line ({n_lines})",
                                source=self.source, line=line)
        missing = next((k for k in range(1, n_lines + 1) if k not in given), None)
        if missing is not None:
            raise MismatchError(f"no score for segment {missing} of system {system!r} "
                                f"({len(given)} of its {n_lines} segments have one)", source=self.source)
        return np.array([[given[k].score, 1.0] for k in range(1, n_lines + 1)], dtype=np.float64)

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        raise ConfigurationError(f"{self.name}: its scores are given ({self.source}), not computed from texts")

    def score(self, sums: np.ndarray) -> np.ndarray:
        return sums[..., 0] / sums[..., 1]

    def segment_score(self, stats: np.ndarray) -> np.ndarray:
        return stats[..., 0]


def given_scores(path: str, name: str | None = None, *, lines: Iterable[str] | None = None) -> GivenScores:
    """A metric's own segment scores, ``system<TAB>segment<TAB>score`` lines
    (:func:`paralign.corpora.wmt.read_metric_scores`), as a metric :func:`.correlation.meta_evaluate` takes
    beside the built-in ones: read from the file `path`, or from `lines` (`path` then names them,
    as the command line gives stdin), named `name` (default: the file's name without its
    extension), signed ``scores:FILE#HASH|system:mean`` (the first 8 hex digits of SHA-256 over
    its sorted rows, as a table is hashed: the same scores however the file is written)."""
    from pathlib import Path

    from ..corpora.wmt import load_metric_scores, read_metric_scores
    from ..signature import short_hash

    scores = load_metric_scores(path) if lines is None else read_metric_scores(lines, path)
    rows = sorted(f"{system}\t{k}\t{given.score!r}\n" for system, by_line in scores.items()
                  for k, given in by_line.items())
    return GivenScores(name or Path(path).stem, scores, str(path), short_hash("".join(rows).encode("utf-8")))


def given_digests(metrics: Sequence) -> dict[str, str]:
    """Name -> :attr:`GivenScores.digest` of each metric of `metrics` whose scores a file gives
    (what the meta-evaluation's own signature names them by: :func:`.meta_signature.meta_signature`)."""
    return {metric.name: metric.digest for metric in metrics if isinstance(metric, GivenScores)}
