"""The link classifier read from JSON and run in numpy (no scikit-learn at run time)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from paralign.aligners.contextual import FEATURES, LinkModel
from paralign.aligners.contextual.linkmodel import FORMAT
from paralign.errors import FormatError


def _model(**changes) -> dict:
    """Two hand-made trees: tree 1 splits on feature 0 at 0.5 (left -1, right +2), tree 2 is a
    depth-2 tree on features 1 then 2."""
    data = {
        "format": FORMAT, "features": list(FEATURES), "baseline": -0.5, "depth": 2, "threshold": 0.4,
        "trees": [
            {"feature": [0, 0, 0], "threshold": [0.5, 0, 0], "left": [1, 1, 2], "right": [2, 1, 2],
             "value": [0, -1.0, 2.0]},
            {"feature": [1, 2, 0, 0, 0], "threshold": [3.0, 0.0, 0, 0, 0], "left": [1, 2, 2, 3, 4],
             "right": [4, 3, 2, 3, 4], "value": [0, 0, 0.25, -0.25, 1.0]},
        ],
        "settings": {"layer": 3, "top_k": 3, "final_threshold": 0.5},
    }
    data.update(changes)
    return data


def _expected(row: np.ndarray) -> float:
    raw = -0.5 + (-1.0 if row[0] <= 0.5 else 2.0)
    raw += (0.25 if row[2] <= 0.0 else -0.25) if row[1] <= 3.0 else 1.0
    return 1 / (1 + np.exp(-raw))


def test_probability_walks_every_tree(tmp_path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_model()))
    model = LinkModel.load(path)
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 5, (50, len(FEATURES)))
    x[:5, 0] = 0.5  # on a threshold: goes left
    p = model.probability(x)
    assert np.allclose(p, [_expected(row) for row in x])
    assert model.threshold == 0.4 and model.settings["layer"] == 3
    assert model.probability(np.zeros((0, len(FEATURES)))).shape == (0,)


def test_a_file_that_is_not_a_link_model_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="not a paralign-link-model"):
        LinkModel.from_dict(_model(format="something else"))
    with pytest.raises(FormatError, match="features"):
        LinkModel.from_dict(_model(features=["sim"]))


@pytest.mark.parametrize(("text", "reason", "line"), [
    ('{"format": "paralign-link-model",\n "features": [}', "invalid JSON", 2),  # not JSON: at its line
    ("[1, 2]", "a JSON list, not an object", None),
    (json.dumps({k: v for k, v in _model().items() if k != "trees"}), "no 'trees' key", None),
    (json.dumps(_model(baseline="high")), "baseline 'high' is not a finite number", None),
    (json.dumps(_model(trees=[{"feature": 3}])), "TypeError", None),
])
def test_a_users_file_that_is_not_a_model_is_a_format_error_naming_it(tmp_path, text, reason, line) -> None:
    """LinkModel.load (ContextualAligner(model=PATH)) names the file, as every input's errors do:
    it was a JSONDecodeError, KeyError, ValueError or TypeError without the file's name."""
    path = tmp_path / "model.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        LinkModel.load(path)
    assert caught.value.source == str(path) and reason in str(caught.value)
    if line is not None:
        assert caught.value.line == line


def _tree(**changes) -> dict:
    tree = {"feature": [0, 0, 0], "threshold": [0.5, 0, 0], "left": [1, 1, 2], "right": [2, 1, 2],
            "value": [0, -1.0, 2.0]}
    return {**tree, **changes}


@pytest.mark.parametrize(("tree", "reason"), [
    (_tree(left=[1000, 1, 2]), "tree 2: left 1000 is not in 0..2"),
    (_tree(right=[-1, 1, 2]), "tree 2: right -1 is not in 0..2"),
    (_tree(feature=[len(FEATURES), 0, 0]), f"tree 2: feature {len(FEATURES)} is not in 0..{len(FEATURES) - 1}"),
    (_tree(value=[0, -1.0]), "tree 2: its feature, threshold, left, right and value lists differ in length"),
    (_tree(left=[1, 0, 2]), "tree 2: its nodes make a cycle"),
    (_tree(left=[1, 2, 2], right=[1, 2, 2]), None),  # two children the same node: no cycle
], ids=["child-past-the-end", "negative-child", "feature-past-the-end", "short-list", "cycle", "shared-child"])
def test_a_damaged_tree_is_a_format_error_at_load(tmp_path, tree, reason) -> None:
    """A child or feature out of range loaded, then was an IndexError at the first pair aligned;
    a negative child read another node from the end, a short value list was padded with zeros
    and a cycle (tree 2's node 1 pointing back to the root) walked without end."""
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_model(trees=[_model()["trees"][0], tree])), encoding="utf-8")
    if reason is None:
        assert LinkModel.load(path).depths == [1, 2]
        return
    with pytest.raises(FormatError, match=reason) as caught:
        LinkModel.load(path)
    assert caught.value.source == str(path)


def test_a_missing_model_file_is_an_input_file_error_naming_it(tmp_path) -> None:
    from paralign.errors import InputFileError

    with pytest.raises(InputFileError, match="nothing.json"):
        LinkModel.load(tmp_path / "nothing.json")


def test_the_shipped_model_loads_and_gives_probabilities() -> None:
    model = LinkModel.load()
    assert model.features == FEATURES and 0 < model.threshold < 1
    assert model.settings["layer"] >= 0 and model.feature.shape[0] >= 10
    p = model.probability(np.random.default_rng(1).uniform(0, 1, (200, len(FEATURES))))
    assert ((p >= 0) & (p <= 1)).all() and p.std() > 0
    from paralign.aligners.contextual.features import STACK_FEATURES

    assert model.stack is not None and model.stack.features == FEATURES + STACK_FEATURES


def test_a_second_round_reads_the_first_rounds_probabilities() -> None:
    """With a ``stack`` object the model scores again over the features and the first round's
    neighbour probabilities (`stack_features`); its features are checked too."""
    from paralign.aligners.contextual.features import STACK_FEATURES, stack_features

    p_column = len(FEATURES) + STACK_FEATURES.index("p_diagonal_max")
    stack = {"features": list(FEATURES + STACK_FEATURES), "baseline": 0.0, "depth": 1, "trees": [
        {"feature": [p_column, 0, 0], "threshold": [0.5, 0, 0], "left": [1, 1, 2], "right": [2, 1, 2],
         "value": [0, -3.0, 3.0]}]}
    model = LinkModel.from_dict(_model(stack=stack))
    rng = np.random.default_rng(2)
    links = np.array([(0, 0), (1, 1), (2, 2), (0, 2), (2, 0), (1, 0)])
    x = rng.uniform(-1, 5, (len(links), len(FEATURES)))
    groups = np.array([0, 0, 0, 1, 1, 1])
    got = model.pair_probabilities(x, links, groups, [(3, 3), (3, 3)])
    first = model.probability(x)
    extra = np.concatenate([stack_features(links[:3], first[:3], 3, 3), stack_features(links[3:], first[3:], 3, 3)])
    expected = 1 / (1 + np.exp(-np.where(extra[:, STACK_FEATURES.index("p_diagonal_max")] <= 0.5, -3.0, 3.0)))
    np.testing.assert_allclose(got, expected)
    assert np.array_equal(LinkModel.from_dict(_model()).pair_probabilities(x, links, groups, [(3, 3)] * 2), first)
    with pytest.raises(FormatError, match="features"):
        LinkModel.from_dict(_model(stack={**stack, "features": list(FEATURES)}))


@pytest.mark.parametrize("top_k", [-1, 0, 2.5, 3.0, "3", True, None])
def test_a_top_k_setting_that_is_not_a_positive_int_is_a_format_error_naming_the_file(tmp_path, top_k) -> None:
    """A negative top_k loaded and then sliced candidates off the end (all but the least similar
    word of each row), 0 took none: the classifier silently saw fewer candidates."""
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_model(settings={"layer": 3, "top_k": top_k, "final_threshold": 0.5})),
                    encoding="utf-8")
    with pytest.raises(FormatError, match="top_k setting must be a positive int") as caught:
        LinkModel.load(path)
    assert caught.value.source == str(path)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("layer", "x", "layer setting must be an int"), ("layer", 3.0, "layer setting must be an int"),
    ("layer", None, "layer setting must be an int"), ("final_threshold", "x", "final_threshold setting"),
    ("final_threshold", None, "final_threshold setting"), ("final_threshold", True, "final_threshold setting"),
])
def test_a_layer_or_final_threshold_setting_the_aligner_cannot_use_is_a_format_error_naming_the_file(
        tmp_path, name, value, message) -> None:
    """They loaded, and a bad one failed only where ContextualAligner was built, as a bare
    ValueError or TypeError naming no file."""
    settings = {"layer": 3, "top_k": 3, "final_threshold": 0.5, name: value}
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_model(settings=settings)), encoding="utf-8")
    with pytest.raises(FormatError, match=message) as caught:
        LinkModel.load(path)
    assert caught.value.source == str(path)


def test_a_final_threshold_that_is_not_finite_is_refused_and_good_settings_load() -> None:
    """JSON has no NaN or infinity, but Python's json writes and reads them: a threshold of NaN
    took no link in the final pass, without a word."""
    for bad in (float("nan"), float("inf")):
        with pytest.raises(FormatError, match="final_threshold"):
            LinkModel.from_dict(_model(settings={"layer": 3, "top_k": 3, "final_threshold": bad}))
    for layer, threshold in ((-1, 0), (3, 0.5), (0, 1)):
        model = LinkModel.from_dict(_model(settings={"layer": layer, "top_k": 3, "final_threshold": threshold}))
        assert model.settings["layer"] == layer


def test_a_top_k_given_to_the_candidates_is_a_positive_int() -> None:
    """candidates() with top_k -1 took every word but the least similar, 0 none of them."""
    from types import SimpleNamespace

    from paralign.aligners.contextual.features import candidates
    from paralign.errors import ConfigurationError

    sim = np.array([[0.9, 0.1, 0.2], [0.3, 0.8, 0.1]])
    evidence = SimpleNamespace(sim=sim, default=[], paraphrase=[])
    assert candidates(evidence, 1, set()) == [(0, 0), (0, 2), (1, 1)]  # type: ignore[arg-type]
    for top_k in (-1, 0, 1.0):
        with pytest.raises(ConfigurationError, match="top_k"):
            candidates(evidence, top_k, set())  # type: ignore[arg-type]


@pytest.mark.parametrize("threshold", [float("nan"), float("inf"), -0.1, 1.5, "0.5", True, None])
def test_a_decision_threshold_that_is_not_a_probability_is_a_format_error(threshold) -> None:
    """It loaded as it was: NaN kept no link (a comparison with NaN is false) and neither did
    1.5, -0.1 kept every candidate, "0.5" and True were read as numbers; all silently."""
    with pytest.raises(FormatError, match="threshold .* is not a probability"):
        LinkModel.from_dict(_model(threshold=threshold))
    for good in (0, 0.5, 1):
        assert LinkModel.from_dict(_model(threshold=good)).threshold == good


@pytest.mark.parametrize(("changes", "reason"), [
    ({"baseline": float("nan")}, "baseline nan is not a finite number"),
    ({"baseline": float("inf")}, "baseline inf is not a finite number"),
    ({"baseline": "1"}, "baseline '1' is not a finite number"),
    ({"trees": [_tree(value=[0, float("nan"), 2.0])]}, "tree 1: value nan is not a finite number"),
    ({"trees": [_tree(value=[0, float("-inf"), 2.0])]}, "tree 1: value -inf is not a finite number"),
    ({"trees": [_tree(threshold=[float("nan"), 0, 0])]}, "tree 1: threshold nan is not a finite number"),
    ({"trees": [_tree(threshold=["0.5", 0, 0])]}, "tree 1: threshold '0.5' is not a finite number"),
    ({"trees": [_tree(value=[0, True, 2.0])]}, "tree 1: value True is not a finite number"),
])
def test_a_number_of_the_trees_that_is_not_finite_is_a_format_error(changes, reason) -> None:
    """Python's json reads NaN and Infinity: a NaN baseline or leaf loaded and made every
    probability NaN, so no link was kept; an infinite one made them 1 (every candidate kept) or
    0; a NaN split sent every row right; a str was read as a number by numpy. All silently."""
    with pytest.raises(FormatError, match=reason):
        LinkModel.from_dict(_model(**changes))


@pytest.mark.parametrize(("data", "reason"), [
    ([1, 2], "a JSON list, not an object"),
    ({k: v for k, v in _model().items() if k != "baseline"}, "no 'baseline' key"),
    (_model(trees=[]), "trees: not a non-empty list"),
    (_model(trees={"feature": [0]}), "trees: not a non-empty list"),
    (_model(trees=[[0, 1]]), "trees: not a non-empty list"),
    (_model(features=None), "TypeError"),
    (_model(settings=None), "TypeError"),
    (_model(stack=[1]), "TypeError"),
    (_model(depth=-1), "depth -1 is not a whole number"),
    (_model(depth=float("nan")), "depth nan is not a whole number"),
    (_model(depth=2.7), "depth 2.7 is not a whole number"),
], ids=["list", "no-baseline", "no-trees", "trees-object", "tree-list", "features-null", "settings-null",
        "stack-list", "depth-negative", "depth-nan", "depth-float"])
def test_from_dict_of_a_wrong_shape_is_a_format_error_naming_the_source(data, reason) -> None:
    """LinkModel.from_dict (a model made in Python, or read by another reader than load) let
    the KeyError, TypeError, ValueError ("max() arg is an empty sequence" for no trees) or
    AttributeError out, naming no source; only load turned them into a FormatError. A depth of
    -1 or 2.7 (recorded in the aligner's signature) loaded as it was or cut to 2."""
    with pytest.raises(FormatError, match=reason) as caught:
        LinkModel.from_dict(data, "mine.json")
    assert caught.value.source == "mine.json"


@pytest.mark.parametrize(("features", "reason"), [
    (["sim_rank_min", *FEATURES[1:]], "column 1 is 'sim_rank_min' where 'sim' is expected$"),
    ([*FEATURES[:5], *FEATURES[6:]], f"column 6 is '{FEATURES[6]}' where '{FEATURES[5]}' is expected "
                                     rf"\({len(FEATURES) - 1} features, this paralign has {len(FEATURES)}\)"),
    (list(FEATURES[:-1]), f"'{FEATURES[-1]}'... missing at the end"),
    ([*FEATURES, "new"], "'new' and the rest extra at the end"),
    ("sim", "column 1 is 's' where 'sim' is expected"),
])
def test_wrong_feature_names_are_named(features, reason) -> None:
    """A model of other features was refused with "not this paralign's link features" alone:
    which feature, and whether one was renamed, dropped or added, was left to guess."""
    with pytest.raises(FormatError, match=reason):
        LinkModel.from_dict(_model(features=features))
