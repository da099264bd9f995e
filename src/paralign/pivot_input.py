"""What the paraphrase-table pipelines read: their options, and stage 1 (prepare) of both.

`PivotOptions` holds every knob of `paralign.pivot`'s pipelines (its fingerprint names a work
directory's run).  Preparing streams the input with the checks of `corpora.parallel` (or the
groups of `corpora.groups`), tokenises it with the pipeline's tokenizer options and writes the
token files `en.tok` and `f.tok` (one sentence pair a line) that the later stages align and
extract phrase pairs from.

Not for: aligning, counting and pivoting (:mod:`paralign.pivot`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .aligners.eflomal import check_symmetrization, tokenize
from .corpora.parallel import DEFAULT_MAX_TOKENS, ParallelStats, iter_parallel
from .errors import ConfigurationError
from .mapreduce import atomic_path

Progress = Callable[..., Iterable]


def no_progress(items: Iterable, desc: str = "", total: int | None = None) -> Iterable:
    return items


@dataclass(frozen=True, slots=True)
class PivotOptions:
    """Every knob of the pivot and monolingual pipelines (the fingerprint of a work directory)."""

    max_length: int = 5
    symmetrization: str = "grow-diag-final-and"
    threshold: float = 0.01
    top_k: int | None = None
    min_count: int = 1  # drop rows supported by fewer phrase-pair occurrences (output stage only)
    chunk_size: int = 5000
    lowercase: bool = True
    tokenizer: str = "regex"
    foreign_tokenizer: str | None = None  # None: same as `tokenizer`
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_length_ratio: float | None = None  # skip pairs whose token-length ratio exceeds this
    encoding_errors: str = "strict"
    min_translation_prob: float = 0.001
    buffer_items: int = 1_000_000  # keys held in memory before a run is spilled to disk
    eflomal_model: int = 3
    eflomal_iterations: int | None = None

    def __post_init__(self) -> None:
        check_symmetrization(self.symmetrization)
        if self.max_length < 1:
            raise ConfigurationError(f"max_length must be >= 1, got {self.max_length}")
        if self.chunk_size < 1:
            raise ConfigurationError(f"chunk_size must be >= 1, got {self.chunk_size}")
        if self.top_k is not None and self.top_k < 1:
            raise ConfigurationError(f"top_k must be >= 1, got {self.top_k}")
        if not 0 <= self.min_translation_prob < 1:
            raise ConfigurationError(f"min_translation_prob must be in [0, 1), got {self.min_translation_prob}")
        if self.max_length_ratio is not None and self.max_length_ratio < 1:
            raise ConfigurationError(f"max_length_ratio must be >= 1, got {self.max_length_ratio}")

    def fingerprint(self) -> dict[str, Any]:
        """Options that change intermediate files (threshold and top-k only change the output)."""
        data = asdict(self)
        for key in ("threshold", "top_k", "min_count", "buffer_items"):
            data.pop(key)
        return data


def ratio_ok(a: int, b: int, ratio: float | None) -> bool:
    return ratio is None or max(a, b) <= ratio * max(1, min(a, b))


def prepare_parallel(
    english: str | Path, foreign: str | Path, directory: Path, options: PivotOptions
) -> ParallelStats:
    """Stage 1: checked streaming read, tokenisation, token files `en.tok` and `f.tok`."""
    stats = ParallelStats()
    foreign_tokenizer = options.foreign_tokenizer or options.tokenizer
    ratio_skipped = 0

    def pairs() -> Iterator[tuple[str, str]]:
        nonlocal ratio_skipped
        for item in iter_parallel(
            english, foreign, max_tokens=options.max_tokens, errors=options.encoding_errors,
            stats=stats, warn=False,
        ):
            e = tokenize(item.source, options.tokenizer, options.lowercase)
            f = tokenize(item.target, foreign_tokenizer, options.lowercase)
            if not e or not f or not ratio_ok(len(e), len(f), options.max_length_ratio):
                ratio_skipped += 1
                continue
            yield " ".join(e), " ".join(f)

    en_path, f_path = directory / "en.tok", directory / "f.tok"
    with atomic_path(en_path) as en_tmp, atomic_path(f_path) as f_tmp, \
            open(en_tmp, "w", encoding="utf-8") as en_out, open(f_tmp, "w", encoding="utf-8") as f_out:
        for e, f in pairs():
            en_out.write(e + "\n")
            f_out.write(f + "\n")
    stats.kept -= ratio_skipped
    stats.filtered += ratio_skipped
    return stats


def prepare_groups(
    groups_path: str | Path,
    directory: Path,
    options: PivotOptions,
    max_groups: int | None = None,
    progress: Progress = no_progress,
) -> dict[str, int]:
    """Stage 1 of the monolingual pipeline: every pair of each group's sentences, tokenised,
    in `en.tok` and `f.tok`; returns {"groups": groups used, "pairs": pairs written}."""
    from .corpora.groups import iter_groups

    n_groups = 0
    seen: set[str] = set()

    def pairs() -> Iterator[tuple[str, str, str]]:
        nonlocal n_groups
        # open_text raises FormatError naming the file and line of a byte that is not UTF-8
        for gid, a, b in _group_pairs(iter_groups(groups_path), options, max_groups):
            if gid not in seen:
                seen.add(gid)
                n_groups += 1
            yield gid, a, b

    en_path, f_path = directory / "en.tok", directory / "f.tok"
    count = 0
    with atomic_path(en_path) as en_tmp, atomic_path(f_path) as f_tmp, \
            open(en_tmp, "w", encoding="utf-8") as en_out, open(f_tmp, "w", encoding="utf-8") as f_out:
        for _, a, b in progress(pairs(), "prepare pairs"):
            en_out.write(a + "\n")
            f_out.write(b + "\n")
            count += 1
    return {"groups": n_groups, "pairs": count}


def _group_pairs(
    groups: Iterable[Any], options: PivotOptions, max_groups: int | None
) -> Iterator[tuple[str, str, str]]:
    """All sentence pairs (i < j) within each group, tokenised: (group id, tokens a, tokens b)."""
    for group in itertools.islice(groups, max_groups):
        sentences = []
        for sentence in group.sentences:
            tokens = tokenize(sentence, options.tokenizer, options.lowercase)
            if tokens and (options.max_tokens <= 0 or len(tokens) <= options.max_tokens):
                sentences.append(" ".join(tokens))
        for a, b in itertools.combinations(dict.fromkeys(sentences), 2):
            if ratio_ok(len(a.split()), len(b.split()), options.max_length_ratio):
                yield group.id, a, b
