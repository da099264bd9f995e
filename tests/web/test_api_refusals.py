"""The JSON API's refusals: each names the field and the rule, in one shape, before any work."""

from __future__ import annotations

import html
import json

import pytest

PAIR = {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat."}


@pytest.mark.parametrize(("body", "field", "words"), [
    ({**PAIR, "source": "x" * 501}, "source", "at most 500 characters"),
    ({**PAIR, "target": "   "}, "target", "must contain a word"),
    ({**PAIR, "target": "a\x00b"}, "target", "U+0000"),
    ({**PAIR, "colour": "red"}, "colour", "is not a field of this request: it takes source, target, aligner, "
     "preset, picture"),
    ({"source": "a"}, "target", "is required: a text of 1 to 500 characters"),
    ({**PAIR, "picture": "yes"}, "picture", "must be true or false, not a string"),  # was coerced to true
    ({**PAIR, "picture": 1}, "picture", "must be true or false, not a number"),
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
    assert answer.json()["detail"] == [{"field": "limit", "message": f"must be a whole number from 1 to 500, not a {kind}"}]
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
    assert page.status_code == 422 and "first sentence: has 201 tokens" in page.text and "second sentence: has 201 tokens" in page.text


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


@pytest.mark.parametrize(("route", "body", "field", "message"), [
    ("/api/align", {"target": "a"}, "source", "is required: a text of 1 to 500 characters"),
    ("/api/align", {**PAIR, "source": None}, "source", "must be a text of 1 to 500 characters, not null"),
    ("/api/align", {**PAIR, "aligner": "giza"}, "aligner", "must be sultan, contextual or exact"),
    ("/api/similarity", {**PAIR, "preset": "fast"}, "preset", "must be default, paper, paraphrase or contextual"),
    ("/api/paraeval", {"hypothesis": "a", "references": "b"}, "references",
     "must be a list of 1 to 8 items, each a text of 1 to 500 characters, not a string"),
    ("/api/paraeval", {"hypothesis": "a", "references": ["b", 3]}, "references.1",
     "must be a text of 1 to 500 characters, not a number"),
    ("/api/lattice", {"sentences": ["a b"], "paths": 3}, "paths",
     "is not a field of this request: it takes sentences, method, picture"),
    ("/api/lattice", {"sentences": ["a b"], "method": "tree"}, "method", "must be syntax or msa"),
    ("/api/paraphrases", {"phrase": "cat", "limit": 10_000}, "limit",
     "is 10,000; it must be a whole number from 1 to 500"),
    ("/api/paraphrases", {"phrase": "cat", "table": 3}, "table",
     "must be a text of at most 200 characters (or null), not a number"),
    ("/api/similarity/batch", {"signal": "all-words"}, "pairs", "is required: a non-empty text"),
    ("/api/similarity/batch", {"pairs": "a\tb", "input_format": "xml"}, "input_format",
     "must be auto, tsv, jsonl, sts or msrp"),
])
def test_refusals_say_what_the_field_takes_in_our_words(client, route, body, field, message) -> None:
    """Pydantic's words reached clients ("Field required", "Input should be a valid string",
    "Extra inputs are not permitted"), naming neither what the field takes nor, for an unknown
    field, the fields there are. Each refusal now says it, status 422 as before."""
    answer = client.post(route, json=body)
    assert answer.status_code == 422, answer.text
    assert {"field": field, "message": message} in answer.json()["detail"], answer.json()
    assert "Input should" not in answer.text and "Field required" not in answer.text
