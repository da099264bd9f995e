"""`paralign serve`, used the way a person uses it: a real Chromium (Debian's `chromium`, driven
by playwright) types into the pages of a server started on a free loopback port.

The server and browser are tests/cli/conftest.py's, its helpers benchmarks/screenshots.py's (the README's screenshots are
taken the same way). Without a browser these tests skip, saying so, except in CI (``CI`` set),
where a missing browser fails them: `.ci/run` installs Debian's chromium.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import paralign_screenshots as helpers  # benchmarks/screenshots.py, loaded by tests/cli/conftest.py
import pytest

from paralign.cli import main

ROOT = Path(__file__).resolve().parents[2]
XSS = "<script>alert(1)</script>"


def _guarded_page(browser, server, **options):
    """A fresh page in its own context, and the list of requests it made outside the server
    (aborted); a generator, so the context is closed when the test ends."""
    context = browser.new_context(**options)
    outside: list[str] = []

    def guard(route) -> None:
        if route.request.url.startswith(server) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    dialogs: list[str] = []
    tab = context.new_page()
    tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    tab.dialogs = dialogs
    yield tab
    context.close()
    assert outside == [], f"the page asked for outside resources: {outside}"


@pytest.fixture()
def page(browser, server):
    """A fresh page; any request it makes outside the server fails the test (no internet needed)."""
    yield from _guarded_page(browser, server, viewport={"width": 1100, "height": 900})


@pytest.fixture()
def phone(browser, server):
    """A page as narrow as a phone's screen (375 CSS pixels)."""
    yield from _guarded_page(browser, server, viewport={"width": 375, "height": 740}, is_mobile=True)


def test_align_two_sentences_in_the_browser(page, server, tmp_path) -> None:
    helpers.align(page, server, "The cat sat on the mat.", "A cat was sitting on the mat.", preset="paper")
    cells = page.locator("svg#align-grid g.link")
    rows = page.locator("#links tbody tr.link")
    assert cells.count() == rows.count() > 0
    grid = {(c.get_attribute("data-i"), c.get_attribute("data-j")) for c in cells.all()}
    table = {(r.get_attribute("data-i"), r.get_attribute("data-j")) for r in rows.all()}
    assert grid == table and ("1", "1") in table
    cat = page.locator('#links tr.link[data-i="1"][data-j="1"]')
    assert cat.locator("td.source-word").inner_text() == "cat"
    assert page.locator("#preset").input_value() == "paper"
    assert page.locator("svg#align-grid").bounding_box()["width"] > 100  # drawn, not just present
    page.screenshot(path=str(tmp_path / "align.png"), full_page=True)
    assert (tmp_path / "align.png").stat().st_size > 10_000


def test_a_typed_script_is_shown_as_text_and_never_runs(page, server) -> None:
    helpers.align(page, server, XSS, "an alert")
    words = [t.text_content() for t in page.locator("svg#align-grid text.source-word").all()]
    assert "<" in words and "script" in words
    assert page.locator("#source").input_value() == XSS
    own = 'script[src="/static/forms.js"]'  # the page's own script, and no other
    assert page.locator(f"script:not({own})").count() == 0 and page.locator(own).count() == 1 and page.dialogs == []
    page.goto(server + "paraeval?hypothesis=" + XSS + "&references=an+alert")
    assert page.locator(f"script:not({own})").count() == 0 and page.dialogs == []
    assert "script" in page.locator(".hypothesis").inner_text()


def test_paraeval_in_the_browser_by_config(page, server, tmp_path) -> None:
    """The ParaEval page scores with the command line's default config and shows its matches by
    tier and its chunks; the paper config, chosen in the form, keeps its highlighted spans."""
    hypothesis, references = "the cat sat on the mat", ["a dog barked", "a feline sat on the rug"]
    helpers.paraeval(page, server, hypothesis, references)
    assert page.locator("#config").input_value() == "default"
    rows = page.locator("#matches tr.match")
    assert rows.count() >= 4
    cat = page.locator('#matches tr.match[data-hyp="1-2"]')
    assert cat.get_attribute("data-tier") == "paraphrase" and "feline" in cat.inner_text()
    assert "0.800" in cat.inner_text()  # the table's probability (small.tsv: cat feline 0.8)
    assert "reference 2 of 2" in page.locator("#reference-used").inner_text()
    assert page.locator("#chunks li").count() >= 2 and page.locator("#tiers tr[data-tier=stem]").count() == 1
    score = page.locator("#paraeval-scores tr[data-part=score] td").inner_text()
    assert page.locator("table#matches").bounding_box()["width"] > 200  # drawn, not just present
    page.screenshot(path=str(tmp_path / "paraeval.png"), full_page=True)
    helpers.paraeval(page, server, hypothesis, references, "paper")
    assert page.locator("#config").input_value() == "paper"
    assert page.locator("#matches").count() == 0 and page.locator("#paraeval-scores tr[data-part=score]").count() == 0
    assert page.locator('.hypothesis span[data-tier="synonym"]').all_inner_texts() == ["cat", "mat"]
    assert float(score) > 0 and "config:paper" in page.locator("#answer").inner_text()


def test_too_long_a_sentence_is_refused_with_a_message(page, server) -> None:
    page.goto(server + "align?source=" + "x" * 501 + "&target=y")
    assert "at most 500 characters" in page.locator("#error").inner_text()


def test_a_pasted_sentence_over_the_limit_is_refused_not_cut(page, server) -> None:
    """The fields' maxlength cut a pasted 608-character sentence to its first 500 characters
    without a word, and the page aligned what was left."""
    sentence = "word " * 119 + "the end of it"
    page.goto(server + "align")
    page.click("#source")
    page.keyboard.insert_text(sentence)  # as a paste does
    assert page.locator("#source").input_value() == sentence
    page.fill("#target", "the end")
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert page.locator("#answer").count() == 0
    assert "source: String should have at most 500 characters" in page.locator("#error").inner_text()
    assert page.locator("#source").input_value() == sentence  # kept, to be shortened by the user


def test_lattice_page_draws_the_lattice(page, server, tmp_path) -> None:
    helpers.lattice(page, server, ["the cat sat on the mat", "a cat sat on the rug"])
    drawing = page.locator("svg#lattice-drawing")
    assert drawing.is_visible()
    assert "4 paths" in page.locator("#lattice-size").inner_text()
    assert page.locator("#paths li").count() == 4
    words = {t.text_content() for t in drawing.locator("text").all()}
    assert {"cat", "mat", "rug"} <= words
    page.screenshot(path=str(tmp_path / "lattice.png"), full_page=True)


BATCH = ("The cat sat on the mat.\tA cat was sitting on the mat.\n"
         "a line without a tab\n"
         f"{XSS}\tan alert\n"
         "It rained all day.\tIt was raining the whole day.\n")


def _batch_rows(page) -> list[tuple[str, str, str]]:
    """The batch page's table: (line, source, score or reason) a row."""
    return [(row.locator("td").nth(0).inner_text(), row.locator("td").nth(2).inner_text(),
             row.locator("td").nth(4).inner_text()) for row in page.locator("#batch-rows tbody tr").all()]


def test_a_pasted_batch_is_scored_with_its_bad_line_reported(page, server, tmp_path) -> None:
    """Pairs pasted into the batch page, one line not a pair and one holding a script: a row a
    line in the table, the bad one with its reason, the script shown as text; the downloads
    are the command's output for the same input."""
    page.goto(server + "similarity/batch")
    assert "At most 1000 rows a request" in page.locator("#batch-limits").inner_text()
    page.fill("#pairs", BATCH)
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    rows = _batch_rows(page)
    assert [line for line, _, _ in rows] == ["1", "2", "3", "4"]
    assert rows[1] == ("2", "", "1 field, expected 2 TAB-separated sentences (source, target) or 3 fields (id, source, target)")
    assert rows[2][1] == XSS and float(rows[0][2]) > 0.5 and float(rows[3][2]) > 0.5
    assert page.locator("#bad-lines li").all_inner_texts() == ["line 2: 1 field, expected 2 TAB-separated sentences (source, target) or 3 fields (id, source, target)"]
    assert page.locator("script:not([src])").count() == 0 and page.dialogs == []
    assert page.locator("#pairs").input_value().replace("\r\n", "\n") == BATCH  # kept for another try
    with page.expect_download() as download:
        page.click("#download-tsv")
    saved = tmp_path / "scores.tsv"
    download.value.save_as(saved)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(BATCH, encoding="utf-8")
    main(["similarity", "--pairs", str(pairs), "-o", str(tmp_path / "cli.tsv")])
    assert saved.read_text(encoding="utf-8") == (tmp_path / "cli.tsv").read_text(encoding="utf-8")


def test_a_long_word_in_a_batch_wraps_instead_of_widening_the_page(page, server) -> None:
    page.goto(server + "similarity/batch")
    page.fill("#pairs", "z" * 480 + " cat\t" + "y" * 480 + " cat\n" + "q" * 600 + "\n")
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert page.locator("#batch-rows tbody tr").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 1100


def test_a_chosen_file_is_read_into_the_batch_form(page, server, tmp_path) -> None:
    """A file chosen on the batch page is read by the browser into the box (no upload), and its
    name is what the command line would be given."""
    chosen = tmp_path / "mine.jsonl"
    chosen.write_text('{"id": "a", "source": "The cat sat.", "target": "A cat sat."}\n{"id": "b"}\n', encoding="utf-8")
    page.goto(server + "similarity/batch")
    page.set_input_files("#file", str(chosen))
    page.wait_for_function("document.getElementById('pairs').value.length > 0")
    assert "mine.jsonl read into the box" in page.locator("#file-note").inner_text()
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    rows = page.locator("#batch-rows tbody tr")
    assert rows.count() == 2 and rows.nth(0).locator("td").nth(1).inner_text() == "a"
    assert "--pairs mine.jsonl" in page.locator("#summary").inner_text()


def test_the_batch_page_shows_its_body_limit_as_a_person_reads_it(page, server, tmp_path) -> None:
    """The page said "12353536 bytes in all", and a file over it was "12582912 bytes, over the
    12353536 a batch may take": both now in MiB, as the API's 413 says it."""
    big = tmp_path / "big.tsv"
    big.write_bytes(b"a\tb\n" * (12 * 2**20 // 4 + 1))
    page.goto(server + "similarity/batch")
    assert "11.8 MiB in all" in page.locator("#batch-limits").inner_text()
    page.set_input_files("#file", str(big))
    page.wait_for_function("document.getElementById('file-note').textContent.includes('big.tsv')")
    assert "it has 12 MiB, over the 11.8 MiB a batch may take" in page.locator("#file-note").inner_text()


def test_a_chosen_file_is_unpacked_when_gzip_and_refused_when_not_utf8(page, server, tmp_path) -> None:
    """The command reads a .gz file and refuses text that is not UTF-8; the page read gzip bytes
    as text, and Latin-1 with replacement marks, then scored what nobody wrote."""
    import gzip

    packed = tmp_path / "pairs.tsv.gz"
    packed.write_bytes(gzip.compress("Café au lait.\tA café au lait.\n".encode()))
    page.goto(server + "similarity/batch")
    page.set_input_files("#file", str(packed))
    page.wait_for_function("document.getElementById('pairs').value.length > 0")
    assert page.locator("#pairs").input_value() == "Café au lait.\tA café au lait.\n"
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("Caf\u00e9.\tA caf\u00e9.\n".encode("latin-1"))
    page.set_input_files("#file", str(latin))
    page.wait_for_function("document.getElementById('file-note').textContent.includes('latin.tsv')")
    assert "not UTF-8" in page.locator("#file-note").inner_text()
    assert page.locator("#pairs").input_value() == "Café au lait.\tA café au lait.\n"  # left as it was


def test_other_pages_and_the_api_docs_work_offline(page, server) -> None:
    page.goto(server + "paraphrases?phrase=cat&table=small.tsv")
    assert "feline" in page.locator("#paraphrases").inner_text()
    page.goto(server + "similarity?source=a+cat+sat&target=the+cat+sat")
    assert page.locator("#signals tr[data-signal=sultan2014] td").inner_text() == "1.0000"
    page.goto(server + "docs")
    assert page.locator("section.operation").count() == 7
    assert "POST /api/align" in page.locator("#op-post--api-align h2").inner_text()


@pytest.mark.parametrize("path", ["", "align?source=a+cat+sat&target=the+cat+sat", "lattice", "docs",
                                  "similarity/batch"])
def test_a_page_loads_with_no_console_error_or_failed_request(browser, server, path) -> None:
    """Every fresh page logged 'Failed to load resource: 404': the browser's /favicon.ico."""
    context = browser.new_context()
    try:
        tab = context.new_page()
        problems: list[str] = []
        tab.on("console", lambda message: message.type == "error" and problems.append(message.text))
        tab.on("response", lambda answer: answer.status >= 400 and problems.append(f"{answer.status} {answer.url}"))
        tab.goto(server + path, wait_until="networkidle")
        assert problems == []
    finally:
        context.close()


PHONE_PAGES = ("align?source=The+cat+sat+quietly+on+the+mat+in+the+morning.&target=In+the+morning+a+cat+sat.",
               "similarity?source=The+cat+sat+quietly+on+the+mat.&target=A+cat+sat.",
               "paraeval?hypothesis=the+cat+sat+on+the+mat+in+the+morning&references=a+cat+sat%0Athe+feline+sat+on+a+rug",
               "paraeval?config=paper&hypothesis=the+cat+sat&references=a+cat+sat", "lattice", "docs",
               "similarity/batch")


@pytest.mark.parametrize("path", PHONE_PAGES)
def test_on_a_phone_the_fields_take_the_width_and_nothing_scrolls_sideways(phone, server, path) -> None:
    """At 375 px the labels' column left the fields ~85 px wide, and ParaEval's signature (one
    long code) and the docs' tables made the whole page scroll sideways (661 and 650 px)."""
    phone.goto(server + path)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    for field in phone.locator("form.task input[type=text], form.task textarea").all():
        assert field.bounding_box()["width"] > 300


@pytest.mark.parametrize("path", ["paraeval?hypothesis=" + "z" * 500 + "&references=a+b",
                                  "lattice?sentences=" + "q" * 300 + "%0Aq+r", "paraphrases?phrase=" + "w" * 200,
                                  "align?source=" + "z" * 480 + "+cat&target=" + "z" * 480 + "+cat"])
def test_a_long_word_wraps_instead_of_widening_the_page(page, server, path) -> None:
    """One 500-letter word made the ParaEval page 4435 px wide (lattice 3111, paraphrases 2657;
    the align page's table of links 8248)."""
    page.goto(server + path)
    assert page.locator("#answer").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 1100


def test_the_docs_tables_keep_field_names_whole(page, server) -> None:
    """Breaking long words anywhere let the docs' tables break 'source' into 'sour ce'."""
    page.goto(server + "docs")
    names = page.locator("table.fields td:first-child code").all()
    assert len(names) > 10
    assert all(name.bounding_box()["height"] < 24 for name in names)


def test_an_svg_file_in_an_img_keeps_its_own_size(browser, tmp_path) -> None:
    """An <img> of a picture (as a README shows one) takes its size from the file: without width
    and height attributes a 324 px grid was drawn as wide as the page (1264 px)."""
    from paralign.alignment import Alignment
    from paralign.viz import AlignmentView, alignment_grid, svg_file

    view = AlignmentView(["The", "cat", "sat"], ["A", "cat", "sat"], Alignment.from_pharaoh("1-1 2-2"))
    root = alignment_grid(view)
    width, height = (float(v) for v in dict(root.attrs)["viewBox"].split()[2:])
    (tmp_path / "grid.svg").write_text(svg_file(root), encoding="utf-8")
    (tmp_path / "page.html").write_text('<!DOCTYPE html><body><img src="grid.svg"></body>', encoding="utf-8")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        tab = context.new_page()
        tab.goto((tmp_path / "page.html").as_uri())
        tab.wait_for_function("document.images[0].complete")
        shown = tab.evaluate("[document.images[0].width, document.images[0].height]")
        assert abs(shown[0] - width) <= 1 and abs(shown[1] - height) <= 1, (shown, width, height)
    finally:
        context.close()


def test_a_report_on_a_phone_does_not_scroll_sideways(browser, tmp_path) -> None:
    """A report's long code and a wide score table scroll in their own box, not the page."""
    from paralign.viz.html import Section
    from paralign.viz.html import page as html_page
    from paralign.viz.reports.parts import CSS, score_table
    from paralign.viz.svg import el

    result = {"signature": "nrefs:1|config:paper|maxlen:4|minpara:1|case:lc|tok:13a|stop:skip" * 2,
              "wide": "a_table_cell_with_no_break_" * 4}
    report = tmp_path / "report.html"
    report.write_text(html_page("report", [Section("scores", (el("code", result["signature"]), score_table(
        result, [("wide", "wide", False)])))], css=CSS), encoding="utf-8")
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    try:
        tab = context.new_page()
        tab.goto(report.as_uri())
        assert tab.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()


def test_a_long_align_page_keeps_its_names_colours_and_sizes_in_chromium(browser, tmp_path) -> None:
    """The page of many pairs writes a word's colour, anchor and baseline once per row, names a
    picture by its <title> alone and lays a picture out only near the window: in Chromium every
    word still has them, every picture its name, and a box far down its picture's height."""
    from paralign.alignment import Alignment
    from paralign.viz import AlignmentView, alignment_section, page

    source, target = ["the", "cat", "sat", "on", "the", "mat"], ["a", "cat", "was", "sitting", "on", "the", "rug"]
    view = AlignmentView(source, target, Alignment.from_links(sure=[(1, 1), (3, 4)], possible=[(2, 3)]))
    path = tmp_path / "pairs.html"
    path.write_text(page("pairs", [alignment_section(f"line {n}", view, ident=f"line-{n}") for n in range(1, 41)]),
                    encoding="utf-8")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(20_000)
    try:
        tab = context.new_page()
        tab.goto(path.as_uri())
        name = f"alignment grid: {' '.join(source)} / {' '.join(target)}"
        assert tab.get_by_role("img", name=name, exact=True).count() == 40
        assert tab.get_by_role("img", name=f"alignment: {' '.join(source)} / {' '.join(target)}").count() == 40
        last = "#line-40-grid"
        box = tab.evaluate(f"document.querySelector('{last}').parentElement.getBoundingClientRect().height")
        height = float(tab.get_attribute(last, "height"))
        skipped = f"!document.querySelector('{last}').checkVisibility({{contentVisibilityAuto: true}})"
        assert tab.evaluate(skipped) and abs(box - height) <= 1  # not yet drawn, yet as tall as its picture
        tab.locator(last).scroll_into_view_if_needed()
        tab.wait_for_function(f"!({skipped})")  # drawn once near the window
        shown = tab.evaluate(f"""() => {{
            const style = (e) => {{ const s = getComputedStyle(e); return [s.fill, s.textAnchor, s.dominantBaseline]; }};
            const svg = document.querySelector('{last}');
            return {{height: svg.getBoundingClientRect().height,
                    source: style(svg.querySelector('.source-word')), target: style(svg.querySelector('.target-word')),
                    lines: [...document.querySelectorAll('#line-40-lines .word')].map(style)}};
        }}""")
        assert abs(shown["height"] - height) <= 1
        assert shown["source"] == ["rgb(34, 34, 34)", "end", "central"]
        assert shown["target"] == ["rgb(34, 34, 34)", "start", "central"]
        ink, grey = ["rgb(34, 34, 34)", "middle", "auto"], ["rgb(107, 112, 121)", "middle", "auto"]
        assert shown["lines"][:4] == [grey, ink, ink, ink]  # "the" is unaligned, "cat sat on" are not
    finally:
        context.close()


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


def test_a_refused_reference_is_on_the_line_the_message_names(page, server) -> None:
    """The message names a refused reference by its line, but the box came back without its blank
    lines (and stripped): the named line 3 was then line 2 on the screen."""
    typed = "\n a cat sat \n\n" + "x" * 501 + "\n"
    page.goto(server + "paraeval")
    page.fill("#hypothesis", "the cat sat")
    page.fill("#references", typed)
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert "references (line 4): String should have at most 500 characters" in page.locator("#error").inner_text()
    assert page.locator("#references").input_value() == typed  # as typed, so line 4 is the long one
    page.fill("#references", "a cat sat\n\nthe cat sat")
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert page.locator("#references").input_value() == "a cat sat\n\nthe cat sat"
