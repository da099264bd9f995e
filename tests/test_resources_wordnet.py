"""WordNet synonyms: the offset index (the one path) equals nltk's `synsets` + lemma names.

The whole vocabulary (~4.8 million words and forms) is checked by
`benchmarks/wordnet_index_check.py`; here a seeded sample of it, a few known traps, and
arbitrary strings keep the two paths honest in a few seconds.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign import resources
from paralign.errors import ResourceMissingError


@pytest.fixture(scope="module")
def lemmas() -> list[str]:
    """Every WordNet lemma name (underscores -> spaces), sorted; skips without WordNet data."""
    try:
        wn = resources.wordnet()
    except ResourceMissingError as exc:
        pytest.skip(f"WordNet data not found: {exc}")
    return sorted(name.replace("_", " ") for name in set(wn.all_lemma_names()))


def _inflect(word: str, rng: random.Random) -> str:
    stem = word[:-1] if word.endswith(("e", "y")) else word
    return rng.choice([word + "s", word + "es", word + "ed", word + "ing", stem + "ies",
                       stem + "ing", word + word[-1] + "ed"])


def _sample(lemmas: list[str], seed: int = 2014) -> list[str]:
    rng = random.Random(seed)
    base = rng.sample(lemmas, 150)
    multi = rng.sample([w for w in lemmas if " " in w], 50)
    words = base + multi
    words += [_inflect(w, rng) for w in base]
    words += [rng.choice([w.capitalize(), w.title(), w.upper()]) for w in words[:200]]
    return words


def test_index_equals_nltk_on_sampled_vocabulary(lemmas: list[str]) -> None:
    index = resources._wordnet_index()
    words = _sample(lemmas)
    assert len(words) == 550 and any(" " in w for w in words)
    with_synonyms = 0
    for word in words:
        expected = resources._nltk_wordnet_synonyms(word)
        assert index.synonyms(word) == expected, word
        assert resources.wordnet_synonyms(word) == expected, word
        with_synonyms += bool(expected)
    assert with_synonyms > 150  # the sample is not vacuous: most lemmas have synonyms


@pytest.mark.parametrize("word", [
    "ran", "geese", "better", "best", "went", "bombing", "explosions", "blow up", "new york",
    "New York", "NEW YORK", "attorneys general", "car", "cars", "the", "xyzzy", "", "a",
    "hardest", "lay", "axes", "galore", "U.S.", "rock 'n' roll", "co-op", "new_york",
])
def test_index_equals_nltk_on_traps(lemmas: list[str], word: str) -> None:
    # exceptions files (ran, geese, better), several morphy forms (axes: axis and ax),
    # multiword and case, adjective markers (galore(ip)), punctuation, underscores
    assert resources.wordnet_synonyms(word) == resources._nltk_wordnet_synonyms(word)


def test_known_synonyms_and_markers_stripped(lemmas: list[str]) -> None:
    assert {"automobile", "machine"} <= resources.wordnet_synonyms("cars")  # plural -> car
    assert "run" in resources.wordnet_synonyms("ran")  # verb exceptions file
    assert "good" in resources.wordnet_synonyms("better")  # adjective exceptions file
    assert "new york city" in resources.wordnet_synonyms("New York")
    for word in ("galore", "aplenty", "elect", "big", "nearby"):
        assert not any(s.endswith(")") for s in resources.wordnet_synonyms(word)), word


def test_wordnet_synonyms_goes_through_the_index(lemmas: list[str], monkeypatch) -> None:
    """One path: the public function never calls nltk's `synsets`."""
    assert resources.fast_wordnet_synonyms is resources.wordnet_synonyms
    index = resources._wordnet_index()

    def forbidden(*args, **kwargs):
        raise AssertionError("wordnet_synonyms called nltk's synsets")

    monkeypatch.setattr(resources.wordnet(), "synsets", forbidden)
    assert resources.wordnet_synonyms.__wrapped__("automobiles") == index.synonyms("automobiles")
    assert "car" in resources.wordnet_synonyms.__wrapped__("automobiles")


@settings(max_examples=200)
@given(st.text(alphabet="abcdeilnorstuyABEST -'._", max_size=12))
def test_index_equals_nltk_on_arbitrary_strings(word: str) -> None:
    try:
        resources.wordnet()
    except ResourceMissingError:
        pytest.skip("WordNet data not found")
    assert resources._wordnet_index().synonyms(word) == resources._nltk_wordnet_synonyms(word)


def test_index_reads_only_the_synsets_it_needs(lemmas: list[str]) -> None:
    """A fresh index parses the data lines of the words asked for, not all 117,000 synsets."""
    index = resources._WordNetIndex()
    assert "automobile" in index.synonyms("cars")
    assert 0 < len(index._names) < 100
    assert index.version == "3.0"
    assert "new york" in index.multiword_lemmas() and "car" not in index.multiword_lemmas()


def test_every_synonym_of_several_words_is_a_multiword_lemma(lemmas: list[str]) -> None:
    """What the graded ParaEval's reference index relies on: a synonym with a space (a lemma
    name of a synset the index reaches) is one of `wordnet_multiword()`, so reference phrases
    of several words outside it can never be proposed as a synonym."""
    index = resources._WordNetIndex()
    multi = index.multiword_lemmas()
    outside = set()
    for pos, _ in index._POS_FILES:
        for lemma in index._lemmas(pos):
            for offset in index.offsets(lemma, pos):
                outside.update(n for n in index.names(pos, offset) if " " in n and n not in multi)
    assert not outside


def test_senses_are_nltks_synsets(lemmas: list[str]) -> None:
    """`wordnet_senses` (what the graded synonym tier matches on) is nltk's `synsets`, as
    (part of speech, offset), on the sampled vocabulary: satellite adjectives under 'a'."""
    wn = resources.wordnet()
    checked = 0
    for word in _sample(lemmas)[::5]:
        expected = {("a" if s.pos() == "s" else s.pos(), s.offset()) for s in wn.synsets(word.replace(" ", "_"))}
        assert resources.wordnet_senses(word) == expected, word
        checked += bool(expected)
    assert checked > 40
    assert resources.wordnet_senses("sat") & resources.wordnet_senses("sitting")


@pytest.mark.parametrize("damage", ["file missing", "zip member missing", "zip cut short"])
def test_wordnet_data_missing_a_file_or_damaged_is_a_resource_error(damage, tmp_path, monkeypatch) -> None:
    """Resource audit: WordNet's folder without one of its files was a bare FileNotFoundError, and
    wordnet.zip without it (KeyError) or cut short by a download that stopped (BadZipFile) a
    traceback; each is now a ResourceMissingError naming the file and saying how to get it."""
    import shutil
    import zipfile

    source = None
    for folder in resources._nltk_dirs():
        if (folder / "corpora" / "wordnet.zip").is_file() or (folder / "corpora" / "wordnet").is_dir():
            source = folder / "corpora"
            break
    if source is None:
        pytest.skip("WordNet data not found")
    corpora = tmp_path / "corpora"
    corpora.mkdir()
    if (source / "wordnet").is_dir():
        shutil.copytree(source / "wordnet", corpora / "wordnet")
    else:
        with zipfile.ZipFile(source / "wordnet.zip") as archive:
            archive.extractall(corpora)
    (corpora / "wordnet" / "index.verb").unlink()
    if damage != "file missing":
        with zipfile.ZipFile(corpora / "wordnet.zip", "w") as archive:
            for file in sorted((corpora / "wordnet").iterdir()):
                archive.write(file, f"wordnet/{file.name}")
        shutil.rmtree(corpora / "wordnet")
        if damage == "zip cut short":
            data = (corpora / "wordnet.zip").read_bytes()
            (corpora / "wordnet.zip").write_bytes(data[:len(data) // 2])
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    with pytest.raises(ResourceMissingError, match=r"WordNet: cannot read .*(index\.verb|wordnet\.zip).*paralign download"):
        resources._WordNetIndex().senses("sitting")
