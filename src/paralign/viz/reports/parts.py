"""What the HTML reports share: their stylesheet, score tables whose cells carry the exact
values of the JSON output, and filter controls that work with CSS alone (no script).

A score cell shows a rounded figure and keeps the result's own value in ``data-value`` (as
JSON) under ``data-key`` (its path in the JSON output, e.g. ``macro.f1``), so a reader or a
test can check the page against ``--format json``.

Not for: the pages themselves (:mod:`..html`) or any one report (the other modules here).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..svg import Element, el, json_text

#: The reports' additions to the page stylesheet.
CSS = """
table.scores { border-collapse: collapse; margin: 0.5em 0 1em; }
table.scores th, table.scores td { border: 1px solid #c8ced6; padding: 0.2em 0.6em; text-align: left; }
table.scores td.value { text-align: right; font-variant-numeric: tabular-nums; }
table.scores td.sentence, table.scores th.name { overflow-wrap: anywhere; min-width: 10em; } /* a URL: no 8,000 px table */
label.filter-label { margin-right: 1.2em; }
.note { color: #5f6670; }
.note.warning { color: #6b4a00; background: #fdf6e3; border: 1px solid #9a6b00; padding: 0.3em 0.6em; }
@media (max-width: 40em) { table.scores { display: block; max-width: 100%; overflow-x: auto; } }
@media print { table.scores { font-size: 0.8em; } table.scores th, table.scores td { padding: 0.15em 0.35em; } }
"""


def lookup(result: Mapping, key: str) -> object:
    """The value at a dotted `key` of a JSON-like result (``macro.f1``, ``sets.0.pearson``)."""
    value: object = result
    for part in key.split("."):
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, Mapping):
            value = value[part]
        else:  # as indexing it would have
            raise TypeError(f"{key}: {type(value).__name__} at {part!r} has no items")
    return value


def number(value: object, percent: bool = False, digits: int = 3) -> str:
    """A figure as shown: None or NaN as ``n/a``, proportions as percentages with one decimal,
    other floats with `digits` decimals, anything else as it is."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, bool) or not isinstance(value, float):
        return str(value)
    return f"{100 * value:.1f}%" if percent else f"{value:.{digits}f}"


def value_cell(key: str, value: object, percent: bool = False, digits: int = 3) -> Element:
    """A table cell showing `value`, with its exact JSON text in ``data-value``."""
    return el("td", number(value, percent, digits), class_="value", data_key=key, data_value=json_text(value))


#: A score table's row: label, dotted key into the result, shown as a percentage?, and
#: optionally the decimals of a float not shown as a percentage (default 3).
Row = tuple[str, str, bool] | tuple[str, str, bool, int]


def score_table(result: Mapping, rows: Sequence[Row]) -> Element:
    """A two-column table of `rows` (:data:`Row`); a row whose key `result` does not have is
    left out."""
    cells = []
    for label, key, percent, *digits in rows:
        try:
            value = lookup(result, key)
        except (KeyError, IndexError, TypeError):
            continue
        cells.append(el("tr", el("th", label), value_cell(key, value, percent, *digits)))
    return el("table", *cells, class_="scores")


def filter_controls(name: str, choices: Sequence[tuple[str, str, int]]) -> list[Element]:
    """Radio buttons (value, label, count), the first checked, anywhere in the page of the
    sections they filter (:func:`filter_css`)."""
    controls: list[Element] = []
    for k, (value, label, count) in enumerate(choices):
        ident = f"{name}-{value}"
        controls += [
            el("input", type="radio", name=name, id=ident, value=value, class_="filter",
               checked="checked" if k == 0 else None),
            el("label", f"{label} ({count})", for_=ident, class_="filter-label"),
        ]
    return controls


def filter_css(name: str, shown: Mapping[str, str]) -> str:
    """CSS that, while the radio `name`-`value` is checked, hides every ``section.pair`` without
    the class ``shown[value]``.

    The rule asks the page whether the radio is checked (``body:has(...)``), once: as
    ``#radio:checked ~ section.pair`` Chromium looked for the radio among each section's
    preceding siblings, work growing with the square of the pairs: a report of 10,000 pairs
    took 11 to 19 s to show another filter (now about 1 s) and twice as long to open."""
    return "".join(f"body:has(#{name}-{value}:checked) section.pair:not(.{cls}) {{ display: none; }}\n"
                   for value, cls in shown.items())
