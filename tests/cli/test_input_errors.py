"""Unreadable, missing and non-UTF-8 inputs, and '-' as stdin/stdout: clear errors, no tracebacks.

Covers `open_text` (the one reader behind most commands), `open_in`/`read_once` in the CLI
helpers, the OSError safety net of `main`, and '-' in pivot, paraphrase-table and word-align.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import pickle
import random
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paralign.cli import main
from paralign.cli._common import STDIN_NAME, open_in, read_once, stdout_for
from paralign.errors import FormatError, InputFileError, ParalignError
from paralign.textio import Utf8LineReader, open_text


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    """Make stdin a real byte stream (as in a shell), not a StringIO."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# -- open_text --------------------------------------------------------------------------------
def test_open_text_missing_directory_and_bad_gzip(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="nope.tsv: no such file") as info:
        open_text(tmp_path / "nope.tsv")
    assert isinstance(info.value, OSError) and isinstance(info.value, ParalignError)
    assert info.value.filename == str(tmp_path / "nope.tsv") and info.value.errno == 2
    copy = pickle.loads(pickle.dumps(info.value))  # as sent back by a worker process
    assert (str(copy), copy.filename, copy.errno) == (str(info.value), info.value.filename, 2)
    with pytest.raises(InputFileError, match="is a directory"):
        open_text(tmp_path)
    fake = tmp_path / "fake.tsv.gz"
    fake.write_text("not gzip\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"fake\.tsv\.gz: not a gzip file"), open_text(fake) as handle:
        list(handle)
    cut = tmp_path / "cut.tsv.gz"
    cut.write_bytes(gzip.compress(b"a line\n" * 1000)[:40])
    with pytest.raises(InputFileError, match=r"cut\.tsv\.gz: gzip data cut short"), open_text(cut) as handle:
        list(handle)


def test_open_text_names_the_line_of_a_non_utf8_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.tsv"
    path.write_bytes(b"good\tline\n" * 70000 + b"caf\xe9\tbar\nlast\n")  # past the first blocks
    message = r"latin1\.tsv:70001: not UTF-8 \(byte 0xe9 at column 4\)"
    with pytest.raises(FormatError, match=message), open_text(path) as handle:
        for _ in handle:
            pass
    with pytest.raises(FormatError, match=r"latin1\.tsv:70001:"), open_text(path) as handle:
        handle.read()
    gz = tmp_path / "latin1.tsv.gz"
    gz.write_bytes(gzip.compress(b"ok\r\nok\r\n\xff\n"))
    with pytest.raises(FormatError, match=r"latin1\.tsv\.gz:3: not UTF-8 \(byte 0xff"), open_text(gz) as handle:
        list(handle)


def test_open_text_keeps_the_bom_and_ends_lines_at_lf_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfone\r\ntwo\rthree\nmore\n\x0cfour")
    with open_text(path) as handle:
        assert list(handle) == ["\ufeffone\n", "two three\n", "more\n", "\x0cfour"]  # a lone CR is a space
    with open_text(path) as handle:
        assert handle.readline() == "\ufeffone\n"
        assert next(iter(handle)) == "two three\n"  # a loop left early leaves the rest
        assert handle.read() == "more\n\x0cfour"


CHUNKS = [b"a", b"b c", b"\n", b"\r", b"\r\n", b"\t", b"\xc3\xa9", b"\xef\xbb\xbf", b"\x0b", b"\x1c",
          b"\xe2\x80\xa8", b"\xc2\x85", b"\xe9", b"\xff"]


@given(st.lists(st.sampled_from(CHUNKS), max_size=40), st.sampled_from([1, 2, 3, 7, 1 << 16]))
def test_open_text_reads_as_text_mode_does(chunks: list[bytes], block_size: int) -> None:
    """Same lines and text as open(..., encoding='utf-8') but for line ends, which are LF (CRLF
    read as LF, a lone CR as a space; paralign.textio's contract); CR-only line ends are one
    error at line 1; a bad byte's error names its line."""
    data = b"".join(chunks)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.txt"
        path.write_bytes(data)
        with open(path, encoding="utf-8", errors="surrogateescape", newline="\n") as handle:
            expected = [(line[:-2] + "\n" if line.endswith("\r\n") else line).replace("\r", " ") for line in handle]
        if b"\r" in data and b"\n" not in data:
            with pytest.raises(FormatError, match=r"x\.txt:1: line ends are CR only"), open_text(path) as handle:
                handle.read()
            return
        bad = next((n for n, line in enumerate(expected, 1) if any("\udc80" <= c <= "\udcff" for c in line)), None)

        def reader() -> Utf8LineReader:
            handle = open_text(path)
            assert isinstance(handle, Utf8LineReader)
            handle.block_size = block_size
            return handle

        if bad is not None:
            for consume in (list, lambda h: h.read(), lambda h: iter(h.readline, "")):
                with pytest.raises(FormatError, match=rf"x\.txt:{bad}: not UTF-8"), reader() as handle:
                    list(consume(handle))
            return
        with reader() as handle:
            assert list(handle) == expected
        with reader() as handle:
            assert handle.read() == "".join(expected)
        with reader() as handle:
            assert list(iter(handle.readline, "")) == expected
        with reader() as handle:
            assert "".join(iter(lambda: handle.read(3), "")) == "".join(expected)


# -- CLI: files -----------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["similarity", "--pairs", "{missing}"],
    ["align", "{missing}"],
    ["evaluate-sts", "--data", "{missing}"],
    ["paraeval", "-r", "{missing}", "-i", "{missing}"],
    ["lattice", "build", "{missing}"],
    ["lattice", "paths", "--lattice", "{missing}"],
])
def test_missing_input_is_one_error_line(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    missing = str(tmp_path / "missing.tsv")
    assert main([arg.format(missing=missing) for arg in argv]) == 2  # a usage error (issue 23)
    out, err = capsys.readouterr()
    command = " ".join(argv[:2] if argv[0] == "lattice" else argv[:1])  # the command as typed
    assert err == f"paralign {command}: error: {missing}: no such file\n" and out == ""


@pytest.mark.parametrize("command", [["align", "{pairs}"], ["similarity", "--pairs", "{pairs}", "--aligner", "exact"]])
def test_a_scheduler_address_dask_cannot_use_is_one_usage_error_line(command: list[str], tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    """--scheduler nosuch was a traceback from inside Dask ('missing port number')."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a cat\ta cat\n", encoding="utf-8")
    assert main([arg.format(pairs=pairs) for arg in command] + ["--scheduler", "nosuch"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"paralign {command[0]}: error: scheduler 'nosuch' is not a Dask scheduler address "
                                 "such as tcp://HOST:8786 (missing port number in address 'nosuch')\n")


def test_directory_fake_gzip_and_latin1_inputs(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["similarity", "--pairs", str(tmp_path), "--aligner", "exact"]) == 2  # usage: the path is wrong
    assert capsys.readouterr().err == f"paralign similarity: error: {tmp_path}: is a directory, not a file\n"
    fake = tmp_path / "fake.tsv.gz"
    fake.write_text("a\tb\n", encoding="utf-8")
    assert main(["similarity", "--pairs", str(fake), "--aligner", "exact"]) == 1
    assert f"paralign similarity: error: {fake}: not a gzip file" in capsys.readouterr().err
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes(b"A cat.\tA dog.\nThe caf\xe9 is open.\tThe bar is open.\n")
    for argv in (["similarity", "--pairs", str(latin1), "--aligner", "exact"], ["align", str(latin1)]):
        # issue 23: decoding is per line; the bad line is reported in its place, the others are kept
        assert main(argv) == 0
        out, err = capsys.readouterr()
        assert f"warning: {latin1}:2: not UTF-8 (byte 0xe9 at column 8)" in err
        assert len(out.splitlines()) == 2 and out.splitlines()[0].strip() and not out.splitlines()[1].strip("NA\n")
        assert main([*argv, "--encoding-errors", "strict"]) == 1  # the old behaviour, on request
        assert f"error: {latin1}:2: not UTF-8 (byte 0xe9 at column 8)" in capsys.readouterr().err
        assert main([*argv, "--encoding-errors", "replace"]) == 0  # decoded with U+FFFD and processed
        out = capsys.readouterr().out
        assert len(out.splitlines()) == 2 and "NA" not in out


def test_non_utf8_stdin_names_stdin_and_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    _stdin(monkeypatch, b"A cat.\tA dog.\nThe caf\xe9.\tThe bar.\n")
    assert main(["similarity", "--aligner", "exact", "--encoding-errors", "strict"]) == 1
    err = capsys.readouterr().err
    assert "paralign similarity: error: <stdin>:2: not UTF-8 (byte 0xe9 at column 8)" in err
    _stdin(monkeypatch, b"A cat.\tA dog.\nThe caf\xe9.\tThe bar.\n")
    assert main(["similarity", "--aligner", "exact"]) == 0  # default: the line is skipped and named
    assert "paralign: warning: <stdin>:2: not UTF-8 (byte 0xe9 at column 8)" in capsys.readouterr().err
    _stdin(monkeypatch, b"\xef\xbb\xbfA cat.\tA cat.\n")  # stdin through bytes: a BOM still works
    assert main(["similarity", "--aligner", "exact"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(1.0)


def test_open_in_and_read_once_name_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b"one\n\xff\n")
    with pytest.raises(FormatError, match=f"^{STDIN_NAME}:2: not UTF-8"), open_in("-") as handle:
        list(handle)
    _stdin(monkeypatch, b"x\n")
    with pytest.raises(FormatError, match=f"^{STDIN_NAME}:7: broken") as info, read_once() as path:
        assert path.read_text(encoding="utf-8") == "x\n"
        raise FormatError("broken", source=str(path), line=7)
    assert info.value.source == STDIN_NAME


def test_main_turns_a_stray_oserror_into_an_error_line(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import paralign.cli.paraeval as paraeval

    def boom(args: argparse.Namespace) -> int:
        raise PermissionError(13, "Permission denied", "/some/file.txt")

    monkeypatch.setattr(paraeval, "run", boom)
    assert main(["paraeval", "-r", "x"]) == 1
    assert capsys.readouterr().err == "paralign paraeval: error: /some/file.txt: Permission denied\n"


# -- '-' in pivot, paraphrase-table, word-align ---------------------------------------------
@pytest.fixture
def parallel(tmp_path: Path) -> dict[str, Path]:
    """120 toy line pairs: `the NOUN is ADJ` in English and German (synonyms share a translation)."""
    words = [("car", "auto"), ("automobile", "auto"), ("dog", "hund"), ("small", "klein"), ("little", "klein")]
    rng = random.Random(3)
    en, de = [], []
    for _ in range(120):
        (n_en, n_de), (a_en, a_de) = rng.choice(words[:3]), rng.choice(words[3:])
        en.append(f"The {n_en} is {a_en} .")
        de.append(f"Das {n_de} ist {a_de} .")
    paths = {"en": tmp_path / "c.en", "de": tmp_path / "c.de"}
    paths["en"].write_text("\n".join(en) + "\n", encoding="utf-8")
    paths["de"].write_text("\n".join(de) + "\n", encoding="utf-8")
    return paths


def test_pivot_dash_is_stdin_and_stdout(parallel, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    _stdin(monkeypatch, parallel["en"].read_bytes())
    code = main(["pivot", "--english", "-", "--foreign", str(parallel["de"]), "-o", "-",
                 "--iterations", "3", "--format", "json"])
    assert code == 0
    out, err = capsys.readouterr()
    assert out.startswith("# phrase\tparaphrase\tprobability")
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert ["automobile", "car"] in [row[:2] for row in rows]
    report = json.loads(err)  # the report goes to stderr, so stdout is the table alone
    assert report["output"] == "-" and report["corpora"][0]["source"] == "<stdin>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.de", "c.en"]  # no file named '-'


def test_pivot_stdin_errors_name_stdin(parallel, tmp_path, monkeypatch, capsys) -> None:
    lines = parallel["en"].read_bytes().split(b"\n")
    lines[4] = b"The caf\xe9 is small ."
    _stdin(monkeypatch, b"\n".join(lines))
    code = main(["pivot", "--english", "-", "--foreign", str(parallel["de"]), "-o", str(tmp_path / "t.tsv")])
    assert code == 1
    err = capsys.readouterr().err
    assert "error: <stdin>:5: not UTF-8" in err and tempfile.gettempdir() not in err


def test_paraphrase_table_dash_is_stdin_and_stdout(tmp_path, monkeypatch, capsys) -> None:
    """`paraphrase-table --groups - -o -`: groups from stdin, the table on stdout, no file named '-'."""
    monkeypatch.chdir(tmp_path)
    rng = random.Random(2)
    groups = []
    for _ in range(60):
        a, b = rng.sample(["car", "automobile"], 2)
        c, d = rng.sample(["small", "little"], 2)
        groups.append(f"the {a} is {c} .\tthe {b} is {d} .")
    _stdin(monkeypatch, ("\n".join(groups) + "\n").encode("utf-8"))
    argv = ["paraphrase-table", "--groups", "-", "-o", "-", "--iterations", "3", "--max-length", "2", "--threshold", "0.2"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    pairs = {tuple(line.split("\t")[:2]) for line in out.splitlines()[1:]}
    assert ("car", "automobile") in pairs and ("little", "small") in pairs
    assert "to <stdout>" in err and list(tmp_path.iterdir()) == []


def test_word_align_json_goes_to_stdout(parallel, capsys) -> None:
    code = main(["word-align", "--source", str(parallel["en"]), "--target", str(parallel["de"]),
                 "--iterations", "3", "--format", "json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["output"] == "-" and result["lines"] == result["aligned"] == 120
    assert len(result["alignments"]) == 120 and all("-" in links for links in result["alignments"])


@pytest.mark.parametrize("argv", [
    ["score-alignments", "--gold", "-", "--system", "/dev/stdin"],
    ["align", "--source", "-", "--target", "-"],
    ["evaluate-sts", "--data", "-", "--data=-"],
    ["paraeval", "-r", "-"],  # the hypotheses are stdin by default
    ["similarity", "--signal", "idf", "--idf-from", "-"],  # so are the pairs
])
def test_stdin_given_twice_is_a_usage_error(argv: list[str], monkeypatch, capsys) -> None:
    _stdin(monkeypatch, b"")
    assert main(argv) == 2
    assert "stdin can be read only once" in capsys.readouterr().err


def test_stdin_arguments_skip_outputs() -> None:
    from paralign.cli._command_line import stdin_arguments

    assert stdin_arguments(["align", "-", "-o", "-", "--report=-"]) == ["a positional argument"]
    assert stdin_arguments(["x", "--gold", "/dev/stdin", "--system=-"]) == ["--gold", "--system"]


def test_a_pipe_is_read_once_and_named_as_given(tmp_path: Path, capsys) -> None:
    """A path that is a FIFO (as `<(...)` gives) is copied once, so format detection and parsing
    both see it; messages and results name the path, never the copy."""
    import os
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    data = b"4.0\ta b\ta b\n1.0\tc d\te f\nnan\tg\th\n3.0\ti j\ti k\n"

    def feed() -> None:
        with open(fifo, "wb") as handle:
            handle.write(data)

    threading.Thread(target=feed, daemon=True).start()
    assert main(["evaluate-sts", "--data", str(fifo), "--aligner", "exact", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["pairs"] == 3 and result["sets"][0]["path"] == str(fifo) == result["sets"][0]["name"]
    assert f"{fifo}:3: skipped" in err and "paralign-" not in out + err


@pytest.mark.parametrize("argv", [
    ["align", "--ppdb-sim", "nan", "x.tsv"],
    ["pivot", "--english", "e", "--foreign", "f", "-o", "t.tsv", "--threshold", "nan"],
    ["evaluate-paraphrase", "--train", "t", "--test", "t", "--l2", "inf"],
])
def test_a_number_option_that_is_not_finite_is_a_usage_error(argv: list[str], capsys) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # an option whose argparse type checks its range refuses it there
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert "is not a finite number" in err and "argument --" in err


def test_evaluate_paraphrase_names_a_pair_that_fails_by_file_and_line(tmp_path: Path, capsys) -> None:
    """A pair that cannot be aligned (a sentence over spaCy's 1,000,000 characters) is reported
    as ``file:line:``, and its JSON failure carries ``file`` and ``line``. Before, it was
    "train pair N": no file (--train is repeatable) and N counting only the usable pairs, so
    after a skipped row, line 3 of the second training file was "train pair 3"."""
    header = "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
    first, second, test = tmp_path / "train1.tsv", tmp_path / "train2.tsv", tmp_path / "test.tsv"
    first.write_text(header + "1\t1\t2\tA cat sat.\tA cat sat.\n0\t3\t4\tDogs bark.\tStocks fell.\n",
                     encoding="utf-8")
    second.write_text(header + "x\t5\t6\tBad label.\tBad label.\n"
                      f"1\t7\t8\t{'word ' * 200_001}\tA word.\n0\t9\t10\tIt rains.\tA bird sings.\n",
                      encoding="utf-8")
    test.write_text(header + "1\t1\t2\tA cat sat.\tA cat sat.\n0\t3\t4\tDogs bark.\tStocks fell.\n",
                    encoding="utf-8")
    argv = ["evaluate-paraphrase", "--train", str(first), "--train", str(second), "--test", str(test),
            "--aligner", "exact", "--classifier", "signal", "--format", "json"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    (failure,) = json.loads(out)["failures"]
    assert (failure["split"], failure["index"], failure["file"], failure["line"]) == ("train", 2, str(second), 3)
    assert f"{second}:3: train pair: annotation failed: ValueError: [E088]" in err


def test_gzip_on_stdin_is_read_as_its_text(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """`cat pairs.tsv.gz | paralign align` failed with 'not UTF-8 (byte 0x8b...)' on line 1; the
    data are sniffed, and a bad line is named by its line in the decompressed text."""
    pairs = b"A cat sat .\tA cat sat .\nPrices rose .\tPrices went up .\n"
    _stdin(monkeypatch, gzip.compress(pairs))
    assert main(["align", "-", "--similarity", "none"]) == 0
    gz_out = capsys.readouterr().out
    _stdin(monkeypatch, pairs)
    assert main(["align", "-", "--similarity", "none"]) == 0
    assert capsys.readouterr().out == gz_out and len(gz_out.splitlines()) == 2
    _stdin(monkeypatch, gzip.compress(pairs + b"caf\xe9\tbar\n"))
    assert main(["similarity", "--aligner", "exact", "--encoding-errors", "strict"]) == 1
    assert capsys.readouterr().err == ("paralign similarity: error: <stdin>:3: not UTF-8 (byte 0xe9 at column 4); "
                                       "re-encode the file\n")


def test_pivot_output_named_gz_in_any_case_is_one_gzip_table(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """pivot -o X.TSV.GZ wrote its parts as plain text (the name was compared to '.gz'); they
    are gzip members as with X.tsv.gz, so the table reads back."""
    from paralign.tables import iter_rows

    english, foreign = tmp_path / "en.txt", tmp_path / "de.txt"
    english.write_text("the car is small\nthe automobile is small\nthe house is red\n", encoding="utf-8")
    foreign.write_text("das auto ist klein\ndas auto ist klein\ndas haus ist rot\n", encoding="utf-8")
    links = tmp_path / "links.txt"
    links.write_text("0-0 1-1 2-2 3-3\n" * 3, encoding="utf-8")
    out = tmp_path / "t.TSV.GZ"
    assert main(["pivot", "--english", str(english), "--foreign", str(foreign), "--alignment", str(links),
                 "--chunk-size", "1", "-o", str(out)]) == 0
    capsys.readouterr()
    assert ("car", "automobile") in {row[:2] for row in iter_rows(out)}


def test_utf16_on_stdin_is_one_error_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """align read UTF-16 pairs as a bad line 1 and then NUL-interleaved 'sentences' (exit 0)."""
    _stdin(monkeypatch, "A cat .\tA cat .\nDogs run .\tDogs ran .\n".encode("utf-16"))
    assert main(["align", "-", "--similarity", "none"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == ("paralign align: error: <stdin>:1: UTF-16 text (byte-order mark ff fe), not UTF-8; "
                                 "re-encode the file (iconv -f UTF-16 -t UTF-8)\n")


def test_align_numbers_svg_files_before_a_gz_suffix_in_any_case() -> None:
    """align --format svg -o out.svg.GZ named pair 3's picture out.svg-3.GZ (a gzip file whose
    name no longer ends in .svg.gz); a .gz in any case is gzip, as -o X.GZ is written."""
    from paralign.cli.align import numbered

    assert numbered("out.svg.GZ", 3) == "out-3.svg.GZ" and numbered("out.svg.gz", 3) == "out-3.svg.gz"


@pytest.mark.parametrize("argv", [["align", "--similarity", "none"], ["lattice", "build"],
                                  ["paraeval", "-r", "{ref}", "--resources", "none"],
                                  ["evaluate-sts", "--data", "-", "--aligner", "exact"]])
def test_stdin_closed_is_one_usage_error_line(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture) -> None:
    """Run with stdin closed (`paralign align <&-`), Python's sys.stdin is None: every command
    reading it stopped with a traceback ("'NoneType' object is not iterable"). It is one error
    naming <stdin>, a usage error (exit 2) as a missing file is; the copy read_once makes too."""
    ref = tmp_path / "ref.txt"
    ref.write_text("a b\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", None)
    command = " ".join(argv[:2] if argv[0] == "lattice" else argv[:1])
    assert main([arg.format(ref=ref) for arg in argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"paralign {command}: error: <stdin>: not open (the command was run with standard "
                                 "input closed): give an input file\n")


@pytest.mark.parametrize("argv", [
    ["align", "x.tsv", "--similarity", "none", "--chunk-size", "99999999999999999999"],
    ["paraphrase-table", "--groups", "g.tsv", "--aligner", "sultan", "-o", "t.tsv", "--max-groups", str(2**63)],
])
def test_a_count_python_cannot_use_is_a_usage_error(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    """A count above sys.maxsize reached islice() ("Stop argument for islice() must be ... <=
    sys.maxsize"), a traceback after the input was read; it is refused when the options are parsed."""
    monkeypatch.chdir(tmp_path)
    Path("x.tsv").write_text("A cat .\tA cat .\n", encoding="utf-8")
    Path("g.tsv").write_text("the cat sat\ta cat sat\n", encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and f"must be at most {sys.maxsize}" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["align", "{pairs}", "--similarity", "none"], ["lattice", "stats", "--groups", "{groups}"],
                                  ["paraeval", "-r", "{ref}", "-i", "{ref}", "--resources", "none"]])
def test_stdout_closed_is_one_usage_error_line(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture) -> None:
    """Run with stdout closed (`paralign align x.tsv >&-`), sys.stdout is None: the first write
    was a traceback ("'NoneType' object has no attribute 'write'"). Output to stdout is one
    usage error naming <stdout>, as for stdin."""
    files = {"pairs": tmp_path / "x.tsv", "groups": tmp_path / "g.tsv", "ref": tmp_path / "ref.txt"}
    files["pairs"].write_text("A cat .\tA cat .\n", encoding="utf-8")
    files["groups"].write_text("the cat sat\ta cat sat\n", encoding="utf-8")
    files["ref"].write_text("a b\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdout", None)
    command = " ".join(argv[:2] if argv[0] == "lattice" else argv[:1])
    assert main([arg.format(**files) for arg in argv]) == 2
    assert capsys.readouterr().err == (f"paralign {command}: error: <stdout>: not open (the command was run with "
                                       "standard output closed): give -o FILE\n")


def test_stdout_closed_with_an_output_file_writes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    """With -o FILE and stdout closed the file is written; what the command also prints on
    stdout (lattice draw's note of what it wrote) is dropped, not a traceback."""
    sentences = tmp_path / "s.txt"
    sentences.write_text("the cat sat\na cat sat\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdout", None)
    assert main(["lattice", "draw", str(sentences), "-o", str(tmp_path / "l.dot"), "--format", "json"]) == 0
    assert "digraph" in (tmp_path / "l.dot").read_text(encoding="utf-8") and capsys.readouterr().err == ""
    assert sys.stdout is None  # restored as it was


def test_an_output_under_a_file_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture) -> None:
    """`-o x.tsv/out.txt`, where x.tsv is a file, said "folder x.tsv does not exist", though it
    does, as a file: the message names the file in the way."""
    monkeypatch.chdir(tmp_path)
    Path("x.tsv").write_text("A cat .\tA cat .\n", encoding="utf-8")
    for output, said in (("x.tsv/out.txt", "x.tsv/out.txt: x.tsv is a file, not a folder"),
                         ("x.tsv/sub/out.txt", "x.tsv/sub/out.txt: x.tsv is a file, not a folder"),
                         ("nope/out.txt", "nope/out.txt: folder nope does not exist")):
        with pytest.raises(SystemExit) as info:
            main(["align", "x.tsv", "--similarity", "none", "-o", output])
        assert info.value.code == 2 and f"argument -o/--output: {said}\n" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device whose writes find no room)")
def test_a_full_disk_names_the_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture) -> None:
    """A write that finds no room said only "No space left on device" (a write's OSError has no
    file name): the error names the output, -o or <stdout>."""
    pairs = tmp_path / "x.tsv"
    pairs.write_text("A cat .\tA cat .\n", encoding="utf-8")
    assert main(["align", str(pairs), "--similarity", "none", "-o", "/dev/full"]) == 1
    assert capsys.readouterr().err == "paralign align: error: /dev/full: No space left on device\n"
    full = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - closed below, where its flush fails too
    captured = sys.stdout
    monkeypatch.setattr("sys.stdout", full)
    assert main(["align", str(pairs), "--similarity", "none"]) == 1
    monkeypatch.setattr("sys.stdout", captured)
    with contextlib.suppress(OSError):
        full.close()
    assert capsys.readouterr().err == "paralign align: error: <stdout>: No space left on device\n"


def test_stdout_closed_without_an_output_option_drops_what_is_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` and `download` have no -o: with stdout closed what they print (the address, the
    summary) is dropped, not a usage error telling them to give -o."""
    monkeypatch.setattr("sys.stdout", None)
    with stdout_for(argparse.Namespace(format="text")):
        sys.stdout.write("paralign serve: http://127.0.0.1:8000 (Ctrl-C stops)\n")
    assert sys.stdout is None


def test_a_positional_argument_given_stdin_is_named_by_its_placeholder(capsys):
    code = main(["align", "-", "--source", "-", "--target", "t.txt"])
    assert code == 2
    assert "but '-' is given twice: to the FILE argument and --source" in capsys.readouterr().err
