"""The paraphrase classifier: a logistic regression over pair features, and what a saved
``evaluate-paraphrase`` report needs to classify new pairs.

Not for: computing the features (:mod:`paralign.similarity.features`) or choosing the threshold
(:mod:`paralign.similarity.thresholds`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from ..aligners.registry import get_aligner
from ..alignment import AlignedSentences
from ..errors import (
    ConfigurationError,
    ExtraMissingError,
    FormatError,
    MismatchError,
    check_texts,
    invalid_json,
    listed,
    lone_surrogate,
)
from ..textio import open_text, sha256_file, strip_bom
from .features import FEATURES, KNOWN_FEATURES, pair_features, prepare_features
from .hybrid import saved_number
from .signals import Signal, check_signal_name, make_signal

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


#: Paraphrase classifiers of :func:`~paralign.similarity.paraphrase.evaluate_paraphrase`: a
#: threshold on a logistic model's probability over alignment and MT-overlap features, or on one
#: similarity signal (Sultan et al. 2014). Here, beside the model, as a saved report names one.
CLASSIFIERS: tuple[str, ...] = ("features", "signal")
DEFAULT_CLASSIFIER = "features"


def logistic_weights(
    design: np.ndarray, labels: np.ndarray, l2: float = 0.0, max_iterations: int = 100
) -> np.ndarray | None:
    """Logistic-regression weights by Newton's method (IRLS) for a design matrix whose first
    column is the intercept (not penalised); None when the fit does not converge within
    `max_iterations` (separable classes without `l2`: the weights grow without end)."""
    import numpy as np

    penalty = l2 * np.eye(design.shape[1])
    penalty[0, 0] = 0.0
    w = np.zeros(design.shape[1])
    for _ in range(max_iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ w)))
        gradient = design.T @ (p - labels) + penalty @ w
        hessian = (design * (p * (1 - p))[:, None]).T @ design + penalty + 1e-9 * np.eye(design.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if not np.all(np.isfinite(w)):
            return None
        if np.abs(step).max() < 1e-10:
            return w
    return None


def check_l2(l2: Any) -> Any:
    """`l2` (the logistic model's penalty), or a ConfigurationError unless it is a finite number
    >= 0: NaN or inf was fitted and reported as 'does not converge ... even with l2 = nan'."""
    if isinstance(l2, bool) or not isinstance(l2, Real) or not math.isfinite(l2) or l2 < 0:
        raise ConfigurationError(f"l2 must be a finite number >= 0, got {l2!r}")
    return l2  # as given: the signature shows it so


#: How many of the training pairs' standard deviations from their mean a feature may lie before
#: the pair is far outside what a :class:`LogisticModel` was fitted on (:meth:`LogisticModel.far_outside`).
FAR_OUTSIDE = 10.0


@dataclass(frozen=True, slots=True)
class LogisticModel:
    """L2-regularised logistic regression on standardised features: ``P(paraphrase | features)``.

    Fitted by Newton's method (the problem is small and convex); the intercept is not penalised.
    ``to_dict``/``from_dict`` round-trip it through JSON.
    """

    features: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    l2: float = 1.0

    def __post_init__(self) -> None:
        """The numbers :meth:`probabilities` needs, or an error naming the field: built by hand,
        a scale of 0 gave P = 1.0 (a division by zero), a NaN weight P = NaN, lengths that
        differ numpy's "matmul: ... mismatch", silently or from deep inside."""
        check_texts(self.features, "LogisticModel features")
        if not self.features:
            raise ConfigurationError("LogisticModel: no features")
        object.__setattr__(self, "features", tuple(self.features))
        for name in ("means", "scales", "weights", "intercept"):
            value = getattr(self, name)
            values = [value] if name == "intercept" else listed(value, f"LogisticModel {name} must be a list")
            if name != "intercept" and len(values) != len(self.features):
                raise MismatchError(f"LogisticModel: {len(values)} {name} for {len(self.features)} features")
            for number, v in enumerate(values, start=1):
                positive = name != "scales" or (isinstance(v, Real) and float(v) > 0)
                if isinstance(v, bool) or not isinstance(v, Real) or not math.isfinite(v) or not positive:
                    where = name if name == "intercept" else f"{name}: item {number}"
                    raise ConfigurationError(f"LogisticModel {where} is {v!r:.40}, not a finite number"
                                             + (" > 0" if name == "scales" else ""))
            if name != "intercept":
                object.__setattr__(self, name, tuple(values))
        check_l2(self.l2)

    @classmethod
    def fit(
        cls,
        rows: Sequence[Sequence[float]],
        labels: Sequence[bool],
        *,
        features: Sequence[str] = FEATURES,
        l2: float = 1.0,
        max_iterations: int = 100,
    ) -> LogisticModel:
        """Fit on training rows (one feature vector per pair) and their paraphrase labels."""
        import numpy as np

        if len(rows) != len(labels):
            raise MismatchError(f"{len(rows)} feature rows vs {len(labels)} labels")
        if not rows:
            raise ConfigurationError("cannot fit a paraphrase model without training pairs")
        x = np.asarray(rows, dtype=float)
        if x.ndim != 2 or x.shape[1] != len(features):
            raise MismatchError(f"feature rows must have {len(features)} columns, got shape {x.shape}")
        check_l2(l2)
        check_both_classes(labels)
        bad = np.argwhere(~np.isfinite(x))
        if len(bad):  # NaN was fitted, and reported as classes that do not converge ("separable?")
            row, column = (int(v) for v in bad[0])
            raise FormatError(f"feature {features[column]!r} of training pair {row + 1} is {float(x[row, column])!r}, "
                              "not a finite number")
        y = np.asarray(labels, dtype=float)
        means = x.mean(axis=0)
        scales = x.std(axis=0)
        scales[scales == 0] = 1.0  # a constant feature: leave it at zero after centring
        z = np.hstack([np.ones((len(x), 1)), (x - means) / scales])
        w = logistic_weights(z, y, l2, max_iterations)
        if w is None:
            hint = ": use l2 > 0" if l2 == 0 else f" even with l2 = {l2:g}: try a larger l2"
            raise ConfigurationError(
                f"the logistic model does not converge on these {len(rows)} training pairs (separable classes?){hint}"
            )
        return cls(
            tuple(features),
            tuple(float(v) for v in means),
            tuple(float(v) for v in scales),
            tuple(float(v) for v in w[1:]),
            float(w[0]),
            l2,
        )

    def probability(self, row: Sequence[float]) -> float:
        """P(paraphrase) for one feature vector."""
        return self.probabilities([row])[0]

    @overload
    def probabilities(self, rows: Sequence[Sequence[float]]) -> list[float]: ...
    @overload
    def probabilities(self, rows: Sequence[Sequence[float] | None]) -> list[float | None]: ...

    def probabilities(self, rows: Sequence[Sequence[float] | None]) -> list[float] | list[float | None]:
        """P(paraphrase) for many feature vectors at once (None stays None: a pair that failed;
        without a None row, a float for each)."""
        import numpy as np

        present = [k for k, row in enumerate(rows) if row is not None]
        out: list[float | None] = [None] * len(rows)
        if not present:
            return out
        x = np.asarray([rows[k] for k in present], dtype=float)
        if x.shape[1] != len(self.weights):
            raise MismatchError(f"expected {len(self.weights)} features, got {x.shape[1]}")
        logits = self.intercept + self._standardised(x) @ np.asarray(self.weights)
        for k, value in zip(present, 1.0 / (1.0 + np.exp(-np.clip(logits, -700, 700))), strict=True):
            out[k] = float(value)
        return out

    def far_outside(self, rows: Sequence[Sequence[float] | None]) -> tuple[int, str, float]:
        """How many `rows` (None, a failed pair, skipped) have a feature more than :data:`FAR_OUTSIDE`
        training standard deviations from its training mean, where the model's linear logit
        extrapolates (two long paragraphs' unaligned-word counts, for a model fitted on
        sentences, gave P = 0.0000 without a word); the feature most often so, and its largest
        distance (0, "", 0.0: none)."""
        import numpy as np

        x = np.asarray([row for row in rows if row is not None], dtype=float).reshape(-1, len(self.means))
        z = np.abs(self._standardised(x))
        far = z > FAR_OUTSIDE
        if not far.any():
            return 0, "", 0.0
        column = int(far.sum(axis=0).argmax())
        return int(far.any(axis=1).sum()), self.features[column], float(z[:, column].max())

    def _standardised(self, x: Any) -> Any:
        """`x` (an array of feature rows) in training standard deviations from the training
        means: what the weights multiply (:meth:`probabilities`) and what :meth:`far_outside` measures."""
        import numpy as np

        return (x - np.asarray(self.means)) / np.asarray(self.scales)

    def to_dict(self) -> dict:
        """A JSON-ready record of the fitted model (read back by :meth:`from_dict`)."""
        return {
            "kind": "logistic",
            "l2": self.l2,
            "intercept": self.intercept,
            "features": [
                {"name": n, "weight": w, "mean": m, "scale": s}
                for n, w, m, s in zip(self.features, self.weights, self.means, self.scales, strict=True)
            ],
        }

    @classmethod
    def from_dict(cls, data: dict, source: str | None = None) -> LogisticModel:
        """The model :meth:`to_dict` wrote (e.g. read back from a JSON report, `source`, which
        errors name). A model without features, or with a number that is not finite or a scale
        that is not positive (scores would be NaN or a constant), is a FormatError; so is an `l2`
        that :func:`check_l2` refuses to fit with (NaN, inf, negative), which the model's
        signature would show as its setting."""
        try:
            rows = data["features"]
            model = cls(
                tuple(str(r["name"]) for r in rows),
                tuple(saved_number(r["mean"]) for r in rows),
                tuple(saved_number(r["scale"]) for r in rows),
                tuple(saved_number(r["weight"]) for r in rows),
                saved_number(data["intercept"]),
                saved_number(data.get("l2", 1.0)),
            )
        except (KeyError, TypeError, ValueError) as exc:  # a model's own checks too (no features, a scale <= 0)
            raise FormatError(f"not a paraphrase model ({_reason(exc)})", source=source) from exc
        return model


def _reason(exc: Exception) -> str:
    """Why a saved record could not be read, for a message: a missing key by its name, else the
    exception's own words (not its repr)."""
    return f'no "{exc.args[0]}"' if isinstance(exc, KeyError) and exc.args else str(exc)


@dataclass(frozen=True, slots=True)
class ModelSignal:
    """A fitted :class:`LogisticModel` used as a similarity signal: P(paraphrase) of a pair.
    Its encoder features (if any) come from the encoder `encoder` on `device`
    (:func:`~paralign.similarity.features.embedding_features`)."""

    model: LogisticModel
    name: str = "features-model"
    encoder: str | None = None
    device: str = "auto"

    def __post_init__(self) -> None:
        check_signal_name(self.name, "ModelSignal name")

    def prepare(self, pairs: Sequence[AlignedSentences | None]) -> None:
        """Batch work for the model's features (encoder features: one encoding pass)."""
        prepare_features(pairs, self.model.features, encoder=self.encoder, device=self.device)

    def __call__(self, pair: AlignedSentences) -> float:
        return self.model.probability(pair_features(pair, self.model.features, encoder=self.encoder,
                                                    device=self.device))


def pair_texts(pair: AlignedSentences) -> tuple[str, str]:
    """The two sentences' texts, as a cross-encoder reads them."""
    return pair.source.text, pair.target.text


#: How a features model and a fine-tuned cross-encoder are combined (the report names it).
BLEND = "mean of the logistic model's and the cross-encoder's probabilities"


def blend(logistic: float, cross_encoder: float) -> float:
    """The classifier's probability from its two parts (:data:`BLEND`): one place for training
    and for reuse through a saved report."""
    return (logistic + cross_encoder) / 2


@dataclass(frozen=True, eq=False)
class BlendedSignal:
    """P(paraphrase) of a pair: the mean of a fitted :class:`LogisticModel`'s probability and a
    fine-tuned cross-encoder's (:class:`paralign.neural.cross_encoder.CrossEncoder`).

    :meth:`prepare` runs the cross-encoder over a batch at once; its probabilities are kept by
    the pair's texts. The logistic model's encoder features come from the encoder `encoder` on
    `device`, as :class:`ModelSignal`'s."""

    model: LogisticModel
    cross_encoder: Any
    name: str = "features+cross-encoder"
    _cached: dict[tuple[str, str], float] = field(default_factory=dict, repr=False)
    encoder: str | None = None
    device: str = "auto"

    def __post_init__(self) -> None:
        check_signal_name(self.name, "BlendedSignal name")

    def prepare(self, pairs: Sequence[AlignedSentences | None]) -> None:
        prepare_features(pairs, self.model.features, encoder=self.encoder, device=self.device)
        texts = dict.fromkeys(pair_texts(p) for p in pairs if p is not None)
        missing = [t for t in texts if t not in self._cached]
        self._cached.update(zip(missing, self.cross_encoder.probabilities(missing), strict=True))

    def __call__(self, pair: AlignedSentences) -> float:
        texts = pair_texts(pair)
        if texts not in self._cached:
            self.prepare([pair])
        features = pair_features(pair, self.model.features, encoder=self.encoder, device=self.device)
        return blend(self.model.probability(features), self._cached[texts])


#: The files of a saved cross-encoder that :func:`saved_model_digest` covers (``fnmatch`` patterns):
#: what ``CrossEncoder.save`` writes, i.e. its manifest, head, the encoder's configuration and
#: weights, and the tokenizer's files; not what else the directory may hold (a report written
#: into it, a README, macOS's .DS_Store), which would make the same model look another.
MODEL_FILES = ("cross_encoder.json", "head.pt", "config.json", "*.safetensors", "*.bin", "tokenizer*", "vocab*",
               "special_tokens_map.json", "added_tokens.json", "merges.txt", "*.model")


def saved_model_digest(directory: str | os.PathLike[str]) -> str:
    """SHA-256 (hex) over a saved model directory's own files (:data:`MODEL_FILES`): each one's
    name and the SHA-256 of its bytes, in name order. A report records it beside the directory's
    path, so that another model found at that path (retrained, or another run's) is refused
    rather than silently used."""
    import fnmatch
    import hashlib

    h = hashlib.sha256()
    for file in sorted(Path(directory).iterdir()):
        if file.is_file() and any(fnmatch.fnmatchcase(file.name, pattern) for pattern in MODEL_FILES):
            h.update(f"{file.name}\0{sha256_file(file)}\n".encode())
    return h.hexdigest()


def saved_cross_encoder(entry: Any, source: str, device: str = "auto") -> Any:
    """The cross-encoder a report's ``cross_encoder`` entry names: its ``directory`` (relative to
    the report's own directory, as a report written to a file records it, or absolute, as older
    reports and reports written to stdout do), checked against the entry's ``sha256``
    (:func:`saved_model_digest`) when the report has one; loaded on `device`."""
    from ..neural.cross_encoder import CrossEncoder

    directory = entry.get("directory") if isinstance(entry, dict) else None
    if not directory:
        raise FormatError(
            f"{source}: the model's fine-tuned cross-encoder was not saved; train again with "
            "evaluate-paraphrase --save-cross-encoder DIR (or --no-cross-encoder)"
        )
    path = Path(os.path.expanduser(str(directory)))
    if not path.is_absolute() and os.path.exists(source):
        path = Path(source).resolve().parent / path
    if not path.is_dir():
        where = "" if str(path) == str(directory) else f" ({path})"
        raise FormatError(
            f"the report's cross-encoder {directory}{where} is not there: keep the directory "
            "--save-cross-encoder wrote where the report names it (a report written with -o names it "
            "relative to itself, so move the two together), or edit the report's cross_encoder.directory",
            source=source,
        )
    recorded = entry.get("sha256")
    found = None if recorded is None else saved_model_digest(path)
    if found != recorded:
        raise MismatchError(
            f"the cross-encoder in {path} is not the one this report was trained with (its files' "
            f"sha256 {str(found)[:12]}..., the report's {str(recorded)[:12]}...): "
            "point cross_encoder.directory at that model, or train again",
            source=source,
        )
    return CrossEncoder.load(path, device=device)


def report_relative_to(report: dict, output: str | os.PathLike[str] | None) -> dict:
    """`report` (an ``evaluate-paraphrase`` report) as written to the file `output`: its saved
    cross-encoder's directory relative to `output`'s directory, so that the report and the model
    moved together (to another folder or machine) still load; unchanged when `output` is stdout
    (None or '-', a device) or the two are on different drives (Windows)."""
    entry = report.get("cross_encoder")
    if output in (None, "-") or not isinstance(entry, dict) or not entry.get("directory"):
        return report
    home = Path(os.path.abspath(output)).parent
    if Path(os.path.realpath(home)).parts[:2] == ("/", "dev"):  # /dev/stdout, /dev/fd/N
        return report
    try:
        relative = os.path.relpath(os.path.abspath(entry["directory"]), home)
    except ValueError:  # another drive
        return report
    return {**report, "cross_encoder": {**entry, "directory": Path(relative).as_posix()}}


@dataclass(frozen=True, slots=True)
class TrainedClassifier:
    """What an ``evaluate-paraphrase`` report needs to classify new pairs: the score (a signal or
    the fitted model), the threshold chosen on the training pairs, and the aligner they used."""

    signal: Signal  #: what scores a pair (:class:`.ModelSignal`, a blend, or a named signal)
    threshold: float
    aligner: str  #: ``sultan`` or ``exact``
    preset: str  #: the sultan aligner's preset

    @classmethod
    def from_report(cls, report: dict, source: str = "report", *, encoder: str | None = None,
                    device: str = "auto") -> TrainedClassifier:
        """Read the JSON of ``paralign evaluate-paraphrase --format json`` (or
        ``ParaphraseEvaluation.to_dict()``); `source` names it in errors. Its neural parts (encoder
        features, a neural signal) run the encoder `encoder` on `device`, and a saved
        cross-encoder (its own fine-tuned encoder) runs on `device`. What a hand edit can
        break is checked here (a FormatError naming `source`): a threshold that is not a finite
        number, a classifier that is not one of :data:`CLASSIFIERS` (a report without one is an old
        ``signal`` report, unless it holds a model), the model's numbers, the aligner."""
        if "threshold" not in report:
            raise FormatError('not an evaluate-paraphrase report (no "threshold")', source=source)
        try:
            threshold = saved_number(report["threshold"])
        except TypeError:
            threshold = math.nan
        if not math.isfinite(threshold):
            raise FormatError(f"threshold {report['threshold']!r} is not a finite number", source=source)
        classifier = report.get("classifier") or ("features" if report.get("model") else "signal")
        if classifier not in CLASSIFIERS:
            raise FormatError(f"unknown classifier {classifier!r} ({', '.join(CLASSIFIERS)})", source=source)
        if "classifier" not in report and classifier == "features":
            raise FormatError("a model without its classifier (\"classifier\": \"features\")", source=source)
        name, preset = saved_aligner(str(report.get("aligner") or "sultan:default"), source)
        if classifier == "features":
            if not report.get("model"):
                raise FormatError(f"{source}: a features classifier report without its model")
            model = LogisticModel.from_dict(report["model"], source)
            unknown = [name for name in model.features if name not in KNOWN_FEATURES]
            if unknown:
                raise FormatError(f"{source}: the model uses unknown features {', '.join(unknown)}")
            signal: Signal = ModelSignal(model, encoder=encoder, device=device)
            if report.get("cross_encoder"):
                signal = BlendedSignal(model, saved_cross_encoder(report["cross_encoder"], source, device),
                                       encoder=encoder, device=device)
        else:
            from .contextual import encoder_options

            signal_name = str(report.get("signal") or "sultan2014")
            try:
                signal = make_signal(signal_name, **encoder_options(signal_name, encoder, device))
            except ExtraMissingError:  # the report is fine: this installation lacks what it needs
                raise
            except ConfigurationError as exc:  # a hand edit of the report, not the command line
                raise FormatError(f"the report's signal: {exc}", source=source) from None
            if getattr(signal, "trainable", False):
                raise FormatError(
                    f"{source}: signal {report.get('signal')!r} needs its training IDF statistics, "
                    "which reports do not keep"
                )
        return cls(signal, threshold, name, preset)


def saved_aligner(label: str, source: str) -> tuple[str, str]:
    """(name, preset) of the aligner a saved report names (``sultan:paraphrase``, ``exact``), checked
    as :func:`~paralign.aligners.registry.get_aligner` checks them: one it cannot build is bad
    report content (a FormatError naming `source`), not a bad option."""
    name, _, preset = label.partition(":")
    try:
        get_aligner(name, preset or "default")
    except ExtraMissingError:
        raise
    except ConfigurationError as exc:
        raise FormatError(f"aligner {label!r} cannot be rebuilt ({exc})", source=source) from None
    return name, preset or "default"


def load_model_report(path: str, *, encoder: str | None = None, device: str = "auto", check_gpu: bool = True,
                      ) -> tuple[TrainedClassifier, object]:
    """The classifier saved in an evaluate-paraphrase JSON report (``paralign similarity --model``),
    or the hybrid signal saved in an evaluate-sts report (no threshold: NaN, so no pair is
    labelled), and the report's signature (what it was fitted with). Its neural parts run the
    encoder `encoder` on `device` (:meth:`TrainedClassifier.from_report`; a hybrid's components). A string escape that is half
    a UTF-16 surrogate pair is a FormatError at its line (:func:`paralign.errors.lone_surrogate`):
    json.loads reads it as a str that no encoder can write, and the report's signature, quoted in
    a note, broke ``similarity --format json`` with a UnicodeEncodeError traceback. The
    encoder its scores run (a neural signal or aligner, encoder features) is checked here, not
    at the first pair: without the neural extra, an ExtraMissingError naming the report.
    `check_gpu` False leaves a GPU torch does not see here to where the model loads (the
    scoring goes to a Dask scheduler's workers, which have their own GPUs)."""
    try:
        trained, signature = _read_model_report(path, encoder, device)
        if _needs_encoder(trained):
            from ..neural import check_encoder

            check_encoder(encoder, device, check_gpu=check_gpu)
    except ExtraMissingError as exc:  # what needs the extra: the model in the report
        raise ExtraMissingError(f"the model in {path}", exc.extra, exc.missing) from None
    return trained, signature


def _needs_encoder(trained: TrainedClassifier) -> bool:
    """Whether scoring with a saved classifier runs the neural encoder (its base model: a
    blend's fine-tuned cross-encoder, loaded with the report, is its own)."""
    from .signature import uses_encoder

    signal = trained.signal
    probe = ModelSignal(signal.model) if isinstance(signal, BlendedSignal) else signal
    return uses_encoder(probe, get_aligner(trained.aligner, trained.preset))


def _read_model_report(path: str, encoder: str | None, device: str) -> tuple[TrainedClassifier, object]:
    """:func:`load_model_report`'s reading of the report."""
    with open_text(path) as handle:  # errors name the file (and line), as every input's do; gzip read
        text = strip_bom(handle.read())
    try:
        report = json.loads(text)
    except json.JSONDecodeError as exc:
        if not text.lstrip().startswith(("{", "[")):  # -o without --format json: the text report
            raise FormatError(f"{'empty' if not text.strip() else 'not JSON (a text report?)'}: --model takes the report written with --format json "
                              "(evaluate-paraphrase, or evaluate-sts --signal hybrid --train FILE)",
                              source=path, line=text[: len(text) - len(text.lstrip())].count("\n") + 1) from None
        raise FormatError(invalid_json(exc), source=path, line=exc.lineno) from exc
    if (lone := lone_surrogate(text)) is not None:  # no character: refused here as a bad byte is
        raise FormatError(lone[1], source=path, line=text.count("\n", 0, lone[0]) + 1)
    if not isinstance(report, dict):
        raise FormatError("not an evaluate-paraphrase report", source=path)
    if isinstance(report.get("scores"), list):  # what similarity --format json writes (a threshold too, with --model)
        raise FormatError("the output of paralign similarity (its scores), not a report that keeps a model: give "
                          "--model the evaluate-paraphrase or evaluate-sts --signal hybrid report", source=path)
    if "sets" in report and report.get("signal") != "hybrid":  # evaluate-sts's, of a signal with nothing fitted
        raise FormatError(f"an evaluate-sts report keeps a model only for --signal hybrid; this one's signal is "
                          f"{report.get('signal')!r}, which needs no model: give --signal {report.get('signal')} "
                          "instead of --model", source=path)
    if report.get("signal") == "hybrid" and "threshold" not in report:  # evaluate-paraphrase --signal hybrid's has one
        from .hybrid import HybridModel, HybridSignal

        model = HybridModel.from_dict(report.get("model"), path)
        # the aligner the blend was fitted on (the report's "aligner" is "none" when its signals read none)
        name, preset = saved_aligner(model.aligner or str(report.get("aligner") or "sultan:default"), path)
        return (TrainedClassifier(HybridSignal(model, encoder=encoder, device=device), math.nan, name, preset),
                report.get("signature"))
    return TrainedClassifier.from_report(report, path, encoder=encoder, device=device), report.get("signature")


def check_both_classes(labels: Sequence[bool]) -> None:
    """FormatError when `labels` (not empty) are all of one class: no classifier can be fitted."""
    if labels and len(set(map(bool, labels))) < 2:
        kind = "paraphrases" if labels[0] else "non-paraphrases"
        raise FormatError(f"all {len(labels)} training pairs are {kind}: a classifier needs both classes")
