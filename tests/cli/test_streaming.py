"""CLI: the batch commands stream (`align`, `similarity`): a result is written as soon as its
input line is read and done, while the writer of the input (a co-process) waits for it, not
once a chunk of 64 (`align`) or a block of 512 (`similarity`) lines is full or stdin is closed.

Each test runs `main` in a thread with stdin and stdout pipes it holds, as a co-process would.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from paralign.cli import main

#: Seconds a test waits for a line before it fails (it comes in about one when the command streams).
WAIT = 30


class Piped:
    """`main(argv)` running in a thread, its stdin and stdout pipes held here."""

    def __init__(self, argv: list[str]) -> None:
        in_read, self._in = os.pipe()
        self._out, out_write = os.pipe()
        self.stdin = open(in_read, encoding="utf-8")  # noqa: SIM115 - closed by close()
        self.stdout = open(out_write, "w", encoding="utf-8")  # noqa: SIM115 - a block-buffered pipe, as a process's
        self.status: list[int] = []
        self._thread = threading.Thread(target=lambda: self.status.append(main(argv)), daemon=True)
        self._got = b""

    def start(self) -> None:
        self._thread.start()

    def send(self, text: str) -> None:
        os.write(self._in, text.encode("utf-8"))

    def line(self) -> str:
        """The next output line, read while stdin stays open; "" when none came in WAIT seconds."""
        while b"\n" not in self._got:
            ready, _, _ = select.select([self._out], [], [], WAIT)
            if not ready:
                return ""
            data = os.read(self._out, 1 << 16)
            if not data:
                break
            self._got += data
        line, _, self._got = self._got.partition(b"\n")
        return line.decode("utf-8") + "\n"

    def hang_up(self) -> None:
        """Close the reading end of stdout, as `| head -1` does once it has its line."""
        os.close(self._out)
        self._out = -1

    def done(self) -> bool:
        """Whether the command ended within WAIT seconds (stdin still open)."""
        self._thread.join(WAIT)
        return not self._thread.is_alive()

    def end(self) -> str:
        """Close stdin; the rest of the output once the command is done."""
        if self._in >= 0:
            os.close(self._in)
            self._in = -1
        self._thread.join(WAIT)
        rest = self._got
        if self._out < 0:  # hung up: what the command left in its buffer goes nowhere
            with contextlib.suppress(BrokenPipeError):
                self.stdout.close()
        else:
            self.stdout.close()
            while data := os.read(self._out, 1 << 16):
                rest += data
            os.close(self._out)
        self.stdin.close()
        return rest.decode("utf-8")


@contextmanager
def piped(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> Iterator[Piped]:
    run = Piped(argv)
    monkeypatch.setattr(sys, "stdin", run.stdin)
    monkeypatch.setattr(sys, "stdout", run.stdout)
    run.start()
    try:
        yield run
    finally:
        if not run.stdout.closed:
            run.end()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_align_answers_a_line_while_its_writer_waits(monkeypatch, fmt) -> None:
    """With the default --chunk-size (64), a co-process that sent one pair and waits for its
    line got nothing: the chunk waited for 63 more lines, or the end of stdin."""
    with piped(monkeypatch, ["align", "--tokenized", "--format", fmt]) as run:
        run.send("The cat sat .\tThe cat sat down .\n")
        first = run.line()
        run.send("Dogs bark .\tDogs bark .\n")
        second = run.line()
        rest = run.end()
    if fmt == "text":
        assert (first, second) == ("0-0 1-1 2-2 3-4\n", "0-0 1-1 2-2\n")
    else:
        assert [json.loads(x)["line"] for x in (first, second)] == [1, 2]
    assert rest == "" and run.status == [0]


@pytest.mark.parametrize(("options", "lines"), [
    ([], ['{"source": "A man plays a guitar.", "target": "A man plays a guitar."}\n',
          '{"source": "Cats sleep.", "target": "Dogs bark loudly."}\n']),
    (["--input-format", "tsv"], ["1\tA man plays a guitar.\tA man plays a guitar.\n", "Cats sleep.\tDogs bark loudly.\n"]),
])
def test_similarity_answers_a_line_while_its_writer_waits(monkeypatch, options, lines) -> None:
    """similarity read blocks of 512 pairs and wrote its scores without a flush: a co-process got
    its first score after 512 more lines (then some 900 more, the pipe's buffer), or at the end.
    (JSONL lines: a TSV input's layout is told from its first 50 lines, docs/CLI.md; with
    --input-format tsv, as align reads it, there is none to tell: TSV lines are answered too.)"""
    with piped(monkeypatch, ["similarity", "--aligner", "exact", *options]) as run:
        run.send(lines[0])
        first = run.line()
        run.send(lines[1])
        second = run.line()
        rest = run.end()
    assert (first, second, rest) == ("1.000000\n", "0.000000\n", "") and run.status == [0]


def test_a_file_is_read_in_whole_chunks(tmp_path, monkeypatch) -> None:
    """A file never waits: its pairs are cut into --chunk-size chunks as before (a pipe's writer
    that waits cuts a chunk short, never a file's lines)."""
    from paralign.aligners import batch

    sizes: list[int] = []
    real = batch._align_input_chunk

    def spy(aligner, chunk):
        sizes.append(len(chunk))
        return real(aligner, chunk)

    monkeypatch.setattr(batch, "_align_input_chunk", spy)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A b .\tA b .\n" * 5, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(["align", "--tokenized", "--chunk-size", "2", str(pairs)]) == 0
    assert sizes == [2, 2, 1]


def test_a_pipe_reader_knows_when_its_writer_waits(tmp_path) -> None:
    """`would_wait`: a line held or bytes ready, no; nothing sent yet, yes; the end, no; a file, never."""
    from paralign.textio import Utf8LineReader, input_bytes, open_text

    read_end, write_end = os.pipe()
    os.write(write_end, b"one\ntwo\n")  # before the reader looks for gzip's first byte
    with open(read_end, "rb") as raw, Utf8LineReader(input_bytes(raw, "<pipe>", close_raw=False), "<pipe>") as reader:
        lines = iter(reader)
        assert next(lines) == "one\n" and not reader.would_wait()  # "two" is held
        assert next(lines) == "two\n" and reader.would_wait()
        os.write(write_end, b"three\n")
        assert not reader.would_wait()
        assert next(lines) == "three\n" and reader.would_wait()
        os.close(write_end)
        assert not reader.would_wait() and list(lines) == []
    path = tmp_path / "x.txt"
    path.write_text("one\n", encoding="utf-8")
    with open_text(path) as handle:
        assert next(iter(handle)) == "one\n" and not handle.would_wait()


@pytest.mark.parametrize("command", [["align", "--tokenized"], ["similarity", "--aligner", "exact"]])
def test_a_reader_that_goes_away_ends_the_run_at_the_next_line(monkeypatch, capsys, command) -> None:
    """`... | head -1`: once the reader has gone, the next line's write ends the run with exit 0
    and no traceback (docs/CLI.md, Batches: its "Streaming"), while its input is still open:
    the rest of the input is not read and worked on for nothing."""
    with piped(monkeypatch, command) as run:
        run.send('{"source": "The cat sat .", "target": "The cat sat down ."}\n')
        assert run.line() != ""
        run.hang_up()
        run.send('{"source": "Dogs bark .", "target": "Dogs bark ."}\n')
        assert run.done() and run.status == [0]
        run.end()
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("command", "in_place"), [
    (["similarity", "--aligner", "exact", "--pairs"], "NA in the output"),
    (["lattice", "distance", "--tokenized", "--sentences"], "empty lines in the output"),
])
def test_the_bad_lines_of_a_batch_are_reported_by_the_one_rule(tmp_path, capsys, command, in_place) -> None:
    """A batch names its first 20 bad lines on stderr as it meets them, then says further ones
    are counted, not shown, and ends with "... and N more warnings" before its summary count
    (docs/CLI.md, Exit status; `cli._warnings`). Before, `similarity` and `lattice distance`
    named every one, as `align` did: a wrong file of 100,000 lines, 100,000 lines on stderr."""
    good = "A b .\tA b .\n" if command[0] == "similarity" else "a b\n"
    path = tmp_path / "x.txt"
    path.write_text(good + "\n" * 25 + good, encoding="utf-8")
    argv = [*command, str(path)] + ([str(path)] if command[0] == "lattice" else [])
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert [n for n in range(1, 28) if f"x.txt:{n}:" in err] == list(range(2, 22))
    assert err.splitlines()[-2:] == ["paralign: warning: ... and 5 more warnings",
                                     f"paralign: warning: {path}: 25 of 27 input lines bad (reported above; "
                                     f"{in_place})"]


@pytest.mark.parametrize(("command", "in_place"), [
    (["align", "--aligner", "exact", "--format", "text"], "empty lines in the output"),
    (["align", "--aligner", "exact", "--format", "json"], '"error" objects in the output'),
    (["similarity", "--aligner", "exact", "--format", "json", "--pairs"], "null in the output"),
])
def test_a_batch_s_summary_names_what_its_command_writes_for_a_bad_line(tmp_path, capsys, command, in_place) -> None:
    """The summary said "empty or NA in the output" (and "an "error" object or null") whatever
    the command: align never writes NA or null, similarity never an empty line. Each says its own."""
    path = tmp_path / "x.txt"
    path.write_text("A b .\tA b .\n\nA b .\tA b .\n", encoding="utf-8")
    assert main([*command, str(path)]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"paralign: warning: {path}: 1 of 3 input lines bad (reported above; {in_place})")


def _on_a_terminal(monkeypatch, argv: list[str], *, stdout_too: bool) -> str:
    """What a terminal of 100 columns shows of `main(argv)`'s stderr (and stdout when `stdout_too`;
    else stdout is a pipe)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # tqdm draws no bar 0 wide
    terminal = open(slave, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    out_read, out_write = os.pipe()
    stdout = terminal if stdout_too else open(out_write, "w", encoding="utf-8")  # noqa: SIM115
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(sys, "stdout", stdout)
    try:
        assert main(argv) == 0
    finally:
        stdout.close()
        terminal.close()
        if stdout_too:
            os.close(out_write)
        os.close(out_read)
    shown = b""
    while True:
        try:
            data = os.read(master, 1 << 16)
        except OSError:  # the terminal's other end is closed: all read
            break
        if not data:
            break
        shown += data
    os.close(master)
    return shown.decode("utf-8")


@pytest.mark.parametrize("command", [["align", "--tokenized", "--chunk-size", "1"],
                                     ["similarity", "--aligner", "exact", "--pairs"]])
def test_no_bar_drawn_over_results_streamed_to_the_terminal(tmp_path, monkeypatch, command) -> None:
    """`paralign align pairs.tsv` in a terminal drew its bar on the lines it wrote there:
    "aligning: 1it [00:03,  3.79s/it]1-5 8-8". Results streamed to the terminal show the progress
    themselves; with stdout a pipe, the bar is on stderr's terminal as before."""
    path = tmp_path / "pairs.tsv"
    path.write_text("A b .\tA b .\n" * 3, encoding="utf-8")
    bar = command[0] if command[0] == "similarity" else "aligning"
    assert f"{bar}:" in _on_a_terminal(monkeypatch, [*command, str(path)], stdout_too=False)
    shown = _on_a_terminal(monkeypatch, [*command, str(path)], stdout_too=True)
    assert f"{bar}:" not in shown and shown.count("\n") == 3


def _sigint_ignored() -> bool:
    import signal

    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


@pytest.mark.timeout(60)
def test_local_workers_leave_ctrl_c_to_the_job(monkeypatch) -> None:
    """Ctrl-C in a terminal reaches every process of its group: with --workers 2 each Dask worker
    printed `Process Dask Worker process (from Nanny): Traceback ... KeyboardInterrupt` under the
    command's own clean exit 130. A local cluster's workers now ignore SIGINT (`cluster.dask_setup`);
    the job's process hears it and stops them."""
    from paralign.cluster import ClusterOptions, connect

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    with connect(ClusterOptions(workers=1)) as client:
        ignored = client.run(_sigint_ignored)
    assert list(ignored.values()) == [True]


def _typed_on_a_terminal(argv: list[str], typed: bytes) -> tuple[str, str]:
    """`paralign ARGV` with its stdin a terminal on which `typed` is typed, then Ctrl-D:
    (stdout, stderr), stdout and stderr pipes."""
    import pty
    import subprocess

    master, slave = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "paralign", *argv], stdin=slave, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        os.close(slave)
        os.write(master, typed + b"\x04")  # Ctrl-D at a line's start: the end of the input
        out, err = process.communicate(timeout=60)
    finally:
        os.close(master)
    return out.decode("utf-8"), err.decode("utf-8")


@pytest.mark.timeout(90)
def test_input_from_a_terminal_says_how_to_end_it_once() -> None:
    """`paralign align` with no input file waited on the terminal without a word, which looked
    like a hang: one line on stderr now says where the input comes from and how to end it."""
    out, err = _typed_on_a_terminal(["align", "--tokenized"], b"A b .\tA b .\n")
    assert out == "0-0 1-1 2-2\n"
    assert err.count("reading standard input from the terminal") == 1 and "Ctrl-D" in err
