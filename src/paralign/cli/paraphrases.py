"""`paralign paraphrases`: the paraphrases of phrases in a table (Parquet or TSV)."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

from ..errors import ConfigurationError, FormatError, ParalignError
from ..shown_text import shown_form
from ..textio import without_bom
from ._commands import add_command
from ._common import (
    add_encoding_errors,
    add_format,
    add_output,
    counted,
    input_name,
    is_stdin,
    open_in,
    positive_int,
    rename_in_error,
    stdin_given_once,
    stdin_inputs,
    undecodable_lines,
    warn,
    write_result,
)
from ._metavars import FILE, FILE_OR_NAME, PHRASE, N
from ._warnings import warn_item, warn_summary


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "paraphrases",
        description="Print the paraphrases of each PHRASE in a table, best first (score, then "
        "paraphrase), with the table's other columns. The score is the table's third column, named as the table "
        "names it (in JSON, and as score_column): probability, p(e2|e1), in a table pivot or paraphrase-table "
        "built; score, the number of groups giving the pair, in one lattice paraphrases wrote; score where no "
        "header names it. A Parquet table (written by `pivot -o FILE.parquet`) "
        "is read with a filter on the phrase, so only the row groups that can hold it are read; a TSV "
        "table (.gz allowed) is scanned, and its rows without a score (phrase TAB paraphrase, as "
        "serve --table and paraeval --table read them) are listed last, with '-' (null in JSON). Each paraphrase is "
        "listed once, as every command holds the table: of rows that match alike (a pair given twice, or in other "
        "case) the best, and never the phrase itself. A table that pivot or paraphrase-table built is asked "
        "for the PHRASE as they split and cased its text (the tokenizer and case they were given, recorded "
        "in the table: man's is looked up as man 's with the default regex tokenizer, and lower-cased), "
        "shown as 'looked_up_as'; one built from text tokenised beforehand (pivot --tokenizer whitespace or moses) "
        "is split at white space only: give the phrase tokenised as that text was (europe 's, not Europe's); in any other table (a user's) only white space is collapsed and the text "
        "read as it shows (NFC, invisible characters dropped), and the phrase matched without case, as serve, ParaEval, ParaMetric and the aligners match it (Cat finds "
        "the rows of cat and Cat, shown as the table writes them). Many phrases: --phrases FILE (one a line), or one a line on stdin when no PHRASE "
        "is given; they are looked up in one pass over the table, each once, in the order given, "
        "and an empty or undecodable line is reported with its number and skipped.",
    )
    parser.add_argument("phrase", nargs="*", type=_phrase, metavar=PHRASE,
                        help="phrase(s) to look up, e.g. 'a man' (none: --phrases, or stdin)")
    parser.add_argument("--phrases", metavar=FILE, default=None,
                        help="file of phrases, one a line (- = stdin; the default when no PHRASE is given)")
    parser.add_argument("--table", required=True, metavar=FILE_OR_NAME,
                        help="ppdb, wordnet (the built-in sources, named as every command's table and similarity "
                        "options name them; their rows are unscored: '-') or a table file: FILE.parquet, FILE.tsv or "
                        "FILE.tsv.gz (Parquet and gzip told by their data; - = a table on stdin), with :THRESHOLD to "
                        "keep the rows scored at least THRESHOLD (unscored ones too) as paraeval --table and serve "
                        "--table read PATH:THRESHOLD; PPDB's own file, given by its path, is ppdb: its pairs read "
                        "both ways, as the aligners, ParaEval and serve read them")
    parser.add_argument("--top-k", type=positive_int, default=None, metavar=N, help="keep the N best paraphrases of each")
    add_encoding_errors(parser)
    add_format(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def _phrase(text: str) -> str:
    """argparse type: a phrase with a word in it (an empty one, or one of characters that show
    nothing, which every table's key drops, can match no table row)."""
    if _shows_nothing(text):
        raise argparse.ArgumentTypeError("a phrase must hold a word, not be empty or only spaces")
    return text


def _shows_nothing(text: str) -> bool:
    """True when `text` is empty, white space or characters that show nothing (a zero-width
    space, a soft hyphen: :func:`~paralign.shown_text.shown_form`)."""
    return not shown_form(text).strip()


def phrases_of(args: argparse.Namespace, table_path: str) -> tuple[list[str], list[dict]]:
    """The phrases asked for: the PHRASE arguments, or --phrases FILE's lines (stdin when
    neither is given); and a record of each line of the file that holds no phrase (``file``,
    ``line``, ``reason``: the JSON's ``skipped_rows``, as `similarity` lists its bad lines)."""
    if args.phrase and args.phrases is not None:
        raise ConfigurationError("give phrases as arguments or with --phrases FILE, not both")
    if args.phrase:
        return list(args.phrase), []
    source = "-" if args.phrases is None else args.phrases
    stdin_given_once([f"--{name}" for name, path in (("phrases", source), ("table", table_path))
                      if is_stdin(path)])
    phrases, problems = [], []
    with open_in(source, args.encoding_errors) as handle:
        undecodable = undecodable_lines(handle)
        for number, line in enumerate(without_bom(handle), 1):
            text = line.rstrip("\r\n")
            if number in undecodable:
                problems.append({"file": input_name(source), "line": number, "reason": undecodable[number]})
            elif _shows_nothing(text):
                problems.append({"file": input_name(source), "line": number, "reason": "empty line, no phrase"})
            else:
                phrases.append(text)
    if problems and not phrases:
        raise FormatError(f"no phrase to look up: all {counted(len(problems), 'line')} empty or undecodable "
                          f"(first: {problems[0]['reason']})", source=input_name(source))
    return phrases, problems


def run(args: argparse.Namespace) -> int:
    from ..paraphrases import built_in_named, load_source, lookup_source, no_paraphrase_note
    from ..phrase_keys import lookup_held
    from ..tables import holds_rows, score_name, table_head
    from ._table_options import option_table_spec

    built_in = built_in_named(args.table)
    # PATH:THRESHOLD, as every command that reads a table takes it (checked before any phrase is read)
    table_path, threshold = (args.table, None) if built_in is not None else option_table_spec("--table", args.table)
    phrases, problems = phrases_of(args, table_path)
    for problem in problems:
        warn_item(f"{problem['file']}:{problem['line']}: {problem['reason']}")
    if built_in is not None:  # ppdb, wordnet (or PPDB's own file): as every command reads them
        held, found = lookup_source(load_source(built_in), phrases, args.top_k)
        score = "score"  # their rows are unscored, as a two-column table's
    else:
        with ExitStack() as stack:
            (table,), names = stdin_inputs(stack, [table_path])
            try:
                head = table_head(table)  # its header and record, read once for the lookup and the score's name
                held, found = lookup_held(table, phrases, args.top_k, threshold=threshold, head=head)
                score = score_name(head.names)  # what the table names its score: the key of it in each row
                if not any(found.values()) and not holds_rows(table, head):  # the wrong file, a failed run's
                    warn(f"--table {input_name(table_path)}: {no_paraphrase_note()} (no row), so every phrase has none")
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
    write_result(args, {"table": args.table, "score_column": score, "phrases": entries, "skipped_rows": problems},
                 render)
    if problems:  # as a batch command: 1 with --strict (a file with no phrase at all is an error)
        warn_summary(f"{input_name(args.phrases)}: {counted(len(problems), 'line')} with no phrase (reported above, "
                     "left out of the output)")
    return 1 if problems and args.strict else 0


def render(result: dict) -> str:
    """The text layout: a phrase's line, then one `score TAB paraphrase [TAB extra]` line per row
    (the score under the table's name for it, ``score_column``).
    A phrase or paraphrase holding a tab, line break or other control character (a Parquet
    table's cell can) is written escaped (:func:`~paralign.viz.terminal.safe`), so each row
    stays one line of the same columns; JSON has the exact text."""
    from ..viz.terminal import safe

    lines, key = [], result["score_column"]
    for entry in result["phrases"]:
        rows = entry["paraphrases"]
        name = safe(entry["phrase"]) + (f" (as {entry['looked_up_as']!r})" if "looked_up_as" in entry else "")
        lines.append(f"{name}: {counted(len(rows), 'paraphrase')}" if rows else f"{name}: none")
        for row in rows:
            extra = "  ".join(f"{k}={v}" for k, v in row.items() if k not in ("paraphrase", key))
            score = "-" if row[key] is None else f"{row[key]:.6g}"
            lines.append(f"  {score}\t{safe(row['paraphrase'])}" + (f"\t{safe(extra)}" if extra else ""))
    return "\n".join(lines)
