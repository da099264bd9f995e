"""Resources: stop words, PPDB pairs, WordNet, and the error when NLTK data is missing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from paralign import resources


def test_stopwords_are_the_127_word_list() -> None:
    words = resources.stopwords()
    assert len(words) == 127
    assert {"the", "a", "of", "and", "is"} <= words
    assert "paraphrase" not in words
    assert resources.stopwords() is words  # loaded once


def test_ppdb_pairs() -> None:
    pairs = resources.ppdb_pairs()
    assert len(pairs) > 400_000  # 210k lines, stored in both orders
    assert all(a == a.lower() and b == b.lower() for a, b in list(pairs)[:1000])
    a, b = next(iter(pairs))
    assert (b, a) in pairs


def test_a_ppdb_file_with_a_bom_or_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    """Resource audit: a byte-order mark joined the first phrase of ppdb_pairs ('\ufeffbig'), where
    every other file paralign reads drops it; a PPDB copy cut short inside a character was a
    UnicodeDecodeError traceback. The mark is dropped, and a bad byte is a FormatError naming the
    file and line, for the pairs and the table alike."""
    from paralign.errors import FormatError
    from paralign.paraphrases import _ppdb_rows

    good = tmp_path / "bom"
    good.write_bytes("\ufeffbig\thuge\r\nbuy\tpurchase\r\n".encode())
    assert resources._read_ppdb_pairs(good) == {("big", "huge"), ("huge", "big"), ("buy", "purchase"),
                                                ("purchase", "buy")}
    assert set(_ppdb_rows(good)[0]) == {"big", "huge", "buy", "purchase"}
    cut = tmp_path / "cut"
    cut.write_bytes(b"big\thuge\r\ncaf\xc3")
    for read in (resources._read_ppdb_pairs, _ppdb_rows):
        with pytest.raises(FormatError, match=rf"^{re.escape(str(cut))}:2: not UTF-8 \(byte 0xc3 at column 4\).*paralign download"):
            read(cut)


@pytest.mark.parametrize("damage", ["not utf-8", "zip cut short"])
def test_damaged_stop_words_are_one_resource_error(damage, tmp_path: Path, monkeypatch) -> None:
    """Resource audit: a stop-word file that is not UTF-8, or a stopwords.zip cut short by a
    download that stopped, failed every input line of `align` ('alignment failed:
    UnicodeDecodeError' / 'BadZipFile', each output line empty); it is one ResourceMissingError
    naming the data and saying how to get it again."""
    import nltk.data

    from paralign.errors import ResourceMissingError

    (tmp_path / "corpora").mkdir()
    if damage == "not utf-8":
        (tmp_path / "corpora" / "stopwords").mkdir()
        (tmp_path / "corpora" / "stopwords" / "english").write_bytes(b"the\n\xff\n")
    else:
        (tmp_path / "corpora" / "stopwords.zip").write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    monkeypatch.setattr(resources, "_nltk_dirs", lambda: [tmp_path])
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    with pytest.raises(ResourceMissingError, match=r"^NLTK stop words: cannot read .*'stopwords'.*paralign download"):
        resources._read_text("corpora/stopwords/english", "stopwords", "NLTK stop words")


def test_wordnet_synonyms() -> None:
    assert resources.wordnet().synsets("dog")
    synonyms = resources.wordnet_synonyms("car")
    assert "automobile" in synonyms and "car" not in synonyms
    assert "new york city" in resources.wordnet_synonyms("new york")  # multiword lemma, with spaces


SCRIPT = """
import json, sys
import nltk.data
nltk.data.path[:] = [sys.argv[1]]
from paralign import resources
out = {}
for name in ("stopwords", "ppdb_pairs", "wordnet"):
    try:
        getattr(resources, name)()
        out[name] = None
    except Exception as exc:
        out[name] = [type(exc).__name__, isinstance(exc, LookupError), str(exc)]
print(json.dumps(out))
"""


def test_missing_resource_error_names_nltk_data_and_download(tmp_path: Path) -> None:
    env = {**os.environ, "NLTK_DATA": str(tmp_path), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for name, error in result.items():
        assert error is not None, f"{name} was found in an empty NLTK_DATA"
        kind, is_lookup, message = error
        assert kind == "ResourceMissingError" and is_lookup
        assert "NLTK_DATA" in message and "paralign download" in message


@pytest.mark.parametrize("name", resources.NLTK_PACKAGES)
def test_download_covers_the_three_packages(name: str) -> None:
    assert name in {"wordnet", "stopwords", "mwa_ppdb"}


@pytest.mark.data
def test_import_leaves_the_environment_alone_and_resources_still_find_shared_data(data: Path) -> None:
    script = (
        "import os, paralign\n"
        "before = os.environ.get('NLTK_DATA')\n"
        "from paralign.resources import stopwords\n"
        "print(before, len(stopwords()), os.environ.get('NLTK_DATA'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NLTK_DATA"}
    env["PARALIGN_DATA"] = str(data)
    if not (data / "nltk_data").is_dir():
        pytest.skip("no nltk_data folder under PARALIGN_DATA")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["None", "127", "None"]


ZIPPED = """
import json, sys
from paralign import resources
out = {}
for name in ("stopwords", "ppdb_pairs"):
    try:
        out[name] = len(getattr(resources, name)())
    except Exception as exc:
        out[name] = [type(exc).__name__, str(exc)]
print(json.dumps(out))
"""


def test_zipped_nltk_data_is_read_or_named(tmp_path: Path, data: Path) -> None:
    """NLTK data kept as zips (corpora/stopwords.zip, misc/mwa_ppdb.zip), as nltk finds them:
    the stop words were a bare NotADirectoryError ('.../stopwords.zip/stopwords/english'); they
    are read from the zip, and the PPDB file, opened by path, is a ResourceMissingError saying
    to unzip it."""
    import zipfile

    source = data / "nltk_data"
    for folder, member in (("corpora", "stopwords/english"), ("misc", "mwa_ppdb/" + Path(resources.PPDB_FILE).name)):
        (tmp_path / folder).mkdir(exist_ok=True)
        with zipfile.ZipFile(tmp_path / folder / (member.split("/")[0] + ".zip"), "w") as archive:
            archive.write(source / folder / member, member)
    env = {**os.environ, "NLTK_DATA": str(tmp_path), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", ZIPPED], env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["stopwords"] == 127
    kind, message = result["ppdb_pairs"]
    assert kind == "ResourceMissingError" and "found only inside a zip" in message and "unzip" in message
