"""Metrics whose scores a file gives, not computed from texts (``meta-eval --scores``: a user's
own metric), as :func:`.correlation.meta_evaluate` takes them beside the built-in ones.

Not for: reading the files (:func:`paralign.corpora.metric_scores.read_segment_scores`,
:func:`paralign.corpora.metric_scores.read_system_scores`) or correlating
the scores (:mod:`.correlation`, :mod:`.segment_correlation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ConfigurationError, MismatchError, counted

if TYPE_CHECKING:  # pragma: no cover
    from ..corpora.wmt import WMTPair
    from ..corpora.wmt_reference import NamedReference


@dataclass(frozen=True, slots=True)
class GivenScores:
    """A metric whose segment scores are given, not computed (``meta-eval --scores``: a user's
    own metric, :func:`given_scores`): its segment scores are those given, its system score is
    the mean of its segment scores, recomputed on each resample of segments as a built-in
    metric's corpus score is (statistics: each segment's score and a 1)."""

    name: str
    scores: Mapping[str, Mapping[int, Any]]  #: system -> segment (1-based) -> `metric_scores.GivenScore`
    source: str  #: the file, as errors name it
    #: the first 8 hex digits of SHA-256 over the sorted rows: the same scores however the file
    #: is written (order, CRLF, a header), other scores apart
    digest: str
    #: the reference the file says its scores are against (None: it says none, or ``src``):
    #: :func:`paralign.corpora.wmt_reference.name_reference`, checked by :func:`check_references`
    reference: NamedReference | None = None

    @property
    def signature(self) -> str:
        """``scores:FILE#HASH|system:mean``: the file's name and :attr:`digest`, and how its
        system score is made."""
        from ..signature import file_name_part

        return f"scores:{file_name_part(self.source, SCORES_PART)}#{self.digest}|system:mean"

    @property
    def stats_key(self) -> str:
        return f"scores:{self.name}"  # never a built-in metric's statistics

    def system_stats(self, system: str, n_lines: int) -> np.ndarray:
        """(segments, 2) statistics of `system`; MismatchError naming the file (and line) when it
        has no score for the system, one for a segment past `n_lines`, or none for a segment."""
        given = self.scores.get(system)
        if given is None:
            raise _no_scores(system, self.scores, self.source)
        past = [(v.line, k) for k, v in given.items() if k > n_lines]
        if past:
            line, k = min(past)
            raise MismatchError(f"segment {k} of system {system!r} is past the last line ({n_lines})",
                                source=self.source, line=line)
        missing = next((k for k in range(1, n_lines + 1) if k not in given), None)
        if missing is not None:
            raise MismatchError(f"no score for segment {missing} of system {system!r} "
                                f"({len(given)} of its {n_lines} segments have one)", source=self.source)
        return np.array([[given[k].score, 1.0] for k in range(1, n_lines + 1)], dtype=np.float64)

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        raise ConfigurationError(f"{self.name}: its scores are given ({self.source}), not computed from texts")

    def score(self, sums: np.ndarray) -> np.ndarray:
        return sums[..., 0] / sums[..., 1]

    def segment_score(self, stats: np.ndarray) -> np.ndarray:
        return stats[..., 0]


def _no_scores(system: str, scores: Mapping[str, object], source: str, hint: str = "") -> MismatchError:
    """The error of a correlated system a scores file has no score for: a name spelt otherwise
    (WMT21's COMET "Nemo" is the output "NVIDIA-NeMo"), naming the file and the systems it scores,
    then `hint` (:func:`_sys_id_hint`), or the file's name that differs from `system` only in
    case, said as the humans' and the outputs' case twins are (``meta-eval``'s warnings): 'online-W'
    for 'Online-W' was one name among ten shown, or past them, with no word of the case."""
    names = sorted(scores)
    shown = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")
    twin = next((name for name in names if name.casefold() == system.casefold()), None)
    if twin is not None and not hint:
        hint = (f"; the file's {twin!r} differs only in case: not matched, as a name is matched as written "
                "(the output files' names); rename it")
    return MismatchError(f"no scores for system {system!r} (the file scores {counted(len(names), 'system')}: "
                         f"{shown}){hint}", source=source)


def check_scored(metrics: Sequence, data: WMTPair) -> None:
    """MismatchError naming the file of the first metric of `metrics` whose scores a file gives
    that has no score for one of the systems of `data` (each correlated system must have one),
    before any metric is computed (:func:`.correlation.metric_statistics` checks it, and
    ``meta-eval`` before its scorer loads); when the file names systems by the human scores'
    SYS_ID, it says so (:func:`_sys_id_hint`): ``Nemo.7`` for ``NVIDIA-NeMo`` was "no scores for
    system 'NVIDIA-NeMo' (the file scores ...)", no word of the two names of one system. The rows
    are not renamed by the SYS_IDs: a file's name is matched as written, as the output files' are."""
    from ..corpora.wmt import human_scores_name

    sys_ids = {score.sys_id: name for name, score in data.human.items()}
    for metric in metrics:
        if not isinstance(metric, GivenScores | GivenSystemScores):
            continue
        system = next((name for name in data.systems if name not in metric.scores), None)
        if system is not None:
            raise _no_scores(system, metric.scores, metric.source,
                             _sys_id_hint(system, metric.scores, sys_ids, human_scores_name(data.pair)))


def _sys_id_hint(system: str, scores: Mapping[str, object], sys_ids: Mapping[str, str], ids_file: str) -> str:
    """What to say after "no scores for system `system`", when one of the names of the scores file
    (`scores`) is its SYS_ID: the names that are SYS_IDs of the human scores (`sys_ids`: SYS_ID ->
    NAME, in `ids_file`), where the outputs are named by NAME, or SYS_IDs without their ``.N``
    (WMT21's COMET files: ``Nemo``, SYS_ID ``Nemo.7``, NAME ``NVIDIA-NeMo``; one such stem of two
    SYS_IDs is none); "" when none is `system`'s. A name that is some system's NAME is none."""
    cut_ids = [sys_id for sys_id in sys_ids if "." in sys_id]
    stems = {sys_id.rpartition(".")[0]: sys_id for sys_id in cut_ids}
    stems = {stem: sys_id for stem, sys_id in stems.items()
             if sum(other.rpartition(".")[0] == stem for other in cut_ids) == 1}
    found = [(name, name if name in sys_ids else stems[name]) for name in sorted(scores)
             if name not in sys_ids.values() and (name in sys_ids or name in stems)]
    if not any(sys_ids[sys_id] == system for _, sys_id in found):
        return ""
    shown = ", ".join(f"{name!r} is {sys_ids[sys_id]!r}" + ("" if name == sys_id else f" (SYS_ID {sys_id!r})")
                      for name, sys_id in found[:3]) + (", ..." if len(found) > 3 else "")
    cut = " (or one without its '.N')" if any(name != sys_id for name, sys_id in found) else ""
    one = len(found) == 1
    return (f"; {counted(len(found), 'name')} of the file {'is the SYS_ID' if one else 'are SYS_IDs'}{cut} of "
            f"{'a system' if one else 'systems'} in {ids_file} (its 5th field), where the outputs are named by NAME "
            f"(its last): {shown}; name the file's rows by NAME")


#: Why a metric of given system scores has no interval and no paired test.
NOTHING_TO_RESAMPLE = ("its system scores are given, with no segment scores to resample: no interval and no "
                       "paired test")


@dataclass(frozen=True, slots=True)
class GivenSystemScores:
    """A metric whose system scores are given (``meta-eval --scores`` of ``SYSNAME SCORE`` lines,
    one a system, TAB-separated or, in a line without a TAB, separated by any run of blanks, as
    mt-metrics-eval's ``*.sys.score`` and WMT21's COMET files are (:func:`paralign.corpora.metric_scores.read_system_scores`);
    or a submission file's system rows), correlated as they are at system level.
    It has no segment scores: no segment level, and nothing the bootstrap over segments could
    recompute, so no interval and no paired test (:data:`NOTHING_TO_RESAMPLE`); a built-in
    metric's interval is not that of its point value alone either."""

    name: str
    scores: Mapping[str, Any]  #: system -> `metric_scores.GivenScore`
    source: str  #: the file, as errors name it
    digest: str  #: as :attr:`GivenScores.digest`, over the sorted ``system<TAB>score`` rows
    reference: NamedReference | None = None  #: as :attr:`GivenScores.reference`

    @property
    def signature(self) -> str:
        """``scores:FILE#HASH|system:given``: the file's name and :attr:`digest`; its system
        scores are the file's."""
        from ..signature import file_name_part

        return f"scores:{file_name_part(self.source, SCORES_PART)}#{self.digest}|system:given"

    def system_score(self, system: str) -> float:
        """`system`'s given score; MismatchError naming the file when it has none."""
        given = self.scores.get(system)
        if given is None:
            raise _no_scores(system, self.scores, self.source)
        return float(given.score)


def check_levels(metrics: Sequence, level: str, option: str = "level") -> None:
    """ConfigurationError when `level` is ``segment`` and a metric of `metrics` has system scores
    only (:class:`GivenSystemScores`): it would be in no table. At ``both`` it is at system level.
    The message names the level as the caller's user gave it, `option` (``--level`` on the
    command line), with the values that take such a metric, as the CLI's usage errors do."""
    given = next((m for m in metrics if isinstance(m, GivenSystemScores)), None)
    if level == "segment" and given is not None:
        raise ConfigurationError(f"{option} segment: {given.source} has system scores only, no segment level: "
                                 f"give {option} system or {option} both")


def check_references(metrics: Sequence, refs: Sequence[str], available: Sequence[str] | None = None) -> None:
    """MismatchError naming the file, and the line of a submission file, of the first metric of
    `metrics` whose scores a file gives against other reference sets than `refs` (the sets the
    other metrics are scored against, ``--refs``): its scores against ref B, correlated beside
    metrics scored against ref A, were taken for scores against A, under a signature saying
    ``refs:A``. The file says its reference in its rows or name
    (:mod:`paralign.corpora.wmt_reference`; labels compared without case: mt-metrics-eval's
    ``refb`` is ref B); one that says none, or ``src``, is not checked, and neither is
    mt-metrics-eval's ``all`` (every set) when `available` (the sets the test set has) is None."""
    ours = {label.casefold() for label in refs}
    for metric in metrics:
        named = getattr(metric, "reference", None)
        if not isinstance(metric, GivenScores | GivenSystemScores) or named is None:
            continue
        if named.labels is None and available is None:
            continue  # "all", and which sets the test set has is not known
        sets = list(available or ())
        theirs = [next((have for have in sets if have.casefold() == label.casefold()), label)
                  for label in (sets if named.labels is None else named.labels)]  # as the folder spells them
        if {label.casefold() for label in theirs} == ours:
            continue
        where = "the file's name" if named.line is None else "its REFERENCE field"
        mine, asked = ",".join(theirs), ",".join(refs)
        raise MismatchError(
            f"scores against reference {mine} ({where}: {named.shown!r}), but --refs {asked}: the other metrics "
            f"are scored against {asked}, and these would be correlated as if they were too; give --refs {mine}, "
            f"or scores against {asked}", source=metric.source, line=named.line)


#: The characters a given metric's name may not hold, each a separator of the meta-evaluation's
#: signature (:func:`.meta_signature.meta_signature`: ``|`` between parts, ``:`` after a part's
#: key, ``+`` between the ``scores`` part's metrics, ``#`` before a metric's hash) or of
#: ``--scores NAME=FILE`` (``=``): ``scores:a+b#1a2b3c4d`` could be one metric ``a+b`` or two.
NAME_MARKS = "|:+#="


def name_fault(name: str) -> str | None:
    """Why `name` cannot name a given metric (it holds a character of :data:`NAME_MARKS`, each
    named, or a line break, which would split the signature's printed line:
    :func:`paralign.signature.part_fault`), or None when it can."""
    from ..signature import part_fault

    held = [mark for mark in NAME_MARKS if mark in name]
    if not held:
        broken = part_fault(name)  # no '|' here: a line break
        return None if broken is None else f"the name {broken}"
    return (f"the name {name!r} holds {', '.join(repr(mark) for mark in held)}, which the meta-evaluation's "
            f"signature separates its parts with ({' '.join(NAME_MARKS)})")


#: How a given metric's signature writes its file's name (:func:`paralign.signature.file_name_part`:
#: one holding ``|`` is refused; a ``:`` or ``#`` reads back, the hash starting after the last ``#``).
SCORES_PART = "scores:FILE#HASH"


#: mt-metrics-eval's levels meta-eval does not correlate, as its file names say them (``X-refA.doc.score``).
_OTHER_LEVELS = {"doc": "document", "domain": "domain"}


def _check_level_name(path: str) -> None:
    """ConfigurationError naming `path` when its name says mt-metrics-eval's document- or
    domain-level scores: read as segment blocks (``no score for segment 120 ...``) or lines of
    three fields (``expected 3 TAB-separated fields``), they were refused in words about another
    layout."""
    from ..corpora.wmt_reference import name_level

    level = name_level(path)
    if level in _OTHER_LEVELS:
        raise ConfigurationError(f"{path}: mt-metrics-eval's {_OTHER_LEVELS[level]}-level scores (*.{level}.score): "
                                 "meta-eval correlates system scores (*.sys.score) and segment scores (*.seg.score)")


def given_scores(path: str, name: str | None = None, *, lines: Iterable[str] | None = None,
                 pair: str | None = None, refs: Sequence[str] | None = None) -> GivenScores | GivenSystemScores:
    """A metric's own scores, as a metric :func:`.correlation.meta_evaluate` takes beside the
    built-in ones: segment scores, ``system<TAB>segment<TAB>score`` lines or mt-metrics-eval's
    ``*.seg.score`` blocks, ``SYSNAME SCORE`` lines, each system's in the test set's order
    (:func:`paralign.corpora.metric_scores.read_segment_scores`, :class:`GivenScores`), or system scores,
    ``SYSNAME SCORE`` lines, one a system (WMT21's COMET files, mt-metrics-eval's ``*.sys.score``:
    :func:`paralign.corpora.metric_scores.read_system_scores`, :class:`GivenSystemScores`), told apart by
    the first line that is not a header and, for ``SYSNAME SCORE`` lines, the number of lines of
    each system (:func:`paralign.corpora.metric_scores.scores_layout`); or either level in a WMT
    metrics-task submission file, its rows of `pair` (None: the file's one pair) on newstest2021
    (against the set `refs`, when its rows are against several:
    :func:`paralign.corpora.wmt_submission.read_submission`); read from the file `path`, or from `lines`
    (`path` then names them, as the command line gives stdin), named `name` (default: the file's
    name without its extension; ConfigurationError for a name holding a character of
    :data:`NAME_MARKS`), signed ``scores:FILE#HASH|system:mean`` (``system:given`` for
    system scores; the first 8 hex digits of SHA-256 over its sorted rows, as a table is hashed:
    the same scores however the file is written)."""
    from pathlib import Path

    from ..corpora.metric_scores import read_segment_scores, read_system_scores, scores_layout
    from ..corpora.wmt import iter_lines
    from ..corpora.wmt_reference import name_reference
    from ..corpora.wmt_submission import is_submission, read_submission
    from ..signature import file_name_part

    metric = name or Path(path).stem
    fault = name_fault(metric)
    if fault is not None:
        raise ConfigurationError(f"{path}: {fault}: name the metric another way")
    file_name_part(path, SCORES_PART)
    _check_level_name(path)
    read = list(iter_lines(path) if lines is None else lines)
    if is_submission(read):
        submission = read_submission(read, str(path), pair, refs=refs)
        if submission.segments:
            return _segment_metric(metric, submission.segments, str(path), submission.reference)
        return _system_metric(metric, submission.systems, str(path), submission.reference)
    reference = name_reference(str(path))
    if scores_layout(read) == "system":
        return _system_metric(metric, read_system_scores(read, str(path)), str(path), reference)
    return _segment_metric(metric, read_segment_scores(read, str(path)), str(path), reference)


def _system_metric(metric: str, systems: Mapping[str, Any], source: str,
                   reference: NamedReference | None) -> GivenSystemScores:
    """:class:`GivenSystemScores` of `systems` (system -> `metric_scores.GivenScore`), hashed over its sorted rows."""
    from ..signature import short_hash

    rows = sorted(f"{system}\t{given.score!r}\n" for system, given in systems.items())
    return GivenSystemScores(metric, systems, source, short_hash("".join(rows).encode("utf-8")), reference)


def _segment_metric(metric: str, scores: Mapping[str, Mapping[int, Any]], source: str,
                    reference: NamedReference | None) -> GivenScores:
    """:class:`GivenScores` of `scores` (system -> segment -> `metric_scores.GivenScore`), hashed over its sorted rows."""
    from ..signature import short_hash

    rows = sorted(f"{system}\t{k}\t{given.score!r}\n" for system, by_line in scores.items()
                  for k, given in by_line.items())
    return GivenScores(metric, scores, source, short_hash("".join(rows).encode("utf-8")), reference)


def given_digests(metrics: Sequence) -> dict[str, str]:
    """Name -> digest (:attr:`GivenScores.digest`) of each metric of `metrics` whose scores a
    file gives (what the meta-evaluation's own signature names them by:
    :func:`.meta_signature.meta_signature`)."""
    return {metric.name: metric.digest for metric in metrics if isinstance(metric, GivenScores | GivenSystemScores)}
