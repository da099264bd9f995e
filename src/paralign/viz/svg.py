"""A tiny pure-Python XML writer for SVG pictures (and the HTML around them).

An :class:`Element` is a frozen value: a tag, attributes and children (elements or text).
:func:`el` builds one from Python keywords (``class_`` → ``class``, ``stroke_width`` →
``stroke-width``, ``data_i`` → ``data-i``; None leaves an attribute out); :meth:`Element.to_xml`
writes it with every text and attribute escaped, so a token ``<script>`` is text, never markup.
:func:`svg_root` makes the outer ``<svg>``: a viewBox always, the natural size in CSS (so a
large picture scrolls in a browser and CSS can rescale it) and as ``width``/``height``
attributes (what an ``<img>`` of the file, as in a README, takes as its size; CSS still wins over
them), readable fonts and a ``<title>``.
:func:`text_width` estimates how wide a text is drawn from DejaVu Sans's advances measured once (:data:`DEJAVU_EM`),
as no font is read when a picture is made.

Not for: what a picture shows or where things go (:mod:`.grid`, :mod:`.lines`, :mod:`.lattice`)
or whole HTML pages (:mod:`.html`). No third-party drawing library and no system binary.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .. import textout
from ..errors import ConfigurationError

SVG_NS = "http://www.w3.org/2000/svg"
#: Fonts found on most systems, all readable at small sizes; the browser takes the first it has.
FONT_FAMILY = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
#: Text size of every picture, in px (user units).
FONT_SIZE = 14
#: The longest side (px) a picture may have: the largest surface cairo draws (so the most
#: rsvg-convert turns into a PNG), some 17 screens wide. A larger picture is refused
#: (:func:`check_side`), not drawn too large to show or scaled too small to read.
MAX_SIDE = 32_767


def check_side(width: float, height: float, what: str, instead: str) -> None:
    """ConfigurationError when a side of a picture `width` x `height` px would pass
    :data:`MAX_SIDE`: `what` (``a lattice of 2000 states``) is too large to draw, its size, and
    `instead`, the outputs that hold it with no size limit. The one rule and message of every
    picture that grows with its input (a lattice, an alignment's grid and lines)."""
    if max(width, height) > MAX_SIDE:
        raise ConfigurationError(
            f"{what} is too large to draw: its picture would be {width:,.0f} x {height:,.0f} px, over the "
            f"{MAX_SIDE:,} px a side that SVG renderers draw; {instead}")


#: HTML elements written ``<tag></tag>`` when empty (``<div/>`` would open a div in HTML).
_CONTAINERS = frozenset({
    "a", "bdi", "body", "code", "div", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "head",
    "header", "html", "li", "main", "p", "pre", "script", "section", "small", "span", "strong",
    "style", "table", "td", "th", "title", "tr", "ul",
})
#: Characters XML 1.0 does not allow, even escaped (control characters but tab, LF, CR; U+FFFE,
#: U+FFFF), and lone surrogates, which no UTF-8 file can hold (a JSON input's ``"\ud800"`` is one:
#: ``lattice draw --lattice X.json -o X.svg`` stopped with a UnicodeEncodeError as it wrote).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


#: The bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): one in a word
#: (an RLO, U+202E) reorders what follows it up to the end of its paragraph, other words and
#: paralign's own text included ("Trojan Source"), wherever the word is not isolated. The marks
#: (U+200E, U+200F, U+061C) end nothing and are not among them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_bidi_control(text: str) -> bool:
    """Whether `text` holds one of :data:`BIDI_CONTROLS`."""
    return not text.isascii() and any(char in BIDI_CONTROLS for char in text)


#: A run of non-space characters holding a bidi control (:data:`BIDI_CONTROLS`).
_BIDI_RUN = re.compile("\\S*[" + "".join(sorted(BIDI_CONTROLS)) + "]\\S*")
#: The isolate initiators (LRI, RLI, FSI) and the isolate's end (PDI).
_ISOLATES, _PDI = frozenset("\u2066\u2067\u2068"), "\u2069"


def _closed(run: str) -> str:
    """`run` without a PDI that closes no isolate of its own, and with a PDI for each isolate it
    leaves open, so that an FSI before it and a PDI after it enclose it exactly."""
    kept, depth = [], 0
    for char in run:
        if char == _PDI and not depth:
            continue
        depth += 1 if char in _ISOLATES else -1 if char == _PDI else 0
        kept.append(char)
    return "".join(kept) + _PDI * depth


def isolated_runs(text: str) -> str:
    """Plain `text` (a tooltip, a page's title: no markup, one paragraph) with each run of
    non-space characters holding a bidi control between an FSI and a PDI (U+2068, U+2069): an RLO
    in a word reversed the rest of "a\u202eb ↔ c (sure)"; isolated, it reorders only its run
    (what :func:`paralign.viz.html.isolated`'s ``<bdi>`` does in a page)."""
    if not has_bidi_control(text):
        return text
    return _BIDI_RUN.sub(lambda m: "\u2068" + _closed(m.group()) + _PDI, text)


def clean(text: str) -> str:
    """`text` with characters XML cannot carry, and lone surrogates, replaced by U+FFFD (so the
    file can always be written as UTF-8, and always parses)."""
    return _NOT_XML.sub("\ufffd", text)


def escape_text(text: str) -> str:
    """`text` escaped for element content (``&``, ``<``, ``>``), as ``xml.sax.saxutils.escape``
    escapes it, character for character; written here as that module imports ``urllib.request``
    (some 15 ms of every import of the pictures)."""
    return clean(text).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def escape_attr(text: str) -> str:
    """`text` escaped for a double-quoted attribute value (:func:`escape_text`, and the quote and
    the white space a parser would normalise as character references)."""
    return (escape_text(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")
            .replace("\r", "&#13;"))


def num(value: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros (``12``, ``3.5``, ``-0.25``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def json_text(value: object) -> str:
    """`value` as the JSON output writes it, NaN (n/a) and an infinity as ``null``: what a page's
    ``data-*`` attribute holding a figure says, so a reader or a filter meets n/a as the JSON's
    null, never as ``nan`` or ``Infinity`` (no JSON, JSON.parse throws, and no number to a page's
    reader; an infinity was written ``Infinity``). Written by :func:`paralign.textout.json_text`,
    how paralign writes JSON (the attribute's escaping makes it safe in the page)."""
    exact = None if isinstance(value, float) and not math.isfinite(value) else value
    return textout.json_text(exact)


@dataclass(frozen=True, slots=True)
class Element:
    """An XML element: `tag`, `attrs` as (name, value) pairs in order, `children` (elements or
    text; text is escaped when written)."""

    tag: str
    attrs: tuple[tuple[str, str], ...] = ()
    children: tuple[Element | str, ...] = ()

    def get(self, name: str) -> str | None:
        """The value of attribute `name`, or None."""
        return next((value for key, value in self.attrs if key == name), None)

    def to_xml(self) -> str:
        """The element as XML text: attributes and text escaped; element-only children one a line."""
        attrs = "".join(f' {key}="{escape_attr(value)}"' for key, value in self.attrs)
        if not self.children:
            return f"<{self.tag}{attrs}></{self.tag}>" if self.tag in _CONTAINERS else f"<{self.tag}{attrs}/>"
        mixed = any(isinstance(child, str) for child in self.children)
        plain = isolated_runs if self.tag == "title" else str  # a tooltip or a page's title: no <bdi>
        parts = [escape_text(plain(c)) if isinstance(c, str) else c.to_xml() for c in self.children]
        inner = "".join(parts) if mixed else "\n" + "\n".join(parts) + "\n"
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"


def _attr_name(key: str) -> str:
    """A Python keyword as an attribute name: ``class_`` → ``class``, ``font_size`` → ``font-size``."""
    return key.rstrip("_").replace("_", "-")


def _attr_value(value: object) -> str:
    return num(value) if isinstance(value, float) else str(value)


def el(tag: str, *children: Element | str | None, **attrs: object) -> Element:
    """An element from keywords (None values and None children are left out)."""
    return Element(
        tag,
        tuple((_attr_name(k), _attr_value(v)) for k, v in attrs.items() if v is not None),
        tuple(child for child in children if child is not None),
    )


def group(children: Iterable[Element | None], **attrs: object) -> Element:
    """A ``<g>`` of `children` (None left out)."""
    return el("g", *children, **attrs)


def svg_root(width: float, height: float, children: Iterable[Element | None], *, title: str,
             ident: str | None = None) -> Element:
    """The outer ``<svg>``: viewBox ``0 0 width height``, that natural size in CSS (px) and as
    attributes (an ``<img>`` of an .svg file takes its size from them only: without them a
    browser drew a 324 px grid 1264 px wide, as wide as the page), the fonts, ``role="img"`` and
    `title` as the first child: the picture's accessible name (SVG-AAM; an ``aria-label`` too
    would repeat both sentences once more per picture), a browser's tooltip and the file's name
    for readers."""
    width, height = max(1.0, float(width)), max(1.0, float(height))
    return el(
        "svg", el("title", title), *children,
        xmlns=SVG_NS, id=ident, width=num(width), height=num(height), viewBox=f"0 0 {num(width)} {num(height)}",
        style=f"width: {num(width)}px; height: {num(height)}px; max-width: none",
        role="img", font_family=FONT_FAMILY, font_size=FONT_SIZE,
    )


def with_description(root: Element, text: str) -> Element:
    """`root` with a ``<desc>`` of `text` after its ``<title>`` (first when it has none), as SVG
    places metadata: readers and tools can read it, nothing is drawn."""
    children = root.children
    at = 1 if children and isinstance(children[0], Element) and children[0].tag == "title" else 0
    return replace(root, children=(*children[:at], el("desc", text), *children[at:]))


def svg_file(root: Element) -> str:
    """A standalone ``.svg`` file's text: the XML declaration, then `root`."""
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + root.to_xml() + "\n"


#: Advance widths (em) of DejaVu Sans, the pictures' first font, rounded up to 0.001 em: every
#: printable ASCII character, the punctuation words often hold and the signs it draws wider
#: than 1 em (‰, ⟶, ℃), measured per character (its
#: hmtx advances, read through Pillow's FreeType from DejaVuSans.ttf 2.37: ``ImageFont.getlength``
#: at 2,048 px, one em unit a pixel; Chromium draws the same, tests/viz/test_svg.py). Verdana,
#: the next font, has about the same widths; Helvetica and Arial are narrower. A Latin letter
#: with accents (é, Ü, ñ) is drawn as wide as its base letter, and one that is two (ǆ, ĳ, ﬁ) as
#: wide as they are, but for ľ and ŀ (their mark is beside the l).
DEJAVU_EM: dict[str, float] = {char: em for em, chars in (
    (0.275, "'"), (0.278, "ijl"), (0.295, "IJ"), (0.318, " ,.‘’·"), (0.337, "/:;\\|"), (0.342, "ŀ"), (0.353, "f"), (0.375, "ľ"),
    (0.361, "-‐‑"), (0.391, "()[]"), (0.393, "t"), (0.401, "!¡"), (0.412, "r"), (0.46, '"'),
    (0.5, "*_`–°§"), (0.519, "“”"), (0.521, "s"), (0.525, "z"), (0.531, "?¿"), (0.55, "c"), (0.558, "L"),
    (0.576, "F"), (0.58, "k"), (0.59, "•"), (0.592, "vxy"), (0.604, "P"), (0.611, "TY"), (0.612, "o«»"),
    (0.613, "a"), (0.616, "e"), (0.632, "E"), (0.634, "hnu"), (0.635, "Sbdgpq"),
    (0.637, "$0123456789{}€£¶"), (0.656, "K"), (0.685, "AV"), (0.686, "XZ"), (0.687, "B"), (0.695, "R"),
    (0.699, "C"), (0.732, "U"), (0.749, "N"), (0.752, "H"), (0.771, "D"), (0.775, "G"), (0.78, "&"),
    (0.788, "OQ"), (0.818, "w"), (0.838, "#+<=>^~±×÷−→←"), (0.863, "M"), (0.951, "%"), (0.975, "m"),
    (0.989, "W"), (1.0, "@—…©®™"), (0.746, "ℵ"),
    # the signs drawn wider than 1 em (of the blocks tests/viz/test_svg.py measures)
    (1.005, "⚢"), (1.013, "☍"), (1.019, "℀℁℅"), (1.02, "℠"), (1.041, "№"), (1.043, "☹☺☻"), (1.047, "≪≫"),
    (1.058, "∭∰"), (1.067, "℆"), (1.075, "₨℡"), (1.09, "⚣"), (1.12, "◯⬤"), (1.124, "℃"), (1.153, "⌤⌥⌧⎇"),
    (1.158, "⟴"), (1.175, "⚤"), (1.194, "℻"), (1.246, "ↀↂ☎"), (1.251, "☏"), (1.273, "₧₯"), (1.326, "⨌"),
    (1.342, "‰"), (1.371, "⅒"), (1.415, "⌦⌫"), (1.423, "⋘⋙"), (1.434, "⟵⟶⟷⟸⟹⟺⟻⟼⟽⟾⟿"), (1.444, "⌨"),
    (1.736, "‱"),
) for char in chars}
#: Letters DejaVu Sans draws wider than :func:`text_width` counts other letters (0.79 em capitals,
#: 0.70 lower case), counted 1.1 em (0.75 to 1.09 em; measured in Chromium and with Pillow):
#: Cyrillic (Serbian љ, њ, Љ, Њ too), Greek (capitals with a tonos, Ή to Ώ, 0.81-0.87), Arabic,
#: Latin ligatures.
WIDE_LETTERS = frozenset("жмфшщъыюЖМФШЩЪЫЮљњЉЊωώϖΜΉΌΎΏسشصضطظæœÆŒŵŴĦŉ")


#: The width (em) of an emoji: Noto Color Emoji (Linux, Android, ChromeOS) advances 2,550 units of
#: 2,048 (1.245 em; Debian's fonts-noto-color-emoji 2.042, in Chromium too), and DejaVu Sans draws
#: the few it has (😀) 1.04 em.
EMOJI_EM = 1.25
#: VARIATION SELECTOR-16: the character before it is drawn as an emoji (a keycap 1️⃣, ❤️).
EMOJI_PRESENTATION = "\ufe0f"


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """An upper estimate of the drawn width of `text` at font `size` (px) in the pictures' font:
    each character as DejaVu Sans draws it (:data:`DEJAVU_EM`; an accented Latin letter as its
    base), the wide letters of other alphabets (:data:`WIDE_LETTERS`) 1.1 em, East Asian wide
    characters one em (a fullwidth ａ too) but emoji :data:`EMOJI_EM`, other capitals 0.79 em and
    other lower-case or uncased letters 0.70 (the widest of Greek and Cyrillic: Ο and Θ 0.787, Д
    0.781; д 0.691), combining marks nothing (drawn on their letter), anything else one em (DejaVu's dashes, ellipsis and signs are at most that
    but for those :data:`DEJAVU_EM` lists, ‰ and the long arrows among them; a Roman numeral and a
    letter-like symbol as :func:`_as_drawn` counts them).

    Capitals were counted 0.72 em where DejaVu Sans draws D, G, H, N, O, Q, U 0.73-0.79, so a
    label in capitals ran into its neighbour or was cut at the picture's edge; the ellipsis that
    :func:`shorten` ends a long word with (1 em) was counted 0.62. The maths signs and braces were
    counted as a letter or a dot (a token ``==========`` ran into its neighbours in the lines
    view), and Cyrillic ш, щ, ж, ю as an a (a Russian word such as "защищающийся" was 15 px
    wider than counted, its first letter cut at the grid's left edge)."""
    total = 0.0
    for char in text:
        em = DEJAVU_EM.get(char)
        if em is None and not char.isascii():
            drawn_as_letters = char.isalpha() or unicodedata.category(char) == "Nl"  # Ⅷ as VIII
            em = _as_drawn(char) if drawn_as_letters and char not in WIDE_LETTERS else None
        if em is not None:
            total += em
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            total += EMOJI_EM if "\U0001f000" <= char < "\U0001fb00" or "\u2300" <= char < "\u2c00" else 1.0
        elif char in WIDE_LETTERS:
            total += 1.1
        elif char == EMOJI_PRESENTATION:  # what it follows is drawn as an emoji (1️⃣, ❤️)
            total += EMOJI_EM
        elif unicodedata.category(char) in ("Mn", "Me"):
            continue
        elif char.isupper():
            total += 0.79
        elif char.isalpha():
            total += 0.70
        else:
            total += 1.0
    return total * size


def _as_drawn(letter: str) -> float | None:
    """The width (em) of a letter DejaVu Sans draws as the letters its compatibility
    decomposition holds (of :data:`DEJAVU_EM` or :data:`WIDE_LETTERS`), marks left out (é as e,
    ǆ as dž, ǽ as æ) but for the horn of Vietnamese ơ and ư, drawn beside its letter (Ơ 0.91 em,
    O 0.79), a Roman numeral as its letters (Ⅷ as VIII); 1.1 em for a letter-like symbol that is
    a style of its letter (ℋ, ℓ, ℝ: ℋ is drawn 0.99 em, H 0.75; ℓ 0.41, l 0.28); None when one
    of them is neither."""
    tag = unicodedata.decomposition(letter).partition(" ")[0]
    if tag == "<font>":
        return 1.1
    if tag == "<wide>":  # a fullwidth letter (ａ): drawn 1 em by a CJK font, as :func:`text_width` counts it
        return None
    decomposed = unicodedata.normalize("NFKD", letter)
    parts = [c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me")]
    widths = [DEJAVU_EM.get(c, 1.1 if c in WIDE_LETTERS else None) for c in parts]
    if not parts or None in widths:
        return None
    return sum(w for w in widths if w is not None) + (0.13 if "\u031b" in decomposed else 0.0)


def shorten(text: str, limit: int = 30) -> str:
    """`text` cut to `limit` characters with an ellipsis (a picture's label; titles keep it all)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
