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
