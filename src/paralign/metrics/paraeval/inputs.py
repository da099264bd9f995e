"""The shape checks of what both ParaEval scorers take: hypotheses (a list of str), references in
sacrebleu's layout (a list of reference streams, ``references[k][i]``), one segment's references
(a list of str) and paraphrase sources; and the sources as the scorers compare them
(:func:`as_compared`: a built table's phrases re-split into the scorer's tokens).

One str where a list is expected would otherwise be read as its characters: five one-letter
references, or five hypothesis segments reported as a count mismatch. Each check names the
argument and the shape it should have.

Not for: scoring (:mod:`.paper`, :mod:`.graded`) or reading files (the command line).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import cast

from ...errors import (
    EmptyScoringError,
    InputTypeError,
    MismatchError,
    check_texts,
    is_text,
    lone_in,
    refuse_repeated_stream,
    shown_value,
)
from ...paraphrases import ParaphraseSource, ParaphraseTable, check_source


def check_hypotheses(hypotheses: object, *, scoring: bool = False) -> None:
    """The hypotheses of one system: one str per segment; when `scoring` a corpus, at least one
    (EmptyScoringError, as ``paralign paraeval`` on an empty file: nothing has no score)."""
    texts = _texts(hypotheses, "hypotheses (one str per segment)")
    check_characters(texts, "hypotheses (one str per segment)")
    if scoring and not len(texts):
        raise EmptyScoringError("no hypothesis segments: nothing to score")


def check_references(references: object) -> int:
    """Reference streams in sacrebleu's layout, all of one length, no two the same
    (SameReferenceError: :func:`paralign.errors.repeated_stream`); that length (segments)."""
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputTypeError(
            "references must be a list of reference streams (lists of str, one str per segment),"
            f" not {type(references).__name__}")
    if not references:
        raise MismatchError("at least one reference stream is needed")
    if any(isinstance(stream, str) for stream in references):
        raise InputTypeError(
            "references must be a list of reference streams, each a list of str (one per "
            "segment), not a list of str: wrap one stream as [refs]")
    for k, stream in enumerate(references, start=1):
        check_texts(stream, f"reference stream {k}")
        check_characters(stream, f"reference stream {k}")
    lengths = [len(stream) for stream in references]
    if len(set(lengths)) != 1:
        raise MismatchError(f"reference streams have different numbers of segments: {lengths}")
    refuse_repeated_stream(references, [f"reference stream {k}" for k in range(1, len(references) + 1)],
                           lambda first, again: f"{again} has the same segments as {first}: give each reference "
                           f"once (scored against both as against one, signed nrefs:{len(references)})")
    return lengths[0]


def references_key(references: object) -> tuple[tuple[str, ...], ...]:
    """Reference streams checked (:func:`check_references`) and made a hashable key: what both
    scorers' ``prepare_cached`` remember their last prepared set by (the check first: a stream
    that is no list was "'int' object is not iterable" from building the key)."""
    check_references(references)
    return tuple(tuple(stream) for stream in cast(Sequence[Sequence[str]], references))


def check_segment(hypothesis: object, references: object) -> None:
    """One segment: its hypothesis a str, its references at least one str."""
    if not isinstance(hypothesis, str):
        raise InputTypeError(f"the hypothesis must be a str, not {type(hypothesis).__name__}")
    check_characters([hypothesis], "the hypothesis")
    texts = _texts(references, "references (the segment's reference texts)")
    check_characters(texts, "references (the segment's reference texts)")
    if not texts:
        raise MismatchError("at least one reference is needed")


def _texts(value: object, what: str) -> Sequence[str]:
    """`value`, checked by :func:`paralign.errors.check_texts` (InputTypeError naming `what`
    unless it is a sequence of str)."""
    check_texts(value, what)
    return cast("Sequence[str]", value)  # check_texts refused anything else


def check_characters(texts: Sequence[str], what: str) -> None:
    """InputTypeError naming the first of `texts` (1-based, after `what`) that holds a lone
    surrogate (``"\\ud800"``, what ``surrogateescape`` decoding makes of a bad byte:
    :func:`paralign.errors.is_text`): no character, it was scored as a word of its own by the
    default config and failed in the encoder's tokenizer (a TypeError from transformers) under
    ``contextual``."""
    for number, text in enumerate(texts, start=1):
        if not is_text(text):
            where = "" if what == "the hypothesis" else f": item {number}"
            raise InputTypeError(f"{what}{where} holds {lone_in(text)}")


def check_names(resources: object, tables: object) -> None:
    """Resource names and table specs: lists of str (one str would be read letter by letter;
    None or a number was "not iterable", an item that is no str failed in str.strip or open)."""
    for what, value in (("resources", resources), ("tables", tables)):
        if isinstance(value, str):
            raise InputTypeError(f"{what} must be a list of str, such as [{value!r}], not one str")
        if (what, value) == ("resources", None):
            continue  # the config's
        if not isinstance(value, Iterable):
            raise InputTypeError(f"{what} must be a list of str, not {type(value).__name__} {shown_value(value)}")
        if isinstance(value, Sequence):  # not an iterator: checking it would use it up
            check_texts(value, what)


def check_sources(sources: object) -> None:
    """Paraphrase sources: objects with ``paraphrases(phrase)`` (tables, PPDB, WordNet), not
    names (``scorer(resources=...)`` and ``build_sources`` take names)."""
    if isinstance(sources, str) or not isinstance(sources, Sequence):
        raise InputTypeError(
            f"sources must be a list of paraphrase sources, not {type(sources).__name__}"
            " (for names such as 'ppdb', use resources=[...] or build_sources)")
    for i, source in enumerate(sources, start=1):
        check_source(source, f"sources: item {i}")


def as_compared(sources: Iterable[ParaphraseSource], split: Callable[[str], str],
                tokenize: str) -> tuple[ParaphraseSource, ...]:
    """The sources, checked (:func:`check_sources`), as a scorer compares its n-grams with them: each table that records the
    tokenizer that split its phrases (one that pivot or paraphrase-table built) re-split as the
    scorer splits text (`split`, the tokenizer called `tokenize`: 13a), so that the ``man 's``
    of pivot's regex tokens is the ``man's`` of the scorer's n-grams
    (:meth:`paralign.paraphrases.ParaphraseTable.retokenized`); any other source as it is (a
    user's table, PPDB, WordNet). A table matched with its case (built with ``--keep-case``) is
    folded first (:meth:`~paralign.paraphrases.ParaphraseTable.folded`): the scorer looks its
    n-grams up lower-cased."""
    check_sources(sources)
    return tuple(source.folded().retokenized(split, tokenize) if isinstance(source, ParaphraseTable) else source
                 for source in sources)


def count_mismatch(hypotheses: int, segments: int, streams: int | None) -> MismatchError:
    """The error for `hypotheses` segments scored against references of `segments` segments in
    `streams` streams (None: prepared references); as many streams as hypotheses is the sign of
    one list of references per segment, which the message says how to transpose."""
    hint = ""
    if streams == hypotheses:
        hint = (" (references are streams, as sacrebleu takes them: references[k][i] is stream k's "
                "reference for segment i; one list of references per segment is transposed by "
                "list(zip(*references)))")
    return MismatchError(f"{hypotheses} hypothesis segments but {segments} reference segments{hint}")
