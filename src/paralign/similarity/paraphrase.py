"""Paraphrase identification (MSRP): a threshold on one signal or on the features model's
probability, chosen on training pairs and applied to test pairs. The options are checked, both
splits aligned and the classifier chosen here; what it reports is
:mod:`paralign.similarity.paraphrase_evaluation`'s, the features classifier
:mod:`paralign.similarity.paraphrase_features`', the notes on the splits
:mod:`paralign.similarity.split_notes`' (their names are importable from here too).

Not for: the scores and features themselves (:mod:`paralign.similarity.signals`,
:mod:`paralign.similarity.features`) or the rules (:mod:`paralign.similarity.thresholds`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..aligners.batch import AlignedBatch, PairFailure, TextLike, align_pairs, reindexed
from ..aligners.registry import PresetAligner, aligner_label, resolve_aligner
from ..alignment import AlignFunction
from ..corpora.msrp import load_msrp
from ..corpora.sts import SkippedPair, usable_pairs
from ..errors import (
    ConfigurationError,
    EmptyScoringError,
    FormatError,
    file_paths,
    listed,
)
from ..nlp import Annotator
from .contextual import check_run_encoder
from .features import (
    CROSS_ENCODER_SETS,
    DEFAULT_FEATURE_SET,
    FEATURE_SET_L2,
    uses_encoder,
)
from .features import feature_set as named_feature_set
from .hybrid import (
    SHIPPED_BLEND,
    aligner_mismatch,
    shipped_training_pairs,
    training_overlap,
)
from .model import (  # CLASSIFIERS and DEFAULT_CLASSIFIER: also importable from here
    CLASSIFIERS,
    DEFAULT_CLASSIFIER,
    check_l2,
)
from .paraphrase_evaluation import ParaphraseEvaluation as ParaphraseEvaluation
from .paraphrase_evaluation import paraphrase_from_scores as paraphrase_from_scores
from .paraphrase_features import blend_cross_encoder as blend_cross_encoder
from .paraphrase_features import evaluate_feature_rows as evaluate_feature_rows
from .paraphrase_features import features_evaluation as features_evaluation
from .scores import given_sides, parses_nothing, score_aligned, training_sentences
from .signals import DEFAULT_SIGNAL, Signal, fit_signal, needs_fit
from .signature import checked_signal, paraphrase_signature, training_id
from .split_notes import repeated_ids_note as repeated_ids_note
from .split_notes import split_notes as split_notes
from .thresholds import DEFAULT_THRESHOLD_RULE, check_rule
from .validation import check_model_classes, check_stratified_folds

if TYPE_CHECKING:  # pragma: no cover
    from ..neural.cross_encoder import FineTuning

#: The aligner preset paraphrase identification uses unless told otherwise.
PARAPHRASE_PRESET = "paraphrase"


def evaluate_paraphrase(
    train: Iterable[tuple[TextLike, TextLike, bool]],
    test: Iterable[tuple[TextLike, TextLike, bool]],
    *,
    classifier: str = DEFAULT_CLASSIFIER,
    signal: str | Signal | None = None,
    feature_set: str | None = None,
    rule: str | None = None,
    cv_folds: int = 0,
    l2: float | None = None,
    aligner: AlignFunction | str | None = None,
    annotator: Annotator | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    cross_encoder: bool | None = None,
    fine_tuning: FineTuning | None = None,
    save_cross_encoder: str | Path | None = None,
    encoder: str | None = None, device: str = "auto",
) -> ParaphraseEvaluation:
    """Classify (s1, s2, is_paraphrase) test pairs with a threshold chosen on training pairs.

    ``classifier="features"`` (default) thresholds the probability of a logistic regression over
    the features of :mod:`paralign.similarity.features` (``feature_set``: a name in its
    ``FEATURE_SETS``, default alignment and MT-overlap features), fitted on the training pairs
    (``l2``: its regularisation, default the set's :data:`FEATURE_SET_L2`); ``"signal"`` thresholds one similarity `signal` (default
    ``sultan2014``), the method of Sultan et al. 2014 (docs/results/similarity.md compares them).
    ``aligner`` is a function (:func:`paralign.get_aligner`) or its name; None is the Sultan
    aligner with the ``paraphrase`` preset
    (:data:`PARAPHRASE_PRESET`: options chosen on paraphrase alignments, and better than the
    default options on held-out MSRP training folds). A trainable signal (IDF) is fitted on the
    training sentences first.

    ``cross_encoder`` (default: on for the feature sets of :data:`CROSS_ENCODER_SETS`, i.e.
    ``alignment+mt+embedding``) also fine-tunes the encoder as a cross-encoder on the training
    pairs (``fine_tuning``: its settings) and classifies by the mean of the two probabilities;
    the threshold rule then defaults to ``half`` (0.5), as the cross-encoder's training
    probabilities are not held out. ``save_cross_encoder`` writes the fine-tuned model to that
    directory, which the report names (``paralign similarity --model`` loads it from there).
    `rule` defaults to :data:`DEFAULT_THRESHOLD_RULE` otherwise.

    Every neural part (encoder features, the cross-encoder's base model, a neural signal given by
    name) runs the encoder `encoder` (default: ``PARALIGN_ENCODER``) on `device`, which the
    signature names; a given aligner or Signal keeps its own."""
    _check_classifier(classifier, signal, feature_set, l2)
    train, train_labels, train_kept, train_skipped = _usable(train, "train")  # all checked before aligning
    test, test_labels, test_kept, test_skipped = _usable(test, "test", need_one=True)
    _check_training(train_labels, cv_folds, classifier)  # before any pair is aligned, not after
    settings = _checked_settings(classifier, signal, feature_set, l2, rule, cv_folds, cross_encoder, fine_tuning,
                                 save_cross_encoder, encoder, device)
    aligner = resolve_aligner(aligner)
    aligner = PresetAligner(PARAPHRASE_PRESET) if aligner is None else aligner
    train_batch, test_batch, alone = _align_splits(train, test, classifier, settings.signal, aligner,
                                                   annotator=annotator, workers=workers, progress=progress)
    result, train_failures, test_failures, sig = _classified(
        settings, (train_batch, train_labels), (test_batch, test_labels), cv_folds, aligner,
        fine_tuning=fine_tuning, save_to=save_cross_encoder, progress=progress, workers=workers,
        encoder=encoder, device=device,
    )
    failures = (tuple(("train", f) for f in reindexed(train_failures, train_kept))  # indexed in the pairs as given
                + tuple(("test", f) for f in reindexed(test_failures, test_kept)))
    sides = given_sides((a, b) for a, b, _ in [*train, *test])  # token lists sign tok, as similarity's and align's
    signature = paraphrase_signature(classifier=classifier, rule=settings.rule, aligner=aligner, signal=sig,
                                     feature_set=settings.feature_set, l2=settings.penalty, cv_folds=cv_folds,
                                     encoder=encoder,
                                     fine_tuning=_fine_tuning(fine_tuning) if settings.cross_encoder else None,
                                     train=training_id(train), sides=sides, given_tokens=alone and sides <= {(True, True)})
    skipped = train_skipped + test_skipped  # bad input, as load_msrp skips their rows
    notes = (*result.notes, *filter(None, [one_class_threshold(train_labels, settings.rule)]))
    return replace(result, failures=failures, skipped=skipped, aligner=aligner_label(aligner), signature=signature,
                   notes=notes)


def one_class_threshold(labels: Sequence[bool], rule: str) -> str | None:
    """A note when a threshold is chosen by `rule` on training `labels` all of one class (the
    signal classifier takes them; a fitted model refuses them:
    :func:`~.validation.check_model_classes`): it tells them from no other class (every training
    pair is on one side of it). The rule ``half`` (0.5) reads no labels. The ``lowest`` rule chose
    0.0 on 2 paraphrases, every test pair a paraphrase, without a word."""
    if not labels or len(set(labels)) > 1 or rule == "half":
        return None
    kind = "paraphrases" if labels[0] else "non-paraphrases"
    return (f"all {len(labels)} training pairs are {kind}: a threshold chosen on them by the {rule} rule tells "
            "them from no other class (give training pairs of both classes)")


@dataclass(frozen=True, slots=True)
class _Settings:
    """What :func:`evaluate_paraphrase`'s classifier options come to, each checked before any
    pair is aligned (an unknown feature set, a bad L2 penalty or rule, a missing encoder fail
    in seconds, not after minutes of aligning)."""

    classifier: str
    rule: str
    cross_encoder: bool
    feature_set: str | None = None  #: the features classifier's named set
    features: tuple[str, ...] = ()  #: its feature names
    penalty: float | None = None  #: its model's L2 penalty
    signal: Signal | None = None  #: the signal classifier's signal, made


def _checked_settings(classifier: str, signal: str | Signal | None, feature_set: str | None, l2: float | None,
                      rule: str | None, cv_folds: int, cross_encoder: bool | None, fine_tuning: FineTuning | None,
                      save_to: str | Path | None, encoder: str | None, device: str) -> _Settings:
    """:func:`evaluate_paraphrase`'s options made and checked, in the order it checks them: the
    feature set and its penalty, the cross-encoder and its options, the rule, the neural parts."""
    penalty: float | None = None
    features: tuple[str, ...] = ()
    if classifier == "features":
        feature_set = DEFAULT_FEATURE_SET if feature_set is None else feature_set
        features = named_feature_set(feature_set)  # an unknown name fails before any alignment
        penalty = check_l2(FEATURE_SET_L2.get(feature_set, 1.0) if l2 is None else l2)  # before any alignment
    wanted = _wants_cross_encoder(cross_encoder, feature_set, fine_tuning, save_to, cv_folds)
    rule = check_rule(rule or ("half" if wanted else DEFAULT_THRESHOLD_RULE))  # before any alignment
    sig = _neural_parts_checked(classifier, signal, feature_set, wanted, encoder, device)
    return _Settings(classifier, rule, wanted, feature_set, features, penalty, sig)


def _classified(
    settings: _Settings, train: tuple[AlignedBatch, Sequence[bool]], test: tuple[AlignedBatch, Sequence[bool]],
    cv_folds: int, aligner: AlignFunction, *, fine_tuning: FineTuning | None, save_to: str | Path | None,
    progress: Callable[[int], None] | None, workers: int, encoder: str | None, device: str,
) -> tuple[ParaphraseEvaluation, tuple[PairFailure, ...], tuple[PairFailure, ...], Signal | None]:
    """The aligned (batch, labels) splits classified by `settings`' classifier: its evaluation,
    each split's failed pairs, and the signal used (fitted, for the signal classifier)."""
    (train_batch, train_labels), (test_batch, test_labels) = train, test
    if settings.classifier == "features":
        assert settings.penalty is not None and settings.feature_set is not None  # set for this classifier
        result, train_failures, test_failures = features_evaluation(
            train_batch, train_labels, test_batch, test_labels, settings.rule, cv_folds, settings.penalty,
            settings.features, progress, workers,
            cross_encoder=_fine_tuning(fine_tuning) if settings.cross_encoder else None, save_to=save_to,
            encoder=encoder, device=device,
        )
        return replace(result, feature_set=settings.feature_set), train_failures, test_failures, None
    assert settings.signal is not None  # made for this classifier
    return signal_evaluation(train, test, settings.signal, settings.rule, cv_folds, aligner)


def _align_splits(train: Sequence[tuple[TextLike, TextLike, bool]], test: Sequence[tuple[TextLike, TextLike, bool]],
                  classifier: str, sig: Signal | None, aligner: AlignFunction, **batch: Any,
                  ) -> tuple[AlignedBatch, AlignedBatch, bool]:
    """Both splits aligned (`batch`: :func:`align_pairs`' annotator, workers, progress), and
    whether by tokens alone: over the exact aligner, for a signal that reads no more
    (:func:`~.scores.parses_nothing`); else parsed, as the features read tags, a cross-encoder texts."""
    alone = classifier != "features" and sig is not None and parses_nothing(sig, aligner)
    aligned = [align_pairs([(a, b) for a, b, _ in split], aligner=aligner, parse=not alone, **batch)
               for split in (train, test)]
    return aligned[0], aligned[1], alone


def _neural_parts_checked(classifier: str, signal: str | Signal | None, feature_set: str | None,
                          cross_encoder: bool, encoder: str | None, device: str) -> Signal | None:
    """The signal classifier's signal, made, or (the features classifier) None; the encoder
    checked (:func:`~.contextual.check_run_encoder`) when a neural signal given by name, the `feature_set` or
    the cross-encoder run it: without the neural extra, with an encoder that is not there, or
    with a GPU torch does not see, evaluate_paraphrase fails before any pair is aligned (it
    failed once every pair was aligned, 15 s on 2,000 pairs; minutes on MSRP; a neural signal's
    --device was still told there). A Signal object keeps its own encoder."""
    if classifier != "features":
        wanted = DEFAULT_SIGNAL if signal is None else signal
        return checked_signal(wanted, encoder, device)
    if cross_encoder or uses_encoder(named_feature_set(feature_set or DEFAULT_FEATURE_SET)):
        check_run_encoder(encoder, device)
    return None


def signal_evaluation(
    train: tuple[AlignedBatch, Sequence[bool]],
    test: tuple[AlignedBatch, Sequence[bool]],
    signal: Signal,
    rule: str,
    cv_folds: int,
    aligner: AlignFunction | None,
) -> tuple[ParaphraseEvaluation, tuple[PairFailure, ...], tuple[PairFailure, ...], Signal]:
    """The ``signal`` classifier on aligned (batch, labels) splits: `signal` (fitted on the
    training sentences first when it needs it) thresholded by `rule`; also returns each side's
    failed pairs and the signal used. A hybrid fitted on another aligner's alignments than
    `aligner`'s is a note."""
    (train_batch, train_labels), (test_batch, test_labels) = train, test
    if needs_fit(signal):
        signal = fit_signal(signal, training_sentences(train_batch))
    train_scored, test_scored = score_aligned(train_batch, signal), score_aligned(test_batch, signal)
    result = paraphrase_from_scores(
        train_scored.scores, train_labels, test_scored.scores, test_labels, signal.name, rule, cv_folds
    )
    result = replace(result, notes=tuple(filter(None, [aligner_mismatch(signal, aligner)])))  # hybrid, other aligner
    return result, train_scored.failures, test_scored.failures, signal


def _check_training(labels: Sequence[bool], cv_folds: int, classifier: str) -> None:
    """What the training labels must allow: no empty fold (:func:`check_stratified_folds`) and,
    for a fitted model, both classes in every model's training pairs (:func:`check_model_classes`)."""
    if cv_folds:
        check_stratified_folds(cv_folds, labels)
    if classifier == "features":
        check_model_classes(labels, cv_folds)


def _usable(
    pairs: Iterable[tuple[TextLike, TextLike, bool]], split: str, *, need_one: bool = False,
) -> tuple[list[tuple[TextLike, TextLike, bool]], list[bool], list[int], tuple[tuple[str, SkippedPair], ...]]:
    """A split's pairs and labels (a list of triples, each checked: :func:`_labels`) without the
    pairs with an empty sentence (:func:`~paralign.corpora.sts.usable_pairs`), the indices the
    pairs kept had, and the pairs skipped, with the split's name. With `need_one`, none kept is
    an EmptyScoringError (a test split: its scores were 0.0 of nothing, after the training)."""
    pairs = listed(pairs, f"{split} must be a list of (s1, s2, is_paraphrase) triples")
    labels = _labels(pairs, split)
    kept, skipped = usable_pairs(pairs)
    if need_one and not kept:  # as evaluate-paraphrase says it of a file
        first = next((f"{split} pair {p.index + 1}: {p.reason}" for p in skipped), "none given")
        raise EmptyScoringError(f"no usable {split} pairs ({first})")
    return [pairs[i] for i in kept], [labels[i] for i in kept], kept, tuple((split, p) for p in skipped)


def _check_classifier(classifier: str, signal: object, feature_set: str | None, l2: object = None) -> None:
    """A known classifier, and no option of the other one (ConfigurationError): `l2` regularises
    the features' logistic model (with the 'signal' classifier it was ignored without a word)."""
    if classifier not in CLASSIFIERS:
        raise ConfigurationError(f"unknown classifier {classifier!r}: choose from {', '.join(CLASSIFIERS)}")
    if classifier == "features" and signal is not None:
        raise ConfigurationError(
            "a signal applies to the 'signal' classifier; the 'features' classifier uses its own "
            "features (paralign.similarity.features.FEATURES, or the feature set given)"
        )
    if classifier == "signal" and feature_set is not None:
        raise ConfigurationError("a feature set applies to the 'features' classifier, not to 'signal'")
    if classifier == "signal" and l2 is not None:
        raise ConfigurationError("an L2 penalty applies to the 'features' classifier's logistic model, not "
                                 "to 'signal', which thresholds one score and fits no model")


def _labels(pairs: Sequence[tuple[TextLike, TextLike, bool]], name: str) -> list[bool]:
    """The labels of (s1, s2, is_paraphrase) triples, each checked: a triple of three, a label
    True/False (or 1/0); a str such as '0' (truthy!) or None is a FormatError naming the pair."""
    labels = []
    for number, item in enumerate(pairs, start=1):
        if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 3:
            raise FormatError(f"{name} pair {number} is {item!r:.60}, not an (s1, s2, is_paraphrase) triple")
        if isinstance(item[2], str) or item[2] not in (True, False):
            raise FormatError(f"{name} pair {number}: label {item[2]!r} is not True/False (or 1/0)")
        labels.append(bool(item[2]))
    return labels


def _wants_cross_encoder(
    asked: bool | None, feature_set: str | None, fine_tuning: FineTuning | None, save_to: str | Path | None,
    cv_folds: int,
) -> bool:
    """Whether :func:`evaluate_paraphrase` fine-tunes a cross-encoder (`asked`; None: when the
    features classifier's `feature_set` is one of :data:`CROSS_ENCODER_SETS`), refusing the
    options that contradict the answer."""
    wanted = feature_set in CROSS_ENCODER_SETS if asked is None else asked
    if wanted and feature_set is None:
        raise ConfigurationError("a cross-encoder is blended with the 'features' classifier, not with 'signal'")
    if not wanted and (fine_tuning is not None or save_to is not None):
        raise ConfigurationError("fine-tuning settings and --save-cross-encoder need the cross-encoder")
    if wanted and cv_folds:
        raise ConfigurationError(
            "cross-validation with the cross-encoder would fine-tune it once per fold; "
            "cross-validate without it (--no-cross-encoder)"
        )
    return wanted


def _fine_tuning(settings: FineTuning | None) -> FineTuning:
    """`settings`, or the default fine-tuning (imports the neural package only when asked)."""
    from ..neural.cross_encoder import FineTuning

    return settings or FineTuning()


def evaluate_paraphrase_files(train_paths: Sequence[str | Path], test_path: str | Path, **options: Any) -> dict:
    """Train on MSRP-format training files, evaluate on the test file; with row reports.

    `options` are :func:`evaluate_paraphrase`'s keyword options (classifier, signal, rule, ...).
    `train_paths` is a list (one path is an InputTypeError: its characters were the files)."""
    train_paths = file_paths(train_paths, "train_paths")
    train = load_msrp(*train_paths)
    test = load_msrp(test_path)
    for name, data, source in (("training", train, ", ".join(map(str, train_paths))), ("test", test, str(test_path))):
        if not data.pairs:  # with the first row's reason, as evaluate-sts says it (an STS file, say)
            first = next((f"{file}:{row.line}: {row.reason}" for file, row in data.skipped), "no rows")
            raise FormatError(f"no usable {name} pairs ({first})", source=source)
    ev = evaluate_paraphrase(
        [(p.sentence1, p.sentence2, p.label) for p in train.pairs],
        [(p.sentence1, p.sentence2, p.label) for p in test.pairs],
        **options,
    )
    result = ev.to_dict()
    pairs = {"train": train.pairs, "test": test.pairs}  # each failure's file and line, as skipped rows
    result["failures"] = [{**f, "file": pairs[f["split"]][f["index"]].source,  # name theirs (its
                           "line": pairs[f["split"]][f["index"]].line}  # index: usable pairs only)
                          for f in result["failures"]]
    result["skipped"] = len(train.skipped) + len(test.skipped)
    result["skipped_rows"] = train.summary()["skipped_rows"] + test.summary()["skipped_rows"]
    result["notes"] += split_notes(train.pairs, test.pairs)
    if options.get("signal") == "hybrid":  # the shipped blend: its STS 2012 MSRpar.train rows are MSRP test pairs
        result["notes"] += filter(None, [training_overlap(
            [(p.sentence1, p.sentence2, f"{p.source}:{p.line}") for p in test.pairs], shipped_training_pairs(),
            "test pairs", SHIPPED_BLEND)])
    return result
