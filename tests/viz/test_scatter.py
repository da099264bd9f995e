"""The scatter plot: a dot per finite point at the right place, round ticks, the fit line."""

from __future__ import annotations

import math

import pytest

from paralign.viz.scatter import HEIGHT, LEFT, NOTHING_TO_PLOT, TOP, WIDTH, Point, scatter, ticks
from paralign.viz.svg import text_width


def test_ticks_are_round_and_cover_the_range() -> None:
    assert ticks(0, 5) == [0, 1, 2, 3, 4, 5]
    assert ticks(0.23, 0.91) == [0.2, 0.4, 0.6, 0.8, 1.0]
    assert ticks(-1.2, 0.7) == [-1.5, -1.0, -0.5, 0.0, 0.5, 1.0]
    low, high = ticks(3, 3)[0], ticks(3, 3)[-1]
    assert low < 3 < high
    with pytest.raises(ValueError):
        ticks(0, math.inf)


def test_dots_labels_and_line(picture) -> None:
    points = [Point(0, 0, "a <b>"), Point(5, 1, "c"), Point(2.5, 0.5, "d"), Point(math.nan, 1, "gone")]
    pic = picture(scatter(points, x_label="gold", y_label="score", title="t", line=(0.2, 0.0)))
    dots = pic.all("circle", "point")
    assert [(float(d.get("data-x")), float(d.get("data-y"))) for d in dots] == [(0, 0), (5, 1), (2.5, 0.5)]
    assert float(dots[0].get("cx")) == LEFT and float(dots[0].get("cy")) == TOP + HEIGHT
    assert float(dots[1].get("cx")) == LEFT + WIDTH and float(dots[1].get("cy")) == TOP
    assert pic.title(dots[0]) == "a <b> (0, 0)"
    assert [t.text for t in pic.all("g", "x-axis")[0]] == ["0", "1", "2", "3", "4", "5"]
    assert len(pic.all("path", "fit")) == 1
    assert pic.all("text", "x-label")[0].text == "gold" and pic.all("text", "y-label")[0].text == "score"


@pytest.mark.parametrize("points", [[], [Point(math.nan, 1.0), Point(1.0, math.inf)]])
def test_no_point_to_plot_is_a_note_not_empty_axes(picture, points) -> None:
    """A plot of no finite point says so: it drew axes from 0 to 1 around nothing (a notebook's
    or a report's STS file with no scored pair), as if its dots were missing."""
    pic = picture(scatter(points, x_label="x", y_label="y", title="empty", empty="no scored pair: nothing to plot"))
    assert pic.all("circle") == [] and pic.all("g", "x-axis") == [] and pic.all("rect", "plot") == []
    assert [t.text for t in pic.all("text", "note")] == ["no scored pair: nothing to plot"]
    assert pic.viewbox()[2] >= text_width("no scored pair: nothing to plot")
    assert [t.text for t in picture(scatter([], x_label="x", y_label="y", title="t")).all("text", "note")] == [
        NOTHING_TO_PLOT]


def test_the_line_is_named_in_a_legend_and_its_tooltip(picture) -> None:
    """The reports' orange least-squares line had no legend and no tooltip: nothing on the page
    said what it was. A legend row under the plot names it with its equation, within the picture."""
    points = [Point(0, 0, "a"), Point(5, 1, "b")]
    pic = picture(scatter(points, x_label="gold", y_label="score", title="t", line=(0.2, 0.0)))
    entry = pic.all("g", "legend-entry")
    assert len(entry) == 1 and entry[0].get("data-entry") == "fit"
    label = "least-squares line: y = 0.2·x + 0"
    assert "".join(entry[0].itertext()).strip() == label and pic.title(pic.all("path", "fit")[0]) == label
    sample = next(e for e in entry[0] if e.tag.endswith("path"))
    assert sample.get("stroke") == pic.all("path", "fit")[0].get("stroke")
    _, _, _, height = pic.viewbox()
    assert all(float(t.get("y")) < height for t in pic.all("text"))  # the legend fits in the picture
    plain = picture(scatter(points, x_label="gold", y_label="score", title="t"))
    assert plain.all("g", "legend-entry") == [] and plain.viewbox()[3] < height  # no line, no legend


@pytest.mark.parametrize("low, high", [(0.3, 0.1 + 0.2), (1e-12, 5e-12), (2e-11, 2e-11), (1e20, 1e20)])
def test_ticks_of_near_equal_tiny_or_huge_values_still_span_an_axis(low, high) -> None:
    """The ticks were rounded to 10 decimals: those of scores under 1e-10, and those of 0.3 and
    0.1 + 0.2 (equal but for their last bit), were all one value, and the plot divided by the
    axis' length, 0 (ZeroDivisionError); 1e20 was 1e20 +- 0.5 (math domain error)."""
    values = ticks(low, high)
    assert values[0] <= low and values[-1] >= high and values[0] < values[-1]
    assert len(set(values)) == len(values)


def test_a_plot_of_scores_equal_but_for_float_noise_is_drawn(picture) -> None:
    points = [Point(0.3, 1e-12, "a"), Point(0.1 + 0.2, 3e-12, "b")]
    pic = picture(scatter(points, x_label="gold", y_label="score", title="t"))
    assert len(pic.all("circle", "point")) == 2
    ys = sorted(float(d.get("cy")) for d in pic.all("circle", "point"))
    assert TOP <= ys[0] < ys[1] <= TOP + HEIGHT  # 3e-12 above 1e-12, both on the plot


def test_every_tick_has_its_own_label(picture) -> None:
    """Six significant digits labelled every tick of 0.3 .. 0.3000001 "0.3": an axis that
    says nothing. A label has as many digits as tell the ticks apart, six when those do."""
    pic = picture(scatter([Point(0.3, 0.3), Point(0.3000001, 0.3000001)], x_label="x", y_label="y", title="t"))
    for axis in ("x-axis", "y-axis"):
        labels = [t.text for t in pic.all("g", axis)[0]]
        assert len(set(labels)) == len(labels) > 1
        assert labels[0] == "0.3" and float(labels[1]) > 0.3
    plain = picture(scatter([Point(0.23, 0), Point(0.91, 1)], x_label="x", y_label="y", title="t"))
    assert [t.text for t in plain.all("g", "x-axis")[0]] == ["0.2", "0.4", "0.6", "0.8", "1"]


@pytest.mark.parametrize("ys", [(-0.125, 0.1), (1e6, 2e6), (0, 1)])
def test_the_y_axis_name_is_clear_of_its_tick_labels(picture, ys) -> None:
    """The y axis' name stands upright at x = 16 and its tick labels end at a fixed 58 px: a
    label such as "-0.125" or "1.8e+06" was drawn through the name. The plot now moves right
    as far as its widest tick label needs (the plots whose labels fit stay where they were)."""
    from paralign.viz.svg import FONT_SIZE, text_width

    pic = picture(scatter([Point(0, ys[0]), Point(1, ys[1])], x_label="x", y_label="metric score", title="t"))
    name = pic.all("text", "y-label")[0]
    name_right = float(name.get("x")) + FONT_SIZE / 2  # upright: a line's height across
    labels = pic.all("g", "y-axis")[0]
    assert min(float(t.get("x")) - text_width(t.text, FONT_SIZE - 2) for t in labels) > name_right
    plot = pic.all("rect", "plot")[0]
    assert all(float(t.get("x")) < float(plot.get("x")) for t in labels)
    if ys == (0, 1):
        assert float(plot.get("x")) == LEFT


@pytest.mark.parametrize("xs", [(1e6, 3e6), (0.1, 0.125), (0, 5)])
def test_the_last_x_tick_label_is_inside_the_picture(picture, xs) -> None:
    """The last x tick label is centred on the plot's right edge, and the margin there was a
    fixed 16 px: "3e+06" or "0.125" was cut at the picture's edge (an <img> or a page's
    <svg> shows nothing outside its box)."""
    from paralign.viz.svg import FONT_SIZE, text_width

    pic = picture(scatter([Point(xs[0], 0), Point(xs[1], 1)], x_label="x", y_label="y", title="t"))
    last = pic.all("g", "x-axis")[0][-1]
    _, _, width, _ = pic.viewbox()
    assert float(last.get("x")) + text_width(last.text, FONT_SIZE - 2) / 2 <= width
    if xs == (0, 5):
        assert width == LEFT + WIDTH + 16  # a label that fits keeps the margin


@pytest.mark.parametrize("name", ["metric score", "paralign-parametric-sure+possible-lowercased score",
                                  "W" * 90])
def test_the_axis_names_are_inside_the_picture(picture, name) -> None:
    """The y axis' name stands upright centred on the plot (300 px high): a metric's name of
    some 40 characters or more ("paralign-parametric-sure+possible-lowercased score", 373 px)
    ran past the picture's top and bottom edges, cut in an <img> and in print. The picture now
    grows (the plot moves down) until both names fit; a name that fits changes nothing."""
    from paralign.viz.svg import text_width

    pic = picture(scatter([Point(0, 0), Point(1, 1)], x_label=name, y_label=name, title="t", line=(1, 0)))
    _, _, width, height = pic.viewbox()
    upright = pic.all("text", "y-label")[0]
    centre = float(upright.get("y"))
    assert centre - text_width(name) / 2 >= 0 and centre + text_width(name) / 2 <= height
    across = pic.all("text", "x-label")[0]
    middle = float(across.get("x"))
    assert middle - text_width(name) / 2 >= 0 and middle + text_width(name) / 2 <= width
    plot = pic.all("rect", "plot")[0]
    assert centre == pytest.approx(float(plot.get("y")) + HEIGHT / 2)  # still the plot's middle
    legend = pic.all("g", "legend-entry")[0]
    assert all(float(t.get("y")) + 10 <= height for t in legend.iter() if t.get("y"))
    if name == "metric score":
        assert float(plot.get("y")) == TOP and height == TOP + HEIGHT + 48 + 20


@pytest.mark.parametrize(("low", "high"), [(-1.7e308, 1.7e308), (0.0, 1.7e308), (-1.7e308, -1e308)])
def test_values_near_the_largest_float_are_plotted(picture, low, high) -> None:
    """The axis was rounded out past the largest float (1.8e308), or its length was: plotting
    finite scores such as 1.7e308 (a WMT metric's scores may be any finite number) stopped with
    an OverflowError ("int too large to convert to float", "cannot convert float infinity to
    integer"). The ticks now stay finite and the dots land at the plot's two ends."""
    from paralign.viz.intervals import Interval, interval_plot

    values = ticks(low, high)
    assert all(math.isfinite(v) for v in values) and values[0] <= low and values[-1] >= high
    assert values == sorted(values) and len(set(values)) == len(values)
    pic = picture(scatter([Point(low, high), Point(high, low)], x_label="x", y_label="y", title="t"))
    left = float(pic.all("rect", "plot")[0].get("x"))
    assert sorted(float(d.get("cx")) for d in pic.all("circle", "point")) == [
        pytest.approx(left, abs=2), pytest.approx(left + WIDTH, abs=2)]
    plot = picture(interval_plot([Interval("a", low, low, high)], x_label="x", title="t"))
    bar = [float(v) for v in plot.all("path", "bar")[0].get("d")[1:].replace("H", " ").split()]
    assert bar[2] - bar[0] == pytest.approx(360, abs=2)  # the bar spans the axis


def test_a_dots_paint_is_written_once_for_all_dots(picture) -> None:
    """Every dot repeated fill, fill-opacity, stroke and stroke-width (68 bytes of some 235): a
    plot of 100,000 pairs was 23.6 MB. The dots' group now carries them once."""
    points = [Point(k % 97 / 97, k % 89 / 89, f"line {k}") for k in range(2000)]
    svg = picture(scatter(points, x_label="x", y_label="y", title="t"))
    dots = svg.all("circle", "point")
    assert len(dots) == 2000
    assert not any(d.get(name) for d in dots for name in ("fill", "fill-opacity", "stroke", "stroke-width"))
    (group,) = svg.all("g", "points")
    assert (group.get("fill"), group.get("stroke")) != (None, None)
    assert len(svg.text.encode("utf-8")) / 2000 < 175
