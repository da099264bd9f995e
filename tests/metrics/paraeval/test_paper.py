"""ParaEval (metrics.paraeval.paper): the paper's Figure 4, tier/clipping behaviour, bad input, properties."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError, FormatError, MismatchError
from paralign.metrics.bleu_steps import bleu_statistics, modified_unigram_precision
from paralign.metrics.paraeval import (
    ParaEval,
    ParaEvalMetric,
    SegmentStats,
    build_sources,
    f_measure,
    sum_stats,
)
from paralign.metrics.paraeval.paper import paraeval
from paralign.paraphrases import ParaphraseTable

CANDIDATE = "blown up bombing was happening"
REFS = ["the bombing resulted in an explosion", "there was an explosion"]


@pytest.fixture(scope="module")
def figure4_table() -> ParaphraseTable:
    """The paraphrase class {blown up, bombing, explosion} of the paper's Figure 4."""
    members = ["blown up", "bombing", "explosion"]
    return ParaphraseTable.from_pairs(
        [(a, b) for a in members for b in members if a != b], name="fig4")


def test_figure4_paraeval_is_4_of_5_where_mup_is_2_of_5(figure4_table):
    score = ParaEval([figure4_table]).sentence_score(CANDIDATE, REFS)
    assert score.stats.hyp_words == 5
    assert score.stats.hyp_paraphrase == 3  # "blown up" + "bombing", clipped by Ref 1's count 2
    assert score.precision == pytest.approx(4 / 5)
    stats = bleu_statistics([CANDIDATE], [[REFS[0]], [REFS[1]]]).sum(axis=0)
    assert float(modified_unigram_precision(stats)) == pytest.approx(2 / 5)
    # Without paraphrases ParaEval's unigram tier is BLEU's modified unigram precision.
    assert ParaEval([]).sentence_score(CANDIDATE, REFS).precision == pytest.approx(2 / 5)


def test_figure4_class_clip_comes_from_a_single_reference(figure4_table):
    # With Ref 2 alone the class occurs once, so only one of the two candidate phrases matches.
    one = ParaEval([figure4_table]).sentence_score(CANDIDATE, [REFS[1]])
    assert one.stats.hyp_paraphrase == 2  # longest first: "blown up" takes the only explosion
    assert one.precision == pytest.approx(3 / 5)  # + "was"


def test_min_paraphrase_length_3_drops_short_paraphrases(figure4_table):
    score = ParaEval([figure4_table], min_paraphrase_length=3).sentence_score(CANDIDATE, REFS)
    assert score.stats.hyp_paraphrase == 0
    assert score.precision == pytest.approx(2 / 5)
    long_table = ParaphraseTable.from_pairs([("blown up bombing", "explosion")])
    long = ParaEval([long_table], min_paraphrase_length=3).sentence_score(CANDIDATE, REFS)
    assert long.stats.hyp_paraphrase == 3


def test_recall_is_pooled_over_references(figure4_table):
    score = ParaEval([figure4_table]).sentence_score(CANDIDATE, REFS)
    # Ref 1: bombing + explosion (2 of 6); Ref 2: explosion + was (2 of 4)
    assert score.stats.ref_words == 10
    assert score.stats.ref_matched == 4
    assert score.recall == pytest.approx(0.4)
    assert score.f == pytest.approx(2 * 0.8 * 0.4 / 1.2)


def test_stopword_phrases_are_not_paraphrase_matched():
    table = ParaphraseTable.from_pairs([("in", "inside"), ("house", "home")], symmetric=True)
    default = ParaEval([table]).sentence_score("in the house", ["inside the home"])
    assert default.stats.hyp_paraphrase == 1  # house/home only
    keep = ParaEval([table], skip_stopword_phrases=False).sentence_score(
        "in the house", ["inside the home"])
    assert keep.stats.hyp_paraphrase == 2
    assert "stop:keep" in keep.signature


def test_tokenisation_and_case():
    pe = ParaEval([])
    assert pe.sentence_score("The cat, sat.", ["the cat , sat ."]).precision == 1.0
    cased = ParaEval([], lowercase=False).sentence_score("The cat", ["the cat"])
    assert cased.precision == pytest.approx(0.5)
    assert "case:mixed" in cased.signature


def test_signature_fields(figure4_table):
    sig = ParaEval([figure4_table], max_length=3, min_paraphrase_length=2).signature(2)
    digest = sig.split("#")[1].split("|")[0]
    assert len(digest) == 8
    assert sig == (f"nrefs:2|config:paper|res:fig4#{digest}|maxlen:3|minpara:2|case:lc|tok:13a|"
                   "stop:skip|version:0.2.26")


def test_the_signature_names_the_package_version_that_paralign_version_prints():
    import paralign

    assert ParaEval([]).signature(1).endswith(f"|version:{paralign.__version__}")


def test_empty_segments_precision_is_zero_recall_undefined_without_reference_words():
    pe = ParaEval([])
    stats = pe.segment_stats(["", "a b", ""], [["x", "", ""]])
    assert stats[0].precision == 0.0 and stats[0].recall == 0.0 and stats[0].f == 0.0
    assert stats[1].recall is None and stats[1].precision == 0.0
    assert stats[2].precision == 0.0 and stats[2].recall is None
    corpus = pe.corpus_score([""], [[""]])
    payload = json.loads(json.dumps(corpus.to_dict()))
    assert payload["precision"] == 0.0 and payload["recall"] is None and payload["f"] is None


def test_length_mismatch_raises_before_scoring():
    with pytest.raises(MismatchError, match="2 hypothesis segments but 1 reference"):
        ParaEval([]).corpus_score(["a", "b"], [["a"]])
    with pytest.raises(MismatchError, match="different numbers of segments"):
        ParaEval([]).prepare([["a"], ["a", "b"]])


def test_bad_options_and_bad_tables(tmp_path):
    with pytest.raises(ConfigurationError):
        ParaEval([], max_length=0)
    with pytest.raises(ConfigurationError):
        ParaEval([], min_paraphrase_length=0)
    # a paraphrase tier that could never match was taken silently (API audit)
    with pytest.raises(ConfigurationError, match="min_paraphrase_length 5 is above max_length 4: no paraphrase "
                                                 "match can be that long"):
        ParaEval([], min_paraphrase_length=5)
    assert ParaEval([], min_paraphrase_length=4).min_paraphrase_length == 4
    with pytest.raises(ConfigurationError):
        build_sources(["thesaurus"])
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\t0.5\nno tab here\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad.tsv:2"):
        build_sources(["none"], [str(bad)])


@pytest.mark.parametrize(("names", "where"), [(["ppdb", "", "wordnet"], "name 2 of 3"), ([" "], "name 1 of 1"),
                                              (["none", ""], "name 2 of 2")])
def test_an_empty_resource_name_is_refused_naming_where(names, where) -> None:
    """build_sources skipped an empty name silently (``ServeConfig(resources=("",))`` served
    with no source, ``["ppdb", "", "wordnet"]`` lost a name): refused as an unknown name is,
    saying which, before any source loads."""
    from paralign.metrics.paraeval.paper import check_resource_names

    with pytest.raises(ConfigurationError, match=f"resources: an empty name \\({where}\\): give ppdb, wordnet "
                                                 "or none, and none alone for no built-in source"):
        build_sources(names)
    with pytest.raises(ConfigurationError, match="^argument --resources: an empty name"):
        check_resource_names(names, "argument --resources")
    assert build_sources([]) == [] and build_sources(["none"]) == []


def test_corpus_is_sum_of_segments(figure4_table):
    hyps = [CANDIDATE, "there was an explosion", ""]
    refs = [[REFS[0], "an explosion happened", "x"], [REFS[1], "there was a blast", "y"]]
    pe = ParaEval([figure4_table])
    segs = pe.segment_stats(hyps, refs)
    corpus = pe.corpus_score(hyps, refs)
    assert corpus.stats == sum_stats(segs)
    assert corpus.precision == pytest.approx(sum(s.hyp_matched for s in segs)
                                             / sum(s.hyp_words for s in segs))
    assert paraeval(hyps, refs, [figure4_table]).stats == corpus.stats


def test_metric_adapter_matches_corpus_score(figure4_table):
    hyps = [CANDIDATE, "there was an explosion"]
    refs = [[REFS[0], "an explosion happened"], [REFS[1], "there was a blast"]]
    scorer = ParaEval([figure4_table])
    corpus = scorer.corpus_score(hyps, refs)
    for part, expected in (("p", corpus.precision), ("r", corpus.recall), ("f", corpus.f)):
        metric = ParaEvalMetric(scorer, part)
        stats = metric.stats(hyps, refs)
        assert float(metric.score(stats.sum(axis=0))) == pytest.approx(expected)
    both = np.stack([stats.sum(axis=0), stats[0]])
    assert metric.score(both).shape == (2,)


def test_f_measure_edge_cases():
    assert f_measure(None, 0.5) is None
    assert f_measure(0.0, 0.0) == 0.0
    assert f_measure(0.5, 0.5) == 0.5
    assert SegmentStats(2, 1, 4, 2).f == pytest.approx(0.5)


# -- properties ------------------------------------------------------------------------------------
WORDS = st.sampled_from(["a", "b", "c", "the", "dog", "cat", "big", "large", "."])
SENT = st.lists(WORDS, max_size=8).map(" ".join)
PAIRS = st.lists(st.tuples(st.lists(WORDS, min_size=1, max_size=3).map(" ".join),
                           st.lists(WORDS, min_size=1, max_size=3).map(" ".join)), max_size=6)


@settings(max_examples=80, deadline=None)
@given(hyp=SENT, refs=st.lists(SENT, min_size=1, max_size=3), pairs=PAIRS)
def test_counts_are_bounded(hyp, refs, pairs):
    table = ParaphraseTable.from_pairs(pairs, symmetric=True)
    s = ParaEval([table], max_length=3).sentence_score(hyp, refs).stats
    assert 0 <= s.hyp_paraphrase <= s.hyp_matched <= s.hyp_words
    assert 0 <= s.ref_matched <= s.ref_words
    for value in (s.precision, s.recall, s.f):
        assert value is None or 0.0 <= value <= 1.0


@settings(max_examples=80, deadline=None)
@given(hyp=SENT, refs=st.lists(SENT, min_size=1, max_size=3))
def test_without_paraphrases_precision_is_bleu_mup(hyp, refs):
    s = ParaEval([], lowercase=False).sentence_score(hyp, refs).stats
    bleu = bleu_statistics([hyp], [[r] for r in refs]).sum(axis=0)
    assert s.hyp_matched == int(bleu[2])  # clipped unigram matches
    assert s.hyp_words == int(bleu[6])


@settings(max_examples=60, deadline=None)
@given(hyp=SENT, ref=SENT)
def test_unigram_tier_is_symmetric_for_one_reference(hyp, ref):
    s = ParaEval([]).sentence_score(hyp, [ref]).stats
    assert s.hyp_matched == s.ref_matched


@settings(max_examples=60, deadline=None)
@given(hyp=SENT, refs=st.lists(SENT, min_size=1, max_size=3), extra=SENT)
def test_more_references_never_lower_unigram_precision(hyp, refs, extra):
    pe = ParaEval([])
    assert (pe.sentence_score(hyp, [*refs, extra]).stats.hyp_matched
            >= pe.sentence_score(hyp, refs).stats.hyp_matched)


@settings(max_examples=60, deadline=None)
@given(hyp=SENT, refs=st.lists(SENT, min_size=1, max_size=2), pairs=PAIRS)
def test_min_length_above_table_lengths_equals_no_paraphrases(hyp, refs, pairs):
    table = ParaphraseTable.from_pairs(pairs, symmetric=True)
    with_table = ParaEval([table], min_paraphrase_length=4).sentence_score(hyp, refs).stats
    assert with_table.as_tuple() == ParaEval([]).sentence_score(hyp, refs).stats.as_tuple()


# -- real resources ------------------------------------------------------------------------------
def test_fast_wordnet_equals_nltk_synsets(data):
    from paralign.metrics.paraeval import fast_wordnet_synonyms
    from paralign.resources import _nltk_wordnet_synonyms

    for word in ["bombing", "explosions", "blow up", "able", "ran", "better", "new york",
                 "car", "the", "xyzzy"]:
        assert fast_wordnet_synonyms(word) == _nltk_wordnet_synonyms(word), word


def test_ppdb_and_wordnet_raise_precision_on_synonyms(data):
    sources = build_sources(["ppdb", "wordnet"])
    hyp, ref = "the automobile was very big", "the car was really large"
    plain = ParaEval([]).sentence_score(hyp, [ref])
    para = ParaEval(sources).sentence_score(hyp, [ref])
    assert para.precision > plain.precision
    assert para.stats.hyp_paraphrase >= 2
    assert "res:ppdb-1.0-xxxl-lexical+wordnet-3.0" in para.signature


def test_explain_lists_paraphrase_matches(figure4_table):
    trace = ParaEval([figure4_table]).explain(CANDIDATE, REFS)
    assert ("blown up", 0, "bombing") in trace or ("blown up", 0, "explosion") in trace
    assert {hyp for hyp, _, _ in trace} == {"blown up", "bombing"}
    assert all(ref in ("bombing", "explosion") for _, _, ref in trace)


def test_settings_cannot_change_under_the_caches(figure4_table) -> None:
    import dataclasses

    scorer = ParaEval([figure4_table])
    scorer.sentence_score(CANDIDATE, REFS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        scorer.max_length = 2  # type: ignore[misc]


def test_matched_spans_agree_with_the_scores(tmp_path):
    """Every hypothesis token is in one span; the tiers count what the statistics count."""
    from paralign.metrics.paraeval import EXACT, UNMATCHED, build_sources

    table = tmp_path / "t.tsv"
    table.write_text("blown up\tbombing\nblown up\texplosion\nbombing\texplosion\n", encoding="utf-8")
    scorer = ParaEval(build_sources(["none"], [str(table)]))
    for hyp, refs in [("blown up bombing was happening", ["the bombing resulted in an explosion",
                                                           "there was an explosion"]),
                      ("the cat the cat", ["a cat", "the cat"]), ("", ["x"])]:
        match = scorer.matched_spans(hyp, refs)
        assert match.stats == scorer.sentence_score(hyp, refs).stats
        assert [i for sp in match.spans for i in range(sp.start, sp.end)] == list(range(len(match.tokens)))
        matched = sum(sp.end - sp.start for sp in match.spans if sp.tier != UNMATCHED)
        assert matched == match.stats.hyp_matched
        assert sum(1 for sp in match.spans if sp.tier == EXACT) == match.stats.hyp_matched - match.stats.hyp_paraphrase


def test_segment_matches_equal_matched_spans_segment_by_segment(tmp_path):
    from paralign.metrics.paraeval import build_sources

    table = tmp_path / "t.tsv"
    table.write_text("blown up\tbombing\nbombing\texplosion\n", encoding="utf-8")
    scorer = ParaEval(build_sources(["none"], [str(table)]))
    hyps = ["blown up bombing was happening", "the cat the cat", ""]
    refs = [["the bombing resulted in an explosion", "a cat", "x"], ["there was an explosion", "the cat", "y"]]
    scorer.segment_stats(hyps, refs)  # indexes the streams, as the CLI does before its report
    many = scorer.segment_matches(hyps, refs)
    assert many == [scorer.matched_spans(h, [stream[i] for stream in refs]) for i, h in enumerate(hyps)]


def test_library_defaults_are_the_command_line_defaults(data, tmp_path, capsys):
    """ParaEval() and paralign.paraeval take PPDB + WordNet, as `paralign paraeval` does."""
    import paralign
    from paralign.cli import main

    hyps, refs = ["the automobile was very big", ""], [["the car was really large", "a cat"]]
    assert ParaEval().signature(1) == ParaEval(build_sources(["ppdb", "wordnet"])).signature(1)
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    for config in ("default", "paper"):
        assert main(["paraeval", "-r", str(tmp_path / "r.txt"), "-i", str(tmp_path / "h.txt"),
                     "--config", config, "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out) == paralign.paraeval(hyps, refs, config)


def test_a_score_shows_precision_recall_and_f_first() -> None:
    """API audit R1: the repr showed only the raw counts and the signature."""
    score = ParaEval(()).sentence_score("a cat sat", ["a cat sat down"])
    text = repr(score)
    assert text.startswith("ParaEvalScore(precision=1.0, recall=0.75, f=0.857142")
    assert "stats=SegmentStats(hyp_words=3, hyp_matched=3, ref_words=4, ref_matched=3" in text
    assert text.endswith(f"signature={score.signature!r})")


def test_sentence_level_library_result_is_the_command_lines_document_regrouped(data, tmp_path, capsys):
    """paralign.paraeval(..., sentence_level=True) holds what `paralign paraeval --sentence-level
    --format json` prints, grouped otherwise: the corpus figures at the top with a "segments" list,
    where the command prints {"segments": [...], "corpus": {...}} (its docstring said "exactly")."""
    import paralign
    from paralign.cli import main

    hyps, refs = ["the automobile was very big", ""], [["the car was really large", "a cat"]]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    for config in ("default", "paper"):
        assert main(["paraeval", "-r", str(tmp_path / "r.txt"), "-i", str(tmp_path / "h.txt"),
                     "--config", config, "--sentence-level", "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)
        result = paralign.paraeval(hyps, refs, config, sentence_level=True)
        assert document == {"segments": result.pop("segments"), "corpus": result}


HYP, REF = "The Physician's car is red.", "The doctor's car is red."


@pytest.mark.parametrize("name", ["t.tsv", "t.parquet"])
def test_a_table_pivot_built_is_matched_in_the_scorers_tokens(built_table, tmp_path, name):
    """pivot's regex tokenizer holds "doctor's" as "doctor 's", and 13a n-grams never split it:
    the paraphrase tier never matched physician's with doctor's, nor any phrase with an
    apostrophe. The table's phrases are re-split into 13a tokens when the scorer is built, and
    the signature says so (~regex); a table of the same rows without pivot's record of its
    tokenizer (a user's TSV) is matched as written, as before."""
    from paralign.paraphrases import load_source

    table = load_source(str(built_table(name)))
    scorer = ParaEval([table])
    found = scorer.matched_spans(HYP, [REF])
    assert found.stats.hyp_matched == found.stats.hyp_words == 6
    assert [(s.start, s.end, s.tier, s.matched) for s in found.spans][0] == (
        0, 4, "paraphrase", ("the doctor's car is",))
    assert f"|res:{name}~regex#" in scorer.signature(1)
    assert scorer.corpus_score([HYP], [[REF]]).recall == 1.0
    plain = tmp_path / "plain.tsv"  # the same rows, without the '#' lines that record the tokenizer
    plain.write_text("".join(f"{e.phrase}\t{e.paraphrase}\t{e.score}\n" for e in load_source(str(built_table("u.tsv")))))
    before = ParaEval([load_source(str(plain))])
    assert before.matched_spans(HYP, [REF]).stats.hyp_matched == 5  # physician's: unmatched
    assert "|res:plain.tsv#" in before.signature(1)


def test_a_huge_max_length_is_no_limit_instead_of_a_hang(figure4_table):
    """API audit: `ParaEval(max_length=10**9)` (and `paraeval(..., max_length=10**9)`) hung, the
    reference index going over every phrase length up to it; a length past the segment's words
    finds nothing more, so the scores are those of a bound at the segment's length."""
    import time

    start = time.perf_counter()
    huge = ParaEval([figure4_table], max_length=10**9).sentence_score(CANDIDATE, REFS)
    assert time.perf_counter() - start < 10
    bounded = ParaEval([figure4_table], max_length=6).sentence_score(CANDIDATE, REFS)
    assert (huge.precision, huge.recall, huge.stats) == (bounded.precision, bounded.recall, bounded.stats)


def test_the_signature_records_the_bound_used_past_the_longest_phrase_of_the_sources(figure4_table):
    """`max_length=10**9` gives the numbers of no limit but signed ``maxlen:1000000000``: two
    bounds with the same numbers had two signatures (sacrebleu's rule is one). A bound past the
    sources' longest phrase is recorded as that length (as ParaMetric's ``maxlen`` records its
    rows' bound), never under the default's 4; a bound up to 4 is recorded as asked."""
    long = ParaphraseTable.from_pairs([("set off a very loud explosion", "bombing")], symmetric=True, name="long")
    hyp, refs = "they set off a very loud explosion here", ["a bombing here"]
    huge, six = ParaEval([long], max_length=10**9), ParaEval([long], max_length=6)
    assert huge.sentence_score(hyp, refs).stats == six.sentence_score(hyp, refs).stats
    assert huge.signature(1) == six.signature(1) == ParaEval([long], max_length=7).signature(1)
    assert "|maxlen:6|" in huge.signature(1) and "|maxlen:5|" in ParaEval([long], max_length=5).signature(1)
    # fig4's longest phrase is 2 words: every bound from 4 on is 4, one under it as asked
    assert "|maxlen:4|" in ParaEval([figure4_table], max_length=10**9).signature(1)
    assert "|maxlen:3|" in ParaEval([figure4_table], max_length=3).signature(1)
    assert "|maxlen:4|" in ParaEval([], max_length=10**9).signature(1)  # no paraphrase tier
    # min_paraphrase_length above 4 is kept in reach: the bound recorded is one ParaEval takes
    assert "|maxlen:5|minpara:5|" in ParaEval([figure4_table], max_length=10**9, min_paraphrase_length=5).signature(1)


def test_paraeval_with_a_huge_max_length_signs_as_the_bound_wordnet_and_ppdb_reach():
    """The API audit's case: ``paralign.paraeval(..., max_length=10**9)`` (``paralign paraeval
    --max-length 1000000000``) signs as WordNet's longest lemma (9 words), the bound it
    computes with, for the paper config and the default one alike."""
    from paralign.metrics.paraeval.scoring import paraeval as scored
    from paralign.resources import wordnet_senses

    if not wordnet_senses("sit"):
        pytest.skip("WordNet data not found")
    hyps, refs = ["the cat sat on the mat"], [["a cat was sitting on the mat"]]
    for config in ("paper", "default"):
        huge = scored(hyps, refs, config, max_length=10**9)
        nine = scored(hyps, refs, config, max_length=9)
        assert huge == nine and "|maxlen:9|" in huge["signature"]


@pytest.mark.parametrize("value", [float("nan"), 2.5, "3", True, None])
def test_a_max_length_that_is_not_a_whole_number_is_a_configuration_error(value):
    """API audit: NaN or 2.5 passed the `< 1` test and were a TypeError from range() at the
    first segment (None and '3' a TypeError from the comparison)."""
    with pytest.raises(ConfigurationError, match="max_length must be a whole number"):
        ParaEval([], max_length=value)
    with pytest.raises(ConfigurationError, match="min_paraphrase_length must be a whole number"):
        ParaEval([], min_paraphrase_length=value)


def test_settings_of_the_wrong_type_are_refused() -> None:
    """The paper scorer's options come as keywords of paralign.paraeval and scorer(): a flag given
    as a str ("no") was taken as true, silently, and a cache_size of "100" failed as a bare
    TypeError from the cache; each is a ConfigurationError naming the setting, as max_length's is."""
    for flag in ("lowercase", "skip_stopword_phrases"):
        with pytest.raises(ConfigurationError, match=f"{flag} must be True or False, not str 'no'"):
            ParaEval([], **{flag: "no"})
    for size in ("100", 0, 2.5):
        with pytest.raises(ConfigurationError, match="cache_size must be"):
            ParaEval([], cache_size=size)
    assert ParaEval([], lowercase=False, skip_stopword_phrases=False, cache_size=10).cache_size == 10
