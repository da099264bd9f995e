"""eflomal corpus alignment: tokenisation, symmetrisations, Pharaoh output, checked input."""

from __future__ import annotations

import random
import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from paralign.aligners.eflomal import (
    SYMMETRIZATIONS,
    EflomalAligner,
    align_tokenized,
    iter_symmetrized,
    run_eflomal,
    tokenize,
    word_align_files,
)
from paralign.alignment import Alignment
from paralign.errors import ConfigurationError, FormatError, MismatchError
from paralign.shown_text import unescape_entities, without_invisible


def synthetic_corpus(n: int = 150, seed: int = 1) -> tuple[list[list[str]], list[list[str]]]:
    """English-German toy sentences `det noun is adj` with a known one-to-one diagonal alignment."""
    rng = random.Random(seed)
    dets = [("the", "das"), ("a", "ein"), ("this", "dieses")]
    nouns = [("house", "haus"), ("book", "buch"), ("dog", "tier"), ("car", "auto"), ("boat", "schiff")]
    adjs = [("small", "klein"), ("big", "gross"), ("red", "rot"), ("old", "alt")]
    src, tgt = [], []
    for _ in range(n):
        d, w, a = rng.choice(dets), rng.choice(nouns), rng.choice(adjs)
        src.append([d[0], w[0], "is", a[0]])
        tgt.append([d[1], w[1], "ist", a[1]])
    return src, tgt


def test_tokenize_methods():
    assert tokenize("Two young, White males don't go.", lowercase=True) == [
        "two", "young", ",", "white", "males", "do", "n't", "go", ".",
    ]
    assert tokenize("the man's T-shirt costs 3.50") == ["the", "man", "'s", "T-shirt", "costs", "3.50"]
    assert tokenize("Yes , we &apos;re", "moses") == ["Yes", ",", "we", "'re"]
    assert tokenize("a  b\tc", "whitespace") == ["a", "b", "c"]
    assert tokenize("Ä  İx\u2003B", "whitespace", lowercase=True) == ["ä", "İx".lower(), "b"]
    with pytest.raises(ConfigurationError):
        tokenize("x", "nosuch")
    with pytest.raises(ConfigurationError, match="unknown tokenizer 'spacy'"):  # a lattice's, not a corpus's
        EflomalAligner(tokenizer="spacy")


@given(st.text(max_size=60))
@example("&quot;")  # found by hypothesis once the tokenizer read character references
def test_regex_tokenizer_keeps_every_character(text):
    """Every character that shows: HTML character references are read as their characters
    (``&quot;`` shows ``"``), invisible ones (a soft hyphen, a zero-width space) dropped and the
    text read in NFC first (tests/test_tokenizers.py)."""
    tokens = tokenize(text)
    shown = unicodedata.normalize("NFC", without_invisible(unescape_entities(text)))
    assert "".join(tokens) == "".join(shown.split())
    assert all(token and not any(ch.isspace() for ch in token) for token in tokens)


def test_eflomal_recovers_a_clear_diagonal_alignment():
    src, tgt = synthetic_corpus()
    alignments = align_tokenized(src, tgt, n_iterations=3)
    diagonal = {(i, i) for i in range(4)}
    assert sum(a.sure == diagonal for a in alignments) >= 0.95 * len(src)


def test_symmetrizations_are_nested(tmp_path):
    src, tgt = synthetic_corpus(60, seed=3)
    src = [s + ["."] for s in src]  # an extra token makes the directions disagree somewhere
    fwd, rev = tmp_path / "fwd", tmp_path / "rev"
    run_eflomal((" ".join(s) for s in src), (" ".join(t) for t in tgt), fwd, rev, n_iterations=2)
    results = {m: list(iter_symmetrized(fwd, rev, m)) for m in SYMMETRIZATIONS}
    for k in range(len(src)):
        inter, union = results["intersection"][k], results["union"][k]
        gd, gdf, gdfa = results["grow-diag"][k], results["grow-diag-final"][k], results["grow-diag-final-and"][k]
        assert inter <= gd <= gdfa <= gdf <= union
        assert all(i < len(src[k]) and j < len(tgt[k]) for i, j in union)
    with pytest.raises(ConfigurationError):
        list(iter_symmetrized(fwd, rev, "both"))


def test_aligner_interface_tokenises_strings():
    aligner = EflomalAligner("intersection", n_iterations=3)
    src, tgt = synthetic_corpus(80)
    pairs = [(" ".join(s).upper(), t) for s, t in zip(src, tgt, strict=True)]
    alignments = aligner.align_many(pairs)
    assert len(alignments) == 80 and all(isinstance(a, Alignment) for a in alignments)
    assert aligner.tokens("The DOG.") == ["the", "dog", "."]
    assert aligner.align_many([]) == []
    with pytest.raises(MismatchError):
        align_tokenized([["a"]], [])


def test_word_align_files_stays_line_aligned(tmp_path):
    src, tgt = synthetic_corpus(50)
    src_lines = [" ".join(s) for s in src]
    tgt_lines = [" ".join(t) for t in tgt]
    src_lines[5] = ""  # an empty line keeps its (empty) alignment line
    src_lines[7] = "word " * 150  # over-long: skipped, empty alignment line
    (tmp_path / "s.txt").write_text("\n".join(src_lines) + "\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("\n".join(tgt_lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.pharaoh"
    with pytest.warns(UserWarning, match="1 empty, 1 over-long"):
        result = word_align_files(tmp_path / "s.txt", tmp_path / "t.txt", out, n_iterations=3,
                                  tokens_prefix=tmp_path / "tok")
    lines = out.read_text(encoding="utf-8").split("\n")[:-1]
    assert len(lines) == 50 and lines[5] == "" and lines[7] == ""
    assert result == {"output": str(out), "tokenizer": "regex", "target_tokenizer": "regex", "lines": 50,
                      "aligned": 48, "empty": 1, "too_long": 1, "replaced": 0}
    parsed = [Alignment.from_pharaoh(line) for line in lines]
    tokens = (tmp_path / "tok.src").read_text(encoding="utf-8").split("\n")
    for alignment, line in zip(parsed, tokens, strict=False):
        assert all(i < len(line.split()) for i, _ in alignment.sure)


def test_word_align_files_bad_input(tmp_path):
    (tmp_path / "s.txt").write_text("a b\nc\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("x\n", encoding="utf-8")
    with pytest.raises(MismatchError, match="s.txt has 2 lines"):
        word_align_files(tmp_path / "s.txt", tmp_path / "t.txt", tmp_path / "o")
    (tmp_path / "t.txt").write_bytes(b"x\n\xc3(\n")
    with pytest.raises(FormatError, match=r"t\.txt:2"):
        word_align_files(tmp_path / "s.txt", tmp_path / "t.txt", tmp_path / "o")
    assert not (tmp_path / "o").exists()
    with pytest.raises(ConfigurationError, match="output path"):  # library code never writes stdout
        word_align_files(tmp_path / "s.txt", tmp_path / "t.txt", "-")


def test_empty_corpus_is_a_format_error_naming_the_files(tmp_path, capsys):
    from paralign.cli import main

    with pytest.raises(FormatError, match="no sentence pairs"):
        run_eflomal([], [], tmp_path / "f", tmp_path / "b")
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(FormatError, match=r"empty\.txt: no sentence pairs to align"):
        word_align_files(empty, empty, tmp_path / "o")
    assert not (tmp_path / "o").exists()
    assert main(["word-align", "--source", str(empty), "--target", str(empty)]) == 1
    assert "empty.txt: no sentence pairs to align" in capsys.readouterr().err


def test_lines_eflomal_cannot_align_are_counted_as_skipped(tmp_path):
    """eflomal leaves a sentence of 1024 tokens or more unaligned (an empty line in both
    directions), and a line whose text holds no token (only invisible characters, as `regex`
    reads it) has nothing to align: word-align counted both as aligned ("aligned 48 of 50")
    with empty links. They are counted now, as the reader counts an over-long or empty line."""
    src, tgt = synthetic_corpus(50)
    src_lines = [" ".join(s) for s in src]
    tgt_lines = [" ".join(t) for t in tgt]
    src_lines[3] = " ".join(f"w{k}" for k in range(1024))  # under --max-tokens, over eflomal's limit
    tgt_lines[4] = "\u200b"  # a line, but no token
    (tmp_path / "s.txt").write_text("\n".join(src_lines) + "\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("\n".join(tgt_lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.pharaoh"
    with pytest.warns(UserWarning, match="48 of 50 line pairs kept; 1 empty, 1 over-long"):
        result = word_align_files(tmp_path / "s.txt", tmp_path / "t.txt", out, n_iterations=3,
                                  tokenizer="regex", max_tokens=2000)
    assert result == {"output": str(out), "tokenizer": "regex", "target_tokenizer": "regex", "lines": 50,
                      "aligned": 48, "empty": 1, "too_long": 1, "replaced": 0}
    lines = out.read_text(encoding="utf-8").split("\n")[:-1]
    assert len(lines) == 50 and lines[3] == lines[4] == ""
    assert all(lines[k] for k in range(50) if k not in (3, 4))
