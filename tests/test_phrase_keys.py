"""phrase_keys: the key a table looks a phrase up by, and what is not a phrase."""

from __future__ import annotations

import pytest

from paralign.errors import InputTypeError
from paralign.paraphrases import ParaphraseTable
from paralign.phrase_keys import normalize_phrase


def test_normalize_phrase_collapses_white_space_and_case() -> None:
    assert normalize_phrase("  A\tMan ") == "a man"
    assert normalize_phrase("A  Man", lowercase=False) == "A Man"


@pytest.mark.parametrize(("phrase", "shown"), [(b"a man", "bytes"), (None, "NoneType"), (["a", "man"], "list")])
def test_what_is_not_a_phrase_is_an_input_type_error(phrase, shown) -> None:
    """API audit: `table.paraphrases(b'a man')` was 'sequence item 0: expected str instance,
    bytes found', a TypeError from inside (None and a list were already named)."""
    table = ParaphraseTable.from_pairs([("a man", "a guy", 0.8)])
    with pytest.raises(InputTypeError, match=f"a phrase is a str, not {shown}"):
        table.paraphrases(phrase)
