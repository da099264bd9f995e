"""The scatter plot: a dot per finite point at the right place, round ticks, the fit line."""

from __future__ import annotations

import math

import pytest

from paralign.viz.scatter import HEIGHT, LEFT, TOP, WIDTH, Point, scatter, ticks


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


def test_no_points_still_draws_axes(picture) -> None:
    pic = picture(scatter([], x_label="x", y_label="y", title="empty"))
    assert pic.all("circle") == [] and pic.all("g", "x-axis")
