"""paralign's results in a notebook: IPython's own DisplayFormatter, with paralign's displays
registered, gives each result the SVG the viz functions write (and HTML around it, or a score
table with its signature); the HTML and SVG parse (xml.etree and html.parser) and keep hostile
text as text; paralign needs no IPython, and a real shell loads the displays on import and
unloads them with ``%unload_ext paralign`` (both in a subprocess: the shell is a process-wide
singleton)."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from paralign.alignment import AlignedSentences, Alignment
from paralign.corpora.sts import StsPair
from paralign.errors import ConfigurationError, InputTypeError
from paralign.lattice import Lattice
from paralign.metrics.alignment_scores import score_alignments
from paralign.metrics.correlation import MetaEvaluation, MetricCorrelation
from paralign.metrics.paraeval import GradedExplanation, ParaEval, SegmentMatch
from paralign.metrics.paraeval.configs import Config
from paralign.metrics.paraeval.graded import GradedParaEval
from paralign.metrics.paraeval.paper_values import ParaEvalScore, SegmentStats
from paralign.metrics.parametric import TableCounts, TableScores
from paralign.metrics.parametric_align import AlignCounts, AlignScores
from paralign.metrics.segment_correlation import SEGMENT_CORRELATIONS, SegmentCorrelation
from paralign.metrics.significance import Interval
from paralign.paraphrases import ParaphraseTable
from paralign.sentence import Sentence
from paralign.similarity.paraphrase import paraphrase_from_scores
from paralign.similarity.scores import SimilarityBatch
from paralign.similarity.sts import StsFileResult, StsReport, sts_from_scores
from paralign.viz import notebook
from paralign.viz.grid import alignment_grid
from paralign.viz.lattice import lattice_drawing
from paralign.viz.lines import alignment_lines
from paralign.viz.marks import AlignmentView
from paralign.viz.svg import MAX_SIDE

display = pytest.importorskip("IPython.core.formatters", reason="IPython (the dev extra) is not installed")

SVG, HTML, TEXT = "image/svg+xml", "text/html", "text/plain"
SRC = Path(__file__).resolve().parents[2] / "src"
HOSTILE = ["<script>alert(1)</script>", "&", "&amp;", "</svg><svg onload=x>", "]]>", "a\u202eb"]
SCRIPTLIKE = {"script", "img", "iframe", "object", "embed", "foreignobject"}


def _pair(word: str = "cat", signature: str | None = "aligner:sultan:default|version:X") -> AlignedSentences:
    return AlignedSentences(Sentence.plain(["the", word, "sat"]), Sentence.plain(["a", word, "was", "sitting"]),
                            Alignment.from_pharaoh("0-0 1-1 2?3"), signature)


LATTICE = Lattice(5, ((0, "the", 1), (1, "people", 2), (1, "persons", 2), (2, "died", 4), (0, None, 3),
                      (3, "victims", 4)), (2, 1, 1, 2, 1, 1))


@pytest.fixture()
def shell() -> SimpleNamespace:
    """What register needs of a shell: IPython's own DisplayFormatter, with paralign's displays."""
    ipython = SimpleNamespace(display_formatter=display.DisplayFormatter())
    notebook.register(ipython)
    return ipython


def _format(ipython: SimpleNamespace, item: object) -> dict[str, str]:
    data, _ = ipython.display_formatter.format(item)
    return data


class _Tags(HTMLParser):
    """Start tags with their attributes, as a browser's tokenizer reads them."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _parsed(text: str) -> ET.Element:
    """`text` as XML (well formed), after checking that a browser finds no script, no event
    handler and nothing fetched in it."""
    tags = _Tags(text).tags
    assert not [t for t, _ in tags if t in SCRIPTLIKE | {"style", "link"}]
    assert not [k for _, attrs in tags for k in attrs if k.startswith("on") or k in ("src", "href")]
    root = ET.fromstring(text.encode("utf-8"))
    assert not {e.tag.rsplit("}", 1)[-1].lower() for e in root.iter()} & SCRIPTLIKE
    return root


def _ident(svg_text: str) -> str:
    """The id a picture was drawn with (of its content: a hash)."""
    return ET.fromstring(svg_text.encode("utf-8")).get("id")


def _svgs(html: str) -> list[ET.Element]:
    return [e for e in _parsed(html).iter() if e.tag.rsplit("}", 1)[-1] == "svg"]


# -- alignments ----------------------------------------------------------------------------------------
def test_a_pair_shows_as_the_grid_the_viz_draws_and_its_signature(shell) -> None:
    pair = _pair()
    data = _format(shell, pair)
    assert set(data) == {TEXT, SVG, HTML} and data[TEXT] == repr(pair)
    view = AlignmentView(pair.source.tokens, pair.target.tokens, pair.alignment)
    assert data[SVG] == alignment_grid(view, ident=_ident(data[SVG])).to_xml()
    svg, = _svgs(data[HTML])  # the same picture, in its scrolling box
    assert alignment_grid(view, ident=svg.get("id")).to_xml() in data[HTML]
    assert pair.signature in "".join(_parsed(data[HTML]).itertext())


def _ids(text: str) -> set[str]:
    """Every id an output defines."""
    return {e.get("id") for e in ET.fromstring(text.encode("utf-8")).iter() if e.get("id")}


def _references(text: str) -> set[str]:
    """Every id an output points to (``url(#...)``)."""
    return set(re.findall(r"url\(#([^)]+)\)", text))


def test_two_different_pictures_never_share_ids(shell) -> None:
    """A notebook is one document: two grids with the ids of `ident="grid"` hatched their cells
    with whichever pattern came first (another grid's colours)."""
    gold = Alignment.from_pharaoh("0-0 1-1 2-2")
    pictures = [_format(shell, _pair())[SVG], _format(shell, _pair("dog"))[SVG], notebook.lines(_pair())._repr_svg_(),
                notebook.grid(_pair(), gold)._repr_svg_(), _format(shell, LATTICE)[SVG],
                _format(shell, _pair(signature=None))[SVG]]
    ids = [_ids(svg) for svg in pictures[:-1]]
    assert all(ids) and sum(map(len, ids)) == len(set().union(*ids))
    assert pictures[-1] == pictures[0]  # the signature is under the picture, not in it
    metas = [_meta_evaluation("bleu", segment=True), _meta_evaluation("chrf", segment=True)]
    html_ids = [_ids(_format(shell, m)[HTML]) for m in metas]
    assert len(html_ids[0]) == 3 and not html_ids[0] & html_ids[1]  # the system and both segment-level plots


def test_the_same_picture_has_the_same_ids_on_every_run_and_shows_again() -> None:
    """Ids were a count of the pictures shown: running a notebook's cells again changed their saved
    outputs. Now they are the picture's: the same in another shell and another process, and the
    same picture shown twice points (``url(#...)``) at ids its own output defines, with the same
    definitions whichever output the browser finds first."""
    outputs = []
    for _ in range(2):  # a fresh shell each time, as a notebook run again in another kernel
        ipython = SimpleNamespace(display_formatter=display.DisplayFormatter())
        notebook.register(ipython)
        outputs += [_format(ipython, item) for item in (_pair(), _pair(), LATTICE)]
    assert outputs[0] == outputs[1] == outputs[3] and outputs[2] == outputs[5]
    for data in outputs[:3]:
        for text in (data[SVG], data[HTML]):
            assert _references(text) and _references(text) <= _ids(text)
    code = ("from paralign.alignment import AlignedSentences, Alignment\nfrom paralign.sentence import Sentence\n"
            "from paralign.viz.notebook import grid\n"
            "print(grid(AlignedSentences(Sentence.plain(['the', 'cat', 'sat']), "
            "Sentence.plain(['a', 'cat', 'was', 'sitting']), Alignment.from_pharaoh('0-0 1-1 2?3')))._repr_svg_())")
    assert _run(code).strip() == notebook.grid(_pair())._repr_svg_()


def test_the_lines_view_is_an_option_and_registering_again_replaces_the_view(shell) -> None:
    """Once a type has been shown, IPython keeps its printer where a registration by name does not
    reach: registering again with the lines view still showed the grid."""
    pair = _pair()
    assert "alignment grid" in _format(shell, pair)[SVG]
    notebook.register(shell, alignment="lines")
    svg = _format(shell, pair)[SVG]
    view = AlignmentView(pair.source.tokens, pair.target.tokens, pair.alignment)
    assert svg == alignment_lines(view, ident=_ident(svg)).to_xml()
    with pytest.raises(ConfigurationError, match="unknown alignment view 'both'"):
        notebook.register(shell, alignment="both")


def test_a_bare_alignment_shows_token_positions_and_an_empty_one_its_repr(shell) -> None:
    svg = _format(shell, Alignment.from_pharaoh("0-1 2?0"))[SVG]
    words = [e.text for e in ET.fromstring(svg).iter() if e.get("class", "").endswith("-word")]
    assert words == ["0", "1", "2", "0", "1"]  # three source positions, two target positions
    assert "0-1 2?0" in ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title").text
    assert set(_format(shell, Alignment.from_pharaoh(""))) == {TEXT}


def test_a_picture_with_gold_shows_itself_without_registering() -> None:
    """`grid`/`lines` give a value with `_repr_svg_`/`_repr_html_`, which IPython shows unasked."""
    gold = Alignment.from_pharaoh("0-0 1-1 2-2")
    picture = notebook.lines(_pair(), gold)
    data, _ = display.DisplayFormatter().format(picture)
    view = AlignmentView(_pair().source.tokens, _pair().target.tokens, _pair().alignment, gold)
    assert data[SVG] == alignment_lines(view, ident=_ident(data[SVG])).to_xml()
    assert "link sure missed" in data[SVG] and _svgs(data[HTML])
    with pytest.raises(InputTypeError, match="not str"):
        notebook.grid("the cat")  # type: ignore[arg-type]  # what a user may pass


# -- lattices ------------------------------------------------------------------------------------------
def test_a_lattice_shows_as_its_drawing(shell) -> None:
    data = _format(shell, LATTICE)
    assert set(data) == {TEXT, SVG, HTML}
    assert data[SVG] == lattice_drawing(LATTICE, ident=_ident(data[SVG])).to_xml()
    root = _parsed(data[HTML])
    assert "Read left to right" in "".join(root.itertext()) and "5 states, 6 edges" in "".join(root.itertext())


def test_a_lattice_too_large_to_draw_says_why_and_what_to_write_instead(shell) -> None:
    n = 3000  # a chain of 3,000 words: some 100,000 px wide
    chain = Lattice(n, tuple((k, "word", k + 1) for k in range(n - 1)))
    data = _format(shell, chain)
    assert set(data) == {TEXT, HTML}
    said = "".join(_parsed(data[HTML]).itertext())
    assert "too large to draw" in said and "Lattice.to_dot" in said and f"{MAX_SIDE:,}" in said


def test_a_pair_too_large_to_draw_says_why_as_a_lattice_does(shell) -> None:
    """A pair of 3,000 words a side was drawn 72,084 px wide in the cell; now its HTML says why
    not and what to write instead, and it has no SVG, as a lattice too large to draw."""
    words = tuple(["w"] * 3000)
    pair = AlignedSentences(Sentence.plain(words), Sentence.plain(words), Alignment.from_links([(0, 0)]))
    data = _format(shell, pair)
    assert set(data) == {TEXT, HTML}
    said = "".join(_parsed(data[HTML]).itertext())
    assert "too large to draw" in said and "--format text" in said and f"{MAX_SIDE:,}" in said


# -- scores --------------------------------------------------------------------------------------------
def _sts_file(word: str = "sts.tsv", sentence: str = "a cat") -> StsFileResult:
    evaluation = sts_from_scores([0.2, 0.9, 0.8], [1.0, 3.0, 5.0], signal="sultan2014")
    pairs = tuple(StsPair(str(line), gold, sentence, "the cat", line) for line, gold in enumerate((1.0, 3.0, 5.0), 1))
    return StsFileResult(word, f"data/{word}", evaluation, pairs=pairs)


def _sts_report(word: str = "sts.tsv", sentence: str = "a cat") -> StsReport:
    return StsReport((_sts_file(word, sentence),), "sultan2014", "sultan:default",
                     signature="signal:sultan2014|version:X")


def _table_scores(source: str = "table.tsv") -> TableScores:
    return TableScores(source, {1: TableCounts(4, 2, 5), 2: TableCounts(8, 3, 6)}, 2, 3, 6,
                       warnings=("2 phrases were too long",), signature="source:table|version:X")


def _segment_match(word: str = "mat") -> SegmentMatch:
    table = ParaphraseTable.from_pairs([("sat on", "was sitting on", 0.8), (word, "rug", 0.9)], "t")
    return ParaEval(sources=[table]).segment_matches([f"the cat sat on the {word}"], [["a cat was sitting on the rug"]])[0]


def _graded(word: str = "kitty") -> GradedExplanation:
    table = ParaphraseTable.from_pairs([("cat", word, 0.5)], "t")
    return GradedParaEval(Config("x", tiers=("exact", "paraphrase"), resources=()), [table]).explain(
        f"the {word} sat", ["a cat sat", "the dog"])


def _meta_evaluation(name: str = "bleu", segment: bool = False) -> MetaEvaluation:
    correlations = {"pearson": Interval(0.9, 0.8, 0.95), "spearman": Interval(0.5, 0.1, 0.9),
                    "kendall": Interval(float("nan"), float("nan"), float("nan"))}
    metric = MetricCorrelation(name, {"a": 1.0, "b": 2.0, "c": 3.0}, correlations, {}, {})
    segments = {name: SegmentCorrelation(name, {k: Interval(0.3, 0.1, 0.5) for k in SEGMENT_CORRELATIONS},
                                         {"pairs": 3, "concordant": 2, "discordant": 1, "ties": 0, "identical": 0},
                                         9, 0)} if segment else {}
    return MetaEvaluation("de-en", ("A",), ("a", "b", "c"), 100, 12345, {name: metric},
                          {name: "nrefs:1|bs:100|version:X"}, human={"a": 0.1, "b": 0.2, "c": 0.3},
                          level="both" if segment else "system", segment=segments)


#: Each score object that carries a signature, and a figure its table shows (dotted key, value).
SCORES = {
    "paraeval": (lambda: ParaEvalScore(SegmentStats(10, 8, 12, 9, 2), "nrefs:1|config:paper|version:X"),
                 ("f", ParaEvalScore(SegmentStats(10, 8, 12, 9, 2), "").f)),
    "alignment": (lambda: score_alignments([Alignment.from_pharaoh("0-0 1-1")], [Alignment.from_pharaoh("0-0 1-0")]),
                  ("micro.f1", 0.5)),
    "parametric": (lambda: AlignScores({1: AlignCounts(1, 2, 4)}, 1, 1, signature="parametric|version:X"),
                   ("precision", 0.5)),
    "similarity": (lambda: SimilarityBatch((0.5, None, 1.0), (), "sultan2014", "sultan:default", "sig|version:X"),
                   ("mean", 0.75)),
    "sts": (lambda: replace(sts_from_scores([0.1, 0.5, 0.9], [1.0, 3.0, 5.0], signal="sultan2014"),
                            signature="sts|version:X"), ("pearson", 1.0)),
    "sts report": (_sts_report, ("sets.0.pairs", 3)),
    "paraphrase table": (_table_scores, ("by_length.1.lb_precision", 0.5)),
    "paraphrase": (lambda: replace(paraphrase_from_scores([0.1, 0.9, 0.2, 0.8], [False, True, False, True],
                                                          [0.3, 0.7], [False, True], "sultan2014"),
                                   signature="paraphrase|version:X"), ("accuracy", 1.0)),
}


@pytest.mark.parametrize("name", SCORES)
def test_a_score_shows_its_figures_as_the_json_holds_them_and_its_signature(shell, name: str) -> None:
    make, (key, value) = SCORES[name]
    score = make()
    data = _format(shell, score)
    assert set(data) == {TEXT, HTML} and data[TEXT] == repr(score)
    root = _parsed(data[HTML])
    cells = {e.get("data-key"): e.get("data-value") for e in root.iter("td") if e.get("data-key")}
    assert json.loads(cells[key]) == pytest.approx(value)
    codes = [e.text for e in root.iter("code")]
    signature = score.signature
    assert signature and codes == [signature]


def test_a_meta_evaluation_shows_its_correlations_as_a_plot_and_a_table(shell) -> None:
    result = _meta_evaluation()
    root = _parsed(_format(shell, result)[HTML])
    svg, = (e for e in root.iter() if e.tag.rsplit("}", 1)[-1] == "svg")
    rows = [e for e in svg.iter() if e.get("class") == "interval"]
    assert [(r.get("data-label"), r.get("data-value")) for r in rows] == [("bleu", "0.9")]
    cells = [[c.text for c in row] for row in root.iter("tr")]
    assert cells == [["metric", "pearson", "spearman", "kendall"],
                     ["bleu", "0.900 [0.800, 0.950]", "0.500 [0.100, 0.900]", "n/a"]]
    assert [e.text for e in root.iter("code")] == ["nrefs:1|bs:100|version:X"]
    signed = _parsed(_format(shell, replace(result, signature="pair:de-en|refs:A|version:X"))[HTML])
    assert [e.text for e in signed.iter("code")] == ["nrefs:1|bs:100|version:X", "pair:de-en|refs:A|version:X"]


def test_a_paraphrase_tables_scores_show_by_length_and_overall(shell) -> None:
    root = _parsed(_format(shell, _table_scores())[HTML])
    cells = {e.get("data-key"): json.loads(e.get("data-value")) for e in root.iter("td") if e.get("data-key")}
    assert cells["lb_precision"] == 3 / 8 and cells["rel_recall"] == 0.5 and cells["by_length.1.rel_recall"] == 0.4
    assert "by_length.2.lb_precision" not in cells  # the overall figures are the longest bound's
    said = "".join(root.itertext())
    assert "table.tsv" in said and "2 phrases were too long" in said and "phrases of up to 2 words" in said


def _tiers(root: ET.Element) -> list[tuple[str, str, str]]:
    """Each highlighted span of a notebook output: its words, its tier and its inline style."""
    return [("".join(e.itertext()), e.get("data-tier"), e.get("style")) for e in root.iter("span")
            if e.get("data-tier") and "tier" in e.get("class", "") and e.get("title")]


def test_a_paraeval_segment_shows_its_words_highlighted_by_tier_as_the_report_does(shell) -> None:
    """The report's highlighting (reports.paraeval.highlighted), with each tier's look inline: a
    notebook's output carries no stylesheet, so the classes alone drew nothing."""
    from paralign.viz.reports.paraeval import TIER_STYLES, highlighted

    match = _segment_match()
    root = _parsed(_format(shell, match)[HTML])
    shown = _tiers(root)
    assert [(words, tier) for words, tier, _ in shown] == [
        (" ".join(match.tokens[sp.start:sp.end]), sp.tier) for sp in match.spans]
    assert all(style and TIER_STYLES[tier] in style for _, tier, style in shown)
    assert {"paraphrase", "synonym"} <= {tier for _, tier, _ in shown}
    plain = ET.fromstring(highlighted(match.tokens, match.spans).to_xml())  # the report's, without styles
    assert [(e.get("data-tier"), e.get("title")) for e in plain] == [(t.get("data-tier"), t.get("title"))
                                                                     for t in root.iter("span") if t.get("title")]
    said = "".join(root.itertext())
    assert "“sat on” (paraphrase) matched “was sitting on”" in said and "F " in said
    legend = {e.get("data-tier"): e.text for e in root.iter("span") if not e.get("title") and e.get("data-tier")}
    assert legend["paraphrase"].endswith(": 2") and legend["unmatched"].endswith(": 1")


def test_a_graded_segment_shows_the_hypothesis_and_its_reference_highlighted(shell) -> None:
    explained = _graded()
    root = _parsed(_format(shell, explained)[HTML])
    shown = _tiers(root)
    hypothesis = [(" ".join(explained.tokens[sp.start:sp.end]), sp.tier) for sp in explained.spans]
    reference = [(" ".join(explained.reference_tokens[sp.start:sp.end]), sp.tier) for sp in explained.reference_spans]
    assert [(words, tier) for words, tier, _ in shown] == hypothesis + reference
    assert ("kitty", "paraphrase") in hypothesis and all(style for _, _, style in shown)
    said = "".join(root.itertext())
    assert "scored against reference 1 of 2" in said and "ParaEval segment (x)" in said


def test_an_sts_report_and_file_show_each_files_scatter_as_the_report_draws_it(shell) -> None:
    from paralign.viz.reports.sts import file_scatter

    report = _sts_report()
    for item in (report, report.sets[0]):
        html = _format(shell, item)[HTML]
        svg, = _svgs(html)
        dots = [(e.get("data-x"), e.get("data-y")) for e in svg.iter("{http://www.w3.org/2000/svg}circle")]
        assert dots == [("1.0", "0.2"), ("3.0", "0.9"), ("5.0", "0.8")]
        assert file_scatter(report.sets[0], "sts.tsv", svg.get("id"))[0].to_xml() in html
    no_pairs = replace(report.sets[0], pairs=())  # made without its pairs: nothing to plot
    assert not _svgs(_format(shell, no_pairs)[HTML])


def test_an_sts_file_with_no_scored_pair_shows_a_note_where_its_scatter_would_be(shell) -> None:
    """Pairs none of which was scored: the note the report's scatter draws, not nothing at all."""
    file = _sts_report().sets[0]
    unscored = replace(file, evaluation=replace(file.evaluation, scores=[None] * len(file.pairs)))
    svg, = _svgs(_format(shell, unscored)[HTML])
    notes = [e.text for e in svg.iter("{http://www.w3.org/2000/svg}text") if e.get("class") == "note"]
    assert notes == ["no scored pair: nothing to plot"]
    assert not list(svg.iter("{http://www.w3.org/2000/svg}circle"))


# -- hostile text --------------------------------------------------------------------------------------
HOSTILE_ITEMS = {
    "pair": lambda w: _pair(w),
    "lattice": lambda w: Lattice(3, ((0, w, 1), (1, "b", 2))),
    "similarity": lambda w: SimilarityBatch((0.5,), (), w, w, f"signal:{w}"),
    "sts report": lambda w: _sts_report(w, w),
    "sts file": lambda w: _sts_file(w, w),
    "paraphrase table": lambda w: _table_scores(w),
    # the scorers split a hostile word into tokens (13a): a segment holding it as one, as a table's may
    "segment": lambda w: replace(_segment_match(w), tokens=(w, *_segment_match(w).tokens[1:])),
    "graded": lambda w: replace(_graded(w), tokens=(w, *_graded(w).tokens[1:])),
    "meta-eval": lambda w: _meta_evaluation(w),
}


@pytest.mark.parametrize("word", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.parametrize("item", HOSTILE_ITEMS)
def test_hostile_text_stays_text(shell, item: str, word: str) -> None:
    """A sentence, a file's name, a signal's or a metric's name holding ``<script>`` or ``&``
    shows as that text: every output parses, holds no script or event handler, and says it."""
    data = _format(shell, HOSTILE_ITEMS[item](word))
    for mimetype in (SVG, HTML):
        if mimetype in data:
            root = _parsed(data[mimetype])
            assert word in "".join(root.itertext()) or word in "".join(e.get("data-label", "") for e in root.iter())
    if "\u202e" in word and HTML in data:  # an RLO in a name is isolated where it is written among other text
        root = _parsed(data[HTML])
        loose = [p for p in root.iter("p") if word in (p.text or "") + "".join(c.tail or "" for c in p)]
        assert not loose


# -- registering, and paralign without IPython -----------------------------------------------------------
def test_every_display_names_a_type_where_it_is() -> None:
    """Displays are registered by module and class name (nothing is imported to register them): a
    class that moves must take its display along, or it shows as a repr again."""
    for module, name, _mimetype, _show in notebook.DISPLAYS:
        cls = getattr(importlib.import_module(module), name)
        assert (cls.__module__, cls.__name__) == (module, name)


def test_mimebundle_is_what_the_formatter_gives(shell) -> None:
    bundle = notebook.mimebundle(LATTICE)
    data = _format(shell, LATTICE)
    assert set(bundle) == {SVG, HTML}
    assert bundle[SVG] == data[SVG]
    assert notebook.mimebundle("text") == {} and notebook.mimebundle(Alignment.from_pharaoh("")) == {}


def test_unregister_removes_paralign_displays_only(shell) -> None:
    """What a user registered for a type of paralign's stays; paralign's go."""
    formatters = shell.display_formatter.formatters
    mine = formatters[HTML].for_type_by_name("paralign.lattice.word_lattice", "Lattice", lambda lattice: "<b>mine</b>")
    assert mine is not None  # it replaced paralign's
    notebook.unregister(shell)
    data = _format(shell, LATTICE)
    assert data[HTML] == "<b>mine</b>" and set(data) == {TEXT, HTML}
    assert set(_format(shell, _pair())) == {TEXT}
    with pytest.raises(InputTypeError, match="IPython shell"):
        notebook.register(object())


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_paralign_works_without_ipython() -> None:
    """IPython blocked (as if not installed): paralign imports, its pictures show their SVG, and
    registering says what is missing. Outside a shell, `import paralign` never imports IPython."""
    out = _run(
        "import sys\n"
        "import paralign\n"
        "from paralign.viz import notebook\n"
        "print('IPython' in sys.modules)\n"
        "sys.modules['IPython'] = None\n"
        "import importlib; importlib.reload(paralign)\n"
        "print(notebook.grid(paralign.Alignment.from_pharaoh('0-0'))._repr_svg_().startswith('<svg'))\n"
        "try:\n"
        "    notebook.register()\n"
        "except paralign.ConfigurationError as error:\n"
        "    print(error)\n")
    assert out.splitlines() == ["False", "True", "showing paralign's results in a notebook needs IPython, which is "
                                                 "not installed: pip install ipython"]


def test_in_a_real_shell_import_loads_the_displays_and_unload_ext_removes_them() -> None:
    out = _run(
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "import paralign\n"
        "a = paralign.Alignment.from_pharaoh('0-0 1-1')\n"
        "show = lambda: print(sorted(shell.display_formatter.format(a)[0]))\n"
        "print(sorted(shell.extension_manager.loaded)); show()\n"
        "shell.run_line_magic('unload_ext', 'paralign'); show()\n"
        "shell.run_line_magic('load_ext', 'paralign'); show()\n")
    assert out.splitlines() == ["['paralign']", "['image/svg+xml', 'text/html', 'text/plain']", "['text/plain']",
                                "['image/svg+xml', 'text/html', 'text/plain']"]


def test_register_without_a_running_shell_says_so() -> None:
    """In this process IPython is imported (by this module) but runs no shell."""
    with pytest.raises(ConfigurationError, match="no IPython shell is running"):
        notebook.register()


def test_a_failure_to_load_on_import_is_a_warning_and_no_shell_is_nothing(monkeypatch) -> None:
    """`import paralign` in IPython loads the displays: a failure there must not fail the import."""
    class Manager:
        loaded: list[str] = []

        def load_extension(self, name: str) -> None:
            self.loaded.append(name)
            raise RuntimeError("broken")

    shell = SimpleNamespace(extension_manager=Manager())
    monkeypatch.setitem(sys.modules, "IPython", SimpleNamespace(get_ipython=lambda: shell))
    with pytest.warns(RuntimeWarning, match=r"will show as text .*\(RuntimeError: broken\)"):
        notebook.load_in_running_shell()
    assert Manager.loaded == ["paralign"]
    monkeypatch.setitem(sys.modules, "IPython", SimpleNamespace(get_ipython=lambda: None))
    notebook.load_in_running_shell()  # no shell runs: nothing
    assert Manager.loaded == ["paralign"]


# -- a pair aligned with its words -------------------------------------------------------------------------
def test_aligned_gives_the_words_that_align_leaves_out(shell) -> None:
    """``Aligner.align`` gives a bare Alignment, which shows over token positions (0, 1, 2, ...);
    `aligned` gives the same links with the sentences, which show with their words."""
    from paralign.aligners import get_aligner
    from paralign.aligners.exact import ExactAligner

    for aligner in (ExactAligner(), get_aligner("exact")):
        pair = notebook.aligned(aligner, "The cat sat.", "A cat sat.")
        assert pair.alignment == ExactAligner().align("The cat sat.", "A cat sat.")
        assert pair.source.tokens == ("The", "cat", "sat", ".") and pair.signature.startswith("aligner:exact")
        svg = _format(shell, pair)[SVG]
        words = [e.text for e in ET.fromstring(svg).iter() if e.get("class", "").endswith("-word")]
        assert words == ["The", "cat", "sat", ".", "A", "cat", "sat", "."]
    given = Sentence.plain(["a", "<b>", "cat"])
    pair = notebook.aligned(ExactAligner(), given, ["<b>", "cat"])  # a Sentence as it is, tokens kept
    assert pair.source is given and pair.target.tokens == ("<b>", "cat") and pair.alignment.to_pharaoh() == "1-0 2-1"
    with pytest.raises(InputTypeError, match="aligned takes an aligner"):
        notebook.aligned("exact", "a", "b")
