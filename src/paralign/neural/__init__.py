"""Contextual evidence from a neural encoder (the optional extra: pip install 'paralign[neural]').

`Encoder` gives word and sentence vectors; `CrossEncoder` is the encoder fine-tuned as a pair
classifier. Importing this package imports neither torch nor transformers; they load on first use.
"""

from ..settings import DEVICE_FORMS, DEVICES
from .cross_encoder import CrossEncoder, FineTuning
from .encoder import EncodedSentence, Encoder
from .model_files import model_directory

__all__ = [
    "DEVICES", "DEVICE_FORMS", "CrossEncoder", "EncodedSentence", "Encoder", "FineTuning", "check_encoder",
    "model_directory",
]


def check_encoder(model: str | None, device: str) -> None:
    """An ExtraMissingError without the neural extra (or the default model's package), a
    ConfigurationError for a bad device or a `model` that is neither an installed model package
    nor a model directory: what a server asked for an encoder is told at start-up, not on the
    first request. Nothing is loaded."""
    Encoder(model, device=device)  # the extra, the name and the device
    model_directory(model)  # the model itself: a package installed, or a directory with its config.json
