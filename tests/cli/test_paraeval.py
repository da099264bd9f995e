"""`paralign paraeval` and `paralign meta-eval` end to end through the CLI entry point."""

from __future__ import annotations

import json

import pytest

from paralign.cli import main

TABLE = "blown up\tbombing\nblown up\texplosion\nbombing\texplosion\n"


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "hyp.txt").write_text("blown up bombing was happening\n\nthe cat\n", encoding="utf-8")
    (tmp_path / "r1.txt").write_text(
        "the bombing resulted in an explosion\nsomething\nthe cat\n", encoding="utf-8")
    (tmp_path / "r2.txt").write_text("there was an explosion\n\na cat\n", encoding="utf-8")
    (tmp_path / "t.tsv").write_text(TABLE + "explosion\tbombing\n", encoding="utf-8")
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_corpus_json(files, capsys):
    code, out, _ = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-r",
                       str(files / "r2.txt"), "-i", str(files / "hyp.txt"), "--table",
                       str(files / "t.tsv"), "--resources", "none", "--config", "paper", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert set(result) >= {"precision", "recall", "f", "signature"}
    assert result["precision"] == pytest.approx(6 / 7)  # 4/5 + 2/2 (empty line adds nothing)
    assert result["signature"].startswith("nrefs:2|config:paper|res:t.tsv#")
    assert "|maxlen:4|minpara:1|case:lc|tok:13a" in result["signature"]


def test_sentence_level_lines_and_empty_hypothesis(files, capsys):
    code, out, _ = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-r",
                       str(files / "r2.txt"), "-i", str(files / "hyp.txt"), "--table",
                       str(files / "t.tsv"), "--resources", "none", "--config", "paper", "--sentence-level",
                       "--format", "json")
    assert code == 0
    result = json.loads(out)  # one JSON document, not JSON Lines
    lines = result["segments"]
    assert [d["segment"] for d in lines] == [1, 2, 3]
    assert lines[0]["precision"] == pytest.approx(0.8)
    assert lines[1]["precision"] == 0.0 and lines[1]["f"] == 0.0  # empty: 0, never null
    assert lines[1]["counts"]["hyp_words"] == 0
    assert result["corpus"]["precision"] == pytest.approx(6 / 7)  # as without --sentence-level
    code, out, _ = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i",
                       str(files / "hyp.txt"), "--resources", "none", "--config", "paper", "--sentence-level")
    assert out.splitlines()[1].startswith("2\tParaEval P = 0.0000")


def test_min_paraphrase_length_option(files, capsys):
    _, out, _ = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-r", str(files / "r2.txt"),
                    "-i", str(files / "hyp.txt"), "--table", str(files / "t.tsv"),
                    "--resources", "none", "--config", "paper", "--min-paraphrase-length", "3", "--format", "json")
    assert json.loads(out)["precision"] == pytest.approx(4 / 7)


def test_length_mismatch_is_reported_before_scoring(files, capsys):
    (files / "short.txt").write_text("one line\n", encoding="utf-8")
    code, out, err = run(capsys, "paraeval", "-r", str(files / "short.txt"), "-i",
                         str(files / "hyp.txt"), "--table", str(files / "missing.tsv"), "--config", "paper")
    assert code == 1 and out == ""
    assert "short.txt has 1 line but the hypothesis" in err


@pytest.mark.parametrize("inputs", [1, 3])
def test_references_of_different_lengths_are_one_error_naming_them(files, capsys, inputs):
    """-r A -r B where B has fewer lines (a cut reference) blamed every system: one -i was
    "B has 1 line but the hypothesis has 3" although the hypothesis had A's length, and many
    -i were each reported "not scored", then "none of the N systems could be scored". It is
    one error naming the references and their lengths, before any system is read."""
    (files / "short.txt").write_text("one line\n", encoding="utf-8")
    argv = ["paraeval", "-r", str(files / "r1.txt"), "-r", str(files / "short.txt"), "--resources", "none"]
    for k in range(inputs):  # as many systems, each its own file
        (files / f"hyp{k}.txt").write_text((files / "hyp.txt").read_text(encoding="utf-8"), encoding="utf-8")
        argv += ["-i", str(files / f"hyp{k}.txt")]
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err == (f"paralign paraeval: error: the references differ in length: {files / 'r1.txt'} has 3 "
                   f"lines, {files / 'short.txt'} has 1 line (each has one line a segment)\n")


def test_bad_table_names_its_line(files, capsys):
    (files / "bad.tsv").write_text(TABLE + "only-one-field\n", encoding="utf-8")
    code, _, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i",
                       str(files / "hyp.txt"), "--table", str(files / "bad.tsv"),
                       "--resources", "none", "--config", "paper")
    assert code == 1 and "bad.tsv:4" in err


def test_a_table_shows_a_bar_of_the_rows_read(files, capsys, monkeypatch):
    """paraeval --table read a big table with nothing on screen: each table's rows go through
    the table bar (shown on a terminal once the load is slow; meta-eval's is the same hook)."""
    from paralign.cli import _common

    bars: list[tuple[str, int]] = []
    bar = _common.progress

    def recording(items, desc, total=None, disable=None, delay=0):
        if not delay:  # not the table's bar (the systems' bar has no delay)
            return bar(items, desc, total, disable)
        rows = list(items)
        bars.append((desc, len(rows)))
        return rows

    monkeypatch.setattr(_common, "progress", recording)
    code, _, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"),
                       "--table", str(files / "t.tsv"), "--resources", "none", "--config", "paper")
    assert code == 0, err
    assert bars == [("reading --table", 4)]


def test_text_output_and_stdin(files, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("the cat\n"))
    (files / "one.txt").write_text("the cat\n", encoding="utf-8")
    code, out, _ = run(capsys, "paraeval", "-r", str(files / "one.txt"), "--resources", "none", "--config", "paper")
    assert code == 0 and out.startswith("ParaEval P = 1.0000 R = 1.0000 F = 1.0000\tnrefs:1")


def test_meta_eval_json(data, capsys):
    code, out, _ = run(capsys, "meta-eval", "--wmt", str(data / "mt" / "wmt21-toEnglish"),
                       "--pair", "cs-en", "--refs", "A", "--metrics", "bleu,gm",
                       "--resamples", "30", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["pair"] == "cs-en" and len(result["systems"]) == 8
    for name in ("bleu", "gm"):
        for kind in ("pearson", "spearman", "kendall"):
            assert set(result["metrics"][name][kind]) == {"value", "low", "high"}
    code, _, err = run(capsys, "meta-eval", "--wmt", str(data / "mt" / "wmt21-toEnglish"),
                       "--pair", "cs-en", "--refs", "C", "--metrics", "bleu")
    assert code == 2 and "cs-en has no reference set 'C': it has A, B" in err


def test_report_highlights_each_hypothesis_by_tier(files, capsys, report_page):
    (files / "t.tsv").write_text(TABLE + "explosion\tbombing\nhappening\tgoing on\nsmall\tlittle\n",
                                 encoding="utf-8")
    (files / "hyp.txt").write_text("blown up bombing was happening\n\nthe small cat <script>\n",
                                   encoding="utf-8")
    (files / "r1.txt").write_text("the bombing resulted in an explosion\nsomething\nthe little cat\n",
                                  encoding="utf-8")
    report = files / "paraeval.html"
    argv = ["paraeval", "-r", str(files / "r1.txt"), "-r", str(files / "r2.txt"), "-i", str(files / "hyp.txt"),
            "--table", str(files / "t.tsv"), "--resources", "none", "--config", "paper"]
    code, out, _ = run(capsys, *argv, "--format", "json", "--report", str(report))
    assert code == 0
    result = json.loads(out)
    page = report_page(report.read_text(encoding="utf-8"))
    values = page.values()
    assert values["precision"] == result["precision"] and values["f"] == result["f"]
    assert values["counts.hyp_matched"] == result["counts"]["hyp_matched"]
    sections = page.find("section", class_="segment")
    assert [s["data-segment"] for s in sections] == ["1", "2", "3"]
    words = [(w.get("data-tier"), w.text) for w in page.root.iter("span")
             if "tier" in w.get("class", "").split() and w.get("data-tier") and w.text
             and ":" not in w.text]  # the legend's entries have a colon
    assert ("paraphrase", "blown up") in words and ("synonym", "small") in words
    assert ("exact", "cat") in words and ("unmatched", "<") in words
    tiers = {tier for tier, _ in words}
    assert tiers == {"paraphrase", "synonym", "exact", "unmatched"}
    assert "<script>" not in page.source
    page.assert_self_contained()
    code, plain, _ = run(capsys, *argv)
    code, with_report, _ = run(capsys, *argv, "--report", str(report))
    assert plain == with_report


def test_report_of_the_default_config_shows_each_segments_score_and_matches(files, capsys, report_page):
    """The default (graded) config's report: each segment's score is the --sentence-level one,
    its words are highlighted by the graded tiers (stem included), the reference it was scored
    against is shown, and the page's input-level figures are the command's."""
    from paralign.metrics.paraeval import scorer

    (files / "hyp.txt").write_text("the cats were bombed\nthe dog\n", encoding="utf-8")
    (files / "r1.txt").write_text("a cat was bombing\nthe dog\n", encoding="utf-8")
    (files / "r2.txt").write_text("the cat was hit\na hound\n", encoding="utf-8")
    report = files / "graded.html"
    argv = ["paraeval", "-r", str(files / "r1.txt"), "-r", str(files / "r2.txt"), "-i", str(files / "hyp.txt"),
            "--table", str(files / "t.tsv"), "--resources", "none", "--format", "json"]
    code, out, err = run(capsys, *argv, "--sentence-level", "--report", str(report))
    assert code == 0, err
    result = json.loads(out)
    page = report_page(report.read_text(encoding="utf-8"))
    assert page.values()["score"] == result["corpus"]["score"]
    sections = page.find("section", class_="segment")
    assert [float(s["data-score"]) for s in sections] == [seg["score"] for seg in result["segments"]]
    words = [(w.get("data-tier"), w.text) for w in page.root.iter("span")
             if "tier" in w.get("class", "").split() and w.get("data-tier") and w.text and ":" not in w.text]
    assert ("stem", "cats") in words and ("exact", "dog") in words
    explained = scorer("default", tables=[str(files / "t.tsv")], resources=[]).explain(
        "the cats were bombed", ["a cat was bombing", "the cat was hit"])
    assert sections[0]["data-tiers"] == " ".join(
        t for t in ("exact", "stem", "synonym", "paraphrase", "contextual", "unmatched")
        if t in {span.tier for span in explained.spans})
    assert "scored against reference" in page.source
    page.assert_self_contained()
    code, _, err = run(capsys, *argv, "-i", str(files / "r2.txt"), "--report", str(report))
    assert code == 0, err  # two -i: the page of the systems, not of one system's segments
    page = report_page(report.read_text(encoding="utf-8"))
    assert page.find("section", class_="segment") == [] and len(page.find("tr", class_="system")) == 2


@pytest.mark.parametrize("config", ["default", "paper"])
def test_report_shows_the_confidence_the_command_gives(files, capsys, report_page, config):
    """--report with --confidence shows the bootstrap's mean and half-width beside the score,
    with the settings (resamples, seed). Before, the page's signature said bs:1000|seed:12345,
    settings of figures the page did not show (the text and JSON had them)."""
    report = files / "confidence.html"
    argv = ["paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"), "--table", str(files / "t.tsv"),
            "--resources", "none", "--config", config, "--confidence", "--resamples", "50", "--seed", "7",
            "--format", "json", "--report", str(report)]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    found = json.loads(out)["confidence"]
    page = report_page(report.read_text(encoding="utf-8"))
    values = page.values()
    assert values["confidence.mean"] == found["mean"] and values["confidence.ci"] == found["ci"]
    assert "50 resamples" in page.text and "seed 7" in page.text
    assert "bs:50|seed:7" in page.text
    (files / "one.txt").write_text("the cat\n", encoding="utf-8")
    one = [str(files / "one.txt") if a in (str(files / "r1.txt"), str(files / "hyp.txt")) else a for a in argv]
    code, out, err = run(capsys, *one)
    assert code == 0 and json.loads(out)["confidence"] is None and "fewer than 2 segments" in err
    text = report_page(report.read_text(encoding="utf-8")).text
    assert "n/a (fewer than 2 segments to resample)" in text


def test_report_says_why_the_confidence_of_an_undefined_f_is_n_a(files, capsys, report_page):
    """The paper config's F is n/a when no reference has a word, so --confidence has no interval
    (null, with a warning saying its score is n/a) over any number of segments. The report said
    "n/a (fewer than 2 segments to resample)" of 3 segments; it gives the reason the command does."""
    (files / "blank.txt").write_text("\n\n\n", encoding="utf-8")
    report = files / "na.html"
    code, out, err = run(capsys, "paraeval", "-r", str(files / "blank.txt"), "-i", str(files / "hyp.txt"),
                         "--resources", "none", "--config", "paper", "--confidence", "--resamples", "20",
                         "--format", "json", "--report", str(report))
    assert code == 0 and json.loads(out)["confidence"] is None and "its score is n/a" in err
    text = report_page(report.read_text(encoding="utf-8")).text
    assert "bootstrap of the F: n/a (the F is n/a)" in text and "fewer than 2 segments" not in text


def test_many_systems_one_call_match_one_call_each(files, capsys):
    (files / "sys2.txt").write_text("the bombing exploded\n\nthe cats\n", encoding="utf-8")
    base = ["paraeval", "-r", str(files / "r1.txt"), "--resources", "none", "--format", "json"]
    code, out, _ = run(capsys, *base, "-i", str(files / "hyp.txt"), "-i", str(files / "sys2.txt"))
    assert code == 0
    systems = json.loads(out)["systems"]
    assert [s["input"] for s in systems] == [str(files / "hyp.txt"), str(files / "sys2.txt")]
    for system in systems:
        _, alone, _ = run(capsys, *base, "-i", system["input"])
        assert {k: v for k, v in system.items() if k != "input"} == json.loads(alone)
    assert systems[0]["signature"].startswith("nrefs:1|config:default|tiers:exact+stem+")
    assert 0 <= systems[0]["score"] <= 1 and set(systems[0]["counts"]) >= {"chunks", "matches"}
    _, globbed, _ = run(capsys, *base, "-i", str(files / "[hs]*.txt"))
    assert json.loads(globbed)["systems"] == systems
    code, _, err = run(capsys, *base, "-i", str(files / "nothing*.txt"))
    assert code == 2 and "nothing*.txt: no file matches this pattern" in err


def test_sentence_level_default_config_counts_and_empty_hypothesis(files, capsys):
    code, out, _ = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"),
                       "--resources", "none", "--sentence-level", "--format", "json")
    assert code == 0
    result = json.loads(out)
    empty = result["segments"][1]
    assert empty["precision"] == 0.0 and empty["score"] == 0.0 and empty["counts"]["hyp_content"] == 0
    assert result["segments"][2]["counts"]["exact_hc"] == 1  # 'cat' (and 'the', a function word)
    code, _, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"),
                       "--resources", "none", "--min-paraphrase-length", "3")
    assert code == 2 and "--min-paraphrase-length is a setting of the paper config: give --config paper" in err


def test_a_min_paraphrase_length_above_max_length_is_a_usage_error_in_the_flags_names(files, capsys):
    """The paraphrase tier could never match (API audit): the library refuses it, and the
    command says so with its own flags, before anything loads."""
    base = ("paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"), "--resources", "none",
            "--config", "paper", "--min-paraphrase-length", "5")
    code, out, err = run(capsys, *base)
    assert (code, out) == (2, "") and err.endswith(
        "error: --min-paraphrase-length 5 is above --max-length 4: no paraphrase match can be that long\n")
    assert run(capsys, *base, "--max-length", "5")[0] == 0


def test_the_command_line_lists_configs_without_loading_numpy():
    import subprocess
    import sys

    code = ("import sys; from paralign.cli import main\n"
            "try:\n    main(['paraeval', '--help'])\nexcept SystemExit:\n    pass\n"
            "print('numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "default" in done.stdout and done.stdout.strip().endswith("False")


@pytest.mark.usefixtures("on_dask")  # PARALIGN_SCHEDULER: the session's two-worker cluster
def test_segments_matched_on_a_dask_cluster_score_as_in_one_process(files, capsys, monkeypatch):
    argv = ["paraeval", "-r", str(files / "r1.txt"), "-r", str(files / "r2.txt"), "-i",
            str(files / "hyp.txt"), "--table", str(files / "t.tsv"), "--config", "paper", "--sentence-level", "--format", "json"]
    there = run(capsys, *argv)
    monkeypatch.delenv("PARALIGN_SCHEDULER")
    here = run(capsys, *argv)
    assert there[0] == here[0] == 0 and json.loads(there[1]) == json.loads(here[1])
    assert "dask cluster at tcp://127.0.0.1:" in there[2] and "dask" not in here[2]


@pytest.mark.parametrize("side", ["-r", "-i", "stdin"])
def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path, capsys, monkeypatch, side):
    """Identical texts score 1.0 whichever side (file or stdin) starts with a UTF-8 BOM."""
    import io
    import sys

    text = "The cat sat on the mat.\nA man is playing a guitar.\n"
    (tmp_path / "plain.txt").write_text(text, encoding="utf-8")
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    ref, hyp = (tmp_path / "bom.txt", tmp_path / "plain.txt") if side == "-r" else (tmp_path / "plain.txt",
                                                                                    tmp_path / "bom.txt")
    if side == "stdin":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + text.encode("utf-8"))))
        hyp = "-"
    code, out, err = run(capsys, "paraeval", "-r", str(ref), "-i", str(hyp), "--resources", "none",
                         "--format", "json")
    assert code == 0, err
    assert json.loads(out)["f"] == pytest.approx(1.0)


@pytest.mark.parametrize("config", ["default", "paper"])
def test_workers_score_on_a_local_cluster_with_the_numbers_of_one_process(files, capsys, config):
    """--workers 2: the graded configs score whole systems on the workers, the paper config
    matches chunks of segments there; either way the JSON is that of one process."""
    hyps = ["blown up bombing was happening", "", "the cat sat", "an explosion", "the bombing"] * 60
    (files / "h1.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (files / "h2.txt").write_text("\n".join(reversed(hyps)) + "\n", encoding="utf-8")
    refs = ["the bombing resulted in an explosion", "something", "a cat sat", "explosion", "bomb"] * 60
    (files / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    argv = ["paraeval", "-r", str(files / "r.txt"), "-i", str(files / "h1.txt"), "-i", str(files / "h2.txt"),
            "--table", str(files / "t.tsv"), "--resources", "none", "--config", config, "--sentence-level",
            "--format", "json"]
    code, alone, err = run(capsys, *argv)
    assert code == 0 and "cluster" not in err
    code, spread, err = run(capsys, *argv, "--workers", "2", "--memory-limit", "1GB")
    assert code == 0
    assert "dask local cluster" in err and "2 workers" in err
    assert json.loads(spread) == json.loads(alone)
    assert len(json.loads(alone)["systems"]) == 2


def _systems(tmp_path, n: int = 40):
    """A reference and three systems of `n` segments: a copy of the reference with a word changed
    every 4th line, one with a word changed every line, and a copy of the first."""
    words = ["the cat sat on the mat", "a dog ran home quickly", "prices rose sharply today",
             "she was reading a long book", "the old man walked slowly"]
    refs = [words[k % len(words)] + f" number {k}" for k in range(n)]
    close = [r.replace("the", "a", 1) if k % 4 == 0 else r for k, r in enumerate(refs)]
    far = [" ".join(["something"] + r.split()[1:]) for r in refs]
    for name, lines in (("ref", refs), ("close", close), ("far", far), ("copy", close)):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("config", ["default", "paper"])
def test_confidence_and_paired_bootstrap(tmp_path, capsys, config):
    """--confidence: each system's bootstrap mean ± half-width of its headline score (the paper's
    F), the resampling in the signature; --paired-bs: the first -i is the baseline, a clearly
    worse system is significant, an identical copy of the baseline is not (p = 1)."""
    from paralign.metrics.paraeval import scorer, system_scores
    from paralign.metrics.paraeval.scoring import metrics_of
    from paralign.metrics.significance import confidence, paired_bootstrap

    d = _systems(tmp_path)
    base = ["paraeval", "-r", str(d / "ref.txt"), "--resources", "none", "--config", config, "--format", "json"]
    code, out, _ = run(capsys, *base, "-i", str(d / "close.txt"), "--confidence", "--resamples", "300")
    assert code == 0
    result = json.loads(out)
    headline = result["score"] if config == "default" else result["f"]
    assert result["confidence"]["score"] == pytest.approx(headline)
    assert abs(result["confidence"]["mean"] - headline) < result["confidence"]["ci"]
    assert result["signature"].endswith("|bs:300|seed:12345|version:" + result["signature"].rsplit(":", 1)[1])
    item = scorer(config, resources=[])
    refs = [(d / "ref.txt").read_text().splitlines()]
    rows = {name: system_scores(item, (d / f"{name}.txt").read_text().splitlines(), refs, with_stats=True)["stats"]
            for name in ("close", "far")}
    score = metrics_of(item, ("score",))[0].score
    assert result["confidence"] == confidence(rows["close"], score, n_resamples=300).to_dict()

    code, out, _ = run(capsys, *base, "-i", str(d / "close.txt"), "-i", str(d / "far.txt"), "-i",
                       str(d / "copy.txt"), "--paired-bs", "--seed", "7")
    assert code == 0
    baseline, far, copy = json.loads(out)["systems"]
    assert baseline["paired_bootstrap"]["is_baseline"] and baseline["paired_bootstrap"]["p_value"] is None
    assert far["paired_bootstrap"]["p_value"] < 0.01 and far["score" if config == "default" else "f"] < headline
    assert far["paired_bootstrap"]["p_value"] == paired_bootstrap(rows["close"], rows["far"], score, seed=7).p_value
    assert copy["paired_bootstrap"]["p_value"] == 1.0 and copy["paired_bootstrap"]["baseline"] == str(d / "close.txt")
    assert all(s["signature"].count("|bs:1000|seed:7|") == 1 for s in (baseline, far, copy))

    code, out, _ = run(capsys, *base[:-2], "-i", str(d / "close.txt"), "-i", str(d / "far.txt"), "--paired-bs")
    first, second = out.splitlines()
    assert ", baseline)" in first and "(μ = " in first and "p = 0.0010*" in second


def test_a_paired_test_needs_two_systems(tmp_path, capsys):
    d = _systems(tmp_path, 5)
    code, _, err = run(capsys, "paraeval", "-r", str(d / "ref.txt"), "-i", str(d / "close.txt"), "--resources",
                       "none", "--paired-bs")
    assert code == 2 and "--paired-bs compares systems with the first -i" in err


def test_stdin_is_named_as_in_every_other_result(files, capsys, monkeypatch):
    """A hypothesis read from stdin is ``<stdin>`` wherever the command names it (docs/CLI.md,
    Files): the text prefix and the JSON ``input`` of many systems, and a line-count mismatch.
    Before, they said ``-`` and ``(stdin)`` while the same JSON's paired-test baseline said
    ``<stdin>``."""
    import io

    (files / "one.txt").write_text("the cat\n", encoding="utf-8")
    base = ["paraeval", "-r", str(files / "one.txt"), "--resources", "none", "--config", "paper"]
    monkeypatch.setattr("sys.stdin", io.StringIO("the cat\n"))
    code, out, _ = run(capsys, *base, "-i", "-", "-i", str(files / "one.txt"))
    assert code == 0 and out.startswith("<stdin>\tParaEval P = 1.0000")
    monkeypatch.setattr("sys.stdin", io.StringIO("the cat\n"))
    code, out, _ = run(capsys, *base, "-i", "-", "-i", str(files / "one.txt"), "--paired-bs",
                       "--resamples", "10", "--format", "json")
    first = json.loads(out)["systems"][0]
    assert code == 0 and first["input"] == "<stdin>" == first["paired_bootstrap"]["baseline"]
    monkeypatch.setattr("sys.stdin", io.StringIO("the cat\nthe dog\n"))
    code, _, err = run(capsys, *base)
    assert code == 1 and f"{files / 'one.txt'} has 1 line but the hypothesis <stdin> has 2" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("the cat\nthe dog\n"))
    code, _, err = run(capsys, "paraeval", "-r", "-", "-i", str(files / "one.txt"), "--resources", "none")
    assert code == 1 and f"<stdin> has 2 lines but the hypothesis {files / 'one.txt'} has 1" in err


@pytest.mark.parametrize("bootstrap", [["--confidence"], ["--paired-bs"]])
def test_sentence_level_text_does_not_drop_the_bootstrap(tmp_path, capsys, bootstrap):
    """--confidence and --paired-bs are figures of the corpus score, which --sentence-level text
    (one line a segment) has no line for: the command says so before scoring (as sacrebleu
    refuses them in sentence-level mode) instead of computing them and printing none.
    --format json keeps them under ``corpus``."""
    d = _systems(tmp_path, 5)
    base = ["paraeval", "-r", str(d / "ref.txt"), "-i", str(d / "close.txt"), "-i", str(d / "far.txt"),
            "--resources", "none", "--sentence-level", "--resamples", "20", *bootstrap]
    code, out, err = run(capsys, *base)
    assert code == 2 and out == ""
    assert "--format json" in err and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, *base, "--format", "json")
    assert code == 0 and all("confidence" in s["corpus"] for s in json.loads(out)["systems"])


@pytest.mark.parametrize(("option", "shown"), [(["--no-lowercase"], "--no-lowercase"),
                                               (["--tokenize", "none"], "--tokenize"),
                                               (["--keep-stopword-phrases", "--min-paraphrase-length", "2"],
                                                "--min-paraphrase-length, --keep-stopword-phrases")])
def test_a_paper_only_option_with_another_config_names_the_flag(files, capsys, option, shown):
    """The paper config's options with a graded config: one usage error naming the flags as typed
    (before, the library's Python names: "lowercase: only for the paper config ...")."""
    code, out, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"),
                         "--resources", "none", "--config", "contextual", *option)
    assert code == 2 and out == ""
    assert err == (f"paralign paraeval: error: {shown} {'is a setting' if ',' not in shown else 'are settings'} "
                   "of the paper config: give --config paper (the config is 'contextual')\n")


@pytest.mark.parametrize("command", ["paraeval", "meta-eval"])
def test_the_help_gives_the_paper_configs_defaults(command, capsys):
    """--min-paraphrase-length's help gave "the paper's 3" and no default, so a reader took 3 for
    the default; it is the paper scorer's (1, as the signature's minpara:1 says). --max-length's
    "the config's, 4" is checked against the configs too."""
    from dataclasses import fields

    from paralign.metrics.paraeval.configs import CONFIGS
    from paralign.metrics.paraeval.paper import ParaEval

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    minimum = next(f.default for f in fields(ParaEval) if f.name == "min_paraphrase_length")
    assert f"match paraphrases of >= N words (default: {minimum}; the paper's variant: 3)" in text
    assert {c.max_length for c in CONFIGS.values()} == {4} and "(default: the config's, 4)" in text


def test_an_input_whose_name_looks_like_a_glob_is_read_as_named(tmp_path, capsys, monkeypatch):
    """-i takes a file or a glob: a file that exists under the name given is that file, even when
    the name holds glob characters. Before, `-i 'hyp[1].txt'` was expanded as a glob and scored
    hyp1.txt instead (or failed with "no file matches this pattern" when no such file existed)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ref.txt").write_text("the cat sat\n", encoding="utf-8")
    (tmp_path / "hyp[1].txt").write_text("the cat sat\n", encoding="utf-8")
    base = ["paraeval", "-r", "ref.txt", "--resources", "none", "--config", "paper"]
    code, out, _ = run(capsys, *base, "-i", "hyp[1].txt")
    assert code == 0 and out.startswith("ParaEval P = 1.0000")
    (tmp_path / "hyp1.txt").write_text("a dog barked\n", encoding="utf-8")
    code, out, _ = run(capsys, *base, "-i", "hyp[1].txt", "--format", "json")
    assert code == 0 and json.loads(out)["f"] == 1.0
    code, out, _ = run(capsys, *base, "-i", "hyp?.txt", "-i", "hyp[1].txt")  # a real glob still expands
    assert [line.split("\t")[0] for line in out.splitlines()] == ["hyp1.txt", "hyp[1].txt"]


def test_a_reference_given_twice_is_a_usage_error(files, capsys, monkeypatch):
    """`-r X -r X` scored against two copies of one reference as if they were two (its signature
    saying nrefs:2), and named the reference "X and X" when it had another length than the
    outputs: the same file twice is a usage error now (exit 2, before anything is read), as
    meta-eval's --refs A,A is; so is the path written two ways or a link to it."""
    monkeypatch.chdir(files)
    (files / "link.txt").symlink_to(files / "r1.txt")
    for second in ("r1.txt", "./r1.txt", "link.txt"):
        code, out, err = run(capsys, "paraeval", "-r", "r1.txt", "-r", "r2.txt", "-r", second, "-i", "hyp.txt",
                             "--resources", "none")
        assert code == 2 and out == ""
        assert (f"paralign paraeval: error: argument -r/--reference: {second} is the same file as r1.txt (given "
                "before): give each reference once") in err
    code, out, err = run(capsys, "paraeval", "-r", "r1.txt", "-r", "r2.txt", "-i", "hyp.txt", "--resources", "none")
    assert code == 0 and "nrefs:2" in out


def test_a_copy_of_a_reference_is_refused_naming_both_files(files, capsys, monkeypatch):
    """A second -r of the same lines under another name (a copy) passed the path check and was
    scored as a second reference (nrefs:2); the library refuses the same stream twice, and the
    command says it with the files' names (a usage error, before any system is read)."""
    monkeypatch.chdir(files)
    (files / "copy.txt").write_bytes((files / "r1.txt").read_bytes())
    for fmt in ("text", "json"):
        code, out, err = run(capsys, "paraeval", "-r", "r1.txt", "-r", "r2.txt", "-r", "copy.txt", "-i", "hyp.txt",
                             "--resources", "none", "--format", fmt)
        assert code == 2 and out == ""
        assert ("paralign paraeval: error: argument -r/--reference: copy.txt has the same lines as r1.txt: give each "
                "reference once (scored against both as against one, signed nrefs:3)") in err


def test_a_system_given_twice_is_scored_once_in_its_first_place(tmp_path, capsys, monkeypatch):
    """The same file named twice by -i (a baseline, then a glob that matches it too; or the path
    written two ways) is one system: scored once, in its first place, with a warning naming
    both, as sacrebleu's --paired-bs ignores a system "also given as the baseline". Before, it
    was scored twice under one name (JSON: two records of one "input"), and --paired-bs tested
    the baseline against itself (p = 1.0000)."""
    d = _systems(tmp_path, 6)
    monkeypatch.chdir(d)
    base = ["paraeval", "-r", "ref.txt", "--resources", "none", "--resamples", "20"]
    code, out, err = run(capsys, *base, "-i", "far.txt", "-i", "c*.txt", "-i", "./far.txt", "--paired-bs")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == ["far.txt", "close.txt", "copy.txt"]
    assert ", baseline)" in out.splitlines()[0] and "p = 1.0000" not in out.splitlines()[1]
    assert "paralign: warning: ./far.txt: the same file as far.txt (given before); scored once" in err
    code, out, err = run(capsys, *base, "-i", "close.txt", "-i", "*.txt", "--format", "json", "--confidence")
    names = [s["input"] for s in json.loads(out)["systems"]]
    assert code == 0 and names == ["close.txt", "copy.txt", "far.txt", "ref.txt"]
    assert err.count("scored once") == 1
    code, out, err = run(capsys, *base, "-i", "far.txt", "-i", "f*.txt", "--paired-bs")
    assert code == 2 and out == "" and "scored once" in err and "give two or more" in err
    code, out, err = run(capsys, *base, "-i", "-", "-i", "-")
    assert code == 2 and out == "" and "stdin can be read only once" in err


def test_a_glob_takes_the_files_it_matches_not_folders(tmp_path, capsys, monkeypatch):
    """-i GLOB is the files it matches: a folder it also matches (an old/ beside the outputs) is
    no hypothesis file. Before, `-i 'out/*'` with a subfolder stopped the whole run as a usage
    error ("out/old: is a directory, not a file"), no system scored."""
    d = _systems(tmp_path, 4)
    monkeypatch.chdir(d)
    (d / "out").mkdir()
    (d / "out" / "old").mkdir()
    for name in ("close", "far"):
        (d / "out" / f"{name}.txt").write_text((d / f"{name}.txt").read_text(encoding="utf-8"), encoding="utf-8")
    base = ["paraeval", "-r", "ref.txt", "--resources", "none"]
    code, out, err = run(capsys, *base, "-i", "out/*")
    assert code == 0, err
    assert [line.split("\t")[0] for line in out.splitlines()] == ["out/close.txt", "out/far.txt"]
    code, out, err = run(capsys, *base, "-i", "out/o*")
    assert code == 2 and out == ""
    # matching only a folder: said, as "no file matches" alone puzzled where `ls out/o*` lists something
    assert ("paralign paraeval: error: out/o*: no file matches this pattern, only 1 folder (out/old), which -i "
            "leaves out: name the files in them\n") in err
    code, out, err = run(capsys, *base, "-i", "out/x*")
    assert code == 2 and err.endswith("out/x*: no file matches this pattern\n")


def test_text_names_each_system_in_one_column_of_one_line(tmp_path, capsys, monkeypatch):
    """Many -i: a text line a system (a segment), its first column the file's name. A name with
    a tab, a line break or an escape sequence (a file an MT pipeline named from its data) is
    written with them escaped (``\\t``, ``\\n``, ``\\x1b``), as every message names it. Before,
    it was written raw: its line broke in two, its columns moved, and `cut -f1` gave its scores
    to a system named "ird"; an ESC drove the terminal. JSON keeps the exact name."""
    d = _systems(tmp_path, 4)
    monkeypatch.chdir(d)
    odd = "we\tird\nname\x1b[2J.txt"
    (d / odd).write_text((d / "close.txt").read_text(encoding="utf-8"), encoding="utf-8")
    base = ["paraeval", "-r", "ref.txt", "--resources", "none", "-i", odd, "-i", "far.txt"]
    code, out, _ = run(capsys, *base)
    assert code == 0 and len(out.splitlines()) == 2
    assert [line.split("\t")[0] for line in out.splitlines()] == ["we\\tird\\nname\\x1b[2J.txt", "far.txt"]
    assert all(len(line.split("\t")) == 3 for line in out.splitlines())
    code, out, _ = run(capsys, *base, "--sentence-level")
    assert code == 0 and len(out.splitlines()) == 8 and all(len(line.split("\t")) == 4 for line in out.splitlines())
    code, out, _ = run(capsys, *base, "--format", "json")
    assert [s["input"] for s in json.loads(out)["systems"]] == [odd, "far.txt"]


def test_one_i_takes_many_files_as_sacrebleus_does(tmp_path, capsys, monkeypatch):
    """`-i A B C` is three systems, as sacrebleu's -i takes them, so a glob the shell expands
    (`-i out/*.txt`, unquoted) works as the one paralign expands; -i may still be repeated.
    Before, `-i close.txt far.txt` was a usage error ("unrecognized arguments: far.txt")."""
    d = _systems(tmp_path, 4)
    monkeypatch.chdir(d)
    base = ["paraeval", "-r", "ref.txt", "--resources", "none", "--resamples", "20"]
    code, out, err = run(capsys, *base, "-i", "far.txt", "close.txt", "-i", "copy.txt", "--paired-bs")
    assert code == 0, err
    assert [line.split("\t")[0] for line in out.splitlines()] == ["far.txt", "close.txt", "copy.txt"]
    assert ", baseline)" in out.splitlines()[0]
    _, alone, _ = run(capsys, *base, "-i", "far.txt", "-i", "close.txt", "-i", "copy.txt", "--paired-bs")
    assert out == alone


def test_one_bad_system_of_many_does_not_lose_the_others(tmp_path, capsys):
    """Many -i are a batch: a system file that cannot be scored (here one line short, and one not
    UTF-8) is reported on stderr as FILE: reason and left out, the others are scored (exit 0;
    JSON: an {"input", "error"} record in its place). Before, the run stopped at the first such
    file and no system was scored. A bad baseline of --paired-bs, or every system bad, still
    stops the run (exit 1), as one -i does."""
    d = _systems(tmp_path, 8)
    lines = (d / "far.txt").read_text(encoding="utf-8").splitlines()
    (d / "short.txt").write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    (d / "latin1.txt").write_bytes("\n".join(lines).replace("number", "numéro").encode("latin-1") + b"\n")
    base = ["paraeval", "-r", str(d / "ref.txt"), "--resources", "none"]
    systems = ["-i", str(d / "close.txt"), "-i", str(d / "short.txt"), "-i", str(d / "latin1.txt"),
               "-i", str(d / "far.txt")]
    code, out, err = run(capsys, *base, *systems)
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == [str(d / "close.txt"), str(d / "far.txt")]
    assert f"paralign: warning: {d / 'ref.txt'} has 8 lines but the hypothesis {d / 'short.txt'} has 7; " \
           "not scored" in err
    assert f"{d / 'latin1.txt'}:1: not UTF-8" in err
    code, out, _ = run(capsys, *base, *systems, "--format", "json")
    results = json.loads(out)["systems"]
    assert [sorted(r) for r in results[1:3]] == [["error", "input"]] * 2
    assert results[1]["input"] == str(d / "short.txt") and "has 7" in results[1]["error"]
    code, alone, _ = run(capsys, *base, "-i", str(d / "far.txt"), "--format", "json")
    assert {k: v for k, v in results[3].items() if k != "input"} == json.loads(alone)
    code, out, err = run(capsys, *base, *systems, "--paired-bs", "--resamples", "20")
    assert code == 0 and len(out.splitlines()) == 2 and "p = " in out.splitlines()[1]
    code, out, err = run(capsys, *base, *systems[2:], "--paired-bs", "--resamples", "20")
    assert code == 1 and out == "" and "the baseline" in err and "has 7" in err
    code, out, err = run(capsys, *base, "-i", str(d / "short.txt"), "-i", str(d / "latin1.txt"))
    assert code == 1 and out == "" and "has 7" in err and "latin1.txt:1: not UTF-8" in err
    assert err.splitlines()[-1] == "paralign paraeval: error: none of the 2 systems could be scored (reported above)"
    code, out, err = run(capsys, *base, "-i", str(d / "close.txt"), "-i", str(d / "short.txt"), "--paired-bs")
    assert code == 1 and out == "" and "no system left to compare with the baseline" in err


def test_paraeval_and_meta_eval_match_a_pivot_built_table_in_their_tokens(built_table, tmp_path, capsys):
    """paraeval --table and meta-eval --table matched a table that pivot built as written:
    its "doctor 's" (regex tokens) against the 13a token doctor's, never. Its phrases are
    re-split into 13a tokens: physician's and doctor's are paraphrases (the system scores 1 with
    the paper config, as the reference itself), and the signature names the re-split (~regex)."""
    table = str(built_table("t.tsv"))
    ref, hyp = "the doctor's car is red\n", "The physician's car is red\n"
    (tmp_path / "ref.txt").write_text(ref, encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(hyp, encoding="utf-8")
    code, out, err = run(capsys, "paraeval", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
                         "--table", table, "--resources", "none", "--config", "paper", "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    assert result["recall"] == result["precision"] == 1.0 and "|res:t.tsv~regex#" in result["signature"]
    root = tmp_path / "wmt"
    for sub in ("references", "system-outputs", "sources"):
        (root / "txt" / sub).mkdir(parents=True)
    (root / "humaneval").mkdir()
    (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").write_text(ref * 3, encoding="utf-8")
    for name, text in (("Good", ref), ("Para", hyp), ("Bad", "car\n")):
        (root / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en").write_text(text * 3, encoding="utf-8")
    (root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv").write_text(
        "80.0 0.5 3 3 g Good\n60.0 0.1 3 3 p Para\n20.0 -0.6 3 3 b Bad\n", encoding="utf-8")
    code, out, err = run(capsys, "meta-eval", "--wmt", str(root), "--pair", "de-en", "--metrics", "paraeval",
                         "--paraeval-config", "paper", "--table", table, "--resources", "none", "--resamples", "20",
                         "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    assert result["metrics"]["paraeval"]["scores"]["Para"] == result["metrics"]["paraeval"]["scores"]["Good"] == 1.0
    assert "|res:t.tsv~regex#" in result["signatures"]["paraeval"]


def test_a_table_read_back_from_the_disk_cache_gives_the_same_scores_and_signature(files, capsys, table_cache):
    """paraeval and meta-eval parsed a user's table on every run: the next run reads it back
    from the disk cache (tables of any size here), to the same scores and signature."""
    cache, parsed = table_cache
    for config in ("paper", "default"):
        argv = ["paraeval", "-r", str(files / "r1.txt"), "-r", str(files / "r2.txt"), "-i", str(files / "hyp.txt"),
                "--table", str(files / "t.tsv"), "--resources", "none", "--config", config, "--sentence-level",
                "--format", "json"]
        cold, warm = run(capsys, *argv), run(capsys, *argv)
        assert cold == warm and cold[0] == 0 and "res:t.tsv#" in json.loads(cold[1])["corpus"]["signature"]
    assert parsed == [str(files / "t.tsv")] and len(list(cache.glob("table-*.marshal"))) == 1


def test_the_default_system_score_is_recall_and_does_not_punish_padding(tmp_path, capsys):
    """What --help and the README say of the default config: its system score is graded recall,
    so a system padding each line with reference words scores 1 while its precision falls (the
    paraevalcli audit's note). A change of system_alpha must change those words too."""
    ref, good, pad = tmp_path / "ref.txt", tmp_path / "good.txt", tmp_path / "pad.txt"
    ref.write_text("the cat sat on the mat\na dog barked at the postman\n", encoding="utf-8")
    good.write_text("a cat sat on the mat\nthe dog barked at a postman\n", encoding="utf-8")
    pad.write_text("the cat sat on the mat dog barked postman a at\n" * 2, encoding="utf-8")
    assert main(["paraeval", "-r", str(ref), "-i", str(good), str(pad), "--resources", "none",
                 "--format", "json"]) == 0
    good_score, pad_score = (system for system in json.loads(capsys.readouterr().out)["systems"])
    assert pad_score["score"] == pad_score["recall"] == 1.0 and pad_score["precision"] < 0.6
    assert good_score["score"] == good_score["recall"] < 1.0


def test_report_of_many_systems_ranks_them_with_their_tests(files, capsys, report_page):
    """--report with several -i (a comparison, as sacrebleu's --paired-bs table) is a page of the
    systems, best score first, each with its P/R/F, bootstrap and p-value against the baseline
    as the JSON gives them, saying which system scores highest and which differ significantly
    from the baseline. Before, it was refused: "--report shows one input's segments as matched:
    give one -i", so a comparison had no page."""
    (files / "sys2.txt").write_text("the bombing exploded\n\nthe cats\n", encoding="utf-8")
    (files / "sys3.txt").write_text("the bombing resulted in an explosion\nsomething\nthe cat\n", encoding="utf-8")
    (files / "bad.txt").write_text("one line\n", encoding="utf-8")
    report = files / "many.html"
    inputs = [str(files / name) for name in ("hyp.txt", "sys2.txt", "bad.txt", "sys3.txt")]
    code, out, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "--resources", "none", "-i", *inputs,
                         "--paired-bs", "--resamples", "50", "--format", "json", "--report", str(report))
    assert code == 0, err
    systems = json.loads(out)["systems"]
    page = report_page(report.read_text(encoding="utf-8"))
    rows = page.find("tr", class_="system")
    scored = [s for s in systems if "error" not in s]
    ranked = sorted(scored, key=lambda s: -s["score"])
    assert [row["data-input"] for row in rows] == [s["input"] for s in ranked]
    values = page.values()
    for k, system in enumerate(systems):
        if "error" in system:
            continue
        assert values[f"systems.{k}.score"] == system["score"]
        assert values[f"systems.{k}.precision"] == system["precision"]
        assert values[f"systems.{k}.confidence.ci"] == system["confidence"]["ci"]
        assert values[f"systems.{k}.paired_bootstrap.p_value"] == system["paired_bootstrap"]["p_value"]
    best = ranked[0]["input"]
    assert f"highest score: {best}" in page.text
    assert f"baseline: {inputs[0]}" in page.text
    assert "bad.txt" in page.text and "not scored" in page.text  # the system left out is named
    page.assert_self_contained()


def test_tsv_is_one_row_a_system_or_segment_with_the_jsons_numbers(files, capsys):
    """--format tsv: a header, then a row per system (per segment with --sentence-level) of
    plain numbers, the JSON's own, for a spreadsheet or pandas to read as they are. Before, the
    text output was the only tabular one, its figures in one column ("ParaEval 0.4774 P = ...")."""
    import csv
    import io

    (files / "sys2.txt").write_text("the bombing exploded\n\nthe cats\n", encoding="utf-8")
    base = ["paraeval", "-r", str(files / "r1.txt"), "--resources", "none", "-i", str(files / "hyp.txt"),
            str(files / "sys2.txt")]
    for extra in (["--sentence-level"], ["--paired-bs", "--resamples", "30"]):
        code, out, err = run(capsys, *base, *extra, "--format", "json")
        assert code == 0, err
        systems = json.loads(out)["systems"]
        code, out, err = run(capsys, *base, *extra, "--format", "tsv")
        assert code == 0, err
        rows = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
        if extra == ["--sentence-level"]:
            expected = [{"input": s["input"], **seg} for s in systems for seg in s["segments"]]
            assert [int(row["segment"]) for row in rows] == [seg["segment"] for seg in expected]
        else:
            expected = systems
            assert [row["p_value"] for row in rows] == [
                "" if s["paired_bootstrap"]["p_value"] is None else repr(s["paired_bootstrap"]["p_value"])
                for s in systems]
            assert [float(row["ci"]) for row in rows] == [s["confidence"]["ci"] for s in systems]
        assert [row["input"] for row in rows] == [e["input"] for e in expected]
        for key in ("score", "precision", "recall", "f"):
            assert [float(row[key]) for row in rows] == [e[key] for e in expected]
        assert all(row["signature"] == e["signature"] for row, e in zip(rows, expected, strict=True))


def test_report_of_many_systems_of_the_paper_config_ranks_them_by_f(files, capsys, report_page):
    """The paper config's headline is F (it has no "score"): its page of several systems ranks
    them by F and names the highest F. Before this was caught, the rows kept the -i order and
    the page said "highest score: <the first -i> (n/a)"."""
    (files / "sys2.txt").write_text("the bombing resulted in an explosion\nsomething\nthe cat\n", encoding="utf-8")
    report = files / "paper.html"
    inputs = [str(files / "hyp.txt"), str(files / "sys2.txt")]
    code, out, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "--resources", "none", "--config", "paper",
                         "-i", *inputs, "--format", "json", "--report", str(report))
    assert code == 0, err
    systems = json.loads(out)["systems"]
    assert systems[1]["f"] > systems[0]["f"]
    page = report_page(report.read_text(encoding="utf-8"))
    assert [row["data-input"] for row in page.find("tr", class_="system")] == inputs[::-1]
    assert f"highest F: {inputs[1]} ({systems[1]['f']:.4f})" in page.text


def test_report_of_many_systems_shows_the_columns_they_have(files, capsys, report_page):
    """Without --confidence or --paired-bs the page of several systems has no bootstrap or
    p-value columns (they were there, empty), and the paper config no score column (it has F)."""
    (files / "sys2.txt").write_text("the bombing exploded\n\nthe cats\n", encoding="utf-8")
    report = files / "plain.html"
    for config, absent in (("default", "bootstrap mean"), ("paper", "<th>score</th>")):
        code, _, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "--resources", "none", "--config", config,
                           "-i", str(files / "hyp.txt"), str(files / "sys2.txt"), "--report", str(report))
        assert code == 0, err
        page = report_page(report.read_text(encoding="utf-8"))
        assert absent not in page.source and "p (vs the baseline)" not in page.source
        assert len(page.find("tr", class_="system")) == 2


SACREBLEU_SPELLINGS = ("-ci", "-pbs", "-sl", "-tok", "--confidence-n", "-cin", "--paired-bs-n", "-pbsn",
                       "--paired-ar", "-par", "--paired-ar-n", "-parn", "--paired-jobs", "-j", "--metrics", "-m",
                       "--width", "-w", "--score-only", "-b")


def test_sacrebleus_spellings_of_the_same_options_give_the_same_results_hidden_from_help(tmp_path, capsys):
    """sacrebleu's users type -ci, -pbs, -sl, -tok and --confidence-n/--paired-bs-n N: each was
    "unrecognized arguments". Now each is paralign's option of that meaning (--confidence,
    --paired-bs, --sentence-level, --tokenize, --resamples N), with the same results, and none is
    in --help."""
    d = _systems(tmp_path, 12)
    base = ["paraeval", "-r", str(d / "ref.txt"), "--resources", "none", "--format", "json", "-i", str(d / "close.txt")]
    pairs = [(["-ci", "-cin", "30"], ["--confidence", "--resamples", "30"]),
             (["--confidence", "--confidence-n", "30", "--seed", "3"], ["--confidence", "--resamples", "30", "--seed", "3"]),
             (["-i", str(d / "far.txt"), "-pbs", "-pbsn", "25"], ["-i", str(d / "far.txt"), "--paired-bs", "--resamples", "25"]),
             (["-i", str(d / "far.txt"), "--paired-bs", "--paired-bs-n", "25", "--resamples", "25"],
              ["-i", str(d / "far.txt"), "--paired-bs", "--resamples", "25"]),
             (["-sl"], ["--sentence-level"]),
             (["--config", "paper", "-tok", "none"], ["--config", "paper", "--tokenize", "none"])]
    for sacrebleus, paraligns in pairs:
        code, out, err = run(capsys, *base, *sacrebleus)
        assert code == 0, err
        assert out == run(capsys, *base, *paraligns)[1]
        without = [arg for arg in paraligns if arg not in {"--confidence", "--paired-bs", "--sentence-level",
                                                           "--tokenize", "none", "--resamples", "30", "25"}]
        assert out != run(capsys, *base, *without)[1]  # the spelling did something: paralign's option's
    with pytest.raises(SystemExit):
        main(["paraeval", "--help"])
    shown = capsys.readouterr().out
    assert not [flag for flag in SACREBLEU_SPELLINGS if f"{flag} " in shown or f"{flag}," in shown]


@pytest.mark.parametrize(("given", "message"), [
    (["--paired-ar"], "argument --paired-ar/-par: sacrebleu's option is not paralign's: paralign has no approximate "
                      "randomization test: its paired test is the bootstrap (--paired-bs)"),
    (["-parn", "100"], "its paired test is the bootstrap (--paired-bs, --resamples N)"),
    (["-j", "2"], "argument --paired-jobs/-j: sacrebleu's option is not paralign's: the paired test runs in this "
                  "process; --workers N scores the systems on N Dask workers"),
    (["--paired-bs", "--confidence-n", "50"], "argument --confidence-n/-cin: sacrebleu does not read it with "
                                              "--paired-bs"),
    (["--confidence", "--paired-bs-n", "50"], "argument --paired-bs-n/-pbsn: only matters with --paired-bs (as "
                                              "sacrebleu reads it): add it, or give --resamples N"),
    (["-cin", "50"], "argument --confidence-n/-cin: only matters with --confidence"),
    (["-ci", "--resamples", "60", "-cin", "50"], "--resamples 60 and --confidence-n 50: each sets paralign's one "
                                                 "number of resamples"),
    (["--paired-bs", "-pbsn", "60", "--resamples", "50"], "--resamples 50 and --paired-bs-n 60: each sets"),
    # sacrebleu's -m, -w and -b were "unrecognized arguments", naming nothing of paralign's
    (["-m", "bleu"], "argument --metrics/-m: sacrebleu's option is not paralign's: paraeval scores ParaEval alone "
                     "(sacrebleu scores BLEU, chrF and TER; meta-eval --metrics paraeval,bleu,chrf,ter"),
    (["-w", "2"], "argument --width/-w: sacrebleu's option is not paralign's: the text shows each figure to 4 "
                  "decimals; --format json or tsv gives them whole"),
    (["-b"], "argument --score-only/-b: sacrebleu's option is not paralign's: --format tsv gives the figures alone"),
])
def test_a_sacrebleu_spelling_of_another_meaning_is_a_usage_error_naming_paraligns_option(tmp_path, capsys, given,
                                                                                         message):
    """Where sacrebleu's option means something else here (no AR test; --paired-jobs is not
    --workers; --confidence-n, which sacrebleu does not read with --paired-bs, or counts that
    differ: one would be silently dropped), a usage error naming paralign's option, not the
    other meaning."""
    d = _systems(tmp_path, 8)
    code, _, err = run(capsys, "paraeval", "-r", str(d / "ref.txt"), "--resources", "none", "-i", str(d / "close.txt"),
                       "-i", str(d / "far.txt"), "--config", "paper", *given)
    assert code == 2 and message in err, err


def test_a_table_whose_name_holds_a_bar_is_a_usage_error(files, capsys):
    """``--table t|x.tsv`` ran, exit 0, signed ``res:t|x.tsv#HASH``: read back as ``res:t`` and a
    keyless ``x.tsv#HASH``. Now a usage error naming the option and the file."""
    bar = files / "t|x.tsv"
    bar.write_text(TABLE, encoding="utf-8")
    assert main(["paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"), "--resources", "none",
                 "--table", str(bar)]) == 2
    err = capsys.readouterr().err
    assert f"argument --table: {bar}: the file's name 't|x.tsv' holds '|', which separates a signature's" in err
    assert "copy or link the file under another name" in err


@pytest.mark.parametrize("bad", ["missing.txt", "folder"])
def test_a_system_file_that_cannot_be_opened_is_a_usage_error_before_any_work(tmp_path, capsys, monkeypatch, bad):
    """docs/CLI.md, Exit status: a missing or directory input is exit 2 in every command, as
    ``align MISSING`` and ``similarity --pairs MISSING`` are. Among many -i too: a name typed
    wrong is the command line's mistake, not an item to leave out (an empty, undecodable or
    short system is one: reported and left out), and it is found before the scorer loads."""
    from paralign.metrics.paraeval import scoring

    d = _systems(tmp_path, 4)
    (d / "folder").mkdir()
    monkeypatch.setattr(scoring, "scorer", lambda *a, **k: pytest.fail("the scorer was built"))
    code, out, err = run(capsys, "paraeval", "-r", str(d / "ref.txt"), "-i", str(d / "close.txt"), str(d / bad),
                         "--resources", "none")
    reason = "no such file" if bad == "missing.txt" else "is a directory, not a file"
    assert (code, out, err) == (2, "", f"paralign paraeval: error: {d / bad}: {reason}\n")


def test_references_of_another_length_than_every_system_are_the_error(tmp_path, capsys, monkeypatch):
    """A reference cut short (or empty) beside many -i reported each system ("ref.txt has 2 lines
    but the hypothesis close.txt has 4; not scored") and ended with "none of the 3 systems could
    be scored": the systems blamed for the reference. Two or more systems read, all of one length
    that is not the references', name the references, exit 1, as meta-eval names its reference
    (errors.odd_reference). One system of another length is still its own fault."""
    d = _systems(tmp_path, 4)
    monkeypatch.chdir(d)
    lines = (d / "ref.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    base = ["paraeval", "--resources", "none", "-i", "close.txt", "far.txt", "copy.txt"]
    for text, count in (("".join(lines[:2]), "2 lines"), ("", "0 lines")):
        (d / "short.txt").write_text(text, encoding="utf-8")
        code, out, err = run(capsys, *base, "-r", "short.txt")
        assert (code, out) == (1, "") and "not scored" not in err
        assert err == (f"paralign paraeval: error: short.txt: {count}, but each of the 3 system outputs has 4: "
                       "the reference and the outputs are not of one test set, or one side is cut short\n")
    (d / "short2.txt").write_text("", encoding="utf-8")
    code, out, err = run(capsys, *base, "-r", "short.txt", "-r", "short2.txt")  # each reference named
    assert code == 1 and err.startswith("paralign paraeval: error: short.txt and short2.txt: 0 lines, but ")
    (d / "cut.txt").write_text("".join(lines[:2]), encoding="utf-8")
    code, out, err = run(capsys, "paraeval", "--resources", "none", "-r", "ref.txt", "-i", "close.txt", "cut.txt")
    assert code == 0 and "ref.txt has 4 lines but the hypothesis cut.txt has 2; not scored" in err
    assert [line.split("\t")[0] for line in out.splitlines()] == ["close.txt"]


@pytest.mark.parametrize("char", ["\n", "\r", "\x85"])
def test_a_table_whose_name_holds_a_line_break_is_a_usage_error(files, capsys, char):
    """``--table 't<LF>x.tsv'`` ran, exit 0, and the text output's signature printed ``res:t`` on one
    line and ``x.tsv#HASH|...`` on the next. Now a usage error naming the option, the file and the
    character, as a name holding ``|`` is."""
    broken = files / f"t{char}x.tsv"
    broken.write_text(TABLE, encoding="utf-8")
    assert main(["paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"), "--resources", "none",
                 "--table", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "argument --table: " in err  # the path shown as the error printer shows control characters
    assert f": the file's name {broken.name!r} holds {char!r}, a line break" in err


@pytest.mark.parametrize("config", ["default", "paper"])
def test_a_table_of_no_paraphrase_is_warned_of_naming_it(files, capsys, config):
    """``paraeval --table EMPTY`` (a file of no row, a header alone, or no row scoring its
    threshold) scored as without the table, silently: a user who gave a table expects it used.
    Now a warning names each such table as given (stdin as <stdin>); the scores are those without
    it, as before, and a table with rows gives none."""
    (files / "empty.tsv").write_text("", encoding="utf-8")
    (files / "header.tsv").write_text("# phrase\tparaphrase\tscore\n", encoding="utf-8")
    (files / "scored.tsv").write_text("cat\tfeline\t0.3\n", encoding="utf-8")
    code, out, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"),
                         "--config", config, "--resources", "none", "--table", str(files / "empty.tsv"),
                         "--table", str(files / "header.tsv"), "--table", f"{files / 'scored.tsv'}:0.5",
                         "--table", str(files / "t.tsv"), "--format", "json")
    assert code == 0
    assert err.splitlines() == [
        f"paralign: warning: --table {files / 'empty.tsv'}: the table holds no paraphrase: scored as without it",
        f"paralign: warning: --table {files / 'header.tsv'}: the table holds no paraphrase: scored as without it",
        f"paralign: warning: --table {files / 'scored.tsv'}:0.5: the table holds no paraphrase scoring >= 0.5: "
        "scored as without it"]
    alone = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"), "--config", config,
                "--resources", "none", "--table", str(files / "t.tsv"), "--format", "json")
    assert alone[2] == "" and json.loads(alone[1])["f"] == json.loads(out)["f"]


@pytest.mark.parametrize("config", ["default", "paper"])
def test_blank_references_are_n_a_with_a_warning_saying_why(files, capsys, config):
    """A reference blank on every line gave ``R = 0.0000`` (the graded configs' score and F 0
    too), silently; a segment whose every reference is blank too. Now the text says n/a, the
    JSON null, under every config, and a warning names the file and the blank lines (sacrebleu
    scores such references 0 without a word). The warning names the figures the config shows:
    the paper config has no score (F is its headline), and its warning said "score" too."""
    figures = "recall, F and the score are" if config == "default" else "recall and F are"
    (files / "blank.txt").write_text("\n \n\n", encoding="utf-8")
    code, out, err = run(capsys, "paraeval", "-r", str(files / "blank.txt"), "-i", str(files / "hyp.txt"),
                         "--config", config, "--resources", "none")
    assert code == 0 and "R = n/a F = n/a\t" in out and "P = 0.0000" in out
    assert out.startswith("ParaEval n/a P" if config == "default" else "ParaEval P")
    assert err == (f"paralign: warning: {files / 'blank.txt'}: every reference line is blank: {figures} "
                   "n/a (no reference word to match)\n")
    code, out, err = run(capsys, "paraeval", "-r", str(files / "blank.txt"), "-i", str(files / "hyp.txt"),
                         "--config", config, "--resources", "none", "--format", "json", "--sentence-level")
    result = json.loads(out)
    assert result["corpus"]["recall"] is None and result["corpus"]["f"] is None
    assert [s["recall"] for s in result["segments"]] == [None, None, None]
    (files / "some.txt").write_text("the cat\n\nthe cat\n", encoding="utf-8")
    (files / "other.txt").write_text("a cat\n \nthe dog\n", encoding="utf-8")
    code, out, err = run(capsys, "paraeval", "-r", str(files / "some.txt"), "-r", str(files / "other.txt"),
                         "-i", str(files / "hyp.txt"), "--config", config, "--resources", "none", "--sentence-level")
    assert code == 0 and [line.split("\t")[1].count("n/a") for line in out.splitlines()] == [0, 2 + (config == "default"), 0]
    assert err == (f"paralign: warning: {files / 'some.txt'} and {files / 'other.txt'}: 1 segment of 3 has no "
                   f"reference word (blank: line 2): its {figures.replace(' the ', ' ')} n/a; the corpus figures count its "
                   "hypothesis words in the precision alone\n")


def test_sacrebleus_f_is_format_hidden_from_help(files, capsys):
    """sacrebleu's ``-f json`` (its ``--format``) was "unrecognized arguments"; it is paralign's
    --format now, with its choices (sacrebleu's latex is none of them: a usage error naming
    them), and not in --help, as sacrebleu's other spellings."""
    base = ["paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"), "--resources", "none"]
    for fmt in ("json", "tsv", "text"):
        assert run(capsys, *base, "-f", fmt)[:2] == run(capsys, *base, "--format", fmt)[:2]
    with pytest.raises(SystemExit):
        main([*base, "-f", "latex"])
    assert "argument -f: invalid choice: 'latex' (choose from 'text', 'json', 'tsv')" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["paraeval", "--help"])
    assert "-f " not in capsys.readouterr().out


def test_none_beside_a_source_in_resources_is_a_usage_error(files, capsys):
    """``--resources none,ppdb`` scored with PPDB, silently, though none says no built-in source:
    which was meant is not known. Now a usage error naming both, from the library's
    build_sources (so ``meta-eval`` and ``scorer(resources=...)`` refuse it too); none alone is
    as before, and an empty item beside it (``none,``), once dropped silently, is the usage error of
    every list option (tests/cli/test_lists.py)."""
    from paralign.errors import ConfigurationError
    from paralign.metrics.paraeval import scorer

    base = ["paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt")]
    code, _, err = run(capsys, *base, "--resources", "none,ppdb")
    assert code == 2 and err == ("paralign paraeval: error: argument --resources: 'none' (no built-in source) given with "
                                 "'ppdb': give 'none' alone, or the sources without it\n")
    assert "res:none|" in run(capsys, *base, "--resources", "none")[1]
    assert run(capsys, *base, "--resources", "none,")[2].startswith(
        "paralign paraeval: error: argument --resources: 'none,' has an empty item (item 2 of 2)")
    with pytest.raises(ConfigurationError, match="'none' .* given with 'wordnet'"):
        scorer("paper", resources=["wordnet", "none"])


def test_a_segment_with_blank_references_has_a_null_score_on_the_report(files, capsys, report_page):
    """A segment whose every reference is blank shows ``score n/a`` on the default config's
    report, but its section said ``data-score="nan"``: no JSON and no number to a reader of the
    page's data. Now ``null``, as the JSON output and the score cells' ``data-value`` say n/a."""
    (files / "some.txt").write_text("the cat\n\nthe cat\n", encoding="utf-8")
    report = files / "blank.html"
    code, out, err = run(capsys, "paraeval", "-r", str(files / "some.txt"), "-i", str(files / "hyp.txt"),
                         "--resources", "none", "--format", "json", "--sentence-level", "--report", str(report))
    assert code == 0, err
    segments = json.loads(out)["segments"]
    sections = report_page(report.read_text(encoding="utf-8")).find("section", class_="segment")
    assert [json.loads(s["data-score"]) for s in sections] == [seg["score"] for seg in segments]
    assert sections[1]["data-score"] == "null" and segments[1]["score"] is None


@pytest.mark.parametrize("command", ["paraeval", "meta-eval"])
def test_a_table_on_stdin_with_a_threshold_may_follow_the_flag_as_its_own_argument(files, capsys, monkeypatch,
                                                                                    command):
    """``--table -:0.5`` reads as ``--table=-:0.5``: argparse took ``-:0.5`` for an option ("argument
    --table: expected one argument"), though no option starts ``-:``."""
    import io

    scored = "blown up\tbombing\t0.9\nblown up\texplosion\t0.2\n"
    argv = ["paraeval", "-r", str(files / "r1.txt"), "-i", str(files / "hyp.txt"), "--resources", "none",
            "--config", "paper", "--format", "json"]
    if command == "meta-eval":  # the parse alone: its --table is the same option
        argv = ["meta-eval", "--wmt", str(files / "missing"), "--pair", "cs-en"]  # refused after the parse
    outputs = []
    for table in (["--table=-:0.5"], ["--table", "-:0.5"]):
        monkeypatch.setattr("sys.stdin", io.StringIO(scored))
        try:
            code, out, err = run(capsys, *argv, *table)
        except SystemExit as exc:
            code, (out, err) = exc.code, capsys.readouterr()
        assert "expected one argument" not in err
        outputs.append((code, out, err))
    assert outputs[0] == outputs[1]
    if command == "paraeval":
        assert outputs[0][0] == 0 and json.loads(outputs[0][1])["precision"] < 1
    else:
        assert "argument --wmt" in outputs[0][2]


def test_only_a_long_options_value_starting_with_dash_colon_is_joined_to_it() -> None:
    from paralign.cli._command_line import values_joined

    assert values_joined(["paraeval", "--table", "-:0.5", "-i", "-", "--table", "t.tsv"]) == [
        "paraeval", "--table=-:0.5", "-i", "-", "--table", "t.tsv"]
    assert values_joined(["x", "--table=a", "-:1", "-t", "-:2", "--", "--y", "-:3"]) == [
        "x", "--table=a", "-:1", "-t", "-:2", "--", "--y", "-:3"]


@pytest.mark.parametrize(("argv", "said"), [
    (["-i", "-", "-"], "'-' is given to -i twice"),  # it said "(-i, -)": -i's second value named as an option '-'
    (["-i", "-", "-i", "/dev/stdin"], "'-' is given to -i twice"),
    (["-r", "-", "-i", "-", "-"], "'-' is given 3 times: to -r and -i twice"),
    (["-r", "-"], "'-' is given twice: to -i (stdin when not given) and -r"),  # it said "(--input, --reference)"
    (["--table=-:0.5"], "'-' is given twice: to -i (stdin when not given) and --table"),
])
def test_stdin_given_twice_names_each_option_as_given_and_how_often(files, capsys, argv, said):
    code, out, err = run(capsys, "paraeval", "-r", str(files / "r1.txt"), "--resources", "none", *argv)
    assert code == 2 and out == ""
    assert f"paralign paraeval: error: stdin can be read only once, but {said}\n" == err

