"""corpora/wmt_reference.py: the reference a scores file names, in its rows or its name."""

from __future__ import annotations

import pytest

from paralign.corpora.wmt_reference import (
    NamedReference,
    field_reference,
    name_level,
    name_reference,
)


@pytest.mark.parametrize(("path", "want"), [
    ("scores/COMET-refB.seg.score", NamedReference(("B",), "refB")),
    ("COMET-22-refA.sys.score", NamedReference(("A",), "refA")),
    ("BLEU-refa.refb.sys.score", NamedReference(("a", "b"), "refa.refb")),
    ("BLEU-all.sys.score", NamedReference(None, "all")),
    (r"C:\runs\chrF-refB.doc.score", NamedReference(("B",), "refB")),
    ("scores/COMET/de-en/COMET_newstest2021_ref-B.tsv", NamedReference(("B",), "ref-B")),
    ("COMET_newstest2021_ref-A.tsv.gz", NamedReference(("A",), "ref-A")),
    ("COMET-QE-src.seg.score", None),  # no reference used: nothing to check
    ("COMET-ref.seg.score", None),  # a reference that is no set's name
    ("mine.seg.score", None), ("mine.tsv", None), ("refined-scores.tsv", None), ("<stdin>", None),
])
def test_a_files_name_says_its_reference_as_mt_metrics_eval_and_wmt21_name_them(path, want):
    """mt-metrics-eval's NAME-REF.LEVEL.score (REF one or more refX joined by '.', all, src) and
    WMT21's ..._ref-X.tsv name the reference; other names name none."""
    assert name_reference(path) == want


def test_a_reference_field_names_its_set_and_line():
    assert field_reference("newstest2021.de-en.ref.ref-B", 3) == NamedReference(("B",), "newstest2021.de-en.ref.ref-B", 3)
    assert field_reference("ref-A", 1) == NamedReference(("A",), "ref-A", 1)
    assert field_reference("src", 1) is None


@pytest.mark.parametrize(("path", "want"), [
    ("COMET-refA.doc.score", "doc"), ("x/COMET-refA.domain.score.gz", "domain"), ("BLEU-src.seg.score", "seg"),
    ("COMET-22-refA.sys.score", "sys"), ("mine.doc.score", None), ("mine.tsv", None),
])
def test_an_mt_metrics_eval_files_name_says_its_level(path, want):
    assert name_level(path) == want
