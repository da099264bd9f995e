"""CLI: a trained paraphrase classifier: `evaluate-paraphrase` on small pair files (its report,
signature and notes) and `paralign similarity --model` with that report, and the reports it
refuses (exact-match aligner: fast)."""

from __future__ import annotations

import io
import json

import pytest

from paralign.aligners.exact import exact_match_aligner
from paralign.cli import main
from paralign.similarity import similarity


def run_json(capsys, argv):
    assert main(argv + ["--format", "json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


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


def _byte_stdin(monkeypatch, text: str) -> None:
    """stdin as in a shell: text over a byte buffer (read_once copies the bytes)."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def _msrp(rows, extra: str = "") -> str:
    header = "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
    return header + "".join(f"{int(g)}\t{k}\t{k + 100}\t{a}\t{b}\n" for k, (a, b, g) in enumerate(rows)) + extra


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


def _parts(signature: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in signature.split("|"))


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
    """A file of no MSRP row given as --train (or --test) was 'no usable training pairs' and
    nothing more, as the skipped rows' warnings come after the run; the error now gives the first
    row's reason with its file:line, as evaluate-sts's 'no usable STS pairs (line 1: ...)' does.
    (An STS file is refused before, naming evaluate-sts: tests/cli/test_similarity_evaluators.py.)"""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("p1\tA cat sat.\tA cat sat down.\np2\tHe left.\tShe stayed home.\n", encoding="utf-8")
    msrp = tmp_path / "msrp.tsv"
    msrp.write_text(_msrp(_TRAIN), encoding="utf-8")
    base = ["evaluate-paraphrase", "--aligner", "exact"]
    assert main([*base, "--train", str(pairs), "--test", str(msrp)]) == 1
    assert (f"{pairs}: no usable training pairs ({pairs}:1: 3 fields, expected 5 (MSRP: quality, id1, id2, sentence1, "
            "sentence2), or a first line naming the columns, sentence1, sentence2 and label among them)"
            in capsys.readouterr().err)
    assert main([*base, "--train", str(msrp), "--test", str(pairs)]) == 1
    assert f"{pairs}: no usable test pairs ({pairs}:1: 3 fields" in capsys.readouterr().err


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
