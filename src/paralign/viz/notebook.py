"""paralign's results drawn in a Jupyter notebook: IPython's display formatters, registered per type.

The values below :mod:`paralign.viz` (an :class:`~paralign.alignment.Alignment`, a
:class:`~paralign.lattice.Lattice`, the score objects) may not import it (the layers contract),
so they carry no ``_repr_html_``: this module registers a display function for each of them
with IPython instead (:data:`DISPLAYS`), by module and class name
(``for_type_by_name``), so that no result type is imported before one is shown. What shows:

- an ``Alignment`` or ``AlignedSentences``: its grid (:func:`.grid.alignment_grid`; or its lines
  view, :func:`.lines.alignment_lines`: ``register(alignment="lines")``), a bare ``Alignment``
  (what ``Aligner.align`` gives) with token positions for words, as it holds none: :func:`aligned`
  gives the pair with its words; an ``AlignedSentences``' signature under it;
- a ``Lattice``: its drawing (:func:`.lattice.lattice_drawing`) and how to read it; one too large
  to draw, why, and what to write instead;
- the scores that carry a signature (``ParaEvalScore``, ``AlignmentScores``, ParaMetric's
  ``AlignScores`` and ``TableScores``, ``SimilarityBatch``, ``StsEvaluation``, ``StsReport``,
  ``ParaphraseEvaluation``): a table of figures (:func:`.reports.parts.score_table`, the
  reports' own) and the signature; an ``StsReport`` and an ``StsFileResult`` each file's scatter
  of system score against gold, as the report draws it (:func:`.reports.sts.file_scatter`; a
  note for a file none of whose pairs was scored); a
  ``MetaEvaluation``: every metric's correlations as an interval plot
  (:func:`.intervals.interval_plot`) and a table, and the signatures;
- a ParaEval segment (``SegmentMatch``, the paper config's; ``GradedExplanation``, a graded
  config's): its figures and its words highlighted by tier as the report highlights them
  (:func:`.reports.paraeval.highlighted`, the tiers' look inline).

A picture is given twice: as ``image/svg+xml`` (the very SVG the viz functions write, for
exporters and viewers that show no HTML) and as ``text/html`` (the same picture in a box of at
most :data:`BOX_HEIGHT` that scrolls: at its natural size, its tooltips working, never shrunk to
the cell's width until its words cannot be read), which notebooks prefer. The HTML has no
``<style>`` (it would restyle the whole notebook) and no script, needs no network, and every
text in it is escaped (:mod:`.svg` writes it). Each picture's ids are those of its content
(:func:`_identified`: a hash of the picture drawn with a placeholder id): a notebook is one
document, and a second grid's ``url(#grid-...)`` hatching would otherwise point into a different
first grid; the same picture shown twice has the same ids, and the same definitions under them.
They were a count of the pictures shown, so running a notebook's cells again changed its saved
outputs: noise in a notebook kept under version control.

``import paralign`` inside a running IPython (a Jupyter kernel, an IPython shell) loads this as
the extension ``paralign`` (:func:`load_in_running_shell`), as ``%load_ext paralign`` does;
``%unload_ext paralign`` takes the displays away again. IPython is imported only here, only when
a shell asks, and never by ``import paralign`` outside one: paralign needs no IPython.
:func:`grid`, :func:`lines` and :func:`drawing` give a picture that shows itself
(``_repr_svg_``, ``_repr_html_``), with a gold alignment too, with or without the extension;
:func:`mimebundle` what a display gives, without IPython.

Not for: drawing (:mod:`.grid`, :mod:`.lines`, :mod:`.lattice`) or whole report pages
(:mod:`.reports`, which carry a stylesheet and are files).
"""

from __future__ import annotations

import hashlib
import math
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..alignment import AlignedSentences, Alignment
from ..errors import ConfigurationError, InputTypeError, counted
from ..nlp import TextOrTokens, annotate_many
from ..sentence import Sentence
from .grid import alignment_grid
from .html import isolated, signed
from .lattice import lattice_drawing, lattice_key
from .lines import alignment_lines
from .marks import AlignmentView, Confidences
from .svg import Element, el

if TYPE_CHECKING:  # pragma: no cover - the types are only read: a display imports nothing it shows
    from ..lattice.word_lattice import Lattice
    from ..metrics.correlation import MetaEvaluation

SVG, HTML = "image/svg+xml", "text/html"
#: The alignment pictures :func:`register` can show an alignment as.
VIEWS = ("grid", "lines")
#: The tallest a picture's box is in a notebook's output (a grid of a 60-word sentence is 1,700 px
#: tall); a taller or wider picture scrolls inside it.
BOX_HEIGHT = "36em"
#: How the HTML around a picture is laid out: inline styles, as a notebook's output carries no stylesheet.
BOX_STYLE = f"overflow: auto; max-width: 100%; max-height: {BOX_HEIGHT}"
NOTE_STYLE = "color: #5f6670; margin: 0.3em 0"

#: How many hex digits of a picture's hash its ids carry (48 bits: two different pictures of one
#: notebook share ids about once in 10^14 pairs).
HASH_DIGITS = 12


def _identified(draw: Callable[[str], Element], kind: str) -> Element:
    """What `draw` makes of an id prefix, with the prefix ``paralign-<hash>-<kind>``: the hash of
    what it makes of the placeholder ``paralign-<kind>``. So the ids are the same on every run
    (a saved notebook does not change when its cells run again) and differ between two
    different pictures (a different word, link, gold or view changes the hash)."""
    drawn = draw(f"paralign-{kind}").to_xml().encode("utf-8", "surrogatepass")
    return draw(f"paralign-{hashlib.sha256(drawn).hexdigest()[:HASH_DIGITS]}-{kind}")


def _note(*children: Element | str) -> Element:
    return el("p", *children, style=NOTE_STYLE)


def _html(*children: Element | None) -> str:
    """A notebook output's HTML: `children` in one ``<div class="paralign">``."""
    return el("div", *children, class_="paralign").to_xml()


@dataclass(frozen=True, slots=True)
class Picture:
    """An SVG picture that shows itself in a notebook (``_repr_svg_``: the picture as the viz
    functions write it; ``_repr_html_``: the same in a scrolling box, with `notes` under it)."""

    svg: Element
    notes: tuple[Element, ...] = ()

    def _repr_svg_(self) -> str:
        return self.svg.to_xml()

    def _repr_html_(self) -> str:
        return _html(el("div", self.svg, style=BOX_STYLE), *self.notes)


# -- alignments ------------------------------------------------------------------------------------
def alignment_view(item: AlignedSentences | Alignment | AlignmentView, gold: Alignment | None = None, *,
                   links: str = "sure", confidence: Confidences | None = None) -> AlignmentView:
    """What a picture of `item` shows: an ``AlignedSentences``' tokens, or for a bare ``Alignment``
    the token positions (0, 1, ...) up to its last link; with `gold`, its links coloured against
    it (`links`: which gold links count, as for the scores)."""
    if isinstance(item, AlignmentView):
        if gold is None and confidence is None:
            return item
        return AlignmentView(item.source, item.target, item.alignment, gold, links, confidence)
    if isinstance(item, AlignedSentences):
        source, target, alignment = item.source.tokens, item.target.tokens, item.alignment
    elif isinstance(item, Alignment):
        every = item.possible | (gold.possible if gold is not None else frozenset())
        source = tuple(str(i) for i in range(max((i + 1 for i, _ in every), default=0)))
        target = tuple(str(j) for j in range(max((j + 1 for _, j in every), default=0)))
        alignment = item
    else:
        raise InputTypeError(f"a picture of an alignment takes an AlignedSentences, an Alignment or an "
                             f"AlignmentView, not {type(item).__name__}")
    return AlignmentView(tuple(source), tuple(target), alignment, gold, links, confidence)


def _alignment_picture(view: AlignmentView, kind: str, signature: str | None, positions: bool) -> Picture:
    draw = alignment_lines if kind == "lines" else alignment_grid
    title = f"alignment {view.alignment.to_pharaoh()} (token positions)" if positions else None
    notes = tuple(signed(signature))
    return Picture(_identified(lambda ident: draw(view, title=title, ident=ident), kind), notes)


def grid(item: AlignedSentences | Alignment | AlignmentView, gold: Alignment | None = None, *,
         links: str = "sure", confidence: Confidences | None = None) -> Picture:
    """The grid of `item` (:func:`alignment_view` says what it shows), as a picture that shows
    itself in a notebook."""
    view = alignment_view(item, gold, links=links, confidence=confidence)
    return _alignment_picture(view, "grid", getattr(item, "signature", None), isinstance(item, Alignment))


def lines(item: AlignedSentences | Alignment | AlignmentView, gold: Alignment | None = None, *,
          links: str = "sure", confidence: Confidences | None = None) -> Picture:
    """The lines view of `item` (the source words above the target words, a line a link), as a
    picture that shows itself in a notebook."""
    view = alignment_view(item, gold, links=links, confidence=confidence)
    return _alignment_picture(view, "lines", getattr(item, "signature", None), isinstance(item, Alignment))


def aligned(aligner: Any, source: TextOrTokens | Sentence, target: TextOrTokens | Sentence) -> AlignedSentences:
    """`source` and `target` aligned by `aligner`, with their words and the aligner's signature
    (:func:`~paralign.aligners.signature.alignment_signature`): what a notebook shows as a grid of
    words. ``aligner.align(source, target)`` gives the links alone, an ``Alignment``, which a
    notebook can only show over token positions; the links here are the same (each text
    annotated as ``align`` annotates it, a Sentence used as it is). `aligner`: an ``Aligner``
    (a ``ContextualAligner``, an ``ExactAligner``), or an alignment function
    (:func:`~paralign.aligners.get_aligner`'s), given texts annotated as the batches annotate them
    (:func:`paralign.nlp.default_annotator`)."""
    from ..aligners.signature import alignment_signature

    annotate = getattr(aligner, "annotate", None)
    align = getattr(aligner, "align_sentences", aligner)
    if not callable(align):
        raise InputTypeError(f"aligned takes an aligner (paralign.Aligner(), get_aligner('exact')), not "
                             f"{type(aligner).__name__}")
    texts = [x for x in (source, target) if not isinstance(x, Sentence)]
    made = iter((annotate if callable(annotate) else annotate_many)(texts) if texts else ())
    s, t = (x if isinstance(x, Sentence) else next(made) for x in (source, target))
    return AlignedSentences(s, t, align(s, t), alignment_signature(aligner))


def _shown_alignment(item: AlignedSentences | Alignment, kind: str) -> Picture | None:
    """`item` as the display shows it; None for an Alignment without links (nothing to draw:
    its repr says ``Alignment.from_pharaoh('')``)."""
    if isinstance(item, Alignment) and not item.possible:
        return None
    return (lines if kind == "lines" else grid)(item)


# -- lattices --------------------------------------------------------------------------------------
def drawing(lattice: Lattice) -> Picture:
    """The drawing of `lattice`, as a picture that shows itself in a notebook, with how to read
    it and its size under it. ConfigurationError when it is too large to draw
    (:data:`.svg.MAX_SIDE`), naming what to write instead."""
    notes = (_note(lattice_key(lattice)),
             _note(f"{counted(lattice.n_states, 'state')}, {counted(lattice.n_edges, 'edge')}"))
    return Picture(_identified(lambda ident: lattice_drawing(lattice, ident=ident), "lattice"), notes)


def _drawn_svg(make: Callable[[], Picture | None]) -> str | None:
    """The SVG of the picture `make` gives (None: no picture); None too when it is too large to
    draw (:func:`.svg.check_side`): the HTML says why."""
    try:
        return _svg_of(make())
    except ConfigurationError:
        return None


def _drawn_html(make: Callable[[], Picture | None]) -> str | None:
    """The HTML of the picture `make` gives (None: no picture), or why it is too large to draw
    (:func:`.svg.check_side`): a lattice's and a long pair's alike. Before, a pair of 3,000
    words a side was drawn 72,084 px wide in the cell."""
    try:
        return _html_of(make())
    except ConfigurationError as error:
        return _html(_note(str(error)))


def _lattice_svg(lattice: Lattice) -> str | None:
    return _drawn_svg(lambda: drawing(lattice))


def _lattice_html(lattice: Lattice) -> str | None:
    return _drawn_html(lambda: drawing(lattice))


# -- scores ----------------------------------------------------------------------------------------
def score_card(title: str, figures: Mapping, rows: Sequence[tuple], signature: str | None = None, *,
               about: Sequence[Element | str] = (), notes: Sequence[str] = (), more: Sequence[Element] = ()) -> str:
    """A score's HTML: `title`, `about` (a line of what made it), the table of `rows` read from
    `figures` (:func:`.reports.parts.score_table`: the result's ``to_dict()``, so the cells hold the
    JSON output's values), `more` (pictures), `notes` and the `signature`."""
    from .reports.parts import score_table

    return _html(el("p", el("strong", title), *((" · ", *about) if about else ())),
                 score_table(figures, rows), *more, *(_note(n) for n in notes),
                 *signed(signature))


def _made_by(signal: str | None, aligner: str | None) -> list[Element | str]:
    """`signal` and `aligner`, each isolated (a name is the user's: it may hold a bidi control)."""
    parts: list[Element | str] = []
    for label, value in (("signal", signal), ("aligner", aligner)):
        if value:
            parts += [*([" · "] if parts else []), f"{label} ", isolated(value)]
    return parts


def _paraeval_html(score: Any) -> str:
    rows = [("precision", "precision", False, 4), ("recall", "recall", False, 4), ("F", "f", False, 4),
            ("segments", "counts.segments", False), ("hypothesis words", "counts.hyp_words", False),
            ("hypothesis words matched", "counts.hyp_matched", False),
            ("matched in the paraphrase tier", "counts.hyp_paraphrase", False),
            ("reference words", "counts.ref_words", False), ("reference words matched", "counts.ref_matched", False)]
    return score_card("ParaEval", score.to_dict(), rows, score.signature)


def _alignment_scores_html(scores: Any) -> str:
    from .reports.alignment import SCORE_ROWS

    figures = scores.to_dict()
    return score_card("Alignment scores", figures, SCORE_ROWS, figures["signature"],
                      about=[f"gold links: {scores.links}"], notes=figures["warnings"])


def _align_scores_html(scores: Any) -> str:
    rows = [("precision (AlignPrec)", "precision", True), ("recall (AlignRecall)", "recall", True),
            ("F1", "f1", True), ("phrase pairs matched", "matched", False), ("system phrase pairs", "system", False),
            ("gold phrase pairs", "gold", False), ("pairs scored", "pairs", False), ("pairs skipped", "skipped", False)]
    return score_card("ParaMetric", scores.to_dict(), rows, scores.signature,
                      about=[f"phrases of up to {counted(scores.max_length, 'word')}"], notes=scores.warnings)


def _table_scores_html(scores: Any) -> str:
    """ParaMetric's scores of a paraphrase table: LB-Precision and Rel-Recall with their counts,
    then by length bound, as ``parametric table`` gives them."""
    rows = [("LB-Precision", "lb_precision", True), ("Rel-Recall", "rel_recall", True),
            ("paraphrases posited", "posited", False), ("posited and in the reference", "correct", False),
            ("reference paraphrases", "reference", False), ("groups", "groups", False),
            ("sentences", "sentences", False), ("groups skipped", "skipped_groups", False),
            ("posited paraphrases too long to score", "beyond_max_length", False)]
    for n in sorted(scores.by_length)[:-1] if len(scores.by_length) > 1 else ():
        rows += [(f"up to {counted(n, 'word')}: LB-Precision", f"by_length.{n}.lb_precision", True),
                 (f"up to {counted(n, 'word')}: Rel-Recall", f"by_length.{n}.rel_recall", True)]
    about = ["source ", isolated(scores.source), f" · phrases of up to {counted(scores.max_length, 'word')}"]
    return score_card("ParaMetric (paraphrase table)", scores.to_dict(), rows, scores.signature,
                      about=about, notes=scores.warnings)


def _tiered(*parts: Element | None) -> Element:
    """Words highlighted by tier, with room for their boxes (the report's ``.hypothesis``)."""
    return el("div", *parts, style="line-height: 2")


def _segment_match_html(match: Any) -> str:
    """A segment as ParaEval's paper config matched it: its figures, the hypothesis words
    highlighted by tier as the report highlights them (:mod:`.reports.paraeval`; the tiers' look
    inline, as an output has no stylesheet), what each phrase matched, and a legend."""
    from .reports.paraeval import LABELS, highlighted, legend, match_list
    from .reports.parts import number

    s = match.stats
    figures = f"P {number(s.precision, True)} · R {number(s.recall, True)} · F {number(s.f, True)}"
    return _html(el("p", el("strong", "ParaEval segment"), " · ", figures),
                 _tiered(highlighted(match.tokens, match.spans, inline=True)),
                 match_list(match.tokens, match.spans), legend([match.spans], LABELS, inline=True))


def _graded_html(explained: Any) -> str:
    """A segment as a graded config scored it: its figures, the hypothesis and the reference it
    was scored against highlighted by tier (as :func:`_segment_match_html`), what matched, a legend."""
    from .reports.paraeval import GRADED_LABELS, highlighted, legend, match_list
    from .reports.parts import number

    e = explained
    figures = (f"score {number(e.score)} · P {number(e.precision, True)} · R {number(e.recall, True)} · "
               f"F {number(e.f, True)}")
    against = (f"scored against reference {e.reference + 1} of {len(e.reference_scores)}, the best "
               f"({', '.join(number(v) for v in e.reference_scores)}):" if len(e.reference_scores) > 1
               else "the reference, as matched:")
    return _html(el("p", el("strong", f"ParaEval segment ({e.config})"), " · ", figures),
                 _tiered(highlighted(e.tokens, e.spans, inline=True), _note(against),
                         highlighted(e.reference_tokens, e.reference_spans, "references", inline=True)),
                 match_list(e.tokens, e.spans), legend([e.spans], GRADED_LABELS, inline=True))


def _similarity_html(batch: Any) -> str:
    scored = [s for s in batch.scores if s is not None]
    figures = {"pairs": len(batch.scores), "scored": len(scored), "failed": len(batch.failures),
               "mean": sum(scored) / len(scored) if scored else None}
    rows = [("pairs", "pairs", False), ("pairs scored", "scored", False), ("pairs failed", "failed", False),
            ("mean score", "mean", False, 4)]
    return score_card("Similarity", figures, rows, batch.signature, about=_made_by(batch.signal, batch.aligner))


def _sts_html(evaluation: Any) -> str:
    from .reports.sts import correlation_rows

    return score_card("STS evaluation", evaluation.to_dict(), correlation_rows(""), evaluation.signature,
                      about=_made_by(evaluation.signal, evaluation.aligner))


def _sts_scatter(result: Any, name: str) -> Element | None:
    """A file's scatter of system score against gold, as the report draws it, in its box: with
    pairs none of which was scored, its note saying so (:func:`.scatter.empty_plot`; it showed
    nothing, where the report says no pair was scored); None for a result made without its
    pairs (``sts_from_scores``), which has none to plot and scored some."""
    from .reports.sts import file_scatter

    if not result.pairs:
        return None
    return el("div", _identified(lambda ident: file_scatter(result, name, ident)[0], "scatter"), style=BOX_STYLE)


def _sts_file_html(result: Any) -> str:
    """One STS file: its correlations and its scatter (its report carries the signature)."""
    from .reports.sts import correlation_rows

    plot = _sts_scatter(result, result.name)
    return score_card("STS file", result.to_dict(), correlation_rows(""), about=[isolated(result.name)],
                      more=[plot] if plot else [])


def _sts_report_html(report: Any) -> str:
    from .reports.sts import correlation_rows

    figures = report.to_dict()
    names = [shown["name"] for shown in figures["sets"]]  # as the command and the report show them
    plots = [el("div", _note(el("strong", isolated(name))), plot) for name, result in zip(names, report.sets, strict=True)
             if (plot := _sts_scatter(result, name)) is not None]
    rows = correlation_rows("", " (size-weighted mean)")
    for k, result in enumerate(report.sets):  # each file's pairs and correlations (its section of the report)
        rows += [(f"{result.name}: pairs scored", f"sets.{k}.pairs", False),
                 (f"{result.name}: Pearson", f"sets.{k}.pearson", False, 4),
                 (f"{result.name}: Spearman", f"sets.{k}.spearman", False, 4)]
    return score_card("STS evaluation", figures, rows, report.signature,
                      about=_made_by(report.signal, report.aligner), notes=report.notes, more=plots)


def _paraphrase_html(evaluation: Any) -> str:
    rows = [("accuracy", "accuracy", True), ("precision", "precision", True), ("recall", "recall", True),
            ("F1", "f1", True), ("threshold", "threshold", False, 4), ("training pairs", "train_pairs", False),
            ("test pairs", "test_pairs", False), ("pairs failed", "failed", False)]
    about = [*_made_by(evaluation.signal, evaluation.aligner), f" · classifier {evaluation.classifier}"]
    return score_card("Paraphrase identification", evaluation.to_dict(), rows, evaluation.signature,
                      about=about, notes=evaluation.notes)


def _meta_eval_html(result: MetaEvaluation) -> str:
    """The meta-evaluation: its setting, every metric's system-level correlations as an interval
    plot (Pearson) and a table (each correlation with its interval), the segment level's plots
    as the report draws them, each metric's signature and the meta-evaluation's own."""
    from ..metrics.correlation import CORRELATIONS
    from .intervals import Interval, interval_plot
    from .reports.meta_eval import segment_overview

    def shown(value: float, low: float, high: float) -> str:
        return "n/a" if math.isnan(value) else f"{value:.3f} [{low:.3f}, {high:.3f}]"  # NaN: undefined

    setting = (f"{result.pair}, references {'+'.join(result.refs)}: {counted(len(result.systems), 'system')}, "
               f"{counted(result.n_resamples, 'bootstrap resample')} (seed {result.seed}); 95% intervals")
    body: list[Element | None] = [el("p", el("strong", "Meta-evaluation"), " · ", setting)]
    body += [_note(f"{label}: {', '.join(names)}") for label, names in result.left_out]
    body += [_note(f"system level n/a: {reason}") for reason in result.undefined]
    if result.metrics and result.level != "segment":
        rows = [Interval(name, m.correlations["pearson"].value, m.correlations["pearson"].low,
                         m.correlations["pearson"].high) for name, m in result.metrics.items()]
        plot = _identified(lambda ident: interval_plot(
            rows, x_label="Pearson with human scores (system level)", span=(-1.0, 1.0),
            title=f"system-level Pearson, 95% intervals ({result.pair})", ident=ident), "intervals")
        head = el("tr", el("th", "metric"), *(el("th", kind) for kind in CORRELATIONS))
        table = el("table", head, *(el("tr", el("th", isolated(name)), *(
            el("td", shown(c.value, c.low, c.high)) for c in (m.correlations[k] for k in CORRELATIONS)))
            for name, m in result.metrics.items()), class_="scores")
        body += [el("div", plot, style=BOX_STYLE), table]
    if result.segment:
        data = result.to_dict()
        overview = _identified(lambda ident: el("div", *segment_overview(result, data, ident=ident).body), "segment")
        body += [el("p", el("strong", "segment level")), *(c for c in overview.children if isinstance(c, Element))]
    body += [_note(isolated(name), ": ", el("code", signature)) for name, signature in result.signatures.items()]
    body += signed(result.signature)  # the meta-evaluation's own, last as in the text output
    return _html(*body)


# -- registering with IPython ------------------------------------------------------------------------
#: (module, class, mimetype, display function): what :func:`register` registers. A display function
#: of an alignment takes the view too (one of :data:`VIEWS`).
DISPLAYS: tuple[tuple[str, str, str, Callable[..., str | None]], ...] = (
    ("paralign.alignment", "Alignment", SVG, lambda a, kind: _drawn_svg(lambda: _shown_alignment(a, kind))),
    ("paralign.alignment", "Alignment", HTML, lambda a, kind: _drawn_html(lambda: _shown_alignment(a, kind))),
    ("paralign.alignment", "AlignedSentences", SVG, lambda a, kind: _drawn_svg(lambda: _shown_alignment(a, kind))),
    ("paralign.alignment", "AlignedSentences", HTML, lambda a, kind: _drawn_html(lambda: _shown_alignment(a, kind))),
    ("paralign.lattice.word_lattice", "Lattice", SVG, _lattice_svg),
    ("paralign.lattice.word_lattice", "Lattice", HTML, _lattice_html),
    ("paralign.metrics.paraeval.paper_values", "ParaEvalScore", HTML, _paraeval_html),
    ("paralign.metrics.alignment_scores", "AlignmentScores", HTML, _alignment_scores_html),
    ("paralign.metrics.parametric_align", "AlignScores", HTML, _align_scores_html),
    ("paralign.similarity.scores", "SimilarityBatch", HTML, _similarity_html),
    ("paralign.similarity.sts", "StsEvaluation", HTML, _sts_html),
    ("paralign.similarity.sts", "StsReport", HTML, _sts_report_html),
    ("paralign.similarity.sts", "StsFileResult", HTML, _sts_file_html),
    ("paralign.metrics.parametric", "TableScores", HTML, _table_scores_html),
    ("paralign.metrics.paraeval.paper_values", "SegmentMatch", HTML, _segment_match_html),
    ("paralign.metrics.paraeval.explained", "GradedExplanation", HTML, _graded_html),
    ("paralign.similarity.paraphrase_evaluation", "ParaphraseEvaluation", HTML, _paraphrase_html),
    ("paralign.metrics.correlation", "MetaEvaluation", HTML, _meta_eval_html),
)


def _view_of(module: str, alignment: str) -> str | None:
    """The view a display function of `module`'s type takes: the alignment's, else none."""
    return alignment if module == "paralign.alignment" else None


def _check_view(alignment: str) -> None:
    if alignment not in VIEWS:
        raise ConfigurationError(f"unknown alignment view {alignment!r}: use one of {', '.join(map(repr, VIEWS))}")


def mimebundle(item: object, *, alignment: str = "grid") -> dict[str, str]:
    """What a notebook is given for `item` once paralign's displays are registered (IPython adds
    ``text/plain``, its repr): mimetype -> text, as :data:`DISPLAYS` makes it; empty for a value
    paralign shows as text only. No IPython needed (an HTML page of one's own can hold it)."""
    _check_view(alignment)
    names = {(cls.__module__, cls.__name__) for cls in type(item).__mro__}
    shown = ((mimetype, _Printer(show, _view_of(module, alignment))(item))
             for module, name, mimetype, show in DISPLAYS if (module, name) in names)
    return {mimetype: text for mimetype, text in shown if text is not None}


def _svg_of(picture: Picture | None) -> str | None:
    return None if picture is None else picture._repr_svg_()


def _html_of(picture: Picture | None) -> str | None:
    return None if picture is None else picture._repr_html_()


@dataclass(frozen=True, slots=True)
class _Printer:
    """A display function as registered (with the alignment view, for those that take it): a
    value of its own type, so :func:`unregister` removes paralign's and never a user's own."""

    show: Callable[..., str | None]
    view: str | None = None

    def __call__(self, item: object) -> str | None:
        return self.show(item) if self.view is None else self.show(item, self.view)


def _running_shell() -> Any:
    """The running IPython shell; ConfigurationError without one (or without IPython)."""
    try:
        from IPython import get_ipython
    except ImportError as error:
        raise ConfigurationError("showing paralign's results in a notebook needs IPython, which is not "
                                 "installed: pip install ipython") from error
    shell = get_ipython()
    if shell is None:
        raise ConfigurationError("no IPython shell is running: register(ipython) takes one (in a notebook, "
                                 "`%load_ext paralign` registers paralign's displays)")
    return shell


def _formatters(ipython: Any) -> Mapping[str, Any]:
    formatter = getattr(ipython, "display_formatter", None)
    if formatter is None:
        raise InputTypeError(f"register and unregister take an IPython shell (get_ipython()), not "
                             f"{type(ipython).__name__}")
    return formatter.formatters


def register(ipython: Any = None, *, alignment: str = "grid") -> None:
    """Show paralign's results as pictures and tables in `ipython` (default: the running shell),
    an alignment as its `alignment` view (``grid`` or ``lines``), as :data:`DISPLAYS` lists them.
    Registered by name, so nothing shown is imported now; again, it replaces paralign's own."""
    _check_view(alignment)
    shell = _running_shell() if ipython is None else ipython
    unregister(shell)  # a type already shown keeps its printer in a table for_type_by_name never reads
    formatters = _formatters(shell)
    for module, name, mimetype, show in DISPLAYS:
        formatters[mimetype].for_type_by_name(module, name, _Printer(show, _view_of(module, alignment)))


def unregister(ipython: Any = None) -> None:
    """Take paralign's displays out of `ipython` (default: the running shell): its results show as
    their repr again. A display function a user registered for one of the types stays."""
    formatters = _formatters(_running_shell() if ipython is None else ipython)
    for module, name, mimetype, _show in DISPLAYS:
        formatter = formatters[mimetype]
        try:
            current = formatter.lookup_by_type(f"{module}.{name}")
        except KeyError:
            continue
        if isinstance(current, _Printer):
            formatter.pop(f"{module}.{name}", None)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext paralign`` (IPython's extension hook): :func:`register` in `ipython`."""
    register(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext paralign``: :func:`unregister` from `ipython`."""
    unregister(ipython)


def load_in_running_shell() -> None:
    """Load the extension ``paralign`` in the running IPython shell, if one runs (what ``import
    paralign`` does inside one; through the shell's extension manager, so that ``%unload_ext
    paralign`` works); else nothing, and IPython is not imported. A failure is a warning: it
    never stops paralign from importing."""
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if get_ipython is not None else None
    manager = getattr(shell, "extension_manager", None)
    if manager is None:
        return
    try:
        manager.load_extension("paralign")
    except Exception as error:  # noqa: BLE001 - a display is never worth a failed import
        warnings.warn(f"paralign's results will show as text in this notebook: its displays could not be "
                      f"registered ({type(error).__name__}: {error})", RuntimeWarning, stacklevel=2)
