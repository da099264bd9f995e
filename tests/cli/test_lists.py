"""`cli._lists.comma_list`: the one reading of a LIST option, and the options that read through it."""

from __future__ import annotations

import pytest

from paralign.cli import main
from paralign.cli._lists import comma_list
from paralign.errors import ConfigurationError


def test_items_are_stripped_and_kept_in_order():
    assert comma_list("--resources", "wordnet, ppdb", "ppdb") == ["wordnet", "ppdb"]


@pytest.mark.parametrize(("text", "where", "kept"), [
    ("ppdb,,wordnet", "item 2 of 3", "ppdb,wordnet"), ("ppdb,", "item 2 of 2", "ppdb"),
    (",ppdb, ,wordnet", "items 1, 3 of 4", "ppdb,wordnet")])
def test_an_empty_item_is_refused_naming_the_option_and_the_item(text, where, kept):
    with pytest.raises(ConfigurationError) as found:
        comma_list("--resources", text, "ppdb,wordnet")
    message = str(found.value)
    assert message.startswith(f"argument --resources: {text!r} has an empty ") and where in message
    assert message.endswith(f"give each between commas, e.g. {kept}")  # the list without it


@pytest.mark.parametrize("text", ["", " ", " , "])
def test_a_list_of_no_item_is_refused_with_the_example(text):
    with pytest.raises(ConfigurationError, match="argument --refs: no item given: .* e.g. A,B$"):
        comma_list("--refs", text, "A,B")


RESOURCES_EMPTY_ITEM = ("--resources", "ppdb,,wordnet", "'ppdb,,wordnet' has an empty item (item 2 of 3)")
RESOURCES_NONE = ("--resources", "", "no item given: give a comma-separated list, e.g. ppdb,wordnet, or none for no built-in")


@pytest.mark.parametrize(("command", "option", "value", "said"), [
    ("paraeval", *RESOURCES_EMPTY_ITEM), ("paraeval", *RESOURCES_NONE),
    ("meta-eval", *RESOURCES_EMPTY_ITEM), ("meta-eval", *RESOURCES_NONE),
    ("meta-eval", "--metrics", "bleu,,chrf", "'bleu,,chrf' has an empty item (item 2 of 3)"),
    ("meta-eval", "--refs", "A,", "'A,' has an empty item (item 2 of 2)"),
    ("serve", *RESOURCES_EMPTY_ITEM), ("serve", *RESOURCES_NONE),
    ("serve", "--resources", "ppdb,thesaurus", "unknown resource 'thesaurus' (use ppdb, wordnet or none)"),
])
def test_every_list_option_refuses_an_empty_item_before_any_work(tmp_path, capsys, monkeypatch, command, option,
                                                                  value, said):
    """``--resources ppdb,,wordnet`` and ``--metrics bleu,,chrf`` dropped the empty item silently,
    ``--resources ''`` scored with no source (signed res:none), ``--refs A,`` said ``no reference
    set ''``: each is now the usage error of one reading, exit 2, before any file is read (meta-eval's
    WMT folder is not even there). ``serve --resources`` split its list itself: ``ppdb,,wordnet``
    served both, ``''`` none, and an unknown name was refused after the address was bound, as
    ``resources: ...`` (serving is stubbed: a check missed returns 0)."""
    ref = tmp_path / "r.txt"
    ref.write_text("the cat sat\n", encoding="utf-8")
    argv = {"paraeval": ["paraeval", "-r", str(ref), "-i", str(ref)],
            "meta-eval": ["meta-eval", "--pair", "de-en", *(["--metrics", "paraeval"] if option != "--metrics" else [])],
            "serve": ["serve", "--port", "0"]}[command]
    if command == "serve":  # serve split --resources itself: ppdb,,wordnet loaded two, '' none, then served
        pytest.importorskip("fastapi", reason="the web extra is not installed")
        from paralign.cli import serve

        monkeypatch.setattr(serve, "_serve", lambda *args: 0)
    assert main([*argv, option, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"paralign {command}: error: argument {option}: {said}") and err.count("\n") == 1
