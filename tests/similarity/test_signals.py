"""The `numbers` and `all-words` similarity signals (issue 7): hand-made aligned pairs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.alignment import AlignedSentences, Alignment
from paralign.sentence import Sentence
from paralign.similarity import SIGNALS, ContentProportion, is_number, make_signal


def pair(a: str, b: str, links) -> AlignedSentences:
    return AlignedSentences(Sentence.plain(a.split()), Sentence.plain(b.split()), Alignment.from_links(links))


def test_is_number():
    for token in ("1998", "2.5", "3,400", "10:30", "50%", "1/2", "2003-04"):
        assert is_number(token), token
    for token in ("two", "1990s", "B-52", "$", "-", "%", "."):
        assert not is_number(token), token


def test_numbers_signal_counts_an_unaligned_number_twice():
    # content words: sales rose 5 % ... -> "sales", "rose", "5" (the % is punctuation-only)
    p = pair("sales rose 5 %", "sales rose 6 %", [(0, 0), (1, 1), (3, 3)])
    assert make_signal("sultan2014")(p) == pytest.approx(2 / 3)
    assert make_signal("numbers")(p) == pytest.approx(2 / 4)  # 5 and 6 weigh two words each
    # an aligned number counts twice on the aligned side too
    q = pair("sales rose 5 %", "sales rose 5 %", [(0, 0), (1, 1), (2, 2)])
    assert make_signal("numbers")(q) == pytest.approx(1.0)
    # no numbers: identical to the paper's score
    r = pair("the cat sat on the mat", "a cat sat on a rug", [(1, 1), (2, 2), (3, 3)])
    assert make_signal("numbers")(r) == pytest.approx(make_signal("sultan2014")(r))


def test_all_words_signal_counts_stop_words():
    # "not" is a stop word: invisible to the content-word score, counted by all-words
    p = pair("he did not go", "he did go", [(0, 0), (1, 1), (3, 2)])
    assert make_signal("sultan2014")(p) == pytest.approx(1.0)
    assert make_signal("all-words")(p) == pytest.approx(2 * (3 / 4) * 1.0 / (3 / 4 + 1.0))
    # punctuation never counts
    q = pair("yes , indeed .", "yes indeed", [(0, 0), (2, 1)])
    assert make_signal("all-words")(q) == pytest.approx(1.0)


def test_a_sentence_of_punctuation_only_counts_its_punctuation():
    # with no word at all, nothing else can be counted: two identical "..." are the same sentence
    same = pair("...", "...", [(0, 0)])
    for name in ("sultan2014", "sultan2015", "all-words", "numbers", "mean-proportion"):
        assert make_signal(name)(same) == pytest.approx(1.0), name
    assert make_signal("sultan2014")(pair("! ?", "! ?", [(0, 0)])) == pytest.approx(0.5)  # half of each side
    assert make_signal("sultan2014")(pair("...", "...", [])) == 0.0
    # beside a word, punctuation still never counts
    assert make_signal("sultan2014")(pair("... cat", "cat", [(1, 0)])) == pytest.approx(1.0)


def test_weights_compose_with_pooling():
    signal = ContentProportion("custom", pooled=True, stop_weight=0.5, number_weight=3.0)
    p = pair("the 7 cats", "the cats", [(0, 0), (2, 1)])
    # source: the (0.5, aligned) 7 (3) cats (1, aligned); target: the (0.5) cats (1), all aligned
    assert signal(p) == pytest.approx((1.5 + 1.5) / (4.5 + 1.5))


def test_new_signals_are_registered():
    assert {"numbers", "all-words"} <= set(SIGNALS)


words = st.sampled_from(["the", "a", "not", "cat", "sat", "mat", "2014", "5", "3.5", ",", "."])
sentences = st.lists(words, min_size=1, max_size=8)


@st.composite
def aligned_pairs(draw):
    s = draw(sentences)
    t = draw(sentences)
    links = draw(st.sets(st.tuples(st.integers(0, len(s) - 1), st.integers(0, len(t) - 1)), max_size=10))
    return AlignedSentences(Sentence.plain(s), Sentence.plain(t), Alignment.from_links(links))


@settings(max_examples=150, deadline=None)
@given(aligned_pairs(), st.sampled_from(["numbers", "all-words"]), st.integers(0, 7), st.integers(0, 7))
def test_new_signals_are_bounded_symmetric_and_monotone(p, name, i, j):
    signal = make_signal(name)
    score = signal(p)
    assert 0.0 <= score <= 1.0
    assert signal(AlignedSentences(p.target, p.source, p.alignment.transpose())) == pytest.approx(score)
    more = Alignment.from_links(set(p.alignment.sure) | {(i % len(p.source), j % len(p.target))})
    assert signal(AlignedSentences(p.source, p.target, more)) >= score - 1e-12


def test_fit_signal_takes_a_name_as_make_signal_does():
    """API audit: fit_signal("idf", sentences) returned the str "idf" unfitted, so the next
    similarity call still said the signal must be fitted first (fit_signal)."""
    from paralign.similarity import fit_signal, needs_fit

    sentences = [Sentence.plain(["a", "cat"]), Sentence.plain(["a", "dog"])]
    fitted = fit_signal("idf", sentences)
    assert not isinstance(fitted, str) and not needs_fit(fitted)
    assert fitted(pair("a cat", "a cat", [(0, 0), (1, 1)])) == pytest.approx(1.0)


@pytest.mark.parametrize("spec", [None, 3])
def test_a_signal_that_is_neither_a_name_nor_a_signal_is_named(spec):
    """make_signal(None) returned None, which failed later, pair by pair."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=f"a signal is a name .* or a Signal, not {type(spec).__name__}"):
        make_signal(spec)


def test_cache_options_name_a_bound_only_for_signals_that_keep_a_cache() -> None:
    from paralign.similarity.signals import cache_options

    assert cache_options("embedding", 7) == {"cache_size": 7}  # the neural signals and the hybrid take one
    assert cache_options("contextual-alignment", 7) == cache_options("hybrid", 7) == {"cache_size": 7}
    assert cache_options("sultan2014", 7) == {} and cache_options("embedding", None) == {}
    assert cache_options("no-such-signal", 7) == {}


def test_idf_fitted_on_files_without_a_sentence_is_a_data_error(tmp_path) -> None:
    """`similarity --signal idf --idf-from EMPTY` fitted IDF statistics on no sentence and scored
    on (every word then weighs the same) without a word. Nothing to learn from is a data error
    naming the files (docs/CLI.md, Empty input: builders), before any model loads."""
    from paralign.cli import main
    from paralign.errors import FormatError
    from paralign.similarity import fit_on_files

    empty, blank = tmp_path / "empty.txt", tmp_path / "blank.txt"
    empty.write_text("", encoding="utf-8")
    blank.write_text("\n\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"no sentences to fit IDF statistics on"):
        fit_on_files("idf", [empty, blank], annotator=object())  # type: ignore[arg-type]
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a cat\ta cat\n", encoding="utf-8")
    assert main(["similarity", "--pairs", str(pairs), "--signal", "idf", "--idf-from", str(empty)]) == 1


def test_idf_weights_and_content_words_read_tokens_as_they_show():
    """The IDF table keyed a word by its lemma or token as written: "café" written with a
    combining accent (NFD) was unseen beside the fitted "café" (NFC) and weighted as the rarest
    word, though the aligner linked the two; the same pair scored otherwise in the other normal
    form. Keys, content words and numbers are read as they show (shown_text.shown_form)."""
    import unicodedata

    from paralign.similarity import fit_signal
    from paralign.similarity.signals import is_content_word

    nfd = unicodedata.normalize("NFD", "café")
    texts = ["café menu", "café prices", "café tables", "menu board", "the walk"]
    idf = fit_signal("idf", [Sentence.plain(t.split()) for t in texts])
    shown = pair("café menu walk", "café menu board", [(0, 0), (1, 1)])
    written = pair("café menu walk", f"{nfd} menu board", [(0, 0), (1, 1)])
    assert idf(written) == pytest.approx(idf(shown))
    assert not is_content_word("the\u200b")  # a zero-width space: the stop word "the"
    assert is_number("1\u00ad998")


def test_a_signal_name_holding_a_bar_is_refused_where_the_signal_is_made_or_enters() -> None:
    """A signal's name is the signature's ``signal`` part: ``ContentProportion(name="mine|2")``
    was signed ``signal:mine|2|...``, read back as ``signal:mine`` and a keyless ``2``. Now each
    place a named signal is made (paralign's signal values, register_signal) or enters (a user's
    Signal given to make_signal) refuses it, naming the field; every other name is as it was."""
    from paralign.errors import ConfigurationError
    from paralign.similarity.signals import register_signal

    class Mine:
        name = "mine|2"

        def __call__(self, pair: AlignedSentences) -> float:
            return 0.5

    with pytest.raises(ConfigurationError, match=r"^ContentProportion name: 'mine\|2' holds '\|'.*signal:NAME"):
        ContentProportion(name="mine|2")
    with pytest.raises(ConfigurationError, match=r"^the Signal's name: 'mine\|2' holds '\|'"):
        make_signal(Mine())  # type: ignore[arg-type]  # a duck-typed Signal
    with pytest.raises(ConfigurationError, match=r"^register_signal name: 'mine\|2'"):
        register_signal("mine|2", ContentProportion)
    assert "mine|2" not in SIGNALS
    assert ContentProportion(name="mine:2").name == "mine:2"  # a ":" reads back


def test_a_signal_whose_name_holds_a_plus_is_refused_but_the_built_in_blend() -> None:
    """Signals scored together are signed by their names joined with ``+`` (``signal:a+b``): a
    signal named ``a+b`` was signed as the two signals ``a`` and ``b``. Now a ConfigurationError
    naming ``+`` where a signal is made, registered or enters; the built-in blend's name
    (``features+cross-encoder``, JOINED_NAMES) is signed as it always was."""
    from paralign.errors import ConfigurationError
    from paralign.similarity import signals
    from paralign.similarity.signals import check_signal_name, register_signal

    with pytest.raises(ConfigurationError, match=r"^ContentProportion name: 'a\+b' holds '\+', which separates the items"):
        ContentProportion(name="a+b")
    with pytest.raises(ConfigurationError, match=r"^register_signal name: 'a\+b' holds '\+'"):
        register_signal("a+b", ContentProportion)
    assert "a+b" not in SIGNALS
    check_signal_name("features+cross-encoder")
    assert signals.JOINED_NAMES == ("features+cross-encoder",)
