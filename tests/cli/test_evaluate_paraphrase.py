"""`paralign evaluate-paraphrase --feature-set alignment+mt+embedding`: the encoder's features
join the model (tiny MSRP-format fixture, exact-match aligner, the real encoder)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from paralign.cli import main
from paralign.similarity.features import EMBEDDING_FEATURES, FEATURES

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the neural extra is not installed")

PAIRS = [(1, "A man plays a guitar.", "A man is playing the guitar."), (0, "Cats sleep.", "The stock fell."),
         (1, "The cat sleeps.", "The cat naps."), (0, "A bird sings.", "Shares dropped 5%."),
         (1, "She reads a book.", "She is reading a book."), (0, "It rains today.", "The dog runs fast."),
         (1, "He bought 3 apples.", "He bought three apples."), (0, "Dogs bark.", "A bird flies away."),
         (1, "The weather is wet.", "It is raining today."), (0, "A man cooks.", "A woman sings a song.")]


def _msrp(path: Path, rows, first_id: int = 0) -> str:
    lines = ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"]
    lines += [f"{label}\t{k}\t{k + 100}\t{a}\t{b}" for k, (label, a, b) in enumerate(rows, start=first_id)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_embedding_feature_set_trains_a_model_over_them_and_saves_it(tmp_path: Path, capsys) -> None:
    train, test = _msrp(tmp_path / "train.tsv", PAIRS), _msrp(tmp_path / "test.tsv", PAIRS[::-1])
    argv = ["evaluate-paraphrase", "--feature-set", "alignment+mt+embedding", "--train", train, "--test", test,
            "--aligner", "exact", "--fine-tune-epochs", "1", "--save-cross-encoder", str(tmp_path / "ce"),
            "--format", "json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["feature_set"] == "alignment+mt+embedding" and result["test_pairs"] == len(PAIRS)
    assert 0.0 <= result["accuracy"] <= 1.0 and result["f1"] is not None
    names = [f["name"] for f in result["model"]["features"]]
    assert names == list(FEATURES + EMBEDDING_FEATURES)
    assert result["model"]["l2"] == 10.0  # the set's own penalty (FEATURE_SET_L2) unless --l2 is given
    # the set fine-tunes a cross-encoder by default; its probability is averaged in, threshold 0.5
    entry = result["cross_encoder"]
    assert entry["directory"] == str((tmp_path / "ce").resolve()) and entry["training_pairs"] == len(PAIRS)
    assert entry["settings"]["epochs"] == 1 and result["rule"] == "half" and result["threshold"] == 0.5
    report = tmp_path / "model.json"
    report.write_text(json.dumps(result), encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for _, a, b in PAIRS), encoding="utf-8")
    assert main(["similarity", "--pairs", str(pairs), "--model", str(report), "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert len(scored["paraphrase"]) == len(PAIRS) and all(0 <= s <= 1 for s in scored["scores"])
    # the saved model scores the test pairs as the training run did (same classifier, same decisions)
    assert sum(scored["paraphrase"]) == result["test"]["tp"] + result["test"]["fp"]
    # a report whose cross-encoder was not saved cannot classify new pairs, and says what to do
    result["cross_encoder"]["directory"] = None
    report.write_text(json.dumps(result), encoding="utf-8")
    assert main(["similarity", "--pairs", str(pairs), "--model", str(report), "--format", "json"]) != 0
    assert "--save-cross-encoder" in capsys.readouterr().err


def test_without_the_cross_encoder_the_report_is_the_logistic_model_alone(tmp_path: Path, capsys) -> None:
    train, test = _msrp(tmp_path / "train.tsv", PAIRS), _msrp(tmp_path / "test.tsv", PAIRS[::-1])
    argv = ["evaluate-paraphrase", "--feature-set", "alignment+mt+embedding", "--train", train, "--test", test,
            "--aligner", "exact", "--no-cross-encoder", "--format", "json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["cross_encoder"] is None and result["rule"] == "lowest"
    assert main(argv[:-2] + ["--cv-folds", "3", "--format", "json"]) == 0  # without it, CV is cheap
    assert json.loads(capsys.readouterr().out)["cross_validation"]["folds"] == 3
    with_it = [a for a in argv if a != "--no-cross-encoder"]
    assert main(with_it[:-2] + ["--cv-folds", "3", "--format", "json"]) != 0  # CV would fine-tune per fold
    assert "--no-cross-encoder" in capsys.readouterr().err
    assert main(argv[:-2] + ["--save-cross-encoder", str(tmp_path / "x"), "--format", "json"]) != 0
    assert "need the cross-encoder" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_the_help_spells_out_the_fine_tuning_defaults(capsys) -> None:
    from paralign.neural.cross_encoder import FineTuning

    with pytest.raises(SystemExit):
        main(["evaluate-paraphrase", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    defaults = FineTuning()
    assert f"fine-tuning epochs (default: {defaults.epochs})" in text
    assert f"fine-tuning learning rate (default: {defaults.learning_rate:g})" in text
    assert f"shuffling (default: {defaults.seed})" in text


def test_a_report_and_its_cross_encoder_moved_together_still_classify(tmp_path: Path, capsys, monkeypatch) -> None:
    """The report named its saved cross-encoder by an absolute path, so moving the report and
    the model's directory together (another folder, another machine) broke similarity --model.
    Written with -o, the report names it relative to itself, with a hash of its files: the moved
    pair scores as before, and another model found at that path is refused, not used."""
    import shutil

    first, moved = tmp_path / "A", tmp_path / "B"
    first.mkdir()
    train, test = _msrp(tmp_path / "train.tsv", PAIRS), _msrp(tmp_path / "test.tsv", PAIRS[::-1])
    assert main(["evaluate-paraphrase", "--feature-set", "alignment+mt+embedding", "--train", train, "--test", test,
                 "--aligner", "exact", "--fine-tune-epochs", "1", "--save-cross-encoder", str(first / "ce"),
                 "--format", "json", "-o", str(first / "report.json")]) == 0
    entry = json.loads((first / "report.json").read_text(encoding="utf-8"))["cross_encoder"]
    assert entry["directory"] == "ce" and len(entry["sha256"]) == 64
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for _, a, b in PAIRS), encoding="utf-8")
    capsys.readouterr()

    def scores(report: str) -> list[float]:
        assert main(["similarity", "--pairs", str(pairs), "--model", report, "--format", "json"]) == 0
        return json.loads(capsys.readouterr().out)["scores"]

    before = scores(str(first / "report.json"))
    shutil.move(first, moved)
    monkeypatch.chdir(moved)  # a relative --model path: the directory is still found beside the report
    assert scores("report.json") == before
    # an old report (an absolute directory) is still read
    old = json.loads((moved / "report.json").read_text(encoding="utf-8"))
    old["cross_encoder"]["directory"] = str(moved / "ce")
    del old["cross_encoder"]["sha256"]
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    assert scores(str(tmp_path / "old.json")) == before
    # another model at the recorded path is an error naming the report, not silently used
    with open(moved / "ce" / "cross_encoder.json", "a", encoding="utf-8") as handle:
        handle.write("\n")
    assert main(["similarity", "--pairs", str(pairs), "--model", "report.json"]) == 1
    assert "report.json: the cross-encoder in" in capsys.readouterr().err
    shutil.rmtree(moved / "ce")
    assert main(["similarity", "--pairs", str(pairs), "--model", "report.json"]) == 1
    err = capsys.readouterr().err
    assert f"report.json: the report's cross-encoder ce ({moved / 'ce'}) is not there" in err


def test_the_shipped_hybrid_blend_on_another_aligner_is_said_by_evaluate_paraphrase_and_its_model(
        tmp_path: Path, capsys) -> None:
    """The shipped hybrid blend was fitted on sultan:default alignments; evaluate-sts and
    similarity --signal hybrid say when the pairs are aligned otherwise (its scores are then off
    the blend's scale), but evaluate-paraphrase --signal hybrid (on the paraphrase preset by
    default) and similarity --model of its report said nothing. Both now say it (JSON "notes"
    and a warning)."""
    train, test = _msrp(tmp_path / "train.tsv", PAIRS), _msrp(tmp_path / "test.tsv", PAIRS[::-1])
    report = tmp_path / "report.json"
    assert main(["evaluate-paraphrase", "--signal", "hybrid", "--train", train, "--test", test, "--aligner", "exact",
                 "--format", "json", "-o", str(report)]) == 0
    err = capsys.readouterr().err
    notes = [n for n in json.loads(report.read_text(encoding="utf-8"))["notes"]  # (and the split's note)
             if n.startswith("the hybrid blend was fitted on sultan:default alignments, but the pairs are aligned by "
                             "exact")]
    assert len(notes) == 1 and f"warning: {notes[0]}" in err
    assert main(["similarity", "--model", str(report), "--pairs", test, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["notes"] == notes and f"warning: {notes[0]}" in err


def test_a_report_inside_its_cross_encoders_directory_still_loads_it(tmp_path: Path, capsys) -> None:
    """The hash of a saved cross-encoder covered every file in its directory, so a report written
    into that directory (-o ce/report.json), or any file added there later (a README, macOS's
    .DS_Store), made the model 'not the one this report was trained with'. The hash covers the
    model's own files (weights, configuration, head, tokenizer); a changed one is still refused."""
    train, test = _msrp(tmp_path / "train.tsv", PAIRS), _msrp(tmp_path / "test.tsv", PAIRS[::-1])
    model = tmp_path / "ce"
    model.mkdir()  # -o needs its folder; an empty one is where a model may be saved
    assert main(["evaluate-paraphrase", "--feature-set", "alignment+mt+embedding", "--train", train, "--test", test,
                 "--aligner", "exact", "--fine-tune-epochs", "1", "--save-cross-encoder", str(model),
                 "--format", "json", "-o", str(model / "report.json")]) == 0
    assert json.loads((model / "report.json").read_text(encoding="utf-8"))["cross_encoder"]["directory"] == "."
    (model / "README.txt").write_text("fine-tuned on our pairs\n", encoding="utf-8")
    (model / ".DS_Store").write_bytes(b"\0")
    capsys.readouterr()
    assert main(["similarity", "--pairs", test, "--model", str(model / "report.json")]) == 0
    (model / "tokenizer_config.json").write_text("{}", encoding="utf-8")
    assert main(["similarity", "--pairs", test, "--model", str(model / "report.json")]) == 1
    assert "is not the one this report was trained with" in capsys.readouterr().err


def test_test_pairs_the_shipped_hybrid_was_fitted_on_are_a_note(tmp_path: Path, capsys, data) -> None:
    """--signal hybrid is the blend paralign ships, fitted on STS 2012's MSRpar.train, whose 750
    rows are MSRP test pairs: on them the test figures are not held out, and a note says so
    (before, nothing did)."""
    from paralign.corpora.sts import load_sts

    held = load_sts(data / "similarity" / "sts" / "2012" / "MSRpar.train.tsv").pairs[:3]  # MSRP test pairs
    test = _msrp(tmp_path / "test.tsv", [*PAIRS[:2], *((int(p.score > 3), p.sentence1, p.sentence2) for p in held)])
    train = _msrp(tmp_path / "train.tsv", PAIRS[2:], first_id=1000)  # no pair of the test, nor its ids
    argv = ["evaluate-paraphrase", "--signal", "hybrid", "--train", train, "--test", test, "--preset", "default",
            "--format", "json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    note = ("3 of 5 test pairs are also training pairs of the hybrid blend (the blend paralign ships, fitted on "
            f"STS 2012's MSRpar.train and SMTeuroparl.train; first {test}:4): the figures are not held out")
    assert json.loads(captured.out)["notes"] == [note] and f"paralign: warning: {note}" in captured.err
    assert main([*argv[:2], "sultan2014", *argv[3:]]) == 0  # another signal learnt nothing from them
    assert json.loads(capsys.readouterr().out)["notes"] == []


def test_the_text_says_how_failed_test_pairs_were_counted() -> None:
    """A test pair that could not be scored counts as "not paraphrase" (its label stays in the
    figures' denominator); the text said only "failed pairs 1", the docstring alone said how."""
    from paralign.cli.evaluate_paraphrase import render
    from paralign.similarity.paraphrase import paraphrase_from_scores

    result = paraphrase_from_scores([0.2, 0.8], [False, True], [None, 0.9], [True, True], "exact").to_dict()
    assert result["recall"] == 0.5  # the failed pair, a paraphrase, was called "not paraphrase"
    shown = render({**result, "aligner": "exact", "failed": 1, "signature": "s"})
    assert "failed pairs 1 (a failed test pair counts as not paraphrase)" in shown
    assert "failed pairs 0\n" in render({**result, "aligner": "exact", "failed": 0, "signature": "s"})
