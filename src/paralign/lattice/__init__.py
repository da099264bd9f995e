"""Word lattices from multiple translations (Pang, Knight & Marcu 2003).

parse trees (:func:`parse_tree`) -> top-down merging with keyword checking (:class:`Merger`)
-> linearised, squeezed acyclic FSA (:class:`Lattice`); a progressive-MSA baseline
(:func:`msa_lattice`); path counts, generation, edit distance, paraphrase pairs, repetition
ratio, n-gram LM entropy (:class:`NGramLM`) and the paper's evaluations (:mod:`.evaluate`).

One file per stage: :mod:`.trees`, :mod:`.forest` (merging), :mod:`.fsa` (building and squeezing
the FSA), :mod:`.word_lattice` (the frozen lattice and its queries; :mod:`.edit_distance` its
edit distance from a sentence; :mod:`.record` checks the JSON it is read from), :mod:`.build` (the whole
pipeline), :mod:`.msa`, :mod:`.lm`, :mod:`.groups` (groups read from a file), :mod:`.evaluate`.

Not for: aligning two sentences word by word (:mod:`paralign.aligners`) or paraphrase tables
from parallel text by pivoting (:mod:`paralign.pivot`).
"""

from __future__ import annotations

from ..errors import LatticeError
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

__all__ = [
    "EditOp", "ForestNode", "GroupLattices", "GroupResult", "IncrementalTable", "Lattice", "LatticeBuilder",
    "LatticeError", "LatticeOptions", "Merger", "NGramLM", "Tree", "annotate_groups",
    "build_lattice", "chain", "evaluate_group", "evaluate_groups", "forest_to_builder",
    "incremental", "lattice_for_group", "lattice_from_trees", "lattice_paraphrases", "msa_lattice",
    "mtreference_groups", "paraphrase_table", "parse_tree", "projective_heads", "read_groups",
    "repetition_ratios", "sample_groups", "summarize", "word_edit_distance",
]
