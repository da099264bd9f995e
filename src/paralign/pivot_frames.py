"""The table pipelines' parallel steps on Dask: per-chunk extraction tasks, then Dask DataFrame
group-bys, the pivot join and the sorted, filtered output table.

Counting (one corpus; every frame is a Dask DataFrame of Parquet-backed partitions):

1. extract  - one task per chunk of lines (:func:`extract_chunk`): the chunk's token and
              alignment lines are read from their byte offsets, its phrase pairs counted
              (:func:`paralign.phrase_counts.count_phrase_pairs`) and written as one Parquet
              file ``e, f, count`` (atomically: a chunk whose file exists is finished);
2. c(e)     - the chunk files, shuffled by e: c(e, f) = sum of counts, c(e) = sum over f;
3. pivot    - shuffled by f: c(f), p(f|e) = c(e, f) / c(e), p(e|f) = c(e, f) / c(f), both
              pruned below `min_translation_prob`, and the join on f of (e1, p(f|e1)) with
              (e2, p(e2|f)), e1 != e2, summed per (e1, e2) within the partition, in fixed
              point (below);
4. output   - all corpora's contributions grouped by (phrase, paraphrase): probability,
              pivots (how many foreign phrases are shared), support (sum of min(c(e1, f), c(e2, f)));
              threshold and min-count, sorted by phrase (Dask's sort), then per phrase by
              probability (descending) and paraphrase, top-k; the parts concatenated
              into the table file (:func:`concatenate_parts`).

The monolingual table replaces steps 3-4 by p(e2|e1) = c(e1, e2) / sum_e c(e1, e).

Why fixed point: a pivot probability is a sum of products p(f|e1) p(e2|f) whose terms arrive in
an order that depends on how the rows were cut into chunks and partitions (and, for a P2P
shuffle, on the order pieces arrived), and float addition is not associative, so the same
corpus gave tables differing in the last digits with another --chunk-size (661 of 52,790
rows at chunk sizes 300 and 3,000).  Each product is rounded once to an integer multiple of
1 / :func:`fixed_point_scale` and the terms are summed as int64, which is exact in any order;
the float is taken when every term of a pair is in, so a table no longer depends on chunking,
partitions or workers.  The rounding is at most 2**-63 per term with one corpus (2**-60 with
up to 8), far below what a float sum of the terms differs by.

Not for: reading, checking and aligning the input (:mod:`paralign.pivot_input`,
:mod:`paralign.pivot`), or the file formats of the final table (:mod:`paralign.tables`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .corpora.parallel import line_index
from .phrase_counts import COUNT_SCHEMA, count_phrase_pairs
from .tables import TableWriter, atomic_path

if TYPE_CHECKING:  # pragma: no cover - dask loads in the functions that build graphs
    from dask.delayed import Delayed

PIVOT_SCHEMA = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64()),
                          ("pivots", pa.int64()), ("support", pa.int64())])
MONO_SCHEMA = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64()),
                         ("count", pa.int64()), ("phrase_count", pa.int64())])
BY_E_SCHEMA = pa.schema([*COUNT_SCHEMA, ("c_e", pa.int64())])
#: A pivot contribution in flight: PIVOT_SCHEMA with the probability in fixed point (int64).
PIVOT_SUM_SCHEMA = pa.schema([field if field.name != "probability" else pa.field("probability", pa.int64())
                              for field in PIVOT_SCHEMA])


def fixed_point_scale(corpora: int) -> float:
    """What a pivot term is multiplied by before it is rounded to an int64 (a power of two, so
    scaling is exact): each corpus' sum is at most 1, so `corpora` of them, summed at this scale,
    stay below 2**62 (and an int64's 2**63 with the rounding of up to 2**62 terms)."""
    return 2.0 ** (62 - max(0, corpora - 1).bit_length())


#: The key of a chunk file's Parquet metadata holding a sample of its phrases (:func:`sample_file`).
SAMPLE_KEY = b"paralign.sample"


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """One chunk of a corpus' token files: where its lines start in each file, how many."""

    files: tuple[str, str, str]  # en.tok, f.tok, align.txt
    offsets: tuple[int, int, int]
    lines: int
    first_line: int  # 1-based line number of the chunk's first line (for errors)
    output: str
    max_length: int
    include_identical: bool = True
    symmetric: bool = False


def chunk_offsets(path: str | Path, chunk_size: int) -> list[int]:
    """Byte offsets of lines 0, chunk_size, 2 chunk_size, ... of a file (see :func:`line_index`)."""
    return line_index(path, chunk_size)[0]


def _read_lines(path: str, offset: int, count: int) -> list[str]:
    with open(path, "rb") as handle:
        handle.seek(offset)
        return [handle.readline().decode("utf-8").rstrip("\n") for _ in range(count)]


def copy_lines(path: str, offset: int, count: int, output: Path) -> None:
    """Write `count` lines of `path` from byte `offset` to `output` (what eflomal reads: a
    chunk to align, or the sample its priors are learnt from), each ending in a newline; fewer
    when the file ends first."""
    with open(path, "rb") as source, open(output, "wb") as out:
        source.seek(offset)
        for line in itertools.islice(source, count):
            out.write(line if line.endswith(b"\n") else line + b"\n")


def extract_chunk(task: ChunkTask) -> int:
    """Count one chunk's phrase pairs into its Parquet file (run on a worker); return its rows."""
    en, f, align = (_read_lines(path, offset, task.lines) for path, offset in zip(task.files, task.offsets, strict=True))
    table = count_phrase_pairs(en, f, align, task.max_length, include_identical=task.include_identical,
                               symmetric=task.symmetric, source=task.files[2], first_line=task.first_line)
    return write_chunk(table, task.output)


def count_chunk(en: Sequence[str], f: Sequence[str], align: Sequence[str], max_length: int, output: str,
                metadata: dict[bytes, bytes], *, source: str, first_line: int) -> int:
    """Count the phrase pairs of token and Pharaoh lines read elsewhere (a chunk that a worker
    also read and checked) into the chunk's Parquet file, with `metadata`; return its rows."""
    table = count_phrase_pairs(en, f, align, max_length, source=source, first_line=first_line)
    return write_chunk(table, output, metadata)


def write_chunk(table: pa.Table, output: str, metadata: dict[bytes, bytes] | None = None) -> int:
    """Write a chunk's counts as its Parquet file (atomically: a chunk whose file exists is
    finished), with a sample of its phrases and `metadata` in the file's metadata; its rows."""
    import pyarrow.parquet as pq

    sample = json.dumps(_sample(table["e"])).encode("utf-8")
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **(metadata or {}), SAMPLE_KEY: sample})
    with atomic_path(output) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return table.num_rows


@dataclass(frozen=True, slots=True)
class AlignTask:
    """One chunk of a corpus' token files to align with eflomal and shared priors."""

    files: tuple[str, str]  # en.tok, f.tok
    offsets: tuple[int, int]
    lines: int
    output: str
    priors: str
    options: dict[str, Any]  # align_files' symmetrization and eflomal options


def align_chunk(task: AlignTask) -> int:
    """Align one chunk (run on a worker) into its Pharaoh part file, atomically; return its lines."""
    import tempfile

    from .aligners.eflomal import align_files

    with tempfile.TemporaryDirectory(prefix="paralign-align-") as tmp:
        paths = []
        for name, path, offset in zip(("en", "f"), task.files, task.offsets, strict=True):
            paths.append(Path(tmp) / name)
            copy_lines(path, offset, task.lines, paths[-1])
        return align_files(paths[0], paths[1], task.output, priors=task.priors, **task.options)


def _empty(schema: pa.Schema) -> pd.DataFrame:
    return schema.empty_table().to_pandas(types_mapper=pd.ArrowDtype)


def read_files(paths: Sequence[str], schema: pa.Schema = COUNT_SCHEMA) -> Any:
    """A Dask DataFrame of Parquet files of one schema, one partition per file."""
    import dask.dataframe as dd

    return dd.from_map(_read_file, list(paths), meta=_empty(schema), enforce_metadata=False)


def _read_file(path: str) -> pd.DataFrame:
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pandas(types_mapper=pd.ArrowDtype)


def write_part(part: pd.DataFrame, path: str, schema: pa.Schema) -> int:
    """One partition as a Parquet file (atomically), with its `bucket` column; return its rows."""
    import pyarrow.parquet as pq

    schema = _bucketed(schema)
    table = pa.Table.from_pandas(part, preserve_index=False).select(schema.names).cast(schema)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return table.num_rows


def _arrow(part: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(part, preserve_index=False)


def _frame(table: pa.Table, schema: pa.Schema) -> pd.DataFrame:
    return table.select(schema.names).cast(schema).to_pandas(types_mapper=pd.ArrowDtype)


def _codes(column: Any) -> tuple[np.ndarray, pa.Array]:
    """Integer codes of a string column and the strings they stand for."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    encoded = pc.dictionary_encode(column)
    return np.asarray(encoded.indices, np.int64), encoded.dictionary


def _sum_by(table: pa.Table, keys: list[str], values: list[str]) -> pa.Table:
    """Rows with equal `keys` (two string columns) summed: columns keys + values.  On integer
    codes (dictionary encoding, np.unique, np.bincount): much faster than a string hash
    group-by."""
    (a, a_text), (b, b_text) = _codes(table[keys[0]]), _codes(table[keys[1]])
    width = max(1, len(b_text))
    unique, inverse = np.unique(a * width + b, return_inverse=True)
    columns: dict[str, Any] = {keys[0]: a_text.take(pa.array(unique // width)),
                               keys[1]: b_text.take(pa.array(unique % width))}
    for name in values:
        columns[name] = group_sums(inverse, np.asarray(table[name]), len(unique))
    return pa.table(columns)


def group_sums(groups: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """The sum of `values` per group (`groups`: each value's group, 0 to `size` - 1). Integers
    are summed as int64, exactly (a float sum, as np.bincount's weights are, rounds above
    2**53 and depends on the order of the values); floats with np.bincount."""
    if values.dtype.kind in "iu":
        summed = np.zeros(size, np.int64)
        np.add.at(summed, groups, values.astype(np.int64, copy=False))
        return summed
    return np.bincount(groups, weights=values, minlength=size)


def row_totals(groups: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each row's group total of `counts` (c(e) of a row of e), summed exactly (:func:`group_sums`)."""
    return group_sums(groups, counts, int(groups.max()) + 1 if len(groups) else 0)[groups]


def _counts_by_e(part: pd.DataFrame) -> pd.DataFrame:
    """A partition holding every row of its e's: c(e, f) and c(e)."""
    counts = _sum_by(_arrow(part), ["e", "f"], ["count"])
    e_id, _ = _codes(counts["e"])
    c_e = row_totals(e_id, np.asarray(counts["count"], np.int64))
    return _frame(counts.append_column("c_e", pa.array(c_e)), BY_E_SCHEMA)


def _pivot_by_f(part: pd.DataFrame, floor: float, scale: float) -> pd.DataFrame:
    """A partition holding every row of its f's: the join on f of (e1, p(f|e1)) with
    (e2, p(e2|f)), e1 != e2, summed per (e1, e2), on integer codes of the phrases; the
    probability in fixed point, each term times `scale` rounded (:func:`fixed_point_scale`)."""
    table = _arrow(part)
    e_id, e_text = _codes(table["e"])
    f_id, _ = _codes(table["f"])
    count = np.asarray(table["count"], np.int64)
    c_f = row_totals(f_id, count)
    p_fe = count / np.asarray(table["c_e"], np.int64)
    p_ef = count / c_f
    src = np.flatnonzero(p_fe >= floor)
    tgt = np.flatnonzero(p_ef >= floor)
    tgt = tgt[np.argsort(f_id[tgt], kind="stable")]
    tgt_f = f_id[tgt]
    start = np.searchsorted(tgt_f, f_id[src], side="left")
    width = np.searchsorted(tgt_f, f_id[src], side="right") - start
    left = np.repeat(src, width)  # the join: every source row with every target row of its f
    offsets = np.repeat(start - np.concatenate([[0], np.cumsum(width)[:-1]]), width)
    right = tgt[offsets + np.arange(len(left))]
    keep = e_id[left] != e_id[right]
    left, right = left[keep], right[keep]
    n = max(1, len(e_text))
    keys, inverse = np.unique(e_id[left] * n + e_id[right], return_inverse=True)
    summed = pa.table({
        "phrase": e_text.take(pa.array(keys // n)),
        "paraphrase": e_text.take(pa.array(keys % n)),
        "probability": group_sums(inverse, np.rint(p_fe[left] * p_ef[right] * scale).astype(np.int64), len(keys)),
        "pivots": np.bincount(inverse, minlength=len(keys)).astype(np.int64),
        "support": group_sums(inverse, np.minimum(count[left], count[right]), len(keys)),
    })
    return _frame(summed, PIVOT_SUM_SCHEMA)


def _sum_pairs(part: pd.DataFrame, scale: float) -> pd.DataFrame:
    """Rows of equal (phrase, paraphrase) summed (the partition holds all rows of its pairs),
    the fixed-point probability then divided by `scale` (exact: a power of two)."""
    summed = _sum_by(_arrow(part), ["phrase", "paraphrase"], PIVOT_SCHEMA.names[2:])
    probability = np.asarray(summed["probability"], np.int64) / scale
    return _frame(summed.set_column(2, "probability", pa.array(probability)), PIVOT_SCHEMA)


def _relative_frequency(part: pd.DataFrame) -> pd.DataFrame:
    """A partition holding every row of its e's: p(e2|e1) = c(e1, e2) / sum_e c(e1, e)."""
    counts = _sum_by(_arrow(part), ["e", "f"], ["count"])
    e_id, _ = _codes(counts["e"])
    count = np.asarray(counts["count"], np.int64)
    total = row_totals(e_id, count)
    out = pa.table({"phrase": counts["e"], "paraphrase": counts["f"], "probability": count / total,
                    "count": count, "phrase_count": total})
    return _frame(out, MONO_SCHEMA)


def partitions_for(chunks: int) -> int:
    """How many partitions the shuffles use: about one per chunk (bounded memory per task)."""
    return max(1, min(chunks, 512))


#: Up to this many partitions a shuffle runs as plain Dask tasks (cheap to schedule; its pieces
#: are task results, kept and spilled by the workers like any other); above it, through Dask's
#: P2P shuffle, made for large ones (it streams pieces to disk) but with a fixed cost that
#: dominates small tables.  See docs/results/pivot-dask.md for the measurements behind it.
TASK_SHUFFLE_PARTITIONS = 32


def shuffle_method(partitions: int) -> str:
    """Dask's shuffle method for a shuffle into `partitions` partitions."""
    return "tasks" if partitions <= TASK_SHUFFLE_PARTITIONS else "p2p"


def sample_file(path: str) -> list[str]:
    """An even sample of the sorted distinct phrases (column e) of a chunk file: where the
    table's phrase ranges are cut.  Read from the file's metadata, where :func:`extract_chunk`
    puts it (so cutting reads no rows), else computed from the column."""
    import pyarrow.parquet as pq

    metadata = pq.read_schema(path).metadata or {}
    if SAMPLE_KEY in metadata:
        return list(json.loads(metadata[SAMPLE_KEY]))
    return _sample(pq.read_table(path, columns=["e"])["e"])


def _sample(column: Any, size: int = 64) -> list[str]:
    unique = pc.unique(column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column)
    ordered = unique.take(pc.sort_indices(unique)).to_pylist()
    if len(ordered) > size:
        ordered = [ordered[int(k)] for k in np.linspace(0, len(ordered) - 1, size)]
    return ordered


def cuts_from(samples: Sequence[Sequence[str]], ranges: int) -> list[str]:
    """`ranges` - 1 phrases cutting the union of the samples into ranges of similar size."""
    values = sorted({phrase for sample in samples for phrase in sample})
    if ranges <= 1 or len(values) < 2:
        return []
    step = len(values) / ranges
    return sorted({values[int(step * k)] for k in range(1, ranges)})


def _buckets(column: Any, cuts: list[str]) -> np.ndarray:
    """The phrase range of each value of a string column (0 .. len(cuts))."""
    if not cuts:
        return np.zeros(len(column), np.int64)
    codes, texts = _codes(column)
    per_text = np.searchsorted(np.array(cuts, dtype=object), np.array(texts.to_pylist(), dtype=object), side="right")
    return per_text.astype(np.int64)[codes]


def _with_bucket(part: pd.DataFrame, column: str, cuts: list[str], schema: pa.Schema) -> pd.DataFrame:
    table = _arrow(part)
    return _frame(table.append_column("bucket", pa.array(_buckets(table[column], cuts))), schema)


def _bucketed(schema: pa.Schema) -> pa.Schema:
    return pa.schema([*schema, ("bucket", pa.int64())])


def _by_range(counts: Any, cuts: list[str] | Delayed, partitions: int) -> Any:
    """Chunk counts moved so that each phrase range (all rows of its e's) is in one partition."""
    schema = _bucketed(COUNT_SCHEMA)
    bucketed = counts.map_partitions(_with_bucket, "e", cuts, schema, meta=_empty(schema))
    return _by_bucket(bucketed, partitions)


def _by_bucket(frame: Any, partitions: int) -> Any:
    """`frame` moved so that partition k holds the rows of phrase range k (`bucket` k, as
    index): a range shuffle on known divisions, so no two ranges share a partition (a hash
    shuffle of the bucket numbers would put some ranges together and leave partitions empty)."""
    divisions = [*range(partitions), partitions - 1]
    return frame.set_index("bucket", divisions=divisions, shuffle_method=shuffle_method(partitions))


def pivot_frame(chunk_files: Sequence[str], min_translation_prob: float, partitions: int, cuts: list[str] | Delayed,
                scale: float) -> Any:
    """One corpus' pivot contributions per (phrase, paraphrase), summed within f-partitions in
    fixed point (times `scale`: :func:`fixed_point_scale` of the number of corpora), with the
    phrase range of each row (`bucket`)."""
    by_e = _by_range(read_files(chunk_files), cuts, partitions).map_partitions(
        _counts_by_e, meta=_empty(BY_E_SCHEMA))
    return by_e.shuffle(on="f", npartitions=partitions, shuffle_method=shuffle_method(partitions)).map_partitions(
        _pivot_in_ranges, min_translation_prob, cuts, scale, meta=_empty(_bucketed(PIVOT_SUM_SCHEMA)))


def _pivot_in_ranges(part: pd.DataFrame, floor: float, cuts: list[str], scale: float) -> pd.DataFrame:
    return _with_bucket(_pivot_by_f(part, floor, scale), "phrase", cuts, _bucketed(PIVOT_SUM_SCHEMA))


def monolingual_frame(chunk_files: Sequence[str], partitions: int, cuts: list[str] | Delayed) -> Any:
    """p(e2|e1) rows of the monolingual table before filters, each phrase range in one partition."""
    return _by_range(read_files(chunk_files), cuts, partitions).map_partitions(
        _relative_frequency_in_range, cuts, meta=_empty(_bucketed(MONO_SCHEMA)))


def _relative_frequency_in_range(part: pd.DataFrame, cuts: list[str]) -> pd.DataFrame:
    return _with_bucket(_relative_frequency(part), "phrase", cuts, _bucketed(MONO_SCHEMA))


def combine_pivots(frames: Sequence[Any], partitions: int, cuts: list[str] | Delayed, scale: float) -> Any:
    """Contributions of every corpus (:func:`pivot_frame`, in fixed point times `scale`) summed
    per (phrase, paraphrase), each phrase range in one partition (the shuffle is by range: every
    row of a pair has its phrase's range), the probability a float again."""
    import dask.dataframe as dd

    frame = frames[0] if len(frames) == 1 else dd.concat(list(frames))
    return _by_bucket(frame, partitions).map_partitions(
        _sum_in_ranges, cuts, scale, meta=_empty(_bucketed(PIVOT_SCHEMA)))


def _sum_in_ranges(part: pd.DataFrame, cuts: list[str], scale: float) -> pd.DataFrame:
    return _with_bucket(_sum_pairs(part, scale), "phrase", cuts, _bucketed(PIVOT_SCHEMA))


def finish_part(path: str, directory: str, schema: pa.Schema, *, threshold: float, min_count: int,
                count_column: str, top_k: int | None, tsv_gzip: bool | None = None) -> tuple[int, int]:
    """One part of summed pairs (whole phrase ranges) -> its rows that pass threshold and
    min-count, sorted by phrase and best first, `top_k` per phrase, one file per range
    (:func:`write_buckets`); return its (rows, distinct phrases)."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    table = table.filter(pc.and_(pc.greater_equal(table["probability"], threshold),
                                 pc.greater_equal(table[count_column], min_count)))
    table = table.take(pc.sort_indices(table, [("phrase", "ascending"), ("probability", "descending"),
                                               ("paraphrase", "ascending")]))
    if top_k and table.num_rows:
        phrase_id, _ = _codes(table["phrase"])
        first = np.concatenate([[True], phrase_id[1:] != phrase_id[:-1]])
        group_start = np.maximum.accumulate(np.where(first, np.arange(len(first)), 0))
        table = table.filter(pa.array(np.arange(len(first)) - group_start < top_k))
    write_buckets(table, directory, schema, tsv_gzip)
    return table.num_rows, pc.count_distinct(table["phrase"]).as_py()


def write_buckets(table: pa.Table, directory: str, schema: pa.Schema, tsv_gzip: bool | None = None) -> int:
    """Rows of the final table as a file per phrase range ("bucket") they hold (atomically):
    Parquet (``NNNNN.parquet``), or, for a TSV table (`tsv_gzip` not None), its lines already
    encoded (``NNNNN.tsv``, one gzip member when `tsv_gzip`), so the worker does the formatting
    and the output file is their concatenation; return the number of rows."""
    import pyarrow.parquet as pq

    from .tables import tsv_bytes

    buckets = table["bucket"].to_numpy()
    for bucket in np.unique(buckets):
        rows = table.filter(pa.array(buckets == bucket)).select(schema.names).cast(schema)
        name = Path(directory) / f"{int(bucket):05d}.{'parquet' if tsv_gzip is None else 'tsv'}"
        with atomic_path(name) as tmp:
            if tsv_gzip is None:
                pq.write_table(rows, tmp, compression="zstd")
            else:
                tmp.write_bytes(tsv_bytes(rows, schema, gzip=tsv_gzip))
    return table.num_rows


def concatenate_parts(parts: Sequence[str], output: Path, schema: Any, metadata: dict[str, Any]) -> None:
    """The output file from the finished parts, in phrase order: Parquet parts appended as
    tables, TSV parts (encoded on the workers) appended as bytes."""
    import pyarrow.parquet as pq

    with TableWriter(output, schema, metadata) as writer:
        for path in parts:
            if path.endswith(".tsv"):
                writer.write_encoded(Path(path).read_bytes(), 0)
                continue
            table = pq.read_table(path)
            if table.num_rows:
                writer.write(table)
