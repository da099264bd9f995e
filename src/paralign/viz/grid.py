"""The alignment grid (ParaMetric's Figure 1): source words as rows, target words as columns.

Sure links are filled cells, possible links hatched ones. Against a gold alignment every link
the system made or missed is coloured by its status (correct, missed, wrong: see :mod:`.marks`)
and a legend counts them. A confidence in [0, 1] per link, when given, shades its fill. Every
link is a ``<g>`` with the classes of :attr:`.marks.LinkMark.classes` (``link sure``, ``link
possible correct`` ...), ``data-i``/``data-j`` and a ``<title>`` tooltip; words are ``<text>``
with class ``source-word``/``target-word`` and ``data-i``/``data-j``.

The cell size is fixed and the picture grows with the sentences (target words are written
slanted above their columns), so long sentences scroll in a browser rather than overlap.

Not for: the two-rows-of-words view (:mod:`.lines`), colours and legend (:mod:`.style`) or
scoring an alignment (:mod:`paralign.metrics`).
"""

from __future__ import annotations

import math

from .marks import MISSED, POSSIBLE, TOO_LARGE_INSTEAD, WRONG, AlignmentView, LinkMark
from .style import (
    FAINT,
    INK,
    PLAIN,
    RULE,
    SWATCH,
    colour,
    cross,
    fill,
    hatch_patterns,
    legend,
    legend_entries,
    legend_size,
    opacity,
)
from .svg import FONT_SIZE, Element, check_side, el, group, num, shorten, svg_root, text_width

#: The side of a cell, the margin around the picture and the gap between words and grid (px).
CELL, PAD, GAP = 24.0, 12.0, 8.0
#: The slant of the target words above the columns (degrees from the horizontal).
SLANT = 60.0


def _glyph(ident: str, mark: LinkMark, x: float, y: float, size: float) -> Element:
    """A link's box at (x, y): filled or hatched; a thick border when missed; crossed when wrong;
    a thin border in its full colour when its confidence makes its fill pale (a fill at the
    opacity of confidence 0.1 was 1.5:1 on the grid, a link hard to see at all)."""
    inset = 1.5
    missed, shaded = mark.status == MISSED, mark.confidence is not None
    box = el("rect", x=num(x + inset), y=num(y + inset), width=num(size - 2 * inset),
             height=num(size - 2 * inset), fill=fill(ident, mark), fill_opacity=opacity(mark),
             stroke=colour(mark) if missed or shaded else None,
             stroke_width=2.5 if missed else (1 if shaded else None))
    if mark.status != WRONG:
        return box
    return group([box, cross(x + size / 2, y + size / 2, size * 0.22)])


def _word(text: str, **attrs: object) -> Element:
    """A word's ``<text>`` (shortened when very long, with the whole word as its tooltip); its
    colour, anchor and baseline are its row's (:func:`alignment_grid`), written once there."""
    short = shorten(text)
    return el("text", el("title", text) if short != text else None, short, **attrs)


def alignment_grid(view: AlignmentView, *, title: str | None = None, ident: str = "grid") -> Element:
    """The grid of `view`: its source tokens as rows, its target tokens as columns (with gold, the
    links coloured by status), as an ``<svg>`` element (:func:`.svg.svg_file` writes it as a
    file); `ident` prefixes the picture's ids (unique per page). ConfigurationError when a side
    of it would pass :data:`.svg.MAX_SIDE` (:func:`.svg.check_side`: about 1,360 words a side,
    24 px each), as a lattice's drawing is refused: a pair of 3,000 words each side was drawn
    72,084 x 72,125 px, which no SVG renderer draws."""
    source, target, marks = view.source, view.target, view.marks
    cos, sin = math.cos(math.radians(SLANT)), math.sin(math.radians(SLANT))
    widths = [text_width(shorten(w)) for w in target]
    # the grid's corner on whole pixels: every cell and word is then at a short coordinate
    left = math.ceil(PAD + max((text_width(shorten(w)) for w in source), default=0.0) + GAP)
    top = math.ceil(PAD + max((w * sin + FONT_SIZE * cos / 2 for w in widths), default=0.0) + GAP)
    grid_w, grid_h = len(target) * CELL, len(source) * CELL
    reach = max(((j + 0.5) * CELL + w * cos + FONT_SIZE * sin / 2 for j, w in enumerate(widths)),
                default=0.0)
    entries = legend_entries(marks, view.against_gold, view.links)
    legend_w, legend_h = legend_size(entries)
    legend_y = top + grid_h + 2 * GAP
    width = max(left + max(grid_w, reach), PAD + legend_w) + PAD
    height = legend_y + legend_h + PAD
    check_side(width, height, view.too_large, TOO_LARGE_INSTEAD)

    # one move to the grid's corner, then relative steps: a rule a row costs ~12 bytes, not ~20
    across = f"M{num(left)} {num(top)}h{num(grid_w)}" + f"m-{num(grid_w)} {num(CELL)}h{num(grid_w)}" * len(source)
    down = f"M{num(left)} {num(top)}v{num(grid_h)}" + f"m{num(CELL)} -{num(grid_h)}v{num(grid_h)}" * len(target)
    rules = across + down
    rows = [_word(w, class_="source-word", data_i=i, x=num(left - GAP), y=num(top + (i + 0.5) * CELL))
            for i, w in enumerate(source)]
    columns = []
    for j, w in enumerate(target):
        x, y = left + (j + 0.5) * CELL, top - GAP
        columns.append(_word(w, class_="target-word", data_j=j, x=num(x), y=num(y),
                             transform=f"rotate({num(-SLANT)} {num(x)} {num(y)})"))
    cells = [
        group([el("title", view.describe(m)),
               _glyph(ident, m, left + m.j * CELL, top + m.i * CELL, CELL)],
              class_=m.classes, data_i=m.i, data_j=m.j,
              data_confidence=None if m.confidence is None else f"{m.confidence:.3f}")
        for m in marks
    ]
    paints = {PLAIN} | {colour(m) for m in marks if m.kind == POSSIBLE}
    body = [
        hatch_patterns(ident, paints),
        el("rect", class_="grid", x=num(left), y=num(top), width=num(grid_w), height=num(grid_h), fill=FAINT),
        el("path", class_="rules", d=rules or None, stroke=RULE, stroke_width=1, fill="none"),
        group(rows, class_="source-words", fill=INK, text_anchor="end", dominant_baseline="central"),
        group(columns, class_="target-words", fill=INK, dominant_baseline="central"),
        group(cells, class_="links"),
        legend(entries, lambda m, x, y: _glyph(ident, m, x, y, SWATCH), PAD, legend_y),
    ]
    name = title or f"alignment grid: {' '.join(source)} / {' '.join(target)}"
    return svg_root(width, height, body, title=name, ident=ident)
