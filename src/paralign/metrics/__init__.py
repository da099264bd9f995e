"""Metrics: alignment scores, ParaMetric, ParaEval, correlation."""

from __future__ import annotations

from typing import overload


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
