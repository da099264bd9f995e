"""`paralign serve`, used the way a person uses it: a real Chromium (Debian's `chromium`, driven
by playwright) types into the pages of a server started on a free loopback port.

The server and browser are tests/cli/conftest.py's, its helpers benchmarks/screenshots.py's (the README's screenshots are
taken the same way). Without a browser these tests skip, saying so, except in CI (``CI`` set),
where a missing browser fails them: `.ci/run` installs Debian's chromium.
"""

from __future__ import annotations

import paralign_screenshots as helpers  # benchmarks/screenshots.py, loaded by tests/cli/conftest.py
import pytest

from paralign.cli import main

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
    assert "source: has 608 characters; it may have at most 500 characters" in page.locator("#error").inner_text()
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
    assert rows[1] == ("2", "", "1 field, expected 2 TAB-separated sentences (first, second) or 3 fields (id, first, second)")
    assert rows[2][1] == XSS and float(rows[0][2]) > 0.5 and float(rows[3][2]) > 0.5
    assert page.locator("#bad-lines li").all_inner_texts() == ["line 2: 1 field, expected 2 TAB-separated sentences (first, second) or 3 fields (id, first, second)"]
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
    """The command reads a .gz file and reports lines that are not UTF-8; the page read gzip bytes
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


def test_a_file_not_utf8_is_refused_naming_its_lines_in_words_true_of_the_command(page, server, tmp_path,
                                                                                  capsys) -> None:
    """The page said "it is not UTF-8 text (paralign similarity reads UTF-8): convert it first; or
    score it with paralign similarity --pairs FILE": the command refused and offered at once. The
    command reads such a file, reporting each line that is not UTF-8 in its place and scoring the
    others: the page names those lines, and says what the command does with them."""
    latin = tmp_path / "latin.tsv"
    latin.write_bytes(b"The cat sat.\tA cat sat.\n" + "Caf\u00e9.\tA caf\u00e9.\n".encode("latin-1")
                      + b"It rained.\tIt was raining.\n")
    page.goto(server + "similarity/batch")
    box, note = _chosen(page, latin)
    assert note == ("latin.tsv was not read: line 2 is not UTF-8 text: re-encode it as UTF-8 and choose it again "
                    "(paralign similarity --pairs FILE scores its other lines and reports that one in place)")
    assert box == ""
    twice = tmp_path / "twice.tsv"
    twice.write_bytes(latin.read_bytes() + "\u00e9\tb\n".encode("latin-1"))
    assert _chosen(page, twice)[1].startswith("twice.tsv was not read: 2 lines are (the first: line 2) not UTF-8 text")
    assert main(["similarity", "--pairs", str(latin), "--aligner", "exact"]) == 0  # what the note says it does
    out, err = capsys.readouterr()
    assert out.splitlines()[1] == "NA" and out.splitlines()[0] != "NA" and f"{latin}:2: not UTF-8" in err


def test_pairs_over_the_batch_limit_are_not_sent_and_stay_in_the_box(page, server) -> None:
    """Pasted pairs over the bytes a batch may take were sent, and the server's 413 error page took
    their place on the screen: the page does not send them, says why, and keeps them to split."""
    page.goto(server + "similarity/batch")
    limit = int(page.locator("#file").get_attribute("data-max-bytes"))
    assert limit > 10 * 2**20  # the server's; lowered below, as 12 MB in a box is slow to lay out
    page.locator("#file").evaluate("input => { input.dataset.maxBytes = '2048'; }")
    pasted = "The cat sat on the mat.\tA cat was sitting on the mat.\n" * 50
    page.locator("#pairs").evaluate("(box, text) => { box.value = text; }", pasted)
    page.click("#submit")
    page.wait_for_selector("#error")
    assert page.url == server + "similarity/batch"  # nothing was sent
    said = page.locator("#error").inner_text()
    assert said.startswith("Not sent: the sentence pairs take ") and "over the 2 KiB a batch may take" in said
    assert page.locator("#pairs").input_value() == pasted
    page.locator("#pairs").evaluate("(box, text) => { box.value = text; }", pasted[:1000])
    page.click("#submit")
    page.wait_for_selector("#answer")  # within the limit: sent and scored


def _chosen(page, path) -> tuple[str, str]:
    """The batch page's box and note after `path` is chosen as its file."""
    page.set_input_files("#file", str(path))
    page.wait_for_function(f"document.getElementById('file-note').textContent.includes({path.name!r})")
    return page.locator("#pairs").input_value(), page.locator("#file-note").inner_text()


def test_a_gzip_file_of_several_members_is_read_as_paralign_similarity_reads_it(page, server, tmp_path) -> None:
    """Concatenated gzip (``cat a.gz b.gz``) is one gzip file to paralign similarity, which reads
    every member (zero bytes after a member skipped); Chromium's DecompressionStream refuses the
    bytes after the first member's end, and the page refused the file. Bytes after the gzip data
    that are no member, and a member cut short, are refused as the command refuses them."""
    import gzip

    first, second = "Café au lait.\tA café au lait.\n", "The cat sat.\tA cat sat.\n" * 40
    members = gzip.compress(first.encode()) + gzip.compress(second.encode())
    page.goto(server + "similarity/batch")
    files = {"two.tsv.gz": members, "padded.tsv.gz": gzip.compress(first.encode()) + bytes(100) + members + bytes(9),
             "empty.tsv.gz": gzip.compress(b"") + members, "junk.tsv.gz": members + b"junk",
             "cut.tsv.gz": members[:-5], "trailing.tsv.gz": gzip.compress(first.encode()) + bytes(50)}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    assert _chosen(page, tmp_path / "two.tsv.gz")[0] == first + second
    assert _chosen(page, tmp_path / "padded.tsv.gz")[0] == first + first + second
    box, note = _chosen(page, tmp_path / "trailing.tsv.gz")  # one member, then only zeros
    assert box == first and "read into the box" in note
    box, note = _chosen(page, tmp_path / "empty.tsv.gz")
    assert box == first + second and "read into the box" in note
    box, note = _chosen(page, tmp_path / "junk.tsv.gz")
    assert box == first + second and "was not read" in note  # the box kept what it held
    box, note = _chosen(page, tmp_path / "cut.tsv.gz")
    assert "gzip data cut short (truncated file)" in note and box == first + second


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


def test_a_refused_reference_is_on_the_line_the_message_names(page, server) -> None:
    """The message names a refused reference by its line, but the box came back without its blank
    lines (and stripped): the named line 3 was then line 2 on the screen."""
    typed = "\n a cat sat \n\n" + "x" * 501 + "\n"
    page.goto(server + "paraeval")
    page.fill("#hypothesis", "the cat sat")
    page.fill("#references", typed)
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert "references (line 4): has 501 characters; it may have at most 500 characters" in page.locator("#error").inner_text()
    assert page.locator("#references").input_value() == typed  # as typed, so line 4 is the long one
    page.fill("#references", "a cat sat\n\nthe cat sat")
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert page.locator("#references").input_value() == "a cat sat\n\nthe cat sat"
