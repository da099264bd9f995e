"""The batch runner: a function over chunks of many items, here or in a process pool.

"Many items, some bad": items are cut into chunks, each chunk is mapped in this process or, with
``workers > 1``, in a pool of worker processes; results come back in input order, a chunk whose
worker died is reported item by item instead of sinking the batch, and a progress callback hears
of every finished chunk. Everything that aligns or scores many pairs runs through here, so the
engine (processes today) can be swapped in one place.

Not for: what is computed per item (the callers' tasks) or reading and writing files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from .errors import ConfigurationError


def describe_error(exc: BaseException) -> str:
    """How a failed item is reported: the exception's type and message."""
    return f"{type(exc).__name__}: {exc}"


_I = TypeVar("_I")
_R = TypeVar("_R")


def run_chunks(
    task: Callable[[list[_I]], list[_R]],
    items: Sequence[_I],
    worker_failed: Callable[[list[_I], str], Iterable[_R]],
    *,
    workers: int,
    chunk_size: int,
    progress: Callable[[int], None] | None,
    before_pool: Callable[[], None] | None = None,
) -> list[_R]:
    """``task`` over chunks of `items`, results in input order: here, or in a process pool when
    ``workers > 1`` and there is more than one chunk (`task` must then be picklable).
    ``progress(n)`` gets each chunk's size when it is done. A chunk whose worker died becomes
    ``worker_failed(chunk, why)``; a ConfigurationError (a caller's mistake) propagates."""
    if workers < 1:
        raise ConfigurationError(f"workers must be at least 1, got {workers}")
    size = max(1, chunk_size)
    chunks = [list(items[start : start + size]) for start in range(0, len(items), size)]
    results: list[_R] = []
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            results.extend(task(chunk))
            if progress is not None:
                progress(len(chunk))
        return results
    if before_pool is not None:
        before_pool()
    from concurrent.futures import ProcessPoolExecutor  # only when asked: slow to import

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(task, chunk) for chunk in chunks]
        for chunk, future in zip(chunks, futures, strict=True):
            try:
                results.extend(future.result())
            except ConfigurationError:
                raise
            except Exception as exc:  # noqa: BLE001 - e.g. a worker died: report the chunk
                results.extend(worker_failed(chunk, f"worker failed: {describe_error(exc)}"))
            if progress is not None:
                progress(len(chunk))
    return results
