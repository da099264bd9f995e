"""Signatures of similarity and paraphrase-identification scores, sacrebleu-style.

``signal:sultan2014|aligner:sultan:default|sim:ppdb-1.0-xxxl-lexical|spacy:...|version:0.2.26``:
every setting that changes a score, and nothing that does not (not the workers, the cluster or
the device). Beside the aligner's parts (:mod:`paralign.aligners.signature`):

* ``signal``: the signal's name; ``idf``: a hash of an IDF signal's fitted statistics (what
  ``--idf-from`` gave); ``fit``: a hash of a fitted hybrid blend; ``model``: a saved model
  report (``similarity --model``) by its basename and a hash of its bytes;
* ``tok``: the tokens the pairs were given as (scored, or a paraphrase identification's training
  and test pairs), as ``align`` signs them
  (:func:`~paralign.aligners.signature.batch_tokens_part`): ``none`` when each pair was given
  as two token lists (a JSON record's), ``none/spacy`` or ``spacy/none`` for one side's,
  ``mixed`` for a side given as tokens by some pairs and as text by others; absent for texts;
* the aligner's parts only when the signal reads the alignment (``embedding`` does not), and
  ``encoder`` (package and version, or a model directory's name) when a signal or feature set
  uses the neural encoder: the one it ran (a command's ``--encoder``, else ``PARALIGN_ENCODER``);
* for paraphrase identification: ``classifier``, ``features`` and ``l2`` (the features
  classifier), ``rule`` (the threshold rule), ``cv`` (folds of the reported cross-validation),
  ``xenc`` (the cross-encoder's fine-tuning settings) and ``train`` (a hash of the training
  pairs, on which the threshold and a model are fitted: :func:`training_id`).

Not for: scoring, or ParaEval's signature (:mod:`paralign.metrics.paraeval.signature`).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from ..aligners.registry import aligner_label
from ..aligners.signature import aligner_parts, batch_tokens_part, environment_parts
from ..alignment import AlignFunction
from ..errors import InputTypeError, file_path, shown_value
from ..signature import file_name_part, join_signature, setting_value, short_hash, signature_parts
from ..textio import input_file_error, require_file
from .contextual import ENCODER_SIGNALS, check_run_encoder, encoder_options
from .signals import Signal, check_joined, check_signal, make_signal, needs_alignment


def similarity_signature(
    signal: Any | Sequence[Any],
    aligner: AlignFunction | Any | None = None,
    *,
    model_file: str | os.PathLike[str] | None = None,
    given_tokens: bool = False,
    sides: Iterable[tuple[bool, bool]] = (),
) -> str:
    """The signature of the scores of `signal` (a Signal, or several scored together: their
    names joined by ``+``) over pairs aligned by `aligner` (None: the default Sultan aligner).
    Either may be given by name, as :func:`~paralign.similarity.similarity_many` takes them
    (``"sultan2014"``, ``"sultan:paraphrase"``). `model_file`: the saved report the signal was
    read from (``similarity --model``; ConfigurationError when its name holds ``|``:
    :func:`paralign.signature.file_name_part`). `given_tokens`: every pair was given as token lists and
    no spaCy model read them (:func:`~paralign.similarity.scores.parses_nothing`: the exact
    aligner and signals that read tokens alone), so no ``spacy`` part. `sides`: which sides of
    each scored pair were given as token lists (source, target), signed as ``tok`` as ``align``
    signs its pairs' (:func:`~paralign.aligners.signature.batch_tokens_part`; none: no part)."""
    given: list[Any] = list(signal) if isinstance(signal, list | tuple) else [signal]
    for s in given:  # None was signed 'signal:NoneType', a number 'signal:int'
        if not isinstance(s, str) and not (callable(s) and isinstance(getattr(s, "name", None), str)):
            raise InputTypeError(f"signal must be a signal's name ('sultan2014') or a Signal, not "
                                 f"{type(s).__name__} {shown_value(s)}")
    signals: list[Signal] = [make_signal(s) if isinstance(s, str) else s for s in given]
    names = [getattr(s, "name", type(s).__name__) for s in signals]
    for each in signals:
        check_signal(each)
    check_joined(names)
    parts: dict[str, object] = {"signal": "+".join(names)}
    if model_file is not None:
        path = require_file(file_path(model_file))  # a missing file was a bare FileNotFoundError, 3 a TypeError
        try:
            parts["model"] = f"{file_name_part(path, 'model:FILE#HASH')}#{short_hash(path.read_bytes())}"
        except OSError as exc:
            raise input_file_error(exc, str(path)) from exc
    components = [c for s in signals for c in _components(s)]
    for s in signals:
        parts.update(_fitted_parts(s))
    if any(needs_alignment(s) for s in signals):
        parts.update(aligner_parts(aligner))
    for component in components:
        for key, value in _neural_parts(component).items():
            parts.setdefault(key, value)
    parts.update(batch_tokens_part(sides))
    # the signals' content words: not the stop words
    parts.update(environment_parts(aligner, stopwords=True, given_tokens=given_tokens))
    return join_signature(parts)


def as_read(signature: str, sides: Collection[tuple[bool, bool]], *, tokens_alone: bool) -> str:
    """`signature` (:func:`similarity_signature`'s, made before the input was read, as a
    command warns of a saved model's before its scores) as the pairs read make it: their
    ``tok`` part (`sides`: each pair's sides given as token lists,
    :func:`~paralign.aligners.signature.batch_tokens_part`) where :func:`similarity_signature`
    puts it, before the environment's parts, and no ``spacy`` part when no spaCy model read a
    pair (`tokens_alone`: :func:`~.scores.parses_nothing`, and every pair given as two token
    lists), as :func:`~.scores.similarity_many` signs those pairs."""
    parts = signature_parts(signature)
    parts.pop("tok", None)
    environment: dict[str, str] = {key: parts.pop(key) for key in ("stopwords", "spacy") if key in parts}
    if tokens_alone and sides and all(source and target for source, target in sides):
        environment.pop("spacy", None)
    return join_signature({**parts, **batch_tokens_part(sides), **environment})


def _components(signal: Any) -> list[Any]:
    """The signals a signal computes: a hybrid's components, else itself."""
    inner = getattr(signal, "components", None)
    return list(inner) if inner else [signal]


def _fitted_parts(signal: Any) -> dict[str, str]:
    """``idf``: a hash of fitted IDF statistics; ``fit``: a hash of a fitted hybrid blend."""
    idf = getattr(signal, "idf", None)
    if getattr(signal, "trainable", False) and idf is not None:
        rows = (f"{word}\t{count}\n".encode() for word, count in sorted(idf.df.items()))
        return {"idf": short_hash([f"{idf.documents}\n".encode(), *rows])}
    model = getattr(signal, "model", None)
    if getattr(signal, "name", "") == "hybrid" and model is not None:
        blend = (model.signals, model.weights, model.means, model.scales, model.intercept, model.l2, model.top)
        return {"fit": short_hash(repr(blend).encode())}
    return {}


def _neural_parts(signal: Any) -> dict[str, str]:
    """What a neural signal adds: the encoder it runs (``embedding``; a saved features model over
    encoder features, or blended with a cross-encoder: its ``encoder``), or its own aligner's
    parts (``contextual-alignment``, which realigns the pair with the contextual aligner, whose
    parts name its encoder)."""
    from ..neural.model_files import encoder_id

    name = getattr(signal, "name", "")
    if name == "embedding":
        return {"encoder": encoder_id(getattr(signal, "model", None))}
    if name == "contextual-alignment":
        return aligner_parts(signal.aligner)
    if _runs_encoder_features(signal):
        return {"encoder": encoder_id(getattr(signal, "encoder", None))}
    return {}


def _runs_encoder_features(signal: Any) -> bool:
    """A saved features model over encoder features, or one blended with a cross-encoder."""
    name = getattr(signal, "name", "")
    features = getattr(getattr(signal, "model", None), "features", None)
    return name == "features+cross-encoder" or (name == "features-model" and _has_encoder_features(features))


def uses_encoder(signal: Any, aligner: AlignFunction | Any | None = None) -> bool:
    """Whether scoring with `signal` (a Signal; a hybrid by its components) over pairs aligned by
    `aligner` runs the neural encoder: a neural signal (``embedding``, ``contextual-alignment``),
    a saved features model over encoder features or with a cross-encoder, or the contextual
    aligner (by its signature parts' ``encoder``; only when `signal` reads the alignment).
    What a command's ``--encoder`` and ``--device`` need to be given to."""
    signals = _components(signal)
    if any(getattr(c, "name", "") in ENCODER_SIGNALS or _runs_encoder_features(c) for c in signals):
        return True
    return any(needs_alignment(c) for c in signals) and "encoder" in aligner_parts(aligner)


def check_signals_encoder(signals: Iterable[object], encoder: str | None, device: str) -> None:
    """:func:`~.contextual.check_run_encoder` (the neural extra, the encoder, a GPU torch does not
    see: before any pair is aligned) when any of `signals` (made by name on `encoder` and
    `device`) runs the encoder (:func:`uses_encoder`); nothing otherwise."""
    if any(uses_encoder(signal) for signal in signals):
        check_run_encoder(encoder, device)


def checked_signal(signal: str | Signal, encoder: str | None, device: str) -> Signal:
    """`signal` made (:func:`~.signals.make_signal`): by name, on the encoder `encoder` on
    `device` when it is neural (:func:`~.contextual.encoder_options`), and that encoder checked
    (:func:`check_signals_encoder`) before any pair is aligned; a Signal object keeps its own
    encoder, unchecked. The one making of a named signal for ``evaluate-sts`` and
    ``evaluate-paraphrase``, which did both halves each."""
    if not isinstance(signal, str):
        return make_signal(signal)
    made = make_signal(signal, **encoder_options(signal, encoder, device))
    check_signals_encoder([made], encoder, device)
    return made


def _has_encoder_features(names: Sequence[str] | None) -> bool:
    from .features import EMBEDDING_FEATURES

    return bool(set(names or ()) & set(EMBEDDING_FEATURES))


def paraphrase_signature(
    *,
    classifier: str,
    rule: str,
    aligner: AlignFunction | Any | None,
    signal: Any = None,
    feature_set: str | None = None,
    l2: float | None = None,
    cv_folds: int = 0,
    fine_tuning: Any = None,
    encoder: str | os.PathLike[str] | None = None,
    train: str | None = None,
    given_tokens: bool = False,
    sides: Iterable[tuple[bool, bool]] = (),
) -> str:
    """The signature of a paraphrase identification: the classifier and its settings (the
    ``signal`` classifier's signal, or the ``features`` classifier's feature set, L2 and
    cross-encoder fine-tuning), the threshold rule, the CV folds, the aligner, and the encoder
    that the features or the cross-encoder ran (`encoder`: its model, as
    :class:`paralign.neural.Encoder` takes it; None: the ``PARALIGN_ENCODER`` setting) or the
    neural signal's own; `train`: the training pairs' :func:`training_id`; `given_tokens` and
    `sides`: as :func:`similarity_signature` takes them (no spaCy model read a pair: no ``spacy``
    part; which sides of the pairs were given as token lists: the ``tok`` part, through the one
    :func:`~paralign.aligners.signature.batch_tokens_part`). Before, pairs given as token lists
    signed as texts here, where ``similarity`` and ``align`` sign ``tok:none``."""
    parts: dict[str, object] = {"classifier": classifier}
    if classifier == "signal" and signal is not None:
        parts["signal"] = getattr(signal, "name", signal)
    if feature_set is not None:
        parts["features"] = feature_set
        parts["l2"] = f"{l2:g}" if l2 is not None else None
    parts["rule"] = rule
    parts["cv"] = cv_folds or None
    parts["train"] = train
    if fine_tuning is not None:
        parts["xenc"] = ",".join(f"{key}={setting_value(value)}" for key, value in fine_tuning.to_dict().items())
    parts.update(aligner_parts(aligner))
    if _uses_encoder(signal, feature_set, fine_tuning):
        from ..neural.model_files import encoder_id

        neural = {} if signal is None or isinstance(signal, str) else _neural_parts(signal)
        parts.setdefault("encoder", neural.get("encoder") or encoder_id(encoder))
    parts.update(batch_tokens_part(sides))
    parts.update(environment_parts(aligner, stopwords=True, given_tokens=given_tokens))  # the features' content words
    return join_signature(parts)


def training_id(pairs: Sequence[tuple[Any, Any, bool]]) -> str:
    """The training pairs of a paraphrase identification (``(s1, s2, is_paraphrase)``), as its
    signature's ``train`` names them: a hash of each pair's texts (a token list or Sentence by
    its tokens, told apart from a text, which the annotator splits) and label, in order.

    Why: the threshold and the features model are fitted on them, so two training files gave
    other figures under one signature, as two ``--idf-from`` files would without ``idf``."""
    return short_hash(f"{_text(a)}\t{_text(b)}\t{'1' if label else '0'}\n".encode() for a, b, label in pairs)


def _text(sentence: Any) -> str:
    if isinstance(sentence, str):
        return f"s:{sentence}"
    return "t:" + "\x1f".join(getattr(sentence, "tokens", sentence))


def _uses_encoder(signal: Any, feature_set: str | None, fine_tuning: Any) -> bool:
    if fine_tuning is not None or getattr(signal, "name", signal) in ENCODER_SIGNALS:
        return True
    if feature_set is None:
        return False
    from .features import feature_set as named

    return _has_encoder_features(named(feature_set))


#: The parts of a signature that name what a run was computed with rather than what it was
#: asked for: a saved model used with others may score pairs differently (:func:`saved_model_notes`).
ENVIRONMENT_PARTS: tuple[str, ...] = ("version", "spacy", "stopwords", "sim", "encoder")


def saved_model_notes(saved: object, current: str, source: str) -> list[str]:
    """What to tell the user of a model report (`source`, whose ``signature`` is `saved`) used
    in a run of signature `current`: the parts of :data:`ENVIRONMENT_PARTS` that differ (a model
    fitted by another paralign version, spaCy model, word-similarity source or encoder, whose
    features or alignments may now be computed differently), or that the report records none."""
    if not isinstance(saved, str) or "version:" not in saved:
        return [f"{source} records no signature (no paralign version): it may have been fitted by another "
                "version, whose features or alignments were computed differently; retrain it to be sure"]
    then, now = signature_parts(saved), signature_parts(current)
    changed = [key for key in ENVIRONMENT_PARTS if key in then and key in now and then[key] != now[key]]
    if not changed:
        return []
    was = ", ".join(f"{key} {then[key]}" for key in changed)
    is_ = ", ".join(f"{key} {now[key]}" for key in changed)
    remedy = ("give --encoder the model it was fitted with (its package or folder), or retrain it"
              if changed == ["encoder"] else "retrain it to be sure")
    return [f"{source} was fitted with {was}; this run has {is_}: the pairs' features and alignments may be "
            f"computed differently, so its scores and decisions may differ from the report's; {remedy}"]


def scored_aligner(signal: Any, aligner: AlignFunction | Any | None, signature: str) -> str:
    """How results name the aligner whose alignments `signal`'s scores read: `aligner`'s label
    (:func:`aligner_label`) for a signal that reads the pair's alignment; else the aligner part
    of its `signature` (`similarity_signature(signal, aligner)`): the signal's own aligner
    (``contextual-alignment`` realigns with ``sultan:contextual``), or ``none`` for one that
    reads no alignment (``embedding``), which `aligner` would have named though it aligned nothing
    (``none`` as the signature's ``sim:none``)."""
    if needs_alignment(signal):
        return aligner_label(aligner)
    return signature_parts(signature).get("aligner", "none")
