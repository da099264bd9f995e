"""Shared fixtures: the corpora folder (PARALIGN_DATA) and a skip when it is absent; HTML
reports read back as a browser and an XML reader would (`report_page`); one Chromium a module
(`browser`: Debian's `chromium` driven by playwright, with the screenshot helpers of
benchmarks/screenshots.py importable as ``paralign_screenshots``), for the tests of `paralign
serve` (tests/cli) and of the HTML reports (tests/viz). Without a browser those tests skip,
saying so, except in CI (``CI`` set), where a missing browser fails them: `.ci/run` installs
Debian's chromium."""

from __future__ import annotations

import contextlib
import ctypes
import doctest
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from paralign.settings import data_dir

ROOT = Path(__file__).resolve().parents[1]


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


# No per-example deadline (timings belong to benchmarks, and CI machines are shared); in CI the
# examples are derandomised so a run is repeatable.
settings.register_profile(
    "paralign",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")),
)
settings.load_profile("paralign")


def pytest_configure(config: pytest.Config) -> None:
    """The session's own disk cache (PARALIGN_CACHE_DIR, :mod:`paralign.disk_cache`), inherited
    by the commands and workers the tests start: no test reads a cache it did not fill (a
    developer's ~/.cache/paralign), and none is left behind."""
    if "PARALIGN_CACHE_DIR" not in os.environ:
        config._paralign_cache = tempfile.mkdtemp(prefix="paralign-cache-")  # type: ignore[attr-defined]
        os.environ["PARALIGN_CACHE_DIR"] = config._paralign_cache  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = getattr(config, "_paralign_cache", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("PARALIGN_CACHE_DIR", None)


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
                           dashboard_address="127.0.0.1:0", memory_limit="4GB", silence_logs=logging.ERROR)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def on_dask(dask_cluster, monkeypatch):
    """Table pipelines in this test run on the shared cluster (through PARALIGN_SCHEDULER)."""
    monkeypatch.setenv("PARALIGN_SCHEDULER", dask_cluster.scheduler_address)
    return dask_cluster


#: A corpus whose table pivot holds with phrases its regex tokenizer split: ``doctor's`` ->
#: ``doctor 's``, paraphrased by ``physician 's`` (both through ``des arztes``), lower-cased.
#: regex tokens: the doctor 's car is red . | das auto des arztes ist rot .
BUILT_EN = ["The doctor's car is red.", "The physician's car is red."]
BUILT_DE = ["Das Auto des Arztes ist rot.", "Das Auto des Arztes ist rot."]
BUILT_LINKS = ["0-0 1-3 2-2 3-1 4-4 5-5 6-6", "0-0 1-3 2-2 3-1 4-4 5-5 6-6"]


@pytest.fixture
def built_table(on_dask, tmp_path_factory):
    """`built_table("t.tsv")`: the path of a table that ``paralign pivot`` builds from the
    BUILT_* corpus with its alignment given (no eflomal run) and its defaults (regex tokens,
    lower-cased, recorded in the table), every row kept; X.parquet or X.tsv by the name."""
    from paralign.pivot import PivotOptions, pivot_paraphrases

    folder = tmp_path_factory.mktemp("built")
    paths = {}
    for name, lines in (("en", BUILT_EN), ("de", BUILT_DE), ("align", BUILT_LINKS)):
        paths[name] = folder / f"c.{name}"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")

    def build(name: str) -> Path:
        pivot_paraphrases([(paths["en"], paths["de"])], folder / name,
                          PivotOptions(threshold=0.0, min_translation_prob=0.0), alignments=[paths["align"]],
                          work_dir=folder / f"work-{name}")
        return folder / name

    return build


@pytest.fixture
def batch_on_dask(dask_cluster, request):
    """Batches (paralign.workers) in this test run on the shared two-worker cluster, as a CLI
    command's would; the test module's own functions travel by value (workers cannot import it)."""
    import cloudpickle

    from paralign.cluster import ClusterOptions
    from paralign.workers import runner

    cloudpickle.register_pickle_by_value(request.module)
    try:
        with runner(ClusterOptions(workers=2, scheduler=dask_cluster.scheduler_address)):
            yield dask_cluster
    finally:
        cloudpickle.unregister_pickle_by_value(request.module)


# -- a real cluster of `dask scheduler` and `dask worker` processes (moved from tests/cli/test_pivot.py)
def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _stop(processes) -> None:
    import os
    import signal
    import subprocess

    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def _listening_beyond_localhost(processes) -> list[str]:
    """The addresses other than 127.0.0.1 that `processes` (and their children) listen on."""
    import psutil

    found = []
    for process in processes:
        try:
            tree = [psutil.Process(process.pid), *psutil.Process(process.pid).children(recursive=True)]
            found += [f"{conn.laddr.ip}:{conn.laddr.port}" for one in tree for conn in one.net_connections("tcp")
                      if conn.status == psutil.CONN_LISTEN and conn.laddr.ip != "127.0.0.1"]
        except psutil.NoSuchProcess:
            continue
    return found


@pytest.fixture
def real_cluster(tmp_path):
    """`dask scheduler` and two `dask worker` processes (the entry points distributed installs)
    on 127.0.0.1 and a free port (the scheduler's HTTP routes too: `--no-dashboard` still served
    them on 0.0.0.0:8787, where two test runs at once met); all stopped at the end."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from distributed import Client

    import paralign

    bin_dir = Path(sys.executable).parent
    address = f"tcp://127.0.0.1:{_free_port()}"
    env = {**os.environ, "PYTHONPATH": str(Path(paralign.__file__).parents[1])}
    common = {"env": env, "cwd": tmp_path, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
              "start_new_session": True}
    processes = [subprocess.Popen([str(bin_dir / "dask"), "scheduler", "--host", "127.0.0.1", "--port",
                                   address.rsplit(":", 1)[1], "--no-dashboard", "--dashboard-address",
                                   "127.0.0.1:0"], **common)]
    try:
        for _ in range(2):
            processes.append(subprocess.Popen(
                [str(bin_dir / "dask"), "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                 "--memory-limit", "1GB", "--no-dashboard", "--dashboard-address", "127.0.0.1:0"], **common))
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=90)
        assert not _listening_beyond_localhost(processes), "the cluster listens beyond 127.0.0.1"
        yield address
    finally:
        _stop(processes)


#: A ```pycon block of a Markdown page and the line before it (after a blank line).
PYCON_BLOCK = re.compile(r"(?P<lead>[^\n]*)\n\n```pycon\n(?P<body>.*?)```", re.S)


@pytest.fixture(scope="session")
def run_pycon_blocks():
    """A function that runs the ```pycon blocks of a Markdown page as doctests, in order, in one
    namespace (as a reader's session would), each failure reported at the page's own line, and
    returns how many examples ran; a block whose line before satisfies `skip(lead)` is left out.
    The README (tests/test_readme.py) and docs/api.md (tests/test_api_doc.py) are run this way."""

    def run(page: Path, skip=lambda lead: False) -> int:
        text = page.read_text(encoding="utf-8")
        namespace: dict = {}
        parser = doctest.DocTestParser()
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        ran = 0
        for number, match in enumerate(PYCON_BLOCK.finditer(text), 1):
            if skip(match["lead"]):
                continue
            line = text.count("\n", 0, match.start("body"))
            name = f"{page.name} block {number}"
            test = parser.get_doctest(match["body"], namespace, name, str(page), line)
            result = runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy: carry the names to the next block
            assert result.failed == 0, f"{name}: {result.failed} example(s) gave other output (above)"
            ran += result.attempted
        return ran

    return run


@pytest.fixture(scope="session")
def old_import_paths() -> set[tuple[str, str | None, str]]:
    """(old module, moved name or None for a whole module, new home as `module` or
    `module:new_name`) for every old path the package serves (paralign._moved): each old-path
    file's `alias_module(__name__, NEW)` and each module's `moved_names` table, read from the
    `__getattr__` it made (or the function its `__getattr__` calls). docs/api.md lists them (tests/test_api_doc.py)."""
    import importlib
    import inspect

    package = Path(__file__).resolve().parents[1] / "src" / "paralign"
    served: set[tuple[str, str | None, str]] = set()
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        parts = path.relative_to(package.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        aliased = re.search(r'^alias_module\(__name__, "([\w.]+)"\)', text, re.M)
        if aliased:
            served.add((module, None, aliased[1]))
        elif made := re.search(r"^(\w+) = moved_names\(", text, re.M):  # the __getattr__, or what it calls
            serve = getattr(importlib.import_module(module), made[1])
            homes = inspect.getclosurevars(serve).nonlocals["new_homes"]
            served |= {(module, name, home) for name, home in homes.items()}
    return served


@pytest.fixture()
def table_cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, which keeps a table of any size; the list of files
    parsed (not read back from the cache)."""
    from paralign import paraphrases

    folder = tmp_path / "cache"
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(folder))
    monkeypatch.setattr(paraphrases, "CACHED_TABLE_BYTES", 0)
    parsed: list[str] = []
    read = paraphrases._read_table
    monkeypatch.setattr(paraphrases, "_read_table", lambda path, *rest: parsed.append(str(path)) or read(path, *rest))
    return folder, parsed


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


#: CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (linux/capability.h): what lets root read a file
#: whose mode forbids it.
_DAC_CAPS = (1 << 1) | (1 << 2)


@contextlib.contextmanager
def _as_file_owner():
    """As root (CI runs the suite as root), this thread without the capabilities that bypass
    file modes, so a file of mode 0 is "permission denied" to the command as to any user, and
    the matrix's unreadable cells are checked rather than skipped; other users need nothing.
    Skips where Linux's capget/capset cannot be used."""
    if os.geteuid() != 0:
        yield
        return
    libc = ctypes.CDLL(None, use_errno=True)
    header, data = _CapHeader(0x20080522, 0), (_CapData * 2)()  # _LINUX_CAPABILITY_VERSION_3
    if getattr(libc, "capget", None) is None or libc.capget(ctypes.byref(header), data) != 0:
        pytest.skip("root reads a file without read permission, and capget is not available here")
    saved = data[0].effective
    data[0].effective = saved & ~_DAC_CAPS
    if libc.capset(ctypes.byref(header), data) != 0:
        pytest.skip("root reads a file without read permission, and cannot drop CAP_DAC_OVERRIDE here")
    try:
        yield
    finally:
        data[0].effective = saved
        if libc.capset(ctypes.byref(header), data) != 0:
            raise OSError(ctypes.get_errno(), "capset: could not restore this thread's capabilities")


@pytest.fixture()
def as_file_owner():
    """:func:`_as_file_owner`: a block in which root too is refused a file or folder of mode 0."""
    return _as_file_owner


# -- the neural encoder (tests of --encoder/--device: tests/cli/test_encoder_options.py, web) ------
@pytest.fixture
def encoder_built(monkeypatch) -> list[tuple[object, str]]:
    """(model, device) of every Encoder made from now on (each still made for real)."""
    from paralign.neural import encoder

    made: list[tuple[object, str]] = []
    original = encoder.Encoder.__init__

    def spy(self, model=None, *, device="auto", **options) -> None:
        made.append((model, device))
        original(self, model, device=device, **options)

    monkeypatch.setattr(encoder.Encoder, "__init__", spy)
    return made


@pytest.fixture(scope="session")
def renamed_encoder(tmp_path_factory) -> str:
    """The installed MiniLM under another directory name (its files linked, not copied)."""
    from paralign.neural import model_directory

    folder = tmp_path_factory.mktemp("models") / "minilm-renamed"
    folder.mkdir()
    for item in model_directory().iterdir():
        (folder / item.name).symlink_to(item)
    return str(folder)


# -- what spaCy was asked to do (the exact aligner's paths: tokens alone, no parse) -------------
@pytest.fixture
def spacy_calls(monkeypatch) -> dict[str, int]:
    """How many times, from now on, any Annotator parsed (``pipe``: tagger, parser, lemmas) and
    tokenised alone (``tokenize``), each call still made for real."""
    from paralign.nlp import Annotator

    calls = {"pipe": 0, "tokenize": 0}
    for name in calls:
        original = getattr(Annotator, name)

        def spy(self, *args, _name=name, _original=original, **kwargs):  # type: ignore[no-untyped-def]
            calls[_name] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Annotator, name, spy)
    return calls


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
