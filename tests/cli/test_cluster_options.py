"""``--workers``, ``--scheduler`` and ``--memory-limit`` are one function's options
(:func:`paralign.cli._cluster.add_cluster_options`) in every command that has them.

They were defined in six places (cli/_lattice_input.py, cli/_pipelines.py, cli/_options.py twice,
cli/paraeval.py, cli/parametric.py), and their help told five stories: `pivot`'s ``--workers``
was "worker processes of the local Dask cluster (default 1)", `similarity`'s "Dask worker
processes (default: 1: in this process)", and `pivot`'s ``--memory-limit`` said a worker
"spills to disk before it" where the batch commands' said it "is paused" (Dask does both,
and both kinds of command stop after 2 minutes paused).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from .test_help_placeholders import parsers

CLI = Path(__file__).resolve().parents[2] / "src" / "paralign" / "cli"
CLUSTER_OPTIONS = ("--workers", "--scheduler", "--memory-limit")


def option_helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Option string -> its help, as written (``%%`` and ``%(default)s`` unexpanded)."""
    return {option: action.help or "" for action in parser._actions for option in action.option_strings}


def with_workers() -> dict[str, dict[str, str]]:
    """Command line -> its options' helps, for every command and action that has --workers."""
    return {name: helps for name, parser in parsers() if "--workers" in (helps := option_helps(parser))}


def test_the_options_are_added_in_one_place_only() -> None:
    """No command module adds --workers, --scheduler or --memory-limit itself."""
    added = sorted(f"{path.name}: {option}" for path in CLI.glob("*.py") if path.name != "_cluster.py"
                   for option in CLUSTER_OPTIONS if re.search(rf"add_argument\(\s*{option!r}".replace("'", '"'),
                                                              path.read_text(encoding="utf-8")))
    assert not added, f"cluster options added outside cli._cluster.add_cluster_options: {added}"


def test_every_command_with_workers_has_the_three_options_told_alike() -> None:
    """--scheduler and --memory-limit come with --workers, and their help is one of two: a
    batch command's (one worker: this process) or a pipeline's (one worker: a local cluster)."""
    commands = with_workers()
    assert {"paralign align", "paralign similarity", "paralign paraeval", "paralign pivot",
            "paralign paraphrase-table", "paralign lattice stats", "paralign parametric align"} <= set(commands)
    for name, helps in commands.items():
        assert all(option in helps for option in CLUSTER_OPTIONS), name
        assert helps["--workers"].startswith("Dask worker processes "), (name, helps["--workers"])
    for option in ("--scheduler", "--memory-limit"):
        assert len({helps[option] for helps in commands.values()}) == 2, option
    pipelines = {name for name, helps in commands.items() if "a local cluster of one" in helps["--workers"]}
    assert pipelines == {"paralign pivot", "paralign paraphrase-table"}


def test_what_a_worker_does_is_said_per_command() -> None:
    """The --workers help says what the command's workers do, in this process by default."""
    from paralign.cli._cluster import add_cluster_options

    parser = argparse.ArgumentParser()
    add_cluster_options(parser, "doing the thing")
    text = parser.format_help()
    assert "Dask worker processes doing the thing (default: 1: in this process)" in " ".join(text.split())
    assert "with --workers 2 or more" in " ".join(text.split())
    pipeline = argparse.ArgumentParser()
    add_cluster_options(pipeline, "doing the thing", pipeline=True)
    shown = " ".join(pipeline.format_help().split())
    assert "(default: 1: a local cluster of one)" in shown and "must see the input files and --work-dir" in shown
    assert "with --workers 2 or more" not in shown


def test_the_options_make_the_cluster() -> None:
    from paralign.cli._cluster import add_cluster_options, cluster_from_args

    parser = argparse.ArgumentParser()
    add_cluster_options(parser, "working")
    options = cluster_from_args(parser.parse_args(["--workers", "2", "--memory-limit", "1GB",
                                                   "--scheduler", "tcp://127.0.0.1:8786"]))
    assert (options.workers, options.memory_limit, options.scheduler) == (2, "1GB", "tcp://127.0.0.1:8786")
