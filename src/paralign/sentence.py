"""An immutable annotated sentence: parallel per-token arrays with light Token/Span views."""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import overload

from .errors import (
    FormatError,
    InputTypeError,
    MismatchError,
    ParalignError,
    TokenIndexError,
    check_texts,
    shown_value,
)

ROOT = -1  #: head index of a sentence's root token


#: A typographic apostrophe inside a word ("don’t", "president’s", "O’Reilly").
_WORD_APOSTROPHE = re.compile("(?<=\\w)\u2019(?=\\w)")


def ascii_apostrophes(text: str) -> str:
    """Text with word-internal typographic apostrophes (U+2019) made ASCII, as PTB tokenisers do.

    Same length as `text`, so character offsets still hold. Closing quotes are left alone.
    """
    return _WORD_APOSTROPHE.sub("'", text) if "\u2019" in text else text


def fold_apostrophe(token: str) -> str:
    """A token with every U+2019 made ASCII: "’s", "n’t" become the clitics "'s", "n't"."""
    return token.replace("\u2019", "'") if "\u2019" in token else token


@dataclass(frozen=True, slots=True)
class Entity:
    """A named-entity span [start, end) with its type (spaCy label, e.g. PERSON, GPE)."""

    start: int
    end: int
    label: str

    def __post_init__(self) -> None:
        """Token indices and a label, or an InputTypeError naming the field (a None start was
        kept, then failed in a Sentence as "'<=' not supported between ...")."""
        for name, value in (("start", self.start), ("end", self.end)):
            if type(value) is not int and not _index(value):
                raise InputTypeError(f"Entity {name} must be a token index (an int), not "
                                     f"{type(value).__name__} {shown_value(value)}")
        if not isinstance(self.label, str):
            raise InputTypeError(f"Entity label must be a str (spaCy's, e.g. 'PERSON'), not "
                                 f"{type(self.label).__name__} {shown_value(self.label)}")


@dataclass(frozen=True, slots=True)
class Token:
    """A read-only view of one token of a Sentence (``sentence[i]``); `i` must be a token's
    index (TokenIndexError, as ``sentence[i]`` raises, instead of an IndexError later)."""

    sentence: Sentence
    i: int

    def __post_init__(self) -> None:
        check_sentence(self.sentence, "Token's sentence", "annotate")  # None was an AttributeError
        if type(self.i) is not int and not _index(self.i):  # "'<=' not supported" before
            raise InputTypeError(f"Token's i must be a token index (an int), not {type(self.i).__name__} "
                                 f"{shown_value(self.i)}")
        if not 0 <= self.i < len(self.sentence.tokens):
            raise TokenIndexError(f"token {self.i} outside a {len(self.sentence.tokens)}-token sentence")

    @property
    def text(self) -> str:
        """The token as written."""
        return self.sentence.tokens[self.i]

    @property
    def lemma(self) -> str:
        """Its lemma (the token itself when the sentence is not annotated)."""
        return self.sentence.lemmas[self.i]

    @property
    def tag(self) -> str:
        """Penn Treebank tag."""
        return self.sentence.tags[self.i]

    @property
    def pos(self) -> str:
        """Universal POS tag."""
        return self.sentence.pos[self.i]

    @property
    def head(self) -> int:
        """Index of the dependency head, or ROOT (-1)."""
        return self.sentence.heads[self.i]

    @property
    def dep(self) -> str:
        """Dependency label of the arc to its head."""
        return self.sentence.deps[self.i]

    @property
    def whitespace(self) -> bool:
        """Whether a space follows the token in the text."""
        return self.sentence.whitespace[self.i]

    @property
    def entity(self) -> Entity | None:
        """The named entity the token belongs to, if any."""
        return self.sentence.entity_at(self.i)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Sentence:
    """Tokens with lemmas, Penn and universal POS, dependencies, entities and whitespace flags.

    Every array has one entry per token. ``heads[i]`` is the index of token i's head, ROOT (-1)
    for the root. Build one with :func:`paralign.annotate` or :meth:`Sentence.plain`.
    """

    tokens: tuple[str, ...]
    lemmas: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    pos: tuple[str, ...] = ()
    heads: tuple[int, ...] = ()
    deps: tuple[str, ...] = ()
    entities: tuple[Entity, ...] = ()
    whitespace: tuple[bool, ...] = ()
    _entity_index: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.tokens, str):  # its characters would become the tokens
            raise InputTypeError(f"Sentence takes a list of tokens, not one str ({self.tokens[:40]!r}):"
                                 " paralign.annotate(text) tokenises a text")
        if not isinstance(self.tokens, Iterable):
            raise InputTypeError(f"Sentence takes a list of tokens, not {type(self.tokens).__name__} "
                                 f"{shown_value(self.tokens)}")
        object.__setattr__(self, "tokens", tuple(self.tokens))  # lists would break hashing
        try:
            "".join(self.tokens)  # fails on a token that is not a str, in C (an int was refused only by repr())
        except TypeError:
            check_texts(self.tokens, "Sentence tokens")  # names the token by its number
        object.__setattr__(self, "entities", _layer("entities", self.entities))
        n = len(self.tokens)
        defaults: dict[str, tuple] = {
            "lemmas": self.tokens,
            "tags": ("",) * n,
            "pos": ("",) * n,
            "heads": (ROOT,) * n,
            "deps": ("",) * n,
            "whitespace": (True,) * n,
        }
        for name, default in defaults.items():
            value = _layer(name, getattr(self, name))
            if not value and n:
                object.__setattr__(self, name, tuple(default))
            elif len(value) != n:
                raise MismatchError(f"Sentence.{name} has {len(value)} entries for {n} tokens")
            else:
                object.__setattr__(self, name, tuple(value))
        for i, head in enumerate(self.heads):
            if isinstance(head, bool) or not isinstance(head, int):
                raise InputTypeError(f"Sentence.heads: item {i + 1} is {type(head).__name__} "
                                     f"{shown_value(head)}, not a token index (an int)")
            if head != ROOT and not 0 <= head < n:
                raise FormatError(f"token {i} ({self.tokens[i]!r}) has head {head}, outside a {n}-token sentence")
        index = [-1] * n
        for k, ent in enumerate(self.entities):
            if not isinstance(ent, Entity):
                raise InputTypeError(f"Sentence.entities: item {k + 1} is {type(ent).__name__} "
                                     f"{shown_value(ent)}, not an Entity(start, end, label)")
            if not 0 <= ent.start < ent.end <= n:
                raise FormatError(f"entity span {ent.start}:{ent.end} outside a {n}-token sentence")
            for i in range(ent.start, ent.end):
                index[i] = k
        object.__setattr__(self, "_entity_index", tuple(index))

    @classmethod
    def plain(cls, tokens: Sequence[str]) -> Sentence:
        """A sentence with tokens only (no annotation): lemmas = tokens, no parse."""
        return cls(tokens=tokens)  # type: ignore[arg-type]  # __post_init__ checks it, makes a tuple

    def __len__(self) -> int:
        return len(self.tokens)

    @overload
    def __getitem__(self, i: int) -> Token: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Token, ...]: ...

    def __getitem__(self, i: int | slice) -> Token | tuple[Token, ...]:
        """Token `i` (negative counts from the end), or a tuple of the tokens of a slice."""
        n = len(self.tokens)
        if isinstance(i, slice):
            return tuple(Token(self, k) for k in range(*i.indices(n)))
        try:
            i = operator.index(i)  # an int, or numpy's integers
        except TypeError:
            raise InputTypeError(f"a sentence is indexed by an int or a slice, not {type(i).__name__} "
                                 f"{shown_value(i)}") from None
        if not -n <= i < n:
            raise TokenIndexError(f"token {i} outside a {n}-token sentence")
        return Token(self, i % n)

    def __iter__(self) -> Iterator[Token]:
        return (Token(self, i) for i in range(len(self.tokens)))

    def __repr__(self) -> str:
        """The tokens and which annotation layers the sentence has, e.g.
        ``Sentence('The cat sat .' | lemmas tags pos heads deps)``."""
        layers = [name for name in ("lemmas", "tags", "pos", "heads", "deps") if getattr(self, name)]
        if self.entities:
            layers.append(f"entities={len(self.entities)}")
        shown = " ".join(self.tokens)
        shown = shown if len(shown) <= 120 else shown[:117] + "..."
        return f"Sentence({shown!r}" + (f" | {' '.join(layers)})" if layers else ")")

    @property
    def text(self) -> str:
        """The sentence text, rebuilt from tokens and whitespace flags."""
        parts = []
        for tok, ws in zip(self.tokens, self.whitespace, strict=True):
            parts.append(tok + (" " if ws else ""))
        return "".join(parts).rstrip()

    def entity_at(self, i: int) -> Entity | None:
        """The named entity covering token i, if any."""
        k = self._entity_index[i]
        return self.entities[k] if k >= 0 else None

    def children(self, i: int) -> list[int]:
        """Indices of the tokens whose head is token i."""
        return [j for j, h in enumerate(self.heads) if h == i]

    def to_dict(self) -> dict:
        """A JSON-ready record of every annotation (read back by :meth:`from_dict`)."""
        return {
            "tokens": list(self.tokens),
            "lemmas": list(self.lemmas),
            "tags": list(self.tags),
            "pos": list(self.pos),
            "heads": list(self.heads),
            "deps": list(self.deps),
            "entities": [[e.start, e.end, e.label] for e in self.entities],
            "whitespace": list(self.whitespace),
        }

    @classmethod
    def from_dict(cls, data: dict, *, source: str | None = None, line: int | None = None) -> Sentence:
        """The sentence :meth:`to_dict` wrote; a malformed record is a FormatError naming
        `source` and `line` when given."""
        try:
            return cls(
                tokens=tuple(data["tokens"]),
                lemmas=tuple(data.get("lemmas", ())),
                tags=tuple(data.get("tags", ())),
                pos=tuple(data.get("pos", ())),
                heads=tuple(data.get("heads", ())),
                deps=tuple(data.get("deps", ())),
                entities=tuple(Entity(s, e, label) for s, e, label in data.get("entities", ())),
                whitespace=tuple(data.get("whitespace", ())),
            )
        except ParalignError as exc:
            raise FormatError(f"bad sentence record: {exc}", source=source, line=line) from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
            raise FormatError(f"bad sentence record: {what}", source=source, line=line) from exc


def _index(value: object) -> bool:
    """Is `value` a whole number that indexes a token (an int, numpy's too; not a bool)?"""
    return not isinstance(value, bool) and isinstance(value, Integral)


def _layer(name: str, value: object) -> tuple:
    """An annotation layer of a Sentence as a tuple (None or empty: none); one str (its
    characters would be the entries) or a value that is not a list is an InputTypeError naming
    the layer, where len() of a number raised "object of type 'float' has no len()"."""
    if value is None:
        return ()
    if isinstance(value, str | bytes) and value or not isinstance(value, Iterable):
        raise InputTypeError(f"Sentence.{name} must be a list (one entry per token), not "
                             f"{type(value).__name__} {shown_value(value)}")
    return tuple(value)


def check_sentence(value: object, what: str, text_method: str = "align") -> None:
    """InputTypeError unless `value` is an annotated :class:`Sentence`: a method that takes
    annotated sentences, given a text or a token list, says what to call instead (`annotate`, or
    the same object's `text_method`) rather than failing deep inside with an AttributeError."""
    if not isinstance(value, Sentence):
        raise InputTypeError(
            f"{what} must be an annotated Sentence (paralign.annotate(text)), not {type(value).__name__} "
            f"{shown_value(value)}; {text_method}() takes texts and token lists")
