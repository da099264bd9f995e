"""The JSON API's schema and /api/info: what the server offers, documented, and a schema-driven fuzz (no 5xx)."""

from __future__ import annotations

import pytest

PAIR = {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat."}


def test_the_schema_documents_every_route_with_its_limits(client) -> None:
    schema = client.get("/openapi.json").json()
    assert {p for p in schema["paths"]} == {"/api/info", "/api/align", "/api/similarity", "/api/similarity/batch",
                                             "/api/paraeval", "/api/lattice", "/api/paraphrases"}
    source = schema["components"]["schemas"]["AlignRequest"]["properties"]["source"]
    assert source["maxLength"] == 500
    for path, methods in schema["paths"].items():
        for op in methods.values():
            assert {"403", "413", "422", "500", "503"} <= set(op["responses"]), path


def test_info_answers_head_as_a_health_check(client) -> None:
    """HEAD /api/info was 405: FastAPI's GET routes do not take HEAD, and health checks ask with it."""
    answer = client.head("/api/info")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    assert answer.content == b""
    assert "head" not in client.get("/openapi.json").json()["paths"]["/api/info"]


def test_fuzzing_the_api_against_its_schema_finds_no_server_error(engine) -> None:
    """schemathesis generates requests from the OpenAPI schema (valid and invalid ones) and checks
    each answer: no 5xx, and a status, content type and body the schema documents. Bounded: a
    few examples per operation, no deadline."""
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, given, settings

    from paralign.web import create_app

    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(engine=engine))
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 7
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=40, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def check(case) -> None:
            case.call_and_validate()

        check()


def test_info_offers_only_what_the_server_can_do_and_says_why_not(client, engine, monkeypatch) -> None:
    """/api/info listed the contextual aligner and preset even without the neural extra (the
    pages offered them too), so a client chose them and was refused: now each list holds what
    this server offers, and `unavailable` names the rest with the reason."""
    info = client.get("/api/info").json()
    assert info["unavailable"]["signals"]["idf"].startswith("the idf signal is fitted on training sentences")
    assert "idf" not in info["signals"]
    reason = "the contextual encoder needs the optional extra 'neural' (torch is not installed): pip install 'paralign[neural]'"
    monkeypatch.setitem(engine.missing_aligners, "contextual", reason)
    info = client.get("/api/info").json()
    assert info["aligners"] == ["sultan", "exact"] and info["presets"] == ["default", "paper", "paraphrase"]
    assert info["unavailable"]["aligners"] == {"contextual": reason}
    assert info["unavailable"]["presets"] == {"contextual": reason}
    for body in ({**PAIR, "aligner": "contextual"}, {**PAIR, "preset": "contextual"}):
        refused = client.post("/api/align", json=body)
        assert refused.status_code == 422 and refused.json()["error"] == reason
    page = client.get("/align").text
    assert "<option>contextual</option>" not in page and "<option>exact</option>" in page
    assert "Not offered by this server: the contextual aligner and preset (the contextual encoder needs" in page


def test_the_schema_offers_the_choices_this_server_offers(engine, monkeypatch) -> None:
    """The schema's choices of aligner, preset and ParaEval config were every name the models
    know, so a client built from the schema offered the contextual ones on a server without the
    neural extra, and they failed; they are the server's, as /api/info lists them."""
    from fastapi.testclient import TestClient

    from paralign.web import create_app

    monkeypatch.setitem(engine.missing_aligners, "contextual", "needs the optional extra 'neural'")
    monkeypatch.setitem(engine.missing, "contextual", "needs the optional extra 'neural'")
    with TestClient(create_app(engine=engine)) as client:
        schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for model in ("AlignRequest", "SimilarityRequest"):
        assert schemas[model]["properties"]["aligner"]["enum"] == ["sultan", "exact"]
        assert schemas[model]["properties"]["preset"]["enum"] == ["default", "paper", "paraphrase"]
    assert schemas["ParaEvalRequest"]["properties"]["config"]["enum"] == ["default", "paper"]
