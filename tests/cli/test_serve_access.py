"""`paralign serve` and a report as a keyboard or screen-reader user meets them, in a real
Chromium (Debian's `chromium`, driven by playwright, as in tests/cli/test_serve.py): every page
says its language, its headings do not skip a level, every field has a label, every table header
cells and every picture a name; the keyboard alone reaches the main controls in order, shows
where it is, and aligns two sentences. The server and browser are tests/cli/conftest.py's (one
server for the session, on a free loopback port); without a browser these tests skip, saying so
(in CI they fail)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(30_000)  # a page that hangs fails the test, not the run
    yield context.new_page()
    context.close()


#: What a screen reader needs of a page, read in the browser: the problems found (empty: none).
AUDIT = """() => {
  const problems = [];
  if (!document.documentElement.lang) problems.push('no lang on <html>');
  let previous = 0;
  for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const level = Number(h.tagName[1]);
    if (level > previous + 1) problems.push(`heading ${h.tagName} "${h.textContent}" after h${previous}`);
    previous = level;
  }
  for (const field of document.querySelectorAll('input, select, textarea')) {
    const named = [...(field.labels || [])].some(l => l.textContent.trim()) || field.getAttribute('aria-label');
    if (!named) problems.push(`a ${field.tagName} (${field.id || field.name}) without a label`);
  }
  for (const table of document.querySelectorAll('table'))
    if (!table.querySelector('th')) problems.push(`table ${table.id || table.className} without header cells`);
  for (const svg of document.querySelectorAll('svg')) {
    const title = svg.querySelector(':scope > title');
    if (svg.getAttribute('role') !== 'img' || !(title && title.textContent.trim()) && !svg.getAttribute('aria-label'))
      problems.push(`svg ${svg.id} without role="img" and a name`);
  }
  return problems;
}"""

PAGES = ["", "align?source=The+cat+sat+on+the+mat.&target=A+cat+was+sitting+on+the+mat.",
         "similarity?source=a+cat+sat&target=the+cat+sat",
         "paraeval?hypothesis=the+cat+sat&references=a+feline+sat%0Aa+dog&config=default",
         "paraeval?hypothesis=the+cat+sat&references=a+feline+sat&config=paper",
         "lattice?sentences=the+cat+sat%0Aa+cat+sat", "paraphrases?phrase=cat", "docs", "no-such-page"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_a_language_ordered_headings_labels_header_cells_and_named_pictures(page, server, path) -> None:
    page.goto(server + path)
    assert page.evaluate(AUDIT) == []


def _focused(page) -> dict:
    """The element the keyboard is on: its id, tag and outline as drawn."""
    return page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
        return {id: e.id || e.getAttribute('href') || '', tag: e.tagName, style: s.outlineStyle,
                width: parseFloat(s.outlineWidth)}; }""")


def _tab_through(page, count: int) -> list[dict]:
    found = []
    for _ in range(count):
        page.keyboard.press("Tab")
        found.append(_focused(page))
    return found


@pytest.mark.parametrize(("path", "controls"), [
    ("align", ["source", "target", "aligner", "preset", "submit"]),
    ("paraeval", ["hypothesis", "references", "config", "submit"]),
    ("lattice", ["sentences", "method", "submit"]),
    ("paraphrases", ["phrase", "table", "limit", "submit"]),
])
def test_the_keyboard_reaches_the_main_controls_in_order_and_shows_where_it_is(page, server, path, controls) -> None:
    """Tab from the top goes through the navigation, then the form's fields and its button, in
    the order they are read; each shows a visible outline while the keyboard is on it
    (Chromium's default was a 1 px ring; the pages' is 3 px)."""
    from paralign.web.pages import NAV

    page.goto(server + path)
    visited = _tab_through(page, 2 + len(NAV) + len(controls))
    assert [v["id"] for v in visited[:2 + len(NAV)]] == ["#main", "/", *[link for link, _ in NAV]]
    assert [v["id"] for v in visited[2 + len(NAV):]] == controls
    for where in visited:
        assert where["style"] != "none" and where["width"] >= 2, where


@pytest.mark.parametrize("path", ["", "align", "similarity/batch", "lattice", "docs", "no-such-page"])
def test_the_first_tab_reaches_a_skip_link_that_moves_focus_past_the_navigation(page, server, path) -> None:
    """Every page's form came after the navigation's tab stops (the home link and one a page):
    the first Tab now reaches a "Skip to content" link, hidden until then and shown while the
    keyboard is on it, and Enter moves the focus to the page's main part, from which the next Tab
    is the page's first field."""
    page.goto(server + path)
    skip = page.locator("a.skip")
    assert not skip.is_visible() or skip.bounding_box()["x"] + skip.bounding_box()["width"] <= 0
    page.keyboard.press("Tab")
    assert _focused(page)["id"] == "#main"
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    box = skip.bounding_box()
    assert skip.is_visible() and box["x"] >= 0 and box["y"] >= 0 and box["width"] > 0
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.tagName") == "MAIN"
    if path == "align":
        page.keyboard.press("Tab")
        assert _focused(page)["id"] == "source"


def test_two_sentences_are_aligned_with_the_keyboard_alone(page, server) -> None:
    page.goto(server + "align")
    _tab_through(page, page.locator("nav.top a").count() + 2)  # past the skip link and every navigation link
    assert _focused(page)["id"] == "source"
    page.keyboard.type("The cat sat.")
    page.keyboard.press("Tab")
    page.keyboard.type("A cat was sitting.")
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer, #error")
    assert page.locator("#links tr.link").count() >= 2
    # the lines view is behind a disclosure the keyboard opens
    summary = page.locator("#lines-view summary")
    summary.focus()
    assert _focused(page)["tag"] == "SUMMARY"
    page.keyboard.press("Enter")
    assert page.locator("#lines-view").get_attribute("open") is not None
    assert page.locator("svg#align-lines").is_visible()


def test_a_reports_filter_works_from_the_keyboard(page, tmp_path) -> None:
    """The evaluate-aligner report's filter (radio buttons, CSS alone): Tab reaches it with a
    visible outline, an arrow key picks the next choice, and the pairs without a missed link hide."""
    from paralign.cli import main

    report = tmp_path / "report.html"
    assert main(["demo", "--examples", str(ROOT / "examples" / "demo"), "--report", str(report)]) == 0
    page.goto(report.as_uri())
    assert page.evaluate(AUDIT) == []
    page.locator("#filter-all").focus()
    assert _focused(page)["width"] >= 2
    shown = page.locator("section.pair:visible").count()
    page.keyboard.press("ArrowRight")
    assert page.locator("#filter-missed").is_checked()
    assert 0 < page.locator("section.pair:visible").count() < shown


def test_a_picture_wider_than_the_paper_is_printed_whole(page, tmp_path) -> None:
    """On paper a picture cannot scroll: a grid wider than the page was cut at its right edge
    (in `align --format html` of 40 MSRP pairs, 2 grids of 885 and 1096 px in a 692 px column).
    Printed, it is shrunk to the column; on screen it keeps its size and scrolls in its box."""
    from paralign.alignment import Alignment
    from paralign.viz import AlignmentView, alignment_section
    from paralign.viz import page as html_page

    words = [f"word{n}" for n in range(45)]
    view = AlignmentView(words, words, Alignment.from_links(sure=[(n, n) for n in range(45)]))
    report = tmp_path / "wide.html"
    report.write_text(html_page("wide", [alignment_section("line 1", view, ident="line-1")]), encoding="utf-8")
    page.set_viewport_size({"width": 740, "height": 1000})  # A4 or Letter paper's width, less its margins
    page.goto(report.as_uri())
    fits = """() => { const svg = document.querySelector('#line-1-grid'), box = svg.parentElement;
                      return [svg.getBoundingClientRect().width, box.clientWidth, box.scrollWidth]; }"""
    natural = float(page.get_attribute("#line-1-grid", "width"))
    shown, column, _ = page.evaluate(fits)
    assert abs(shown - natural) <= 1 and natural > column  # on screen: its own size, scrolling
    page.emulate_media(media="print")
    shown, column, scrolled = page.evaluate(fits)
    assert shown <= column and scrolled <= column, (shown, column, scrolled)
    height = page.evaluate("document.querySelector('#line-1-grid').getBoundingClientRect().height")
    assert abs(height / shown - float(page.get_attribute("#line-1-grid", "height")) / natural) < 0.01  # not squashed


def test_a_comparison_of_four_systems_is_printed_with_every_column(page, tmp_path, monkeypatch) -> None:
    """`paraeval --report` of 4 systems: its table (score, bootstrap, ±, p, precision, recall, F)
    was 947 px wide in a 692 px column of paper, so precision, recall and F were cut off."""
    from paralign.cli import main

    monkeypatch.chdir(tmp_path)
    Path("ref.txt").write_text("the cat sat on the mat\na dog ran in the park\n", encoding="utf-8")
    systems = []
    for n, text in enumerate(["the cat sat on a mat\na dog ran in a park\n", "a cat sat on the mat\nthe dog ran\n",
                              "the cat is on the mat\na dog runs in the park\n", "cat mat\ndog park\n"]):
        systems += ["-i", f"online-{n}.txt"]
        Path(f"online-{n}.txt").write_text(text, encoding="utf-8")
    assert main(["paraeval", *systems, "-r", "ref.txt", "--paired-bs", "--confidence", "--resamples", "100",
                 "--report", "report.html"]) == 0
    page.set_viewport_size({"width": 740, "height": 1000})  # A4 or Letter paper's width, less its margins
    page.goto((tmp_path / "report.html").as_uri())
    page.emulate_media(media="print")
    right, column = page.evaluate("""() => [document.querySelector('table.scores').getBoundingClientRect().right,
                                            document.body.getBoundingClientRect().right]""")
    assert right <= column, (right, column)


def test_a_refused_form_says_so_in_the_pages_title(page, server) -> None:
    """A refused form came back under the same title as a good answer ('Align two sentences ·
    paralign'): a screen reader announces the title first, and a tab's name is all one sees of
    a page in the background. Now it starts 'Error: ', and only when something was refused."""
    page.goto(server + "align")
    page.fill("#source", "a " * 201)
    page.fill("#target", "b")
    page.click("#submit")
    page.wait_for_selector("#error")
    assert page.title() == "Error: Align two sentences · paralign"
    page.fill("#source", "a cat")
    page.click("#submit")
    page.wait_for_selector("#answer")
    assert page.title() == "Align two sentences · paralign"


@pytest.mark.parametrize(("path", "field"), [("align", "#source"), ("similarity", "#target"),
                                             ("paraeval", "#hypothesis"), ("paraeval", "#references"),
                                             ("lattice", "#sentences"), ("paraphrases", "#phrase")])
def test_a_right_to_left_sentence_is_typed_right_to_left(page, server, path, field) -> None:
    """A field took its direction from the page (left to right) whatever was typed: an Arabic
    sentence showed its full stop at the wrong end. Each text field now takes the direction of
    its text; an English one stays left to right."""
    page.goto(server + path)
    direction = f"document.querySelector('{field}').matches(':dir(rtl)')"
    page.fill(field, "القطة جلست على الحصيرة.")
    assert page.evaluate(direction)
    page.fill(field, "The cat sat on the mat.")
    assert not page.evaluate(direction)

