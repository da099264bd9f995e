"""The command line: subcommand discovery, version, and error reporting through main()."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paralign import __version__
from paralign.cli import build_parser, main


def test_every_subcommand_module_registers() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    assert "download" in subparsers.choices


def test_python_dash_m_prints_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "paralign", "--version"], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == f"paralign {__version__}"


def test_no_command_prints_help_and_fails(capsys) -> None:
    assert main([]) == 2
    assert "usage: paralign" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "prog", "extra"), [
    (["similarity", "p.tsv"], "paralign similarity", "p.tsv"),
    (["align", "--bogus"], "paralign align", "--bogus"),
    (["lattice", "stats", "--groups", "g.tsv", "x", "y"], "paralign lattice stats", "x y"),
    (["cache", "info", "--nope"], "paralign cache info", "--nope"),
])
def test_an_unknown_argument_is_the_commands_usage_error(argv, prog, extra, capsys) -> None:
    """`paralign similarity p.tsv` printed the top-level usage (`usage: paralign [-h] [--version]
    COMMAND ...`, `paralign: error: ...`), which does not say what similarity takes."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith(f"usage: {prog} ") and f"{prog}: error: unrecognized arguments: {extra}\n" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["parametric", "align", "--gold", "g.json", "--system", "sultan", "--workers", "0"],
        ["paraphrase-table", "--groups", "g", "-o", "t.tsv", "--workers", "0"],
        ["word-align", "--source", "a", "--target", "b", "--iterations", "0"],
        ["pivot", "--iterations", "0"],
        ["align", "--workers", "-1"],
        ["evaluate-sts", "--data", "x.tsv", "--workers", "0"],
    ],
)
def test_counts_below_one_are_usage_errors_without_a_traceback(argv, capsys) -> None:
    """Checked when the options are parsed (exit 2), before any file is opened or model loaded."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "must be at least 1" in err and "Traceback" not in err


def test_the_library_refuses_workers_below_one_too() -> None:
    from paralign.aligners.sultan import Aligner
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="workers must be at least 1"):
        Aligner().annotate(["A sentence."], workers=0)


@pytest.mark.parametrize("command", [["align"], ["evaluate-sts", "--data", "x.tsv"], ["score-alignments", "--gold", "g.json"],
                                     ["pivot", "--source", "a", "--target", "b"], ["paraphrase-table", "--groups", "g"]])
@pytest.mark.parametrize("where", ["a directory", "a missing folder"])
def test_an_output_that_cannot_be_written_fails_before_any_work(command, where, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    target = str(tmp_path) if where == "a directory" else str(tmp_path / "no" / "such" / "out.tsv")
    with pytest.raises(SystemExit) as stop:
        main([*command, "-o", target])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and target in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing written, no work folder left behind


@pytest.mark.parametrize("argv", [
    ["pivot", "--english", "{missing}", "--foreign", "{missing}", "-o", "{out}"],
    ["score-alignments", "--gold", "{missing}", "--system", "{missing}"],
    ["parametric", "align", "--gold", "{missing}", "--system", "{missing}"],
])
def test_a_missing_file_checked_before_reading_is_a_usage_error_too(argv, tmp_path, capsys) -> None:
    """Readers that check a path before opening it (textio.require_file) give exit 2 like the rest."""
    missing, out = str(tmp_path / "missing.txt"), str(tmp_path / "out.tsv")
    assert main([a.format(missing=missing, out=out) for a in argv]) == 2
    assert f"{missing}: no such file" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["paraeval", "-r", "ref.txt", "-i", "hyp.txt", "-o", "ref.txt"],
    ["paraeval", "-r", "ref.txt", "-i", "hyp.txt", "--output=./hyp.txt"],
    ["paraeval", "-r", "ref.txt", "-i", "h*.txt", "-o", "hyp.txt"],  # a glob paralign expands
    ["paraeval", "-r", "ref.txt", "-i", "hyp.txt", "--table", "t.tsv:0.5", "-ot.tsv"],
    ["paraeval", "-r", "ref.txt", "-i", "hyp", "--report", "hyp"],  # hyp.txt: no report name (.txt)
    ["paraeval", "-r", "ref.txt", "-i", "hyp.txt", "-o", "out.html", "--report", "out.html"],
    ["score-alignments", "--gold", "gold.jsonl", "--system", "system.txt", "-o", "system.txt"],
    ["align", "hyp.txt", "-o", "hyp.txt"],
])
def test_an_output_that_is_an_input_or_another_output_is_refused(argv, tmp_path, capsys, monkeypatch) -> None:
    """-o (or --report) naming a file the command reads, or the other output, is a usage error
    before any work. Before, the run went through and its output replaced the input when written
    (`paraeval -r ref.txt -i hyp.txt -o ref.txt` left ref.txt holding one line of scores), or the
    report replaced the scores."""
    monkeypatch.chdir(tmp_path)
    files = {"ref.txt": "the cat\n", "hyp.txt": "the cat\n", "hyp": "the cat\n", "t.tsv": "cat\tfeline\t0.9\n",
             "gold.jsonl": '{"source": "a", "target": "a", "sure": [[0, 0]]}\n', "system.txt": "0-0\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "would replace" in err
    assert {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()} == files  # nothing written


def test_distinct_outputs_and_inputs_still_run(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ref.txt").write_text("the cat\n", encoding="utf-8")
    assert main(["paraeval", "-r", "ref.txt", "-i", "ref.txt", "--resources", "none", "-o", "out.txt",
                 "--report", "out.html"]) == 0  # one file as two inputs is fine
    assert (tmp_path / "out.txt").read_text().startswith("ParaEval 1.0000")


@pytest.mark.parametrize("argv", [
    ["paraeval", "-r", "r.txt", "-i", "h.txt", "--confidence"],
    ["score-alignments", "--gold", "g.jsonl", "--confidence"],
    ["evaluate-sts", "--data", "x.tsv", "--confidence"],
    ["evaluate-aligner", "--gold", "g.jsonl", "--confidence"],
])
def test_a_negative_bootstrap_seed_is_a_usage_error(argv, capsys) -> None:
    """--seed -1 with --confidence was a numpy traceback ("expected non-negative integer"), raised
    after all the scoring; it is refused when the options are parsed, as meta-eval's --seed is."""
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--seed", "-1"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "argument --seed: must be at least 0" in err and "Traceback" not in err


def test_the_library_names_a_negative_bootstrap_seed() -> None:
    """The resampling functions raise paralign's ConfigurationError, not numpy's ValueError."""
    import numpy as np

    from paralign.errors import ConfigurationError
    from paralign.metrics.significance import confidence

    rows = np.ones((5, 2))
    with pytest.raises(ConfigurationError, match="seed must be at least 0, got -1"):
        confidence(rows, lambda sums: sums[..., 0] / sums[..., 1], n_resamples=10, seed=-1)


def test_running_out_of_memory_is_one_error_line(monkeypatch, capsys) -> None:
    """`meta-eval --resamples 100000000` asked numpy for a 745 GiB array and ended in a traceback
    (numpy's _ArrayMemoryError). A MemoryError is now one error line with numpy's reason (exit 1)."""
    import paralign.cli.meta_eval as meta_eval

    def run(args):
        raise MemoryError("Unable to allocate 745. GiB for an array with shape (100000000, 1000) and data type int64")

    monkeypatch.setattr(meta_eval, "run", run)
    assert main(["meta-eval", "--pair", "cs-en", "--metrics", "bleu"]) == 1
    err = capsys.readouterr().err
    assert err == ("paralign meta-eval: error: out of memory: Unable to allocate 745. GiB for an array with "
                   "shape (100000000, 1000) and data type int64\n")


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["align", "--help"],
    ["similarity", "--encoder", "{model}", "--help"],
    ["align", "--encoder", "{model}", "--help"],
    ["similarity", "--encoder", "{bar}", "--signal", "embedding", "-"],
])
def test_parsing_the_command_line_imports_no_numpy(argv: list[str], tmp_path) -> None:
    """--encoder is checked as it is parsed (a directory name a signature cannot write, with '|',
    is a usage error naming the option), and that check imported paralign.neural.encoder and so
    numpy (50-60 ms) in every command given --encoder, before anything else ran: an --encoder
    typed with --help, or with a usage error, paid for it. The check names the model from
    paralign.neural.model_files now, and the neural package imports its encoder on first use;
    the message and exit code of a bad --encoder are the same (the last case)."""
    model, bar = tmp_path / "model", tmp_path / "tuned|2"
    model.mkdir()
    bar.mkdir()
    args = [arg.format(model=model, bar=bar) for arg in argv]
    code = ("import sys; from paralign.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as stop:\n    print('exit', stop.code)\n"
            "print('numpy', 'numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          stdin=subprocess.DEVNULL)
    assert done.stdout.strip().endswith("numpy False"), done.stdout[-300:] + done.stderr
    if "{bar}" in argv:
        assert "exit 2" in done.stdout
        assert f"error: argument --encoder: {bar}: the file's name 'tuned|2' holds '|'" in done.stderr


def _commands(parser) -> dict:
    return next(a for a in parser._actions if a.dest == "command").choices


def test_a_command_alone_parses_and_helps_as_among_all() -> None:
    """`main` builds only the parser of the command typed (build_parser(command)); each command
    so built has the same options, help and usage as in the whole command line, and a word
    whose module holds another command too (`pivot`: also `word-align`) or none gets them all."""
    every = _commands(build_parser())
    for name, sub in every.items():
        alone = _commands(build_parser(name))
        assert name in alone and alone[name].format_help() == sub.format_help(), name
    assert set(_commands(build_parser("word-align"))) == {"pivot", "word-align"}  # pivot.py's two
    assert set(_commands(build_parser("evaluate_sts"))) == set(every)  # a typo is listed against all


def test_the_table_of_commands_is_what_the_modules_register() -> None:
    """One truth: `paralign --help` lists the commands from `_commands.COMMANDS` without importing
    their modules, so each row (name, module, place) must be what its module's `register` writes
    (the one-line help it takes from the row: `add_command`), and every command module must have
    its rows."""
    import pkgutil

    import paralign.cli
    from paralign.cli._commands import COMMANDS

    whole = next(a for a in build_parser()._actions if a.dest == "command")
    registered = [(action.dest, action.help) for action in whole._choices_actions]
    assert [(command.name, command.help) for command in COMMANDS] == registered
    for command in COMMANDS:
        assert list(_commands(build_parser(command.name))) == [c.name for c in COMMANDS if c.module == command.module]
    found = {m.name for m in pkgutil.iter_modules(paralign.cli.__path__) if not m.name.startswith("_")}
    assert {command.module for command in COMMANDS} == found


def test_the_listing_helps_as_the_whole_command_line() -> None:
    """`paralign --help` from the table is the help of the whole command line, word for word."""
    from paralign.cli import listing_parser

    assert listing_parser().format_help() == build_parser().format_help()
    assert listing_parser().format_usage() == build_parser().format_usage()


def test_a_command_s_help_imports_no_other_command() -> None:
    """`paralign align --help` imported every command module (the metrics, the corpora readers,
    the lattice and table code they import) to show one command's options: 258 modules against
    221 now. `paralign --help` still lists every command; no --help imports a heavy library."""
    code = ("import sys; from paralign.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('paralign.cli.') "
            "and not m.rsplit('.', 1)[1].startswith('_')))\n"
            "print(sorted(m for m in ('numpy', 'pandas', 'dask', 'distributed', 'spacy', 'torch', 'scipy') "
            "if m in sys.modules))")
    for argv, commands in ((["align", "--help"], "['align']"), (["lattice", "stats", "--help"], "['lattice']")):
        done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
        assert done.stdout.splitlines()[-2:] == [commands, "[]"], done.stdout + done.stderr
    for argv in (["--help"], [], ["alig"], ["--version"]):  # the table lists them: no command module
        done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
        assert done.stdout.splitlines()[-2:] == ["[]", "[]"], (argv, done.stdout + done.stderr)
    done = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True, check=True)
    assert "similarity" in done.stdout and "tune-aligner" in done.stdout


def test_a_command_after_an_option_of_paralign_is_still_that_command_s_error(capsys) -> None:
    """`paralign --bogus align x.tsv`: the listing's stub of align is swapped for align's parser,
    so the error is align's own usage, as when every command was built."""
    with pytest.raises(SystemExit) as stopped:
        main(["--bogus", "align", "x.tsv"])
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith("usage: paralign align ") and "unrecognized arguments: --bogus\n" in err
