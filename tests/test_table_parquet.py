"""Parquet table files: their columns read by position, whatever they are named, by every reader."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paralign.cli import main
from paralign.errors import FormatError
from paralign.paraphrases import load_table
from paralign.phrase_keys import lookup_held
from paralign.table_parquet import checked_batch, parquet_phrases
from paralign.tables import iter_rows, lookup

#: The record of a table pivot built (its phrases asked as its regex tokenizer splits them).
BUILT = {b"paralign": json.dumps({"options": {"tokenizer": "regex", "lowercase": True}}).encode()}


def _parquet(path: Path, columns: dict[str, list], record: bool) -> Path:
    table = pa.table(columns)
    pq.write_table(table.replace_schema_metadata(BUILT) if record else table, path)
    return path


@pytest.mark.parametrize("record", [True, False], ids=["built", "users"])
def test_a_table_whose_phrase_and_paraphrase_columns_are_elsewhere_is_refused(tmp_path, record, capsys) -> None:
    """Audit: a Parquet table's columns are read by position (phrase, paraphrase, score), as a TSV
    table's, but a table of columns paraphrase, phrase, probability (pandas writes any order) was
    read with its paraphrases as phrases: `paraphrases --table T car` listed 'bus' (whose row is
    bus -> car), load_table held car -> bus, silently. It is refused, naming the column."""
    path = _parquet(tmp_path / "t.parquet", {"paraphrase": ["auto", "van", "car"], "phrase": ["car", "car", "bus"],
                                             "probability": [0.5, 0.7, 0.2]}, record)
    said = re.escape(f"{path}: not a paraphrase table as it is read: its column 'phrase' is column 2, where the "
                     "phrase is read from column 1 ('paraphrase')")
    for read in (lambda: lookup(path, ["car"]), lambda: lookup_held(path, ["car"]), lambda: load_table(path),
                 lambda: list(iter_rows(path)), lambda: list(parquet_phrases(path))):
        with pytest.raises(FormatError, match=said):
            read()
    assert main(["paraphrases", "car", "--table", str(path)]) == 1
    assert "column 'phrase' is column 2" in capsys.readouterr().err
    pq.write_table(pa.table({"phrase": ["car"], "probability": [0.5], "paraphrase": ["auto"]}), path)
    with pytest.raises(FormatError, match="its column 'paraphrase' is column 3, where the paraphrase is read from "
                                          "column 2 \\('probability'\\)"):
        lookup(path, ["car"])


@pytest.mark.parametrize("record", [True, False], ids=["built", "users"])
def test_a_table_whose_columns_are_named_otherwise_is_read_by_position_by_every_reader(tmp_path, record) -> None:
    """Audit: a Parquet table of columns src, tgt, p was read by position by load_table (serve,
    paraeval) and by `paraphrases` asking a user's table, but a query of a built one (its record:
    pivot's) and parquet_phrases (serve's index of a user's table) read the column named 'phrase':
    'not a Parquet table (no 'phrase' column)'. Every reader reads it by position now."""
    path = _parquet(tmp_path / "t.parquet", {"src": ["car", "car", "bus"], "tgt": ["auto", "van", "coach"],
                                             "p": [0.5, 0.7, 0.2]}, record)
    want = [{"paraphrase": "van", "p": 0.7}, {"paraphrase": "auto", "p": 0.5}]
    assert lookup(path, ["car"])["car"] == want
    assert lookup_held(path, ["car"])[1]["car"] == want
    assert dict(load_table(path).paraphrases("car")) == {"auto": 0.5, "van": 0.7}
    assert sorted(parquet_phrases(path)) == ["bus", "car"]


def test_a_table_of_one_column_is_refused_by_a_query_too(tmp_path) -> None:
    """A table of one column was refused by a query as 'not a Parquet table (no 'phrase' column)'
    and by a scan as 'not a paraphrase table (1 column; ...)': one message now, as a scan says it,
    naming the missing column."""
    path = _parquet(tmp_path / "t.parquet", {"phrase": ["a"]}, record=True)
    for read in (lambda: lookup(path, ["a"]), lambda: list(iter_rows(path, unscored=True)),
                 lambda: list(parquet_phrases(path))):
        with pytest.raises(FormatError, match=re.escape(f"{path}: not a paraphrase table: no paraphrase column "
                                                        "(1 column: 'phrase'; expected at least 2: phrase, "
                                                        "paraphrase, then a score if scored)")):
            read()


@pytest.mark.parametrize("record", [True, False], ids=["built", "users"])
def test_a_table_of_two_columns_is_unscored_pairs_as_a_tsv_table_of_two_fields_is(tmp_path, record, capsys) -> None:
    """Audit (tabletail): a Parquet table of two columns (phrase, paraphrase) was refused by every
    reader ('2 columns; expected at least 3'), while a TSV table of two fields a row was read as
    unscored pairs. One rule: both are unscored pairs, to load_table, a query and `paralign
    paraphrases` alike; a reader that wants scores (iter_rows without `unscored`, the pipelines')
    refuses both, the Parquet table naming its missing score column and the file."""
    pairs = {"phrase": ["car", "car", "bus"], "paraphrase": ["auto", "van", "coach"]}
    path = _parquet(tmp_path / "t.parquet", pairs, record=record)
    tsv = tmp_path / "t.tsv"
    tsv.write_text("".join(f"{p}\t{q}\n" for p, q in zip(*pairs.values(), strict=True)), encoding="utf-8")
    for table in (path, tsv):
        assert dict(load_table(table).paraphrases("car")) == {"auto": None, "van": None}
        assert [row[:3] for row in iter_rows(table, unscored=True)] == [("car", "auto", None), ("car", "van", None),
                                                                        ("bus", "coach", None)]
        assert lookup(table, ["car"])["car"] == [{"paraphrase": "auto", "score": None},
                                                 {"paraphrase": "van", "score": None}]
        assert main(["paraphrases", "car", "--table", str(table), "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"] == [
            {"paraphrase": "auto", "score": None}, {"paraphrase": "van", "score": None}]
        with pytest.raises(FormatError, match=re.escape(str(table))):
            list(iter_rows(table))
    with pytest.raises(FormatError, match=re.escape(f"{path}: not a paraphrase table: no score column (2 columns: "
                                                    "'phrase', 'paraphrase'; expected at least 3")):
        list(iter_rows(path))


def test_a_batch_of_two_columns_checked_directly_is_unscored_or_no_score() -> None:
    """checked_batch of a two-column batch (a reader's, or a direct caller's): with `unscored` its
    pairs with a null float64 ``score`` column (returned before any score is checked, all null);
    without, "no score" naming the first row, as a TSV row of two fields wanting a score is refused."""
    batch = pa.record_batch({"phrase": ["car", "bus"], "paraphrase": ["auto", "coach"]})
    read = checked_batch(batch, "t.parquet", 1, unscored=True)
    assert read.schema.names == ["phrase", "paraphrase", "score"]
    assert read.schema.field(2).type == pa.float64()
    assert read.column(2).to_pylist() == [None, None]
    with pytest.raises(FormatError, match=re.escape("t.parquet: bad table row 1 (no score)")):
        checked_batch(batch, "t.parquet", 1)


def test_a_phrase_column_of_no_type_is_rows_without_a_phrase(tmp_path) -> None:
    """A column of nulls written without a type (pyarrow's null type) was an
    ArrowNotImplementedError traceback from a query; its rows are refused as rows without a phrase."""
    path = _parquet(tmp_path / "t.parquet", {"phrase": pa.array([None, None], pa.null()), "paraphrase": ["a", "b"],
                                             "p": [0.5, 0.1]}, record=True)
    for read in (lambda: lookup(path, ["car"]), lambda: list(iter_rows(path))):
        with pytest.raises(FormatError, match=r"bad table row (of None|1) \(no phrase\)"):
            read()
