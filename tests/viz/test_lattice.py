"""The lattice drawing: states layered by topological level, every edge with its word, labels
that never overlap, escaping, weights, and a picture that grows with the lattice."""

from __future__ import annotations

import itertools
import re

import pytest

from paralign.lattice import Lattice, msa_lattice
from paralign.viz.lattice import ROW, lattice_drawing, levels, place, spread
from paralign.viz.svg import FONT_SIZE, text_width

#: the -> people|persons -> died; an epsilon edge to a state whose edge skips a level.
SMALL = Lattice(5, ((0, "the", 1), (1, "people", 2), (1, "persons", 2), (2, "died", 4), (0, None, 3),
                    (3, "<b>&", 4)), (2, 1, 1, 2, 1, 1))
GROUP = [
    "at least 12 people were killed in the battle last week .",
    "at least 12 persons died in the fighting last week .",
    "last week 's fighting took the lives of 12 people .",
]


def test_levels_are_longest_paths_from_the_start() -> None:
    assert levels(SMALL) == [0, 1, 2, 1, 3]


def test_spread_keeps_order_and_distance_as_close_as_it_can() -> None:
    assert spread([0.0, 0.0, 0.0], 10) == pytest.approx([-10, 0, 10])
    assert spread([0.0, 100.0], 10) == pytest.approx([0, 100])
    assert spread([0.0, 4.0, 50.0], 10) == pytest.approx([-3, 7, 50])
    assert spread([], 10) == []


def test_states_and_edges_are_drawn_with_their_data(picture) -> None:
    svg = picture(lattice_drawing(SMALL))
    states = svg.all("g", "state")
    assert [s.get("data-state") for s in states] == ["0", "1", "2", "3", "4"]
    assert svg.all("g", "start")[0].get("data-state") == "0" and svg.all("g", "end")[0].get("data-state") == "4"
    edges = svg.all("g", "edge")
    assert [(e.get("data-source"), e.get("data-word"), e.get("data-target")) for e in edges] == [
        ("0", "the", "1"), ("1", "people", "2"), ("1", "persons", "2"), ("2", "died", "4"), ("0", None, "3"),
        ("3", "<b>&", "4")]
    labels = ["".join(e.find("{*}text").itertext()) for e in edges]
    assert labels == ["the", "people", "persons", "died", "ε", "<b>&"]
    assert svg.all("g", "epsilon")[0].get("data-source") == "0"
    assert "b" not in svg.tags()  # a word is text, never markup
    assert svg.title(edges[0]) == "the (state 0 → 1, used by 2 of the 3 sentences)"  # was "of the sentences"
    widths = [float(e.find("{*}path").get("stroke-width")) for e in edges]
    assert widths[0] > widths[1]  # used by more sentences: thicker
    assert all(e.find("{*}path").get("marker-end") == "url(#lattice-arrow)" for e in edges)
    assert [m.get("id") for m in svg.all("marker")] == ["lattice-arrow"]


def test_states_go_left_to_right_by_level() -> None:
    placed = place(SMALL)
    x = [p[0] for p in placed.states]
    assert x[0] < x[1] == x[3] < x[2] < x[4]
    assert placed.states[1][1] != placed.states[3][1]  # same column, different rows


def _label_boxes(lattice: Lattice) -> list[tuple[float, float, float, float]]:
    placed = place(lattice)
    return [(x - w / 2, y - 5 - FONT_SIZE, x + w / 2, y - 5) for x, y, w in placed.labels]


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lattice", [SMALL, msa_lattice([s.split() for s in GROUP])], ids=["small", "group"])
def test_labels_never_overlap(lattice: Lattice) -> None:
    boxes = _label_boxes(lattice)
    assert len(boxes) == lattice.n_edges
    assert not [(a, b) for a, b in itertools.combinations(boxes, 2) if _overlap(a, b)]
    placed = place(lattice)
    for (x, _y, w), (s, word, _d) in zip(placed.labels, lattice.edges, strict=True):
        assert w == pytest.approx(text_width(word or "ε"))
        assert x - w / 2 > placed.states[s][0]  # right of its source state


def test_parallel_edges_fan_out() -> None:
    placed = place(SMALL)
    assert abs(placed.labels[1][1] - placed.labels[2][1]) >= ROW


def test_everything_is_inside_the_viewbox(picture) -> None:
    svg = picture(lattice_drawing(msa_lattice([s.split() for s in GROUP])))
    _, _, width, height = svg.viewbox()
    shift = next(g for g in svg.all("g") if g.get("transform"))
    dx, dy = (float(v) for v in re.findall(r"-?[\d.]+", shift.get("transform")))
    for circle in svg.all("circle"):
        cx, cy, r = float(circle.get("cx")) + dx, float(circle.get("cy")) + dy, float(circle.get("r"))
        assert cx - r >= 0 and cx + r <= width and cy - r >= 0 and cy + r <= height


def test_bigger_lattices_make_bigger_pictures(picture) -> None:
    long = [" ".join(f"w{k}" for k in range(60)), " ".join(f"w{k}" for k in range(0, 60, 2))]
    small = picture(lattice_drawing(msa_lattice([s.split() for s in GROUP])))
    big = picture(lattice_drawing(msa_lattice([s.split() for s in long])))
    assert big.viewbox()[2] > 2 * small.viewbox()[2]


def test_one_state_lattice(picture) -> None:
    svg = picture(lattice_drawing(Lattice(1, ()), title="empty"))
    assert len(svg.all("g", "state")) == 1 and not svg.all("g", "edge") and svg.viewbox()[2] > 0
    assert svg.root[0].text == "empty"


def test_the_drawing_says_how_to_read_it(picture) -> None:
    """Nothing said what an edge's thickness, the green state or the double circle meant (the
    count was only in each edge's tooltip): the drawing's <desc> and the HTML page say it."""
    from paralign.viz.lattice import lattice_key

    key = lattice_key(SMALL)
    assert "start state (filled green)" in key and "end state (a double circle)" in key
    assert "the more of the 3 sentences it was built from use it" in key and "dashed edge (ε)" in key
    unweighted = Lattice(3, ((0, "a", 1), (1, "b", 2)))
    assert "thicker" not in lattice_key(unweighted) and "ε" not in lattice_key(unweighted)
    svg = picture(lattice_drawing(SMALL))
    assert [d.text for d in svg.all("desc")] == [key]


def test_a_lattice_of_one_sentence_is_worded_for_one(picture) -> None:
    """Built from one sentence, the key said "the more of the 1 sentence it was built from use it"
    and each tooltip "used by 1 of the 1 sentence": now the key says the sentence uses every edge,
    a tooltip that the sentence uses it; an edge of weight 0 is "used by no sentence"."""
    from paralign.viz.lattice import lattice_key

    one = Lattice(3, ((0, "a", 1), (1, "b", 2)), (1, 1))
    assert "It was built from 1 sentence, which uses every edge." in lattice_key(one)
    assert "the more of" not in lattice_key(one) and "thicker" not in lattice_key(one)
    tips = [t.text for t in picture(lattice_drawing(one)).all("title")][1:]
    assert "a (state 0 → 1, used by the sentence)" in tips and not any("of the 1" in t for t in tips)
    unused = Lattice(3, ((0, "a", 1), (1, "b", 2), (0, "c", 2)), (1, 1, 0))
    assert "an edge it does not use is drawn thinner" in lattice_key(unused)
    assert "c (state 0 → 2, used by no sentence)" in [t.text for t in picture(lattice_drawing(unused)).all("title")]
    tips = [t.text for t in picture(lattice_drawing(SMALL)).all("title")]
    assert "people (state 1 → 2, used by 1 of the 3 sentences)" in tips  # more than one: as before


def _chain(n: int, word: str = "word") -> Lattice:
    return Lattice(n, tuple((k, word, k + 1) for k in range(n - 1)))


def test_a_lattice_too_large_to_draw_is_refused_naming_the_outputs_without_a_limit() -> None:
    """A 2,000-state chain was drawn 247,205 px wide: no screen shows it, no SVG renderer draws
    it (cairo, and so rsvg-convert's PNG, stops at 32,767 px a side). It is now refused, with the
    size it would have and where to go instead (DOT for Graphviz, OpenFst text)."""
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=r"2000 states is too large to draw: its picture would be "
                       r"[\d,]+ x \d+ px, over the 32,767 px") as refused:
        lattice_drawing(_chain(2000))
    assert "lattice draw -o FILE.dot" in str(refused.value) and "Lattice.to_openfst" in str(refused.value)


def test_the_largest_drawable_chain_stays_within_the_bound_and_shows_every_state(picture) -> None:
    from paralign.viz.svg import MAX_SIDE

    drawable = next(n for n in range(400, 10, -10) if _fits(_chain(n)))
    svg = picture(lattice_drawing(_chain(drawable)))
    _, _, width, height = svg.viewbox()
    assert MAX_SIDE * 0.9 < width <= MAX_SIDE and height <= MAX_SIDE
    assert [s.get("data-state") for s in svg.all("g", "state")] == [str(k) for k in range(drawable)]
    assert len(svg.all("g", "edge")) == drawable - 1


def _fits(lattice: Lattice) -> bool:
    from paralign.errors import ConfigurationError

    try:
        lattice_drawing(lattice)
    except ConfigurationError:
        return False
    return True
