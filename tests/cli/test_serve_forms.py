"""`paralign serve`'s pages whose form is sent in the URL (align, similarity, ParaEval, lattice,
paraphrases), given more than a form may hold: a legal form that reaches the server in pieces
is read whole, and a pasted megabyte is not sent but refused by the page, saying why
(web/static/forms.js). The server and browser are tests/cli/conftest.py's."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlencode, urlsplit

import pytest


@pytest.fixture()
def page(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    tab = context.new_page()
    yield tab
    context.close()


@pytest.mark.parametrize(("path", "field", "limit"), [
    ("align", "#source", "at most 500 characters"),
    ("paraeval", "#references", "at most 8 lines of at most 500 characters each"),
    ("lattice", "#sentences", "at most 10 lines of at most 300 characters each"),
    ("paraphrases", "#phrase", "at most 200 characters")])
def test_a_pasted_megabyte_is_refused_by_the_page_not_the_http_server(page, server, path, field, limit) -> None:
    """Sent in the URL, 2 MB were refused by the HTTP server ("Invalid HTTP request received"):
    Chromium showed its own "HTTP ERROR 400" page and the text was gone. The page says what the
    field may hold, in characters and lines a user can act on (it named only GET /api/info and
    the command line)."""
    # over what the HTTP server reads of a request's head, as a pasted megabyte is; not 2 MB, whose
    # layout in a textarea (300,000 wrapped words) held Chromium's page for over 30 s with both
    # cores busy (the test failed in 2 of its 4 fields, every run)
    from paralign.web.models import REQUEST_HEAD_BYTES

    pasted = ("a word " * 50_000)[:300_000]
    assert len(pasted) > REQUEST_HEAD_BYTES
    page.goto(server + path)
    for required in page.locator("form [required]").all():
        required.fill("the cat")
    # the value set as a paste leaves it: page.fill inserts the text through Chromium's editing
    page.locator(field).evaluate("(box, text) => { box.value = text; box.dispatchEvent(new Event('input')); }",
                                 pasted)
    page.click("#submit")
    page.wait_for_selector("#error")
    assert page.url == server + path  # nothing was sent
    assert page.locator("#error").inner_text().startswith("Not sent: the ")
    assert "300,000 characters" in page.locator("#error").inner_text()
    assert f"this page takes {limit}. Shorten it" in page.locator("#error").inner_text()
    assert page.locator(field).evaluate("box => box.value.length") == 300_000  # kept, to be shortened


def test_a_short_form_is_still_sent(page, server) -> None:
    page.goto(server + "paraphrases")
    page.fill("#phrase", "cat")
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert "phrase=cat" in page.url and page.locator("#answer").count() == 1


def test_a_legal_form_that_arrives_in_pieces_is_read_whole(server) -> None:
    """Eight references of 300 characters of Japanese make a 24 KiB URL, within the limits.
    Sent over a network it arrives in segments, and uvicorn's parser kept at most 16 KiB of a
    request line not yet whole: the server closed the connection (a bare 400) where on
    loopback, in one piece, the page answered."""
    query = urlencode({"hypothesis": "猫" * 300, "references": "\n".join(["猫が座った" * 60] * 8), "config": "paper"})
    request = f"GET /paraeval?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    assert 20_000 < len(request) < 64 * 1024
    address = urlsplit(server)
    with socket.create_connection((address.hostname, address.port), timeout=60) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            for start in range(0, len(request), 1400):  # an Ethernet segment's worth at a time
                connection.sendall(request[start:start + 1400])
                time.sleep(0.002)
            answer = connection.recv(100)
        except (BrokenPipeError, ConnectionResetError):  # refused part way
            answer = b""
    assert answer.startswith(b"HTTP/1.1 200"), answer


def _chosen_note(page, server, path) -> str:
    """The batch page's note on choosing the file at `path`."""
    page.goto(server + "similarity/batch")
    page.set_input_files("#file", str(path))
    page.wait_for_function(f"document.getElementById('file-note').textContent.includes('{path.name}')")
    return page.locator("#file-note").inner_text()


def test_a_chosen_gzip_that_cannot_be_unpacked_is_refused_in_words(page, server, tmp_path) -> None:
    """A file starting with gzip's magic bytes but not gzip data was refused with the browser's
    words, "Failed to fetch"; the note now says what the command says of it."""
    import gzip

    packed = gzip.compress(b"a\tb\n" * 500)
    damaged = bytearray(packed)
    damaged[10:14] = b"\xff\xff\xff\xff"  # the deflate stream's first bytes
    # two members (packed + packed) are read now, as the command reads them: test_serve.py
    for name, data in (("fake.gz", b"\x1f\x8bnot gzip at all"), ("damaged.tsv.gz", bytes(damaged)),
                       ("crc.tsv.gz", packed[:-8] + bytes(4) + packed[-4:])):
        (tmp_path / name).write_bytes(data)
        note = _chosen_note(page, server, tmp_path / name)
        assert "cannot be unpacked here (not gzip data, or damaged)" in note, note
        assert "Failed to fetch" not in note and "or score it with paralign similarity --pairs FILE" in note, note
        assert page.locator("#pairs").input_value() == ""


@pytest.mark.parametrize("cut", [8, 4, 1, 300])
def test_a_chosen_gzip_cut_short_is_refused_as_the_command_refuses_it(page, server, tmp_path, cut) -> None:
    """A gzip file cut short (its trailer, or more, missing) is "gzip data cut short (truncated
    file)" to paralign similarity; the page said "not gzip data, or cut short", and offered the
    command, which refuses it too. It tells the two apart by where the browser's unpacking fails:
    on closing a stream that took all the data (cut short), or on the data."""
    import gzip

    packed = gzip.compress("".join(f"The cat {i} sat.\tA cat {i} sat.\n" for i in range(300)).encode())
    path = tmp_path / "cut.tsv.gz"
    path.write_bytes(packed[:-cut])
    note = _chosen_note(page, server, path)
    assert note == "cut.tsv.gz was not read: gzip data cut short (truncated file), as paralign similarity says of it"
    assert page.locator("#pairs").input_value() == ""


def test_the_batch_page_notes_a_guessed_layout_and_reads_it_as_chosen(page, server) -> None:
    """Pairs numbered 1, 2 are read as ids, which the command notes (they could be gold scores)
    and the page did not; nor could it read them the other way. The note is shown, and the
    input format chosen reads them as `--input-format sts` does, kept selected for another try."""
    page.goto(server + "similarity/batch")
    page.fill("#pairs", "1\tA cat sat.\tA cat was sitting.\n2\tThe dog ran.\tA dog was running.\n")
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    notes = " ".join(page.locator("#answer .note.warning").all_inner_texts())
    assert "pasted: the first fields (1, 2) count up as ids do" in notes and "give --input-format sts" in notes
    assert page.locator("#batch-rows tbody tr").nth(0).locator("td").nth(1).inner_text() == "1"  # its id
    page.select_option("#input_format", "sts")
    page.click("#submit")
    page.wait_for_selector("#answer, #error")
    assert page.locator("#answer .note.warning").count() == 0
    assert page.locator("#batch-rows tbody tr").nth(0).locator("td").nth(1).inner_text() == ""  # a gold score, dropped
    assert "--input-format sts" in page.locator("#summary").inner_text()
    assert page.locator("#input_format").input_value() == "sts"
