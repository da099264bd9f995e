"""The CLI's warnings on stderr.

Not for: errors (`paralign.cli.main` says them), nor what a command writes on stdout.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._stderr import say


def warn(message: str) -> None:
    """A warning on stderr (CLI only; library code reports through return values or warnings),
    its control characters escaped (`_stderr.say`): it quotes file names, ids and input text."""
    say(f"paralign: warning: {message}")


#: How many problems a command lists on stderr (all of them are in its JSON output).
MAX_WARNINGS = 20


def warn_each(messages: Sequence[str], what: str = "problems") -> None:
    """Warn about the first MAX_WARNINGS messages, then say how many more there are."""
    for message in messages[:MAX_WARNINGS]:
        warn(message)
    if len(messages) > MAX_WARNINGS:
        warn(f"... and {len(messages) - MAX_WARNINGS} more {what}")
