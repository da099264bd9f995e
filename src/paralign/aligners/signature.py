"""How an alignment's settings appear in a signature, sacrebleu-style (``key:value|...|version:X``).

Two users who compare alignments, or scores read off them, can tell which settings made them.
An aligner signature records every setting that changes an alignment and nothing else (not
``--workers``, ``--chunk-size`` or the device):

* ``aligner``: the aligner and its preset as :func:`~paralign.aligners.registry.aligner_label`
  writes them (``sultan:paraphrase``, ``sultan:contextual``, ``exact``); a Sultan aligner
  built from options is named by the preset its options are closest to;
* ``opts``: each option of :class:`~paralign.aligners.sultan.AlignerConfig` that differs from
  that preset (``w=0.8,context_only_links=2``), when any does;
* ``sim``: the word-similarity source, named as ParaEval's signature names sources (a
  built-in with its version, ``ppdb-1.0-xxxl-lexical``, ``wordnet-3.0``; a table by its
  basename, threshold, the tokenizer that splits each word it is asked for when it records one
  (``~regex``: a table that pivot built) and content hash; ``none``), sources joined by ``+``;
* the contextual aligner's ``links`` (the link model's name and a hash of its trees),
  ``minconf`` (its confidence threshold) and ``encoder`` (package and version);
* ``tok``: ``none`` for pairs aligned on the input's own tokens, split on white space
  (``align --tokenized``) or given as JSON token lists (per pair: ``InputPair.own_sides``),
  as sacrebleu's and ParaEval's ``tok:none`` say no tokenizer ran, ``none/spacy`` or
  ``spacy/none`` (source/target) for a pair given tokens on one side and text on the other
  (:func:`tokens_part`); absent, spaCy's tokens (a gold file's pairs are always on its own
  tokens, as every command that reads one aligns them, and sign as they always have); one
  signature over many pairs (``similarity``'s) names a side ``mixed`` where its pairs differ
  (:func:`batch_tokens_part`);
* ``stopwords``: the stop-word list of the NLTK data when it is not the 127-word list of 2014
  that paralign's figures use (its size and a hash: it is data, and ``paralign download``
  fetches NLTK's current list), for every aligner but the exact one;
* ``spacy``: the spaCy model that annotates (name and version), for every aligner but the exact
  one on sentences given as tokens (`given_tokens`: a gold's, the input's own), which it reads
  with no spaCy at all (:class:`~paralign.aligners.exact.ExactAligner`); ``version``: paralign's.

Not for: aligning, similarity signals (:mod:`paralign.similarity.signature` adds those) or
ParaEval's own signature (:mod:`paralign.metrics.paraeval.signature`, whose source naming this
module reuses).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from typing import Any

from ..alignment import AlignFunction
from ..signature import join_signature, name_part, setting_value, short_hash, signature_parts
from .registry import (
    PresetAligner,
    aligner_label,
    is_contextual_aligner,
    is_exact_aligner,
    resolve_aligner,
)

#: The presets a Sultan aligner built from options may be named after, in order of preference.
NAMED_PRESETS = ("default", "paper", "paraphrase")


def alignment_signature(aligner: AlignFunction | Any | None, *, given_tokens: bool = False, **extra: object) -> str:
    """The signature of alignments made by `aligner` (an alignment function from
    :func:`~paralign.aligners.registry.get_aligner`, an ``Aligner`` or ``ContextualAligner``
    object, None for the default Sultan aligner); `extra` parts (e.g. ``gold="sure"``) come
    after the aligner's, before ``spacy`` and ``version``. `given_tokens`: the sentences were
    given as tokens (a gold's, the input's own), so the exact aligner used no spaCy model and
    names none (:func:`environment_parts`)."""
    return join_signature({**aligner_parts(aligner), **extra,
                           **environment_parts(aligner, given_tokens=given_tokens)})


def tokens_part(own_tokens: bool | tuple[bool, bool]) -> dict[str, str]:
    """The ``tok`` part of alignments of sentences given as text: ``{"tok": "none"}`` when they
    are the input's own tokens (`own_tokens`: split on white space by ``align --tokenized``, or
    a JSON record's token lists), nothing for spaCy's tokens, so that the signature of a run on
    spaCy's tokens stays as it was. `own_tokens` may be a flag per side (source, target): a
    pair whose one side is the input's own tokens and the other spaCy's (a JSON record giving a
    token list and a text) signs each side's tokenizer, source first: ``none/spacy`` or
    ``spacy/none``.

    Why: the Pharaoh indices are of the tokens aligned, and other tokens give other links
    (``The cat's toy .``: 4 tokens split on white space, 5 of spaCy's), but ``align`` signed
    both runs alike, and its Pharaoh, pretty, SVG and HTML outputs carry no tokens beside it;
    a pair given tokens on one side only signed as if spaCy had split both."""
    source, target = own_tokens if isinstance(own_tokens, tuple) else (own_tokens, own_tokens)
    return _tok_part(_tokenizer({source}), _tokenizer({target}))


def batch_tokens_part(sides: Iterable[tuple[bool, bool]]) -> dict[str, str]:
    """The ``tok`` part of one signature over many pairs (``similarity``'s run, a
    ``similarity_many`` batch), `sides` each pair's (source, target) flags as
    :func:`tokens_part` takes them: each side named as :func:`tokens_part` names it when every
    pair's agrees, ``mixed`` where some pairs give that side as their own tokens and others as
    text for spaCy (``tok:mixed``; ``tok:none/mixed``); nothing when no pair gave its own tokens
    (or there is no pair), so a run on texts signs as it always has.

    Why: a run's scores change with the tokens its pairs were given (a JSON record's token
    lists), but ``similarity`` signed a run on token lists as one on texts, where ``align``
    signs each pair's ``tok``."""
    seen = set(sides)
    return _tok_part(_tokenizer({source for source, _ in seen}), _tokenizer({target for _, target in seen}))


def _tokenizer(own: set[bool]) -> str:
    """One side's tokenizer over pairs whose flags for it are `own` (an empty set: none gave any)."""
    if len(own) > 1:
        return "mixed"
    return "none" if True in own else "spacy"


def _tok_part(source: str, target: str) -> dict[str, str]:
    """``tok`` of each side's tokenizer: one name when both agree (spaCy's on both: no part),
    else ``source/target``."""
    if source == target:
        return {} if source == "spacy" else {"tok": source}
    return {"tok": f"{source}/{target}"}


def tuning_signature(aligner: Any, grid: Mapping[str, Sequence[float]], **extra: object) -> str:
    """The signature of a grid search over some of `aligner`'s options (tune-aligner's ppdb_sim
    and w): what stays the same across the grid. The aligner's parts with the tuned options at
    their defaults, so that ``opts`` holds only the fixed options (no preset sets a tuned one);
    ``tuned``, each option with the values tried (``ppdb_sim=0.5/0.9,w=0.9``); `extra` (e.g. the
    gold links); ``spacy``; ``version``. A row of the grid is :func:`alignment_signature` of
    ``aligner.with_params(**its values)``."""
    from .sultan import AlignerConfig

    defaults = {f.name: f.default for f in fields(AlignerConfig) if f.name in grid}
    tuned = ",".join(f"{name}={setting_value(tuple(values))}" for name, values in grid.items())
    return join_signature({**aligner_parts(aligner.with_params(**defaults)), "tuned": tuned, **extra,
                           **environment_parts(aligner)})


def aligner_signature_parts(aligner: AlignFunction | Any | None) -> dict[str, str]:
    """The aligner's parts and its ``spacy`` model: what the signature of scores read off its
    alignments records of it, when the scorer may not know aligners (ParaMetric's
    ``align_scores_files`` takes them as ``system_parts``)."""
    return {**aligner_parts(aligner), **environment_parts(aligner)}


def environment_parts(aligner: AlignFunction | Any | None, *, stopwords: bool | None = None,
                      given_tokens: bool = False) -> dict[str, str]:
    """What `aligner` and the scores read off its alignments were computed with, last before
    paralign's version: ``stopwords`` (the NLTK data's stop-word list when it is not the shipped
    one: :func:`~paralign.metrics.paraeval.signature.stopwords_part`; `stopwords` None: unless
    `aligner` is the exact aligner, which reads none) and ``spacy`` (:func:`spacy_id`), unless
    `aligner` is the exact aligner and the sentences were `given_tokens`: it reads tokens alone,
    and tokens given pass through no spaCy model (another model changes none of its links)."""
    from ..metrics.paraeval.signature import stopwords_part

    exact = is_exact_aligner(resolve_aligner(aligner))
    if stopwords is None:
        stopwords = not exact
    listed = signature_parts(stopwords_part()) if stopwords else {}
    return listed if exact and given_tokens else {**listed, "spacy": spacy_id(aligner)}


def aligner_parts(aligner: AlignFunction | Any | None) -> dict[str, str]:
    """The aligner's part of a signature (see the module docstring), in order. A name
    (``"sultan:paraphrase"``) is resolved as ``similarity_many(aligner=...)`` resolves it. An
    alignment function of the caller's own is named by its ``__qualname__``; one holding ``|`` is a
    ConfigurationError (:func:`paralign.signature.name_part`): ``aligner:mine|2`` read back as two parts."""
    aligner = resolve_aligner(aligner)
    if aligner is None:
        aligner = PresetAligner("default")
    if isinstance(aligner, PresetAligner):
        return dict(_preset_parts(aligner.preset))
    if is_exact_aligner(aligner):
        return {"aligner": "exact"}
    owner = getattr(aligner, "__self__", None)  # a bound method, e.g. Aligner().align_sentences
    if owner is not None and _is_aligner(owner):
        aligner = owner
    if is_contextual_aligner(aligner):
        return _contextual_parts(aligner)
    if _is_aligner(aligner):
        return _sultan_parts(aligner)
    # a function of the caller's own, named by its __qualname__: no '|' (a signature computed before any pair)
    return {"aligner": name_part(aligner_label(aligner), "aligner:NAME", what="the aligner's name (its __qualname__)")}


@functools.cache
def _preset_parts(preset: str) -> tuple[tuple[str, str], ...]:
    """A preset's parts (the preset's aligner, built once per process as the registry builds it)."""
    from .registry import _preset_aligner

    built = _preset_aligner(preset)
    parts = _contextual_parts(built) if is_contextual_aligner(built) else _sultan_parts(built)
    return tuple(parts.items())


def _is_aligner(value: object) -> bool:
    from .sultan import Aligner

    return isinstance(value, Aligner) or is_contextual_aligner(value)


def _sultan_parts(aligner: Any, contextual: bool = False) -> dict[str, str]:
    """The lexical pipeline's parts: the ``contextual`` preset holds the default options."""
    preset, changed = ("contextual", differences(aligner.config, "default")) if contextual else \
        closest_preset(aligner.config)
    parts = {"aligner": f"sultan:{preset}"}
    if changed:
        parts["opts"] = ",".join(f"{key}={setting_value(value)}" for key, value in changed.items())
    parts["sim"] = similarity_id(aligner)
    return parts


def _contextual_parts(aligner: Any) -> dict[str, str]:
    from ..neural.model_files import encoder_id

    parts = _sultan_parts(aligner.lexical, contextual=True)
    parts["links"] = link_model_id(aligner.model)
    parts["minconf"] = setting_value(aligner.min_confidence)
    parts["encoder"] = encoder_id(aligner.encoder.model)
    return parts


def closest_preset(config: Any) -> tuple[str, dict[str, Any]]:
    """The named preset whose options differ least from `config` (the first of
    :data:`NAMED_PRESETS` on a tie) and the options that differ from it, in field order."""
    found = [(preset, differences(config, preset)) for preset in NAMED_PRESETS]
    return min(found, key=lambda item: len(item[1]))


def differences(config: Any, preset: str) -> dict[str, Any]:
    """The options of `config` (an AlignerConfig) that differ from `preset`'s, in field order."""
    from .sultan import AlignerConfig, preset_options

    base = AlignerConfig(**preset_options(preset))
    return {f.name: getattr(config, f.name) for f in fields(config)
            if getattr(config, f.name) != getattr(base, f.name)}


def similarity_id(aligner: Any) -> str:
    """The word-similarity source of a Sultan aligner: each part of its ``similarity`` spec
    named as ParaEval names sources (``none`` when word similarity is switched off). A source
    given as an object (a loaded table, ``align --similarity -``) is named as its spec would be:
    it was named with ``+spelling`` after it, the preset's spelling variants (a setting, which
    the string spec's name never held)."""
    if not aligner.config.use_word_similarity:
        return "none"
    spec = "ppdb" if aligner.similarity_spec is None else aligner.similarity_spec
    if not isinstance(spec, str):  # the source given, not aligner.related: that adds the preset's spelling variants
        from .sultan.wordsim import load_similarity

        return "+".join(_related_ids(load_similarity(spec))) or "none"
    loaded = aligner.loaded_related
    loaded = list(_tables(loaded)) if loaded is not None else None
    return "+".join(_part_id(part, loaded) for part in spec.split("+"))


def _part_id(part: str, loaded: list[Any] | None) -> str:
    from ..metrics.paraeval.signature import PPDB_VERSION, source_signature, wordnet_version

    if part == "ppdb":
        return PPDB_VERSION
    if part == "wordnet":
        return wordnet_version()
    if part in ("none", "spelling"):
        return part
    if loaded:  # the tables the aligner read, in the spec's order
        return source_signature(loaded.pop(0))
    from ..paraphrases import load_source

    return source_signature(load_source(part))


def _tables(related: Any) -> Iterator[Any]:
    """The paraphrase sources of a loaded related-word source that are tables, in order."""
    for part in getattr(related, "sources", None) or ():
        yield from _tables(part)
    source = getattr(related, "source", None)
    if source is not None:
        yield source


def _related_ids(related: Any) -> list[str]:
    """A related-word source given as an object, named part by part: a built-in by its type, one
    of the caller's own by its name (:func:`paralign.paraphrases.source_name`: not a built-in's)."""
    from ..metrics.paraeval.signature import PPDB_VERSION, source_signature, wordnet_version
    from ..paraphrases import source_name
    from .sultan.wordsim import NoSimilarity, PPDBSimilarity, SpellingSimilarity, WordNetSimilarity

    parts = getattr(related, "sources", None)
    if parts is not None:
        return [name for part in parts for name in _related_ids(part)]
    source = getattr(related, "source", None)
    if source is not None:
        return [source_signature(source)]
    if isinstance(related, PPDBSimilarity):  # the built-ins by their types: a custom "ppdb" is refused
        return [PPDB_VERSION]
    if isinstance(related, WordNetSimilarity):
        return [wordnet_version()]
    if isinstance(related, NoSimilarity | SpellingSimilarity):
        return [related.name]
    return [source_name(related, "the word-similarity source")]


def link_model_id(model: Any) -> str:
    """The contextual aligner's link model: a hash of its trees, thresholds and settings
    (both rounds), remembered on the model."""
    found = model.__dict__.get("_signature_hash")
    if found is None:
        found = short_hash(_model_bytes(model))
        model.__dict__["_signature_hash"] = found
    return f"trees#{found}"


def _model_bytes(model: Any) -> Iterator[bytes]:
    head = (model.features, model.baseline, model.depth, model.threshold, sorted(model.settings.items()))
    yield repr(head).encode()
    for array in (model.feature, model.threshold_at, model.left, model.right, model.value):
        yield array.tobytes()
    if model.stack is not None:
        yield from _model_bytes(model.stack)


def spacy_id(aligner: AlignFunction | Any | None = None) -> str:
    """The spaCy model that annotates for `aligner` (its own annotator's, else the default)."""
    from ..nlp import model_id

    owner = getattr(aligner, "__self__", aligner)
    annotator = getattr(getattr(owner, "lexical", owner), "annotator", None)
    return model_id(getattr(annotator, "model", None))
