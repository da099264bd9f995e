"""Paraphrase tables by bilingual pivoting (Bannard & Callison-Burch 2005) and monolingual alignment.

Pivoting: English phrases that share a foreign translation are paraphrases,

    p(e2|e1) = sum over corpora c, sum over foreign phrases f of p_c(f|e1) p_c(e2|f),  e2 != e1,

with p(f|e) = c(e, f) / c(e) and p(e|f) = c(e, f) / c(f) by relative frequency over the
consistent phrase pairs (both sides <= `max_length` words) of an eflomal word alignment.
The sum over corpora follows the formula literally, so a score can exceed 1 with several pivot
corpora (one per corpus is at most 1); thresholds apply to that sum.

Monolingual variant (ParaMetric's "monolingual SMT" method): every pair of sentences in a group
of equivalent English sentences is aligned (eflomal trained on all those pairs, or our Sultan
aligner), and the non-identical phrase pairs are scored p(e2|e1) = c(e1, e2) / sum_e c(e1, e).

The pipeline runs on a Dask cluster (:mod:`paralign.cluster`: a local one by default) over a
work directory, in stages whose outputs are files renamed into place when complete:

1. prepare   - stream the corpus (checked: `corpora.parallel`), tokenise, write token files
               (`paralign.pivot_input`, which also holds `PivotOptions`);
2. align     - eflomal on the whole corpus (it needs all of it), symmetrised, Pharaoh file;
               or, given a Pharaoh file per corpus, its links (checked and written by stage 1):
               eflomal, which cannot be seeded, is not run and the table is reproducible;
3. extract   - one task per chunk of `chunk_size` lines: phrase-pair counts, one Parquet file;
4. table     - Dask DataFrame group-bys, the pivot join and the filters
               (:mod:`paralign.pivot_frames`), written as Parquet parts, then one Parquet or
               TSV file (:mod:`paralign.tables`).

A corpus whose Pharaoh file is given in plain (not gzip) files skips the whole-corpus steps:
the command only checks the three files' line counts and finds each chunk's byte offsets
(:func:`paralign.corpora.parallel.line_index`), and each chunk is read, checked, tokenised and
counted by one worker (:func:`prepare_chunk`, stages 1 and 3 in one task), so no process reads
the whole corpus; the report's reading counts are summed from the chunk files' metadata.

Re-running with the same work directory resumes: prepared and aligned corpora and the chunks
whose Parquet file exists are reused (and counted); stage 4 always runs, so threshold, top-k
and min-count can be changed cheaply on a finished run.  Each stage has its own fingerprint
(:mod:`paralign.pivot_work`): another `max_length` or `chunk_size` recounts the chunks and
another `min_translation_prob` re-sums the pairs, reusing the alignment.  Memory is bounded by the chunk and
partition sizes, not the corpus: Dask spills partitions to disk under its memory limit.

Approximation: translation probabilities below `min_translation_prob` (default 0.001) are
pruned before pivoting (otherwise frequent foreign words make the pivot step quadratic);
dropping p(e2|f) < m lowers each p(e2|e1) by at most m (the p(f|e1) sum to 1); `0` disables.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .aligners.eflomal import align_files
from .cluster import ClusterOptions, finished
from .corpora.parallel import ParallelStats
from .errors import (
    ConfigurationError,
    InputTypeError,
    check_count,
    check_output_file,
    check_pairs,
    check_texts,
    shown_value,
)
from .phrase_keys import lookup_held
from .pivot_frames import (
    MONO_SCHEMA,
    PIVOT_SCHEMA,
    AlignTask,
    ChunkTask,
    align_chunk,
    chunk_offsets,
    combine_pivots,
    concatenate_parts,
    copy_lines,
    count_chunk,
    cuts_from,
    extract_chunk,
    finish_part,
    fixed_point_scale,
    monolingual_frame,
    partitions_for,
    pivot_frame,
    sample_file,
    write_part,
)
from .pivot_input import (
    READ_KEY,
    GivenAlignment,
    PivotOptions,
    PreparedChunk,
    StageProgress,
    chunk_info,
    chunked_reads,
    no_progress,
    prepare_groups,
    prepare_parallel,
    read_chunk,
    read_on_workers,
)
from .pivot_work import (
    CORPUS_FOLDER,
    MONO_FOLDER,
    OUTPUT_PARTS,
    PAIRS_STAGE,
    WorkDir,
    corpus_stages,
    file_id,
    pivot_stages,
    with_pairs,
    work_path,
    written_through_file,
)
from .tables import TableWriter, atomic_path, is_parquet
from .textout import is_gzip_name
from .workers import block_options, on_client, pipeline_client

__all__ = [
    "COMPUTED", "PipelineReport", "PivotOptions", "monolingual_paraphrases", "pivot_paraphrases",
    "top_paraphrases",
]

#: The report's record of an alignment computed here (a given one is `GivenAlignment.to_dict()`).
COMPUTED = {name: {"kind": "computed", "aligner": name} for name in ("eflomal", "sultan")}
ClusterStart = Callable[[dict[str, Any]], None]


@dataclass(frozen=True, slots=True)
class PipelineReport:
    """What a run did: per-corpus reading statistics, chunks computed and reused, output rows,
    the stages of an earlier run in its work directory that it reused (`resumed_stages`) and
    those it recomputed because what they depend on changed (`recomputed_stages`: why, each)."""

    output: str = ""
    corpora: tuple[dict, ...] = ()
    phrases: int = 0
    rows: int = 0
    resumed_stages: tuple[str, ...] = ()
    chunks: dict[str, int] = field(default_factory=dict)
    cluster: dict[str, Any] = field(default_factory=dict)
    recomputed_stages: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "output": self.output,
            "corpora": [dict(c) for c in self.corpora],
            "phrases": self.phrases,
            "rows": self.rows,
            "resumed_stages": list(self.resumed_stages),
            "recomputed_stages": {stage: list(why) for stage, why in self.recomputed_stages.items()},
            "chunks": dict(self.chunks),
            "cluster": dict(self.cluster),
        }


# ---------------------------------------------------------------------------------------------
# Stages
# ---------------------------------------------------------------------------------------------
def _align_stage(work: WorkDir, stage: str, options: PivotOptions, *, given: bool, client: Any = None,
                 progress: StageProgress = no_progress) -> int:
    """Stage 2: eflomal on the token files (unless `given`: stage 1 wrote the links), in chunks
    on the cluster above `options.align_chunk` lines; a new alignment discards the chunks
    extracted from an earlier one."""
    directory = work.path / stage
    info = work.done(f"{stage}/align", reuse=False)
    if info is not None and (directory / "align.txt").exists():
        work.reused.append(f"{stage}/align")
        return int(info["lines"])
    shutil.rmtree(directory / "chunks", ignore_errors=True)
    if given:
        with open(directory / "align.txt", "rb") as handle:
            lines = sum(1 for _ in handle)
    else:
        eflomal_options: dict[str, Any] = {"symmetrization": options.symmetrization, "model": options.eflomal_model,
                           "n_iterations": options.eflomal_iterations}
        with open(directory / "en.tok", "rb") as handle:
            total = sum(1 for _ in handle)
        if options.align_chunk and total > options.align_chunk and client is not None:
            lines = _align_in_chunks(client, directory, options.align_chunk, total, eflomal_options, progress)
        else:  # one run without a count to show: a step of its own, so the user sees what runs
            for _ in progress([None], "align (eflomal)", 1):
                lines = align_files(directory / "en.tok", directory / "f.tok", directory / "align.txt",
                                    **eflomal_options)
    return int(work.mark(f"{stage}/align", {"lines": lines})["lines"])


def _align_in_chunks(client: Any, directory: Path, size: int, total: int, eflomal_options: dict[str, Any],
                     progress: StageProgress) -> int:
    """eflomal on a corpus too large for one run: priors from its first `size` lines (aligned
    here), then every chunk of `size` lines on the cluster with those priors; the parts (kept:
    resumable) joined into ``align.txt``."""
    from .aligners.eflomal import write_priors

    files = (str(directory / "en.tok"), str(directory / "f.tok"))
    priors = directory / "priors.txt"
    if not priors.exists():
        sample = directory / "prior-sample"
        sample.mkdir(exist_ok=True)
        for path, name in zip(files, ("en", "f"), strict=True):
            copy_lines(path, 0, size, sample / name)
        align_files(sample / "en", sample / "f", sample / "links", keep_directional=True, **eflomal_options)
        write_priors(sample / "en", sample / "f", sample / "links.fwd", sample / "links.rev", priors)
        shutil.rmtree(sample, ignore_errors=True)
    starts = [chunk_offsets(path, size) for path in files]
    tasks = [AlignTask(files, offsets, min(size, total - k * size), str(directory / "align-parts" / f"{k:05d}.txt"),
                       str(priors), eflomal_options) for k, offsets in enumerate(zip(*starts, strict=True))]
    _wait(client, [client.submit(align_chunk, t, pure=False) for t in tasks if not Path(t.output).exists()], "align",
          progress)
    with atomic_path(directory / "align.txt") as tmp, open(tmp, "wb") as out:
        for task in tasks:
            out.write(Path(task.output).read_bytes())
    return total


def _forget_alignment(work: WorkDir, stage: str) -> None:
    """A corpus prepared again: its alignment and chunks are of the old token files."""
    (work.path / f"{stage}/align.json").unlink(missing_ok=True)
    for name in ("chunks", "align-parts"):
        shutil.rmtree(work.path / stage / name, ignore_errors=True)
    (work.path / stage / "priors.txt").unlink(missing_ok=True)


def _chunk_tasks(work: WorkDir, stage: str, options: PivotOptions, **kinds: bool) -> list[ChunkTask]:
    """Stage 3's tasks of one prepared and aligned corpus (one per `chunk_size` lines)."""
    directory = work.path / stage
    files = (str(directory / "en.tok"), str(directory / "f.tok"), str(directory / "align.txt"))
    starts = [chunk_offsets(path, options.chunk_size) for path in files]
    with open(files[0], "rb") as handle:
        total = sum(1 for _ in handle)
    tasks = []
    for number, offsets in enumerate(zip(*starts, strict=True)):
        first = number * options.chunk_size
        tasks.append(ChunkTask(
            files, offsets, min(options.chunk_size, total - first), first + 1,
            str(directory / "chunks" / f"{number:05d}.parquet"), options.max_length, **kinds,
        ))
    return tasks


def _extract(client: Any, work: WorkDir, tasks: Sequence[ChunkTask | PreparedChunk], progress: StageProgress,
             meanwhile: Callable[[], Any] | None = None) -> tuple[dict[str, int], Any]:
    """Stage 3 (and stage 1 of `PreparedChunk` tasks): the chunks whose Parquet file is
    missing, on the cluster; counts of both kinds, and what `meanwhile()` returns: it runs here
    while the workers extract (building stage 4's Dask graph takes the command a few tenths of
    a second, which would otherwise come after)."""
    todo = [task for task in tasks if not Path(task.output).exists()]
    work.reused.extend(f"{Path(t.output).parent.parent.name}/extract/{Path(t.output).stem}"
                       for t in tasks if t not in todo)
    futures = [client.submit(prepare_chunk if isinstance(task, PreparedChunk) else extract_chunk, task, pure=False)
               for task in todo]
    built = meanwhile() if meanwhile is not None else None
    _wait(client, futures, "extract", progress)
    return {"total": len(tasks), "computed": len(todo), "reused": len(tasks) - len(todo)}, built


def prepare_chunk(task: PreparedChunk) -> int:
    """Stages 1 and 3 of one chunk of a corpus, in one task on a worker: read, check and
    tokenise it (:func:`pivot_input.read_chunk`), count its phrase pairs into its Parquet file
    with what reading counted in the file's metadata; return its rows."""
    en, f, align, read = read_chunk(task)
    return count_chunk(en, f, align, task.options.max_length, task.output, {READ_KEY: read},
                       source=task.names[2], first_line=task.first_line)


def _wait(client: Any, futures: list[Any], desc: str, progress: StageProgress) -> None:
    """Wait for `futures`, with progress; a stalled cluster's error is raised here
    (:func:`paralign.cluster.finished`), and so is a task's: of the tasks that fail, the first
    in `futures`' order (the earliest chunk, so the error names the first bad line of a file
    whichever worker got there first), once every task before it has finished; the tasks after
    it are cancelled."""
    position = {future.key: k for k, future in enumerate(futures)}
    failed: int | None = None
    for future in progress(finished(client, futures), desc, len(futures)):
        if future.status == "error":
            failed = min(position[future.key], len(futures) if failed is None else failed)
        else:
            future.result()  # a cancelled or lost task raises here
        if failed is not None and all(earlier.done() for earlier in futures[:failed]):
            break
    if failed is not None:  # every task before it is done; one of them may have failed unseen
        first = next(k for k, future in enumerate(futures[:failed + 1]) if future.status == "error")
        client.cancel(futures[first + 1:])
        futures[first].result()


def _summed_pairs(client: Any, frame: Any, work: WorkDir, schema: Any, fresh: bool,
                  progress: StageProgress) -> list[str]:
    """Stage 4's group-by result (every scored pair, before filters) as Parquet parts in
    ``pairs/``, reused when no chunk changed: so filters alone re-run cheaply."""
    import dask

    directory = work.path / PAIRS_STAGE
    if not fresh and directory.is_dir() and work.done(PAIRS_STAGE) is not None:
        return sorted(str(path) for path in directory.glob("[0-9]*.parquet"))
    (work.path / f"{PAIRS_STAGE}.json").unlink(missing_ok=True)
    shutil.rmtree(directory, ignore_errors=True)
    with atomic_path(directory) as tmp:
        writes = [dask.delayed(write_part)(part, str(tmp / f"{k:05d}.parquet"), schema)
                  for k, part in enumerate(frame.to_delayed())]
        _wait(client, client.compute(writes), PAIRS_STAGE, progress)
    work.mark(PAIRS_STAGE, {"parts": len(writes)})
    return sorted(str(path) for path in directory.glob("[0-9]*.parquet"))


# ---------------------------------------------------------------------------------------------
# Pipelines
# ---------------------------------------------------------------------------------------------
def _options(options: object) -> PivotOptions:
    """`options`, or the default PivotOptions for None; anything else is an InputTypeError
    (a str or dict failed later, as an AttributeError deep in a stage)."""
    if options is None:
        return PivotOptions()
    if not isinstance(options, PivotOptions):
        raise InputTypeError(f"options must be a PivotOptions (paralign.PivotOptions(max_length=3), ...), "
                             f"not {type(options).__name__} {shown_value(options)}")
    return options


@written_through_file
def pivot_paraphrases(
    corpora: Sequence[tuple[str | Path, str | Path]],
    output: str | Path,
    options: PivotOptions | None = None,
    *,
    work_dir: str | Path | None = None,
    restart: bool = False,
    keep_work: bool = False,
    progress: StageProgress = no_progress,
    alignments: Sequence[str | Path | None] | None = None,
    cluster: ClusterOptions | None = None,
    on_start: ClusterStart | None = None,
    shown_names: Mapping[str, str] | None = None,
) -> PipelineReport:  # long: one stage after another, each a call
    """Build a pivot paraphrase table from (english, foreign) line-aligned file pairs.

    `output` ending in .parquet is written as Parquet, otherwise as TSV (.gz: gzip); a stream (a FIFO) by `written_through_file`.
    `alignments`, one per corpus in the same order (None: align that corpus with eflomal), are
    Pharaoh files of one line per corpus line, indexing the tokens the tokenizer options give
    (`pivot_input.prepare_parallel`); eflomal, which cannot be seeded, is then not run, so the
    table is reproducible.  The report (and the table's metadata) records per corpus whether
    the alignment was computed or given (with the file's SHA-256 and its bad lines, skipped).

    `cluster` says where the work runs (default: an enclosing :func:`paralign.parallel` block's,
    else a local Dask cluster whose processes import the main module: a script calls this under
    ``if __name__ == "__main__":``; `on_start` hears its description).  `shown_names` maps paths to the names the table's metadata shows (a copy
    of stdin: '<stdin>', read by this process, not the workers).
    Intermediate files live in `work_dir` (default `<output>.work`; the workers must see it
    and the inputs); re-running with the same work directory resumes a run that stopped;
    `restart` discards it first; on success it is deleted (as by the CLI) unless `keep_work`.  Stages are reused or recomputed on their own
    (:class:`paralign.pivot_work.WorkDir`; reading or aligning again is refused in a given `work_dir`).
    """
    options = _options(options)
    if not (corpora := check_pairs(corpora, "corpora", "(english, foreign) path pair")):  # not 'values to unpack'
        raise ConfigurationError("give at least one (english, foreign) corpus")
    output = check_output_file(output, make_folder=True)  # before the work, not at its end
    alignments = list(alignments) if alignments is not None else [None] * len(corpora)
    if len(alignments) != len(corpora):
        raise ConfigurationError(f"give one alignment per corpus ({len(corpora)} corpora, {len(alignments)} alignments)")
    local = set(shown_names or ())  # copies of stdin: read here, where they are
    on_workers = [read_on_workers(c, a, local) for c, a in zip(corpora, alignments, strict=True)]
    work = WorkDir(work_path(output, work_dir), pivot_stages(corpora, alignments, on_workers, options),
                   restart=restart, replace_other=work_dir is None)
    with pipeline_client(cluster, on_start) as ready:  # the cluster starts while the corpora are read
        corpus_info: list[dict] = []
        tasks: list[ChunkTask | PreparedChunk] = []
        read_later: list[tuple[int, list[PreparedChunk], GivenAlignment]] = []  # reports known once extracted
        for index, (corpus, alignment) in enumerate(zip(corpora, alignments, strict=True)):
            if on_workers[index] and alignment is not None:  # on workers: its alignment is given
                read, given = chunked_reads(work.path / CORPUS_FOLDER.format(index) / "chunks", corpus, alignment, options)
                tasks.extend(read)
                read_later.append((index, read, given))
                corpus_info.append({})
            else:
                corpus_tasks, info = _read_here(work, CORPUS_FOLDER.format(index), corpus, alignment, options, ready, progress)
                tasks.extend(corpus_tasks)
                corpus_info.append(info)
        client = ready()
        partitions, scale = partitions_for(len(tasks)), fixed_point_scale(len(corpora))
        by_corpus = [[t.output for t in tasks if Path(t.output).parent.parent.name == CORPUS_FOLDER.format(k)] for k in range(len(corpora))]

        def build() -> Any:
            cuts = _cuts([t.output for t in tasks], partitions)
            frames = [pivot_frame(files, options.min_translation_prob, partitions, cuts, scale) for files in by_corpus if files]
            return combine_pivots(frames, partitions, cuts, scale)

        chunks, frame = _extract(client, work, tasks, progress, build if tasks else None)
        for index, read, given in read_later:  # the reports of the corpora the workers read
            corpus_info[index] = _read_report(corpora[index], read, given)
        phrases, rows = _finish_table(
            client, frame, [t.output for t in tasks], work, output, PIVOT_SCHEMA, options, "support",
            _renamed({"kind": "pivot", "corpora": corpus_info, "options": asdict(options)}, shown_names), progress,
            fresh=chunks["computed"] > 0,
        )
        described = _cluster_info(client)
    report = PipelineReport(str(output), tuple(corpus_info), phrases, rows, tuple(work.reused), chunks, described,
                            work.recomputed)
    if not keep_work:
        shutil.rmtree(work.path, ignore_errors=True)
    return report


def _read_report(corpus: tuple[str | Path, str | Path], read: Sequence[PreparedChunk], given: GivenAlignment) -> dict:
    """The report of a corpus the workers read, from its chunk files (once they are written)."""
    english, foreign = (str(path) for path in corpus)
    info = chunk_info([task.output for task in read], ParallelStats(english, foreign), given)
    return {"alignment": given.to_dict(), **info, "chunks": len(read)}


def _read_here(work: WorkDir, stage: str, corpus: tuple[str | Path, str | Path], alignment: str | Path | None,
               options: PivotOptions, ready: Callable[[], Any], progress: StageProgress) -> tuple[list[ChunkTask], dict]:
    """Stages 1 and 2 of a corpus read by this process (prepared and aligned, or reused from
    the work directory): its extraction tasks and its report."""
    english, foreign = corpus
    info = work.done(f"{stage}/prepare")
    if info is None:
        _forget_alignment(work, stage)
        info = work.mark(f"{stage}/prepare", prepare_parallel(english, foreign, work.path / stage, options, alignment,
                                                              progress))
    _align_stage(work, stage, options, given=alignment is not None,
                 client=ready() if options.align_chunk else None, progress=progress)
    tasks = _chunk_tasks(work, stage, options)
    return tasks, {"alignment": dict(COMPUTED["eflomal"]), **info, "chunks": len(tasks)}


def _renamed(data: Any, names: Mapping[str, str] | None) -> Any:
    """`data` (the table's metadata) with each path in `names` shown as its name (a copy of
    stdin as '<stdin>')."""
    if isinstance(data, str):
        for path, name in (names or {}).items():
            data = data.replace(path, name)
        return data
    if isinstance(data, dict):
        return {key: _renamed(value, names) for key, value in data.items()}
    if isinstance(data, list):
        return [_renamed(value, names) for value in data]
    return data


def _cluster_info(client: Any) -> dict[str, Any]:
    from .cluster import describe

    return describe(client, local=client.cluster is not None)


def _cuts(files: Sequence[str], partitions: int) -> Any:
    """Where the phrase ranges are cut: from a sample of every chunk's phrases (kept in each
    chunk file's metadata, so this reads no rows); a Dask Delayed, computed with the table (on
    a worker, once the chunks exist), so the table's graph is built before they do."""
    import dask

    return dask.delayed(_cuts_now, pure=False)(list(files), partitions)


def _cuts_now(files: Sequence[str], partitions: int) -> list[str]:
    return cuts_from([sample_file(path) for path in files], partitions)


def _finish_table(
    client: Any, frame: Any, chunk_files: Sequence[str], work: WorkDir, output: Path,
    schema: Any, options: PivotOptions, count_column: str, metadata: dict[str, Any], progress: StageProgress, *,
    fresh: bool,
) -> tuple[int, int]:  # long: the output stage's steps in order
    """Stage 4: the summed pairs (kept in the work directory; `frame` is their Dask DataFrame,
    built while the chunks were extracted), then per part the filters, order and top-k, one
    file per phrase range, then one output file (an empty table when nothing was kept)."""
    if frame is None or not chunk_files:
        with TableWriter(output, schema, metadata):
            return 0, 0
    pairs = _summed_pairs(client, frame, work, schema, fresh, progress)
    directory = work.path / OUTPUT_PARTS
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    tsv_gzip = None if is_parquet(output) else is_gzip_name(output)  # as TableWriter decides
    futures = client.map(finish_part, pairs, directory=str(directory), schema=schema, threshold=options.threshold,
                         min_count=options.min_count, count_column=count_column, top_k=options.top_k,
                         tsv_gzip=tsv_gzip, pure=False)
    _wait(client, futures, "table", progress)
    counts = [future.result() for future in futures]
    parts = sorted(str(path) for path in directory.glob("[0-9]*.parquet" if tsv_gzip is None else "[0-9]*.tsv"))
    concatenate_parts(parts, output, schema, metadata)
    shutil.rmtree(directory, ignore_errors=True)
    return sum(phrases for _, phrases in counts), sum(rows for rows, _ in counts)


def _sultan_align_file(work: WorkDir, stage: str, options: PivotOptions, workers: int, progress: StageProgress) -> int:
    """Align the pair corpus with the Sultan aligner, chunk by chunk (each part kept: resumable)."""
    from .aligners.sultan import Aligner  # lazy: loads spaCy

    directory = work.path / stage
    aligner = Aligner()
    parts_dir = directory / "align-parts"
    with open(directory / "en.tok", encoding="utf-8") as en, open(directory / "f.tok", encoding="utf-8") as f:
        pairs = [(a.split(), b.split()) for a, b in zip(en, f, strict=True)]
    parts = []
    starts = range(0, len(pairs), options.chunk_size)
    for number, start in enumerate(progress(starts, "align (sultan)", len(starts))):
        part = parts_dir / f"{number:05d}.txt"
        parts.append(part)
        if part.exists():
            continue
        alignments = aligner.align_many(pairs[start:start + options.chunk_size], workers=workers)
        with atomic_path(part) as tmp:
            tmp.write_text("".join(" ".join(f"{i}-{j}" for i, j in sorted(al.sure)) + "\n" for al in alignments),
                           encoding="utf-8")
    with atomic_path(directory / "align.txt") as tmp, open(tmp, "w", encoding="utf-8") as out:
        for part in parts:
            out.write(part.read_text(encoding="utf-8"))
    return len(pairs)


@written_through_file
def monolingual_paraphrases(
    groups_path: str | Path,
    output: str | Path,
    options: PivotOptions | None = None,
    *,
    aligner: str = "eflomal",
    max_groups: int | None = None,
    workers: int = 1,
    work_dir: str | Path | None = None,
    restart: bool = False,
    keep_work: bool = False,
    progress: StageProgress = no_progress,
    alignment: str | Path | None = None,
    cluster: ClusterOptions | None = None,
    on_start: ClusterStart | None = None,
    shown_names: Mapping[str, str] | None = None,
) -> PipelineReport:  # long: one stage after another, each a call
    """Build a paraphrase table from groups of equivalent sentences (see the module doc).

    `alignment`: a Pharaoh file with line i for the i-th sentence pair the groups form (the
    pairs stage 1 writes to `<work_dir>/mono/en.tok` and `f.tok`); `aligner` is then not run.
    `cluster`, `on_start`, `shown_names` as in :func:`pivot_paraphrases`; the Sultan aligner
    runs on the same cluster (`workers`: its local processes when no `cluster` is given). As
    for :func:`pivot_paraphrases`, a script calls it under ``if __name__ == "__main__":``; and
    `work_dir`, `restart`, `keep_work` as there.
    """
    options = _options(options)
    if max_groups is not None:  # -1 was islice's ValueError, 0 'no sentence pair in FILE'
        check_count(max_groups, "max_groups")
    in_block = cluster is None and block_options() is not None  # a parallel block's cluster, shared
    cluster = cluster or block_options() or ClusterOptions(workers=workers)
    if aligner not in ("eflomal", "sultan"):
        raise ConfigurationError(f"unknown aligner {aligner!r}: use eflomal or sultan")
    output = check_output_file(output, make_folder=True)  # before the work, not at its end
    stage = MONO_FOLDER
    read = {"groups": file_id(groups_path), "alignment": None if alignment is None else file_id(alignment),
            "max_groups": max_groups}
    stages = corpus_stages(stage, read, options, "given" if alignment is not None else aligner)
    work = WorkDir(work_path(output, work_dir), with_pairs(stages, {}), restart=restart,
                   replace_other=work_dir is None)  # pivot's pruning: no effect here
    with pipeline_client(None if in_block else cluster, on_start) as ready:  # starts while the groups are read
        info = work.done(f"{stage}/prepare")
        if info is None:
            _forget_alignment(work, stage)
            info = work.mark(f"{stage}/prepare", prepare_groups(groups_path, work.path / stage, options, max_groups,
                                                                progress, alignment))
        # a record written before bad pairs were skipped has none: its run stopped at the first
        info.setdefault("skipped_rows", [])
        if aligner == "eflomal" or alignment is not None:
            _align_stage(work, stage, options, given=alignment is not None, progress=progress)
        elif work.done(f"{stage}/align") is None:
            shutil.rmtree(work.path / stage / "chunks", ignore_errors=True)
            with on_client(ready(), cluster):
                lines = _sultan_align_file(work, stage, options, cluster.workers, progress)
            work.mark(f"{stage}/align", {"lines": lines})
        client = ready()
        tasks = _chunk_tasks(work, stage, options, include_identical=False, symmetric=True)
        files = [t.output for t in tasks]
        partitions = partitions_for(len(files))
        chunks, frame = _extract(client, work, tasks, progress,
                                 (lambda: monolingual_frame(files, partitions, _cuts(files, partitions))) if files else None)
        corpus = {"alignment": dict(COMPUTED[aligner]), **info, "chunks": len(tasks)}
        phrases, rows = _finish_table(
            client, frame, files, work, output,
            MONO_SCHEMA, options, "count",
            _renamed({"kind": "monolingual", "corpora": [corpus], "max_groups": max_groups, "options": asdict(options)},
                     shown_names), progress,
            fresh=chunks["computed"] > 0,
        )
        described = _cluster_info(client)
    report = PipelineReport(str(output), (corpus,), phrases, rows, tuple(work.reused), chunks, described,
                            work.recomputed)
    if not keep_work:
        shutil.rmtree(work.path, ignore_errors=True)
    return report


def top_paraphrases(path: str | Path, phrases: Iterable[str], k: int = 5) -> dict[str, list[tuple[str, float]]]:
    """The k best paraphrases of each of `phrases` in a table file, Parquet or TSV (for reports), with their scores, asked as
    `paralign paraphrases` asks (:func:`~paralign.phrase_keys.lookup_held`: ``I think`` as ``i think`` in a built table)."""
    wanted = phrases if isinstance(phrases, str) else list(phrases)
    check_texts(wanted, "phrases")  # one str: refused (it looked up each of its characters)
    held, found = lookup_held(path, wanted, k)
    return {phrase: [tuple(row.values())[:2] for row in found[key]] for phrase, key in held.items()}  # paraphrase, score
