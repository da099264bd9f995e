"""paralign.line_ends: the line-end contract's two checks (the readers' use of them is tested in
tests/test_textio.py, tests/corpora/test_parallel.py and the bad-input matrix)."""

from __future__ import annotations

import pytest

from paralign.line_ends import CR_ONLY, cr_only_error, lf_text


@pytest.mark.parametrize(("start", "refused"), [
    (b"a\rb\r", True), (b"a\r", True), (b"\r", True),  # no LF: the line ends are the CRs
    (b"a\rb\n", False), (b"a\r\n", False), (b"a b", False), (b"", False),  # an LF, or no CR
    (b"\x7fELF\x02\x01\x00\x00\r\x00", False),  # a NUL: binary data, for the bad-byte check to name
])
def test_cr_only_is_a_cr_without_any_lf(start: bytes, refused: bool) -> None:
    error = cr_only_error(start, "x.txt")
    assert (error is not None) == refused
    if error is not None:
        assert str(error) == f"x.txt:1: {CR_ONLY}" and error.line == 1 and "tr '\\r' '\\n'" in str(error)


def test_lf_text_reads_crlf_as_lf_and_a_lone_cr_as_a_space() -> None:
    assert lf_text("a\r\nb\rc\r\r\nd") == "a\nb c \nd"
    text = "no carriage return\n"
    assert lf_text(text) is text


@pytest.mark.parametrize(("line", "text"), [("a\n", "a"), ("a\r\n", "a"), ("a\r\r\n", "a "), ("a\r", "a "),
                                            ("a\rb\n", "a b"), ("a", "a"), ("\r\n", "")])
def test_a_decoded_line_loses_its_line_end_alone(line: str, text: str) -> None:
    """line_text: a decoded line without its LF or CRLF alone, a lone CR a space."""
    from paralign.line_ends import line_text

    assert line_text(line) == text
