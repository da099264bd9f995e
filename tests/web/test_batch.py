"""The batch page and POST /api/similarity/batch: many pairs scored as `paralign similarity
--pairs` scores a file, bad lines in their place, the command's own output to download, and the
limits a user is told before sending."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import unquote

import pytest

from paralign.cli import main

XSS = "<script>alert(1)</script>"
#: A TSV with a bad line (line 3), a JSON line with an id and a hostile sentence.
PAIRS = ("The cat sat on the mat.\tA cat was sitting on the mat.\n"
         "Prices rose sharply.\tThe dog barked.\n"
         "only one sentence here\n"
         '{"id": "x1", "source": "' + XSS + '", "target": "an alert"}\n'
         "It rained all day.\tIt was raining the whole day.\n")


@pytest.fixture(scope="module")
def small(engine):
    """A client of an app taking at most 6 rows a batch."""
    from fastapi.testclient import TestClient

    from paralign.web import create_app

    with TestClient(create_app(engine=engine, max_pairs=6)) as test_client:
        yield test_client


def _cli(tmp_path, capsys, text: str, *options: str) -> tuple[dict, str]:
    """`paralign similarity --pairs FILE` of `text`: its JSON record and its text output."""
    path = tmp_path / "pairs.tsv"
    path.write_text(text, encoding="utf-8")
    out = {}
    for fmt in ("json", "text"):
        target = tmp_path / f"out.{fmt}"
        main(["similarity", "--pairs", str(path), *options, "--format", fmt, "-o", str(target)])
        out[fmt] = target.read_text(encoding="utf-8")
    capsys.readouterr()
    return json.loads(out["json"]), out["text"]


def test_every_row_is_scored_and_a_bad_line_keeps_its_place(client) -> None:
    answer = client.post("/api/similarity/batch", json={"pairs": PAIRS})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["pairs"] == 5 and data["skipped"] == 1
    rows = data["rows"]
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5]
    assert rows[2] == {"line": 3, "id": None, "source": None, "target": None, "score": None,
                       "error": "1 field, expected 2 TAB-separated sentences (first, second) or 3 fields (id, first, second)"}
    assert rows[0]["score"] > rows[1]["score"] and rows[3]["id"] == "x1" and rows[3]["source"] == XSS
    assert data["report"]["skipped_rows"] == [{"line": 3, "reason": rows[2]["error"]}]
    assert data["text"].splitlines()[2] == "NA" and data["signature"].startswith("signal:sultan2014|")


@pytest.mark.parametrize("options", [{}, {"signal": "all-words", "aligner": "sultan", "preset": "paraphrase"},
                                     {"signal": "sultan2015", "aligner": "exact"}])
def test_the_answer_is_what_paralign_similarity_writes_for_the_same_input(client, tmp_path, capsys,
                                                                          options) -> None:
    """The same scores, failures, skipped rows, notes, ids and signature as the command's JSON,
    and its text output, for the same input, signal, aligner and preset; a repeated id is
    noted naming the input as the command names it (the chosen file's name)."""
    text = PAIRS + '{"id": "x1", "source": "A man eats.", "target": "A man is eating."}\n'
    flags = [part for key, value in options.items() for part in (f"--{key}", value)]
    record, written = _cli(tmp_path, capsys, text, *flags)
    answer = client.post("/api/similarity/batch", json={"pairs": text, "name": str(tmp_path / "pairs.tsv"),
                                                         **options}).json()
    assert answer["report"] == record and answer["text"] == written
    assert record["notes"] and record["ids"][-1] == "x1"  # the repeated id's note, named alike


def test_a_csv_table_and_jsonl_are_read_as_the_command_reads_them(client, tmp_path, capsys) -> None:
    for text in ("sentence1,sentence2\nA man eats.,A man is eating.\n\"A, b.\",A b.\n",
                 '{"sentence1": "A man eats.", "sentence2": "A man eats food."}\n\n{"source": 3}\n'):
        record, written = _cli(tmp_path, capsys, text)
        answer = client.post("/api/similarity/batch", json={"pairs": text}).json()
        assert answer["report"] == record and answer["text"] == written


@pytest.mark.parametrize("aligner", ["exact", "sultan"])
def test_token_lists_are_signed_as_the_command_signs_them(client, tmp_path, capsys, aligner) -> None:
    """The single-pair routes take texts only; token lists come in a batch's JSONL lines, and a
    batch of them alone over the exact aligner read no spaCy model: its signature has no spacy
    part, as `paralign similarity` writes it, and one text among them signs the model again."""
    tokens = '{"source": ["The", "cat", "sat"], "target": ["a", "cat", "sat", "down"]}\n'
    for text, spacy in ((tokens, aligner != "exact"), (tokens + '{"source": "A cat.", "target": "The cat."}\n', True)):
        record, written = _cli(tmp_path, capsys, text, "--aligner", aligner)
        answer = client.post("/api/similarity/batch", json={"pairs": text, "aligner": aligner}).json()
        assert answer["report"] == record and answer["text"] == written
        assert ("|spacy:" in answer["signature"]) is spacy, answer["signature"]


def test_a_sentence_over_the_servers_limit_is_a_bad_row_not_a_refusal(client) -> None:
    long = "word " * 120
    data = client.post("/api/similarity/batch", json={"pairs": f"A cat.\tA cat.\n{long}\tA cat.\n"}).json()
    assert data["rows"][0]["score"] == 1.0 and data["rows"][1]["score"] is None
    assert "over the 500 this server scores" in data["rows"][1]["error"]


def test_limits_are_told_up_front_and_enforced(small, client) -> None:
    limits = small.get("/api/info").json()["limits"]
    assert limits["batch_pairs"] == 6 and limits["body_bytes"] == 64 * 1024
    assert client.get("/api/info").json()["limits"]["batch_pairs"] == 1000
    over = small.post("/api/similarity/batch", json={"pairs": "a b\tc d\n" * 7})
    assert over.status_code == 422 and "has 7 rows, more than the 6" in over.json()["error"]
    assert over.json()["detail"][0]["field"] == "pairs"
    big = b'{"pairs": "' + b"x" * limits["batch_body_bytes"] + b'"}'
    refused = small.post("/api/similarity/batch", content=big, headers={"content-type": "application/json"})
    assert refused.status_code == 413  # the limit as the page shows it (it said 139264 bytes)
    assert refused.json()["error"] == "the request body is over 136 KiB, the most a batch may take"
    assert "136 KiB in all" in small.get("/similarity/batch").text and "bytes in all" not in small.get("/similarity/batch").text
    other = small.post("/api/similarity", content=b"x" * (64 * 1024 + 1), headers={"content-type": "application/json"})
    assert other.status_code == 413  # only the batch routes take more


def test_a_full_batch_at_the_sentence_limit_is_not_refused_for_its_size(small) -> None:
    """As many rows as the server takes, each of two sentences of 4-byte characters (12 bytes
    each as a form encodes them) one character over the limit (reported, not scored: quick to
    answer), fit the batch body limit, far over the 64 KiB of the other routes."""
    from urllib.parse import urlencode

    sentence = "\U0001f600" * 501
    body = urlencode({"pairs": f"{sentence}\t{sentence}\n" * 6, "signal": "sultan2014"}).encode("ascii")
    assert len(body) > 64 * 1024
    answer = small.post("/similarity/batch", content=body,
                        headers={"content-type": "application/x-www-form-urlencoded", "accept": "text/html"})
    assert answer.status_code == 200, answer.text[:300]
    assert answer.text.count('<tr class="bad"') == 6 and "over the 500 this server scores" in answer.text


def test_an_unknown_or_unavailable_signal_is_refused_naming_the_field(client) -> None:
    for signal, words in (("nope", "signal: must be sultan2014, "), ("idf", "--idf-from")):
        answer = client.post("/api/similarity/batch", json={"pairs": "a\tb\n", "signal": signal})
        assert answer.status_code == 422 and words in answer.json()["error"]
        assert answer.json()["detail"][0]["field"] == "signal"


def test_the_schema_and_docs_name_every_field_and_error(client) -> None:
    schema = client.get("/openapi.json").json()
    op = schema["paths"]["/api/similarity/batch"]["post"]
    assert {"413", "422"} <= set(op["responses"])
    assert schema["components"]["schemas"]["BatchRequest"]["properties"]["signal"]["enum"] == \
        client.get("/api/info").json()["signals"]
    docs = client.get("/docs").text
    section = docs.split('id="op-post--api-similarity-batch"')[1].split("</section>")[0]
    for model in ("BatchRequest", "BatchResponse", "BatchRow"):
        for field in schema["components"]["schemas"][model]["properties"]:
            assert f"<code>{field}</code>" in section, (model, field)
    assert "error answers: 403, 413, 422, 500, 503" in section
    assert "answered between two of its blocks" in docs


def _post_page(client, **fields):
    return client.post("/similarity/batch", data=fields, headers={"accept": "text/html"})


def test_the_page_shows_a_row_per_line_the_bad_line_and_escapes_every_text(client, tmp_path, capsys) -> None:
    page = _post_page(client, pairs=PAIRS)
    assert page.status_code == 200
    text = page.text
    assert XSS not in text and html.escape(XSS) in text
    rows = re.findall(r'<tr class="(scored|bad)" data-line="(\d+)">', text)
    assert rows == [("scored", "1"), ("scored", "2"), ("bad", "3"), ("scored", "4"), ("scored", "5")]
    assert '<li data-line="3">line 3: 1 field, expected 2 TAB-separated sentences (first, second) or 3 fields (id, first, second)</li>' in text
    assert text.count('dir="auto"') >= 2 * 5 + 1
    record, written = _cli(tmp_path, capsys, PAIRS)
    downloads = {name: unquote(html.unescape(data)) for name, data in
                 re.findall(r'id="download-(json|tsv)" download="[^"]+" href="data:[^,]+,([^"]*)"', text)}
    assert json.loads(downloads["json"]) == record and downloads["tsv"] == written
    assert downloads["json"] == (tmp_path / "out.json").read_text(encoding="utf-8")  # byte for byte


def test_the_page_shows_a_command_the_command_line_takes(client, capsys) -> None:
    """The page shows the command that gives its answer: with the exact aligner it was
    `--aligner exact --preset default` (its form sends the preset with every aligner), which the
    command line refuses (a preset with the exact aligner); no --preset now. A preset the
    aligner has not is refused on the page too, naming the aligner and the preset as the menus do."""
    page = _post_page(client, pairs="A cat.\tA cat.\n", aligner="exact", preset="default", signal="sultan2015")
    command = html.unescape(re.search(r"the scores of <code>([^<]*)</code>", page.text).group(1))
    assert page.status_code == 200 and command.endswith("--aligner exact") and "--preset" not in command
    refused = _post_page(client, pairs="A cat.\tA cat.\n", aligner="exact", preset="paper", signal="sultan2015")
    assert refused.status_code == 422 and "preset: the exact aligner takes the preset default only, not paper" in (
        html.unescape(refused.text))


def test_an_empty_box_is_said_to_be_empty_as_the_other_pages_say_it(client) -> None:
    """Score pressed with an empty box was refused with "pairs: Field required", as if the page
    had left the field out (the align page says "source: is empty" of its empty box)."""
    empty = _post_page(client, pairs="", signal="all-words")
    assert empty.status_code == 422 and "sentence pairs: is empty" in empty.text and "Field required" not in empty.text
    left_out = _post_page(client, signal="all-words")  # not the page's form: the field is missing
    assert left_out.status_code == 422 and "sentence pairs: is required: a non-empty text" in left_out.text


def test_the_page_states_its_limits_and_refuses_what_it_cannot_read(small) -> None:
    form = small.get("/similarity/batch").text
    assert "At most 6 rows a request" in form and "answered between two of its blocks" in form
    assert '<script src="/static/batch.js"' in form and small.get("/static/batch.js").status_code == 200
    over = _post_page(small, pairs="a\tb\n" * 7)
    assert over.status_code == 422 and "has 7 rows, more than the 6" in over.text and 'id="pairs"' in over.text
    multipart = small.post("/similarity/batch", files={"pairs": ("p.tsv", b"a\tb\n")}, headers={"accept": "text/html"})
    assert multipart.status_code == 422 and "x-www-form-urlencoded" in multipart.text
    big = small.post("/similarity/batch", content=b"pairs=" + b"x" * 200_000,
                     headers={"content-type": "application/x-www-form-urlencoded", "accept": "text/html"})
    assert big.status_code == 413 and "<nav" in big.text  # the error page, not JSON


@pytest.mark.parametrize(("fields", "said"), [
    ({"pairs": "a\tb\n" * 7}, "sentence pairs: the pasted text has 7 rows, more than the 6"),  # the engine's refusal
    ({"pairs": "a\tb\n", "input_format": "xml"}, "input format: must be auto, tsv, jsonl, sts or msrp"),
    ({"pairs": "a\tb\n", "name": "n" * 201 + ".tsv"},
     "the chosen file&#39;s name: has 205 characters; it may have at most 200 characters"),
])
def test_the_batch_page_names_a_refused_field_as_its_labels_do(small, fields, said) -> None:
    """The batch page said the API's names of its fields: "pairs" for the box labelled "sentence
    pairs", "input_format" for the menu labelled "input format", and "name" for the chosen
    file's name, a hidden field no user sees. It names them as its labels do; the API keeps its
    names."""
    page = _post_page(small, signal="all-words", **fields)
    assert page.status_code == 422 and said in page.text, page.text[-2000:]
    api = small.post("/api/similarity/batch", json={"signal": "all-words", **fields})
    assert api.status_code == 422 and api.json()["detail"][0]["field"] in {"pairs", "input_format", "name"}


def test_a_batch_given_up_by_a_stopping_server_does_no_more_blocks(engine, monkeypatch) -> None:
    """A batch runs for all its rows (~10 s for a thousand pairs): once the server stops and
    answers it 503, it stops between blocks instead of scoring the rest for nobody."""
    import threading

    from paralign.similarity.rows import ScoredRows
    from paralign.web.engine import ABANDONED, BATCH_BLOCK, Abandoned

    given_up, blocks = threading.Event(), []

    def add(self, block, *args, **kwargs):
        blocks.append(len(block))
        given_up.set()  # the server stops while the first block is scored
        return [None] * len(block)

    monkeypatch.setattr(ScoredRows, "add", add)
    token = ABANDONED.set(given_up)
    try:
        with pytest.raises(Abandoned):
            engine.similarity_batch("a b\tc d\n" * (BATCH_BLOCK * 3))
    finally:
        ABANDONED.reset(token)
    assert blocks == [BATCH_BLOCK]
    assert len(engine.similarity_batch("a b\tc d\n" * (BATCH_BLOCK + 1)).rows) == BATCH_BLOCK + 1  # not given up
    assert blocks == [BATCH_BLOCK, BATCH_BLOCK, 1]


def test_a_request_sent_while_a_batch_runs_is_answered_between_its_blocks(engine, client, tmp_path, capsys,
                                                                          monkeypatch) -> None:
    """A batch held the engine's one lock for all its rows (~10 s for a thousand pairs), and a
    single pair sent meanwhile waited for the whole batch. The batch now takes the lock block by
    block, and waiting requests take it in turn: an align request sent during the first block
    is answered before the second block begins; and the batch's answer is still the command's.
    (Blocks of 2 rows; the request is sent from the first block and seen waiting for the lock
    before that block ends; every wait bounded.)"""
    import threading
    import time

    from paralign.similarity.rows import ScoredRows
    from paralign.web import engine as engine_module

    monkeypatch.setattr(engine_module, "BATCH_BLOCK", 2)
    real_add, answered, seen = ScoredRows.add, threading.Event(), []

    def align() -> None:
        if client.post("/api/align", json={"source": "A cat sat.", "target": "A cat sat down."}).status_code == 200:
            answered.set()

    asker = threading.Thread(target=align, daemon=True)

    def add(self, block, *args, **kwargs):
        if not seen:  # the first block: a request comes, and waits for the engine
            asker.start()
            deadline = time.monotonic() + 5
            while getattr(engine._lock, "waiting", 0) < 1 and time.monotonic() < deadline:
                time.sleep(0.005)
        elif len(seen) == 1:  # the second block: the request, answered once the first block let the lock go
            answered.wait(5)
        seen.append(answered.is_set())
        return real_add(self, block, *args, **kwargs)

    monkeypatch.setattr(ScoredRows, "add", add)
    text = PAIRS + "A man eats.\tA man is eating.\n"
    answer = client.post("/api/similarity/batch", json={"pairs": text, "name": str(tmp_path / "pairs.tsv")}).json()
    asker.join(30)
    assert seen == [False, True, True], seen  # answered between the first block and the second
    monkeypatch.setattr(ScoredRows, "add", real_add)
    record, written = _cli(tmp_path, capsys, text)
    assert answer["report"] == record and answer["text"] == written


def test_the_docs_example_of_a_batch_runs_as_shown(client) -> None:
    """The docs page's curl example posts three lines, one of them bad: as a shell would pass it."""
    import shlex

    docs = html.unescape(client.get("/docs").text)
    section = docs.split('id="op-post--api-similarity-batch"')[1].split("</section>")[0]
    words = shlex.split(re.search(r"<code>(curl [^<]*)</code>", section).group(1))
    answer = client.post("/api/similarity/batch", json=json.loads(words[-1])).json()
    assert [row["error"] is None for row in answer["rows"]] == [True, False, True] and answer["rows"][2]["id"] == "p3"


@pytest.mark.parametrize("text", ["a\x00b\tc d\nThe cat sat.\tA cat sat.\n\x00\x00\n",
                                  '{"source": "a\\u0000b", "target": "c"}\n{"source": "x\x00", "target": "y"}\n'])
def test_a_line_holding_a_nul_is_reported_as_the_command_reports_it(client, tmp_path, capsys, text) -> None:
    """The command reads a line holding a NUL as binary data, not text, and reports it in its
    place; the batch scored ``a<NUL>b`` as a sentence (0.0), shown ``a?b`` (a file chosen on
    the page is read into the box as it is: a NUL is UTF-8)."""
    record, written = _cli(tmp_path, capsys, text)
    answer = client.post("/api/similarity/batch", json={"pairs": text, "name": str(tmp_path / "pairs.tsv")}).json()
    assert answer["report"] == record and answer["text"] == written
    assert "a NUL byte (0x00 at column " in json.dumps(record["skipped_rows"])


#: First fields that count up (read as ids) and whole numbers within 0-5 that do not (read as STS
#: gold scores): both only a guess, which the command notes (sentence_pairs.layout_note).
COUNTING = "1\tA cat sat.\tA cat was sitting.\n2\tThe dog ran.\tA dog was running.\n"
SCORED = "3\tA cat sat.\tA cat was sitting.\n1\tThe dog ran.\tA dog was running.\n"


@pytest.mark.parametrize(("text", "guess", "other"), [(COUNTING, "read as the pairs' ids", "sts"),
                                                      (SCORED, "read as SemEval STS gold scores", "tsv")])
def test_a_guessed_layout_is_noted_and_input_format_reads_it_the_other_way(client, tmp_path, capsys, text, guess,
                                                                           other) -> None:
    """The batch read an input with the command's reader but dropped its note on a layout it
    could only guess (ids or gold scores), and had no --input-format: the answer's notes (and
    its report's) now say what the command says, and input_format reads the input as the
    command's --input-format does, with no note."""
    name = str(tmp_path / "pairs.tsv")
    for fmt in ("auto", other):
        record, written = _cli(tmp_path, capsys, text, "--input-format", fmt)
        answer = client.post("/api/similarity/batch", json={"pairs": text, "name": name, "input_format": fmt})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["report"] == record and data["text"] == written and data["notes"] == record["notes"]
        if fmt == "auto":
            assert len(data["notes"]) == 1 and data["notes"][0].startswith(f"{name}: the first fields")
            assert guess in data["notes"][0] and f"give --input-format {other}" in data["notes"][0]
        else:
            assert data["notes"] == [] and ("ids" in record) == (other == "tsv")
    refused = client.post("/api/similarity/batch", json={"pairs": text, "input_format": "csv"})
    assert refused.status_code == 422 and refused.json()["detail"][0]["field"] == "input_format"


def test_the_schema_offers_the_commands_input_formats(client) -> None:
    from paralign.corpora.sentence_pairs import INPUT_FORMATS

    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert schema["BatchRequest"]["properties"]["input_format"]["enum"] == list(INPUT_FORMATS)
    assert "notes" in schema["BatchResponse"]["properties"]


def test_the_page_shows_the_note_and_offers_the_input_format(client) -> None:
    """The batch page neither showed the command's note on a guessed layout nor offered its
    --input-format: the note is shown (naming the pasted input), the choice is a select of the
    command's names, kept once chosen, and the command shown gives it."""
    form = client.get("/similarity/batch").text
    options = re.search(r'<select id="input_format" name="input_format"[^>]*>(.*?)</select>', form).group(1)
    assert re.findall(r"<option>(\w+)</option>", options) == ["auto", "tsv", "jsonl", "sts", "msrp"]
    page = _post_page(client, pairs=COUNTING)
    assert "pasted: the first fields (1, 2) count up as ids do" in html.unescape(page.text)
    chosen = _post_page(client, pairs=COUNTING, input_format="sts")
    text = html.unescape(chosen.text)
    assert chosen.status_code == 200 and "count up as ids do" not in text
    assert "<option selected>sts</option>" in text
    assert re.search(r"the scores of <code>paralign similarity --pairs FILE --input-format sts ", text)


def test_the_batch_page_names_a_pairs_sides_first_and_second_as_its_messages_do(client) -> None:
    """The table's heads said source and target while the page's reasons (and the similarity
    commands) say first and second sentence, and a sentence over the limit was "the source
    sentence": one vocabulary on the page, the similarity commands' (align keeps source/target)."""
    long = "word " * 120
    text = _post_page(client, pairs=f"A cat.\tA cat.\nonly one\nA cat.\t{long}\n").text
    heads = re.findall(r"<th>([^<]*)</th>", text[text.index('id="batch-rows"'):])
    assert heads == ["line", "id", "first sentence", "second sentence", "score"]
    assert "line 2: 1 field, expected 2 TAB-separated sentences (first, second)" in text
    assert "line 3: the second sentence has 599 characters, over the 500 this server scores" in text
    assert "source" not in re.sub(r"<[^>]+>", "", text[text.index('id="answer"'):])
