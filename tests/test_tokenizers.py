"""The table pipelines' tokenizers: detokenize gives back the text a tokenizer split."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError
from paralign.tokenizers import CORPUS_TOKENIZERS, TOKENIZERS, detokenize, tokenize


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
    with pytest.raises(ConfigurationError, match="unknown tokenizer 'nosuch'"):
        detokenize("a b", "nosuch")
    assert set(TOKENIZERS) == {"regex", "whitespace", "moses", "spacy"}
    assert set(CORPUS_TOKENIZERS) == set(TOKENIZERS) - {"spacy"}  # a corpus is not split with spaCy


def test_spacy_splits_a_phrase_as_it_split_a_lattices_sentence():
    """`lattice paraphrases` writes spaCy's tokens (man 's, U.S., gon na), which the other
    tokenizers split otherwise: the 'spacy' tokenizer splits a typed phrase so, white space
    collapsed and a word's typographic apostrophe split as an ASCII one but kept as written;
    detokenize joins its clitics back."""
    assert tokenize("The  man's U.S.\tteam", "spacy") == ["The", "man", "'s", "U.S.", "team"]
    assert tokenize("isn\u2019t gonna", "spacy", lowercase=True) == ["is", "n\u2019t", "gon", "na"]
    assert detokenize("the man 's car is n't", "spacy") == "the man's car isn't"


def test_spacy_reads_a_phrase_as_annotation_reads_a_lattices_sentence(nlp_annotator):
    """A lattice's sentences are read as `nlp.plain_text` makes them (entities unescaped,
    invisible characters dropped, NFC, PTB's opening quote one token), so its table's phrases
    are; the 'spacy' tokenizer split a typed phrase from the raw text, so `&amp;`, a soft hyphen
    or "``" in a query missed the table's rows."""
    for text in ["rock &amp; roll", "co\u00adoperate now", "cafe\u0301 au lait", "``yes'' he said"]:
        assert tokenize(text, "spacy") == list(next(nlp_annotator.tokenize([text])))


@settings(max_examples=1000)
@given(st.lists(st.sampled_from(["a", "b", "s", "n", "t", "'", "-", ".", ",", " ", "n't", "'s", "'re"]),
                max_size=20).map("".join))
def test_the_regex_tokens_of_detokenized_regex_tokens_are_the_same(text):
    """What detokenize gives back splits into the tokens it was given."""
    tokens = tokenize(text, "regex")
    assert tokenize(detokenize(" ".join(tokens), "regex"), "regex") == tokens


@pytest.mark.parametrize(("text", "tokens"), [
    ("co\u00adoperate now", ["cooperate", "now"]),  # a soft hyphen inside a word
    ("chytila \u200b\u200bmíč", ["chytila", "míč"]),  # zero-width spaces (Multi30k cs train line 12811)
    ("elections -\u2060 in May", ["elections", "-", "in", "May"]),  # a word joiner (WMT21 cs-en)
    ("cafe\u0301 au lait", ["caf\u00e9", "au", "lait"]),  # a combining accent (NFD)
    ("I \u2764\ufe0f NY", ["I", "\u2764", "NY"]),  # a variation selector
])
def test_regex_reads_a_text_as_it_shows(text: str, tokens: list[str]) -> None:
    """`regex` made a token of each invisible character and of a combining accent
    ([^\\w\\s]): "co\\u00adoperate" gave three tokens, "cafe\\u0301" the token "cafe" and the
    accent alone; the text now splits as what it shows does, so it meets the same phrase."""
    assert tokenize(text) == tokens
    assert tokenize(text) == tokenize(text.replace("\u00ad", "").replace("\u200b", "").replace("\u2060", "")
                                      .replace("\ufe0f", "").replace("e\u0301", "\u00e9"))


def test_regex_reads_html_character_references_as_their_characters() -> None:
    """Multi30k's English side writes "Lounge &amp; Grill" where the German has "Lounge & Grill";
    `regex` made the words "&", "amp", ";" of it, so the two sides could not pair their "&".
    It reads a reference as the character it shows, as annotation and `spacy` do; a bare "&"
    ("AT&T", "R&D") and a name HTML does not know stay as written."""
    assert tokenize("a Lounge &amp; Grill") == tokenize("a Lounge & Grill") == ["a", "Lounge", "&", "Grill"]
    assert tokenize("a Q&amp;A") == ["a", "Q", "&", "A"]
    assert tokenize("it&#39;s &quot;new&quot;") == ["it", "'s", '"', "new", '"']
    assert tokenize("AT&T and R&D &nosuchname;") == ["AT", "&", "T", "and", "R", "&", "D", "&", "nosuchname", ";"]
    assert tokenize("stone &amp; tile") == tokenize("stone &amp; tile", "spacy")


@pytest.mark.parametrize("method", ["whitespace", "moses"])
def test_tokenized_input_keeps_its_characters(method: str) -> None:
    """Text already tokenised is kept as given, invisible characters and all."""
    assert tokenize("co\u00adoperate cafe\u0301", method) == ["co\u00adoperate", "cafe\u0301"]


#: Character references that stand for white space or for nothing (html.unescape drops &#11;),
#: and pieces of references, mixed into arbitrary text.
_REFERENCES = ["&#160;", "&nbsp;", "&nbsp", "&#xA0;", "&#10;", "&NewLine;", "&Tab;", "&#x2028;", "&#11;",
               "&#1;", "&#0;", "&ensp;", "&amp;", "&apos;", "&#124;", "&", ";", "#", "&#", "\u00a0", "\u2028"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.text(), st.sampled_from(_REFERENCES)), max_size=12).map("".join),
       st.sampled_from(TOKENIZERS), st.booleans())
def test_no_tokenizer_yields_a_token_with_white_space_or_an_empty_one(text: str, method: str,
                                                                         lowercase: bool) -> None:
    """Audit: `moses` made the token "\\xa0" of "&#160;" (and "" of "&#11;"); the line joined
    from the tokens lost it at its white space, and every later link of a Pharaoh alignment
    named the next token. No tokenizer paralign offers yields a token holding white space (what
    str.split splits at) or an empty one, for any text."""
    for token in tokenize(text, method, lowercase=lowercase):
        assert token and token.split() == [token], (text, method, token)


@pytest.mark.parametrize(("text", "tokens"), [
    ("a &#160; b", ["a", "&#160;", "b"]),
    ("a&nbsp;b &amp; c&#10;d", ["a&nbsp;b", "&", "c&#10;d"]),
    ("x &#11; y", ["x", "&#11;", "y"]),  # html.unescape makes nothing of it
    ("it&apos;s &#124; &lt;b&gt; &#160;&amp;", ["it's", "|", "<b>", "&#160;&"]),  # a field's other references read
])
def test_moses_keeps_one_token_a_field_without_white_space(text: str, tokens: list[str]) -> None:
    """A reference to white space (or to nothing) is kept as written, each field one token, so a
    given alignment's link numbers (and eflomal's, which splits the joined line) name the same
    tokens; every other reference is still read as its character."""
    assert tokenize(text, "moses") == tokens
    assert len(" ".join(tokenize(text, "moses")).split()) == len(text.split())
