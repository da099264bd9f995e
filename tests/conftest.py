"""Shared fixtures: the corpora folder (PARALIGN_DATA) and a skip when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from paralign.settings import data_dir

# No per-example deadline (timings belong to benchmarks, and CI machines are shared); in CI the
# examples are derandomised so a run is repeatable.
settings.register_profile(
    "paralign",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")),
)
settings.load_profile("paralign")


@pytest.fixture(scope="session")
def data() -> Path:
    """The corpora folder; tests that use it are skipped with a reason when it is absent."""
    root = data_dir()
    if root is None:
        pytest.skip("corpora not found: set PARALIGN_DATA or put shared/data beside the project")
    return root


@pytest.fixture(scope="session")
def nlp_annotator():
    """One shared spaCy annotator for the whole session."""
    from paralign.nlp import Annotator

    return Annotator()
