"""The pieces every sacrebleu-style signature (``key:value|...|version:X``) is built from.

:func:`join_signature` writes the parts in order with paralign's version last (and
:func:`signature_parts` reads them back; :func:`part_fault`: a value that cannot be a part's, holding ``|``
or a line break;
:func:`file_name_part`: a file's name as a part writes it, refused by that rule where it enters;
:func:`name_part`: other free text, a source's, a signal's or an aligner's name, alike),
:func:`short_hash` names file contents and fitted models by 8 hex digits of SHA-256 and
:func:`setting_value` writes one setting (yes/no, %g numbers). They sit in a low layer so that
every layer can sign its numbers: the aligners, similarity scores and ParaMetric alike.

Not for: what any signature records: an aligner's settings (:mod:`paralign.aligners.signature`),
similarity scores' (:mod:`paralign.similarity.signature`), ParaEval's sources
(:mod:`paralign.metrics.paraeval.signature`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import PurePath

from ._version import __version__ as VERSION
from .errors import ConfigurationError


def join_signature(parts: Mapping[str, object]) -> str:
    """``key:value|...|version:X``: the parts in their order (None values left out), then
    paralign's version last, as sacrebleu's signatures end with sacrebleu's."""
    items = [f"{key}:{value}" for key, value in parts.items() if value is not None and key != "version"]
    return "|".join([*items, f"version:{VERSION}"])


def signature_parts(signature: str) -> dict[str, str]:
    """``{key: value}`` of a ``key:value|...`` signature (a value may hold ``:``, as
    ``aligner:sultan:default``)."""
    return dict(part.partition(":")[::2] for part in signature.split("|") if part)


#: The characters :meth:`str.splitlines` ends a line at (``\n``, ``\r``, ``\v``, ``\f``, the
#: separators ``\x1c``-``\x1e``, NEL, U+2028, U+2029): no part's value holds one (:func:`part_fault`).
LINE_BREAKS = "\n\x0b\x0c\r\x1c\x1d\x1e\x85\u2028\u2029"


def part_fault(value: str) -> str | None:
    """Why `value` cannot be a part's value (:func:`join_signature`), naming the character; None
    when it can. It holds ``|``, which ends a part, so :func:`signature_parts` would read two
    parts, the second with no key; or a line break (:data:`LINE_BREAKS`): the signature read back,
    but a command's text output (``signature: ...``) printed it raw, in two lines, and a reader
    of lines (``str.splitlines``, a log's) took the second for another line. A ``:`` can (a part's
    key ends at its first ``:``, as in ``aligner:sultan:default``)."""
    if "|" in value:
        return f"{value!r} holds '|', which separates a signature's parts"
    held = next((char for char in value if char in LINE_BREAKS), None)
    return None if held is None else f"{value!r} holds {held!r}, a line break, which would split the signature's line"


def name_part(value: str, part: str, *, what: str, marks: str = "") -> str:
    """`value`, free text a user named something by (`what`, the field that holds it: ``a Signal's
    name``, ``--refs``), as a signature's part (`part`, its shape: ``signal:NAME``) writes it:
    itself, or a ConfigurationError naming `what` where it holds ``|`` or a line break (:func:`part_fault`) or
    another of `marks` (the characters the part itself separates its items with: ``+`` in
    ``refs:A+B``), which would read back otherwise. Refused, not escaped: every name a signature
    held that reads back is written as it was, byte for byte, and a reader that splits on ``|``
    (sacrebleu's way) needs no unescaping; only a name that could not read back is refused."""
    fault = part_fault(value) or next((f"{value!r} holds {mark!r}, which separates the items of the part"
                                       for mark in marks if mark in value), None)
    if fault is None:
        return value
    raise ConfigurationError(f"{what}: {fault} (the signature names it: {part}): name it another way")


#: :func:`file_name_part`'s remedy where a name is read through links (a model directory's,
#: ``encoder:DIR``): a link does not help.
RESOLVED_REMEDY = "copy the directory under another name (a link is named by the directory it points to)"


def file_name_part(path: str | os.PathLike[str], part: str, *, option: str | None = None,
                   name: str | None = None, remedy: str = "copy or link the file under another name") -> str:
    """`path`'s file name (`name`: as the caller writes it, by default its last component) as a
    signature's part writes it (`part`, its shape: ``model:FILE#HASH``); a ConfigurationError
    naming `path`, and `option` (the command's flag that gave it: ``--model``) when given, where
    :func:`part_fault` refuses the name: a file named ``run|1.tsv`` was signed ``model:run|1.tsv#HASH``,
    read back as a part ``model:run`` and a keyless ``1.tsv#HASH``. Every place that writes a
    user's file name (or other free text) into a signature goes through it, and a command checks
    its options' files with it before any work, so the user hears of it at once. `remedy`: what
    to do, the message's end (a link does not help where the name is the link's target's)."""
    shown = os.fspath(path)
    written = PurePath(shown).name if name is None else name
    fault = part_fault(written)
    if fault is None:
        return written
    flag = "" if option is None else f"argument {option}: "
    raise ConfigurationError(f"{flag}{shown}: the file's name {fault} (the signature names it: {part}): {remedy}")


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
