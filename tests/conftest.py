"""Shared fixtures: the corpora folder (PARALIGN_DATA) and a skip when it is absent; HTML
reports read back as a browser and an XML reader would (`report_page`)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
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



class Page(HTMLParser):
    """A parsed report: start tags with their attributes, all text, and the XML tree."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text_parts: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.source = text
        self.feed(text)
        self.root = ET.fromstring(text.encode("utf-8"))  # well-formed

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text_parts.append(data)

    @property
    def text(self) -> str:
        return "".join(self.text_parts)

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        """Attributes of the `tag` elements whose attributes include `attrs` (class: one of the classes)."""
        def fits(found: dict) -> bool:
            for key, value in attrs.items():
                key = key.rstrip("_").replace("_", "-")
                have = found.get(key)
                if key == "class":
                    if value not in (have or "").split():
                        return False
                elif have != value:
                    return False
            return True
        return [found for name, found in self.elements if name == tag and fits(found)]

    def count(self, tag: str) -> int:
        return sum(1 for name, _ in self.elements if name == tag)

    def values(self) -> dict[str, object]:
        """Every score cell: data-key -> the JSON value it carries."""
        return {cell["data-key"]: json.loads(cell["data-value"]) for cell in self.find("td")
                if "data-key" in cell}

    def assert_self_contained(self) -> None:
        links = [(tag, key, value) for tag, attrs in self.elements for key, value in attrs.items()
                 if key in ("src", "href")]
        assert links == []
        assert self.count("script") == 0 and self.count("link") == 0
        assert "http://" not in self.source.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "https://" not in self.source and "@import" not in self.source


@pytest.fixture()
def report_page():
    """`report_page(text)`: the parsed :class:`Page`."""
    return Page


@pytest.fixture(scope="session")
def dask_cluster():
    """One local Dask cluster (two worker processes, 127.0.0.1 only) shared by the tests that
    build tables: starting one costs seconds.  Yields its scheduler address; shut down at the end."""
    import logging

    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=":0", memory_limit="1GB", silence_logs=logging.ERROR)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def on_dask(dask_cluster, monkeypatch):
    """Table pipelines in this test run on the shared cluster (through PARALIGN_SCHEDULER)."""
    monkeypatch.setenv("PARALIGN_SCHEDULER", dask_cluster.scheduler_address)
    return dask_cluster
