"""A table pipeline's work directory: the run's fingerprint (inputs and options) in
``run.json``, one record per finished stage, and what a resumed run reused.

A directory holding another run (other inputs or options) is refused when the user named it
and replaced when it is the default one; every record is written under a temporary name and
renamed, so a killed run leaves only finished records behind.

Not for: the stages themselves (:mod:`paralign.pivot`) or the chunk files' contents
(:mod:`paralign.pivot_frames`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from .errors import ConfigurationError, FormatError
from .tables import atomic_path
from .textio import require_file


def file_id(path: str | Path) -> dict[str, Any]:
    path = require_file(path)
    stat = path.stat()
    return {"path": str(path.resolve()), "size": stat.st_size, "mtime": int(stat.st_mtime)}


class WorkDir:
    """A run's work directory: its fingerprint (inputs and options) in ``run.json``, the
    stage records (``<stage>.json``, written last) and what was reused."""

    def __init__(self, path: Path, fingerprint: dict[str, Any], *, restart: bool, replace_other: bool):
        #: absolute: the workers, which run in folders of their own, are given paths inside it
        self.path = path.absolute()
        self.reused: list[str] = []
        run = path / "run.json"
        if path.exists() and (restart or not run.exists()):
            shutil.rmtree(path)
        elif run.exists():
            try:
                old = json.loads(run.read_text(encoding="utf-8"))
            except ValueError as exc:
                raise FormatError(f"corrupt run record ({exc}); use --restart", source=str(run)) from exc
            new = json.loads(json.dumps(fingerprint))
            if old != new:
                if not replace_other:
                    raise ConfigurationError(
                        f"work directory {path} holds a run with other inputs or options "
                        f"({'; '.join(differences(old, new))}): use another --work-dir or --restart")
                shutil.rmtree(path)
        path.mkdir(parents=True, exist_ok=True)
        if not run.exists():
            with atomic_path(run) as tmp:
                tmp.write_text(json.dumps(fingerprint, sort_keys=True), encoding="utf-8")

    def done(self, stage: str, *, reuse: bool = True) -> dict[str, Any] | None:
        """The record of a finished stage (counted as reused unless `reuse` is false), or None."""
        record = self.path / f"{stage}.json"
        if not record.exists():
            return None
        if reuse:
            self.reused.append(stage)
        return json.loads(record.read_text(encoding="utf-8"))

    def mark(self, stage: str, info: dict[str, Any]) -> dict[str, Any]:
        with atomic_path(self.path / f"{stage}.json") as tmp:
            tmp.write_text(json.dumps(info), encoding="utf-8")
        return info


#: The fingerprint's records of input files (path, size, modification time).
FILE_KEYS = ("corpora", "alignments", "groups", "alignment")


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two runs' fingerprints, for the user: each option with its two
    values, and which inputs are other files (or were changed since)."""
    said = []
    for key in sorted(set(old) | set(new)):
        before, now = old.get(key), new.get(key)
        if before == now:
            continue
        if key == "options" and isinstance(before, dict) and isinstance(now, dict):
            said += [f"{name}: {before.get(name)!r} there, {now.get(name)!r} now"
                     for name in sorted(set(before) | set(now)) if before.get(name) != now.get(name)]
        elif key in FILE_KEYS:
            said.append(f"{key}: other files, or the same files changed since")
        else:
            said.append(f"{key}: {before!r} there, {now!r} now")
    return said


def work_path(output: Path, work_dir: str | Path | None) -> Path:
    return Path(work_dir) if work_dir is not None else output.with_name(output.name + ".work")
