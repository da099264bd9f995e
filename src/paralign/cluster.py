"""Where parallel work runs: a Dask cluster, started here or an existing one.

By default a job starts a `LocalCluster` of worker processes on this machine (``workers``, one
thread each, ``memory_limit`` each, bound to 127.0.0.1) and stops it when done (:func:`connect`;
:func:`connecting` starts it in a thread while the job reads its input); a worker it loses
(killed) is restarted by its nanny however long that takes (`_own_cluster_type`: Dask gave up on
it after 15 s). Its workers start with glibc malloc settings that spare them the kernel's page
faults (``WORKER_MALLOC``), ignore Ctrl-C, which the job's own process hears and acts on by
stopping the cluster, its workers at once (:func:`dask_setup`, `_kill_workers`), and do not log a task that raised one of paralign's
errors (bad input the caller reports as one line: :func:`quiet_data_errors`); a signal that
comes while they start is acted on once the cluster is up, not mid-start. With a scheduler
address (``tcp://HOST:8786``, or the environment variable ``PARALIGN_SCHEDULER``) the same job
runs on that cluster: connecting is bounded in time (:func:`check_answers`: an address where no
scheduler answers is one error, not a hang) and checks that it runs the command's versions of
paralign, dask and distributed (:func:`check_versions`: its tasks are rebuilt there). Its
workers must see the files a pipeline reads and writes (the inputs and the work directory:
:mod:`paralign.pivot`) and hold the resources a task loads there (the spaCy model, PPDB, NLTK's
data). Nothing is printed: the caller hears where the dashboard is through ``on_start``.

A job waits on its tasks through :func:`finished` (or :func:`result`, for one), which watches
the cluster while it waits: a worker that reaches Dask's pause mark (by default 80% of its
memory limit) stops taking tasks until its memory frees, which may be never; when every worker
has been paused with no task running (or none is left) for ``STALL_SECONDS``, the job stops
with one ClusterStalledError naming the limit instead of hanging, and at once when the
scheduler is lost (:func:`scheduler_lost`).

Not for: what runs on the cluster (the pipelines, :mod:`paralign.pivot`), cutting a batch into
chunks and its per-item failure handling (:mod:`paralign.workers`, the batch runner), or
comparing the versions a cluster runs (:mod:`paralign.cluster_versions`).
"""

from __future__ import annotations

import logging
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .cluster_logs import ClosingHeartbeat, quiet_data_errors, quiet_when_lost
from .cluster_versions import check_versions
from .errors import (
    ClusterStalledError,
    ConfigurationError,
    InputFileError,
    check_count,
    shown_value,
)

if TYPE_CHECKING:  # pragma: no cover - distributed loads on first use
    from distributed import Client

#: The environment variable naming an existing scheduler (as ``--scheduler`` does).
SCHEDULER_ENV = "PARALIGN_SCHEDULER"

#: How long every worker may stay paused at its memory limit (or the cluster have no worker)
#: before a waiting job gives up with ClusterStalledError.
STALL_SECONDS = 120.0

#: How long a scheduler may take to answer Dask's handshake once connected (beyond the
#: connection's own timeout).
HANDSHAKE_SECONDS = 5.0

#: How often a waiting job looks at the workers' state.
POLL_SECONDS = 2.0


#: The least memory limit a local worker is given: one holds about 180 MB once it has loaded
#: the pipelines' modules (measured: 65 MB started, 178 MB after pyarrow, pandas, dask.dataframe
#: and paralign.pivot_frames), and Dask pauses a worker at 80% of its limit, so a smaller limit
#: could only stall until `result` gives up (2 minutes).
MIN_WORKER_MEMORY = 256 * 2**20


@dataclass(frozen=True, slots=True)
class ClusterOptions:
    """How to run: `workers` local processes with `memory_limit` each (Dask's syntax, e.g.
    "2GB"; None: Dask's share of the machine), or the cluster at `scheduler` (an address;
    None: ``PARALIGN_SCHEDULER`` if set, else a local cluster)."""

    workers: int = 1
    memory_limit: str | None = None
    scheduler: str | None = None
    connect_timeout: float = 30.0

    def __post_init__(self) -> None:
        check_count(self.workers, "workers")
        if not (isinstance(self.connect_timeout, (int, float)) and not isinstance(self.connect_timeout, bool)
                and 0 < self.connect_timeout < math.inf):
            raise ConfigurationError(f"connect_timeout must be a number of seconds above 0, got "
                                     f"{shown_value(self.connect_timeout)}")
        if self.memory_limit is not None:
            from dask.utils import parse_bytes

            try:
                limit = parse_bytes(self.memory_limit)
            except (ValueError, TypeError, AttributeError) as exc:  # AttributeError: a list
                raise ConfigurationError(f"memory limit {self.memory_limit!r} is not a size such as 2GB") from exc
            if limit < MIN_WORKER_MEMORY:
                raise ConfigurationError(
                    f"memory limit {self.memory_limit!r} is too small for a Dask worker: give at least 256MiB "
                    "(a worker holds about 180 MB once the pipelines' modules are loaded, and Dask "
                    "pauses it at 80% of its limit)")
        if self.scheduler is not None:
            checked_address(self.scheduler, "scheduler")
        if self.workers > 1 and self.address() is None:
            check_local_workers_fit(self.workers)

    def address(self) -> str | None:
        """The scheduler to connect to, or None for a local cluster."""
        if self.scheduler:
            return self.scheduler
        from_env = os.environ.get(SCHEDULER_ENV)
        return checked_address(from_env, f"${SCHEDULER_ENV}") if from_env else None


def check_local_workers_fit(workers: int) -> None:
    """A ConfigurationError when `workers` local workers cannot each have the least memory a
    worker runs in (MIN_WORKER_MEMORY) on this machine (its memory as Dask reads it, a
    container's limit included).  ``--workers 300`` on 24 GB started workers for minutes and
    was stopped by nothing; ``--workers 1000000000000`` filled the machine's memory with worker
    specs until the kernel killed the command."""
    from distributed.system import MEMORY_LIMIT

    most = max(1, MEMORY_LIMIT // MIN_WORKER_MEMORY)
    if workers > most:
        raise ConfigurationError(
            f"workers must be at most {most} on this machine, got {workers}: a local Dask worker needs "
            f"at least 256MiB and this machine has {MEMORY_LIMIT / 2**30:.1f} GiB (for more, run on a "
            "cluster with a scheduler address)")


def checked_address(address: str, what: str) -> str:
    """`address` when Dask can connect to such an address (a known scheme; a port for the
    network ones); else a ConfigurationError naming `what` (Dask's own ValueError came as a
    traceback from deep inside the first batch: "missing port number in address 'nosuch'")."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            _, port = parse_host_port(location)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not between 1 and 65535")
    except (ValueError, TypeError) as exc:
        raise ConfigurationError(f"{what} {address!r} is not a Dask scheduler address such as "
                                 f"tcp://HOST:8786 ({exc})") from exc
    return address


def describe(client: Client, local: bool) -> dict[str, Any]:
    """What the job runs on: scheduler address, workers, dashboard link (None when the
    dashboard is not served: it needs the `bokeh` package, and ``dask scheduler --no-dashboard``
    serves only Dask's other HTTP routes, /health and /metrics, under the name "dashboard": the
    link given for it was a 404)."""
    def serves_dashboard(dask_scheduler: Any) -> bool:  # defined here, so it is sent by value
        applications = getattr(getattr(dask_scheduler, "http_application", None), "applications", None)
        return applications is None or bool(applications)  # bokeh's pages are an application of it

    try:
        served = bool(client.run_on_scheduler(serves_dashboard))
    except Exception:  # noqa: BLE001 - a scheduler that cannot say: Dask's link, as it gives it
        served = True
    return _described(client.scheduler_info(), client.dashboard_link if served else "", local)


def _described(info: dict[str, Any], dashboard: str, local: bool) -> dict[str, Any]:
    """:func:`describe`'s record from a scheduler's info (a client's, or a local cluster's own)."""
    return {
        "scheduler": info.get("address"),
        "local": local,
        "workers": len(info.get("workers", {})),
        "dashboard": dashboard if dashboard and "dashboard" in info.get("services", {}) else None,
    }


#: glibc malloc settings of the local workers' processes (set before they start).  Dask sets
#: MALLOC_TRIM_THRESHOLD_ to 64 KiB so that freed memory goes back to the system at once; setting
#: it also turns off glibc's adaptive mmap threshold, so every array above 128 KiB is a fresh
#: mmap whose pages the kernel faults in and zeroes, and that page work (a third of a pivot
#: worker's CPU time, and memory-bound, so two workers share it badly) is redone for each
#: array.  Arrays up to 32 MiB come from the heap instead, and up to 256 MiB of freed heap is
#: kept for reuse; the memory limit is enforced on the process' whole memory all the same.
WORKER_MALLOC = {"MALLOC_TRIM_THRESHOLD_": str(256 * 2**20), "MALLOC_MMAP_THRESHOLD_": str(32 * 2**20)}


@cache
def _own_cluster_type() -> type:
    """The LocalCluster of the clusters paralign starts itself (:func:`_start_local`): a worker
    it loses (killed by the OOM killer or at its memory limit, a segfault) is left to its nanny,
    which restarts the worker process however long that takes.  Dask closed a lost worker's
    nanny when no worker of its name was back within ``distributed.deploy.lost-worker-timeout``
    (15 s, read from the process-wide config, which a user's own clusters share); a restart on
    a loaded machine takes longer, and the cluster was left a worker short for good (with one
    worker, the job waited 2 minutes and stopped).  That timer is for clusters whose workers run
    elsewhere (a batch system's jobs, which do not come back); a local nanny runs in this
    process.  A worker that cannot start again still stops the job in bounded time: waiting
    watches for a cluster without workers (:func:`finished`)."""
    from distributed import LocalCluster
    from distributed.deploy.cluster import Cluster

    class OwnLocalCluster(LocalCluster):
        def _update_worker_status(self, op: str, msg: Any) -> None:
            if op == "remove":  # the cluster's record of its workers only, not SpecCluster's timer
                Cluster._update_worker_status(self, op, msg)
            else:
                super()._update_worker_status(op, msg)

    return OwnLocalCluster


def _start_local(options: ClusterOptions) -> Any:
    import dask

    # before `dask.config.set` below: distributed adds its config section when first imported,
    # and the set's end removed that section again (every worker's registration: KeyError)
    local_cluster = _own_cluster_type()

    # Dask's pre-spawn environment gives each worker one BLAS/OpenMP thread (threads_per_worker=1
    # below): on C cores, N workers use N threads, not N x C; a variable set in the command's own
    # environment wins (benchmarks/blas_threads.py: no other setting was 10% faster on 2 cores).
    environ = {**dask.config.get("distributed.nanny.pre-spawn-environ", {}), **WORKER_MALLOC}
    preload = [*dask.config.get("distributed.worker.preload", []), __name__]  # its dask_setup, in each worker
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ, "distributed.worker.preload": preload}), \
            _signals_deferred() as interrupted:
        try:
            cluster = local_cluster(
                n_workers=options.workers, threads_per_worker=1, processes=True,
                memory_limit=options.memory_limit or "auto", host="127.0.0.1",
                dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,  # ":0" served it on 0.0.0.0
            )
        except Exception:  # a worker process that heard Ctrl-C too, before its dask_setup: "Nanny failed to start"
            if not interrupted:
                raise
            cluster = None
    if interrupted:
        if cluster is not None:
            cluster.close()
        handler = signal.getsignal(interrupted[0])
        if callable(handler):  # Python's KeyboardInterrupt, or the CLI's Terminated for SIGTERM
            handler(interrupted[0], None)
        raise KeyboardInterrupt
    return cluster


@contextmanager
def _signals_deferred() -> Iterator[list[int]]:
    """SIGINT (Ctrl-C) and SIGTERM (the CLI's handler: ``kill``, a batch system's time limit), when
    a Python handler takes them, heard in the block without interrupting it, their numbers put in the
    list it gives (only in the main thread, where Python hears signals). A local cluster
    interrupted while its workers started was left half-started, and Dask's closing it at exit
    printed "Exception ignored in atexit callback ... AssertionError: Status.init"; it is stopped
    once started instead (seconds), and then the first signal heard is acted on by its handler."""
    heard: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield heard
        return
    # only what a Python handler takes: an ignored SIGINT (a job started with `&` by a script)
    # stays ignored, and SIGTERM's default action ends the process at once
    deferred = [signum for signum in (signal.SIGINT, signal.SIGTERM) if callable(signal.getsignal(signum))]
    previous = {signum: signal.signal(signum, lambda number, _: heard.append(number)) for signum in deferred}
    try:
        yield heard
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def dask_setup(worker: Any) -> None:
    """Run in each worker process of a local cluster as it starts (its preload: `_start_local`):
    SIGINT ignored. Ctrl-C reaches every process of the terminal's group, and each worker printed
    its KeyboardInterrupt traceback (`Process Dask Worker process (from Nanny): ...`); the job's
    own process hears it, and stops the cluster. And :class:`ClosingHeartbeat` on its log."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.getLogger("distributed.worker").addFilter(ClosingHeartbeat(worker))


@contextmanager
def connect(options: ClusterOptions | None = None,
            on_start: Callable[[dict[str, Any]], None] | None = None, *, started: Any = None) -> Iterator[Client]:
    """A Dask client on a new local cluster (or `started`, one already started for `options`)
    or on `options.address()`; both are closed (a local cluster stopped) when the block ends.
    `on_start(describe(...))` is called once the client is connected."""
    options = options or ClusterOptions()
    from distributed import Client

    address = options.address()
    cluster = started
    try:
        if address is None:
            cluster = cluster if cluster is not None else _start_local(options)
            client = Client(cluster)
            quiet_data_errors(client)
        else:
            check_answers(address, options.connect_timeout)
            try:
                client = Client(address, timeout=options.connect_timeout)
            except (OSError, TimeoutError) as exc:
                raise InputFileError(f"cannot reach the Dask scheduler ({exc})", source=address) from exc
        with quiet_when_lost(client), client:
            if address is not None:  # a local cluster's processes are this installation's
                check_versions(client, address)
            if on_start is not None:
                on_start(describe(client, cluster is not None))
            yield client
    except KeyboardInterrupt:  # Ctrl-C, or the CLI's SIGTERM (cli.Terminated)
        if cluster is not None:
            _kill_workers(cluster)
        raise
    finally:
        if cluster is not None:
            cluster.close()


def _kill_workers(cluster: Any, seconds: float = 0.5) -> None:
    """Stop `cluster`'s workers at once, as its job was interrupted: each is asked to stop and
    killed after `seconds`. Closing the cluster kills a worker busy with a task only 4 s later
    (Dask's ``Nanny.close``), which SIGTERM or Ctrl-C to `align --workers 2` mid-batch waited for."""
    import asyncio

    async def kill() -> None:
        await asyncio.gather(*(worker.close(timeout=seconds, reason="paralign-interrupted")
                               for worker in list(cluster.workers.values())), return_exceptions=True)

    with suppress(Exception):  # the cluster's close, next, stops what is left however this went
        cluster.sync(kill)


def check_answers(address: str, timeout: float) -> None:
    """InputFileError unless something answers Dask's handshake at `address` within `timeout`
    seconds.  ``Client(address, timeout=)`` bounds the connection, not the handshake after it:
    a service that takes the connection and says nothing (an HTTP server such as the dashboard's
    port, waiting for a request) hung the command for ever, and one that answers otherwise (an
    HTTP 400) was read as a frame length of exabytes: "out of memory".  Dask retries a refused
    connection until `timeout` (a scheduler may be starting), and the handshake has
    ``HANDSHAKE_SECONDS`` more, so that the error says which of the two failed: with one
    deadline for both, `tcp://127.0.0.1:1` (nothing listening) was told it had "no answer to
    Dask's handshake" from a service that is not a scheduler."""
    import asyncio
    import threading

    from distributed.comm import connect as open_comm

    async def handshake() -> None:
        comm = await asyncio.wait_for(open_comm(address, timeout=timeout), timeout + HANDSHAKE_SECONDS)
        await comm.close()

    outcome: list[BaseException | None] = []

    def run() -> None:  # a thread of its own: the caller may be in an event loop (a notebook)
        try:
            asyncio.run(handshake())
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - said below, in the caller's thread
            outcome.append(exc)

    thread = threading.Thread(target=run, name="paralign-scheduler-check", daemon=True)
    thread.start()
    thread.join(timeout + HANDSHAKE_SECONDS + 10)
    why = outcome[0] if outcome else TimeoutError()
    if why is None:
        return
    if isinstance(why, OSError) and not isinstance(why, TimeoutError):  # refused, no route: Dask's words
        raise InputFileError(f"cannot reach the Dask scheduler ({why}: {_unreachable(address)})",
                             source=address) from why
    if isinstance(why, TimeoutError):
        raise InputFileError(f"cannot reach the Dask scheduler (no answer to Dask's handshake after "
                             f"{timeout + HANDSHAKE_SECONDS:g} s: is a Dask scheduler, not its dashboard or "
                             "another service, listening there?)", source=address) from None
    raise InputFileError("cannot reach the Dask scheduler (what answers there is not a Dask scheduler: "
                         f"{type(why).__name__})", source=address) from None


def _unreachable(address: str) -> str:
    """Why a connection to `address` fails now, in the system's words ("Connection refused":
    nothing listens there; "Name or service not known"), as a plain connection attempt finds:
    Dask's own last retry is mostly cut short by its deadline, so its error said only "Timed
    out trying to connect"."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme != "tcp":
        return "not reachable"
    try:
        socket.create_connection(parse_host_port(location), timeout=HANDSHAKE_SECONDS).close()
    except OSError as exc:
        return exc.strerror or str(exc) or type(exc).__name__
    return "reachable now"


@contextmanager
def connecting(options: ClusterOptions | None = None,
               on_start: Callable[[dict[str, Any]], None] | None = None) -> Iterator[Callable[[], Client]]:
    """:func:`connect`, with a local cluster started in a background thread, so that a job reads
    its input while the cluster starts (seconds), and `on_start` hears it from that thread once
    it has started; the block gets a function that waits for the client (connected on its
    first call; raising what starting the cluster raised).  The
    client is closed, and the cluster stopped, when the block ends."""
    options = options or ClusterOptions()
    if options.address() is not None:  # an existing cluster: connecting is quick
        with connect(options, on_start) as client:
            yield lambda: client
        return
    from concurrent.futures import ThreadPoolExecutor

    clients: list[Client] = []
    ending: list[bool] = []  # the block has ended (a job that failed): a cluster to stop, not to announce

    def start() -> Any:  # announced once started, not when the job first asks for the client
        cluster = _start_local(options)
        if on_start is not None and not ending:
            on_start(_described(cluster.scheduler_info, cluster.dashboard_link, True))
        return cluster

    with ThreadPoolExecutor(1, thread_name_prefix="paralign-cluster") as pool, ExitStack() as stack:
        pending = pool.submit(start)

        def ready() -> Client:
            if not clients:
                clients.append(stack.enter_context(connect(options, started=pending.result())))
            return clients[0]

        try:
            yield ready
        finally:
            ending.append(True)
            if not clients:  # never connected: stop the cluster if it started
                with suppress(Exception):
                    pending.result().close()


def finished(client: Client, futures: Iterable[Any], *, stall_after: float | None = None,
             poll: float | None = None) -> Iterator[Any]:
    """`futures` as each finishes (as ``distributed.as_completed``; a failed one is yielded too,
    its ``result()`` raises), looking at the cluster every `poll` seconds meanwhile: when every
    worker has been paused at its memory limit, or no worker has been left, for `stall_after`
    seconds, raise ClusterStalledError instead of waiting for ever (defaults: ``STALL_SECONDS``,
    ``POLL_SECONDS``).  It waits through `client` itself: ``distributed.wait`` alone uses Dask's
    default client, and with none (a client the caller made with ``set_as_default=False``, lent
    to :func:`paralign.parallel`) every chunk of a batch was reported failed ("No clients found")."""
    from distributed import wait

    stall_after = STALL_SECONDS if stall_after is None else stall_after
    poll = POLL_SECONDS if poll is None else poll
    pending = set(futures)
    stalled_since: float | None = None
    while pending:
        try:
            with client.as_current():
                done, pending = wait(pending, timeout=poll, return_when="FIRST_COMPLETED")
        except Exception as exc:  # noqa: BLE001 - a timeout, or futures cancelled: the scheduler lost?
            lost = scheduler_lost(client, exc)
            if lost is not None:
                raise ClusterStalledError(lost) from None
            if not isinstance(exc, TimeoutError):
                raise
            stall = _stall(client)
            if stall is None:
                stalled_since = None
                continue
            now = time.monotonic()
            stalled_since = now if stalled_since is None else stalled_since
            if now - stalled_since >= stall_after:
                raise ClusterStalledError(f"{stall[0]} for {now - stalled_since:.0f} s: {stall[1]}") from None
            continue
        stalled_since = None
        yield from done


def scheduler_lost(client: Client, exc: BaseException | None = None) -> str | None:
    """What to say when `client` has lost its scheduler (its status no longer "running", or `exc`
    the futures Dask cancelled for it), else None.  A scheduler that died mid-run had each chunk
    in flight reported failed ("worker failed: FuturesCancelledError: 1 Future cancelled"), then
    the job waited 2 minutes for workers of a scheduler that was gone."""
    if client.status == "running" and "scheduler-connection-lost" not in str(exc or ""):
        return None
    return (f"lost the connection to the Dask scheduler at {_address(client)}: the job cannot go on "
            "(its tasks are gone with it); run it again once the scheduler is back")


def _address(client: Client) -> str | None:
    """The address of `client`'s scheduler, asking no one (also once it is lost: ``scheduler_info``
    is empty then, or waits for the client's reconnection)."""
    return getattr(client.scheduler, "address", None)


def result(client: Client, future: Any, **watch: float | None) -> Any:
    """``future.result()``, watched as :func:`finished` watches (`watch`: its keywords)."""
    return next(finished(client, [future], **watch)).result()


def _stall(client: Client) -> tuple[str, str] | None:
    """Why no task of the cluster can run now (every worker paused at its memory limit and none
    still running a task that may free it, or no worker), and what to do about it; None when
    some worker can. A cluster without workers was told to
    "raise the memory limit per worker (--memory-limit, ...)", which does nothing for an existing
    cluster (a scheduler that no worker has joined) and had no worker to limit.  A cluster
    paralign started itself (:func:`_own_cluster_type`) was told the same, to "start workers for
    it (dask worker ADDRESS)", when its workers had died (killed for lack of memory) and not come
    back: it is told that, and what to give them."""
    from dask.utils import format_bytes

    workers = client.scheduler_info(n_workers=-1).get("workers", {})
    if not workers:
        if isinstance(getattr(client, "cluster", None), _own_cluster_type()):
            return ("the local Dask cluster has had no worker",
                    "its worker processes died and did not start again (most often: killed for lack of "
                    "memory, by the system or at their memory limit); give each more memory "
                    "(--memory-limit), run fewer --workers, or free memory on this machine")
        return ("the Dask cluster has had no worker",
                f"start workers for it (dask worker {_address(client)}); if they were killed at their "
                "memory limit, give them more (--memory-limit, or the cluster's own)")
    executing = sum(worker.get("metrics", {}).get("task_counts", {}).get("executing", 0) for worker in workers.values())
    if executing == 0 and all(worker.get("status") == "paused" for worker in workers.values()):
        limit = max(int(worker.get("memory_limit") or 0) for worker in workers.values())
        return (f"every Dask worker has been paused at its memory limit ({format_bytes(limit)} each)",
                "raise the memory limit per worker (--memory-limit, or the cluster's own) or give more workers")
    return None
