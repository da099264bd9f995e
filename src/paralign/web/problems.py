"""How the web app tells a client its request was refused: each field and why, in words for people.

Pydantic's errors become ``{field, message}`` records (:func:`field_errors`) and one line
(:func:`describe`); a body that is not JSON, or not UTF-8 (:func:`not_utf8`), is said as such. The
engine refuses a field the models cannot check with :class:`FieldsRefused`; every error answer is
a :class:`Problem`.

Not for: the rules themselves (:mod:`.models`) or the routes that answer (:mod:`.app`, :mod:`.api`,
:mod:`.pages`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from ..errors import ConfigurationError, counted, is_text, lone_in


def not_utf8(exc: UnicodeDecodeError) -> str:
    """What is wrong with bytes that are not UTF-8, for people: the byte, where, and why."""
    return f"is not UTF-8: the byte 0x{exc.object[exc.start]:02x} at position {exc.start} cannot be read ({exc.reason})"


#: JSON's names of the Python types a parsed body can have.
_JSON_TYPES = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean",
               type(None): "null"}


def _message(error: Mapping[str, Any]) -> str:
    """One error's message for people. A body that is not JSON (FastAPI passes the raw bytes on
    when the content type is not JSON), JSON that does not parse (whose ``loc`` is a character
    position, not a field) and a body of the wrong JSON type are said as such; a check's
    ``ValueError`` loses pydantic's ``Value error, `` prefix."""
    kind, loc, message = error.get("type"), tuple(error.get("loc", ())), str(error.get("msg", "invalid"))
    if kind == "json_invalid":
        at = f" at character {loc[-1]}" if len(loc) > 1 else ""
        return f"invalid JSON{at}: {(error.get('ctx') or {}).get('error', message)}"
    if loc == ("body",) and kind == "model_attributes_type":
        if isinstance(error.get("input"), bytes | bytearray):
            return "is not JSON: send a JSON object with the header content-type: application/json"
        return f"must be a JSON object, not {_JSON_TYPES.get(type(error.get('input')), 'that')}"
    if loc == ("body",) and kind == "missing":
        return "is empty: send a JSON object"
    if kind == "string_unicode":  # pydantic takes no str holding a lone surrogate (a JSON escape \ud800)
        value = error.get("input")
        lone = lone_in(value) if isinstance(value, str) and not is_text(value) else "a lone surrogate"
        return (f"{'a field name contains' if loc == ('body',) else 'contains'} {lone}, which cannot be shown "
                "(control characters and lone surrogates are refused)")
    if kind in ("too_long", "too_short") and isinstance(error.get("input"), list):  # pydantic: "List should
        return _count_message(kind, error.get("ctx") or {}, len(error["input"]))  # have ... after validation"
    return message.removeprefix("Value error, ")


def _count_message(kind: str, ctx: Mapping[str, Any], count: int) -> str:
    """A list of too many or too few items, said plainly: ``has 11 items; it may have at most 10``."""
    if kind == "too_long":
        return f"has {counted(count, 'item')}; it may have at most {ctx.get('max_length')}"
    least = int(ctx.get("min_length", 1))
    return f"{'is empty' if count == 0 else 'has ' + counted(count, 'item')}; it must have at least {counted(least, 'item')}"


def field_errors(errors: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Pydantic's errors as (field, message) records (the input itself is not echoed back)."""
    out = []
    for error in errors:
        loc = error.get("loc", ())
        parts = [] if error.get("type") == "json_invalid" else [p for p in loc if p != "body"]
        out.append({"field": ".".join(str(part) for part in parts) or "body", "message": _message(error)})
    return out


def describe(errors: list[dict[str, str]]) -> str:
    """One line for people: ``source: String should have at most 500 characters; ...``."""
    return "; ".join(f"{e['field']}: {e['message']}" for e in errors) or "invalid request"


class FieldsRefused(ConfigurationError):
    """Fields of a request refused once the work began, which the models cannot tell (a sentence
    of too many tokens, or of no word, as annotation reads it; a source not loaded): `detail`
    names each as a refusal by the models does, ``[{field, message}]``, so that a client finds
    the field in ``detail`` whoever refused it (it was empty: only the message named it)."""

    def __init__(self, detail: list[dict[str, str]]) -> None:
        super().__init__(describe(detail))
        self.detail = detail


class Problem(BaseModel):
    """Every error answer: a message for people, and per field what was wrong."""

    error: str = Field(description="one line for people: each field refused and why")
    detail: list[dict[str, str]] = Field(default_factory=list, description="each field refused, "
                                         "{field, message} (empty when no field is to blame)")
