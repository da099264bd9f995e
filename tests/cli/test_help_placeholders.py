"""What ``--help`` shows for an option's value says what to type, in one vocabulary, and
docs/CLI.md, docs/api.md and the results pages write the options as the help does.

Without a ``metavar`` argparse shows the option's name upper-cased: ``--max-length MAX_LENGTH``,
``--workers WORKERS``, ``--threshold THRESHOLD``, ``--work-dir WORK_DIR``, ``-o OUTPUT``, while
docs/CLI.md wrote ``--workers N`` and ``-o FILE``, and the options that had one said the same
kind of value four ways (``--min-confidence P``, ``--kbest K``, ``--all LIMIT``,
``--align-chunk LINES``). Every placeholder is now one of :data:`paralign.cli._metavars.PLACEHOLDERS`.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from paralign.cli import build_parser
from paralign.cli._metavars import PLACEHOLDERS, N, X

ROOT = Path(__file__).resolve().parents[2]
CLI_MD = ROOT / "docs" / "CLI.md"
CLI_SOURCES = ROOT / "src" / "paralign" / "cli"

#: Options whose placeholder differs between commands, because the value does (option: why).
DIFFERENT_VALUES = {
    "--table": "`paraphrases` reads one table file (FILE); `paraeval`, `meta-eval` and `serve` also take a "
               "threshold (PATH[:THRESHOLD]); `parametric table` also the built-in ppdb or wordnet (NAME|...)",
    "--system": "`score-alignments` reads a file; `parametric align` also takes an aligner's name",
}

#: Values docs/CLI.md writes in capitals that are values, not placeholders: (option, value).
LITERAL_VALUES = {
    ("--refs", "A"), ("--refs", "B"),  # WMT21's reference sets are named A and B
    ("-i", "A"), ("-i", "B"),  # paraeval -i A B C: systems in files named A, B, C
    ("-o", "FILE.TSV.GZ"),  # a file name in capitals: its suffix is told without case
    ("--similarity", "T"), ("--table", "T"),  # a table named T, as its signature part then is (T~regex#HASH)
    ("--w", "Y"),  # tune-aligner's `its setting:` line: --ppdb-sim X --w Y, two numbers
    # docs/api.md: one English file A paired with two foreign files B and C; tables A and B side by side
    ("--english", "A"), ("--foreign", "B"), ("--foreign", "C"), ("--table", "A"), ("--table", "B"), ("--similarity", "A"),
}


def parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """("paralign", the top parser), then every command's and action's parser by its command line
    (``paralign lattice paths``)."""
    todo = [("paralign", build_parser())]
    while todo:
        name, parser = todo.pop(0)
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo += [(f"{name} {sub}", child) for sub, child in action.choices.items()]


def valued_actions() -> Iterator[tuple[str, argparse.Action]]:
    """(command line, action) for every argument that takes a value and shows in --help (not the
    hidden ones: sacrebleu's spellings, `_sacrebleu`)."""
    for name, parser in parsers():
        for action in parser._actions:
            if action.nargs != 0 and action.help != argparse.SUPPRESS:
                yield name, action


def shown_placeholder(action: argparse.Action) -> str | None:
    """The placeholder --help shows for `action`'s value: its metavar, else (None) its choices,
    else argparse's default (the dest, upper-cased for an option)."""
    if action.metavar is not None:
        assert isinstance(action.metavar, str), action  # no option takes a tuple of values
        return action.metavar
    if action.choices is not None:
        return None
    return action.dest.upper() if action.option_strings else action.dest


def help_placeholders() -> dict[str, set[str]]:
    """Option string -> the placeholders --help shows for it, in every command that has it."""
    found: dict[str, set[str]] = defaultdict(set)
    for _, action in valued_actions():
        if (shown := shown_placeholder(action)) is not None:
            for option in action.option_strings:
                found[option].add(shown)
    return found


def test_no_argument_shows_argparses_default_placeholder() -> None:
    """An option that takes a value names it (``--workers N``), not by its own name upper-cased
    (``--workers WORKERS``); a positional argument not by its dest (``[input]``)."""
    defaulted = [f"{name} {'/'.join(action.option_strings) or action.dest} {shown_placeholder(action)}"
                 for name, action in valued_actions()
                 if action.metavar is None and action.choices is None]
    assert not defaulted, "arguments showing argparse's placeholder, give them a metavar= of cli._metavars:\n" + \
        "\n".join(defaulted)


def test_every_placeholder_is_one_of_the_vocabulary() -> None:
    """Every placeholder shown is one of `cli._metavars.PLACEHOLDERS`: a count is N wherever it
    is, a threshold or weight X, a file FILE."""
    strays = sorted({f"{name} {'/'.join(action.option_strings) or action.dest} {shown}"
                     for name, action in valued_actions()
                     if (shown := shown_placeholder(action)) is not None and shown not in PLACEHOLDERS})
    assert not strays, "placeholders not in cli._metavars.PLACEHOLDERS:\n" + "\n".join(strays)


def literal_metavars(source: str) -> list[tuple[int, str]]:
    """(line, value) of every ``metavar="..."`` in `source` written as a string that is one of
    :data:`PLACEHOLDERS` (``metavar="FILE"``, where ``metavar=FILE`` says it is the vocabulary's)."""
    return [(node.value.lineno, node.value.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.keyword) and node.arg == "metavar" and isinstance(node.value, ast.Constant)
            and node.value.value in PLACEHOLDERS]


def test_literal_metavars() -> None:
    assert literal_metavars('p.add_argument("-o", metavar="FILE")\np.add_argument("--n", metavar=N)\n'
                            'p.add_argument("--z", metavar="Z")') == [(1, "FILE")]


def test_every_metavar_is_one_of_the_constants() -> None:
    """A command writes its placeholders as cli._metavars' constants (``metavar=FILE``), not as
    strings that happen to be the same (``metavar="FILE"``): align, similarity,
    evaluate-paraphrase, paraeval, cache and the top parser still did: a placeholder renamed in
    cli._metavars would have left them showing the old word."""
    written = sorted(f"{path.name}:{line}: metavar={value!r}" for path in CLI_SOURCES.glob("*.py")
                     for line, value in literal_metavars(path.read_text(encoding="utf-8")))
    assert not written, "write these metavars as the constants of cli._metavars:\n" + "\n".join(written)


#: A number's placeholder (N, X) written as the stem of a file's name: ``X.parquet``, ``X.tsv.gz``,
#: ``-o X.svg``, ``X-refB.seg.score``, ``X_ref-B.tsv`` (not ``N-fold``).
NUMBER_AS_STEM = re.compile(rf"(?<![\w.-])(?:{N}|{X})(?:\.[a-z]\w*|[_-]ref\w*)")


def test_no_help_writes_a_file_as_a_numbers_placeholder(monkeypatch) -> None:
    """A file's name is written with a file's placeholder (``FILE.parquet``, ``-o FILE.svg``, as
    ``FILE.html`` and ``FILE.work``), not with X, which the same help uses for a number
    (``--threshold X``): `paraphrases`, `pivot`, `paraeval`, `serve`, the aligner commands'
    --similarity, `lattice draw` and `lattice paraphrases` wrote ``X.parquet``/``X.tsv``/``X.svg``,
    `meta-eval --scores` ``X-refB.seg.score``; docs/CLI.md and the README so too."""
    monkeypatch.setenv("COLUMNS", "1000")  # a name is not split across lines
    found = sorted(f"{name}: {' '.join(stem)}" for name, parser in parsers()
                   if (stem := NUMBER_AS_STEM.findall(parser.format_help())))
    assert not NUMBER_AS_STEM.findall("10-fold N-fold cross-validation, --threshold X. X_1 N.")
    assert NUMBER_AS_STEM.findall("(X.parquet, X.tsv) -o X.svg X-refB.seg.score X_ref-B.tsv") == [
        "X.parquet", "X.tsv", "X.svg", "X-refB", "X_ref"]
    found += [f"{page.name}: {' '.join(stem)}" for page in (CLI_MD, ROOT / "README.md", ROOT / "docs" / "api.md")
              if (stem := NUMBER_AS_STEM.findall(page.read_text(encoding="utf-8")))]
    assert not found, "file names written with a number's placeholder (write FILE.parquet):\n" + "\n".join(found)


#: Library and command code whose messages and docstrings are held to the help's file placeholder
#: (the rest of src/ may still write ``X.tsv`` in places: metrics/, viz/; add each here once it says FILE).
MESSAGE_SOURCES = ("lattice/*.py", "cli/lattice.py", "cli/_lattice_input.py", "aligners/sultan/*.py",
                   "tables.py", "table_writer.py", "textio.py", "paraphrases.py", "paraphrase_table.py",
                   "cli/paraphrases.py", "corpora/*.py")


def test_no_message_writes_a_file_as_a_numbers_placeholder() -> None:
    """The Sultan aligner's word-similarity error said `a table file (X.parquet, X.tsv or
    X.tsv.gz)` and `lattice paraphrases -o t.parquet` `give -o X.tsv or X.tsv.gz`, where `--help`
    writes FILE.parquet; the lattice's docstrings `--lattice F`. Each names a file as the help does."""
    package = ROOT / "src" / "paralign"
    found = sorted(f"{path.relative_to(package)}:{number}: {' '.join(stem)}"
                   for pattern in MESSAGE_SOURCES for path in package.glob(pattern)
                   for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                   if (stem := NUMBER_AS_STEM.findall(line)))
    assert not found, "file names written with a number's placeholder (write FILE.tsv):\n" + "\n".join(found)


def test_an_option_shows_one_placeholder_in_every_command() -> None:
    """``--seed N``, ``-o FILE``, ``--max-length N`` in every command that has them, but for the
    options whose value differs (:data:`DIFFERENT_VALUES`)."""
    several = {option: sorted(shown) for option, shown in help_placeholders().items()
               if len(shown) > 1 and option not in DIFFERENT_VALUES}
    assert not several, f"options shown with different placeholders: {several}"
    assert all(len(help_placeholders()[option]) > 1 for option in DIFFERENT_VALUES), "an exception no longer needed"


def written_forms(placeholder: str) -> set[str]:
    """The ways a page may write `placeholder`: as it is, with an optional part (``[...]``) left
    out or written without its brackets, or one alternative of ``A|B`` so."""
    alternatives = [placeholder, *placeholder.split("|")] if "|" in placeholder else [placeholder]
    forms = set()
    for alternative in alternatives:
        forms |= {alternative, re.sub(r"\[[^\]]*\]", "", alternative), alternative.replace("[", "").replace("]", "")}
    return forms


def test_written_forms() -> None:
    assert written_forms("[NAME=]FILE") == {"[NAME=]FILE", "FILE", "NAME=FILE"}
    assert {"PATH", "PATH:THRESHOLD", "NAME"} <= written_forms("NAME|PATH[:THRESHOLD]")
    assert {"NAME", "DIR", "NAME|DIR"} <= written_forms("NAME|DIR")


#: `--option VALUE` (or `--option=VALUE`) in a page's code, VALUE in capitals (``FILE``,
#: ``PATH:THRESHOLD``, ``[NAME=]FILE``, ``NAME|DIR``, ``FILE.html``).
WRITTEN = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)[ =](\[?[A-Z][A-Z0-9_]*(?:[\[\]|:=.][A-Za-z0-9_]*)*\]?)(?![\w-])")


def code_of(text: str) -> list[str]:
    """A Markdown page's code: each fenced block's lines, and each inline `span` (which may
    run across a line break)."""
    blocks = re.findall(r"```[\w-]*\n(.*?)```", text, re.S)
    prose = re.sub(r"```[\w-]*\n.*?```", "", text, flags=re.S)
    return [line for block in blocks for line in block.splitlines()] + re.findall(r"`([^`]+)`", " ".join(prose.split()))


def written_in_code(line: str) -> list[tuple[str, str]]:
    """(option, value as written) for every ``--option VALUE`` in a line (of source, or of a
    page's code), VALUE in capitals, an unmatched closing bracket (``[--top-k N]``) and a closing
    stop left out."""
    found = []
    for option, value in WRITTEN.findall(line):
        value = value.rstrip(".:")
        if value.endswith("]") and value.count("[") < value.count("]"):
            value = value[:-1]
        found.append((option, value))
    return found


def written_placeholders(text: str) -> list[tuple[str, str]]:
    """(option, value as written) for every `--option VALUE` in the code of `text`, VALUE in
    capitals, an unmatched closing bracket (``[--top-k N]``) and a closing stop left out; not a
    file's name (``-o X.parquet``, ``--data FNWN.test.tsv``), unless a placeholder (``FILE.html``)."""
    return [(option, value) for code in code_of(text) for option, value in written_in_code(code)
            if value in PLACEHOLDERS or not re.search(r"[a-z]", value)]  # -o X.parquet: a file's name


def test_written_placeholders() -> None:
    text = ("`paralign paraphrases PHRASE... --table FILE [--top-k N]`, `--scores NAME=FILE`, `-o FILE.`\n"
            "`-o X.tsv.gz`, `--report FILE.html`\n"
            "```\npivot --workers=N --threshold X\n```\n`--format json`, `--device cuda:N`")
    assert written_placeholders(text) == [("--workers", "N"), ("--threshold", "X"), ("--table", "FILE"),
                                          ("--top-k", "N"), ("--scores", "NAME=FILE"), ("-o", "FILE"),
                                          ("--report", "FILE.html")]


#: The pages that write command lines: docs/CLI.md, docs/api.md and the results (RESULTS.md and
#: the pages it joins, whose commands a reader copies to rerun a figure).
DOC_PAGES = [CLI_MD, ROOT / "docs" / "api.md", ROOT / "docs" / "RESULTS.md", *sorted((ROOT / "docs" / "results").glob("*.md"))]


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda page: page.name)
def test_docs_write_each_option_with_its_help_placeholder(page: Path) -> None:
    """docs/CLI.md writes an option with a value as its --help does (``--workers N``, ``-o FILE``,
    ``--table PATH:THRESHOLD`` for ``PATH[:THRESHOLD]``), in some command that has it: it wrote
    ``--lattice F`` and ``--lattice JSON``, ``--seed S``, ``--source F``, ``--model REPORT``.
    So do docs/api.md and the results pages, which wrote ``--model REPORT``, ``--train F``,
    ``--workers W``, ``--min-confidence P``, ``--pair P``, ``--config C``, ``-i SYS``.
    Values in capitals that are values (``--refs A``) are :data:`LITERAL_VALUES`."""
    shown = help_placeholders()
    written = written_placeholders(page.read_text(encoding="utf-8"))
    wrong = sorted({f"{option} {value} (--help: {' or '.join(sorted(shown[option]))})"
                    for option, value in written
                    if option in shown and (option, value) not in LITERAL_VALUES
                    and not any(value in written_forms(placeholder) for placeholder in shown[option])})
    assert page != CLI_MD or len(written) >= 30, "the page's options were not found: see WRITTEN"
    assert not wrong, f"{page.name} writes these options with another placeholder than --help shows:\n" + \
        "\n".join(wrong)


@pytest.mark.parametrize("command", ["align", "pivot", "paraeval", "lattice paths"])
def test_the_help_shows_the_placeholders(command: str, capsys) -> None:
    """What a user reads: ``paralign pivot --help`` shows ``--threshold X``, not ``THRESHOLD``."""
    from paralign.cli import main

    with pytest.raises(SystemExit):
        main([*command.split(), "--help"])
    out = capsys.readouterr().out
    assert "-o FILE" in out or "--output FILE" in out
    assert not re.search(r"--[\w-]+ (MAX_LENGTH|WORKERS|THRESHOLD|TOP_K|CHUNK_SIZE|WORK_DIR|OUTPUT|SEED)\b", out)


@pytest.mark.parametrize("columns", ["40", "200"])
def test_every_help_renders_at_any_width(columns: str, monkeypatch) -> None:
    """A placeholder with brackets (``PATH[:THRESHOLD]``, ``[NAME=]FILE``) is one argparse's usage
    wrapping splits by its own brackets: every --help renders, narrow or wide, and shows them whole."""
    monkeypatch.setenv("COLUMNS", columns)
    for name, parser in parsers():
        text = parser.format_help()
        assert name.split()[-1] in text
        shown = {shown_placeholder(action) for action in parser._actions
                 if action.nargs != 0 and action.help != argparse.SUPPRESS}
        assert all(placeholder in text for placeholder in shown if placeholder), name


#: Library and command code whose messages and docstrings write an option with its --help
#: placeholder (``--train FILE``, ``--model FILE``); the rest of src/ is not held to it yet (add each
#: part here once it is).
OPTION_SOURCES = ("similarity/*.py", "cli/similarity.py", "cli/evaluate_sts*.py", "cli/evaluate_paraphrase*.py",
                  "corpora/sts.py", "corpora/msrp.py")


def test_written_in_code() -> None:
    assert written_in_code('"then similarity --model REPORT", (--train F.) [--top-k N]') == [
        ("--model", "REPORT"), ("--train", "F"), ("--top-k", "N")]


def test_messages_write_each_option_with_its_help_placeholder() -> None:
    """The similarity messages told a user to run ``evaluate-sts --signal hybrid --train F`` and
    ``similarity --model REPORT``, where ``--help`` shows ``--train FILE`` and ``--model FILE``:
    the code of :data:`OPTION_SOURCES` writes an option as some command's help shows it."""
    shown = help_placeholders()
    package = ROOT / "src" / "paralign"
    wrong = sorted(f"{path.relative_to(package)}:{number}: {option} {value} (--help: {' or '.join(sorted(shown[option]))})"
                   for pattern in OPTION_SOURCES for path in package.glob(pattern)
                   for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                   for option, value in written_in_code(line)
                   if option in shown and not any(value in written_forms(placeholder) for placeholder in shown[option]))
    assert not wrong, "options written with another placeholder than --help shows:\n" + "\n".join(wrong)
