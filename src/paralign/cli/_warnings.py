"""The CLI's warnings on stderr, and the one rule every command follows for bad input.

Two kinds of warning:

- a note (:func:`warn`): about the run or a file as a whole (a file left out of a mean, an
  encoder that differs, no sentence pairs, an option that does nothing): always shown, never
  counted;
- a bad item (:func:`warn_item`): one line, pair, group or system of a batch that was bad, as
  a command meets it (streaming ones as they read) or lists it when it ends (:func:`warn_each`).
  Of a run's bad items the first :data:`MAX_WARNINGS` are shown as they come; at the next one a
  line says that further ones are counted, not shown (:data:`HIDING`); the run ends with
  ``... and N more warnings`` (:func:`tell_hidden`: `main` says it when the command ends, before
  its error if it failed; a batch's summary count says it first, to end stderr).

Why: a wrong file of 100,000 lines printed 100,000 warnings, which buried the first useful one
and the summary; and a command that listed its warnings at its end cut them at 20 while one that
streamed printed all. The output marks every bad item in its place (an empty line, an
``"error"`` object, ``skipped_rows``), so no bad item is lost by the cap.

Not for: errors (`paralign.cli.main` says them), nor what a command writes on stdout.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ._stderr import say

#: How many bad items a run names on stderr (every one is in its output; --format json lists each).
MAX_WARNINGS = 20
#: Said once a run, at its first bad item past :data:`MAX_WARNINGS`.
HIDING = f"more than {MAX_WARNINGS} bad items: further ones are counted, not shown"


def warn(message: str) -> None:
    """A note on stderr, always shown (CLI only; library code reports through return values or
    warnings), its control characters escaped (`_stderr.say`): it quotes file names, ids and
    input text. A bad item's warning is :func:`warn_item`'s."""
    say(f"paralign: warning: {message}")


@dataclass
class _Tally:
    """A run's bad items: how many were shown, how many counted and not yet told (:func:`tell_hidden`)."""

    shown: int = 0
    hidden: int = 0
    said_hiding: bool = False


#: The tally of the run in progress (:func:`capped_warnings`), innermost last.
_RUNS: list[_Tally] = []


@contextmanager
def capped_warnings() -> Iterator[None]:
    """One run of a command (`main` runs each in one): its bad items capped by the rule above,
    and ``... and N more warnings`` said as it ends, when any were counted and not yet told."""
    _RUNS.append(_Tally())
    try:
        yield
    finally:
        tell_hidden()
        _RUNS.pop()


def warn_item(message: str) -> None:
    """A bad item's warning (``file:line: reason``): shown while the run has shown fewer than
    :data:`MAX_WARNINGS`, else counted (the first time, :data:`HIDING` said). Outside a run (a
    command's function called without `main`) each is shown: no end would tell the count."""
    tally = _RUNS[-1] if _RUNS else None
    if tally is None or tally.shown < MAX_WARNINGS:
        if tally is not None:
            tally.shown += 1
        warn(message)
        return
    if not tally.said_hiding:
        tally.said_hiding = True
        warn(HIDING)
    tally.hidden += 1


def warn_each(messages: Iterable[str]) -> None:
    """Each of `messages` as a bad item's warning (:func:`warn_item`): a command's list of the
    items it left out, said when it ends."""
    for message in messages:
        warn_item(message)


def warn_summary(message: str) -> None:
    """A batch's closing count of its bad items (``x.tsv: 2 of 40 input lines bad``), after
    ``... and N more warnings`` (:func:`tell_hidden`) when some were not shown: it ends stderr."""
    tell_hidden()
    warn(message)


def tell_hidden() -> None:
    """``... and N more warnings`` when the run counted N bad items it did not show since it
    last said so; nothing otherwise."""
    tally = _RUNS[-1] if _RUNS else None
    if tally is not None and tally.hidden:
        warn(f"... and {tally.hidden} more warnings")
        tally.hidden = 0
