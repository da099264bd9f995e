"""Metrics: alignment scores, ParaMetric, ParaEval, correlation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from ..errors import MismatchError

#: Levels of meta-evaluation (``meta-eval --level``): system scores, segment scores, or both.
LEVELS: tuple[str, ...] = ("system", "segment", "both")
#: The seed of every bootstrap (meta-evaluation's and :mod:`.significance`'s): sacrebleu's.
DEFAULT_SEED = 12345
#: Resamples of a confidence interval or a paired test (:mod:`.significance`), as sacrebleu's.
DEFAULT_RESAMPLES = 1000
#: The p-value of a paired test below which a difference is marked significant (*), as sacrebleu's.
SIGNIFICANT = 0.05


@overload
def f_measure(precision: float, recall: float) -> float: ...
@overload
def f_measure(precision: float | None, recall: float | None) -> float | None: ...
def f_measure(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of two proportions; None when either is undefined, 0 when both are 0."""
    if precision is None or recall is None:
        return None
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


def least_squares(x: Sequence[float], y: Sequence[float]) -> tuple[float, float] | None:
    """(slope, intercept) of the least-squares line of y on x, or None when x is constant or
    there are fewer than 2 points."""
    n = len(x)
    if n != len(y):
        raise MismatchError(f"{len(x)} x values vs {len(y)} y values")
    if n < 2:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    if sxx == 0:
        return None
    slope = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True)) / sxx
    return slope, my - slope * mx
