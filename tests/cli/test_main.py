"""The command line: subcommand discovery, version, and error reporting through main()."""

from __future__ import annotations

import subprocess
import sys

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
