"""`paralign cache dir|info|list|prune|purge`: see and empty the disk cache (pip's `cache` command
for paralign's; the library's :mod:`paralign.disk_cache` does the work)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from .. import disk_cache
from ._commands import add_command
from ._common import add_format, add_output, write_result
from ._metavars import ACTION

#: What every action says when PARALIGN_CACHE_DIR turns the cache off (exit 0: nothing to do).
NO_CACHE = "no cache: PARALIGN_CACHE_DIR is set to an empty string"
#: ... and when the default folder has no home to be in (HOME unset, a uid without a passwd entry).
NO_HOME = "no cache: no home folder to keep it in (set PARALIGN_CACHE_DIR to a folder)"


def _no_cache() -> str:
    """Why there is no cache folder: :data:`NO_CACHE` or :data:`NO_HOME`."""
    return NO_CACHE if os.environ.get("PARALIGN_CACHE_DIR") == "" else NO_HOME


#: The environment variables every action honours, as each action's --help says them.
ENVIRONMENT = (
    "Environment: PARALIGN_CACHE_DIR, the cache folder (~ is the home folder; a relative path is refused; "
    "set empty: no cache), else "
    "$XDG_CACHE_HOME/paralign (an absolute XDG_CACHE_HOME), else ~/.cache/paralign; "
    "PARALIGN_VECTOR_CACHE, ParaEval's vector cache folder (unset: none). Exit status: 0, also with "
    "no cache or no folder yet; 2 when a folder cannot be read or PARALIGN_CACHE_DIR is relative; 1 when "
    "prune or purge could not remove a file."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "cache",
        description="The folder where paralign keeps what it parsed from resource files "
        "(PARALIGN_CACHE_DIR, else $XDG_CACHE_HOME/paralign, else ~/.cache/paralign) and "
        "ParaEval's vector cache (PARALIGN_VECTOR_CACHE, when set). Removing an entry changes "
        "no result: the next command that needs it derives it again.", epilog=ENVIRONMENT)
    actions = parser.add_subparsers(dest="cache_command", metavar=ACTION, required=True)
    for name, help_text, run in (
        ("dir", "print the cache folder", _dir),
        ("info", "the folders, their entries' count and size, and how many are stale", _info),
        ("list", "every entry: what it was derived from, its size and state", _list),
        ("prune", "remove the entries no command will read again (source file gone or changed, or no record "
         "of one) and abandoned temporary files; vectors stay", _prune),
        ("purge", "remove every entry, vectors included", _purge),
    ):
        action = actions.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".",
                                    epilog=ENVIRONMENT)
        add_format(action)
        add_output(action)
        action.set_defaults(func=run)


def _dir(args: argparse.Namespace) -> int:
    return write_result(args, disk_cache.folder_names(), lambda r: r["folder"] or _no_cache())


def _info(args: argparse.Namespace) -> int:
    return write_result(args, disk_cache.info(), _render_info)


def _list(args: argparse.Namespace) -> int:
    found = disk_cache.entries()
    result = {**disk_cache.folder_names(), "entries": [entry.to_dict() for entry in found],
              "bytes": sum(entry.bytes for entry in found)}
    return write_result(args, result, _render_list)


def _prune(args: argparse.Namespace) -> int:
    return _removal(args, disk_cache.prune)


def _purge(args: argparse.Namespace) -> int:
    return _removal(args, disk_cache.purge)


def _removal(args: argparse.Namespace, remove: Callable[[], disk_cache.Removed]) -> int:
    """Run `remove`, write what it removed; exit 1 when a file could not be removed (each is
    named with the reason on stderr, and under "failed")."""
    removed = remove()
    result = {"folder": disk_cache.folder_names()["folder"], **removed.to_dict()}
    write_result(args, result, _render_removed,
                 items=[f"could not remove {path}: {reason}" for path, reason in removed.failed])
    return 1 if removed.failed else 0


def size(n: int) -> str:
    """Bytes for a reader, in decimal units as pip shows them: ``512 B``, ``3.6 MB``."""
    value = float(n)
    for unit in ("B", "kB", "MB", "GB"):
        if round(value, 1) < 1000 or unit == "GB":  # rounded as shown: 999,950 B is 1.0 MB, not 1000.0 kB
            return f"{n} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def _render_info(r: dict[str, Any]) -> str:
    if r["folder"] is None:
        lines = [_no_cache()]
    else:
        stale = f" ({r['stale']} stale: paralign cache prune removes them)" if r["stale"] else ""
        lines = [f"cache folder: {r['folder']}", f"entries: {r['entries']}{stale}", f"size: {size(r['bytes'])}"]
    if r["vector_folder"] is None:
        lines.append("vector cache: not set (PARALIGN_VECTOR_CACHE)")
    else:
        lines += [f"vector cache: {r['vector_folder']}",
                  f"vector entries: {r['vector_entries']}", f"vector size: {size(r['vector_bytes'])}"]
    return "\n".join(lines)


def _render_list(r: dict[str, Any]) -> str:
    lines = [] if r["folder"] is not None else [_no_cache()]
    rows = [(e["state"] or "-", size(e["bytes"]), e["name"],
             e["source"] or ("(vectors of segments)" if e["kind"] == "vectors" else "(no record)"))
            for e in r["entries"]]
    if rows:
        widths = [max(len(row[i]) for row in [("state", "size", "name", ""), *rows]) for i in range(3)]
        for row in [("state", "size", "name", "source"), *rows]:
            lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[3])
    count = len(r["entries"])
    lines.append(f"{count} {'entry' if count == 1 else 'entries'}, {size(r['bytes'])}")
    return "\n".join(lines)


def _render_removed(r: dict[str, Any]) -> str:
    lines = [] if r["folder"] is not None else [_no_cache()]
    count = len(r["removed"])
    lines.append(f"removed {count} {'entry' if count == 1 else 'entries'} ({size(r['bytes'])})"
                 + (f" and {len(r['temporary'])} unfinished writes' files" if r["temporary"] else ""))
    return "\n".join(lines)
