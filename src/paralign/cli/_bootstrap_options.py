"""The bootstrap options every command with intervals takes (`--confidence`, `--resamples`,
`--seed`), their check and defaults, the signature's resampling part, and why an interval is n/a;
`check_only_with`, the rule behind the check (an option typed without the one it matters with),
which `lattice` applies to its own options too.

Not for: the bootstrap itself (:mod:`paralign.metrics.significance`).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import ConfigurationError
from ._common import non_negative_int, positive_int, warn
from ._metavars import N

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.alignment_scores import PairCounts


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
