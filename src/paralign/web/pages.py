"""The HTML pages of ``paralign serve``: a form per task, the answer under it, and the API docs.

Each page is a GET form (the URL of an answer can be kept and shared), but the batch page's,
posted (its pairs are too many for a URL: :func:`batch_page`); its fields are checked
with the API's models (:mod:`.models`), so the pages and the API refuse the same inputs, and a
refused input shows its message above the form with status 422. Templates are Jinja2 with
autoescaping on: a sentence ``<script>alert(1)</script>`` is shown as text, and a character
HTML cannot carry (a control character in a refused field) as U+FFFD. The pictures come
from :mod:`paralign.viz`, whose writer escapes every text, and are the only markup passed
through unescaped.

``/docs`` lists the API's operations, their fields, limits and answers from the app's OpenAPI
schema, rendered on the server (no script, nothing from the internet).

Not for: the JSON API (:mod:`.api`) or the work (:mod:`.engine`).
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, PackageLoader
from markupsafe import Markup
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool

from ..aligners.registry import ALIGNER_PRESETS, preset_clash
from ..corpora.sentence_pairs import INPUT_FORMATS
from ..corpora.sts import ALIGN_SIDES, SIMILARITY_SIDES
from ..errors import ParalignError, counted
from ..metrics.paraeval import Config, GradedExplanation
from ..similarity import DEFAULT_SIGNAL
from ..textout import json_text
from . import api
from .api_docs import EXAMPLES, operations
from .models import (
    LIMITS,
    QUERY_BYTES,
    AlignRequest,
    BatchRequest,
    LatticeRequest,
    ParaEvalRequest,
    ParaphrasesRequest,
    SimilarityRequest,
    showable,
    shown_bytes,
)
from .problems import (
    Choices,
    FieldsRefused,
    describe,
    field_errors,
    not_a_field,
    not_utf8,
)
from .table_rows import example_phrase

router = APIRouter(include_in_schema=False)


def page_route(path: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A page's route: GET, and HEAD too (link checkers and some browsers ask with HEAD first;
    FastAPI's ``router.get`` answers it 405)."""
    return router.api_route(path, methods=["GET", "HEAD"], response_class=HTMLResponse)


#: Every value a template prints goes through `showable` (a control character typed in a field,
#: which the models refuse, is shown back as U+FFFD), then is escaped unless it is markup.
templates = Jinja2Templates(env=Environment(loader=PackageLoader("paralign.web", "templates"), autoescape=True,
                                            finalize=showable))
templates.env.filters["counted"] = counted  # {{ n | counted("link") }}: 1 link, 2 links
templates.env.filters["bytes"] = shown_bytes  # {{ limits.body_bytes | bytes }}: 64 KiB
#: A word of a shell command as the docs page writes it, quoted when it must be: a source named
#: o'brien.tsv in an example body, the brackets of an IPv6 address in a URL (zsh's glob).
templates.env.filters["shell"] = shlex.quote


#: A code span as CommonMark marks it: a run of backticks, the code, a run as long.
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def code_spans(text: str) -> Markup:
    """`text` escaped, each code span (`x` or ``x``, as CommonMark marks code and the schema's
    descriptions mark a command) in a ``<code>``: the docs page showed the backticks."""
    out, at = [], 0
    for found in _CODE_SPAN.finditer(str(text)):
        out += [Markup.escape(text[at:found.start()]), Markup("<code>{}</code>").format(found.group(2))]
        at = found.end()
    return Markup("").join([*out, Markup.escape(text[at:])])


templates.env.filters["code_spans"] = code_spans

#: The pages, in the order the navigation lists them: (path, label).
NAV = (("/align", "Align"), ("/similarity", "Similarity"), ("/similarity/batch", "Batch"), ("/paraeval", "ParaEval"),
       ("/lattice", "Lattice"), ("/paraphrases", "Paraphrases"), ("/docs", "API"))
#: The form fields of the two pages about a sentence pair (align, similarity).
PAIR_FIELDS = ("source", "target", "aligner", "preset")


def _css() -> Markup:
    """The pictures' and reports' stylesheet (constant text of paralign.viz, not user input)."""
    from ..viz.html import CSS
    from ..viz.reports.paraeval import TIER_CSS
    from ..viz.reports.parts import CSS as PARTS_CSS

    return Markup(CSS + PARTS_CSS + TIER_CSS)


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page from its template, with the navigation and the limits."""
    engine = api.engine_of(request)
    common = {"nav": NAV, "limits": request.app.state.limits, "query_bytes": QUERY_BYTES, "css": _css(), "presets": engine.presets,
              "aligners": engine.aligner_names, "tables": list(engine.sources),
              "default_table": engine.default_table, "unavailable": engine.unavailable}
    return templates.TemplateResponse(request, name, {**common, **context}, status_code=status)


#: A line break as a browser sends a textarea's (CR LF; LF or CR typed in a URL). Not
#: ``str.splitlines``, which also breaks at U+000B, U+000C, U+001C-U+001E, U+0085, U+2028 and
#: U+2029: the box shows none of them as a line break, so a refusal named another line than the
#: one on the screen, and a control character the API refuses split a sentence in two instead.
_LINE_BREAK = re.compile("\r\n|\r|\n")


def _lines(text: str | None) -> tuple[list[str], list[int]]:
    """A textarea's non-blank lines, stripped, and their line numbers in the box (from 1)."""
    kept = [(line.strip(), number) for number, line in enumerate(_LINE_BREAK.split(text or ""), 1) if line.strip()]
    return [line for line, _ in kept], [number for _, number in kept]


def _page_errors(exc: ValidationError, model: type[BaseModel], lines: Mapping[str, Sequence[int]],
                 sent_empty: Iterable[str] = (), form: Mapping[str, Any] | None = None,
                 labels: Mapping[str, str] | None = None, choices: Choices | None = None) -> str:
    """The refusal's message, an item of a textarea's list named by its line in the box
    (``references (line 3)``) where the API names it by its place in the list (``references.1``);
    a required field the form sent empty (`sent_empty`) said to be empty, where pydantic's
    "Field required" read as if the page had left it out; a preset the `form`'s aligner does
    not take said in the form's terms (:func:`_clash_on_page`); what each field takes, from
    `model` (the form's request model); a field the page labels otherwise named by its label
    (`labels`: :data:`BATCH_LABELS`); a choice said as what this server offers (`choices`:
    :attr:`.engine.Engine.choices`); a textarea of too many or too few items said to have that
    many lines, which is what the user typed (it said items)."""
    errors = field_errors(list(exc.errors()), model, choices, in_lines=lines)
    empty = set(sent_empty)
    for error, found in zip(errors, exc.errors(), strict=True):
        if found.get("type") == "missing" and error["field"] in empty:
            error["message"] = "is empty"
        if error["field"] == "body" and form is not None:
            error.update(_clash_on_page(form) or {})
    for error in errors:
        name, _, index = error["field"].partition(".")
        if name in lines and index.isdigit() and int(index) < len(lines[name]):
            error["field"] = f"{name} (line {lines[name][int(index)]})"
    return describe(_labelled(errors, labels or {}))


def _labelled(errors: Iterable[Mapping[str, str]], labels: Mapping[str, str]) -> list[dict[str, str]]:
    """`errors` with each field the page labels otherwise named as its label says it."""
    return [{**error, "field": labels.get(error["field"], error["field"])} for error in errors]


def _clash_on_page(form: Mapping[str, Any]) -> dict[str, str] | None:
    """The refusal of a preset the form's aligner does not take (:func:`~paralign.aligners.registry.preset_clash`)
    as the form's menus name them, or None. The API's message names its JSON fields (``body: "aligner":
    "exact" has no preset but default ("preset": "paper") ... leave "preset" out``), which a page's
    menus, which always send a preset, cannot do."""
    aligner, preset = form.get("aligner", "sultan"), form.get("preset")
    if preset_clash(aligner, preset) is None:
        return None
    takes = ALIGNER_PRESETS[aligner]
    return {"field": "preset", "message": f"the {aligner} aligner takes the preset {' or '.join(takes)} only, not "
            f"{preset}: choose {'it' if len(takes) == 1 else 'one of them'}, or the sultan aligner, which takes every preset"}


def query_not_utf8(request: Request, fields: Iterable[str]) -> list[dict[str, str]]:
    """The form fields among `fields` whose percent-encoded bytes in the query are not UTF-8, as
    (field, message) records (the query parser would have read each bad byte as U+FFFD, and the
    page would have answered for a text nobody typed: a browser sends UTF-8 from these pages)."""
    wanted, errors = set(fields), []
    query = request.scope.get("query_string", b"").decode("latin-1")
    for name, value in parse_qsl(query, keep_blank_values=True, encoding="latin-1"):
        name = name.encode("latin-1").decode("utf-8", "replace")
        try:
            value.encode("latin-1").decode("utf-8")
        except UnicodeDecodeError as exc:
            if name in wanted:
                errors.append({"field": name, "message": f"{not_utf8(exc)}: a form sends UTF-8"})
    return errors


def unknown_fields(sent: Iterable[str], fields: Iterable[str]) -> list[dict[str, str]]:
    """The fields `sent` that are not among the form's `fields`, as (field, message) records: a
    page that answers refuses them, as the API refuses a field its request has not (a misspelt
    ``?treshold=0.5`` was ignored without a word, and the answer read as if it had been used).
    A page showing its form alone answers nothing, so a field there changes nothing and is let be,
    as a ``?t=`` is on ``GET /api/info``."""
    known = list(fields)
    return [{"field": name, "message": not_a_field(known, "this page's form")} for name in dict.fromkeys(sent)
            if name not in known]


def answer_page(request: Request, name: str, model: type[BaseModel], fields: Mapping[str, Any],
                work: Callable[[Any], dict[str, Any]], lines: Mapping[str, Sequence[int]] | None = None,
                labels: Mapping[str, str] | None = None, **context: Any) -> HTMLResponse:
    """The page `name`: the form when nothing was asked (no text field of `model`, one it
    requires, is in the query: a link such as ``/paraeval?config=paper`` opens the form with that
    choice made, where it was refused for the missing texts); else the fields checked by
    `model` and the answer of `work(request model)`, or the reason there is none (422).
    `lines`: per textarea field, the line numbers of its items (:func:`_lines`), to name
    a refused item by its line (the page's textarea shows its text as typed, `typed`, so that
    the line named is that line on the screen). A field the form has not is refused
    (:func:`unknown_fields`). A refused field the page labels otherwise is named by its label
    (`labels`: :data:`SIMILARITY_LABELS`). `context`: more values for the template, whatever the answer."""
    labels = labels or {}
    form = {k: v for k, v in fields.items() if v not in (None, "", [])}
    texts = [k for k in fields if k in model.model_fields and model.model_fields[k].is_required()]
    if not any(k in request.query_params for k in texts):
        return render(request, name, form=form, **context)
    unreadable = unknown_fields(request.query_params, fields) + query_not_utf8(request, fields)
    if unreadable:
        return render(request, name, 422, form=form, error=describe(_labelled(unreadable, labels)), **context)
    try:
        body = model.model_validate(form)
        return render(request, name, form=form, **context, **work(body))
    except ValidationError as exc:
        sent_empty = {k for k in fields if k in request.query_params and k not in form}
        return render(request, name, 422, form=form, error=_page_errors(exc, model, lines or {}, sent_empty, form,
                                                                labels, api.engine_of(request).choices), **context)
    except FieldsRefused as exc:  # the engine's refusal of a field (a sentence of no word, of too many tokens)
        return render(request, name, 422, form=form, error=describe(_labelled(exc.detail, labels)), **context)
    except ParalignError as exc:
        return render(request, name, 422, form=form, error=str(exc), **context)


def error_page(request: Request, status: int, message: str,
               headers: Mapping[str, str] | None = None) -> HTMLResponse:
    """The page of an HTTP error a browser met (an unknown page: 404): the navigation, the
    message and a way back."""
    heading = {403: "Wrong host name", 404: "Page not found", 405: "Method not allowed", 413: "Request too large",
               500: "Server error", 503: "Server stopped"}.get(status, "Error")
    answer = render(request, "error.html", status, error=message, heading=heading)
    answer.headers.update(headers or {})
    return answer


#: The pages whose task the JSON API does too and whose form is sent with GET, so a POST to one is
#: answered by :func:`posted_to_page`: each one's API route is ``/api`` + its path. The batch page
#: (``/similarity/batch``, :data:`FORM_POSTS`) is not one: its form is posted, and batch_page reads it.
API_PAGES = ("/align", "/similarity", "/paraeval", "/lattice", "/paraphrases")


def _body_type(request: Request) -> str:
    """The media type of a request's body, lower case, without its parameters ("" when none is said)."""
    return request.headers.get("content-type", "").partition(";")[0].strip().lower()


def _is_json(kind: str) -> bool:
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def to_api(request: Request) -> JSONResponse:
    """A JSON body posted to a page's address, sent on to the page's API route: 308 keeps the
    method and the body (``fetch`` follows it, and ``curl -L``), the query too (which the API
    refuses by name). It was 405 "use GET or HEAD", which told a client nothing of /api."""
    path, query = request.url.path, request.url.query
    return JSONResponse({"error": f"POST {path} is a page: the JSON API answers at POST /api{path} (this answer "
                         "sends the request there: follow it, as fetch does, or curl -L)", "detail": []},
                        status_code=308, headers={"location": f"/api{path}" + (f"?{query}" if query else "")})


async def posted_to_page(request: Request) -> Response:
    """A POST to the address of a page whose form is sent with GET (answered 405 before): JSON
    goes on to the API route (:func:`to_api`); a form (``<form method="post" action="/align">``)
    is answered 303 to the page with its fields as the query, the page's own form's address (one
    that can be kept); another body is 415, saying what the address takes."""
    path, kind = request.url.path, _body_type(request)
    if _is_json(kind):
        return to_api(request)
    if kind != "application/x-www-form-urlencoded":
        return JSONResponse({"error": f"POST {path} takes JSON (sent on to POST /api{path}) or a form (application/"
                             f"x-www-form-urlencoded, answered as GET {path}), not {kind or 'a body of no type'}",
                             "detail": []}, status_code=415)
    query = quote((await request.body()).decode("latin-1"), safe="=&+%")  # the bytes as sent; the page checks them
    if len(query) > QUERY_BYTES:
        return JSONResponse({"error": f"the form is over {shown_bytes(QUERY_BYTES)}, the most a page's address takes: "
                             f"send it as JSON to POST /api{path}", "detail": []}, status_code=413)
    return RedirectResponse(f"{path}?{query}", status_code=303)


for _path in API_PAGES:
    router.add_api_route(_path, posted_to_page, methods=["POST"])


@page_route("/")
async def index(request: Request) -> HTMLResponse:
    """The home page, made on the event loop as /api/info is (no thread needed: it does no work)."""
    return render(request, "index.html")


@page_route("/align")
def align_page(request: Request) -> HTMLResponse:
    q = request.query_params

    def work(body: AlignRequest) -> dict[str, Any]:
        aligned = api.engine_of(request).align(body.source, body.target, body.aligner, body.preset)
        answer = api.answer_align(aligned, picture=False)
        return {"answer": answer, "grid": Markup(api.grid_svg(aligned)),
                "lines": Markup(api.grid_svg(aligned, "align-lines", "lines")),
                "confidence": any(link.confidence is not None for link in answer.links)}

    fields = {name: q.get(name) for name in PAIR_FIELDS}
    return answer_page(request, "align.html", AlignRequest, fields, work)


#: How the similarity page names a pair's sides, as the similarity commands and the batch page
#: name them (``paralign similarity``: first and second sentence); the align page, as ``paralign
#: align``, keeps source and target. The query's fields are the API's, source and target
#: (:data:`~paralign.corpora.sts.ALIGN_SIDES`), named by :data:`~paralign.corpora.sts.SIMILARITY_SIDES`.
SIMILARITY_LABELS = {field: f"{side} sentence" for field, side in zip(ALIGN_SIDES, SIMILARITY_SIDES, strict=True)}


@page_route("/similarity")
def similarity_page(request: Request) -> HTMLResponse:
    q = request.query_params

    def work(body: SimilarityRequest) -> dict[str, Any]:
        engine = api.engine_of(request)
        aligned = engine.align(body.source, body.target, body.aligner, body.preset, scored=True)
        return {"aligned": aligned, "scores": engine.similarity(aligned), "notes": engine.similarity_notes(aligned),
                "grid": Markup(api.grid_svg(aligned, "similarity-grid")),
                "signature": api.signals_signature(engine, aligned)}

    fields = {name: q.get(name) for name in PAIR_FIELDS}
    return answer_page(request, "similarity.html", SimilarityRequest, fields, work, labels=SIMILARITY_LABELS,
                       sides=tuple(SIMILARITY_LABELS.values()))


#: The pages whose form is posted, its text too long for a URL (a GET form): the batch page's.
FORM_POSTS = ("/similarity/batch",)
#: The batch page's form fields (:class:`.models.BatchRequest`'s).
BATCH_FIELDS = ("pairs", "name", "input_format", "signal", "aligner", "preset")
#: How the batch page names the fields its labels name otherwise than the API (a refusal of
#: ``input_format``, or of ``name``, the hidden field holding a chosen file's name, named a field
#: the page does not show): as its labels say them (``templates/similarity_batch.html``).
BATCH_LABELS = {"pairs": "sentence pairs", "input_format": "input format", "name": "the chosen file's name"}


def _download(text: str) -> str:
    """`text` as the data of a ``data:`` URL (percent-encoded): a download made in the page,
    with nothing kept on the server."""
    return quote(text, safe="")


def _batch_answer(request: Request, form: dict[str, str], sent_empty: Iterable[str] = ()) -> HTMLResponse:
    """The batch page with the answer to `form` (or why there is none: 422; a field the form
    sent empty, `sent_empty`, said to be empty, as the other pages say it), in a worker thread:
    the batch waits for the engine's lock."""
    context = _batch_context(request)
    try:
        body = BatchRequest.model_validate(form)
        answer = api.answer_batch(api.scored_batch(body, request))
    except ValidationError as exc:
        return render(request, "similarity_batch.html", 422, form=form,
                      error=_page_errors(exc, BatchRequest, {}, sent_empty, form, BATCH_LABELS,
                                         api.engine_of(request).choices), **context)
    except FieldsRefused as exc:  # the engine's refusal of a field (too many rows, a signal not offered)
        return render(request, "similarity_batch.html", 422, form=form,
                      error=describe(_labelled(exc.detail, BATCH_LABELS)), **context)
    except ParalignError as exc:
        return render(request, "similarity_batch.html", 422, form=form, error=str(exc), **context)
    preset = [] if body.aligner != "sultan" and body.preset == "default" else ["--preset", body.preset]  # none asked
    given = [] if body.input_format == "auto" else ["--input-format", body.input_format]
    command = shlex.join(["paralign", "similarity", "--pairs", body.name or "FILE", *given, "--signal", body.signal,
                          "--aligner", body.aligner, *preset])
    return render(request, "similarity_batch.html", form=form, answer=answer, command=command,
                  bad=[row for row in answer.rows if row.error], **context,
                  json_data=_download(json_text(answer.report, indent=2) + "\n"), tsv_data=_download(answer.text))


def _batch_context(request: Request) -> dict[str, Any]:
    return {"signals": list(api.engine_of(request).signals), "default_signal": DEFAULT_SIGNAL,
            "input_formats": INPUT_FORMATS, "sides": tuple(SIMILARITY_LABELS.values())}


@router.api_route("/similarity/batch", methods=["GET", "HEAD", "POST"], response_class=HTMLResponse)
async def batch_page(request: Request) -> Response:
    """Many pairs scored by one signal, as ``paralign similarity --pairs`` scores a file: the
    form (GET), and with its answer (POST: the pairs are too many for a URL) a table of every
    row, the bad lines with their reasons, and the command's JSON and text output to download.
    The form is read here (urlencoded, as a browser posts it: no multipart parser, as a chosen
    file is read into the form's text by the page's script); the work runs in a worker thread."""
    if request.method != "POST":
        return render(request, "similarity_batch.html", form={}, **_batch_context(request))
    kind = _body_type(request)
    if _is_json(kind):  # the API's body, sent to the page's address
        return to_api(request)
    if kind != "application/x-www-form-urlencoded":
        return render(request, "similarity_batch.html", 422, form={}, **_batch_context(request),
                      error=f"the form must be sent as application/x-www-form-urlencoded, not {kind or 'no type'}")
    try:
        fields = dict(parse_qsl((await request.body()).decode("utf-8"), keep_blank_values=True, errors="strict"))
    except UnicodeDecodeError as exc:
        return render(request, "similarity_batch.html", 422, form={}, **_batch_context(request),
                      error=f"the form {not_utf8(exc)}: a form sends UTF-8")
    form = {name: fields[name] for name in BATCH_FIELDS if fields.get(name)}
    unknown = unknown_fields(fields, BATCH_FIELDS)
    if unknown:  # the form kept, the pairs too, to send again without the field
        return render(request, "similarity_batch.html", 422, form=form, **_batch_context(request), error=describe(unknown))
    sent_empty = [name for name in BATCH_FIELDS if name in fields and name not in form]
    return await run_in_threadpool(_batch_answer, request, form, sent_empty)


def tier_rows(config: Config, explained: GradedExplanation) -> list[dict[str, Any]]:
    """Per tier of a graded config: its weight, the hypothesis words it matched and the graded
    sums of the two sides (the statistics row's columns, content and function words together)."""
    counts = dict(explained.counts)
    return [{"tier": tier, "weight": config.weight(tier),
             "words": sum(m.hyp_end - m.hyp_start for m in explained.matches if m.tier == tier),
             "hyp": counts[f"{tier}_hc"] + counts[f"{tier}_hf"], "ref": counts[f"{tier}_rc"] + counts[f"{tier}_rf"]}
            for tier in config.tiers]


@page_route("/paraeval")
def paraeval_page(request: Request) -> HTMLResponse:
    """ParaEval of one segment by a config (default: ``default``, the command line's): the
    scores, the hypothesis highlighted by tier; for the paper config what each phrase matched,
    written out; for a graded config the reference scored against highlighted, the matches with
    their grades and weights, and the chunks."""
    from ..viz.reports.paraeval import GRADED_LABELS, LABELS, highlighted, match_list

    q = request.query_params
    engine = api.engine_of(request)

    def work(body: ParaEvalRequest) -> dict[str, Any]:
        result = engine.paraeval(body.hypothesis, body.references, body.config)
        match = result.matched
        out = {"answer": api.answer_paraeval(result), "settings": result.config,
               "labels": LABELS if result.config.scorer == "paper" else  # the config's tiers only
               {tier: GRADED_LABELS[tier] for tier in (*result.config.tiers, "unmatched")},
               "highlighted": Markup(highlighted(match.tokens, match.spans).to_xml())}
        if isinstance(match, GradedExplanation):  # a graded config's (the paper config's: a SegmentMatch)
            out["reference_highlighted"] = Markup(
                highlighted(match.reference_tokens, match.reference_spans, "matched-reference").to_xml())
            out["tier_rows"] = tier_rows(result.config, match)
        elif (matched := match_list(match.tokens, match.spans)) is not None:  # graded: the matches table
            out["matched"] = Markup(matched.to_xml())
        return out

    references, numbers = _lines(q.get("references"))
    fields = {"hypothesis": q.get("hypothesis"), "references": references, "config": q.get("config")}
    return answer_page(request, "paraeval.html", ParaEvalRequest, fields, work, {"references": numbers},
                       configs=engine.paraeval_configs, typed=q.get("references"))


@page_route("/lattice")
def lattice_page(request: Request) -> HTMLResponse:
    """A lattice of equivalent sentences: its drawing with the key to reading it, its edges as a
    table (each edge's word and how many sentences use it, which the drawing shows as thickness
    and tells in a tooltip, a mouse's only) and some paths."""
    from ..viz import lattice_drawing
    from ..viz.lattice import edge_rows, lattice_key

    q = request.query_params

    def work(body: LatticeRequest) -> dict[str, Any]:
        result = api.engine_of(request).lattice(body.sentences, body.method)
        lattice = result.lattice
        return {"answer": api.answer_lattice(result, picture=False),
                "drawing": Markup(lattice_drawing(lattice, ident="lattice-drawing").to_xml()),
                "key": lattice_key(lattice), "weighted": bool(lattice.weights),
                "edge_rows": edge_rows(lattice)}

    sentences, numbers = _lines(q.get("sentences"))
    fields = {"sentences": sentences, "method": q.get("method")}
    return answer_page(request, "lattice.html", LatticeRequest, fields, work, {"sentences": numbers},
                       typed=q.get("sentences"))


def _whole(text: str | None) -> int | float | str | None:
    """A number field's text as the number it writes (the models take a count only as a JSON
    number): an int, or a float as a browser's number field also sends one (``5.0``, ``1e3``: its
    own check takes them), for the model to take when whole and refuse when not; else the text
    as it came, for the model to refuse."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return text
    return number if math.isfinite(number) else text


@page_route("/paraphrases")
def paraphrases_page(request: Request) -> HTMLResponse:
    """A phrase's paraphrases, at most `limit` of them (the API's default 50), with a link to
    them all (up to the API's limit) when there are more."""
    q = request.query_params

    def work(body: ParaphrasesRequest) -> dict[str, Any]:
        answer = api.paraphrases(body, request)
        most = min(answer.total, LIMITS["paraphrases"])
        more = (f"/paraphrases?{urlencode({'phrase': body.phrase, 'table': answer.table, 'limit': most})}"
                if most > len(answer.paraphrases) else None)
        return {"answer": answer, "more": more, "most": most}

    fields = {"phrase": q.get("phrase"), "table": q.get("table"), "limit": _whole(q.get("limit"))}
    return answer_page(request, "paraphrases.html", ParaphrasesRequest, fields, work,
                       default_limit=ParaphrasesRequest.model_fields["limit"].default)


# -- the API docs -------------------------------------------------------------------------------------
@page_route("/docs")
async def docs_page(request: Request) -> HTMLResponse:
    """The API docs; the paraphrases example asks the source a lookup naming none asks (the first
    --table, else the first source) for a phrase it has (:func:`.table_rows.example_phrase`), so
    that it gives rows as shown whatever was loaded. Made on the event loop, as the home page."""
    engine = api.engine_of(request)
    source = engine.sources.get(engine.default_table)
    lookup = ({"phrase": example_phrase(source), "table": engine.default_table} if source is not None
              else EXAMPLES["/api/paraphrases"])
    return render(request, "docs.html", operations=operations(request.app.openapi(),
                                                              {**EXAMPLES, "/api/paraphrases": lookup}),
                  base=str(request.base_url).rstrip("/"))
