"""Which reference a metric's scores file says its scores were computed against (``meta-eval
--scores``), so that scores against ref B are not correlated beside metrics scored against ref A
as if they were against A (:func:`paralign.metrics.given_scores.check_references`). A file says it

* in a WMT metrics-task submission file, in each row's REFERENCE field (:func:`reference_label`):
  ``ref-A`` ... ``ref-D``, the name of the task's file of that reference
  (``newstest2021.de-en.ref.ref-A``) or ``src`` for a metric without one;
* in mt-metrics-eval's file name, ``NAME-REF.LEVEL.score`` (its README: REF is "a list of one or
  more names separated by ``.``, eg ``refa`` or ``refa.refb``", ``src`` when no reference was
  used, ``all`` when all were): ``COMET-refB.seg.score``;
* in the name of WMT21's own score files, ``..._ref-B.tsv``
  (``scores/COMET/<lp>/COMET_newstest2021_ref-B.tsv``).

A file that says none (another name, stdin) or ``src`` is not checked (:func:`name_reference`).
An mt-metrics-eval file's name says its level too (:func:`name_level`: ``doc`` and ``domain``
scores are none that meta-eval correlates).

Not for: reading the files (:mod:`.wmt_submission`, :mod:`.wmt`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A REFERENCE field of a submission row ("ref-A or ref-B or ref-C or ref-D ..., and src"), or
#: the name of the task's file of that reference (``newstest2021.de-en.ref.ref-A``).
REFERENCE_FIELD = re.compile(r"(?:\S+\.)?ref-(?P<label>[A-Za-z0-9]+)|src")

#: An mt-metrics-eval metric scores file's name, ``NAME-REF.LEVEL.score``.
_MTME_NAME = re.compile(r".+-(?P<refs>[^-]+)\.(?P<level>sys|seg|doc|domain)\.score")

#: One reference of an mt-metrics-eval REF (``refA``, ``refb``).
_MTME_REF = re.compile(r"ref(?P<label>[A-Za-z0-9]+)")

#: A WMT21 score file's name ending in its reference (``COMET_newstest2021_ref-A``, no suffix).
_WMT21_NAME = re.compile(r"(?:.*[_.-])?ref-(?P<label>[A-Za-z0-9]+)")


@dataclass(frozen=True, slots=True)
class NamedReference:
    """The reference sets a scores file says its scores are against: `labels` as the WMT21 folder
    names them (``("B",)``; ``("a", "b")`` for mt-metrics-eval's ``refa.refb``), None for every
    set the test set has (mt-metrics-eval's ``all``); `shown`, as the file writes it (``ref-B``,
    ``refB``); `line`, the row that says it, None when the file's name does."""

    labels: tuple[str, ...] | None
    shown: str
    line: int | None = None


def reference_label(field: str) -> str | None:
    """The reference set a REFERENCE field names, as the WMT21 folder labels it (``A``: ``ref-A``,
    ``newstest2021.de-en.ref.ref-A``); None for ``src`` (no reference) and a field that is none."""
    match = REFERENCE_FIELD.fullmatch(field)
    return None if match is None else match["label"]


def field_reference(field: str, line: int) -> NamedReference | None:
    """The reference a submission row's REFERENCE `field` (on `line`) names; None for ``src``."""
    label = reference_label(field)
    return None if label is None else NamedReference((label,), field, line)


def name_reference(path: str) -> NamedReference | None:
    """The reference the name of the scores file `path` says its scores are against
    (mt-metrics-eval's ``COMET-refB.seg.score``, ``BLEU-refA.refB.sys.score``, ``METRIC-all.sys.score``;
    WMT21's ``COMET_newstest2021_ref-B.tsv``, also gzipped); None for a name that says none, or
    ``src`` (no reference used): such a file is not checked."""
    name = _file_name(path)
    mtme = _MTME_NAME.fullmatch(name)
    if mtme is not None:
        refs = mtme["refs"]
        if refs == "all":
            return NamedReference(None, refs)
        labels = [_MTME_REF.fullmatch(ref) for ref in refs.split(".")]
        if all(labels):
            return NamedReference(tuple(match["label"] for match in labels if match), refs)
        return None
    wmt21 = _WMT21_NAME.fullmatch(name.rpartition(".")[0] or name)
    return None if wmt21 is None else NamedReference((wmt21["label"],), f"ref-{wmt21['label']}")


def name_level(path: str) -> str | None:
    """The level an mt-metrics-eval file's name says (``sys``, ``seg``, ``doc``, ``domain``:
    ``COMET-refA.doc.score``), None for another name."""
    mtme = _MTME_NAME.fullmatch(_file_name(path))
    return None if mtme is None else mtme["level"]


def _file_name(path: str) -> str:
    """The file's name in `path` (after its last / or \\), without ``.gz``."""
    return re.split(r"[\\/]", path)[-1].removesuffix(".gz")
