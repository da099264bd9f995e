"""ParaMetric (Callison-Burch, Cohn & Lapata 2008): score aligners and paraphrase tables.

Two kinds of score, both broken down by phrase length ("Length = 1", "Length <= 2", ...):

* **AlignPrec / AlignRecall** (`align_scores`): the non-identical consistent phrase pairs (PP,
  see `paralign.phrases`) of a system's alignments against those of the gold alignments, the
  intersection summed over the corpus and divided by the summed system (precision) or gold
  (recall) counts.  Phrase pairs are compared by their spans, so a pair only matches in the
  sentence pair it came from.
* **LB-Precision / Rel-Recall** (`table_scores`): a paraphrase source's paraphrases of the
  phrases of the test sentences against reference paraphrase sets built from groups of aligned
  equivalent sentences, as corpus-level counts (the paper's 156/230 = .68, 156/14,078 = .01).

Length of a phrase pair (both scores): the word count of its LONGER side.  A pair is counted
under "Length <= n" when its length is <= n, i.e. when both sides have at most n words.

Counting units for the table scores (see `table_scores`): the paper sums over <s, G> in C and
p in s.  Here s ranges over the DISTINCT sentences (lower-cased token tuples) of a group G (a
sentence that occurs in several pairs of its group is one unit), and p over the DISTINCT
phrase texts (lower-cased, up to `max_length` words) of s.  For each unit (G, s, p):

* reference = para_REF(p, s, G): the union, over the group's pairs that contain s (on either
  side), of the texts p2 of the non-identical phrase pairs (p, p2) whose s-side is p;
* posited = para_M(p): the source's paraphrases of p (normalised, != p), each at most
  `max_length` words as the source holds it, or, one that is a reference paraphrase, as the
  gold's words count it (longer ones are counted in `beyond_max_length` and reported, not scored);
* correct = posited ∩ reference.

A table that pivot or paraphrase-table built is asked for p as its tokenizer splits it, and its
paraphrases are compared with the reference's texts split so too
(:func:`paralign.paraphrases.lookup_key`, the rule of every consumer of a table): a gold whose
tokens hold ``man's`` finds the ``man 's`` of pivot's regex tokens. The signature names that
tokenizer (``t.tsv~regex#HASH``). A user's table (no tokenizer recorded) is asked for the gold's
phrases as they are; one that holds some of them split otherwise (``man's hat``, ``red.`` for
the gold's ``man 's hat``, ``red .``) is warned about, with their count, and so is a table that
posited nothing (empty, or none of its phrases in the gold's sentences).

Each of these is a set, so a paraphrase is counted once per (group, sentence, phrase) however
many pairs or occurrences yield it.  Variants: `only_referenced=True` counts posited paraphrases
only for phrases p that have at least one reference paraphrase (precision where the reference has
an opinion); `tight=True` builds the reference from aligned-edge phrase pairs only (at most
one paraphrase per pair and phrase occurrence, as the paper states); `sentences="hub"` keeps, as the paper's corpus does (the first translation aligned
to the ten others), only the sentences that occur in EVERY pair of their group (both sentences
of a one-pair group); groups without such a sentence are then left out and counted in the
result's `skipped_groups` (reported in one summary warning).

The alignment scores live in :mod:`paralign.metrics.parametric_align` and are re-exported
here; this module scores paraphrase tables.

Not for: choosing or building an aligner (`align_scores_files` takes one; the CLI turns
`--system sultan` into it) or text tables (`paralign.cli._render`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .._moved import moved_names
from ..corpora.base import AlignedPair, BadPair, gold_pairs
from ..errors import ConfigurationError, EmptyScoringError, InputTypeError, counted
from ..paraphrases import (
    ParaphraseSource,
    ParaphraseTable,
    check_source,
    empty_table_note,
    looked_up_as_typed,
    lookup_key,
    normalize_phrase,
)
from ..signature import join_signature, setting_value
from ..tokenizers import detokenize, tokenize
from .alignment_scores import SkippedPair
from .paraeval.signature import source_signature
from .parametric_align import (
    DEFAULT_MAX_LENGTH,
    AlignCounts,
    AlignScores,
    AlignTokens,
    PairLike,
    Progress,
    SpanPair,
    _check_max_length,
    _cumulate,
    _ratio,
    _warning,
    align_scores,
    align_scores_files,
    length_bound,
    nonidentical_spans,
    possible_part,
    possible_warnings,
    with_sentences,
)

__all__ = [
    "AlignCounts", "AlignScores", "AlignTokens", "PairLike", "Progress", "References", "Sentence",
    "SpanPair", "TableCounts", "TableScores", "align_scores", "align_scores_files", "group_sentences",
    "hub_sentences", "nonidentical_spans", "reference_paraphrases", "sentence_phrases", "table_scores",
    "table_scores_files", "table_signature",
]


# -- reference paraphrase sets -------------------------------------------------------------------
Sentence = tuple[str, ...]
References = dict[Sentence, dict[str, set[str]]]


def _lower(tokens: Iterable[str]) -> Sentence:
    return tuple(t.lower() for t in tokens)


def group_sentences(pairs: Iterable[PairLike]) -> list[Sentence]:
    """The distinct sentences (lower-cased token tuples) of a group, in order of appearance."""
    seen: dict[Sentence, None] = {}
    for pair in pairs:
        for tokens in (pair.source, pair.target):
            seen.setdefault(_lower(tokens), None)
    return list(seen)


def hub_sentences(pairs: Sequence[PairLike]) -> list[Sentence]:
    """The group's sentences that occur in every one of its pairs (the paper's key sentence)."""
    return [s for s in group_sentences(pairs)
            if all(s in (_lower(p.source), _lower(p.target)) for p in pairs)]


def reference_paraphrases(
    pairs: Iterable[PairLike], max_length: int = DEFAULT_MAX_LENGTH, *, links: str = "sure", tight: bool = False
) -> References:
    """para_REF for one group: sentence -> phrase -> set of reference paraphrases (texts).

    The union, over the group's pairs containing the sentence, of the non-identical consistent
    phrase pairs whose side in that sentence is the phrase.  Texts are lower-cased.
    `tight=True` uses only phrase pairs with aligned edge words, so that a phrase occurrence has
    at most one paraphrase per pair (the paper: "the maximum size of this set is the number of
    sentence pairs in G").
    """
    refs: References = {}
    for pair in pairs:
        src, tgt = _lower(pair.source), _lower(pair.target)
        src_refs = refs.setdefault(src, {})
        tgt_refs = refs.setdefault(tgt, {})
        for s1, s2, t1, t2 in nonidentical_spans(pair.alignment, src, tgt, max_length, links, tight):
            p, q = " ".join(src[s1:s2]), " ".join(tgt[t1:t2])
            src_refs.setdefault(p, set()).add(q)
            tgt_refs.setdefault(q, set()).add(p)
    return refs


def sentence_phrases(tokens: Sequence[str], max_length: int) -> set[str]:
    """Distinct phrase texts (lower-cased, 1..max_length words) of a sentence."""
    low = [t.lower() for t in tokens]
    return {
        " ".join(low[i:j]) for i in range(len(low)) for j in range(i + 1, min(i + max_length, len(low)) + 1)
    }


# -- LB-Precision / Rel-Recall -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TableCounts:
    """Posited, correct and reference paraphrase counts for one length bound."""

    posited: int
    correct: int
    reference: int

    @property
    def lb_precision(self) -> float | None:
        return _ratio(self.correct, self.posited)

    @property
    def rel_recall(self) -> float | None:
        return _ratio(self.correct, self.reference)

    def to_dict(self) -> dict:
        return {"lb_precision": self.lb_precision, "rel_recall": self.rel_recall,
                "posited": self.posited, "correct": self.correct, "reference": self.reference}


@dataclass(frozen=True, slots=True)
class TableScores:
    """LB-Precision and Rel-Recall of a paraphrase source, by length bound (1..max_length)."""

    source: str
    by_length: Mapping[int, TableCounts]
    max_length: int
    groups: int
    sentences: int
    skipped_groups: int = 0
    beyond_max_length: int = 0
    only_referenced: bool = False
    sentence_mode: str = "all"
    tight: bool = False
    warnings: tuple[str, ...] = field(default=())
    skipped_rows: tuple[SkippedPair, ...] = ()  #: bad gold items, left out (see table_scores_files)
    #: The settings that made these numbers (:func:`table_signature`); None when not known.
    signature: str | None = None

    @property
    def overall(self) -> TableCounts:
        return self.by_length[self.max_length]

    @property
    def lb_precision(self) -> float | None:
        return self.overall.lb_precision

    @property
    def rel_recall(self) -> float | None:
        return self.overall.rel_recall

    def to_dict(self) -> dict:
        return {
            "source": self.source,
            "lb_precision": self.lb_precision,
            "rel_recall": self.rel_recall,
            "posited": self.overall.posited,
            "correct": self.overall.correct,
            "reference": self.overall.reference,
            "groups": self.groups,
            "sentences": self.sentences,
            "skipped_groups": self.skipped_groups,
            "beyond_max_length": self.beyond_max_length,
            "only_referenced": self.only_referenced,
            "sentence_mode": self.sentence_mode,
            "tight": self.tight,
            "max_length": self.max_length,
            "by_length": {str(n): c.to_dict() for n, c in sorted(self.by_length.items())},
            "warnings": list(self.warnings),
            "skipped_rows": [row.to_dict() for row in self.skipped_rows],
            **({} if self.signature is None else {"signature": self.signature}),
        }


def _folded(source: ParaphraseSource) -> ParaphraseSource:
    """`source` as ParaMetric matches it: its phrases are lower-cased, so a table matched with its
    case (built with ``--keep-case``) is folded (:meth:`ParaphraseTable.folded`), its rows of
    ``US`` found for the gold's ``us`` too; any other source as it is."""
    return source.folded() if isinstance(source, ParaphraseTable) else source


class _CachedSource:
    """Memoised, normalised lookups: phrase -> ((paraphrase, word count), ...), each phrase asked
    for as the source holds its phrases (:func:`~paralign.paraphrases.lookup_key`: a table that
    pivot built is asked for the gold's ``man's`` as ``man 's``)."""

    def __init__(self, source: ParaphraseSource) -> None:
        self.source = source
        self.cache: dict[str, tuple[tuple[str, int], ...]] = {}
        #: whether a phrase's key is the phrase itself (else :meth:`key` gives it)
        self.as_typed = looked_up_as_typed(source)
        self._keys: dict[str, str] = {}

    def key(self, phrase: str) -> str:
        """`phrase` as the source holds its phrases (the phrase itself when :attr:`as_typed`)."""
        if self.as_typed:
            return phrase
        found = self._keys.get(phrase)
        if found is None:
            found = self._keys[phrase] = normalize_phrase(lookup_key(self.source, phrase))
        return found

    def held(self, phrases: set[str]) -> dict[str, int]:
        """`phrases` (a reference set) as the source holds its phrases, to compare its paraphrases
        with, each with its length in the gold's words (a built table's ``physician 's`` is the
        gold's one word ``physician's``); the shortest when two come to be one."""
        lengths: dict[str, int] = {}
        for q in phrases:
            held, length = q if self.as_typed else self.key(q), len(q.split())
            lengths[held] = min(length, lengths.get(held, length))
        return lengths

    def __call__(self, phrase: str) -> tuple[tuple[str, int], ...]:
        hit = self.cache.get(phrase)
        if hit is None:
            key = self.key(phrase)
            found = {normalize_phrase(q) for q in self.source.paraphrases(key)}
            found.discard(key)
            found.discard("")
            hit = tuple((q, len(q.split())) for q in sorted(found))
            self.cache[phrase] = hit
        return hit


def table_scores(
    groups: Mapping[str, Sequence[PairLike]],
    source: ParaphraseSource,
    max_length: int = DEFAULT_MAX_LENGTH,
    *,
    links: str = "sure",
    only_referenced: bool = False,
    sentences: str = "all",
    tight: bool = False,
) -> TableScores:
    """LB-Precision and Rel-Recall of `source` against the groups' reference paraphrase sets.

    `tight=True` builds the reference sets from aligned-edge phrase pairs only (see
    `reference_paraphrases`).

    Counting as in the module docstring.  A group with fewer than two distinct sentences has no
    reference paraphrases: it is skipped with a warning naming it (every group skipped: an
    EmptyScoringError naming the first reason, as :func:`align_scores`). A `max_length` past every
    phrase counted is no limit: the rows stop at the longest (never under the default's 5)."""
    _check_max_length(max_length)
    if sentences not in ("all", "hub"):
        raise ConfigurationError(f"sentences must be 'all' or 'hub', got {sentences!r}")
    if not isinstance(groups, Mapping):  # load_groups' form, not load_pairs'
        raise InputTypeError(f"groups must map a group id to its pairs (load_groups), not {type(groups).__name__}")
    groups = {key: gold_pairs(pairs, f"group {key!r}") for key, pairs in groups.items()}  # all before any work
    lookup = _CachedSource(_folded(check_source(source)))
    posited: Counter[int] = Counter()
    correct: Counter[int] = Counter()
    reference: Counter[int] = Counter()
    warnings: list[str] = []
    beyond = units = skipped = no_hub = 0
    for key, pairs in groups.items():
        distinct = group_sentences(pairs)
        if len(distinct) < 2:
            ids = ", ".join(repr(p.id) for p in pairs) or "none"
            warnings.append(
                f"group {key!r} has {counted(len(distinct), 'distinct sentence')} (pairs {ids}): "
                "no reference paraphrases; skipped"
            )
            skipped += 1
            continue
        if sentences == "hub":
            distinct = hub_sentences(pairs)
            if not distinct:
                no_hub += 1
                skipped += 1
                continue
        refs = reference_paraphrases(pairs, max_length, links=links, tight=tight)
        for sentence in distinct:
            units += 1
            sent_refs = refs.get(sentence, {})
            for p, referenced in sent_refs.items():
                p_len = len(p.split())
                reference.update(max(p_len, len(q.split())) for q in referenced)
            for p in sentence_phrases(sentence, max_length):
                ref_set = sent_refs.get(p)
                if only_referenced and not ref_set:
                    continue
                held = lookup.held(ref_set) if ref_set else {}  # as the source holds them: gold lengths
                p_len = len(p.split())
                for q, q_len in lookup(p):
                    q_len = held.get(q, q_len)  # a reference paraphrase counts at its length in the gold's words
                    if q_len > max_length:
                        beyond += 1
                        continue
                    length = max(p_len, q_len)
                    posited[length] += 1
                    if q in held:
                        correct[length] += 1
    _check_scored(len(groups), skipped, warnings)
    warnings.extend(_left_out(no_hub, beyond, max_length))
    warnings.extend(_nothing_found(lookup, groups.values()) or _split_otherwise(lookup))
    rows = length_bound(max_length, max([*posited, *reference], default=0))  # past every phrase: no limit
    c, p_, r = (_cumulate(x, rows) for x in (correct, posited, reference))
    by_length = {n: TableCounts(p_[n - 1], c[n - 1], r[n - 1]) for n in range(1, rows + 1)}
    return TableScores(
        getattr(source, "name", type(source).__name__), by_length, rows,
        len(groups) - skipped, units, skipped, beyond, only_referenced, sentences, tight,
        tuple(warnings),
    )


def _check_scored(groups: int, skipped: int, warnings: Sequence[str]) -> None:
    """EmptyScoringError when every one of `groups` was skipped, naming the first reason (of
    `warnings`, else no hub sentence), as :func:`align_scores` and score_alignments say no pair
    could be scored: not a table of n/a."""
    if groups and skipped == groups:
        first = warnings[0] if warnings else "no sentence common to all its pairs"
        raise EmptyScoringError(f"no group could be scored: {counted(skipped, 'group')} skipped (first: {first})")


def _left_out(no_hub: int, beyond: int, max_length: int) -> list[str]:
    """The warnings of what :func:`table_scores` left out in all: `no_hub` groups without a hub
    sentence, `beyond` posited paraphrases longer than `max_length`; a count of one in the singular."""
    warnings = []
    if no_hub:
        have = "group has" if no_hub == 1 else "groups have"
        warnings.append(f"{no_hub} {have} no sentence common to all their pairs; skipped")
    if beyond:
        were = "was" if beyond == 1 else "were"
        warnings.append(f"{counted(beyond, 'posited paraphrase')} longer than {counted(max_length, 'word')} "
                        f"{were} not scored")
    return warnings


def _nothing_found(lookup: _CachedSource, groups: Iterable[Sequence[PairLike]]) -> list[str]:
    """The warning of a table that posited nothing, so that LB-Precision n/a and Rel-Recall 0 are
    not read as a score: it holds no paraphrase (its threshold kept none), or no phrase
    :func:`table_scores` asked it for (`lookup`'s) is one of its phrases, as when it is tokenised
    otherwise than the gold (``man's hat`` where the gold's tokens are ``man 's hat``): a phrase of
    each side shown (the first sentence of `groups`). None when any phrase was found."""
    source, consequence = lookup.source, "every posited count is 0 (LB-Precision n/a, Rel-Recall 0)"
    table = source if isinstance(source, ParaphraseTable) else None
    empty = empty_table_note(table)
    if empty is not None:
        return [f"{empty}: {consequence}"]
    if not lookup.cache or any(lookup.cache.values()):
        return []
    first = None if table is None else next(table.phrases(), None)
    example = next((pair.source for pairs in groups for pair in pairs), ())
    theirs = "" if first is None else f"; the table's: {first!r}"
    return [f"no phrase of the gold's sentences has a paraphrase in the table "
            f"({counted(len(lookup.cache), 'phrase')} looked up; the gold's tokens: {' '.join(example)[:60]!r}"
            f"{theirs}): {consequence}; is the table tokenised otherwise than the gold, or made for other text?"]


#: A token of closing punctuation, which untokenised text writes joined to the word before it.
_CLOSING = re.compile(r"[.,;:!?%)\]}]+")
#: A character that tokenizers split off or keep (punctuation, an apostrophe): only a phrase
#: holding one can be split otherwise.
_PUNCTUATION = re.compile(r"[^\w\s]")
_WORD = re.compile(r"\w")


def _glued(phrase: str) -> str:
    """`phrase` as untokenised text writes it: its clitics (``man 's`` -> ``man's``,
    :func:`~paralign.tokenizers.detokenize`) and closing punctuation (``red .`` -> ``red.``)
    joined to the word before."""
    words = detokenize(phrase, "regex").split()
    out = words[:1]
    for word in words[1:]:
        if _CLOSING.fullmatch(word):
            out[-1] += word
        else:
            out.append(word)
    return " ".join(out)


#: The share of the phrases a table holds (as the gold splits them or otherwise) under which
#: those it holds only split otherwise are not warned about: PPDB holds 42 of MTReference
#: test's 6,317 so (0.7%: ``2.``, a word of its own), a table of rows glued as raw text 740 of
#: 5,274 (14%).
OTHERWISE_SHARE = 0.02


def _split_otherwise(lookup: _CachedSource) -> list[str]:
    """The warning of a user's table (asked for phrases as typed) that holds phrases of the gold's
    sentences split otherwise than the gold splits them: not found as the gold has them (``man
    's hat``, ``red .``), but found joined as untokenised text writes them (``man's hat``,
    ``red.``), or split as the regex tokenizer splits them (``man 's`` for a gold's ``man's``):
    their rows are never asked for. The count and the shortest such phrase; none when they are
    under :data:`OTHERWISE_SHARE` of the phrases found either way (a few rows of ``2.``)."""
    table = lookup.source
    if not isinstance(table, ParaphraseTable) or not lookup.as_typed:
        return []
    otherwise: dict[str, str] = {}
    for phrase, hit in lookup.cache.items():
        if hit or not _PUNCTUATION.search(phrase) or _CLOSING.fullmatch(phrase):
            continue
        tokens = phrase.split()
        # a token of punctuation or a clitic ('s, n't) after a word: joined as text writes it
        forms = [_glued(phrase)] if any("'" in t or not _WORD.search(t) for t in tokens[1:]) else []
        if any(_PUNCTUATION.search(t) and _WORD.search(t) for t in tokens):  # man's, red.: split off
            forms.append(" ".join(tokenize(phrase)))
        held = next((form for form in forms if form != phrase and form in table), None)
        if held is not None:
            otherwise[phrase] = held
    as_split = sum(1 for hit in lookup.cache.values() if hit)  # phrases found as the gold splits them
    if not otherwise or len(otherwise) < OTHERWISE_SHARE * (as_split + len(otherwise)):  # PPDB: 42 of 6,317
        return []
    first = min(otherwise, key=lambda p: (not p[0].isalnum(), len(p), p))  # a word's first: "man 's", not '" ,'
    are = "is" if len(otherwise) == 1 else "are"
    return [f"{counted(len(otherwise), 'phrase')} of the gold's sentences {are} in the table only split "
            f"otherwise ({first!r} as {otherwise[first]!r}): those rows are never asked for, and posited and "
            "correct miss them; split the table's phrases as the gold's tokens are"]


# -- file-level entry point (what the CLI calls) ------------------------------------------------
def table_scores_files(
    gold_path: str | Path,
    table: str | ParaphraseSource,
    max_length: int = DEFAULT_MAX_LENGTH,
    *,
    links: str = "sure",
    only_referenced: bool = False,
    sentences: str = "all",
    tight: bool = False,
    gold_name: str | None = None,
    table_name: str | None = None,
    progress: Progress | None = None,
) -> TableScores:
    """LB-Precision/Rel-Recall of a table spec (`ppdb`, `wordnet`, `path[:threshold]`) on groups.

    A bad gold item (or one of links only, without its sentences: a Pharaoh line) is left out
    (its group is scored on its other pairs), with a warning naming file and line, and listed in `skipped_rows`; EmptyScoringError, naming the gold
    file, when no gold pair can be read.  `gold_name` and `table_name` are what messages and
    the result call the gold file and the table (default: their paths; e.g. `<stdin>`).  The
    result carries its :func:`table_signature`. `progress` wraps the table file's rows as they
    are read (:func:`~paralign.paraphrases.load_source`).
    """
    from ..corpora import group_key, read_pairs
    from ..paraphrases import load_source

    gold_name = str(gold_path) if gold_name is None else gold_name
    items = [with_sentences(item, gold_name) for item in read_pairs(gold_path, name=gold_name)]
    bad = [(number, item) for number, item in enumerate(items, start=1) if isinstance(item, BadPair)]
    groups: dict[str, list[AlignedPair]] = {}  # corpora.read_groups, a gold of links only left out
    for item in items:
        if not isinstance(item, BadPair):
            groups.setdefault(group_key(item.id), []).append(item)
    skipped = tuple(SkippedPair.of(number, item.error, item.id) for number, item in bad)
    if not groups:
        if not skipped:
            raise EmptyScoringError(f"{gold_name}: no gold pairs")
        raise EmptyScoringError(f"{gold_name}: no gold pair could be read "
                                f"(first: {_warning(skipped[0])})")
    source = load_source(table, progress=progress) if isinstance(table, str) else table
    result = table_scores(groups, source, max_length, links=links,
                          only_referenced=only_referenced, sentences=sentences, tight=tight)
    signature = table_signature(source, links=links, max_length=result.max_length, only_referenced=only_referenced,
                                sentences=sentences, tight=tight, shown=table_name,
                                possible=possible_part(gold_path, links, gold_name))
    return replace(result, source=result.source if table_name is None else table_name,
                   warnings=possible_warnings(items, links, gold_name) + tuple(_warning(k) for k in skipped)
                   + result.warnings,
                   skipped_rows=skipped, signature=signature)


def table_signature(source: ParaphraseSource, *, links: str, max_length: int, only_referenced: bool,
                    sentences: str, tight: bool, shown: str | None = None, possible: str | None = "gold") -> str:
    """The signature of LB-Precision/Rel-Recall: the ``table`` as ParaEval's signature names a
    source (a file by basename, threshold and content hash, `shown` naming a copy of stdin;
    ``ppdb-1.0-xxxl-lexical``; ``wordnet-3.0``), then every setting that changes a number: ``gold``
    (the gold link set), ``possible`` (where the gold's possible links came from:
    :func:`.parametric_align.possible_part`; None: left out, as for ``sure``), ``maxlen``, ``sentences`` (all or
    hub), ``only_referenced``, ``tight``, version. A table built with ``--keep-case`` is named as
    it is matched, folded (:func:`_folded`)."""
    return join_signature({
        "table": source_signature(_folded(source), shown), "gold": links, "possible": possible, "maxlen": max_length,
        "sentences": sentences, "only_referenced": setting_value(only_referenced), "tight": setting_value(tight),
    })


# Text rendering and aligner names moved to the CLI; the old names work until 0.3, with a warning.
__getattr__ = moved_names(__name__, {
    "render_align_scores": "paralign.cli._render", "render_table_scores": "paralign.cli._render",
    "ALIGNERS": "paralign.cli.parametric", "align_with": "paralign.cli.parametric",
})
