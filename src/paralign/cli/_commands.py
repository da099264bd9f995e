"""The table of top-level commands: each command's name, the module that registers it and its
one-line help, in the order `paralign --help` lists them.

Why a table: `paralign --help`, `paralign` alone and a mistyped command only list the commands,
and importing every command module to read their one-line helps cost about 215 ms of CPU (the
modules import the aligners, the metrics, the corpora readers). From this table they import
none; `paralign CMD ...` imports CMD's module alone (:func:`paralign.cli.build_parser`), whose
`register` writes the command's full parser.

One truth: each module registers its command with :func:`add_command`, which takes the
one-line help from the command's row here, so the listing and the command's own parser cannot
differ; ``tests/cli/test_main.py`` builds every module's parser and checks each row against it
(name, module, order), and that every command module has its rows.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Command:
    """A top-level command: its `name` as typed, the module of :mod:`paralign.cli` that registers
    it (``evaluate_sts``; ``pivot`` holds ``word-align`` too) and its one-line `help`."""

    name: str
    module: str
    help: str


#: Every top-level command, in the order the modules (sorted by name) register them.
COMMANDS: tuple[Command, ...] = (
    Command("align", "align", "word-align sentence pairs (Sultan et al. 2014; --aligner contextual or exact)"),
    Command("cache", "cache",
            "see and empty the disk cache of parsed resources (PPDB, table files) and ParaEval's vectors"),
    Command("demo", "demo", "align the example pairs and score them (what `make demo` runs)"),
    Command("download", "download",
            "fetch WordNet, stop words and PPDB pairs via nltk.download (about 15 MB; needs internet)"),
    Command("evaluate-aligner", "evaluate_aligner", "align a gold file's pairs and score them (with timings)"),
    Command("evaluate-paraphrase", "evaluate_paraphrase",
            "train a paraphrase classifier on MSRP-format pairs, report test accuracy/P/R/F1"),
    Command("evaluate-sts", "evaluate_sts", "correlate alignment similarity with STS gold scores (SemEval TSV, "
            "STS Benchmark or a CSV/TSV with a header)"),
    Command("lattice", "lattice", "word lattices from multiple translations (Pang, Knight & Marcu 2003)"),
    Command("meta-eval", "meta_eval", "correlate BLEU/chrF/ParaEval/... with WMT21 human DA z-scores"),
    Command("paraeval", "paraeval", "ParaEval (Zhou et al. 2006): paraphrase-aware MT precision/recall/F"),
    Command("parametric", "parametric", "ParaMetric: phrase-pair alignment scores and paraphrase-table scores"),
    Command("paraphrase-table", "paraphrase_table",
            "build a paraphrase table by aligning equivalent English sentences (monolingual SMT)"),
    Command("paraphrases", "paraphrases", "look up the paraphrases of a phrase in a table (pivot, "
            "paraphrase-table, lattice paraphrases or your own)"),
    Command("pivot", "pivot", "build a paraphrase table by bilingual pivoting (Bannard & Callison-Burch 2005)"),
    Command("word-align", "pivot",
            "word-align a parallel corpus with eflomal (both directions, symmetrised), Pharaoh output"),
    Command("score-alignments", "score_alignments",
            "precision/recall/F1 (macro, micro), exact match and AER of word alignments"),
    Command("serve", "serve", "a local web page (and JSON API) to see alignments, similarity, ParaEval, lattices"),
    Command("similarity", "similarity", "alignment-based similarity of sentence pairs (one score per input pair)"),
    Command("tune-aligner", "tune_aligner", "grid-search ppdb_sim and w on a gold file (macro F1)"),
)


def module_of(name: str | None) -> str | None:
    """The module that registers the command `name` (as typed), or None for no command of that name."""
    return next((command.module for command in COMMANDS if command.name == name), None)


def modules() -> list[str]:
    """Every command module, each once, in the table's order."""
    return list(dict.fromkeys(command.module for command in COMMANDS))


def add_command(subparsers: argparse._SubParsersAction, name: str, **settings: Any) -> argparse.ArgumentParser:
    """`subparsers.add_parser(name, ...)` with the one-line help of `name`'s row in
    :data:`COMMANDS`, written once for `paralign --help` and the command's parser alike.
    `subparsers`: what ``add_subparsers`` returned."""
    command = next(command for command in COMMANDS if command.name == name)
    return subparsers.add_parser(name, help=command.help, **settings)
