"""Graded ParaEval's caches (`cache_size`): a bound is never exceeded and never changes a score;
and the report's explanations (`explain_segments`) equal one `explain` per segment."""

from __future__ import annotations

import random

import numpy as np
import pytest

from paralign.metrics.paraeval.configs import Config
from paralign.metrics.paraeval.graded import GradedParaEval
from paralign.metrics.paraeval.paper import ParaEval
from paralign.paraphrases import ParaphraseTable

LEXICAL = Config("test", tiers=("exact", "stem", "synonym", "paraphrase"), resources=())
WORDS = [f"w{k}" for k in range(40)] + ["the", "a", "of", "runs", "running", "ran"]
BOUND = 5


def _table() -> ParaphraseTable:
    pairs = [(f"w{k}", f"w{k + 1}", 0.5) for k in range(0, 40, 2)]
    pairs += [(f"w{k} w{k + 1}", f"w{k + 3}", 0.25) for k in range(0, 36, 3)]
    return ParaphraseTable.from_pairs(pairs, name="t")


def _segments(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))) for _ in range(count)]


def _cache_sizes(scorer: GradedParaEval) -> dict[str, int]:
    assert scorer._para is not None
    out = {"lookups": len(scorer._para._cache), "stems": len(scorer._stems), "texts": len(scorer._texts),
           "grades": len(scorer._grades), "rows": len(scorer._memo[1])}
    if scorer._syn is not None:  # with WordNet: the synonym tier's lookups and synsets
        out.update(synonyms=len(scorer._syn._cache), senses=len(scorer._syn.senses))
    return out


def _sources(wordnet: bool) -> list:
    if not wordnet:
        return [_table()]
    from paralign.paraphrases import WordNetSynonyms
    from paralign.resources import wordnet_senses

    pytest.importorskip("nltk")
    if not wordnet_senses("run"):
        pytest.skip("WordNet data not found")
    return [_table(), WordNetSynonyms()]


@pytest.mark.parametrize("wordnet", [False, True], ids=["table", "table+wordnet-senses"])
def test_a_tiny_bound_is_never_exceeded_and_gives_the_scores_of_no_bound(wordnet: bool) -> None:
    hyps, refs = _segments(80, 1), [_segments(80, 2), _segments(80, 3)]
    config = LEXICAL.with_(synonyms="sense") if wordnet else LEXICAL
    free = GradedParaEval(config, _sources(wordnet))
    tiny = GradedParaEval(config, _sources(wordnet), cache_size=BOUND)
    expected = free.segment_stats(hyps, refs)
    assert max(_cache_sizes(free).values()) > 4 * BOUND  # the stream does fill an unbounded cache
    worst = dict.fromkeys(_cache_sizes(tiny), 0)
    for start in range(0, 80, 10):  # the bound checked along the way, not only at the end
        got = tiny.segment_stats(hyps[start:start + 10], [r[start:start + 10] for r in refs])
        np.testing.assert_array_equal(got, expected[start:start + 10])
        worst = {k: max(worst[k], v) for k, v in _cache_sizes(tiny).items()}
    assert max(worst.values()) <= BOUND and min(worst.values()) > 0, worst
    # the reverse index starts again past the bound, in new objects: at most one more reference's
    # phrases than the bound, and what was prepared before keeps scoring the same
    longest = 2 * max(len(r.split()) for r in refs[0] + refs[1])
    assert all(len(seen) <= BOUND + longest for _, seen in tiny._inverse.values())
    for hyp, r0, r1 in zip(hyps, *refs, strict=True):
        assert tiny.explain(hyp, [r0, r1]) == free.explain(hyp, [r0, r1])


def test_the_paper_scorer_bounds_its_lookups_without_changing_a_score() -> None:
    hyps, refs = _segments(40, 4), [_segments(40, 5)]
    free, tiny = ParaEval([_table()]), ParaEval([_table()], cache_size=BOUND)
    assert free.segment_stats(hyps, refs) == tiny.segment_stats(hyps, refs)
    assert len(free._cache) > BOUND >= len(tiny._cache) > 0


def test_explain_segments_equals_one_explain_per_segment_and_prepares_the_references_once() -> None:
    hyps, refs = _segments(30, 6), [_segments(30, 7), _segments(30, 8)]
    scorer = GradedParaEval(LEXICAL, [_table()])
    calls = []
    prepare = scorer.prepare
    scorer.prepare = lambda references: calls.append(len(references[0])) or prepare(references)  # type: ignore[method-assign]
    rows = scorer.segment_stats(hyps, refs)
    together = scorer.explain_segments(hyps, refs)
    assert calls == [30]  # scoring prepared them; the explanations reuse that
    apart = [GradedParaEval(LEXICAL, [_table()]).explain(h, [a, b]) for h, a, b in zip(hyps, *refs, strict=True)]
    assert together == apart
    np.testing.assert_array_equal(np.array([[v for _, v in e.counts] for e in together]), rows)
