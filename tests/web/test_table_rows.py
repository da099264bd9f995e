"""The paraphrases page and POST /api/paraphrases show what a table holds (its score under its
own name, its other columns), as `paralign paraphrases` prints the table's rows."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from paralign.cli import main

#: A table as pivot writes one (as TSV, its header naming the columns), read as a user's table.
PIVOT = ("# phrase\tparaphrase\tprobability\tpivots\tsupport\n"
         "car\tauto\t0.6\t3\t12\ncar\tvehicle\t0.3\t2\t5\ncar\tcart\t0.05\t1\t1\nbig\tlarge\t0.9\t4\t20\n")


def _client(spec: str):
    """A TestClient of an app serving the table `spec` (``path[:threshold]``) as ``serve --table`` does."""
    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.paraphrases import load_source
    from paralign.web import Engine, create_app
    from paralign.web.table_rows import TableFile, table_name

    source = load_source(spec)
    name = table_name(spec, ())
    engine = Engine({name: source}, ParaEval([source]), {},
                    table_files={name: TableFile.of(spec, getattr(source, "threshold", None))})
    return TestClient(create_app(engine=engine))


def _cli_rows(tmp_path, capsys, phrase: str, table: str) -> list[dict]:
    out = tmp_path / "out.json"
    assert main(["paraphrases", phrase, "--table", table, "--format", "json", "-o", str(out)]) == 0
    capsys.readouterr()
    return json.loads(out.read_text(encoding="utf-8"))["phrases"][0]["paraphrases"]


def _as_cli(data: dict) -> list[dict]:
    """The API's rows keyed as `paralign paraphrases --format json` keys them."""
    return [{"paraphrase": p["paraphrase"], data["score_column"]: p["score"], **p["columns"]}
            for p in data["paraphrases"]]


def _page_table(text: str) -> list[list[str]]:
    """The paraphrases page's table: its header's cells, then each row's."""
    table = text[text.index('id="paraphrases"'):]
    table = table[:table.index("</table>")]
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]


def test_a_pivot_table_shows_its_probability_pivots_and_support(tmp_path, capsys) -> None:
    """The page showed each paraphrase's score alone, under "score": a pivot table's rows are its
    probability p(e2|e1), the pivots and the support. They are now shown as the table names them,
    and the API gives them (score_column, columns) as `paralign paraphrases --format json` does."""
    path = tmp_path / "pivot.tsv"
    path.write_text(PIVOT, encoding="utf-8")
    with _client(str(path)) as client:
        data = client.post("/api/paraphrases", json={"phrase": "Car", "table": "pivot.tsv"}).json()
        page = client.get("/paraphrases?phrase=Car&table=pivot.tsv")
    assert data["score_column"] == "probability" and data["columns"] == ["pivots", "support"]
    assert _as_cli(data) == _cli_rows(tmp_path, capsys, "Car", str(path)) and data["total"] == 3
    assert data["paraphrases"][0] == {"paraphrase": "auto", "score": 0.6, "columns": {"pivots": 3, "support": 12}}
    assert _page_table(page.text) == [["paraphrase", "probability", "pivots", "support"], ["auto", "0.6", "3", "12"],
                                      ["vehicle", "0.3", "2", "5"], ["cart", "0.05", "1", "1"]]


def test_a_threshold_leaves_out_the_rows_the_server_does_not_hold(tmp_path, capsys) -> None:
    path = tmp_path / "pivot.tsv"
    path.write_text(PIVOT, encoding="utf-8")
    with _client(f"{path}:0.1") as client:
        data = client.post("/api/paraphrases", json={"phrase": "car", "table": "pivot.tsv"}).json()
    assert [p["paraphrase"] for p in data["paraphrases"]] == ["auto", "vehicle"] and data["total"] == 2
    assert _as_cli(data) == _cli_rows(tmp_path, capsys, "car", str(path))[:2]


def test_a_threshold_drops_a_row_before_its_duplicates_are_merged_as_paralign_paraphrases_does(tmp_path, capsys) -> None:
    """A paraphrase written twice, scored under the threshold and unscored: reading the table with
    the threshold drops the scored row and keeps the unscored one, as ``paralign paraphrases --table
    PATH:THRESHOLD`` shows it. The page merged the duplicates first, then left out what was under
    the threshold, so the paraphrase was missing there alone."""
    path = tmp_path / "dup.tsv"
    path.write_text("car\tauto\t0.05\ncar\tauto\ncar\tvehicle\t0.3\n", encoding="utf-8")
    with _client(f"{path}:0.1") as client:
        data = client.post("/api/paraphrases", json={"phrase": "car", "table": "dup.tsv"}).json()
    assert _as_cli(data) == _cli_rows(tmp_path, capsys, "car", f"{path}:0.1")
    assert sorted(p["paraphrase"] for p in data["paraphrases"]) == ["auto", "vehicle"]


def test_a_table_pivot_built_shows_its_rows_as_paralign_paraphrases_prints_them(built_table, tmp_path, capsys) -> None:
    path = str(built_table("t.parquet"))
    with _client(path) as client:
        data = client.post("/api/paraphrases", json={"phrase": "The  Doctor's car", "table": "t.parquet"}).json()
    assert data["looked_up_as"] == "the doctor 's car" and data["score_column"] == "probability"
    assert data["columns"] == ["pivots", "support"]
    assert _as_cli(data) == _cli_rows(tmp_path, capsys, "The  Doctor's car", path) != []


def test_sources_of_one_score_name_it_and_show_no_other_column(client, engine, tmp_path) -> None:
    """A table of three columns (its rows in memory), PPDB and WordNet: the score, named as the
    table names it (score where nothing names it), and no other column."""
    from paralign.web.table_rows import TableFile

    assert engine.table_files["small.tsv"].score_column == "score" and engine.table_files["small.tsv"].columns == ()
    assert set(engine.table_files) == {"small.tsv"}  # PPDB and WordNet are no files
    data = client.post("/api/paraphrases", json={"phrase": "cat", "table": "small.tsv"}).json()
    assert data["score_column"] == "score" and data["columns"] == []
    assert data["paraphrases"] == [{"paraphrase": "feline", "score": 0.8, "columns": {}},
                                   {"paraphrase": "kitty", "score": 0.5, "columns": {}}]
    assert _page_table(client.get("/paraphrases?phrase=cat&table=small.tsv").text)[:2] == [
        ["paraphrase", "score"], ["feline", "0.8"]]
    lattice = tmp_path / "lattice.tsv"
    lattice.write_text("# phrase\tparaphrase\tscore\ncar\tauto\t2\n", encoding="utf-8")
    file = TableFile.of(str(lattice), None)
    assert (file.score_column, file.columns) == ("score", ())


@pytest.mark.parametrize("table", ["ppdb", "wordnet"])
def test_a_built_in_source_names_its_score_score(client, table) -> None:
    data = client.post("/api/paraphrases", json={"phrase": "car", "table": table}).json()
    assert data["score_column"] == "score" and data["columns"] == [] and data["total"] > 0


#: A user's table without a header, of rows with more columns than three, some more than others.
HEADERLESS = "car\tauto\t0.6\t3\t12\ncar\tvehicle\t0.3\t2\ncar\tcart\t0.05\nbig\tlarge\t0.9\t4\t20\n"


def test_a_table_without_a_header_shows_its_other_columns_as_paralign_paraphrases_names_them(tmp_path, capsys) -> None:
    """A TSV table without a header named no column: the page and the API showed each row's
    score alone, where `paralign paraphrases` shows the other columns as column4, column5. They
    are shown so now, a row without a column showing '-' on the page and null in the API."""
    from paralign.web.table_rows import TableFile

    path = tmp_path / "user.tsv"
    path.write_text(HEADERLESS, encoding="utf-8")
    assert TableFile.of(str(path), None).columns == ("column4", "column5")
    with _client(str(path)) as client:
        data = client.post("/api/paraphrases", json={"phrase": "car", "table": "user.tsv"}).json()
        page = client.get("/paraphrases?phrase=car&table=user.tsv")
        big = client.post("/api/paraphrases", json={"phrase": "big", "table": "user.tsv"}).json()
    assert data["score_column"] == "score" and data["columns"] == ["column4", "column5"]
    cli = _cli_rows(tmp_path, capsys, "car", str(path))
    assert [{k: v for k, v in row.items() if v is not None} for row in _as_cli(data)] == cli
    assert cli[0] == {"paraphrase": "auto", "score": 0.6, "column4": 3, "column5": 12}
    assert _page_table(page.text) == [["paraphrase", "score", "column4", "column5"], ["auto", "0.6", "3", "12"],
                                      ["vehicle", "0.3", "2", "-"], ["cart", "0.05", "-", "-"]]
    assert big["paraphrases"] == [{"paraphrase": "large", "score": 0.9, "columns": {"column4": 4, "column5": 20}}]


def test_a_header_shorter_than_a_row_names_the_rest_as_paralign_paraphrases_does(tmp_path, capsys) -> None:
    """The columns shown were the best row's: a column of a row below it (cart's fifth) was not shown."""
    path = tmp_path / "short.tsv"
    path.write_text("# phrase\tparaphrase\tprobability\tpivots\ncar\tauto\t0.6\t3\ncar\tcart\t0.05\t1\t12\n",
                    encoding="utf-8")
    with _client(str(path)) as client:
        data = client.post("/api/paraphrases", json={"phrase": "car", "table": "short.tsv"}).json()
    assert data["columns"] == ["pivots", "column5"]
    assert [{k: v for k, v in row.items() if v is not None} for row in _as_cli(data)] == _cli_rows(
        tmp_path, capsys, "car", str(path))
