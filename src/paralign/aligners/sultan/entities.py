"""Named-entity mentions for the Sultan aligner's neAlign module.

Entities learnt from the other sentence (capitalised words and acronyms), normalised mentions
and their counts, the first-letter acronym test and the links of a partial mention.

Not for: the module that aligns them (:meth:`.modules.ModulePipeline.named_entities`) or
finding entities (spaCy's, kept in :attr:`.prepared.Prepared.entities`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .prepared import Link, Prepared


def _entity_norm(p: Prepared, a: int, b: int) -> tuple[str, ...]:
    return tuple(p.lower[k].replace(".", "").replace("-", "") for k in range(a, b))


def _entity_counts(p: Prepared, ents: list[tuple[int, int, str]]) -> dict[tuple[str, ...], int]:
    counts: dict[tuple[str, ...], int] = {}
    for a, b, _ in ents:
        key = _entity_norm(p, a, b)
        counts[key] = counts.get(key, 0) + 1
    return counts


def _is_acronym(word: str, entity_tokens: Sequence[str]) -> bool:
    """First-letter acronym test (dots removed, all upper case, one letter per entity token)."""
    letters = word.replace(".", "")
    if len(entity_tokens) < 2 or len(letters) != len(entity_tokens) or not letters.isupper():
        return False
    if not letters.isalpha() or letters.lower() in ("a", "i"):
        return False
    return all(tok[:1] == ch for tok, ch in zip(entity_tokens, letters, strict=True))


def _learn_entities(p: Prepared, other: Prepared) -> list[tuple[int, int, str]]:
    """p's entities plus capitalised words (and acronyms) found in the other sentence's entities."""
    ents = sorted(p.entities)
    covered = {k for a, b, _ in ents for k in range(a, b)}
    other_words: dict[str, str] = {}
    for a, b, kind in other.entities:
        for k in range(a, b):
            other_words.setdefault(other.tokens[k], kind)
    extra: list[list[Any]] = []
    for i, tok in enumerate(p.tokens):
        if i in covered or not tok[:1].isupper():
            continue
        label = other_words.get(tok)
        if label is None:
            for a, b, lab in other.entities:
                if _is_acronym(tok, other.tokens[a:b]):
                    label = lab
                    break
        if label is None:
            continue
        if extra and extra[-1][1] == i and extra[-1][2] == label:
            extra[-1][1] = i + 1
            continue
        attached = False
        for idx, (a, b, lab) in enumerate(ents):
            if b == i and lab == label:
                ents[idx] = (a, i + 1, lab)
                attached = True
                break
        if not attached:
            extra.append([i, i + 1, label])
    ents.extend((a, b, lab) for a, b, lab in extra)
    return sorted(ents)


def _subset_links(short: Prepared, sa: int, sb: int, short_free: list[bool], long: Prepared,
                  la: int, lb: int, long_free: list[bool], short_entity_words: set[str],
                  spread: bool = True) -> list[Link]:
    """Partial mention: every short-entity word occurs in the long one; align identical free
    words, then each short word to each free remaining word of the long entity (not
    punctuation, not an entity word of the short mention's sentence)."""
    long_words = [long.lower[k] for k in range(la, lb)]
    if not all(short.lower[k] in long_words for k in range(sa, sb)):
        return []
    links: list[Link] = []
    matched: set[int] = set()
    for k in range(sa, sb):
        for q in range(la, lb):
            if q not in matched and long.lower[q] == short.lower[k]:
                matched.add(q)
                if short_free[k] and long_free[q]:
                    links.append((k, q))
                break
    if not spread:
        return links
    for q in range(la, lb):
        if q in matched or not long_free[q] or long.punct[q] or long.lower[q] in short_entity_words:
            continue
        links.extend((k, q) for k in range(sa, sb))
    return links
