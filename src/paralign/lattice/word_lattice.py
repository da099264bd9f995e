"""The frozen word lattice: an acyclic FSA with words on edges, one start and one end state.

:class:`Lattice` is what :meth:`.fsa.LatticeBuilder.freeze` returns: states numbered in topological
order (start = 0, end = n_states - 1), edges sorted by source state, never changed again. What
you can ask of it: exact path counts (Python big integers, by dynamic programming, never by
enumeration), enumeration with a limit, the k most probable paths, uniform or weighted sampling,
edit distance from a sentence with its alignment (:class:`EditOp`; the DP is :mod:`.edit_distance`),
sub-path paraphrase pairs (and :func:`paraphrase_table` over many lattices), the repetition ratio
of Pang et al., and dict / DOT / OpenFst text export.

An edge label ``None`` is an epsilon edge (no word); it only occurs for empty input sentences.

Not for: building or squeezing a lattice (the mutable :class:`.fsa.LatticeBuilder`), merging
parse trees (:mod:`.forest`) or the paper's evaluations over groups (:mod:`.evaluate`).
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
import operator
import os
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from ..alignment import MAX_PHRASE_LENGTH
from ..errors import (
    ConfigurationError,
    FormatError,
    InputTypeError,
    LatticeError,
    check_count,
    check_texts,
    counted,
    invalid_json,
    is_text,
    lone_surrogate,
    shown_value,
)
from ..paraphrases import ParaphraseTable
from ..shown_text import escaped
from ..textio import strip_bom
from . import edit_distance
from .edit_distance import EditOp
from .record import edge_fault, is_integer, lattice_fields

Word = str | None
Edge = tuple[int, Word, int]
EPSILON = "<eps>"


@dataclass(frozen=True, slots=True)
class Lattice:
    """An acyclic word lattice: states 0..n-1 in topological order, start 0, end n-1.

    `weights` (optional, one per edge) count the input sentences whose path uses each edge.
    `lowercase` records whether the words were lower-cased when it was built (None: not known,
    e.g. a hand-made lattice): a sentence compared with it must be lower-cased alike.
    """

    n_states: int
    edges: tuple[Edge, ...]
    weights: tuple[int, ...] = ()
    lowercase: bool | None = field(default=None, compare=False)
    _out: tuple[tuple[int, ...], ...] = field(default=(), init=False, repr=False, compare=False)
    _in: tuple[tuple[int, ...], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check_types()
        if self.n_states < 1:
            raise LatticeError("a lattice needs at least one state")
        if self.n_states > len(self.edges) + 1:  # before a list per state: 10**20 states never ended
            raise LatticeError(f"{self.n_states} states, but {counted(len(self.edges), 'edge')} can reach at most "
                               f"{len(self.edges) + 1}")
        out: list[list[int]] = [[] for _ in range(self.n_states)]
        inc: list[list[int]] = [[] for _ in range(self.n_states)]
        for k, (s, _w, d) in enumerate(self.edges):
            if not (0 <= s < d < self.n_states):
                raise LatticeError(f"edge {k} ({s}->{d}) is not forward between states 0..{self.n_states - 1}")
            if out[d]:  # the counts read the edges in order: a state's in-edges before its out-edges
                raise LatticeError(f"edge {k} ({s}->{d}) comes after edge {out[d][0]}, which leaves state {d}: "
                                   "an edge must come after every edge into the state it leaves")
            out[s].append(k)
            inc[d].append(k)
        if self.weights and len(self.weights) != len(self.edges):
            raise LatticeError(f"{len(self.weights)} weights for {len(self.edges)} edges")
        negative = next((k for k, w in enumerate(self.weights) if w < 0), None)
        if negative is not None:  # its log probability divided by zero or took the log of a negative
            raise LatticeError(f"edge {negative} has the weight {self.weights[negative]}: a weight counts sentences, "
                               "at least 0")
        self._check_repeats()
        self._check_paths()
        object.__setattr__(self, "_out", tuple(map(tuple, out)))
        object.__setattr__(self, "_in", tuple(map(tuple, inc)))

    def _check_types(self) -> None:
        """InputTypeError naming the field (and the edge or weight by its index) that is not of the
        type its hint says, worded as the JSON record's checks (:func:`.record.edge_fault`):
        ``Lattice(2, ((0, "a", 1),))``, its edge's fields out of order, was a TypeError from a
        comparison inside; a bool is no integer here either, and a word holding a lone surrogate
        (``"\\ud800"``, from ``bytes.decode(errors="surrogateescape")``) no text: to_dot failed
        writing it, as :meth:`from_json` refuses the JSON escape for it. Any integral number is
        an integer (what ``operator.index`` takes: a numpy integer, from a lattice made with numpy
        arrays), kept as a plain int, so that :meth:`to_dict` gives JSON."""
        if not is_integer(self.n_states):
            raise InputTypeError(f"n_states must be an integer, got {shown_value(self.n_states)}")
        object.__setattr__(self, "n_states", operator.index(self.n_states))
        for name, value in (("edges", self.edges), ("weights", self.weights)):
            if not isinstance(value, tuple | list):
                raise InputTypeError(f"{name} must be a tuple, got {type(value).__name__} {shown_value(value)}")
        plain = True  # every state an int, not another integral type
        for k, edge in enumerate(self.edges):
            if type(edge) is tuple and len(edge) == 3 and type(edge[0]) is type(edge[2]) is int and (
                    edge[1] is None or type(edge[1]) is str):
                continue  # the usual edge, without a call: 60,000 edges checked in 12-15 ms, not 33-52
            fault = edge_fault(edge, k, show=shown_value, form="(from, word, to)")
            if fault is not None:
                raise InputTypeError(fault)
            plain = plain and type(edge[0]) is type(edge[2]) is int
        if not is_text("".join(w for _s, w, _d in self.edges if w is not None)):  # one search, not one a word
            k = next(k for k, (_s, w, _d) in enumerate(self.edges) if w is not None and not is_text(w))
            raise InputTypeError(edge_fault(self.edges[k], k, show=shown_value, form="(from, word, to)"))
        if not plain:
            object.__setattr__(self, "edges", tuple((operator.index(s), w, operator.index(d)) for s, w, d in self.edges))
        bad = next((k for k, w in enumerate(self.weights) if type(w) is not int and not is_integer(w)), None)
        if bad is not None:
            raise InputTypeError(f"weight {bad} must be an integer, got {shown_value(self.weights[bad])}")
        if any(type(w) is not int for w in self.weights):
            object.__setattr__(self, "weights", tuple(map(operator.index, self.weights)))
        if self.lowercase is not None and not isinstance(self.lowercase, bool):
            raise InputTypeError(f"lowercase must be True, False or None, got {shown_value(self.lowercase)}")

    def _check_repeats(self) -> None:
        """LatticeError naming an edge that repeats another (same states, same word): a JSON
        edited by hand held one twice (:meth:`.fsa.LatticeBuilder.add_edge` keeps one), and
        every path through it was counted, sampled and weighed twice ('paths: 2' for 'a')."""
        if len(set(map(tuple, self.edges))) == len(self.edges):  # one pass in C: no repeat, as built
            return
        first: dict[Edge, int] = {}
        for k, (s, w, d) in enumerate(self.edges):
            j = first.setdefault((s, w, d), k)
            if j != k:
                raise LatticeError(f"edge {k} ({s}->{d}, {w!r}) repeats edge {j}: a lattice has one edge from a "
                                   "state to a state with a word")

    def _check_paths(self) -> None:
        """LatticeError unless every state is on a start-to-end path: an end no edge reaches
        made the path count 0 (a math domain error in its log), a dead end stopped sampling."""
        reached, leads = [True] + [False] * (self.n_states - 1), [False] * (self.n_states - 1) + [True]
        for s, _w, d in self.edges:  # a state's in-edges come before its out-edges
            reached[d] = reached[d] or reached[s]
        for s, _w, d in reversed(self.edges):
            leads[s] = leads[s] or leads[d]
        if not all(reached):
            raise LatticeError(f"no path from the start reaches state {reached.index(False)}")
        if not all(leads):
            raise LatticeError(f"no path leads from state {leads.index(False)} to the end (state {self.n_states - 1})")

    # -- basics --------------------------------------------------------------------------------
    @property
    def start(self) -> int:
        """The initial state (states are numbered in topological order)."""
        return 0

    @property
    def end(self) -> int:
        """The final state."""
        return self.n_states - 1

    @property
    def n_edges(self) -> int:
        """Number of edges."""
        return len(self.edges)

    def out_edges(self, state: int) -> tuple[int, ...]:
        """Indices (into `edges`) of the edges leaving `state`."""
        return self._out[state if type(state) is int and 0 <= state < self.n_states else self._state(state)]

    def in_edges(self, state: int) -> tuple[int, ...]:
        """Indices (into `edges`) of the edges entering `state`."""
        return self._in[state if type(state) is int and 0 <= state < self.n_states else self._state(state)]

    def _state(self, state: object) -> int:
        """`state` as an index of this lattice's states, or an error naming it: None was "tuple
        indices must be integers", 99 "tuple index out of range", -1 the last state's edges."""
        if not is_integer(state):
            raise InputTypeError(f"a state is an integer, got {shown_value(state)}")
        index = operator.index(cast("int", state))
        if not 0 <= index < self.n_states:
            raise LatticeError(f"state {index} outside the lattice's states 0-{self.n_states - 1}")
        return index

    def vocabulary(self) -> set[str]:
        """The words on the lattice's edges (epsilons excluded)."""
        return {w for _, w, _ in self.edges if w is not None}

    def with_weights(self, sentences: Iterable[Sequence[str]]) -> Lattice:
        """A copy whose edge weights count how many of `sentences` use each edge (best path)."""
        counts = [0] * len(self.edges)
        for tokens in sentences:
            path = self.find_path(tokens)
            if path is None:
                path = [op.edge for op in self.align(tokens)[1] if op.edge is not None]
            for e in path:
                counts[e] += 1
        return Lattice(self.n_states, self.edges, tuple(counts), self.lowercase)

    def find_path(self, tokens: Sequence[str]) -> list[int] | None:
        """The edges of a path spelling exactly `tokens` (depth first), or None."""
        check_texts(tokens, "tokens")  # one str would be read as its characters
        n = len(tokens)
        dead: set[tuple[int, int]] = set()
        stack: list[tuple[int, int, int]] = [(0, 0, 0)]  # (state, tokens read, next out-edge slot)
        path: list[int] = []
        while stack:
            s, i, slot = stack[-1]
            if s == self.end and i == n:
                return path
            edges = self._out[s]
            while slot < len(edges):
                e = edges[slot]
                slot += 1
                _, w, d = self.edges[e]
                j = i if w is None else i + 1
                if (w is None or (i < n and tokens[i] == w)) and (d, j) not in dead:
                    stack[-1] = (s, i, slot)
                    stack.append((d, j, 0))
                    path.append(e)
                    break
            else:
                dead.add((s, i))
                stack.pop()
                if path:
                    path.pop()
        return None

    # -- counting ------------------------------------------------------------------------------
    def forward_counts(self) -> list[int]:
        """Number of paths from the start to each state (exact integers)."""
        counts = [0] * self.n_states
        counts[0] = 1
        for s, _w, d in self.edges:  # each edge comes after every edge into its source (checked when made)
            counts[d] += counts[s]
        return counts

    def backward_counts(self) -> list[int]:
        """Number of paths from each state to the end (exact integers)."""
        counts = [0] * self.n_states
        counts[self.end] = 1
        for s, _w, d in reversed(self.edges):
            counts[s] += counts[d]
        return counts

    def path_count(self) -> int:
        """Number of start-to-end paths (exact, however large)."""
        return self.forward_counts()[self.end] if self.n_states > 1 else 1

    def log10_paths(self) -> float:
        """log10 of the number of paths (the paper's measure of lattice size)."""
        return math.log10(self.path_count())

    # -- generation ----------------------------------------------------------------------------
    def check_list_size(self, n: int, per_state: int = 0) -> None:
        """MemoryError when a list of `n` of its paths is more than this machine's memory (or any
        list) can hold, said before it is made: `sample(10**20)` grew its list, never ended, and
        `lattice paths` writes nothing before its lists are whole. Counted low (a list slot and a
        tuple of the shortest path's words per path), so a list refused could never be held; with
        `per_state` (kbest's k), also the min(k, paths to it) candidates kbest keeps at each state."""
        fewest = [0] + [len(self.edges) + 1] * (self.n_states - 1)  # words on the shortest path to each state
        for s, w, d in self.edges:
            fewest[d] = min(fewest[d], fewest[s] + (w is not None))
        words, memory = fewest[-1], _memory()
        need = n * (8 + (sys.getsizeof((None,) * words) if words else 0))  # () is one shared tuple
        need += 96 * sum(min(per_state, c) for c in self.forward_counts()) if per_state else 0  # slot, tuple, float
        if need > memory:
            size = f"{need / 2**30:.3g} GiB" if need < 2**100 else f"10^{int(math.log10(need))} bytes"
            raise MemoryError(f"{n} paths of {words} or more words{' and the k-best candidates' * bool(per_state)} "
                              f"need at least {size}; this machine has {memory / 2**30:.3g} GiB")

    def paths(self) -> Iterator[tuple[str, ...]]:
        """All paths' word sequences, depth first (lazy: stop early on big lattices)."""
        if self.n_states == 1:
            yield ()
            return
        stack: list[tuple[int, tuple[str, ...]]] = [(0, ())]
        while stack:
            s, words = stack.pop()
            if s == self.end:
                yield words
                continue
            for k in reversed(self._out[s]):
                _, w, d = self.edges[k]
                stack.append((d, words if w is None else (*words, w)))

    def _edge_logprob(self) -> list[float]:
        weights = self.weights or (0,) * len(self.edges)
        totals = [sum(weights[k] + 1 for k in self._out[s]) for s in range(self.n_states)]
        return [math.log((weights[k] + 1) / totals[s]) for k, (s, _w, _d) in enumerate(self.edges)]

    def kbest(self, k: int) -> list[tuple[float, tuple[str, ...]]]:
        """The k most probable paths (edge probability = (weight+1) / sum over the state's edges),
        as (log probability, words), best first; k must be >= 0."""
        k = check_count(k, "k", minimum=0)  # None, '3' or 2.5 was a TypeError from inside
        if k == 0:
            return []
        self.check_list_size(min(k, self.path_count()), per_state=k)
        if self.n_states == 1:
            return [(0.0, ())]
        lp = self._edge_logprob()
        best: list[list[tuple[float, int, int]]] = [[] for _ in range(self.n_states)]  # (score, edge, rank)
        best[0] = [(0.0, -1, -1)]
        for s in range(1, self.n_states):
            cands = []
            for e in self._in[s]:
                src = self.edges[e][0]
                for rank, (score, _, _) in enumerate(best[src]):
                    cands.append((score + lp[e], e, rank))
            best[s] = heapq.nlargest(k, cands)
        result = []
        for score, e, rank in best[self.end]:
            words: list[str] = []
            while e >= 0:
                src, w, _ = self.edges[e]
                if w is not None:
                    words.append(w)
                _, e, rank = best[src][rank]
            result.append((score, tuple(reversed(words))))
        return result

    def sample(self, n: int, seed: int | None = 0, *, uniform: bool = True) -> list[tuple[str, ...]]:
        """`n` random paths: uniform over all paths (exact, with big-integer counts), or
        following edges by their weights when `uniform` is False; n must be >= 0."""
        if n < 0:
            raise ConfigurationError(f"sample size must be >= 0, got {n}")
        self.check_list_size(n)
        rng = random.Random(seed)
        back = self.backward_counts() if uniform else []
        lp = [] if uniform else [math.exp(x) for x in self._edge_logprob()]  # an edge's probability
        out = []
        for _ in range(n):
            s, words = 0, []
            while s != self.end:
                edges = self._out[s]
                if uniform:
                    r = rng.randrange(back[s])
                    for e in edges:
                        r -= back[self.edges[e][2]]
                        if r < 0:
                            break
                else:
                    e = rng.choices(edges, weights=[lp[k] for k in edges])[0]
                _, w, s = self.edges[e]
                if w is not None:
                    words.append(w)
            out.append(tuple(words))
        return out

    # -- edit distance (:mod:`.edit_distance`) -------------------------------------------------
    def distance(self, tokens: Sequence[str], *, sub_cost: int = 1) -> int:
        """Minimum word edit distance (insertions, deletions, substitutions of cost `sub_cost`)
        between `tokens` and any path (:func:`.edit_distance.distance`). `tokens` is a list of
        words (InputTypeError for one str, which would be read as its characters)."""
        return edit_distance.distance(self, tokens, sub_cost=sub_cost)

    def align(self, tokens: Sequence[str], *, sub_cost: int = 1) -> tuple[int, list[EditOp]]:
        """The edit distance and one optimal alignment (ops from start to end)."""
        return edit_distance.align(self, tokens, sub_cost=sub_cost)

    def accepts(self, tokens: Sequence[str]) -> bool:
        """Is `tokens` exactly a path of the lattice?"""
        return self.distance(tokens) == 0

    # -- paraphrases ---------------------------------------------------------------------------
    def subpaths(self, max_length: int = MAX_PHRASE_LENGTH, limit: int = 5000) -> dict[tuple[int, int], set[tuple[str, ...]]]:
        """Distinct word strings of up to `max_length` words between pairs of states (at most
        `limit` partial paths explored per start state, so huge lattices stay bounded)."""
        found: dict[tuple[int, int], set[tuple[str, ...]]] = defaultdict(set)
        for u in range(self.n_states):
            stack: list[tuple[int, tuple[str, ...]]] = [(u, ())]
            explored = 0
            while stack and explored < limit:
                s, words = stack.pop()
                explored += 1
                for e in self._out[s]:
                    _, w, d = self.edges[e]
                    nxt = words if w is None else (*words, w)
                    if len(nxt) > max_length:
                        continue
                    if nxt:
                        found[(u, d)].add(nxt)
                    stack.append((d, nxt))
        return found

    def paraphrase_pairs(self, max_length: int = MAX_PHRASE_LENGTH, *, minimal: bool = True) -> set[tuple[str, str]]:
        """Pairs of different sub-paths between the same two states (both orders). `minimal`
        keeps only pairs differing in their first and in their last word (no shared context).
        A set: its iteration order changes with the hash seed (sort it to print it)."""
        pairs: set[tuple[str, str]] = set()
        for strings in self.subpaths(max_length).values():
            if len(strings) < 2:
                continue
            for a, b in itertools.permutations(strings, 2):
                if minimal and (a[0] == b[0] or a[-1] == b[-1]):
                    continue
                pairs.add((" ".join(a), " ".join(b)))
        return pairs

    # -- repetition ratio ----------------------------------------------------------------------
    def repetition_counts(self, word: str) -> tuple[int, int]:
        """(paths containing `word`, paths containing it at least twice), exactly."""
        zero = [0] * self.n_states
        one = [0] * self.n_states
        more = [0] * self.n_states
        zero[0] = 1
        for s, w, d in self.edges:
            if w == word:
                one[d] += zero[s]
                more[d] += one[s] + more[s]
            else:
                zero[d] += zero[s]
                one[d] += one[s]
                more[d] += more[s]
        return one[self.end] + more[self.end], more[self.end]

    # -- export --------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-ready record: states, start, end, edges as [from, word, to], weights, and
        lowercase (true, false, or null when not known), read back by :meth:`from_dict`. It is
        what `paralign lattice build --format json` writes."""
        return {
            "states": self.n_states,
            "start": self.start,
            "end": self.end,
            "edges": [[s, w, d] for s, w, d in self.edges],
            "weights": list(self.weights),
            "lowercase": self.lowercase,
        }

    @classmethod
    def from_dict(cls, data: dict, source: str | None = None, *, text: str | None = None) -> Lattice:
        """The inverse of to_dict; FormatError names the source, the bad item and what is wrong
        (its line too, given the `text` `data` was read from), each field checked before
        anything is made from it (:func:`.record.lattice_fields`)."""
        n, edges, weights, lowercase = lattice_fields(data, source, text)
        try:
            return cls(n, edges, weights, lowercase)
        except LatticeError as exc:
            raise FormatError(f"not a lattice: {exc}", source=source) from exc

    @classmethod
    def from_json(cls, text: str, source: str | None = None) -> Lattice:
        """The lattice of a JSON text (what `lattice build --format json` writes; a leading BOM is
        no error); FormatError naming `source` and the line of the bad JSON or field (a string
        escape that is half a surrogate pair is no character: :func:`.errors.lone_surrogate`), or
        saying it is empty: what `lattice build --format json` writes for no sentences, which was
        "invalid JSON (column 1): Expecting value"."""
        if not isinstance(text, str):  # None was "'NoneType' object has no attribute 'lstrip'"
            raise InputTypeError(f"Lattice.from_json takes the JSON text (a str), not {type(text).__name__} "
                                 f"{shown_value(text)}: Lattice.from_dict takes its parsed record")
        text = strip_bom(text)
        if not text.strip(" \t\n\r"):  # JSON's white space alone
            raise FormatError("empty: no lattice (lattice build --format json writes nothing for no sentences)",
                              source=source)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise FormatError(invalid_json(exc), source=source, line=exc.lineno) from exc
        if (lone := lone_surrogate(text)) is not None:
            raise FormatError(lone[1], source=source, line=text.count("\n", 0, lone[0]) + 1)
        return cls.from_dict(data, source, text=text)

    def to_dot(self, name: str = "lattice") -> str:
        """Graphviz DOT (left to right; edge labels are the words, weights in brackets); the
        graph's `name` and the words quoted as DOT strings (:func:`dot_string`). An epsilon edge
        is labelled <eps> and dashed (as :mod:`paralign.viz.lattice` draws it), so that it is
        not taken for a word spelled <eps>."""
        lines = [f"digraph {dot_string(name)} {{", "  rankdir=LR;", "  node [shape=circle, label=\"\", width=0.2];"]
        lines.append(f"  {self.start} [shape=circle, style=filled, fillcolor=palegreen];")
        lines.append(f"  {self.end} [shape=doublecircle];")
        for k, (s, w, d) in enumerate(self.edges):
            label = EPSILON if w is None else w
            if self.weights:
                label += f" ({self.weights[k]})"
            dashed = ", style=dashed" if w is None else ""
            lines.append(f"  {s} -> {d} [label={dot_string(label)}{dashed}];")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_openfst(self) -> str:
        """OpenFst text format of an acceptor: `src dst word` lines, then the final state.

        Words are written as :func:`openfst_symbol` says (white space as '_'; a word spelled
        <eps> as \\<eps>); epsilon is <eps>.
        """
        lines = []
        for s, w, d in self.edges:
            label = EPSILON if w is None else openfst_symbol(w)
            lines.append(f"{s}\t{d}\t{label}")
        lines.append(str(self.end))
        return "\n".join(lines) + "\n"


def dot_string(text: str) -> str:
    """`text` as a quoted DOT string that Graphviz shows as it is: backslashes doubled (a label's
    \\n, \\N, \\G would be escapes) and quotes escaped; a graph name too, which was written
    unquoted inside the quotes (``to_dot('say "hi"')`` was DOT no reader takes); a control
    character shown as its escape (:func:`escaped_controls`: ``a\\x00``), which was written raw (a NUL,
    which ends a C string, among them)."""
    return '"' + escaped_controls(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def escaped_controls(text: str) -> str:
    """`text` with each control character (Unicode's Cc: the C0 controls, DEL, the C1 controls)
    written as its escape (``\\x00``, ``\\x1b``, ``\\x7f``, ``\\x9b``), as JSON
    writes it escaped and the terminal views show it: the one rule of the lattice's text formats
    (:func:`openfst_symbol`, :func:`dot_string`), where a word's control characters were written raw."""
    return escaped(text)


def openfst_symbol(word: str) -> str:
    """How :meth:`Lattice.to_openfst` writes `word`: OpenFst's text format splits its fields on
    white space and has no quoting, so a run of white space becomes '_' (a word of white space
    alone is '_'); and a word spelled as the epsilon symbol, <eps>, gets a backslash in front
    (\\<eps>; \\<eps> gets two, and so on): written as <eps> it was no word, so the FST
    accepted the sentence without it, and the symbol table gave <eps> two numbers. A control
    character that is not white space (``\\x01``, ESC, DEL, C1) is written as its escape
    (``\\x1b``, as the JSON writes it ``\\u001b`` and the terminal views show it): written raw,
    a symbol held bytes no one can see or type, a NUL among them, which ends a C string."""
    symbol = escaped_controls("_".join(word.split())) or "_"
    return "\\" + symbol if symbol.lstrip("\\") == EPSILON else symbol


def _memory() -> int:
    """Physical memory in bytes, at most (and where unknown, as on Windows) sys.maxsize."""
    try:
        return min(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"), sys.maxsize)
    except (AttributeError, ValueError, OSError):
        return sys.maxsize


def paraphrase_table(
    lattices: Iterable[Lattice], *, max_length: int = MAX_PHRASE_LENGTH, minimal: bool = True, name: str = "lattice",
    tokenizer: str | None = None, lowercase: bool = True,
) -> ParaphraseTable:
    """A ParaphraseTable of sub-path pairs over many lattices; score = number of lattices that
    yield the pair.

    `tokenizer` names the tokenizer that split the lattices' sentences (``spacy``, or
    ``whitespace`` for sentences given as tokens; None: not known) and `lowercase` whether their
    words were lower-cased (a lattice built with ``--keep-case`` keeps them): the table holds
    its phrases so, and :meth:`ParaphraseTable.to_tsv` records both, so that every command asks
    it for a phrase as it holds it (``man's`` as ``man 's``, ``US`` with its case).

    Rows are in a fixed order, whatever the hash seed (the pairs of a lattice are an unordered
    set): sorted by phrase, then the highest score first, then by paraphrase; `lattice
    paraphrases` writes them in this order."""
    pair_sets = (lattice.paraphrase_pairs(max_length, minimal=minimal) for lattice in lattices)
    return table_of_pairs(pair_sets, name=name, tokenizer=tokenizer, lowercase=lowercase)


def table_of_pairs(
    pair_sets: Iterable[Iterable[tuple[str, str]]], *, name: str = "lattice", tokenizer: str | None = None,
    lowercase: bool = True,
) -> ParaphraseTable:
    """The table of :func:`paraphrase_table` from each lattice's pairs (each set counted once
    a lattice, as :meth:`Lattice.paraphrase_pairs` gives them): what a batch whose lattices
    were mined elsewhere (on Dask workers, :func:`.evaluate.lattice_paraphrases`) adds up, in
    the same fixed row order."""
    counts: Counter[tuple[str, str]] = Counter()
    for pairs in pair_sets:
        counts.update(pairs)
    table = ParaphraseTable(name, lowercase=lowercase, tokenizer=tokenizer)
    for (a, b), c in sorted(counts.items(), key=lambda item: (item[0][0], -item[1], item[0][1])):
        table.add(a, b, float(c))
    return table
