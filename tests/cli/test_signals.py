"""How a run ends when it is told to stop by a signal other than Ctrl-C (test_streaming.py has
Ctrl-C's): SIGTERM, what `kill`, `timeout`, a batch system's time limit and `docker stop` send."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from paralign.cli import _terminated_as_interrupted


def _wait_for(path: Path, text: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while text not in path.read_text(encoding="utf-8", errors="replace"):
        if time.monotonic() > deadline:
            pytest.fail(f"{text!r} not on stderr after {seconds} s: {path.read_text(errors='replace')!r}")
        time.sleep(0.2)


def _terminated(process: subprocess.Popen, stderr_path: Path) -> tuple[int, float, list[psutil.Process]]:
    """SIGTERM to the running `process`, whose local cluster is started: its exit status, the
    seconds it took to end, and the processes it had started that are still alive 10 s later."""
    started = psutil.Process(process.pid).children(recursive=True)
    assert process.poll() is None and started, stderr_path.read_text(errors="replace")
    process.send_signal(signal.SIGTERM)
    heard = time.monotonic()
    status = process.wait(timeout=30)
    took = time.monotonic() - heard
    return status, took, psutil.wait_procs(started, timeout=10)[1]


@pytest.mark.timeout(120)
def test_sigterm_stops_the_run_and_its_local_cluster(tmp_path, monkeypatch) -> None:
    """`kill PID` on `paralign pivot --workers 2` ended Python on the spot (status -15, no word):
    its Dask workers and the eflomal they ran went on, orphaned, for 28 s on Multi30k, leaving
    eflomal's 1.4 MB temporary input in /tmp and a multiprocessing warning of 12 leaked
    semaphores. SIGTERM now ends a run as Ctrl-C does: status 143, one line saying so, and every
    process the run started gone. Here `align --workers 2` waits for input on an open pipe, with
    its local cluster started by the first 300 lines."""
    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    stderr_path = tmp_path / "stderr.txt"
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "paralign", "align", "--tokenized", "--workers", "2"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
        )
    try:
        assert process.stdin is not None
        process.stdin.write(b"A b .\tA b .\n" * 300)  # the cluster starts for more than a chunk
        process.stdin.flush()
        _wait_for(stderr_path, "dask local cluster at", 90)
        status, _, alive = _terminated(process, stderr_path)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    err = stderr_path.read_text(encoding="utf-8")
    assert status == 143, err
    assert "paralign align: terminated (SIGTERM)" in err
    assert "Traceback" not in err and "leaked semaphore" not in err
    assert not alive, f"left running: {[p.pid for p in alive]}"


def test_a_handler_of_the_caller_is_kept() -> None:
    """A program that calls `main()` with its own SIGTERM handler keeps it, during and after."""
    def mine(signum: int, frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        with _terminated_as_interrupted():
            assert signal.getsignal(signal.SIGTERM) is mine
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_the_default_action_comes_back_after_the_run() -> None:
    """Outside a run SIGTERM has its default action again (a test runner, a notebook)."""
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with _terminated_as_interrupted():
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_an_interrupted_run_skips_python_s_last_garbage_collection(tmp_path) -> None:
    """After SIGTERM (or Ctrl-C) the run's objects are frozen as Python starts exiting
    (`cli._no_last_collection`): the collection of the whole heap at exit took 1.4 to 2.6 s
    after a local Dask cluster, on a loaded machine, of a command that had stopped its work.
    An exit handler registered before `main` runs after the run's own and sees them frozen."""
    code = ("import atexit, gc, os, signal, sys\n"
            "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0, flush=True))\n"
            "from paralign.cli import main\n"
            "import paralign.disk_cache as disk_cache\n"
            "def info():\n    os.kill(os.getpid(), signal.SIGTERM)\n    signal.pause()\n"
            "disk_cache.info = info\n"
            "sys.exit(main(['cache', 'info']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert done.returncode == 143, done.stderr
    assert "paralign cache info: terminated (SIGTERM)" in done.stderr
    assert done.stdout.splitlines()[-1] == "frozen True", done.stdout + done.stderr


@pytest.mark.timeout(180)
def test_sigterm_mid_batch_ends_the_run_within_seconds(tmp_path, monkeypatch) -> None:
    """SIGTERM to `align --workers 2 FILE -o OUT` while its workers align took 5.8 to 7.2 s to end
    the command on a loaded machine: closing the local cluster asked each worker to stop after
    its running task and killed it only 4 s later (`cluster._kill_workers`). Now within a
    second or so (bound: 3 s), with no process of the run left and no -o file, whole or part."""
    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    pairs = Path(__file__).resolve().parents[2] / "examples" / "demo" / "pairs.tsv"
    (tmp_path / "pairs.tsv").write_text(pairs.read_text(encoding="utf-8") * 300, encoding="utf-8")  # never done in time
    stderr_path = tmp_path / "stderr.txt"
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "paralign", "align", "--workers", "2", "--chunk-size", "8", "pairs.tsv",
             "-o", "out.txt"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        _wait_for(stderr_path, "dask local cluster at", 120)
        time.sleep(2)  # the workers take their first chunks
        status, took, alive = _terminated(process, stderr_path)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    err = stderr_path.read_text(encoding="utf-8")
    assert status == 143, err
    assert took < 3, f"{took:.1f} s from SIGTERM to the end of the run"
    assert not alive, f"left running: {[p.pid for p in alive]}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.tsv", "stderr.txt"]
    assert "Traceback" not in err
