"""The word tokenizers of the paraphrase-table pipelines (``--tokenizer``): how a table's phrases
were split, so that a phrase can be looked up as a table holds it.

`whitespace` (already tokenised), `moses` (already tokenised with Moses' XML escapes such as
`&apos;`, which are undone, as any character reference is, but for one that stands for white
space or nothing, `&#160;`, kept as written: one token a field, with no white space in it), or `regex` (default for raw text: words, numbers, punctuation and
English clitics `n't 's 're ...` split off, PTB style; HTML character references read as the
characters they stand for, invisible characters dropped and the text read in NFC first, as
annotation reads it). The tokens of the first two are kept as given. The
pipelines split a corpus with one of these (:data:`CORPUS_TOKENIZERS`). `spacy` is spaCy's
English tokenizer, which split the sentences of a lattice, and so the phrases of a table that
`lattice paraphrases` writes (the rules of ``spacy.blank("en")``, which the English models'
tokenizers share). Here, below the aligners, the pipelines
and the metrics, because each of them needs them: eflomal's input is split with them, a table
records the one it was built with, and every consumer of a table (`paraphrases`, `serve`, the
aligners' word similarity, ParaMetric, ParaEval) looks phrases up through it.

Not for: sacrebleu's 13a tokens (:mod:`paralign.tok13a`), or annotating text with spaCy
(:mod:`paralign.nlp`).
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from typing import Any

from .errors import ConfigurationError
from .shown_text import plain_text, unescape_entities, without_invisible
from .spacy_import import BLANK_ENGLISH, import_spacy

#: Every tokenizer a table may record as the one that split its phrases, by the name a table's
#: record and a signature (``t.tsv~spacy#HASH``) give it: the one table of names.
TOKENIZERS = ("regex", "whitespace", "moses", "spacy")
#: Those that split a corpus for alignment (``--tokenizer`` of pivot, paraphrase-table and
#: word-align): spaCy's splits a lattice's sentences, not a corpus (its rules take 20 us a
#: sentence where regex takes 2, and every Dask worker would load spaCy).
CORPUS_TOKENIZERS = ("regex", "whitespace", "moses")
#: The default of each of them, raw text's: one name, so that `word-align` with its defaults
#: writes the links `pivot --alignment` with its defaults reads (word-align split by white
#: space, pivot by regex: the links fitted, but named other words).
DEFAULT_CORPUS_TOKENIZER = "regex"
#: Raised whenever a tokenizer would split the same text otherwise (a work directory's token
#: files record it, so that a resumed pipeline never reuses tokens split by the code before).
#: 2: `regex` reads raw text as it shows (:func:`_shown`); 3: and its HTML character references;
#: 4: `moses` keeps a reference to white space (or to nothing) as written (:func:`_moses_token`).
TOKENS_VERSION = 4

_TOKEN = re.compile(
    r"\w+(?=n't\b)|n't\b|'(?:s|re|ve|ll|d|m)\b|\w+(?:[-.]\w+)*|[^\w\s]", re.IGNORECASE
)


def _shown(text: str) -> str:
    """Raw text as `regex` splits it: its HTML character references made the characters they
    stand for, its invisible characters dropped and in Unicode's composed form (NFC), as
    annotation reads it (:func:`paralign.shown_text.plain_text`). Why: ``[^\\w\\s]`` made a
    token of each of them, a soft hyphen splitting "co\u00adoperate" into three and the
    combining accent of "cafe\u0301" (NFD) one of its own after "cafe"; and "stone &amp; tile"
    (16 lines of Multi30k's English training text; "Lounge &amp; Grill" beside the German
    "Lounge & Grill") gave the words "&", "amp" and ";", where the other side has "&"."""
    text = unescape_entities(text)
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", without_invisible(text))


def tokenize(text: str, method: str = "regex", lowercase: bool = False) -> list[str]:
    """Split `text` into tokens with `method` (see the module doc), optionally lower-cased."""
    if method == "regex":
        tokens = _TOKEN.findall(_shown(text))
    elif method == "whitespace":  # no character lower-cases to white space: one pass over the text
        return text.lower().split() if lowercase else text.split()
    elif method == "moses":
        tokens = [_moses_token(token) if "&" in token else token for token in text.split()]
    elif method == "spacy":
        tokens = _spacy_tokens(text)
    else:
        raise ConfigurationError(f"unknown tokenizer {method!r}: use one of {', '.join(TOKENIZERS)}")
    if lowercase:
        tokens = [token.lower() for token in tokens]
    return tokens


#: A character reference as :func:`html.unescape` finds one (its pattern: a decimal or hex
#: number or a name, the semicolon optional, as HTML5 reads it).
_REFERENCE = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")


def _moses_token(field: str) -> str:
    """One white-space-separated field of Moses-tokenised text as its token: its character
    references (Moses' ``&apos;``, ``&amp;`` ..., and any other) unescaped, but for one that
    stands for white space (``&#160;``, ``&nbsp;``, ``&#10;``) or for nothing (``&#11;``, which
    :func:`html.unescape` drops), kept as written. A token holds no white space and is never
    empty: each field is one token, as the corpus's given alignment and eflomal, which split
    the joined tokens at white space, count them. ``&#160;`` was the token ``"\xa0"``, which
    the joined line lost, so every link after it in a Pharaoh alignment named the next token."""
    token = html.unescape(field)
    if token and not _has_space(token):
        return token
    return _REFERENCE.sub(_unescaped_unless_space, field)


def _unescaped_unless_space(match: re.Match[str]) -> str:
    """A reference's character(s), or the reference as written when they are white space or
    nothing (:func:`_moses_token`)."""
    text = html.unescape(match.group())
    return text if text and not _has_space(text) else match.group()


def _has_space(text: str) -> bool:
    """True when `text` holds a character that :meth:`str.split` splits at (``isspace``)."""
    return any(map(str.isspace, text))


#: A typographic apostrophe inside a word (``don’t``): spaCy is given an ASCII one, as
#: :func:`paralign.sentence.ascii_apostrophes` gives it a lattice's sentences.
_WORD_APOSTROPHE = re.compile("(?<=\\w)\u2019(?=\\w)")


def _spacy_tokens(text: str) -> list[str]:
    """`text`'s tokens as spaCy's English tokenizer splits a lattice's sentence (as
    :meth:`paralign.nlp.Annotator.tokenize` does, :func:`paralign.shown_text.plain_text`'s reading
    included): HTML character references unescaped, invisible characters dropped, NFC, white
    space runs made one space, a word's typographic apostrophe made ASCII for the split, PTB's
    opening quote one token; each token taken from the text so read."""
    text = plain_text(text)
    doc = _spacy_tokenizer()(_WORD_APOSTROPHE.sub("'", text) if "\u2019" in text else text)
    return [text[t.idx:t.idx + len(t.text)] for t in doc]


@functools.cache
def _spacy_tokenizer() -> Any:
    """spaCy's English tokenizer (``spacy.blank("en")``: no model needed), made once per process,
    with PTB's opening quote "``" one token, as :func:`paralign.nlp.load_pipeline` makes it.
    spaCy is imported as annotation imports it, without torch (:func:`import_spacy`): with the
    neural extra installed, `paraphrases` on a lattice's table loaded torch for nothing (2.7 s
    more on a busy machine)."""
    spacy = import_spacy((BLANK_ENGLISH,))
    from spacy.symbols import ORTH

    tokenizer = spacy.blank("en").tokenizer
    tokenizer.add_special_case("``", [{ORTH: "``"}])
    return tokenizer


#: The English clitics that `regex` (and Moses, whose tokens `moses` reads) split off the word
#: they were written onto: ``man's`` -> ``man 's``, ``isn't`` -> ``is n't``.
_CLITIC = re.compile(r"(?:'(?:s|re|ve|ll|d|m)|n't)", re.IGNORECASE)


def detokenize(tokens: str, method: str) -> str:
    """The text that `method` split into `tokens` (a phrase of a table, its tokens joined by single
    spaces), as near as the tokens tell: with ``regex``, ``moses`` and ``spacy`` each clitic joined to the
    word before it (``man 's`` -> ``man's``), as it was written; with ``whitespace`` (tokens as the
    user gave them) the tokens as they are. What no tokenizer records (whether other
    punctuation touched a word) stays spaced, as another tokenizer splits it anyway."""
    if method not in TOKENIZERS:
        raise ConfigurationError(f"unknown tokenizer {method!r}: use one of {', '.join(TOKENIZERS)}")
    words = tokens.split()
    if method == "whitespace" or len(words) < 2:
        return " ".join(words)
    out = [words[0]]
    for before, word in zip(words, words[1:], strict=False):
        # joined only where regex splits the two back (not "n't n't", written with a space)
        if _CLITIC.fullmatch(word) and _TOKEN.findall(before + word) == [before, word]:
            out[-1] += word
        else:
            out.append(word)
    return " ".join(out)
