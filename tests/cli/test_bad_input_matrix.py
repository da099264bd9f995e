"""The bad-input matrix of docs/CLI.md (issue 23): every subcommand against every class of bad
input that applies to it, in-process through `paralign.cli.main(argv)`.

Each cell asserts the contract: the exit status; no traceback; an error that names the input
(and line 2, where the bad line is); the good items' output kept by batch commands; no output
file after a failure and no stray files (temporary copies, half-written outputs) after any run.

A command joins the matrix by adding one entry to ROWS (see `Row`; a key `command (what)` is
another way to call the same command, e.g. its second input form); `test_every_command_has_a_row`
fails for a subcommand of the CLI's own command table without one. Commands with no file to feed
go in NO_FILE_INPUT with the reason.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gzip
import io
import json
import os
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from paralign.cli import build_parser, main
from paralign.cli._command_line import output_names
from paralign.cli._common import non_negative_int, positive_int
from paralign.errors import OPEN_REASONS, ConfigurationError
from paralign.settings import data_dir
from paralign.textout import check_output_name

# -- good inputs (three or more lines; line 2 is where a bad line goes) ----------------------------
PAIRS = "The cat sat on the mat .\tA cat was sitting on the mat .\nPrices rose .\tPrices went up .\nShe ran .\tShe was running .\n"
STS = "4.0\tA man plays a guitar.\tA man plays a guitar.\n1.0\tCats sleep.\tDogs bark.\n3.0\tThe cat sleeps.\tThe cat naps.\n5.0\tThe dog runs.\tThe dog runs.\n"
MSRP = ("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n1\t1\t2\tA man plays.\tA man plays.\n"
        "0\t3\t4\tCats sleep.\tDogs bark.\n1\t5\t6\tThe cat sleeps.\tThe cat naps.\n0\t7\t8\tI run.\tYou swim far.\n")
GOLD = "".join(
    f'{{"id": "p{k}", "source": "{s}", "target": "{t}", "sure": [[0, 0], [1, 1]], "possible": []}}\n'
    for k, (s, t) in enumerate([("The cat sat .", "The cat sat ."), ("Prices rose .", "Prices went up ."),
                                ("She ran .", "She was running .")]))
PHARAOH = "0-0 1-1 2-2 3-3\n0-0 1-1\n0-0 1-1 2-3\n"
TABLE = "the cat\ta cat\t0.9\nsat\twas sitting\t0.5\nrose\twent up\t0.7\n"
SENTENCES = "the cat sat on the mat\nthe cat was sitting on the mat\na cat sat on the mat\n"
GROUPS = ("the cat sat on the mat\tthe cat was sitting on the mat\nprices rose sharply\tprices went up sharply\n"
          "she ran home\tshe was running home\n")
ENGLISH = "the car is small\nthe dog is big\nthe house is red\n"
LINKS = "0-0 1-1 2-2 3-3\n0-0 1-1 2-2 3-3\n0-0 1-1 2-2 3-3\n"
HYPS = "the cat sat on the mat\nprices went up\nshe ran home\n"
#: A metric's own segment scores of _wmt's systems (meta-eval --scores).
#: (Line 2 holds a space, where the classes put a bad byte: a field's spaces are not part of it.)
SCORES = "".join(f"{name}\t{k}\t{' ' if k == 2 and name == 'Good' else ''}{score}\n"
                 for name, score in (("Good", 0.9), ("Bad", 0.1), ("Mid", 0.5)) for k in (1, 2, 3))
#: A JSON line 2 whose string escape is half a UTF-16 surrogate pair (no character): class "surrogate".
SURROGATE_PAIR = '{"source": "The \\ud800 cat", "target": "A cat"}'
SURROGATE_GOLD = '{"id": "p9", "source": "The \\udc00 .", "target": "The cat .", "sure": [[0, 0]], "possible": []}'
LATTICE = '{"states": 3, "start": 0, "end": 2,\n"edges": [[0, "a", 1], [1, "b", 2], [1, "c", 2]],\n"weights": [2, 1, 1]}\n'


@dataclass(frozen=True)
class Row:
    """How to run one command on a good input `{in}`, and what each class of bad input gives.

    argv: the command line after `paralign`; ``{in}`` is the input under test (written as
    `name`), ``{in_dir}`` its folder, ``{out}`` an output file (name ``out`` + `out_suffix`),
    ``{NAME}`` another (good) input of `files`. expect: the exit status of each class whose
    outcome the command decides (empty, blank, utf8, columns, nan, inf, range, surrogate, mismatch); a
    class left out does not apply, except the classes every file input meets (see FIXED; a
    file named inside a folder option, ``{in_dir}``, cannot come as a stream: no STREAM_CLASSES).
    bad_lines: the line 2 that makes a class (columns, nan, inf, range, surrogate). mismatch: the option
    whose file must have as many lines as `{in}`. counts: options that take a count >= 1 and
    are checked by the library (those the parser checks, positive_int, are found in it).
    batch: bad lines are reported in place and the output keeps the good lines (text, one a line).
    A BOM gives every command the output of the good input (CRLF and a long line: batches), unless
    `varies` says why its output cannot be compared (timings; a hash of the input's bytes).
    known: cells where the command does not meet the contract yet (strict xfail, with the reason:
    the cell fails once the command is fixed, so the entry is removed then).
    """

    argv: tuple[str, ...]
    good: str
    expect: dict[str, int]
    files: dict[str, str] = field(default_factory=dict)
    bad_lines: dict[str, str] = field(default_factory=dict)
    counts: tuple[str, ...] = ()
    batch: bool = False
    name: str = "in.txt"
    out_suffix: str = ".txt"
    output: bool = True  # has -o (output classes apply)
    known: dict[str, str] = field(default_factory=dict)  # class -> how the command still breaks the contract
    lines: bool = True  # a bad line's error names it (False: a JSON document, whose errors name the item)
    varies: str = ""  # why two runs on the same input write different outputs (the bom cell then checks no output)


ROWS: dict[str, Row] = {
    "align": Row(("align", "{in}", "--similarity", "none", "-o", "{out}"), PAIRS,
                 {"empty": 0, "blank": 1, "utf8": 0, "columns": 0, "surrogate": 0},
                 bad_lines={"columns": "no tab here", "surrogate": SURROGATE_PAIR}, batch=True),
    "align (--source/--target)": Row(("align", "--source", "{in}", "--target", "{TARGET}", "--similarity", "none",
                                      "-o", "{out}"), HYPS, {"empty": 1, "blank": 1, "utf8": 0, "mismatch": 1},
                                     files={"TARGET": HYPS}, batch=True),
    "align (--similarity)": Row(("align", "{PAIRS}", "--similarity", "{in}", "-o", "{out}"), TABLE,
                                {"empty": 0, "blank": 0, "utf8": 1, "columns": 1, "nan": 1, "inf": 1},
                                files={"PAIRS": PAIRS}, bad_lines={"columns": "one field only", "nan": "sat\tsits\tnan",
                                                                   "inf": "sat\tsits\tinf"}),
    "similarity": Row(("similarity", "--pairs", "{in}", "--aligner", "exact", "-o", "{out}"), PAIRS,
                      {"empty": 0, "blank": 1, "utf8": 0, "columns": 0, "surrogate": 0},
                      bad_lines={"columns": "no tab here", "surrogate": SURROGATE_PAIR}, batch=True),
    "evaluate-sts": Row(("evaluate-sts", "--data", "{in}", "--aligner", "exact", "-o", "{out}"), STS,
                        {"empty": 1, "blank": 1, "utf8": 1, "columns": 0, "nan": 0, "inf": 0, "range": 0},
                        bad_lines={"columns": "2.0\tonly one sentence", "nan": "nan\ta b\ta b",
                                   "inf": "inf\ta b\ta b", "range": "7.5\ta b\ta b"}),
    "evaluate-paraphrase": Row(
        ("evaluate-paraphrase", "--train", "{in}", "--test", "{TEST}", "--aligner", "exact",
         "--classifier", "signal", "-o", "{out}"), MSRP,
        {"empty": 1, "blank": 1, "utf8": 1, "columns": 0, "range": 0}, files={"TEST": MSRP},
        bad_lines={"columns": "1\t9\t9\tonly one sentence", "range": "7\t9\t9\tA b.\tA b."}),
    "evaluate-aligner": Row(("evaluate-aligner", "--gold", "{in}", "--similarity", "none", "-o", "{out}"), GOLD,
                            {"empty": 1, "blank": 1, "utf8": 0, "columns": 0, "surrogate": 0},
                            bad_lines={"columns": '{"id": "x"}', "surrogate": SURROGATE_GOLD},
                            varies="its report ends with timings (pairs/s)"),
    "tune-aligner": Row(("tune-aligner", "--gold", "{in}", "--similarity", "none", "--ppdb-grid", "0.9",
                         "--w-grid", "0.9", "-o", "{out}"), GOLD,
                        {"empty": 1, "blank": 1, "utf8": 0, "columns": 0, "surrogate": 0},
                        bad_lines={"columns": '{"id": "x"}', "surrogate": SURROGATE_GOLD}),
    "score-alignments": Row(("score-alignments", "--gold", "{GOLD}", "--system", "{in}", "-o", "{out}"), PHARAOH,
                            {"empty": 1, "blank": 0, "utf8": 0, "columns": 0, "mismatch": 1}, files={"GOLD": GOLD},
                            bad_lines={"columns": "0-0 1-x"}),
    "parametric align": Row(("parametric", "align", "--gold", "{GOLD}", "--system", "{in}", "-o", "{out}"), PHARAOH,
                            {"empty": 1, "blank": 0, "utf8": 0, "columns": 0, "mismatch": 1}, files={"GOLD": GOLD},
                            bad_lines={"columns": "0-0 1-x"}, counts=("--max-length",)),
    "parametric table": Row(("parametric", "table", "--gold", "{GOLD}", "--table", "{in}", "-o", "{out}"), TABLE,
                            {"empty": 0, "blank": 0, "utf8": 1, "columns": 1, "nan": 1, "inf": 1},
                            files={"GOLD": GOLD}, counts=("--max-length",), bad_lines={"columns": "one field only", "nan": "sat\tsits\tnan",
                                                             "inf": "sat\tsits\tinf"}),
    "paraeval": Row(("paraeval", "-r", "{REF}", "-i", "{in}", "--resources", "none", "-o", "{out}"), HYPS,
                    {"empty": 1, "blank": 0, "utf8": 1, "mismatch": 1}, files={"REF": HYPS},
                    counts=("--max-length", "--min-paraphrase-length")),
    "lattice build": Row(("lattice", "build", "{in}", "-o", "{out}"), SENTENCES, {"empty": 0, "blank": 0, "utf8": 1}),
    "lattice draw": Row(("lattice", "draw", "{in}", "-o", "{out}"), SENTENCES, {"empty": 1, "blank": 1, "utf8": 1},
                        out_suffix=".dot"),
    "lattice paths": Row(("lattice", "paths", "{in}", "-o", "{out}"), SENTENCES, {"empty": 1, "blank": 1, "utf8": 1}),
    "lattice paths (--lattice)": Row(("lattice", "paths", "--lattice", "{in}", "-o", "{out}"), LATTICE,
                                     {"empty": 1, "blank": 1, "utf8": 1, "columns": 1, "nan": 1, "surrogate": 1},
                                     bad_lines={"columns": '"edges": [[0, "a"], [1, "b", 2]],', "nan": '"edges": NaN,',
                                                "surrogate": '"edges": [[0, "\\ud800", 1], [1, "b", 2], [1, "c", 2]],'},
                                     name="in.json"),
    "lattice distance": Row(("lattice", "distance", "{in}", "--sentence", "the cat sat", "-o", "{out}"), SENTENCES,
                            {"empty": 1, "blank": 1, "utf8": 1}),
    "lattice distance (--sentences)": Row(("lattice", "distance", "{GROUP}", "--sentences", "{in}", "--tokenized",
                                           "-o", "{out}"), SENTENCES, {"empty": 1, "blank": 1, "utf8": 0},
                                          files={"GROUP": SENTENCES}, batch=True),
    "lattice paraphrases": Row(("lattice", "paraphrases", "--groups", "{in}", "-o", "{out}"), GROUPS,
                               {"empty": 0, "blank": 0, "utf8": 1}),
    "lattice stats": Row(("lattice", "stats", "--groups", "{in}", "-o", "{out}"), GROUPS,
                         {"empty": 1, "blank": 1, "utf8": 1}),
    "paraphrase-table": Row(("paraphrase-table", "--groups", "{in}", "--aligner", "sultan", "-o", "{out}"), GROUPS,
                            {"empty": 1, "blank": 1, "utf8": 1}),
    "pivot": Row(("pivot", "--english", "{in}", "--foreign", "{FOREIGN}", "--alignment", "{LINKS}", "-o", "{out}"),
                 ENGLISH, {"empty": 1, "blank": 1, "utf8": 1, "mismatch": 1},
                 files={"FOREIGN": ENGLISH, "LINKS": LINKS}, counts=("--max-length", "--chunk-size", "--top-k")),
    "paraphrases (--phrases)": Row(("paraphrases", "--phrases", "{in}", "--table", "{TABLE}", "-o", "{out}"),
                                   "the cat\nthe cat sat\nrose\n", {"empty": 0, "blank": 1, "utf8": 0},
                                   files={"TABLE": TABLE}),
    "paraphrases": Row(("paraphrases", "the cat", "--table", "{in}", "-o", "{out}"), TABLE,
                       {"empty": 0, "blank": 0, "utf8": 1, "columns": 1, "nan": 1, "inf": 1},
                       bad_lines={"columns": "one field only", "nan": "sat\tsits\tnan", "inf": "sat\tsits\tinf"},
                       counts=("--top-k",)),
    "word-align": Row(("word-align", "--source", "{in}", "--target", "{TARGET}", "-o", "{out}"), ENGLISH,
                      {"empty": 1, "blank": 1, "utf8": 1, "mismatch": 1}, files={"TARGET": ENGLISH},
                      varies="eflomal samples without a seed: two runs may link differently (the BOM case "
                             "is tests/cli/test_pivot.py's, with a deterministic stand-in)"),
    "meta-eval": Row(("meta-eval", "--wmt", "{WMT}", "--pair", "de-en", "--metrics", "paraeval",
                      "--resources", "none", "--table", "{in}", "--resamples", "5", "-o", "{out}"), TABLE,
                     {"empty": 0, "blank": 0, "utf8": 1, "columns": 1, "nan": 1}, files={"WMT": ""},
                     bad_lines={"columns": "one field only", "nan": "sat\tsits\tnan"},
                     counts=("--max-length", "--min-paraphrase-length"),
                     varies="its signature holds the SHA-256 of the --table file's bytes"),
    "meta-eval (--scores)": Row(("meta-eval", "--wmt", "{WMT}", "--pair", "de-en", "--metrics", "bleu",
                                 "--scores", "{in}", "--resamples", "5", "-o", "{out}"), SCORES,
                                {"empty": 1, "blank": 1, "utf8": 1, "columns": 1, "nan": 1, "inf": 1},
                                files={"WMT": ""},
                                bad_lines={"columns": "Good\t2", "nan": "Good\t2\tnan", "inf": "Good\t2\tinf"}),
    "demo": Row(("demo", "--examples", "{in_dir}", "-o", "{out}"), GOLD, {"empty": 1, "blank": 1, "utf8": 0, "surrogate": 0},
                bad_lines={"surrogate": SURROGATE_GOLD},
                name="examples/gold.jsonl"),
}

#: Subcommands with no file input to feed bad bytes to, and why.
NO_FILE_INPUT: dict[str, str] = {
    "download": "fetches NLTK data over the network; its only option is a target folder",
    **{f"cache {action}": "reads only the cache folder (PARALIGN_CACHE_DIR): its missing, empty and unreadable "
       "folders are tested in tests/cli/test_cache.py" for action in ("dir", "info", "list", "prune", "purge")},
    "serve": "a server that keeps running (a good --table never returns): its start-up errors "
             "(test_a_bad_table_stops_before_serving) and its request inputs are tested in tests/cli/test_serve.py "
             "and tests/web",
}

#: Classes every file input meets, with the exit status the contract fixes (None: as the good input).
FIXED: dict[str, int | None] = {
    "missing": 2, "directory": 2, "unreadable": 2, "bom": None, "crlf": None, "long_line": None,
    "no_newline": None, "gzip": None, "utf16": 1, "cr_only": 1, "lone_cr": None,
    "stdin": None, "dev_stdin": None, "pipe": None, "fifo": None, "gzip_stdin": None,
}
OUTPUT_CLASSES = {"output_dir": 2, "output_no_folder": 2, "output_unwritable": 2}  # unwritable: a folder of mode 0o555
#: The errno whose reason (errors.OPEN_REASONS) the message of each class that cannot be opened gives.
OPEN_ERRNO = {"missing": errno.ENOENT, "directory": errno.EISDIR, "unreadable": errno.EACCES}
LINE_CLASSES = ("utf8", "nul", "columns", "nan", "inf", "range", "strict", "surrogate")
#: Classes that are a bad byte in line 2, as "utf8" is: the row's "utf8" status is theirs.
BAD_BYTE_CLASSES = ("nul",)
#: Classes whose output is the good input's (a BOM too, unless the row's output varies).
SAME_OUTPUT_CLASSES = ("bom", "no_newline", "gzip", "lone_cr")


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> list[str]:
    """The CLI's own command table: every (sub)subcommand, as typed (`lattice build`)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _commands(sub, f"{prefix}{name} ") or [f"{prefix}{name}"]
    return found


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for word in command.split():
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[word]
    return parser


def _count_options(command: str, row: Row) -> list[tuple[str, tuple[str, ...]]]:
    """The command's count options and the bad values to try: those its parser checks (type
    positive_int: 0 and -1; non_negative_int: -1), found in the parser, and the row's `counts`
    (checked by the library: 0 and -1)."""
    found = {}
    for action in _subparser(command)._actions:
        if action.type in (positive_int, non_negative_int) and action.option_strings:
            option = max(action.option_strings, key=len)
            found[option] = ("0", "-1") if action.type is positive_int else ("-1",)
    return [*found.items(), *((option, ("0", "-1")) for option in row.counts if option not in found)]


def test_every_command_has_a_row() -> None:
    commands = set(_commands(build_parser()))
    rows = {_command(key) for key in ROWS} | set(NO_FILE_INPUT)
    assert commands == rows, (f"commands without a row in ROWS (or NO_FILE_INPUT): {sorted(commands - rows)}; "
                              f"rows for no command: {sorted(rows - commands)}")


def _command(key: str) -> str:
    """The command of a ROWS key: `align (--source/--target)` is a second row of `align`."""
    return key.split(" (")[0]


#: Classes whose input comes as a stream (stdin, /dev/stdin, a named pipe) instead of a file.
STREAM_CLASSES = ("stdin", "dev_stdin", "pipe", "fifo", "gzip_stdin")


def _cells() -> list:
    cells = []
    for command, row in ROWS.items():
        classes = [*FIXED, *row.expect, *BAD_BYTE_CLASSES, *(OUTPUT_CLASSES if row.output else ()),
                   *(["strict"] if row.batch else [])]
        classes += [f"{option}={value}" for option, values in _count_options(_command(command), row)
                    for value in values]
        if "{in_dir}" in row.argv:  # the input is a file inside a folder option: no stream to give it
            classes = [cls for cls in classes if cls not in STREAM_CLASSES]
        for cls in classes:
            marks = [pytest.mark.xfail(strict=True, reason=row.known[cls])] if cls in row.known else []
            cells.append(pytest.param(command, cls, marks=marks, id=f"{command.replace(' ', '-')}:{cls}"))
    return cells


# -- building a cell's input ----------------------------------------------------------------------
def _variant(row: Row, cls: str) -> bytes | None:
    """The bytes of `{in}` for class `cls` (None: no file at all)."""
    good = row.good.encode("utf-8")
    lines = row.good.splitlines(keepends=True)
    if cls == "empty":
        return b""
    if cls == "blank":
        return b"\n  \n\t\n"
    if cls == "bom":
        return b"\xef\xbb\xbf" + good
    if cls == "no_newline":
        return good.rstrip(b"\n")
    if cls in ("gzip", "gzip_stdin"):  # gzip data under a name that does not say so (or on stdin)
        return gzip.compress(good)
    if cls == "utf16":  # as a Windows editor saves "Unicode" text
        return row.good.encode("utf-16")
    if cls == "nul":  # a NUL byte in line 2
        return "".join(lines[:1]).encode("utf-8") + lines[1].encode("utf-8").replace(b" ", b" \x00 ", 1) \
            + "".join(lines[2:]).encode("utf-8")
    if cls == "crlf":
        return good.replace(b"\n", b"\r\n")
    if cls == "cr_only":  # classic Mac line ends: CR, no LF anywhere
        return good.replace(b"\n", b"\r")
    if cls == "lone_cr":  # a stray CR for the first space of line 2 (an LF file)
        return "".join(lines[:1]).encode("utf-8") + lines[1].encode("utf-8").replace(b" ", b"\r", 1) \
            + "".join(lines[2:]).encode("utf-8")
    if cls == "long_line":  # line 2 padded with 1 MB of spaces
        return "".join(lines[:1] + [lines[1].rstrip("\n") + " " * (1 << 20) + "\n"] + lines[2:]).encode("utf-8")
    if cls in ("utf8", "strict"):  # a Latin-1 byte in line 2 (with --strict: exit 1)
        return "".join(lines[:1]).encode("utf-8") + lines[1].encode("utf-8").replace(b" ", b" caf\xe9 ", 1) \
            + "".join(lines[2:]).encode("utf-8")
    if cls in row.bad_lines:
        return "".join(lines[:1] + [row.bad_lines[cls] + "\n"] + lines[2:]).encode("utf-8")
    if cls == "mismatch":
        return "".join(lines[:-1]).encode("utf-8")
    return good


def _wmt(root: Path) -> None:
    """A three-segment WMT21-layout folder (two systems, one reference) for meta-eval."""
    for sub in ("references", "system-outputs", "sources"):
        (root / "txt" / sub).mkdir(parents=True)
    (root / "humaneval").mkdir()
    (root / "txt" / "references" / "newstest2021.de-en.ref.A.en").write_text(HYPS, encoding="utf-8")
    for name, text in (("Good", HYPS), ("Bad", "cat\nprices\nran\n"), ("Mid", "the cat sat\nprices rose\nshe ran\n")):
        (root / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en").write_text(text, encoding="utf-8")
    (root / "humaneval" / "ad-sys-ranking-de-en-z-names.csv").write_text(
        "80.0 0.5 3 3 g Good\n20.0 -0.6 3 3 b Bad\n50.0 0.1 3 3 m Mid\n", encoding="utf-8")


@dataclass
class Run:
    code: int
    out: str
    err: str
    output: str | None  # the -o file's text, None when absent


def _run(argv: list[str], capsys: pytest.CaptureFixture, out: Path | None) -> Run:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    output = out.read_text(encoding="utf-8") if out is not None and out.is_file() else None
    return Run(code, captured.out, captured.err, output)


def _argv(row: Row, inputs: dict[str, str], out: str) -> list[str]:
    return [arg.format(out=out, **inputs) for arg in row.argv]


def _setup(row: Row, root: Path, data: bytes | None, directory: bool = False) -> dict[str, str]:
    """Write `{in}` (the bytes, or a folder) and the row's other inputs under `root`; the placeholders."""
    path = root / row.name
    path.parent.mkdir(parents=True, exist_ok=True)
    if directory:
        path.mkdir()
    elif data is not None:
        path.write_bytes(data)
    inputs = {"in": row.name, "in_dir": str(Path(row.name).parent)}
    for key, text in row.files.items():
        if key == "WMT":
            _wmt(root / "wmt")
            inputs[key] = "wmt"
        else:
            (root / f"{key.lower()}.txt").write_text(text, encoding="utf-8")
            inputs[key] = f"{key.lower()}.txt"
    return inputs


def _stray_temporaries() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("paralign-*")}


@pytest.fixture(autouse=True)
def private_tempdir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The commands' temporary copies go to a folder of this test's own (``tempfile.tempdir`` in
    this process, ``TMPDIR`` for child processes), so the "no temporary copy left behind" check
    sees only this test's: other processes' ``paralign-*`` folders in the machine's temporary
    folder (a benchmark, another test run) made it fail now and then."""
    folder = tmp_path_factory.mktemp("tempdir")
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture(scope="module")
def good_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """Each command's run on its good input (lazily, once per module)."""
    return {}


def _good(command: str, good_runs: dict[str, Run], tmp_path_factory, capsys) -> Run:
    if command not in good_runs:
        row = ROWS[command]
        root = tmp_path_factory.mktemp("good")
        cwd = Path.cwd()
        os.chdir(root)
        try:
            inputs = _setup(row, root, row.good.encode("utf-8"))
            good_runs[command] = _run(_argv(row, inputs, "out" + row.out_suffix), capsys, root / ("out" + row.out_suffix))
        finally:
            os.chdir(cwd)
    run = good_runs[command]
    if run.code != 0 and ("NLTK_DATA" in run.err or "no spaCy English model" in run.err or data_dir() is None):
        pytest.skip(f"a resource this command needs is not installed (NLTK data, spaCy model; "
                    f"PARALIGN_DATA): {run.err.strip()}")
    assert run.code == 0, run.err
    return run


def _feed(cls: str, data: bytes, monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[str, int | None]:
    """What to give as `{in}` for the stream classes ('-', /dev/stdin, a pipe's /dev/fd/N, a
    FIFO made at `name`); the pipe's read end to close after the run."""
    if cls in ("stdin", "dev_stdin", "gzip_stdin"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        return ("/dev/stdin" if cls == "dev_stdin" else "-"), None
    if cls == "fifo":
        os.mkfifo(name)

        def fifo_writer() -> None:  # opening blocks until the command opens the FIFO (see _unblock)
            with open(name, "wb") as handle, contextlib.suppress(BrokenPipeError):
                handle.write(data)

        threading.Thread(target=fifo_writer, daemon=True).start()
        return name, None
    read, write = os.pipe()

    def writer() -> None:
        with os.fdopen(write, "wb") as handle, contextlib.suppress(BrokenPipeError):  # a reader that stopped early
            handle.write(data)

    threading.Thread(target=writer, daemon=True).start()
    return f"/dev/fd/{read}", read


def _unblock(path: str) -> None:
    """Let a FIFO's writer go when the command never opened the FIFO (it failed before)."""
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))


@pytest.mark.parametrize(("command", "cls"), _cells())
def test_cell(command: str, cls: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture, good_runs, tmp_path_factory, as_file_owner) -> None:
    row = ROWS[command]
    good = _good(command, good_runs, tmp_path_factory, capsys)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PARALIGN_DEBUG", raising=False)
    temporaries = _stray_temporaries()
    data = None if cls == "missing" else _variant(row, cls)
    inputs = _setup(row, tmp_path, data, directory=cls == "directory")
    out = "out" + row.out_suffix
    pipe = None
    if cls in STREAM_CLASSES:
        (tmp_path / row.name).unlink()
        fed = gzip.compress(row.good.encode("utf-8")) if cls == "gzip_stdin" else row.good.encode("utf-8")
        inputs["in"], pipe = _feed(cls, fed, monkeypatch, row.name)
    elif cls == "unreadable":
        (tmp_path / row.name).chmod(0)
    elif cls == "output_unwritable":
        (tmp_path / "locked").mkdir(mode=0o555)
        out = "locked/out" + row.out_suffix
    elif cls in OUTPUT_CLASSES:
        out = "." if cls == "output_dir" else "no/such/folder/out.txt"
    before = set(tmp_path.rglob("*"))
    argv = _argv(row, inputs, out)
    if "=" in cls:  # a count option below 1
        option, value = cls.split("=")
        argv += [option, value]
    if cls == "strict":
        argv.append("--strict")
    try:
        with as_file_owner() if cls in ("unreadable", "output_unwritable") else contextlib.nullcontext():
            run = _run(argv, capsys, tmp_path / out)
    finally:
        if pipe is not None:
            os.close(pipe)
        if cls == "fifo":
            _unblock(row.name)
    expected = _expected(row, cls, good)
    assert run.code == expected, f"{argv}: exit {run.code}, expected {expected}\n{run.err}"
    assert "Traceback" not in run.err
    _check_messages(row, cls, run, inputs["in"], argv)
    _check_outputs(row, cls, run, good)
    after = set(tmp_path.rglob("*"))
    made = {p.relative_to(tmp_path).as_posix() for p in after - before}
    assert made <= ({out} if run.code == 0 or row.batch else set()), f"stray or half-written files: {made}"
    assert _stray_temporaries() <= temporaries, "a temporary copy was left behind"


def _expected(row: Row, cls: str, good: Run) -> int:
    if cls in row.expect:
        return row.expect[cls]
    if cls in BAD_BYTE_CLASSES:
        return row.expect["utf8"]
    if cls == "strict":  # a batch with a bad line, run with --strict
        return 1
    if cls in OUTPUT_CLASSES or "=" in cls:
        return 2
    fixed = FIXED[cls]
    return good.code if fixed is None else fixed


def _check_messages(row: Row, cls: str, run: Run, shown: str, argv: list[str]) -> None:
    """An error is one `paralign CMD: error:` line (or argparse's usage) naming what is wrong."""
    name = "<stdin>" if shown in ("-", "/dev/stdin") else shown
    if run.code == 2 and (cls in OUTPUT_CLASSES or "=" in cls):
        option = cls.split("=")[0]
        named = (("argument -o/--output", "argument --output/-o") if cls in OUTPUT_CLASSES else
                 (f"argument {option}", f"{option}/", f"/{option}: "))  # the flag as typed, not max_length
        assert any(text in run.err for text in named), run.err  # named, and refused before any work
    elif run.code == 1 and row.batch and ": error: " not in run.err:  # every item bad, or --strict
        assert f"{name}:{2 if cls == 'strict' else 1}:" in run.err, run.err  # each reported with file and line
        assert f"{name}: " in run.err and " input lines bad" in run.err  # the summary count
    elif run.code != 0:
        errors = [line for line in run.err.splitlines() if ": error: " in line]
        assert len(errors) == 1, run.err
        if cls in ("missing", "directory", "unreadable"):
            assert f"{shown}: {OPEN_REASONS[OPEN_ERRNO[cls]]}" in errors[0], errors[0]  # in every reader's words
        elif cls == "utf16":  # one error for the whole file, saying what it is
            assert f"{name}:1: UTF-16 text (byte-order mark ff fe), not UTF-8" in errors[0], errors[0]
        elif cls == "cr_only":  # one error for the whole file, saying how to convert it
            assert f"{name}:1: line ends are CR only (classic Mac OS)" in errors[0] and "tr '\\r' '\\n'" in errors[0]
        elif cls in LINE_CLASSES:
            assert f"{name}:2:" in run.err if row.lines or cls in ("utf8", *BAD_BYTE_CLASSES) else f"{name}: " in run.err, run.err
        elif cls == "mismatch":  # both files named
            assert name in errors[0] and any(other in errors[0] for other in _others(row)), errors[0]
        else:
            assert name in errors[0] or Path(shown).parent.as_posix() in errors[0], errors[0]
    elif cls in LINE_CLASSES:  # a bad line skipped: reported with its file and line
        assert f"{name}:2" in run.err, run.err
    assert "paralign-" not in run.err + run.out + (run.output or ""), "a temporary copy is named"


def _others(row: Row) -> list[str]:
    """The names of a row's other inputs, as `_setup` writes them."""
    return [f"{key.lower()}.txt" for key in row.files if key != "WMT"]


def _check_outputs(row: Row, cls: str, run: Run, good: Run) -> None:
    """Success keeps what the good input gives; a failure writes no output file."""
    if run.code != 0 and row.batch and cls != "strict":  # every item bad: still one output line per input line
        assert run.output is None or len(run.output.splitlines()) == len(_variant(row, cls).splitlines())
        return
    if run.code != 0 and cls != "strict":
        assert run.output is None
        return
    if (cls in SAME_OUTPUT_CLASSES and not row.varies) or (cls in ("crlf", "long_line") and row.batch):
        assert run.output == good.output
    if cls in STREAM_CLASSES:
        assert bool(run.output) == bool(good.output)
    if row.batch and cls in LINE_CLASSES and run.output is not None:  # the bad line 2 is empty (or NA) in its place
        lines, expected = (run.output or "").splitlines(), (good.output or "").splitlines()
        assert len(lines) == len(expected) and lines[0] == expected[0] and lines[2:] == expected[2:]
        assert lines[1] in ("", "NA")


# -- an output's name and --format (docs/CLI.md, Files: Outputs) ------------------------------------
# Every command with -o, every --format it has, against every suffix that names a format (looked
# through a .gz): a name of another format than the command writes there is a usage error before
# any work (exit 2, the message naming the option, the file and its suffix, no file written); a name
# of the format written, another suffix or none is accepted, and a right name still gets the
# output. The commands are ROWS' (their good inputs and command lines) and `cache`'s actions;
# `test_every_command_with_an_output_is_here` fails for a command with -o missing from WRITES.

TEXT = (".txt",)
TSV = (".tsv", ".txt")  # a TSV file is text lines too
JSON = (".json", ".jsonl")  # JSON lines or one document: both JSON
PICTURES = (".svg", ".html", ".htm")
REPORTS = {"text": TEXT, "json": JSON}
#: Every command with -o: the suffixes (of SUFFIXES) its -o accepts, by --format ("-": any --format).
WRITES: dict[str, dict[str, tuple[str, ...]]] = {
    "align": {"text": TEXT, "json": JSON, "pretty": TEXT, "svg": (".svg",), "html": (".html", ".htm")},
    "similarity": {"text": TSV, "json": JSON},  # text: a score a line (TAB its label with --model)
    **dict.fromkeys(("evaluate-sts", "evaluate-paraphrase", "evaluate-aligner", "tune-aligner", "score-alignments",
                     "parametric align", "parametric table", "meta-eval", "demo", "lattice paths", "lattice stats",
                     "paraphrases", *(f"cache {a}" for a in ("dir", "info", "list", "prune", "purge"))), REPORTS),
    "paraeval": {"text": TEXT, "json": JSON, "tsv": TSV},
    "lattice build": {"text": TSV, "json": JSON},  # OpenFst text: tab-separated; no picture (lattice draw)
    "lattice draw": {"-": PICTURES},  # the suffix says what is drawn (.dot, .png too)
    "lattice distance": {"text": TSV, "json": JSON},  # DISTANCE TAB TOKENS TAB SENTENCE
    "lattice paraphrases": {"text": TSV, "json": JSON},
    "paraphrase-table": {"-": TSV},  # the table (.parquet: Parquet); --format is the report's, on stdout
    "pivot": {"-": TSV},
    "word-align": {"-": TEXT},  # Pharaoh links, whatever --format says of the report
}
SUFFIXES = (".json", ".jsonl", ".tsv", ".csv", ".txt", ".svg", ".html", ".htm")


def _has_output(command: str) -> bool:
    return any("-o" in action.option_strings for action in _subparser(command)._actions)


def test_every_command_with_an_output_is_here() -> None:
    assert {c for c in _commands(build_parser()) if _has_output(c)} == set(WRITES)


def _formats(command: str) -> list[str]:
    found = next((a.choices for a in _subparser(command)._actions if "--format" in a.option_strings), None)
    return list(found or ["text"])


def _row(command: str) -> Row:
    if command.startswith("cache "):
        return Row(("cache", command.split()[1], "-o", "{out}"), "", {})
    return next(row for key, row in ROWS.items() if _command(key) == command)


def _accepted(command: str, fmt: str) -> tuple[str, ...]:
    writes = WRITES[command]
    return writes.get(fmt, writes.get("-", ()))


def _cases(refused: bool) -> list:
    return [pytest.param(command, fmt, suffix, id=f"{command} --format {fmt} {suffix}")
            for command in WRITES for fmt in _formats(command)
            for suffix in SUFFIXES if (suffix not in _accepted(command, fmt)) == refused]


def _argv_with(command: str, fmt: str, out: str, root: Path) -> list[str]:
    """The command line of `command` (ROWS') with --format `fmt` and -o `out`, its inputs written in `root`."""
    row = _row(command)
    inputs = _setup(row, root, row.good.encode("utf-8")) if row.good else {}
    return [arg.replace("{out}", out) for arg in _argv(row, inputs, "{out}")] + ["--format", fmt]


@pytest.mark.parametrize(("command", "fmt", "suffix"), _cases(refused=True))
@pytest.mark.parametrize("gz", ["", ".gz"])
def test_a_name_of_another_format_is_refused_before_any_work(command: str, fmt: str, suffix: str, gz: str,
                                                             tmp_path: Path, monkeypatch, capsys) -> None:
    """`paralign paraphrases -o x.json`, `lattice stats -o x.json`, `similarity -o x.json`,
    `pivot -o t.json`, `word-align -o links.json --format json` (and so on) wrote text under a
    JSON name, and `--format json -o x.tsv` JSON under a TSV name, without a word: the next tool
    found out. Now exit 2 before any work, naming -o, the file and its suffix; no file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(tmp_path / "cache"))
    name = f"out{suffix.upper() if gz else suffix}{gz}"  # the suffix in any case, looked through .gz
    assert main(_argv_with(command, fmt, name, tmp_path)) == 2
    err = capsys.readouterr().err
    assert "-o" in err and name in err and suffix in err.lower() and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and not list(tmp_path.glob("out*"))


@pytest.mark.parametrize(("command", "fmt", "suffix"), _cases(refused=False))
def test_a_name_of_the_format_written_or_of_none_is_accepted(command: str, fmt: str, suffix: str,
                                                             tmp_path: Path, monkeypatch) -> None:
    """The check `main` runs before the command passes these names (and one of no known suffix)."""
    monkeypatch.chdir(tmp_path)
    argv = _argv_with(command, fmt, "{out}", tmp_path)
    for name in (f"out{suffix}", f"out{suffix}.gz", "out.dat", "out"):
        if command == "lattice draw" and not name.endswith(PICTURES):
            continue  # draw refuses a suffix it cannot draw by itself
        args: argparse.Namespace = build_parser().parse_args([arg.replace("{out}", name) for arg in argv])
        output_names(args)


@pytest.mark.parametrize(("command", "fmt"), [(c, f) for c in WRITES for f in _formats(c)])
def test_a_right_name_still_gets_the_output(command: str, fmt: str, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(tmp_path / "cache"))
    name = "out" + _accepted(command, fmt)[0]
    code = main(_argv_with(command, fmt, name, tmp_path))
    err = capsys.readouterr().err
    if code != 0 and ("NLTK_DATA" in err or "no spaCy English model" in err or data_dir() is None):
        pytest.skip(f"a resource this command needs is not installed: {err.strip()}")
    assert code == 0, err
    written = list(tmp_path.glob("out*"))  # align --format svg of several pairs: out-1.svg, ...
    assert written and all(path.stat().st_size for path in written), err


def test_the_rule_itself() -> None:
    """check_output_name's message names the --format that writes the suffix's format, when one does."""
    writes = {"text": ("text", "a text report"), "json": ("JSON", "a JSON report")}
    with pytest.raises(ConfigurationError, match=r"^-o r\.JSON\.gz: the suffix \.json is for --format json, but "
                       r"--format text writes a text report: give --format json, or another file name$"):
        check_output_name("-o", "r.JSON.gz", writes, "text")
    with pytest.raises(ConfigurationError, match=r"^-o r\.tsv: the suffix \.tsv names TSV, but --format json writes "
                       r"a JSON report: give a name ending in \.json or \.jsonl \(or in no format's suffix\)$"):
        check_output_name("-o", "r.tsv", writes, "json")
    check_output_name("-o", "r.tsv.bak", writes, "json")  # .bak names no format


# -- the same cells with --format json -------------------------------------------------------------
# Errors and warnings are stderr lines in every --format (docs/CLI.md, Exit status): a command run
# with --format json gives each class the exit status and error line of its text run, writes no
# output after a failure, and a batch keeps every good item's JSON, its bad line an "error"
# record (or null) in its place.
JSON_CLASSES = ("missing", "directory", "empty", "blank", "utf8", "nul", "columns", "surrogate", "cr_only", "utf16",
                "strict", "output_dir")


def _json_cells() -> list:
    return [pytest.param(*cell.values, marks=cell.marks, id=cell.id) for cell in _cells()
            if cell.values[1] in JSON_CLASSES and "json" in _formats(_command(cell.values[0]))]


def _json_items(text: str) -> list:
    """A batch's JSON output as its items in input order: JSON lines (`align`), a list (`lattice
    distance`) or a document's scores (`similarity`)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines()]
    return document["scores"] if isinstance(document, dict) else document


def _json_run(command: str, cls: str, root: Path, capsys: pytest.CaptureFixture) -> tuple[Run, list[str]]:
    """ROWS' `command` on class `cls`'s input (written in `root`, the working folder) with --format json."""
    row = ROWS[command]
    inputs = _setup(row, root, None if cls == "missing" else _variant(row, cls), directory=cls == "directory")
    out = "." if cls == "output_dir" else "out" + _accepted(_command(command), "json")[0]
    argv = [*_argv(row, inputs, out), "--format", "json", *(["--strict"] if cls == "strict" else [])]
    return _run(argv, capsys, root / out), argv


@pytest.mark.parametrize(("command", "cls"), _json_cells())
def test_json_cell(command: str, cls: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   capsys: pytest.CaptureFixture, good_runs, tmp_path_factory) -> None:
    row = ROWS[command]
    expected = _expected(row, cls, _good(command, good_runs, tmp_path_factory, capsys))
    monkeypatch.delenv("PARALIGN_DEBUG", raising=False)
    monkeypatch.chdir(tmp_path)
    run, argv = _json_run(command, cls, tmp_path, capsys)
    assert run.code == expected, f"{argv}: exit {run.code}, expected {expected}\n{run.err}"
    assert "Traceback" not in run.err
    _check_messages(row, cls, run, row.name, argv)
    if run.code != 0 and not row.batch:
        assert run.output is None
    if row.batch and cls in LINE_CLASSES:  # every item in its place, line 2 marked bad
        (tmp_path / "good").mkdir()
        monkeypatch.chdir(tmp_path / "good")
        good, _ = _json_run(command, "good", tmp_path / "good", capsys)
        items, expected_items = _json_items(run.output or ""), _json_items(good.output or "")
        assert len(items) == len(expected_items) and items[0] == expected_items[0] and items[2:] == expected_items[2:]
        assert items[1] is None or "error" in items[1], items[1]
