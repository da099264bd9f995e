"""`evaluate-aligner --report`: the scores, then every gold pair's grid against gold, worst first.

Pairs are ordered by their own F1 (lowest first; ties in gold order) and each is a
``<section class="pair ...">`` with the classes ``has-missed``, ``has-wrong`` or ``perfect``
(no missed and no wrong link), so the radio buttons above them filter by error type with CSS
alone. The links are coloured as :mod:`..marks` counts them, which is what the scores count.
Only the :data:`..html.DRAWN` worst pairs get their grid (the others show their scores, sentences and
links, and the page says so above them), and a section is laid out only when it comes near the
window (:data:`PAIR_CSS`): a report of 10,000 pairs, each drawn, was a page of 83 MB that took
22 s to open in Chromium (31 to 42 s on a busy machine, where it now takes about 3 s).

Not for: aligning or scoring (:mod:`paralign.aligners.evaluation`) or writing the file (the CLI).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...aligners.evaluation import PairResult
from ..grid import alignment_grid
from ..html import (
    DRAWN,
    Section,
    drawn,
    drawn_only,
    isolated,
    merged,
    not_drawn,
    page,
    sentences,
    signed,
)
from ..marks import AlignmentView, status_counts
from ..svg import Element, el, json_text
from .parts import CSS, filter_controls, filter_css, number, score_table

#: The score table: label, key in evaluate-aligner's JSON, shown as a percentage?
SCORE_ROWS = (
    ("pairs scored", "pairs", False), ("pairs skipped", "skipped", False),
    ("macro precision", "macro.precision", True), ("macro recall", "macro.recall", True),
    ("macro F1", "macro.f1", True), ("micro precision", "micro.precision", True),
    ("micro recall", "micro.recall", True), ("micro F1", "micro.f1", True),
    ("exact match", "exact", True), ("AER", "aer", True), ("gold links", "gold_links", False),
    ("system links", "system_links", False), ("annotate seconds", "annotate_seconds", False),
    ("align seconds", "align_seconds", False),
)
#: The filter: radio value, label, the class a shown pair has (None: every pair).
FILTERS = (("all", "all pairs", None), ("missed", "with missed links", "has-missed"),
           ("wrong", "with wrong links", "has-wrong"), ("perfect", "perfect", "perfect"))
#: A pair's section is laid out only near the window, as a picture's box is (:func:`..html.figure`).
PAIR_CSS = "section.pair { content-visibility: auto; contain-intrinsic-size: auto 20em; }\n"


def worst_first(pairs: Sequence[PairResult]) -> list[PairResult]:
    """`pairs` by their F1, lowest first (ties in gold order)."""
    return sorted(pairs, key=lambda p: (p.counts.f1, p.position))


def _classes(counts: Mapping[str, int]) -> list[str]:
    classes = [f"has-{status}" for status in ("missed", "wrong") if counts[status]]
    return classes or ["perfect"]


def pair_section(pair: PairResult, links: str = "sure", *, not_drawn_why: str | None = None) -> Section:
    """One pair: its scores, sentences, system and gold links, and its grid against gold (with
    `not_drawn_why`, a :func:`.html.not_drawn` note saying it in the grid's place, as
    :func:`.html.alignment_section` takes it)."""
    gold = pair.gold
    view = AlignmentView(gold.source, gold.target, pair.system, gold.alignment, links)
    counts = status_counts(view.marks)
    ident = f"pair-{pair.position}"
    c = pair.counts
    heading = tuple(merged([f"pair {pair.position} (", isolated(gold.id), f"): F1 {number(c.f1, True)}"]))
    body: tuple[Element, ...] = (
        el("p", f"precision {number(c.precision, True)} · recall {number(c.recall, True)} · "
                f"correct {counts['correct']}, missed {counts['missed']}, wrong {counts['wrong']}",
           class_="pair-scores"),
        sentences(gold.source, gold.target),
        el("p", "system: ", el("code", pair.system.to_pharaoh() or "(none)")),
        el("p", "gold: ", el("code", gold.alignment.to_pharaoh() or "(none)")),
        drawn(alignment_grid, view, f"{ident}-grid") if not_drawn_why is None else not_drawn("grid", not_drawn_why),
    )
    attrs = (("class", " ".join(["pair", *_classes(counts)])), ("data-position", str(pair.position)),
             ("data-id", gold.id), ("data-f1", json_text(c.f1)), ("data-missed", str(counts["missed"])),
             ("data-wrong", str(counts["wrong"])))
    return Section(heading, body, ident, attrs)


def alignment_report(result: Mapping, pairs: Sequence[PairResult], *, title: str | None = None,
                     draw: int = DRAWN) -> str:
    """The whole report page: `result` (evaluate-aligner's JSON) as a score table, then a
    section per pair of `pairs`, worst first, under the error-type filter; the first `draw`
    with their grids."""
    links = str(result.get("links", "sure"))
    undrawn = "the report draws the worst pairs' grids only (see above)"
    sections = [pair_section(p, links, not_drawn_why=None if k < draw else undrawn)
                for k, p in enumerate(worst_first(pairs))]
    shown = {value: cls for value, _, cls in FILTERS if cls}
    counts = [(value, label, sum(1 for s in sections if cls is None or cls in dict(s.attrs)["class"].split()))
              for value, label, cls in FILTERS]
    signature = result.get("signature")
    intro: list[Element] = [
        el("p", *merged(["gold: ", isolated(str(result.get("gold", ""))), f" · links counted: {links}"]), class_="note"),
        *signed(signature),  # none: no empty line
        score_table(result, SCORE_ROWS),
    ]
    for row in result.get("skipped_rows", ()):
        intro.append(el("p", *merged([f"skipped pair {row['pair']}: ", isolated(str(row["reason"]))]), class_="error"))
    intro.append(el("h2", "Pairs, worst first", id="pairs"))
    intro += drawn_only(draw, len(pairs), f"the {draw:,} worst pairs are drawn as grids", "the scores, sentences and links")
    intro += [el("p", "Show: ", class_="note"), *filter_controls("filter", counts)]
    return page(title or "Aligner evaluation", sections, intro=intro,
                css=CSS + PAIR_CSS + filter_css("filter", shown))
