"""How a paraphrase source appears in a ParaEval signature: what changes a number is recorded.

A built-in source is named with its version (``ppdb-1.0-xxxl-lexical``, ``wordnet-3.0``); a table
by its file's basename, the score threshold it was read with and a content hash (the first 8
hex digits of SHA-256 over its sorted pairs and scores), so two tables of the same name never
pass for one another. A table whose phrases were re-split into the scorer's tokens (one that
pivot or paraphrase-table built: :func:`.inputs.as_compared`) names the tokenizer that had split
them after its threshold (``t.parquet:0.1~regex#1a2b3c4d``): the re-split rows are what it
matches with, and what the hash is over. A table that is asked for each phrase as its
tokenizer splits it (:func:`paralign.paraphrases.lookup_key`: the aligners' word similarity,
ParaMetric's table scores) names that tokenizer in the same place: the same rows without that
record (a user's TSV) relate other phrases. A table matched with its case (built with
``--keep-case``, as its record says) adds ``cased`` there (``t.tsv~regex,cased#1a2b3c4d``): the
same rows matched without case relate other phrases too.

Not for: scoring.
"""

from __future__ import annotations

from typing import Any

from ...paraphrases import ParaphraseTable, WordNetSynonyms

PPDB_VERSION = "ppdb-1.0-xxxl-lexical"


def wordnet_version() -> str:
    """WordNet's version as its data files state it."""
    from ...resources import wordnet_version as version

    return f"wordnet-{version()}"


def table_hash(table: ParaphraseTable) -> str:
    """SHA-256 (8 hex digits) of a table's sorted (phrase, paraphrase, score) rows, remembered on
    the table until it changes (:meth:`ParaphraseTable.content_hash`, which computes it)."""
    return table.content_hash()


def source_signature(source: Any, shown: str | None = None) -> str:
    """One source in a signature (see the module docstring); `shown`: what to call a table
    file instead of its own name (``<stdin>`` for a copy of stdin)."""
    name = getattr(source, "name", type(source).__name__)
    if isinstance(source, WordNetSynonyms):
        return wordnet_version()
    if not isinstance(source, ParaphraseTable):
        return name
    if name == "ppdb-lexical":
        return PPDB_VERSION
    threshold = getattr(source, "threshold", None)
    cut = "" if threshold is None else f":{threshold:g}"
    split = source.retokenized_from or source.tokenizer  # re-split, or asked as its tokenizer splits a phrase
    form = [part for part in (split, None if source.lowercase else "cased") if part is not None]
    if form:
        cut += f"~{','.join(form)}"
    shown = name if shown is None else shown
    return f"{shown.replace(chr(92), '/').rsplit('/', 1)[-1]}{cut}#{table_hash(source)}"
