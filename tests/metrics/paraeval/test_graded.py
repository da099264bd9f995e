"""Graded ParaEval (metrics.paraeval.graded): tiers, grades, the penalty, best reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError, MismatchError
from paralign.metrics.paraeval.configs import DEFAULT, PAPER, Config, get_config
from paralign.metrics.paraeval.graded import COLUMNS, GradedParaEval, score_parts
from paralign.paraphrases import ParaphraseTable

LEXICAL = Config("test", tiers=("exact", "stem", "synonym", "paraphrase"), resources=())


def _col(row: np.ndarray, name: str) -> float:
    return float(row[COLUMNS.index(name)])


def test_identical_sentences_score_one_with_no_penalty():
    # METEOR's scorer: every word of both sides matched in one chunk gives fragmentation 0 (the
    # chunks / matches rule alone left gamma (1/6) ** beta = 0.42 under the default parameters)
    scorer = GradedParaEval(LEXICAL, [])
    row = scorer.segment_stats(["the cat sat on the mat"], [["the cat sat on the mat"]])[0]
    parts = score_parts(row, LEXICAL)
    assert parts["p"] == pytest.approx(1.0) and parts["r"] == pytest.approx(1.0)
    assert _col(row, "chunks") == 1 and _col(row, "matches") == 6 and _col(row, "ref_matches") == 6
    assert parts["penalty"] == 0.0 and parts["score"] == pytest.approx(1.0)
    assert score_parts(row, DEFAULT)["score"] == pytest.approx(1.0)


@pytest.mark.parametrize(("hyp", "ref"), [
    ("the cat sat on the mat .", "the cat sat on the mat"),  # a hypothesis word left over
    ("the cat sat on the mat", "the black cat sat on the mat"),  # a reference word left over
    ("on the mat the cat sat", "the cat sat on the mat"),  # every word matched, in two chunks
])
def test_a_whole_match_in_one_chunk_alone_escapes_the_penalty(hyp, ref):
    row = GradedParaEval(LEXICAL, []).segment_stats([hyp], [[ref]])[0]
    frag = _col(row, "chunks") / _col(row, "matches")
    assert score_parts(row, LEXICAL)["penalty"] == pytest.approx(LEXICAL.gamma * frag ** LEXICAL.beta)
    assert score_parts(row, LEXICAL)["penalty"] > 0


def test_a_paraphrase_of_unequal_length_matching_everything_in_one_chunk_has_no_penalty():
    table = ParaphraseTable.from_pairs([("took a seat", "sat", 1.0)], "t")
    row = GradedParaEval(LEXICAL, [table]).segment_stats(["the cat took a seat"], [["the cat sat"]])[0]
    assert (_col(row, "chunks"), _col(row, "matches"), _col(row, "ref_matches")) == (1, 5, 3)
    assert score_parts(row, LEXICAL)["penalty"] == 0.0


def test_summed_rows_keep_the_penalty_of_their_chunks():
    # a corpus of two identical segments has two chunks: the rule is a segment's, as in METEOR
    rows = GradedParaEval(LEXICAL, []).segment_stats(["a b c", "d e f"], [["a b c", "d e f"]])
    assert score_parts(rows[0], LEXICAL)["penalty"] == 0.0
    total = rows.sum(axis=0)
    assert score_parts(total, LEXICAL)["penalty"] == pytest.approx(LEXICAL.gamma * (2 / 6) ** LEXICAL.beta)


def test_stem_tier_matches_inflections_and_weighs_them():
    scorer = GradedParaEval(LEXICAL, [])
    row = scorer.segment_stats(["the bombings happened"], [["the bombing happens"]])[0]
    assert _col(row, "exact_hc") == 0 and _col(row, "exact_hf") == 1  # 'the' is a function word
    assert _col(row, "stem_hc") == 2 and _col(row, "stem_rc") == 2
    no_stem = GradedParaEval(LEXICAL.with_(tiers=("exact",)), [])
    assert score_parts(no_stem.segment_stats(["the bombings happened"],
                                             [["the bombing happens"]])[0], LEXICAL)["r"] < 0.5


def test_sense_synonyms_match_two_inflections_of_one_wordnet_lemma():
    from paralign.paraphrases import WordNetSynonyms
    from paralign.resources import wordnet_senses

    pytest.importorskip("nltk")
    if not wordnet_senses("sit"):
        pytest.skip("WordNet data not found")
    hyps, refs = ["the cat sat there", "he ran home"], [["a cat was sitting there", "he was running home"]]
    by_sense = GradedParaEval(LEXICAL.with_(synonyms="sense"), [WordNetSynonyms()])
    by_lemma = GradedParaEval(LEXICAL, [WordNetSynonyms()])
    for row, (h, r) in zip(by_sense.segment_stats(hyps, refs), (("sat", "sitting"), ("ran", "running")), strict=True):
        assert _col(row, "synonym_hc") == 1 and _col(row, "synonym_rc") == 1, (h, r)  # share sit.v.01 / run.v.01
    for row in by_lemma.segment_stats(hyps, refs):  # neither is a lemma name of the other's synsets
        assert _col(row, "synonym_hc") == 0
    assert "|syn:sense|" in by_sense.signature(1) and "syn:" not in by_lemma.signature(1)
    # a real synonym still matches, words sharing no synset do not
    row = by_sense.segment_stats(["the automobile stopped"], [["the car stopped"]])[0]
    assert _col(row, "synonym_hc") == 1
    row = by_sense.segment_stats(["the cat stopped"], [["the car stopped"]])[0]
    assert _col(row, "synonym_hc") == 0
    with pytest.raises(ConfigurationError, match="synonym match"):
        LEXICAL.with_(synonyms="stem")


def test_paraphrase_tier_grades_a_match_by_its_table_probability():
    table = ParaphraseTable.from_pairs([("blown up", "exploded", 0.25)], name="t")
    scorer = GradedParaEval(LEXICAL, [table])
    row = scorer.segment_stats(["it blown up"], [["it exploded"]])[0]
    hyp_side = _col(row, "paraphrase_hc") + _col(row, "paraphrase_hf")  # 'up' is a function word
    assert hyp_side == pytest.approx(2 * 0.25)  # two hypothesis words
    assert _col(row, "paraphrase_rc") == pytest.approx(0.25)
    unscored = ParaphraseTable.from_pairs([("blown up", "exploded")], name="u")
    row = GradedParaEval(LEXICAL, [unscored]).segment_stats(["it blown up"], [["it exploded"]])[0]
    assert _col(row, "paraphrase_rc") == pytest.approx(1.0)


def test_word_order_costs_through_the_fragmentation_penalty():
    scorer = GradedParaEval(LEXICAL, [])
    ordered = scorer.segment_stats(["a b c d"], [["a b c d"]])[0]
    shuffled = scorer.segment_stats(["d b a c"], [["a b c d"]])[0]
    assert _col(shuffled, "chunks") > _col(ordered, "chunks")
    assert score_parts(shuffled, LEXICAL)["score"] < score_parts(ordered, LEXICAL)["score"]
    assert score_parts(shuffled, LEXICAL.with_(gamma=0.0))["score"] == pytest.approx(
        score_parts(ordered, LEXICAL.with_(gamma=0.0))["score"])


def test_best_reference_is_taken_per_segment():
    scorer = GradedParaEval(LEXICAL, [])
    rows = scorer.segment_stats(["the cat sat", "a dog ran"],
                                [["the cat sat", "x y"], ["q r s", "a dog ran"]])
    assert score_parts(rows, LEXICAL)["score"] == pytest.approx(
        score_parts(scorer.segment_stats(["the cat sat"], [["the cat sat"]]), LEXICAL)["score"][0])
    assert _col(rows[1], "exact_hc") + _col(rows[1], "exact_hf") == 3


def test_empty_hypothesis_has_precision_zero_and_reference_mismatch_raises():
    scorer = GradedParaEval(LEXICAL, [])
    row = scorer.segment_stats([""], [["a cat"]])[0]
    parts = score_parts(row, LEXICAL)
    assert parts["p"] == 0.0 and parts["score"] == 0.0
    with pytest.raises(MismatchError, match="2 hypothesis segments but 1 reference"):
        scorer.segment_stats(["a", "b"], [["a"]])


def test_system_level_parameters_apply_to_corpus_scores_only():
    cfg = LEXICAL.with_(alpha=0.5, gamma=0.5, system_alpha=1.0, system_gamma=0.0)
    scorer = GradedParaEval(cfg, [])
    rows = scorer.segment_stats(["a b x", "c"], [["a b", "c d e"]])
    system = score_parts(rows.sum(axis=0), cfg, "system")
    assert system["score"] == pytest.approx(system["r"])  # alpha 1, no penalty: recall
    assert score_parts(rows.sum(axis=0), cfg)["score"] < system["score"]


def test_configs_are_checked_and_named():
    assert get_config("default") is DEFAULT and get_config(PAPER) is PAPER
    with pytest.raises(ConfigurationError, match="unknown ParaEval config 'nope'"):
        get_config("nope")
    with pytest.raises(ConfigurationError, match="unknown ParaEval tier"):
        Config("x", tiers=("exact", "telepathy"))
    with pytest.raises(ConfigurationError, match="alpha must be in"):
        Config("x", alpha=1.5)
    with pytest.raises(ConfigurationError, match="not a graded config"):
        GradedParaEval(PAPER, [])
    assert "system:alpha=1" in DEFAULT.settings() and "tiers:exact+stem+synonym+paraphrase" in DEFAULT.settings()


def test_signature_names_every_setting_and_hashes_tables(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("blown up\texploded\t0.5\nbig\tlarge\t0.1\n", encoding="utf-8")
    from paralign.metrics.paraeval.paper import build_sources

    sig = GradedParaEval(LEXICAL, build_sources(["none"], [f"{path}:0.2"])).signature(1)
    assert sig.startswith("nrefs:1|config:test|tiers:exact+stem+synonym+paraphrase|")
    assert "|res:t.tsv:0.2#" in sig and "stem:snowball-en" in sig
    path.write_text("blown up\texploded\t0.5\n", encoding="utf-8")
    other = GradedParaEval(LEXICAL, build_sources(["none"], [str(path)])).signature(1)
    assert other.split("res:")[1].split("|")[0] != sig.split("res:")[1].split("|")[0]


words = st.lists(st.sampled_from(["the", "cat", "cats", "sat", "on", "mat", "a", "dog", "."]),
                 max_size=8).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(words, words, words)
def test_scores_are_proportions_and_corpus_sums_rows(h1, h2, ref):
    scorer = GradedParaEval(LEXICAL, [])
    rows = scorer.segment_stats([h1, h2], [[ref, ref]])
    for level in ("segment", "system"):
        for name, part in score_parts(rows, DEFAULT, level).items():
            # undefined (NaN) exactly where the reference has no word, and only what needs it
            undefined = name in ("r", "f", "fmean", "score") and not ref.split()
            assert np.all(np.isnan(part) == undefined)
            assert np.all(np.isnan(part) | ((part >= 0) & (part <= 1 + 1e-9)))
    assert np.all(rows >= 0)


class _FakeEncoded:
    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = matrix


class _FakeEncoder:
    """Word vectors from a fixed table (one-hot but 'huge' and 'big' close), counting calls."""

    model = "fake"

    def __init__(self) -> None:
        self.calls = 0
        self.vocab: dict[str, np.ndarray] = {}

    def vector(self, word: str) -> np.ndarray:
        if word in ("huge", "big"):
            return np.array([1.0, 0.2 if word == "huge" else 0.0, 0, 0])
        v = self.vocab.setdefault(word, np.eye(4)[1 + len(self.vocab) % 3] * (1 + len(self.vocab)))
        return v

    def encode(self, sentences):
        self.calls += 1
        return [_FakeEncoded(np.stack([self.vector(w) for w in s])) for s in sentences]


CONTEXTUAL_TEST = LEXICAL.with_(name="ctx", tiers=LEXICAL.tiers + ("contextual",), threshold=0.9)


def test_contextual_tier_matches_what_no_table_covers_graded_by_cosine():
    scorer = GradedParaEval(CONTEXTUAL_TEST, [], encoder=_FakeEncoder())
    row = scorer.segment_stats(["a huge house"], [["a big house"]])[0]
    cosine = 1 / np.sqrt(1.04)
    assert _col(row, "contextual_hc") == pytest.approx(cosine, rel=1e-3)  # float16 vectors
    assert _col(row, "exact_hc") == 1 and _col(row, "exact_hf") == 1  # house, a
    lexical = GradedParaEval(LEXICAL, []).segment_stats(["a huge house"], [["a big house"]])[0]
    assert score_parts(row, CONTEXTUAL_TEST)["r"] > score_parts(lexical, LEXICAL)["r"]
    assert "|cos:0.9" in scorer.signature(1) and "|encoder:fake|version:" in scorer.signature(1)


def test_vector_cache_folder_saves_the_encoder_a_second_run(tmp_path, monkeypatch):
    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path))
    encoder = _FakeEncoder()
    first = GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder)
    rows = first.segment_stats(["a huge house", ""], [["a big house", "x"]])
    calls = encoder.calls
    again = GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder)
    assert np.array_equal(again.segment_stats(["a huge house", ""], [["a big house", "x"]]), rows)
    assert encoder.calls == calls and len(list(tmp_path.glob("vectors-*.npy"))) == 2


def test_contextual_config_without_the_extra_is_a_one_line_error(monkeypatch):
    from paralign.errors import ExtraMissingError
    from paralign.metrics.paraeval.configs import CONTEXTUAL
    from paralign.neural import encoder as module

    def missing():
        raise ExtraMissingError("the contextual encoder", missing="torch")

    monkeypatch.setattr(module, "_require", missing)
    with pytest.raises(ExtraMissingError, match=r"pip install 'paralign\[neural\]'"):
        GradedParaEval(CONTEXTUAL, [])


def test_systems_that_agree_on_a_segment_share_its_row() -> None:
    """Rows are remembered per (segment, words) against one prepared reference set: a second
    system repeating a segment gets the row a fresh scorer computes."""
    scorer = GradedParaEval(LEXICAL, [])
    refs = [["the cat sat on the mat", "a dog barked"]]
    first = scorer.segment_stats(["the cat sat on a mat", "the dog barked"], refs)
    second = scorer.segment_stats(["a cat sat on the mat", "the dog barked"], refs)
    fresh = GradedParaEval(LEXICAL, []).segment_stats(["a cat sat on the mat", "the dog barked"], refs)
    assert np.array_equal(second, fresh) and np.array_equal(first[1], second[1])
    assert len(scorer._memo[1]) == 3


@pytest.mark.parametrize(("hyp", "ref"), [("he took a seat there", "he sat there"),
                                          ("he sat there", "he took a seat there")])
def test_a_phrase_match_of_unequal_lengths_is_one_run_of_its_chunk(hyp, ref):
    """"took a seat" matched to "sat" (either way round) is one run, and the words around it
    continue it, as METEOR counts a phrase match: one chunk, not one per word of the phrase."""
    table = ParaphraseTable.from_pairs([("took a seat", "sat", None), ("sat", "took a seat", None)], name="t")
    scorer = GradedParaEval(LEXICAL, [table])
    row = scorer.segment_stats([hyp], [[ref]])[0]
    assert _col(row, "paraphrase_hc") > 0 and _col(row, "chunks") == 1
    explained = scorer.explain(hyp, [ref])
    assert explained.chunks == ((0, len(hyp.split())),)
    # a gap still breaks the run after a phrase: "he took a seat over there" / "he sat there"
    gapped = scorer.segment_stats(["there he took a seat"], [["he sat there"]])[0]
    assert _col(gapped, "chunks") == 2


def test_segment_stats_reports_its_progress():
    """segment_stats took a progress(n) callback and never called it: a caller showing a bar got
    none. It now gets each segment once it is aligned."""
    seen: list[int] = []
    hyps, refs = ["the cat sat", "", "a dog barked"], [["the cat sat", "nothing", "the dog barked"]]
    GradedParaEval(LEXICAL, []).segment_stats(hyps, refs, progress=seen.append)
    assert sum(seen) == 3 and all(n > 0 for n in seen)


@pytest.mark.parametrize("config", ["default", "paper"])
def test_systems_scores_reports_each_system_done(config):
    """systems_scores tells a progress(n) callback of each system scored (the command's bar over
    many -i; a contextual system takes minutes): before, it took none, and `paralign paraeval`
    over 19 systems showed nothing for half an hour."""
    from paralign.metrics.paraeval.scoring import scorer, systems_scores

    seen: list[int] = []
    systems = [["the cat sat"], ["a cat sat"], ["the dog"]]
    scores = systems_scores(scorer(config, resources=[]), systems, [["the cat sat"]], progress=seen.append)
    assert len(scores) == 3 and sum(seen) == 3


def test_the_vector_cache_is_in_the_signature_as_it_changes_the_numbers(tmp_path, monkeypatch):
    """$PARALIGN_VECTOR_CACHE keeps the vectors as float16, and a run with it computes with those
    (the same whether the vectors were encoded now or read back): its contextual grades differ
    from a run without it (cs-en Facebook-AI, 200 segments: 0.77516293 against 0.77516286), and
    the two runs had one signature. It now says vecs:f16."""
    plain = GradedParaEval(CONTEXTUAL_TEST, [], encoder=_FakeEncoder())
    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path))
    cached = GradedParaEval(CONTEXTUAL_TEST, [], encoder=_FakeEncoder())
    args = (["a huge house"], [["a big house"]])
    assert not np.array_equal(plain.segment_stats(*args), cached.segment_stats(*args))
    assert "vecs:" not in plain.signature(1)
    assert "|encoder:fake|vecs:f16|version:" in cached.signature(1)
    lexical = GradedParaEval(LEXICAL, [])  # no vectors, nothing rounded: no part
    assert "vecs:" not in lexical.signature(1)


def test_a_table_pivot_built_is_matched_in_13a_tokens(built_table):
    """The graded scorer matched a pivot table's phrases as written, "physician 's" where 13a has
    one token physician's: never. Its phrases are now re-split into 13a tokens (the paper
    scorer's rule), the match graded by the pair's probability, and the signature says so."""
    from paralign.paraphrases import load_source

    scorer = GradedParaEval(DEFAULT, [load_source(str(built_table("t.parquet")))])
    hyp, ref = "The Physician's car is red.", "The doctor's car is red."
    found = scorer.explain(hyp, [ref])
    tokens = found.tokens
    matched = [(m.tier, tokens[m.hyp_start], found.reference_tokens[m.ref_start], m.grade) for m in found.matches]
    assert ("paraphrase", "physician's", "doctor's", 0.5) in matched
    assert "|res:t.parquet~regex#" in scorer.signature(1)
    assert scorer.sources[0].retokenized_from == "regex"


def test_the_vector_cache_tells_models_and_layers_apart(tmp_path, monkeypatch):
    """Vector files were keyed by the encoder's name alone: a model retrained into the same
    directory, or the same model read at another layer, silently got the old vectors."""
    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path / "vectors"))
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "model.safetensors").write_bytes(b"weights 1")
    encoder = _FakeEncoder()
    encoder.model = str(model)
    segments, refs = ["a huge house"], [["a big house"]]
    GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder).segment_stats(segments, refs)
    calls = encoder.calls
    GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder).segment_stats(segments, refs)
    assert encoder.calls == calls  # read back
    (model / "model.safetensors").write_bytes(b"weights 2, retrained")
    GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder).segment_stats(segments, refs)
    assert encoder.calls == calls + 2  # encoded again (hypotheses and references)
    encoder.word_layer = 3
    GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder).segment_stats(segments, refs)
    assert encoder.calls == calls + 4


def test_a_vector_file_that_cannot_be_read_is_encoded_again(tmp_path, monkeypatch):
    """A vector file removed between the check and the load (`paralign cache purge` meanwhile) or
    left damaged made paraeval fail; the vectors are now computed again."""
    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path))
    encoder = _FakeEncoder()
    rows = GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder).segment_stats(["a huge house"], [["a big house"]])
    for file in tmp_path.glob("vectors-*.npy"):
        file.write_bytes(file.read_bytes()[:20])  # cut short
    again = GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder).segment_stats(["a huge house"], [["a big house"]])
    assert np.array_equal(again, rows)


def test_a_huge_max_length_with_wordnet_synonyms_is_no_limit_instead_of_a_hang():
    """API audit: `paraeval(hyps, refs, max_length=10**9)` hung: the graded scorer's reference
    n-grams went over every length up to the synonym lookup's bound (WordNet's lookup takes the
    config's max_length as it is). Lengths past a segment's words add nothing: same scores."""
    import time

    from paralign.paraphrases import WordNetSynonyms
    from paralign.resources import wordnet_senses

    if not wordnet_senses("sit"):
        pytest.skip("WordNet data not found")
    hyps, refs = ["the cat sat on the mat"], [["a cat was sitting on the mat"]]
    start = time.perf_counter()
    huge = GradedParaEval(DEFAULT.with_(max_length=10**9), [WordNetSynonyms()]).segment_stats(hyps, refs)
    assert time.perf_counter() - start < 10
    bounded = GradedParaEval(DEFAULT.with_(max_length=7), [WordNetSynonyms()]).segment_stats(hyps, refs)
    assert np.array_equal(huge, bounded)


def test_the_signature_records_the_bound_used_past_the_longest_phrase_of_the_tables():
    """As the paper scorer's: a bound past the longest phrase the looked-up sources hold gives
    the same numbers and signs as that length (never under 4), not as the bound asked for."""
    long = ParaphraseTable.from_pairs([("set off a very loud explosion", "bombing")], symmetric=True, name="long")
    hyps, refs = ["they set off a very loud explosion here"], [["a bombing here"]]
    huge = GradedParaEval(LEXICAL.with_(max_length=10**9), [long])
    six = GradedParaEval(LEXICAL.with_(max_length=6), [long])
    assert np.array_equal(huge.segment_stats(hyps, refs), six.segment_stats(hyps, refs))
    assert huge.signature(1) == six.signature(1) and "|maxlen:6|" in huge.signature(1)
    assert "|maxlen:5|" in GradedParaEval(LEXICAL.with_(max_length=5), [long]).signature(1)
    assert "|maxlen:3|" in GradedParaEval(LEXICAL.with_(max_length=3), [long]).signature(1)
    # no tier looks the table up: the bound changes nothing, signed 4
    exact = Config("exact", tiers=("exact", "stem"), resources=())
    assert "|maxlen:4|" in GradedParaEval(exact.with_(max_length=10**9), [long]).signature(1)


@pytest.mark.parametrize("damage", ["folder is a file", "disk full", "entry is a folder"])
def test_a_vector_cache_that_cannot_be_written_keeps_nothing_and_changes_no_score(damage, tmp_path,
                                                                                   monkeypatch):
    """Resource audit: PARALIGN_VECTOR_CACHE naming a file, a full disk (ENOSPC) or an entry
    replaced by a folder made paraeval fail with the OSError of the write; as the disk cache, a
    cache that cannot be written now keeps nothing, and the scores are those a written one gives
    (the vectors rounded to float16 all the same)."""
    import errno

    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path / "vectors"))
    hyps, refs = ["a huge house"], [["a big house"]]
    rows = GradedParaEval(CONTEXTUAL_TEST, [], encoder=_FakeEncoder()).segment_stats(hyps, refs)
    files = sorted((tmp_path / "vectors").glob("vectors-*.npy"))
    if damage == "folder is a file":
        (tmp_path / "file").write_text("x")
        monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path / "file"))
    elif damage == "entry is a folder":
        for file in files:
            file.unlink()
            file.mkdir()
    else:
        for file in files:
            file.unlink()

        def full(*args, **kwargs):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(np, "save", full)
    again = GradedParaEval(CONTEXTUAL_TEST, [], encoder=_FakeEncoder()).segment_stats(hyps, refs)
    assert np.array_equal(again, rows)
    assert not list((tmp_path / "vectors").glob(".tmp*"))


@pytest.mark.timeout(60)  # it blocked for ever
def test_a_fifo_in_place_of_a_vector_file_is_not_read(tmp_path, monkeypatch):
    """Resource audit: a FIFO named as a vector file (another user of a shared vector folder can
    make one) blocked paraeval for ever in np.load; it is not read, and the vectors are encoded
    (and kept in its place)."""
    import os

    monkeypatch.setenv("PARALIGN_VECTOR_CACHE", str(tmp_path))
    hyps, refs = ["a huge house"], [["a big house"]]
    rows = GradedParaEval(CONTEXTUAL_TEST, [], encoder=_FakeEncoder()).segment_stats(hyps, refs)
    for file in tmp_path.glob("vectors-*.npy"):
        file.unlink()
        os.mkfifo(file)
    encoder = _FakeEncoder()
    assert np.array_equal(GradedParaEval(CONTEXTUAL_TEST, [], encoder=encoder).segment_stats(hyps, refs), rows)
    assert encoder.calls == 2 and all(file.is_file() for file in tmp_path.glob("vectors-*.npy"))
