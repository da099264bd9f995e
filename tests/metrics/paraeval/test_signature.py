"""paralign.metrics.paraeval.signature: how a paraphrase source appears in a signature."""

from __future__ import annotations

import re

import pytest

from paralign.errors import ConfigurationError
from paralign.metrics.paraeval.signature import source_signature
from paralign.paraphrases import load_table
from paralign.signature import signature_parts


class _Named:
    """A paraphrase source of the caller's own (paralign does not make it): its name is free text."""

    def __init__(self, name: str) -> None:
        self.name = name

    def paraphrases(self, phrase: str) -> dict[str, float | None]:
        return {"large": 0.9} if phrase == "big" else {}


def test_a_source_of_the_callers_own_whose_name_holds_a_bar_is_refused_before_any_work() -> None:
    """A source named ``mine|2`` was signed ``res:mine|2|...``, read back as ``res:mine`` and a
    keyless ``2``. Now a ConfigurationError naming the field: where the scorer takes it (its
    ``sources: item N``, before any segment is scored) and where a signature writes it; other
    names are signed as they were."""
    from paralign.metrics.paraeval import scorer

    with pytest.raises(ConfigurationError, match=r"^sources: item 2's name: 'mine\|2' holds '\|'"):
        scorer("default", sources=[_Named("ok"), _Named("mine|2")])
    with pytest.raises(ConfigurationError, match=r"^the paraphrase source's name: 'mine\|2' holds '\|'"):
        source_signature(_Named("mine|2"))
    assert source_signature(_Named("mine:2")) == "mine:2"
    assert signature_parts(scorer("default", sources=[_Named("mine:2")]).signature(1))["res"] == "mine:2"


def test_a_table_whose_name_holds_a_bar_is_refused(tmp_path) -> None:
    """A table ``t|x.tsv`` was signed ``res:t|x.tsv#HASH`` (ParaEval; ``table:`` in ParaMetric's,
    ``sim:`` in an aligner's), read back as ``res:t`` and a keyless ``x.tsv#HASH``. Now a
    ConfigurationError naming the file, as ``meta-eval --scores`` refuses such a file; a name
    holding ``:`` or ``#`` is signed as named, as before."""
    bar = tmp_path / "t|x.tsv"
    bar.write_text("big\tlarge\t0.9\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="^" + re.escape("t|x.tsv: the file's name 't|x.tsv' holds '|'")):
        source_signature(load_table(bar))
    with pytest.raises(ConfigurationError, match=r"'<in\|put>' holds '\|'"):
        source_signature(load_table(bar), "<in|put>")
    odd = tmp_path / "t:1.tsv"
    odd.write_text("big\tlarge\t0.9\n", encoding="utf-8")
    signed = source_signature(load_table(odd))
    assert signed.startswith("t:1.tsv#")
    assert signature_parts(f"res:{signed}|maxlen:4") == {"res": signed, "maxlen": "4"}


def test_a_source_of_the_callers_own_named_empty_is_refused() -> None:
    """A source named ``""`` made ParaEval sign ``res:none``, the signature of a scorer with no
    source, though it scored with one. Now a ConfigurationError where the scorer takes it and
    where a signature writes it (and an aligner's word similarity, which names it alike)."""
    from paralign.aligners.signature import _related_ids
    from paralign.metrics.paraeval import scorer

    with pytest.raises(ConfigurationError, match=r"^sources: item 1's name is empty: a signature would name no source"):
        scorer("default", sources=[_Named("")])
    with pytest.raises(ConfigurationError, match=r"^the paraphrase source's name is empty"):
        source_signature(_Named(""))
    with pytest.raises(ConfigurationError, match=r"^the word-similarity source's name is empty"):
        _related_ids(_Related(""))
    assert signature_parts(scorer("default", sources=[]).signature(1))["res"] == "none"
    assert signature_parts(scorer("default", sources=[_Named(" ")]).signature(1))["res"] == " "


class _Related:
    """A related-word source of the caller's own, for an aligner's word similarity."""

    def __init__(self, name: str) -> None:
        self.name = name

    def related(self, a: str, b: str) -> bool:
        return False


@pytest.mark.parametrize("name", ["ppdb", "wordnet", "none", "spelling", "ppdb-1.0-xxxl-lexical", "wordnet-3.1"])
def test_a_source_of_the_callers_own_named_as_a_built_in_is_refused(name: str) -> None:
    """A source of the caller's own named ``none`` was signed ``res:none``, a scorer's with no source;
    ``ppdb-1.0-xxxl-lexical`` or ``wordnet-3.0`` as the built-in (and ``ppdb``, ``wordnet`` as the
    built-in in an aligner's ``sim``, which names the same source). Now a ConfigurationError where
    the scorer takes it; WordNet (known by its type) and other names sign as before."""
    from paralign.metrics.paraeval import scorer
    from paralign.metrics.paraeval.signature import wordnet_version
    from paralign.paraphrases import WordNetSynonyms

    with pytest.raises(ConfigurationError, match="^" + re.escape(
            f"sources: item 1's name: {name!r} is a built-in source's name, or how a signature names one")):
        scorer("default", sources=[_Named(name)])
    assert source_signature(WordNetSynonyms()) == wordnet_version()
    assert source_signature(_Named(f"my-{name}")) == f"my-{name}"


def test_a_table_named_as_ppdbs_is_signed_as_a_table_and_ppdb_by_its_version(tmp_path) -> None:
    """A table was told for PPDB by its name, ``ppdb-lexical``: a table of the caller's own rows so
    named (``ParaphraseTable.from_pairs(..., name="ppdb-lexical")``, or a file of that name) was
    signed ``res:ppdb-1.0-xxxl-lexical``, PPDB's signature, without its rows' hash. Now the PPDB
    table is told by what it is (``built_in``), and any other table is signed as a table."""
    from paralign.metrics.paraeval import scorer
    from paralign.paraphrases import PPDB_VERSION, ParaphraseTable, ppdb_table

    mine = ParaphraseTable.from_pairs([("big", "large", 0.9)], name="ppdb-lexical")
    assert source_signature(mine) == f"ppdb-lexical#{mine.content_hash()}"
    named = tmp_path / "ppdb-lexical"
    named.write_text("big\tlarge\t0.9\n", encoding="utf-8")
    assert source_signature(load_table(named)).startswith("ppdb-lexical#")
    assert source_signature(ppdb_table()) == PPDB_VERSION
    assert signature_parts(scorer("default", sources=[ppdb_table()]).signature(1))["res"] == PPDB_VERSION


def test_a_table_built_in_memory_whose_name_holds_a_bar_is_refused_in_its_own_words(tmp_path) -> None:
    """``ParaphraseTable("a|b")`` (built in memory, no file) was refused with a file's message:
    ``a|b: the file's name 'a|b' holds '|' ...: copy or link the file under another name``, and
    only when the signature was written, after every segment was scored. Now its own words (name
    it another way), where the scorer takes it; a table read from a file (and its copies: the
    re-split one ParaEval compares with) keeps the file's message, naming the file."""
    from paralign.metrics.paraeval import scorer
    from paralign.paraphrases import ParaphraseTable

    memory = ParaphraseTable.from_pairs([("big", "large", 0.9)], name="a|b")
    words = re.escape("the table's name (given where the table was made, not a file's): 'a|b' holds '|', which "
                      "separates a signature's parts (the signature names it: NAME[:THRESHOLD][~TOKENIZER]#HASH): "
                      "name it another way")
    with pytest.raises(ConfigurationError, match="^" + words + "$"):
        source_signature(memory)
    with pytest.raises(ConfigurationError, match="^" + words + "$"):
        scorer("default", sources=[memory])  # before any segment is scored
    with pytest.raises(ConfigurationError, match="^" + re.escape("the table's name (given where the table was made, "
                                                                "not a file's): 'x\\ny' holds '\\n'")):
        source_signature(ParaphraseTable("x\ny"))
    bar = tmp_path / "t|x.tsv"
    bar.write_text("# paralign: {\"tokenizer\": \"regex\"}\nbig\tlarge\t0.9\n", encoding="utf-8")
    table = load_table(bar)
    for read in (table, table.retokenized(str, "13a"), table.filtered(0.5)):
        assert read.named_by_file
        with pytest.raises(ConfigurationError, match="^" + re.escape("t|x.tsv: the file's name 't|x.tsv' holds '|'")
                           + ".*copy or link the file under another name$"):
            source_signature(read)
    renamed = ParaphraseTable.from_tsv(tmp_path / "t|x.tsv", name="mine|2")
    with pytest.raises(ConfigurationError, match=re.escape("the table's name (given where the table was made")):
        source_signature(renamed)
    assert source_signature(ParaphraseTable.from_tsv(bar, name="mine")).startswith("mine#")


def test_a_source_of_the_callers_own_whose_name_holds_a_plus_is_refused(tmp_path) -> None:
    """A signature joins its sources with ``+``: a source of the caller's own named ``a+b`` was
    signed ``res:a+b``, as two sources named ``a`` and ``b``, two scorers, one signature. Now a
    ConfigurationError naming ``+`` where the scorer takes it. A table's name may hold one (its
    part ends with ``#HASH``, and a file named ``en+de.tsv`` is the user's): signed as before."""
    from paralign.metrics.paraeval import scorer

    with pytest.raises(ConfigurationError, match="^" + re.escape(
            "sources: item 1's name: 'a+b' holds '+', which separates the items of the part")):
        scorer("default", sources=[_Named("a+b")])
    two = scorer("default", sources=[_Named("a"), _Named("b")]).signature(1)
    assert signature_parts(two)["res"] == "a+b"
    plus = tmp_path / "en+de.tsv"
    plus.write_text("big\tlarge\t0.9\n", encoding="utf-8")
    assert source_signature(load_table(plus)).startswith("en+de.tsv#")


@pytest.mark.parametrize("config", ["default", "paper"])
def test_a_source_given_twice_is_named_once(tmp_path, config: str) -> None:
    """``paralign paraeval --table ppdb`` signed ``res:ppdb-1.0-xxxl-lexical+wordnet-3.0+ppdb-1.0-xxxl-lexical``,
    PPDB counted twice for the numbers of PPDB once. Now a built-in, or one table file, given
    again is named once, in its first place; the numbers are those of it once; and the signature
    still changes with the sources (another table, one of another threshold, a caller's own
    sources of one name, each named)."""
    from paralign.metrics.paraeval import paraeval, scorer

    table = tmp_path / "t.tsv"
    table.write_text("big\tlarge\t0.9\nsmall\ttiny\t0.4\n", encoding="utf-8")
    hyps, refs = ["a big cat sat", "a small dog"], [["a large cat sat", "the tiny dog"]]

    def res(**options: object) -> str:
        return signature_parts(scorer(config, **options).signature(1))["res"]

    assert res(tables=["ppdb"]) == res() == "ppdb-1.0-xxxl-lexical+wordnet-3.0"
    assert res(resources=["wordnet"], tables=["wordnet", "ppdb"]) == "ppdb-1.0-xxxl-lexical+wordnet-3.0"
    once = res(resources=["none"], tables=[str(table)])
    assert res(resources=["none"], tables=[str(table), str(table)]) == once
    assert res(resources=["none"], tables=[str(table), f"{table}:0.5"]).count("+") == 1
    assert res(sources=[_Named("mine"), _Named("mine")]) == "mine+mine"
    twice = paraeval(hyps, refs, config, resources=["none"], tables=[str(table), str(table)])
    assert twice == paraeval(hyps, refs, config, resources=["none"], tables=[str(table)])


def test_wordnet_is_known_by_its_type_not_by_a_built_in_attribute() -> None:
    """ParaEval knows WordNet by ``isinstance(source, WordNetSynonyms)`` (the signature, the
    paper scorer's lookups, the graded synonym tier), not by ``built_in == "wordnet"``, which
    ``serve`` reads among the sources it loaded itself: a caller's own source may carry such an
    attribute, and read by it, it was signed ``wordnet-3.0`` and its own paraphrases unused."""
    from paralign.metrics.paraeval import paraeval, scorer

    class Claims(_Named):
        built_in = "wordnet"

        def paraphrases(self, phrase: str) -> dict[str, float | None]:
            return {"blick": None} if phrase == "zorp" else {}  # no WordNet pair

    own = Claims("mine")
    assert signature_parts(scorer("default", sources=[own]).signature(1))["res"] == "mine"
    found = paraeval(["a zorp cat"], [["a blick cat"]], "paper", sources=[own])
    assert found["counts"]["hyp_paraphrase"] == 1  # its own pair, which WordNet does not have


@pytest.mark.parametrize("config", ["default", "paper"])
def test_the_same_sources_in_another_order_give_the_same_numbers_under_one_signature(tmp_path, config: str) -> None:
    """``--resources wordnet,ppdb`` signed ``res:wordnet-3.0+ppdb-1.0-xxxl-lexical`` and
    ``ppdb,wordnet`` ``res:ppdb-1.0-xxxl-lexical+wordnet-3.0``, for the same numbers (both scorers
    take the union of the sources' paraphrases, the graded one the highest score of a pair). Now
    one signature: PPDB, WordNet, then the tables and the caller's own sources sorted; the built-ins'
    as before. The numbers are checked equal first, segment by segment: were they not, the order
    would have to stay in the signature."""
    from paralign.metrics.paraeval import paraeval

    first, second = tmp_path / "b.tsv", tmp_path / "a.tsv"
    first.write_text("big\tlarge\t0.9\nsmall\ttiny\t0.4\n", encoding="utf-8")
    second.write_text("big\tlarge\t0.3\nsat\tsits\t0.8\nvery big\thuge\t0.7\n", encoding="utf-8")
    hyps = ["a big cat sat on the mat", "a small dog barked", "the very big house"]
    refs = [["a large cat sits on the rug", "the tiny dog was barking", "the huge house"],
            ["one large cat sat on a mat", "a little dog barked", "a very big home"]]
    orders = [(["ppdb", "wordnet"], [str(first), str(second)]), (["wordnet", "ppdb"], [str(second), str(first)])]
    scores = [paraeval(hyps, refs, config, resources=names, tables=tables, sentence_level=True)
              for names, tables in orders]
    assert _numbers(scores[0]) == _numbers(scores[1]) and scores[0]["segments"]  # the numbers: the same
    assert scores[0] == scores[1]  # and now the signatures
    assert signature_parts(scores[0]["signature"])["res"] == (
        f"ppdb-1.0-xxxl-lexical+wordnet-3.0+{source_signature(load_table(second))}+{source_signature(load_table(first))}")
    mine = paraeval(hyps, refs, config, sources=[_Named("b"), _Named("a")])["signature"]
    assert signature_parts(mine)["res"] == "a+b"


def _numbers(result: object) -> object:
    """A result without its signatures (each segment's too)."""
    if isinstance(result, dict):
        return {key: _numbers(value) for key, value in result.items() if key != "signature"}
    return [_numbers(value) for value in result] if isinstance(result, list) else result
