"""The JSON API's paraphrase lookups: the sources loaded at start-up, the default one, the key looked up."""

from __future__ import annotations


def test_paraphrases_from_a_table_named_at_start_up_never_a_path(client, table_path) -> None:
    data = client.post("/api/paraphrases", json={"phrase": "Cat", "table": "small.tsv"}).json()
    assert data["paraphrases"] == [{"paraphrase": "feline", "score": 0.8, "columns": {}},
                                   {"paraphrase": "kitty", "score": 0.5, "columns": {}}]
    assert client.post("/api/paraphrases", json={"phrase": "cat", "table": "small.tsv", "limit": 1}).json()[
        "total"] == 2
    for name in (str(table_path), "/etc/passwd", "../small.tsv"):
        refused = client.post("/api/paraphrases", json={"phrase": "cat", "table": name})
        assert refused.status_code == 422 and "no paraphrase source named" in refused.json()["error"]
    assert "small.tsv" in client.get("/api/info").json()["tables"]


def test_a_lookup_naming_no_table_asks_the_table_the_server_was_started_with(client, engine) -> None:
    """`serve --table my.tsv`: /api/paraphrases without `table` asked the first source loaded
    (PPDB, loaded before the tables), not the table the user started the server with, so a phrase
    of that table gave 0 rows. The first --table is the default now; without --table, the first
    source still is (ppdb by default)."""
    from paralign.web import Engine

    data = client.post("/api/paraphrases", json={"phrase": "cat"}).json()
    assert data["table"] == "small.tsv"
    assert [p["paraphrase"] for p in data["paraphrases"]] == ["feline", "kitty"]
    assert list(engine.sources)[0] == "ppdb" and engine.default_table == "small.tsv"
    without = Engine({"wordnet": engine.sources["wordnet"], "small.tsv": engine.sources["small.tsv"]}, engine.scorer, {})
    assert without.default_table == "wordnet"  # built directly: no --table was named
    assert Engine({}, engine.scorer, {}).default_table == ""


def test_the_schema_takes_a_null_table_as_the_server_does(client) -> None:
    """The schema's `table` was the loaded names only, while the server takes null (the default
    source, as when `table` is left out): `st run --checks all` reported "Schema-violating request
    accepted" for {"phrase": "0", "table": null}, and then for "table": "" (not a name, but taken as
    null). The server was started with --table small.tsv, which is the default."""
    table = client.get("/openapi.json").json()["components"]["schemas"]["ParaphrasesRequest"]["properties"]["table"]
    options = table.get("anyOf", [table])
    assert {"type": "null"} in options
    assert next(o["enum"] for o in options if "enum" in o) == client.get("/api/info").json()["tables"]
    assert table["default"] == "small.tsv"  # what is looked up when none is named
    assert client.post("/api/paraphrases", json={"phrase": "cat", "table": None}).json()["table"] == "small.tsv"
    assert client.post("/api/paraphrases", json={"phrase": "cat", "table": "other"}).status_code == 422
    assert client.post("/api/paraphrases", json={"phrase": "cat", "table": ""}).status_code == 422  # no such name
    assert "one of: ppdb, wordnet, small.tsv or null" in client.get("/docs").text


def test_a_table_pivot_built_is_asked_for_a_phrase_as_it_split_it(built_table) -> None:
    """serve --table looked a typed phrase up as typed: Doctor's found nothing in a table that
    pivot built, which holds "doctor 's" (regex tokens, lower-cased), though `paralign paraphrases`
    found it; and ParaEval on the page never matched physician's with doctor's. The paraphrases
    route asks the table for the phrase as it split it, and ParaEval re-splits its phrases."""
    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.paraphrases import load_source
    from paralign.web import Engine, create_app

    table = load_source(str(built_table("t.parquet")))
    with TestClient(create_app(engine=Engine({"t.parquet": table}, ParaEval([table]), {}))) as client:
        data = client.post("/api/paraphrases", json={"phrase": "The  Doctor's car", "table": "t.parquet"}).json()
        assert data["paraphrases"] == [{"paraphrase": "the physician 's car", "score": 0.5, "columns": {}}]
        body = {"hypothesis": "The Physician's car is red.", "references": ["The doctor's car is red."]}
        graded = client.post("/api/paraeval", json=body).json()
        assert ("physician's", "doctor's", "paraphrase") in {
            (m["hypothesis"], m["reference"], m["tier"]) for m in graded["graded"]["matches"]}
        assert "|res:t.parquet~regex#" in graded["signature"]
        paper = client.post("/api/paraeval", json={**body, "config": "paper"}).json()
        assert paper["spans"][0]["tier"] == "paraphrase" and paper["counts"]["hyp_matched"] == 6


def test_the_paraphrases_answer_says_what_it_looked_up(client, built_table) -> None:
    """`paralign paraphrases PHRASE --table T` says the key it looked up (looked_up_as: Man's is
    man 's in a table pivot built) but /api/paraphrases did not, so a user could not tell why a
    typed phrase found rows under another spelling. The answer now carries looked_up_as, the
    CLI's key: the phrase as the source was asked for it, null when that is the phrase itself."""
    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.paraphrases import load_source
    from paralign.web import Engine, create_app

    table = load_source(str(built_table("t.parquet")))
    with TestClient(create_app(engine=Engine({"t.parquet": table}, ParaEval([table]), {}))) as built:
        data = built.post("/api/paraphrases", json={"phrase": "The  Doctor's car", "table": "t.parquet"}).json()
    assert data["phrase"] == "The  Doctor's car" and data["looked_up_as"] == "the doctor 's car"
    assert client.post("/api/paraphrases", json={"phrase": "Cat", "table": "small.tsv"}).json()[
        "looked_up_as"] == "cat"  # the loaded table is lower-cased
    assert client.post("/api/paraphrases", json={"phrase": "cat", "table": "small.tsv"}).json()[
        "looked_up_as"] is None
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ParaphrasesResponse"]
    assert "looked_up_as" in schema["properties"] and "as typed" in schema["properties"]["looked_up_as"]["description"]
