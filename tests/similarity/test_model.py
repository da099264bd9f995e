"""The logistic paraphrase classifier over alignment features (paralign.similarity.features, paralign.similarity.model)."""

from __future__ import annotations

import json
import math
import random

import pytest

from paralign.alignment import AlignedSentences, Alignment
from paralign.errors import ConfigurationError, FormatError
from paralign.sentence import Sentence
from paralign.similarity import cross_validate_model, cross_validate_threshold
from paralign.similarity.features import (
    ALIGNMENT_FEATURES,
    EMBEDDING_FEATURES,
    FEATURE_SETS,
    FEATURES,
    OVERLAP_FEATURES,
    feature_set,
    overlap_features,
    pair_features,
)
from paralign.similarity.model import LogisticModel, TrainedClassifier, logistic_weights


def _pair(source: str, target: str, links: list[tuple[int, int]], pos: tuple[str, str] | None = None) -> AlignedSentences:
    s, t = source.split(), target.split()
    kw_s = {"pos": tuple(pos[0].split())} if pos else {}
    kw_t = {"pos": tuple(pos[1].split())} if pos else {}
    return AlignedSentences(Sentence(tuple(s), **kw_s), Sentence(tuple(t), **kw_t), Alignment(links))


def _features(pair: AlignedSentences) -> dict[str, float]:
    return dict(zip(FEATURES, pair_features(pair), strict=True))


def test_features_of_a_pair_read_the_alignment():
    pair = _pair(
        "Smith sold 300 shares on Monday",
        "Smith did not sell 400 shares",
        [(0, 0), (1, 3), (3, 5)],
        ("PROPN VERB NUM NOUN ADP PROPN", "PROPN AUX PART VERB NUM NOUN"),
    )
    f = _features(pair)
    assert len(pair_features(pair)) == len(FEATURES)
    # content words: Smith sold 300 shares Monday (5; "on" is a stop word) / Smith sell 400 shares
    # ("did" and "not" are stop words): 3 of 5 and 3 of 4 aligned
    assert f["content_min"] == pytest.approx(3 / 5) and f["content_max"] == pytest.approx(3 / 4)
    assert f["content"] == pytest.approx(2 * 0.6 * 0.75 / 1.35)
    assert f["unaligned_number"] == 1.0  # 300 and 400 are unaligned
    assert f["negation_mismatch"] == 1.0  # only the target says "not"
    assert f["unaligned"] == pytest.approx(math.log1p(3))  # 300, Monday; 400
    assert f["unaligned_max"] == pytest.approx(math.log1p(2)) and f["unaligned_min"] == pytest.approx(math.log1p(1))
    assert f["unaligned_propn"] == pytest.approx(math.log1p(1))  # Monday
    assert f["unaligned_num"] == pytest.approx(math.log1p(2))
    assert f["unaligned_verb"] == 0.0
    assert f["length_ratio"] == pytest.approx(4 / 5)


def test_features_are_symmetric():
    pair = _pair("a big cat sat on the mat", "the cat sat", [(2, 1), (3, 2), (5, 0)])
    swapped = AlignedSentences(pair.target, pair.source, Alignment([(j, i) for i, j in pair.alignment.sure]))
    assert pair_features(pair) == pytest.approx(pair_features(swapped))


def test_identical_sentences_have_full_proportions_and_nothing_unaligned():
    pair = _pair("rebels attacked the convoy", "rebels attacked the convoy", [(i, i) for i in range(4)])
    f = _features(pair)
    assert f["content"] == f["all_words"] == 1.0
    assert f["unaligned"] == f["unaligned_number"] == f["negation_mismatch"] == 0.0


@pytest.mark.parametrize(("source", "target", "links"), [
    ("...", "...", [(0, 0)]), ("? !", "? !", [(0, 0), (1, 1)]), ("? !", "...", []), ("! ?", "it is .", [(1, 2)]),
])
def test_content_and_all_words_are_the_signals_scores_on_punctuation_only_sentences(source, target, links):
    # the signals count a sentence of punctuation only by its tokens (two identical "..." score 1);
    # the features counted nothing there, so content and all_words were 0 for identical sentences
    from paralign.similarity import make_signal

    pair = _pair(source, target, links)
    f = _features(pair)
    assert f["content"] == pytest.approx(make_signal("sultan2014")(pair))
    assert f["all_words"] == pytest.approx(make_signal("all-words")(pair))
    if source == target:
        assert f["content"] == f["all_words"] == f["length_ratio"] == 1.0 and f["unaligned"] == 0.0


def test_overlap_features_are_bleu_precisions_chrf_and_ter_in_both_directions():
    # "the cat sat on the mat" vs "the cat sat": unigram matches 3; precisions 3/6 and 3/3
    long = Sentence(("The", "cat", "sat", "on", "the", "mat"))
    short = Sentence(("the", "cat", "sat"))
    f = dict(zip(OVERLAP_FEATURES, overlap_features(long, short), strict=True))
    assert f["bleu_p1_min"] == pytest.approx(0.5) and f["bleu_p1_max"] == pytest.approx(1.0)  # lowercased
    assert f["bleu_p2_min"] == pytest.approx(2 / 5) and f["bleu_p2_max"] == pytest.approx(1.0)
    assert f["bleu_p3_max"] == pytest.approx(1.0) and f["bleu_p3_min"] == pytest.approx(1 / 4)
    # TER: 3 deletions over the short reference (1.0) or 3 insertions over the long one (0.5)
    assert (f["ter_min"], f["ter_max"]) == pytest.approx((0.5, 1.0))
    assert 0.0 < f["chrf_min"] < f["chrf_max"] < 1.0
    assert overlap_features(short, long) == pytest.approx(overlap_features(long, short))
    same = overlap_features(long, long)
    assert same[: 2 * 5] == pytest.approx((1.0,) * 10) and same[10:] == pytest.approx((0.0, 0.0))


def test_pair_features_follow_the_named_order_and_sets():
    pair = _pair("rebels attacked the convoy", "the convoy was attacked", [(1, 3), (3, 1)])
    everything = dict(zip(FEATURES, pair_features(pair), strict=True))
    assert FEATURES == ALIGNMENT_FEATURES + OVERLAP_FEATURES
    assert pair_features(pair, ALIGNMENT_FEATURES) == tuple(everything[n] for n in ALIGNMENT_FEATURES)
    assert pair_features(pair, ("ter_max", "content")) == (everything["ter_max"], everything["content"])
    assert feature_set("alignment") == ALIGNMENT_FEATURES and feature_set("alignment+mt") == FEATURES
    assert set(FEATURE_SETS) == {"alignment", "alignment+mt", "alignment+mt+embedding"}
    assert feature_set("alignment+mt+embedding") == FEATURES + EMBEDDING_FEATURES
    with pytest.raises(ConfigurationError, match="unknown paraphrase feature 'bogus'"):
        pair_features(pair, ("content", "bogus"))
    with pytest.raises(ConfigurationError, match="unknown feature set"):
        feature_set("everything")


def test_a_report_with_unknown_features_is_refused():
    model = LogisticModel(("content", "bogus"), (0.0, 0.0), (1.0, 1.0), (1.0, 1.0), 0.0)
    report = {"threshold": 0.5, "classifier": "features", "aligner": "exact", "model": model.to_dict()}
    with pytest.raises(FormatError, match="unknown features bogus"):
        TrainedClassifier.from_report(report, "r.json")
    alignment_only = LogisticModel(ALIGNMENT_FEATURES, (0.0,) * 16, (1.0,) * 16, (0.1,) * 16, 0.0)
    report["model"] = alignment_only.to_dict()
    classifier = TrainedClassifier.from_report(report, "r.json")
    pair = _pair("rebels attacked the convoy", "the convoy was attacked", [(1, 3), (3, 1)])
    assert classifier.signal(pair) == pytest.approx(alignment_only.probability(pair_features(pair, ALIGNMENT_FEATURES)))


def _synthetic(n: int, seed: int) -> tuple[list[list[float]], list[bool]]:
    """Two informative features (one helping, one hurting) and one of pure noise."""
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n):
        a, b, c = rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)
        logit = 2.0 * a - 1.5 * b
        labels.append(rng.random() < 1 / (1 + math.exp(-logit)))
        rows.append([a, b, c])
    return rows, labels


def test_the_model_recovers_the_direction_of_each_feature():
    rows, labels = _synthetic(2000, 0)
    model = LogisticModel.fit(rows, labels, features=("a", "b", "noise"), l2=0.0)
    wa, wb, wc = (w / s for w, s in zip(model.weights, model.scales, strict=True))  # per raw unit
    assert wa == pytest.approx(2.0, abs=0.3) and wb == pytest.approx(-1.5, abs=0.3)
    assert abs(wc) < 0.2
    assert model.probability([3, -3, 0]) > 0.99 and model.probability([-3, 3, 0]) < 0.01
    batch = model.probabilities([[3, -3, 0], None, rows[5]])
    assert batch[0] == pytest.approx(model.probability([3, -3, 0])) and batch[1] is None
    assert batch[2] == pytest.approx(model.probability(rows[5]))
    heavier = LogisticModel.fit(rows, labels, features=("a", "b", "noise"), l2=1000.0)
    assert abs(heavier.weights[0]) < abs(model.weights[0])  # L2 shrinks the weights


def test_the_model_round_trips_through_json():
    rows, labels = _synthetic(300, 1)
    model = LogisticModel.fit(rows, labels, features=("a", "b", "noise"))
    back = LogisticModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert back == model
    with pytest.raises(FormatError, match="not a paraphrase model"):
        LogisticModel.from_dict({"features": [{"name": "a"}]})
    for bad_l2 in (math.nan, math.inf, -1.0):  # what fit refuses, a saved model does not carry
        with pytest.raises(FormatError, match="not a paraphrase model .l2 must be a finite number >= 0"):
            LogisticModel.from_dict({**model.to_dict(), "l2": bad_l2})


def test_bad_training_data_is_refused():
    with pytest.raises(ConfigurationError, match="without training pairs"):
        LogisticModel.fit([], [])
    with pytest.raises(ValueError, match="columns"):
        LogisticModel.fit([[1.0, 2.0]], [True])  # two columns, FEATURES has more
    with pytest.raises(ValueError, match="labels"):
        LogisticModel.fit([[1.0]], [True, False], features=("x",))
    with pytest.raises(ConfigurationError, match="converge.*use l2 > 0"):  # separable without regularisation
        LogisticModel.fit([[0.0], [1.0], [2.0], [3.0]], [False, False, True, True], features=("x",), l2=0.0)
    with pytest.raises(FormatError, match="all 2 training pairs are paraphrases"):  # data, not a setting
        LogisticModel.fit([[0.0], [1.0]], [True, True], features=("x",), l2=1.0)
    model = LogisticModel.fit([[0.0], [1.0], [2.0], [3.0]], [False, False, True, True], features=("x",), l2=1.0)
    with pytest.raises(ValueError, match="expected 1 features"):
        model.probability([1.0, 2.0])


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_a_feature_that_is_not_a_finite_number_is_named_not_taken_for_separable_classes(bad):
    rows, labels = _synthetic(40, 2)
    rows = [list(r) for r in rows]
    rows[6][1] = bad  # was "does not converge on these 40 training pairs (separable classes?)"
    with pytest.raises(FormatError, match=r"feature 'b' of training pair 7 is (nan|inf), not a finite number"):
        LogisticModel.fit(rows, labels, features=("a", "b", "noise"))


def test_a_constant_feature_does_not_break_the_fit():
    rows, labels = _synthetic(200, 2)
    model = LogisticModel.fit([[*r, 5.0] for r in rows], labels, features=("a", "b", "noise", "constant"))
    assert model.weights[3] == pytest.approx(0.0, abs=1e-6)
    assert 0.0 <= model.probability([0, 0, 0, 5.0]) <= 1.0


def test_logistic_weights_report_divergence():
    import numpy as np

    design = np.column_stack([np.ones(4), np.array([0.0, 1.0, 2.0, 3.0])])
    assert logistic_weights(design, np.array([0.0, 0.0, 1.0, 1.0])) is None
    w = logistic_weights(design, np.array([0.0, 1.0, 0.0, 1.0]))
    assert w is not None and w[1] > 0


def test_cross_validating_a_one_feature_model_matches_thresholding_that_feature():
    """A one-feature model with a positive slope ranks pairs like the feature itself, so the
    same folds and rule must give the same held-out predictions."""
    rng = random.Random(3)
    labels = [rng.random() < 0.65 for _ in range(400)]
    scores = [min(1.0, max(0.0, rng.gauss(0.7 if g else 0.5, 0.15))) for g in labels]
    by_threshold = cross_validate_threshold(scores, labels, "lowest", folds=5, repeats=3, seed=4)
    by_model = cross_validate_model(
        [[s] for s in scores], labels, "lowest", features=("score",), folds=5, repeats=3, seed=4, l2=0.0
    )
    assert by_model.repeat_accuracies == pytest.approx(by_threshold.repeat_accuracies)
    assert by_model.held_out == by_threshold.held_out
    with pytest.raises(ValueError, match="labels"):
        cross_validate_model([[0.1]], [True, False])


def test_cross_validation_refits_the_model_on_each_fold():
    """Held-out accuracy on pure noise stays near chance; the in-sample fit would look better."""
    rng = random.Random(5)
    rows = [[rng.gauss(0, 1) for _ in range(12)] for _ in range(120)]
    labels = [rng.random() < 0.5 for _ in rows]
    model = LogisticModel.fit(rows, labels, features=tuple(f"x{i}" for i in range(12)), l2=0.0)
    in_sample = sum((model.probability(r) > 0.5) == g for r, g in zip(rows, labels, strict=True)) / len(rows)
    cv = cross_validate_model(rows, labels, "lowest", features=model.features, folds=5, repeats=5, seed=0, l2=0.0)
    assert cv.accuracy < in_sample - 0.05


@pytest.mark.usefixtures("batch_on_dask")
def test_features_of_a_batch_are_the_same_with_worker_processes():
    from functools import partial

    from paralign.aligners.batch import AlignedBatch, PairFailure
    from paralign.similarity import map_aligned

    pairs = [
        _pair("rebels attacked the convoy", "the convoy was attacked", [(1, 3), (3, 1)]),
        _pair("a big cat sat on the mat", "the cat sat", [(2, 1), (3, 2), (5, 0)]),
        None,
        _pair("Smith sold 300 shares", "Smith did not sell 400 shares", [(0, 0), (1, 3), (3, 5)]),
    ] * 5
    batch = AlignedBatch(tuple(pairs), tuple(PairFailure(k, "no parse") for k in range(2, 20, 4)))
    featurise = partial(pair_features, features=FEATURES)
    ticks: list[int] = []
    serial, serial_failures = map_aligned(batch, featurise, "features")
    parallel, parallel_failures = map_aligned(batch, featurise, "features", ticks.append, workers=2, chunk_size=3)
    assert parallel == serial and parallel_failures == serial_failures
    assert [v is None for v in serial] == [p is None for p in pairs] and sum(ticks) == len(pairs)
    with pytest.raises(ConfigurationError, match="unknown paraphrase feature"):
        map_aligned(batch, partial(pair_features, features=("bogus",)), "features", workers=2, chunk_size=3)


def test_a_report_written_to_a_file_names_its_cross_encoder_relative_to_itself(tmp_path):
    """report_relative_to: the saved cross-encoder's directory relative to the report's own
    directory (.. included), unchanged on stdout, and a report without one is left as it is."""
    from paralign.similarity.model import report_relative_to

    report = {"threshold": 0.5, "cross_encoder": {"directory": str(tmp_path / "models" / "ce"), "sha256": "ab"}}
    assert report_relative_to(report, tmp_path / "report.json")["cross_encoder"] == {"directory": "models/ce",
                                                                                     "sha256": "ab"}
    assert report_relative_to(report, tmp_path / "out" / "r.json")["cross_encoder"]["directory"] == "../models/ce"
    assert report["cross_encoder"]["directory"] == str(tmp_path / "models" / "ce")  # not changed in place
    for stdout in (None, "-", "/dev/stdout"):
        assert report_relative_to(report, stdout) is report
    assert report_relative_to({"cross_encoder": None}, tmp_path / "r.json") == {"cross_encoder": None}


def test_a_paraphrase_report_of_the_hybrid_signal_is_a_paraphrase_classifier(tmp_path):
    """evaluate-paraphrase --signal hybrid writes "signal": "hybrid" with its threshold, and
    load_model_report took every report of that signal for evaluate-sts's: 'not a hybrid model
    (not a hybrid model)', as such a report keeps no fitted blend (it used the shipped one). Only
    a report without a threshold (evaluate-sts's) is read as a fitted blend."""
    from paralign.similarity.model import load_model_report

    path = tmp_path / "report.json"
    path.write_text(json.dumps({"threshold": 0.6, "classifier": "signal", "signal": "hybrid", "aligner": "exact",
                                "model": None}), encoding="utf-8")
    trained, _ = load_model_report(str(path))
    assert (trained.threshold, trained.aligner, trained.signal.name) == (0.6, "exact", "hybrid")


@pytest.mark.parametrize("l2", [math.nan, math.inf, -1.0, "1"])
def test_an_l2_that_is_not_a_finite_number_at_least_zero_is_refused_before_aligning(l2) -> None:
    """API audit: `evaluate_paraphrase(train, test, l2=nan)` aligned every pair, then said 'the
    logistic model does not converge ... even with l2 = nan: try a larger one'; l2=-1 too was
    refused only after the alignment."""
    from paralign.similarity.paraphrase import evaluate_paraphrase

    def never(source, target):
        raise AssertionError("aligned before l2 was checked")

    train = [("a cat sat", "a cat sat", True), ("b c d", "x y z", False)]
    with pytest.raises(ConfigurationError, match="l2 must be a finite number >= 0"):
        evaluate_paraphrase(train, train, l2=l2, aligner=never)
    with pytest.raises(ConfigurationError, match="l2 must be a finite number >= 0"):
        LogisticModel.fit([[0.0], [1.0]], [False, True], features=("content",), l2=l2)


def test_overlap_features_read_tokens_as_they_show():
    """Token lists the same but for their normal form (NFC "café", NFD "cafe" + U+0301) and an
    invisible character (a soft hyphen) shared no word and few character n-grams: BLEU
    precisions 0 and TER 1, where the aligners, reading a given token as it shows
    (shown_text.shown_form), link every word. They score as the same sentence now."""
    import unicodedata

    words = ("café", "résumé", "naïve", "über")
    nfc = Sentence(words)
    nfd = Sentence(tuple(unicodedata.normalize("NFD", w) for w in words[:3]) + ("ü\u00adber",))
    assert overlap_features(nfc, nfd) == pytest.approx(overlap_features(nfc, nfc))


@pytest.mark.parametrize("report", [
    {"threshold": 0.5, "classifier": "features", "aligner": "exact",
     "model": {"kind": "logistic", "l2": 1.0, "intercept": 0.0, "features": [
         {"name": name, "weight": 1.0, "mean": 0.0, "scale": 1.0} for name in ("content", "embedding")]}},
    {"threshold": 0.5, "classifier": "signal", "signal": "embedding", "aligner": "exact"},
], ids=["encoder features", "neural signal"])
def test_a_model_whose_neural_part_cannot_run_is_refused_naming_it_before_any_pair(report, tmp_path, monkeypatch,
                                                                                  capsys):
    """Audit: `similarity --model R` of a model over encoder features (evaluate-paraphrase
    --feature-set alignment+mt+embedding) or of a neural signal, without the neural extra,
    aligned the first block of pairs (512; 6 s for MSRP's first 100 test pairs) and then said only
    'the contextual encoder needs the optional extra ...', not that the model in R needs it
    (evaluate-paraphrase and similarity --signal embedding say it before any pair); a report of
    the embedding signal said it as a data error (exit 1), 'R: the report's signal: the contextual
    encoder needs ...', as if the report were edited. Loading the report now checks the encoder
    its scores need, and the error names the report (a missing extra: exit 2, as everywhere)."""
    from paralign.errors import ExtraMissingError
    from paralign.neural import encoder
    from paralign.similarity.model import load_model_report

    def missing():
        raise ExtraMissingError("the contextual encoder", missing="torch")

    monkeypatch.setattr(encoder, "_require", missing)  # as without torch, whether it is installed or not
    path = tmp_path / "neural.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    with pytest.raises(ExtraMissingError, match=rf"the model in {path} .*pip install 'paralign\[neural\]'"):
        load_model_report(str(path))
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A dog sleeps.\tA dog sleeps.\n", encoding="utf-8")
    from paralign.cli import main
    from paralign.similarity import rows  # where the command's rows are scored

    monkeypatch.setattr(rows, "similarity_many", lambda *a, **k: pytest.fail("a pair was scored first"))
    assert main(["similarity", "--model", str(path), "--pairs", str(pairs)]) == 2  # a missing extra: exit 2
    err = capsys.readouterr().err
    assert err.startswith(f"paralign similarity: error: the model in {path}") and err.count("\n") == 1


@pytest.mark.parametrize("edit", ["threshold", "weight", "intercept", "hybrid weight", "hybrid top"])
@pytest.mark.parametrize("value", [True, "0.5"])
def test_a_saved_number_that_is_not_a_json_number_is_refused_naming_the_report(edit, value, tmp_path) -> None:
    """Audit: a report's numbers were read with float(), so a hand edit's `true` or `"0.5"` was
    taken as 1.0 or 0.5: `"threshold": true` labelled every pair 0 without a word (exit 0), a
    `true` weight or `"top": "5"` scored. Each is now a FormatError naming the report, as a NaN
    or a missing number is."""
    from paralign.similarity.model import load_model_report

    model = {"kind": "logistic", "l2": 1.0, "intercept": 0.0,
             "features": [{"name": "content", "weight": 1.0, "mean": 0.5, "scale": 0.2}]}
    report: dict = {"threshold": 0.5, "classifier": "features", "aligner": "exact", "model": model}
    hybrid = {"kind": "hybrid", "l2": 1.0, "intercept": 2.5, "top": 5.0,
              "signals": [{"name": "all-words", "weight": 1.0, "mean": 0.5, "scale": 0.2}]}
    sts = {"sets": [], "signal": "hybrid", "aligner": "exact", "model": hybrid}
    path = tmp_path / "report.json"
    for good in (report, sts):  # as saved, each loads
        path.write_text(json.dumps(good), encoding="utf-8")
        load_model_report(str(path))
    target, key = {"threshold": (report, "threshold"), "weight": (model["features"][0], "weight"),
                   "intercept": (model, "intercept"), "hybrid weight": (hybrid["signals"][0], "weight"),
                   "hybrid top": (hybrid, "top")}[edit]
    target[key] = value
    path.write_text(json.dumps(sts if edit.startswith("hybrid") else report), encoding="utf-8")
    with pytest.raises(FormatError, match=rf"^{path}: .*{value!r}.* not a (finite )?number"):
        load_model_report(str(path))


def test_a_model_signal_named_with_a_bar_is_refused_where_it_is_made() -> None:
    """ModelSignal and BlendedSignal take a name, the signature's ``signal`` part: ``a|b`` would be
    read back as two parts; refused naming the field, as every signal's name is."""
    from paralign.similarity.model import BlendedSignal, ModelSignal

    model = LogisticModel(("content",), (0.0,), (1.0,), (1.0,), 0.0)
    with pytest.raises(ConfigurationError, match=r"^ModelSignal name: 'a\|b' holds '\|'"):
        ModelSignal(model, name="a|b")
    with pytest.raises(ConfigurationError, match=r"^BlendedSignal name: 'a\|b' holds '\|'"):
        BlendedSignal(model, cross_encoder=None, name="a|b")
    assert ModelSignal(model, name="mine:1").name == "mine:1"
