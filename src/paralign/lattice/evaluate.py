"""Evaluations of Pang et al. (2003), sect. 5: path counts, leave-one-out edit distances
(ed_input vs ed_lattice), the effect of adding translations, repetition ratios, LM entropy.

Everything works on groups of annotated sentences (`(group_id, [Sentence, ...])`); identical
sentences (after lower-casing) are collapsed, as groups are sets of distinct translations. A
group that fails is reported in `errors` (by id) and the others are still counted.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..errors import FormatError
from ..paraphrases import ParaphraseTable
from ..sentence import Sentence
from .build import LatticeOptions, build_lattice, distinct_sentences, lattice_from_trees
from .forest import wordnet_synonym_fn
from .fsa import chain
from .groups import Group as Group
from .groups import annotate_groups as annotate_groups
from .groups import distinct_texts as distinct_texts
from .groups import mtreference_groups as mtreference_groups
from .groups import read_groups as read_groups
from .groups import sample_groups as sample_groups
from .lm import NGramLM
from .msa import msa_lattice, word_edit_distance
from .trees import Tree, parse_tree
from .word_lattice import Lattice, paraphrase_table

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
        raise FormatError(f"group {group_id}: empty group (no sentences)")
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
    groups: Iterable[Group], options: LatticeOptions | None = None, *, leave_one_out: bool = False,
    lm: NGramLM | None = None, lm_samples: int = 20, seed: int = 0,
    progress: Callable[[Iterable[Group]], Iterable[Group]] | None = None,
) -> tuple[dict, list[GroupResult]]:
    """Evaluate every group; a failing group is listed in the summary's `errors` and skipped."""
    results: list[GroupResult] = []
    errors: list[dict] = []
    for group_id, sentences in (progress or (lambda x: x))(groups):
        try:
            results.append(evaluate_group(
                group_id, sentences, options, leave_one_out=leave_one_out, lm=lm,
                lm_samples=lm_samples, seed=seed,
            ))
        except Exception as exc:  # noqa: BLE001 - one bad group must not lose the others
            errors.append(group_error(group_id, exc))
    return summarize(results, errors), results


def group_error(group_id: str, exc: BaseException) -> dict:
    """The record of a group that failed, as the evaluations list it: its id and the error."""
    return {"group": group_id, "error": f"{type(exc).__name__}: {exc}"}


class IncrementalTable:
    """Effect of adding translations (Pang et al. table 5), a group at a time (:meth:`add`), so a
    corpus need not be held in memory: per group of >= `min_size` distinct sentences, shuffle
    (seeded: one generator over the groups in order), hold out the first, then for n = 1, 2, ...
    use the next n: ed_input_n (nearest of the n) and ed_lattice_n (lattice of the n).
    :meth:`table` gives the means per n.

    With an `errors` list, a group that fails is appended to it (``{"group", "error"}``, as
    :func:`evaluate_groups` lists them) and left out, and the others are counted; without one
    its exception propagates. The other groups' shuffles are the same either way."""

    def __init__(self, options: LatticeOptions | None = None, *, min_size: int = 4, seed: int = 0,
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
            if len(g) < self.min_size:
                return
            order = list(range(len(g)))
            self._rng.shuffle(order)
            test, rest = g.tokens[order[0]], order[1:]
            found = []
            for n in range(1, len(rest) + 1):
                used = rest[:n]
                found.append((n, min(word_edit_distance(test, g.tokens[j]) for j in used),
                              g.lattice(used).distance(test)))
        except Exception as exc:  # noqa: BLE001 - with `errors`, one bad group must not lose the others
            if self.errors is None:
                raise
            self.errors.append(group_error(group_id, exc))
            return
        for n, ed_in, ed_sa in found:
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


def incremental(
    groups: Iterable[Group], options: LatticeOptions | None = None, *, min_size: int = 4, seed: int = 0,
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
    groups: Iterable[Group], options: LatticeOptions | None = None, *, max_length: int = 5,
    minimal: bool = True, name: str = "lattice", tokenizer: str = "spacy",
) -> tuple[ParaphraseTable, list[dict]]:
    """Sub-path paraphrase pairs of every group's lattice; score = number of groups yielding the
    pair. Returns the table and the failed groups (by id). The table records how its phrases
    were made (:func:`.word_lattice.paraphrase_table`): split by `tokenizer` (``spacy``, which
    :func:`annotate_groups` splits texts with; ``whitespace`` for groups given as tokens) and
    lower-cased as `options` says."""
    errors: list[dict] = []

    def lattices() -> Iterator[Lattice]:
        for gid, sentences in groups:
            try:
                g = GroupLattices(sentences, options)
                if len(g) >= 2:
                    yield g.lattice()
            except Exception as exc:  # noqa: BLE001 - report the group and go on
                errors.append(group_error(gid, exc))

    lowercase = (options or LatticeOptions()).lowercase
    table = paraphrase_table(lattices(), max_length=max_length, minimal=minimal, name=name,
                             tokenizer=tokenizer, lowercase=lowercase)
    return table, errors
