"""The exact-match baseline aligner: identical lower-cased tokens, one-to-one, left to right.

:func:`exact_match_aligner` is the alignment function (the registry's ``exact``);
:class:`ExactAligner` is the same aligner as an object with the Sultan aligner's batch methods
(``annotate``, ``align_sentences``, ``align_annotated``), which ``paralign align`` and
:func:`~paralign.aligners.evaluation.evaluate_aligner` take, so the baseline is run and scored
on the same path, and the same gold, as the other aligners.

Not for: real alignment (no context, no paraphrases); it is the floor the Sultan aligner is
measured against.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..alignment import Alignment, is_blank
from ..errors import check_count, check_pairs, check_progress
from ..nlp import (
    Annotator,
    TextOrTokens,
    check_annotator,
    check_sentences,
    check_text_or_tokens,
    default_annotator,
)
from ..sentence import Sentence, check_sentence
from ..shown_text import plain_text, shown_form
from ..workers import Progress, in_steps
from .annotating import annotate_and_align


def exact_match_aligner(source: Sentence | TextOrTokens, target: Sentence | TextOrTokens) -> Alignment:
    """Baseline: link identical lower-cased tokens one-to-one, left to right (no context);
    tokens compared as they show (invisible characters dropped, NFC), as annotation reads a text.

    Sentences are annotated Sentences, token lists (used as they are) or texts (tokenised by
    :func:`paralign.annotate`, as the batches do). A sentence with no words (empty, white space
    only: :func:`~paralign.alignment.is_blank`) has nothing to align: the empty alignment, as
    every aligner of the registry gives. A value that is not a sentence is an InputTypeError
    naming its side (the other may be blank)."""
    for side, item in (("source", source), ("target", target)):
        if not isinstance(item, Sentence):
            check_text_or_tokens(item, side)
    if is_blank(source) or is_blank(target):
        return Alignment()
    free: dict[str, list[int]] = {}
    for j, tok in enumerate(_tokens(target)):
        free.setdefault(shown_form(tok).lower(), []).append(j)
    links = []
    for i, tok in enumerate(_tokens(source)):
        slots = free.get(shown_form(tok).lower())
        if slots:
            links.append((i, slots.pop(0)))
    return Alignment.from_links(links)


def _tokens(item: Sentence | TextOrTokens) -> tuple[str, ...]:
    if isinstance(item, Sentence):
        return item.tokens
    if isinstance(item, str):
        return next(iter(_tokenised(None, [item])))
    return tuple(item)


def _tokenised(annotator: Annotator | None, texts: Sequence[str]) -> Iterable[tuple[str, ...]]:
    """The tokens `annotator` (else the default one) gives each text when it annotates it, from
    its tokenizer alone (:meth:`Annotator.tokenize`: no tagging, parsing or lemmas, which the
    exact aligner does not read; the parse was about 95% of its time on MSR RTE2 test); an
    annotator object of another kind (one with ``pipe`` alone) annotates them whole. A text
    longer than the pipeline's ``max_length`` is refused as a parse refuses it (spaCy's E088
    ValueError), so a text fails alike whichever aligner reads it."""
    annotator = annotator or default_annotator()
    tokenize = getattr(annotator, "tokenize", None)
    if callable(tokenize):
        _check_lengths(annotator, texts)
        return tokenize(texts)
    return (sentence.tokens for sentence in annotator.pipe(texts))


def _check_lengths(annotator: Annotator, texts: Sequence[str]) -> None:
    """spaCy's E088 ValueError for the first of `texts` longer than `annotator`'s pipeline's
    ``max_length`` (as it shows: :func:`~paralign.shown_text.plain_text`, what a parse is given),
    which its tokenizer alone does not check: a 1,000,000-character sentence failed the parse of
    every aligner's batch, but was tokenised for the exact aligner's and scored."""
    limit = getattr(getattr(annotator, "nlp", None), "max_length", None)
    if not isinstance(limit, int):
        return
    for text in texts:
        if len(text) > limit and len(shown := plain_text(text)) > limit:
            from spacy.errors import Errors

            raise ValueError(Errors.E088.format(length=len(shown), max_length=limit))


@dataclass(frozen=True, slots=True)
class ExactAligner:
    """:func:`exact_match_aligner` as an aligner object, for what takes one (``paralign align
    --aligner exact``, ``evaluate_aligner(ExactAligner(), gold)``): texts are tokenised by
    spaCy (`annotator`, else the default one) and token lists kept exactly, as the Sultan
    aligner annotates them, so its links index the same tokens. It reads tokens alone, so its
    :meth:`annotate` neither tags nor parses: texts go through spaCy's tokenizer only, and token
    lists (a gold's) through no spaCy at all. It has no options, so nothing to tune (no
    ``with_params``), and loads no word-similarity data (``related`` is None).

    >>> ExactAligner().align("The cat sat.", "the cat slept.").to_pharaoh()
    '0-0 1-1 3-3'
    """

    annotator: Annotator | None = None

    def __post_init__(self) -> None:
        check_annotator(self.annotator)

    @property
    def related(self) -> None:
        """No word-similarity source (the evaluators ask for it to load it before timing)."""
        return None

    def annotate(self, items: Iterable[TextOrTokens], workers: int = 1,
                 progress: Progress | None = None) -> list[Sentence]:
        """Sentences of tokens alone (:meth:`Sentence.plain`: what the exact aligner reads) for
        texts (spaCy's tokens, the ones a full annotation gives: :func:`_tokenised`) and token
        lists (kept exactly; an annotated Sentence's tokens), in this process whatever `workers`
        is (tokenising costs less than starting a worker); ``progress`` is given the sentences
        as they are made (:class:`~paralign.workers.Steps` ``"annotating"``).

        Why: it ran the whole spaCy pipeline (tagger, parser, lemmatizer, entities) for links
        between equal lower-cased tokens: about 8.5 s of annotation on MSR RTE2 test's 800 gold
        pairs, whose tokens are given, for the same links."""
        check_count(workers, "workers")
        check_progress(progress)
        originals = check_sentences(items, "items")
        texts = [item for item in originals if isinstance(item, str)]
        tokens = iter(_tokenised(self.annotator, texts) if texts else ())

        def sentences() -> Iterable[Sentence]:
            for item in originals:
                if isinstance(item, str):
                    yield Sentence.plain(next(tokens))
                else:
                    yield Sentence.plain(item.tokens if isinstance(item, Sentence) else [str(w) for w in item])

        return list(in_steps(progress, sentences(), len(originals), "annotating"))

    def align(self, source: Sentence | TextOrTokens, target: Sentence | TextOrTokens) -> Alignment:
        """Align two texts, token lists or annotated Sentences (texts annotated first)."""
        for side, item in (("source", source), ("target", target)):
            if not isinstance(item, Sentence):
                check_text_or_tokens(item, side)
        s, t = (x if isinstance(x, Sentence) else self.annotate([x])[0] for x in (source, target))
        return exact_match_aligner(s, t)

    def __call__(self, source: Sentence | TextOrTokens, target: Sentence | TextOrTokens) -> Alignment:
        """The aligner as an alignment function (:meth:`align`)."""
        return self.align(source, target)

    def align_many(self, pairs: Iterable[tuple[Sentence | TextOrTokens, Sentence | TextOrTokens]],
                   workers: int = 1, progress: Progress | None = None) -> list[Alignment]:
        """Align many pairs (texts, token lists or annotated Sentences) in input order, as the
        Sultan and contextual aligners' ``align_many`` do: one tokenising pass (:meth:`annotate`),
        then :meth:`align_annotated`, in this process whatever `workers` is. An item that is not
        a (source, target) pair, or whose sentence is not one, is an InputTypeError naming it.
        Before, the baseline had none: code written for ``Aligner().align_many`` stopped with an
        AttributeError when given the baseline to compare with."""
        return annotate_and_align(self, pairs, workers, progress)

    def align_sentences(self, source: Sentence, target: Sentence) -> Alignment:
        """Align two annotated sentences (InputTypeError for a text: :meth:`align` takes those)."""
        check_sentence(source, "source")
        check_sentence(target, "target")
        return exact_match_aligner(source, target)

    def align_annotated(self, pairs: Sequence[tuple[Sentence, Sentence]], workers: int = 1,
                        progress: Progress | None = None) -> list[Alignment]:
        """Align annotated pairs in input order, in this process whatever `workers` is (a
        pair's exact matches cost less than sending it to a worker); ``progress`` is given the
        alignments as they come (``"aligning"``). A `workers` that is not a count or an item
        that is not a pair of Sentences is named, as by the Sultan aligner."""
        check_count(workers, "workers")
        check_progress(progress)
        pairs = check_pairs(pairs)
        return list(in_steps(progress, (self.align_sentences(s, t) for s, t in pairs), len(pairs), "aligning"))
