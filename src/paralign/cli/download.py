"""`paralign download`: fetch the NLTK data paralign uses (needs internet)."""

from __future__ import annotations

import argparse

from ..resources import (
    FAILED,
    FETCHED,
    KEPT,
    NLTK_PACKAGES,
    download_folder,
    fetch,
    held_where,
    searched,
)
from ._commands import add_command
from ._common import add_format, emit
from ._metavars import DIR

DESCRIPTION = (
    "Fetch the three NLTK data packages paralign reads, with nltk.download from NLTK's data server "
    "(needs internet; about 15 MB on disk): wordnet (WordNet 3.0, 11 MB), stopwords "
    "(NLTK's stop-word lists, under 1 MB) and mwa_ppdb (PPDB 1.0 lexical pairs, 3.7 MB). A package "
    "already there and up to date is not fetched again; without internet, one already there is "
    "kept and said so (exit 0: only a package that is not there fails, exit 1). They go to --dir, else to the first folder "
    "NLTK searches that exists and can be written to (NLTK_DATA's first when it is set), else to "
    "~/nltk_data; the folder is printed, with the NLTK_DATA to set when paralign does not look "
    "there. Every command that aligns or scores text needs them; nothing else needs a download: "
    "the spaCy model and the neural extra's weights are pip packages, and the demo pairs ship "
    "inside paralign."
)


#: How the text output shows each state of :func:`~paralign.resources.fetch`.
_STATE_SHOWN = {FETCHED: "ok", FAILED: "FAILED",
                KEPT: "ok (already there; not checked for updates: NLTK's data server could not be reached)"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(subparsers, "download", description=DESCRIPTION)
    parser.add_argument("--dir", default=None, metavar=DIR,
                        help="folder to put them in (default: the first folder NLTK searches that exists and "
                        "can be written to, else ~/nltk_data); a folder paralign does not search must then "
                        "be named by NLTK_DATA (paralign searches NLTK_DATA's folders; when it is unset, "
                        "$PARALIGN_DATA/nltk_data, then NLTK's own folders such as ~/nltk_data)")
    add_format(parser)
    parser.set_defaults(func=run)


def _elsewhere(package: str) -> str:
    """For a package not fetched: the folder paralign reads it from already, when one holds it
    (NLTK_DATA's, the corpora folder's): offline, the commands that need it still run."""
    where = held_where(package)
    return "" if where is None else f" (paralign reads the copy in {where})"


def run(args: argparse.Namespace) -> int:
    folder = download_folder(args.dir)
    states = fetch(NLTK_PACKAGES, str(folder))
    there = {package: state != FAILED for package, state in states.items()}
    # each package's key as before (whether it is there after the run); "status" tells fetched
    # from kept (offline, already there), as the text output does; "folder", "searched" (whether
    # paralign reads that folder, else NLTK_DATA must name it) and "elsewhere" (the copy paralign
    # reads of a package not fetched) say in JSON what the text says, which JSON lacked
    elsewhere = {k: str(where) for k, state in states.items() if state == FAILED and (where := held_where(k))}
    result: dict[str, object] = {**there, "status": states, "folder": str(folder), "searched": searched(folder),
                                 "elsewhere": elsewhere}

    def render(_: object) -> str:
        lines = [f"{k}: {_STATE_SHOWN[state]}{_elsewhere(k) if state == FAILED else ''}" for k, state in states.items()]
        lines.append(f"in {folder}")
        if any(there.values()) and not searched(folder):
            lines.append(f"paralign does not look there: set NLTK_DATA={folder}")
        failed = [k for k, v in there.items() if not v]
        if failed:
            advice = ("; paralign reads them where they are already (above)" if all(map(held_where, failed)) else
                      ". On a machine without it, copy an nltk_data folder holding them from one with it and set "
                      "NLTK_DATA to that folder")
            lines.append(f"not fetched: {', '.join(failed)} (nltk's messages above say why; it needs internet to "
                         f"reach NLTK's data server){advice}")
        return "\n".join(lines)

    emit(result, args.format, render)
    return 0 if all(there.values()) else 1
