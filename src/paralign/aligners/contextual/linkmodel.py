"""The link classifier of the contextual aligner: gradient-boosted trees read from JSON, run in numpy.

:class:`LinkModel` holds the fitted trees, the names of the features they read (checked against
:data:`.features.FEATURES`), the settings the features were computed with (encoder layer, top-k,
final-pass threshold) and the decision threshold, all chosen on training splits only by
``scripts/train_link_model.py``, which writes the JSON file shipped in ``paralign/data/``.
Prediction needs only numpy: no scikit-learn and no pickle at run time.

Not for: computing features (:mod:`.features`) or fitting (the training script).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import FormatError
from .features import FEATURES

#: The model file shipped with paralign (fitted on MSR RTE2 dev, Edinburgh++ train and
#: MultiMWA-MTRef train).
MODEL_FILE = "contextual_links.json"
FORMAT = "paralign-link-model"


@dataclass(frozen=True, eq=False)
class LinkModel:
    """Boosted regression trees over link features; `probability` is the sigmoid of their sum.

    Trees are stored as flat arrays padded to one width: `feature`, `threshold` (x <= threshold
    goes left), `left`, `right` and `value` (a leaf points to itself and carries its value)."""

    features: tuple[str, ...]
    baseline: float
    feature: np.ndarray
    threshold_at: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    depth: int
    threshold: float
    settings: dict[str, Any] = field(default_factory=dict)

    def probability(self, x: np.ndarray) -> np.ndarray:
        """The probability that each row of `x` (columns in `features` order) is a gold link."""
        if x.shape[0] == 0:
            return np.zeros(0)
        trees = self.feature.shape[0]
        node = np.zeros((x.shape[0], trees), dtype=np.int64)
        tree_index = np.arange(trees)[None, :]
        rows = np.arange(x.shape[0])[:, None]
        for _ in range(self.depth):
            feature = self.feature[tree_index, node]
            go_left = x[rows, feature] <= self.threshold_at[tree_index, node]
            node = np.where(go_left, self.left[tree_index, node], self.right[tree_index, node])
        raw = self.baseline + self.value[tree_index, node].sum(axis=1)
        return 1.0 / (1.0 + np.exp(-raw))

    # -- JSON -------------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<model>") -> LinkModel:
        """A model from its JSON form (see :meth:`to_dict`); wrong features are a FormatError."""
        if data.get("format") != FORMAT:
            raise FormatError(f"not a {FORMAT} file", source=source)
        features = tuple(data["features"])
        if features != FEATURES:
            raise FormatError("the model's features are not this paralign's link features",
                              source=source)
        trees = data["trees"]
        width = max(len(tree["feature"]) for tree in trees)

        def pad(key: str, dtype: type, fill: float) -> np.ndarray:
            out = np.full((len(trees), width), fill, dtype=dtype)
            for k, tree in enumerate(trees):
                out[k, : len(tree[key])] = tree[key]
            return out

        return cls(
            features, float(data["baseline"]), pad("feature", np.int64, 0),
            pad("threshold", np.float64, np.inf), pad("left", np.int64, 0),
            pad("right", np.int64, 0), pad("value", np.float64, 0.0), int(data["depth"]),
            float(data["threshold"]), dict(data.get("settings", {})),
        )

    @classmethod
    def load(cls, path: str | Path | None = None) -> LinkModel:
        """The model in `path`, or the one shipped with paralign."""
        if path is None:
            text = resources.files("paralign").joinpath("data", MODEL_FILE).read_text("utf-8")
            return cls.from_dict(json.loads(text), MODEL_FILE)
        return cls.from_dict(json.loads(Path(path).read_text("utf-8")), str(path))
