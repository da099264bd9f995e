"""`paralign serve`: a local web page to align, compare and score sentences, and its JSON API.

Loads the models and the paraphrase sources once (a bad --table stops here, with its file and
line), then serves the web app (paralign.web) with uvicorn on --host/--port (127.0.0.1:8000
by default: only this machine can connect; --port 0 takes a free port). When the server listens,
its address is printed to stdout (--format text: the URL; json: {"url", "host", "port",
"tables"}); Ctrl-C stops it. Tables are chosen here, with --table: a request can never name a
file.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..errors import ExtraMissingError
from ._common import add_format, non_negative_int, progress


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="a local web page (and JSON API) to see alignments, similarity, ParaEval, lattices",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: %(default)s, this machine only)")
    parser.add_argument("--port", type=non_negative_int, default=8000,
                        help="port (default: %(default)s; 0: any free port)")
    parser.add_argument("--table", action="append", default=[], metavar="TABLE",
                        help="paraphrase table TSV (gzip ok), `path[:threshold]`, for the paraphrases "
                        "page and ParaEval; repeatable")
    parser.add_argument("--resources", default="ppdb,wordnet",
                        help="built-in paraphrase sources: ppdb, wordnet or none (default: %(default)s)")
    parser.add_argument("--log-level", choices=("critical", "error", "warning", "info", "debug"),
                        default="warning", help="uvicorn's log level on stderr (default: %(default)s)")
    add_format(parser, help="how the address is printed at start-up: text (the URL) or json "
               "(default: %(default)s)")
    parser.set_defaults(func=run)


def announce(args: argparse.Namespace, host: str, port: int, tables: list[str]) -> None:
    """Print where the server listens, in --format (json: one line, so a program reading the
    pipe can take the first line)."""
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if args.format == "json":
        print(json.dumps({"url": url, "host": host, "port": port, "tables": tables}), flush=True)
    else:
        print(f"paralign serve: {url} (Ctrl-C stops)", flush=True)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web import Engine, ServeConfig, create_app
    except ModuleNotFoundError as exc:  # fastapi, uvicorn or jinja2: the web extra
        if exc.name and exc.name.split(".")[0] in ("fastapi", "uvicorn", "jinja2", "starlette", "pydantic"):
            raise ExtraMissingError("paralign serve", "web", exc.name) from None
        raise

    config = ServeConfig(tables=tuple(args.table), resources=tuple(args.resources.split(",")))
    engine = Engine.load(config, progress)  # here, so a bad table is a clean error before any socket
    app = create_app(config, engine=engine)

    class Server(uvicorn.Server):
        """uvicorn's server, announcing its address once it listens."""

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                host, port = self.servers[0].sockets[0].getsockname()[:2]
                announce(args, host, port, list(engine.sources))

    server = Server(uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                                   access_log=args.log_level in ("info", "debug"), lifespan="on",
                                   timeout_graceful_shutdown=5))
    server.run()
    return 0 if server.started else 1

