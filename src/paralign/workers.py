"""The batch runner: a function over chunks of many items, in this process or on a Dask cluster.

"Many items, some bad": items (any iterable, read lazily) are cut into chunks; each chunk is
mapped in this process or, with more than one worker or a scheduler address, on a Dask cluster
(:mod:`paralign.cluster`: a local one by default, or an existing one). Results come back in
input order as soon as the chunks before them are done, with a bounded number of chunks in
flight, so output streams and memory stays bounded however long the input; a chunk whose task
raised or whose worker died is reported item by item instead of sinking the batch, and the
callers' tasks keep per-item failures in place. Everything that aligns or scores many pairs
runs through here, so the engine is chosen in one place.

When: one worker and no scheduler runs here, in-process, without starting a cluster (the fast
path small inputs and tests take; so does an input of one chunk when no scheduler is given).
Otherwise the work goes to the cluster of the active :func:`runner` block (the CLI opens one
per command from --workers/--scheduler, connected on first need and reused by every batch of
the command; a library user opens one with :func:`parallel`, which also lends a Dask client
the user holds), or, outside one, to a local cluster of ``workers`` processes started for the
call.

Heavy state loads once per worker, not per chunk: the task (a ``functools.partial`` holding an
aligner, say) is pickled once, as the result of a Dask task every chunk depends on, so a worker
fetches it once; a worker process unpickles a given task once and keeps that copy (by the
pickle's hash), so what the task loads lazily (the spaCy pipeline, PPDB, the encoder) stays
loaded there for the rest of the job.  Tasks should pickle without their loaded state (the
Sultan aligner drops it, see ``Aligner.__getstate__``).
Nothing a chunk needs lives only on one worker (no scattered data), so when a worker dies Dask
runs its chunks again elsewhere; a chunk Dask gives up on (KilledWorker) is run once more, so
only a chunk that kills every worker it meets is lost.

Not for: what is computed per item (the callers' tasks), reading and writing files, or starting
clusters (:mod:`paralign.cluster`).
"""

from __future__ import annotations

import functools
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .errors import (
    SETUP_ERRORS,
    ClusterStalledError,
    ConfigurationError,
    InputTypeError,
    ParalignError,
    ResourceMissingError,
    check_count,
    shown_value,
)

if TYPE_CHECKING:  # pragma: no cover - distributed loads on first use
    from distributed import Client

    from .cluster import ClusterOptions


def describe_error(exc: BaseException) -> str:
    """How a failed item is reported: the exception's type and message."""
    return f"{type(exc).__name__}: {exc}"


#: A progress display that wraps an iterable and yields its items (tqdm-style), as the aligner's
#: and evaluators' ``progress`` arguments take it (they give it :class:`Steps`); :func:`run_chunks`
#: takes a ``progress(n)`` count.
Progress = Callable[[Iterable[Any]], Iterable[Any]]

_I = TypeVar("_I")
_R = TypeVar("_R")


class Steps(Generic[_I]):
    """The items of one step of a long job as they are done, with how many there are (``len``:
    a tqdm bar takes its total from it) and the step's ``name`` (``"annotating"``,
    ``"aligning"``): what the aligners and evaluators give a :data:`Progress`, so a display
    shows each step apart, with its total, as it advances."""

    def __init__(self, items: Iterable[_I], total: int, name: str) -> None:
        self.items, self.total, self.name = items, total, name

    def __iter__(self) -> Iterator[_I]:
        return iter(self.items)

    def __len__(self) -> int:
        return self.total


def in_steps(progress: Progress | None, items: Iterable[_I], total: int, name: str) -> Iterable[_I]:
    """`items` through `progress` as one :class:`Steps` (as they are, without one)."""
    return items if progress is None else progress(Steps(items, total, name))


#: Chunks in flight per worker: enough to keep every worker busy while the oldest is collected.
IN_FLIGHT_PER_WORKER = 2


class _Runner:
    """Where the batches of one job run: `options`' cluster, connected on first need."""

    def __init__(self, options: ClusterOptions, on_start: Callable[[dict[str, Any]], None] | None) -> None:
        self.options = options
        self.on_start = on_start
        self.stack = ExitStack()
        self.client: Client | None = None

    def connect(self) -> Client:
        if self.client is None:
            from .cluster import connect

            self.client = self.stack.enter_context(connect(self.options, self.on_start))
        return self.client


_active: ContextVar[_Runner | None] = ContextVar("paralign_runner", default=None)


@contextmanager
def runner(options: ClusterOptions,
           on_start: Callable[[dict[str, Any]], None] | None = None) -> Iterator[None]:
    """Batches run in this block go to `options`' cluster (its ``workers`` and scheduler win over
    the ``workers`` the library calls pass), connected when the first batch needs it and closed
    (a local cluster stopped) at the end; ``on_start(cluster.describe(...))`` hears where it is.
    One worker and no scheduler address (``options.address()``) keeps everything in-process."""
    state = _Runner(options, on_start)
    token = _active.set(state)
    try:
        with state.stack:
            yield
    finally:
        _active.reset(token)


@contextmanager
def parallel(workers: int = 1, *, memory_limit: str | None = None, scheduler: str | None = None,
             client: Client | None = None,
             on_start: Callable[[dict[str, Any]], None] | None = None) -> Iterator[None]:
    """Every parallel job the library runs in this block shares one Dask cluster, started (or
    connected) once, when the first job needs it, and stopped at the end: a local cluster of
    `workers` processes (`memory_limit` each, Dask's syntax such as "2GB"), the cluster at
    `scheduler` (default ``$PARALIGN_SCHEDULER``), or the Dask `client` the caller already holds
    (left open).  Its workers win over the ``workers`` a call passes, as ``--workers`` does for a
    command; one worker and no scheduler keeps everything in this process.

    A cluster of the caller's (`scheduler`, `client`) is used as it is: a local cluster paralign
    starts restarts a lost worker however long that takes (:func:`paralign.cluster.connect`), but a
    ``LocalCluster`` the caller started keeps Dask's lost-worker timer, closing a worker not back
    within ``distributed.deploy.lost-worker-timeout`` (15 s by default), which the caller may
    raise (``dask.config.set``) in the process that holds that cluster.

    Without a block, each call given ``workers > 1`` starts a local cluster of its own and
    stops it when it returns: seconds a call, which a script making many calls saves here.
    A script calls this under ``if __name__ == "__main__":`` (local workers import the main
    module)."""
    from .cluster import ClusterOptions
    from .cluster_versions import check_versions

    if on_start is not None and not callable(on_start):
        raise InputTypeError(f"on_start must be a function (called with where the cluster is) or None, "
                             f"not {type(on_start).__name__} {shown_value(on_start)}")
    if client is None:
        with runner(ClusterOptions(workers=workers, memory_limit=memory_limit, scheduler=scheduler), on_start):
            yield
        return
    if (workers, memory_limit, scheduler) != (1, None, None):
        raise ConfigurationError("give a Dask client or cluster settings (workers, memory_limit, "
                                 "scheduler), not both: the client's cluster is used as it is")
    _check_client(client)
    address = client.scheduler.address
    check_versions(client, address)
    with on_client(client, ClusterOptions(scheduler=address)):
        if on_start is not None:
            from .cluster import describe

            on_start(describe(client, False))
        yield


def _check_client(client: object) -> None:
    """An InputTypeError unless `client` is an open Dask Client: a LocalCluster (the likely
    slip: ``parallel(client=LocalCluster())``) or a str failed with "'LocalCluster' object has
    no attribute 'scheduler'", a closed client deep in Dask once the first batch ran."""
    from distributed import Client

    if not isinstance(client, Client):
        hint = " (pass Client(cluster) for a cluster you started)" if hasattr(client, "scheduler_address") else ""
        raise InputTypeError(f"client must be a distributed.Client{hint}, not {type(client).__name__} "
                             f"{shown_value(client)}")
    if client.status != "running":
        raise ConfigurationError(f"client must be open, but this Dask client is {client.status}")


def block_options() -> ClusterOptions | None:
    """The cluster settings of the enclosing :func:`parallel` (or :func:`runner`) block; None
    outside one."""
    state = _active.get()
    return None if state is None else state.options


@contextmanager
def pipeline_client(options: ClusterOptions | None,
                    on_start: Callable[[dict[str, Any]], None] | None = None) -> Iterator[Callable[[], Client]]:
    """For a pipeline that always runs on Dask (pivot's tables): a function giving its client,
    connected on the first call.  With `options`, or outside a block, that is `options`' cluster
    (:func:`paralign.cluster.connecting`: a local one starts while the caller reads its input,
    and stops at the end); with no `options` inside a :func:`parallel` block, the block's
    cluster, left running for the block's other jobs (`on_start` hears it once connected)."""
    state = _active.get()
    if options is not None or state is None:
        from .cluster import connecting

        with connecting(options, on_start) as connected:
            yield connected
        return
    announced: list[bool] = []

    def ready() -> Client:
        client = state.connect()
        if on_start is not None and not announced:
            from .cluster import describe

            announced.append(True)
            on_start(describe(client, state.options.address() is None))
        return client

    yield ready


@contextmanager
def on_client(client: Client, options: ClusterOptions) -> Iterator[None]:
    """Batches run in this block go to `client`, an open connection to `options`' cluster, as in
    a :func:`runner` block: a pipeline that holds a client lends it to the batches it runs
    (the monolingual table's Sultan alignment), so they start no cluster of their own."""
    state = _Runner(options, None)
    state.client = client
    token = _active.set(state)
    try:
        yield
    finally:
        _active.reset(token)


def _chunks(items: Iterable[_I], size: int) -> Iterator[list[_I]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def iter_chunk_results(
    task: Callable[[list[_I]], list[_R]],
    items: Iterable[_I],
    worker_failed: Callable[[list[_I], str], Iterable[_R]],
    *,
    workers: int,
    chunk_size: int,
) -> Iterator[list[_R]]:
    """``task`` over chunks of `items` (read lazily), each chunk's results yielded in input order
    as it is done: here, or on a Dask cluster (see the module docstring for which).

    On a cluster `task` must be picklable (a module-level function or a ``functools.partial`` of
    one); at most ``IN_FLIGHT_PER_WORKER`` chunks per worker are read ahead. A chunk whose task
    raised or whose worker died becomes ``worker_failed(chunk, why)``; a setup error (errors.SETUP_ERRORS: a
    caller's mistake, missing data) propagates. In-process, `task`'s exceptions propagate as they are."""
    workers = check_count(workers, "workers")
    # as `workers`: 0 or -3 ran chunks of 1 and 2.5 or "4" raised islice's or max's own error
    chunk_size = check_count(chunk_size, "chunk_size")
    state = _active.get()
    address = state.options.address() if state is not None else None
    many = state.options.workers if state is not None else workers
    chunks = _chunks(items, chunk_size)
    if many == 1 and address is None:
        yield from (task(chunk) for chunk in chunks)
        return
    failed: list[Exception] = []  # what reading the input raised: raised once the chunks read are done
    chunks = _until_failure(chunks, failed)
    first = list(islice(chunks, 2))
    if len(first) <= 1 and address is None:  # one chunk: a cluster would only cost its start
        yield from (task(chunk) for chunk in first)
    elif state is not None:
        yield from _on_cluster(state.connect(), task, chain(first, chunks), worker_failed)
    else:
        from .cluster import ClusterOptions, connect

        with connect(ClusterOptions(workers=workers)) as client:
            yield from _on_cluster(client, task, chain(first, chunks), worker_failed)
    if failed:
        raise failed[0]


def _until_failure(chunks: Iterator[list[_I]], failed: list[Exception]) -> Iterator[list[_I]]:
    """`chunks` up to the first exception reading them raises, which is put in `failed`: the
    chunks read before it (in flight on the cluster, or the one read ahead) are still done and
    given, as in this process, which gives every chunk before the failing one.  Before, a
    failure cancelled them: `align --workers 2` on a gzip file broken near its end wrote three
    chunks fewer lines than `--workers 1` before the same error."""
    try:
        yield from chunks
    except Exception as exc:  # noqa: BLE001 - raised by the caller once the chunks read are done
        failed.append(exc)


#: The tasks this worker process has unpickled, by the hash of their pickle (the latest few).
_UNPICKLED: dict[str, Any] = {}
_KEEP_TASKS = 4


def _hold(pickled: bytes) -> bytes:
    """The task's pickle as a Dask task's result (not scattered data): every chunk depends on it,
    a worker fetches it once, and when the worker holding it dies Dask computes it again."""
    return pickled


def _apply(key: str, pickled: bytes, chunk: list[_I]) -> list[_R]:
    """Run on a worker: its copy of the task (unpickled on its first chunk) over one chunk.

    A BaseException that is not an Exception (KeyboardInterrupt, SystemExit, a library's own)
    comes back as a RuntimeError naming it, so the chunk is reported like any failed one: Dask
    let KeyboardInterrupt and SystemExit kill the worker (each retry killing another), and
    sent any other back to the client, whose event loop it broke, so the batch hung for ever."""
    task = _UNPICKLED.get(key)
    if task is None:
        import cloudpickle

        task = _UNPICKLED[key] = cloudpickle.loads(pickled)
        while len(_UNPICKLED) > _KEEP_TASKS:
            _UNPICKLED.pop(next(iter(_UNPICKLED)))
    try:
        return task(chunk)
    except SETUP_ERRORS as exc:  # what this worker lacks: said with its address (`_on_worker`)
        raise _SetupFailed(_worker_address(), exc) from None
    except Exception:
        raise
    except BaseException as exc:  # noqa: BLE001 - not an Exception: sent back as one (see above)
        raise RuntimeError(f"the task raised {describe_error(exc)}") from None


class _SetupFailed(ParalignError):
    """A setup error (errors.SETUP_ERRORS) a task raised on a worker, sent back with the
    worker's address: ``_SetupFailed(address, error)``; the client raises the error itself,
    said to be the worker's (:func:`_on_worker`)."""


def _worker_address() -> str:
    from distributed import get_worker

    try:
        return str(get_worker().address)
    except ValueError:  # not in a worker's task
        return "(unknown)"


def _on_worker(where: str, exc: ParalignError) -> ParalignError:
    """`exc`, of its own class, with its message led by the worker that raised it: the data or
    extra missing is missing there, and the command's own machine may have it (a worker started
    without NLTK_DATA said only "NLTK stop words not found: set NLTK_DATA ...", to a user whose
    NLTK_DATA was set)."""
    said = f"on the Dask worker {where}: {exc}"
    exc.args = (said,)
    if isinstance(exc, ImportError):  # its message is `msg` (ExtraMissingError)
        exc.msg = said
    if str(exc) == said:
        return exc
    return (ResourceMissingError if isinstance(exc, ResourceMissingError) else ConfigurationError)(said)


def _on_cluster(
    client: Client,
    task: Callable[[list[_I]], list[_R]],
    chunks: Iterator[list[_I]],
    worker_failed: Callable[[list[_I], str], Iterable[_R]],
) -> Iterator[list[_R]]:
    """Submit chunks with a bounded number in flight; yield their results in input order."""
    import hashlib

    import cloudpickle

    limit = IN_FLIGHT_PER_WORKER * max(1, len(client.scheduler_info().get("workers", {})))
    pickled = cloudpickle.dumps(task)
    key = hashlib.sha256(pickled).hexdigest()
    with warnings.catch_warnings():  # a task holding tables is large; it goes to the scheduler once
        warnings.simplefilter("ignore", UserWarning)
        source = client.submit(_hold, pickled, key=f"paralign-task-{key}", pure=False)
    pending: deque[tuple[list[_I], Any]] = deque()  # (chunk, its future)

    def submit(chunk: list[_I]) -> Any:
        return client.submit(_apply, key, source, chunk, pure=False)

    try:
        for chunk in chunks:
            pending.append((chunk, submit(chunk)))
            if len(pending) >= limit:
                yield _collect(client, *pending.popleft(), worker_failed, submit)
        while pending:
            yield _collect(client, *pending.popleft(), worker_failed, submit)
    finally:
        # the caller stopped early or failed: drop the rest, unless the client is closed already
        # (its futures with it): a command whose output pipe closed (`| head -1`) leaves its
        # runner block, closing the client, before the results generator is finalised, and
        # cancelling then printed "Exception ignored ... RuntimeError: IOLoop is closed"
        if pending and client.status == "running":
            client.cancel([future for _, future in pending])
        source.release()


#: What stops a job instead of failing its chunk: a caller's mistake, a stalled cluster.
_STOPS: tuple[type[ParalignError], ...] = (*SETUP_ERRORS, ClusterStalledError)


def _collect(client: Client, chunk: list[_I], future: Any, worker_failed: Callable[[list[_I], str], Iterable[_R]],
             resubmit: Callable[[list[_I]], Any] | None = None) -> list[_R]:
    """A chunk's results; a chunk whose task failed is reported item by item, but a caller's
    mistake or a stalled cluster (every worker paused at its memory limit) stops the job.

    A chunk Dask gave up on because workers died while it was assigned to them (KilledWorker)
    is run once more (`resubmit`): Dask counts a death against every chunk queued on the dying
    worker, so a chunk that kills workers can take innocent ones down with it.  Chunks are
    collected in order, so by the time an innocent chunk is retried the deaths that failed it
    are over; the chunk that kills fails again and is reported."""
    from .cluster import result

    try:
        return result(client, future)
    except _SetupFailed as failed:
        raise _on_worker(*failed.args) from None
    except _STOPS:
        raise
    except Exception as exc:  # noqa: BLE001 - a task raised or its worker died: report the chunk
        from distributed import KilledWorker

        if resubmit is not None and isinstance(exc, KilledWorker):
            return _collect(client, chunk, resubmit(chunk), worker_failed)
        # its first line: Dask's own errors carry a traceback in their message (a result that
        # cannot be pickled: "Could not serialize object of type lock\nTraceback ..."), which
        # each failed pair's warning printed in full
        why = (describe_error(exc).splitlines() or [""])[0]
        return list(worker_failed(chunk, f"worker failed: {why}"))
    finally:
        future.release()


def stop_batch(what: str) -> Callable[[list[Any], str], list[Any]]:
    """A `worker_failed` for a batch that has no place for a failed item (a corpus score, an
    aligner's batch): it raises ``ParalignError("{what}: {why}")`` and so stops the batch."""
    return functools.partial(_stop, what)


def _stop(what: str, _chunk: list[Any], why: str) -> list[Any]:
    raise ParalignError(f"{what}: {why}")


def run_chunks(
    task: Callable[[list[_I]], list[_R]],
    items: Iterable[_I],
    worker_failed: Callable[[list[_I], str], Iterable[_R]],
    *,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    chunk_size: int = 64,
) -> list[_R]:
    """All results of :func:`iter_chunk_results` (``workers``: 1, in this process, by default;
    ``chunk_size`` items a chunk) in input order; ``progress(n)`` gets each chunk's size when it
    is done."""
    results: list[_R] = []
    for done in iter_chunk_results(task, items, worker_failed, workers=workers, chunk_size=chunk_size):
        results.extend(done)
        if progress is not None:
            progress(len(done))
    return results
