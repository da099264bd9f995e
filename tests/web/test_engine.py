"""The engine without its models: link confidences, table names, paraphrase order."""

from __future__ import annotations

import pytest

from paralign.alignment import Alignment
from paralign.errors import ConfigurationError
from paralign.metrics.paraeval import ParaEval
from paralign.paraphrases import ParaphraseTable
from paralign.web.engine import Engine, _source_name, link_confidences


def test_confidences_are_the_alignments_own_in_the_unit_interval() -> None:
    links = frozenset({(0, 0), (1, 1)})
    assert link_confidences(Alignment(links)) is None
    assert link_confidences(Alignment(links, confidence={(0, 0): 0.5, (1, 1): 1})) == {(0, 0): 0.5, (1, 1): 1.0}
    # values outside [0, 1], non-numbers and links the alignment does not have are dropped
    odd = Alignment(links, confidence={(0, 0): 0.1, (1, 1): "high", (5, 5): 0.2})  # type: ignore[dict-item]
    assert link_confidences(odd) == {(0, 0): 0.1}
    assert link_confidences(Alignment(links, confidence={(0, 0): 1.5})) is None


def test_table_names_are_file_names_made_unique(tmp_path) -> None:
    path = tmp_path / "pp.tsv"
    path.write_text("a\tb\n", encoding="utf-8")
    assert _source_name(str(path), ()) == "pp.tsv"
    assert _source_name(f"{path}:0.5", ("pp.tsv",)) == "pp.tsv-2"
    assert _source_name(str(path), ("pp.tsv", "pp.tsv-2")) == "pp.tsv-3"


def test_paraphrases_best_first_and_unknown_sources_refused() -> None:
    table = ParaphraseTable("t")
    for q, s in (("b", 0.2), ("a", 0.9), ("c", None), ("d", 0.9)):
        table.add("x", q, s)
    engine = Engine({"t": table}, ParaEval(), {})
    assert engine.paraphrases("X", "t") == [("a", 0.9), ("d", 0.9), ("b", 0.2), ("c", None)]
    with pytest.raises(ConfigurationError, match="no paraphrase source named 'u'; loaded: t"):
        engine.paraphrases("x", "u")
    with pytest.raises(ConfigurationError, match="start the server with --table"):
        Engine({}, ParaEval(), {}).paraphrases("x", "t")
    with pytest.raises(ConfigurationError, match="unknown aligner"):
        Engine.aligner("giza", "default")
