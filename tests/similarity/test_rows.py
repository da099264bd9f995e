"""ScoredRows: the rows of a pairs input scored in order, bad rows in place (the record of
`paralign similarity --format json` and of the web app's batch route)."""

from __future__ import annotations

from paralign.aligners.registry import get_aligner
from paralign.similarity import make_signal
from paralign.similarity.rows import ScoredRows, score_line
from paralign.similarity.signature import similarity_signature


def test_bad_rows_keep_their_place_beside_the_scores() -> None:
    signal, aligner = make_signal("sultan2014"), get_aligner("exact")
    rows = ScoredRows()
    block = [(1, ("The cat sat.", "The cat sat."), None, None), (2, "1 field", None, None),
             (3, ("", "A cat."), "p3", None), (4, ("A dog.", "A cat."), "p3", None)]
    scores = rows.add(block, signal, aligner)
    assert scores[0] == 1.0 and scores[1] is None and scores[2] is None and scores[3] is not None
    assert rows.problems == [{"line": 2, "reason": "1 field"}, {"line": 3, "reason": "empty first sentence"}]
    record = rows.to_dict(signal, aligner, similarity_signature(signal, aligner), [])
    assert record["pairs"] == 4 and record["skipped"] == 2 and record["ids"] == [None, None, "p3", "p3"]
    assert [f["index"] for f in record["failures"]] == [1, 2] and record["aligner"] == "exact"
    assert "pasted:4" in rows.repeated_ids_note("pasted")


def test_a_score_line_is_a_tsv_line_with_na_for_no_score() -> None:
    assert score_line(0.5) == "0.500000\n" and score_line(None) == "NA\n"
    assert score_line(0.7, 0.5) == "0.700000\t1\n" and score_line(None, 0.5) == "NA\tNA\n"


def test_the_record_signs_the_tokens_of_the_rows_read_across_blocks() -> None:
    """The record's signature (made before the input was read) gets the rows' tok part, as
    similarity_many signs one batch of them: a block of token lists and a block of texts are
    one run that is `mixed`; its spacy part stays (a text row was tokenised by spaCy)."""
    signal, aligner = make_signal("sultan2014"), get_aligner("exact")
    rows = ScoredRows()
    rows.add([(1, (["A", "cat"], ["A", "cat", "sat"]), None, None)], signal, aligner)
    signature = similarity_signature(signal, aligner)
    lists = rows.to_dict(signal, aligner, signature, [])["signature"]
    assert "|tok:none|" in lists and "spacy" not in lists
    rows.add([(2, ("A cat.", "A cat sat."), None, None)], signal, aligner)
    mixed = rows.to_dict(signal, aligner, signature, [])["signature"]
    assert mixed == signature.replace("|spacy:", "|tok:mixed|spacy:")
