"""`paralign download`: what it fetches, where and how big, said before it runs and after (no
network here: nltk.download is replaced)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paralign.cli import main


def test_help_says_what_it_fetches_where_how_big_and_that_nothing_else_needs_it(capsys) -> None:
    """`paralign download --help` had no description (a usage line and `--dir DIR  target folder
    (default: NLTK's own choice)`): a user could not tell what it fetches, from where, into
    which folder, how big it is, or whether anything else needs a download."""
    with pytest.raises(SystemExit) as stop:
        main(["download", "--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("wordnet", "stopwords", "mwa_ppdb", "WordNet 3.0", "PPDB", "11 MB", "3.7 MB", "internet",
                  "~/nltk_data", "NLTK_DATA", "spaCy", "demo", "nothing else needs a download"):
        assert words in text, words


@pytest.fixture()
def fetched(monkeypatch):
    """nltk.download replaced: each call's package and folder, every package fetched."""
    import nltk

    calls: list[tuple[str, str]] = []

    def download(package, download_dir=None, quiet=False, **kwargs):
        calls.append((package, download_dir))
        return True

    monkeypatch.setattr(nltk, "download", download)
    return calls


def test_the_folder_is_said_and_nltk_data_when_paralign_would_not_look_there(fetched, tmp_path: Path,
                                                                             capsys) -> None:
    """It printed `wordnet: ok` and so on, not where the data went; a --dir that paralign does
    not search left a user with data no command found. It now says the folder, and for a folder
    paralign does not search, the NLTK_DATA to set."""
    target = tmp_path / "data"
    assert main(["download", "--dir", str(target)]) == 0
    out = capsys.readouterr().out
    assert fetched == [(name, str(target)) for name in ("wordnet", "stopwords", "mwa_ppdb")]
    assert out.splitlines()[:3] == ["wordnet: ok", "stopwords: ok", "mwa_ppdb: ok"]
    assert f"in {target}" in out and f"NLTK_DATA={target}" in out
    assert main(["download", "--dir", str(target), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"wordnet": True, "stopwords": True, "mwa_ppdb": True,
                                                   "status": dict.fromkeys(("wordnet", "stopwords", "mwa_ppdb"),
                                                                           "fetched"),
                                                   "folder": str(target), "searched": False, "elsewhere": {}}


def test_a_folder_paralign_searches_needs_no_nltk_data(fetched, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    assert main(["download", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"in {tmp_path}" in out and "NLTK_DATA=" not in out
    assert main(["download"]) == 0  # NLTK's own choice, said
    assert f"in {fetched[-1][1]}" in capsys.readouterr().out and fetched[-1][1]


def test_no_folder_to_download_to_is_one_usage_error(fetched, monkeypatch, capsys) -> None:
    """With no home folder and no NLTK folder that can be written to, nltk.download raised
    ValueError('Could not find a default download directory') from inside its loop; now one
    line says to name a folder (exit 2), before anything is fetched."""
    import nltk.downloader

    def nowhere(self):
        raise ValueError("Could not find a default download directory")

    monkeypatch.setattr(nltk.downloader.Downloader, "default_download_dir", nowhere)
    assert main(["download"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "paralign download --dir DIR" in err and fetched == []


def test_a_relative_folder_is_said_absolute(fetched, tmp_path: Path, monkeypatch, capsys) -> None:
    """NLTK_DATA=data would name the folder only from where the download ran."""
    monkeypatch.chdir(tmp_path)
    assert main(["download", "--dir", "data"]) == 0
    out = capsys.readouterr().out
    assert f"in {tmp_path / 'data'}" in out and f"NLTK_DATA={tmp_path / 'data'}" in out


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_file_or_an_unwritable_folder_as_dir_is_one_usage_error(fetched, tmp_path: Path, capsys, as_file_owner,
                                                                   fmt: str) -> None:
    """`--dir FILE` (or a folder under a file, or in a folder without write permission) went to
    nltk.download, which tried each package there and failed each on its own, exit 1. Now one
    line naming the folder and what is wrong, exit 2, before anything is fetched (as -o)."""
    (tmp_path / "afile").write_text("x\n", encoding="utf-8")
    (tmp_path / "locked").mkdir(mode=0o555)
    for target, said in (("afile", "is a file, not a folder"), ("afile/sub", f"{tmp_path / 'afile'} is a file, not a folder"),
                         ("locked/sub", "not writable"), ("locked", "not writable")):
        with as_file_owner():
            assert main(["download", "--dir", str(tmp_path / target), "--format", fmt]) == 2, target
        captured = capsys.readouterr()
        assert said in captured.err and str(tmp_path / target) in captured.err and captured.err.count("\n") == 1
        assert captured.out == "" and fetched == []


def _nowhere_else(tmp_path: Path, monkeypatch) -> None:
    """No NLTK data in a folder paralign reads (NLTK_DATA, HOME: empty folders): a package not
    fetched is not said to be read from elsewhere (the test run's NLTK_DATA holds all three)."""
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("NLTK_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path / "empty"))


def test_a_failed_fetch_says_what_to_do_and_no_nltk_data_for_an_empty_folder(tmp_path: Path, monkeypatch,
                                                                            capsys) -> None:
    """Offline, it printed `wordnet: FAILED` for each package and then `paralign does not look
    there: set NLTK_DATA=DIR` for a folder it had put nothing in, and nothing about what to do
    next. Now a failed package is named on one line with the cause to look for and the way
    round it (another machine's nltk_data and NLTK_DATA), and no NLTK_DATA is offered for a
    folder that received nothing (exit 1)."""
    import nltk

    monkeypatch.setattr(nltk, "download", lambda package, download_dir=None, quiet=False, **kwargs: False)
    _nowhere_else(tmp_path, monkeypatch)
    target = tmp_path / "data"
    assert main(["download", "--dir", str(target)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[:3] == ["wordnet: FAILED", "stopwords: FAILED", "mwa_ppdb: FAILED"]
    assert "NLTK_DATA=" not in out
    last = out.splitlines()[-1]
    assert last.startswith("not fetched: wordnet, stopwords, mwa_ppdb (") and "internet" in last
    assert "set NLTK_DATA" in last


def test_offline_a_package_already_there_is_kept_not_failed(tmp_path: Path, monkeypatch, capsys) -> None:
    """Offline, nltk.download fails for every package, also one the folder holds (it cannot ask
    its server whether the copy is up to date): `paralign download` said `wordnet: FAILED` and
    told to copy an nltk_data folder, exit 1, for a folder every command could read. A package
    already there is now ok, said not checked for updates; one that is not there still fails.
    Its JSON (``true`` a package, kept or fetched alike) could not tell them apart: its
    ``status`` now says ``fetched``, ``kept`` or ``failed``, beside the keys it had."""
    import nltk

    monkeypatch.setattr(nltk, "download", lambda package, download_dir=None, quiet=False, **kwargs: False)
    _nowhere_else(tmp_path, monkeypatch)
    target = tmp_path / "data"
    for name in ("corpora/wordnet.zip", "corpora/stopwords/english"):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).write_bytes(b"x")
    assert main(["download", "--dir", str(target)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == lines[1].replace("stopwords", "wordnet") and lines[0].startswith("wordnet: ok (already there")
    assert "not checked for updates" in lines[0] and lines[2] == "mwa_ppdb: FAILED"
    assert lines[-1].startswith("not fetched: mwa_ppdb (")
    assert main(["download", "--dir", str(target), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out) == {"wordnet": True, "stopwords": True, "mwa_ppdb": False,
                                                   "status": {"wordnet": "kept", "stopwords": "kept",
                                                              "mwa_ppdb": "failed"},
                                                   "folder": str(target), "searched": False, "elsewhere": {}}
    (target / "misc" / "mwa_ppdb.zip").parent.mkdir()
    (target / "misc" / "mwa_ppdb.zip").write_bytes(b"x")
    assert main(["download", "--dir", str(target)]) == 0
    assert "FAILED" not in capsys.readouterr().out


def test_help_names_the_folders_paralign_searches(capsys) -> None:
    """`--dir`'s help said a folder paralign does not search must be named by NLTK_DATA, but not
    which folders it searches: PARALIGN_DATA's nltk_data (read when NLTK_DATA is unset) was
    named by the README alone."""
    with pytest.raises(SystemExit):
        main(["download", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "$PARALIGN_DATA/nltk_data" in text and "NLTK_DATA's folders" in text


def test_offline_a_package_paralign_reads_elsewhere_is_said_to_be_there(tmp_path: Path, monkeypatch,
                                                                        capsys) -> None:
    """Offline, with the packages in a folder paralign reads (NLTK_DATA's, the corpora folder's)
    but not in the one it downloads to, it said FAILED and told to copy an nltk_data folder from
    another machine, though every command that needs them ran. A package not fetched now names
    the copy paralign reads, and the advice is dropped when each has one (exit 1 still: the
    folder asked for received nothing)."""
    import nltk

    monkeypatch.setattr(nltk, "download", lambda package, download_dir=None, quiet=False, **kwargs: False)
    read = tmp_path / "read"
    (read / "corpora").mkdir(parents=True)
    (read / "corpora" / "wordnet.zip").write_bytes(b"x")
    monkeypatch.setenv("NLTK_DATA", str(read))
    assert main(["download", "--dir", str(tmp_path / "new")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [f"wordnet: FAILED (paralign reads the copy in {read})", "stopwords: FAILED",
                         "mwa_ppdb: FAILED"]
    # --format json said only `"wordnet": false`: not the folder, nor the copy paralign reads
    assert main(["download", "--dir", str(tmp_path / "new"), "--format", "json"]) == 1
    said = json.loads(capsys.readouterr().out)
    assert said["folder"] == str(tmp_path / "new") and said["searched"] is False
    assert said["elsewhere"] == {"wordnet": str(read)}
    assert "copy an nltk_data folder" in lines[-1]
    for name in ("corpora/stopwords.zip", "misc/mwa_ppdb.zip"):
        (read / name).parent.mkdir(exist_ok=True)
        (read / name).write_bytes(b"x")
    assert main(["download", "--dir", str(tmp_path / "new")]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert "copy an nltk_data folder" not in last and "paralign reads them where they are already" in last
