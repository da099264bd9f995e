"""Groups of equivalent sentences read from a file and made ready for their lattices: a groups
TSV (plain or Bible layout) or gold alignments as JSON (MTReference groups), each group's
distinct sentences as its lattice counts them (:func:`read_groups`, :func:`distinct_texts`),
a seeded sample of groups (:func:`sample_groups`) and their annotation (:func:`annotate_groups`).

Moved out of :mod:`.evaluate` (600 lines), which re-exports every name.

Not for: measuring lattices (:mod:`.evaluate`) or the file formats themselves
(:mod:`paralign.corpora.groups`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ..errors import ConfigurationError
from ..sentence import Sentence
from ..shown_text import plain_text
from .build import check_parsable, lattice_annotator, sentence_key

#: How an error about one group starts (``group line 2: sentence 2 too long to parse``):
#: :func:`paralign.lattice.evaluate.group_error` drops it, as its record names the group.
GROUP_PREFIX = "group {}: "

Group = tuple[str, Sequence[Sentence]]


def annotate_groups(
    groups: Iterable[tuple[str, Sequence[str | Sequence[str]]]], annotator=None, *, batch: int = 512
) -> Iterator[Group]:
    """Parse the sentences of (id, texts-or-token-lists) groups in batches, yielding
    (id, [Sentence, ...]); the group order is kept. The default `annotator` is
    :func:`.build.lattice_annotator` (no named entities, which lattices never read)."""
    annotator = annotator or lattice_annotator()
    pending: list[tuple[str, int]] = []
    items: list[str | Sequence[str]] = []

    def flush() -> Iterator[Group]:
        parsed = list(annotator.pipe(items))
        k = 0
        for gid, n in pending:
            yield gid, parsed[k : k + n]
            k += n
        pending.clear()
        items.clear()

    for gid, sentences in groups:
        for number, sentence in enumerate(sentences, start=1):  # before spaCy's E088, or gigabytes
            check_parsable(sentence, f"{GROUP_PREFIX.format(gid)}sentence {number}")
        pending.append((gid, len(sentences)))
        items.extend(sentences)
        if len(items) >= batch:
            yield from flush()
    if items or pending:
        yield from flush()


def sample_groups(groups: Iterable, n: int | None, seed: int = 0) -> list:
    """A seeded uniform sample of `n` >= 0 items (reservoir sampling, streaming; order kept)."""
    if n is None:
        return list(groups)
    if n < 0:
        raise ConfigurationError(f"sample size must be >= 0, got {n}")
    rng = random.Random(seed)
    reservoir: list[tuple[int, object]] = []
    for k, item in enumerate(groups):
        if k < n:
            reservoir.append((k, item))
        else:
            j = rng.randrange(k + 1)
            if j < n:
                reservoir[j] = (k, item)
    return [item for _, item in sorted(reservoir, key=lambda x: x[0])]


def mtreference_groups(
    path: str | Path, min_size: int = 1, *, lowercase: bool = True, skipped: list | None = None,
) -> list[tuple[str, list[list[str]]]]:
    """MTReference source-segment groups as (key, distinct token lists), in file order: a
    group's token lists are distinct as its lattice counts them (:func:`.build.sentence_key`:
    lower-cased unless not `lowercase`), and groups with fewer than `min_size` are left out.
    With a `skipped` list, a bad pair is left out and added to it as (position, BadPair)
    instead of stopping the run (:func:`paralign.corpora.groups.alignment_groups`)."""
    from ..corpora.groups import alignment_groups

    out = []
    for key, seen in alignment_groups(path, skipped):
        kept: dict[tuple[str, ...], list[str]] = {}
        for tokens in seen:
            kept.setdefault(sentence_key(tokens, lowercase), list(tokens))
        if len(kept) >= min_size:
            out.append((key, list(kept.values())))
    return out


def distinct_texts(texts: Sequence[str], *, tokenized: bool = False, lowercase: bool = True) -> list[str]:
    """The first text of each sentence of a group as its lattice counts them (one
    :func:`.build.sentence_key`), in order: "The cat sat." and "the cat sat ." are one sentence
    unless not `lowercase`. The key needs the lattice's tokens, whitespace-split when
    `tokenized`, else spaCy's (:meth:`Annotator.tokenize` of :func:`.build.lattice_annotator`,
    which runs only when two texts have the same characters as spaCy is given them
    (:func:`..shown_text.plain_text`: "&amp;" is "&", invisible characters gone, NFC), white
    space aside and case-folded when `lowercase`: texts that differ there are never one sentence)."""
    texts = list(dict.fromkeys(texts))
    tokens: Sequence[Sequence[str]]
    if tokenized:
        tokens = [t.split() for t in texts]
    else:
        plain = ["".join(plain_text(t).split()) for t in texts]
        folded = Counter(p.casefold() if lowercase else p for p in plain)
        if len(folded) == len(texts):
            return texts
        tokens = list(lattice_annotator().tokenize(texts))
    kept: dict[tuple[str, ...], str] = {}
    for text, words in zip(texts, tokens, strict=True):
        kept.setdefault(sentence_key(words, lowercase), text)
    return list(kept.values())


def read_groups(
    path: str | Path, *, tokenized: bool = False, min_size: int = 1, lowercase: bool = True,
    lines: dict[str, int] | None = None, skipped: list | None = None,
) -> Iterator[tuple[str, list[str] | list[list[str]]]]:
    """Groups of a file, streamed: gold alignments as JSON (jacana or JSONL, told by the
    contents: MTReference source-segment groups, tokenised), else a groups TSV (plain or Bible
    layout; sentences are split on whitespace when `tokenized`). Each group holds its distinct
    sentences as its lattice counts them (:func:`distinct_texts`; `lowercase` as
    :class:`.build.LatticeOptions`), and groups with fewer than `min_size` are skipped. A
    `lines` dict is filled with the line of each group of a TSV yielded (by id), so that a
    group that fails can be reported at its line. A `skipped` list gets each bad pair of a JSON
    file as (position, BadPair), left out as :func:`mtreference_groups` says; without one a bad
    pair stops the run."""
    from ..corpora.groups import is_alignment_json, iter_groups

    if is_alignment_json(path):
        yield from mtreference_groups(path, min_size, lowercase=lowercase, skipped=skipped)
        return

    for group in iter_groups(path):
        sentences = distinct_texts(group.sentences, tokenized=tokenized, lowercase=lowercase)
        if len(sentences) < min_size:
            continue
        if lines is not None:
            lines[group.id] = group.line
        yield group.id, ([s.split() for s in sentences] if tokenized else sentences)
