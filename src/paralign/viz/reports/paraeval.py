"""`paraeval --report`: the corpus scores, then each hypothesis with its words highlighted by
how ParaEval matched them (paraphrase, exact, synonym, unmatched) and its references. The paper
config's page is :func:`paraeval_report`; the graded configs' (``default``, ``contextual``) is
:func:`graded_report`, which adds the stem and contextual tiers, each segment's score and the
reference it was scored against, highlighted the same way.

Every hypothesis word is a ``<span class="tier tier-<tier>">`` (a paraphrase-tier span's
tooltip names the reference phrases it matched); the tiers differ in shape as well as colour
(paraphrase: boxed, synonym: dotted box, exact: plain background, unmatched: struck through;
the graded configs' stem tier: a dashed box, contextual: a double one), and a word's tooltip
names its tier; what a span matched is also written out under the words (:func:`match_list`),
as a tooltip is for a mouse only. :func:`highlighted` draws the words of either scorer's spans (the paper's
``SegmentMatch``, the graded ``GradedExplanation``).

Not for: matching or scoring (:mod:`paralign.metrics.paraeval`) or writing the file (the CLI).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ...errors import counted
from ...metrics import SIGNIFICANT
from ...metrics.paraeval import TIERS, UNMATCHED, GradedExplanation, MatchedSpan, SegmentMatch
from ..html import Section, isolated, merged, page, signed, words
from ..svg import Element, el, json_text
from .parts import CSS, lookup, number, score_table, value_cell

#: How every tier's word is drawn, and each tier's own look (its class's rules in
#: :data:`TIER_CSS`; inline, where a page has no stylesheet: a notebook's output, :func:`highlighted`'s `inline`).
TIER_STYLE = "padding: 0.1em 0.2em; border-radius: 3px"
TIER_STYLES = {"paraphrase": "background: #cfe3f3; border: 1.5px solid #0072B2",
               "synonym": "background: #dcefe4; border: 1.5px dotted #00845F",
               "exact": "background: #eceff2",
               "stem": "background: #fbeedd; border: 1.5px dashed #D55E00",
               "contextual": "background: #f6e6f0; border: 3px double #B8588E",
               "unmatched": "color: #a4332b; text-decoration: line-through"}
TIER_CSS = """
.hypothesis { font-size: 1.05em; line-height: 2; }
.tier { """ + TIER_STYLE + """; }
""" + "".join(f".tier-{tier} {{ {style}; }}\n" for tier, style in TIER_STYLES.items()) + """.references { margin: 0.2em 0 0 1em; color: #3b424b; }
ul.matched { margin: 0.2em 0 0.4em 1em; padding-left: 1em; }
.legend .tier { white-space: nowrap; display: inline-block; margin-bottom: 0.3em; }
@media (max-width: 40em) { .legend .tier { white-space: normal; } }  /* a phone: an entry wider than the line wraps */
"""
LABELS = {"paraphrase": "paraphrase (a phrase matched a reference phrase)",
          "exact": "exact (the same word in a reference)",
          "synonym": "synonym (one word matched one reference word)",
          "unmatched": "unmatched"}
#: The graded configs' tiers (``default``, ``contextual``), in the order they match.
GRADED_LABELS = {"exact": "exact (the same word)", "stem": "stem (the same Snowball stem)",
                 "synonym": "synonym (WordNet)", "paraphrase": "paraphrase (PPDB or a table)",
                 "contextual": "contextual (word vectors)", "unmatched": "unmatched"}


def tier_style(tier: str) -> str:
    """A tier's look as an inline style (:data:`TIER_STYLES`), for a page without the stylesheet."""
    return f"{TIER_STYLE}; {TIER_STYLES[tier]}"


def _span(tokens: Sequence[str], span: MatchedSpan, inline: bool = False) -> Element:
    title = f"{span.tier}: matched " + " / ".join(f"“{m}”" for m in span.matched) if span.matched else span.tier
    return el("span", *words(tokens[span.start:span.end]), class_=f"tier tier-{span.tier}", title=title,
              data_tier=span.tier, style=tier_style(span.tier) if inline else None)


def highlighted(tokens: Sequence[str], spans: Sequence[MatchedSpan], class_: str = "hypothesis", *,
                inline: bool = False) -> Element:
    """Words as matched: a span per matched phrase or word (its tier's class; with `inline`, its
    look as a style too: a notebook's output has no stylesheet), spaces between."""
    parts: list[Element | str | None] = []
    for k, span in enumerate(spans):
        parts += [" " if k else None, _span(tokens, span, inline)]
    return el("p", *[p for p in parts if p is not None], class_=class_)


def match_list(tokens: Sequence[str], spans: Sequence[MatchedSpan]) -> Element | None:
    """What each matched phrase matched, written out: one item per span that names the phrases
    it matched, exact matches left out (the same words); None when there is none. A span's
    tooltip says it too, but only to a mouse: the keyboard, a phone and many screen readers
    never show a tooltip, and the paper config's page showed it nowhere else."""
    items = [el("li", *merged(["“", *words(tokens[sp.start:sp.end]), f"” ({sp.tier}) matched ",
                               *[part for k, m in enumerate(sp.matched) for part in (" / “" if k else "“", isolated(m), "”")]]),
                data_tier=sp.tier)
             for sp in spans if sp.matched and sp.tier != "exact"]
    return el("ul", *items, class_="matched") if items else None


def legend(segments: Sequence[Sequence[MatchedSpan]], labels: Mapping[str, str], *, inline: bool = False) -> Element:
    """A legend counting the hypothesis words of each tier of `labels` (in its order); with
    `inline`, each tier's look as a style (:func:`highlighted`)."""
    counts = {tier: sum(sp.end - sp.start for spans in segments for sp in spans if sp.tier == tier)
              for tier in labels}
    return el("p", *[el("span", f"{label}: {counts[tier]}", class_=f"tier tier-{tier}", data_tier=tier,
                        style=f"{tier_style(tier)}; margin-right: 1em" if inline else "margin-right: 1em")
                     for tier, label in labels.items()], class_="legend")


def _segment_attrs(number_: int, spans: Sequence[MatchedSpan], order: Sequence[str],
                   *extra: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    """A segment section's attributes: its number, `extra` (a figure as JSON: n/a is ``null``,
    :func:`..svg.json_text`), its unmatched words and its tiers (in `order`), which the report's
    tests and filters read."""
    tiers = {span.tier for span in spans}
    return (("class", "segment"), ("data-segment", str(number_)), *extra,
            ("data-unmatched", str(sum(sp.end - sp.start for sp in spans if sp.tier == UNMATCHED))),
            ("data-tiers", " ".join(t for t in order if t in tiers)))


def hypothesis(match: SegmentMatch) -> Element:
    """The hypothesis as matched: a span per matched phrase or word, spaces between."""
    return highlighted(match.tokens, match.spans)


def segment_section(number_: int, match: SegmentMatch, references: Sequence[str]) -> Section:
    s = match.stats
    heading = (f"segment {number_}: P {number(s.precision, True)} · R {number(s.recall, True)} · "
               f"F {number(s.f, True)}")
    refs = [el("li", text) for text in references]
    matched = match_list(match.tokens, match.spans)
    body = (hypothesis(match), *([matched] if matched else []), el("ul", *refs, class_="references"))
    return Section(heading, body, f"segment-{number_}", _segment_attrs(number_, match.spans, TIERS))


def confidence_intro(corpus: Mapping, headline: str, percent: bool) -> list[Element]:
    """The bootstrap of `corpus`'s headline score (``paraeval --confidence``: its JSON's
    ``confidence``) as rows of a score table, the mean and the half-width of the 95% interval as
    the text output's ``μ = ... ± ...``, and a note with the resampling's settings; nothing
    without one; where there is none (null), why: the headline (``corpus[headline.lower()]``, the
    paper's F) is n/a, or fewer than 2 segments. So a page whose signature says ``bs:N|seed:S``
    shows the figures they are of."""
    if "confidence" not in corpus:
        return []
    found = corpus["confidence"]
    if found is None:  # the command warned why: the score is n/a, or fewer than 2 segments
        why = f"the {headline} is n/a" if corpus.get(headline.lower()) is None else "fewer than 2 segments to resample"
        return [el("p", f"bootstrap of the {headline}: n/a ({why})", class_="note")]
    digits = () if percent else (4,)
    rows = [(f"bootstrap mean (μ) of the {headline}", "confidence.mean", percent, *digits),
            ("± (half the 95% interval)", "confidence.ci", percent, *digits)]
    return [score_table(corpus, rows),
            el("p", f"bootstrap: {counted(found['resamples'], 'resample')} of the segments, seed {found['seed']}",
               class_="note")]


def paraeval_report(corpus: Mapping, matches: Sequence[SegmentMatch], references: Sequence[Sequence[str]],
                    *, title: str | None = None) -> str:
    """The page: `corpus` (paraeval's JSON) as a score table, a legend counting the words of each
    tier, then each segment (`references[i]`: segment i's reference texts)."""
    shown_legend = legend([m.spans for m in matches], {t: LABELS[t] for t in TIERS})
    intro = [
        *signed(corpus.get("signature")),
        score_table(corpus, [("precision", "precision", True), ("recall", "recall", True), ("F", "f", True),
                             ("hypothesis words", "counts.hyp_words", False),
                             ("matched", "counts.hyp_matched", False),
                             ("matched in the paraphrase tier (paraphrase + synonym)", "counts.hyp_paraphrase", False),
                             ("segments", "counts.segments", False)]),
        *confidence_intro(corpus, "F", True),
        shown_legend,
    ]
    sections = [segment_section(k, m, refs) for k, (m, refs) in enumerate(zip(matches, references, strict=True), 1)]
    return page(title or "ParaEval", sections, intro=intro, css=CSS + TIER_CSS)


def graded_segment_section(number_: int, explained: GradedExplanation, references: Sequence[str]) -> Section:
    """A segment as a graded config scored it: its figures, the hypothesis and the reference it
    was scored against (the best of several) highlighted by tier, then every reference."""
    heading = (f"segment {number_}: score {number(explained.score)} · P {number(explained.precision, True)} · "
               f"R {number(explained.recall, True)} · F {number(explained.f, True)}")
    against = (f"scored against reference {explained.reference + 1} of {len(references)}, the best "
               f"({', '.join(number(v) for v in explained.reference_scores)}):" if len(references) > 1
               else "the reference, as matched:")
    matched = match_list(explained.tokens, explained.spans)
    body: tuple[Element, ...] = (highlighted(explained.tokens, explained.spans), el("p", against, class_="note"),
                                 highlighted(explained.reference_tokens, explained.reference_spans, "references"),
                                 *([matched] if matched else []))
    if len(references) > 1:
        body += (el("ul", *[el("li", text) for text in references], class_="references"),)
    attrs = _segment_attrs(number_, explained.spans, tuple(GRADED_LABELS), ("data-score", json_text(explained.score)))
    return Section(heading, body, f"segment-{number_}", attrs)


def graded_report(corpus: Mapping, explanations: Sequence[GradedExplanation],
                  references: Sequence[Sequence[str]], *, title: str | None = None) -> str:
    """The page of a graded config: `corpus` (paraeval's JSON: score, P, R, F, signature) as a
    score table, a legend counting the hypothesis words of each tier, then each segment
    (`explanations[i]` from ``GradedParaEval.explain``, `references[i]` its reference texts)."""
    shown_legend = legend([e.spans for e in explanations], GRADED_LABELS)
    shown = {**corpus, "segments": len(explanations),
             "words": sum(len(e.tokens) for e in explanations)}
    intro = [
        *signed(corpus.get("signature")),
        score_table(shown, [("score (system level)", "score", False), ("precision", "precision", True),
                            ("recall", "recall", True), ("F", "f", True),
                            ("hypothesis words", "words", False), ("segments", "segments", False)]),
        *confidence_intro(corpus, "score", False),
        el("p", "A segment's score takes the config's segment-level parameters, the input's the "
                "system-level ones (both in the signature).", class_="note"),
        shown_legend,
    ]
    sections = [graded_segment_section(k, e, refs)
                for k, (e, refs) in enumerate(zip(explanations, references, strict=True), 1)]
    return page(title or "ParaEval", sections, intro=intro, css=CSS + TIER_CSS)


#: The columns of :func:`systems_report` (JSON key, heading), those the systems have shown.
SYSTEM_COLUMNS = (("score", "score"), ("confidence.mean", "bootstrap mean (μ)"), ("confidence.ci", "± (95%)"),
                  ("paired_bootstrap.p_value", "p (vs the baseline)"), ("precision", "precision"),
                  ("recall", "recall"), ("f", "F"))


def _system_row(k: int, system: Mapping, baseline: int | None, keys: Sequence[str]) -> Element:
    """One system's row of :func:`systems_report`: its figures of `keys` as cells keyed into the
    JSON (``systems.<k>.score``), its p-value starred below 0.05 as the text output stars it."""
    def cells(key: str) -> list[Element]:
        try:
            value = lookup(system, key)
        except (KeyError, IndexError, TypeError):
            value = None
        found = [value_cell(f"systems.{k}.{key}", value, False, 4)]
        if key == "paired_bootstrap.p_value":
            significant = isinstance(value, float) and value < SIGNIFICANT
            found.append(el("td", "*" if significant else "", title="p < 0.05"))
        return found

    mark = " (baseline)" if k == baseline else ""
    return el("tr", el("th", isolated(str(system["input"])), mark, class_="name"),
              *[c for key in keys for c in cells(key)],
              class_="system", data_input=str(system["input"]))


def _has(system: Mapping, key: str) -> bool:
    try:
        lookup(system, key)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def systems_report(systems: Sequence[Mapping], *, title: str | None = None) -> str:
    """The page of many systems (``paraeval`` with several ``-i``: its JSON's ``systems``): one
    table, the highest score first, each system's score, bootstrap (``--confidence``), p-value
    against the baseline (``--paired-bs``: the first input) and P/R/F, the columns that any system
    has; above it which system scores highest and which differ significantly from the baseline;
    systems that could not be scored (``{"input", "error"}``) named below it."""
    scored = [(k, s) for k, s in enumerate(systems) if "error" not in s]
    headline = "score" if any("score" in s for _, s in scored) else "f"  # the paper config's is F
    baseline = next((k for k, s in scored if (s.get("paired_bootstrap") or {}).get("is_baseline")), None)
    ranked = sorted(scored, key=lambda item: math.inf if item[1].get(headline) is None else -item[1][headline])
    shown = [(key, label) for key, label in SYSTEM_COLUMNS
             if any(_has(s, key) or (key.startswith("confidence.") and "confidence" in s) for _, s in scored)]
    head = [el("th", "system"), *[th for key, label in shown
                                  for th in (el("th", label), *([el("th", "")] if key.startswith("paired") else []))]]
    table = el("table", el("tr", *head), *[_system_row(k, s, baseline, [key for key, _ in shown]) for k, s in ranked],
               class_="scores")
    best = ranked[0][1] if ranked else None
    intro: list[Element] = [
        *signed(best.get("signature") if best else None),
        el("p", f"highest {'score' if headline == 'score' else 'F'}: {best['input']} "
                f"({number(best.get(headline), digits=4)})" if best else "no system scored"),
    ]
    if baseline is not None:
        differ = [s["input"] for _, s in scored
                  if (p := s["paired_bootstrap"].get("p_value")) is not None and p < SIGNIFICANT]
        intro += [el("p", f"baseline: {systems[baseline]['input']}; significantly different from it (p < 0.05, *): "
                          f"{counted(len(differ), 'system')} of {len(scored) - 1}"),
                  el("p", "The paired bootstrap's p-value (Koehn 2004, as sacrebleu's --paired-bs) is roughly the "
                          "chance of a difference from the baseline at least as large as the one seen if the two "
                          "systems were alike; it says that they differ, not which is better: the scores say that.", class_="note")]
    if ranked:  # none scored: no table of a heading alone
        intro.append(table)
    failed = [f"{s['input']}: {s['error']}" for s in systems if "error" in s]
    if failed:
        intro += [el("p", "not scored:", class_="note warning"), el("ul", *[el("li", f) for f in failed])]
    return page(title or f"ParaEval: {counted(len(scored), 'system')}", [], intro=intro, css=CSS)
