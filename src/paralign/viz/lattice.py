"""A word lattice drawn left to right, in pure Python (no Graphviz, no networkx).

States are placed in columns by their topological level (the longest path from the start
state), ordered within a column by where their predecessors are (one barycentre pass); the
columns are spaced so that every edge's word fits. Edges are curves with their word as label
(parallel edges between the same two states fan out, edges that skip columns arc above);
epsilon edges are dashed and labelled ε; an edge's weight (how many input sentences use it)
thickens it and is in its tooltip, and the picture's ``<desc>`` (:func:`lattice_key`) says how to
read it. Every state is a ``<g class="state">`` (``start``, ``end``)
with ``data-state``; every edge a ``<g class="edge">`` with ``data-source``, ``data-target``,
``data-word``, ``data-edge`` and ``data-weight`` when the lattice has weights. What the tooltips
say is also a table for a page to show beside the drawing (:func:`edge_table`).

Not for: building or querying lattices (:mod:`paralign.lattice`) or DOT output
(:meth:`paralign.lattice.Lattice.to_dot`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import counted
from .style import INK
from .svg import FONT_SIZE, Element, check_side, el, group, num, shorten, svg_root, text_width

if TYPE_CHECKING:  # pragma: no cover - drawing needs no numpy; the Lattice type is only read
    from ..lattice.word_lattice import Lattice

#: State radius, space between two ranks, distance between two slots of a rank, margin (px).
RADIUS, GAP, ROW, PAD = 7.0, 22.0, 36.0, 12.0
EPSILON_LABEL = "ε"
#: The start state's fill (Okabe & Ito's bluish green: 3.4:1 against the white of the other
#: states; #b9e4c9 was 1.4:1, a start state hard to tell apart) and the edges' ink.
START_FILL, EDGE_INK = "#009E73", "#4a5560"


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a lattice is drawn: each state's (x, y), and each edge's route: the points its
    curve passes through, from its source state to its target state, and where its label sits
    (x, y of the middle of the horizontal stretch under the label, and the label's width)."""

    states: tuple[tuple[float, float], ...]
    routes: tuple[tuple[tuple[float, float], ...], ...]
    labels: tuple[tuple[float, float, float], ...]


def levels(lattice: Lattice) -> list[int]:
    """Each state's topological level: the length (in edges) of the longest path from the start."""
    level = [0] * lattice.n_states
    for s, _w, d in lattice.edges:  # edges go forward between states numbered topologically
        level[d] = max(level[d], level[s] + 1)
    return level


def _label(word: str | None) -> str:
    return EPSILON_LABEL if word is None else shorten(word)


def spread(wanted: list[float], gap: float) -> list[float]:
    """Positions as close as possible (least squares) to `wanted` (sorted) with at least `gap`
    between neighbours: isotonic regression (pool adjacent violators) of wanted[k] - k * gap."""
    blocks: list[list[float]] = []  # [sum, count]
    for k, value in enumerate(wanted):
        blocks.append([value - k * gap, 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    fitted = [total / count for total, count in blocks for _ in range(int(count))]
    return [z + k * gap for k, z in enumerate(fitted)]


@dataclass(slots=True)
class _Layered:
    """The lattice as a proper layered graph: states at even ranks (2 x level), and per edge one
    node in each odd or even rank it crosses (the first, right after its source, holds the label)."""

    rank: list[int]
    preds: list[list[int]]
    order: list[int]  # tie-break inside a rank: the state's or the edge's number
    width: list[float]
    chains: list[list[int]]

    @classmethod
    def of(cls, lattice: Lattice) -> _Layered:
        level = levels(lattice)
        layered = cls([2 * lv for lv in level], [[] for _ in level], list(range(lattice.n_states)),
                      [2 * RADIUS] * lattice.n_states, [])
        for k, (s, w, d) in enumerate(lattice.edges):
            chain: list[int] = []  # the nodes a long edge passes through, one per layer
            previous = s
            for r in range(2 * level[s] + 1, 2 * level[d]):
                node = len(layered.rank)
                layered.rank.append(r)
                layered.preds.append([previous])
                layered.order.append(k)
                layered.width.append(text_width(_label(w)) if not chain else 0.0)
                chain.append(node)
                previous = node
            layered.preds[d].append(previous)
            layered.chains.append(chain)
        return layered

    def positions(self) -> tuple[list[float], list[float]]:
        """Each node's x (ranks spaced by their widest node) and y (rank by rank, in the order
        of the mean y of the predecessors, spread `ROW` apart)."""
        ranks: dict[int, list[int]] = defaultdict(list)
        for node, r in enumerate(self.rank):
            ranks[r].append(node)
        y = [0.0] * len(self.rank)
        x_of_rank, x = {}, 0.0
        for r in range(max(ranks) + 1):
            nodes = ranks.get(r, [])
            wanted = {n: sum(y[p] for p in self.preds[n]) / len(self.preds[n]) if self.preds[n] else 0.0
                      for n in nodes}
            nodes.sort(key=lambda n: (wanted[n], self.order[n]))
            for node, value in zip(nodes, spread([wanted[n] for n in nodes], ROW), strict=True):
                y[node] = value
            half = max((self.width[n] for n in nodes), default=0.0) / 2
            x_of_rank[r] = x + half if r else 0.0
            x = x_of_rank[r] + half + GAP
        return [x_of_rank[r] for r in self.rank], y


def place(lattice: Lattice) -> Placed:
    """Where the states, the edges' routes and their labels go (before margins are added)."""
    layered = _Layered.of(lattice)
    xs, ys = layered.positions()
    routes, labels = [], []
    for k, (s, _w, d) in enumerate(lattice.edges):
        chain = layered.chains[k]
        first, half = chain[0], layered.width[chain[0]] / 2
        labels.append((xs[first], ys[first], 2 * half))
        points = [(xs[s], ys[s]), (xs[first] - half, ys[first]), (xs[first] + half, ys[first])]
        points += [(xs[n], ys[n]) for n in chain[1:]] + [(xs[d], ys[d])]
        routes.append(tuple(points))
    return Placed(tuple(zip(xs[: lattice.n_states], ys[: lattice.n_states], strict=True)), tuple(routes),
                  tuple(labels))


def _path(points: tuple[tuple[float, float], ...]) -> str:
    """SVG path data through `points`: straight where level, else a curve leaving and entering
    horizontally."""
    (x, y), parts = points[0], [f"M{num(points[0][0])} {num(points[0][1])}"]
    for nx, ny in points[1:]:
        if ny == y:
            parts.append(f"L{num(nx)} {num(ny)}")
        else:
            mid = (x + nx) / 2
            parts.append(f"C{num(mid)} {num(y)} {num(mid)} {num(ny)} {num(nx)} {num(ny)}")
        x, y = nx, ny
    return "".join(parts)


def sentence_count(lattice: Lattice) -> int | None:
    """How many sentences the edge weights count (None without weights): the weights of the
    edges leaving the start state, where every sentence's path begins."""
    if not lattice.weights:
        return None
    return sum(lattice.weights[k] for k in lattice.out_edges(lattice.start))


def lattice_key(lattice: Lattice) -> str:
    """How to read a drawing of `lattice`, in words: the drawing's ``<desc>`` and the note above
    it in an HTML page (what the start and end states look like, what an edge's thickness and a
    dashed edge mean, when the lattice has them)."""
    parts = ["Read left to right: every path from the start state (filled green) to the end state "
             "(a double circle) spells a sentence, a word an edge."]
    sentences = sentence_count(lattice)
    if sentences == 1:  # "the more of the 1 sentence" said nothing: one sentence uses an edge or not
        parts.append("It was built from 1 sentence, which uses every edge." if all(lattice.weights) else
                     "It was built from 1 sentence; an edge it does not use is drawn thinner (its tooltip says so).")
    elif sentences is not None:
        parts.append(f"The thicker an edge, the more of the {counted(sentences, 'sentence')} it was built "
                     "from use it (its tooltip says how many).")
    if any(w is None for _, w, _ in lattice.edges):
        parts.append(f"A dashed edge ({EPSILON_LABEL}) has no word.")
    return " ".join(parts)


def edge_rows(lattice: Lattice) -> list[dict[str, object]]:
    """Each edge as a row (``source``, ``word`` (ε for an epsilon edge), ``target``, ``used``: how
    many sentences use it, None without weights): what the drawing shows as thickness and tells
    in tooltips, which only a mouse reaches, for a table beside it (:func:`edge_table`, the web
    app's lattice page)."""
    weights = lattice.weights or [None] * lattice.n_edges
    return [{"source": s, "word": EPSILON_LABEL if w is None else w, "target": d, "used": n}
            for (s, w, d), n in zip(lattice.edges, weights, strict=True)]


def edge_table(lattice: Lattice) -> Element:
    """The edges of `lattice` as a folded table (:func:`edge_rows`), for a page beside its drawing."""
    weighted = bool(lattice.weights)
    head = ["from state", "word", "to state", *(["sentences using it"] if weighted else [])]
    rows = [el("tr", *(el("th", h) for h in head))]
    for r in edge_rows(lattice):
        cells = [el("td", str(r["source"]), class_="value"), el("td", str(r["word"])),
                 el("td", str(r["target"]), class_="value")]
        if weighted:
            cells.append(el("td", str(r["used"]), class_="value"))
        rows.append(el("tr", *cells, class_="edge-row"))
    return el("details", el("summary", "the edges as a table"), el("table", *rows, class_="scores"),
              id="lattice-edges")


def _used_by(weight: int | None, sentences: int | None) -> str:
    """How many of the sentences use an edge, as its tooltip ends (empty without weights): of one
    sentence, whether it does (``used by 1 of the 1 sentence`` said it in a number's words)."""
    if weight is None or sentences is None:
        return ""
    if sentences == 1:
        return ", used by the sentence" if weight else ", used by no sentence"
    return f", used by {weight} of the {counted(sentences, 'sentence')}"


def _edge(lattice: Lattice, placed: Placed, k: int, ident: str, sentences: int | None) -> Element:
    s, w, d = lattice.edges[k]
    lx, ly, _ = placed.labels[k]
    weight = lattice.weights[k] if lattice.weights else None
    word = EPSILON_LABEL if w is None else w
    tip = f"{word} (state {s} → {d}{_used_by(weight, sentences)})"
    return group(
        [el("title", tip),
         el("path", d=_path(placed.routes[k]), fill="none", stroke=EDGE_INK,
            stroke_width=num(1.2 + 0.5 * min(weight or 0, 6)), stroke_dasharray="5 4" if w is None else None,
            marker_end=f"url(#{ident}-arrow)"),
         el("text", _label(w), x=num(lx), y=num(ly - 5), text_anchor="middle", fill=INK,
            stroke="white", stroke_width=4, stroke_linejoin="round", paint_order="stroke")],
        class_="edge epsilon" if w is None else "edge", data_edge=k, data_source=s, data_target=d,
        data_word=w, data_weight=weight,
    )


def _state(lattice: Lattice, placed: Placed, s: int) -> Element:
    x, y = placed.states[s]
    role = " start" if s == lattice.start else (" end" if s == lattice.end else "")
    circles = [el("circle", cx=num(x), cy=num(y), r=num(RADIUS), fill=START_FILL if s == lattice.start else "white",
                  stroke=INK, stroke_width=1.5)]
    if s == lattice.end:
        circles.append(el("circle", cx=num(x), cy=num(y), r=num(RADIUS - 3), fill="none", stroke=INK, stroke_width=1))
    name = "start state" if s == lattice.start else ("end state" if s == lattice.end else "state")
    return group([el("title", f"{name} {s}"), *circles], class_="state" + role, data_state=s)


def _extent(placed: Placed) -> tuple[float, float, float, float]:
    """The bounding box (min x, min y, max x, max y) of the states, routes and labels."""
    points = list(placed.states) + [p for route in placed.routes for p in route]
    lows = [x - RADIUS for x, _ in points] + [x - w / 2 for x, _, w in placed.labels]
    highs = [x + RADIUS for x, _ in points] + [x + w / 2 for x, _, w in placed.labels]
    tops = [y - RADIUS for _, y in points] + [y - 5 - FONT_SIZE for _, y, _ in placed.labels]
    bottoms = [y + RADIUS for _, y in points]
    return min(lows), min(tops), max(highs), max(bottoms)


def lattice_drawing(lattice: Lattice, *, title: str | None = None, ident: str = "lattice") -> Element:
    """The drawing of `lattice` as an ``<svg>`` element (:func:`.svg.svg_file` writes it as a
    file); `ident` prefixes the picture's ids (unique per page). ConfigurationError when a side
    of it would pass :data:`.svg.MAX_SIDE` (:func:`.svg.check_side`; a 2,000-state chain was
    247,205 px wide; a chain of about 260 words reaches it, one sentence of the web app's, 300
    characters, draws at most about 10,700 px wide), naming the
    outputs that have no size limit: `lattice build` writes OpenFst text of sentences only, so the
    message says so (it has no --lattice: a lattice JSON's OpenFst text is Lattice.to_openfst's)."""
    placed = place(lattice)
    sentences = sentence_count(lattice)
    x0, y0, x1, y1 = _extent(placed)
    width, height = x1 - x0 + 2 * PAD, y1 - y0 + 2 * PAD
    check_side(width, height, f"a lattice of {counted(lattice.n_states, 'state')}",
               "write its DOT for Graphviz instead (`paralign lattice draw -o FILE.dot`, Lattice.to_dot) or its "
               "OpenFst text (`paralign lattice build` of the sentences it was built from, Lattice.to_openfst)")
    arrow = el("marker", el("path", d="M0 0L10 5L0 10z", fill=EDGE_INK), id=f"{ident}-arrow",
               viewBox="0 0 10 10", refX=num(10 + RADIUS * 10 / 8), refY=5, markerWidth=8, markerHeight=8,
               markerUnits="userSpaceOnUse", orient="auto")
    body = [
        el("defs", arrow),
        el("desc", lattice_key(lattice)),
        group([group([_edge(lattice, placed, k, ident, sentences) for k in range(lattice.n_edges)], class_="edges"),
               group([_state(lattice, placed, s) for s in range(lattice.n_states)], class_="states")],
              transform=f"translate({num(PAD - x0)} {num(PAD - y0)})"),
    ]
    name = title or f"word lattice: {counted(lattice.n_states, 'state')}, {counted(lattice.n_edges, 'edge')}"
    return svg_root(width, height, body, title=name, ident=ident)
