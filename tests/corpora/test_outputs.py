"""corpora.outputs.read_outputs: the one rule by which paraeval's -i files and a WMT pair's
outputs are read against a reference (it was written twice, in cli/paraeval.py and corpora/wmt.py)."""

from __future__ import annotations

import errno

import pytest

from paralign.corpora.outputs import read_outputs
from paralign.errors import (
    EmptyScoringError,
    FormatError,
    InputFileError,
    MismatchError,
    ParalignError,
)

FILES: dict[str, list[str] | ParalignError] = {
    "good": ["a", "b"],
    "bad-byte": FormatError("a byte that is not UTF-8", source="bad-byte", line=1),
    "short": ["a"],
    "empty": EmptyScoringError("no lines"),
    "also-good": ["c", "d"],
}


def _read(path: str) -> list[str]:
    found = FILES[path]
    if isinstance(found, ParalignError):
        raise found
    return found


def _length_error(key: str, lines: list[str]) -> MismatchError:
    return MismatchError(f"{len(lines)} lines", source=key)


def test_each_output_kept_or_its_error_in_the_given_order() -> None:
    kept, bad = read_outputs({name: name for name in FILES}, _read, 2, "ref", _length_error)
    assert list(kept) == ["good", "also-good"] and kept["good"] == ["a", "b"]
    assert list(bad) == ["bad-byte", "short", "empty"]
    assert str(bad["short"]) == "short: 1 lines" and bad["bad-byte"] is FILES["bad-byte"]


def test_outputs_all_of_one_other_length_are_the_references_fault() -> None:
    with pytest.raises(MismatchError, match=r"^ref\.txt: 3 lines, but each of the 2 system outputs has 2"):
        read_outputs({"good": "good", "also-good": "also-good", "bad-byte": "bad-byte"}, _read, 3, "ref.txt",
                     _length_error)


def test_one_output_of_another_length_is_its_own_fault() -> None:
    kept, bad = read_outputs({"good": "good"}, _read, 3, "ref.txt", _length_error)
    assert kept == {} and str(bad["good"]) == "good: 2 lines"


def test_a_fatal_error_is_raised_where_it_is_met() -> None:
    def read(path: str) -> list[str]:
        if path == "missing":
            raise InputFileError("no such file", source=path, errno=errno.ENOENT)
        return _read(path)

    def fatal(error: ParalignError) -> bool:
        return getattr(error, "cannot_open", False)

    with pytest.raises(InputFileError, match="missing: no such file"):
        read_outputs({"bad-byte": "bad-byte", "missing": "missing"}, read, 2, "ref", _length_error, fatal)
    with pytest.raises(MismatchError, match="short: 1 lines"):  # a length error too
        read_outputs({"short": "short"}, _read, 2, "ref", _length_error, lambda error: True)


def test_other_errors_are_not_caught() -> None:
    def read(path: str) -> list[str]:
        raise KeyError(path)

    with pytest.raises(KeyError):
        read_outputs({"x": "x"}, read, 1, "ref", _length_error)
