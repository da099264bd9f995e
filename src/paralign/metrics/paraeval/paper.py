"""ParaEval (Zhou, Lin & Hovy 2006): MT evaluation with paraphrase matching and recall.

Two-tier matching of a hypothesis against one or more references:

1. **Paraphrase tier.** Hypothesis n-grams (``max_length`` words down to 1, left to right) are
   matched to *non-identical* reference n-grams that are paraphrases of them (``q`` is a
   paraphrase of ``p`` when any source lists ``q`` for ``p`` or ``p`` for ``q``), on
   non-overlapping spans on both sides, longest first (greedy, as in the paper). Identical words
   are left to tier 2. Clipping follows the paper: a hypothesis phrase consumes one matching span
   in *every* reference that still has one and counts as matched when at least one reference had
   one, so the k-th hypothesis member of a paraphrase class is matched iff some single reference
   holds at least k members of the class ("maximum count of the paraphrase class in a single
   reference"; Figure 4's clip of 2 from Ref 1).
2. **Unigram tier.** The words left over on both sides are matched by lexical identity with
   BLEU's clipping (a word counts at most its maximum count over the references' leftovers).

Precision = matched hypothesis words / hypothesis words (0 for an empty hypothesis, never
undefined). Recall = matched reference words / reference words, *pooled over the references*
(each reference's matched words, as consumed by the parallel matching above, summed over
references, over the summed reference lengths); with one reference this is the paper's
single-reference recall. F is the harmonic mean. Corpus scores come from summed per-segment
sufficient statistics (`SegmentStats`), like sacrebleu.

Text is tokenised with sacrebleu's 13a tokenizer and lower-cased by default (``case:lc`` in the
signature); paraphrase lookups are always lower-cased because the tables are. Phrases made only
of stop words (and punctuation) are not paraphrase-matched by default: WordNet and PPDB pairs
such as ``in``/``inch`` or ``a``/``angstrom`` are noise for MT evaluation, and skipping them keeps
lookups cheap (``stop:skip`` in the signature).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from ..._version import __version__ as VERSION  # signatures carry the package's version
from ...caching import cache_dict
from ...errors import ConfigurationError, check_count, shown_value
from ...paraphrases import ParaphraseSource, ParaphraseTable, WordNetSynonyms, load_source
from ...resources import fast_wordnet_synonyms
from ...workers import Progress, run_chunks, stop_batch
from .inputs import (
    as_compared,
    check_hypotheses,
    check_references,
    check_segment,
    count_mismatch,
    references_key,
)
from .paper_values import (
    EXACT,
    PARAPHRASE,
    SYNONYM,
    UNMATCHED,
    MatchedSpan,
    ParaEvalScore,
    SegmentMatch,
    SegmentStats,
    sum_stats,
)
from .signature import DEFAULT_MAX_LENGTH, length_used, sources_part, stopwords_part

if TYPE_CHECKING:
    import numpy as np


class PaperOptions(TypedDict, total=False):
    """The paper scorer's settings besides its sources and phrase length (:class:`ParaEval`'s
    fields of these names), as ``scoring.scorer(config="paper", ...)`` passes them on."""

    min_paraphrase_length: int
    lowercase: bool
    tokenize: str
    skip_stopword_phrases: bool
    cache_size: int | None


class ParaEvalOptions(PaperOptions, total=False):
    """Every setting of :class:`ParaEval` but its sources (what :func:`paraeval` passes on)."""

    max_length: int


#: Punctuation-only tokens are treated like stop words for the paraphrase tier.
_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~«»“”‘’…–—")


@dataclass(slots=True)
class _Ref:
    """One reference segment prepared once and reused for every hypothesis (every system)."""

    tokens: tuple[str, ...]  # compared in the unigram tier (case as configured)
    spans: dict[str, tuple[int, list[int]]]  # paraphrase-eligible lc n-gram -> (length, starts)
    keys: frozenset[str]  # = spans.keys(), for fast set intersection
    reverse: dict[str, set[str]]  # q -> ref n-grams r with q among paraphrases(r)

    def candidates(self, phrase: str, paras: frozenset[str]) -> set[str] | frozenset[str]:
        """The n-grams here that `phrase` may match: its paraphrases, and those it paraphrases."""
        return (paras & self.keys) | self.reverse.get(phrase, frozenset())


@dataclass(slots=True)
class PreparedReferences:
    """References tokenised and indexed once: refs[i] holds segment i's references (the paper
    scorer's `_Ref`s, or the graded scorer's words)."""

    refs: list[list[Any]]
    nrefs: int

    def __len__(self) -> int:
        return len(self.refs)


@dataclass(frozen=True)
class ParaEval:
    """The 2006 paper's two-tier scorer, ``paralign paraeval --config paper``. The command's
    default config is the graded ``default`` (:class:`.graded.GradedParaEval`): for the numbers
    of any config as the command gives them, use :func:`paralign.paraeval` (or ``scorer``).

    Frozen (build another for other settings: its caches depend on them); build once, then
    score many systems. `sources` are `ParaphraseSource`s (tables, PPDB, WordNet); None (the
    default) takes PPDB and WordNet, as ``--config paper`` does (``()``: no paraphrase tier).
    `max_length` bounds the phrase length (in words) of both sides of a paraphrase match;
    `min_paraphrase_length` keeps only matches whose longer side has at least that many words
    (the paper's ">= 3" variant). `cache_size` caps the phrase lookup cache (entries; it starts
    again when full: :class:`paralign.caching.CappedDict`); None (the default) keeps every
    lookup, as scoring a test set wants, while a server (``paralign serve``) sets a bound."""

    sources: Sequence[ParaphraseSource] | None = None
    max_length: int = 4
    min_paraphrase_length: int = 1
    lowercase: bool = True
    tokenize: str = "13a"
    skip_stopword_phrases: bool = True
    cache_size: int | None = field(default=None, compare=False)
    _cache: dict[str, frozenset[str]] = field(default_factory=dict, init=False, repr=False)
    _streams: dict[tuple[str, ...], list[_Ref]] = field(
        default_factory=dict, init=False, repr=False)
    _last: tuple[tuple[tuple[str, ...], ...], PreparedReferences] | None = field(
        default=None, init=False, repr=False)
    # set by __post_init__ from the settings above
    _tok: Callable[[str], str] = field(init=False, repr=False, compare=False)
    _stop: frozenset[str] = field(init=False, repr=False, compare=False)
    _wordnet_multi: frozenset[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_count(self.max_length, "max_length")  # NaN or 2.5 was a TypeError from range()
        check_count(self.min_paraphrase_length, "min_paraphrase_length")
        if self.min_paraphrase_length > self.max_length:  # the tier would find nothing, silently
            raise ConfigurationError(f"min_paraphrase_length {self.min_paraphrase_length} is above max_length "
                                     f"{self.max_length}: no paraphrase match can be that long")
        if self.tokenize not in ("13a", "none"):
            raise ConfigurationError(f"unknown tokenizer {self.tokenize!r} (use 13a or none)")
        for flag in ("lowercase", "skip_stopword_phrases"):  # "no" was taken as true, silently
            if not isinstance(getattr(self, flag), bool):
                raise ConfigurationError(f"{flag} must be True or False, not {type(getattr(self, flag)).__name__} "
                                         f"{shown_value(getattr(self, flag))}")
        if self.cache_size is not None:  # "100" was a TypeError from the cache's size test
            check_count(self.cache_size, "cache_size")
        object.__setattr__(self, "_cache", cache_dict(self.cache_size))
        object.__setattr__(self, "_tok", _tokenizer(self.tokenize))
        object.__setattr__(self, "sources", as_compared(  # checked; a built table re-split as the n-grams
            build_sources() if self.sources is None else self.sources, self._tok, self.tokenize))
        object.__setattr__(self, "_stop", _stop_tokens() if self.skip_stopword_phrases else frozenset())
        object.__setattr__(self, "_wordnet_multi", None)

    # -- settings ------------------------------------------------------------------------------
    def signature(self, nrefs: int) -> str:
        """sacrebleu-style settings string printed beside every score; ``maxlen`` the bound used
        (:func:`.signature.length_used`: past the sources' longest phrase, that length)."""
        res = sources_part(self._sources)
        maxlen = length_used(self.max_length, self._sources, max(DEFAULT_MAX_LENGTH, self.min_paraphrase_length))
        return (f"nrefs:{nrefs}|config:paper|res:{res}|maxlen:{maxlen}|"
                f"minpara:{self.min_paraphrase_length}|case:{'lc' if self.lowercase else 'mixed'}|"
                f"tok:{self.tokenize}|{f'stop:skip|{stopwords_part()}' if self.skip_stopword_phrases else 'stop:keep|'}"
                f"version:{VERSION}")

    # -- paraphrase lookups (cached per phrase) ------------------------------------------------
    def paraphrases(self, phrase: str) -> frozenset[str]:
        """Union of every source's paraphrases of a lower-cased phrase, without the phrase itself."""
        cached = self._cache.get(phrase)
        if cached is not None:
            return cached
        out: set[str] = set()
        n = phrase.count(" ") + 1
        for source in self._sources:
            if isinstance(source, WordNetSynonyms):
                if n == 1 or phrase in self._multiword():
                    out.update(p for p in fast_wordnet_synonyms(phrase)
                               if p.count(" ") < self.max_length)
                continue  # WordNet only knows the multiword lemmas it lists
            if isinstance(source, ParaphraseTable) and phrase not in source:
                continue
            for para in source.paraphrases(phrase):
                if para != phrase and para.count(" ") < self.max_length:
                    out.add(para)
        result = frozenset(out)
        self._cache[phrase] = result
        return result

    @property
    def _sources(self) -> Sequence[ParaphraseSource]:
        """`sources` as `__post_init__` set them: never None after it."""
        return self.sources or ()

    def _multiword(self) -> frozenset[str]:
        multi = self._wordnet_multi
        if multi is None:
            from ...resources import wordnet_multiword

            multi = wordnet_multiword()
            object.__setattr__(self, "_wordnet_multi", multi)  # a lazy cache
        return multi

    def _eligible(self, words: Sequence[str]) -> bool:
        """A phrase takes part in paraphrase matching unless it is all stop words/punctuation."""
        return not all(w in self._stop for w in words)

    # -- preparation -----------------------------------------------------------------------------
    def _tokens(self, text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(compared tokens, lower-cased tokens)."""
        toks = tuple(self._tok(text).split())
        lc = tuple(t.lower() for t in toks)
        return (lc if self.lowercase else toks), lc

    def _segment_refs(self, hypothesis: str, references: Sequence[str]) -> list[_Ref]:
        """One segment's references indexed, once its shape is checked (`inputs.check_segment`)."""
        check_segment(hypothesis, references)
        return [self._prepare_one(r) for r in references]

    def _prepare_one(self, text: str) -> _Ref:
        tokens, lc = self._tokens(text)
        spans: dict[str, tuple[int, list[int]]] = {}
        if self.sources:
            for n in range(1, min(self.max_length, len(lc)) + 1):  # not a huge max_length's empty lengths
                for i in range(len(lc) - n + 1):
                    words = lc[i:i + n]
                    if self._eligible(words):
                        spans.setdefault(" ".join(words), (n, []))[1].append(i)
        reverse: dict[str, set[str]] = {}
        for phrase in spans:
            for para in self.paraphrases(phrase):
                reverse.setdefault(para, set()).add(phrase)
        return _Ref(tokens, spans, frozenset(spans), reverse)

    def prepare(self, references: Sequence[Sequence[str]]) -> PreparedReferences:
        """Index reference streams (sacrebleu layout: references[k][i] = k-th ref of segment i)."""
        count = check_references(references)
        columns = [self._prepare_stream(stream) for stream in references]
        refs = [[column[i] for column in columns] for i in range(count)]
        return PreparedReferences(refs, len(references))

    def _prepare_stream(self, stream: Sequence[str]) -> list[_Ref]:
        """One reference stream, remembered (the last few) so ref sets A, B and A+B share work."""
        key = tuple(stream)
        prepared = self._streams.get(key)
        if prepared is None:
            prepared = [self._prepare_one(text) for text in key]
            if len(self._streams) >= 4:
                self._streams.pop(next(iter(self._streams)))
            self._streams[key] = prepared
        return prepared

    def prepare_cached(self, references: Sequence[Sequence[str]]) -> PreparedReferences:
        """`prepare`, remembering the last reference set (scoring many systems indexes it once)."""
        key = references_key(references)
        last = self._last
        if last is None or last[0] != key:
            last = (key, self.prepare(references))
            object.__setattr__(self, "_last", last)  # a cache
        return last[1]

    # -- matching --------------------------------------------------------------------------------
    def explain(self, hypothesis: str, references: Sequence[str]) -> list[tuple[str, int, str]]:
        """The paraphrase-tier matches of one segment: (hypothesis phrase, ref number, ref phrase)."""
        trace: list[tuple[str, int, str]] = []
        self.match(hypothesis, self._segment_refs(hypothesis, references), trace)
        return trace

    def match(self, hypothesis: str, refs: Sequence[_Ref],
              trace: list[tuple[str, int, str]] | None = None,
              spans: list[MatchedSpan] | None = None) -> SegmentStats:
        """Two-tier matching of one hypothesis against its prepared references (with `spans`:
        each hypothesis token's tier is appended to it, see :meth:`matched_spans`)."""
        tokens, lc = self._tokens(hypothesis)
        hyp_used = [False] * len(tokens)
        ref_used = [[False] * len(r.tokens) for r in refs]
        ref_matched = [0] * len(refs)
        para_words = 0
        if self.sources and refs:
            if spans is not None and trace is None:
                trace = []
            para_words = self._paraphrase_tier(lc, refs, hyp_used, ref_used, ref_matched, trace, spans)
        lex = self._unigram_tier(tokens, refs, hyp_used, ref_used, ref_matched, spans)
        return SegmentStats(
            hyp_words=len(tokens), hyp_matched=para_words + lex,
            ref_words=sum(len(r.tokens) for r in refs), ref_matched=sum(ref_matched),
            hyp_paraphrase=para_words,
        )

    def _paraphrase_tier(self, lc: Sequence[str], refs: Sequence[_Ref], hyp_used: list[bool],
                         ref_used: list[list[bool]], ref_matched: list[int],
                         trace: list[tuple[str, int, str]] | None,
                         spans: list[MatchedSpan] | None) -> int:
        """Tier 1: hypothesis n-grams, longest first, against reference paraphrase spans; the
        number of hypothesis words matched (`hyp_used`, `ref_used`, `ref_matched` updated)."""
        n_hyp = len(lc)
        para_words = 0
        content = [t not in self._stop for t in lc]
        cache = self._cache
        for n in range(min(self.max_length, n_hyp), 0, -1):
            for i in range(n_hyp - n + 1):
                if not any(content[i:i + n]) or any(hyp_used[i:i + n]):
                    continue
                phrase = " ".join(lc[i:i + n])
                paras = cache.get(phrase)
                if paras is None:
                    paras = self.paraphrases(phrase)
                hit = False
                mark = len(trace) if trace is not None else 0
                for k, ref in enumerate(refs):
                    cands = ref.candidates(phrase, paras)
                    if not cands:
                        continue
                    taken = self._take(n, cands, ref, ref_used[k], trace)
                    if taken:
                        ref_matched[k] += taken
                        hit = True
                        if trace is not None:
                            trace[-1] = (phrase, k, trace[-1][2])
                if hit:
                    for j in range(i, i + n):
                        hyp_used[j] = True
                    para_words += n
                    if spans is not None and trace is not None:
                        matched = tuple(t[2] for t in trace[mark:])
                        single = n == 1 and not any(" " in m for m in matched)
                        spans.append(MatchedSpan(i, i + n, SYNONYM if single else PARAPHRASE, matched))
        return para_words

    @staticmethod
    def _unigram_tier(tokens: Sequence[str], refs: Sequence[_Ref], hyp_used: list[bool],
                      ref_used: list[list[bool]], ref_matched: list[int],
                      spans: list[MatchedSpan] | None) -> int:
        """Tier 2: unigram identity on the leftovers with BLEU clipping; the words matched.
        With `spans`, the first occurrences of a word up to its clipped count are ``exact``
        (which ones is a choice: the counts do not say), the other leftovers ``unmatched``."""
        left = Counter(t for t, used in zip(tokens, hyp_used, strict=True) if not used)
        ref_left = [Counter(t for t, used in zip(r.tokens, u, strict=True) if not used)
                    for r, u in zip(refs, ref_used, strict=True)]
        lex = 0
        clipped: dict[str, int] = {}
        for word, count in left.items():
            best = 0
            for k, counts in enumerate(ref_left):
                have = counts.get(word, 0)
                if have:
                    ref_matched[k] += min(count, have)
                    best = max(best, have)
            lex += min(count, best)
            clipped[word] = min(count, best)
        if spans is not None:
            for j, (word, used) in enumerate(zip(tokens, hyp_used, strict=True)):
                if not used:
                    exact = clipped.get(word, 0) > 0
                    if exact:
                        clipped[word] -= 1
                    spans.append(MatchedSpan(j, j + 1, EXACT if exact else UNMATCHED))
            spans.sort(key=lambda span: span.start)
        return lex

    def matched_spans(self, hypothesis: str, references: Sequence[str]) -> SegmentMatch:
        """One segment's hypothesis tokens, each in a span with its tier (paraphrase, synonym,
        exact or unmatched), and the segment's statistics (the same as :meth:`sentence_score`'s)."""
        return self._segment_match(hypothesis, self._segment_refs(hypothesis, references))

    def segment_matches(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | PreparedReferences,
    ) -> list[SegmentMatch]:
        """:meth:`matched_spans` of every segment, with the references indexed once (and, when
        :meth:`segment_stats` indexed the same streams before, taken from its cache)."""
        prepared = prepared_for(hypotheses, references, self.prepare)
        return [self._segment_match(h, r) for h, r in zip(hypotheses, prepared.refs, strict=True)]

    def _segment_match(self, hypothesis: str, refs: list[_Ref]) -> SegmentMatch:
        spans: list[MatchedSpan] = []
        stats = self.match(hypothesis, refs, spans=spans)
        return SegmentMatch(self._tokens(hypothesis)[0], tuple(spans), stats)

    def _take(self, n: int, cands: Iterable[str], ref: _Ref, used: list[bool],
              trace: list[tuple[str, int, str]] | None = None) -> int:
        """Consume the longest (then leftmost) free reference span among `cands`; its length."""
        best: tuple[int, int] | None = None  # (-length, start)
        for cand in cands:
            length, starts = ref.spans[cand]
            if max(n, length) < self.min_paraphrase_length:
                continue
            for s in starts:
                if not any(used[s:s + length]):
                    key = (-length, s)
                    if best is None or key < best:
                        best = key
                    break
        if best is None:
            return 0
        length, start = -best[0], best[1]
        for j in range(start, start + length):
            used[j] = True
        if trace is not None:
            trace.append(("", -1, " ".join(ref.tokens[start:start + length])))
        return length

    # -- scoring ---------------------------------------------------------------------------------
    def segment_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | PreparedReferences,
        *, workers: int = 1,
    ) -> list[SegmentStats]:
        """Per-segment statistics; hypothesis and reference counts are checked before scoring.
        With ``workers > 1`` (or in a :func:`paralign.workers.runner` block) the segments are
        matched in chunks on Dask workers, each getting this scorer once; same statistics."""
        prepared = prepared_for(hypotheses, references, self.prepare)
        return run_chunks(functools.partial(_match_chunk, self),
                          list(zip(hypotheses, prepared.refs, strict=True)),
                          stop_batch("ParaEval matching failed in a worker"),
                          workers=workers, chunk_size=256)

    def corpus_score(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | PreparedReferences,
        *, workers: int = 1,
    ) -> ParaEvalScore:
        """Corpus precision/recall/F from summed segment statistics (EmptyScoringError for no
        segment, as ``paralign paraeval`` on an empty file: a corpus of nothing has no score)."""
        check_hypotheses(hypotheses, scoring=True)
        stats = sum_stats(self.segment_stats(hypotheses, references, workers=workers))  # checks references
        nrefs = references.nrefs if isinstance(references, PreparedReferences) else len(references)
        return ParaEvalScore(stats, self.signature(nrefs))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> ParaEvalScore:
        """One segment against its references (plain strings)."""
        refs = self._segment_refs(hypothesis, references)
        return ParaEvalScore(self.match(hypothesis, refs), self.signature(len(references)))


def prepared_for(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]] | PreparedReferences,
    prepare: Callable[[Sequence[Sequence[str]]], PreparedReferences],
) -> PreparedReferences:
    """`references` as given if prepared, else `prepare`d; one segment per hypothesis, checked."""
    check_hypotheses(hypotheses)
    prepared = references if isinstance(references, PreparedReferences) else prepare(references)
    if len(hypotheses) != len(prepared):
        raise count_mismatch(len(hypotheses), len(prepared), None if prepared is references else len(references))
    return prepared


def _match_chunk(scorer: ParaEval, chunk: list[tuple[str, list[_Ref]]]) -> list[SegmentStats]:
    """Statistics of a chunk of (hypothesis, prepared references) segments (worker-safe)."""
    return [scorer.match(h, r) for h, r in chunk]


def _tokenizer(name: str) -> Callable[[str], str]:
    if name == "none":
        return lambda text: text
    from ...tok13a import tokenize_13a  # sacrebleu's 13a tokens, faster

    return tokenize_13a


@functools.cache
def _stop_tokens() -> frozenset[str]:
    from ...resources import stopwords

    return stopwords() | _PUNCT | frozenset({"'s", "n't", "&quot;", "&amp;", "&apos;", "@-@"})


def build_sources(
    resources: Iterable[str] = ("ppdb", "wordnet"), tables: Iterable[str] = (),
    progress: Progress | None = None,
) -> list[ParaphraseSource]:
    """Sources from names (`ppdb`, `wordnet`, `none`) and table files' paths (Parquet or TSV, `path[:threshold]`);
    `progress` wraps each table file's rows as they are read (:func:`load_source`). `none` is no
    built-in source, alone: beside a source's name (``--resources none,ppdb``) a ConfigurationError,
    which of the two was meant unknown (it was ppdb, silently); so is an empty name (it was skipped,
    silently: a name lost, or ``("",)`` no source at all)."""
    out = built_in_sources(check_resource_names(resources))
    out.extend(load_source(spec, progress=progress) for spec in tables)
    return out


def built_in_sources(names: Iterable[str]) -> list[ParaphraseSource]:
    """The built-in sources `names` name, as :func:`check_resource_names` returns them (``none``:
    none), each loaded once a process, the names not checked again: :func:`build_sources`' first
    half, and a command's, which checks the names before its data loads (`paralign.cli`'s
    ``resource_names``) and builds their sources after."""
    return [_cached_source(name) for name in names if name != "none"]


def check_resource_names(resources: Iterable[str], what: str = "resources") -> list[str]:
    """The built-in sources' names (`ppdb`, `wordnet`, `none`), each stripped, checked without
    loading any: a ConfigurationError for an empty one, an unknown one, or `none` beside a source's name
    (``none,ppdb``: which of the two was meant is unknown; it was ppdb, silently), the message
    led by `what` (``argument --resources`` on the command line). What
    :func:`build_sources` checks, and a command before its data loads (``meta-eval --resources
    foo`` read WMT's files before saying so)."""
    names = [name.strip() for name in resources]
    empty = next((k for k, name in enumerate(names, start=1) if not name), None)
    if empty is not None:  # skipped, silently: a name lost, or no source at all where none says so
        raise ConfigurationError(f"{what}: an empty name (name {empty} of {len(names)}): give ppdb, wordnet or "
                                 "none, and none alone for no built-in source")
    others = [name for name in names if name != "none"]
    if "none" in names and others:
        raise ConfigurationError(f"{what}: 'none' (no built-in source) given with {others[0]!r}: give 'none' "
                                 "alone, or the sources without it")
    unknown = next((name for name in others if name not in ("ppdb", "wordnet")), None)
    if unknown is not None:
        raise ConfigurationError(f"{what}: unknown resource {unknown!r} (use ppdb, wordnet or none)")
    return names


@functools.cache
def _cached_source(name: str) -> ParaphraseSource:
    """PPDB/WordNet are loaded once per process (the PPDB table takes a second or two)."""
    return load_source(name)


def paraeval(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]],
    sources: Sequence[ParaphraseSource] | Mapping[str, ParaphraseSource] | None = None,
    **options: Unpack[ParaEvalOptions],
) -> ParaEvalScore:
    """Convenience: the paper scorer's corpus ParaEval of one system (`references[k][i]`,
    sacrebleu layout; default sources PPDB + WordNet, as ``paraeval --config paper``)."""
    sources = build_sources() if sources is None else sources
    srcs = list(sources.values()) if isinstance(sources, Mapping) else list(sources)
    return ParaEval(srcs, **options).corpus_score(hypotheses, references)


#: Columns of `ParaEvalMetric.stats` arrays (see `SegmentStats.as_tuple`).
STAT_COLUMNS = ("hyp_words", "hyp_matched", "ref_words", "ref_matched", "hyp_paraphrase")


class ParaEvalMetric:
    """ParaEval precision, recall or F as a `bleu_steps.SegmentMetric` (for meta-evaluation).

    Metrics built on the same `ParaEval` share `stats_key`, so their statistics are computed
    once; the prepared references are cached, so scoring many systems indexes them once.
    """

    def __init__(self, scorer: ParaEval, part: str = "f", name: str | None = None,
                 label: str = "paraeval") -> None:
        if part not in ("p", "r", "f"):
            raise ConfigurationError(f"ParaEval part must be p, r or f, got {part!r}")
        self.scorer = scorer
        self.part = part
        self.name = name or f"{label}_{part}"
        self.stats_key = f"{label}@{id(scorer)}"

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        import numpy as np

        prepared = self.scorer.prepare_cached(references)
        rows = [s.as_tuple() for s in self.scorer.segment_stats(hypotheses, prepared)]
        return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(STAT_COLUMNS))

    def score(self, sums: np.ndarray) -> np.ndarray:
        import numpy as np

        sums = np.asarray(sums, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(sums[..., 0] > 0, sums[..., 1] / sums[..., 0], 0.0)  # empty: 0
            r = sums[..., 3] / sums[..., 2]  # NaN without a reference word, and so is F (not 0)
            if self.part in ("p", "r"):
                return p if self.part == "p" else r
            return np.where(np.isnan(r), np.nan, np.where(p + r > 0, 2 * p * r / (p + r), 0.0))


def paraeval_metrics(scorer: ParaEval, label: str = "paraeval") -> list[ParaEvalMetric]:
    """The precision, recall and F metrics of one scorer."""
    return [ParaEvalMetric(scorer, part, label=label) for part in ("p", "r", "f")]
