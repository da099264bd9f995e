"""BLEU, chrF and the paper's incremental BLEU steps (MUP, GM, GM x BP) from segment statistics.

ParaEval section 6 rebuilds BLEU in three steps: modified unigram precision (MUP), the geometric
mean of the modified 1..4-gram precisions (GM), and GM times the brevity penalty (GM x BP, which
is BLEU without smoothing). Everything here starts from sacrebleu's per-segment statistics (13a
tokens, clipping by the maximum count in a single reference, closest reference length), so the
steps and sacrebleu's BLEU share one n-gram count. Corpus scores are functions of *summed*
segment statistics, vectorised over leading axes, which is what the bootstrap needs.

Every metric is a `SegmentMetric`: `stats(hyps, refs) -> (segments, k) array` and
`score(sums) -> scores` on the last axis (scores on sacrebleu's 0-100 scale for BLEU/chrF,
0-1 for MUP/GM/GM x BP and ParaEval). A metric whose segment scores are not its corpus formula
applied to one segment also has `segment_score(stats)`: BLEU's is sentence BLEU as
``sacrebleu.sentence_bleu`` computes it (effective order, 'exp' smoothing).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..errors import ConfigurationError, InputTypeError, MismatchError, check_texts

if TYPE_CHECKING:
    from sacrebleu.metrics.base import Metric

MAX_ORDER = 4


class SegmentMetric(Protocol):
    """A corpus metric computable from summed per-segment sufficient statistics."""

    @property
    def name(self) -> str:
        """The metric's name (read only: the metrics here are frozen values)."""
        ...

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        """(segments, k) statistics; references[k][i] is the k-th reference of segment i."""
        ...

    def score(self, sums: np.ndarray) -> np.ndarray:
        """Corpus score(s) from statistics summed over segments (last axis = k)."""
        ...


def check_lengths(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    """Raise MismatchError unless every reference stream has as many segments as the hypotheses;
    InputTypeError for one str where a list is expected (its characters would be the segments,
    as the ParaEval scorers' checks say) or an item that is not a str."""
    check_texts(hypotheses, "hypotheses (one str per segment)")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputTypeError("references must be a list of reference streams (lists of str, one str per "
                             f"segment), not {type(references).__name__}")
    if any(isinstance(stream, str) for stream in references):
        raise InputTypeError("references must be a list of reference streams, each a list of str (one per "
                             "segment), not a list of str: wrap one stream as [refs]")
    if not references:
        raise MismatchError("at least one reference stream is needed")
    for k, stream in enumerate(references):
        check_texts(stream, f"reference stream {k + 1}")
        if len(stream) != len(hypotheses):
            raise MismatchError(
                f"reference stream {k + 1} has {len(stream)} segments but the hypothesis has "
                f"{len(hypotheses)}")


@functools.lru_cache(maxsize=4)
def _prepared(kind: str, references: tuple[tuple[str, ...], ...]) -> Metric:
    """sacrebleu's `kind` metric (bleu, chrf, ter; default settings) with `references` read once
    (tokenised, n-grams counted), as its ``references=`` does: the systems scored against them
    after reuse that (reading them for each system was most of the time of BLEU's statistics of
    19 WMT21 de-en systems against refs A and B: 10.5 s, 2.0 s read once); the same statistics."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    makers: dict[str, Callable[..., Metric]] = {"bleu": BLEU, "chrf": CHRF, "ter": TER}
    return makers[kind](references=[list(stream) for stream in references])


def sacrebleu_statistics(kind: str, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> list:
    """sacrebleu's per-segment statistics of metric `kind` (bleu, chrf, ter), the references read
    once however many systems are scored against them (:func:`_prepared`)."""
    check_lengths(hypotheses, references)
    metric = _prepared(kind, tuple(tuple(stream) for stream in references))
    return metric._extract_corpus_statistics(list(hypotheses), None)


def bleu_statistics(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
    """sacrebleu's BLEU statistics: [sys_len, ref_len, correct_1..4, total_1..4] per segment."""
    stats = sacrebleu_statistics("bleu", hypotheses, references)
    return np.asarray(stats, dtype=np.float64).reshape(len(hypotheses), 2 + 2 * MAX_ORDER)


def _precisions(sums: np.ndarray) -> np.ndarray:
    correct = sums[..., 2:2 + MAX_ORDER]
    total = sums[..., 2 + MAX_ORDER:]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, correct / np.where(total > 0, total, 1), 0.0)


def brevity_penalty(sums: np.ndarray) -> np.ndarray:
    """exp(1 - r/c) when c <= r, else 1 (0 for an empty hypothesis)."""
    c, r = sums[..., 0], sums[..., 1]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = np.where(c < r, np.exp(1 - r / np.where(c > 0, c, 1)), 1.0)
    return np.where(c > 0, bp, 0.0)


def modified_unigram_precision(sums: np.ndarray) -> np.ndarray:
    """MUP: clipped unigram matches / hypothesis unigrams."""
    return _precisions(sums)[..., 0]


def geometric_mean(sums: np.ndarray) -> np.ndarray:
    """GM: geometric mean of the modified 1..4-gram precisions (0 when one of them is 0)."""
    p = _precisions(sums)
    with np.errstate(divide="ignore"):
        logs = np.where(p > 0, np.log(np.where(p > 0, p, 1)), -np.inf)
    return np.exp(logs.mean(axis=-1))


def _bleu(sums: np.ndarray, effective_order: bool) -> np.ndarray:
    """sacrebleu's BLEU ('exp' smoothing) from BLEU statistics on the last axis, 0-100; with
    `effective_order` only the n-gram orders the hypothesis has count (sentence BLEU)."""
    sums = np.asarray(sums, dtype=np.float64)
    correct = sums[..., 2:2 + MAX_ORDER]
    total = sums[..., 2 + MAX_ORDER:]
    # 'exp' smoothing: the k-th zero-match order gets precision 1 / (2**k * total)
    zero = (correct == 0) & (total > 0)
    k = np.cumsum(zero, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(zero, 100.0 / (2.0 ** k * np.where(total > 0, total, 1)),
                     100.0 * correct / np.where(total > 0, total, 1))
        logs = np.where(total > 0, np.log(np.where(p > 0, p, 1)),
                        0.0 if effective_order else -np.inf)
    if effective_order:
        mean = logs.sum(axis=-1) / np.maximum((total > 0).sum(axis=-1), 1)
    else:
        mean = logs.mean(axis=-1)
    score = brevity_penalty(sums) * np.exp(mean)
    return np.where((sums[..., 0] > 0) & (correct.sum(axis=-1) > 0), score, 0.0)


def bleu_from_stats(sums: np.ndarray) -> np.ndarray:
    """sacrebleu's corpus BLEU (default 'exp' smoothing) vectorised over leading axes, 0-100."""
    return _bleu(sums, effective_order=False)


def sentence_bleu_from_stats(stats: np.ndarray) -> np.ndarray:
    """``sacrebleu.sentence_bleu`` (``BLEU(effective_order=True)``: only the n-gram orders the
    hypothesis has count) of each row of per-segment statistics, 0-100."""
    return _bleu(stats, effective_order=True)


@dataclass(frozen=True, slots=True)
class _BleuFamily:
    """A metric reading sacrebleu's BLEU statistics."""

    name: str

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        return bleu_statistics(hypotheses, references)

    def score(self, sums: np.ndarray) -> np.ndarray:
        return _BLEU_SCORERS[self.name](np.asarray(sums, dtype=np.float64))

    def segment_score(self, stats: np.ndarray) -> np.ndarray:
        """Segment scores: sentence BLEU (effective order) for bleu, else the corpus formula."""
        if self.name == "bleu":
            return sentence_bleu_from_stats(stats)
        return self.score(stats)


_BLEU_SCORERS = {
    "bleu": bleu_from_stats,
    "mup": modified_unigram_precision,
    "gm": geometric_mean,
    "gm_bp": lambda s: geometric_mean(s) * brevity_penalty(s),
}


@dataclass(frozen=True, slots=True)
class ChrF:
    """sacrebleu's chrF (char order 6, beta 2); multi-reference picks the best reference per segment."""

    name: str = "chrf"

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        stats = sacrebleu_statistics("chrf", hypotheses, references)
        return np.asarray(stats, dtype=np.float64).reshape(len(hypotheses), -1)

    def score(self, sums: np.ndarray) -> np.ndarray:
        """sacrebleu 2.x `_compute_f_score` (effective-order averaging), vectorised, 0-100."""
        sums = np.asarray(sums, dtype=np.float64)
        triples = sums.reshape(*sums.shape[:-1], -1, 3)
        n_hyp, n_ref, n_match = triples[..., 0], triples[..., 1], triples[..., 2]
        valid = (n_hyp > 0) & (n_ref > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            prec = np.where(valid, n_match / np.where(n_hyp > 0, n_hyp, 1), 0.0)
            rec = np.where(valid, n_match / np.where(n_ref > 0, n_ref, 1), 0.0)
        count = valid.sum(axis=-1)
        avg_p = np.where(count > 0, prec.sum(axis=-1) / np.maximum(count, 1), 0.0)
        avg_r = np.where(count > 0, rec.sum(axis=-1) / np.maximum(count, 1), 0.0)
        factor = 4.0  # beta ** 2
        denom = factor * avg_p + avg_r
        with np.errstate(divide="ignore", invalid="ignore"):
            f = np.where(denom > 0, (1 + factor) * avg_p * avg_r / np.where(denom > 0, denom, 1),
                         0.0)
        return 100.0 * f


@dataclass(frozen=True, slots=True)
class Ter:
    """sacrebleu's TER (default settings), *negated* so that higher is better like every other
    metric here (WMT reports TER's correlations with the sign flipped the same way): the corpus
    score is -100 x summed edits / summed reference length, a segment's the same on its row
    (``-sacrebleu TER().sentence_score``). Statistics: [edits, reference length] per segment."""

    name: str = "ter"

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        stats = sacrebleu_statistics("ter", hypotheses, references)
        return np.asarray(stats, dtype=np.float64).reshape(len(hypotheses), 2)

    def score(self, sums: np.ndarray) -> np.ndarray:
        """-TER from [edits, reference length] on the last axis (sacrebleu: 100 when both are 0,
        edits x 100 when the reference is empty)."""
        sums = np.asarray(sums, dtype=np.float64)
        edits, length = sums[..., 0], sums[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            ter = np.where(length > 0, edits / np.where(length > 0, length, 1),
                           np.where(edits > 0, 1.0, 0.0))
        return -100.0 * ter


BASELINES: Mapping[str, SegmentMetric] = {
    "bleu": _BleuFamily("bleu"),
    "chrf": ChrF(),
    "ter": Ter(),
    "mup": _BleuFamily("mup"),
    "gm": _BleuFamily("gm"),
    "gm_bp": _BleuFamily("gm_bp"),
}


def baseline(name: str) -> SegmentMetric:
    """One of `BASELINES` by name."""
    try:
        return BASELINES[name]
    except KeyError:
        raise ConfigurationError(
            f"unknown metric {name!r}; choose from {', '.join(BASELINES)}") from None

