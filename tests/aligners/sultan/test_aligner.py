"""Sultan et al. (2014) aligner: modules on hand-made sentences, symmetry, bad input, data floor."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.aligners import Aligner
from paralign.aligners.sultan import PAPER_OPTIONS, depequiv, preset_options, unescape_ptb
from paralign.aligners.sultan.wordsim import (
    NoSimilarity,
    SpellingSimilarity,
    canonical,
    is_punctuation,
    load_similarity,
    osa_distance,
    within_one_edit,
    word_similarity,
)
from paralign.alignment import Alignment
from paralign.errors import ConfigurationError
from paralign.sentence import Entity, Sentence


def sent(tokens: str, tags: str = "", heads: list[int] | None = None, deps: str = "",
         lemmas: str = "", entities: tuple[Entity, ...] = ()) -> Sentence:
    """A hand-annotated sentence: whitespace tokens, tags, heads, deps, lemmas."""
    toks = tokens.split()
    return Sentence(
        tokens=tuple(toks),
        lemmas=tuple(lemmas.split()) if lemmas else tuple(t.lower() for t in toks),
        tags=tuple(tags.split()) if tags else ("NN",) * len(toks),
        heads=tuple(heads) if heads is not None else (-1,) * len(toks),
        deps=tuple(deps.split()) if deps else ("dep",) * len(toks),
        entities=entities,
    )


@pytest.fixture(scope="module")
def aligner() -> Aligner:
    return Aligner()


# -- word similarity ------------------------------------------------------------------------------
def test_word_similarity_levels() -> None:
    ppdb = load_similarity("ppdb")
    assert word_similarity("Car", "car", related=ppdb) == 1.0
    assert word_similarity("U.S.", "US", related=ppdb) == 1.0  # canonical form
    assert word_similarity("running", "runs", related=ppdb) == 1.0  # stem
    assert word_similarity("killed", "murdered", related=ppdb, ppdb_sim=0.7) == 0.7
    assert word_similarity("killed", "murdered", related=NoSimilarity()) == 0.0
    assert word_similarity("12", "13", related=ppdb) == 0.0  # different numbers
    assert word_similarity("the", "car", related=ppdb) == 0.0  # stop vs content
    assert word_similarity(",", ";", related=ppdb) == 0.0  # punctuation
    assert word_similarity("went", "goes", lemmas=("go", "go"), related=ppdb) == 1.0


def test_wordnet_and_table_sources(tmp_path) -> None:
    wn = load_similarity("wordnet")
    assert wn.related("car", "automobile")
    assert not wn.related("car", "banana")
    table = tmp_path / "t.tsv"
    table.write_text("quick\tfast\t0.5\n", encoding="utf-8")
    src = load_similarity(str(table))
    assert src.related("quick", "fast") and src.related("fast", "quick")
    combined = load_similarity(f"wordnet+{table}")
    assert combined.related("quick", "fast") and combined.related("car", "automobile")
    with pytest.raises(ConfigurationError):
        load_similarity(str(tmp_path / "missing.tsv"))


def test_spelling_variants() -> None:
    spelling = load_similarity("spelling")
    assert spelling.related("stompanato", "stomponato")  # substitution
    assert spelling.related("aspirin", "asprin")  # deletion
    assert spelling.related("malaysia", "malyasia")  # swapped neighbours
    assert not spelling.related("house", "horse")  # too short to trust one edit
    assert not spelling.related("unconfirmed", "confirmed")  # two edits
    assert not spelling.related("1990s", "1980s")  # not alphabetic
    assert osa_distance("kitten", "sitting") == 3
    assert osa_distance("abcdef", "badcfe", limit=1) == 2  # gives up past the limit


def test_within_one_edit_is_an_osa_distance_of_at_most_one() -> None:
    # every pair of words of up to 4 letters over a 3-letter alphabet (the one-pass check stands
    # in for osa_distance in the aligner's default spelling test; a slip would change links)
    import itertools

    words = ["".join(w) for n in range(5) for w in itertools.product("abc", repeat=n)]
    for a in words:
        for b in words:
            assert within_one_edit(a, b) == (osa_distance(a, b) <= 1), (a, b)


@settings(max_examples=300, deadline=None)
@given(st.text("abcdefg", min_size=6, max_size=12), st.text("abcdefg", min_size=6, max_size=12))
def test_spelling_similarity_with_one_edit_is_the_osa_test(a: str, b: str) -> None:
    expected = abs(len(a) - len(b)) <= 1 and osa_distance(a, b, 1) <= 1
    assert SpellingSimilarity().related(a, b) == expected
    assert SpellingSimilarity(max_edits=2).related(a, b) == (abs(len(a) - len(b)) <= 2 and osa_distance(a, b, 2) <= 2)


def test_spelling_variants_are_an_aligner_switch() -> None:
    s, t = sent("Stompanato arrived", "NNP VBD"), sent("Stomponato arrived", "NNP VBD")
    assert (0, 0) in Aligner().align_sentences(s, t).sure
    assert (0, 0) not in Aligner(spelling_variants=False).align_sentences(s, t).sure


def test_canonical_and_punctuation() -> None:
    assert canonical("U.S.") == "us" and canonical("-") == "-" and canonical("1,000") == "1000"
    assert is_punctuation("-LRB-") and is_punctuation("«") and not is_punctuation("a-b")
    assert unescape_ptb(["-LRB-", "``", "x", "''"]) == ["(", '"', "x", '"']


# -- dependency equivalences -----------------------------------------------------------------------
def test_collapsed_edges_prep_and_conj() -> None:
    # "cats sat on mats and dogs" : sat <- cats (nsubj), sat -> on (prep) -> mats (pobj)
    tokens = ["cats", "sat", "on", "mats", "and", "dogs"]
    heads = [1, -1, 1, 2, 3, 3]
    deps = ["nsubj", "ROOT", "prep", "pobj", "cc", "conj"]
    parents, children = depequiv.collapsed_edges(tokens, tokens, heads, deps)
    assert (1, "prep_on") in children[1] or (3, "prep_on") in children[1]
    assert parents[3] == [(1, "prep_on")]
    assert parents[5] == [(3, "conj_and")]
    assert parents[1] == [(-1, "root")]
    assert all(c != 2 for c, _ in children[1])  # the preposition is collapsed away
    assert depequiv.equivalent("v", "nsubj", "agent", depequiv.CHILD_GROUPS)
    assert depequiv.equivalent("n", "poss", "prep_of", depequiv.PARENT_GROUPS)
    assert not depequiv.equivalent("r", "advmod", "npadvmod", depequiv.CHILD_GROUPS)
    assert depequiv.cross_equivalent("n", "dobj", "relcl")
    assert depequiv.cross_equivalent("j", "amod", "nsubj")


def test_copula_gives_stanford_subject_edge() -> None:
    tokens = ["car", "is", "red"]
    parents, children = depequiv.collapsed_edges(tokens, ["car", "be", "red"], [1, -1, 1],
                                                 ["nsubj", "ROOT", "acomp"])
    assert (2, "nsubj") in parents[0]
    assert (0, "nsubj") in children[2]


# -- modules on hand-annotated sentences -------------------------------------------------------------
def test_empty_sentences(aligner: Aligner) -> None:
    assert aligner.align_sentences(Sentence.plain([]), sent("a b")) == Alignment()
    assert aligner.align_sentences(sent("a b"), Sentence.plain([])) == Alignment()
    assert aligner.align([], []) == Alignment()


@pytest.mark.parametrize("source", ["The cat sat.", ["The", "cat"], None])
def test_align_sentences_given_a_text_says_to_annotate_or_use_align(aligner: Aligner, source) -> None:
    """It was an AttributeError from deep inside ('str' object has no attribute 'tokens')."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=r"source must be an annotated Sentence .*align\(\) takes texts"):
        aligner.align_sentences(source, sent("a b"))
    with pytest.raises(InputTypeError, match="target must be an annotated Sentence"):
        aligner.align_sentences(sent("a b"), source)
    with pytest.raises(InputTypeError, match="sentence must be an annotated Sentence"):
        aligner.prepare(source)


def test_align_uses_a_sentence_as_it_is_beside_a_text(aligner: Aligner) -> None:
    """A Sentence beside a text or token list lost its annotation: align() annotated its tokens
    again, so a given lemma (or an external parse) was dropped and the pair aligned otherwise
    than as two Sentences."""
    given = sent("The zorg crashed .", "DT NN VBD .", lemmas="the car crash .")
    other = aligner.annotate(["The car crashed ."])[0]
    both = aligner.align(given, other)
    assert (1, 1) in both.sure
    assert aligner.align(given, "The car crashed .") == both
    assert aligner.align(given, ["The", "car", "crashed", "."]) == both
    assert aligner.align("The car crashed .", given) == both.transpose()


def test_token_lists_match_as_they_show(aligner: Aligner) -> None:
    """Given tokens were matched as written: "café" with a combining accent (NFD) did not match
    "café" (NFC), nor a word holding a soft hyphen the word without it, where the same texts,
    read as annotation reads them (NFC, invisible characters dropped), matched."""
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    assert (0, 0) in aligner.align([nfc, "au", "lait"], [nfd, "au", "lait"]).sure
    assert (1, 1) in aligner.align(["the", "soft\u00adware", "works"], ["the", "software", "works"]).sure
    assert aligner.align([nfd, "au", "lait"], [nfc, "au", "lait"]) == aligner.align(nfd + " au lait", nfc + " au lait")


@pytest.mark.parametrize("workers", [0, -1, "2", None])
def test_align_annotated_checks_workers(aligner: Aligner, workers) -> None:
    """align_annotated took workers=0 or -1 silently (align_many refused them) and "2" or None
    was a TypeError from a comparison."""
    with pytest.raises(ConfigurationError, match="^workers must be"):
        aligner.align_annotated([(sent("a b"), sent("a b"))], workers=workers)


def test_align_annotated_checks_its_pairs(aligner: Aligner) -> None:
    """A str or a pair of one sentence was a bare ValueError ('not enough values to unpack'),
    and a generator of pairs a TypeError (no len())."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match="^pairs must be a list"):
        aligner.align_annotated("ab")
    with pytest.raises(InputTypeError, match="^pairs: item 1 is"):
        aligner.align_annotated([(sent("a b"),)])
    pairs = ((sent("a b"), sent("a b")) for _ in range(2))
    assert aligner.align_annotated(pairs) == [Alignment.from_pharaoh("0-0 1-1")] * 2


def test_hyphenated_token_aligns_only_to_free_words(aligner: Aligner) -> None:
    """The hyphen rule did not check the run it matched: "well known" (aligned by wsAlign) was
    aligned to "well-known" too, each word twice, and two "well-known" tokens both took the one
    "well known" run; the paper's modules leave aligned words alone."""
    from collections import Counter

    s = sent("well-known people know well known things", "JJ NNS VBP RB VBN NNS")
    t = sent("well known people know well-known things", "RB VBN NNS VBP JJ NNS")
    links = aligner.align_sentences(s, t).sure
    assert {(3, 0), (4, 1), (0, 4)} <= links and (3, 4) not in links and (0, 0) not in links
    s = sent("the well-known man and the well-known woman", "DT JJ NN CC DT JJ NN")
    t = sent("the well known man", "DT RB VBN NN")
    links = aligner.align_sentences(s, t).sure
    assert max(Counter(j for _, j in links).values()) == 1
    assert aligner.align_sentences(t, s) == aligner.align_sentences(s, t).transpose()


def test_text_skips_copulas_without_stanford_copula(aligner: Aligner) -> None:
    """The copulas were found only under stanford_copula, so with stanford_copula=False the
    option text_skips_copulas did nothing: swTextAlign still aligned "is" to "is"."""
    s = sent("the car is red .", "DT NN VBZ JJ .", [1, 2, -1, 2, 2], "det nsubj ROOT acomp punct", "the car be red .")
    t = sent("the automobile is red .", "DT NN VBZ JJ .", [1, 2, -1, 2, 2], "det nsubj ROOT acomp punct",
             "the automobile be red .")
    base = aligner.with_params(use_word_sequences=False, use_dependency_context=False)
    assert (2, 2) in base.with_params(stanford_copula=False).align_sentences(s, t).sure
    for stanford in (True, False):
        skipping = base.with_params(stanford_copula=stanford, text_skips_copulas=True)
        assert (2, 2) not in skipping.align_sentences(s, t).sure


def test_identical_sequence_and_final_punctuation(aligner: Aligner) -> None:
    s = sent("the big dog barked loudly .", "DT JJ NN VBD RB .")
    t = sent("yesterday the big dog barked !", "NN DT JJ NN VBD .")
    links = aligner.align_sentences(s, t).sure
    assert {(0, 1), (1, 2), (2, 3), (3, 4), (5, 5)} <= links


def test_stop_word_only_sequence_needs_content(aligner: Aligner) -> None:
    s = sent("of the apple", "IN DT NN")
    t = sent("of the banana", "IN DT NN")
    assert (0, 0) not in aligner.with_params(align_stop_words=False).align_sentences(s, t).sure


def test_sentence_start_anchors_stop_words_but_not_determiners(aligner: Aligner) -> None:
    s = sent('" I cried bitterly .', "`` PRP VBD RB .")
    t = sent('" I wept a lot .', "`` PRP VBD DT NN .")
    links = aligner.align_sentences(s, t).sure
    assert {(0, 0), (1, 1)} <= links
    s, t = sent("I sneezed loudly .", "PRP VBD RB ."), sent("I wrote a poem .", "PRP VBD DT NN .")
    assert (0, 0) in aligner.align_sentences(s, t).sure
    assert (0, 0) not in aligner.with_params(start_evidence=False).align_sentences(s, t).sure
    s = sent("The galaxy shines .", "DT NN VBZ .")
    t = sent("The policeman sleeps .", "DT NN VBZ .")
    assert (0, 0) not in aligner.align_sentences(s, t).sure  # a determiner follows its noun


def test_coordinator_hangs_off_every_conjunct(aligner: Aligner) -> None:
    # "China and Canada" / "Canada and China": spaCy hangs "and" off the first conjunct only
    s = sent("China and Canada agreed", "NNP CC NNP VBD", [3, 0, 0, -1], "nsubj cc conj ROOT")
    t = sent("Canada and China agreed", "NNP CC NNP VBD", [3, 0, 0, -1], "nsubj cc conj ROOT")
    assert (1, 1) in aligner.align_sentences(s, t).sure
    off = aligner.with_params(coordination_edges=False, use_textual_context=False)
    assert (1, 1) not in off.align_sentences(s, t).sure


def test_determiners_of_overlapping_noun_phrases(aligner: Aligner) -> None:
    s = sent("The Chicago Bulls won", "DT NNP NNPS VBD", [2, 2, 3, -1], "det compound nsubj ROOT")
    t = sent("The Bulls basketball team lost", "DT NNPS NN NN VBD", [3, 3, 3, 4, -1],
             "det compound compound nsubj ROOT")
    assert (0, 0) in aligner.align_sentences(s, t).sure
    assert (0, 0) not in aligner.with_params(determiner_spans=False).align_sentences(s, t).sure


def test_context_only_links_option(aligner: Aligner) -> None:
    # "rebels ambushed the convoy" / "rebels attacked the convoy": no word similarity for the
    # verbs, but subject and object are aligned under the same labels
    s = sent("rebels ambushed the convoy", "NNS VBD DT NN", [1, -1, 3, 1], "nsubj ROOT det dobj")
    t = sent("rebels raided the convoy", "NNS VBD DT NN", [1, -1, 3, 1], "nsubj ROOT det dobj")
    assert (1, 1) not in aligner.align_sentences(s, t).sure
    assert (1, 1) in aligner.with_params(context_only_links=2).align_sentences(s, t).sure
    assert (1, 1) not in aligner.with_params(context_only_links=3).align_sentences(s, t).sure


def test_presets_name_option_sets(aligner: Aligner) -> None:
    s = sent("rebels ambushed the convoy", "NNS VBD DT NN", [1, -1, 3, 1], "nsubj ROOT det dobj")
    t = sent("rebels raided the convoy", "NNS VBD DT NN", [1, -1, 3, 1], "nsubj ROOT det dobj")
    paraphrase = preset_options("paraphrase")
    assert paraphrase == {"context_only_links": 1, "align_unique_stop_words": True}
    assert (1, 1) in aligner.with_params(**paraphrase).align_sentences(s, t).sure
    assert preset_options("default") == {} and preset_options("paper") == PAPER_OPTIONS
    preset_options("paper")["possessive_of"] = True  # a copy: the preset itself is unchanged
    assert PAPER_OPTIONS["possessive_of"] is False
    with pytest.raises(ConfigurationError, match="unknown aligner preset 'fast'"):
        preset_options("fast")


def test_align_takes_annotated_sentences(aligner: Aligner) -> None:
    s = sent("rebels attacked the convoy", "NNS VBD DT NN", [1, -1, 3, 1], "nsubj ROOT det dobj")
    t = sent("the convoy was attacked", "DT NN VBD VBN", [1, 3, 3, -1], "det nsubjpass auxpass ROOT")
    assert aligner.align(s, t) == aligner.align_sentences(s, t)


def test_quotes_of_aligned_spans_align(aligner: Aligner) -> None:
    s = sent('he called it a " wonder drug " in print', "PRP VBD PRP DT `` NN NN '' IN NN")
    t = sent('she praised the " drug " highly', "PRP VBD DT `` NN '' RB")
    links = aligner.align_sentences(s, t).sure
    assert {(6, 4), (7, 5), (4, 3)} <= links
    assert (4, 3) not in aligner.with_params(align_quotes=False).align_sentences(s, t).sure


def test_dependency_context_prefers_related_word(aligner: Aligner) -> None:
    # "John killed Mary" vs "Mary was murdered by John": killed~murdered via nsubj~agent, dobj~nsubjpass
    s = sent("John killed Mary", "NNP VBD NNP", [1, -1, 1], "nsubj ROOT dobj")
    t = sent("Mary was murdered by John", "NNP VBD VBN IN NNP", [2, 2, -1, 2, 3],
             "nsubjpass auxpass ROOT agent pobj")
    trace = aligner.trace_prepared(aligner.prepare(s), aligner.prepare(t))
    assert trace[(1, 2)] == "content_dependency_v"
    assert (0, 4) in trace and (2, 0) in trace


def test_textual_context_and_ablation(aligner: Aligner) -> None:
    s = sent("red car crashed", "JJ NN VBD")
    t = sent("red automobile crashed", "JJ NN VBD")
    with_sim = aligner.with_params(use_dependency_context=False).align_sentences(s, t).sure
    assert (1, 1) in with_sim  # car ~ automobile through PPDB
    plain = Aligner(use_word_similarity=False, use_dependency_context=False).align_sentences(s, t).sure
    assert (1, 1) not in plain and (0, 0) in plain


def test_named_entity_partial_and_acronym(aligner: Aligner) -> None:
    s = sent("George W. Bush met the IAEA chief", "NNP NNP NNP VBD DT NNP NN",
             entities=(Entity(0, 3, "PERSON"),))
    t = sent("Bush visited the International Atomic Energy Agency head", "NNP VBD DT NNP NNP NNP NNP NN",
             entities=(Entity(0, 1, "PERSON"), Entity(3, 7, "ORG")))
    trace = aligner.trace_prepared(aligner.prepare(s), aligner.prepare(t))
    assert trace[(2, 0)] == "named_entities"
    assert {(0, 0), (1, 0)} <= set(trace)  # partial mention: other words of the full name
    assert {(5, 3), (5, 4), (5, 5), (5, 6)} <= set(trace)  # acronym to every entity word


def test_hyphenated_token(aligner: Aligner) -> None:
    s = sent("a Los-Angeles-based firm", "DT JJ NN")
    t = sent("a firm based in Los Angeles", "DT NN VBN IN NNP NNP")
    links = aligner.align_sentences(s, t).sure
    assert {(1, 4), (1, 5)} <= links


def test_closed_compound_aligns_to_open_spelling(aligner: Aligner) -> None:
    s = sent("sales rose 8 percent", "NNS VBD CD NN")
    t = sent("sales rose 8 per cent", "NNS VBD CD IN NN")
    links = aligner.align_sentences(s, t).sure
    assert {(3, 3), (3, 4)} <= links
    assert (3, 3) not in aligner.with_params(closed_compounds=False).align_sentences(s, t).sure
    # ambiguous: the open spelling occurs twice
    t2 = sent("per cent and per cent", "IN NN CC IN NN")
    assert not {(0, 0), (0, 3)} & aligner.align_sentences(sent("percent", "NN"), t2).sure
    # two candidate groups sharing a token: neither is taken, whichever sentence comes first
    s3, t3 = sent("dogdoghouse dog dog", "NN NN NN"), sent("dogdog house", "NN NN")
    forward = aligner.align_sentences(s3, t3)
    assert forward == aligner.align_sentences(t3, s3).transpose()
    assert (0, 0) not in forward.sure and (1, 0) not in forward.sure


def test_symbol_words_match_their_words(aligner: Aligner) -> None:
    s = sent("inflation fell 1.5 % in June", "NN VBD CD NN IN NNP")
    t = sent("inflation fell 1.5 percent in June", "NN VBD CD NN IN NNP")
    assert (3, 3) in aligner.align_sentences(s, t).sure
    assert (3, 3) not in aligner.with_params(symbol_words=False).align_sentences(s, t).sure


def test_article_variants(aligner: Aligner) -> None:
    s = sent("he ate an apple", "PRP VBD DT NN", [1, -1, 3, 1], "nsubj ROOT det dobj")
    t = sent("he ate a red apple", "PRP VBD DT JJ NN", [1, -1, 4, 4, 1], "nsubj ROOT det amod dobj")
    assert (2, 2) in aligner.align_sentences(s, t).sure
    assert (2, 2) not in aligner.with_params(article_variants=False).align_sentences(s, t).sure


def test_possessive_aligns_to_of(aligner: Aligner) -> None:
    s = sent("Basra 's governor said", "NNP POS NN VBD", [2, 0, 3, -1], "poss case nsubj ROOT")
    t = sent("the governor of Basra said", "DT NN IN NNP VBD", [1, 4, 1, 2, -1], "det nsubj prep pobj ROOT")
    links = aligner.align_sentences(s, t).sure
    assert {(0, 3), (2, 1), (1, 2)} <= links
    assert (1, 2) not in aligner.with_params(possessive_of=False).align_sentences(s, t).sure


def test_modal_lemmas(aligner: Aligner) -> None:
    s = sent("he will win", "PRP MD VB", [2, 2, -1], "nsubj aux ROOT")
    t = sent("he would win", "PRP MD VB", [2, 2, -1], "nsubj aux ROOT")
    assert (1, 1) in aligner.align_sentences(s, t).sure
    assert (1, 1) not in aligner.with_params(modal_lemmas=False).align_sentences(s, t).sure


def test_bad_options() -> None:
    with pytest.raises(ConfigurationError):
        Aligner(w=0.0)
    with pytest.raises(ConfigurationError):
        Aligner(not_an_option=True)


# -- symmetry (property) ---------------------------------------------------------------------------
VOCAB = ["the", "a", "dog", "dogs", "cat", "killed", "murdered", "of", ",", ".", "big", "large",
         "in", "ran", "run", "John", "U.S.", "US", "well-known", "known", "and", '"', "I",
         "bigdog", "dogcat", "%", "percent", "&", "an", "'s", "will", "would"]
TAGS = ["DT", "NN", "NNS", "VBD", "JJ", "IN", "RB", "NNP", ",", "CD", "PRP", "``"]
DEPS = ["nsubj", "dobj", "prep", "pobj", "amod", "det", "conj", "cc", "relcl", "acl", "poss",
        "compound", "nsubjpass", "agent", "acomp", "punct", "case"]


@st.composite
def sentences(draw) -> Sentence:
    n = draw(st.integers(0, 9))
    tokens = draw(st.lists(st.sampled_from(VOCAB), min_size=n, max_size=n))
    tags = draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n))
    deps = draw(st.lists(st.sampled_from(DEPS), min_size=n, max_size=n))
    heads = [-1 if i == 0 else draw(st.integers(0, i - 1)) for i in range(n)]
    ents: tuple[Entity, ...] = ()
    if n >= 2 and draw(st.booleans()):
        a = draw(st.integers(0, n - 2))
        ents = (Entity(a, draw(st.integers(a + 1, n)), draw(st.sampled_from(["PERSON", "ORG"]))),)
    return Sentence(tokens=tuple(tokens), lemmas=tuple(t.lower() for t in tokens), tags=tuple(tags),
                    heads=tuple(heads), deps=tuple(deps), entities=ents)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sentences(), sentences())
def test_alignment_is_symmetric(aligner: Aligner, s: Sentence, t: Sentence) -> None:
    forward = aligner.align_sentences(s, t)
    backward = aligner.align_sentences(t, s)
    assert forward == backward.transpose()
    forward.validate(len(s), len(t))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sentences(), sentences())
def test_alignment_is_symmetric_with_variants(aligner: Aligner, s: Sentence, t: Sentence) -> None:
    variant = aligner.with_params(sequences_need_content=False, align_unique_stop_words=True,
                                  stop_word_labels=False, text_skips_copulas=True,
                                  partial_mention_types=("PERSON", "ORGANIZATION"),
                                  start_evidence=False, align_quotes=False, punct_dependencies=True,
                                  spelling_variants=False, prefer_identical=False,
                                  coordination_edges=False, determiner_spans=False,
                                  context_only_links=1, closed_compounds=False,
                                  symbol_words=False, article_variants=False, possessive_of=False,
                                  modal_lemmas=False)
    assert variant.align_sentences(s, t) == variant.align_sentences(t, s).transpose()


# -- spaCy-annotated input -------------------------------------------------------------------------
def test_align_strings_and_tokens(nlp_annotator) -> None:
    aligner = Aligner(annotator=nlp_annotator)
    a = aligner.align("The cat sat on the mat.", "A cat was sitting on the mat.")
    assert (1, 1) in a.sure and (5, 6) in a.sure
    tokens = aligner.align(["-LRB-", "Paris", "-RRB-", "is", "big"], ["``", "Paris", "''", "is", "large"])
    assert (1, 1) in tokens.sure and (4, 4) in tokens.sure
    assert aligner.align("Zoë ate crème brûlée in Münster.", "Zoë ate crème brûlée.").sure >= {(0, 0), (2, 2)}


def test_typographic_apostrophes_align_like_ascii(nlp_annotator) -> None:
    aligner = Aligner(annotator=nlp_annotator)
    curly = nlp_annotator("The president’s aides don’t agree.")
    assert curly.tokens[2] == "’s" and curly.tokens[5] == "n’t"  # input text kept
    a = aligner.align_sentences(curly, nlp_annotator("The president's aides don't agree."))
    assert a == aligner.align_sentences(nlp_annotator("The president's aides don't agree."),
                                        nlp_annotator("The president's aides don't agree."))


@pytest.mark.usefixtures("batch_on_dask")
def test_align_many_matches_align(nlp_annotator) -> None:
    aligner = Aligner(annotator=nlp_annotator)
    pairs = [("He bought a car.", "He purchased an automobile."), ("", "Nothing here."),
             ("Dogs bark.", "Dogs bark loudly.")]
    many = aligner.align_many(pairs)
    assert many == [aligner.align(s, t) for s, t in pairs]
    assert many[1] == Alignment()
    assert aligner.align_many(pairs * 3, workers=2) == many * 3


def test_thousand_token_pair_aligns(aligner: Aligner) -> None:
    """A long random pair completes with many links (its speed is measured by
    benchmarks/aligner_speed.py, not here)."""
    import random

    rng = random.Random(7)
    words = [f"w{k}" for k in range(300)] + ["the", "of", "a", ",", "."]

    def make(seed: int) -> Sentence:
        rng.seed(seed)
        toks = [rng.choice(words) for _ in range(1000)]
        heads = [-1] + [rng.randrange(0, i) for i in range(1, 1000)]
        return sent(" ".join(toks), " ".join(rng.choice(TAGS) for _ in toks), heads,
                    " ".join(rng.choice(DEPS) for _ in toks))
    s, t = make(1), make(2)
    links = aligner.align_sentences(s, t)
    assert len(links) > 100
    assert all(0 <= i < 1000 and 0 <= j < 1000 for i, j in links.sure)


def test_with_params_switches_similarity_off(aligner: Aligner) -> None:
    s = sent("red car crashed", "JJ NN VBD")
    t = sent("red automobile crashed", "JJ NN VBD")
    assert (1, 1) in aligner.align_sentences(s, t).sure
    assert (1, 1) not in aligner.with_params(use_word_similarity=False).align_sentences(s, t).sure


def test_external_parse_reader(tmp_path) -> None:
    from paralign.aligners.sultan.external_parse import apply_parse, read_mst
    from paralign.errors import FormatError

    path = tmp_path / "p.mst"
    path.write_text("He\tsaw\tit\nPRP\tVBD\tPRP\nnsubj\troot\tdobj\n2\t0\t2\n-\t-\t-\n\n"
                    "x\nNN\nroot\nzero\n-\n", encoding="utf-8")
    parses = read_mst(path)
    first = next(parses)
    assert first.heads == (1, -1, 1) and first.deps == ("nsubj", "root", "dobj")
    sentence = apply_parse(sent("He saw it"), first)
    assert sentence.deps == ("nsubj", "ROOT", "dobj") and sentence.tags == ("PRP", "VBD", "PRP")
    with pytest.raises(FormatError, match="p.mst:10"):
        next(parses)


def test_external_parse_of_another_sentence_is_refused(tmp_path) -> None:
    """A parse whose words are not the sentence's tokens (one line off in a corpus, say) was
    swapped in when only the counts agreed: another sentence's tags and tree, silently."""
    from paralign.aligners.sultan.external_parse import apply_parse, read_mst
    from paralign.errors import MismatchError

    path = tmp_path / "p.mst"
    path.write_text("She\tsaw\thim\nPRP\tVBD\tPRP\nnsubj\troot\tdobj\n2\t0\t2\n-\t-\t-\n", encoding="utf-8")
    parse = next(read_mst(path))
    with pytest.raises(MismatchError, match=r"^p.mst sentence 1: parse word 1 is 'She', the sentence's token 'He'"):
        apply_parse(sent("He saw it"), parse, where="p.mst sentence 1")
    with pytest.raises(MismatchError, match=r"^parse has 3 tokens, sentence 2"):
        apply_parse(sent("He saw"), parse)
    assert apply_parse(sent("She saw him"), parse).heads == (1, -1, 1)


@pytest.mark.parametrize("head", ["7", "-2"])
def test_external_parse_head_outside_the_sentence_names_its_line(tmp_path, head: str) -> None:
    """A head past the sentence was a Sentence's FormatError naming no file or line, when the
    parse was applied; a negative one silently made its word a root."""
    from paralign.aligners.sultan.external_parse import read_mst
    from paralign.errors import FormatError

    path = tmp_path / "p.mst"
    path.write_text(f"He\tsaw\tit\nPRP\tVBD\tPRP\nnsubj\troot\tdobj\n2\t0\t{head}\n-\t-\t-\n",
                    encoding="utf-8")
    with pytest.raises(FormatError, match=rf"p.mst:4.*word 3 \('it'\) has head {head}, outside a 3-word"):
        next(read_mst(path))


def test_external_parse_reader_drops_a_byte_order_mark(tmp_path) -> None:
    from paralign.aligners.sultan.external_parse import read_mst

    path = tmp_path / "bom.mst"
    path.write_text("\ufeffHe\tsaw\tit\nPRP\tVBD\tPRP\nnsubj\troot\tdobj\n2\t0\t2\n-\t-\t-\n", encoding="utf-8")
    assert next(read_mst(path)).tokens == ("He", "saw", "it")  # not "\ufeffHe"


def test_clones_share_cache_consistently() -> None:
    # clones made before any alignment must not mix up cached similarities between form tables
    fresh = Aligner()
    first, second = fresh.with_params(w=0.8), fresh.with_params(w=0.7)
    a, b = sent("cars crashed today", "NNS VBD NN"), sent("automobiles crashed today", "NNS VBD NN")
    c, d = sent("dogs barked", "NNS VBD"), sent("hounds barked", "NNS VBD")
    first.align_sentences(a, b)
    assert second.align_sentences(c, d) == Aligner().align_sentences(c, d)
    assert first.align_sentences(c, d) == Aligner().align_sentences(c, d)


def test_bad_items_are_named_before_anything_is_aligned() -> None:
    """API audit C3, C4: align_many([('a',)]) was zip()'s ValueError, align(None, ...) a TypeError."""
    from paralign.errors import InputTypeError

    aligner = Aligner("none")
    with pytest.raises(InputTypeError, match=r"pairs: item 2 is \('a',\), not a \(source, target\) pair"):
        aligner.align_many([("a", "a"), ("a",)])
    with pytest.raises(InputTypeError, match="pairs must be a list of .source, target. pairs, not str"):
        aligner.align_many("ab")
    with pytest.raises(InputTypeError, match="not NoneType None"):
        aligner.align(None, "a cat")


def test_an_unknown_similarity_source_fails_when_the_aligner_is_made(tmp_path) -> None:
    """API audit U3: Aligner('nosuch') was made, and failed at its first alignment."""
    with pytest.raises(ConfigurationError, match=r"word-similarity source 'nosuch': use ppdb, wordnet, none or a "
                                                 r"table file \(FILE.parquet, FILE.tsv or FILE.tsv.gz\) \(nosuch: no such file\)"):
        Aligner("nosuch")
    with pytest.raises(ConfigurationError, match=r"source 'ppdb\+nosuch'.*\(nosuch: no such file\)"):
        Aligner("ppdb+nosuch")
    table = tmp_path / "t.tsv"
    table.write_text("cat\tfeline\t0.5\n", encoding="utf-8")
    for spec in ("ppdb", "wordnet+spelling", "none", str(table), f"{table}:0.4", f"ppdb+{table}"):
        Aligner(spec)  # known names and existing tables: made, nothing loaded yet


@pytest.mark.parametrize("preset", ["paper", "paraphrase", "default"])
def test_a_preset_name_given_as_the_word_similarity_source_says_how_to_get_the_preset(preset) -> None:
    """Aligner("contextual") is the contextual preset, so Aligner("paraphrase") reads as the
    paraphrase preset; it said "word-similarity source 'paraphrase': use ppdb, wordnet, none or
    a TSV path (paraphrase: no such file)"."""
    with pytest.raises(ConfigurationError, match=f"'{preset}' is an aligner preset, not a word-similarity "
                       f"source .*get_aligner\\('sultan', '{preset}'\\).*preset_options"):
        Aligner(preset)


def test_with_params_names_an_unknown_option_as_the_constructor_does() -> None:
    """Aligner(nope=1) is a ConfigurationError 'unknown aligner option'; with_params(nope=1) was
    a bare TypeError from the dataclass."""
    with pytest.raises(ConfigurationError, match="unknown aligner option 'nope'"):
        Aligner(nope=1)
    with pytest.raises(ConfigurationError, match="unknown aligner option 'nope'"):
        Aligner().with_params(nope=1)
    assert Aligner().with_params(w=0.5).config.w == 0.5


@pytest.mark.parametrize(("given", "says"), [
    ({"preset": "paper"}, r"unknown aligner option 'preset': Aligner takes options, not a preset; "
                          r"get_aligner\('sultan', PRESET\) gives a preset's aligner, and "
                          r"Aligner\(\*\*preset_options\(PRESET\)\).*\(presets: default, paper, "),
    ({"ppdb_similarity": 0.8}, r"unknown aligner option 'ppdb_similarity': did you mean 'ppdb_sim'\? "
                               r"the options are AlignerConfig's fields \(help\(paralign.AlignerConfig\)\)"),
    ({"bogus": 1}, r"unknown aligner option 'bogus': the options are AlignerConfig's fields"),
])
def test_an_unknown_option_says_what_to_use(given: dict, says: str) -> None:
    """Aligner(preset="paper"), a newcomer's first guess at a preset, was "unknown aligner option:
    AlignerConfig.__init__() got an unexpected keyword argument 'preset'": Python's words, no way
    on. It now names the option, the one meant where one is near, and the way to a preset."""
    with pytest.raises(ConfigurationError, match=says):
        Aligner(**given)
    with pytest.raises(ConfigurationError, match=says):
        Aligner().with_params(**given)


def test_repr_shows_the_similarity_source_and_the_options_changed() -> None:
    """It was the default object repr (<paralign.aligners.sultan.aligner.Aligner object at 0x...>)."""
    assert repr(Aligner()) == "Aligner()"
    assert repr(Aligner("wordnet", w=0.5)) == "Aligner('wordnet', w=0.5)"
    assert repr(Aligner().with_params(ppdb_sim=0.8)) == "Aligner(ppdb_sim=0.8)"


def test_a_limited_pair_cache_stays_bounded_through_pickling_and_clones_and_aligns_alike() -> None:
    """`limit_pair_cache` (a server's aligners) bounds the word-pair similarities kept; a pickled
    copy (a worker's) and a clone with other similarity settings keep the bound, not the default."""
    import pickle

    from paralign.caching import CappedDict

    s = sent("the big dog barked loudly at the old postman .", "DT JJ NN VBD RB IN DT JJ NN .")
    t = sent("yesterday the large hound barked at a postman !", "NN DT JJ NN VBD IN DT NN .")
    free, bounded = Aligner(), Aligner()
    bounded.limit_pair_cache(7)
    assert bounded.align_sentences(s, t) == free.align_sentences(s, t)
    assert 0 < len(bounded._sim_cache) <= 7 < len(free._sim_cache)
    for copy in (pickle.loads(pickle.dumps(bounded)), bounded.with_params(ppdb_sim=0.5)):
        assert isinstance(copy._sim_cache, CappedDict) and copy._sim_cache.limit == 7


#: The record pivot writes at the top of a TSV table it built (its defaults: regex, lower-cased).
BUILT = '# paralign: {"kind": "pivot", "options": {"tokenizer": "regex", "lowercase": true}}\n'


def test_a_table_that_pivot_built_is_asked_for_a_word_as_its_tokenizer_split_it(tmp_path) -> None:
    """pivot's regex tokenizer holds man's as "man 's" and U.S. as "u.s .": a table it built that
    relates "man 's" to "guy 's" never related man's (a --tokenized word) to guy's, nor spaCy's
    token U.S. to america, as `paraphrases`, serve and ParaEval find them. A user's table (no
    record) is asked for the word as written."""
    table = tmp_path / "t.tsv"
    table.write_text(BUILT + "man 's\tguy 's\t0.25\nu.s .\tamerica\t0.5\n", encoding="utf-8")
    related = load_similarity(str(table))
    assert related.related("man's", "guy's") and related.related("guy's", "man's")
    assert related.related("u.s.", "america") and related.related("america", "u.s.")
    assert not related.related("man's", "america")
    plain = tmp_path / "u.tsv"
    plain.write_text("man 's\tguy 's\t0.25\n", encoding="utf-8")
    assert not load_similarity(str(plain)).related("man's", "guy's")
    links = Aligner(similarity=str(table)).align(["the", "man's", "dog"], ["the", "guy's", "dog"]).sure
    assert (1, 1) in links
