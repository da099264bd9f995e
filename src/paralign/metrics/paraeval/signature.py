"""How a paraphrase source appears in a ParaEval signature: what changes a number is recorded.

A built-in source is named with its version (``ppdb-1.0-xxxl-lexical``, ``wordnet-3.0``), known by
what it is (:attr:`ParaphraseTable.built_in`, :class:`WordNetSynonyms`), not by its name; a table
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

``maxlen`` is the phrase-length bound a scorer computes with (:func:`length_used`): a bound
past the longest phrase its sources hold is recorded as that length, as ParaMetric's ``maxlen``
records the bound its rows stop at, so two bounds that give the same numbers sign alike.

Not for: scoring.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from ...paraphrases import PPDB_VERSION as PPDB_VERSION
from ...paraphrases import TABLE_PART as TABLE_PART
from ...paraphrases import ParaphraseTable, WordNetSynonyms, source_name, table_name_part
from ...signature import short_hash

#: The configs' phrase-length bound (words): a signature records every bound up to it as asked.
DEFAULT_MAX_LENGTH = 4


def wordnet_version() -> str:
    """WordNet's version as its data files state it."""
    from ...resources import wordnet_version as version

    return f"wordnet-{version()}"


#: The stop-word list paralign's figures are computed with: NLTK's 127-word English list of 2014,
#: as :func:`stopwords_id` names it. A signature names only another (:func:`stopwords_part`).
SHIPPED_STOPWORDS = "english-127#f4941a8b"


def stopwords_id() -> str:
    """The stop-word list read from the NLTK data (:func:`paralign.resources.stopwords`):
    ``english-127#1a2b3c4d``, its file, its number of words and a hash of them (sorted)."""
    from ...resources import stopwords

    words = sorted(stopwords())
    return f"english-{len(words)}#{short_hash(chr(10).join(words).encode())}"


def stopwords_part() -> str:
    """The ``stopwords:ID|`` part of a signature whose numbers read the stop-word list: empty
    for :data:`SHIPPED_STOPWORDS`, as ``layer`` and ``stride`` are left out at their defaults,
    so that the signatures of the shipped data stay as they were.

    Why: the list is data, not code, and ``paralign download`` fetches NLTK's current list (179
    words or more), not the 127-word list of 2014: 26 more words gave evaluate-sts another
    Pearson (82.56 for 82.90 on 30 STS 2013 headlines pairs) under one signature."""
    found = stopwords_id()
    return "" if found == SHIPPED_STOPWORDS else f"stopwords:{found}|"


def table_hash(table: ParaphraseTable) -> str:
    """SHA-256 (8 hex digits) of a table's sorted (phrase, paraphrase, score) rows, remembered on
    the table until it changes (:meth:`ParaphraseTable.content_hash`, which computes it)."""
    return table.content_hash()


def source_signature(source: Any, shown: str | None = None) -> str:
    """One source in a signature (see the module docstring); `shown`: what to call a table
    file instead of its own name (``<stdin>`` for a copy of stdin). ConfigurationError naming
    the table when its file's name holds ``|``, which would end the signature's part there, or
    a line break; a table built in memory (not :attr:`~ParaphraseTable.named_by_file`) is refused
    in its own words, naming no file: name it another way."""
    if isinstance(source, WordNetSynonyms):
        return wordnet_version()
    if not isinstance(source, ParaphraseTable):  # a source of the caller's own: a name it can write
        return source_name(source, "the paraphrase source")
    if source.built_in == "ppdb":  # ppdb_table()'s; a table of another's rows named ppdb-lexical is a table
        return PPDB_VERSION
    threshold = getattr(source, "threshold", None)
    cut = "" if threshold is None else f":{threshold:g}"
    split = source.retokenized_from or source.tokenizer  # re-split, or asked as its tokenizer splits a phrase
    form = [part for part in (split, None if source.lowercase else "cased") if part is not None]
    if form:
        cut += f"~{','.join(form)}"
    return f"{table_name_part(source, shown)}{cut}#{table_hash(source)}"


def sources_part(sources: Iterable[Any]) -> str:
    """The ``res`` part of a scorer's signature: each source's :func:`source_signature`, joined
    by ``+`` in one order whatever order they were given in (:func:`_canonical`: PPDB, then
    WordNet, then the others sorted), ``none`` without one. A built-in or a table signed as one
    before it (PPDB given as ``--resources ppdb`` and again as ``--table ppdb``, WordNet twice,
    one table file twice: the same version, or the same name, threshold and content hash) is
    named once: a source matched twice matches nothing more (the scorers
    take the union of the sources' paraphrases and the highest grade of a pair), so the numbers
    are those of it once, and the signature says so. A source of the caller's own (neither) is
    named each time: two of one name may hold other pairs.

    Why: ``paralign paraeval --table ppdb`` signed ``res:ppdb-1.0-xxxl-lexical+wordnet-3.0+
    ppdb-1.0-xxxl-lexical``, PPDB counted twice for the numbers of ``res:ppdb-...+wordnet-3.0``;
    and ``--resources wordnet,ppdb`` signed ``res:wordnet-3.0+ppdb-1.0-xxxl-lexical``, two
    signatures for the numbers of ``ppdb,wordnet``: the order of the sources changes no number
    (both scorers take the union of their paraphrases, and a graded one the highest score of a
    pair; WordNet feeds the synonym tier and the others the paraphrase tier by what they are)."""
    parts: list[str] = []
    for source in sources:
        part = source_signature(source)
        if part not in parts or not isinstance(source, WordNetSynonyms | ParaphraseTable):
            parts.append(part)
    return "+".join(sorted(parts, key=_canonical)) or "none"


def _canonical(part: str) -> tuple[int, str]:
    """Where a source's part goes in the ``res`` part: PPDB first, then WordNet (the order of the
    configs' resources, so every signature of the built-ins alone stays as it was), then the
    tables and the caller's own sources by their parts."""
    if part == PPDB_VERSION:
        return 0, part
    return (1, part) if part.startswith("wordnet-") else (2, part)  # no source of the caller's own is so named


@functools.cache
def _wordnet_longest() -> int:
    """The words of WordNet's longest lemma name (9 in WordNet 3.0)."""
    from ...resources import wordnet_multiword

    return max((lemma.count(" ") + 1 for lemma in wordnet_multiword()), default=1)


def longest_phrase(sources: Iterable[Any]) -> int | None:
    """The longest phrase (in words) a paraphrase match can have on either side with `sources`:
    the longest on either side of a table's pairs, WordNet's longest lemma; 0 without a source;
    None when a source is neither (it may hold a phrase of any length)."""
    longest = 0
    for source in sources:
        if isinstance(source, WordNetSynonyms):
            longest = max(longest, _wordnet_longest())
        elif isinstance(source, ParaphraseTable):
            longest = max(longest, source.multiword_strings()[0])
        else:
            return None
    return longest


def length_used(max_length: int, sources: Iterable[Any], floor: int = DEFAULT_MAX_LENGTH) -> int:
    """The phrase-length bound a signature records (``maxlen``): `max_length` as asked, or for a
    bound past the longest phrase the `sources` hold (:func:`longest_phrase`: no match is longer,
    so every such bound gives the same numbers) that length, though never under `floor` (the
    configs' 4: a bound up to it is recorded as asked, as it always was).

    Why: ``max_length=10**9`` gave the numbers of no limit but signed ``maxlen:1000000000``, so
    settings with the same numbers had different signatures (sacrebleu's rule is one
    signature); ParaMetric's ``maxlen`` records the bound used alike
    (:func:`paralign.metrics.parametric_align.length_bound`). A source that is neither a table
    nor WordNet may hold any phrase: its bound is recorded as asked."""
    if max_length <= floor:
        return max_length
    longest = longest_phrase(sources)
    return max_length if longest is None else min(max_length, max(longest, floor))


def encoder_part(encoder: object, *, cached: bool) -> str:
    """The contextual tier's part of a graded scorer's signature: its encoder, named as the
    aligners' and similarity's signatures name it (``encoder:PACKAGE-VERSION|``), the layer its
    word vectors come from and the stride of its windows where they are not the encoder's
    defaults (``layer:2|``, ``stride:64|``), and with the vector cache (`cached`) the float16
    vectors it computes with (``vecs:f16|``: other grades than float32's).

    Why the layer and stride: an ``Encoder(word_layer=2)`` gave other scores (0.599 where the
    last layer gives 0.650) under the same signature, though the vector cache kept them apart
    (:func:`.vectors.vector_key`)."""
    from ...neural.model_files import encoder_id

    out = f"encoder:{encoder_id(getattr(encoder, 'model', None))}|"
    layer, stride = getattr(encoder, "word_layer", -1), getattr(encoder, "stride", None)
    out += ("" if layer == -1 else f"layer:{layer}|") + ("" if stride is None else f"stride:{stride}|")
    return out + "vecs:f16|" if cached else out
