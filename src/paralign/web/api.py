"""The JSON API: ``POST /api/align``, ``/api/similarity``, ``/api/similarity/batch``, ``/api/paraeval``, ``/api/lattice``,
``/api/paraphrases`` and ``GET /api/info`` (HEAD too, for health checks), each with pydantic models (:mod:`.models`), so the
OpenAPI schema at ``/openapi.json`` describes them exactly.

The ``answer_*`` functions turn the engine's results into the response models; the HTML pages
(:mod:`.pages`) show the same answers.

Not for: the work itself (:mod:`.engine`) or the pages.
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict

from fastapi import APIRouter, Depends, Request

from ..aligners.registry import resolve_aligner
from ..aligners.signature import alignment_signature
from ..metrics.paraeval import ParaEvalScore, SegmentMatch
from ..similarity.signature import similarity_signature
from .engine import PASTED, Engine
from .models import (
    AlignRequest,
    AlignResponse,
    BatchRequest,
    BatchResponse,
    BatchRow,
    Chunk,
    Edge,
    GradedView,
    Info,
    LatticeRequest,
    LatticeResponse,
    Link,
    ParaEvalRequest,
    ParaEvalResponse,
    Paraphrase,
    ParaphrasesRequest,
    ParaphrasesResponse,
    SimilarityRequest,
    SimilarityResponse,
    Span,
    WordMatch,
)
from .problems import FieldsRefused, Problem
from .results import Aligned, BatchResult, LatticeResult, ParaEvalResult

#: The error answers every route may give (documented in the schema).
#: 403, 413 and 503 come from the app's middleware (:mod:`.app`) before a route runs, 500 from its
#: fault handler; all answer in the same `Problem` shape.
ERRORS: dict[int | str, dict] = {
    403: {"model": Problem, "description": "the Host header names a host this server does not answer for"},
    413: {"model": Problem, "description": "the request body is too large"},
    422: {"model": Problem, "description": "a field breaks a rule, or the input cannot be used"},
    500: {"model": Problem, "description": "a fault of the server (its traceback is in the server's log)"},
    503: {"model": Problem, "description": "the server stopped before the request was answered"},
}


async def body_only(request: Request) -> None:
    """Refuse a POST that carries query parameters: the API reads its options from the JSON body
    only, and ``POST /api/align?preset=paper`` used the default preset without a word, while an
    unknown body field is refused. (A GET of ``/api/info`` takes none either, but a cache-busting
    ``?t=...`` there changes no answer, so it is let be.) Async: a sync dependency takes a worker
    thread, and /api/info must answer when none is free (:func:`info`)."""
    if request.method != "POST" or not request.query_params:
        return
    names = sorted(set(request.query_params.keys()))
    raise FieldsRefused([{"field": f"query.{name}", "message": "the API reads no query parameter: send it "
                          "as a field of the JSON body"} for name in names])


router = APIRouter(prefix="/api", tags=["api"], responses=ERRORS, dependencies=[Depends(body_only)])


def engine_of(request: Request) -> Engine:
    """The engine the app loaded at start-up."""
    return request.app.state.engine


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


# -- answers -----------------------------------------------------------------------------------------
def links_of(aligned: Aligned) -> list[Link]:
    """The alignment's links with their words (and confidences, when the aligner gives them)."""
    s, t, a = aligned.source.tokens, aligned.target.tokens, aligned.alignment
    confidence = aligned.confidence or {}
    return [Link(i=i, j=j, kind="sure" if (i, j) in a.sure else "possible", source=s[i], target=t[j],
                 confidence=confidence.get((i, j))) for i, j in sorted(a.possible)]


def grid_svg(aligned: Aligned, ident: str = "align-grid", picture: str = "grid") -> str:
    """The alignment grid (or with `picture` ``lines``, the two sentences joined by lines) as SVG
    text (paralign.viz), confidences shaded."""
    from ..viz import AlignmentView, alignment_grid, alignment_lines

    view = AlignmentView(aligned.source.tokens, aligned.target.tokens, aligned.alignment,
                         confidence=aligned.confidence)
    draw = alignment_lines if picture == "lines" else alignment_grid
    return draw(view, ident=ident).to_xml()


def signals_signature(engine: Engine, aligned: Aligned) -> str:
    """The signature of every signal's score of an aligned pair (/api/similarity and its page)."""
    return similarity_signature(list(engine.signals.values()), resolve_aligner(aligned.aligner))


def answer_align(aligned: Aligned, picture: bool) -> AlignResponse:
    return AlignResponse(source_tokens=list(aligned.source.tokens), target_tokens=list(aligned.target.tokens),
                         links=links_of(aligned), pharaoh=aligned.alignment.to_pharaoh(),
                         aligner=aligned.aligner, signature=alignment_signature(resolve_aligner(aligned.aligner)),
                         svg=grid_svg(aligned) if picture else None)


def answer_paraeval(result: ParaEvalResult) -> ParaEvalResponse:
    """A segment's scores, as ``paralign paraeval --config NAME --sentence-level --format json``
    gives that segment's (computed by the same function from the same statistics), and its
    words' tiers; for a graded config also its matches and chunks (:class:`.models.GradedView`)."""
    match, signature = result.matched, result.signature
    spans = [Span(start=sp.start, end=sp.end, text=" ".join(match.tokens[sp.start:sp.end]),
                  tier=sp.tier, matched=list(sp.matched)) for sp in match.spans]
    respond = functools.partial(ParaEvalResponse, config=result.config.name, tokens=list(match.tokens), spans=spans,
                                signature=signature)
    if isinstance(match, SegmentMatch):
        score = ParaEvalScore(match.stats, signature)
        return respond(score=None, precision=_finite(score.precision), recall=_finite(score.recall),
                       f=_finite(score.f), counts=asdict(score.stats), graded=None)  # counts: as score.to_dict()
    import numpy as np

    from ..metrics.paraeval.scoring import graded_dict

    d = graded_dict(np.array(match.stats), result.config, "segment", signature)
    ref, hyp = match.reference_tokens, match.tokens
    view = GradedView(
        reference=match.reference, reference_tokens=list(ref), reference_scores=list(match.reference_scores),
        matches=[WordMatch(tier=m.tier, hyp_start=m.hyp_start, hyp_end=m.hyp_end, ref_start=m.ref_start,
                           ref_end=m.ref_end, hypothesis=" ".join(hyp[m.hyp_start:m.hyp_end]),
                           reference=" ".join(ref[m.ref_start:m.ref_end]), grade=m.grade, weight=m.weight)
                 for m in match.matches],
        chunks=[Chunk(start=a, end=b, text=" ".join(hyp[a:b])) for a, b in match.chunks],
        fmean=match.fmean, penalty=match.penalty)
    return respond(score=d["score"], precision=d["precision"], recall=d["recall"],
                   f=d["f"], counts=d["counts"], graded=view)


def answer_batch(result: BatchResult) -> BatchResponse:
    """A batch's rows (each its sentences and score, or why it has none) and the record and text
    ``paralign similarity`` writes for the same input."""
    rows = [BatchRow(line=number, id=pair_id, source=None if isinstance(row, str) else row[0],
                     target=None if isinstance(row, str) else row[1], score=score, error=error)
            for (number, row, pair_id, _), score, error in zip(result.rows, result.scores, result.errors, strict=True)]
    return BatchResponse(rows=rows, pairs=len(rows), skipped=result.report["skipped"],
                         signature=result.report["signature"], notes=result.report["notes"], report=result.report,
                         text=result.text)


def answer_lattice(result: LatticeResult, picture: bool) -> LatticeResponse:
    from ..viz import lattice_drawing

    lattice = result.lattice
    svg = lattice_drawing(lattice, ident="lattice-drawing").to_xml() if picture else None
    return LatticeResponse(states=lattice.n_states, edges=[Edge(start=s, word=w, end=e) for s, w, e in lattice.edges],
                           paths=str(lattice.path_count()), log10_paths=lattice.log10_paths(),
                           some_paths=list(result.some_paths), svg=svg)


# -- routes ---------------------------------------------------------------------------------------
@router.head("/info", include_in_schema=False)  # health checks ask with HEAD; the schema shows GET once
@router.get("/info", response_model=Info, summary="what the server offers: aligners, presets, "
            "signals, paraphrase sources and input limits")
async def info(request: Request) -> Info:
    """Run on the event loop, not in a worker thread (it takes no lock): a health check is
    answered at once while every thread of the pool holds a request waiting for the engine."""
    engine = engine_of(request)
    return Info(aligners=engine.aligner_names, presets=engine.presets, signals=list(engine.signals),
                tables=list(engine.sources), limits=dict(request.app.state.limits),
                paraeval_configs=engine.paraeval_configs,
                encoder=engine.encoder_id, unavailable=engine.unavailable)


@router.post("/align", response_model=AlignResponse, summary="word-align two sentences")
def align(body: AlignRequest, request: Request) -> AlignResponse:
    aligned = engine_of(request).align(body.source, body.target, body.aligner, body.preset)
    return answer_align(aligned, body.picture)


@router.post("/similarity", response_model=SimilarityResponse,
             summary="the similarity of two sentences by every signal, from one alignment")
def similarity(body: SimilarityRequest, request: Request) -> SimilarityResponse:
    engine = engine_of(request)
    aligned = engine.align(body.source, body.target, body.aligner, body.preset, scored=True)
    return SimilarityResponse(source_tokens=list(aligned.source.tokens),
                              target_tokens=list(aligned.target.tokens),
                              links=len(aligned.alignment.possible), aligner=aligned.aligner,
                              scores=engine.similarity(aligned),
                              signature=signals_signature(engine, aligned),
                              notes=engine.similarity_notes(aligned))


@router.post("/similarity/batch", response_model=BatchResponse, responses={
    413: {"model": Problem, "description": "the request body is over limits.batch_body_bytes (GET /api/info)"},
    422: {"model": Problem, "description": "a field breaks a rule (pairs over limits.batch_pairs rows, an unknown "
          "signal); a bad line of pairs is no error: it is reported in its row"}},
    summary="many sentence pairs scored by one signal, as `paralign similarity --pairs FILE` scores them: every "
    "row's score, each bad line in its place with its reason, and the command's JSON and text output; at most "
    "limits.batch_pairs rows (GET /api/info), scored in blocks: a request sent meanwhile is answered between two")
def similarity_batch(body: BatchRequest, request: Request) -> BatchResponse:
    return answer_batch(scored_batch(body, request))


def scored_batch(body: BatchRequest, request: Request) -> BatchResult:
    """The batch of a request (the API's or the batch page's form) scored by the app's engine,
    within the server's row limit."""
    return engine_of(request).similarity_batch(body.pairs, body.signal, body.aligner, body.preset,
                                               name=body.name or PASTED, input_format=body.input_format,
                                               max_pairs=request.app.state.limits["batch_pairs"])


@router.post("/paraeval", response_model=ParaEvalResponse,
             summary="ParaEval of a hypothesis against references, with its words' match tiers: the "
             "segment's figures of `paralign paraeval --config NAME --sentence-level` (default config "
             "by default) with the server's paraphrase sources")
def paraeval(body: ParaEvalRequest, request: Request) -> ParaEvalResponse:
    return answer_paraeval(engine_of(request).paraeval(body.hypothesis, body.references, body.config))


@router.post("/lattice", response_model=LatticeResponse,
             summary="the word lattice of equivalent sentences (Pang et al. 2003)")
def lattice(body: LatticeRequest, request: Request) -> LatticeResponse:
    return answer_lattice(engine_of(request).lattice(body.sentences, body.method), body.picture)


@router.post("/paraphrases", response_model=ParaphrasesResponse,
             summary="the paraphrases of a phrase in a source loaded at start-up")
def paraphrases(body: ParaphrasesRequest, request: Request) -> ParaphrasesResponse:
    engine = engine_of(request)
    table = body.table if body.table is not None else engine.default_table
    found = engine.paraphrase_rows(body.phrase, table)
    key, name = found.key, found.score_column
    return ParaphrasesResponse(phrase=body.phrase, looked_up_as=key if key != body.phrase else None,
                               table=table, total=len(found.rows), score_column=name, columns=list(found.columns),
                               paraphrases=[Paraphrase(paraphrase=row["paraphrase"], score=_finite(row[name]),
                                                       columns={column: row.get(column) for column in found.columns})
                                            for row in found.rows[:body.limit]])
