"""Shared helpers for CLI commands: --format, input/output files, progress bars, warnings."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TypeVar

T = TypeVar("T")


def add_format(parser: argparse.ArgumentParser, default: str = "text") -> None:
    """Add `--format text|json`."""
    parser.add_argument("--format", choices=("text", "json"), default=default, help="output format (default: %(default)s)")


def add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", default="-", help="output file (default: stdout)")


@contextmanager
def open_in(path: str | Path | None) -> Iterator[IO[str]]:
    """Open a UTF-8 input file ('-' or None: stdin); gzip when the name ends in .gz."""
    if path in (None, "-"):
        yield sys.stdin
        return
    from ..paraphrases import open_text

    with open_text(path) as handle:
        yield handle


@contextmanager
def open_out(path: str | Path | None) -> Iterator[IO[str]]:
    """Open a UTF-8 output file ('-' or None: stdout); gzip when the name ends in .gz."""
    if path in (None, "-"):
        yield sys.stdout
        sys.stdout.flush()
        return
    from ..paraphrases import open_text

    with open_text(path, "wt") as handle:
        yield handle


def emit(result: Any, fmt: str, render_text: Callable[[Any], str], out: IO[str] | None = None) -> None:
    """Write `result` as JSON or through `render_text`."""
    out = out or sys.stdout
    if fmt == "json":
        out.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    else:
        text = render_text(result)
        out.write(text if text.endswith("\n") else text + "\n")


def warn(message: str) -> None:
    """A warning on stderr (CLI only; library code reports through return values or warnings)."""
    print(f"paralign: warning: {message}", file=sys.stderr)


def progress(items: Iterable[T], desc: str, total: int | None = None, disable: bool | None = None) -> Iterable[T]:
    """A tqdm progress bar on stderr, shown only when stderr is a terminal (unless forced)."""
    from tqdm import tqdm

    if disable is None:
        disable = not sys.stderr.isatty()
    return tqdm(items, desc=desc, total=total, disable=disable, file=sys.stderr, leave=False)


def fmt_pct(value: float | None) -> str:
    """A proportion as a percentage with one decimal, or 'n/a'."""
    return "n/a" if value is None else f"{100 * value:.1f}"
