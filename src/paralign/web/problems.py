"""How the web app tells a client its request was refused: each field and why, in words for people.

Pydantic's errors become ``{field, message}`` records (:func:`field_errors`) and one line
(:func:`describe`); a body that is not JSON, or not UTF-8 (:func:`not_utf8`), is said as such. The
engine refuses a field the models cannot check with :class:`FieldsRefused`; every error answer is
a :class:`Problem`.

Not for: the rules themselves (:mod:`.models`) or the routes that answer (:mod:`.app`, :mod:`.api`,
:mod:`.pages`).
"""

from __future__ import annotations

import types
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from ..errors import ConfigurationError, counted, is_text, lone_in


def not_utf8(exc: UnicodeDecodeError) -> str:
    """What is wrong with bytes that are not UTF-8, for people: the byte, where, and why."""
    return f"is not UTF-8: the byte 0x{exc.object[exc.start]:02x} at position {exc.start} cannot be read ({exc.reason})"


#: JSON's names of the Python types a parsed body can have.
_JSON_TYPES = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean",
               type(None): "null"}


def _constraint(metadata: Iterable[Any], name: str) -> Any:
    """The value of a constraint (``max_length``, ``ge``...) among a field's metadata, or None."""
    return next((getattr(m, name) for m in metadata if getattr(m, name, None) is not None), None)


def _range(low: Any, high: Any, unit: str = "") -> str:
    """A range in words: ``from 1 to 500``, ``of 1 to 8 items``, ``of at most 500``; "" for none."""
    unit = f" {unit}" if unit else ""
    if low is not None and high is not None:
        return f"{'of' if unit else 'from'} {low} to {high}{unit}"
    if high is not None or low is not None:
        return f"of at {'most' if high is not None else 'least'} {high if high is not None else low}{unit}"
    return ""


def one_of(names: Sequence[str]) -> str:
    """Choices in words: ``sultan, contextual or exact``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def takes(annotation: Any, metadata: Sequence[Any] = (), enum: Sequence[Any] | None = None) -> str:
    """What a field of `annotation` (with the constraints in `metadata`) takes, in words:
    ``a text of at most 500 characters``, ``sultan, contextual or exact``, ``true or false``,
    ``a whole number from 1 to 500``, ``a list of 1 to 8 items, each a text of at most 500
    characters``. A refusal says it: pydantic's own words named its types (``Input should be a
    valid string``, ``Field required``) and never what the field does take."""
    origin = get_origin(annotation)
    if origin is Annotated:
        inner, *extra = get_args(annotation)
        more = [m for e in extra for m in (e.metadata if isinstance(e, FieldInfo) else [e])]
        return takes(inner, [*metadata, *more], enum)
    if origin in (Union, types.UnionType):
        kinds = [arg for arg in get_args(annotation) if arg is not type(None)]
        return " or ".join(takes(kind, metadata, enum) for kind in kinds) + " (or null)"
    choices = list(get_args(annotation)) if origin is Literal else list(enum or [])
    if choices:
        return one_of([str(choice) for choice in choices])
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return f"a whole number {_range(_constraint(metadata, 'ge'), _constraint(metadata, 'le'))}".rstrip()
    if annotation is str:
        low, high = _constraint(metadata, "min_length"), _constraint(metadata, "max_length")
        return "a non-empty text" if high is None and low == 1 else f"a text {_range(low, high, 'characters')}".rstrip()
    if origin is list:
        (item,) = get_args(annotation) or (Any,)
        size = _range(_constraint(metadata, "min_length"), _constraint(metadata, "max_length"), "items")
        return f"a list{' ' + size if size else ''}, each {takes(item)}"
    return getattr(annotation, "__name__", str(annotation))


#: Per field of a choice (``aligner``, ``preset``, ``config``, ``signal``), what this server offers
#: and what it does not, with why (:attr:`.engine.Engine.choices`).
Choices = Mapping[str, tuple[Sequence[str], Mapping[str, str]]]


def must_be(offered: Sequence[str], unavailable: Mapping[str, str]) -> str:
    """A refused choice's message: what the user can pick here, and apart from it what this server
    does not offer and why (``must be sultan or exact; not offered by this server: contextual (the
    contextual encoder needs the optional extra 'neural' ...)``). The list was every name the models
    know, the contextual ones without the neural extra too, which the next request then refused."""
    said = f"must be {one_of(offered)}" if offered else "has no choice on this server"
    if not unavailable:
        return said
    return f"{said}; not offered by this server: " + "; ".join(f"{name} ({why})" for name, why in unavailable.items())


def field_takes(field: FieldInfo) -> str:
    """What a model's field takes, in words (:func:`takes`)."""
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    enum = extra.get("enum")
    return takes(field.annotation, field.metadata, enum if isinstance(enum, list) else None)


def _item_takes(model: type[BaseModel] | None, loc: Sequence[Any]) -> str | None:
    """What the field (or list item) at `loc` of `model` takes, or None when not known."""
    parts = [p for p in loc if p != "body"]
    if model is None or not parts or parts[0] not in model.model_fields:
        return None
    field = model.model_fields[parts[0]]
    if len(parts) > 1 and isinstance(parts[1], int) and get_origin(field.annotation) is list:
        return takes(get_args(field.annotation)[0])
    return field_takes(field)


#: Pydantic's errors of a value of the wrong kind, said as "must be WHAT, not a TYPE" (the
#: input's JSON type) or, for a value out of range, "is VALUE; it must be WHAT".
_WRONG_TYPE = frozenset({"string_type", "list_type", "bool_type", "bool_parsing", "int_type", "int_parsing",
                         "literal_error", "enum", "dict_type", "model_type", "float_type", "none_required"})
_OUT_OF_RANGE = frozenset({"greater_than_equal", "less_than_equal", "greater_than", "less_than", "int_from_float"})


def _found(value: Any) -> str:
    """A value a client sent, in words: its JSON type (the input itself is not echoed back,
    but a number, which says what was wrong with it)."""
    return _JSON_TYPES.get(type(value), "that")


def not_a_field(fields: Iterable[str], of: str = "this request") -> str:
    """The refusal of a field `of` a request or form that it does not have (a misspelt option is
    refused, never ignored): ``is not a field of this request: it takes source, target ...``."""
    names = ", ".join(fields)
    return f"is not a field of {of}" + (f": it takes {names}" if names else "")


def _our_words(kind: str, error: Mapping[str, Any], model: type[BaseModel] | None,
               choices: Choices | None = None) -> str | None:
    """The project's words for one of pydantic's errors about a field of `model` (which field
    it is, the caller says; what it takes, this does: a choice among `choices` by :func:`must_be`),
    or None to keep the message as it is."""
    loc, value = tuple(error.get("loc", ())), error.get("input")
    name = next((part for part in loc if part != "body"), None)
    if kind in ("literal_error", "enum") and choices and name in choices:
        return must_be(*choices[str(name)])
    what = _item_takes(model, loc)
    if kind == "missing":
        return f"is required: {what}" if what else "is required"
    if kind == "extra_forbidden":
        return not_a_field(model.model_fields if model is not None else ())
    if kind == "string_too_long" and isinstance(value, str):
        return f"has {len(value):,} characters; it may have at most {(error.get('ctx') or {}).get('max_length')} characters"
    if kind == "string_too_short" and value == "":
        return "is empty" + (f": it must be {what}" if what else "")
    if what is None:
        return None
    if kind in _WRONG_TYPE:
        kind_of_value = "a string" if isinstance(value, str) and kind == "literal_error" else _found(value)
        return f"must be {what}" + ("" if kind == "literal_error" else f", not {kind_of_value}")
    if kind in _OUT_OF_RANGE and isinstance(value, int | float) and not isinstance(value, bool):
        number = f"{int(value):,}" if float(value).is_integer() else f"{value:g}"  # 1e3 sent: 1,000
        return f"is {number}; it must be {what}"
    if kind in _OUT_OF_RANGE:
        return f"must be {what}"
    return None


def _message(error: Mapping[str, Any], model: type[BaseModel] | None = None, choices: Choices | None = None,
             unit: str = "item") -> str:
    """One error's message for people. A body that is not JSON (FastAPI passes the raw bytes on
    when the content type is not JSON), JSON that does not parse (whose ``loc`` is a character
    position, not a field) and a body of the wrong JSON type are said as such; a field missing,
    unknown, of the wrong type or out of range is said in the project's words, with what the
    field takes (from `model`, the request's model, when known: :func:`takes`); a check's
    ``ValueError`` loses pydantic's ``Value error, `` prefix; a list of too many or too few
    items counts them in `unit` (:func:`count_message`)."""
    kind, loc, message = error.get("type"), tuple(error.get("loc", ())), str(error.get("msg", "invalid"))
    if kind == "json_invalid":
        at = f" at character {loc[-1]}" if len(loc) > 1 else ""
        return f"invalid JSON{at}: {(error.get('ctx') or {}).get('error', message)}"
    if loc == ("body",) and kind == "model_attributes_type":
        if isinstance(error.get("input"), bytes | bytearray):
            return "is not JSON: send a JSON object with the header content-type: application/json"
        return f"must be a JSON object, not {_found(error.get('input'))}"
    if loc == ("body",) and kind == "missing":
        return "is empty: send a JSON object"
    if kind == "string_unicode":  # pydantic takes no str holding a lone surrogate (a JSON escape \ud800)
        value = error.get("input")
        lone = lone_in(value) if isinstance(value, str) and not is_text(value) else "a lone surrogate"
        return (f"{'a field name contains' if loc == ('body',) else 'contains'} {lone}, which cannot be shown "
                "(control characters and lone surrogates are refused)")
    if kind in ("too_long", "too_short") and isinstance(error.get("input"), list):  # pydantic: "List should
        return count_message(kind, error.get("ctx") or {}, len(error["input"]), unit)  # have ... after validation"
    ours = _our_words(str(kind), error, model, choices) if loc != ("body",) else None
    return ours if ours is not None else message.removeprefix("Value error, ")


def count_message(kind: str, ctx: Mapping[str, Any], count: int, unit: str = "item") -> str:
    """A list of too many or too few items, said plainly: ``has 11 items; it may have at most 10``;
    `unit` names what the user counts (a page's box of one item a line: ``line``)."""
    if kind == "too_long":
        return f"has {counted(count, unit)}; it may have at most {ctx.get('max_length')}"
    least = int(ctx.get("min_length", 1))
    return f"{'is empty' if count == 0 else 'has ' + counted(count, unit)}; it must have at least {counted(least, unit)}"


def field_errors(errors: Iterable[Mapping[str, Any]], model: type[BaseModel] | None = None,
                 choices: Choices | None = None, in_lines: Collection[str] = ()) -> list[dict[str, str]]:
    """Pydantic's errors as (field, message) records (the input itself is not echoed back), in
    the project's words, saying what each field of `model` (the request's, when known) takes, a
    choice what this server offers (`choices`: :attr:`.engine.Engine.choices`); a list field named
    in `in_lines` (a page's box of one item a line) counted in lines, as the user typed it, not items."""
    out = []
    for error in errors:
        loc = error.get("loc", ())
        parts = [] if error.get("type") == "json_invalid" else [p for p in loc if p != "body"]
        field = ".".join(str(part) for part in parts) or "body"
        unit = "line" if field in in_lines else "item"
        out.append({"field": field, "message": _message(error, model, choices, unit)})
    return out


def describe(errors: list[dict[str, str]]) -> str:
    """One line for people: ``source: has 501 characters; it may have at most 500 characters; ...``."""
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
