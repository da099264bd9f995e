"""Hostile and odd text in every picture and page: MT output holds anything, and each output
must still parse, keep user text as text (never markup or script), write as UTF-8 and, in the
terminal, send no control or bidi-override character as it came.

Each text is put in as one token (or lattice word, or paraeval word) of a small input; the
outputs are built in the library, without spaCy, so the module runs in about a second."""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from paralign.aligners.evaluation import PairResult
from paralign.alignment import Alignment
from paralign.corpora.base import AlignedPair
from paralign.corpora.sts import StsPair
from paralign.lattice import Lattice
from paralign.metrics.alignment_scores import PairCounts, score_alignments
from paralign.metrics.paraeval.paper import MatchedSpan
from paralign.similarity.sts import StsFileResult, StsReport, sts_from_scores
from paralign.viz import lattice_drawing
from paralign.viz.grid import alignment_grid
from paralign.viz.html import Section, alignment_section, figure, page
from paralign.viz.intervals import Interval, interval_plot
from paralign.viz.lines import alignment_lines
from paralign.viz.marks import AlignmentView
from paralign.viz.reports import alignment_report
from paralign.viz.reports.paraeval import highlighted, match_list
from paralign.viz.reports.sts import pairs_table, sts_report
from paralign.viz.scatter import Point, scatter
from paralign.viz.svg import svg_file
from paralign.viz.terminal import display_width, pretty

HOSTILE = {
    "script": "<script>alert(1)</script>",
    "svg-break": "</svg><svg onload=x>",
    "quotes-entity": "\"'&amp;",
    "cdata-end": "]]>",
    "comment": "<!--",
    "ampersand": "&",
    "rtl-override": "a\u202eb",
    "controls": "".join(chr(c) for c in range(32) if c not in (9, 10, 13)) + "x",
    "escape-sequence": "\x1b[2J\x1b]0;owned\x07red",
    "c1-csi": "\x9b31mred",
    "lone-surrogate": "\ud800x\udfff",
    "bom": "\ufeffword",
    "long": "x" * 5000,
    "emoji-combining": "😀👍🏽 e\u0301 👨\u200d👩\u200d👧",
    "tab-newline": "a\tb\nc\rd",
    "nonchars": "\ufffe\uffff",
}
#: The bidi classes of the embeddings, overrides and isolates.
BIDI = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
SCRIPTLIKE = {"script", "img", "iframe", "object", "embed", "foreignObject"}


def _view(word: str) -> AlignmentView:
    source, target = ["the", word, "sat"], ["a", word, "was", "sitting"]
    return AlignmentView(source, target, Alignment.from_links(sure=[(0, 0), (1, 1)], possible=[(2, 3)]),
                         gold=Alignment.from_links(sure=[(0, 0), (1, 1), (2, 2)]))


def _report(word: str) -> str:
    gold = AlignedPair(f"id-{word}", ("the", word), (word, "b"), Alignment.from_links([(0, 0), (1, 1)]))
    system = Alignment.from_links([(0, 1), (1, 0)])
    pair = PairResult(1, gold, system, PairCounts.of(gold.alignment, system))
    result = score_alignments([gold.alignment], [system]).to_dict()
    result.update(gold=f"gold-{word}.jsonl", skipped_rows=[{"pair": 2, "reason": word}])
    return alignment_report(result, [pair], title=f"report {word}")


def _paraeval(word: str) -> str:
    tokens = ("the", word, "sat", word)
    spans = (MatchedSpan(0, 1, "exact", ("the",)), MatchedSpan(1, 3, "paraphrase", (word, f"{word} on")),
             MatchedSpan(3, 4, "unmatched"))
    return page(word, [Section(word, (highlighted(tokens, spans), match_list(tokens, spans)))])


def _sts(word: str) -> str:
    pairs = [(StsPair(f"id-{word}", 2.5, f"the {word} sat", word, 3), 0.25), (StsPair("b", 4.0, "x", "y", 4), 0.75)]
    plot = scatter([Point(0.25, 2.5, word), Point(0.75, 4.0, "b")], x_label=word, y_label=word, title=word)
    return page(word, [Section(word, (figure(plot), pairs_table(pairs)))])


def _sts_report(word: str) -> str:
    """The whole `evaluate-sts --report` page, the word in a file's name and path (the section's
    heading: "NAME (PATH)") and in its sentences."""
    pairs = tuple(StsPair(f"id-{k}", gold, f"the {word} sat", f"{word} {k}", k + 1)
                  for k, gold in enumerate((1.0, 3.0, 5.0)))
    result = StsFileResult(f"{word}.tsv", f"data/{word}.tsv",
                           sts_from_scores([0.2, 0.9, 0.8], [1.0, 3.0, 5.0], signal="sultan2014"), (), pairs)
    report = StsReport((result,), "sultan2014", "sultan:default")
    return sts_report(report, report.to_dict())


def _word(word: str) -> str:
    """`word` as a lattice word: a Lattice refuses one holding a lone surrogate (no character), so
    that word is drawn with U+FFFD in its place (as the picture's writer shows it), its title as given."""
    return re.sub("[\ud800-\udfff]", "\ufffd", word)


#: Each output: name -> a function of the hostile word giving the file's text.
OUTPUTS = {
    "grid.svg": lambda w: svg_file(alignment_grid(_view(w), title=w)),
    "lines.svg": lambda w: svg_file(alignment_lines(_view(w))),
    "lattice.svg": lambda w: svg_file(lattice_drawing(
        Lattice(4, ((0, "the", 1), (1, _word(w), 2), (1, None, 2), (2, _word(w) + "s", 3)), (2, 1, 1, 2)), title=w)),
    "pairs.html": lambda w: page(f"pairs {w}", [alignment_section(w, _view(w))]),
    "evaluate-aligner report": _report,
    "paraeval report": _paraeval,
    "sts report parts": _sts,
    "sts report": _sts_report,
    "intervals.svg": lambda w: svg_file(interval_plot([Interval(w, 0.5, 0.25, 0.75), Interval("b", 0.1, 0.0, 0.2)],
                                                      x_label=w, title=w)),
}


class _Tags(HTMLParser):
    """The start tags and their attributes, as a browser's tokenizer reads them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


@pytest.mark.parametrize("word", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("output", OUTPUTS, ids=OUTPUTS.keys())
def test_hostile_text_stays_text_and_the_file_parses(output: str, word: str) -> None:
    text = OUTPUTS[output](word)
    data = text.encode("utf-8")  # what the CLI writes: a lone surrogate made this raise
    body = data.split(b"\n", 1)[1] if data.startswith((b"<?xml", b"<!DOCTYPE")) else data
    root = ET.fromstring(body)
    names = {e.tag.rsplit("}", 1)[-1] for e in root.iter()}
    assert not names & SCRIPTLIKE
    assert not [k for e in root.iter() for k in e.attrib if k.lower().startswith("on")]
    parser = _Tags()
    parser.feed(text)
    assert not [t for t, _ in parser.tags if t in {n.lower() for n in SCRIPTLIKE}]
    assert not [k for _, attrs in parser.tags for k, _ in attrs if k.startswith("on")]
    shown = "".join(root.itertext())
    if word.isprintable():  # the word is there as text (shortened in a picture's label, whole in its title)
        assert word[:20] in shown


@pytest.mark.parametrize("word", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_terminal_view_sends_no_control_or_bidi_override(word: str) -> None:
    """`align --format pretty`: an ESC [ from a token would rewrite the terminal, an RLO (U+202E)
    reorders the rest of its line (the arrow and the other side) where bidi is applied: both are
    written as escapes (``\\x1b``, ``\\u202e``)."""
    out = pretty(_view(word), heading=word)
    assert not {c for c in out if unicodedata.category(c) == "Cc" and c != "\n"}
    assert not {c for c in out if unicodedata.bidirectional(c) in BIDI}
    out.encode("utf-8", "surrogatepass")


def test_a_bidi_override_is_shown_as_its_escape() -> None:
    lines = pretty(AlignmentView(["a\u202eb", "c"], ["a\u202eb", "c"], Alignment.from_links([(0, 0)]))).splitlines()
    assert lines[0] == "source  a\\u202eb c" and lines[2] == "  0 a\\u202eb ↔ 0 a\\u202eb  sure"


@pytest.mark.parametrize("word", ["\ufeffab", "a\u200bb", "a\u200db", "ab\ufe0f", "ab\u20e3", "\u0e01\u0e31b", "e\u0301b"],
                         ids=["bom", "zero-width-space", "zwj", "variation-selector", "keycap", "thai-vowel", "accent"])
def test_the_arrows_line_up_when_a_word_holds_characters_that_take_no_column(word: str) -> None:
    """A byte-order mark, a zero-width space or joiner, a variation selector, an enclosing mark or
    a Thai vowel sign takes no column, yet counted one: that link's arrow stood a column right of
    the others'."""
    assert display_width(word) == 2
    lines = pretty(AlignmentView([word, "cd"], ["x", "y"], Alignment.from_links([(0, 0), (1, 1)]))).splitlines()
    drawn = [sum(display_width(c) for c in line[: line.index("↔")]) for line in lines[2:4]]
    assert drawn[0] == drawn[1] == len("  0 cd ")


#: Elements whose text is not drawn in the page (tooltips, metadata, the stylesheet).
NOT_SHOWN = {"title", "desc", "style", "head"}
#: Elements that are their own bidi paragraph (HTML blocks, table cells, each SVG text).
BLOCKS = {"p", "li", "td", "th", "h1", "h2", "h3", "div", "section", "body", "ul", "table", "tr", "summary",
          "details", "figure", "svg", "g", "text"}


def _units(block: ET.Element) -> list[tuple[str, bool]]:
    """The texts drawn in `block` itself (not in a block inside it), each with whether it is in
    a ``<bdi>``: a ``<bdi>`` is one unit."""
    units: list[tuple[str, bool]] = []

    def walk(elem: ET.Element, isolated: bool) -> None:
        if elem.text and elem.text.strip():
            units.append((elem.text, isolated))
        for child in elem:
            tag = child.tag.rsplit("}", 1)[-1]
            if tag == "bdi":
                units.append(("".join(child.itertext()), True))
            elif tag not in NOT_SHOWN and tag not in BLOCKS:
                walk(child, isolated)
            if child.tail and child.tail.strip():
                units.append((child.tail, isolated))

    walk(block, False)
    return units


@pytest.mark.parametrize("output", OUTPUTS, ids=OUTPUTS.keys())
@pytest.mark.parametrize("word", ["a\u202eb", "a\u2067b", "\u202dx"], ids=["RLO", "RLI", "LRO"])
def test_a_bidi_override_in_a_word_reorders_nothing_after_it(output: str, word: str) -> None:
    """An RLO (U+202E) in a word reverses what follows it in its paragraph: a sentence's next
    words, and the page's own text after a word ("“a\\u202ebc” (paraphrase) matched" showed as
    "”cb“ dehctam (esarhparap)" in Chromium). A drawn text holding one is alone in its block
    (a table cell, an SVG text) or in a ``<bdi>``, whose end ends what it opened."""
    text = OUTPUTS[output](word)
    root = ET.fromstring(text.encode("utf-8").split(b"\n", 1)[1])
    blocks = [e for e in root.iter() if e.tag.rsplit("}", 1)[-1] in BLOCKS]
    loose = [(b.tag, units) for b in blocks if len(units := _units(b)) > 1
             for unit, isolated in units if word in unit and not isolated]
    assert not loose


def _open_at_a_space(text: str) -> bool:
    """Whether an embedding, override or isolate is open at a space of `text` or at its end
    (UAX #9, rules X2-X6a: a PDF closes the last embedding or override, never past an isolate;
    a PDI closes the last open isolate and all opened after it)."""
    stack: list[str] = []
    for char in text + " ":
        kind = unicodedata.bidirectional(char)
        if kind in ("LRE", "RLE", "LRO", "RLO"):
            stack.append("embedding")
        elif kind in ("LRI", "RLI", "FSI"):
            stack.append("isolate")
        elif kind == "PDF" and stack and stack[-1] == "embedding":
            stack.pop()
        elif kind == "PDI" and "isolate" in stack:
            del stack[len(stack) - 1 - stack[::-1].index("isolate"):]
        elif char.isspace() and stack:
            return True
    return False


@pytest.mark.parametrize("output", OUTPUTS, ids=OUTPUTS.keys())
@pytest.mark.parametrize("word", ["a\u202eb", "a\u2067b", "\u202dx", "a\u2069\u202eb"],
                         ids=["RLO", "RLI", "LRO", "PDI-RLO"])
def test_a_bidi_override_in_a_word_reorders_nothing_after_it_in_a_tooltip(output: str, word: str) -> None:
    """A tooltip or a page's title (``<title>``) is plain text, one paragraph: "a\u202eb ↔
    a\u202eb (sure, correct)" showed its notes and the other side reversed. What a word opens
    is closed before the next space (the word between an FSI and its PDI); a stray PDI in a word
    closes nothing of the tooltip's."""
    root = ET.fromstring(OUTPUTS[output](word).encode("utf-8").split(b"\n", 1)[1])
    tips = ["".join(e.itertext()) for e in root.iter() if e.tag.rsplit("}", 1)[-1] == "title"]
    bare = str.maketrans("", "", "\u2068\u2069")
    assert any(_word(word).translate(bare) in tip.translate(bare) for tip in tips)
    assert not [tip for tip in tips if _open_at_a_space(tip)]


def test_a_very_long_word_widens_its_own_link_line_only() -> None:
    """A 5,000-character token padded every link line of its pair to 5,000 columns."""
    long = "x" * 5000
    lines = pretty(AlignmentView(["the", long, "cat"], ["a", long, "cat"],
                                 Alignment.from_links([(0, 0), (1, 1), (2, 2)]))).splitlines()
    assert [len(line) for line in lines[2:5] if long not in line] == [len("  0 the ↔ 0 a    sure")] * 2
    assert f"  1 {long} ↔ 1 {long}  sure" in lines
    assert lines[4] == "  2 cat ↔ 2 cat  sure"
