"""Paraphrase sources: tables (the in-memory :class:`ParaphraseTable`, re-exported from
:mod:`paralign.paraphrase_table`) read from TSV or a Parquet table written by ``pivot``, PPDB and
WordNet; :func:`load_source` reads a command line's spec, :func:`load_table` a table file (kept
in the disk cache).

Not for: writing or querying the pipelines' table files (:mod:`paralign.tables`).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path, PurePath
from typing import Any

from ._moved import moved_names
from .errors import ConfigurationError, InputTypeError
from .paraphrase_table import ParaphraseEntry as ParaphraseEntry
from .paraphrase_table import ParaphraseSource as ParaphraseSource
from .paraphrase_table import ParaphraseTable as ParaphraseTable
from .paraphrase_table import Score as Score
from .paraphrase_table import empty_table_note as empty_table_note
from .paraphrase_table import looked_up_as_typed as looked_up_as_typed
from .paraphrase_table import lookup_key as lookup_key
from .paraphrase_table import no_paraphrase_note as no_paraphrase_note
from .phrase_keys import normalize_phrase, table_form
from .signature import file_name_part, name_part, short_hash
from .tables import best_first, check_threshold, check_top_k, is_parquet_file, iter_rows
from .textio import float_field
from .workers import Progress

#: How a signature names the built-in PPDB (ParaEval's ``res``, an aligner's ``sim``).
PPDB_VERSION = "ppdb-1.0-xxxl-lexical"


def ppdb_table() -> ParaphraseTable:
    """The PPDB 1.0 XXXL lexical pairs (Sultan et al.'s list) as a symmetric, unscored table:
    the table `from_pairs(resources.ppdb_pairs(), symmetric=True)` builds, read straight from
    the file with each distinct string normalised once (a fraction of the time), and kept in
    the disk cache (:func:`paralign.disk_cache.derived`: a seventh of that time again)."""
    from .disk_cache import derived
    from .resources import ppdb_path

    path = ppdb_path()
    rows, longest, multi = derived("ppdb-table", path, lambda: _ppdb_rows(path), version="4")  # 4: keys as shown
    table = ParaphraseTable("ppdb-lexical")
    table.built_in = "ppdb"  # signed by PPDB's version, as no other table named so is
    table._table = rows
    table._multiword = (longest, multi)
    return table


def _ppdb_rows(path: Path) -> tuple[dict[str, dict[str, Score]], int, frozenset[str]]:
    """What :func:`ppdb_table` holds, parsed from the PPDB file: the rows (phrase -> paraphrases,
    both ways, each unscored: None), the most words a phrase has and the phrases of more than
    one word."""
    from .resources import ppdb_text

    rows: dict[str, dict[str, Score]] = {}
    norm: dict[str, str] = {}
    # CRLF in NLTK's copy; LF accepted too. Not splitlines(): entries hold \x1c-\x1e.
    for line in ppdb_text(path).split("\n"):
        fields = line.rstrip("\r").split("\t")
        if len(fields) != 2 or not fields[0] or not fields[1]:
            continue  # malformed lines are skipped, as ppdb_pairs skips them
        a, b = fields
        p = norm.get(a)
        if p is None:
            p = norm[a] = normalize_phrase(a.lower())
        q = norm.get(b)
        if q is None:
            q = norm[b] = normalize_phrase(b.lower())
        if p and q and p != q:
            rows.setdefault(p, {})[q] = None
            rows.setdefault(q, {})[p] = None
    multi = frozenset(k for k in rows if " " in k)  # symmetric: every string is a key
    return rows, max((k.count(" ") + 1 for k in multi), default=1), multi


class WordNetSynonyms:
    """WordNet synonyms (lemmas sharing a synset) as a lazy paraphrase source."""

    name = "wordnet"
    #: Which built-in it is, as :attr:`ParaphraseTable.built_in` says PPDB's table is (``paralign serve``
    #: finds a ``--table wordnet`` among its resources by it); WordNet has no copies to unset it on.
    built_in = "wordnet"

    def __repr__(self) -> str:
        """``WordNetSynonyms()``: it has no settings (a scorer's repr lists it among its sources)."""
        return "WordNetSynonyms()"

    def held(self, phrase: str) -> str:
        """The key WordNet is asked for `phrase` with: white space collapsed, lower-cased
        (:func:`normalize_phrase`), what :meth:`paraphrases` looks up, so :func:`lookup_key`
        shows it (``Cars`` is asked as ``cars``), as a table's ``held`` shows its key."""
        return normalize_phrase(phrase)

    def paraphrases(self, phrase: str) -> Mapping[str, Score]:
        """Lower-cased WordNet synonyms of `phrase` (itself excluded), all unscored."""
        from .resources import wordnet_synonyms

        return dict.fromkeys(wordnet_synonyms(self.held(phrase)), None)


def check_source(source: object, what: str = "source") -> ParaphraseSource:
    """`source` when it is a paraphrase source (anything with ``paraphrases(phrase)``); else an
    InputTypeError naming `what` (a path is not one: :func:`load_source` reads it). A source of
    the caller's own whose name a signature could not write (:func:`source_name`) is refused here,
    before any work."""
    if not callable(getattr(source, "paraphrases", None)):
        raise InputTypeError(f"{what} must be a paraphrase source (a table, PPDB, WordNet: "
                             f"paraphrases.load_source reads a path), not {type(source).__name__}")
    source_name(source, what)
    return source  # type: ignore[return-value]  # duck-typed: a callable paraphrases() checked


#: Where a signature writes a paraphrase source's name (ParaEval's ``res``, an aligner's ``sim``,
#: ParaMetric's ``table``), several joined by ``+``.
SOURCE_PART = "res:NAME+..., sim:NAME+..., table:NAME"


def source_name(source: object, what: str = "source") -> str:
    """The name a signature gives `source`: its ``name``, else its class's. A table's is checked
    as :func:`table_name_part` writes it (its file's, or the name it was given in memory); the
    built-ins (WordNet here, an aligner's ``ppdb``) are known by their types. A source of the
    caller's own is a ConfigurationError naming `what`'s name when its name holds ``|`` or a line
    break (:func:`paralign.signature.name_part`): ``mine|2`` was signed ``res:mine|2|...``, read
    back as ``res:mine`` and a keyless ``2``; or ``+``, which joins a signature's sources
    (``res:a+b``: one source ``a+b``, or ``a`` and ``b``?); when it is empty (ParaEval signed
    ``res:none``, a scorer's with no source); or when it is a built-in's (:func:`is_built_in_name`)."""
    name = getattr(source, "name", type(source).__name__)
    if isinstance(source, ParaphraseTable):
        table_name_part(source)  # a table's name as a signature writes it, refused before any work
        return source.name
    if isinstance(source, WordNetSynonyms) or not isinstance(name, str):
        return str(name)
    if not name:
        raise ConfigurationError(f"{what}'s name is empty: a signature would name no source "
                                 f"({SOURCE_PART}; res:none is a scorer's with none): name it")
    if is_built_in_name(name):
        raise ConfigurationError(f"{what}'s name: {name!r} is a built-in source's name, or how a signature "
                                 f"names one ({', '.join(BUILT_IN_NAMES)}, {PPDB_VERSION}, wordnet-VERSION): "
                                 "the signature would be the built-in's: name it another way")
    return name_part(name, SOURCE_PART, what=f"{what}'s name", marks="+")  # '+' joins the sources


#: How a table file is named in a signature (:func:`table_name_part`; a name holding ``|`` or a
#: line break refused: :func:`paralign.signature.file_name_part`).
TABLE_PART = "FILE[:THRESHOLD][~TOKENIZER]#HASH"
#: How a table built in memory (not read from a file: ``ParaphraseTable("mine")``, ``from_pairs``,
#: a lattice's) is named: by the name its caller gave it (:func:`table_name_part`).
MEMORY_TABLE_PART = "NAME[:THRESHOLD][~TOKENIZER]#HASH"
#: What :func:`table_name_part` calls a table's name that is not its file's (one built in memory, or read
#: with a `name` of its own: ``from_tsv(path, name=...)``) where it refuses it.
MEMORY_TABLE = "the table's name (given where the table was made, not a file's)"


def table_name_part(table: ParaphraseTable, shown: str | None = None) -> str:
    """`table`'s name as a signature writes it (before its threshold, tokenizer and hash:
    :func:`paralign.metrics.paraeval.signature.source_signature`): the last component of its name,
    or of `shown` (what to call its file instead: ``<stdin>``), as the running system splits a
    path: a backslash is a separator on Windows only (a POSIX file ``my\\table.tsv`` was signed
    ``table.tsv``). A name holding ``|`` or a line break is a ConfigurationError: naming the
    file, to be copied or linked under another name, for
    a table read from one (:attr:`ParaphraseTable.named_by_file`,
    :func:`paralign.signature.file_name_part`); for one built in memory, in its own words
    (:data:`MEMORY_TABLE`: name it another way), as ``ParaphraseTable("a|b")`` was told to copy
    or link a file it never had."""
    given = table.name if shown is None else shown
    written = PurePath(given).name  # the running system's rule: a POSIX file's name may hold a backslash
    if shown is None and not table.named_by_file:
        return name_part(written, MEMORY_TABLE_PART, what=MEMORY_TABLE)
    return file_name_part(given, TABLE_PART, name=written)


def is_built_in_name(name: str) -> bool:
    """Whether `name` is what a built-in source is called (:data:`BUILT_IN_NAMES`) or how a
    signature names one (:data:`PPDB_VERSION`, ``wordnet-3.0``: ``wordnet-`` and a digit, any
    WordNet's version): a source of the caller's own so named signed as the built-in. An
    aligner's custom related-word source named ``ppdb`` was signed ``sim:ppdb-1.0-xxxl-lexical``
    with PPDB's version, and ParaEval's custom source named ``none`` ``res:none``: two scorers, one
    signature. Refused (:func:`source_name`), not signed another way, so every built-in's and
    every other source's signature stays as it was."""
    return name in BUILT_IN_NAMES or name == PPDB_VERSION or (name.startswith("wordnet-") and name[8:9].isdigit())


def load_source(spec: str | Path, *, progress: Progress | None = None) -> ParaphraseSource:
    """A source from a command-line spec: `ppdb`, `wordnet`, or a table file, Parquet or TSV
    (`path[:threshold]`: :func:`load_table`).
    `progress` wraps a table file's rows as they are read (a command's bar; not PPDB's or
    WordNet's, which are read from the disk cache or on demand)."""
    if not isinstance(spec, str | Path) or not str(spec).strip():
        raise ConfigurationError(f"paraphrase source {spec!r}: use ppdb, wordnet, PATH or PATH:THRESHOLD")
    spec = str(spec)
    built_in = built_in_named(spec)
    if built_in == "ppdb":
        return ppdb_table()
    if built_in == "wordnet":
        return WordNetSynonyms()
    return load_table(*table_spec(spec), progress=progress)


def table_spec(spec: str) -> tuple[str, float | None]:
    """A table file's spec, ``PATH`` or ``PATH:THRESHOLD`` (:func:`source_spec_parts`), as every
    command reads it: the path and the threshold (None: none given). ConfigurationError for a
    spec that names no file (``''``, ``:0.5``: its path, '', was read as the current folder,
    '.: is a directory'), a threshold that is no finite number, one below 0 (which keeps every
    row, as none does: :func:`~paralign.tables.check_threshold`), or one given to a built-in
    (``wordnet:0.5``, PPDB's own file). :func:`load_source` reads a table through it, and
    ``paralign paraphrases``, which asks the file itself, takes the same specs."""
    path, value = source_spec_parts(spec)
    if not path.strip():
        raise ConfigurationError(f"paraphrase source {spec!r} names no file: use ppdb, wordnet, PATH or PATH:THRESHOLD")
    if value is None:
        return path, None
    try:
        threshold = float_field(value)  # '0_5' is no threshold (5.0 for float)
    except ValueError:
        raise ConfigurationError(
            f"paraphrase source {spec!r}: no such file, and {value!r} is not a threshold "
            "(use ppdb, wordnet, PATH or PATH:THRESHOLD)"
        ) from None
    if path in BUILT_IN_SOURCES and not Path(path).exists():  # not "ppdb: no such file"
        raise ConfigurationError(f"paraphrase source {spec!r}: the built-in {path} takes no threshold "
                                 "(a threshold is a table file's: PATH:THRESHOLD)")
    if _is_ppdb_file(path):
        raise ConfigurationError(f"paraphrase source {spec!r}: the built-in ppdb takes no threshold; "
                                 f"{Path(path).name} is PPDB's own file, read as the built-in ppdb, "
                                 "whose pairs have no score")
    check_threshold(threshold, f"paraphrase source {spec!r}")  # after: no threshold of a built-in is one to mend
    return path, threshold


#: The sources every command takes by name where it takes a table (``--table``, ``--similarity``).
BUILT_IN_SOURCES = ("ppdb", "wordnet")
#: What the built-in sources are called (``ppdb``, ``wordnet``; ``none`` and ``spelling``, an
#: aligner's word similarity's): a source of the caller's own is not (:func:`is_built_in_name`).
BUILT_IN_NAMES = (*BUILT_IN_SOURCES, "none", "spelling")


def built_in_named(spec: str | Path) -> str | None:
    """The built-in source a table spec names (:data:`BUILT_IN_SOURCES`), else None: ``ppdb``
    or ``wordnet`` by name (a file of that name with a threshold, ``ppdb:0.5``, is that file:
    the built-ins take none); and ``ppdb`` for PPDB's own file (the one :func:`ppdb_table`
    reads, :func:`paralign.resources.ppdb_path`), given by its path. That file is an unordered
    list of synonym pairs (``uniquepairs``: each pair once, in either order), which the library
    reads both ways; read as a user's table, one way, it gave `cars` 11 paraphrases where the
    aligners, ParaEval and ``serve`` find 21. The one rule by which :func:`load_source` and
    ``paralign paraphrases`` (which reads any other table from its file) tell the built-ins."""
    text = str(spec)
    if text in BUILT_IN_SOURCES:
        return text
    return "ppdb" if _is_ppdb_file(text) else None


def _is_ppdb_file(path: str) -> bool:
    """True when `path` is the PPDB file that :func:`ppdb_table` reads (the same file, by any
    path or link to it); False when it is another, or no PPDB is installed. Only a file of
    that name (once links are followed) is compared: looking for PPDB where it is not installed
    imports nltk, 1.8 s that no other table's load should pay."""
    from .errors import ParalignError
    from .resources import PPDB_FILE, ppdb_path

    if path in ("", "-") or Path(os.path.realpath(path)).name != Path(PPDB_FILE).name or not os.path.isfile(path):
        return False
    try:
        return os.path.samefile(path, ppdb_path())
    except (ParalignError, OSError):
        return False


def lookup_source(source: ParaphraseSource, phrases: Sequence[str], top_k: int | None = None,
                  ) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """What ``paralign paraphrases`` asks a source in memory (a built-in: PPDB, WordNet) for
    `phrases`, in the form :func:`~paralign.phrase_keys.lookup_held` gives for a table file: each
    phrase with the key it is asked with (:func:`lookup_key`, as ``serve`` and every consumer asks
    it), and the rows under each key, best first (:func:`~paralign.tables.best_first`; the built-ins'
    rows are unscored: ``score`` None, as a two-column table's, whose score is called ``score`` too:
    :func:`~paralign.tables.score_column`), the k best with `top_k`."""
    check_top_k(top_k)
    held = {phrase: lookup_key(source, phrase) for phrase in phrases}
    found: dict[str, list[dict[str, Any]]] = {}
    for key in dict.fromkeys(held.values()):
        ranked = sorted(source.paraphrases(key).items(), key=lambda row: best_first(row[1], row[0]))
        found[key] = [{"paraphrase": q, "score": s} for q, s in ranked[:top_k]]
    return held, found


def source_spec_parts(spec: str) -> tuple[str, str | None]:
    """A table spec's file and the text of its threshold (None: none given): ``PATH`` or
    ``PATH:THRESHOLD``, a file whose name holds a colon being that file."""
    if ":" in spec and not Path(spec).exists():
        path, _, value = spec.rpartition(":")
        return path, value
    return spec, None


#: A table file smaller than this is parsed on every load, not kept in the disk cache: it is read
#: in well under a second either way (docs/results/table-load.md), and an entry would only take room.
CACHED_TABLE_BYTES = 2**20
#: What a table's disk-cache entry holds and how it is read; with the digest of the reading code
#: (:func:`_reader_digest`), so an entry made by other code is never read.
TABLE_CACHE_VERSION = "2"


def load_table(path: str | Path, threshold: float | None = None, *,
               progress: Progress | None = None) -> ParaphraseTable:
    """A table file, TSV(.gz) or a Parquet table that pivot wrote (told by its data too), keeping
    scores >= `threshold` (unscored rows kept), hashed (:meth:`ParaphraseTable.content_hash`,
    which every command's signature names it by) as it is read: `progress` wraps its rows,
    and the hash is taken before the rows end, so a command's bar covers both.

    What it reads is kept in the disk cache (:func:`paralign.disk_cache.derived`, as PPDB's
    pairs; PARALIGN_CACHE_DIR empty: no cache) for the next command: the rows, the tokenizer
    and case its record names (:func:`form_of`: a table built with ``--keep-case`` is held, and
    matched, with its case; any other lower-cased) and the hash, keyed by the file (path, size,
    time), the threshold and the reading code (:data:`TABLE_CACHE_VERSION`, :func:`_reader_digest`). A
    file under :data:`CACHED_TABLE_BYTES`, a pipe or FIFO, and a copy of stdin
    (:func:`paralign.disk_cache.not_kept`) are read every time."""
    from .disk_cache import derived

    name = Path(path).name
    check_threshold(threshold, f"table {name!r}")
    key = short_hash(f"{os.path.realpath(path)}\t{threshold!r}".encode())
    rows, tokenizer, lowercase, digest = derived(
        f"table-{key}", path, lambda: _table_entry(_read_table(path, name, threshold, progress)),
        version=f"{TABLE_CACHE_VERSION}:{_reader_digest()}", min_bytes=CACHED_TABLE_BYTES)
    table = ParaphraseTable(name, lowercase=lowercase, tokenizer=tokenizer)
    table._table, table.threshold, table._content_hash = rows, threshold, digest
    table.named_by_file = True
    return table


def _table_entry(table: ParaphraseTable) -> tuple[dict[str, dict[str, Score]], str | None, bool, str]:
    """What :func:`load_table` keeps of a table it read: rows, tokenizer, case, content hash."""
    return table._table, table.tokenizer, table.lowercase, table.content_hash()


def _read_table(path: str | Path, name: str, threshold: float | None,
                progress: Progress | None) -> ParaphraseTable:
    """:func:`load_table`'s parse of the file, hashed when its reader asks for a row after the
    last, so that a bar `progress` shows (tqdm's: it closes when its rows end) covers the hash.
    A hook that reads rows ahead of the reader would have the hash taken too early: the rows
    are then put in a :class:`_Watched` dict, and a row added after the hash has it taken again.
    The table's tokenizer and case are its record's (:func:`form_of`)."""
    table = ParaphraseTable(name)

    def then_hash(rows: Iterable[Any]) -> Iterator[Any]:
        yield from rows
        table.content_hash()  # every row is in the table, unless `progress` reads ahead
        table._table = _Watched(table._table)

    def hashed(rows: Iterable[Any]) -> Iterable[Any]:
        return then_hash(rows) if progress is None else progress(then_hash(rows))

    if is_parquet_file(path):  # a table written by `pivot -o FILE.parquet` (told by its data too)
        # a built table's form: phrases are looked up as it split them, with its case
        table.tokenizer, table.lowercase = table_form(path)
        table._read_pairs((p, q, score) for p, q, score, _ in hashed(iter_rows(path, unscored=True))
                          if threshold is None or score is None or score >= threshold)  # unscored: as from_tsv
        table.threshold = threshold  # as from_tsv records it: signatures name it
    else:
        table._read_tsv(path, threshold, hashed)  # its tokenizer read with its rows
    watched = table._table
    if isinstance(watched, _Watched):
        table._table = dict(watched)
        if watched.touched:
            table._content_hash = None
    table.content_hash()  # a file of no rows, or rows added after the hash
    return table


class _Watched(dict[str, dict[str, Score]]):
    """A table's rows that record whether a row was added (:meth:`ParaphraseTable._put` looks
    each phrase up with ``get``) after its hash was taken: see :func:`_read_table`."""

    touched = False

    def get(self, key: str, default: Any = None) -> Any:
        self.touched = True
        return super().get(key, default)


@functools.cache
def _reader_digest() -> str:
    """A hash of the code that reads and hashes a table (this module, :mod:`paralign.paraphrase_table`,
    whose ``ParaphraseTable`` parses and hashes the rows, those it reads files with, textout's
    ``.gz`` name rule included, tables' Parquet reader, table_parquet, and shown_text, by which phrase_keys keys each row as it shows), so
    that a table's cache entry made by other code (a release, a checkout) is never read; "?" when a
    module's source cannot be read (only the version keys it then)."""
    from . import (
        line_ends,
        paraphrase_table,
        phrase_keys,
        shown_text,
        signature,
        table_parquet,
        tables,
        textio,
        textout,
    )

    try:
        return short_hash([Path(module.__file__ or "").read_bytes()
                           for module in (sys.modules[__name__], paraphrase_table, line_ends, phrase_keys,
                                          shown_text, signature, tables, table_parquet, textio, textout)])
    except OSError:
        return "?"


# Opening files moved to paralign.textio; the old names work until paralign 0.3.
__getattr__ = moved_names(
    __name__,
    {name: "paralign.textio" for name in (
        "input_file_error", "READ_ERRORS", "reading", "Utf8LineReader", "require_file", "open_binary",
    )},
)
