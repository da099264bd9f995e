"""A table pipeline's work directory: each stage's fingerprint (what its results depend on) in
``run.json``, one record per finished stage, and what a run reused and recomputed.

Each stage (a corpus' reading, its alignment, its chunks' counts, the summed pairs) records
what it depends on: input files, the options it reads, and the stages whose results it reads.
A rerun with other options recomputes the stages whose fingerprint differs and those after
them, and reuses the others: another ``max_length`` recounts the chunks but keeps the
alignment (which eflomal, seeded from /dev/urandom, could not make again).  A difference that
would discard a *guarded* stage (a corpus read or aligned: other inputs, other reading or
aligning options) is refused when the user named the directory (``--restart`` discards it)
and recomputed when it is the default one.  Stale results are deleted before the new
fingerprints are written, and every record is written under a temporary name and renamed, so
a killed run leaves only finished records of its own fingerprints behind.

:func:`written_through_file`: a pipeline's table to a stream (/dev/null, a FIFO) built in a
temporary folder, with the default work directory, and copied to it.

Not for: the stages themselves (:mod:`paralign.pivot`) or the chunk files' contents
(:mod:`paralign.pivot_frames`).
"""

from __future__ import annotations

import inspect
import json
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, Protocol, TypeVar

from .errors import ConfigurationError, FormatError, check_output_file, written_in_place
from .tables import atomic_path
from .textio import require_file
from .tokenizers import TOKENS_VERSION

#: The format of ``run.json`` (a record without it is of an earlier version: one fingerprint).
RUN_VERSION = 2

#: The top of a work directory: the run's record, corpus k's folder (``c0``, ``c1``...; a
#: monolingual run's groups in ``mono``), the summed pairs' stage (``pairs/``, ``pairs.json``)
#: and the output's parts.
RUN_RECORD = "run.json"
CORPUS_FOLDER = "c{}"
MONO_FOLDER = "mono"
PAIRS_STAGE = "pairs"
OUTPUT_PARTS = "output-parts"


def file_id(path: str | Path) -> dict[str, Any]:
    path = require_file(path)
    stat = path.stat()
    return {"path": str(path.resolve()), "size": stat.st_size, "mtime": int(stat.st_mtime)}


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a run: what its results depend on besides the stages it reads (`depends`:
    input files' records under the keys of :data:`FILE_KEYS`, its options under "options"),
    those stages (`after`), the paths under the work directory holding its results
    (`outputs`, deleted when stale), and whether discarding them is refused in a directory the
    user named (`guarded`: a corpus read or aligned)."""

    depends: dict[str, Any]
    after: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    guarded: bool = False

    def record(self) -> dict[str, Any]:
        """As ``run.json`` holds it (JSON values: tuples as lists)."""
        return json.loads(json.dumps({"depends": self.depends, "after": self.after, "outputs": self.outputs,
                                      "guarded": self.guarded}))


class StagedOptions(Protocol):
    """The pipelines' options (`paralign.pivot_input.PivotOptions`) as the stages read them."""

    def of_stage(self, stage: str) -> dict[str, Any]: ...


def corpus_stages(name: str, read: dict[str, Any], options: StagedOptions, aligner: str | None) -> dict[str, Stage]:
    """The stages of one corpus in the work directory's folder `name`: reading (`read`: its
    input files' records and anything else that changes what is read, with the reading
    options), its alignment (`aligner`: "given", "eflomal" (with its options) or "sultan";
    None: the workers read the corpus with a given alignment, chunk by chunk) and its chunks'
    counts. The reading's fingerprint holds the tokenizers' version
    (:data:`paralign.tokenizers.TOKENS_VERSION`): token files split by other code are not reused."""
    stages = {f"{name}/prepare": Stage({**read, "options": options.of_stage("prepare"),
                                        "tokenizer_version": TOKENS_VERSION}, outputs=(name,), guarded=True)}
    if aligner is not None:
        computed = aligner != "given"  # a given alignment's links are written by stage 1
        stages[f"{name}/align"] = Stage(
            {"aligner": aligner, "options": options.of_stage("align") if aligner == "eflomal" else {}},
            after=(f"{name}/prepare",), guarded=True,
            outputs=tuple(f"{name}/{path}" for path in ("align.json", "align-parts", "priors.txt",
                                                         *(("align.txt",) if computed else ()))))
    stages[f"{name}/extract"] = Stage({"options": options.of_stage("extract")}, after=(list(stages)[-1],),
                                      outputs=(f"{name}/chunks",))
    return stages


def with_pairs(stages: dict[str, Stage], options: dict[str, Any]) -> dict[str, Stage]:
    """`stages` and the summed pairs' (the table's group-by, kept in ``pairs/``), which read
    every corpus' chunks and `options`."""
    extracts = tuple(name for name in stages if name.endswith("/extract"))
    return {**stages, PAIRS_STAGE: Stage({"options": options}, after=extracts,
                                         outputs=(PAIRS_STAGE, f"{PAIRS_STAGE}.json"))}


def pivot_stages(corpora: Sequence[tuple[str | Path, str | Path]], alignments: Sequence[str | Path | None],
                 on_workers: Sequence[bool], options: StagedOptions) -> dict[str, Stage]:
    """The stages of a pivot run: each corpus' (folder ``c<k>``; aligned by eflomal, given,
    or read by the workers, `on_workers`) and the summed pairs, with the pivot's pruning."""
    stages: dict[str, Stage] = {}
    for index, ((english, foreign), alignment) in enumerate(zip(corpora, alignments, strict=True)):
        read = {"corpora": [file_id(english), file_id(foreign)],
                "alignments": None if alignment is None else file_id(alignment), "read_on_workers": on_workers[index],
                "max_tokens_of": "tokens"}  # not white-space fields, as before: token files of that rule not reused
        aligner = None if on_workers[index] else "eflomal" if alignment is None else "given"
        stages.update(corpus_stages(CORPUS_FOLDER.format(index), read, options, aligner))
    return with_pairs(stages, options.of_stage(PAIRS_STAGE))


class WorkDir:
    """A run's work directory: its stages' fingerprints in ``run.json``, the stage records
    (``<stage>.json``, written last), what was reused and what was recomputed (and why)."""

    def __init__(self, path: Path, stages: Mapping[str, Stage], *, restart: bool, replace_other: bool):
        """Open `path` for a run of `stages` (in order: every stage after those it reads).

        Stale stages of an earlier run (:func:`stale_stages`) are deleted, unless one is
        guarded and `replace_other` is false: then a ConfigurationError names what differs
        (:func:`differences`).  `restart` deletes the whole directory first."""
        #: absolute: the workers, which run in folders of their own, are given paths inside it
        self.path = path.absolute()
        self.reused: list[str] = []
        #: the stages of an earlier run redone because what they depend on changed: why, each
        self.recomputed: dict[str, list[str]] = {}
        run = path / RUN_RECORD
        new = {name: stage.record() for name, stage in stages.items()}
        kept = None  # the stage records run.json still holds (read once)
        check_own_files(path)  # before anything in it is deleted
        if path.exists() and (restart or not run.exists()):
            shutil.rmtree(path)
        elif run.exists():
            kept = _read_run(run)
            if kept is None:  # an earlier version's single fingerprint: its stages are unknown
                if not replace_other:
                    raise ConfigurationError(f"work directory {path} holds a run of an earlier version of paralign: "
                                             "use another --work-dir or --restart")
                shutil.rmtree(path)
            else:
                self._discard_stale(kept, new, replace_other)
        path.mkdir(parents=True, exist_ok=True)
        if kept != new:
            with atomic_path(run) as tmp:
                tmp.write_text(json.dumps({"version": RUN_VERSION, "stages": new}, sort_keys=True), encoding="utf-8")

    def _discard_stale(self, old: dict[str, Any], new: dict[str, Any], replace_other: bool) -> None:
        stale = stale_stages(old, new)
        guarded = [reason for name, (own, _) in stale.items() if old.get(name, {}).get("guarded") for reason in own]
        if guarded and not replace_other:
            raise ConfigurationError(
                f"work directory {self.path} holds a run with other inputs or options "
                f"({'; '.join(dict.fromkeys(guarded))}): use another --work-dir or --restart")
        for name in [*stale, *(name for name in new if name not in old)]:  # a new stage's leftovers too
            for output in sorted({*old.get(name, {}).get("outputs", ()), *new.get(name, {}).get("outputs", ())}):
                target = self.path / output
                if target.is_dir():
                    shutil.rmtree(target)
                else:
                    target.unlink(missing_ok=True)
        self.recomputed = {name: own or [f"{stage} recomputed" for stage in after]
                           for name, (own, after) in stale.items() if name in new}

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


#: What a run writes at the top of its work directory: its record, the summed pairs (the
#: outputs of :func:`with_pairs`' stage), the output's parts, each corpus' folder (``c0``,
#: ``c1``..., ``mono``); ``.tmp*``, an atomic write's. Built from the names the stages use, so
#: a new one is not refused.
OWN_NAMES = re.compile("|".join([
    *(re.escape(name) for name in (RUN_RECORD, *with_pairs({}, {})[PAIRS_STAGE].outputs, OUTPUT_PARTS, MONO_FOLDER)),
    re.escape(CORPUS_FOLDER.format("")) + r"\d+", r"\.tmp.*"]))


def check_own_files(path: Path) -> None:
    """ConfigurationError unless `path` is missing, empty or holds only what a run writes
    (:data:`OWN_NAMES`): a run deletes its work directory (stale, restarted, or done without
    `keep_work`), and ``--work-dir .`` or a folder of the user's files was deleted whole."""
    if not path.is_dir():
        return
    other = sorted(entry.name for entry in path.iterdir() if not OWN_NAMES.fullmatch(entry.name))
    if other:
        shown = ", ".join(other[:3]) + (f" and {len(other) - 3} more" if len(other) > 3 else "")
        raise ConfigurationError(f"work directory {path} holds files that no paralign run wrote ({shown}): a run "
                                 "deletes its work directory, so give a new or empty folder (nothing was deleted)")


def _read_run(run: Path) -> dict[str, Any] | None:
    """The stage records of ``run.json``; None for an earlier version's (no stages)."""
    try:
        data = json.loads(run.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise FormatError(f"corrupt run record ({exc}); use --restart", source=str(run)) from exc
    if not isinstance(data, dict) or data.get("version") != RUN_VERSION:
        return None
    return data["stages"]


def stale_stages(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, tuple[list[str], list[str]]]:
    """The stages of an earlier run (`old` records) whose results cannot serve the run of
    `new` (records in order, each after those it reads): each with what differs in its own
    fingerprint (:func:`differences`) and the stale stages it reads.  A stage `new` has not (a
    corpus left out) is stale with the input files it read."""
    stale: dict[str, tuple[list[str], list[str]]] = {}
    for name, now in new.items():
        before = old.get(name)
        if before is None:
            continue
        own = differences(before["depends"], now["depends"]) if before["depends"] != now["depends"] else []
        if before["after"] != now["after"] and not own:
            own = [f"reads {', '.join(now['after'])}, not {', '.join(before['after'])}"]
        after = [stage for stage in now["after"] if stage in stale]
        if own or after:
            stale[name] = (own, after)
    for name, before in old.items():
        if name not in new:
            files = {key: value for key, value in before["depends"].items() if key in FILE_KEYS and value is not None}
            stale[name] = (differences(files, {}) or [f"{name}: not in this run"], [])
    return stale


#: The fingerprints' records of input files (path, size, modification time).
FILE_KEYS = ("corpora", "alignments", "groups", "alignment")


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two fingerprints, for the user: each option with its two values,
    and which inputs are other files (or were changed since)."""
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


P = ParamSpec("P")
R = TypeVar("R")


def written_through_file(build: Callable[P, R]) -> Callable[P, R]:
    """`build` (a pipeline writing its table to its argument `output` and returning a report
    dataclass with an `output` field) made to write an output that is written in place
    (:func:`paralign.errors.written_in_place`: /dev/null, a FIFO, /dev/fd/N, /dev/stdout) through
    a file: the table is built in a temporary folder, under the output's name (its suffix
    chooses the format), then its bytes are copied to the output; the default work folder is
    in that temporary folder too (``/dev/null.work`` cannot be made). Why: the table is written
    under a temporary name beside it and renamed onto it, which replaced a FIFO or (as root)
    /dev/null by a regular file, and in /dev, which a user may not write, failed after the work."""
    signature = inspect.signature(build)

    @wraps(build)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = signature.bind(*args, **kwargs)
        output = bound.arguments["output"]
        if not written_in_place(output):
            return build(*args, **kwargs)
        check_output_file(output)  # writable: before the work, not at its end
        with tempfile.TemporaryDirectory(prefix="paralign-") as folder:
            bound.arguments["output"] = Path(folder) / Path(output).name
            report = build(*bound.args, **bound.kwargs)
            with open(bound.arguments["output"], "rb") as table, open(output, "wb") as out:
                shutil.copyfileobj(table, out)
        return replace(report, output=str(output))  # type: ignore[type-var]  # R: any report dataclass, which mypy cannot bound here

    return run


def work_path(output: Path, work_dir: str | Path | None) -> Path:
    return Path(work_dir) if work_dir is not None else output.with_name(output.name + ".work")
