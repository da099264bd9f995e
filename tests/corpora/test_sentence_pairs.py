"""Reading sentence pairs for align/similarity: TSV/JSONL lines and two line-aligned files."""

from __future__ import annotations

from paralign.corpora.sentence_pairs import read_input_pairs


def test_an_invalid_json_line_names_the_column() -> None:
    pairs = list(read_input_pairs(['{"source": "a", "target": "b\n'], fmt="jsonl"))
    assert pairs[0].error == "invalid JSON (column 29): Invalid control character here"
