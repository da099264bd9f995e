"""Where a command's Dask work runs: ``--workers``, ``--scheduler`` and ``--memory-limit``, added by
one function to every command that has them (the batch commands and the two table pipelines),
the :class:`~paralign.cluster.ClusterOptions` they make, and the line saying where the job runs.

Why one function: the options were defined in six places, whose help said the same thing in
five ways (``worker processes of the local Dask cluster``, ``Dask worker processes``, ...) and
what differs between commands either not at all (what a worker does) or wrongly (a pipeline's
``--memory-limit`` "spills to disk", a batch command's "pauses": Dask does both in both).

`cluster_runner`: a batch command's Dask runner, started or reached on first need.

Not for: running work on the cluster (:mod:`paralign.workers`, :mod:`paralign.cluster`).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ._common import counted, positive_int
from ._metavars import ADDRESS, SIZE, N
from ._stderr import shown
from ._warnings import warn

if TYPE_CHECKING:  # pragma: no cover - paralign.cluster loads on first use
    from ..cluster import ClusterOptions


def add_cluster_options(container: argparse._ActionsContainer, work: str, *, pipeline: bool = False) -> None:
    """--workers, --scheduler and --memory-limit. `work`: what a worker does in this command
    (``parsing and aligning the pairs``), for --workers' help. `pipeline`: the command always
    runs on Dask (`pivot`, `paraphrase-table`: one worker is a local cluster of one, and a
    scheduler's workers read the inputs and the work folder themselves); otherwise one worker
    and no scheduler runs in this process, and --memory-limit matters from two workers."""
    one = "a local cluster of one" if pipeline else "in this process"
    container.add_argument("--workers", type=positive_int, default=1, metavar=N,
                           help=f"Dask worker processes {work} (default: %(default)s: {one})")
    local = "a local cluster of --workers processes" if pipeline else "--workers local processes, or this process for 1"
    reads = "; its workers must see the input files and --work-dir" if pipeline else ""
    container.add_argument("--scheduler", default=None, metavar=ADDRESS,
                           help=f"run on an existing Dask cluster, e.g. tcp://HOST:8786 (default: $PARALIGN_SCHEDULER, "
                           f"else {local}){reads}; used as it is: a LocalCluster you started keeps Dask's lost-worker "
                           "timer, closing for good a worker not back within distributed.deploy.lost-worker-timeout "
                           "(15 s), which paralign's own cluster waits for (docs/CLI.md)")
    container.add_argument("--memory-limit", default=None, metavar=SIZE,
                           help=f"memory per local Dask worker{'' if pipeline else ' with --workers 2 or more'}, e.g. "
                           "4GB (default: Dask's share of the machine); a worker nearing it spills to disk, one "
                           "above 80%% of it is paused, and when every worker has been paused for 2 minutes the "
                           "command stops with an error")


def cluster_from_args(args: argparse.Namespace) -> ClusterOptions:
    """The cluster of the options :func:`add_cluster_options` added."""
    from ..cluster import ClusterOptions

    return ClusterOptions(workers=args.workers, memory_limit=args.memory_limit, scheduler=args.scheduler)


def announce_cluster(info: dict) -> None:
    """Say on stderr where the job runs and where its dashboard is (when the job starts: a local
    cluster is heard from the thread that started it, maybe while a progress bar is drawn, so
    the line goes above the bar, through tqdm)."""
    from tqdm import tqdm

    where = "local cluster" if info.get("local") else "cluster"
    dashboard = info.get("dashboard") or ("not served (install bokeh for it)" if info.get("local")
                                          else "not served by the scheduler")
    tqdm.write(shown(f"paralign: dask {where} at {info.get('scheduler')} with {counted(info.get('workers', 0), 'worker')}; "
                     f"dashboard: {dashboard}"), file=sys.stderr)


def cluster_runner(args: argparse.Namespace) -> AbstractContextManager[None]:
    """The Dask runner of a batch command (--workers, --scheduler or $PARALIGN_SCHEDULER): its
    batches share one cluster, started or reached on first need; the dashboard link goes to stderr."""
    from ..workers import runner

    options = cluster_from_args(args)
    if options.memory_limit is not None and options.address() is not None:  # it was ignored without a word
        warn(f"--memory-limit {options.memory_limit} does nothing for the Dask cluster at {options.address()}: it "
             "limits local workers; that cluster's workers keep their own (dask worker --memory-limit)")
    return runner(options, on_start=announce_cluster)
