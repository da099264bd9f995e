"""A lattice's new paths: those that spell none of its group's own sentences, the sentences the
lattice makes up (Pang et al. 2003: a lattice's paths beyond its inputs are its paraphrases).

Every sentence of a group is a path of its lattice, so the lists of `lattice paths` (k best,
sampled, enumerated) hold the group's own sentences too; ``--no-inputs`` lists these instead:
their count (:func:`new_path_count`: the paths less those spelling an input, counted exactly,
since two paths may spell one string through an epsilon), the k most probable
(:func:`new_kbest`), a uniform sample (:func:`new_sample`: uniform over the new paths) and the
enumeration (:func:`new_paths`).

`inputs` are the group's sentences as the lattice spells them: token tuples, lower-cased when the
lattice is (:func:`.build.sentence_key`).

Not for: the lists over every path (:class:`.word_lattice.Lattice`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence

from .word_lattice import Lattice


def spelling_count(lattice: Lattice, words: Sequence[str]) -> int:
    """How many of the lattice's paths spell `words` (exact: 0 when none does; more than 1 when
    paths differ only where an epsilon edge is)."""
    words = tuple(words)
    if lattice.n_states == 1:
        return int(words == ())
    ways: list[Counter[int]] = [Counter() for _ in range(lattice.n_states)]  # state -> {words read: paths}
    ways[0][0] = 1
    for s, w, d in lattice.edges:  # each edge comes after every edge into its source
        for read, paths in ways[s].items():
            if w is None:
                ways[d][read] += paths
            elif read < len(words) and words[read] == w:
                ways[d][read + 1] += paths
    return ways[lattice.end][len(words)]


def input_path_count(lattice: Lattice, inputs: Collection[tuple[str, ...]]) -> int:
    """How many paths spell one of `inputs` (each distinct input counted once)."""
    return sum(spelling_count(lattice, words) for words in set(inputs))


def new_path_count(lattice: Lattice, inputs: Collection[tuple[str, ...]]) -> int:
    """How many paths spell none of `inputs`."""
    return lattice.path_count() - input_path_count(lattice, inputs)


def new_kbest(lattice: Lattice, k: int, inputs: Collection[tuple[str, ...]]) -> list[tuple[float, tuple[str, ...]]]:
    """The k most probable paths that spell none of `inputs`, as :meth:`Lattice.kbest` gives
    paths (log probability, words), best first: the k + m best, m the paths spelling an input,
    hold them."""
    if k == 0:
        return []
    kept = set(inputs)
    extra = input_path_count(lattice, kept)
    best = lattice.kbest(min(k + extra, lattice.path_count()))
    return [(lp, words) for lp, words in best if words not in kept][:k]


def new_sample(lattice: Lattice, n: int, seed: int | None, inputs: Collection[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """`n` paths drawn uniformly from those that spell none of `inputs` (none when every path
    spells one): uniform draws over every path (:meth:`Lattice.sample`, seeded), those spelling an
    input passed over. The draws of a larger sample begin with a smaller one's, so drawing more
    when too few were new keeps the sample the seed gives."""
    kept = set(inputs)
    if n == 0 or new_path_count(lattice, kept) == 0:
        return []
    draws = n
    while True:
        found = [words for words in lattice.sample(draws, seed) if words not in kept]
        if len(found) >= n:
            return found[:n]
        draws *= 2


def new_paths(lattice: Lattice, inputs: Collection[tuple[str, ...]]) -> Iterator[tuple[str, ...]]:
    """The paths that spell none of `inputs`, depth first (lazy, as :meth:`Lattice.paths`)."""
    kept = set(inputs)
    return (words for words in lattice.paths() if words not in kept)


__all__ = ["input_path_count", "new_kbest", "new_path_count", "new_paths", "new_sample", "spelling_count"]
