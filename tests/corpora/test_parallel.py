"""Line-aligned parallel corpora (paralign.corpora.parallel): finding the chunks of a large file."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paralign.corpora.parallel
from paralign.corpora.alignments import read_pairs
from paralign.corpora.base import read_lines
from paralign.corpora.jacana import iter_jacana
from paralign.corpora.parallel import (
    ParallelCorpusWarning,
    ParallelStats,
    count_lines,
    iter_parallel,
    line_index,
)
from paralign.corpora.pharaoh import read_pharaoh
from paralign.corpora.wmt import iter_lines
from paralign.errors import FormatError
from paralign.tables import iter_rows
from paralign.textio import open_text


@settings(max_examples=200, deadline=None)
@given(data=st.lists(st.sampled_from([b"a", b"bb c", b"", b"\r", b"\n", b"\n\n", b"\xff"]), max_size=40).map(b"".join),
       chunk=st.integers(1, 6), block=st.sampled_from([1, 2, 3, 7, 1 << 24]))
def test_line_index_finds_the_lines_a_file_iterator_does(tmp_path_factory, data: bytes, chunk: int, block: int) -> None:
    """Every chunk_size-th line's byte offset and the line count, whatever the block size (a
    line may span blocks) and with or without a final newline, as `for line in file` sees them."""
    path = tmp_path_factory.mktemp("index") / "f"
    path.write_bytes(data)
    if b"\r" in data and b"\n" not in data:  # CR-only line ends: refused (test_every_reader_refuses_cr_only_line_ends)
        with pytest.raises(FormatError, match=":1: line ends are CR only"):
            line_index(path, chunk)
        return
    offsets, position, lines = [], 0, 0
    with open(path, "rb") as handle:
        for number, line in enumerate(handle):
            if number % chunk == 0:
                offsets.append(position)
            position += len(line)
            lines += 1
    original = paralign.corpora.parallel._BLOCK
    paralign.corpora.parallel._BLOCK = block
    try:
        assert line_index(path, chunk) == (offsets, lines)
    finally:
        paralign.corpora.parallel._BLOCK = original


def test_iter_parallel_drops_a_byte_order_mark_starting_a_file(tmp_path) -> None:
    """A BOM at byte 0 of either file is no part of the first word, whether the file is read
    whole or chunk by chunk from its line index (only the chunk at offset 0 starts the file)."""
    from paralign.corpora.base import LineRange
    from paralign.corpora.parallel import iter_parallel

    src, tgt = tmp_path / "s.txt", tmp_path / "t.txt"
    src.write_bytes(b"\xef\xbb\xbfthe cat\nthe dog\nthe cow\n")
    tgt.write_bytes(b"\xef\xbb\xbfdie katze\nder hund\ndie kuh\n")
    whole = [(x.line, x.source, x.target) for x in iter_parallel(src, tgt)]
    assert whole == [(1, "the cat", "die katze"), (2, "the dog", "der hund"), (3, "the cow", "die kuh")]
    (s_offsets, _), (t_offsets, _) = line_index(src, 2), line_index(tgt, 2)
    chunks = [(x.line, x.source, x.target)
              for k, (s, t) in enumerate(zip(s_offsets, t_offsets, strict=True))
              for x in iter_parallel(src, tgt, lines=(LineRange(s, 2 * k + 1, 2), LineRange(t, 2 * k + 1, 2)))]
    assert chunks == whole


def test_a_line_count_mismatch_names_both_counts_in_english(tmp_path) -> None:
    import pytest

    from paralign.corpora.parallel import check_line_counts
    from paralign.errors import MismatchError

    (tmp_path / "s.txt").write_text("a\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(MismatchError) as info:
        check_line_counts(tmp_path / "s.txt", tmp_path / "t.txt")
    assert str(info.value).endswith(f"s.txt has 1 line, {tmp_path / 't.txt'} has 2")


def test_every_binary_reader_names_a_bad_byte_as_open_text_does(tmp_path) -> None:
    """The readers that decode lines themselves gave four messages for one fault ('not UTF-8
    (invalid start byte)' with no byte or column in WMT files, no column in a jacana file, no
    're-encode' in a gold JSONL file) and read a NUL as text; they give textio's message."""
    import pytest

    from paralign.corpora.alignments import read_pairs
    from paralign.corpora.jacana import iter_jacana
    from paralign.corpora.parallel import iter_parallel
    from paralign.corpora.wmt import iter_lines
    from paralign.errors import FormatError

    for bad, reason in ((b"caf\xe9", "not UTF-8 (byte 0xe9 at column 4); re-encode the file"),
                        (b"caf\x00", "a NUL byte (0x00 at column 4): binary data, not text")):
        path = tmp_path / "x.txt"
        path.write_bytes(b'{"id": "1", "source": "a", "target": "a"}\n' + bad + b"\n")
        with pytest.raises(FormatError) as info:
            list(iter_lines(path))
        assert str(info.value) == f"{path}:2: {reason}"
        assert str(read_pairs(path)[1].error) == f"{path}:2: {reason}"
        with pytest.raises(FormatError) as info:
            list(iter_parallel(path, path))
        assert str(info.value).startswith(f"{path}:2: {reason}")
        path.write_bytes(b'[{"id": "1", "source": "a", "target": "a"},\n' + bad + b"]\n")
        with pytest.raises(FormatError) as info:
            list(iter_jacana(path))
        assert str(info.value) == f"{path}:2: {reason}"


def _error(read) -> FormatError:
    with pytest.raises(FormatError) as info:
        read()
    return info.value


def _text_lines(path: Path) -> list[str]:
    """The lines open_text gives, the file closed after them, an error or not (left to the
    garbage collector, its handle was a ResourceWarning in whichever test ran next)."""
    with open_text(path) as handle:
        return list(handle)


def test_a_lone_cr_inside_a_line_gives_every_reader_the_same_line_numbers(tmp_path: Path) -> None:
    """A stray CR inside line 2 was a line end to the text readers (open_text: `align`,
    `similarity`, tables) and text to the readers of bytes (Pharaoh, JSONL, WMT, parallel text
    and its line index), so the bad byte of line 3 was line 4 to some commands and 3 to others,
    and a chunk's byte offsets counted other lines. Every reader now ends lines at LF only."""
    path = tmp_path / "x.txt"
    path.write_bytes(b"0-0 1-1\r\n0-0\r1-1\n0-\xe9\n")
    assert _error(lambda: _text_lines(path)).line == 3
    assert [(n, text if isinstance(text, str) else text.line) for n, text in read_lines(path, "x")] == [
        (1, "0-0 1-1"), (2, "0-0 1-1"), (3, 3)]
    assert [item.line for item in read_pharaoh(path)] == [1, 2, 3]
    assert _error(lambda: list(iter_lines(path))).line == 3
    assert _error(lambda: list(iter_parallel(path, path))).line == 3
    assert count_lines(path) == 3 and line_index(path, 1) == ([0, 9, 17], 3)
    path.write_bytes(b"0-0 1-1\r\n0-0\r1-1\n0-1\n")  # and the text of line 2 is the same everywhere
    assert _text_lines(path) == ["0-0 1-1\n", "0-0 1-1\n", "0-1\n"]
    for texts in ([text for _, text in read_lines(path, "x")], list(iter_lines(path)),
                  [x.source for x in iter_parallel(path, path)]):
        assert texts == ["0-0 1-1", "0-0 1-1", "0-1"]
    path.write_bytes(b"a\tb\t0.5\nc\rd\te\t0.5\nf\t\xe9\t0.1\n")
    assert _error(lambda: list(iter_rows(path))).line == 3
    path.write_bytes(b'[{"id": "1",\r"source": "a", "target": "a"},\n\xe9]\n')
    assert _error(lambda: list(iter_jacana(path))).line == 2


def test_every_reader_refuses_cr_only_line_ends(tmp_path: Path) -> None:
    """A file with classic Mac line ends (CR, no LF) was many lines to open_text and one giant
    line to every reader of bytes (`pivot`, `score-alignments`, `meta-eval` ...): every reader
    gives the one FormatError at line 1 saying how to convert it, before reading any item."""
    path = tmp_path / "x.txt"
    expected = (f"{path}:1: line ends are CR only (classic Mac OS), not LF or CRLF: the file holds carriage "
                "returns and no line feed; convert it with tr '\\r' '\\n' < FILE > NEW")
    good = tmp_path / "good.txt"
    good.write_bytes(b"0-0 1-1\n0-0\n")
    path.write_bytes(b"0-0 1-1\r0-0\r")
    readers = {
        "open_text": lambda: _text_lines(path), "read_lines": lambda: list(read_lines(path, str(path))),
        "read_pairs": lambda: read_pairs(path), "read_pharaoh": lambda: list(read_pharaoh(path)),
        "wmt": lambda: list(iter_lines(path)), "count_lines": lambda: count_lines(path),
        "line_index": lambda: line_index(path, 1), "iter_parallel": lambda: list(iter_parallel(path, good)),
        "iter_parallel (target)": lambda: list(iter_parallel(good, path, check_counts=False)),
        "iter_rows": lambda: list(iter_rows(path)),
    }
    for name, read in readers.items():
        assert str(_error(read)) == expected, name
    path.write_bytes(b'[{"id": "1", "source": "a", "target": "a"},\r{"id": "2", "source": "b", "target": "b"}]\r')
    assert str(_error(lambda: list(iter_jacana(path)))) == expected


@pytest.mark.data
def test_the_parallel_corpora_as_their_readmes_count(data) -> None:
    """Multi30k train (gzip): 29,000 line pairs, all kept, no warning. OpenNMT toy en-de: 10,000
    pairs, README trap: line 5's English side is empty, skipped, counted and warned of (the one
    real parallel file that warns); its XML escapes are kept as written (unescaped downstream)."""
    task1 = data / "parallel" / "multi30k" / "task1_raw"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pairs = list(iter_parallel(task1 / "train.en.gz", task1 / "train.de.gz"))
    assert len(pairs) == 29000 and pairs[0].source == "Two young, White males are outside near many bushes."
    toy = data / "parallel" / "opennmt-toy-ende-10k"
    stats = ParallelStats()
    with pytest.warns(ParallelCorpusWarning, match="9999 of 10000 line pairs kept; 1 empty"):
        pairs = list(iter_parallel(toy / "src-train.txt", toy / "tgt-train.txt", stats=stats))
    assert (len(pairs), stats.empty, stats.skipped_lines) == (9999, 1, [5])
    assert [p.line for p in pairs[3:5]] == [4, 6] and pairs[2].source.startswith("&quot; Two soldiers")


def test_empty_and_over_long_pairs_are_counted_apart_and_kept_in_place_when_asked(tmp_path: Path) -> None:
    """A pair with an empty side counts as empty even when its other side is over-long; an
    over-long one as too long; both skipped, or yielded as ("", "") with keep_skipped."""
    src, tgt = tmp_path / "src.txt", tmp_path / "tgt.txt"
    src.write_text("a b\n\na b c d\nx\n   \n", encoding="utf-8")
    tgt.write_text("c d\na b c d\ne\ny z w v\nq\n", encoding="utf-8")
    stats = ParallelStats()
    kept = list(iter_parallel(src, tgt, max_tokens=3, stats=stats, warn=False))
    assert [(line.line, line.source, line.target) for line in kept] == [(1, "a b", "c d")]
    assert (stats.lines, stats.kept, stats.empty, stats.too_long, stats.skipped_lines) == (5, 1, 2, 2, [2, 3, 4, 5])
    in_place = list(iter_parallel(src, tgt, max_tokens=3, warn=False, keep_skipped=True))
    assert [(line.source, line.target) for line in in_place] == [("a b", "c d")] + [("", "")] * 4


def test_a_lone_cr_before_a_line_end_reads_as_every_reader_reads_it(tmp_path) -> None:
    """``rstrip(b"\\r\\n")`` stripped every CR at a line's end: a lone CR just before CRLF (and
    one ending a last line without LF) was dropped, where the house rule (`line_ends`: a line
    ends at LF or CRLF, a lone CR reads as a space) and every other reader (open_text) read a
    space. Now only the line end is stripped, so a line's text is the one open_text gives."""
    source, target = tmp_path / "src.txt", tmp_path / "tgt.txt"
    source.write_bytes(b"a b\r\r\nc\rd\r\ne f\r")
    target.write_bytes(b"x\r\r\r\ny\nz\r")
    pairs = list(iter_parallel(source, target, warn=False))
    for path, texts in ((source, [p.source for p in pairs]), (target, [p.target for p in pairs])):
        with open_text(path) as handle:
            assert texts == [line.removesuffix("\n") for line in handle]
    assert [p.source for p in pairs] == ["a b ", "c d", "e f "] and [p.target for p in pairs] == ["x  ", "y", "z "]


def test_a_lone_cr_before_a_line_end_reads_the_same_to_the_gold_readers(tmp_path) -> None:
    """corpora.base.read_lines (the gold alignment readers: Pharaoh, GIZA, MultiMWA, a gold
    where pairs are read) stripped ``"\\r\\n"`` characters off a line's end, so a lone CR just
    before CRLF, or ending a last line without LF, was dropped there while iter_parallel and
    open_text read it as a space: its own docstring's rule. Now it strips the line end alone."""
    path = tmp_path / "x.txt"
    path.write_bytes(b"a b\r\r\nc\rd\r\ne f\r")
    with open_text(path) as handle:
        expected = [line.removesuffix("\n") for line in handle]
    assert [text for _, text in read_lines(path, "x")] == expected == ["a b ", "c d", "e f "]
