"""The batch runner: a function over chunks of many items, here or in a process pool.

"Many items, some bad": items are cut into chunks, each chunk is mapped in this process or, with
``workers > 1``, in a pool of worker processes; results come back in input order, a chunk whose
worker died is reported item by item instead of sinking the batch, and a progress callback hears
of every finished chunk. Everything that aligns or scores many pairs runs through here, so the
engine (processes today) can be swapped in one place.

Not for: what is computed per item (the callers' tasks) or reading and writing files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from .errors import ConfigurationError


def describe_error(exc: BaseException) -> str:
    """How a failed item is reported: the exception's type and message."""
    return f"{type(exc).__name__}: {exc}"


#: A progress display that wraps an iterable and yields its items (tqdm-style), as the aligner's
#: and evaluators' ``progress`` arguments take it; :func:`run_chunks` takes a ``progress(n)`` count.
Progress = Callable[[Iterable[Any]], Iterable[Any]]

_I = TypeVar("_I")
_R = TypeVar("_R")


def iter_chunk_results(
    task: Callable[[list[_I]], list[_R]],
    items: Sequence[_I],
    worker_failed: Callable[[list[_I], str], Iterable[_R]],
    *,
    workers: int,
    chunk_size: int,
    before_pool: Callable[[], None] | None = None,
) -> Iterator[list[_R]]:
    """``task`` over chunks of `items`, each chunk's results yielded in input order as it is done:
    here, or in a process pool when ``workers > 1`` and there is more than one chunk.

    Worker processes are forked where the platform can, so they inherit what ``before_pool``
    loaded (a model, an aligner in a module global); `task` must be picklable (a module-level
    function or a ``functools.partial`` of one). A chunk whose worker raised or died becomes
    ``worker_failed(chunk, why)``; a ConfigurationError (a caller's mistake) propagates."""
    if workers < 1:
        raise ConfigurationError(f"workers must be at least 1, got {workers}")
    size = max(1, chunk_size)
    chunks = [list(items[start : start + size]) for start in range(0, len(items), size)]
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield task(chunk)
        return
    if before_pool is not None:
        before_pool()
    import multiprocessing  # only when asked: slow to import
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(task, chunk) for chunk in chunks]
        for chunk, future in zip(chunks, futures, strict=True):
            try:
                yield future.result()
            except ConfigurationError:
                raise
            except Exception as exc:  # noqa: BLE001 - e.g. a worker died: report the chunk
                yield list(worker_failed(chunk, f"worker failed: {describe_error(exc)}"))


def run_chunks(
    task: Callable[[list[_I]], list[_R]],
    items: Sequence[_I],
    worker_failed: Callable[[list[_I], str], Iterable[_R]],
    *,
    progress: Callable[[int], None] | None = None,
    **runner: Any,
) -> list[_R]:
    """All results of :func:`iter_chunk_results` (`runner`: its ``workers``, ``chunk_size`` and
    ``before_pool``) in input order; ``progress(n)`` gets each chunk's size when it is done."""
    results: list[_R] = []
    for done in iter_chunk_results(task, items, worker_failed, **runner):
        results.extend(done)
        if progress is not None:
            progress(len(done))
    return results
