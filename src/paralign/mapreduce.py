"""Disk-backed map/reduce of keyed counts: sorted runs, heap merge, atomic files, a manifest.

The paraphrase pipelines count far more keys (phrase pairs) than fit in memory on big corpora,
so every stage works the same way: a *map* step accumulates a bounded dictionary
`key -> numbers`, writes it to disk sorted by key as a *run* (`RunWriter`), and a *reduce* step
heap-merges the runs, adding the numbers of equal keys (`merge_runs`).  Runs are plain TSV
(`k1<TAB>k2...<TAB>v1<TAB>v2...`), so the stages could run on different machines.

Every file is written under a temporary name and renamed into place (`atomic_path`), and a
`Manifest` (JSON, also replaced atomically) records which chunks and stages are finished, so
a killed run resumes where it stopped and never reads half-written output.
"""

from __future__ import annotations

import heapq
import itertools
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import ConfigurationError, FormatError

Key = tuple[str, ...]
Values = list[float]  # ints are kept as ints (Python numbers), floats as floats
Record = tuple[Key, Values]


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary sibling of `path`; rename it onto `path` only if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        elif tmp.exists():
            tmp.unlink()


def write_run(items: Mapping[Key, Sequence[float]], path: str | Path) -> Path:
    """Write `key -> values` sorted by key as TSV, atomically; return the path."""
    path = Path(path)
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as handle:
        for key in sorted(items):
            handle.write("\t".join(key) + "\t" + "\t".join(map(str, items[key])) + "\n")
    return path


def read_run(path: str | Path, key_width: int) -> Iterator[Record]:
    """Stream the records of a run (or of any TSV whose first `key_width` fields are the key)."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) <= key_width:
                raise FormatError(
                    f"expected {key_width} key fields and values, got {len(fields)} fields",
                    source=str(path),
                    line=number,
                )
            try:  # ints stay exact counts; floats round-trip through str()
                values = [int(v) if v.isdigit() else float(v) for v in fields[key_width:]]
            except ValueError as exc:
                raise FormatError(f"bad number in run: {exc}", source=str(path), line=number) from exc
            yield tuple(fields[:key_width]), values


def add_values(into: Values, values: Sequence[float]) -> Values:
    """Element-wise sum (in place) — the default way records of one key are combined."""
    for index, value in enumerate(values):
        into[index] += value
    return into


def combine_sorted(
    records: Iterable[Record], combine: Callable[[Values, Sequence[float]], Values] = add_values
) -> Iterator[Record]:
    """Combine consecutive records with equal keys (input sorted by key)."""
    current: Key | None = None
    acc: Values = []
    for key, values in records:
        if key == current:
            acc = combine(acc, values)
            continue
        if current is not None:
            yield current, acc
        current, acc = key, list(values)
    if current is not None:
        yield current, acc


def merge_runs(
    paths: Sequence[str | Path],
    key_width: int,
    combine: Callable[[Values, Sequence[float]], Values] = add_values,
) -> Iterator[Record]:
    """Heap-merge sorted runs into one sorted stream, combining the values of equal keys."""
    streams = [read_run(path, key_width) for path in paths]
    merged = heapq.merge(*streams, key=lambda record: record[0])
    return combine_sorted(merged, combine)


def group_by_prefix(records: Iterable[Record], width: int) -> Iterator[tuple[Key, list[Record]]]:
    """Group a key-sorted stream by the first `width` key fields (one group in memory)."""
    for prefix, group in itertools.groupby(records, key=lambda record: record[0][:width]):
        yield prefix, list(group)


class RunWriter:
    """Accumulate `key -> values` in a bounded dict and spill sorted runs to `directory`.

    `add` sums values of a repeated key; when `max_items` keys are held the dict is
    written as a run and cleared.  `close()` spills the rest and returns all run paths.
    """

    def __init__(self, directory: str | Path, prefix: str = "run", max_items: int = 1_000_000) -> None:
        if max_items < 1:
            raise ConfigurationError(f"max_items must be >= 1, got {max_items}")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.prefix = prefix
        self.max_items = max_items
        self.paths: list[Path] = []
        self._items: dict[Key, Values] = {}

    def add(self, key: Key, values: Sequence[float]) -> None:
        """Add `values` to `key`'s running sums; spill a run once `max_items` keys are held."""
        old = self._items.get(key)
        if old is None:
            self._items[key] = list(values)
        else:
            add_values(old, values)
        if len(self._items) >= self.max_items:
            self.flush()

    def flush(self) -> None:
        """Write the held keys as the next sorted run (if any) and start an empty dict."""
        if self._items:
            path = self.directory / f"{self.prefix}-{len(self.paths):05d}.tsv"
            self.paths.append(write_run(self._items, path))
            self._items = {}

    def close(self) -> list[Path]:
        """Spill what is left and return the paths of all runs written, in order."""
        self.flush()
        return list(self.paths)


class Manifest:
    """Which stages/chunks of a run are finished, in `<work_dir>/manifest.json`.

    The manifest carries a fingerprint of the inputs and options; `open` refuses a work
    directory made with a different fingerprint unless `restart` (which empties it).
    """

    FILE = "manifest.json"

    def __init__(self, work_dir: Path, fingerprint: Mapping[str, Any], done: dict[str, Any]) -> None:
        self.work_dir = work_dir
        self.fingerprint = dict(fingerprint)
        self.done = done
        self.resumable = frozenset(done)  # finished before this session
        self.marked: set[str] = set()  # (re)done in this session

    @classmethod
    def open(
        cls, work_dir: str | Path, fingerprint: Mapping[str, Any], *, restart: bool = False,
        replace_other: bool = False,
    ) -> Manifest:
        """Open or create; `replace_other` empties a directory left by a run with another fingerprint."""
        work_dir = Path(work_dir)
        path = work_dir / cls.FILE
        fingerprint = json.loads(json.dumps(fingerprint))  # normalise tuples etc.
        if restart and work_dir.exists():
            shutil.rmtree(work_dir)
        work_dir.mkdir(parents=True, exist_ok=True)
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise FormatError(f"corrupt manifest ({exc}); restart the run", source=str(path)) from exc
            if data.get("fingerprint") != fingerprint and replace_other:
                return cls.open(work_dir, fingerprint, restart=True)
            if data.get("fingerprint") != fingerprint:
                raise ConfigurationError(
                    f"work directory {work_dir} holds a run with other inputs or options; "
                    "restart it (--restart) or use another --work-dir"
                )
            return cls(work_dir, fingerprint, dict(data.get("done", {})))
        manifest = cls(work_dir, fingerprint, {})
        manifest.save()
        return manifest

    def is_done(self, name: str) -> bool:
        """True when the stage or chunk `name` is recorded as finished (this or an earlier session)."""
        return name in self.done

    def info(self, name: str) -> Any:
        """The value recorded with `name` by `mark_done` (None when not finished)."""
        return self.done.get(name)

    def mark_done(self, name: str, info: Any = True) -> None:
        """Record `name` as finished with `info` (JSON-serialisable) and save the manifest at once."""
        self.done[name] = info
        self.marked.add(name)
        self.save()

    def forget(self, prefix: str, keep: Iterable[str] = ()) -> None:
        """Drop the finished entries under `prefix` except `keep` (their input is being redone)."""
        kept = set(keep)
        self.done = {k: v for k, v in self.done.items() if not k.startswith(prefix) or k in kept}
        self.save()

    def reused(self) -> list[str]:
        """Entries finished by an earlier session and not redone in this one."""
        return sorted(self.resumable - self.marked)

    def save(self) -> None:
        """Write the fingerprint and finished entries to the manifest file atomically."""
        data = {"fingerprint": self.fingerprint, "done": self.done}
        with atomic_path(self.work_dir / self.FILE) as tmp:
            tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def write_lines(path: str | Path, lines: Iterable[str]) -> int:
    """Write lines (newline added) atomically; return how many."""
    count = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(line + "\n")
            count += 1
    return count

