"""Text as it shows: the characters a text holds that show nothing (soft hyphens, zero-width
characters, direction marks, variation selectors) and the HTML character references it may be
written with (``&amp;``), so that every part that splits a text into words (spaCy's annotation,
the tables' tokenizers) and the test of a sentence with no words read it alike;
:func:`plain_text`, a text as spaCy is given it (those, NFC and single spaces: :func:`one_space`).

:func:`escaped`: a text's control characters written as their escapes, for a format or a
terminal that must not get them raw.

Not for: the tokenizers' own splits or line ends (:mod:`paralign.line_ends`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container

#: Characters that show nothing, which Unicode lists as default-ignorable (a renderer draws
#: nothing for them): the soft hyphen, the combining grapheme joiner, the Arabic letter mark,
#: Khmer inherent vowels, Mongolian variation selectors and vowel separator, zero-width space,
#: non-joiner and joiner, the left-to-right and right-to-left marks and embeddings, the word
#: joiner and invisible operators, variation selectors (U+FE0F after an emoji...), the
#: zero-width no-break space (a byte-order mark inside a text), musical formatting and tag
#: characters. Unicode's Hangul fillers, which Korean text needs, are left.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\ufe00-\ufe0f\ufeff\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def without_invisible(text: str) -> str:
    """`text` without its invisible characters (:data:`INVISIBLE`): what it shows. A text of
    them alone shows nothing, so it is a sentence with no words, as one of white space is."""
    return text if text.isascii() else INVISIBLE.sub("", text)


#: An HTML character reference closed by its semicolon: named (``&amp;``), decimal (``&#39;``)
#: or hexadecimal (``&#x27;``). Without the semicolon HTML also reads some names (``&copy``), which
#: plain text holds as words ("AT&T", "R&D", "&para"): those are left.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def unescape_entities(text: str) -> str:
    """`text` with its HTML character references (:data:`_ENTITY`) made the characters they
    stand for (``&amp;`` -> ``&``, ``&quot;`` -> ``"``, ``&apos;s`` -> ``'s``), one round (so
    ``&amp;quot;`` gives ``&quot;``); a name HTML does not know stays as written.

    Why: corpora scraped from the web or escaped by Moses' tokenizer keep them (Multi30k's
    "stone &amp; tile", the Bible's "&lt;A Psalm of David&gt;", the OpenNMT pairs' "&apos;s"), and
    spaCy made three words of each ("&", "amp", ";"), none matching the "&" it shows."""
    if "&" not in text or ";" not in text:
        return text
    import html

    return _ENTITY.sub(lambda m: html.unescape(m.group()), text)


def shown_form(text: str) -> str:
    """`text` as it shows: its invisible characters dropped (:func:`without_invisible`), in
    Unicode's composed form (NFC). What :func:`plain_text` makes of a text's characters, and
    what the aligners make of a given token, which is kept as written: "café" with a combining
    accent (NFD) did not match "café" (NFC), nor "soft\u00adware" (a soft hyphen) "software"."""
    return text if text.isascii() else unicodedata.normalize("NFC", without_invisible(text))


def one_space(text: str) -> str:
    """`text` with each run of whitespace (spaces, tabs, newlines, no-break and thin spaces) made
    one space, and none at either end. spaCy splits on single spaces only: any other whitespace
    becomes a token of its own (`"the  cat"` gives the words "the", " ", "cat"), which an aligner
    would then align and a count would count. The text's words are the same either way."""
    return " ".join(text.split())


def plain_text(text: str) -> str:
    """`text` as spaCy is given it: its HTML character references made the characters they stand
    for (:func:`~paralign.shown_text.unescape_entities`), its invisible characters dropped
    (:func:`~paralign.shown_text.without_invisible`), in Unicode's composed form (NFC), and its
    whitespace made single spaces (:func:`one_space`).

    Why: spaCy makes a token of an invisible character standing alone (the zero-width spaces of
    "other \u200b \u200b than", a soft hyphen between two spaces, the U+FE0F of "❤️"), which an
    aligner aligned and a count counted, and keeps one inside a word, so "co\u00adoperate" (a soft
    hyphen) or "-\u2060" (a word joiner) did not match "cooperate" or "-"; and "café" written
    with a combining accent (NFD: e + U+0301) did not match "café" with its one character (NFC),
    as text copied from macOS file names or some web pages is. What the text shows is the same.
    """
    return one_space(shown_form(unescape_entities(text)))


def escaped(text: str, also: Container[str] = (), *, surrogates: bool = False) -> str:
    """`text` with each control character (Unicode's Cc: the C0 controls, DEL, the C1 controls),
    each of `also` (characters that do not print, as the bidi controls) and, with `surrogates`,
    each lone surrogate written as its escape (``\\x00``, ``\\x1b``, ``\\u202e``, ``\\ud800``).
    The one rule of the lattice's text formats and the terminal views, which wrote it twice."""
    if text.isprintable():  # none of them (none prints): the common word, as it is
        return text
    categories = ("Cc", "Cs") if surrogates else ("Cc",)
    return "".join(char.encode("unicode_escape").decode("ascii")
                   if char in also or unicodedata.category(char) in categories else char for char in text)
