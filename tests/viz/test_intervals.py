"""The interval plot: a row per item, the dot at its value and the bar across its interval."""

from __future__ import annotations

import math

from paralign.viz.intervals import Interval, interval_plot


def _x(path: str) -> tuple[float, float]:
    """The two x coordinates of a bar's path ``Mx yHx2``."""
    start, end = path[1:].split("H")
    return float(start.split()[0]), float(end)


def test_rows_dots_bars_and_zero_line(picture) -> None:
    rows = [Interval("bleu <b>", 0.5, 0.25, 0.75), Interval("chrf", -0.5, -1.0, 0.0),
            Interval("empty", math.nan, math.nan, math.nan)]
    pic = picture(interval_plot(rows, x_label="tau", title="t", span=(-1.0, 1.0)))
    groups = pic.all("g", "interval")
    assert [g.get("data-label") for g in groups] == ["bleu <b>", "chrf", "empty"]
    assert pic.title(groups[0]) == "bleu <b>: 0.500 [0.250, 0.750]"
    dots = pic.all("circle", "point")
    assert len(dots) == 2  # none for the undefined row, which says n/a
    assert "n/a" in [t.text for t in groups[2].iter() if t.text]
    bars = [_x(b.get("d")) for b in pic.all("path", "bar")]
    zero = float(pic.all("path", "zero")[0].get("d")[1:].split()[0])
    # the axis runs -1 .. 1: bleu's bar is right of zero, chrf's ends on it; dots are inside bars
    assert zero < bars[0][0] < float(dots[0].get("cx")) < bars[0][1]
    assert bars[1][1] == zero and bars[1][0] < float(dots[1].get("cx")) < zero
    assert [t.text for t in pic.all("g", "x-axis")[0]][0] == "-1"


def test_axis_covers_values_outside_the_span(picture) -> None:
    pic = picture(interval_plot([Interval("x", 2.0, 1.5, 3.0)], x_label="v", title="t", span=(0.0, 1.0)))
    ticks = [float(t.text) for t in pic.all("g", "x-axis")[0]]
    assert ticks[0] <= 0.0 and ticks[-1] >= 3.0
    assert not pic.all("path", "zero")  # zero is the axis' end, no line inside the plot


def test_an_axis_of_values_equal_but_for_float_noise_is_drawn(picture) -> None:
    """Without a span, an axis from 0.3 to 0.1 + 0.2 had all its ticks at 0.3 and the plot
    divided by its length, 0 (ZeroDivisionError)."""
    pic = picture(interval_plot([Interval("x", 0.3, 0.3, 0.1 + 0.2)], x_label="v", title="t"))
    assert len(pic.all("circle", "point")) == 1


def test_every_tick_has_its_own_label(picture) -> None:
    """The axis of 0.3 .. 0.3000001 labelled every tick "0.3" (six significant digits)."""
    pic = picture(interval_plot([Interval("x", 0.3000001, 0.3, 0.3000001)], x_label="v", title="t"))
    labels = [t.text for t in pic.all("g", "x-axis")[0]]
    assert len(set(labels)) == len(labels) > 1


def test_every_value_and_the_axis_name_are_inside_the_picture(picture) -> None:
    """Each row's value is written right of the plot in a fixed 56 px margin: a value such as
    -123456.789 ("-123456.789", 73 px at 12 px) was cut at the picture's edge, and so was an
    axis name wider than the plot. The picture now widens to hold them; correlations keep it."""
    from paralign.viz.svg import FONT_SIZE, text_width

    rows = [Interval("count", -123456.789, -200000.0, 1.0), Interval("other", 5.0, 1.0, 9.0)]
    name = "the number of segments whose metric and human scores agree in sign, in thousands"
    pic = picture(interval_plot(rows, x_label=name, title="t"))
    _, _, width, _ = pic.viewbox()
    texts = [t for g in pic.all("g", "interval") for t in g if t.tag.endswith("text") and t.get("font-size")]
    assert [t.text for t in texts] == ["-123456.789", "5.000"]
    assert all(float(t.get("x")) + text_width(t.text, FONT_SIZE - 2) <= width for t in texts)
    label = pic.all("text", "x-label")[0]
    assert float(label.get("x")) + text_width(name) / 2 <= width and float(label.get("x")) - text_width(name) / 2 >= 0
    correlations = picture(interval_plot([Interval("bleu", -0.5, -1.0, 0.0)], x_label="tau", title="t", span=(-1, 1)))
    assert correlations.viewbox()[2] == float(correlations.all("rect", "plot")[0].get("x")) + 360 + 56


def test_an_undefined_figure_is_json_null_in_the_rows_data(picture) -> None:
    """A row's data-* attributes are JSON, as the score cells' data-value beside the plot: an
    undefined figure (NaN) was written ``nan``, which no JSON reader takes (JSON.parse throws)."""
    import json

    rows = [Interval("bleu", 0.5, math.nan, 0.75), Interval("empty", math.nan, math.nan, math.nan)]
    groups = picture(interval_plot(rows, x_label="tau", title="t")).all("g", "interval")
    read = [[json.loads(g.get(f"data-{part}"), parse_constant=_refused) for part in ("value", "low", "high")]
            for g in groups]
    assert read == [[0.5, None, 0.75], [None, None, None]]


def _refused(constant: str) -> float:
    """json.loads takes NaN and Infinity, which JSON (and a browser's JSON.parse) refuses."""
    raise ValueError(f"not JSON: {constant}")
