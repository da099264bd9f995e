"""Evaluations of Pang et al. (2003), sect. 5: path counts, leave-one-out edit distances
(ed_input vs ed_lattice), the effect of adding translations, repetition ratios, LM entropy.

Everything works on groups of annotated sentences (`(group_id, [Sentence, ...])`); identical
sentences (after lower-casing) are collapsed, as groups are sets of distinct translations. A
group that fails is reported in `errors` (by id) and the others are still counted. The batch
evaluations (:func:`evaluate_groups`, :func:`lattice_paraphrases`) also take groups of texts or
token lists, annotated where each group runs: in chunks on the batch runner
(:mod:`paralign.workers`), here or on Dask workers, summed here in input order.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..alignment import MAX_PHRASE_LENGTH
from ..errors import SETUP_ERRORS, FormatError, LatticeError, check_count, counted
from ..paraphrases import ParaphraseTable
from ..sentence import Sentence
from . import CHUNK_GROUPS, INCREMENTAL_MIN_SIZE
from .build import (
    LatticeOptions,
    build_lattice,
    distinct_sentences,
    lattice_from_trees,
    sentence_key,
)
from .forest import wordnet_synonym_fn
from .fsa import chain
from .groups import GROUP_PREFIX
from .groups import Group as Group
from .groups import annotate_groups as annotate_groups
from .groups import distinct_texts as distinct_texts
from .groups import mtreference_groups as mtreference_groups
from .groups import read_groups as read_groups
from .groups import sample_groups as sample_groups
from .lm import NGramLM
from .msa import msa_lattice, word_edit_distance
from .trees import Tree, parse_tree
from .word_lattice import Lattice, table_of_pairs

#: A group not annotated yet: its id and its texts or token lists (as :func:`read_groups` gives them).
TextGroup = tuple[str, Sequence[str] | Sequence[Sequence[str]]]
LENGTH_BINS = ((0, 10), (10, 20), (20, 30), (30, 40), (40, 10**9))


class GroupLattices:
    """One group's sentences with cached trees, building lattices of any subset of them."""

    def __init__(self, sentences: Sequence[Sentence], options: LatticeOptions | None = None) -> None:
        self.options = options or LatticeOptions()
        self.sentences, self.tokens = distinct_sentences(sentences, self.options.lowercase)
        self._trees: list[Tree] | None = None  # parsed when a lattice first needs them
        self._synonyms = wordnet_synonym_fn() if self.options.wordnet else None

    def __len__(self) -> int:
        return len(self.sentences)

    def lattice(self, indices: Sequence[int] | None = None, method: str | None = None) -> Lattice:
        """The lattice of the chosen sentences (all by default) with `method` (default: options)."""
        idx = list(range(len(self))) if indices is None else list(indices)
        method = method or self.options.method
        if len(idx) == 1:
            return chain(self.tokens[idx[0]])
        if method == "msa":
            return msa_lattice([self.tokens[i] for i in idx])
        if self._trees is None:
            self._trees = [parse_tree(s, lowercase=self.options.lowercase) for s in self.sentences]
        return lattice_from_trees(
            [self._trees[i] for i in idx], keyword_check=self.options.keyword_check,
            synonyms=self._synonyms, squeeze=self.options.squeeze, max_gaps=self.options.max_gaps,
        )


def single_use_words(token_lists: Sequence[Sequence[str]]) -> list[str]:
    """Words (with a letter or digit) that no sentence of the group uses more than once."""
    maxima: Counter[str] = Counter()
    for tokens in token_lists:
        for w, c in Counter(tokens).items():
            maxima[w] = max(maxima[w], c)
    return sorted(w for w, c in maxima.items() if c == 1 and any(ch.isalnum() for ch in w))


def repetition_ratios(lattice: Lattice, token_lists: Sequence[Sequence[str]]) -> list[float]:
    """Per single-use word: paths repeating it / paths containing it (Pang et al. 5.2)."""
    out = []
    for w in single_use_words(token_lists):
        with_word, repeated = lattice.repetition_counts(w)
        if with_word:
            out.append(repeated / with_word)
    return out


@dataclass(frozen=True, slots=True)
class GroupResult:
    """Per-group measurements (leave-one-out tuples empty when not asked for)."""

    id: str
    size: int
    mean_length: float
    paths: int
    states: int
    edges: int
    repetition: tuple[float, ...]
    ed_input: tuple[int, ...] = ()
    ed_lattice: tuple[int, ...] = ()
    lengths: tuple[int, ...] = ()
    ent_inputs: float | None = None
    ent_paths: float | None = None

    @property
    def log10_paths(self) -> float:
        return math.log10(self.paths)


def evaluate_group(
    group_id: str, sentences: Sequence[Sentence], options: LatticeOptions | None = None, *,
    leave_one_out: bool = False, lm: NGramLM | None = None, lm_samples: int = 20, seed: int = 0,
) -> GroupResult:
    """Build the group's lattice and measure it (see the module doc)."""
    g = GroupLattices(sentences, options)
    if not len(g):
        raise FormatError(f"{GROUP_PREFIX.format(group_id)}empty group (no sentences)")
    lattice = g.lattice()
    ed_input: list[int] = []
    ed_lattice: list[int] = []
    lengths: list[int] = []
    if leave_one_out and len(g) >= 2:
        for i, held in enumerate(g.tokens):
            others = [j for j in range(len(g)) if j != i]
            ed_input.append(min(word_edit_distance(held, g.tokens[j]) for j in others))
            ed_lattice.append(g.lattice(others).distance(held))
            lengths.append(len(held))
    ent_inputs = ent_paths = None
    if lm is not None:
        ent_inputs = statistics.fmean(lm.entropy(t) for t in g.tokens)
        ent_paths = statistics.fmean(lm.entropy(p) for p in lattice.sample(lm_samples, seed))
    return GroupResult(
        id=group_id, size=len(g), mean_length=statistics.fmean(len(t) for t in g.tokens),
        paths=lattice.path_count(), states=lattice.n_states, edges=lattice.n_edges,
        repetition=tuple(repetition_ratios(lattice, g.tokens)), ed_input=tuple(ed_input),
        ed_lattice=tuple(ed_lattice), lengths=tuple(lengths), ent_inputs=ent_inputs, ent_paths=ent_paths,
    )


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.fmean(values) if values else None


def summarize(results: Sequence[GroupResult], errors: Sequence[dict] = ()) -> dict:
    """The aggregate JSON of `paralign lattice stats` (means over groups unless said otherwise)."""
    ratios = [r for res in results for r in res.repetition]
    nonzero = [r for r in ratios if r > 0]
    loo = [res for res in results if res.ed_input]
    by_length = []
    for lo, hi in LENGTH_BINS:
        members = [res for res in results if lo <= res.mean_length < hi]
        if members:
            logs = [m.log10_paths for m in members]
            by_length.append({
                "length": f"{lo}-{hi - 1}" if hi < 10**9 else f"{lo}+", "groups": len(members),
                "mean_log10_paths": statistics.fmean(logs), "max_log10_paths": max(logs),
            })
    diffs = [statistics.fmean(res.ed_input) - statistics.fmean(res.ed_lattice) for res in loo]
    return {
        "groups": len(results),
        "sentences": sum(res.size for res in results),
        "mean_group_size": _mean(res.size for res in results),
        "mean_length": _mean(res.mean_length for res in results),
        "mean_log10_paths": _mean(res.log10_paths for res in results),
        "max_log10_paths": max((res.log10_paths for res in results), default=None),
        "paths_by_length": by_length,
        "ed_input": _mean(statistics.fmean(res.ed_input) for res in loo),
        "ed_lattice": _mean(statistics.fmean(res.ed_lattice) for res in loo),
        "ed_input_per_word": _mean(
            statistics.fmean(e / max(n, 1) for e, n in zip(res.ed_input, res.lengths, strict=True)) for res in loo
        ),
        "ed_lattice_per_word": _mean(
            statistics.fmean(e / max(n, 1) for e, n in zip(res.ed_lattice, res.lengths, strict=True)) for res in loo
        ),
        "ed_gain_sd": statistics.stdev(diffs) if len(diffs) > 1 else None,
        "share_groups_lattice_better": _mean(float(d > 0) for d in diffs),
        "share_groups_lattice_worse": _mean(float(d < 0) for d in diffs),
        "repetition_ratio": _mean(ratios),
        "repetition_words": len(ratios),
        "repetition_nonzero_share": len(nonzero) / len(ratios) if ratios else None,
        "repetition_nonzero_mean": _mean(nonzero),
        "ent_inputs": _mean(res.ent_inputs for res in results if res.ent_inputs is not None),
        "ent_paths": _mean(res.ent_paths for res in results if res.ent_paths is not None),
        "errors": list(errors),
    }


def evaluate_groups(
    groups: Iterable[Group | TextGroup], options: LatticeOptions | None = None, *, leave_one_out: bool = False,
    lm: NGramLM | None = None, lm_samples: int = 20, seed: int = 0,
    progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None, incremental: IncrementalTable | None = None,
    workers: int = 1, chunk_size: int = CHUNK_GROUPS,
) -> tuple[dict, list[GroupResult]]:
    """Evaluate every group; a failing group is listed in the summary's `errors` and skipped.

    A group's sentences are Sentences, or texts or token lists annotated where the group is
    measured. With `incremental`, each group is also added to that table (its shuffle drawn
    here, in input order: :meth:`IncrementalTable.draw`). The groups run in chunks on the batch
    runner (:mod:`paralign.workers`: in this process with one worker, else `chunk_size` groups
    a chunk on a Dask cluster of `workers`, or the enclosing :func:`paralign.parallel` block's),
    and are summed here in input order, so any number of workers gives the same figures.
    `progress` wraps the groups as they are measured (tqdm-style)."""
    results: list[GroupResult] = []
    errors: list[dict] = []
    table_options = incremental.options if incremental is not None else None
    task = _Measure(options, leave_one_out, lm, lm_samples, seed, table_options)

    def items() -> Iterator[_Item]:
        for gid, given in groups:
            sentences: list = list(given)
            yield gid, sentences, None if incremental is None else _drawn(incremental, sentences)

    for done in (progress or (lambda x: x))(_run_groups(task, items(), _measure_failed, workers, chunk_size)):
        if done.result is not None:
            results.append(done.result)
        elif done.error is not None:
            errors.append(done.error)
        if incremental is not None:
            incremental.record(done.id, done.rows, done.rows_error)
    return summarize(results, errors), results


#: A group to run: its id, its sentences, and its --incremental shuffle (None: none drawn).
_Item = tuple[str, list, "list[int] | None"]


@dataclass(frozen=True, slots=True)
class _Done:
    """What a chunk task gives back for a group: its measures or pairs, or its failure; and its
    incremental rows or their failure."""

    id: str
    result: GroupResult | None = None
    pairs: frozenset[tuple[str, str]] = frozenset()
    error: dict | None = None
    rows: tuple[tuple[int, int, int], ...] | None = None
    rows_error: dict | None = None


def _annotated(gid: str, sentences: list) -> list[Sentence]:
    """A group's sentences as Sentences: those given so kept, the others annotated together."""
    todo = [s for s in sentences if not isinstance(s, Sentence)]
    if not todo:
        return sentences
    parsed = iter(next(annotate_groups([(gid, todo)]))[1])
    return [s if isinstance(s, Sentence) else next(parsed) for s in sentences]


@dataclass(frozen=True, slots=True)
class _Measure:
    """The chunk task of :func:`evaluate_groups`: each group annotated, measured and (with a
    shuffle) given its incremental rows, where the chunk runs. Picklable: sent to a worker once."""

    options: LatticeOptions | None
    leave_one_out: bool
    lm: NGramLM | None
    lm_samples: int
    seed: int
    table_options: LatticeOptions | None

    def __call__(self, chunk: list[_Item]) -> list[_Done]:
        return [self.one(*item) for item in chunk]

    def one(self, gid: str, sentences: list, order: list[int] | None) -> _Done:
        try:
            annotated = _annotated(gid, sentences)
        except SETUP_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - one bad group must not lose the others
            return _measure_failed([(gid, sentences, order)], group_error(gid, exc)["error"])[0]
        result = error = rows = rows_error = None
        try:
            result = evaluate_group(gid, annotated, self.options, leave_one_out=self.leave_one_out, lm=self.lm,
                                    lm_samples=self.lm_samples, seed=self.seed)
        except SETUP_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - one bad group must not lose the others
            error = group_error(gid, exc)
        if order is not None:
            try:
                rows = tuple(incremental_rows(GroupLattices(annotated, self.table_options), order))
            except SETUP_ERRORS:
                raise
            except Exception as exc:  # noqa: BLE001 - one bad group must not lose the others
                rows_error = group_error(gid, exc)
        return _Done(gid, result=result, error=error, rows=rows, rows_error=rows_error)


def _measure_failed(chunk: list[_Item], why: str) -> list[_Done]:
    """Each group of a chunk that could not run (its worker died, its annotation failed), failed
    for every table asked of it."""
    return [_Done(gid, error={"group": gid, "error": why},
                  rows_error=None if order is None else {"group": gid, "error": why}) for gid, _, order in chunk]


@dataclass(frozen=True, slots=True)
class _Mine:
    """The chunk task of :func:`lattice_paraphrases`: each group annotated and its lattice's
    pairs found (none for a group of one distinct sentence), where the chunk runs."""

    options: LatticeOptions | None
    max_length: int
    minimal: bool

    def __call__(self, chunk: list[_Item]) -> list[_Done]:
        return [self.one(gid, sentences) for gid, sentences, _ in chunk]

    def one(self, gid: str, sentences: list) -> _Done:
        try:
            g = GroupLattices(_annotated(gid, sentences), self.options)
            pairs = g.lattice().paraphrase_pairs(self.max_length, minimal=self.minimal) if len(g) >= 2 else set()
        except SETUP_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - report the group and go on
            return _Done(gid, error=group_error(gid, exc))
        return _Done(gid, pairs=frozenset(pairs))


def _mine_failed(chunk: list[_Item], why: str) -> list[_Done]:
    return [_Done(gid, error={"group": gid, "error": why}) for gid, _, _ in chunk]


def _run_groups(task: Callable[[list[_Item]], list[_Done]], items: Iterable[_Item],
                failed: Callable[[list[_Item], str], list[_Done]], workers: int, chunk_size: int) -> Iterator[_Done]:
    """Each group's outcome, in input order, from the batch runner: chunks of one group where
    they run in this process, of `chunk_size` on a cluster."""
    from ..workers import block_options, iter_chunk_results

    check_count(chunk_size, "chunk_size")
    block = block_options()
    here = (workers if block is None else block.workers) == 1 and (block is None or block.address() is None)
    for done in iter_chunk_results(task, items, failed, workers=workers, chunk_size=1 if here else chunk_size):
        yield from done


def _drawn(table: IncrementalTable, sentences: list) -> list[int] | None:
    """The group's shuffle drawn from `table` (:meth:`IncrementalTable.draw`); none for a group
    whose sentences cannot be counted (no text, no token list), which fails where it is
    annotated and is reported there, the other groups going on."""
    try:
        size = _distinct_count(sentences, table.options)
    except Exception:  # noqa: BLE001 - reported as the group's failure where it runs
        return None
    return table.draw(size)


def _distinct_count(sentences: Sequence[Sentence | str | Sequence[str]], options: LatticeOptions | None) -> int:
    """How many distinct sentences a group's lattice counts (:func:`.build.sentence_key`),
    told before it is annotated: what its --incremental shuffle is drawn for."""
    lowercase = (options or LatticeOptions()).lowercase
    texts = [s for s in sentences if isinstance(s, str)]
    keys = {sentence_key(s.tokens if isinstance(s, Sentence) else s, lowercase)
            for s in sentences if not isinstance(s, str)}
    return len(keys) + (len(distinct_texts(texts, lowercase=lowercase)) if texts else 0)


def group_error(group_id: str, exc: BaseException) -> dict:
    """The record of a group that failed, as the evaluations list it: its id and the error, which names
    the group once, in ``group``: an error that starts by naming it, as one raised about the group for a
    caller of the library does (``group line 2: sentence 2 too long to parse``), is given without
    that start, where ``lattice stats`` said "group line 2: FormatError: group line 2: sentence 2 ..."."""
    return {"group": group_id, "error": f"{type(exc).__name__}: {str(exc).removeprefix(GROUP_PREFIX.format(group_id))}"}


class IncrementalTable:
    """Effect of adding translations (Pang et al. table 5), a group at a time (:meth:`add`), so a
    corpus need not be held in memory: per group of >= `min_size` distinct sentences, shuffle
    (seeded: one generator over the groups in order), hold out the first, then for n = 1, 2, ...
    use the next n: ed_input_n (nearest of the n) and ed_lattice_n (lattice of the n).
    :meth:`table` gives the means per n.

    With an `errors` list, a group that fails is appended to it (``{"group", "error"}``, as
    :func:`evaluate_groups` lists them) and left out, and the others are counted; without one
    its exception propagates. The other groups' shuffles are the same either way."""

    def __init__(self, options: LatticeOptions | None = None, *, min_size: int = INCREMENTAL_MIN_SIZE, seed: int = 0,
                 errors: list[dict] | None = None) -> None:
        self.options = options
        self.min_size = min_size
        self.errors = errors
        self._rng = random.Random(seed)
        self._rows: dict[int, list[tuple[int, int]]] = {}

    def add(self, group_id: str, sentences: Sequence[Sentence]) -> None:
        """Count one group (all of its rows, or none when it fails)."""
        try:
            g = GroupLattices(sentences, self.options)
            order = self.draw(len(g))
            rows = None if order is None else incremental_rows(g, order)
        except Exception as exc:  # noqa: BLE001 - with `errors`, one bad group must not lose the others
            if self.errors is None:
                raise
            self.errors.append(group_error(group_id, exc))
            return
        self.record(group_id, rows)

    def draw(self, size: int) -> list[int] | None:
        """The order of a group of `size` distinct sentences (the first held out, then the n
        used), drawn from the table's one generator; None for a group under `min_size`, which
        draws nothing. Drawn for each group in input order, wherever its rows are computed."""
        if size < self.min_size:
            return None
        order = list(range(size))
        self._rng.shuffle(order)
        return order

    def record(self, group_id: str, rows: Sequence[tuple[int, int, int]] | None, error: dict | None = None) -> None:
        """Count a group's rows (:func:`incremental_rows`), or its failure `error` (a
        :func:`group_error` record): appended to `errors`, or without that list a LatticeError."""
        if error is not None:
            if self.errors is None:
                raise LatticeError(GROUP_PREFIX.format(group_id) + error["error"])
            self.errors.append(error)
            return
        for n, ed_in, ed_sa in rows or ():
            self._rows.setdefault(n, []).append((ed_in, ed_sa))

    def table(self) -> list[dict]:
        """One row per n: {n, groups, ed_input, ed_lattice, gain = ed_input - ed_lattice}."""
        table = []
        for n in sorted(self._rows):
            values = self._rows[n]
            table.append({
                "n": n, "groups": len(values),
                "ed_input": statistics.fmean(v[0] for v in values),
                "ed_lattice": statistics.fmean(v[1] for v in values),
                "gain": statistics.fmean(v[0] - v[1] for v in values),
            })
        return table


def incremental_rows(g: GroupLattices, order: Sequence[int]) -> list[tuple[int, int, int]]:
    """A group's rows of the :class:`IncrementalTable`: with its sentences in `order`, the first
    held out and for n = 1, 2, ... the next n used, (n, ed_input_n, ed_lattice_n)."""
    if len(order) != len(g):
        raise LatticeError(f"the shuffle drawn for {counted(len(order), 'sentence')} is not for this group of "
                           f"{counted(len(g), 'distinct sentence')}")
    test, rest = g.tokens[order[0]], order[1:]
    found = []
    for n in range(1, len(rest) + 1):
        used = rest[:n]
        found.append((n, min(word_edit_distance(test, g.tokens[j]) for j in used), g.lattice(used).distance(test)))
    return found


def incremental(
    groups: Iterable[Group], options: LatticeOptions | None = None, *, min_size: int = INCREMENTAL_MIN_SIZE, seed: int = 0,
    errors: list[dict] | None = None,
) -> list[dict]:
    """The :class:`IncrementalTable` of `groups` (Pang et al. table 5: ed_input and ed_lattice
    as translations are added, means per n); `errors` as there."""
    table = IncrementalTable(options, min_size=min_size, seed=seed, errors=errors)
    for gid, sentences in groups:
        table.add(gid, sentences)
    return table.table()


def lattice_for_group(sentences: Sequence[Sentence], options: LatticeOptions | None = None) -> Lattice:
    """The lattice of a group's distinct sentences (weights = sentences using each edge):
    :func:`.build.build_lattice` of annotated sentences, so the command, the app and the
    library build one lattice of one group."""
    sentences = list(sentences)
    if not sentences:
        raise FormatError("empty group (no sentences)")
    return build_lattice(sentences, options)


def lattice_paraphrases(
    groups: Iterable[Group | TextGroup], options: LatticeOptions | None = None, *, max_length: int = MAX_PHRASE_LENGTH,
    minimal: bool = True, name: str = "lattice", tokenizer: str = "spacy",
    progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None, workers: int = 1,
    chunk_size: int = CHUNK_GROUPS,
) -> tuple[ParaphraseTable, list[dict]]:
    """Sub-path paraphrase pairs of every group's lattice; score = number of groups yielding the
    pair. Returns the table and the failed groups (by id). The table records how its phrases
    were made (:func:`.word_lattice.paraphrase_table`): split by `tokenizer` (``spacy``, which
    :func:`annotate_groups` splits texts with; ``whitespace`` for groups given as tokens) and
    lower-cased as `options` says. Groups (Sentences, or texts or token lists annotated where
    they are mined), `progress`, `workers` and `chunk_size` as for :func:`evaluate_groups`:
    each group's pairs are found where it runs and counted here, so the table is the same."""
    errors: list[dict] = []
    task = _Mine(options, max_length, minimal)

    def pair_sets() -> Iterator[frozenset[tuple[str, str]]]:
        items = ((gid, list(sentences), None) for gid, sentences in groups)
        for done in (progress or (lambda x: x))(_run_groups(task, items, _mine_failed, workers, chunk_size)):
            if done.error is not None:
                errors.append(done.error)
            yield done.pairs

    lowercase = (options or LatticeOptions()).lowercase
    table = table_of_pairs(pair_sets(), name=name, tokenizer=tokenizer, lowercase=lowercase)
    return table, errors
