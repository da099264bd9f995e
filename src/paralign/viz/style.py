"""How the alignment pictures look: the colours, hatching and legend the grid and lines share.

Colours are Okabe & Ito's colour-blind-safe hues, the orange and the reddish purple darkened so
that every mark keeps 3:1 against the grid's background (WCAG 1.4.11: #E69F00 was 2.1:1 and
#CC79A7 2.8:1 on it) while the three statuses stay apart for protan, deutan and tritan readers
(tests/viz/test_style.py checks both). Against gold each status also has its own
shape (in the grid correct: filled, missed: an empty box with a thick border, wrong: filled and
crossed; in the lines view correct: solid, missed: dotted, wrong: crossed at its middle), so no
reader depends on colour alone. Sure links are filled or solid, possible links
hatched or dashed. A confidence in [0, 1] sets the opacity of a link's fill in the grid (the box
keeps an outline in its full colour, so the palest link is still seen) and the width of its line
in the lines view (a pale line was below 3:1 on white); the legend then shows a sample.

Not for: where things go in a picture (:mod:`.grid`, :mod:`.lines`) or terminal colours
(:mod:`.terminal`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .marks import CORRECT, MISSED, POSSIBLE, STATUSES, SURE, WRONG, LinkMark, status_counts
from .svg import Element, el, group, num, text_width

#: Links without gold.
PLAIN = "#38414d"
#: Links against gold, by status (Okabe & Ito's blue, and their orange and reddish purple darkened
#: to 3.3:1 on FAINT: blue, amber, rose).
STATUS_COLOURS = {CORRECT: "#0072B2", MISSED: "#AD7F0B", WRONG: "#D45E87"}
#: Words and grid lines.
INK, FAINT, RULE = "#222222", "#f4f6f8", "#c8ced6"
#: Words no link touches: lighter than INK, yet 5:1 on white (WCAG AA text; #8a8f96 was 3.3:1).
UNALIGNED = "#6b7079"
#: Dashes of a possible link in the lines view.
POSSIBLE_DASH = "6 4"
#: Legend rows: swatch size and row height (px).
SWATCH, LEGEND_ROW = 14.0, 20.0


def colour(mark: LinkMark) -> str:
    """The colour a mark is drawn in."""
    return STATUS_COLOURS[mark.status] if mark.status else PLAIN


def opacity(mark: LinkMark) -> float | None:
    """The opacity that shows a mark's confidence (None: full, when there is no confidence)."""
    return None if mark.confidence is None else 0.2 + 0.8 * mark.confidence


def line_width(mark: LinkMark) -> float | None:
    """The width (px) of a mark's line that shows its confidence, 1 to 3.5 (None: the picture's
    width, when there is no confidence). A line keeps its full colour: at the opacity of a
    confidence of 0.1 a blue line was 1.6:1 on white, below WCAG 1.4.11's 3:1."""
    return None if mark.confidence is None else 1 + 2.5 * mark.confidence


def cross(x: float, y: float, half: float, **attrs: object) -> Element:
    """The cross that marks a wrong link (on its box in the grid, at its line's middle in the
    lines view), centred at (x, y), its arms `half` px each way."""
    a, b = num(x - half), num(x + half)
    c, d = num(y - half), num(y + half)
    return el("path", d=f"M{a} {c}L{b} {d}M{b} {c}L{a} {d}", stroke=INK, stroke_width=1.5, **attrs)


def hatch_id(ident: str, paint: str) -> str:
    """The id of the hatching pattern in `paint` inside the picture `ident`."""
    return f"{ident}-hatch-{paint.lstrip('#').lower()}"


def hatch_patterns(ident: str, paints: Iterable[str]) -> Element:
    """``<defs>`` with one diagonal hatching ``<pattern>`` per colour in `paints`: stripes 3 px wide
    and 3 px apart (the stripe at x=0 lost half its width to the tile's edge: 1.5 px)."""
    patterns = [
        el("pattern",
           el("rect", width=6, height=6, fill="white"),
           el("line", x1=3, y1=0, x2=3, y2=6, stroke=paint, stroke_width=3),  # whole inside the tile
           id=hatch_id(ident, paint), patternUnits="userSpaceOnUse", width=6, height=6,
           patternTransform="rotate(45)")
        for paint in sorted(set(paints))
    ]
    return el("defs", *patterns)


def fill(ident: str, mark: LinkMark) -> str:
    """A mark's fill in the grid: its colour (sure) or its hatching (possible); white when missed
    and sure (the box's border carries the colour)."""
    if mark.status == MISSED and mark.kind == SURE:
        return "white"
    return colour(mark) if mark.kind == SURE else f"url(#{hatch_id(ident, colour(mark))})"


#: The statuses' legend labels, by the gold links counted (``sure``: a system link on a gold
#: possible link is wrong, and "not in gold" would be untrue of it).
STATUS_LABELS = {
    "sure": {CORRECT: "correct (a gold sure link)", MISSED: "missed (gold sure link not found)",
             WRONG: "wrong (not a gold sure link)"},
    "sure+possible": {CORRECT: "correct (in gold)", MISSED: "missed (gold link not found)",
                      WRONG: "wrong (not in gold)"},
}


#: The confidence of the legend's sample of a shaded link.
SAMPLE_CONFIDENCE = 0.4


def legend_entries(marks: Sequence[LinkMark], against_gold: bool, links: str = "sure", *,
                   shading: str = "paler", sample: float = SAMPLE_CONFIDENCE) -> list[tuple[LinkMark, str]]:
    """(a sample mark, label) for each thing a picture of `marks` shows: the kinds, then (when
    drawn `against_gold`, counting the gold's `links`) the statuses with their counts, then
    (when a mark has a confidence) what the shading means: `shading` (``paler``, ``thinner``)
    is less confident, shown by a sample of confidence `sample`."""
    entries = [(LinkMark(0, 0, SURE), "sure link"), (LinkMark(0, 0, POSSIBLE), "possible link")]
    if against_gold:
        labels = STATUS_LABELS[links]
        counts = status_counts(marks)
        for status in STATUSES:
            entries.append((LinkMark(0, 0, SURE, status), f"{labels[status]}: {counts[status]}"))
    if any(m.confidence is not None for m in marks):
        entries.append((LinkMark(0, 0, SURE, None, sample),
                        f"{shading}: less confident (a link's tooltip gives its confidence)"))
    return entries


Swatch = Callable[[LinkMark, float, float], Element]


def legend(entries: Sequence[tuple[LinkMark, str]], swatch: Swatch, x: float, y: float) -> Element:
    """A vertical legend at (x, y): per entry a swatch (drawn by ``swatch(mark, x, y)``, the
    picture's own glyph for it) and its label."""
    rows = []
    for k, (mark, label) in enumerate(entries):
        top = y + k * LEGEND_ROW
        rows.append(group(
            [swatch(mark, x, top),
             el("text", label, x=num(x + SWATCH + 8), y=num(top + SWATCH / 2), dominant_baseline="central",
                fill=INK)],
            class_="legend-entry",
            data_entry="confidence" if mark.confidence is not None else mark.status or mark.kind,
        ))
    return group(rows, class_="legend")


def legend_size(entries: Sequence[tuple[LinkMark, str]]) -> tuple[float, float]:
    """The width and height a legend of `entries` takes."""
    widest = max((text_width(label) for _, label in entries), default=0.0)
    return SWATCH + 8 + widest, len(entries) * LEGEND_ROW
