"""Whether an existing Dask cluster runs this command's code: the versions of paralign, dask and
distributed in this process, on the scheduler and on each worker (:func:`check_versions`, which
:func:`paralign.cluster.connect` calls for a cluster at a scheduler address).

Not for: connecting to a cluster or waiting on it (:mod:`paralign.cluster`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError

if TYPE_CHECKING:  # pragma: no cover - distributed loads on first use
    from distributed import Client

#: The packages whose versions the command, the scheduler and every worker must share: tasks
#: are pickled with this process' classes and rebuilt there (a scheduler or worker started
#: before an upgrade rebuilds them with its old ones).
MATCHED_PACKAGES = ("paralign", "dask", "distributed")


def check_versions(client: Client, address: str) -> None:
    """ConfigurationError naming each of :data:`MATCHED_PACKAGES` whose version differs
    between this process and the scheduler or a worker of the cluster at `address`
    (:func:`version_differences` of :func:`running_versions`)."""
    said = version_differences(running_versions(client))
    if said:
        raise ConfigurationError(f"the Dask cluster at {address} runs other versions than this command "
                                 f"({'; '.join(said)}): start (or restart, after an upgrade) its scheduler and "
                                 f"workers with the same {', '.join(MATCHED_PACKAGES)} as this command")


def running_versions(client: Client) -> dict[str, Any]:
    """The versions of :data:`MATCHED_PACKAGES` whose code this process, the scheduler and each
    worker import (each package's ``__version__``), in ``Client.get_versions``' shape: "client",
    "scheduler" and "workers" records, each with its "packages"; a package a process cannot
    import is None there. Why not ``get_versions`` itself: it reads each install's record
    (``importlib.metadata``), which an editable install keeps from the day it was installed, so
    a checkout updated since (or run with ``PYTHONPATH``) passed or failed the check by that
    version, not by the code each process runs."""
    packages = MATCHED_PACKAGES

    def imported() -> dict[str, Any]:  # defined here, so it is sent by value: a process
        import importlib  # without paralign can still run it and say so

        found: dict[str, Any] = {}
        for package in packages:
            try:
                found[package] = importlib.import_module(package).__version__
            except Exception:  # noqa: BLE001 - not installed, or broken: not the command's version
                found[package] = None
        return {"packages": found}

    return {"client": imported(), "scheduler": client.run_on_scheduler(imported),
            "workers": client.run(imported)}


def version_differences(versions: dict[str, Any]) -> list[str]:
    """Per package of :data:`MATCHED_PACKAGES` whose version differs somewhere, e.g. 'paralign
    0.2 here, 0.1 on the scheduler and 2 workers' (from :func:`running_versions` or
    ``Client.get_versions``: "client", "scheduler" and "workers" records; a package it cannot
    find is 'not installed')."""
    def of(record: Any, package: str) -> str:
        return ((record or {}).get("packages") or {}).get(package) or "not installed"

    places = [("the scheduler", versions.get("scheduler"))] + [
        (f"worker {address}", record) for address, record in sorted((versions.get("workers") or {}).items())]
    said = []
    for package in MATCHED_PACKAGES:
        here = of(versions.get("client"), package)
        there: dict[str, list[str]] = {}
        for place, record in places:
            if of(record, package) != here:
                there.setdefault(of(record, package), []).append(place)
        if there:
            said.append(f"{package} {here} here, " + ", ".join(
                f"{version} on {_places(where)}" for version, where in there.items()))
    return said


def _places(where: list[str]) -> str:
    """'the scheduler and 2 workers', 'worker tcp://...' or 'the scheduler'."""
    workers = [place for place in where if place.startswith("worker ")]
    named = [place for place in where if place not in workers]
    if len(workers) > 1:
        named.append(f"{len(workers)} workers")
    else:
        named += workers
    return " and ".join(named)
