"""Paraphrase identification (MSRP): a threshold on one signal or on the features model's
probability, chosen on training pairs and applied to test pairs.

Not for: the scores and features themselves (:mod:`paralign.similarity.signals`,
:mod:`paralign.similarity.features`) or the rules (:mod:`paralign.similarity.thresholds`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..aligners.batch import AlignedBatch, PairFailure, TextLike, align_pairs, reindexed
from ..aligners.registry import PresetAligner, aligner_label, resolve_aligner
from ..alignment import AlignFunction
from ..corpora.msrp import ParaphrasePair, load_msrp
from ..corpora.sts import SkippedPair, usable_pairs
from ..errors import (
    ConfigurationError,
    EmptyScoringError,
    FormatError,
    check_finite,
    file_paths,
    listed,
)
from ..nlp import Annotator
from .contextual import encoder_options
from .features import (
    CROSS_ENCODER_SETS,
    DEFAULT_FEATURE_SET,
    FEATURE_SET_L2,
    FEATURES,
    pair_features,
    prepare_features,
    uses_encoder,
)
from .features import feature_set as named_feature_set
from .hybrid import (
    SHIPPED_BLEND,
    aligner_mismatch,
    pair_digest,
    shipped_training_pairs,
    training_overlap,
)
from .model import (  # CLASSIFIERS and DEFAULT_CLASSIFIER: also importable from here
    BLEND,
    CLASSIFIERS,
    DEFAULT_CLASSIFIER,
    LogisticModel,
    blend,
    check_l2,
    pair_texts,
    saved_model_digest,
)
from .scores import given_sides, map_aligned, parses_nothing, score_aligned, training_sentences
from .signals import DEFAULT_SIGNAL, Signal, fit_signal, make_signal, needs_fit
from .signature import paraphrase_signature, training_id
from .thresholds import (
    DEFAULT_THRESHOLD_RULE,
    BinaryScores,
    binary_scores,
    check_rule,
    choose_threshold,
)
from .validation import (
    CrossValidation,
    check_model_classes,
    check_stratified_folds,
    cross_validate_model,
    cross_validate_threshold,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..neural.cross_encoder import FineTuning

#: The aligner preset paraphrase identification uses unless told otherwise.
PARAPHRASE_PRESET = "paraphrase"


@dataclass(frozen=True, slots=True)
class ParaphraseEvaluation:
    """Threshold chosen on training pairs and the test scores it gives.

    ``classifier`` is ``signal`` (a threshold on one signal, the paper's method) or
    ``features`` (a threshold on the probability of :attr:`model`, fitted on the training pairs).
    """

    threshold: float
    test: BinaryScores
    #: the classifier's scores on its own training pairs (in-sample). Its JSON key ``train`` is not
    #: ``evaluate-sts``'s, which lists the files a hybrid blend was fitted on (StsReport.train)
    train: BinaryScores
    train_pairs: int
    test_pairs: int
    failures: tuple[tuple[str, PairFailure], ...] = ()
    signal: str = DEFAULT_SIGNAL
    rule: str = DEFAULT_THRESHOLD_RULE
    cross_validation: CrossValidation | None = None  #: of the rule on the training pairs
    aligner: str = ""  #: e.g. ``sultan:paraphrase`` (see :func:`aligner_label`)
    classifier: str = "signal"
    model: LogisticModel | None = None  #: the fitted model of the ``features`` classifier
    feature_set: str = ""  #: the model's named feature set (``features`` classifier only)
    #: the fine-tuned cross-encoder blended with :attr:`model` (its manifest, ``directory`` where
    #: it was saved or None, the saved files' ``sha256`` (:func:`~paralign.similarity.model.saved_model_digest`)
    #: when saved, and ``blend``), or None
    cross_encoder: dict | None = None
    #: every setting that changed a number (:func:`paralign.similarity.signature.paraphrase_signature`)
    signature: str = ""
    #: what the caller should be told about the scores (a hybrid blend used with another aligner than its own)
    notes: tuple[str, ...] = ()
    #: the pairs not used because they are bad input (an empty sentence), by split and index:
    #: what ``evaluate-paraphrase`` lists as the files' skipped rows, by file and line
    skipped: tuple[tuple[str, SkippedPair], ...] = ()

    def to_dict(self) -> dict:
        cv = self.cross_validation
        return {
            "threshold": self.threshold,
            "classifier": self.classifier,
            "feature_set": self.feature_set or None,
            "rule": self.rule,
            "aligner": self.aligner,
            "cross_validation": None if cv is None else cv.to_dict(),
            "accuracy": self.test.accuracy,
            "precision": self.test.precision,
            "recall": self.test.recall,
            "f1": self.test.f1,
            "test": self.test.to_dict(),
            "train": self.train.to_dict(),
            "train_pairs": self.train_pairs,
            "test_pairs": self.test_pairs,
            "failed": len(self.failures),
            "failures": [{"split": s, **f.to_dict()} for s, f in self.failures],
            "skipped": len(self.skipped),
            "skipped_rows": [{"split": s, **p.to_dict()} for s, p in self.skipped],
            "signal": self.signal,
            "model": None if self.model is None else self.model.to_dict(),
            "cross_encoder": self.cross_encoder,
            "signature": self.signature,
            "notes": list(self.notes),
        }


def paraphrase_from_scores(
    train_scores: Sequence[float | None],
    train_labels: Sequence[bool],
    test_scores: Sequence[float | None],
    test_labels: Sequence[bool],
    signal: str = "",
    rule: str = DEFAULT_THRESHOLD_RULE,
    cv_folds: int = 0,
    cv_repeats: int = 1,
) -> ParaphraseEvaluation:
    """Choose the threshold on training scores by `rule`, apply it to test (unscored test pairs:
    negative). With ``cv_folds`` >= 2 the rule is also cross-validated on the training pairs."""
    train = [(s, g) for s, g in zip(train_scores, train_labels, strict=True) if s is not None]
    scores, labels = [s for s, _ in train], [g for _, g in train]
    threshold = choose_threshold(scores, labels, rule)
    check_finite([s for s in test_scores if s is not None], "test score")
    cv = None
    if cv_folds:
        cv = cross_validate_threshold(scores, labels, rule, folds=cv_folds, repeats=cv_repeats)
    train_eval = binary_scores([s > threshold for s in scores], labels)
    predicted = [s is not None and s > threshold for s in test_scores]
    return ParaphraseEvaluation(
        threshold,
        binary_scores(predicted, list(test_labels)),
        train_eval,
        len(train),
        len(test_scores),
        (),
        signal,
        rule,
        cv,
    )


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
    penalty: float | None = None
    if classifier == "features":
        feature_set = DEFAULT_FEATURE_SET if feature_set is None else feature_set
        features = named_feature_set(feature_set)  # an unknown name fails before any alignment
        penalty = check_l2(FEATURE_SET_L2.get(feature_set, 1.0) if l2 is None else l2)  # before any alignment
    cross_encoder = _wants_cross_encoder(cross_encoder, feature_set, fine_tuning, save_cross_encoder, cv_folds)
    rule = check_rule(rule or ("half" if cross_encoder else DEFAULT_THRESHOLD_RULE))  # before any alignment
    sig = _neural_parts_checked(classifier, signal, feature_set, cross_encoder, encoder, device)
    aligner = resolve_aligner(aligner)
    aligner = PresetAligner(PARAPHRASE_PRESET) if aligner is None else aligner
    train_batch, test_batch, alone = _align_splits(train, test, classifier, sig, aligner, annotator=annotator,
                                                   workers=workers, progress=progress)
    if classifier == "features":
        assert penalty is not None and feature_set is not None  # both set above for this classifier
        result, train_failures, test_failures = features_evaluation(
            train_batch, train_labels, test_batch, test_labels, rule, cv_folds, penalty, features, progress, workers,
            cross_encoder=_fine_tuning(fine_tuning) if cross_encoder else None, save_to=save_cross_encoder,
            encoder=encoder, device=device,
        )
        result = replace(result, feature_set=feature_set)
    else:
        assert sig is not None  # made above for this classifier
        result, train_failures, test_failures, sig = signal_evaluation(
            (train_batch, train_labels), (test_batch, test_labels), sig, rule, cv_folds, aligner)
    failures = (tuple(("train", f) for f in reindexed(train_failures, train_kept))  # indexed in the pairs as given
                + tuple(("test", f) for f in reindexed(test_failures, test_kept)))
    sides = given_sides((a, b) for a, b, _ in [*train, *test])  # token lists sign tok, as similarity's and align's
    signature = paraphrase_signature(classifier=classifier, rule=rule, aligner=aligner, signal=sig,
                                     feature_set=feature_set, l2=penalty, cv_folds=cv_folds, encoder=encoder,
                                     fine_tuning=_fine_tuning(fine_tuning) if cross_encoder else None,
                                     train=training_id(train), sides=sides, given_tokens=alone and sides <= {(True, True)})
    skipped = train_skipped + test_skipped  # bad input, as load_msrp skips their rows
    return replace(result, failures=failures, skipped=skipped, aligner=aligner_label(aligner), signature=signature)


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
    """The signal classifier's signal, made, or (the features classifier) the encoder checked
    when its `feature_set` or the cross-encoder run it: without the neural extra, or with an
    encoder that is not there, evaluate_paraphrase fails before any pair is aligned (it failed
    once every pair was aligned, 15 s on 2,000 pairs; minutes on MSRP)."""
    if classifier != "features":
        return _named_signal(DEFAULT_SIGNAL if signal is None else signal, encoder, device)
    if cross_encoder or uses_encoder(named_feature_set(feature_set or DEFAULT_FEATURE_SET)):
        from ..neural import check_encoder

        check_encoder(encoder, device)
    return None


def _named_signal(signal: str | Signal, encoder: str | None, device: str) -> Signal:
    """`signal`, made on the encoder `encoder` on `device` when given by name and neural."""
    return make_signal(signal, **(encoder_options(signal, encoder, device) if isinstance(signal, str) else {}))


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


def features_evaluation(
    train_batch: AlignedBatch,
    train_labels: Sequence[bool],
    test_batch: AlignedBatch,
    test_labels: Sequence[bool],
    rule: str,
    cv_folds: int,
    l2: float,
    features: Sequence[str] | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    *,
    cross_encoder: FineTuning | None = None,
    save_to: str | Path | None = None,
    encoder: str | None = None,
    device: str = "auto",
) -> tuple[ParaphraseEvaluation, tuple[PairFailure, ...], tuple[PairFailure, ...]]:
    """The ``features`` classifier on aligned batches: fit the logistic model on the training
    pairs' `features` (default: all), threshold its probability by `rule`, classify the test
    pairs; the CV (if asked) refits the model on every k-1 folds. Also returns each side's
    failed pairs. Features are computed by `workers` processes; `progress(n)` counts the pairs
    featurised (after the alignment's own calls), then the pairs of each fine-tuning step.

    With `cross_encoder` (fine-tuning settings), a cross-encoder is fine-tuned on the training
    pairs whose features were computed, and the score is the mean of both probabilities
    (saved to the directory `save_to` when given). The encoder features and the cross-encoder's
    base model are the encoder `encoder` on `device`.

    The worker processes get `encoder` and `device` with the features function (each loads
    that encoder once)."""
    names = FEATURES if features is None else tuple(features)
    featurise = functools.partial(pair_features, features=names, encoder=encoder, device=device)
    prepare_features(train_batch.items, names, encoder=encoder, device=device)
    prepare_features(test_batch.items, names, encoder=encoder, device=device)
    train_rows, train_failures = map_aligned(train_batch, featurise, "features", progress, workers=workers)
    test_rows, test_failures = map_aligned(test_batch, featurise, "features", progress, workers=workers)
    result = evaluate_feature_rows(train_rows, train_labels, test_rows, test_labels, rule, cv_folds, l2, names)
    if cross_encoder is not None:
        result = blend_cross_encoder(
            result, (train_batch, train_rows, train_labels), (test_batch, test_rows, test_labels),
            cross_encoder, save_to, progress, rule, encoder=encoder, device=device,
        )
    return result, train_failures, test_failures


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


def blend_cross_encoder(
    result: ParaphraseEvaluation,
    train: tuple[AlignedBatch, Sequence[Sequence[float] | None], Sequence[bool]],
    test: tuple[AlignedBatch, Sequence[Sequence[float] | None], Sequence[bool]],
    settings: FineTuning,
    save_to: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    rule: str = "half",
    *,
    encoder: str | None = None,
    device: str = "auto",
) -> ParaphraseEvaluation:
    """`result` (the fitted features model) blended with a cross-encoder fine-tuned from the
    encoder `encoder` on `device` on the same training pairs: the threshold (by `rule`: by
    default 0.5, as the fine-tuned model's training probabilities are not held out) and scores
    of the mean probability."""
    from ..neural.cross_encoder import CrossEncoder

    assert result.model is not None
    (train_batch, train_rows, train_labels), (test_batch, test_rows, test_labels) = train, test
    usable = [k for k, row in enumerate(train_rows) if row is not None]
    texts = {k: pair_texts(item) for k, item in enumerate(train_batch.items) if item is not None}
    model = CrossEncoder.fine_tune(
        [texts[k] for k in usable], [train_labels[k] for k in usable], model=encoder, device=device,
        settings=settings, progress=progress,
    )
    directory = None if save_to is None else str(model.save(save_to))

    def blended(batch: AlignedBatch, rows: Sequence[Sequence[float] | None]) -> list[float | None]:
        # a pair with a row was aligned
        present = {k: pair_texts(item) for k, (row, item) in enumerate(zip(rows, batch.items, strict=True))
                   if row is not None and item is not None}
        assert result.model is not None
        lexical = result.model.probabilities(rows)
        neural = dict(zip(present, model.probabilities(list(present.values())), strict=True))
        # lexical[k] is None only where rows[k] is, which neural then lacks
        return [blend(p, neural[k]) if k in neural and (p := lexical[k]) is not None else None
                for k in range(len(rows))]

    scored = paraphrase_from_scores(
        blended(train_batch, train_rows), train_labels, blended(test_batch, test_rows), test_labels, "", rule
    )
    entry = {**model.manifest(), "directory": directory, "blend": BLEND}
    if directory is not None:  # what was saved there, so that another model found there is refused
        entry["sha256"] = saved_model_digest(directory)
    return replace(scored, classifier="features", model=result.model, cross_validation=result.cross_validation,
                   cross_encoder=entry)


def evaluate_feature_rows(
    train_rows: Sequence[Sequence[float] | None],
    train_labels: Sequence[bool],
    test_rows: Sequence[Sequence[float] | None],
    test_labels: Sequence[bool],
    rule: str,
    cv_folds: int,
    l2: float,
    features: Sequence[str],
) -> ParaphraseEvaluation:
    """The ``features`` classifier on feature rows already computed (None: a failed pair, left
    out of the fit): fit, threshold by `rule`, classify the test rows, and cross-validate on the
    usable training rows when `cv_folds` is given."""
    usable = [(row, g) for row, g in zip(train_rows, train_labels, strict=True) if row is not None]
    fit_rows, fit_labels = [row for row, _ in usable], [g for _, g in usable]
    model = LogisticModel.fit(fit_rows, fit_labels, features=features, l2=l2)
    result = paraphrase_from_scores(
        model.probabilities(train_rows),
        train_labels,
        model.probabilities(test_rows),
        test_labels,
        "",
        rule,
    )
    cv = None
    if cv_folds:
        cv = cross_validate_model(fit_rows, fit_labels, rule, l2=l2, features=features, folds=cv_folds)
    return replace(result, classifier="features", model=model, cross_validation=cv)


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


def split_notes(train: Sequence[ParaphrasePair], test: Sequence[ParaphrasePair]) -> list[str]:
    """What a researcher must know about the splits before trusting the test figures: test pairs
    that are also training pairs (the same ids, or the same two sentences in either order however
    spaced, :func:`~.hybrid.pair_digest`: the test is then not held out, e.g. MSRP's val file given
    as --train and --test) and ids given twice within a split (a pair counted twice). Each note
    names the first such pair's file and line."""
    notes = []
    seen_ids = {p.id: p for p in train}
    seen_texts: dict[str, ParaphrasePair] = {}
    for p in train:
        seen_texts.setdefault(pair_digest(p.sentence1, p.sentence2), p)
    found = [(p, seen_ids.get(p.id) or seen_texts.get(pair_digest(p.sentence1, p.sentence2))) for p in test]
    shared = [(p, q) for p, q in found if q is not None]
    if shared:
        (first, earlier), n = shared[0], len(shared)
        notes.append(f"{n} of {len(test)} test pairs {'are also training pairs' if n > 1 else 'is also a training pair'} (the same "
                     f"ids or sentences; first {first.source}:{first.line} = {earlier.source}:{earlier.line}): "
                     "the test figures are not held out")
    for name, pairs in (("training", train), ("test", test)):
        note = repeated_ids_note([(p.id, f"{p.source}:{p.line}") for p in pairs], f"{name} pair", "ids",
                                 "each is counted again")
        if note:
            notes.append(note)
    return notes


def repeated_ids_note(entries: Iterable[tuple[str | None, str]], what: str, key: str, consequence: str) -> str | None:
    """A note on the `entries` (an id, or None for none, and where it is: ``file:line``) whose id
    an earlier entry has: how many (`what`: ``test pair``), the first with its id (`key`: ``ids``)
    and where that id came first, and what follows (`consequence`); None when no id repeats."""
    first_at: dict[str, str] = {}
    repeats: list[tuple[str, str, str]] = []
    for pair_id, where in entries:
        if pair_id is None:
            continue
        if pair_id in first_at:
            repeats.append((pair_id, where, first_at[pair_id]))
        else:
            first_at[pair_id] = where
    if not repeats:
        return None
    (pair_id, again, first), n = repeats[0], len(repeats)
    return (f"{n} {what}{'s' if n > 1 else ''} repeat{'' if n > 1 else 's'} an earlier {what.split()[-1]}'s {key} "
            f"(first {again}, {key} {pair_id} as on {first}): {consequence}")
