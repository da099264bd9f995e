"""What the pages say to a person using them: a refusal in the words of the form on the screen
(its boxes' lines, the choices this server offers), never in the words of the JSON API or of
the server's operator."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlencode

import pytest


def _error(answer) -> str:
    """The page's refusal, as its text reads."""
    found = re.search(r'<p class="error" role="alert" id="error">(.*?)</p>', answer.text, re.S)
    assert found, answer.text[:2000]
    return unescape(re.sub(r"<[^>]+>", "", found.group(1)))


@pytest.mark.parametrize(("path", "fields", "said"), [
    ("/paraeval", {"hypothesis": "a cat", "references": "\n".join(f"r{n}" for n in range(9))},
     "references: has 9 lines; it may have at most 8"),
    ("/lattice", {"sentences": "\n".join(f"a cat {n}" for n in range(11))},
     "sentences: has 11 lines; it may have at most 10"),
])
def test_a_box_of_too_many_lines_is_said_to_have_lines(client, path, fields, said) -> None:
    """The paraeval and lattice pages said a box "has 9 items" where the user typed lines."""
    answer = client.get(f"{path}?{urlencode(fields)}")
    assert answer.status_code == 422
    assert _error(answer) == said


NEURAL = "the contextual encoder needs the optional extra 'neural' (torch is not installed): pip install 'paralign[neural]'"


@pytest.fixture
def without_neural(engine, monkeypatch):
    """The engine as a server without the neural extra has it: no contextual aligner, preset, config."""
    monkeypatch.setitem(engine.missing_aligners, "contextual", NEURAL)
    monkeypatch.setitem(engine.missing, "contextual", NEURAL)
    return engine


@pytest.mark.parametrize(("path", "fields", "said"), [
    ("/align", {"source": "a cat", "target": "a cat", "aligner": "sultn"},
     f"aligner: must be sultan or exact; not offered by this server: contextual ({NEURAL})"),
    ("/similarity", {"source": "a cat", "target": "a cat", "preset": "fast"},
     f"preset: must be default, paper or paraphrase; not offered by this server: contextual ({NEURAL})"),
    ("/paraeval", {"hypothesis": "a cat", "references": "a cat", "config": "best"},
     f"config: must be default or paper; not offered by this server: contextual ({NEURAL})"),
])
def test_a_refused_choice_lists_what_this_server_offers_and_apart_what_needs_an_extra(
        client, without_neural, path, fields, said) -> None:
    """A choice error listed every name the models know ("must be sultan, contextual or
    exact"), the contextual ones too on a server without the neural extra, which the next request
    refused: it lists what the user can pick, and says apart what this server lacks and why, on
    the page and in the API's answer alike."""
    answer = client.get(f"{path}?{urlencode(fields)}")
    assert answer.status_code == 422
    assert _error(answer) == said
    body = {**fields, "references": [fields["references"]]} if "references" in fields else fields
    refused = client.post(f"/api{path}", json=body)
    assert refused.status_code == 422 and refused.json()["error"] == said


def test_a_refused_signal_lists_the_signals_scored_and_apart_those_that_are_not(client, engine, monkeypatch) -> None:
    """The batch's unknown signal was "unknown signal: this server scores ...": said as every
    other choice is, what is offered, then what is not and why."""
    monkeypatch.setitem(engine.unavailable_signals, "embedding", NEURAL)
    # the signals without it, a new dict: delitem's undo put it back last, and the session's
    # schema (its order as the app started) then differed from /api/info's (test_batch.py)
    monkeypatch.setattr(engine, "signals", {k: v for k, v in engine.signals.items() if k != "embedding"})
    answer = client.post("/similarity/batch", data={"pairs": "a\tb", "signal": "sultan2016"}, headers={"accept": "text/html"})
    assert answer.status_code == 422
    said = _error(answer)
    assert said.startswith("signal: must be sultan2014, sultan2015, ") and "embedding" not in said.split(";")[0]
    assert "; not offered by this server: " in said and f"embedding ({NEURAL})" in said
    refused = client.post("/api/similarity/batch", json={"pairs": "a\tb", "signal": "sultan2016"}).json()
    assert refused["error"] == said


def test_too_many_rows_are_refused_in_words_for_the_user_and_the_option_goes_to_the_log(engine, caplog) -> None:
    """The refusal of a batch of too many rows named ``paralign serve --max-pairs``, an option of
    the server's operator, to a web user who cannot run it (the page's note of its limits too):
    the user is told what to do; the server's log names the option."""
    from fastapi.testclient import TestClient

    from paralign.web import create_app

    with TestClient(create_app(engine=engine, max_pairs=2)) as client:
        form = client.get("/similarity/batch").text
        with caplog.at_level("WARNING", logger="uvicorn.error"):
            page = client.post("/similarity/batch", data={"pairs": "a\tb\n" * 3}, headers={"accept": "text/html"})
            api = client.post("/api/similarity/batch", json={"pairs": "a\tb\n" * 3}).json()
    said = ("sentence pairs: the pasted text has 3 rows, more than the 2 this server scores in one request: "
            "paste at most 2 at a time, or save them in a file and score it with paralign similarity --pairs FILE")
    assert page.status_code == 422 and _error(page) == said
    assert api["error"] == said.replace("sentence pairs", "pairs")
    assert "--max-pairs" not in form and "At most 2 rows a request," in form
    assert [r.getMessage() for r in caplog.records].count(
        "a batch of 3 rows was refused, more than 2 (paralign serve --max-pairs N takes more)") == 2


def test_too_many_rows_are_counted_and_worded_for_a_chosen_file(engine) -> None:
    """The refusal said "more than 2 rows" whatever the count, and "score the file" of pasted
    text too: it says how many rows there are, and of a chosen file (the form's name field, as
    static/batch.js fills it) names the file and the command that scores it."""
    from fastapi.testclient import TestClient

    from paralign.web import create_app

    with TestClient(create_app(engine=engine, max_pairs=2)) as client:
        page = client.post("/similarity/batch", data={"pairs": "a\tb\n" * 1234, "name": "pairs.tsv"},
                           headers={"accept": "text/html"})
        api = client.post("/api/similarity/batch", json={"pairs": "a\tb\n" * 5, "name": "my pairs.tsv"}).json()
    assert page.status_code == 422 and _error(page) == (
        "sentence pairs: pairs.tsv has 1,234 rows, more than the 2 this server scores in one request: split it, "
        "or score the file with paralign similarity --pairs pairs.tsv")
    assert api["error"] == ("pairs: my pairs.tsv has 5 rows, more than the 2 this server scores in one request: "
                            "split it, or score the file with paralign similarity --pairs 'my pairs.tsv'")


@pytest.mark.parametrize(("path", "fields", "takes"), [
    ("/align", {"source": "a cat", "target": "a cat", "treshold": "0.5"}, "source, target, aligner, preset"),
    ("/similarity", {"source": "a cat", "target": "a cat", "treshold": "0.5"}, "source, target, aligner, preset"),
    ("/paraeval", {"hypothesis": "a cat", "references": "a cat", "treshold": "0.5"}, "hypothesis, references, config"),
    ("/lattice", {"sentences": "a cat\na dog", "treshold": "0.5"}, "sentences, method"),
    ("/paraphrases", {"phrase": "cat", "treshold": "0.5"}, "phrase, table, limit"),
])
def test_a_page_refuses_a_field_its_form_has_not_as_the_api_does(client, path, fields, takes) -> None:
    """A page answered ``?treshold=0.5`` as if it were not there, the answer read as if the option
    had been used, where the API refuses a field its request has not: a page that answers refuses
    it too, naming what its form takes; its form alone (nothing asked) is shown, as before."""
    answer = client.get(f"{path}?{urlencode(fields)}")
    assert answer.status_code == 422
    assert _error(answer) == f"treshold: is not a field of this page's form: it takes {takes}"
    assert 'name="' in answer.text  # the form, to put it right
    assert client.get(f"{path}?treshold=0.5").status_code == 200


def test_the_batch_page_refuses_a_field_its_form_has_not(client) -> None:
    answer = client.post("/similarity/batch", data={"pairs": "a cat\tb", "treshold": "0.5"}, headers={"accept": "text/html"})
    assert answer.status_code == 422 and ">a cat\tb</textarea>" in answer.text  # the pairs kept
    assert _error(answer) == ("treshold: is not a field of this page's form: it takes pairs, name, input_format, "
                              "signal, aligner, preset")
    refused = client.post("/api/similarity/batch", json={"pairs": "a\tb", "treshold": 0.5}).json()
    assert refused["error"].startswith("treshold: is not a field of this request: it takes pairs, ")


def test_the_similarity_page_names_its_sentences_first_and_second_and_align_source_and_target(client) -> None:
    """The similarity page labelled its boxes source and target sentence, and refused "source: is
    empty", where the similarity commands and the batch page say first and second sentence; the
    align page, as `paralign align`, keeps source and target. The query's fields stay the API's."""
    form = client.get("/similarity").text
    assert '<label for="source">first sentence</label>' in form and '<label for="target">second sentence</label>' in form
    assert '<label for="source">source sentence</label>' in client.get("/align").text
    empty = client.get("/similarity?" + urlencode({"source": "", "target": "a cat"}))
    assert empty.status_code == 422 and _error(empty) == "first sentence: is empty"
    nothing = client.get("/similarity?" + urlencode({"source": "a cat", "target": "&nbsp;"}))
    assert nothing.status_code == 422 and _error(nothing).startswith("second sentence: has no word as read")
    assert _error(client.get("/align?" + urlencode({"source": "", "target": "a cat"}))) == "source: is empty"
