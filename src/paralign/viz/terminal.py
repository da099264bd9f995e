"""The ``pretty`` terminal view of an aligned pair: the two sentences, then the links as word
pairs, one a line (``3 cat ↔ 2 cat  sure``), then the words left unaligned.

ANSI colours only when asked (``colour=True``: the CLI asks when stdout is a terminal): sure
links green, possible yellow; against gold correct blue, missed yellow, wrong magenta; unaligned
words dim. Control characters, bidi overrides and lone surrogates in a token are shown escaped
(``\\x1b``, ``\\u202e``, ``\\ud800``), never sent to the terminal, and columns line up for
wide (East Asian) and combining characters (a side wider than :data:`WIDEST` columns sticks out
of its own line).

Not for: pictures (:mod:`.grid`, :mod:`.lines`) or Pharaoh/JSON output (the CLI writes those).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..shown_text import escaped
from .marks import CORRECT, MISSED, POSSIBLE, SURE, WRONG, AlignmentView, LinkMark, aligned_words
from .svg import BIDI_CONTROLS

#: The widest a side of the link lines is padded to (columns): a longer side sticks out of its
#: own line only. Padded to the widest word, one 5,000-character token (MT output holds anything) made
#: every link line of its pair 5,000 columns wide, each wrapping over dozens of terminal rows.
WIDEST = 40
RESET, BOLD, DIM = "\x1b[0m", "\x1b[1m", "\x1b[2m"
#: ANSI colour of a link, by status against gold or else by kind.
COLOURS = {SURE: "\x1b[32m", POSSIBLE: "\x1b[33m", CORRECT: "\x1b[34m", MISSED: "\x1b[33m", WRONG: "\x1b[35m"}


def safe(text: str) -> str:
    """`text` with control characters, bidi controls (:data:`.svg.BIDI_CONTROLS`) and lone
    surrogates written as escapes (``\\x1b``, ``\\u202e``, ``\\ud800``), so a token can neither
    drive the terminal nor reorder the rest of its line (the arrow, the other side, the notes)
    where the terminal applies bidi, nor stop the view from being written (no UTF-8 holds a
    lone surrogate: a token of json.loads's "\\ud800" gave a UnicodeEncodeError)."""
    return escaped(text, BIDI_CONTROLS, surrogates=True)


def display_width(text: str) -> int:
    """Terminal columns `text` takes: wide characters 2; marks, format characters and Hangul's
    conjoining vowels and finals 0 (as the C library's ``wcwidth`` counts them); others 1.

    Why not only ``unicodedata.combining``: it is 0 for the marks that have no combining class
    (a variation selector, U+FE0F after an emoji; a keycap U+20E3; Thai vowel signs) and for the
    format characters (a byte-order mark U+FEFF, zero-width space and joiner), so each of them
    counted a column the terminal never draws, and the arrows of a pair's links stood apart."""
    width = 0
    for char in text:
        if (char != "\u00ad" and unicodedata.category(char) in ("Mn", "Me", "Cf")) or "\u1160" <= char <= "\u11ff":
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal columns."""
    return text + " " * max(0, width - display_width(text))


def _paint(text: str, code: str, colour: bool) -> str:
    return f"{code}{text}{RESET}" if colour and code else text


def _sentence(words: Sequence[str], aligned: set[int], colour: bool) -> str:
    return " ".join(_paint(safe(w), "" if k in aligned else DIM, colour) for k, w in enumerate(words))


def _side(k: int, words: Sequence[str], digits: int) -> str:
    return f"{k:>{digits}} {safe(words[k])}"


def _link_line(mark: LinkMark, source: Sequence[str], target: Sequence[str], widths: tuple[int, ...],
               colour: bool) -> str:
    """``  3 cat ↔ 2 cat  sure``: the digits and words of both sides padded to `widths`."""
    left = pad(_side(mark.i, source, widths[0]), widths[1])
    right = _side(mark.j, target, widths[2])
    notes = " ".join(x for x in (mark.kind, mark.status) if x)
    if mark.confidence is not None:
        notes += f" {mark.confidence:.2f}"
    return _paint(f"  {left} ↔ {pad(right, widths[3])}  {notes}", COLOURS[mark.status or mark.kind], colour)


def _column(widths: Sequence[int]) -> int:
    """The width a side of the link lines is padded to: its widest entry up to :data:`WIDEST`
    columns (a wider one is left to stick out)."""
    return max((w for w in widths if w <= WIDEST), default=0)


def pretty(view: AlignmentView, *, heading: str | None = None, colour: bool = False) -> str:
    """`view` as text (lines ending in a newline), `heading` first (bold with colour)."""
    source, target, marks = view.source, view.target, view.marks
    on_source, on_target = aligned_words(marks)
    lines = [_paint(safe(heading), BOLD, colour)] if heading else []
    lines += [f"source  {_sentence(source, on_source, colour)}", f"target  {_sentence(target, on_target, colour)}"]
    digits = (len(str(max(len(source) - 1, 0))), len(str(max(len(target) - 1, 0))))
    widths = (digits[0], _column([display_width(_side(m.i, source, digits[0])) for m in marks]),
              digits[1], _column([display_width(_side(m.j, target, digits[1])) for m in marks]))
    lines += [_link_line(m, source, target, widths, colour) for m in marks]
    if not marks:
        lines.append("  (no links)")
    for side, words, aligned in (("source", source, on_source), ("target", target, on_target)):
        loose = [f"{k} {safe(w)}" for k, w in enumerate(words) if k not in aligned]
        lines.append(f"unaligned {side}: " + (_paint(", ".join(loose), DIM, colour) if loose else "(none)"))
    return "\n".join(lines) + "\n"


def not_aligned(heading: str, reason: str) -> str:
    """The view of a pair that could not be aligned: ``line 3: not aligned (why)``, its heading
    and reason made :func:`safe`, as a view's words are: an id is what a line of input held, and
    its ESC [ ... reached the terminal as it came."""
    return f"{safe(heading)}: not aligned ({safe(reason)})\n"
