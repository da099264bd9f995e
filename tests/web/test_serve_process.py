"""`paralign serve` as a process: what it prints where, and how it stops."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest


def _first_line(stream, timeout: float) -> str:
    """The first line of `stream`, or '' when none comes within `timeout` seconds."""
    found: list[str] = []
    reader = threading.Thread(target=lambda: found.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return found[0] if found else ""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_the_address_is_the_only_output_and_ctrl_c_stops_the_server(tmp_path) -> None:
    """With --log-level info uvicorn's access log went to stdout after the JSON address line (the
    help says stderr): a program reading that line got log lines after it. Now stdout holds the
    address alone, the access log is on stderr, and SIGINT stops the server cleanly, with the
    command line's status for Ctrl-C (130) and no traceback."""
    import paralign

    env = {**os.environ, "PYTHONPATH": str(Path(paralign.__file__).resolve().parents[1])}
    command = [sys.executable, "-m", "paralign", "serve", "--host", "127.0.0.1", "--port", "0", "--format", "json",
               "--resources", "none", "--log-level", "info"]
    with open(tmp_path / "stderr", "w+", encoding="utf-8") as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        try:
            line = _first_line(process.stdout, 300)
            assert line, f"no address printed (exit {process.poll()})"
            url = json.loads(line)["url"]
            assert url.startswith("http://127.0.0.1:")
            with urllib.request.urlopen(url + "api/info", timeout=30) as answer:
                assert answer.status == 200
        finally:
            process.send_signal(signal.SIGINT)
            try:
                rest, _ = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate(timeout=30)
                pytest.fail("the server did not stop within 30 s of SIGINT")
        errors.seek(0)
        logged = errors.read()
    assert process.returncode == 130, logged[-2000:]
    assert rest == "", rest[:500]
    assert '"GET /api/info HTTP/1.1" 200' in logged
    assert "Traceback" not in logged and "Finished server process" in logged.splitlines()[-1]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_with_a_batch_running_stops_the_server_and_answers_the_batch_503(tmp_path) -> None:
    """A batch of a thousand pairs (~10 s) is running when the server gets SIGINT: the server
    waits its graceful 5 s, answers the batch 503, stops the batch between two blocks and exits
    with 130, well within the bound (about 6 s here; a benchmark-style figure is in the report
    of the change, not timed here)."""
    import paralign

    env = {**os.environ, "PYTHONPATH": str(Path(paralign.__file__).resolve().parents[1])}
    command = [sys.executable, "-m", "paralign", "serve", "--host", "127.0.0.1", "--port", "0", "--format", "json",
               "--resources", "none"]
    rng = random.Random(1)
    words = ("cat", "dog", "house", "river", "price", "market", "city", "rain", "sun", "child", "book", "road", "car",
             "train", "bird", "tree", "stone")

    def sentence() -> str:  # three clauses of words drawn at random: few pairs the aligner's caches know
        return " and ".join(f"the {rng.choice(words)} sat near the {rng.choice(words)} by the {rng.choice(words)} "
                            f"{rng.randint(1, 999)}" for _ in range(3))

    pairs = "".join(f"{sentence()}\t{sentence()}\n" for _ in range(1000))
    answers: list[object] = []

    def batch(url: str) -> None:
        request = urllib.request.Request(url + "api/similarity/batch", data=json.dumps({"pairs": pairs}).encode(),
                                         headers={"content-type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                answers.append(answer.status)
        except urllib.error.HTTPError as exc:
            answers.append(exc.code)
        except OSError as exc:  # pragma: no cover - reported by the assertion below
            answers.append(repr(exc))

    with open(tmp_path / "stderr", "w+", encoding="utf-8") as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        try:
            line = _first_line(process.stdout, 300)
            assert line, f"no address printed (exit {process.poll()})"
            sender = threading.Thread(target=batch, args=(json.loads(line)["url"],), daemon=True)
            sender.start()
            sender.join(1.5)  # the batch is sent and being scored (it takes ~10 s)
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate(timeout=30)
                pytest.fail("the server did not stop within 30 s of SIGINT with a batch running")
        sender.join(30)
        errors.seek(0)
        logged = errors.read()
    assert process.returncode == 130, logged[-2000:]
    assert answers == [503], (answers, logged[-2000:])
    assert "Traceback" not in logged


def test_ctrl_c_is_status_130_even_when_uvicorn_does_not_raise_it_again(monkeypatch) -> None:
    """uvicorn answers SIGINT by shutting down and then raising the signal again, which main()
    turns into 130; in one CI run (uvicorn 0.54, Python 3.11's asyncio.Runner and its own SIGINT
    handler) that second SIGINT was lost and serve exited 0 after a Ctrl-C. The command now
    records the signal itself: a server stopped by SIGINT is status 130 whatever uvicorn does
    after it."""
    import argparse
    import socket

    import uvicorn

    from paralign.cli import serve

    def run(self, sockets=None):  # a server that starts, gets Ctrl-C, and returns without raising it again
        self.started = True
        self.handle_exit(signal.SIGINT, None)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    args = argparse.Namespace(host="127.0.0.1", port=0, log_level="warning", format="json")
    with socket.socket() as sock:
        assert serve._serve(args, uvicorn, object(), object(), sock) == 130
