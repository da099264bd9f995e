"""The app around the routes: the body limit, the error answers, the docs page switched to ours."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import pytest

from paralign.metrics.paraeval import ParaEval
from paralign.paraphrases import ParaphraseTable
from paralign.web.app import BodyLimit, create_app
from paralign.web.engine import Engine


def _call(limit: int, messages: list[dict], headers=()) -> tuple[list[dict], bytes]:
    """Run BodyLimit around an app that echoes the body; (messages sent, body the app saw)."""
    seen = []

    async def app(scope, receive, send):
        message = await receive()
        seen.append(message["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    queue = list(messages)
    sent: list[dict] = []

    async def receive():
        return queue.pop(0)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "headers": list(headers)}
    asyncio.run(BodyLimit(app, limit)(scope, receive, send))
    return sent, (seen[0] if seen else b"")


def test_body_limit_counts_declared_and_streamed_bytes() -> None:
    sent, body = _call(10, [{"type": "http.request", "body": b"12345", "more_body": True},
                            {"type": "http.request", "body": b"678", "more_body": False}])
    assert sent[0]["status"] == 200 and body == b"12345678"  # replayed whole to the app
    sent, body = _call(10, [{"type": "http.request", "body": b"123456", "more_body": True},
                            {"type": "http.request", "body": b"78901", "more_body": False}])
    assert sent[0]["status"] == 413 and body == b""
    sent, _ = _call(10, [], headers=[(b"content-length", b"11")])
    assert sent[0]["status"] == 413
    sent, _ = _call(10, [], headers=[(b"content-length", b"-1")])
    assert sent[0]["status"] == 413


def test_errors_are_json_and_no_cdn_docs() -> None:
    from fastapi.testclient import TestClient

    app = create_app(engine=Engine({}, ParaEval(), {}), max_body=100)
    with TestClient(app) as client:
        refused = client.post("/api/paraphrases", json={"phrase": "cat"})
        assert refused.status_code == 422
        assert refused.json() == {"error": "no paraphrase source is loaded: start the server with --table FILE "
                                           "(or --resources ppdb,wordnet)", "detail": []}
        assert client.post("/api/paraphrases", json={"phrase": "c" * 150}).status_code == 413
        assert client.get("/redoc").status_code == 404
        assert "enum" not in client.get("/openapi.json").json()["components"]["schemas"][
            "ParaphrasesRequest"]["properties"]["table"]


def test_unknown_routes_and_methods_answer_in_the_error_shape(client) -> None:
    """They answered FastAPI's {"detail": "Not Found"}, not the {error, detail} every other error has."""
    missing = client.post("/api/nope", json={})
    assert missing.status_code == 404
    assert missing.json() == {"error": "nothing at /api/nope: the pages are listed at /, the API routes at /docs",
                              "detail": []}
    wrong = client.get("/api/align")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "POST"
    assert wrong.json() == {"error": "GET /api/align is not allowed: use POST", "detail": []}
    assert client.post("/api/info").json()["error"] == "POST /api/info is not allowed: use GET or HEAD"
    assert client.get("/static/missing.css").json()["detail"] == []


def test_a_browser_asking_for_an_unknown_page_gets_a_page(client) -> None:
    answer = client.get("/alig", headers={"accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    assert 'id="error">nothing at /alig: the pages are listed at /' in answer.text
    assert 'href="/align"' in answer.text and "<title>Page not found · paralign</title>" in answer.text
    assert client.get("/alig").headers["content-type"] == "application/json"  # a program gets JSON


def test_a_fault_of_the_server_is_an_error_answer_not_plain_text() -> None:
    """A 500 was the text/plain 'Internal Server Error', in neither the API's shape nor a page."""
    from fastapi.testclient import TestClient

    engine = Engine({}, ParaEval(), {})

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    engine.lattice = broken  # type: ignore[method-assign]
    with TestClient(create_app(engine=engine), raise_server_exceptions=False) as client:
        answer = client.post("/api/lattice", json={"sentences": ["a b"]})
        assert answer.status_code == 500
        assert answer.json() == {"error": "the server failed on POST /api/lattice (RuntimeError); see its log",
                                 "detail": []}
        page = client.get("/lattice?sentences=a+b", headers={"accept": "text/html"})
        assert page.status_code == 500 and "<title>Server error · paralign</title>" in page.text
        assert "a bug" not in page.text + answer.text


def test_with_hosts_a_request_for_another_host_is_refused() -> None:
    """A web page could reach the loopback server through a name it controls (DNS rebinding)."""
    from fastapi.testclient import TestClient

    from paralign.web.app import host_name

    assert [host_name(h) for h in ("127.0.0.1:8000", "[::1]:8000", "LocalHost", "::1")] == [
        "127.0.0.1", "::1", "localhost", "::1"]
    app = create_app(engine=Engine({}, ParaEval(), {}), hosts=("127.0.0.1", "localhost", "::1"))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/info").status_code == 200
        assert client.get("/api/info", headers={"host": "[::1]:8000"}).status_code == 200
        refused = client.get("/api/info", headers={"host": "rebound.example:8000"})
        assert refused.status_code == 403
        assert refused.json()["error"].startswith("this server answers requests for 127.0.0.1, localhost, ::1, "
                                                  "not 'rebound.example:8000'")


def test_a_browser_refused_for_its_host_name_gets_a_page_not_raw_json() -> None:
    """A page opened under a name the server refuses (http://0.0.0.0:8000/, which reaches a
    server on 127.0.0.1) showed the raw JSON of the 403, where every other error a browser meets
    is a page; a client of the API still gets the JSON."""
    from fastapi.testclient import TestClient

    app = create_app(engine=Engine({}, ParaEval(), {}), hosts=("127.0.0.1", "localhost", "::1"))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        browser = {"host": "0.0.0.0:8000", "accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
        page = client.get("/align", headers=browser)
        assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
        assert "<title>Wrong host name · paralign</title>" in page.text
        assert "this server answers requests for 127.0.0.1, localhost, ::1, not &#39;0.0.0.0:8000&#39;" in page.text
        for answer in (client.get("/api/info", headers=browser), client.get("/align", headers={"host": "0.0.0.0"}),
                       client.post("/api/align", headers=browser, json={})):
            assert answer.status_code == 403 and answer.json()["error"].startswith("this server answers")


def _stopped_while_busy(engine: Engine, requests: int, busy: float = 0.5,
                        during: Callable[[int], None] | None = None, *, ready: Callable[[], bool] | None = None,
                        stopped: Callable[[], None] | None = None) -> list[tuple[int, str, str]]:
    """Serve `engine`'s app with a real uvicorn server on a free loopback port (1 s of graceful
    shutdown), send `requests` POSTs of /api/paraphrases at once, stop the server `busy` seconds
    later, or once `ready()` is true (polled, for at most 30 s: what a test needs to see before
    the stop, not a guess of how long it takes under load), or once `during(port)` returns, when
    given; call `stopped()` once every request has its answer; and give each request's (status,
    content type, body), once the server has stopped."""
    import socket
    import threading
    import time
    import urllib.error
    import urllib.request

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(engine=engine), log_level="critical",
                                           timeout_graceful_shutdown=1, lifespan="on"))
    serving = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    serving.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    answers: list[tuple[int, str, str]] = []

    def ask() -> None:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/paraphrases", data=b'{"phrase": "a"}',
                                         headers={"content-type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                answers.append((answer.status, answer.headers["content-type"], answer.read().decode()))
        except urllib.error.HTTPError as exc:
            answers.append((exc.code, exc.headers["content-type"], exc.read().decode()))

    clients = [threading.Thread(target=ask) for _ in range(requests)]
    for client in clients:
        client.start()
    if ready is None:
        time.sleep(busy)  # the requests are running, or waiting for the engine
    else:
        deadline = time.monotonic() + 30
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ready(), "the requests did not reach the engine within 30 s"
    if during is not None:
        during(port)
    server.should_exit = True
    for client in clients:
        client.join(20)
    if stopped is not None:
        stopped()
    serving.join(20)
    sock.close()
    assert not serving.is_alive() and not any(client.is_alive() for client in clients)
    return answers


class _HeldTable(ParaphraseTable):
    """A table whose every lookup is held until `release` is set (30 s at most), counting the
    lookups begun. A lookup of a fixed time (4 s, 0.4 s) with the stop a fixed 0.5 s after the
    requests were sent made the 503 tests a race with the machine's load: a request not yet in
    the app when the server stopped was refused a connection, one already done was answered
    200."""

    def __init__(self) -> None:
        import threading

        super().__init__("slow")
        self.release, self.lookups = threading.Event(), 0

    def paraphrases(self, phrase: str):  # type: ignore[override]
        self.lookups += 1
        self.release.wait(30)
        return super().paraphrases(phrase)


def test_a_request_running_when_the_server_stops_gets_503_in_the_error_shape() -> None:
    """uvicorn waits `timeout_graceful_shutdown` seconds for running requests, then cancels them:
    a cancelled request was answered with a plain-text 500 'Internal Server Error' (and the log
    showed a traceback, as for a bug). Now it is a 503 saying the server stopped; a real uvicorn
    server on a free loopback port, stopped in bounded time, once the request's lookup runs
    (held until the answer came)."""
    table = _HeldTable()
    answers = _stopped_while_busy(Engine({"slow": table}, ParaEval(), {}), 1, ready=lambda: table.lookups == 1,
                                  stopped=table.release.set)
    assert [(status, kind) for status, kind, _ in answers] == [(503, "application/json")], answers
    assert json.loads(answers[0][2]) == {
        "error": "the server stopped before this request was answered: send it again once the server is back",
        "detail": []}


def test_requests_answered_503_when_the_server_stops_do_no_work_after_it() -> None:
    """The engine does one request at a time (its lock); when the server stopped, the requests
    still waiting for the lock were answered 503, yet each then took the lock and did all its
    work for nobody: the process ran on for the work of every one (30 waiting requests of a
    second each, after Ctrl-C: `paralign serve` exited after 27 s, not 6). Now a request
    answered 503 does no work: only the one running when the server stopped looked the phrase
    up. The server is stopped once one request's lookup runs (held until every answer came) and
    the seven others wait for the engine's lock."""
    import time

    table = _HeldTable()
    engine = Engine({"slow": table}, ParaEval(), {})
    answers = _stopped_while_busy(engine, 8, ready=lambda: table.lookups == 1 and engine._lock.waiting == 7,
                                  stopped=table.release.set)
    deadline = time.monotonic() + 5  # time for the work of every request, had they all done it
    while engine._lock.waiting and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    statuses = [status for status, _, _ in answers]
    assert statuses == [503] * 8, statuses
    assert engine._lock.waiting == 0 and table.lookups == 1, (engine._lock.waiting, table.lookups)


def test_info_answers_while_every_worker_thread_waits_for_the_engine() -> None:
    """The routes run in a pool of 40 threads, and each request waiting for the engine's lock
    holds one: with 100 requests of a second queued, ``GET /api/info`` (a health check) waited
    5.8 s for a free thread, though it needs no lock, and so did the home page and the API docs.
    They now run on the event loop: answered at once while 45 requests wait (their lookups held
    until they have been)."""
    import threading
    import urllib.request

    release = threading.Event()

    class HeldTable(ParaphraseTable):
        def paraphrases(self, phrase: str):  # type: ignore[override]
            release.wait(30)
            return super().paraphrases(phrase)

    infos: list[int] = []

    def ask_info(port: int) -> None:
        try:
            for path in ("api/info", "", "docs"):  # the health check, the home page and the API docs
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=3) as answer:
                    infos.append(answer.status)
        finally:
            release.set()

    answers = _stopped_while_busy(Engine({"held": HeldTable("held")}, ParaEval(), {}), 45, 1.0, ask_info)
    assert infos == [200, 200, 200]
    assert len(answers) == 45


@pytest.mark.parametrize(("page", "body"), [
    ("/align", {"source": "The cat sat.", "target": "A cat sat."}),
    ("/similarity", {"source": "The cat sat.", "target": "A cat sat."}),
    ("/paraeval", {"hypothesis": "the cat sat", "references": ["a cat sat"]}),
    ("/lattice", {"sentences": ["the cat sat", "a cat sat"]}),
    ("/paraphrases", {"phrase": "cat"}),
    ("/similarity/batch", {"pairs": "The cat sat.\tA cat sat.\n"}),
])
def test_json_posted_to_a_page_is_sent_on_to_its_api_route(client, page, body) -> None:
    """``fetch("/align", {method: "POST", body: JSON})`` (the page's address, where the API's is
    /api/align) answered 405 "use GET or HEAD", and /similarity/batch an HTML page refusing the
    content type: the JSON is sent on to the API route with 308, which keeps the method and body
    (fetch and ``curl -L`` follow it), and the answer is the API's."""
    moved = client.post(page, json=body, follow_redirects=False)
    assert moved.status_code == 308 and moved.headers["location"] == f"/api{page}"
    assert moved.json()["error"].startswith(f"POST {page} is a page: the JSON API answers at POST /api{page}")
    answer = client.post(page, json=body)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    assert answer.json() == client.post(f"/api{page}", json=body).json()
    assert client.post(f"{page}?x=1", json=body, follow_redirects=False).headers["location"] == f"/api{page}?x=1"


def test_a_form_posted_to_a_page_gets_that_page_s_answer(client) -> None:
    """A form posted to /align (``<form method="post" action="/align">``: the page's own form
    sends GET) answered 405 in JSON: it is answered 303 to the page with the form's fields as its
    query, so the browser shows the page's answer at an address that can be kept. Another body is
    415, saying what the address takes."""
    form = {"source": "The cat sat.", "target": "A cat sat.", "preset": "paper"}
    moved = client.post("/align", data=form, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == "/align?source=The+cat+sat.&target=A+cat+sat.&preset=paper"
    page = client.post("/align", data=form, headers={"accept": "text/html"})
    assert page.status_code == 200 and 'id="pharaoh"' in page.text and str(page.url).endswith("preset=paper")
    plain = client.post("/align", content=b"The cat sat.", headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    assert plain.json()["error"] == ("POST /align takes JSON (sent on to POST /api/align) or a form "
                                     "(application/x-www-form-urlencoded, answered as GET /align), not text/plain")
    assert client.post("/", json={}).status_code == 405 and client.post("/docs", data=form).status_code == 405
    assert "is sent on to its API route (<code>POST /api/align</code>) with 308" in client.get("/docs").text


def test_a_wrong_method_on_a_page_names_every_method_its_address_takes(client) -> None:
    """With a page's GET route and its POST route two routes, a PUT /align was answered with the
    methods of the first alone ("use POST", Allow: POST): the Allow header and the message name
    every method of every route at that address."""
    wrong = client.put("/align")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, HEAD, POST"
    assert wrong.json()["error"] == "PUT /align is not allowed: use GET, HEAD or POST"  # it said GET or HEAD or POST
    assert client.delete("/").headers["allow"] == "GET, HEAD"
    assert client.get("/api/align").headers["allow"] == "POST"
    assert client.post("/api/info").headers["allow"] == "GET, HEAD"  # HEAD too: the health check's
