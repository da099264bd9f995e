"""Line-aligned parallel corpora (paralign.corpora.parallel): finding the chunks of a large file."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import paralign.corpora.parallel
from paralign.corpora.parallel import line_index


@settings(max_examples=200, deadline=None)
@given(data=st.lists(st.sampled_from([b"a", b"bb c", b"", b"\r", b"\n", b"\n\n", b"\xff"]), max_size=40).map(b"".join),
       chunk=st.integers(1, 6), block=st.sampled_from([1, 2, 3, 7, 1 << 24]))
def test_line_index_finds_the_lines_a_file_iterator_does(tmp_path_factory, data: bytes, chunk: int, block: int) -> None:
    """Every chunk_size-th line's byte offset and the line count, whatever the block size (a
    line may span blocks) and with or without a final newline, as `for line in file` sees them."""
    path = tmp_path_factory.mktemp("index") / "f"
    path.write_bytes(data)
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
