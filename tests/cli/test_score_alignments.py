"""`paralign score-alignments` end to end through `paralign.cli.main`."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from paralign.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "alignment"
GOLD = str(EXAMPLES / "gold.json")
SYSTEM = str(EXAMPLES / "system.pharaoh")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["score-alignments", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output(capsys) -> None:
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["pairs"] == 3 and result["exact_count"] == 1
    assert result["macro"]["precision"] == pytest.approx((6 / 7 + 4 / 5 + 1) / 3)
    assert result["micro"] == pytest.approx({"precision": 14 / 16, "recall": 14 / 16, "f1": 14 / 16})
    assert result["aer"] == pytest.approx(1 - (14 + 16) / (16 + 16))
    for key in ("macro", "micro"):
        assert all(0 <= v <= 1 for v in result[key].values())


def test_text_output_and_gold_links(capsys) -> None:
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM)
    assert code == 0 and "macro" in out and "88.6" in out
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--gold-links", "sure+possible",
                       "--format", "json")
    result = json.loads(out)
    assert result["links"] == "sure+possible" and result["gold_links"] == 22


@pytest.mark.parametrize("gold", ["gold.jsonl", "gold.giza.txt", "gold.tsv", "gold.sure+poss.json"])
def test_every_gold_format_gives_the_same_scores(capsys, gold: str) -> None:
    _, reference, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--format", "json",
                          "--gold-links", "sure+possible")
    _, out, _ = run(capsys, "--gold", str(EXAMPLES / gold), "--system", SYSTEM, "--format", "json",
                    "--gold-links", "sure+possible")
    result, expected = json.loads(out), json.loads(reference)
    # the scores are the same; the signature says where each took its possible links from
    possible = result.pop("signature").split("|")[1]
    reference_possible = expected.pop("signature").split("|")[1]
    assert reference_possible.startswith("possible:gold.sure+poss.json#")  # gold.json's companion
    # the jacana sure+poss file is read with its companion gold.sure.json, as gold.json is
    assert possible == (reference_possible if gold.endswith(".json") else "possible:gold")
    assert result == expected


def test_system_from_stdin_and_output_file(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(Path(SYSTEM).read_text(encoding="utf-8")))
    target = tmp_path / "scores.json"
    code, out, _ = run(capsys, "--gold", GOLD, "--format", "json", "-o", str(target))
    assert code == 0 and out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["exact_count"] == 1


def test_lower_cased_jacana_system(capsys) -> None:
    code, out, _ = run(capsys, "--gold", GOLD, "--system", str(EXAMPLES / "system.json"),
                       "--format", "json")
    assert code == 0 and json.loads(out)["exact_count"] == 1


def test_pair_count_mismatch_names_both_files(capsys, tmp_path: Path) -> None:
    short = tmp_path / "short.pharaoh"
    short.write_text("0-0\n1-1\n", encoding="utf-8")
    code, _, err = run(capsys, "--gold", GOLD, "--system", str(short))
    assert code == 1
    assert "short.pharaoh has 2 pairs" in err and "gold.json has 3" in err


def test_malformed_link_is_reported_and_the_rest_scored(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pharaoh"
    bad.write_text("0-0\n0-3 1-x\n0-0\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", GOLD, "--system", str(bad), "--system-format", "pharaoh",
                         "--format", "json", "--per-pair")
    assert code == 0 and f"{bad}:2:" in err and "'1-x'" in err and "pair 2 (gold 'ex2') skipped" in err
    result = json.loads(out)
    assert result["pairs"] == 2 and result["skipped"] == 1
    assert result["skipped_rows"] == [{"pair": 2, "id": "ex2", "file": str(bad), "line": 2,
                                       "reason": "malformed link '1-x' (expected i-j, i?j or ipj)"}]
    assert [p["pair"] for p in result["per_pair"]] == [1, 3]  # pair 3 still meets gold pair 3


def test_index_outside_sentence_is_reported_and_the_rest_scored(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "far.pharaoh"
    bad.write_text("0-0\n0-3\n0-0 9-9\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", GOLD, "--system", str(bad))
    assert code == 0 and f"{bad}:3:" in err and "9-9" in err and "outside" in err
    assert "pairs: 2 (1 skipped)" in out


def test_bad_gold_line_drops_the_pair_on_both_sides(capsys, tmp_path: Path) -> None:
    lines = (EXAMPLES / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([lines[0], '{"id": "broken", "source": "x"', *lines[1:]]) + "\n",
                    encoding="utf-8")
    system = tmp_path / "sys.pharaoh"
    reference = Path(SYSTEM).read_text(encoding="utf-8").splitlines()
    system.write_text("\n".join([reference[0], "0-0", *reference[1:]]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--format", "json")
    assert code == 0 and f"{gold}:2: invalid JSON" in err
    _, expected, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--format", "json")
    result, expected = json.loads(out), json.loads(expected)
    assert result["skipped"] == 1 and result["skipped_rows"][0]["file"] == str(gold)
    for key in ("pairs", "macro", "micro", "exact_count", "aer"):
        assert result[key] == expected[key]


def test_every_pair_bad_is_an_error(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pharaoh"
    bad.write_text("0-0 x\n1-y\n2-z\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", GOLD, "--system", str(bad), "--system-format", "pharaoh")
    assert code == 1 and out == ""
    assert "error:" in err and "no pair could be scored: all 3" in err and f"{bad}:1:" in err


def test_stdin_is_named_stdin_in_messages(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("0-0\n0-3 x-4\n0-0\n"))
    code, _, err = run(capsys, "--gold", GOLD)
    # the message names stdin itself, not a temporary copy of it (asserted on the message's own
    # words, so a checkout path containing "tmp" cannot fail it)
    assert code == 0 and err.splitlines()[0].startswith("paralign: warning: <stdin>:2: malformed link 'x-4' ")
    monkeypatch.setattr(sys, "stdin", io.StringIO("0-0\n0-0\n"))
    code, _, err = run(capsys, "--gold", GOLD)
    assert code == 1 and err.strip().endswith(f"error: <stdin> has 2 pairs but {GOLD} has 3")


@pytest.mark.data
def test_cli_reproduces_giza_intersection_anchor(capsys, data: Path) -> None:
    root = data / "alignment" / "msr-rte2"
    code, out, _ = run(capsys, "--gold", str(root / "converted" / "RTE2_test_M.align.json"),
                       "--system", str(root / "baselines" / "giza" / "RTE2_test_M.align.giza.intersect.txt"),
                       "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["exact_count"] == 112
    assert [round(100 * result["macro"][k], 1) for k in ("precision", "recall", "f1")] == [82.5, 74.4, 78.3]


def test_aligner_json_output_with_an_error_record(capsys, tmp_path: Path) -> None:
    """`paralign align --format json` records (tokens + Pharaoh string); an error record scores
    as an empty alignment instead of stopping the run."""
    gold = json.loads((EXAMPLES / "gold.json").read_text(encoding="utf-8"))
    records = [
        {"line": 1, "id": "ex1", "source": gold[0]["source"].split(), "target": gold[0]["target"].split(),
         "alignment": gold[0]["sureAlign"], "links": []},
        {"line": 2, "error": "invalid JSON"},
        {"line": 3, "links": [[0, 0], [1, 1]]},
    ]
    system = tmp_path / "aligned.jsonl"
    system.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code, out, _ = run(capsys, "--gold", GOLD, "--system", str(system), "--format", "json",
                       "--per-pair")
    assert code == 0
    per_pair = json.loads(out)["per_pair"]
    assert per_pair[0]["exact"] and per_pair[1]["system"] == 0 and per_pair[1]["recall"] == 0
    assert per_pair[2]["correct"] == 2 and per_pair[2]["precision"] == 1.0


def test_explicit_gold_possible_file(capsys, tmp_path: Path) -> None:
    sure = tmp_path / "only-sure.json"  # no companion beside it: possibles come from the option
    sure.write_bytes((EXAMPLES / "gold.sure.json").read_bytes())
    args = ("--system", SYSTEM, "--format", "json", "--gold-links", "sure+possible")
    _, without, _ = run(capsys, "--gold", str(sure), *args)
    _, with_possible, _ = run(capsys, "--gold", str(sure), "--gold-possible",
                              str(EXAMPLES / "gold.sure+poss.json"), *args)
    assert json.loads(without)["gold_links"] == 16
    assert json.loads(with_possible)["gold_links"] == 22


@pytest.mark.parametrize("command", [["score-alignments", "--system", SYSTEM], ["evaluate-aligner"],
                                     ["tune-aligner", "--ppdb-grid", "0.9", "--w-grid", "0.9"]])
@pytest.mark.parametrize("dash", ["-", "/dev/stdin"])
def test_gold_can_be_read_from_stdin(command, dash, capsys, monkeypatch) -> None:
    """--gold takes '-' (and /dev/stdin, read once the same way); results name it <stdin>. Read
    from stdin, gold.json has no companion sure+poss file beside it: the signature says its
    possible links are its own (`possible:gold`), where the file's names its companion."""
    expected_code = main([*command, "--gold", GOLD, "--format", "json"])
    expected = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(Path(GOLD).read_text(encoding="utf-8")))
    assert main([*command, "--gold", dash, "--format", "json"]) == expected_code == 0
    result = json.loads(capsys.readouterr().out)
    assert "|possible:gold|" in result["signature"]
    assert "|possible:gold.sure+poss.json#" in expected["signature"]
    for key in ("macro", "best", "exact_count"):
        if key in expected:
            if key == "best":
                assert "|possible:gold|" in result[key].pop("signature")
                expected[key].pop("signature")
            assert result[key] == expected[key]
    assert result.get("gold", "<stdin>") == "<stdin>"


def test_scores_carry_the_signature_of_the_gold_links_scored(capsys) -> None:
    """As evaluate-aligner's: the gold link set (the one setting that changes the numbers) and
    the version; last line of the text, a key of the JSON."""
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--format", "json")
    assert code == 0 and json.loads(out)["signature"].startswith("gold:sure|possible:gold.sure+poss.json#")
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--gold-links", "sure+possible")
    assert code == 0 and out.rstrip("\n").split("\n")[-1].startswith("signature: gold:sure+possible|possible:")


def test_signature_says_where_the_possible_links_came_from(capsys, tmp_path: Path) -> None:
    """The same jacana sure gold scored with its companion sure+poss file and alone gives two
    AERs (the companion's possible links count as hits): the signatures differ, naming the
    companion by basename and hash, or `gold` (the file's own links). Before, both were
    `gold:sure|version:X`."""
    from paralign.signature import short_hash

    pair = {"id": "1", "source": "a b c", "target": "a b c"}
    sure = [{**pair, "sureAlign": "0-0", "possibleAlign": ""}]
    merged = [{**pair, "sureAlign": "0-0 1-1", "possibleAlign": ""}]
    alone, paired = tmp_path / "alone", tmp_path / "paired"
    for folder in (alone, paired):
        folder.mkdir()
        (folder / "g.sure.json").write_text(json.dumps(sure), encoding="utf-8")
    (paired / "g.sure+poss.json").write_text(json.dumps(merged), encoding="utf-8")
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 1-1\n", encoding="utf-8")
    found = {}
    for folder in (alone, paired):
        code, out, _ = run(capsys, "--gold", str(folder / "g.sure.json"), "--system", str(system),
                           "--format", "json")
        assert code == 0
        found[folder.name] = json.loads(out)
    assert found["alone"]["aer"] != found["paired"]["aer"]
    assert found["alone"]["signature"].startswith("gold:sure|possible:gold|version:")
    digest = short_hash((paired / "g.sure+poss.json").read_bytes())
    assert found["paired"]["signature"].startswith(f"gold:sure|possible:g.sure+poss.json#{digest}|version:")
    code, out, _ = run(capsys, "--gold", str(alone / "g.sure.json"), "--gold-possible",
                       str(paired / "g.sure+poss.json"), "--system", str(system), "--format", "json")
    assert (json.loads(out)["aer"], json.loads(out)["signature"]) == (found["paired"]["aer"], found["paired"]["signature"])


def test_confidence_of_macro_f1_resamples_the_pairs(capsys) -> None:
    """--confidence: macro F1's bootstrap over pairs (the three pairs' rows resampled), the same
    figure as the library's, the resampling in the signature; the scores are unchanged."""
    import numpy as np

    from paralign.metrics.alignment_scores import (
        macro_f1_confidence,
        macro_f1_from_sums,
        score_files,
    )
    from paralign.metrics.significance import bootstrap_indices

    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--confidence", "--resamples", "50", "--format",
                       "json")
    assert code == 0
    result = json.loads(out)
    scores = score_files(GOLD, SYSTEM)
    assert result["macro"]["f1"] == pytest.approx(scores.macro.f1)
    found = result["confidence"]["macro_f1"]
    assert found == macro_f1_confidence(scores.per_pair, n_resamples=50).to_dict()
    assert found["score"] == pytest.approx(scores.macro.f1)
    rows = np.array([(p.precision, p.recall, 1.0) for p in scores.per_pair])
    by_hand = [float(macro_f1_from_sums(rows[i].sum(axis=0))) for i in bootstrap_indices(3, 50)]
    assert found["mean"] == pytest.approx(np.mean(by_hand))
    assert result["signature"] == scores.signature.replace("|version:", "|bs:50|seed:12345|version:")
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--confidence", "--seed", "3")
    assert "macro F1 bootstrap: μ = " in out and "1000 resamples of the pairs, seed 3" in out


def test_per_pair_in_text_is_a_table_of_what_json_gives(capsys, tmp_path: Path) -> None:
    """--per-pair with --format text (the default) lists each scored pair, as JSON's "per_pair"
    does, between the totals and the signature; a skipped pair has no row. Before, text dropped
    --per-pair without a word."""
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--per-pair", "--format", "json")
    rows = json.loads(out)["per_pair"]
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--per-pair")
    lines = out.splitlines()
    assert code == 0 and lines[-1].startswith("signature: gold:sure|")
    header = lines.index("pair  gold  system  correct      P      R     F1  exact")
    table = [line.split() for line in lines[header + 1:-1]]
    assert table == [[str(r["pair"]), str(r["gold"]), str(r["system"]), str(r["correct"]),
                      f"{100 * r['precision']:.1f}", f"{100 * r['recall']:.1f}", f"{100 * r['f1']:.1f}",
                      "yes" if r["exact"] else "no"] for r in rows]
    assert table[0] == ["1", "7", "7", "6", "85.7", "85.7", "85.7", "no"]
    bad = tmp_path / "bad.pharaoh"
    bad.write_text("0-0 1-x\n" + "".join(Path(SYSTEM).read_text().splitlines(keepends=True)[1:]))
    code, out, _ = run(capsys, "--gold", GOLD, "--system", str(bad), "--per-pair")
    assert code == 0 and [line.split()[0] for line in out.splitlines() if line[:5].strip().isdigit()] == ["2", "3"]
    code, out, _ = run(capsys, "--gold", GOLD, "--system", SYSTEM)
    assert "pair  gold" not in out  # without --per-pair, the totals only


@pytest.mark.parametrize("gold", ["gold.jsonl", "gold.tsv", "gold.giza.txt"])
def test_gold_possible_with_a_gold_that_is_not_jacana_is_refused(capsys, gold) -> None:
    """--gold-possible gives the possible links of a jacana gold; the other formats carry their
    own. Given with one of those it was ignored without a word (even a file that does not exist),
    so the AER was not the one asked for. Now it is a usage error naming both files."""
    code, out, err = run(capsys, "--gold", str(EXAMPLES / gold), "--system", SYSTEM,
                         "--gold-possible", str(EXAMPLES / "gold.sure+poss.json"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert str(EXAMPLES / gold) in err and "gold.sure+poss.json" in err and "jacana" in err
    code, _, _ = run(capsys, "--gold", str(EXAMPLES / gold), "--system", SYSTEM, "--gold-possible", "/no/such.json")
    assert code == 2


def test_a_gold_of_pharaoh_lines_is_scored(capsys, tmp_path: Path) -> None:
    """A gold of links only (Pharaoh lines, `p` for possible, as the bilingual gold standards
    and fast_align/awesome-align users have them) against Pharaoh system lines: before, every
    pair was skipped ("link 0-0 outside the gold sentences of 0 and 0 tokens") and the command
    failed with "no pair could be scored"."""
    gold = tmp_path / "gold.talp"
    gold.write_text("0-0 1-1 2p2\n0-1\n", encoding="utf-8")
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 2-2\n0-1 1-0\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--format", "json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert (result["pairs"], result["skipped"], result["gold_links"], result["system_links"]) == (2, 0, 3, 4)
    # AER: |A∩S| = 2 (0-0, 0-1), |A∩P| = 3 (and 2-2), |A| = 4, |S| = 3
    assert result["aer"] == pytest.approx(1 - (2 + 3) / (4 + 3))


def test_a_gold_of_pharaoh_lines_scores_a_system_that_carries_its_tokens(capsys, tmp_path: Path) -> None:
    """A gold of links only against a system whose items carry tokens (JSONL, as `paralign
    align --format jsonl` writes it): the gold has no token counts to compare with, so the
    pairs are scored as against Pharaoh system lines. Before, every pair was skipped ("pair 'a'
    has 2+2 tokens but gold pair '1' has 0+0") and the command failed."""
    gold = tmp_path / "gold.talp"
    gold.write_text("0-0 1-1 2p2\n0-1\n", encoding="utf-8")
    system = tmp_path / "system.jsonl"
    system.write_text('{"id": "a", "source": "a b c", "target": "d e f", "sure": [[0, 0], [2, 2]]}\n'
                      '{"id": "b", "source": "x y", "target": "z w", "sure": [[0, 1], [1, 0]]}\n', encoding="utf-8")
    code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--format", "json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert (result["pairs"], result["skipped"], result["gold_links"], result["system_links"]) == (2, 0, 3, 4)
    assert result["aer"] == pytest.approx(1 - (2 + 3) / (4 + 3))


def test_a_pharaoh_gold_takes_its_possible_links_from_a_second_file(capsys, tmp_path: Path) -> None:
    """A gold kept as a sure file and a possible file of Pharaoh lines: --gold-possible reads
    the second (before: 'gold.sure is pharaoh, not jacana', exit 2), the same scores as one file
    with `p` marks; the signature names the possible file."""
    from paralign.signature import short_hash

    sure, possible, marked = tmp_path / "gold.sure", tmp_path / "gold.possible", tmp_path / "gold.talp"
    sure.write_text("0-0 1-1\n0-1\n", encoding="utf-8")
    possible.write_text("0-0 1-1 2-2\n\n", encoding="utf-8")  # repeats the sure links, or not
    marked.write_text("0-0 1-1 2p2\n0-1\n", encoding="utf-8")
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 2-2\n0-1 1-0\n", encoding="utf-8")
    code, out, _ = run(capsys, "--gold", str(sure), "--gold-possible", str(possible), "--system", str(system),
                       "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["signature"].startswith(f"gold:sure|possible:gold.possible#{short_hash(possible.read_bytes())}|")
    _, out, _ = run(capsys, "--gold", str(marked), "--system", str(system), "--format", "json")
    expected = json.loads(out)
    assert result.pop("signature") != expected.pop("signature")
    assert result == expected
    possible.write_text("0-0\n", encoding="utf-8")  # one line short: named, not scored
    code, _, err = run(capsys, "--gold", str(sure), "--gold-possible", str(possible), "--system", str(system))
    assert code != 0 and "has 2 pairs but" in err and "gold.possible has 1" in err


def test_links_outside_the_gold_name_the_likely_convention(capsys, tmp_path: Path) -> None:
    """A system file of target-source links, or of 1-based ones, had every pair skipped with
    only 'link 0-3 outside the gold sentences of 2 and 4 tokens': the warning now says which
    convention fits all the pair's links, and says nothing when none does."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "a", "source": ["x", "y"], "target": ["p", "q", "r", "s"],
                                "sure": [[0, 0], [1, 3]], "possible": []}) + "\n", encoding="utf-8")
    cases = {"0-0 3-1": "fit with source and target swapped: are the system's links target-source?",
             "1-1 2-4": "fit 1 lower: are the system's indices 1-based? (Pharaoh links are 0-based)",
             "0-0 7-7": None}
    for links, hint in cases.items():
        system = tmp_path / "system.pharaoh"
        system.write_text(links + "\n", encoding="utf-8")
        code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--format", "json")
        assert code == 1 and "outside the gold sentences of 2 and 4 tokens" in err
        assert (hint is not None and hint in err) or (hint is None and "all its links" not in err)


def test_a_blank_line_at_the_end_of_the_system_is_named(capsys, tmp_path: Path) -> None:
    """A Pharaoh file with a blank line after its last pair has one pair more than the gold
    (a blank line is an empty alignment): the count mismatch now says the extra lines are
    empty, where it said only '4 pairs but 3'."""
    system = tmp_path / "system.pharaoh"
    system.write_text(Path(SYSTEM).read_text(encoding="utf-8") + "\n", encoding="utf-8")
    code, _, err = run(capsys, "--gold", GOLD, "--system", str(system))
    assert code == 1 and "has 4 pairs but" in err
    assert "(its last line is empty: blank lines at the end of the file?" in err
    system.write_text(Path(SYSTEM).read_text(encoding="utf-8") + "0-0\n", encoding="utf-8")
    code, _, err = run(capsys, "--gold", GOLD, "--system", str(system))
    assert code == 1 and "has 4 pairs but" in err and "empty" not in err


@pytest.mark.parametrize("per_pair", [False, True])
def test_the_librarys_dict_is_the_commands_json(capsys, tmp_path: Path, per_pair: bool) -> None:
    """score_files(...).to_dict() is what `score-alignments --format json` writes, signature
    included: the command added the signature itself, so the library's record of a scoring had
    no record of its settings and was not the command's JSON."""
    from paralign.metrics.alignment_scores import score_files

    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 1-1\n9-9\n" + "\n".join(Path(SYSTEM).read_text().splitlines()[2:]) + "\n")
    flags = ["--per-pair"] if per_pair else []
    code, out, _ = run(capsys, "--gold", GOLD, "--system", str(system), "--format", "json", *flags)
    expected = score_files(GOLD, system).to_dict(per_pair=per_pair)
    assert code == 0 and json.loads(out) == expected and expected["skipped"] == 1
    assert expected["signature"].startswith("gold:sure|possible:gold.sure+poss.json#")


def test_help_explains_every_output_line(capsys) -> None:
    """--help said how pairs are scored but not what the lines of the report are (macro against
    micro, exact, AER, the link counts): each is now explained as NAME = ..."""
    with pytest.raises(SystemExit):
        main(["score-alignments", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in ("macro", "micro", "exact", "AER", "gold links", "system links", "signature"):
        assert f"{name} =" in text, name


def test_help_names_the_companion_files_the_code_pairs(capsys, tmp_path: Path) -> None:
    """--gold-possible's help said its default, a *.sure+poss.json file, is used only beside a
    *.sure.json gold, but corpora.jacana.companion_files pairs X.json with X.sure+poss.json too
    (examples/alignment/gold.json is scored so): the help names both, each as the code pairs it."""
    from paralign.corpora.jacana import companion_files

    with pytest.raises(SystemExit):
        main(["score-alignments", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "NAME.sure+poss.json beside a jacana gold NAME.sure.json or NAME.json" in text
    assert "gold NAME.sure+poss.json takes its sure links from NAME.sure.json or NAME.json" in text
    merged = tmp_path / "X.sure+poss.json"
    merged.write_text("[]", encoding="utf-8")
    for name in ("X.sure.json", "X.json"):
        gold = tmp_path / name
        gold.write_text("[]", encoding="utf-8")
        assert companion_files(gold) == (gold, merged) and companion_files(merged) == (gold, merged)
        gold.unlink()


def test_sure_plus_possible_on_a_gold_without_possible_links_warns(capsys, tmp_path: Path, data: Path) -> None:
    """MSR RTE2's majority jacana file has every possibleAlign empty (its README): --gold-links
    sure+possible scored its sure links as --gold-links sure does, and said nothing. It now warns
    once, naming the gold file; JSON counts the gold's possible links (beyond the sure ones)."""
    pairs = json.loads((data / "alignment/msr-rte2/converted/RTE2_test_M.align.json").read_text(encoding="utf-8"))[:3]
    gold = tmp_path / "RTE2_test_M.align.json"
    gold.write_text(json.dumps(pairs), encoding="utf-8")
    system = tmp_path / "system.pharaoh"
    system.write_text("".join(p["sureAlign"] + "\n" for p in pairs), encoding="utf-8")
    code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--gold-links", "sure+possible",
                         "--format", "json")
    warning = f"paralign: warning: {gold}: no possible links in the gold (only sure ones): scoring against " \
              "sure+possible scores its sure links only"
    assert code == 0 and err.splitlines() == [warning]
    assert json.loads(out)["gold_possible_links"] == 0 and json.loads(out)["macro"]["f1"] == 1
    assert json.loads(out)["warnings"] == [warning.removeprefix("paralign: warning: ")]
    code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--format", "json")
    assert code == 0 and err == ""  # sure links asked for: nothing missing
    # a gold with possible links (gold.json reads them from its sure+poss companion): no warning
    code, out, err = run(capsys, "--gold", GOLD, "--system", SYSTEM, "--gold-links", "sure+possible", "--format", "json")
    expected = sum(len(p["sureAlign"].split()) for p in json.loads((EXAMPLES / "gold.sure+poss.json").read_text()))
    expected -= sum(len(p["sureAlign"].split()) for p in json.loads((EXAMPLES / "gold.json").read_text()))
    assert code == 0 and err == "" and json.loads(out)["gold_possible_links"] == expected > 0


def _gold_rows(path: Path, count: int) -> list[dict]:
    """The first `count` pairs of a jacana JSON or JSONL gold as JSONL records of sure links."""
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:count]]
    return [{"id": p["id"], "source": p["source"], "target": p["target"],
             "sure": [list(map(int, link.split("-"))) for link in p["sureAlign"].split()]}
            for p in json.loads(path.read_text(encoding="utf-8"))[:count]]


@pytest.mark.parametrize(("gold", "misread"), [("msr-rte2/derived/RTE2_test_M.jsonl", "1-based"),
                                               ("msr-rte2/derived/RTE2_test_M.jsonl", "target-source"),
                                               ("edinburgh-pp/gold/gold.test.sure.json", "1-based")])
def test_a_misread_system_whose_links_all_fit_is_named(capsys, tmp_path: Path, data: Path, gold: str,
                                                       misread: str) -> None:
    """A system file written 1-based, or target-source, was flagged only pair by pair when a link
    fell outside the gold's sentences; one whose links all fit (an aligner that left the last
    tokens unaligned) was scored without a word (micro F1 47 and 16 on 20 MSR pairs, 74 on 20
    Edinburgh++ pairs, where read right they are the gold's). Its links matching the gold much
    more often read 1 lower, or swapped, than as written now gives one warning naming the file
    (and JSON's "warnings"); the file as written (0-based, source-target) gives none."""
    rows = _gold_rows(data / "alignment" / gold, 20)
    short = tmp_path / "gold.jsonl"
    short.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    lines, right = [], []
    for r in rows:
        n, m = len(r["source"].split()), len(r["target"].split())
        moved = [(i + 1, j + 1) for i, j in r["sure"]] if misread == "1-based" else [(j, i) for i, j in r["sure"]]
        lines.append(" ".join(f"{i}-{j}" for i, j in moved if i < n and j < m))  # those that fit
        right.append(" ".join(f"{i}-{j}" for i, j in r["sure"]))
    system = tmp_path / "system.pharaoh"
    system.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", str(short), "--system", str(system), "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["skipped"] == 0 and result["micro"]["f1"] < 0.75
    hint = ("are the system's indices 1-based? (Pharaoh links are 0-based)" if misread == "1-based"
            else "are the system's links target-source?")
    assert err.splitlines() == [f"paralign: warning: {result['warnings'][0]}"]
    assert result["warnings"][0].startswith(f"{system}: ") and result["warnings"][0].endswith(hint)
    system.write_text("\n".join(right) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", str(short), "--system", str(system), "--format", "json")
    assert code == 0 and err == "" and json.loads(out)["warnings"] == []


@pytest.mark.parametrize(("gold_lines", "why"), [
    ("0p0 1p1\n0?0\n", " (it has possible ones: score against sure+possible?)"),
    ("\n\n", ""),
])
def test_a_gold_with_no_links_to_find_warns(capsys, tmp_path: Path, gold_lines: str, why: str) -> None:
    """A Pharaoh gold whose links are all possible ones, scored against its sure links (the
    default), or a gold of blank lines, has nothing to find: every pair's recall is 100 by
    convention, and the scores (P 0 R 100, or 100 everywhere) came without a word. One warning
    names the gold file now (and JSON's "warnings")."""
    gold = tmp_path / "gold.pharaoh"
    gold.write_text(gold_lines, encoding="utf-8")
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0 1-1\n0-0\n", encoding="utf-8")
    code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--format", "json")
    warning = f"{gold}: no sure links in the gold: nothing to find, every pair's recall is 100{why}"
    assert code == 0 and json.loads(out)["macro"]["recall"] == 1
    assert json.loads(out)["warnings"] == [warning] and err.splitlines() == [f"paralign: warning: {warning}"]
    if why:
        code, out, err = run(capsys, "--gold", str(gold), "--system", str(system), "--gold-links", "sure+possible")
        assert code == 0 and err == ""


def test_a_possible_file_whose_name_holds_a_bar_is_a_usage_error(tmp_path, capsys) -> None:
    """``--gold-possible p|x.json`` was signed ``possible:p|x.json#HASH``, read back as
    ``possible:p`` and a keyless ``x.json#HASH``; now a usage error naming the option and the file
    (before: the library's refusal, naming the file only)."""
    possible = tmp_path / "p|x.json"
    possible.write_bytes((EXAMPLES / "gold.sure+poss.json").read_bytes())
    assert main(["score-alignments", "--gold", str(EXAMPLES / "gold.sure.json"), "--gold-possible", str(possible),
                 "--system", str(EXAMPLES / "system.json")]) == 2
    assert f"argument --gold-possible: {possible}: the file's name 'p|x.json' holds '|'" in capsys.readouterr().err
