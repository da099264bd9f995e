"""The contract for bad arguments, name by name (docs/api.md, Errors): a public name given a
value it cannot use raises one of :mod:`paralign.errors`' errors naming the argument, never a
built-in error from deep inside (ZeroDivisionError, AttributeError, "'NoneType' object is not
iterable"). Each test here is a case that broke it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import paralign
from paralign import disk_cache
from paralign.errors import ConfigurationError, EmptyScoringError, InputTypeError, MismatchError
from paralign.metrics.alignment_scores import AlignmentScores, PairCounts
from paralign.metrics.paraeval import scorer, system_scores


def test_alignment_scores_of_no_pair_is_refused_when_built() -> None:
    """`AlignmentScores(per_pair=())` could be built, then its `to_dict()` (and `macro`,
    `exact`) raised ZeroDivisionError: 'division by zero'. No pair has no figure: it is the
    EmptyScoringError that `score_alignments([], [])` raises, when it is built."""
    with pytest.raises(EmptyScoringError, match="no alignments to score"):
        AlignmentScores(per_pair=())
    with pytest.raises(EmptyScoringError, match="no alignments to score"):
        paralign.score_alignments([], [])
    one = paralign.Alignment.from_pharaoh("0-0 1-1")
    counts = PairCounts.of(one, one)
    assert AlignmentScores(per_pair=(counts,)).to_dict()["macro"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}


HYPOTHESES = ["he bought two apples", "the cat sat"]
REFERENCES = [["he purchased two apples", "a cat sat"]]


@pytest.mark.parametrize("references", [None, 3, b"ab", [1, 2], [None]])
@pytest.mark.parametrize("config", ["default", "paper"])
def test_paraeval_names_references_of_the_wrong_shape(references: object, config: str) -> None:
    """`paraeval(hyps, None)` raised "object of type 'NoneType' has no len()" (and 3, a Path, an
    object alike) from the signature's reference count, taken before the references were
    checked; a stream that is not a list (bytes: ints; a list of ints or None) "'int' object is not iterable"
    from the graded scorer's cache key. Each is now the InputTypeError of the references' check,
    naming them."""
    with pytest.raises(InputTypeError, match="reference stream|references must be"):
        paralign.paraeval(HYPOTHESES, references, config)  # type: ignore[arg-type]


def test_paraeval_scorers_check_references_before_counting_them() -> None:
    """`system_scores` of a thing that is no scorer raised AttributeError "'str' object has no
    attribute 'signature'"; the paper scorer's `corpus_score(hyps, None)` "object of type
    'NoneType' has no len()". Both now name the argument; good input scores as before."""
    with pytest.raises(InputTypeError, match="item must be a ParaEval scorer"):
        system_scores("default", HYPOTHESES, REFERENCES)  # type: ignore[arg-type]
    paper = paralign.ParaEval(sources=[])
    with pytest.raises(InputTypeError, match="references must be"):
        paper.corpus_score(HYPOTHESES, None)  # type: ignore[arg-type]
    assert paper.corpus_score(HYPOTHESES, REFERENCES).signature.startswith("nrefs:1|")
    assert system_scores(scorer("default", resources=()), HYPOTHESES, REFERENCES)["signature"].startswith("nrefs:1|")


@pytest.mark.parametrize(("args", "named"), [((None,), "aligner name"), ((3,), "aligner name"),
                                             ((b"exact",), "aligner name"), (("sultan", ["paper"]), "preset"),
                                             (("sultan", {"w": 0.5}), "preset")])
def test_get_aligner_of_a_name_that_is_not_a_str_names_it(args: tuple, named: str) -> None:
    """`get_aligner(None)` raised "argument of type 'NoneType' is not iterable" (its test for a
    ``sultan:preset`` label), bytes "a bytes-like object is required, not 'str'", a list or
    dict preset "unhashable type: 'list'" from the presets' lookup. Each is an InputTypeError
    naming the argument now; a name that is a str is looked up as before."""
    with pytest.raises(InputTypeError, match=f"^{named} must be a str"):
        paralign.get_aligner(*args)
    assert paralign.get_aligner("exact")("a b", "a c") == paralign.Alignment.from_pharaoh("0-0")


@pytest.mark.parametrize("config", [["default"], {"name": "default"}, 3])
def test_paraeval_of_a_config_that_is_no_name_names_it(config: object) -> None:
    """`paraeval(hyps, refs, ["default"])` (and `scorer(...)`) raised "unhashable type: 'list'"
    from the configs' lookup, 3 "unknown ParaEval config 3" (a ConfigurationError: a value,
    where it is a type). An InputTypeError naming `config` now."""
    with pytest.raises(InputTypeError, match="^config must be a ParaEval config's name"):
        paralign.paraeval(HYPOTHESES, REFERENCES, config)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="^config must be"):
        scorer(config)  # type: ignore[arg-type]


@pytest.mark.parametrize("load", [paralign.load_pairs, paralign.load_groups])
def test_a_gold_file_format_that_is_no_name_is_named(load, tmp_path) -> None:
    """`load_pairs(path, format=["jsonl"])` raised "unhashable type: 'list'" from the formats'
    lookup; an InputTypeError naming `format` now (None still detects it)."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "1", "source": ["a"], "target": ["b"], "alignment": "0-0"}\n', encoding="utf-8")
    with pytest.raises(InputTypeError, match="^format must be a format's name"):
        load(gold, ["jsonl"])
    assert len(load(gold, None)) == 1


@pytest.mark.parametrize(("build", "message"), [
    (lambda: paralign.Sentence(("a", "b"), lemmas=float("nan")), "^Sentence.lemmas must be a list"),
    (lambda: paralign.Sentence(("a", "b"), whitespace=3), "^Sentence.whitespace must be a list"),
    (lambda: paralign.Sentence(("a", "b"), lemmas="xy"), "^Sentence.lemmas must be a list"),
    (lambda: paralign.Sentence(("a", "b"), heads=("a", "b")), "^Sentence.heads: item 1 is str"),
    (lambda: paralign.Sentence(("a", "b"), entities=[(0, 1, "PERSON")]), "^Sentence.entities: item 1 is tuple"),
    (lambda: paralign.Sentence([1, 2]), "^Sentence tokens: item 1 is int"),
    (lambda: paralign.Entity(None, 1, "PERSON"), "^Entity start must be a token index"),
    (lambda: paralign.Entity(0, 1, None), "^Entity label must be a str"),
    (lambda: paralign.Token(None, 0), "^Token's sentence must be an annotated Sentence"),
    (lambda: paralign.Token(paralign.Sentence(("a",)), "0"), "^Token's i must be a token index"),
    (lambda: paralign.AlignedPair("1", None, ("a",), paralign.Alignment()), "^AlignedPair.source is a sequence"),
    (lambda: paralign.AlignedPair("1", ("a",), 3, paralign.Alignment()), "^AlignedPair.target is a sequence"),
])
def test_a_value_type_built_from_values_of_the_wrong_type_names_the_field(build, message: str) -> None:
    """The value types were built from what they could not hold, or failed with Python's words:
    `Sentence(tokens, lemmas=nan)` "object of type 'float' has no len()", `lemmas="xy"` two
    lemmas 'x' and 'y', heads of str "'<=' not supported between instances of 'str' and 'int'",
    an entity as a tuple "'tuple' object has no attribute 'start'", int tokens were kept (and
    broke its repr: "sequence item 0: expected str instance, int found"); `Entity(None, 1, ...)`
    was kept; `Token(None, 0)` raised "'NoneType' object has no attribute 'tokens'";
    `AlignedPair(id, None, ...)` "'NoneType' object is not iterable". Each is an InputTypeError
    naming the field now."""
    with pytest.raises(InputTypeError, match=message):
        build()


def test_value_types_built_right_are_unchanged() -> None:
    """What annotate and the readers build still builds: None or empty layers are the defaults,
    numpy's integers index tokens."""
    import numpy as np

    sentence = paralign.Sentence(("John", "ran"), lemmas=None, heads=(1, -1),
                                 entities=(paralign.Entity(np.int64(0), 1, "PERSON"),))
    assert sentence.lemmas == ("John", "ran") and sentence.entity_at(0) == paralign.Entity(0, 1, "PERSON")
    assert paralign.Token(sentence, np.int64(1)).text == "ran" == sentence[-1].text
    assert paralign.Sentence.from_dict(sentence.to_dict()) == sentence


def test_build_lattice_of_a_mapping_is_refused_not_read_as_its_keys() -> None:
    """`build_lattice({"the cat sat": 1, "a cat sat": 2})` built the lattice of the keys,
    silently (the values lost; a dict of ids to sentences gave a lattice of the ids). A mapping
    is an InputTypeError now, as `check_texts` refuses one; a list builds as before."""
    with pytest.raises(InputTypeError, match="^build_lattice takes a group of sentences .a list., not dict"):
        paralign.build_lattice({"g1": "the cat sat", "g2": "a cat sat"})
    assert paralign.build_lattice(["the cat sat", "a cat sat"]).path_count() == 2


@pytest.mark.parametrize(("options", "message"), [
    ({"tables": None}, "^tables must be a list of str, not NoneType"),
    ({"tables": [None]}, "^tables: item 1 is NoneType"),
    ({"resources": [1]}, "^resources: item 1 is int"),
])
def test_scorer_names_resources_or_tables_that_are_not_lists_of_str(options: dict, message: str) -> None:
    """`scorer("paper", tables=None)` raised "'NoneType' object is not iterable", `tables=[None]`
    the TypeError of a path, `resources=[1]` "'int' object has no attribute 'strip'"; each is an
    InputTypeError naming the argument (and item) now."""
    with pytest.raises(InputTypeError, match=message):
        scorer("paper", **options)


@pytest.mark.parametrize("call", [disk_cache.entries, disk_cache.purge])
def test_cache_kinds_that_are_no_list_of_kinds_are_named(call, tmp_path, monkeypatch) -> None:
    """`disk_cache.entries(None)` raised "'NoneType' object is not iterable", `purge("vectors")`
    KeyError 'v' (one str read as its letters), an unknown kind a bare KeyError. An
    InputTypeError or a ConfigurationError naming `kinds` now; a list of kinds reads as before."""
    monkeypatch.setenv("PARALIGN_CACHE_DIR", str(tmp_path))
    with pytest.raises(InputTypeError, match="^kinds must be a list of cache kinds"):
        call(None)
    with pytest.raises(InputTypeError, match="^kinds must be a list of cache kinds .derived, vectors., not str"):
        call("vectors")
    with pytest.raises(ConfigurationError, match="^unknown cache kind 'x'"):
        call(["x"])
    assert disk_cache.entries(["derived"]) == []


def test_alignment_methods_name_an_argument_of_the_wrong_type() -> None:
    """`alignment.union([(0, 0)])` (and `intersection`, `|`, `&`) raised "'list' object has no
    attribute 'sure'"; `validate(None, 2)` "'<' not supported between instances of 'int' and
    'NoneType'" and `validate(2.5, 2)` passed. InputTypeErrors naming the argument now."""
    alignment = paralign.Alignment.from_pharaoh("0-0 1-1")
    for call in (alignment.union, alignment.intersection, alignment.__or__, alignment.__and__):
        with pytest.raises(InputTypeError, match="must be an Alignment"):
            call([(0, 0)])
    for lengths in ((None, 2), (2, "2"), (2.5, 2), (True, 2)):
        with pytest.raises(InputTypeError, match="_length must be a number of tokens"):
            alignment.validate(*lengths)
    assert alignment.validate(2, 2) is alignment and (alignment | alignment) == alignment


@pytest.mark.parametrize("one", ["sts.tsv", Path("sts.tsv")])
def test_file_evaluations_refuse_one_path_where_a_list_is_expected(one, tmp_path) -> None:
    """`evaluate_sts_files("sts.tsv")` read the path's characters as files ("/ is given twice
    ..."; a Path: "'PosixPath' object is not iterable"), `evaluate_paraphrase_files("train.txt",
    test)` the same ("/: is a directory, not a file"; a Path: "load_msrp() argument after * must
    be an iterable"); a None item "expected str, bytes or os.PathLike object". An InputTypeError
    naming the argument now, before any file is read."""
    from paralign.similarity import evaluate_paraphrase_files, evaluate_sts_files

    with pytest.raises(InputTypeError, match="^paths must be a list of file paths, not one path"):
        evaluate_sts_files(one)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="^paths: item 1 is NoneType"):
        evaluate_sts_files([None])  # type: ignore[list-item]
    with pytest.raises(InputTypeError, match="^idf_from must be a list of file paths"):
        evaluate_sts_files([tmp_path / "a.tsv"], idf_from=one)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="^train_paths must be a list of file paths, not one path"):
        evaluate_paraphrase_files(one, tmp_path / "test.txt")  # type: ignore[arg-type]


def test_similarity_signature_names_a_signal_or_model_file_it_cannot_sign() -> None:
    """`similarity_signature(None)` signed 'signal:NoneType' (3: 'signal:int'), silently: a
    signature of no signal. `model_file=` a missing file raised a bare FileNotFoundError, a
    folder IsADirectoryError, a number "expected str, bytes or os.PathLike object". An
    InputTypeError, or the InputFileError naming the file, now."""
    from paralign.errors import InputFileError
    from paralign.similarity.signature import similarity_signature

    for bad in (None, 3, ["sultan2014", None]):
        with pytest.raises(InputTypeError, match="^signal must be a signal's name"):
            similarity_signature(bad)
    with pytest.raises(InputFileError, match="no such file"):
        similarity_signature("sultan2014", model_file="/nonexistent/model.json")
    with pytest.raises(InputTypeError, match="^a file path must be"):
        similarity_signature("sultan2014", model_file=3)  # type: ignore[arg-type]
    assert similarity_signature("sultan2014").startswith("signal:sultan2014|")


def test_a_progress_that_is_not_callable_is_refused_before_any_work() -> None:
    """`similarity_many(pairs, progress="x")` aligned the first chunk, then raised "'str' object
    is not callable" from the batch runner (the chunk's work lost); `evaluate_aligner` the
    same from its first step. An InputTypeError naming `progress` now, before any work."""
    from importlib.resources import files

    from paralign.aligners.batch import align_pairs

    def exploding(*_args: object) -> paralign.Alignment:
        raise AssertionError("aligned before progress was checked")

    with pytest.raises(InputTypeError, match="^progress must be a function"):
        paralign.similarity_many([("a b", "a c")], aligner=exploding, progress="x")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="^progress must be a function"):
        align_pairs([("a b", "a c")], aligner=exploding, progress=3)  # type: ignore[arg-type]
    gold = files("paralign") / "data" / "demo" / "gold.jsonl"
    with pytest.raises(InputTypeError, match="^progress must be a function"):
        paralign.evaluate_aligner(paralign.Aligner(), gold, progress="x")  # type: ignore[arg-type]
    steps: list[int] = []
    assert align_pairs([("a b", "a c")], aligner=paralign.get_aligner("exact"), progress=steps.append).failures == ()
    assert steps == [1]


def test_align_pairs_takes_an_aligner_by_name_as_similarity_many_does() -> None:
    """`align_pairs(pairs, aligner="exact")` called the name: every pair failed, "alignment
    failed: TypeError: 'str' object is not callable", where `similarity_many` takes the same
    name. A name is the aligner it names now, and its signature names it; anything that is
    neither a function nor a name is an InputTypeError."""
    from paralign.aligners.batch import align_pairs

    batch = align_pairs([("a b", "a c")], aligner="exact")
    assert batch.failures == () and batch.items[0].alignment == paralign.Alignment.from_pharaoh("0-0")
    assert batch.items[0].signature.startswith("aligner:exact")
    with pytest.raises(InputTypeError, match="^aligner must be an alignment function"):
        align_pairs([("a b", "a c")], aligner=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rule", "error", "message"), [
    (["lowest"], InputTypeError, "^rule must be a threshold rule's name"),
    ("bogus", ConfigurationError, "^unknown threshold rule 'bogus'"),
])
def test_evaluate_paraphrase_checks_its_rule_before_aligning(rule, error, message) -> None:
    """`evaluate_paraphrase(train, test, rule=["lowest"])` aligned every pair, then raised
    "unhashable type: 'list'" choosing the threshold; `rule="bogus"` its ConfigurationError
    only then too (minutes on MSRP). Both are raised before any pair is aligned now."""
    def exploding(*_args: object) -> paralign.Alignment:
        raise AssertionError("aligned before the rule was checked")

    pairs = [("A man eats.", "A man is eating.", True), ("Dogs bark.", "Cats sleep.", False)] * 2
    for classifier in ("signal", "features"):
        with pytest.raises(error, match=message):
            paralign.evaluate_paraphrase(pairs, pairs, classifier=classifier, rule=rule, aligner=exploding)


@pytest.mark.parametrize(("options", "message"), [
    ({"disable": "parser"}, r"^disable must be a list of pipe names, such as \['parser'\], not one str"),
    ({"disable": [1]}, "^disable: item 1 is int"),
    ({"disable": None}, "^disable must be a list of pipe names, not NoneType"),
    ({"model": 3}, "^model must be a spaCy model's name or folder"),
])
def test_an_annotator_names_options_of_the_wrong_type(options: dict, message: str) -> None:
    """`Annotator(disable="parser")` disabled the pipes 'p', 'a', 'r', ... (none: the parser
    ran, silently), `disable=[1]` was kept, `disable=None` "'NoneType' object is not iterable",
    `model=3` "sequence item 0: expected str instance, int found" on first use. An
    InputTypeError when built now; a model folder as a Path is its path, as a str is."""
    with pytest.raises(InputTypeError, match=message):
        paralign.Annotator(**options)
    assert paralign.Annotator(Path("models") / "en", disable=("ner",)).model == str(Path("models") / "en")


def test_a_feature_set_or_encoder_model_that_is_no_name_is_named() -> None:
    """`evaluate_paraphrase(train, test, feature_set=["alignment"])` raised "unhashable type:
    'list'" from the sets' lookup; `Encoder(3)` (and `scorer("contextual", encoder=3)`)
    "expected str, bytes or os.PathLike object, not int" from os.fspath. InputTypeErrors naming
    the argument now, before any model loads or pair is aligned."""
    from paralign.neural import Encoder

    pairs = [("A man eats.", "A man is eating.", True), ("Dogs bark.", "Cats sleep.", False)] * 2
    with pytest.raises(InputTypeError, match="^feature_set must be a feature set's name"):
        paralign.evaluate_paraphrase(pairs, pairs, feature_set=["alignment"])  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="^encoder model must be a name or folder, or None, not int 3"):
        Encoder(3)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="^encoder model must be"):
        scorer("contextual", encoder=3, resources=())  # type: ignore[arg-type]


@pytest.mark.parametrize(("fields", "error", "message"), [
    ((("a",), (0.0,), (0.0,), (1.0,), 0.0), ConfigurationError, r"^LogisticModel scales: item 1 is 0.0, not a finite number > 0"),
    ((("a",), (0.0,), (1.0,), (float("nan"),), 0.0), ConfigurationError, "^LogisticModel weights: item 1 is nan"),
    ((("a",), (0.0, 1.0), (1.0,), (1.0,), 0.0), MismatchError, "^LogisticModel: 2 means for 1 features"),
    ((None, (0.0,), (1.0,), (1.0,), 0.0), InputTypeError, "^LogisticModel features must be a list of strings"),
    ((("a",), (0.0,), (1.0,), (1.0,), "x"), ConfigurationError, "^LogisticModel intercept is 'x'"),
])
def test_a_logistic_model_built_by_hand_refuses_numbers_it_cannot_score_with(fields, error, message) -> None:
    """`LogisticModel` built by hand kept anything, which `from_dict` refuses in a report: a
    scale of 0 then gave probability 1.0 (a division by zero, with a RuntimeWarning), a NaN
    weight NaN, silently; two means for one feature numpy's "matmul: Input operand 1 has a
    mismatch in its core dimension 0", features=None a probability of 0.731. Each is refused
    when built now, naming the field; a fitted or good model scores as before."""
    with pytest.raises(error, match=message):
        paralign.LogisticModel(*fields)
    assert paralign.LogisticModel(["a"], [0.0], [1.0], [1.0], 0.0).probability([1.0]) == pytest.approx(0.7310585786)


def test_lattice_queries_name_a_count_state_or_text_of_the_wrong_kind() -> None:
    """On a lattice, `kbest(None)` raised "'<' not supported between instances of 'NoneType'
    and 'int'", `kbest(2.5)` "slice indices must be integers"; `in_edges(None)` "tuple indices
    must be integers", `out_edges(99)` "tuple index out of range", and `in_edges(-1)` gave the
    last state's edges, silently; `Lattice.from_json(None)` "'NoneType' object has no attribute
    'lstrip'". Each is now one of paralign's errors naming the value."""
    from paralign.errors import LatticeError

    lattice = paralign.build_lattice(["the cat sat", "a cat sat"])
    for bad in (None, "3", 2.5):
        with pytest.raises(ConfigurationError, match="^k must be a whole number"):
            lattice.kbest(bad)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="^a state is an integer, got None"):
        lattice.in_edges(None)  # type: ignore[arg-type]
    for state in (99, -1):
        with pytest.raises(LatticeError, match=f"^state {state} outside the lattice's states 0-3"):
            lattice.out_edges(state)
    with pytest.raises(InputTypeError, match="^Lattice.from_json takes the JSON text"):
        paralign.Lattice.from_json(None)  # type: ignore[arg-type]
    assert [words for _, words in lattice.kbest(1)] == [("the", "cat", "sat")]
    assert lattice.out_edges(0) == (0, 1) and paralign.Lattice.from_json(json.dumps(lattice.to_dict())) == lattice


def test_aligned_sentences_refuses_a_signature_that_is_no_text() -> None:
    """`AlignedSentences(source, target, alignment, signature=3)` (or the aligner itself, a
    likely slip for `alignment_signature(aligner)`) was kept, and `to_dict()` wrote it as the
    record's "signature" (3, or an object JSON cannot write). An InputTypeError now."""
    source, target = paralign.Sentence(("a", "b")), paralign.Sentence(("a", "c"))
    alignment = paralign.Alignment.from_pharaoh("0-0")
    for bad in (3, paralign.get_aligner("exact")):
        with pytest.raises(InputTypeError, match="^AlignedSentences.signature must be a str"):
            paralign.AlignedSentences(source, target, alignment, bad)  # type: ignore[arg-type]
    assert paralign.AlignedSentences(source, target, alignment, "aligner:exact").to_dict()["signature"] == "aligner:exact"


def test_an_aligner_takes_its_similarity_table_as_a_path(tmp_path) -> None:
    """`Aligner(similarity=Path("table.tsv"))` raised "unknown word-similarity source
    PosixPath('table.tsv')" where the same path as a str is read as a table: a Path is a TSV
    path now (a missing file is named, as for a str)."""
    table = tmp_path / "table.tsv"
    table.write_text("purchased\tbought\t0.9\n", encoding="utf-8")
    for spec in (table, str(table)):
        assert paralign.Aligner(similarity=spec).align("He purchased it .", "He bought it .").sure >= {(1, 1)}
    with pytest.raises(ConfigurationError, match="missing.tsv"):
        paralign.Aligner(similarity=tmp_path / "missing.tsv").align("a", "a")


@pytest.mark.parametrize("flag", ["lowercase", "keyword_check", "wordnet", "squeeze"])
def test_lattice_options_take_flags_that_are_true_or_false(flag: str) -> None:
    """`LatticeOptions(lowercase="no")` lower-cased (a non-empty str is true), `lowercase=None`
    built a lattice whose `lowercase` said "unknown"; any flag took any value, silently. A
    ConfigurationError naming the flag now, as AlignerConfig's flags; True, False, 0 and 1 are
    taken as before."""
    for bad in ("no", None, 2):
        with pytest.raises(ConfigurationError, match=f"^{flag} must be True or False"):
            paralign.LatticeOptions(**{flag: bad})
    assert getattr(paralign.LatticeOptions(**{flag: 0}), flag) is False


@pytest.mark.parametrize("config", ["default", "paper"])
def test_system_scores_checks_workers_with_either_scorer(config: str) -> None:
    """`system_scores(scorer("default"), hyps, refs, workers="x")` scored, silently (the graded
    scorer spreads whole systems, not segments, so it never read `workers`), where the paper
    scorer's refused it. Both refuse a count that is no whole number of at least 1 now."""
    item = scorer(config, resources=())
    for bad in ("x", 0, 2.5):
        with pytest.raises(ConfigurationError, match="^workers must be"):
            system_scores(item, HYPOTHESES, REFERENCES, workers=bad)  # type: ignore[arg-type]
    assert system_scores(item, HYPOTHESES, REFERENCES, workers=1)["signature"].startswith("nrefs:1|")
