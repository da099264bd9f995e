"""CLI: `evaluate-sts` and `evaluate-paraphrase` on subsets of the shared data (the same numbers as
the library's `evaluate_*_files`) and on stdin (`-`), named as a file is (exact-match aligner: fast)."""

from __future__ import annotations

import io
import json
from itertools import islice

import pytest

from paralign.aligners.exact import exact_match_aligner
from paralign.cli import main
from paralign.corpora.sentence_pairs import sentences_from_file
from paralign.similarity import evaluate_paraphrase_files, evaluate_sts_files


def run_json(capsys, argv):
    assert main(argv + ["--format", "json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


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


# -- '-' reads stdin (evaluate-sts --data, evaluate-paraphrase --train/--test) -------------------
_STS = "4.0\tA man plays a guitar.\tA man plays a guitar.\n1.0\tCats sleep.\tDogs bark.\n" \
       "\tno score\tsecond\n3.0\tThe cat sleeps.\tThe cat naps.\n"


def _byte_stdin(monkeypatch, text: str) -> None:
    """stdin as in a shell: text over a byte buffer (read_once copies the bytes)."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


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
    assert "to --data and --idf-from" in capsys.readouterr().err
    path = tmp_path / "sts.tsv"
    path.write_text(_STS, encoding="utf-8")
    result, _ = run_json(capsys, ["evaluate-sts", "--data", str(path), "--idf-from", "-",
                                  "--signal", "idf", "--aligner", "exact"])
    assert result["signal"] == "idf" and result["sets"][0]["path"] == str(path)


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


def test_an_empty_sentence_is_reported_with_its_side(tmp_path, capsys):
    """evaluate-sts and evaluate-paraphrase said "empty sentence" of a row (stderr and JSON's
    skipped_rows) without saying which: the first, the second or both, as similarity says of a
    line of pairs (``empty target sentence``)."""
    sts = tmp_path / "sts.tsv"
    sts.write_text("4\ta cat sat\tthe cat sat\n3\t \ta dog\n2\ta dog\t\t\n1\t \t \n5\tx y\tx y\n0\tp q\tr s\n",
                   encoding="utf-8")
    result, err = run_json(capsys, ["evaluate-sts", "--data", str(sts), "--aligner", "exact", "--signal", "all-words"])
    reasons = ["empty first sentence", "empty second sentence", "empty first and second sentence"]
    assert result["sets"][0]["skipped_rows"] == [{"line": line, "reason": reason}
                                                 for line, reason in zip((2, 3, 4), reasons, strict=True)]
    assert all(f"{sts}:{line}: skipped: {reason}\n" in err for line, reason in zip((2, 3, 4), reasons, strict=True))
    head = "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
    train = tmp_path / "train.tsv"
    train.write_text(head + "1\t1\t2\ta cat sat\ta cat sat\n0\t3\t4\tp q\tr s\n1\t5\t6\tx y\tx y\n0\t7\t8\tdogs run\tbirds fly\n"
                     "1\t9\t10\t \tx\n", encoding="utf-8")
    test = tmp_path / "test.tsv"
    test.write_text(head + "1\t1\t2\tthe dog\tthe dog\n0\t3\t4\ta b\tc d\n1\t5\t6\tthe dog\t \n", encoding="utf-8")
    result, err = run_json(capsys, ["evaluate-paraphrase", "--train", str(train), "--test", str(test),
                                    "--classifier", "signal", "--aligner", "exact", "--signal", "all-words"])
    assert [(row["line"], row["reason"]) for row in result["skipped_rows"]] == [
        (6, "empty first sentence"), (4, "empty second sentence")]
    assert f"{train}:6: skipped: empty first sentence" in err and f"{test}:4: skipped: empty second sentence" in err


@pytest.mark.parametrize(("name", "text", "told"), [
    ("sts.tsv", "3.8\tA cat sat.\tA cat sat down.\n0.5\tDogs bark.\tBirds fly.\n1\tHe left.\tShe stayed.\n",
     "an STS file (SemEval STS: score TAB sentence1 TAB sentence2), not MSRP"),
    ("sts-dev.csv", "main-captions\tMSRvid\t2012test\t0000\t5.000\tA man plays.\tA man is playing.\n"
     "main-news\theadlines\t2013\t0001\t0.400\tStocks fell.\tA cat sleeps.\n",
     "an STS file (the STS Benchmark: genre, source, year, id, score, sentence1, sentence2), not MSRP"),
    ("stsb.csv", "sentence1,sentence2,score\nA cat sat.,A cat sat down.,3.8\nDogs bark.,Birds fly.,0.5\n",
     "a table of STS gold scores (its header names a 'score' column, no 'label')"),
])
def test_evaluate_paraphrase_tells_an_sts_file_and_names_evaluate_sts(tmp_path, capsys, name, text, told):
    """An STS file given to evaluate-paraphrase had every row skipped as MSRP's ('3 fields, expected
    5 ...', the Benchmark's "label 'main-captions' is not 0 or 1", a table's "no 'label' column")
    and failed with "no usable training pairs", without saying it is STS data nor which command
    reads it, as evaluate-sts says of an MSRP file (evaluate it with evaluate-paraphrase). Told
    as similarity --pairs tells a file, it is refused naming the file and evaluate-sts, before
    anything is aligned."""
    sts = tmp_path / name
    sts.write_text(text, encoding="utf-8")
    msrp = tmp_path / "msrp.tsv"
    msrp.write_text("1\t1\t2\ta cat sat\ta cat sat\n0\t3\t4\tp q\tr s\n", encoding="utf-8")
    for train, test in ((sts, msrp), (msrp, sts)):
        assert main(["evaluate-paraphrase", "--train", str(train), "--test", str(test), "--classifier", "signal",
                     "--aligner", "exact"]) == 1
        err = capsys.readouterr().err
        assert f"{sts}" in err and told in err and "evaluate it with evaluate-sts" in err, err
        assert "no usable" not in err


def test_similarity_names_a_rows_sides_as_the_evaluators_do(tmp_path, capsys):
    """similarity said 'empty target sentence' of the STS row evaluate-sts calls 'empty second
    sentence' (and an MSRP row's, which evaluate-paraphrase calls so too), 'source' and 'target'
    in every message on a pair's sides. The three commands name them first and second (a
    line of pairs' field counts too); JSON keys are unchanged."""
    sts = tmp_path / "sts.tsv"
    sts.write_text("4\ta cat sat\tthe cat sat\n3\t \ta dog\n2\ta dog\t \n5\tx y\tx y\n0\tp q\tr s\n", encoding="utf-8")
    result, err = run_json(capsys, ["evaluate-sts", "--data", str(sts), "--aligner", "exact"])
    evaluated = {row["line"]: row["reason"] for row in result["sets"][0]["skipped_rows"]}
    assert evaluated == {2: "empty first sentence", 3: "empty second sentence"}
    assert main(["similarity", "--pairs", str(sts), "--aligner", "exact", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    scored = json.loads(out)
    assert {row["line"]: row["reason"] for row in scored["skipped_rows"]} == evaluated
    assert [f["error"] for f in scored["failures"]] == ["empty first sentence", "empty second sentence"]
    assert f"{sts}:3: empty second sentence" in err and "source" not in err and "target" not in err
    msrp = tmp_path / "msrp.tsv"
    msrp.write_text("1\t1\t2\ta b\t \n0\t3\t4\tc d\te f\n", encoding="utf-8")
    assert main(["similarity", "--pairs", str(msrp), "--aligner", "exact"]) == 0
    assert f"{msrp}:1: empty second sentence" in capsys.readouterr().err
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a b\tc d\none field\n", encoding="utf-8")
    assert main(["similarity", "--pairs", str(pairs), "--aligner", "exact"]) == 0
    assert (f"{pairs}:2: 1 field, expected 2 TAB-separated sentences (first, second) or 3 fields (id, first, "
            "second)") in capsys.readouterr().err


@pytest.mark.parametrize(("rows", "command"), [
    ("4\ta cat sat\tthe cat sat\n\n \t \n0\tp q\tr s\n1\tx y\tx z\n", ["evaluate-sts", "--data"]),
    ("1\t1\t2\ta cat sat\tthe cat sat\n\n \t \n0\t3\t4\tp q\tr s\n1\t5\t6\tx y\tx y\n", ["evaluate-paraphrase",
                                                                                 "--classifier", "signal", "--test"]),
])
def test_similarity_says_empty_line_of_a_gold_files_blank_line(tmp_path, capsys, rows, command):
    """similarity said '1 field, expected 3 (STS: score, sentence1, sentence2)' (MSRP's: 'expected
    5') of a blank line of an STS or MSRP file, which evaluate-sts and evaluate-paraphrase call an
    'empty line', as similarity calls one in a file of pairs."""
    path = tmp_path / "gold.tsv"
    path.write_text(rows, encoding="utf-8")
    extra = ["--train", str(path)] if command[0] == "evaluate-paraphrase" else []
    assert main([*command, str(path), *extra, "--aligner", "exact"]) == 0
    evaluated = [line for line in capsys.readouterr().err.splitlines() if "skipped" in line]
    assert f"{path}:2: skipped: empty line" in evaluated[0] and f"{path}:3: skipped: empty line" in evaluated[1]
    assert main(["similarity", "--pairs", str(path), "--aligner", "exact"]) == 0
    err = capsys.readouterr().err
    assert f"{path}:2: empty line\n" in err and f"{path}:3: empty line\n" in err and "expected" not in err
