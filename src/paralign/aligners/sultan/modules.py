"""The modules of the Sultan, Bethard & Sumner (2014) word aligner, one method each.

A pipeline of greedy modules, each aligning only words that earlier modules left unaligned:
sentence-final punctuation, identical word sequences (wsAlign), hyphenated tokens, named
entities (neAlign), content words by dependency context per category (cwDepAlign: verbs, nouns,
adjectives, adverbs), content words by textual context (cwTextAlign), leftover hyphen pieces,
stop words by dependency context (swDepAlign) and by adjacent neighbours (swTextAlign).

Every module ranks candidate pairs by ``w * sim + (1 - w) * evidence`` and breaks ties by a key
that is symmetric in the two sentences (relative-position distance, then index sum and product),
so ``align(S, T) == align(T, S).transpose()``. Output links are sure links only.

Here: :class:`ModulePipeline` (one method per module, and which modules the options switch on,
in order), the growing alignment the modules share (:class:`_State`), dependency-label matching
and the quote and hyphen helpers. It needs only the options and two prepared sentences with their
word similarities.

Not for: preparing sentences (:mod:`.prepared`), word similarity (:mod:`.wordsim`), or
annotating, caching and worker processes (:class:`.aligner.Aligner`, which imports this module).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import depequiv
from .entities import _entity_counts, _entity_norm, _is_acronym, _learn_entities, _subset_links
from .options import AlignerConfig
from .prepared import Link, Prepared

_CATEGORY_ORDER = ("v", "n", "j", "r")  # cwDepAlign order: verbs, nouns, adjectives, adverbs


class _State:
    """Links found so far and which tokens they use."""

    __slots__ = ("links", "module", "origin", "src", "tgt")

    def __init__(self) -> None:
        self.links: set[Link] = set()
        self.src: set[int] = set()
        self.tgt: set[int] = set()
        self.module = ""
        self.origin: dict[Link, str] = {}

    def add(self, i: int, j: int) -> None:
        """Record link (i, j), crediting the current module if it is new, and mark both tokens used."""
        if (i, j) not in self.links:
            self.origin[(i, j)] = self.module
        self.links.add((i, j))
        self.src.add(i)
        self.tgt.add(j)

    def free(self, i: int, j: int) -> bool:
        """True when neither source token i nor target token j is aligned yet."""
        return i not in self.src and j not in self.tgt


@dataclass(slots=True)
class ModulePipeline:
    """One alignment run under `config`: the two sentences, their similarities and the growing
    alignment, with one method per module of the paper (:meth:`run` runs them in order)."""

    config: AlignerConfig
    s: Prepared
    t: Prepared
    sim: dict[Link, float]
    st: _State = field(default_factory=_State)
    _rows: dict[int, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Group the similar pairs by source token, for `candidates`."""
        rows: dict[int, list[int]] = {}
        for i, j in self.sim:
            rows.setdefault(i, []).append(j)
        self._rows = rows

    # -- the run --------------------------------------------------------------------------------
    def steps(self) -> list[tuple[str, Callable[[], None]]]:
        """The modules the options switch on, in pipeline order, each with its name."""
        cfg = self.config
        dep, text, stop = cfg.use_dependency_context, cfg.use_textual_context, cfg.align_stop_words
        plan: list[tuple[str, bool, Callable[[], None]]] = [
            ("final_punctuation", True, self.final_punctuation),
            ("word_sequences", cfg.use_word_sequences, self.word_sequences),
            ("hyphenated", True, self.hyphenated),
            ("closed_compounds", cfg.closed_compounds, self.closed_compounds),
            ("named_entities", cfg.align_named_entities, self.named_entities),
            *((f"content_dependency_{c}", dep, functools.partial(self.content_dependency, c))
              for c in _CATEGORY_ORDER),
            ("content_text", True, self.content_text),
            ("hyphen_pieces", cfg.align_hyphen_pieces, self.hyphen_pieces),
            ("context_only", bool(cfg.context_only_links) and dep, self.context_only),
            ("quotes", stop and cfg.align_quotes and text, self.quotes),
            ("possessive_of", stop and dep and cfg.possessive_of, self.possessive_of),
            ("stop_dependency", stop and dep, self.stop_dependency),
            ("determiners", stop and dep and cfg.determiner_spans, self.determiners),
            ("stop_text", stop and text, self.stop_text),
            ("unique_stop_words", stop and cfg.align_unique_stop_words, self.unique_stop_words),
        ]
        return [(name, step) for name, wanted, step in plan if wanted]

    def run(self) -> dict[Link, str]:
        """Run the modules in order: the links made, each with the name of the module that made it."""
        for name, step in self.steps():
            self.st.module = name
            step()
        return self.st.origin

    # -- helpers --------------------------------------------------------------------------------
    def key(self, score: float, i: int, j: int) -> tuple[float, int, int, int]:
        """Sort key: best score first, then ties broken symmetrically in (S, T)."""
        n, m = self.s.n, self.t.n
        return (-round(score, 9), abs(i * m - j * n), i + j, i * j)

    def score(self, sim: float, evidence: float) -> float:
        """The paper's combined score: w * similarity + (1 - w) * contextual evidence."""
        w = self.config.w
        return w * sim + (1.0 - w) * evidence

    def candidates(self, ok: Callable[[int, int], bool]) -> list[tuple[int, int, float]]:
        """Free similar pairs (i, j, sim) passing `ok`."""
        st, out = self.st, []
        for i, js in self._rows.items():
            if i in st.src:
                continue
            for j in js:
                if j not in st.tgt and ok(i, j):
                    out.append((i, j, self.sim[(i, j)]))
        return out

    def greedy(self, scored: list[tuple[float, int, int, Any]],
               on_accept: Callable[[int, int, Any], None] | None = None) -> None:
        """One-to-one greedy selection in decreasing score order (symmetric tie-breaking)."""
        prefer = self.config.prefer_identical
        s_low, t_low = self.s.lower, self.t.lower

        def order(x: tuple[float, int, int, Any]) -> tuple[float, bool, int, int, int]:
            key = self.key(x[0], x[1], x[2])  # identical words first among equal scores
            return (key[0], prefer and s_low[x[1]] != t_low[x[2]], *key[1:])

        scored.sort(key=order)
        st = self.st
        for _, i, j, extra in scored:
            if st.free(i, j):
                st.add(i, j)
                if on_accept is not None:
                    on_accept(i, j, extra)

    # -- modules --------------------------------------------------------------------------------
    def final_punctuation(self) -> None:
        """Align sentence-final punctuation ('.'/'!' or identical last tokens)."""
        s, t = self.s.tokens, self.t.tokens
        n, m = len(s), len(t)
        enders = (".", "!")
        if (s[-1] in enders and t[-1] in enders) or s[-1] == t[-1]:
            self.st.add(n - 1, m - 1)
        elif n > 1 and s[-2] in enders and t[-1] in enders:
            self.st.add(n - 2, m - 1)
        elif m > 1 and s[-1] in enders and t[-2] in enders:
            self.st.add(n - 1, m - 2)
        elif n > 1 and m > 1 and s[-2] in enders and t[-2] in enders:
            self.st.add(n - 2, m - 2)

    def word_sequences(self) -> None:
        """wsAlign: identical (case-insensitive) sequences of >= 2 words, longest first."""
        import heapq

        s, t, st = self.s, self.t, self.st
        need_content = self.config.sequences_need_content
        t_pos: dict[str, list[int]] = {}
        for j, w in enumerate(t.lower):
            t_pos.setdefault(w, []).append(j)
        heap: list[tuple] = []

        def push(i: int, j: int, length: int) -> None:
            if length >= 2:
                heapq.heappush(heap, (-length, *self.key(0.0, i, j)[1:], i, j))

        # maximal diagonal runs of identical words
        for i, w in enumerate(s.lower):
            for j in t_pos.get(w, ()):
                if i > 0 and j > 0 and s.lower[i - 1] == t.lower[j - 1]:
                    continue
                length = 0
                while i + length < s.n and j + length < t.n and s.lower[i + length] == t.lower[j + length]:
                    length += 1
                push(i, j, length)
        while heap:
            item = heapq.heappop(heap)
            length, i, j = -item[0], item[-2], item[-1]
            free = [st.free(i + k, j + k) for k in range(length)]
            if all(free):
                if need_content and not any(s.content[i + k] for k in range(length)):
                    continue
                for k in range(length):
                    st.add(i + k, j + k)
                continue
            start = None  # split into runs of still-free positions and retry them
            for k in range(length + 1):
                if k < length and free[k]:
                    if start is None:
                        start = k
                elif start is not None:
                    push(i + start, j + start, k - start)
                    start = None

    def hyphenated(self) -> None:
        """A free hyphenated token whose pieces match a contiguous run of free words is aligned
        to all of it. Both directions start from the same state and groups that share a token
        are dropped (:meth:`add_unshared`). Why: the run's words were not checked, so a word
        that wsAlign had aligned, or that a second equal hyphenated token claimed too, was
        aligned twice ("well known" aligned to "well known" and to "well-known")."""
        groups: list[list[Link]] = []
        for a, b, flip in ((self.s, self.t, False), (self.t, self.s, True)):
            a_used, b_used = (self.st.tgt, self.st.src) if flip else (self.st.src, self.st.tgt)
            b_free = [None if k in b_used else word for k, word in enumerate(b.lower)]
            for i, word in enumerate(a.lower):
                if i in a_used or "-" not in word or word.strip("-") == "" or a.punct[i]:
                    continue
                pieces = [p for p in word.split("-") if p]
                if len(pieces) < 2:
                    continue
                span = _find_longest_run(pieces, b_free)
                if span is not None and span[1] - span[0] > 1:
                    groups.append([(k, i) if flip else (i, k) for k in range(*span)])
        self.add_unshared(groups)

    def closed_compounds(self) -> None:
        """A free word equal to the concatenation of 2-3 consecutive free words of the other
        sentence ("percent" / "per cent") aligns to each of them. The run must occur once, and
        the word itself must not occur in the other sentence. Both directions start from the
        same state and groups that share a token are dropped, so the order of the sentences
        does not matter."""
        groups: list[list[Link]] = []
        for a, b, flip in ((self.s, self.t, False), (self.t, self.s, True)):
            a_used, b_used = (self.st.tgt, self.st.src) if flip else (self.st.src, self.st.tgt)
            runs: dict[str, list[int]] = {}
            for start in range(b.n):
                joined = ""
                for k in range(start, min(start + 3, b.n)):
                    if k in b_used or not b.lower[k].isalpha():
                        break
                    joined += b.lower[k]
                    if k > start:
                        runs.setdefault(joined, []).append(start)
            for i, word in enumerate(a.lower):
                starts = runs.get(word) if len(word) >= 4 and i not in a_used else None
                if not starts or len(starts) != 1 or a.lower.count(word) != 1 or word in b.lower:
                    continue
                k, joined, group = starts[0], "", []
                while joined != word:
                    joined += b.lower[k]
                    group.append((k, i) if flip else (i, k))
                    k += 1
                groups.append(group)
        self.add_unshared(groups)

    def add_unshared(self, groups: list[list[Link]]) -> None:
        """Add every group of links that shares no token with another group (candidates found
        from one state in both directions: dropping the clashes keeps the result symmetric)."""
        src_uses = Counter(i for g in groups for i in {i for i, _ in g})
        tgt_uses = Counter(j for g in groups for j in {j for _, j in g})
        for group in groups:
            if all(src_uses[i] == 1 and tgt_uses[j] == 1 for i, j in group):
                for i, j in group:
                    self.st.add(i, j)

    def named_entities(self) -> None:
        """neAlign: full, partial and acronym mentions of PERSON/ORGANIZATION/LOCATION entities.

        Full matches and identical words of partial mentions need both words free; an acronym
        (itself free) aligns to every word of the entity; the other words of a partial mention
        align to each free remaining word of the full mention (one-to-many).
        """
        s, t, st = self.s, self.t, self.st
        s_ents = _learn_entities(s, t)
        t_ents = _learn_entities(t, s)
        s_free = [k not in st.src for k in range(s.n)]
        t_free = [k not in st.tgt for k in range(t.n)]
        new: set[Link] = set()
        s_words = {s.lower[k] for a, b, _ in s_ents for k in range(a, b)}
        t_words = {t.lower[k] for a, b, _ in t_ents for k in range(a, b)}
        s_counts = _entity_counts(s, s_ents)
        t_counts = _entity_counts(t, t_ents)
        for sa, sb, stype in s_ents:
            s_norm = _entity_norm(s, sa, sb)
            for ta, tb, ttype in t_ents:
                t_norm = _entity_norm(t, ta, tb)
                if s_norm == t_norm:
                    if s_counts[s_norm] > 1 or t_counts[t_norm] > 1:
                        continue
                    new.update((sa + k, ta + k) for k in range(sb - sa)
                               if s_free[sa + k] and t_free[ta + k])
                    continue
                if sb - sa == 1 and s_free[sa] and _is_acronym(s.tokens[sa], t.tokens[ta:tb]):
                    new.update((sa, q) for q in range(ta, tb))
                    continue
                if tb - ta == 1 and t_free[ta] and _is_acronym(t.tokens[ta], s.tokens[sa:sb]):
                    new.update((k, ta) for k in range(sa, sb))
                    continue
                if stype != ttype:
                    continue
                spread = stype in self.config.partial_mention_types
                if sb - sa <= tb - ta:  # equal lengths: both ways, so the result stays symmetric
                    new.update(_subset_links(s, sa, sb, s_free, t, ta, tb, t_free, s_words, spread))
                if sb - sa >= tb - ta:
                    links = _subset_links(t, ta, tb, t_free, s, sa, sb, s_free, t_words, spread)
                    new.update((i, j) for j, i in links)
        for i, j in sorted(new):
            st.add(i, j)

    def _dep_evidence(self, i: int, j: int, category: str) -> tuple[float, list[Link]]:
        """Dependency-context evidence for (i, j) and the supporting context pairs."""
        s, t, sim, links = self.s, self.t, self.sim, self.st.links
        root = self.config.root_evidence
        evidence, context = 0.0, []

        def pair_sim(k: int, q: int) -> float | None:
            if k < 0 or q < 0:
                return 1.0 if (root and k < 0 and q < 0) else None
            value = sim.get((k, q))
            if value is None and (k, q) in links:
                return 0.0  # aligned but dissimilar: a context pair worth nothing (reference)
            return value

        combos = ((s.parents[i], t.parents[j], "parent"), (s.children[i], t.children[j], "child"),
                  (s.parents[i], t.children[j], "cross"), (s.children[i], t.parents[j], "cross-rev"))
        for edges_s, edges_t, orientation in combos:
            for k, lk in edges_s:
                for q, ll in edges_t:
                    v = pair_sim(k, q)
                    if v is not None and _labels_match(category, orientation, lk, ll):
                        evidence += v
                        context.append((k, q))
        return evidence, context

    def content_dependency(self, category: str) -> None:
        """cwDepAlign for one category: greedy on w*sim + (1-w)*evidence, evidence > 0."""
        s, t = self.s, self.t
        scored = []
        for i, j, value in self.candidates(
            lambda i, j: s.cat[i] == category and t.cat[j] == category and s.content[i] and t.content[j]
        ):
            evidence, context = self._dep_evidence(i, j, category)
            if evidence > 0:
                scored.append((self.score(value, evidence), i, j, context))
        st = self.st

        def accept(i: int, j: int, context: list[Link]) -> None:
            for k, q in sorted(context, key=lambda kl: self.key(0.0, *kl)):
                if k >= 0 and q >= 0 and st.free(k, q):
                    st.add(k, q)

        self.greedy(scored, accept)

    def content_text(self) -> None:
        """cwTextAlign: content words by similar content neighbours in a (3, 3) window."""
        s, t, sim = self.s, self.t, self.sim
        use_context = self.config.use_textual_context
        scored = []
        for i, j, value in self.candidates(lambda i, j: s.content[i] and t.content[j]):
            evidence = 0.0
            if use_context:
                for k in range(max(0, i - 3), min(s.n, i + 4)):
                    if k == i or not s.content[k]:
                        continue
                    for q in range(max(0, j - 3), min(t.n, j + 4)):
                        if q == j or not t.content[q]:
                            continue
                        v = sim.get((k, q))
                        if v is not None:
                            evidence += v
            scored.append((self.score(value, evidence), i, j, None))
        self.greedy(scored)

    def context_only(self) -> None:
        """Free content words of one category whose aligned dependency neighbours correspond."""
        s, t, links, st = self.s, self.t, self.st.links, self.st
        need = self.config.context_only_links
        scored = []
        for i in range(s.n):
            if i in st.src or not s.content[i] or not s.cat[i]:
                continue
            for j in range(t.n):
                if j in st.tgt or not t.content[j] or t.cat[j] != s.cat[i]:
                    continue
                evidence = sum(
                    1
                    for edges_s, edges_t, orientation in ((s.parents[i], t.parents[j], "parent"),
                                                          (s.children[i], t.children[j], "child"))
                    for k, lk in edges_s if k >= 0
                    for q, lq in edges_t
                    if (k, q) in links and _labels_match(s.cat[i], orientation, lk, lq)
                )
                if evidence >= need:
                    scored.append((float(evidence), i, j, None))
        self.greedy(scored)

    def hyphen_pieces(self) -> None:
        """A leftover hyphenated token aligns to a free content word equal to one of its pieces."""
        s, t, st = self.s, self.t, self.st
        scored = []
        for a, b, flip in ((s, t, False), (t, s, True)):
            a_used, b_used = (st.tgt, st.src) if flip else (st.src, st.tgt)
            for i, word in enumerate(a.lower):
                if i in a_used or "-" not in word or a.punct[i]:
                    continue
                pieces = {p for p in word.split("-") if p}
                for k, other in enumerate(b.lower):
                    if k not in b_used and b.content[k] and other in pieces:
                        scored.append((1.0, k, i, None) if flip else (1.0, i, k, None))
        self.greedy(scored)

    def quotes(self) -> None:
        """Quotation marks of two quoted spans that share aligned words align open-open, close-close.

        Quotes pair up in order (1st opens, 2nd closes, ...); an unpaired last quote opens a span
        to the sentence's end (first half) or closes one from its start (second half). Span pairs
        are taken greedily by their number of inner links.
        """
        s_spans, t_spans = _quote_spans(self.s.tokens), _quote_spans(self.t.tokens)
        if not s_spans or not t_spans:
            return
        links = self.st.links
        scored = []
        for sa, sb in s_spans:
            for ta, tb in t_spans:
                inner = sum(1 for i, j in links if sa < i < sb and ta < j < tb)
                if inner:
                    scored.append((inner, sa, sb, ta, tb))
        scored.sort(key=lambda x: (-x[0], *self.key(0.0, x[1], x[3])[1:]))
        st, used_s, used_t = self.st, set(), set()
        for _, sa, sb, ta, tb in scored:
            if (sa, sb) in used_s or (ta, tb) in used_t:
                continue
            used_s.add((sa, sb))
            used_t.add((ta, tb))
            for i, j in ((sa, ta), (sb, tb)):
                if 0 <= i < self.s.n and 0 <= j < self.t.n and self.s.tokens[i] in _QUOTES \
                        and self.t.tokens[j] in _QUOTES and st.free(i, j):
                    st.add(i, j)

    def possessive_of(self) -> None:
        """ "'s" of "X 's Y" and "of" of "Y of X" with both X and both Y aligned; both directions
        from the same state, and pairs that share a token are dropped."""
        pairs: list[Link] = []
        for a, b, flip in ((self.s, self.t, False), (self.t, self.s, True)):
            a_used, b_used = (self.st.tgt, self.st.src) if flip else (self.st.src, self.st.tgt)
            owners = [(p, x, y) for p in range(a.n) if p not in a_used and a.lower[p] in ("'s", "'")
                      for x, lab in a.basic_parents[p] if lab == "case"
                      for y, lab2 in a.basic_parents[x] if lab2 == "poss"]
            if not owners:
                continue
            ofs = [(q, [h for h, lb in b.basic_parents[q] if lb == "prep"],
                    [o for o, lb in b.basic_children[q] if lb == "pobj"])
                   for q in range(b.n) if q not in b_used and b.lower[q] == "of"]
            linked = {(j, i) for i, j in self.st.links} if flip else self.st.links
            for p, x, y in owners:
                for q, heads, objects in ofs:
                    if any((y, h) in linked for h in heads) and any((x, o) in linked for o in objects):
                        pairs.append((q, p) if flip else (p, q))
        self.add_unshared([[pair] for pair in sorted(set(pairs))])

    def determiners(self) -> None:
        """Determiners whose noun phrases (up to their head noun) share an aligned pair."""
        s, t, links = self.s, self.t, self.st.links
        scored = []
        for i, j, value in self.candidates(lambda i, j: s.determiner[i] and t.determiner[j]):
            hs = [k for k, lab in s.basic_parents[i] if lab == "det" and k > i]
            ht = [q for q, lab in t.basic_parents[j] if lab == "det" and q > j]
            if not hs or not ht:
                continue
            evidence = sum(1 for k, q in links if i < k <= hs[0] and j < q <= ht[0])
            if evidence > 0:
                scored.append((self.score(value, evidence), i, j, None))
        self.greedy(scored)

    def stop_dependency(self) -> None:
        """swDepAlign: stop words/punctuation whose aligned parents or children correspond."""
        s, t, links = self.s, self.t, self.st.links
        same_label = self.config.stop_word_labels
        scored = []
        for i, j, value in self.candidates(lambda i, j: s.stopish[i] and t.stopish[j]):
            evidence = 0
            for edges_s, edges_t in ((s.basic_parents[i], t.basic_parents[j]),
                                     (s.basic_children[i], t.basic_children[j])):
                for k, lk in edges_s:
                    for q, ll in edges_t:
                        if (k, q) in links and (not same_label or lk == ll):
                            evidence += 1
            if evidence > 0:
                scored.append((self.score(value, evidence), i, j, None))
        self.greedy(scored)

    def unique_stop_words(self) -> None:
        """Identical free stop words (not punctuation) occurring once in each sentence."""
        s, t, st = self.s, self.t, self.st
        s_count: dict[str, int] = {}
        t_count: dict[str, int] = {}
        for w in s.lower:
            s_count[w] = s_count.get(w, 0) + 1
        for w in t.lower:
            t_count[w] = t_count.get(w, 0) + 1
        for i, j, _ in self.candidates(lambda i, j: s.stopish[i] and t.stopish[j]):
            w = s.lower[i]
            if (w == t.lower[j] and not s.punct[i] and s_count[w] == 1 and t_count[w] == 1
                    and st.free(i, j)):
                st.add(i, j)

    def stop_text(self) -> None:
        """swTextAlign: stop words/punctuation whose left or right neighbours are aligned."""
        s, t, links = self.s, self.t, self.st.links
        skip = self.config.text_skips_copulas
        s_ok = [s.stopish[i] and not (skip and i in s.copulas) for i in range(s.n)]
        t_ok = [t.stopish[j] and not (skip and j in t.copulas) for j in range(t.n)]
        start = self.config.start_evidence
        while True:
            scored = []
            for i, j, value in self.candidates(lambda i, j: s_ok[i] and t_ok[j]):
                evidence = ((i - 1, j - 1) in links) + ((i + 1, j + 1) in links)
                if start and i == 0 and j == 0 and not (s.determiner[i] or t.determiner[j]):
                    evidence += 1
                if evidence > 0:
                    scored.append((self.score(value, evidence), i, j, None))
            before = len(links)
            self.greedy(scored)
            if len(links) == before or not self.config.iterate_stop_text:
                return


@functools.lru_cache(maxsize=100_000)
def _labels_match(category: str, orientation: str, label_s: str, label_t: str) -> bool:
    """Dependency-label equivalence for one orientation (cached: called in the inner loop)."""
    if orientation == "parent":
        return depequiv.equivalent(category, label_s, label_t, depequiv.PARENT_GROUPS)
    if orientation == "child":
        return depequiv.equivalent(category, label_s, label_t, depequiv.CHILD_GROUPS)
    if orientation == "cross":
        return depequiv.cross_equivalent(category, label_s, label_t)
    return depequiv.cross_equivalent(category, label_t, label_s)


_QUOTES = frozenset({'"', "\u201c", "\u201d", "``", "''"})


def _quote_spans(tokens: Sequence[str]) -> list[tuple[int, int]]:
    """(open, close) positions of quoted spans; an unpaired last quote spans to an edge (-1 or n)."""
    marks = [k for k, tok in enumerate(tokens) if tok in _QUOTES]
    spans = [(marks[k], marks[k + 1]) for k in range(0, len(marks) - 1, 2)]
    if len(marks) % 2:  # an unpaired quote opens (first half) or closes (second half) a span
        last = marks[-1]
        spans.append((last, len(tokens)) if 2 * last < len(tokens) else (-1, last))
    return spans


def _find_longest_run(pieces: Sequence[str], words: Sequence[str | None]) -> tuple[int, int] | None:
    """The first longest [start, end) of `words` equal to a contiguous run of `pieces` (a None
    word, one already aligned, matches no piece)."""
    best: tuple[int, int] | None = None
    for start in range(len(words)):
        for p0 in range(len(pieces)):
            length = 0
            while (start + length < len(words) and p0 + length < len(pieces)
                   and words[start + length] == pieces[p0 + length]):
                length += 1
            if length and (best is None or length > best[1] - best[0]):
                best = (start, start + length)
    return best
