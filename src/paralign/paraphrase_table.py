"""The in-memory paraphrase table: :class:`ParaphraseTable` (phrase -> paraphrases with optional
scores, from rows or a TSV file, written back as TSV), the :class:`ParaphraseSource` protocol
every source follows, and :func:`lookup_key`, how a consumer asks a source for a phrase.

Not for: PPDB, WordNet or reading a command line's table spec (:mod:`paralign.paraphrases`:
``load_source``, ``load_table``, which re-exports every name here); writing or querying the
pipelines' table files (:mod:`paralign.tables`).

Rows are held as a table file is read by ``paralign paraphrases`` (:mod:`paralign.tables`
states the rule): one a (phrase, paraphrase) pair after normalising (white space collapsed,
lower-cased unless the table keeps case), the best of rows that come to be one kept (the higher
score, a scored row over an unscored one), a self-paraphrase dropped, a negative score refused.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from numbers import Real
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from .errors import (
    ConfigurationError,
    FormatError,
    InputTypeError,
    check_output_file,
    file_path,
    is_text,
    lone_in,
    shown_value,
)
from .phrase_keys import form_of, held_phrase, normalize_phrase
from .signature import short_hash
from .tables import (
    METADATA_LINE,
    NEGATIVE,
    best_first,
    check_threshold,
    check_top_k,
    headed,
    row_lines,
    row_score,
    score_name,
)
from .textio import open_text, without_bom
from .tokenizers import TOKENIZERS, detokenize
from .workers import Progress

Score = float | None
#: The key under which a table keeps its :meth:`ParaphraseTable.folded` copy (with its
#: re-split ones, forgotten with them when the table changes): no tokenizer's name.
_FOLDED = ""
#: The header line of the tables :meth:`ParaphraseTable.to_tsv` writes (a table without it, as it
#: wrote them before, is read alike: its score is named ``score`` too, :func:`paralign.tables.score_column`).
TSV_HEADER = "# phrase\tparaphrase\tscore\n"


@runtime_checkable
class ParaphraseSource(Protocol):
    """Anything that proposes paraphrases of a phrase: tables, PPDB pairs, WordNet, lattices.

    Only ``paraphrases(phrase)`` is required at run time (:func:`paralign.paraphrases.check_source`);
    ``name`` is what signatures show, and a source without one is shown by its class name."""

    name: str  #: e.g. ``ppdb``, ``wordnet``, a table's file name

    def paraphrases(self, phrase: str) -> Mapping[str, Score]:
        """Paraphrases of `phrase` (normalised keys) with their scores (None when unscored)."""
        ...


@dataclass(frozen=True, slots=True)
class ParaphraseEntry:
    """One table row."""

    phrase: str
    paraphrase: str
    score: Score = None


class ParaphraseTable:
    """An in-memory paraphrase table with lower-cased (by default) phrase matching.

    Build one from rows (:meth:`from_pairs`) or a TSV file (:meth:`from_tsv`);
    :func:`paralign.ppdb_table` is PPDB's, and :func:`paralign.paraphrases.load_source` reads a Parquet table that
    ``paralign pivot`` wrote.

    `tokenizer` names the tokenizer that split its phrases when it is known (a table that pivot
    or paraphrase-table built records it: :func:`~paralign.paraphrases.load_source` sets it), for :meth:`held` and
    :meth:`retokenized`; None (a user's table, PPDB) leaves phrases as they are written.

    >>> table = paralign.ParaphraseTable.from_pairs([("a man", "a guy", 0.8), ("a man", "someone", 0.3)])
    >>> table
    ParaphraseTable('table', 1 phrases, 2 pairs: 'a man' -> 'a guy' 0.8, ...)
    >>> dict(table.paraphrases("A  Man"))                 # white space and case normalised
    {'a guy': 0.8, 'someone': 0.3}
    >>> dict(table.filtered(threshold=0.5).paraphrases("a man"))
    {'a guy': 0.8}
    """

    def __init__(self, name: str = "table", *, lowercase: bool = True, tokenizer: str | None = None) -> None:
        if tokenizer is not None and tokenizer not in TOKENIZERS:
            raise ConfigurationError(f"unknown tokenizer {tokenizer!r}: use one of {', '.join(TOKENIZERS)} or None")
        self.name = name
        self.lowercase = lowercase
        self.tokenizer = tokenizer
        #: the score threshold the table was read with (None: every row kept)
        self.threshold: float | None = None
        #: the tokenizer whose phrases :meth:`retokenized` re-split into these (None: not a copy)
        self.retokenized_from: str | None = None
        #: the built-in source this table is (``"ppdb"``: :func:`paralign.paraphrases.ppdb_table`'s,
        #: which a signature names by its version), None for every other: not told by its name
        self.built_in: str | None = None
        #: whether :attr:`name` is the name of the file the table was read from (``load_table``,
        #: ``from_tsv`` without a `name`; a copy of such a table too), not one the caller gave it:
        #: a name a signature cannot write is refused with the file's remedy (copy or link it)
        self.named_by_file = False
        self._table: dict[str, dict[str, Score]] = {}
        self._multiword: tuple[int, frozenset[str]] | None = None  # see multiword_strings
        self._retokenized: dict[str, ParaphraseTable] = {}  # see retokenized
        #: the content hash a signature names the table by (:meth:`content_hash`), remembered
        #: until the table changes
        self._content_hash: str | None = None

    # -- building ----------------------------------------------------------------------------
    def add(self, phrase: str, paraphrase: str, score: Score = None) -> None:
        """Add a pair; identical phrases are ignored; a repeated pair keeps the higher score.
        A score is None or a finite number of at least 0 (ConfigurationError, as ``from_tsv``
        refuses NaN or a negative score), kept as a float (a numpy float's repr, which
        ``to_tsv`` wrote, did not read back); a phrase holding a lone surrogate is an InputTypeError (no character: :func:`_lone`)."""
        _check_score(phrase, paraphrase, score)
        for text in (phrase, paraphrase):
            if isinstance(text, str) and not is_text(text):
                raise InputTypeError(f"a phrase is a text, not {shown_value(text)}: {_lone(text)}")
        self._multiword = None
        self._retokenized = {}
        self._content_hash = None
        self._put(normalize_phrase(phrase, self.lowercase), normalize_phrase(paraphrase, self.lowercase),
                  None if score is None else float(score))

    def _put(self, p: str, q: str, score: Score) -> None:
        """:meth:`add` of a pair already normalised, with a score already checked, to a table
        whose remembered answers (:meth:`multiword_strings`, ...) its caller forgets: what a
        reader that builds a new table a row at a time (:meth:`from_tsv`) adds a row with."""
        if not p or not q or p == q:
            return
        row = self._table.get(p)
        if row is None:
            row = self._table[p] = {}
        if q not in row:
            row[q] = score
        elif score is not None:
            old = row[q]  # None: a pair without a score
            if old is None or score > old:
                row[q] = score

    @classmethod
    def from_pairs(
        cls, pairs: Iterable[tuple[str, str] | tuple[str, str, Score]], name: str = "table",
        *, symmetric: bool = False, lowercase: bool = True,
    ) -> ParaphraseTable:
        """Build a table from (phrase, paraphrase[, score]) tuples; `symmetric` adds each reversed too.

        One str or a value that is not iterable is an InputTypeError; a row that is not two
        phrases and an optional score (None or a number) is a FormatError naming it (1-based),
        as :meth:`from_tsv` names a bad line; so is a row whose phrase holds a lone surrogate
        (:func:`_lone`). A score is kept as a float, as :meth:`add` keeps it."""
        if isinstance(pairs, str | bytes) or not isinstance(pairs, Iterable):
            raise InputTypeError("pairs must be an iterable of (phrase, paraphrase[, score]) tuples, not "
                                 + (f"one str ({shown_value(pairs)})" if isinstance(pairs, str)
                                    else f"{type(pairs).__name__} {shown_value(pairs)}"))
        table = cls(name, lowercase=lowercase)
        table._read_pairs(_texts_checked(pairs), symmetric=symmetric)
        return table

    def _read_pairs(self, pairs: Iterable[object], *, symmetric: bool = False) -> None:
        """:meth:`from_pairs`'s rows added to this new table (:func:`~paralign.paraphrases.load_table` reads into a
        table it made), each checked by :func:`_row`."""
        put, lowercase = self._put, self.lowercase
        last, held = None, ""  # rows come grouped by phrase (a Parquet table's): normalise it once a run
        for number, pair in enumerate(pairs, start=1):
            phrase, paraphrase, score = _row(pair, number)
            _check_score(phrase, paraphrase, score)
            if phrase != last:
                last, held = phrase, normalize_phrase(phrase, lowercase)
            other = normalize_phrase(paraphrase, lowercase)
            put(held, other, score)
            if symmetric:
                put(other, held, score)

    @classmethod
    def from_tsv(
        cls, path: str | Path, *, threshold: float | None = None, name: str | None = None,
        lowercase: bool | None = None, progress: Progress | None = None,
    ) -> ParaphraseTable:
        """Read `phrase<TAB>paraphrase[<TAB>score[<TAB>...]]` (gzip allowed); keep score >= threshold.

        Lines starting with '#' and blank lines are skipped, but for the record of a table that
        pivot or paraphrase-table wrote (``# paralign: {...}``), whose tokenizer becomes
        :attr:`tokenizer` and, unless `lowercase` is given, whose case becomes :attr:`lowercase`
        (:func:`form_of`: a table built with ``--keep-case`` keeps its case; one without the
        record is lower-cased): read in the same pass, as a pipe is read once. A
        line without a tab or with a score that is not a finite number, or is negative
        (:data:`paralign.tables.NEGATIVE`), raises FormatError naming the file and line. `progress` wraps the file's lines as they are read (a
        command's bar: a table of millions of rows takes seconds).
        """
        table = cls(name or file_path(path).name, lowercase=True if lowercase is None else lowercase)
        table.named_by_file = name is None
        check_threshold(threshold, f"table {table.name!r}")
        table._read_tsv(path, threshold, progress, case_of_record=lowercase is None)
        return table

    def _read_tsv(self, path: str | Path, threshold: float | None, progress: Progress | None,
                  *, case_of_record: bool = True) -> None:
        """:meth:`from_tsv`'s rows read into this new table (:func:`~paralign.paraphrases.load_table` reads into a
        table it made), its case the record's when `case_of_record`."""
        put, lowercase = self._put, self.lowercase
        last, held = None, ""  # a table's rows come grouped by phrase: normalise each group's once

        def record(metadata: Mapping[str, Any]) -> None:  # above every row: the case of them all
            self.tokenizer, case = form_of(metadata)
            if case_of_record:
                self.lowercase = case

        with open_text(path) as handle:
            names, lines = headed(without_bom(handle))  # what the table names its score, for a bad row's error
            name = score_name(names)
            rows = row_lines(lines if progress is None else progress(lines), record, str(path), names=names)
            for count, (number, line) in enumerate(rows):
                fields = line.split("\t", 3)  # the columns after the score are not read
                score = row_score(fields, line, not count, path, number, unscored=True, name=name)
                if threshold is not None and score is not None and score < threshold:
                    continue
                if fields[0] != last:
                    lowercase = self.lowercase  # as the record (read before any row) set it
                    last, held = fields[0], normalize_phrase(fields[0], lowercase)
                put(held, normalize_phrase(fields[1], lowercase), score)
        self.threshold = threshold

    def to_tsv(self, path: str | Path) -> None:
        """Write `phrase<TAB>paraphrase<TAB>score` lines (gzip when the name ends in .gz), below a
        ``# phrase TAB paraphrase TAB score`` header, which names the score as every reader shows it
        (:func:`paralign.tables.score_column`: a lattice table's count of groups was shown as a
        probability), and a ``# paralign:`` record of the table's tokenizer and case
        (:func:`paralign.tables.row_lines`: below it a phrase starting with '#' is a row, so every
        row is read back).

        A path that cannot be written (a directory, a path under a file, a folder that does not
        exist or is not writable) is a ConfigurationError naming it
        (:func:`paralign.errors.check_output_file`, the check of ``-o``), not an OSError; a
        device or FIFO (``/dev/null``) is written in place, as before, whatever its folder's mode.
        A row holding a NUL character (a table built from pairs, or read from Parquet) is a
        FormatError, the file left as it was: every reader of text refuses a NUL as binary data,
        so the table written did not read back."""
        path = check_output_file(path)
        with open_text(path, "wt") as handle:
            options: dict[str, Any] = {"lowercase": self.lowercase}
            if self.tokenizer is not None:
                options["tokenizer"] = self.tokenizer
            handle.write(f"{TSV_HEADER}{METADATA_LINE}{json.dumps({'options': options}, sort_keys=True)}\n")
            for entry in self:
                score = "" if entry.score is None else repr(entry.score)  # repr: exact round trip
                line = f"{entry.phrase}\t{entry.paraphrase}\t{score}\n"
                if "\0" in line:  # from_tsv refuses it as binary data: the file would not read back
                    raise FormatError(f"row {entry.phrase!r} -> {entry.paraphrase!r} holds a NUL character, which "
                                      f"a TSV table cannot hold (its readers take it for binary data); nothing "
                                      f"was written to {str(path)!r}")
                handle.write(line)

    def retokenized(self, split: Callable[[str], str], name: str) -> ParaphraseTable:
        """This table with each phrase and paraphrase re-split as another tokenizer splits text:
        the text its own :attr:`tokenizer` split it from (:func:`paralign.tokenizers.detokenize`),
        given to `split` (text in, tokens joined by spaces out), whose tokenizer is called `name`.
        ParaEval compares its 13a tokens with a table's phrases so: ``man 's``, as pivot's regex
        tokenizer holds ``man's``, is the ``man's`` of 13a. Rows that come to be one keep the
        higher score, a phrase that becomes its paraphrase is dropped; the copy records
        :attr:`retokenized_from` (signatures name it) and is made once per `name`. A table whose
        tokenizer is not known (None) is returned as it is."""
        if self.tokenizer is None:
            return self
        found = self._retokenized.get(name)
        if found is None:
            tokenizer = self.tokenizer
            keys: dict[str, str] = {}

            def key(text: str) -> str:
                out = keys.get(text)
                if out is None:
                    out = keys[text] = split(detokenize(text, tokenizer))
                return out

            found = self._copy(tokenizer=None, retokenized_from=tokenizer)
            for phrase, row in self._table.items():
                for para, score in row.items():
                    found.add(key(phrase), key(para), score)
            self._retokenized[name] = found
        return found

    def folded(self) -> ParaphraseTable:
        """This table lower-cased (itself when it is): what a consumer that compares lower-cased
        text by its definition (ParaEval's n-grams, ParaMetric's phrases) matches a table built
        with ``--keep-case`` with, its rows of ``Bank`` and ``bank`` one (the higher score kept,
        a phrase that becomes its paraphrase dropped). Made once, until the table changes; a
        signature names the copy's rows (its hash), not ``cased``."""
        if self.lowercase:
            return self
        found = self._retokenized.get(_FOLDED)
        if found is None:
            found = self._copy(lowercase=True)
            for phrase, row in self._table.items():
                for para, score in row.items():
                    found.add(phrase, para, score)
            self._retokenized[_FOLDED] = found
        return found

    def _copy(self, **changed: Any) -> ParaphraseTable:
        """A table of no rows with this one's settings, `changed` (attribute: value) set instead: the
        one way :meth:`retokenized`, :meth:`folded` and :meth:`filtered` make their copies, which
        wrote each setting out by hand (a setting added later would be forgotten by one of them).
        Every public attribute is a setting, copied (:attr:`name`, :attr:`threshold`,
        :attr:`named_by_file`...); the private ones, the rows and what is remembered of them, are
        the new table's own, as ``__init__`` makes them; :attr:`built_in` is None: a copy's rows are
        not the built-in's (``ppdb_table().filtered(top_k=1)`` is signed as a table, by its hash)."""
        out = ParaphraseTable(self.name)
        settings = {key: value for key, value in vars(self).items() if not key.startswith("_")}
        unknown = changed.keys() - settings.keys()
        if unknown:  # a caller's typo would add an attribute no reader looks at
            raise TypeError(f"no setting of a ParaphraseTable: {', '.join(sorted(unknown))}")
        vars(out).update(settings, built_in=None, **changed)
        return out

    # -- querying ----------------------------------------------------------------------------
    def held(self, phrase: str) -> str:
        """`phrase` as this table holds its phrases (:func:`held_phrase` with its tokenizer and
        case): the key to look a typed phrase up with, ``Man's`` -> ``man 's`` in a table
        that pivot built."""
        return held_phrase(phrase, self.tokenizer, self.lowercase)

    def paraphrases(self, phrase: str) -> Mapping[str, Score]:
        """Paraphrases of `phrase` with their scores: a read-only view, so callers cannot
        change the table through it."""
        return MappingProxyType(self._table.get(normalize_phrase(phrase, self.lowercase), {}))

    def __contains__(self, phrase: object) -> bool:
        """True when the normalised string `phrase` has at least one paraphrase."""
        return isinstance(phrase, str) and normalize_phrase(phrase, self.lowercase) in self._table

    def __iter__(self) -> Iterator[ParaphraseEntry]:
        """Every (phrase, paraphrase, score) row, in insertion order."""
        for phrase, row in self._table.items():
            for para, score in row.items():
                yield ParaphraseEntry(phrase, para, score)

    def __len__(self) -> int:
        """Number of (phrase, paraphrase) pairs."""
        return sum(len(row) for row in self._table.values())

    def __repr__(self) -> str:
        """Name, size and a first row: ``ParaphraseTable('ppdb', 2 phrases, 3 pairs: 'a' -> 'b' 0.5, ...)``."""
        first = next(iter(self), None)
        sample = "" if first is None else f": {first.phrase!r} -> {first.paraphrase!r}" + (
            "" if first.score is None else f" {first.score:g}") + (", ..." if len(self) > 1 else "")
        return f"ParaphraseTable({self.name!r}, {len(self._table)} phrases, {len(self)} pairs{sample})"

    def grouped(self) -> Iterator[tuple[str, Mapping[str, Score]]]:
        """Each phrase with its paraphrases and their scores (a read-only view), in insertion
        order: the rows in bulk, for a reader of the whole table (a content hash) that would
        otherwise make an entry per row or normalise each phrase again to look it up."""
        for phrase, row in self._table.items():
            yield phrase, MappingProxyType(row)

    def content_hash(self) -> str:
        """SHA-256 (8 hex digits) of the table's sorted (phrase, paraphrase, score) rows, remembered
        until it changes (:meth:`add` forgets it): the hash a signature names a table by
        (:func:`paralign.metrics.paraeval.signature.table_hash`)."""
        digest = self._content_hash
        if digest is None:
            digest = self._content_hash = short_hash(_hashed_rows(self))
        return digest

    def phrases(self) -> Iterator[str]:
        """The normalised phrases that have paraphrases, in insertion order."""
        return iter(self._table)

    def multiword_strings(self) -> tuple[int, frozenset[str]]:
        """(the longest phrase in words on either side, at least 1; every phrase of several
        words on either side), remembered until the table changes: a scorer asks whether a
        phrase of several words can match at all without looking it up."""
        if self._multiword is None:
            out = {text for phrase, row in self._table.items()
                   for text in (phrase, *row) if " " in text}
            longest = max((text.count(" ") + 1 for text in out), default=1)
            self._multiword = (longest, frozenset(out))
        return self._multiword

    @property
    def max_phrase_length(self) -> int:
        """Longest phrase (in words) on either side, 0 for an empty table: the count
        :meth:`multiword_strings` remembers (phrases are held normalised, single spaces between
        words), so a table is not read row by row again at each call."""
        return self.multiword_strings()[0] if self._table else 0

    def filtered(self, threshold: float | None = None, top_k: int | None = None) -> ParaphraseTable:
        """A copy keeping scores >= threshold (unscored rows kept) and the k best per phrase,
        ranked as :func:`paralign.tables.lookup` (``paralign paraphrases --top-k``) ranks them
        (:func:`paralign.tables.best_first`): the highest score first, unscored rows after every
        scored one, ties by paraphrase; each phrase's rows are held in that order. It ranked
        unscored rows first, so top_k=1 kept an unscored row over a scored one.
        `top_k` is None (every row) or a whole number of at least 1
        (:func:`paralign.tables.check_top_k`, the check of :func:`paralign.tables.lookup`: 0 kept
        every row, -1 dropped the last one and 2.5 was a TypeError from slicing). The copy's
        :attr:`threshold` is the stricter of the table's and `threshold`: no row scored below it
        is held, and a signature names it (a table read at 0.5, then filtered, lost its ``:0.5``)."""
        check_threshold(threshold, f"table {self.name!r}")
        top_k = check_top_k(top_k)
        out = self._copy(threshold=max((t for t in (self.threshold, threshold) if t is not None), default=None))
        for phrase, row in self._table.items():
            items = [(q, s) for q, s in row.items() if threshold is None or s is None or s >= threshold]
            items.sort(key=lambda qs: best_first(qs[1], qs[0]))
            for q, s in items[:top_k]:
                out.add(phrase, q, s)
        return out


def lookup_key(source: ParaphraseSource, phrase: str) -> str:
    """The key to ask `source` for `phrase` with: a table's :meth:`ParaphraseTable.held` (``man's``
    is ``man 's`` in a table that pivot built), or any other source's ``held`` where it has one
    (WordNet's: ``Cars`` as ``cars``, what it looks up), else the phrase as given (a lattice).
    What every consumer of a source looks a phrase up with, and what ``paralign paraphrases``
    and ``serve`` show as ``looked_up_as``: ``serve``, the aligners'
    word similarity, ParaMetric's table scores (``paraphrases`` asks a table file through
    :func:`~paralign.phrase_keys.lookup_held`, the same rule; ParaEval re-splits a built table instead,
    :meth:`ParaphraseTable.retokenized`)."""
    held = getattr(source, "held", None)  # a table's, WordNet's
    return held(phrase) if callable(held) else phrase


def empty_table_note(source: object) -> str | None:
    """What to say of a `source` that is a table holding no paraphrase (a file of no row, or none
    scoring at least its threshold): ``the table holds no paraphrase scoring >= 0.5``; None for a
    table that holds one, or any other source. The one wording of the warnings of ``parametric
    table`` (:mod:`paralign.metrics.parametric`) and of ``paraeval``/``meta-eval --table``, each of
    which says what follows from it."""
    if not isinstance(source, ParaphraseTable) or len(source):
        return None
    return no_paraphrase_note(source.threshold)


def no_paraphrase_note(threshold: float | None = None) -> str:
    """:func:`empty_table_note`'s wording, of a table file too (``paralign paraphrases``, which asks a
    file without holding it: :func:`paralign.tables.holds_rows`): none scoring at least `threshold`."""
    kept = "" if threshold is None else f" scoring >= {threshold:g}"
    return f"the table holds no paraphrase{kept}"


def looked_up_as_typed(source: ParaphraseSource) -> bool:
    """True when :func:`lookup_key` asks `source` for a phrase as it was typed (but for white
    space and case, which every table normalises when it is asked): not a table whose
    tokenizer is known. A consumer in a hot loop skips the key then."""
    return not isinstance(source, ParaphraseTable) or source.tokenizer is None


def _hashed_rows(table: ParaphraseTable) -> Iterator[bytes]:
    """The bytes :meth:`ParaphraseTable.content_hash` hashes: a ``phrase<TAB>paraphrase<TAB>score``
    line per row (``None`` for no score, a float as ``str`` writes it), sorted by phrase, then
    paraphrase. One piece a phrase, its rows sorted within it (a phrase is one key, so this is
    the order of the (phrase, paraphrase) pairs): no object per row, so a table of millions of
    rows is hashed in a fraction of the time an entry a row took, to the same hash."""
    rows = dict(table.grouped())
    for phrase in sorted(rows):
        row = rows[phrase]
        yield "".join([f"{phrase}\t{para}\t{row[para]}\n" for para in sorted(row)]).encode()


def _check_score(phrase: str, paraphrase: str, score: Score) -> None:
    """ConfigurationError unless `score` is None or a finite number (NaN would pass every
    threshold test unnoticed) of at least 0 (:data:`paralign.tables.NEGATIVE`): the check of
    every row added."""
    if score is None:
        return
    try:
        finite = math.isfinite(score)
    except OverflowError:  # an int past float's range (10**400): no float holds it
        raise ConfigurationError(f"score of {phrase!r} -> {paraphrase!r} is {shown_value(score)}, too large "
                                 "for a float") from None
    if not finite:
        raise ConfigurationError(f"score of {phrase!r} -> {paraphrase!r} is {score}, not a finite number")
    if score < 0:  # as every reader of a table file refuses it: to_tsv's file would not read back
        raise ConfigurationError(f"score of {phrase!r} -> {paraphrase!r} is {score}, which {NEGATIVE}")


def _lone(text: str) -> str:
    """Why `text`, a str holding a lone surrogate (``"\\ud800"``, what ``surrogateescape``
    decoding makes of a bad byte), is no phrase: the table took it, and writing the table
    (``to_tsv``) or signing it (a scorer's ``content_hash``) ended in a UnicodeEncodeError."""
    return f"it holds {lone_in(text)}"


def _texts_checked(rows: Iterable[object]) -> Iterator[object]:
    """`rows` as given, a FormatError naming the first (1-based) whose phrase or paraphrase holds
    a lone surrogate (:func:`_lone`); the rest of each row is :func:`_row`'s to check. Only for
    :meth:`ParaphraseTable.from_pairs`: the tables paralign reads (``load_table``) are decoded
    UTF-8, which holds none, and are read without this test's cost."""
    for number, row in enumerate(rows, start=1):
        if isinstance(row, tuple | list):
            bad = next((x for x in row[:2] if isinstance(x, str) and not is_text(x)), None)
            if bad is not None:
                raise FormatError(f"row {number} is {shown_value(row)}: {_lone(bad)}")
        yield row


def _row(row: object, number: int) -> tuple[str, str, Score]:
    """(phrase, paraphrase, score) of one row given to :meth:`ParaphraseTable.from_pairs`;
    FormatError naming the row (1-based) unless it is two str and an optional score."""
    if type(row) is tuple and len(row) == 3:  # the common row, told without the checks below
        phrase, paraphrase, score = row
        if type(phrase) is str and type(paraphrase) is str and (score is None or type(score) is float):
            return phrase, paraphrase, score
    if isinstance(row, str | bytes) or not isinstance(row, tuple | list) or len(row) not in (2, 3):
        raise FormatError(f"row {number} is {shown_value(row)}, not (phrase, paraphrase[, score])")
    phrase, paraphrase, score = (*row, None) if len(row) == 2 else row
    if not isinstance(phrase, str) or not isinstance(paraphrase, str):
        raise FormatError(f"row {number} is {shown_value(row)}: a phrase and its paraphrase are str")
    if score is not None and (isinstance(score, bool) or not isinstance(score, Real)):
        raise FormatError(f"row {number}: score {shown_value(score)} is not a number")
    # a float, as from_tsv reads: to_tsv wrote a numpy float's or a Fraction's repr, which it cannot read
    if score is None:
        return phrase, paraphrase, None
    try:
        return phrase, paraphrase, float(score)
    except OverflowError:  # an int past float's range (10**400)
        raise FormatError(f"row {number}: score {shown_value(score)} is too large for a float") from None
