"""One self-contained HTML page holding many pictures: a heading per pair (or lattice, ...).

The page carries everything inline (the SVG pictures and a small stylesheet): no external asset,
no JavaScript (reports filter with CSS alone), no internet needed to view it. A picture is laid
out only when it comes near the window (:func:`figure`), so a page of 1,000 pairs opens quickly. Every text is
escaped, so a sentence ``<script>alert(1)</script>`` shows as text, and a word holding a bidi
override (U+202E) is isolated in a ``<bdi>`` (:func:`isolated`), so it reorders only itself (in a
tooltip or the page's title, plain text, between an FSI and a PDI: :func:`.svg.isolated_runs`). A picture wider than the
window scrolls inside its own box instead of being shrunk (printed, it is shrunk to the paper:
paper cannot scroll, and its right part was cut off). What the keyboard is on (a link, a
field, a report's filter) has a 3 px outline, 7:1 on white (Chromium's own was a 1 px ring). The page is also well-formed XML, so tests read it with
``xml.etree`` as well as ``html.parser``.

Not for: drawing the pictures (:mod:`.grid`, :mod:`.lines`, :mod:`.lattice`) or the reports of
evaluations (:mod:`.reports`: each builds its sections and passes them to :func:`page`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..errors import ConfigurationError
from .grid import alignment_grid
from .lines import alignment_lines
from .marks import AlignmentView
from .svg import Element, el, has_bidi_control

CSS = """
body { font-family: "DejaVu Sans", Verdana, Helvetica, Arial, sans-serif; color: #222;
       margin: 1.5em; line-height: 1.4; overflow-wrap: break-word; }
h1 { font-size: 1.4em; }
h2 { font-size: 1.1em; margin-top: 2em; border-top: 1px solid #c8ced6; padding-top: 0.8em; }
.figure { overflow-x: auto; margin: 0.8em 0; content-visibility: auto; contain-intrinsic-size: auto 20em; }
.figure svg { display: block; }
.sentences { margin: 0.3em 0; }
.sentences .side { display: inline-block; min-width: 4.5em; color: #5f6670; }
.error { color: #a4332b; }
code { background: #f4f6f8; padding: 0 0.25em; }
:focus-visible { outline: 3px solid #0b5394; outline-offset: 2px; }
@media print { .figure svg { max-width: 100% !important; height: auto !important; } } /* paper cannot scroll */
"""


@dataclass(frozen=True, slots=True)
class Section:
    """A heading (a text, or texts and elements: a word isolated, :func:`isolated`) and what
    goes under it (HTML or SVG elements, in order). With `attrs` (name, value pairs, e.g. a
    class and data attributes a report filters on) the page wraps the heading and body in a
    ``<section>`` carrying them."""

    heading: str | tuple[Element | str, ...]
    body: tuple[Element, ...] = ()
    ident: str | None = None
    attrs: tuple[tuple[str, str], ...] = ()


def signature_note(signature: str, scope: str = "") -> Element:
    """The paragraph that shows a result's settings signature, ``signature: <code>...</code>``
    (pages put it under their title), with what it signs (`scope`: ``lines 1, 3``) in brackets
    after it where a page's items sign apart."""
    return el("p", "signature: ", el("code", signature), *([f" ({scope})"] if scope else []), class_="note")


def signed(signature: str | None) -> list[Element]:
    """The :func:`signature_note` of `signature` as a page's intro takes it, or none where there
    is no signature (a line "signature:" over an empty box said nothing: ``paraeval --report``
    of inputs none of which could be scored, a report of a result made without one)."""
    return [signature_note(signature)] if signature else []


def figure(picture: Element) -> Element:
    """A picture in its own box (scrolling when wider than the page). The box is drawn only
    near the window (``content-visibility: auto``: a page of 1,000 pairs took 5 s to show in
    Chromium, laying out 2,000 pictures nobody was looking at yet; their text stays in the
    page for search and screen readers); the picture's height is the box's size until then,
    so the scroll bar neither jumps nor lies."""
    height = picture.get("height") if picture.tag == "svg" else None
    return el("div", picture, class_="figure",
              style=None if height is None else f"contain-intrinsic-block-size: auto {height}px")


def isolated(text: str) -> Element | str:
    """`text` in a ``<bdi>`` when it holds a bidi embedding, override or isolate (an RLO,
    U+202E: :data:`.svg.BIDI_CONTROLS`), else as it is. A browser ends what the text opened at
    the element's end: an RLO in a word reversed the rest of its paragraph, the next words and
    the page's own ("“a\u202ebc” (paraphrase) matched" showed as "”cb“ dehctam (esarhparap)")."""
    return el("bdi", text) if has_bidi_control(text) else text


def merged(parts: Iterable[Element | str]) -> list[Element | str]:
    """`parts` with each run of texts made one text (an element's children as they read)."""
    out: list[Element | str] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        else:
            out.append(part)
    return out


def words(tokens: Sequence[str]) -> list[Element | str]:
    """`tokens` joined by spaces as an element's children, each one holding a bidi control
    isolated (:func:`isolated`): one text when none does, as ``" ".join`` gave."""
    return merged(part for k, token in enumerate(tokens) for part in ((" ",) if k else ()) + (isolated(token),))


def sentences(source: Sequence[str], target: Sequence[str]) -> Element:
    """The two tokenised sentences, one a line (each word that holds a bidi control isolated:
    :func:`words`)."""
    return el("div",
              el("p", el("span", "source", class_="side"), *words(source), class_="sentences"),
              el("p", el("span", "target", class_="side"), *words(target), class_="sentences"))


def drawn(draw: Callable[..., Element], view: AlignmentView, ident: str) -> Element:
    """`draw(view, ident=ident)` in its :func:`figure`; for a pair too large to draw
    (:func:`.svg.check_side`) the reason in its place, so a page of many pairs keeps the others
    (and this pair's sentences and links, written above its pictures)."""
    try:
        return figure(draw(view, ident=ident))
    except ConfigurationError as too_large:
        return el("p", f"not drawn: {too_large}", class_="error")


#: How many pairs a page of pairs draws (the others shown as text): `align --format html` its
#: first pairs' grids and lines, `evaluate-aligner --report` its worst pairs' grids. A page of
#: every pair's pictures grew 12 kB a pair: 2,000 pairs of `align` were 24 MB and 2.5 to 3 s to
#: open in Chromium, 10,000 pairs of a report 83 MB and 22 s.
DRAWN = 1000


def not_drawn(what: str, why: str) -> Element:
    """The note in the place of a pair's pictures (`what`: ``grid``) when the page draws others
    only (:data:`DRAWN`), saying `why`."""
    return el("p", f"{what} not drawn: {why}", class_="note not-drawn")


def drawn_only(draw: int, total: int, drawn: str, shown: str) -> list[Element]:
    """The note above the pairs of a page that draws `draw` of its `total` pairs only, none when
    it draws them all: "Only {drawn}; of the other ... the page shows {shown}" (`drawn`: ``the
    1,000 worst pairs are drawn as grids``)."""
    if total <= draw:
        return []
    return [el("p", f"Only {drawn}; of the other {total - draw:,} the page shows {shown} (a page of every "
                    "picture would be too large to open quickly).", class_="note drawn-only")]


def error_section(heading: str, message: str, ident: str | None = None) -> Section:
    """A section that says why there is no picture."""
    return Section(heading, (el("p", message, class_="error"),), ident)


def alignment_section(heading: str, view: AlignmentView, *, ident: str = "pair",
                      not_drawn_why: str | None = None) -> Section:
    """A pair's section: its sentences, its Pharaoh links (and their confidences, when it has
    some: a picture shows them as shading, a tooltip gives the figure to a mouse only), its grid
    and its lines view (`ident` must be unique in the page: the pictures' ids start with it);
    with `not_drawn_why`, a :func:`not_drawn` note saying it in the pictures' place."""
    confidence = view.confidence or {}
    # a link's confidence is drawn as shading, exactly only in its tooltip: written out too
    confidences = (el("p", "confidences: ", el("code", " ".join(f"{i}-{j}:{confidence[i, j]:.2f}" for i, j in
                                                                sorted(confidence))), class_="confidences"),)
    return Section(heading, (  # no None in the body: a section with attrs is an Element of it as it is
        sentences(view.source, view.target),
        el("p", "links: ", el("code", view.alignment.to_pharaoh() or "(none)")),
        *(confidences if confidence else ()),
        *((drawn(alignment_grid, view, f"{ident}-grid"), drawn(alignment_lines, view, f"{ident}-lines"))
          if not_drawn_why is None else (not_drawn("grid and lines", not_drawn_why),)),
    ), ident)


def page(title: str, sections: Iterable[Section], *, intro: Sequence[Element] = (), css: str = "") -> str:
    """The whole page as text: `title`, then `intro`, then each section under its heading; `css`
    is added to the page's stylesheet."""
    body: list[Element] = [el("h1", title), *intro]
    for section in sections:
        heading = (section.heading,) if isinstance(section.heading, str) else section.heading
        parts = [el("h2", *heading, id=section.ident), *section.body]
        body += [Element("section", section.attrs, tuple(parts))] if section.attrs else parts
    document = el(
        "html",
        el("head", el("meta", charset="utf-8"),
           el("meta", name="viewport", content="width=device-width, initial-scale=1"),
           el("title", title), el("style", CSS + css)),
        el("body", *body),
        lang="en",
    )
    return "<!DOCTYPE html>\n" + document.to_xml() + "\n"

