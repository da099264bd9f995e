"""The exact-match baseline aligner: identical lower-cased tokens, one-to-one, left to right.

Not for: real alignment (no context, no paraphrases); it is the floor the Sultan aligner is
measured against.
"""

from __future__ import annotations

from ..alignment import Alignment, is_blank
from ..nlp import TextOrTokens, annotate, check_text_or_tokens
from ..sentence import Sentence
from ..shown_text import shown_form


def exact_match_aligner(source: Sentence | TextOrTokens, target: Sentence | TextOrTokens) -> Alignment:
    """Baseline: link identical lower-cased tokens one-to-one, left to right (no context);
    tokens compared as they show (invisible characters dropped, NFC), as annotation reads a text.

    Sentences are annotated Sentences, token lists (used as they are) or texts (tokenised by
    :func:`paralign.annotate`, as the batches do). A sentence with no words (empty, white space
    only: :func:`~paralign.alignment.is_blank`) has nothing to align: the empty alignment, as
    every aligner of the registry gives. A value that is not a sentence is an InputTypeError
    naming its side (the other may be blank)."""
    for side, item in (("source", source), ("target", target)):
        if not isinstance(item, Sentence):
            check_text_or_tokens(item, side)
    if is_blank(source) or is_blank(target):
        return Alignment()
    free: dict[str, list[int]] = {}
    for j, tok in enumerate(_tokens(target)):
        free.setdefault(shown_form(tok).lower(), []).append(j)
    links = []
    for i, tok in enumerate(_tokens(source)):
        slots = free.get(shown_form(tok).lower())
        if slots:
            links.append((i, slots.pop(0)))
    return Alignment.from_links(links)


def _tokens(item: Sentence | TextOrTokens) -> tuple[str, ...]:
    if isinstance(item, Sentence):
        return item.tokens
    if isinstance(item, str):
        return annotate(item).tokens
    return tuple(item)
