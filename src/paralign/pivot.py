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

Bounded memory: the pipeline runs as stages over a work directory (see `paralign.mapreduce`):

1. prepare   - stream the corpus (checked: `corpora.parallel`), tokenise, write token files
               (`paralign.pivot_input`, which also holds `PivotOptions`);
2. align     - eflomal on the whole corpus (it needs all of it), symmetrised, Pharaoh file;
               or, given a Pharaoh file per corpus, its links (checked and written by stage 1):
               eflomal, which cannot be seeded, is not run and the table is reproducible;
3. extract   - MAP, per chunk of `chunk_size` lines: phrase-pair counts -> one sorted run;
4. table     - REDUCE: merge the runs, add c(e) and c(f) (an external sort by f), giving the
               phrase table `f e c(e,f) c(e) c(f)` sorted by f;
5. pivot     - MAP over foreign phrases: contributions p(f|e1) p(e2|f) -> sorted runs;
6. output    - REDUCE over all corpora: sum, threshold, top-k, TSV (gzip by name).

Each stage's output is renamed into place when complete and a manifest records finished
stages and chunks, so a killed run is resumed (same work directory) without corrupt output.
Stage 6 is always re-run, so threshold and top-k can be changed cheaply on a finished run.

Approximation: translation probabilities below `min_translation_prob` (default 0.001) are
pruned before pivoting (otherwise frequent foreign words make the pivot step quadratic);
dropping p(e2|f) < m lowers each p(e2|e1) by at most m (the p(f|e1) sum to 1); `0` disables.
"""

from __future__ import annotations

import gzip
import itertools
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .aligners.eflomal import align_files, parse_links
from .errors import ConfigurationError, FormatError, MismatchError
from .mapreduce import (
    Manifest,
    Record,
    RunWriter,
    atomic_path,
    group_by_prefix,
    merge_runs,
    read_run,
    write_lines,
    write_run,
)
from .phrases import phrase_spans
from .pivot_input import PivotOptions, Progress, no_progress, prepare_groups, prepare_parallel
from .textio import open_text, require_file

Scored = tuple[str, float, float, list[float]]  # paraphrase, probability, count, extra columns
PIVOT_COLUMNS = ("phrase", "paraphrase", "probability", "pivots", "support")
MONO_COLUMNS = ("phrase", "paraphrase", "probability", "count", "phrase_count")
#: The report's record of an alignment computed here (a given one is `GivenAlignment.to_dict()`).
COMPUTED = {name: {"kind": "computed", "aligner": name} for name in ("eflomal", "sultan")}


@dataclass(frozen=True, slots=True)
class PipelineReport:
    """What a run did: per-corpus reading statistics, counts per stage, output rows."""

    output: str = ""
    corpora: tuple[dict, ...] = ()
    phrases: int = 0
    rows: int = 0
    resumed_stages: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {
            "output": self.output,
            "corpora": [dict(c) for c in self.corpora],
            "phrases": self.phrases,
            "rows": self.rows,
            "resumed_stages": list(self.resumed_stages),
        }


# ---------------------------------------------------------------------------------------------
# In-memory building blocks (also the reference the disk pipeline is tested against)
# ---------------------------------------------------------------------------------------------
def extract_counts(
    items: Iterable[tuple[Sequence[str], Sequence[str], Iterable[tuple[int, int]]]],
    max_length: int = 5,
    *,
    include_identical: bool = True,
    symmetric: bool = False,
) -> Counter[tuple[str, str]]:
    """Count consistent phrase pairs (source text, target text) over aligned sentence pairs.

    `include_identical=False` drops pairs with equal texts; `symmetric` also counts (t, s).
    """
    counts: Counter[tuple[str, str]] = Counter()
    for source, target, links in items:
        for s1, s2, t1, t2 in phrase_spans(links, len(source), len(target), max_length):
            e, f = " ".join(source[s1:s2]), " ".join(target[t1:t2])
            if not include_identical and e == f:
                continue
            counts[e, f] += 1
            if symmetric:
                counts[f, e] += 1
    return counts


def pivot_in_memory(
    tables: Sequence[Counter[tuple[str, str]]],
    *,
    threshold: float = 0.01,
    top_k: int | None = None,
    min_translation_prob: float = 0.0,
) -> dict[str, dict[str, float]]:
    """p(e2|e1) from phrase-pair counts (e, f) of one or more corpora, straight from the formula."""
    scores: dict[str, dict[str, float]] = {}
    for counts in tables:
        c_e: Counter[str] = Counter()
        c_f: Counter[str] = Counter()
        by_f: dict[str, list[tuple[str, int]]] = {}
        for (e, f), c in counts.items():
            c_e[e] += c
            c_f[f] += c
            by_f.setdefault(f, []).append((e, c))
        for f, rows in by_f.items():
            for e1, c1 in rows:
                if c1 / c_e[e1] < min_translation_prob:
                    continue
                for e2, c2 in rows:
                    if e2 == e1 or c2 / c_f[f] < min_translation_prob:
                        continue
                    row = scores.setdefault(e1, {})
                    row[e2] = row.get(e2, 0.0) + (c1 / c_e[e1]) * (c2 / c_f[f])
    return {e1: dict(_select(row.items(), threshold, top_k)) for e1, row in scores.items()}


def _select(items: Iterable[tuple[str, float]], threshold: float, top_k: int | None) -> list[tuple[str, float]]:
    kept = sorted(((e2, p) for e2, p in items if p >= threshold), key=lambda ep: (-ep[1], ep[0]))
    return kept[:top_k] if top_k else kept


# ---------------------------------------------------------------------------------------------
# Stages
# ---------------------------------------------------------------------------------------------
def _file_id(path: str | Path) -> dict[str, Any]:
    path = require_file(path)
    stat = path.stat()
    return {"path": str(path.resolve()), "size": stat.st_size, "mtime": int(stat.st_mtime)}


def _chunked_lines(paths: Sequence[Path], chunk_size: int) -> Iterator[tuple[int, list[tuple[str, ...]]]]:
    """Yield (chunk number, rows) where each row holds line i of every file (strict zip)."""
    with ExitStack() as stack:
        handles = [stack.enter_context(open(path, encoding="utf-8")) for path in paths]
        rows = zip(*handles, strict=True)
        try:
            for number in itertools.count():
                chunk = [tuple(x.rstrip("\n") for x in row) for row in itertools.islice(rows, chunk_size)]
                if not chunk:
                    return
                yield number, chunk
        except ValueError as exc:
            raise MismatchError(f"{', '.join(map(str, paths))}: files differ in length ({exc})") from exc


def extract_chunks(
    directory: Path,
    manifest: Manifest,
    stage: str,
    options: PivotOptions,
    *,
    include_identical: bool = True,
    symmetric: bool = False,
    progress: Progress = no_progress,
    total_lines: int | None = None,
) -> list[Path]:
    """Stage 3 (MAP): one sorted run of (e, f) counts per chunk of aligned lines; resumable."""
    paths = [directory / "en.tok", directory / "f.tok", directory / "align.txt"]
    runs_dir = directory / "runs"
    runs_dir.mkdir(exist_ok=True)
    total = None if total_lines is None else -(-total_lines // options.chunk_size)
    runs: list[Path] = []
    for number, chunk in progress(_chunked_lines(paths, options.chunk_size), f"{stage}: extract", total):
        name = f"{stage}/extract/{number:05d}"
        run = runs_dir / f"chunk-{number:05d}.tsv"
        runs.append(run)
        if manifest.is_done(name) and run.exists():
            continue
        first = number * options.chunk_size + 1
        items = (
            (e.split(), f.split(), parse_links(a, str(paths[2]), first + k))
            for k, (e, f, a) in enumerate(chunk)
        )
        counts = extract_counts(
            items, options.max_length, include_identical=include_identical, symmetric=symmetric
        )
        write_run({key: [c] for key, c in counts.items()}, run)
        manifest.mark_done(name, {"lines": len(chunk), "pairs": len(counts)})
    return runs


def build_phrase_table(runs: Sequence[Path], output: Path, options: PivotOptions, progress: Progress = no_progress) -> int:
    """Stage 4 (REDUCE): merge (e, f) runs into `f e c(e,f) c(e) c(f)` sorted by f; return rows.

    c(e) is known while grouping the (e, f)-sorted merge by e; the records are then re-sorted
    by f through bounded runs (an external sort), where c(f) is known while grouping by f.
    """
    tmp_dir = output.with_name(output.name + ".sort")
    shutil.rmtree(tmp_dir, ignore_errors=True)
    writer = RunWriter(tmp_dir, "by-f", options.buffer_items)
    for (e,), records in progress(group_by_prefix(merge_runs(runs, 2), 1), "table: c(e)"):
        c_e = sum(values[0] for _, values in records)
        for (_, f), values in records:
            writer.add((f, e), [values[0], c_e])
    sorted_runs = writer.close()
    rows = 0
    with atomic_path(output) as tmp, open(tmp, "w", encoding="utf-8") as out:
        for (f,), records in progress(group_by_prefix(merge_runs(sorted_runs, 2), 1), "table: c(f)"):
            c_f = sum(values[0] for _, values in records)
            for (_, e), (c_ef, c_e) in records:
                out.write(f"{f}\t{e}\t{c_ef}\t{c_e}\t{c_f}\n")
                rows += 1
    shutil.rmtree(tmp_dir, ignore_errors=True)
    return rows


def pivot_runs(table: Path, runs_dir: Path, options: PivotOptions, progress: Progress = no_progress) -> list[Path]:
    """Stage 5 (MAP): for each foreign phrase f, add p(f|e1) p(e2|f) to (e1, e2); sorted runs.

    The values per (e1, e2) are [probability, number of pivots, support = sum of min counts].
    """
    floor = options.min_translation_prob
    with atomic_path(runs_dir) as tmp_dir:
        writer = RunWriter(tmp_dir, "pivot", options.buffer_items)
        for _, records in progress(group_by_prefix(read_run(table, 2), 1), "pivot"):
            rows = [(e, c_ef, c_ef / c_e, c_ef / c_f) for (_, e), (c_ef, c_e, c_f) in records]
            sources = [(e, c, p) for e, c, p, _ in rows if p >= floor]
            targets = [(e, c, p) for e, c, _, p in rows if p >= floor]
            for e1, c1, p_f_e1 in sources:
                for e2, c2, p_e2_f in targets:
                    if e1 != e2:
                        writer.add((e1, e2), [p_f_e1 * p_e2_f, 1, min(c1, c2)])
        writer.close()
    return sorted(runs_dir.glob("*.tsv"))


def write_table(
    records: Iterable[Record],
    output: str | Path,
    columns: Sequence[str],
    score: Callable[[list[Record]], list[Scored]],
    threshold: float,
    top_k: int | None,
    progress: Progress = no_progress,
    *,
    min_count: float = 0,
) -> tuple[int, int]:
    """Stage 6 (REDUCE): group (e1, e2)-sorted records by e1, score, filter, write TSV atomically.

    `score(records)` returns (e2, probability, count, extra columns) for one e1; rows with
    probability < threshold or count < min_count are dropped.  Returns (phrases, rows).
    """
    output = Path(output)
    phrases = rows = 0
    with atomic_path(output) as tmp, _open_write(tmp, gz=output.suffix == ".gz") as out:
        out.write("# " + "\t".join(columns) + "\n")
        for (e1,), group in progress(group_by_prefix(records, 1), "output"):
            scored = [row for row in score(group) if row[1] >= threshold and row[2] >= min_count]
            scored.sort(key=lambda row: (-row[1], row[0]))
            if top_k:
                scored = scored[:top_k]
            if scored:
                phrases += 1
            for e2, probability, _, extra in scored:
                extras = "\t".join(_number(v) for v in extra)
                out.write(f"{e1}\t{e2}\t{probability:.6g}\t{extras}\n")
                rows += 1
    return phrases, rows


def _open_write(path: Path, *, gz: bool) -> IO[str]:
    if gz:
        return gzip.open(path, "wt", encoding="utf-8", compresslevel=6)  # type: ignore[return-value]
    return open(path, "w", encoding="utf-8")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"


def pivot_scores(group: list[Record]) -> list[Scored]:
    """Pivot records [p, pivots, support] of one e1 -> rows (count = support)."""
    return [(e2, values[0], values[2], values[1:]) for (_, e2), values in group]


def relative_frequency_scores(group: list[Record]) -> list[Scored]:
    """Monolingual counts [c(e1, e2)] of one e1 -> p(e2|e1) = c(e1, e2) / sum_e c(e1, e)."""
    total = sum(values[0] for _, values in group)
    return [(e2, values[0] / total, values[0], [values[0], total]) for (_, e2), values in group]


# ---------------------------------------------------------------------------------------------
# Pipelines
# ---------------------------------------------------------------------------------------------
def _line_count(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def _align_stage(directory: Path, manifest: Manifest, stage: str, options: PivotOptions, *, given: bool = False) -> int:
    """Stage 2: eflomal on the token files, or (`given`) the links stage 1 wrote from a given file."""
    name = f"{stage}/align"
    if not (manifest.is_done(name) and (directory / "align.txt").exists()):
        # a new alignment invalidates everything extracted from an earlier one
        manifest.forget(f"{stage}/", keep={f"{stage}/prepare"})
        if given:  # eflomal is not run: the table depends on the given links alone
            lines = _line_count(directory / "align.txt")
        else:
            lines = align_files(
                directory / "en.tok", directory / "f.tok", directory / "align.txt",
                symmetrization=options.symmetrization, model=options.eflomal_model,
                n_iterations=options.eflomal_iterations,
            )
        manifest.mark_done(name, {"lines": lines})
    return int(manifest.info(name)["lines"])


def pivot_paraphrases(
    corpora: Sequence[tuple[str | Path, str | Path]],
    output: str | Path,
    options: PivotOptions | None = None,
    *,
    work_dir: str | Path | None = None,
    restart: bool = False,
    keep_work: bool = True,
    progress: Progress = no_progress,
    alignments: Sequence[str | Path | None] | None = None,
) -> PipelineReport:
    """Build a pivot paraphrase table from (english, foreign) line-aligned file pairs.

    `alignments`, one per corpus in the same order (None: align that corpus with eflomal), are
    Pharaoh files of one line per corpus line, indexing the tokens the tokenizer options give
    (`pivot_input.prepare_parallel`); eflomal, which cannot be seeded, is then not run, so the
    table is reproducible.  The report records per corpus whether the alignment was computed
    or given (with the file's SHA-256 and its bad lines, which are skipped).

    Intermediate files live in `work_dir` (default `<output>.work`); re-running with the same
    work directory resumes; `restart` discards it first; `keep_work=False` deletes it on success.
    A given `work_dir` holding a run with other inputs or options is refused (ConfigurationError);
    the default one is silently replaced.
    """
    options = options or PivotOptions()
    if not corpora:
        raise ConfigurationError("give at least one (english, foreign) corpus")
    output = Path(output)
    work = Path(work_dir) if work_dir is not None else output.with_name(output.name + ".work")
    alignments = list(alignments) if alignments is not None else [None] * len(corpora)
    if len(alignments) != len(corpora):
        raise ConfigurationError(f"give one alignment per corpus ({len(corpora)} corpora, {len(alignments)} alignments)")
    fingerprint: dict[str, Any] = {
        "kind": "pivot",
        "options": options.fingerprint(),
        "corpora": [[_file_id(e), _file_id(f)] for e, f in corpora],
    }
    if any(a is not None for a in alignments):  # (absent otherwise: earlier work directories still resume)
        fingerprint["alignments"] = [None if a is None else _file_id(a) for a in alignments]
    manifest = Manifest.open(work, fingerprint, restart=restart, replace_other=work_dir is None)
    corpus_info: list[dict] = []
    pivot_dirs: list[Path] = []
    for index, ((english, foreign), alignment) in enumerate(zip(corpora, alignments, strict=True)):
        stage = f"c{index}"
        directory = work / stage
        directory.mkdir(exist_ok=True)
        if not manifest.is_done(f"{stage}/prepare"):
            manifest.mark_done(f"{stage}/prepare", prepare_parallel(english, foreign, directory, options, alignment))
        lines = _align_stage(directory, manifest, stage, options, given=alignment is not None)
        table = directory / "phrase-table.tsv"
        if not (manifest.is_done(f"{stage}/table") and table.exists()):
            runs = extract_chunks(directory, manifest, stage, options, progress=progress, total_lines=lines)
            rows = build_phrase_table(runs, table, options, progress)
            manifest.mark_done(f"{stage}/table", {"rows": rows, "chunks": len(runs)})
        pivot_dir = directory / "pivot-runs"
        if not (manifest.is_done(f"{stage}/pivot") and pivot_dir.is_dir()):
            shutil.rmtree(pivot_dir, ignore_errors=True)
            pivot_runs(table, pivot_dir, options, progress)
            manifest.mark_done(f"{stage}/pivot", {"runs": len(list(pivot_dir.glob('*.tsv')))})
        pivot_dirs.append(pivot_dir)
        corpus_info.append({"alignment": dict(COMPUTED["eflomal"]), **manifest.info(f"{stage}/prepare"),
                            **manifest.info(f"{stage}/table")})
    runs = [run for directory in pivot_dirs for run in sorted(directory.glob("*.tsv"))]
    phrases, rows = write_table(
        merge_runs(runs, 2), output, PIVOT_COLUMNS, pivot_scores, options.threshold, options.top_k,
        progress, min_count=options.min_count,
    )
    report = PipelineReport(str(output), tuple(corpus_info), phrases, rows, tuple(manifest.reused()))
    if not keep_work:
        shutil.rmtree(work, ignore_errors=True)
    return report


def _sultan_align_file(directory: Path, manifest: Manifest, stage: str, options: PivotOptions, workers: int,
                       progress: Progress) -> int:
    """Align the pair corpus with the Sultan aligner, chunk by chunk (resumable)."""
    from .aligners.sultan import Aligner  # lazy: loads spaCy

    aligner = Aligner()
    parts_dir = directory / "align-parts"
    parts_dir.mkdir(exist_ok=True)
    paths = [directory / "en.tok", directory / "f.tok"]
    parts = []
    total_lines = _line_count(paths[0])
    total = -(-total_lines // options.chunk_size)
    for number, chunk in progress(_chunked_lines(paths, options.chunk_size), "align (sultan)", total):
        part = parts_dir / f"{number:05d}.txt"
        parts.append(part)
        name = f"{stage}/align/{number:05d}"
        if manifest.is_done(name) and part.exists():
            continue
        alignments = aligner.align_many([(a.split(), b.split()) for a, b in chunk], workers=workers)
        write_lines(part, (" ".join(f"{i}-{j}" for i, j in sorted(al.sure)) for al in alignments))
        manifest.mark_done(name, {"lines": len(chunk)})
    with atomic_path(directory / "align.txt") as tmp, open(tmp, "w", encoding="utf-8") as out:
        for part in parts:
            out.write(part.read_text(encoding="utf-8"))
    return total_lines


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
    keep_work: bool = True,
    progress: Progress = no_progress,
    alignment: str | Path | None = None,
) -> PipelineReport:
    """Build a paraphrase table from groups of equivalent sentences (see the module doc).

    `alignment`: a Pharaoh file with line i for the i-th sentence pair the groups form (the
    pairs stage 1 writes to `<work_dir>/mono/en.tok` and `f.tok`); `aligner` is then not run.
    """
    options = options or PivotOptions()
    if aligner not in ("eflomal", "sultan"):
        raise ConfigurationError(f"unknown aligner {aligner!r}: use eflomal or sultan")
    output = Path(output)
    work = Path(work_dir) if work_dir is not None else output.with_name(output.name + ".work")
    fingerprint = {
        "kind": "monolingual",
        "aligner": aligner,
        "max_groups": max_groups,
        "options": options.fingerprint(),
        "groups": _file_id(groups_path),
    }
    if alignment is not None:
        fingerprint["alignment"] = _file_id(alignment)
    manifest = Manifest.open(work, fingerprint, restart=restart, replace_other=work_dir is None)
    stage = "mono"
    directory = work / stage
    directory.mkdir(exist_ok=True)
    if not manifest.is_done(f"{stage}/prepare"):
        info = prepare_groups(groups_path, directory, options, max_groups, progress, alignment)
        manifest.mark_done(f"{stage}/prepare", info)
    if aligner == "eflomal" or alignment is not None:
        lines = _align_stage(directory, manifest, stage, options, given=alignment is not None)
    elif not manifest.is_done(f"{stage}/align"):
        lines = _sultan_align_file(directory, manifest, stage, options, workers, progress)
        manifest.mark_done(f"{stage}/align", {"lines": lines})
    else:
        lines = int(manifest.info(f"{stage}/align")["lines"])
    runs = extract_chunks(
        directory, manifest, stage, options, include_identical=False, symmetric=True,
        progress=progress, total_lines=lines,
    )
    phrases, rows = write_table(
        merge_runs(runs, 2), output, MONO_COLUMNS, relative_frequency_scores, options.threshold,
        options.top_k, progress, min_count=options.min_count,
    )
    report = PipelineReport(
        str(output), ({"alignment": dict(COMPUTED[aligner]), **manifest.info(f"{stage}/prepare")},), phrases, rows,
        tuple(manifest.reused()),
    )
    if not keep_work:
        shutil.rmtree(work, ignore_errors=True)
    return report


def read_table_rows(path: str | Path) -> Iterator[tuple[str, str, float, list[str]]]:
    """Rows of a table written here: (phrase, paraphrase, probability, other columns)."""
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            try:
                yield fields[0], fields[1], float(fields[2]), fields[3:]
            except (IndexError, ValueError) as exc:
                raise FormatError(f"bad table row ({exc})", source=str(path), line=number) from exc


def top_paraphrases(path: str | Path, phrases: Iterable[str], k: int = 5) -> dict[str, list[tuple[str, float]]]:
    """The k best paraphrases of each of `phrases` in a table file (for reports)."""
    wanted = {phrase: [] for phrase in phrases}  # type: dict[str, list[tuple[str, float]]]
    for phrase, paraphrase, probability, _ in read_table_rows(path):
        if phrase in wanted:
            wanted[phrase].append((paraphrase, probability))
    return {p: sorted(rows, key=lambda r: -r[1])[:k] for p, rows in wanted.items()}
