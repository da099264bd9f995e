"""The pieces every sacrebleu-style signature (``key:value|...|version:X``) is built from.

:func:`join_signature` writes the parts in order with paralign's version last (and
:func:`signature_parts` reads them back; :func:`part_fault`: a value that cannot be a part's, holding ``|``),
:func:`short_hash` names file contents and fitted models by 8 hex digits of SHA-256 and
:func:`setting_value` writes one setting (yes/no, %g numbers). They sit in a low layer so that
every layer can sign its numbers: the aligners, similarity scores and ParaMetric alike.

Not for: what any signature records: an aligner's settings (:mod:`paralign.aligners.signature`),
similarity scores' (:mod:`paralign.similarity.signature`), ParaEval's sources
(:mod:`paralign.metrics.paraeval.signature`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from ._version import __version__ as VERSION


def join_signature(parts: Mapping[str, object]) -> str:
    """``key:value|...|version:X``: the parts in their order (None values left out), then
    paralign's version last, as sacrebleu's signatures end with sacrebleu's."""
    items = [f"{key}:{value}" for key, value in parts.items() if value is not None and key != "version"]
    return "|".join([*items, f"version:{VERSION}"])


def signature_parts(signature: str) -> dict[str, str]:
    """``{key: value}`` of a ``key:value|...`` signature (a value may hold ``:``, as
    ``aligner:sultan:default``)."""
    return dict(part.partition(":")[::2] for part in signature.split("|") if part)


def part_fault(value: str) -> str | None:
    """Why `value` cannot be a part's value (:func:`join_signature`): it holds ``|``, which ends a
    part, so :func:`signature_parts` would read two parts, the second with no key; None when it
    can. A ``:`` can (a part's key ends at its first ``:``, as in ``aligner:sultan:default``)."""
    return None if "|" not in value else f"{value!r} holds '|', which separates a signature's parts"


def short_hash(data: bytes | Iterable[bytes]) -> str:
    """The first 8 hex digits of SHA-256 over `data` (or its pieces in order): the length of
    ParaEval's table hashes."""
    h = hashlib.sha256()
    for piece in [data] if isinstance(data, bytes) else data:
        h.update(piece)
    return h.hexdigest()[:8]


def setting_value(value: object) -> str:
    """A setting as a signature writes it: yes/no, numbers as %g, tuples joined by /."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, tuple):
        return "/".join(setting_value(v) for v in value)
    return str(value)


def with_parts(signature: str, parts: Mapping[str, object]) -> str:
    """`signature` with `parts` added before its closing ``version:X`` (settings of a step that
    comes after the score, e.g. a bootstrap's ``bs:1000|seed:12345``, as sacrebleu adds them)."""
    added = [f"{key}:{value}" for key, value in parts.items() if value is not None]
    head, sep, version = signature.rpartition("|version:")
    if not sep:  # no version part: added at the end
        return "|".join([signature, *added])
    return "|".join([head, *added]) + sep + version
