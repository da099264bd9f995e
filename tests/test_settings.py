"""Settings read without loading anything: which device settings are taken."""

from __future__ import annotations

import pytest

from paralign.settings import DEVICE_FORMS, DEVICES, is_device


@pytest.mark.parametrize("device", ["auto", "cpu", "cuda", "cuda:0", "cuda:1", "cuda:12"])
def test_device_settings_taken_include_a_gpu_index(device: str) -> None:
    """cuda:N, as torch, sentence-transformers and BERTScore users write it, beside the names."""
    assert is_device(device)


@pytest.mark.parametrize("device", ["CPU", "Cuda", "CUDA:1", " cuda", "cuda ", "cuda:", "cuda:01",
                                    "cuda:-1", "cuda:+1", "cuda: 1", "cuda:1.0", "cuda:0x1",
                                    "cuda:\uff11", "cuda:1\n", "gpu", "tpu", "cpu:0", "", None, 1])
def test_device_settings_torch_refuses_are_refused(device: object) -> None:
    """torch's own spelling only: lower case, an index of ASCII digits without sign or leading zero."""
    assert not is_device(device)


def test_device_forms_list_every_name_and_the_index_form() -> None:
    assert (*DEVICES, "cuda:N") == DEVICE_FORMS


@pytest.fixture()
def no_home(monkeypatch):
    """A process with no home folder to tell: HOME unset and its uid in no password database (a
    container or a batch job run under a bare uid), where Path.home() raises RuntimeError."""
    import pwd

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    for name in ("HOME", "XDG_CACHE_HOME", "PARALIGN_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(pwd, "getpwuid", unknown)


def test_no_home_folder_is_no_cache_and_nltk_data_is_still_found(no_home, tmp_path, monkeypatch,
                                                                 capsys) -> None:
    """Resource audit: a command run under a bare uid without HOME failed with a traceback
    (RuntimeError 'Could not determine home directory') from the cache folder's default and from
    the NLTK data walk; now there is no cache (as with a read-only home) and NLTK_DATA is read."""
    from paralign import disk_cache, resources
    from paralign.cli import main
    from paralign.settings import cache_dir, home_dir

    assert home_dir() is None and cache_dir() is None
    source = tmp_path / "source.txt"
    source.write_text("words", encoding="utf-8")
    assert disk_cache.derived("n", source, lambda: {"x": 1}, version="1") == {"x": 1}
    data = tmp_path / "nltk_data"
    (data / "corpora" / "stopwords").mkdir(parents=True)
    (data / "corpora" / "stopwords" / "english").write_text("the\na\n", encoding="utf-8")
    monkeypatch.setenv("NLTK_DATA", str(data))
    assert resources._nltk_dirs()[0] == data
    assert resources._pointer("corpora/stopwords/english", "stopwords", "stop words")[0] == \
        data / "corpora" / "stopwords" / "english"
    assert main(["cache", "dir"]) == 0
    assert "no home folder" in capsys.readouterr().out


def test_relative_xdg_cache_home_is_ignored(monkeypatch, tmp_path) -> None:
    """XDG_CACHE_HOME=cache (relative) put paralign's cache in ./cache/paralign of whatever folder
    a command ran in; the XDG Base Directory specification says a relative path there is invalid
    and to be ignored, so the default under the home folder is used, as with no XDG_CACHE_HOME."""
    from paralign.settings import cache_dir

    monkeypatch.delenv("PARALIGN_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")
    assert cache_dir() == tmp_path / ".cache" / "paralign"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "paralign"


def test_a_tilde_in_paralign_cache_dir_is_the_home_folder(monkeypatch, tmp_path) -> None:
    """PARALIGN_CACHE_DIR="~/cache" (quoted, or set by a tool that does not expand it, such as a
    systemd unit or a .env file) made a folder named ``~`` under whatever folder a command ran
    in; ``~`` is now the home folder, as the shell reads it."""
    from paralign.settings import cache_dir

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PARALIGN_CACHE_DIR", "~/cache")
    assert cache_dir() == tmp_path / "cache"
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(tmp_path / "abs"))
    assert cache_dir() == tmp_path / "abs"
