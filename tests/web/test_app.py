"""The app around the routes: the body limit, the error answers, the docs page switched to ours."""

from __future__ import annotations

import asyncio

from paralign.metrics.paraeval import ParaEval
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
        assert refused.json() == {"error": "no paraphrase source named ''; loaded: none (start the server "
                                           "with --table)", "detail": []}
        assert client.post("/api/paraphrases", json={"phrase": "c" * 150}).status_code == 413
        assert client.get("/redoc").status_code == 404
        assert "enum" not in client.get("/openapi.json").json()["components"]["schemas"][
            "ParaphrasesRequest"]["properties"]["table"]
