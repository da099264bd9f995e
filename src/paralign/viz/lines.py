"""The side-by-side view of an alignment: the source words above, the target words below, each
link a line between two words.

Sure links are solid lines, possible links dashed; against a gold alignment the lines take the
grid's colours (correct, missed, wrong: see :mod:`.marks`; a missed link is dotted, a wrong one
crossed at its middle, so that no status is told by colour alone; a missed possible link is
dashed and dotted) and a legend counts them. A confidence in [0, 1], when given, sets a line's
width (thinner: less confident; its colour stays full, so the least confident line keeps its
contrast). Every link is a ``<line>`` with the classes of :attr:`.marks.LinkMark.classes`,
``data-i``/``data-j`` and a ``<title>`` tooltip (a wrong link's cross, a ``<path class="cross">``
after it, has its ``data-i``/``data-j``); words no system link touches are grey (class
``unaligned``).

Words keep their natural width and the picture grows with the sentences (scrolling in a
browser), so long sentences never overlap.

Not for: the grid (:mod:`.grid`) or colours and legend (:mod:`.style`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .marks import (
    MISSED,
    POSSIBLE,
    TOO_LARGE_INSTEAD,
    WRONG,
    AlignmentView,
    LinkMark,
    aligned_words,
)
from .style import (
    INK,
    POSSIBLE_DASH,
    SWATCH,
    UNALIGNED,
    colour,
    cross,
    legend,
    legend_entries,
    legend_size,
    line_width,
)
from .svg import FONT_SIZE, Element, check_side, el, group, num, shorten, svg_root, text_width

#: Margin, space between two words, and the distance from the source row to the target row (px).
PAD, WORD_GAP, ROW_GAP = 12.0, 14.0, 120.0
#: Dashes of a missed link (dotted), and of a missed possible link (dashed and dotted: drawn as
#: a missed sure link, it lost the kind that the grid and its tooltip show).
MISSED_DASH, MISSED_POSSIBLE_DASH = "2 4", "7 5 1 5"
#: The width of a link's line (px).
LINE_WIDTH = 2
#: How far each arm of the cross at a wrong link's middle reaches (px).
CROSS = 4.0


def _centres(words: Sequence[str]) -> tuple[list[float], float]:
    """The x centre of each word laid out in a row from 0, and the row's width."""
    centres, x = [], 0.0
    for word in words:
        width = text_width(shorten(word))
        centres.append(x + width / 2)
        x += width + WORD_GAP
    return centres, max(0.0, x - WORD_GAP)


def _dash(mark: LinkMark) -> str | None:
    if mark.status == MISSED:
        return MISSED_POSSIBLE_DASH if mark.kind == POSSIBLE else MISSED_DASH
    return POSSIBLE_DASH if mark.kind == POSSIBLE else None


def _line(mark: LinkMark, x1: float, y1: float, x2: float, y2: float, *children: Element,
          width: float | None = None, **attrs: object) -> Element:
    """A link's line: its confidence's width (:func:`.style.line_width`), else `width`, else its
    group's (2, on ``g.links``)."""
    shown = line_width(mark)
    return el("line", *children, x1=num(x1), y1=num(y1), x2=num(x2), y2=num(y2), stroke=colour(mark),
              stroke_dasharray=_dash(mark), stroke_width=num(shown) if shown is not None else width,
              stroke_linecap="round" if mark.status == MISSED else None, **attrs)


def _crossed(mark: LinkMark, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> Element | None:
    """The cross at the middle of a wrong link's line (None for another link): correct and
    wrong links were both solid lines, told apart by their colour alone (1.4:1 in greyscale)."""
    if mark.status != WRONG:
        return None
    return cross((x1 + x2) / 2, (y1 + y2) / 2, CROSS, class_="cross", **attrs)


def _swatch(mark: LinkMark, x: float, y: float) -> Element:
    """A legend's sample of a link: a short line, crossed when wrong."""
    ends = (x, y + SWATCH / 2, x + SWATCH, y + SWATCH / 2)
    line = _line(mark, *ends, width=LINE_WIDTH)
    crossed = _crossed(mark, *ends)
    return line if crossed is None else group([line, crossed])


def _row(words: Sequence[str], centres: Sequence[float], y: float, side: str, aligned: set[int]) -> Element:
    key = "data_i" if side == "source" else "data_j"
    texts = []
    for k, (word, x) in enumerate(zip(words, centres, strict=True)):
        short = shorten(word)
        texts.append(el("text", el("title", word) if short != word else None, short,
                        class_=f"word {side}-word" + ("" if k in aligned else " unaligned"),
                        x=num(x), y=num(y), fill=None if k in aligned else UNALIGNED, **{key: k}))
    # the colour and anchor every word shares are the row's, written once (a page of 1,000 pairs
    # repeated them on 40,000 words)
    return group(texts, class_=f"{side}-words", fill=INK, text_anchor="middle")


def alignment_lines(view: AlignmentView, *, title: str | None = None, ident: str = "lines") -> Element:
    """The two sentences of `view` joined by lines, as an ``<svg>`` element (:func:`.svg.svg_file`
    writes it as a file); `ident` prefixes the picture's ids (unique per page). ConfigurationError
    when it would be wider than :data:`.svg.MAX_SIDE` (400 words of 8 letters a side), as the grid."""
    source, target, marks = view.source, view.target, view.marks
    xs_source, width_source = _centres(source)
    xs_target, width_target = _centres(target)
    widest = max(width_source, width_target)
    shift_source = PAD + (widest - width_source) / 2
    shift_target = PAD + (widest - width_target) / 2
    y_source = PAD + FONT_SIZE
    y_target = y_source + ROW_GAP
    top, bottom = y_source + 6, y_target - FONT_SIZE - 2
    lines: list[Element] = []
    for m in marks:
        ends = (shift_source + xs_source[m.i], top, shift_target + xs_target[m.j], bottom)
        lines.append(_line(m, *ends, el("title", view.describe(m)), class_=m.classes, data_i=m.i, data_j=m.j,
                           data_confidence=None if m.confidence is None else f"{m.confidence:.3f}"))
        crossed = _crossed(m, *ends, data_i=m.i, data_j=m.j)
        if crossed is not None:
            lines.append(crossed)
    on_source, on_target = aligned_words(marks)
    entries = legend_entries(marks, view.against_gold, view.links, shading="thinner", sample=0.0)
    legend_w, legend_h = legend_size(entries)
    legend_y = y_target + FONT_SIZE + 6
    width, height = max(widest, legend_w) + 2 * PAD, legend_y + legend_h + PAD
    check_side(width, height, view.too_large, TOO_LARGE_INSTEAD)
    body = [
        group(lines, class_="links", stroke_width=LINE_WIDTH),
        _row(source, [shift_source + x for x in xs_source], y_source, "source", on_source),
        _row(target, [shift_target + x for x in xs_target], y_target, "target", on_target),
        legend(entries, _swatch, PAD, legend_y),
    ]
    name = title or f"alignment: {' '.join(source)} / {' '.join(target)}"
    return svg_root(width, height, body, title=name, ident=ident)
