"""`paralign demo` on bad or empty example folders."""

from __future__ import annotations

import json
from pathlib import Path

from paralign.cli import main

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo"


def test_demo_empty_gold_names_the_file(tmp_path: Path, capsys) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n", encoding="utf-8")
    assert main(["demo", "--examples", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"paralign demo: error: {gold}: no pairs" in err


def test_demo_bad_gold_line_is_reported_and_the_rest_scored(tmp_path: Path, capsys) -> None:
    lines = (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([lines[0], '{"id": "broken", "source": "x"', lines[1]]) + "\n",
                    encoding="utf-8")
    assert main(["demo", "--examples", str(tmp_path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert len(result["pairs"]) == 2 and result["scores"]["pairs"] == 2
    assert result["scores"]["skipped_rows"][0]["pair"] == 2
    # the reader names an unreadable line by its number, and the record carries that id
    assert result["scores"]["skipped_rows"][0]["id"] == "2"
    assert f"{gold}:2: invalid JSON" in captured.err and "pair 2 (gold '2') skipped" in captured.err


def test_demo_every_gold_line_bad_is_an_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "gold.jsonl").write_text("{oops\n[1]\n", encoding="utf-8")
    assert main(["demo", "--examples", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no pair could be scored: all 2" in err and "gold.jsonl:1: invalid JSON" in err


def test_demo_report_is_written_and_its_path_printed(tmp_path: Path, capsys, report_page) -> None:
    report = tmp_path / "demo.html"
    assert main(["demo", "--format", "json", "--report", str(report)]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert str(report.resolve()) in captured.err
    page = report_page(report.read_text(encoding="utf-8"))
    assert len(page.find("section", class_="pair")) == len(result["pairs"])
    values = page.values()
    assert values["macro.f1"] == result["scores"]["macro"]["f1"] and "align_seconds" not in values
    page.assert_self_contained()


def test_demo_report_shows_the_aligners_signature(tmp_path: Path, capsys, report_page) -> None:
    """The report's signature line named nothing (``signature:`` and an empty code): the demo
    gave its report no signature. It is now the aligner's, with the gold links counted."""
    report = tmp_path / "demo.html"
    assert main(["demo", "--report", str(report)]) == 0
    capsys.readouterr()
    page = report_page(report.read_text(encoding="utf-8"))
    codes = [node.text or "" for node in page.root.iter("code")]
    signature = next(text for text in codes if text.startswith("aligner:"))
    assert "aligner:sultan:default" in signature and "gold:sure" in signature
    assert "" not in codes


def test_a_gold_line_without_sentences_is_a_bad_line_not_an_empty_pair(tmp_path: Path, capsys) -> None:
    """A gold line with no 'source' and 'target' (`{"a": 1}`, a links-only record) was aligned
    and scored as an empty pair ('id': '1', 'source': '', exit 0, 'pairs': 1): the demo aligns
    sentences, so it is now a bad gold line, named and left out, the others scored; a gold of
    only such lines is exit 1."""
    first = (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()[0]
    gold = tmp_path / "gold.jsonl"
    one_side = '{"id": "one", "source": "A dog barks .", "target": "", "sure": ""}'
    gold.write_text("\n".join([first, '{"a": 1}', '{"id": "links", "sure": "0-0"}', one_side]) + "\n",
                    encoding="utf-8")
    assert main(["demo", "--examples", str(tmp_path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert [pair["id"] for pair in result["pairs"]] == ["demo-1"] and result["scores"]["pairs"] == 1
    assert [row["pair"] for row in result["scores"]["skipped_rows"]] == [2, 3, 4]
    assert f"{gold}:2: no source or target sentence (links only): the demo aligns both sentences" in captured.err
    # one empty side: skipped as evaluate-aligner skips it (corpora.base.with_sentences), no longer aligned
    assert f"{gold}:4: empty target sentence: the demo aligns both sentences" in captured.err
    gold.write_text('{"a": 1}\n', encoding="utf-8")
    assert main(["demo", "--examples", str(tmp_path)]) == 1
    assert "no pair could be scored" in capsys.readouterr().err


def test_the_scores_are_signed_with_the_aligner_as_evaluate_aligner_signs_them(capsys) -> None:
    """`demo --format json` signed its scores `gold:sure|possible:gold|version:...`: no aligner,
    no word-similarity source, no spaCy model (only its --report page had them), and its text
    printed no signature. They are the scores `evaluate-aligner --gold` gives for the same gold,
    and now carry the same signature, in JSON and on the text's last line."""
    gold = str(DEMO / "gold.jsonl")
    assert main(["evaluate-aligner", "--gold", gold, "--format", "json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert main(["demo", "--examples", str(DEMO), "--format", "json"]) == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    assert scores["signature"] == expected["signature"] and scores["signature"].startswith("aligner:sultan:")
    assert (scores["macro"], scores["micro"]) == (expected["macro"], expected["micro"])
    assert main(["demo", "--examples", str(DEMO)]) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines()[-1] == f"signature: {expected['signature']}"


def test_examples_given_the_gold_file_itself_reads_it(tmp_path: Path, capsys) -> None:
    """`--examples DIR/gold.jsonl` (the file, not its folder) was 'DIR/gold.jsonl/gold.jsonl:
    demo gold not found': the file is read as the gold, under any name."""
    lines = (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    gold = tmp_path / "mine.jsonl"
    gold.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["demo", "--examples", str(gold), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"]["pairs"] == 2
    assert main(["demo", "--examples", str(tmp_path / "absent")]) == 2
    assert f"{tmp_path / 'absent'}: no such file or folder (--examples: " in capsys.readouterr().err


def test_examples_say_what_is_wrong_with_the_gold(tmp_path: Path, capsys) -> None:
    """A gold.jsonl that is a directory was "demo gold not found", as if the folder had none;
    a missing --examples was named as its gold.jsonl ("absent/gold.jsonl: demo gold not found").
    Each says what is wrong, exit 2 as for every input that cannot be opened, in the readers' words
    (a folder without gold.jsonl: "no such file", not "demo gold not found")."""
    (tmp_path / "odd" / "gold.jsonl").mkdir(parents=True)
    (tmp_path / "none").mkdir()
    for given, message in ((tmp_path / "odd", f"{tmp_path / 'odd' / 'gold.jsonl'}: is a directory, not a file\n"),
                           (tmp_path / "none", f"{tmp_path / 'none' / 'gold.jsonl'}: no such file (--examples: "),
                           (tmp_path / "absent", f"{tmp_path / 'absent'}: no such file or folder (--examples: ")):
        assert main(["demo", "--examples", str(given)]) == 2
        assert capsys.readouterr().err.startswith(f"paralign demo: error: {message}")


def test_the_report_names_the_gold_file_given(tmp_path: Path, capsys) -> None:
    """`--examples FILE --report R` named the gold `FILE/gold.jsonl` in the report, a file that is
    not there: the report joined gold.jsonl to --examples whatever it named."""
    gold = tmp_path / "mine.jsonl"
    gold.write_text("\n".join((DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()[:2]) + "\n",
                    encoding="utf-8")
    report = tmp_path / "r.html"
    assert main(["demo", "--examples", str(gold), "--report", str(report)]) == 0
    capsys.readouterr()
    page = report.read_text(encoding="utf-8")
    assert f"{gold} · " in page and "mine.jsonl/gold.jsonl" not in page


def test_the_gold_path_is_resolved_once_for_the_scores_and_the_report(tmp_path: Path, capsys,
                                                                      monkeypatch) -> None:
    """`demo --report` resolved --examples to its gold file twice, once to score it and again to
    name it in the report: two looks at the disk that could disagree. It is resolved once, and
    the report names the file that was scored."""
    from paralign.cli import demo

    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join((DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()[:1]) + "\n",
                    encoding="utf-8")
    calls: list[str] = []
    resolve = demo.gold_file

    def counted_gold_file(examples: str | Path) -> Path:
        calls.append(str(examples))
        return resolve(examples)

    monkeypatch.setattr(demo, "gold_file", counted_gold_file)
    report = tmp_path / "r.html"
    assert main(["demo", "--examples", str(tmp_path), "--report", str(report), "--format", "json"]) == 0
    capsys.readouterr()
    assert calls == [str(tmp_path)]
    assert f"{gold} · " in report.read_text(encoding="utf-8")


def test_examples_read_the_gold_from_stdin(tmp_path: Path, capsys, monkeypatch) -> None:
    """`--examples -` took '-' for a folder ("-: no such file or folder"), though --examples takes
    a gold JSONL file and every input may be '-' (docs/CLI.md, Files). The gold is read from stdin
    once, scored as the same file by path, and named <stdin> in the warnings and the report."""
    import io
    import sys
    import tempfile

    lines = (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([lines[0], "{oops", lines[1]]) + "\n", encoding="utf-8")
    assert main(["demo", "--examples", str(gold), "--format", "json"]) == 0
    by_path = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(gold.read_bytes()), encoding="utf-8"))
    report = tmp_path / "r.html"
    assert main(["demo", "--examples", "-", "--format", "json", "--report", str(report)]) == 0
    captured = capsys.readouterr()
    from_stdin = json.loads(captured.out)
    assert from_stdin["pairs"] == by_path["pairs"]
    assert from_stdin["scores"]["signature"] == by_path["scores"]["signature"]
    assert from_stdin["scores"]["skipped_rows"][0]["pair"] == 2
    assert "<stdin>:2: invalid JSON" in captured.err and str(tmp_path) not in captured.err.replace(str(report), "")
    page = report.read_text(encoding="utf-8")
    assert "&lt;stdin&gt; · " in page and tempfile.gettempdir() not in page  # not stdin's copy


def test_the_text_shows_a_golds_control_characters_as_escapes(tmp_path: Path, capsys) -> None:
    """The demo's listing wrote a gold's id and words as they came: an RLO reordered the rest of
    the line, ESC drove the terminal, a tab split the word pairs. It shows them as `align --format
    pretty` shows a token (escapes); JSON keeps the exact text."""
    record = {"id": "p\x1b[2J", "source": "The r\u202el cat", "target": "The r\u202el cat",
              "sure": [[0, 0], [1, 1], [2, 2]]}
    (tmp_path / "gold.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert main(["demo", "--examples", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "\x1b" not in text and "\u202e" not in text, text
    assert text.startswith("[p\\x1b[2J]\n  S: The r\\u202el cat\n  T: The r\\u202el cat\n"), text
    assert "r\\u202el=r\\u202el" in text
    assert main(["demo", "--examples", str(tmp_path), "--format", "json"]) == 0
    pair = json.loads(capsys.readouterr().out)["pairs"][0]
    assert pair["id"] == record["id"] and pair["source"] == record["source"]
