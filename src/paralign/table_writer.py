"""Writing paraphrase table files: Parquet or TSV (gzip when named .gz in any case), atomically.

The pipelines write Parquet (``FILE.parquet``: sorted by phrase, in row groups of
:data:`ROW_GROUP_ROWS`) or TSV (``FILE.tsv``, ``FILE.tsv.gz``: a ``# column...`` header, the
``# paralign:`` record, then one row a line, floats as Python's exact ``repr``), under a
temporary name renamed into place when complete (:func:`atomic_path`). :mod:`paralign.tables`
re-exports every name here, and reads what is written.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .textout import is_gzip_name

if TYPE_CHECKING:  # pragma: no cover - pyarrow loads on first use
    import pyarrow as pa

PARQUET_SUFFIXES = (".parquet", ".pq")
#: Rows per Parquet row group: small enough that a phrase query reads little.
ROW_GROUP_ROWS = 65_536
METADATA_KEY = b"paralign"
#: How a TSV table's first lines begin that hold the same record (JSON after it).
METADATA_LINE = "# paralign: "


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary sibling of `path`; rename it onto `path` only if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # the temporary name keeps the suffixes (.tsv.gz: gzip is chosen by name)
    tmp = path.with_name(f".tmp{os.getpid()}-{path.name}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        elif tmp.exists():
            tmp.unlink()


def is_parquet(path: str | Path) -> bool:
    """True when `path` names a Parquet table (by its suffix); otherwise it is TSV. What a
    table is written as; reading tells by the data (:func:`paralign.tables.is_parquet_file`)."""
    return Path(path).suffix.lower() in PARQUET_SUFFIXES


def tsv_bytes(part: pa.Table, schema: pa.Schema, *, gzip: bool) -> bytes:
    """`part`'s rows (`schema`'s columns) as TSV lines, UTF-8, one gzip member when `gzip`:
    what :meth:`TableWriter.write` appends, made wherever the part is (a Dask worker)."""
    part = part.select(schema.names).cast(schema)
    if not part.num_rows:
        return b""
    columns = [_tsv_column(part[name]) for name in schema.names]
    return _encoded("\n".join(map("\t".join, zip(*columns, strict=True))) + "\n", gzip)


def _encoded(text: str, gzip: bool) -> bytes:
    import gzip as gz

    data = text.encode("utf-8")
    return gz.compress(data, compresslevel=6, mtime=0) if gzip else data


def _tsv_column(column: Any) -> list[str]:
    """A column's values as TSV text: floats by ``repr`` (exact: a TSV table reads back the same
    numbers), the rest by ``str``; a column at a time, so the type is looked at once."""
    import pyarrow as pa

    values = column.to_pylist()
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        return values
    return list(map(repr if pa.types.is_floating(column.type) else str, values))


class TableWriter:
    """Write a table in parts (Arrow tables of one schema), Parquet or TSV by `path`'s name;
    the file appears at `path` only when :meth:`close` completes (use it as a context manager:
    an exception discards the temporary file)."""

    def __init__(self, path: str | Path, schema: pa.Schema, metadata: dict[str, Any] | None = None):
        self.path = Path(path)
        self.rows = 0
        self._atomic = atomic_path(self.path)
        self._tmp = self._atomic.__enter__()
        encoded = json.dumps(metadata or {}, sort_keys=True)
        self.schema = schema.with_metadata({METADATA_KEY: encoded.encode()})
        self.gzip = is_gzip_name(self.path)
        if is_parquet(self.path):
            import pyarrow.parquet as pq

            self._parquet: Any = pq.ParquetWriter(self._tmp, self.schema, compression="zstd")
            self._text: Any = None
        else:
            self._parquet = None
            self._text = open(self._tmp, "wb")  # noqa: SIM115 - closed by close()/__exit__
            header = "# " + "\t".join(schema.names) + "\n" + f"{METADATA_LINE}{encoded}\n"
            self._text.write(_encoded(header, self.gzip))

    def write(self, part: pa.Table) -> None:
        part = part.select(self.schema.names).cast(self.schema)
        if self._parquet is not None:
            self.rows += part.num_rows
            self._parquet.write_table(part, row_group_size=ROW_GROUP_ROWS)
            return
        self.write_encoded(tsv_bytes(part, self.schema, gzip=self.gzip), part.num_rows)

    def write_encoded(self, data: bytes, rows: int) -> None:
        """Append `rows` rows already made by :func:`tsv_bytes` with this file's `gzip` (a
        worker can encode its part: the file's gzip members are simply concatenated)."""
        if self._text is None:
            raise TypeError("write_encoded is for TSV tables; write Parquet parts with write()")
        self.rows += rows
        self._text.write(data)

    def close(self) -> None:
        self.__exit__(None, None, None)

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        """Close the file; the atomic path then renames it into place, or on an error removes it."""
        if self._parquet is not None:
            self._parquet.close()
        elif self._text is not None:
            self._text.close()
        self._atomic.__exit__(kind, value, traceback)
