"""WMT21 loader (synthetic layout and the real data) and the meta-evaluation on a subset."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from paralign.cli.meta_eval import render
from paralign.corpora.wmt import (
    _segment_map,
    iter_lines,
    language_pairs,
    load_human_scores,
    load_segment_scores,
    load_wmt,
    system_files,
    wmt_dir,
)
from paralign.errors import (
    ConfigurationError,
    FormatError,
    MismatchError,
    ResourceMissingError,
    SameReferenceError,
)
from paralign.metrics.correlation import meta_evaluate, resolve_metrics
from paralign.metrics.paraeval import ParaEval


def load_segment_lines(root: Path, pair: str) -> dict[int, int]:
    """SID -> 0-based txt line, as the pair's humaneval/seg-line-map-<lp>.tsv maps them."""
    return {sid: line for sid, (line, _) in _segment_map(root, pair).items()}


def _fake(tmp_path: Path, hyp_lines: int = 3) -> Path:
    root = tmp_path / "wmt"
    for sub in ("references", "system-outputs", "sources"):
        (root / "txt" / sub).mkdir(parents=True)
    (root / "humaneval").mkdir()
    refs = root / "txt" / "references"
    (refs / "newstest2021.xx-en.ref.A.en").write_bytes(b"a b\nc\rd\ne f\n")
    (refs / "newstest2021.xx-en.ref.B.en").write_bytes(b"a b\nc e\ne f")  # not A's lines: two sets
    outs = root / "txt" / "system-outputs"
    for name in ("Allegro.eu", "Nemo-X", "Other", "Unranked"):
        (outs / f"newstest2021.xx-en.hyp.{name}.en").write_text("a b\nc d\ne\n", encoding="utf-8")
    (outs / "newstest2021.xx-en.hyp.Other.en").write_text("x\n" * hyp_lines, encoding="utf-8")
    (root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv").write_text(
        "70.1 0.2 10 12 Allegro.eu.3 Allegro.eu\n"
        "69 0.1 10 12 Nemo.1 Nemo-X\n"
        "60 -0.1 10 12 HUMAN.0 HUMAN\n"
        "50 -0.3 10 12 Other.2 Other\n"
        "40 -0.4 10 12 Gone.4 Gone\n", encoding="utf-8")
    return root


def test_synthetic_layout_and_traps(tmp_path):
    root = _fake(tmp_path)
    assert language_pairs(root) == ["xx-en"]
    assert "Allegro.eu" in system_files(root, "xx-en")  # dots in names
    data = load_wmt(root, "xx-en")
    assert len(data) == 3
    assert data.references["A"][1] == "c d"  # split on LF only, a lone CR read as a space
    assert data.references["B"][2] == "e f"  # no final newline
    assert set(data.systems) == {"Allegro.eu", "Nemo-X", "Other"}  # joined on NAME
    assert "HUMAN" not in data.human and data.unscored == ("Unranked",)
    assert data.missing == ("Gone",)
    assert data.human["Nemo-X"].sys_id == "Nemo.1" and data.human["Nemo-X"].z == 0.1
    assert "HUMAN" in load_human_scores(root, "xx-en", include_human=True)
    assert load_wmt(root, "xx-en", refs=["B"]).reference_streams(["B"])[0][0] == "a b"
    with pytest.raises(MismatchError, match="no reference 'C'"):
        load_wmt(root, "xx-en", refs=["C"])


def _segment_files(root: Path, rows: str, line_map: str = "SID\tline\tdoc_id\n1\t3\td2\n"
                   "2\t1\td1\n3\t2\td1\n") -> None:
    """seg-line-map: SID 1 is line 3, SID 2 line 1, SID 3 line 2 (documents sorted by id)."""
    (root / "humaneval" / "seg-line-map-xx-en.tsv").write_text(line_map, encoding="utf-8")
    (root / "humaneval" / "ad-seg-scores-xx-en.csv").write_text(
        "SYS SID RAW.SCR Z.SCR N \n" + rows, encoding="utf-8")


def test_segment_scores_go_through_the_sid_to_line_map(tmp_path):
    root = _fake(tmp_path)
    _segment_files(root, "Nemo.1 1 90 0.9 2 \nNemo.1 2 10 -0.9 1 \nHUMAN.0 1 50 0 1 \n"
                         "Gone.4 3 40 0.1 1 \nOther.2 3 30 -0.2 3 \n")
    assert load_segment_lines(root, "xx-en") == {1: 2, 2: 0, 3: 1}
    data = load_wmt(root, "xx-en", segments=True)
    got = {(s.system, s.sid): (s.line, s.raw, s.z, s.n) for s in data.segment_scores}
    # SID 1 is the third line (0-based 2), not the first: taking SID as the line would give 0
    assert got == {("Nemo-X", 1): (2, 90.0, 0.9, 2), ("Nemo-X", 2): (0, 10.0, -0.9, 1),
                   ("Other", 3): (1, 30.0, -0.2, 3)}  # joined on SYS_ID; HUMAN, Gone left out
    assert load_wmt(root, "xx-en").segment_scores == ()  # only loaded when asked for


def test_bad_segment_files(tmp_path):
    root = _fake(tmp_path)
    _segment_files(root, "Nemo.1 7 90 0.9 2\n")
    with pytest.raises(FormatError, match="SID 7 is not in seg-line-map"):
        load_segment_scores(root, "xx-en")
    _segment_files(root, "Nemo.1 1 90 0.9 2\nNemo.1 1 80 0.9 2\n")
    with pytest.raises(FormatError, match="listed twice"):
        load_segment_scores(root, "xx-en")
    _segment_files(root, "", "SID\tline\n1\t2\n2\t2\n")
    with pytest.raises(FormatError, match="same line"):
        load_segment_lines(root, "xx-en")
    _segment_files(root, "Nemo.1 1 90 0.9 2\n", "SID\tline\n1\t9\n")
    with pytest.raises(MismatchError, match="past the 3 lines"):
        load_wmt(root, "xx-en", segments=True)
    (root / "humaneval" / "seg-line-map-xx-en.tsv").unlink()
    with pytest.raises(ResourceMissingError, match="seg-line-map-xx-en.tsv"):
        load_segment_scores(root, "xx-en")


def test_a_segment_file_with_no_row_is_a_data_error_naming_it(tmp_path):
    """An empty line map (or its header alone) was read as no SID: the error named the segment
    scores' first row ("SID 1 is not in seg-line-map-xx-en.tsv"), not the map. Either file with
    no row is now an error naming it."""
    root = _fake(tmp_path)
    humaneval = root / "humaneval"
    for line_map in ("", "SID\tline\tdoc_id\n", "SID\tline\tdoc_id\n\n"):
        _segment_files(root, "Nemo.1 1 90 0.9 2\n", line_map)
        with pytest.raises(FormatError) as caught:
            load_segment_scores(root, "xx-en")
        assert str(caught.value) == (f"{humaneval / 'seg-line-map-xx-en.tsv'}: no rows (expected a header "
                                     "starting 'SID', then a row of 2 or more fields a line)")
    _segment_files(root, "")
    for scores in ("", "SYS SID RAW.SCR Z.SCR N\n"):
        (humaneval / "ad-seg-scores-xx-en.csv").write_text(scores, encoding="utf-8")
        with pytest.raises(FormatError, match=r"ad-seg-scores-xx-en\.csv: no rows \(expected a header starting 'SYS'"):
            load_segment_scores(root, "xx-en")


def test_a_row_of_too_few_fields_says_how_many_it_has(tmp_path):
    """A human-scores row or a segment-file row of too few fields said what was expected, not
    what the line held ("expected 5 fields"), as the other readers say ("found 4")."""
    root = _fake(tmp_path)
    path = root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv"
    path.write_text("70.1 0.2 10 12 Allegro.eu\n", encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        load_human_scores(root, "xx-en")
    assert str(caught.value) == f"{path}:1: expected 6 fields, 'RAW.SCR Z.SCR N N.ALL SYS_ID NAME', found 5"
    path.write_text("69 0.1 10 12 Nemo.1 Nemo-X\n", encoding="utf-8")
    _segment_files(root, "Nemo.1 1 90 0.9\n")
    with pytest.raises(FormatError, match=r"ad-seg-scores-xx-en\.csv:2: expected 5 or more fields, found 4$"):
        load_segment_scores(root, "xx-en")


def test_a_system_file_that_cannot_be_read_is_left_out_naming_the_file(tmp_path):
    """One system output of another length, with a byte that is not UTF-8, or that cannot be
    opened stopped load_wmt (and so meta-eval) with a MismatchError, FormatError or
    InputFileError, losing every other system's figures. It is left out and recorded in
    `skipped`, naming the file and (for a bad byte) the line; the references stay fatal."""
    root = _fake(tmp_path, hyp_lines=4)
    outs = root / "txt" / "system-outputs"
    (outs / "newstest2021.xx-en.hyp.Nemo-X.en").write_bytes(b"a b\ncaf\xe9\ne\n")
    (outs / "newstest2021.xx-en.hyp.Allegro.eu.en").unlink()
    (outs / "newstest2021.xx-en.hyp.Allegro.eu.en").mkdir()  # listed, but no file to read
    data = load_wmt(root, "xx-en")
    assert data.systems == {} and data.human == {} and data.missing == ("Gone",)
    skipped = {s.name: s for s in data.skipped}
    assert sorted(skipped) == ["Allegro.eu", "Nemo-X", "Other"]
    other = skipped["Other"].to_dict()
    assert other == {"system": "Other", "file": str(outs / "newstest2021.xx-en.hyp.Other.en"), "line": None,
                     "reason": "4 lines, expected 3"}
    assert str(skipped["Other"]) == f"{outs / 'newstest2021.xx-en.hyp.Other.en'}: 4 lines, expected 3"
    assert skipped["Nemo-X"].line == 2 and skipped["Nemo-X"].file.endswith("hyp.Nemo-X.en")
    assert skipped["Allegro.eu"].file.endswith("hyp.Allegro.eu.en") and skipped["Allegro.eu"].reason
    (root / "txt" / "references" / "newstest2021.xx-en.ref.B.en").write_bytes(b"a b\n")
    with pytest.raises(MismatchError, match=r"ref\.B\.en: 1 line, but reference A \("):
        load_wmt(root, "xx-en")


def test_a_second_reference_set_of_another_length_names_the_first(tmp_path):
    """A reference set after the first of another length said `2 lines, expected 3`, naming
    itself but not the reference whose 3 lines it was held to (``--refs A,B``)."""
    root = _fake(tmp_path)
    refs = root / "txt" / "references"
    (refs / "newstest2021.xx-en.ref.B.en").write_text("a b\nc d\n", encoding="utf-8")
    with pytest.raises(MismatchError) as caught:
        load_wmt(root, "xx-en", ["A", "B"])
    assert str(caught.value) == (f"{refs / 'newstest2021.xx-en.ref.B.en'}: 2 lines, but reference A "
                                 f"({refs / 'newstest2021.xx-en.ref.A.en'}) has 3: the reference sets are not "
                                 "of one test set, or one is cut short")
    with pytest.raises(MismatchError, match=r"ref\.A\.en: 3 lines, but reference B \(.*ref\.B\.en\) has 2"):
        load_wmt(root, "xx-en", ["B", "A"])


def test_a_reference_of_another_length_than_every_system_is_the_one_named(tmp_path):
    """A reference cut short (or empty) left every system out as "3 lines, expected 2" and the run
    ended with "none of the 3 systems ... could be read": the systems blamed for the reference.
    When two or more outputs were read and all have one length, not the reference's, the error
    names the reference. One output of another length is still that system's fault."""
    root = _fake(tmp_path)
    refs = root / "txt" / "references"
    (refs / "newstest2021.xx-en.ref.A.en").write_text("a b\nc d\n", encoding="utf-8")
    (refs / "newstest2021.xx-en.ref.B.en").write_text("a b\nc d\n", encoding="utf-8")
    outs = root / "txt" / "system-outputs"
    (outs / "newstest2021.xx-en.hyp.Other.en").write_text("x\ny\nz\n", encoding="utf-8")
    for text in ("a b\nc d\n", ""):
        (refs / "newstest2021.xx-en.ref.A.en").write_text(text, encoding="utf-8")
        with pytest.raises(MismatchError) as caught:
            load_wmt(root, "xx-en", ["A"])
        count = text.count("\n")
        assert str(caught.value) == (f"{refs / 'newstest2021.xx-en.ref.A.en'}: {count} lines, but each of the 3 "
                                     "system outputs has 3: the reference and the outputs are not of one "
                                     "test set, or one side is cut short")
    (outs / "newstest2021.xx-en.hyp.Nemo-X.en").write_text("a b\nc d\n", encoding="utf-8")  # one has its length
    (refs / "newstest2021.xx-en.ref.A.en").write_text("a b\nc d\n", encoding="utf-8")
    data = load_wmt(root, "xx-en", ["A"])
    assert list(data.systems) == ["Nemo-X"] and [s.name for s in data.skipped] == ["Allegro.eu", "Other"]
    for name in ("Allegro.eu", "Nemo-X"):  # one output read, of another length: its own fault
        (outs / f"newstest2021.xx-en.hyp.{name}.en").write_bytes(b"\xff\n")
    assert [s.reason for s in load_wmt(root, "xx-en", ["A"]).skipped][-1] == "3 lines, expected 2"


def test_bad_human_scores_and_missing_folder(tmp_path):
    root = _fake(tmp_path)
    (root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv").write_text(
        "70 0.2 10 12 A.1 A\nseventy 0.1 1 1 B.1 B\n", encoding="utf-8")
    with pytest.raises(FormatError, match="z-names.csv:2"):
        load_human_scores(root, "xx-en")
    with pytest.raises(ResourceMissingError):
        wmt_dir(tmp_path / "nowhere")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"ok\ncaf\xe9\n")
    with pytest.raises(FormatError, match="latin1.txt:2"):
        list(iter_lines(bad))


def test_a_human_scores_file_without_rows_is_a_data_error_naming_it(tmp_path):
    """An empty ad-sys-ranking file (or blank lines) gave no scores without a word: meta-eval then
    reported every output as having "no human score" and ended with "no system has both an output
    file and a human score". A file of HUMAN rows alone is still read (HUMAN left out)."""
    root = _fake(tmp_path)
    path = root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv"
    for text in ("", "\n \n"):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(FormatError) as caught:
            load_human_scores(root, "xx-en")
        assert str(caught.value) == (f"{path}: no human scores for xx-en (expected lines 'RAW.SCR Z.SCR N N.ALL "
                                     "SYS_ID NAME')")
    path.write_text("60 -0.1 10 12 HUMAN.0 HUMAN\n", encoding="utf-8")
    assert load_human_scores(root, "xx-en") == {}


def test_real_counts(data):
    assert language_pairs(data / "mt" / "wmt21-toEnglish") == ["cs-en", "de-en", "ru-en"]
    expected = {"cs-en": 8, "de-en": 19, "ru-en": 10}  # README: systems with outputs
    for pair, n_systems in expected.items():
        wmt = load_wmt(data / "mt" / "wmt21-toEnglish", pair)
        assert len(wmt) == 1000 and set(wmt.references) == {"A", "B"}
        assert len(wmt.systems) == n_systems and not wmt.unscored and not wmt.missing
        assert "HUMAN" not in wmt.human
    de = load_wmt(data, "de-en", segments=True)
    assert de.human["NVIDIA-NeMo"].sys_id == "Nemo.7"
    lines = load_segment_lines(data / "mt" / "wmt21-toEnglish", "de-en")
    assert sorted(lines.values()) == list(range(1000)) and lines[1] == 329  # SID 1 is line 330
    assert len(de.segment_scores) == 18409  # ad-seg-scores rows of the 19 systems (no HUMAN)
    assert de.human["HuaweiTSC"].z == pytest.approx(-0.12)


@pytest.mark.data
@pytest.mark.parametrize(("pair", "rows"), [("cs-en", 7242), ("de-en", 18409), ("ru-en", 8926)])
def test_real_segments_as_an_independent_read_finds_them(data, pair, rows):
    """Every segment of every file as its lines split on LF say, and every system's judged
    segments (its ad-seg-scores rows, HUMAN's left out) as many as the N its ranking row gives:
    no row dropped or added on the way through the SID -> line map."""
    root = data / "mt" / "wmt21-toEnglish"
    wmt = load_wmt(root, pair, segments=True)
    txt = root / "txt"
    for label, segments in wmt.references.items():
        assert segments == tuple(
            (txt / "references" / f"newstest2021.{pair}.ref.{label}.en").read_text(encoding="utf-8").split("\n")[:-1])
    for name, segments in wmt.systems.items():
        assert segments == tuple(
            (txt / "system-outputs" / f"newstest2021.{pair}.hyp.{name}.en").read_text(encoding="utf-8").split("\n")[:-1])
    judged = Counter(score.system for score in wmt.segment_scores)
    assert len(wmt.segment_scores) == rows and judged == {name: score.n for name, score in wmt.human.items()}
    assert all(0 <= score.line < len(wmt) for score in wmt.segment_scores)


def test_meta_evaluation_on_a_subset(data):
    full = load_wmt(data, "cs-en")
    n = 120
    sub = replace(full, references={k: v[:n] for k, v in full.references.items()},
                  systems={k: v[:n] for k, v in full.systems.items()})
    metrics = resolve_metrics(["bleu", "chrf", "mup", "paraeval"], ParaEval([]))
    result = meta_evaluate(sub, ["A", "B"], metrics, n_resamples=60, seed=1)
    names = list(result.metrics)
    assert names == ["bleu", "chrf", "mup", "paraeval", "paraeval_p", "paraeval_r", "paraeval_f"]
    assert result.metrics["paraeval"].scores == result.metrics["paraeval_f"].scores  # paper: F
    refs = [list(r) for r in sub.reference_streams(["A", "B"])]
    for system, hyps in sub.systems.items():
        assert result.metrics["bleu"].scores[system] == pytest.approx(
            BLEU().corpus_score(list(hyps), refs).score)
    payload = result.to_dict()
    for name in names:
        for kind in ("pearson", "spearman", "kendall"):
            cell = payload["metrics"][name][kind]
            assert -1 <= cell["value"] <= 1 and cell["low"] <= cell["high"]
    assert set(payload["metrics"]["paraeval_f"]["vs"]) == {"bleu", "chrf"}
    assert "nrefs:2|config:paper|res:none" in payload["signatures"]["paraeval_f"]
    text = render(result)
    assert text.splitlines()[0] == "cs-en refs A+B: 8 systems, 60 resamples (seed 1)"
    assert any(line.startswith("paraeval_f") for line in text.splitlines())


def test_a_bom_starting_a_file_is_not_part_of_its_first_segment_or_row(tmp_path):
    """A file saved with a UTF-8 byte-order mark kept it in its first segment ('\\ufeffa b' scored
    against 'a b', as paraeval -r/-i did before they dropped it), and a human-score table with
    one failed at its first line (a bad number, or no header)."""
    root = _fake(tmp_path)
    refs = root / "txt" / "references"
    (refs / "newstest2021.xx-en.ref.A.en").write_bytes(b"\xef\xbb\xbfa b\nc d\ne f\n")
    ranking = root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv"
    ranking.write_bytes(b"\xef\xbb\xbf" + ranking.read_bytes())
    _segment_files(root, "Nemo.1 2 60 0.5 1\n")
    for name in ("seg-line-map-xx-en.tsv", "ad-seg-scores-xx-en.csv"):
        table = root / "humaneval" / name
        table.write_bytes(b"\xef\xbb\xbf" + table.read_bytes())
    data = load_wmt(root, "xx-en", segments=True)
    assert data.references["A"] == ("a b", "c d", "e f")
    assert data.human["Allegro.eu"].raw == 70.1
    assert [(s.system, s.line) for s in data.segment_scores] == [("Nemo-X", 0)]
    assert list(iter_lines(refs / "newstest2021.xx-en.ref.A.en"))[0] == "a b"


@pytest.mark.parametrize(("table", "row"), [
    ("ad-sys-ranking-xx-en-z-names.csv", "7_0.1 0.2 10 12 Allegro.eu.3 Allegro.eu\n"),
    ("ad-sys-ranking-xx-en-z-names.csv", "70.1 0.2 1_0 12 Allegro.eu.3 Allegro.eu\n"),
    ("ad-seg-scores-xx-en.csv", "SYS SID RAW.SCR Z.SCR N \nNemo.1 1 9_0 0.9 2 \n"),
    ("ad-seg-scores-xx-en.csv", "SYS SID RAW.SCR Z.SCR N \nNemo.1 1_0 90 0.9 2 \n"),
    ("seg-line-map-xx-en.tsv", "SID\tline\n1\t1_0\n"),
])
def test_a_number_with_a_digit_group_mark_is_a_bad_number(tmp_path, table, row) -> None:
    """Python reads '7_0.1' as 70.1 and '1_0' as 10: a score or SID typed with an underscore
    was read as another number without a word. It is a bad number at its line, as 'x' is."""
    root = _fake(tmp_path)
    _segment_files(root, "Nemo.1 1 90 0.9 2 \n", "SID\tline\n1\t1\n")
    (root / "humaneval" / table).write_text(row, encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad number .*_"):
        load_wmt(root, "xx-en", segments=True)


def test_a_line_map_past_the_txt_files_names_the_map_and_its_line(tmp_path):
    """A seg-line-map row pointing past the txt files was 'xx-en: seg-line-map points past the 3
    lines of the txt files', naming neither the file nor the row (of a thousand) at fault."""
    root = _fake(tmp_path)
    _segment_files(root, "Nemo.1 1 90 0.9 2\nNemo.1 2 80 0.9 2\n", "SID\tline\tdoc_id\n1\t2\td1\n2\t9\td1\n")
    with pytest.raises(MismatchError) as caught:
        load_wmt(root, "xx-en", segments=True)
    where = root / "humaneval" / "seg-line-map-xx-en.tsv"
    assert str(caught.value) == f"{where}:3: SID 2 is line 9, past the 3 lines of the txt files"
    assert (caught.value.source, caught.value.line) == (str(where), 3)


def test_segment_scores_of_none_of_the_systems_scored_is_a_data_error_naming_the_file(tmp_path):
    """An ad-seg-scores file with no row for any system scored (only HUMAN's, or SYS_IDs of another
    ranking) loaded as no judgment at all, and meta-eval --level segment stopped with 'segment
    level needs the segment DA (load_wmt(..., segments=True))', a usage error (exit 2) naming a
    Python call. It is a data error naming the file and the SYS_IDs looked for."""
    root = _fake(tmp_path)
    _segment_files(root, "HUMAN.0 1 90 0.9 2\nNemo.9 2 80 0.9 2\n")
    with pytest.raises(FormatError) as caught:
        load_wmt(root, "xx-en", segments=True)
    assert str(caught.value) == (f"{root / 'humaneval' / 'ad-seg-scores-xx-en.csv'}: no segment scores of "
                                 "the 3 systems scored (SYS Allegro.eu.3, Nemo.1, Other.2)")


def test_a_sys_id_of_two_systems_is_refused_at_its_line(tmp_path):
    """Two ranked systems with one SYS_ID gave every segment score of the first to the second (the
    segment scores are keyed by SYS_ID), without a word: one system judged on no segment, the
    other on its own output's segments but with the first one's scores."""
    root = _fake(tmp_path)
    ranking = root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv"
    ranking.write_text(ranking.read_text(encoding="utf-8") + "30 -0.5 10 12 Nemo.1 Unranked\n", encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        load_human_scores(root, "xx-en")
    assert str(caught.value) == f"{ranking}:6: SYS_ID 'Nemo.1' of system 'Unranked' is that of 'Nemo-X' too"


@pytest.mark.parametrize(("line_map", "message"), [
    ("SID\tline\n1\t2\n1\t3\n", r":3: SID 1 repeated \(first at line 2\)$"),
    ("SID\tline\n1\t0\n", r":2: line 0 of SID 1: the map's lines count from 1$"),
    ("SID\tline\n1\t2\n2\t2\n", r":3: SID 2 maps to line 2, as SID 1 does \(line 2\): two SIDs map to the same line$"),
])
def test_a_bad_line_map_row_says_which_fault_it_has(tmp_path, line_map, message):
    """The first two faults read 'SID 1 repeated or line 0 < 1', leaving the reader to find which;
    the third named no line of the map ('<map>: two SIDs map to the same line')."""
    root = _fake(tmp_path)
    _segment_files(root, "", line_map)
    with pytest.raises(FormatError, match=message):
        load_segment_lines(root, "xx-en")


def test_a_human_scores_header_is_skipped_and_another_named_as_a_header(tmp_path):
    """A human-scores file starting with the header 'RAW.SCR Z.SCR N N.ALL SYS_ID NAME' was
    "bad number (could not convert string to float: 'RAW.SCR')": it is skipped now, in any case, as
    the other readers skip theirs; a header of other names is an error saying it is one."""
    root = _fake(tmp_path)
    path = root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv"
    rows = path.read_text(encoding="utf-8")
    path.write_text("RAW.SCR Z.SCR N N.ALL SYS_ID NAME\n" + rows, encoding="utf-8")
    assert sorted(load_human_scores(root, "xx-en")) == ["Allegro.eu", "Gone", "Nemo-X", "Other"]
    path.write_text("\nraw.scr z.scr n n.all sys_id name \n" + rows, encoding="utf-8")
    assert load_human_scores(root, "xx-en")["Nemo-X"].sys_id == "Nemo.1"
    path.write_text("raw z count all id system\n" + rows, encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        load_human_scores(root, "xx-en")
    assert str(caught.value) == (f"{path}:1: a header line of other fields ('raw z count all id system') than "
                                 "'RAW.SCR Z.SCR N N.ALL SYS_ID NAME': the file may start with that header, or with a row")
    path.write_text("RAW.SCR Z.SCR N N.ALL SYS_ID NAME\n", encoding="utf-8")  # a header alone: no row
    with pytest.raises(FormatError, match="no human scores for xx-en"):
        load_human_scores(root, "xx-en")


def test_two_reference_sets_of_the_same_lines_are_refused_naming_both(tmp_path):
    """A folder whose ref B is a copy of ref A was loaded as two references: BLEU signed nrefs:2,
    and ParaEval refused the streams naming no file. As --refs A,A is refused, load_wmt refuses
    them, naming both files (the same lines after the line-end rule: CRLF, no final newline)."""
    root = _fake(tmp_path)
    refs = root / "txt" / "references"
    (refs / "newstest2021.xx-en.ref.B.en").write_bytes(b"a b\r\nc d\r\ne f")
    with pytest.raises(SameReferenceError) as caught:
        load_wmt(root, "xx-en", ["A", "B"])
    assert str(caught.value) == (f"reference B ({refs / 'newstest2021.xx-en.ref.B.en'}) has the same lines as "
                                 f"reference A ({refs / 'newstest2021.xx-en.ref.A.en'}): give each reference once")
    assert caught.value.first.startswith("reference A (") and isinstance(caught.value, ConfigurationError)
    assert len(load_wmt(root, "xx-en", ["B"])) == 3  # one of them alone is a reference set
