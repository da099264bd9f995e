"""The side-by-side view: one line per link from its source word to its target word, solid or
dashed, coloured against gold; unaligned words; long sentences widen the picture."""

from __future__ import annotations

import pytest

from paralign.alignment import Alignment
from paralign.viz.lines import WORD_GAP, alignment_lines
from paralign.viz.marks import AlignmentView as View
from paralign.viz.style import PLAIN, STATUS_COLOURS
from paralign.viz.svg import text_width

SOURCE = ["the", "cat", "sat", "<script>"]
TARGET = ["a", "cat", "was", "sitting", "&"]
SYSTEM = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 3)], possible=[(2, 2), (3, 4)])
GOLD = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 3), (3, 1)], possible=[(2, 2)])


def words(svg, side: str) -> dict[int, tuple[float, float]]:
    key = "data-i" if side == "source" else "data-j"
    return {int(t.get(key)): (float(t.get("x")), float(t.get("y"))) for t in svg.all("text", f"{side}-word")}


def test_each_link_is_a_line_between_its_two_words(picture) -> None:
    svg = picture(alignment_lines(View(SOURCE, TARGET, SYSTEM)))
    lines = svg.all("line", "link")
    assert len(lines) == 5 and len(svg.all("line", "sure")) == 3 and len(svg.all("line", "possible")) == 2
    source, target = words(svg, "source"), words(svg, "target")
    for line in lines:
        i, j = int(line.get("data-i")), int(line.get("data-j"))
        assert float(line.get("x1")) == pytest.approx(source[i][0], abs=0.02)
        assert float(line.get("x2")) == pytest.approx(target[j][0], abs=0.02)
        assert source[i][1] < float(line.get("y1")) < float(line.get("y2")) < target[j][1]
        assert line.get("stroke") == PLAIN
        assert (line.get("stroke-dasharray") is not None) == ("possible" in line.get("class").split())
    assert svg.title(svg.all("line", "possible")[1]) == "<script> ↔ & (possible)"


def test_gold_colours_the_lines(picture) -> None:
    svg = picture(alignment_lines(View(SOURCE, TARGET, SYSTEM, gold=GOLD)))
    counts = {status: len(svg.all("line", status)) for status in STATUS_COLOURS}
    assert counts == {"correct": 3, "missed": 1, "wrong": 2}
    for status, colour in STATUS_COLOURS.items():
        assert {line.get("stroke") for line in svg.all("line", status)} == {colour}
    assert [t.text for t in svg.all("text") if t.text and ":" in t.text][-3:] == [
        "correct (a gold sure link): 3", "missed (gold sure link not found): 1", "wrong (not a gold sure link): 2"]


def test_unaligned_words_are_grey_and_words_are_text(picture) -> None:
    svg = picture(alignment_lines(View(SOURCE, TARGET, Alignment.from_links([(1, 1)]))))
    assert [t.get("data-i") for t in svg.all("text", "unaligned") if t.get("data-i")] == ["0", "2", "3"]
    assert [t.text for t in svg.all("text", "source-word")] == SOURCE and "script" not in svg.tags()


def test_confidence_sets_the_width(picture) -> None:
    """A confidence made a line paler (opacity 0.2 at 0: 1.4:1 on white); it now makes it thinner
    and the colour stays full."""
    svg = picture(alignment_lines(View(SOURCE, TARGET, SYSTEM, confidence={(0, 0): 0.0, (1, 1): 1.0})))
    first, second, third = svg.all("line", "link")[:3]
    assert float(first.get("stroke-width")) == pytest.approx(1.0)
    assert float(second.get("stroke-width")) == pytest.approx(3.5)
    assert third.get("stroke-width") is None  # no confidence: the group's width
    assert all(line.get("stroke-opacity") is None for line in svg.all("line"))


def test_long_sentences_widen_the_picture_and_words_never_overlap(picture) -> None:
    long_words = [f"token{k}" for k in range(60)]
    long = picture(alignment_lines(View(long_words, long_words, Alignment.from_links([(k, k) for k in range(60)]))))
    short = picture(alignment_lines(View(SOURCE, TARGET, SYSTEM)))
    assert long.viewbox()[2] > 5 * short.viewbox()[2]
    for side in ("source", "target"):
        texts = long.all("text", f"{side}-word")
        spans = [(float(t.get("x")) - text_width(t.text) / 2, float(t.get("x")) + text_width(t.text) / 2)
                 for t in texts]
        assert all(a[1] + WORD_GAP <= b[0] + 0.02 for a, b in zip(spans, spans[1:], strict=False))
        assert spans[0][0] >= 0 and spans[-1][1] <= long.viewbox()[2]


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_unaligned_words_stay_readable(picture) -> None:
    """Unaligned words were #8a8f96 on the white page: 3.3:1, below WCAG AA's 4.5:1 for text this
    size (14 px). Their grey is now readable and still lighter than the aligned words' ink."""
    svg = picture(alignment_lines(View(SOURCE, TARGET, Alignment.from_links([(0, 0)]))))
    unaligned = svg.all("text", "unaligned")
    assert len(unaligned) == 7
    grey = {t.get("fill") for t in unaligned}
    assert len(grey) == 1
    (grey,) = grey
    ink = svg.all("g", "source-words")[0].get("fill")
    contrast = 1.05 / (_luminance(grey) + 0.05)
    assert contrast >= 4.5, contrast
    assert _luminance(grey) > 2 * _luminance(ink)  # still told apart from the aligned words


def _drawn_without_colour(svg, element) -> tuple[str | None, bool]:
    """What tells a link's line (or legend swatch) apart once its colour is gone (in greyscale,
    or for a reader who cannot tell its colour): its dashes, and whether a cross marks it."""
    if element.get("data-i") is not None:  # a link: its cross is beside it, with its data-i and data-j
        line = element
        crossed = any((c.get("data-i"), c.get("data-j")) == (line.get("data-i"), line.get("data-j"))
                      for c in svg.all("path", "cross"))
    else:  # a legend's swatch: the line, and the cross with it
        line = next(e for e in element.iter() if e.tag.endswith("line"))
        crossed = any("cross" in e.get("class", "").split() for e in element.iter())
    return line.get("stroke-dasharray"), crossed


def test_the_statuses_differ_in_more_than_colour(picture) -> None:
    """Correct and wrong links were both solid lines told apart by colour alone: blue and rose,
    1.4:1 in greyscale (a printed paper) and the same line to a reader who cannot tell the hues.
    A wrong link now carries a cross at its middle, as its box in the grid does."""
    system = Alignment.from_links(sure=[(0, 0), (1, 1), (0, 2)], possible=[(2, 2)])  # (0, 2): wrong and sure
    svg = picture(alignment_lines(View(SOURCE, TARGET, system, gold=GOLD)))
    by_status: dict[str, set] = {}
    for line in svg.all("line", "sure"):
        status = next(s for s in STATUS_COLOURS if s in line.get("class").split())
        by_status.setdefault(status, set()).add(_drawn_without_colour(svg, line))
    assert set(by_status) == set(STATUS_COLOURS)
    assert all(len(shapes) == 1 for shapes in by_status.values()), by_status
    assert len({shape for shapes in by_status.values() for shape in shapes}) == 3, by_status
    swatches = {e.get("data-entry"): _drawn_without_colour(svg, e[0]) for e in svg.all("g", "legend-entry")}
    assert len({swatches[status] for status in STATUS_COLOURS}) == 3, swatches
    assert swatches["wrong"] == next(iter(by_status["wrong"]))


def test_a_wrong_links_cross_is_at_its_middle(picture) -> None:
    svg = picture(alignment_lines(View(SOURCE, TARGET, SYSTEM, gold=GOLD)))
    wrong = svg.all("line", "wrong")
    crosses = [c for c in svg.all("path", "cross") if c.get("data-i") is not None]  # not the legend's
    assert len(crosses) == len(wrong) == 2
    for line, cross in zip(wrong, crosses, strict=True):
        assert (cross.get("data-i"), cross.get("data-j")) == (line.get("data-i"), line.get("data-j"))
        numbers = [float(v) for v in cross.get("d").replace("M", " ").replace("L", " ").split()]
        xs, ys = numbers[0::2], numbers[1::2]
        middle = ((float(line.get("x1")) + float(line.get("x2"))) / 2, (float(line.get("y1")) + float(line.get("y2"))) / 2)
        assert sum(xs) / len(xs) == pytest.approx(middle[0], abs=0.02)
        assert sum(ys) / len(ys) == pytest.approx(middle[1], abs=0.02)


def test_a_missed_possible_link_is_not_drawn_as_a_missed_sure_one(picture) -> None:
    """Counting gold's possible links too, a missed gold possible link was drawn exactly as a
    missed sure one (dotted, the same colour): the lines view lost its kind, which the grid
    shows (hatched) and the tooltip names. It is now dashed and dotted."""
    gold = Alignment.from_links(sure=[(0, 0), (1, 1)], possible=[(3, 4)])
    svg = picture(alignment_lines(View(SOURCE, TARGET, Alignment.from_links([(0, 0)]), gold=gold,
                                       links="sure+possible")))
    (sure,) = [line for line in svg.all("line", "missed") if "sure" in line.get("class").split()]
    (possible,) = [line for line in svg.all("line", "missed") if "possible" in line.get("class").split()]
    assert sure.get("stroke") == possible.get("stroke")
    assert sure.get("stroke-dasharray") != possible.get("stroke-dasharray")
    drawn = {line.get("stroke-dasharray") for line in svg.all("line", "link") if "missed" not in line.get("class")}
    assert possible.get("stroke-dasharray") not in drawn
