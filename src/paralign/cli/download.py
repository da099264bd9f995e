"""`paralign download`: fetch the NLTK data paralign uses (needs internet)."""

from __future__ import annotations

import argparse

from ..resources import NLTK_PACKAGES, download
from ._common import add_format, emit


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("download", help="fetch WordNet, stop words and PPDB pairs via nltk.download")
    parser.add_argument("--dir", default=None, help="target folder (default: NLTK's own choice)")
    add_format(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    result = download(NLTK_PACKAGES, args.dir)
    emit(result, args.format, lambda r: "\n".join(f"{k}: {'ok' if v else 'FAILED'}" for k, v in r.items()))
    return 0 if all(result.values()) else 1
