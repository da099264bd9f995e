"""The `paralign` command line: one module per subcommand in this package, each listed in
:data:`._commands.COMMANDS` (name, module, one-line help).

Each module `paralign.cli.<name>` (not starting with `_`) defines
``register(subparsers) -> None``, which adds its subcommand(s) and sets ``func`` to a function
``(args) -> int``. The work itself lives in library functions that tests call directly.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from .. import __version__
from ..errors import ConfigurationError, InputFileError, ParalignError
from ._command_line import (
    finite_numbers,
    output_names,
    outputs_apart,
    stdin_arguments,
    values_joined,
)
from ._commands import COMMANDS, module_of, modules
from ._common import stdin_given_once, stdout_for
from ._metavars import COMMAND
from ._stderr import Parser, say, warnings_shown
from ._warnings import capped_warnings


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command's, or with `command` (as typed: ``evaluate-sts``)
    only the parser of the module that registers it (:data:`._commands.COMMANDS`: `word-align`'s
    is pivot.py; `main` passes the command of its arguments): each command module imports what
    its options need (the aligners, the metrics, the corpora readers), and `paralign align
    --help` imported all 18 modules for one. Any other word (a typo) gets every command."""
    parser = _top_level()
    subparsers = parser.add_subparsers(dest="command", metavar=COMMAND)
    one = module_of(command)
    for name in [one] if one is not None else modules():
        importlib.import_module(f"{__name__}.{name}").register(subparsers)
    return parser


def listing_parser() -> argparse.ArgumentParser:
    """The top-level parser with every command's name and one-line help from the table
    (:data:`._commands.COMMANDS`) and no command's options: all that `paralign --help`,
    `paralign` alone and a mistyped command show, with no command module imported (they cost
    about 215 ms of CPU). Its help is :func:`build_parser`'s, word for word."""
    parser = _top_level()
    subparsers = parser.add_subparsers(dest="command", metavar=COMMAND)
    for command in COMMANDS:
        subparsers.add_parser(command.name, help=command.help)
    return parser


def _top_level() -> Parser:
    """`paralign` itself: its description and --version, no command yet."""
    parser = Parser(prog="paralign", description="Paraphrase-aware comparison of English text.")
    parser.add_argument("--version", action="version", version=f"paralign {__version__}")
    return parser


def os_error_message(exc: OSError) -> str:
    """`FILE: reason` for an OSError (no errno jargon, no traceback)."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename is not None else reason


def _command(args: argparse.Namespace) -> str:
    """The command as typed, for messages: `lattice stats`, not just `lattice`."""
    words = [args.command, getattr(args, "lattice_command", None), getattr(args, "parametric_command", None),
             getattr(args, "cache_command", None)]
    return " ".join(word for word in words if word)


def _parser_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The (sub)parser of the command as typed: `paralign lattice stats`'s, not `paralign`'s."""
    while True:
        chosen = [action.choices[name] for action in parser._actions  # noqa: SLF001 - argparse has no API
                  if isinstance(action, argparse._SubParsersAction)  # noqa: SLF001
                  and (name := getattr(args, action.dest, None)) in action.choices]
        if not chosen:
            return parser
        parser = chosen[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `paralign` console script. Every line it prints on stderr (errors here,
    warnings, argparse's usage errors, Python's warnings) goes through `_stderr.shown`: control
    characters and bidi controls in what it quotes are written as escapes."""
    argv = values_joined(sys.argv[1:] if argv is None else argv)  # ``--table -:0.5`` read as ``--table=-:0.5``
    command = _command_named(argv)
    known = module_of(command) is not None
    parser = build_parser(command) if known else listing_parser()
    args, unknown = parser.parse_known_args(argv)
    if not known and args.command is not None:  # after an option: `paralign --bad align`
        parser = build_parser(args.command)
        args, unknown = parser.parse_known_args(argv)
    if unknown:  # the command's own usage, not the top-level one that says nothing of its options
        _parser_of(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    with warnings_shown(), _terminated_as_interrupted():
        return _run(args, argv, _parser_of(parser, args))


def _command_named(argv: Sequence[str]) -> str | None:
    """The command a command line names, its first argument, or None for none or an option
    (``paralign``'s own, --help and --version, which list every command or none)."""
    return argv[0] if argv and not argv[0].startswith("-") else None


class Terminated(KeyboardInterrupt):
    """SIGTERM heard: raised in the main thread as Ctrl-C's KeyboardInterrupt is, so that it
    unwinds the same way (a batch's ``except Exception`` does not take it for an item's error)."""


@contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM (``kill``, ``timeout``, a batch system's time limit, ``docker stop``) ends a run as
    Ctrl-C does: the local cluster and eflomal are stopped, no ``-o`` file is left, status 143.
    Without it Python died on the spot: its Dask workers and eflomal ran on, orphaned, to the end
    of their work (28 s after the kill on Multi30k), and multiprocessing warned of leaked
    semaphores. Only from the main thread, and only over the default action: a program that
    calls :func:`main` with a handler of its own keeps it."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Terminated

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run(args: argparse.Namespace, argv: Sequence[str] | None, parser: argparse.ArgumentParser | None = None) -> int:
    """Run the parsed command; each error it raises as one `paralign CMD: error: ...` line."""
    try:
        finite_numbers(args)
        given = sys.argv[1:] if argv is None else list(argv)
        stdin_given_once(stdin_arguments(given, parser))
        outputs_apart(args, given)
        output_names(args)
        with stdout_for(args), capped_warnings():  # its bad items' count told before an error
            return int(args.func(args) or 0)
    except InputFileError as exc:  # a path that cannot be opened is a usage error, like argparse's
        say(f"paralign {_command(args)}: error: {exc}")
        return 2 if exc.cannot_open else 1
    except ConfigurationError as exc:  # an option or setting that cannot work: a usage error
        say(f"paralign {_command(args)}: error: {exc}")
        return 2
    except ParalignError as exc:
        say(f"paralign {_command(args)}: error: {exc}")
        return 1
    except MemoryError as exc:  # e.g. numpy refusing a huge array (--resamples 100000000)
        reason = str(exc) or "an input or a setting (such as --resamples) is too large for this machine"
        say(f"paralign {_command(args)}: error: out of memory: {reason}")
        return 1
    except BrokenPipeError:  # pragma: no cover - e.g. `paralign ... | head`
        return 0
    except OSError as exc:  # a safety net: readers should raise InputFileError naming the file
        say(f"paralign {_command(args)}: error: {os_error_message(exc)}")
        return 1
    except Terminated:
        say(f"paralign {_command(args)}: terminated (SIGTERM)")
        _no_last_collection()
        return 143
    except KeyboardInterrupt:  # pragma: no cover
        _no_last_collection()
        return 130


def _no_last_collection() -> None:
    """An interrupted run's process ends without the garbage collection Python runs as it
    exits: the objects alive when it starts exiting are frozen (``gc.freeze``, the first exit
    handler to run) and freed with the process. After a local Dask cluster that collection
    took 1.4 to 2.6 s of CPU on a loaded machine, most of the time SIGTERM or Ctrl-C took to
    end `align --workers 2` once its work had stopped. Results and ``-o`` files are closed
    before this (an interrupted ``-o`` is removed), and the other exit handlers (atexit's,
    ``weakref.finalize``'s) still run. Registered once a process however often it is called
    (unregistered first)."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
