"""lattice.record: a lattice JSON is checked field by field before anything is made from it, and
a bad field is one FormatError naming the file, its line and what is wrong. A "states" of 10**20
made a list per state and never ended; 2.5 states, an edge state of 1.7 or a weight of 1.5 were
truncated (a float state read as another lattice, silently), true was 1, "4" was 4, and a count
past the edges' last state was a traceback (log10 of 0 paths)."""

from __future__ import annotations

import json

import pytest

from paralign.errors import FormatError
from paralign.lattice import Lattice
from paralign.lattice.record import lattice_fields

GOOD = {"states": 4, "start": 0, "end": 3, "edges": [[0, "a", 1], [0, "the", 1], [1, "cat", 2], [1, None, 2],
                                                    [2, "sat", 3]],
        "weights": [1, 2, 2, 1, 3], "lowercase": True}


def _with(**fields: object) -> dict:
    return {**GOOD, **fields}


def _edge(k: int, edge: object) -> dict:
    return _with(edges=[edge if j == k else e for j, e in enumerate(GOOD["edges"])])


BAD = [
    # (record, the line of the bad field in json.dumps(record, indent=2), what is said)
    (_with(states=10**20), 2, "'states' is 100000000000000000000, but 5 edges can reach at most 6 states"),
    (_with(states=0), 2, "'states' is 0, but a lattice needs at least one"),
    (_with(states=-1), 2, "'states' is -1, but a lattice needs at least one"),
    (_with(states=2.5), 2, "'states' must be an integer, got 2.5"),
    (_with(states=True), 2, "'states' must be an integer, got true"),
    (_with(states="4"), 2, "'states' must be an integer, got \"4\""),
    (_with(states=None), 2, "'states' must be an integer, got null"),
    ({k: v for k, v in GOOD.items() if k not in ("states", "end")}, None, "no 'states' \\(the number of states\\)"),
    ({k: v for k, v in _with(states=5).items() if k != "end"}, 2,
     "'states' is 5, but no edge goes further than state 3: the end would be state 4, which no path reaches"),
    (_with(states=5), 4, "'end' is 3, but states are numbered in topological order: the end is state 4 of 5"),
    (_with(start=1), 3, "'start' is 1, but states are numbered in topological order: the start is state 0 of 4"),
    (_with(end=2.0), 4, "'end' must be an integer, got 2.0"),
    (_edge(1, [0, "the"]), 11, "edge 1 is \\[0, \"the\"\\], expected \\[from, word, to\\]"),
    (_edge(1, [True, "the", 1]), 11, "edge 1's from state must be an integer, got true"),
    (_edge(1, [0, "the", 1.7]), 11, "edge 1's to state must be an integer, got 1.7"),
    (_edge(1, [0, 5, 1]), 11, "edge 1's word must be a string or null \\(no word\\), got 5"),
    (_edge(1, [0, "the", 9]), 11, "edge 1 \\(0->9\\) is not forward between states 0..3"),
    (_edge(1, [1, "the", 1]), 11, "edge 1 \\(1->1\\) is not forward between states 0..3"),
    (_with(edges=[[0, "a", 1], [1, "cat", 2], [0, "the", 1], [2, "sat", 3]], weights=[]), 16,
     "edge 2 \\(0->1\\) comes after edge 1, which leaves state 1: an edge must come after every edge into the "
     "state it leaves"),
    (_with(weights=[1, 2, 1.5, 1, 3]), 35, "weight 2 must be an integer, got 1.5"),
    (_with(weights=[1, 2, False, 1, 3]), 35, "weight 2 must be an integer, got false"),
    (_with(weights=[1, 2, -1, 1, 3]), 35, "edge 2 has the weight -1: a weight counts sentences, at least 0"),
    (_with(weights=[1, 2]), 32, "'weights' has 2, but there are 5 edges: one weight per edge"),
    (_with(weights=3), 32, "'weights' must be a list of counts, one per edge, got 3"),
    (_with(lowercase="yes"), 39, "'lowercase' must be true, false or null, got \"yes\""),
    ([GOOD], None, "expected a JSON object with 'states' and a list of 'edges'"),
]


@pytest.mark.timeout(20)  # 10**20 states never ended
@pytest.mark.parametrize(("record", "line", "said"), BAD)
def test_a_bad_field_is_named_with_its_line(record, line, said) -> None:
    text = json.dumps(record, indent=2)  # as `lattice build --format json` writes it: an edge's "[" on line 6 + 5k
    where = f"x.json:{line}: " if line is not None else "x.json: "
    with pytest.raises(FormatError, match=f"^{where}not a lattice: {said}$"):
        Lattice.from_json(text, source="x.json")
    with pytest.raises(FormatError, match=f"^x.json: not a lattice: {said}$"):  # no text: no line
        lattice_fields(record, "x.json")


def test_the_line_is_the_bad_fields_on_one_line_json_and_with_a_repeated_key() -> None:
    assert json.dumps(_with(states=2.5)).count("\n") == 0
    with pytest.raises(FormatError, match="^x.json:1: not a lattice: 'states' must be an integer"):
        Lattice.from_json(json.dumps(_with(states=2.5)), "x.json")
    text = '{"states": 4,\n "edges": [[0, "a", 1],\n [1, "b", 2], [2, "c", 3]],\n "states": 9}'  # json keeps the last
    with pytest.raises(FormatError, match="^x.json:4: not a lattice: 'states' is 9, but 3 edges"):
        Lattice.from_json(text, "x.json")


def test_a_good_record_reads_back_as_written() -> None:
    lattice = Lattice.from_json("\ufeff" + json.dumps(GOOD, indent=2), "x.json")  # a BOM is no error
    assert lattice.to_dict() == GOOD and lattice.path_count() == 4
    for optional in ("start", "end", "weights", "lowercase"):  # a hand-made record may leave them out
        assert Lattice.from_dict({k: v for k, v in GOOD.items() if k != optional}).n_states == 4
    assert Lattice.from_dict(_with(weights=None, lowercase=None)).weights == ()
    assert Lattice.from_dict({"states": 1, "edges": []}).path_count() == 1


def test_a_state_on_no_path_is_not_a_lattice() -> None:
    """A dead end (state 2: entered, never left toward the end) stopped sampling with a
    ValueError from randrange(0); the frozen lattice refuses it, and the reader names the file."""
    dead = {"states": 4, "edges": [[0, "a", 1], [0, "b", 2], [1, "c", 3]]}
    with pytest.raises(FormatError, match=r"^x.json: not a lattice: no path leads from state 2 to the end \(state 3\)$"):
        Lattice.from_json(json.dumps(dead), "x.json")


def test_bad_json_names_its_line() -> None:
    with pytest.raises(FormatError, match=r"^x.json:3: invalid JSON \(column 2\)"):
        Lattice.from_json('{"states": 1,\n "edges": []\n,}', "x.json")


@pytest.mark.parametrize("text", ["", "\n\n", "\ufeff", " \r\n\t"])
def test_an_empty_text_is_named_empty(text: str) -> None:
    """`lattice build --format json` writes nothing for no sentences; read back, that was
    "x.json:1: invalid JSON (column 1): Expecting value" (line 3 for two blank lines). It says the
    file is empty, as other readers do, naming no line."""
    with pytest.raises(FormatError, match=r"^x\.json: empty: no lattice \(lattice build --format json writes "
                                          r"nothing for no sentences\)$"):
        Lattice.from_json(text, "x.json")


def test_half_a_surrogate_pair_is_named_at_its_line() -> None:
    r"""A word ``"\ud800"`` (half a surrogate pair: no character) was read into the lattice, and
    `lattice draw` and `paths -k` ended in a UnicodeEncodeError traceback writing it; it is a
    FormatError naming the file and the line of the escape. A pair (one character) is a word."""
    text = json.dumps(GOOD, indent=2).replace('"cat"', '"c\\ud800t"')
    line = text[:text.index("\\ud800")].count("\n") + 1
    with pytest.raises(FormatError, match=rf'^x\.json:{line}: "\\ud800" \(column \d+\) is half of a UTF-16 '
                                          "surrogate pair, no character$"):
        Lattice.from_json(text, "x.json")
    with pytest.raises(FormatError, match=r"^x\.json: not a lattice: edge \d+'s word must be text, got \"c\\ud800t\", "
                                          "which holds half of a UTF-16 surrogate pair \\(no character\\)$"):
        Lattice.from_dict(json.loads(text), "x.json")  # a record read elsewhere: the word named
    pair = Lattice.from_json(json.dumps(GOOD).replace('"cat"', '"c\\ud83d\\ude00t"'), "x.json")
    assert "c\U0001f600t" in {w for _, w, _ in pair.edges}
