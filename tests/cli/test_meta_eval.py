"""`paralign meta-eval`: bad option values and systems the WMT loader leaves out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paralign.cli import main
from paralign.errors import ConfigurationError
from paralign.metrics.correlation import resample_counts


def _wmt(tmp_path: Path) -> Path:
    """Three scored systems, one scored system without output (Ghost), one unscored output (Extra)."""
    root = tmp_path / "wmt"
    for sub in ("references", "system-outputs", "sources"):
        (root / "txt" / sub).mkdir(parents=True)
    (root / "humaneval").mkdir()
    ref = "the cat sat on the mat\nprices went up sharply\nthe dog ran home\n"
    (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").write_text(ref, encoding="utf-8")
    outputs = {
        "Good": ref,
        "Mid": "the cat sat on a mat\nprices rose sharply\na dog ran home\n",
        "Bad": "cat mat\nprice up\ndog\n",
        "Extra": "the cat\nprices\nthe dog\n",
    }
    for name, text in outputs.items():
        (root / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en").write_text(text, encoding="utf-8")
    (root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv").write_text(
        "80.0 0.5 3 3 g Good\n60.0 0.1 3 3 m Mid\n20.0 -0.6 3 3 b Bad\n70.0 0.3 3 3 gh Ghost\n",
        encoding="utf-8")
    return root


def test_left_out_systems_are_reported(tmp_path, capsys):
    root = _wmt(tmp_path)
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "20"]
    assert main([*argv, "--format", "json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["missing"] == ["Ghost"] and result["unscored"] == ["Extra"] and result["case_twins"] == []
    assert sorted(result["systems"]) == ["Bad", "Good", "Mid"]
    assert "'Ghost' has human scores but no output" in captured.err
    assert "'Extra' has an output file but no human score" in captured.err
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "no output file: Ghost" in out and "no human score: Extra" in out


def test_names_that_differ_only_in_case_are_each_told_of_the_other(tmp_path, capsys):
    """A human-scored 'Extra' and an output 'extra' were two warnings, "no output" and "no human
    score", with no word that they differ only in case: each now names the other (still not
    matched: a name is the humans' NAME as written)."""
    root = _wmt(tmp_path)
    scores = root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv"
    scores.write_text(scores.read_text(encoding="utf-8") + "50.0 0.0 3 3 e EXTRA\n", encoding="utf-8")
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
            "--format", "json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["missing"] == ["EXTRA", "Ghost"] and result["unscored"] == ["Extra"]
    hint = ("differs only in case: not matched, as the names of ad-sys-ranking-de-en-z-names.csv must be those "
            "of the output files; rename one)")
    assert (f"system 'EXTRA' has human scores but no output file: left out (the output 'Extra' {hint}"
            in captured.err)
    assert (f"system 'Extra' has an output file but no human score: left out (the human-scored system 'EXTRA' "
            f"{hint}" in captured.err)
    assert "system 'Ghost' has human scores but no output file: left out\n" in captured.err  # no twin: no hint
    assert result["case_twins"] == [{"human": "EXTRA", "output": "Extra"}]  # the hint as data in JSON
    _segments(root)
    for level in ("segment", "both"):  # each level's result says it
        assert main([*argv, "--level", level]) == 0
        assert json.loads(capsys.readouterr().out)["case_twins"] == [{"human": "EXTRA", "output": "Extra"}]


def test_a_reference_set_that_is_a_copy_of_another_is_refused_naming_both(tmp_path, capsys):
    """--refs A,B of a folder whose ref B is a copy of ref A: BLEU was signed nrefs:2 and ParaEval
    refused "reference stream 2" naming no file; now one usage error naming both, as --refs A,A."""
    root = _wmt(tmp_path)
    refs = root / "txt" / "references"
    (refs / "newstest2021.de-en.ref.B.en").write_bytes((refs / "newstest2021.de-en.ref.A.en").read_bytes())
    for fmt in ("text", "json"):
        assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--refs", "A,B", "--metrics", "bleu",
                     "--resamples", "5", "--format", fmt]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == (f"paralign meta-eval: error: reference B ({refs / 'newstest2021.de-en.ref.B.en'}) "
                                     f"has the same lines as reference A ({refs / 'newstest2021.de-en.ref.A.en'}): "
                                     "give each reference once\n")


def test_scores_by_sys_id_are_said_to_be_so_before_any_metric_is_computed(tmp_path, capsys, monkeypatch):
    """A --scores file naming systems by the humans' SYS_ID ('Nemo.7') where the outputs are
    named by NAME ('NVIDIA-NeMo') gave "no scores for system 'NVIDIA-NeMo' (the file scores ...)"
    with no hint: the error now says the file's names are SYS_IDs, and which NAME each is; it is
    raised before any metric is computed (not renamed: a name is matched as written)."""
    import paralign.metrics.segment_correlation as segment_correlation

    root = _wmt(tmp_path)
    ranking = root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv"
    ranking.write_text(ranking.read_text(encoding="utf-8").replace(" g Good", " Good.4 Good")
                       .replace(" m Mid", " M.2 Mid"), encoding="utf-8")
    mine = tmp_path / "mine.sys.score"
    mine.write_text("Good.4 0.9\nM 0.5\nBad 0.1\n", encoding="utf-8")

    def never(*args, **kwargs):
        raise AssertionError("a metric was computed")

    monkeypatch.setattr(segment_correlation, "meta_evaluate_levels", never)
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
            "--scores", str(mine)]
    assert main(argv) == 1
    assert (f"{mine}: no scores for system 'Good' (the file scores 3 systems: Bad, Good.4, M); 2 names of the file "
            "are SYS_IDs (or one without its '.N') of systems in ad-sys-ranking-de-en-z-names.csv (its 5th field), "
            "where the outputs are named by NAME (its last): 'Good.4' is 'Good', 'M' is 'Mid' (SYS_ID 'M.2'); "
            "name the file's rows by NAME") in capsys.readouterr().err
    mine.write_text("Good 0.9\nMid 0.5\nBd 0.1\n", encoding="utf-8")  # no SYS_ID: no hint
    assert main(argv) == 1
    assert f"{mine}: no scores for system 'Bad' (the file scores 3 systems: Bd, Good, Mid)\n" in capsys.readouterr().err


def test_json_names_the_resamples_as_every_command_does(tmp_path, capsys):
    """`resamples`, as the `confidence` objects of paraeval and score-alignments and the STS
    report name it; `n_resamples`, the old key, stays until paralign 0.3."""
    argv = ["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu",
            "--resamples", "20", "--format", "json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["resamples"] == 20 and result["n_resamples"] == 20


def test_a_wmt_file_is_called_a_file_not_a_missing_folder(tmp_path, capsys):
    """--wmt FILE said 'FILE: no such folder' though FILE exists: it is a file, not a folder
    (a usage error, exit 2, as a missing folder still is)."""
    (tmp_path / "wmt.txt").write_text("x\n", encoding="utf-8")
    for given, message in ((tmp_path / "wmt.txt", "is a file, not a folder"), (tmp_path / "nope", "no such folder")):
        with pytest.raises(SystemExit) as exc:
            main(["meta-eval", "--wmt", str(given), "--pair", "de-en", "--metrics", "bleu"])
        assert exc.value.code == 2 and f"argument --wmt: {given}: {message}" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["-5", "0"])
def test_resamples_must_be_positive(tmp_path, capsys, value):
    with pytest.raises(SystemExit):
        main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu",
              "--resamples", value])
    assert "--resamples" in capsys.readouterr().err


def test_a_negative_seed_is_a_usage_error(tmp_path, capsys):
    """numpy refuses a negative seed only after the data is loaded (a traceback): the parser does."""
    with pytest.raises(SystemExit) as exc:
        main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu",
              "--resamples", "2", "--seed", "-1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed: must be at least 0" in err and "Traceback" not in err


def test_a_table_threshold_that_is_not_a_finite_number_is_a_usage_error(tmp_path, capsys):
    table = tmp_path / "t.tsv"
    table.write_text("cat\tfeline\t0.5\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "paraeval",
                 "--resources", "none", "--resamples", "2", "--table", f"{table}:nan"]) == 2
    assert "t.tsv:nan' has a threshold that is not a finite number" in capsys.readouterr().err


@pytest.mark.parametrize("metrics", ["", " , ", "foo", "bleu,paraeval_x"])
def test_metrics_must_name_known_metrics(tmp_path, capsys, metrics):
    """'' ran and printed an empty table; foo's list of choices left out the paraeval names."""
    assert main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", metrics]) == 2
    err = capsys.readouterr().err
    assert err.startswith("paralign meta-eval: error: argument --metrics: ") and err.count("\n") == 1
    assert "choose from paraeval, paraeval_score, paraeval_p, paraeval_r, paraeval_f, bleu, chrf" in err


@pytest.mark.parametrize("folder", ["missing", "empty"])
def test_a_wmt_folder_that_is_missing_or_not_one_is_a_usage_error(tmp_path, capsys, folder):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit) as stop:
        main(["meta-eval", "--wmt", str(tmp_path / folder), "--pair", "de-en", "--metrics", "bleu"])
    assert stop.value.code == 2
    assert f"argument --wmt: {tmp_path / folder}: " in capsys.readouterr().err


def test_help_shows_percent_signs_once(capsys):
    with pytest.raises(SystemExit):
        main(["meta-eval", "--help"])
    out = capsys.readouterr().out
    assert "95%" in out and "%%" not in out


def test_resample_counts_rejects_bad_sizes():
    with pytest.raises(ConfigurationError, match="resamples"):
        resample_counts(10, -5)
    with pytest.raises(ConfigurationError, match="resamples"):
        resample_counts(10, 0)
    with pytest.raises(ConfigurationError, match="segment"):
        resample_counts(0, 10)
    # one segment is drawn every time: an interval of width 0, refused as bootstrap_indices refuses it
    with pytest.raises(ConfigurationError, match="at least 2 segments"):
        resample_counts(1, 10)
    assert resample_counts(2, 3, seed=1).sum(axis=1).tolist() == [2.0, 2.0, 2.0]


def test_report_has_a_scatter_and_the_json_correlations_per_metric(tmp_path, capsys, report_page):
    root = _wmt(tmp_path)
    odd = "<b>&Odd"  # a system name is user text: it stays text in the page
    (root / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{odd}.en").write_text(
        "the cat sat\nprices went up\nthe dog ran\n", encoding="utf-8")
    with open(root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv", "a", encoding="utf-8") as handle:
        handle.write(f"50.0 0.0 3 3 o {odd}\n")
    report = tmp_path / "meta.html"
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf", "--resamples", "20"]
    assert main([*argv, "--format", "json", "--report", str(report)]) == 0
    result = json.loads(capsys.readouterr().out)
    page = report_page(report.read_text(encoding="utf-8"))
    assert [h.text for h in page.root.iter("h2")] == ["bleu", "chrf"]
    assert page.count("svg") == 2 and len(page.find("circle", class_="point")) == 2 * 4
    values = page.values()
    for name in ("bleu", "chrf"):
        for kind in ("pearson", "spearman", "kendall"):
            for part in ("value", "low", "high"):
                assert values[f"metrics.{name}.{kind}.{part}"] == result["metrics"][name][kind][part]
    assert odd in page.text and odd not in page.source
    page.assert_self_contained()
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert main([*argv, "--report", str(report)]) == 0
    assert capsys.readouterr().out == plain


def _segments(root: Path) -> None:
    """Segment DA of Good/Mid/Bad, SIDs mapped to lines in another order (SID 1 = line 3)."""
    (root / "humaneval" / "seg-line-map-de-en.tsv").write_text(
        "SID\tline\tdoc_id\n1\t3\td2\n2\t1\td1\n3\t2\td1\n", encoding="utf-8")
    rows = ["SYS SID RAW.SCR Z.SCR N "]
    for sys_id, raws in (("g", (95, 90, 85)), ("m", (60, 55, 50)), ("b", (10, 20, 5))):
        rows += [f"{sys_id} {sid} {raw} {(raw - 50) / 40} 2 " for sid, raw in zip((2, 3, 1), raws, strict=True)]
    (root / "humaneval" / "ad-seg-scores-de-en.csv").write_text("\n".join(rows) + "\n",
                                                                encoding="utf-8")


def test_level_both_json_keys_and_text(tmp_path, capsys):
    root = _wmt(tmp_path)
    _segments(root)
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf",
            "--resamples", "20"]
    assert main([*argv, "--format", "json"]) == 0
    system_only = json.loads(capsys.readouterr().out)
    assert "segment" not in system_only
    assert main([*argv, "--level", "both", "--format", "json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert both["metrics"] == system_only["metrics"]
    for name in ("bleu", "chrf"):
        cell = both["segment"][name]
        assert set(cell) == {"darr_tau", "darr_tau_no_ties", "pearson", "kendall", "darr_pairs",
                             "judged", "undefined"}
        assert set(cell["darr_tau"]) == {"value", "low", "high"}
        # 3 lines x (Good>Mid, Good>Bad, Mid>Bad: every gap > 25) = 9 DARR pairs, 9 judged points
        assert cell["darr_pairs"]["pairs"] == 9 and cell["judged"] == 9
        assert cell["darr_tau"]["value"] == 1.0
    assert main([*argv, "--level", "segment", "--format", "json"]) == 0
    segment_only = json.loads(capsys.readouterr().out)
    assert "metrics" not in segment_only and segment_only["segment"] == both["segment"]
    assert main([*argv, "--level", "both"]) == 0
    text = capsys.readouterr().out
    assert "segment level: 9 judged segments, 9 DARR pairs" in text
    assert any(line.startswith("chrf") and line.endswith("9/0/0") for line in text.splitlines())


def test_segment_level_needs_the_line_map(tmp_path, capsys):
    root = _wmt(tmp_path)
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu",
                 "--level", "segment"]) == 1
    assert "seg-line-map-de-en.tsv: not found" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["ad-sys-ranking-de-en-z-names.csv", "seg-line-map-de-en.tsv",
                                  "ad-seg-scores-de-en.csv", "reference"])
def test_a_wmt_file_that_is_a_directory_is_a_usage_error_as_every_input(tmp_path, capsys, name):
    """docs/CLI.md, Exit status: a directory where an input file should be is exit 2
    (InputFileError.cannot_open). A reference that was one was; the human scores, the line map
    and the segment scores were "not found", exit 1, as if the folder lacked them. A file the
    folder lacks is still missing data (ResourceMissingError, exit 1: the line map's test above)."""
    root = _wmt(tmp_path)
    _segments(root)
    if name == "reference":
        path = root / "txt" / "references" / "newstest2021.de-en.ref.A.en"
    else:
        path = root / "humaneval" / name
    path.unlink()
    path.mkdir()
    code = main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                 "--level", "both"])
    assert (code, capsys.readouterr().err) == (2, f"paralign meta-eval: error: {path}: is a directory, not a file\n")


def test_paraeval_configs_headline_and_ter(tmp_path, capsys):
    root = _wmt(tmp_path)
    _segments(root)
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--level", "both", "--resamples",
            "20", "--resources", "none", "--format", "json", "--metrics"]
    assert main([*argv, "paraeval,ter,bleu", "--paraeval-config", "paper"]) == 0
    paper = json.loads(capsys.readouterr().out)
    assert list(paper["metrics"]) == ["paraeval", "paraeval_p", "paraeval_r", "paraeval_f", "ter",
                                      "bleu"]
    assert paper["metrics"]["paraeval"]["pearson"] == paper["metrics"]["paraeval_f"]["pearson"]
    assert paper["segment"]["paraeval"]["pearson"] == paper["segment"]["paraeval_f"]["pearson"]
    assert paper["signatures"]["paraeval"].startswith("nrefs:1|config:paper|res:none")
    # TER is negated (higher is better): the reference itself scores 0, the worst system lowest
    ter = paper["metrics"]["ter"]["scores"]
    assert ter["Good"] == 0.0 and ter["Bad"] < ter["Mid"] < 0
    assert paper["segment"]["ter"]["darr_tau"]["value"] == 1.0
    assert main([*argv, "paraeval_f,paraeval"]) == 0  # the default config; no name twice
    graded = json.loads(capsys.readouterr().out)
    assert list(graded["metrics"]) == ["paraeval_f", "paraeval", "paraeval_p", "paraeval_r"]
    assert "config:default|tiers:exact+stem+synonym+paraphrase" in graded["signatures"]["paraeval"]
    assert graded["segment"]["paraeval"]["darr_tau"]["value"] == 1.0
    with pytest.raises(SystemExit):
        main([*argv, "paraeval", "--paraeval-config", "nope"])
    assert "invalid choice: 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("level", ["segment", "both"])
def test_segment_level_report_shows_the_segment_correlations(tmp_path, capsys, report_page, level):
    root = _wmt(tmp_path)
    _segments(root)
    report = tmp_path / "segment.html"
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf",
            "--resamples", "20", "--level", level, "--format", "json"]
    assert main([*argv, "--report", str(report)]) == 0
    result = json.loads(capsys.readouterr().out)
    page = report_page(report.read_text(encoding="utf-8"))
    headings = [h.text for h in page.root.iter("h2")]
    system = ["bleu", "chrf"] if level == "both" else []
    assert headings == [*system, "segment level", "bleu (segment level)", "chrf (segment level)"]
    values = page.values()
    for name in ("bleu", "chrf"):
        for kind in ("darr_tau", "darr_tau_no_ties", "pearson", "kendall"):
            for part in ("value", "low", "high"):
                assert values[f"segment.{name}.{kind}.{part}"] == result["segment"][name][kind][part]
        assert values[f"segment.{name}.darr_pairs.pairs"] == 9
        assert values[f"segment.{name}.judged"] == 9
    # two interval plots (DARR tau, Pearson), one row per metric, carrying the JSON values
    rows = page.find("g", class_="interval")
    assert len(rows) == 2 * 2
    assert {(r["data-label"], float(r["data-value"])) for r in rows[:2]} == {
        (name, result["segment"][name]["darr_tau"]["value"]) for name in ("bleu", "chrf")}
    assert len(page.find("circle", class_="point")) == (2 * 3 if level == "both" else 0) + 2 * 2  # 3 systems
    page.assert_self_contained()
    assert "system level only" not in capsys.readouterr().err


def test_text_shows_the_paired_tests_json_gives(tmp_path, capsys):
    """The paired bootstrap tests against BLEU and chrF (JSON: each metric's "vs") are in the
    text output too, one row a pair of metrics: the difference of the correlations, its 95%
    interval and the one-sided p. Before, text showed no test, so whether a metric correlates
    better than BLEU could be read from JSON only."""
    root = _wmt(tmp_path)
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf,ter",
            "--resamples", "20"]
    assert main([*argv, "--format", "json"]) == 0
    metrics = json.loads(capsys.readouterr().out)["metrics"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("paired tests"))
    rows = {tuple(line.split()[:2]): line for line in lines[start + 2:start + 6]}
    assert set(rows) == {("bleu", "chrf"), ("chrf", "bleu"), ("ter", "bleu"), ("ter", "chrf")}
    for (name, other), line in rows.items():
        test = metrics[name]["vs"][other]
        for kind in ("pearson", "spearman", "kendall"):
            t = test[kind]
            assert f"{t['value']:+.3f} [{t['low']:.3f}, {t['high']:.3f}] p {t['p_value']:.2f}" in line
    assert main([*argv[:-4], "--metrics", "ter", "--resamples", "20"]) == 0
    assert "paired tests" not in capsys.readouterr().out  # no BLEU or chrF to test against


def test_a_paper_only_option_with_another_config_names_the_flags_of_this_command(tmp_path, capsys):
    """--min-paraphrase-length with the default config is a usage error naming meta-eval's own
    flags, before the data loads. Before, the library's message told the user to give
    "--config paper", an option meta-eval does not have (its flag is --paraeval-config), and
    named the setting by its Python name, min_paraphrase_length."""
    assert main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "paraeval",
                 "--resources", "none", "--min-paraphrase-length", "3"]) == 2
    err = capsys.readouterr().err
    assert err == ("paralign meta-eval: error: --min-paraphrase-length is a setting of the paper "
                   "config: give --paraeval-config paper (the config is 'default')\n")


@pytest.mark.parametrize("option", [["--paraeval-config", "paper"], ["--table", "no-such-table.tsv"],
                                    ["--resources", "none"], ["--max-length", "2"],
                                    ["--paraeval-config", "paper", "--min-paraphrase-length", "3"]])
def test_a_paraeval_option_without_a_paraeval_metric_is_a_usage_error(tmp_path, capsys, option):
    """--paraeval-config, --table, --resources, --max-length and --min-paraphrase-length only
    matter for the ParaEval metrics. Before, with --metrics bleu,chrf they were silently
    ignored (a --table that does not exist too): the run looked like one of the config asked
    for, and a user believed they had it."""
    argv = ["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu,chrf",
            "--resamples", "2", *option]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("paralign meta-eval: error: ") and err.count("\n") == 1
    assert option[0] in err and " with a ParaEval metric in --metrics (paraeval, " in err
    assert ("--min-paraphrase-length" in err) == ("--min-paraphrase-length" in option)


def test_a_reference_set_named_twice_is_a_usage_error(tmp_path, capsys):
    """--refs A,A scored every metric against two copies of reference A (nrefs:2 in ParaEval's
    signature, "refs A+A" in the output), as if it were two references. It is a usage error."""
    argv = ["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu",
            "--resamples", "2", "--refs", "A, A"]
    assert main(argv) == 2
    assert capsys.readouterr().err == ("paralign meta-eval: error: argument --refs: reference set 'A' "
                                       "named twice: give each once\n")


def test_text_rounds_the_figures_json_and_the_report_give():
    """The text tables show the JSON's figures (4 decimals) to 3 decimals, as the report does.
    Before, text rounded the unrounded values: a correlation of 0.02151 was 0.022 in text but
    0.0215 in JSON and 0.021 in the report, so the three outputs of one run disagreed."""
    import numpy as np

    from paralign.cli.meta_eval import render
    from paralign.metrics.correlation import (
        CORRELATIONS,
        MetaEvaluation,
        MetricCorrelation,
        PairedTest,
    )
    from paralign.metrics.segment_correlation import SEGMENT_CORRELATIONS, SegmentCorrelation
    from paralign.metrics.significance import Interval

    def figures(value: float) -> dict[str, Interval]:
        return {kind: Interval(value, 0.1, 0.9) for kind in CORRELATIONS}

    tests = {"bleu": {kind: PairedTest(Interval(0.02151, -0.01, 0.05), 0.33351) for kind in CORRELATIONS}}
    metric = MetricCorrelation("chrf", {"a": 1.0, "b": 2.0, "c": 3.0}, figures(0.48151),
                               {k: np.zeros(2) for k in CORRELATIONS}, tests)
    segment = SegmentCorrelation("chrf", {k: Interval(0.12351, 0.1, 0.2) for k in SEGMENT_CORRELATIONS},
                                 {"pairs": 3, "concordant": 2, "discordant": 1, "ties": 0, "identical": 0}, 9, 0)
    result = MetaEvaluation("de-en", ("A",), ("a", "b", "c"), 20, 1, {"chrf": metric}, {},
                            level="both", segment={"chrf": segment})
    data = result.to_dict()
    assert data["metrics"]["chrf"]["pearson"]["value"] == 0.4815  # what JSON gives, the report shows 0.481
    text = render(result)
    assert "0.481 [0.100, 0.900]" in text and "0.482" not in text
    assert "+0.021 [-0.010, 0.050] p 0.33" in text and "+0.022" not in text
    assert "0.123 [0.100, 0.200]" in text and "0.124" not in text


@pytest.mark.parametrize(("pair", "hint"), [("en-de", " (--pair de-en?)"), ("DE-EN", " (--pair de-en?)"),
                                            ("de_en", " (--pair de-en?)"), ("fr-en", "")])
def test_a_pair_the_folder_does_not_have_is_a_usage_error_listing_those_it_has(tmp_path, capsys, pair, hint):
    """--pair en-de (or a typo) said 'no references for en-de under DIR' (exit 1), as if data
    were missing, and not which pairs there are. It is a usage error listing the folder's pairs,
    and the one meant where it is one of them written otherwise (the other way round, in capitals,
    joined by _): before, only the list."""
    root = _wmt(tmp_path)
    assert main(["meta-eval", "--wmt", str(root), "--pair", pair, "--metrics", "bleu"]) == 2
    assert capsys.readouterr().err == (f"paralign meta-eval: error: argument --pair: no pair {pair!r} "
                                       f"in {root}: it has de-en{hint}\n")


@pytest.mark.parametrize("level", ["system", "segment", "both"])
def test_bleu_chrf_and_ter_carry_sacrebleus_signatures(tmp_path, capsys, level):
    """Each sacrebleu metric's figures come with sacrebleu's own signature of its settings
    (references, case, tokenizer, smoothing, effective order, version), the segment scores'
    (sentence BLEU: eff:yes) beside the corpus scores'. Before, "signatures" held ParaEval's
    only: the sacrebleu version and settings behind BLEU, chrF and TER were nowhere (chrF's
    scores changed with sacrebleu 2.0)."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    root = _wmt(tmp_path)
    _segments(root)
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf,ter,mup",
            "--resamples", "2", "--level", level]
    assert main([*argv, "--format", "json"]) == 0
    signatures = json.loads(capsys.readouterr().out)["signatures"]

    def sacrebleu_signature(metric: object) -> str:
        metric.corpus_score(["a b"], [["a b"]])  # type: ignore[attr-defined]
        return str(metric.get_signature())  # type: ignore[attr-defined]

    expected = {"chrf": sacrebleu_signature(CHRF()), "ter": sacrebleu_signature(TER())}
    if level != "segment":
        expected["bleu"] = sacrebleu_signature(BLEU())
    if level != "system":
        expected["bleu@segment"] = sacrebleu_signature(BLEU(effective_order=True))
    assert signatures == expected
    assert "|eff:no|" in expected.get("bleu", "|eff:no|") and "nrefs:1|" in expected["chrf"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert all(f"{name}: {sig}" in out for name, sig in expected.items())


def test_a_reference_set_the_pair_does_not_have_is_a_usage_error_listing_those_it_has(tmp_path, capsys):
    """--refs B for a pair with reference A only was "de-en: no reference 'B' (have ['A'])",
    exit 1, after the data had loaded (and its warnings were printed). It is a usage error
    before the data loads, naming the sets the pair has."""
    argv = ["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu",
            "--resamples", "2", "--refs", "A,B"]
    assert main(argv) == 2
    assert capsys.readouterr().err == ("paralign meta-eval: error: argument --refs: de-en has no "
                                       "reference set 'B': it has A\n")


def _bad_systems(root: Path, *names: str) -> None:
    """Human-scored systems whose output files cannot be read: Short (2 lines of the 3),
    Latin (a byte that is not UTF-8 on line 2)."""
    outs = root / "txt" / "system-outputs"
    files = {"Short": b"the cat\nprices\n", "Latin": b"the cat\ncaf\xe9 prices\nthe dog\n"}
    with open(root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv", "a", encoding="utf-8") as handle:
        for name in names:
            (outs / f"newstest2021.de-en.hyp.{name}.en").write_bytes(files[name])
            handle.write(f"40.0 -0.2 3 3 x{name} {name}\n")


def test_a_system_file_that_cannot_be_read_is_left_out_not_the_run(tmp_path, capsys):
    """A batch never loses the other items' results for one bad item: one system output of
    another length or with a byte that is not UTF-8 stopped meta-eval (exit 1), no figure at
    all. It is left out with a warning naming the file (and line), listed under
    skipped_systems in JSON and in the text, and the others are correlated."""
    root = _wmt(tmp_path)
    _bad_systems(root, "Short", "Latin")
    outs = root / "txt" / "system-outputs"
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf", "--resamples", "20"]
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert sorted(result["systems"]) == ["Bad", "Good", "Mid"]
    assert sorted(result["metrics"]["bleu"]["scores"]) == ["Bad", "Good", "Mid"]
    assert result["metrics"]["bleu"]["pearson"]["value"] is not None
    assert result["skipped_systems"] == [
        {"system": "Latin", "file": str(outs / "newstest2021.de-en.hyp.Latin.en"), "line": 2,
         "reason": result["skipped_systems"][0]["reason"]},
        {"system": "Short", "file": str(outs / "newstest2021.de-en.hyp.Short.en"), "line": None,
         "reason": "2 lines, expected 3"}]
    assert f"{outs / 'newstest2021.de-en.hyp.Latin.en'}:2: " in err
    assert f"{outs / 'newstest2021.de-en.hyp.Short.en'}: 2 lines, expected 3" in err and "'Short'" in err
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "left out, cannot be read: Latin (" in text and "Short (" in text and "2 lines, expected 3" in text


def test_fewer_than_3_systems_left_give_null_correlations_with_the_reason(tmp_path, capsys):
    """With bad system files left out, 2 systems remained: bootstrap_correlations raised
    'need at least 3 systems' and the run stopped. Each system-level correlation is null, with
    the reason in JSON, in the text and on stderr; the scores and the segment level are given."""
    root = _wmt(tmp_path)
    _bad_systems(root, "Short")
    (root / "txt" / "system-outputs" / "newstest2021.de-en.hyp.Mid.en").write_bytes(b"\xff\n\n\n")
    _segments(root)
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf", "--resamples", "20",
            "--level", "both"]
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    bleu = result["metrics"]["bleu"]
    assert sorted(bleu["scores"]) == ["Bad", "Good"]
    for kind in ("pearson", "spearman", "kendall"):
        assert bleu[kind] == {"value": None, "low": None, "high": None}
    assert bleu["reason"] == "fewer than 3 systems to correlate (got 2): over 2 a correlation is +1 or -1 " \
                             "whatever the scores"
    assert bleu["vs"]["chrf"]["pearson"]["p_value"] is None
    assert "segment" in result and [s["system"] for s in result["skipped_systems"]] == ["Mid", "Short"]
    assert "de-en: no system-level correlation (n/a): fewer than 3 systems to correlate (got 2)" in err
    assert main(argv) == 0
    assert "system level n/a: fewer than 3 systems to correlate (got 2)" in capsys.readouterr().out


def test_every_system_file_bad_is_an_error(tmp_path, capsys):
    """Nothing left to correlate: exit 1 saying so, each file reported. (Outputs all of one length
    that is not the reference's are one error naming the reference instead: errors.odd_reference.)"""
    root = _wmt(tmp_path)
    for name, text in (("Good", b"x\n"), ("Mid", b"x\ny\n"), ("Bad", b"x\n\xff\nz\n")):
        (root / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en").write_bytes(text)
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5"]) == 1
    err = capsys.readouterr().err
    assert "1 line, expected 3" in err and "2 lines, expected 3" in err and "hyp.Bad.en:2: not UTF-8" in err
    assert "none of the 3 systems with human scores could be read" in err


def test_a_reference_shorter_than_every_system_is_the_error_not_each_system(tmp_path, capsys):
    """A reference cut short left each system out ("3 lines, expected 2", three warnings) and
    ended with "none of the 3 systems with human scores could be read": now one error names the
    reference, exit 1 (a data error), and no system is blamed."""
    root = _wmt(tmp_path)
    ref = root / "txt" / "references" / "newstest2021.de-en.ref.A.en"
    ref.write_text("the cat sat on the mat\nprices went up sharply\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5"]) == 1
    err = capsys.readouterr().err
    assert err.endswith(f"paralign meta-eval: error: {ref}: 2 lines, but each of the 3 system outputs has 3: "
                        "the reference and the outputs are not of one test set, or one side is cut short\n")
    assert "expected 2" not in err and "could be read" not in err


def test_segment_scores_of_no_system_scored_is_a_data_error_naming_the_file(tmp_path, capsys):
    """Segment DA of none of the systems scored (here only HUMAN's) was exit 2, a usage error, with
    'segment level needs the segment DA (load_wmt(..., segments=True))': a Python call, no file."""
    root = _wmt(tmp_path)
    _segments(root)
    scores = root / "humaneval" / "ad-seg-scores-de-en.csv"
    scores.write_text("SYS SID RAW.SCR Z.SCR N\nHUMAN.0 1 90 0.9 2\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu",
                 "--level", "segment", "--resamples", "20"]) == 1
    err = capsys.readouterr().err
    assert f"error: {scores}: no segment scores of the 3 systems scored (SYS b, g, m)\n" in err
    assert "load_wmt" not in err


def test_counts_of_one_are_singular_in_text_and_report(tmp_path, capsys, report_page):
    """One DARR pair read '1 DARR pairs' in the text and the report, and a system file of one line
    '1 lines, expected 3'."""
    root = _wmt(tmp_path)
    _segments(root)
    (root / "humaneval" / "ad-seg-scores-de-en.csv").write_text(
        "SYS SID RAW.SCR Z.SCR N\ng 1 90 1 1\nm 1 20 -1 1\n", encoding="utf-8")
    (root / "txt" / "system-outputs" / "newstest2021.de-en.hyp.Bad.en").write_text("one line\n", encoding="utf-8")
    report = tmp_path / "one.html"
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--level", "segment",
                 "--resamples", "20", "--report", str(report)]) == 0
    captured = capsys.readouterr()
    summary = "segment level: 2 judged segments, 1 DARR pair (0 of identical outputs); darr_tau counts"
    assert summary in captured.out
    assert "hyp.Bad.en: 1 line, expected 3" in captured.err and "1 lines" not in captured.out + captured.err
    page = report_page(report.read_text(encoding="utf-8"))
    assert "2 judged segments, 1 DARR pair (0 of identical outputs)" in page.text


@pytest.mark.parametrize("level", ["system", "segment"])
def test_no_system_with_both_an_output_and_a_human_score_is_an_error(tmp_path, capsys, level):
    """Human scores whose names match no output file (here in lower case) left nothing to correlate,
    yet the system level ran to exit 0 with a table of n/a ('0 systems'), and the segment level
    stopped with exit 2 saying 'segment level needs the segment DA (load_wmt(..., segments=True))'.
    Both are exit 1 saying that no system has both, each left-out system reported above it."""
    root = _wmt(tmp_path)
    _segments(root)
    ranking = root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv"
    ranking.write_text("80.0 0.5 3 3 g good\n60.0 0.1 3 3 m mid\n20.0 -0.6 3 3 b bad\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                 "--level", level]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith("error: de-en: no system has both an output file and a human score (3 systems "
                                 "scored have no output, 4 outputs no score; each reported above): the names "
                                 f"of {ranking.name} (its last field) must be those of the output files\n")
    assert "'good' has human scores but no output file" in captured.err


def test_segment_correlations_over_fewer_than_3_judged_segments_are_null_with_the_reason(tmp_path, capsys,
                                                                                      report_page):
    """Two judged segments gave 'pearson 1.000 [1.000, 1.000]' (so Kendall): +1 or -1 whatever the
    scores. They are null (n/a) with the reason in JSON, a warning and a text line, as the
    system level's are."""
    root = _wmt(tmp_path)
    _segments(root)
    (root / "humaneval" / "ad-seg-scores-de-en.csv").write_text(
        "SYS SID RAW.SCR Z.SCR N\ng 1 90 1 1\nm 1 20 -1 1\n", encoding="utf-8")
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--level", "segment",
            "--resamples", "20"]
    assert main([*argv, "--format", "json"]) == 0
    captured = capsys.readouterr()
    bleu = json.loads(captured.out)["segment"]["bleu"]
    reason = "fewer than 3 judged segments to correlate (got 2): over 2 a correlation is +1 or -1 whatever the scores"
    assert bleu["pearson"]["value"] is None and bleu["kendall"]["high"] is None and bleu["reason"] == reason
    assert bleu["darr_tau"]["value"] == 1.0
    assert f"de-en: no segment-level Pearson or Kendall (n/a): {reason}" in captured.err
    report = tmp_path / "two.html"
    assert main([*argv, "--report", str(report)]) == 0
    assert f"segment level n/a (pearson, kendall): {reason}" in capsys.readouterr().out
    assert f"segment level n/a (pearson, kendall): {reason}" in report_page(report.read_text(encoding="utf-8")).text


def test_references_of_one_segment_are_a_data_error_naming_the_file(tmp_path, capsys):
    """A pair of one segment stopped with exit 2, a usage error, saying 'need at least 2 segments
    to resample, got 1' and naming no file, though no option could help: the references are
    too short to resample. It is a data error (exit 1) naming the reference file."""
    root = _wmt(tmp_path)
    for folder in ("references", "system-outputs"):
        for path in (root / "txt" / folder).iterdir():
            path.write_text(path.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5"]) == 1
    err = capsys.readouterr().err
    ref = root / "txt" / "references" / "newstest2021.de-en.ref.A.en"
    assert err.endswith(f"error: {ref}: 1 segment: the bootstrap over segments needs at least 2\n")


def test_a_reference_set_not_asked_for_is_not_read(tmp_path, capsys):
    """--refs A read every reference set of the pair: a ref B with a byte that is not UTF-8 (or of
    another length) stopped a run that never uses it. Only the sets --refs names are read; a bad
    one of those still stops the run, naming its file and line."""
    root = _wmt(tmp_path)
    ref_b = root / "txt" / "references" / "newstest2021.de-en.ref.B.en"
    ref_b.write_bytes(b"the cat\ncaf\xe9\nthe dog\n")
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
            "--format", "json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["refs"] == ["A"]
    assert main([*argv, "--refs", "A,B"]) == 1
    assert f"{ref_b}:2: " in capsys.readouterr().err


def test_a_metric_scoring_every_system_alike_is_null_with_the_reason(tmp_path, capsys):
    """References with no word give every system BLEU 0: its correlations were n/a with no word
    why (no reason in JSON, no warning), where too few systems or an undefined score say it."""
    root = _wmt(tmp_path)
    (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").write_text("\n\n\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf", "--resamples", "5",
                 "--format", "json"]) == 0
    captured = capsys.readouterr()
    bleu = json.loads(captured.out)["metrics"]["bleu"]
    reason = "the bleu score of every system is 0.0: a correlation with a constant is undefined"
    assert bleu["reason"] == reason and bleu["pearson"] == {"value": None, "low": None, "high": None}
    assert f"de-en: no system-level correlation (n/a): {reason}" in captured.err


def test_segment_scores_all_alike_are_null_with_the_reason(tmp_path, capsys):
    """Every judged segment with sentence BLEU 0 (references with no word) gave Pearson and Kendall
    n/a at segment level with no word why."""
    root = _wmt(tmp_path)
    _segments(root)
    (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").write_text("\n\n\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                 "--level", "segment", "--format", "json"]) == 0
    captured = capsys.readouterr()
    bleu = json.loads(captured.out)["segment"]["bleu"]
    reason = "the bleu score of every judged segment is 0.0: a correlation with a constant is undefined"
    assert bleu["reason"] == reason and bleu["kendall"]["value"] is None
    assert f"de-en: no segment-level Pearson or Kendall (n/a): {reason}" in captured.err


def test_a_system_with_no_segment_scores_is_named_at_segment_level(tmp_path, capsys, report_page):
    """A system whose SYS_ID has no row in ad-seg-scores (another id there, as COMET's 'Nemo' is
    NVIDIA-NeMo) was silently absent from the segment level, which still said '3 systems'. It
    is named: a warning, 'unjudged' in JSON, a line in the text and the report."""
    root = _wmt(tmp_path)
    _segments(root)
    scores = root / "humaneval" / "ad-seg-scores-de-en.csv"
    scores.write_text(scores.read_text(encoding="utf-8").replace("\nb ", "\nbad.9 "), encoding="utf-8")
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
            "--level", "both"]
    assert main([*argv, "--format", "json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["unjudged"] == ["Bad"] and result["segment"]["bleu"]["judged"] == 6
    assert (f"de-en: system 'Bad' has no segment scores in {scores} (SYS_ID 'b'): left out of the segment "
            "level") in captured.err
    report = tmp_path / "unjudged.html"
    assert main([*argv, "--report", str(report)]) == 0
    assert "left out at segment level, no segment scores: Bad" in capsys.readouterr().out
    assert "left out at segment level, no segment scores: Bad" in report_page(report.read_text(encoding="utf-8")).text
    assert main([*argv[:-1], "system", "--format", "json"]) == 0
    assert "unjudged" not in json.loads(capsys.readouterr().out)


def test_one_unreadable_system_is_named_in_the_singular():
    """'none of the 1 system with human scores could be read' (the metaaudit's note) reads as
    the one system it is."""
    from types import SimpleNamespace

    from paralign.cli.meta_eval import _nothing_to_correlate

    one = SimpleNamespace(pair="de-en", skipped=["Good"], missing=[], unscored=[])
    assert _nothing_to_correlate(one) == "de-en: the one system with human scores could not be read (reported above)"
    two = SimpleNamespace(pair="de-en", skipped=["Good", "Mid"], missing=[], unscored=[])
    assert "none of the 2 systems with human scores could be read" in _nothing_to_correlate(two)


def _own_scores(root: Path, path: Path, skip: str | None = None) -> dict[str, list[float]]:
    """A file of a metric's own segment scores (system, segment, score): sentence BLEU of each
    line of Good, Mid and Bad (`skip`: a system left out), as `bleu`'s segment level scores them."""
    from paralign.metrics.bleu_steps import baseline

    bleu = baseline("bleu")
    ref = (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8").splitlines()
    scores: dict[str, list[float]] = {}
    rows = ["system\tsegment\tscore"]
    for name in ("Good", "Mid", "Bad", "HUMAN"):
        hyps = (ref if name == "HUMAN" else
                (root / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en").read_text(
                    encoding="utf-8").splitlines())
        scores[name] = [float(v) for v in bleu.segment_score(bleu.stats(hyps, [ref]))]
        if name != skip:
            rows += [f"{name}\t{k}\t{v!r}" for k, v in enumerate(scores[name], 1)]
    path.write_text("\n".join(rows[:1] + rows[:0:-1]) + "\n", encoding="utf-8")  # any order of rows
    return scores


def test_a_metrics_own_scores_file_is_meta_evaluated_as_a_built_in_metric(tmp_path, capsys):
    """--scores NAME=FILE: a metric's own segment scores (a user's metric) get the same tables
    as a built-in one: at segment level its scores as given, at system level each system's mean,
    bootstrapped over the same resampled segments, paired-tested against bleu and chrf. Given
    sentence BLEU, its segment figures are bleu's. Before, meta-eval took only its own metrics."""
    from scipy import stats as sps

    root = _wmt(tmp_path)
    _segments(root)
    scores = _own_scores(root, tmp_path / "mine.tsv")
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf", "--resamples", "20",
            "--level", "both", "--scores", f"mine={tmp_path / 'mine.tsv'}"]
    assert main([*argv, "--format", "json"]) == 0, capsys.readouterr().err
    result = json.loads(capsys.readouterr().out)
    mine = result["metrics"]["mine"]
    means = {name: sum(values) / len(values) for name, values in scores.items() if name != "HUMAN"}
    assert mine["scores"] == {name: round(v, 6) for name, v in means.items()}
    z = {"Good": 0.5, "Mid": 0.1, "Bad": -0.6}
    assert mine["pearson"]["value"] == round(sps.pearsonr([means[s] for s in z], list(z.values()))[0], 4)
    assert set(mine["vs"]) == {"bleu", "chrf"}
    assert result["segment"]["mine"] == result["segment"]["bleu"]
    assert result["signatures"]["mine"].startswith("scores:mine.tsv#")
    assert main(argv) == 0
    assert any(line.startswith("mine ") for line in capsys.readouterr().out.splitlines())


def test_a_scores_file_that_cannot_be_used_is_an_error_naming_it(tmp_path, capsys):
    root = _wmt(tmp_path)
    mine = tmp_path / "mine.tsv"
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "20"]
    _own_scores(root, mine, skip="Bad")
    assert main([*base, "--scores", str(mine)]) == 1
    assert f"{mine}: no scores for system 'Bad' (the file scores 3 systems: Good, HUMAN, Mid)" in capsys.readouterr().err
    mine.write_text("Good\t1\t0.5\nGood\t2\tmuch\n", encoding="utf-8")
    assert main([*base, "--scores", str(mine)]) == 1
    assert f"{mine}:2: " in capsys.readouterr().err
    mine.write_text("Good\t1\t0.5\nGood\t2\t0.5\nGood\t4\t0.5\nMid\t1\t1\nMid\t2\t1\nMid\t3\t1\n"
                    "Bad\t1\t0\nBad\t2\t0\nBad\t3\t0\n", encoding="utf-8")
    assert main([*base, "--scores", str(mine)]) == 1
    assert f"{mine}:3: segment 4 of system 'Good' is past the last line (3)" in capsys.readouterr().err
    # docs/CLI.md, Empty input: an evaluator's, exit 1; the message lists what --scores takes (a
    # header system<TAB>score alone was "expected 3 TAB-separated fields" at line 1)
    for empty in ("", "system\tsegment\tscore\n\n", "system\tscore\n"):
        mine.write_text(empty, encoding="utf-8")
        assert main([*base, "--scores", str(mine)]) == 1
        err = capsys.readouterr().err
        assert f"{mine}: no scores: expected system<TAB>segment<TAB>score lines (segment scores), SYSNAME SCORE " in err
        assert "or a WMT metrics-task submission file" in err
    assert main([*base, "--scores", f"bleu={mine}"]) == 2
    assert "argument --scores: the name 'bleu' is a built-in metric's" in capsys.readouterr().err


@pytest.mark.parametrize(("spec", "message"), [
    ("a+b={file}", "the name 'a+b' holds '+', "),
    ("x|y:z={file}", "the name 'x|y:z' holds '|', ':', "),
    ("{stem}", "the name 'my#metric' holds '#', "),
])
def test_a_scores_name_holding_a_separator_of_the_signature_is_a_usage_error(tmp_path, capsys, spec, message):
    """``--scores a+b=FILE`` signed ``scores:a+b#HASH``: one metric a+b, or two? (and ``|`` or ``:``
    broke the signature's parts, ``#`` the name from its hash.) Before, exit 0 with that
    signature; now a usage error naming the marks, before any file is read."""
    root = _wmt(tmp_path)
    file, stem = tmp_path / "absent.tsv", tmp_path / "my#metric.tsv"
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                 "--scores", spec.format(file=file, stem=stem)]) == 2
    err = capsys.readouterr().err
    assert f"argument --scores: {message}which the meta-evaluation's signature separates its parts with" in err
    assert "name the file's metric another way (NAME=FILE)" in err


def test_a_scores_file_whose_path_holds_an_equals_sign_is_that_file(tmp_path, capsys):
    """``--scores runs/lr=3/mine.tsv`` was split at its '=' into the name 'runs/lr' and the file
    '3/mine.tsv' (no such file). A spec that names an existing file whole is that file, named by
    its stem, as a spec without '=' is; NAME=FILE still names it."""
    root = _wmt(tmp_path)
    folder = tmp_path / "lr=3"
    folder.mkdir()
    _own_scores(root, folder / "mine.tsv")
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
            "--format", "json"]
    assert main([*base, "--scores", str(folder / "mine.tsv")]) == 0, capsys.readouterr().err
    assert "mine" in json.loads(capsys.readouterr().out)["metrics"]
    assert main([*base, "--scores", f"own={folder / 'mine.tsv'}"]) == 0, capsys.readouterr().err
    assert "own" in json.loads(capsys.readouterr().out)["metrics"]


def test_a_long_metric_name_widens_the_text_tables_first_column(tmp_path, capsys):
    """A --scores name longer than the metric column (12) ran into the figures
    ("my_fancy_metric_v20.393 [0.304, 0.450]"): the column is as wide as the longest name
    needs, in every table, so each figure stands under its heading."""
    root = _wmt(tmp_path)
    _segments(root)
    _own_scores(root, tmp_path / "mine.tsv")
    name = "my_fancy_metric_v2_long"
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "20",
                 "--level", "both", "--scores", f"{name}={tmp_path / 'mine.tsv'}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for heading in (k for k, line in enumerate(lines) if line.startswith("metric ")):
        first = lines[heading].split()[1]  # the first figure's heading (pearson, baseline, darr_tau)
        column = lines[heading].index(first)
        rows = []
        for line in lines[heading + 1:]:
            if not line.startswith((f"{name} ", "bleu ")):
                break
            rows.append(line)
        assert rows and all(row[column - 1] == " " and row[column] != " " for row in rows), lines


def test_a_scores_file_from_stdin_gives_what_the_file_gives(tmp_path, capsys, monkeypatch):
    """--scores NAME=- reads stdin, as every input may be (before: '-: no such file'), and its
    signature, a hash of the sorted rows, is the file's: the same scores in another order, with
    CRLF line ends, hash alike."""
    import io

    root = _wmt(tmp_path)
    _own_scores(root, tmp_path / "mine.tsv")
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "20",
            "--format", "json"]
    assert main([*base, "--scores", f"mine={tmp_path / 'mine.tsv'}"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    lines = (tmp_path / "mine.tsv").read_text(encoding="utf-8").splitlines()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(("\r\n".join(lines[:1] + lines[:0:-1]) + "\r\n")
                                                                   .encode("utf-8"))))
    assert main([*base, "--scores", "mine=-"]) == 0
    from_stdin = json.loads(capsys.readouterr().out)
    assert from_stdin["metrics"]["mine"] == from_file["metrics"]["mine"]
    assert from_stdin["signatures"]["mine"].split("#")[1] == from_file["signatures"]["mine"].split("#")[1]


def test_the_meta_evaluation_signature_names_each_scores_file_by_its_hash(tmp_path, capsys):
    """Two runs with other --scores files printed the same meta-evaluation signature (only the
    metric's own, in "signatures", named its file). Now its ``scores`` part is NAME#HASH of each
    such metric (the hash of its sorted rows: the same scores in another order sign alike), at
    every level; a run without --scores has none."""
    from paralign.signature import signature_parts

    root = _wmt(tmp_path)
    _segments(root)
    _own_scores(root, tmp_path / "mine.tsv")
    lines = (tmp_path / "mine.tsv").read_text(encoding="utf-8").splitlines()
    (tmp_path / "reordered.tsv").write_text("\n".join(lines[:1] + sorted(lines[1:])) + "\n", encoding="utf-8")
    (tmp_path / "other.tsv").write_text("\n".join([*lines[:-1], lines[-1].rpartition("\t")[0] + "\t0.125"]) + "\n",
                                        encoding="utf-8")
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
            "--format", "json"]
    signatures = {}
    for level in ("system", "both"):
        for file in ("mine", "reordered", "other"):
            assert main([*base, "--level", level, "--scores", f"mine={tmp_path / file}.tsv"]) == 0
            signatures[level, file] = signature_parts(json.loads(capsys.readouterr().out)["signature"])
        mine, reordered, other = (signatures[level, f] for f in ("mine", "reordered", "other"))
        assert list(mine) == ["pair", "refs", "level", "human", "text", "scores", "bs", "seed", "version"]
        assert mine["scores"].startswith("mine#") and len(mine["scores"]) == len("mine#") + 8
        assert reordered == mine
        assert other == {**mine, "scores": other["scores"]} and other["scores"] != mine["scores"]
    assert main([*base, "--scores", f"b={tmp_path / 'other.tsv'}", "--scores", f"a={tmp_path / 'mine.tsv'}"]) == 0
    two = signature_parts(json.loads(capsys.readouterr().out)["signature"])["scores"]
    assert two == f"a#{signatures['system', 'mine']['scores'][5:]}+b#{signatures['system', 'other']['scores'][5:]}"
    assert main(base) == 0
    assert "scores" not in signature_parts(json.loads(capsys.readouterr().out)["signature"])


def test_a_meta_evaluation_has_a_signature_of_its_own_in_json_text_and_report(tmp_path, capsys, report_page):
    """--refs A and --refs B gave one "signatures" (each metric's: nrefs:1), and nothing named the
    pair, level, human scores, resamples or seed: a figure could not be traced to them. Now
    "signature" (JSON; text: the last line; the report: under its title) holds them; the metrics'
    signatures are as they were."""
    from paralign.signature import signature_parts

    root = _wmt(tmp_path)
    _segments(root)
    (root / "txt" / "references" / "newstest2021.de-en.ref.B.en").write_text(
        "the cat sat on a mat\nprices rose sharply\nthe dog went home\n", encoding="utf-8")
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf", "--resamples", "20"]
    results = {}
    for refs in ("A", "B"):
        assert main([*argv, "--refs", refs, "--format", "json"]) == 0
        results[refs] = json.loads(capsys.readouterr().out)
    assert results["A"]["signatures"] == results["B"]["signatures"]  # the metrics' own: nrefs:1 both
    parts = signature_parts(results["A"]["signature"])
    assert list(parts) == ["pair", "refs", "level", "human", "text", "bs", "seed", "version"]
    assert parts["pair"] == "de-en" and parts["level"] == "system" and parts["human"].startswith("da#")
    assert (parts["bs"], parts["seed"]) == ("20", "12345")
    other = signature_parts(results["B"]["signature"])  # reference B's text: another text hash
    assert other == {**parts, "refs": "B", "text": other["text"]} and other["text"] != parts["text"]
    report = tmp_path / "meta.html"
    assert main([*argv, "--refs", "A,B", "--level", "both", "--seed", "3", "--format", "json",
                 "--report", str(report)]) == 0
    both = json.loads(capsys.readouterr().out)["signature"]
    assert signature_parts(both)["refs"] == "A+B" and signature_parts(both)["level"] == "both"
    assert signature_parts(both)["seed"] == "3" and signature_parts(both)["human"] != parts["human"]
    page = report_page(report.read_text(encoding="utf-8"))
    body = page.root.find("body")
    assert [child.tag for child in body][:2] == ["h1", "p"] and "".join(body[1].itertext()) == f"signature: {both}"
    assert main([*argv, "--refs", "A,B", "--level", "both", "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"signature: {both}"


def test_wmt21_reference_sets_sign_apart(data, capsys):
    """On the WMT21 data (cs-en), --refs A and --refs B: the same metric signatures, other
    meta-evaluation signatures (refs:A, refs:B), the same human scores."""
    from paralign.signature import signature_parts

    if not (data / "mt" / "wmt21-toEnglish" / "humaneval").is_dir():
        pytest.skip(f"WMT21 data not found under {data} (PARALIGN_DATA): mt/wmt21-toEnglish")
    results = []
    for refs in ("A", "B"):
        assert main(["meta-eval", "--wmt", str(data / "mt" / "wmt21-toEnglish"), "--pair", "cs-en", "--refs", refs,
                     "--metrics", "chrf", "--resamples", "2", "--format", "json"]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0]["signatures"] == results[1]["signatures"]
    a, b = (signature_parts(r["signature"]) for r in results)
    assert (a["refs"], b["refs"]) == ("A", "B") and a["human"] == b["human"] and a["pair"] == "cs-en"
    assert a["text"] != b["text"]  # two reference sets, two texts


def test_other_text_under_the_same_names_signs_apart(tmp_path, capsys):
    """The signature named the reference sets and systems without their text: a --wmt folder with
    another output under a system's name (or another reference A) gave other figures under the
    same signature. Now its text part hashes the segments scored; a copy of the folder signs alike."""
    from paralign.signature import signature_parts

    argv = ["--pair", "de-en", "--metrics", "chrf", "--resamples", "5", "--format", "json"]
    first, copy, changed = _wmt(tmp_path / "a"), _wmt(tmp_path / "b"), _wmt(tmp_path / "c")
    (changed / "txt" / "system-outputs" / "newstest2021.de-en.hyp.Mid.en").write_text(
        "the cat sat on a mat\nprices rose sharply\na dog went home\n", encoding="utf-8")
    results = []
    for root in (first, copy, changed):
        assert main(["meta-eval", "--wmt", str(root), *argv]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0]["signature"] == results[1]["signature"]
    assert results[0]["metrics"] != results[2]["metrics"]  # other figures ...
    parts, other = (signature_parts(r["signature"]) for r in (results[0], results[2]))
    assert other == {**parts, "text": other["text"]} and other["text"] != parts["text"]  # ... signed apart


def test_sacrebleus_spellings_of_the_bootstrap_options_are_meta_evals_hidden_from_help(tmp_path, capsys):
    """sacrebleu's users type --paired-bs-n N, --confidence-n N, --paired-bs and --confidence (and
    -pbsn, -cin, -pbs, -ci): each was "unrecognized arguments". meta-eval's intervals and paired
    tests share its --resamples: either count is --resamples N; --paired-bs and --confidence ask
    for what it always gives, and change nothing. None is in --help."""
    base = ["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu,chrf", "--format", "json"]
    assert main([*base, "--resamples", "7"]) == 0
    seven = capsys.readouterr().out
    assert main([*base, "--resamples", "9"]) == 0
    assert capsys.readouterr().out != seven
    for spelled in (["--paired-bs-n", "7"], ["-pbsn", "7"], ["--confidence-n", "7"], ["-cin", "7"],
                    ["--paired-bs", "--confidence", "-pbs", "-ci", "--paired-bs-n", "7"],
                    ["--confidence-n", "7", "--paired-bs-n", "7", "--resamples", "7"]):
        assert main([*base, *spelled]) == 0, capsys.readouterr().err
        assert capsys.readouterr().out == seven, spelled
    assert main([*base, "--paired-bs"]) == 0  # the default count, 1000, as without it
    assert json.loads(capsys.readouterr().out)["resamples"] == 1000
    with pytest.raises(SystemExit):
        main(["meta-eval", "--help"])
    shown = capsys.readouterr().out
    hidden = ("-ci", "-pbs", "-cin", "-pbsn", "--confidence", "--paired-bs", "--paired-ar", "-par", "--sentence-level",
              "-sl")
    assert not [flag for flag in hidden if f"{flag} " in shown or f"{flag}," in shown or f"[{flag}" in shown]


@pytest.mark.parametrize(("given", "message"), [
    (["--resamples", "1000", "--paired-bs-n", "20"], "--resamples 1000 and --paired-bs-n 20: each sets paralign's "
                                                     "one number of resamples (of its intervals and paired tests "
                                                     "alike): give one, --resamples N"),
    (["-cin", "20", "-pbsn", "30"], "--confidence-n 20 and --paired-bs-n 30: each sets"),
    (["-sl"], "argument --sentence-level/-sl: sacrebleu's option is not paralign's: sacrebleu's prints each "
              "segment's score; meta-eval correlates the segment scores with the segment judgments with --level "
              "segment (or both)"),
    (["--paired-ar"], "paralign has no approximate randomization test: its paired test is the bootstrap, always "
                      "run (--resamples N)"),
    (["-parn", "100"], "argument --paired-ar-n/-parn: sacrebleu's option is not paralign's"),
])
def test_a_sacrebleu_spelling_of_another_meaning_is_a_usage_error_naming_meta_evals_option(tmp_path, capsys, given,
                                                                                          message):
    """Where sacrebleu's option means something else (no AR test; --sentence-level prints segment
    scores) or two counts differ (one would be silently dropped: sacrebleu counts the intervals'
    and the paired test's resamples apart, meta-eval has one bootstrap), a usage error naming
    meta-eval's option, before the data loads."""
    assert main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu", *given]) == 2
    assert message in capsys.readouterr().err


def test_a_metrics_own_system_scores_are_correlated_as_given_without_an_interval(tmp_path, capsys, report_page):
    """--scores of system<TAB>score lines (as WMT21's scores/COMET files and mt-metrics-eval's
    *.sys.score ship a metric's system scores): before, a data error ("expected 3 fields"), so a
    metric with system scores only could not be meta-evaluated. Now its correlations are those of
    the given scores; the bootstrap over segments cannot recompute a given system score, so it has
    no interval and no paired test (null, with interval_reason; a line in text and report); it is
    left out of the segment level, said in text; signed system:given; --level segment is a usage
    error."""
    from scipy import stats as sps

    root = _wmt(tmp_path)
    _segments(root)
    mine = tmp_path / "mine.sys.score"
    given = {"Good": 0.9, "Mid": 0.2, "Bad": 0.4, "HUMAN": 1.0}  # HUMAN: not correlated, ignored
    mine.write_text("system\tscore\n" + "".join(f"{s}\t{v}\n" for s, v in given.items()), encoding="utf-8")
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu,chrf", "--resamples", "20",
            "--scores", f"mine={mine}"]
    assert main([*base, "--level", "both", "--format", "json"]) == 0, capsys.readouterr().err
    result = json.loads(capsys.readouterr().out)
    metric = result["metrics"]["mine"]
    z = {"Good": 0.5, "Mid": 0.1, "Bad": -0.6}
    assert metric["scores"] == {s: given[s] for s in ("Good", "Mid", "Bad")}
    for kind, fn in (("pearson", sps.pearsonr), ("spearman", sps.spearmanr), ("kendall", sps.kendalltau)):
        value = fn([given[s] for s in z], list(z.values()))[0]
        assert metric[kind] == {"value": round(value, 4), "low": None, "high": None}
    assert metric["interval_reason"].startswith("its system scores are given, with no segment scores to resample")
    assert "vs" not in metric and set(result["metrics"]["chrf"]["vs"]) == {"bleu"}
    assert set(result["segment"]) == {"bleu", "chrf"}
    assert result["signatures"]["mine"].startswith("scores:mine.sys.score#")
    assert result["signatures"]["mine"].endswith("|system:given")
    report = tmp_path / "meta.html"
    assert main([*base, "--level", "both", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "mine: its system scores are given, with no segment scores to resample: no interval" in out
    assert "segment level, left out: mine (system scores only)" in out
    assert "mine: its system scores are given" in report_page(report.read_text(encoding="utf-8")).text
    assert main([*base, "--level", "segment"]) == 2
    assert (f"--level segment: {mine} has system scores only, no segment level: give --level system or "
            "--level both") in capsys.readouterr().err


def test_a_system_scores_file_that_cannot_be_used_is_an_error_naming_it(tmp_path, capsys):
    root = _wmt(tmp_path)
    mine = tmp_path / "mine.tsv"
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "20",
            "--scores", str(mine)]
    mine.write_text("Good\t1\nMid\t2\n", encoding="utf-8")
    assert main(base) == 1
    assert f"{mine}: no scores for system 'Bad' (the file scores 2 systems: Good, Mid)" in capsys.readouterr().err
    mine.write_text("Good\t1\nMid\t2\nBad\t1\t0.5\n", encoding="utf-8")
    assert main(base) == 1
    assert f"{mine}:3: expected 2 fields (system, score) as in a file of system scores" in capsys.readouterr().err
    mine.write_text("Good\t1\nMid\t2\nGood\t3\n", encoding="utf-8")
    assert main(base) == 1
    assert f"{mine}:3: system 'Good' has 2 lines, 1 other system has 1: " in capsys.readouterr().err


def _read_as_the_tsv(tmp_path: Path, root: Path, other: str, capsys) -> list[str]:
    """Assert that --scores `other` (beside mine.tsv, `_own_scores`) gives mine.tsv's figures at both
    levels, meta-evaluation signature and hash; the meta-eval arguments (JSON, both levels) returned."""
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "20",
            "--level", "both", "--format", "json"]
    results = {}
    for file in ("mine.tsv", other):
        assert main([*base, "--scores", f"mine={tmp_path / file}"]) == 0, capsys.readouterr().err
        results[file] = json.loads(capsys.readouterr().out)
    tsv, got = results["mine.tsv"], results[other]
    assert got["metrics"]["mine"] == tsv["metrics"]["mine"] and got["segment"]["mine"] == tsv["segment"]["mine"]
    assert got["signature"] == tsv["signature"]
    assert got["signatures"]["mine"].split("#")[1] == tsv["signatures"]["mine"].split("#")[1]
    return base


def test_mt_metrics_eval_score_files_are_meta_evaluated_as_the_same_scores_in_paraligns_layouts(tmp_path, capsys):
    """mt-metrics-eval's ``*.seg.score`` (``SYSNAME SCORE`` lines, a block a system, one line a
    segment in the test set's order) and ``*.sys.score`` (one line a system), blank-separated as
    its README allows: before, a ``*.seg.score`` was a data error (``system 'Good' given twice``,
    line 2) and a blank-separated file one of one field a line. Now a ``*.seg.score`` gives what
    the same scores as ``system<TAB>segment<TAB>score`` lines give (figures and hash), a
    ``*.sys.score`` what ``system<TAB>score`` lines give; a block of other length than the test
    set is an error naming the file (and the line past it)."""
    root = _wmt(tmp_path)
    _segments(root)
    scores = _own_scores(root, tmp_path / "mine.tsv")
    (tmp_path / "mine.seg.score").write_text(
        "".join(f"{name} {v!r}\n" for name, values in scores.items() for v in values), encoding="utf-8")
    base = _read_as_the_tsv(tmp_path, root, "mine.seg.score", capsys)
    results = {}
    given = {"Good": 0.9, "Mid": 0.2, "Bad": 0.4}
    (tmp_path / "mine.sys.score").write_text("".join(f"{s}   {v}\n" for s, v in given.items()), encoding="utf-8")
    (tmp_path / "mine_sys.tsv").write_text("".join(f"{s}\t{v}\n" for s, v in given.items()), encoding="utf-8")
    for file in ("mine.sys.score", "mine_sys.tsv"):
        assert main([*base[:-4], "--format", "json", "--scores", f"mine={tmp_path / file}"]) == 0
        results[file] = json.loads(capsys.readouterr().out)
    assert results["mine.sys.score"]["metrics"]["mine"] == results["mine_sys.tsv"]["metrics"]["mine"]
    assert results["mine.sys.score"]["metrics"]["mine"]["scores"] == given
    short = tmp_path / "short.seg.score"
    short.write_text("".join(f"{name} 0.5\n" for name in ("Bad", "Good", "Mid") for _ in range(2)), encoding="utf-8")
    assert main([*base, "--scores", str(short)]) == 1
    assert f"{short}: no score for segment 3 of system 'Bad' (2 of its 3 segments have one)" in capsys.readouterr().err
    short.write_text("".join(f"{name} 0.5\n" for name in ("Bad", "Good", "Mid") for _ in range(4)), encoding="utf-8")
    assert main([*base, "--scores", str(short)]) == 1
    assert f"{short}:4: segment 4 of system 'Bad' is past the last line (3)" in capsys.readouterr().err


def test_wmt21_comet_system_scores_are_meta_evaluated_beside_chrf(data, tmp_path, capsys):
    """WMT21's own COMET system scores of de-en (scores/COMET/de-en, system<TAB>score) as --scores:
    the file names NVIDIA-NeMo 'Nemo' (an error naming the file and the names it has); renamed, its
    correlations are scipy's over the 19 systems' given scores and z-scores, its ref-B row ignored."""
    from scipy import stats as sps

    from paralign.corpora.wmt import load_human_scores

    root = data / "mt" / "wmt21-toEnglish"
    if not (root / "scores" / "COMET" / "de-en").is_dir():
        pytest.skip(f"WMT21 COMET scores not found under {data} (PARALIGN_DATA): mt/wmt21-toEnglish/scores/COMET")
    original = root / "scores" / "COMET" / "de-en" / "COMET_newstest2021_ref-A.tsv"
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "chrf", "--resamples", "2",
            "--format", "json"]
    assert main([*base, "--scores", f"comet={original}"]) == 1
    assert ("no scores for system 'NVIDIA-NeMo' (the file scores 20 systems: Borderline, Facebook-AI, HuaweiTSC, "
            "ICL, Manifold, Nemo, Online-A, Online-B, Online-G, Online-W, ...); 1 name of the file is the SYS_ID (or "
            "one without its '.N') of a system in ad-sys-ranking-de-en-z-names.csv (its 5th field), where the outputs "
            "are named by NAME (its last): 'Nemo' is 'NVIDIA-NeMo' (SYS_ID 'Nemo.7'); name the file's rows by NAME"
            in capsys.readouterr().err)
    renamed = tmp_path / "comet.tsv"
    rows = [line.split("\t") for line in original.read_text(encoding="utf-8").splitlines()]
    renamed.write_text("".join(f"{'NVIDIA-NeMo' if s == 'Nemo' else s}\t{v}\n" for s, v in rows), encoding="utf-8")
    assert main([*base, "--scores", f"comet={renamed}"]) == 0
    result = json.loads(capsys.readouterr().out)
    comet = result["metrics"]["comet"]
    human = {s: h.z for s, h in load_human_scores(root, "de-en").items() if s in result["systems"]}
    given = {("NVIDIA-NeMo" if s == "Nemo" else s): float(v) for s, v in rows}
    assert len(human) == 19 and sorted(comet["scores"]) == sorted(human)
    assert comet["pearson"]["value"] == round(sps.pearsonr([given[s] for s in human], list(human.values()))[0], 4)
    assert comet["pearson"]["low"] is None and "vs" not in comet


def test_a_wmt_submission_file_gives_what_the_same_scores_give_in_paraligns_layout(tmp_path, capsys):
    """A WMT metrics-task submission file (``METRIC LP TESTSET [DOMAIN DOCUMENT] REF SYSTEM SEGMENT
    SCORE``, TAB-separated, the task page's layouts) with rows of other pairs: before, a data error
    (``expected 3 TAB-separated fields``); now its rows of --pair on newstest2021 give the figures
    and hash of the same scores as ``system<TAB>segment<TAB>score`` lines."""
    root = _wmt(tmp_path)
    _segments(root)
    scores = _own_scores(root, tmp_path / "mine.tsv")
    rows = [f"mine\tde-en\tnewstest2021\tnews\tdoc{k}\tref-A\t{name}\t{k}\t{v!r}\n"
            for name, values in scores.items() for k, v in enumerate(values, 1)]
    rows += [f"mine\tcs-en\tnewstest2021\tnews\tdoc1\tref-A\tGood\t{k}\t9\n" for k in (1, 2, 3, 4)]
    (tmp_path / "mine.seg.score").write_text("".join(rows), encoding="utf-8")
    base = _read_as_the_tsv(tmp_path, root, "mine.seg.score", capsys)
    (tmp_path / "other.seg.score").write_text("".join(rows[-4:]), encoding="utf-8")
    assert main([*base, "--scores", str(tmp_path / "other.seg.score")]) == 1
    assert "other.seg.score: no scores of de-en on newstest2021 (the file scores cs-en on newstest2021)" in capsys.readouterr().err


def test_a_pair_the_folder_lacks_is_a_usage_error_before_a_submission_file_is_read(tmp_path, capsys):
    """--pair typed wrong beside a submission file was the file's data error ('no scores of en-de
    on newstest2021', exit 1): its rows were read for --pair before --pair was checked. Now the
    pair is checked first: a usage error listing the folder's pairs (exit 2)."""
    root = _wmt(tmp_path)
    sub = tmp_path / "mine.sys.score"
    sub.write_text("m\tde-en\tnewstest2021\tref-A\tGood\t1\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "en-de", "--metrics", "bleu", "--scores", str(sub)]) == 2
    assert "argument --pair: no pair 'en-de' in " in capsys.readouterr().err


def test_wmt21_comet_system_scores_as_a_submission_file_are_read_as_the_tsv(data, tmp_path, capsys):
    """WMT21's COMET de-en system scores (Nemo renamed) written as submission rows of both layouts
    (6 fields; 7 with a domain, its per-domain rows beside ``all``), with cs-en's and ref-B's rows
    of other files around them in another file: the de-en ref-A rows give the TSV's figures."""
    root = data / "mt" / "wmt21-toEnglish"
    if not (root / "scores" / "COMET" / "de-en").is_dir():
        pytest.skip(f"WMT21 COMET scores not found under {data} (PARALIGN_DATA): mt/wmt21-toEnglish/scores/COMET")
    comet = root / "scores" / "COMET"
    rows = {lp: [line.split("\t") for line in (comet / lp / "COMET_newstest2021_ref-A.tsv").read_text(
        encoding="utf-8").splitlines()] for lp in ("de-en", "cs-en")}
    rows["de-en"] = [["NVIDIA-NeMo" if s == "Nemo" else s, v] for s, v in rows["de-en"]]
    (tmp_path / "comet.tsv").write_text("".join(f"{s}\t{v}\n" for s, v in rows["de-en"]), encoding="utf-8")
    six = [f"COMET\t{lp}\tnewstest2021\tref-A\t{s}\t{v}\n" for lp in ("cs-en", "de-en") for s, v in rows[lp]]
    seven = [f"COMET\t{lp}\tnewstest2021\t{domain}\tref-A\t{s}\t{v if domain == 'all' else 0}\n"
             for lp in ("de-en", "cs-en") for s, v in rows[lp] for domain in ("news", "all")]
    (tmp_path / "six.sys.score").write_text("".join(six), encoding="utf-8")
    (tmp_path / "seven.sys.score").write_text("".join(seven), encoding="utf-8")
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "chrf", "--resamples", "2",
            "--format", "json"]
    results = {}
    for file in ("comet.tsv", "six.sys.score", "seven.sys.score"):
        assert main([*base, "--scores", f"comet={tmp_path / file}"]) == 0, capsys.readouterr().err
        results[file] = json.loads(capsys.readouterr().out)
    want = results["comet.tsv"]
    assert len(want["metrics"]["comet"]["scores"]) == 19
    for file in ("six.sys.score", "seven.sys.score"):
        assert results[file]["metrics"] == want["metrics"] and results[file]["signature"] == want["signature"]


def test_scores_against_another_reference_than_refs_are_an_error_naming_the_file_line_and_both(tmp_path, capsys):
    """A submission file's rows against ref-B (or an mt-metrics-eval file named ``X-refB.sys.score``)
    beside --refs A (the default) were correlated as if against A, exit 0, under a signature
    saying refs:A. Now a data error naming the file, the row and both references, before the data
    loads; with --refs B the same file is meta-evaluated."""
    root = _wmt(tmp_path)
    ref = (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8")
    (root / "txt" / "references" / "newstest2021.de-en.ref.B.en").write_text(ref, encoding="utf-8")
    given = {"Good": 0.9, "Mid": 0.2, "Bad": 0.4}
    sub, named = tmp_path / "mine.sys.score", tmp_path / "mine-refB.sys.score"
    sub.write_text("".join(f"m\tde-en\tnewstest2021\tref-B\t{s}\t{v}\n" for s, v in given.items()), encoding="utf-8")
    named.write_text("".join(f"{s} {v}\n" for s, v in given.items()), encoding="utf-8")
    base = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5"]
    assert main([*base, "--scores", str(sub)]) == 1
    err = capsys.readouterr().err
    assert f"{sub}:1: scores against reference B (its REFERENCE field: 'ref-B'), but --refs A: the other " in err
    assert main([*base, "--scores", str(named)]) == 1
    assert f"{named}: scores against reference B (the file's name: 'refB'), but --refs A: " in capsys.readouterr().err
    for path in (sub, named):
        assert main([*base, "--refs", "B", "--format", "json", "--scores", f"m={path}"]) == 0, capsys.readouterr().err
        assert json.loads(capsys.readouterr().out)["metrics"]["m"]["scores"] == given


def test_a_scores_file_whose_name_holds_a_bar_is_a_usage_error(tmp_path, capsys):
    """``--scores m=run|1.tsv`` ran, exit 0, with the metric's signature ``scores:run|1.tsv#HASH|...``,
    read back as a part ``scores:run`` and a keyless ``1.tsv#HASH``. Now a usage error naming the
    file, before any is read (NAME= does not help: the signature names the file)."""
    root = _wmt(tmp_path)
    bar = tmp_path / "run|1.tsv"
    bar.write_text("Good\t0.9\nMid\t0.2\nBad\t0.4\n", encoding="utf-8")
    for spec in (f"m={bar}", str(bar)):
        assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                     "--scores", spec]) == 2
        err = capsys.readouterr().err
        assert f"argument --scores: {bar}: the file's name 'run|1.tsv' holds '|', which separates a signature's" in err
        assert "copy or link the file under another name" in err


def test_a_submission_file_against_several_references_is_read_for_refs(tmp_path, capsys):
    """A submission file of a metric's scores against ref-A and against ref-B (the task asks for
    each reference) was a data error at its first ref-B row whatever --refs said; now --refs A
    meta-evaluates its ref-A rows, --refs B its ref-B rows."""
    root = _wmt(tmp_path)
    ref = (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8")
    (root / "txt" / "references" / "newstest2021.de-en.ref.B.en").write_text(ref, encoding="utf-8")
    given = {"A": {"Good": 0.9, "Mid": 0.2, "Bad": 0.4}, "B": {"Good": 0.8, "Mid": 0.5, "Bad": 0.1}}
    sub = tmp_path / "mine.sys.score"
    sub.write_text("".join(f"m\tde-en\tnewstest2021\tref-{r}\t{s}\t{v}\n" for r, scores in given.items()
                           for s, v in scores.items()), encoding="utf-8")
    for refs, scores in given.items():
        assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                     "--refs", refs, "--format", "json", "--scores", f"m={sub}"]) == 0, capsys.readouterr().err
        assert json.loads(capsys.readouterr().out)["metrics"]["m"]["scores"] == scores


def test_mt_metrics_eval_document_scores_are_a_usage_error_naming_their_level(tmp_path, capsys):
    """A ``*.doc.score`` was refused as segment blocks cut short ('no score for segment 2 ...');
    now a usage error saying what it is and which files meta-eval correlates."""
    root = _wmt(tmp_path)
    doc = tmp_path / "mine-refA.doc.score"
    doc.write_text("".join(f"{s} 0.5\n" for s in ("Good", "Mid", "Bad")), encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--scores", str(doc)]) == 2
    assert (f"{doc}: mt-metrics-eval's document-level scores (*.doc.score): meta-eval correlates system scores "
            "(*.sys.score) and segment scores (*.seg.score)") in capsys.readouterr().err


def test_a_table_whose_name_holds_a_bar_is_a_usage_error(tmp_path, capsys):
    """``--table t|x.tsv`` was signed ``res:t|x.tsv#HASH`` (read back as ``res:t`` and a keyless
    part); now a usage error naming the option and the file before any data loads, as --scores."""
    table = tmp_path / "t|x.tsv"
    table.write_text("cat\tfeline\t0.5\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "paraeval",
                 "--resources", "none", "--resamples", "2", "--table", f"{table}:0.1"]) == 2
    assert f"argument --table: {table}: the file's name 't|x.tsv' holds '|'" in capsys.readouterr().err


def test_a_reference_label_holding_a_bar_or_a_plus_is_a_usage_error(tmp_path, capsys):
    """A reference file ``newstest2021.de-en.ref.A|x.en`` gave ``--refs 'A|x'``, signed ``refs:A|x``
    (read back as ``refs:A`` and a keyless ``x``), and ``ref.B+C.en`` signed ``refs:B+C``, as the
    sets B and C; now each is a usage error naming --refs before any data loads, in both formats."""
    root = _wmt(tmp_path)
    refs = root / "txt" / "references"
    for label in ("A|x", "B+C"):
        (refs / f"newstest2021.de-en.ref.{label}.en").write_bytes((refs / "newstest2021.de-en.ref.A.en").read_bytes())
    argv = ["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5"]
    for label, mark in (("A|x", "|"), ("B+C", "+")):
        for form in ("text", "json"):
            assert main([*argv, "--refs", label, "--format", form]) == 2
            captured = capsys.readouterr()
            assert f"argument --refs: {label!r} holds {mark!r}" in captured.err and not captured.out


def test_a_language_pair_holding_a_bar_is_a_usage_error(tmp_path, capsys):
    """Files named for a pair ``de|x-en`` gave ``--pair 'de|x-en'``, signed ``pair:de|x-en`` (read
    back as ``pair:de`` and a keyless ``x-en``); now a usage error naming --pair before any data loads."""
    root = _wmt(tmp_path)
    for sub in ("txt/references", "txt/system-outputs", "humaneval"):
        for path in list((root / sub).iterdir()):
            (root / sub / path.name.replace("de-en", "de|x-en")).write_bytes(path.read_bytes())
    for form in ("text", "json"):
        assert main(["meta-eval", "--wmt", str(root), "--pair", "de|x-en", "--metrics", "bleu", "--resamples", "5",
                     "--format", form]) == 2
        captured = capsys.readouterr()
        assert "argument --pair: 'de|x-en' holds '|'" in captured.err and not captured.out


def test_wmt21_automatic_scores_given_to_scores_say_what_the_file_is(tmp_path, capsys):
    """``--scores scores/automatic-scores.tsv`` (WMT21's BLEU and chrF of every system) was a data
    error at line 1, "could not convert 'score'"; now the error names the file for what it is and
    says what to give instead (a file built here: the real one is licensed data)."""
    root = _wmt(tmp_path)
    path = tmp_path / "automatic-scores.tsv"
    path.write_text("pair\tsystem\tid\tis_constrained\tmetric\tscore\n"
                    + "".join(f"de-en\t{s}\t{i}\tTrue\t{m}\t{v}\n" for i, s in enumerate(("Good", "Mid", "Bad"))
                              for m, v in (("bleu-A", 30.0 - i), ("chrf-A", 50.0 - i))), encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                 "--scores", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:1: WMT21's scores/automatic-scores.tsv" in err and "--metrics bleu,chrf" in err
    assert "could not convert" not in err
    rows = path.read_text(encoding="utf-8").splitlines(keepends=True)[1:]  # tail -n +2: the rows tell it
    path.write_text("".join(rows), encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5",
                 "--scores", str(path)]) == 1
    assert f"{path}:1: WMT21's scores/automatic-scores.tsv" in capsys.readouterr().err


def test_a_table_of_no_paraphrase_is_warned_of_naming_it(tmp_path, capsys):
    """``meta-eval --table EMPTY`` correlated ParaEval scored as without the table, silently. Now
    a warning names the table (the run goes on: the scores are those of no table, and its
    signature says which table it was)."""
    table = tmp_path / "t.tsv"
    table.write_text("", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "paraeval",
                 "--resources", "none", "--resamples", "2", "--table", str(table)]) == 0
    assert f"--table {table}: the table holds no paraphrase: scored as without it" in capsys.readouterr().err


def test_a_scores_file_from_stdin_without_a_name_is_named_stdin(tmp_path, capsys, monkeypatch):
    """``--scores -`` named its metric ``-`` (the file name's stem), a column and a JSON key of
    no meaning, where ``--scores /dev/stdin`` named it ``stdin``. Now both are ``stdin``."""
    import io

    root = _wmt(tmp_path)
    _own_scores(root, tmp_path / "mine.tsv")
    data = (tmp_path / "mine.tsv").read_bytes()
    for spec in ("-", "/dev/stdin"):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--resamples", "20",
                     "--format", "json", "--scores", spec]) == 0
        result = json.loads(capsys.readouterr().out)
        assert list(result["metrics"]) == ["bleu", "stdin"], spec


def test_sacrebleus_f_is_format(tmp_path, capsys):
    """sacrebleu's ``-f json`` was "unrecognized arguments" in meta-eval too; it is --format now."""
    base = ["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "bleu", "--resamples", "5"]
    assert main([*base, "-f", "json"]) == 0
    short = capsys.readouterr().out
    assert main([*base, "--format", "json"]) == 0
    assert short == capsys.readouterr().out and json.loads(short)["pair"] == "de-en"


def test_sacrebleus_m_is_metrics_hidden_from_help(tmp_path, capsys):
    """sacrebleu's ``-m bleu chrf`` is meta-eval's --metrics list (sacrebleu's names are among
    its metrics'): it was "unrecognized arguments"; the same figures as --metrics, and not in --help."""
    base = ["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--resamples", "5", "--format", "json"]
    assert main([*base, "-m", "bleu,chrf"]) == 0
    short = capsys.readouterr().out
    assert main([*base, "--metrics", "bleu,chrf"]) == 0
    assert short == capsys.readouterr().out and list(json.loads(short)["metrics"]) == ["bleu", "chrf"]
    with pytest.raises(SystemExit):
        main(["meta-eval", "--help"])
    assert "-m " not in capsys.readouterr().out


def test_a_gpu_torch_does_not_see_is_told_before_any_file_is_read(tmp_path, capsys, monkeypatch):
    """``--device cuda`` on a machine whose torch sees no GPU was told after the --scores files
    and the references were read (every row of a WMT submission checked first); now before any
    file is read, as every other command with --device tells it."""
    import paralign.cli.meta_eval as meta_eval

    torch = pytest.importorskip("torch", reason="--device is checked by torch (the neural extra)")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)

    def read(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a file was read before --device was checked")

    monkeypatch.setattr(meta_eval, "_given_scores", read)
    monkeypatch.setattr(meta_eval, "load_wmt", read)
    scores = tmp_path / "mine.seg.score"
    scores.write_text("", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(_wmt(tmp_path)), "--pair", "de-en", "--metrics", "paraeval",
                 "--paraeval-config", "contextual", "--resources", "none", "--scores", str(scores),
                 "--device", "cuda"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("paralign meta-eval: error: device cuda asked for, but torch sees no CUDA device")
    assert err.count("\n") == 1


@pytest.mark.parametrize(("refs", "said"), [
    ("A+B", "argument --refs: 'A+B' holds '+', which separates the items of the part (the signature names it: "
            "refs:LABEL+LABEL): name it another way; several reference sets are separated by commas: --refs A,B"),
    ("A B", "argument --refs: de-en has no reference set 'A B': it has A, B (--refs A,B?)"),
    ("ref-A", "argument --refs: de-en has no reference set 'ref-A': it has A, B (--refs A?)"),
    ("refB,a", "argument --refs: de-en has no reference set 'refB': it has A, B (--refs B,A?)"),
    ("C", "argument --refs: de-en has no reference set 'C': it has A, B\n"),
])
def test_refs_typed_another_way_is_told_the_list_it_takes(tmp_path, capsys, refs, said):
    """``--refs A+B`` (the signature's refs:A+B, typed back) was told to name the set another way;
    ``A B``, ``ref-A`` (the metrics task's name) or ``a`` only that the pair has no such set. Each
    is now told the --refs it most likely meant, among the pair's sets; a set it cannot read as one
    (``C``) is told what the pair has, as before."""
    root = _wmt(tmp_path)
    ref_a = root / "txt" / "references" / "newstest2021.de-en.ref.A.en"
    (ref_a.parent / "newstest2021.de-en.ref.B.en").write_text("a\nb\nc\n", encoding="utf-8")
    assert main(["meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "bleu", "--refs", refs]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"paralign meta-eval: error: {said}") and err.count("\n") == 1
