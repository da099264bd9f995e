"""How Chromium shows what paralign writes as files (an SVG picture in an <img>, a report on a
phone, a long align page): Debian's `chromium` driven by playwright, the browser of
tests/cli/conftest.py. Without a browser these tests skip, saying so, except in CI (``CI`` set).
"""

from __future__ import annotations


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
