"""System outputs read against a reference: the one rule of ``paralign paraeval`` (its ``-i``
files, against its ``-r``) and of the WMT loader (the human-scored outputs of a language pair,
against its first reference set, as ``meta-eval`` reads them).

Three steps, in this order, so that one bad output never loses the others' figures and a bad
reference is said once, not as a fault of every output:

1. every output is read; an error reading one (a byte that is not UTF-8, no lines, a file that
   cannot be read) is kept as that output's;
2. when two or more outputs were read and all have one length that is not the reference's, one
   MismatchError names the reference (:func:`paralign.errors.odd_reference`): the two sides are
   not of one test set, or one is cut short;
3. each output read is kept when it has the reference's length; another length is its own
   error, made by the caller (each names the files its own way).

Not for: what a caller does with the outputs left out (reported on stderr, ``skipped_systems``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from ..errors import (
    EmptyScoringError,
    FormatError,
    InputFileError,
    MismatchError,
    ParalignError,
    odd_reference,
)

#: An output's key (its -i position, a system name), its path, and its lines as the reader gives them.
K = TypeVar("K")
P = TypeVar("P")
L = TypeVar("L", bound=Sequence[str])

#: The errors of one output that leave it out instead of stopping the run (unless `fatal`).
UNREADABLE = (EmptyScoringError, FormatError, InputFileError)


def _never(error: ParalignError) -> bool:
    return False


def read_outputs(paths: Mapping[K, P], read: Callable[[P], L], count: int, reference: str,
                 length_error: Callable[[K, L], ParalignError],
                 fatal: Callable[[ParalignError], bool] = _never) -> tuple[dict[K, L], dict[K, ParalignError]]:
    """The outputs of `paths` (key -> path, in the order reported) that have the reference's
    `count` lines, and the others' errors, each dict in the order of `paths`.

    `read` reads one path (raising one of :data:`UNREADABLE` for an output that cannot be
    used); `length_error` makes the error of an output of another length than `count`;
    `reference` names the reference(s) in the MismatchError of step 2 (module docstring). An
    error for which `fatal` is true (paraeval: a path that cannot be opened, a usage error; the
    one output of a run) is raised where it is met, instead of kept."""
    read_of: dict[K, L | ParalignError] = {}
    for key, path in paths.items():
        try:
            read_of[key] = read(path)
        except UNREADABLE as exc:
            if fatal(exc):
                raise
            read_of[key] = exc
    fault = odd_reference(count, [len(lines) for lines in read_of.values() if not isinstance(lines, ParalignError)])
    if fault is not None:
        raise MismatchError(fault, source=reference)
    kept: dict[K, L] = {}
    bad: dict[K, ParalignError] = {}
    for key, lines in read_of.items():
        if isinstance(lines, ParalignError):
            bad[key] = lines
        elif len(lines) == count:
            kept[key] = lines
        else:
            error = length_error(key, lines)
            if fatal(error):
                raise error
            bad[key] = error
    return kept, bad
