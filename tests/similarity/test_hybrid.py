"""The hybrid STS signal: the blend chosen by the worst held-out training file under the
one-standard-error rule, fitted within files (a file's mean never enters the weights), its
scores on the gold scale, and its JSON round trip."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest

from paralign.errors import ConfigurationError, FormatError
from paralign.similarity.hybrid import (
    HYBRID_POOL,
    Candidate,
    HybridModel,
    HybridSignal,
    _one_standard_error,
    fit_hybrid,
)

NAMES = ("sultan2014", "numbers", "embedding")


def _files(seed: int = 0):
    """Two files whose gold follows `embedding` + `sultan2014` inside each file, and whose
    `numbers` tracks only the files' gold means (a domain signal, useless inside a file)."""
    rng = np.random.default_rng(seed)
    groups = []
    for offset in (0.0, 2.0):
        n = 200
        lexical, embedding = rng.normal(size=n), rng.normal(size=n)
        gold = 2.5 + offset + 0.5 * lexical + 0.5 * embedding + 0.2 * rng.normal(size=n)
        domain = np.full(n, offset) + 0.01 * rng.normal(size=n)
        groups.append((np.column_stack([lexical, domain, embedding]).tolist(), gold.tolist()))
    return groups


def test_the_blend_holds_inside_files_and_ignores_a_domain_signal() -> None:
    model = fit_hybrid(_files(), NAMES, names=["a.tsv", "b.tsv"])
    assert set(model.signals) == {"sultan2014", "embedding"}
    weights = dict(zip(model.signals, model.weights, strict=True))
    assert weights["sultan2014"] == pytest.approx(weights["embedding"], rel=0.2)
    assert model.groups == ("a.tsv", "b.tsv")
    chosen = model.candidates[0]
    assert chosen.signals == model.signals and chosen.l2 == model.l2 and chosen.worst > 0.9
    assert 0 < model.tolerance < 0.05
    assert all(c.worst <= chosen.worst + model.tolerance for c in model.candidates)


def test_the_simplest_most_shrunk_blend_within_one_standard_error_wins() -> None:
    c = [Candidate(("a", "b", "c"), 0.0, (0.80, 0.81)), Candidate(("a", "b"), 0.0, (0.79, 0.80)),
         Candidate(("a", "b"), 10.0, (0.795, 0.80)), Candidate(("a",), 0.0, (0.70, 0.90))]
    assert _one_standard_error(c, 0.02) == c[2]
    assert _one_standard_error(c, 0.0) == c[0]
    assert _one_standard_error(c, 0.2) == c[3]


def test_a_near_tie_with_a_useless_third_signal_goes_to_the_two_signal_blend() -> None:
    rng = np.random.default_rng(1)
    groups = []
    for rows, gold in _files():
        noise = rng.normal(size=len(gold))  # the third column: pure noise, a chance fit at best
        groups.append(([[r[0], n, r[2]] for r, n in zip(rows, noise, strict=True)], gold))
    model = fit_hybrid(groups, NAMES)
    assert model.signals == ("sultan2014", "embedding")


def test_a_large_penalty_shapes_the_blend_but_keeps_scores_on_the_gold_scale() -> None:
    groups = _files()
    model = fit_hybrid(groups, NAMES, l2_grid=(1000.0,))
    assert model.l2 == 1000.0
    rows, gold = groups[0]
    columns = [NAMES.index(n) for n in model.signals]
    predicted = np.array([model.predict([r[c] for c in columns]) for r in rows]) * 5
    slope = np.polyfit(predicted, gold, 1)[0]
    assert slope == pytest.approx(1.0, abs=0.1)  # not shrunk toward the mean gold


def test_one_file_is_split_into_folds() -> None:
    rows, gold = _files()[0]
    model = fit_hybrid([(rows, gold)], NAMES, names=["a.tsv"])
    assert len(model.groups) == 5 and model.groups[0] == "a.tsv fold 1"
    assert "embedding" in model.signals


def test_prediction_and_json_round_trip() -> None:
    model = fit_hybrid(_files(), NAMES)
    data = json.loads(json.dumps(model.to_dict()))
    assert data["rule"] == "one-standard-error" and data["tolerance"] == model.tolerance
    again = HybridModel.from_dict(data)
    assert again == model
    values = [0.3, 1.0, -0.2][: len(model.signals)]
    assert again.predict(values) == pytest.approx(model.predict(values))
    mean_pair = list(model.means)
    assert model.predict(mean_pair) == pytest.approx(model.intercept / 5)


@pytest.mark.parametrize(
    "data",
    [None, {"kind": "logistic"}, {"kind": "hybrid", "signals": []},
     {"kind": "hybrid", "intercept": 1, "signals": [{"name": "nope", "weight": 1, "mean": 0, "scale": 1}]}],
)
def test_a_report_that_is_not_a_hybrid_model_is_a_format_error(data) -> None:
    with pytest.raises(FormatError, match="hybrid model"):
        HybridModel.from_dict(data, "r.json")


_ROW = {"name": "sultan2014", "weight": 1.0, "mean": 0.5, "scale": 0.2}


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "hybrid", "intercept": 2.0, "signals": [{**_ROW, "weight": float("nan")}]}, "not finite"),
    ({"kind": "hybrid", "intercept": float("inf"), "signals": [_ROW]}, "not finite"),
    ({"kind": "hybrid", "intercept": 2.0, "top": 0, "signals": [_ROW]}, "top <= 0"),
    ({"kind": "hybrid", "signals": [_ROW]}, 'no "intercept"'),
    (None, r"a NoneType, not an object with \"kind\": \"hybrid\""),
    ({"kind": "logistic"}, "\"kind\" 'logistic'"),
])
def test_a_hybrid_model_that_cannot_score_is_refused_saying_why(data, message) -> None:
    """A hand-edited report's NaN weight or infinite intercept scored every pair NaN with exit 0,
    and a top of 0 failed each pair with ZeroDivisionError; a model without its kind said
    'not a hybrid model (not a hybrid model)'."""
    with pytest.raises(FormatError, match=message) as caught:
        HybridModel.from_dict(data, "r.json")
    assert "r.json" in str(caught.value) and "(not a hybrid model)" not in str(caught.value)


def test_an_unfitted_hybrid_cannot_score_and_says_how_to_fit_it() -> None:
    signal = HybridSignal()
    assert signal.fitted is False
    with pytest.raises(ConfigurationError, match="--train"):
        signal(None)  # type: ignore[arg-type]


def test_too_few_training_pairs() -> None:
    with pytest.raises(ConfigurationError, match="too few"):
        fit_hybrid([([[0.1, 0.2, 0.3]] * 4, [1.0, 2.0, 3.0, 4.0])], NAMES)


@pytest.mark.parametrize(("signals", "options", "message"), [
    ([], {}, "at least one signal"),
    (["a"], {"l2_grid": ()}, "at least one l2 value"),
    (["a"], {"max_signals": 0}, "max_signals must be at least 1"),
])
def test_a_hybrid_with_no_candidate_blend_is_a_configuration_error(signals, options, message) -> None:
    """No signal, no l2 value or max_signals 0 leave no blend to choose: it was a TypeError."""
    rows = [[float(k % 7)] * len(signals) for k in range(40)]
    with pytest.raises(ConfigurationError, match=message):
        fit_hybrid([(rows, [float(k % 5) for k in range(40)])], signals, **options)


def test_the_registry_hybrid_is_the_shipped_blend() -> None:
    """make_signal("hybrid") is usable as it is: the blend in paralign/data, fitted on STS 2012's
    two training files; HybridSignal() made by hand is still unfitted."""
    from paralign.similarity import make_signal, needs_fit
    from paralign.similarity.hybrid import DEFAULT_MODEL_FILE, default_model

    signal = make_signal("hybrid")
    assert signal.fitted and not needs_fit(signal) and signal.model == default_model()
    model = default_model()
    assert model.groups == ("MSRpar.train.tsv", "SMTeuroparl.train.tsv")
    assert set(model.signals) <= set(HYBRID_POOL) and all(w >= 0 for w in model.weights)
    assert DEFAULT_MODEL_FILE.endswith(".json")
    assert not HybridSignal().fitted


@pytest.mark.data
def test_the_shipped_blend_is_what_fitting_on_sts_2012_train_gives() -> None:
    """Refit from the data (PARALIGN_DATA): the same signals, penalty and numbers as the file
    (scripts/fit_default_hybrid.py rebuilds it), so the shipped blend is no hand-set one."""
    pytest.importorskip("torch", reason="the neural extra is not installed")
    from paralign.settings import data_dir
    from paralign.similarity.hybrid import DEFAULT_TRAINING_FILES, default_model, fit_hybrid_files

    root = data_dir()
    if root is None:
        pytest.skip("no corpora folder (set PARALIGN_DATA)")
    paths = [root / name for name in DEFAULT_TRAINING_FILES]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        pytest.skip(f"STS 2012 training files not found: {', '.join(missing)} (set PARALIGN_DATA)")
    refit, shipped = fit_hybrid_files(paths), default_model()
    assert (refit.signals, refit.l2, refit.groups) == (shipped.signals, shipped.l2, shipped.groups)
    assert refit.aligner == shipped.aligner == "sultan:default"
    for got, want in ((refit.weights, shipped.weights), (refit.means, shipped.means),
                      (refit.scales, shipped.scales), ((refit.intercept,), (shipped.intercept,))):
        # float32 embeddings: torch's CPU kernels differ in the last bits from one CPU to another
        # (a weight 5.4e-9 off on a new VM of 2026-12-01, the same code); a hand-set or stale
        # blend is off by far more than 1e-6
        assert got == pytest.approx(want, rel=1e-6, abs=1e-7)


def test_the_blend_records_its_aligner_and_a_round_trip_keeps_it() -> None:
    model = fit_hybrid(_files(), NAMES, aligner="sultan:paraphrase")
    assert model.aligner == "sultan:paraphrase"
    again = HybridModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.aligner == "sultan:paraphrase"
    old_report = {k: v for k, v in model.to_dict().items() if k != "aligner"}
    assert HybridModel.from_dict(old_report).aligner == ""  # reports written before: not recorded


def test_a_blend_used_with_another_aligner_than_its_own_is_named_once() -> None:
    """The shipped blend reads alignments (numbers) and was fitted on sultan:default ones: another
    preset or aligner gets a reason to warn; its own aligner, a blend of alignment-free signals or
    a blend that does not record its aligner get none."""
    from paralign.aligners.registry import get_aligner
    from paralign.similarity.hybrid import aligner_mismatch, default_model

    shipped = HybridSignal(default_model())
    assert aligner_mismatch(shipped, None) is None
    assert aligner_mismatch(shipped, get_aligner("sultan", "default")) is None
    why = aligner_mismatch(shipped, get_aligner("sultan", "paraphrase"))
    assert why is not None and "sultan:default" in why and "sultan:paraphrase" in why
    assert "numbers" in why and "embedding" not in why
    assert "sultan:default" in (aligner_mismatch(shipped, get_aligner("exact")) or "")
    unrecorded = HybridSignal(replace(default_model(), aligner=""))
    assert aligner_mismatch(unrecorded, get_aligner("exact")) is None
    no_alignment = HybridSignal(replace(default_model(), signals=("embedding",), weights=(1.0,), means=(0.5,),
                                        scales=(0.2,)))
    assert no_alignment.model.aligner == "sultan:default"
    assert aligner_mismatch(no_alignment, get_aligner("exact")) is None


@pytest.mark.parametrize("kept", [0, 2])
def test_a_training_file_too_small_to_hold_out_is_refused_by_name(kept: int) -> None:
    """Each training file is a held-out fold of the choice: an empty one gave a 'Mean of empty
    slice' warning and a nan score, one of 2 pairs a Pearson of +-1 whatever the blend, and a
    model came back either way."""
    (rows, gold), other = _files()
    with pytest.raises(ConfigurationError, match=f"training file b.tsv has {kept} usable pairs: each file is a "
                       "held-out fold of the hybrid's choice, whose Pearson needs at least 3"):
        fit_hybrid([(rows, gold), (other[0][:kept], other[1][:kept])], NAMES, names=["a.tsv", "b.tsv"])
    assert fit_hybrid([(rows, gold), (other[0][:3], other[1][:3])], NAMES).groups == ("file 1", "file 2")


def test_a_training_file_whose_gold_does_not_vary_is_refused_by_name() -> None:
    """Audit: of several training files, one whose gold scores are all alike held out gave every
    blend a Pearson of 0 (and fitting on it alone, weights of 0 for the others), so every
    candidate's worst fold was 0 and the first blend tried was kept, whatever the signals."""
    (rows, gold), other = _files()
    flat = (other[0][:10], [3.0] * 10)
    with pytest.raises(ConfigurationError, match=re.escape("the gold scores of training file b.tsv do not vary "
                                                           "(all 3): each file is a held-out fold")):
        fit_hybrid([(rows, gold), flat], NAMES, names=["a.tsv", "b.tsv"])
    assert fit_hybrid([(rows, gold), (other[0][:10], other[1][:10])], NAMES).candidates[0].worst > 0  # varied: fits


def test_a_pair_digest_is_the_same_in_either_order_however_spaced() -> None:
    from paralign.similarity.hybrid import pair_digest

    digest = pair_digest("A man plays.", "A  man is playing .")
    assert digest == pair_digest(" A man is playing . ", "A man plays.\t") and len(digest) == 16
    assert digest != pair_digest("A man plays.", "A man is playing")


def test_the_shipped_blend_records_the_pairs_it_was_fitted_on(data) -> None:
    """The shipped model file lists the digests of its training files' pairs (no text), so that
    evaluate-sts and evaluate-paraphrase can tell a scored pair that is one of them."""
    from paralign.similarity.hybrid import (
        DEFAULT_TRAINING_FILES,
        file_digests,
        shipped_training_pairs,
    )

    assert shipped_training_pairs() == file_digests([data / name for name in DEFAULT_TRAINING_FILES])
    assert len(shipped_training_pairs()) > 1400


@pytest.mark.parametrize(("rows", "message"), [
    ([f"{k % 5}.0\tword{k} a b\tword{k} a c\n" for k in range(12)],
     "too few training pairs to fit a hybrid: 12, at least 15"),
    ([f"3.0\tword{k} a b\tword{k} a c\n" for k in range(20)],
     "the gold scores of the 20 training pairs do not vary (all 3): no blend can follow them"),
])
def test_training_files_that_cannot_fit_a_hybrid_are_refused_naming_them_before_aligning(rows, message, tmp_path,
                                                                                       capsys) -> None:
    """Audit: `evaluate-sts --signal hybrid --train F` of 12 pairs aligned them all (16 s with
    the Sultan aligner) and then said 'too few training pairs to fit a hybrid (at least 15)', a
    usage error (exit 2) naming neither the file nor the count; one of 30 pairs all of gold 3
    was fitted, silently, into a blend of weight 0 whose scores are one constant ('0.000·
    sultan2014', every correlation n/a, exit 0). Both are now a data error naming the files
    (exit 1), before any pair is aligned."""
    from paralign.cli import main
    from paralign.similarity.hybrid import fit_hybrid_files

    path = tmp_path / "train.tsv"
    path.write_text("".join(rows), encoding="utf-8")
    aligned = []

    def aligner(source, target):
        aligned.append(source)
        raise AssertionError("aligned before the training files were checked")

    with pytest.raises(FormatError, match=f"^{re.escape(f'{path}: {message}')}$"):
        fit_hybrid_files([path], aligner=aligner, signals=("sultan2014", "numbers"))
    assert aligned == []
    data = tmp_path / "data.tsv"
    data.write_text("5.0\ta b\ta b\n1.0\tc d\te f\n3.0\tg h\tg i\n", encoding="utf-8")
    assert main(["evaluate-sts", "--signal", "hybrid", "--train", str(path), "--data", str(data),
                 "--aligner", "exact"]) == 1
    assert capsys.readouterr().err == f"paralign evaluate-sts: error: {path}: {message}\n"
