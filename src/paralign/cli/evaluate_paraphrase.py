"""`paralign evaluate-paraphrase`: paraphrase identification from alignments, trained on MSRP-format pairs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..similarity import (
    CLASSIFIERS,
    DEFAULT_CLASSIFIER,
    DEFAULT_SIGNAL,
    DEFAULT_THRESHOLD_RULE,
    PARAPHRASE_PRESET,
    THRESHOLD_RULES,
    evaluate_paraphrase_files,
)
from ..similarity.contextual import NEURAL_SIGNAL_NAMES
from ..similarity.features import (
    CROSS_ENCODER_SETS,
    DEFAULT_FEATURE_SET,
    EMBEDDING_FEATURES,
    FEATURE_SET_L2,
    FEATURE_SETS,
)
from ..similarity.model import report_relative_to
from ._aligner_options import check_aligner_preset
from ._commands import add_command
from ._common import (
    add_format,
    add_output,
    fmt_pct,
    non_negative_number,
    positive_int,
    positive_number,
    write_result,
)
from ._encoder_options import add_encoder_options, check_encoder_options, encoder_device
from ._metavars import DIR, FILE, N, X
from ._similarity_options import add_similarity_options, aligns_with_encoder, evaluate_inputs

if TYPE_CHECKING:  # pragma: no cover
    from ..neural.cross_encoder import FineTuning


#: What --encoder and --device reach in this command (its help, and the error when none is used).
ENCODER_USERS = ("--preset contextual (or --aligner contextual), a neural signal (embedding, contextual-alignment, "
                 "hybrid), --feature-set alignment+mt+embedding or --cross-encoder")


def folds(text: str) -> int:
    """argparse type of --cv-folds: 0 (no cross-validation) or a number of folds, at least 2,
    refused naming the flag (the library's message named no option)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value != 0 and value < 2:
        raise argparse.ArgumentTypeError(f"must be 0 (off) or a number of folds, at least 2, got {value}")
    return value


#: The command's --help description.
DESCRIPTION = (
    "Pairs scoring above a threshold chosen on the training pairs (by --rule) are paraphrases. "
    "The score is the probability of a logistic regression over alignment and MT-overlap features "
    "fitted on the training pairs (--classifier features, the default) or one similarity signal "
    "(--classifier signal: Sultan et al. 2014). P/R/F1 are for the paraphrase class. "
    "IDF signals are fitted on the training sentences. Test pairs that are also training pairs (same "
    "ids or sentences, in either order) and ids repeated within a split are warnings (JSON: \"notes\"). "
    "The JSON report's \"test\" and \"train\" hold the classifier's accuracy, P/R/F1 and counts "
    "(tp, fp, tn, fn) on the test pairs and on the training pairs (in-sample: the threshold, and the "
    "model or cross-encoder, were chosen on them), not file names; \"train_pairs\" counts the training "
    "pairs used."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "evaluate-paraphrase",
        description=DESCRIPTION,
    )
    parser.add_argument("--train", action="append", required=True, metavar=FILE, help="training file: MSRP, or a CSV or TSV whose first line names its "
                        "columns, sentence1, sentence2 and label (1 paraphrase, 0 not) among them "
                        "(repeatable, e.g. train and val; - = stdin; the JSON "
                        "report does not list them: its \"train\" is the scores on their pairs)")
    parser.add_argument("--test", required=True, metavar=FILE, help="test file, as --train (- = stdin)")
    parser.add_argument(
        "--classifier",
        default=None,
        choices=CLASSIFIERS,
        help="features: a logistic model over alignment (and MT-overlap) features; signal: one similarity signal, the "
        f"paper's method (default: {DEFAULT_CLASSIFIER}, or signal when --signal is given)",
    )
    add_similarity_options(
        parser,
        idf=False,
        preset=PARAPHRASE_PRESET,
        signal_help=f"the signal of --classifier signal (default: {DEFAULT_SIGNAL}; "
        "giving one implies --classifier signal)",
    )
    parser.add_argument(
        "--feature-set",
        default=None,
        choices=list(FEATURE_SETS),
        help="features of --classifier features: alignment (read off the alignment only) or "
        "alignment+mt (also MT metrics' n-gram, chrF and TER overlap) or alignment+mt+embedding (also the "
        "sentence-embedding cosine and contextual word matches; the neural extra) "
        f"(default: {DEFAULT_FEATURE_SET})",
    )
    parser.add_argument(
        "--l2", type=non_negative_number, default=None, metavar=X,
        help="L2 regularisation of the logistic model (default: the feature set's, chosen by CV on MSRP train: "
        + ", ".join(f"{name} {l2:g}" for name, l2 in FEATURE_SET_L2.items()) + ")",
    )
    parser.add_argument(
        "--rule",
        default=None,
        choices=list(THRESHOLD_RULES),
        help=f"how the threshold is chosen on the training pairs (default: {DEFAULT_THRESHOLD_RULE}; "
        "half, i.e. 0.5, with the cross-encoder)",
    )
    neural = parser.add_argument_group("cross-encoder (feature set alignment+mt+embedding)")
    neural.add_argument(
        "--cross-encoder", action=argparse.BooleanOptionalAction, default=None,
        help="also fine-tune the encoder as a cross-encoder on the training pairs and classify by the mean "
        "of its and the logistic model's probabilities (default: on for "
        + ", ".join(sorted(CROSS_ENCODER_SETS)) + "; about 15 minutes for MSRP's 4,076 training pairs "
        "on 2 CPU cores, a GPU is used when torch sees one)",
    )
    neural.add_argument(
        "--save-cross-encoder", default=None, metavar=DIR,
        help="write the fine-tuned cross-encoder to DIR (the report names it, with a hash of its files, "
        "and `paralign similarity --model` given the report loads it from there; a report written with -o names it "
        "relative to itself, so the two can be moved together; without it the report cannot classify new pairs)",
    )
    neural.add_argument("--fine-tune-epochs", type=positive_int, default=None, metavar=N,
                        help="fine-tuning epochs (default: 4)")
    neural.add_argument("--fine-tune-learning-rate", type=positive_number, default=None, metavar=X,
                        help="fine-tuning learning rate (default: 0.0001)")
    neural.add_argument("--fine-tune-seed", type=int, default=None, metavar=N,
                        help="seed of the head's initialisation, dropout and shuffling (default: 0)")
    parser.add_argument(
        "--cv-folds",
        type=folds,
        default=0,
        metavar=N,
        help="also report N-fold cross-validation of the rule on the training pairs (default: off)",
    )
    add_encoder_options(parser, ENCODER_USERS)
    add_output(parser)
    add_format(parser)
    parser.set_defaults(func=run)


def render(result: dict) -> str:
    if result["classifier"] == "features":
        score = f"logistic model over {result['feature_set']} features"
        if result.get("cross_encoder"):
            score += " averaged with a fine-tuned cross-encoder"
    else:
        score = f"signal {result['signal']}"
    return "\n".join(
        [
            f"threshold  {result['threshold']:.4f} (aligner {result['aligner']}, {score}, "
            f"rule {result['rule']}, "
            f"{result['train_pairs']} training pairs)",
            f"accuracy   {fmt_pct(result['accuracy'])}",
            f"precision  {fmt_pct(result['precision'])}",
            f"recall     {fmt_pct(result['recall'])}",
            f"f1         {fmt_pct(result['f1'])}",
            f"test pairs {result['test_pairs']}, skipped rows {result['skipped']}, failed pairs {result['failed']}"
            + (" (a failed test pair counts as not paraphrase)" if result["failed"] else ""),
        ]
        + _render_cv(result.get("cross_validation"))
        + [f"signature: {result['signature']}"]
    )


def _render_cv(cv: dict | None) -> list[str]:
    if cv is None:
        return []
    return [
        f"training {cv['folds']}-fold cross-validation: accuracy {fmt_pct(cv['accuracy'])}, "
        f"precision {fmt_pct(cv['precision'])}, recall {fmt_pct(cv['recall'])}, f1 {fmt_pct(cv['f1'])}"
    ]


def classifier_of(args: argparse.Namespace) -> str:
    """--classifier; when not given, `signal` if --signal is given, else the default.
    (--signal with an explicit --classifier features is refused by the library.)"""
    if args.classifier is not None:
        return args.classifier
    return "signal" if args.signal is not None else DEFAULT_CLASSIFIER


def fine_tuning_of(args: argparse.Namespace) -> FineTuning | None:
    """The --fine-tune-* settings (None: none given, the defaults). The help spells the defaults
    out, as importing the neural package at start-up would load numpy for every command; a
    test keeps them equal to :class:`FineTuning`'s."""
    from ..neural.cross_encoder import FineTuning

    given = {"epochs": args.fine_tune_epochs, "learning_rate": args.fine_tune_learning_rate,
             "seed": args.fine_tune_seed}
    given = {name: value for name, value in given.items() if value is not None}
    return FineTuning(**given) if given else None


def uses_encoder(args: argparse.Namespace) -> bool:
    """Whether the run uses the neural encoder: the contextual aligner, a neural signal (the
    signal classifier), encoder features or the cross-encoder (the features classifier; the
    cross-encoder by default with the feature sets of CROSS_ENCODER_SETS)."""
    if aligns_with_encoder(args):
        return True
    if classifier_of(args) == "signal":
        return args.signal in NEURAL_SIGNAL_NAMES
    feature_set = args.feature_set or DEFAULT_FEATURE_SET
    cross = args.cross_encoder if args.cross_encoder is not None else feature_set in CROSS_ENCODER_SETS
    return bool(cross) or any(name in EMBEDDING_FEATURES for name in FEATURE_SETS.get(feature_set, ()))


def run(args: argparse.Namespace) -> int:
    check_aligner_preset(args)
    check_encoder_options(args, uses_encoder(args), ENCODER_USERS)
    result, _ = evaluate_inputs(
        args,
        lambda paths, **common: evaluate_paraphrase_files(
            paths["train"], paths["test"][0], classifier=classifier_of(args), signal=args.signal,
            feature_set=args.feature_set, rule=args.rule, cv_folds=args.cv_folds, l2=args.l2,
            cross_encoder=args.cross_encoder, fine_tuning=fine_tuning_of(args),
            save_cross_encoder=args.save_cross_encoder, encoder=args.encoder, device=encoder_device(args), **common
        ),
        train=args.train,
        test=[args.test],
    )
    result = report_relative_to(result, args.output)  # a report and its model moved together still load
    items = [f"{row['file']}:{row['line']}: skipped: {row['reason']}" for row in result["skipped_rows"]]
    items += [f"{f['file']}:{f['line']}: {f['split']} pair: {f['error']}" for f in result["failures"]]
    return write_result(args, result, render, result["notes"], items)  # the bad rows' list is capped
