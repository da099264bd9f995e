"""The JSON API: each route's answer, its limits and refusals, and a schema-driven fuzz (no 5xx)."""

from __future__ import annotations

import html
import json

import pytest

PAIR = {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat."}


def test_align_gives_tokens_links_with_words_and_an_svg_grid(client) -> None:
    import xml.etree.ElementTree as ET

    answer = client.post("/api/align", json={**PAIR, "picture": True})
    assert answer.status_code == 200
    data = answer.json()
    assert data["source_tokens"] == ["The", "cat", "sat", "on", "the", "mat", "."]
    links = {(link["i"], link["j"]): (link["source"], link["target"]) for link in data["links"]}
    assert links[(1, 1)] == ("cat", "cat") and links[(5, 6)] == ("mat", "mat")
    assert data["pharaoh"].split() == [f"{i}-{j}" for i, j in sorted(links)]
    svg = ET.fromstring(data["svg"])
    cells = [g for g in svg.iter("{http://www.w3.org/2000/svg}g") if "link" in g.get("class", "").split()]
    assert {(int(g.get("data-i")), int(g.get("data-j"))) for g in cells} == set(links)
    assert client.post("/api/align", json=PAIR).json()["svg"] is None


def test_presets_and_the_exact_aligner(client) -> None:
    exact = client.post("/api/align", json={**PAIR, "aligner": "exact"}).json()
    assert exact["aligner"] == "exact"
    assert all(link["source"].lower() == link["target"].lower() for link in exact["links"])
    paper = client.post("/api/align", json={**PAIR, "preset": "paper"}).json()
    assert paper["aligner"] == "sultan:paper"
    assert exact["signature"].startswith("aligner:exact|spacy:")
    assert paper["signature"].startswith("aligner:sultan:paper|sim:ppdb-1.0-xxxl-lexical|spacy:")
    refused = client.post("/api/align", json={**PAIR, "preset": "nope"})
    assert refused.status_code == 422 and refused.json()["detail"][0]["field"] == "preset"


def test_the_contextual_aligner_is_named_as_the_library_names_it(client, engine) -> None:
    """The aligner "contextual" is the sultan aligner's contextual preset: the library and the CLI
    name it sultan:contextual (aligner_label; `similarity --aligner contextual --format json`), as
    the API does for the preset. The API named it "contextual" in /api/align's and
    /api/similarity's "aligner" (the signature said sultan:contextual), and the pages so."""
    from paralign.aligners.registry import aligner_label, get_aligner

    if "contextual" in engine.missing_aligners:
        pytest.skip(engine.missing_aligners["contextual"])
    named = aligner_label(get_aligner("contextual"))
    assert named == "sultan:contextual"
    for body in ({**PAIR, "aligner": "contextual"}, {**PAIR, "preset": "contextual"}):
        for route in ("/api/align", "/api/similarity"):
            answer = client.post(route, json=body).json()
            assert answer["aligner"] == named, (route, body)
            assert f"aligner:{named}|" in answer["signature"]
    page = client.get("/align", params={**PAIR, "aligner": "contextual"}).text
    assert f"aligner {named}:" in page


def test_similarity_scores_every_signal_from_one_alignment(client) -> None:
    data = client.post("/api/similarity", json=PAIR).json()
    info = client.get("/api/info").json()
    assert set(data["scores"]) == set(info["signals"]) and "sultan2014" in data["scores"]
    assert all(0.0 <= v <= 1.0 for v in data["scores"].values() if v is not None)
    assert data["scores"]["sultan2014"] == 1.0  # every content word aligns
    signature = dict(part.split(":", 1) for part in data["signature"].split("|"))
    assert set(signature["signal"].split("+")) == set(data["scores"]) and signature["aligner"] == "sultan:default"
    different = client.post("/api/similarity", json={"source": "Prices rose.", "target": "The dog barked."})
    assert different.json()["scores"]["sultan2014"] == 0.0


def test_the_shipped_hybrid_with_another_aligner_comes_with_a_note(client) -> None:
    """The hybrid blend was fitted on sultan:default alignments: with that aligner no note, with
    the exact aligner one note naming both (the score is still given), as the CLI warns."""
    if "hybrid" not in client.get("/api/info").json()["signals"]:
        pytest.skip("the neural extra is not installed (no hybrid signal)")
    assert client.post("/api/similarity", json=PAIR).json()["notes"] == []
    exact = client.post("/api/similarity", json={**PAIR, "aligner": "exact"}).json()
    assert exact["scores"]["hybrid"] is not None
    assert len(exact["notes"]) == 1 and "fitted on sultan:default" in exact["notes"][0]
    assert "aligned by exact" in exact["notes"][0]


def test_paraeval_paper_spans_cover_the_hypothesis_with_tiers(client) -> None:
    data = client.post("/api/paraeval", json={"hypothesis": "the cat sat on the mat", "config": "paper",
                                              "references": ["a feline sat on the mat"]}).json()
    assert data["config"] == "paper" and data["score"] is None and data["graded"] is None
    assert data["tokens"] == ["the", "cat", "sat", "on", "the", "mat"]
    spans = data["spans"]
    assert [s["start"] for s in spans] == sorted(s["start"] for s in spans)
    assert sum(s["end"] - s["start"] for s in spans) == len(data["tokens"])
    tiers = {s["text"]: s["tier"] for s in spans}
    assert tiers["cat"] == "synonym"  # from the --table file: cat -> feline
    assert tiers["mat"] == "exact"
    assert 0 < data["precision"] <= 1 and data["counts"]["hyp_words"] == 6
    assert "small.tsv" in data["signature"]


def test_paraeval_default_config_shows_its_matches_by_tier(client) -> None:
    """The default config's per-tier view: each match's words on both sides, tier, grade and
    weight; the chunks; and the statistics they add up to (the score's own)."""
    body = {"hypothesis": "the cat sat on the mat", "references": ["a dog barked", "a feline sat on the mat"]}
    data = client.post("/api/paraeval", json=body).json()
    assert data["config"] == "default" and data["signature"].startswith("nrefs:2|config:default|")
    graded = data["graded"]
    assert graded["reference"] == 1 and len(graded["reference_scores"]) == 2
    assert graded["reference_scores"][1] == data["score"] > graded["reference_scores"][0]
    assert graded["reference_tokens"] == ["a", "feline", "sat", "on", "the", "mat"]
    found = {(m["hypothesis"], m["reference"]): (m["tier"], m["grade"], m["weight"]) for m in graded["matches"]}
    assert found[("cat", "feline")] == ("paraphrase", 0.8, 0.8)  # the --table file's probability, the tier's weight
    assert found[("mat", "mat")] == ("exact", 1.0, 1.0)
    counts = data["counts"]
    for tier in ("exact", "stem", "synonym", "paraphrase"):
        hyp = sum(m["grade"] * (m["hyp_end"] - m["hyp_start"]) for m in graded["matches"] if m["tier"] == tier)
        assert hyp == pytest.approx(counts[f"{tier}_hc"] + counts[f"{tier}_hf"]), tier
    assert [c["text"] for c in graded["chunks"]] == ["the", "cat sat on", "mat"]  # 'the' took the reference's 'the'
    assert len(graded["chunks"]) == counts["chunks"]
    assert sum(c["end"] - c["start"] for c in graded["chunks"]) == counts["matches"]
    assert graded["penalty"] == pytest.approx(0.6 * (counts["chunks"] / counts["matches"]) ** 0.2)
    assert data["score"] == pytest.approx(graded["fmean"] * (1 - graded["penalty"]))
    assert [(s["text"], s["tier"]) for s in data["spans"]] == [
        ("the", "exact"), ("cat", "paraphrase"), ("sat", "exact"), ("on", "exact"), ("the", "unmatched"), ("mat", "exact")]


def test_paraeval_config_is_checked(client, engine, monkeypatch) -> None:
    body = {"hypothesis": "the cat", "references": ["a cat"]}
    refused = client.post("/api/paraeval", json={**body, "config": "meteor"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == [{"field": "config",
                                         "message": "Input should be 'default', 'contextual' or 'paper'"}]
    assert client.post("/api/paraeval", json={**body, "config": ["paper"]}).status_code == 422
    assert client.get("/api/info").json()["paraeval_configs"] == engine.paraeval_configs
    assert engine.paraeval_configs[0] == "default" and "paper" in engine.paraeval_configs
    # a server without the neural extra does not offer contextual, and says why when asked
    monkeypatch.setitem(engine.missing, "contextual", "ParaEval's contextual config needs the optional extra 'neural'")
    monkeypatch.delitem(engine.graded, "contextual", raising=False)
    assert "contextual" not in client.get("/api/info").json()["paraeval_configs"]
    answer = client.post("/api/paraeval", json={**body, "config": "contextual"})
    assert answer.status_code == 422 and "optional extra 'neural'" in answer.json()["error"]


def test_lattice_of_two_sentences(client) -> None:
    data = client.post("/api/lattice", json={"sentences": ["the cat sat on the mat", "a cat sat on the rug"],
                                             "picture": True}).json()
    assert data["paths"] == "4" and len(data["some_paths"]) == 4
    assert "the cat sat on the mat" in data["some_paths"] and "a cat sat on the rug" in data["some_paths"]
    assert {e["word"] for e in data["edges"]} >= {"cat", "mat", "rug"}
    assert data["svg"].startswith("<svg")


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


@pytest.mark.parametrize(("body", "field", "words"), [
    ({**PAIR, "source": "x" * 501}, "source", "at most 500 characters"),
    ({**PAIR, "target": "   "}, "target", "must contain a word"),
    ({**PAIR, "target": "a\x00b"}, "target", "U+0000"),
    ({**PAIR, "colour": "red"}, "colour", "Extra inputs are not permitted"),
    ({"source": "a"}, "target", "Field required"),
    ({**PAIR, "picture": "yes"}, "picture", "valid boolean"),  # was coerced to true
    ({**PAIR, "picture": 1}, "picture", "valid boolean"),
])
def test_refusals_name_the_field_and_the_rule(client, body, field, words) -> None:
    answer = client.post("/api/align", json=body)
    assert answer.status_code == 422
    data = answer.json()
    assert any(d["field"] == field and words in d["message"] for d in data["detail"]), data
    assert words in data["error"]


@pytest.mark.parametrize(("limit", "kind"), [(True, "boolean"), ("5", "string")])
def test_a_number_of_the_wrong_type_is_refused_not_coerced(client, limit, kind) -> None:
    answer = client.post("/api/paraphrases", json={"phrase": "cat", "table": "small.tsv", "limit": limit})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"] == [{"field": "limit", "message": f"Input should be a valid integer, not a {kind}"}]
    # a whole number written 1.0 is an integer to JSON Schema (and so to the schema fuzzer)
    assert client.post("/api/paraphrases", json={"phrase": "cat", "table": "small.tsv", "limit": 1.0}).json()[
        "paraphrases"] == [{"paraphrase": "feline", "score": 0.8, "columns": {}}]


def test_lone_surrogates_bad_json_and_too_many_items_are_refused(client) -> None:
    surrogate = b'{"source": "a", "target": "\\ud800"}'
    assert client.post("/api/align", content=surrogate, headers={"content-type": "application/json"}).status_code == 422
    assert client.post("/api/align", content=b"{not json", headers={"content-type": "application/json"}).status_code == 422
    refs = {"hypothesis": "a b", "references": ["a"] * 9}
    answer = client.post("/api/paraeval", json=refs)
    assert answer.status_code == 422 and "references: has 9 items; it may have at most 8" in answer.json()["error"]
    answer = client.post("/api/lattice", json={"sentences": ["a b"] * 11})
    assert answer.status_code == 422 and "at most 10" in answer.json()["error"]


def test_a_list_of_too_many_or_no_items_is_said_in_plain_words(client) -> None:
    """Pydantic's own words were given: 'List should have at most 10 items after validation,
    not 11' (what validation? after what?)."""
    answer = client.post("/api/lattice", json={"sentences": ["a b"] * 11})
    assert answer.json()["detail"] == [{"field": "sentences", "message": "has 11 items; it may have at most 10"}]
    answer = client.post("/api/paraeval", json={"hypothesis": "a b", "references": []})
    assert answer.json()["detail"] == [{"field": "references", "message": "is empty; it must have at least 1 item"}]


@pytest.mark.parametrize(("route", "body", "message"), [
    ("/api/align", b'{"source": "a", "target": "b\\ud800c"}',
     "target: contains a lone surrogate, '\\ud800' at character 2 (half a UTF-16 pair, no character), which cannot "
     "be shown (control characters and lone surrogates are refused)"),
    ("/api/paraeval", b'{"hypothesis": "a", "references": ["b", "\\udc00"]}',
     "references.1: contains a lone surrogate, '\\udc00' at character 1"),
    ("/api/paraphrases", b'{"phrase": "cat", "table": "\\udfff"}', "table: contains a lone surrogate, '\\udfff'"),
    ("/api/align", b'{"sou\\ud800rce": "a", "target": "b"}', "body: a field name contains a lone surrogate, '\\ud800' at"),
])
def test_a_lone_surrogate_is_named_as_the_other_refused_characters_are(client, route, body, message) -> None:
    """Half a UTF-16 pair escaped in a JSON string (\\ud800) was refused as 'Input should be a
    valid string, unable to parse raw data as a unicode string' (pydantic's words for JSON that
    parsed): now it is named with its place, as a control character is and as the CLI names one."""
    answer = client.post(route, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422 and answer.json()["error"].startswith(message), answer.json()
    assert answer.json()["detail"][0]["message"] in answer.json()["error"]


@pytest.mark.parametrize(("body", "headers", "message"), [
    (b"{", {"content-type": "application/json"}, "invalid JSON at character 1: Expecting property name"),
    (b'{"source": "a", "target": "b"}', {"content-type": "text/plain"},
     "is not JSON: send a JSON object with the header content-type: application/json"),
    (b"[1]", {"content-type": "application/json"}, "must be a JSON object, not an array"),
    (b"null", {"content-type": "application/json"}, "must be a JSON object, not null"),
    (b"", {}, "is empty: send a JSON object"),
    ('{"source": "café", "target": "b"}'.encode("latin-1"), {"content-type": "application/json"},
     "is not UTF-8: the byte 0xe9 at position 15 cannot be read (invalid continuation byte)"),
    (b"[" * 5000 + b"]" * 5000, {"content-type": "application/json"}, "is JSON nested too deeply to read"),
])
def test_a_body_that_is_not_a_json_object_is_said_so(client, body, headers, message) -> None:
    """Bad JSON was '1: JSON decode error' (field "1": a character position), and JSON sent as
    text/plain was 'Input should be a valid dictionary or object to extract fields from'. A body
    in another encoding than UTF-8 (Latin-1) or nested thousands deep got FastAPI's 400 'There
    was an error parsing the body', saying neither what was wrong nor in the documented status."""
    answer = client.post("/api/align", content=body, headers=headers)
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["field"] == "body"
    assert answer.json()["error"].startswith("body: " + message), answer.text


def test_a_large_body_is_refused_before_any_work(client) -> None:
    big = json.dumps({**PAIR, "source": "x" * 70_000}).encode()
    answer = client.post("/api/align", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and answer.json()["error"] == "the request body is over 64 KiB"

    def chunks():  # no Content-Length: the bytes are counted as they arrive
        for _ in range(40):
            yield b"x" * 2048

    streamed = client.post("/api/align", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413


def test_text_comes_back_as_data_not_markup(client) -> None:
    script = "<script>alert(1)</script> & co"
    data = client.post("/api/align", json={"source": script, "target": "alert it", "picture": True}).json()
    assert "<script>" in "".join(data["source_tokens"]) or "script" in data["source_tokens"]
    assert "<script>" not in data["svg"] and "&lt;" in data["svg"]


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


@pytest.mark.parametrize("config", ["default", "paper", "contextual", None])
def test_paraeval_gives_the_segment_figures_of_the_cli(client, engine, table_path, tmp_path, config) -> None:
    """The API scores a segment as `paralign paraeval --config NAME --sentence-level` does with
    the same sources (the default config when none is named, as the command line): the same
    numbers, counts and signature. It scored with the paper config only, which the command line
    does not by default."""
    from paralign.cli import main

    if config is not None and config not in engine.paraeval_configs:
        pytest.skip(f"this server does not offer the {config} config: {engine.missing.get(config)}")
    hypothesis, references = "he bought two apples for three dollars", ["he paid 3 dollars for 2 apples",
                                                                       "he purchased two apples for 3 bucks"]
    (tmp_path / "hyp.txt").write_text(hypothesis + "\n", encoding="utf-8")
    argv = ["paraeval", "-i", str(tmp_path / "hyp.txt"), "--table", str(table_path), "--sentence-level",
            "--format", "json", "-o", str(tmp_path / "out.json")]
    for k, reference in enumerate(references):
        (tmp_path / f"ref{k}.txt").write_text(reference + "\n", encoding="utf-8")
        argv += ["-r", str(tmp_path / f"ref{k}.txt")]
    assert main(argv + (["--config", config] if config else [])) == 0
    cli = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["segments"][0]
    body = {"hypothesis": hypothesis, "references": references, **({"config": config} if config else {})}
    api = client.post("/api/paraeval", json=body).json()
    assert api["config"] == (config or "default")
    for key in ("precision", "recall", "f", "signature", "counts"):
        assert api[key] == cli[key], key
    assert api["score"] == cli.get("score")  # the paper config has no headline score but F
    if config != "paper":
        assert f"config:{config or 'default'}|" in api["signature"] and api["graded"]["matches"]
    summary = client.get("/openapi.json").json()["paths"]["/api/paraeval"]["post"]["summary"]
    assert "paralign paraeval --config NAME --sentence-level" in summary and "default config by default" in summary


def test_spaces_around_a_sentence_change_nothing_as_on_the_command_line(client, tmp_path) -> None:
    """A sentence pasted with a space before it was aligned with a whitespace token first: the
    page's grid had an empty first row and every index moved by one (Pharaoh ``1-0 2-1 ...``
    where ``paralign align`` prints ``0-0 1-1 ...`` for the same pair, as it strips each side);
    the lattice API drew whitespace edges. Now a text's surrounding spaces are dropped."""
    from paralign.cli import main

    padded = {"source": "  The cat sat on the mat. ", "target": "\tA cat was sitting on the mat.\n"}
    (tmp_path / "pair.jsonl").write_text(json.dumps(padded) + "\n", encoding="utf-8")
    assert main(["align", "--format", "json", "-o", str(tmp_path / "out.jsonl"), str(tmp_path / "pair.jsonl")]) == 0
    cli = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    api = client.post("/api/align", json=padded).json()
    assert api["source_tokens"] == cli["source"] == ["The", "cat", "sat", "on", "the", "mat", "."]
    assert api["target_tokens"] == cli["target"] and api["pharaoh"] == cli["alignment"]
    assert client.post("/api/similarity", json=padded).json()["source_tokens"] == cli["source"]
    lattice = client.post("/api/lattice", json={"sentences": ["  the cat sat ", "a cat sat\t"]}).json()
    assert {e["word"] for e in lattice["edges"]} == {"the", "a", "cat", "sat"}
    assert sorted(lattice["some_paths"]) == ["a cat sat", "the cat sat"]
    assert client.post("/api/paraphrases", json={"phrase": " cat ", "table": "small.tsv"}).json()["phrase"] == "cat"


#: Pairs whose tokens spaCy splits in ways worth checking (contractions, quotes, abbreviations,
#: times, a character reference that stands for a space).
EXACT_PAIRS = [("The cat sat on the mat.", "A cat was sitting on the mat."),
               ("Don't stop: \"it's fine\", she said.", "She said it's fine&nbsp;& don't STOP!"),
               ("U.S. officials met at 3:30 p.m. on Jan. 5th.", "Officials of the U.S. met on 5 January at 3:30.")]


def test_the_exact_aligner_reads_tokens_alone_and_answers_as_the_command_line(client, engine, tmp_path, capsys,
                                                                               monkeypatch) -> None:
    """/api/align and /api/similarity with the exact aligner ran the whole spaCy parse for each
    pair, where `paralign align --aligner exact` and `paralign similarity --aligner exact` (for a
    signal that reads tokens alone) tokenise only: now the engine does too (no parse: the
    pipeline's annotation is made to fail here), with the command line's tokens, links, scores
    and signatures. A server one of whose signals reads more than tokens (the hybrid, of the
    session's engine) still parses for /api/similarity, as the command line does for that
    signal, and gives the same scores."""
    import dataclasses

    from fastapi.testclient import TestClient

    import paralign.nlp
    from paralign.cli import main
    from paralign.web import create_app

    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"{s}\t{t}\n" for s, t in EXACT_PAIRS), encoding="utf-8")
    assert main(["align", str(path), "--aligner", "exact", "--format", "json"]) == 0
    aligned = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["similarity", "--pairs", str(path), "--aligner", "exact", "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["failures"] == [] and engine.parses("exact", scored=True)  # the hybrid reads more than tokens
    for (s, t), score in zip(EXACT_PAIRS, scored["scores"], strict=True):
        parsed = client.post("/api/similarity", json={"source": s, "target": t, "aligner": "exact"}).json()
        assert parsed["scores"]["sultan2014"] == score and parsed["aligner"] == "exact"

    def parse(*args, **kwargs):
        raise AssertionError("the pair was parsed")

    monkeypatch.setattr(paralign.nlp, "annotate_many", parse)
    tokens_only = dataclasses.replace(engine, signals={"sultan2014": engine.signals["sultan2014"]})
    with TestClient(create_app(engine=tokens_only)) as tokens_client:
        for (s, t), line, score in zip(EXACT_PAIRS, aligned, scored["scores"], strict=True):
            pair = {"source": s, "target": t, "aligner": "exact"}
            answer = client.post("/api/align", json=pair).json()
            assert [[link["i"], link["j"]] for link in answer["links"]] == line["links"]
            assert ((answer["source_tokens"], answer["target_tokens"], answer["pharaoh"], answer["signature"])
                    == (line["source"], line["target"], line["alignment"], line["signature"]))
            similar = tokens_client.post("/api/similarity", json=pair).json()
            assert similar["scores"] == {"sultan2014": score} and similar["aligner"] == scored["aligner"] == "exact"
            assert similar["signature"] == scored["signature"] and similar["source_tokens"] == line["source"]


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


def test_a_sentence_of_too_many_tokens_is_refused_before_it_is_aligned(client) -> None:
    """500 characters of punctuation or emoji are 500 tokens: aligning two of them took 20 s and
    scoring their similarity a minute, with every other request waiting on the engine's lock.
    A sentence to align may have at most `sentence_tokens` tokens (200); the field is named."""
    limit = client.get("/api/info").json()["limits"]["sentence_tokens"]
    assert limit == 200
    assert client.post("/api/align", json={"source": "(" * limit, "target": "a cat"}).status_code == 200
    for route in ("/api/align", "/api/similarity"):
        answer = client.post(route, json={"source": "a cat", "target": "a," * 250})
        assert answer.status_code == 422, route
        assert answer.json()["error"] == ("target: has 500 tokens, over the 200 a sentence may have (each mark of "
                                          "punctuation and each symbol is a token)")
        assert answer.json()["detail"] == [{"field": "target", "message": answer.json()["error"][len("target: "):]}]
    page = client.get("/similarity", params={"source": "😀" * 201, "target": "😀" * 201})
    assert page.status_code == 422 and "source: has 201 tokens" in page.text and "target: has 201 tokens" in page.text


def test_a_sentence_with_no_word_as_read_is_refused_alike_by_align_and_similarity(client) -> None:
    """A sentence of invisible characters (or an &nbsp;) passes the request's white-space check
    but has no word once read: /api/align answered it with an empty alignment (200) and
    /api/similarity with an encoder's "line 1: empty sentence: nothing to encode" (422); both now
    name the field and say why, as for a sentence of too many tokens."""
    for source in ("\u200b\u00ad", "&nbsp;"):
        for route in ("/api/align", "/api/similarity"):
            answer = client.post(route, json={"source": source, "target": "a cat"})
            assert answer.status_code == 422, (route, source)
            assert answer.json()["error"].startswith("source: has no word as read"), answer.json()
            assert [d["field"] for d in answer.json()["detail"]] == ["source"]


def test_a_field_refused_once_the_work_began_is_named_in_detail(client) -> None:
    """Every error is {error, detail: [{field, message}]}, but a field refused by the engine (a
    sentence of too many tokens or of no word, a source not loaded) came with an empty detail:
    only the message named it, so a client reading detail to mark the field found nothing."""
    answer = client.post("/api/align", json={"source": "&nbsp;", "target": "a," * 250}).json()
    assert [d["field"] for d in answer["detail"]] == ["target", "source"]
    assert answer["error"] == "; ".join(f"{d['field']}: {d['message']}" for d in answer["detail"])
    answer = client.post("/api/paraphrases", json={"phrase": "cat", "table": "nope"}).json()
    assert answer["detail"] == [{"field": "table", "message": "no paraphrase source named 'nope'; loaded: ppdb, "
                                 "wordnet, small.tsv"}]


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


def test_a_post_with_query_parameters_is_refused_not_ignored(client) -> None:
    """``POST /api/align?preset=paper`` aligned with the default preset and said nothing, while an
    unknown field of the body is refused: a query parameter is refused the same way, naming it."""
    answer = client.post("/api/align?preset=paper&aligner=exact", json={"source": "a cat", "target": "a cat"})
    assert answer.status_code == 422
    assert [d["field"] for d in answer.json()["detail"]] == ["query.aligner", "query.preset"]
    assert "JSON body" in answer.json()["error"]
    assert client.post("/api/align", json={"source": "a cat", "target": "a cat"}).status_code == 200
    assert client.get("/api/info?t=1").status_code == 200


def test_a_preset_the_aligner_has_not_is_refused_naming_both_fields(client) -> None:
    """The preset was documented as the sultan aligner's option set, "exact has none", but
    ``"aligner": "exact", "preset": "paper"`` aligned with the exact aligner and said nothing (so
    did the contextual aligner with another preset than contextual): refused now, 422 naming both
    fields, as the commands refuse --aligner exact --preset paper; "default" (the field's default,
    which the pages send with every aligner) asks for none. The schema says so."""
    info = client.get("/api/info").json()
    described = client.get("/openapi.json").json()["components"]["schemas"]["AlignRequest"]["properties"]["preset"]
    assert "refused" in described["description"]
    pair = {"source": "The cat sat.", "target": "A cat sat."}
    batch = {"pairs": "The cat sat.\tA cat sat.\n"}
    for route, body in (("/api/align", pair), ("/api/similarity", pair), ("/api/similarity/batch", batch)):
        for aligner in ("exact", "contextual"):
            for preset in ("paper", "paraphrase"):
                answer = client.post(route, json={**body, "aligner": aligner, "preset": preset})
                assert answer.status_code == 422, (route, aligner, preset)
                error = answer.json()["error"]
                assert f'"aligner": "{aligner}"' in error and f'"preset": "{preset}"' in error, error
        assert client.post(route, json={**body, "aligner": "exact", "preset": "default"}).status_code == 200
        assert client.post(route, json={**body, "preset": "paper"}).status_code == 200
    if "contextual" in info["aligners"]:
        for preset in ("contextual", "default"):  # as the command line takes --aligner contextual --preset default
            assert client.post("/api/align", json={**pair, "aligner": "contextual", "preset": preset}).status_code == 200
    rule = client.get("/openapi.json").json()["components"]["schemas"]["AlignRequest"]["allOf"]
    assert {r["if"]["properties"]["aligner"]["const"]: r["then"]["properties"]["preset"]["enum"] for r in rule} == {
        "exact": ["default"], "contextual": ["default", "contextual"]}
    page = client.get("/align", params={**pair, "aligner": "exact", "preset": "paper"})
    assert page.status_code == 422 and "preset: the exact aligner takes the preset default" in html.unescape(page.text)

