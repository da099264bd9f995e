"""Groups files: plain TSV, the Bible layout, and gold alignments as JSON (MTReference) by content."""

from __future__ import annotations

import gzip
import json
from collections import Counter

import pytest

from paralign.corpora.groups import is_alignment_json, iter_groups
from paralign.errors import FormatError

PAIRS = [
    {"id": "DOC.1.A", "source": "a man came .", "target": "a guy came .", "sureAlign": "0-0", "possibleAlign": ""},
    {"id": "DOC.1.B", "source": "a man came .", "target": "one man arrived .", "sureAlign": "0-0",
     "possibleAlign": ""},
    {"id": "DOC.2.A", "source": "it rains .", "target": "it is raining .", "sureAlign": "0-0", "possibleAlign": ""},
]


def _write(path, text: str) -> None:
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("name", ["g.json", "g.json.gz", "g.txt", "stdin-copy"])
@pytest.mark.parametrize("layout", ["jacana", "jsonl"])
def test_gold_alignments_as_json_are_groups_whatever_the_files_name(tmp_path, name, layout) -> None:
    """MTReference pairs grouped by source segment (id without its last dot-field): the file is
    told by its contents, so a copy of stdin or a gzip file is read as one (it was read as TSV:
    each line of the JSON a group of one sentence)."""
    path = tmp_path / name
    text = json.dumps(PAIRS, indent=2) if layout == "jacana" else "".join(json.dumps(p) + "\n" for p in PAIRS)
    _write(path, "\ufeff" + text)
    assert is_alignment_json(path)
    groups = list(iter_groups(path))
    assert [(g.id, g.sentences) for g in groups] == [
        ("DOC.1", ("a man came .", "a guy came .", "one man arrived .")),
        ("DOC.2", ("it rains .", "it is raining .")),
    ]


@pytest.mark.parametrize("first", ["[Laughter] he said so .\tHe said so .", "{sic} yes .\tYes .", "plain\ttext"])
def test_a_tsv_line_starting_with_a_bracket_is_not_json(tmp_path, first) -> None:
    path = tmp_path / "g.tsv"
    path.write_text(first + "\n", encoding="utf-8")
    assert not is_alignment_json(path)
    assert [g.sentences for g in iter_groups(path)] == [tuple(first.split("\t"))]


def test_a_bad_pair_of_json_groups_is_skipped_when_asked(tmp_path) -> None:
    """A malformed link in one pair stopped `lattice stats`/`paraphrases` on the whole file. With
    a `skipped` list the pair is left out and recorded (file, line, position), and the other
    pairs are grouped; without one it still stops, naming file and line; a file of bad pairs
    only is a FormatError either way."""
    from paralign.corpora.groups import alignment_groups
    from paralign.errors import FormatError

    bad = [dict(PAIRS[0]), {**PAIRS[1], "sureAlign": "0-0 1-x"}, dict(PAIRS[2])]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(bad, indent=1), encoding="utf-8")
    skipped: list = []
    groups = dict(alignment_groups(path, skipped))
    assert groups == {"DOC.1": [("a", "man", "came", "."), ("a", "guy", "came", ".")],
                      "DOC.2": [("it", "rains", "."), ("it", "is", "raining", ".")]}
    # the pair is named at its opening brace, line 9
    assert [(n, item.id, item.source, item.line) for n, item in skipped] == [(2, "DOC.1.B", str(path), 9)]
    with pytest.raises(FormatError, match=r"g\.json:9: malformed link '1-x'"):
        list(alignment_groups(path))
    path.write_text(json.dumps(bad[1:2]), encoding="utf-8")
    with pytest.raises(FormatError, match=r"g\.json: no usable pairs in the groups file \(malformed link"):
        list(alignment_groups(path, []))


def test_iter_groups_skips_a_bad_pair_of_json_groups_when_asked(tmp_path) -> None:
    """iter_groups (paraphrase-table's reader) stopped at a JSON file's first bad pair whatever
    its caller wanted; with a `skipped` list it leaves the pair out as alignment_groups does and
    yields the other pairs' groups, each sentence its tokens joined by spaces."""
    from paralign.errors import FormatError

    bad = [dict(PAIRS[0]), {**PAIRS[1], "sureAlign": "0-0 1-x"}, dict(PAIRS[2])]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(bad, indent=1), encoding="utf-8")
    skipped: list = []
    assert [(g.id, g.sentences) for g in iter_groups(path, skipped=skipped)] == [
        ("DOC.1", ("a man came .", "a guy came .")), ("DOC.2", ("it rains .", "it is raining ."))]
    assert [(n, item.id, item.line) for n, item in skipped] == [(2, "DOC.1.B", 9)]
    with pytest.raises(FormatError, match=r"g\.json:9: malformed link '1-x'"):
        list(iter_groups(path))


def test_as_reached_adds_each_bad_pair_when_the_reading_reaches_its_group(tmp_path) -> None:
    """paraphrase-table --max-groups N reported every bad pair of the file, those of groups it
    never read too: iter_groups added them all at the first group. With `as_reached` a group's
    bad pairs (wherever they lie in the file) are added just before it is yielded, a group of
    bad pairs only when the reading passes it, those after the last group with it; all groups
    read, the same bad pairs as without it, and the same groups."""
    from itertools import islice

    from paralign.errors import FormatError

    def pair(pair_id: str, sure: str = "0-0") -> dict:
        return {"id": pair_id, "source": f"a {pair_id} .", "target": f"the {pair_id} .", "sureAlign": sure,
                "possibleAlign": ""}

    items = [pair("DOC.1.A"), pair("DOC.9.A", "x"), pair("DOC.2.A"), pair("DOC.1.B", "1-x"),
             pair("DOC.3.A", "0-y"), pair("DOC.3.B"), pair("DOC.2.B"), pair("DOC.8.A", "z")]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(items, indent=1), encoding="utf-8")

    def read(n: int | None) -> tuple[list[str], list[str]]:
        skipped: list = []
        groups = [g.id for g in islice(iter_groups(path, skipped=skipped, as_reached=True), n)]
        return groups, sorted(item.id for _, item in skipped)

    assert read(1) == (["DOC.1"], ["DOC.1.B"])  # its bad pair after group 2's first: still its own
    assert read(2) == (["DOC.1", "DOC.2"], ["DOC.1.B", "DOC.9.A"])  # DOC.9: bad only, passed over
    every = (["DOC.1", "DOC.2", "DOC.3"], ["DOC.1.B", "DOC.3.A", "DOC.8.A", "DOC.9.A"])
    assert read(3) == read(None) == every
    skipped: list = []
    assert [g.id for g in iter_groups(path, skipped=skipped)] == every[0]
    together: list = []
    list(iter_groups(path, skipped=together, as_reached=True))
    assert [(n, item.id, item.line, item.reason) for n, item in sorted(together, key=lambda found: found[0])] == [
        (n, item.id, item.line, item.reason) for n, item in skipped]
    path.write_text(json.dumps([pair("DOC.1.A", "x")]), encoding="utf-8")
    with pytest.raises(FormatError, match=r"g\.json: no usable pairs in the groups file \(malformed link"):
        list(iter_groups(path, skipped=[], as_reached=True))
    # a group whose first pair is bad comes where its first good pair does, as without as_reached
    # (it came first, so --max-groups 1 read another group than before)
    path.write_text(json.dumps([pair("DOC.2.A", "x"), pair("DOC.1.A"), pair("DOC.2.B"), pair("DOC.7.A", "y")]),
                    encoding="utf-8")
    assert [g.id for g in iter_groups(path, skipped=[])] == ["DOC.1", "DOC.2"]
    assert read(1) == (["DOC.1"], [])  # DOC.2.A is its own group's, DOC.7 (bad only) begins later
    assert read(None) == (["DOC.1", "DOC.2"], ["DOC.2.A", "DOC.7.A"])


@pytest.mark.parametrize("layout", ["jacana", "jsonl"])
def test_half_a_surrogate_pair_in_json_groups_is_a_bad_pair_at_its_line(tmp_path, layout) -> None:
    r"""A sentence holding ``"\ud800"`` without its low half (no character) stopped `lattice
    paraphrases`/`stats` with a traceback from spaCy and `paraphrase-table --groups` one from
    writing its token files (UnicodeEncodeError): the pair is bad, skipped when asked (as a
    malformed link is), else a FormatError naming the file and the line of the escape."""
    from paralign.errors import FormatError

    bad = [dict(PAIRS[0]), {**PAIRS[1], "target": "one \ud800 arrived ."}, dict(PAIRS[2])]
    text = json.dumps(bad, indent=1) if layout == "jacana" else "".join(json.dumps(p) + "\n" for p in bad)
    line = text[:text.index("\\ud800")].count("\n") + 1  # 13 (jacana: the target's line), 2 (jsonl)
    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    skipped: list = []
    assert [(g.id, g.sentences) for g in iter_groups(path, skipped=skipped)] == [
        ("DOC.1", ("a man came .", "a guy came .")), ("DOC.2", ("it rains .", "it is raining ."))]
    assert [(n, item.id, item.line) for n, item in skipped] == [(2, "DOC.1.B", line)]
    assert "is half of a UTF-16 surrogate pair, no character" in skipped[0][1].reason
    with pytest.raises(FormatError, match=rf'g\.json:{line}: "\\ud800" \(column \d+\) is half of a UTF-16'):
        list(iter_groups(path))


@pytest.mark.parametrize("before", ["\n", "\n \t\n", "\ufeff\n"])
def test_a_bible_header_after_blank_lines_is_the_header(tmp_path, before) -> None:
    """The header was looked for on line 1 only: after a blank line it was read as a group of
    the sentences 'verse_id', 'book', ..., and every verse's id, book, chapter and verse numbers
    were read as sentences of its group."""
    path = tmp_path / "bible.tsv"
    path.write_text(f"{before}verse_id\tbook\tchapter\tverse\tKJV\tWEB\nGen.1.1\tGen\t1\t1\tIn the beginning\tAt first\n",
                    encoding="utf-8")
    groups = list(iter_groups(path))
    assert [(g.id, g.sentences, g.names) for g in groups] == [("Gen.1.1", ("In the beginning", "At first"),
                                                               ("KJV", "WEB"))]


def test_a_bible_line_with_more_sentences_than_versions_is_an_error_at_its_line(tmp_path) -> None:
    """A tab inside a verse made one cell more than the header names: the last version's verse
    was dropped and the split verse read as two versions', without a word. Empty cells past the
    names (a trailing tab) and missing cells stay as they were."""
    header = "verse_id\tbook\tchapter\tverse\tKJV\tWEB\n"
    path = tmp_path / "bible.tsv"
    path.write_text(header + "G.1\tG\t1\t1\ta\tb\t\n" + "G.2\tG\t1\t2\tc\n", encoding="utf-8")
    assert [(g.id, g.sentences, g.names) for g in iter_groups(path)] == [
        ("G.1", ("a", "b"), ("KJV", "WEB")), ("G.2", ("c",), ("KJV",))]
    path.write_text(header + "G.1\tG\t1\t1\ta\tb\n" + "G.2\tG\t1\t2\tc one\tc two\td\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bible\.tsv:3: 3 sentence cells, but the header names 2 versions"):
        list(iter_groups(path))


@pytest.mark.data
def test_the_bible_groups_as_its_readme_counts(data) -> None:
    """The Old Testament file: one group a verse (22,342 rows under the header), its sentences
    the version columns as written; README trap: the DRA cell is blank in all 1,702 Psalms rows
    (Vulgate numbering), so those groups have 6 sentences, never an empty one."""
    groups = list(iter_groups(data / "multitranslation" / "bible-ot" / "bible_7versions_ot.tsv"))
    assert len(groups) == 22342 and len({g.id for g in groups}) == 22342
    assert Counter(len(g.sentences) for g in groups) == {7: 20640, 6: 1702}
    psalms = [g for g in groups if g.id.startswith("Psalms.")]
    assert len(psalms) == 1702 and all("DRA" not in g.names and len(g.names) == 6 for g in psalms)
    first = groups[0]
    assert (first.id, first.line, first.names) == ("Genesis.1.1", 2, ("ASV", "BBE", "DARBY", "DRA", "KJV", "WEB", "YLT"))
    assert first.sentences[4] == "In the beginning God created the heaven and the earth."


MSRP_ROWS = ["1\t1479718\t1479546\tStocks rallied sharply.\tStocks have rallied sharply.",
             "0\t1091286\t1091304\tThe Fed survey beat forecasts.\tPrices had pulled back."]
STS_ROWS = ["4.000\tA man is playing a flute.\tA man plays the flute.",
            "0.500\tA woman is slicing onions.\tA dog runs in the park."]


@pytest.mark.parametrize(("rows", "told"), [
    (["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String", *MSRP_ROWS], "an MSRP paraphrase file"),
    (MSRP_ROWS * 3, "an MSRP paraphrase file"),
    (STS_ROWS * 3, "an STS file"),
])
def test_a_file_of_scored_or_labelled_pairs_is_no_groups_file(tmp_path, rows, told) -> None:
    """An MSRP or STS file given as groups was read as groups of its every cell: `paraphrase-table
    --groups msr-para-val.tsv` took the label, the two ids and both sentences of each row (and
    pairs labelled 0, not paraphrases) as five equivalent sentences, and built a table of
    '"' ↔ '" comey' from them, exit 0. It is refused, naming the file and how to make groups."""
    path = tmp_path / "pairs.tsv"
    _write(path, "\n".join(rows) + "\n")
    with pytest.raises(FormatError, match=told) as refused:
        list(iter_groups(path))
    assert str(path) in str(refused.value) and "not a groups file" in str(refused.value)


def test_groups_that_hold_a_number_or_an_id_are_still_groups(tmp_path) -> None:
    """A few rows that look like a score or MSRP row among groups do not make the file one."""
    path = tmp_path / "g.tsv"
    _write(path, "3.5\tthree and a half\n1\t22\t33\tx\ty\nthe cat sat\ta cat sat\nit rains\tit is raining\n"
           "he left\the went away\n")
    assert len(list(iter_groups(path))) == 5


def test_a_line_of_a_byte_order_mark_alone_does_not_hide_an_msrp_header(tmp_path) -> None:
    """The check for pair files sampled a first line holding only a byte-order mark as a row
    (the groups reader skips it as blank), so the MSRP header after it was not its first row:
    the file was read as groups, 'Quality', '#1 ID', ... one of them. Both now skip that line."""
    path = tmp_path / "pairs.tsv"
    _write(path, "\ufeff\nQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n" + MSRP_ROWS[0] + "\n"
           "the cat sat\ta cat sat\nit rains\tit is raining\n")
    with pytest.raises(FormatError, match="its first line is the 'Quality' header"):
        list(iter_groups(path))


@pytest.mark.parametrize("head", [
    "# phrase\tparaphrase\tscore\n# paralign: {\"options\": {\"lowercase\": true}}\n",
    "# phrase\tparaphrase\tprobability\tpivots\tsupport\n",
    "\ufeff# phrase\tparaphrase\tscore\n",
])
def test_a_paraphrase_table_is_no_groups_file(tmp_path, head) -> None:
    """A table lattice paraphrases wrote, given back as --groups, was read as groups of its every cell:
    its header ('# phrase', 'paraphrase', 'score') a group, each row's score a sentence, exit 0."""
    path = tmp_path / "table.tsv"
    _write(path, head + "god\the\t5.0\nhe\tgod\t5.0\n")
    with pytest.raises(FormatError, match="a paraphrase table .* not a groups file") as refused:
        list(iter_groups(path))
    assert str(path) in str(refused.value)
