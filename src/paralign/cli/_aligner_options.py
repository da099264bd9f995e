"""The aligner options of `align`, `evaluate-aligner` and `tune-aligner` and the aligner object
they make: `--aligner`, `--preset` (the similarity commands' too), the Sultan aligner's options,
`--min-confidence`; and the gold options of the two aligner evaluations (`--gold`,
`--gold-links`, `--limit`).

Not for: `--encoder`/`--device` (:mod:`._encoder_options`), the similarity commands' aligner
(:mod:`._similarity_options`), or an option only one command has (its module).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, TypeVar

from ..aligners.exact import ExactAligner
from ..aligners.registry import ALIGNER_NAMES, preset_clash
from ..aligners.sultan import PRESETS, Aligner, AlignerConfig, preset_options
from ..aligners.sultan.options import NEURAL_PRESETS
from ..aligners.sultan.wordsim import RelatedWords, load_similarity
from ..errors import ConfigurationError
from ..paraphrases import source_spec_parts
from ._cluster import add_cluster_options
from ._common import (
    is_read_once,
    non_negative_int,
    open_unit,
    positive_int,
    progress_callback,
    read_once,
    shown_names,
    stdin_once,
    unit_interval,
)
from ._encoder_options import add_encoder_options, check_encoder_options
from ._metavars import FILE, SOURCE, N, X
from ._table_options import check_table_names

if TYPE_CHECKING:  # pragma: no cover
    from ..aligners.contextual import ContextualAligner

# -- the Sultan aligner ---------------------------------------------------------------------------
#: The aligner's defaults, for --ppdb-sim and --w (and tune-aligner, which has neither): stated
#: once, in AlignerConfig.
ALIGNER_DEFAULTS = AlignerConfig()


def add_preset_option(container: argparse._ActionsContainer, default: str | None = "default",
                      shown: str | None = None) -> None:
    """--preset: a named option set of the Sultan aligner (shared with the similarity commands).
    `default` None: not typed (the `default` preset, or `shown`, the command's own), so that a
    preset given where none applies (``align --aligner exact``) can be refused."""
    container.add_argument(
        "--preset", choices=list(PRESETS), default=default,
        help="option set of the sultan aligner: default, paper (the published method only), "
        "paraphrase (chosen on paraphrase alignments: context links, unique stop words) or "
        "contextual (the most accurate: contextual evidence from a neural encoder and a "
        "confidence per link; needs pip install 'paralign[neural]'; --aligner contextual is "
        f"the same) (default: {default or shown or 'default'})",
    )


def add_aligner_choice(container: argparse._ActionsContainer, text: str = "word aligner (default: %(default)s)") -> None:
    """--aligner: the aligner by its registry name (:data:`~paralign.aligners.registry.ALIGNER_NAMES`,
    the names the web app's requests take), for the similarity and the alignment commands."""
    container.add_argument("--aligner", default="sultan", choices=ALIGNER_NAMES, help=text)


def add_aligner_options(parser: argparse.ArgumentParser, *, parameters: bool = True) -> None:
    """Options shared by align, evaluate-aligner and tune-aligner (which searches --ppdb-sim and
    --w itself: `parameters=False` leaves them out)."""
    group = parser.add_argument_group("aligner")
    add_aligner_choice(group, ALIGNER_HELP)
    # the sultan aligner's options default to None (not typed), so --aligner exact can refuse them
    group.add_argument("--similarity", default=None, metavar=SOURCE,
                       help="related-word source: ppdb, wordnet, none, a paraphrase table file "
                       "(FILE.parquet as pivot writes it, FILE.tsv or FILE.tsv.gz; `PATH[:THRESHOLD]`), or a+b "
                       "(default: ppdb)")
    if parameters:
        group.add_argument("--ppdb-sim", type=open_unit, default=None, metavar=X,
                           help=f"similarity of a related pair (default: {ALIGNER_DEFAULTS.ppdb_sim})")
        group.add_argument("--w", type=open_unit, default=None, metavar=X,
                           help=f"weight of word vs context similarity (default: {ALIGNER_DEFAULTS.w})")
    group.add_argument("--no-word-similarity", action="store_true", help="ablation: identical words only")
    group.add_argument("--no-dependencies", action="store_true", help="ablation: no dependency context")
    group.add_argument("--no-text-context", action="store_true", help="ablation: no textual context")
    group.add_argument("--no-stop-words", action="store_true", help="ablation: no stop-word modules")
    group.add_argument("--stop-word-sequences", action="store_true",
                       help="wsAlign also aligns identical all-stop-word sequences (the reference "
                       "code's behaviour; the paper requires a content word)")
    add_preset_option(group, None)
    group.add_argument("--paper", action="store_true",
                       help="switch off paralign's extensions (sentence-start evidence, quote "
                       "pairs, spelling variants, ...): the same as --preset paper")
    group.add_argument("--context-links", type=non_negative_int, default=None, metavar=N,
                       help="also align unrelated content words with N or more corresponding "
                       "aligned dependency neighbours (for paraphrase data; default: the preset's, "
                       "off except in the paraphrase preset)")
    add_cluster_options(group, "parsing and aligning the pairs")
    add_encoder_options(group, CONTEXTUAL)
    group.add_argument("--min-confidence", type=unit_interval, default=None, metavar=X,
                       help=f"{CONTEXTUAL}: keep only links whose confidence is at least X "
                       "(0-1; default: the link model's own threshold, chosen on training data)")


#: --aligner of align, evaluate-aligner and tune-aligner.
ALIGNER_HELP = ("the word aligner: sultan (Sultan et al. 2014, with the options below), contextual (another "
                "spelling of --preset contextual: the same aligner and signature, aligner:sultan:contextual; "
                "the sultan options below set its lexical pipeline, and a --preset but contextual or default is "
                "a usage error) or exact (the exact-match baseline: identical words, one-to-one, left to right; the sultan "
                "options, and a --preset but default, are a usage error with it) (default: %(default)s)")

#: What runs the encoder in align, evaluate-aligner and tune-aligner (--encoder, --device, --min-confidence).
CONTEXTUAL = "--preset contextual or --aligner contextual"

#: The sultan aligner's options as typed, with their argparse dest (typed: not None or False):
#: the exact aligner takes none of them (nor a --preset but default: check_aligner_preset).
SULTAN_OPTIONS = (("--similarity", "similarity"), ("--ppdb-sim", "ppdb_sim"), ("--w", "w"),
                  ("--no-word-similarity", "no_word_similarity"), ("--no-dependencies", "no_dependencies"),
                  ("--no-text-context", "no_text_context"), ("--no-stop-words", "no_stop_words"),
                  ("--stop-word-sequences", "stop_word_sequences"), ("--paper", "paper"),
                  ("--context-links", "context_links"), ("--encoder", "encoder"), ("--device", "device"),
                  ("--min-confidence", "min_confidence"))


#: The report an :func:`on_gold` evaluation gives (TuneResult, a dict), kept as its own type.
Report = TypeVar("Report")


def on_gold(args: argparse.Namespace, evaluate: Callable[[str], Report]) -> Report:
    """``evaluate(path of --gold)``, with '-' (stdin) or a pipe copied once; the result names
    the input as given (<stdin> for '-'), and has the type `evaluate` gives."""
    with ExitStack() as stack:
        paths, names = stdin_once(stack, gold=[args.gold])
        result = evaluate(paths["gold"][0])
    return shown_names(result, names)


def add_gold_options(parser: argparse.ArgumentParser) -> None:
    """--gold, --gold-links and --limit, for evaluate-aligner and tune-aligner."""
    from ..metrics.alignment_scores import LINK_SETS

    parser.add_argument("--gold", required=True, metavar=FILE, help="gold alignment file (any format the "
                        "corpora loaders read)")
    parser.add_argument("--gold-links", choices=LINK_SETS, default="sure",
                        help="gold links to score against (default: %(default)s)")
    parser.add_argument("--limit", type=positive_int, default=None, metavar=N,
                        help="only the first N pairs (N >= 1; default: all)")


def aligner_from_args(args: argparse.Namespace) -> Aligner | ContextualAligner | ExactAligner:
    """The aligner of the aligner options: the Sultan aligner, with ``--preset contextual`` (or
    ``--aligner contextual``, its other spelling) the contextual aligner around it (--encoder,
    --device, --min-confidence), with ``--aligner exact`` the exact-match baseline, which takes
    none of the Sultan aligner's options (any typed is a usage error naming it).

    Its word-similarity source (--similarity) is loaded here, before any batch: a bad one is one
    error, not one per pair of a batch that catches each pair's failure (`align`)."""
    if args.aligner == "exact":
        check_aligner_preset(args)  # --preset default is its one option set; another, the similarity commands' error
        given = [flag for flag, dest in SULTAN_OPTIONS if getattr(args, dest, None) not in (None, False)]
        if given:
            them = "it" if len(given) == 1 else "them"
            raise ConfigurationError(f"--aligner exact takes no option of the sultan aligner ({', '.join(given)}): "
                                     f"the exact-match baseline links identical words only; leave {them} out")
        return ExactAligner()
    preset = sultan_preset(args)
    lexical = _sultan_from_args(args)
    check_encoder_options(args, preset in NEURAL_PRESETS, CONTEXTUAL, {"--min-confidence": args.min_confidence})
    lexical.related  # noqa: B018 - load (and so check) --similarity now
    if preset not in NEURAL_PRESETS:
        return lexical
    from ..aligners.contextual import ContextualAligner

    return ContextualAligner(args.encoder, device=args.device or "auto", lexical=lexical,
                             min_confidence=args.min_confidence)


def sultan_preset(args: argparse.Namespace) -> str:
    """The preset of align's, evaluate-aligner's and tune-aligner's Sultan aligner: --preset
    (`default` when not typed), or ``contextual`` for ``--aligner contextual``, another spelling
    of ``--preset contextual`` (``--preset default`` with it too: the aligner's own option set);
    with another --preset typed, a usage error naming both."""
    preset = getattr(args, "preset", None)
    if getattr(args, "aligner", "sultan") != "contextual":
        return preset or "default"
    check_aligner_preset(args)
    return "contextual"


def check_aligner_preset(args: argparse.Namespace) -> None:
    """A --preset typed (not the command's default) with ``--aligner exact`` other than
    ``default`` (its one option set), or another than contextual or default (its own option
    set) with ``--aligner contextual``, is a usage error naming both
    (:func:`~paralign.aligners.registry.preset_clash`, the web API's check too): the similarity
    commands ignored it without a word."""
    clash = preset_clash(getattr(args, "aligner", "sultan"), getattr(args, "preset", None))
    if clash is not None:
        raise ConfigurationError(clash)


def loaded_aligner(args: argparse.Namespace) -> Aligner | ContextualAligner | ExactAligner:
    """:func:`aligner_from_args` under a ``loading`` bar (on a terminal): the contextual aligner
    imports torch and reads its models (4-8 s), which drew nothing before the first step."""
    _, close = progress_callback(1, "loading")
    try:
        return aligner_from_args(args)
    finally:
        close()


def _sultan_from_args(args: argparse.Namespace) -> Aligner:
    if args.workers < 1:
        raise ConfigurationError(f"--workers must be >= 1, got {args.workers}")
    preset = sultan_preset(args)
    if args.paper and preset not in ("default", "paper"):
        chosen = "--aligner contextual" if args.aligner == "contextual" else f"--preset {preset}"
        raise ConfigurationError(f"--paper contradicts {chosen}")
    options = preset_options("paper" if args.paper else preset)
    check_word_similarity_options(args)
    check_table_names("--similarity", [args.similarity] if getattr(args, "similarity", None) else [], sources=True)
    if args.context_links is not None:
        options["context_only_links"] = args.context_links
    return Aligner(
        similarity=similarity_source(_typed(args, "similarity", "ppdb")), ppdb_sim=_typed(args, "ppdb_sim", ALIGNER_DEFAULTS.ppdb_sim),
        w=_typed(args, "w", ALIGNER_DEFAULTS.w),
        use_word_similarity=not args.no_word_similarity,
        use_dependency_context=not args.no_dependencies,
        use_textual_context=not args.no_text_context,
        align_stop_words=not args.no_stop_words,
        sequences_need_content=not args.stop_word_sequences,
        **options,
    )


def check_word_similarity_options(args: argparse.Namespace) -> None:
    """--no-word-similarity with --similarity or --ppdb-sim typed is a usage error naming them:
    the ablation links identical words only and reads no related-word source, so either changes
    no link. Before, `--no-word-similarity --similarity wordnet` ran without a word, the source
    typed dropped (the signature said sim:none), and `--ppdb-sim 0.5` was signed as if it
    mattered."""
    if not args.no_word_similarity:
        return
    typed = [f"{flag} {getattr(args, dest)}" for flag, dest in (("--similarity", "similarity"), ("--ppdb-sim", "ppdb_sim"))
             if getattr(args, dest, None) is not None]
    if typed:
        raise ConfigurationError(f"--no-word-similarity links identical words only, with no related-word source, "
                                 f"so {' and '.join(typed)} would change no link: leave "
                                 f"{'it' if len(typed) == 1 else 'them'} or --no-word-similarity out")


def similarity_source(spec: str) -> str | RelatedWords:
    """A --similarity spec as the Sultan aligner takes it: as typed, or, when a table of it is an
    input that can be read only once (stdin: ``-``, ``-:0.5``, ``ppdb+-``; a pipe, ``<(...)``),
    the source loaded now from a copy of it (errors name the input: ``<stdin>:2: ...``).

    Why: the aligner loads its spec on first use, and again in each Dask worker, where ``-``
    names no file: ``align --similarity -`` was a usage error, ``-: no such file``, where every
    other file option reads stdin. A loaded source travels to the workers as it is, and the
    signature names its table by its name and a hash of its rows (``stdin``, as paraeval's
    ``--table -``)."""
    parts = spec.split("+")
    if not any(is_read_once(source_spec_parts(part)[0]) for part in parts):
        return spec
    with ExitStack() as stack:
        for k, part in enumerate(parts):
            path, threshold = source_spec_parts(part)
            if is_read_once(path):
                copy = str(stack.enter_context(read_once(path)))
                parts[k] = copy if threshold is None else f"{copy}:{threshold}"
        return load_similarity("+".join(parts))


def _typed(args: argparse.Namespace, dest: str, default: object) -> Any:
    """The value of an option that defaults to None (not typed; tune-aligner has no --ppdb-sim
    or --w), else `default`."""
    value = getattr(args, dest, None)
    return default if value is None else value
