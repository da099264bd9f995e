"""The paraphrases page reads a TSV table's rows of a phrase through an index built when the
table is loaded (web/row_index.py): the same rows as `paralign paraphrases` finds by scanning
the file, without scanning it for each request, in memory that does not grow with the rows' text."""

from __future__ import annotations

import gzip
import json

import pytest

from paralign.cli import main
from paralign.errors import ResourceMissingError
from paralign.phrase_keys import lookup_held
from paralign.web.table_rows import TableFile

#: A user's table (no record: matched without case, white space collapsed), its phrases not
#: grouped, a comment, a duplicate paraphrase (the first of equal scores kept), an unscored row.
USER = ("# a comment\n"
        "Car\tauto\t0.6\t3\tmany pivots here\n"
        "big\tlarge\t0.9\t4\t20\n"
        "car \tvehicle\t0.3\t2\t5\n"
        "\n"
        "CAR\tAuto\t0.6\t9\t9\n"
        "car\tcart\t\t1\n"
        "big\thuge\t0.2\t1\t1\n")


def _cli(tmp_path, capsys, phrase: str, table: str) -> list[dict]:
    out = tmp_path / "out.json"
    assert main(["paraphrases", phrase, "--table", table, "--format", "json", "-o", str(out)]) == 0
    capsys.readouterr()
    return json.loads(out.read_text(encoding="utf-8"))["phrases"][0]["paraphrases"]


@pytest.mark.parametrize("form", ["lf", "crlf", "bom", "gzip"])
def test_a_request_reads_its_phrase_rows_as_paralign_paraphrases_finds_them(tmp_path, capsys, form) -> None:
    text = USER.replace("\n", "\r\n") if form == "crlf" else "\ufeff" + USER if form == "bom" else USER
    path = tmp_path / ("user.tsv.gz" if form == "gzip" else "user.tsv")
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if form == "gzip" else data)
    file = TableFile.of(str(path), None)
    assert file.index is not None and file.columns == ("column4", "column5")
    for phrase in ["car", "BIG", "  Car  ", "bike"]:
        assert file.rows(phrase)[1] == _cli(tmp_path, capsys, phrase, str(path)), phrase


def test_a_request_does_not_read_the_whole_table(tmp_path, monkeypatch) -> None:
    """Each request scanned the whole file (about 1.5 s for 200,000 rows, benchmarks/serve_table_rows.py);
    it now reads its phrase's lines alone, found by the index built when the table was loaded."""
    import paralign.tables

    path = tmp_path / "user.tsv"
    path.write_text(USER, encoding="utf-8")
    file = TableFile.of(str(path), None)
    expected = lookup_held(str(path), ["car"])[1]["car"]

    def scan(*args, **kwargs):
        raise AssertionError("the whole table was read for a request")

    monkeypatch.setattr(paralign.tables, "iter_rows", scan)
    monkeypatch.setattr(paralign.tables, "row_lines", scan)
    assert file.rows("car") == ("car", expected) and [row["paraphrase"] for row in expected] == ["auto", "vehicle", "cart"]


def test_the_index_holds_three_numbers_a_row_whatever_the_rows_hold(tmp_path) -> None:
    path = tmp_path / "long.tsv"
    path.write_text("".join(f"p{n}\tq{n}\t0.5\t{'x' * 1000}\t{n}\n" for n in range(300)), encoding="utf-8")
    index = TableFile.of(str(path), None).index
    assert index is not None and index.nbytes == 300 * 3 * 8 and index.widest == 5


def test_a_table_of_three_columns_keeps_no_index(tmp_path) -> None:
    """Its rows are answered from memory: the index would only take room."""
    path = tmp_path / "three.tsv"
    path.write_text("car\tauto\t0.5\ncar\tcart\n", encoding="utf-8")
    assert TableFile.of(str(path), None).index is None


def test_phrases_of_one_hash_read_each_other_lines_and_keep_their_own_rows(tmp_path, monkeypatch, capsys) -> None:
    import paralign.web.row_index

    monkeypatch.setattr(paralign.web.row_index, "hash", lambda key: 7, raising=False)  # every key collides
    path = tmp_path / "user.tsv"
    path.write_text(USER, encoding="utf-8")
    file = TableFile.of(str(path), None)
    assert file.index is not None and set(file.index.hashes.tolist()) == {7}
    assert file.rows("big")[1] == _cli(tmp_path, capsys, "big", str(path))


def test_a_table_changed_since_it_was_indexed_is_read_whole(tmp_path, capsys) -> None:
    """No line is read at an offset of the old file's: a request reads the file as it is, as
    the server did before the index."""
    path = tmp_path / "user.tsv"
    path.write_text(USER, encoding="utf-8")
    file = TableFile.of(str(path), None)
    assert file.rows("big")[1] != []  # the index is built on the first request
    path.write_text("x\ty\t0.1\t1\n" + USER.replace("vehicle", "wagon"), encoding="utf-8")
    assert file.index is not None and not file.index.current()
    assert file.rows("car")[1] == _cli(tmp_path, capsys, "car", str(path))
    assert "wagon" in [row["paraphrase"] for row in file.rows("car")[1]]


def test_a_table_pivot_built_reads_its_rows_as_paralign_paraphrases_finds_them(built_table, tmp_path, capsys) -> None:
    """A table with the pipeline's record (``# paralign:``, then rows that may start with '#')
    holds its phrases as the key has them: matched exactly, as the command matches them."""
    path = str(built_table("t.tsv"))
    file = TableFile.of(path, None)
    assert file.index is not None and file.columns == ("pivots", "support")
    for phrase in ["The  Doctor's car", "the", "car"]:
        key, rows = file.rows(phrase)
        assert rows == _cli(tmp_path, capsys, phrase, path), phrase
    assert file.rows("The  Doctor's car")[1] != []


def test_the_start_reads_the_head_once_and_a_request_reads_it_never(tmp_path, monkeypatch) -> None:
    """The server read a table's head (its header, then its record) again for every request, and
    three times when it started; it now reads it once, when it starts, and a request reads the
    phrase's lines alone."""
    import paralign.phrase_keys
    import paralign.tables

    path = tmp_path / "user.tsv"
    path.write_text(USER, encoding="utf-8")
    expected = lookup_held(str(path), ["car"])[1]["car"]
    opened = []
    real_open = paralign.tables.open_text
    monkeypatch.setattr(paralign.tables, "open_text", lambda *a, **k: opened.append(a[0]) or real_open(*a, **k))
    file = TableFile.of(str(path), None)
    assert opened == [str(path)]

    def head(*args, **kwargs):
        raise AssertionError("a request read the table's head")

    for name in ("open_text", "table_columns", "read_metadata", "is_parquet_file"):
        monkeypatch.setattr(paralign.tables, name, head)
    monkeypatch.setattr(paralign.phrase_keys, "table_form", head)
    monkeypatch.setattr(paralign.phrase_keys, "read_metadata", head)
    assert file.rows("car") == ("car", expected) and file.rows("CAR") == ("car", expected)


def test_the_index_is_built_on_the_first_request_that_reads_the_file_and_once(tmp_path, monkeypatch) -> None:
    """An index was built when the server started, for every TSV table, and kept only when a
    request would read it: a table of three columns, or one no one asks, cost a pass over the
    file at every start (0.4-0.5 s for 200,000 rows) for nothing."""
    from paralign.web.row_index import RowIndex

    built = []
    real_build = RowIndex.build.__func__
    monkeypatch.setattr(RowIndex, "build", classmethod(lambda cls, *a: built.append(a[0]) or real_build(cls, *a)))
    path = tmp_path / "user.tsv"
    path.write_text(USER, encoding="utf-8")
    file = TableFile.of(str(path), None)
    assert built == []
    assert [row["paraphrase"] for row in file.rows("car")[1]] == ["auto", "vehicle", "cart"]
    assert file.rows("big")[1] != [] and file.columns == ("column4", "column5") and built == [str(path)]


def test_ppdbs_own_file_given_as_a_table_is_no_file_to_read(tmp_path) -> None:
    """``serve --table PPDBFILE`` serves the built-in ppdb (its pairs have no other column), yet
    the server indexed the file at every start; ``serve --table ppdb`` stopped on 'ppdb: no such
    file' after loading it. Neither is a table file now."""
    from paralign.paraphrases import WordNetSynonyms
    from paralign.web.table_rows import table_file

    (tmp_path / "ppdb").write_text("car\tauto\t0.5\tx\n", encoding="utf-8")
    assert table_file("ppdb", WordNetSynonyms()) is None and table_file("wordnet", WordNetSynonyms()) is None
    assert table_file(str(tmp_path / "ppdb"), WordNetSynonyms()).columns == ("column4",)
    try:
        from paralign.resources import ppdb_path

        installed = str(ppdb_path())
    except ResourceMissingError:
        return  # no PPDB here: the name alone is checked
    assert table_file(installed, WordNetSynonyms()) is None


def _user_parquet(path, rows: list[tuple]) -> None:
    """A user's Parquet table (no record: matched without case), five columns, row groups of two rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = ["phrase", "paraphrase", "probability", "pivots", "support"]
    pq.write_table(pa.Table.from_pylist([dict(zip(names, row, strict=True)) for row in rows]), path, row_group_size=2)


USER_ROWS = [("CAR", "Auto", 0.6, 9, 9), ("Car", "auto", 0.6, 3, 1), ("big", "large", 0.9, 4, 20),
             ("big", "huge", 0.2, 1, 1), ("car", "cart", None, 1, 1), ("car ", "vehicle", 0.3, 2, 5),
             ("zoo", "park", 0.5, 1, 1)]


def test_a_users_parquet_table_is_queried_not_read_whole(tmp_path, monkeypatch, capsys) -> None:
    """A Parquet table without a record (a user's, matched by its phrases folded) was read whole
    for every request (0.17 s for 200,000 rows); a request now queries the row groups of its key
    and the key's spellings in the file (``Car``, ``CAR``, ``car ``), with the filter `paralign
    paraphrases` queries a built table with, and finds the rows the command finds."""
    import paralign.tables

    path = tmp_path / "user.parquet"
    _user_parquet(path, USER_ROWS)
    expected = {phrase: _cli(tmp_path, capsys, phrase, str(path)) for phrase in ["car", "BIG", "zoo", "bike"]}
    file = TableFile.of(str(path), None)
    assert file.columns == ("pivots", "support")

    def scan(*args, **kwargs):
        raise AssertionError("the whole table was read for a request")

    monkeypatch.setattr(paralign.tables, "_parquet_batches", scan)
    for phrase, rows in expected.items():
        assert file.rows(phrase)[1] == rows, phrase
    assert [row["paraphrase"] for row in expected["car"]] == ["Auto", "vehicle", "cart"]  # the first of equals


def test_a_users_parquet_table_changed_since_it_was_indexed_is_read_whole(tmp_path, capsys) -> None:
    path = tmp_path / "user.parquet"
    _user_parquet(path, USER_ROWS)
    file = TableFile.of(str(path), None)
    assert file.rows("car")[1] != []
    _user_parquet(path, [("CAR", "wagon", 0.7, 1, 1), *USER_ROWS])
    assert [row["paraphrase"] for row in file.rows("car")[1]][0] == "wagon"
