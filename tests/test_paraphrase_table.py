"""ParaphraseTable's copies (filtered, folded, retokenized): what each keeps of the table besides its rows."""

from __future__ import annotations

from pathlib import Path

from paralign.metrics.paraeval.signature import source_signature
from paralign.paraphrases import ParaphraseTable, load_table


def test_filtered_records_the_threshold_its_rows_were_cut_at(tmp_path: Path) -> None:
    """Audit: a table read at a threshold (``PATH:0.5``) and filtered (``top_k=1``) lost its
    threshold, so its signature said ``t.tsv#HASH`` where the table's said ``t.tsv:0.5#HASH``,
    and ``filtered(threshold=0.7)`` recorded none. The copy records the stricter of the two:
    no row scored below it is in the copy."""
    path = tmp_path / "t.tsv"
    path.write_text("car\tauto\t0.9\ncar\tvehicle\t0.4\ncar\tmotor\t0.6\n", encoding="utf-8")
    table = load_table(path, 0.5)
    assert table.filtered(top_k=1).threshold == 0.5
    assert source_signature(table.filtered(top_k=1)).startswith("t.tsv:0.5#")
    assert table.filtered(threshold=0.7).threshold == 0.7
    assert table.filtered(threshold=0.3).threshold == 0.5  # its rows below 0.5 were never read
    assert load_table(path).filtered(threshold=0.7).threshold == 0.7
    assert load_table(path).filtered(top_k=2).threshold is None
    assert ParaphraseTable.from_pairs([("a", "b", 0.2)]).filtered(threshold=0.1).threshold == 0.1


#: What each copy sets anew by its definition; every other setting it keeps.
CHANGED_BY = {"filtered": {}, "folded": {"lowercase": True},
              "retokenized": {"tokenizer": None, "retokenized_from": "regex"}}


def _copies(table: ParaphraseTable) -> dict[str, ParaphraseTable]:
    from paralign.tok13a import tokenize_13a

    return {"filtered": table.filtered(top_k=5), "folded": table.folded(),
            "retokenized": table.retokenized(tokenize_13a, "13a")}


def test_each_copy_keeps_every_setting_of_the_table() -> None:
    """Audit: retokenized, folded and filtered each copied threshold, retokenized_from and
    named_by_file by hand (filtered forgot threshold). One way to copy now (`_copy`): every
    public attribute of the table is kept but what the copy changes by definition, a setting
    added later too (this test gives any it does not know a value of its own), and built_in is
    dropped, as a copy's rows are not the built-in's; the rows and what is remembered of them
    are the copy's own."""
    table = ParaphraseTable.from_pairs([("Doctor 's", "Physician 's", 0.5), ("a", "b", None)],
                                       name="t.tsv", lowercase=False)
    table.tokenizer, table.threshold, table.named_by_file, table.built_in = "regex", 0.25, True, "ppdb"
    known = {"name", "lowercase", "tokenizer", "threshold", "retokenized_from", "built_in", "named_by_file"}
    for setting in vars(table).keys() - known:  # one added since: a value no copy would make
        if not setting.startswith("_"):
            setattr(table, setting, object())
    table.content_hash(), table.multiword_strings()  # remembered: the copy's are its own
    for how, copy in _copies(table).items():
        assert copy is not table and copy._table is not table._table, how
        for setting, value in vars(table).items():
            if setting.startswith("_"):
                continue
            expected = None if setting == "built_in" else CHANGED_BY[how].get(setting, value)
            assert getattr(copy, setting) == expected, (how, setting)
        assert copy._content_hash is None or copy._content_hash == copy.content_hash(), how
        assert copy._retokenized == {}, how
    assert [(e.phrase, e.paraphrase) for e in table.folded()] == [("doctor 's", "physician 's"), ("a", "b")]


def test_a_setting_that_is_not_one_is_refused() -> None:
    """`_copy`'s changes are settings the table has: a misspelt one is a TypeError, not an
    attribute nothing reads."""
    import pytest

    with pytest.raises(TypeError, match="no setting of a ParaphraseTable: lowercased"):
        ParaphraseTable()._copy(lowercased=True)


def test_empty_table_note_says_what_an_empty_table_holds_and_nothing_else(tmp_path: Path) -> None:
    """The one wording of ``parametric table``'s and ``paraeval --table``'s empty-table warnings:
    a table of no row, or none at its threshold, is noted with the threshold; a table holding a
    row, or a source that is no table, is not."""
    from paralign.paraphrases import WordNetSynonyms, empty_table_note

    path = tmp_path / "t.tsv"
    path.write_text("car\tauto\t0.4\n", encoding="utf-8")
    assert empty_table_note(ParaphraseTable()) == "the table holds no paraphrase"
    assert empty_table_note(load_table(path, 0.5)) == "the table holds no paraphrase scoring >= 0.5"
    assert empty_table_note(load_table(path)) is None
    assert empty_table_note(WordNetSynonyms()) is None
