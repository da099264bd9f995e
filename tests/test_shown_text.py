"""paralign.shown_text: what a text shows (invisible characters, HTML character references)."""

from __future__ import annotations

from paralign.shown_text import without_invisible


def test_without_invisible_drops_what_shows_nothing() -> None:
    """Soft hyphens, zero-width characters, direction marks, variation selectors and a BOM inside
    a text go; what shows stays (no-break spaces, accents, emoji, Hangul fillers)."""
    text = "co\u00adoperate\u200b \u200e\u2060-\ufeff \u2764\ufe0f caf\u00e9\u00a0\u3164"
    assert without_invisible(text) == "cooperate - \u2764 caf\u00e9\u00a0\u3164"
    assert without_invisible("plain ascii") == "plain ascii"
