"""The SVG writer: attribute names, escaping, the root's viewBox and size, text widths."""

from __future__ import annotations

import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paralign.viz.svg import (
    FONT_FAMILY,
    SVG_NS,
    clean,
    el,
    escape_attr,
    escape_text,
    json_text,
    num,
    shorten,
    svg_file,
    svg_root,
    text_width,
    with_description,
)


def test_keywords_become_attribute_names_and_none_is_left_out() -> None:
    rect = el("rect", class_="link sure", data_i=3, stroke_width=1.5, fill=None, x=2.0)
    assert rect.attrs == (("class", "link sure"), ("data-i", "3"), ("stroke-width", "1.5"), ("x", "2"))
    assert rect.get("data-i") == "3" and rect.get("fill") is None
    assert rect.to_xml() == '<rect class="link sure" data-i="3" stroke-width="1.5" x="2"/>'


def test_numbers_have_at_most_two_decimals() -> None:
    assert [num(x) for x in (12.0, 3.5, 1 / 3, -0.001, 0.0, -2.25)] == ["12", "3.5", "0.33", "0", "0", "-2.25"]


def test_text_and_attributes_are_escaped() -> None:
    nasty = '<script>alert("x & y")</script>'
    doc = el("svg", el("text", nasty, data_word=nasty), el("title", "a\x00b\x1bc"), xmlns=SVG_NS)
    root = ET.fromstring(doc.to_xml())
    text = root.find(f"{{{SVG_NS}}}text")
    assert text.text == nasty and text.get("data-word") == nasty
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    assert root.find(f"{{{SVG_NS}}}title").text == "a\ufffdb\ufffdc"  # not XML: replaced, still parses
    assert "<script>" not in doc.to_xml() and "&lt;script&gt;" in doc.to_xml()


#: Any text, with the characters escaping is about drawn often: markup, quotes, white space, the
#: control characters XML cannot carry and lone surrogates.
_TEXT = st.text(st.one_of(st.sampled_from('&<>"\'\n\r\t\x00\x1b\x7f\ud800\ufffe;#amp'), st.characters()))


@given(_TEXT)
def test_escaping_is_saxutils_escape_character_for_character(text: str) -> None:
    """The local escape replaced ``xml.sax.saxutils.escape`` (whose import takes ``urllib.request``):
    every picture's bytes must stay what they were."""
    assert escape_text(text) == escape(clean(text))
    assert escape_attr(text) == escape(clean(text), {'"': "&quot;", "\n": "&#10;", "\t": "&#9;", "\r": "&#13;"})


def test_the_svg_writer_imports_no_url_library() -> None:
    """``xml.sax.saxutils`` imports ``urllib.request``: 13-26 ms of every import of the pictures."""
    code = "import sys, paralign.viz.svg; print(sorted({'xml.sax.saxutils', 'urllib.request'} & set(sys.modules)))"
    src = Path(__file__).resolve().parents[2] / "src"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    assert done.stdout.strip() == "[]"


def test_newlines_in_attributes_survive() -> None:
    root = ET.fromstring(el("g", data_word="a\nb\tc").to_xml())
    assert root.get("data-word") == "a\nb\tc"


def test_html_containers_are_never_self_closed() -> None:
    assert el("div").to_xml() == "<div></div>" and el("p", class_="x").to_xml() == '<p class="x"></p>'
    assert el("meta", charset="utf-8").to_xml() == '<meta charset="utf-8"/>'
    assert el("text", "a", el("tspan", "b")).to_xml() == "<text>a<tspan>b</tspan></text>"  # no added spaces


def test_root_sets_viewbox_css_size_fonts_and_title() -> None:
    root = ET.fromstring(svg_file(svg_root(120.5, 40, [el("rect", width=3, height=4)], title="a <b>")).encode())
    assert root.tag == f"{{{SVG_NS}}}svg" and root.get("viewBox") == "0 0 120.5 40"
    assert "width: 120.5px" in root.get("style") and "height: 40px" in root.get("style")
    # and as attributes: an <img> of the file takes its size from them (CSS still overrides them)
    assert (root.get("width"), root.get("height")) == ("120.5", "40")
    assert root.get("font-family") == FONT_FAMILY and root.get("role") == "img"
    # the first child <title> is the accessible name (SVG-AAM): an aria-label repeated it, so a
    # page said both sentences once more per picture (tests/cli/test_serve.py reads the name in Chromium)
    assert root[0].tag == f"{{{SVG_NS}}}title" and root[0].text == "a <b>" and root.get("aria-label") is None


def test_a_description_is_metadata_after_the_title_and_changes_nothing_drawn() -> None:
    root = svg_root(10, 10, [el("rect", width=5, height=5), el("text", "a < b", x=1)], title="t")
    described = with_description(root, "signature: a:b|version:1")
    assert described.children[1] == el("desc", "signature: a:b|version:1")
    assert described.children[:1] + described.children[2:] == root.children and described.attrs == root.attrs
    before, after = root.to_xml().splitlines(), described.to_xml().splitlines()
    assert after == [*before[:2], "<desc>signature: a:b|version:1</desc>", *before[2:]]
    untitled = with_description(el("svg", el("g")), "x")
    assert [c.tag for c in untitled.children] == ["desc", "g"]


def test_file_starts_with_the_xml_declaration() -> None:
    assert svg_file(svg_root(1, 1, [], title="t")).startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')


def test_text_width_grows_with_the_text_and_counts_wide_characters() -> None:
    assert text_width("") == 0
    assert text_width("executive") > text_width("exec") > text_width("ill")
    assert text_width("WWW") > text_width("iii")
    assert text_width("東京") >= 2 * 14 and text_width("ab", size=28) == 2 * text_width("ab", size=14)


def test_shorten_keeps_short_words() -> None:
    assert shorten("cat") == "cat"
    long = "x" * 50
    assert shorten(long) == "x" * 29 + "…" and len(shorten(long, 10)) == 10


#: Advance widths (em) of DejaVu Sans, the pictures' first font, as Chromium draws them.
DEJAVU_SIGNS = {"+": 0.838, "<": 0.838, "=": 0.838, ">": 0.838, "^": 0.838, "~": 0.838, "#": 0.838,
                "&": 0.780, "{": 0.636, "}": 0.636}


def test_text_width_is_an_upper_estimate_for_signs_and_braces() -> None:
    """Braces were counted as narrow as a dot (0.35 em, drawn 0.64) and the maths signs as a
    letter (0.62 em, drawn 0.84): a token "==========" ran into its neighbours in the lines
    view, and a token of braces was cut at the grid's left edge."""
    for char, em in DEJAVU_SIGNS.items():
        assert text_width(char * 10) >= 10 * em * 14, char
    assert text_width("cat") == pytest.approx((0.55 + 0.613 + 0.393) * 14)  # letters as DejaVu draws them
    assert text_width("a.b") == pytest.approx((0.613 + 0.318 + 0.635) * 14)


#: Advance widths (em) of wide letters of other alphabets in DejaVu Sans, as Chromium draws them.
DEJAVU_WIDE_LETTERS = {"ш": 0.92, "щ": 0.94, "ж": 0.90, "ю": 0.84, "ы": 0.79, "ф": 0.86, "м": 0.75, "Ш": 1.07,
                       "Щ": 1.09, "Ж": 1.08, "Ю": 1.08, "ω": 0.84, "ش": 0.92, "ص": 0.90, "ط": 0.83, "æ": 0.98,
                       "Œ": 1.07}


def test_text_width_is_an_upper_estimate_for_wide_letters_of_other_alphabets() -> None:
    """Cyrillic ш, щ, ж, ю were counted as an a (0.62 em) and Ш, Щ, Ж, Ю as an A (0.72): a
    Russian word such as "защищающийся" was drawn 119 px wide, counted 104, and its first
    letter was cut at the grid's left edge (a margin of 12 px)."""
    for char, em in DEJAVU_WIDE_LETTERS.items():
        assert text_width(char * 10) >= 10 * em * 14, char
    assert text_width("защищающийся") >= 119.4
    assert text_width("Zoë bought a house") == text_width("Zoe bought a house")  # Latin letters as before


#: Advance widths (em) of capitals and other characters DejaVu Sans draws wider than text_width
#: counted them (capitals 0.72 em, lower case 0.62, "@" and "m" 0.95, the ellipsis 0.62), read
#: from DejaVuSans.ttf 2.37 through Pillow's FreeType.
DEJAVU_UNDERCOUNTED = {"D": 0.771, "G": 0.775, "H": 0.752, "N": 0.749, "O": 0.788, "Q": 0.788, "U": 0.732,
                       "W": 0.989, "@": 1.0, "m": 0.975, "n": 0.634, "(": 0.391, "!": 0.401, "…": 1.0,
                       "Ö": 0.788, "Ø": 0.788, "Ñ": 0.749, "Д": 0.781, "О": 0.788, "Θ": 0.788, "Ό": 0.812,
                       "Љ": 1.094, "Ơ": 0.913, "д": 0.691}


def test_text_width_is_an_upper_estimate_for_capitals() -> None:
    """Latin capitals were counted 0.72 em where DejaVu Sans draws D, G, H, N, O, Q, U 0.73-0.79:
    a label in capitals (a lattice word, a grid's row) ran into its neighbour or was cut at the
    picture's edge; the ellipsis of a shortened word (1 em) was counted 0.62."""
    for char, em in DEJAVU_UNDERCOUNTED.items():
        assert text_width(char * 10) >= 10 * em * 14 - 1e-9, char
    assert text_width("UNITED NATIONS HEADQUARTERS") >= 239.25  # 17.09 em as DejaVu Sans draws it


def test_text_width_is_never_below_dejavu_sans_for_ascii_and_latin_letters() -> None:
    """Every printable ASCII character and every letter of Latin-1, Latin Extended-A, Greek and
    Cyrillic is counted at least as wide as DejaVu Sans draws it (measured here when Pillow finds
    the font, as the system's DejaVuSans.ttf)."""
    image_font = pytest.importorskip("PIL.ImageFont")
    import unicodedata
    from pathlib import Path

    path = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not path.is_file():
        pytest.skip("no DejaVuSans.ttf on this system")
    font = image_font.truetype(str(path), size=2048)
    chars = [chr(c) for c in range(32, 127)] + [
        chr(c) for c in [*range(0xC0, 0x180), *range(0x388, 0x3CF), *range(0x400, 0x460)]
        if unicodedata.category(chr(c)) in ("Lu", "Ll")]
    under = [(c, font.getlength(c) / 2048) for c in chars if font.getlength(c) / 2048 > text_width(c, 1) + 1e-9]
    assert under == []


#: The blocks of signs a sentence may hold: punctuation, currency, letter-like symbols, number
#: forms, arrows, maths, technical signs, enclosed numbers, shapes, dingbats and their supplements.
SIGN_BLOCKS = ((0x2000, 0x2070), (0x20A0, 0x20D0), (0x2100, 0x2190), (0x2190, 0x2400), (0x2460, 0x2800),
               (0x2900, 0x2C00))


def test_text_width_is_never_below_dejavu_sans_for_signs() -> None:
    """Every sign of :data:`SIGN_BLOCKS` (combining marks, drawn on their letter, left out) is
    counted at least as wide as DejaVu Sans draws it. The per mille sign was counted 1 em and is
    drawn 1.34 (a word "0.5‰‰" ran 10 px past where it was counted), ‱ 1.74, the long arrows
    (⟶) 1.43; ℃ 1.12; a letter-like symbol was counted as the letter it is a style of (ℓ as l,
    0.28 em, drawn 0.41; ℋ as H, 0.75, drawn 0.99) and a Roman numeral as one capital (Ⅷ 0.79,
    drawn 1.32)."""
    image_font = pytest.importorskip("PIL.ImageFont")
    import unicodedata
    from pathlib import Path

    path = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not path.is_file():
        pytest.skip("no DejaVuSans.ttf on this system")
    font = image_font.truetype(str(path), size=2048, layout_engine=image_font.Layout.BASIC)
    chars = [chr(c) for low, high in SIGN_BLOCKS for c in range(low, high)
             if unicodedata.category(chr(c)) not in ("Mn", "Me", "Cn")]
    under = [(c, font.getlength(c) / 2048) for c in chars if font.getlength(c) / 2048 > text_width(c, 1) + 1e-9]
    assert under == []


def test_text_width_is_an_upper_estimate_for_emoji_and_fullwidth_letters() -> None:
    """What DejaVu Sans lacks a browser draws in another font: an emoji in Noto Color Emoji
    (Linux, Android, ChromeOS; 1.245 em, its advance of 2,550 units of 2,048), counted 1 em, and
    a fullwidth letter in a CJK font (Noto Sans CJK: 1 em), counted as its ASCII letter (ａ 0.61
    em): a word of emoji or fullwidth letters ran past the room the picture made for it (3.4 px
    an emoji, 5.4 px an ａ). Measured in Chromium with Debian's fonts-noto-color-emoji 2.042 and
    fonts-noto-cjk: "👍🎉✅" 3.75 em, "❤️" and "1️⃣" 1.25, "ＷＩＤＥ" 4, "漢字テスト" 5."""
    drawn = {"😀": 1.245, "👍🎉✅": 3 * 1.245, "1️⃣": 1.245, "❤️": 1.245, "ＷＩＤＥ": 4.0, "ａｂｃ": 3.0}
    for word, em in drawn.items():
        assert text_width(word) >= em * 14 - 1e-9, word
    assert text_width("漢字テスト") == 5 * 14  # CJK letters are drawn 1 em (Noto Sans CJK)


@pytest.mark.parametrize(("value", "written"), [
    (math.nan, "null"), (math.inf, "null"), (-math.inf, "null"), (0.5, "0.5"), (3, "3"), ("n/a", '"n/a"')])
def test_a_figure_json_cannot_hold_is_written_null(value: object, written: str) -> None:
    """NaN and an infinity are null in a data-* attribute: an infinity was written ``Infinity``, no JSON."""
    assert json_text(value) == written
