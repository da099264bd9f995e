"""A scatter plot as SVG: one dot per item (x, y) with its label as a tooltip, labelled axes
with round tick values, and optionally a least-squares line, named with its equation in a legend
row under the plot and in its tooltip.

Every dot is a ``<circle class="point">`` with ``data-x``/``data-y`` (the values as JSON,
:func:`.svg.json_text`, as every figure in a ``data-*`` attribute) and a ``<title>``; the axes are ``<g class="x-axis">``/``<g class="y-axis">`` with a
``<text>`` per tick. Drawn with :mod:`.svg` like the other pictures (no plotting library): the
same escaping, fonts and viewBox, and the text is the same on every run.

Not for: what is plotted (the reports in :mod:`.reports`) or computing a fit or correlation.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from .style import FAINT, INK, RULE, STATUS_COLOURS
from .svg import FONT_SIZE, Element, el, group, json_text, num, svg_root, text_width

#: Plot area size and the margins around it (px; the left one grows with the y axis' widest tick
#: label, the right one with half the x axis' last, the top one with an axis' name longer than
#: the plot is high).
WIDTH, HEIGHT = 420.0, 300.0
LEFT, RIGHT, TOP, BOTTOM = 64.0, 16.0, 16.0, 48.0
#: Dot radius (px) and colour (a dot's fill is translucent, so dots on top of each other show,
#: and its outline is in the full colour: the fill alone was 2.9:1 on the plot, below WCAG
#: 1.4.11's 3:1); the line's colour.
RADIUS = 3.5
DOT, LINE = STATUS_COLOURS["correct"], STATUS_COLOURS["missed"]
#: The legend row under the plot (naming the line) and its sample's length (px).
LEGEND_ROW, SWATCH = 20.0, 14.0
#: A plot of no point (:func:`empty_plot`): what it says by default, its height and margins (px).
NOTHING_TO_PLOT = "nothing to plot: no point with finite coordinates"
EMPTY_HEIGHT, EMPTY_PADDING = 40.0, 16.0


@dataclass(frozen=True, slots=True)
class Point:
    """One dot: its position in data units and its tooltip."""

    x: float
    y: float
    label: str = ""


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About `count` round values (steps of 1, 2, 2.5 or 5 times a power of ten) covering
    [low, high]; the first is <= low and the last >= high, the first below the last.

    One value (or two that differ only in their last bits, as 0.1 + 0.2 and 0.3 do) gets an
    axis around it, half a unit each side (a millionth of the value, if larger: 1e20 + 0.5 is
    1e20). Each tick is rounded to a few digits below its step: rounded to 10 decimals, the
    ticks of values under 1e-10 were all 0, and so were those of 0.3 and 0.1 + 0.2, and the
    plot divided by the axis' length, 0 (ZeroDivisionError). Values so near the largest float
    (1.8e308) that round ends would pass it get `count` equal steps from `low` to `high`."""
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"cannot draw axis ticks from {low} to {high}")
    if high - low <= 1e-9 * max(abs(low), abs(high)):
        half = max(0.5, 1e-6 * max(abs(low), abs(high)))
        low, high = low - half, high + half
    raw = (high - low) / count if math.isfinite(high - low) else high / count - low / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, 2.5, 5, 10) if power * m >= raw)
    first = math.floor(low / step + 1e-9) * step
    values = [first]
    while values[-1] < high - 1e-9 * step:
        values.append(first + len(values) * step)
    if max(-values[0], values[-1]) > sys.float_info.max:  # round ends past the largest float
        return [low, *(low / count * (count - k) + high / count * k for k in range(1, count)), high]
    digits = max(0, 3 - math.floor(math.log10(step)))  # a step of 2.5e-k has k + 1 decimals
    return [round(v, digits) for v in values]


def share(value: float, axis: Sequence[float]) -> float:
    """Where `value` lies along `axis` (its ticks): 0 at the first, 1 at the last. Halves are
    subtracted (exactly half the difference) as an axis from -1.7e308 to 1.7e308 is longer than
    the largest float."""
    return (value / 2 - axis[0] / 2) / (axis[-1] / 2 - axis[0] / 2)


def _label(value: float, digits: int = 6) -> str:
    text = f"{value:.{digits}g}"
    return "0" if text == "-0" else text


def tick_labels(values: Sequence[float]) -> list[str]:
    """The ticks' labels: six significant digits, or as many more as tell every tick apart (the
    ticks of 0.3 to 0.3000001 were all labelled 0.3, an axis that said nothing)."""
    for digits in range(6, 18):
        labels = [_label(v, digits) for v in values]
        if len(set(labels)) == len(labels):
            break
    return labels


def scatter(points: Sequence[Point], *, x_label: str, y_label: str, title: str, ident: str = "scatter",
            line: tuple[float, float] | None = None, empty: str = NOTHING_TO_PLOT) -> Element:
    """The plot of `points` as an ``<svg>`` element; `line` = (slope, intercept) of the
    least-squares fit draws y = a·x + b across the plot, named in a legend row under it. Points
    with a non-finite coordinate are left out; with none left, the picture is the note `empty`
    (:func:`empty_plot`), not axes from 0 to 1 around nothing."""
    shown = [p for p in points if math.isfinite(p.x) and math.isfinite(p.y)]
    if not shown:
        return empty_plot(empty, title=title, ident=ident)
    xs = ticks(min(p.x for p in shown), max(p.x for p in shown))
    ys = ticks(min(p.y for p in shown), max(p.y for p in shown))

    small = FONT_SIZE - 2
    y_labels = tick_labels(ys)
    # the y axis' name, turned upright at x = 16 (half a line each side), clear of the widest
    # tick label: a label of "-0.125" or "1.8e+06" was drawn through it
    left = max(LEFT, math.ceil(16 + FONT_SIZE / 2 + 4 + max(text_width(t, small) for t in y_labels) + 6))
    # the axes' names: the upright one centred on the plot, which moves down as far as a name
    # longer than the plot is high needs (one of 40 characters ran past the picture's top and
    # bottom edges), the other under the plot, moved right as far as it needs to start inside
    reach = text_width(y_label) / 2 + 2
    top = max(TOP, math.ceil(reach - HEIGHT / 2))
    middle, x_label_end = name_under(x_label, left + WIDTH / 2)

    def px(x: float) -> float:
        return left + share(x, xs) * WIDTH

    def py(y: float) -> float:
        return top + HEIGHT - share(y, ys) * HEIGHT

    x_labels = tick_labels(xs)
    x_axis = [el("text", text, x=num(px(v)), y=num(top + HEIGHT + 16), text_anchor="middle",
                 font_size=small, fill=INK) for v, text in zip(xs, x_labels, strict=True)]
    y_axis = [el("text", text, x=num(left - 6), y=num(py(v)), text_anchor="end",
                 dominant_baseline="central", font_size=small, fill=INK)
              for v, text in zip(ys, y_labels, strict=True)]
    rules = "".join(f"M{num(px(v))} {num(top)}v{num(HEIGHT)}" for v in xs)
    rules += "".join(f"M{num(left)} {num(py(v))}h{num(WIDTH)}" for v in ys)
    dots = [el("circle", el("title", f"{p.label} ({_label(p.x)}, {_label(p.y)})".strip()),
               class_="point", cx=num(px(p.x)), cy=num(py(p.y)), r=RADIUS,
               data_x=json_text(p.x), data_y=json_text(p.y)) for p in shown]
    fit = _line(line, xs, ys, px, py)
    bottom = top + HEIGHT + BOTTOM
    legend_rows: list[Element] = []
    if fit is not None:  # what the line is: its name and equation, in its tooltip and a legend row
        y = bottom + LEGEND_ROW / 2
        legend_rows.append(group([
            el("path", d=f"M{num(left)} {num(y)}h{num(SWATCH)}", stroke=LINE, stroke_width=1.5),
            el("text", legend_label(line), x=num(left + SWATCH + 8), y=num(y), dominant_baseline="central",
               fill=INK)], class_="legend-entry", data_entry="fit"))
        bottom += LEGEND_ROW
    body = [
        el("rect", class_="plot", x=num(left), y=num(top), width=num(WIDTH), height=num(HEIGHT), fill=FAINT),
        el("path", class_="rules", d=rules, stroke=RULE, stroke_width=1, fill="none"),
        group(x_axis, class_="x-axis"), group(y_axis, class_="y-axis"),
        el("text", x_label, class_="x-label", x=num(middle), y=num(top + HEIGHT + 38),
           text_anchor="middle", fill=INK),
        el("text", y_label, class_="y-label", x=num(16), y=num(top + HEIGHT / 2), text_anchor="middle",
           dominant_baseline="central", transform=f"rotate(-90 16 {num(top + HEIGHT / 2)})", fill=INK),
        # the dots' paint, once for all (each dot repeated it: 68 bytes of 235, 23.6 MB for 100,000)
        fit, group(dots, class_="points", fill=DOT, fill_opacity=0.7, stroke=DOT, stroke_width=1), *legend_rows,
    ]
    # the last x tick label is centred on the plot's right edge: half of it must fit in the
    # margin ("3e+06" was cut at the picture's edge)
    right = max(RIGHT, text_width(x_labels[-1], small) / 2 + 4)
    width = max(left + WIDTH + right, left + SWATCH + 8 + (text_width(legend_label(line)) if fit else 0) + RIGHT,
                x_label_end)
    return svg_root(width, max(bottom, top + HEIGHT / 2 + reach), body, title=title, ident=ident)


def empty_plot(note: str, *, title: str, ident: str = "scatter") -> Element:
    """A plot of no point: its `title` and the one line `note` saying why there is nothing to
    see (``<text class="note">``). Empty axes from 0 to 1 read as a plot whose dots are missing,
    and said nothing of why (the STS report says "no pair of this file was scored")."""
    width = text_width(note) + 2 * EMPTY_PADDING
    return svg_root(width, EMPTY_HEIGHT, [el("text", note, class_="note", x=num(width / 2), y=num(EMPTY_HEIGHT / 2),
                                             text_anchor="middle", dominant_baseline="central", fill=INK)],
                    title=title, ident=ident)


def name_under(name: str, centre: float) -> tuple[float, float]:
    """Where an axis' `name`, centred under its plot at `centre`, is written: there, or as far
    right as it must be to start inside the picture; and how far right it then reaches."""
    half = text_width(name) / 2
    x = max(centre, half + 2)
    return x, x + half + 2


def legend_label(line: tuple[float, float] | None) -> str:
    """What the fitted line is: ``least-squares line: y = 0.2·x + 0``."""
    if line is None:
        return ""
    a, b = line
    return f"least-squares line: y = {_label(a)}·x {'-' if b < 0 else '+'} {_label(abs(b))}"


def _line(line, xs, ys, px, py) -> Element | None:
    """y = a·x + b clipped to the plot (None when it does not cross it or is not given)."""
    if line is None or not all(math.isfinite(v) for v in line):
        return None
    a, b = line
    ends = [(x, a * x + b) for x in (xs[0], xs[-1])]
    if a:
        ends += [((y - b) / a, y) for y in (ys[0], ys[-1])]
    inside = sorted({(x, y) for x, y in ends if xs[0] - 1e-9 <= x <= xs[-1] + 1e-9
                     and ys[0] - 1e-9 <= y <= ys[-1] + 1e-9})
    if len(inside) < 2:
        return None
    (x1, y1), (x2, y2) = inside[0], inside[-1]
    return el("path", el("title", legend_label(line)), class_="fit",
              d=f"M{num(px(x1))} {num(py(y1))}L{num(px(x2))} {num(py(y2))}", stroke=LINE, stroke_width=1.5,
              fill="none")
