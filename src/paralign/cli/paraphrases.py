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
        "table (.gz allowed) is scanned, and its rows without a score (phrase TAB paraphrase, as "
        "serve --table and paraeval --source read them) are listed last, with '-' (null in JSON). White space in a PHRASE is collapsed, and a table that "
        "pivot or paraphrase-table built lower-cased (their default, recorded in the table) is "
        "asked for the lower-cased PHRASE (shown as 'looked_up_as'); any other table is matched "
        "exactly.",
    )
    parser.add_argument("phrase", nargs="+", type=_phrase, help="phrase(s) to look up, e.g. 'a man'")
    parser.add_argument("--table", required=True, help="table file: X.parquet, X.tsv or X.tsv.gz (- = a TSV table on stdin)")
    parser.add_argument("--top-k", type=positive_int, default=None, help="keep the k best paraphrases of each")
    add_format(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def _phrase(text: str) -> str:
    """argparse type: a phrase with a word in it (an empty one can match no table row)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a phrase must hold a word, not be empty or only spaces")
    return text


def run(args: argparse.Namespace) -> int:
    from ..paraphrases import as_held
    from ..tables import lookup

    with ExitStack() as stack:
        (table,), names = stdin_inputs(stack, [args.table])
        try:
            held = as_held(table, args.phrase)
            found = lookup(table, list(held.values()), args.top_k)
        except ParalignError as exc:
            for copy, name in names.items():  # errors name '<stdin>', not its copy
                rename_in_error(exc, copy, name)
            raise
    entries = []
    for typed, key in held.items():
        entry: dict = {"phrase": typed, "paraphrases": found[key]}
        if key != typed:
            entry["looked_up_as"] = key
        entries.append(entry)
    return write_result(args, {"table": args.table, "phrases": entries}, render)


def render(result: dict) -> str:
    lines = []
    for entry in result["phrases"]:
        rows = entry["paraphrases"]
        name = entry["phrase"] + (f" (as {entry['looked_up_as']!r})" if "looked_up_as" in entry else "")
        lines.append(f"{name}: {counted(len(rows), 'paraphrase')}" if rows else f"{name}: none")
        for row in rows:
            extra = "  ".join(f"{k}={v}" for k, v in row.items() if k not in ("paraphrase", "probability"))
            score = "-" if row["probability"] is None else f"{row['probability']:.6g}"
            lines.append(f"  {score}\t{row['paraphrase']}" + (f"\t{extra}" if extra else ""))
    return "\n".join(lines)
