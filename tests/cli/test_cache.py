"""CLI: `paralign cache dir|info|list|prune|purge`, the disk cache seen and emptied (the library's
side is tests/test_disk_cache.py)."""

from __future__ import annotations

import json
import os

import pytest

from paralign.cli import main

ENTRY_KEYS = {"kind", "file", "name", "bytes", "state", "source", "source_bytes", "source_mtime",
              "paralign", "python"}
ACTIONS = ("dir", "info", "list", "prune", "purge")


@pytest.fixture()
def kept(tmp_path, table_cache, monkeypatch):
    """A user's table read once by the library, so its entry is in the cache: (folder, table)."""
    from paralign.paraphrases import load_source

    monkeypatch.delenv("PARALIGN_VECTOR_CACHE", raising=False)
    folder, _ = table_cache
    table = tmp_path / "t.tsv"
    table.write_text("buy\tpurchase\t0.6\nbig\tlarge\t0.7\n", encoding="utf-8")
    load_source(str(table))
    return folder, table


def _json(argv, capsys, status=0):
    assert main([*argv, "--format", "json"]) == status
    return json.loads(capsys.readouterr().out)


def test_dir_is_the_folder_from_the_settings(tmp_path, monkeypatch, capsys) -> None:
    """As `pip cache dir`: the folder alone on a line (PARALIGN_CACHE_DIR, else
    $XDG_CACHE_HOME/paralign); JSON adds the vector cache's."""
    monkeypatch.delenv("PARALIGN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path / "vectors"))
    assert main(["cache", "dir"]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'xdg' / 'paralign'}\n"
    assert _json(["cache", "dir"], capsys) == {"folder": str(tmp_path / "xdg" / "paralign"),
                                               "vector_folder": str(tmp_path / "vectors")}
    assert not (tmp_path / "xdg").exists()


def test_list_and_info_show_each_entry_its_source_and_size(kept, capsys) -> None:
    folder, table = kept
    listed = _json(["cache", "list"], capsys)
    assert set(listed) == {"folder", "vector_folder", "entries", "bytes"} and listed["folder"] == str(folder)
    (entry,) = listed["entries"]
    assert set(entry) == ENTRY_KEYS and entry["source"] == str(table.resolve())
    assert (entry["kind"], entry["state"], entry["source_bytes"]) == ("derived", "fresh", table.stat().st_size)
    assert entry["name"].startswith("table-") and entry["bytes"] == listed["bytes"] == os.path.getsize(entry["file"])
    assert main(["cache", "list"]) == 0
    text = capsys.readouterr().out
    assert f"fresh  {entry['bytes']} B  {entry['name']}  {table.resolve()}" in text and text.endswith("1 entry, "
                                                                                                  f"{entry['bytes']} B\n")
    assert _json(["cache", "info"], capsys) == {"folder": str(folder), "entries": 1, "bytes": entry["bytes"],
                                                "stale": 0, "vector_folder": None, "vector_entries": 0,
                                                "vector_bytes": 0}
    assert main(["cache", "info"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [f"cache folder: {folder}", "entries: 1"]


def test_prune_removes_the_entry_of_a_deleted_table_and_keeps_the_others(kept, tmp_path, capsys) -> None:
    from paralign.paraphrases import load_source

    folder, table = kept
    other = tmp_path / "other.tsv"
    other.write_text("a\tb\t0.5\n", encoding="utf-8")
    load_source(str(other))
    table.unlink()  # the keep of other's entry ran before: the deleted table's entry is still there
    assert [e["state"] for e in _json(["cache", "list"], capsys)["entries"]].count("missing") == 1
    assert main(["cache", "info"]) == 0
    assert "entries: 2 (1 stale: paralign cache prune removes them)" in capsys.readouterr().out
    result = _json(["cache", "prune"], capsys)
    assert set(result) == {"folder", "removed", "temporary", "bytes", "failed"}
    assert [e["source"] for e in result["removed"]] == [str(table.resolve())] and result["failed"] == []
    assert [e["source"] for e in _json(["cache", "list"], capsys)["entries"]] == [str(other.resolve())]
    assert main(["cache", "prune"]) == 0 and capsys.readouterr().out == "removed 0 entries (0 B)\n"


def test_purge_empties_the_folder(kept, capsys) -> None:
    folder, _ = kept
    size = sum(p.stat().st_size for p in folder.iterdir())
    assert main(["cache", "purge"]) == 0
    assert capsys.readouterr().out == f"removed 1 entry ({size} B)\n" and list(folder.iterdir()) == []


@pytest.mark.parametrize("action", ACTIONS)
def test_no_cache_is_said_and_is_no_error(action, monkeypatch, capsys) -> None:
    """PARALIGN_CACHE_DIR set to an empty string turns the cache off: each action says so, exit 0."""
    monkeypatch.setenv("PARALIGN_CACHE_DIR", "")
    monkeypatch.delenv("PARALIGN_VECTOR_CACHE", raising=False)
    assert main(["cache", action]) == 0
    assert capsys.readouterr().out.startswith("no cache: PARALIGN_CACHE_DIR is set to an empty string\n")
    assert _json(["cache", action], capsys)["folder"] is None


@pytest.mark.parametrize("action", ACTIONS)
def test_a_folder_not_made_yet_is_an_empty_cache(action, tmp_path, monkeypatch, capsys) -> None:
    folder = tmp_path / "not-yet"
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(folder))
    monkeypatch.delenv("PARALIGN_VECTOR_CACHE", raising=False)
    result = _json(["cache", action], capsys)
    assert result["folder"] == str(folder) and not folder.exists()
    assert result.get("entries", []) in ([], 0) and result.get("removed", []) == []


@pytest.mark.parametrize("action", ["info", "list", "prune", "purge"])
def test_a_folder_that_cannot_be_read_is_a_one_line_error(action, kept, capsys, as_file_owner) -> None:
    folder, _ = kept
    folder.chmod(0)
    try:
        with as_file_owner():
            assert main(["cache", action]) == 2
    finally:
        folder.chmod(0o755)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"paralign cache {action}: error: {folder}: cannot read the cache folder: permission denied\n")
    assert len(list(folder.iterdir())) == 1


def test_an_entry_that_cannot_be_removed_is_named_and_exit_1(kept, capsys, as_file_owner) -> None:
    folder, _ = kept
    (entry,) = folder.iterdir()
    folder.chmod(0o555)
    try:
        with as_file_owner():
            assert main(["cache", "purge", "--format", "json"]) == 1
    finally:
        folder.chmod(0o755)
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["removed"] == [] and result["failed"] == [{"file": str(entry), "reason": "Permission denied"}]
    assert captured.err == f"paralign: warning: could not remove {entry}: Permission denied\n"
    assert entry.exists()


def test_a_size_that_rounds_to_1000_is_shown_in_the_next_unit() -> None:
    """999,950 bytes showed as '1000.0 kB' (and 999,950,000 as '1000.0 MB'): the value was
    compared with 1000 before it was rounded to one decimal. It is now '1.0 MB' ('1.0 GB')."""
    from paralign.cli.cache import size

    assert [size(n) for n in (999, 1000, 999_949, 999_950, 999_999, 999_950_000, 2_500_000_000_000)] == \
        ["999 B", "1.0 kB", "999.9 kB", "1.0 MB", "1.0 MB", "1.0 GB", "2500.0 GB"]


@pytest.mark.parametrize("action", ACTIONS)
def test_each_actions_help_names_the_environment_it_honours_and_its_exit_status(action, capsys) -> None:
    """`paralign cache ACTION --help` said what the action does and nothing of where the folder
    comes from: PARALIGN_CACHE_DIR (empty turning the cache off), XDG_CACHE_HOME and
    PARALIGN_VECTOR_CACHE were named only by `paralign cache --help`, and the exit statuses by
    docs/CLI.md alone."""
    with pytest.raises(SystemExit) as stop:
        main(["cache", action, "--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("PARALIGN_CACHE_DIR", "set empty: no cache", "XDG_CACHE_HOME", "~/.cache/paralign",
                  "PARALIGN_VECTOR_CACHE", "Exit status: 0", "2 when a folder cannot be read", "1 when prune"):
        assert words in text, words
