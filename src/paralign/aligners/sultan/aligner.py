"""The Sultan aligner's front: :class:`Aligner` (annotate, prepare, align, trace).

Holds the options, the word-similarity source (loaded on first use) and the caches that clones
share; annotates texts or token lists (with spaCy's own ``n_process`` when asked for workers),
prepares sentences, and runs the module pipeline of :mod:`.modules` on each pair, on Dask
workers when asked (through :func:`paralign.workers.iter_chunk_results`, the one batch runner).

Not for: the modules themselves (:mod:`.modules`), the options and presets (:mod:`.options`) or
the per-sentence index (:mod:`.prepared`).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from ...alignment import Alignment, is_blank
from ...caching import CappedDict
from ...errors import ConfigurationError, check_count, check_pairs
from ...nlp import (
    Annotator,
    TextOrTokens,
    check_annotator,
    check_sentences,
    check_text_or_tokens,
)
from ...paraphrases import ParaphraseSource
from ...sentence import Sentence, check_sentence
from ...workers import Progress, block_options, in_steps, iter_chunk_results, stop_batch
from ..annotating import annotate_and_align
from .modules import ModulePipeline
from .options import NEURAL_PRESETS, PRESETS, AlignerConfig
from .prepared import MODAL_LEMMAS, Link, Prepared, _FormTable, _word_variants, unescape_ptb
from .wordsim import (
    CombinedSimilarity,
    NoSimilarity,
    RelatedWords,
    SpellingSimilarity,
    check_similarity_spec,
    form_similarity,
    load_similarity,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..contextual import ContextualAligner

#: Word-form pair similarities an aligner keeps (its cache starts again when full: a
#: :class:`~paralign.caching.CappedDict`); a long-lived one keeps fewer (:meth:`Aligner.limit_pair_cache`).
PAIR_CACHE_SIZE = 2_000_000


def _similarity_settings(config: AlignerConfig) -> tuple[float, bool, bool]:
    """The options word similarity depends on (clones with equal settings share its cache)."""
    return config.ppdb_sim, config.use_word_similarity, config.spelling_variants


def _option_error(given: Iterable[str], exc: TypeError) -> ConfigurationError:
    """What an option :class:`AlignerConfig` has no field for is told: its name, the option meant
    where one is near (``ppdb_similarity``: ``ppdb_sim``), and for ``preset`` the way to a preset's
    aligner. Before, Python's words alone: "unknown aligner option: AlignerConfig.__init__() got an
    unexpected keyword argument 'preset'"."""
    import difflib  # only for a message: not on import (heapq with it, 2 ms of every command)

    known = [f.name for f in fields(AlignerConfig)]
    unknown = [name for name in given if name not in known]
    if not unknown:  # a TypeError of another kind
        return ConfigurationError(f"unknown aligner option: {exc}")
    name = unknown[0]
    if name == "preset":
        return ConfigurationError(
            "unknown aligner option 'preset': Aligner takes options, not a preset; get_aligner('sultan', "
            "PRESET) gives a preset's aligner, and Aligner(**preset_options(PRESET)) (paralign.aligners.sultan) "
            f"one whose options you can change (presets: {', '.join(PRESETS)})")
    # one the name begins with, or that begins with it (ppdb_similarity: ppdb_sim), else the
    # shortest that holds it (stop_words: align_stop_words), else the closest
    near = sorted((k for k in known if name.startswith(k) or k.startswith(name)), key=len, reverse=True)[:1] \
        or sorted((k for k in known if name in k), key=len)[:1] or difflib.get_close_matches(name, known, n=1)
    return ConfigurationError(f"unknown aligner option {name!r}: " + (f"did you mean {near[0]!r}? " if near else "")
                              + "the options are AlignerConfig's fields (help(paralign.AlignerConfig))")


class Aligner:
    """The Sultan et al. (2014) word aligner.

    ``similarity`` is ``"ppdb"`` (default), ``"wordnet"``, ``"none"``, a table file's path (Parquet
    or TSV), ``"a+b"`` or any object with ``related(a, b)``; ``annotator`` is a
    :class:`paralign.nlp.Annotator` (spaCy).

    Options are keywords, each a field of :class:`AlignerConfig` (``help(paralign.AlignerConfig)``):
    ``ppdb_sim`` and ``w`` (the paper's thresholds), the ``use_*`` switches and the rest; one it
    has not is a ConfigurationError naming it. A preset's options (:data:`PRESETS`: ``paper``,
    ``paraphrase``, ...) are ``Aligner(**preset_options("paper"))`` (``paralign.aligners.sultan``),
    or ``get_aligner("sultan", "paper")`` as an alignment function.

    ``Aligner("contextual", ...)`` builds the contextual aligner instead (the ``contextual``
    preset, :class:`paralign.aligners.contextual.ContextualAligner`, given the other arguments):
    one object to load once and reuse, as the lexical aligner.

    Links index the tokens: spaCy's for a text, the given ones for a token list
    (:meth:`annotate` gives the tokens; :class:`paralign.AlignedSentences` the word pairs):

    >>> aligner = paralign.Aligner()                       # load once, reuse
    >>> aligner.align("The senator sponsored the bill.", "The senator drafted the bill.")
    Alignment.from_pharaoh('0-0 1-1 3-3 4-4 5-5')
    >>> aligner.align(["a", "big", "dog"], ["a", "large", "dog"]).to_pharaoh()
    '0-0 1-1 2-2'
    """

    config: AlignerConfig  #: its options, set by __init__ (what tune_aligner reads ppdb_sim from)

    # A checker reads the overloads: Aligner("contextual") is a ContextualAligner, any other an
    # Aligner (mypy asks __new__ for a subclass and keeps Aligner for both; pyright follows them).
    @overload
    def __new__(cls, similarity: Literal["contextual"], *args: Any,  # type: ignore[misc]  # mypy: a __new__ giving another class
                **kwargs: Any) -> ContextualAligner: ...
    @overload
    def __new__(cls, similarity: str | RelatedWords | ParaphraseSource | None = "ppdb", *args: Any,
                **kwargs: Any) -> Aligner: ...

    def __new__(cls, similarity: Any = "ppdb", *args: Any, **kwargs: Any) -> Aligner | ContextualAligner:  # type: ignore[misc]  # mypy: a __new__ giving another class
        """The Sultan aligner, or for ``"contextual"`` the contextual aligner built with the
        other arguments."""
        if isinstance(similarity, str) and similarity in NEURAL_PRESETS:
            from ..contextual import ContextualAligner

            return ContextualAligner(*args, **kwargs)
        return super().__new__(cls)

    def __init__(
        self,
        similarity: str | RelatedWords | ParaphraseSource | None = "ppdb",
        ppdb_sim: float = 0.9,
        w: float = 0.9,
        use_word_similarity: bool = True,
        use_dependency_context: bool = True,
        use_textual_context: bool = True,
        align_stop_words: bool = True,
        annotator: Annotator | None = None,
        **options: Any,
    ) -> None:
        try:
            self.config = AlignerConfig(
                ppdb_sim=ppdb_sim, w=w, use_word_similarity=use_word_similarity,
                use_dependency_context=use_dependency_context,
                use_textual_context=use_textual_context, align_stop_words=align_stop_words,
                **options,
            )
        except TypeError as exc:
            raise _option_error(options, exc) from exc
        if isinstance(similarity, str) and similarity in PRESETS and not Path(similarity).exists():
            raise ConfigurationError(
                f"{similarity!r} is an aligner preset, not a word-similarity source (Aligner's first "
                f"argument): get_aligner('sultan', {similarity!r}) gives that aligner, and "
                f"Aligner(**preset_options({similarity!r})) (paralign.aligners.sultan) one whose options "
                "you can change")
        check_similarity_spec(similarity)  # an unknown name fails here, not at the first pair
        check_annotator(annotator)
        self._similarity_spec = similarity
        self._related: RelatedWords | None = None
        self.annotator = annotator
        self._sim_cache: CappedDict[int, float] = CappedDict(PAIR_CACHE_SIZE)
        self._forms: _FormTable | None = None
        self._entity_types = dict(self.config.entity_types)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what it loaded (word-similarity data, caches): a Dask worker gets the
        aligner once and loads those itself on first use (see :mod:`paralign.workers`)."""
        state = dict(self.__dict__)
        if not isinstance(self._similarity_spec, str | None):
            return state  # a similarity source given as an object travels as it is
        state.update(_related=None, _sim_cache=CappedDict(self._sim_cache.limit), _forms=None)
        return state

    def __repr__(self) -> str:
        """The word-similarity source unless PPDB and the options that differ from the defaults:
        ``Aligner('wordnet', w=0.5)``, ``Aligner()`` for the default aligner."""
        default = AlignerConfig()
        parts = [] if self._similarity_spec == "ppdb" else [repr(self._similarity_spec)]
        parts += [f"{f.name}={getattr(self.config, f.name)!r}" for f in fields(AlignerConfig)
                  if getattr(self.config, f.name) != getattr(default, f.name)]
        return f"Aligner({', '.join(parts)})"

    # -- configuration --------------------------------------------------------------------------
    def with_params(self, **changes: Any) -> Aligner:
        """A copy with some options changed, sharing the similarity source and annotator."""
        self._form_table()  # the clone must share it: the similarity cache is keyed by its type ids
        clone = Aligner.__new__(Aligner)
        try:
            clone.config = replace(self.config, **changes)
        except TypeError as exc:  # as the constructor says it
            raise _option_error(changes, exc) from exc
        clone._similarity_spec = self._similarity_spec
        same_similarity = _similarity_settings(clone.config) == _similarity_settings(self.config)
        clone._related = self._related if same_similarity else None
        clone.annotator = self.annotator
        clone._sim_cache = self._sim_cache if same_similarity else CappedDict(self._sim_cache.limit)
        clone._forms = self._forms
        clone._entity_types = dict(clone.config.entity_types)
        return clone

    def limit_pair_cache(self, size: int) -> None:
        """Keep at most `size` word-form pair similarities from now on (default
        :data:`PAIR_CACHE_SIZE`), the cache starting again when full: for an aligner that lives
        as long as a server, meeting new words for weeks. A cache never changes an alignment.
        Clones made by :meth:`with_params` before this call keep the cache they shared."""
        self._sim_cache = CappedDict(size)

    @property
    def similarity_spec(self) -> str | RelatedWords | ParaphraseSource | None:
        """The word-similarity source as it was given (``"ppdb"``, ``"a+b"``, a path, an object)."""
        return self._similarity_spec

    @property
    def loaded_related(self) -> RelatedWords | None:
        """The related-word source if :attr:`related` has loaded it already, else None."""
        return self._related

    @property
    def related(self) -> RelatedWords:
        """The related-word source (loaded on first use); NoSimilarity in the ablation."""
        if self._related is None:
            if not self.config.use_word_similarity:
                self._related = NoSimilarity()
            else:
                self._related = load_similarity(self._similarity_spec)
                if self.config.spelling_variants:
                    self._related = CombinedSimilarity([self._related, SpellingSimilarity()])
        return self._related

    def _annotator(self) -> Annotator:
        if self.annotator is None:
            from ...nlp import default_annotator

            self.annotator = default_annotator()
        return self.annotator

    # -- annotation -----------------------------------------------------------------------------
    @staticmethod
    def _parse_form(item: TextOrTokens) -> TextOrTokens:
        return item if isinstance(item, str) else unescape_ptb(list(item))

    def annotate(self, items: Iterable[TextOrTokens], workers: int = 1,
                 progress: Progress | None = None) -> list[Sentence]:
        """Annotate texts (spaCy tokenisation) or token lists (kept exactly; PTB escapes parsed
        as the characters they stand for, the given tokens are kept); ``progress`` is given
        the sentences as spaCy makes them (:class:`~paralign.workers.Steps` ``"annotating"``)."""
        workers = check_count(workers, "workers")
        # one text is not read as a batch of its characters; None or a number is named by its
        # item here, not a TypeError from spaCy
        originals: list[TextOrTokens] = check_sentences(items, "items")
        parsed = in_steps(progress, self._annotator().pipe((self._parse_form(x) for x in originals),
                                                           n_process=workers), len(originals), "annotating")
        out = []
        for item, sentence in zip(originals, parsed, strict=True):
            if not isinstance(item, str) and tuple(item) != sentence.tokens:
                sentence = replace(sentence, tokens=tuple(item))
            out.append(sentence)
        return out

    def prepare(self, sentence: Sentence) -> Prepared:
        """Index an annotated sentence for alignment under this aligner's options (shared form table)."""
        check_sentence(sentence, "sentence")
        forms = self._form_table()
        return Prepared(sentence, forms.stop_words, self._entity_types, forms,
                        self.config.stanford_copula, self.config.punct_dependencies,
                        self.config.coordination_edges,
                        _word_variants(self.config.symbol_words, self.config.article_variants),
                        MODAL_LEMMAS if self.config.modal_lemmas else None)

    def _form_table(self) -> _FormTable:
        if self._forms is None:
            from ...resources import stopwords

            self._forms = _FormTable(stopwords())
        return self._forms

    # -- public API -----------------------------------------------------------------------------
    def align(self, source: TextOrTokens | Sentence, target: TextOrTokens | Sentence) -> Alignment:
        """Align two texts or token lists (or annotated Sentences, used as they are); links
        index the (kept or spaCy) tokens. A Sentence beside a text is used as it is too (only
        the text is annotated). A pair with an empty or white-space-only sentence aligns to the
        empty alignment (nothing to align)."""
        items = (source, target)
        for side, item in zip(("source", "target"), items, strict=True):
            if not isinstance(item, Sentence):
                check_text_or_tokens(item, side)
        annotated = iter(self.annotate([x for x in items if not isinstance(x, Sentence)]))
        s, t = (x if isinstance(x, Sentence) else next(annotated) for x in items)
        return self.align_sentences(s, t)

    def align_sentences(self, source: Sentence, target: Sentence) -> Alignment:
        """Align two annotated sentences (InputTypeError for a text: :meth:`align` takes those).
        A sentence with no words (no token, or white space only: :func:`~paralign.alignment.is_blank`)
        has nothing to align: the empty alignment, as every aligner of the registry gives."""
        check_sentence(source, "source")
        check_sentence(target, "target")
        if is_blank(source) or is_blank(target):
            return Alignment()
        return self.align_prepared(self.prepare(source), self.prepare(target))

    def __call__(self, source: TextOrTokens | Sentence, target: TextOrTokens | Sentence) -> Alignment:
        """The aligner as an alignment function (:meth:`align`), as ``get_aligner`` gives and
        ``similarity(aligner=...)`` and the batch functions take: an aligner built with its own
        options is passed as it is."""
        return self.align(source, target)

    def align_many(
        self, pairs: Iterable[tuple[TextOrTokens, TextOrTokens]], workers: int = 1,
        progress: Progress | None = None,
    ) -> list[Alignment]:
        """Align many pairs: one batched annotation pass, then alignment (``workers`` processes).
        An item that is not a (source, target) pair, or whose sentence is not one, is an
        InputTypeError naming it."""
        return annotate_and_align(self, pairs, workers, progress)

    def align_annotated(
        self, pairs: Sequence[tuple[Sentence, Sentence]], workers: int = 1,
        progress: Progress | None = None,
    ) -> list[Alignment]:
        """Align pre-annotated sentence pairs, on ``workers`` Dask workers when > 1 (through
        :func:`paralign.workers.iter_chunk_results`, the one batch runner; each worker gets this
        aligner once and loads its word-similarity data once); ``progress`` is given the
        alignments as they come, in input order (:class:`~paralign.workers.Steps`
        ``"aligning"``: in this process pair by pair, on workers chunk by chunk). A `workers`
        that is not a count, or an item that is not a (source, target) pair, is a ParalignError
        naming it (workers=0 or -1 ran silently in this process, "2" was a TypeError, a
        generator of pairs had no len())."""
        workers = check_count(workers, "workers")
        pairs = check_pairs(pairs)
        many = workers > 1 and len(pairs) >= 2 * workers
        block = block_options()
        # here, chunks of one pair cost nothing and a display advances with each (one chunk of
        # all the pairs showed 0 until the last was done); a cluster gets one chunk, as before
        here = block is None or (block.workers == 1 and block.address() is None)
        chunks = iter_chunk_results(
            self._align_chunk,
            pairs,
            stop_batch("aligning failed in a worker process"),
            workers=workers if many else 1,
            chunk_size=max(1, len(pairs) // (workers * 8)) if many else 1 if here else max(1, len(pairs)),
        )
        results = (alignment for chunk in chunks for alignment in chunk)
        return list(in_steps(progress, results, len(pairs), "aligning"))

    def _align_chunk(self, pairs: list[tuple[Sentence, Sentence]]) -> list[Alignment]:
        return [self.align_sentences(s, t) for s, t in pairs]

    # -- the pipeline ---------------------------------------------------------------------------
    def align_prepared(self, s: Prepared, t: Prepared) -> Alignment:
        """Run the module pipeline on two prepared sentences."""
        if s.n == 0 or t.n == 0:
            return Alignment()
        return Alignment(frozenset(self.trace_prepared(s, t)))

    def trace_prepared(self, s: Prepared, t: Prepared) -> dict[Link, str]:
        """The links of the pipeline, each with the name of the module that made it."""
        if s.n == 0 or t.n == 0:
            return {}
        return ModulePipeline(self.config, s, t, self._similarities(s, t)).run()

    def _similarities(self, s: Prepared, t: Prepared) -> dict[Link, float]:
        """Non-zero similarities of all token pairs (computed once per distinct form pair)."""
        related, ppdb_sim, cache = self.related, self.config.ppdb_sim, self._sim_cache
        t_types: dict[int, list[int]] = {}
        for j, key in enumerate(t.keys):
            t_types.setdefault(key, []).append(j)
        s_types: dict[int, list[int]] = {}
        for i, key in enumerate(s.keys):
            s_types.setdefault(key, []).append(i)
        t_items = list(t_types.items())
        out: dict[Link, float] = {}
        for skey, s_idx in s_types.items():
            for tkey, t_idx in t_items:
                ck = (skey << 32) | tkey if skey <= tkey else (tkey << 32) | skey
                value = cache.get(ck)
                if value is None:
                    i0, j0 = s_idx[0], t_idx[0]
                    value = form_similarity(s.word_forms[i0], t.word_forms[j0], related, ppdb_sim)
                    if value < 1.0:
                        value = max(value, form_similarity(
                            s.lemma_forms[i0], t.lemma_forms[j0], related, ppdb_sim))
                    cache[ck] = value
                if value:
                    for i in s_idx:
                        for j in t_idx:
                            out[(i, j)] = value
        return out


def _init_signature(cls: type) -> inspect.Signature:
    """`cls.__init__`'s signature without `self`: what `help()` and `inspect.signature` show of
    the class, which would otherwise be its `__new__`'s `(similarity, *args, **kwargs)`."""
    signature = inspect.signature(cls.__init__)  # type: ignore[misc]  # mypy: __init__ of a type
    return signature.replace(parameters=list(signature.parameters.values())[1:])


Aligner.__signature__ = _init_signature(Aligner)  # type: ignore[attr-defined]  # mypy: a class's __signature__ (inspect reads it)
