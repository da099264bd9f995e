"""What the library's values show in a notebook: a `repr` that says what they hold, short
enough to read, for the objects a researcher builds or gets back."""

from __future__ import annotations

import importlib.util

import pytest

import paralign


def test_wordnet_synonyms_has_a_repr_that_builds_it() -> None:
    """`WordNetSynonyms()` showed as '<paralign.paraphrases.WordNetSynonyms object at 0x...>',
    also inside `ParaEval()`'s repr of its sources."""
    assert repr(paralign.WordNetSynonyms()) == "WordNetSynonyms()"
    scorer = paralign.ParaEval(sources=(paralign.WordNetSynonyms(),))
    assert "WordNetSynonyms()" in repr(scorer) and " object at 0x" not in repr(scorer)


def test_alignment_scores_repr_is_a_summary_not_every_pair() -> None:
    """The repr of `score_alignments(...)` listed every pair's counts (a screenful for six pairs,
    megabytes for a test set) before the figures one reads. It shows the pairs, the link set
    and the corpus figures."""
    gold = [paralign.Alignment.from_pharaoh("0-0 1-1 2-2")] * 500
    system = [paralign.Alignment.from_pharaoh("0-0 1-1")] * 500
    scores = paralign.score_alignments(gold, system)
    assert repr(scores) == ("AlignmentScores(pairs=500, links='sure', macro=PRF(precision=1.0000, "
                            "recall=0.6667, f1=0.8000), micro=PRF(precision=1.0000, recall=0.6667, "
                            "f1=0.8000), exact=0.0000, aer=0.2000, skipped=0)")


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the neural extra (torch)")
def test_the_contextual_aligner_has_a_repr_as_the_lexical_one() -> None:
    """`Aligner('contextual')` showed as '<...ContextualAligner object at 0x...>' where
    `Aligner()` shows 'Aligner()': it shows the settings that differ from its defaults, and
    making the repr loads no model."""
    aligner = paralign.Aligner("contextual")
    assert repr(aligner) == "ContextualAligner()"
    tuned = paralign.Aligner("contextual", min_confidence=0.9, device="cpu")
    assert repr(tuned) == "ContextualAligner(device='cpu', min_confidence=0.9)"
    assert "_loaded" not in vars(tuned.encoder)


def test_the_graded_paraeval_scorer_has_a_repr_naming_its_config_and_sources(data) -> None:
    """`paralign.metrics.paraeval.scorer("default")`, the scorer `paralign.paraeval` and the
    command use, showed as '<...GradedParaEval object at 0x...>' where the paper scorer
    (`paralign.ParaEval()`) shows its settings and sources."""
    from paralign.metrics.paraeval import scorer

    shown = repr(scorer("default", resources=["wordnet"]))
    assert shown == "GradedParaEval(config='default', sources=(WordNetSynonyms(),))"
    assert repr(scorer("default", resources=[], max_length=2)).startswith("GradedParaEval(config=Config(")
