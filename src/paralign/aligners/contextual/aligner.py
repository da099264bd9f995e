"""The contextual aligner: the Sultan pipeline with contextual evidence and a per-link confidence.

:class:`ContextualAligner` (the ``contextual`` preset) annotates like the Sultan aligner, encodes
every sentence once with a contextual encoder (:class:`paralign.neural.Encoder`, batched, only
the layers it uses), and then, per pair:

1. runs the lexical pipeline twice on the same prepared sentences (the default and the
   paraphrase option sets), keeping which module made each link;
2. adds the contextual final pass: content words both pipelines left unaligned, linked when each
   is the other's best contextual match above a threshold (:func:`.features.final_pass`);
3. scores every candidate link (those links plus each word's top-k contextual matches in both
   directions) with a gradient-boosted link classifier whose features put the contextual
   similarity beside the lexical evidence: graded word similarity beside identity and PPDB, the
   contextual similarity of dependency and textual neighbours beside the pipeline's own context
   evidence (:mod:`.features`, :mod:`.linkmodel`);
   and, when the model has a second round, scores them again with the first round's
   probabilities of each link and of its neighbours beside the features (aligned neighbours,
   phrase links, rivals in its row and column: :func:`.features.stack_features`);
4. keeps the links whose probability reaches the model's threshold, each with that probability
   as its confidence (``Alignment.confidence``).

The aligner loads its models once and is meant to be reused: ``Aligner("contextual")`` in
:mod:`paralign`, ``align_many`` for batches.

Not for: the lexical modules (:mod:`paralign.aligners.sultan`), encoding (:mod:`paralign.neural`)
or fitting the classifier (``scripts/train_link_model.py``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from numbers import Real
from pathlib import Path
from typing import Any

import numpy as np

from ...alignment import Alignment, is_blank
from ...errors import ConfigurationError, check_count, check_pairs, shown_value
from ...nlp import TextOrTokens, check_sentence_pairs, check_text_or_tokens
from ...sentence import Sentence, check_sentence
from ...workers import Progress, in_steps, iter_chunk_results, stop_batch
from ..sultan import PARAPHRASE_OPTIONS
from ..sultan import Aligner as SultanAligner
from ..sultan.modules import ModulePipeline
from ..sultan.prepared import Link
from .features import EXTRA_LAYERS, PairEvidence, candidates, check_top_k, final_pass, pair_features
from .linkmodel import LinkModel


class ContextualAligner:
    """The ``contextual`` preset: lexical pipeline + contextual evidence + link classifier.

    `encoder`: a model package name or a local Hugging Face model directory (default: the
    `PARALIGN_ENCODER` setting); `device`: auto, cpu, cuda or cuda:N (the encoder's: a GPU torch
    does not see is a ConfigurationError when it loads). `model`: a link-model JSON file
    (default: the one shipped with paralign). `lexical`: the Sultan aligner whose pipeline and
    annotation it uses (default options). `min_confidence`: keep only links at least this
    confident (default: the model's own threshold, chosen on training data): a number in [0, 1]
    (True was 1.0, which kept no link, silently). `batch_size`: sentences encoded at once, a
    whole number >= 1 (2.5 failed at the first batch, inside the encoder).
    """

    def __init__(
        self,
        encoder: str | os.PathLike[str] | None = None,
        *,
        device: str = "auto",
        model: LinkModel | str | Path | None = None,
        lexical: SultanAligner | None = None,
        min_confidence: float | None = None,
        batch_size: int = 64,
    ) -> None:
        from ...neural import Encoder

        self.model = model if isinstance(model, LinkModel) else LinkModel.load(model)
        if min_confidence is not None and (isinstance(min_confidence, bool) or not isinstance(min_confidence, Real)
                                           or not 0.0 <= min_confidence <= 1.0):
            raise ConfigurationError(f"min_confidence must be a number in [0, 1], got {shown_value(min_confidence)}")
        batch_size = check_count(batch_size, "batch_size")
        self.min_confidence = self.model.threshold if min_confidence is None else min_confidence
        self.lexical = lexical or SultanAligner()
        self._paraphrase = replace(self.lexical.config, **PARAPHRASE_OPTIONS)
        layer = int(self.model.settings.get("layer", 3))
        self.encoder = Encoder(encoder, device=device, word_layer=layer, sentence_layer=layer,
                               batch_size=batch_size, extra_word_layers=EXTRA_LAYERS)
        self.top_k = check_top_k(self.model.settings.get("top_k", 3))
        self.final_threshold = float(self.model.settings.get("final_threshold", 0.5))
        self._last_encoded = _LastEncoded()  # shared by the with_params copies

    def __repr__(self) -> str:
        """The settings that differ from the defaults, as ``Aligner()`` shows its own:
        ``ContextualAligner()``, ``ContextualAligner(device='cpu', min_confidence=0.9)``
        (loads nothing)."""
        parts = [] if self.encoder.model is None else [repr(str(self.encoder.model))]
        if self.encoder.requested_device != "auto":
            parts.append(f"device={self.encoder.requested_device!r}")
        if self.min_confidence != self.model.threshold:
            parts.append(f"min_confidence={self.min_confidence!r}")
        if self.encoder.batch_size != 64:
            parts.append(f"batch_size={self.encoder.batch_size!r}")
        if repr(self.lexical) != "Aligner()":
            parts.append(f"lexical={self.lexical!r}")
        return f"ContextualAligner({', '.join(parts)})"

    # -- what the evaluators and batch runners use ---------------------------------------------
    @property
    def related(self) -> Any:
        """The lexical word-similarity source; asking for it also loads the encoder, so callers
        that warm an aligner up before timing or forking (the evaluators do) load both."""
        self.encoder.dim  # noqa: B018 - loads the model
        return self.lexical.related

    @property
    def config(self) -> Any:
        """The lexical pipeline's options."""
        return self.lexical.config

    def with_params(self, **changes: Any) -> ContextualAligner:
        """A copy whose lexical pipeline has some options changed (the encoder and model shared)."""
        clone = ContextualAligner.__new__(ContextualAligner)
        clone.__dict__.update(self.__dict__)
        clone.lexical = self.lexical.with_params(**changes)
        clone._paraphrase = replace(clone.lexical.config, **PARAPHRASE_OPTIONS)
        return clone

    def annotate(self, items: Iterable[TextOrTokens], workers: int = 1,
                 progress: Progress | None = None) -> list[Sentence]:
        """Annotate texts or token lists (kept exactly), as the Sultan aligner does (``progress``
        likewise)."""
        return self.lexical.annotate(items, workers=workers, progress=progress)

    # -- public API ------------------------------------------------------------------------------
    def align(self, source: TextOrTokens | Sentence, target: TextOrTokens | Sentence) -> Alignment:
        """Align two texts, token lists or annotated Sentences; links carry a confidence."""
        check_text_or_tokens(source, "source")
        check_text_or_tokens(target, "target")
        return self.align_many([(source, target)])[0]

    def align_sentences(self, source: Sentence, target: Sentence) -> Alignment:
        """Align two annotated sentences (the registry's alignment-function form; InputTypeError
        for a text: :meth:`align` takes those)."""
        check_sentence(source, "source")
        check_sentence(target, "target")
        return self.align_annotated([(source, target)])[0]

    def __call__(self, source: TextOrTokens | Sentence, target: TextOrTokens | Sentence) -> Alignment:
        """The aligner as an alignment function: two annotated Sentences (as the batches pass
        them) or texts and token lists (:meth:`align`), as the Sultan ``Aligner`` takes them."""
        if isinstance(source, Sentence) and isinstance(target, Sentence):
            return self.align_sentences(source, target)
        return self.align(source, target)

    def align_many(
        self, pairs: Iterable[tuple[TextOrTokens | Sentence, TextOrTokens | Sentence]],
        workers: int = 1, progress: Progress | None = None,
    ) -> list[Alignment]:
        """Align many pairs: one annotation pass, one batched encoding pass, then the pipeline
        and the classifier (``workers`` processes). A pair with an empty or white-space-only
        sentence aligns to the empty alignment (nothing to align), as in every aligner of the
        registry; an item that is not a (source, target) pair, or a value that is not a
        sentence, is an InputTypeError (before any model loads)."""
        pairs = check_pairs(pairs)
        check_sentence_pairs(pairs)
        todo = [x.tokens if isinstance(x, Sentence) else x for pair in pairs for x in pair]
        given = {k: x for k, x in enumerate(x for pair in pairs for x in pair) if isinstance(x, Sentence)}
        sentences = self.annotate([x for k, x in enumerate(todo) if k not in given], workers=workers)
        it = iter(sentences)
        flat = [given[k] if k in given else next(it) for k in range(len(todo))]
        annotated = list(zip(flat[0::2], flat[1::2], strict=True))
        return self.align_annotated(annotated, workers=workers, progress=progress)

    def align_annotated(
        self, pairs: Sequence[tuple[Sentence, Sentence]], workers: int = 1,
        progress: Progress | None = None,
    ) -> list[Alignment]:
        """Align annotated pairs: every sentence encoded in one batched pass here (on the CPU
        with ``workers`` torch threads), the lexical pipelines and features on ``workers``
        Dask workers when > 1, in input order. A pair with a sentence of no words (no token,
        or white space only) aligns to the empty alignment, and is neither encoded nor sent.
        `progress` is given the sentences as they are encoded (:class:`~paralign.workers.Steps`
        ``"encoding"``; none when the pairs are those encoded last), then the pairs as they are
        aligned (``"aligning"``).
        A `workers` that is not a count, an item that is not a (source, target) pair or a side
        that is not a Sentence is a ParalignError naming it, as in the Sultan aligner (workers=0
        was a RuntimeError from torch, None a TypeError from a comparison, a str a bare
        ValueError, a generator of pairs was read up by the blank test: a bare ValueError from zip)."""
        workers = check_count(workers, "workers")
        pairs = check_pairs(pairs)
        for number, pair in enumerate(pairs, start=1):
            for side, sentence in zip(("source", "target"), pair, strict=True):
                check_sentence(sentence, f"pairs: item {number} ({side})")
        blank = [is_blank(s) or is_blank(t) for s, t in pairs]
        todo = [pair for pair, empty in zip(pairs, blank, strict=True) if not empty]
        aligned = self._align_encoded(todo, workers, progress) if todo else iter(())
        results = (Alignment() if empty else next(aligned) for empty in blank)
        return list(in_steps(progress, results, len(pairs), "aligning"))

    def _align_encoded(self, pairs: Sequence[tuple[Sentence, Sentence]], workers: int,
                       progress: Progress | None = None) -> Iterator[Alignment]:
        """The alignments of pairs that each have words on both sides, in order, as they come;
        their sentences are encoded before the first is asked for (`progress` given a step
        ``"encoding"`` of them, unless the pairs were the ones encoded last), and before the
        step ``"aligning"`` opens: its bar sat at 0 through the encoding, 11-17 s on 800 MSR
        pairs."""
        self.related  # noqa: B018 - load the resources before forking
        self.encoder.threads = workers  # --workers bounds the encoder's CPU threads too
        items = self._last_encoded.get(pairs, functools.partial(self.encode_pairs, progress=progress))
        # the pipelines and the classifier in chunks, on Dask workers when workers > 1 (or in a
        # paralign.workers.runner block); each worker gets this aligner once, its encoder unloaded
        chunks = iter_chunk_results(
            functools.partial(_align_items, self), items, stop_batch("aligning failed in a worker process"),
            workers=workers, chunk_size=max(1, len(items) // (workers * 8)) if workers > 1 else 64,
        )
        return (alignment for chunk in chunks for alignment in chunk)

    # -- the pipeline ---------------------------------------------------------------------------
    def encode_pairs(self, pairs: Sequence[tuple[Sentence, Sentence]],
                     progress: Progress | None = None) -> list[_Item]:
        """Every sentence encoded in one batched pass; per pair its two sentences, the cosine
        matrix of their word vectors at the main layer, those at :data:`.features.EXTRA_LAYERS`
        and the cosine of their sentence vectors. `progress` is given the sentences as they are
        encoded (:meth:`paralign.neural.Encoder.encode`'s step ``"encoding"``)."""
        encoded = self.encoder.encode([x for pair in pairs for x in pair], progress=progress)
        items = []
        for k, (s, t) in enumerate(pairs):
            a, b = encoded[2 * k], encoded[2 * k + 1]
            layer_sims = tuple(_cosines(x, y) for x, y in zip(a.extra, b.extra, strict=True))
            items.append((s, t, _cosines(a.matrix, b.matrix), layer_sims, float(a.sentence @ b.sentence)))
        return items

    def evidence(self, s: Sentence, t: Sentence, sim: np.ndarray,
                 layer_sims: tuple[np.ndarray, ...] = (), sentence_sim: float = 0.0) -> PairEvidence:
        """The lexical pipelines' links and word similarities of a pair, with its contextual
        similarity matrix `sim` (and those of the extra layers, and the sentence cosine)."""
        lexical = self.lexical
        ps, pt = lexical.prepare(s), lexical.prepare(t)
        word_sim = lexical._similarities(ps, pt)
        default = ModulePipeline(lexical.config, ps, pt, word_sim).run()
        paraphrase = ModulePipeline(self._paraphrase, ps, pt, word_sim).run()
        return PairEvidence(ps, pt, sim, word_sim, default, paraphrase, layer_sims, sentence_sim)

    def scored_links(self, evidence: PairEvidence) -> tuple[list[Link], np.ndarray]:
        """Every candidate link of a pair and its features (rows in the links' order)."""
        taken = set(evidence.default) | set(evidence.paraphrase)
        final = final_pass(evidence.sim, evidence.s, evidence.t, taken, self.final_threshold)
        links = candidates(evidence, self.top_k, final)
        return links, pair_features(evidence, links, final)

    def _align_chunk(self, items: list[_Item]) -> list[Alignment]:
        """Align a chunk of :meth:`encode_pairs` items, the classifier run once."""
        scored = [self.scored_links(self.evidence(*item)) for item in items]
        if not scored:
            return []
        probabilities = self.model.pair_probabilities(
            np.concatenate([x for _, x in scored]),
            np.array([link for links, _ in scored for link in links], dtype=np.int64).reshape(-1, 2),
            np.concatenate([np.full(len(links), k) for k, (links, _) in enumerate(scored)]),
            [item[2].shape for item in items])
        out, start = [], 0
        for links, _ in scored:
            p = probabilities[start : start + len(links)]
            start += len(links)
            kept = {link: float(q) for link, q in zip(links, p, strict=True) if q >= self.min_confidence}
            out.append(Alignment(frozenset(kept), confidence=kept))
        return out


#: A pair ready for the pipeline: its sentences, the main layer's cosine matrix, the extra
#: layers' cosine matrices and the sentence cosine.
_Item = tuple[Sentence, Sentence, np.ndarray, tuple[np.ndarray, ...], float]


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity of every row of `a` with every row of `b` (float64)."""
    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return (a @ b.T).astype(np.float64)


class _LastEncoded:
    """The last pairs an aligner encoded, with their items (`encode_pairs`), shared by its
    `with_params` copies: a grid (tune-aligner) aligns the same pairs at every setting, and the
    lexical options it varies change no encoding (each setting encoded every pair again: 17 of
    each step's 25 s on 800 MSR pairs). Kept for at most :data:`KEPT_PAIRS` pairs (a large
    batch is not held after its call); the same pairs are the same objects (identity, not
    equality: nothing is compared word by word); pickled empty (a worker needs none)."""

    KEPT_PAIRS = 5_000

    def __init__(self) -> None:
        self.pairs: tuple[tuple[Sentence, Sentence], ...] = ()
        self.items: list[_Item] = []

    def get(self, pairs: Sequence[tuple[Sentence, Sentence]],
            encode: Callable[[Sequence[tuple[Sentence, Sentence]]], list[_Item]]) -> list[_Item]:
        """The items of `pairs`: kept ones when `pairs` are the pairs encoded last, else `encode`'s."""
        if len(pairs) == len(self.pairs) and all(a is b for a, b in zip(pairs, self.pairs, strict=True)):
            return self.items
        items = encode(pairs)
        self.pairs, self.items = (tuple(pairs), items) if len(pairs) <= self.KEPT_PAIRS else ((), [])
        return items

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.pairs, self.items = (), []


def _align_items(aligner: ContextualAligner, items: list[_Item]) -> list[Alignment]:
    """A chunk of :meth:`ContextualAligner._align_chunk` (a module-level function: picklable)."""
    return aligner._align_chunk(items)


