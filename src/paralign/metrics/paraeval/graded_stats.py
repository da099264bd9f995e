"""The graded configs' statistics row and the score computed from it.

A segment's statistics are a row of :data:`COLUMNS` holding *unweighted* graded sums per tier
(content and function words, hypothesis and reference side), the chunk count and the matched
words of each side; :func:`score_parts` applies a config's weights, delta, alpha, beta and gamma to rows (one
segment's, or a corpus's summed), so a parameter search aligns once (sacrebleu's model).

Not for: matching words (:mod:`.graded`) or the paper scorer's counts (:mod:`.paper`).
"""

from __future__ import annotations

import numpy as np

from .configs import TIER_ORDER, Config

LENGTH_COLUMNS = ("hyp_content", "hyp_function", "ref_content", "ref_function")
SIDES = ("hc", "hf", "rc", "rf")
#: Columns of a segment's statistics row.
COLUMNS: tuple[str, ...] = (LENGTH_COLUMNS + tuple(f"{t}_{s}" for t in TIER_ORDER for s in SIDES)
                            + ("chunks", "matches", "ref_matches"))
_TIER: dict[str, int] = {t: k for k, t in enumerate(TIER_ORDER)}  # a config's tiers are str (checked names)
_CHUNKS, _MATCHES, _REF_MATCHES = len(COLUMNS) - 3, len(COLUMNS) - 2, len(COLUMNS) - 1


def score_parts(sums: np.ndarray, config: Config, level: str = "segment") -> dict[str, np.ndarray]:
    """Precision, recall, F (harmonic), Fmean and the score from statistics rows (last axis),
    with the config's alpha, beta and gamma of that `level` (segment or system).

    The fragmentation is chunks / matched hypothesis words, except where every word of both
    sides is matched in one chunk: there it is 0, so a hypothesis equal to its reference has no
    penalty (METEOR's scorer has the same case; without it ``gamma m ** -beta`` stays, 0.42 for
    six words under the default config's segment parameters).

    Without a reference word (a blank reference: every reference of the segment blank, or of
    every segment for corpus sums) recall is undefined, and so are F, Fmean and the score: NaN,
    as the paper scorer's recall and F are n/a there (None in JSON, ``n/a`` in text). They were
    0, a score of a hypothesis against nothing, which read as a translation that matched
    nothing. The precision of an empty hypothesis stays 0 (every config's rule)."""
    sums = np.asarray(sums, dtype=np.float64)
    alpha, beta, gamma, d = config.level(level)

    def side(offset: int) -> tuple[np.ndarray, np.ndarray]:
        length = d * sums[..., offset] + (1 - d) * sums[..., offset + 1]
        matched = np.zeros(sums.shape[:-1])
        for tier in config.tiers:
            base = 4 + 4 * _TIER[tier] + offset
            matched = matched + config.weight(tier) * (d * sums[..., base] + (1 - d) * sums[..., base + 1])
        return matched, length

    with np.errstate(divide="ignore", invalid="ignore"):
        mh, lh = side(0)
        mr, lr = side(2)
        p = np.where(lh > 0, mh / np.where(lh > 0, lh, 1), 0.0)
        undefined = ~(lr > 0)  # no reference word: recall, F and Fmean are NaN
        r = np.where(undefined, np.nan, mr / np.where(undefined, 1, lr))
        f = np.where(undefined, np.nan, np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0))
        denom = alpha * p + (1 - alpha) * r
        fmean = np.where(undefined, np.nan, np.where(denom > 0, p * r / np.where(denom > 0, denom, 1), 0.0))
        matches = sums[..., _MATCHES]
        chunks = sums[..., _CHUNKS]
        whole = ((chunks == 1) & (matches == sums[..., 0] + sums[..., 1])
                 & (sums[..., _REF_MATCHES] == sums[..., 2] + sums[..., 3]))
        frag = np.where((matches > 0) & ~whole, chunks / np.where(matches > 0, matches, 1), 0.0)
        penalty = gamma * frag ** beta
    return {"p": p, "r": r, "f": f, "fmean": fmean, "penalty": penalty, "score": fmean * (1 - penalty)}


def best_of(rows: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Per segment, the reference its row is taken from: `rows` (references, segments, columns)
    and their segment `scores` (references, segments). The best score; of references that tie
    on it, the one of fewest words (as sacrebleu's BLEU takes the shorter of two reference
    lengths equally close), then the row with more matched weight in the earlier tiers (the
    columns in order), then the one of fewer content words (the lighter of two equally long), so
    the choice never depends on the order the references come in (only identical rows are left
    to it).

    Why: the first of the tied references was taken, so ``-r A -r B`` and ``-r B -r A`` gave
    other corpus scores (an empty hypothesis's row held the first reference's length; two rows
    of one score but other tiers summed otherwise).

    An undefined score (NaN: a blank reference, :func:`score_parts`) is below every number, so
    a reference with words is taken over a blank one (a blank reference tied on 0 with another
    was taken as the shorter, and the segment escaped the other's recall)."""
    scores = np.where(np.isnan(scores), -np.inf, scores)
    best = scores.argmax(axis=0)
    top = scores.max(axis=0)
    for i in np.flatnonzero((scores == top).sum(axis=0) > 1):
        tied = np.flatnonzero(scores[:, i] == top[i])
        best[i] = max(tied, key=lambda k: (-(rows[k, i, 2] + rows[k, i, 3]), *rows[k, i, 4:], -rows[k, i, 2]))
    return best
