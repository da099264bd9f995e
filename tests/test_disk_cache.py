"""The disk cache of derived resources (`paralign.disk_cache`): built once, read after, never
stale, never in the way."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from paralign.disk_cache import _entry, derived


def entry_path(name: str, source: str | os.PathLike[str], version: str) -> Path:
    """Where `derived` keeps `name` derived from `source` by code of `version` (the test's cache
    folder is set and the source is a regular file, so there is one)."""
    found = _entry(name, source, version, 0)
    assert found is not None
    return found[0]


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


# -- what the cache holds: entries, prune, purge (`paralign cache`) -----------------------------

ENTRY_KEYS = {"kind", "file", "name", "bytes", "state", "source", "source_bytes", "source_mtime",
              "paralign", "python"}


def _source(tmp_path, name, text="a\tb\n"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_each_entry_records_what_it_was_derived_from(cache, tmp_path) -> None:
    """`entries` reads each entry's record (not its value): the name, the source's real path,
    size and time, the versions; the entry's own size; `to_dict`'s keys are the JSON's."""
    from paralign import __version__
    from paralign.disk_cache import entries

    source = _source(tmp_path, "source.txt")
    link = tmp_path / "link.txt"
    link.symlink_to(source)
    derived("thing", link, lambda: {"k": "v"}, version="7")
    (entry,) = entries()
    assert (entry.kind, entry.name, entry.state, entry.path) == ("derived", "thing", "fresh", entry_path("thing", link, "7"))
    assert entry.bytes == entry.path.stat().st_size
    record = entry.to_dict()
    assert set(record) == ENTRY_KEYS
    assert record["source"] == str(source) and record["source_bytes"] == 4 and record["paralign"] == __version__
    assert record["source_mtime"].endswith("Z") and record["python"].count(".") == 1


def test_an_entry_whose_source_is_gone_or_changed_is_stale_and_prune_removes_only_those(cache, tmp_path) -> None:
    """A deleted (or moved) source: missing; a rewritten one: changed; an entry without a
    record (an older paralign's format): unknown. prune removes those three, not the fresh one."""
    from paralign.disk_cache import entries, prune

    gone, changed, kept = (_source(tmp_path, f"{n}.txt") for n in ("gone", "changed", "kept"))
    for name, source in (("a", gone), ("b", changed), ("c", kept)):
        derived(name, source, lambda: [1], version="1")
    old_format = cache / "d-0123456789abcdef.marshal"
    old_format.write_bytes(__import__("marshal").dumps([1]))
    gone.unlink()
    changed.write_text("a\tb\nc\td\n")
    assert {e.name: e.state for e in entries()} == {"a": "missing", "b": "changed", "c": "fresh", "d": "unknown"}
    removed = prune()
    assert sorted(e.name for e in removed.entries) == ["a", "b", "d"] and not removed.failed
    assert removed.bytes == sum(e.bytes for e in removed.entries) > 0
    assert [e.name for e in entries()] == ["c"]
    build, calls = _counting([1])
    assert derived("c", kept, build, version="1") == [1] and not calls  # still read back


def test_keeping_an_entry_removes_those_of_vanished_sources(cache, tmp_path) -> None:
    """No entry of a deleted table file stays forever: the next entry kept removes it, and
    leaves alone what another process may be using (a fresh entry, a write in progress, an
    entry of another format)."""
    from paralign.disk_cache import TEMP_PREFIX

    first, second, third = (_source(tmp_path, f"{n}.txt") for n in ("first", "second", "third"))
    derived("table-1", first, lambda: [1], version="1")
    derived("table-2", second, lambda: [2], version="1")
    in_progress = cache / f"{TEMP_PREFIX}table-9-abc"
    in_progress.write_bytes(b"half")
    other_format = cache / "old-0123456789abcdef.marshal"
    other_format.write_bytes(b"x")
    first.unlink()
    derived("table-3", third, lambda: [3], version="1")
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [entry_path("table-2", second, "1").name, entry_path("table-3", third, "1").name,
         in_progress.name, other_format.name])


def test_purge_removes_every_entry_and_only_paralign_files(cache, tmp_path, monkeypatch) -> None:
    """Both caches' entries go (ParaEval's vectors too) with the files of writes that never
    finished; a write younger than an hour may be in progress and stays, and so does a file
    paralign did not write (PARALIGN_VECTOR_CACHE may name a folder holding others)."""
    from paralign.disk_cache import TEMP_PREFIX, entries, info, purge

    vectors = tmp_path / "vectors"
    vectors.mkdir()
    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(vectors))
    (vectors / "vectors-0123.npy").write_bytes(b"\x93NUMPY" + b"\0" * 100)
    (vectors / "notes.txt").write_text("mine")
    old_write = vectors / ".tmp42-vectors-4567.npy"
    old_write.write_bytes(b"half")
    os.utime(old_write, (0, 0))
    derived("thing", _source(tmp_path, "s.txt"), lambda: [1], version="1")
    young_write = cache / f"{TEMP_PREFIX}thing-abc"
    young_write.write_bytes(b"half")
    listed = entries()
    assert [(e.kind, e.state) for e in listed] == [("derived", "fresh"), ("vectors", None)]
    summary = info()
    assert summary == {"folder": str(cache), "entries": 1, "bytes": listed[0].bytes, "stale": 0,
                       "vector_folder": str(vectors), "vector_entries": 1, "vector_bytes": 106}
    removed = purge()
    assert [e.kind for e in removed.entries] == ["derived", "vectors"] and removed.temporary == [old_write]
    assert sorted(os.listdir(cache)) == [young_write.name] and sorted(os.listdir(vectors)) == ["notes.txt"]
    assert entries() == []


@pytest.mark.parametrize("setting", ["", "missing"])
def test_no_cache_or_no_folder_holds_nothing(setting, tmp_path, monkeypatch) -> None:
    """PARALIGN_CACHE_DIR empty (no cache) or a folder not made yet: no entries, nothing
    removed, nothing made."""
    from paralign.disk_cache import entries, info, prune, purge

    monkeypatch.setenv("PARALIGN_CACHE_DIR", "" if setting == "" else str(tmp_path / "not-yet"))
    monkeypatch.delenv("PARALIGN_VECTOR_CACHE", raising=False)
    assert entries() == [] and not purge().entries and not prune().entries
    assert info()["folder"] == (None if setting == "" else str(tmp_path / "not-yet"))
    assert info()["entries"] == 0 and os.listdir(tmp_path) == []


def test_a_folder_that_cannot_be_read_is_one_error_naming_it(cache, tmp_path, as_file_owner) -> None:
    from paralign.disk_cache import entries, prune, purge
    from paralign.errors import InputFileError

    derived("thing", _source(tmp_path, "s.txt"), lambda: [1], version="1")
    cache.chmod(0)
    try:
        with as_file_owner():
            for action in (entries, prune, purge):
                with pytest.raises(InputFileError, match="cannot read the cache folder: permission denied") as caught:
                    action()
                assert caught.value.filename == str(cache) and caught.value.cannot_open
    finally:
        cache.chmod(0o755)
    assert len(list(cache.iterdir())) == 1


@pytest.mark.parametrize("kind", ["derived", "vectors"])
def test_a_folder_setting_naming_a_file_is_named_as_one(kind, tmp_path, monkeypatch) -> None:
    """Resource audit: PARALIGN_CACHE_DIR or PARALIGN_VECTOR_CACHE naming a file made `paralign
    cache` say 'no such file (a parent is not a directory)' of a file that is there; it says
    that the setting names a file, not a folder (a command deriving only keeps nothing)."""
    from paralign.disk_cache import entries
    from paralign.errors import InputFileError

    file = tmp_path / "file"
    file.write_text("x", encoding="utf-8")
    monkeypatch.setenv("PARALIGN_CACHE_DIR" if kind == "derived" else "PARALIGN_VECTOR_CACHE", str(file))
    with pytest.raises(InputFileError, match="folder: not a folder \\(a file of that name is there\\)"):
        entries((kind,))
    assert derived("thing", _source(tmp_path, "s.txt"), lambda: [1], version="1") == [1]
    monkeypatch.setenv("PARALIGN_CACHE_DIR" if kind == "derived" else "PARALIGN_VECTOR_CACHE", str(file / "sub"))
    with pytest.raises(InputFileError, match="a parent is not a directory"):
        entries((kind,))


@pytest.mark.timeout(60)  # each of these blocked for ever
def test_a_fifo_or_a_device_in_place_of_an_entry_is_not_read(cache, tmp_path) -> None:
    """Resource audit: a FIFO named as an entry (another user of a shared folder can make one)
    blocked `paralign cache list` and every command that kept an entry (its pruning reads each
    record) or read that entry, for ever; a link to /dev/zero read without end. Neither is read:
    the entry is unknown, the value derived again, and a prune removes them."""
    from paralign.disk_cache import entries, prune

    source = _source(tmp_path, "s.txt")
    path = entry_path("thing", source, "1")
    cache.mkdir()
    os.mkfifo(path)
    os.mkfifo(cache / "other-0123456789abcdef.marshal")
    os.symlink("/dev/zero", cache / "zero-0123456789abcdef.marshal")
    assert [entry.state for entry in entries(("derived",))] == ["unknown"] * 3
    build, calls = _counting({"x": 1})
    assert derived("thing", source, build, version="1") == {"x": 1} and calls == [1]
    assert derived("thing", source, build, version="1") == {"x": 1} and calls == [1]  # kept in its place
    assert len(prune().entries) == 2 and [entry.state for entry in entries()] == ["fresh"]


def test_two_processes_keeping_entries_at_once_each_read_their_own(cache, tmp_path) -> None:
    """Two processes deriving and keeping at once (each keep prunes the folder) lose nothing
    but stale entries: every value reads back as built, no temporary file is left."""
    import subprocess
    import sys

    script = ("import sys; from paralign.disk_cache import derived\n"
              "for i in range(40):\n"
              "    p = f'{sys.argv[1]}-{i}.txt'; open(p, 'w').write(p)\n"
              "    derived(f'n{i}-' + sys.argv[1][-1], p, lambda: [p] * 100, version='1')\n")
    runs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path / f"src{k}")]) for k in (0, 1)]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    assert len(list(cache.iterdir())) == 80
    for k in (0, 1):
        for i in range(40):
            path = tmp_path / f"src{k}-{i}.txt"
            assert derived(f"n{i}-{k}", path, lambda: pytest.fail("derived again"), version="1") == [str(path)] * 100


def test_an_entry_with_a_damaged_record_is_unknown_and_still_derived_again(cache, tmp_path) -> None:
    """A record length damaged to 4 GB is not believed (read() allocates what it is asked
    for, and the value is not where it says): the entry is `unknown` to `entries` and `prune`,
    and `derived` builds the value again."""
    from paralign.disk_cache import MAGIC, entries

    source = _source(tmp_path, "s.txt")
    derived("thing", source, lambda: [1], version="1")
    path = entry_path("thing", source, "1")
    path.write_bytes(MAGIC + b"\xff\xff\xff\xff" + path.read_bytes()[len(MAGIC) + 4:])
    assert [e.state for e in entries()] == ["unknown"]
    build, calls = _counting([1])
    assert derived("thing", source, build, version="1") == [1] and len(calls) == 1


def test_a_folder_named_like_an_entry_is_left_alone(cache, tmp_path) -> None:
    """A folder named like an entry (or a temporary file) was listed as an 'unknown' entry, and
    prune and purge failed to unlink it ('Is a directory') and reported a failure every time
    (`paralign cache prune` exit 1). paralign never makes one: it is not an entry, and stays."""
    from paralign.disk_cache import entries, prune, purge

    cache.mkdir()
    (cache / "folder-0123456789abcdef.marshal").mkdir()
    (cache / "folder-0123456789abcdef.marshal" / "inside").write_text("x", encoding="utf-8")
    (cache / "stale-0123456789abcdef.marshal").write_bytes(b"not an entry")
    assert [entry.path.name for entry in entries()] == ["stale-0123456789abcdef.marshal"]
    removed = prune()
    assert removed.failed == [] and [entry.path.name for entry in removed.entries] == \
        ["stale-0123456789abcdef.marshal"]
    assert purge().failed == [] and (cache / "folder-0123456789abcdef.marshal" / "inside").exists()


def test_an_entry_damaged_anywhere_is_derived_again_never_read_wrong(cache, tmp_path) -> None:
    """An entry whose bytes changed on disk (a bit flipped, a copy cut short) was read back as
    whatever marshal made of it: a flipped letter gave the key 'qairs' for 'pairs', a flipped
    bit of the record's length a value of another type (a frozenset for the dict kept), and a
    record's '{' flipped to '[' a list of 1.6 billion items that marshal allocated first
    (seconds, and `paralign cache list` 'out of memory' under a 3 GB limit). Every damaged
    entry is now derived again and kept whole in its place, and listed as `unknown` when its
    record is damaged."""
    from paralign.disk_cache import entries

    source = _source(tmp_path, "s.txt")
    value = {"pairs": frozenset({("big", "large"), ("small", "little")}), "n": 12345, "t": ("abc", 1.5)}
    derived("thing", source, lambda: value, version="1")
    path = entry_path("thing", source, "1")
    good = path.read_bytes()
    damaged = [good[:cut] for cut in range(len(good))]
    damaged += [good[:at] + bytes([good[at] ^ 1 << bit]) + good[at + 1:] for at in range(len(good)) for bit in (0, 5)]
    started = time.perf_counter()
    for data in damaged:
        path.write_bytes(data)
        assert [entry.state for entry in entries()] in (["fresh"], ["unknown"])
        build, calls = _counting(value)
        assert derived("thing", source, build, version="1") == value and calls == [1], data
        assert path.read_bytes() == good
    assert time.perf_counter() - started < 20  # 4 to 8 s for each of the 1.6 billion item lists


@pytest.mark.parametrize("change", ["cut", "longer"])
def test_an_entry_cut_short_or_longer_is_listed_unknown_and_pruned(change, cache, tmp_path) -> None:
    """An entry cut short (a copy or a restore that stopped) was listed `fresh` with the size
    left (`paralign cache list`: 'fresh  3.0 MB  ppdb-pairs' for a 6.6 MB entry cut at 3 MB), and
    `prune` kept it. Its length is now checked against its record's: `unknown`, pruned."""
    from paralign.disk_cache import entries, prune

    source = _source(tmp_path, "s.txt")
    derived("thing", source, lambda: list(range(100)), version="1")
    path = entry_path("thing", source, "1")
    data = path.read_bytes()
    path.write_bytes(data[:-1] if change == "cut" else data + b"\0")
    assert [entry.state for entry in entries()] == ["unknown"]
    assert [entry.path for entry in prune().entries] == [path] and entries() == []


def test_a_relative_paralign_cache_dir_is_refused_naming_it(monkeypatch, tmp_path, capsys) -> None:
    """PARALIGN_CACHE_DIR=cache kept the cache in ./cache of whatever folder a command ran in: a
    run in another folder derived everything again and left entries behind in each. Now it is a
    ConfigurationError naming the variable (``paralign cache dir``: a usage error, exit 2)."""
    from paralign.cli import main
    from paralign.disk_cache import folder_names
    from paralign.errors import ConfigurationError

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PARALIGN_CACHE_DIR", "cache")
    source = tmp_path / "source.txt"
    source.write_text("words", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"^PARALIGN_CACHE_DIR='cache' is a relative path: .*absolute"):
        derived("n", source, lambda: {"x": 1}, version="1")
    with pytest.raises(ConfigurationError, match="PARALIGN_CACHE_DIR='cache'"):
        folder_names()
    assert not (tmp_path / "cache").exists()
    assert main(["cache", "dir"]) == 2
    assert capsys.readouterr().err.startswith("paralign cache dir: error: PARALIGN_CACHE_DIR='cache' is a relative")
    with pytest.raises(SystemExit):
        main(["cache", "dir", "--help"])
    assert "a relative path is refused" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("variable", ["PARALIGN_CACHE_DIR", "PARALIGN_VECTOR_CACHE"])
def test_both_cache_folders_expand_home_and_refuse_a_relative_path(monkeypatch, tmp_path, variable: str) -> None:
    """PARALIGN_VECTOR_CACHE="~/vecs" made a folder named ``~`` and "vecs" a folder in whatever
    folder a run started in (a run from another folder encoded every vector again), while
    PARALIGN_CACHE_DIR expanded ``~`` and refused a relative path: both now read one way
    (settings.folder_setting, disk_cache._absolute), and ParaEval's tier reads the checked folder."""
    from paralign.disk_cache import cache_folders
    from paralign.errors import ConfigurationError

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv(variable, "~/c")
    assert cache_folders()["derived" if variable == "PARALIGN_CACHE_DIR" else "vectors"] == tmp_path / "c"
    monkeypatch.setenv(variable, "c")
    with pytest.raises(ConfigurationError, match=f"^{variable}='?c'? is a relative path"):
        cache_folders()
    if variable == "PARALIGN_VECTOR_CACHE":
        from paralign.metrics.paraeval.configs import get_config
        from paralign.metrics.paraeval.graded import GradedParaEval

        with pytest.raises(ConfigurationError, match="^PARALIGN_VECTOR_CACHE"):
            GradedParaEval(get_config("default"), cache_vectors=True)
