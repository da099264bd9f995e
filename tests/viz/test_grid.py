"""The alignment grid: cells by class and position, hatching, gold statuses, legend, escaping,
confidence shading, and a picture that grows (not overlaps) with long sentences."""

from __future__ import annotations

import math

import pytest

from paralign.alignment import Alignment
from paralign.viz.grid import CELL, SLANT, alignment_grid
from paralign.viz.lines import alignment_lines
from paralign.viz.marks import AlignmentView as View
from paralign.viz.style import PLAIN, STATUS_COLOURS
from paralign.viz.svg import FONT_SIZE, text_width

SOURCE = ["the", "cat", "sat", "<script>"]
TARGET = ["a", "cat", "was", "sitting", "&"]
SYSTEM = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 3)], possible=[(2, 2), (3, 4)])
GOLD = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 3), (3, 1)], possible=[(2, 2)])


def box(cell):
    """The (first) rect of a link's group."""
    return next(e for e in cell.iter() if e.tag.endswith("rect"))


def paints(svg, cell) -> set[str]:
    """The colours a cell is drawn in: its fill (or its hatching's stroke) and its border."""
    rect = box(cell)
    found = {rect.get("fill"), rect.get("stroke")} - {None, "white"}
    for value in list(found):
        if value.startswith("url(#"):
            pattern = next(p for p in svg.all("pattern") if p.get("id") == value[5:-1])
            found = (found - {value}) | {line.get("stroke") for line in pattern if line.tag.endswith("line")}
    return found


def test_sure_cells_are_filled_and_possible_cells_hatched(picture) -> None:
    svg = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM), ident="g"))
    sure, possible = svg.all(cls="sure"), svg.all(cls="possible")
    assert len(svg.all(cls="link")) == 5 and len(sure) == 3 and len(possible) == 2
    assert {(c.get("data-i"), c.get("data-j")) for c in possible} == {("2", "2"), ("3", "4")}
    assert all(box(c).get("fill") == PLAIN for c in sure)
    patterns = {p.get("id") for p in svg.all("pattern")}
    for cell in possible:
        fill = box(cell).get("fill")
        assert fill.startswith("url(#") and fill[5:-1] in patterns and fill[5:-1].startswith("g-")
    assert not svg.all(cls="correct") and not svg.all(cls="missed") and not svg.all(cls="wrong")


def test_cells_sit_in_their_row_and_column(picture) -> None:
    svg = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM)))
    rows = {int(t.get("data-i")): float(t.get("y")) for t in svg.all("text", "source-word")}
    columns = {int(t.get("data-j")): float(t.get("x")) for t in svg.all("text", "target-word")}
    assert sorted(rows) == [0, 1, 2, 3] and sorted(columns) == [0, 1, 2, 3, 4]
    for cell in svg.all(cls="link"):
        i, j, rect = int(cell.get("data-i")), int(cell.get("data-j")), box(cell)
        centre_x = float(rect.get("x")) + float(rect.get("width")) / 2
        centre_y = float(rect.get("y")) + float(rect.get("height")) / 2
        assert centre_x == pytest.approx(columns[j], abs=0.02) and centre_y == pytest.approx(rows[i], abs=0.02)


def test_tooltips_name_the_words_and_the_kind(picture) -> None:
    svg = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM)))
    titles = {(c.get("data-i"), c.get("data-j")): svg.title(c) for c in svg.all(cls="link")}
    assert titles[("1", "1")] == "cat ↔ cat (sure)"
    assert titles[("3", "4")] == "<script> ↔ & (possible)"


@pytest.mark.parametrize(("links", "expected"), [("sure", (3, 1, 2)), ("sure+possible", (4, 1, 1))])
def test_gold_colours_correct_missed_and_wrong(picture, links, expected) -> None:
    svg = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM, gold=GOLD, links=links)))
    cells = {status: svg.all(cls=status) for status in ("correct", "missed", "wrong")}
    assert tuple(len(cells[s]) for s in ("correct", "missed", "wrong")) == expected
    assert all("link" in c.get("class").split() for found in cells.values() for c in found)
    assert [(c.get("data-i"), c.get("data-j")) for c in cells["missed"]] == [("3", "1")]
    for status, found in cells.items():
        assert all(paints(svg, cell) == {STATUS_COLOURS[status]} for cell in found)
    assert len(set(STATUS_COLOURS.values())) == 3
    assert all(len(list(c.iter())) > 3 for c in cells["wrong"])  # title, box and a cross: not colour alone
    legend = [t.text for t in svg.all("text") if t.text and ":" in t.text]
    if links == "sure":  # a link on a gold possible link is wrong: the legend said "not in gold"
        assert legend == [f"correct (a gold sure link): {expected[0]}",
                          f"missed (gold sure link not found): {expected[1]}",
                          f"wrong (not a gold sure link): {expected[2]}"]
    else:
        assert legend == [f"correct (in gold): {expected[0]}", f"missed (gold link not found): {expected[1]}",
                          f"wrong (not in gold): {expected[2]}"]


def test_legend_without_gold_shows_only_the_kinds(picture) -> None:
    svg = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM)))
    entries = svg.all(cls="legend-entry")
    assert [e.get("data-entry") for e in entries] == ["sure", "possible"]
    empty = picture(alignment_grid(View(SOURCE, TARGET, Alignment(), gold=Alignment())))
    assert not empty.all(cls="link") and len(empty.all(cls="legend-entry")) == 5


def test_words_are_text_never_markup(picture) -> None:
    svg = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM)))
    assert "script" not in svg.tags()
    assert [t.text for t in svg.all("text", "source-word")] == SOURCE
    assert [t.text for t in svg.all("text", "target-word")] == TARGET


def test_confidence_shades_the_fill(picture) -> None:
    svg = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM, confidence={(1, 1): 0.5, (0, 0): 1.0})))
    cells = {(c.get("data-i"), c.get("data-j")): c for c in svg.all(cls="link")}
    assert float(box(cells[("1", "1")]).get("fill-opacity")) == pytest.approx(0.6)
    assert float(box(cells[("0", "0")]).get("fill-opacity")) == pytest.approx(1.0)
    assert box(cells[("2", "3")]).get("fill-opacity") is None  # no confidence: full shade
    # a pale fill keeps an outline in the full colour (the fill alone was below 3:1 on the grid)
    assert box(cells[("1", "1")]).get("stroke") == PLAIN and box(cells[("2", "3")]).get("stroke") is None
    assert cells[("1", "1")].get("data-confidence") == "0.500"


def _extent(svg) -> tuple[float, float]:
    """How far right and how high the slanted target words reach (from their anchor and width)."""
    cos, sin = math.cos(math.radians(SLANT)), math.sin(math.radians(SLANT))
    right = max(float(t.get("x")) + text_width(t.text) * cos for t in svg.all("text", "target-word"))
    top = min(float(t.get("y")) - text_width(t.text) * sin - FONT_SIZE / 2 for t in svg.all("text", "target-word"))
    return right, top


def test_long_sentences_make_a_bigger_picture_not_overlapping_words(picture) -> None:
    words = [f"word{k}" for k in range(60)]
    long = picture(alignment_grid(View(words, list(reversed(words)), Alignment.from_links([(k, 59 - k) for k in range(60)]))))
    short = picture(alignment_grid(View(SOURCE, TARGET, SYSTEM)))
    _, _, long_w, long_h = long.viewbox()
    _, _, short_w, short_h = short.viewbox()
    assert long_w > 60 * CELL and long_h > 60 * CELL and long_w > 4 * short_w and long_h > 4 * short_h
    assert f"width: {long_w:g}px" in long.root.get("style")  # natural size: a browser scrolls it
    xs = [float(t.get("x")) for t in long.all("text", "target-word")]
    ys = [float(t.get("y")) for t in long.all("text", "source-word")]
    assert all(b - a == pytest.approx(CELL, abs=0.02) for a, b in zip(xs, xs[1:], strict=False))
    assert all(b - a == pytest.approx(CELL, abs=0.02) for a, b in zip(ys, ys[1:], strict=False))
    # slanted words one cell apart: the distance between two neighbours' baselines exceeds a line of text
    assert CELL * math.sin(math.radians(SLANT)) > FONT_SIZE
    right, top = _extent(long)
    assert right <= long_w and top >= 0
    lefts = [float(t.get("x")) - text_width(t.text) for t in long.all("text", "source-word")]
    assert min(lefts) >= 0
    assert len(long.all(cls="link")) == 60


def test_long_words_are_shortened_with_the_whole_word_as_tooltip(picture) -> None:
    word = "Donaudampfschifffahrtsgesellschaftskapitän"
    svg = picture(alignment_grid(View([word], ["captain"], Alignment.from_links([(0, 0)]))))
    label = svg.all("text", "source-word")[0]
    assert label.text is None or len("".join(label.itertext())) < len(word)
    assert svg.title(label) == word


@pytest.mark.parametrize("draw", [alignment_grid, alignment_lines])
def test_the_legend_says_what_the_shading_of_a_confidence_means(picture, draw) -> None:
    """A link's confidence made it paler (the grid) or thinner (the lines), and nothing on the
    picture said so."""
    shaded = picture(draw(View(SOURCE, TARGET, SYSTEM, confidence={(1, 1): 0.5, (0, 0): 1.0})))
    entries = shaded.all(cls="legend-entry")
    assert entries[-1].get("data-entry") == "confidence"
    shading = "paler" if draw is alignment_grid else "thinner"
    assert f"{shading}: less confident" in "".join(entries[-1].itertext())
    plain = picture(draw(View(SOURCE, TARGET, SYSTEM)))
    assert [e.get("data-entry") for e in plain.all(cls="legend-entry")] == ["sure", "possible"]


def _long(n: int) -> View:
    """A pair of `n` short words a side, each aligned to its own."""
    words = ["w"] * n
    return View(words, words, Alignment.from_links([(k, k) for k in range(n)]))


@pytest.mark.parametrize("draw", [alignment_grid, alignment_lines], ids=["grid", "lines"])
def test_a_pair_too_large_to_draw_is_refused_as_a_lattice_is(draw) -> None:
    """A pair of 3,000 words a side was drawn 72,084 x 72,125 px (its lines 149,511 px wide): no
    SVG renderer draws that (cairo, and so rsvg-convert, stops at 32,767 px a side). It is
    refused with the size it would have and what holds it instead, in the words and by the rule
    of a lattice too large to draw (viz.svg.check_side)."""
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=r"a pair of 3,000 and 3,000 words is too large to draw: its "
                       r"picture would be [\d,]+ x [\d,]+ px, over the 32,767 px a side") as refused:
        draw(_long(3000))
    assert "--format text" in str(refused.value) and "Alignment.to_pharaoh" in str(refused.value)


def test_the_largest_drawable_grid_stays_within_the_bound(picture) -> None:
    """The bound costs no pair that can be drawn: the largest grid drawn is within 10% of it."""
    from paralign.errors import ConfigurationError
    from paralign.viz.svg import MAX_SIDE

    def fits(n: int) -> bool:
        try:
            alignment_grid(_long(n))
        except ConfigurationError:
            return False
        return True

    drawable = next(n for n in range(1400, 1000, -10) if fits(n))
    _, _, width, height = picture(alignment_grid(_long(drawable))).viewbox()
    assert MAX_SIDE * 0.9 < max(width, height) <= MAX_SIDE
