"""Word lattices (Pang et al. 2003): invariants (property tests), operations vs brute force,
merging with keyword checking, bad input, the MSA baseline, the LM and the evaluations."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paralign.errors import ParalignError
from paralign.lattice import (
    ForestNode,
    GroupLattices,
    Lattice,
    LatticeBuilder,
    LatticeError,
    LatticeOptions,
    Merger,
    NGramLM,
    Tree,
    chain,
    edit_distance,
    evaluate_group,
    lattice_from_trees,
    msa_lattice,
    parse_tree,
    projective_heads,
    word_edit_distance,
)
from paralign.lattice.build import forest_to_builder
from paralign.lattice.evaluate import repetition_ratios, single_use_words
from paralign.sentence import Sentence

VOCAB = ["the", "a", "people", "persons", "died", "killed", "battle", "fight", "week", "last", "in", "."]
POS = ["DET", "NOUN", "VERB", "ADJ", "ADP", "ADV", "AUX", "PUNCT", "PRON"]
DEPS = ["nsubj", "dobj", "prep", "pobj", "det", "amod", "mark", "punct", "advmod"]


@st.composite
def sentences(draw, max_len: int = 7) -> Sentence:
    """Random annotated sentences with arbitrary (even cyclic or non-projective) heads."""
    n = draw(st.integers(1, max_len))
    tokens = draw(st.lists(st.sampled_from(VOCAB), min_size=n, max_size=n))
    pos = draw(st.lists(st.sampled_from(POS), min_size=n, max_size=n))
    deps = draw(st.lists(st.sampled_from(DEPS), min_size=n, max_size=n))
    heads = draw(st.lists(st.integers(-1, n - 1), min_size=n, max_size=n))
    return Sentence(tuple(tokens), tags=tuple(pos), pos=tuple(pos), heads=tuple(heads), deps=tuple(deps))


groups = st.lists(sentences(), min_size=1, max_size=4)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def syntax_lattice(group: list[Sentence], **kw) -> Lattice:
    return lattice_from_trees([parse_tree(s) for s in group], **kw)


def split(text: str) -> list[str]:
    return text.split()


def brute_distance(lattice: Lattice, tokens: list[str]) -> int:
    return min(word_edit_distance(tokens, p) for p in lattice.paths())


# --- trees -----------------------------------------------------------------------------------
@FAST
@given(sentences(max_len=12))
def test_tree_yield_is_the_sentence(sentence):
    tree = parse_tree(sentence)
    assert tree.label == "ROOT"
    assert tree.leaves() == list(sentence.tokens)


@FAST
@given(st.lists(st.integers(-1, 9), min_size=1, max_size=10))
def test_projective_heads_are_acyclic_and_projective(heads):
    fixed = projective_heads(heads)
    n = len(fixed)
    for d, h in enumerate(fixed):
        seen, k = set(), d
        while k != -1:  # no cycle
            assert k not in seen
            seen.add(k)
            k = fixed[k]
        if h != -1:  # every token between d and h is dominated by h
            for m in range(min(d, h) + 1, max(d, h)):
                k = m
                while k not in (-1, h):
                    k = fixed[k]
                assert k == h, (fixed, d, h, m, n)


def test_tree_of_a_real_parse(nlp_annotator):
    s = nlp_annotator("Twelve people were killed in the battle last week.")
    tree = parse_tree(s, lowercase=True)
    labels = {node.label for node in tree.nodes()}
    assert {"ROOT", "S", "NP", "VP", "PP"} <= labels
    assert tree.leaves() == [t.lower() for t in s.tokens]
    assert "battle" in tree.keywords and "the" not in tree.keywords


# --- invariants of the lattice ---------------------------------------------------------------
@FAST
@given(groups, st.booleans(), st.booleans(), st.integers(0, 3))
def test_every_input_is_a_path(group, keyword_check, squeeze, max_gaps):
    lattice = syntax_lattice(group, keyword_check=keyword_check, squeeze=squeeze, max_gaps=max_gaps)
    for s in group:
        assert lattice.accepts(list(s.tokens))
    assert all(s < d for s, _, d in lattice.edges)  # topological numbering = acyclic


@FAST
@given(groups)
def test_squeezing_keeps_paths_and_acyclicity(group):
    forest = Merger().merge_all([parse_tree(s) for s in group])
    plain = forest_to_builder(forest).freeze()
    builder = forest_to_builder(forest)
    builder.squeeze()
    squeezed = builder.freeze()  # raises LatticeError on a cycle
    assert set(plain.paths()) <= set(squeezed.paths())
    assert squeezed.n_states <= plain.n_states
    # exhaustive: no state has two same-word edges to two different states that could merge
    out: dict[tuple[int, str | None], set[int]] = {}
    for s, w, d in squeezed.edges:
        out.setdefault((s, w), set()).add(d)
    rebuilt = LatticeBuilder.from_lattice(squeezed)
    assert rebuilt.squeeze() == 0


@FAST
@given(groups, st.integers(0, 2))
def test_path_count_matches_enumeration(group, max_gaps):
    lattice = syntax_lattice(group, max_gaps=max_gaps)
    paths = list(lattice.paths())
    assert lattice.path_count() == len(paths)


@FAST
@given(groups, st.lists(st.sampled_from([*VOCAB, "zebra"]), max_size=8), st.integers(0, 2))
def test_edit_distance_matches_brute_force(group, tokens, max_gaps):
    lattice = syntax_lattice(group, max_gaps=max_gaps)
    assert lattice.distance(tokens) == brute_distance(lattice, tokens)
    assert edit_distance._distance_rows(lattice, tokens, 1) == lattice.distance(tokens)
    for sub_cost in (1, 2):  # the numpy DP, in blocks of 1 and 2 states, as the Python one
        for block in (1, 2):
            assert edit_distance._align_blocks(lattice, tokens, sub_cost, block) == lattice.align(tokens, sub_cost=sub_cost)
    cost, ops = lattice.align(tokens)
    assert cost == lattice.distance(tokens)
    assert [op.token for op in ops if op.token is not None] == list(range(len(tokens)))
    edges = [lattice.edges[op.edge] for op in ops if op.edge is not None]
    assert edges[0][0] == 0 and edges[-1][2] == lattice.end if edges else lattice.n_states == 1
    assert all(a[2] == b[0] for a, b in itertools.pairwise(edges))  # a connected path


def _levenshtein(a: list[str], b: list[str]) -> int:
    """Word edit distance by the textbook full table, the reference of word_edit_distance."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i, j in itertools.product(range(1, len(a) + 1), range(1, len(b) + 1)):
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return table[-1][-1]


@pytest.mark.parametrize(("m", "n"), [(0, 90), (64, 200), (65, 65), (66, 150), (150, 66), (120, 3)])
def test_word_edit_distance_of_long_sentences_is_levenshtein(m: int, n: int) -> None:
    """Long sentences are measured through a one-path lattice's numpy DP: the same distance, the
    shorter sentence given first or second."""
    rng = random.Random(m * 1000 + n)
    a, b = ([rng.choice(VOCAB[:4]) for _ in range(k)] for k in (m, n))
    assert word_edit_distance(a, b) == word_edit_distance(b, a) == _levenshtein(a, b)


@pytest.mark.timeout(8)
def test_word_edit_distance_of_two_6000_word_sentences_takes_a_second_not_a_minute() -> None:
    """`lattice build --method msa` of two lines of 10,000 words ran for minutes: the guide order's
    distance between the two sentences was a pure-Python DP of 10**8 cells (two of 4,000 words:
    20 s). Long sentences go through the numpy DP the lattice distance uses."""
    rng = random.Random(6000)
    a, b = ([rng.choice(VOCAB) for _ in range(6000)] for _ in range(2))
    assert 0 < word_edit_distance(a, b) <= 6000
    assert word_edit_distance(a, a) == 0


@FAST
@given(st.lists(st.lists(st.sampled_from(VOCAB), max_size=7), min_size=1, max_size=4))
def test_msa_every_input_is_a_path(token_lists):
    lattice = msa_lattice(token_lists)
    for tokens in token_lists:
        assert lattice.accepts(tokens)


@FAST
@given(groups)
def test_repetition_counts_match_enumeration(group):
    lattice = syntax_lattice(group)
    paths = list(lattice.paths())
    for w in {w for _, w, _ in lattice.edges if w is not None}:
        with_w, twice = lattice.repetition_counts(w)
        assert with_w == sum(w in p for p in paths)
        assert twice == sum(p.count(w) >= 2 for p in paths)


@FAST
@given(groups, st.integers(1, 6))
def test_kbest_and_sample_are_paths(group, k):
    lattice = syntax_lattice(group).with_weights([list(s.tokens) for s in group])
    paths = set(lattice.paths())
    best = lattice.kbest(k)
    assert len(best) == min(k, lattice.path_count())
    assert [lp for lp, _ in best] == sorted((lp for lp, _ in best), reverse=True)
    assert all(words in paths for _, words in best)
    assert all(p in paths for p in lattice.sample(5, seed=3))
    assert all(p in paths for p in lattice.sample(5, seed=3, uniform=False))


def test_kbest_is_exact_on_a_small_lattice():
    lattice = syntax_lattice([Sentence.plain(["a", "b"]), Sentence.plain(["a", "c"])])
    lp = lattice._edge_logprob()
    scored = sorted(
        (sum(lp[e] for e in path), words) for path, words in _edge_paths(lattice)
    )[::-1]
    assert [w for _, w in lattice.kbest(10)] == [w for _, w in scored]


def _edge_paths(lattice: Lattice):
    def walk(s, edges):
        if s == lattice.end:
            yield edges, tuple(lattice.edges[e][1] for e in edges if lattice.edges[e][1] is not None)
        for e in lattice.out_edges(s):
            yield from walk(lattice.edges[e][2], [*edges, e])

    yield from walk(0, [])


# --- merging ---------------------------------------------------------------------------------
def leaf(word: str, pos: str) -> Tree:
    keywords = frozenset({word}) if pos in ("NOUN", "VERB", "ADJ") else frozenset()
    return Tree(pos, word=word, keywords=keywords)


def node(label: str, *children: Tree) -> Tree:
    return Tree(label, children, keywords=frozenset().union(*(c.keywords for c in children)))


def np_(*words: str) -> Tree:
    return node("NP", *(leaf(w, "DET" if w == "the" else "NOUN") for w in words))


# the paper's example: "people killed in the battle" vs "the battle killed people"
PEOPLE_FIRST = node("ROOT", node("S", np_("people"), node("VP", leaf("killed", "VERB"),
                                                          node("PP", leaf("in", "ADP"), np_("the", "battle")))))
BATTLE_FIRST = node("ROOT", node("S", np_("the", "battle"), node("VP", leaf("killed", "VERB"), np_("people"))))


def test_keyword_checking_prevents_the_wrong_merge():
    checked = lattice_from_trees([PEOPLE_FIRST, BATTLE_FIRST])
    unchecked = lattice_from_trees([PEOPLE_FIRST, BATTLE_FIRST], keyword_check=False)
    tokens = [t.leaves() for t in (PEOPLE_FIRST, BATTLE_FIRST)]
    assert not any(repetition_ratios(checked, tokens))
    assert any(repetition_ratios(unchecked, tokens))  # e.g. "the battle killed in the battle"
    assert ("the", "battle", "killed", "in", "the", "battle") in set(unchecked.paths())


def test_same_expansion_merges_words():
    a = node("ROOT", node("S", np_("people"), node("VP", leaf("died", "VERB"))))
    b = node("ROOT", node("S", np_("persons"), node("VP", leaf("perished", "VERB"))))
    lattice = lattice_from_trees([a, b])
    assert lattice.path_count() == 4
    assert ("persons", "died") in set(lattice.paths())
    assert lattice.paraphrase_pairs() >= {("people", "persons"), ("died", "perished")}


def test_relaxed_merging_makes_children_optional():
    a = node("ROOT", node("S", np_("people"), node("VP", leaf("were", "AUX"), leaf("killed", "VERB"))))
    b = node("ROOT", node("S", np_("persons"), node("VP", leaf("died", "VERB"))))
    strict = lattice_from_trees([a, b])
    relaxed = lattice_from_trees([a, b], max_gaps=1)
    assert ("persons", "were", "died") not in set(strict.paths())
    assert {("persons", "were", "died"), ("people", "killed")} <= set(relaxed.paths())
    assert relaxed.accepts(["people", "were", "killed"]) and relaxed.accepts(["persons", "died"])
    merger = Merger(max_gaps=1)
    alt = [ForestNode.from_tree(leaf("fighting", "VERB"))]
    assert merger._relaxed_pairs(alt, (leaf("fighting", "VERB"), np_("battle"))) == [(0, 0)]
    # an unaligned child sharing a keyword with the other side would repeat it: refused
    assert merger._relaxed_pairs(alt, (leaf("fighting", "VERB"), np_("fighting"))) is None
    assert Merger(max_gaps=1)._relaxed_pairs(alt, (leaf("a", "DET"), np_("x"), np_("y"))) is None


def test_synonyms_count_as_shared_keywords():
    a = node("ROOT", node("S", np_("men"), node("VP", leaf("died", "VERB"), node("PP", leaf("in", "ADP"), np_("the", "battle")))))
    b = node("ROOT", node("S", np_("the", "fight"), node("VP", leaf("killed", "VERB"), np_("soldiers"))))
    plain = Merger().merge_all([a, b])
    assert len(plain.alternatives) == 1  # merged at S: NP NP and VP VP pair up
    syn = Merger(synonyms=lambda w: {"fight": {"battle"}, "battle": {"fight"}}.get(w, set())).merge_all([a, b])
    assert len(syn.alternatives[0][0].alternatives) == 2  # S kept apart: the fight ~ the battle


def test_wordnet_option(data):
    lattice_wn = GroupLattices(
        [Sentence.plain(["x"])], LatticeOptions(wordnet=True)
    )._synonyms
    assert "battle" in set(lattice_wn("fight"))


# --- bad input -------------------------------------------------------------------------------
def test_group_of_one_sentence_is_one_path():
    lattice = syntax_lattice([Sentence.plain(["only", "one", "sentence", "."])])
    assert lattice.path_count() == 1
    assert list(lattice.paths()) == [("only", "one", "sentence", ".")]
    result = evaluate_group("g", [Sentence.plain(["only", "one"])], leave_one_out=True)
    assert result.paths == 1 and result.ed_input == ()


def test_empty_sentences():
    empty = Sentence.plain([])
    lattice = syntax_lattice([empty])
    assert lattice.path_count() == 1 and lattice.accepts([])
    assert lattice.distance(["a", "b"]) == 2
    mixed = syntax_lattice([empty, Sentence.plain(["a", "b"])])
    assert mixed.accepts([]) and mixed.accepts(["a", "b"]) and mixed.path_count() == 2
    assert msa_lattice([[], ["a"]]).accepts([])
    assert chain([]).distance([]) == 0


def test_identical_sentences():
    s = Sentence.plain(["the", "same", "words"])
    lattice = syntax_lattice([s, s, s])
    assert lattice.path_count() == 1
    g = GroupLattices([s, s, Sentence.plain(["The", "same", "words"])])
    assert len(g) == 1  # collapsed after lower-casing
    assert msa_lattice([list(s.tokens)] * 3).path_count() == 1


def test_long_sentences(nlp_annotator):
    words = split("the people of the city said that the fighting in the north killed many soldiers "
                  "and that the army would send more troops next week , officials said")
    long_a = (words * 8)[:200]
    long_b = (words[3:] * 8)[:200]
    group = list(nlp_annotator.pipe([long_a, long_b]))
    for options in (LatticeOptions(), LatticeOptions(method="msa")):
        g = GroupLattices(group, options)
        lattice = g.lattice()
        assert lattice.accepts(long_a) and lattice.accepts(long_b)
        assert 0 < lattice.distance(long_a[:150]) <= 50
    result = evaluate_group("long", group, leave_one_out=True)
    assert result.ed_lattice[0] <= result.ed_input[0]


def test_huge_path_counts_are_exact_and_bounded():
    b = LatticeBuilder()
    states = [b.start] + [b.new_state() for _ in range(59)] + [b.end]
    for k, (s, d) in enumerate(itertools.pairwise(states)):
        b.add_edge(s, f"w{k}", d)
        b.add_edge(s, f"v{k}", d)
    lattice = b.freeze()
    assert lattice.path_count() == 2**60 and math.isclose(lattice.log10_paths(), 60 * math.log10(2))
    assert len(lattice.sample(3, seed=1)[0]) == 60
    assert len(lattice.kbest(5)) == 5
    assert lattice.distance(["w0", "v1"]) == 58
    path = lattice.sample(1, seed=2)[0]
    assert lattice.distance([*path, *path[:10]]) == 10  # a long sentence: the frontier DP
    assert len(lattice.subpaths(max_length=5, limit=100)) > 0


def test_malformed_lattices_raise():
    with pytest.raises(LatticeError):
        Lattice(3, ((1, "a", 0),))
    b = LatticeBuilder()
    mid = b.new_state()
    b.add_edge(b.start, "a", mid)
    b.add_edge(mid, "b", b.end)
    b.add_edge(b.end, "c", mid)
    with pytest.raises(ParalignError):
        b.freeze()
    with pytest.raises(ParalignError):
        Lattice.from_dict({"states": 2, "edges": [[0, "a"]]}, source="x.json")


def test_round_trip_and_export():
    lattice = syntax_lattice([Sentence.plain(["a", "b"]), Sentence.plain(["a", 'q"x'])])
    assert Lattice.from_dict(lattice.to_dict()) == lattice
    dot = lattice.to_dot()
    assert dot.startswith('digraph "lattice"') and '\\"' in dot
    fst = lattice.to_openfst().splitlines()
    assert fst[-1] == str(lattice.end) and len(fst) == lattice.n_edges + 1


# --- baseline, LM, evaluation ----------------------------------------------------------------
def test_msa_repeats_words_on_reordering():
    a = split("twelve people died in the battle last week")
    b = split("last week the battle killed twelve people")
    lattice = msa_lattice([a, b])
    assert any(repetition_ratios(lattice, [a, b]))
    assert single_use_words([a, b]) == sorted(set(a) | set(b))


@FAST
@given(st.lists(st.lists(st.sampled_from(VOCAB[:6]), min_size=1, max_size=5), min_size=1, max_size=5),
       st.lists(st.sampled_from(VOCAB[:6]), max_size=2))
def test_lm_distributions_sum_to_one(corpus, history):
    lm = NGramLM(order=3).fit(corpus)
    vocab = set(VOCAB[:6]) | {"</s>"}
    known = {w for s in corpus for w in s} | {"</s>"}
    total = sum(lm.prob(w, history) for w in known) + lm.prob("<unseen>", history)
    assert math.isclose(total, 1.0, rel_tol=1e-9)
    assert all(lm.prob(w, history) > 0 for w in vocab)


def test_lm_prefers_seen_text():
    lm = NGramLM().fit([["the", "people", "died"], ["the", "people", "fled"]] * 5)
    assert lm.entropy(["the", "people", "died"]) < lm.entropy(["died", "people", "the"])


@FAST
@given(groups)
def test_lattice_never_predicts_worse_than_the_nearest_input(group):
    result = evaluate_group("g", group, leave_one_out=True)
    assert all(sa <= inp for sa, inp in zip(result.ed_lattice, result.ed_input, strict=True))


def test_library_errors_are_paralign_errors():
    from paralign.errors import ConfigurationError, FormatError, MismatchError
    from paralign.lattice import build_lattice, lattice_for_group, sample_groups

    with pytest.raises(FormatError):
        lattice_from_trees([])
    with pytest.raises(FormatError):
        build_lattice([])
    with pytest.raises(FormatError):
        msa_lattice([])
    with pytest.raises(FormatError, match="group g7"):
        evaluate_group("g7", [])
    with pytest.raises(FormatError):
        lattice_for_group([])
    leaf = Tree("NN", word="dog")
    phrase = Tree("NN", children=(Tree("DT", word="the"),))
    with pytest.raises(MismatchError):
        Merger().merge(ForestNode.from_tree(leaf), phrase)
    with pytest.raises(ConfigurationError):
        NGramLM(order=0)
    lattice = chain(["a", "b"])
    with pytest.raises(ConfigurationError):
        lattice.kbest(-1)
    with pytest.raises(ConfigurationError):
        lattice.sample(-3)
    with pytest.raises(ConfigurationError):
        sample_groups([1, 2], -1)
    assert lattice.kbest(0) == [] and lattice.sample(0) == [] and sample_groups([1, 2], 0) == []
    assert issubclass(FormatError, ValueError) and issubclass(MismatchError, ValueError)


def test_build_lattice_takes_texts_and_token_lists() -> None:
    from paralign import build_lattice

    texts = ["The cat sat on the mat .", "A cat was sitting on the mat ."]
    from_texts = build_lattice(texts)
    from_tokens = build_lattice([t.split() for t in texts])
    assert from_texts.path_count() == from_tokens.path_count() >= 2


@pytest.mark.parametrize(
    ("group", "message"),
    [
        ("a sentence", r"a group of sentences \(a list\), not one str 'a sentence'"),
        (None, r"a group of sentences \(a list\), not NoneType None"),
        (3, r"a group of sentences \(a list\), not int 3"),
        ([3, 4], r"sentence 1 is int 3, not a Sentence, a text or a token list"),
        (["a cat", None], r"sentence 2 is NoneType None, not a Sentence"),
        ([["a", 2]], r"sentence 1 is list \['a', 2\], not a Sentence"),
        (["a cat", "the \ud800 cat"], r"sentence 2: .*a lone surrogate, '\\ud800' at character 5"),
        (["a cat", ["a", "c\udcfft"]], r"sentence 2: .*a token list holding .*a lone surrogate"),
    ],
)
def test_build_lattice_refuses_a_wrong_type_with_input_type_error(group, message) -> None:
    """A value of the wrong type is an InputTypeError (a TypeError), as everywhere else in the
    library: build_lattice raised ConfigurationError for one str or a list of ints, and a bare
    "'NoneType' object is not iterable" for None or an int."""
    from paralign import build_lattice
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=message):
        build_lattice(group)  # type: ignore[arg-type]


def test_build_lattice_takes_a_generator_of_sentences() -> None:
    """The group was read twice, so a generator of two sentences was 'a lattice needs at least
    one sentence' (its first reading used it up)."""
    from paralign import build_lattice

    texts = ["The cat sat on the mat .", "A cat was sitting on the mat ."]
    assert build_lattice(t for t in texts) == build_lattice(texts)


def test_options_that_are_not_lattice_options_are_named() -> None:
    """build_lattice(group, options="msa") was "'str' object has no attribute 'lowercase'"."""
    from paralign import build_lattice
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=r"options must be a LatticeOptions .*, not str 'msa'"):
        build_lattice(["a cat", "the cat"], options="msa")  # type: ignore[arg-type]


def test_build_lattice_weighs_a_groups_distinct_sentences_as_lattice_for_group_does() -> None:
    """build_lattice weighted each edge by every sentence of the group, a repeated one as many
    times ([3, 3] for 'same thing' given three times), while lattice_for_group, which `paralign
    lattice build` and the app use, collapses identical sentences (after lower-casing, groups are
    sets of distinct translations) and gave [1, 1]: the library and the command disagreed on the
    same group. Both now give the weights of the distinct sentences."""
    from paralign import build_lattice
    from paralign.lattice import lattice_for_group
    from paralign.nlp import annotate_many

    group = ["same thing", "same thing", "Same thing", "another thing"]
    built = build_lattice(group)
    assert sorted(built.weights) == [1, 1, 2]
    assert built.to_dict() == lattice_for_group(annotate_many(group)).to_dict()
    kept = build_lattice(group, LatticeOptions(lowercase=False))
    assert sorted(kept.weights) == [1, 1, 1, 3]  # "Same" is another word with --keep-case
    assert kept.to_dict() == lattice_for_group(annotate_many(group), LatticeOptions(lowercase=False)).to_dict()


def test_groups_are_parsed_without_named_entities_to_the_same_trees() -> None:
    """Lattices read tokens, tags, lemmas and dependency heads, never named entities, but the
    groups were annotated by the full pipeline, whose entity recogniser took over a third of the
    parsing time (6.5 s against 10.3 s for 2,100 Bible sentences). It is now left out; the
    trees, and so the lattices, are the same."""
    from dataclasses import replace

    from paralign import build_lattice
    from paralign.lattice.evaluate import annotate_groups
    from paralign.nlp import annotate_many

    texts = ["Moses went up to Mount Sinai in Egypt .", "Moses climbed Mount Sinai ."]
    full = annotate_many(texts)
    assert any(s.entities for s in full)  # the full pipeline finds Moses, Sinai, Egypt
    [(_, parsed)] = list(annotate_groups([("g", texts)]))
    assert [s.entities for s in parsed] == [(), ()]
    assert parsed == [replace(s, entities=()) for s in full]
    assert build_lattice(texts).to_dict() == build_lattice(full).to_dict()


def test_keyword_checking_compares_the_words_not_only_their_lemmas():
    """Keywords were lemmas alone: "everlasting" tagged VERB (lemma "everlast") in one sentence
    and NOUN (lemma "everlasting") in another were no shared keyword, so "everlasting god" and
    "deity everlasting" merged word by word and the lattice held "everlasting everlasting" (as
    Genesis 21.33's versions did with --max-gaps 2), a repetition the paper's keyword check,
    which compares words, refuses. A keyword leaf now counts its lower-cased word too."""
    a = Sentence(("Everlasting", "god"), lemmas=("everlast", "god"), tags=("VB", "NN"), pos=("VERB", "NOUN"),
                 heads=(-1, -1), deps=("ROOT", "ROOT"))
    b = Sentence(("deity", "everlasting"), lemmas=("deity", "everlasting"), tags=("NN", "NN"),
                 pos=("VERB", "NOUN"), heads=(-1, -1), deps=("ROOT", "ROOT"))
    trees = [parse_tree(s, lowercase=True) for s in (a, b)]
    assert "everlasting" in trees[0].keywords and "everlast" in trees[0].keywords
    lattice = lattice_from_trees(trees)
    assert set(lattice.paths()) == {("everlasting", "god"), ("deity", "everlasting")}
    assert repetition_ratios(lattice, [t.leaves() for t in trees]) == [0.0, 0.0, 0.0]


@FAST
@given(groups)
def test_leave_one_out_distances_are_the_brute_force_ones(group):
    """evaluate_group's ed_input and ed_lattice, held-out sentence by held-out sentence, against
    the nearest other sentence and the nearest path of the others' lattice enumerated one by
    one (the group's distinct sentences, in order)."""
    result = evaluate_group("g", group, leave_one_out=True)
    distinct = list({tuple(s.tokens): s for s in group}.values())
    if len(distinct) < 2:
        assert result.ed_input == result.ed_lattice == ()
        return
    ed_input, ed_lattice = [], []
    for i, held in enumerate(distinct):
        others = distinct[:i] + distinct[i + 1:]
        ed_input.append(min(word_edit_distance(list(held.tokens), list(o.tokens)) for o in others))
        lattice = chain(others[0].tokens) if len(others) == 1 else syntax_lattice(others)
        ed_lattice.append(brute_distance(lattice, list(held.tokens)))
    assert result.ed_input == tuple(ed_input) and result.ed_lattice == tuple(ed_lattice)


def test_groups_of_texts_are_measured_as_the_same_groups_annotated() -> None:
    """evaluate_groups and lattice_paraphrases took annotated groups only, so every group was
    parsed where the command ran; they now take texts or token lists too, annotated where each
    group is measured (a Dask worker with --workers), and the figures, the --incremental table
    (its shuffles drawn in input order where the groups are read) and the pairs are those of the
    same groups annotated first."""
    from paralign.lattice import (
        IncrementalTable,
        annotate_groups,
        evaluate_groups,
        lattice_paraphrases,
    )

    texts = [("a", ["at least 12 people were killed last week .", "at least 12 persons died last week .",
                    "last week 12 people died .", "12 people were killed last week ."]),
             ("b", ["the cat sat on the mat .", "a cat sat on the mat .", "the cat was on the mat ."])]
    annotated = list(annotate_groups(texts))
    figures, tables, pairs = [], [], []
    for groups in (texts, annotated):
        table = IncrementalTable(min_size=3, seed=7, errors=[])
        summary, _ = evaluate_groups(groups, leave_one_out=True, incremental=table, chunk_size=1)
        figures.append(summary)
        tables.append(table.table())
        pairs.append([(e.phrase, e.paraphrase, e.score) for e in lattice_paraphrases(groups)[0]])
    by_adding = IncrementalTable(min_size=3, seed=7)
    for gid, sentences in annotated:
        by_adding.add(gid, sentences)
    assert figures[0] == figures[1] and figures[0]["groups"] == 2 and figures[0]["errors"] == []
    assert tables[0] == tables[1] == by_adding.table() and tables[0][0]["groups"] == 2
    assert pairs[0] == pairs[1] and pairs[0]


def test_a_group_that_fails_on_a_worker_is_reported_and_the_others_kept() -> None:
    """On Dask workers as in this process, a group that cannot be annotated (a sentence that is
    no text) is one error by its id, in input order, and every other group is measured. With an
    --incremental table, counting its sentences for its shuffle raised and stopped the batch."""
    from paralign import parallel
    from paralign.lattice import IncrementalTable, evaluate_groups, lattice_paraphrases

    good = ["the cat sat on the mat .", "a cat sat on the mat ."]
    groups = [("g1", good), ("bad", [3, 4]), ("g3", good), ("g4", good[::-1])]
    runs = []
    for workers in (1, 2):
        with parallel(workers):
            table = IncrementalTable(min_size=2, errors=[])
            summary, _ = evaluate_groups(groups, workers=workers, chunk_size=1, incremental=table)
            assert table.table()[0]["groups"] == 3
            table, errors = lattice_paraphrases(groups, workers=workers, chunk_size=1)
        runs.append((summary, [(e.phrase, e.paraphrase, e.score) for e in table], errors))
    assert runs[0] == runs[1]
    summary, pairs, errors = runs[0]
    assert summary["groups"] == 3 and [e["group"] for e in summary["errors"]] == ["bad"] == [e["group"] for e in errors]
    assert summary["errors"][0]["error"].startswith("InputTypeError: ") and ("a", "the", 3.0) in pairs


def test_the_package_names_load_on_first_use():
    """`paralign.lattice` imported every stage (numpy with the edit distance) when opened, so the
    command line, whose `--help` loads no heavy library, could read nothing from it at import.
    Its names now load on first use: opening it loads no numpy, and every name of ``__all__``
    comes from its module."""
    import json
    import subprocess
    import sys

    code = ("import json, sys, paralign.lattice as L\n"
            "light = 'numpy' in sys.modules\n"
            "print(json.dumps([light, sorted(n for n in L.__all__ if getattr(L, n, None) is None)]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, []]


def test_one_default_for_the_library_and_the_command_line(capsys):
    """`lattice stats|paraphrases --chunk-size` and the library's evaluate_groups and
    lattice_paraphrases had their default written twice (16 each), and `lattice stats
    --incremental-min-size`, IncrementalTable and incremental theirs three times (4): each is one
    constant of the package now (CHUNK_GROUPS, INCREMENTAL_MIN_SIZE)."""
    import inspect

    from paralign.cli import build_parser, main
    from paralign.lattice import (
        CHUNK_GROUPS,
        INCREMENTAL_MIN_SIZE,
        IncrementalTable,
        evaluate_groups,
        incremental,
        lattice_paraphrases,
    )

    for function in (evaluate_groups, lattice_paraphrases):
        assert inspect.signature(function).parameters["chunk_size"].default == CHUNK_GROUPS
    for function in (IncrementalTable, incremental):
        assert inspect.signature(function).parameters["min_size"].default == INCREMENTAL_MIN_SIZE
    for action in ("stats", "paraphrases"):
        args = build_parser().parse_args(["lattice", action, "--groups", "g.tsv"])
        assert args.chunk_size == CHUNK_GROUPS
    with pytest.raises(SystemExit):  # typed only with --incremental: its default is given at run time
        main(["lattice", "stats", "--help"])
    assert f"(default: {INCREMENTAL_MIN_SIZE};" in " ".join(capsys.readouterr().out.split())


def test_one_phrase_length_default_for_tables_of_phrase_pairs(capsys):
    """The longest phrase of a table's pairs by default, 5 words, was written in each place that
    takes it (phrase extraction, its vectorised count, the pivot options, a lattice's sub-path
    pairs, `lattice paraphrases --max-length`): one constant, alignment.MAX_PHRASE_LENGTH, now
    serves them, and the command's help prints it."""
    import inspect

    from paralign import phrase_counts, phrases
    from paralign.alignment import MAX_PHRASE_LENGTH
    from paralign.cli import build_parser, main
    from paralign.lattice import Lattice, lattice_paraphrases, paraphrase_table
    from paralign.pivot_input import PivotOptions

    takers = (phrases.phrase_spans, phrases.phrase_pairs, phrase_counts.span_pairs, phrase_counts.count_phrase_pairs,
              Lattice.subpaths, Lattice.paraphrase_pairs, paraphrase_table, lattice_paraphrases)
    for function in takers:
        assert inspect.signature(function).parameters["max_length"].default == MAX_PHRASE_LENGTH, function
    assert PivotOptions().max_length == MAX_PHRASE_LENGTH
    assert build_parser().parse_args(["lattice", "paraphrases", "--groups", "g.tsv"]).max_length == MAX_PHRASE_LENGTH
    with pytest.raises(SystemExit):
        main(["lattice", "paraphrases", "--help"])
    assert f"(default: {MAX_PHRASE_LENGTH})" in " ".join(capsys.readouterr().out.split())
