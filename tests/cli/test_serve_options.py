"""`paralign serve` as a command: a bad table, host, port or extra stops it before serving, with
one error line; the options reach the app and engine; the running server (tests/cli/conftest.py's)
withstands garbage requests and answers only its own names.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from paralign.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_a_bad_table_stops_before_serving(tmp_path, capsys) -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    assert main(["serve", "--resources", "none", "--table", str(tmp_path / "missing.tsv")]) == 2
    assert "missing.tsv" in capsys.readouterr().err
    bad = tmp_path / "bad.tsv"
    bad.write_text("no tab here\n", encoding="utf-8")
    assert main(["serve", "--resources", "none", "--table", str(bad)]) == 1
    assert "bad.tsv:1" in capsys.readouterr().err


def test_a_table_whose_name_holds_a_bar_stops_before_serving(tmp_path, capsys, monkeypatch) -> None:
    """``--table t|x.tsv`` served, its ParaEval signature ``res:t|x.tsv#HASH`` read back as
    ``res:t`` and a keyless part; now a usage error naming the option and the file (serving
    stubbed: without the check it would return 0, not block)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from paralign.cli import serve

    monkeypatch.setattr(serve, "_serve", lambda *args: 0)
    table = tmp_path / "t|x.tsv"
    table.write_text("big\tlarge\t0.9\n", encoding="utf-8")
    assert main(["serve", "--resources", "none", "--port", "0", "--table", str(table)]) == 2
    assert f"argument --table: {table}: the file's name 't|x.tsv' holds '|'" in capsys.readouterr().err


def test_garbage_and_oversized_requests_do_not_stop_the_server(server) -> None:
    import socket
    import urllib.error
    import urllib.request
    from urllib.parse import urlsplit

    address = urlsplit(server)
    for raw in (b"\x00\xff garbage\r\n\r\n", b"POST /api/align HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{",
                b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"):
        with socket.create_connection((address.hostname, address.port), timeout=10) as connection:
            connection.sendall(raw)
            connection.shutdown(socket.SHUT_WR)
            answer = connection.recv(200)
        assert not answer or answer.split()[1][:1] == b"4", answer  # a 4xx, or the line is closed
    body = b'{"source": "' + b"x" * 70_000 + b'", "target": "y"}'
    request = urllib.request.Request(server + "api/align", data=body, headers={"content-type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 413
    with urllib.request.urlopen(server + "api/info", timeout=10) as answer:
        assert answer.status == 200


def _head_answer(server: str, query_bytes: int) -> bytes:
    """The first line and content type of the answer to a GET of the align page whose query
    holds `query_bytes` bytes (b"" when the server closed the connection while it was sent)."""
    from urllib.parse import urlsplit

    address = urlsplit(server)
    request = (b"GET /align?target=b&source=" + b"a" * query_bytes + b" HTTP/1.1\r\nHost: "
               + address.netloc.encode() + b"\r\nConnection: close\r\n\r\n")
    answer = b""
    try:
        with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
            connection.sendall(request)
            while chunk := connection.recv(65536):
                answer += chunk
    except (ConnectionResetError, BrokenPipeError):
        pass  # refused while it was being sent: what was answered, if it came, is kept
    head = answer.partition(b"\r\n\r\n")[0].lower().split(b"\r\n")
    return b" ".join([head[0], *(line for line in head[1:] if line.startswith(b"content-type"))])


def test_a_url_is_answered_by_the_app_up_to_the_head_limit_and_by_uvicorn_past_it(server) -> None:
    """With JavaScript off a form of any length is sent in its URL. Up to REQUEST_HEAD_BYTES
    (128 KiB) the app answers with its page; a longer head that is not whole when that much has
    come (on loopback, past the 256 KiB of one read) is refused by uvicorn's parser before the
    app is called, with its own bare 400: the limit, documented in docs/CLI.md."""
    from paralign.web.models import REQUEST_HEAD_BYTES

    assert _head_answer(server, REQUEST_HEAD_BYTES - 2_000).startswith(b"http/1.1 422 unprocessable entity content-type: text/html")
    beyond = _head_answer(server, 4 * REQUEST_HEAD_BYTES)  # past one read of the socket (256 KiB): never whole
    assert beyond == b"" or beyond.startswith(b"http/1.1 400 bad request content-type: text/plain"), beyond


def test_the_loopback_server_answers_only_its_own_names(server) -> None:
    """A page on another site could make the browser send requests to 127.0.0.1 under a name the
    site controls (DNS rebinding); the server refuses any Host but its loopback names."""
    import urllib.error
    import urllib.request

    from paralign.cli.serve import loopback_names

    assert loopback_names("127.0.0.1") == ("127.0.0.1", "localhost", "::1")
    assert loopback_names("::1") == ("::1", "localhost", "127.0.0.1")
    assert loopback_names("0.0.0.0") is None and loopback_names("192.168.1.5") is None
    rebound = urllib.request.Request(server + "api/info", headers={"Host": "rebound.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(rebound, timeout=10)
    assert refused.value.code == 403
    local = server.replace("127.0.0.1", "localhost")
    with urllib.request.urlopen(local + "api/info", timeout=10) as answer:
        assert answer.status == 200


def test_listening_beyond_this_machine_is_warned_about(monkeypatch, capsys) -> None:
    """--host 0.0.0.0 exposed the app (no login) to the network without a word."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from paralign.errors import ConfigurationError
    from paralign.web import Engine

    def stop(*args, **kwargs):
        raise ConfigurationError("stopped before loading")

    monkeypatch.setattr(Engine, "load", stop)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", "--resources", "none"]) == 2
    err = capsys.readouterr().err
    assert "paralign: warning: listening on 0.0.0.0: other machines can connect (no login, no encryption)" in err
    assert main(["serve", "--host", "127.0.0.1", "--port", "0", "--resources", "none"]) == 2
    assert "warning" not in capsys.readouterr().err


def test_a_name_or_short_form_of_a_loopback_address_is_loopback(monkeypatch, capsys) -> None:
    """--host 127.1 (or this machine's name, which Debian maps to 127.0.1.1) listens on a loopback
    address, but only the typed text was read: it was warned about as reachable by other
    machines and served to any Host header (no DNS rebinding check). The bound address decides."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from paralign.cli import serve
    from paralign.errors import ConfigurationError
    from paralign.web import Engine

    seen = []

    def app(*args, hosts=None, **kwargs):
        seen.append(hosts)
        raise ConfigurationError("stopped before serving")

    monkeypatch.setattr(Engine, "load", lambda *args, **kwargs: None)
    monkeypatch.setattr("paralign.web.create_app", app)
    assert main(["serve", "--host", "127.1", "--port", "0", "--resources", "none"]) == 2
    err = capsys.readouterr().err
    assert "warning" not in err and "stopped before serving" in err, err
    assert seen == [("127.1", "127.0.0.1", "localhost", "::1")]
    assert serve.loopback_names("myhost", "127.0.1.1") == ("myhost", "127.0.1.1", "localhost", "127.0.0.1", "::1")
    assert serve.loopback_names("myhost", "192.168.1.5") is None


def test_an_ipv6_host_in_brackets_is_the_bare_address(monkeypatch, capsys) -> None:
    """--host [::1], as a URL writes the address (and as loopback_names reads it), was given to
    the resolver with its brackets: 'cannot listen on [[::1]]:0: name or service not known'."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from paralign.errors import ConfigurationError
    from paralign.web import Engine

    if not socket.has_ipv6:
        pytest.skip("this machine has no IPv6")

    def stop(*args, **kwargs):
        raise ConfigurationError("stopped before loading")

    monkeypatch.setattr(Engine, "load", stop)
    assert main(["serve", "--host", "[::1]", "--port", "0", "--resources", "none"]) == 2
    err = capsys.readouterr().err
    assert "stopped before loading" in err and "cannot listen" not in err and "warning" not in err, err


def test_cache_size_reaches_the_engine_and_defaults_to_the_server_bound(monkeypatch, capsys) -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from paralign.errors import ConfigurationError
    from paralign.web import Engine
    from paralign.web.engine import SERVE_CACHE_SIZE

    seen = []

    def stop(config, *args, **kwargs):
        seen.append(config.cache_size)
        raise ConfigurationError("stopped before loading")

    monkeypatch.setattr(Engine, "load", stop)
    assert main(["serve", "--port", "0", "--resources", "none", "--cache-size", "7"]) == 2
    assert main(["serve", "--port", "0", "--resources", "none"]) == 2
    assert seen == [7, SERVE_CACHE_SIZE]
    with pytest.raises(SystemExit) as refused:
        main(["serve", "--cache-size", "0"])
    assert refused.value.code == 2 and "argument --cache-size: " in capsys.readouterr().err


def test_max_pairs_reaches_the_app_and_defaults_to_the_web_apps(monkeypatch, capsys) -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from paralign.cli import serve
    from paralign.errors import ConfigurationError
    from paralign.web import Engine
    from paralign.web.models import BATCH_PAIRS

    seen = []

    def app(*args, max_pairs=None, **kwargs):
        seen.append(max_pairs)
        raise ConfigurationError("stopped before serving")

    monkeypatch.setattr(Engine, "load", lambda *args, **kwargs: None)
    monkeypatch.setattr("paralign.web.create_app", app)
    assert main(["serve", "--port", "0", "--resources", "none", "--max-pairs", "20"]) == 2
    assert main(["serve", "--port", "0", "--resources", "none"]) == 2
    assert seen == [20, BATCH_PAIRS] and serve.BATCH_PAIRS == BATCH_PAIRS
    with pytest.raises(SystemExit) as refused:
        main(["serve", "--max-pairs", "0"])
    assert refused.value.code == 2 and "argument --max-pairs: " in capsys.readouterr().err


def test_what_is_loaded_is_frozen_before_serving(monkeypatch) -> None:
    """Ctrl-C on an idle server took 1.2-1.5 s after uvicorn's last line: the interpreter's final
    garbage collections walked the loaded engine (~460,000 objects). It is frozen (gc.freeze)
    once loaded, before the server runs; tests/web/test_serve_process.py stops a real one."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    import gc

    from paralign.cli import serve
    from paralign.web import Engine

    calls = []
    monkeypatch.setattr(Engine, "load", lambda *args, **kwargs: calls.append("load"))
    monkeypatch.setattr("paralign.web.create_app", lambda *args, **kwargs: calls.append("app"))
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))  # not this test process's objects
    monkeypatch.setattr(serve, "_serve", lambda *args: calls.append("serve") or 0)
    assert main(["serve", "--port", "0", "--resources", "none"]) == 0
    assert calls == ["load", "app", "freeze", "serve"]


def test_without_the_web_extra_serve_names_it(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    assert "pip install 'paralign[web]'" in capsys.readouterr().err


@pytest.mark.parametrize("package", ["fastapi", "jinja2"])
def test_without_the_web_extra_importing_paralign_web_names_it(package: str) -> None:
    """`import paralign.web` without the extra is an ExtraMissingError naming the install
    command (it was a bare ModuleNotFoundError for fastapi), and serve names it too."""
    code = (
        "import sys\n"
        f"sys.modules[{package!r}] = None\n"
        "from paralign.errors import ExtraMissingError\n"
        "try:\n"
        "    import paralign.web\n"
        "except ExtraMissingError as exc:\n"
        "    print(type(exc).__name__, exc.missing, exc)\n"
        "from paralign.cli import main\n"
        "print('exit', main(['serve', '--port', '0']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    first, last = done.stdout.splitlines()
    assert first.startswith(f"ExtraMissingError {package} ") and "pip install 'paralign[web]'" in first
    assert last == "exit 2" and "paralign serve needs the optional extra 'web'" in done.stderr


def _serve(*options: str) -> subprocess.CompletedProcess:
    """`paralign serve OPTIONS` in a child process, bounded in time (killed after 120 s)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "paralign", "serve", "--resources", "none", *options],
                          capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("port", ["70000", "65536", "-1"])
def test_a_port_outside_0_65535_is_a_usage_error(port, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", port])
    assert stop.value.code == 2
    assert "argument --port: " in capsys.readouterr().err


def test_a_busy_port_or_an_unknown_host_is_one_error_line_and_exit_2() -> None:
    """uvicorn logged its own ERROR line and exited 3 (outside the 0/1/2 contract)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = _serve("--host", "127.0.0.1", "--port", str(port))
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip() == (f"paralign serve: error: cannot listen on 127.0.0.1:{port}: "
                                  "address already in use"), run.stderr
    assert run.stdout == ""
    run = _serve("--host", "999.1.1.1", "--port", "0")
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().startswith("paralign serve: error: cannot listen on 999.1.1.1:0: "), run.stderr
    assert "\n" not in run.stderr.strip() and "Traceback" not in run.stderr
