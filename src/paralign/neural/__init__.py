"""Contextual evidence from a neural encoder (the optional extra: pip install 'paralign[neural]').

Importing this package imports neither torch nor transformers; they load on first use.
"""

from .encoder import DEVICES, EncodedSentence, Encoder, model_directory

__all__ = ["DEVICES", "EncodedSentence", "Encoder", "model_directory"]
