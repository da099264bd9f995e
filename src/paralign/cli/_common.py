"""Shared helpers for CLI commands: --format, input/output files, progress bars, warnings.

Not for: option groups several commands share (:mod:`._aligner_options`, :mod:`._similarity_options`,
:mod:`._encoder_options`, :mod:`._table_options`, :mod:`._bootstrap_options`, :mod:`._cluster`,
:mod:`._pipelines`), text
renderings of results (:mod:`._render`) or the checks of the whole command line that `main`
runs before any command (:mod:`._command_line`).
"""

from __future__ import annotations

import argparse
import errno
import math
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

from ..disk_cache import not_kept
from ..errors import ConfigurationError, ParalignError, check_output_file, counted
from ..textout import Writes, check_output_name, json_text
from ._metavars import FILE, HTML_FILE
from ._stderr import from_the_terminal, shown
from ._warnings import warn, warn_each, warn_summary

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: How messages name standard input (as Python does), whatever helper reads it.
STDIN_NAME = "<stdin>"
#: How messages and reports name standard output.
STDOUT_NAME = "<stdout>"


def positive_int(text: str) -> int:
    """argparse type: a count, an integer >= 1 and at most ``sys.maxsize``: a larger one is no
    size Python can use (``islice`` and numpy refuse it with a traceback), and as a limit it is
    no limit, which a count of 0 never means on the command line either."""
    return _count_at_least(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return _int_at_least(text, 0)


def int_at_least(low: int) -> Callable[[str], int]:
    """argparse type: an integer >= `low`, refused when the options are parsed naming the flag
    (``argument --incremental-min-size: must be at least 2, got 1``), as :func:`positive_int`."""
    def integer(text: str) -> int:
        return _count_at_least(text, low)

    integer.__name__ = f"integer >= {low}"
    return integer


def _count_at_least(text: str, low: int) -> int:
    """An integer >= `low` and at most ``sys.maxsize`` (no size Python can use above it)."""
    value = _int_at_least(text, low)
    if value > sys.maxsize:
        raise argparse.ArgumentTypeError(f"must be at most {sys.maxsize}, got {value}")
    return value


def _int_at_least(text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
    return value


def number_in(low: float, high: float | None = None, *, low_open: bool = False,
              high_open: bool = False) -> Callable[[str], float]:
    """argparse type: a number from `low` to `high` (None: no upper bound; `low_open` and
    `high_open` leave the bound out), refused when the options are parsed with a usage error
    naming the flag as typed (``argument --ppdb-sim: must be a number in (0, 1], got 0``). Why:
    the library refuses the same value, but names it as Python does (``ppdb_sim``), which is
    not what the user typed. NaN and inf are refused as not finite."""
    if high is None:
        interval = f"{'>' if low_open else '>='} {low:g}"
    else:
        interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(value):  # as finite_numbers words it for the options without a range
            raise argparse.ArgumentTypeError(f"{text} is not a finite number")
        above = value > low if low_open else value >= low
        below = high is None or (value < high if high_open else value <= high)
        if not (above and below):
            raise argparse.ArgumentTypeError(f"must be a number {'in ' if high is not None else ''}{interval}, "
                                             f"got {text}")
        return value

    number.__name__ = f"number {interval}"
    return number


#: --ppdb-sim and --w: a similarity or weight in (0, 1], as the Sultan aligner's config takes it.
open_unit = number_in(0, 1, low_open=True)
#: A probability below 1 (--min-translation-prob: pruning every one would leave no table).
probability_below_one = number_in(0, 1, high_open=True)
#: A ratio of lengths (--max-length-ratio), at least 1.
length_ratio = number_in(1)
#: A weight or strength that may be 0 (--l2).
non_negative_number = number_in(0)
#: A probability or confidence threshold (--threshold, --min-confidence), 0 and 1 included.
unit_interval = number_in(0, 1)
#: A rate or size above 0 (--fine-tune-learning-rate).
positive_number = number_in(0, low_open=True)


def add_format(
    parser: argparse.ArgumentParser,
    default: str = "text",
    help: str | None = None,
    choices: Sequence[str] = ("text", "json"),
) -> None:
    """Add `--format text|json` (or other `choices`; `help`: what each format prints, when a
    command needs to say)."""
    parser.add_argument(
        "--format", choices=tuple(choices), default=default, help=help or "output format (default: %(default)s)"
    )


def output_path(text: str) -> str:
    """An ``-o`` value, checked when the options are parsed so a bad one fails before any work:
    ``-`` (stdout) or a file path whose folder exists and is writable, and not a directory."""
    if is_std(text):
        return text
    try:
        check_output_file(text)  # the library's check, said as a usage error
    except ConfigurationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


#: Suffixes a ``--report`` may not have beside those of another format than HTML (check_output_name).
NOT_REPORT = dict.fromkeys((".png", ".pdf", ".md", ".dot", ".gv"), "the report is an HTML page: give a name ending in .html")


def report_path(text: str) -> str:
    """A ``--report`` value: a file path checked as :func:`output_path` checks one (a report is
    a file to open in a browser, so not ``-``), whose suffix (looked through a ``.gz``) names
    no other format than HTML (``--report scores.json`` would be an HTML page named .json)."""
    if is_std(text):
        raise argparse.ArgumentTypeError("the report is a file: give a file name, not -")
    try:
        check_output_name("--report", text, ("HTML", "an HTML page"), refused=NOT_REPORT)
    except ConfigurationError as exc:  # argparse says "argument --report: " before it
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--report ")) from None
    return output_path(text)


def add_report(parser: argparse.ArgumentParser, what: str) -> None:
    """``--report FILE.html``: also write a self-contained HTML report of `what`."""
    parser.add_argument("--report", default=None, type=report_path, metavar=HTML_FILE,
                        help=f"also write a self-contained HTML report ({what})")


def write_report(path: str | None, text: str) -> None:
    """Write a report page (when ``--report`` was given)."""
    if path is not None:
        with open_out(path) as out:
            out.write(text)


def add_output(parser: argparse.ArgumentParser, writes: Writes | None = None) -> None:
    """-o FILE, which holds `writes` (a text or JSON report by --format, when None: checked by name in `main`)."""
    parser.add_argument("-o", "--output", default="-", type=output_path, metavar=FILE,
                        help="output file (default: stdout)")
    parser.set_defaults(output_writes=writes)


def is_std(path: str | Path | None) -> bool:
    """True for '-' or None: stdin or stdout rather than a file."""
    return path is None or str(path) == "-"


def is_stdin(path: str | Path | None) -> bool:
    """True for an input path that means stdin: '-', None or /dev/stdin (read once, like '-')."""
    return is_std(path) or str(path) == "/dev/stdin"


def gold_input_of(input_format: str, handle: IO[str], found: list[str] | None = None,
                  ) -> tuple[list[Any] | None, Iterable[str]]:
    """The pairs of a gold alignment file given where ``align`` and ``similarity`` read sentence
    pairs, by its opened `handle`'s lines, a file's or stdin's alike (one path:
    :func:`~paralign.corpora.gold_input.gold_input`, a line that was not UTF-8 making its pair
    bad, :func:`undecodable_lines`), or None (TSV or JSONL lines, or --input-format given: read
    as it says); and the lines to read line by line. `found`: the gold's format appended, when
    it is one."""
    if input_format != "auto":
        return None, handle
    from ..corpora.gold_input import (
        gold_input,  # only a command reading pairs needs the gold readers
    )

    return gold_input(handle, found, lambda line: undecodable_lines(handle).get(line))


def input_name(path: str | Path | None) -> str:
    """How messages name an input: the file name, or STDIN_NAME for stdin ('-', None, /dev/stdin)."""
    return STDIN_NAME if is_stdin(path) else str(path)


@contextmanager
def open_in(path: str | Path | None, errors: str = "strict") -> Iterator[IO[str]]:
    """Open a UTF-8 input file ('-', None or /dev/stdin: stdin); through gzip when the data are
    gzip (stdin too: ``cat X.gz | paralign ...``) or the name ends in .gz; UTF-16 or UTF-32 text
    is one FormatError (`paralign.textio.input_bytes`).

    Errors are ParalignErrors naming the file (STDIN_NAME for stdin), with the line number of
    a byte that is not UTF-8 (see `paralign.textio.open_text`); `errors` is what such a line
    does (`paralign.textio.ENCODING_ERRORS`; with ``skip``, see `undecodable_lines`).
    """
    from ..textio import Utf8LineReader, input_bytes, open_text

    if is_stdin(path):  # '/dev/stdin' too: decoded and named as '-' is
        buffer = getattr(_stdin(), "buffer", None)
        if buffer is None:  # a text stream with no bytes under it (e.g. io.StringIO in tests)
            yield sys.stdin
            return
        stream = input_bytes(buffer, STDIN_NAME, close_raw=False)
        with Utf8LineReader(stream, STDIN_NAME, close_raw=stream is not buffer, errors=errors) as reader:
            yield reader  # type: ignore[misc]  # a TextIOBase: typeshed does not count it as an IO[str]
        return
    with open_text(str(path), errors=errors) as handle:
        yield handle


def _stdin() -> IO[str]:
    """sys.stdin; InputFileError naming STDIN_NAME (a usage error) when the process has none:
    run with stdin closed (``paralign align <&-``) it is None, which was a traceback
    ("'NoneType' object is not iterable") in every command reading it."""
    if sys.stdin is None:
        from ..errors import InputFileError

        raise InputFileError("not open (the command was run with standard input closed): give an input file",
                             source=STDIN_NAME, errno=errno.EBADF)
    return from_the_terminal(sys.stdin)


def undecodable_lines(handle: IO[str]) -> dict[int, str]:
    """The lines of an `open_in` handle that were not UTF-8 and were read as empty lines
    (``--encoding-errors skip``), with the reason: line number -> reason."""
    return getattr(handle, "bad_lines", {})


def input_waits(*handles: IO[str]) -> Callable[[], bool]:
    """Whether reading the next line of `handles` (`open_in`'s) would wait for the input's writer
    (`paralign.textio.Utf8LineReader.would_wait`: a pipe; a file never waits)."""
    tests = [wait for handle in handles if (wait := getattr(handle, "would_wait", None)) is not None]
    return lambda: any(wait() for wait in tests)


def runs(items: Iterable[T], waits: Callable[[], bool]) -> Iterator[Iterator[T]]:
    """`items` in runs, each ended where taking the next item would wait for the input's writer
    (`waits`: :func:`input_waits`; a file is one run) and read to its end before the next: a
    batch done run by run answers each line a co-process sent before it waits for the answers,
    which waited for a whole chunk (64 pairs for `align`) or the end of stdin."""
    iterator = iter(items)
    for first in iterator:
        yield _run(first, iterator, waits)


def _run(first: T, rest: Iterator[T], waits: Callable[[], bool]) -> Iterator[T]:
    yield first
    for item in () if waits() else rest:
        yield item
        if waits():
            return


def add_encoding_errors(parser: argparse.ArgumentParser) -> None:
    """The options of a batch command (one output line per input line; see `batch_status`):
    --encoding-errors (a line that is not UTF-8 is reported in its place and the rest processed:
    skip; decoded with U+FFFD: replace; or stops the run: strict) and --strict."""
    from ..textio import ENCODING_ERRORS

    parser.add_argument("--encoding-errors", choices=ENCODING_ERRORS, default="skip",
                        help="a line that is not UTF-8 text (or holds a NUL byte): skip (report it in its place, go on; "
                        "default), replace (decode with U+FFFD) or strict (stop)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when any input line is bad (default: only when every line is)")


#: What a batch writes in a bad input line's place, by --format, as its warnings say it: (one
#: line's, all of them's), for align and lattice distance; similarity says its own (NA, null:
#: `batch_status`'s `in_place`), so no summary names what its command never writes.
IN_ITS_PLACE = {
    "text": ("empty output line", "empty lines in the output"),
    "json": ('an "error" object in its place', '"error" objects in the output'),
    "pretty": ('"not aligned" in its place', '"not aligned" in the output'),
    "html": ('"not aligned" in its place', '"not aligned" in the output'),
    "svg": ("no picture for it", "no picture for them"),
}


def in_its_place(args: argparse.Namespace, *, summary: bool = False) -> str:
    """What the output holds for a bad input line, as a batch's warning names it ("empty output
    line" in text, but an "error" object in JSON: the warnings said "empty" whatever --format)."""
    return IN_ITS_PLACE.get(getattr(args, "format", "text"), IN_ITS_PLACE["text"])[summary]


def batch_status(args: argparse.Namespace, bad: int, total: int, name: str, unit: str = "input line",
                 in_place: str | None = None) -> int:
    """A batch's exit status after its bad items were reported one by one (`warn_item`): a
    summary count (of `unit`s) on stderr when there were any (`warn_summary`), saying what the
    output holds for them (`in_place`, by default :func:`in_its_place`'s); 1 when every item was
    bad, or any with --strict; else 0."""
    if bad:
        warn_summary(f"{name}: {bad} of {counted(total, unit)} bad (reported above; "
             f"{in_place or in_its_place(args, summary=True)})")
    return 1 if bad and (bad == total or getattr(args, "strict", False)) else 0


def rename_in_error(exc: BaseException, old: str, new: str) -> None:
    """Replace the name `old` by `new` in an error's message and source (in place)."""
    exc.args = tuple(arg.replace(old, new) if isinstance(arg, str) else arg for arg in exc.args)
    for attr in ("source", "filename"):
        if getattr(exc, attr, None) == old:
            setattr(exc, attr, new)


def is_read_once(path: str | Path | None) -> bool:
    """True for an input that can be read only once: stdin ('-', None, /dev/stdin), or a path
    that is a pipe, FIFO, socket or device (``/dev/fd/N``, a shell's ``<(...)``).

    Readers that detect a format first and parse after, or check that a path is a regular
    file, need such an input copied once to a file (:func:`read_once`)."""
    if is_stdin(path):
        return True
    try:
        mode = os.stat(str(path)).st_mode
    except (OSError, ValueError):
        return False  # missing: the reader names it
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def read_once(path: str | Path | None = None) -> Iterator[Path]:
    """Copy an input that can be read only once (stdin by default; see :func:`is_read_once`) to
    a temporary file, for library functions that need a path they can read more than once.

    Errors that name the copy name the input instead (STDIN_NAME for stdin, else its path), so
    a message never shows a temporary path.  The copy is byte for byte, so decoding errors
    still name the right line, and keeps the input's file name (a ``.gz`` stays gzip). Nothing
    derived from the copy is kept in the disk cache (:func:`paralign.disk_cache.not_kept`).
    """
    stdin = is_stdin(path)
    name = STDIN_NAME if stdin else str(path)
    source = _stdin() if stdin else None  # no stdin: its own error, before a copy is made
    with tempfile.TemporaryDirectory(prefix="paralign-") as tmp:
        copy = Path(tmp) / ("stdin" if stdin else Path(str(path)).name or "input")
        try:
            with open(copy, "wb") as out:
                if source is None:  # not stdin
                    with open(str(path), "rb") as handle:
                        shutil.copyfileobj(handle, out)
                elif (buffer := getattr(source, "buffer", None)) is not None:
                    shutil.copyfileobj(buffer, out)
                else:  # a text stream with no bytes under it (e.g. io.StringIO in tests)
                    out.write(source.read().encode("utf-8"))
        except OSError as exc:
            from ..textio import input_file_error

            raise input_file_error(exc, name) from exc
        try:
            with not_kept(copy):  # a name no later command gives: nothing read from it is cached
                yield copy
        except ParalignError as exc:
            rename_in_error(exc, str(copy), name)
            raise


@contextmanager
def stdout_for(args: argparse.Namespace) -> Iterator[None]:
    """Run a command whose process may have no stdout. Run with stdout closed (``paralign align
    x.tsv >&-``), Python's sys.stdout is None, and the first write was a traceback ("'NoneType'
    object has no attribute 'write'"), after the work. When the output is stdout (``-o -``, the
    default) that is one usage error naming STDOUT_NAME before any work, as for stdin; with ``-o
    FILE`` the file is written and what the command also prints (pivot's summary, ...) is dropped,
    as it is for a command without -o (``serve``'s address, ``download``'s summary)."""
    if sys.stdout is not None:
        yield
        return
    if hasattr(args, "output") and is_std(args.output):
        from ..errors import InputFileError

        raise InputFileError("not open (the command was run with standard output closed): give -o FILE",
                             source=STDOUT_NAME, errno=errno.EBADF)
    with open(os.devnull, "w", encoding="utf-8") as sink:
        sys.stdout = sink
        try:
            yield
        finally:
            sys.stdout = None


@contextmanager
def open_out(path: str | Path | None) -> Iterator[IO[str]]:
    """Open a UTF-8 output file ('-' or None: stdout); gzip when the name ends in .gz. A full
    disk (or quota, or file size limit) met writing it names it (STDOUT_NAME for stdout): the
    OSError of a write has no file name, and the error line said only "No space left on device"."""
    try:
        if path in (None, "-"):
            yield sys.stdout
            sys.stdout.flush()
            return
        from ..textio import open_text

        with open_text(path, "wt") as handle:
            yield handle
    except OSError as exc:
        if exc.filename is None and exc.errno in _FULL:
            exc.filename = STDOUT_NAME if path in (None, "-") else str(path)
        raise


#: The errno of a write that found no room: the disk, the user's quota or the file size limit.
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def emit(result: Any, fmt: str, render_text: Callable[[Any], str], out: IO[str] | None = None) -> None:
    """Write `result` as JSON or through `render_text`."""
    out = out or sys.stdout
    if fmt == "json":
        out.write(json_text(result, indent=2) + "\n")
    else:
        text = render_text(result)
        out.write(text if text.endswith("\n") else text + "\n")


def write_result(args: argparse.Namespace, result: Any, render_text: Callable[[Any], str],
                 notes: Iterable[str] = (), items: Iterable[str] = ()) -> int:
    """A command's ending: its `notes` on stderr, each, then the warnings of its bad `items` (as
    `warn_each` caps them: each is in `result`, its JSON), then `result` to ``--output`` (stdout
    by default) in ``--format``; returns the exit status 0."""
    for note in notes:
        warn(note)
    warn_each(items)
    with open_out(args.output) as out:
        emit(result, args.format, render_text, out)
    return 0


class ProgressBar(Protocol[T_co]):
    """What the commands use of a tqdm bar (tqdm ships no annotations): its items as they go,
    `update` by a count, `close`."""

    def __iter__(self) -> Iterator[T_co]: ...
    def update(self, n: float = 1) -> bool | None: ...
    def close(self) -> None: ...


def progress(items: Iterable[T], desc: str, total: int | None = None, disable: bool | None = None,
             delay: float = 0) -> ProgressBar[T]:
    """A tqdm progress bar on stderr, shown only when stderr is a terminal (unless forced), and
    only once `delay` seconds have gone by. `desc` is `_stderr.shown`: it may name a file."""
    from tqdm import tqdm

    if disable is None:
        disable = not sys.stderr.isatty()
    return tqdm(items, desc=shown(desc), total=total, disable=disable, file=sys.stderr, leave=False, delay=delay)


#: Seconds a table is read before its bar shows: a table of a few thousand rows shows none.
TABLE_BAR_DELAY = 2.0


def table_progress(what: str = "--table") -> Callable[[Iterable[T]], Iterable[T]]:
    """The `progress` hook of a table load (:func:`paralign.paraphrases.load_source`): a bar of
    the rows read from `what`, on a terminal, once the load has taken :data:`TABLE_BAR_DELAY`
    seconds (a table of millions of rows took half a minute with nothing on screen)."""
    return lambda rows: progress(rows, f"reading {what}", delay=TABLE_BAR_DELAY)


def progress_callback(total: int | None, desc: str,
                      disable: bool | None = None) -> tuple[Callable[[int], None], Callable[[], None]]:
    """A tqdm-backed `progress(n)` callback and its closer (`disable`: as :func:`progress`'s)."""
    bar = progress(iter(()), desc=desc, total=total, disable=disable)

    def update(n: int) -> None:
        bar.update(n)

    return update, bar.close


def fmt_pct(value: float | None) -> str:
    """A proportion as a percentage with one decimal, or 'n/a'."""
    return "n/a" if value is None else f"{100 * value:.1f}"


def warn_skipped_pairs(rows: Sequence[Mapping[str, Any]]) -> None:
    """Warn about the gold/system pairs a scorer left out (its ``skipped_rows``)."""
    from ..metrics.alignment_scores import SkippedPair

    warn_each(str(SkippedPair.from_dict(row)) for row in rows)


def output_file(stack: ExitStack, path: str, name: str) -> str:
    """`path`, or for '-' (stdout) a file `name` in a temporary directory kept until `stack`
    closes: for library functions that write a file; then :func:`copy_to_stdout` it."""
    if not is_std(path):
        return path
    return str(Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="paralign-"))) / name)


def copy_to_stdout(path: str) -> None:
    """Copy a finished UTF-8 output file to stdout."""
    with open(path, encoding="utf-8") as handle:
        shutil.copyfileobj(handle, sys.stdout)
    sys.stdout.flush()


def replace_names(data: Any, old: str, new: str) -> Any:
    """`data` (a report: dicts, lists, strings) with the name `old` replaced by `new`."""
    if isinstance(data, str):
        return data.replace(old, new)
    if isinstance(data, dict):
        return {key: replace_names(value, old, new) for key, value in data.items()}
    if isinstance(data, list):
        return [replace_names(value, old, new) for value in data]
    return data


def shown_names(data: Any, names: dict[str, str]) -> Any:
    """`data` (a report: dicts, lists, strings) with each copy's path in `names` (from
    :func:`stdin_inputs`) replaced by the name the user gave."""
    for copy, name in names.items():
        data = replace_names(data, copy, name)
    return data


def stdin_inputs(stack: ExitStack, inputs: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """`inputs` with every input that can be read only once (stdin, a pipe: see
    :func:`is_read_once`) replaced by a copy kept until `stack` closes (one copy of stdin for
    all its '-'); and `{copy's path: name to show}` for :func:`shown_names`."""
    copies: dict[str, str] = {}  # input as given -> copy
    for path in inputs:
        key = "-" if is_stdin(path) else path
        if key not in copies and is_read_once(path):
            copies[key] = str(stack.enter_context(read_once(key)))
    paths = [copies.get("-" if is_stdin(path) else path, path) for path in inputs]
    return paths, {copy: STDIN_NAME if key == "-" else key for key, copy in copies.items()}


def stdin_once(stack: ExitStack, **options: Sequence[str]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Each option's paths with '-' (and any input that can be read only once: a pipe,
    ``<(...)``) replaced by a copy kept until `stack` closes; and `{copy: name to show}`.

    Errors raised before `stack` closes name the input, not its copy (see :func:`read_once`);
    the caller renames its results with :func:`shown_names`.  ConfigurationError when more
    than one path is '-' (stdin can be read only once).
    """
    check_stdin_once({key: list(paths) for key, paths in options.items()})
    flat, names = stdin_inputs(stack, [path for paths in options.values() for path in paths])
    split: dict[str, list[str]] = {}
    for key, paths in options.items():
        split[key], flat = flat[: len(paths)], flat[len(paths):]
    return split, names


def check_stdin_once(options: dict[str, Sequence[str]]) -> None:
    """ConfigurationError when stdin ('-' or /dev/stdin) is given more than once among
    `options` (option name -> paths): it can be read only once. A name that starts with '-' is
    the option as a message shows it (``-i``, ``-i (stdin when not given)``), another its dest."""
    named = [key if key.startswith("-") else f"--{key.replace('_', '-')}"
             for key, paths in options.items() for path in paths if is_stdin(path)]
    stdin_given_once(named)


def stdin_given_once(named: Sequence[str]) -> None:
    """ConfigurationError when `named` (what is given stdin, an entry a time) has more than one entry,
    saying how often each: ``'-' is given to -i twice`` (it said "(-i, -)", as if '-' were an option)."""
    if len(named) <= 1:
        return
    counts = {name: named.count(name) for name in named}  # in their first places

    def times(n: int) -> str:  # how often: "twice", "3 times"
        return "twice" if n == 2 else f"{n} times"

    told = [name + ("" if count == 1 else f" {times(count)}") for name, count in counts.items()]
    given = f"to {told[0]}" if len(told) == 1 else f"{times(len(named))}: to {', '.join(told[:-1])} and {told[-1]}"
    raise ConfigurationError(f"stdin can be read only once, but '-' is given {given}")
