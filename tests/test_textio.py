"""paralign.textio: per-line decoding modes of Utf8LineReader (strict, replace, skip)."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from paralign.errors import ConfigurationError, FormatError
from paralign.textio import is_float_field, is_number_field, open_text


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_a_line_that_is_not_utf8_is_one_line_in_each_mode(tmp_path: Path, gz: bool, newline: bytes) -> None:
    data = newline.join([b"first", b"caf\xe9 \xff", "naïve".encode(), b"last"]) + newline
    path = tmp_path / ("x.txt.gz" if gz else "x.txt")
    path.write_bytes(gzip.compress(data) if gz else data)
    with pytest.raises(FormatError, match=r":2: not UTF-8 \(byte 0xe9 at column 4\)"):
        list(open_text(path))
    with open_text(path, errors="replace") as handle:
        assert list(handle) == ["first\n", "caf\ufffd \ufffd\n", "naïve\n", "last\n"]
    with open_text(path, errors="skip") as handle:
        assert list(handle) == ["first\n", "\n", "naïve\n", "last\n"]
        assert handle.bad_lines == {2: "not UTF-8 (byte 0xe9 at column 4); re-encode the file"}


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("data", [b"first\rcaf\xe9\rlast\r", b"one line\r", b"a\rb", b"\xef\xbb\xbfa\rb\r"])
def test_cr_only_line_ends_are_one_error_in_every_mode(tmp_path: Path, gz: bool, data: bytes) -> None:
    """A file saved with classic Mac line ends (CR, no LF anywhere) was many lines here and one
    giant line to the readers that split bytes; it is one FormatError at line 1 saying how to
    convert it, in every encoding-errors mode (the whole file is wrong, not one line)."""
    path = tmp_path / ("x.txt.gz" if gz else "x.txt")
    path.write_bytes(gzip.compress(data) if gz else data)
    for errors in ("strict", "replace", "skip"):
        for consume in (list, lambda h: h.read(), lambda h: h.readline()):
            with pytest.raises(FormatError) as info, open_text(path, errors=errors) as handle:
                consume(handle)
            assert str(info.value) == (f"{path}:1: line ends are CR only (classic Mac OS), not LF or CRLF: the file "
                                       "holds carriage returns and no line feed; convert it with tr '\\r' '\\n' "
                                       "< FILE > NEW")


def test_binary_data_with_crs_and_no_lf_is_named_binary_not_cr_line_ends(tmp_path: Path) -> None:
    """The head of an executable holds CRs and NULs and, in its first kilobytes, often no LF: it
    was told its line ends were CR only (classic Mac OS) and to convert them with tr; its NUL
    names it binary data, as in a file with LFs."""
    path = tmp_path / "x.txt"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00\r\x00\x00abc\r")
    with pytest.raises(FormatError) as info, open_text(path) as handle:
        handle.read()
    assert str(info.value) == f"{path}:1: a NUL byte (0x00 at column 8): binary data, not text"


@pytest.mark.parametrize("block_size", [1, 3, 1 << 16])
def test_a_lone_cr_reads_as_a_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block_size: int) -> None:
    """A stray CR inside a line split it in two here (universal newlines) but not in the readers
    that split bytes, so one file's line numbers differed between commands; it is no line end
    (CRLF still is) and reads as the white space it is, and a bad byte after it is named by the
    same line and column."""
    from paralign.textio import Utf8LineReader

    monkeypatch.setattr(Utf8LineReader, "block_size", block_size)
    path = tmp_path / "x.txt"
    path.write_bytes(b"one\ntwo\rthree\r\nfour\r\r\n\rfive")
    with open_text(path) as handle:
        assert list(handle) == ["one\n", "two three\n", "four \n", " five"]
    with open_text(path) as handle:
        assert handle.read() == "one\ntwo three\nfour \n five"
    path.write_bytes(b"one\ntwo\rthr\xe9e\nfour\n")
    with pytest.raises(FormatError, match=r"x\.txt:2: not UTF-8 \(byte 0xe9 at column 8\)"), open_text(path) as handle:
        list(handle)
    with open_text(path, errors="skip") as handle:
        assert list(handle) == ["one\n", "\n", "four\n"] and list(handle.bad_lines) == [2]


def test_line_numbers_of_skipped_lines_hold_across_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paralign.textio import Utf8LineReader

    monkeypatch.setattr(Utf8LineReader, "block_size", 7)  # many small blocks
    lines = [b"ok %d" % k if k % 5 else b"bad \xff %d" % k for k in range(1, 41)]
    path = tmp_path / "many.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    with open_text(path, errors="skip") as handle:
        read = list(handle)
        assert sorted(handle.bad_lines) == [5, 10, 15, 20, 25, 30, 35, 40]
    assert len(read) == 40 and read[4] == "\n" and read[5] == "ok 6\n"


def test_an_unknown_mode_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_text("a\n")
    with pytest.raises(ConfigurationError, match="encoding-errors"):
        open_text(path, errors="ignore")


def test_atomic_write_through_a_link_and_in_place_for_devices(tmp_path) -> None:
    """Writing replaces the file a symbolic link points to (the link stays); /dev/null and a
    path under /dev (/dev/stdout is a link to the process's own stdout) are written in place."""
    import os

    from paralign.textio import open_text
    from paralign.textout import AtomicTextWriter, _atomic_target

    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old\n", encoding="utf-8")
    link.symlink_to(real.name)
    with open_text(link, "wt") as handle:
        assert isinstance(handle, AtomicTextWriter)
        handle.write("new\n")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]
    with open_text("/dev/null", "wt") as handle:
        assert not isinstance(handle, AtomicTextWriter)
    assert _atomic_target(Path("/dev/stdout")) is None and os.path.islink("/dev/stdout")
    assert _atomic_target(Path("/proc/self/fd/1")) is None


def test_without_bom_drops_the_marks_starting_the_first_line_only() -> None:
    from paralign.textio import strip_bom, without_bom

    assert list(without_bom(["\ufeff\ufeffone\n", "\ufefftwo\n"])) == ["one\n", "\ufefftwo\n"]
    assert list(without_bom([])) == []
    assert strip_bom('\ufeff{"a": 1}') == '{"a": 1}' and strip_bom("a\ufeff") == "a\ufeff"


@pytest.mark.parametrize("name", ["x.TSV.GZ", "x.Gz", "x.txt", "noname"])
def test_gzip_is_told_by_its_data_whatever_the_name(tmp_path: Path, name: str) -> None:
    """X.GZ (upper case) and gzip data under any name were read as text: 'not UTF-8 (byte 0x8b)'.
    Errors still name the line of the decompressed text."""
    path = tmp_path / name
    path.write_bytes(gzip.compress("one\r\nnaïve\n".encode()))
    with open_text(path) as handle:
        assert list(handle) == ["one\n", "naïve\n"]
    path.write_bytes(gzip.compress(b"ok\nok\ncaf\xe9\n"))
    with pytest.raises(FormatError, match=rf"{name}:3: not UTF-8 \(byte 0xe9 at column 4\)"), open_text(path) as handle:
        list(handle)


def test_a_gz_name_in_any_case_asks_for_gzip(tmp_path: Path) -> None:
    """A .GZ file that is not gzip is refused as a .gz one is, not read as text."""
    from paralign.errors import InputFileError

    fake = tmp_path / "fake.TSV.GZ"
    fake.write_bytes(b"a\tb\n")
    with pytest.raises(InputFileError, match=r"fake\.TSV\.GZ: not a gzip file .*though the name ends in \.gz"), \
            open_text(fake) as handle:
        list(handle)


def test_gzip_on_a_stream_that_cannot_seek(tmp_path: Path) -> None:
    """A pipe (stdin, a FIFO) is sniffed without losing the bytes read to sniff it: gzip or text,
    read in blocks as they come; closing the reader leaves the stream open unless it owns it."""
    import io
    import os

    from paralign.textio import Utf8LineReader, gunzipped

    class Pipe(io.RawIOBase):  # gives one byte a read, and cannot seek, as a slow pipe
        def __init__(self, data: bytes) -> None:
            self.data = data

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:
            if not self.data:
                return 0
            buffer[:1], self.data = self.data[:1], self.data[1:]
            return 1

    for data in (gzip.compress(b"a\tb\nc\td"), b"a\tb\nc\td", b"a", b""):
        pipe = Pipe(data)
        with Utf8LineReader(gunzipped(pipe, "<stdin>", close_raw=False), "<stdin>") as handle:
            assert handle.read() == ("a\tb\nc\td" if len(data) > 1 else data.decode())
        assert not pipe.closed
    read, write = os.pipe()
    os.write(write, gzip.compress(b"x\n\xff\n"))
    os.close(write)
    with pytest.raises(FormatError, match=r"^<stdin>:2: not UTF-8"), \
            Utf8LineReader(gunzipped(open(read, "rb"), "<stdin>"), "<stdin>") as handle:  # noqa: SIM115
        list(handle)
    with pytest.raises(OSError):
        os.fstat(read)  # closed with the reader


@pytest.mark.parametrize("data", [b"caf\xe9", b"ok\ncaf\xe9", b"ok\r\ncaf\xe9 \xff"])
def test_a_last_line_without_newline_that_is_not_utf8_is_kept_in_skip_mode(tmp_path: Path, data: bytes) -> None:
    """With errors="skip" a bad last line with no newline after it vanished (decoded as "", which is
    no line): a batch gave no output line for it and counted nothing bad (a gzip file read as text
    gave empty output and exit 0). It is an empty line recorded in bad_lines, as any other bad line."""
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    with open_text(path, errors="skip") as handle:
        lines = list(handle)
        assert lines[-1] == "\n" and len(lines) == data.count(b"\n") + 1
        assert list(handle.bad_lines) == [len(lines)]


@pytest.mark.parametrize("atomic", [True, False])
def test_a_gzip_output_is_the_same_bytes_whenever_it_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               atomic: bool) -> None:
    """Every -o X.gz had the time of writing in its gzip header (MTIME), so two runs of one
    command on one input gave files that differ (cmp, sha256sum, a diff of the bytes); the
    header's time is 0 (none), as the table writer's gzip members (tables._encoded) have."""
    import os
    import time

    target = tmp_path / "out.tsv.gz"
    outputs = []
    for now in (1_000_000_000.0, 1_700_000_000.0):
        monkeypatch.setattr(time, "time", lambda now=now: now)
        if not atomic:  # a path written in place (a FIFO, /dev/stdout): the in-place gzip writer
            target.unlink(missing_ok=True)
            os.mkfifo(target)
            reader = os.open(target, os.O_RDONLY | os.O_NONBLOCK)
        with open_text(target, "wt") as handle:
            handle.write("naïve\n")
        outputs.append(os.read(reader, 1 << 16) if not atomic else target.read_bytes())
        if not atomic:
            os.close(reader)
    assert gzip.decompress(outputs[0]) == "naïve\n".encode()
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("name", ["out.TXT.GZ", "out.gZ"])
def test_an_output_named_gz_in_any_case_is_gzip(tmp_path: Path, name: str) -> None:
    """open_text(X.GZ, "wt") (behind every -o) wrote plain text, which reading X.GZ refuses:
    a .gz name in any case asks for gzip both ways."""
    with open_text(tmp_path / name, "wt") as handle:
        handle.write("naïve\n")
    assert gzip.decompress((tmp_path / name).read_bytes()) == "naïve\n".encode()
    with open_text(tmp_path / name) as handle:
        assert list(handle) == ["naïve\n"]


@pytest.mark.parametrize(("encoding", "mark"), [("utf-16", "ff fe"), ("utf-16-be", "fe ff"), ("utf-32", "ff fe 00 00")])
def test_utf16_and_utf32_text_is_one_error_naming_the_encoding(tmp_path: Path, encoding: str, mark: str) -> None:
    """UTF-16 text (a Windows editor's "Unicode") read as UTF-8 gave a bad line 1, then lines
    with a NUL between characters, which are valid UTF-8: batches took them as sentences and
    two files' line counts differed ('\\n' then NUL makes extra lines). It is one FormatError at
    line 1 saying what the encoding is, in every errors mode and through the binary readers."""
    from paralign.corpora.parallel import count_lines
    from paralign.textio import open_binary

    text = "one\nnaïve two\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path = tmp_path / "x.txt"
    for payload in (data, gzip.compress(data)):
        path.write_bytes(payload)
        for errors in ("strict", "skip", "replace"):
            with pytest.raises(FormatError, match=rf"x\.txt:1: UTF-{encoding[4:6]} text \(byte-order mark {mark}\), "
                               r"not UTF-8; re-encode the file"), open_text(path, errors=errors) as handle:
                list(handle)
        with pytest.raises(FormatError, match=r"x\.txt:1: UTF-"):
            count_lines(path)
        with pytest.raises(FormatError, match=r"x\.txt:1: UTF-"):
            open_binary(path)


def test_a_nul_byte_is_a_bad_byte_in_each_mode(tmp_path: Path) -> None:
    """A NUL is valid UTF-8, so a line holding one was read as text: a batch aligned it, a
    reader of sentences kept it, while JSON and Pharaoh readers reported the same line bad. It
    is a bad byte as one that is not UTF-8 is: an error naming file, line and column (strict),
    U+FFFD (replace), an empty line in bad_lines (skip)."""
    path = tmp_path / "x.txt"
    path.write_bytes(b"first\nsec\x00ond \xff\nlast\n")
    with pytest.raises(FormatError, match=r"x\.txt:2: a NUL byte \(0x00 at column 4\): binary data, not text"):
        list(open_text(path))
    with open_text(path, errors="replace") as handle:
        assert list(handle) == ["first\n", "sec\ufffdond \ufffd\n", "last\n"]
    with open_text(path, errors="skip") as handle:
        assert list(handle) == ["first\n", "\n", "last\n"]
        assert handle.bad_lines == {2: "a NUL byte (0x00 at column 4): binary data, not text"}
    path.write_bytes(b"ok\nbad \xff then \x00\n")  # the first bad byte is named
    with pytest.raises(FormatError, match=r"x\.txt:2: not UTF-8 \(byte 0xff at column 5\)"):
        list(open_text(path))


def test_pivot_reads_a_gzip_corpus_itself_whatever_its_name(tmp_path: Path) -> None:
    """pivot asked the workers to seek to byte offsets in a gzip corpus named X.en or X.EN.GZ
    (it looked for a name ending in '.gz'): right, as gzip is read by its data, but each
    worker decompressed the file from its start to reach its chunk. It reads them itself, as
    it does X.en.gz."""
    from paralign.pivot_input import read_on_workers
    from paralign.textio import is_gzip_file

    plain, links = tmp_path / "c.en", tmp_path / "links.txt"
    plain.write_text("a b\n", encoding="utf-8")
    links.write_text("0-0\n", encoding="utf-8")
    packed, upper = tmp_path / "packed.en", tmp_path / "c.EN.GZ"
    packed.write_bytes(gzip.compress(b"a b\n"))
    upper.write_bytes(gzip.compress(b"a b\n"))
    assert read_on_workers((plain, plain), links)
    assert not read_on_workers((packed, plain), links) and not read_on_workers((plain, upper), links)
    assert [is_gzip_file(p) for p in (plain, packed, upper, tmp_path / "missing")] == [False, True, True, False]


def test_a_pipe_is_sniffed_without_waiting_for_more_than_its_first_byte(tmp_path: Path) -> None:
    """A program that writes one empty line to paralign's stdin and waits for the answer (a
    co-process) must get it: sniffing for gzip waited for a second byte before the first line
    was read. Only a first byte 0x1f (gzip's) asks for the second."""
    import os
    import threading

    from paralign.textio import Utf8LineReader, input_bytes

    read, write = os.pipe()
    os.write(write, b"\n")
    got: list[str] = []
    with open(read, "rb") as raw:
        reader = threading.Thread(target=lambda: got.append(Utf8LineReader(input_bytes(raw, "<stdin>"), "<stdin>").readline()),
                                  daemon=True)
        reader.start()
        reader.join(5)
        answered = list(got)  # before the writer closes its end
        os.close(write)
        reader.join(5)
    assert answered == ["\n"]


def test_a_long_line_is_read_in_growing_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line longer than a block was read a block at a time, each joined to all the bytes
    before it: quadratic (a 13 MB file with CR-only line ends, one line until refused, took
    0.6 s to refuse, so 130 MB about a minute; 0.03 s now). Reads grow with the line, so it
    takes a few of them."""
    import io

    from paralign.textio import Utf8LineReader

    class Counted(io.BytesIO):
        reads = 0

        def read1(self, size: int = -1) -> bytes:
            Counted.reads += 1
            return super().read1(size)

    monkeypatch.setattr(Utf8LineReader, "block_size", 8)
    data = b"x" * 100_000 + b"\nshort\n"
    with Utf8LineReader(Counted(data), "long.txt") as handle:
        assert list(handle) == ["x" * 100_000 + "\n", "short\n"]
    assert Counted.reads < 40


@pytest.mark.parametrize(("path", "shown"), [(None, "NoneType None"), (5, "int 5"),
                                             (b"gold.jsonl", "bytes b'gold.jsonl'"),
                                             (["gold.jsonl"], r"list \['gold.jsonl'\]")])
def test_a_path_that_is_not_a_str_or_path_is_an_input_type_error(path, shown) -> None:
    """API audit: `load_pairs(None)`, `load_groups(5)`, `ParaphraseTable.from_tsv(None)`,
    `evaluate_aligner(aligner, None)` or `monolingual_paraphrases(None, out)` was pathlib's
    TypeError 'expected str, bytes or os.PathLike object'; every reader goes through these."""
    import paralign
    from paralign.errors import InputTypeError
    from paralign.textio import open_binary, open_text, require_file

    message = f"a file path must be a str or a pathlib.Path, not {shown}"
    for call in (require_file, open_binary, open_text, paralign.load_pairs, paralign.ParaphraseTable.from_tsv):
        with pytest.raises(InputTypeError, match=message):
            call(path)


def test_a_device_is_a_writable_output_though_its_folder_is_not(monkeypatch, tmp_path) -> None:
    """`-o /dev/null` (and every other check_output_file caller: to_tsv, the pivot pipelines)
    was "not writable" for every user but root: the check asked whether /dev, the folder, is
    writable, where the writer makes no temporary file: a device is written in place. A user
    is answered as os.access answers a user for /dev; the device itself must still be writable."""
    from paralign.errors import check_output_file

    access = os.access

    def as_a_user(path, mode, **kwargs):
        return str(path) != "/dev" and access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", as_a_user)
    assert str(check_output_file("/dev/null")) == "/dev/null"
    with pytest.raises(ConfigurationError, match="^/dev/nope: not writable$"):  # a new file in /dev
        check_output_file("/dev/nope")
    monkeypatch.setattr(os, "access", lambda path, mode, **kwargs: str(path) != "/dev/null" and access(path, mode, **kwargs))
    with pytest.raises(ConfigurationError, match="^/dev/null: not writable$"):
        check_output_file("/dev/null")
    assert check_output_file(tmp_path / "x.tsv") == tmp_path / "x.tsv"


def test_number_fields_refuse_a_digit_group_mark_and_read_the_rest_as_python_does() -> None:
    """float('0_5') is 5.0 and int('1_0') 10: no data file means that."""
    from paralign.textio import float_field, int_field

    assert float_field("0.5") == 0.5 and float_field(" -1e3 ") == -1000.0 and float_field("nan") != float_field("nan")
    assert int_field("12") == 12 and int_field("-3") == -3
    with pytest.raises(ValueError, match="could not convert string to float: '0_5'"):
        float_field("0_5")
    with pytest.raises(ValueError, match="invalid literal for int"):
        int_field("1_0")
    with pytest.raises(ValueError):
        float_field("x")


def test_is_float_field_takes_the_field_as_it_is():
    """float skips spaces around a number but not U+001C to U+001F, which str.strip removes: the
    STS reader's 'is not a finite number' is said only of a field float reads as it is."""
    assert is_float_field(" 3 ") and is_float_field("nan") and not is_float_field("0_5")
    assert not is_float_field("\x1c3")
    assert is_number_field("\x1c3")
