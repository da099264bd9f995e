"""One encoder and device for every neural part of a similarity run: the ``contextual-alignment``
signal, the hybrid's neural components, the encoder features and the saved models take them,
keep them through pickling (Dask workers) and name the encoder in the signature. No model is
loaded here (an encoder is named without loading it); tests/cli/test_encoder_options.py runs
the real one."""

from __future__ import annotations

import importlib.util
import pickle
from pathlib import Path

import pytest

from paralign.aligners.registry import get_aligner
from paralign.errors import ConfigurationError
from paralign.similarity import make_signal
from paralign.similarity.hybrid import HybridSignal, default_model
from paralign.similarity.signature import paraphrase_signature, similarity_signature, uses_encoder

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the neural extra is not installed")


def encoder_part(signature: str) -> str:
    return dict(part.split(":", 1) for part in signature.split("|"))["encoder"]


@pytest.fixture
def encoder_dir(tmp_path: Path) -> str:
    """A local model directory by another name (named in signatures without loading it)."""
    folder = tmp_path / "my-encoder"
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    return str(folder)


def test_contextual_alignment_builds_its_aligner_on_the_encoder_and_device(encoder_dir: str) -> None:
    signal = make_signal("contextual-alignment", model=encoder_dir, device="cpu")
    assert signal.aligner.encoder.model == encoder_dir and signal.aligner.encoder.requested_device == "cpu"
    again = pickle.loads(pickle.dumps(signal))  # a Dask worker's copy
    assert again.model == encoder_dir and again.device == "cpu"
    assert again.aligner is signal.aligner  # one contextual aligner per (model, device) and process
    default = make_signal("contextual-alignment")
    assert default.aligner is not signal.aligner and default.aligner.encoder.model is None
    assert encoder_part(similarity_signature(signal)) == "my-encoder"


def test_contextual_alignment_takes_an_aligner_or_an_encoder_not_both(encoder_dir: str) -> None:
    with pytest.raises(ConfigurationError, match="not both"):
        make_signal("contextual-alignment", aligner=get_aligner("exact"), model=encoder_dir)
    with pytest.raises(ConfigurationError, match="device"):
        make_signal("contextual-alignment", device="gpu")


def test_the_hybrid_passes_the_encoder_and_device_to_its_neural_components(encoder_dir: str) -> None:
    hybrid = make_signal("hybrid", encoder=encoder_dir, device="cpu")
    neural = [c for c in hybrid.components if c.name == "embedding"]
    assert neural and all(c.model == encoder_dir and c.device == "cpu" for c in neural)
    again = pickle.loads(pickle.dumps(hybrid))
    assert [(c.model, c.device) for c in again.components if c.name == "embedding"] == [(encoder_dir, "cpu")]
    assert encoder_part(similarity_signature(hybrid)) == "my-encoder"
    assert [getattr(c, "model", None) for c in HybridSignal(default_model()).components] == [None, None]


def test_encoder_features_are_one_instance_per_encoder_and_device(encoder_dir: str) -> None:
    from paralign.similarity.features import embedding_features

    assert embedding_features() is embedding_features(None, "auto")  # the default, however asked for
    chosen = embedding_features(encoder_dir, "cpu")
    assert chosen is embedding_features(encoder_dir, "cpu") and chosen is not embedding_features()
    assert (chosen.model, chosen.device) == (encoder_dir, "cpu")
    again = pickle.loads(pickle.dumps(chosen))
    assert (again.model, again.device) == (encoder_dir, "cpu")


def test_the_paraphrase_signature_names_the_encoder_the_features_ran(encoder_dir: str, monkeypatch) -> None:
    asked = paraphrase_signature(classifier="features", rule="lowest", aligner="exact",
                                 feature_set="alignment+mt+embedding", l2=10.0, encoder=encoder_dir)
    assert encoder_part(asked) == "my-encoder"
    monkeypatch.setenv("PARALIGN_ENCODER", encoder_dir)  # the setting and the argument agree
    assert paraphrase_signature(classifier="features", rule="lowest", aligner="exact",
                                feature_set="alignment+mt+embedding", l2=10.0) == asked
    signal = make_signal("embedding", model=encoder_dir)
    assert encoder_part(paraphrase_signature(classifier="signal", rule="lowest", aligner="exact",
                                             signal=signal)) == "my-encoder"


def test_a_saved_features_model_runs_and_names_the_encoder_given(encoder_dir: str) -> None:
    from paralign.similarity.features import EMBEDDING_FEATURES, FEATURES
    from paralign.similarity.model import LogisticModel, ModelSignal

    def fitted(names: tuple[str, ...]) -> LogisticModel:
        rows = [[float(i % 2) + 0.01 * j for j in range(len(names))] for i in range(6)]
        return LogisticModel.fit(rows, [bool(i % 2) for i in range(6)], features=names, l2=1.0)

    signal = ModelSignal(fitted(FEATURES + EMBEDDING_FEATURES), encoder=encoder_dir, device="cpu")
    assert encoder_part(similarity_signature(signal, "exact")) == "my-encoder"
    assert uses_encoder(signal, "exact") and not uses_encoder(ModelSignal(fitted(FEATURES)), "exact")


def test_what_uses_the_encoder() -> None:
    assert uses_encoder(make_signal("embedding"))
    assert uses_encoder(make_signal("hybrid"))  # the shipped blend's embedding
    assert not uses_encoder(make_signal("sultan2014"), get_aligner("sultan"))
    assert uses_encoder(make_signal("sultan2014"), get_aligner("sultan", "contextual"))
    assert not uses_encoder(make_signal("numbers"), get_aligner("exact"))
