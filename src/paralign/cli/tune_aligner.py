"""`paralign tune-aligner`: grid-search ppdb_sim and w on a dev gold file, as the paper did."""

from __future__ import annotations

import argparse

from ..aligners.evaluation import GRID, TuneResult, tune_aligner, tuned_on_test
from ..aligners.exact import ExactAligner
from ..errors import ConfigurationError, counted
from ._aligner_options import add_aligner_options, add_gold_options, loaded_aligner, on_gold
from ._cluster import cluster_runner
from ._commands import add_command
from ._common import add_format, add_output, progress, warn, warn_skipped_pairs, write_result
from ._lists import comma_list
from ._metavars import LIST


def grid_values(option: str, text: str | None) -> tuple[float, ...]:
    """The values of a grid option (`option`: ``--ppdb-grid``; None: not given, the paper's
    :data:`GRID`), warning of each value given again as it reads it: its items read by :func:`comma_list`
    (an empty item, ``,0.5``, or none, a usage error naming the option and the item: they were
    skipped silently), each a number in (0, 1] (else a usage error naming the item). A value given
    again (``0.9,0.9``, ``0.5,0.50``) is dropped, tried once (``tune_aligner`` would try it once
    too), with a warning naming both items: a repeat is wasted work, not a setting of its own, so
    the search goes on (``--refs A,A``, whose repeat would change the scores, is refused)."""
    if text is None:
        return GRID
    items = comma_list(option, text, "0.5,0.9")
    values: dict[float, int] = {}  # each value: the item that first gave it
    for k, item in enumerate(items, start=1):
        try:
            value = float(item)
        except ValueError:
            value = float("nan")
        if not 0 < value <= 1:  # NaN too
            raise ConfigurationError(f"argument {option}: item {k} of {len(items)}, {item!r}, is not a number in "
                                     "(0, 1]: give each grid value as one, e.g. 0.5,0.9")
        if value in values:
            first = values[value]
            warn(f"{option}: item {k}, {item}, repeats item {first}, {items[first - 1]}: tried once")
        else:
            values[value] = k
    return tuple(values)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "tune-aligner",
        description="Annotate a gold file once, then align it for every (ppdb_sim, w) in the grid "
        "(default {0.1, ..., 1.0} for both) and report the best macro F1 (a gold whose file name "
        "calls it a test split, as RTE2_test_M or gold.test.sure, is warned of first). The other aligner "
        "options are fixed for the whole search (--aligner contextual, or --preset contextual, tunes the "
        "contextual aligner's lexical pipeline; --aligner exact has no parameters and is a usage error; with no "
        "related-word source, --no-word-similarity, ppdb_sim changes no link and is tried at the preset's value alone, "
        "with a warning). The report ends with the best setting's aligner "
        "signature (what evaluate-aligner prints for it) and a signature of what the grid shares.",
        epilog="Output: one row per (ppdb_sim, w) of the grid. P, R, F1 = macro precision, recall "
        "and F1 in percent (evaluate-aligner's macro: per-pair P and R averaged, F1 of the two "
        "means); exact = the percent of pairs aligned exactly as the gold; <- best = the setting "
        "reported; = best = a setting with the same F1 (of tied settings the one nearest the "
        "paper's 0.9, 0.9 is reported); its setting = the evaluate-aligner options that give it "
        "(evaluate it on pairs not tuned on: test, not dev); best aligner = that setting's aligner signature; "
        "signature = what the grid shares.",
    )
    add_gold_options(parser)
    parser.add_argument("--ppdb-grid", default=None, metavar=LIST,
                        help="ppdb_sim values to try, comma-separated, each in (0, 1] (default: 0.1,0.2,...,1.0; "
                        "a value given twice is tried once, with a warning)")
    parser.add_argument("--w-grid", default=None, metavar=LIST,
                        help="w values to try, comma-separated, each in (0, 1] (default: 0.1,0.2,...,1.0; "
                        "a value given twice is tried once, with a warning)")
    add_aligner_options(parser, parameters=False)
    add_format(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def _setting(value: float) -> str:
    """A grid value as the table shows it: 2 decimals (0.10), or every decimal a value given
    with more has (0.125: at 2 decimals it read as 0.12, the row of another value)."""
    return f"{value:.2f}" if round(value, 2) == value else f"{value:g}"


def _render(result: TuneResult) -> str:
    best = result["best"]
    skipped = f" ({result['skipped']} skipped)" if result["skipped"] else ""  # as evaluate-aligner's
    lines = [f"{counted(result['pairs'], 'pair')}{skipped}, {result['links']} links; macro F1 by (ppdb_sim, w):",
             "ppdb_sim     w      P      R     F1  exact"]
    for row in result["grid"]:
        mark = "  <- best" if (row["ppdb_sim"], row["w"]) == (best["ppdb_sim"], best["w"]) else \
            "  = best" if round(row["f1"], 12) == round(best["f1"], 12) else ""
        lines.append(f"{_setting(row['ppdb_sim']):>8} {_setting(row['w']):>5} {100 * row['precision']:6.1f} "
                     f"{100 * row['recall']:6.1f} {100 * row['f1']:6.1f} {100 * row['exact']:6.1f}{mark}")
    tie = ""
    if best["tied"] > 1:
        others = best["tied"] - 1
        tie = (f" (tied with {others} other setting{'s' if others > 1 else ''}: of the tied, the "
               "one nearest the paper's 0.9, 0.9)")
    lines.append(f"best: ppdb_sim={best['ppdb_sim']} w={best['w']} F1={100 * best['f1']:.1f}{tie}")
    lines.append(f"its setting: paralign evaluate-aligner --gold FILE --ppdb-sim {best['ppdb_sim']} "
                 f"--w {best['w']} (and this run's other aligner options), on held-out pairs")
    lines.append(f"best aligner: {best['signature']}")  # what evaluate-aligner gives that setting
    lines.append(f"signature: {result['signature']}")  # what stays the same across the grid
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    ppdb_grid = grid_values("--ppdb-grid", args.ppdb_grid)  # before anything loads
    w_grid = grid_values("--w-grid", args.w_grid)
    aligner = loaded_aligner(args)
    if isinstance(aligner, ExactAligner):  # before the test-split warning and the gold's annotation
        raise ConfigurationError("--aligner exact has nothing to tune: the exact-match baseline has no "
                                 "parameters (tune-aligner searches the sultan aligner's ppdb_sim and w); "
                                 "score it with evaluate-aligner --aligner exact")
    on_test = tuned_on_test(args.gold)
    if on_test is not None:  # said before the search, which can take minutes
        warn(on_test)
    with cluster_runner(args):
        result = on_gold(args, lambda gold: tune_aligner(
            aligner, gold, args.gold_links, ppdb_grid, w_grid,
            workers=args.workers, limit=args.limit,
            # annotating the gold, then the grid tried (a repeated value once)
            progress=lambda steps: progress(steps, getattr(steps, "name", "grid")),
        ))
    write_result(args, result, _render, [w for w in result["warnings"] if w != on_test])  # said
    warn_skipped_pairs(result["skipped_rows"])
    return 0
