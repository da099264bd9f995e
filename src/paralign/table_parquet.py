"""Reading Parquet table files (:mod:`paralign.tables` reads both formats through here and
re-exports every public name): whether a file is one (:func:`is_parquet_file`, by its name or its
``PAR1`` bytes), its footer opened once while the file stays the same, its rows checked as a TSV
table's are (:func:`checked_batch`), and a query by phrase that reads only the row groups whose
statistics can hold it. Moved out of :mod:`paralign.tables` (600 lines).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from .errors import OPEN_REASONS, FormatError, counted
from .table_writer import is_parquet
from .textio import input_file_error, require_file

if TYPE_CHECKING:  # pragma: no cover - pyarrow loads on first use
    import pyarrow as pa

GROUPS_AT_ONCE = 4  # row groups a query holds in memory at once (262,144 rows), whatever its phrases need

#: Why a row's negative score is refused (:func:`iter_rows`, :func:`checked_batch`, from_tsv, a
#: row added in memory): the third column is p(e2|e1) (pivot, paraphrase-table), a count (lattice
#: paraphrases) or a user's score, never below 0 (graded ParaEval gave one full credit). Above 1
#: is kept: a count or a user's score is one, and a pivot sum can round past 1.
NEGATIVE = "is negative: a table's score (p(e2|e1), a count or a user's score) is 0 or more"


def score_fault(score: float) -> str | None:
    """Why a table file's row is refused for its `score` (read as a float), None when it is not: not
    finite (NaN would pass every threshold test unnoticed) or negative (:data:`NEGATIVE`). The one
    wording of a TSV row's score (:func:`paralign.tables.score_field`) and a Parquet row's
    (:func:`checked_batch`)."""
    if not math.isfinite(score):
        return "is not a finite number"
    return NEGATIVE if score < 0 else None


#: What a Parquet file starts and ends with.
PARQUET_MAGIC = b"PAR1"


def is_parquet_file(path: str | Path) -> bool:
    """True when the table at `path` is read as Parquet: its name says so (:func:`is_parquet`), or it
    is a regular file that starts and ends with :data:`PARQUET_MAGIC`, as gzip is told by its data (a
    Parquet table on stdin, or renamed FILE.tsv, was read as TSV: 'not UTF-8' or 'a NUL byte' at line 1).
    A pipe is not sniffed (its bytes would be lost): see `paralign.cli._common.read_once`."""
    if is_parquet(path):
        return True
    try:
        if not os.path.isfile(path) or os.path.getsize(path) < 2 * len(PARQUET_MAGIC):
            return False
        with open(path, "rb") as handle:
            head = handle.read(len(PARQUET_MAGIC))
            handle.seek(-len(PARQUET_MAGIC), os.SEEK_END)
            return head == PARQUET_MAGIC and handle.read() == PARQUET_MAGIC
    except OSError:
        return False  # the reader names the fault


@functools.lru_cache(maxsize=4)
def _parquet_file(path: str, stamp: tuple[int, int, int]) -> Any:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path)


def _open_parquet(path: str | Path) -> Any:
    """A table's `pq.ParquetFile`, its footer read once while the file stays the same (a
    10 GB table's footer takes 0.1 s: a server or a script querying it again reuses it)."""
    path = require_file(path)  # InputFileError (missing, a directory) before the format is checked
    stat = os.stat(path)
    try:
        return _parquet_file(str(Path(path).resolve()), (stat.st_ino, stat.st_mtime_ns, stat.st_size))
    except OSError as exc:
        if exc.errno in OPEN_REASONS:  # the path's fault (no permission...), as for a TSV table: exit 2
            raise input_file_error(exc, str(path)) from exc
        raise FormatError(f"not a Parquet table ({exc})", source=str(path)) from exc
    except ValueError as exc:
        raise FormatError(f"not a Parquet table ({exc})", source=str(path)) from exc


#: The columns a table's rows are read from, by position: the score is the third, named as the table names it.
READ_BY_POSITION = ("phrase", "paraphrase")


def check_column_names(names: Sequence[str], path: str | Path | None, line: int | None = None) -> None:
    """FormatError naming `path` (None: no file) and `line` (a TSV table's header's) when a table's
    column `names` name a column ``phrase`` or ``paraphrase`` where it is not read from: a table's
    rows are read by position, Parquet's (:func:`check_columns`) as a TSV table's fields, so a
    table whose columns are paraphrase, phrase, score was read with its paraphrases as phrases,
    silently."""
    for k, name in enumerate(READ_BY_POSITION):
        at = names.index(name) if name in names else k
        if at != k:
            there = repr(names[k]) if k < len(names) else "none named"
            raise FormatError(f"not a paraphrase table as it is read: its column {name!r} is column {at + 1}, where "
                              f"the {name} is read from column {k + 1} ({there}): a table's columns are read "
                              "by position (phrase, paraphrase, score, then any others): write them in that order",
                              source=None if path is None else str(path), line=line)


#: The name of the score of a table of two columns (phrase, paraphrase: unscored pairs), and of
#: any table whose header names none (:func:`paralign.tables.score_name`, the default of a TSV
#: reader's score name): one word for all of them.
UNSCORED_NAME = "score"


def check_columns(schema: pa.Schema, path: str | Path, *, scored: bool = False) -> None:
    """FormatError naming `path` unless a Parquet table of `schema` is read as it says: at least
    two columns (phrase, paraphrase, then a score and any others, read by position as a TSV table's
    fields), the first two text, the third, when there, numbers, and no column named ``phrase`` or
    ``paraphrase`` where it is not read from (:func:`check_column_names`). A table of columns
    paraphrase, phrase, probability (pandas writes any order) was read with its paraphrases as
    phrases, silently; one named otherwise (``src``, ``tgt``, ``p``) is read by position. A table of
    two columns is unscored pairs, as a TSV table's rows of two fields are (it was refused, while the
    TSV table was read): refused, naming the missing score column, only where a reader wants scores
    (`scored`: :func:`paralign.tables.iter_rows` without `unscored`). The check of every reader
    (:func:`_checked_parquet`: a scan, a query by phrase, :func:`parquet_phrases`)."""
    import pyarrow as pa

    names = schema.names
    least = 3 if scored else 2
    if len(names) < least:
        missing = ("phrase", "paraphrase", "score")[len(names)]
        raise FormatError(f"not a paraphrase table: no {missing} column ({counted(len(names), 'column')}"
                          f"{': ' if names else ''}{', '.join(map(repr, names))}; expected at least {least}: "
                          f"phrase, paraphrase{', score' if scored else ', then a score if scored'})",
                          source=str(path))
    check_column_names(names, path)
    for k in (0, 1):
        kind = schema.field(k).type
        kind = kind.value_type if pa.types.is_dictionary(kind) else kind
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_null(kind)):
            raise FormatError(f"not a paraphrase table: its column {names[k]!r} holds {kind}, not text", source=str(path))
    kind = schema.field(2).type if len(names) > 2 else pa.null()  # null: no score (written from no rows)
    if not (pa.types.is_floating(kind) or pa.types.is_integer(kind) or pa.types.is_null(kind)):
        raise FormatError(f"not a paraphrase table: its column {names[2]!r} holds {kind}, not numbers",
                          source=str(path))


def checked_batch(batch: Any, path: str | Path, first_row: int | None, *, unscored: bool = False) -> Any:
    """A record batch of a Parquet table's rows, checked as a TSV table's rows are (:func:`iter_rows`),
    with its probability column (the third) as float64: its columns checked already, once a file, by
    the reader that gave it (:func:`_checked_parquet`), each phrase and paraphrase there, each score
    finite and not negative (:data:`NEGATIVE`); a missing (null) probability is an unscored pair (None)
    with `unscored`, as a TSV row without a score. Anything else is a FormatError naming the file and
    the row (`first_row`: the 1-based number of the batch's first row; None when not known, a query's
    rows: the row is named by its phrase). A user's table was read unchecked: a missing probability was
    a TypeError from float(), a NaN passed, sorted first, a text column a TypeError."""
    import pyarrow as pa
    import pyarrow.compute as pc

    names = batch.schema.names

    def bad(index: int, reason: str) -> NoReturn:
        row = f"row {first_row + index}" if first_row is not None else f"row of {batch.column(0)[index].as_py()!r}"
        raise FormatError(f"bad table {row} ({reason})", source=str(path))

    for k in (0, 1):
        if batch.column(k).null_count:
            bad(pc.index(pc.is_null(batch.column(k)), True).as_py(), f"no {names[k]}")
    if batch.num_columns == 2:  # unscored pairs (check_columns refused them to a reader wanting scores)
        batch = batch.append_column(UNSCORED_NAME, pa.nulls(batch.num_rows, pa.float64()))
        if unscored:  # every score null, as wanted: nothing of it to check
            return batch
        names = batch.schema.names  # a direct caller wanting scores: "no score" below
    probability = batch.column(2)
    probability = probability.cast(pa.float64())
    if probability.null_count and not unscored:
        bad(pc.index(pc.is_null(probability), True).as_py(), f"no {names[2]}")
    # no Python value to pc while rows are good: pa.scalar imports pandas (0.4 s of a query)
    infinite = pc.invert(pc.is_finite(probability))  # null where the score is: any() skips it
    lowest = pc.min(probability).as_py()  # None: every score null
    if pc.any(infinite).as_py() or (lowest is not None and lowest < 0):
        index = pc.index(pc.or_(infinite, pc.less(probability, 0.0)), True).as_py()  # the first bad row
        value = probability[index].as_py()
        bad(index, f"{names[2]} {value!r} {score_fault(value)}")
    return batch.set_column(2, names[2], probability)


def _checked_parquet(path: str | Path, *, scored: bool = False) -> Any:
    """:func:`_open_parquet`, its columns checked (:func:`check_columns`, a score column required when
    `scored`): every reader's opening, so a table is checked once, before its first batch, even one with
    no rows (:func:`checked_batch`, given only these readers' batches, checks the rows)."""
    table_file = _open_parquet(path)
    check_columns(table_file.schema_arrow, path, scored=scored)
    return table_file


def _parquet_batches(path: str | Path, *, scored: bool = False) -> Iterable[Any]:
    table_file = _checked_parquet(path, scored=scored)
    try:
        return table_file.iter_batches()
    except (OSError, ValueError) as exc:
        raise FormatError(f"not a Parquet table ({exc})", source=str(path)) from exc


def parquet_phrases(path: str | Path) -> Iterator[str]:
    """A Parquet table's phrases (its first column, :func:`check_columns`), each batch's distinct ones: a
    phrase may come again."""
    import pyarrow.compute as pc

    table_file = _checked_parquet(path)
    try:
        for batch in table_file.iter_batches(columns=table_file.schema_arrow.names[:1]):
            yield from (phrase for phrase in pc.unique(batch.column(0)).to_pylist() if phrase is not None)
    except (OSError, ValueError) as exc:
        raise FormatError(f"not a Parquet table ({exc})", source=str(path)) from exc


def _parquet_rows_of(path: str | Path, phrases: Sequence[str]) -> Iterator[Any]:
    """The rows of a Parquet table whose phrase is one of `phrases`, as record batches.

    Only the row groups whose min/max statistics of the phrase (the first column, :func:`check_columns`:
    a query by the column named ``phrase`` missed a table named otherwise) can hold one of them are read
    (every group whose statistics are missing, too), so the file need not be sorted for the
    answer to be right, and a sorted one (as the pipelines write) has one or two groups read;
    :data:`GROUPS_AT_ONCE` at a time (many phrases can need every group: they were read at once).
    This walks the footer itself rather than through ``pq.read_table(filters=...)``: on a 10 GB table
    that is 0.1 s against 0.4 s, and it spares importing ``pyarrow.dataset`` (and pandas with it,
    0.25 s) in `paralign paraphrases` (``benchmarks/table_query.py``)."""
    import bisect

    import pyarrow as pa
    import pyarrow.compute as pc

    table_file = _checked_parquet(path)  # the phrase is column 0, whatever its name
    wanted = sorted(set(phrases))
    try:
        meta = table_file.metadata
        groups = []
        for number in range(meta.num_row_groups):
            stats = meta.row_group(number).column(0).statistics  # the phrase's, whatever its name
            if stats is None or not stats.has_min_max:
                groups.append(number)
                continue
            first = bisect.bisect_left(wanted, stats.min)  # the first wanted phrase >= the group's min
            if first < len(wanted) and wanted[first] <= stats.max:
                groups.append(number)
        for start in range(0, len(groups), GROUPS_AT_ONCE):
            rows = table_file.read_row_groups(groups[start:start + GROUPS_AT_ONCE])
            phrase = rows.column(0)
            if pa.types.is_null(phrase.type):  # no phrase in any row: each refused as such (checked_batch)
                yield from rows.to_batches()
                continue
            if pa.types.is_dictionary(phrase.type):
                phrase = phrase.cast(phrase.type.value_type)
            yield from rows.filter(pc.is_in(phrase, value_set=_string_array(wanted, phrase.type))).to_batches()
    except (OSError, ValueError) as exc:
        raise FormatError(f"not a Parquet table ({exc})", source=str(path)) from exc


def _string_array(values: Sequence[str], kind: pa.DataType) -> pa.Array:
    """`values` as an Arrow string (or large string) array, built from its buffers: converting
    Python objects (``pa.array``, ``pa.scalar``) makes pyarrow import pandas to check for its
    types, 0.15 s of a one-phrase `paralign paraphrases` that never needs it."""
    import array

    import pyarrow as pa

    if kind not in (pa.string(), pa.large_string()):  # another writer's type (a view, a dictionary)
        return pa.array(values, pa.string()).cast(kind)
    encoded = [value.encode("utf-8") for value in values]
    offsets = array.array("q" if kind == pa.large_string() else "i", [0])
    for value in encoded:
        offsets.append(offsets[-1] + len(value))
    buffers = [None, pa.py_buffer(offsets.tobytes()), pa.py_buffer(b"".join(encoded))]
    return pa.Array.from_buffers(kind, len(encoded), buffers)
