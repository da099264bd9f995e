"""metrics/given_scores.py: a metric whose scores a file gives (``meta-eval --scores``)."""

from __future__ import annotations

import re

import pytest

from paralign.corpora.wmt import HumanScore, WMTPair
from paralign.errors import ConfigurationError, MismatchError
from paralign.metrics.given_scores import (
    GivenScores,
    GivenSystemScores,
    check_references,
    check_scored,
    given_scores,
)


@pytest.mark.parametrize(("name", "held"), [
    ("a+b", "'+'"), ("a#b", "'#'"), ("a|b", "'|'"), ("a:b", "':'"), ("a=b", "'='"), ("x|y:z+w", "'|', ':', '+'"),
])
def test_a_name_holding_a_separator_of_the_signature_is_refused(tmp_path, name, held):
    """The meta-evaluation's signature writes each given metric as NAME#HASH, joined by ``+``,
    in a ``key:value|...`` string: a name holding one of those marks (or ``=``, that of
    ``--scores NAME=FILE``) made it ambiguous (``scores:a+b#1a2b3c4d``: one metric or two).
    Before, any name was taken; now a ConfigurationError names the file and the marks, for a
    name given or the file's stem."""
    path = tmp_path / "mine.tsv"
    path.write_text("A\t0.5\nB\t0.25\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="^" + re.escape(f"{path}: the name '{name}' holds {held}, ")):
        given_scores(str(path), name)
    stem = tmp_path / "x#y.tsv"
    stem.write_text("A\t0.5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"the name 'x#y' holds '#', "):
        given_scores(str(stem))


def test_the_layout_of_the_lines_gives_system_or_segment_scores(tmp_path):
    """One SYSNAME SCORE line a system is system scores; blocks of them, segment scores; the same
    segment scores as system<TAB>segment<TAB>score lines hash alike."""
    path = tmp_path / "m.seg.score"
    assert isinstance(given_scores(str(path), "m", lines=["A 0.5", "B 0.25"]), GivenSystemScores)
    blocks = given_scores(str(path), "m", lines=["A 0.5", "A 0.75", "B 0.25", "B 1"])
    rows = given_scores(str(path), "m", lines=["B\t2\t1", "A\t1\t0.5", "B\t1\t0.25", "A\t2\t0.75"])
    assert isinstance(blocks, GivenScores) and blocks.digest == rows.digest
    assert blocks.system_stats("B", 2).tolist() == [[0.25, 1.0], [1.0, 1.0]]


def test_system_scores_at_the_segment_level_are_refused_naming_the_option_and_its_values(tmp_path):
    """System scores have no segment level: the usage error said "meta-evaluate them at level
    system or both (--level)", unlike the CLI's others (``--OPTION VALUE: ... give ...``); now it
    names the level as it was given, the command's ``--level`` or the library's ``level``, and
    the values that take them. Segment scores, or the levels system and both, pass."""
    from paralign.metrics.given_scores import check_levels

    path = tmp_path / "m.sys.score"
    system = given_scores(str(path), "m", lines=["A 0.5", "B 0.25"])
    segment = given_scores(str(path), "m", lines=["A 0.5", "A 0.75", "B 0.25", "B 1"])
    with pytest.raises(ConfigurationError, match="^" + re.escape(
            f"--level segment: {path} has system scores only, no segment level: give --level system or --level both")):
        check_levels([segment, system], "segment", "--level")
    with pytest.raises(ConfigurationError, match="^level segment: .* give level system or level both$"):
        check_levels([system], "segment")
    check_levels([system], "system")
    check_levels([system], "both")
    check_levels([segment], "segment")


def test_scores_against_another_reference_than_refs_are_an_error_naming_the_file_line_and_both(tmp_path):
    """A file says which reference its scores are against (a submission row's REFERENCE, an
    mt-metrics-eval or WMT21 file name); correlated beside metrics scored against --refs A, scores
    against ref B were taken for scores against A, silently. Now a MismatchError naming the file,
    the row (for a submission file) and both references; a file naming the same set, ``src``, or
    none passes, and ``all`` is every set of the test set."""
    sub = tmp_path / "mine.sys.score"
    sub.write_text("m\tde-en\tnewstest2021\tref-B\tA\t0.5\nm\tde-en\tnewstest2021\tref-B\tB\t0.25\n", encoding="utf-8")
    metric = given_scores(str(sub), "m", pair="de-en")
    with pytest.raises(MismatchError) as caught:
        check_references([metric], ["A"], ["A", "B"])
    assert str(caught.value).startswith(f"{sub}:1: scores against reference B (its REFERENCE field: 'ref-B'), "
                                        "but --refs A: ")
    assert "give --refs B, or scores against A" in str(caught.value)
    check_references([metric], ["B"], ["A", "B"])
    named = tmp_path / "COMET-refb.seg.score"
    named.write_text("A 0.5\nA 0.75\nB 0.25\nB 1\n", encoding="utf-8")
    blocks = given_scores(str(named), "m")
    with pytest.raises(MismatchError, match="^" + re.escape(f"{named}: scores against reference B (the file's name: "
                                                            "'refb'), but --refs A,B: ")):
        check_references([blocks], ["A", "B"], ["A", "B"])
    check_references([blocks], ["B"], ["A", "B"])  # refb is the folder's B
    every = tmp_path / "COMET-all.sys.score"
    every.write_text("A 0.5\nB 0.25\n", encoding="utf-8")
    with pytest.raises(MismatchError, match=re.escape("scores against reference A,B (the file's name: 'all')")):
        check_references([given_scores(str(every), "m")], ["A"], ["A", "B"])
    check_references([given_scores(str(every), "m")], ["B", "A"], ["A", "B"])
    for path in ("COMET-QE-src.seg.score", "mine.tsv"):  # no reference used, or none named
        check_references([given_scores(str(tmp_path / path), "m", lines=["A 0.5", "B 0.25"])], ["A"], ["A", "B"])


def test_a_file_whose_name_holds_a_bar_is_refused_and_one_holding_a_colon_or_hash_reads_back(tmp_path):
    """A metric's own signature names its file, ``scores:FILE#HASH|system:mean``: a file named
    ``run|1.tsv`` signed ``scores:run|1.tsv#...``, read back (signature_parts) as a part ``scores:run``
    and a keyless ``1.tsv#...``. Now a ConfigurationError naming the file, as a name holding ``|`` is
    refused; ``:`` and ``#`` read back (a part's key ends at its first ``:``, as every signature's
    values may hold one; the hash starts after the last ``#``), so such a file is signed as named."""
    from paralign.signature import signature_parts

    bar = tmp_path / "run|1.tsv"
    with pytest.raises(ConfigurationError, match="^" + re.escape(f"{bar}: the file's name 'run|1.tsv' holds '|', ")):
        given_scores(str(bar), "m", lines=["A 0.5", "B 0.25"])
    odd = given_scores(str(tmp_path / "run:1#x.tsv"), "m", lines=["A 0.5", "B 0.25"])
    parts = signature_parts(odd.signature)
    assert parts == {"scores": f"run:1#x.tsv#{odd.digest}", "system": "given"}
    assert parts["scores"].rpartition("#")[::2] == ("run:1#x.tsv", odd.digest)


@pytest.mark.parametrize(("name", "level"), [("X-refA.doc.score", "document"), ("X-refA.domain.score", "domain")])
def test_mt_metrics_eval_document_and_domain_scores_are_refused_by_their_level(tmp_path, name, level):
    """mt-metrics-eval's ``*.doc.score`` (a block of document scores a system) was read as segment
    blocks, refused as 'no score for segment 120 of system ...', and ``*.domain.score`` (DOMAIN
    SYSNAME SCORE) as lines of 'expected 3 TAB-separated fields': words about another layout. Now
    a ConfigurationError naming the file and its level, before it is read."""
    path = tmp_path / name
    with pytest.raises(ConfigurationError, match="^" + re.escape(f"{path}: mt-metrics-eval's {level}-level scores")):
        given_scores(str(path), "m", lines=["A 0.5", "A 0.75", "B 0.25", "B 1"])


def _pair(ids: dict[str, str]) -> WMTPair:
    """A WMTPair of one segment whose systems have the humans' SYS_IDs `ids` (SYS_ID -> NAME)."""
    human = {name: HumanScore(name, sys_id, 50.0, 0.0, 1, 1) for sys_id, name in ids.items()}
    return WMTPair("de-en", {"A": ("a",)}, {name: ("a",) for name in human}, human)


def test_check_scored_says_when_the_file_names_systems_by_sys_id(tmp_path):
    """Every correlated system must have a score; a file naming them by SYS_ID (``Nemo.7``), or by
    one without its ``.N`` (``Nemo``, WMT21's COMET files), is told so, each name with its NAME.
    No hint when no name is the missing system's SYS_ID; a file scoring every system passes."""
    path = tmp_path / "m.sys.score"
    path.write_text("Nemo 0.5\nUF.15 0.25\nSMU 0.1\n", encoding="utf-8")
    metric = given_scores(str(path))
    with pytest.raises(MismatchError) as caught:
        check_scored([metric], _pair({"SMU.1": "SMU", "UF.15": "UF", "Nemo.7": "NVIDIA-NeMo"}))
    assert str(caught.value) == (
        f"{path}: no scores for system 'UF' (the file scores 3 systems: Nemo, SMU, UF.15); 2 names of the "
        "file are SYS_IDs (or one without its '.N') of systems in ad-sys-ranking-de-en-z-names.csv (its 5th "
        "field), where the outputs are named by NAME (its last): 'Nemo' is 'NVIDIA-NeMo' (SYS_ID 'Nemo.7'), "
        "'UF.15' is 'UF'; name the file's rows by NAME")
    check_scored([metric], _pair({"SMU.1": "SMU", "x": "Nemo", "UF.15": "UF.15"}))  # all scored
    with pytest.raises(MismatchError, match=r"no scores for system 'X' \(the file scores 3 systems: Nemo, SMU, "
                                            r"UF\.15\)$"):
        check_scored([metric], _pair({"SMU.1": "SMU", "X.1": "X", "UF.15": "UF"}))  # no name is X's SYS_ID
    with pytest.raises(MismatchError, match=r"UF\.15\)$"):  # Nemo, the stem of two SYS_IDs, is neither's
        check_scored([metric], _pair({"SMU.1": "SMU", "Nemo.7": "NVIDIA-NeMo", "Nemo.8": "NeMo-2"}))


def test_a_name_of_the_file_that_differs_only_in_case_is_said_to(tmp_path):
    """A file scoring 'online-W' where the outputs say 'Online-W' was "no scores for system
    'Online-W'" with the name among those listed (or past the ten shown), no word of the case,
    where meta-eval's warnings say it of the humans' and the outputs' names; still not matched."""
    path = tmp_path / "m.sys.score"
    path.write_text("".join(f"S{k} 0.{k}\n" for k in range(12)) + "online-W 0.5\n", encoding="utf-8")
    with pytest.raises(MismatchError) as caught:
        check_scored([given_scores(str(path))], _pair({"S1.1": "S1", "W.2": "Online-W"}))
    assert str(caught.value).endswith(
        ", ...); the file's 'online-W' differs only in case: not matched, as a name is matched as written (the "
        "output files' names); rename it")


def test_the_meta_evaluation_checks_the_systems_scored_before_computing(tmp_path):
    """`meta_evaluate` (and `meta_evaluate_levels`, through `metric_statistics`) said the bare "no
    scores for system ..." once it reached the metric; it gives check_scored's error, hint and all."""
    from paralign.metrics.correlation import meta_evaluate

    path = tmp_path / "m.sys.score"
    path.write_text("SMU.1 0.5\nUF.15 0.25\n", encoding="utf-8")
    with pytest.raises(MismatchError, match=r"no scores for system 'SMU' .*'SMU\.1' is 'SMU', 'UF\.15' is 'UF'; "):
        meta_evaluate(_pair({"SMU.1": "SMU", "UF.15": "UF"}), ["A"], [given_scores(str(path))], n_resamples=2)


@pytest.mark.parametrize("char", ["\n", "\r", "\u2028"])
def test_a_metric_name_holding_a_line_break_is_refused_naming_it(tmp_path, char):
    """A given metric's name (``--scores NAME=FILE``, else the file's stem) is written into the
    meta-evaluation's signature (``scores:NAME#HASH``): a line break in it read back, but text
    output printed the ``signature:`` line in two. Refused as ``|`` is, naming the character."""
    name = f"my{char}metric"
    with pytest.raises(ConfigurationError, match="^" + re.escape(
            f"{tmp_path / 'm.tsv'}: the name {name!r} holds {char!r}, a line break, which would split the signature's line")):
        given_scores(str(tmp_path / "m.tsv"), name, lines=["A 0.5", "B 0.25"])
