"""CLI: `paralign similarity`, `evaluate-sts`, `evaluate-paraphrase` (exact-match aligner: fast)."""

from __future__ import annotations

import io
import json
import re
from itertools import islice
from pathlib import Path

import pytest

from paralign.aligners.exact import exact_match_aligner
from paralign.cli import main
from paralign.corpora.sentence_pairs import read_sentence_pairs, sentences_from_file
from paralign.errors import ConfigurationError
from paralign.similarity import evaluate_paraphrase_files, evaluate_sts_files, similarity


def run_json(capsys, argv):
    assert main(argv + ["--format", "json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def test_similarity_one_score_per_pair_with_bad_rows(tmp_path, capsys, monkeypatch):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        "\ufeffA man plays a guitar.\tA man plays a guitar.\n"
        "only one sentence\n"
        "Cats sleep.\tDogs bark loudly.\n"
        "a\tb\tc\td\n",  # (3 fields are id, s1, s2, as align reads them)
        encoding="utf-8",
    )
    assert main(["similarity", "--pairs", str(pairs), "--aligner", "exact"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 4
    assert float(lines[0]) == pytest.approx(1.0)
    assert lines[1] == "NA" and lines[3] == "NA"
    assert float(lines[2]) == pytest.approx(0.0)
    assert ":2:" in err and ":4:" in err
    result, _ = run_json(capsys, ["similarity", "--pairs", str(pairs), "--aligner", "exact"])
    assert result["pairs"] == 4 and result["skipped"] == 2
    assert [r["line"] for r in result["skipped_rows"]] == [2, 4]
    assert result["scores"][1] is None
    # stdin default, same score as the library call
    monkeypatch.setattr("sys.stdin", io.StringIO("A big dog.\tA big cat.\n"))
    result, _ = run_json(capsys, ["similarity", "--aligner", "exact", "--signal", "sultan2015"])
    assert result["scores"][0] == pytest.approx(
        similarity("A big dog.", "A big cat.", signal="sultan2015", aligner=exact_match_aligner)
    )
    # stdin is named <stdin> in messages; nothing usable at all is a failure, nothing at all a warning
    monkeypatch.setattr("sys.stdin", io.StringIO("no tab\nstill none\n"))
    assert main(["similarity", "--aligner", "exact"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == ["NA", "NA"] and "<stdin>:1:" in err and "2 of 2 input lines bad" in err
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["similarity", "--aligner", "exact"]) == 0
    assert "<stdin>: no sentence pairs" in capsys.readouterr().err


def test_read_sentence_pairs_reports_line_numbers():
    rows = list(read_sentence_pairs(["a\tb\r\n", "\n", "x\t \n"]))
    assert rows[0] == (1, ("a", "b"))
    assert rows[1] == (2, "empty line")
    assert rows[2] == (3, "empty target sentence")


def test_idf_signal_needs_training_sentences(tmp_path, capsys):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("a zebra\ta zebra\n", encoding="utf-8")
    assert main(["similarity", "--pairs", str(pairs), "--aligner", "exact", "--signal", "idf"]) == 2  # a usage error (issue 23)
    assert "--idf-from" in capsys.readouterr().err
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("a zebra runs\na horse runs\n", encoding="utf-8")
    argv = ["similarity", "--pairs", str(pairs), "--aligner", "exact", "--signal", "idf", "--idf-from", str(corpus)]
    result, _ = run_json(capsys, argv)
    assert result["signal"] == "idf" and result["scores"] == [pytest.approx(1.0)]


def test_idf_from_for_a_signal_that_takes_no_idf_statistics_is_a_usage_error(tmp_path, capsys):
    """--idf-from with sultan2014 (the default), sultan2015 or the hybrid was silently ignored:
    the scores were those without it, as --train of a signal other than the hybrid is not."""
    pairs = tmp_path / "p.tsv"
    pairs.write_text("a zebra\ta zebra\n", encoding="utf-8")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("a zebra runs\na horse runs\n", encoding="utf-8")
    sts = tmp_path / "sts.tsv"
    sts.write_text("5.0\ta zebra runs\ta zebra runs\n1.0\ta cat\ta horse runs\n", encoding="utf-8")
    for signal in ([], ["--signal", "sultan2015"]):
        assert main(["similarity", "--pairs", str(pairs), "--aligner", "exact", "--idf-from", str(corpus), *signal]) == 2
        assert "signal 'sultan201" in capsys.readouterr().err
    for signal in ([], ["--signal", "sultan2015"], ["--signal", "hybrid"]):
        assert main(["evaluate-sts", "--data", str(sts), "--aligner", "exact", "--idf-from", str(corpus), *signal]) == 2
        assert "takes none" in capsys.readouterr().err
    with pytest.raises(ConfigurationError, match="signal 'sultan2014' takes none"):  # the library alike
        evaluate_sts_files([sts], idf_from=[corpus], aligner=exact_match_aligner)
    assert evaluate_sts_files([sts], aligner=exact_match_aligner).sets[0].evaluation.pairs == 2


def _head(src, dst, n):
    with open(src, encoding="utf-8") as handle:
        dst.write_text("".join(islice(handle, n)), encoding="utf-8")
    return dst


@pytest.mark.data
def test_evaluate_sts_on_subsets(data, tmp_path, capsys):
    root = data / "similarity"
    headlines = _head(root / "sts" / "2013" / "headlines.test.tsv", tmp_path / "headlines.tsv", 80)
    fnwn = _head(root / "sts" / "2013" / "FNWN.test.tsv", tmp_path / "fnwn.tsv", 40)
    with open(fnwn, "a", encoding="utf-8") as handle:
        handle.write("\tno score\tsecond\n")
    result, err = run_json(
        capsys, ["evaluate-sts", "--data", str(headlines), "--data", str(fnwn), "--aligner", "exact"]
    )
    assert result["pairs"] == 120 and result["skipped"] == 1
    assert "fnwn.tsv:41: skipped: no gold score" in err
    per_set = {s["name"]: s for s in result["sets"]}
    assert per_set["headlines.tsv"]["pairs"] == 80
    # headlines are lexical: even exact matching correlates clearly with the gold scores
    assert per_set["headlines.tsv"]["pearson"] > 0.4
    weighted = (80 * per_set["headlines.tsv"]["pearson"] + 40 * per_set["fnwn.tsv"]["pearson"]) / 120
    assert result["pearson"] == pytest.approx(weighted)
    report = evaluate_sts_files([headlines], aligner=exact_match_aligner)
    assert report.to_dict()["aligner"] == "exact"
    assert report.to_dict()["pearson"] == pytest.approx(per_set["headlines.tsv"]["pearson"])
    assert main(["evaluate-sts", "--data", str(headlines), "--aligner", "exact"]) == 0
    assert "headlines.tsv" in capsys.readouterr().out


@pytest.mark.data
def test_evaluate_paraphrase_on_subsets(data, tmp_path, capsys):
    root = data / "similarity" / "msrp"
    train = _head(root / "msr-para-train.tsv", tmp_path / "train.tsv", 121)
    test = _head(root / "msr-para-test.tsv", tmp_path / "test.tsv", 61)
    with open(test, "a", encoding="utf-8") as handle:
        handle.write("1\t1\t2\tonly three fields\n")
    assert len(sentences_from_file(train)) == 240
    result, err = run_json(
        capsys, ["evaluate-paraphrase", "--train", str(train), "--test", str(test), "--aligner", "exact"]
    )
    assert set(result) >= {"threshold", "accuracy", "precision", "recall", "f1"}
    assert result["train_pairs"] == 120 and result["test_pairs"] == 60
    assert result["skipped"] == 1 and "test.tsv:62: skipped" in err
    assert 0.0 <= result["threshold"] <= 1.0
    # the threshold is tuned on training pairs: never worse than a constant answer there
    tr = result["train"]
    positives = (tr["tp"] + tr["fn"]) / 120
    assert tr["accuracy"] >= max(positives, 1 - positives)
    assert result["aligner"] == "exact"
    lib = evaluate_paraphrase_files([train], test, aligner=exact_match_aligner, classifier="signal", signal="idf")
    assert lib["signal"] == "idf" and lib["test_pairs"] == 60 and lib["classifier"] == "signal"
    assert main(["evaluate-paraphrase", "--train", str(train), "--test", str(test), "--aligner", "exact"]) == 0
    assert "accuracy" in capsys.readouterr().out


@pytest.mark.parametrize("inputs", [["similarity", "--pairs", "missing.tsv"], ["evaluate-sts", "--data", "missing.tsv"],
                                    ["evaluate-paraphrase", "--train", "missing.tsv", "--test", "missing.tsv"]])
def test_a_preset_the_aligner_has_not_is_a_usage_error_naming_both(inputs, capsys):
    """`--aligner exact --preset paper` (or `--aligner contextual --preset paper`) scored with the
    exact (contextual) aligner and said nothing, in the similarity commands, while align refused
    it: a usage error naming both now, before any input is read (the files here do not exist),
    the one check of the web API's "aligner" and "preset" too (registry.preset_clash). A preset
    typed with exact is refused even when it is the command's own (evaluate-paraphrase's
    paraphrase), but default, the aligner's own option set (the only one exact has), is taken
    with every aligner, as align and the web API take it; none typed is none."""
    for aligner, preset in (("exact", "paper"), ("exact", "paraphrase"), ("contextual", "paraphrase")):
        assert main([*inputs, "--aligner", aligner, "--preset", preset]) == 2
        err = capsys.readouterr().err
        assert f"--aligner {aligner}" in err and f"--preset {preset}" in err and "missing" not in err, err
    for options in (["--aligner", "exact"], ["--aligner", "exact", "--preset", "default"],
                    ["--aligner", "contextual", "--preset", "contextual"],
                    ["--aligner", "contextual", "--preset", "default"], ["--preset", "paper"]):
        assert main([*inputs, *options]) == 2  # no clash: on to the input, which is missing
        assert "missing.tsv" in capsys.readouterr().err


@pytest.mark.data
def test_evaluate_paraphrase_uses_the_paraphrase_preset_unless_told(data, tmp_path, capsys):
    root = data / "similarity" / "msrp"
    train = _head(root / "msr-para-train.tsv", tmp_path / "train.tsv", 41)
    test = _head(root / "msr-para-test.tsv", tmp_path / "test.tsv", 21)
    base = ["evaluate-paraphrase", "--train", str(train), "--test", str(test)]
    preset, _ = run_json(capsys, base)
    default, _ = run_json(capsys, base + ["--preset", "default"])
    assert preset["aligner"] == "sultan:paraphrase" and default["aligner"] == "sultan:default"
    assert preset["train_pairs"] == default["train_pairs"] == 40 and preset["test_pairs"] == 20
    assert main(base + ["--preset", "paper"]) == 0
    assert "aligner sultan:paper" in capsys.readouterr().out


def _exact_paraphrase_argv(data, tmp_path, train_lines: int, test_lines: int) -> list[str]:
    """evaluate-paraphrase with the exact aligner on the first lines of MSRP train and test."""
    root = data / "similarity" / "msrp"
    train = _head(root / "msr-para-train.tsv", tmp_path / "train.tsv", train_lines)
    test = _head(root / "msr-para-test.tsv", tmp_path / "test.tsv", test_lines)
    return ["evaluate-paraphrase", "--train", str(train), "--test", str(test), "--aligner", "exact"]


@pytest.mark.data
def test_evaluate_paraphrase_rule_and_cross_validation(data, tmp_path, capsys):
    base = _exact_paraphrase_argv(data, tmp_path, 121, 41)
    low, _ = run_json(capsys, base)
    assert low["rule"] == "lowest" and low["cross_validation"] is None
    mid, _ = run_json(capsys, base + ["--rule", "plateau-middle", "--cv-folds", "5"])
    assert mid["rule"] == "plateau-middle" and mid["threshold"] >= low["threshold"]
    assert mid["train"]["accuracy"] == pytest.approx(low["train"]["accuracy"])  # both maximise it
    cv = mid["cross_validation"]
    assert cv["folds"] == 5 and cv["rule"] == "plateau-middle" and 0.0 <= cv["accuracy"] <= 1.0
    logistic, _ = run_json(capsys, base + ["--rule", "logistic"])
    assert logistic["rule"] == "logistic"
    assert main(base + ["--rule", "logistic", "--cv-folds", "3"]) == 0
    assert "3-fold cross-validation" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(base + ["--rule", "highest"])


@pytest.mark.data
def test_evaluate_paraphrase_classifiers(data, tmp_path, capsys):
    from paralign.similarity.features import ALIGNMENT_FEATURES, FEATURES
    from paralign.similarity.model import LogisticModel

    base = _exact_paraphrase_argv(data, tmp_path, 201, 41)
    model, _ = run_json(capsys, base + ["--cv-folds", "5"])
    assert model["classifier"] == "features" and model["signal"] == ""
    assert [f["name"] for f in model["model"]["features"]] == list(FEATURES)
    assert 0.0 < model["threshold"] < 1.0  # a probability
    assert model["cross_validation"]["folds"] == 5
    fitted = LogisticModel.from_dict(model["model"])
    assert fitted.l2 == 1.0 and len(fitted.weights) == len(FEATURES)
    signal, _ = run_json(capsys, base + ["--classifier", "signal"])
    assert signal["classifier"] == "signal" and signal["signal"] == "sultan2014" and signal["model"] is None
    implied, _ = run_json(capsys, base + ["--signal", "all-words"])
    assert implied["classifier"] == "signal" and implied["signal"] == "all-words"
    heavy, _ = run_json(capsys, base + ["--l2", "1000"])
    assert heavy["model"]["l2"] == 1000.0
    assert max(abs(f["weight"]) for f in heavy["model"]["features"]) < max(
        abs(f["weight"]) for f in model["model"]["features"]
    )
    assert main(base + ["--classifier", "features", "--signal", "all-words"]) != 0
    assert "'signal' classifier" in capsys.readouterr().err
    assert main(base) == 0
    assert "logistic model over alignment+mt features" in capsys.readouterr().out
    assert model["feature_set"] == "alignment+mt" and signal["feature_set"] is None
    alignment_only, _ = run_json(capsys, base + ["--feature-set", "alignment"])
    assert alignment_only["feature_set"] == "alignment"
    assert [f["name"] for f in alignment_only["model"]["features"]] == list(ALIGNMENT_FEATURES)
    assert main(base + ["--classifier", "signal", "--feature-set", "alignment"]) != 0
    assert "feature set applies to the 'features' classifier" in capsys.readouterr().err
    # --l2 with the signal classifier was ignored without a word (exit 0)
    assert main(base + ["--classifier", "signal", "--l2", "5"]) == 2
    assert "L2 penalty applies to the 'features' classifier" in capsys.readouterr().err


_TRAIN = [
    ("A man plays a guitar.", "A man plays a guitar.", True),
    ("The cat sleeps on the sofa.", "The cat sleeps on the couch.", True),
    ("Shares rose 5 percent on Monday.", "Shares rose 5 percent on Monday, traders said.", True),
    ("The minister resigned.", "The minister resigned on Friday.", True),
    ("Cats sleep.", "Dogs bark loudly.", False),
    ("The bank raised rates.", "A storm hit the coast overnight.", False),
    ("He sold 300 shares.", "He bought a new car yesterday.", False),
    ("It rained all day in Paris.", "The team won the final match.", False),
]


def test_similarity_classifies_pairs_with_a_trained_report(tmp_path, capsys):
    from paralign.similarity import evaluate_paraphrase
    from paralign.similarity.model import ModelSignal, TrainedClassifier

    report = evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner).to_dict()
    path = tmp_path / "model.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The dog sleeps on the sofa.\tThe dog sleeps on the couch.\nno tab here\n"
                     "Prices fell.\tThe concert was loud and long.\n", encoding="utf-8")
    assert main(["similarity", "--model", str(path), "--pairs", str(pairs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "NA\tNA" and [line.split("\t")[1] for line in (lines[0], lines[2])] == ["1", "0"]
    result, _ = run_json(capsys, ["similarity", "--model", str(path), "--pairs", str(pairs)])
    assert result["aligner"] == "exact" and result["signal"] == "features-model"
    assert result["paraphrase"] == [True, None, False] and result["threshold"] == report["threshold"]
    trained = TrainedClassifier.from_report(report)
    assert isinstance(trained.signal, ModelSignal)
    expected = similarity("The dog sleeps on the sofa.", "The dog sleeps on the couch.", signal=trained.signal,
                          aligner=exact_match_aligner)
    assert result["scores"][0] == pytest.approx(expected) and float(lines[0].split("\t")[0]) == pytest.approx(expected)
    # a single-signal report classifies with its signal and threshold
    signal_report = evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner, classifier="signal").to_dict()
    path.write_text(json.dumps(signal_report), encoding="utf-8")
    result, _ = run_json(capsys, ["similarity", "--model", str(path), "--pairs", str(pairs)])
    assert result["signal"] == "sultan2014" and result["threshold"] == signal_report["threshold"]
    assert result["scores"][0] == pytest.approx(
        similarity("The dog sleeps on the sofa.", "The dog sleeps on the couch.", aligner=exact_match_aligner)
    )


def test_trained_reports_that_cannot_classify_are_refused(tmp_path, capsys):
    from paralign.errors import FormatError
    from paralign.similarity.model import TrainedClassifier

    with pytest.raises(FormatError, match="not an evaluate-paraphrase report"):
        TrainedClassifier.from_report({"accuracy": 0.7})
    with pytest.raises(FormatError, match="without its model"):
        TrainedClassifier.from_report({"threshold": 0.5, "classifier": "features", "aligner": "exact"})
    with pytest.raises(FormatError, match="IDF"):
        TrainedClassifier.from_report({"threshold": 0.5, "classifier": "signal", "signal": "idf"})
    with pytest.raises(FormatError, match="cannot be rebuilt"):
        TrainedClassifier.from_report({"threshold": 0.5, "aligner": "my_aligner"})
    with pytest.raises(FormatError, match="r.json: the report's signal: .*bogus") as caught:
        TrainedClassifier.from_report({"threshold": 0.5, "signal": "bogus"}, "r.json")  # a ConfigurationError
    assert caught.value.source == "r.json"  # a data error naming the report, not a usage error (exit 2) without it
    trained = TrainedClassifier.from_report({"threshold": 0.5, "aligner": "sultan:paraphrase", "signal": "all-words"})
    assert (trained.aligner, trained.preset, trained.threshold) == ("sultan", "paraphrase", 0.5)
    bad = tmp_path / "bad.json"
    bad.write_text('{"threshold": 0.5,\n', encoding="utf-8")
    assert main(["similarity", "--model", str(bad), "--pairs", str(bad)]) == 1  # bad contents: a data error
    assert f"{bad}:2: invalid JSON (column " in capsys.readouterr().err
    assert main(["similarity", "--model", str(tmp_path / "missing.json")]) == 2  # a missing file: usage
    assert f"{tmp_path / 'missing.json'}: no such file" in capsys.readouterr().err
    # a byte that is not UTF-8 was a traceback (UnicodeDecodeError); a BOM 'Unexpected UTF-8 BOM'
    bad.write_bytes(b'{"signal": "caf\xe9"}\n')
    assert main(["similarity", "--model", str(bad), "--pairs", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err == f"paralign similarity: error: {bad}:1: not UTF-8 (byte 0xe9 at column 16); re-encode the file\n"
    bad.write_bytes(b'\xef\xbb\xbf{"accuracy": 0.7}\n')
    assert main(["similarity", "--model", str(bad), "--pairs", str(bad)]) == 1
    assert "not an evaluate-paraphrase report" in capsys.readouterr().err


def test_evaluate_paraphrase_refuses_files_without_pairs(tmp_path, capsys):
    header = "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
    train = tmp_path / "train.tsv"
    train.write_text(header + "".join(f"{int(g)}\t{k}\t{k + 100}\t{a}\t{b}\n" for k, (a, b, g) in enumerate(_TRAIN)),
                     encoding="utf-8")
    empty = tmp_path / "empty.tsv"
    empty.write_text(header, encoding="utf-8")
    base = ["evaluate-paraphrase", "--aligner", "exact"]
    assert main(base + ["--train", str(train), "--test", str(empty)]) == 1
    assert f"{empty}: no usable test pairs" in capsys.readouterr().err
    assert main(base + ["--train", str(empty), "--test", str(train)]) == 1
    assert f"{empty}: no usable training pairs" in capsys.readouterr().err
    result, _ = run_json(capsys, base + ["--train", str(train), "--test", str(train)])
    assert result["test_pairs"] == len(_TRAIN) and result["classifier"] == "features"


# -- '-' reads stdin (evaluate-sts --data, evaluate-paraphrase --train/--test) -------------------
_STS = "4.0\tA man plays a guitar.\tA man plays a guitar.\n1.0\tCats sleep.\tDogs bark.\n" \
       "\tno score\tsecond\n3.0\tThe cat sleeps.\tThe cat naps.\n"


def _byte_stdin(monkeypatch, text: str) -> None:
    """stdin as in a shell: text over a byte buffer (read_once copies the bytes)."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def _msrp(rows, extra: str = "") -> str:
    header = "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
    return header + "".join(f"{int(g)}\t{k}\t{k + 100}\t{a}\t{b}\n" for k, (a, b, g) in enumerate(rows)) + extra


def test_evaluate_sts_reads_stdin_and_names_it(tmp_path, capsys, monkeypatch):
    path = tmp_path / "sts.tsv"
    path.write_text(_STS, encoding="utf-8")
    expected, _ = run_json(capsys, ["evaluate-sts", "--data", str(path), "--aligner", "exact"])
    _byte_stdin(monkeypatch, _STS)
    result, err = run_json(capsys, ["evaluate-sts", "--data", "-", "--aligner", "exact"])
    (one,) = result["sets"]
    assert one["path"] == one["name"] == "<stdin>" and one["pairs"] == 3
    assert one["skipped_rows"] == [{"line": 3, "reason": "no gold score"}]
    assert one["pearson"] == pytest.approx(expected["sets"][0]["pearson"])
    assert "<stdin>:3: skipped: no gold score" in err
    assert "paralign-" not in json.dumps(result) + err  # never the temporary copy
    monkeypatch.setattr("sys.stdin", io.StringIO(_STS))  # a text stream without bytes under it
    assert main(["evaluate-sts", "--data", str(path), "--data", "-", "--aligner", "exact"]) == 0
    out = capsys.readouterr().out
    assert "<stdin>" in out and "sts.tsv" in out and "paralign-" not in out


def test_evaluate_sts_stdin_errors_name_stdin(tmp_path, capsys, monkeypatch):
    _byte_stdin(monkeypatch, "not an STS row\n")
    assert main(["evaluate-sts", "--data", "-", "--aligner", "exact"]) == 1
    err = capsys.readouterr().err
    assert "<stdin>: no STS rows found" in err and "paralign-" not in err
    _byte_stdin(monkeypatch, _STS)
    assert main(["evaluate-sts", "--data", "-", "--data", "-", "--aligner", "exact"]) == 2  # a usage error (issue 23)
    assert "stdin can be read only once" in capsys.readouterr().err
    assert main(["evaluate-sts", "--data", "-", "--idf-from", "-", "--aligner", "exact"]) == 2  # a usage error (issue 23)
    assert "--data, --idf-from" in capsys.readouterr().err
    path = tmp_path / "sts.tsv"
    path.write_text(_STS, encoding="utf-8")
    result, _ = run_json(capsys, ["evaluate-sts", "--data", str(path), "--idf-from", "-",
                                  "--signal", "idf", "--aligner", "exact"])
    assert result["signal"] == "idf" and result["sets"][0]["path"] == str(path)


def test_evaluate_paraphrase_reads_stdin_and_names_it(tmp_path, capsys, monkeypatch):
    train = tmp_path / "train.tsv"
    train.write_text(_msrp(_TRAIN), encoding="utf-8")
    base = ["evaluate-paraphrase", "--aligner", "exact"]
    _byte_stdin(monkeypatch, _msrp(_TRAIN, "1\t2\tonly three\n"))
    result, err = run_json(capsys, base + ["--train", str(train), "--test", "-"])
    assert result["test_pairs"] == len(_TRAIN) and result["skipped"] == 1
    assert result["skipped_rows"][0]["file"] == "<stdin>" and result["skipped_rows"][0]["line"] == 10
    assert "<stdin>:10: skipped" in err and "paralign-" not in json.dumps(result) + err
    monkeypatch.setattr("sys.stdin", io.StringIO(_msrp(_TRAIN, "1\t2\tonly three\n")))
    result, err = run_json(capsys, base + ["--train", "-", "--test", str(train)])
    assert result["train_pairs"] == len(_TRAIN) and result["skipped_rows"][0]["file"] == "<stdin>"
    assert "<stdin>:10: skipped" in err and "paralign-" not in json.dumps(result) + err
    _byte_stdin(monkeypatch, _msrp([]))
    assert main(base + ["--train", "-", "--test", str(train)]) == 1
    err = capsys.readouterr().err
    assert "<stdin>: no usable training pairs" in err and "paralign-" not in err
    assert main(base + ["--train", "-", "--test", "-"]) == 2  # a usage error (issue 23)
    assert "stdin can be read only once" in capsys.readouterr().err


def test_sentences_of_idf_files_by_format(tmp_path):
    from paralign.corpora.sentence_pairs import iter_sentences_from_file

    text = tmp_path / "corpus.txt"
    text.write_text("First sentence here.\n\nSecond one\twith a tab.\nThird.\n", encoding="utf-8")
    assert sentences_from_file(text) == ["First sentence here.", "Second one\twith a tab.", "Third."]
    sts = tmp_path / "sts.tsv"
    sts.write_text("4.2\tA man plays.\tA man is playing.\n\tno score\there\n1.0\tCats.\tDogs.\n", encoding="utf-8")
    assert sentences_from_file(sts) == ["A man plays.", "A man is playing.", "no score", "here", "Cats.", "Dogs."]
    stream = iter_sentences_from_file(text)
    assert next(stream) == "First sentence here."  # a generator: large corpora are not held in memory


def test_evaluate_sts_skips_non_finite_and_out_of_range_gold_and_refuses_a_file_without_any(tmp_path, capsys):
    """A wrong gold score never reaches the correlation: such rows are skipped with their line,
    and a file with no usable pair is a data error (exit 1), not a correlation of nothing."""
    good = ["4.0\tA cat sat.\tA cat sat down.", "1.0\tHe left.\tShe stayed home.", "2.5\tDogs bark.\tA dog barks."]
    path = tmp_path / "sts.tsv"
    path.write_text("\n".join([good[0], "inf\tThe dog ran.\tA dog runs.", good[1], "9\tX y.\tX y.", good[2]]) + "\n")
    result, err = run_json(capsys, ["evaluate-sts", "--data", str(path), "--aligner", "exact"])
    assert result["pairs"] == 3 and result["skipped"] == 2
    assert f"{path}:2: skipped: gold score 'inf' is not a finite number" in err
    assert f"{path}:4: skipped: gold score 9 outside 0-5" in err
    bad = tmp_path / "bad.tsv"
    bad.write_text("9\tThe dog ran.\tA dog runs.\n-1\ta b.\tc d.\n")
    assert main(["evaluate-sts", "--data", str(bad), "--aligner", "exact"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: no usable STS pairs (line 1: gold score 9 outside 0-5)" in err and "Traceback" not in err


def test_similarity_reads_the_sts_stsb_and_msrp_files_the_evaluators_read(tmp_path, capsys):
    """`similarity --pairs` takes the files evaluate-sts and evaluate-paraphrase read (gold
    ignored, the MSRP header not a pair) and scores them as the plain `s1 TAB s2` file."""
    pairs = [("A cat sat on the mat.", "A cat is on the mat."), ("He left early.", "She stayed home.")]
    layouts = {
        "plain.tsv": "".join(f"{a}\t{b}\n" for a, b in pairs),
        "sts.tsv": "".join(f"{k + 1}.5\t{a}\t{b}\n" for k, (a, b) in enumerate(pairs)),
        "stsb.csv": "".join(f"main-news\tnews\t2015\t{k:04d}\t3.2\t{a}\t{b}\n" for k, (a, b) in enumerate(pairs)),
        "msrp.tsv": "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
        + "".join(f"1\t{k}\t{k + 100}\t{a}\t{b}\n" for k, (a, b) in enumerate(pairs)),
        # without ids, as evaluate-paraphrase reads it (its empty ids were read as the sentences)
        "msrp-no-ids.tsv": "".join(f"1\t\t\t{a}\t{b}\n" for a, b in pairs),
        # a user's own tables, with a header naming the columns (every line was a bad row)
        "mine.csv": "\ufeffsentence1,sentence2,score\r\n"
        + "".join(f'"{a}","{b}",{k}\r\n' for k, (a, b) in enumerate(pairs)),
        "paws.tsv": "id\tsentence1\tsentence2\tlabel\n" + "".join(f"{k}\t{a}\t{b}\t1\n" for k, (a, b) in enumerate(pairs)),
    }
    results = {}
    for name, text in layouts.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        results[name], _ = run_json(capsys, ["similarity", "--pairs", str(path), "--aligner", "exact"])
    plain = results.pop("plain.tsv")
    assert plain["pairs"] == 2 and plain["skipped"] == 0
    for name, result in results.items():
        assert result["scores"] == plain["scores"] and result["skipped"] == 0, name


def test_a_users_csv_is_one_pair_a_record_in_similarity_and_the_evaluators(tmp_path, capsys):
    """A CSV with a `sentence1,sentence2,score` header, a quoted field holding a comma, quotes and
    a line break: `similarity` gives one score a record, and `evaluate-sts` and
    `evaluate-paraphrase` (a `label` column) the figures of the same pairs in their own layouts."""
    rows = [('"Yes, sure," he said.', "He said yes.", 4.0), ("The cat\nsat.", "A cat sat.", 4.5),
            ("He left early.", "She stayed home.", 0.5), ("A man sings.", "A man is singing.", 5.0)]
    quoted = [(a.replace('"', '""'), b, g) for a, b, g in rows]
    rows = [(a.replace("\n", " "), b, g) for a, b, g in rows]  # one line a pair in the TSV layouts
    (tmp_path / "mine.csv").write_text("sentence1,sentence2,score\n" + "".join(
        f'"{a}",{b},{g}\n' for a, b, g in quoted), encoding="utf-8")
    (tmp_path / "sts.tsv").write_text("".join(f"{g}\t{a}\t{b}\n" for a, b, g in rows), encoding="utf-8")
    for k, (name, body) in enumerate([("p.csv", "sentence1,sentence2,label\n"), ("p.msrp", "")]):
        (tmp_path / name).write_text(body + "".join(
            f'"{a}",{b},{int(g > 2)}\n' if k == 0 else f"{int(g > 2)}\t{i}\t{i}\t{a}\t{b}\n"
            for i, (a, b, g) in enumerate(quoted if k == 0 else rows)), encoding="utf-8")
    assert main(["similarity", "--pairs", str(tmp_path / "mine.csv"), "--aligner", "exact"]) == 0
    scores = capsys.readouterr().out.splitlines()
    assert len(scores) == 4 and "NA" not in scores
    assert float(scores[1]) == pytest.approx(similarity("The cat sat.", "A cat sat.", aligner=exact_match_aligner))
    sts = {name: run_json(capsys, ["evaluate-sts", "--data", str(tmp_path / name), "--aligner", "exact"])[0]
           for name in ("mine.csv", "sts.tsv")}
    assert sts["mine.csv"]["pairs"] == sts["sts.tsv"]["pairs"] == 4
    assert sts["mine.csv"]["pearson"] == sts["sts.tsv"]["pearson"]
    msrp = {name: run_json(capsys, ["evaluate-paraphrase", "--train", str(tmp_path / name), "--test",
                                    str(tmp_path / name), "--aligner", "exact", "--signal", "sultan2014"])[0]
            for name in ("p.csv", "p.msrp")}
    assert msrp["p.csv"]["test"] == msrp["p.msrp"]["test"] and msrp["p.csv"]["test_pairs"] == 4


def test_a_tables_id_column_is_listed_under_ids_as_a_jsonl_records_id_is(tmp_path, capsys):
    """A CSV or TSV table whose header names an `id` column (GLUE's, PAWS's) gave its scores
    without its ids, where a JSONL record's "id" is listed under "ids" in the scores' order.
    A table's id is listed so now: None for a record with an empty id cell, or none (a bad
    record); a table without an id column, as a file of plain pairs, lists no ids."""
    (tmp_path / "t.csv").write_text('ID,sentence1,sentence2\n'
                                    'a1,A cat sat.,A cat is sitting.\n'
                                    'a2,"The cat\nsat.",A cat sat.\n'
                                    ',He left early.,She stayed home.\n'
                                    'a4,only one sentence\n'
                                    ' a5 ,A man sings.,A man is singing.\n', encoding="utf-8")
    result, _ = run_json(capsys, ["similarity", "--pairs", str(tmp_path / "t.csv"), "--aligner", "exact"])
    assert result["ids"] == ["a1", "a2", None, None, "a5"]
    assert [s is None for s in result["scores"]] == [False, False, False, True, False]
    (tmp_path / "t.tsv").write_text("id\tsentence1\tsentence2\tlabel\n7\tA cat sat.\tA cat sat.\t1\n",
                                    encoding="utf-8")
    result, _ = run_json(capsys, ["similarity", "--pairs", str(tmp_path / "t.tsv"), "--aligner", "exact"])
    assert result["ids"] == ["7"]
    (tmp_path / "n.csv").write_text("sentence1,sentence2\nA cat sat.,A cat sat.\n", encoding="utf-8")
    result, _ = run_json(capsys, ["similarity", "--pairs", str(tmp_path / "n.csv"), "--aligner", "exact"])
    assert "ids" not in result and result["scores"] == [1.0]


def test_the_summary_counts_a_tables_records_not_lines(tmp_path, capsys):
    """similarity's summary said "1 of 2 input lines bad" of a CSV whose quoted record spans two
    lines (and whose header is no pair): it counts records there, and lines in a file of lines."""
    table = tmp_path / "t.csv"
    table.write_text('sentence1,sentence2\n"The cat\nsat.",A cat sat.\nonly one sentence\n', encoding="utf-8")
    assert main(["similarity", "--pairs", str(table), "--aligner", "exact"]) == 0
    err = capsys.readouterr().err
    assert f"{table}:4: 1 field, expected 2" in err
    assert err.splitlines()[-1].startswith(f"paralign: warning: {table}: 1 of 2 records bad (reported above;")
    lines = tmp_path / "p.tsv"
    lines.write_text("The cat sat.\tA cat sat.\nonly one sentence\n", encoding="utf-8")
    assert main(["similarity", "--pairs", str(lines), "--aligner", "exact"]) == 0
    assert f"{lines}: 1 of 2 input lines bad" in capsys.readouterr().err


def test_help_says_a_hybrid_models_scores_are_not_clipped(capsys):
    """The help promised every score in [0, 1]; a fitted hybrid blend's are not clipped."""
    with pytest.raises(SystemExit):
        main(["similarity", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("score per pair, in [0, 1], except with a hybrid blend (--signal hybrid, or its --model), "
            "whose scores are mostly in [0, 1] but not clipped") in text


def _parts(signature: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in signature.split("|"))


def test_similarity_json_carries_the_signature_and_the_text_stays_one_line_per_pair(tmp_path, capsys):
    from paralign._version import __version__

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A man plays a guitar.\tA man plays a guitar.\nCats sleep.\tDogs bark.\n", encoding="utf-8")
    argv = ["similarity", "--pairs", str(pairs), "--aligner", "exact"]
    result, _ = run_json(capsys, argv)
    signature = result["signature"]
    assert signature.startswith("signal:sultan2014|aligner:exact|spacy:")
    assert signature.endswith(f"|version:{__version__}")
    assert run_json(capsys, argv + ["--workers", "2"])[0]["signature"] == signature  # one chunk: in process
    assert _parts(run_json(capsys, argv + ["--signal", "sultan2015"])[0]["signature"])["signal"] == "sultan2015"
    sultan, _ = run_json(capsys, ["similarity", "--pairs", str(pairs), "--preset", "paraphrase"])
    assert _parts(sultan["signature"])["aligner"] == "sultan:paraphrase"
    assert _parts(sultan["signature"])["sim"] == "ppdb-1.0-xxxl-lexical"
    assert main(argv) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # scores only: scripts read them line by line


def test_idf_signature_and_model_file_hash(tmp_path, capsys):
    """--idf-from: a hash of the fitted statistics; --model: the report's name and content hash."""
    from paralign.similarity import evaluate_paraphrase

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A big dog.\tA big cat.\n", encoding="utf-8")
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("A big dog.\nA cat.\n", encoding="utf-8")
    two.write_text("A big dog.\nA big cat.\nThe dog.\n", encoding="utf-8")
    argv = ["similarity", "--pairs", str(pairs), "--aligner", "exact", "--signal", "idf", "--idf-from"]
    idf = [_parts(run_json(capsys, argv + [str(f)])[0]["signature"])["idf"] for f in (one, two, one)]
    assert idf[0] != idf[1] and idf[0] == idf[2]
    report = tmp_path / "model.json"
    report.write_text(json.dumps(evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner).to_dict()),
                      encoding="utf-8")
    result, _ = run_json(capsys, ["similarity", "--model", str(report), "--pairs", str(pairs)])
    found = _parts(result["signature"])
    assert found["signal"] == "features-model" and found["model"].startswith("model.json#")
    assert found["aligner"] == "exact"


def test_evaluate_paraphrase_prints_and_reports_its_signature(tmp_path, capsys):
    def msrp(path, rows):
        lines = ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"]
        lines += [f"{int(label)}\t{k}\t{k + 100}\t{a}\t{b}" for k, (a, b, label) in enumerate(rows)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return str(path)

    train, test = msrp(tmp_path / "train.tsv", _TRAIN), msrp(tmp_path / "test.tsv", _TRAIN[:4])
    base = ["evaluate-paraphrase", "--train", train, "--test", test, "--aligner", "exact"]
    model, _ = run_json(capsys, base)
    found = _parts(model["signature"])
    assert (found["classifier"], found["features"], found["rule"], found["aligner"]) == \
        ("features", "alignment+mt", model["rule"], "exact")
    assert found["l2"] == f"{model['model']['l2']:g}"
    signal, _ = run_json(capsys, base + ["--signal", "all-words", "--rule", "half"])
    assert _parts(signal["signature"])["signal"] == "all-words" and _parts(signal["signature"])["rule"] == "half"
    assert run_json(capsys, base + ["--workers", "2"])[0]["signature"] == model["signature"]
    assert main(base) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"signature: {model['signature']}"


def test_an_unscorable_pair_has_the_columns_of_the_others_with_a_model(tmp_path, capsys):
    """With a paraphrase --model each text line is ``score TAB label``; a pair that cannot be
    scored (a bad row, or a sentence spaCy refuses) was a one-column ``NA`` line, which broke a
    reader splitting every line into the same columns. It is ``NA TAB NA`` now, its file:line on
    stderr, and JSON keeps null in both lists (text and JSON report the same lines)."""
    from paralign.similarity import evaluate_paraphrase

    path = tmp_path / "model.json"
    path.write_text(json.dumps(evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner).to_dict()),
                    encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The dog sleeps on the sofa.\tThe dog sleeps on the couch.\nno tab here\n"
                     f"{'word ' * 200_001}\tA word.\nPrices fell.\tThe concert was loud and long.\n", encoding="utf-8")
    assert main(["similarity", "--model", str(path), "--pairs", str(pairs)]) == 0
    out, text_err = capsys.readouterr()
    rows = [line.split("\t") for line in out.splitlines()]
    assert [len(row) for row in rows] == [2, 2, 2, 2]
    assert rows[1] == rows[2] == ["NA", "NA"] and [rows[0][1], rows[3][1]] == ["1", "0"]
    result, json_err = run_json(capsys, ["similarity", "--model", str(path), "--pairs", str(pairs)])
    assert result["scores"][1:3] == [None, None] and result["paraphrase"] == [True, None, None, False]
    for err in (text_err, json_err):
        assert f"{pairs}:2: " in err and f"{pairs}:3: " in err
    # without a model the text stays one column, NA included
    assert main(["similarity", "--aligner", "exact", "--pairs", str(pairs)]) == 0
    assert [len(line.split("\t")) for line in capsys.readouterr().out.splitlines()] == [1, 1, 1, 1]


def test_similarity_json_names_its_aligner_and_notes_as_the_evaluators_do(tmp_path, capsys):
    """evaluate-sts and evaluate-paraphrase always give "aligner" and (evaluate-sts) "notes";
    similarity's JSON had "aligner" only with --model, and its notes (a hybrid blend used with
    another aligner) only on stderr."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A man plays a guitar.\tA man plays a guitar.\n", encoding="utf-8")
    result, _ = run_json(capsys, ["similarity", "--pairs", str(pairs), "--aligner", "exact"])
    assert result["aligner"] == "exact" and result["notes"] == []
    result, _ = run_json(capsys, ["similarity", "--pairs", str(pairs), "--preset", "paper", "--signal", "all-words"])
    assert result["aligner"] == "sultan:paper"


def test_a_model_report_from_another_version_is_a_warning_and_a_note(tmp_path, capsys):
    """A report fitted by another paralign version (or spaCy model) was used silently, though its
    features and alignments may now be computed differently. The parts of its signature that
    name what it was computed with are compared with this run's: a difference, or a report
    without a signature, is a warning on stderr and a JSON note; the same ones, nothing."""
    from paralign._version import __version__
    from paralign.similarity import evaluate_paraphrase

    report = evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner).to_dict()
    path = tmp_path / "model.json"
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The dog sleeps on the sofa.\tThe dog sleeps on the couch.\n", encoding="utf-8")
    argv = ["similarity", "--model", str(path), "--pairs", str(pairs)]
    path.write_text(json.dumps(report), encoding="utf-8")
    result, err = run_json(capsys, argv)
    assert result["notes"] == [] and "warning" not in err
    parts = {**_parts(report["signature"]), "spacy": "en_core_web_sm_v3.0.0", "version": "0.1.0"}
    old = "|".join(f"{key}:{value}" for key, value in parts.items())
    path.write_text(json.dumps({**report, "signature": old}), encoding="utf-8")
    result, err = run_json(capsys, argv)
    (note,) = result["notes"]
    assert note.startswith(f"{path} was fitted with version 0.1.0, spacy en_core_web_sm_v3.0.0; this run has "
                           f"version {__version__}, spacy ")
    assert f"warning: {note}" in err and result["scores"][0] is not None  # still scored
    assert main(argv) == 0
    assert f"warning: {note}" in capsys.readouterr().err
    path.write_text(json.dumps({k: v for k, v in report.items() if k != "signature"}), encoding="utf-8")
    result, err = run_json(capsys, argv)
    assert "records no signature" in result["notes"][0] and "records no signature" in err


def test_evaluate_paraphrase_says_when_test_pairs_are_training_pairs_or_ids_repeat(tmp_path, capsys):
    """A test file that is also a training file (MSRP's val given as --train and --test) gave
    figures that looked held out, without a word; and a pair listed twice was counted twice.
    Test pairs that are training pairs (same ids, or same sentences) and ids repeated within a
    split are now notes: in the JSON ("notes") and on stderr, naming the first file:line."""
    train = tmp_path / "train.tsv"
    train.write_text(_msrp(_TRAIN), encoding="utf-8")
    held_out = tmp_path / "test.tsv"
    held_out.write_text("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n1\t800\t801\tA bird sings.\tA bird is singing.\n"
                        "0\t802\t803\tRain fell.\tStocks rose.\n", encoding="utf-8")
    base = ["evaluate-paraphrase", "--aligner", "exact", "--train", str(train)]
    result, err = run_json(capsys, base + ["--test", str(held_out)])
    assert result["notes"] == [] and "warning" not in err
    result, err = run_json(capsys, base + ["--test", str(train)])
    (note,) = result["notes"]
    assert note == (f"8 of 8 test pairs are also training pairs (the same ids or sentences; first {train}:2 = "
                    f"{train}:2): the test figures are not held out")
    assert f"warning: {note}" in err
    # the same sentences under other ids are caught too; a repeated id within a split is a note
    copied = tmp_path / "copied.tsv"
    copied.write_text("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
                      f"1\t900\t901\t{_TRAIN[1][0]}\t{_TRAIN[1][1]}\n"
                      "0\t902\t903\tRain fell.\tStocks rose.\n0\t902\t903\tRain fell.\tStocks rose.\n", encoding="utf-8")
    result, err = run_json(capsys, base + ["--test", str(copied)])
    assert result["notes"] == [
        f"1 of 3 test pairs is also a training pair (the same ids or sentences; first {copied}:2 = {train}:3): "
        "the test figures are not held out",
        f"1 test pair repeats an earlier pair's ids (first {copied}:4, ids 902-903 as on {copied}:3): "
        "each is counted again",
    ]
    assert main(base + ["--test", str(copied)]) == 0
    assert "warning: 1 test pair repeats" in capsys.readouterr().err
    # the same two sentences the other way round, or spaced otherwise, are the same pair (before: no note)
    swapped = tmp_path / "swapped.tsv"
    swapped.write_text("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
                       f"1\t900\t901\t{_TRAIN[1][1]}\t{_TRAIN[1][0]}\n"
                       f"1\t904\t905\t {_TRAIN[2][0].replace(' ', '  ')}\t{_TRAIN[2][1]}\n"
                       "0\t902\t903\tRain fell.\tStocks rose.\n", encoding="utf-8")
    result, _ = run_json(capsys, base + ["--test", str(swapped)])
    assert result["notes"] == [f"2 of 3 test pairs are also training pairs (the same ids or sentences; first "
                               f"{swapped}:2 = {train}:3): the test figures are not held out"]


@pytest.mark.parametrize("first", ["json", "tsv"])
def test_similarity_and_align_decide_each_line_alike(tmp_path, capsys, first):
    """align decided JSON line by line (a line starting with '{'), similarity by the first line:
    a TSV line in a JSONL file was invalid JSON to similarity and a pair to align, a JSON record
    in a TSV file a pair to align and a bad row to similarity, and `[1, 2]` or `null` got
    different messages. One function (is_json_line) decides for both now."""
    record = json.dumps({"source": "A cat sat .", "target": "A cat is sitting ."})
    lines = [record, "[1, 2]", "null", "A dog ran .\tA dog runs ."]
    path = tmp_path / "pairs.txt"
    path.write_text("\n".join(lines if first == "json" else lines[::-1]) + "\n", encoding="utf-8")
    assert main(["align", str(path), "--tokenized", "--similarity", "none"]) == 0
    aligned = capsys.readouterr()
    scored, err = run_json(capsys, ["similarity", "--pairs", str(path), "--aligner", "exact"])
    assert [s is not None for s in scored["scores"]] == [bool(x) for x in aligned.out.split("\n")[:4]] == \
        [True, False, False, True]  # the two pairs are lines 1 and 4 either way
    bad = {2: "got an array", 3: "got null"} if first == "json" else {3: "got an array", 2: "got null"}
    for number, kind in bad.items():
        message = f"{path}:{number}: expected an object with 'source' and 'target', {kind}"
        assert message in err and message in aligned.err


def test_similarity_lists_the_ids_of_id_s1_s2_lines_as_align_reads_them(tmp_path, capsys):
    """`id TAB s1 TAB s2` lines (align's three fields) were bad lines ('3 fields, expected 2'),
    or with ids 1 ... N read as SemEval STS, the ids dropped as gold scores; now scored, the ids
    under "ids" as a JSONL record's are, and the same lines as JSONL give the same answer."""
    pairs = [("A cat sat on the mat.", "A cat is on the mat."), ("He left early.", "She stayed home.")]
    for ids in (["p0", "p1"], ["7", "8"]):
        tsv = tmp_path / "ids.tsv"
        tsv.write_text("".join(f"{i}\t{a}\t{b}\n" for i, (a, b) in zip(ids, pairs, strict=True)), encoding="utf-8")
        result, err = run_json(capsys, ["similarity", "--pairs", str(tsv), "--aligner", "exact"])
        jsonl = tmp_path / "ids.jsonl"
        jsonl.write_text("".join(json.dumps({"id": i, "source": a, "target": b}) + "\n"
                                 for i, (a, b) in zip(ids, pairs, strict=True)), encoding="utf-8")
        expected, _ = run_json(capsys, ["similarity", "--pairs", str(jsonl), "--aligner", "exact"])
        assert result["ids"] == ids and err == ""
        assert result["scores"] == expected["scores"] and None not in result["scores"]


def test_similarity_reads_jsonl_and_two_line_aligned_files_as_align_does(tmp_path, capsys, monkeypatch):
    """`align` takes JSONL lines and two line-aligned files (--source/--target); `similarity`
    took only TSV, so a JSONL file was one 'expected 2 TAB-separated sentences' row per line,
    all NA, and --source was an unknown option. Both now give the TSV file's scores, bad rows
    in their place (named by their file), and JSONL "id"s listed beside the scores in JSON."""
    pairs = [("A cat sat on the mat.", "A cat is on the mat."), ("He left early.", "She stayed home.")]
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("".join(f"{a}\t{b}\n" for a, b in pairs), encoding="utf-8")
    expected, _ = run_json(capsys, ["similarity", "--pairs", str(tsv), "--aligner", "exact"])
    assert "ids" not in expected
    jsonl = tmp_path / "pairs.jsonl"
    records = [{"id": f"p{k}", "source": a, "target": b} for k, (a, b) in enumerate(pairs)]
    jsonl.write_text("\n" + json.dumps(records[0]) + "\n{\"source\": \"only one\"}\n" + json.dumps(records[1]) + "\n",
                     encoding="utf-8")
    result, err = run_json(capsys, ["similarity", "--pairs", str(jsonl), "--aligner", "exact"])
    assert result["scores"] == [None, expected["scores"][0], None, expected["scores"][1]]
    assert result["ids"] == [None, "p0", None, "p1"]
    assert [r["line"] for r in result["skipped_rows"]] == [1, 3] and f"{jsonl}:3: expected an object" in err
    source, target = tmp_path / "src.txt", tmp_path / "tgt.txt"
    source.write_text("".join(f"{a}\n" for a, _ in pairs) + "A third one.\n", encoding="utf-8")
    target.write_text("".join(f"{b}\n" for _, b in pairs) + "\n", encoding="utf-8")
    argv = ["similarity", "--source", str(source), "--target", str(target), "--aligner", "exact"]
    result, err = run_json(capsys, argv)
    assert result["scores"] == [*expected["scores"], None] and "ids" not in result
    assert result["skipped_rows"] == [{"line": 3, "reason": "empty line", "file": str(target)}]
    assert f"{target}:3: empty line" in err
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[2] == "NA"
    monkeypatch.setattr("sys.stdin", io.StringIO(jsonl.read_text(encoding="utf-8")))
    result, _ = run_json(capsys, ["similarity", "--aligner", "exact"])  # stdin, as --pairs
    assert result["ids"] == [None, "p0", None, "p1"]
    assert main(["similarity", "--source", str(source), "--aligner", "exact"]) == 2
    assert "--source and --target go together" in capsys.readouterr().err
    assert main([*argv, "--pairs", str(tsv)]) == 2
    assert "not both" in capsys.readouterr().err
    target.write_text("One.\n", encoding="utf-8")
    assert main(argv) == 1
    assert f"{target} has 1 line but {source} has 3 lines" in capsys.readouterr().err


def test_options_that_a_model_report_replaces_are_refused_with_it(tmp_path, capsys):
    """--model's report decides the signal and the aligner, but --signal, --idf-from and an
    --aligner/--preset other than the report's were silently ignored beside it (the user's
    options looked applied). They are usage errors now; the report's own aligner may be given."""
    from paralign.similarity import evaluate_paraphrase

    path = tmp_path / "model.json"
    path.write_text(json.dumps(evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner).to_dict()),
                    encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The dog sleeps on the sofa.\tThe dog sleeps on the couch.\n", encoding="utf-8")
    base = ["similarity", "--model", str(path), "--pairs", str(pairs)]
    assert main([*base, "--signal", "all-words"]) == 2
    assert "--signal cannot go with --model" in capsys.readouterr().err
    assert main([*base, "--idf-from", str(pairs)]) == 2
    assert "--idf-from cannot go with --model" in capsys.readouterr().err
    assert main([*base, "--preset", "paper"]) == 2
    assert f"the model in {path} was fitted on exact alignments" in capsys.readouterr().err
    assert main([*base, "--aligner", "exact"]) == 0  # its own aligner
    assert capsys.readouterr().out.endswith("\t1\n")


def test_an_sts_report_without_a_model_says_what_to_give_instead(tmp_path, capsys):
    """An evaluate-sts report of a signal with nothing fitted (sultan2014) given as --model was
    "not an evaluate-paraphrase report (KeyError('threshold'))"; it says that only a hybrid
    report keeps a model, and which --signal gives its scores."""
    sts = tmp_path / "sts.tsv"
    sts.write_text("4.0\tA cat sat.\tA cat sat down.\n1.0\tHe left.\tShe stayed home.\n", encoding="utf-8")
    report, _ = run_json(capsys, ["evaluate-sts", "--data", str(sts), "--aligner", "exact"])
    path = tmp_path / "sts.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    assert main(["similarity", "--model", str(path), "--pairs", str(sts)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: an evaluate-sts report keeps a model only for --signal hybrid" in err
    assert "give --signal sultan2014 instead of --model" in err and "KeyError" not in err


def test_evaluate_paraphrase_without_usable_pairs_says_why(tmp_path, capsys):
    """An STS file given as --train (or --test) was 'no usable training pairs' and nothing more,
    as the skipped rows' warnings come after the run; the error now gives the first row's reason
    with its file:line, as evaluate-sts's 'no usable STS pairs (line 1: ...)' does."""
    sts = tmp_path / "sts.tsv"
    sts.write_text("4.0\tA cat sat.\tA cat sat down.\n1.0\tHe left.\tShe stayed home.\n", encoding="utf-8")
    msrp = tmp_path / "msrp.tsv"
    msrp.write_text(_msrp(_TRAIN), encoding="utf-8")
    base = ["evaluate-paraphrase", "--aligner", "exact"]
    assert main([*base, "--train", str(sts), "--test", str(msrp)]) == 1
    assert (f"{sts}: no usable training pairs ({sts}:1: 3 fields, expected 5 (quality, id1, id2, s1, s2), or a "
            "first line naming the columns, sentence1, sentence2 and label among them)" in capsys.readouterr().err)
    assert main([*base, "--train", str(msrp), "--test", str(sts)]) == 1
    assert f"{sts}: no usable test pairs ({sts}:1: 3 fields" in capsys.readouterr().err


def test_similarity_says_when_jsonl_ids_repeat(tmp_path, capsys):
    """JSONL "id"s are listed beside the scores for joining them back to the pairs; an id given
    twice made that join match two scores, without a word. It is a note (JSON "notes" and a
    warning) naming the first repeat's line and where the id came first."""
    jsonl = tmp_path / "pairs.jsonl"
    records = [{"id": "a", "source": "A cat sat.", "target": "A cat sat."}, {"id": "b", "source": "He left.",
               "target": "She stayed."}, {"id": "a", "source": "Dogs bark.", "target": "A dog barks."}]
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result, err = run_json(capsys, ["similarity", "--pairs", str(jsonl), "--aligner", "exact"])
    assert result["ids"] == ["a", "b", "a"] and all(s is not None for s in result["scores"])
    (note,) = result["notes"]
    assert note.startswith(f"1 pair repeats an earlier pair's id (first {jsonl}:3, id a as on {jsonl}:1)")
    assert f"warning: {note}" in err
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records[:2]), encoding="utf-8")
    assert run_json(capsys, ["similarity", "--pairs", str(jsonl), "--aligner", "exact"])[0]["notes"] == []


def test_an_edited_paraphrase_report_is_refused_naming_it(tmp_path, capsys):
    """A report edited by hand (or by a script) was used as it was: a NaN threshold classified
    nothing (scores only, as a hybrid's), an unknown classifier or a model without its
    classifier fell back to sultan2014 with the model's threshold, a NaN weight or a zero scale
    gave 'nan' scores, a model without features a constant; a bad model value was an error
    without the file's name and a bad aligner preset a usage error (exit 2). Each is now a data
    error (exit 1) naming the report and what is wrong in it."""
    from paralign.similarity import evaluate_paraphrase

    report = evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner).to_dict()
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The dog sleeps on the sofa.\tThe dog sleeps on the couch.\n", encoding="utf-8")
    path = tmp_path / "model.json"

    def refused(edit, message: str) -> None:
        edited = json.loads(json.dumps(report))
        edit(edited)
        path.write_text(json.dumps(edited), encoding="utf-8")
        assert main(["similarity", "--model", str(path), "--pairs", str(pairs)]) == 1, message
        err = capsys.readouterr().err
        assert f"error: {path}: " in err and message in err and "Error(" not in err

    refused(lambda r: r.update(threshold=float("nan")), "threshold nan is not a finite number")
    refused(lambda r: r.update(threshold=float("inf")), "threshold inf is not a finite number")
    refused(lambda r: r.update(threshold="high"), "threshold 'high' is not a finite number")
    refused(lambda r: r.pop("threshold"), 'not an evaluate-paraphrase report (no "threshold")')
    refused(lambda r: r.update(classifier="bogus"), "unknown classifier 'bogus' (features, signal)")
    refused(lambda r: r.pop("classifier"), "a model without its classifier")
    refused(lambda r: r["model"]["features"][0].update(weight="abc"), "not a paraphrase model")
    refused(lambda r: r["model"]["features"][0].update(weight=float("nan")), "not a paraphrase model")
    refused(lambda r: r["model"]["features"][0].update(scale=0), "not a paraphrase model")
    refused(lambda r: r["model"].update(features=[]), "not a paraphrase model")
    refused(lambda r: r.update(aligner="sultan:bogus"), "aligner 'sultan:bogus' cannot be rebuilt")
    path.write_text(json.dumps(report), encoding="utf-8")  # the report as written still classifies
    assert main(["similarity", "--model", str(path), "--pairs", str(pairs)]) == 0


def test_the_output_of_similarity_is_not_taken_for_a_model_report(tmp_path, capsys):
    """similarity --format json with a signal report writes "threshold", "signal" and "aligner"
    beside its scores, so given back as --model it was read as a signal classifier and classified
    silently (with a features report: 'unknown signal features-model', a usage error; with a
    hybrid one: 'not a hybrid model (not a hybrid model)'). It is refused as what it is."""
    from paralign.similarity import evaluate_paraphrase

    path = tmp_path / "model.json"
    report = evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner, classifier="signal").to_dict()
    path.write_text(json.dumps(report), encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The dog sleeps on the sofa.\tThe dog sleeps on the couch.\n", encoding="utf-8")
    out = tmp_path / "scores.json"
    for model in (str(path), None):  # its output with a model (a threshold in it) and without
        assert main(["similarity", *(["--model", model] if model else ["--aligner", "exact"]), "--pairs", str(pairs),
                     "--format", "json", "-o", str(out)]) == 0
        assert main(["similarity", "--model", str(out), "--pairs", str(pairs)]) == 1
        err = capsys.readouterr().err
        assert f"error: {out}: the output of paralign similarity (its scores), not a report that keeps a model" in err


def test_a_text_report_given_as_model_says_to_write_json(tmp_path, capsys):
    """evaluate-paraphrase -o report.json without --format json wrote the text report, so
    similarity --model report.json said only 'report.json:1: invalid JSON (column 1): Expecting
    value'. It now says that the file is not JSON and which output --model takes. (-o report.json
    of a text report is now refused: such a file comes of a shell's `> report.json`, or a rename.)"""
    msrp = tmp_path / "msrp.tsv"
    msrp.write_text(_msrp(_TRAIN), encoding="utf-8")
    report = tmp_path / "report.json"
    assert main(["evaluate-paraphrase", "--train", str(msrp), "--test", str(msrp), "--aligner", "exact",
                 "-o", str(tmp_path / "report.txt")]) == 0
    (tmp_path / "report.txt").rename(report)
    capsys.readouterr()
    assert main(["similarity", "--model", str(report), "--pairs", str(msrp)]) == 1
    err = capsys.readouterr().err
    assert f"error: {report}:1: not JSON (a text report?): --model takes the report written with --format json" in err
    report.write_text('{"threshold": 0.5,\n', encoding="utf-8")  # JSON cut short is still said as such
    assert main(["similarity", "--model", str(report), "--pairs", str(msrp)]) == 1
    assert f"{report}:2: invalid JSON (column " in capsys.readouterr().err


def test_model_from_stdin_is_a_usage_error_that_says_so(tmp_path, capsys):
    """Every input takes '-' for stdin, but --model - said '-: no such file'. A report is read
    from a file (a saved cross-encoder is found relative to it), which the error now says."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A cat sat.\tA cat sat.\n", encoding="utf-8")
    for stdin in ("-", "/dev/stdin"):
        assert main(["similarity", "--model", stdin, "--pairs", str(pairs)]) == 2
        assert "--model reads a report file, not stdin" in capsys.readouterr().err


def _version_with_surrogate(kind: str) -> str:
    """A saved report (a signal classifier's, or an evaluate-sts hybrid blend's) whose signature,
    on line 3, names a version holding the escape of half a UTF-16 surrogate pair."""
    from paralign.similarity.hybrid import default_model

    head = ('{"threshold": 0.5, "classifier": "signal", "signal": "sultan2014", "aligner": "exact",'
            if kind == "signal" else
            '{"signal": "hybrid", "sets": [], "aligner": "exact", "model": ' + json.dumps(default_model().to_dict()) + ",")
    return head + '\n\n "signature": "aligner:exact|version:0.0.1\\ud800"\n}\n'


@pytest.mark.parametrize("kind", ["signal", "hybrid"])
def test_a_model_report_with_half_a_surrogate_pair_is_refused_at_its_line(tmp_path, capsys, kind):
    """A --model report whose JSON escapes half a UTF-16 surrogate pair ("\\ud800" alone) is
    refused at its line, as a bad byte is: json.loads read it as a str holding no character, and
    the signature quoted in the run's note ('fitted with version ...') ended `similarity --format
    json` in a UnicodeEncodeError traceback (exit 1, after annotating every pair)."""
    from paralign.errors import FormatError
    from paralign.similarity.model import load_model_report

    report = tmp_path / "model.json"
    report.write_text(_version_with_surrogate(kind), encoding="utf-8")
    with pytest.raises(FormatError, match=r'model\.json:3: "\\ud800" \(column 43\) is half of a UTF-16 surrogate'):
        load_model_report(str(report))
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A big dog.\tA big cat.\n", encoding="utf-8")
    assert main(["similarity", "--model", str(report), "--pairs", str(pairs), "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and f"{report}:3: " in err


def test_similarity_aligner_exact_on_token_lists_signs_no_spacy_and_parses_nothing(tmp_path, capsys, spacy_calls):
    """`similarity --aligner exact` reads tokens alone, as the library's similarity_many does:
    a JSON input of token lists goes through no spaCy model (no spacy part in its record's
    signature, the library's for the same pairs), a text row through spaCy's tokenizer alone,
    which the spacy part then names. Before, every row was parsed and the run signed spaCy."""
    from paralign.similarity import similarity_many

    pairs = [(["A", "cat", "sat"], ["a", "cat", "slept"]), (["Two", "dogs"], ["two", "dogs", "ran"])]
    given = tmp_path / "given.jsonl"
    given.write_text("".join(json.dumps({"source": s, "target": t}) + "\n" for s, t in pairs), encoding="utf-8")
    assert main(["similarity", "--pairs", str(given), "--aligner", "exact", "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    library = similarity_many(pairs, aligner="exact")
    assert (record["scores"], record["signature"]) == (list(library.scores), library.signature)
    assert "spacy" not in record["signature"]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(given.read_text(encoding="utf-8") + json.dumps({"source": "A cat sat.", "target": "A cat."}) + "\n",
                     encoding="utf-8")
    assert main(["similarity", "--pairs", str(mixed), "--aligner", "exact", "--format", "json"]) == 0
    assert "|spacy:" in json.loads(capsys.readouterr().out)["signature"]  # its tokenizer split the text row
    assert spacy_calls["pipe"] == 0


def test_similarity_signs_the_tokens_its_pairs_were_given_as_align_signs_them(tmp_path, capsys):
    """A JSON record's token lists are scored on those tokens, not spaCy's, and change the score
    (`The cat 's toy .` split on white space is not `The cat's toy.` as spaCy splits it); align
    signs such a pair `tok:none` (`tok:none/spacy` for one side's), but similarity signed every
    run as one on texts. Now the run's signature has align's tok part (one tokens_part), and a
    run whose pairs differ says `mixed` for the side that differs."""
    forms = {"lists": (["The", "cat's", "toy", "."], ["A", "cat", "toy", "."]),
             "source": (["The", "cat's", "toy", "."], "A cat toy."),
             "texts": ("The cat's toy.", "A cat toy.")}
    scores, signatures = {}, {}
    for name, (source, target) in forms.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps({"source": source, "target": target}) + "\n", encoding="utf-8")
        result, _ = run_json(capsys, ["similarity", "--pairs", str(path), "--aligner", "exact"])
        scores[name], signatures[name] = result["scores"][0], _parts(result["signature"])
        assert main(["align", str(path), "--aligner", "exact", "--format", "json"]) == 0
        aligned = _parts(json.loads(capsys.readouterr().out)["signature"])
        assert signatures[name].get("tok") == aligned.get("tok")
        assert list(signatures[name])[1:] == list(aligned)  # signal, then align's parts in align's order
    assert [signatures[name].get("tok") for name in forms] == ["none", "none/spacy", None]
    assert scores["lists"] != scores["texts"]  # the tokens change the score: the signature tells the runs apart
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text((tmp_path / "lists.jsonl").read_text(encoding="utf-8") +
                     (tmp_path / "texts.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    result, _ = run_json(capsys, ["similarity", "--pairs", str(mixed), "--aligner", "exact"])
    assert _parts(result["signature"])["tok"] == "mixed"


def test_numbered_pairs_whose_ids_are_within_0_5_and_input_format_read_both_ways(tmp_path, capsys):
    """`1 TAB s1 TAB s2`, `2 ...`, `3 ...` (ids all within the gold scores' 0-5) were read as
    SemEval STS, the ids dropped as gold scores, without a word. Ids that count up are ids now,
    and the guess is said (stderr and "notes"); --input-format sts reads them as scores, and
    --input-format tsv reads any whole numbers as ids (as align reads them), each with no note.
    --input-format says what --pairs holds: with --source/--target it is a usage error."""
    pairs = [("A man is eating.", "A man eats."), ("The cat sat.", "A dog ran."), ("It rains.", "It is raining.")]

    def numbered_file(name: str, ids: list[int]) -> str:
        path = tmp_path / name
        path.write_text("".join(f"{i}\t{a}\t{b}\n" for i, (a, b) in zip(ids, pairs, strict=True)), encoding="utf-8")
        return str(path)

    counting, scores = numbered_file("ids.tsv", [1, 2, 3]), numbered_file("scores.tsv", [3, 5, 2])
    base = ["similarity", "--aligner", "exact", "--pairs"]
    result, err = run_json(capsys, base + [counting])
    assert result["ids"] == ["1", "2", "3"] and None not in result["scores"]
    assert result["notes"] == [f"{counting}: the first fields (1, 2, 3) count up as ids do, so they are read as the "
                               "pairs' ids (id TAB s1 TAB s2); if they are gold scores (SemEval STS: score TAB s1 TAB "
                               "s2), give --input-format sts"] and result["notes"][0] in err
    as_scores, err = run_json(capsys, base + [counting, "--input-format", "sts"])
    assert "ids" not in as_scores and as_scores["notes"] == [] and err == ""
    assert as_scores["scores"] == result["scores"]  # the same sentences either way
    guessed, err = run_json(capsys, base + [scores])
    assert "ids" not in guessed and "--input-format tsv" in guessed["notes"][0] and "gold scores" in err
    as_ids, err = run_json(capsys, base + [scores, "--input-format", "tsv"])
    assert as_ids["ids"] == ["3", "5", "2"] and as_ids["notes"] == [] and err == ""
    assert main(["align", scores, "--aligner", "exact", "--format", "json"]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == as_ids["ids"]
    assert main(base[:-1] + ["--source", counting, "--target", counting, "--input-format", "tsv"]) == 2
    assert "--input-format tsv says what --pairs holds" in capsys.readouterr().err


def test_a_model_report_whose_name_holds_a_bar_is_a_usage_error(tmp_path, capsys):
    """``--model m|x.json`` was signed ``model:m|x.json#HASH``, read back as ``model:m`` and a
    keyless ``x.json#HASH``; now a usage error naming the option and the file, before it loads."""
    from paralign.similarity import evaluate_paraphrase

    path = tmp_path / "m|x.json"
    path.write_text(json.dumps(evaluate_paraphrase(_TRAIN, _TRAIN[:2], aligner=exact_match_aligner).to_dict()),
                    encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The dog sleeps on the sofa.\tThe dog sleeps on the couch.\n", encoding="utf-8")
    assert main(["similarity", "--model", str(path), "--pairs", str(pairs), "--format", "json"]) == 2
    assert f"argument --model: {path}: the file's name 'm|x.json' holds '|'" in capsys.readouterr().err


#: Bad lines of a file of pairs, one of each kind, among good ones (the first line good, so
#: that similarity reads the pairs layout).
ONE_OF_EACH_BAD_LINE = [
    "The cat sat.\tA cat sat.",
    "a\tb\tc\td",  # 4 fields
    "only one field",
    "x,y,z",  # a CSV line
    "a b\tc d\t3.5",  # a gold score after the sentences
    "a b\t ",  # empty target
    "\tb c",  # empty source
    "\u200b\tb c",  # a source of an invisible character alone
    "id1\ta b\t",  # id, source, and a tab after it
    "",  # blank
    "A long " + "x" * 100_001 + "\tshort",
    "ok one\tok two",
]


def _reasons(err: str) -> dict[int, str]:
    """Each bad line's reason on stderr, by line (what align adds of its output line aside)."""
    found = (re.match(r"paralign: warning: .*?:(\d+): (.*)$", line) for line in err.splitlines())
    return {int(m[1]): m[2].removesuffix(" (empty output line)") for m in found if m}


def test_align_and_similarity_say_one_thing_of_each_bad_line(tmp_path, capsys):
    """The same bad line of pairs is one message from align and from similarity, naming the file
    and line (one reader, corpora.sentence_pairs.parse_tsv_line). Before, similarity had a reader
    of its own: '4 fields, expected 2 TAB-separated sentences' where align said 'expected 2
    tab-separated fields (source, target) or 3 (id, source, target), got 4', 'empty sentence'
    for 'empty target sentence', '1 field' for an empty line, and it scored a side too long to
    parse, which align reports."""
    path = tmp_path / "bad.tsv"
    path.write_text("".join(line + "\n" for line in ONE_OF_EACH_BAD_LINE), encoding="utf-8")
    assert main(["align", str(path), "--aligner", "exact"]) == 0
    aligned = _reasons(capsys.readouterr().err)
    assert main(["similarity", "--pairs", str(path), "--aligner", "exact"]) == 0
    out, err = capsys.readouterr()
    scored = _reasons(err)
    assert sorted(aligned) == list(range(2, 12)) and scored == aligned
    assert [line == "NA" for line in out.splitlines()] == [0 < n < 11 for n in range(12)]
    assert aligned[2] == "4 fields, expected 2 TAB-separated sentences (source, target) or 3 fields (id, source, target)"
    assert aligned[6] == "empty target sentence" and aligned[8] == "empty source sentence"
    assert aligned[10] == "empty line" and "too long" in aligned[11] and "CSV" in aligned[4]
    assert all(f"{path}:{n}: " in err for n in scored)


GOLD_EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "alignment"


@pytest.mark.parametrize(("name", "kind"), [("gold.tsv", "MultiMWA TSV"), ("gold.json", "jacana JSON"),
                                            ("gold.giza.txt", "GIZA")])
def test_similarity_scores_a_gold_alignment_file_as_its_pairs(name, kind, capsys):
    """`similarity --pairs gold.tsv` (MultiMWA TSV) reported every line bad ('10 fields, expected
    2 TAB-separated sentences', exit 1) where align reads the file as its pairs; a jacana or GIZA
    file was bad lines too. Now each gold pair is scored on the gold's tokens, as the same pairs'
    gold JSONL records are (the same scores and signature), its id listed, with a note that the
    links are not read; counted as pairs (a GIZA pair is 3 lines)."""
    argv = ["similarity", "--aligner", "exact", "--pairs"]
    want, _ = run_json(capsys, [*argv, str(GOLD_EXAMPLES / "gold.jsonl")])
    got, err = run_json(capsys, [*argv, str(GOLD_EXAMPLES / name)])
    assert got["scores"] == want["scores"] and len(got["scores"]) == 3 and got["skipped"] == 0
    assert got["signature"] == want["signature"] and "tok:none" in got["signature"]
    assert len(got["ids"]) == 3 and got["notes"] == [f"{GOLD_EXAMPLES / name}: a gold alignment file ({kind}): its "
                                                     "sentence pairs are scored on the gold's tokens; its links are not "
                                                     "read (score-alignments scores an alignment against them)"]
    assert got["notes"][0] in err
    assert main([*argv, str(GOLD_EXAMPLES / name)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_similarity_reports_a_bad_gold_pair_in_its_place_and_counts_pairs(tmp_path, capsys):
    """A bad item of a gold file is a bad row at its line, the others scored; the summary counts pairs."""
    lines = (GOLD_EXAMPLES / "gold.giza.txt").read_text(encoding="utf-8").splitlines()
    gold = tmp_path / "gold.txt"
    gold.write_text("\n".join(lines[:3] + [lines[3], "", lines[5]] + lines[6:]) + "\n", encoding="utf-8")
    assert main(["similarity", "--aligner", "exact", "--pairs", str(gold)]) == 0
    out, err = capsys.readouterr()
    assert [line == "NA" for line in out.splitlines()] == [False, True, False]
    assert f"{gold}:4: " in err and f"{gold}: 1 of 3 pairs bad" in err


def test_a_table_or_sts_file_of_eight_fields_or_more_is_no_gold_file(tmp_path, capsys):
    """GLUE's STS-B TSV (a header of 10 columns naming sentence1 and sentence2) and an STS
    Benchmark file whose first row has 9 fields have the fields of a MultiMWA line: they are read
    as a table and as STS, as before, not as a gold file whose every line is bad."""
    glue = tmp_path / "train.tsv"
    glue.write_text("index\tgenre\tfilename\tyear\told_index\tsource1\tsource2\tsentence1\tsentence2\tscore\n"
                    "0\tmain-captions\tMSRvid\t2012test\t0001\tnone\tnone\tA plane took off.\tA plane took off.\t5.000\n",
                    encoding="utf-8")
    stsb = tmp_path / "sts-dev.csv"
    stsb.write_text("main-news\theadlines\t2015\t0001\t2.4\tA cat sat.\tA cat ran.\tx\ty\n"
                    "main-news\theadlines\t2015\t0002\t5.0\tA dog.\tA dog.\n", encoding="utf-8")
    for path, scores in ((glue, [1.0]), (stsb, [0.5, 1.0])):
        result, err = run_json(capsys, ["similarity", "--aligner", "exact", "--pairs", str(path)])
        assert result["scores"] == pytest.approx(scores) and result["notes"] == [] and "gold" not in err
