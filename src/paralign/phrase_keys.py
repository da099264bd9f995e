"""How a phrase is keyed in a paraphrase table: as it shows (NFC, invisible characters dropped),
white space collapsed and lower-cased (:func:`normalize_phrase`), and, for a table file that pivot
or paraphrase-table built, split by the tokenizer its metadata records and lower-cased unless it
records its case kept (``--keep-case``: :func:`form_of`, :func:`held_phrase`); :func:`lookup_held`
asks a table file for typed phrases by that rule, as the tables in memory are asked.

Not for: tables in memory (:mod:`paralign.paraphrases`) or reading table files
(:mod:`paralign.tables`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .errors import InputTypeError
from .shown_text import shown_form
from .tables import TableHead, lookup, read_metadata, table_head
from .tokenizers import TOKENIZERS, tokenize


def normalize_phrase(phrase: str, lowercase: bool = True) -> str:
    """The key every table is matched on: `phrase` as it shows (its invisible characters dropped,
    NFC: :func:`~paralign.shown_text.shown_form`, as the aligners read a token), white space
    collapsed and (by default) lower-cased. A user's table holding 'café' composed answered none
    to 'café' typed decomposed, and 'co\u00adoperate' (a soft hyphen) none to 'cooperate'. A
    phrase that is not a str is an InputTypeError naming its type."""
    try:  # shown_form is the text itself when ASCII (O(1)): hot loops look phrases up
        text = " ".join(shown_form(phrase).split())
    except (AttributeError, TypeError):  # checked only on failure: tables look phrases up in hot loops (bytes: TypeError)
        raise InputTypeError(f"a phrase is a str, not {type(phrase).__name__}") from None
    return text.lower() if lowercase else text


def held_phrase(phrase: str, tokenizer: str | None, lowercase: bool) -> str:
    """`phrase` as a table holds its phrases: split by the `tokenizer` that split them (one of
    :data:`paralign.tokenizers.TOKENIZERS`, as pivot and paraphrase-table record theirs), so that
    ``man's`` finds the ``man 's`` of a regex-tokenised table, and lower-cased when `lowercase`
    (a table built with ``--keep-case`` is asked for ``US`` as ``US``, not ``us``);
    with `tokenizer` None (not known: a user's table) only its white space is collapsed
    (:func:`normalize_phrase`). The one rule by which every consumer looks a phrase up in a
    table: ``paraphrases`` (:func:`lookup_held`), ``serve``, the aligners' word similarity and
    ParaMetric (:func:`lookup_key`); ParaEval re-splits the table's phrases the other way
    (:meth:`ParaphraseTable.retokenized`)."""
    if tokenizer is None:
        return normalize_phrase(phrase, lowercase)
    return normalize_phrase(" ".join(tokenize(phrase, tokenizer)), lowercase)


def table_form(path: str | Path) -> tuple[str | None, bool]:
    """(the tokenizer that split a table file's phrases, whether they are matched lower-cased),
    as its metadata records them (:func:`form_of`)."""
    return form_of(read_metadata(path))


def form_of(metadata: Mapping[str, Any]) -> tuple[str | None, bool]:
    """:func:`table_form` from a table's metadata record, already read: its ``options.tokenizer``
    (None when it names none of :data:`paralign.tokenizers.TOKENIZERS`) and its case, which the
    record decides: a table built with ``--keep-case`` (``options.lowercase`` false) is matched
    with its case, as its user built it (``Bank`` and ``bank`` are two phrases); any other, and a
    table without a record (a user's TSV), is matched without case. The one rule of every
    consumer of a table file (:func:`paralign.paraphrases.load_table`, :func:`lookup_held`)."""
    options = metadata.get("options", {})
    tokenizer = options.get("tokenizer")
    return (tokenizer if tokenizer in TOKENIZERS else None), options.get("lowercase") is not False


def _held_in(form: tuple[str | None, bool], phrases: Iterable[str]) -> dict[str, str]:
    """Each of `phrases` as a table file of `form` (:func:`table_form`) holds it (:func:`held_phrase`
    with that tokenizer and case): ``A  Man's`` is looked up as ``a man 's`` in a table that pivot
    built with its defaults, as ``A Man 's`` in one built with ``--keep-case``; a table without that
    record (a user's) only has the white space of a phrase collapsed, and is lower-cased: such a
    table is matched without case (:func:`lookup_held` folds its phrases too), as the tables in
    memory match it."""
    tokenizer, lowercase = form
    return {phrase: held_phrase(phrase, tokenizer, lowercase) for phrase in phrases}


def lookup_held(path: str | Path, phrases: Sequence[str], top_k: int | None = None, *,
                lines: Callable[[list[str]], Iterable[tuple[int, str]]] | None = None,
                threshold: float | None = None,
                written: Callable[[list[str]], Sequence[str]] | None = None,
                head: TableHead | None = None) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """What ``paralign paraphrases`` asks a table file: each of `phrases` with the key it is
    looked up by (:func:`_held_in`), and the rows found under each key, best first, the k best
    with `top_k` (:func:`paralign.tables.lookup`). A table that pivot or paraphrase-table built
    holds its phrases as the key has them, so they are matched exactly (a Parquet table reads
    only the row groups that can hold them); a user's table is matched without case and with
    its white space collapsed (:func:`normalize_phrase` of each row's phrase, every row read),
    the rule by which the tables in memory (``serve``, ParaEval, ParaMetric, the aligners)
    match it, so ``Cat`` and ``cat`` find the same rows everywhere. A table built with
    ``--keep-case`` is matched with its case, here as in memory. `lines`: given the keys, the row
    lines of a TSV table that can hold them (``paralign serve``'s index of the file, keyed by
    :func:`row_key`), read instead of every line; `written`: given the keys, a user's Parquet
    table's phrases as written that may be under them (``serve``'s index of the file), queried
    instead of every row read. `head`: the file's :class:`~paralign.tables.TableHead`, already
    read (``paralign serve`` reads it once), else read here. `threshold`: the rows scored below it
    left out (``PATH:THRESHOLD``, :func:`paralign.tables.lookup`)."""
    head = table_head(path) if head is None else head  # header and record read in one pass
    form = form_of(head.metadata)
    held = _held_in(form, phrases)
    keys = list(held.values())
    return held, lookup(path, keys, top_k, key=row_key(form), lines=None if lines is None else lines(keys),
                        written=None if written is None else written(keys), head=head, threshold=threshold)


def row_key(form: tuple[str | None, bool]) -> Callable[[str], str] | None:
    """What a row's phrase is matched by in a table file of `form` (:func:`table_form`): the
    phrase itself (None) in a table pivot or paraphrase-table built, which holds its phrases as
    the key has them; else the phrase with its white space collapsed, and lower-cased unless
    the record keeps case (:func:`lookup_held`)."""
    tokenizer, lowercase = form
    return None if tokenizer is not None else (normalize_phrase if lowercase else _spaced)


def _spaced(phrase: str) -> str:
    """`phrase` with its white space collapsed, its case kept: the key of a row of a table whose
    record keeps case but names no tokenizer (:meth:`ParaphraseTable.to_tsv` of such a table)."""
    return normalize_phrase(phrase, False)
