"""Contextual evidence from a neural encoder (the optional extra: pip install 'paralign[neural]').

`Encoder` gives word and sentence vectors; `CrossEncoder` is the encoder fine-tuned as a pair
classifier. Importing this package imports neither torch nor transformers, which load on first
use, nor numpy: `Encoder`, `EncodedSentence`, `CrossEncoder` and `FineTuning` are imported on
first use, so that the command line can name a model (`--encoder`, checked as it is parsed:
:func:`.model_files.encoder_id`) without the 50-60 ms of numpy on every such command's start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._moved import first_use_names
from ..settings import DEVICE_FORMS, DEVICES
from .model_files import model_directory

if TYPE_CHECKING:  # pragma: no cover - imported on first use (_LAZY)
    from .cross_encoder import CrossEncoder, FineTuning
    from .encoder import EncodedSentence, Encoder

__all__ = [
    "DEVICES", "DEVICE_FORMS", "CrossEncoder", "EncodedSentence", "Encoder", "FineTuning", "check_encoder",
    "model_directory",
]

#: The module (of this package) of each name imported on first use: they import numpy.
_LAZY: dict[str, str] = {
    "CrossEncoder": "cross_encoder",
    "FineTuning": "cross_encoder",
    "EncodedSentence": "encoder",
    "Encoder": "encoder",
}


def check_encoder(model: str | None, device: str, *, check_gpu: bool = True) -> None:
    """An ExtraMissingError without the neural extra (or the default model's package), a
    ConfigurationError for a bad device or a `model` that is neither an installed model package
    nor a model directory: what a server asked for an encoder is told at start-up, not on the
    first request. Nothing is loaded.

    `check_gpu` False leaves a GPU torch does not see here unchecked (the device's form is still
    checked): the work goes to a Dask scheduler's workers, which have their own GPUs and say so
    where the model loads."""
    from .encoder import Encoder
    from .loading import check_device

    Encoder(model, device=device)  # the extra, the name and the device's form
    if check_gpu:
        check_device(device)  # a GPU torch does not see
    model_directory(model)  # the model itself: a package installed, or a directory with its config.json


__getattr__ = first_use_names(__name__, {name: f"{__name__}.{module}" for name, module in _LAZY.items()}, globals())
