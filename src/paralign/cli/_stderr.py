"""What the CLI writes on stderr, safe to show on a terminal: every error, warning and notice goes
through :func:`shown`, which writes control characters (C0, DEL and C1: category Cc) and bidi
controls as escapes (``\\x1b``, ``\\u202e``), as :func:`paralign.viz.terminal.safe` writes a
token of the ``pretty`` view, but keeps line breaks and tabs (a message of several lines; a tab
moves no cursor anywhere it matters).

Why: messages quote what the user gave: a file name, an id, a bad line's field, a phrase. MT
output, a corpus or a file name can hold ``ESC [ 2 J`` (clears the screen), a C1 CSI (U+009B, the
same in one character), a BEL, or an RLO (U+202E) that reorders the rest of the line where the
terminal applies bidi; printed as they came they drove the user's terminal. git and coreutils
escape such characters in what they print about user data, as this does.

Only the printing escapes: a library exception keeps the exact text (a Python caller gets what
the file held), and ``--format json`` output is unchanged.

Not for: output on stdout (the results; the ``pretty`` view makes its own text safe).
"""

from __future__ import annotations

import argparse
import difflib
import logging
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn

#: Text with nothing :func:`shown` escapes: printable ASCII, tabs and line breaks.
_PLAIN = re.compile(r"[\t\n\x20-\x7e]*")


def shown(text: str) -> str:
    """`text` as stderr shows it: control characters and bidi controls as escapes
    (:func:`paralign.viz.terminal.safe`), but for line breaks and tabs, kept."""
    if _PLAIN.fullmatch(text):  # most messages: nothing to escape, and no need to import viz (80 ms)
        return text
    from ..viz.terminal import safe

    return "\n".join("\t".join(safe(part) for part in line.split("\t")) for line in text.split("\n"))


def say(message: str) -> None:
    """`message` on stderr, :func:`shown`, with a line end: the one way the CLI prints a line there."""
    print(shown(message), file=sys.stderr)


#: Whether :func:`from_the_terminal` has said it (once a process: a command may open stdin twice).
_TERMINAL_INPUT_SAID: list[bool] = []


def from_the_terminal(stream: Any) -> Any:
    """`stream` (stdin), after one line on stderr, once a process, when it is a terminal: a
    command reading its input from the terminal waited without a word, which looked like a hang."""
    if not _TERMINAL_INPUT_SAID and stream is not None and getattr(stream, "isatty", lambda: False)():
        _TERMINAL_INPUT_SAID.append(True)
        say("paralign: reading standard input from the terminal: type or paste it, then Ctrl-D on a line of "
            "its own (Ctrl-Z Enter on Windows); or give an input file (--help)")
    return stream


class Parser(argparse.ArgumentParser):
    """argparse's parser (and its subcommands', which argparse makes of the same class) with its
    usage errors written through :func:`shown`: they quote what was typed (an unknown argument,
    a path an option's check refused), which came as raw as any input."""

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        super().exit(status, None if message is None else shown(message))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's check of a choice, its message followed by the nearest choice of a mistyped
        one (``invalid choice: 'alig' (choose from ...); did you mean 'align'?``), a command, an
        action or an option's value: argparse listed every choice (19 commands) and left the
        user to find the one they meant."""
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            near = difflib.get_close_matches(str(value), [str(choice) for choice in action.choices or ()], n=1)
            if not near:
                raise
            raise argparse.ArgumentError(action, f"{exc.message}; did you mean {near[0]!r}?") from None


def escaping(formatter: Callable[..., str]) -> Callable[..., str]:
    """A ``warnings.formatwarning`` that is `formatter` (Python's ``FILE:LINE: Category:
    message``, or the one a library put in its place: bokeh does), :func:`shown`: a library's
    warning may quote its input (a file name, a token)."""

    def formatted(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  line: str | None = None) -> str:
        return shown(formatter(message, category, filename, lineno, line))

    return formatted


@contextmanager
def warnings_shown() -> Iterator[None]:
    """Python's warnings printed :func:`shown` while the block runs (see :func:`escaping`).

    Only how a warning is printed changes (``warnings.formatwarning``): which ones are shown and
    where to stays Python's, and a recorder (``warnings.catch_warnings(record=True)``,
    ``pytest.warns``) still gets each warning as it was raised."""
    before = warnings.formatwarning
    warnings.formatwarning = escaping(before)
    try:
        yield
    finally:
        warnings.formatwarning = before


class ShownRecords(logging.Filter):
    """A logging filter that makes a record's text :func:`shown` before any formatter sees it:
    its message, its string arguments and the traceback of its exception (an error's message may
    quote a request). The formatter's own escape sequences (uvicorn colours its level names on a
    terminal) are added after, so they still work."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = shown(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_shown_value(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {key: _shown_value(arg) for key, arg in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = shown(logging.Formatter().formatException(record.exc_info))
        return True


def _shown_value(value: Any) -> Any:
    return shown(value) if isinstance(value, str) else value
