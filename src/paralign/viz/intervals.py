"""An interval plot as SVG: one row per item, its value as a dot and its interval as a bar
(e.g. each metric's correlation with its 95% bootstrap interval), on one shared axis.

Every row is a ``<g class="interval">`` with ``data-label``, ``data-value``, ``data-low`` and
``data-high`` (the values as JSON, :func:`.svg.json_text`: an undefined one, NaN, is ``null``, as
the JSON output and the score cells beside the plot say) and a ``<title>``; the axis is ``<g class="x-axis">``
with a ``<text>`` per tick, and a zero line is drawn when zero is on the axis. A row whose
value is not finite is listed with "n/a" and no dot. Drawn with :mod:`.svg` like the other
pictures (no plotting library).

Not for: what is plotted (the reports in :mod:`.reports`) or computing intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .scatter import name_under, share, tick_labels, ticks
from .style import FAINT, INK, RULE, STATUS_COLOURS
from .svg import FONT_SIZE, Element, el, group, json_text, num, svg_root, text_width

#: Plot width, row height and the margins (px); the left margin grows with the labels, the right
#: one with the widest value.
WIDTH, ROW, RIGHT, TOP, BOTTOM, PAD = 360.0, 24.0, 56.0, 12.0, 44.0, 12.0
DOT = STATUS_COLOURS["correct"]


@dataclass(frozen=True, slots=True)
class Interval:
    """One row: its label, value and interval [low, high] (nan when undefined)."""

    label: str
    value: float
    low: float
    high: float


def _finite(*values: float) -> bool:
    return all(isinstance(v, int | float) and math.isfinite(v) for v in values)


def _text(value: float) -> str:
    return f"{value:.3f}" if _finite(value) else "n/a"


def interval_plot(rows: Sequence[Interval], *, x_label: str, title: str, ident: str = "intervals",
                  span: tuple[float, float] | None = None) -> Element:
    """The plot of `rows` as an ``<svg>`` element; `span` fixes the axis (e.g. (-1, 1) for
    correlations), else it covers every finite value and interval end."""
    ends = [v for r in rows for v in (r.value, r.low, r.high) if _finite(v)]
    low, high = span if span is not None else (min(ends, default=0.0), max(ends, default=1.0))
    xs = ticks(min([low, *ends]), max([high, *ends]))
    left = PAD + max((text_width(r.label) for r in rows), default=0.0) + 10

    def px(x: float) -> float:
        return left + share(x, xs) * WIDTH

    height = TOP + ROW * max(1, len(rows))
    small = FONT_SIZE - 2
    # room right of the plot for the widest value ("-123456.789" was cut in a fixed 56 px) and
    # under it for the axis' name (moved right as far as it needs to start inside the picture)
    right = max(RIGHT, 6 + max((text_width(_text(r.value), small) for r in rows), default=0.0) + 4)
    middle, x_label_end = name_under(x_label, left + WIDTH / 2)
    rules = "".join(f"M{num(px(v))} {num(TOP)}V{num(height)}" for v in xs)
    axis = [el("text", text, x=num(px(v)), y=num(height + 16), text_anchor="middle",
               font_size=small, fill=INK) for v, text in zip(xs, tick_labels(xs), strict=True)]
    body: list[Element | None] = [
        el("rect", class_="plot", x=num(left), y=num(TOP), width=num(WIDTH), height=num(height - TOP), fill=FAINT),
        el("path", class_="rules", d=rules, stroke=RULE, stroke_width=1, fill="none"),
        el("path", class_="zero", d=f"M{num(px(0.0))} {num(TOP)}V{num(height)}", stroke=INK,
           stroke_width=1) if xs[0] < 0 < xs[-1] else None,
        group(axis, class_="x-axis"),
        el("text", x_label, class_="x-label", x=num(middle), y=num(height + 36),
           text_anchor="middle", fill=INK),
    ]
    for k, row in enumerate(rows):
        y = TOP + ROW * (k + 0.5)
        parts: list[Element | None] = [
            el("title", f"{row.label}: {_text(row.value)} [{_text(row.low)}, {_text(row.high)}]"),
            el("text", row.label, x=num(left - 8), y=num(y), text_anchor="end", dominant_baseline="central",
               fill=INK),
            el("text", _text(row.value), x=num(left + WIDTH + 6), y=num(y), dominant_baseline="central",
               font_size=small, fill=INK),
        ]
        if _finite(row.low, row.high):
            parts.append(el("path", class_="bar", d=f"M{num(px(row.low))} {num(y)}H{num(px(row.high))}",
                            stroke=DOT, stroke_width=2.5))
        if _finite(row.value):
            parts.append(el("circle", class_="point", cx=num(px(row.value)), cy=num(y), r=4.5, fill=DOT))
        body.append(group(parts, class_="interval", data_label=row.label, data_value=json_text(row.value),
                          data_low=json_text(row.low), data_high=json_text(row.high)))
    width = max(left + WIDTH + right, x_label_end)
    return svg_root(width, height + BOTTOM, body, title=title, ident=ident)
