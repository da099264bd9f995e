"""`paraeval --report`: the corpus scores, then each hypothesis with its words highlighted by
how ParaEval matched them (paraphrase, exact, synonym, unmatched) and its references.

Every hypothesis word is a ``<span class="tier tier-<tier>">`` (a paraphrase-tier span's
tooltip names the reference phrases it matched); the tiers differ in shape as well as colour
(paraphrase: boxed, synonym: dotted box, exact: plain background, unmatched: struck through;
the graded configs' stem and contextual tiers: dashed boxes). :func:`highlighted` draws the
words of either scorer's spans (the paper's ``SegmentMatch``, the graded ``GradedExplanation``).

Not for: matching or scoring (:mod:`paralign.metrics.paraeval`) or writing the file (the CLI).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...metrics.paraeval import TIERS, UNMATCHED, MatchedSpan, SegmentMatch
from ..html import Section, page
from ..svg import Element, el
from .parts import CSS, number, score_table

TIER_CSS = """
.hypothesis { font-size: 1.05em; line-height: 2; }
.tier { padding: 0.1em 0.2em; border-radius: 3px; }
.tier-paraphrase { background: #cfe3f3; border: 1.5px solid #0072B2; }
.tier-synonym { background: #dcefe4; border: 1.5px dotted #009E73; }
.tier-exact { background: #eceff2; }
.tier-stem { background: #fbeedd; border: 1.5px dashed #D55E00; }
.tier-contextual { background: #f6e6f0; border: 1.5px dashed #CC79A7; }
.tier-unmatched { color: #a4332b; text-decoration: line-through; }
.references { margin: 0.2em 0 0 1em; color: #3b424b; }
"""
LABELS = {"paraphrase": "paraphrase (a phrase matched a reference phrase)",
          "exact": "exact (the same word in a reference)",
          "synonym": "synonym (one word matched one reference word)",
          "unmatched": "unmatched"}
#: The graded configs' tiers (``default``, ``contextual``), in the order they match.
GRADED_LABELS = {"exact": "exact (the same word)", "stem": "stem (the same Snowball stem)",
                 "synonym": "synonym (WordNet)", "paraphrase": "paraphrase (PPDB or a table)",
                 "contextual": "contextual (word vectors)", "unmatched": "unmatched"}


def _span(tokens: Sequence[str], span: MatchedSpan) -> Element:
    words = " ".join(tokens[span.start:span.end])
    title = "matched " + " / ".join(f"“{m}”" for m in span.matched) if span.matched else span.tier
    return el("span", words, class_=f"tier tier-{span.tier}", title=title, data_tier=span.tier)


def highlighted(tokens: Sequence[str], spans: Sequence[MatchedSpan], class_: str = "hypothesis") -> Element:
    """Words as matched: a span per matched phrase or word (its tier's class), spaces between."""
    parts: list[Element | str] = []
    for k, span in enumerate(spans):
        parts += [" " if k else None, _span(tokens, span)]
    return el("p", *[p for p in parts if p is not None], class_=class_)


def hypothesis(match: SegmentMatch) -> Element:
    """The hypothesis as matched: a span per matched phrase or word, spaces between."""
    return highlighted(match.tokens, match.spans)


def segment_section(number_: int, match: SegmentMatch, references: Sequence[str]) -> Section:
    s = match.stats
    heading = (f"segment {number_}: P {number(s.precision, True)} · R {number(s.recall, True)} · "
               f"F {number(s.f, True)}")
    refs = [el("li", text) for text in references]
    body = (hypothesis(match), el("ul", *refs, class_="references"))
    tiers = {span.tier for span in match.spans}
    attrs = (("class", "segment"), ("data-segment", str(number_)),
             ("data-unmatched", str(sum(sp.end - sp.start for sp in match.spans if sp.tier == UNMATCHED))),
             ("data-tiers", " ".join(t for t in TIERS if t in tiers)))
    return Section(heading, body, f"segment-{number_}", attrs)


def paraeval_report(corpus: Mapping, matches: Sequence[SegmentMatch], references: Sequence[Sequence[str]],
                    *, title: str | None = None) -> str:
    """The page: `corpus` (paraeval's JSON) as a score table, a legend counting the words of each
    tier, then each segment (`references[i]`: segment i's reference texts)."""
    counts = {tier: sum(sp.end - sp.start for m in matches for sp in m.spans if sp.tier == tier) for tier in TIERS}
    legend = el("p", *[el("span", f"{LABELS[t]}: {counts[t]}", class_=f"tier tier-{t}", data_tier=t,
                          style="margin-right: 1em") for t in TIERS], class_="legend")
    intro = [
        el("p", "signature: ", el("code", str(corpus.get("signature", ""))), class_="note"),
        score_table(corpus, [("precision", "precision", True), ("recall", "recall", True), ("F", "f", True),
                             ("hypothesis words", "counts.hyp_words", False),
                             ("matched", "counts.hyp_matched", False),
                             ("matched in the paraphrase tier (paraphrase + synonym)", "counts.hyp_paraphrase", False),
                             ("segments", "counts.segments", False)]),
        legend,
    ]
    sections = [segment_section(k, m, refs) for k, (m, refs) in enumerate(zip(matches, references, strict=True), 1)]
    return page(title or "ParaEval", sections, intro=intro, css=CSS + TIER_CSS)
