"""The table pipelines' tokenizers: detokenize gives back the text a tokenizer split."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError
from paralign.tokenizers import TOKENIZERS, detokenize, tokenize


@pytest.mark.parametrize(("tokens", "method", "text"), [
    ("the doctor 's car", "regex", "the doctor's car"),
    ("it is n't", "regex", "it isn't"),
    ("they 're here , we 'll see", "moses", "they're here , we'll see"),
    ("man 's", "whitespace", "man 's"),  # tokens as the user gave them: nothing is known
    ("'s", "regex", "'s"),
    ("n't n't", "regex", "n't n't"),  # written with a space: regex would split n'tn't otherwise
])
def test_detokenize_joins_the_clitics_regex_and_moses_split_off(tokens, method, text):
    """A pivot table holds "doctor's" as "doctor 's": ParaEval, which splits text with 13a, needs
    the text back to split it its own way."""
    assert detokenize(tokens, method) == text


def test_detokenize_names_an_unknown_tokenizer():
    with pytest.raises(ConfigurationError, match="unknown tokenizer 'spacy'"):
        detokenize("a b", "spacy")
    assert set(TOKENIZERS) == {"regex", "whitespace", "moses"}


@settings(max_examples=1000)
@given(st.lists(st.sampled_from(["a", "b", "s", "n", "t", "'", "-", ".", ",", " ", "n't", "'s", "'re"]),
                max_size=20).map("".join))
def test_the_regex_tokens_of_detokenized_regex_tokens_are_the_same(text):
    """What detokenize gives back splits into the tokens it was given."""
    tokens = tokenize(text, "regex")
    assert tokenize(detokenize(" ".join(tokens), "regex"), "regex") == tokens
