"""`paralign score-alignments`: score a system's word alignments against a gold file."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

from ..corpora import FORMATS
from ..metrics.alignment_scores import LINK_SETS, score_files
from ._bootstrap_options import add_bootstrap_options, add_macro_confidence, check_bootstrap_options
from ._commands import add_command
from ._common import (
    add_format,
    add_output,
    shown_names,
    stdin_once,
    warn_each,
    write_result,
)
from ._metavars import FILE
from ._render import SCORES_LEGEND, render_scores


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "score-alignments",
        description="Score system alignments against gold ones, paired by position. Formats "
        "(jacana JSON, JSONL, GIZA txt, MultiMWA TSV, Pharaoh lines) are detected from the files. "
        "A pair with a bad gold or system item is left out on both sides and reported (warnings "
        "on stderr; skipped_rows in JSON); the other pairs are scored. A system file whose links "
        "match the gold much more often read 1 lower, or swapped, than as written is named in a "
        "warning (1-based? target-source?; warnings in JSON), and so is one with pairs of other "
        "token counts than the gold's, or links past its sentences (tokenised otherwise than the "
        "gold?), or with possible links scored against the gold's sure ones (all a system's links "
        "are its predictions: a gold scored against itself has P under 100 under --gold-links sure). "
        "As in jacana's published "
        "figures, a pair with no system links has precision 100 (nothing claimed) and a pair with "
        "no gold links recall 100 (nothing to find).",
        epilog=SCORES_LEGEND,
    )
    parser.add_argument("--gold", required=True, metavar=FILE, help="gold alignment file")
    parser.add_argument("--system", default="-", metavar=FILE,
                        help="system alignment file (default: stdin, e.g. Pharaoh lines)")
    parser.add_argument("--gold-links", choices=LINK_SETS, default="sure",
                        help="gold links to score against (default: %(default)s)")
    parser.add_argument("--gold-possible", default=None, metavar=FILE,
                        help="file giving the possible links of the gold: a jacana sure+poss file "
                        "for a jacana gold (default: NAME.sure+poss.json beside a jacana gold NAME.sure.json or "
                        "NAME.json; a gold NAME.sure+poss.json takes its sure links from NAME.sure.json or NAME.json "
                        "beside it), "
                        "Pharaoh lines for a Pharaoh gold (its possible links, line by line; they "
                        "may repeat the sure ones); other formats carry their own")
    parser.add_argument("--gold-format", choices=sorted(FORMATS), default=None)
    parser.add_argument("--system-format", choices=sorted(FORMATS), default=None)
    parser.add_argument("--per-pair", action="store_true",
                        help="also each pair's counts and scores (text: a table after the "
                             'totals; json: "per_pair")')
    add_bootstrap_options(parser, "95%% bootstrap confidence of macro F1, resampling the pairs: mean ± half-width")
    add_format(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def _render(result: dict) -> str:
    return render_scores(result) + f"\nsignature: {result['signature']}"


def run(args: argparse.Namespace) -> int:
    from ..signature import file_name_part

    check_bootstrap_options(args)
    if args.gold_possible is not None:  # signed possible:FILE#HASH
        file_name_part(args.gold_possible, "possible:FILE#HASH", option="--gold-possible")
    with ExitStack() as stack:
        paths, names = stdin_once(stack, gold=[args.gold], system=[args.system])
        (gold,), (system,) = paths["gold"], paths["system"]
        scores = score_files(gold, system, args.gold_links, gold_format=args.gold_format,
                             system_format=args.system_format, possible_path=args.gold_possible,
                             system_name=names.get(system))
    result, skipped = scores.to_dict(per_pair=args.per_pair), [str(s) for s in scores.skipped]
    result, skipped = shown_names(result, names), shown_names(skipped, names)
    if args.confidence:
        add_macro_confidence(args, result, scores.per_pair)
    write_result(args, result, _render, result["warnings"])
    warn_each(skipped)
    return 0
