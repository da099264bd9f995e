"""Line-aligned parallel corpora (one sentence a line, line i of each file translate each other).

Reading is streaming and checked, because pivoting runs on corpora too big to inspect by hand:

* files with different line counts raise `MismatchError` naming both files and both counts
  (counted before any line is yielded, so no work is wasted on a broken pair of files);
* a line that is empty (on either side) is skipped and counted;
* a line longer than `max_tokens` white-space tokens (on either side) is skipped and counted
  (the table pipelines and `word-align` pass 0 and count tokenizer tokens instead: `aligners.eflomal.token_limit`);
* a byte-order mark starting a file is dropped (it is no part of the first word);
* lines end at LF (CRLF too); a lone CR reads as a space, and a file with CR-only line ends
  raises `FormatError` at line 1 (`paralign.line_ends`: the line index's byte offsets count
  the lines every reader counts);
* bytes that are not UTF-8, and NUL bytes, raise `FormatError` naming the file, line and column (`errors="strict"`,
  the default), or are replaced by U+FFFD and the line counted (`errors="replace"`).

Skips and replacements are reported in a `ParallelStats` (and, when anything was skipped, by
a `ParallelCorpusWarning` through the `warnings` module), so a batch job never fails on one bad
line and nothing is silently lost.  Files ending in `.gz` are read through gzip.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ..errors import ConfigurationError, FormatError, MismatchError, counted
from ..line_ends import CR_ONLY, cr_only_error, lf_text, without_line_end
from ..textio import (
    READ_ERRORS,
    bad_byte,
    decoded,
    input_file_error,
    open_binary,
    reading,
    strip_bom,
)
from .base import LineRange

#: Default limit on tokens per line; longer lines are skipped (aligners choke on them).
DEFAULT_MAX_TOKENS = 100


class ParallelCorpusWarning(UserWarning):
    """Lines of a parallel corpus were skipped or had bytes replaced."""


@dataclass(frozen=True, slots=True)
class ParallelLine:
    """One line pair: 1-based line number and the two texts (line ends stripped)."""

    line: int
    source: str
    target: str


@dataclass(slots=True)
class ParallelStats:
    """What reading a parallel corpus kept, skipped and repaired (filled in while streaming)."""

    source_path: str = ""
    target_path: str = ""
    lines: int = 0
    kept: int = 0
    empty: int = 0
    too_long: int = 0
    replaced: int = 0
    filtered: int = 0  # dropped later by the caller's own filters (e.g. length ratio)
    skipped_lines: list[int] = field(default_factory=list)

    def add(self, counts: dict) -> None:
        """Add the counts of another part of the same corpus (`dataclasses.asdict` of its
        stats; its skipped line numbers after ours)."""
        for name in ("lines", "kept", "empty", "too_long", "replaced", "filtered"):
            setattr(self, name, getattr(self, name) + counts[name])
        for line in counts["skipped_lines"]:
            self.note_skip(line)

    def note_skip(self, line: int) -> None:
        """Remember a skipped line number (the first 1000 only: the counts are complete)."""
        if len(self.skipped_lines) < 1000:
            self.skipped_lines.append(line)

    def to_dict(self) -> dict:
        return {
            "source": self.source_path,
            "target": self.target_path,
            "lines": self.lines,
            "kept": self.kept,
            "empty": self.empty,
            "too_long": self.too_long,
            "replaced": self.replaced,
            "filtered": self.filtered,
        }

    def summary(self) -> str:
        """One line for warnings and logs."""
        return (
            f"{self.source_path} / {self.target_path}: {self.kept} of {self.lines} line pairs kept; "
            f"{self.empty} empty, {self.too_long} over-long skipped; "
            f"{self.replaced} with non-UTF-8 bytes replaced; {self.filtered} filtered"
        )


def _readline(handle: IO[bytes], name: str) -> bytes:
    """One raw line; a read error (a cut-off gzip file...) as InputFileError naming the file."""
    try:
        return handle.readline()
    except READ_ERRORS as exc:
        raise input_file_error(exc, name) from exc


def _cr_before_lf(lines: int, block: bytes) -> bool:
    """Whether `block`, read after `lines` LFs, holds a CR before the file's first LF: with no
    LF in the whole file, its line ends are CR only (:func:`paralign.line_ends.cr_only_error`)."""
    return not lines and b"\r" in block


def count_lines(path: str | Path) -> int:
    """Number of lines (a last line without a newline counts), read in binary blocks;
    FormatError for a file with CR-only line ends, whose lines no reader counts."""
    count = 0
    last = b"\n"
    cr = False
    with reading(str(path)), open_binary(path) as handle:
        while block := handle.read(1 << 20):
            cr = cr or _cr_before_lf(count, block)
            count += block.count(b"\n")
            last = block[-1:]
    if cr and not count:
        raise FormatError(CR_ONLY, source=str(path), line=1)
    return count + (last != b"\n")


def check_line_counts(source: str | Path, target: str | Path, counts: tuple[int, int] | None = None) -> int:
    """The common line count of two parallel files (`counts`: theirs, when already known);
    MismatchError naming both files and both counts when they differ."""
    n_src, n_tgt = counts or (count_lines(source), count_lines(target))
    if n_src != n_tgt:
        raise MismatchError(
            f"parallel files differ in line count: {source} has {counted(n_src, 'line')}, "
            f"{target} has {n_tgt}"
        )
    return n_src


#: Bytes read at a time by :func:`line_index`.
_BLOCK = 1 << 24


def line_index(path: str | Path, chunk_size: int) -> tuple[list[int], int]:
    """Byte offsets of lines 0, chunk_size, 2 chunk_size, ... of a file, and its number of lines
    (a last line without a newline counts): one pass in blocks, newlines found by numpy;
    InputFileError naming the file when it cannot be read, FormatError when its line ends are
    CR only (the offsets of LF-ended lines would cut it nowhere)."""
    import numpy as np

    offsets: list[int] = []
    lines = 0  # lines started before the block
    wanted = 0  # the next line whose start is wanted
    position = 0
    last = b"\n"
    cr = False
    with reading(str(path)), open_binary(path) as handle:
        while block := handle.read(_BLOCK):
            cr = cr or _cr_before_lf(lines, block)
            if lines == 0 and position == 0:
                offsets.append(0)  # line 0 starts the file
                wanted = chunk_size
            ends = np.flatnonzero(np.frombuffer(block, np.uint8) == 10)
            # the newline ends[k] starts line lines + k + 1
            picks = np.arange(wanted - lines - 1, len(ends), chunk_size)
            if len(picks):
                offsets.extend((position + ends[picks] + 1).tolist())
                wanted += chunk_size * len(picks)
            lines += len(ends)
            position += len(block)
            last = block[-1:]
    if cr and not lines:
        raise FormatError(CR_ONLY, source=str(path), line=1)
    if offsets and offsets[-1] == position:  # a start after the final newline begins no line
        offsets.pop()
    return offsets, lines + (last != b"\n")


def _decode(raw: bytes, errors: str, path: str, number: int) -> tuple[str, bool]:
    """(text of one line, whether a bad byte was replaced): a byte that is not UTF-8 or a NUL
    is a FormatError naming file, line and column (`textio.bad_byte`), or U+FFFD with "replace";
    a lone CR a space (`line_ends.lf_text`: the line ends already stripped, one byte check)."""
    text, fault = decoded(raw)
    if text is not None and fault < 0:
        return (lf_text(text) if "\r" in text else text), False  # no call for most lines: the hot path
    if errors == "strict":
        reason = bad_byte(raw, fault)[1]
        how = " or read it" if reason.endswith("re-encode the file") else "; replace it by reading"
        raise FormatError(f"{reason}{how} with errors='replace' (--encoding-errors replace)", source=path, line=number)
    return lf_text(raw.decode("utf-8", errors="replace").replace("\x00", "\ufffd")), True


def _check_line_ends(first: bytes, run: LineRange, name: str) -> None:
    """Raise the FormatError of CR-only line ends when `first` is a file's first line (as
    readline gives it: a file without LF is one line) and holds a CR."""
    if run.offset == 0 and (error := cr_only_error(first, name)) is not None:
        raise error


def iter_parallel(
    source: str | Path,
    target: str | Path,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    errors: str = "strict",
    stats: ParallelStats | None = None,
    check_counts: bool = True,
    warn: bool = True,
    keep_skipped: bool = False,
    lines: tuple[LineRange, LineRange] | None = None,
    names: tuple[str, str] | None = None,
) -> Iterator[ParallelLine]:
    """Stream the usable line pairs of two line-aligned files (see the module doc for checks).

    `stats`, when given, is filled in as lines are read (and is complete once the iterator is
    exhausted).  `max_tokens <= 0` disables the length filter.  With `keep_skipped`, empty and
    over-long pairs are still counted but yielded as ("", "") so output stays line-aligned.
    With `lines` (the same run of lines in each file), only those are read, and the line
    counts are not checked (the caller has: `check_line_counts`).  `names` are how errors and
    `stats` name the two files (default: the paths): the names the user gave, where the paths
    are absolute ones a worker in another folder can open.
    """
    if errors not in ("strict", "replace"):
        raise ConfigurationError(f"errors must be 'strict' or 'replace', got {errors!r}")
    src_name, tgt_name = names or (str(source), str(target))
    stats = stats if stats is not None else ParallelStats()
    stats.source_path, stats.target_path = src_name, tgt_name
    if check_counts and lines is None:
        check_line_counts(source, target)
    src_lines, tgt_lines = lines or (LineRange(), LineRange())
    with open_binary(source, src_name) as src_handle, open_binary(target, tgt_name) as tgt_handle:
        for handle, run in ((src_handle, src_lines), (tgt_handle, tgt_lines)):
            if run.offset:
                handle.seek(run.offset)
        number = src_lines.first - 1
        at_start = True
        left = -1 if src_lines.count is None else src_lines.count
        while left:
            left -= 1
            raw_src, raw_tgt = _readline(src_handle, src_name), _readline(tgt_handle, tgt_name)
            if not raw_src and not raw_tgt:
                break
            number += 1
            if not raw_src or not raw_tgt:
                shorter = src_name if not raw_src else tgt_name
                raise MismatchError(
                    f"parallel files differ in line count: {shorter} ends at line {number - 1} "
                    f"({src_name} vs {tgt_name})"
                )
            stats.lines += 1
            if at_start:  # a file's first line, before its bytes: CR-only line ends make the whole file wrong
                _check_line_ends(raw_src, src_lines, src_name)
                _check_line_ends(raw_tgt, tgt_lines, tgt_name)
            src_text, src_bad = _decode(without_line_end(raw_src), errors, src_name, number)
            tgt_text, tgt_bad = _decode(without_line_end(raw_tgt), errors, tgt_name, number)
            if at_start:  # a file's first line: a byte-order mark is no part of its first word
                at_start = False
                src_text = strip_bom(src_text) if src_lines.offset == 0 else src_text
                tgt_text = strip_bom(tgt_text) if tgt_lines.offset == 0 else tgt_text
            if src_bad or tgt_bad:
                stats.replaced += 1
            empty = not src_text.strip() or not tgt_text.strip()
            too_long = not empty and max_tokens > 0 and (
                len(src_text.split()) > max_tokens or len(tgt_text.split()) > max_tokens
            )
            if empty or too_long:
                stats.empty += empty
                stats.too_long += too_long
                stats.note_skip(number)
                if keep_skipped:
                    yield ParallelLine(number, "", "")
                continue
            stats.kept += 1
            yield ParallelLine(number, src_text, tgt_text)
    if warn and (stats.empty or stats.too_long or stats.replaced):
        warnings.warn(stats.summary(), ParallelCorpusWarning, stacklevel=2)
