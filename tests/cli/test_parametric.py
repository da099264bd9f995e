"""`paralign parametric align|table` end to end through `paralign.cli.main`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from paralign.cli import main

GOLD = [
    {"id": "doc.1.a", "source": "he quit his job .", "target": "he resigned from his job .",
     "sureAlign": "0-0 1-1 1-2 2-3 3-4 4-5", "possibleAlign": ""},
    {"id": "doc.1.b", "source": "he quit his job .", "target": "he left his post .",
     "sureAlign": "0-0 1-1 2-2 3-3 4-4", "possibleAlign": ""},
    {"id": "doc.2.a", "source": "same words", "target": "same words",
     "sureAlign": "0-0 1-1", "possibleAlign": ""},
]


def write_json(path: Path, items: list[dict]) -> Path:
    path.write_text(json.dumps(items), encoding="utf-8")
    return path


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    return write_json(tmp_path / "gold.json", GOLD)


def run_json(capsys, argv: list[str]) -> tuple[int, dict, str]:
    code = main(argv + ["--format", "json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {}, captured.err


def test_align_json_layout(tmp_path, gold, capsys):
    system = [dict(item, sureAlign="0-0 1-1 2-4 3-3 4-5") if n == 0 else item
              for n, item in enumerate(GOLD)]
    system[1] = dict(system[1], source=system[1]["source"].upper())  # case is ignored
    path = write_json(tmp_path / "system.json", system)
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                          "--system", str(path)])
    assert code == 0 and err == ""
    assert set(result["by_length"]) == {"1", "2", "3", "4", "5"}
    assert {"precision", "recall"} <= set(result["by_length"]["1"])
    assert 0 < result["precision"] < 1 and 0 < result["recall"] < 1
    assert result["pairs"] == 3 and result["skipped"] == 0


def test_align_reports_mismatched_pair(tmp_path, gold, capsys):
    system = [dict(item) for item in GOLD]
    system[1]["target"] = "an entirely different sentence"
    system[1]["sureAlign"] = "0-0"
    path = write_json(tmp_path / "system.json", system)
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                          "--system", str(path)])
    assert code == 0 and result["skipped"] == 1 and result["pairs"] == 2
    assert "doc.1.b" in err and "warning" in err
    assert result["precision"] == 1.0 and result["recall"] == 1.0


def test_align_text_output_and_missing_file(tmp_path, gold, capsys):
    assert main(["parametric", "align", "--gold", str(gold), "--system", str(gold),
                 "--max-length", "3"]) == 0
    out = capsys.readouterr().out
    assert "Length <= 3" in out and "Length <= 4" not in out and "AlignPrec" in out
    code, tight, _ = run_json(capsys, ["parametric", "align", "--gold", str(gold), "--system",
                                       str(gold), "--tight"])
    assert code == 0 and tight["precision"] == 1.0 and tight["gold"] > 0
    assert main(["parametric", "align", "--gold", str(gold), "--system",
                 str(tmp_path / "absent.json")]) == 2  # a missing file: a usage error (issue 23)
    assert "absent.json" in capsys.readouterr().err


def test_table_json_layout_and_single_sentence_group(tmp_path, gold, capsys):
    table = tmp_path / "table.tsv"
    table.write_text("quit\tresigned from\t0.5\nquit\tleft\t0.3\njob\tpost\t0.001\n", encoding="utf-8")
    code, result, err = run_json(capsys, ["parametric", "table", "--gold", str(gold),
                                          "--table", f"{table}:0.01"])
    assert code == 0
    assert {"lb_precision", "rel_recall", "posited", "correct", "reference", "by_length"} <= set(result)
    assert result["posited"] == 2 and result["correct"] == 2  # job->post is below the threshold
    assert result["lb_precision"] == 1.0 and 0 < result["rel_recall"] < 1
    assert result["skipped_groups"] == 1 and "'doc.2'" in err
    code, tight, _ = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table",
                                       str(table), "--tight", "--only-referenced",
                                       "--sentences", "hub"])
    assert code == 0 and tight["tight"] is True and tight["sentence_mode"] == "hub"
    assert tight["reference"] < result["reference"]


def test_table_shows_a_bar_of_the_rows_read_once_the_load_is_slow(tmp_path, gold, capsys, monkeypatch):
    """`parametric table --table BIG.tsv` read a 3-million-row table for half a minute with
    nothing on screen: the load's rows go through a bar named after the table, which shows
    (on a terminal) only once the load has taken TABLE_BAR_DELAY seconds."""
    from paralign.cli import _common

    bars: list[tuple[str, float, int]] = []

    def recording(items, desc, total=None, disable=None, delay=0):
        rows = list(items)
        bars.append((desc, delay, len(rows)))
        return rows

    monkeypatch.setattr(_common, "progress", recording)
    table = tmp_path / "table.tsv"
    table.write_text("quit\tresigned from\t0.5\nquit\tleft\t0.3\njob\tpost\t0.001\n", encoding="utf-8")
    code, result, _ = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table", str(table)])
    assert code == 0 and result["posited"] > 0
    assert bars == [(f"reading {table}", _common.TABLE_BAR_DELAY, 3)] and _common.TABLE_BAR_DELAY > 0


def test_table_line_without_tab(tmp_path, gold, capsys):
    table = tmp_path / "bad.tsv"
    table.write_text("quit\tleft\nquit left\n", encoding="utf-8")
    assert main(["parametric", "table", "--gold", str(gold), "--table", str(table)]) == 1
    assert f"{table}:2" in capsys.readouterr().err


def test_align_with_sultan(gold, capsys):
    from paralign.aligners.signature import alignment_signature

    code, result, _ = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                        "--system", "sultan"])
    assert code == 0 and result["pairs"] == 3 and result["system"] > 0
    signed, aligner = parts(result["signature"]), parts(alignment_signature(None))
    assert {key: signed[key] for key in aligner} == aligner  # sultan:default, sim, spacy, version
    assert "system" not in signed and signed["gold"] == "sure"


def parts(signature: str) -> dict[str, str]:
    """A signature's key:value parts (values may hold ':', as ``sultan:default``)."""
    return dict(part.split(":", 1) for part in signature.split("|"))


def test_align_signature_follows_links_max_length_and_the_system_file(tmp_path, gold, capsys):
    system = write_json(tmp_path / "system.json", GOLD)
    argv = ["parametric", "align", "--gold", str(gold), "--system", str(system)]
    _, first, _ = run_json(capsys, argv)
    found = parts(first["signature"])
    assert found["system"].startswith("system.json#") and found["maxlen"] == "5" and found["gold"] == "sure"
    assert main(argv) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines()[-1] == f"signature: {first['signature']}"
    _, possible, _ = run_json(capsys, argv + ["--links", "sure+possible", "--max-length", "3"])
    assert (parts(possible["signature"])["gold"], parts(possible["signature"])["maxlen"]) == ("sure+possible", "3")
    write_json(system, [dict(GOLD[0], sureAlign="0-0"), *GOLD[1:]])  # same name, other links
    _, changed, _ = run_json(capsys, argv)
    assert parts(changed["signature"])["system"].split("#")[1] != found["system"].split("#")[1]
    assert "possible" not in found  # --links sure reads no possible link
    # a companion sure+poss file beside the gold gives it possible links: the signature names it
    write_json(gold.with_name("gold.sure+poss.json"), [dict(GOLD[0], sureAlign=GOLD[0]["sureAlign"] + " 3-3"),
                                                       *GOLD[1:]])
    _, paired, _ = run_json(capsys, argv + ["--links", "sure+possible"])
    assert parts(paired["signature"])["possible"].startswith("gold.sure+poss.json#")
    assert parts(possible["signature"])["possible"] == "gold"


def test_table_signature_follows_the_table_and_its_options(tmp_path, gold, capsys, monkeypatch):
    rows = "quit\tresigned from\t0.5\nquit\tleft\t0.3\n"
    table = tmp_path / "table.tsv"
    table.write_text(rows, encoding="utf-8")
    argv = ["parametric", "table", "--gold", str(gold)]
    _, cut, _ = run_json(capsys, argv + ["--table", f"{table}:0.4"])
    _, whole, _ = run_json(capsys, argv + ["--table", str(table), "--only-referenced", "--tight"])
    cut_parts, whole_parts = parts(cut["signature"]), parts(whole["signature"])
    assert "possible" not in cut_parts  # --links sure reads no possible link
    assert cut_parts["table"].startswith("table.tsv:0.4#") and whole_parts["table"].startswith("table.tsv#")
    assert cut_parts["table"].split("#")[1] != whole_parts["table"].split("#")[1]  # the threshold drops a row
    assert (whole_parts["only_referenced"], whole_parts["tight"], cut_parts["tight"]) == ("yes", "yes", "no")
    _stdin(monkeypatch, rows)
    _, piped, _ = run_json(capsys, argv + ["--table=-:0.4"])
    assert parts(piped["signature"])["table"] == "<stdin>:0.4#" + cut_parts["table"].split("#")[1]
    assert main(argv + ["--table", str(table), "--sentences", "hub"]) == 0
    last = capsys.readouterr().out.rstrip("\n").splitlines()[-1]
    assert last.startswith("signature: table:table.tsv#") and "|sentences:hub|" in last


def test_align_reports_bad_lines_and_scores_the_rest(tmp_path, gold, capsys):
    """A malformed system line or gold item skips that pair on both sides, keeping positions."""
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 1-1 1-2 2-3 3-4 4-5\n0-0 x-1\n0-0 1-1\n", encoding="utf-8")
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                          "--system", str(system)])
    assert code == 0 and result["pairs"] == 2 and result["skipped"] == 1
    assert f"{system}:2: malformed link 'x-1'" in err and "doc.1.b" in err
    assert result["skipped_rows"][0] == {"pair": 2, "id": "doc.1.b", "file": str(system), "line": 2,
                                         "reason": "malformed link 'x-1' (expected i-j, i?j or ipj)"}
    assert result["precision"] == 1.0 and result["recall"] == 1.0  # pairs 1 and 3 stay matched
    bad_gold = write_json(tmp_path / "bad_gold.json",
                          [GOLD[0], dict(GOLD[1], sureAlign="0-0 9-9"), GOLD[2]])
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(bad_gold),
                                          "--system", str(gold)])
    assert code == 0 and result["pairs"] == 2 and f"{bad_gold}:" in err and "9-9" in err


def test_align_every_pair_bad_is_an_error(tmp_path, gold, capsys):
    system = tmp_path / "system.pharaoh"
    system.write_text("9-9\n0-0 8-8\n7-0\n", encoding="utf-8")  # every link outside
    assert main(["parametric", "align", "--gold", str(gold), "--system", str(system),
                 "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "no pair could be scored" in captured.err


# -- '-' reads stdin (--gold, --system, --table) -------------------------------------------------
def test_table_read_back_from_the_disk_cache_gives_the_same_scores_and_signature(tmp_path, gold, capsys, monkeypatch,
                                                                               table_cache):
    """A user's table is parsed by the first command and read back from the disk cache by the
    next, to the same output (scores and the signature's hash); a changed file is parsed again,
    and a table from stdin is never kept."""
    folder, parsed = table_cache
    rows = "quit\tresigned from\t0.5\nquit\tleft\t0.3\njob\tpost\t0.001\n"
    table = tmp_path / "table.tsv"
    table.write_text(rows, encoding="utf-8")
    argv = ["parametric", "table", "--gold", str(gold), "--table", f"{table}:0.01"]
    cold, warm = run_json(capsys, argv), run_json(capsys, argv)
    assert cold == warm and cold[0] == 0 and parsed == [str(table)]
    assert parts(cold[1]["signature"])["table"].startswith("table.tsv:0.01#")
    assert len(list(folder.glob("table-*.marshal"))) == 1
    table.write_text(rows.replace("quit\tleft\t0.3\n", ""), encoding="utf-8")
    _, changed, _ = run_json(capsys, argv)
    assert len(parsed) == 2 and changed["posited"] == cold[1]["posited"] - 1
    assert parts(changed["signature"])["table"] != parts(cold[1]["signature"])["table"]
    _stdin(monkeypatch, rows)
    _, piped, _ = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table=-:0.01"])
    assert len(parsed) == 3 and piped["posited"] == cold[1]["posited"]
    assert len(list(folder.glob("table-*.marshal"))) == 1  # the changed file's entry, none of stdin's copy


def _stdin(monkeypatch, text: str) -> None:
    """stdin as in a shell: text over a byte buffer (read_once copies the bytes)."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def _no_temp_path(result: dict, err: str) -> bool:
    return "paralign-" not in json.dumps(result) + err


def test_align_reads_stdin_and_names_it(tmp_path, gold, capsys, monkeypatch):
    _stdin(monkeypatch, "0-0 1-1 1-2 2-3 3-4 4-5\n0-0 x-1\n0-0 1-1\n")
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold), "--system", "-"])
    assert code == 0 and result["pairs"] == 2 and result["skipped"] == 1
    assert result["skipped_rows"][0]["file"] == "<stdin>" and result["skipped_rows"][0]["line"] == 2
    assert "<stdin>:2: malformed link 'x-1'" in err and "<stdin>:2" in result["warnings"][0]
    assert _no_temp_path(result, err)
    bad_gold = [GOLD[0], dict(GOLD[1], sureAlign="0-0 9-9"), GOLD[2]]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(bad_gold)))  # no byte buffer
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", "-", "--system", str(gold)])
    assert code == 0 and result["pairs"] == 2 and result["skipped_rows"][0]["file"] == "<stdin>"
    assert "<stdin>:1: pair 'doc.1.b'" in err and _no_temp_path(result, err)


def test_align_stdin_errors_name_stdin(gold, capsys, monkeypatch):
    _stdin(monkeypatch, "9-9\n0-0 8-8\n7-0\n")
    assert main(["parametric", "align", "--gold", str(gold), "--system", "-"]) == 1
    err = capsys.readouterr().err
    assert "no pair could be scored" in err and "/ <stdin>" in err and "paralign-" not in err
    _stdin(monkeypatch, "[{")
    assert main(["parametric", "align", "--gold", "-", "--system", str(gold)]) == 1
    err = capsys.readouterr().err
    assert "<stdin>" in err and "paralign-" not in err
    assert main(["parametric", "align", "--gold", "-", "--system", "-"]) == 2  # a usage error (issue 23)
    assert "stdin can be read only once" in capsys.readouterr().err


def test_table_reads_stdin_and_names_it(tmp_path, gold, capsys, monkeypatch):
    rows = "quit\tresigned from\t0.5\nquit\tleft\t0.3\njob\tpost\t0.001\n"
    table = tmp_path / "table.tsv"
    table.write_text(rows, encoding="utf-8")
    _, expected, _ = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table", f"{table}:0.01"])
    _stdin(monkeypatch, rows)
    code, result, err = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table=-:0.01"])
    assert code == 0 and result["source"] == "<stdin>" and _no_temp_path(result, err)
    assert (result["posited"], result["correct"]) == (expected["posited"], expected["correct"]) == (2, 2)
    _stdin(monkeypatch, rows)
    assert main(["parametric", "table", "--gold", str(gold), "--table", "-"]) == 0
    out = capsys.readouterr().out
    assert "scores of <stdin>" in out and "paralign-" not in out
    _stdin(monkeypatch, json.dumps(GOLD))
    code, result, err = run_json(capsys, ["parametric", "table", "--gold", "-", "--table", str(table)])
    assert code == 0 and result["reference"] == expected["reference"] and _no_temp_path(result, err)
    _stdin(monkeypatch, "quit\tleft\nquit left\n")
    assert main(["parametric", "table", "--gold", str(gold), "--table", "-"]) == 1
    err = capsys.readouterr().err
    assert "<stdin>:2" in err and "paralign-" not in err
    assert main(["parametric", "table", "--gold", "-", "--table", "-"]) == 2  # a usage error (issue 23)
    assert "stdin can be read only once" in capsys.readouterr().err


# -- parametric table: bad gold items are skipped, the rest scored -------------------------------
def test_table_skips_bad_gold_items(tmp_path, gold, capsys, monkeypatch):
    table = tmp_path / "table.tsv"
    table.write_text("quit\tresigned from\nquit\tleft\njob\tpost\n", encoding="utf-8")
    _, expected, _ = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table", str(table)])
    items = [json.dumps({"id": g["id"], "source": g["source"], "target": g["target"],
                         "sure": g["sureAlign"]}) for g in GOLD]
    bad = [items[0], '{"id": "doc.1.c", "source": "he quit", "target": "he left", "sure": "0-0 7-7"}',
           items[1], '{"id": "doc.3.a", "source": "cut short', items[2]]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    code, result, err = run_json(capsys, ["parametric", "table", "--gold", str(path), "--table", str(table)])
    assert code == 0
    for key in ("posited", "correct", "reference", "groups", "sentences"):
        assert result[key] == expected[key], key  # the good items score as without the bad ones
    assert [(r["pair"], r["file"], r["line"]) for r in result["skipped_rows"]] == [(2, str(path), 2),
                                                                                 (4, str(path), 4)]
    assert "7-7" in result["skipped_rows"][0]["reason"]
    assert f"{path}:2:" in err and f"{path}:4:" in err and "warning" in err
    assert sum(f"{path}:" in w for w in result["warnings"]) == 2
    assert main(["parametric", "table", "--gold", str(path), "--table", str(table)]) == 0
    assert "2 bad gold items skipped" in capsys.readouterr().out
    _stdin(monkeypatch, "\n".join(bad) + "\n")
    code, result, err = run_json(capsys, ["parametric", "table", "--gold", "-", "--table", str(table)])
    assert code == 0 and {r["file"] for r in result["skipped_rows"]} == {"<stdin>"}
    assert "<stdin>:2:" in err and _no_temp_path(result, err)


def test_table_every_gold_item_bad_is_an_error(tmp_path, capsys):
    table = tmp_path / "table.tsv"
    table.write_text("quit\tleft\n", encoding="utf-8")
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a.1", "source": "x", "target": "y", "sure": "5-5"}\n{"id": "a.2",\n',
                    encoding="utf-8")
    assert main(["parametric", "table", "--gold", str(path), "--table", str(table), "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and f"{path}: no gold pair could be read" in captured.err
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    assert main(["parametric", "table", "--gold", str(empty), "--table", str(table)]) == 1
    assert f"{empty}: no gold pairs" in capsys.readouterr().err


@pytest.mark.parametrize(("old", "name", "new"), [
    ("paralign.metrics.parametric", "render_align_scores", "paralign.cli._render"),
    ("paralign.metrics.parametric", "render_table_scores", "paralign.cli._render"),
    ("paralign.metrics.alignment_scores", "render_scores", "paralign.cli._render"),
    ("paralign.metrics.parametric", "align_with", "paralign.cli.parametric"),
    ("paralign.metrics.parametric", "ALIGNERS", "paralign.cli.parametric"),
])
def test_moved_names_still_import_from_their_old_module_with_a_warning(old, name, new):
    import importlib

    with pytest.warns(DeprecationWarning, match=rf"{old}\.{name} has moved to {new}\.{name}"):
        value = getattr(importlib.import_module(old), name)
    assert value is getattr(importlib.import_module(new), name)


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_table_threshold_that_is_not_a_finite_number_is_a_usage_error(tmp_path, gold, capsys, value):
    table = tmp_path / "table.tsv"
    table.write_text("quit\tleft\t0.3\n", encoding="utf-8")
    assert main(["parametric", "table", "--gold", str(gold), "--table", f"{table}:{value}"]) == 2
    err = capsys.readouterr().err
    assert f"table.tsv:{value}'" in err and "not a finite number" in err and "Traceback" not in err


def test_align_names_blank_lines_after_the_system_pairs(tmp_path, gold, capsys):
    """Pharaoh system lines with two blank lines after the last pair: the count mismatch says
    they are empty (it said only '5 pairs but ... 3')."""
    system = tmp_path / "system.pharaoh"
    system.write_text("".join(pair["sureAlign"] + "\n" for pair in GOLD) + "\n\n", encoding="utf-8")
    code = main(["parametric", "align", "--gold", str(gold), "--system", str(system)])
    err = capsys.readouterr().err
    assert code == 1 and f"has {len(GOLD) + 2} pairs but" in err
    assert "(its last 2 lines are empty: blank lines at the end of the file?" in err


def test_align_says_when_a_systems_links_look_1_based_or_swapped(tmp_path, gold, capsys):
    """A system of 1-based (GIZA-style) or target-source links had its pairs skipped with only
    'link 5-6 outside sentences of 5 and 6 tokens': score-alignments says which mistake explains
    it, parametric align said nothing, so a whole file of such warnings read as bad data."""
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 5-1\n1-1 5-5\n0-0 1-1\n", encoding="utf-8")  # swapped, 1-based, fine
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold),
                                          "--system", str(system)])
    assert code == 0 and result["pairs"] == 1 and result["skipped"] == 2
    swapped, one_based = (row["reason"] for row in result["skipped_rows"])
    assert one_based.endswith("all its links fit 1 lower: are the system's indices 1-based? "
                              "(Pharaoh links are 0-based)")
    assert swapped.endswith("all its links fit with source and target swapped: are the system's "
                            "links target-source?")
    assert "1-based" in err and "target-source" in err


def _help(capsys, argv: list[str]) -> str:
    """`argv --help` as one line of words (argparse wraps descriptions at any space)."""
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", ["align", "table"])
def test_help_explains_every_output_column(capsys, command):
    """`parametric align|table --help` named no output column: what 'matched', 'system', 'gold'
    or 'posited' and 'reference' count, and what the rows' Length bound is, were only in
    docs/results. Each column the text table prints is now explained as NAME = ..."""
    from paralign.cli._render import _ALIGN_COLUMNS, _TABLE_COLUMNS

    text = _help(capsys, ["parametric", command])
    columns = _ALIGN_COLUMNS if command == "align" else _TABLE_COLUMNS
    assert all(f"{name} =" in text for name, _, _ in columns), text
    assert "Length <= n" in text and "signature" in text


def test_help_says_what_links_and_a_threshold_choose(capsys):
    """--links chooses the system's link set too in `align` (its possible links count only with
    sure+possible), and PATH:THRESHOLD keeps a table's unscored rows: the help said only 'gold
    links' and 'keeps scores >= THRESHOLD'."""
    assert "the system's possible links count only with sure+possible" in _help(capsys, ["parametric", "align"])
    assert "unscored rows are kept" in _help(capsys, ["parametric", "table"])


@pytest.mark.parametrize("command", ["align", "table"])
def test_a_gold_of_links_only_is_named_as_such(tmp_path, capsys, command):
    """A gold of Pharaoh lines (links, no sentences) cannot give ParaMetric's phrase pairs: each
    pair is left out saying so, as evaluate-aligner says of such a gold. `align` failed with
    'link 0-0 outside sentences of 0 and 0 tokens' for every pair; `table` exited 0 with a
    table of n/a over '0 groups' and a warning per line that its group had 1 distinct sentence."""
    gold = tmp_path / "gold.pharaoh"
    gold.write_text("0-0 1-1\n0-0\n", encoding="utf-8")
    table = tmp_path / "table.tsv"
    table.write_text("quit\tleft\n", encoding="utf-8")
    given = ["--system", str(gold)] if command == "align" else ["--table", str(table)]
    code = main(["parametric", command, "--gold", str(gold), *given])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and len(err.splitlines()) == 1, err
    assert f"{gold}:1: no source or target sentence (links only)" in err and "no reference" not in err


def test_a_gold_item_of_links_only_is_left_out_of_a_table_s_groups(tmp_path, gold, capsys):
    """One Pharaoh-like JSONL item (links only) among the gold's pairs is left out of its group
    and listed in skipped_rows, as an unreadable item is; the other groups score as before."""
    code, before, _ = run_json(capsys, ["parametric", "table", "--gold", str(gold), "--table", "wordnet"])
    mixed = tmp_path / "mixed.jsonl"
    lines = [json.dumps({"id": p["id"], "source": p["source"], "target": p["target"],
                         "sure": [list(map(int, link.split("-"))) for link in p["sureAlign"].split()]})
             for p in GOLD]
    mixed.write_text("\n".join([*lines, json.dumps({"id": "doc.3.a", "sure": [[0, 0]]})]) + "\n", encoding="utf-8")
    code, after, err = run_json(capsys, ["parametric", "table", "--gold", str(mixed), "--table", "wordnet"])
    assert code == 0 and [row["pair"] for row in after["skipped_rows"]] == [4]
    assert "links only" in after["skipped_rows"][0]["reason"] and "links only" in err
    assert (after["groups"], after["by_length"]) == (before["groups"], before["by_length"])


def test_table_of_no_group_that_can_be_scored_is_an_error(tmp_path, capsys):
    """Every group with one distinct sentence: it exited 0 with a table of n/a over 0 groups,
    where `parametric align` and `score-alignments` say no pair could be scored."""
    table = tmp_path / "table.tsv"
    table.write_text("quit\tleft\t0.5\n", encoding="utf-8")
    same = [{"id": f"{doc}.1", "source": "he quit", "target": "he quit", "sure": [[0, 0], [1, 1]]} for doc in "ab"]
    path = write_json(tmp_path / "same.json", same)
    assert main(["parametric", "table", "--gold", str(path), "--table", str(table), "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no group could be scored: 2 groups skipped (first: group 'a' has 1 distinct sentence" in captured.err


def test_align_names_a_1_based_system_whose_links_all_fit(tmp_path, capsys):
    """A 1-based (GIZA-style) Pharaoh file whose links all fit the gold's sentences (none on
    their last words) was scored as written: AlignPrec .319 and AlignRecall .130 on 300 MTReference
    pairs, with no warning, where score-alignments says "its links match the gold's 5043 times
    read 1 lower ... are the system's indices 1-based?". parametric align now warns the same."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(
        json.dumps({"id": f"d.{k}", "source": "a b c d e f", "target": "u v w x y z",
                    "sure": [[i, i] for i in range(5)]}) + "\n" for k in range(3)), encoding="utf-8")
    system = tmp_path / "system.pharaoh"
    system.write_text("1-1 2-2 3-3 4-4 5-5\n" * 3, encoding="utf-8")
    code, result, err = run_json(capsys, ["parametric", "align", "--gold", str(gold), "--system", str(system)])
    assert code == 0 and result["pairs"] == 3 and result["skipped"] == 0
    (warning,) = result["warnings"]
    assert warning == (f"{system}: its links match the gold's 15 times read 1 lower, 12 as written: "
                       "are the system's indices 1-based? (Pharaoh links are 0-based)")
    assert warning in err
    system.write_text("0-0 1-1 2-2 3-3 4-4\n" * 3, encoding="utf-8")
    assert run_json(capsys, ["parametric", "align", "--gold", str(gold), "--system", str(system)])[1]["warnings"] == []


@pytest.mark.parametrize("command", [["align", "--system"], ["table", "--table"]])
def test_sure_plus_possible_on_a_gold_without_possible_links_says_so(tmp_path, gold, capsys, command):
    """`--links sure+possible` on a gold of sure links only scored its sure links, signed
    gold:sure+possible, without a word (score-alignments warns); both commands now warn."""
    other = tmp_path / ("system.json" if command[0] == "align" else "t.tsv")
    if command[0] == "align":
        write_json(other, GOLD)
    else:
        other.write_text("quit\tresigned from\n", encoding="utf-8")
    argv = ["parametric", command[0], "--gold", str(gold), command[1], str(other)]
    warning = f"{gold}: no possible links in the gold (only sure ones): scoring against sure+possible scores its sure links only"
    code, result, err = run_json(capsys, [*argv, "--links", "sure+possible"])
    assert code == 0 and warning in result["warnings"] and warning in err
    assert warning not in run_json(capsys, argv)[1]["warnings"]
    with_possible = write_json(tmp_path / "possible.json", [dict(GOLD[0], possibleAlign="2-2"), *GOLD[1:]])
    argv[3] = str(with_possible)
    assert all("no possible links" not in w for w in run_json(capsys, [*argv, "--links", "sure+possible"])[1]["warnings"])


def test_table_help_says_how_a_table_s_phrases_are_matched(capsys):
    """--table's help named the formats but not how their phrases meet the gold's: a user's TSV
    of untokenised rows ("man's hat") is matched as written and misses the gold's "man 's hat"."""
    text = _help(capsys, ["parametric", "table"])
    assert "(.gz too;" in text and "any other is matched as written, so split its phrases as the gold's tokens are" in text


@pytest.mark.parametrize("command", ["align", "table"])
def test_links_sure_signs_no_companion_it_does_not_read(tmp_path, command, capsys):
    """--links sure signed the sure+poss companion beside the gold (possible:NAME#HASH), whose
    possible links no phrase pair of sure links reads: the same numbers under one signature
    without the companion, another with it, a third with other possible links in it. Now --links
    sure has no possible part, and sure+possible names the companion as before. A sure+poss gold
    completed by its .sure.json companion takes its sure links from it: that one stays signed."""
    folder = tmp_path / "g"
    folder.mkdir()
    gold = write_json(folder / "gold.sure.json", GOLD)
    system = write_json(tmp_path / "system.json", [dict(GOLD[0], sureAlign="0-0 1-1"), *GOLD[1:]])
    table = tmp_path / "t.tsv"
    table.write_text("quit\tleft\t0.5\n", encoding="utf-8")
    chosen = ["--system", str(system)] if command == "align" else ["--table", str(table)]
    argv = ["parametric", command, "--gold", str(gold), *chosen]
    figures = ("precision", "recall") if command == "align" else ("lb_precision", "rel_recall")

    def scored(*links: str) -> tuple[tuple, dict[str, str]]:
        result = run_json(capsys, [*argv, *links])[1]
        return tuple(result[k] for k in figures), parts(result["signature"])

    alone = scored()
    companion = gold.with_name("gold.sure+poss.json")
    runs = []
    for extra in (" 3-3", " 3-3 2-1"):  # two companions: other possible links
        write_json(companion, [dict(GOLD[0], sureAlign=GOLD[0]["sureAlign"] + extra), *GOLD[1:]])
        runs.append(scored())
        assert scored("--links", "sure+possible")[1]["possible"].startswith("gold.sure+poss.json#")
    assert runs[0] == runs[1] == alone and "possible" not in alone[1]
    argv[3] = str(companion)  # the sure+poss file as the gold: its sure links are gold.sure.json's
    with_sure = scored()
    assert with_sure[1]["possible"].startswith("gold.sure+poss.json#")
    gold.unlink()
    assert "possible" not in scored()[1]  # read alone: its own links, all sure


def test_a_system_or_table_whose_name_holds_a_bar_is_a_usage_error(tmp_path, gold, capsys):
    """``--system s|1.json`` and ``--table t|x.tsv`` ran, exit 0, signed ``system:s|1.json#HASH``
    and ``table:t|x.tsv#HASH``, read back as two parts each; now usage errors naming the option
    and the file."""
    system = write_json(tmp_path / "s|1.json", GOLD)
    table = tmp_path / "t|x.tsv"
    table.write_text("sat\trested\n", encoding="utf-8")
    for argv, option, path in ((["align", "--system", str(system)], "--system", system),
                               (["table", "--table", str(table)], "--table", table)):
        code, _, err = run_json(capsys, ["parametric", *argv, "--gold", str(gold)])
        assert code == 2
        assert f"argument {option}: {path}: the file's name '{path.name}' holds '|'" in err


@pytest.mark.parametrize("command", ["align", "table"])
def test_a_bad_gold_item_is_named_by_its_id_as_score_alignments_names_it(tmp_path, gold, capsys, command):
    """A bad gold item's `skipped_rows` record had `"id": null` (and its warning no id), though
    the reader gave the item its id: `score-alignments` on the same file, and `parametric align`
    for a bad system item, name it. Now the record and the warning carry the reader's id, as
    `score-alignments`' do."""
    path = tmp_path / "bad.json"
    write_json(path, [GOLD[0], dict(GOLD[1], sureAlign="0-0 9-9"), GOLD[2]])
    other = ["--system", str(gold)] if command == "align" else ["--table", "wordnet"]
    code, result, err = run_json(capsys, ["parametric", command, "--gold", str(path), *other])
    _, scored, _ = run_json(capsys, ["score-alignments", "--gold", str(path), "--system", str(gold)])
    assert code == 0 and result["skipped_rows"][0]["id"] == scored["skipped_rows"][0]["id"] == "doc.1.b"
    assert "pair 2 (gold id 'doc.1.b'):" in err


def test_table_text_says_how_many_groups_were_skipped(tmp_path, gold, capsys):
    """The text title counted the bad gold items left out but not the groups (`skipped_groups` in
    JSON: here doc.2, one distinct sentence): a report written with -o said "over 1 group" and
    nothing of the group its warning, on stderr only, had named. It now counts both."""
    out = tmp_path / "report.txt"
    assert main(["parametric", "table", "--gold", str(gold), "--table", "wordnet", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[0].endswith("over 1 group, 3 sentences (1 group skipped)")
    bad = write_json(tmp_path / "bad.json", [*GOLD, dict(GOLD[1], id="doc.1.c", sureAlign="0-0 9-9")])
    assert main(["parametric", "table", "--gold", str(bad), "--table", "wordnet"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("(1 bad gold item skipped, 1 group skipped)")
