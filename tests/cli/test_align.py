"""CLI: paralign align / evaluate-aligner / tune-aligner / demo (thin wrappers, small inputs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paralign.cli import main
from paralign.corpora.sentence_pairs import read_input_pairs, read_parallel
from paralign.errors import MismatchError

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo"


def test_read_pairs_reports_bad_lines() -> None:
    lines = ["a b\tc d\n", "no tab here\n", "\n", '{"source": "x", "target": ["y"]}\n', "{oops\n",
             "id7\ta\tb\n"]
    pairs = list(read_input_pairs(lines, tokenized=True))
    assert [p.error is None for p in pairs] == [True, False, False, True, False, True]
    assert pairs[0].source == ["a", "b"] and pairs[3].target == ["y"] and pairs[5].id == "id7"
    assert pairs[1].line == 2 and "tab" in pairs[1].error
    with pytest.raises(MismatchError):
        list(read_parallel(["a\n", "b\n"], ["c\n"]))


def test_align_tsv_keeps_line_positions(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.tsv"
    src.write_text("The cat sat .\tThe cat sat down .\nbroken line\nDogs bark .\tDogs bark .\n",
                   encoding="utf-8")
    assert main(["align", str(src), "--tokenized"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.split("\n")
    assert lines[1] == "" and "0-0" in lines[2] and "1-1" in lines[0]
    assert "in.tsv:2:" in captured.err


def test_align_parallel_files_json(tmp_path: Path, capsys) -> None:
    (tmp_path / "s.txt").write_text("Zoë lives in Zürich .\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("Zoë resides in Zürich .\n", encoding="utf-8")
    assert main(["align", "--source", str(tmp_path / "s.txt"), "--target", str(tmp_path / "t.txt"),
                 "--tokenized", "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert ["Zoë", "Zoë"] in record["pairs"] and ["Zürich", "Zürich"] in record["pairs"]


def test_evaluate_and_tune_on_demo_gold(capsys) -> None:
    gold = str(DEMO / "gold.jsonl")
    assert main(["evaluate-aligner", "--gold", gold, "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("macro", "micro", "exact", "aer", "annotate_seconds", "align_seconds", "pairs_per_second"):
        assert key in result
    assert result["pairs"] == 6 and result["macro"]["f1"] > 0.8
    assert main(["tune-aligner", "--gold", gold, "--ppdb-grid", "0.5,0.9", "--w-grid", "0.9",
                 "--format", "json"]) == 0
    tuned = json.loads(capsys.readouterr().out)
    assert len(tuned["grid"]) == 2 and tuned["best"]["f1"] >= result["macro"]["f1"] - 1e-9


def test_evaluate_and_tune_skip_a_bad_gold_line(tmp_path: Path, capsys) -> None:
    lines = (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([lines[0], '{"id": "broken", "source": "A b ."', *lines[1:3]]) + "\n", encoding="utf-8")
    assert main(["evaluate-aligner", "--gold", str(gold), "--format", "json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["pairs"] == 3 and result["skipped"] == 1
    assert result["skipped_rows"][0]["pair"] == 2 and result["skipped_rows"][0]["line"] == 2
    assert f"{gold}:2:" in captured.err and "pair 2" in captured.err
    assert main(["tune-aligner", "--gold", str(gold), "--ppdb-grid", "0.9", "--w-grid", "0.9", "--format", "json"]) == 0
    captured = capsys.readouterr()
    tuned = json.loads(captured.out)
    assert tuned["pairs"] == 3 and tuned["skipped"] == 1 and f"{gold}:2:" in captured.err
    gold.write_text('{"id": "broken"\n', encoding="utf-8")
    assert main(["evaluate-aligner", "--gold", str(gold)]) == 1
    assert "no usable pairs" in capsys.readouterr().err


def test_demo_runs(capsys) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "macro" in out and "Zürich=Zürich" in out


def test_align_paper_preset_and_context_links(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.tsv"
    src.write_text('" I sneezed loudly .\t" I wrote a poem .\n', encoding="utf-8")
    assert main(["align", str(src), "--tokenized"]) == 0
    assert "0-0" in capsys.readouterr().out.split()  # sentence-start extension
    assert main(["align", str(src), "--tokenized", "--paper"]) == 0
    assert "0-0" not in capsys.readouterr().out.split()
    assert main(["align", str(src), "--context-links", "-1"]) != 0
    assert "--context-links" in capsys.readouterr().err
    assert main(["align", str(src), "--tokenized", "--preset", "paper"]) == 0
    assert "0-0" not in capsys.readouterr().out.split()
    assert main(["align", str(src), "--paper", "--preset", "paraphrase"]) != 0
    assert "contradicts" in capsys.readouterr().err
    verbs = tmp_path / "verbs.tsv"
    verbs.write_text("Rebels ambushed the convoy .\tRebels raided the convoy .\n", encoding="utf-8")
    assert main(["align", str(verbs), "--tokenized"]) == 0
    assert "1-1" not in capsys.readouterr().out.split()
    assert main(["align", str(verbs), "--tokenized", "--preset", "paraphrase"]) == 0
    assert "1-1" in capsys.readouterr().out.split()
    assert main(["align", str(verbs), "--tokenized", "--preset", "paraphrase", "--context-links", "0"]) == 0
    assert "1-1" not in capsys.readouterr().out.split()


def test_limit_must_be_positive(capsys) -> None:
    from paralign.aligners.evaluation import load_gold
    from paralign.errors import ConfigurationError

    gold = str(DEMO / "gold.jsonl")
    for command in ("evaluate-aligner", "tune-aligner"):
        for value in ("0", "-1"):
            with pytest.raises(SystemExit):
                main([command, "--gold", gold, "--limit", value])
            assert "--limit" in capsys.readouterr().err
    for limit in (0, -1):
        with pytest.raises(ConfigurationError, match="limit"):
            load_gold(gold, limit)
    assert len(load_gold(gold, 1)) == 1 and len(load_gold(gold)) == 6


def test_tune_aligner_does_not_offer_fixed_parameters(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["tune-aligner", "--help"])
    help_text = capsys.readouterr().out
    assert "--ppdb-grid" in help_text and "--ppdb-sim" not in help_text
    assert "--w " not in help_text and "--w W" not in help_text
    with pytest.raises(SystemExit):
        main(["tune-aligner", "--gold", str(DEMO / "gold.jsonl"), "--ppdb-sim", "0.5"])


def test_align_help_says_json_lines(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["align", "--help"])
    assert "JSON Lines, one object per pair" in " ".join(capsys.readouterr().out.split())


def test_bad_field_count_message_mentions_three_fields() -> None:
    pair = next(read_input_pairs(["a\tb\tc\td\n"]))
    assert pair.error is not None and "or 3" in pair.error and "got 4" in pair.error


def test_empty_sentences_are_reported(tmp_path: Path, capsys) -> None:
    pairs = list(read_input_pairs(["a\t\n", '{"source": "x", "target": []}\n', "a\tb\n"]))
    assert [p.error for p in pairs] == ["empty target sentence", "empty target sentence", None]
    (tmp_path / "s.txt").write_text("Dogs bark .\n\nCats sleep .\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("Dogs bark .\nBirds sing .\n\n", encoding="utf-8")
    assert main(["align", "--source", str(tmp_path / "s.txt"), "--target", str(tmp_path / "t.txt"),
                 "--tokenized", "--similarity", "none"]) == 0
    captured = capsys.readouterr()
    assert captured.out.split("\n")[1:3] == ["", ""] and "0-0" in captured.out.split("\n")[0]
    assert "s.txt:2: empty line" in captured.err and "t.txt:3: empty line" in captured.err
    (tmp_path / "e.txt").write_text("\n", encoding="utf-8")
    assert main(["align", "--source", str(tmp_path / "e.txt"), "--target", str(tmp_path / "e.txt"),
                 "--similarity", "none"]) == 1  # every item bad
