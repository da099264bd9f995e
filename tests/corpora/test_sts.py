"""STS (SemEval TSV, STS Benchmark) and MSRP loaders: layouts, bad rows, shipped files."""

from __future__ import annotations

import gzip

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.corpora.msrp import load_msrp
from paralign.corpora.sentence_pairs import detect_layout
from paralign.corpora.sts import detect_format, load_sts
from paralign.errors import ConfigurationError, FormatError
from paralign.textio import open_text


def write(path, text: str, encoding: str = "utf-8"):
    path.write_bytes(text.encode(encoding))
    return path


def test_sts_tsv_bad_rows_are_reported_with_line_numbers(tmp_path):
    f = write(
        tmp_path / "x.tsv",
        "\ufeff2.6\tDrug lord captured\tDrug lord held\n"
        "\tno gold here\tsecond\n"
        "4.4\tonly one sentence\n"
        "abc\tnot a score\tx\n"
        "\n"
        "3.0\tfine\tok\textra\tcolumns\n"
        "1.0\t \tempty first\n"
        "7.5\tout of\trange\n",
    )
    data = load_sts(f)
    assert data.format == "sts"
    assert [p.line for p in data.pairs] == [1, 6]
    assert data.pairs[0].sentence1 == "Drug lord captured"
    assert data.pairs[0].score == 2.6
    assert data.pairs[1].sentence2 == "ok"
    reasons = {r.line: r.reason for r in data.skipped}
    assert set(reasons) == {2, 3, 4, 5, 7, 8}
    assert reasons[2] == "no gold score"
    assert "expected 3" in reasons[3]
    assert reasons[4] == "gold score 'abc' is not a number"
    assert reasons[5] == "empty line"
    assert reasons[7] == "empty first sentence"
    assert reasons[8] == "gold score 7.5 outside 0-5"  # skipped: it would make the correlation wrong
    notes = {(r.line, r.reason) for r in data.notes}
    assert (1, "byte-order mark removed") in notes
    assert any(line == 6 and "extra" in reason for line, reason in notes)


@pytest.mark.parametrize("score", ["inf", "-inf", "nan", "Infinity", "1e999", "5.01", "-0.5", "1e3"])
def test_gold_scores_that_are_not_finite_or_outside_0_5_are_skipped_with_their_line(tmp_path, score):
    f = write(tmp_path / "x.tsv", f"4.0\ta cat\ta cat sat\n{score}\tthe dog\tdogs\n0\tx\ty\n5\tp\tq\n")
    data = load_sts(f, format="sts")
    assert [p.line for p in data.pairs] == [1, 3, 4]
    assert [r.line for r in data.skipped] == [2]
    assert score in data.skipped[0].reason or "outside 0-5" in data.skipped[0].reason


def test_a_gold_score_that_is_no_number_is_not_called_infinite(tmp_path):
    """A score written '3,5' (a decimal comma) was 'not a finite number', as if it were NaN or
    infinite: it is not a number; NaN and inf keep 'not a finite number'."""
    f = write(tmp_path / "x.tsv", "3,5\ta cat\ta cat sat\nnan\tthe dog\tdogs\ninf\tp\tq\n4\tx\ty\n")
    assert [r.reason for r in load_sts(f, format="sts").skipped] == [
        "gold score '3,5' is not a number", "gold score 'nan' is not a finite number",
        "gold score 'inf' is not a finite number"]


def test_stsb_layout_takes_fields_5_and_6(tmp_path):
    rows = [
        'main-captions\tMSRvid\t2012test\t0024\t2.500\tA girl is "styling" her hair.\tA girl is brushing her hair.',
        "main-news\theadlines\t2015\t0001\t4.0\tA\tB\tsrc1\tsrc2",
        "main-news\theadlines\t2015\t0002\t\tno\tscore",
        "main-news\theadlines\t2015\t0003",
    ]
    f = write(tmp_path / "sts-dev.csv.gz", "")
    with gzip.open(f, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(rows) + "\n")
    assert detect_format(f) == "stsb"
    data = load_sts(f)
    assert [(p.id, p.sentence1, p.sentence2, p.score) for p in data.pairs] == [
        ("MSRvid-2012test-0024", 'A girl is "styling" her hair.', "A girl is brushing her hair.", 2.5),
        ("headlines-2015-0001", "A", "B", 4.0),
    ]
    assert data.pairs[0].genre == "main-captions"
    assert [(r.line, r.reason) for r in data.skipped][0] == (3, "no gold score")
    assert "expected 7 (STS Benchmark: genre" in data.skipped[1].reason
    assert any("extra" in n.reason for n in data.notes)


def test_sts_format_errors(tmp_path):
    empty = write(tmp_path / "empty.tsv", "\n\n")
    with pytest.raises(FormatError, match="empty.tsv"):
        load_sts(empty)
    with pytest.raises(ConfigurationError):
        load_sts(write(tmp_path / "a.tsv", "1\ta\tb\n"), format="csv")


def test_msrp_bom_header_crlf_and_bad_rows(tmp_path):
    train = write(
        tmp_path / "train.tsv",
        "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\r\n"
        '1\t702876\t702977\tAmrozi accused his brother, whom he called "the witness".\tReferring to him as "the witness", Amrozi accused ...\r\n'
        "0\t1\t2\tYucaipa owned it.\tYucaipa bought it.\r\n"
        "x\t1\t2\tbad\tlabel\r\n"
        "1\t1\t2\tmissing sentence\r\n",
    )
    val = write(tmp_path / "val.tsv", "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n1\t5\t6\tA b.\tA c.\n")
    data = load_msrp(train, val)
    assert len(data) == 3
    assert data.labels == [True, False, True]
    assert data.pairs[0].sentence1.endswith('"the witness".')
    assert data.pairs[0].id == "702876-702977"
    assert not data.pairs[1].sentence2.endswith("\r")
    skipped = [(f.endswith("train.tsv"), r.line) for f, r in data.skipped]
    assert skipped == [(True, 4), (True, 5)]
    assert "not 0 or 1" in data.skipped[0][1].reason
    assert any(r.reason == "byte-order mark removed" for _, r in data.notes)
    assert data.summary()["positive"] == 2


# -- the shipped files (counts from their READMEs) --------------------------------------------
@pytest.mark.data
def test_shipped_sts_files(data):
    root = data / "similarity"
    for name, count in (("headlines", 750), ("OnWN", 561), ("FNWN", 189)):
        loaded = load_sts(root / "sts" / "2013" / f"{name}.test.tsv")
        assert (loaded.format, len(loaded), len(loaded.skipped)) == ("sts", count, 0)
        assert all(0 <= p.score <= 5 for p in loaded)
    dev = load_sts(root / "stsbenchmark" / "sts-dev.csv")
    assert (dev.format, len(dev), len(dev.skipped)) == ("stsb", 1500, 0)
    assert len([n for n in dev.notes if "extra" in n.reason]) == 22
    assert '"' in "".join(p.sentence1 + p.sentence2 for p in dev)


@pytest.mark.data
def test_shipped_msrp_files(data):
    root = data / "similarity" / "msrp"
    train = load_msrp(root / "msr-para-train.tsv", root / "msr-para-val.tsv")
    assert (len(train), sum(train.labels), len(train.skipped)) == (4076, 2753, 0)
    test = load_msrp(root / "msr-para-test.tsv")
    assert (len(test), sum(test.labels)) == (1725, 1147)
    assert not test.pairs[0].id.startswith("\ufeff")


@pytest.mark.data
def test_the_other_shipped_sts_files_as_their_readmes_count(data):
    """STS 2012 (README counts, every row scored), the Benchmark's train split (README traps: 197
    rows of 9 fields, bare double quotes, the genre 'main-forum' where dev writes 'main-forums',
    kept as written) and MSRP's val file, which has no byte-order mark."""
    root = data / "similarity"
    counts = {"MSRpar.train": 750, "MSRpar.test": 750, "SMTeuroparl.train": 734, "SMTeuroparl.test": 459,
              "OnWN.test": 750, "SMTnews.test": 399}
    for name, count in counts.items():
        loaded = load_sts(root / "sts" / "2012" / f"{name}.tsv")
        assert (loaded.format, len(loaded), len(loaded.skipped), len(loaded.notes)) == ("sts", count, 0, 0)
    train = load_sts(root / "stsbenchmark" / "sts-train.csv")
    assert (train.format, len(train), len(train.skipped)) == ("stsb", 5749, 0)
    assert [n.reason for n in train.notes] == ["2 extra trailing fields ignored"] * 197
    assert len({p.id for p in train}) == 5749
    assert {p.genre for p in train} == {"main-captions", "main-news", "main-forum"}
    assert sum('"' in p.sentence1 + p.sentence2 for p in train) == 252
    val = load_msrp(root / "msrp" / "msr-para-val.tsv")
    assert (len(val), sum(val.labels), [r.reason for _, r in val.notes]) == (500, 346, ["header line"])


@pytest.mark.parametrize("header", ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n", ""])
def test_an_msrp_file_is_no_sts_file(tmp_path, header):
    """evaluate-sts --data msr-para-test.tsv read MSRP as SemEval STS: its 0/1 labels were the gold
    scores and its two ids the sentences (StsPair(score=1.0, sentence1='1479718',
    sentence2='1479546')), a correlation of the ids' similarity without a word. Told apart as
    similarity --pairs tells them, an MSRP file is a FormatError naming it and the command that
    reads it; named as STS (format='sts'), it is read as asked."""
    f = write(tmp_path / "msr-para-val.tsv", header + "1\t1479718\t1479546\tHe said so.\tHe said that.\n"
              "0\t1091286\t1091304\tIt rains.\tIt is sunny.\n")
    with pytest.raises(FormatError, match=r"msr-para-val\.tsv: an MSRP paraphrase file .*evaluate-paraphrase"):
        load_sts(f)
    assert [p.sentence1 for p in load_sts(f, format="sts")] == ["1479718", "1091286"]


def test_numbered_pairs_are_no_sts_file(tmp_path):
    """evaluate-sts --data of numbered pairs (1 TAB s1 TAB s2, 2 TAB ..., up to 10) read their ids
    as gold scores: the pairs numbered 1-5 were correlated against their ids and the others
    skipped as 'gold score 6 outside 0-5', a correlation of line numbers. Ids that count up past
    the scores' range, a bad line among them or not, are a FormatError naming the file and the
    command that scores such pairs; named as STS (format='sts'), the file is read as asked; whole
    scores that count up within 0-5 (a file of up to six pairs) are still read as scores."""
    rows = "".join(f"{k}\tA b {k}.\tC d.\n" if k != 4 else "4\tA b.\n" for k in range(1, 11))
    f = write(tmp_path / "numbered.tsv", rows)
    with pytest.raises(FormatError, match=r"numbered\.tsv: the first fields \(1, 2, 3, \.\.\. 10\) count up past the gold "
                       r"scores' range \(0-5\) .*paralign similarity"):
        load_sts(f)
    assert [p.score for p in load_sts(f, format="sts")] == [1, 2, 3, 5]
    small = write(tmp_path / "small.tsv", "".join(f"{k}\tA b {k}.\tC d.\n" for k in range(0, 6)))
    assert [p.score for p in load_sts(small)] == [0, 1, 2, 3, 4, 5]


cells = st.text(alphabet=st.sampled_from(list("ab1.5 \"'\ufeff")), max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(cells, min_size=1, max_size=9), min_size=1, max_size=12), st.sampled_from(["sts", "stsb"]))
def test_every_line_is_a_pair_or_a_reported_skip(tmp_path, rows, fmt):
    f = tmp_path / f"rows-{fmt}.tsv"
    f.write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    data = load_sts(f, format=fmt)
    lines = sorted([p.line for p in data.pairs] + [r.line for r in data.skipped])
    assert lines == list(range(1, len(rows) + 1))
    assert all(p.sentence1 and p.sentence2 for p in data.pairs)
    try:
        msrp = load_msrp(f)
    except FormatError as exc:  # its rows STS rows, none MSRP's: the file refused, naming evaluate-sts
        assert "an STS file" in str(exc) and detect_layout(f.read_text(encoding="utf-8").splitlines()) == "sts"
        return
    header_lines = [n.line for _, n in msrp.notes if n.reason == "header line"]
    accounted = sorted([p.line for p in msrp.pairs] + [r.line for _, r in msrp.skipped] + header_lines)
    assert accounted == list(range(1, len(rows) + 1))


def test_a_gold_score_with_an_underscore_is_not_a_number(tmp_path):
    """Python's float reads '0_5' as 5.0 and '4_0' as 40.0 (a digit group mark): a gold score
    typed so was read as 5, inside 0-5, without a word; it is now a row skipped as no number."""
    f = write(tmp_path / "x.tsv", "0_5\ta cat\ta cat sat\n4_0\tthe dog\tdogs\n4\tx\ty\n")
    data = load_sts(f)
    assert [p.score for p in data.pairs] == [4.0]
    assert [(r.line, r.reason) for r in data.skipped] == [(1, "gold score '0_5' is not a number"),
                                                          (2, "gold score '4_0' is not a number")]


#: A user's own STS data as a spreadsheet exports it: a header naming the columns, quoted fields
#: holding commas, quotes and a line break (GLUE, Hugging Face datasets, sentence-transformers).
USER_CSV = ('sentence1,sentence2,score\n'
            '"A man, tall, sings.","A man sings a ""song"".",4.2\n'
            '"It rained,\nthen stopped.",Rain stopped.,3\n'
            'A cat.,A dog.,0.5\n')


@pytest.mark.parametrize("bom, newline", [("", "\n"), ("\ufeff", "\r\n")])
def test_a_csv_with_a_header_is_read_by_its_column_names(tmp_path, bom, newline):
    f = write(tmp_path / "mine.csv", bom + USER_CSV.replace("\n", newline))
    data = load_sts(f)
    assert data.format == "table"
    assert [(p.sentence1, p.sentence2, p.score, p.line) for p in data.pairs] == [
        ("A man, tall, sings.", 'A man sings a "song".', 4.2, 2),
        ("It rained,\nthen stopped.", "Rain stopped.", 3.0, 3),
        ("A cat.", "A dog.", 0.5, 5)]
    assert data.skipped == ()


def test_a_tsv_with_a_header_takes_its_columns_wherever_they_are(tmp_path):
    # GLUE STS-B: ten columns, the first an index, which was read as a SemEval gold score
    f = write(tmp_path / "train.tsv",
              "index\tgenre\tfilename\tyear\told_index\tsource1\tsource2\tsentence1\tsentence2\tscore\n"
              '0\tmain-captions\tMSRvid\t2012test\t0001\tnone\tnone\t"A plane" takes off.\tA plane is leaving.\t5.000\n'
              "1\tmain-captions\tMSRvid\t2012test\t0004\tnone\tnone\tA man sings.\tA man plays.\t\n"
              "2\tmain-captions\tMSRvid\t2012test\t0005\tnone\n")
    data = load_sts(f)
    assert [(p.sentence1, p.sentence2, p.score) for p in data.pairs] == [('"A plane" takes off.', "A plane is leaving.", 5.0)]
    assert [(r.line, r.reason) for r in data.skipped] == [(3, "no gold score"), (4, "6 fields, expected 10")]


def test_a_quote_left_open_in_a_csv_names_the_line_it_opens_on(tmp_path):
    f = write(tmp_path / "mine.csv", 'sentence1,sentence2,score\nA cat.,A dog.,1\n"Open,x,2\ny,z,3\n')
    data = load_sts(f)
    assert [p.line for p in data.pairs] == [2]
    assert [(r.line, r.reason) for r in data.skipped] == [
        (3, "1 field, expected 3 (a quoted field runs from line 3 to line 4: a quote not closed?)")]


def test_a_sentence_past_the_csv_modules_field_limit(tmp_path):
    """A sentence over 131072 characters (the csv module's field limit): a SemEval row's was a
    traceback when the first line was asked whether it is a header ("_csv.Error: field larger
    than field limit"), a TSV table's too; a CSV record's is that record's reason, and the next
    record is read."""
    long = " ".join(["word"] * 30_000)
    semeval = load_sts(write(tmp_path / "sts.tsv", f"4.0\t{long}\tA cat.\n1.0\tA dog.\tA cat.\n"))
    assert [p.line for p in semeval.pairs] == [1, 2] and semeval.format == "sts"
    tsv = load_sts(write(tmp_path / "mine.tsv", f"sentence1\tsentence2\tscore\n{long}\tA cat.\t4\nA.\tB.\t1\n"))
    assert [(p.sentence1 == long, p.line) for p in tsv.pairs] == [(True, 2), (False, 3)]
    csv_file = load_sts(write(tmp_path / "mine.csv", f'sentence1,sentence2,score\n"{long}",A cat.,4\nA.,B.,1\n'))
    assert [p.line for p in csv_file.pairs] == [3]
    assert [(r.line, r.reason) for r in csv_file.skipped] == [
        (2, "not a CSV record (field larger than field limit (131072))")]


def test_a_paraphrase_table_with_a_header_is_read_by_load_msrp(tmp_path):
    # PAWS and GLUE MRPC as Hugging Face writes them: id, sentence1, sentence2, label
    f = write(tmp_path / "paws.tsv", "id\tsentence1\tsentence2\tlabel\n1\tA cat.\tA cat sat.\t1\n"
                                     "2\tA dog.\tA bird.\t0\n3\tX.\tY.\t2\n")
    data = load_msrp(f)
    assert [(p.id, p.label, p.sentence1, p.line) for p in data.pairs] == [("1", True, "A cat.", 2), ("2", False, "A dog.", 3)]
    assert [(r.line, r.reason) for _, r in data.skipped] == [(4, "label '2' is not 0 or 1")]


def test_a_csv_without_the_column_names_says_how_it_would_be_read(tmp_path):
    """A user's CSV whose header names its columns otherwise (s1,s2,score) or has none was 'no STS
    rows found (expected 'score TAB s1 TAB s2' or STS Benchmark)' and '1 field, expected 5
    (quality, id1, id2, s1, s2)': nothing said that a header line would make it readable."""
    f = write(tmp_path / "mine.csv", "s1,s2,score\nA cat.,A dog.,1\n")
    with pytest.raises(FormatError, match="or a CSV or TSV whose first line names its columns, sentence1, "
                                          "sentence2 and score among them"):
        load_sts(f)
    assert [r.reason for _, r in load_msrp(f).skipped] == [
        "1 field, expected 5 (MSRP: quality, id1, id2, sentence1, sentence2), or a first line naming the columns, sentence1, "
        "sentence2 and label among them", "1 field, expected 5 (MSRP: quality, id1, id2, sentence1, sentence2)"]


@pytest.mark.parametrize(("rows", "layout", "said"), [
    ("4\tA b.\tA b.\n2\tA b.\n3\tc d.\tc e.\n", "sts", "2 fields, expected 3 (STS: score, "
                                                    "sentence1, sentence2)"),
    ("g\ts\t2012\t1\t5.0\tA b.\tA b.\ng\ts\t2012\t2\t1.0\tA b.\ng\ts\t2012\t3\t2.0\tc d.\tc e.\n", "stsb",
     "6 fields, expected 7 (STS Benchmark: genre, source, year, id, score, sentence1, sentence2)"),
    ("1\t1\t2\tA b.\tA b.\n0\t3\t4\tA b.\n1\t5\t6\tc d.\tc e.\n", "msrp",
     "4 fields, expected 5 (MSRP: quality, id1, id2, sentence1, sentence2)")])
def test_a_short_row_is_said_alike_by_the_evaluators_and_similarity(tmp_path, rows, layout, said):
    """A row with too few fields: evaluate-sts said `6 fields, expected at least 7` of an STS
    Benchmark row and evaluate-paraphrase `expected 5 (quality, id1, id2, s1, s2)` where
    similarity --pairs, reading the same file, said `expected 7 (STS Benchmark: genre, ...)` and
    `expected 5 (MSRP: quality, ids, sentences)`. One wording now (corpora.sts.too_few_fields)."""
    from paralign.corpora.sentence_pairs import read_pair_rows

    path = write(tmp_path / "rows.tsv", rows)
    found: list[str] = []
    with open(path, encoding="utf-8") as handle:
        told = [row for _, row, _ in read_pair_rows(handle, layout=found) if isinstance(row, str)]
    read = load_msrp(path).skipped[0][1].reason if layout == "msrp" else load_sts(path).skipped[0].reason
    assert found == [layout if layout != "stsb" else "sts"] and told == [said] and read == said


def test_an_sts_file_is_no_msrp_file(tmp_path):
    """load_msrp of a SemEval STS file skipped every row ('3 fields, expected 5 ...') and gave
    no pair, without saying the file is STS. It is a FormatError naming the file and
    evaluate-sts, as load_sts names evaluate-paraphrase of an MSRP file. A file whose rows
    look like STS rows but one is a labelled MSRP row (ids that are no numbers) is MSRP."""
    sts = write(tmp_path / "MSRpar.train.tsv", "3.8\tA cat sat.\tA cat sat down.\n1\tHe left.\tShe stayed.\n")
    with pytest.raises(FormatError, match=r"MSRpar\.train\.tsv: an STS file .*, not MSRP.*evaluate-sts"):
        load_msrp(sts)
    own = write(tmp_path / "own.tsv", "1\ta\tb\tHe said so.\tHe said that.\n0\tc\td\tIt rains.\tIt is sunny.\n")
    assert [p.id for p in load_msrp(own)] == ["a-b", "c-d"]


def test_table_lines_a_caller_gives_lose_their_line_end_alone() -> None:
    """table_records on lines given as text (paralign.line_ends): a lone CR inside a TSV record
    is a space, not a character of its sentence (rstrip('\\r\\n') kept it)."""
    from paralign.corpora.sts import table_records

    records = list(table_records(["sentence1\tsentence2\tscore\r\n", "A cat\rsat.\tA cat sat.\t4\r\r\n"]))
    assert records == [(2, {"sentence1": "A cat sat.", "sentence2": "A cat sat.", "score": "4 "})]


@pytest.mark.parametrize(("text", "layout"), [("4.8\tA cat sat.\tA cat sat down.\n", "sts"),
                                               ("sentence1\tsentence2\tscore\nA cat.\tA dog.\t1\n", "table")])
def test_detect_format_opens_its_file_once(tmp_path, monkeypatch, text: str, layout: str) -> None:
    """detect_format read a file that is no table twice (its first line, then its rows from the
    start again): twice the opening, and a gzip file's decompression, for one answer."""
    from paralign.corpora import sts

    opened = []

    def counting(path, *args, **kwargs):
        opened.append(path)
        return open_text(path, *args, **kwargs)

    path = tmp_path / "pairs.tsv"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(sts, "open_text", counting)
    assert sts.detect_format(path) == layout
    assert len(opened) == 1
