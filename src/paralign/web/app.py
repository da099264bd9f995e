"""The web app: :func:`create_app` builds the FastAPI application of ``paralign serve``.

The app loads its :class:`.engine.Engine` once, in its lifespan (or is given one already
loaded), and keeps it in ``app.state.engine``. Around the routes:

- with `hosts` (``paralign serve`` on a loopback address gives its names), a request whose
  ``Host`` header names another host is refused with 403 before any route sees it: a web page
  the user visits cannot reach the server through a name it controls (DNS rebinding);
- a request still unanswered when the server stops (uvicorn cancels it after its graceful
  timeout) gets 503, in the shape of every other error, and does no more work
  (:class:`StopAnswer`);
- a request body over :data:`.models.LIMITS` ``body_bytes`` is refused with 413 before any
  route sees it (the declared length is checked first, then the bytes as they arrive); the
  batch routes (:data:`.models.BATCH_PATHS`) take up to ``batch_body_bytes``
  (:func:`.models.batch_limits` of the server's ``max_pairs``), enough for that many rows;
- a request that the models refuse gets 422 with a one-line message naming each field, and a
  ParalignError raised by the library for what a client sent (an unknown table, a lattice that
  cannot be built) gets 422 with its message, and so does a body FastAPI cannot decode (not
  UTF-8, JSON nested too deep: its 400 says only "There was an error parsing the body"): a
  client never causes a 5xx (or an undocumented 400) by what it sends;
- an unknown route (404) or method (405) gets the same ``{error, detail}`` answer as every other
  error, saying what exists instead, except that a browser asking for a page gets an HTML page
  with the navigation (:func:`.pages.error_page`); so does a fault of the server itself (500,
  whose traceback goes to the log, not to the client), and so do the refusals above (403, 413,
  503);
- FastAPI's own API docs pages are switched off, as they load their scripts from a CDN: the
  app serves its own page at ``/docs`` (:mod:`.pages`), made from the OpenAPI schema on the
  server, with no script, and the schema itself at ``/openapi.json``. Every asset is served by
  the app: the pages work with no internet. (Swagger UI's files are on PyPI as
  ``swagger-ui-bundle``; served from ``/static`` through FastAPI's ``get_swagger_ui_html(
  swagger_js_url=..., swagger_css_url=...)`` they would give an interactive page offline, at the
  price of another dependency and a script bundle. The page here needs neither.)

Not for: the routes (:mod:`.api`, :mod:`.pages`) or the work (:mod:`.engine`). Nothing here
prints or binds a socket: ``paralign serve`` (:mod:`paralign.cli.serve`) runs the app.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.routing import Match

from .. import __version__
from ..errors import ParalignError
from . import api, pages
from .engine import ABANDONED, Engine, ServeConfig
from .models import (
    BATCH_PAIRS,
    BATCH_PATHS,
    LIMITS,
    batch_limits,
    shown_bytes,
)
from .problems import (
    FieldsRefused,
    describe,
    field_errors,
    not_utf8,
    one_of,
)

STATIC = Path(__file__).parent / "static"


def host_name(header: str) -> str:
    """The host of a ``Host`` header, without its port, lower case (``[::1]:8000`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


async def _send_error(scope: dict, send: Any, status: int, message: str) -> None:
    """Send a whole error answer from ASGI middleware: JSON ``{error, detail}``, or to a browser
    asking for a page the HTML error page, as the routes' errors are answered (:func:`_wants_page`).
    A page opened under a name the server refuses (``http://0.0.0.0:8000/``) showed raw JSON."""
    request = Request(scope)
    page = "path" in scope and _wants_page(request)
    answer = (pages.error_page(request, status, message) if page
              else JSONResponse({"error": message, "detail": []}, status_code=status))

    async def nothing() -> dict:  # the answer reads no request body
        return {"type": "http.request", "body": b"", "more_body": False}

    await answer(scope, nothing, send)


class HostCheck:
    """ASGI middleware: 403 for a request whose Host header is not one of `hosts`."""

    def __init__(self, app: Any, hosts: Iterable[str]) -> None:
        self.app, self.hosts = app, tuple(dict.fromkeys(h.lower() for h in hosts))

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            header = dict(scope.get("headers", ())).get(b"host", b"").decode("latin-1")
            if host_name(header) not in self.hosts:
                await _send_error(scope, send, 403, f"this server answers requests for {', '.join(self.hosts)}, "
                                  f"not {header!r} (start paralign serve with --host to listen elsewhere)")
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """ASGI middleware: 413 for a request body over `limit` bytes (declared or sent), or over
    `paths`' own limit for a request to one of them (the batch routes)."""

    def __init__(self, app: Any, limit: int, paths: Mapping[str, int] | None = None) -> None:
        self.app, self.default, self.paths = app, limit, dict(paths or {})

    async def _refuse(self, scope: dict, send: Any, limit: int) -> None:
        await _send_error(scope, send, 413, f"the request body is over {shown_bytes(limit)}"
                          + (", the most a batch may take" if scope.get("path") in self.paths else ""))

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.default)
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(scope, send, limit)
            return
        chunks, size, more = [], 0, True
        while more:  # read the body here, up to the limit, then replay it to the app
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > limit:
                await self._refuse(scope, send, limit)
                return
            more = message.get("more_body", False)
        body, replayed = b"".join(chunks), False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class StopAnswer:
    """ASGI middleware: a request still unanswered when the server stops gets 503 ``{error,
    detail}`` saying so. uvicorn waits a few seconds for running requests, then cancels them, and
    answered a cancelled one with a plain-text 500 'Internal Server Error' (and logged its
    traceback as a fault of the app), which a client read as a failure of its request. The
    request is marked given up (:data:`.engine.ABANDONED`): its worker thread, which a cancel
    does not stop, does no more of the engine's work (it did it all, for nobody, and the server
    stopped only when every such request had done it)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, abandoned = False, threading.Event()
        ABANDONED.set(abandoned)  # seen by the route's worker thread (a copy of this context)

        async def tracked(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except asyncio.CancelledError:  # the server is stopping (nothing else cancels a request)
            abandoned.set()
            if not started:
                await _send_error(scope, send, 503, "the server stopped before this request was answered: "
                                  "send it again once the server is back")


def body_model(request: Request) -> type[BaseModel] | None:
    """The model of the request body the matched route takes (None: no route, or no model), so
    that a refusal can say what each of its fields takes."""
    field = getattr(request.scope.get("route"), "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    engine = getattr(request.app.state, "engine", None)
    errors = field_errors(list(exc.errors()), body_model(request), engine.choices if engine is not None else None)
    return JSONResponse({"error": describe(errors), "detail": errors}, status_code=422)


async def _refused(request: Request, exc: ParalignError) -> JSONResponse:
    detail = exc.detail if isinstance(exc, FieldsRefused) else []
    return JSONResponse({"error": str(exc), "detail": detail}, status_code=422)


def _wants_page(request: Request) -> bool:
    """A browser asking for a page: GET or HEAD of a path outside the API, the schema and the
    static files, or a POST of a page's form (the batch page's), accepting HTML."""
    path = request.url.path
    asks = request.method in ("GET", "HEAD") or (request.method == "POST" and path in pages.FORM_POSTS)
    return (asks and not path.startswith(("/api/", "/static/"))
            and path not in ("/api", "/openapi.json") and "text/html" in request.headers.get("accept", ""))


def http_message(request: Request, exc: HTTPException) -> str:
    """One line for people about a 404, a 405 or another HTTP error of the router."""
    where = f"{request.method} {request.url.path}"
    if exc.status_code == 404:
        return f"nothing at {request.url.path}: the pages are listed at /, the API routes at /docs"
    if exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        return f"{where} is not allowed" + (f": use {one_of(allowed.split(', '))}" if allowed else "")  # GET, HEAD or POST
    return str(exc.detail)


def unreadable_body(exc: HTTPException) -> str | None:
    """Why a request body could not be read, when `exc` is FastAPI's 400 "There was an error
    parsing the body" (raised from the decoder's error, which it does not say): bytes that are
    not UTF-8, or JSON nested deeper than the parser goes; None for any other error."""
    cause = exc.__cause__
    if exc.status_code != 400 or cause is None:
        return None
    if isinstance(cause, UnicodeDecodeError):
        return f"{not_utf8(cause)}; send JSON encoded as UTF-8"
    if isinstance(cause, RecursionError):
        return "is JSON nested too deeply to read"
    return f"cannot be read ({type(cause).__name__})"


def allowed_methods(request: Request) -> str:
    """Every method the app's routes at the request's address take, as an ``Allow`` header says
    them. The router's 405 names those of the first route there alone: a page's address has a GET
    route and a POST route, and ``PUT /align`` was told "use POST"."""
    routes = (*request.app.router.routes, *api.router.routes, *pages.router.routes)  # FastAPI may wrap the last two
    methods = {method for route in routes if getattr(route, "methods", None)
               and route.matches(request.scope)[0] != Match.NONE for method in route.methods}
    return ", ".join(sorted(methods))


async def _http_error(request: Request, exc: HTTPException) -> Any:
    if exc.status_code == 405:
        exc.headers = {**(exc.headers or {}), "Allow": allowed_methods(request) or (exc.headers or {}).get("Allow", "")}
    unreadable = unreadable_body(exc)
    if unreadable is not None:  # a body the client sent wrong: 422, as every other such body
        return JSONResponse({"error": f"body: {unreadable}", "detail": [{"field": "body", "message": unreadable}]},
                            status_code=422)
    message = http_message(request, exc)
    if _wants_page(request):
        return pages.error_page(request, exc.status_code, message, exc.headers)
    return JSONResponse({"error": message, "detail": []}, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Any:
    """A 500 in the shape of every other error (Starlette logs the traceback after this)."""
    message = f"the server failed on {request.method} {request.url.path} ({type(exc).__name__}); see its log"
    if _wants_page(request):
        return pages.error_page(request, 500, message)
    return JSONResponse({"error": message, "detail": []}, status_code=500)


def _schema(app: FastAPI) -> dict[str, Any]:
    """FastAPI's OpenAPI schema, with the paraphrase sources this server loaded as the choices
    of ``table``, or null as the model takes it (:attr:`.Engine.default_table`), and as the choices of
    ``aligner``, ``preset`` and ``config`` those this server offers (``GET /api/info``: not the
    contextual ones without the neural extra; a client building its choices from the schema
    offered them, and they failed) (made once, after start-up)."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        schema = get_openapi(title=app.title, version=app.version, description=app.description,
                             routes=app.routes)
        engine = app.state.engine
        offered = {name: names for name, (names, _) in engine.choices.items()}
        for model in schema["components"]["schemas"].values():
            for name, choices in offered.items():
                spec = model.get("properties", {}).get(name, {})
                if "enum" in spec:
                    spec["enum"] = [choice for choice in spec["enum"] if choice in choices]
        names = list(engine.sources)
        if names:
            fields = schema["components"]["schemas"]["ParaphrasesRequest"]["properties"]
            fields["table"] = {"anyOf": [{"type": "string", "enum": names}, {"type": "null"}],
                               "default": engine.default_table, "title": "Table",
                               "description": fields["table"].get("description", "")}
        app.openapi_schema = schema
    return app.openapi_schema


class _App(FastAPI):
    """FastAPI, whose OpenAPI schema offers this server's choices (:func:`_schema`)."""

    def openapi(self) -> dict[str, Any]:
        return _schema(self)


def create_app(config: ServeConfig | None = None, *, engine: Engine | None = None,
               max_body: int = LIMITS["body_bytes"], hosts: Iterable[str] | None = None,
               max_pairs: int = BATCH_PAIRS) -> FastAPI:
    """The app; its lifespan loads an Engine from `config` (default: :class:`ServeConfig`'s
    defaults) unless `engine` is given. With `hosts`, only requests for those host names are
    answered (see the module's docstring). A batch takes at most `max_pairs` rows, in a body of
    at most :func:`.models.batch_limits`' ``batch_body_bytes`` (``app.state.limits``: every limit)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.engine = engine if engine is not None else Engine.load(config or ServeConfig())
        yield

    app = _App(title="paralign", version=__version__, lifespan=lifespan, docs_url=None,
               redoc_url=None, description="Paraphrase-aware comparison of English text: word "
               "alignment, sentence similarity, ParaEval, word lattices and paraphrase tables. "
               "Every request is limited in size; errors are JSON {error, detail}.")
    app.state.limits = {**LIMITS, "body_bytes": max_body, **batch_limits(max_pairs)}
    if engine is not None:  # usable at once, also by a client that runs no lifespan (schema fuzzers)
        app.state.engine = engine
    # FastAPI's decorator, called: it registers a handler of one exception class as it is typed
    # (Starlette's add_exception_handler is typed for a handler of any Exception)
    app.exception_handler(RequestValidationError)(_invalid)
    app.exception_handler(ParalignError)(_refused)
    app.exception_handler(HTTPException)(_http_error)
    app.add_exception_handler(Exception, _server_error)
    app.add_middleware(BodyLimit, limit=max_body,
                       paths=dict.fromkeys(BATCH_PATHS, app.state.limits["batch_body_bytes"]))
    if hosts is not None:
        app.add_middleware(HostCheck, hosts=hosts)
    app.add_middleware(StopAnswer)  # added last: runs first
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
