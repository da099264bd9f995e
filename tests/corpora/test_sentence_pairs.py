"""Reading sentence pairs for align/similarity: TSV/JSONL lines and two line-aligned files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from paralign.corpora.sentence_pairs import (
    parse_tsv_line,
    read_input_pairs,
    read_pair_rows,
    read_parallel,
    read_sentence_pairs,
    sentence_pair_rows,
    sentences_from_file,
)
from paralign.errors import ConfigurationError, FormatError, MismatchError


def test_an_invalid_json_line_names_the_column() -> None:
    pairs = list(read_input_pairs(['{"source": "a", "target": "b\n'], fmt="jsonl"))
    assert pairs[0].error == "invalid JSON (column 29): Invalid control character here"


@pytest.mark.parametrize(("source", "target", "message"), [
    (["a\n", "b\n", "c\n"], ["x\n"], "t.txt has 1 line but s.txt has 3 lines"),
    (["a\n"], ["x\n", "y\n"], "s.txt has 1 line but t.txt has 2 lines"),
    (["a\n", "b\n"], [], "t.txt has 0 lines but s.txt has 2 lines"),
])
def test_a_length_mismatch_names_both_files_line_counts(source, target, message) -> None:
    with pytest.raises(MismatchError) as info:
        list(read_parallel(source, target, source_name="s.txt", target_name="t.txt"))
    assert str(info.value) == message


def test_a_longer_file_whose_rest_cannot_be_read_has_more_lines() -> None:
    def source() -> Iterator[str]:
        yield from ("a\n", "b\n")
        raise FormatError("not UTF-8 (byte 0xe9 at column 1)", source="s.txt", line=3)

    with pytest.raises(MismatchError) as info:
        list(read_parallel(source(), ["x\n"], source_name="s.txt", target_name="t.txt"))
    assert str(info.value) == "t.txt has 1 line but s.txt has more lines"


def test_a_bom_starting_a_plain_text_file_is_not_part_of_its_first_sentence(tmp_path) -> None:
    """API audit W8: IDF training text (fit_on_files, --idf-from) counted '\\ufeffThe' as a word."""
    from paralign.corpora.sentence_pairs import sentences_from_file

    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfThe cat sat.\nA cat sat.\n")
    assert sentences_from_file(path) == ["The cat sat.", "A cat sat."]


def test_a_sentence_of_invisible_characters_is_empty() -> None:
    """A side holding only invisible characters (a zero-width space, a soft hyphen) shows
    nothing and annotates to no word: it is reported as an empty sentence in its place, as a
    side of white space is, not aligned to nothing without a word."""
    pairs = list(read_input_pairs(["\u200b\u00ad\tthe cat\n", "the cat\t \ufeff \n", "the\u200bcat\ta cat\n"]))
    assert [p.error for p in pairs] == ["empty source sentence", "empty target sentence", None]


@pytest.mark.parametrize(("line", "is_json"), [
    ('{"source": "a", "target": "b"}\n', True), ("  {oops\n", True), ("\ufeff{}\n", True),
    ("[1, 2]\n", True), ("null\n", True), ("3\n", True),
    ("a\tb\n", False), ("[Laughter]\tyes\n", False), ("[1, 2]\tx\n", False), ("no tab here\n", False), ("\n", False),
])
def test_a_line_is_json_when_it_opens_an_object_or_is_a_json_value_without_a_tab(line, is_json) -> None:
    """align took a line for JSON when it started with '{', similarity when the file's first
    line did; one rule decides now, line by line (is_json_line), and a JSON value that is not
    an object is reported as such, not as a TSV line of one field."""
    from paralign.corpora.sentence_pairs import is_json_line

    assert is_json_line(line) is is_json


def test_a_json_value_that_is_not_an_object_is_named() -> None:
    pairs = list(read_input_pairs(['{"source": "a", "target": "b"}\n', "[1, 2]\n", "null\n", "a\tb\n"]))
    assert [p.error for p in pairs] == [None, "expected an object with 'source' and 'target', got an array",
                                        "expected an object with 'source' and 'target', got null", None]


def test_a_json_line_with_half_a_surrogate_pair_is_a_bad_line() -> None:
    r"""``"\ud800"`` alone decodes to no character: `align` reported "annotation failed:
    UnicodeEncodeError ..." for the line, `similarity` likewise; it is a bad line, as a bad byte
    is, and a pair (one character) is no fault."""
    lines = ['{"source": "a \\ud800 b", "target": "a b"}\n', '{"source": "a \\ud83d\\ude00", "target": "a"}\n']
    bad, good = read_input_pairs(lines)
    assert (bad.source, bad.error) == (None, r'"\ud800" (column 15) is half of a UTF-16 surrogate pair, no character')
    assert good.error is None and good.source == "a \U0001f600"


@pytest.mark.parametrize("fmt", ["auto", "jsonl"])
def test_a_bom_starting_a_jsonl_file_is_not_part_of_its_first_record(fmt) -> None:
    """A UTF-8 file written by Notepad starts with a byte-order mark: json.loads refused the first
    line ("Unexpected UTF-8 BOM"), so align and similarity lost the file's first pair."""
    pairs = list(read_input_pairs(['\ufeff{"source": "a b", "target": "c", "id": "p1"}\n',
                                   '{"source": "d", "target": "e"}\n'], fmt=fmt))
    assert [(p.source, p.target, p.id, p.error) for p in pairs] == [("a b", "c", "p1", None), ("d", "e", None, None)]
    bad = list(read_input_pairs(['\ufeff{"source": "a", "target": "b\n'], fmt=fmt))
    assert bad[0].error == "invalid JSON (column 30): Invalid control character here"  # the column in the line as read


def test_an_sts_file_is_one_layout_not_a_guess_per_row() -> None:
    """similarity --pairs told the STS Benchmark from SemEval STS row by row, by the number of
    fields: a Benchmark row cut short was read as the pair ('MSRvid', '2012test'), and a SemEval
    row with trailing tabs as an empty sentence (load_sts reads it, with a note)."""
    benchmark = ["main-captions\tMSRvid\t2012test\t0001\t5.000\tA plane takes off.\tA plane is taking off.\n",
                 "main-captions\tMSRvid\t2012test\t0004\t3.800\tA man plays a flute.\n",
                 "main-news\theadlines\t2013\t0002\t1.0\tA b.\tC d.\tlicence\tnote\n"]
    assert list(read_sentence_pairs(benchmark)) == [
        (1, ("A plane takes off.", "A plane is taking off.")),
        (2, "6 fields, expected 7 (STS Benchmark: genre, source, year, id, score, sentence1, sentence2)"),
        (3, ("A b.", "C d."))]
    semeval = ["4.0\tA b.\tC d.\t\t\t\t\n", "3.0\tE f.\tG h.\n", "\tI j.\tK l.\n"]
    assert list(read_sentence_pairs(semeval)) == [(1, ("A b.", "C d.")), (2, ("E f.", "G h.")), (3, ("I j.", "K l."))]


def test_an_msrp_file_without_its_header_is_read_as_msrp(tmp_path) -> None:
    """load_msrp reads an MSRP file without its header line (a split or a sample of one), but
    similarity --pairs and the sentences of --idf-from took it for SemEval STS (a 0/1 label is a
    score) and read its two ids as the pair's sentences."""
    rows = ["1\t2996850\t2996734\tHe said so.\tHe said that.\n", "0\t2095781\t2095812\tIt rains.\tIt is sunny.\n"]
    expected = [(1, ("He said so.", "He said that.")), (2, ("It rains.", "It is sunny."))]
    assert list(read_sentence_pairs(rows)) == expected
    assert list(read_sentence_pairs(["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n", *rows])) == [
        (number + 1, pair) for number, pair in expected]
    path = tmp_path / "msrp-sample.tsv"
    path.write_text("".join(rows), encoding="utf-8")
    assert sentences_from_file(path) == ["He said so.", "He said that.", "It rains.", "It is sunny."]


@pytest.mark.parametrize(("tokens", "message"), [
    ('["a", null]', "'source' must be a string or a list of strings: its token 2 is null"),
    ('[3, "b"]', "'source' must be a string or a list of strings: its token 1 is a number"),
    ('["a", ["b"]]', "'source' must be a string or a list of strings: its token 2 is an array"),
])
def test_a_token_list_holding_a_value_that_is_not_a_string_is_a_bad_line(tokens, message) -> None:
    """A token null, 3, true or ["b"] was made a str and aligned as the word 'None', '3', 'True'
    or "['b']" without a word (the gold JSONL reader refuses such a record)."""
    (pair,) = read_input_pairs([f'{{"source": {tokens}, "target": ["c"]}}\n'])
    assert (pair.source, pair.error) == (None, message)


def test_a_trailing_tab_after_the_target_says_the_fields_were_read_as_id_source_target() -> None:
    """'a b<TAB>c d<TAB>' is three fields, read as id 'a b', source 'c d' and an empty target; it
    was reported as "empty target sentence" alone, which sends the user looking at a target that
    is there."""
    from paralign.corpora.sentence_pairs import parse_tsv_line

    pair = parse_tsv_line("a b\tc d\t", 4, tokenized=False)
    assert pair.error == ("empty target sentence (3 fields read as id, source, target: "
                          "a tab after the target?)")
    assert parse_tsv_line("a b\t", 5, tokenized=False).error == "empty target sentence"
    assert parse_tsv_line("x\ta b\tc d", 6, tokenized=False).error is None


def test_a_row_of_one_field_says_it_in_the_singular() -> None:
    """It said '1 field(s), expected 2 TAB-separated sentences' (the CLI says counts of one
    in the singular everywhere else: errors.counted)."""
    assert list(read_sentence_pairs(["only one sentence\n", "A cat .\tA cat .\n"])) == [
        (1, "1 field, expected 2 TAB-separated sentences (source, target) or 3 fields (id, source, target)"),
        (2, ("A cat .", "A cat ."))]


def test_an_sts_file_whose_rows_mostly_have_no_gold_score_is_read_as_sts(tmp_path) -> None:
    """SemEval STS 2015/2016 files score a few of their rows (answers-forums: 375 of 2,000; the
    data README: 'gold score ... may be EMPTY'). similarity --pairs took such a file for plain
    pairs ('3 fields, expected 2' on every row), and the sentences of --idf-from were its whole
    lines, gold score and tabs included ('3.2\\tDogs run.\\tA dog runs.'), where load_sts reads
    it as STS (an empty score is a vote for the SemEval layout there)."""
    rows = ["\tA man is playing a guitar.\tA man plays the guitar.\n", "\tThe cat sat.\tA cat was sitting.\n",
            "3.2\tDogs run.\tA dog runs.\n", "\tIt rains.\tRain falls.\n"]
    assert list(read_sentence_pairs(rows)) == [
        (1, ("A man is playing a guitar.", "A man plays the guitar.")), (2, ("The cat sat.", "A cat was sitting.")),
        (3, ("Dogs run.", "A dog runs.")), (4, ("It rains.", "Rain falls."))]
    benchmark = ["main-forums\tanswers-forums\t2015\t0001\t\tA man sings.\tA man is singing.\n"] * 3
    assert list(read_sentence_pairs(benchmark))[0] == (1, ("A man sings.", "A man is singing."))
    path = tmp_path / "answers-forums.tsv"
    path.write_text("".join(rows), encoding="utf-8")
    assert sentences_from_file(path) == [s for _, pair in read_sentence_pairs(rows) for s in pair]


def test_the_sentences_of_an_sts_or_msrp_file_are_those_of_every_pair_it_holds(tmp_path) -> None:
    """--idf-from takes a file's sentences for IDF statistics, where a gold score or label plays
    no part; yet those of a row without a gold score (most rows of STS 2015/2016: answers-forums
    scores 375 of 2,000), with a score outside 0-5 or with a label not 0/1 were left out without
    a word, where similarity --pairs reads their pairs."""
    sts = tmp_path / "answers-forums.tsv"
    sts.write_text("\tA man sings.\tA man is singing.\n3.2\tDogs run.\tA dog runs.\n7\tIt rains.\tRain falls.\n",
                   encoding="utf-8")
    assert sentences_from_file(sts) == ["A man sings.", "A man is singing.", "Dogs run.", "A dog runs.", "It rains.",
                                        "Rain falls."]
    msrp = tmp_path / "msrp.tsv"
    msrp.write_text("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n1\t1\t2\tHe said so.\tHe said that.\n"
                    "?\t3\t4\tIt rains.\tIt is sunny.\n", encoding="utf-8")
    assert sentences_from_file(msrp) == ["He said so.", "He said that.", "It rains.", "It is sunny."]


def test_an_msrp_file_without_its_header_or_labels_is_read_as_msrp() -> None:
    """An MSRP file of unlabelled pairs (a blind test split, its Quality column empty) and no
    header: its rows were taken for SemEval STS rows without a gold score, so its two ids were
    read as each pair's sentences ('2996850', '2996734'). Its label aside, a row is MSRP's by its
    two numeric ids."""
    rows = ["\t2996850\t2996734\tHe said so.\tHe said that.\n", "\t2095781\t2095812\tIt rains.\tIt is sunny.\n"]
    assert list(read_sentence_pairs(rows)) == [(1, ("He said so.", "He said that.")), (2, ("It rains.", "It is sunny."))]


def test_similarity_reads_a_csv_with_a_header_one_row_a_record(tmp_path):
    """`similarity --pairs mine.csv`: each record of a CSV with a sentence1,sentence2 header is a
    pair, numbered by the line it starts on (a quoted line break does not split it); every line
    was '1 field, expected 2 TAB-separated sentences'."""
    lines = ['\ufeffsentence1,sentence2,score\r\n', '"A man, tall.","It ""rained""\r\n', 'today.",3\r\n',
             '\r\n', 'A cat.,A dog.,1\r\n']
    assert list(read_sentence_pairs(iter(lines))) == [
        (2, ("A man, tall.", 'It "rained"\r\ntoday.')), (4, "empty line"), (5, ("A cat.", "A dog."))]


def test_a_json_record_with_sentence1_and_sentence2_is_a_pair() -> None:
    """Hugging Face's `Dataset.to_json` writes GLUE's and PAWS's pairs as `sentence1` and
    `sentence2` (with `label`, `idx`): every line was "expected an object with 'source' and
    'target'", naming no key it had; a record with other keys now names them."""
    lines = ['{"sentence1": "A cat.", "sentence2": "A dog.", "label": 1, "idx": 0}\n',
             '{"text_a": "A cat.", "text_b": "A dog.", "label": 1}\n',
             '{"source": "A cat.", "sentence2": "A dog."}\n']
    pairs = list(read_input_pairs(lines))
    assert (pairs[0].source, pairs[0].target, pairs[0].error) == ("A cat.", "A dog.", None)
    assert [p.error for p in pairs[1:]] == [
        "expected an object with 'source' and 'target' (or 'sentence1' and 'sentence2'); it has 'text_a', "
        "'text_b', 'label'",
        "expected an object with 'source' and 'target' (or 'sentence1' and 'sentence2'); it has 'source', "
        "'sentence2'"]


def test_a_json_sentence_that_is_no_text_is_named_with_its_type() -> None:
    """A record with both keys, one holding a number, null or an object, was "expected an object
    with 'source' and 'target' ...; it has 'source', 'target'": the keys it was said to lack. Now
    the key and what it holds, as a bad token is said."""
    lines = ['{"source": 3, "target": "A dog."}\n', '{"sentence1": "A cat.", "sentence2": null}\n',
             '{"source": "A cat.", "target": {"text": "A dog."}}\n', '{"source": ["A", 3], "target": "A dog."}\n']
    assert [p.error for p in read_input_pairs(lines)] == [
        "'source' must be a string or a list of strings, not a number",
        "'sentence2' must be a string or a list of strings, not null",
        "'target' must be a string or a list of strings, not an object",
        "'source' must be a string or a list of strings: its token 2 is a number"]


def test_a_line_of_one_field_with_commas_says_how_a_csv_is_read() -> None:
    one_field = "1 field, expected 2 TAB-separated sentences (source, target) or 3 fields (id, source, target)"
    csv = (" (a CSV file? give TAB-separated sentences; similarity also reads a CSV whose first line names the "
           "columns sentence1 and sentence2)")
    assert list(read_sentence_pairs(["s1,s2,score\n", "A cat.,A dog.,1\n", "no tab\n"])) == [
        (1, one_field + csv), (2, one_field + csv), (3, one_field)]


def test_a_gold_score_after_the_two_sentences_is_not_aligned_as_the_target() -> None:
    """A user's `s1 TAB s2 TAB score` line was read by `align` as id s1, source s2 and target
    '4.2': s2 aligned against the score, an empty Pharaoh line and no word said. It is a bad
    line now, saying how to give it; an id before a sentence pair is read as before."""
    from paralign.corpora.sentence_pairs import parse_tsv_line

    pair = parse_tsv_line("A cat sat.\tA cat is sitting.\t4.2\n", 1, tokenized=False)
    assert (pair.source, pair.error) == (None, "3 fields, the third a number ('4.2'): 3 fields are read as id, "
                                               "source, target; a gold score after the sentences? give the "
                                               "sentences alone (cut -f1,2), or to similarity a "
                                               "first line naming the columns sentence1, sentence2 and score")
    assert parse_tsv_line("42\tA cat sat.\tA cat is sitting.\n", 2, tokenized=False).source == "A cat sat."
    assert parse_tsv_line("p7\tHe is 3.\t3\n", 3, tokenized=False).error is not None


def test_similarity_says_how_a_gold_score_after_the_sentences_is_read() -> None:
    """`s1 TAB s2 TAB score` lines were '3 fields, expected 2 TAB-separated sentences', nothing
    said that a header line naming the columns makes the file readable; now align's message,
    which says it too (one reader: parse_tsv_line)."""
    assert list(read_sentence_pairs(["A cat.\tA dog.\t4.2\n", "A cat.\tA dog.\tx\n", "a\tb\tc\td\n"])) == [
        (1, "3 fields, the third a number ('4.2'): 3 fields are read as id, source, target; a gold score after the "
            "sentences? give the sentences alone (cut -f1,2), or to similarity a first line naming the columns "
            "sentence1, sentence2 and score"),
        (2, ("A dog.", "x")),  # id, s1, s2, as align reads three fields
        (3, "4 fields, expected 2 TAB-separated sentences (source, target) or 3 fields (id, source, target)")]


def test_similarity_reads_id_s1_s2_lines_as_align_does() -> None:
    """`id TAB s1 TAB s2` lines, which `align` reads, were '3 fields, expected 2' bad lines in
    `similarity` (a word id), or an STS file whose ids were dropped as gold scores (numeric ids);
    the id is now the row's (listed under "ids"), and `align` reads the same sentences and id."""
    from paralign.corpora.sentence_pairs import parse_tsv_line, read_pair_rows

    for ids in (["p1", "p2", "p3"], [str(k) for k in range(1, 1001)], ["0", "7", "12"], ["42"]):
        lines = [f"{i}\tA cat sat {i}.\tA cat is sitting.\n" for i in ids]
        layout: list[str] = []
        rows = list(read_pair_rows(lines, layout=layout))
        assert layout == ["pairs"], ids[:3]
        assert rows == [(n, (f"A cat sat {i}.", "A cat is sitting."), i) for n, i in enumerate(ids, 1)]
        aligned = [parse_tsv_line(line, n, tokenized=False) for n, line in enumerate(lines, 1)]
        assert [(p.source, p.target, p.id) for p in aligned] == [(*row[1], row[2]) for row in rows]


def test_a_numeric_first_field_is_a_gold_score_when_every_one_could_be() -> None:
    """The ambiguous case, decided on the file's first 50 lines: first fields that are scores
    (3.8, 4.000, empty, whole numbers within 0-5 that do not count up) make SemEval STS, its
    scores dropped and no ids, as before; whole numbers one of which is above 5, or that count
    up by one from 0 or 1 (a few pairs' ids), are ids; one score written 3.8 keeps a file STS
    whatever else it holds."""
    from paralign.corpora.sentence_pairs import detect_layout, numbered

    sts = ["3.8\tA b.\tC d.\n", "4.000\tE f.\tG h.\n", "\tI j.\tK l.\n", "5\tM n.\tO p.\n", "0\tQ.\tR.\n"]
    assert detect_layout(sts) == "sts"
    assert [row for _, row, _ in sentence_pair_rows(sts)[1]] == [
        ("A b.", "C d."), ("E f.", "G h."), ("I j.", "K l."), ("M n.", "O p."), ("Q.", "R.")]
    assert detect_layout([f"{k}\tA b.\tC d.\n" for k in range(1, 6)]) == "pairs"  # ids 1-5 were read as scores
    assert detect_layout([f"{k}\tA b.\tC d.\n" for k in range(0, 3)]) == "pairs"
    for scores in ([3, 5], [2, 3, 4], [1, 3], [1, 1]):  # whole scores that do not count up from 0 or 1
        assert detect_layout([f"{k}\tA b.\tC d.\n" for k in scores]) == "sts", scores
    assert detect_layout([f"{k}\tA b.\tC d.\n" for k in range(1, 7)]) == "pairs"
    assert detect_layout([f"{k}\tA b.\tC d.\n" for k in range(1, 7)] + ["3.8\tA b.\tC d.\n"]) == "sts"
    assert not numbered([["9", "a"], ["12", "a", "b", "c"]]) and not numbered([["\u0662\u0663", "a", "b"]])


def test_a_guessed_layout_is_said_and_a_given_one_wins() -> None:
    """Whole numbers within 0-5 could be ids or gold scores: the reader says which it took and
    how to read the file the other way (layout_note, into `notes`); an input_format given wins
    over the sniff, with no note: tsv reads the first of three fields as the id as align does,
    sts as a gold score, jsonl every line as a record."""
    from paralign.corpora.sentence_pairs import layout_note, read_pair_rows

    counting, scores = ["1\tA b.\tC d.\n", "2\tE f.\tG h.\n"], ["3\tA b.\tC d.\n", "5\tE f.\tG h.\n"]
    sentences = [("A b.", "C d."), ("E f.", "G h.")]
    for lines, layout, ids, other in ((counting, "pairs", ["1", "2"], "--input-format sts"),
                                      (scores, "sts", [None, None], "--input-format tsv")):
        found: list[str] = []
        notes: list[str] = []
        rows = list(read_pair_rows(lines, layout=found, notes=notes))
        assert found == [layout] and [row for _, row, _ in rows] == sentences and [i for *_, i in rows] == ids
        assert len(notes) == 1 and other in notes[0] and notes[0] == layout_note(lines, layout)
    for lines in (counting, scores):
        notes = []
        as_ids = list(read_pair_rows(lines, input_format="tsv", notes=notes))
        assert [i for *_, i in as_ids] == [parse_tsv_line(line, 1, False).id for line in lines] and notes == []
        as_scores = list(read_pair_rows(lines, input_format="sts", notes=notes))
        assert [i for *_, i in as_scores] == [None, None] and [r for _, r, _ in as_scores] == sentences and notes == []
    assert layout_note(["1\tA b.\tC d.\n", "2.5\tE f.\tG h.\n"], "sts") is None  # not whole: no doubt
    assert layout_note(["7\tA b.\tC d.\n", "8\tE f.\tG h.\n"], "pairs") is None  # above 5: ids for sure
    record = '{"source": "A b.", "target": "C d."}\n'
    assert [r for _, r, _ in read_pair_rows([record], input_format="tsv")] != [("A b.", "C d.")]  # a TSV line
    assert [r for _, r, _ in read_pair_rows(["A b.\tC d.\n", record], input_format="jsonl")][1] == ("A b.", "C d.")
    with pytest.raises(ConfigurationError, match="input_format must be one of"):
        list(read_pair_rows([record], input_format="csv"))


def test_sentence_pair_rows_give_the_layout_and_a_tables_ids() -> None:
    """What `similarity` lists under "ids" and how it counts its input: a table's `id` column (its
    header's name in any case; an empty cell none), none in another layout; the layout read first."""
    layout, rows = sentence_pair_rows(["Id,sentence1,sentence2\n", 'x,"A\n', 'b.",C d.\n', ",E f.,G h.\n",
                                        "y,I j.\n"])
    assert layout == "table"
    assert list(rows) == [(2, ("A\nb.", "C d."), "x"), (4, ("E f.", "G h."), None), (5, "2 fields, expected 3", None)]
    layout, rows = sentence_pair_rows(["1\t101\t102\tA b.\tC d.\n"])
    assert layout == "msrp" and list(rows) == [(1, ("A b.", "C d."), None)]
    assert list(read_sentence_pairs(["Id,sentence1,sentence2\n", "x,A b.,C d.\n"])) == [(2, ("A b.", "C d."))]


def test_read_pair_rows_reads_tsv_jsonl_and_tables_with_bad_rows_in_place() -> None:
    """One reader for `paralign similarity --pairs` and the web app's batch page: TSV with JSON
    lines among them, JSONL, a table with a header; each bad row is its line and reason."""
    from paralign.corpora.sentence_pairs import read_pair_rows

    tsv = ["The cat sat.\tA cat sat.\n", "no tab\n", '{"id": "x", "source": "a", "target": "b"}\n']
    assert list(read_pair_rows(tsv)) == [(1, ("The cat sat.", "A cat sat."), None),
                                         (2, "1 field, expected 2 TAB-separated sentences (first, second) or 3 fields "
                                             "(id, first, second)", None), (3, ("a", "b"), "x")]
    jsonl = ['\n', '{"source": "a", "target": "b", "id": 7}\n', "{oops\n"]
    rows = list(read_pair_rows(jsonl))
    assert rows[0] == (1, "empty line", None) and rows[1] == (2, ("a", "b"), "7")
    assert rows[2][0] == 3 and "JSON" in rows[2][1]
    table = ["sentence1,sentence2\n", "A man eats.,A man is eating.\n"]
    assert list(read_pair_rows(table)) == [(2, ("A man eats.", "A man is eating."), None)]
    layout: list[str] = []
    with_ids = ["id,sentence1,sentence2\n", "p1,A man eats.,A man is eating.\n"]
    assert list(read_pair_rows(with_ids, layout=layout)) == [(2, ("A man eats.", "A man is eating."), "p1")]
    assert layout == ["table"]
    assert list(read_pair_rows(["no tab\n"], lambda line: "not UTF-8")) == [(1, "not UTF-8", None)]


def test_sentences_of_a_file_of_numbered_or_named_pairs_leave_out_the_ids(tmp_path) -> None:
    """`--idf-from` on `id TAB s1 TAB s2` lines (ids 1 ... N now read as ids, not STS scores):
    the sentences, as before for numbered files, and never an id or a TAB inside a 'sentence'."""
    numbered = tmp_path / "numbered.tsv"
    numbered.write_text("".join(f"{n}\tSentence {n} a.\tSentence {n} b.\n" for n in range(1, 9)), encoding="utf-8")
    assert sentences_from_file(numbered) == [f"Sentence {n} {side}." for n in range(1, 9) for side in "ab"]
    named = tmp_path / "named.tsv"
    named.write_text("p1\tA cat sat.\tA cat was sitting.\np2\tIt rains.\tRain falls.\n", encoding="utf-8")
    assert sentences_from_file(named) == ["A cat sat.", "A cat was sitting.", "It rains.", "Rain falls."]
    plain = tmp_path / "pairs.tsv"  # s1 TAB s2 lines: both sentences, each one a sentence of its own
    plain.write_text("A cat sat.\tA cat was sitting.\n\nIt rains.\t\nDogs bark.\tA dog barks.\n", encoding="utf-8")
    # 'It rains.' TAB nothing is a bad row of similarity (empty target sentence), as of an STS file: no sentences
    assert sentences_from_file(plain) == ["A cat sat.", "A cat was sitting.", "Dogs bark.", "A dog barks."]


def test_align_and_similarity_read_one_id_of_a_three_field_line() -> None:
    """A three-field line's id is one for align (read_input_pairs) and similarity (read_pair_rows):
    white space around it aside, an empty one no id, a file's byte-order mark not part of it.
    Before, align kept ' p1 ', '' and '\\ufeffp0' as they were, where similarity read 'p1', None, 'p0'."""
    from paralign.corpora.sentence_pairs import read_pair_rows

    lines = ["\ufeffp0\tA cat.\tA dog.\n", " p1 \tA cat.\tA dog.\n", "\tA cat.\tA dog.\n"]
    assert [pair.id for pair in read_input_pairs(lines, "tsv")] == ["p0", "p1", None]
    assert [pair_id for _, _, pair_id in read_pair_rows(lines, input_format="tsv")] == ["p0", "p1", None]


#: One file of each layout similarity reads besides plain pairs, its second row holding
#: {first} and {second} for the row's two sentences (the first row good, so that the layout is told).
_LAYOUT_ROWS = {
    "sts": ["4.0\tA man plays.\tA man plays.\n", "3.0\t{first}\t{second}\n", "1.0\tCats sleep.\tDogs bark.\n"],
    "msrp": ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n", "1\t1\t2\tA man plays.\tA man plays.\n",
             "0\t3\t4\t{first}\t{second}\n"],
    "table": ["sentence1,sentence2\n", "A man plays.,A man plays.\n", "{first},{second}\n"],
}


def _row_of(layout: str, first: str, second: str) -> tuple[str, str] | str:
    """What similarity reads of the {first}/{second} line of a file of `layout`: its sentences or why none."""
    template = _LAYOUT_ROWS[layout]
    number = next(n for n, line in enumerate(template, start=1) if "{first}" in line)
    rows = dict(read_sentence_pairs([line.format(first=first, second=second) for line in template]))
    return rows[number]


@pytest.mark.parametrize("layout", sorted(_LAYOUT_ROWS))
@pytest.mark.parametrize(("first", "second", "reason"), [
    ("A cat.", " ", "empty target sentence"),
    (" ", "A cat.", "empty source sentence"),
    (" ", "\u200b", "empty source and target sentence"),
])
def test_every_layout_says_which_sentence_is_empty_as_the_pair_reader_does(layout, first, second, reason) -> None:
    """An STS, MSRP or table row with an empty sentence was 'empty sentence' where a line of
    pairs says which side (`align`'s reader): one wording for both, from one rule."""
    assert _row_of(layout, first, second) == reason
    assert parse_tsv_line(f"{first}\t{second}", 1, tokenized=False).error == reason


@pytest.mark.parametrize("layout", sorted(_LAYOUT_ROWS))
def test_every_layout_refuses_a_sentence_over_the_pair_readers_limit(layout) -> None:
    """The pair reader reports a sentence over MAX_SENTENCE_CHARS in its place (the parser needs
    about 1 GB a 100,000 characters); the STS, MSRP and table layouts passed it to the parser."""
    from paralign.corpora.sentence_pairs import MAX_SENTENCE_CHARS

    long = "word " * (MAX_SENTENCE_CHARS // 5) + "end"
    reason = f"target sentence too long (more than {MAX_SENTENCE_CHARS} characters)"
    assert _row_of(layout, "A cat.", long) == reason
    assert parse_tsv_line(f"A cat.\t{long}", 1, tokenized=False).error == reason
    assert isinstance(_row_of(layout, "A cat.", "word " * (MAX_SENTENCE_CHARS // 5 - 1)), tuple)


def test_the_sentences_of_a_file_of_pairs_are_those_of_the_pairs_similarity_reads(tmp_path) -> None:
    """--idf-from told a file of pairs' lines apart by a rule of its own (_is_pair/_pair_id), and
    took a line that similarity --pairs reports as bad for a sentence, tabs and all: a three-field
    line whose third field is a number (a gold score after the sentences) was the sentence
    'One two.\\tThree four.\\t4.2', a line of four fields one sentence of four. Now the pairs'
    reader decides for both: the sentences of --idf-from are those of the pairs read."""
    lines = ["The cat sat.\tA cat sat.\n", "p1\tDogs bark.\tA dog barks.\n", "One two.\tThree four.\t4.2\n",
             "a\tb\tc\td\n", "It rains.\tRain falls.\n"]
    path = tmp_path / "pairs.tsv"
    path.write_text("".join(lines), encoding="utf-8")
    read = [s for _, row in read_sentence_pairs(lines) if isinstance(row, tuple) for s in row]
    assert read == ["The cat sat.", "A cat sat.", "Dogs bark.", "A dog barks.", "It rains.", "Rain falls."]
    assert sentences_from_file(path) == read


def test_a_two_field_line_of_a_file_of_numbered_pairs_is_a_bad_line() -> None:
    """In a file of numbered pairs (id TAB s1 TAB s2, the ids whole numbers: numbered), a line of
    two fields was scored as a pair: '12<TAB>Dogs bark.', its second sentence missing, was the
    pair ('12', 'Dogs bark.'). It is a bad line now, saying so, the other lines read; --input-format
    tsv still reads each line as align does (two fields: a pair)."""
    lines = [f"{n}\tSentence {n} a.\tSentence {n} b.\n" for n in range(11, 16)]
    lines[1] = "12\tDogs bark.\n"
    rows = dict(read_sentence_pairs(lines))
    assert rows[2] == ("2 fields in a file of numbered pairs (id, source, target): its id or a sentence missing? "
                       "(--input-format tsv reads it as the pair of its two fields)")
    assert [n for n, row in rows.items() if isinstance(row, tuple)] == [1, 3, 4, 5]
    assert next(row for n, row, _ in read_pair_rows(lines, input_format="tsv") if n == 2) == ("12", "Dogs bark.")
    unnumbered = ["A cat.\tA cat sat.\n", "p1\tDogs.\tA dog.\n"]  # s1 TAB s2 and id TAB s1 TAB s2 lines mixed: pairs
    assert all(isinstance(row, tuple) for _, row in read_sentence_pairs(unnumbered))


def test_the_sentences_of_a_jsonl_file_are_those_of_its_records(tmp_path) -> None:
    """--idf-from on a JSONL file of pairs counted each JSON line as a sentence ('{"source": ...}',
    braces, keys and all), where similarity --pairs reads the same lines as records: its sentences
    are now those of the records read_pair_rows reads, a side given as tokens joined by spaces,
    a bad record giving none."""
    lines = ['{"source": "A man plays guitar.", "target": "A man is playing a guitar."}\n', "\n",
             '{"id": "p2", "source": ["Cats", "sleep", "."], "target": "Dogs bark."}\n', '{"id": "bad"}\n']
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    read = [" ".join(side) if isinstance(side, list) else side
            for _, row, _ in read_pair_rows(lines) if isinstance(row, tuple) for side in row]
    assert read == ["A man plays guitar.", "A man is playing a guitar.", "Cats sleep .", "Dogs bark."]
    assert sentences_from_file(path) == read


def test_numbered_pairs_with_a_bad_line_are_still_numbered_pairs() -> None:
    """A file of pairs numbered 1 ... N was read as SemEval STS (its ids as gold scores, dropped)
    when one line was bad: ids 1, 2, 4, 5 around a third line of two or four fields no longer
    counted up, and one id that is no number (``x7``) made every first field a score. Now the ids
    count up with their lines, a first field that is no number plays no part, the bad line is
    reported in its place and the other pairs keep their ids."""
    from paralign.corpora.sentence_pairs import NUMBERED_TWO_FIELDS, detect_layout, numbered

    def lines(bad: str, n: int = 5) -> list[str]:
        return [bad if k == 3 else f"{k}\tA b {k}.\tC d.\n" for k in range(1, n + 1)]

    for bad in ("A b.\tC d.\n", "3\tA b.\tC d.\tE f.\n", "\n", "x3\tA b.\tC d.\n"):
        assert detect_layout(lines(bad)) == "pairs", bad
        rows = sentence_pair_rows(lines(bad))[1]
        assert [row for _, row, _ in rows][3:] == [("A b 4.", "C d."), ("A b 5.", "C d.")], bad
    _, rows = sentence_pair_rows(lines("A b.\tC d.\n"))
    assert [(number, row) for number, row, _ in rows if isinstance(row, str)] == [(3, NUMBERED_TWO_FIELDS)]
    assert detect_layout([f"{'x' if k == 7 else ''}{k}\tA b.\tC d.\n" for k in range(1, 11)]) == "pairs"
    assert numbered([["0", "a", "b"], ["b"], ["2", "a", "b"]]) and numbered([["1", "a", "b"], [""], ["2", "a", "b"]])
    for scores in ([3, 5], [2, 3, 4], [1, 3], [1, 1], [2, 1]):  # whole scores that do not count up: still STS
        assert detect_layout([f"{k}\tA b.\tC d.\n" for k in scores] + ["x\ty\n"]) == "sts", scores
    assert detect_layout(lines("3.8\tA b.\tC d.\n")) == "sts"  # a score written 3.8: STS, as before


@pytest.mark.parametrize("links", ['"sureAlign": "0-0 2-1"', '"possibleAlign": "0-0"', '"links": [[0, 0]]',
                                   '"sure": [[0, 0]]'])
def test_a_record_with_links_under_any_key_the_gold_reader_reads_keeps_its_tokens(links: str) -> None:
    """A JSONL record with jacana's "sureAlign"/"possibleAlign" (or "links"), which the gold JSONL
    reader reads links from, was read as two texts: spaCy split "cat's" in two, and align's output
    indexed 5 tokens where the gold has 4. Every key the reader reads makes it a gold record now,
    its tokens kept as the white space splits them, as "sure" did."""
    import json

    line = '{"id": "1", "source": "The cat\'s toy .", "target": "the toy .", ' + links + "}"
    json.loads(line)
    pair = next(iter(read_input_pairs([line], "jsonl", False)))
    assert pair.source == ["The", "cat's", "toy", "."] and pair.target == ["the", "toy", "."]
    assert pair.own_tokens is False  # on the gold's tokens: signed as a gold file's pairs are


@pytest.mark.parametrize("text", ["A cat\rsat down.\tA cat sat.\r\r\n", "1\tA cat\rsat down.\tA cat sat.\r\n"])
def test_lines_a_caller_gives_read_as_the_same_file_s_lines(tmp_path, text: str) -> None:
    """A line handed to the readers as text (an API caller's list, io.StringIO) loses its line end
    and nothing more, a lone CR in it a space, as the file of the same bytes reads
    (paralign.line_ends): rstrip('\\r\\n') kept the CR inside the line, which reached spaCy and
    the records as written, and dropped every CR before the LF."""
    from paralign.corpora.sentence_pairs import read_pair_rows, read_parallel
    from paralign.textio import open_text

    path = tmp_path / "pairs.tsv"
    path.write_bytes(text.encode())
    with open_text(path) as handle:
        from_file = list(read_pair_rows(handle))
    assert list(read_pair_rows([text])) == from_file
    assert from_file[0][1] == ("A cat sat down.", "A cat sat.")
    source, target = text.split("\t")[-2:]
    assert list(read_parallel([source + "\n"], [target], tokenized=False))[0].source == "A cat sat down."
