"""Where parallel work runs: a Dask cluster, started here or an existing one.

By default a job starts a `LocalCluster` of worker processes on this machine (``workers``, one
thread each, ``memory_limit`` each) and stops it when done; with a scheduler address
(``tcp://HOST:8786``, or the environment variable ``PARALIGN_SCHEDULER``) the same job runs
on that cluster, whose workers must see the same files (the inputs and the work directory).
Nothing is printed: the caller hears where the dashboard is through ``on_start``.

Not for: what runs on the cluster (the pipelines, :mod:`paralign.pivot`) or the batch runner's
per-item failure handling (:mod:`paralign.workers`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError, InputFileError

if TYPE_CHECKING:  # pragma: no cover - distributed loads on first use
    from distributed import Client

#: The environment variable naming an existing scheduler (as ``--scheduler`` does).
SCHEDULER_ENV = "PARALIGN_SCHEDULER"


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
        if self.workers < 1:
            raise ConfigurationError(f"workers must be at least 1, got {self.workers}")
        if self.memory_limit is not None:
            from dask.utils import parse_bytes

            try:
                parse_bytes(self.memory_limit)
            except (ValueError, TypeError) as exc:
                raise ConfigurationError(f"memory limit {self.memory_limit!r} is not a size such as 2GB") from exc

    def address(self) -> str | None:
        """The scheduler to connect to, or None for a local cluster."""
        return self.scheduler or os.environ.get(SCHEDULER_ENV) or None


def describe(client: Client, local: bool) -> dict[str, Any]:
    """What the job runs on: scheduler address, workers, dashboard link (None when the
    dashboard is not served: it needs the `bokeh` package)."""
    info = client.scheduler_info()
    services = info.get("services", {})
    return {
        "scheduler": info.get("address"),
        "local": local,
        "workers": len(info.get("workers", {})),
        "dashboard": client.dashboard_link if "dashboard" in services else None,
    }


@contextmanager
def connect(options: ClusterOptions | None = None,
            on_start: Callable[[dict[str, Any]], None] | None = None) -> Iterator[Client]:
    """A Dask client on a new local cluster or on `options.address()`; both are closed (a
    local cluster stopped) when the block ends.  `on_start(describe(...))` is called once
    the client is connected."""
    options = options or ClusterOptions()
    from distributed import Client, LocalCluster

    address = options.address()
    cluster = None
    try:
        if address is None:
            cluster = LocalCluster(
                n_workers=options.workers, threads_per_worker=1, processes=True,
                memory_limit=options.memory_limit or "auto", host="127.0.0.1",
                dashboard_address=":0", silence_logs=logging.ERROR,
            )
            client = Client(cluster)
        else:
            try:
                client = Client(address, timeout=options.connect_timeout)
            except (OSError, TimeoutError) as exc:
                raise InputFileError(f"cannot reach the Dask scheduler ({exc})", source=address) from exc
        with client:
            if on_start is not None:
                on_start(describe(client, cluster is not None))
            yield client
    finally:
        if cluster is not None:
            cluster.close()
