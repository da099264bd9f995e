"""What paraphrase identification reports: :class:`ParaphraseEvaluation`, the threshold chosen
on training scores and the test scores it gives, and :func:`paraphrase_from_scores`, which makes
one from a classifier's scores.

Not for: evaluating a classifier end to end (:mod:`paralign.similarity.paraphrase`), the
features classifier (:mod:`paralign.similarity.paraphrase_features`) or the threshold rules
(:mod:`paralign.similarity.thresholds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..aligners.batch import PairFailure
from ..corpora.sts import SkippedPair
from ..errors import check_finite
from .model import LogisticModel
from .signals import DEFAULT_SIGNAL
from .thresholds import DEFAULT_THRESHOLD_RULE, BinaryScores, binary_scores, choose_threshold
from .validation import CrossValidation, cross_validate_threshold


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
