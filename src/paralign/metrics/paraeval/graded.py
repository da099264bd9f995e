"""Graded ParaEval: tiered word matching with graded weights, a parameterised F and a
fragmentation penalty (the ``default`` and ``contextual`` configs of :mod:`.configs`).

What the best lexical metrics learned after 2006, on ParaEval's paraphrase resources. A
hypothesis is aligned to each reference in tiers, each seeing only the words the earlier tiers
left: identical words, Snowball stems, WordNet synonyms (by the config: one word a lemma name of
the other's synsets, or two words sharing a synset as in METEOR), PPDB / table paraphrases (phrases up to
``max_length`` words, longest first, as in the paper), and with the neural extra a contextual
tier (cosine of contextual word vectors, greedy, above a threshold) for what no table covers.
In the exact and stem tiers a word goes to the free reference position that continues the
previous word's chunk, else to the one nearest its relative position; the synonym and paraphrase
tiers take the longest free span nearest it (not asked to continue a chunk).

A match counts its tier's weight times its grade (the probability of a scored table pair, the
cosine of a contextual match, else 1), content words weighing ``delta`` and function words
``1 - delta`` (METEOR's delta). ``P`` and ``R`` are weighted matched words over weighted
lengths; ``Fmean = P R / (alpha P + (1 - alpha) R)``; the penalty is ``gamma (chunks /
matched words) ** beta``, and 0 when every word of both sides is matched in one chunk (as in
METEOR's scorer: a hypothesis equal to its reference has no penalty); the score is
``Fmean (1 - penalty)``. With several references a segment takes the reference that scores
best (of a tie, the shortest; a blank one last: :func:`.graded_stats.best_of`). The precision of an empty
hypothesis is 0; the recall, F and score of a blank reference are n/a (NaN; None in ``paraeval``'s
dict), as the paper scorer's recall and F are.

Every segment's statistics are a row of :data:`COLUMNS` holding *unweighted* graded sums per tier
(content and function words, hypothesis and reference side), so a corpus score is the score of
summed rows and any weights, delta, alpha, beta or gamma are applied afterwards: a parameter
search aligns once (sacrebleu's model).

Not for: the paper's two-tier scorer (:mod:`.paper`) or choosing the parameters (benchmarks).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...caching import CappedDict, cache_dict
from ...disk_cache import vector_folder
from ...errors import ConfigurationError
from ...paraphrases import ParaphraseSource, ParaphraseTable, WordNetSynonyms
from ...stemming import stem as stem_word
from ...tables import atomic_path
from .configs import TIER_ORDER, Config
from .explained import GradedExplanation, TierMatch
from .graded_stats import _CHUNKS, _MATCHES, _REF_MATCHES, _TIER, COLUMNS, best_of, score_parts
from .graded_tiers import TierState, _continues, _key_tier, _positions
from .inputs import as_compared, check_references, check_segment, references_key
from .paper import (
    VERSION,
    ParaEval,
    PreparedReferences,
    _Ref,
    _stop_tokens,
    _tokenizer,
    build_sources,
    prepared_for,
)
from .signature import encoder_part, length_used, sources_part, stopwords_part
from .vectors import vector_key

if TYPE_CHECKING:
    from ...neural import Encoder


@dataclass(slots=True)
class _Words:
    """One tokenised segment: lower-cased 13a tokens, their stems, content flags, vectors."""

    tokens: tuple[str, ...]
    stems: tuple[str, ...]
    content: tuple[bool, ...]
    syn: _Ref | None = None  # the synonym tier's n-gram index (references only)
    para: _Ref | None = None  # the paraphrase tier's n-gram index (references only)
    vecs: np.ndarray | None = None  # L2-normalised contextual vectors (contextual tier)
    #: positions of each token and of each stem (references, made on first use)
    places: tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]] | None = None
    #: per lookup, the (length, start, phrase) a phrase tier may look up (hypotheses)
    grams: dict[int, list[tuple[int, int, str]]] | None = None

    def positions(self) -> tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]]:
        """(token -> its positions, stem -> its positions), ascending."""
        if self.places is None:
            self.places = (_positions(self.tokens), _positions(self.stems))
        return self.places


@dataclass(slots=True)
class _IndexedRef(_Ref):
    """A reference's n-gram index whose reverse index is the scorer's inverse over every
    indexed reference phrase, cut to this reference's phrases when asked (built once per
    distinct phrase instead of once per reference holding it)."""

    inverse: dict[str, set[str]] | None = None

    def candidates(self, phrase: str, paras: frozenset[str]) -> set[str] | frozenset[str]:
        """The n-grams here that `phrase` may match: its paraphrases, and those it paraphrases."""
        found = paras & self.keys
        back = self.inverse.get(phrase) if self.inverse is not None else None
        return found | (back & self.keys) if back else found


#: The first character of a synset's key among a word's paraphrases (never in a token).
_SENSE = "\x00"


class _SenseLookup(ParaEval):
    """The synonym tier's lookup under ``synonyms="sense"`` (METEOR's rule): a word's
    paraphrases also hold one key per synset of it (:func:`paralign.resources.wordnet_senses`)
    and each reference word is indexed under its keys too, so two words match when they share a
    synset, whichever inflection either has."""

    senses: dict[str, frozenset[str]]  # set by __post_init__ (not a dataclass field: no decorator)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "senses", cache_dict(self.cache_size))  # word -> its synsets' keys

    def paraphrases(self, phrase: str) -> frozenset[str]:
        found = self._cache.get(phrase)  # only this method fills the cache: keys included
        if found is not None:
            return found
        found = super().paraphrases(phrase)
        if " " not in phrase:
            keys = self.word_senses(phrase)
            found = self._cache[phrase] = found | keys
        return found

    def word_senses(self, word: str) -> frozenset[str]:
        """The keys of a word's synsets (kept per word)."""
        keys = self.senses.get(word)
        if keys is None:
            from ...resources import wordnet_senses

            keys = self.senses[word] = frozenset(f"{_SENSE}{pos}{offset}" for pos, offset in wordnet_senses(word))
        return keys


class GradedParaEval:
    """The graded scorer of one `Config`; build once, score many systems (references indexed
    once, lookups cached). `sources`: paraphrase sources (default: the config's resources);
    WordNet feeds the synonym tier, every other source the paraphrase tier. `cache_vectors`
    False: never use $PARALIGN_VECTOR_CACHE (the contextual tier's folder of encoded streams).

    `cache_size` bounds what the scorer remembers between calls, in entries of each cache (the
    phrase lookups, synsets, stems, grades, tokenised texts, the rows of the last reference set,
    and the reverse index's phrases): a full cache starts again
    (:class:`paralign.caching.CappedDict`), which never changes a score. None (the default)
    keeps everything, as batch scoring of a test set wants (its vocabulary is finite and asked
    for again and again); a long-lived server (``paralign serve``) sets a bound, or its caches
    grow with every new word it is sent."""

    def __repr__(self) -> str:
        """The config (by name when it is a named config as it stands, else in full) and the
        sources, as ``ParaEval``'s repr shows its own: ``GradedParaEval(config='default',
        sources=(ParaphraseTable('ppdb-lexical', ...), WordNetSynonyms()))``."""
        from .configs import CONFIGS

        named = CONFIGS.get(self.config.name) == self.config
        config = repr(self.config.name) if named else repr(self.config)
        bound = "" if self._cache_size is None else f", cache_size={self._cache_size!r}"
        return f"GradedParaEval(config={config}, sources={self.sources!r}{bound})"

    def __init__(self, config: Config, sources: Sequence[ParaphraseSource] | None = None,
                 encoder: Encoder | None = None, *, cache_vectors: bool = True,
                 cache_size: int | None = None) -> None:
        if config.scorer != "graded":
            raise ConfigurationError(f"config {config.name!r} is not a graded config")
        self.config = config
        # checked, and a built table's phrases re-split into the 13a tokens compared (as the paper scorer's)
        sources = list(as_compared(build_sources(config.resources) if sources is None else sources,
                                   _tokenizer("13a"), "13a"))
        self.sources = tuple(sources)
        wordnet = [s for s in sources if isinstance(s, WordNetSynonyms)]
        other = [s for s in sources if not isinstance(s, WordNetSynonyms)]
        tiers = config.tiers
        lookup = _SenseLookup if config.synonyms == "sense" else ParaEval
        self._cache_size = cache_size
        self._syn = (lookup(wordnet, max_length=config.max_length, cache_size=cache_size)
                     if wordnet and "synonym" in tiers else None)
        self._para = None
        #: per lookup, the phrases of several words it can match at all (None: any)
        self._multi: dict[int, frozenset[str] | None] = {}
        if other and "paraphrase" in tiers:  # no longer phrases than the tables hold
            longest, multi = _table_phrases(other)
            self._para = ParaEval(other, max_length=min(config.max_length, longest), cache_size=cache_size)
            self._multi[id(self._para)] = multi
        if self._syn is not None:
            from ...resources import wordnet_multiword

            self._multi[id(self._syn)] = wordnet_multiword()
        #: per lookup, the first words of those phrases (a quick test before joining words)
        self._firsts = {key: None if multi is None else frozenset(m.split(" ", 1)[0] for m in multi)
                        for key, multi in self._multi.items()}
        firsts = [f for f in self._firsts.values() if f is not None]
        self._any_first = frozenset[str]().union(*firsts) if len(firsts) == len(self._firsts) else None
        self._base = ParaEval((), max_length=config.max_length)
        self._stop = _stop_tokens()
        self._stems: dict[str, str] = cache_dict(cache_size)
        #: per lookup, (phrase q -> the indexed reference phrases r with q among r's
        #: paraphrases, the phrases indexed so far): every reference's reverse index at once
        self._inverse: dict[int, tuple[dict[str, set[str]], set[str]]] = {}
        #: tokens, stems and content flags per text (bounded even without `cache_size`: a
        #: long stream of distinct texts)
        self._texts: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[bool, ...]]] = CappedDict(
            1 << 18 if cache_size is None else cache_size)
        self._grades: dict[tuple[str, str], float] = cache_dict(cache_size)
        self._last: tuple[tuple[tuple[str, ...], ...], PreparedReferences] | None = None
        #: the rows of (segment, hypothesis words) against the last prepared references
        self._memo: tuple[PreparedReferences | None, dict] = (None, {})
        self._encoder = None
        self._vector_dir = vector_folder() if cache_vectors else None  # a server: one file a request
        if "contextual" in tiers:
            if encoder is None:
                from ...neural import Encoder

                encoder = Encoder()
            self._encoder = encoder

    # -- settings --------------------------------------------------------------------------------
    def signature(self, nrefs: int) -> str:
        """Every setting that changes a number: config, tiers, weights, parameters, each
        source's name (a table's basename, threshold and content hash), versions, the encoder
        (:func:`.signature.encoder_part`: its layer and stride where not its defaults), and with
        $PARALIGN_VECTOR_CACHE the float16 contextual vectors it computes with (``vecs:f16``)."""
        res = sources_part(self.sources)
        looked_up = [s for lookup in (self._syn, self._para) if lookup is not None for s in lookup.sources or ()]
        maxlen = length_used(self.config.max_length, looked_up)  # past their longest phrase: that length
        out = (f"nrefs:{nrefs}|{self.config.settings()}|res:{res}|maxlen:{maxlen}|"
               f"case:lc|tok:13a|stem:snowball-en|stop:skip|{stopwords_part()}")
        if self._encoder is not None:
            out += encoder_part(self._encoder, cached=self._vector_dir is not None)
        return out + f"version:{VERSION}"

    # -- preparation -----------------------------------------------------------------------------
    def _words(self, text: str) -> _Words:
        """A segment's words (a new object each time: the contextual tier sets its vectors);
        the tokens, stems and content flags of a text are computed once per scorer."""
        seen = self._texts.get(text)
        if seen is None:
            _, lc = self._base._tokens(text)
            stems = self._stems
            stem = []
            for t in lc:
                s = stems.get(t)
                if s is None:
                    s = stems[t] = stem_word(t)
                stem.append(s)
            seen = self._texts[text] = (lc, tuple(stem), tuple(t not in self._stop for t in lc))
        return _Words(*seen)

    def _encode(self, items: list[_Words]) -> None:
        """Contextual vectors of the non-empty segments (L2-normalised rows), read from the
        vector cache folder ($PARALIGN_VECTOR_CACHE) when this stream was encoded before."""
        if self._encoder is None:
            return
        todo = [w for w in items if w.tokens]
        path = None
        if self._vector_dir is not None:
            key = hashlib.sha256(vector_key(self._encoder).encode())
            for w in todo:
                key.update(("\x1f".join(w.tokens) + "\x1e").encode())
            path = self._vector_dir / f"vectors-{key.hexdigest()[:24]}.npy"
            matrix = None
            with contextlib.suppress(OSError, ValueError, EOFError):  # gone meanwhile (a purge), damaged, a FIFO
                matrix = np.load(path).astype(np.float32) if path.is_file() else None  # (blocked for ever)
            if matrix is not None and matrix.shape[0] == sum(len(w.tokens) for w in todo):
                start = 0
                for w in todo:
                    w.vecs = matrix[start:start + len(w.tokens)]
                    start += len(w.tokens)
                return
        for words, enc in zip(todo, self._encoder.encode([w.tokens for w in todo]), strict=True):
            m = np.asarray(enc.matrix, dtype=np.float32)
            words.vecs = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
        if path is not None and todo:
            vectors = [w.vecs for w in todo if w.vecs is not None]  # each set just above
            with contextlib.suppress(OSError), atomic_path(path) as tmp:  # no half file seen; a folder not
                np.save(tmp, np.concatenate(vectors).astype(np.float16))  # writable (full, a file) keeps none
            for w, v in zip(todo, vectors, strict=True):  # the same values whether computed now or read later
                w.vecs = v.astype(np.float16).astype(np.float32)

    def prepare(self, references: Sequence[Sequence[str]]) -> PreparedReferences:
        """Index reference streams (sacrebleu layout: references[k][i])."""
        count = check_references(references)
        columns = []
        for stream in references:
            words = [self._words(text) for text in stream]
            for w in words:
                grams = self._ngrams(w) if self._syn is not None or self._para is not None else []
                w.syn = self._index(self._syn, w, grams) if self._syn is not None else None
                w.para = self._index(self._para, w, grams) if self._para is not None else None
            self._encode(words)
            columns.append(words)
        refs = [[column[i] for column in columns] for i in range(count)]
        return PreparedReferences(refs, len(references))

    def _ngrams(self, words: _Words) -> list[tuple[int, int, str]]:
        """(length, start, phrase) of a segment's n-grams up to the longest a lookup takes,
        leaving out those of stop words and punctuation only (never paraphrase-matched)."""
        lc, content = words.tokens, words.content
        longest = max(x.max_length for x in (self._syn, self._para) if x is not None)
        firsts = self._any_first  # a phrase of several words no lookup holds is left out later
        out = [(1, i, t) for i, t in enumerate(lc) if content[i]]
        for n in range(2, min(longest, len(lc)) + 1):  # no longer than the segment: a huge max_length hung
            out += [(n, i, " ".join(lc[i:i + n])) for i in range(len(lc) - n + 1)
                    if (firsts is None or lc[i] in firsts) and any(content[i:i + n])]
        return out

    def _index(self, lookup: ParaEval, words: _Words, grams: list[tuple[int, int, str]]) -> _Ref:
        """One reference's n-gram index for a lookup: the paper scorer's `_prepare_one` over
        the n-grams already made, without the phrases of several words that no source of the
        lookup holds (they can neither be proposed as a paraphrase nor have one, so the
        candidates of every hypothesis phrase stay the same)."""
        multi = self._multi.get(id(lookup))
        most = lookup.max_length
        spans: dict[str, tuple[int, list[int]]] = {}
        for n, i, phrase in grams:
            if n == 1 or (n <= most and (multi is None or phrase in multi)):
                spans.setdefault(phrase, (n, []))[1].append(i)
        inverse, seen = self._inverse.setdefault(id(lookup), ({}, set()))
        if self._cache_size is not None and len(seen) >= self._cache_size:
            # starts again in new objects: the references indexed before keep the old ones,
            # which hold every phrase of theirs (so their candidates stay the same)
            inverse, seen = self._inverse[id(lookup)] = ({}, set())
        cache = lookup._cache
        for phrase in spans:
            if phrase not in seen:  # each phrase once, however many references hold it
                seen.add(phrase)
                paras = cache.get(phrase)
                for para in lookup.paraphrases(phrase) if paras is None else paras:
                    inverse.setdefault(para, set()).add(phrase)
        if isinstance(lookup, _SenseLookup):  # each word also under its synsets' keys
            for phrase, (n, starts) in list(spans.items()):
                if n == 1:
                    for key in lookup.word_senses(phrase):
                        spans.setdefault(key, (1, []))[1].extend(starts)
        return _IndexedRef(words.tokens, spans, frozenset(spans), {}, inverse)

    def prepare_cached(self, references: Sequence[Sequence[str]]) -> PreparedReferences:
        """`prepare`, remembering the last reference set (many systems index it once)."""
        key = references_key(references)
        if self._last is None or self._last[0] != key:
            self._last = (key, self.prepare(references))
        return self._last[1]

    # -- scoring ---------------------------------------------------------------------------------
    def segment_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | PreparedReferences,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        """(segments, len(COLUMNS)) statistics, each against its best reference; `progress(n)`
        is told of the segments as they are aligned (after the contextual vectors, which are
        computed first, in one batch)."""
        prepared = self._prepared_for(hypotheses, references)
        hyps = [self._words(h) for h in hypotheses]
        self._encode(hyps)
        if self._memo[0] is not prepared:  # rows of another reference set
            self._memo = (prepared, cache_dict(self._cache_size))
        memo = self._memo[1]
        out = []
        for i, (hyp, refs) in enumerate(zip(hyps, prepared.refs, strict=True)):
            # systems often agree on a segment: the same words against the same references
            # give the same rows (not with contextual vectors, which depend on the batch)
            key = (i, hyp.tokens) if hyp.vecs is None else None
            found = memo.get(key) if key is not None else None
            if found is None:
                found = [self._align_list(hyp, ref) for ref in refs]
                if key is not None:
                    memo[key] = found
            out.append(found)
            if progress is not None:
                progress(1)
        rows = np.array(out, dtype=np.float64).reshape(len(hyps), prepared.nrefs, len(COLUMNS))
        rows = rows.transpose(1, 0, 2)
        if prepared.nrefs == 1:
            return rows[0]
        best = best_of(rows, score_parts(rows, self.config)["score"])
        return rows[best, np.arange(len(hyps))]

    def _prepared_for(self, hypotheses: Sequence[str],
                      references: Sequence[Sequence[str]] | PreparedReferences) -> PreparedReferences:
        """The references prepared (:meth:`prepare_cached`), checked against the hypotheses."""
        return prepared_for(hypotheses, references, self.prepare_cached)

    def score(self, sums: np.ndarray, level: str = "system") -> dict[str, np.ndarray]:
        """:func:`score_parts` under this scorer's config (corpus sums: system level)."""
        return score_parts(sums, self.config, level)

    def align(self, hyp: _Words, ref: _Words) -> np.ndarray:
        """The statistics row of one hypothesis against one reference."""
        return np.array(self._align_list(hyp, ref), dtype=np.float64)

    def explain(self, hypothesis: str, references: Sequence[str]) -> GradedExplanation:
        """One segment's matches, tier by tier, against the reference it is scored against (the
        best of several), recorded while its statistics row is computed: the explanation's
        `counts` are the row :meth:`segment_stats` gives for ``[hypothesis]`` against these
        references, and its scores that row's segment scores (the ``--sentence-level`` figures)."""
        check_segment(hypothesis, references)
        hyp = self._words(hypothesis)
        self._encode([hyp])
        return self._explain(hyp, self.prepare([[text] for text in references]).refs[0])

    def explain_segments(self, hypotheses: Sequence[str],
                         references: Sequence[Sequence[str]] | PreparedReferences) -> list[GradedExplanation]:
        """:meth:`explain` of every segment against reference streams (sacrebleu's layout)
        indexed once (:meth:`prepare_cached`: those the scores were computed on), not once per
        segment, the hypotheses encoded in one batch as :meth:`segment_stats` encodes them (so
        a contextual config's explanations hold the rows the scores came from): what
        ``paralign paraeval --report`` shows."""
        prepared = self._prepared_for(hypotheses, references)
        hyps = [self._words(h) for h in hypotheses]
        self._encode(hyps)
        return [self._explain(h, refs) for h, refs in zip(hyps, prepared.refs, strict=True)]

    def _explain(self, hyp: _Words, refs: Sequence[_Words]) -> GradedExplanation:
        """:meth:`explain` of a segment's words (vectors set) against its prepared references."""
        traces: list[tuple[list, list[int]]] = [([], []) for _ in refs]
        rows = np.array([self._align_list(hyp, ref, trace) for ref, trace in zip(refs, traces, strict=True)],
                        dtype=np.float64)
        scores = score_parts(rows, self.config)["score"]
        best = int(best_of(rows[:, None], scores[:, None])[0]) if len(rows) > 1 else 0
        parts = score_parts(rows[best], self.config)  # as the command line scores that row
        ref, (links, starts) = refs[best], traces[best]
        weights = dict(self.config.weights)
        matches = tuple(TierMatch(TIER_ORDER[code], i, i + n, j, j + m, grade, weights[TIER_ORDER[code]])
                        for code, i, n, j, m, grade in sorted(links, key=lambda link: link[1]))
        matched = {i for match in matches for i in range(match.hyp_start, match.hyp_end)}
        chunks = []
        for start in starts:  # a chunk runs on over the matched words that start none
            end = start + 1
            while end in matched and end not in starts:
                end += 1
            chunks.append((start, end))
        return GradedExplanation(
            self.config.name, hyp.tokens, hyp.content, best, ref.tokens, ref.content, matches, tuple(chunks),
            tuple((name, float(v)) for name, v in zip(COLUMNS, rows[best], strict=True)),
            tuple(float(v) for v in scores),
            *(float(parts[key]) for key in ("p", "r", "f", "fmean", "penalty", "score")))

    def _align_list(self, hyp: _Words, ref: _Words, trace: tuple[list, list[int]] | None = None) -> list[float]:
        """`align` as a list (many rows become one array at once). With a `trace`, its lists get
        each match as ``(tier code, hyp start, length, ref start, length, grade)`` and the
        hypothesis position where each chunk starts (:meth:`explain`)."""
        nh, nr = len(hyp.tokens), len(ref.tokens)
        ah, ar = [-1] * nh, [-1] * nr
        th, tr = [0] * nh, [0] * nr
        gh, gr = [0.0] * nh, [0.0] * nr
        links = trace[0] if trace is not None else None
        phrases: dict[int, tuple[int, int]] = {}  # hyp position -> (its match's start, ref end)
        state: TierState = (ah, ar, th, tr, gh, gr, phrases)
        for tier in self.config.tiers:
            code = _TIER[tier]
            if tier == "exact":
                _key_tier(hyp.tokens, ref.positions()[0], nr, code, state, links)
            elif tier == "stem":
                _key_tier(hyp.stems, ref.positions()[1], nr, code, state, links)
            elif tier == "synonym" and self._syn is not None and ref.syn is not None:
                self._phrase_tier(self._syn, hyp, ref.syn, code, state, links)
            elif tier == "paraphrase" and self._para is not None and ref.para is not None:
                self._phrase_tier(self._para, hyp, ref.para, code, state, links)
            elif tier == "contextual" and hyp.vecs is not None and ref.vecs is not None:
                self._soft_tier(hyp.vecs, ref.vecs, code, state, links)
        row = [0.0] * len(COLUMNS)
        row[0] = float(sum(hyp.content))
        row[1] = nh - row[0]
        row[2] = float(sum(ref.content))
        row[3] = nr - row[2]
        chunks = matches = 0
        for i in range(nh):
            if ah[i] >= 0:
                row[4 + 4 * th[i] + (0 if hyp.content[i] else 1)] += gh[i]
                matches += 1
                if not (i and ah[i - 1] >= 0 and (_continues(i, ah, phrases) if phrases
                                                  else ah[i] == ah[i - 1] + 1)):
                    chunks += 1
                    if trace is not None:
                        trace[1].append(i)
        ref_matches = 0
        for j in range(nr):
            if ar[j] >= 0:
                row[4 + 4 * tr[j] + (2 if ref.content[j] else 3)] += gr[j]
                ref_matches += 1
        row[_CHUNKS], row[_MATCHES], row[_REF_MATCHES] = chunks, matches, ref_matches
        return row

    def _phrase_tier(self, lookup: ParaEval, hyp: _Words, ref: _Ref, code: int,
                     state: TierState, links: list | None = None) -> None:
        """Hypothesis n-grams (longest first) against the reference's paraphrase spans."""
        ah, ar, th, tr, gh, gr, phrases = state
        nh = len(hyp.tokens)
        scale = len(ar) / nh if nh else 0.0
        cache = lookup._cache
        for n, i, phrase in self._hyp_grams(lookup, hyp):
            if (ah[i] >= 0) if n == 1 else (max(ah[i:i + n]) >= 0):
                continue
            paras = cache.get(phrase)
            if paras is None:
                paras = lookup.paraphrases(phrase)
            cands = ref.candidates(phrase, paras)
            if not cands:
                continue
            best: tuple[int, float, int, str] | None = None  # (-length, distance, start, cand)
            for cand in cands:
                length, starts = ref.spans[cand]
                for s in starts:
                    if (ar[s] < 0) if length == 1 else (max(ar[s:s + length]) < 0):
                        key = (-length, abs(s - i * scale), s, cand)
                        if best is None or key < best:
                            best = key
            if best is None:
                continue
            length, start, cand = -best[0], best[2], best[3]
            grade = self._grade(lookup, phrase, cand)
            for off in range(n):
                ah[i + off], th[i + off], gh[i + off] = start + min(off, length - 1), code, grade
            if n != length:  # a run through it continues at the reference word after its span
                for off in range(n):
                    phrases[i + off] = (i, start + length)
            for off in range(length):
                ar[start + off], tr[start + off], gr[start + off] = i + min(off, n - 1), code, grade
            if links is not None:
                links.append((code, i, n, start, length, grade))

    def _hyp_grams(self, lookup: ParaEval, hyp: _Words) -> list[tuple[int, int, str]]:
        """The (length, start, phrase) of a hypothesis that a phrase tier looks up, in the
        order it tries them (longest first, then left to right): phrases with a content word,
        of several words only when a source of the lookup holds them. Made once per lookup."""
        if hyp.grams is None:
            hyp.grams = {}
        found = hyp.grams.get(id(lookup))
        if found is None:
            lc, content = hyp.tokens, hyp.content
            nh = len(lc)
            multi = self._multi.get(id(lookup))
            firsts = self._firsts.get(id(lookup))
            found = []
            for n in range(min(lookup.max_length, nh), 1, -1):
                for i in range(nh - n + 1):
                    if (firsts is None or lc[i] in firsts) and any(content[i:i + n]):
                        phrase = " ".join(lc[i:i + n])
                        if multi is None or phrase in multi:
                            found.append((n, i, phrase))
            found += [(1, i, t) for i, t in enumerate(lc) if content[i]]
            hyp.grams[id(lookup)] = found
        return found

    def _grade(self, lookup: ParaEval, phrase: str, cand: str) -> float:
        """The probability of a scored table pair (in [0, 1]), else 1 (unscored, or a count
        above 1). A pair scored 0 counts nothing, as one scored 1e-6 counts almost nothing: it
        was given full credit, as an unscored pair is."""
        key = (phrase, cand)
        grade = self._grades.get(key)
        if grade is None:
            scores = [s for source in lookup.sources or () if isinstance(source, ParaphraseTable)
                      for s in (source.paraphrases(phrase).get(cand),
                                source.paraphrases(cand).get(phrase))
                      if isinstance(s, int | float) and 0 <= s <= 1]
            grade = self._grades[key] = max(scores) if scores else 1.0
        return grade

    def _soft_tier(self, hv: np.ndarray, rv: np.ndarray, code: int, state: TierState,
                   links: list | None = None) -> None:
        """Greedy one-to-one matches of the words left, by cosine, above the threshold."""
        ah, ar, th, tr, gh, gr, _ = state
        hs = [i for i, a in enumerate(ah) if a < 0]
        rs = [j for j, a in enumerate(ar) if a < 0]
        if not hs or not rs:
            return
        sims = hv[hs] @ rv[rs].T
        flat = sims.ravel()
        order = np.argsort(-flat, kind="stable")
        threshold = self.config.threshold
        width = len(rs)
        for idx in order[: int((flat >= threshold).sum())]:
            i, j = hs[idx // width], rs[idx % width]
            if ah[i] < 0 and ar[j] < 0:
                s = float(flat[idx])
                ah[i], ar[j], th[i], tr[j], gh[i], gr[j] = j, i, code, code, s, s
                if links is not None:
                    links.append((code, i, 1, j, 1, s))


def _table_phrases(sources: Sequence[ParaphraseSource]) -> tuple[int, frozenset[str] | None]:
    """The longest phrase (in words) the sources hold and every phrase of several words on either
    side of their pairs; (no limit, None) when a source is not a table (it may know anything)."""
    longest = 1
    out: set[str] = set()
    for source in sources:
        if not isinstance(source, ParaphraseTable):
            return 1 << 30, None
        most, multi = source.multiword_strings()
        longest = max(longest, most)
        out |= multi
    return longest, frozenset(out)
