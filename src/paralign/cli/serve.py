"""`paralign serve`: a local web page to align, compare and score sentences, and its JSON API.

Loads the models and the paraphrase sources once (a bad --table stops here, with its file and
line), then serves the web app (paralign.web) with uvicorn on --host/--port (127.0.0.1:8000
by default: only this machine can connect, and only under its loopback names, so a web page
cannot reach it through a name of its own; --port 0 takes a free port). When the server listens,
its address is printed to stdout (--format text: the URL; json: {"url", "host", "port",
"tables"}); Ctrl-C stops it. Tables are chosen here, with --table: a request can never name a
file.
"""

from __future__ import annotations

import argparse
import copy
import gc
import ipaddress
import json
import signal
import socket
from typing import Any

from ..errors import ConfigurationError, ExtraMissingError
from ._commands import add_command
from ._common import add_format, non_negative_int, positive_int, progress, warn
from ._encoder_options import add_encoder_options, encoder_device
from ._metavars import ADDRESS, LIST, TABLE, N
from ._stderr import ShownRecords
from ._table_options import check_table_names, resource_names

#: The batch page's default most rows a request (paralign.web.models.BATCH_PAIRS, which this
#: command does not import before it runs: the web extra may be missing).
BATCH_PAIRS = 1_000
#: The highest TCP port.
MAX_PORT = 65535
#: What --encoder and --device reach in this command (its help).
ENCODER_USERS = ("the contextual aligner and preset, the neural similarity signals (embedding, contextual-alignment, "
                 "hybrid) and ParaEval's contextual config; given without the neural extra, the server does not start")


def port_number(text: str) -> int:
    """argparse type: a TCP port, 0 (any free port) to 65535."""
    value = non_negative_int(text)
    if value > MAX_PORT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_PORT}, got {value}")
    return value


def listen_host(text: str) -> str:
    """argparse type: the address to listen on, an IPv6 one also as a URL writes it: ``[::1]`` is
    ``::1``, as :func:`loopback_names` reads it (the socket was asked for the name ``[::1]``,
    which no resolver knows: 'cannot listen on [[::1]]:8000: name or service not known')."""
    return text[1:-1] if text.startswith("[") and text.endswith("]") else text


def bound_socket(host: str, port: int) -> socket.socket:
    """A socket bound to host:port for the server to listen on (uvicorn takes it as is).

    Bound here, before the models load, so an address that cannot work (a busy port, a host
    that does not resolve or is not this machine's) is one usage error naming it, where
    uvicorn would log its own line and exit 3."""
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ConfigurationError(f"cannot listen on {shown}: {reason[:1].lower()}{reason[1:]}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        sock.bind(address)
    except OSError as exc:
        sock.close()
        reason = exc.strerror or str(exc)
        raise ConfigurationError(f"cannot listen on {shown}: {reason[:1].lower()}{reason[1:]}") from None
    return sock


def loopback_names(host: str, address: str | None = None) -> tuple[str, ...] | None:
    """The host names a server on `host` answers to when it listens on a loopback address (its
    own name, the `address` it is bound to, localhost, 127.0.0.1, ::1: a request naming any
    other host is refused, which stops DNS rebinding); None for any other address, where the
    user chose to be reachable by others. `address` (the bound socket's) decides when given: a
    name or a short form of a loopback address (this machine's name, which Debian maps to
    127.0.1.1; ``127.1``) was taken for a public one, warned about and served to any Host."""
    name = host.strip("[]").lower()
    try:
        loopback = ipaddress.ip_address(address or name).is_loopback
    except ValueError:
        loopback = name == "localhost"
    names = (name, *([address] if address else []), "localhost", "127.0.0.1", "::1")
    return tuple(dict.fromkeys(names)) if loopback else None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "serve",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", type=listen_host, metavar=ADDRESS,
                        help="address to listen on, an IPv6 one bare or in brackets (::1 or [::1]) (default: "
                        "%(default)s, this machine only)")
    parser.add_argument("--port", type=port_number, default=8000, metavar=N,
                        help=f"port, 0 to {MAX_PORT} (default: %(default)s; 0: any free port)")
    parser.add_argument("--table", action="append", default=[], metavar=TABLE,
                        help="paraphrase table (FILE.parquet, FILE.tsv or FILE.tsv.gz), `PATH[:THRESHOLD]`, for the paraphrases "
                        "page and ParaEval; repeatable (the first is the source a lookup naming none asks). A table that pivot or paraphrase-table built is asked for a "
                        "phrase as it split its text (Man's as man 's), as `paralign paraphrases` asks it")
    parser.add_argument("--resources", default="ppdb,wordnet", metavar=LIST,
                        help="built-in paraphrase sources: ppdb, wordnet or none (default: %(default)s)")
    parser.add_argument("--cache-size", type=positive_int, default=None, metavar=N,
                        help="entries each cache of the ParaEval scorers and similarity signals holds before it "
                        "starts again (default: 5,000, paralign.web.engine.SERVE_CACHE_SIZE): memory stays bounded "
                        "however many requests come")
    parser.add_argument("--max-pairs", type=positive_int, default=BATCH_PAIRS, metavar=N,
                        help="the most rows (sentence pairs) the batch page and POST /api/similarity/batch take in one "
                        "request (default: %(default)s); a batch keeps the server busy while it runs (a request sent "
                        "meanwhile is answered between two of its blocks of 50 rows), and its body may take 12 KiB a row")
    add_encoder_options(parser, ENCODER_USERS)
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
        from ..web import Engine, ServeConfig, create_app
    except ExtraMissingError as exc:  # fastapi, jinja2 ...: the web extra
        raise ExtraMissingError("paralign serve", "web", exc.missing) from None
    try:
        import uvicorn
    except ModuleNotFoundError as exc:
        raise ExtraMissingError("paralign serve", "web", exc.name) from None

    check_table_names("--table", args.table)  # the web app's ParaEval signature names them
    # comma_list's reading (an empty item a usage error), the names checked, before the address is bound
    resources = resource_names(args.resources) or ()  # never None: the option has a default
    config = ServeConfig(tables=tuple(args.table), resources=tuple(resources),
                         encoder=args.encoder, device=encoder_device(args),
                         **({} if args.cache_size is None else {"cache_size": args.cache_size}))
    with bound_socket(args.host, args.port) as sock:  # a bad address fails before the models load
        hosts = loopback_names(args.host, sock.getsockname()[0])
        if hosts is None:
            warn(f"listening on {args.host}: other machines can connect (no login, no encryption); "
                 "the default --host 127.0.0.1 keeps the server to this machine")
        engine = Engine.load(config, progress)  # here, so a bad table is a clean error before serving
        app = create_app(config, engine=engine, hosts=hosts, max_pairs=args.max_pairs)
        freeze_loaded()
        return _serve(args, uvicorn, app, engine, sock)


def freeze_loaded() -> None:
    """Keep what is loaded (the engine: spaCy, the aligners, the tables, the encoder; ~460,000
    objects) out of the garbage collector's walks: collected once, then frozen (``gc.freeze``).
    The collector walked it all at every full collection, and at exit: Ctrl-C took 1.2-1.5 s
    after uvicorn's last line (the interpreter's final collections), where it now takes 0.2 s.
    The engine lives as long as the process, so nothing frozen was ever to be freed."""
    gc.collect()
    gc.freeze()


def log_config() -> dict[str, Any]:
    """uvicorn's logging set-up with every record on stderr. Its access log (--log-level info or
    debug) went to stdout, after the address, which is the only output of the command (with
    --format json, one JSON line): a program reading that line found log lines after it, and one
    that read only the first line stopped the server once the pipe was full. Each record's text
    goes through `_stderr.ShownRecords` (control characters escaped), as every line the CLI
    writes there: a record may quote a request (an error's message in its traceback)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {**config.get("filters", {}), "shown": {"()": ShownRecords}}
    for handler in config["handlers"].values():
        handler["stream"] = "ext://sys.stderr"
        handler["filters"] = [*handler.get("filters", []), "shown"]
    return config


def _serve(args: argparse.Namespace, uvicorn: Any, app: Any, engine: Any, sock: socket.socket) -> int:
    """Serve `app` on the bound `sock` until Ctrl-C, announcing the address once it listens.
    Stopped by Ctrl-C (SIGINT) it is status 130, as main() answers KeyboardInterrupt: uvicorn
    raises the signal again once it has shut down, but under Python 3.11's asyncio.Runner (its
    own SIGINT handler) that second signal was once lost and serve exited 0, so the signal is
    recorded here too. A request's head may take :data:`~paralign.web.models.REQUEST_HEAD_BYTES`
    (a page's longest legal form sent in the URL, over several TCP segments)."""
    from ..web.models import REQUEST_HEAD_BYTES

    stopped_by: list[int] = []

    class Server(uvicorn.Server):
        """uvicorn's server, announcing its address once it listens, recording what stopped it."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            stopped_by.append(sig)
            super().handle_exit(sig, frame)

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                host, port = self.servers[0].sockets[0].getsockname()[:2]
                announce(args, host, port, list(engine.sources))

    server = Server(uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                                   access_log=args.log_level in ("info", "debug"), log_config=log_config(), lifespan="on",
                                   timeout_graceful_shutdown=5, h11_max_incomplete_event_size=REQUEST_HEAD_BYTES))
    server.run(sockets=[sock])
    if signal.SIGINT in stopped_by:
        return 130
    return 0 if server.started else 1

