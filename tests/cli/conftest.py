"""What the browser tests of `paralign serve` share (test_serve.py, test_serve_access.py,
test_serve_forms.py, test_serve_options.py, test_serve_rendering.py): one server for the
session (the screenshot helpers of benchmarks/screenshots.py, importable as
``paralign_screenshots``, and the `browser` fixture, one Chromium a module, are tests/conftest.py's).

The server runs `paralign serve --table small.tsv` on a free loopback port and is stopped when
the session ends; starting it once spares each module its start. Without a browser these tests
skip, saying so, except in CI (``CI`` set), where a missing browser fails them: `.ci/run`
installs Debian's chromium.
"""

from __future__ import annotations

import time

import paralign_screenshots as helpers  # benchmarks/screenshots.py, loaded by tests/conftest.py
import pytest


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The URL of `paralign serve --table small.tsv` (stopped when the session's tests end)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    table = tmp_path_factory.mktemp("serve") / "small.tsv"
    table.write_text("cat\tfeline\t0.8\n", encoding="utf-8")
    started = time.monotonic()
    with helpers.serving(["--table", str(table)]) as url:
        print(f"paralign serve answered after {time.monotonic() - started:.1f} s")
        yield url
