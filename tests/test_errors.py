r"""errors: the helpers every reader's messages share. `lone_surrogate`: a JSON string escape
that is half a UTF-16 surrogate pair (``"\ud800"`` alone) decodes to a str holding no
character, which broke far from the input (UTF-8 cannot encode it); it is found, with its place,
in the JSON text itself."""

from __future__ import annotations

import json
import random
import re

import pytest

from paralign.errors import is_text, lone_surrogate, odd_reference

_DECODED_SURROGATE = re.compile("[\ud800-\udfff]")


def _holds_surrogate(value: object) -> bool:
    """Does a decoded JSON value hold a surrogate code point anywhere (keys too)?"""
    if isinstance(value, str):
        return _DECODED_SURROGATE.search(value) is not None
    if isinstance(value, list):
        return any(map(_holds_surrogate, value))
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    return False


@pytest.mark.parametrize(("text", "found"), [
    (r'{"a": "x \ud800 y"}', (9, r'"\ud800" (column 10) is half of a UTF-16 surrogate pair, no character')),
    (r'["\uDC00"]', (2, r'"\uDC00" (column 3) is half of a UTF-16 surrogate pair, no character')),  # low half, upper case
    ('[1,\n "ok",\n  "\\udbff"]', (14, r'"\udbff" (column 4) is half of a UTF-16 surrogate pair, no character')),
    (r'["\ud83d\ude00 \ud800"]', (15, r'"\ud800" (column 16) is half of a UTF-16 surrogate pair, no character')),
    (r'["\ud800\ud800\udc00"]', (2, r'"\ud800" (column 3) is half of a UTF-16 surrogate pair, no character')),
    (r'{"\ud800": 1}', (2, r'"\ud800" (column 3) is half of a UTF-16 surrogate pair, no character')),  # a key too
    (r'["\ud800", "\udc00"]', (2, r'"\ud800" (column 3) is half of a UTF-16 surrogate pair, no character')),
    (r'["\ud83d\ude00"]', None),  # a pair: one character
    (r'["\\ud800"]', None),  # an escaped backslash, then the letters ud800
    (r'["\\ud800\udc00"]', (9, r'"\udc00" (column 10) is half of a UTF-16 surrogate pair, no character')),
    (r'["\ud83d\ude00 \uD83D\uDE00", "\udbff\udfff"]', None),  # pairs alone
    (r'["\\\ud83d\ude00"]', None),
    (r'["\u00e9 \ud7ff \ue000"]', None),  # beside the surrogates
    ('{"a": "plain text"}', None),
])
def test_a_lone_surrogate_escape_is_found_with_its_column(text: str, found) -> None:
    assert lone_surrogate(text) == found
    assert (found is not None) == _holds_surrogate(json.loads(text))


def test_only_the_range_given_is_read() -> None:
    text = r'["\ud800", "ok", "\udfff"]'
    assert lone_surrogate(text, 10) == (18, r'"\udfff" (column 19) is half of a UTF-16 surrogate pair, no character')
    assert lone_surrogate(text, 10, 16) is None


def test_it_agrees_with_the_decoded_value_of_any_string() -> None:
    """What json.loads decodes is the truth: the text holds a lone surrogate escape exactly
    when the decoded value holds a surrogate code point, and the escape named is one."""
    pieces = [r"\ud800", r"\uDBFF", r"\udc00", r"\uDFFF", r"\ud83d\ude00", r"\ud83d", r"\\", r"\\ud800",
              r"\"", r"\n", r"\u00e9", "a", " "]
    rng = random.Random(7)
    for _ in range(5000):
        strings = ['"' + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 5))) + '"'
                   for _ in range(rng.randint(1, 3))]
        text = "[" + ",\n".join(strings) + "]"
        found = lone_surrogate(text)
        assert (found is not None) == _holds_surrogate(json.loads(text)), text
        if found is not None:
            assert re.match(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}", text[found[0]:]), text


def test_is_text() -> None:
    assert is_text("caf\u00e9 \U0001f600") and not is_text("a\ud800")


def test_the_reference_is_at_fault_when_every_output_has_another_one_length():
    """paraeval's and meta-eval's one rule: two or more outputs of one length, not the
    reference's, name the reference; one output, or outputs of several lengths, do not."""
    assert odd_reference(2, [3, 3]) == ("2 lines, but each of the 2 system outputs has 3: the reference and the "
                                        "outputs are not of one test set, or one side is cut short")
    assert odd_reference(1, [0, 0, 0]).startswith("1 line, but each of the 3 system outputs has 0")
    for count, lengths in ((2, [3]), (2, [3, 4]), (2, [2, 2]), (2, []), (2, [2, 3, 3])):
        assert odd_reference(count, lengths) is None
