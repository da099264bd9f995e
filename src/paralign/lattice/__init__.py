"""Word lattices from multiple translations (Pang, Knight & Marcu 2003).

parse trees (:func:`parse_tree`) -> top-down merging with keyword checking (:class:`Merger`)
-> linearised, squeezed acyclic FSA (:class:`Lattice`); a progressive-MSA baseline
(:func:`msa_lattice`); path counts, generation, edit distance, paraphrase pairs, repetition
ratio, n-gram LM entropy (:class:`NGramLM`) and the paper's evaluations (:mod:`.evaluate`).

One file per stage: :mod:`.trees`, :mod:`.forest` (merging), :mod:`.fsa` (building and squeezing
the FSA), :mod:`.word_lattice` (the frozen lattice and its queries; :mod:`.edit_distance` its
edit distance from a sentence; :mod:`.record` checks the JSON it is read from), :mod:`.build` (the whole
pipeline), :mod:`.msa`, :mod:`.lm`, :mod:`.groups` (groups read from a file), :mod:`.evaluate`.

This module only names them: each is imported from its module on first use (:data:`_LAZY`), so
that opening the package loads neither numpy nor spaCy: the command line reads its defaults here
(:data:`CHUNK_GROUPS`, :data:`INCREMENTAL_MIN_SIZE`).

Not for: aligning two sentences word by word (:mod:`paralign.aligners`) or paraphrase tables
from parallel text by pivoting (:mod:`paralign.pivot`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._moved import first_use_names
from ..errors import LatticeError

if TYPE_CHECKING:  # pragma: no cover - what a checker sees of the names imported on first use
    from .build import LatticeOptions, build_lattice, forest_to_builder, lattice_from_trees
    from .edit_distance import EditOp
    from .evaluate import (
        GroupLattices,
        GroupResult,
        IncrementalTable,
        evaluate_group,
        evaluate_groups,
        incremental,
        lattice_for_group,
        lattice_paraphrases,
        repetition_ratios,
        summarize,
    )
    from .forest import ForestNode, Merger
    from .fsa import LatticeBuilder, chain
    from .groups import annotate_groups, mtreference_groups, read_groups, sample_groups
    from .lm import NGramLM
    from .msa import msa_lattice, word_edit_distance
    from .trees import Tree, parse_tree, projective_heads
    from .word_lattice import Lattice, paraphrase_table

#: Groups a chunk of the batch runner on a Dask cluster (:func:`.evaluate.evaluate_groups`,
#: :func:`.evaluate.lattice_paraphrases` and `lattice stats|paraphrases --chunk-size`; in this
#: process each group is a chunk, so its result, and a progress bar, comes as soon as it is
#: measured). Bible verses take about 0.1 s a group to parse and measure: a chunk is seconds of
#: work, as align's 64 pairs are.
CHUNK_GROUPS = 16
#: The smallest group, in distinct sentences, of the table of added translations
#: (:class:`.evaluate.IncrementalTable`, `lattice stats --incremental-min-size`).
INCREMENTAL_MIN_SIZE = 4

#: The module (of this package) of each name imported on first use.
_LAZY: dict[str, str] = {
    "LatticeOptions": "build",
    "build_lattice": "build",
    "forest_to_builder": "build",
    "lattice_from_trees": "build",
    "EditOp": "edit_distance",
    "GroupLattices": "evaluate",
    "GroupResult": "evaluate",
    "IncrementalTable": "evaluate",
    "evaluate_group": "evaluate",
    "evaluate_groups": "evaluate",
    "incremental": "evaluate",
    "lattice_for_group": "evaluate",
    "lattice_paraphrases": "evaluate",
    "repetition_ratios": "evaluate",
    "summarize": "evaluate",
    "ForestNode": "forest",
    "Merger": "forest",
    "LatticeBuilder": "fsa",
    "chain": "fsa",
    "annotate_groups": "groups",
    "mtreference_groups": "groups",
    "read_groups": "groups",
    "sample_groups": "groups",
    "NGramLM": "lm",
    "msa_lattice": "msa",
    "word_edit_distance": "msa",
    "Tree": "trees",
    "parse_tree": "trees",
    "projective_heads": "trees",
    "Lattice": "word_lattice",
    "paraphrase_table": "word_lattice",
}


__getattr__ = first_use_names(__name__, {name: f"{__name__}.{module}" for name, module in _LAZY.items()}, globals())


def __dir__() -> list[str]:
    """The module's names and the ones imported on first use, so ``dir()`` and ``help()`` list them."""
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "CHUNK_GROUPS", "INCREMENTAL_MIN_SIZE", "EditOp", "ForestNode", "GroupLattices", "GroupResult", "IncrementalTable", "Lattice", "LatticeBuilder",
    "LatticeError", "LatticeOptions", "Merger", "NGramLM", "Tree", "annotate_groups",
    "build_lattice", "chain", "evaluate_group", "evaluate_groups", "forest_to_builder",
    "incremental", "lattice_for_group", "lattice_from_trees", "lattice_paraphrases", "msa_lattice",
    "mtreference_groups", "paraphrase_table", "parse_tree", "projective_heads", "read_groups",
    "repetition_ratios", "sample_groups", "summarize", "word_edit_distance",
]
