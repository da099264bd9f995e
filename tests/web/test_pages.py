"""The HTML pages, read back as a browser would: forms, answers, escaping, refusals, API docs."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from paralign.alignment import Alignment

XSS = "<script>alert(1)</script>"


def _page(report_page, answer):
    # the pages are HTML5 (void <input>, <meta>): parse them as HTML only
    class Html(report_page):
        def __init__(self, text):
            HTMLParser.__init__(self)
            self.text_parts, self.elements, self.source = [], [], text
            self.feed(text)

    return Html(answer.text)


def test_align_page_shows_the_grid_and_a_row_per_link(client, report_page) -> None:
    answer = client.get("/align?" + urlencode({"source": "The cat sat on the mat.",
                                               "target": "A cat was sitting on the mat.", "preset": "paper"}))
    assert answer.status_code == 200
    page = _page(report_page, answer)
    cells = {(c["data-i"], c["data-j"]) for c in page.find("g", class_="link")}
    rows = {(r["data-i"], r["data-j"]) for r in page.find("tr", class_="link")}
    assert cells == rows and ("1", "1") in rows
    lines = page.find("svg", id="align-lines")
    assert lines and {(x["data-i"], x["data-j"]) for x in page.find("line", class_="link")} == rows  # and lines
    chosen = [attrs for tag, attrs in page.elements if tag == "option" and "selected" in attrs]
    assert len(chosen) == 1  # the preset asked for stays selected
    assert "confidence" not in page.text  # the Sultan aligner gives no confidences
    padded = _page(report_page, client.get("/align?" + urlencode({"source": "  The cat sat on the mat. ",
                                                                   "target": "A cat was sitting on the mat.",
                                                                   "preset": "paper"})))
    assert {(r["data-i"], r["data-j"]) for r in padded.find("tr", class_="link")} == rows  # no blank first row


def test_everything_typed_is_shown_as_text(client, report_page) -> None:
    for path, query in (("/align", {"source": XSS, "target": "alert"}),
                        ("/similarity", {"source": XSS, "target": "alert"}),
                        ("/paraeval", {"hypothesis": XSS, "references": f"{XSS}\nalert"}),
                        ("/lattice", {"sentences": f"{XSS}\nan alert"}),
                        ("/paraphrases", {"phrase": XSS})):
        answer = client.get(f"{path}?{urlencode(query)}")
        assert answer.status_code == 200, path
        page = _page(report_page, answer)
        assert page.find("script") == [{"src": "/static/forms.js", "defer": None}], path  # the page's own, no other
        assert "<script>" in page.text or "script" in page.text, path
        assert XSS not in answer.text, path


def test_a_refused_input_says_why_above_the_form(client, report_page) -> None:
    answer = client.get("/align?" + urlencode({"source": "x" * 501, "target": "y"}))
    assert answer.status_code == 422
    page = _page(report_page, answer)
    assert page.find("p", class_="error", role="alert")
    assert "source: has 501 characters; it may have at most 500 characters" in page.text
    assert client.get("/paraphrases?phrase=cat&table=%2Fetc%2Fpasswd").status_code == 422
    assert client.get("/lattice?" + urlencode({"sentences": "\n".join(["a b"] * 11)})).status_code == 422
    assert client.get("/align").status_code == 200  # no question yet: the empty form


def test_a_refused_line_is_named_by_its_line_in_the_box(client, report_page) -> None:
    """A refused reference was named by its place in a list without the blank lines, from 0: a
    501-character third line after a blank one was "references.1", which is the first line."""
    answer = client.get("/paraeval?" + urlencode({"hypothesis": "a b", "references": "ok\n\n" + "x" * 501}))
    assert answer.status_code == 422
    assert "references (line 3): has 501 characters; it may have at most 500 characters" in _page(report_page, answer).text
    answer = client.get("/lattice?" + urlencode({"sentences": "a b\r\n \r\nc d\r\n\u0007"}))
    assert answer.status_code == 422
    assert "sentences (line 4): contains the character U+0007" in _page(report_page, answer).text


def test_paraeval_page_shows_the_default_configs_matches_by_tier(client, report_page) -> None:
    """The page scores with the command line's default config (it used the paper's): the
    headline score, the words highlighted by tier, a row per match, the tiers and the chunks."""
    query = {"hypothesis": "the cat sat on the mat", "references": "a feline sat on a rug"}
    answer = client.get("/paraeval?" + urlencode(query))
    api = client.post("/api/paraeval", json={"hypothesis": query["hypothesis"],
                                             "references": [query["references"]]}).json()
    page = _page(report_page, answer)
    tiers = {s["data-tier"] for s in page.find("span", class_="tier") if "data-tier" in s}
    assert {"paraphrase", "exact", "unmatched"} <= tiers
    rows = [(r["data-tier"], r["data-hyp"], r["data-ref"]) for r in page.find("tr", class_="match")]
    assert rows == [(m["tier"], f"{m['hyp_start']}-{m['hyp_end']}", f"{m['ref_start']}-{m['ref_end']}")
                    for m in api["graded"]["matches"]]
    assert ("paraphrase", "1-2", "1-2") in rows  # cat - feline
    assert [t["data-tier"] for t in page.find("tr") if "data-tier" in t and "class" not in t] == [
        "exact", "stem", "synonym", "paraphrase"]  # the default config's tiers
    assert f'<tr data-part="score"><th>score</th><td class="value">{api["score"]:.4f}</td>' in answer.text
    assert f"{len(api['graded']['chunks'])} chunks over {api['counts']['matches']} matched words" in page.text
    assert "paralign paraeval --config default --sentence-level" in page.text
    assert [o for o in page.find("option") if "selected" in o] and "stem (the same Snowball stem)" in page.text
    assert "contextual (word vectors)" not in page.text  # not a tier of the default config


def test_paraeval_page_keeps_the_paper_configs_spans(client, report_page) -> None:
    answer = client.get("/paraeval?" + urlencode({"hypothesis": "the cat sat on the mat", "config": "paper",
                                                  "references": "a feline sat on a rug"}))
    page = _page(report_page, answer)
    tiers = {s["data-tier"] for s in page.find("span", class_="tier") if "data-tier" in s}
    assert {"synonym", "exact"} <= tiers and not page.find("table", id="matches")
    # what a word matched is written out (it was only in a tooltip, which a keyboard never shows)
    assert len(page.find("ul", class_="matched")) == 1 and len(page.find("li", data_tier="synonym")) == 2
    assert "“cat” (synonym) matched “feline”" in page.text and "“mat” (synonym) matched “rug”" in page.text
    assert "paralign paraeval --config paper --sentence-level" in page.text
    assert "nrefs:1|config:paper|" in page.text
    refused = client.get("/paraeval?" + urlencode({"hypothesis": "a", "references": "b", "config": "bleu"}))
    assert refused.status_code == 422 and "config: must be default, contextual or paper" in _page(report_page, refused).text


def test_lattice_page_draws(client, report_page) -> None:
    answer = client.get("/lattice?" + urlencode({"sentences": "the cat sat\na cat sat"}))
    page = _page(report_page, answer)
    assert page.find("svg", id="lattice-drawing") and "2 paths" in page.text
    # how to read it and how many sentences use an edge are written out, not only in the
    # drawing's <desc> and its edges' tooltips (which a keyboard or a phone never shows)
    assert page.find("p", id="lattice-key") and "Read left to right" in page.text
    assert "The thicker an edge, the more of the 2 sentences" in page.text
    edges = answer.text[answer.text.index('id="edges"'):answer.text.index("</table>", answer.text.index('id="edges"'))]
    assert edges.count("<tr>") == 1 + 4 and "sentences using it" in edges  # the head and 4 edges
    assert '<td>cat</td><td class="value">2</td><td class="value">2</td>' in edges  # both sentences


def test_lattice_page_of_one_sentence_is_worded_for_one(client, report_page) -> None:
    """One sentence read "the more of the 1 sentence it was built from use it": now its key says
    the sentence uses every edge."""
    page = _page(report_page, client.get("/lattice?" + urlencode({"sentences": "the cat sat"})))
    assert "It was built from 1 sentence, which uses every edge." in page.text
    assert "the more of the 1 sentence" not in page.text and "of the 1 sentence" not in page.text


def test_paraphrases_page_lists_the_table_choices(client, report_page) -> None:
    page = _page(report_page, client.get("/paraphrases?phrase=cat&table=small.tsv"))
    assert [o for o in page.text.split() if o in ("ppdb", "wordnet", "small.tsv")]
    assert "feline" in page.text and "kitty" in page.text
    assert "2 paraphrases of" in page.text
    page = _page(report_page, client.get("/paraphrases?phrase=sat+down&table=small.tsv"))
    assert "1 paraphrase of" in page.text  # not "1 paraphrases"


def test_a_bidi_override_in_the_phrase_reorders_nothing_after_it(client) -> None:
    """An RLO (U+202E) in the phrase reversed the rest of the note after it, the page's own
    words and the source's name ("... of “a\u202eb” in small.tsv"): the phrase, what it was
    looked up as and the source are each in a <bdi>, whose end ends what the text opened."""
    answer = client.get("/paraphrases?" + urlencode({"phrase": "a\u202eB", "table": "small.tsv"}))
    assert answer.status_code == 200
    # (looked up as the phrase shows: the RLO, an invisible character, dropped: phrase_keys)
    assert "“<bdi>a\u202eB</bdi>” <span id=\"looked-up-as\">(looked up as “<bdi>ab</bdi>”)</span>" in answer.text
    assert " in <bdi>small.tsv</bdi>" in answer.text


def test_the_paraphrases_page_chooses_the_table_the_api_asks_by_default(client, report_page) -> None:
    """The page's source select showed no choice, so the browser chose its first option (ppdb),
    as the API asked the first source: a server started with --table small.tsv looked its
    phrases up in PPDB. The page selects the API's default (the first --table), when the form
    opens and for a link naming no table, and answers from it."""
    selected = '<option selected>small.tsv</option>'
    assert selected in client.get("/paraphrases").text
    answer = client.get("/paraphrases?phrase=cat")
    assert selected in answer.text and "2 paraphrases of" in _page(report_page, answer).text
    assert '<option selected>ppdb</option>' in client.get("/paraphrases?phrase=cat&table=ppdb").text


def test_the_paraphrases_page_says_what_it_looked_up(client, report_page) -> None:
    """The page listed the rows found for "Cat" without saying they are the rows of "cat": a
    phrase found under another spelling looked like a wrong answer. The note now says what was
    looked up (the API's looked_up_as), and says nothing more when that is the phrase as typed."""
    page = _page(report_page, client.get("/paraphrases?phrase=Cat&table=small.tsv"))
    shown = page.find("span", id="looked-up-as")
    assert shown and "looked up as “cat”" in page.text and "feline" in page.text
    page = _page(report_page, client.get("/paraphrases?phrase=cat&table=small.tsv"))
    assert not page.find("span", id="looked-up-as") and "looked up as" not in page.text


def test_the_paraphrases_page_says_when_no_row_has_a_score(client, report_page, tmp_path, capsys) -> None:
    """PPDB's pairs were listed with "-" under score, row after row, 'autos beside autos, as if
    the page had lost their scores. PPDB's lexical pairs have none (the file is word TAB word), and
    'autos and autos are two of its words, as `paralign paraphrases --table THAT_FILE` lists them
    too (each unscored, read both ways as the aligners read them: the built-in ppdb); the page now
    says that no row has a score, and why, where none has one."""
    import json

    from paralign.cli import main
    from paralign.paraphrases import ppdb_table
    from paralign.resources import ppdb_path

    api = client.post("/api/paraphrases", json={"phrase": "cars", "table": "ppdb", "limit": 500}).json()
    held = ppdb_table().paraphrases("cars")
    assert sorted(p["paraphrase"] for p in api["paraphrases"]) == sorted(held) and {"'autos", "autos"} <= set(held)
    assert all(p["score"] is None for p in api["paraphrases"])
    out = tmp_path / "cli.json"
    main(["paraphrases", "cars", "--table", str(ppdb_path()), "--format", "json", "-o", str(out)])
    capsys.readouterr()
    cli = json.loads(out.read_text(encoding="utf-8"))["phrases"][0]["paraphrases"]
    assert cli and all(row["score"] is None for row in cli) and {row["paraphrase"] for row in cli} == set(held)
    for phrase, table in (("cars", "ppdb"), ("cars", "wordnet"), ("sat down", "small.tsv")):
        page = _page(report_page, client.get("/paraphrases?" + urlencode({"phrase": phrase, "table": table})))
        assert page.find("p", id="unscored") and "None of these has a score in" in page.text, (phrase, table)
        assert "carry no score" in page.text
    assert not _page(report_page, client.get("/paraphrases?phrase=cat&table=small.tsv")).find("p", id="unscored")


def test_the_paraphrases_page_can_show_more_than_the_first_ones(client, report_page) -> None:
    """"97 paraphrases of 'good' in ppdb (the first 50 shown)", and no way on the page to see the
    other 47: the page took no limit. Now the form has one, and the note links to all of them."""
    page = _page(report_page, client.get("/paraphrases?phrase=cat&table=small.tsv&limit=1"))
    assert len(page.find("tr")) == 2 and "feline" in page.text and "kitty" not in page.text
    assert "2 paraphrases of" in page.text and "the first 1 shown" in page.text
    assert page.find("input", id="limit", name="limit", type="number", value="1", min="1", max="500")
    assert page.find("a", id="show-all", href="/paraphrases?phrase=cat&table=small.tsv&limit=2")
    page = _page(report_page, client.get("/paraphrases?phrase=cat&table=small.tsv"))
    assert len(page.find("tr")) == 3 and not page.find("a", id="show-all")
    assert page.find("input", id="limit", value="50")  # the API's default, filled in
    refused = client.get("/paraphrases?phrase=cat&table=small.tsv&limit=0")
    assert refused.status_code == 422 and "limit: is 0; it must be a whole number from 1 to 500" in refused.text
    assert client.get("/paraphrases?phrase=cat&limit=many").status_code == 422


def test_with_no_paraphrase_source_the_page_says_so_before_and_after(report_page) -> None:
    """With no source loaded (--resources none, no --table) the page showed an empty choice, and
    a lookup answered "no paraphrase source named ''"."""
    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.web import create_app
    from paralign.web.engine import Engine

    with TestClient(create_app(engine=Engine(sources={}, scorer=ParaEval([]), signals={}))) as bare:
        page = _page(report_page, bare.get("/paraphrases"))
        assert "No paraphrase source is loaded: start the server with --table FILE" in " ".join(page.text.split())
        answer = bare.get("/paraphrases?phrase=cat")
        assert answer.status_code == 422 and "''" not in _page(report_page, answer).text
        assert "no paraphrase source is loaded: start the server with --table FILE" in _page(report_page, answer).text
        refused = bare.post("/api/paraphrases", json={"phrase": "cat"})
        assert refused.status_code == 422 and refused.json()["error"].startswith("no paraphrase source is loaded")


def test_the_docs_example_names_a_source_this_server_loaded(table_path) -> None:
    """The docs page's paraphrases example named "ppdb" whatever was loaded: on a server started
    with --resources none --table T, running it as shown gave a 422."""
    import html
    import re

    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.paraphrases import load_source
    from paralign.web import create_app
    from paralign.web.engine import Engine

    engine = Engine(sources={"mine.tsv": load_source(str(table_path))}, scorer=ParaEval([]), signals={})
    with TestClient(create_app(engine=engine)) as mine:
        example = re.search(r"api/paraphrases -H [^\n]* -d '([^']*)'", html.unescape(mine.get("/docs").text))
        body = json.loads(example.group(1))
        assert body["table"] == "mine.tsv"
        assert mine.post("/api/paraphrases", json=body).status_code == 200


def test_the_docs_curl_commands_run_as_shown_in_a_shell(table_path) -> None:
    """The docs page wrote each example body in single quotes as it was and each URL bare: a
    source named o'brien.tsv ended the quoted body in the middle of the JSON, and on a server
    at [::1] (--host ::1) zsh read the URL's brackets as a glob ('no matches found'). Each word
    is now quoted for the shell where it must be, and runs as shown."""
    import html
    import re
    import shlex

    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.paraphrases import load_source
    from paralign.web import create_app
    from paralign.web.engine import Engine

    engine = Engine(sources={"o'brien.tsv": load_source(str(table_path))}, scorer=ParaEval([]), signals={})
    with TestClient(create_app(engine=engine), base_url="http://[::1]:8000") as mine:
        page = html.unescape(mine.get("/docs").text)
        commands = {next(w for w in words if w.startswith("http")): words
                    for words in (shlex.split(line) for line in re.findall(r"<code>(curl [^<]*)</code>", page))}
        assert commands and all(url.startswith("http://[::1]:8000/api/") for url in commands)
        assert "curl -s 'http://[::1]:8000/api/info'" in page  # quoted: no glob for the shell
        body = json.loads(commands["http://[::1]:8000/api/paraphrases"][-1])
        assert body["table"] == "o'brien.tsv"
        assert mine.post("/api/paraphrases", json=body).status_code == 200


def test_the_start_page_states_every_limit(client, report_page) -> None:
    """The start page said "sentences up to 500 characters", but a lattice sentence over 300 and a
    phrase over 200 are refused; now it states every limit of /api/info."""
    from paralign.web.models import LIMITS

    text = " ".join(_page(report_page, client.get("/")).text.split())
    assert ("10 lattice sentences of up to 300 characters, phrases up to 200 characters, 500 paraphrases listed"
            in text)
    from paralign.web.models import shown_bytes

    assert all((shown_bytes(value) if name.endswith("_bytes") else str(value)) in text for name, value in LIMITS.items())
    assert "request bodies up to 64 KiB; a batch up to 1000 rows in 11.8 MiB." in text  # it said 12353536 bytes


def test_api_docs_page_works_offline(client, report_page) -> None:
    answer = client.get("/docs")
    page = _page(report_page, answer)
    headings = [part for part in page.text.split("\n") if part.startswith(("POST /api", "GET /api"))]
    assert {"POST /api/align", "POST /api/lattice", "GET /api/info"} <= set(headings)
    assert "at most 500 characters" in page.text
    assert "413 (body over 64 KiB; a batch's over 11.8 MiB), 422 (" in " ".join(page.text.split())  # was "bytes) , 422"
    sources = [attrs.get("src") or attrs.get("href") for _, attrs in page.elements]
    assert page.count("script") == 0
    assert all(s is None or s.startswith(("/", "#")) for s in sources), sources  # nothing from the internet
    assert client.get("/redoc").status_code == 404


def test_api_docs_intro_names_every_error_status_a_route_lists(client) -> None:
    """The intro said every error is 413, 422, 404 or 405, while every route lists 403, 413, 422,
    500 and 503 under "error answers": a curl user meeting a 403 (a Host this server does not
    answer for) or a 503 (a stopping server) found neither explained there."""
    import re

    docs = client.get("/docs").text
    intro = docs.split("<p>Every answer is JSON", 1)[1].split("</p>", 1)[0]
    listed = {code for note in re.findall(r"error answers: ([0-9, ]+)", docs) for code in note.split(", ")}
    assert {"403", "500", "503"} <= listed
    assert all(f"{code} (" in intro for code in listed | {"404", "405"}), intro


@pytest.mark.parametrize("path", ["/align", "/similarity"])
def test_a_pair_page_says_where_a_file_of_pairs_goes(client, tmp_path, capsys, path) -> None:
    """A researcher with a few hundred pairs found no upload and no word of one: a pasted batch
    became one sentence (a text field drops line breaks) and was refused as over 500 characters.
    The page says it takes one pair, and the command that takes a file of them, which runs."""
    import html
    import re
    import shlex

    from paralign.cli import main

    note = re.search(r'<p class="note" id="batch">(.*?)</p>', client.get(path).text)
    assert note, "no word on a file of pairs"
    command = shlex.split(html.unescape(re.search(r"<code>(.*?)</code>", note.group(1)).group(1)))
    pairs = tmp_path / "PAIRS.tsv"
    pairs.write_text("The cat sat.\tA cat sat.\nIt rained.\tIt was raining.\n", encoding="utf-8")
    assert command[0] == "paralign"
    args = [str(pairs) if part == "PAIRS.tsv" else part for part in command[1:]]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        assert main(args) == 0, capsys.readouterr().err


def test_api_docs_show_a_commands_name_as_code_not_between_backticks(client, report_page) -> None:
    """The schema's descriptions mark code as CommonMark does (`paralign serve --encoder`), and
    the docs page showed the backticks as they were."""
    answer = client.get("/docs")
    assert "`" not in _page(report_page, answer).text
    assert "<code>paralign serve --encoder</code>" in answer.text
    from paralign.web.pages import code_spans

    assert code_spans("a `<b>` & ``c``, `d") == "a <code>&lt;b&gt;</code> &amp; <code>c</code>, `d"


def test_api_docs_say_what_every_answer_field_and_model_is(client) -> None:
    """A curl user read 'Link: i, j, kind, source, target, confidence' and 'total', 'log10_paths',
    'svg' with an empty description (from 0 or from 1? total of what?), and the docs page left
    out each model's own description (WordMatch's said what a grade is)."""
    from paralign.web.api_docs import model_fields, operations

    schema = client.get("/openapi.json").json()
    schemas = schema["components"]["schemas"]
    answers = {name for op in operations(schema) for title, name, _ in op["tables"] if "answer" in title}
    assert {"Link", "AlignResponse", "LatticeResponse", "ParaphrasesResponse", "Edge"} <= answers
    undescribed = [f"{name}.{f['name']}" for name in sorted(answers | {"Problem"})
                   for f in model_fields(schemas, name) if not f["description"]]
    assert undescribed == []
    docs = client.get("/docs").text
    word_match = schemas["WordMatch"]["description"].split()[0]
    assert f'<p class="note model">{word_match} ' in docs


@dataclass(frozen=True)
class ScoredAlignment(Alignment):
    """An alignment as a contextual aligner gives it: per-link confidences."""

    confidence: dict = field(default_factory=dict, compare=False)


def test_links_with_confidences_get_a_confidence_column(client, engine, monkeypatch, report_page) -> None:
    def aligner(source, target):
        return ScoredAlignment(frozenset({(1, 1)}), frozenset({(1, 1), (0, 0)}),
                               confidence={(1, 1): 0.9, (0, 0): 0.25})

    monkeypatch.setattr(engine, "_aligner_held", lambda name, preset: aligner)  # a request aligns in one turn
    answer = client.get("/align?" + urlencode({"source": "the cat", "target": "a cat"}))
    page = _page(report_page, answer)
    assert "confidence" in page.text and "0.90" in page.text and "0.25" in page.text
    shaded, group = [], ""
    for tag, attrs in page.elements:  # the link cells' boxes, not the legend's shaded sample
        group = attrs.get("class") or "" if tag == "g" else group
        if tag == "rect" and attrs.get("fill-opacity") and "link" in group.split():
            shaded.append(attrs)
    assert len(shaded) == 2
    data = client.post("/api/align", json={"source": "the cat", "target": "a cat"}).json()
    assert {(link["i"], link["confidence"]) for link in data["links"]} == {(0, 0.25), (1, 0.9)}


def test_no_typed_text_makes_a_page_fail(client) -> None:
    """Whatever is typed into a form (any characters, any length), the page answers 200 or 422."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    texts = st.text(max_size=40) | st.text(alphabet=st.characters(codec="utf-8"), min_size=480, max_size=520)
    pages = st.sampled_from([("/align", ("source", "target")), ("/similarity", ("source", "target")),
                             ("/paraeval", ("hypothesis", "references")), ("/lattice", ("sentences",)),
                             ("/paraphrases", ("phrase", "table"))])
    configs = st.sampled_from([None, "default", "paper", "contextual"]) | texts  # ParaEval's

    @given(page=pages, values=st.lists(texts, min_size=2, max_size=2), config=configs)
    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    def check(page, values, config) -> None:
        path, names = page
        fields = dict(zip(names, values, strict=False))
        if path == "/paraeval" and config is not None:
            fields["config"] = config
        answer = client.get(path + "?" + urlencode(fields))
        assert answer.status_code in (200, 422), (path, values, answer.text[-300:])

    check()


def test_every_page_answers_head(client) -> None:
    """HEAD of a page was 405 (FastAPI's GET routes do not take it)."""
    for path in ("/", "/align", "/similarity", "/similarity/batch", "/paraeval", "/lattice", "/paraphrases", "/docs"):
        answer = client.head(path)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html"), path


def test_counts_of_one_are_singular(client, report_page) -> None:
    """'1 links', '1 edges, 1 paths' and the docs' 'at least 1 characters'."""
    page = _page(report_page, client.get("/align?" + urlencode({"source": "cat", "target": "cat"})))
    assert "1 link, Pharaoh" in page.text
    page = _page(report_page, client.get("/similarity?" + urlencode({"source": "cat", "target": "cat"})))
    assert "sultan:default, 1 link)" in page.text
    page = _page(report_page, client.get("/lattice?" + urlencode({"sentences": "cat"})))
    assert "2 states, 1 edge, 1 path" in page.text
    docs = client.get("/docs").text
    assert "at least 1 character;" in docs and "at least 1 item;" in docs and "1 characters" not in docs


def test_api_docs_describe_the_models_an_answer_holds(client) -> None:
    """The docs said 'links: array of Link' and nowhere what a Link is."""
    from paralign.web.api_docs import nested_models

    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert nested_models(schemas, "AlignResponse") == ["Link"]
    assert nested_models(schemas, "LatticeResponse") == ["Edge"]
    docs = client.get("/docs").text
    align = docs.split('id="op-post--api-align"')[1].split("</section>")[0]
    assert "<h3>part of the answer: Link</h3>" in align
    for name in ("<code>i</code>", "<code>kind</code>", "<code>confidence</code>"):
        assert name in align
    assert "<h3>part of the answer: Span</h3>" in docs and "<h3>part of the answer: Paraphrase</h3>" in docs


def test_the_similarity_page_shows_the_hybrid_note(client, report_page) -> None:
    """The note /api/similarity gives for the shipped blend with another aligner, on the page too."""
    if "hybrid" not in client.get("/api/info").json()["signals"]:
        pytest.skip("the neural extra is not installed (no hybrid signal)")
    pair = {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat."}
    page = _page(report_page, client.get("/similarity?" + urlencode({**pair, "aligner": "exact"})))
    assert "the hybrid blend was fitted on sultan:default alignments" in page.text
    page = _page(report_page, client.get("/similarity?" + urlencode(pair)))
    assert "hybrid blend was fitted" not in page.text


@pytest.mark.parametrize(("path", "query"), [
    ("/align", {"source": "a\x00b\x01", "target": "c"}),
    ("/paraeval", {"hypothesis": "the cat", "references": "a cat\n\x1bb"}),
    ("/lattice", {"sentences": "a cat\n\x07b"}),
])
def test_a_refused_control_character_is_shown_back_as_a_replacement_character(client, path, query) -> None:
    """The page refused a control character ("cannot be shown") and then put it, as it came, in
    the form field it echoes (a raw NUL in the HTML); now it shows U+FFFD there."""
    answer = client.get(f"{path}?{urlencode(query)}")
    assert answer.status_code == 422 and "which cannot be shown" in answer.text
    assert not any(ord(c) < 32 and c not in "\t\n\r" for c in answer.text)
    assert "\ufffd" in answer.text
    assert "<svg" not in client.get("/align?" + urlencode({"source": "a\x00", "target": "b"})).text
    assert "<svg" in client.get("/align?" + urlencode({"source": "a", "target": "b"})).text  # markup stays markup


def test_a_query_that_is_not_utf8_is_refused_naming_the_field(client) -> None:
    """A page read percent-encoded bytes that are not UTF-8 (``%E9`` for Latin-1 é) as U+FFFD and
    answered for a text nobody typed (200, the grid of '�'), where the API refuses such a body;
    now the page refuses it (422) naming the field and the byte."""
    answer = client.get("/align?source=caf%E9&target=a+cat")
    assert answer.status_code == 422
    assert ('id="error">source: is not UTF-8: the byte 0xe9 at position 3 cannot be read (unexpected end of '
            "data): a form sends UTF-8") in answer.text
    assert "<svg" not in answer.text
    lattice = client.get("/lattice?sentences=a+cat%0Ab%FF")
    assert lattice.status_code == 422 and "sentences: is not UTF-8: the byte 0xff" in lattice.text
    assert client.get("/align?source=caf%C3%A9&target=a+cat").status_code == 200  # UTF-8
    other = client.get("/align?source=caf%C3%A9&target=a+cat&x=%FF")  # not a field: refused as such, not for its byte
    assert other.status_code == 422 and 'id="error">x: is not a field of this page&#39;s form' in other.text


@pytest.mark.parametrize(("limit", "status", "words"), [
    ("1.0", 200, "the first 1 shown"),
    ("1e3", 422, "limit: is 1,000; it must be a whole number from 1 to 500"),
    ("2.5", 422, "limit: is 2.5; it must be a whole number from 1 to 500"),
    ("abc", 422, "limit: must be a whole number from 1 to 500, not a string"),
    ("nan", 422, "limit: must be a whole number from 1 to 500, not a string"),
])
def test_the_limit_field_takes_a_number_as_the_browser_sends_it(client, limit, status, words) -> None:
    """The page's number field accepts 1.0 and 1e3 (a browser's check takes them and sends them as
    typed), and the page refused both as 'not a string'; it reads them as numbers now, as the
    API takes 1.0."""
    answer = client.get("/paraphrases?" + urlencode({"phrase": "cat", "table": "small.tsv", "limit": limit}))
    assert answer.status_code == status and words in answer.text


def test_a_textarea_breaks_lines_where_the_box_shows_them(client) -> None:
    """The lines of a textarea were split by str.splitlines, which also breaks at U+2028, U+0085
    and controls such as U+000B: a sentence holding one became two lattice sentences, and a
    refusal named a line the box does not show. Only CR LF, LF and CR break a line now."""
    answer = client.get("/lattice?" + urlencode({"sentences": "the cat\u2028sat\r\na cat sat"}))
    assert answer.status_code == 200
    data = client.post("/api/lattice", json={"sentences": ["the cat\u2028sat", "a cat sat"]}).json()
    assert sorted(_page_paths(answer.text)) == sorted(data["some_paths"])
    refused = client.get("/paraeval?" + urlencode({"hypothesis": "the cat", "references": "a cat\u000bb\r\nthe dog\r\n"}))
    assert refused.status_code == 422
    assert "references (line 1): contains the character U+000B at position 5" in refused.text


def _page_paths(text: str) -> list[str]:
    import re
    from html import unescape

    block = text[text.index('id="paths"'):]
    block = block[:block.index("</ol>")]
    return [unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)]


def test_the_similarity_page_says_which_signals_it_does_not_score_and_why(client, engine, monkeypatch) -> None:
    """The page listed the signals it scored and said nothing of the others (the idf ones, which
    need fitting; the neural ones without the extra), which /api/info now names with the reason."""
    monkeypatch.setitem(engine.unavailable_signals, "embedding", "the contextual encoder needs the optional extra 'neural'")
    answer = client.get("/similarity?" + urlencode({"source": "a cat sat", "target": "a cat sat"}))
    assert answer.status_code == 200
    assert 'id="unavailable-signals">Not scored by this server: ' in answer.text
    assert "idf (the idf signal is fitted on training sentences" in answer.text
    assert "embedding (the contextual encoder needs the optional extra &#39;neural&#39;)" in answer.text


@pytest.mark.parametrize(("path", "query", "chosen"), [
    ("/paraeval", {"config": "paper"}, ("config", "paper")),
    ("/align", {"preset": "paraphrase"}, ("preset", "paraphrase")),
    ("/similarity", {"aligner": "exact"}, ("aligner", "exact")),
    ("/paraphrases", {"table": "wordnet"}, ("table", "wordnet")),
    ("/lattice", {"method": "msa"}, None),
])
def test_a_link_with_only_choices_opens_the_form_with_them_made(client, path, query, chosen) -> None:
    """``/paraeval?config=paper`` was refused with 'hypothesis: Field required; references: Field
    required' (422); a query without any text field now opens the form, its choices made."""
    answer = client.get(f"{path}?{urlencode(query)}")
    assert answer.status_code == 200 and 'id="error"' not in answer.text and 'id="answer"' not in answer.text
    if chosen:
        assert f"<option selected>{chosen[1]}</option>" in answer.text.split(f'id="{chosen[0]}"')[1].split("</select>")[0]
    refused = client.get(f"{path}?{urlencode({**query, next(iter(_TEXTS[path])): ''})}")
    assert refused.status_code == 422  # a text field sent empty is still refused


_TEXTS = {"/paraeval": ["hypothesis"], "/align": ["source"], "/similarity": ["target"], "/paraphrases": ["phrase"],
          "/lattice": ["sentences"]}


@pytest.mark.parametrize("path", ["align", "similarity"])
def test_the_pair_pages_show_the_signature_of_their_answer(client, path) -> None:
    """The ParaEval page showed its signature and `align --format html` shows one under its title,
    but the align and similarity pages showed none: a score or a link on them could not be told
    from the settings (preset, encoder, spaCy model, version) that gave it. Each now shows the
    signature its API route gives for the same pair."""
    pair = {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat.", "preset": "paper"}
    signature = client.post(f"/api/{path}", json=pair).json()["signature"]
    page = client.get(f"/{path}?" + urlencode(pair))
    assert page.status_code == 200
    assert f'<p class="note" id="signature">signature: <code>{signature}</code></p>' in page.text


def test_a_field_sent_empty_is_said_to_be_empty(client, report_page) -> None:
    """A box left empty (sent as ``target=``; the browser's ``required`` stops only some) was
    refused as "target: Field required", as if the page had not sent it."""
    for path, query, said in (("/align", "source=+++&target=", "source: must contain a word, not only spaces; "
                                                              "target: is empty"),
                              ("/similarity", "source=&target=", "first sentence: is empty; second sentence: is empty"),
                              ("/paraphrases", "phrase=&table=small.tsv", "phrase: is empty")):
        answer = client.get(f"{path}?{query}")
        assert answer.status_code == 422 and said in _page(report_page, answer).text, path


@pytest.mark.parametrize(("path", "aligner", "takes"), [
    ("align?source=a+cat&target=the+cat", "exact", "default only, not paper: choose it"),
    ("similarity?source=a+cat&target=the+cat", "contextual", "default or contextual only, not paper: choose one of them"),
])
def test_a_preset_the_aligner_does_not_take_is_refused_in_the_forms_terms(client, path, aligner, takes) -> None:
    """The page's menus send any aligner with any preset; the refusal was the API's, naming its JSON
    fields: 'body: "aligner": "exact" has no preset but default ("preset": "paper") ... leave "preset"
    out', which a menu cannot do. The API keeps its message."""
    page = client.get(f"/{path}&aligner={aligner}&preset=paper")
    assert page.status_code == 422
    error = unescape(page.text.split('id="error"', 1)[1].split("</", 1)[0])
    assert f"preset: the {aligner} aligner takes the preset {takes}, or the sultan aligner" in error
    assert "body" not in error and '"preset"' not in error
    api = client.post("/api/align", json={"source": "a", "target": "b", "aligner": aligner, "preset": "paper"})
    assert api.status_code == 422 and api.json()["detail"][0]["field"] == "body"
    batch = client.post("/similarity/batch", data={"pairs": "a\tb\n", "aligner": aligner, "preset": "paper"},
                        headers={"accept": "text/html"})
    assert batch.status_code == 422 and f"preset: the {aligner} aligner takes the preset {takes}" in unescape(batch.text)


def test_the_docs_paraphrases_example_gives_rows_from_the_default_source(client, engine) -> None:
    """The /docs example asked the first source loaded (ppdb, even on a server started with
    --table) for "car", whatever that source held: on ``serve --table small.tsv`` it looked in
    PPDB, not the user's table, and on a server with the user's table alone it found 0 rows.
    It asks the source a lookup naming none asks (the first --table), for "car" where that source
    has it, else for the first phrase of letters in the table: run as shown, it gives rows."""
    import re

    from fastapi.testclient import TestClient

    from paralign.web import create_app
    from paralign.web.engine import Engine

    def example(answer) -> dict:
        return json.loads(re.search(r"api/paraphrases -H [^\n]* -d '([^']*)'", unescape(answer.text)).group(1))

    assert example(client.get("/docs")) == {"phrase": "cat", "table": "small.tsv"}
    for sources in ({"ppdb": engine.sources["ppdb"]}, {"wordnet": engine.sources["wordnet"]}):
        with TestClient(create_app(engine=Engine(sources, engine.scorer, {}))) as other:
            body = example(other.get("/docs"))
            assert body == {"phrase": "car", "table": next(iter(sources))}
            assert other.post("/api/paraphrases", json=body).json()["total"] > 0
    assert client.post("/api/paraphrases", json=example(client.get("/docs"))).json()["total"] == 2


def test_the_paraphrases_form_names_its_fields_as_the_query_and_the_api_do(client) -> None:
    """The form's fields were labelled "source" and "show at most" while the address it makes and
    the API call them table and limit (``/paraphrases?phrase=cat&table=ppdb&limit=5``): a user
    moving from the page to the API or a kept link had to guess which was which. Each label is
    the field's name, with what it means said beside it (its title)."""
    import re

    from paralign.web.models import ParaphrasesRequest

    form = client.get("/paraphrases").text
    labels = dict(re.findall(r'<label for="(\w+)"[^>]*>([^<]*)</label>', form))
    names = dict(re.findall(r'id="(\w+)" name="(\w+)"', form))
    assert labels == {name: name for name in ParaphrasesRequest.model_fields} == names
    assert 'title="the most paraphrases listed, best first' in form
    assert "--top-k" in ParaphrasesRequest.model_fields["limit"].description
