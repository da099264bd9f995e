"""What the browser tests of `paralign serve` share (test_serve.py, test_serve_access.py,
test_serve_forms.py, test_serve_options.py, test_serve_rendering.py): the screenshot helpers of
benchmarks/screenshots.py (importable as ``paralign_screenshots``), one server for the session
and one Chromium a module.

The server runs `paralign serve --table small.tsv` on a free loopback port and is stopped when
the session ends; starting it once spares each module its start. Without a browser these tests
skip, saying so, except in CI (``CI`` set), where a missing browser fails them: `.ci/run`
installs Debian's chromium.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _screenshot_helpers():
    spec = importlib.util.spec_from_file_location("paralign_screenshots", ROOT / "benchmarks" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


helpers = sys.modules.setdefault("paralign_screenshots", _screenshot_helpers())


def unavailable(reason: str) -> None:
    """Skip for a missing browser or web extra, saying why; in CI, fail."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (in CI the browser tests must run: .ci/run installs chromium)")
    pytest.skip(reason)


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


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[dev]')")
    executable = helpers.find_chromium()
    if executable is None:
        unavailable("no Chromium found (apt-get install chromium, or set PARALIGN_CHROMIUM)")
    with sync_playwright() as playwright:
        chromium = helpers.launch(playwright, executable)
        yield chromium
        chromium.close()
