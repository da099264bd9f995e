"""The English Snowball (Porter2) stemmer, exactly as NLTK's `SnowballStemmer("english")`
stems, without importing nltk.

Why: ``from nltk.stem.snowball import SnowballStemmer`` runs nltk's package ``__init__``, which
imports most of nltk and scipy (1-4 s, more than ParaEval spends scoring 19 systems). This is
NLTK 3.x's ``EnglishStemmer.stem`` (Apache License 2.0, Copyright (C) 2001-2026 NLTK Project;
authors Peter Michael Stahl, Peter Ljunglöf, Lakhdar Benzahia, Assem Chelli, Abdelkrim Aries)
with its helpers inlined and without the optional stop-word list; the tests compare it with
nltk's on every WordNet lemma name and every token of the WMT21 outputs.

Not for: other languages, or stop-word-aware stemming (nltk's ``ignore_stopwords``).
"""

from __future__ import annotations

import functools

_VOWELS = "aeiouy"
_DOUBLES = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_LI_ENDING = "cdeghkmnrt"
_STEP0 = ("'s'", "'s", "'")
_STEP1A = ("sses", "ied", "ies", "us", "ss", "s")
_STEP1B = ("eedly", "ingly", "edly", "eed", "ing", "ed")
_STEP2 = ("ization", "ational", "fulness", "ousness", "iveness", "tional", "biliti", "lessli",
          "entli", "ation", "alism", "aliti", "ousli", "iviti", "fulli", "enci", "anci", "abli",
          "izer", "ator", "alli", "bli", "ogi", "li")
#: step 2 suffixes replaced by another ending: (suffix, ending, r2 when too short for it)
_STEP2_REPLACE = {
    "izer": ("ize", ""), "ization": ("ize", ""), "ational": ("ate", "e"), "ation": ("ate", "e"),
    "ator": ("ate", "e"), "alism": ("al", ""), "aliti": ("al", ""), "alli": ("al", ""),
    "ousli": ("ous", ""), "ousness": ("ous", ""), "iveness": ("ive", "e"), "iviti": ("ive", "e"),
    "biliti": ("ble", ""), "bli": ("ble", ""),
}
_STEP3 = ("ational", "tional", "alize", "icate", "iciti", "ative", "ical", "ness", "ful")
_STEP4 = ("ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti",
          "ous", "ive", "ize", "ion", "al", "er", "ic")
_SPECIAL = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "idly": "idl",
    "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
    "sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos",
    "bias": "bias", "andes": "andes", "inning": "inning", "innings": "inning",
    "outing": "outing", "outings": "outing", "canning": "canning", "cannings": "canning",
    "herring": "herring", "herrings": "herring", "earring": "earring", "earrings": "earring",
    "proceed": "proceed", "proceeds": "proceed", "proceeded": "proceed",
    "proceeding": "proceed", "exceed": "exceed", "exceeds": "exceed", "exceeded": "exceed",
    "exceeding": "exceed", "succeed": "succeed", "succeeds": "succeed",
    "succeeded": "succeed", "succeeding": "succeed",
}


def _region(word: str) -> str:
    """The region after the first non-vowel following a vowel (Snowball's R1 of `word`)."""
    for i in range(1, len(word)):
        if word[i] not in _VOWELS and word[i - 1] in _VOWELS:
            return word[i + 1:]
    return ""


def _replace(word: str, r1: str, r2: str, suffix: str, new: str,
             short_r2: str = "") -> tuple[str, str, str]:
    """Replace `suffix` by `new` in the word and in R1 and R2 where they hold it (nltk's
    suffix_replace; a region shorter than the suffix becomes empty, or `short_r2` for R2)."""
    cut = len(suffix)
    return (word[:-cut] + new, r1[:-cut] + new if len(r1) >= cut else "",
            r2[:-cut] + new if len(r2) >= cut else short_r2)


def _drop(word: str, r1: str, r2: str, count: int) -> tuple[str, str, str]:
    return word[:-count], r1[:-count], r2[:-count]


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """The Snowball English stem of `word` (lower-cased first), as nltk's
    ``SnowballStemmer("english").stem``."""
    word = word.lower()
    if len(word) <= 2:
        return word
    if word in _SPECIAL:
        return _SPECIAL[word]
    word = word.replace("\u2019", "'").replace("\u2018", "'").replace("\u201b", "'")
    if word.startswith("'"):
        word = word[1:]
    if word.startswith("y"):
        word = "Y" + word[1:]
    chars = list(word)
    for i in range(1, len(chars)):
        if chars[i - 1] in _VOWELS and chars[i] == "y":
            chars[i] = "Y"
    word = "".join(chars)
    if word.startswith(("gener", "arsen")):
        r1 = word[5:]
        r2 = _region(r1)
    elif word.startswith("commun"):
        r1 = word[6:]
        r2 = _region(r1)
    else:
        r1 = _region(word)
        r2 = _region(r1)
    word, r1, r2 = _steps01(word, r1, r2)
    word, r1, r2 = _step1b(word, r1, r2)
    if len(word) > 2 and word[-1] in "yY" and word[-2] not in _VOWELS:  # step 1c
        word = word[:-1] + "i"
        r1 = r1[:-1] + "i" if len(r1) >= 1 else ""
        r2 = r2[:-1] + "i" if len(r2) >= 1 else ""
    word, r1, r2 = _step2(word, r1, r2)
    word, r1, r2 = _step3(word, r1, r2)
    for suffix in _STEP4:
        if word.endswith(suffix):
            if r2.endswith(suffix):
                if suffix != "ion":
                    word, r1, r2 = _drop(word, r1, r2, len(suffix))
                elif word[-4] in "st":
                    word, r1, r2 = _drop(word, r1, r2, 3)
            break
    if ((r2.endswith("l") and word[-2] == "l") or r2.endswith("e")  # step 5
            or (r1.endswith("e") and len(word) >= 4 and (
                word[-2] in _VOWELS or word[-2] in "wxY" or word[-3] not in _VOWELS
                or word[-4] in _VOWELS))):
        word = word[:-1]
    return word.replace("Y", "y")


def _steps01(word: str, r1: str, r2: str) -> tuple[str, str, str]:
    """Steps 0 (apostrophe endings) and 1a (plural endings)."""
    for suffix in _STEP0:
        if word.endswith(suffix):
            word, r1, r2 = _drop(word, r1, r2, len(suffix))
            break
    for suffix in _STEP1A:
        if word.endswith(suffix):
            if suffix == "sses":
                word, r1, r2 = _drop(word, r1, r2, 2)
            elif suffix in ("ied", "ies"):
                word, r1, r2 = _drop(word, r1, r2, 2 if len(word) - len(suffix) > 1 else 1)
            elif suffix == "s" and any(letter in _VOWELS for letter in word[:-2]):
                word, r1, r2 = _drop(word, r1, r2, 1)
            break
    return word, r1, r2


def _step1b(word: str, r1: str, r2: str) -> tuple[str, str, str]:
    """Step 1b: -eed(ly), -ing(ly), -ed(ly), with the clean-ups after a removal."""
    for suffix in _STEP1B:
        if not word.endswith(suffix):
            continue
        if suffix in ("eed", "eedly"):
            if r1.endswith(suffix):
                word, r1, r2 = _replace(word, r1, r2, suffix, "ee")
        elif any(letter in _VOWELS for letter in word[:-len(suffix)]):
            word, r1, r2 = _drop(word, r1, r2, len(suffix))
            if word.endswith(("at", "bl", "iz")):
                word, r1 = word + "e", r1 + "e"
                if len(word) > 5 or len(r1) >= 3:
                    r2 = r2 + "e"
            elif word.endswith(_DOUBLES):
                word, r1, r2 = _drop(word, r1, r2, 1)
            elif r1 == "" and (
                    (len(word) >= 3 and word[-1] not in _VOWELS and word[-1] not in "wxY"
                     and word[-2] in _VOWELS and word[-3] not in _VOWELS)
                    or (len(word) == 2 and word[0] in _VOWELS and word[1] not in _VOWELS)):
                word = word + "e"
                r1 = r1 + "e" if r1 else r1
                r2 = r2 + "e" if r2 else r2
        break
    return word, r1, r2


def _step2(word: str, r1: str, r2: str) -> tuple[str, str, str]:
    """Step 2: derivational suffixes in R1."""
    for suffix in _STEP2:
        if not word.endswith(suffix):
            continue
        if r1.endswith(suffix):
            if suffix in ("tional", "entli", "fulli", "lessli"):
                word, r1, r2 = _drop(word, r1, r2, 2)
            elif suffix in ("enci", "anci", "abli"):
                word = word[:-1] + "e"
                r1 = r1[:-1] + "e" if len(r1) >= 1 else ""
                r2 = r2[:-1] + "e" if len(r2) >= 1 else ""
            elif suffix in _STEP2_REPLACE:
                new, short = _STEP2_REPLACE[suffix]
                word, r1, r2 = _replace(word, r1, r2, suffix, new, short)
            elif suffix == "fulness":
                word, r1, r2 = _drop(word, r1, r2, 4)
            elif suffix == "ogi" and word[-4] == "l":
                word, r1, r2 = _drop(word, r1, r2, 1)
            elif suffix == "li" and word[-3] in _LI_ENDING:
                word, r1, r2 = _drop(word, r1, r2, 2)
        break
    return word, r1, r2


def _step3(word: str, r1: str, r2: str) -> tuple[str, str, str]:
    """Step 3: more derivational suffixes in R1 (-ative in R2)."""
    for suffix in _STEP3:
        if not word.endswith(suffix):
            continue
        if r1.endswith(suffix):
            if suffix == "tional":
                word, r1, r2 = _drop(word, r1, r2, 2)
            elif suffix == "ational":
                word, r1, r2 = _replace(word, r1, r2, suffix, "ate")
            elif suffix == "alize":
                word, r1, r2 = _drop(word, r1, r2, 3)
            elif suffix in ("icate", "iciti", "ical"):
                word, r1, r2 = _replace(word, r1, r2, suffix, "ic")
            elif suffix in ("ful", "ness"):
                word, r1, r2 = _drop(word, r1, r2, len(suffix))
            elif suffix == "ative" and r2.endswith(suffix):
                word, r1, r2 = _drop(word, r1, r2, 5)
        break
    return word, r1, r2
