"""The disk cache of derived resources (`paralign.disk_cache`): built once, read after, never
stale, never in the way."""

from __future__ import annotations

import os

import pytest

from paralign.disk_cache import derived, entry_path


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(folder))
    return folder


def _counting(value):
    calls = []

    def build():
        calls.append(1)
        return value

    return build, calls


def test_a_value_is_built_once_then_read_back_equal(cache, tmp_path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("a\tb\n")
    value = ({"a": {"b": None}}, 2, frozenset({"x y"}))
    build, calls = _counting(value)
    assert derived("thing", source, build, version="1") == value
    again = derived("thing", source, build, version="1")
    assert again == value and again is not value and len(calls) == 1
    assert [p.name for p in cache.iterdir()] == [entry_path("thing", source, "1").name]


def test_a_changed_source_or_version_is_built_again_and_the_old_entry_removed(cache, tmp_path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("a\tb\n")
    build, calls = _counting(("old",))
    derived("thing", source, build, version="1")
    source.write_text("a\tb\nc\td\n")  # another size (and time)
    derived("thing", source, build, version="1")
    derived("thing", source, build, version="2")  # the deriving code changed
    assert len(calls) == 3 and len(list(cache.glob("thing-*.marshal"))) == 1


def test_a_corrupt_entry_is_built_again(cache, tmp_path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("x")
    build, calls = _counting({"k": "v"})
    derived("thing", source, build, version="1")
    entry_path("thing", source, "1").write_bytes(b"\x00garbage")
    assert derived("thing", source, build, version="1") == {"k": "v"} and len(calls) == 2


@pytest.mark.parametrize("setting", ["", "file"])
def test_no_cache_or_an_unwritable_one_only_builds(setting, tmp_path, monkeypatch) -> None:
    """PARALIGN_CACHE_DIR empty turns the cache off; a path that cannot be a folder (a file is
    there) keeps nothing, and the value is still given."""
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PARALIGN_CACHE_DIR", "" if setting == "" else str(blocker / "cache"))
    source = tmp_path / "source.txt"
    source.write_text("x")
    build, calls = _counting([1, 2])
    assert derived("thing", source, build, version="1") == [1, 2]
    assert derived("thing", source, build, version="1") == [1, 2] and len(calls) == 2
    assert sorted(os.listdir(tmp_path)) == ["blocker", "source.txt"]


def test_ppdb_read_from_the_cache_is_the_ppdb_parsed(cache, monkeypatch) -> None:
    """The table and the pairs a command reads from the cache are those parsed from the file."""
    from paralign import resources
    from paralign.paraphrases import ppdb_table

    try:
        resources.ppdb_path()
    except Exception as exc:  # noqa: BLE001 - the resource's own error says what is missing
        pytest.skip(f"PPDB not found: {exc}")
    first, second = ppdb_table(), ppdb_table()  # built and kept, then read back
    assert len(list(cache.glob("ppdb-table-*.marshal"))) == 1
    monkeypatch.setenv("PARALIGN_CACHE_DIR", "")
    parsed = ppdb_table()
    for table in (first, second):
        assert table._table == parsed._table and table.multiword_strings() == parsed.multiword_strings()
    resources.ppdb_pairs.cache_clear()
    try:
        plain = resources.ppdb_pairs()
        monkeypatch.setenv("PARALIGN_CACHE_DIR", str(cache))
        resources.ppdb_pairs.cache_clear()
        resources.ppdb_pairs()  # kept
        resources.ppdb_pairs.cache_clear()
        assert resources.ppdb_pairs() == plain
    finally:
        resources.ppdb_pairs.cache_clear()


def test_a_pipe_a_copy_of_stdin_or_a_small_file_is_never_kept(cache, tmp_path) -> None:
    """A FIFO gives other bytes each time it is read (an entry keyed by its name, size 0 and
    time would be read back for other data); a temporary copy of stdin (`not_kept`, which the
    CLI's copies are made under) has a name no later command gives; a file under `min_bytes` is
    parsed about as fast as an entry is read. Each is built every time and leaves nothing."""
    from paralign.disk_cache import not_kept

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    copy = tmp_path / "stdin"
    copy.write_text("a\tb\n")
    build, calls = _counting({"a": "b"})
    for _ in range(2):
        derived("thing", fifo, build, version="1")
        with not_kept(copy):
            derived("thing", copy, build, version="1")
        derived("thing", copy, build, version="1", min_bytes=copy.stat().st_size + 1)
    assert len(calls) == 6 and not cache.exists()
    derived("thing", copy, build, version="1", min_bytes=copy.stat().st_size)  # kept once out of the block
    derived("thing", copy, build, version="1")
    assert len(calls) == 7 and len(list(cache.glob("thing-*.marshal"))) == 1


def test_a_source_that_changes_while_it_is_read_is_not_kept(cache, tmp_path) -> None:
    """The value built from a file written to meanwhile is of neither version: keeping it
    under the key of the version stat'ed first would give it to the next reader of that one."""
    source = tmp_path / "source.txt"
    source.write_text("a\tb\n")

    def build():
        source.write_text("a\tb\nc\td\n")  # another writer, while this one reads
        return "half"

    assert derived("thing", source, build, version="1") == "half" and not cache.exists()
