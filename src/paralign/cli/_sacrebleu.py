"""sacrebleu's spellings of the options `paraeval` and `meta-eval` share with it, accepted hidden
(not in --help): sacrebleu's users type them (``-ci``, ``--paired-bs-n 2000``), and each was an
"unrecognized arguments" usage error that named no option of paralign's.

Where the meaning is that of an option of paralign's, the spelling is that option; where it
differs, it is a usage error naming paralign's option (taking it with its other meaning would
give figures the user did not ask for):

* ``--confidence-n``/``-cin N`` and ``--paired-bs-n``/``-pbsn N``: ``--resamples N``. sacrebleu
  counts the resamples of ``--confidence`` and those of ``--paired-bs`` (and of the intervals it
  gives with it) apart; paralign's one ``--resamples`` counts both. So ``--confidence-n``, which
  sacrebleu does not read with ``--paired-bs``, is refused there, ``--paired-bs-n`` is refused
  without ``--paired-bs`` (paraeval; meta-eval always tests), and two counts that differ
  (``--resamples 500 --paired-bs-n 2000``) are refused: one of them would be silently dropped;
* paraeval: ``-ci`` (``--confidence``), ``-pbs`` (``--paired-bs``), ``-sl``
  (``--sentence-level``), ``-tok`` (``--tokenize``, its choices); both commands: ``-f``
  (``--format``, its choices: sacrebleu's text and json are paralign's; ``-f json`` was
  "unrecognized arguments");
* meta-eval: ``--confidence``/``-ci`` and ``--paired-bs``/``-pbs`` ask for what it always gives
  (bootstrap intervals, paired bootstrap tests): accepted, changing nothing;
* meta-eval: ``-m`` (``--metrics``: sacrebleu's ``bleu``, ``chrf`` and ``ter`` are among its names);
* refused: ``--paired-ar``/``-par`` and ``--paired-ar-n``/``-parn`` (no approximate
  randomization test: the paired test is the bootstrap), ``--paired-jobs``/``-j`` (paraeval's
  ``--workers`` score systems, they do not run the test), paraeval's ``--metrics``/``-m`` (it
  scores ParaEval alone), ``--width``/``-w`` (4 decimals; JSON and TSV give the figures whole)
  and ``--score-only``/``-b`` (``--format tsv``), and meta-eval's ``--sentence-level``/
  ``-sl`` (sacrebleu's prints a score per segment; meta-eval correlates segment scores with
  ``--level segment``).

Not for: the bootstrap options themselves (:func:`._bootstrap_options.add_bootstrap_options`) or what they
may be given with (:func:`._bootstrap_options.check_bootstrap_options`, called after :func:`use_spellings`).
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ConfigurationError
from ._common import positive_int
from ._metavars import N

HIDDEN = argparse.SUPPRESS

#: sacrebleu's resample counts: dest -> (its spellings, the option whose resamples it counts there).
COUNTS: dict[str, tuple[tuple[str, ...], str]] = {
    "sacrebleu_confidence_n": (("--confidence-n", "-cin"), "--confidence"),
    "sacrebleu_paired_bs_n": (("--paired-bs-n", "-pbsn"), "--paired-bs"),
}

#: Each command's aliases: sacrebleu's spelling -> paralign's option of the same meaning (``-f``:
#: sacrebleu's ``--format``, whose text and json are paralign's; its latex is no choice here).
ALIASES = {"paraeval": {"-ci": "--confidence", "-pbs": "--paired-bs", "-sl": "--sentence-level", "-tok": "--tokenize",
                        "-f": "--format"},
           "meta-eval": {"-f": "--format", "-m": "--metrics"}}

#: sacrebleu's options refused, by command: dest -> (spellings, takes a value, why: what to use).
_NO_AR = "paralign has no approximate randomization test: its paired test is the bootstrap"
REFUSED: dict[str, dict[str, tuple[tuple[str, ...], bool, str]]] = {
    "paraeval": {
        "sacrebleu_paired_ar": (("--paired-ar", "-par"), False, f"{_NO_AR} (--paired-bs)"),
        "sacrebleu_paired_ar_n": (("--paired-ar-n", "-parn"), True, f"{_NO_AR} (--paired-bs, --resamples N)"),
        "sacrebleu_paired_jobs": (("--paired-jobs", "-j"), True,
                                  "the paired test runs in this process; --workers N scores the systems on N "
                                  "Dask workers"),
        "sacrebleu_metrics": (("--metrics", "-m"), True,
                              "paraeval scores ParaEval alone (sacrebleu scores BLEU, chrF and TER; meta-eval "
                              "--metrics paraeval,bleu,chrf,ter correlates them with human judgments)"),
        "sacrebleu_width": (("--width", "-w"), True,
                            "the text shows each figure to 4 decimals; --format json or tsv gives them whole"),
        "sacrebleu_score_only": (("--score-only", "-b"), False,
                                 "--format tsv gives the figures alone, a row a system (and json)"),
    },
    "meta-eval": {
        "sacrebleu_paired_ar": (("--paired-ar", "-par"), False, f"{_NO_AR}, always run (--resamples N)"),
        "sacrebleu_paired_ar_n": (("--paired-ar-n", "-parn"), True, f"{_NO_AR}, always run (--resamples N)"),
        "sacrebleu_sentence_level": (("--sentence-level", "-sl"), False,
                                     "sacrebleu's prints each segment's score; meta-eval correlates the "
                                     "segment scores with the segment judgments with --level segment (or both)"),
    },
}


def add_spellings(parser: argparse.ArgumentParser, command: str) -> None:
    """sacrebleu's spellings for `command` (``paraeval`` or ``meta-eval``), hidden from --help;
    none is in the namespace unless typed (default SUPPRESS). Call :func:`use_spellings` first in
    the command's run."""
    for dest, (flags, _) in COUNTS.items():
        parser.add_argument(*flags, dest=dest, type=positive_int, default=HIDDEN, metavar=N, help=HIDDEN)
    for dest, (flags, takes_value, _) in REFUSED[command].items():
        parser.add_argument(*flags, dest=dest, default=HIDDEN, help=HIDDEN,
                            action="store" if takes_value else "store_true")
    if command == "meta-eval":
        parser.add_argument("--confidence", "-ci", "--paired-bs", "-pbs", dest="sacrebleu_always",
                            action="store_true", default=HIDDEN, help=HIDDEN)
    for flag, option in ALIASES[command].items():
        action = parser._option_string_actions[option]
        kwargs: dict[str, Any] = ({"action": "store_true"} if isinstance(action, argparse._StoreTrueAction)
                                     else {"type": action.type, "choices": action.choices, "metavar": action.metavar})
        parser.add_argument(flag, dest=action.dest, default=HIDDEN, help=HIDDEN, **kwargs)


def use_spellings(args: argparse.Namespace, command: str) -> None:
    """sacrebleu's spellings typed for `command` made paralign's options (``args.resamples``
    from ``--confidence-n``/``--paired-bs-n``); ConfigurationError (a usage error) naming
    paralign's option for one whose meaning differs, or for counts that differ (see the module
    docstring). `args.resamples` stays None when no count was typed."""
    for dest, (flags, _, why) in REFUSED[command].items():
        if hasattr(args, dest):
            raise ConfigurationError(f"argument {'/'.join(flags)}: sacrebleu's option is not paralign's: {why}")
    typed = {dest: getattr(args, dest) for dest in COUNTS if hasattr(args, dest)}
    if not typed:
        return
    if command == "paraeval":
        if "sacrebleu_confidence_n" in typed and args.paired_bs:
            raise ConfigurationError("argument --confidence-n/-cin: sacrebleu does not read it with --paired-bs, "
                                     "whose intervals come from its --paired-bs-n resamples; paralign's --resamples "
                                     "counts those of the intervals and the paired test: give --resamples N")
        for dest, (flags, resampling) in COUNTS.items():
            if dest in typed and not getattr(args, resampling.lstrip("-").replace("-", "_")):
                raise ConfigurationError(f"argument {'/'.join(flags)}: only matters with {resampling} (as sacrebleu "
                                         f"reads it): add it, or give --resamples N")
    counts = {**({"--resamples": args.resamples} if args.resamples is not None else {}),
              **{COUNTS[dest][0][0]: value for dest, value in typed.items()}}
    if len(set(counts.values())) > 1:
        shown = " and ".join(f"{flag} {value}" for flag, value in counts.items())
        raise ConfigurationError(f"{shown}: each sets paralign's one number of resamples (of its intervals and "
                                 f"paired tests alike): give one, --resamples N")
    args.resamples = next(iter(counts.values()))
