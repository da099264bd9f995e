"""Table files: Parquet and TSV written atomically with the same rows, read and queried alike."""

from __future__ import annotations

import re
import uuid

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError, FormatError
from paralign.paraphrases import load_source
from paralign.tables import (
    TableWriter,
    headed,
    iter_rows,
    lookup,
    metadata_line,
    read_metadata,
    row_lines,
    score_column,
)

SCHEMA = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64()),
                    ("pivots", pa.int64()), ("support", pa.int64())])
ROWS = [("a car", "an auto", 1 / 3, 2, 5), ("a car", "a wagon", 0.1, 1, 1), ("big", "large", 0.7, 3, 9)]


def _write(path, parts=(ROWS[:2], ROWS[2:])):
    with TableWriter(path, SCHEMA, {"kind": "test"}) as writer:
        for part in parts:
            writer.write(pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in part],
                                              schema=SCHEMA))
    return path


@pytest.mark.parametrize("name", ["t.parquet", "t.tsv", "t.tsv.gz"])
def test_every_format_holds_the_same_rows_and_metadata(tmp_path, name):
    path = _write(tmp_path / name)
    got = [(p, q, prob, *map(int, extra)) for p, q, prob, extra in iter_rows(path)]
    assert got == ROWS  # TSV floats are exact reprs
    assert read_metadata(path) == {"kind": "test"}
    found = lookup(path, ["a car", "none"], top_k=1)
    assert found == {"a car": [{"paraphrase": "an auto", "probability": 1 / 3, "pivots": 2, "support": 5}],
                     "none": []}
    assert load_source(str(path)).paraphrases("big") == {"large": 0.7}
    assert load_source(f"{path}:0.5").paraphrases("a car") == {}


def test_a_failed_write_leaves_nothing(tmp_path):
    with pytest.raises(RuntimeError), TableWriter(tmp_path / "t.parquet", SCHEMA) as writer:
        writer.write(SCHEMA.empty_table())
        raise RuntimeError("killed")
    assert list(tmp_path.iterdir()) == []


def test_bad_files_are_format_errors_naming_them(tmp_path):
    (tmp_path / "bad.tsv").write_text("# phrase\tparaphrase\tprobability\na\tb\tnot-a-number\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.tsv:2: bad table row"):
        list(iter_rows(tmp_path / "bad.tsv"))
    (tmp_path / "bad.parquet").write_text("not parquet", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.parquet: not a Parquet table"):
        lookup(tmp_path / "bad.parquet", ["a"])


def test_tsv_parts_encoded_elsewhere_concatenate_into_one_readable_table(tmp_path) -> None:
    """Parts encoded by tsv_bytes (on workers) and appended as bytes give the file write() gives,
    gzip members included; a Parquet table takes no encoded bytes."""
    import gzip

    from paralign.tables import tsv_bytes

    schema = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64())])
    parts = [pa.table({"phrase": ["a", "a"], "paraphrase": ["b", "c"], "probability": [0.1, 1 / 3]}, schema=schema),
             pa.table({"phrase": ["d"], "paraphrase": ["e f"], "probability": [1e-05]}, schema=schema)]
    for name in ("t.tsv", "t.tsv.gz"):
        direct, encoded = tmp_path / ("direct-" + name), tmp_path / ("encoded-" + name)
        with TableWriter(direct, schema) as writer:
            for part in parts:
                writer.write(part)
        with TableWriter(encoded, schema) as writer:
            for part in parts:
                writer.write_encoded(tsv_bytes(part, schema, gzip=name.endswith(".gz")), part.num_rows)
            assert writer.rows == 3
        assert encoded.read_bytes() == direct.read_bytes()
        assert [row[:3] for row in iter_rows(encoded)] == [("a", "b", 0.1), ("a", "c", 1 / 3), ("d", "e f", 1e-05)]
    assert gzip.decompress((tmp_path / "encoded-t.tsv.gz").read_bytes()).decode().count("\n") == 5
    assert tsv_bytes(parts[0].slice(0, 0), schema, gzip=True) == b""
    with TableWriter(tmp_path / "t.parquet", schema) as writer, pytest.raises(TypeError):
        writer.write_encoded(b"a\tb\t0.5\n", 1)


def test_a_row_with_too_few_fields_says_how_many_it_has(tmp_path) -> None:
    path = tmp_path / "short.tsv"
    path.write_text("a man\ta guy\t0.5\na man\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        list(iter_rows(path))
    assert str(info.value) == (f"{path}:2: bad table row (1 TAB-separated field; expected at least 3: "
                               "phrase, paraphrase, score)")
    path.write_text("a man\ta guy\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"short\.tsv:1: bad table row \(2 TAB-separated fields; expected"):
        list(iter_rows(path))


def test_a_row_of_one_field_in_a_users_table_says_two_are_enough(tmp_path) -> None:
    """Where a row without a score is read (`unscored`: `paraphrases --table` of a user's TSV),
    a row of one field said 'expected at least 3: phrase, paraphrase, probability', though
    `phrase TAB paraphrase` is a row there; it says two, the score optional, now."""
    path = tmp_path / "short.tsv"
    path.write_text("a man\ta guy\na man\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        list(iter_rows(path, unscored=True))
    assert str(info.value) == (f"{path}:2: bad table row (1 TAB-separated field; expected at least 2: "
                               "phrase, paraphrase, and a score if scored)")


def _scan(path, phrases):
    """What a lookup must find: every row of `phrases`, by reading the whole file."""
    found = {phrase: [] for phrase in phrases}
    for phrase, paraphrase, probability, _ in iter_rows(path):
        if phrase in found:
            found[phrase].append((paraphrase, probability))
    return {phrase: sorted(rows, key=lambda row: (-row[1], row[0])) for phrase, rows in found.items()}


@pytest.mark.parametrize("layout", ["sorted", "shuffled", "no statistics", "large strings", "dictionary"])
def test_a_parquet_lookup_finds_what_a_scan_finds_in_any_row_group_layout(tmp_path, layout) -> None:
    """Row groups are chosen by their phrase statistics: right for sorted files (the pipelines'),
    for unsorted ones (groups' ranges overlap), for files written without statistics, and for
    phrase columns of other writers' string types."""
    import random

    import pyarrow.parquet as pq

    rng = random.Random(7)
    rows = [{"phrase": f"p{rng.randrange(40):02d}", "paraphrase": f"q{k}", "probability": rng.random(),
             "pivots": 1, "support": 1} for k in range(300)]
    if layout != "shuffled":
        rows.sort(key=lambda row: row["phrase"])
    path = tmp_path / "t.parquet"
    table = pa.Table.from_pylist(rows, schema=SCHEMA)
    if layout == "large strings":
        table = table.cast(pa.schema([pa.field("phrase", pa.large_string()), *list(SCHEMA)[1:]]))
    if layout == "dictionary":
        table = table.set_column(0, "phrase", table["phrase"].dictionary_encode())
    pq.write_table(table, path, row_group_size=16, write_statistics=layout != "no statistics")
    assert pq.read_schema(path).field("phrase").type == table.schema.field("phrase").type
    phrases = ["p00", "p17", "p39", "p5", "absent", "p17"]
    got = {phrase: [(row["paraphrase"], row["probability"]) for row in found]
           for phrase, found in lookup(path, phrases).items()}
    assert got == _scan(path, list(dict.fromkeys(phrases)))
    assert sum(map(len, got.values())) > 0


def _groups_read(path, monkeypatch, row_group_size: int) -> list[list[int]]:
    """A Parquet table at `path` of 100 phrases (p000...p099) of 10 rows each, in row groups of
    `row_group_size` rows; and the row groups each read_row_groups call reads, as lookups run."""
    import pyarrow.parquet as pq

    rows = [{"phrase": f"p{k // 10:03d}", "paraphrase": f"q{k}", "probability": 0.5, "pivots": 1, "support": 1}
            for k in range(1000)]
    pq.write_table(pa.Table.from_pylist(rows, schema=SCHEMA), path, row_group_size=row_group_size)
    read: list[list[int]] = []
    original = pq.ParquetFile.read_row_groups
    monkeypatch.setattr(pq.ParquetFile, "read_row_groups",
                        lambda self, groups, *a, **k: read.append(list(groups)) or original(self, groups, *a, **k))
    return read


def test_a_parquet_lookup_reads_only_the_row_groups_that_can_hold_the_phrase(tmp_path, monkeypatch) -> None:
    path = tmp_path / "t.parquet"
    read = _groups_read(path, monkeypatch, 100)
    assert len(lookup(path, ["p042"])["p042"]) == 10
    assert read == [[4]]
    assert lookup(path, ["p999"]) == {"p999": []}
    assert read == [[4]]  # a phrase outside every group's range reads nothing


def test_many_phrases_read_a_parquet_table_a_few_row_groups_at_a_time(tmp_path, monkeypatch) -> None:
    """Audit: every row group that could hold one of the phrases was read in one call, so 3,000
    phrases (`paraphrases --phrases`) held a whole 3-million-row table in memory (423 MB; 10 GB
    tables hold a billion rows), where a few groups at a time give the same answer (240 MB)."""
    from paralign import tables

    path = tmp_path / "t.parquet"
    read = _groups_read(path, monkeypatch, 50)
    phrases = [f"p{k:03d}" for k in range(0, 100, 3)]
    found = lookup(path, phrases)
    assert all(len(found[phrase]) == 10 for phrase in phrases)
    assert sorted(g for groups in read for g in groups) == list(range(20))  # each group read once
    assert max(map(len, read)) < 20  # all 20 groups were read in one call
    assert max(map(len, read)) <= tables.GROUPS_AT_ONCE


def test_a_parquet_table_without_a_phrase_column_is_a_format_error(tmp_path) -> None:
    """One column: no table, said as a scan says it (tests/test_table_parquet.py: the columns by position)."""
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"word": ["a"]}), tmp_path / "other.parquet")
    with pytest.raises(FormatError, match=r"other\.parquet: not a paraphrase table: no paraphrase column \(1 column"):
        lookup(tmp_path / "other.parquet", ["a"])


def test_a_parquet_table_written_again_is_read_again(tmp_path) -> None:
    """The footer is kept while the file stays the same; a table written over it (atomically,
    as every writer here does) is read anew."""
    path = _write(tmp_path / "t.parquet")
    assert [row["paraphrase"] for row in lookup(path, ["big"])["big"]] == ["large"]
    _write(path, parts=([("big", "huge", 0.9, 1, 1)],))
    assert [row["paraphrase"] for row in lookup(path, ["big"])["big"]] == ["huge"]
    assert read_metadata(path) == {"kind": "test"}


def test_lookup_refuses_one_str_of_phrases(tmp_path) -> None:
    """API audit W3: lookup(path, "a man") looked up 'a', ' ', 'm', 'n' and found nothing."""
    from paralign.errors import InputTypeError
    from paralign.pivot import top_paraphrases

    path = tmp_path / "t.tsv"
    path.write_text("a man\ta guy\t0.5\n", encoding="utf-8")
    with pytest.raises(InputTypeError, match="phrases must be a list of strings, not one str"):
        lookup(path, "a man")
    with pytest.raises(InputTypeError, match="phrases must be a list of strings"):
        top_paraphrases(path, "a man")
    assert lookup(path, ["a man"]) == {"a man": [{"paraphrase": "a guy", "score": 0.5}]}  # no header names it


@pytest.mark.parametrize(("top_k", "message"), [
    (0, "top_k must be at least 1, got 0"), (-1, "top_k must be at least 1, got -1"),
    (2.5, r"top_k must be a whole number \(at least 1\), not float 2\.5"),
    (1.0, r"top_k must be a whole number \(at least 1\), not float 1\.0"),
    (True, r"top_k must be a whole number \(at least 1\), not bool True"),
    ("2", r"top_k must be a whole number \(at least 1\), not str '2'"),
])
def test_lookup_top_k_below_one_is_refused(tmp_path, top_k, message) -> None:
    """API audit W6: top_k=-1 silently dropped the last row (rows[:-1]) and 0 kept every row;
    a float (2.5, 1.0) was a TypeError from slicing. One check (tables.check_top_k, which is
    errors.check_count's) serves lookup and ParaphraseTable.filtered, with one message, where
    each wrote its own (lookup's: 'top_k must be None or a whole number of at least 1, got 0')."""
    from paralign.errors import ConfigurationError
    from paralign.paraphrase_table import ParaphraseTable

    path = tmp_path / "t.tsv"
    path.write_text("a man\ta guy\t0.5\na man\ta person\t0.4\na man\ta fellow\t0.3\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=f"^{message}$"):
        lookup(path, ["a man"], top_k=top_k)
    with pytest.raises(ConfigurationError, match=f"^{message}$"):
        ParaphraseTable.from_tsv(path).filtered(top_k=top_k)
    assert [row["paraphrase"] for row in lookup(path, ["a man"], top_k=2)["a man"]] == ["a guy", "a person"]
    assert len(lookup(path, ["a man"])["a man"]) == 3


def test_a_users_unscored_rows_are_read_by_lookup_but_not_by_the_pipelines(tmp_path) -> None:
    """A user's table (phrase TAB paraphrase, or an empty score) is what serve --table and
    paraeval --source read: lookup lists its unscored rows after the scored ones; iter_rows'
    default (the pipelines, which compute with probabilities) still refuses them."""
    path = tmp_path / "user.tsv"
    path.write_bytes(b"car\tvehicle\r\ncar\tautomobile\t0.5\r\ncar\tauto\t\r\nbus\tcoach\t0.9\r\n")
    assert [row[:3] for row in iter_rows(path, unscored=True)] == [
        ("car", "vehicle", None), ("car", "automobile", 0.5), ("car", "auto", None), ("bus", "coach", 0.9)]
    assert lookup(path, ["car"]) == {"car": [{"paraphrase": "automobile", "score": 0.5},
                                             {"paraphrase": "auto", "score": None},
                                             {"paraphrase": "vehicle", "score": None}]}
    assert lookup(path, ["car"], top_k=2)["car"][-1]["paraphrase"] == "auto"
    with pytest.raises(FormatError, match=r"user\.tsv:1: bad table row \(2 TAB-separated fields"):
        list(iter_rows(path))
    path.write_text("car\tvehicle\tmaybe\n", encoding="utf-8")  # a score that is there must be a number
    with pytest.raises(FormatError, match=r"user\.tsv:1: bad table row"):
        lookup(path, ["car"])


@pytest.mark.parametrize("name", ["t.parquet", "t.tsv", "t.tsv.gz"])
def test_a_tables_threshold_is_kept_whatever_its_format(tmp_path, name) -> None:
    """The threshold a table was read with is what signatures name (`NAME:THRESHOLD#HASH`):
    a Parquet table read as `X.parquet:0.5` lost it, and its signature looked unthresholded."""
    from paralign.metrics.paraeval.signature import source_signature

    path = _write(tmp_path / name)
    assert load_source(f"{path}:0.5").threshold == 0.5
    assert load_source(str(path)).threshold is None
    assert source_signature(load_source(f"{path}:0.5")).startswith(f"{name}:0.5#")


@pytest.mark.parametrize("name", ["t.TSV.GZ", "t.tsv.Gz"])
def test_a_gz_name_in_any_case_writes_gzip(tmp_path, name) -> None:
    """-o X.TSV.GZ wrote plain text under a gzip name, which the readers (asked for gzip by a .gz
    name in any case) refuse; it writes gzip, as X.tsv.gz does."""
    import gzip

    path = _write(tmp_path / name)
    assert gzip.decompress(path.read_bytes()).startswith(b"# phrase\t")
    assert [row[:2] for row in iter_rows(path)] == [row[:2] for row in ROWS]


def test_a_parquet_table_without_read_permission_is_the_error_a_tsv_table_gives(tmp_path, monkeypatch) -> None:
    """pyarrow's PermissionError became 'not a Parquet table ([Errno 13] ... Permission denied)',
    a data error (exit 1), where a TSV table without read permission is 'permission denied', a
    usage error (exit 2). (Simulated: the tests may run as root, who reads any file.)"""
    import errno

    from paralign import table_parquet
    from paralign.errors import InputFileError

    path = _write(tmp_path / "t.parquet")

    def denied(name, stamp):
        raise PermissionError(errno.EACCES, f"Failed to open local file '{name}'. Detail: [errno 13] Permission denied")

    monkeypatch.setattr(table_parquet, "_parquet_file", denied)
    with pytest.raises(InputFileError) as info:
        list(iter_rows(path))
    assert str(info.value) == f"{path}: permission denied" and info.value.cannot_open


def test_a_parquet_table_is_told_by_its_data_whatever_its_name(tmp_path, monkeypatch, capsys) -> None:
    """A Parquet table renamed X.tsv (or given on stdin, copied to a file named 'stdin') was read
    as TSV and refused at line 1 ('a NUL byte' or 'not UTF-8'); it is read as Parquet, as gzip is
    told by its data. A TSV table stays TSV, and the name still decides what is written."""
    import io
    import sys

    from paralign.cli import main

    renamed = tmp_path / "table.tsv"
    _write(tmp_path / "t.parquet").rename(renamed)
    assert [row[:3] for row in iter_rows(renamed)] == [row[:3] for row in ROWS]
    assert read_metadata(renamed) == {"kind": "test"}
    assert lookup(renamed, ["big"])["big"][0]["paraphrase"] == "large"
    assert load_source(f"{renamed}:0.5").paraphrases("big") == {"large": 0.7}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(renamed.read_bytes()), encoding="utf-8"))
    assert main(["paraphrases", "big", "--table", "-"]) == 0
    assert "large" in capsys.readouterr().out
    from paralign.tables import is_parquet, is_parquet_file

    assert not is_parquet_file(_write(tmp_path / "t.tsv")) and not is_parquet(renamed)


@pytest.mark.parametrize("name", ["t.parquet", "t.tsv", "t.tsv.gz"])
def test_a_table_load_shows_its_rows_to_a_progress_hook(tmp_path, name) -> None:
    """load_source(progress=) is given the rows of a table file as they are read (a command's
    bar: a 3-million-row table took half a minute with nothing on screen), in any format, and
    the table it reads is the one read without it."""
    path = _write(tmp_path / name)
    seen: list[object] = []

    def hook(rows):
        for row in rows:
            seen.append(row)
            yield row

    table = load_source(f"{path}:0.2", progress=hook)
    assert len(seen) >= len(ROWS)  # every row read (a TSV's record line too)
    assert list(table) == list(load_source(f"{path}:0.2")) and len(table) == 2
    assert table.tokenizer == load_source(str(path)).tokenizer


@pytest.mark.parametrize("name", ["t.parquet", "t.tsv", "t.tsv.gz"])
def test_a_phrase_starting_with_a_hash_is_a_row_of_a_written_table(tmp_path, name):
    """Below the `# paralign:` record every line is a row: a TSV export of a table whose
    phrases start with '#' ('#1', or '# 1' as the regex tokenizer splits it, which sort first)
    holds the rows the Parquet table holds; they were read as comments and lost."""
    rows = [("# 1", "number one", 0.5, 1, 1), ("#1 hit", "top hit", 0.25, 1, 2), *ROWS]
    path = _write(tmp_path / name, parts=(rows,))
    got = [(p, q, prob, *map(int, extra)) for p, q, prob, extra in iter_rows(path)]
    assert got == rows
    assert lookup(path, ["# 1"])["# 1"][0]["paraphrase"] == "number one"
    assert load_source(str(path)).paraphrases("#1 hit") == {"top hit": 0.25}


@pytest.mark.parametrize(("record", "reason"), [
    ('{"options": ', "invalid JSON (column 25): Expecting value"),
    ('["a"]', "a JSON list, not an object"),
    ('"a comment"', "a JSON str, not an object"),
    ('{"options": "lowercase"}', 'its "options" is not a JSON object'),
])
def test_a_record_that_is_not_a_json_object_is_a_format_error_at_its_line(tmp_path, record, reason) -> None:
    """A TSV table's ``# paralign:`` line that is not a JSON object (with "options", when present,
    an object) was a traceback in every reader of the table (paraphrases, serve, ParaEval...):
    json.loads' JSONDecodeError, or an AttributeError where its options were read. It is a
    FormatError at its line; a Parquet table's record, at its file."""
    from paralign.paraphrases import ParaphraseTable

    path = tmp_path / "t.tsv"
    path.write_text(f"# phrase\tparaphrase\tprobability\n# paralign: {record}\na man\ta guy\t0.5\n", encoding="utf-8")
    readers = (read_metadata, lambda p: list(iter_rows(p)), ParaphraseTable.from_tsv, lambda p: load_source(str(p)),
               lambda p: lookup(p, ["a man"]))
    for read in readers:
        with pytest.raises(FormatError) as caught:
            read(path)
        assert str(caught.value) == f"{path}:2: bad '# paralign:' record: {reason}"
    parquet = tmp_path / "t.parquet"
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"phrase": ["a man"], "paraphrase": ["a guy"], "probability": [0.5]})
                   .replace_schema_metadata({b"paralign": record.encode()}), parquet)
    with pytest.raises(FormatError, match=f"^{parquet}: bad 'paralign' metadata: "):
        load_source(str(parquet))


def test_a_probability_or_score_with_a_digit_group_mark_is_a_bad_row(tmp_path):
    """float('0_5') is 5.0: a table row scored '0_5' was read as 5 (above every threshold, a
    probability over 1) without a word, by the pipelines' reader and by a user's table."""
    from paralign.paraphrases import ParaphraseTable

    path = tmp_path / "t.tsv"
    path.write_text("a\tb\t0.5\nc\td\t0_5\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"t\.tsv:2: bad table row \(score '0_5' is not a number\)$"):
        list(iter_rows(path))
    with pytest.raises(FormatError, match=r"t\.tsv:2: bad table row \(score '0_5' is not a number\)$"):
        ParaphraseTable.from_tsv(path)
    with pytest.raises(ConfigurationError, match="'0_5' is not a threshold"):
        load_source(f"{tmp_path / 'missing.tsv'}:0_5")


@pytest.mark.parametrize("text", [
    "phrase\tparaphrase\tprobability\ncar\tauto\t0.5\n",  # as pandas' to_csv(sep="\t") heads a table
    "# phrase\tparaphrase\tprobability\n# paralign: {}\ncar\tauto\t0.5\n# phrase\tparaphrase\tprobability\n",  # cat a.tsv b.tsv
], ids=["header-without-hash", "second-header"])
def test_a_header_line_read_as_a_row_is_named_as_one(tmp_path, capsys, text):
    """Audit: a header line without its '# ' (pandas' to_csv writes one), or the header of a
    second table joined below a first (cat a.tsv b.tsv), is read as a row, and was refused as
    `bad table row (could not convert string to float: 'probability')` by paraphrases (Python's
    words) and `score 'probability' is not a number` by the tables in memory, neither saying
    what the line is. Both readers now ask whether it is a header and say how one is written."""
    from paralign.cli import main
    from paralign.paraphrases import ParaphraseTable

    path = tmp_path / "t.tsv"
    path.write_text(text, encoding="utf-8")
    line = 1 if text.startswith("phrase") else 4
    score = "score" if text.startswith("phrase") else "probability"  # as its header, if any, names it
    hint = r" is not a number: a header line\? A TSV table's header starts with '# ' and comes once, at its top"
    assert main(["paraphrases", "car", "--table", str(path)]) == 1
    assert f"t.tsv:{line}: bad table row ({score} 'probability' is not a number: a header line? " in \
        capsys.readouterr().err
    with pytest.raises(FormatError, match=rf"t\.tsv:{line}: bad table row \({score} 'probability'{hint}\)$"):
        ParaphraseTable.from_tsv(path)
    path.write_text("car\tauto\t0.5\ncar\tvan\thigh\n", encoding="utf-8")  # a row further down: no hint
    with pytest.raises(FormatError, match=r"t\.tsv:2: bad table row \(score 'high' is not a number\)$"):
        ParaphraseTable.from_tsv(path)


def _users_parquet(path, probability, phrase=("a", "a")) -> None:
    """A Parquet table another tool wrote: no paralign record, any column types."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"phrase": list(phrase), "paraphrase": ["x", "y"], "probability": probability}), path)


@pytest.mark.parametrize(("probability", "reason"), [
    ([0.5, float("nan")], "bad table row 2 (probability nan is not a finite number)"),
    ([float("inf"), 0.5], "bad table row 1 (probability inf is not a finite number)"),
    (["0.5", "0.2"], "its column 'probability' holds string, not numbers"),
    ([0.5, -0.25], "bad table row 2 (probability -0.25 is negative"),
    ([-1, 2], "bad table row 1 (probability -1.0 is negative"),  # integers: a count column
])
def test_a_users_parquet_rows_are_checked_as_tsv_rows_are(tmp_path, probability, reason) -> None:
    """Audit: a Parquet table's rows were read unchecked. A NaN probability passed iter_rows
    and lookup (sorted first, written as NaN in JSON), where a TSV table's NaN is a FormatError
    at its line; a probability column of text failed lookup's sort with a TypeError."""
    from paralign.paraphrases import load_table
    from paralign.phrase_keys import lookup_held

    path = tmp_path / "users.parquet"
    _users_parquet(path, probability)
    for read in (lambda: list(iter_rows(path)), lambda: lookup_held(path, ["a"]), lambda: load_table(path)):
        with pytest.raises(FormatError, match=re.escape(f"{path}: ") + ".*" + re.escape(reason)):
            read()


def test_a_users_parquet_row_without_a_probability_is_an_unscored_pair(tmp_path) -> None:
    """Audit: a null probability was a TypeError from float() in load_table (serve --table,
    paraeval --source, the aligners' word similarity); it is now what a TSV row without a score
    is: an unscored pair there and in lookup, a FormatError for the pipelines' iter_rows."""
    from paralign.paraphrases import load_table

    path = tmp_path / "users.parquet"
    _users_parquet(path, pa.array([None, 0.5], pa.float64()))
    assert dict(load_table(path).paraphrases("a")) == {"x": None, "y": 0.5}
    assert dict(load_table(path, 0.9).paraphrases("a")) == {"x": None}  # unscored rows kept, as from_tsv keeps them
    assert lookup(path, ["a"])["a"] == [{"paraphrase": "y", "probability": 0.5}, {"paraphrase": "x", "probability": None}]
    with pytest.raises(FormatError, match="bad table row 1 \\(no probability\\)"):
        list(iter_rows(path))
    _users_parquet(path, [0.5, 0.2], phrase=("a", None))
    with pytest.raises(FormatError, match="bad table row 2 \\(no phrase\\)"):
        load_table(path)


@pytest.mark.parametrize("score", ["-0.5", "-1e-300", "-3"])
def test_a_negative_score_in_a_users_tsv_table_is_a_format_error_at_its_line(tmp_path, score) -> None:
    """Audit: a negative probability was read by every reader of a table file (paralign
    paraphrases listed it last of the scored rows; graded ParaEval, which reads a score outside
    (0, 1] as no probability, gave it full credit). The third column is p(e2|e1), a count
    (lattice paraphrases) or a user's score: never below 0. Refused at its line as NaN is; a
    score above 1 (a count, a user's score) and -0.0 are kept."""
    from paralign.paraphrases import ParaphraseTable, load_table

    path = tmp_path / "user.tsv"
    path.write_text(f"car\tauto\t0.5\ncar\tvehicle\t{score}\n", encoding="utf-8")
    where = re.escape(f"{path}:2: ")
    for read in (lambda: list(iter_rows(path)), lambda: lookup(path, ["car"]),
                 lambda: ParaphraseTable.from_tsv(path), lambda: load_table(path)):
        with pytest.raises(FormatError, match=where + re.escape(f"bad table row (score {score!r} is negative")):
            read()
    path.write_text("car\tauto\t3\ncar\tvehicle\t-0.0\ncar\tlorry\t1.5\n", encoding="utf-8")
    assert [row["score"] for row in lookup(path, ["car"])["car"]] == [3.0, 1.5, -0.0]
    assert dict(ParaphraseTable.from_tsv(path).paraphrases("car")) == {"auto": 3.0, "vehicle": -0.0, "lorry": 1.5}


_USERS_ROWS = [("car", "auto", "0.5"), ("car", "auto", "0.7"), ("car", "vehicle", ""), ("car", "vehicle", "0.2"),
               ("car", "car", "0.9"), ("car", "CAR", "0.8"), ("car", "the  car", "0.6"), ("Car", "Auto", "0.95"),
               ("car", " car ", "0.4"), ("car", " ", "0.3"), ("bus", "coach", "0.3"), ("bus", "coach", "0.3")]


def _write_users_table(path, rows) -> None:
    """`rows` (phrase, paraphrase, score text, '' for none) as a user's TSV or Parquet table."""
    import pyarrow.parquet as pq

    if path.suffix == ".parquet":
        pq.write_table(pa.table({"phrase": [r[0] for r in rows], "paraphrase": [r[1] for r in rows],
                                 "probability": pa.array([float(r[2]) if r[2] else None for r in rows], pa.float64())}),
                       path)
    else:
        path.write_text("".join(f"{p}\t{q}\t{s}\n" for p, q, s in rows), encoding="utf-8")


@pytest.mark.parametrize("name", ["users.tsv", "users.parquet"])
def test_a_table_file_lists_one_row_a_paraphrase_as_the_table_in_memory_holds_it(tmp_path, name) -> None:
    """Audit: `paralign paraphrases` (tables.lookup) listed every row of a user's table as
    written: a pair given twice twice (top-k counting it twice), and the phrase itself as its
    own paraphrase (car -> car, CAR, ' car '), where the same file in memory (serve --table,
    ParaEval, the aligners) holds one row a paraphrase, the higher score kept, and no
    self-paraphrase. Both now hold the same rows; lookup shows the kept row as written."""
    from paralign.paraphrases import load_table
    from paralign.phrase_keys import lookup_held

    path = tmp_path / name
    _write_users_table(path, _USERS_ROWS)
    _, found = lookup_held(path, ["car", "bus"])
    score = score_column(path)  # probability in the Parquet table's schema; score where no header names it
    assert score == ("probability" if name.endswith(".parquet") else "score")
    assert [(row["paraphrase"], row[score]) for row in found["car"]] == [
        ("Auto", 0.95), ("the  car", 0.6), ("vehicle", 0.2)]
    assert found["bus"] == [{"paraphrase": "coach", score: 0.3}]
    table = load_table(path)
    assert dict(table.paraphrases("car")) == {"auto": 0.95, "vehicle": 0.2, "the car": 0.6}
    assert lookup_held(path, ["car"], 2)[1]["car"][1]["paraphrase"] == "the  car"  # not car itself


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["car", "Car", " car", "a  car", "a car", "bus"]),
                          st.sampled_from(["car", "CAR", "auto", "Auto", "a car", "a  Car", "bus", " "]),
                          st.sampled_from(["", "0", "0.25", "0.5", "1", "2.5"])), max_size=14),
       st.sampled_from(["users.tsv", "users.parquet"]))
def test_a_users_table_file_and_the_same_table_in_memory_agree(tmp_path, rows, name) -> None:
    """Whatever a user's table repeats (a pair twice, in other case or spacing) or pairs with
    itself, `paralign paraphrases` (lookup_held) finds, for each phrase, the paraphrases and
    scores that load_table holds in memory (serve, ParaEval, ParaMetric, the aligners)."""
    from paralign.paraphrases import load_table
    from paralign.phrase_keys import lookup_held, normalize_phrase

    path = tmp_path / f"{uuid.uuid4().hex}-{name}"  # a new file each example: a Parquet footer is kept by file
    _write_users_table(path, rows)
    table = load_table(path)
    asked = ["car", "a car", "bus", "auto"]
    _, found = lookup_held(path, asked)
    for phrase in asked:
        listed = [(normalize_phrase(row["paraphrase"]), row[score_column(path)]) for row in found[phrase]]
        assert dict(listed) == dict(table.paraphrases(phrase)), (phrase, rows)
        assert len(listed) == len(dict(listed))


def test_top_paraphrases_asks_a_table_as_paralign_paraphrases_does(tmp_path) -> None:
    """top_paraphrases matched each phrase as typed: a built table (lower-cased, split by its
    tokenizer) had nothing for 'I think' or "man's" where `paralign paraphrases` found their rows
    (as 'i think', "man 's"); a user's table nothing for 'Cat'. The keys stay the phrases as given."""
    from paralign.pivot import top_paraphrases

    built = tmp_path / "built.tsv"
    built.write_text('# paralign: {"options": {"lowercase": true, "tokenizer": "regex"}}\n'
                     "i think\tin my view\t0.5\nman 's\tthe man 's\t0.25\n", encoding="utf-8")
    assert top_paraphrases(built, ["I think", "man's", "i think"]) == {
        "I think": [("in my view", 0.5)], "man's": [("the man 's", 0.25)], "i think": [("in my view", 0.5)]}
    user = tmp_path / "user.tsv"
    user.write_text("cat\tfeline\t0.5\n", encoding="utf-8")
    assert top_paraphrases(user, ["Cat"], 1) == {"Cat": [("feline", 0.5)]}


def test_a_tsv_header_naming_the_phrase_and_paraphrase_elsewhere_is_refused(tmp_path, capsys) -> None:
    """Audit: a TSV table's fields are read by position (phrase, paraphrase, score), but one whose
    header says ``# paraphrase TAB phrase TAB score`` was read with its paraphrases as phrases,
    silently (`paraphrases --table T car` found none, `auto` found 'car'), as a Parquet table of
    columns so named was. Every reader refuses it at its header's line, naming the column."""
    from paralign.cli import main
    from paralign.paraphrases import ParaphraseTable, load_table
    from paralign.phrase_keys import lookup_held

    path = tmp_path / "t.tsv"
    path.write_text("\ufeff# paraphrase\tphrase\tscore\nauto\tcar\t0.5\n", encoding="utf-8")
    said = re.escape(f"{path}:1: not a paraphrase table as it is read: its column 'phrase' is column 2, where the "
                     "phrase is read from column 1 ('paraphrase')")
    for read in (lambda: lookup(path, ["car"]), lambda: lookup_held(path, ["car"]), lambda: load_table(path),
                 lambda: ParaphraseTable.from_tsv(path), lambda: list(iter_rows(path))):
        with pytest.raises(FormatError, match=said):
            read()
    assert main(["paraphrases", "car", "--table", str(path)]) == 1
    assert "its column 'phrase' is column 2" in capsys.readouterr().err
    path.write_text("# phrase\tparaphrase\tscore\n# paraphrase\tphrase\ta comment below the header\n"
                    "car\tauto\t0.5\n", encoding="utf-8")
    assert lookup(path, ["car"])["car"] == [{"paraphrase": "auto", "score": 0.5}]


@pytest.mark.parametrize(("row", "said"), [
    ("car\tauto\tnan", "bad table row (score 'nan' is not a finite number)"),
    ("car\tauto\t-1", "bad table row (score '-1' is negative: "),
    ("car\tauto\tabc", "bad table row (score 'abc' is not a number)"),
    ("car", "bad table row (1 TAB-separated field; expected at least 2: phrase, paraphrase, and a score if scored)"),
])
def test_a_bad_row_is_worded_alike_by_load_table_and_paraphrases(tmp_path, capsys, row, said):
    """Audit (tabletail): a TSV table's bad row was worded two ways, 'bad table row (score 'nan' is
    not a finite number)' by `paralign paraphrases` (tables.tsv_rows) and 'score 'nan' is not a
    finite number' by load_table (from_tsv: every other command's --table), a row of one field
    'expected phrase<TAB>paraphrase[<TAB>score]'. One function words them (tables.row_score)."""
    from paralign.cli import main
    from paralign.paraphrases import load_table

    table = tmp_path / "t.tsv"
    table.write_text(f"big\tlarge\t0.5\n{row}\n", encoding="utf-8")
    expected = f"{table}:2: {said}"
    with pytest.raises(FormatError) as loaded:
        load_table(table)
    with pytest.raises(FormatError) as looked_up:
        lookup(table, ["car"])
    assert str(loaded.value).startswith(expected) and str(looked_up.value) == str(loaded.value)
    assert main(["paraphrases", "car", "--table", str(table), "--format", "json"]) == 1
    assert capsys.readouterr().err == f"paralign paraphrases: error: {loaded.value}\n"


def test_a_parquet_tables_bad_score_is_worded_as_a_tsv_tables_and_its_first_is_named(tmp_path):
    """A Parquet row's bad score is worded as a TSV row's (table_parquet.score_fault), and the
    first bad row is named: an infinite score was looked for before a negative one, so a table
    whose row 2 was negative and row 3 infinite was refused at row 3."""
    import pyarrow.parquet as pq

    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"phrase": ["a", "b", "c"], "paraphrase": ["x", "y", "z"],
                             "score": [0.5, -2.0, float("inf")]}), path)
    tsv = tmp_path / "t.tsv"
    tsv.write_text("a\tx\t0.5\nb\ty\t-2.0\nc\tz\tinf\n", encoding="utf-8")
    with pytest.raises(FormatError) as parquet:
        list(iter_rows(path))
    with pytest.raises(FormatError) as text:
        list(iter_rows(tsv))
    assert str(parquet.value) == f"{path}: bad table row 2 (score -2.0 is negative: a table's score (p(e2|e1), a " \
                                 "count or a user's score) is 0 or more)"
    assert str(text.value) == f"{tsv}:2: bad table row (score '-2.0' is negative: a table's score (p(e2|e1), a " \
                              "count or a user's score) is 0 or more)"


def test_a_negative_threshold_is_refused_by_every_reader_of_a_table(tmp_path):
    """Audit (tabletail): a threshold below 0 keeps every row, as none does (no table's score is
    below 0), and was taken without a word; it is refused as NaN is (check_threshold), saying
    what a threshold may be."""
    from paralign.paraphrases import ParaphraseTable, load_source, load_table

    path = tmp_path / "t.tsv"
    path.write_text("car\tauto\t0.5\n", encoding="utf-8")
    said = re.escape("has a threshold below 0 (-1.0), which keeps every row, as none does (a table's scores are 0 "
                     "or more): use a number of 0 or more, such as 0.5")
    for call in (lambda: load_table(path, -1.0), lambda: load_source(f"{path}:-1"), lambda: lookup(path, ["car"],
                 threshold=-1.0), lambda: ParaphraseTable.from_tsv(path, threshold=-1.0),
                 lambda: ParaphraseTable.from_tsv(path).filtered(-1.0)):
        with pytest.raises(ConfigurationError, match=said):
            call()
    assert len(load_table(path, 0.0)) == len(load_table(path, -0.0)) == 1


@pytest.mark.parametrize("name", ["t.tsv", "t.tsv.gz", "t.parquet"])
def test_a_bad_score_is_named_as_the_table_names_it_in_every_format(tmp_path, name):
    """Audit (tabletail): a bad row of a pivot table (its score named probability) was 'probability
    nan is not a finite number' in Parquet but 'score 'nan' ...' in TSV, whose header names it too:
    each reader now names the score as the table does (tables.headed), TSV and Parquet alike (a TSV
    table's row 3 is its line 5, below its header and record; a query names a row by its phrase)."""
    from paralign.paraphrases import ParaphraseTable, load_table

    path = _write(tmp_path / name, parts=(ROWS[:2], [("big", "large", float("nan"), 3, 9)]))
    readers = [lambda: list(iter_rows(path)), lambda: lookup(path, ["big"]), lambda: load_table(path)]
    if name != "t.parquet":
        readers.append(lambda: ParaphraseTable.from_tsv(path))
    said = r"(:5: bad table row|: bad table row (3|of 'big')) \(probability '?nan'? is not a finite number\)$"
    for read in readers:
        with pytest.raises(FormatError, match=said):
            read()


@pytest.mark.parametrize("read", ["iter_rows", "lookup", "from_tsv"])
def test_a_tsv_tables_header_is_parsed_once_a_read(tmp_path, monkeypatch, read):
    """Every read of a headed TSV table parses its header once: iter_rows and from_tsv parsed it for the
    score's name and again for the check of its names, lookup a third time for the file's columns."""
    import paralign.tables as tables
    from paralign.paraphrases import ParaphraseTable

    path = _write(tmp_path / "t.tsv")
    parsed: list[str] = []
    header_names = tables._header_names
    monkeypatch.setattr(tables, "_header_names", lambda first: parsed.append(first) or header_names(first))
    if read == "iter_rows":
        assert len(list(iter_rows(path))) == 3
    elif read == "lookup":
        assert lookup(path, ["big"])["big"][0]["probability"] == 0.7
    else:
        assert ParaphraseTable.from_tsv(path).paraphrases("big") == {"large": 0.7}
    assert len(parsed) == 1


@pytest.mark.parametrize(("line", "row"), [
    ("car\tauto\t0.5\r\r\n", "car\tauto\t0.5 "),  # CRLF is the line end; the CR before it is a lone one
    ("car\rhire\tauto\t0.5\n", "car hire\tauto\t0.5"),  # a lone CR inside a line reads as a space
    ("car\tauto\t0.5\r\n", "car\tauto\t0.5"),
    ("car\tauto\t0.5\r", "car\tauto\t0.5 "),  # a last line without LF ends at no CR
])
def test_a_line_handed_to_row_lines_loses_exactly_its_line_end(line, row) -> None:
    """Lines a caller hands row_lines read as a file's lines read (paralign.line_ends): it used rstrip('\\r\\n')."""
    assert list(row_lines([line])) == [(1, row)]


def test_the_header_and_record_of_lines_handed_in_lose_exactly_their_line_end() -> None:
    assert metadata_line('# paralign: {"note": "a\rb"}\r\n') == {"note": "a b"}  # a raw CR in a JSON string was refused
    assert headed(iter(["# phrase\tparaphrase\tscore\r\r\n"]))[0] == ["phrase", "paraphrase", "score "]
