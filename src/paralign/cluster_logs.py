"""Dask's logs that say nothing wrong to a paralign user, and the filters that drop them.

A local worker's failed heartbeat as it closes (:class:`ClosingHeartbeat`), a worker's log of a
task that raised one of paralign's errors, bad input its job reports as one line
(:func:`quiet_data_errors`), and a client's reconnection logs once its scheduler is lost
(:func:`quiet_when_lost`). Any other log (a bug, a running worker's lost heartbeat) still shows.

Not for: starting or connecting to a cluster and waiting on it (:mod:`paralign.cluster`, which
installs these).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - distributed loads on first use
    from distributed import Client


class ClosingHeartbeat(logging.Filter):
    """Drops a local worker's "Failed to communicate with scheduler during heartbeat" log (with
    three chained tracebacks, ``CommClosedError: ConnectionPool closing``) when the worker is
    itself closing: a heartbeat in flight as the cluster is stopped (after Ctrl-C most often)
    fails when the worker closes its connections, which says nothing wrong. A running worker's
    failed heartbeat is still logged."""

    def __init__(self, worker: Any) -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        from distributed.core import Status

        heartbeat = str(record.msg).startswith("Failed to communicate with scheduler during heartbeat")
        return not (heartbeat and self.worker.status in (Status.closing, Status.closed, Status.closing_gracefully))


class QuietDataErrors(logging.Filter):
    """Drops a worker's "Compute Failed" log (with the task's traceback) when the task raised
    one of paralign's errors: bad input a job reports as one error line (`paralign pivot` on a
    file with a byte that is not UTF-8), which a local cluster's worker printed before it, with
    its stack, on the command's stderr. Any other exception (a bug) is still logged."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        if not str(record.msg).startswith("Compute Failed") or len(args) < 4:
            return True
        return str(args[3]).split("(", 1)[0] not in paralign_error_names()


def paralign_error_names() -> set[str]:
    """The class names of ParalignError and its subclasses (those imported in this process)."""
    from .errors import ParalignError

    names, todo = set(), [ParalignError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo += cls.__subclasses__()
    return names


def quiet_data_errors(client: Client) -> None:
    """Install :class:`QuietDataErrors` in every worker of `client`'s cluster (a worker
    plugin, so a restarted worker has it too)."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class QuietDataErrorsPlugin(WorkerPlugin):
        def setup(self, worker: Any) -> None:
            log = logging.getLogger("distributed.worker")
            if not any(isinstance(f, QuietDataErrors) for f in log.filters):
                log.addFilter(QuietDataErrors())

    client.register_plugin(QuietDataErrorsPlugin(), name="paralign-quiet-data-errors")


class LostClientLog(logging.Filter):
    """Drops Dask's log of `client`'s reconnection, once it has lost its scheduler: cancelled by
    closing it ("distributed.client - ERROR - ... asyncio.exceptions.CancelledError", with two
    tracebacks) or given up before the close ends on a loaded machine ("Failed to reconnect to
    scheduler after 30.00 seconds, closing client"), after the job's own one error
    (:func:`paralign.cluster.scheduler_lost`)."""

    def __init__(self, client: Client) -> None:
        super().__init__()
        self.client = client

    def filter(self, record: logging.LogRecord) -> bool:
        import asyncio

        cancelled = record.exc_info is not None and isinstance(record.exc_info[1], asyncio.CancelledError)
        given_up = str(record.msg).startswith("Failed to reconnect to scheduler")
        return not ((cancelled or given_up) and self.client.status != "running")


@contextmanager
def quiet_when_lost(client: Client) -> Iterator[None]:
    """:class:`LostClientLog` on Dask's client log while the block runs (and closes `client`)."""
    log = logging.getLogger("distributed.client")
    quiet = LostClientLog(client)
    log.addFilter(quiet)
    try:
        yield
    finally:
        log.removeFilter(quiet)
