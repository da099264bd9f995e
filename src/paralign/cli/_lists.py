"""The one reading of an option's comma-separated list (the ``LIST`` placeholder: `paraeval`'s,
`meta-eval`'s and `serve`'s `--resources`, `meta-eval`'s `--metrics` and `--refs`, `tune-aligner`'s
`--ppdb-grid` and `--w-grid`): its items, each stripped of white space, and a usage error naming the
option and the item for an empty one.

Why: each read its list its own way. ``--resources ppdb,,wordnet`` and ``--metrics bleu,,chrf``
dropped the empty item silently (a name lost in an edit, ``ppdb,$EXTRA`` with nothing in it),
``--resources ''`` was scored with no source at all (``res:none``) though ``none`` says so, and
``--refs A,`` was ``no reference set ''``.

Not for: what the items may be (each option checks its names: :func:`paralign.metrics.paraeval.build_sources`,
``meta-eval``'s :func:`~paralign.cli.meta_eval.metric_names`, ``tune-aligner``'s
:func:`~paralign.cli.tune_aligner.grid_values`).
"""

from __future__ import annotations

from ..errors import ConfigurationError


def comma_list(option: str, text: str, example: str) -> list[str]:
    """The items of `text`, a comma-separated list given as `option` (``--resources``), each stripped;
    a ConfigurationError (a usage error) naming the option for a list of no item, or with an empty
    one (``ppdb,,wordnet``: item 2 of 3), before anything loads. `example`: a list the option takes,
    shown in the message (``ppdb,wordnet``); for a list of no item it may say more
    (``ppdb,wordnet, or none for no built-in source``)."""
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise ConfigurationError(f"argument {option}: no item given: give a comma-separated list, e.g. {example}")
    empty = [k for k, item in enumerate(items, start=1) if not item]
    if empty:
        kept = ",".join(item for item in items if item)
        where = "item" if len(empty) == 1 else "items"
        raise ConfigurationError(f"argument {option}: {text!r} has an empty {where} ({where} "
                                 f"{', '.join(map(str, empty))} of {len(items)}): give each between "
                                 f"commas, e.g. {kept}")
    return items
