"""What the CLI prints on stderr shows control characters and bidi controls as escapes
(`paralign.cli._stderr`): a file name, an id or a typed argument holding ESC [ 2 J, a C1 CSI
(U+009B), a BEL or an RLO (U+202E) no longer reaches the terminal as it came. Line breaks and
tabs stay; library exceptions and warnings keep their exact text; JSON stays as it was."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import paralign
from paralign.cli import main

#: What a hostile name or field holds, and what stderr shows of it.
HOSTILE = "x\x1b[2J\x9b\u202e\x07y"
ESCAPED = "x\\x1b[2J\\x9b\\u202e\\x07y"
RAW = ("\x1b", "\x9b", "\u202e", "\x07")
PAIRS = "The cat sat .\tA cat sat .\nno tab " + HOSTILE + "\nShe ran .\tShe was running .\n"


def _raw_in(text: str) -> list[str]:
    return [hex(ord(c)) for c in RAW if c in text]


def _main(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's usage errors
        return int(exc.code or 0)


def test_a_file_name_with_control_characters_is_escaped_in_each_bad_line_warning(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    name = f"in{HOSTILE}.tsv"
    Path(name).write_text(PAIRS, encoding="utf-8")
    assert main(["align", name, "--similarity", "none", "-o", "out.txt"]) == 0
    err = capsys.readouterr().err
    assert f"paralign: warning: in{ESCAPED}.tsv:2: 1 field, expected 2 TAB-separated sentences" in err
    assert f"in{ESCAPED}.tsv: 1 of 3 input lines bad" in err
    assert _raw_in(err) == []
    assert Path("out.txt").read_text(encoding="utf-8").splitlines()[1] == ""  # the output as before


def test_a_missing_file_with_control_characters_in_its_name_is_escaped_in_the_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["align", f"gone{HOSTILE}.tsv"]) == 2
    err = capsys.readouterr().err
    assert err == f"paralign align: error: gone{ESCAPED}.tsv: no such file\n"


def test_an_id_read_from_a_bad_line_is_escaped(tmp_path, monkeypatch, capsys):
    """A Bible groups file's verse id is the bad line's first field; a group that fails is
    reported as FILE:LINE: group ID: reason (the failure itself stood in for here)."""
    from paralign.errors import LatticeError
    from paralign.lattice import evaluate

    built = evaluate.evaluate_group

    def failing(group_id, *args, **kwargs):
        if group_id == f"v{HOSTILE}":
            raise LatticeError("no lattice")
        return built(group_id, *args, **kwargs)

    monkeypatch.setattr(evaluate, "evaluate_group", failing)
    groups = tmp_path / "bible.tsv"
    groups.write_text("verse_id\tbook\tchapter\tverse\tV1\tV2\n"
                      "Gen1\tGen\t1\t1\tthe cat sat\ta cat sat\n"
                      f"v{HOSTILE}\tGen\t1\t2\tthe dog ran\ta dog ran\n", encoding="utf-8")
    assert main(["lattice", "stats", "--groups", str(groups), "--tokenized"]) == 0
    err = capsys.readouterr().err
    assert f"{groups}:3: group v{ESCAPED}: LatticeError: no lattice" in err
    assert _raw_in(err) == []


def test_argparse_usage_errors_quote_what_was_typed_escaped(capsys):
    assert _main(["align", "pairs.tsv", HOSTILE]) == 2
    err = capsys.readouterr().err
    assert f"paralign align: error: unrecognized arguments: {ESCAPED}\n" in err
    assert _main(["align", "pairs.tsv", "-o", f"/no{HOSTILE}/out.txt"]) == 2
    err = capsys.readouterr().err
    assert f"argument -o/--output: /no{ESCAPED}/out.txt: folder /no{ESCAPED} does not exist" in err
    assert _raw_in(err) == []


@pytest.mark.usefixtures("on_dask")
def test_a_table_report_on_stderr_is_escaped_in_text_and_unchanged_in_json(tmp_path, monkeypatch, capsys):
    """With `-o -` the table holds stdout and the report goes to stderr: as text it is shown as
    every message there; as JSON it is the same report as on stdout (JSON escapes C0 itself)."""
    monkeypatch.chdir(tmp_path)
    Path("c.en").write_text("The small car.\nThe little car.\n", encoding="utf-8")
    Path("c.de").write_text("Das kleine Auto.\nDas kleine Auto.\n", encoding="utf-8")
    links = f"links{HOSTILE}.txt"
    Path(links).write_text("0-0 1-1 2-2 3-3\n0-0 one-1\n", encoding="utf-8")
    argv = ["pivot", "--english", "c.en", "--foreign", "c.de", "--alignment", links, "-o", "-", "--threshold", "0"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"warning: skipped: links{ESCAPED}.txt:2: malformed link 'one-1'" in err
    assert f"alignment given: links{ESCAPED}.txt (sha256 " in err
    assert _raw_in(err) == []
    assert main([*argv, "--format", "json"]) == 0
    err = capsys.readouterr().err
    report = json.loads(err[err.index("{"):])
    assert report["corpora"][0]["alignment"]["file"] == links


def test_shown_escapes_controls_and_bidi_but_keeps_line_breaks_tabs_and_letters():
    from paralign.cli._stderr import shown

    assert shown("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert shown("\x9b\x07\x7f\r\x00") == "\\x9b\\x07\\x7f\\r\\x00"
    assert shown("\u202e\u2066") == "\\u202e\\u2066"
    assert shown("line 1\n\tline 2") == "line 1\n\tline 2"
    assert shown("café 猫 ß — ok") == "café 猫 ß — ok"


def test_a_library_warning_is_printed_escaped_and_recorded_exact(tmp_path):
    """Python prints a warning the CLI did not catch through `_stderr.escaping`; a
    recorder (pytest.warns, catch_warnings) still gets the exact message."""
    script = (
        "import sys, warnings\n"
        "from paralign import cli\n"
        f"cli.finite_numbers = lambda args: warnings.warn({HOSTILE!r}, UserWarning)\n"
        "sys.exit(cli.main(['cache', 'dir']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(paralign.__file__).parents[1])}  # this paralign, from any folder
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 0, err
    assert f"UserWarning: {ESCAPED}" in err and _raw_in(err) == []

    from paralign.cli._stderr import warnings_shown

    before = warnings.formatwarning
    with warnings_shown(), pytest.warns(UserWarning) as caught:
        warnings.warn(HOSTILE, UserWarning, stacklevel=1)
    assert str(caught[0].message) == HOSTILE
    assert warnings.formatwarning is before  # put back after the block


def test_a_progress_bar_and_the_cluster_line_name_files_escaped(capsys):
    from paralign.cli._common import progress
    from paralign.cli._pipelines import announce_cluster

    assert list(progress([1, 2], f"reading {HOSTILE}", disable=False)) == [1, 2]
    announce_cluster({"local": False, "scheduler": f"tcp://{HOSTILE}:8786", "workers": 1})
    err = capsys.readouterr().err
    assert f"reading {ESCAPED}" in err and f"tcp://{ESCAPED}:8786" in err
    assert "x\x1b[2J" not in err and "\x9b" not in err and "\u202e" not in err


def test_serve_log_records_are_escaped_before_uvicorn_formats_them():
    pytest.importorskip("uvicorn")
    from paralign.cli._stderr import ShownRecords
    from paralign.cli.serve import log_config

    config = log_config()
    assert all("shown" in handler["filters"] for handler in config["handlers"].values())
    assert config["filters"]["shown"]["()"] is ShownRecords
    try:
        raise KeyError(HOSTILE)
    except KeyError:
        record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                                   ("127.0.0.1:5", "GET", f"/{HOSTILE}", "1.1", 200), sys.exc_info())
    assert ShownRecords().filter(record)
    text = logging.Formatter().format(record)
    assert f'"GET /{ESCAPED} HTTP/1.1" 200' in text and _raw_in(text) == []


@pytest.mark.parametrize(("argv", "said", "meant"), [
    (["demoo"], "argument COMMAND: invalid choice: 'demoo' (choose from 'align', ", "demo"),
    (["cache", "infoo"], "argument ACTION: invalid choice: 'infoo' (choose from 'dir', 'info', ", "info"),
    (["cache", "info", "--format", "jsn"], "argument --format: invalid choice: 'jsn' (choose from 'text', 'json')",
     "json"),
    (["cache", "info", "--format", "xml"], "argument --format: invalid choice: 'xml' (choose from 'text', 'json')",
     None),
])
def test_a_mistyped_choice_is_told_the_nearest(argv, said, meant, capsys) -> None:
    """A mistyped command, action or choice is told what was probably meant after argparse's list
    (19 commands, which left the user to find it); a word near none is told the list alone."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert said in err
    assert err.endswith(f"; did you mean {meant!r}?\n" if meant else "(choose from 'text', 'json')\n"), err
