"""`paralign paraphrases`: the paraphrases of phrases in a table (Parquet or TSV)."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

from ..errors import ParalignError
from ._common import (
    add_format,
    add_output,
    counted,
    positive_int,
    rename_in_error,
    stdin_inputs,
    write_result,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "paraphrases",
        help="look up the paraphrases of a phrase in a table built by pivot or paraphrase-table",
        description="Print the paraphrases of each PHRASE in a table, best first (probability, then "
        "paraphrase), with the table's other columns. A Parquet table (written by `pivot -o X.parquet`) "
        "is read with a filter on the phrase, so only the row groups that can hold it are read; a TSV "
        "table (.gz allowed) is scanned. Phrases are matched exactly as the table holds them (tables "
        "built with --lowercase, the default, hold lower-case phrases).",
    )
    parser.add_argument("phrase", nargs="+", help="phrase(s) to look up, e.g. 'a man'")
    parser.add_argument("--table", required=True, help="table file: X.parquet, X.tsv or X.tsv.gz (- = a TSV table on stdin)")
    parser.add_argument("--top-k", type=positive_int, default=None, help="keep the k best paraphrases of each")
    add_format(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..tables import lookup

    with ExitStack() as stack:
        (table,), names = stdin_inputs(stack, [args.table])
        try:
            found = lookup(table, args.phrase, args.top_k)
        except ParalignError as exc:
            for copy, name in names.items():  # errors name '<stdin>', not its copy
                rename_in_error(exc, copy, name)
            raise
    result = {"table": args.table, "phrases": [{"phrase": p, "paraphrases": rows} for p, rows in found.items()]}
    return write_result(args, result, render)


def render(result: dict) -> str:
    lines = []
    for entry in result["phrases"]:
        rows = entry["paraphrases"]
        lines.append(f"{entry['phrase']}: {counted(len(rows), 'paraphrase')}" if rows else f"{entry['phrase']}: none")
        for row in rows:
            extra = "  ".join(f"{k}={v}" for k, v in row.items() if k not in ("paraphrase", "probability"))
            lines.append(f"  {row['probability']:.6g}\t{row['paraphrase']}" + (f"\t{extra}" if extra else ""))
    return "\n".join(lines)
