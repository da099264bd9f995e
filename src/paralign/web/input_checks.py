"""The engine's checks of the text a request sends, beyond what the models check of its fields:
a batch row's sentence over the server's length limit (:func:`over_limit`, reported in the row's
place), a sentence of too many tokens or none as annotation reads it (:func:`check_tokens`,
refused naming its field), a pasted batch's lines of binary data (:func:`without_binary_lines`,
reported in their place as ``paralign similarity --pairs`` reports them) and a batch of more rows
than the server scores in one request (:func:`too_many_rows`, its count said, worded for pasted
text or a chosen file).

Not for: the limits themselves and the checks of a request's fields (:mod:`.models`), or how a
refusal is told (:mod:`.problems`).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from ..corpora.sts import SIMILARITY_SIDES
from ..sentence import Sentence
from ..textio import bad_byte
from .models import LIMITS
from .problems import FieldsRefused


def over_limit(row: tuple[Any, Any] | str) -> str | None:
    """Why the server does not score a row's pair: a sentence over :data:`.models.LIMITS`
    ``sentence_chars`` characters (a batch holds the lock for all its pairs, and the aligner's
    time grows faster than the square of a sentence's length); None for a pair within it, or a
    row already bad. ``paralign similarity`` scores such a pair. The sides are named first and
    second, as the similarity commands and the batch's other reasons name them
    (:data:`~paralign.corpora.sts.SIMILARITY_SIDES`)."""
    if isinstance(row, str):
        return None
    limit = LIMITS["sentence_chars"]
    lengths = [len(side if isinstance(side, str) else " ".join(side)) for side in row]
    over = [(which, n) for which, n in zip(SIMILARITY_SIDES, lengths, strict=True) if n > limit]
    if not over:
        return None
    which, n = over[0]
    return (f"the {which} sentence has {n:,} characters, over the {limit} this server scores (paralign "
            "similarity --pairs scores it)")


def check_tokens(sentences: Mapping[str, Sentence]) -> None:
    """A ConfigurationError naming each sentence (by its field) of more tokens than
    :data:`.models.LIMITS` ``sentence_tokens``: the aligner's time grows faster than the square of
    the tokens, and one request holds the engine's lock for all of it; or of none, as annotation
    reads it (a text of invisible characters or ``&nbsp;``, which the request's check of white
    space lets through): /api/align answered it with an empty alignment and /api/similarity with
    an encoder's "line 1: empty sentence", where both now say what the command line says of an
    empty sentence."""
    limit = LIMITS["sentence_tokens"]
    over = [{"field": name, "message": f"has {len(s.tokens)} tokens, over the {limit} a sentence may have (each "
             "mark of punctuation and each symbol is a token)"} for name, s in sentences.items() if len(s.tokens) > limit]
    over += [{"field": name, "message": "has no word as read (only invisible characters, or character references "
              "such as &nbsp; that stand for white space)"} for name, s in sentences.items() if not s.tokens]
    if over:
        raise FieldsRefused(over)


def without_binary_lines(text: str) -> tuple[str, dict[int, str]]:
    """`text` with each line that holds a NUL emptied, and why, by line number, as ``paralign
    similarity --pairs`` reads a file (:class:`~paralign.textio.Utf8LineReader`, errors
    ``skip``, in the words of :func:`~paralign.textio.bad_byte`): binary data, not text, the
    line reported in its place. The batch scored ``a<NUL>b`` as a sentence (0.0, shown ``a?b``)."""
    if "\x00" not in text:
        return text, {}
    lines, reasons = text.split("\n"), {}
    for index, line in enumerate(lines):
        if "\x00" in line:
            data = line.encode("utf-8", "surrogatepass")
            reasons[index + 1] = bad_byte(data, data.index(b"\x00"), index + 1)[1]
            lines[index] = ""
    return "\n".join(lines), reasons


def too_many_rows(count: int, max_pairs: int, name: str, pasted: str) -> FieldsRefused:
    """The refusal of a batch of `count` rows, more than `max_pairs`, in words for the user of a
    page, who cannot restart the server (its ``--max-pairs`` goes to the server's log): the rows
    counted (it said "more than N rows" whatever their number), and what to do worded for how
    they came: pasted (`name` is `pasted`, how the notes name pasted text) or a chosen file named
    `name` (it said "score the file" of pasted text too)."""
    over = f"has {count:,} rows, more than the {max_pairs:,} this server scores in one request"
    if name == pasted:
        message = (f"the pasted text {over}: paste at most {max_pairs:,} at a time, or save them in a file and "
                   "score it with paralign similarity --pairs FILE")
    else:
        message = f"{name} {over}: split it, or score the file with paralign similarity --pairs {shlex.quote(name)}"
    return FieldsRefused([{"field": "pairs", "message": message}])
