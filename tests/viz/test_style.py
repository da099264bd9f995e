"""The colours of the pictures and pages, as a reader with low vision or a colour-vision
deficiency meets them: WCAG 2.2 contrast ratios (1.4.3: text 4.5:1; 1.4.11: a meaningful mark,
a link's cell or line, a legend swatch, a tier's border, 3:1) computed from the palette and the
stylesheets, and the gold statuses still apart under simulated protanopia, deuteranopia and
tritanopia. Pure Python, no browser."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from paralign.alignment import Alignment
from paralign.viz import html, lattice, scatter
from paralign.viz.grid import alignment_grid
from paralign.viz.lines import alignment_lines
from paralign.viz.marks import AlignmentView as View
from paralign.viz.reports import paraeval, parts
from paralign.viz.style import FAINT, INK, PLAIN, STATUS_COLOURS, UNALIGNED

WHITE = "#ffffff"
WEB_CSS = Path(__file__).resolve().parents[2] / "src" / "paralign" / "web" / "static" / "paralign.css"
TEXT, MARK = 4.5, 3.0


def _linear(colour: str) -> list[float]:
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    channels = [int(value[k:k + 2], 16) / 255 for k in (0, 2, 4)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def _luminance(linear: list[float]) -> float:
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two sRGB colours (1 to 21)."""
    high, low = sorted((_luminance(_linear(a)), _luminance(_linear(b))), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula_gives_wcags_reference_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic just-fails grey
    assert contrast("#E69F00", "#ffffff") == pytest.approx(2.25, abs=0.01)


# -- the pictures' palette -------------------------------------------------------------------

@pytest.mark.parametrize("status", sorted(STATUS_COLOURS))
def test_every_status_colour_is_3_to_1_on_the_grid_and_on_white(status) -> None:
    """A missed link was #E69F00, 2.1:1 on the grid's background (2.25:1 on white), a wrong one
    #CC79A7, 2.8:1: a reader with low vision lost them (WCAG 1.4.11 asks 3:1 of a mark)."""
    for background in (FAINT, WHITE):
        assert contrast(STATUS_COLOURS[status], background) >= MARK, (status, background)


def test_words_and_links_without_gold_are_readable() -> None:
    for background in (FAINT, WHITE):
        assert contrast(PLAIN, background) >= MARK
        assert contrast(INK, background) >= TEXT
    assert contrast(UNALIGNED, WHITE) >= TEXT


def test_the_lattice_and_scatter_marks_are_3_to_1() -> None:
    """The start state's pale green fill was 1.4:1 against the white of the other states."""
    assert contrast(lattice.START_FILL, WHITE) >= MARK
    assert contrast(lattice.EDGE_INK, WHITE) >= MARK
    assert contrast(scatter.DOT, FAINT) >= MARK and contrast(scatter.LINE, FAINT) >= MARK


def test_a_scatter_dot_is_outlined_in_its_full_colour(picture) -> None:
    """A dot's translucent fill (opacity 0.7, so overlapping dots show) was 2.9:1 on the plot."""
    svg = picture(scatter.scatter([scatter.Point(0, 0), scatter.Point(1, 1)], x_label="x", y_label="y", title="t"))
    dots = svg.all("circle", "point")
    (group,) = svg.all("g", "points")  # the dots' paint is their group's
    assert len(dots) == 2 and {d.get("stroke") or group.get("stroke") for d in dots} == {scatter.DOT}


# Machado, Oliveira & Fernandes (2009), severity 1: linear RGB as a dichromat sees it.
DICHROMATS = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
    "trichromat": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _lab(colour: str, matrix) -> tuple[float, float, float]:
    """CIELAB (D65) of `colour` as seen through `matrix`."""
    rgb = _linear(colour)
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


#: The least colour difference (CIELAB ΔE) between two statuses for any reader: Okabe & Ito's
#: own orange and reddish purple were 17 apart for a tritanope; the darkened ones are 28.
DISTINCT = 20.0


@pytest.mark.parametrize("vision", sorted(DICHROMATS))
def test_the_statuses_stay_apart_for_colour_blind_readers(vision) -> None:
    """Darkening the palette for contrast must not merge two statuses for a dichromat (each
    status has its own shape in the grid too: filled, an empty box, crossed)."""
    labs = {status: _lab(colour, DICHROMATS[vision]) for status, colour in STATUS_COLOURS.items()}
    for a, b in itertools.combinations(labs, 2):
        difference = sum((p - q) ** 2 for p, q in zip(labs[a], labs[b], strict=True)) ** 0.5
        assert difference >= DISTINCT, (vision, a, b, round(difference, 1))


# -- what the pictures draw ------------------------------------------------------------------

SOURCE, TARGET = ["the", "cat", "sat"], ["a", "cat", "was", "sitting"]
SYSTEM = Alignment.from_links(sure=[(0, 0), (1, 1)], possible=[(2, 3), (2, 2)])
GOLD = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 2), (0, 1)])
#: Every link shaded, the least confident at 0.
CONFIDENCE = {(0, 0): 0.0, (1, 1): 0.1, (2, 3): 0.5, (2, 2): 1.0}


def _paints(picture, element) -> list[str]:
    """The colours a link's element or its legend swatch draws at full opacity: its outline
    (stroke without stroke-opacity) and its fill when opaque, hatching's colour for a pattern."""
    shown = []
    for node in element.iter():
        fill, stroke = node.get("fill"), node.get("stroke")
        opaque = node.get("fill-opacity") in (None, "1")
        if fill and fill.startswith("url(#") and opaque:
            pattern = next(p for p in picture.all("pattern") if p.get("id") == fill[5:-1])
            shown += [line.get("stroke") for line in pattern.iter() if line.get("stroke")]
        elif fill and fill.startswith("#") and opaque:
            shown.append(fill)
        if stroke and stroke.startswith("#") and node.get("stroke-opacity") in (None, "1"):
            shown.append(stroke)
    return shown


@pytest.mark.parametrize("draw", [alignment_grid, alignment_lines])
@pytest.mark.parametrize("gold", [None, GOLD])
def test_every_link_and_swatch_shows_a_colour_at_3_to_1(picture, draw, gold) -> None:
    """A link of confidence 0.1 was drawn at opacity 0.28: 1.5:1 on the grid, a link nobody with
    low vision saw. Every link and legend swatch must now show some colour at full strength
    that is 3:1 on the grid's background (the lines view: on white)."""
    svg = picture(draw(View(SOURCE, TARGET, SYSTEM, gold=gold, confidence=CONFIDENCE)))
    background = FAINT if draw is alignment_grid else WHITE
    marks = svg.all(cls="link") + [e[0] for e in svg.all(cls="legend-entry")]
    assert len(marks) > len(SYSTEM.possible)
    for mark in marks:
        paints = _paints(svg, mark)
        assert paints and max(contrast(p, background) for p in paints) >= MARK, (mark.get("class"), paints)


def test_the_least_confident_line_is_thin_not_faint(picture) -> None:
    svg = picture(alignment_lines(View(SOURCE, TARGET, SYSTEM, confidence=CONFIDENCE)))
    widths = {(line.get("data-i"), line.get("data-j")): float(line.get("stroke-width"))
              for line in svg.all("line", "link")}
    assert widths[("0", "0")] == pytest.approx(1.0)
    assert widths[("0", "0")] < widths[("2", "3")] < widths[("2", "2")]
    assert all(line.get("stroke-opacity") is None for line in svg.all("line"))


# -- the pages' stylesheets -------------------------------------------------------------------

#: Rules whose text sits on another rule's background (the page is white elsewhere).
CONTEXT = {"nav.top a": "#f4f6f8", "nav.top a.home": "#f4f6f8"}
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")


def _rules(css: str) -> list[tuple[str, dict[str, str]]]:
    """(selector, {property: value}) of every rule of `css` (inside @media too)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = []
    for selector, body in RULE.findall(css):
        declarations = dict(part.split(":", 1) for part in body.split(";") if ":" in part)
        found.append((" ".join(selector.split()), {k.strip(): v.strip() for k, v in declarations.items()}))
    return found


STYLESHEETS = {"pages": html.CSS, "reports": parts.CSS, "tiers": paraeval.TIER_CSS,
               "web": WEB_CSS.read_text(encoding="utf-8")}


@pytest.mark.parametrize("sheet", sorted(STYLESHEETS))
def test_every_text_colour_is_4_5_to_1_on_its_background(sheet) -> None:
    rules = _rules(STYLESHEETS[sheet])
    checked = 0
    for selector, props in rules:
        if "color" not in props and "background" not in props:
            continue
        text = HEX.search(props.get("color", INK))
        ground = HEX.search(props.get("background", CONTEXT.get(selector, WHITE)))
        if text is None or ground is None:
            continue
        checked += 1
        assert contrast(text.group(), ground.group()) >= TEXT, (sheet, selector)
    assert checked


def test_a_paraeval_tiers_border_is_3_to_1_on_its_background_and_the_page() -> None:
    """A tier's border is its shape (solid, dotted, dashed, double), what tells tiers apart
    without colour; the synonym tier's dotted green was 2.9:1 on its own background and the
    contextual tier's double rose 2.6:1."""
    tiers = [(s, p) for s, p in _rules(paraeval.TIER_CSS) if s.startswith(".tier-") and "border" in p]
    assert len(tiers) == 4
    for selector, props in tiers:
        border = HEX.search(props["border"]).group()
        for ground in (HEX.search(props["background"]).group(), WHITE):
            assert contrast(border, ground) >= MARK, (selector, ground)


def test_the_keyboard_focus_outline_is_thick_and_3_to_1_on_every_background() -> None:
    """Chromium's own focus ring was 1 px; the pages draw 3 px in a colour that stands out on
    the page, the navigation bar and a code box (WCAG 2.4.7, 1.4.11)."""
    (outline,) = [props["outline"] for selector, props in _rules(html.CSS) if selector == ":focus-visible"]
    assert int(outline.split("px")[0]) >= 2
    for ground in (WHITE, FAINT, "#fdf6e3", "#fbeae8"):
        assert contrast(HEX.search(outline).group(), ground) >= MARK


def test_a_hatching_stripe_lies_whole_inside_its_tile() -> None:
    """The stripe was drawn at the tile's edge (x=0), so half of its 3 px was clipped: possible
    links were hatched with 1.5 px stripes, paler than meant. Now it is whole inside the tile."""
    import xml.etree.ElementTree as ET

    from paralign.viz.style import hatch_patterns

    defs = ET.fromstring(hatch_patterns("p", ["#0072B2", "#D55E00"]).to_xml())
    patterns = defs.findall("pattern")
    assert len(patterns) == 2
    for pattern in patterns:
        width, line = float(pattern.get("width")), pattern.find("line")
        half = float(line.get("stroke-width")) / 2
        for x in (float(line.get("x1")), float(line.get("x2"))):
            assert half <= x <= width - half
