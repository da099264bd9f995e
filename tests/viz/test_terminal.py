"""The pretty terminal view: sentences, links as word pairs, colours only when asked, safe text."""

from __future__ import annotations

from paralign.alignment import Alignment
from paralign.viz.marks import AlignmentView as View
from paralign.viz.terminal import RESET, display_width, pad, pretty, safe

SOURCE = ["the", "cat", "sat", "down"]
TARGET = ["a", "cat", "was", "sitting"]
SYSTEM = Alignment.from_links(sure=[(0, 0), (1, 1), (2, 3)], possible=[(2, 2)])


def test_plain_view() -> None:
    assert pretty(View(SOURCE, TARGET, SYSTEM), heading="line 1") == (
        "line 1\n"
        "source  the cat sat down\n"
        "target  a cat was sitting\n"
        "  0 the ↔ 0 a        sure\n"
        "  1 cat ↔ 1 cat      sure\n"
        "  2 sat ↔ 2 was      possible\n"
        "  2 sat ↔ 3 sitting  sure\n"
        "unaligned source: 3 down\n"
        "unaligned target: (none)\n"
    )


def test_colour_only_when_asked() -> None:
    plain = pretty(View(SOURCE, TARGET, SYSTEM))
    coloured = pretty(View(SOURCE, TARGET, SYSTEM), colour=True)
    assert "\x1b" not in plain and "\x1b[32m" in coloured and "\x1b[33m" in coloured and RESET in coloured
    assert "\x1b[2mdown" in coloured  # unaligned words dim


def test_gold_statuses_and_confidence() -> None:
    gold = Alignment.from_links(sure=[(0, 0), (1, 1), (3, 3)])
    lines = pretty(View(SOURCE, TARGET, SYSTEM, gold=gold, confidence={(0, 0): 0.75})).splitlines()
    assert "  0 the  ↔ 0 a        sure correct 0.75" in lines
    assert "  2 sat  ↔ 3 sitting  sure wrong" in lines
    assert "  3 down ↔ 3 sitting  sure missed" in lines
    assert "unaligned source: 3 down" in lines  # a missed link aligns nothing


def test_control_characters_cannot_drive_the_terminal() -> None:
    text = pretty(View(["a\x1b[31mred"], ["b"], Alignment.from_links([(0, 0)])))
    assert "\x1b" not in text and "a\\x1b[31mred" in text
    assert safe("tab\there") == "tab\\there"


def test_columns_line_up_with_wide_characters() -> None:
    text = pretty(View(["東京", "is", "big"], ["Tokyo", "is", "large"],
                       Alignment.from_links([(0, 0), (1, 1), (2, 2)])))
    rows = [line for line in text.splitlines() if "↔" in line]
    assert len({display_width(line.split("↔")[0]) for line in rows}) == 1
    assert display_width("東京") == 4 and display_width("e\u0301") == 1 and pad("東", 4) == "東  "


def test_no_links() -> None:
    assert "  (no links)\n" in pretty(View(["a"], ["b"], Alignment()))


def test_a_lone_surrogate_is_shown_as_its_escape_and_the_view_can_be_written() -> None:
    """A token with a lone surrogate (json.loads takes "\\ud800") went into the view as it was,
    and writing the view stopped with UnicodeEncodeError ('surrogates not allowed'), as
    an SVG picture of it once did; it is now shown escaped, as a control character is."""
    text = pretty(View(["a\ud800b", "c"], ["d"], Alignment.from_links([(0, 0)])), heading="x\udfff")
    assert "a\\ud800b" in text and "x\\udfff" in text
    text.encode("utf-8")  # no UnicodeEncodeError
