"""Metrics: alignment scores, ParaMetric, ParaEval, correlation."""
