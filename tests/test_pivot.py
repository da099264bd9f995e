"""Pivot and monolingual paraphrase tables: hand-computed toy probabilities, the Dask pipeline
equals a straightforward in-memory reference (dict counting, defined here, no Dask) row for
row, resuming a killed run, a worker killed mid-run, and the bad-input checks of parallel
corpora.  Every pipeline runs on one shared local cluster (`on_dask`, tests/conftest.py)."""

from __future__ import annotations

import gzip
import hashlib
import math
import random
import re
import shutil
import warnings
import zlib
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paralign.pivot as pivot
from paralign.cluster import ClusterOptions
from paralign.corpora.parallel import (
    ParallelCorpusWarning,
    ParallelStats,
    count_lines,
    iter_parallel,
)
from paralign.errors import (
    ConfigurationError,
    FormatError,
    InputFileError,
    MismatchError,
    ParalignError,
)
from paralign.paraphrases import ParaphraseTable
from paralign.phrases import phrase_spans
from paralign.pivot import (
    PivotOptions,
    monolingual_paraphrases,
    pivot_paraphrases,
)
from paralign.tables import iter_rows

pytestmark = pytest.mark.usefixtures("on_dask")


# -- the reference: straight from the formula, in memory, no Dask ---------------------------------
def extract_counts(items, max_length: int = 5) -> Counter:
    """Count consistent phrase pairs (source text, target text) over aligned sentence pairs."""
    counts: Counter = Counter()
    for source, target, links in items:
        for s1, s2, t1, t2 in phrase_spans(links, len(source), len(target), max_length):
            counts[" ".join(source[s1:s2]), " ".join(target[t1:t2])] += 1
    return counts


def pivot_in_memory(tables, *, threshold: float = 0.01, min_translation_prob: float = 0.0):
    """p(e2|e1), pivots and support from phrase-pair counts (e, f) of one or more corpora:
    {e1: {e2: (probability, pivots, support)}}, rows below `threshold` dropped."""
    scores: dict = {}
    for counts in tables:
        c_e: Counter = Counter()
        c_f: Counter = Counter()
        by_f: dict = {}
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
                    p, n, s = scores.setdefault(e1, {}).get(e2, (0.0, 0, 0))
                    scores[e1][e2] = (p + (c1 / c_e[e1]) * (c2 / c_f[f]), n + 1, s + min(c1, c2))
    return {e1: {e2: v for e2, v in row.items() if v[0] >= threshold} for e1, row in scores.items()}


def reference_rows(tables, **options) -> list[tuple[str, str, float, int, int]]:
    """The reference table as the pipeline orders it: phrase, then probability descending, then paraphrase."""
    rows = [(e1, e2, *v) for e1, row in pivot_in_memory(tables, **options).items() for e2, v in row.items()]
    return sorted(rows, key=lambda r: (r[0], -r[2], r[1]))


def assert_same_rows(got: list, expected: list) -> None:
    """Row for row: the same phrases, paraphrases and counts, probabilities within 1e-9."""
    assert len(got) == len(expected)
    by_key = sorted(got, key=lambda r: (r[0], r[1]))
    for g, e in zip(by_key, sorted(expected, key=lambda r: (r[0], r[1])), strict=True):
        assert (g[0], g[1]) == (e[0], e[1])
        assert g[2] == pytest.approx(e[2], abs=1e-9)
        assert [int(x) for x in g[3:]] == [int(x) for x in e[3:]]
    # and in the same order, up to ties in probability
    assert [r[0] for r in got] == [r[0] for r in expected]


def table_rows(path) -> list[tuple]:
    return [(p, q, prob, *extra) for p, q, prob, extra in iter_rows(path)]


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _links_for(e_tokens: list[str], f_tokens: list[str]) -> list[tuple[int, int]]:
    """A deterministic pseudo-random alignment of a sentence pair (stands in for eflomal)."""
    if len(e_tokens) == 1 and len(f_tokens) == 1:
        return [(0, 0)]
    rng = random.Random(zlib.crc32((" ".join(e_tokens) + "|" + " ".join(f_tokens)).encode()))
    links = {(i, min(i, len(f_tokens) - 1)) for i in range(len(e_tokens)) if rng.random() < 0.8}
    links |= {(rng.randrange(len(e_tokens)), rng.randrange(len(f_tokens))) for _ in range(rng.randrange(2))}
    return sorted(links)


def fake_align_files(source_path, target_path, output_path, **_options) -> int:
    """Replace eflomal in tests: one-token sentences link 0-0, others `_links_for`."""
    lines = 0
    with open(source_path, encoding="utf-8") as src, open(target_path, encoding="utf-8") as tgt, \
            open(output_path, "w", encoding="utf-8") as out:
        for e, f in zip(src, tgt, strict=True):
            links = _links_for(e.split(), f.split())
            out.write(" ".join(f"{i}-{j}" for i, j in links) + "\n")
            lines += 1
    return lines


@pytest.fixture
def no_eflomal(monkeypatch):
    monkeypatch.setattr(pivot, "align_files", fake_align_files)


# -- hand-computed toy example -----------------------------------------------------------------
TOY_DE = [("car", "auto"), ("car", "auto"), ("automobile", "auto"), ("car", "wagen"), ("wagon", "wagen")]
TOY_FR = [("car", "voiture"), ("automobile", "voiture")]


def _toy_corpus(tmp_path: Path, name: str, pairs: list[tuple[str, str]]) -> tuple[Path, Path]:
    return (_write(tmp_path / f"{name}.en", [e for e, _ in pairs]),
            _write(tmp_path / f"{name}.f", [f for _, f in pairs]))


def test_toy_pivot_probabilities_by_hand(tmp_path, no_eflomal):
    # c(car)=3: p(auto|car)=2/3, p(wagen|car)=1/3; c(auto)=3: p(automobile|auto)=1/3, p(car|auto)=2/3;
    # c(wagen)=2: p(wagon|wagen)=1/2, p(car|wagen)=1/2.  German alone:
    #   p(automobile|car) = 2/3 * 1/3 = 2/9;  p(wagon|car) = 1/3 * 1/2 = 1/6;
    #   p(car|automobile) = 1 * 2/3;          p(car|wagon) = 1 * 1/2.
    # French adds p(voiture|car) p(automobile|voiture) = 1 * 1/2 and p(car|automobile) += 1/2.
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    fr = _toy_corpus(tmp_path, "fr", TOY_FR)
    out = tmp_path / "table.tsv.gz"
    pivot_paraphrases([de, fr], out, PivotOptions(threshold=0.0, min_translation_prob=0.0))
    rows = {(p, q): prob for p, q, prob, _ in iter_rows(out)}
    assert rows == pytest.approx({
        ("car", "automobile"): 2 / 9 + 1 / 2,
        ("car", "wagon"): 1 / 6,
        ("automobile", "car"): 2 / 3 + 1 / 2,
        ("wagon", "car"): 1 / 2,
    }, rel=1e-5)
    # e2 == e1 never appears; the table reads back with ParaphraseTable.from_tsv
    assert all(p != q for p, q in rows)
    table = ParaphraseTable.from_tsv(out)
    assert table.paraphrases("car")["automobile"] == pytest.approx(13 / 18, rel=1e-5)
    # supporting counts: car-automobile shares two pivots (auto, voiture)
    support = {(p, q): extra for p, q, _, extra in iter_rows(out)}
    assert support["car", "automobile"][0] == "2"


def test_pipelines_in_a_parallel_block_share_its_cluster(tmp_path, no_eflomal, dask_cluster, monkeypatch):
    """Two tables built in one `paralign.parallel` block connect to its cluster once (each call
    used to start or connect to a cluster of its own) and hold what a call outside gives."""
    import paralign.cluster
    from paralign import parallel

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    connects = []
    real_connect = paralign.cluster.connect

    def counted(*args, **kwargs):
        connects.append(args)
        return real_connect(*args, **kwargs)

    monkeypatch.setattr(paralign.cluster, "connect", counted)
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0)
    heard: list[dict] = []
    with parallel(scheduler=dask_cluster.scheduler_address):
        pivot_paraphrases([de], tmp_path / "a.tsv", options, on_start=heard.append)
        monolingual_paraphrases(_write(tmp_path / "g.tsv", ["the car\tthe automobile"]), tmp_path / "m.tsv",
                                PivotOptions(threshold=0.0, max_length=1))
    assert len(connects) == 1 and heard[0]["scheduler"] == dask_cluster.scheduler_address
    pivot_paraphrases([de], tmp_path / "b.tsv", options, cluster=paralign.cluster.ClusterOptions(
        scheduler=dask_cluster.scheduler_address))
    assert len(connects) == 2 and table_rows(tmp_path / "a.tsv") == table_rows(tmp_path / "b.tsv")
    assert ("car", "automobile") in {(p, q) for p, q, *_ in table_rows(tmp_path / "m.tsv")}


def test_threshold_and_top_k_rerun_on_finished_work(tmp_path, no_eflomal):
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    out, work = tmp_path / "t.tsv", tmp_path / "work"
    pivot_paraphrases([de], out, PivotOptions(threshold=0.2, min_translation_prob=0.0), work_dir=work, keep_work=True)
    rows = {(p, q) for p, q, _, _ in iter_rows(out)}
    assert ("car", "wagon") not in rows and ("car", "automobile") in rows  # 1/6 < 0.2 <= 2/9
    report = pivot_paraphrases([de], out, PivotOptions(threshold=0.0, top_k=1, min_translation_prob=0.0),
                               work_dir=work, keep_work=True)
    assert report.resumed_stages  # threshold/top-k do not invalidate the work directory
    rows = [(p, q) for p, q, _, _ in iter_rows(out)]
    assert ("car", "automobile") in rows and ("car", "wagon") not in rows
    assert len([r for r in rows if r[0] == "car"]) == 1


# -- map/reduce equals in-memory ---------------------------------------------------------------
VOCAB_E = ["a", "the", "man", "dog", "runs", "sits", "on", "grass", "big", "small", "red"]
VOCAB_F = ["ein", "der", "mann", "hund", "rennt", "sitzt", "auf", "gras", "gross", "klein", "rot"]


def _random_corpus(seed: int, n: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        length = rng.randint(1, 7)
        e = [rng.choice(VOCAB_E) for _ in range(length)]
        f = [rng.choice(VOCAB_F) for _ in range(max(1, length + rng.randint(-1, 1)))]
        pairs.append((" ".join(e), " ".join(f)))
    return pairs


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), chunk=st.integers(1, 17))
def test_dask_pipeline_equals_the_reference(tmp_path_factory, monkeypatch, seed, chunk):
    monkeypatch.setattr(pivot, "align_files", fake_align_files)
    tmp = tmp_path_factory.mktemp("mr")
    corpora = [_random_corpus(seed, 40), _random_corpus(seed + 1, 25)]
    paths = [_toy_corpus(tmp, f"c{k}", pairs) for k, pairs in enumerate(corpora)]
    options = PivotOptions(threshold=0.0, chunk_size=chunk, max_length=3, min_translation_prob=0.05)
    out = tmp / "out.parquet"
    pivot_paraphrases(paths, out, options, work_dir=tmp / "work")
    tables = []
    for pairs in corpora:
        items = [(e.split(), f.split(), _links_for(e.split(), f.split())) for e, f in pairs]
        tables.append(extract_counts(items, max_length=3))
    assert_same_rows(table_rows(out), reference_rows(tables, threshold=0.0, min_translation_prob=0.05))


@pytest.mark.parametrize("method", ["tasks", "p2p"])
def test_both_shuffle_methods_give_the_reference_table(tmp_path, monkeypatch, method):
    """Small tables shuffle as plain tasks, large ones through P2P (pivot_frames.shuffle_method):
    both give the same table."""
    import paralign.pivot_frames

    monkeypatch.setattr(pivot, "align_files", fake_align_files)
    monkeypatch.setattr(paralign.pivot_frames, "TASK_SHUFFLE_PARTITIONS", 10**6 if method == "tasks" else 0)
    pairs = _random_corpus(7, 60)
    out = tmp_path / "out.parquet"
    options = PivotOptions(threshold=0.0, chunk_size=9, max_length=3, min_translation_prob=0.05)
    pivot_paraphrases([_toy_corpus(tmp_path, "c", pairs)], out, options, work_dir=tmp_path / "work")
    items = [(e.split(), f.split(), _links_for(e.split(), f.split())) for e, f in pairs]
    expected = reference_rows([extract_counts(items, max_length=3)], threshold=0.0, min_translation_prob=0.05)
    assert_same_rows(table_rows(out), expected)


def test_parquet_and_tsv_outputs_hold_the_same_rows(tmp_path, no_eflomal):
    corpus = _toy_corpus(tmp_path, "c", _random_corpus(5, 50))
    options = PivotOptions(threshold=0.0, chunk_size=7)
    work = tmp_path / "work"
    outputs = [tmp_path / name for name in ("t.parquet", "t.tsv", "t.tsv.gz")]
    for out in outputs:
        pivot_paraphrases([corpus], out, options, work_dir=work)
    rows = [table_rows(out) for out in outputs]
    assert rows[0] and all(len(r) == len(rows[0]) for r in rows)
    for got in rows[1:]:  # TSV holds exact float reprs: the very same rows
        assert [(p, q, prob, *map(int, extra)) for p, q, prob, *extra in got] == rows[0]


# -- resume after a killed run -----------------------------------------------------------------
def test_resume_recomputes_only_missing_chunks(tmp_path, no_eflomal):
    corpus = _toy_corpus(tmp_path, "c", _random_corpus(7, 60))
    options = PivotOptions(threshold=0.0, chunk_size=10)
    clean = tmp_path / "clean.tsv.gz"
    pivot_paraphrases([corpus], clean, options, work_dir=tmp_path / "clean-work", keep_work=True)
    out, work = tmp_path / "out.tsv.gz", tmp_path / "work"
    first = pivot_paraphrases([corpus], out, options, work_dir=work, keep_work=True)
    assert first.chunks == {"total": 6, "computed": 6, "reused": 0}
    for number in (1, 4):  # as if the run had been killed before these chunks were written
        (work / "c0" / "chunks" / f"{number:05d}.parquet").unlink()
    out.unlink()
    again = pivot_paraphrases([corpus], out, options, work_dir=work, keep_work=True)
    assert again.chunks == {"total": 6, "computed": 2, "reused": 4}
    assert {"c0/prepare", "c0/align", "c0/extract/00000"} <= set(again.resumed_stages)
    assert not list(work.rglob(".tmp*"))  # no temporary files left behind
    with gzip.open(clean, "rt") as a, gzip.open(out, "rt") as b:
        assert a.read() == b.read()


def _killing_its_worker_once(marker: str, output: str, chunk: str, name: str, task):
    """Stage 3's task `name` of :mod:`paralign.pivot` (`prepare_chunk` or `extract_chunk`), as
    run on a worker; the first time it is given chunk `chunk` (`marker` made, which only one
    can), it SIGKILLs its own worker process instead, mid-task, as the kernel's OOM killer would,
    writing in `marker` that worker's pid and whether the table `output` existed then."""
    import os
    import signal

    import paralign.pivot

    if Path(task.output).stem == chunk:
        try:
            made = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.write(made, f"{os.getpid()} {Path(output).exists()}".encode())
            os.close(made)
            os.kill(os.getpid(), signal.SIGKILL)
    return getattr(paralign.pivot, name)(task)


@pytest.mark.parametrize("alignment", ["given", "computed"])
def test_a_worker_killed_mid_run_changes_nothing(tmp_path, no_eflomal, monkeypatch, request, alignment):
    """Given: the workers read the corpus too (pivot.prepare_chunk); computed: the command does.
    The worker running chunk 3 of 8 kills itself as it runs it, so the kill lands mid-extraction
    with a task in flight whatever the machine's load: a thread of the test that killed a worker
    once it saw a chunk file landed wherever the job was by then. On a cluster of its own: the
    test killed one of the shared cluster's workers, then waited for the nanny's replacement, and
    on a loaded machine that never came (the LocalCluster closes the nanny of a worker gone for
    15 s, ``distributed.deploy.lost-worker-timeout``, and a new worker process took longer to
    start): `wait_for_workers(2)` timed out (60 s, then 180 s, in CI; pytest's 600 s at load 27).
    8 chunks, not 40, so the shuffles are Dask task shuffles, not P2P, whose fixed cost made most
    of the test's time."""
    import functools
    import logging

    import cloudpickle
    import psutil
    from distributed import LocalCluster

    pairs = _random_corpus(11, 200)
    corpus = _toy_corpus(tmp_path, "c", pairs)
    links = None
    if alignment == "given":
        links = [_write(tmp_path / "c.align", [" ".join(f"{i}-{j}" for i, j in _links_for(e.split(), f.split()))
                                               for e, f in pairs])]
    options = PivotOptions(threshold=0.0, chunk_size=25)
    clean = tmp_path / "clean.parquet"
    pivot_paraphrases([corpus], clean, options, work_dir=tmp_path / "clean-work", alignments=links)
    out, marker = tmp_path / "out.parquet", tmp_path / "killed"
    name = "prepare_chunk" if alignment == "given" else "extract_chunk"
    monkeypatch.setattr(pivot, name, functools.partial(_killing_its_worker_once, str(marker), str(out), "00003", name))
    cloudpickle.register_pickle_by_value(request.module)
    try:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
                          memory_limit="4GB", silence_logs=logging.ERROR) as cluster:
            report = pivot_paraphrases([corpus], out, options, work_dir=tmp_path / "work", alignments=links,
                                       cluster=ClusterOptions(scheduler=cluster.scheduler_address))
    finally:
        cloudpickle.unregister_pickle_by_value(request.module)
    pid, table_at_kill = marker.read_text().split()
    assert table_at_kill == "False"  # killed mid-run, before the table was written
    assert not psutil.pid_exists(int(pid)) or psutil.Process(int(pid)).status() == psutil.STATUS_ZOMBIE
    assert report.chunks["computed"] == 8
    assert table_rows(out) == table_rows(clean)


def test_eflomal_settings_do_not_stop_a_resume_when_every_alignment_is_given(tmp_path, no_eflomal):
    """eflomal never runs then: its settings change no intermediate file, so a work folder
    made with others is resumed, not refused; with a corpus to align they still count."""
    pairs = _random_corpus(5, 40)
    corpus = _toy_corpus(tmp_path, "c", pairs)
    links = [_write(tmp_path / "c.align", [" ".join(f"{i}-{j}" for i, j in _links_for(e.split(), f.split()))
                                           for e, f in pairs])]
    work = tmp_path / "work"
    first = pivot_paraphrases([corpus], tmp_path / "a.tsv", PivotOptions(threshold=0.0, chunk_size=10),
                              work_dir=work, alignments=links, keep_work=True)
    other = PivotOptions(threshold=0.0, chunk_size=10, symmetrization="intersection", eflomal_model=1,
                         eflomal_iterations=2, align_chunk=7)
    again = pivot_paraphrases([corpus], tmp_path / "b.tsv", other, work_dir=work, alignments=links, keep_work=True)
    assert again.chunks == {"total": first.chunks["total"], "computed": 0, "reused": first.chunks["total"]}
    assert table_rows(tmp_path / "a.tsv") == table_rows(tmp_path / "b.tsv")  # (the header names the options)
    aligned = PivotOptions(threshold=0.0, chunk_size=10, symmetrization="intersection")
    pivot_paraphrases([corpus], tmp_path / "c.tsv", aligned, work_dir=tmp_path / "work2", keep_work=True)  # eflomal aligns
    with pytest.raises(ConfigurationError, match="restart"):
        pivot_paraphrases([corpus], tmp_path / "c.tsv", PivotOptions(threshold=0.0, chunk_size=10),
                          work_dir=tmp_path / "work2", keep_work=True)


def test_realignment_invalidates_extracted_chunks(tmp_path, no_eflomal):
    corpus = _toy_corpus(tmp_path, "c", _random_corpus(3, 30))
    work = tmp_path / "work"
    options = PivotOptions(threshold=0.0, chunk_size=10)
    pivot_paraphrases([corpus], tmp_path / "a.tsv", options, work_dir=work, keep_work=True)
    (work / "c0" / "align.txt").unlink()  # e.g. deleted by hand: must be redone with all after it
    report = pivot_paraphrases([corpus], tmp_path / "b.tsv", options, work_dir=work, keep_work=True)
    assert report.resumed_stages and not any("extract" in name for name in report.resumed_stages)
    assert (tmp_path / "a.tsv").read_text() == (tmp_path / "b.tsv").read_text()


def test_work_dir_of_other_run_is_refused_unless_restart(tmp_path, no_eflomal):
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    work = tmp_path / "work"
    pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(), work_dir=work, keep_work=True)
    with pytest.raises(ConfigurationError, match="restart"):  # other tokens: the alignment would go
        pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(tokenizer="whitespace"), work_dir=work, keep_work=True)
    report = pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(tokenizer="whitespace"), work_dir=work,
                               restart=True, keep_work=True)
    assert not report.resumed_stages and not report.recomputed_stages


def test_a_refused_work_dir_says_what_differs(tmp_path, no_eflomal):
    """'holds a run with other inputs or options' left the user to guess which of a dozen
    settings or files it meant; it now names each (an option with both values)."""
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    work = tmp_path / "work"
    pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(), work_dir=work, keep_work=True)
    with pytest.raises(ConfigurationError) as error:
        pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(max_length=3, tokenizer="whitespace"), work_dir=work, keep_work=True)
    assert ("holds a run with other inputs or options (tokenizer: 'regex' there, 'whitespace' now): use another "
            "--work-dir or --restart") in str(error.value)  # max_length would only recompute the chunks
    fr = _toy_corpus(tmp_path, "fr", TOY_FR)
    with pytest.raises(ConfigurationError, match=r"\(corpora: other files, or the same files changed since\)"):
        pivot_paraphrases([fr], tmp_path / "a.tsv", PivotOptions(), work_dir=work, keep_work=True)


def test_a_work_dir_of_tokens_split_by_other_code_is_not_reused(tmp_path, no_eflomal, monkeypatch):
    """A work directory's token files were reused whatever code had split them: after the regex
    tokenizer came to read text as it shows, a resumed run would have kept the old tokens (and an
    alignment of them). The reading's fingerprint now holds the tokenizers' version."""
    from paralign import pivot_work

    de = _toy_corpus(tmp_path, "de", TOY_DE)
    work = tmp_path / "work"
    pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(), work_dir=work, keep_work=True)
    monkeypatch.setattr(pivot_work, "TOKENS_VERSION", pivot_work.TOKENS_VERSION + 1)
    with pytest.raises(ConfigurationError, match=r"tokenizer_version: \d+ there, \d+ now\): use another --work-dir"):
        pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(), work_dir=work, keep_work=True)
    report = pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(), work_dir=work, restart=True, keep_work=True)
    assert not report.resumed_stages


def test_a_changed_extraction_option_reuses_the_alignment_and_recomputes_what_follows(tmp_path, monkeypatch):
    """--work-dir held one fingerprint of the whole run: changing only max_length (an extraction
    option) was refused without --restart, which threw the alignment away (eflomal cannot
    redo it). Each stage now has its own: the prepared corpus and its alignment are reused
    (the file untouched), the chunks and the summed pairs recomputed, and the table is a
    fresh run's; pruning recomputes the summed pairs alone; other tokens are still refused."""
    calls = []

    def counting(*args, **kwargs):
        calls.append(args)
        return fake_align_files(*args, **kwargs)

    monkeypatch.setattr(pivot, "align_files", counting)
    corpus = _toy_corpus(tmp_path, "c", _random_corpus(9, 40))
    work = tmp_path / "work"
    pivot_paraphrases([corpus], tmp_path / "a.parquet", PivotOptions(threshold=0.0, chunk_size=10), work_dir=work, keep_work=True)
    aligned = work / "c0" / "align.txt"
    stamp = (aligned.stat().st_mtime_ns, aligned.read_bytes())
    shorter = PivotOptions(threshold=0.0, chunk_size=10, max_length=3)
    again = pivot_paraphrases([corpus], tmp_path / "b.parquet", shorter, work_dir=work, keep_work=True)
    assert len(calls) == 1 and (aligned.stat().st_mtime_ns, aligned.read_bytes()) == stamp  # not aligned again
    assert {"c0/prepare", "c0/align"} <= set(again.resumed_stages)
    assert not any("extract" in stage for stage in again.resumed_stages)
    assert again.recomputed_stages == {"c0/extract": ["max_length: 5 there, 3 now"], "pairs": ["c0/extract recomputed"]}
    assert again.chunks == {"total": 4, "computed": 4, "reused": 0}
    pivot_paraphrases([corpus], tmp_path / "fresh.parquet", shorter, work_dir=tmp_path / "fresh", keep_work=True)
    assert table_rows(tmp_path / "b.parquet") == table_rows(tmp_path / "fresh.parquet") != []
    pruned = PivotOptions(threshold=0.0, chunk_size=10, max_length=3, min_translation_prob=0.05)
    report = pivot_paraphrases([corpus], tmp_path / "p.parquet", pruned, work_dir=work, keep_work=True)
    assert report.chunks["computed"] == 0
    assert report.recomputed_stages == {"pairs": ["min_translation_prob: 0.001 there, 0.05 now"]}
    pivot_paraphrases([corpus], tmp_path / "fresh-p.parquet", pruned, work_dir=tmp_path / "fresh-p", keep_work=True)
    assert table_rows(tmp_path / "p.parquet") == table_rows(tmp_path / "fresh-p.parquet") != []
    with pytest.raises(ConfigurationError, match=r"\(tokenizer: 'regex' there, 'whitespace' now\): use another"):
        pivot_paraphrases([corpus], tmp_path / "w.parquet", PivotOptions(tokenizer="whitespace"), work_dir=work, keep_work=True)
    assert [Path(call[0]).parent.parent for call in calls] == [work, tmp_path / "fresh", tmp_path / "fresh-p"]
    assert (aligned.stat().st_mtime_ns, aligned.read_bytes()) == stamp


@pytest.mark.parametrize("packed", [False, True], ids=["read-by-workers", "gzip-read-here"])
def test_a_changed_extraction_option_rereads_only_the_chunks_of_a_given_alignment(tmp_path, eflomal_forbidden,
                                                                                  packed):
    corpus, links = _given_corpus(tmp_path)
    if packed:
        zipped = [path.with_name(path.name + ".gz") for path in (*corpus, links)]
        for path, dest in zip((*corpus, links), zipped, strict=True):
            dest.write_bytes(gzip.compress(path.read_bytes()))
        corpus, links = (zipped[0], zipped[1]), zipped[2]
    work = tmp_path / "work"
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0)
    pivot_paraphrases([corpus], tmp_path / "a.tsv", options, alignments=[links], work_dir=work, keep_work=True)
    shorter = PivotOptions(threshold=0.0, min_translation_prob=0.0, max_length=2, chunk_size=2)
    again = pivot_paraphrases([corpus], tmp_path / "b.tsv", shorter, alignments=[links], work_dir=work, keep_work=True)
    assert again.recomputed_stages == {
        "c0/extract": ["chunk_size: 5000 there, 2 now", "max_length: 5 there, 2 now"],
        "pairs": ["c0/extract recomputed"],
    }
    assert ("c0/prepare" in again.resumed_stages) is packed  # the workers read a plain corpus with its chunks
    expected = {p: row for p, row in _reference([0, 1, 3, 4], max_length=2).items() if row}
    got = _rows(tmp_path / "b.tsv")
    assert got.keys() == expected.keys()
    for phrase, row in expected.items():
        assert got[phrase] == pytest.approx(row, rel=1e-5)


def test_a_monolingual_run_reuses_its_alignment_when_max_length_changes(tmp_path, monkeypatch):
    calls = []

    def counting(*args, **kwargs):
        calls.append(args)
        return fake_align_files(*args, **kwargs)

    monkeypatch.setattr(pivot, "align_files", counting)
    groups = _write(tmp_path / "groups.tsv", ["the man runs\tthe guy runs\ta man runs", "the man sits\tthe guy sits"])
    work = tmp_path / "work"
    monolingual_paraphrases(groups, tmp_path / "a.tsv", PivotOptions(threshold=0.0), work_dir=work, keep_work=True)
    again = monolingual_paraphrases(groups, tmp_path / "b.tsv", PivotOptions(threshold=0.0, max_length=1),
                                    work_dir=work, keep_work=True)
    assert len(calls) == 1 and {"mono/prepare", "mono/align"} <= set(again.resumed_stages)
    assert again.recomputed_stages == {"mono/extract": ["max_length: 5 there, 1 now"],
                                       "pairs": ["mono/extract recomputed"]}
    monolingual_paraphrases(groups, tmp_path / "c.tsv", PivotOptions(threshold=0.0, max_length=1), keep_work=True)
    assert table_rows(tmp_path / "b.tsv") == table_rows(tmp_path / "c.tsv") != []
    with pytest.raises(ConfigurationError, match=r"max_groups: None there, 1 now"):
        monolingual_paraphrases(groups, tmp_path / "d.tsv", PivotOptions(threshold=0.0), max_groups=1, work_dir=work, keep_work=True)


def test_a_work_dir_of_a_single_fingerprint_is_refused_or_replaced(tmp_path, no_eflomal):
    """run.json of an earlier version holds one fingerprint of the whole run, not its stages':
    nothing in it can be trusted stage by stage, so a named directory is refused (as a run with
    other options was) and the default one replaced."""
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    work = tmp_path / "work"
    work.mkdir()
    (work / "run.json").write_text('{"kind": "pivot", "options": {}}', encoding="utf-8")
    with pytest.raises(ConfigurationError, match="earlier version of paralign: use another --work-dir or --restart"):
        pivot_paraphrases([de], tmp_path / "a.tsv", work_dir=work)
    default = tmp_path / "b.tsv.work"
    default.mkdir()
    (default / "run.json").write_text('{"kind": "pivot", "options": {}}', encoding="utf-8")
    assert pivot_paraphrases([de], tmp_path / "b.tsv").rows > 0


def test_a_work_dir_read_when_max_tokens_counted_white_space_fields_is_not_resumed(tmp_path, no_eflomal):
    """max_tokens counted white-space fields when a corpus was read, tokens now (the tokens
    phrases are extracted from): the same options read other lines, so a prepared stage
    recorded before says so (its fingerprint lacks the rule) and is not reused."""
    import json

    de = _toy_corpus(tmp_path, "de", TOY_DE)
    work = tmp_path / "work"
    pivot_paraphrases([de], tmp_path / "a.tsv", work_dir=work, keep_work=True)
    record = json.loads((work / "run.json").read_text(encoding="utf-8"))
    del record["stages"]["c0/prepare"]["depends"]["max_tokens_of"]  # as an earlier run wrote it
    (work / "run.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"max_tokens_of: None there, 'tokens' now"):
        pivot_paraphrases([de], tmp_path / "b.tsv", work_dir=work)


def test_every_option_acts_on_one_stage():
    """Each PivotOptions field is in exactly one stage's options (a new field must say which
    stage it changes, or a work directory would reuse results it changed)."""
    from dataclasses import fields

    from paralign.pivot_input import STAGE_OPTIONS

    named = [name for names in STAGE_OPTIONS.values() for name in names]
    assert sorted(named) == sorted(field.name for field in fields(PivotOptions))


def test_corrupt_run_record_is_reported(tmp_path, no_eflomal):
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "run.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(FormatError, match=r"run\.json: corrupt run record"):
        pivot_paraphrases([de], tmp_path / "a.tsv", work_dir=tmp_path / "work")


# -- monolingual variant -----------------------------------------------------------------------
def test_monolingual_relative_frequency(tmp_path, monkeypatch):
    groups = _write(tmp_path / "groups.tsv", [
        "the man runs\tthe guy runs\ta man runs",
        "the man sits\tthe guy sits",
    ])

    def diagonal(source_path, target_path, output_path, **_options):
        with open(source_path) as src, open(target_path) as tgt, open(output_path, "w") as out:
            for a, b in zip(src, tgt, strict=True):
                n = min(len(a.split()), len(b.split()))
                out.write(" ".join(f"{i}-{i}" for i in range(n)) + "\n")
        return count_lines(source_path)

    monkeypatch.setattr(pivot, "align_files", diagonal)
    out = tmp_path / "mono.tsv"
    report = monolingual_paraphrases(groups, out, PivotOptions(threshold=0.0, max_length=1), keep_work=True)
    assert report.corpora[0] == {"alignment": {"kind": "computed", "aligner": "eflomal"}, "file": str(groups),
                                 "groups": 2, "pairs": 4,
                                 "sentences_too_long": 0, "pairs_filtered": 0, "skipped_rows": [], "chunks": 1}
    rows = {(p, q): (prob, extra) for p, q, prob, extra in iter_rows(out)}
    # word pairs (both directions): man-guy x3 (two from group 1, one from group 2), the-a x2,
    # man-man etc. are identical and dropped; guy-a? no: guy aligns to man in pair 2-3.
    assert rows["man", "guy"][0] == pytest.approx(1.0)
    assert rows["guy", "man"][1] == ["3", "3"]
    assert rows["the", "a"][0] == pytest.approx(1.0)
    for p, q in rows:
        assert p != q
    totals: dict[str, float] = {}
    for (p, _), (prob, _) in rows.items():
        totals[p] = totals.get(p, 0.0) + prob
    assert all(t == pytest.approx(1.0) for t in totals.values())
    # min_count only filters the output stage (the work directory is reused)
    again = monolingual_paraphrases(groups, out, PivotOptions(threshold=0.0, max_length=1, min_count=3), keep_work=True)
    assert again.resumed_stages
    assert {(p, q) for p, q, _, _ in iter_rows(out)} == {("man", "guy"), ("guy", "man")}
    # pivot's min_translation_prob has no effect on a monolingual table: it resumes too
    inert = monolingual_paraphrases(groups, out, PivotOptions(threshold=0.0, max_length=1, min_count=3,
                                                              min_translation_prob=0.5), keep_work=True)
    assert inert.resumed_stages == again.resumed_stages
    assert {(p, q) for p, q, _, _ in iter_rows(out)} == {("man", "guy"), ("guy", "man")}


def _gold_pair(pair_id: str, source: str, target: str, sure: str = "0-0") -> dict:
    return {"id": pair_id, "source": source, "target": target, "sureAlign": sure, "possibleAlign": ""}


GOLD_GROUPS = [_gold_pair("DOC.1.A", "the man runs", "the guy runs"), _gold_pair("DOC.1.B", "the man runs", "a man runs"),
               _gold_pair("DOC.2.A", "the man sits", "the guy sits")]


def test_a_bad_pair_of_json_groups_is_skipped_counted_and_resumed(tmp_path, no_eflomal):
    """A JSON groups file with one malformed link stopped the monolingual table (FormatError at
    its line) where `lattice stats` leaves the pair out. It is now left out and recorded as
    lattice records it (`skipped_rows`), and the other pairs give the table a file without it
    gives. The record is the prepare stage's, so a run killed after it resumes to the same
    table and the same skipped pair; a prepare record written before pairs were skipped (none
    in it: such a run stopped at a bad pair) resumes with none."""
    import json

    bad_pair = _gold_pair("DOC.1.C", "the man runs", "a guy runs", "0-0 1-x")
    clean, bad = tmp_path / "clean.json", tmp_path / "bad.json"
    clean.write_text(json.dumps(GOLD_GROUPS, indent=1), encoding="utf-8")
    bad.write_text(json.dumps([*GOLD_GROUPS[:2], bad_pair, GOLD_GROUPS[2]], indent=1), encoding="utf-8")
    options = PivotOptions(threshold=0.0, tokenizer="whitespace")
    work = tmp_path / "work"
    first = monolingual_paraphrases(bad, tmp_path / "a.tsv", options, work_dir=work, keep_work=True)
    assert first.corpora[0]["skipped_rows"] == [
        {"pair": 3, "id": "DOC.1.C", "file": str(bad), "line": 16,  # the pair's opening brace
         "reason": "malformed link '1-x' in pair 'DOC.1.C' (expected i-j)"}]
    assert (first.corpora[0]["groups"], first.corpora[0]["pairs"]) == (2, 4)
    reference = monolingual_paraphrases(clean, tmp_path / "c.tsv", options, work_dir=tmp_path / "clean-work", keep_work=True)
    assert table_rows(tmp_path / "a.tsv") == table_rows(tmp_path / "c.tsv") != []
    # killed after the prepare and align stages: the chunks and the summed pairs are redone
    shutil.rmtree(work / "mono" / "chunks")
    (tmp_path / "a.tsv").unlink()
    again = monolingual_paraphrases(bad, tmp_path / "a.tsv", options, work_dir=work, keep_work=True)
    assert {"mono/prepare", "mono/align"} <= set(again.resumed_stages) and again.chunks["computed"] == 1
    assert again.corpora == first.corpora
    assert table_rows(tmp_path / "a.tsv") == table_rows(tmp_path / "c.tsv")
    # the clean file's work directory as the code before this wrote it: no skipped_rows
    record = tmp_path / "clean-work" / "mono" / "prepare.json"
    old = json.loads(record.read_text(encoding="utf-8"))
    del old["skipped_rows"]
    record.write_text(json.dumps(old), encoding="utf-8")
    resumed = monolingual_paraphrases(clean, tmp_path / "d.tsv", options, work_dir=tmp_path / "clean-work", keep_work=True)
    assert "mono/prepare" in resumed.resumed_stages
    assert resumed.corpora == reference.corpora and reference.corpora[0]["skipped_rows"] == []
    assert table_rows(tmp_path / "d.tsv") == table_rows(tmp_path / "c.tsv")


def test_max_groups_reports_only_the_bad_pairs_of_the_groups_it_reads(tmp_path, no_eflomal):
    """monolingual_paraphrases(max_groups=N) (paraphrase-table --max-groups N) warned of and
    counted in skipped_rows the bad pairs of every group of a JSON file, those after the first
    N too, which it never used. Now only those of the groups read; the table is the one of the
    first N groups as before, and a run killed after the prepare stage resumes to the same
    table and the same skipped pairs. With N at least the number of groups, as with none."""
    import json

    bad_later = _gold_pair("DOC.2.C", "the man sits", "a guy sits", "0-0 1-x")
    bad_first = _gold_pair("DOC.1.C", "the man runs", "a guy runs", "0-0 2-y")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([*GOLD_GROUPS[:2], bad_first, GOLD_GROUPS[2], bad_later], indent=1), encoding="utf-8")
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps(GOLD_GROUPS, indent=1), encoding="utf-8")
    options = PivotOptions(threshold=0.0, tokenizer="whitespace")
    work = tmp_path / "work"
    first = monolingual_paraphrases(path, tmp_path / "a.tsv", options, max_groups=1, work_dir=work, keep_work=True)
    assert [row["id"] for row in first.corpora[0]["skipped_rows"]] == ["DOC.1.C"]
    assert (first.corpora[0]["groups"], first.corpora[0]["pairs"]) == (1, 3)
    reference = monolingual_paraphrases(clean, tmp_path / "c.tsv", options, max_groups=1, keep_work=True)
    assert table_rows(tmp_path / "a.tsv") == table_rows(tmp_path / "c.tsv") != []
    shutil.rmtree(work / "mono" / "chunks")  # killed after the prepare and align stages
    (tmp_path / "a.tsv").unlink()
    again = monolingual_paraphrases(path, tmp_path / "a.tsv", options, max_groups=1, work_dir=work, keep_work=True)
    assert "mono/prepare" in again.resumed_stages and again.corpora == first.corpora
    assert table_rows(tmp_path / "a.tsv") == table_rows(tmp_path / "c.tsv")
    assert reference.corpora[0]["skipped_rows"] == []
    every = monolingual_paraphrases(path, tmp_path / "e.tsv", options, keep_work=True)
    assert [row["id"] for row in every.corpora[0]["skipped_rows"]] == ["DOC.1.C", "DOC.2.C"]
    enough = monolingual_paraphrases(path, tmp_path / "n.tsv", options, max_groups=2, keep_work=True)
    assert enough.corpora[0]["skipped_rows"] == every.corpora[0]["skipped_rows"]


def test_monolingual_with_sultan_is_lazy_and_named(tmp_path, monkeypatch):
    pytest.importorskip("paralign.aligners.sultan")
    from paralign.alignment import Alignment

    class Fake:
        def align_many(self, pairs, workers=1):
            return [Alignment(sure={(0, 0)}) for _ in pairs]

    monkeypatch.setattr("paralign.aligners.sultan.Aligner", lambda: Fake())
    groups = _write(tmp_path / "g.tsv", ["big dog\tlarge dog"])
    out = tmp_path / "s.tsv"
    monolingual_paraphrases(groups, out, PivotOptions(threshold=0.0, max_length=1), aligner="sultan")
    assert {(p, q) for p, q, _, _ in iter_rows(out)} == {("big", "large"), ("large", "big")}
    with pytest.raises(ConfigurationError):
        monolingual_paraphrases(groups, out, aligner="giza")


def test_monolingual_bad_groups_file(tmp_path, monkeypatch):
    monkeypatch.setattr(pivot, "align_files", fake_align_files)
    groups = tmp_path / "g.tsv"
    groups.write_bytes(b"a b\tc b\nd \xff e\tf e\n")
    with pytest.raises(FormatError, match=r"g\.tsv:2: not UTF-8"):
        monolingual_paraphrases(groups, tmp_path / "o.tsv")
    assert not (tmp_path / "o.tsv").exists()


# -- parallel corpus reading: bad input --------------------------------------------------------
def test_different_line_counts_name_both_files(tmp_path):
    en = _write(tmp_path / "a.en", ["one", "two", "three"])
    de = _write(tmp_path / "a.de", ["eins", "zwei"])
    with pytest.raises(MismatchError) as info:
        list(iter_parallel(en, de))
    assert "a.en has 3 lines" in str(info.value) and "a.de has 2" in str(info.value)
    assert isinstance(info.value, ParalignError)


def test_empty_and_long_lines_are_skipped_counted_and_warned(tmp_path):
    en = _write(tmp_path / "b.en", ["a b", "", "c " * 20, "d"])
    de = _write(tmp_path / "b.de", ["x y", "z", "w", ""])
    stats = ParallelStats()
    with pytest.warns(ParallelCorpusWarning, match="1 of 4 line pairs kept"):
        kept = list(iter_parallel(en, de, max_tokens=10, stats=stats))
    assert [(k.line, k.source) for k in kept] == [(1, "a b")]
    assert (stats.empty, stats.too_long, stats.skipped_lines) == (2, 1, [2, 3, 4])
    kept_all = list(iter_parallel(en, de, max_tokens=10, keep_skipped=True, warn=False))
    assert len(kept_all) == 4 and kept_all[1].source == ""


def test_non_utf8_is_an_error_naming_file_and_line_or_replaced(tmp_path):
    en = tmp_path / "c.en"
    en.write_bytes(b"good\nbad \xff byte\n")
    de = _write(tmp_path / "c.de", ["gut", "schlecht"])
    with pytest.raises(FormatError, match=r"c\.en:2: not UTF-8"):
        list(iter_parallel(en, de))
    with pytest.warns(ParallelCorpusWarning, match="1 with non-UTF-8 bytes replaced"):
        kept = list(iter_parallel(en, de, errors="replace"))
    assert kept[1].source == "bad \ufffd byte"


def test_gzip_input_and_missing_file(tmp_path):
    with gzip.open(tmp_path / "g.en.gz", "wt") as handle:
        handle.write("hello\nworld")  # no final newline
    _write(tmp_path / "g.de", ["hallo", "welt"])
    assert [k.source for k in iter_parallel(tmp_path / "g.en.gz", tmp_path / "g.de")] == ["hello", "world"]
    with pytest.raises(InputFileError, match="no such file"):
        list(iter_parallel(tmp_path / "missing", tmp_path / "g.de"))


def test_pipeline_reports_bad_lines_and_goes_on(tmp_path, no_eflomal):
    en = _write(tmp_path / "d.en", ["car", "", "car", "automobile"])
    de = _write(tmp_path / "d.de", ["auto", "auto", "auto", "auto"])
    report = pivot_paraphrases([(en, de)], tmp_path / "d.tsv", PivotOptions(threshold=0.0))
    assert report.corpora[0]["empty"] == 1 and report.corpora[0]["kept"] == 3
    assert report.rows == 2


def test_options_are_validated():
    for bad in ({"max_length": 0}, {"chunk_size": 0}, {"symmetrization": "both"}, {"top_k": 0}):
        with pytest.raises(ConfigurationError):
            PivotOptions(**bad)
    for bad in ({"workers": 0}, {"memory_limit": "lots"}):
        with pytest.raises(ConfigurationError):
            ClusterOptions(**bad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PivotOptions()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"threshold": math.nan}, r"threshold must be a probability in \[0, 1\], got nan"),
        ({"threshold": -0.1}, "threshold must be"),
        ({"threshold": 1.5}, "threshold must be"),
        ({"min_count": 0}, "min_count must be at least 1, got 0"),
        ({"min_count": -1}, "min_count must be at least 1, got -1"),
        ({"max_length": 2.5}, r"max_length must be a whole number \(at least 1\), not float 2.5"),
        ({"top_k": math.nan}, "top_k must be a whole number"),
        ({"threshold": "0.1"}, r"threshold must be a probability in \[0, 1\], not .0.1."),
        ({"tokenizer": "nosuch"}, "unknown tokenizer 'nosuch': use one of regex, whitespace, moses"),
        ({"foreign_tokenizer": "nosuch"}, "unknown foreign_tokenizer 'nosuch'"),
        ({"encoding_errors": "nosuch"}, "encoding_errors must be 'strict' or 'replace', got 'nosuch'"),
        ({"eflomal_model": 4}, "eflomal_model must be 1, 2 or 3"),
        ({"eflomal_iterations": 0}, "eflomal_iterations None or >= 1"),
        ({"max_length_ratio": math.nan}, "max_length_ratio must be a number >= 1, got nan"),
    ],
)
def test_every_option_is_checked_when_the_options_are_made(bad, message):
    """API audit W7: these were accepted; threshold=nan then gave an empty table (p >= nan keeps
    no row), the others failed late in a worker or were read as another value."""
    with pytest.raises(ConfigurationError, match=message):
        PivotOptions(**bad)
    PivotOptions(threshold=0.0, min_count=1, tokenizer="moses", foreign_tokenizer="whitespace",
                 encoding_errors="replace", eflomal_model=1, eflomal_iterations=2, max_length_ratio=3.0)


# -- given alignments (--alignment): no eflomal, a reproducible table -----------------------------
# Hand-made: English and German, one Pharaoh line per corpus line (line 3 is empty on both sides).
GIVEN_EN = ["The car is red .", "A car .", "", "The automobile is red .", "The wagon is big ."]
GIVEN_DE = ["Das Auto ist rot .", "Ein Auto .", "", "Das Auto ist rot .", "Der Wagen ist gross ."]
GIVEN_LINKS = ["0-0 1-1 2-2 3-3 4-4", "0-0 1-1 2-2", "", "0-0 1-1 2-2 3-3 4-4", "0-0 1-1 2-2 3-3 4-4"]


def _given_corpus(tmp_path: Path, links: list[str] = GIVEN_LINKS) -> tuple[tuple[Path, Path], Path]:
    return ((_write(tmp_path / "g.en", GIVEN_EN), _write(tmp_path / "g.de", GIVEN_DE)),
            _write(tmp_path / "g.align", links))


def _reference(keep: list[int], max_length: int = 5) -> dict[str, dict[str, float]]:
    """The table straight from the formula, on the lines `keep` (0-based) with their given links."""
    items = []
    for k in keep:
        e, f = GIVEN_EN[k].lower().split(), GIVEN_DE[k].lower().split()
        links = [tuple(map(int, link.split("-"))) for link in GIVEN_LINKS[k].split()]
        items.append((e, f, links))
    table = pivot_in_memory([extract_counts(items, max_length)], threshold=0.0)
    return {e1: {e2: v[0] for e2, v in row.items()} for e1, row in table.items()}


def _rows(path: Path) -> dict[str, dict[str, float]]:
    got: dict[str, dict[str, float]] = {}
    for p, q, prob, _ in iter_rows(path):
        got.setdefault(p, {})[q] = prob
    return got


@pytest.fixture
def eflomal_forbidden(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("eflomal must not run when the alignment is given")

    monkeypatch.setattr(pivot, "align_files", refuse)


def test_the_work_folder_is_deleted_on_success_unless_kept_as_the_cli_does(tmp_path, eflomal_forbidden):
    """The library's default is the CLI's: `paralign pivot` deletes OUTPUT.work (or --work-dir)
    after success unless --keep-work; pivot_paraphrases kept it (keep_work=True), so a script
    left chunks beside every table it built."""
    corpus, links = _given_corpus(tmp_path)
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0)
    pivot_paraphrases([corpus], tmp_path / "a.tsv", options, alignments=[links])
    pivot_paraphrases([corpus], tmp_path / "b.tsv", options, alignments=[links], work_dir=tmp_path / "given")
    assert (tmp_path / "a.tsv").is_file() and not (tmp_path / "a.tsv.work").exists() and not (tmp_path / "given").exists()
    pivot_paraphrases([corpus], tmp_path / "c.tsv", options, alignments=[links], keep_work=True)
    assert (tmp_path / "c.tsv.work").is_dir()


def test_given_alignment_is_reproducible_and_equals_the_formula(tmp_path, eflomal_forbidden):
    corpus, links = _given_corpus(tmp_path)
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0)
    first = pivot_paraphrases([corpus], tmp_path / "a.tsv", options, alignments=[links], keep_work=False)
    pivot_paraphrases([corpus], tmp_path / "b.tsv", options, alignments=[links], keep_work=False)
    assert (tmp_path / "a.tsv").read_bytes() == (tmp_path / "b.tsv").read_bytes()
    expected = {p: row for p, row in _reference([0, 1, 3, 4]).items() if row}
    got = _rows(tmp_path / "a.tsv")
    assert got.keys() == expected.keys()
    for phrase, row in expected.items():
        assert got[phrase] == pytest.approx(row, rel=1e-5)
    assert got["car"]["automobile"] == pytest.approx(1 / 3, rel=1e-5)  # c(car, auto) = 2 of c(auto) = 3
    info = first.corpora[0]
    assert info["alignment"] == {
        "kind": "given", "file": str(links), "sha256": hashlib.sha256(links.read_bytes()).hexdigest(),
        "lines": 5, "bad_lines": 0, "errors": [], "linked_lines": 4, "ends_unlinked": 0, "outside_lines": 0,
    }
    assert (info["lines"], info["kept"], info["empty"]) == (5, 4, 1)


def test_given_alignment_bad_lines_are_skipped_and_reported(tmp_path, eflomal_forbidden):
    links = list(GIVEN_LINKS)
    links[1] = "0-0 1-x"  # not Pharaoh
    links[4] = "0-0 4-5"  # 5 German tokens: index 5 does not fit
    corpus, path = _given_corpus(tmp_path, links)
    report = pivot_paraphrases([corpus], tmp_path / "t.tsv", PivotOptions(threshold=0.0, min_translation_prob=0.0),
                               alignments=[path])
    given = report.corpora[0]["alignment"]
    assert given["bad_lines"] == 2 and report.corpora[0]["kept"] == 2
    assert given["errors"][0].startswith(f"{path}:2: malformed link '1-x'")
    assert given["errors"][1] == f"{path}:5: link 4-5 outside sentences of 5 and 5 tokens"
    expected = {p: row for p, row in _reference([0, 3]).items() if row}
    got = _rows(tmp_path / "t.tsv")
    assert got.keys() == expected.keys()
    for phrase, row in expected.items():
        assert got[phrase] == pytest.approx(row, rel=1e-5)


def test_given_alignment_with_another_line_count_names_both_files(tmp_path, eflomal_forbidden):
    corpus, path = _given_corpus(tmp_path, GIVEN_LINKS[:4])
    with pytest.raises(MismatchError, match=r"g\.align has 4 lines but corpus .*g\.en has 5"):
        pivot_paraphrases([corpus], tmp_path / "t.tsv", alignments=[path])
    assert not (tmp_path / "t.tsv").exists()
    with pytest.raises(ConfigurationError, match="one alignment per corpus"):
        pivot_paraphrases([corpus, corpus], tmp_path / "t.tsv", alignments=[path])


def test_given_and_computed_alignments_mix_and_the_file_is_part_of_the_fingerprint(tmp_path, no_eflomal):
    corpus, path = _given_corpus(tmp_path)
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    work = tmp_path / "work"
    report = pivot_paraphrases([corpus, de], tmp_path / "t.tsv", work_dir=work, alignments=[path, None], keep_work=True)
    assert [c["alignment"]["kind"] for c in report.corpora] == ["given", "computed"]
    _write(path, GIVEN_LINKS[:4] + ["0-0"])  # another alignment: the work directory is another run's
    with pytest.raises(ConfigurationError):
        pivot_paraphrases([corpus, de], tmp_path / "t.tsv", work_dir=work, alignments=[path, None], keep_work=True)


def test_monolingual_with_given_alignment(tmp_path, eflomal_forbidden):
    groups = _write(tmp_path / "groups.tsv", ["the man runs\tthe guy runs\ta man runs", "the man sits\tthe guy sits"])
    # the pairs formed: (the man runs, the guy runs), (the man runs, a man runs), (the guy runs, a man runs),
    # (the man sits, the guy sits); the third line is bad
    path = _write(tmp_path / "pairs.align", ["0-0 1-1 2-2", "0-0 1-1 2-2", "0-0 1-7", "0-0 1-1 2-2"])
    out = tmp_path / "mono.tsv"
    report = monolingual_paraphrases(groups, out, PivotOptions(threshold=0.0, max_length=1), aligner="sultan",
                                     alignment=path)
    info = report.corpora[0]
    assert (info["groups"], info["pairs"], info["alignment"]["bad_lines"]) == (2, 3, 1)
    assert info["alignment"]["errors"] == [f"{path}:3: link 1-7 outside sentences of 3 and 3 tokens"]
    rows = {(p, q): extra for p, q, _, extra in iter_rows(out)}
    assert rows["man", "guy"] == ["2", "2"] and rows["the", "a"] == ["1", "1"]
    _write(path, ["0-0"] * 3)
    with pytest.raises(MismatchError, match=r"pairs\.align has 3 lines but the groups of .*groups\.tsv form 4"):
        monolingual_paraphrases(groups, tmp_path / "m2.tsv", alignment=path)


def test_monolingual_sultan_alignment_runs_on_the_pipelines_own_cluster(tmp_path, monkeypatch, on_dask):
    """The Sultan aligner's batches go to the cluster the pipeline connected to: one connection
    for the whole command (it used to start a second local cluster for the alignment)."""
    pytest.importorskip("paralign.aligners.sultan")
    import paralign.cluster
    from paralign.alignment import Alignment
    from paralign.cluster import ClusterOptions
    from paralign.workers import iter_chunk_results

    seen = []

    class Fake:
        def align_many(self, pairs, workers=1):
            seen.append(workers)
            chunks = iter_chunk_results(sorted, pairs, lambda chunk, why: [], workers=workers, chunk_size=1)
            return [Alignment(sure={(0, 0)}) for chunk in chunks for _ in chunk]

    real = paralign.cluster.connect
    connections = []

    def counted(*args, **kwargs):
        connections.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(paralign.cluster, "connect", counted)
    monkeypatch.setattr("paralign.aligners.sultan.Aligner", lambda: Fake())
    groups = _write(tmp_path / "g.tsv", ["big dog\tlarge dog", "a cat\tthe cat", "one\ttwo"])
    out = tmp_path / "s.tsv"
    monolingual_paraphrases(groups, out, PivotOptions(threshold=0.0, max_length=1), aligner="sultan",
                            cluster=ClusterOptions(workers=2))
    assert seen == [2] and len(connections) == 1
    assert ("big", "large") in {(p, q) for p, q, _, _ in iter_rows(out)}


# -- given alignments in plain files: the workers read the corpus chunk by chunk ---------------------
def _messy_given_corpus(tmp_path: Path, lines: int = 90) -> tuple[tuple[Path, Path], Path]:
    """A corpus with every kind of bad line, spread over many chunks: empty and over-long
    pairs, bytes that are not UTF-8, CRLF ends, pairs the length ratio drops, and more bad
    alignment lines than a report keeps (KEPT_ERRORS); no final newline."""
    rng = random.Random(5)
    en, de, links = [], [], []
    for k in range(lines):
        n = rng.randint(1, 6)
        e = " ".join(rng.choice(["a", "the", "dog", "cat", "runs", "big"]) for _ in range(n))
        f = " ".join(rng.choice(["ein", "der", "hund", "katze", "rennt", "gross"]) for _ in range(n))
        link = " ".join(f"{i}-{i}" for i in range(n) if rng.random() < 0.8)
        kind = k % 9
        if kind == 1:
            e = ""
        elif kind == 2:
            f = "lang " * 40
        elif kind == 3:
            link = f"0-{n + 3}"  # outside the sentence
        elif kind == 4:
            link = "0-x"  # not Pharaoh
        elif kind == 5:
            e = e + " \udcff"  # a byte that is not UTF-8 (written below as 0xff)
        elif kind == 6:
            e, f = e + "\r", f + "\r"
        elif kind == 7:
            f = "x " * 4 * n  # dropped by the length ratio
        en.append(e)
        de.append(f)
        links.append(link)
    paths = []
    for name, text in (("en", en), ("de", de), ("align", links)):
        path = tmp_path / f"m.{name}"
        path.write_bytes("\n".join(text).encode("utf-8", "surrogateescape"))
        paths.append(path)
    return (paths[0], paths[1]), paths[2]


def test_a_corpus_read_by_the_workers_gives_the_table_and_report_read_in_the_command(tmp_path, eflomal_forbidden):
    """Plain files are read by the workers in chunks (pivot.read_on_workers), gzip files in the
    command: the same table (probabilities within 1e-9) and the same counts, bad lines and
    kept messages, in file order."""
    (en, de), links = _messy_given_corpus(tmp_path)
    zipped = []
    for path in (en, de, links):
        zipped.append(tmp_path / (path.name + ".gz"))
        zipped[-1].write_bytes(gzip.compress(path.read_bytes()))
    assert pivot.read_on_workers((en, de), links) and not pivot.read_on_workers(tuple(zipped[:2]), zipped[2])
    assert not pivot.read_on_workers((en, de), links, local={str(en)})  # a copy of stdin: only here
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0, chunk_size=4, max_tokens=30,
                           max_length_ratio=3.0, encoding_errors="replace")
    plain = pivot_paraphrases([(en, de)], tmp_path / "p.parquet", options, alignments=[links])
    packed = pivot_paraphrases([tuple(zipped[:2])], tmp_path / "z.parquet", options, alignments=[zipped[2]])
    rows = table_rows(tmp_path / "p.parquet")
    assert rows
    assert_same_rows(rows, table_rows(tmp_path / "z.parquet"))  # other chunks: sums in another order
    got, expected = plain.corpora[0], packed.corpora[0]
    assert got["chunks"] == 23 and got["alignment"]["kind"] == "given"
    for key in ("lines", "kept", "empty", "too_long", "replaced", "filtered"):
        assert got[key] == expected[key], key
    assert (got["lines"], got["empty"], got["too_long"], got["replaced"], got["filtered"]) == (90, 10, 10, 10, 10)
    bad = got["alignment"]
    assert bad["bad_lines"] == expected["alignment"]["bad_lines"] == 20
    assert len(bad["errors"]) == 20
    assert [e.replace(str(links), "F") for e in bad["errors"]] == \
        [e.replace(str(zipped[2]), "F") for e in expected["alignment"]["errors"]]
    assert bad["errors"][0].startswith(f"{links}:4: link 0-")  # line numbers of the whole file


def test_a_worker_reading_a_bad_byte_names_the_file_and_its_first_bad_line(tmp_path, eflomal_forbidden):
    """With bad bytes in many chunks, the error names the first bad line of the file (by its
    number in the whole file), whichever chunk's task fails first: two workers, twice."""
    (en, de), links = _messy_given_corpus(tmp_path)
    for run in range(2):
        with pytest.raises(FormatError, match=r"m\.en:6: not UTF-8 \(byte 0xff"):  # lines 6, 15, 24, ... hold one
            pivot_paraphrases([(en, de)], tmp_path / "t.parquet", PivotOptions(chunk_size=4), alignments=[links],
                               cluster=ClusterOptions(workers=2), work_dir=tmp_path / f"w{run}")
    assert not (tmp_path / "t.parquet").exists()


def test_a_corpus_read_by_the_workers_checks_its_line_counts_first(tmp_path, eflomal_forbidden):
    corpus, path = _given_corpus(tmp_path)
    _write(corpus[1], GIVEN_DE[:4])
    with pytest.raises(MismatchError, match=r"g\.en has 5 lines, .*g\.de has 4"):
        pivot_paraphrases([corpus], tmp_path / "t.tsv", alignments=[path])
    empty = (_write(tmp_path / "e.en", []), _write(tmp_path / "e.de", []))
    with pytest.raises(FormatError, match="no usable line pair"):
        pivot_paraphrases([empty], tmp_path / "t.tsv", alignments=[_write(tmp_path / "e.align", [])])


def test_a_corpus_of_only_bad_alignment_lines_says_why_and_where(tmp_path, eflomal_forbidden):
    """With every alignment line out of range (a 1-based file, say), the error said only "5
    lines, all empty, over-long, filtered by length ratio or with a bad alignment line": the
    per-line warnings come with a finished table, so nothing said which reason or which line.
    Links past their tokens also ask whether they were written for other tokens (word-align
    --tokenizer regex read by pivot --tokenizer whitespace gives every line such a link)."""
    corpus, links = _given_corpus(tmp_path, ["9-9"] * 5)
    with pytest.raises(FormatError) as refused:
        pivot_paraphrases([corpus], tmp_path / "t.tsv", alignments=[links])
    message = str(refused.value)
    assert "5 lines: 1 empty, 0 over-long, 0 filtered by length ratio, 4 with a bad alignment line" in message
    assert message.endswith(f"(the first: {links}:1: link 9-9 outside sentences of 5 and 5 tokens); 4 of them "
                            "with a link past their tokens: were the links written for other tokens (another --tokenizer)?")


def test_relative_paths_reach_workers_started_in_another_folder(tmp_path, monkeypatch, no_eflomal):
    """A cluster's workers run in their own folder (the shared cluster's, here the folder pytest
    started in), not the command's: relative input, alignment and work paths were opened there
    ('s.en: no such file', 'relw/c0/en.tok: No such file or directory'). They are made absolute
    before any task leaves; reports and errors still name them as given."""
    corpus, links = _given_corpus(tmp_path)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    relative = (Path("..") / corpus[0].name, Path("..") / corpus[1].name)
    given = Path("..") / links.name
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0, chunk_size=2)
    report = pivot_paraphrases([relative], "t.tsv", options, alignments=[given], work_dir="relw")
    assert report.corpora[0]["alignment"]["file"] == str(given)
    expected = pivot_paraphrases([corpus], tmp_path / "a.tsv", options, alignments=[links])
    assert report.rows == expected.rows > 0
    computed = pivot_paraphrases([relative], "c.tsv", options, work_dir="relw2")  # eflomal's files: in the work dir
    assert computed.rows > 0
    bad = list(GIVEN_LINKS)
    bad[1] = "0-0 1-x"
    _write(links, bad)
    report = pivot_paraphrases([relative], "b.tsv", options, alignments=[given], work_dir="relw3")
    assert report.corpora[0]["alignment"]["errors"][0].startswith(f"{given}:2: malformed link")
    corpus[0].write_bytes(corpus[0].read_bytes().replace(b"A car", b"A \xffcar"))
    with pytest.raises(FormatError) as error:
        pivot_paraphrases([relative], "e.tsv", options, alignments=[given], work_dir="relw4")
    assert str(error.value).startswith(f"{relative[0]}:2: not UTF-8") and error.value.source == str(relative[0])


def test_a_worker_names_a_file_as_given_even_when_another_path_holds_its_path(tmp_path, monkeypatch, no_eflomal):
    """A worker's messages were written with absolute paths and then rewritten into the names
    the user gave by replacing text: an alignment given as /x/g.en.align beside an English
    file given as ../g.en (absolute /x/g.en, a prefix of it) came back as '../g.en.align', a
    file the user never named. The readers now name each file as given while they read."""
    corpus, _ = _given_corpus(tmp_path)
    bad = list(GIVEN_LINKS)
    bad[1] = "0-0 1-x"
    links = _write(tmp_path / "g.en.align", bad)  # its absolute path starts with g.en's
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    relative = (Path("..") / corpus[0].name, Path("..") / corpus[1].name)
    assert pivot.read_on_workers(relative, links)
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0, chunk_size=2)
    report = pivot_paraphrases([relative], "t.tsv", options, alignments=[links], work_dir="w")
    assert report.corpora[0]["alignment"]["errors"] == [f"{links}:2: malformed link '1-x' (expected i-j, i?j or ipj)"]
    corpus[0].write_bytes(corpus[0].read_bytes().replace(b"A car", b"A \xffcar"))
    with pytest.raises(FormatError) as error:  # an error raised on the worker, named as given
        pivot_paraphrases([relative], "e.tsv", options, alignments=[links], work_dir="w2")
    assert str(error.value).startswith(f"{relative[0]}:2: not UTF-8") and error.value.source == str(relative[0])


def test_reading_and_eflomal_show_progress(tmp_path, monkeypatch):
    """Reading a corpus and eflomal's run showed nothing (on 29,000 lines of Multi30k two
    thirds of the command's time passed in silence, before the first bar, 'extract'); each now
    runs inside a progress step: 'prepare pairs' (counting lines) and 'align (eflomal)'."""
    log: list = []

    def recording(items, desc="", total=None):
        log.append(("start", desc))
        for item in items:
            log.append(("item", desc))
            yield item
        log.append(("end", desc))

    def aligning(*args, **kwargs):
        log.append(("eflomal", ""))
        return fake_align_files(*args, **kwargs)

    monkeypatch.setattr(pivot, "align_files", aligning)
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    pivot_paraphrases([de], tmp_path / "a.tsv", PivotOptions(), progress=recording)
    assert log.index(("start", "align (eflomal)")) < log.index(("eflomal", "")) < log.index(("end", "align (eflomal)"))
    assert log.count(("item", "prepare pairs")) == len(TOY_DE)
    assert log.index(("end", "prepare pairs")) < log.index(("start", "align (eflomal)")) < log.index(("start", "extract"))
    log.clear()
    groups = _write(tmp_path / "groups.tsv", ["the man runs\tthe guy runs"])
    monolingual_paraphrases(groups, tmp_path / "m.tsv", PivotOptions(), progress=recording)
    assert log.index(("start", "align (eflomal)")) < log.index(("eflomal", "")) < log.index(("end", "align (eflomal)"))


def test_monolingual_report_counts_what_max_tokens_and_the_length_ratio_left_out(tmp_path, no_eflomal):
    """A group's sentence over --max-tokens and a pair over --max-length-ratio were left out
    without a count: the report said only 'groups: 2, pairs: 1'. It now counts both, as pivot's
    report counts its over-long and filtered line pairs."""
    groups = _write(tmp_path / "groups.tsv", [
        "the man runs\tthe guy runs\ta man who is very tall runs very fast today",  # the third: 10 tokens
        "the man sits\ta man sits down on the big chair",  # 3 and 9 tokens: ratio 3
    ])
    options = PivotOptions(threshold=0.0, max_tokens=9, max_length_ratio=2.0)
    report = monolingual_paraphrases(groups, tmp_path / "m.tsv", options)
    info = report.corpora[0]
    assert (info["groups"], info["pairs"], info["sentences_too_long"], info["pairs_filtered"]) == (1, 1, 1, 1)


def test_a_work_dir_of_an_earlier_version_still_resumes(tmp_path, eflomal_forbidden):
    """A chunk read by a worker records what reading counted in its file; one written before
    those records held linked_lines, ends_unlinked and outside_lines is still read (counted as 0), not a
    KeyError, when a run resumes."""
    import json as json_module

    import pyarrow.parquet as pq

    (en, de), links = _messy_given_corpus(tmp_path)
    options = PivotOptions(threshold=0.0, min_translation_prob=0.0, chunk_size=4, max_tokens=30,
                           max_length_ratio=3.0, encoding_errors="replace")
    work = tmp_path / "work"
    first = pivot_paraphrases([(en, de)], tmp_path / "a.parquet", options, alignments=[links], work_dir=work, keep_work=True)
    for path in (work / "c0" / "chunks").glob("*.parquet"):
        table = pq.read_table(path)
        metadata = dict(table.schema.metadata)
        read = json_module.loads(metadata[pivot.READ_KEY])
        del read["linked"], read["ends_unlinked"], read["outside"]
        metadata[pivot.READ_KEY] = json_module.dumps(read).encode()
        pq.write_table(table.replace_schema_metadata(metadata), path)
    again = pivot_paraphrases([(en, de)], tmp_path / "a.parquet", options, alignments=[links], work_dir=work, keep_work=True)
    assert again.chunks["reused"] == again.chunks["total"] == first.chunks["total"]
    assert again.corpora[0]["alignment"]["linked_lines"] == again.corpora[0]["alignment"]["outside_lines"] == 0


@pytest.mark.parametrize(("call", "message"), [
    (lambda out: pivot_paraphrases("en.txt", out), "corpora must be a list of .english, foreign. path pairs, not str"),
    (lambda out: pivot_paraphrases([("en.txt",)], out), r"corpora: item 1 is \('en.txt',\), not a .english, foreign. path pair"),
    (lambda out: pivot_paraphrases([("en.txt", "de.txt")], out, "msa"), "options must be a PivotOptions .* not str 'msa'"),
    (lambda out: monolingual_paraphrases("groups.json", out, {"max_length": 3}), "options must be a PivotOptions"),
])
def test_corpora_and_options_of_the_wrong_shape_are_input_type_errors(tmp_path, call, message):
    """API audit: one str or a 1-tuple as the corpora was 'not enough values to unpack' from
    the work directory's fingerprint; options given as a str or dict failed as an
    AttributeError once the corpora had been read. Both are named before any file is read."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=message):
        call(tmp_path / "t.tsv")


@pytest.mark.parametrize("max_groups", [0, -1, 2.5])
def test_max_groups_below_one_is_a_configuration_error(tmp_path, max_groups):
    """API audit: max_groups=-1 was islice's ValueError, 0 'no sentence pair in FILE', a reason
    about the file; checked before the groups file is read."""
    with pytest.raises(ConfigurationError, match="max_groups must be"):
        monolingual_paraphrases(tmp_path / "missing.json", tmp_path / "t.tsv", max_groups=max_groups)


def test_an_output_no_table_can_be_written_to_is_refused_before_any_work(tmp_path, monkeypatch):
    """pivot_paraphrases([(en, de)], "/tmp") read, aligned and counted the whole corpus and only
    then failed to write (IsADirectoryError); now the output is checked first, as the command's
    -o is, and a missing folder is still made."""
    from paralign.errors import ConfigurationError

    def refuse(*_args, **_kwargs):
        raise AssertionError("the work started before the output was checked")

    monkeypatch.setattr(pivot, "align_files", refuse)
    de = _toy_corpus(tmp_path, "de", TOY_DE)
    (tmp_path / "file").write_text("x")
    for output, said in ((tmp_path, "is a directory, expected a file name"),
                         (tmp_path / "file" / "t.tsv", "file is a file, not a folder")):
        with pytest.raises(ConfigurationError, match=f"^{re.escape(str(output))}: .*{said}$"):
            pivot_paraphrases([de], output)
        with pytest.raises(ConfigurationError, match=said):
            monolingual_paraphrases(_write(tmp_path / "g.tsv", ["the car\tthe automobile"]), output)
    assert not list(tmp_path.glob("*.work"))
    monkeypatch.setattr(pivot, "align_files", fake_align_files)
    pivot_paraphrases([de], tmp_path / "new" / "folder" / "t.tsv", PivotOptions(threshold=0.0))
    assert (tmp_path / "new" / "folder" / "t.tsv").is_file()


def test_a_table_is_the_same_to_the_last_bit_whatever_the_chunking(tmp_path, no_eflomal):
    """Pivot probabilities are sums whose terms arrive in an order set by the chunks and
    partitions; summed as floats, the same corpora gave last-digit differences with another
    --chunk-size. Summed in fixed point (pivot_frames.fixed_point_scale), they are exact in any
    order: two corpora, chunks of 3, 11 and 200 lines, identical rows."""
    corpora = [_toy_corpus(tmp_path, name, _random_corpus(seed, 150)) for name, seed in (("a", 11), ("b", 12))]
    tables = []
    for chunk in (3, 11, 200):
        out = tmp_path / f"t{chunk}.parquet"
        options = PivotOptions(threshold=0.0, chunk_size=chunk, max_length=3, min_translation_prob=0.0)
        pivot_paraphrases(corpora, out, options, work_dir=tmp_path / f"work{chunk}")
        tables.append(pq.read_table(out).to_pylist())
    assert tables[0] and tables[1] == tables[0] and tables[2] == tables[0]
