"""`paralign evaluate-sts --report`: scatter per file, correlations equal to the JSON output's,
largest errors listed with their text escaped (exact-match aligner: fast)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paralign.cli import main

XSS = "<script>alert(1)</script>"
ROWS = [(4.0, "A man plays a guitar.", "A man plays a guitar."), (1.0, "Cats sleep.", "Dogs bark."),
        (3.0, "The cat sleeps.", "The cat naps."), (0.5, f"{XSS} x", "completely other words"),
        (5.0, "The dog runs fast.", "The dog runs fast."), (2.0, "A bird sings.", "A bird flies away.")]


def _sts(path: Path, rows) -> str:
    path.write_text("".join(f"{g}\t{a}\t{b}\n" for g, a, b in rows), encoding="utf-8")
    return str(path)


def test_report_per_file_with_the_json_figures(tmp_path: Path, capsys, report_page) -> None:
    first, second = _sts(tmp_path / "one.tsv", ROWS), _sts(tmp_path / "two.tsv", ROWS[:4])
    report = tmp_path / "sts.html"
    argv = ["evaluate-sts", "--data", first, "--data", second, "--aligner", "exact"]
    assert main([*argv, "--format", "json", "--report", str(report)]) == 0
    result = json.loads(capsys.readouterr().out)
    page = report_page(report.read_text(encoding="utf-8"))
    values = page.values()
    for key in ("pairs", "pearson", "spearman"):
        assert values[key] == result[key]
    for k, s in enumerate(result["sets"]):
        assert values[f"sets.{k}.pearson"] == s["pearson"] and values[f"sets.{k}.pairs"] == s["pairs"]
    assert page.count("svg") == 2 and len(page.find("circle", class_="point")) == 6 + 4
    errors = page.find("tr", class_="error-pair")
    assert len(errors) == 6 + 4
    assert {float(e["data-gold"]) for e in errors} <= {g for g, _, _ in ROWS}
    assert f"{XSS} x" in page.text and XSS not in page.source
    assert result["signature"] in page.text
    page.assert_self_contained()
    assert main(argv) == 0  # the text output with and without the report is the same
    plain = capsys.readouterr().out
    assert main([*argv, "--report", str(report)]) == 0
    assert capsys.readouterr().out == plain


TRAIN = [(5.0, "A man plays a guitar.", "A man is playing the guitar."), (0.5, "Cats sleep.", "The stock fell."),
         (3.5, "The cat sleeps.", "The cat naps."), (1.0, "A bird sings.", "Shares dropped 5%."),
         (4.5, "She reads a book.", "She is reading a book."), (2.0, "It rains today.", "The dog runs fast."),
         (4.0, "He bought 3 apples.", "He bought three apples."), (0.0, "Dogs bark.", "A bird flies away."),
         (3.0, "The weather is wet.", "It is raining today."), (1.5, "A man cooks.", "A woman sings a song.")]


def test_hybrid_is_fitted_on_train_files_and_reused_by_similarity_model(tmp_path: Path, capsys) -> None:
    """evaluate-sts --signal hybrid --train F1 --train F2: the fitted blend in the JSON report;
    similarity --model REPORT scores the same pairs to the same Pearson."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("torch") is None:
        pytest.skip("the neural extra is not installed")
    from paralign.similarity import pearson

    first, second = _sts(tmp_path / "a.tsv", TRAIN), _sts(tmp_path / "b.tsv", TRAIN[::-1][:8] + TRAIN[:2])
    data = _sts(tmp_path / "d.tsv", ROWS)
    argv = ["evaluate-sts", "--signal", "hybrid", "--train", first, "--train", second, "--data", data,
            "--aligner", "exact"]
    assert main([*argv, "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["signal"] == "hybrid" and result["pairs"] == len(ROWS)
    model = result["model"]
    assert model["kind"] == "hybrid" and model["groups"] == ["a.tsv", "b.tsv"] and model["signals"]
    assert result["train"] == [first, second]
    report = tmp_path / "hybrid.json"
    report.write_text(json.dumps(result), encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for _, a, b in ROWS), encoding="utf-8")
    assert main(["similarity", "--pairs", str(pairs), "--model", str(report), "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["signal"] == "hybrid" and "threshold" not in scored
    # the aligner the blend's scores read (none when its signals read no alignment), as evaluate-sts named it
    assert scored["aligner"] == result["aligner"] and model["aligner"] == "exact"
    fitted = [dict(p.split(":", 1) for p in r["signature"].split("|"))["fit"] for r in (result, scored)]
    assert fitted[0] == fitted[1]  # the same blend, fitted by evaluate-sts and read by similarity
    assert pearson(scored["scores"], [g for g, _, _ in ROWS]) == pytest.approx(result["pearson"], abs=1e-9)
    assert main(argv) == 0
    assert "hybrid (standardised signals" in capsys.readouterr().out


def test_hybrid_without_train_files_is_the_blend_paralign_ships(tmp_path: Path, capsys) -> None:
    """--signal hybrid without --train (evaluate-sts) or --model (similarity): the shipped blend,
    the same scores from both commands; --train for another signal is still a usage error."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("torch") is None:
        pytest.skip("the neural extra is not installed")
    from paralign.similarity import pearson
    from paralign.similarity.hybrid import default_model

    data = _sts(tmp_path / "d.tsv", ROWS)
    assert main(["evaluate-sts", "--signal", "hybrid", "--data", data, "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["train"] == [] and result["model"]["groups"] == list(default_model().groups)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for _, a, b in ROWS), encoding="utf-8")
    assert main(["similarity", "--signal", "hybrid", "--pairs", str(pairs), "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert pearson(scored["scores"], [g for g, _, _ in ROWS]) == pytest.approx(result["pearson"], abs=1e-9)
    assert scored["scores"][0] > scored["scores"][1]  # identical sentences above unrelated ones
    assert main(["evaluate-sts", "--signal", "hybrid", "--data", data]) == 0
    text = capsys.readouterr().out
    assert "(the blend paralign ships)" in text
    assert text.splitlines()[-1] == f"signature: {result['signature']}" == f"signature: {scored['signature']}"
    assert main(["evaluate-sts", "--train", data, "--data", data, "--aligner", "exact"]) == 2


def test_the_shipped_blend_with_another_aligner_is_a_warning_and_a_note(tmp_path: Path, capsys) -> None:
    """The shipped blend was fitted on sultan:default alignments: with --aligner exact both
    commands still score, and say on stderr (evaluate-sts also under "notes" in its JSON) that
    its alignment-reading signal is off its scale; with its own aligner they say nothing."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("torch") is None:
        pytest.skip("the neural extra is not installed")
    data = _sts(tmp_path / "d.tsv", ROWS)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for _, a, b in ROWS), encoding="utf-8")
    assert main(["evaluate-sts", "--signal", "hybrid", "--data", data, "--aligner", "exact", "--format", "json"]) == 0
    captured = capsys.readouterr()
    notes = json.loads(captured.out)["notes"]
    assert len(notes) == 1 and "fitted on sultan:default" in notes[0] and "aligned by exact" in notes[0]
    assert notes[0] in captured.err
    assert main(["similarity", "--signal", "hybrid", "--pairs", str(pairs), "--aligner", "exact"]) == 0
    captured = capsys.readouterr()
    assert "paralign: warning: the hybrid blend was fitted on sultan:default" in captured.err
    assert len(captured.out.splitlines()) == len(ROWS)  # scored all the same
    assert main(["evaluate-sts", "--signal", "hybrid", "--data", data, "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["notes"] == [] and "hybrid blend" not in captured.err


def test_the_signature_is_printed_under_the_scores_and_in_the_json(tmp_path: Path, capsys) -> None:
    """sacrebleu-style: the text shows the settings' signature (not a loose "signal: ..." line)."""
    from paralign._version import __version__

    data = _sts(tmp_path / "d.tsv", ROWS)
    argv = ["evaluate-sts", "--data", data, "--aligner", "exact"]
    assert main([*argv, "--format", "json"]) == 0
    signature = json.loads(capsys.readouterr().out)["signature"]
    assert signature.startswith("signal:sultan2014|aligner:exact|spacy:")
    assert signature.endswith(f"|version:{__version__}")
    assert main(argv) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-1] == f"signature: {signature}" and not any(line.startswith("signal: ") for line in text)
    assert main([*argv, "--signal", "all-words", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["signature"] == signature.replace("sultan2014", "all-words")
    assert main([*argv, "--workers", "2", "--format", "json"]) == 0  # one chunk: in this process
    assert json.loads(capsys.readouterr().out)["signature"] == signature


def test_confidence_gives_each_correlation_its_bootstrap_interval(tmp_path: Path, capsys) -> None:
    """--confidence: per file and for the weighted mean, Pearson and Spearman with their 95%
    intervals (JSON and text), the resampling in the signature; the values are unchanged."""
    rows = [(float(k % 6), f"sentence {k} about cats", f"sentence {k} about {'cats' if k % 2 else 'dogs'}")
            for k in range(30)]
    first, second = _sts(tmp_path / "a.tsv", rows), _sts(tmp_path / "b.tsv", rows[::-1][:20])
    argv = ["evaluate-sts", "--data", first, "--data", second, "--aligner", "exact"]
    assert main([*argv, "--format", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--confidence", "--resamples", "200", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pearson"] == plain["pearson"] and "pearson_interval" not in plain
    for row in [*result["sets"], result]:
        for kind in ("pearson", "spearman"):
            interval = row[f"{kind}_interval"]
            assert interval["value"] == round(row[kind], 4) and interval["low"] <= interval["value"] <= interval["high"]
    assert "|bs:200|seed:12345|version:" in result["signature"]
    assert main([*argv, "--confidence", "--resamples", "200"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert "95% interval" in text[0] and text[-2].startswith("weighted mean") and text[-2].count("[") == 2


def test_a_pair_that_fails_is_named_by_its_file_and_line(tmp_path: Path, capsys) -> None:
    """A pair that cannot be scored (here a sentence over spaCy's 1,000,000 characters) is
    reported as ``file:line:`` like a skipped row, and its JSON failure carries that ``line``.
    Before, it was "pair N", N counting only the usable pairs: after a skipped row (line 1, a gold
    score of 9) the pair on line 4 was called "pair 3"."""
    rows = [(9.0, "Bad gold.", "Bad gold."), *ROWS[:2], (3.0, "word " * 200_001, "A word."), *ROWS[2:]]
    data = _sts(tmp_path / "sts.tsv", rows)
    assert main(["evaluate-sts", "--data", data, "--aligner", "exact", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    failures = json.loads(out)["sets"][0]["failures"]
    assert [(f["index"], f["line"]) for f in failures] == [(2, 4)]
    assert f"{data}:4: annotation failed: ValueError: [E088]" in err and "pair 3" not in err
    assert f"{data}:1: skipped: gold score 9" in err


def test_text_says_how_many_pairs_failed(tmp_path: Path, capsys) -> None:
    """JSON's "failed" (pairs left out of the correlations because they could not be scored) is
    in the text output too, as a line above the signature; before, only the stderr warnings said
    so, and the table's pairs column silently counted one fewer."""
    rows = [*ROWS[:2], (3.0, "word " * 200_001, "A word."), *ROWS[2:]]
    data = _sts(tmp_path / "sts.tsv", rows)
    assert main(["evaluate-sts", "--data", data, "--aligner", "exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == "failed: 1 pair could not be scored and is left out of the correlations (reported on stderr)"
    assert main(["evaluate-sts", "--data", _sts(tmp_path / "good.tsv", ROWS), "--aligner", "exact"]) == 0
    assert "failed" not in capsys.readouterr().out


def test_files_of_one_name_get_names_that_tell_them_apart(tmp_path: Path, capsys) -> None:
    """STS 2012 and 2013 both have an OnWN.test.tsv: each set was named by its file name alone,
    so the table had two 'OnWN.test.tsv' rows (and the JSON two sets of one name). A name
    shared by several files is now their last path parts that differ; other names stay as they
    were. One file given twice (its pairs counted twice in the means) is a usage error."""
    for year in ("2012", "2013"):
        (tmp_path / year).mkdir()
    old, new = _sts(tmp_path / "2012" / "OnWN.test.tsv", ROWS), _sts(tmp_path / "2013" / "OnWN.test.tsv", ROWS[:4])
    other = _sts(tmp_path / "2013" / "FNWN.test.tsv", ROWS[:5])
    argv = ["evaluate-sts", "--data", old, "--data", new, "--data", other, "--aligner", "exact"]
    assert main([*argv, "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in result["sets"]] == ["2012/OnWN.test.tsv", "2013/OnWN.test.tsv", "FNWN.test.tsv"]
    assert main(argv) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:4]]
    assert names == ["2012/OnWN.test.tsv", "2013/OnWN.test.tsv", "FNWN.test.tsv"]
    assert main(["evaluate-sts", "--data", old, "--data", str(tmp_path / "2013" / ".." / "2012" / "OnWN.test.tsv"),
                 "--aligner", "exact"]) == 2
    assert "given twice" in capsys.readouterr().err


def test_the_aligner_named_is_the_one_whose_alignments_were_scored(tmp_path: Path, capsys) -> None:
    """The JSON's "aligner" named --aligner (sultan:default unless told) even for a signal that
    reads no alignment (embedding: nothing was aligned) or realigns with its own
    (contextual-alignment: sultan:contextual, as the signature said). It now names the aligner
    the scores read, "none" for none (as the signature's sim:none), in evaluate-sts and similarity alike."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("torch") is None:
        pytest.skip("the neural extra is not installed")
    data = _sts(tmp_path / "sts.tsv", ROWS[:3])
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for _, a, b in ROWS[:3]), encoding="utf-8")
    for signal, expected in (("embedding", "none"), ("contextual-alignment", "sultan:contextual"), ("sultan2014", "exact")):
        for argv in (["evaluate-sts", "--data", data], ["similarity", "--pairs", str(pairs)]):
            assert main([*argv, "--signal", signal, "--aligner", "exact", "--format", "json"]) == 0
            result = json.loads(capsys.readouterr().out)
            assert result["aligner"] == expected, (argv[0], signal)
            assert (f"|aligner:{expected}|" in result["signature"]) is (expected != "none")


def test_confidence_names_its_resamples_and_seed_as_the_other_commands_do(tmp_path: Path, capsys) -> None:
    """paraeval's, score-alignments' and meta-eval's confidence JSON say "resamples" and "seed";
    evaluate-sts --confidence had them only inside its signature (bs:N|seed:S)."""
    data = _sts(tmp_path / "sts.tsv", ROWS)
    argv = ["evaluate-sts", "--data", data, "--aligner", "exact", "--format", "json"]
    assert main([*argv, "--confidence", "--resamples", "50", "--seed", "7"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["resamples"], result["seed"]) == (50, 7) and "|bs:50|seed:7|" in result["signature"]
    assert main(argv) == 0
    assert "resamples" not in json.loads(capsys.readouterr().out)  # no bootstrap, no count


def test_an_msrp_file_is_refused_as_sts_data(tmp_path: Path, capsys) -> None:
    """An MSRP file given to evaluate-sts was read as 'score TAB s1 TAB s2': its 0/1 labels
    became gold scores and its two id columns the sentences, and the run ended with n/a
    correlations and exit status 0. It is a data error naming the file and the command to use."""
    msrp = tmp_path / "msr-para-test.tsv"
    msrp.write_text("\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
                    "1\t1089874\t1089925\tA cat sat on the mat.\tA cat is on the mat.\n"
                    "0\t3019446\t3019327\tHe left early.\tShe stayed home.\n", encoding="utf-8")
    good = _sts(tmp_path / "sts.tsv", ROWS)
    assert main(["evaluate-sts", "--data", good, "--data", str(msrp), "--aligner", "exact"]) == 1
    err = capsys.readouterr().err
    assert f"{msrp}: an MSRP paraphrase file (its first line is the 'Quality' header), not STS" in err
    assert "evaluate-paraphrase" in err


def test_a_correlation_interval_over_2_pairs_is_null_and_says_why(tmp_path: Path, capsys) -> None:
    """A correlation over 2 points is +1 or -1 whatever the scores, and so is every resample's:
    --confidence over 2 different pairs gave the interval [100.00, 100.00], as if certain. Over
    fewer than 3 scored pairs the interval is null (n/a in text) with a warning saying why, and
    the file is left out of the weighted mean's interval, as a file with none is."""
    two, four = _sts(tmp_path / "two.tsv", ROWS[:2]), _sts(tmp_path / "four.tsv", ROWS[:4])
    argv = ["evaluate-sts", "--data", two, "--data", four, "--aligner", "exact", "--confidence",
            "--resamples", "100"]
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["sets"][0]["pearson_interval"] is None is result["sets"][0]["spearman_interval"]
    assert result["sets"][1]["pearson_interval"] is not None
    assert result["pearson_interval"] == result["sets"][1]["pearson_interval"]  # the mean of four.tsv alone
    assert (f"{two}: no bootstrap interval (n/a): fewer than 3 scored pairs to correlate (got 2)" in err
            and "+1 or -1" in err)
    assert four not in err
    assert main(argv) == 0
    assert "[100.00, 100.00]" not in capsys.readouterr().out


def test_data_pairs_the_hybrid_was_fitted_on_are_a_note(tmp_path: Path, capsys) -> None:
    """A --data pair that is also a --train pair (in either order, however spaced) is a note
    naming its file and line, and a warning: the file's correlation is not held out. Before,
    evaluate-sts --train F --data F gave in-sample figures without a word."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("torch") is None:
        pytest.skip("the neural extra is not installed")
    first, second = _sts(tmp_path / "a.tsv", TRAIN), _sts(tmp_path / "b.tsv", TRAIN[::-1][:8] + TRAIN[:2])
    unseen = [r for r in ROWS if r[1:] != TRAIN[2][1:]]  # ROWS' third pair is TRAIN's too
    seen = [(g, f" {b}  ", a) for g, a, b in TRAIN[3:5]]  # swapped and spaced: the same pairs
    data = _sts(tmp_path / "d.tsv", unseen[:2] + seen + unseen[2:])
    argv = ["evaluate-sts", "--signal", "hybrid", "--train", first, "--train", second, "--data", data,
            "--aligner", "exact", "--format", "json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    note = (f"2 of 7 pairs of {data} are also training pairs of the hybrid blend (fitted on {first}, {second}; "
            f"first {data}:3): the figures are not held out")
    assert json.loads(captured.out)["notes"] == [note]
    assert f"paralign: warning: {note}" in captured.err
    held_out = _sts(tmp_path / "e.tsv", unseen)
    assert main([*argv[:argv.index("--data") + 1], held_out, *argv[argv.index("--data") + 2:]]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == []


def test_data_pairs_the_shipped_blend_was_fitted_on_are_a_note(tmp_path: Path, capsys, data) -> None:
    """The shipped blend was fitted on STS 2012's MSRpar.train, whose rows are also in the STS
    Benchmark (129 dev and 498 train rows) and in MSRP test: scoring them with it says so."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("torch") is None:
        pytest.skip("the neural extra is not installed")
    from paralign.corpora.sts import load_sts

    trained = load_sts(data / "similarity" / "sts" / "2012" / "MSRpar.train.tsv").pairs[:3]
    rows = [*ROWS[:2], *((p.score, p.sentence2, p.sentence1) for p in trained), *ROWS[2:]]
    path = _sts(tmp_path / "d.tsv", rows)  # a temporary copy of 3 rows, never in the tree
    assert main(["evaluate-sts", "--signal", "hybrid", "--data", path, "--format", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert notes == [f"3 of 9 pairs of {path} are also training pairs of the hybrid blend (the blend paralign "
                     "ships, fitted on STS 2012's MSRpar.train and SMTeuroparl.train; first "
                     f"{path}:3): the figures are not held out"]


def test_idf_statistics_fitted_on_the_sentences_scored_are_a_note(tmp_path: Path, capsys) -> None:
    """--idf-from given the --data file (or a file holding its sentences) fits the IDF statistics
    on the test sentences: a note naming how many pairs and the first file:line, and a warning.
    Before, evaluate-sts --signal idf --idf-from F --data F said nothing."""
    data = _sts(tmp_path / "d.tsv", ROWS)
    other = _sts(tmp_path / "t.tsv", [(1.0, "Stocks fell sharply.", "Markets dropped."),
                                      (4.0, "A cat naps.", "A cat sleeps soundly."), (2.0, "Rain falls.", "The sun shines.")])
    argv = ["evaluate-sts", "--signal", "idf", "--data", data, "--aligner", "exact", "--format", "json"]
    assert main([*argv, "--idf-from", data]) == 0
    captured = capsys.readouterr()
    note = (f"6 of 6 pairs of {data} have a sentence that the IDF files ({data}) hold (first {data}:1): the IDF "
            "statistics were fitted on sentences scored, so the figures are not held out")
    assert json.loads(captured.out)["notes"] == [note] and f"paralign: warning: {note}" in captured.err
    sentences = tmp_path / "corpus.txt"  # one text sentence a line, spaced otherwise
    sentences.write_text("Dogs  bark.\nThe dog runs fast.\n", encoding="utf-8")
    assert main([*argv, "--idf-from", other, "--idf-from", str(sentences)]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == [
        f"2 of 6 pairs of {data} have a sentence that the IDF files ({other}, {sentences}) hold (first {data}:2): "
        "the IDF statistics were fitted on sentences scored, so the figures are not held out"]
    assert main([*argv, "--idf-from", other]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == []
    pairs = tmp_path / "pairs.tsv"  # a file of pairs, as similarity --pairs reads it
    pairs.write_text("Stocks fell sharply.\tDogs bark.\n", encoding="utf-8")
    assert main([*argv, "--idf-from", str(pairs)]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == [
        f"1 of 6 pairs of {data} has a sentence that the IDF files ({pairs}) hold (first {data}:2): "
        "the IDF statistics were fitted on sentences scored, so the figures are not held out"]


def test_a_long_list_of_bad_lines_is_cut_short_on_stderr(tmp_path: Path, capsys) -> None:
    """A file with many bad lines (a wrong file, say) printed one warning per line, all of them:
    45 here, 100,000 for such a file. stderr now lists the first 20 and how many more; the
    JSON keeps every one."""
    path = tmp_path / "sts.tsv"
    path.write_text("".join(f"{g}\t{a}\t{b}\n" for g, a, b in ROWS) + "one field only\n" * 45, encoding="utf-8")
    assert main(["evaluate-sts", "--data", str(path), "--aligner", "exact", "--format", "json"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(json.loads(captured.out)["sets"][0]["skipped_rows"]) == 45
    skipped = [line for line in lines if ": skipped: " in line]
    assert len(skipped) == 20
    assert skipped[0] == f"paralign: warning: {path}:7: skipped: 1 field, expected 3 (STS: score, sentence1, sentence2)"
    assert lines[lines.index(skipped[-1]) + 1] == ("paralign: warning: more than 20 bad items: further ones are "
                                                   "counted, not shown")
    assert lines[-1] == "paralign: warning: ... and 25 more warnings"


def test_help_says_what_the_command_does_and_that_idf_from_repeats(capsys) -> None:
    """`evaluate-sts --help` began with how several files are named: nothing said that it scores
    the pairs and correlates the scores with the gold ones, nor that its text figures are
    percents (the JSON's fractions); --idf-from said "file(s)" where it takes one a time."""
    with pytest.raises(SystemExit):
        main(["evaluate-sts", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "correlate the scores with the file's gold scores: Pearson and Spearman, printed in percent" in text
    assert "(for --signal idf*; repeatable)" in text and "file(s)" not in text


def test_a_table_of_paraphrase_labels_is_refused_as_sts_data(tmp_path: Path, capsys) -> None:
    """A CSV of MRPC or PAWS as Hugging Face writes it (sentence1, sentence2, label 0/1) was read
    as an STS table, its 0/1 labels the gold scores, and correlated without a word (exit 0). It
    is a data error naming the file and evaluate-paraphrase, as an MSRP file is; GLUE's STS-B,
    whose gold scores are under 'label' too (5.0, 3.8), is read as before."""
    mrpc = tmp_path / "mrpc.csv"
    mrpc.write_text("sentence1,sentence2,label\nA cat sat.,A cat sat down.,1\nDogs bark.,Birds fly.,0\n"
                    "He left.,He went away.,1\n", encoding="utf-8")
    assert main(["evaluate-sts", "--data", str(mrpc), "--aligner", "exact"]) == 1
    err = capsys.readouterr().err
    assert f"{mrpc}:1: a table of paraphrase labels (its 'label' column holds 0 and 1 alone), not STS" in err
    assert "evaluate it with evaluate-paraphrase" in err
    glue = tmp_path / "stsb.tsv"
    glue.write_text("sentence1\tsentence2\tlabel\nA cat sat.\tA cat sat down.\t4.0\nDogs bark.\tBirds fly.\t0.0\n"
                    "He left.\tHe went away.\t1\n", encoding="utf-8")
    assert main(["evaluate-sts", "--data", str(glue), "--aligner", "exact", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["pairs"] == 3


def test_an_interval_column_is_as_wide_as_its_widest_interval() -> None:
    """An interval wider than 15 characters (``[-100.00, 100.00]``, --confidence over a tiny
    file) widens its column: it was padded to 15 and pushed the columns after it out of line."""
    from paralign.cli.evaluate_sts import render

    def row(name: str, low: float | None, high: float | None) -> dict:
        interval = None if low is None else {"low": low, "high": high, "value": 0.1}
        return {"name": name, "pairs": 4, "pearson": 0.1, "spearman": 0.2, "skipped": 0,
                "pearson_interval": interval, "spearman_interval": interval}

    result = {**row("weighted mean", 0.5, 0.9), "sets": [row("tiny.tsv", -1.0, 1.0), row("two.tsv", None, None)],
              "failed": 0, "signature": "s"}
    table = render(result).splitlines()[:4]
    assert "[-100.00, 100.00]" in table[1] and " n/a " in table[2] and "[50.00, 90.00]" in table[3]
    assert len({len(line) for line in table}) == 1  # every column in line, 'skipped' last
    assert table[0].index("spearman") + len("spearman") == table[1].index("20.00") + len("20.00")  # right-aligned
    assert table[0].index("95% interval") == table[1].index("[") == table[3].index("[")
