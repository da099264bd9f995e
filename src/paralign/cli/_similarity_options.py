"""The options of the similarity commands (`similarity`, `evaluate-sts`, `evaluate-paraphrase`):
`--signal`, `--aligner`, `--preset`, the cluster options, `--idf-from`; their aligner, and the
evaluation commands' runner.

Not for: the alignment commands' aligner options (:mod:`._aligner_options`), `--encoder` and
`--device` (:mod:`._encoder_options`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from contextlib import ExitStack

from ..aligners.registry import get_aligner
from ..aligners.sultan.options import NEURAL_PRESETS
from ..alignment import AlignFunction
from ..similarity import DEFAULT_SIGNAL, SIGNALS
from ._aligner_options import add_aligner_choice, add_preset_option, check_aligner_preset
from ._cluster import add_cluster_options, cluster_runner
from ._common import progress_callback, shown_names, stdin_once
from ._encoder_options import encoder_device
from ._metavars import FILE


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


def aligns_with_encoder(args: argparse.Namespace) -> bool:
    """Whether the similarity commands' aligner is the contextual one (--aligner contextual, or
    --preset contextual of the sultan aligner), which runs the encoder."""
    return args.aligner == "contextual" or aligner_preset(args) in NEURAL_PRESETS


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
