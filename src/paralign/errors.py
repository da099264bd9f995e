"""One exception hierarchy: every error paralign raises is a ParalignError and a built-in."""

from __future__ import annotations

import errno as _errno
import json
import os
import re
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


class ParalignError(Exception):
    """Base class of all paralign errors; catch this to catch them all."""


class _Located(ParalignError):
    """An error that can name the file and line at fault: ``source:line: message``."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        self.source = source
        self.line = line
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(f"{where}{message}")


class FormatError(_Located, ValueError):
    """Malformed input; the message names the file and line (or item) at fault."""


class AlignmentIndexError(FormatError):
    """A link points outside its sentence."""


class MismatchError(_Located, ValueError):
    """Two inputs that must correspond do not (pair counts, line counts, texts); `source` and
    `line`, when given, name the item at fault."""


class ResourceMissingError(ParalignError, LookupError):
    """A data resource (NLTK data, spaCy model, corpus) is not installed or not found."""


class ConfigurationError(ParalignError, ValueError):
    """An option or setting has an invalid value."""


class ExtraMissingError(ConfigurationError, ImportError):
    """A feature needs an optional extra that is not installed; the message, one line, names the
    ``pip install`` command that adds it. An ImportError too (`name`: the missing package), so
    ``except ImportError``, the usual guard of an optional dependency, catches it."""

    def __init__(self, feature: str, extra: str = "neural", missing: str | None = None):
        self.feature = feature
        self.extra = extra
        self.missing = missing
        self.name = missing
        lacking = f" ({missing} is not installed)" if missing else ""
        super().__init__(
            f"{feature} needs the optional extra '{extra}'{lacking}: pip install 'paralign[{extra}]'"
        )

    def __reduce__(self) -> tuple:
        """Pickle with its arguments (worker processes send errors back pickled)."""
        return (type(self), (self.feature, self.extra, self.missing))


class SameReferenceError(ConfigurationError):
    """The same reference set given twice: ParaEval's reference streams of the same segments, or
    ``paralign paraeval -r`` naming one file twice. Scored against both, a hypothesis scored as
    against one, under a signature saying two (``nrefs:2``). `first` and `again` name the two, as
    the message does (``reference stream 1``, a file)."""

    def __init__(self, message: str, *, first: str, again: str):
        super().__init__(message)
        self.first = first
        self.again = again

    def __reduce__(self) -> tuple:
        """Pickle with the names (worker processes send errors back pickled)."""
        return (_same_reference_error, (str(self), self.first, self.again))


def _same_reference_error(message: str, first: str, again: str) -> SameReferenceError:
    return SameReferenceError(message, first=first, again=again)


class InputFileError(ParalignError, OSError):
    """An input file cannot be opened or read (missing, a directory, no permission, bad gzip).

    The message is `FILE: reason`; `filename`, `errno` and `strerror` are set as for the
    OSError it replaces, so code that catches OSError keeps working.
    """

    def __init__(self, message: str, *, source: str | None = None, errno: int | None = None):
        super().__init__(f"{source}: {message}" if source is not None else message)
        self.source = source
        self.filename = source
        self.errno = errno
        self.strerror = message

    def __str__(self) -> str:
        return str(self.args[0])

    @property
    def cannot_open(self) -> bool:
        """True when the path itself is wrong (missing, a directory, no permission): a usage
        error (exit 2) rather than bad contents (exit 1, e.g. broken gzip data)."""
        return self.errno in _CANNOT_OPEN

    def __reduce__(self) -> tuple:
        """Pickle with source and errno (worker processes send errors back pickled)."""
        return (_input_file_error, (self.strerror, self.source, self.errno))


#: Why a path cannot be opened, by errno: the cases that are the path's fault (a usage error).
OPEN_REASONS: dict[int, str] = {
    _errno.ENOENT: "no such file",
    _errno.ENOTDIR: "no such file (a parent is not a directory)",
    _errno.EISDIR: "is a directory, not a file",
    _errno.EACCES: "permission denied",
    _errno.EPERM: "permission denied",
    _errno.EBADF: "not open",
}
_CANNOT_OPEN = frozenset(OPEN_REASONS)


def _input_file_error(message: str, source: str | None, errno: int | None) -> InputFileError:
    return InputFileError(message, source=source, errno=errno)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and its noun in English, for messages: ``1 line``, ``2 lines`` (`plural` when not
    noun + s)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def odd_reference(count: int, lengths: Sequence[int]) -> str | None:
    """The one error to raise, naming the references (paraeval's -r, meta-eval's WMT reference) of
    `count` lines, when the system outputs of `lengths` lines are two or more, all of one length
    that is not `count`: the references and the outputs are of two test sets, or one side is cut
    short, and each output was reported as of the wrong length instead, the run ending with none
    of them scored. None otherwise: one output, or outputs of several lengths, are each their own
    fault."""
    if len(lengths) < 2 or len(set(lengths)) != 1 or lengths[0] == count:
        return None
    return (f"{counted(count, 'line')}, but each of the {counted(len(lengths), 'system output')} has "
            f"{lengths[0]}: the reference and the outputs are not of one test set, or one side is cut short")


def repeated_stream(references: Sequence[Sequence[str]]) -> tuple[int, int] | None:
    """The first two of `references` (streams in sacrebleu's layout) with the same
    segments, as (earlier, later) 0-based; None when every stream differs from the others.

    The same contents, not the same object or file: the streams are what the scorers take (no
    path), and two streams alike score a hypothesis as one does, whatever they were read from.
    Streams of one segment are never the same set: two translators may write one sentence alike
    (a segment's references, ``sentence_score``'s, are not checked either), which over a test
    set of two or more segments is not chance but one set given twice (``nrefs:2`` for one)."""
    if not references or len(references[0]) < 2:
        return None
    for later in range(1, len(references)):
        for earlier in range(later):
            a, b = references[earlier], references[later]
            if len(a) == len(b) and all(x == y for x, y in zip(a, b, strict=True)):  # ends at the first difference
                return earlier, later
    return None


def refuse_repeated_stream(references: Sequence[Sequence[str]], names: Sequence[str],
                           message: Callable[[str, str], str]) -> None:
    """SameReferenceError when two of `references` hold the same segments
    (:func:`repeated_stream`): `names` names the streams in order, `message(first, again)` is the
    caller's wording (a reference set of a folder, a stream, a file), the error's `first` and
    `again` the two names."""
    same = repeated_stream(references)
    if same is not None:
        first, again = (names[k] for k in same)
        raise SameReferenceError(message(first, again), first=first, again=again)


def invalid_json(exc: json.JSONDecodeError, shift: int = 0) -> str:
    """The reason for a FormatError on a line that is not JSON, with the column (`shift`: the
    characters cut from the line's start before parsing). ``exc.msg`` alone loses the position
    ("Unterminated string starting at"), which str(exc) gives only in a form that repeats the line."""
    reason = exc.msg[: -len(" at")] + " here" if exc.msg.endswith(" at") else exc.msg
    return f"invalid JSON (column {exc.colno + shift}): {reason}"


#: A JSON escape of a UTF-16 surrogate, \uD800 to \uDFFF (hex digits in either case): only a
#: JSON text holding one can decode to a lone surrogate (UTF-8 text cannot hold one as such).
#: The first test, cheap: it starts with a literal backslash, so the search skips to them.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
#: What may be the escape of a lone one, the second test: a high half (\uD800-\uDBFF) without a
#: low half (\uDC00-\uDFFF) right after it, a low half without a high one right before it, or an
#: escaped backslash before ``ud`` (``\\ud800\udc00`` is the text "\ud800", then a lone low half,
#: which the look-behind cannot tell), so a text of pairs alone (emoji written by an ASCII-only
#: JSON writer) is not read escape by escape.
_MAYBE_LONE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
                         r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2}\\)u[dD][c-fC-F]|\\u[dD])")
#: One escape of a JSON string, in order: ``\uXXXX`` (the code point in group 1) or a backslash
#: and one character, so that ``\\ud800`` (an escaped backslash, then ``ud800``) is no escape of it.
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)
#: A surrogate code point in a str: always a lone one (a pair decodes to one character).
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str, start: int = 0, end: int | None = None) -> tuple[int, str] | None:
    r"""The first escape of JSON text `text` (between `start` and `end`) that decodes to a lone
    UTF-16 surrogate, as (its offset in `text`, the reason a FormatError gives, with its column
    in its line); None when there is none.

    json.loads reads ``"\ud800"`` without its low half as a str holding U+D800, which is no
    character: UTF-8 cannot encode it, so it failed far away (writing an output, annotating a
    sentence), where a bad byte in the file is refused at its line. A pair, ``\ud83d\ude00``,
    decodes to one character (as json.loads pairs them: a high half with the low half escaped
    right after it), and so is no fault. `text` must be JSON that parsed, so every backslash
    starts an escape of a string. A text without a surrogate escape (nearly every one) is told by
    one regular-expression search, one of pairs alone by two; only one with an escape that may
    be a lone half has its escapes read in order. On 100,000 JSONL lines of pairs (1.3-2 s to
    read as `align` does, 6-8 s as gold) it takes 60-100 ms, 200-260 ms when every line holds
    escaped pairs (emoji written by an ASCII-only JSON writer)."""
    end = len(text) if end is None else end
    if _SURROGATE_ESCAPE.search(text, start, end) is None or _MAYBE_LONE.search(text, start, end) is None:
        return None
    high: re.Match[str] | None = None  # a high half, waiting for its low half right after it
    for match in _ESCAPE.finditer(text, start, end):
        point = int(match.group(1), 16) if match.group(1) else -1
        if high is not None:
            if match.start() == high.end() and 0xDC00 <= point <= 0xDFFF:
                high = None  # a pair: one character
                continue
            return _lone(text, high)
        if 0xD800 <= point <= 0xDBFF:
            high = match
        elif 0xDC00 <= point <= 0xDFFF:
            return _lone(text, match)
    return None if high is None else _lone(text, high)


def is_text(value: str) -> bool:
    """False when `value` holds a lone surrogate (what a JSON escape of half a pair decodes to:
    :func:`lone_surrogate`), which is no character, so it names nothing (a bad item's id)."""
    return _SURROGATE.search(value) is None


def lone_in(value: str) -> str:
    """The first lone surrogate of `value`, a str that is not :func:`is_text`, as an error message
    quotes it: ``a lone surrogate, '\\ud800' at character 9 (half a UTF-16 pair, no character)``
    (the 1-based character; the repr escapes the surrogate, so the message can be printed)."""
    match = _SURROGATE.search(value)
    assert match is not None, "lone_in() of a text: test is_text() first"
    return (f"a lone surrogate, {match.group()!r} at character {match.start() + 1} (half a UTF-16 pair, "
            "no character)")


def _lone(text: str, escape: re.Match[str]) -> tuple[int, str]:
    """(offset, reason) of the lone surrogate `escape` of `text` (:func:`lone_surrogate`)."""
    column = escape.start() - text.rfind("\n", 0, escape.start())
    return escape.start(), f'"{escape.group(0)}" (column {column}) is half of a UTF-16 surrogate pair, no character'


#: Errors of the setup, not of one item (an option's value, a missing extra, data that is not
#: installed): every item would fail the same way, so a batch stops on them instead of
#: reporting each item failed.
SETUP_ERRORS: tuple[type[ParalignError], ...] = (ConfigurationError, ResourceMissingError)


class ClusterStalledError(ParalignError, RuntimeError):
    """A Dask job cannot go on: every worker has stayed paused at its memory limit (or none is
    left); the message says which limit to raise."""


class SimilarityError(ParalignError, ValueError):
    """A similarity computation could not be done for the named item."""


class EmptyScoringError(ParalignError, ValueError):
    """There are no pairs to score."""


class LatticeError(ParalignError, ValueError):
    """A malformed lattice (cycle, unreachable state, bad state number)."""


class TokenIndexError(ParalignError, IndexError):
    """A token index outside the sentence (an IndexError, as sequence indexing requires)."""


class InputTypeError(ParalignError, TypeError):
    """An argument of the wrong type (a TypeError, as Python's own are): one str where a list
    of strings is expected (which would be read as its characters), None or a number where a
    text is; the message names the argument and what it should be."""


def shown_value(value: object) -> str:
    """`value`'s repr, cut to 40 characters: how an error message quotes a caller's argument."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_texts(value: object, what: str) -> None:
    """InputTypeError unless `value` is a sequence of str: not one str (whose characters would
    silently become the items), not a mapping (whose keys would, its values lost), not a
    non-sequence, no item that is not a str (named by its 1-based number)."""
    if isinstance(value, str):
        raise InputTypeError(f"{what} must be a list of strings, not one str ({shown_value(value)})")
    if isinstance(value, Mapping) or not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
        raise InputTypeError(f"{what} must be a list of strings, not {type(value).__name__}")
    # a sequence, as the test above tells: cast, as mypy does not read hasattr
    for i, item in enumerate(cast("Iterable[object]", value), start=1):
        if not isinstance(item, str):
            raise InputTypeError(
                f"{what}: item {i} is {type(item).__name__} {shown_value(item)}, not a str")


def file_path(path: object) -> Path:
    """`path` (a str or os.PathLike of one) as a Path; an InputTypeError naming what it is
    otherwise (None, a number, bytes, a list of paths), where Path() raised a TypeError."""
    if isinstance(path, str) or (isinstance(path, os.PathLike) and isinstance(os.fspath(path), str)):
        return Path(path)
    raise InputTypeError(f"a file path must be a str or a pathlib.Path, not {type(path).__name__} "
                         f"{shown_value(path)}")


def file_paths(paths: object, what: str) -> list:
    """`paths` as a list of file paths (str or os.PathLike of one), read once; one path (a str
    was read as one file per character), a value that is not a list, or an item that is no
    path is an InputTypeError naming `what` (and the item, 1-based)."""
    from collections.abc import Iterable

    if isinstance(paths, str | bytes | os.PathLike) or not isinstance(paths, Iterable):
        one = "one path " if isinstance(paths, str | os.PathLike) else ""
        raise InputTypeError(f"{what} must be a list of file paths, not {one}{type(paths).__name__} "
                             f"{shown_value(paths)}")
    items = list(paths)
    for number, path in enumerate(items, start=1):
        if not (isinstance(path, str) or (isinstance(path, os.PathLike) and isinstance(os.fspath(path), str))):
            raise InputTypeError(f"{what}: item {number} is {type(path).__name__} {shown_value(path)}, "
                                 "not a file path (a str or a pathlib.Path)")
    return items


def written_in_place(path: str | Path) -> bool:
    """Is `path` written where it is, not through a temporary file renamed onto it: a path that
    exists and is not a regular file (/dev/null, a FIFO) or lives in /dev or /proc (/dev/stdout
    is a link to the process's own stdout, which a rename would replace by a file)."""
    real = os.path.realpath(path)
    if any(p.startswith(("/dev/", "/proc/")) for p in (os.path.abspath(path), real)):
        return True
    try:
        return not stat.S_ISREG(os.stat(real).st_mode)
    except FileNotFoundError:
        return False
    except OSError:
        return True


def check_output_file(path: object, *, make_folder: bool = False) -> Path:
    """`path` as a Path when a file can be written there: not a directory, in a folder that
    exists (or, with `make_folder`, can be made) and is writable (and, if it exists, writable
    itself); a ConfigurationError naming the path and what is wrong otherwise. Checked before the
    work whose result goes there, so that a job of minutes does not end at an unwritable output
    (`-o` of every command; pivot's tables, whose writer makes the folder). A path written in
    place (:func:`written_in_place`: /dev/null, /dev/stdout, a FIFO) needs only to be writable
    itself: its folder (/dev, which a user may not write) takes no temporary file."""
    out = file_path(path)
    if out.is_dir():
        raise ConfigurationError(f"{path}: is a directory, expected a file name")
    if out.exists() and written_in_place(out):
        if not writable(out):
            raise ConfigurationError(f"{path}: not writable")
        return out
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        there = next((p for p in (folder, *folder.parents) if p.exists()), None)
        if there is not None and not there.is_dir():  # a file where a folder of the path should be
            raise ConfigurationError(f"{path}: {there} is a file, not a folder")
        if not make_folder:
            raise ConfigurationError(f"{path}: folder {folder} does not exist")
        folder = there or Path(".")  # where the missing folders are made
    if not writable(folder) or (out.exists() and not writable(out)):
        raise ConfigurationError(f"{path}: not writable")
    return out


def check_output_folder(path: object, flag: str = "") -> Path:
    """`path` as a Path when files can be written in it: a folder that exists or can be made (its
    nearest existing ancestor a folder this process may write); a ConfigurationError naming it
    (after `flag`, the option as typed, when given) and what is wrong otherwise. Checked before
    the work, as :func:`check_output_file` is for a file: `download --dir`, the table pipelines'
    `--work-dir` (a folder under a file was the system's "Not a directory", exit 1)."""
    folder = file_path(path)
    named = f"{flag} {path}" if flag else str(path)
    there = next(p for p in (folder.absolute(), *folder.absolute().parents) if p.exists())  # / exists
    if not there.is_dir():
        raise ConfigurationError(f"{named}: is a file, not a folder" if there == folder.absolute()
                                 else f"{named}: {there} is a file, not a folder")
    if not writable(there):
        raise ConfigurationError(f"{named}: not writable")
    return folder


def writable(path: Path) -> bool:
    """May this process write `path`, by its effective user and groups (what open() is allowed
    under set-uid), where the system can tell; else by its real ones."""
    return os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids)


def check_finite(scores: Iterable[float] | Mapping[str, float], what: str) -> None:
    """FormatError naming the first of `scores` that is not a finite number: by 1-based position
    (``training score 3 is nan, not a finite number``), or for a mapping of system names by its
    name (``the human score of system 'X' is inf, ...``). The one check of the scores that reach
    a threshold choice (:mod:`paralign.similarity.thresholds`) or a correlation
    (:mod:`paralign.metrics.correlation`): a NaN sorts anywhere among numbers, so a threshold or a
    correlation built on one is a number no input holds (scipy's Pearson is NaN after a
    RuntimeWarning; its Spearman and Kendall rank an infinity as the largest score)."""
    import math

    named = scores.items() if isinstance(scores, Mapping) else enumerate(scores, start=1)
    for key, value in named:
        if not math.isfinite(value):
            where = f"of system {key!r}" if isinstance(scores, Mapping) else str(key)
            raise FormatError(f"{what} {where} is {float(value)!r}, not a finite number")


def check_count(value: object, what: str, minimum: int = 1) -> int:
    """`value` as an int, or a ConfigurationError naming `what` unless it is a whole number (an
    int, numpy's too; not a bool) of at least `minimum`: a count option (workers, a batch size,
    a limit, a phrase length). A float such as 2.5 or NaN, None or a str would otherwise pass a
    ``< minimum`` test (NaN, 2.5) or fail it with a TypeError, and reach ``range()`` deep inside."""
    from numbers import Integral

    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ConfigurationError(f"{what} must be a whole number (at least {minimum}), not "
                                 f"{type(value).__name__} {shown_value(value)}")
    if value < minimum:
        raise ConfigurationError(f"{what} must be at least {minimum}, got {value}")
    return int(value)


def check_switch(name: str, value: object) -> bool:
    """An on/off option's value as a bool: True or False (0 and 1, numpy's bools too); anything
    else, such as the str "no" that Python reads as true, a ConfigurationError naming it."""
    from numbers import Integral

    if isinstance(value, bool):
        return value
    if (isinstance(value, Integral) or type(value).__name__ == "bool_") and value in (0, 1):
        return bool(value)
    raise ConfigurationError(f"{name} must be True or False, not {type(value).__name__} {value!r}")


def check_pairs(pairs: object, what: str = "pairs", pair: str = "(source, target) pair") -> list:
    """`pairs` as a list, each item checked to be a (source, target) pair: a tuple or list of
    two (InputTypeError naming the first that is not, 1-based: a caller's mistake, not a pair
    that failed); one str is refused, not read as its characters. `what` names the argument
    and `pair` its items in messages (``corpora``, ``(english, foreign) path pair``)."""
    from collections.abc import Iterable, Sequence

    if isinstance(pairs, str) or not isinstance(pairs, Iterable):
        raise InputTypeError(f"{what} must be a list of {pair}s, not {type(pairs).__name__}")
    items = list(pairs)
    for number, item in enumerate(items, start=1):
        if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 2:
            raise InputTypeError(f"{what}: item {number} is {shown_value(item)}, not a {pair}")
    return items


def check_progress(progress: object) -> None:
    """InputTypeError unless `progress` is None or callable: it was first called after a chunk's
    work, so a str failed there ("'str' object is not callable"), that work lost."""
    if progress is not None and not callable(progress):
        raise InputTypeError(f"progress must be a function (called with the number of items done) or None, "
                             f"not {type(progress).__name__} {shown_value(progress)}")


def listed(items: object, what: str) -> list:
    """`items` as a list, read once: a function that goes over its argument twice (checks, then
    work) would find a generator or ``zip`` used up by the first reading. One str or a
    non-iterable is an InputTypeError saying `what` it must be (e.g. ``pairs must be a list of
    (sentence1, sentence2, gold) triples``)."""
    from collections.abc import Iterable

    if isinstance(items, str) or not isinstance(items, Iterable):
        raise InputTypeError(f"{what}, not {type(items).__name__} {shown_value(items)}")
    return list(items)


def listed_of(items: object, what: str, plural: str, fits: Callable[[object], bool], one: str) -> list:
    """`items` as a list (:func:`listed`: "`what` must be a list of `plural`"), each item one
    that `fits`; the first that does not is an InputTypeError naming `what`, its number
    (1-based) and its value, "not `one`": the check every list of records a function takes
    gets (gold pairs, skipped pairs), instead of a failure from inside the work."""
    out = listed(items, f"{what} must be a list of {plural}")
    for number, item in enumerate(out, start=1):
        if not fits(item):
            raise InputTypeError(f"{what}: item {number} is {type(item).__name__} {shown_value(item)}, not {one}")
    return out
