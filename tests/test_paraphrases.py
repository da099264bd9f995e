"""ParaphraseTable: building, matching, TSV round trip (plain and gzip), thresholds, bad lines."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.errors import ConfigurationError, FormatError
from paralign.paraphrases import (
    ParaphraseSource,
    ParaphraseTable,
    WordNetSynonyms,
    load_source,
    normalize_phrase,
)


def table() -> ParaphraseTable:
    return ParaphraseTable.from_pairs(
        [("the car", "the automobile", 0.9), ("the car", "the vehicle", 0.4), ("buy", "purchase"),
         ("The  Car", "THE AUTO", 0.7), ("same", "same", 1.0)],
        name="t",
    )


def test_building_and_matching() -> None:
    t = table()
    assert isinstance(t, ParaphraseSource)
    assert normalize_phrase("  The   Car ") == "the car"
    assert dict(t.paraphrases("THE car")) == {"the automobile": 0.9, "the vehicle": 0.4, "the auto": 0.7}
    assert "buy" in t and "purchase" not in t and "same" not in t  # identical pairs ignored
    assert len(t) == 4 and t.max_phrase_length == 2
    t.add("buy", "purchase", 0.5)
    assert t.paraphrases("buy") == {"purchase": 0.5}
    t.add("buy", "purchase", 0.2)  # a repeated pair keeps the higher score
    assert t.paraphrases("buy") == {"purchase": 0.5}
    symmetric = ParaphraseTable.from_pairs([("a", "b")], symmetric=True)
    assert "b" in symmetric and symmetric.paraphrases("b") == {"a": None}


def test_filtered() -> None:
    t = table()
    assert dict(t.filtered(threshold=0.5).paraphrases("the car")) == {"the automobile": 0.9, "the auto": 0.7}
    assert list(t.filtered(top_k=1).paraphrases("the car")) == ["the automobile"]
    assert t.filtered(threshold=0.99).paraphrases("buy") == {"purchase": None}  # unscored rows kept


@pytest.mark.parametrize("name", ["table.tsv", "table.tsv.gz"])
def test_tsv_round_trip(tmp_path: Path, name: str) -> None:
    t = table()
    path = tmp_path / name
    t.to_tsv(path)
    back = ParaphraseTable.from_tsv(path)
    assert sorted(back, key=repr) == sorted(t, key=repr)
    if name.endswith(".gz"):
        assert path.read_bytes()[:2] == b"\x1f\x8b"


# Phrases starting with '#' included: below to_tsv's record they are rows, not comments.
#: A row's score: 0 or more (a negative one is refused: paralign.tables.NEGATIVE), above 1 too.
scores = st.floats(0, 1e6)
phrases = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Zs")),
                  min_size=1, max_size=8)


def test_a_phrase_starting_with_a_hash_is_read_back_from_a_written_table(tmp_path: Path) -> None:
    """to_tsv's table reads back whole: a phrase such as '#1 hit' (or '# 1' as a tokenizer
    splits it) was read back as a comment and lost, while a user's '# ...' line above any
    record is still a comment."""
    t = ParaphraseTable.from_pairs([("#1 hit", "number one", 0.5), ("# 1", "first", None), ("buy", "purchase", 0.6)])
    path = tmp_path / "hash.tsv"
    t.to_tsv(path)
    back = ParaphraseTable.from_tsv(path)
    assert sorted(back, key=repr) == sorted(t, key=repr) and len(back) == 3
    assert load_source(str(path)).paraphrases("#1 hit") == {"number one": 0.5}
    users = tmp_path / "users.tsv"
    users.write_text("# my synonyms\n#cat\tfeline\t0.8\nbuy\tpurchase\t0.6\n", encoding="utf-8")
    assert [e.phrase for e in ParaphraseTable.from_tsv(users)] == ["buy"]  # no record: '#' lines are comments


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(phrases, phrases, st.one_of(st.none(), scores)), max_size=10))
def test_tsv_round_trip_property(tmp_path: Path, rows) -> None:
    t = ParaphraseTable.from_pairs(rows, lowercase=False)
    path = tmp_path / "p.tsv"
    t.to_tsv(path)
    assert sorted(ParaphraseTable.from_tsv(path, lowercase=False), key=repr) == sorted(t, key=repr)


def test_tsv_threshold_comments_and_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "p.tsv"
    path.write_text("# comment\n\na\tb\t0.2\na\tc\t0.8\nd\te\n", encoding="utf-8")
    t = ParaphraseTable.from_tsv(path, threshold=0.5)
    assert dict(t.paraphrases("a")) == {"c": 0.8} and t.paraphrases("d") == {"e": None}
    assert load_source(f"{path}:0.5").paraphrases("a") == {"c": 0.8}
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\t0.1\nno tab here\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad.tsv:2:"):
        ParaphraseTable.from_tsv(bad)
    bad.write_text("a\tb\thigh\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad.tsv:1:.*'high'"):
        ParaphraseTable.from_tsv(bad)


def _read_a_row_at_a_time(path: Path, threshold: float | None, lowercase: bool) -> list:
    """The rows from_tsv read when it added each with ParaphraseTable.add (each phrase
    normalised a row): the rows it must still read."""
    table = ParaphraseTable(lowercase=lowercase)
    for line in path.read_text(encoding="utf-8").lstrip("\ufeff").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        score = float(fields[2]) if len(fields) >= 3 and fields[2].strip() else None
        if threshold is None or score is None or score >= threshold:
            table.add(fields[0], fields[1], score)
    return list(table)


@pytest.mark.parametrize("lowercase", [True, False])
@pytest.mark.parametrize("threshold", [None, 0.5])
def test_a_tsv_table_reads_the_rows_that_adding_each_row_gives(tmp_path: Path, lowercase, threshold) -> None:
    """from_tsv normalises the phrase of a group of rows once and adds each row without add's
    checks, which it has made already (a faster load of a big table): the same rows as adding
    each row gives, in the same order, whatever the threshold and case."""
    path = tmp_path / "p.tsv"
    path.write_text(
        "\ufeff# comment\n \t \nThe  Car\tthe auto\t0.9\nThe  Car\tTHE AUTO\t0.7\nthe car\tthe auto\t0.95\n"
        "the car\tcar\t  \nthe car\tcar\t0.2\r\nthe car\tthe  car\t0.8\nbuy\tpurchase\n\nbuy\tget\t0.6\textra\n"
        "Buy\tpurchase\t1e-05\nBuy\tshop\t0\nthe car\tvehicle\t0.51\nbuy\tpurchase\t0.7\n",
        encoding="utf-8")
    read = ParaphraseTable.from_tsv(path, threshold=threshold, lowercase=lowercase)
    assert list(read) == _read_a_row_at_a_time(path, threshold, lowercase)
    assert len(read) > 3


@settings(max_examples=60)
@given(st.lists(st.one_of(
    st.tuples(phrases, phrases, st.one_of(st.none(), scores, st.integers(0, 5))),
    st.tuples(phrases, phrases), st.lists(phrases, min_size=2, max_size=2)), max_size=12),
    st.booleans(), st.booleans())
def test_from_pairs_builds_the_table_that_adding_each_row_gives(rows, symmetric, lowercase) -> None:
    """from_pairs normalises the phrase of a run of rows once and adds each row without add's
    checks, which it has made (a 3-million-row Parquet table loads faster): the same rows, in
    the same order, as adding each row (and its reverse) gives."""
    added = ParaphraseTable(lowercase=lowercase)
    for row in rows:
        phrase, paraphrase, score = (*row, None) if len(row) == 2 else row
        added.add(phrase, paraphrase, score)
        if symmetric:
            added.add(paraphrase, phrase, score)
    assert list(ParaphraseTable.from_pairs(rows, symmetric=symmetric, lowercase=lowercase)) == list(added)


def test_a_score_of_another_number_type_is_kept_as_a_float(tmp_path: Path) -> None:
    """A numpy float or a Fraction (a number that from_pairs takes, and np.float64 is a float to
    add's annotation) was kept as given: to_tsv wrote its repr (``np.float32(0.5)``,
    ``Fraction(1, 4)``), which from_tsv refused as not a number, and an int score hashed as
    ``1`` where the same table read from its TSV file hashes ``1.0``."""
    import fractions

    import numpy as np

    odd = ParaphraseTable.from_pairs([("a", "b", np.float32(0.5)), ("c", "d", fractions.Fraction(1, 4)),
                                      ("e", "f", 1)], name="t")
    odd.add("g", "h", np.float64(0.125))
    plain = ParaphraseTable.from_pairs([("a", "b", 0.5), ("c", "d", 0.25), ("e", "f", 1.0), ("g", "h", 0.125)],
                                       name="t")
    assert [type(e.score) for e in odd] == [float] * 4
    odd.to_tsv(tmp_path / "t.tsv")
    read = ParaphraseTable.from_tsv(tmp_path / "t.tsv")
    assert list(read) == list(plain) and read.content_hash() == plain.content_hash() == odd.content_hash()


def test_load_source_specs(tmp_path: Path) -> None:
    assert isinstance(load_source("wordnet"), WordNetSynonyms)
    assert "automobile" in load_source("wordnet").paraphrases("car")
    with pytest.raises(ConfigurationError, match="not a threshold"):
        load_source(str(tmp_path / "absent.tsv:abc"))


@pytest.mark.parametrize("name", ["ppdb", "wordnet"])
def test_a_threshold_given_to_a_built_in_source_is_named_as_such(tmp_path: Path, monkeypatch, name: str) -> None:
    """`--table ppdb:0.5` said "ppdb: no such file", as if a file were meant: the built-in
    sources take no threshold (a file of that name still does)."""
    monkeypatch.chdir(tmp_path)
    for value in ("0.5", "-1", "nan"):  # (tabletail) -1 and nan were named as bad thresholds, not as the built-in's
        with pytest.raises(ConfigurationError, match=f"'{name}:{value}': the built-in {name} takes no threshold"):
            load_source(f"{name}:{value}")
    (tmp_path / name).write_text("a\tb\t0.4\na\tc\t0.8\n", encoding="utf-8")
    assert load_source(f"{name}:0.5").paraphrases("a") == {"c": 0.8}


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_a_threshold_that_is_not_a_finite_number_is_refused(tmp_path: Path, value: str) -> None:
    """NaN kept every row as if no threshold was given, inf silently dropped every row."""
    path = tmp_path / "t.tsv"
    path.write_text("a\tb\t0.5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=rf"t.tsv:{value}'.*not a finite number"):
        load_source(f"{path}:{value}")


def test_paraphrases_are_a_read_only_view() -> None:
    table = ParaphraseTable()
    table.add("car", "automobile", 0.5)
    view = table.paraphrases("car")
    with pytest.raises(TypeError):
        view["lorry"] = 1.0  # type: ignore[index]
    assert dict(table.paraphrases("Car")) == {"automobile": 0.5}


def test_repr_names_the_table_its_size_and_a_row() -> None:
    table = ParaphraseTable("demo")
    assert repr(table) == "ParaphraseTable('demo', 0 phrases, 0 pairs)"
    table.add("a", "b", 0.5)
    table.add("a", "c")
    assert repr(table) == "ParaphraseTable('demo', 1 phrases, 2 pairs: 'a' -> 'b' 0.5, ...)"


def test_multiword_strings_follow_the_table() -> None:
    table = ParaphraseTable.from_pairs([("blow up", "explode"), ("a", "b")])
    assert table.multiword_strings() == (2, frozenset({"blow up"}))
    table.add("x", "go on and on")  # a change forgets the remembered answer
    assert table.multiword_strings() == (4, frozenset({"blow up", "go on and on"}))
    assert ParaphraseTable().multiword_strings() == (1, frozenset())


def _longest_row(table: ParaphraseTable) -> int:
    """The most words of a phrase or paraphrase of `table`, counted row by row."""
    return max((len(text.split()) for entry in table for text in (entry.phrase, entry.paraphrase)), default=0)


def test_max_phrase_length_is_the_remembered_count_and_follows_the_table() -> None:
    """max_phrase_length is multiword_strings' count (remembered, not every row read again at
    each call), and the most words of a row's phrase or paraphrase: on a table with phrases of
    several words (white space written loosely), after rows are added (which forget the count),
    0 on an empty table (where multiword_strings says 1), 1 on a table of single words."""
    table = ParaphraseTable.from_pairs([("Blow   up", "explode"), ("a", "b")])
    assert table.max_phrase_length == table.multiword_strings()[0] == _longest_row(table) == 2
    table.add("x", "go on\tand  on")
    assert table.max_phrase_length == table.multiword_strings()[0] == _longest_row(table) == 4
    table.add("in the end", "finally")
    assert table.max_phrase_length == _longest_row(table) == 4
    assert ParaphraseTable().max_phrase_length == 0 and ParaphraseTable().multiword_strings()[0] == 1
    words = ParaphraseTable.from_pairs([("big", "large"), ("car", "auto")])
    assert words.max_phrase_length == words.multiword_strings()[0] == 1


def test_a_tables_content_hash_follows_the_table() -> None:
    """The hash a signature names a table by is remembered on the table, and forgotten when the
    table changes: a row added after a signature was taken kept the old hash, so a signature
    named a table that was no longer the one scored with."""
    from paralign.metrics.paraeval.signature import table_hash

    table = ParaphraseTable.from_pairs([("a", "b", 0.5)])
    first = table_hash(table)
    table.add("a", "c")
    assert table_hash(table) != first
    assert table_hash(table) == table_hash(ParaphraseTable.from_pairs([("a", "b", 0.5), ("a", "c")]))


def _hash_an_entry_a_row(table: ParaphraseTable) -> str:
    """table_hash as it was first written (an entry a row, sorted): the value signatures print."""
    import hashlib

    h = hashlib.sha256()
    for entry in sorted(table, key=lambda e: (e.phrase, e.paraphrase)):
        h.update(f"{entry.phrase}\t{entry.paraphrase}\t{entry.score}\n".encode())
    return h.hexdigest()[:8]


@settings(max_examples=60)
@given(st.lists(st.tuples(phrases, phrases, st.one_of(st.none(), scores)), max_size=12))
def test_a_tables_content_hash_is_the_hash_signatures_have_printed(rows) -> None:
    """table_hash hashes a phrase's rows in one piece (a 3-million-row table was hashed an entry
    a row, in seconds): the bytes, so the hash, are those of a sorted line a row."""
    from paralign.metrics.paraeval.signature import table_hash

    table = ParaphraseTable.from_pairs(rows, lowercase=False)
    assert table_hash(table) == _hash_an_entry_a_row(table)
    fixed = ParaphraseTable.from_pairs([("a man", "a guy", 0.8), ("a man", "someone", 0.3),
                                        ("Café", "coffee shop", None), ("a", "a man", 1e-05), ("a man", "A", 0.1)])
    assert table_hash(fixed) == _hash_an_entry_a_row(fixed) == "75ce95ee"


def test_ppdb_table_is_the_symmetric_table_of_the_pairs() -> None:
    """The fast reader builds exactly what from_pairs builds from `ppdb_pairs` (both orders)."""
    from paralign import resources
    from paralign.errors import ResourceMissingError
    from paralign.paraphrases import ppdb_table

    try:
        pairs = resources.ppdb_pairs()
    except ResourceMissingError as exc:
        pytest.skip(f"PPDB data not found: {exc}")
    fast = ppdb_table()
    slow = ParaphraseTable.from_pairs(pairs, "ppdb-lexical", symmetric=True)
    assert fast.name == slow.name
    assert {p: dict(fast.paraphrases(p)) for p in fast.phrases()} == \
        {p: dict(slow.paraphrases(p)) for p in slow.phrases()}
    longest, multi = fast.multiword_strings()
    fast._multiword = None  # the reader's precomputed answer equals the general one
    assert (longest, multi) == fast.multiword_strings() and longest >= 2 and multi


def test_a_byte_order_mark_starting_a_tsv_table_is_not_part_of_its_first_phrase(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_bytes("\ufeffthe cat\tthe feline\t0.5\n".encode())
    assert list(ParaphraseTable.from_tsv(path).phrases()) == ["the cat"]


def test_a_phrase_that_is_not_a_str_is_named() -> None:
    """API audit C11: paraphrases(None) was "'NoneType' object has no attribute 'split'"."""
    from paralign.errors import InputTypeError

    table = ParaphraseTable.from_pairs([("cat", "feline")])
    with pytest.raises(InputTypeError, match="a phrase is a str, not NoneType"):
        table.paraphrases(None)
    assert dict(table.paraphrases(" Cat ")) == {"feline": None}


@pytest.mark.parametrize("score", [-0.5, -1])
def test_a_table_in_memory_refuses_a_negative_score_as_its_file_does(tmp_path, score) -> None:
    """Audit: from_tsv now refuses a negative score at its line; add() and from_pairs took one,
    and to_tsv wrote a file that did not read back."""
    with pytest.raises(ConfigurationError, match=rf"score of 'a' -> 'b' is {score}, which is negative"):
        ParaphraseTable().add("a", "b", score)
    with pytest.raises(ConfigurationError, match=rf"score of 'a' -> 'b' is {float(score)}, which is negative"):
        ParaphraseTable.from_pairs([("a", "c", 0.5), ("a", "b", score)])
    table = ParaphraseTable.from_pairs([("a", "b", 2.0), ("a", "c", 0.0)])  # a count, a zero: kept
    table.to_tsv(tmp_path / "t.tsv")
    assert sorted(ParaphraseTable.from_tsv(tmp_path / "t.tsv"), key=repr) == sorted(table, key=repr)


@pytest.mark.parametrize("score", [float("nan"), float("inf")])
def test_add_refuses_a_score_that_is_not_finite(score) -> None:
    """API audit R4: add() took NaN, which from_tsv refuses in a file."""
    table = ParaphraseTable()
    with pytest.raises(ConfigurationError, match=r"score of 'a' -> 'b' is (nan|inf), not a finite number"):
        table.add("a", "b", score)
    table.add("a", "b", 0.5)
    assert dict(table.paraphrases("a")) == {"b": 0.5}


@pytest.mark.parametrize("spec", ["", "  ", None])
def test_load_source_of_nothing_says_what_it_takes(spec) -> None:
    """'' was 'InputFileError: .: is a directory', None a TypeError."""
    from paralign.paraphrases import load_source

    with pytest.raises(ConfigurationError, match="use ppdb, wordnet, PATH or PATH:THRESHOLD"):
        load_source(spec)


def test_load_source_takes_a_path(tmp_path) -> None:
    from paralign.paraphrases import load_source

    table = tmp_path / "t.tsv"
    table.write_text("cat\tfeline\t0.5\n", encoding="utf-8")
    assert dict(load_source(table).paraphrases("cat")) == {"feline": 0.5}


def test_a_table_holds_a_phrase_as_its_tokenizer_split_it() -> None:
    """held_phrase is the one rule by which paraphrases, serve and ParaEval look a phrase up:
    split by the table's tokenizer (None: a user's table, only white space collapsed) and cased."""
    from paralign.phrase_keys import held_phrase

    assert held_phrase("The  Doctor's", "regex", True) == "the doctor 's"
    assert held_phrase("The  Doctor's", "whitespace", False) == "The Doctor's"
    assert held_phrase("The  Doctor's", None, True) == "the doctor's"
    table = ParaphraseTable.from_pairs([("doctor 's", "physician 's", 0.5)])
    assert table.held("Doctor's") == "doctor's" and not table.paraphrases(table.held("Doctor's"))
    table.tokenizer = "regex"
    assert dict(table.paraphrases(table.held("Doctor's"))) == {"physician 's": 0.5}
    with pytest.raises(ConfigurationError, match="unknown tokenizer 'nosuch'"):
        ParaphraseTable(tokenizer="nosuch")
    assert ParaphraseTable(tokenizer="spacy").held("The man's") == "the man 's"  # a lattice table's


def test_retokenized_resplits_a_built_tables_phrases_as_another_tokenizer_splits_text() -> None:
    """ParaEval compares 13a n-grams (doctor's) with a pivot table's regex phrases (doctor 's):
    the table re-split, rows that come to be one keeping the higher score, self-pairs dropped."""
    from paralign.tok13a import tokenize_13a

    rows = [("doctor 's", "physician 's", 0.5), ("doctor 's", "doctor's", 0.9), ("doctor's", "physician 's", 0.7),
            ("is n't", "is not", None)]
    table = ParaphraseTable.from_pairs(rows, name="t.tsv")
    assert table.retokenized(tokenize_13a, "13a") is table  # its tokenizer is not known: as it is
    table.tokenizer, table.threshold = "regex", 0.1
    split = table.retokenized(tokenize_13a, "13a")
    assert sorted((e.phrase, e.paraphrase, e.score) for e in split) == [
        ("doctor's", "physician's", 0.7), ("isn't", "is not", None)]
    assert split.retokenized_from == "regex" and split.threshold == 0.1 and split.name == "t.tsv"
    assert split.tokenizer is None and table.retokenized_from is None
    assert table.retokenized(tokenize_13a, "13a") is split  # made once
    table.add("a", "b")
    assert table.retokenized(tokenize_13a, "13a") is not split  # not once the table changed


@pytest.mark.parametrize("name", ["t.parquet", "t.tsv"])
def test_load_source_records_a_built_tables_tokenizer(tmp_path, name) -> None:
    import pyarrow as pa

    from paralign.tables import TableWriter

    schema = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64())])
    rows = pa.Table.from_pylist([{"phrase": "doctor 's", "paraphrase": "physician 's", "probability": 0.5}], schema=schema)
    for tokenizer, metadata in (("moses", {"options": {"tokenizer": "moses", "lowercase": True}}), (None, None),
                                (None, {"options": {"tokenizer": "nonsense"}})):
        path = tmp_path / f"{tokenizer}-{name}"
        with TableWriter(path, schema, metadata) as writer:
            writer.write(rows)
        assert load_source(str(path)).tokenizer == tokenizer


def test_a_built_table_on_a_fifo_is_read_once_with_its_tokenizer(tmp_path) -> None:
    """A TSV table's record (its tokenizer) is read in the pass that reads its rows: reading it
    again opened a FIFO a second time, which waits for a writer that has gone (``meta-eval
    --table FIFO`` hung), and a pipe's bytes were gone by then."""
    import os
    import threading

    import pyarrow as pa

    from paralign.tables import TableWriter

    schema = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64())])
    rows = pa.Table.from_pylist([{"phrase": "doctor 's", "paraphrase": "physician 's", "probability": 0.5}], schema=schema)
    built = tmp_path / "t.tsv"
    with TableWriter(built, schema, {"options": {"tokenizer": "regex", "lowercase": True}}) as writer:
        writer.write(rows)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(built.read_bytes()), daemon=True)
    writer.start()
    found: list = []
    reader = threading.Thread(target=lambda: found.append(load_source(str(fifo))), daemon=True)
    reader.start()
    reader.join(timeout=20)
    if reader.is_alive():  # let the stuck reader go: one more writer gives it its end of file
        threading.Thread(target=lambda: fifo.write_bytes(b""), daemon=True).start()
        pytest.fail("load_source opened the FIFO twice")
    (table,) = found
    assert table.tokenizer == "regex" and dict(table.paraphrases(table.held("Doctor's"))) == {"physician 's": 0.5}


# -- a table file's disk cache (load_table) ----------------------------------------------------

ROWS = "The Car\tthe automobile\t0.9\nthe car\tthe vehicle\t0.3\nthe car\tTHE AUTO\t\nbuy\tpurchase\t0.6\nbuy\tbuy\t1\n"


def _write_table(path: Path, rows: str = ROWS) -> Path:
    """`rows` (TSV text) as a TSV, TSV.gz or Parquet file (as pivot writes one, with a record of
    its tokenizer), by `path`'s name."""
    if path.suffix != ".parquet":
        ParaphraseTable.from_tsv(_plain(path.parent / "rows.tsv", rows), lowercase=False).to_tsv(path)
        return path
    import pyarrow as pa

    from paralign.tables import TableWriter

    schema = pa.schema([("phrase", pa.string()), ("paraphrase", pa.string()), ("probability", pa.float64())])
    scored = [r.split("\t") for r in rows.splitlines() if r.split("\t")[2]]
    with TableWriter(path, schema, {"options": {"tokenizer": "regex", "lowercase": True}}) as writer:
        writer.write(pa.Table.from_pylist([{"phrase": p, "paraphrase": q, "probability": float(s)} for p, q, s in scored],
                                          schema=schema))
    return path


def _plain(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _same(a: ParaphraseTable, b: ParaphraseTable) -> bool:
    """The same rows in the same order, the same settings and the same hash."""
    return (list(a) == list(b) and (a.name, a.threshold, a.tokenizer, a.lowercase, a.content_hash())
            == (b.name, b.threshold, b.tokenizer, b.lowercase, b.content_hash()))


@pytest.mark.parametrize("threshold", [None, 0.5])
@pytest.mark.parametrize("name", ["t.tsv", "t.tsv.gz", "t.parquet"])
def test_a_table_file_is_read_back_from_the_disk_cache_as_it_was_parsed(tmp_path, table_cache, monkeypatch, name,
                                                                         threshold) -> None:
    """A command parsed a user's table on every run (a 3-million-row table: 7-8 s, and 3 s more
    to hash it): the rows, tokenizer and hash are kept in the disk cache and read back equal."""
    from paralign.metrics.paraeval.signature import source_signature

    folder, parsed = table_cache
    path = _write_table(tmp_path / name)
    spec = str(path) if threshold is None else f"{path}:{threshold}"
    cold, warm = load_source(spec), load_source(spec)
    assert parsed == [str(path)] and len(list(folder.glob("table-*.marshal"))) == 1
    assert _same(cold, warm) and source_signature(cold) == source_signature(warm)
    assert warm.tokenizer == ("regex" if name.endswith("parquet") else None)
    assert warm.lowercase is name.endswith("parquet")  # the TSV's record keeps its case (to_tsv's)
    monkeypatch.setenv("PARALIGN_CACHE_DIR", "")  # no cache: parsed as before
    plain = load_source(spec)
    assert _same(plain, warm) and plain.content_hash() == ParaphraseTable.from_pairs(
        [(e.phrase, e.paraphrase, e.score) for e in plain], lowercase=plain.lowercase).content_hash()


def test_a_changed_file_threshold_or_reading_code_is_parsed_again(tmp_path, table_cache, monkeypatch) -> None:
    from paralign import paraphrases

    folder, parsed = table_cache
    path = _plain(tmp_path / "t.tsv", ROWS)
    first = load_source(str(path))
    _plain(path, ROWS + "buy\tacquire\t0.2\n")  # another size
    changed = load_source(str(path))
    assert len(parsed) == 2 and dict(changed.paraphrases("buy")) == {"purchase": 0.6, "acquire": 0.2}
    assert changed.content_hash() != first.content_hash()
    assert load_source(f"{path}:0.5").threshold == 0.5 and len(parsed) == 3
    load_source(str(path)), load_source(f"{path}:0.5")  # each threshold keeps its own entry
    assert len(parsed) == 3 and len(list(folder.glob("table-*.marshal"))) == 2
    monkeypatch.setattr(paraphrases, "_reader_digest", lambda: "other code")
    assert _same(load_source(str(path)), changed) and len(parsed) == 4


@pytest.mark.parametrize("module", ["paralign.shown_text", "paralign.phrase_keys", "paralign.tables"])
def test_the_reading_codes_digest_covers_the_code_that_keys_a_tables_rows(tmp_path, monkeypatch, module) -> None:
    """Audit: a table's rows are keyed by normalize_phrase, which reads a phrase as it shows
    through paralign.shown_text; that module was not in the digest that keys a table's cache
    entry (_reader_digest), so a paralign whose shown_text drops other characters would read
    back rows keyed by the code before. Changing any module that keys the rows changes it."""
    import sys

    from paralign import paraphrases

    paraphrases._reader_digest.cache_clear()
    before = paraphrases._reader_digest()
    changed = tmp_path / "changed.py"
    changed.write_bytes(Path(sys.modules[module].__file__).read_bytes() + b"\n# another version\n")
    monkeypatch.setattr(sys.modules[module], "__file__", str(changed))
    paraphrases._reader_digest.cache_clear()
    try:
        assert paraphrases._reader_digest() != before
    finally:
        monkeypatch.undo()
        paraphrases._reader_digest.cache_clear()


def test_a_small_table_or_an_unwritable_cache_is_parsed_every_time(tmp_path, table_cache, monkeypatch) -> None:
    from paralign import paraphrases

    folder, parsed = table_cache
    path = _plain(tmp_path / "t.tsv", ROWS)
    monkeypatch.setattr(paraphrases, "CACHED_TABLE_BYTES", path.stat().st_size + 1)
    load_source(str(path)), load_source(str(path))
    assert len(parsed) == 2 and not folder.exists()
    monkeypatch.setattr(paraphrases, "CACHED_TABLE_BYTES", 0)
    blocker = _plain(tmp_path / "blocker", "a file, not a folder")
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(blocker / "cache"))
    assert _same(load_source(str(path)), load_source(str(path))) and len(parsed) == 4


def test_a_tables_hash_is_taken_before_the_bar_of_its_rows_ends(tmp_path, table_cache, monkeypatch) -> None:
    """The hash of a 3-million-row table took 3 s after its bar had ended, with nothing on
    screen: it is taken while the rows' progress hook is still running. A hook that reads all
    the rows ahead of the reader still gives the table's own hash."""
    events: list[str] = []
    real = ParaphraseTable.content_hash

    def content_hash(self: ParaphraseTable) -> str:
        if self._content_hash is None:
            events.append("hashed")
        return real(self)

    monkeypatch.setattr(ParaphraseTable, "content_hash", content_hash)

    def bar(rows):
        yield from rows
        events.append("bar ended")

    for name in ("t.tsv", "t.parquet"):
        path = _write_table(tmp_path / name)
        events.clear()
        table = load_source(str(path), progress=bar)
        assert events == ["hashed", "bar ended"], name
        expected = ParaphraseTable.from_pairs([(e.phrase, e.paraphrase, e.score) for e in table],
                                              lowercase=table.lowercase)
        assert table.content_hash() == real(expected)
        monkeypatch.setenv("PARALIGN_CACHE_DIR", "")  # parsed again
        ahead = load_source(str(path), progress=lambda rows: list(rows))
        monkeypatch.setenv("PARALIGN_CACHE_DIR", str(table_cache[0]))
        assert ahead.content_hash() == real(expected) and list(ahead) == list(table)


@pytest.mark.parametrize("threshold", [float("nan"), float("inf"), "0.5"])
def test_a_threshold_argument_that_is_not_a_finite_number_is_refused(tmp_path, threshold) -> None:
    """API audit: `ParaphraseTable.from_tsv(path, threshold=nan)` kept every row (no score is
    below NaN), silently; inf kept none and '0.5' was a TypeError at the first scored row.
    `load_source('PATH:nan')` already refused it; from_tsv, load_table and filtered do too."""
    from paralign.errors import ConfigurationError
    from paralign.paraphrases import load_table

    table = ParaphraseTable.from_pairs([("a man", "a guy", 0.8), ("a man", "someone", 0.1)])
    path = tmp_path / "t.tsv"
    table.to_tsv(path)
    for call in (lambda: ParaphraseTable.from_tsv(path, threshold=threshold), lambda: load_table(path, threshold),
                 lambda: table.filtered(threshold)):
        with pytest.raises(ConfigurationError, match="table '(t.tsv|table)' has a threshold that is not a finite number"):
            call()
    assert len(ParaphraseTable.from_tsv(path, threshold=0.5)) == len(table.filtered(0.5)) == 1


def test_to_tsv_at_a_path_it_cannot_write_is_a_configuration_error_naming_it(tmp_path, monkeypatch) -> None:
    """`to_tsv` of a directory, of a path under a file or in a missing folder raised a raw
    OSError (IsADirectoryError, or FileNotFoundError naming its temporary file): it is checked
    first as ``-o`` is (errors.check_output_file), a ConfigurationError naming the path. A
    device is still written in place."""
    t = table()
    (tmp_path / "file").write_text("a file\n")
    for path, said in ((tmp_path, "is a directory, expected a file name"),
                       (tmp_path / "file" / "t.tsv", ".*/file is a file, not a folder"),
                       (tmp_path / "nope" / "t.tsv.gz", "folder .*nope does not exist")):
        for spelt in (path, str(path)):
            with pytest.raises(ConfigurationError, match=f"^{re.escape(str(path))}: {said}$"):
                t.to_tsv(spelt)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    # root (CI) may write there, and os.access keeps saying so without CAP_DAC_OVERRIDE (it
    # asks with the permitted capabilities): answer for the folder as for a user
    access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: Path(p) != locked and access(p, mode, **kw))
    with pytest.raises(ConfigurationError, match=f"^{re.escape(str(locked / 't.tsv'))}: not writable$"):
        t.to_tsv(locked / "t.tsv")
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "locked"] and not any(locked.iterdir())
    t.to_tsv("/dev/null")
    t.to_tsv(tmp_path / "t.tsv")
    assert len(ParaphraseTable.from_tsv(tmp_path / "t.tsv")) == len(t)


def test_a_score_past_floats_range_is_refused_as_a_number_is() -> None:
    """An int too large for a float (10**400) was a bare OverflowError from float() in
    from_pairs and from math.isfinite in add; it is refused as NaN is, naming the row."""
    with pytest.raises(FormatError, match=r"row 2: score .* is too large for a float"):
        ParaphraseTable.from_pairs([("a", "b", 0.5), ("c", "d", 10**400)])
    with pytest.raises(ConfigurationError, match=r"score of 'c' -> 'd' is .* too large for a float"):
        ParaphraseTable().add("c", "d", 10**400)
    assert ParaphraseTable.from_pairs([("c", "d", 10**300)]).paraphrases("c") == {"d": 1e300}


@pytest.mark.parametrize("top_k", [0, -1, 2.5, True])
def test_filtered_top_k_that_is_no_count_is_refused(top_k: object) -> None:
    """Audit: filtered(top_k=0) kept every row, -1 dropped the last one and 2.5 was a TypeError
    from slicing, where tables.lookup refuses them; True was taken as 1."""
    t = table()
    with pytest.raises(ConfigurationError, match="top_k must be"):
        t.filtered(top_k=top_k)  # type: ignore[arg-type]  # wrong types on purpose
    assert list(t.filtered(top_k=2).paraphrases("the car")) == ["the automobile", "the auto"]
    assert len(t.filtered(top_k=None)) == len(t)


def test_to_tsv_refuses_a_row_that_would_not_read_back(tmp_path: Path) -> None:
    """Audit: a phrase holding a NUL (from_pairs takes it) was written, and the table's own
    from_tsv refused the file ('a NUL byte ...: binary data, not text'). Now to_tsv names the
    row and leaves the path as it was."""
    path = tmp_path / "t.tsv"
    path.write_text("kept\n", encoding="utf-8")
    bad = ParaphraseTable.from_pairs([("a man", "a guy", 0.5), ("a\x00b", "c", 0.1)])
    with pytest.raises(FormatError, match=r"row 'a\\x00b' -> 'c' holds a NUL character"):
        bad.to_tsv(path)
    assert path.read_text(encoding="utf-8") == "kept\n"
    good = ParaphraseTable.from_pairs([("a man", "a guy", 0.5)])
    good.to_tsv(path)
    assert list(ParaphraseTable.from_tsv(path)) == list(good)


def test_filtered_ranks_unscored_rows_last_as_paraphrases_top_k_does(tmp_path) -> None:
    """Audit: filtered(top_k=...) ranked unscored rows (score None) first, so top_k=1 kept an
    unscored pair over a scored one, while `paralign paraphrases --top-k` (tables.lookup) lists
    them last. One order for both (tables.best_first): the highest score first, unscored rows
    last, ties by paraphrase."""
    from paralign.tables import lookup

    rows = [("car", "vehicle", None), ("car", "automobile", 0.5), ("car", "wheels", 0.5),
            ("car", "auto", 0.9), ("car", "motor", None)]
    table = ParaphraseTable.from_pairs(rows)
    path = tmp_path / "user.tsv"
    path.write_text("".join(f"{p}\t{q}\t{'' if s is None else s}\n" for p, q, s in rows), encoding="utf-8")
    ranked = ["auto", "automobile", "wheels", "motor", "vehicle"]
    for k in (1, 2, 3, 4, 5, None):
        assert list(table.filtered(top_k=k).paraphrases("car")) == ranked[:k]
        assert [row["paraphrase"] for row in lookup(path, ["car"], top_k=k)["car"]] == ranked[:k]
    assert list(table.filtered(threshold=0.6).paraphrases("car")) == ["auto", "motor", "vehicle"]


def test_ppdbs_own_file_given_by_path_is_the_built_in_ppdb(tmp_path: Path) -> None:
    """PPDB's file is an unordered list of pairs (`uniquepairs`), which ppdb_table() reads both
    ways; given by its path (`--similarity PATH`, `serve --table PATH`, `paraphrases --table
    PATH`) it was read one way, as a user's table, and held 11 paraphrases of cars, not 21. A copy
    of it elsewhere is a user's table; a threshold is refused, as the built-in's is."""
    import shutil

    from paralign.errors import ResourceMissingError
    from paralign.paraphrases import built_in_named, ppdb_table
    from paralign.resources import ppdb_path

    try:
        path = ppdb_path()
    except ResourceMissingError as exc:
        pytest.skip(f"PPDB data not found: {exc}")
    assert [built_in_named(spec) for spec in ("ppdb", "wordnet", str(path), "-", str(tmp_path))] == \
        ["ppdb", "wordnet", "ppdb", None, None]
    source = load_source(str(path))
    assert isinstance(source, ParaphraseTable) and source.name == ppdb_table().name
    assert dict(source.paraphrases("cars")) == dict(ppdb_table().paraphrases("cars"))
    assert len(source.paraphrases("cars")) == 21 and "automobiles" in source.paraphrases("cars")
    with pytest.raises(ConfigurationError, match="the built-in ppdb takes no threshold.*PPDB's own file"):
        load_source(f"{path}:0.5")
    copy, link = tmp_path / "pairs.tsv", tmp_path / "link.tsv"
    shutil.copyfile(path, copy)
    link.symlink_to(path)
    assert (built_in_named(str(copy)), built_in_named(str(link))) == (None, "ppdb")


@pytest.mark.skipif(os.sep == "\\", reason="a backslash is a separator on Windows: no file name holds one")
def test_a_table_files_name_holding_a_backslash_is_signed_whole(tmp_path: Path, monkeypatch) -> None:
    """Audit: a table's name was cut at a backslash on every system, so a POSIX file
    ``my\\table.tsv`` was signed ``table.tsv#HASH``, as a file named ``table.tsv`` is. The name
    is split as the running system splits a path (``pathlib``): whole on POSIX, at its last
    component on Windows; a name given in memory that holds '/' is still cut there."""
    import pathlib

    from paralign.metrics.paraeval.signature import source_signature
    from paralign.paraphrases import load_table, table_name_part

    path = tmp_path / "my\\table.tsv"
    path.write_text("car\tauto\t0.9\n", encoding="utf-8")
    for read in (load_table(path), ParaphraseTable.from_tsv(path), load_source(str(path))):
        assert isinstance(read, ParaphraseTable) and read.name == "my\\table.tsv"
        assert source_signature(read).startswith("my\\table.tsv#")
    assert table_name_part(ParaphraseTable("dir/x.tsv")) == "x.tsv"
    monkeypatch.setattr("paralign.paraphrases.PurePath", pathlib.PureWindowsPath)  # as on Windows
    assert table_name_part(load_table(path)) == "table.tsv"
