"""Moved to :mod:`paralign.similarity.features` and :mod:`paralign.similarity.model`; this
path is removed in paralign 0.3."""

from ._moved import moved_names

__getattr__ = moved_names(
    __name__,
    {
        "ALIGNMENT_FEATURES": "paralign.similarity.features",
        "OVERLAP_FEATURES": "paralign.similarity.features",
        "FEATURES": "paralign.similarity.features",
        "FEATURE_SETS": "paralign.similarity.features",
        "DEFAULT_FEATURE_SET": "paralign.similarity.features",
        "alignment_features": "paralign.similarity.features",
        "overlap_features": "paralign.similarity.features",
        "pair_features": "paralign.similarity.features",
        "feature_set": "paralign.similarity.features",
        "logistic_weights": "paralign.similarity.model",
        "LogisticModel": "paralign.similarity.model",
        "ModelSignal": "paralign.similarity.model",
        "TrainedClassifier": "paralign.similarity.model",
    },
)
