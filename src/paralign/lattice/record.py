"""The JSON record of a lattice (what `lattice build --format json` writes), checked field by field.

A lattice file is read by `lattice paths`, `draw`, `distance` and `build` (`--lattice FILE`). Its
record is checked here before a :class:`.word_lattice.Lattice` is made from it, so a bad file is
one FormatError naming the file, the line of the bad field (when the text is at hand) and what is
wrong, and nothing is allocated for it first: a ``"states"`` of 10**20 made a list per state and
never ended. Checked: ``states`` a JSON integer (not a bool, a float or a string) that the edges
can reach (at most one more than there are edges); ``start`` and ``end``, when given, 0 and
``states - 1`` (the numbering every lattice has); each edge ``[from, word, to]`` with integer
states, ``0 <= from < to < states``, a string (no half of a surrogate pair) or null word, after
every edge into its ``from`` (as the path counts read them); ``weights`` integers of at least 0,
one per edge; ``lowercase`` true, false or null. The frozen lattice then checks that every state
is on a start-to-end path.

Not for: the lattice itself and its queries (:mod:`.word_lattice`).
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable
from typing import cast

from ..errors import FormatError, is_text
from ..textio import strip_bom

#: (number of states, edges (from, word, to), weights, lowercase) as :class:`.word_lattice.Lattice` takes them
Fields = tuple[int, tuple[tuple[int, str | None, int], ...], tuple[int, ...], bool | None]

_SPACE = re.compile(r"[ \t\n\r]*")


class _BadField(Exception):
    """A bad field of the record: its key, the index of its element (an edge, a weight), why."""

    def __init__(self, message: str, key: str | None = None, index: int | None = None):
        super().__init__(message)
        self.key, self.index = key, index


def lattice_fields(data: object, source: str | None = None, text: str | None = None) -> Fields:
    """The checked fields of a lattice record `data`; FormatError naming `source`, the line of
    the bad field in `text` (the JSON `data` was read from, when given) and what is wrong."""
    try:
        return _fields(data)
    except _BadField as bad:
        line = None if text is None or bad.key is None else _line_of(text, bad.key, bad.index)
        raise FormatError(f"not a lattice: {bad}", source=source, line=line) from None


def is_lattice_record(text: str) -> bool:
    """Is `text` one JSON object with a lattice's 'states' and 'edges' (the keys :func:`lattice_fields`
    reads), whatever their values? What tells a lattice given where sentences or groups are read; a
    leading BOM is no part of it, as :meth:`.word_lattice.Lattice.from_json` reads it (a lattice's JSON
    saved with one was read as gold alignments where groups go: "no usable pairs ... (invalid JSON)")."""
    try:
        data = json.loads(strip_bom(text))
    except ValueError:
        return False
    return isinstance(data, dict) and "states" in data and "edges" in data


def is_integer(value: object) -> bool:
    """Is `value` an integer: an int or any integral value ``operator.index`` takes (a numpy
    integer, as a lattice made from numpy arrays holds), and not a bool (True is an int to
    Python, not to a reader)? A JSON record's integers are ints; a float, even 1.0, is none."""
    return _as_integer(value) is not None


def _as_integer(value: object) -> int | None:
    """`value` as ``operator.index`` reads it, or None when it is no integer (:func:`is_integer`)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # any object: its TypeError is the test
    except TypeError:
        return None


def edge_fault(edge: object, k: int, *, show: Callable[[object], str] = json.dumps,
               form: str = "[from, word, to]") -> str | None:
    """What is wrong with the shape of edge `k`, or None: three fields, from and to states that
    are integers, a word that is a string or none. A string holding a lone surrogate
    (:func:`..errors.is_text`: ``"\\ud800"``, which ``bytes.decode(errors="surrogateescape")``
    gives) is no text: UTF-8 cannot write it. The JSON record's check and the frozen
    lattice's (:class:`.word_lattice.Lattice`, where `show` is a Python repr and `form` a tuple's)
    say it alike; whether the states are in range and in order is checked after."""
    if not (isinstance(edge, list | tuple) and len(edge) == 3):
        return f"edge {k} is {show(edge)}, expected {form}"
    s, w, d = edge
    if not is_integer(s):
        return f"edge {k}'s from state must be an integer, got {show(s)}"
    if w is not None and not isinstance(w, str):
        return f"edge {k}'s word must be a string or {show(None)} (no word), got {show(w)}"
    if w is not None and not is_text(w):  # UTF-8 cannot write it: to_dot failed while writing
        return (f"edge {k}'s word must be text, got {show(w)}, which holds half of a UTF-16 surrogate pair "
                "(no character)")
    if not is_integer(d):
        return f"edge {k}'s to state must be an integer, got {show(d)}"
    return None


def _integer(value: object, what: str, key: str, index: int | None = None) -> int:
    number = _as_integer(value)
    if number is None:
        raise _BadField(f"{what} must be an integer, got {json.dumps(value)}", key, index)
    return number


def _fields(data: object) -> Fields:
    if not isinstance(data, dict) or "edges" not in data:
        raise _BadField("expected a JSON object with 'states' and a list of 'edges'")
    if not isinstance(data["edges"], list):  # named at its line, as every other field
        raise _BadField(f"'edges' must be a list of [from, word, to], got {json.dumps(data['edges'])}", "edges")
    if "states" not in data:
        raise _BadField("no 'states' (the number of states)")
    n = _integer(data["states"], "'states'", "states")
    edges = data["edges"]
    if not 1 <= n <= len(edges) + 1:  # before anything per state is made
        reach = f"{len(edges)} edges can reach at most {len(edges) + 1} states" if n > 1 else "a lattice needs at least one"
        raise _BadField(f"'states' is {n}, but {reach}", "states")
    for key, want in (("start", 0), ("end", n - 1)):
        if data.get(key) is not None and _integer(data[key], f"'{key}'", key) != want:
            raise _BadField(f"'{key}' is {data[key]}, but states are numbered in topological order: "
                            f"the {key} is state {want} of {n}", key)
    left: dict[int, int] = {}  # state: the first edge leaving it
    checked = tuple(_edge(edge, k, n, left) for k, edge in enumerate(edges))
    last = max((d for _s, _w, d in checked), default=0)
    if last < n - 1:  # states past any edge's end: the end is unreachable (a path count of 0)
        raise _BadField(f"'states' is {n}, but no edge goes further than state {last}: the end would be "
                        f"state {n - 1}, which no path reaches", "states")
    weights = data.get("weights")
    if weights is None:
        weights = []
    if not isinstance(weights, list):
        raise _BadField(f"'weights' must be a list of counts, one per edge, got {json.dumps(weights)}", "weights")
    if len(weights) not in (0, len(edges)):
        raise _BadField(f"'weights' has {len(weights)}, but there are {len(edges)} edges: one weight per edge", "weights")
    for k, w in enumerate(weights):
        if _integer(w, f"weight {k}", "weights", k) < 0:
            raise _BadField(f"edge {k} has the weight {w}: a weight counts sentences, at least 0", "weights", k)
    lowercase = data.get("lowercase")
    if lowercase is not None and not isinstance(lowercase, bool):
        raise _BadField(f"'lowercase' must be true, false or null, got {json.dumps(lowercase)}", "lowercase")
    return n, checked, tuple(weights), lowercase


def _edge(edge: object, k: int, n: int, left: dict[int, int]) -> tuple[int, str | None, int]:
    fault = edge_fault(edge, k)
    if fault is not None:
        raise _BadField(fault, "edges", k)
    # three fields, two of them integers, as edge_fault tells: cast, as mypy cannot follow it
    s, w, d = cast("tuple[int, str | None, int]", edge)
    if not 0 <= s < d < n:
        raise _BadField(f"edge {k} ({s}->{d}) is not forward between states 0..{n - 1}", "edges", k)
    if d in left:  # the path counts read the edges in order: a state's in-edges before its out-edges
        raise _BadField(f"edge {k} ({s}->{d}) comes after edge {left[d]}, which leaves state {d}: an edge must "
                        "come after every edge into the state it leaves", "edges", k)
    left.setdefault(s, k)
    return s, w, d


def _line_of(text: str, key: str, index: int | None) -> int | None:
    """The line where the value of `key` in the top-level object of `text` starts (of its element
    `index` when given; the last `key` when it repeats, as json.loads keeps); None when not found."""
    decoder = json.JSONDecoder()
    found = None
    try:
        pos = _after_space(text, 0)
        if text[pos] != "{":
            return None
        pos = _after_space(text, pos + 1)
        while text[pos] == '"':
            name, pos = decoder.raw_decode(text, pos)
            pos = _after_space(text, _after_space(text, pos) + 1)  # past ':'
            if name == key:
                found = pos if index is None else _element(text, pos, index, decoder)
            pos = _after_space(text, decoder.raw_decode(text, pos)[1])
            if text[pos] == ",":
                pos = _after_space(text, pos + 1)
    except (IndexError, ValueError):
        pass
    return None if found is None else text.count("\n", 0, found) + 1


def _after_space(text: str, pos: int) -> int:
    """The position of the first character of `text` at or after `pos` that is no JSON
    whitespace (at most the end of `text`)."""
    match = _SPACE.match(text, pos)
    assert match is not None  # a pattern that matches the empty string matches anywhere, past the end too
    return match.end()


def _element(text: str, pos: int, index: int, decoder: json.JSONDecoder) -> int | None:
    """The position of element `index` of the JSON list at `pos`, or None."""
    if text[pos] != "[":
        return None
    pos = _after_space(text, pos + 1)
    for _ in range(index):
        pos = _after_space(text, decoder.raw_decode(text, pos)[1])
        if text[pos] != ",":
            return None
        pos = _after_space(text, pos + 1)
    return pos
