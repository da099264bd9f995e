"""Contextual evidence from a neural encoder (the optional extra: pip install 'paralign[neural]').

`Encoder` gives word and sentence vectors; `CrossEncoder` is the encoder fine-tuned as a pair
classifier. Importing this package imports neither torch nor transformers; they load on first use.
"""

from ..settings import DEVICE_FORMS, DEVICES
from .cross_encoder import CrossEncoder, FineTuning
from .encoder import EncodedSentence, Encoder, model_directory

__all__ = ["DEVICES", "DEVICE_FORMS", "CrossEncoder", "EncodedSentence", "Encoder", "FineTuning", "model_directory"]
