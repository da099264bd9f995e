"""A small n-gram language model for the mean per-word entropy of lattice paths (Pang et al.
used a CMU-Cambridge trigram model trained on WSJ; we train on held-out text of the same corpus).

Smoothing: interpolated Witten-Bell. For a history h of length k (k < order):

    P(w | h) = (c(h w) + T(h) * P(w | h')) / (c(h) + T(h))

where c counts n-grams in training, T(h) is the number of distinct words seen after h, and h'
drops h's oldest word; an unseen history backs off fully to P(w | h'). The recursion ends in an
add-one unigram over the training vocabulary plus one unknown-word slot, so every word,
known or not, has a probability > 0 and each conditional distribution sums to 1. Sentences are
padded with <s> and closed with </s>; entropy is in bits per word, </s> included. A word of a
sentence spelled <s> or </s> is a word, not the marker (:func:`word_symbol`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from ..errors import ConfigurationError

BOS, EOS = "<s>", "</s>"


class NGramLM:
    """An interpolated Witten-Bell n-gram model (default trigram)."""

    def __init__(self, order: int = 3, *, lowercase: bool = True) -> None:
        if order < 1:
            raise ConfigurationError(f"n-gram order must be >= 1, got {order}")
        self.order = order
        self.lowercase = lowercase
        self.counts: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order)]
        self.context_totals: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order)]
        self.followers: list[dict[tuple[str, ...], set[str]]] = [defaultdict(set) for _ in range(order)]
        self.tokens = 0

    def fit(self, sentences: Iterable[Sequence[str]]) -> NGramLM:
        """Add the n-gram counts of tokenised sentences (can be called again to add more); return self."""
        for sentence in sentences:
            words = [*self._prep(sentence), EOS]
            padded = [BOS] * (self.order - 1) + words
            for i in range(self.order - 1, len(padded)):
                w = padded[i]
                for k in range(self.order):  # k = history length
                    h = tuple(padded[i - k : i])
                    self.counts[k][(*h, w)] += 1
                    self.context_totals[k][h] += 1
                    self.followers[k][h].add(w)
            self.tokens += len(words)
        return self

    def _prep(self, sentence: Sequence[str]) -> list[str]:
        """A sentence's words as the model counts them: lower-cased when `lowercase`, each one
        spelled as a marker made a word of its own (:func:`word_symbol`)."""
        return [word_symbol(w.lower() if self.lowercase else w) for w in sentence]

    @property
    def vocabulary_size(self) -> int:
        """Distinct words seen in training, </s> included (the unknown-word slot is not)."""
        return len(self.followers[0][()])

    def prob(self, word: str, history: Sequence[str] = ()) -> float:
        """P(word | the last order-1 words of history); <s> and </s> are the markers here (a
        sentence's word spelled so is :func:`word_symbol` of it)."""
        history = tuple(history)[-(self.order - 1) :] if self.order > 1 else ()
        if self.lowercase:
            word = word.lower() if word not in (BOS, EOS) else word
            history = tuple(h if h in (BOS, EOS) else h.lower() for h in history)
        p = (self.counts[0][(word,)] + 1) / (self.tokens + self.vocabulary_size + 1)
        for k in range(1, len(history) + 1):
            h = history[len(history) - k :]
            total = self.context_totals[k][h]
            if total == 0:
                continue
            types = len(self.followers[k][h])
            p = (self.counts[k][(*h, word)] + types * p) / (total + types)
        return p

    def entropy(self, sentence: Sequence[str]) -> float:
        """Per-word cross-entropy of a sentence in bits (</s> counted as a word)."""
        words = [*self._prep(sentence), EOS]
        history = [BOS] * (self.order - 1)
        bits = 0.0
        for w in words:
            bits -= math.log2(self.prob(w, history))
            history = [*history[1:], w] if self.order > 1 else history
        return bits / len(words)


def word_symbol(word: str) -> str:
    """How the model counts a sentence's `word`: as it is, unless it is spelled as a marker (<s>
    or </s>) after any backslashes, which gets one more in front (``\\</s>``). As the marker, a
    word </s> inside a training sentence counted as its end: the model gave a sentence "x" the
    probability of ending after x that "x </s> y" taught it, and sentences no longer summed to 1."""
    return "\\" + word if word.lstrip("\\") in (BOS, EOS) else word
