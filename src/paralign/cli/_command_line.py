"""Checks of the whole command line, which `paralign.cli.main` runs before any command: number
options that are not finite, stdin given to more than one input (:func:`stdin_arguments`; the
check itself is :func:`._common.stdin_given_once`), an output that is an input or another output,
an -o whose suffix names another format than the command writes (:func:`output_names`).

Not for: what one command checks of its own options (its module, or the module of an option group
several commands share: :mod:`._aligner_options`, :mod:`._similarity_options`, ...), reading
inputs and writing outputs (:mod:`._common`).

Also the one rewrite of the command line before argparse reads it (:func:`values_joined`).
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Iterator, Mapping, Sequence

from ..errors import ConfigurationError
from ..textout import Writes, check_output_name
from ._common import is_std, is_stdin


def finite_numbers(args: argparse.Namespace) -> None:
    """ConfigurationError (a usage error) for a number option given as NaN or inf: float()
    accepts them, and a NaN threshold or weight would silently give an empty or wrong result."""
    for key, value in sorted(vars(args).items()):
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigurationError(f"argument --{key.replace('_', '-')}: {value} is not a finite number")


#: How a value that argparse would take for an option starts: stdin with a threshold (``-:0.5``).
STDIN_SPEC = "-:"


def values_joined(argv: Sequence[str]) -> list[str]:
    """`argv` with each long option followed by a value that starts ``-:`` (``--table -:0.5``,
    stdin with a threshold) written as one argument, ``--table=-:0.5``, which argparse reads.

    Why: argparse takes an argument that starts with '-' for an option unless it is a negative
    number or holds a space (``ArgumentParser._parse_optional``), so ``--table -:0.5`` was
    "argument --table: expected one argument", though no option starts ``-:``. A flag that takes
    no value given it so is told argparse's "ignored explicit argument '-:0.5'"; after ``--``
    every argument is positional and is left as it is."""
    joined: list[str] = []
    argv = list(argv)
    for k, token in enumerate(argv):
        if token == "--":
            return joined + argv[k:]
        if joined and joined[-1].startswith("--") and "=" not in joined[-1] and token.startswith(STDIN_SPEC):
            joined[-1] = f"{joined[-1]}={token}"
        else:
            joined.append(token)
    return joined


#: Flags whose value is an output (or a folder), where '-' is stdout, not stdin.
OUTPUT_FLAGS = frozenset({"-o", "--output", "--report", "--tokens-output", "--work-dir"})


def stdin_arguments(argv: Sequence[str], parser: argparse.ArgumentParser | None = None) -> list[str]:
    """The arguments of a command line that give stdin ('-' or /dev/stdin) as an input, each
    named for a message as the option it is given to, as typed (``-i``, ``--gold``), or as the
    positional argument it is (``the FILE argument``). `parser`, the command's, says how many
    values each option takes, so ``-i - -`` is -i's twice (``nargs="+"``), not -i's and a
    positional one's; without it an option takes one."""
    takes = _values_taken(parser)
    found = []
    flag = ""  # the option whose values come next
    left: int | None = 0  # how many more it takes (None: any number)
    options = True  # before a '--'
    for token in argv:
        if options and token == "--":
            options, flag, left = False, "", 0
            continue
        if options and _is_option(token):
            name, sep, value = token.partition("=") if token.startswith("--") else (token, "", "")
            flag, left = ("", 0) if sep else (name, takes.get(name, 1))
            if sep and is_stdin(value) and name not in OUTPUT_FLAGS:
                found.append(name)
            continue
        owner = flag if left != 0 else ""
        left = left - 1 if left else left
        if is_stdin(token) and owner not in OUTPUT_FLAGS:
            found.append(owner or _positional_name(parser))
    return found


def _is_option(token: str) -> bool:
    """Whether argparse reads `token` as an option: it starts with '-' and is not '-' alone nor a negative number."""
    return token.startswith("-") and token != "-" and not re.fullmatch(r"-\d+|-\d*\.\d+", token)


def _values_taken(parser: argparse.ArgumentParser | None) -> dict[str, int | None]:
    """How many values each option string of `parser` takes (None: any number, ``nargs="+"``)."""
    if parser is None:
        return {}
    taken: dict[str, int | None] = {}
    for action in parser._actions:  # noqa: SLF001 - argparse has no API for its options
        nargs = action.nargs
        count = nargs if isinstance(nargs, int) else None if nargs in ("+", "*", argparse.REMAINDER) else 1
        for option in action.option_strings:
            taken[option] = count
    return taken


def _positional_name(parser: argparse.ArgumentParser | None) -> str:
    """How a message names a positional argument of `parser`'s command: ``the FILE argument`` when it has one."""
    positionals = [action for action in (parser._actions if parser is not None else [])  # noqa: SLF001
                   if not action.option_strings and not isinstance(action, argparse._SubParsersAction)]  # noqa: SLF001
    if len(positionals) == 1:
        metavar = positionals[0].metavar
        return f"the {metavar if isinstance(metavar, str) else positionals[0].dest.upper()} argument"
    return "a positional argument"


#: The parsed options that name an output file (flag as messages show it, argparse dest).
OUTPUT_FILES = (("-o", "output"), ("--report", "report"), ("--tokens-output", "tokens_output"))
#: Of those, the ones that name a prefix, and the suffixes of the files written under it.
OUTPUT_PREFIXES = {"tokens_output": (".src", ".tgt")}  # word-align's PREFIX.src, PREFIX.tgt


def outputs_apart(args: argparse.Namespace, argv: Sequence[str]) -> None:
    """ConfigurationError (a usage error, before any work) when an output file (-o, --report,
    the files of --tokens-output PREFIX) is a file the command line names as an input, or two
    outputs are one file.

    Why: an output is written under a temporary name and renamed onto its path when complete
    (`open_out`), so an input given again as -o was read whole and then replaced by the scores,
    and a --report equal to -o replaced the other output. Inputs are every other argument that
    is an existing regular file: as given, after ``--flag=``, the path of a ``PATH:THRESHOLD``
    table, or the files of a glob a command expands itself (``paraeval -i 'hyp*.txt'``)."""
    outputs = [(flag, str(value) + suffix) for flag, dest in OUTPUT_FILES
               if (value := getattr(args, dest, None)) is not None and not is_std(value)
               for suffix in OUTPUT_PREFIXES.get(dest, ("",))]
    if not outputs:
        return
    for k, (flag, value) in enumerate(outputs):
        for other_flag, other in outputs[:k]:
            if os.path.abspath(value) == os.path.abspath(other) or _same_file(value, other):
                raise ConfigurationError(f"{other_flag} and {flag} name one file, {value}: the second "
                                         "would replace the first; give two files")
    for given, path in _argument_files(argv):
        for flag, value in outputs:
            if _same_file(value, path):
                raise ConfigurationError(f"{flag} {value}: the command reads that file ({given}); "
                                         "writing there would replace the input: give another output file")


def _same_file(a: str, b: str) -> bool:
    """True when both paths exist and are one regular file."""
    try:
        return os.path.isfile(a) and os.path.samefile(a, b)
    except OSError:
        return False


def _argument_files(argv: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(argument as given, existing file) for every argument of `argv` that is not an output
    flag or its value (see :func:`outputs_apart`)."""
    import glob

    for k, token in enumerate(argv):
        if token in OUTPUT_FLAGS or (k and argv[k - 1] in OUTPUT_FLAGS):
            continue
        if token.startswith("--"):
            flag, sep, token = token.partition("=")
            if not sep or flag in OUTPUT_FLAGS:
                continue
        elif token.startswith("-o") and len(token) > 2:  # -oFILE
            continue
        candidates = [token, token.rpartition(":")[0]]
        if glob.has_magic(token) and not os.path.exists(token):  # as paraeval reads -i
            candidates += glob.glob(token)
        for path in candidates:
            if path and os.path.isfile(path):
                yield token, path


#: What -o holds when the command's parser says nothing else (`add_output`'s `writes`): a text
#: report, or with --format json a JSON document.
REPORTS: Writes = {"text": ("text", "a text report"), "json": ("JSON", "a JSON report")}
#: The `writes` of an -o whose suffix says what is written (`lattice draw`): no name is another format's.
BY_SUFFIX: Writes = {}


def output_names(args: argparse.Namespace) -> None:
    """ConfigurationError (a usage error, before any work) when -o's suffix names another format
    than the command writes there (:func:`paralign.textout.check_output_name`; the parser's
    defaults say what: `output_writes`, and suffixes refused whatever is written:
    `output_refused`). A --report's name is checked the same way when it is parsed."""
    output = getattr(args, "output", None)
    writes = getattr(args, "output_writes", None)
    if is_std(output) or writes is BY_SUFFIX:
        return
    refused: Mapping[str, str] = getattr(args, "output_refused", None) or {}
    check_output_name("-o", str(output), REPORTS if writes is None else writes, getattr(args, "format", None), refused)
