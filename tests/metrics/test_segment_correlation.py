"""Segment-level meta-evaluation: WMT DARR tau, Pearson / Kendall over judged segments, bootstrap."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from paralign.errors import ConfigurationError, MismatchError
from paralign.metrics.correlation import resample_counts
from paralign.metrics.segment_correlation import (
    DARR_MARGIN,
    darr_tau,
    judged_segments,
    meta_evaluate_levels,
    segment_correlation,
    segment_meta_evaluate,
)


def _judgment(system: str, line: int, raw: float, z: float | None = None) -> SimpleNamespace:
    return SimpleNamespace(system=system, line=line, raw=raw, z=raw / 100 if z is None else z)


#: Line 0: A 90, B 60, C 50, D 80 -> pairs with raw difference > 25: A>B (30), A>C (40),
#: D>C (30); A-D (10), B-C (10) and B-D (20) are too close, and exactly 25 is not a pair (line 1:
#: A 70, B 45). Line 2: A 100, B 20 (A>B) and C unjudged.
JUDGED = [_judgment("A", 0, 90), _judgment("B", 0, 60), _judgment("C", 0, 50),
          _judgment("D", 0, 80), _judgment("A", 1, 70), _judgment("B", 1, 45),
          _judgment("A", 2, 100), _judgment("B", 2, 20)]
OUTPUTS = {"A": ["a0", "a1", "same"], "B": ["b0", "b1", "same"], "C": ["c0", "c1", "c2"],
           "D": ["d0", "d1", "d2"]}


def test_darr_pairs_and_tau_by_hand():
    judged = judged_segments(JUDGED, OUTPUTS, 3)
    assert len(judged.better) == 4
    pairs = {(judged.systems[judged.system[b]], judged.systems[judged.system[w]], int(judged.line[b]))
             for b, w in zip(judged.better, judged.worse, strict=True)}
    assert pairs == {("A", "B", 0), ("A", "C", 0), ("D", "C", 0), ("A", "B", 2)}
    assert judged.identical.tolist().count(True) == 1  # line 2: A and B wrote the same
    # metric: A>B on line 0 concordant; A=C tie; D<C discordant; A=B on line 2 tie (identical)
    scores = {"A": np.array([5.0, 1.0, 3.0]), "B": np.array([4.0, 9.0, 3.0]),
              "C": np.array([5.0, 0.0, 0.0]), "D": np.array([1.0, 0.0, 0.0])}
    result = segment_correlation(judged, scores, resample_counts(3, 50, seed=3))
    assert result.pairs == {"pairs": 4, "concordant": 1, "discordant": 1, "ties": 2,
                            "identical": 1}
    assert result.correlations["darr_tau"].value == pytest.approx((1 - 1 - 2) / 4)  # WMT: -0.5
    assert result.correlations["darr_tau_no_ties"].value == pytest.approx(0.0)
    assert result.judged == 8 and result.undefined == 0


def test_pearson_and_kendall_over_judged_points_and_undefined_scores_as_zero():
    judged = judged_segments(JUDGED, OUTPUTS, 3)
    rng = np.random.default_rng(0)
    scores = {s: rng.random(3) for s in OUTPUTS}
    scores["B"][1] = np.nan  # e.g. ParaEval precision of an empty output
    result = segment_correlation(judged, scores, resample_counts(3, 20, seed=1))
    x = [0.0 if np.isnan(scores[j.system][j.line]) else scores[j.system][j.line] for j in JUDGED]
    z = [j.z for j in JUDGED]
    assert result.undefined == 1
    assert result.correlations["pearson"].value == pytest.approx(sps.pearsonr(x, z)[0])
    assert result.correlations["kendall"].value == pytest.approx(sps.kendalltau(x, z)[0])


def test_darr_tau_formula():
    sums = np.array([[6.0, 2.0, 2.0], [0.0, 0.0, 0.0]])
    assert darr_tau(sums)[0] == pytest.approx(0.2) and np.isnan(darr_tau(sums)[1])
    assert darr_tau(sums, ties_discordant=False)[0] == pytest.approx(0.5)


def _many(n_lines: int = 40, n_systems: int = 5, seed: int = 7):
    rng = np.random.default_rng(seed)
    names = [f"S{k}" for k in range(n_systems)]
    quality = rng.normal(size=(n_systems, n_lines))
    judged = [_judgment(s, i, float(50 + 30 * quality[k, i]))
              for k, s in enumerate(names) for i in range(n_lines) if rng.random() > 0.1]
    outputs = {s: [f"{s}{i}" for i in range(n_lines)] for s in names}
    scores = {s: quality[k] + rng.normal(scale=1.0, size=n_lines) for k, s in enumerate(names)}
    return judged_segments(judged, outputs, n_lines), scores


def test_bootstrap_intervals_contain_the_estimate_and_are_seeded():
    judged, scores = _many()
    first = segment_correlation(judged, scores, resample_counts(judged.n_lines, 200, seed=5))
    again = segment_correlation(judged, scores, resample_counts(judged.n_lines, 200, seed=5))
    other = segment_correlation(judged, scores, resample_counts(judged.n_lines, 200, seed=6))
    assert first.to_dict() == again.to_dict()
    assert first.to_dict() != other.to_dict()
    for kind, cell in first.correlations.items():
        assert cell.low <= cell.value <= cell.high, kind
        assert cell.low < cell.high, kind
    assert first.correlations["pearson"].value > 0.3  # the scores do follow the judgments


def test_resampled_sums_equal_a_direct_computation_on_the_resample():
    judged, scores = _many(n_lines=12, n_systems=4)
    counts = resample_counts(12, 1, seed=2)
    one = segment_correlation(judged, scores, counts)
    lines = np.repeat(np.arange(12), counts[0].astype(int))
    x, z = [], []
    for line in lines:
        for p in np.flatnonzero(judged.line == line):
            x.append(scores[judged.systems[judged.system[p]]][line])
            z.append(judged.z[p])
    assert one.correlations["pearson"].low == pytest.approx(sps.pearsonr(x, z)[0])
    assert one.correlations["kendall"].low == pytest.approx(sps.kendalltau(x, z)[0])


def test_bad_inputs():
    with pytest.raises(MismatchError, match="no segment judgments"):
        judged_segments([_judgment("X", 0, 50)], OUTPUTS, 3)
    with pytest.raises(MismatchError, match="line 4"):
        judged_segments([_judgment("A", 3, 50)], OUTPUTS, 3)
    judged = judged_segments(JUDGED, OUTPUTS, 3)
    with pytest.raises(MismatchError, match="resampled"):
        segment_correlation(judged, {s: np.zeros(3) for s in OUTPUTS}, resample_counts(4, 5))
    with pytest.raises(ConfigurationError, match="level"):
        meta_evaluate_levels(object(), ["A"], [], level="document")
    from paralign.metrics.given_scores import given_scores

    against_b = given_scores("m-refB.sys.score", "m", lines=["A 0.5", "B 0.25"])  # the library checks it too
    with pytest.raises(MismatchError, match=r"^m-refB.sys.score: scores against reference B .*, but --refs A: "):
        meta_evaluate_levels(object(), ["A"], [against_b])


def test_a_segment_judged_twice_for_one_system_is_refused():
    """Two judgments of one system's output on one line are no DARR pair (the metric scores the
    same text twice: a tie, counted discordant) but a duplicated record: refused, named, as the
    WMT loader refuses a SID listed twice, not made a pair of the system with itself."""
    twice = [*JUDGED, _judgment("A", 1, 10)]  # A 70 and A 10 on line 1: 60 points apart
    with pytest.raises(MismatchError, match="system 'A' is judged twice on line 2"):
        judged_segments(twice, OUTPUTS, 3)
    with pytest.raises(MismatchError, match="line -1"):  # read from the end, as line 3, before
        judged_segments([*JUDGED, _judgment("C", -1, 0)], OUTPUTS, 3)


def test_segment_scores_of_a_system_missing_or_of_another_length_are_named():
    """A judged system without scores was a KeyError, scores of another length numpy's
    ValueError or IndexError: MismatchError naming the system."""
    judged = judged_segments(JUDGED, OUTPUTS, 3)
    scores = {s: np.zeros(3) for s in OUTPUTS}
    counts = resample_counts(3, 5)
    with pytest.raises(MismatchError, match="no segment scores for system 'D'"):
        segment_correlation(judged, {s: v for s, v in scores.items() if s != "D"}, counts)
    for bad in (np.zeros(2), np.zeros(4), np.zeros((3, 2))):
        with pytest.raises(MismatchError, match=r"system 'B' has segment scores of shape .*not one per line \(3\)"):
            segment_correlation(judged, {**scores, "B": bad}, counts)


def test_segment_meta_evaluation_refuses_what_is_no_wmt_pair():
    """Segment DA alone (no systems, no lines) is no WMTPair: a ConfigurationError naming what it
    needs, as meta_evaluate says it, not an AttributeError from deep inside."""
    with pytest.raises(ConfigurationError, match="needs a WMTPair"):
        segment_meta_evaluate(SimpleNamespace(segment_scores=JUDGED), [], {}, resample_counts(3, 5))


@pytest.mark.data
def test_wmt21_cs_en_reference_a(data):
    """The issue's cs-en figures (ref A), and near zero when the SID is taken as the line."""
    from dataclasses import replace

    from paralign.corpora.wmt import load_wmt
    from paralign.metrics.correlation import resolve_metrics

    wmt = load_wmt(data, "cs-en", ["A"], segments=True)
    metrics = resolve_metrics(["bleu", "chrf"])
    result = meta_evaluate_levels(wmt, ["A"], metrics, level="segment", n_resamples=20)
    chrf, bleu = result.segment["chrf"], result.segment["bleu"]
    assert chrf.pairs["pairs"] == 9470 and chrf.pairs["identical"] == 515
    assert chrf.correlations["darr_tau"].value == pytest.approx(0.012, abs=5e-4)
    assert chrf.correlations["pearson"].value == pytest.approx(0.184, abs=5e-4)
    assert bleu.correlations["darr_tau"].value == pytest.approx(-0.041, abs=5e-4)
    assert bleu.correlations["pearson"].value == pytest.approx(0.167, abs=5e-4)
    as_lines = tuple(replace(s, line=s.sid - 1) for s in wmt.segment_scores)
    wrong = meta_evaluate_levels(replace(wmt, segment_scores=as_lines), ["A"], metrics,
                                 level="segment", n_resamples=20)
    assert abs(wrong.segment["chrf"].correlations["pearson"].value) < 0.05


def _brute_force_darr(records: list, scores: dict) -> tuple[int, int, int]:
    """WMT20/21 DARR counted pair by pair: two outputs of one source line whose raw DA differ by
    more than 25 points; concordant, discordant or a metric tie."""
    counts = [0, 0, 0]
    for k, one in enumerate(records):
        for other in records[k + 1:]:
            if one.line != other.line or abs(one.raw - other.raw) <= DARR_MARGIN:
                continue
            better, worse = (one, other) if one.raw > other.raw else (other, one)
            diff = scores[better.system][better.line] - scores[worse.system][worse.line]
            counts[0 if diff > 0 else 1 if diff < 0 else 2] += 1
    return counts[0], counts[1], counts[2]


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 5), st.integers(2, 4), st.data())
def test_darr_counts_and_taus_equal_a_pair_by_pair_count(n_systems, n_lines, data):
    """Raw DA on a coarse grid (differences of exactly 25 and 26 are common, so are metric ties),
    some segments unjudged: the counts, both taus, Pearson and Kendall tau-b equal a count pair by
    pair and scipy's; no pair joins two source lines."""
    systems = [f"S{k}" for k in range(n_systems)]
    judged_cells = data.draw(st.lists(st.tuples(st.sampled_from(systems), st.integers(0, n_lines - 1)),
                                      min_size=1, unique=True))
    records = [_judgment(s, line, data.draw(st.sampled_from([0.0, 25.0, 26.0, 50.0, 51.0, 75.0, 100.0])),
                         data.draw(st.floats(-2, 2))) for s, line in judged_cells]
    scores = {s: np.array(data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=n_lines,
                                             max_size=n_lines))) for s in systems}
    judged = judged_segments(records, {s: [f"{s}{k}" for k in range(n_lines)] for s in systems}, n_lines)
    assert (judged.line[judged.better] == judged.line[judged.worse]).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy on one point, or a constant input
        result = segment_correlation(judged, scores, resample_counts(n_lines, 5))
        x = [scores[r.system][r.line] for r in records]
        z = [r.z for r in records]
        kendall = sps.kendalltau(x, z)[0]
        pearson = sps.pearsonr(x, z)[0] if len(x) > 1 and np.ptp(x) > 0 and np.ptp(z) > 0 else np.nan
    if len(x) < 3:  # +1 or -1 whatever the scores: undefined, as at system level
        kendall = pearson = np.nan
    c, d, t = _brute_force_darr(records, scores)
    assert (result.pairs["concordant"], result.pairs["discordant"], result.pairs["ties"]) == (c, d, t)
    figures = result.correlations
    assert figures["darr_tau"].value == pytest.approx((c - d - t) / (c + d + t) if c + d + t else np.nan,
                                                      nan_ok=True)
    assert figures["darr_tau_no_ties"].value == pytest.approx((c - d) / (c + d) if c + d else np.nan, nan_ok=True)
    assert figures["kendall"].value == pytest.approx(kendall, nan_ok=True)
    assert figures["pearson"].value == pytest.approx(pearson, nan_ok=True, abs=1e-9)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_human_segment_score_that_is_no_finite_number_is_refused_by_name(bad: float) -> None:
    """A NaN raw DA score formed no DARR pair without a word, and a NaN or infinite z made the
    segment Pearson NaN: FormatError naming the system and line (1-based)."""
    from paralign.errors import FormatError

    with pytest.raises(FormatError, match=r"the human raw score of system 'B' on line 2 is (nan|inf)"):
        judged_segments([*JUDGED[:5], _judgment("B", 1, bad, 0.4), *JUDGED[6:]], OUTPUTS, 3)
    with pytest.raises(FormatError, match=r"the human z score of system 'C' on line 1 is (nan|inf)"):
        judged_segments([*JUDGED[:2], _judgment("C", 0, 50, bad), *JUDGED[3:]], OUTPUTS, 3)


def test_an_infinite_metric_segment_score_is_refused_by_name() -> None:
    """An infinite segment score (a caller's metric) was read as the largest float: Pearson's
    sums of its square overflowed, a NaN correlation. FormatError naming metric, system, line;
    an undefined (NaN) score still counts as 0."""
    from paralign.errors import FormatError

    judged = judged_segments(JUDGED, OUTPUTS, 3)
    scores = {s: np.arange(3.0) + k for k, s in enumerate(OUTPUTS)}
    scores["D"] = np.array([np.inf, 0.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FormatError, match=r"the m segment score of system 'D' on line 1 is inf"):
            segment_correlation(judged, scores, resample_counts(3, 20), "m")


def test_segment_pearson_of_tiny_or_huge_scores_is_scipys() -> None:
    """z scores of 6.4e-208 squared to 0 in the Pearson sums, so the segment Pearson was
    undefined where scipy's is 1 (found by the pair-by-pair property above)."""
    systems = ("A", "B", "C")
    outputs = {s: [f"{s}{k}" for k in range(2)] for s in systems}
    for scale in (6.4e-208, 1e150):
        records = [_judgment(s, line, 50.0, scale * (k + line)) for k, s in enumerate(systems) for line in (0, 1)]
        scores = {s: np.array([0.1 * k, 0.1 * k + 0.05]) for k, s in enumerate(systems)}
        judged = judged_segments(records, outputs, 2)
        result = segment_correlation(judged, scores, resample_counts(2, 5))
        x = [scores[r.system][r.line] for r in records]
        assert result.correlations["pearson"].value == pytest.approx(sps.pearsonr(x, [r.z for r in records])[0])


def test_pearson_and_kendall_over_fewer_than_3_judged_segments_are_undefined_with_the_reason():
    """Over 2 judged (system, segment) points Pearson and Kendall are +1 or -1 whatever the scores,
    and so is every resample's: they were given as 1.000 [1.000, 1.000], certainty, where the
    system level (and an STS file) gives null with the reason (significance.MIN_CORRELATED).
    The DARR taus, a share of pairs, stay; over 3 points the correlations are given."""
    two = [_judgment("A", 0, 90), _judgment("B", 0, 20)]
    judged = judged_segments(two, OUTPUTS, 3)
    result = segment_correlation(judged, {s: np.array([0.9, 0.1, 0.5]) * (s == "A") for s in OUTPUTS},
                                 resample_counts(3, 20, seed=1))
    for kind in ("pearson", "kendall"):
        assert result.to_dict()[kind] == {"value": None, "low": None, "high": None}
    assert result.correlations["darr_tau"].value == 1.0
    assert result.reason == ("fewer than 3 judged segments to correlate (got 2): over 2 a correlation is +1 or -1 "
                             "whatever the scores")
    assert result.to_dict()["reason"] == result.reason
    three = judged_segments([*two, _judgment("A", 1, 70)], OUTPUTS, 3)
    given_three = segment_correlation(three, {s: np.array([0.9, 0.4, 0.5]) * (s == "A") for s in OUTPUTS},
                                      resample_counts(3, 20, seed=1))
    assert given_three.reason is None and "reason" not in given_three.to_dict()
    assert given_three.correlations["pearson"].value == pytest.approx(sps.pearsonr([0.9, 0, 0.4], [0.9, 0.2, 0.7])[0])
    # a resample that drew fewer than 3 of the points (line 0's two, three times) is undefined too
    only_line_0 = np.tile([3.0, 0.0, 0.0], (5, 1))
    drawn = segment_correlation(three, {s: np.array([0.9, 0.4, 0.5]) * (s == "A") for s in OUTPUTS}, only_line_0)
    assert drawn.to_dict()["pearson"]["low"] is None and drawn.to_dict()["kendall"]["high"] is None
    assert drawn.correlations["pearson"].value == given_three.correlations["pearson"].value
