"""The table pipelines' per-chunk steps (paralign.pivot_frames): a chunk file and its phrase sample."""

from __future__ import annotations

import pyarrow.parquet as pq

from paralign.pivot_frames import (
    ChunkTask,
    _sample,
    chunk_offsets,
    copy_lines,
    cuts_from,
    extract_chunk,
    sample_file,
)


def _chunk(tmp_path, lines: int = 3) -> ChunkTask:
    en = tmp_path / "en.tok"
    f = tmp_path / "f.tok"
    links = tmp_path / "align.txt"
    en.write_text("the man runs\nthe dog sleeps\na cat sits\n", encoding="utf-8")
    f.write_text("der mann läuft\nder hund schläft\neine katze sitzt\n", encoding="utf-8")
    links.write_text("0-0 1-1 2-2\n0-0 1-1 2-2\n0-0 1-1 2-2\n", encoding="utf-8")
    files = (str(en), str(f), str(links))
    offsets = tuple(chunk_offsets(path, lines)[0] for path in files)
    return ChunkTask(files, offsets, lines, 1, str(tmp_path / "00000.parquet"), 2)  # type: ignore[arg-type]


def test_a_chunk_file_carries_the_sample_of_its_phrases(tmp_path) -> None:
    task = _chunk(tmp_path)
    rows = extract_chunk(task)
    table = pq.read_table(task.output)
    assert rows == table.num_rows > 0
    expected = _sample(table["e"])
    assert expected == sorted(set(table["e"].to_pylist()))  # fewer than 64: every phrase
    assert sample_file(task.output) == expected


def test_a_chunk_file_without_the_sample_has_it_computed(tmp_path) -> None:
    task = _chunk(tmp_path)
    extract_chunk(task)
    table = pq.read_table(task.output)
    bare = tmp_path / "bare.parquet"
    pq.write_table(table.replace_schema_metadata(None), bare)  # as chunk files written before the sample
    assert sample_file(str(bare)) == sorted(set(table["e"].to_pylist()))


def test_a_large_sample_is_an_even_subset_and_cuts_split_it() -> None:
    import pyarrow as pa

    phrases = pa.array([f"p{n:04d}" for n in range(1000)][::-1])
    sample = _sample(phrases)
    assert len(sample) == 64 and sample == sorted(sample) and sample[0] == "p0000" and sample[-1] == "p0999"
    cuts = cuts_from([sample], 4)
    assert len(cuts) == 3 and cuts == sorted(cuts)


def test_copy_lines_copies_a_range_of_lines_each_ending_in_a_newline_and_stops_at_the_end(tmp_path) -> None:
    source = tmp_path / "tokens"
    source.write_bytes("a b\nc\u00e9\nd e f\nlast".encode())
    out = tmp_path / "copy"
    copy_lines(str(source), len(b"a b\n"), 2, out)
    assert out.read_text(encoding="utf-8") == "c\u00e9\nd e f\n"
    copy_lines(str(source), 0, 10, out)
    assert out.read_text(encoding="utf-8") == "a b\nc\u00e9\nd e f\nlast\n"
