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
