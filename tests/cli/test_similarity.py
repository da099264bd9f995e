"""CLI: `paralign similarity` reading its inputs (tables, STS and MSRP files, JSONL, numbered
lines, gold alignment files, bad lines) and scoring and signing them (exact-match aligner: fast).

A trained report (`--model`) is tests/cli/test_similarity_trained.py's; `evaluate-sts` and
`evaluate-paraphrase` on the shared data and stdin are tests/cli/test_similarity_evaluators.py's."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from paralign.aligners.exact import exact_match_aligner
from paralign.cli import main
from paralign.corpora.sentence_pairs import read_sentence_pairs, sentences_from_file
from paralign.errors import ConfigurationError
from paralign.similarity import evaluate_sts_files, similarity


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


def _sides_renamed(reason: str) -> str:
    """align's reason for a bad line, its sides named as similarity names them (first, second)."""
    return (reason.replace("a tab after the target?", "a tab after the second sentence?")
            .replace("source", "first").replace("target", "second"))


def test_align_and_similarity_say_one_thing_of_each_bad_line(tmp_path, capsys):
    """The same bad line of pairs is one message from align and from similarity, naming the file
    and line (one reader, corpora.sentence_pairs.parse_tsv_line), but for the names of its sides:
    align's source and target, similarity's first and second, as evaluate-sts and
    evaluate-paraphrase name them. Before, similarity had a reader
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
    assert sorted(aligned) == list(range(2, 12)) and scored == {n: _sides_renamed(r) for n, r in aligned.items()}
    assert [line == "NA" for line in out.splitlines()] == [0 < n < 11 for n in range(12)]
    assert aligned[2] == "4 fields, expected 2 TAB-separated sentences (source, target) or 3 fields (id, source, target)"
    assert aligned[6] == "empty target sentence" and aligned[8] == "empty source sentence"
    assert aligned[10] == "empty line" and "too long" in aligned[11] and "CSV" in aligned[4]
    assert scored[2] == "4 fields, expected 2 TAB-separated sentences (first, second) or 3 fields (id, first, second)"
    assert scored[6] == "empty second sentence" and scored[8] == "empty first sentence"
    assert scored[9] == "empty second sentence (3 fields read as id, first, second: a tab after the second sentence?)"
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


@pytest.mark.parametrize("name", ["gold.tsv", "gold.json", "gold.giza.txt", "gold.jsonl", "gold.sts.tsv"])
def test_a_gold_file_on_stdin_is_read_as_the_file_is(name, tmp_path, capsys, monkeypatch):
    """A gold alignment file was told as one only by its path: on stdin (`--pairs -`, `cat gold.tsv |`)
    every line of a MultiMWA, jacana or GIZA file was a bad line. Now stdin is read as a file with
    the same content: the same scores, ids, signature and notes (but for the name), and any other
    input still read as it was."""
    if name == "gold.sts.tsv":  # an STS file on stdin: not a gold file, read line by line as before
        path = tmp_path / name
        path.write_text("4.0\tA man plays.\tA man plays.\n1.0\tCats sleep.\tDogs bark.\n", encoding="utf-8")
    else:
        path = GOLD_EXAMPLES / name
    argv = ["similarity", "--aligner", "exact", "--pairs"]
    want, want_err = run_json(capsys, [*argv, str(path)])
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes()), encoding="utf-8"))
    got, err = run_json(capsys, [*argv, "-"])
    assert got["scores"] == want["scores"] and got.get("ids") == want.get("ids") and None not in got["scores"]
    assert got["signature"] == want["signature"]
    assert got["notes"] == [note.replace(str(path), "<stdin>") for note in want["notes"]]
    assert err == want_err.replace(str(path), "<stdin>")


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
