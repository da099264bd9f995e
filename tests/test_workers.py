"""The one batch runner (paralign.workers): order, per-chunk failures, progress, workers."""

from __future__ import annotations

import os

import pytest

from paralign.errors import ConfigurationError
from paralign.workers import describe_error, iter_chunk_results, run_chunks


def _square_unless_negative(chunk: list[int]) -> list[int]:
    if any(x < 0 for x in chunk):
        raise ValueError(f"negative item in {chunk}")
    return [x * x for x in chunk]


def _failed(chunk: list[int], why: str) -> list[str]:
    return [why] * len(chunk)


@pytest.mark.parametrize("workers", [1, 2])
def test_results_in_input_order_with_progress(workers: int) -> None:
    seen: list[int] = []
    out = run_chunks(_square_unless_negative, list(range(23)), _failed, workers=workers, chunk_size=4,
                     progress=seen.append)
    assert out == [x * x for x in range(23)]
    assert seen == [4, 4, 4, 4, 4, 3]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")
def test_a_failing_chunk_in_a_worker_is_reported_in_its_place() -> None:
    items = [1, 2, -3, 4, 5, 6]
    out = run_chunks(_square_unless_negative, items, _failed, workers=2, chunk_size=2, progress=None)
    assert out[:2] == [1, 4] and out[4:] == [25, 36]
    assert out[2] == out[3] and str(out[2]).startswith("worker failed: ValueError: negative item")


def test_serial_failure_propagates_and_bad_worker_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        run_chunks(_square_unless_negative, [-1], _failed, workers=1, chunk_size=1, progress=None)
    with pytest.raises(ConfigurationError):
        list(iter_chunk_results(_square_unless_negative, [1], _failed, workers=0, chunk_size=1))


def test_describe_error() -> None:
    assert describe_error(KeyError("x")) == "KeyError: 'x'"
