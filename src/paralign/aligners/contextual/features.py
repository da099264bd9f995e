"""Candidate links of a sentence pair and their features, for the contextual link classifier.

The contextual aligner (:mod:`.aligner`) scores every candidate link of a pair with a small
gradient-boosted model (:mod:`.linkmodel`). Candidates are the Sultan pipeline's own links (the
default and the paraphrase option sets), the contextual final pass (:func:`final_pass`), and the
`top_k` most similar words of every word in each direction. Each candidate is described by the
evidence the issue lists: its contextual similarity and how it ranks in its row and column,
which lexical module proposed it, PPDB/WordNet relation, identity, stop-word and punctuation
flags, POS agreement, relative position, sentence lengths, aligned neighbours and the contextual
similarity of its dependency and textual neighbours, the length ratio of the two sentences, the
cosine of their sentence vectors, and the similarity, ranks and margins of the link at the
encoder's lower layers (:data:`EXTRA_LAYERS`, computed on the way to the main layer).

Every feature is symmetric in the two sentences (a row rank and a column rank are given as
their minimum and maximum, never as "source" and "target"), so swapping the sentences
transposes the links and leaves their scores unchanged.

Not for: encoding (:mod:`paralign.neural`), running the lexical pipeline (:mod:`.aligner`) or
evaluating the model (:mod:`.linkmodel`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...errors import ConfigurationError, shown_value
from ..sultan.prepared import Link, Prepared

#: Module groups of the Sultan pipeline (its trace names), one indicator feature each.
MODULE_GROUPS: dict[str, str] = {
    "final_punctuation": "punct", "quotes": "punct",
    "word_sequences": "sequence", "hyphenated": "sequence", "closed_compounds": "sequence",
    "hyphen_pieces": "sequence",
    "named_entities": "entity",
    "content_dependency_v": "content_dep", "content_dependency_n": "content_dep",
    "content_dependency_j": "content_dep", "content_dependency_r": "content_dep",
    "context_only": "content_dep",
    "content_text": "content_text",
    "possessive_of": "stop_dep", "stop_dependency": "stop_dep", "determiners": "stop_dep",
    "stop_text": "stop_text", "unique_stop_words": "stop_text",
}
_GROUPS = ("punct", "sequence", "entity", "content_dep", "content_text", "stop_dep", "stop_text")
#: Encoder layers (below the main one, so free to read) whose word similarities are features.
EXTRA_LAYERS: tuple[int, ...] = (0, 1, 2)

#: The feature names, in the order of the columns of :func:`pair_features`' matrix.
FEATURES: tuple[str, ...] = (
    "sim", "sim_rank_min", "sim_rank_max", "sim_margin_min", "sim_margin_max", "mutual_best",
    "final_pass", "lex_default", "lex_paraphrase", *(f"module_{g}" for g in _GROUPS),
    "word_sim", "identical", "same_lemma", "stop_both", "stop_one", "punct_both", "punct_one",
    "same_category", "rel_position", "length_min", "length_max",
    "row_links_min", "row_links_max", "taken_elsewhere_min", "taken_elsewhere_max",
    "lex_neighbours", "dep_context_sim", "text_context_mean", "text_context_min", "text_context_max",
    "lex_diagonal", "length_ratio", "sentence_sim",
    *(f"l{layer}_{name}" for layer in EXTRA_LAYERS
      for name in ("sim", "rank_min", "rank_max", "margin_min", "margin_max", "mutual_best")),
)


@dataclass(frozen=True, slots=True)
class PairEvidence:
    """What the features of one pair are computed from.

    `sim` is the contextual cosine matrix (source words x target words); `word_sim` the lexical
    word similarity of the Sultan aligner (identical 1, related ppdbSim); `default` and
    `paraphrase` the two lexical pipelines' links with the module that made each;
    `layer_sims` the cosine matrices at :data:`EXTRA_LAYERS`, `sentence_sim` the cosine of the
    two sentence vectors."""

    s: Prepared
    t: Prepared
    sim: np.ndarray
    word_sim: Mapping[Link, float]
    default: Mapping[Link, str]
    paraphrase: Mapping[Link, str]
    layer_sims: tuple[np.ndarray, ...] = ()
    sentence_sim: float = 0.0


def final_pass(sim: np.ndarray, s: Prepared, t: Prepared, taken: Mapping[Link, str] | set[Link],
               threshold: float) -> set[Link]:
    """Links between content words that `taken` leaves unaligned in both sentences, where each is
    the other's best match among those words (ties count as best) with similarity >= threshold.

    Symmetric by construction: on the transposed matrix and swapped sentences it gives the
    transposed links."""
    used_s = {i for i, _ in taken}
    used_t = {j for _, j in taken}
    rows = [i for i in range(s.n) if s.content[i] and i not in used_s]
    cols = [j for j in range(t.n) if t.content[j] and j not in used_t]
    if not rows or not cols:
        return set()
    block = sim[np.ix_(rows, cols)]
    best = (block >= block.max(axis=1, keepdims=True)) & (block >= block.max(axis=0, keepdims=True))
    best &= block >= threshold
    return {(rows[a], cols[b]) for a, b in zip(*np.nonzero(best), strict=True)}


def check_top_k(value: object) -> int:
    """`value` as the link model's `top_k` setting (most similar words of each word taken as
    candidates): a positive int, else a ConfigurationError naming the setting. A negative one
    sliced candidates off the end (``[:, :-1]``: all but the least similar word) and 0 took
    none, silently, and the classifier saw other candidates than it was fitted on."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigurationError(f"the link model's top_k setting must be a positive int, not {shown_value(value)}")
    return value


def candidates(evidence: PairEvidence, top_k: int, extra: set[Link]) -> list[Link]:
    """The links worth scoring: both lexical pipelines' links, `extra` (the final pass) and the
    `top_k` most similar words of every word, in both directions; sorted. `top_k` is a positive
    int (:func:`check_top_k`)."""
    check_top_k(top_k)
    sim = evidence.sim
    found: set[Link] = set(evidence.default) | set(evidence.paraphrase) | extra
    k_row = min(top_k, sim.shape[1])
    k_col = min(top_k, sim.shape[0])
    rows = np.argsort(-sim, axis=1, kind="stable")[:, :k_row]
    cols = np.argsort(-sim, axis=0, kind="stable")[:k_col, :]
    found.update((i, int(j)) for i in range(sim.shape[0]) for j in rows[i])
    found.update((int(i), j) for j in range(sim.shape[1]) for i in cols[:, j])
    return sorted(found)


def _adjacency(p: Prepared) -> np.ndarray:
    """Each token's dependency neighbours (parents and children, basic dependencies), as a
    boolean matrix."""
    out = np.zeros((p.n, p.n), dtype=bool)
    for i in range(p.n):
        for k, _ in p.basic_parents[i]:
            out[i, k] = True
        for k, _ in p.basic_children[i]:
            out[i, k] = True
    return out


def _link_matrix(links: Mapping[Link, object] | set[Link], shape: tuple[int, int]) -> np.ndarray:
    out = np.zeros(shape, dtype=bool)
    for i, j in links:
        out[i, j] = True
    return out


#: Cells of the three-dimensional arrays that :func:`_neighbour_max` builds at once: more rows
#: are done in turns. Whole, they took n * m * max(n, m) cells of 8 bytes: 4 GB and 7 s for two
#: 800-word sentences; a pair of 40-word sentences is still one turn.
_BLOCK = 1 << 21


def _row_blocks(rows: int, cells_per_row: int) -> list[slice]:
    """Slices of `rows` rows, each holding at most :data:`_BLOCK` cells (at least one row)."""
    step = max(1, _BLOCK // max(1, cells_per_row))
    return [slice(start, start + step) for start in range(0, rows, step)]


def _neighbour_max(sim: np.ndarray, adj_s: np.ndarray, adj_t: np.ndarray) -> np.ndarray:
    """[i, j]: the highest similarity between a neighbour of i and a neighbour of j (0 if none)."""
    n, m = sim.shape
    by_source = np.empty((n, m))
    for rows in _row_blocks(n, n * m):
        by_source[rows] = np.where(adj_s[rows, :, None], sim[None, :, :], -np.inf).max(axis=1)
    both = np.empty((n, m))
    for rows in _row_blocks(n, m * m):
        both[rows] = np.where(adj_t[None, :, :], by_source[rows, None, :], -np.inf).max(axis=2)
    return np.where(np.isfinite(both), both, 0.0)


def _shifted(matrix: np.ndarray, step: int) -> np.ndarray:
    """[i, j] = matrix[i + step, j + step], 0 outside."""
    out = np.zeros(matrix.shape, dtype=np.float64)
    n, m = matrix.shape
    if step > 0:
        out[: n - step, : m - step] = matrix[step:, step:]
    else:
        out[-step:, -step:] = matrix[: n + step, : m + step]
    return out


def _ranks(sim: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank (0 = best) of every cell in its row and in its column, ties sharing the better rank:
    how many cells of its row (column) are greater, read from the row sorted (comparing every
    pair of cells of a row took n * m * m bytes, four times per pair: 1 GB for two 1,000-word
    sentences)."""
    def row_ranks(matrix: np.ndarray) -> np.ndarray:
        order = np.argsort(-matrix, axis=1, kind="stable")  # best first, ties side by side
        ordered = np.take_along_axis(matrix, order, axis=1)
        starts = np.zeros(matrix.shape, dtype=np.int64)  # where each cell's run of equal values starts
        starts[:, 1:] = np.where(ordered[:, 1:] != ordered[:, :-1], np.arange(1, matrix.shape[1]), 0)
        out = np.empty(matrix.shape, dtype=np.int64)
        np.put_along_axis(out, order, np.maximum.accumulate(starts, axis=1), axis=1)
        return out

    return row_ranks(sim), row_ranks(sim.T).T


def _rank_columns(sim: np.ndarray, li: np.ndarray, lj: np.ndarray) -> list[np.ndarray]:
    """The link's similarity, its rank and margin in its row and column (min and max, so
    symmetric) and whether it is best both ways."""
    row_rank, col_rank = _ranks(sim)
    ranks = np.stack([row_rank[li, lj], col_rank[li, lj]])
    value = sim[li, lj]
    margins = np.stack([value - sim.max(axis=1)[li], value - sim.max(axis=0)[lj]])
    return [value, ranks.min(axis=0), ranks.max(axis=0), margins.min(axis=0), margins.max(axis=0),
            (ranks == 0).all(axis=0)]


def pair_features(evidence: PairEvidence, links: list[Link], final: set[Link]) -> np.ndarray:  # long: one column per feature, in FEATURES order
    """The feature matrix of `links` (one row each, columns in :data:`FEATURES` order),
    computed for whole matrices at once and read at the links."""
    s, t, sim = evidence.s, evidence.t, evidence.sim
    n, m = sim.shape
    if not links:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    if len(evidence.layer_sims) != len(EXTRA_LAYERS):
        raise ValueError(f"{len(EXTRA_LAYERS)} extra-layer similarity matrices needed, "
                         f"got {len(evidence.layer_sims)}")
    li = np.array([i for i, _ in links])
    lj = np.array([j for _, j in links])
    default = _link_matrix(evidence.default, (n, m))
    paraphrase = _link_matrix(evidence.paraphrase, (n, m))
    group = np.full((n, m), "", dtype=object)
    for links_of in (evidence.paraphrase, evidence.default):  # the default pipeline's module wins
        for (i, j), module in links_of.items():
            group[i, j] = MODULE_GROUPS.get(module, "")
    group = group[li, lj]
    word_sim = np.array([evidence.word_sim.get(link, 0.0) for link in links])
    lower_s, lower_t = np.array(s.lower, dtype=object), np.array(t.lower, dtype=object)
    lemma_s = np.array([f.lower for f in s.lemma_forms], dtype=object)
    lemma_t = np.array([f.lower for f in t.lemma_forms], dtype=object)
    stops = np.stack([np.array(s.stopish)[li], np.array(t.stopish)[lj]])
    puncts = np.stack([np.array(s.punct)[li], np.array(t.punct)[lj]])
    cat_s, cat_t = np.array(s.cat, dtype=object)[li], np.array(t.cat, dtype=object)[lj]
    row_links = np.stack([default.sum(axis=1)[li], default.sum(axis=0)[lj]])
    in_default = default[li, lj]
    adj_s, adj_t = _adjacency(s), _adjacency(t)
    lex_nb = (adj_s.astype(np.int64) @ default.astype(np.int64) @ adj_t.T.astype(np.int64))[li, lj]
    prev_sim, next_sim = _shifted(sim, -1)[li, lj], _shifted(sim, 1)[li, lj]
    diagonal = _shifted(default, -1)[li, lj] + _shifted(default, 1)[li, lj]
    columns = [
        *_rank_columns(sim, li, lj), _link_matrix(final, (n, m))[li, lj], in_default,
        paraphrase[li, lj], *(group == g for g in _GROUPS),
        word_sim, lower_s[li] == lower_t[lj], lemma_s[li] == lemma_t[lj],
        stops.all(axis=0), stops.any(axis=0) & ~stops.all(axis=0),
        puncts.all(axis=0), puncts.any(axis=0) & ~puncts.all(axis=0),
        (cat_s != "") & (cat_s == cat_t), np.abs(li / n - lj / m),
        np.full(len(links), min(n, m)), np.full(len(links), max(n, m)),
        row_links.min(axis=0), row_links.max(axis=0),
        (row_links - in_default > 0).min(axis=0), (row_links - in_default > 0).max(axis=0),
        lex_nb, _neighbour_max(sim, adj_s, adj_t)[li, lj], (prev_sim + next_sim) / 2,
        np.minimum(prev_sim, next_sim), np.maximum(prev_sim, next_sim), diagonal,
        np.full(len(links), min(n, m) / max(n, m)), np.full(len(links), evidence.sentence_sim),
        *(column for layer_sim in evidence.layer_sims for column in _rank_columns(layer_sim, li, lj)),
    ]
    return np.stack([np.asarray(c, dtype=np.float64) for c in columns], axis=1).astype(np.float32)


#: The second round's extra columns (:func:`stack_features`), after the :data:`FEATURES` columns:
#: the first round's probability of the link and of the links around it.
STACK_FEATURES: tuple[str, ...] = (
    "p", "p_diagonal_min", "p_diagonal_max", "p_adjacent_max", "p_rival_min", "p_rival_max",
    "p_rank_min", "p_rank_max", "p_kept_min", "p_kept_max", "p_antidiagonal_max",
)


def stack_features(links: np.ndarray, p: np.ndarray, n: int, m: int) -> np.ndarray:
    """The second round's features of a pair's candidate `links` (rows of (i, j)), from the first
    round's probabilities `p` (non-candidates count as 0), columns in :data:`STACK_FEATURES`
    order: the link's own probability; those of its diagonal neighbours (i-1, j-1) and
    (i+1, j+1) (min, max), of the four links sharing a word with it and next to it (phrase links),
    of the anti-diagonal neighbours; the best rival probability in its row and column, its rank
    there, and how many other links of its row and column reach 0.5 (min and max: symmetric in
    the two sentences, as :func:`pair_features` is)."""
    if len(links) == 0:
        return np.zeros((0, len(STACK_FEATURES)))
    i, j = links[:, 0], links[:, 1]
    grid = np.zeros((n + 2, m + 2))
    grid[i + 1, j + 1] = p
    prev, nxt = grid[i, j], grid[i + 2, j + 2]
    adjacent = np.max(np.stack([grid[i, j + 1], grid[i + 2, j + 1], grid[i + 1, j], grid[i + 1, j + 2]]), axis=0)
    anti = np.maximum(grid[i, j + 2], grid[i + 2, j])
    core = grid[1:-1, 1:-1]
    by_row, by_col = -np.sort(-core, axis=1), -np.sort(-core, axis=0)
    row_2nd = by_row[:, 1] if m > 1 else np.zeros(n)
    col_2nd = by_col[1, :] if n > 1 else np.zeros(m)
    row_rival = np.where(p >= by_row[i, 0], row_2nd[i], by_row[i, 0])
    col_rival = np.where(p >= by_col[0, j], col_2nd[j], by_col[0, j])
    row_rank = (core[i, :] > p[:, None]).sum(axis=1)
    col_rank = (core[:, j] > p[None, :]).sum(axis=0)
    kept = core >= 0.5
    row_kept = kept.sum(axis=1)[i] - (p >= 0.5)
    col_kept = kept.sum(axis=0)[j] - (p >= 0.5)
    return np.stack([
        p, np.minimum(prev, nxt), np.maximum(prev, nxt), adjacent,
        np.minimum(row_rival, col_rival), np.maximum(row_rival, col_rival),
        np.minimum(row_rank, col_rank), np.maximum(row_rank, col_rank),
        np.minimum(row_kept, col_kept), np.maximum(row_kept, col_kept), anti,
    ], axis=1)


def with_stack_features(x: np.ndarray, links: np.ndarray, groups: np.ndarray,
                        shapes: list[tuple[int, int]], first: np.ndarray) -> np.ndarray:
    """The second round's input for the candidates of many pairs: `x` (the :data:`FEATURES`
    rows) with the :func:`stack_features` columns beside it, from the first round's
    probabilities `first`. `links`: each row's (i, j); `groups`: each row's pair number
    (ascending, rows of a pair together); `shapes`: each pair's sentence lengths (n, m)."""
    bounds = np.searchsorted(groups, np.arange(len(shapes) + 1))
    extra = np.zeros((len(first), len(STACK_FEATURES)))
    for k, (n, m) in enumerate(shapes):
        a, b = bounds[k], bounds[k + 1]
        extra[a:b] = stack_features(links[a:b], first[a:b], n, m)
    return np.concatenate([x, extra], axis=1)
