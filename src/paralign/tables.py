"""Paraphrase table files: Parquet or TSV (written gzip when named .gz in any case), written atomically, read alike.

A table is rows of ``phrase, paraphrase, probability`` and more columns (pivot tables:
``pivots, support``; monolingual tables: ``count, phrase_count``), or of ``phrase, paraphrase,
score`` (a lattice table's count of groups, a user's score): its header, or a Parquet table's
schema, names the third column (:func:`score_column`).  The pipelines write
Parquet (``FILE.parquet``: sorted by phrase, so a query reads only the row groups whose min/max
statistics hold its phrase) or TSV (``FILE.tsv``, ``FILE.tsv.gz``: a ``# column...`` header, then
one row a line, floats as Python's exact ``repr``), with the same rows; every reader here
takes both.  A file is written under a temporary name and renamed into place when complete
(:func:`atomic_path`), so no half-written table is ever visible.

Rows read (:func:`lookup`) or held in memory (``ParaphraseTable``) follow one rule: one row a
paraphrase, matched as the phrase is (a user's table without case, white space collapsed); of
rows that come to be one (``car -> auto`` twice, ``Car -> Auto``) the best is kept
(:func:`best_first`), as a re-split or folded table keeps it; a paraphrase that is the phrase
itself by that rule (``car -> CAR``) is dropped. Not an error: rows written apart meet under
paralign's matching rule, not the user's, and every table in memory kept the best already.

Not for: building tables (:mod:`paralign.pivot`), writing their files (:mod:`paralign.table_writer`,
whose names are re-exported here), opening and checking Parquet files (:mod:`paralign.table_parquet`,
whose public names are re-exported here too), or the in-memory `ParaphraseTable` used for matching
(:mod:`paralign.paraphrases`, which reads these files through here).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from numbers import Real
from pathlib import Path
from typing import Any

from .errors import (
    ConfigurationError,
    FormatError,
    check_count,
    check_texts,
    counted,
    invalid_json,
    shown_value,
)
from .line_ends import line_text
from .table_parquet import GROUPS_AT_ONCE as GROUPS_AT_ONCE
from .table_parquet import NEGATIVE as NEGATIVE
from .table_parquet import PARQUET_MAGIC as PARQUET_MAGIC
from .table_parquet import READ_BY_POSITION as READ_BY_POSITION
from .table_parquet import UNSCORED_NAME as UNSCORED_NAME
from .table_parquet import _open_parquet, _parquet_batches, _parquet_rows_of
from .table_parquet import check_column_names as check_column_names
from .table_parquet import check_columns as check_columns
from .table_parquet import checked_batch as checked_batch
from .table_parquet import is_parquet_file as is_parquet_file
from .table_parquet import parquet_phrases as parquet_phrases
from .table_parquet import score_fault as score_fault
from .table_writer import METADATA_KEY as METADATA_KEY
from .table_writer import METADATA_LINE as METADATA_LINE
from .table_writer import PARQUET_SUFFIXES as PARQUET_SUFFIXES
from .table_writer import ROW_GROUP_ROWS as ROW_GROUP_ROWS
from .table_writer import TableWriter as TableWriter
from .table_writer import atomic_path as atomic_path
from .table_writer import is_parquet as is_parquet
from .table_writer import tsv_bytes as tsv_bytes
from .textio import (
    float_field,
    int_field,
    open_text,
    strip_bom,
    without_bom,
)


def score_field(text: str, line: str, first: bool) -> float:
    """A TSV row's score `text` (of `line`, the `first` row or not) as a float, else a ValueError: not a
    number (a first row, or a line starting with '#' below a record, is asked about as a header: pandas'
    ``to_csv`` writes one without '#', ``cat a.tsv b.tsv`` one below), not finite, negative."""
    try:
        score = float_field(text)
    except ValueError:
        header = ": a header line? A TSV table's header starts with '# ' and comes once, at its top"
        raise ValueError(f"{text!r} is not a number" + (header if first or line.startswith("#") else "")) from None
    fault = score_fault(score)
    if fault is not None:
        raise ValueError(f"{text!r} {fault}")
    return score


def check_threshold(threshold: object, what: str) -> None:
    """ConfigurationError unless a `threshold` on table rows' scores is None or a finite number of
    0 or more, naming `what` (a table, a source spec): NaN keeps every row (no score is below it), inf
    none, a str such as '0.5' was a TypeError at the first scored row, and a negative one (``t.tsv:-1``)
    was taken and kept every row, as no threshold does: no table's score is below 0 (:data:`NEGATIVE`)."""
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, Real)
                                  or not math.isfinite(threshold)):
        raise ConfigurationError(f"{what} has a threshold that is not a finite number "
                                 f"({shown_value(threshold)}): {THRESHOLDS}")
    if threshold is not None and threshold < 0:
        raise ConfigurationError(f"{what} has a threshold below 0 ({shown_value(threshold)}), which keeps every "
                                 f"row, as none does (a table's scores are 0 or more): {THRESHOLDS}")


#: What a threshold on a table's scores may be (:func:`check_threshold`).
THRESHOLDS = "use a number of 0 or more, such as 0.5"


def check_top_k(top_k: object) -> int | None:
    """`top_k` of a table's rows per phrase: None (every row) or a whole number of at least 1, as
    :func:`paralign.errors.check_count` checks a count (``top_k must be at least 1, got 0``): the
    one check of :func:`lookup` and :meth:`paralign.paraphrases.ParaphraseTable.filtered`."""
    return None if top_k is None else check_count(top_k, "top_k")


def read_metadata(path: str | Path) -> dict[str, Any]:
    """What the pipeline recorded in a table (its report: inputs, alignments), or {}; a record
    that is not a JSON object is a FormatError naming the file (and a TSV table's line)."""
    if is_parquet_file(path):
        raw = (_open_parquet(path).schema_arrow.metadata or {}).get(METADATA_KEY)
        return _record(raw, f"{METADATA_KEY.decode()!r} metadata", str(path)) if raw else {}
    return _metadata_in(_comment_head(path), path)


def _comment_head(path: str | Path) -> list[str]:
    """The lines a TSV table starts with that start with '#' (its header, comments, the record), BOM dropped."""
    lines = []
    with open_text(path) as handle:
        for line in without_bom(handle):
            if not line.startswith("#"):
                break
            lines.append(line)
    return lines


def _metadata_in(head: Sequence[str], path: str | Path) -> dict[str, Any]:
    """The record among a TSV table's first '#' lines (:func:`_comment_head`), or {}."""
    for number, line in enumerate(head, start=1):
        found = metadata_line(line, str(path), number)
        if found is not None:
            return found
    return {}


def _header_names(first: str) -> list[str]:
    """The column names a TSV table's first line gives: its ``# phrase TAB paraphrase TAB ...`` header's, else none."""
    return line_text(first[2:]).split("\t") if first.startswith("# ") else []


@dataclass(frozen=True, slots=True)
class TableHead:
    """What a table file says of itself before its rows, read once (:func:`table_head`) by a reader that
    queries it again and again (``paralign serve``): whether it is Parquet, its column names
    (:func:`table_columns`) and its record (:func:`read_metadata`)."""

    parquet: bool
    names: tuple[str, ...]
    metadata: dict[str, Any]


def table_head(path: str | Path) -> TableHead:
    """A table file's :class:`TableHead`: a TSV table's first lines read once, for its header and its record."""
    if is_parquet_file(path):
        return TableHead(True, tuple(table_columns(path)), read_metadata(path))
    head = _comment_head(path)
    return TableHead(False, tuple(_header_names(head[0]) if head else ()), _metadata_in(head, path))


def metadata_line(line: str, source: str | None = None, number: int | None = None) -> dict[str, Any] | None:
    """What a TSV table's ``# paralign: {...}`` header line records, None for another line: for a
    reader that reads the table's rows in the same pass (a pipe can be read once). A record that
    is not a JSON object is a FormatError naming `source` and line `number`."""
    if not line.startswith(METADATA_LINE):
        return None
    return _record(line_text(line[len(METADATA_LINE):]), f"{METADATA_LINE.strip()!r} record", source, number,
                   len(METADATA_LINE))


def _record(text: str | bytes, what: str, source: str | None, number: int | None = None,
            shift: int = 0) -> dict[str, Any]:
    """A table's metadata record `text` (`what` names it in errors; `shift`: the characters of
    its line before it): a JSON object, whose ``options``, when present, is one too (what
    :func:`paralign.phrase_keys.form_of` reads). Anything else is a FormatError naming `source`
    and line `number`: json.loads' error, or an AttributeError in form_of, was a traceback of
    every command given the table (a hand-edited record, a comment that starts as one does).
    Half a UTF-16 surrogate pair escaped in it is read, not refused as the JSON inputs refuse it
    (:func:`paralign.errors.lone_surrogate`): no string of a record reaches an encoder (form_of
    keeps a tokenizer only when it is one of :data:`paralign.tokenizers.TOKENIZERS`, and compares
    ``lowercase`` with False)."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"bad {what}: {invalid_json(exc, shift)}", source=source, line=number) from None
    except UnicodeDecodeError as exc:  # a Parquet file's bytes (a TSV table's text is decoded already)
        raise FormatError(f"bad {what}: not JSON text ({exc.reason})", source=source) from None
    if not isinstance(record, dict):
        raise FormatError(f"bad {what}: a JSON {type(record).__name__}, not an object", source=source, line=number)
    if not isinstance(record.get("options", {}), dict):
        raise FormatError(f'bad {what}: its "options" is not a JSON object', source=source, line=number)
    return record


def row_lines(lines: Iterable[str], on_record: Callable[[dict[str, Any]], object] | None = None,
              source: str | None = None, *, names: Sequence[str] | None = None) -> Iterator[tuple[int, str]]:
    """The lines of a TSV table that hold rows, numbered from 1 and without their line ends
    (:func:`paralign.line_ends.line_text`: LF or CRLF and nothing more, a lone CR read as a space,
    as every reader reads a file; ``rstrip`` dropped both CRs of ``\\r\\r\\n`` and kept a lone one): a
    blank line holds none, nor does a line starting with '#' above the ``# paralign:`` record (a
    comment, or the record itself, which `on_record` is given). Below the record (a table paralign
    wrote) every line that is not blank is a row, so a phrase that starts with '#' (``#1 hit``,
    or ``# 1`` as a tokenizer splits it) is read back as it was written; in a table without
    the record (a user's) a line starting with '#' is a comment. A record that is not a JSON
    object is a FormatError naming `source` and its line (:func:`metadata_line`), as is a header
    that names a column ``phrase`` or ``paraphrase`` where it is not read from
    (:func:`~paralign.table_parquet.check_column_names`: ``# paraphrase TAB phrase TAB score``).
    `names`: the header's names, read already (:func:`headed`, :func:`table_head`), checked as they
    are instead of the first line parsed again."""
    recorded = False
    for number, line in enumerate(lines, start=1):
        line = line_text(line)
        if not line or line.isspace():
            continue
        if line[0] == "#" and not recorded:
            if number == 1:  # a header (``# phrase TAB paraphrase ...``) names the columns read by position
                check_column_names(_header_names(line) if names is None else names, source, number)
            metadata = metadata_line(line, source, number)
            if metadata is not None:
                recorded = True
                if on_record is not None:
                    on_record(metadata)
            continue
        yield number, line


def iter_rows(path: str | Path, *, unscored: bool = False) -> Iterator[tuple[str, str, Any, list[Any]]]:
    """Rows of a table file, Parquet or TSV: (phrase, paraphrase, score, other columns); the score is
    the third column, a probability in pivot's tables, a count of groups in lattice tables
    (:func:`score_column`), so a TSV row's errors call it the score.

    TSV: blank lines and comments are skipped (:func:`row_lines`); a row without a numeric third
    field, or with one that is not finite or is negative (:func:`score_field`), raises FormatError
    naming the file and line. With `unscored` a row of two fields or with an empty third one is an
    unscored pair (probability None), as the paraphrase sources read a user's table
    (:meth:`paralign.paraphrases.ParaphraseTable.from_tsv`), and so is every row of a Parquet table of
    two columns (:func:`~paralign.table_parquet.check_columns`: one rule for both formats); the
    pipelines keep the default, which refuses such a table, naming its missing score column."""
    if is_parquet_file(path):
        number = 1
        for batch in _parquet_batches(path, scored=not unscored):
            columns = [column.to_pylist() for column in checked_batch(batch, path, number, unscored=unscored).columns]
            number += batch.num_rows
            for row in zip(*columns, strict=True):
                yield row[0], row[1], row[2], list(row[3:])
        return
    yield from _tsv_table_rows(path, None, unscored=unscored)


def _tsv_table_rows(path: str | Path, names: Sequence[str] | None, *,
                    unscored: bool) -> Iterator[tuple[str, str, Any, list[Any]]]:
    """:func:`iter_rows` of a TSV table, its header parsed once: given as its `names` (:func:`lookup`'s,
    from the file's :class:`TableHead`), else read here (:func:`headed`), and not again by :func:`row_lines`
    (a lookup parsed it three times: for the head, for the score's name and for the check of its names)."""
    with open_text(path) as handle:  # BOM: no part of a phrase
        lines: Iterable[str] = without_bom(handle)
        if names is None:
            names, lines = headed(lines)
        yield from tsv_rows(row_lines(lines, source=str(path), names=names), path, unscored=unscored,
                            score=score_name(names))


def holds_rows(path: str | Path, head: TableHead | None = None) -> bool:
    """Whether a table file holds a row, read up to its first (a Parquet table's footer counts them):
    a file of none (empty, a header alone) answers every phrase with none, which ``paralign
    paraphrases`` says, as the commands that hold a table say it of one
    (:func:`paralign.paraphrases.empty_table_note`). `head`: the file's :class:`TableHead`, already read."""
    if head.parquet if head is not None else is_parquet_file(path):
        return bool(_open_parquet(path).metadata.num_rows)
    return next(_tsv_table_rows(path, None if head is None else head.names, unscored=True), None) is not None


def headed(lines: Iterable[str]) -> tuple[list[str], Iterator[str]]:
    """The column names a TSV table whose `lines` these are gives in its header (none without one), and
    the lines, all still to read (a pipe is read once): a reader's bad row names its score as the table
    does (:func:`score_name`: ``probability`` in a pivot table), as a Parquet table's names it, and
    :func:`row_lines`, given them, checks them without parsing the header again."""
    lines = iter(lines)
    first = next(lines, None)
    if first is None:
        return [], lines
    return _header_names(first), itertools.chain([first], lines)


def tsv_rows(lines: Iterable[tuple[int, str]], path: str | Path, *, unscored: bool = False,
             score: str = UNSCORED_NAME) -> Iterator[tuple[str, str, Any, list[Any]]]:
    """:func:`iter_rows` of a TSV table's row `lines`, numbered as in the file: all of them
    (:func:`row_lines`), or those an index of the file found (``paralign serve``'s, which reads
    only the rows of the phrase asked; :func:`lookup` `lines`); `score`: what the table names its
    score (:func:`headed`), as a bad row's error names it."""
    for count, (number, line) in enumerate(lines):
        fields = line.split("\t")
        value = row_score(fields, line, not count, path, number, unscored=unscored, name=score)  # a row of 1 field
        yield fields[0], fields[1], value, fields[3:]


def row_score(fields: Sequence[str], line: str, first: bool, path: str | Path, number: int, *,
              unscored: bool = False, name: str = UNSCORED_NAME) -> float | None:
    """The score of a TSV table's row `line` (line `number` of `path`, the `first` row or not) split
    into `fields` at its tabs: None for an unscored pair with `unscored` (two fields, or an empty third);
    else :func:`score_field`'s. Any other row is a FormatError naming the file and line and the score
    as the table `name`s it (:func:`headed`: ``probability`` in a pivot table, as its Parquet form's
    error names it, where every TSV table's said ``score``), worded
    alike by every reader of a TSV table (:func:`tsv_rows`, and so ``paralign paraphrases``;
    :meth:`paralign.paraphrases.ParaphraseTable.from_tsv`, and so :func:`paralign.paraphrases.load_table`),
    which worded one row's fault two ways ('bad table row (score 'nan' is...)', 'score 'nan' is...')."""
    if unscored and len(fields) >= 2 and (len(fields) == 2 or not fields[2].strip()):
        return None
    if len(fields) < 3:
        expected = "2: phrase, paraphrase, and a score if scored" if unscored else "3: phrase, paraphrase, score"
        raise FormatError(f"bad table row ({counted(len(fields), 'TAB-separated field')}; expected at least "
                          f"{expected})", source=str(path), line=number)
    try:
        return score_field(fields[2], line, first)
    except ValueError as exc:
        raise FormatError(f"bad table row ({name} {exc})", source=str(path), line=number) from None


def lookup(path: str | Path, phrases: Sequence[str], top_k: int | None = None, *,
           key: Callable[[str], str] | None = None, lines: Iterable[tuple[int, str]] | None = None,
           written: Sequence[str] | None = None, head: TableHead | None = None,
           threshold: float | None = None) -> dict[str, list[dict[str, Any]]]:
    """The rows of each of `phrases` in a table, best first (score, then paraphrase, by `key` when
    given: :func:`best_first`), one a paraphrase as a table in memory holds them (duplicates: the best kept;
    the phrase itself dropped: :func:`_one_a_paraphrase`); `top_k` keeps the k best.  Phrases are matched
    exactly, or, with `key`, to each row's ``key(phrase)`` (a user's table, matched without case: see
    :func:`paralign.phrase_keys.lookup_held`).  Parquet is read with a filter on `phrase`, so only the row
    groups that can hold them are read (with `key` and no `written`, every row: no statistics order the keys); TSV is
    scanned once, a user's row without a score being an unscored pair (None, listed after the scored
    ones). A row is the paraphrase, its score keyed by the table's name for it (:func:`score_column`:
    ``probability`` in a pivot table, ``score`` in a lattice table), then each column after the score,
    keyed by its name, or ``column<N>`` (:func:`extra_names`). `lines`: a TSV table's row lines to read
    instead of every one (:func:`tsv_rows`: those an index of the file says can hold `phrases`). `written`:
    with `key`, a Parquet table's phrases as written whose key may be one of `phrases` (those an index of the
    file found), its rows read with the filter on them instead of every row. `head`: the file's
    :class:`TableHead`, already read (else read here).
    `phrases` is a list of str (InputTypeError for one str); `top_k` None (every row) or a whole number
    of at least 1 (:func:`check_top_k`: -1 dropped the last row, 0 kept them all, 2.5 was a TypeError).
    `threshold`: a row scored below it is no row (unscored rows kept), as a table read with it in
    memory holds none (``PATH:THRESHOLD``, :func:`paralign.paraphrases.load_table`), before `top_k`."""
    check_texts(phrases, "phrases")
    check_top_k(top_k)
    check_threshold(threshold, f"table {path}")
    wanted = list(dict.fromkeys(phrases))
    found: dict[str, list[dict[str, Any]]] = {phrase: [] for phrase in wanted}
    keyed = _keyed(key)
    names = list(head.names) if head is not None else table_columns(path)
    score = score_name(names)
    if head.parquet if head is not None else is_parquet_file(path):
        query = wanted if key is None else written  # None: every row read
        number: int | None = None if query is not None else 1  # a query's rows are not numbered
        extras = extra_names(names, len(names), score)
        for batch in _parquet_rows_of(path, query) if query is not None else _parquet_batches(path):
            columns = [column.to_pylist() for column in checked_batch(batch, path, number, unscored=True).columns]
            number = None if number is None else number + batch.num_rows
            for row in zip(*columns, strict=True):
                rows = found.get(keyed(row[0]))
                if rows is not None:  # by position, as a TSV table's columns
                    rows.append({"paraphrase": row[1], score: row[2],
                                 **{name: _extra(value) for name, value in zip(extras, row[3:], strict=True)}})
    else:
        rows_read = _tsv_table_rows(path, names, unscored=True) if lines is None else tsv_rows(
            lines, path, unscored=True, score=score)
        for phrase, paraphrase, value, rest in rows_read:
            rows = found.get(keyed(phrase))
            if rows is not None:
                extra = zip(extra_names(names, 3 + len(rest), score), map(_number, rest), strict=True)
                rows.append({"paraphrase": paraphrase, score: value, **dict(extra)})
    fold = key or str  # a built table's paraphrases matched as written, a user's by the key
    for phrase, rows in found.items():  # ties ranked by the key too, as the table in memory holds them
        if threshold is not None:  # dropped before duplicates are merged, as reading drops them
            rows = [row for row in rows if row[score] is None or row[score] >= threshold]
        rows = sorted(_one_a_paraphrase(rows, phrase, fold, score), key=lambda r: best_first(r[score], fold(r["paraphrase"])))
        found[phrase] = rows[:top_k] if top_k is not None else rows
    return found


def _one_a_paraphrase(rows: list[dict[str, Any]], phrase: str, key: Callable[[str], str],
                      score: str) -> Iterable[dict[str, Any]]:
    """`phrase`'s `rows` (in the file's order, each one's score under the key `score`) as the table in memory
    holds them (:meth:`ParaphraseTable.add`): one row a paraphrase, by its `key` (the rule the phrase was matched by: a user's table's case and white
    space folded), the best of rows that share it kept (:func:`best_first`: the higher score, a scored row
    over an unscored one, the first of equals), shown as it is written; a row whose paraphrase is the phrase
    itself by that key (``car -> CAR``), or is empty, is dropped. `paralign paraphrases` listed each such
    row (``coach`` twice, ``car`` for ``car``), where ``serve`` and every table in memory hold one or none."""
    best: dict[str, dict[str, Any]] = {}
    for row in rows:
        held = key(row["paraphrase"])
        if not held or held == phrase:
            continue
        kept = best.get(held)
        if kept is None or best_first(row[score], "") < best_first(kept[score], ""):
            best[held] = row
    return best.values()


def _keyed(key: Callable[[str], str] | None) -> Callable[[str], str]:
    """`key` (the phrase itself when None), worked out once for each run of rows that share a
    phrase: a table's rows come grouped by phrase."""
    if key is None:
        return lambda phrase: phrase
    last: list[str] = ["", key("")]

    def keyed(phrase: str) -> str:
        if phrase != last[0]:
            last[:] = phrase, key(phrase)
        return last[1]

    return keyed


def best_first(probability: float | None, paraphrase: str) -> tuple[bool, float, str]:
    """Sort key of a phrase's rows, best first: the highest probability first, unscored rows (None: a
    user's TSV row without a score, a null in Parquet) after every scored one, ties (and the unscored
    rows among themselves) by paraphrase, in code-point order (Python's str order), so the order never
    depends on the file's. The one order of every ranked list of a table's rows: :func:`lookup`
    (``paraphrases --top-k``) and :meth:`ParaphraseTable.filtered` (which ranked unscored rows first)."""
    return probability is None, -(probability or 0.0), paraphrase


def extra_names(names: Sequence[str], width: int, score: str) -> list[str]:
    """The keys of a row's columns 4 to `width`: their `names`, or ``column<N>`` where none names one or its
    name is taken (the row's `score` key: a second 'score' column overrode the row's score, ranked and shown by it).
    The web app's paraphrases page names a table's columns by it, as ``paralign paraphrases`` names them."""
    taken, keys = {"paraphrase", score}, []
    for n in range(3, width):
        keys.append(names[n] if n < len(names) and names[n] not in taken else f"column{n + 1}")
        taken.add(keys[-1])
    return keys


def table_columns(path: str | Path) -> list[str]:
    """A table's column names: a Parquet table's schema's, a TSV table's ``# phrase TAB paraphrase TAB ...``
    header's (its first line: none in a user's table without it, or an old ``lattice paraphrases`` one)."""
    if is_parquet_file(path):
        return list(_open_parquet(path).schema_arrow.names)
    with open_text(path) as handle:
        first = strip_bom(handle.readline())
    return _header_names(first)  # a header names them


def score_column(path: str | Path) -> str:
    """What a table names its score, the third column: ``probability`` (p(e2|e1)) in the tables pivot and
    paraphrase-table write, ``score`` (a count of groups) in those ``lattice paraphrases`` writes, a user's
    name in a user's header; ``score`` where none names it (a user's table, whose score paralign cannot
    tell: `paralign paraphrases` called it a probability, and a lattice table's count with it)."""
    return score_name(table_columns(path))


def score_name(names: Sequence[str]) -> str:
    """:func:`score_column` of a table whose column names (:func:`table_columns`) are `names`."""
    name = names[2] if len(names) > 2 else ""
    return name if name.strip() and name != "paraphrase" else UNSCORED_NAME  # a row's keys: paraphrase, score


def _number(text: str) -> int | float | str:
    """A TSV table's extra column value (`pivots`, `support`, a user's): an int or a finite float as
    :func:`~paralign.textio.int_field` and :func:`~paralign.textio.float_field` read them, else the text as
    written. 'nan' and 'inf' stay text (as floats they made ``paraphrases --format json`` print NaN and
    Infinity, which no JSON reader takes), and so does '1_000' (int() read it as 1000)."""
    for kind in (int_field, float_field):
        try:
            value = kind(text)
        except ValueError:
            continue
        return value if math.isfinite(value) else text
    return text


def _extra(value: Any) -> Any:
    """A Parquet table's extra column value as :func:`lookup` gives it: a NaN or infinite float None."""
    return None if isinstance(value, float) and not math.isfinite(value) else value
