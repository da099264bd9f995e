"""torch and transformers on first use, the device a model runs on, and a local model directory
loaded once per process (the `neural` extra).

Not for: which directory a model name means (:mod:`.model_files`), or what is done with the
loaded model (:mod:`.encoder`, :mod:`.cross_encoder`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, ExtraMissingError, shown_value
from ..settings import DEVICE_FORMS, is_device

#: Tokenisers of these model types need ``add_prefix_space`` to take pre-split words.
_PREFIX_SPACE_TYPES = frozenset({"roberta", "gpt2", "longformer", "bart", "deberta", "mpnet"})


@dataclass(frozen=True)
class _Model:
    """A loaded tokenizer and model, shared by every Encoder of the process that asks for it."""

    tokenizer: Any
    model: Any
    device: str
    max_length: int  # sub-words per model input, special tokens included
    num_layers: int


def _require() -> tuple[Any, Any]:
    """torch and transformers, or ExtraMissingError naming the install command."""
    torch = _torch()
    with _extra_missing("transformers"):
        return torch, importlib.import_module("transformers")


def _torch() -> Any:
    """torch alone (it tells the devices: 2-3 s less than with transformers on a busy machine),
    or ExtraMissingError naming the install command. The imports name their modules as written
    (tests/test_packaging.py reads the extra's dependencies off them)."""
    with _extra_missing("torch"):
        return importlib.import_module("torch")


@contextlib.contextmanager
def _extra_missing(name: str) -> Iterator[None]:
    """An ImportError of the extra's module `name` as ExtraMissingError naming the install command."""
    try:
        yield
    except ImportError as exc:
        raise ExtraMissingError("the contextual encoder", missing=exc.name or name) from None


def _check_device(device: object) -> None:
    """ConfigurationError unless `device` is a device setting (:func:`paralign.settings.is_device`),
    listing the forms it takes; one written in other case than torch's is told so."""
    if is_device(device):
        return
    forms = ", ".join(DEVICE_FORMS[:-1]) + f" or {DEVICE_FORMS[-1]} (N: a GPU's index, 0 for the first)"
    hint = " (device names are lower case, as torch's)" if isinstance(device, str) and is_device(device.lower()) else ""
    raise ConfigurationError(f"device must be {forms}, not {shown_value(device)}{hint}")


def resolve_device(device: str) -> str:
    """The torch device a `device` setting runs on: "cpu" or "cuda:N" (auto: the current GPU when
    torch sees one, else "cpu"; "cuda" is named by its index, torch's current device, so that
    "cuda" and "cuda:0" are one device to the model cache and in every record, not two loads of
    the model). A GPU torch does not see (none at all, or an index past
    `torch.cuda.device_count()`) is a ConfigurationError here, not an error from inside torch later."""
    _check_device(device)
    torch = _torch()
    cuda = torch.cuda.is_available()
    if device == "cpu" or (device == "auto" and not cuda):
        return "cpu"
    if not cuda:
        built = "" if torch.version.cuda else f" (torch {torch.__version__} is built without CUDA)"
        raise ConfigurationError(f"device {device} asked for, but torch sees no CUDA device{built}; "
                                 "available here: cpu")
    index = device.partition(":")[2]
    count = int(torch.cuda.device_count())
    if index and int(index) >= count:
        seen = "cuda:0" if count == 1 else f"cuda:0 to cuda:{count - 1}"
        raise ConfigurationError(f"device {device} asked for, but torch sees {count} CUDA "
                                 f"device{'s' if count != 1 else ''} ({seen}); available here: cpu, {seen}")
    return f"cuda:{index or int(torch.cuda.current_device())}"


def check_device(device: str) -> None:
    """ConfigurationError now for a `device` setting that cannot run here (not a device's form, or
    a GPU torch does not see: :func:`resolve_device`'s messages, naming what is available), so a
    command hears it before its work, not where the model loads (after spaCy and a block's
    annotation: 7-14 s for one pair). auto and cpu always run: they import nothing (and need no
    form check: they are forms); the rest go to resolve_device, which checks the form first."""
    if device not in ("auto", "cpu"):
        resolve_device(device)


@contextlib.contextmanager
def quiet_transformers(transformers: Any) -> Iterator[None]:
    """transformers' progress bars off (library code never prints), then as they were."""
    logging = transformers.utils.logging
    bar = logging.is_progress_bar_enabled()
    logging.disable_progress_bar()
    try:
        yield
    finally:
        if bar:
            logging.enable_progress_bar()


@functools.cache
def _load(directory: Path, device: str) -> _Model:
    """The tokenizer and model of `directory` on `device`, loaded once per process."""
    torch, transformers = _require()
    config, tokenizer, model = load_pretrained(transformers, directory, pre_split=True)
    if not tokenizer.is_fast:
        raise ConfigurationError(f"encoder {directory}: needs a fast tokenizer (word ids)")
    model.eval()
    model.to(torch.device(device))
    return _Model(tokenizer, model, device, _max_length(directory, config, tokenizer),
                  int(config.num_hidden_layers))


def load_pretrained(transformers: Any, directory: Path, *, pre_split: bool) -> tuple[Any, Any, Any]:
    """The config, tokenizer and bare model of a local Hugging Face directory, without hub access
    or transformers' progress bars; the tokenizer takes pre-split words when `pre_split` (the
    model types that need ``add_prefix_space`` for them get it). ConfigurationError naming the
    directory when one cannot load (a damaged weights file too: SafetensorError, struct.error)
    or the tokenizer knows no word (:func:`check_vocabulary`)."""
    try:
        with quiet_transformers(transformers):
            config = transformers.AutoConfig.from_pretrained(directory, local_files_only=True)
            prefix_space = pre_split and config.model_type in _PREFIX_SPACE_TYPES
            extra = {"add_prefix_space": True} if prefix_space else {}
            tokenizer = transformers.AutoTokenizer.from_pretrained(directory, local_files_only=True, **extra)
            model = transformers.AutoModel.from_pretrained(directory, local_files_only=True)
    except Exception as exc:  # OSError, ValueError; a damaged weights file: SafetensorError, struct.error
        raise ConfigurationError(f"encoder {directory}: cannot load: {exc}") from None
    check_vocabulary(directory, tokenizer)
    return config, tokenizer, model


def check_vocabulary(directory: Path, tokenizer: Any) -> None:
    """ConfigurationError unless `tokenizer` knows some word: a directory without its tokenizer
    files (tokenizer.json, vocab.txt) loads in transformers as a tokenizer of the special tokens
    alone, which reads every word as the unknown token (and gives even [CLS] another id)."""
    if not set(tokenizer.get_vocab()) - set(tokenizer.all_special_tokens):
        raise ConfigurationError(f"encoder {directory}: its tokenizer knows no word (are its "
                                 "tokenizer files, tokenizer.json or vocab.txt, missing?)")


def _max_length(directory: Path, config: Any, tokenizer: Any) -> int:
    """The model's window in sub-words: the smallest of the tokenizer's limit, the position
    table and sentence-transformers' `max_seq_length` (the length the pipeline encodes)."""
    limits = [int(tokenizer.model_max_length)]
    positions = getattr(config, "max_position_embeddings", None)
    if positions:
        limits.append(int(positions) - (2 if config.model_type in _PREFIX_SPACE_TYPES else 0))
    st_config = directory / "sentence_bert_config.json"
    if st_config.is_file():
        import json

        try:
            limits.append(int(json.loads(st_config.read_text(encoding="utf-8")).get("max_seq_length", limits[0])))
        except (OSError, ValueError, TypeError, AttributeError) as exc:  # not JSON, not an object, no number
            raise ConfigurationError(f"encoder {directory}: {st_config.name} is damaged ({exc})") from None
    return min(limits)
