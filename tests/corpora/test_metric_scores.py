"""corpora/metric_scores.py: a metric's own scores files (meta-eval --scores) in paralign's and
mt-metrics-eval's layouts (moved out of test_wmt.py with the module)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paralign.corpora.wmt import iter_lines
from paralign.errors import FormatError


def test_system_scores_are_read_and_told_from_segment_scores_by_their_layout():
    """``system<TAB>score`` lines (WMT21's scores/COMET files, mt-metrics-eval's *.sys.score) are
    system scores, read with their lines; ``system<TAB>segment<TAB>score`` lines segment scores;
    a header (line 1) or blank lines do not decide. A line of the other layout, a score that is not a
    finite number, a system given twice or no score is an error naming the file and line."""
    from paralign.corpora.metric_scores import GivenScore, read_system_scores, scores_layout

    assert scores_layout(["system\tscore", "", "A\t0.5", "A\t1\t0.5"]) == "system"
    assert scores_layout(["system\tsegment\tscore", "A\t1\t0.5"]) == "segment"
    assert scores_layout(["A"]) == "segment"  # one field: read_metric_scores says what is wrong
    assert read_system_scores(["System\tScore", "A\t0.5", "", "B\t-1e-3\r"], "f.tsv") == {
        "A": GivenScore(0.5, 2), "B": GivenScore(-0.001, 4)}
    for lines, message in ((["A\t0.5", "B\t1\t0.5"], "f.tsv:2: expected 2 fields (system, score)"),
                           (["A\tnan"], "f.tsv:1: the score of system 'A': "),
                           (["A\t1", "B\t2", "A\t3"], "f.tsv:3: system 'A' given twice (first on line 1)"),
                           (["system\tscore", ""], "f.tsv: no scores: expected system<TAB>segment<TAB>score lines")):
        with pytest.raises(FormatError) as caught:
            read_system_scores(lines, "f.tsv")
        assert str(caught.value).startswith(message), str(caught.value)


def _plain(scores: dict) -> dict:
    """system -> segment -> score of a reader's system -> segment -> GivenScore (lines aside)."""
    return {system: {k: given.score for k, given in by_k.items()} for system, by_k in scores.items()}


def test_mt_metrics_eval_score_files_are_read_by_the_lines_of_each_system():
    """mt-metrics-eval's score files are ``SYSNAME SCORE`` lines, blank-separated (its README: "Blanks
    designate any amount of whitespace"; ``data.ReadScoreFile`` splits on any): a ``*.sys.score``
    one line a system, a ``*.seg.score`` a block of lines a system, one a segment in the test set's
    order (no segment number). Before, a ``*.seg.score`` was read as system scores ("system 'A'
    given twice", line 2) and a blank-separated file as a line of one field; now the number of
    lines of each system decides, and systems whose counts part are an error naming the line."""
    from paralign.corpora.metric_scores import (
        GivenScore,
        read_segment_blocks,
        read_segment_scores,
        read_system_scores,
        scores_layout,
    )

    sys_score = ["A 0.5", "B  -1e-3", "C\t2"]
    seg_score = ["A\t0.1", "A\t0.2", "A\t0.3", "B 1", "B 2", "B 3"]
    assert scores_layout(sys_score) == "system"
    assert read_system_scores(sys_score, "m.sys.score") == {
        "A": GivenScore(0.5, 1), "B": GivenScore(-0.001, 2), "C": GivenScore(2.0, 3)}
    assert scores_layout(seg_score) == "blocks"
    assert scores_layout(["system\tscore", *seg_score]) == "blocks"
    blocks = {"A": {1: GivenScore(0.1, 1), 2: GivenScore(0.2, 2), 3: GivenScore(0.3, 3)},
              "B": {1: GivenScore(1.0, 4), 2: GivenScore(2.0, 5), 3: GivenScore(3.0, 6)}}
    assert read_segment_blocks(seg_score, "m.seg.score") == blocks
    assert read_segment_scores(seg_score, "m.seg.score") == blocks
    # the same scores as system<TAB>segment<TAB>score lines read alike
    rows = [f"{s}\t{k}\t{g.score!r}" for s, by_k in blocks.items() for k, g in by_k.items()]
    assert _plain(read_segment_scores(rows, "f")) == _plain(blocks)
    for lines, message in (
            (["A 1", "B 2", "A 3"], "f:3: system 'A' has 2 lines, 1 other system has 1: a file of SYSNAME SCORE "
                                    "lines has one line a system (system scores, *.sys.score) or, for every system, "
                                    "one a segment in the test set's order (segment scores, *.seg.score)"),
            ([*seg_score[:5], "C 1", "C 2", "C 3"], "f:5: system 'B' has 2 lines, 2 other systems have 3: "),
            ([*seg_score, "B 4", "C 1", "C 2", "C 3"], "f:7: system 'B' has 4 lines, 2 other systems have 3: "),
            ([*seg_score, "A 0.4 x"], "f:7: expected 2 fields (system, score), found 3"),
            (["A 0.1", "A nan"], "f:2: the score of system 'A': "),
            (["A 0.1", "A None"], "f:2: the score of system 'A': ")):
        with pytest.raises(FormatError) as caught:
            read_segment_scores(lines, "f")
        assert str(caught.value).startswith(message), str(caught.value)
    with pytest.raises(FormatError, match=r"^m.sys.score: system scores \(SYSNAME SCORE lines, one a system\), not "):
        read_segment_scores(sys_score, "m.sys.score")


def test_a_file_of_segment_scores_reads_alike_in_either_layout(tmp_path):
    """A metric's own segment scores read from a file (its lines as `iter_lines` gives them: BOM
    and CRLF dropped) only as system<TAB>segment<TAB>score lines: an mt-metrics-eval
    ``*.seg.score`` was 'expected 3 TAB-separated fields'. Now either layout reads as ``meta-eval
    --scores`` reads segment scores (the same rows either way), and a file of system scores is an
    error naming it."""
    from paralign.corpora.metric_scores import read_segment_scores

    def load_metric_scores(path: Path) -> dict:
        return read_segment_scores(list(iter_lines(path)), str(path))

    seg = tmp_path / "m-refA.seg.score"
    seg.write_bytes(b"\xef\xbb\xbfA\t0.5\r\nA\t0.25\r\nB\t1\r\nB\t2\r\n")  # BOM and CRLF, as every input
    tsv = tmp_path / "m.tsv"
    tsv.write_text("system\tsegment\tscore\nB\t2\t2\nA\t1\t0.5\nB\t1\t1\nA\t2\t0.25\n", encoding="utf-8")
    assert _plain(load_metric_scores(seg)) == _plain(load_metric_scores(tsv)) == {
        "A": {1: 0.5, 2: 0.25}, "B": {1: 1.0, 2: 2.0}}
    assert load_metric_scores(seg)["B"][2].line == 4
    system = tmp_path / "m-refA.sys.score"
    system.write_text("A 0.5\nB 1\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"m-refA.sys.score: system scores \(SYSNAME SCORE lines, one a system\)"):
        load_metric_scores(system)


def test_a_scores_file_without_scores_lists_every_layout_alike_in_every_reader():
    """An empty scores file (blank lines, a header alone) said "no scores (expected
    system<TAB>segment<TAB>score lines)", "(expected SYSNAME SCORE lines)" or "(expected
    system<TAB>score lines)" as the reader that met it had it, each naming one of the layouts
    meta-eval --scores takes; a header ``system<TAB>score`` alone was "expected 3 TAB-separated
    fields" at line 1. Now one message, naming the file, lists them all; and so does a first row
    of none of them, which decides the layout."""
    from paralign.corpora.metric_scores import (
        SCORES_LAYOUTS,
        read_metric_scores,
        read_segment_blocks,
        read_segment_scores,
        read_system_scores,
        scores_layout,
    )

    assert "SYSNAME SCORE lines" in SCORES_LAYOUTS and "submission" in SCORES_LAYOUTS
    assert scores_layout(["system\tscore", ""]) == "system" and scores_layout([]) == "segment"
    two, three = ["system\tscore"], ["System\tSegment\tScore", ""]
    for read, lines in ((read_metric_scores, []), (read_metric_scores, ["", " "]), (read_metric_scores, three),
                        (read_segment_blocks, []), (read_segment_blocks, two), (read_system_scores, [" "]),
                        (read_system_scores, two), (read_segment_scores, []), (read_segment_scores, three)):
        with pytest.raises(FormatError) as caught:
            read(lines, "f.tsv")
        assert str(caught.value) == f"f.tsv: no scores: expected {SCORES_LAYOUTS}", read
    for lines, found in ((["A 1 2 3"], "1 TAB-separated field (4 blank-separated fields)"),
                         (["", "A\t1\t2\t3"], "4 TAB-separated fields")):
        with pytest.raises(FormatError) as caught:
            read_segment_scores(lines, "f.tsv")
        line = 1 + lines.index(lines[-1])
        assert str(caught.value) == (f"f.tsv:{line}: {found}: a row of none of a scores file's layouts; "
                                     f"expected {SCORES_LAYOUTS}")
    with pytest.raises(FormatError, match=r"^f\.tsv:2: expected 3 TAB-separated fields .*, found 4"):
        read_metric_scores(["A\t1\t0.5", "A\t2\t0.5\tx"], "f.tsv")  # the layout decided: its own words
