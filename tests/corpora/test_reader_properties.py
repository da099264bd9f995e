"""Property tests of the readers and writers (issue 23): writing then reading gives back what was
written, and random bytes make a reader raise nothing but paralign's own errors.

The readers: Pharaoh and alignment JSONL (`corpora.pharaoh`, `corpora.jsonl`, and format detection
in `corpora.read_pairs`), STS / STS Benchmark / MSRP pair files, the WMT21 readers, the paraphrase
table TSV, groups files and `textio`'s line reader and atomic writer. The fuzz tests run a fixed
number of derandomised examples, so they take a bounded time and CI runs are repeatable.
"""

from __future__ import annotations

import gzip
import json
import math
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.alignment import Alignment, is_blank
from paralign.corpora import read_pairs
from paralign.corpora.jsonl import read_jsonl
from paralign.corpora.msrp import load_msrp
from paralign.corpora.pharaoh import read_pharaoh
from paralign.corpora.sts import load_sts
from paralign.corpora.wmt import _segment_map, iter_lines, load_human_scores
from paralign.errors import FormatError, ParalignError
from paralign.lattice.evaluate import read_groups
from paralign.paraphrases import ParaphraseTable
from paralign.textio import open_text

#: Fuzzing: a fixed number of examples, the same ones on every run (bounded time, stable CI).
FUZZ = settings(max_examples=150, derandomize=True, deadline=None)
ROUND_TRIP = settings(max_examples=60, deadline=None)


@contextmanager
def _file(name: str, data: bytes) -> Iterator[Path]:
    """`data` written to a file called `name` in a fresh temporary folder."""
    with tempfile.TemporaryDirectory(prefix="props-") as folder:
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        (Path(folder) / "txt").mkdir(exist_ok=True)  # a WMT21 folder's mark
        path.write_bytes(data)
        yield path


# -- strategies -----------------------------------------------------------------------------------
links = st.frozensets(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=12)
#: Words: no white space, not empty (tokens are whitespace-separated in the files).
words = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=8)
#: A sentence field of a TSV file: no tab or line break, not blank (white space and invisible
#: characters only, a soft hyphen or a tag character, is a row the readers skip), no space at
#: either end.
fields = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\ufeff\x85"),
                 min_size=1, max_size=30).map(str.strip).filter(lambda field: not is_blank(field))


@st.composite
def alignments(draw: st.DrawFn) -> Alignment:
    sure, possible = draw(links), draw(links)
    return Alignment.from_links(sure, possible | sure)


# -- write -> read is identity ---------------------------------------------------------------------
@ROUND_TRIP
@given(st.lists(alignments(), max_size=8))
def test_pharaoh_round_trip(items: list[Alignment]) -> None:
    text = "".join(a.to_pharaoh() + "\n" for a in items)
    with _file("links.txt", text.encode()) as path:
        read = list(read_pharaoh(path))
    assert [pair.alignment for pair in read] == items


@ROUND_TRIP
@given(st.lists(st.tuples(st.lists(words, min_size=1, max_size=6), st.lists(words, min_size=1, max_size=6),
                          st.data()), min_size=1, max_size=5))
def test_jsonl_round_trip(records: list) -> None:
    expected, lines = [], []
    for k, (source, target, data) in enumerate(records):
        inside = st.tuples(st.integers(0, len(source) - 1), st.integers(0, len(target) - 1))
        sure = data.draw(st.frozensets(inside, max_size=5))
        alignment = Alignment.from_links(sure, sure | data.draw(st.frozensets(inside, max_size=3)))
        expected.append((f"p{k}", tuple(source), tuple(target), alignment))
        lines.append(json.dumps({"id": f"p{k}", "source": source, "target": target, **alignment.to_json()}))
    with _file("gold.jsonl", ("\n".join(lines) + "\n").encode()) as path:
        read = list(read_jsonl(path))
        detected = read_pairs(path)  # format detection reads the same
    assert [(p.id, p.source, p.target, p.alignment) for p in read] == expected
    assert [(p.id, p.source, p.target, p.alignment) for p in detected] == expected


scores = st.floats(0, 5, allow_nan=False)


@ROUND_TRIP
@given(st.lists(st.tuples(scores, fields, fields), min_size=1, max_size=6))
def test_sts_round_trip(rows: list[tuple[float, str, str]]) -> None:
    text = "".join(f"{score!r}\t{a}\t{b}\n" for score, a, b in rows)
    with _file("sts.tsv", text.encode()) as path:
        data = load_sts(path, "sts")
    assert [(p.score, p.sentence1, p.sentence2) for p in data.pairs] == rows and not data.skipped


@ROUND_TRIP
@given(st.lists(st.tuples(scores, fields, fields), min_size=1, max_size=6))
def test_stsb_round_trip(rows: list[tuple[float, str, str]]) -> None:
    text = "".join(f"main-news\tnews\t2016\t{k:04d}\t{score!r}\t{a}\t{b}\n" for k, (score, a, b) in enumerate(rows))
    with _file("stsb.tsv", text.encode()) as path:
        data = load_sts(path, "stsb")
    assert [(p.score, p.sentence1, p.sentence2) for p in data.pairs] == rows


@ROUND_TRIP
@given(st.lists(st.tuples(st.booleans(), fields, fields), min_size=1, max_size=6))
def test_msrp_round_trip(rows: list[tuple[bool, str, str]]) -> None:
    text = "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n" + "".join(
        f"{int(label)}\t{2 * k}\t{2 * k + 1}\t{a}\t{b}\n" for k, (label, a, b) in enumerate(rows))
    with _file("msrp.txt", text.encode()) as path:
        data = load_msrp(path)
    assert [(p.label, p.sentence1, p.sentence2) for p in data.pairs] == rows


lines_text = st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"), max_size=20), max_size=8).filter(
    lambda lines: not lines or not lines[0].startswith("\ufeff"))  # a byte-order mark starting a file is dropped


@ROUND_TRIP
@given(lines_text, st.booleans())
def test_wmt_lines_round_trip(lines: list[str], gz: bool) -> None:
    data = "".join(line + "\n" for line in lines).encode()
    with _file("hyp.en.gz" if gz else "hyp.en", gzip.compress(data) if gz else data) as path:
        assert list(iter_lines(path)) == lines


@ROUND_TRIP
@given(st.dictionaries(st.text("abcdefgh-_.", min_size=1, max_size=8),
                       st.tuples(st.floats(-100, 100, allow_nan=False), st.floats(-5, 5, allow_nan=False),
                                 st.integers(1, 999)), min_size=1, max_size=5))
def test_wmt_human_scores_round_trip(systems: dict) -> None:
    text = "".join(f"{raw!r} {z!r} {n} {n} sys{k} {name}\n" for k, (name, (raw, z, n)) in enumerate(systems.items()))
    with _file("humaneval/ad-sys-ranking-de-en-z-names.csv", text.encode()) as path:
        read = load_human_scores(path.parent.parent, "de-en")
    assert {name: (s.raw, s.z, s.n) for name, s in read.items()} == systems


@ROUND_TRIP
@given(st.lists(st.tuples(fields, fields, st.one_of(st.none(), st.floats(0, allow_nan=False, allow_infinity=False))),
                max_size=8), st.booleans())  # scores of 0 or more: a negative one is refused by add
def test_paraphrase_table_round_trip(rows: list, gz: bool) -> None:
    table = ParaphraseTable(lowercase=False)
    for phrase, paraphrase, score in rows:
        if not phrase.startswith("#"):
            table.add(phrase, paraphrase, score)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("t.tsv.gz" if gz else "t.tsv")
        table.to_tsv(path)
        read = ParaphraseTable.from_tsv(path, lowercase=False)
        assert [p.name for p in Path(folder).iterdir()] == [path.name]  # no temporary file left
    assert list(read) == list(table)


@ROUND_TRIP
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=200), st.booleans())
def test_atomic_writer_round_trip(text: str, gz: bool) -> None:
    """What is written reads back (a NUL is binary data, which reading refuses: see test_textio)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("out.txt.gz" if gz else "out.txt")
        with open_text(path, "wt") as handle:
            handle.write(text)
        with open_text(path) as handle:
            assert handle.read() == text.replace("\x0b", "\x0b")
        assert [p.name for p in Path(folder).iterdir()] == [path.name]


def test_atomic_writer_keeps_the_old_file_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old\n", encoding="utf-8")
    try:
        with open_text(path, "wt") as handle:
            handle.write("half")
            raise RuntimeError("interrupted")
    except RuntimeError:
        pass
    assert path.read_text(encoding="utf-8") == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


# -- random bytes raise only paralign's errors -----------------------------------------------------
def _consume(read: Callable[[Path], object], path: Path) -> None:
    """Run a reader to its end; anything but a ParalignError fails the test."""
    try:
        result = read(path)
        if hasattr(result, "__iter__") and not isinstance(result, str | bytes | dict):
            list(result)  # type: ignore[call-overload]
    except ParalignError:
        pass


#: Byte soup with the characters the formats care about, so the parsers get past their first check.
soup = st.lists(st.sampled_from([b"0", b"1", b"7", b"-", b"?", b"p", b" ", b"\t", b"\n", b"\r\n", b"{", b"}", b"[",
                                 b"]", b'"', b":", b",", b"nan", b"inf", b"-1", b"1e999", b"\xff", b"\xc3", b"\xef\xbb\xbf",
                                 b"source", b"target", b"sure", b"#", b"a", b"\x00"]), max_size=60).map(b"".join)
fuzz_bytes = st.one_of(st.binary(max_size=200), soup)


@FUZZ
@given(fuzz_bytes)
def test_alignment_readers_raise_only_our_errors(data: bytes) -> None:
    with _file("a.txt", data) as path:
        _consume(read_pharaoh, path)
        _consume(read_jsonl, path)
        _consume(read_pairs, path)


@FUZZ
@given(fuzz_bytes)
def test_pair_file_readers_raise_only_our_errors(data: bytes) -> None:
    with _file("pairs.tsv", data) as path:
        _consume(load_sts, path)
        _consume(lambda p: load_sts(p, "stsb"), path)
        _consume(load_msrp, path)
        _consume(lambda p: ParaphraseTable.from_tsv(p), path)
        _consume(lambda p: read_groups(p), path)


@FUZZ
@given(fuzz_bytes, st.sampled_from(["humaneval/ad-sys-ranking-de-en-z-names.csv", "humaneval/seg-line-map-de-en.tsv",
                                    "txt/hyp.en", "txt/hyp.en.gz"]))
def test_wmt_readers_raise_only_our_errors(data: bytes, name: str) -> None:
    with _file(name, data) as path:
        root = path.parent.parent
        if name.endswith("z-names.csv"):
            _consume(lambda _: load_human_scores(root, "de-en"), path)
            for score in _scores_or_none(root):
                assert math.isfinite(score.raw) and math.isfinite(score.z)  # never a NaN taken as a score
        elif name.endswith(".tsv"):
            _consume(lambda _: _segment_map(root, "de-en"), path)
        else:
            _consume(iter_lines, path)


@given(st.sampled_from(["nan", "inf", "-inf", "1e999"]), st.booleans())
def test_wmt_human_scores_are_finite(bad: str, raw: bool) -> None:
    row = f"{bad} 0.1 3 3 g Good\n" if raw else f"50.0 {bad} 3 3 g Good\n"
    with _file("humaneval/ad-sys-ranking-de-en-z-names.csv", ("80.0 0.5 3 3 b Best\n" + row).encode()) as path:
        try:
            load_human_scores(path.parent.parent, "de-en")
        except FormatError as exc:
            assert exc.line == 2 and "not a finite number" in str(exc)
        else:
            raise AssertionError(f"{bad} read as a human score")


def _scores_or_none(root: Path) -> list:
    try:
        return list(load_human_scores(root, "de-en").values())
    except ParalignError:
        return []


@FUZZ
@given(fuzz_bytes)
def test_line_reader_raises_only_our_errors(data: bytes) -> None:
    for errors in ("strict", "replace", "skip"):
        with _file("x.txt", data) as path:
            _consume(lambda p, e=errors: open_text(p, errors=e).read(), path)
        with _file("x.txt.gz", data) as path:  # not gzip at all: our InputFileError
            _consume(lambda p, e=errors: open_text(p, errors=e).read(), path)
