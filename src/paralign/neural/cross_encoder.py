"""A cross-encoder fine-tuned on labelled sentence pairs: P(paraphrase) of a pair read jointly.

The encoder (the `PARALIGN_ENCODER` setting, all-MiniLM-L6-v2 by default) reads the two
sentences as one input (``[CLS] a [SEP] b [SEP]``), so every word of one sentence attends to every
word of the other; a linear head over the mean of its last hidden states gives the two classes.
`CrossEncoder.fine_tune` trains the whole encoder and the head on the training pairs (AdamW,
linear warm-up and decay, cross-entropy; the settings in :class:`FineTuning` were chosen on MSRP
training data only: train on ``msr-para-train``, check on ``msr-para-val``, see
docs/results/neural-similarity.md). A pair's probability is the mean of both reading orders, so
it is symmetric. Fine-tuning is seeded and runs in a forked torch RNG, so the same pairs,
settings and thread count give the same model.

A fine-tuned model is saved as a directory (`save`): the encoder and tokenizer in Hugging Face
format, the head, and ``cross_encoder.json`` (settings, base model, training size). `load`
reads it back; nothing is downloaded.

Not for: sentence or word vectors (:mod:`paralign.neural.encoder`), or how a paraphrase
classifier combines this probability with its lexical model (:mod:`paralign.similarity.paraphrase`).
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import (
    ConfigurationError,
    FormatError,
    InputTypeError,
    MismatchError,
    check_count,
    check_pairs,
    is_text,
    lone_in,
    shown_value,
)
from ..settings import encoder_name
from .loading import _require, load_pretrained, quiet_transformers, resolve_device
from .model_files import model_directory

#: The file in a saved cross-encoder directory that names what it is.
MANIFEST = "cross_encoder.json"
_HEAD = "head.pt"
_FORMAT = 1


@dataclass(frozen=True, slots=True)
class FineTuning:
    """How the cross-encoder is fine-tuned. Defaults chosen on MSRP training data (fit on
    ``msr-para-train``, scored on ``msr-para-val``): lr 1e-4 for 4 epochs reached 83.2% accuracy
    there, against 79.0% for lr 3e-5 over 3 epochs (the usual BERT-base recipe)."""

    learning_rate: float = 1e-4
    epochs: int = 4
    batch_size: int = 16
    warmup: float = 0.1  #: fraction of the steps with a linearly rising learning rate
    weight_decay: float = 0.01  #: AdamW's, on all weights but biases and LayerNorm
    dropout: float = 0.1  #: before the head (the encoder keeps its own)
    seed: int = 0
    max_length: int = 256  #: word pieces of both sentences together; longer pairs are cut

    def __post_init__(self) -> None:
        """ConfigurationError naming the first setting fine-tuning cannot use: the counts whole
        numbers (epochs and batch size >= 1, max length >= 8, any seed), the rates finite
        numbers (a positive learning rate, warm-up in [0, 1), weight decay >= 0, dropout in
        [0, 1)). An infinite learning rate or weight decay trained silently into weights of NaN
        (every probability NaN), 1.5 epochs or a batch size of 1.5 failed after the model had
        loaded ("'float' object cannot be interpreted as an integer"), a seed of None was a
        TypeError from torch, and a str a TypeError from a comparison."""
        from numbers import Integral, Real

        for name, minimum in (("epochs", 1), ("batch_size", 1), ("max_length", 8)):
            check_count(getattr(self, name), f"fine-tuning's {name}", minimum)
        if isinstance(self.seed, bool) or not isinstance(self.seed, Integral):
            raise ConfigurationError(f"fine-tuning's seed must be a whole number, not {shown_value(self.seed)}")
        if not -(2**63) <= self.seed < 2**64:  # torch.manual_seed's range: past it, an overflow after the model loaded
            raise ConfigurationError(f"fine-tuning's seed must be in [-2**63, 2**64 - 1], got {self.seed}")
        for name, rule, holds in (
            ("learning_rate", "a positive finite number", lambda v: v > 0),
            ("warmup", "a number in [0, 1)", lambda v: 0 <= v < 1),
            ("weight_decay", "a finite number >= 0", lambda v: v >= 0),
            ("dropout", "a number in [0, 1)", lambda v: 0 <= v < 1),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) or not holds(value):
                raise ConfigurationError(f"fine-tuning's {name} must be {rule}, not {shown_value(value)}")

    def to_dict(self) -> dict:
        return asdict(self)


class CrossEncoder:
    """A fine-tuned pair classifier; build with :meth:`fine_tune` or :meth:`load`."""

    def __init__(self, tokenizer: Any, encoder: Any, head: Any, device: str, settings: FineTuning,
                 base: str, training_pairs: int) -> None:
        self.tokenizer = tokenizer
        self.encoder = encoder
        self.head = head
        self.device = device
        self.settings = settings
        self.base = base  #: the model it was fine-tuned from (a package name or directory)
        self.training_pairs = training_pairs

    @classmethod
    def fine_tune(
        cls,
        pairs: Sequence[tuple[str, str]],
        labels: Sequence[bool],
        *,
        model: str | os.PathLike[str] | None = None,
        device: str = "auto",
        settings: FineTuning | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> CrossEncoder:
        """Fine-tune the encoder `model` (default: the `PARALIGN_ENCODER` setting) with a new
        head on (sentence, sentence) `pairs` and their paraphrase `labels` (both classes, as
        every classifier of paralign needs: FormatError otherwise); `progress(n)` is called with
        the number of pairs of each training step."""
        pairs = _sentence_pairs(pairs)
        if len(pairs) != len(labels):
            raise MismatchError(f"{len(pairs)} training pairs vs {len(labels)} labels")
        if not pairs:
            raise ConfigurationError("cannot fine-tune a cross-encoder without training pairs")
        if len(set(map(bool, labels))) < 2:  # as LogisticModel.fit refuses them (check_both_classes)
            kind = "paraphrases" if labels[0] else "non-paraphrases"
            raise FormatError(f"all {len(labels)} training pairs are {kind}: a classifier needs both classes")
        settings = settings or FineTuning()
        torch, transformers = _require()
        directory = model_directory(model)
        run_on = resolve_device(device)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(settings.seed)
            tokenizer, encoder = _load_encoder(transformers, directory)
            head = torch.nn.Linear(encoder.config.hidden_size, 2)
            base = encoder_name(os.fspath(model) if model is not None else None)  # a str: the manifest's JSON
            self = cls(tokenizer, encoder, head, run_on, settings, base, len(pairs))
            self._move()
            self._train(torch, transformers, list(pairs), [bool(y) for y in labels], progress)
        return self

    def _move(self) -> None:
        torch, _ = _require()
        self.encoder.to(torch.device(self.device))
        self.head.to(torch.device(self.device))

    def _logits(self, first: Sequence[str], second: Sequence[str], dropout: Any = None) -> Any:
        torch, _ = _require()
        batch = self.tokenizer(list(first), list(second), padding=True, truncation="longest_first",
                               max_length=self.settings.max_length, return_tensors="pt")
        batch = {k: v.to(torch.device(self.device)) for k, v in batch.items()}
        states = self.encoder(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(states.dtype)
        pooled = (states * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(dropout(pooled) if dropout is not None else pooled)

    def _train(self, torch: Any, transformers: Any, pairs: list[tuple[str, str]], labels: list[bool],
               progress: Callable[[int], None] | None) -> None:
        s = self.settings
        modules = torch.nn.ModuleList([self.encoder, self.head])
        no_decay = ("bias", "LayerNorm.weight")
        groups = [
            {"params": [p for n, p in modules.named_parameters() if not any(x in n for x in no_decay)],
             "weight_decay": s.weight_decay},
            {"params": [p for n, p in modules.named_parameters() if any(x in n for x in no_decay)],
             "weight_decay": 0.0},
        ]
        optimiser = torch.optim.AdamW(groups, lr=s.learning_rate)
        steps = s.epochs * -(-len(pairs) // s.batch_size)
        schedule = transformers.get_linear_schedule_with_warmup(optimiser, int(s.warmup * steps), steps)
        dropout = torch.nn.Dropout(s.dropout)
        order = list(range(len(pairs)))
        shuffle = random.Random(s.seed)
        modules.train()
        for _ in range(s.epochs):
            shuffle.shuffle(order)
            for start in range(0, len(order), s.batch_size):
                chunk = order[start:start + s.batch_size]
                logits = self._logits([pairs[k][0] for k in chunk], [pairs[k][1] for k in chunk], dropout)
                gold = torch.tensor([int(labels[k]) for k in chunk], device=logits.device)
                loss = torch.nn.functional.cross_entropy(logits, gold)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(modules.parameters(), 1.0)
                optimiser.step()
                schedule.step()
                optimiser.zero_grad()
                if progress is not None:
                    progress(len(chunk))
        modules.eval()

    def probabilities(self, pairs: Sequence[tuple[str, str]], batch_size: int = 64) -> list[float]:
        """P(paraphrase) of each (sentence, sentence) pair: the mean over both reading orders.
        `batch_size` pairs run at once: a whole number >= 1 (ConfigurationError; 0 was a bare
        ValueError from range(), and a negative one gave no probability at all, silently)."""
        batch_size = check_count(batch_size, "batch_size")
        pairs = _sentence_pairs(pairs)
        torch, _ = _require()
        out: list[float] = []
        with torch.no_grad():
            for start in range(0, len(pairs), batch_size):
                chunk = pairs[start:start + batch_size]
                first, second = [a for a, _ in chunk], [b for _, b in chunk]
                forward = torch.softmax(self._logits(first, second), -1)[:, 1]
                backward = torch.softmax(self._logits(second, first), -1)[:, 1]
                out.extend(((forward + backward) / 2).tolist())
        return out

    def manifest(self) -> dict:
        """What ``cross_encoder.json`` records (also shown in reports)."""
        return {"format": _FORMAT, "base": self.base, "training_pairs": self.training_pairs,
                "pooling": "mean", "settings": self.settings.to_dict()}

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the model to `directory` (created; replaced whole if it holds a saved
        cross-encoder; refused if it holds anything else). Written beside it, then renamed, so
        no half-written model is ever visible."""
        torch, transformers = _require()
        target = Path(directory).expanduser().resolve()
        if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / MANIFEST).is_file())):
            raise ConfigurationError(f"{target}: exists and is not a saved cross-encoder; choose another directory")
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        try:
            with quiet_transformers(transformers):
                self.encoder.save_pretrained(staging)
                self.tokenizer.save_pretrained(staging)
            torch.save({k: v.detach().cpu() for k, v in self.head.state_dict().items()}, staging / _HEAD)
            (staging / MANIFEST).write_text(json.dumps(self.manifest(), indent=2) + "\n", encoding="utf-8")
            if target.exists():
                old = target.with_name(f".{target.name}.old")
                shutil.rmtree(old, ignore_errors=True)
                target.rename(old)
                staging.rename(target)
                shutil.rmtree(old, ignore_errors=True)
            else:
                staging.rename(target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return target

    @classmethod
    def load(cls, directory: str | os.PathLike[str], device: str = "auto") -> CrossEncoder:
        """A model written by :meth:`save`."""
        path = Path(directory).expanduser()
        try:
            manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
            if isinstance(manifest, dict) and manifest.get("format") != _FORMAT:  # before its fields
                raise FormatError(f"{path / MANIFEST}: format {manifest.get('format')!r}, this paralign reads {_FORMAT}")
            settings = FineTuning(**manifest["settings"])
            base, size = str(manifest["base"]), int(manifest["training_pairs"])
        except (FileNotFoundError, NotADirectoryError):  # no such directory, or a file
            raise FormatError(f"{path}: not a saved cross-encoder (no {MANIFEST})") from None
        except FormatError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"{path / MANIFEST}: not a cross-encoder manifest ({exc!r})") from None
        torch, transformers = _require()
        tokenizer, encoder = _load_encoder(transformers, path)
        head = torch.nn.Linear(encoder.config.hidden_size, 2)
        try:
            head.load_state_dict(torch.load(path / _HEAD, map_location="cpu", weights_only=True))
        except Exception as exc:  # OSError, RuntimeError; damaged: struct.error, UnpicklingError, EOFError
            raise FormatError(f"{path / _HEAD}: cannot load the head ({exc})") from None
        self = cls(tokenizer, encoder, head, resolve_device(device), settings, base, size)
        self._move()
        encoder.eval()
        return self


def _sentence_pairs(pairs: object) -> list[tuple[str, str]]:
    """`pairs` as a list of (text, text) pairs; InputTypeError naming the first item that is not
    one: a str was read as its characters ("ab": the pair "a", "b"), None or a number was a
    ValueError from inside the tokenizer."""
    items = check_pairs(pairs, "pairs", "(sentence, sentence) pair")
    for number, pair in enumerate(items, start=1):
        for side, text in zip(("first", "second"), pair, strict=True):
            if not isinstance(text, str):
                raise InputTypeError(f"pairs: item {number} ({side}) is {shown_value(text)}, not a text (str)")
            if not is_text(text):
                raise InputTypeError(f"pairs: item {number} ({side}) holds {lone_in(text)}")
    return [(a, b) for a, b in items]


def _load_encoder(transformers: Any, directory: Path) -> tuple[Any, Any]:
    """A fast tokenizer and the bare encoder of a local Hugging Face directory, without hub
    access or transformers' progress bars (:func:`.encoder.load_pretrained`; the tokenizer reads
    texts, not pre-split words)."""
    _, tokenizer, encoder = load_pretrained(transformers, directory, pre_split=False)
    return tokenizer, encoder
