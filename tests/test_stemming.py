"""The vendored English Snowball stemmer equals nltk's `SnowballStemmer("english")`."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign import resources, stemming
from paralign.errors import ResourceMissingError

nltk_snowball = pytest.importorskip("nltk.stem.snowball")
NLTK = nltk_snowball.SnowballStemmer("english")

#: Words that exercise every step and branch (special words, regions, each suffix list).
TRAPS = (  # noqa: SIM905 (a word list is easier to read and extend as text)
    "skis skies dying lying tying idly gently ugly early only singly sky news howe atlas cosmos "
    "bias andes inning innings outing outings canning cannings herring herrings earring earrings "
    "proceed proceeds proceeded proceeding exceed exceeds exceeded exceeding succeed succeeds "
    "succeeded succeeding generous generously communism communication arsenal arsenic "
    "caresses ponies ties cries gas gaps kiwis agreed feed bleed luxuriating hopping "
    "filing hoped conflated troubling sized hissing fizzed failing filing happy sky cry "
    "relational conditional rational valenci hesitanci digitizer conformabli radicalli "
    "differentli vileli analogousli vietnamization predication operator feudalism "
    "decisiveness hopefulness callousness formaliti sensitiviti sensibiliti geologi archaeologi "
    "triplicate formative formalize electriciti electrical hopeful goodness revival allowance "
    "inference airliner gyroscopic adjustable defensible irritant replacement adjustment "
    "dependent adoption homologou communism activate angulariti homologous effective bowdlerize "
    "probate rate cease controll roll 'tis y yes ya yay bay obeyed sayings "
    "dogs' dog's ’quoted’ ‘quote isn’t o'neill don't ‛x ab a . , 1990s e-mail "
    "ied ies tied lied sses ss us s ation ational eed eedly ingly edly emerged ing ed"
).split()


def _same(words) -> list[tuple[str, str, str]]:
    return [(w, stemming.stem(w), NLTK.stem(w)) for w in words if stemming.stem(w) != NLTK.stem(w)]


def test_traps_match_nltk() -> None:
    assert _same(TRAPS) == []
    assert _same(w.upper() for w in TRAPS) == []


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="abcdeilnorstuyz'’", min_size=0, max_size=14))
def test_any_string_matches_nltk(word: str) -> None:
    assert stemming.stem(word) == NLTK.stem(word)


def test_every_wordnet_lemma_matches_nltk() -> None:
    """All ~147,000 WordNet lemma names and their common inflections."""
    try:
        wn = resources.wordnet()
    except ResourceMissingError as exc:
        pytest.skip(f"WordNet data not found: {exc}")
    words = {w for name in wn.all_lemma_names() for w in name.split("_")}
    words |= {w + s for w in list(words) for s in ("s", "ed", "ing", "ly")}
    assert _same(sorted(words)) == []


def test_importing_it_does_not_import_nltk() -> None:
    import subprocess

    code = "import sys, paralign.stemming as s; s.stem('running'); print('nltk' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
