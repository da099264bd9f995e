"""The ``features`` paraphrase classifier: a logistic model over the features of aligned pairs,
fitted on the training pairs, its probability thresholded; optionally blended with a
cross-encoder fine-tuned on the same pairs.

Not for: the features themselves (:mod:`paralign.similarity.features`), the model
(:mod:`paralign.similarity.model`) or choosing the classifier and checking its options
(:func:`paralign.similarity.paraphrase.evaluate_paraphrase`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..aligners.batch import AlignedBatch, PairFailure
from .features import FEATURES, pair_features, prepare_features
from .model import BLEND, FAR_OUTSIDE, LogisticModel, blend, pair_texts, saved_model_digest
from .paraphrase_evaluation import ParaphraseEvaluation, paraphrase_from_scores
from .scores import map_aligned
from .validation import cross_validate_model

if TYPE_CHECKING:  # pragma: no cover
    from ..neural.cross_encoder import FineTuning


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
    note = far_outside_note(result.model, test_rows) if result.model is not None else None
    return replace(result, notes=(*result.notes, note)) if note else result, train_failures, test_failures


def far_outside_note(model: LogisticModel, rows: Sequence[Sequence[float] | None]) -> str | None:
    """A note counting the test pairs' `rows` far outside what `model` was fitted on
    (:meth:`LogisticModel.far_outside`), once for them all, or None: its probabilities there
    are a linear model extrapolated, not what it was fitted to tell."""
    count, feature, distance = model.far_outside(rows)
    if not count:
        return None
    scored = sum(row is not None for row in rows)
    return (f"{count} of {scored} test pairs {'has' if count == 1 else 'have'} a feature more than {FAR_OUTSIDE:g} standard deviations from the "
            f"training pairs' mean (most often {feature}, up to {distance:.0f}): the model extrapolates there, "
            "so their probabilities are not what it was fitted to tell (train on pairs like them)")


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
