"""Where a command's Dask work runs: the :class:`~paralign.cluster.ClusterOptions` of its
``--workers``, ``--scheduler`` and ``--memory-limit``, and the line saying where the job runs
(shared by the batch commands' runner and the two table pipelines).

Not for: running work on the cluster (:mod:`paralign.workers`, :mod:`paralign.cluster`), or a
batch command's runner (:func:`._options.cluster_runner`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ._common import counted
from ._stderr import shown

if TYPE_CHECKING:  # pragma: no cover - paralign.cluster loads on first use
    from ..cluster import ClusterOptions


def cluster_from_args(args: argparse.Namespace) -> ClusterOptions:
    """The cluster of a command's --workers, --memory-limit and --scheduler."""
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
