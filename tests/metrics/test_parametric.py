"""ParaMetric scores: AlignPrec/AlignRecall and LB-Precision/Rel-Recall."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign._version import __version__
from paralign.alignment import Alignment
from paralign.corpora import AlignedPair, group_key, load_pairs
from paralign.errors import ConfigurationError, EmptyScoringError, MismatchError
from paralign.metrics.parametric import (
    align_scores,
    group_sentences,
    hub_sentences,
    reference_paraphrases,
    sentence_phrases,
    table_scores,
)
from paralign.paraphrases import ParaphraseTable
from paralign.phrases import phrase_pairs


def pair(pid: str, src: str, tgt: str, links) -> AlignedPair:
    return AlignedPair(pid, tuple(src.split()), tuple(tgt.split()), Alignment.from_links(links))


# -- AlignPrec / AlignRecall ---------------------------------------------------------------------
def test_align_scores_by_hand():
    gold = [pair("1", "a b", "c d", [(0, 0), (1, 1)])]
    system = [pair("1", "A B", "C D", [(0, 1), (1, 0)])]  # case differs: still the same texts
    result = align_scores(gold, system)
    # gold PP: a-c, b-d, "a b"-"c d"; system PP: a-d, b-c, "a b"-"c d"
    assert (result.by_length[1].matched, result.by_length[1].system, result.by_length[1].gold) == (0, 2, 2)
    assert (result.overall.matched, result.overall.system, result.overall.gold) == (1, 3, 3)
    assert result.precision == pytest.approx(1 / 3) and result.recall == pytest.approx(1 / 3)
    assert result.warnings == () and result.pairs == 1
    data = result.to_dict()
    assert set(data["by_length"]) == {"1", "2", "3", "4", "5"}
    assert data["by_length"]["1"]["precision"] == 0.0


def test_align_scores_bare_alignments_and_identical_pairs():
    gold = [pair("1", "x y", "x z", [(0, 0), (1, 1)])]
    result = align_scores(gold, [Alignment.from_links([(0, 0), (1, 1)])])
    # x-x is identical and dropped: y-z and "x y"-"x z" remain
    assert result.overall.gold == 2 and result.precision == 1.0 and result.recall == 1.0


def test_align_scores_reports_mismatched_pairs():
    gold = [pair("g1", "a b", "c d", [(0, 0)]), pair("g2", "e f", "g h", [(1, 1)])]
    system = [pair("s1", "a b", "c d", [(0, 0)]), pair("s2", "e f", "g WRONG", [(1, 1)])]
    result = align_scores(gold, system)
    assert result.pairs == 1 and result.skipped == 1
    assert len(result.warnings) == 1 and "'g2'" in result.warnings[0] and "'s2'" in result.warnings[0]
    out_of_range = [pair("s1", "a b", "c d", [(0, 0)]), Alignment.from_links([(5, 0)])]
    result = align_scores(gold, out_of_range)
    assert result.skipped == 1 and "'g2'" in result.warnings[0]
    with pytest.raises(MismatchError):
        align_scores(gold, system[:1])
    with pytest.raises(ConfigurationError):
        align_scores(gold, system, max_length=0)


@st.composite
def aligned_pairs(draw):
    n, m = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    words = st.sampled_from(["a", "b", "c", "d"])
    src = draw(st.lists(words, min_size=n, max_size=n))
    tgt = draw(st.lists(words, min_size=m, max_size=m))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, m - 1))
    return (AlignedPair("p", tuple(src), tuple(tgt), Alignment.from_links(draw(st.sets(cells, max_size=10)))),
            Alignment.from_links(draw(st.sets(cells, max_size=10))))


@settings(max_examples=100, deadline=None)
@given(st.lists(aligned_pairs(), min_size=1, max_size=4), st.integers(1, 5))
def test_align_scores_properties(items, max_length):
    gold = [g for g, _ in items]
    system = [s for _, s in items]
    result = align_scores(gold, system, max_length)
    expected_gold = sum(len(phrase_pairs(g.alignment, g.source, g.target, max_length)) for g in gold)
    assert result.overall.gold == expected_gold
    counts = [result.by_length[n] for n in range(1, max_length + 1)]
    for a, b in zip(counts, counts[1:], strict=False):
        assert a.matched <= b.matched and a.system <= b.system and a.gold <= b.gold
    assert all(c.matched <= min(c.system, c.gold) for c in counts)
    same = align_scores(gold, [g.alignment for g in gold], max_length)
    assert same.overall.matched == same.overall.gold == same.overall.system


# -- reference sets and table scores -------------------------------------------------------------
GROUP = [
    pair("d.1.x", "he quit", "he resigned", [(0, 0), (1, 1)]),
    pair("d.1.y", "he quit", "he stepped down", [(0, 0), (1, 1), (1, 2)]),
]


def test_reference_paraphrases_union_over_pairs():
    refs = reference_paraphrases(GROUP)
    hub = ("he", "quit")
    assert refs[hub]["quit"] == {"resigned", "stepped down"}
    assert refs[hub]["he quit"] == {"he resigned", "he stepped down"}
    assert "he" not in refs[hub]  # identical pairs are not paraphrases
    assert refs[("he", "stepped", "down")]["stepped down"] == {"quit"}
    assert group_sentences(GROUP)[0] == hub and hub_sentences(GROUP) == [hub]
    assert sentence_phrases(["A", "b", "a"], 2) == {"a", "b", "a b", "b a"}


def test_table_warnings_say_one_in_the_singular():
    """A count of one in the table scores' warnings reads "1 group has", "1 posited paraphrase
    longer than 2 words was" ("1 groups have", "1 posited paraphrases ... were" before), as the
    rest of the CLI says counts (errors.counted)."""
    no_hub = [pair("e.1", "a b", "c d", [(0, 0)]), pair("e.2", "x y", "z w", [(0, 0)])]
    table = ParaphraseTable.from_pairs([("stepped down", "resigned quietly now"), ("quit", "left")])
    hub = table_scores({"d.1": GROUP, "e": no_hub}, table, max_length=2, sentences="hub")
    assert hub.warnings == ("1 group has no sentence common to all their pairs; skipped",)
    every = table_scores({"d.1": GROUP}, table, max_length=2)
    assert every.warnings == ("1 posited paraphrase longer than 2 words was not scored",)


def test_table_scores_by_hand():
    table = ParaphraseTable.from_pairs(
        [("quit", "resigned"), ("quit", "left"), ("he", "him"), ("stepped down", "resigned quietly now")]
    )
    result = table_scores({"d.1": GROUP}, table, max_length=2)
    # units: "he quit" (quit -> resigned, stepped down; he quit -> he resigned; "he stepped down"
    # has 3 words > 2), "he resigned" (resigned -> quit, he resigned -> he quit),
    # "he stepped down" (stepped down -> quit)
    # posited: "he" in 3 sentences -> him (3), quit -> resigned, left (2); correct: quit->resigned
    assert (result.overall.posited, result.overall.correct) == (5, 1)
    assert result.overall.reference == 3 + 2 + 1
    assert result.by_length[1].reference == 1 + 1 + 0
    assert result.lb_precision == pytest.approx(1 / 5)
    assert result.beyond_max_length == 1 and any("longer than 2" in w for w in result.warnings)
    hub = table_scores({"d.1": GROUP}, table, max_length=2, sentences="hub")
    assert hub.sentences == 1 and hub.overall.posited == 3 and hub.overall.reference == 3
    only = table_scores({"d.1": GROUP}, table, max_length=2, only_referenced=True)
    assert only.overall.posited == 2 and only.overall.correct == 1
    with pytest.raises(ConfigurationError):
        table_scores({"d.1": GROUP}, table, sentences="every")


def test_table_bound_past_every_phrase_gives_the_longest_phrases_output():
    """parametric table --max-length 99999999999999999999 never ended (one row per length, as
    parametric align). A bound past every phrase counted (7 words here) is no limit and gives
    the output of 7; a bound up to it keeps its rows, and the default's 5 rows stay."""
    long = [pair("d.3.x", "the old man walked slowly to market", "the elderly man went slowly to market",
                 [(k, k) for k in range(7)])]
    table = ParaphraseTable.from_pairs([("old", "elderly"), ("walked", "went")])
    seven = table_scores({"d.3": long}, table, max_length=7)
    assert seven.max_length == 7 and list(seven.by_length) == list(range(1, 8))
    for bound in (8, 10**20):
        assert table_scores({"d.3": long}, table, max_length=bound).to_dict() == seven.to_dict()
    assert list(table_scores({"d.3": long}, table, max_length=6).by_length) == list(range(1, 7))
    assert table_scores({"d.1": GROUP}, table, max_length=10**20).to_dict() == table_scores({"d.1": GROUP}, table).to_dict()


def test_tight_reference_has_one_paraphrase_per_pair():
    group = [pair("d.2.x", "zhou muyao , mayor", "mayor zhou murao", [(0, 1), (1, 2), (3, 0)])]
    loose = reference_paraphrases(group)[("zhou", "muyao", ",", "mayor")]
    tight = reference_paraphrases(group, tight=True)[("zhou", "muyao", ",", "mayor")]
    assert loose["muyao ,"] == {"murao"} and "muyao ," not in tight
    assert tight["zhou muyao"] == {"zhou murao"}
    result = table_scores({"d.2": group}, ParaphraseTable.from_pairs([("muyao ,", "murao")]), tight=True)
    assert result.tight and result.overall.correct == 0 and result.to_dict()["tight"] is True


def test_single_sentence_group_is_reported():
    groups = {"solo": [pair("solo.1", "same words", "same words", [(0, 0), (1, 1)])], "d.1": GROUP}
    result = table_scores(groups, ParaphraseTable.from_pairs([("quit", "resigned")]))
    assert result.skipped_groups == 1 and result.groups == 1
    assert any("'solo'" in w and "'solo.1'" in w for w in result.warnings)
    assert any("has 1 distinct sentence (pairs" in w for w in result.warnings)  # was "sentence(s)"
    assert result.overall.correct == 1


def test_the_warnings_of_one_skipped_item_are_told_from_the_notes():
    """`names_a_skipped_item`: a skipped pair's or group's warning (the command line shows the
    first 20 of a run's and counts the rest) is told from a note on the whole gold or table
    (each always shown): how many groups had no hub sentence, a gold with no possible links."""
    from paralign.metrics.parametric_align import names_a_skipped_item, possible_warnings

    gold = [pair("g1", "a b", "c d", [(0, 0)]), pair("g2", "e f", "g h", [(1, 1)])]
    system = [pair("s1", "a b", "c d", [(0, 0)]), pair("s2", "e f", "g WRONG", [(1, 1)])]
    groups = {"solo": [pair("solo.1", "same words", "same words", [(0, 0), (1, 1)])], "d.1": GROUP,
              "e": [pair("e.1", "a b", "c d", [(0, 0)]), pair("e.2", "x y", "z w", [(0, 0)])]}
    table = ParaphraseTable.from_pairs([("quit", "resigned")])
    pair_skipped, = align_scores(gold, system).warnings
    group_skipped, no_hub = table_scores(groups, table, sentences="hub").warnings
    assert no_hub.startswith("1 group has no sentence common")
    assert names_a_skipped_item(pair_skipped) and names_a_skipped_item(group_skipped)
    assert not names_a_skipped_item(no_hub)
    assert not any(map(names_a_skipped_item, possible_warnings(gold, "sure+possible", "pair 1.jsonl")))


def reference_table(groups) -> ParaphraseTable:
    """A table holding exactly the groups' reference paraphrases."""
    table = ParaphraseTable("refs")
    for pairs in groups.values():
        for phrases in reference_paraphrases(pairs).values():
            for p, qs in phrases.items():
                for q in qs:
                    table.add(p, q)
    return table


@settings(max_examples=50, deadline=None)
@given(st.lists(aligned_pairs(), min_size=1, max_size=4))
def test_reference_table_has_full_relative_recall(items):
    groups = {f"g{k}": [g] for k, (g, _) in enumerate(items)}
    if all(len(group_sentences(pairs)) < 2 for pairs in groups.values()):  # nothing to score: refused
        with pytest.raises(EmptyScoringError, match="no group could be scored"):
            table_scores(groups, reference_table(groups))
        return
    result = table_scores(groups, reference_table(groups))
    assert result.overall.correct == result.overall.reference
    if result.overall.reference:
        assert result.rel_recall == 1.0


# -- real data (subsets) -------------------------------------------------------------------------
def test_mtreference_subset(data):
    root = data / "alignment" / "mtreference"
    gold = load_pairs(root / "mt-reference.test.json")[:200]
    giza = load_pairs(root / "baselines" / "mt-reference.test.giza.json")[:200]
    result = align_scores(gold, giza)
    assert result.warnings == () and result.pairs == 200
    assert 0 < result.precision < 1 and 0 < result.recall < 1
    perfect = align_scores(gold, gold)
    assert perfect.precision == perfect.recall == 1.0
    groups: dict[str, list[AlignedPair]] = {}
    for item in gold:
        groups.setdefault(group_key(item.id), []).append(item)
    assert len(groups) < len(gold)
    scores = table_scores(groups, reference_table(groups))
    assert scores.rel_recall == 1.0 and scores.overall.reference > 1000
    assert scores.lb_precision is not None and 0 < scores.lb_precision <= 1


def test_edinburgh_giza_is_lowercased_but_matches(data):
    root = data / "alignment" / "edinburgh-pp"
    gold = load_pairs(root / "gold" / "gold.test.sure.json")[:60]
    giza = load_pairs(root / "baselines" / "giza" / "edinburgh.align.giza.intersect.json")[:60]
    assert any(g.source != s.source for g, s in zip(gold, giza, strict=True))
    assert align_scores(gold, giza).warnings == ()


# -- files: bad gold items and display names ---------------------------------------------------
def test_table_scores_files_skips_bad_gold_items_and_load_groups_stays_strict(tmp_path):
    from paralign.corpora import load_groups, read_groups
    from paralign.errors import FormatError
    from paralign.metrics.alignment_scores import EmptyScoringError
    from paralign.metrics.parametric import align_scores_files, table_scores_files

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "d.1.a", "source": "he quit", "target": "he left", "sure": "0-0 1-1"}\n'
                    '{"id": "d.1.b", "source": "he quit", "target": "he went", "sure": "0-0 9-9"}\n'
                    '{"id": "d.1.c", "source": "he quit", "target": "he resigned", "sure": "0-0 1-1"}\n',
                    encoding="utf-8")
    groups, bad = read_groups(gold, name="<stdin>")
    assert [p.id for p in groups["d.1"]] == ["d.1.a", "d.1.c"]
    assert [(n, b.source, b.line) for n, b in bad] == [(2, "<stdin>", 2)]
    with pytest.raises(FormatError, match=r"gold\.jsonl:2:"):
        load_groups(gold)
    table = ParaphraseTable.from_pairs([("quit", "left"), ("quit", "went")], name="t")
    result = table_scores_files(gold, table, gold_name="<stdin>", table_name="<pipe>")
    assert result.source == "<pipe>" and result.overall.correct == 1 and result.overall.posited == 2
    assert [(k.pair, k.source, k.line) for k in result.skipped_rows] == [(2, "<stdin>", 2)]
    assert result.to_dict()["skipped_rows"][0]["file"] == "<stdin>"
    assert result.warnings[0].startswith("pair 2 (gold id 'd.1.b'): <stdin>:2: ")  # the reader's id
    only_bad = tmp_path / "bad.jsonl"
    only_bad.write_text('{"id": "x.1", "source": "a", "target": "b", "sure": "3-3"}\n', encoding="utf-8")
    with pytest.raises(EmptyScoringError, match=r"bad\.jsonl: no gold pair could be read"):
        table_scores_files(only_bad, table)
    with pytest.raises(EmptyScoringError, match=r"<g> / <s>: no pair could be scored"):
        align_scores_files(only_bad, only_bad, gold_name="<g>", system_name="<s>")


def test_align_scores_files_runs_an_aligner_on_the_good_gold_pairs(tmp_path):
    """`system` may be an aligner of token-list pairs (what `--system sultan` becomes in the CLI):
    it gets the readable gold pairs only, with workers and progress, and a bad gold item is
    skipped as with a system file."""
    from paralign.alignment import Alignment
    from paralign.metrics.alignment_scores import EmptyScoringError
    from paralign.metrics.parametric import align_scores_files

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "d.1.a", "source": "he quit", "target": "he left", "sure": "0-0 1-1"}\n'
                    '{"id": "d.1.b", "source": "he quit", "target": "he went", "sure": "0-0 9-9"}\n'
                    '{"id": "d.1.c", "source": "he quit", "target": "he resigned", "sure": "0-0"}\n',
                    encoding="utf-8")
    calls = []

    def diagonal(pairs, *, workers, progress):
        calls.append((list(pairs), workers, progress))
        return [Alignment.from_links([(i, i) for i in range(len(s))]) for s, _ in pairs]

    result = align_scores_files(gold, diagonal, workers=3, progress=list)
    assert calls == [([(("he", "quit"), ("he", "left")), (("he", "quit"), ("he", "resigned"))], 3, list)]
    assert result.pairs == 2 and result.skipped == 1 and result.skipped_rows[0].pair == 2
    assert (result.by_length[1].matched, result.by_length[1].system, result.by_length[1].gold) == (1, 2, 1)
    only_bad = tmp_path / "bad.jsonl"
    only_bad.write_text('{"id": "x.1", "source": "a", "target": "b", "sure": "3-3"}\n', encoding="utf-8")
    with pytest.raises(EmptyScoringError, match=r"<g> / sultan: no pair could be scored"):
        align_scores_files(only_bad, diagonal, gold_name="<g>", system_name="sultan")


# -- signatures ----------------------------------------------------------------------------------
def _parts(signature: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in signature.split("|"))


def test_align_signature_names_the_system_file_by_content_and_every_setting(tmp_path):
    from paralign.metrics.parametric import align_scores_files

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "d.1.a", "source": "he quit", "target": "he left", "sure": "0-0 1-1"}\n',
                    encoding="utf-8")
    system = tmp_path / "out.pharaoh"
    system.write_text("0-0 1-1\n", encoding="utf-8")
    first = align_scores_files(gold, system, 3).signature
    assert first is not None and first.endswith(f"|version:{__version__}")
    found = _parts(first)
    assert found["system"].startswith("out.pharaoh#") and len(found["system"].split("#")[1]) == 8
    assert (found["gold"], found["maxlen"], found["tight"]) == ("sure", "3", "no")
    assert align_scores_files(gold, system, 3).to_dict()["signature"] == first
    system.write_text("0-0\n", encoding="utf-8")  # same name, other links: another hash
    second = _parts(align_scores_files(gold, system, 3, tight=True).signature)
    assert second["system"] != found["system"] and second["tight"] == "yes"
    assert _parts(align_scores_files(gold, system, system_name="<stdin>").signature)["system"] == \
        "<stdin>#" + second["system"].split("#")[1]
    system.write_bytes(b"\xef\xbb\xbf0-0\r\n")  # the same links, written otherwise: the same hash
    assert _parts(align_scores_files(gold, system, 3, tight=True).signature) == second


def test_align_signature_of_an_aligner_records_what_its_caller_says_of_it(tmp_path):
    from paralign.alignment import Alignment
    from paralign.metrics.parametric import align_scores_files
    from paralign.metrics.parametric_align import align_signature

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "d.1.a", "source": "he quit", "target": "he left", "sure": "0-0 1-1"}\n',
                    encoding="utf-8")

    def diagonal(pairs, *, workers, progress):
        return [Alignment.from_links([(i, i) for i in range(len(s))]) for s, _ in pairs]

    assert _parts(align_scores_files(gold, diagonal).signature)["system"] == diagonal.__qualname__
    parts = {"aligner": "mine", "spacy": "model-1", "sim": "none"}
    signed = align_scores_files(gold, diagonal, links="sure+possible", system_parts=parts).signature
    assert signed == align_signature(parts, links="sure+possible", max_length=5, tight=False)
    assert list(_parts(signed)) == ["aligner", "sim", "gold", "possible", "maxlen", "tight", "spacy", "version"]
    assert _parts(signed)["gold"] == "sure+possible"


def test_table_signature_names_the_table_by_content_threshold_and_filters(tmp_path):
    from paralign.metrics.parametric import table_scores_files

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "d.1.a", "source": "he quit", "target": "he left", "sure": "0-0 1-1"}\n'
                    '{"id": "d.1.b", "source": "he quit", "target": "he went", "sure": "0-0 1-1"}\n',
                    encoding="utf-8")
    table = tmp_path / "words.tsv"
    table.write_text("quit\tleft\t0.5\nquit\twent\t0.2\n", encoding="utf-8")
    plain = _parts(table_scores_files(gold, str(table)).signature)
    assert plain["table"].startswith("words.tsv#") and plain["gold"] == "sure" and plain["maxlen"] == "5"
    assert (plain["sentences"], plain["only_referenced"], plain["tight"]) == ("all", "no", "no")
    cut = _parts(table_scores_files(gold, f"{table}:0.3", 2, only_referenced=True, sentences="hub").signature)
    assert cut["table"].startswith("words.tsv:0.3#") and cut["table"].split("#")[1] != plain["table"].split("#")[1]
    assert (cut["maxlen"], cut["sentences"], cut["only_referenced"]) == ("2", "hub", "yes")
    table.write_text("quit\tleft\t0.5\n", encoding="utf-8")
    again = _parts(table_scores_files(gold, str(table), table_name="<stdin>").signature)
    assert again["table"].startswith("<stdin>#") and again["table"].split("#")[1] != plain["table"].split("#")[1]


def test_arguments_of_the_wrong_kind_are_named() -> None:
    """API audit (second pass): each was an AttributeError from inside the scoring."""
    from pathlib import Path

    from paralign.corpora import load_groups
    from paralign.errors import InputTypeError

    gold_path = Path(__file__).resolve().parents[2] / "examples" / "alignment" / "gold.json"
    gold = load_pairs(gold_path)
    with pytest.raises(InputTypeError, match="system: item 1 is str '0-0', not a pair or an Alignment"):
        align_scores(gold, ["0-0"] * len(gold))
    with pytest.raises(InputTypeError, match=r"system: item 1 is str '(0-0 ){9}\.\.\., not a pair"):
        align_scores(gold, ["0-0 " * 20] * len(gold))  # a long value: cut and marked (errors.shown_value)
    with pytest.raises(InputTypeError, match="source must be a paraphrase source .*not str"):
        table_scores(load_groups(gold_path), "t.tsv")
    with pytest.raises(InputTypeError, match=r"groups must map a group id to its pairs \(load_groups\), not list"):
        table_scores(gold, ParaphraseTable())


def test_a_table_that_pivot_built_is_asked_for_each_phrase_as_its_tokenizer_split_it(tmp_path):
    """pivot's regex tokenizer holds man's as "man 's": a gold whose tokens hold man's posited
    nothing from a table it built that relates "man 's" to "guy 's" (`parametric table` said 0
    posited, 0 correct), where `paraphrases`, serve and ParaEval find the rows. The gold's
    phrases and their reference paraphrases are now asked for as the table's tokenizer splits
    them; the same rows without pivot's record (a user's TSV) are matched as written, and the
    signature tells the two apart (~regex, as ParaEval's)."""
    from paralign.metrics.parametric import table_scores_files

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "g.1", "source": "the man\'s dog", "target": "the guy\'s dog", "sure": "0-0 1-1 2-2"}\n',
                    encoding="utf-8")
    rows = "man 's\tguy 's\t0.5\nman 's\tthe guy 's\t0.25\nguy 's\tman 's\t0.5\n"
    built = tmp_path / "t.tsv"
    built.write_text('# paralign: {"kind": "pivot", "options": {"tokenizer": "regex", "lowercase": true}}\n' + rows,
                     encoding="utf-8")
    plain = tmp_path / "u.tsv"
    plain.write_text(rows, encoding="utf-8")
    found = table_scores_files(gold, str(built))
    # man's: guy 's (the reference guy's, as the table holds it) and the guy 's; guy's: man 's
    assert (found.overall.posited, found.overall.correct, found.overall.reference) == (3, 2, 8)
    assert _parts(found.signature)["table"].startswith("t.tsv~regex#")
    user = table_scores_files(gold, str(plain))
    assert (user.overall.posited, user.overall.correct) == (0, 0)
    assert _parts(user.signature)["table"].startswith("u.tsv#")


def test_a_table_built_with_keep_case_is_matched_folded_as_the_gold_is_lower_cased(tmp_path):
    """A table built with --keep-case holds US -> America with its case, and is matched so by
    `paraphrases`, serve and the aligners; ParaMetric's phrases are lower-cased (the gold's us),
    so it found none of its rows. It matches such a table folded (its rows of US found for us),
    and names the folded rows in its signature, without 'cased'."""
    from paralign.metrics.parametric import table_scores_files

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "g.1", "source": "The US won", "target": "The America won", "sure": "0-0 1-1 2-2"}\n',
                    encoding="utf-8")
    table = tmp_path / "t.tsv"
    table.write_text('# paralign: {"kind": "pivot", "options": {"tokenizer": "regex", "lowercase": false}}\n'
                     "US\tAmerica\t0.5\nAmerica\tUS\t0.5\nus\twe\t0.5\n", encoding="utf-8")
    found = table_scores_files(gold, str(table))
    # us: america (the reference) and we; america: us (the reference)
    assert (found.overall.posited, found.overall.correct) == (3, 2)
    assert _parts(found.signature)["table"].startswith("t.tsv~regex#")


def test_a_group_that_is_not_a_list_of_gold_pairs_is_an_input_type_error() -> None:
    """API audit: `table_scores({'g': 'x'}, table)` (or a group holding None) was "'str' object
    has no attribute 'source'" from inside; every group is checked before any is scored."""
    from paralign.errors import InputTypeError

    table = ParaphraseTable.from_pairs([("the", "a", 0.5)])
    with pytest.raises(InputTypeError, match="group 'g' must be a list of gold pairs .load_pairs reads them., not str"):
        table_scores({"g": "x"}, table)
    with pytest.raises(InputTypeError, match="group 'g': item 1 is NoneType None, not a gold pair"):
        table_scores({"g": [None]}, table)


def test_a_table_none_of_whose_phrases_the_gold_holds_says_so(tmp_path):
    """A user's table tokenised otherwise than the gold (its rows of "man's hat" where the gold's
    tokens are "man 's hat"), an empty table, or a threshold that keeps no row, scored posited 0,
    LB-Precision n/a and Rel-Recall 0 with no word of why (exit 0, no warning). One warning now
    says that no phrase of the gold's sentences has a paraphrase in the table, with a phrase of
    each side to compare, or that the table holds none; a table that matches says nothing."""
    group = {"d.1": [pair("d.1.x", "the man 's hat is red .", "his hat is crimson .",
                          [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (5, 3), (6, 4)])]}
    untokenised = table_scores(group, ParaphraseTable.from_pairs([("man's hat", "his hat"), ("red.", "crimson.")]))
    assert untokenised.overall.posited == 0 and untokenised.overall.reference > 0
    (warning,) = untokenised.warnings
    assert "no phrase of the gold's sentences" in warning and "tokenised otherwise" in warning
    assert "tokens: \"the man 's hat is red .\"" in warning and "table's: \"man's hat\"" in warning
    (empty,) = table_scores(group, ParaphraseTable("t.tsv")).warnings
    assert "the table holds no paraphrase" in empty
    (tmp_path / "t.tsv").write_text("red\tcrimson\t0.2\n", encoding="utf-8")
    kept_none = ParaphraseTable.from_tsv(tmp_path / "t.tsv", threshold=0.5)
    (warning,) = table_scores(group, kept_none).warnings
    assert "the table holds no paraphrase" in warning and "0.5" in warning
    assert table_scores(group, ParaphraseTable.from_pairs([("red", "scarlet")])).warnings == ()


def test_a_table_that_splits_the_gold_s_phrases_otherwise_says_how_many_it_misses():
    """A user's table of untokenised rows ("man's hat", "red.") beside rows that match ("hat")
    scored the rows that match and never asked for the others, as the gold splits them
    ("man 's hat", "red ."), without a word: posited and correct silently short. A warning now
    counts the phrases of the gold's sentences that the table holds split otherwise, with one;
    so too a gold of untokenised text ("man's") beside a tokenised table ("man 's"). A table
    whose rows are split as the gold's (or that pivot built, asked as its tokenizer splits
    them) has none."""
    tokenised = {"d.1": [pair("d.1.x", "the man 's hat is red .", "his hat is crimson .",
                              [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (5, 3), (6, 4)])]}
    glued = ParaphraseTable.from_pairs([("man's hat", "his hat"), ("red.", "crimson."), ("hat", "cap")])
    result = table_scores(tokenised, glued)
    assert result.overall.posited == 2  # hat -> cap, in both sentences
    (warning,) = result.warnings
    assert warning.startswith("2 phrases of the gold's sentences are in the table only split otherwise")
    assert "('red .' as 'red.')" in warning  # the shortest shown
    raw = {"d.1": [pair("d.1.x", "the man's hat is red", "his hat is crimson", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3)])]}
    split = ParaphraseTable.from_pairs([("man 's hat", "his hat"), ("hat", "cap")])
    (warning,) = table_scores(raw, split).warnings
    assert warning.startswith("1 phrase of the gold's sentences is in the table only split otherwise")
    assert "\"man's hat\" as \"man 's hat\"" in warning
    assert table_scores(tokenised, ParaphraseTable.from_pairs([("man 's hat", "his hat"), ("red .", "crimson .")])).warnings == ()
    # a few such rows among many found (PPDB's "2." beside the gold's "2 ."): no warning
    words = [f"w{k}" for k in range(60)]
    many = {"d.2": [pair("d.2.x", " ".join([*words, "red", "."]), " ".join([*words, "crimson", "."]),
                         [(k, k) for k in range(62)])]}
    few = ParaphraseTable.from_pairs([*((w, f"{w}x") for w in words), ("red.", "crimson.")])
    assert table_scores(many, few).warnings == ()  # 1 of 61: under 2%
    fewer = ParaphraseTable.from_pairs([*((w, f"{w}x") for w in words[:20]), ("red.", "crimson.")])
    (warning,) = table_scores(many, fewer).warnings  # 1 of 21
    assert warning.startswith("1 phrase of the gold's sentences is in the table only split otherwise ('red .'")


def test_a_built_table_s_paraphrases_of_the_gold_s_words_count_at_the_gold_s_lengths(tmp_path):
    """A gold of untokenised text ("the doctor's car") scored with a table that pivot built
    (regex tokens: "doctor 's" -> "physician 's") counted each posited paraphrase by the table's
    tokens: the reference doctor's <-> physician's (1 word each) was found, but counted under
    "Length <= 2", so "Length = 1" read reference 2, posited 0, correct 0 (Rel-Recall 0). A
    paraphrase that is a reference paraphrase now counts at the reference's length in the
    gold's words, as the reference counts it: Length = 1 is 2 of 2."""
    from paralign.metrics.parametric import table_scores_files

    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "g.1", "source": "the doctor\'s car", "target": "the physician\'s car", '
                    '"sure": "0-0 1-1 2-2"}\n', encoding="utf-8")
    table = tmp_path / "t.tsv"
    table.write_text('# paralign: {"kind": "pivot", "options": {"tokenizer": "regex", "lowercase": true}}\n'
                     "doctor 's\tphysician 's\t0.5\nphysician 's\tdoctor 's\t0.5\n"
                     "doctor 's car\tphysician 's car\t0.5\ndoctor 's\tmedic\t0.1\n", encoding="utf-8")
    result = table_scores_files(gold, str(table))
    one, two = result.by_length[1], result.by_length[2]
    assert (one.posited, one.correct, one.reference) == (3, 2, 2)  # medic: 1 word, not a reference
    assert (two.posited, two.correct) == (4, 3) and one.rel_recall == 1.0


def test_a_table_asked_for_no_phrase_gives_no_split_otherwise_warning():
    """With --only-referenced and a gold without a reference paraphrase, no phrase is asked for:
    the split-otherwise check has nothing to count and says nothing (no error)."""
    same = {"d.1": [pair("d.1.x", "a b", "c d", [])]}  # no link: no reference paraphrase
    result = table_scores(same, ParaphraseTable.from_pairs([("a", "x")]), only_referenced=True)
    assert result.overall.posited == 0 and result.warnings == ()
