"""corpora/wmt_submission.py: WMT metrics-task submission files (the task page's two layouts)."""

from __future__ import annotations

import pytest

from paralign.corpora.metric_scores import GivenScore
from paralign.corpora.wmt_reference import NamedReference
from paralign.corpora.wmt_submission import is_submission, read_submission
from paralign.errors import FormatError


def _read(rows: list[str], source: str, pair: str | None = None) -> tuple[dict, dict]:
    """(system scores, segment scores) of `rows` (:func:`read_submission`)."""
    submission = read_submission(rows, source, pair)
    return submission.systems, submission.segments


def _rows(*rows: str) -> list[str]:
    return [row.replace(" ", "\t") for row in rows]


def test_both_layouts_of_both_levels_are_read_as_the_scores_of_the_pair():
    """System rows of 6 fields (no domain) and 7 (a domain: only ``all`` kept), segment rows of 7
    (no domain) and 9 (a domain and document, every row kept), told apart by where the reference
    is; rows of another pair or test set are left out."""
    system6 = _rows("m de-en newstest2021 ref-A A 0.5", "m cs-en newstest2021 ref-A A 9",
                    "m de-en florestest2021 ref-A A 9", "m de-en newstest2021 ref-A B 0.25")
    system7 = _rows("m de-en newstest2021 all ref-A A 0.5", "m de-en newstest2021 news ref-A A 9",
                    "m de-en newstest2021 all ref-A B 0.25")
    assert is_submission(system6) and is_submission(system7)
    want = {"A": GivenScore(0.5, 1), "B": GivenScore(0.25, 4)}
    assert _read(system6, "f", "de-en") == (want, {})
    assert _read(system7, "f", "de-en") == ({"A": GivenScore(0.5, 1), "B": GivenScore(0.25, 3)}, {})
    segment7 = _rows("m de-en newstest2021 src A 2 0.75", "m de-en newstest2021 src A 1 0.5")
    segment9 = _rows("m de-en newstest2021 news d1 src A 2 0.75", "m de-en newstest2021 social d9 src A 1 0.5")
    for rows in (segment7, segment9):
        assert _read(rows, "f", "de-en") == ({}, {"A": {2: GivenScore(0.75, 1), 1: GivenScore(0.5, 2)}})
    assert _read(segment7, "f") == _read(segment7, "f", "de-en")  # the file's one pair
    assert not is_submission(["A\t0.5"]) and not is_submission(["A\t1\t0.5"]) and not is_submission(["a b c d e f"])


@pytest.mark.parametrize(("rows", "pair", "message"), [
    (["m de-en newstest2021 ref-A A 0.5", "m de-en newstest2021 ref-A B"], "de-en",
     "f:2: expected 6, 7 or 9 TAB-separated fields (a WMT metrics-task submission row), found 5"),
    (["m de-en newstest2021 all news A 0.5"], "de-en", "f:1: 7 fields, and the reference (ref-A, ..., src) is neither the 4th field "),
    (["m de-en newstest2021 ref-A src A 0.5"], "de-en", "f:1: segment 'A' is not a line number"),
    (["m de-en newstest2021 ref-A A x 0.5"], "de-en", "f:1: segment 'x' is not a line number (1, 2, ...)"),
    (["m de-en newstest2021 ref-A A inf"], "de-en", "f:1: the score of system 'A': "),
    (["m de-en newstest2021 ref-A A 0.5", "n de-en newstest2021 ref-A B 0.5"], "de-en",
     "f:2: metric 'n', where line 1 has 'm': one metric's scores against one reference, at one level"),
    (["m de-en newstest2021 ref-A A 0.5", "m de-en newstest2021 ref-B B 0.5"], "de-en",
     "f:2: reference 'ref-B', where line 1 has 'ref-A'"),
    (["m de-en newstest2021 ref-A A 0.5", "m de-en newstest2021 ref-A A 1 0.5"], "de-en",
     "f:2: level 'segment', where line 1 has 'system'"),
    (["m de-en newstest2021 ref-A A 0.5", "m de-en newstest2021 ref-A A 0.5"], "de-en",
     "f:2: system 'A' given twice (first on line 1)"),
    (["m de-en newstest2021 ref-A A 3 0.5", "m de-en newstest2021 ref-A A 3 0.5"], "de-en",
     "f:2: segment 3 of system 'A' given twice (first on line 1)"),
    (["m de-en newstest2021 ref-A A 0.5", "m cs-en newstest2021 ref-A A 0.5"], None,
     "f:2: pair 'cs-en', the file's first is 'de-en': give the pair to read"),
    (["m cs-en newstest2021 ref-A A 0.5"], "de-en",
     "f: no scores of de-en on newstest2021 (the file scores cs-en on newstest2021)"),
    (["m de-en newstest21 ref-A A 0.5", "m cs-en newstest2021 ref-A A 0.5"], "de-en",
     "f: no scores of de-en on newstest2021 (the file scores cs-en on newstest2021, de-en on newstest21)"),
    (["m de-en newstest2021 news ref-A A 0.5"], "de-en", "f: no scores of de-en on newstest2021 (the file scores "
     "de-en on newstest2021 in domain news; system scores are read from domain all)"),
])
def test_a_row_that_cannot_be_used_is_an_error_naming_the_line(rows, pair, message):
    with pytest.raises(FormatError) as caught:
        _read(_rows(*rows), "f", pair)
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_reference_field_naming_the_tasks_reference_file_is_a_reference():
    """The REFERENCE field may name the task's file of the reference (``newstest2021.de-en.ref.ref-A``):
    before, a 7-field row holding it was refused ('the reference (ref-A, ..., src) is not the 4th
    field alone ...'), as if it named none. Now it is ref-A, in either 7-field layout, and rows
    writing ref-A either way are of one reference."""
    long = "newstest2021.de-en.ref.ref-A"
    segment7 = _rows(f"m de-en newstest2021 {long} A 2 0.75", "m de-en newstest2021 ref-A A 1 0.5")
    assert _read(segment7, "f", "de-en") == ({}, {"A": {2: GivenScore(0.75, 1), 1: GivenScore(0.5, 2)}})
    system7 = _rows(f"m de-en newstest2021 all {long} A 0.5")
    assert _read(system7, "f", "de-en") == ({"A": GivenScore(0.5, 1)}, {})


def test_a_human_reference_scored_as_a_system_is_a_segment_rows_system():
    """The task scores human references as systems (system ``ref-B`` against reference ref-A): a
    7-field segment row of such a system has references in its 4th and 5th fields, and was
    refused as of neither layout. A domain is never a reference's name: the 4th field decides."""
    rows = _rows("m de-en newstest2021 ref-A ref-B 1 0.5", "m de-en newstest2021 ref-A Good 1 0.25")
    assert _read(rows, "f", "de-en") == ({}, {"ref-B": {1: GivenScore(0.5, 1)},
                                                        "Good": {1: GivenScore(0.25, 2)}})


def test_rows_against_several_references_are_read_for_the_one_refs_names():
    """The task asks for a metric's scores against each reference: one file holds rows against
    ref-A and against ref-B. Before, it was refused at the first row of the second ('reference
    'ref-B', where line 1 has 'ref-A'), whatever --refs said; now `refs` of one set picks its rows
    (without case, either spelling), as `pair` picks the pair's. Without `refs`, or with one the
    file lacks, it is refused as before; a file against one reference is read whole."""
    rows = _rows("m de-en newstest2021 ref-A A 0.5", "m de-en newstest2021 newstest2021.de-en.ref.ref-B A 0.75",
                 "m de-en newstest2021 ref-A B 0.25", "m de-en newstest2021 ref-B B 1")
    a, b = read_submission(rows, "f", "de-en", refs=["A"]), read_submission(rows, "f", "de-en", refs=["b"])
    assert (a.systems, a.reference) == ({"A": GivenScore(0.5, 1), "B": GivenScore(0.25, 3)}, NamedReference(("A",), "ref-A", 1))
    assert b.systems == {"A": GivenScore(0.75, 2), "B": GivenScore(1.0, 4)} and b.reference.labels == ("B",)
    for refs in (None, ["C"], ["A", "B"]):
        with pytest.raises(FormatError, match="^f:2: reference .*; --refs of one set reads its rows"):
            read_submission(rows, "f", "de-en", refs=refs)
    assert read_submission(rows[:1], "f", "de-en", refs=["B"]).reference == NamedReference(("A",), "ref-A", 1)


def test_wmt21_automatic_scores_are_refused_saying_what_the_file_is():
    """WMT21's scores/automatic-scores.tsv (six fields under a header, BLEU and chrF of every
    system under six metric names) was taken for a submission file by its six fields and refused
    at line 1 with "could not convert 'score'". Now the error says what it is and what to give."""
    lines = ["pair\tsystem\tid\tis_constrained\tmetric\tscore",
             "de-en\tUEdin\t1\tTrue\tbleu-A\t31.2", "de-en\tUEdin\t1\tTrue\tchrf-A\t58.1"]
    assert is_submission(lines)
    with pytest.raises(FormatError) as caught:
        read_submission(lines, "automatic-scores.tsv", "de-en")
    message = str(caught.value)
    assert message.startswith("automatic-scores.tsv:1: WMT21's scores/automatic-scores.tsv (header 'pair system id ")
    assert "the built-in metrics bleu and chrf compute these (meta-eval --metrics bleu,chrf)" in message
    assert "could not convert" not in message


def test_wmt21_automatic_scores_without_their_header_are_told_by_their_rows():
    """The same file without its header (``tail -n +2``, a grep of one pair's rows) was read as
    submission rows, its pair taken for the metric and its system for the pair, and refused with
    "no scores of de-en on newstest2021 (the file scores UEdin on 1, ...)". Its rows' shape (a
    whole-number id, then True or False where a submission row has its reference) tells it: the
    same error as with the header, at its first row."""
    rows = ["", "de-en\tUEdin\t1\tTrue\tbleu-A\t31.2", "de-en\tUEdin\t1\tFALSE\tchrf-A\t58.1"]
    with pytest.raises(FormatError) as caught:
        read_submission(rows, "auto.tsv", "de-en")
    assert str(caught.value).startswith("auto.tsv:2: WMT21's scores/automatic-scores.tsv (header 'pair system id ")
    with pytest.raises(FormatError, match="^auto.tsv:1: WMT21's"):
        read_submission(rows[2:], "auto.tsv", "de-en")
    # a submission row of six fields is still one: its 4th field is its reference
    assert _read(_rows("m de-en newstest2021 ref-A 1 0.5"), "f", "de-en") == ({"1": GivenScore(0.5, 1)}, {})
