"""Optional external parses: Stanford basic dependencies in MST format, for a parser ablation.

The MSR RTE2 and Edinburgh++ folders ship Stanford parses matching their tokens 1:1 (5 lines per
sentence: words, POS, labels, 1-based heads with 0 = root, '-'; then a blank line). This module
reads them and swaps them into spaCy-annotated sentences (lemmas and entities stay spaCy's),
mapping Stanford labels to the ClearNLP labels the aligner's equivalence table uses.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ...errors import FormatError, MismatchError
from ...sentence import ROOT, Sentence
from ...textio import open_text, without_bom

#: Stanford basic labels -> ClearNLP labels (others are kept as they are).
STANFORD_TO_CLEAR: dict[str, str] = {
    "nn": "compound", "rcmod": "relcl", "partmod": "acl", "infmod": "acl", "vmod": "acl",
    "tmod": "npadvmod", "iobj": "dative", "purpcl": "advcl", "possessive": "case", "p": "punct",
    "root": "ROOT", "num": "nummod", "number": "compound", "pobj": "pobj", "prt": "prt",
}


@dataclass(frozen=True, slots=True)
class ParsedTokens:
    """One sentence of an MST file."""

    tokens: tuple[str, ...]
    tags: tuple[str, ...]
    deps: tuple[str, ...]
    heads: tuple[int, ...]  # 0-based, ROOT (-1) for the root


def read_mst(path: str | Path) -> Iterator[ParsedTokens]:
    """Stream the sentences of an MST parse file (gzip allowed); errors name the line. A BOM
    starting the file is dropped (it would join the first word)."""
    with open_text(path) as handle:
        block: list[tuple[int, str]] = []
        for number, line in enumerate(without_bom(handle), start=1):
            if line.strip():
                block.append((number, line.rstrip("\r\n")))
                continue
            if block:
                yield _parse_block(block, str(path))
                block = []
        if block:
            yield _parse_block(block, str(path))


def _parse_block(block: list[tuple[int, str]], path: str) -> ParsedTokens:
    first = block[0][0]
    if len(block) < 4:
        raise FormatError(f"expected 4-5 lines per sentence, got {len(block)}", source=path, line=first)
    words, tags, deps, heads = (row.split("\t") for _, row in block[:4])
    if not len(words) == len(tags) == len(deps) == len(heads):
        raise FormatError("word, tag, label and head lines differ in length", source=path, line=first)
    try:
        numbers = [int(h) for h in heads]
    except ValueError as exc:
        raise FormatError(f"non-numeric head: {exc}", source=path, line=block[3][0]) from exc
    # a head past the sentence, or below 0, was a Sentence's error naming no file (or, below 0,
    # silently the root)
    for k, h in enumerate(numbers):
        if not 0 <= h <= len(words):
            raise FormatError(f"word {k + 1} ({words[k]!r}) has head {h}, outside a {len(words)}-word "
                              "sentence (1-based, 0 for the root)", source=path, line=block[3][0])
    head_ids = tuple(h - 1 if h > 0 else ROOT for h in numbers)
    return ParsedTokens(tuple(words), tuple(tags), tuple(deps), head_ids)


def apply_parse(sentence: Sentence, parse: ParsedTokens, *, where: str = "") -> Sentence:
    """`sentence` with the external tags, heads and (ClearNLP-mapped) labels: a MismatchError
    unless the parse's words are the sentence's tokens (a parse of another sentence of as many
    words, say one line off, was swapped in silently)."""
    prefix = f"{where}: " if where else ""
    if len(parse.tokens) != len(sentence):
        raise MismatchError(f"{prefix}parse has {len(parse.tokens)} tokens, sentence {len(sentence)}")
    for k, (word, token) in enumerate(zip(parse.tokens, sentence.tokens, strict=True)):
        if word != token:
            raise MismatchError(f"{prefix}parse word {k + 1} is {word!r}, the sentence's token {token!r}: "
                                "the parse is of another sentence")
    deps = tuple(STANFORD_TO_CLEAR.get(d, d) for d in parse.deps)
    return replace(sentence, tags=parse.tags, heads=parse.heads, deps=deps)
