"""Notes on what was read that a reader must know before trusting the figures: test pairs that
are also training pairs, and ids given twice (``evaluate-paraphrase``'s splits, ``similarity``'s
rows).

Not for: scoring or classifying the pairs (:mod:`paralign.similarity.paraphrase`,
:mod:`paralign.similarity.rows`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..corpora.msrp import ParaphrasePair
from .hybrid import pair_digest


def split_notes(train: Sequence[ParaphrasePair], test: Sequence[ParaphrasePair]) -> list[str]:
    """What a researcher must know about the splits before trusting the test figures: test pairs
    that are also training pairs (the same ids, or the same two sentences in either order however
    spaced, :func:`~.hybrid.pair_digest`: the test is then not held out, e.g. MSRP's val file given
    as --train and --test) and ids given twice within a split (a pair counted twice). Each note
    names the first such pair's file and line."""
    notes = []
    seen_ids = {p.id: p for p in train}
    seen_texts: dict[str, ParaphrasePair] = {}
    for p in train:
        seen_texts.setdefault(pair_digest(p.sentence1, p.sentence2), p)
    found = [(p, seen_ids.get(p.id) or seen_texts.get(pair_digest(p.sentence1, p.sentence2))) for p in test]
    shared = [(p, q) for p, q in found if q is not None]
    if shared:
        (first, earlier), n = shared[0], len(shared)
        notes.append(f"{n} of {len(test)} test pairs {'are also training pairs' if n > 1 else 'is also a training pair'} (the same "
                     f"ids or sentences; first {first.source}:{first.line} = {earlier.source}:{earlier.line}): "
                     "the test figures are not held out")
    for name, pairs in (("training", train), ("test", test)):
        note = repeated_ids_note([(p.id, f"{p.source}:{p.line}") for p in pairs], f"{name} pair", "ids",
                                 "each is counted again")
        if note:
            notes.append(note)
    return notes


def repeated_ids_note(entries: Iterable[tuple[str | None, str]], what: str, key: str, consequence: str) -> str | None:
    """A note on the `entries` (an id, or None for none, and where it is: ``file:line``) whose id
    an earlier entry has: how many (`what`: ``test pair``), the first with its id (`key`: ``ids``)
    and where that id came first, and what follows (`consequence`); None when no id repeats."""
    first_at: dict[str, str] = {}
    repeats: list[tuple[str, str, str]] = []
    for pair_id, where in entries:
        if pair_id is None:
            continue
        if pair_id in first_at:
            repeats.append((pair_id, where, first_at[pair_id]))
        else:
            first_at[pair_id] = where
    if not repeats:
        return None
    (pair_id, again, first), n = repeats[0], len(repeats)
    return (f"{n} {what}{'s' if n > 1 else ''} repeat{'' if n > 1 else 's'} an earlier {what.split()[-1]}'s {key} "
            f"(first {again}, {key} {pair_id} as on {first}): {consequence}")
