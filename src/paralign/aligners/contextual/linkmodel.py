"""The link classifier of the contextual aligner: gradient-boosted trees read from JSON, run in numpy.

:class:`LinkModel` holds the fitted trees, the names of the features they read (checked against
:data:`.features.FEATURES`), the settings the features were computed with (encoder layer, top-k,
final-pass threshold), an optional second round (:attr:`LinkModel.stack`: trees that read the
features again beside the first round's probabilities of the link and its neighbours,
:func:`.features.stack_features`) and the decision threshold, all chosen on training splits only by
``scripts/train_link_model.py``, which writes the JSON file shipped in ``paralign/data/``.
Prediction needs only numpy: no scikit-learn and no pickle at run time.

Not for: computing features (:mod:`.features`) or fitting (the training script).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import ConfigurationError, FormatError, invalid_json, shown_value
from ...textio import open_text, require_file, strip_bom
from .features import FEATURES, STACK_FEATURES, check_top_k, with_stack_features

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
    #: The second round (features :data:`FEATURES` + :data:`STACK_FEATURES`), or None.
    stack: LinkModel | None = None

    def probability(self, x: np.ndarray) -> np.ndarray:
        """The probability that each row of `x` (columns in `features` order) is a gold link.

        Tree by tree, all rows at once, each tree walked only as deep as it goes."""
        rows = np.arange(x.shape[0])
        columns = np.ascontiguousarray(x.T)
        raw = np.full(x.shape[0], self.baseline)
        for k, depth in enumerate(self.depths):
            feature, threshold = self.feature[k], self.threshold_at[k]
            left, right = self.left[k], self.right[k]
            node = np.zeros(x.shape[0], dtype=np.int64)
            for _ in range(depth):
                node = np.where(columns[feature[node], rows] <= threshold[node], left[node], right[node])
            raw += self.value[k][node]
        return 1.0 / (1.0 + np.exp(-raw))

    def pair_probabilities(self, x: np.ndarray, links: np.ndarray, groups: np.ndarray,
                           shapes: list[tuple[int, int]]) -> np.ndarray:
        """The probability of every candidate of many pairs, through both rounds when the model
        has a second one. `x`: the :data:`FEATURES` rows of all candidates; `links`: their (i, j);
        `groups`: each row's pair number (ascending, rows of a pair together); `shapes`: each pair's
        sentence lengths (n, m)."""
        first = self.probability(x)
        if self.stack is None or len(first) == 0:
            return first
        return self.stack.probability(with_stack_features(x, links, groups, shapes, first))

    @property
    def depths(self) -> list[int]:
        """How deep each tree goes (steps from its root to its deepest leaf)."""
        cached = self.__dict__.get("_depths")
        if cached is None:
            cached = [_depth(self.left[k], self.right[k]) for k in range(self.feature.shape[0])]
            self.__dict__["_depths"] = cached
        return cached

    # -- JSON -------------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<model>",
                  expected: tuple[str, ...] = FEATURES) -> LinkModel:
        """A model from its JSON form (written by ``scripts/train_link_model.py``; an optional
        ``"stack"`` object holds the second round's trees); wrong features, a decision threshold
        that is no probability, or a setting the aligner cannot use (:func:`_check_settings`),
        are a FormatError naming `source`; so is a form of another shape (not an object, a key
        missing, no trees, a value of the wrong kind), not the KeyError, TypeError or
        ValueError met on the way (as :meth:`load` said of a file, but not of a dict)."""
        if not isinstance(data, dict):
            raise FormatError(f"not a {FORMAT} file: a JSON {type(data).__name__}, not an object", source=source)
        try:
            return cls._read(data, source, expected)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            if isinstance(exc, FormatError):
                raise
            what = f"no {exc.args[0]!r} key" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
            raise FormatError(f"not a valid {FORMAT} file ({what})", source=source) from None

    @classmethod
    def _read(cls, data: dict[str, Any], source: str, expected: tuple[str, ...]) -> LinkModel:
        """:meth:`from_dict` of an object, the errors of a wrong shape left to it to name."""
        if data.get("format") != FORMAT:
            raise FormatError(f"not a {FORMAT} file", source=source)
        features = tuple(data["features"])
        if features != expected:
            raise FormatError("the model's features are not this paralign's link features: "
                              + _feature_difference(features, expected), source=source)
        stack = None
        if data.get("stack") is not None:
            inner = {"format": FORMAT, "threshold": data["threshold"], **data["stack"]}
            stack = cls.from_dict(inner, source, FEATURES + STACK_FEATURES)
        if not _is_finite_number(data["baseline"]):
            raise FormatError(f"baseline {shown_value(data['baseline'])} is not a finite number", source=source)
        trees = data["trees"]
        if not isinstance(trees, list) or not trees or not all(isinstance(tree, dict) for tree in trees):
            raise FormatError("trees: not a non-empty list of tree objects", source=source)
        depth = data["depth"]
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise FormatError(f"depth {shown_value(depth)} is not a whole number >= 0", source=source)
        for number, tree in enumerate(trees, start=1):
            _check_tree(tree, len(features), f"tree {number}", source)
        width = max(len(tree["feature"]) for tree in trees)

        def pad(key: str, dtype: type, fill: float) -> np.ndarray:
            out: np.ndarray = np.full((len(trees), width), fill, dtype=dtype)
            for k, tree in enumerate(trees):
                out[k, : len(tree[key])] = tree[key]
            return out

        threshold = data["threshold"]
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 <= threshold <= 1:
            raise FormatError(f"threshold {shown_value(threshold)} is not a probability (a number in [0, 1])",
                              source=source)
        settings = dict(data.get("settings", {}))
        try:
            _check_settings(settings)
        except ConfigurationError as exc:
            raise FormatError(f"settings: {exc}", source=source) from None
        return cls(
            features, float(data["baseline"]), pad("feature", np.int64, 0),
            pad("threshold", np.float64, np.inf), pad("left", np.int64, 0),
            pad("right", np.int64, 0), pad("value", np.float64, 0.0), depth,
            float(threshold), settings, stack,
        )

    @classmethod
    def load(cls, path: str | Path | None = None) -> LinkModel:
        """The model in `path`, or the one shipped with paralign. A user's file that cannot be
        read, is not JSON or is not a model (a key missing, a value of the wrong kind) is an
        InputFileError or a FormatError naming it, as every input of paralign is, not the
        OSError, JSONDecodeError or KeyError met on the way."""
        if path is None:
            text = resources.files("paralign").joinpath("data", MODEL_FILE).read_text("utf-8")
            return cls.from_dict(json.loads(text), MODEL_FILE)
        name = str(path)
        with open_text(require_file(path)) as handle:  # OSError and bad UTF-8 name the file (and line)
            text = strip_bom(handle.read())
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise FormatError(invalid_json(exc), source=name, line=exc.lineno) from None
        return cls.from_dict(data, name)


def _feature_difference(features: tuple[object, ...], expected: tuple[str, ...]) -> str:
    """What differs between a model's feature names and this paralign's: the first column
    (1-based) that differs, and the counts when they differ (a model fitted before a feature was
    added or renamed is told by its name, not a bare "not this paralign's features")."""
    counts = f" ({len(features)} features, this paralign has {len(expected)})" if len(features) != len(expected) else ""
    for column, (got, want) in enumerate(zip(features, expected, strict=False), start=1):
        if got != want:
            return f"column {column} is {shown_value(got)} where {want!r} is expected{counts}"
    if len(features) < len(expected):
        return f"{', '.join(map(repr, expected[len(features):][:3]))}... missing at the end{counts}"
    return f"{shown_value(features[len(expected)])} and the rest extra at the end{counts}"


def _check_settings(settings: dict[str, Any]) -> None:
    """ConfigurationError naming the first setting the aligner could not use: ``top_k`` not a
    positive int, ``layer`` not an int (an index of the encoder's hidden states, negative from
    the last), ``final_threshold`` not a finite number. A bad ``layer`` or ``final_threshold``
    loaded and failed later, where ContextualAligner was built (a bare ValueError naming no file),
    or a threshold of ``"inf"``/``NaN`` silently took no link in the final pass."""
    if "top_k" in settings:
        check_top_k(settings["top_k"])
    layer = settings.get("layer", 0)
    if isinstance(layer, bool) or not isinstance(layer, int):
        raise ConfigurationError(f"the link model's layer setting must be an int, not {shown_value(layer)}")
    threshold = settings.get("final_threshold", 0.0)
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not math.isfinite(threshold):
        raise ConfigurationError(
            f"the link model's final_threshold setting must be a finite number, not {shown_value(threshold)}")


def _check_tree(tree: dict[str, Any], features: int, name: str, source: str) -> None:
    """FormatError unless `tree`'s five lists are of one length, its features columns of the
    model's rows, its thresholds and values finite numbers (:func:`_is_finite_number`), its
    children nodes of its own and its walk from the root ends (a leaf points to itself): a damaged file was an IndexError at the first pair aligned, a negative child
    another node read from the end, a short list padded with zeros, a cycle a walk that never
    ended."""
    size = len(tree["feature"])
    if not size or any(len(tree[key]) != size for key in ("threshold", "left", "right", "value")):
        raise FormatError(f"{name}: its feature, threshold, left, right and value lists differ in "
                          "length (or are empty)", source=source)
    for key, bound in (("feature", features), ("left", size), ("right", size)):
        for value in tree[key]:
            if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value) \
                    or not 0 <= value < bound:
                raise FormatError(f"{name}: {key} {value!r} is not in 0..{bound - 1}", source=source)
    for key in ("threshold", "value"):
        for value in tree[key]:
            if not _is_finite_number(value):
                raise FormatError(f"{name}: {key} {shown_value(value)} is not a finite number", source=source)
    left, right = [int(v) for v in tree["left"]], [int(v) for v in tree["right"]]
    level, frontier = 0, {0}
    while frontier:  # as _depth walks it
        frontier = {c for n in frontier if left[n] != n or right[n] != n for c in (left[n], right[n])}
        level += 1
        if level > size:
            raise FormatError(f"{name}: its nodes make a cycle", source=source)


def _is_finite_number(value: object) -> bool:
    """Whether `value` is a finite int or float (not a bool): a tree's split or leaf value, the
    baseline. Python's json reads NaN and Infinity: a NaN leaf or baseline made every
    probability NaN (no link kept), an infinite one 1 or 0, a NaN split sent every row right,
    and a str such as "0.5" was read as a number by numpy."""
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _depth(left: np.ndarray, right: np.ndarray) -> int:
    """Steps from node 0 to the deepest leaf (a leaf points to itself)."""
    deepest, level, frontier = 0, 0, [0]
    while frontier:
        inner = [n for n in frontier if left[n] != n or right[n] != n]
        if not inner:
            return deepest
        level += 1
        deepest = level
        frontier = list({int(c) for n in inner for c in (left[n], right[n])})  # a node reached twice: once
    return deepest
