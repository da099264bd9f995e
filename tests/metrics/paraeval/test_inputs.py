"""metrics.paraeval.inputs: both scorers check the shapes they take (API audit W2, U1, C6, C7).

One str where a list is expected was read as its characters: five one-letter references scored
silently, or a count mismatch that did not say what was wrong."""

from __future__ import annotations

import pickle

import pytest

import paralign
from paralign.errors import (
    ConfigurationError,
    InputTypeError,
    MismatchError,
    ParalignError,
    SameReferenceError,
    repeated_stream,
)
from paralign.metrics.paraeval import GradedParaEval, ParaEval, get_config
from paralign.metrics.paraeval.scoring import paraeval, scorer, systems_scores
from paralign.paraphrases import ParaphraseTable


@pytest.fixture(scope="module", params=["paper", "graded"])
def any_scorer(request):
    """Each scorer without resources (nothing to load): the checks come before any matching."""
    if request.param == "paper":
        return ParaEval(())
    return GradedParaEval(get_config("default"), ())


def test_input_type_error_is_in_the_hierarchy_and_a_type_error() -> None:
    assert issubclass(InputTypeError, ParalignError) and issubclass(InputTypeError, TypeError)
    assert paralign.InputTypeError is InputTypeError


def test_one_str_of_references_for_a_segment_is_refused_not_read_as_characters() -> None:
    scorer_ = ParaEval(())
    with pytest.raises(InputTypeError, match=r"references .* must be a list of strings, not one str"):
        scorer_.sentence_score("a cat", "a cat")
    with pytest.raises(MismatchError, match="at least one reference is needed"):
        scorer_.sentence_score("a cat", [])
    with pytest.raises(InputTypeError, match="the hypothesis must be a str, not NoneType"):
        scorer_.matched_spans(None, ["a cat"])
    with pytest.raises(InputTypeError, match="item 2 is int"):
        scorer_.explain("a cat", ["a cat", 3])
    assert scorer_.sentence_score("a cat", ["a cat"]).f == 1.0


def test_a_mapping_is_not_read_as_its_keys() -> None:
    """paraeval({"a b c": 1}, [["a b c"]]) scored the dict's keys as the segments (F 1.0)."""
    with pytest.raises(InputTypeError, match=r"hypotheses \(one str per segment\) must be a list of strings, not dict"):
        paraeval({"a b c": 1}, [["a b c"]])
    with pytest.raises(InputTypeError, match="must be a list of strings, not dict"):
        paraeval(["a b c"], [{"a b c": 1}])


@pytest.mark.parametrize(
    ("hypotheses", "references", "error", "message"),
    [
        ("a cat", [["a cat"]], InputTypeError, r"hypotheses \(one str per segment\) must be a list of strings, not one str"),
        (["a cat"], ["a cat"], InputTypeError, r"not a list of str: wrap one stream as \[refs\]"),
        (["a cat"], "a cat", InputTypeError, "references must be a list of reference streams"),
        ([None], [["a"]], InputTypeError, "item 1 is NoneType None, not a str"),
        (["a"], [[None]], InputTypeError, "reference stream 1: item 1 is NoneType"),
        (["a"], [], MismatchError, "at least one reference stream is needed"),
        (["a"], [["a"], ["a", "b"]], MismatchError, r"different numbers of segments: \[1, 2\]"),
        (["a", "b"], [["a"]], MismatchError, "2 hypothesis segments but 1 reference segments"),
    ],
)
def test_corpus_shapes_are_checked_with_a_message_that_says_what_is_wrong(
        any_scorer, hypotheses, references, error, message) -> None:
    with pytest.raises(error, match=message):
        any_scorer.segment_stats(hypotheses, references)


def test_one_list_of_references_per_segment_is_named_as_the_stream_layout_mistake(any_scorer) -> None:
    """Two hypotheses with [[ref1], [ref2]] (one list per segment, not sacrebleu's streams) was only
    "2 hypothesis segments but 1 reference segments"."""
    with pytest.raises(MismatchError, match=r"2 hypothesis segments but 1 reference segments \(references are "
                       r"streams.*list\(zip\(\*references\)\)"):
        any_scorer.segment_stats(["a cat", "a dog"], [["a cat"], ["a dog"]])
    with pytest.raises(MismatchError, match="1 reference segments$"):
        any_scorer.segment_stats(["a cat", "a dog"], [["a cat"]])


@pytest.mark.parametrize(("references", "message"), [
    ([5], "reference stream 1 must be a list of strings, not int"),
    (None, "references must be a list of reference streams .*not NoneType"),
])
def test_prepare_cached_checks_the_references_before_it_keys_them(any_scorer, references, message) -> None:
    """The paper scorer's prepare_cached (what meta-evaluation's ParaEval metrics call) built its
    key from the references before any check: a stream that is no list was a bare TypeError
    ("'int' object is not iterable"), where prepare and the graded scorer name it."""
    with pytest.raises(InputTypeError, match=message):
        any_scorer.prepare_cached(references)


def test_paraeval_function_says_the_sacrebleu_layout_mistake() -> None:
    with pytest.raises(InputTypeError, match="wrap one stream"):
        paraeval(["a cat"], ["a cat"], resources=[])


@pytest.mark.parametrize("make", [lambda s: ParaEval(s), lambda s: GradedParaEval(get_config("default"), s),
                                  lambda s: scorer("paper", sources=s)])
def test_sources_given_by_name_are_refused_at_construction(make) -> None:
    with pytest.raises(InputTypeError, match="sources must be a list of paraphrase sources, not str"):
        make("ppdb")
    with pytest.raises(InputTypeError, match="sources: item 1 must be a paraphrase source .*, not str"):
        make(["ppdb"])
    make([ParaphraseTable.from_pairs([("cat", "feline")])])


def test_resource_names_and_tables_must_be_lists() -> None:
    with pytest.raises(InputTypeError, match=r"resources must be a list of str, such as \['ppdb'\]"):
        scorer("default", resources="ppdb")
    with pytest.raises(InputTypeError, match=r"tables must be a list of str, such as \['t.tsv'\]"):
        scorer("default", tables="t.tsv")


def test_no_hypothesis_at_all_is_nothing_to_score_not_a_score_of_zero() -> None:
    """API audit W4: paraeval([], [[]]) gave 0.0 everywhere where `paralign paraeval` on an empty
    file says 'nothing to score' (EmptyScoringError, exit 1)."""
    from paralign.errors import EmptyScoringError

    with pytest.raises(EmptyScoringError, match="no hypothesis segments: nothing to score"):
        paraeval([], [[]], resources=[])
    with pytest.raises(EmptyScoringError, match="nothing to score"):
        paraeval([], [[]], "paper", resources=[])
    with pytest.raises(EmptyScoringError, match="nothing to score"):
        ParaEval(()).corpus_score([], [[]])
    assert len(ParaEval(()).segment_stats([], [[]])) == 0  # per-segment statistics of nothing: none
    assert paraeval([""], [["a"]], resources=[])["precision"] == 0.0  # an empty segment still scores


def test_an_unknown_option_is_named_for_every_config_and_a_paper_option_for_a_graded_one() -> None:
    """`nope=1` was "nope: only for --config paper" with a graded config, and a TypeError from
    ParaEval.__init__ with the paper config."""
    from paralign.errors import ConfigurationError
    from paralign.metrics.paraeval.scoring import paper_option_names

    assert "lowercase" in paper_option_names() and "sources" not in paper_option_names()
    for config in ("paper", "default"):
        with pytest.raises(ConfigurationError, match="unknown ParaEval option nope .the paper config's options: "):
            scorer(config, sources=(), nope=1)
    with pytest.raises(ConfigurationError, match=r"lowercase: only for the paper config \(config='paper'"):
        scorer("default", sources=(), lowercase=False)
    assert scorer("paper", sources=(), lowercase=False).lowercase is False


def test_the_option_types_name_every_setting_they_pass_on() -> None:
    """The TypedDicts that type the keyword arguments of `scorer`, `paraeval` and `Config.with_`
    (so a user's type checker sees a misspelt or mistyped option) list exactly the settings of
    what they are passed on to: a field added there and not here would be refused by mypy."""
    import dataclasses

    from paralign.metrics.paraeval.configs import Config, ConfigChanges
    from paralign.metrics.paraeval.paper import PaperOptions, ParaEvalOptions
    from paralign.metrics.paraeval.scoring import ScorerOptions, paper_option_names

    assert set(PaperOptions.__annotations__) == set(paper_option_names())
    init = {f.name for f in dataclasses.fields(ParaEval) if f.init}
    assert set(ParaEvalOptions.__annotations__) | {"sources"} == init
    assert set(ScorerOptions.__annotations__) == set(paper_option_names()) | {
        "resources", "tables", "sources", "max_length", "progress", "encoder", "device"}
    assert set(ConfigChanges.__annotations__) | {"weights"} == {f.name for f in dataclasses.fields(Config)}


def test_the_same_reference_set_twice_is_refused_naming_the_two(any_scorer) -> None:
    """Two streams of the same segments were scored as one under a signature saying nrefs:2 (as
    ``paralign paraeval -r X -r X``, a usage error there). Compared by contents: the scorers take
    no path, and streams alike score as one whatever they were read from."""
    refs = ["the cat sat", "a dog ran"]
    with pytest.raises(SameReferenceError, match="reference stream 3 has the same segments as reference "
                                                 "stream 1: give each reference once"):
        any_scorer.segment_stats(["the cat", "a dog"], [refs, ["x y", "z w"], list(refs)])
    with pytest.raises(SameReferenceError, match="stream 2 has the same segments as reference stream 1") as caught:
        any_scorer.prepare_cached([refs, tuple(refs)])
    assert (caught.value.first, caught.value.again) == ("reference stream 1", "reference stream 2")
    assert isinstance(caught.value, ConfigurationError) and "nrefs:2" in str(caught.value)
    again = pickle.loads(pickle.dumps(caught.value))  # sent back from a worker
    assert (type(again), str(again), again.again) == (SameReferenceError, str(caught.value), "reference stream 2")
    assert any_scorer.prepare([refs, ["the cat sat", "a dog"]]).nrefs == 2  # one segment differs: two sets


def test_one_segment_alike_in_two_references_is_two_translators_agreeing(any_scorer) -> None:
    """One segment's references (sentence_score's) and streams of one segment are not checked:
    two translators may write one sentence alike."""
    assert any_scorer.prepare([["thank you ."], ["thank you ."]]).nrefs == 2
    assert repeated_stream([["a"], ["a"]]) is None and repeated_stream([["a", "b"], ["c", "d"], ["a", "b"]]) == (0, 2)


def test_systems_scores_refuses_the_same_reference_set_in_this_process(monkeypatch) -> None:
    """systems_scores (paraeval's many systems) says it as the scorer does, before any worker
    starts: with workers it was a task's failure, raised back from a worker."""
    import paralign.metrics.paraeval.scoring as scoring

    def no_batch(*args, **kwargs):
        raise AssertionError("the batch ran")

    monkeypatch.setattr(scoring, "run_chunks", no_batch)
    refs = ["the cat sat", "a dog ran"]
    with pytest.raises(SameReferenceError, match="reference stream 2 has the same segments as reference stream 1"):
        systems_scores(GradedParaEval(get_config("default"), ()), [["the cat", "a dog"]], [refs, refs], workers=2)
    with pytest.raises(SameReferenceError):
        paraeval(["the cat", "a dog"], [refs, refs], "paper", resources=[])
