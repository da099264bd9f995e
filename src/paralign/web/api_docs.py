"""The API docs page's tables, made from the app's OpenAPI schema: each operation, the fields of
its request and answer and of the models they hold, their types, rules and descriptions in words
for people (:func:`operations`), which ``templates/docs.html`` shows at ``/docs``.

Not for: the page's route (:func:`.pages.docs_page`) or the schema itself (:mod:`.app`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import counted
from .table_rows import EXAMPLE_PHRASE

#: Example bodies of the API docs page.
EXAMPLES: dict[str, dict[str, str | list[str]]] = {
    "/api/align": {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat."},
    "/api/similarity": {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat."},
    "/api/similarity/batch": {"pairs": "The cat sat on the mat.\tA cat was sitting on the mat.\n"
                              "a line that is not a pair\n"
                              '{"id": "p3", "source": "It rained.", "target": "It was raining."}\n'},
    "/api/paraeval": {"hypothesis": "the cat sat on the mat", "references": ["a cat was sitting on the rug"],
                      "config": "default"},
    "/api/lattice": {"sentences": ["the cat sat on the mat", "a cat sat on the rug"]},
    "/api/paraphrases": {"phrase": EXAMPLE_PHRASE},  # docs_page names the source and a phrase it has
}


def schema_type(schema: Mapping[str, Any]) -> str:
    """A field's type as people read it: ``string``, ``array of string``, ``one of: a, b`` ..."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "enum" in schema:
        return "one of: " + ", ".join(str(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    if "anyOf" in schema:
        return " or ".join(schema_type(s) for s in schema["anyOf"])
    kind = schema.get("type", "any")
    if kind == "array":
        items = schema.get("items") or schema.get("prefixItems")
        inner = (", ".join(schema_type(s) for s in items) if isinstance(items, list)
                 else schema_type(items or {}))
        return f"array of {inner}"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"object of {schema_type(schema['additionalProperties'])}"
    return str(kind)


#: The schema's rules as people read them: (keyword, how its number is said).
RULES: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("minLength", lambda n: f"at least {counted(n, 'character')}"),
    ("maxLength", lambda n: f"at most {counted(n, 'character')}"),
    ("minItems", lambda n: f"at least {counted(n, 'item')}"), ("maxItems", lambda n: f"at most {counted(n, 'item')}"),
    ("minimum", lambda n: f">= {n}"), ("maximum", lambda n: f"<= {n}"))


def model_fields(schemas: Mapping[str, Any], name: str) -> list[dict[str, str]]:
    """The fields of schema `name`: name, type, required, default, rules and description."""
    schema = schemas.get(name, {})
    required = set(schema.get("required", ()))
    out = []
    for field, spec in schema.get("properties", {}).items():
        rules = [say(spec[key]) for key, say in RULES if key in spec]
        items = spec.get("items", {})
        rules += [f"each {say(items[key])}" for key, say in RULES if isinstance(items, dict) and key in items]
        if "pattern" in spec or (isinstance(items, dict) and "pattern" in items):
            rules.append("not only spaces; no control characters (the pattern in the schema)")
        out.append({"name": field, "type": schema_type(spec), "required": "yes" if field in required else "no",
                    "default": json.dumps(spec["default"]) if "default" in spec else "",
                    "rules": "; ".join(rules), "description": spec.get("description", "")})
    return out


def nested_models(schemas: Mapping[str, Any], name: str) -> list[str]:
    """The models that the fields of schema `name` hold (``links: array of Link`` -> ``Link``),
    and theirs, in order of first use, without `name` itself."""
    found: list[str] = []

    def refs(spec: Any) -> list[str]:
        if isinstance(spec, dict):
            own = [spec["$ref"].rsplit("/", 1)[-1]] if "$ref" in spec else []
            return own + [r for value in spec.values() for r in refs(value)]
        return [r for value in spec for r in refs(value)] if isinstance(spec, list) else []

    todo = [name]
    while todo:
        for ref in refs(schemas.get(todo.pop(0), {}).get("properties", {})):
            if ref != name and ref not in found:
                found.append(ref)
                todo.append(ref)
    return found


def operations(schema: Mapping[str, Any], examples: Mapping[str, Any] = EXAMPLES) -> list[dict[str, Any]]:
    """Every operation of an OpenAPI schema with its tables: (title, model, fields) of its
    request, its answer and the models they hold (a Link of the answer's links ...), each
    model's description (`notes`), and its example body from `examples`."""
    schemas = schema.get("components", {}).get("schemas", {})
    out = []
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            answer = op.get("responses", {}).get("200", {}).get("content", {}).get("application/json", {})
            tables = []
            for title, spec in (("request", body), ("answer", answer.get("schema", {}) if answer else {})):
                name = schema_type(spec) if spec else ""
                tables += [(title, name, model_fields(schemas, name))] if name in schemas else []
                tables += [(f"part of the {title}", part, model_fields(schemas, part))
                           for part in nested_models(schemas, name)] if name in schemas else []
            out.append({"method": method.upper(), "path": path, "summary": op.get("summary", ""), "tables": tables,
                        "notes": {name: schemas[name].get("description", "") for _, name, _ in tables},
                        "errors": sorted(k for k in op.get("responses", {}) if k != "200"),
                        "example": json.dumps(examples[path]) if path in examples else None})
    return out
