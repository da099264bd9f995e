"""Similarity signals, batch scoring, threshold selection and evaluation (issue 7)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.aligners.batch import AlignedBatch, PairFailure, align_pairs
from paralign.aligners.exact import exact_match_aligner
from paralign.aligners.registry import aligner_label, get_aligner
from paralign.alignment import AlignedSentences, Alignment
from paralign.errors import ConfigurationError, ParalignError
from paralign.sentence import Sentence
from paralign.similarity import (
    SIGNALS,
    ContentProportion,
    IdfTable,
    binary_scores,
    choose_threshold,
    content_indices,
    evaluate_paraphrase,
    evaluate_sts,
    fit_signal,
    is_content_word,
    make_signal,
    map_aligned,
    paraphrase_from_scores,
    pearson,
    register_signal,
    score_aligned,
    similarity,
    similarity_many,
    spearman,
    sts_from_scores,
    weighted_mean,
)


def plain(text: str) -> Sentence:
    return Sentence.plain(text.split())


def pair(a: str, b: str, links=None) -> AlignedSentences:
    s, t = plain(a), plain(b)
    alignment = exact_match_aligner(s, t) if links is None else Alignment.from_links(links)
    return AlignedSentences(s, t, alignment)


# -- content words and the two formulas ------------------------------------------------------
def test_content_words_exclude_stopwords_punctuation_and_clitics():
    assert content_indices(plain("The cat ca n't sit on the mat .")) == [1, 2, 4, 7]
    assert not is_content_word("n't")
    assert not is_content_word("'s")
    assert not is_content_word("\u2019s") and not is_content_word("n\u2019t")  # typographic apostrophe
    assert not is_content_word("--")
    assert is_content_word("2014")


def test_sultan2014_is_harmonic_mean_of_proportions_and_2015_pools_counts():
    # source content: New York rocks (3, all aligned); target: NY rocks hard (3, 2 aligned)
    p = pair("New York rocks", "NY rocks hard", [(0, 0), (1, 0), (2, 1)])
    p_s, p_t = 3 / 3, 2 / 3
    assert make_signal("sultan2014")(p) == pytest.approx(2 * p_s * p_t / (p_s + p_t))
    assert make_signal("sultan2015")(p) == pytest.approx((3 + 2) / (3 + 3))
    assert make_signal("mean-proportion")(p) == pytest.approx((p_s + p_t) / 2)
    # one-to-one links: aligned count over the harmonic mean of the counts = mean of proportions
    q = pair("red cat sat", "red cat sat mat", [(0, 0), (1, 1)])
    harmonic_count = 2 * 3 * 4 / (3 + 4)  # content words: red cat sat / red cat sat mat
    assert make_signal("mean-proportion")(q) == pytest.approx(2 / harmonic_count)


def test_stop_words_do_not_count():
    # only "cat" and "mat"/"dog" are content words; aligning the stop words adds nothing
    p = pair("the cat on the mat", "the cat on the dog", [(0, 0), (2, 2), (3, 3)])
    assert make_signal("sultan2014")(p) == 0.0
    p = pair("the cat on the mat", "the cat on the dog", [(1, 1)])
    assert make_signal("sultan2014")(p) == pytest.approx(0.5)


def test_sentence_without_content_words_falls_back_to_all_words():
    p = pair("it is", "it was", [(0, 0)])
    assert make_signal("sultan2014")(p) == pytest.approx(0.5)
    assert make_signal("sultan2014")(pair(". ,", "!", [])) == 0.0


words = st.sampled_from(["the", "a", "cat", "dog", "sat", "ran", "on", "mat", "rug", "big", "small", "of", "and", "quickly", "Paris", "2014", ".", ","])
sentences = st.lists(words, min_size=1, max_size=10)


@st.composite
def aligned_pairs(draw):
    s = draw(sentences)
    t = draw(sentences)
    links = draw(
        st.sets(st.tuples(st.integers(0, len(s) - 1), st.integers(0, len(t) - 1)), max_size=12)
    )
    return AlignedSentences(Sentence.plain(s), Sentence.plain(t), Alignment.from_links(links))


@settings(max_examples=150, deadline=None)
@given(aligned_pairs(), st.sampled_from(["sultan2014", "sultan2015", "mean-proportion"]))
def test_scores_are_bounded_and_symmetric(p, name):
    signal = make_signal(name)
    score = signal(p)
    assert 0.0 <= score <= 1.0
    swapped = AlignedSentences(p.target, p.source, p.alignment.transpose())
    assert signal(swapped) == pytest.approx(score)


@settings(max_examples=150, deadline=None)
@given(aligned_pairs(), st.integers(0, 9), st.integers(0, 9), st.sampled_from(["sultan2014", "sultan2015", "mean-proportion"]))
def test_adding_a_link_never_lowers_the_score(p, i, j, name):
    signal = make_signal(name)
    i, j = i % len(p.source), j % len(p.target)
    more = AlignedSentences(p.source, p.target, Alignment.from_links(set(p.alignment.sure) | {(i, j)}))
    assert signal(more) >= signal(p) - 1e-12


@settings(max_examples=100, deadline=None)
@given(sentences)
def test_identical_sentences_score_one_and_one_to_one_formulas_agree(tokens):
    s = Sentence.plain(tokens)
    p = AlignedSentences(s, s, exact_match_aligner(s, s))
    expected = 1.0  # a sentence of punctuation only counts its punctuation: identical ones score 1 too
    assert make_signal("sultan2014")(p) == pytest.approx(expected)
    assert make_signal("sultan2015")(p) == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(sentences, sentences)
def test_exact_aligner_is_one_to_one_so_both_formulas_agree(a, b):
    p = AlignedSentences(Sentence.plain(a), Sentence.plain(b), exact_match_aligner(Sentence.plain(a), Sentence.plain(b)))
    sources = [i for i, _ in p.alignment.sure]
    targets = [j for _, j in p.alignment.sure]
    assert len(set(sources)) == len(sources) and len(set(targets)) == len(targets)
    for i, j in p.alignment.sure:
        assert a[i].lower() == b[j].lower()
    if content_indices(p.source) and content_indices(p.target):
        assert make_signal("sultan2014")(p) == pytest.approx(make_signal("sultan2015")(p))


# -- IDF and the signal registry -------------------------------------------------------------
def test_idf_weights_rare_words_more():
    corpus = [plain("the cat sat"), plain("the dog sat"), plain("a cat ran"), plain("zebra sat")]
    table = IdfTable.from_sentences(corpus)
    assert table("zebra") > table("cat") > table("sat")
    assert table("unseen") >= table("zebra")
    # aligning the rare word scores higher with IDF than aligning the frequent one
    signal = fit_signal(make_signal("idf"), corpus)
    rare = pair("zebra sat", "zebra ran", [(0, 0)])
    common = pair("zebra sat", "lion sat", [(1, 1)])
    assert signal(rare) > signal(common)
    assert make_signal("sultan2014")(rare) == make_signal("sultan2014")(common)


def test_idf_signal_must_be_fitted():
    with pytest.raises(ConfigurationError, match="fit"):
        make_signal("idf")(pair("a cat", "a cat"))
    with pytest.raises(ConfigurationError):
        similarity_many([("a cat", "a cat")], signal="idf", aligner=exact_match_aligner)
    assert fit_signal(make_signal("sultan2014"), []) == make_signal("sultan2014")


def test_register_custom_signal_and_errors():
    class Jaccard:
        name = "test-jaccard"

        def __call__(self, p: AlignedSentences) -> float:
            union = len(p.source) + len(p.target) - len(p.alignment.sure)
            return len(p.alignment.sure) / union if union else 0.0

    register_signal("test-jaccard", Jaccard, replace_existing=True)
    try:
        with pytest.raises(ConfigurationError, match="already registered"):
            register_signal("test-jaccard", Jaccard)
        assert make_signal("test-jaccard")(pair("a b c", "a b d")) == pytest.approx(2 / 4)
    finally:
        del SIGNALS["test-jaccard"]
    with pytest.raises(ConfigurationError, match="unknown signal"):
        make_signal("no-such-signal")
    custom = ContentProportion("mine", pooled=True)
    assert make_signal(custom) is custom


# -- batches ---------------------------------------------------------------------------------
def flaky_aligner(source: Sentence, target: Sentence) -> Alignment:
    if "boom" in source.tokens:
        raise RuntimeError("aligner exploded")
    return exact_match_aligner(source, target)


def test_batch_reports_bad_items_and_keeps_the_others():
    pairs = [(["a", "cat"], ["a", "cat"]), (["boom"], ["x"]), (["big", "dog"], ["big", "cat"])]
    batch = similarity_many(pairs, signal="sultan2014", aligner=flaky_aligner, annotator=_NoAnnotator())
    assert batch.scores[0] == pytest.approx(1.0)
    assert batch.scores[1] is None
    assert batch.scores[2] == pytest.approx(0.5)
    assert [f.index for f in batch.failures] == [1]
    assert "exploded" in batch.failures[0].error
    assert batch.to_dict()["failures"][0]["index"] == 1


class _NoAnnotator:
    """Stands in for spaCy: token lists become plain Sentences (keeps unit tests fast)."""

    def pipe(self, items):
        for item in items:
            yield self(item)

    def __call__(self, item):
        return Sentence.plain(item.split() if isinstance(item, str) else item)


@pytest.mark.usefixtures("batch_on_dask")
def test_parallel_batch_matches_serial():
    pairs = [(f"w{k} cat sat".split(), f"w{k} dog sat".split()) for k in range(40)]
    pairs[7] = (["boom"], ["x"])
    kw = {"aligner": flaky_aligner, "annotator": _NoAnnotator(), "chunk_size": 8}
    serial = align_pairs(pairs, **kw)
    parallel = align_pairs(pairs, workers=2, **kw)
    assert serial == parallel
    assert [f.index for f in parallel.failures] == [7]
    with pytest.raises(ConfigurationError):
        align_pairs(pairs, workers=0, **kw)


def test_score_aligned_reports_signal_failures():
    class Broken:
        name = "broken"

        def __call__(self, p):
            if len(p.source) == 1:
                raise ZeroDivisionError("bad")
            return 0.5

    batch = AlignedBatch((pair("a b", "a b"), pair("x", "x"), None), (PairFailure(2, "earlier"),))
    scored = score_aligned(batch, Broken())
    assert scored.scores == (0.5, None, None)
    assert [f.index for f in scored.failures] == [1, 2]
    ticks: list[int] = []
    values, failures = map_aligned(batch, Broken(), "features", ticks.append)
    assert values == [0.5, None, None] and sum(ticks) == 3  # every pair counts, failed ones too
    assert [(f.index, f.error) for f in failures] == [(1, "features failed: ZeroDivisionError: bad"), (2, "earlier")]


def test_similarity_on_raw_text_with_spacy(nlp_annotator):
    same = similarity("A man is playing a guitar.", "A man is playing a guitar.", aligner=exact_match_aligner, annotator=nlp_annotator)
    assert same == pytest.approx(1.0)
    part = similarity("A man is playing a guitar.", "A woman is slicing a guitar.", aligner=exact_match_aligner, annotator=nlp_annotator)
    assert 0.0 < part < 1.0
    with pytest.raises(ParalignError):
        similarity(["boom"], ["x"], aligner=flaky_aligner, annotator=_NoAnnotator())


# -- correlation, thresholds, classification -------------------------------------------------
def test_pearson_and_spearman_match_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    x = [0.1, 0.4, 0.35, 0.8, 0.8, 0.05]
    y = [1.0, 2.5, 3.0, 4.0, 4.5, 0.0]
    assert pearson(x, y) == pytest.approx(scipy_stats.pearsonr(x, y)[0])
    assert spearman(x, y) == pytest.approx(scipy_stats.spearmanr(x, y)[0])
    assert pearson([1, 1, 1], [1, 2, 3]) is None
    assert pearson([1], [2]) is None


def test_sts_from_scores_skips_unscored_pairs():
    ev = sts_from_scores([0.1, None, 0.5, 0.9], [1.0, 5.0, 2.0, 4.0])
    assert ev.pairs == 3
    assert ev.pearson == pytest.approx(pearson([0.1, 0.5, 0.9], [1.0, 2.0, 4.0]))
    assert weighted_mean([(0.5, 100), (0.8, 300), (None, 50)]) == pytest.approx(0.725)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20).map(lambda v: v / 20), st.booleans()), min_size=1, max_size=40))
def test_chosen_threshold_maximises_training_accuracy(data):
    scores = [s for s, _ in data]
    labels = [g for _, g in data]
    t = choose_threshold(scores, labels)
    accuracy = binary_scores([s > t for s in scores], labels).accuracy
    candidates = [-1.0] + sorted(set(scores)) + [(a + b) / 2 for a in scores for b in scores]
    best = max(binary_scores([s > c for s in scores], labels).accuracy for c in candidates)
    assert accuracy == pytest.approx(best)


def test_binary_scores_counts():
    b = binary_scores([True, True, False, False, True], [True, False, False, True, True])
    assert (b.tp, b.fp, b.tn, b.fn) == (2, 1, 1, 1)
    assert b.accuracy == pytest.approx(3 / 5)
    assert b.precision == pytest.approx(2 / 3)
    assert b.recall == pytest.approx(2 / 3)
    assert b.f1 == pytest.approx(2 / 3)
    assert binary_scores([False], [False]).f1 == 0.0
    with pytest.raises(ValueError):
        binary_scores([True], [])


def test_paraphrase_threshold_is_applied_to_test():
    ev = paraphrase_from_scores([0.2, 0.3, 0.7, 0.9], [False, False, True, True], [0.1, 0.6, 0.8, None], [False, True, False, True])
    assert 0.3 <= ev.threshold < 0.7
    assert ev.train.accuracy == 1.0
    assert (ev.test.tp, ev.test.fp, ev.test.tn, ev.test.fn) == (1, 1, 1, 1)
    d = ev.to_dict()
    assert set(d) >= {"threshold", "accuracy", "precision", "recall", "f1"}


def test_end_to_end_evaluations_with_exact_aligner():
    train = [("a cat sat", "a cat sat", True), ("big red dog", "big red cat", True), ("x y z", "p q r", False), ("cold tea", "hot soup", False)]
    test = [("the sun shines", "the sun shines", True), ("one two", "three four", False)]
    kw = {"aligner": exact_match_aligner, "annotator": _NoAnnotator()}
    ev = evaluate_paraphrase(train, test, **kw)
    assert ev.test.accuracy == 1.0 and ev.train.accuracy == 1.0
    assert ev.classifier == "features" and ev.model is not None
    ev_idf = evaluate_paraphrase(train, test, classifier="signal", signal="idf", **kw)
    assert ev_idf.signal == "idf" and ev_idf.test.accuracy == 1.0 and ev_idf.model is None
    with pytest.raises(ConfigurationError, match="'signal' classifier") as info:
        evaluate_paraphrase(train, test, signal="idf", **kw)
    assert "paralign.similarity.features.FEATURES" in str(info.value)  # where FEATURES lives now
    assert "paraphrase_model" not in str(info.value)  # the deprecated path
    with pytest.raises(ConfigurationError, match="unknown classifier"):
        evaluate_paraphrase(train, test, classifier="svm", **kw)
    sts = evaluate_sts([("a b c", "a b c", 5.0), ("a b c", "a b d", 3.0), ("a b c", "x y z", 0.0)], **kw)
    assert sts.pairs == 3 and sts.pearson is not None and sts.pearson > 0.9
    assert not math.isnan(sts.spearman)


# -- with the real aligner (Sultan et al. 2014) ----------------------------------------------
@pytest.fixture(scope="module")
def sultan_align(nlp_annotator):
    sultan = pytest.importorskip("paralign.aligners.sultan", reason="aligner not available")
    return sultan.Aligner(annotator=nlp_annotator).align_sentences


def test_real_aligner_scores_are_symmetric_and_use_paraphrases(sultan_align, nlp_annotator):
    a = "The president was killed in a car accident on Friday."
    b = "A road crash on Friday killed the president."
    kw = {"aligner": sultan_align, "annotator": nlp_annotator}
    forward = similarity(a, b, **kw)
    assert forward == pytest.approx(similarity(b, a, **kw))
    assert similarity(a, a, **kw) == pytest.approx(1.0)
    # context-aware alignment links more than identical words (crash~accident by PPDB or context)
    assert forward >= similarity(a, b, aligner=exact_match_aligner, annotator=nlp_annotator)


def test_preset_aligners_are_named_and_cheap_to_pickle(nlp_annotator):
    import pickle

    from paralign.aligners.sultan import Aligner

    paraphrase = get_aligner("sultan", "paraphrase")
    assert aligner_label(paraphrase) == "sultan:paraphrase"
    assert aligner_label(get_aligner("sultan")) == "sultan:default"
    assert aligner_label(get_aligner("exact")) == "exact"
    assert len(pickle.dumps(paraphrase)) < 200  # the name only, never the loaded PPDB
    s, t = nlp_annotator.pipe(["The senator sponsored the bill.", "The senator drafted the bill."])
    assert paraphrase(s, t) == Aligner(context_only_links=1, align_unique_stop_words=True).align_sentences(s, t)
    assert (2, 2) in paraphrase(s, t).sure and (2, 2) not in get_aligner("sultan")(s, t).sure
    with pytest.raises(ConfigurationError, match="preset"):
        get_aligner("sultan", "fast")
    with pytest.raises(ConfigurationError, match="no presets"):
        get_aligner("exact", "paraphrase")


@pytest.mark.usefixtures("batch_on_dask")
def test_preset_aligner_in_worker_processes_matches_serial(nlp_annotator):
    texts = ["The senator sponsored the bill.", "The senator drafted the bill.",
             "Rebels ambushed the convoy.", "Rebels raided the convoy."] * 3
    sentences = list(nlp_annotator.pipe(texts))
    pairs = list(zip(sentences[0::2], sentences[1::2], strict=True))
    aligner = get_aligner("sultan", "paraphrase")
    serial = align_pairs(pairs, aligner=aligner)
    parallel = align_pairs(pairs, aligner=aligner, workers=2, chunk_size=2)
    assert parallel == serial and not parallel.failures
    assert (1, 1) in serial.items[1].alignment.sure  # ambushed / raided: a context-only link


def test_paraphrase_identification_defaults_to_the_paraphrase_preset(nlp_annotator):
    train = [("The senator sponsored the bill.", "The senator drafted the bill.", True),
             ("The senator sponsored the bill.", "A storm hit the coast.", False)]
    test = [("Rebels ambushed the convoy.", "Rebels raided the convoy.", True)]
    ev = evaluate_paraphrase(train, test, annotator=nlp_annotator)
    assert ev.aligner == "sultan:paraphrase" and ev.to_dict()["aligner"] == "sultan:paraphrase"
    default = evaluate_paraphrase(train, test, annotator=nlp_annotator, aligner=get_aligner("sultan"))
    assert default.aligner == "sultan:default"


@pytest.mark.data
def test_real_aligner_correlates_with_sts_gold_on_a_subset(data, sultan_align, nlp_annotator):
    from paralign.corpora.sts import load_sts

    pairs = load_sts(data / "similarity" / "sts" / "2013" / "headlines.test.tsv").pairs[:60]
    ev = evaluate_sts([(p.sentence1, p.sentence2, p.score) for p in pairs], aligner=sultan_align, annotator=nlp_annotator)
    assert ev.pairs == 60 and not ev.failures
    assert ev.pearson is not None and ev.pearson > 0.5


def test_a_signal_that_never_reads_links_is_scored_without_aligning() -> None:
    """A signal with ``needs_alignment`` False (the neural ones) skips the aligner entirely."""

    def refuse(source: Sentence, target: Sentence) -> Alignment:
        raise AssertionError("the aligner must not run")

    class Lengths:
        name = "lengths"
        needs_alignment = False

        def __call__(self, pair: AlignedSentences) -> float:
            assert not pair.alignment.sure
            return len(pair.source) / len(pair.target)

    pairs = [(Sentence.plain(["a", "b"]), Sentence.plain(["a", "b", "c", "d"]))]
    assert similarity_many(pairs, signal=Lengths(), aligner=refuse).scores == (0.5,)
    lengths = Lengths()
    lengths.needs_alignment = True  # type: ignore[misc]
    assert similarity_many(pairs, signal=lengths, aligner=refuse).failures  # it did run, and failed
