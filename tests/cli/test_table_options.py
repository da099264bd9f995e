"""`cli._table_options`: ParaEval's sources on the command line, and the warning naming a table of no
paraphrase by the spec it was loaded from."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest

from paralign.cli import main
from paralign.cli._table_options import load_tables, warn_empty_tables
from paralign.paraphrases import ParaphraseTable, load_table


def test_an_empty_table_is_named_by_its_spec_whatever_the_order_of_the_tables(tmp_path, capsys):
    """The tables were matched with their specs by their places at the end of the scorer's sources:
    given in another order than the specs (or among other sources), the warning named the wrong
    table, or none. Now each table is found by the spec it was loaded from."""
    full, empty = tmp_path / "full.tsv", tmp_path / "empty.tsv"
    full.write_text("cat\tfeline\t0.9\n", encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    specs = [str(full), str(empty)]
    warn_empty_tables(specs, {str(empty): load_table(empty), str(full): load_table(full)})  # another order
    assert capsys.readouterr().err == (f"paralign: warning: --table {empty}: the table holds no paraphrase: "
                                       "scored as without it\n")


def test_a_table_given_twice_is_loaded_and_warned_of_once(tmp_path, capsys):
    empty = tmp_path / "empty.tsv"
    empty.write_text("", encoding="utf-8")
    with ExitStack() as stack:
        loaded = load_tables(stack, [str(empty), "wordnet", str(empty)], None)
    assert list(loaded) == [str(empty), "wordnet"] and isinstance(loaded[str(empty)], ParaphraseTable)
    warn_empty_tables([str(empty), "wordnet", str(empty)], loaded)
    assert capsys.readouterr().err.count("warning") == 1


@pytest.mark.parametrize("command", ["paraeval", "meta-eval"])
def test_the_commands_warn_of_the_empty_table_in_any_place_and_score_with_the_others(tmp_path, capsys, command):
    """Through both commands: the empty table first or last among the tables, beside the default
    resources, is the one named; the scores are those without it."""
    full, empty = tmp_path / "full.tsv", tmp_path / "empty.tsv"
    full.write_text("cat\tfeline\t0.9\n", encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    ref = tmp_path / "r.txt"
    ref.write_text("the feline sat\na dog ran\nprices went up\n", encoding="utf-8")
    hyp = tmp_path / "h.txt"
    hyp.write_text("the cat sat\na dog ran\nprices rose\n", encoding="utf-8")
    if command == "paraeval":
        base = ["paraeval", "-r", str(ref), "-i", str(hyp), "--format", "json"]
    else:
        pytest.importorskip("scipy")
        root = tmp_path / "wmt"
        for sub in ("references", "system-outputs", "sources"):
            (root / "txt" / sub).mkdir(parents=True)
        (root / "humaneval").mkdir()
        (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").write_bytes(ref.read_bytes())
        for name in ("One", "Two", "Three"):
            (root / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en").write_bytes(hyp.read_bytes())
        (root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv").write_text(
            "80.0 0.5 3 3 a One\n60.0 0.1 3 3 b Two\n20.0 -0.6 3 3 c Three\n", encoding="utf-8")
        base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "paraeval", "--resamples", "2",
                "--format", "json"]
    outs = []
    for tables in ([empty, full], [full, empty], [full]):
        assert main([*base, *(arg for table in tables for arg in ("--table", str(table)))]) == 0
        out, err = capsys.readouterr()
        assert err.count("holds no paraphrase") == (empty in tables) and (empty in tables) <= (str(empty) in err)
        outs.append(out)
    if command == "paraeval":  # the same scores as without it, and one signature in either order
        assert outs[0] == outs[1] and json.loads(outs[0])["f"] == json.loads(outs[2])["f"]


@pytest.mark.parametrize("command", ["paraeval", "meta-eval"])
@pytest.mark.parametrize(("resources", "said"), [
    ("foo", "unknown resource 'foo' (use ppdb, wordnet or none)"),
    ("ppdb, PPDB", "unknown resource 'PPDB' (use ppdb, wordnet or none)"),
    ("none,wordnet", "'none' (no built-in source) given with 'wordnet': give 'none' alone, or the sources without it"),
])
def test_a_resource_name_is_checked_before_anything_is_read_naming_the_option(tmp_path, capsys, command,
                                                                              resources, said):
    """``meta-eval --resources foo`` read WMT's files before the scorer said
    ``unknown resource 'foo'``, naming no option; ``paraeval`` read every file first (a missing
    reference was the error then). Now it is the first usage error, naming --resources."""
    argv = (["paraeval", "-r", str(tmp_path / "missing.txt")] if command == "paraeval"
            else ["meta-eval", "--pair", "de-en", "--metrics", "paraeval"])
    assert main([*argv, "--resources", resources]) == 2
    assert capsys.readouterr().err == f"paralign {command}: error: argument --resources: {said}\n"


def test_resources_checked_before_the_data_loads_are_not_checked_again(monkeypatch):
    """`resource_names` checks --resources before any data loads; `paraeval_sources` builds their
    sources after without checking them a second time (`build_sources` checked them again)."""
    import paralign.metrics.paraeval.paper as paper
    from paralign.cli._table_options import paraeval_sources, resource_names

    names = resource_names("none")
    checks = []
    monkeypatch.setattr(paper, "check_resource_names", lambda *args: checks.append(args) or list(args[0]))
    with ExitStack() as stack:
        assert paraeval_sources(stack, "default", names, [], None) == []
    assert checks == []
