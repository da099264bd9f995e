"""The engine without its models: confidences found generically, table names, paraphrase order."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from paralign.alignment import Alignment
from paralign.errors import ConfigurationError
from paralign.metrics.paraeval import ParaEval
from paralign.paraphrases import ParaphraseTable
from paralign.web.engine import Engine, _source_name, link_confidences


@dataclass(frozen=True)
class WithConfidence(Alignment):
    confidence: object = field(default=None, compare=False)


def test_confidences_are_read_from_any_confidence_attribute() -> None:
    links = frozenset({(0, 0), (1, 1)})
    assert link_confidences(Alignment(links)) is None
    assert link_confidences(WithConfidence(links, confidence={(0, 0): 0.5, (1, 1): 1})) == {(0, 0): 0.5, (1, 1): 1.0}
    # a method giving them works too; values outside [0, 1], non-numbers and foreign links are dropped
    method = WithConfidence(links, confidence=lambda: {(0, 0): 0.1, (1, 1): "high", (5, 5): 0.2})
    assert link_confidences(method) == {(0, 0): 0.1}
    assert link_confidences(WithConfidence(links, confidence={(0, 0): 1.5})) is None
    assert link_confidences(WithConfidence(links, confidence=[0.5])) is None


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
