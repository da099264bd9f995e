"""The web app's fixtures: one Engine loaded for the whole session (spaCy, PPDB, WordNet and a
small paraphrase table: loading takes seconds), and a TestClient of an app around it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi) is not installed")

TABLE = "cat\tfeline\t0.8\ncat\tkitty\t0.5\nsat down\tsat\t\n<b>bold</b>\tstrong\t0.3\n"


@pytest.fixture(scope="session")
def table_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tables") / "small.tsv"
    path.write_text(TABLE, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def engine(table_path):
    from paralign.web import Engine, ServeConfig

    return Engine.load(ServeConfig(tables=(str(table_path),)))


@pytest.fixture(scope="session")
def client(engine):
    from fastapi.testclient import TestClient

    from paralign.web import create_app

    with TestClient(create_app(engine=engine)) as test_client:
        yield test_client
