"""CLI: `paralign paraphrases PHRASE --table T` on Parquet and TSV tables."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from paralign.cli import main
from paralign.tables import TableWriter

SCHEMA = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64()),
                    ("pivots", pa.int64()), ("support", pa.int64())])
ROWS = [("a car", "an auto", 0.25, 1, 2), ("a car", "a wagon", 0.5, 2, 3), ("big", "large", 0.7, 3, 9)]


@pytest.fixture(params=["t.parquet", "t.tsv.gz"])
def table(request, tmp_path):
    path = tmp_path / request.param
    with TableWriter(path, SCHEMA) as writer:
        writer.write(pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in ROWS], schema=SCHEMA))
    return path


def test_best_first_top_k_and_json(table, capsys):
    assert main(["paraphrases", "a car", "--table", str(table)]) == 0
    out = capsys.readouterr().out
    assert out.index("a wagon") < out.index("an auto") and "support=3" in out
    assert out.startswith("a car: 2 paraphrases\n")
    assert main(["paraphrases", "big", "--table", str(table)]) == 0
    assert capsys.readouterr().out.startswith("big: 1 paraphrase\n")  # not "1 paraphrases"
    assert main(["paraphrases", "a car", "small", "--table", str(table), "--top-k", "1", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["score_column"] == "probability"  # as a pivot table names its score
    assert result["phrases"] == [
        {"phrase": "a car", "paraphrases": [{"paraphrase": "a wagon", "probability": 0.5, "pivots": 2, "support": 3}]},
        {"phrase": "small", "paraphrases": []},
    ]


def test_missing_table_and_bad_options(tmp_path, capsys):
    assert main(["paraphrases", "x", "--table", str(tmp_path / "none.parquet")]) == 2
    assert "none.parquet" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["paraphrases", "x", "--table", str(tmp_path / "t.tsv"), "--top-k", "0"])
    assert info.value.code == 2


def test_a_byte_order_mark_starting_a_tsv_table_is_dropped(tmp_path, capsys):
    """A UTF-8 BOM before a TSV table's '#' header, or before its first row, changes nothing."""
    path = tmp_path / "t.tsv"
    with TableWriter(path, SCHEMA) as writer:
        writer.write(pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in ROWS], schema=SCHEMA))
    plain = tmp_path / "plain.tsv"
    plain.write_text("a car\ta wagon\t0.5\nbig\tlarge\t0.7\n", encoding="utf-8")
    for table in (path, plain):
        assert main(["paraphrases", "a car", "--table", str(table)]) == 0
        expected = capsys.readouterr().out
        bom = tmp_path / f"bom-{table.name}"
        bom.write_bytes(b"\xef\xbb\xbf" + table.read_bytes())
        assert main(["paraphrases", "a car", "--table", str(bom)]) == 0, capsys.readouterr().err
        assert capsys.readouterr().out == expected and "a wagon" in expected


def test_a_users_table_with_unscored_rows_is_listed_not_refused(tmp_path, capsys):
    """The table serve --table and paraeval --source read: unscored rows come last, '-' in text
    and null in JSON (it was 'bad table row', exit 1)."""
    path = tmp_path / "mine.tsv"
    path.write_text("car\tvehicle\ncar\tautomobile\t0.5\n", encoding="utf-8")
    assert main(["paraphrases", "car", "--table", str(path)]) == 0
    assert capsys.readouterr().out == "car: 2 paraphrases\n  0.5\tautomobile\n  -\tvehicle\n"
    assert main(["paraphrases", "car", "--table", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert rows == [{"paraphrase": "automobile", "score": 0.5}, {"paraphrase": "vehicle", "score": None}]


@pytest.mark.parametrize("name", ["t.parquet", "t.tsv"])
def test_a_table_built_lower_cased_is_asked_for_the_lower_cased_phrase(tmp_path, capsys, name):
    """A table whose metadata says it was built lower-cased (pivot's default) finds 'A  Car' as
    'a car' and says so; so does a table without that record (a user's: matched without case)."""
    rows = pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in ROWS], schema=SCHEMA)
    built = tmp_path / f"built-{name}"
    with TableWriter(built, SCHEMA, {"options": {"lowercase": True}}) as writer:
        writer.write(rows)
    assert main(["paraphrases", "A  Car", "big", "--table", str(built), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["phrases"]
    assert [len(entry["paraphrases"]) for entry in found] == [2, 1]
    assert found[0]["looked_up_as"] == "a car" and "looked_up_as" not in found[1]
    assert main(["paraphrases", "A  Car", "--table", str(built)]) == 0
    assert capsys.readouterr().out.startswith("A  Car (as 'a car'): 2 paraphrases\n")
    plain = tmp_path / name
    with TableWriter(plain, SCHEMA) as writer:
        writer.write(rows)
    assert main(["paraphrases", "A Car", "--table", str(plain)]) == 0
    assert capsys.readouterr().out.startswith("A Car (as 'a car'): 2 paraphrases\n")


@pytest.mark.parametrize("name", ["t.parquet", "t.tsv.gz"])
def test_a_phrase_is_asked_for_as_the_tables_tokenizer_split_it(tmp_path, capsys, name):
    """pivot's default tokenizer (regex) holds "man's" as "man 's" and "man," as "man ,", so
    those phrases, as a user types them, were 'none'. A table whose metadata names its tokenizer
    is asked for the phrase as that tokenizer splits it (shown as 'looked_up_as'); one built with
    the whitespace tokenizer, or without metadata, only has its white space collapsed (and its
    case folded, as the table was built lower-cased or is a user's)."""
    rows = [("man 's", "his", 0.5, 1, 1), ("man ,", "man", 0.5, 1, 1), ("man's", "unsplit", 0.5, 1, 1)]
    data = pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in rows], schema=SCHEMA)
    for tokenizer, expected in (("regex", ["his", "man"]), ("whitespace", ["unsplit", None]), (None, ["unsplit", None])):
        path = tmp_path / f"{tokenizer}-{name}"
        metadata = {"options": {"lowercase": True, "tokenizer": tokenizer}} if tokenizer else None
        with TableWriter(path, SCHEMA, metadata) as writer:
            writer.write(data)
        assert main(["paraphrases", "Man's", "man,", "--table", str(path), "--format", "json"]) == 0
        found = json.loads(capsys.readouterr().out)["phrases"]
        got = [entry["paraphrases"][0]["paraphrase"] if entry["paraphrases"] else None for entry in found]
        assert got == (expected if tokenizer else ["unsplit", None]), tokenizer  # no metadata: not split
        if tokenizer == "regex":
            assert [entry["looked_up_as"] for entry in found] == ["man 's", "man ,"]


@pytest.mark.parametrize("name", ["u.tsv", "u.tsv.gz", "u.parquet"])
def test_a_users_table_is_matched_without_case_as_every_command_matches_it(tmp_path, capsys, name):
    """A user's table (no record of how its phrases were made) that holds 'Cat' was matched by
    `paraphrases` as written: 'cat' found nothing, while serve, ParaEval, ParaMetric and the
    aligners, which read it lower-cased, found its rows for 'cat' and 'Cat'. Every command now
    matches it without case (and with its white space collapsed): 'cat', 'Cat' and 'CAT' find
    the rows of 'Cat' and of 'cat', shown as the table writes them, and the key is shown as
    looked_up_as (the key serve shows)."""
    from paralign.paraphrases import load_source, lookup_key

    rows = [("Cat", "Feline", 0.5, 1, 1), ("cat", "kitty", 0.25, 1, 1), ("the  Cat", "the Kitty", 0.5, 1, 1)]
    data = pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in rows], schema=SCHEMA)
    path = tmp_path / name
    with TableWriter(path, SCHEMA) as writer:
        writer.write(data)
    phrases = ["cat", "Cat", "CAT", "The Cat", "dog"]
    assert main(["paraphrases", *phrases, "--table", str(path), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["phrases"]
    shown = [[row["paraphrase"] for row in entry["paraphrases"]] for entry in found]
    assert shown == [["Feline", "kitty"]] * 3 + [["the Kitty"], []]
    assert [entry.get("looked_up_as") for entry in found] == [None, "cat", "cat", "the cat", None]
    assert main(["paraphrases", "CAT", "--table", str(path)]) == 0
    assert capsys.readouterr().out.startswith("CAT (as 'cat'): 2 paraphrases\n  0.5\tFeline")
    if name.endswith(".parquet"):
        return  # load_source reads a Parquet table as pivot wrote it
    source = load_source(str(path))  # what serve, ParaEval, ParaMetric and the aligners ask
    in_memory = [sorted(source.paraphrases(lookup_key(source, phrase))) for phrase in phrases]
    assert in_memory == [sorted(q.lower() for q in row) for row in shown]


@pytest.mark.parametrize("name", ["u.tsv", "u.parquet"])
def test_a_users_tied_rows_are_ranked_as_every_command_ranks_them(tmp_path, capsys, name):
    """Audit: in a user's table, matched without case, rows tied on score were ranked by the
    paraphrase as written ('Zebra' before 'apple': 'Z' is U+005A), where the table in memory
    ranks them by the key it holds ('apple' before 'zebra': ParaphraseTable.filtered, serve),
    so `paraphrases car --top-k 1` kept Zebra and filtered(top_k=1) apple. Ties now go by the
    key both match by; the rows are still shown as written."""
    from paralign.paraphrases import load_source

    rows = [("car", "Zebra", 0.5, 1, 1), ("car", "apple", 0.5, 1, 1), ("car", "Bus", 0.75, 1, 1)]
    data = pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in rows], schema=SCHEMA)
    path = tmp_path / name
    with TableWriter(path, SCHEMA) as writer:
        writer.write(data)
    assert main(["paraphrases", "car", "--table", str(path), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert [row["paraphrase"] for row in found] == ["Bus", "apple", "Zebra"]
    if name.endswith(".tsv"):
        in_memory = load_source(str(path)).filtered(top_k=2).paraphrases("car")
        assert list(in_memory) == [row["paraphrase"].lower() for row in found[:2]]


NFC, NFD = "caf\u00e9", "cafe\u0301"  # the same word, composed and decomposed


@pytest.mark.parametrize("name", ["u.tsv", "u.parquet"])
@pytest.mark.parametrize(("written", "typed"), [(NFC, NFD), (NFD, NFC)], ids=["nfc-table", "nfd-table"])
def test_a_users_table_is_matched_in_one_unicode_form_whatever_form_a_phrase_is_typed_in(
        tmp_path, capsys, name, written, typed):
    """Audit: a user's table holding 'café' composed (NFC) answered 'café' typed decomposed (NFD,
    as macOS file names and some keyboards give it) with `café: none`, and a table written NFD
    answered none to NFC, in `paraphrases` and in memory (serve, the aligners, whose words the
    tokenizer reads in NFC: the NFD rows matched no word at all); a built table matched both,
    its tokenizer reading NFC. A user's table is now matched in NFC too, as it is matched
    without case: both forms find the row, in every command."""
    from paralign.paraphrases import load_source, lookup_key

    rows = [(f"le {written}", f"the {written} bar", 0.5, 1, 1), (written, "coffee", 0.5, 1, 1)]
    data = pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in rows], schema=SCHEMA)
    path = tmp_path / name
    with TableWriter(path, SCHEMA) as writer:
        writer.write(data)
    assert main(["paraphrases", typed, f"Le  {typed}", "--table", str(path), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["phrases"]
    assert [[row["paraphrase"] for row in entry["paraphrases"]] for entry in found] == [["coffee"], [f"the {written} bar"]]
    if name.endswith(".tsv"):  # load_source reads a Parquet table as pivot wrote it
        source = load_source(str(path))
        assert dict(source.paraphrases(lookup_key(source, typed))) == {"coffee": 0.5}


@pytest.mark.parametrize(("written", "typed"), [("co\u00adoperate", "cooperate"), ("cooperate", "co\u00adoperate"),
                                               ("a \u200b car", "a car")])
def test_a_users_table_is_matched_as_its_text_shows_invisible_characters_dropped(tmp_path, capsys, written, typed):
    """Audit: a user's table row whose phrase holds a character that shows nothing (a soft hyphen
    from web text, a zero-width space) answered none to the phrase as it shows ('cooperate' for
    'co\u00adoperate'), and the aligners, whose tokenizers drop such characters from every word,
    never matched it; a built table's phrases are split without them already. A user's table is
    now keyed as its text shows (paralign.shown_text.shown_form, as the aligners read a token)."""
    from paralign.paraphrases import load_source, lookup_key

    path = tmp_path / "u.tsv"
    path.write_text(f"{written}\tjoint work\t0.5\n", encoding="utf-8")
    assert main(["paraphrases", typed, "--table", str(path), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert [row["paraphrase"] for row in found] == ["joint work"]
    source = load_source(str(path))
    assert dict(source.paraphrases(lookup_key(source, typed))) == {"joint work": 0.5}


@pytest.mark.parametrize("phrase", ["", "   ", "\u200b", "\u00ad \u200b"])
def test_an_empty_phrase_is_a_usage_error(table, tmp_path, capsys, phrase):
    """An empty PHRASE matched nothing and printed ': none', exit 0. So did one that shows
    nothing (a zero-width space, a soft hyphen: every key drops them), as '\u200b (as ''):
    none', and a --phrases line of them was looked up so; such a line is an empty line."""
    with pytest.raises(SystemExit) as info:
        main(["paraphrases", "a car", phrase, "--table", str(table)])
    assert info.value.code == 2
    assert "argument PHRASE: a phrase must hold a word" in capsys.readouterr().err
    listed = tmp_path / "phrases.txt"
    listed.write_text(f"a car\n{phrase}\n", encoding="utf-8")
    assert main(["paraphrases", "--phrases", str(listed), "--table", str(table), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert [entry["phrase"] for entry in json.loads(captured.out)["phrases"]] == ["a car"]
    assert f"{listed}:2: empty line, no phrase" in captured.err


def test_many_phrases_from_a_file_or_stdin(table, tmp_path, capsys, monkeypatch):
    """--phrases FILE (one a line) or stdin when no PHRASE is given: the same answer as the
    phrases given as arguments; an empty or undecodable line is reported with its number and left
    out (listed under skipped_rows in JSON: before, only stderr named it), and the exit status is a batch's (0; 1 with --strict); a file with no phrase at all is an
    error (exit 1) and an empty one gives an empty answer."""
    import io

    assert main(["paraphrases", "a car", "big", "small", "--table", str(table), "--format", "json"]) == 0
    wanted = json.loads(capsys.readouterr().out)["phrases"]
    listed = tmp_path / "phrases.txt"
    listed.write_bytes(b"a car\n\nbig\n\xff\xfe\nsmall\n")
    assert main(["paraphrases", "--phrases", str(listed), "--table", str(table), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["phrases"] == wanted
    assert [(row["file"], row["line"]) for row in json.loads(captured.out)["skipped_rows"]] == [(str(listed), 2),
                                                                                               (str(listed), 4)]
    assert f"{listed}:2: empty line" in captured.err and f"{listed}:4: " in captured.err
    assert "2 lines with no phrase" in captured.err
    assert main(["paraphrases", "--phrases", str(listed), "--table", str(table), "--strict"]) == 1
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a car\nbig\nsmall\n"), encoding="utf-8"))
    assert main(["paraphrases", "--table", str(table), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["phrases"] == wanted and captured.err == ""
    blank = tmp_path / "blank.txt"
    blank.write_text("\n \n", encoding="utf-8")
    assert main(["paraphrases", "--phrases", str(blank), "--table", str(table)]) == 1
    assert f"error: {blank}: no phrase to look up: all 2 lines empty" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")  # nothing in, nothing out (a transformer, docs/CLI.md)
    capsys.readouterr()
    assert main(["paraphrases", "--phrases", str(empty), "--table", str(table), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["phrases"] == []
    assert main(["paraphrases", "a car", "--phrases", str(listed), "--table", str(table)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["paraphrases", "--phrases", "-", "--table", "-"]) == 2
    assert "stdin can be read only once" in capsys.readouterr().err


def _parsers(parser, name=""):
    """(command name, its parser) of `parser` and every subcommand under it."""
    import argparse

    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, child in action.choices.items():
                yield from _parsers(child, f"{name} {sub}".strip())


TABLE_COMMANDS = ("word-align", "pivot", "paraphrase-table", "paraphrases", "parametric", "lattice")


def test_the_table_commands_help_names_only_options_that_exist():
    """An option in the --help of a table command is one it has (or a sibling action has:
    `lattice build` speaks of the others' --lattice), and `COMMAND --option` names an option
    COMMAND has. paraphrases' help sent users to `paraeval --source` (the option is --table), and
    paraphrase-table's spoke of --foreign-tokenizer, which only pivot has."""
    import re

    from paralign.cli import build_parser

    parsers = dict(_parsers(build_parser()))
    options = {name: {o for a in parser._actions for o in a.option_strings} for name, parser in parsers.items()}
    commands = sorted((n for n in parsers if n), key=len, reverse=True)
    option = r"-{1,2}[a-z][\w-]*"
    mention = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, commands)) + rf")((?: {option}(?: [^-\s]\S*)?)+)")
    wrong = []
    for name, parser in parsers.items():
        if not name.startswith(TABLE_COMMANDS):
            continue
        parent = name.rsplit(" ", 1)[0] if " " in name else None
        known = options[name].union(*(o for n, o in options.items() if parent and n.startswith(parent + " ")))
        for text in [parser.description or ""] + [action.help or "" for action in parser._actions]:
            for command, used in mention.findall(text):
                wrong += [f"{name}: {command} {o}" for o in re.findall(option, used) if o not in options[command]]
            own = mention.sub(" ", text)
            wrong += [f"{name}: {o}" for o in re.findall(r"(?<![\w-])--[a-z][\w-]*", own) if o not in known]
    assert wrong == []


#: A corpus whose --keep-case table holds US -> America (through USA) and bank -> shore (through
#: Ufer), and whose US and us, Bank and bank, are other phrases. regex tokens, links 1:1.
CASED_EN = ["The US is big .", "The America is big .", "the bank is wide .", "the shore is wide .",
            "The Bank is big .", "the bank is big ."]
CASED_DE = ["Die USA ist groß .", "Die USA ist groß .", "das Ufer ist breit .", "das Ufer ist breit .",
            "Die Bank ist groß .", "Die Bank ist groß ."]


def test_a_table_built_with_keep_case_is_matched_with_its_case_by_every_command(on_dask, tmp_path, capsys):
    """A table that pivot built with --keep-case (recorded: lowercase false) was matched with
    its case by `paraphrases`, but lower-cased in memory by the other commands: serve's answer
    for 'us' was America (the rows of US and us merged), and the aligner related us and america
    though `paraphrases us` finds none. The record decides for all: serve and the aligner's word
    similarity (which asks a cased table for each word as written) match it with its case, and
    the signature says so (~regex,cased); ParaEval and ParaMetric, which compare lower-cased
    text, match it folded and name the folded rows."""
    from fastapi.testclient import TestClient

    from paralign.metrics.paraeval import ParaEval
    from paralign.metrics.paraeval.signature import source_signature
    from paralign.metrics.parametric import table_signature
    from paralign.paraphrases import load_source
    from paralign.pivot import PivotOptions, pivot_paraphrases
    from paralign.web import Engine, create_app

    paths = {}
    for name, lines in (("en", CASED_EN), ("de", CASED_DE), ("align", ["0-0 1-1 2-2 3-3 4-4"] * len(CASED_EN))):
        paths[name] = tmp_path / f"c.{name}"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = tmp_path / "cased.tsv"
    pivot_paraphrases([(paths["en"], paths["de"])], table, PivotOptions(threshold=0.0, min_translation_prob=0.0,
                      lowercase=False), alignments=[paths["align"]], work_dir=tmp_path / "work")
    phrases = ["US", "us", "bank", "Bank", "the US"]
    expected = [["America"], [], ["Bank", "shore"], ["bank"], []]
    assert main(["paraphrases", *phrases, "--table", str(table), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["phrases"]
    assert [sorted(row["paraphrase"] for row in entry["paraphrases"]) for entry in found] == expected
    source = load_source(str(table))
    assert source.lowercase is False and source_signature(source).startswith("cased.tsv~regex,cased#")
    with TestClient(create_app(engine=Engine({"t": source}, ParaEval([source]), {}))) as client:
        answers = [client.post("/api/paraphrases", json={"phrase": p, "table": "t"}).json() for p in phrases]
    assert [sorted(row["paraphrase"] for row in answer["paraphrases"]) for answer in answers] == expected
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The US is big.\tThe America is big.\nthe us is big.\tthe america is big.\n", encoding="utf-8")
    assert main(["align", str(pairs), "--similarity", str(table), "--format", "json"]) == 0
    aligned = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [[1, 1] in row["links"] for row in aligned] == [True, False]  # US~America; not us~america
    assert "|sim:cased.tsv~regex,cased#" in aligned[0]["signature"]
    folded = source.folded()  # ParaEval's and ParaMetric's lower-cased form: us -> america
    assert dict(folded.paraphrases("us")) == {"america": 0.5} and folded.lowercase
    assert "~regex,cased" not in table_signature(source, links="sure", max_length=5, only_referenced=False,
                                                 sentences="all", tight=False)
    paraeval = ParaEval([source])
    assert "america" in paraeval.paraphrases("us") and "~regex#" in paraeval.signature(1)
    assert paraeval.sentence_score("The US is big .", ["The America is big ."]).precision == 1.0


def _strict_json(text):
    """`text` read as JSON that every reader takes: NaN and Infinity refused."""
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_a_users_extra_columns_print_as_json_and_keep_their_text(tmp_path, capsys):
    """Audit: a user's TSV extra column holding 'nan' or 'inf' came out of --format json as NaN
    or Infinity (no JSON reader takes them), and '1_000' was read as 1000 (int() takes digit
    group marks, which no data file means); a Parquet table's NaN came out as NaN too."""
    import pyarrow.parquet as pq

    path = tmp_path / "mine.tsv"
    path.write_text("# phrase\tparaphrase\tprobability\tnote\tcode\n"
                    "car\tauto\t0.5\tnan\t1_000\ncar\twagon\t0.25\tinf\t7\n", encoding="utf-8")
    assert main(["paraphrases", "car", "--table", str(path), "--format", "json"]) == 0
    rows = _strict_json(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert rows == [{"paraphrase": "auto", "probability": 0.5, "note": "nan", "code": "1_000"},
                    {"paraphrase": "wagon", "probability": 0.25, "note": "inf", "code": 7}]
    parquet = tmp_path / "mine.parquet"
    pq.write_table(pa.table({"phrase": ["car"], "paraphrase": ["auto"], "probability": [0.5],
                             "weight": [float("nan")]}), parquet)
    assert main(["paraphrases", "car", "--table", str(parquet), "--format", "json"]) == 0
    rows = _strict_json(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert rows == [{"paraphrase": "auto", "probability": 0.5, "weight": None}]


def test_a_users_columns_that_no_header_names_are_listed_by_their_number(tmp_path, capsys):
    """Audit: a user's TSV table without a '# phrase TAB ...' header (or one naming fewer columns
    than a row holds) lost every column after the score: `car TAB auto TAB 0.5 TAB NN TAB 7`
    came out as {"paraphrase": "auto", "probability": 0.5} in JSON and as '0.5 TAB auto' in text,
    where a named column is listed. Such a column is listed by its number, as cut -f names it."""
    bare = tmp_path / "bare.tsv"
    bare.write_text("car\tauto\t0.5\tNN\t7\ncar\tvan\t0.25\n", encoding="utf-8")
    assert main(["paraphrases", "car", "--table", str(bare), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert rows == [{"paraphrase": "auto", "score": 0.5, "column4": "NN", "column5": 7},
                    {"paraphrase": "van", "score": 0.25}]
    assert main(["paraphrases", "car", "--table", str(bare)]) == 0
    assert "  0.5\tauto\tcolumn4=NN  column5=7\n" in capsys.readouterr().out
    named = tmp_path / "named.tsv"
    named.write_text("# phrase\tparaphrase\tprobability\ttag\ncar\tauto\t0.5\tNN\t7\n", encoding="utf-8")
    assert main(["paraphrases", "car", "--table", str(named), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert rows == [{"paraphrase": "auto", "probability": 0.5, "tag": "NN", "column5": 7}]


@pytest.mark.parametrize("name", ["u.tsv", "u.parquet"])
def test_a_users_column_named_as_an_answers_own_key_overrides_nothing(tmp_path, capsys, name):
    """Audit: a user's table whose third column is 'score' and fourth 'probability' (or any
    extra column named 'probability' or 'paraphrase') had that column override the row's own:
    `car TAB auto TAB 0.9 TAB 0.1` and `car TAB van TAB 0.5 TAB 0.7` were listed van 0.7, auto
    0.1, ranked and shown by the fourth column, where every other command (serve, ParaEval,
    the aligners) reads the third: auto 0.9, van 0.5. Such a column is listed by its number."""
    import pyarrow.parquet as pq

    from paralign.paraphrases import load_source

    path = tmp_path / name
    if name.endswith(".tsv"):
        path.write_text("# phrase\tparaphrase\tscore\tprobability\tparaphrase\n"
                        "car\tauto\t0.9\t0.1\tx\ncar\tvan\t0.5\t0.7\ty\n", encoding="utf-8")
    else:
        pq.write_table(pa.Table.from_arrays([pa.array(["car", "car"]), pa.array(["auto", "van"]), pa.array([0.9, 0.5]),
                                             pa.array([0.1, 0.7]), pa.array(["x", "y"])],
                                            names=["phrase", "paraphrase", "score", "probability", "paraphrase"]), path)
    assert main(["paraphrases", "car", "--table", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    # the row's score is the third column, under the name the table gives it; the fourth keeps its own
    assert rows == [{"paraphrase": "auto", "score": 0.9, "probability": 0.1, "column5": "x"},
                    {"paraphrase": "van", "score": 0.5, "probability": 0.7, "column5": "y"}]
    assert dict(load_source(str(path)).paraphrases("car")) == {"auto": 0.9, "van": 0.5}


def test_text_keeps_a_row_on_one_line_whatever_its_cells_hold():
    """A Parquet table's paraphrase can hold a tab or a line break; text wrote it raw, so one row
    became two lines or four columns (the wordalignaudit's note). It is escaped; JSON is exact."""
    from paralign.cli.paraphrases import render

    result = {"score_column": "probability", "phrases": [{"phrase": "a\tb", "paraphrases": [
        {"paraphrase": "line\nbreak", "probability": 0.5},
        {"paraphrase": "esc\x1b[2J", "probability": None}]}]}
    lines = render(result).splitlines()
    assert lines == ["a\\tb: 2 paraphrases", "  0.5\tline\\nbreak", "  -\tesc\\x1b[2J"]


QUERY_RUN = """
import json, sys
from paralign.cli import main
code = main(["paraphrases", "a car", "--table", sys.argv[1], "--format", "json"])
print(json.dumps([code, "pandas" in sys.modules]))
"""


@pytest.mark.parametrize("record", [{"options": {"tokenizer": "regex"}}, {}], ids=["built", "users"])
def test_a_phrase_found_in_a_parquet_table_imports_no_pandas(tmp_path, record):
    """Audit: checking a Parquet table's rows (`tables.checked_batch`) filled the nulls of its
    finite test with a Python True, which pyarrow converts through `pa.scalar` and so imports
    pandas: 0.38 s of the 1.0 s a one-phrase `paralign paraphrases` took on a 3-million-row
    table, when the phrase was found (0.65 s when it was not), though the lookup builds its
    phrase set from bytes to spare that import (docs/results/table-query.md). Whether built
    (a filtered read) or a user's (every row read), the answer now comes without pandas."""
    import subprocess
    import sys

    path = tmp_path / "t.parquet"
    with TableWriter(path, SCHEMA, record) as writer:
        writer.write(pa.Table.from_pylist([dict(zip(SCHEMA.names, row, strict=True)) for row in ROWS], schema=SCHEMA))
    done = subprocess.run([sys.executable, "-c", QUERY_RUN, str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    code, pandas = json.loads(done.stdout.splitlines()[-1])
    assert (code, pandas) == (0, False)


def test_help_says_a_pretokenised_tables_phrases_are_typed_tokenised(tmp_path, capsys):
    """A table built with --tokenizer moses (the OpenNMT corpus is Moses-tokenised) answered none to
    "Europe's", whose rows it holds as "europe 's", and the help said only how a regex table splits
    man's: now it says what to type, and what it says holds."""
    path = tmp_path / "moses.tsv"
    path.write_text('# paralign: {"options": {"lowercase": true, "tokenizer": "moses"}}\n'
                    "europe 's\tthe european\t0.5\n", encoding="utf-8")
    assert main(["paraphrases", "Europe's", "Europe 's", "--table", str(path), "--format", "json"]) == 0
    found = {entry["phrase"]: entry["paraphrases"] for entry in json.loads(capsys.readouterr().out)["phrases"]}
    assert found == {"Europe's": [], "Europe 's": [{"paraphrase": "the european", "score": 0.5}]}
    with pytest.raises(SystemExit):
        main(["paraphrases", "--help"])
    assert "give the phrase tokenised as that text was (europe 's, not Europe's)" in " ".join(capsys.readouterr().out.split())


def _ppdb_file() -> str:
    """PPDB's own file (the one the built-in ppdb reads); the test is skipped without it."""
    from paralign.errors import ResourceMissingError
    from paralign.resources import ppdb_path

    try:
        return str(ppdb_path())
    except ResourceMissingError as exc:
        pytest.skip(f"PPDB data not found: {exc}")


@pytest.mark.parametrize("name", ["ppdb", "wordnet"])
def test_the_built_in_sources_are_taken_by_name_as_every_command_takes_them(name, capsys):
    """`paraphrases cars --table ppdb` answered "ppdb: no such file" (exit 2), where `parametric
    table --table` and every --similarity take ppdb and wordnet by name. Now the command resolves
    them as they do (paraphrases.load_source) and lists what the library's source holds, unscored
    as a two-column table's rows are ('-', null in JSON, under `score`)."""
    from paralign.paraphrases import load_source

    if name == "ppdb":
        _ppdb_file()
    held = load_source(name).paraphrases("cars")
    assert main(["paraphrases", "Cars", "--table", name, "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["table"], result["score_column"]) == (name, "score")
    (entry,) = result["phrases"]
    rows = entry["paraphrases"]
    assert held and [row["paraphrase"] for row in rows] == sorted(held)  # unscored: by paraphrase
    assert all(row == {"paraphrase": row["paraphrase"], "score": None} for row in rows)
    assert main(["paraphrases", "cars", "--table", name, "--top-k", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("cars: 2 paraphrases\n") and f"  -\t{sorted(held)[0]}\n" in out


def test_ppdbs_own_file_is_read_both_ways_as_the_library_reads_it(capsys):
    """PPDB's file is an unordered list of synonym pairs (`uniquepairs`: `automobiles TAB cars`
    and `cars TAB vehicles` alike), which ppdb_table() reads both ways for the aligners, ParaEval
    and serve's paraphrases page (21 paraphrases of cars); given by its path, `paraphrases` read
    it one way, as a user's table (11, without automobiles). Now it is read as the built-in ppdb."""
    from paralign.paraphrases import ppdb_table

    path = _ppdb_file()
    assert main(["paraphrases", "cars", "--table", path, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert [row["paraphrase"] for row in rows] == sorted(ppdb_table().paraphrases("cars"))
    assert len(rows) == 21 and "automobiles" in {row["paraphrase"] for row in rows}


def test_a_table_with_a_threshold_is_read_as_the_other_commands_read_it(table, tmp_path, capsys):
    """`paraphrases a car --table FILE:0.4` said "FILE:0.4: no such file", where paraeval, meta-eval,
    parametric table, serve and --similarity take PATH:THRESHOLD (paraphrases.load_source). Now it
    keeps the rows scored at least the threshold (and unscored ones) as those commands hold the
    table, before --top-k; a threshold that is no number, or one given to a built-in, is refused
    as they refuse it."""
    from paralign.paraphrases import load_source

    spec = f"{table}:0.4"
    assert main(["paraphrases", "a car", "big", "--table", spec, "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    found = {entry["phrase"]: [row["paraphrase"] for row in entry["paraphrases"]] for entry in result["phrases"]}
    assert found == {"a car": ["a wagon"], "big": ["large"]} and result["table"] == spec
    held = load_source(spec)
    assert found == {phrase: list(held.paraphrases(phrase)) for phrase in found}
    assert main(["paraphrases", "a car", "--table", f"{table}:0.6"]) == 0
    assert capsys.readouterr().out == "a car: none\n"
    mine = tmp_path / "mine.tsv"  # unscored rows kept; a row under the threshold is no paraphrase
    mine.write_text("car\tvehicle\ncar\tautomobile\t0.1\ncar\tauto\t0.7\ncar\tautomobile\n", encoding="utf-8")
    assert main(["paraphrases", "car", "--table", f"{mine}:0.5", "--top-k", "2"]) == 0
    assert capsys.readouterr().out == "car: 2 paraphrases\n  0.7\tauto\n  -\tautomobile\n"
    for bad, said in ((f"{table}:x", "is not a threshold"), ("wordnet:0.5", "the built-in wordnet takes no threshold"),
                      (f"{table}:nan", "not a finite number")):
        assert main(["paraphrases", "a car", "--table", bad]) == 2
        assert said in capsys.readouterr().err


@pytest.mark.parametrize("name", ["ppdb", "wordnet"])
def test_a_built_in_source_shows_the_key_it_was_asked_with(name, capsys):
    """`paraphrases Cars --table ppdb` showed `Cars (as 'cars')`, the key PPDB was asked with;
    with `--table wordnet` it showed `Cars` though WordNet too was asked for `cars`. Both show
    the key now (looked_up_as), as serve's paraphrases answer does (paraphrases.lookup_key)."""
    from paralign.paraphrases import load_source, lookup_key

    if name == "ppdb":
        _ppdb_file()
    assert lookup_key(load_source(name), "  Cars ") == "cars"
    assert main(["paraphrases", "Cars", "--table", name, "--format", "json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["phrases"]
    assert (entry["phrase"], entry["looked_up_as"]) == ("Cars", "cars") and entry["paraphrases"]
    assert main(["paraphrases", "cars", "--table", name, "--format", "json"]) == 0
    assert "looked_up_as" not in json.loads(capsys.readouterr().out)["phrases"][0]


@pytest.mark.parametrize("threshold", ["-1", "-0.5", "-1e-9"])
@pytest.mark.parametrize("command", ["paraphrases", "paraeval", "align"])
def test_a_negative_threshold_is_refused_naming_the_option(table, tmp_path, capsys, command, threshold):
    """Audit (tabletail): `--table t.parquet:-1` (PATH:THRESHOLD, the rows scored at least THRESHOLD)
    was taken, and kept every row, as no threshold does: a table's scores are 0 or more. It is a
    usage error naming the option and what a threshold may be, before any table loads, text or JSON;
    -0 is 0, kept."""
    text = tmp_path / "s.txt"
    text.write_text("a car\n", encoding="utf-8")
    spec = f"{table}:{threshold}"
    argv = {"paraphrases": ["paraphrases", "a car", "--table", spec],
            "paraeval": ["paraeval", "-i", str(text), "-r", str(text), "--resources", "none", "--table", spec],
            "align": ["align", str(tmp_path / "no-such-pairs.tsv"), "--similarity", f"wordnet+{spec}"]}[command]
    option = "--similarity" if command == "align" else "--table"
    for form in ("text", "json"):
        assert main([*argv, "--format", form]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == (f"paralign {command}: error: argument {option}: paraphrase source {spec!r} has a "
                                f"threshold below 0 ({float(threshold)!r}), which keeps every row, as none does (a "
                                "table's scores are 0 or more): use a number of 0 or more, such as 0.5\n")
    if command == "paraphrases":
        assert main(["paraphrases", "a car", "--table", f"{table}:-0", "--format", "json"]) == 0
        assert len(json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]) == 2


@pytest.mark.parametrize("spec", ["", ":0.5", " ", " :0.5"])
@pytest.mark.parametrize("command", ["paraphrases", "paraeval"])
def test_a_table_spec_that_names_no_file_is_refused_naming_the_option(tmp_path, capsys, command, spec):
    """Audit (tabletail): `--table :0.5` (and `paraphrases --table ''`) read the path '' as the current
    folder, '.: is a directory, not a file', naming neither the option nor the spec. It is a usage error
    naming both (paraphrases.table_spec)."""
    text = tmp_path / "s.txt"
    text.write_text("a car\n", encoding="utf-8")
    argv = {"paraphrases": ["paraphrases", "a car", f"--table={spec}"],
            "paraeval": ["paraeval", "-i", str(text), "-r", str(text), "--resources", "none", f"--table={spec}"]}
    for form in ("text", "json"):
        assert main([*argv[command], "--format", form]) == 2
        assert capsys.readouterr().err == (f"paralign {command}: error: argument --table: paraphrase source {spec!r} "
                                           "names no file: use ppdb, wordnet, PATH or PATH:THRESHOLD\n")


def test_a_headed_tsv_tables_header_is_parsed_once_a_lookup(tmp_path, capsys, monkeypatch):
    """paralign paraphrases parsed a TSV table's header three times (its head, the score's name as
    the rows were read, the check of its names) and opened the file once more for the score's name."""
    import paralign.tables as tables

    path = tmp_path / "t.tsv"
    path.write_text("# phrase\tparaphrase\tscore\tpivots\na car\tan auto\t0.5\t2\n", encoding="utf-8")
    parsed: list[str] = []
    header_names = tables._header_names
    monkeypatch.setattr(tables, "_header_names", lambda first: parsed.append(first) or header_names(first))
    assert main(["paraphrases", "a car", "--table", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["phrases"][0]["paraphrases"]
    assert rows == [{"paraphrase": "an auto", "score": 0.5, "pivots": 2}]
    assert parsed == ["# phrase\tparaphrase\tscore\tpivots\n"]


@pytest.mark.parametrize("name", ["empty.tsv", "header.tsv", "empty.parquet", "-"])
def test_a_table_of_no_row_is_warned_of(tmp_path, capsys, monkeypatch, name):
    """`paraphrases --table EMPTY` answered every phrase with none, silently (the wrong file, a failed
    run's output), where paraeval, meta-eval and parametric table warn of a table holding no paraphrase."""
    import io

    path = tmp_path / name
    if name == "-":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    elif name == "empty.parquet":
        with TableWriter(path, SCHEMA) as writer:
            writer.write(SCHEMA.empty_table())
    else:
        path.write_text("# phrase\tparaphrase\tscore\n" if name == "header.tsv" else "", encoding="utf-8")
    table = "-" if name == "-" else str(path)
    assert main(["paraphrases", "a car", "--table", table, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["phrases"] == [{"phrase": "a car", "paraphrases": []}]
    shown = "<stdin>" if name == "-" else str(path)
    assert f"--table {shown}: the table holds no paraphrase (no row), so every phrase has none" in err, err


def test_a_table_with_rows_but_none_for_the_phrase_is_not_warned_of(table, capsys):
    assert main(["paraphrases", "nothing", "--table", str(table)]) == 0
    assert capsys.readouterr().err == ""
