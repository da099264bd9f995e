"""The engine without its models: link confidences, table names, paraphrase order."""

from __future__ import annotations

import pytest

from paralign.alignment import Alignment
from paralign.errors import ConfigurationError, FormatError
from paralign.metrics.paraeval import ParaEval
from paralign.paraphrases import ParaphraseTable
from paralign.web.engine import Engine
from paralign.web.results import link_confidences
from paralign.web.table_rows import table_name


def test_confidences_are_the_alignments_own_in_the_unit_interval() -> None:
    links = frozenset({(0, 0), (1, 1)})
    assert link_confidences(Alignment(links)) is None
    assert link_confidences(Alignment(links, confidence={(0, 0): 0.5, (1, 1): 1})) == {(0, 0): 0.5, (1, 1): 1.0}
    # values outside [0, 1], non-numbers and links the alignment does not have: the Alignment
    # refuses them when it is built, so none reaches the page
    for odd in ({(0, 0): 0.1, (1, 1): "high"}, {(0, 0): 0.1, (5, 5): 0.2}, {(0, 0): 1.5}):
        with pytest.raises(FormatError, match="Alignment confidence"):
            Alignment(links, confidence=odd)  # type: ignore[arg-type]


def test_table_names_are_file_names_made_unique(tmp_path) -> None:
    path = tmp_path / "pp.tsv"
    path.write_text("a\tb\n", encoding="utf-8")
    assert table_name(str(path), ()) == "pp.tsv"
    assert table_name(f"{path}:0.5", ("pp.tsv",)) == "pp.tsv-2"
    assert table_name(str(path), ("pp.tsv", "pp.tsv-2")) == "pp.tsv-3"


def test_a_table_is_read_through_the_progress_of_the_load(tmp_path) -> None:
    """serve --table read a big table with nothing on screen: Engine.load gives its `progress`
    each table's rows as they are read, under the table's spec (here up to the bad line that
    stops the load, before any model loads)."""
    from paralign.web import ServeConfig

    path = tmp_path / "pp.tsv"
    path.write_text("a\tb\t0.5\nc\td\nno tab\n", encoding="utf-8")
    seen: list[tuple[str, int | None, list[str]]] = []

    def progress(items, label, total):
        rows: list[str] = []
        seen.append((label, total, rows))
        for item in items:
            rows.append(item)
            yield item

    with pytest.raises(FormatError, match=r"pp\.tsv:3"):
        Engine.load(ServeConfig(tables=(f"{path}:0.1",), resources=("none",)), progress)
    assert seen == [(f"reading {path}:0.1", None, ["a\tb\t0.5\n", "c\td\n", "no tab\n"])]


def test_paraphrases_best_first_and_unknown_sources_refused() -> None:
    table = ParaphraseTable("t")
    for q, s in (("b", 0.2), ("a", 0.9), ("c", None), ("d", 0.9)):
        table.add("x", q, s)
    engine = Engine({"t": table}, ParaEval(), {})
    assert engine.paraphrases("X", "t") == ("x", [("a", 0.9), ("d", 0.9), ("b", 0.2), ("c", None)])
    with pytest.raises(ConfigurationError, match="no paraphrase source named 'u'; loaded: t"):
        engine.paraphrases("x", "u")
    with pytest.raises(ConfigurationError, match="start the server with --table"):
        Engine({}, ParaEval(), {}).paraphrases("x", "t")
    with pytest.raises(ConfigurationError, match="unknown aligner"):
        Engine({}, ParaEval(), {}).aligner("giza", "default")


def test_paraeval_scores_with_a_config_and_explains_graded_matches() -> None:
    """The graded configs are built on first use over the engine's sources (Engine.load builds
    them at start-up); the paper config keeps its spans; an unknown or missing config is refused."""
    table = ParaphraseTable.from_pairs([("cat", "feline", 0.8)], name="t.tsv")
    engine = Engine({"t.tsv": table}, ParaEval([table]), {})
    graded = engine.paraeval("the cat sat", ["a feline sat", "the dog sat"])
    assert graded.config.name == "default" and "config:default" in graded.signature
    assert graded.signature.startswith("nrefs:2|") and "res:t.tsv#" in graded.signature
    found = [(m.tier, graded.matched.tokens[m.hyp_start], m.grade) for m in graded.matched.matches]
    assert ("paraphrase", "cat", 0.8) in found and graded.matched.reference == 0
    assert engine.graded["default"] is engine.graded_scorer("default")  # built once
    paper = engine.paraeval("the cat sat", ["a feline sat"], "paper")
    assert paper.config.name == "paper" and [s.tier for s in paper.matched.spans] == ["unmatched", "synonym", "exact"]
    with pytest.raises(ConfigurationError, match="unknown ParaEval config 'nope'"):
        engine.paraeval("a", ["b"], "nope")
    engine.missing["contextual"] = "the contextual encoder needs the optional extra 'neural'"
    assert engine.paraeval_configs == ["default", "paper"]
    with pytest.raises(ConfigurationError, match="optional extra 'neural'"):
        engine.paraeval("a", ["b"], "contextual")


def test_the_app_loads_and_answers_without_the_neural_extra() -> None:
    """Without torch and transformers (hidden in a fresh interpreter) the app starts, warmed:
    the neural signals and ParaEval's contextual config are left out with the reason, the
    lexical ones answer, and the contextual preset is refused per request (422 with the
    install command) instead of failing the start."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "for m in ('torch', 'transformers'): sys.modules[m] = None\n"
        "from fastapi.testclient import TestClient\n"
        "from paralign.web.app import create_app\n"
        "from paralign.web.engine import Engine, ServeConfig\n"
        "engine = Engine.load(ServeConfig())\n"
        "print(sorted(engine.signals), sorted(engine.unavailable_signals), engine.paraeval_configs)\n"
        "client = TestClient(create_app(engine=engine))\n"
        "body = {'source': 'A cat sat.', 'target': 'A cat was sitting.'}\n"
        "print(client.post('/api/align', json=body).status_code)\n"
        "answer = client.post('/api/align', json={**body, 'preset': 'contextual'})\n"
        "print(answer.status_code, 'paralign[neural]' in answer.json()['error'])\n"
        "info = client.get('/api/info').json()\n"
        "print(info['aligners'], info['presets'], {k: sorted(v) for k, v in info['unavailable'].items()})\n"
        "print('pip install' in info['unavailable']['aligners']['contextual'])\n"
        "page = client.get('/align').text\n"
        "print('<option>contextual</option>' in page, 'the contextual aligner and preset (' in page)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    signals, aligned, refused, info, installs, page = run.stdout.strip().split("\n")
    assert signals == ("['all-words', 'mean-proportion', 'numbers', 'sultan2014', 'sultan2015'] "
                       "['contextual-alignment', 'embedding', 'hybrid', 'idf', 'idf2015'] ['default', 'paper']"), signals
    assert [aligned, refused] == ["200", "422 True"]
    # /api/info listed the contextual aligner and preset all the same, and the page offered them
    assert info == ("['sultan', 'exact'] ['default', 'paper', 'paraphrase'] {'aligners': ['contextual'], "
                    "'presets': ['contextual'], 'signals': ['contextual-alignment', 'embedding', 'hybrid', 'idf', "
                    "'idf2015'], 'paraeval_configs': ['contextual']}"), info
    assert installs == "True" and page == "False True"


def test_a_server_s_scorer_caches_stay_within_the_bound_and_score_as_unbounded_ones() -> None:
    """The engine's scorers live as long as the server: with `cache_size` 3, a stream of distinct
    segments never grows a lookup cache past 3, and every answer equals an unbounded scorer's."""
    from paralign.metrics.paraeval.configs import DEFAULT
    from paralign.metrics.paraeval.graded import GradedParaEval

    table = ParaphraseTable.from_pairs([(f"w{k}", f"v{k}", 0.5) for k in range(30)], name="t.tsv")
    bounded = Engine({"t.tsv": table}, ParaEval([table], cache_size=3), {}, cache_size=3)
    free_graded, free_paper = GradedParaEval(DEFAULT, [table]), ParaEval([table])
    scorer = bounded.graded_scorer("default")
    for k in range(0, 27, 3):
        hyp, refs = f"w{k} w{k + 1} the w{k + 2}", [f"v{k} v{k + 1} a v{k + 2}", f"v{k + 2} w{k}"]
        assert bounded.paraeval(hyp, refs).matched == free_graded.explain(hyp, refs)
        assert bounded.paraeval(hyp, refs, "paper").matched == free_paper.matched_spans(hyp, refs)
        assert scorer._para is not None
        assert len(scorer._para._cache) <= 3 and len(scorer._stems) <= 3 and len(bounded.scorer._cache) <= 3
    assert len(free_graded._para._cache) > 3 and len(free_paper._cache) > 3  # they would have grown


PAIRS = [("The cat sat on the mat.", "A cat was sitting on the mat."),
         ("Prices rose sharply in March.", "In March, prices went up a lot."),
         ("The senator resigned on Friday.", "On Friday the lawmaker quit her job."),
         ("He bought two apples for three dollars.", "He paid 3 dollars for 2 apples."),
         ("The cat sat on the mat.", "A cat was sitting on the mat.")]


@pytest.mark.parametrize("preset", ["default", "paper", "paraphrase", "contextual"])
def test_a_server_s_aligners_keep_a_bounded_pair_cache_and_align_as_the_library(preset) -> None:
    """The Sultan aligner keeps the similarity of every word-form pair it meets, until 2,000,000
    of them: a server meeting new sentences for weeks grew to that. The engine's own aligners
    keep the `pair_cache_size` most recently used, and align as ``get_aligner``'s do."""
    from paralign.aligners.registry import get_aligner

    if preset == "contextual":
        pytest.importorskip("torch", reason="the contextual aligner needs the neural extra")
    engine = Engine({}, ParaEval(), {}, pair_cache_size=40)
    library = get_aligner("sultan", preset)
    for source, target in PAIRS:
        aligned = engine.align(source, target, "sultan", preset)
        assert aligned.alignment == library(aligned.source, aligned.target)
        assert 0 < len(getattr(engine.aligners[preset], "lexical", engine.aligners[preset])._sim_cache) <= 40
    assert len(_registry_cache(preset)) > 40  # the library's grew past it


def _registry_cache(preset: str) -> dict:
    from paralign.aligners.registry import _preset_aligner

    built = _preset_aligner(preset)
    return getattr(built, "lexical", built)._sim_cache


def test_the_loaded_server_bounds_every_aligner_s_pair_cache(engine) -> None:
    """At the documented size: the aligners of the align and similarity requests, and the
    contextual aligner of the contextual-alignment signal (alone and in the hybrid)."""
    from paralign.caching import CappedDict
    from paralign.similarity.contextual import ContextualAlignmentSignal
    from paralign.web.engine import SERVE_PAIR_CACHE_SIZE

    assert set(engine.aligners) >= {"default", "paper", "paraphrase"}  # warmed at start-up
    caches = [getattr(a, "lexical", a)._sim_cache for a in engine.aligners.values()]
    for signal in engine.signals.values():
        for part in (signal, *getattr(signal, "components", ())):
            if isinstance(part, ContextualAlignmentSignal):
                caches.append(part.aligner.lexical._sim_cache)
    assert all(isinstance(c, CappedDict) and c.limit == SERVE_PAIR_CACHE_SIZE for c in caches)
    if "contextual-alignment" in engine.signals:  # the neural extra is installed
        assert engine.signals["contextual-alignment"].aligner.lexical._sim_cache in caches


def test_a_table_naming_a_built_in_already_loaded_is_that_source_loaded_once(monkeypatch) -> None:
    """``serve --table ppdb`` (PPDB loaded by the default --resources) read PPDB a second time
    (0.6 s and 33 MiB more), offered it again as a source ``ppdb-2`` and made ``ppdb-2`` the
    default lookup. The table is the source already loaded, under its own name, and ParaEval still
    scores with the sources as ``paralign paraeval --table ppdb`` lists them (the same signature)."""
    import paralign.web.table_rows as table_rows
    from paralign.web import ServeConfig

    loaded: list[str] = []
    real = table_rows.load_source

    def counted(spec, **kwargs):
        loaded.append(str(spec))
        return real(spec, **kwargs)

    monkeypatch.setattr(table_rows, "load_source", counted)
    engine = Engine.load(ServeConfig(tables=("ppdb",), warm=False))
    assert loaded == [] and list(engine.sources) == ["ppdb", "wordnet"] and engine.default_table == "ppdb"
    ppdb, wordnet = engine.sources.values()
    assert list(engine.scorer.sources) == [ppdb, wordnet, ppdb]
    assert "|res:ppdb-1.0-xxxl-lexical+wordnet-3.0|" in engine.paraeval(
        "the cat sat", ["a cat sat"], "paper").signature
    assert engine.graded_scorer("default").sources == (ppdb, wordnet, ppdb)
    alone = Engine.load(ServeConfig(tables=("ppdb", "ppdb"), resources=("none",), warm=False))
    assert loaded == ["ppdb"] and list(alone.sources) == ["ppdb"] and alone.default_table == "ppdb"
    words = Engine.load(ServeConfig(tables=("wordnet",), resources=("wordnet",), warm=False))
    assert list(words.sources) == ["wordnet"] and loaded == ["ppdb"]


def test_an_empty_resource_name_is_refused_not_skipped() -> None:
    """Engine.load skipped an empty name of ``ServeConfig.resources`` (``("",)`` served with no
    source at all): refused as build_sources refuses it, naming where, before anything loads."""
    from paralign.web import ServeConfig

    with pytest.raises(ConfigurationError, match=r"resources: an empty name \(name 2 of 2\)"):
        Engine.load(ServeConfig(resources=("wordnet", ""), warm=False))
