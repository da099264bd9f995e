"""Which reference a metric's scores file names for its scores (``meta-eval --scores``): a WMT
metrics-task submission row's REFERENCE field, ``ref-A`` ... ``ref-D``, the name of the task's
file of that reference (``newstest2021.de-en.ref.ref-A``) or ``src`` for a metric without one.

Not for: reading the files (:mod:`.wmt_submission`, :mod:`.wmt`).
"""

from __future__ import annotations

import re

#: A REFERENCE field of a submission row ("ref-A or ref-B or ref-C or ref-D ..., and src"), or
#: the name of the task's file of that reference (``newstest2021.de-en.ref.ref-A``).
REFERENCE_FIELD = re.compile(r"(?:\S+\.)?ref-(?P<label>[A-Za-z0-9]+)|src")


def reference_label(field: str) -> str | None:
    """The reference set a REFERENCE field names, as the WMT21 folder labels it (``A``: ``ref-A``,
    ``newstest2021.de-en.ref.ref-A``); None for ``src`` (no reference) and a field that is none."""
    match = REFERENCE_FIELD.fullmatch(field)
    return None if match is None else match["label"]
