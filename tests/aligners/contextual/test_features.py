"""Candidate links and the contextual final pass: symmetric in the two sentences."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from paralign.aligners.contextual import final_pass
from paralign.aligners.contextual.features import FEATURES, MODULE_GROUPS


def _sentence(content: list[bool]) -> SimpleNamespace:
    """What final_pass reads of a prepared sentence: its length and content-word flags."""
    return SimpleNamespace(n=len(content), content=content)


@given(
    st.integers(1, 7), st.integers(1, 7), st.integers(0, 2**32 - 1), st.booleans(),
)
def test_final_pass_is_symmetric(n: int, m: int, seed: int, ties: bool) -> None:
    """Swapping the sentences (and transposing the similarities and the links already made)
    transposes the final pass's links, ties included."""
    rng = np.random.default_rng(seed)
    sim = rng.uniform(-0.2, 1.0, (n, m))
    if ties:
        sim = np.round(sim, 1)  # many equal values
    s = _sentence(list(rng.random(n) < 0.7))
    t = _sentence(list(rng.random(m) < 0.7))
    taken = {(int(i), int(j)) for i, j in zip(rng.integers(0, n, 2), rng.integers(0, m, 2), strict=True)
             if rng.random() < 0.5}
    forward = final_pass(sim, s, t, taken, 0.3)
    backward = final_pass(sim.T.copy(), t, s, {(j, i) for i, j in taken}, 0.3)
    assert forward == {(i, j) for j, i in backward}


def test_final_pass_links_free_content_words_that_are_each_others_best() -> None:
    sim = np.array([[0.9, 0.2, 0.1], [0.3, 0.8, 0.7], [0.1, 0.75, 0.6]])
    s, t = _sentence([True, True, True]), _sentence([True, True, True])
    assert final_pass(sim, s, t, set(), 0.5) == {(0, 0), (1, 1)}
    # (2, 2) is 2's best once 1 and 1 are taken, and above the threshold
    assert final_pass(sim, s, t, {(1, 1)}, 0.5) == {(0, 0), (2, 2)}
    assert final_pass(sim, s, t, {(1, 1)}, 0.65) == {(0, 0)}
    # stop words (not content) are never linked by the final pass
    assert final_pass(sim, _sentence([False, True, True]), t, set(), 0.5) == {(1, 1)}


def test_every_module_of_the_pipeline_has_a_group() -> None:
    """A module the pipeline gains must be given a feature group (else its links look unproposed)."""
    from paralign.aligners.sultan import Prepared
    from paralign.aligners.sultan.modules import ModulePipeline
    from paralign.aligners.sultan.options import AlignerConfig
    from paralign.sentence import Sentence

    one = Prepared(Sentence(("word",)), frozenset(), {})
    config = AlignerConfig(context_only_links=1, align_unique_stop_words=True)
    names = [name for name, _ in ModulePipeline(config, one, one, {}).steps()]
    assert len(names) > 10 and set(names) <= set(MODULE_GROUPS)
    assert len(FEATURES) == len(set(FEATURES))


@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_rank_columns_are_symmetric(n: int, m: int, seed: int) -> None:
    """The similarity/rank/margin columns (main and extra layers) of a link are the same when
    the sentences are swapped, ties included."""
    from paralign.aligners.contextual.features import _rank_columns

    rng = np.random.default_rng(seed)
    sim = np.round(rng.uniform(-0.2, 1.0, (n, m)), 1)
    li, lj = rng.integers(0, n, 5), rng.integers(0, m, 5)
    for forward, backward in zip(_rank_columns(sim, li, lj), _rank_columns(sim.T.copy(), lj, li), strict=True):
        np.testing.assert_array_equal(forward, backward)
    value, rank_min, _, margin_min, _, best = _rank_columns(sim, li, lj)
    np.testing.assert_array_equal(best, (sim[li, lj] >= sim.max(axis=1)[li]) & (sim[li, lj] >= sim.max(axis=0)[lj]))
    assert (rank_min >= 0).all() and (margin_min <= 0).all() and np.array_equal(value, sim[li, lj])


def test_features_need_every_extra_layer() -> None:
    """Evidence without the extra layers' similarities is refused, not scored with zeros."""
    import pytest

    from paralign.aligners.contextual.features import EXTRA_LAYERS, PairEvidence, pair_features

    evidence = PairEvidence(None, None, np.zeros((1, 1)), {}, {}, {})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"{len(EXTRA_LAYERS)} extra-layer"):
        pair_features(evidence, [(0, 0)], set())
    assert {f"l{layer}_sim" for layer in EXTRA_LAYERS} <= set(FEATURES)
    assert {"length_ratio", "sentence_sim"} <= set(FEATURES)


@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_stack_features_are_symmetric(n: int, m: int, seed: int) -> None:
    """The second round's columns of a link are the same when the sentences are swapped (ties
    included), and read the first round's probabilities where they should."""
    from paralign.aligners.contextual.features import STACK_FEATURES, stack_features

    rng = np.random.default_rng(seed)
    cells = [(i, j) for i in range(n) for j in range(m)]
    chosen = rng.choice(len(cells), rng.integers(1, len(cells) + 1), replace=False)
    links = np.array(sorted(cells[k] for k in chosen))
    p = np.round(rng.uniform(0, 1, len(links)), 1)
    forward = stack_features(links, p, n, m)
    np.testing.assert_array_equal(forward, stack_features(links[:, ::-1].copy(), p, m, n))
    assert forward.shape == (len(links), len(STACK_FEATURES))
    column = dict(zip(STACK_FEATURES, forward.T, strict=True))
    np.testing.assert_array_equal(column["p"], p)
    grid = {tuple(link): q for link, q in zip(links.tolist(), p, strict=True)}
    for row, (i, j) in enumerate(links.tolist()):
        diagonal = [grid.get((i - 1, j - 1), 0.0), grid.get((i + 1, j + 1), 0.0)]
        assert column["p_diagonal_max"][row] == max(diagonal)
        rivals = [q for (a, b), q in grid.items() if (a == i) != (b == j)]
        assert column["p_rival_max"][row] == max(rivals, default=0.0)
    assert stack_features(np.zeros((0, 2), dtype=int), np.zeros(0), n, m).shape == (0, len(STACK_FEATURES))


@given(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**32 - 1), st.booleans())
def test_ranks_and_neighbour_maxima_by_their_definitions(n: int, m: int, seed: int, ties: bool) -> None:
    """Rank: how many cells of the row (column) are greater; neighbour maximum: the best
    similarity of a neighbour of i with a neighbour of j, 0 when either has none."""
    from paralign.aligners.contextual.features import _neighbour_max, _ranks

    rng = np.random.default_rng(seed)
    sim = rng.uniform(-0.2, 1.0, (n, m))
    if ties:
        sim = np.round(sim, 1)
    adj_s, adj_t = rng.random((n, n)) < 0.3, rng.random((m, m)) < 0.3
    row_rank, col_rank = _ranks(sim)
    nb = _neighbour_max(sim, adj_s, adj_t)
    for i in range(n):
        for j in range(m):
            assert row_rank[i, j] == (sim[i] > sim[i, j]).sum()
            assert col_rank[i, j] == (sim[:, j] > sim[i, j]).sum()
            pairs = [sim[k, q] for k in np.flatnonzero(adj_s[i]) for q in np.flatnonzero(adj_t[j])]
            assert nb[i, j] == (max(pairs) if pairs else 0.0)


def test_features_of_long_sentences_take_memory_of_the_matrix_size() -> None:
    """Ranks and neighbour maxima compared every cell with its whole row (column) at once:
    n * m * max(n, m) cells, 216 MB for two 300-word sentences, 4 GB and 7 s for 800 words."""
    import tracemalloc

    from paralign.aligners.contextual.features import _neighbour_max, _ranks

    rng = np.random.default_rng(0)
    n = 300
    sim = rng.uniform(-0.2, 1.0, (n, n))
    chain = np.eye(n, k=1, dtype=bool) | np.eye(n, k=-1, dtype=bool)  # each word's neighbours in a chain
    tracemalloc.start()
    try:
        _ranks(sim)
        _neighbour_max(sim, chain, chain)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MB"
