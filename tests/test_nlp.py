"""Annotator: spaCy tokenisation of strings, token lists kept exactly, batching."""

from __future__ import annotations

import pytest

from paralign.nlp import Annotator, annotate_many, model_name
from paralign.sentence import ROOT

ODD_TOKEN_LISTS = [
    ["New York", "is", "big", "."],  # a token with a space inside
    ["", " ", "x"],  # empty and blank tokens
    ["café", "naïve", "—", "日本", "😀"],  # non-ASCII
    ["(", "-LRB-", "``", "''", "don't", "U.S.", "e-mail"],  # PTB oddities spaCy would split
    ["word"],
    [],
]


@pytest.mark.parametrize("tokens", ODD_TOKEN_LISTS)
def test_token_lists_are_kept_exactly(nlp_annotator: Annotator, tokens: list[str]) -> None:
    s = nlp_annotator(tokens)
    assert s.tokens == tuple(tokens)
    n = len(tokens)
    assert len(s.lemmas) == len(s.tags) == len(s.pos) == len(s.heads) == len(s.deps) == n
    assert all(h == ROOT or 0 <= h < n for h in s.heads)
    assert all(0 <= e.start < e.end <= n for e in s.entities)


def test_raw_text_is_tokenised_and_annotated(nlp_annotator: Annotator) -> None:
    s = nlp_annotator("Barack Obama visited Paris on Monday.")
    assert s.tokens == ("Barack", "Obama", "visited", "Paris", "on", "Monday", ".")
    assert s.text == "Barack Obama visited Paris on Monday."
    assert s.whitespace[-2] is False  # "Monday" is glued to "."
    assert s[2].lemma == "visit" and s[2].tag == "VBD" and s[2].pos == "VERB"
    assert s.heads.count(ROOT) == 1
    labels = {(e.start, e.end): e.label for e in s.entities}
    assert labels.get((3, 4)) == "GPE"


def test_typographic_apostrophes_are_annotated_like_ascii(nlp_annotator: Annotator) -> None:
    curly = nlp_annotator("He said it\u2019s the president\u2019s, and they don\u2019t \u2018know\u2019.")
    ascii_ = nlp_annotator("He said it's the president's, and they don't \u2018know\u2019.")
    assert curly.text == "He said it\u2019s the president\u2019s, and they don\u2019t \u2018know\u2019."
    assert [t.replace("\u2019", "'") for t in curly.tokens[:-2]] == list(ascii_.tokens[:-2])
    assert (curly.lemmas, curly.tags, curly.heads) == (ascii_.lemmas, ascii_.tags, ascii_.heads)
    assert curly.tokens[3] == "\u2019s" and curly.tokens[11] == "n\u2019t" and curly.tags[11] == "RB"  # "n’t" is not a noun


def test_pipe_matches_single_calls(nlp_annotator: Annotator) -> None:
    items = [["The", "cat", "sat", "."], "Dogs bark loudly.", [], ["U.S.", "troops"]]
    batch = list(nlp_annotator.pipe(items))
    assert [s.tokens for s in batch] == [nlp_annotator(i).tokens for i in items]
    assert batch[0] == nlp_annotator(items[0])
    assert [s.tokens for s in annotate_many(items[:1], nlp_annotator)] == [("The", "cat", "sat", ".")]


def test_model_name(nlp_annotator: Annotator) -> None:
    assert model_name(nlp_annotator.nlp).startswith("en_core_web_sm")


def test_missing_model_is_a_resource_error() -> None:
    from paralign.errors import ResourceMissingError

    with pytest.raises(ResourceMissingError, match="PARALIGN_SPACY_MODEL"):
        _ = Annotator("no_such_model_xyz").nlp


@pytest.mark.parametrize("name", ["./no_such_model", "../models/none", ".hidden", "not_a_model_folder"])
def test_a_model_path_that_is_no_model_is_a_resource_error(name, tmp_path, monkeypatch) -> None:
    """Resource audit: a relative model path that is not there (PARALIGN_SPACY_MODEL=./model)
    raised importlib's TypeError ('the package argument is required'), and a folder whose
    meta.json is not a model's spaCy's ValueError, at every line of a file (each 'annotation
    failed', every output line empty); both are now the missing-model error naming the name."""
    from paralign.errors import ResourceMissingError
    from paralign.nlp import load_pipeline

    monkeypatch.setattr("paralign.nlp._pipelines", {})  # as in a process that loaded none
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not_a_model_folder").mkdir()
    (tmp_path / "not_a_model_folder" / "meta.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("PARALIGN_SPACY_MODEL", name)
    with pytest.raises(ResourceMissingError, match=f"tried {name}.*PARALIGN_SPACY_MODEL"):
        load_pipeline()
    with pytest.raises(ResourceMissingError, match="PARALIGN_SPACY_MODEL"):
        load_pipeline(name)


@pytest.mark.parametrize(
    ("item", "shown"),
    [(None, "NoneType None"), (5, "int 5"), ([1, 2], "a token list holding int 1"), (["a", None], "a token list holding NoneType")],
)
def test_what_is_not_a_sentence_is_named(nlp_annotator: Annotator, item, shown) -> None:
    """API audit C4: these were TypeErrors from inside spaCy ("'NoneType' object is not iterable")."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=f"a sentence is a text .str. or a token list .list of str., not {shown}"):
        nlp_annotator(item)


def test_n_process_below_one_is_refused(nlp_annotator: Annotator) -> None:
    """API audit C5: n_process=0 was spaCy's 'not enough values to unpack'."""
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="n_process must be at least 1, got 0"):
        annotate_many(["a cat"], nlp_annotator, n_process=0)


def test_a_sentence_is_annotated_again_from_its_tokens(nlp_annotator: Annotator) -> None:
    """It failed with 'sequence item 0: expected str instance, Token found'."""
    s = nlp_annotator(["The", "cat", "sat", "."])
    assert nlp_annotator(s) == s


def test_model_id_names_the_model_with_or_without_loading_it(tmp_path, monkeypatch) -> None:
    """model_id (signatures) reads a model's meta.json when no pipeline is loaded, and gives
    what model_name gives for the loaded pipeline."""
    import json

    from paralign.nlp import load_pipeline, model_id

    assert model_id() == model_name(load_pipeline())
    folder = tmp_path / "my_model"
    folder.mkdir()
    (folder / "meta.json").write_text(json.dumps({"lang": "en", "name": "mine", "version": "1.2"}), encoding="utf-8")
    assert model_id(str(folder)) == "en_mine-1.2"
    monkeypatch.setattr("paralign.nlp._pipelines", {})  # as in a process that loaded none
    monkeypatch.setenv("PARALIGN_SPACY_MODEL", f"no_such_model_package,{folder}")
    assert model_id() == "en_mine-1.2"
    monkeypatch.setenv("PARALIGN_SPACY_MODEL", "no_such_model_package")
    assert model_id() == "none"


def test_model_id_of_a_home_path_of_an_unknown_user_is_none(monkeypatch) -> None:
    """Resource audit: a model named '~someone/model' for a user not known here (or '~/model'
    with no home folder) made model_id, which a batch's signature asks before any pipeline is
    loaded, raise RuntimeError ('Could not determine home directory'); it is no model: none."""
    from paralign.nlp import model_id

    monkeypatch.setattr("paralign.nlp._pipelines", {})
    assert model_id("~no_such_user_xyz/model") == "none"
    monkeypatch.setenv("PARALIGN_SPACY_MODEL", "~no_such_user_xyz/model")
    assert model_id() == "none"


def test_the_cnn_pipeline_loads_without_torch_and_torch_still_loads_after() -> None:
    """thinc imports torch whenever it is installed; paralign hides it from that import for the
    CNN pipelines (1.1 s and 180 MB a process). In a fresh interpreter: annotating leaves torch
    unloaded, the annotations equal those made with torch loaded first, and torch imports
    normally afterwards (the neural extra's code needs it)."""
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed: there is nothing to hide")
    script = (
        "import sys\n"
        "first = sys.argv[1] == 'torch-first'\n"
        "if first: import torch\n"
        "from paralign.nlp import annotate_many\n"
        "s = list(annotate_many(['The senator didn\\'t sponsor the bill in Paris.', 'A cat sat.']))\n"
        "loaded = 'torch' in sys.modules\n"
        "import torch\n"
        "print(loaded, torch.tensor([1.0]).sum().item(), repr([(x.tokens, x.lemmas, x.tags, x.heads, x.deps, x.entities) for x in s]))\n"
    )
    runs = {how: subprocess.run([sys.executable, "-c", script, how], capture_output=True, text=True, timeout=120)
            for how in ("plain", "torch-first")}
    for how, run in runs.items():
        assert run.returncode == 0, (how, run.stderr[-2000:])
    plain, first = (runs[how].stdout.split(" ", 2) for how in ("plain", "torch-first"))
    assert plain[0] == "False" and first[0] == "True"  # annotating alone never loaded torch
    assert plain[1] == first[1] == "1.0"  # torch works after it
    assert plain[2] == first[2]  # the same annotations either way


def test_numpy_strings_are_annotated_as_str(nlp_annotator: Annotator) -> None:
    """A text or token from a numpy array is a ``numpy.str_`` (a str subclass), which spaCy's
    tokenizer refused with a bare TypeError ("expected str, got numpy.str_"): annotate,
    similarity, align and build_lattice all failed on sentences read from an array."""
    np = pytest.importorskip("numpy")
    texts = np.array(["The cat sat on the mat.", "Dogs bark."])
    batch = annotate_many(texts, nlp_annotator)
    assert batch == annotate_many(["The cat sat on the mat.", "Dogs bark."], nlp_annotator)
    assert all(type(t) is str for s in batch for t in s.tokens)
    tokens = nlp_annotator(list(np.array(["New York", "is", "big"])))
    assert tokens.tokens == ("New York", "is", "big") and all(type(t) is str for t in tokens.tokens)


@pytest.mark.parametrize("items", ["The cat sat.", None, 5, {"The cat sat.": 1}])
def test_a_batch_that_is_one_text_or_not_a_list_is_named(nlp_annotator: Annotator, items) -> None:
    """annotate_many("The cat sat.") annotated each character as a sentence (12 Sentences);
    None was "'NoneType' object is not iterable"; a dict's keys were annotated, its values lost."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match="a batch of sentences must be a list of texts or token lists"):
        annotate_many(items, nlp_annotator)


def test_the_aligners_batch_annotation_refuses_one_text(nlp_annotator: Annotator) -> None:
    """Aligner.annotate("a text") gave one Sentence per character."""
    from paralign import Aligner
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match="annotate\\(\\) takes one sentence"):
        Aligner(annotator=nlp_annotator).annotate("The cat sat.")


def test_an_annotator_that_is_not_one_is_named() -> None:
    """annotate(text, "en_core_web_sm") was "'str' object is not callable"; Aligner(annotator=...)
    an AttributeError at the first pair, and similarity(annotator=...) every pair failed with it."""
    import paralign
    from paralign.errors import InputTypeError

    shown = r"annotator must be a paralign.Annotator or None, not str 'en_core_web_sm' \(paralign.Annotator\('en_core_web_sm'\)"
    with pytest.raises(InputTypeError, match=shown):
        paralign.annotate("The cat sat.", "en_core_web_sm")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match=shown):
        annotate_many(["The cat sat."], "en_core_web_sm")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match=shown):
        paralign.Aligner(annotator="en_core_web_sm")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match="annotator must be a paralign.Annotator or None, not int 3$"):
        paralign.similarity("a cat", "a dog", annotator=3)  # type: ignore[arg-type]


def test_tokenize_gives_the_tokens_pipe_gives(nlp_annotator: Annotator) -> None:
    """`tokenize` (the tokenizer alone: lattice --min-size counts a group's sentences with it)
    gives every text the tokens of the annotated sentence, typographic apostrophes and
    extra spaces included."""
    texts = ["Don\u2019t stop the cat\u2019s  dinner.", "The U.S. isn't   here!", "", "a b"]
    assert list(nlp_annotator.tokenize(texts)) == [s.tokens for s in nlp_annotator.pipe(texts)]


@pytest.mark.parametrize("text", [
    "the cat  sat on the mat .",  # two spaces
    "  the cat sat on the mat .  ",  # at either end
    "the\tcat sat\non the mat .",  # a tab, a newline
    "the\u00a0cat sat on the\u2009 mat .",  # no-break and thin spaces
])
def test_whitespace_is_never_a_token(nlp_annotator: Annotator, text: str) -> None:
    """spaCy makes a token of any whitespace but one space ("the cat  sat" gave the words "the",
    "cat", " ", "sat", which an aligner aligned and a count counted); a run of whitespace is one
    space, so the text gives the words and annotation of its single-spaced form."""
    plain = nlp_annotator("the cat sat on the mat .")
    s = nlp_annotator(text)
    assert s.tokens == ("the", "cat", "sat", "on", "the", "mat", ".")
    assert (s.tags, s.heads, s.text) == (plain.tags, plain.heads, plain.text)
    assert list(nlp_annotator.tokenize([text])) == [s.tokens]


@pytest.mark.parametrize(("text", "plain"), [
    ("We co\u00adoperate with them .", "We cooperate with them ."),  # a soft hyphen inside a word
    ("local \u00ad ization matters .", "local ization matters ."),  # ... and standing alone
    ("other \u200b \u200b than English .", "other than English ."),  # zero-width spaces (WMT, OpenNMT)
    ("elections -\u2060 in May -\u2060 were held .", "elections - in May - were held ."),  # word joiners (WMT21 cs)
    ("the \ufeffcat sat \u200e, \u202bthen\u202c ran .", "the cat sat , then ran ."),  # BOM, direction marks
    ("I \u2764\ufe0f NY \u200d .", "I \u2764 NY ."),  # a variation selector, a joiner joining nothing
])
def test_invisible_characters_are_never_tokens(nlp_annotator: Annotator, text: str, plain: str) -> None:
    """An invisible character (soft hyphen, zero-width space, word joiner, direction mark,
    variation selector...) was a token of its own when it stood alone, which an aligner aligned,
    and kept a word from matching itself when inside it ("co\\u00adoperate" against "cooperate");
    the text now gives the words and annotation of what it shows."""
    shown = nlp_annotator(plain)
    s = nlp_annotator(text)
    assert s.tokens == shown.tokens
    assert (s.tags, s.heads, s.text) == (shown.tags, shown.heads, shown.text)
    assert list(nlp_annotator.tokenize([text])) == [s.tokens]


def test_text_is_read_in_nfc(nlp_annotator: Annotator) -> None:
    """"café" written with a combining accent (NFD, as macOS file names and some web pages give
    it) is the same word as "café" with its one character (NFC): both annotate to the NFC token."""
    decomposed, composed = "The cafe\u0301 is open .", "The caf\u00e9 is open ."
    assert nlp_annotator(decomposed).tokens == nlp_annotator(composed).tokens == ("The", "caf\u00e9", "is", "open", ".")
    assert list(nlp_annotator.tokenize([decomposed])) == [("The", "caf\u00e9", "is", "open", ".")]


def test_token_lists_keep_invisible_characters(nlp_annotator: Annotator) -> None:
    """A token list is kept exactly, whatever it holds (gold alignments index its tokens)."""
    tokens = ["We", "co\u00adoperate", "\u200b", "cafe\u0301", "."]
    assert nlp_annotator(tokens).tokens == tuple(tokens)


@pytest.mark.parametrize("text", ["he said ``yes'' .", "he said `` yes '' .", "``Today is it.''"])
def test_a_ptb_opening_quote_is_one_token(nlp_annotator: Annotator, text: str) -> None:
    """"``" (PTB's opening quote, as MSRP and STS write it) is one token tagged ``, as the
    closing "''" is; spaCy split it into two backquotes."""
    s = nlp_annotator(text)
    assert "``" in s.tokens and "`" not in s.tokens
    assert s.tags[s.tokens.index("``")] == "``"
    assert list(nlp_annotator.tokenize([text])) == [s.tokens]


@pytest.mark.parametrize(("text", "shown"), [
    ("Eight gentlemen work with stone &amp; tile .", "Eight gentlemen work with stone & tile ."),  # Multi30k
    ("&lt;A Psalm of David&gt; Hear me .", "<A Psalm of David> Hear me ."),  # the Bible's ASV
    ("&quot; Parliament &apos;s power &quot; , he said .", "\" Parliament 's power \" , he said ."),  # Moses
    ("it costs 5&#160;&#x20AC; now .", "it costs 5\u00a0\u20ac now ."),  # numeric references
])
def test_html_character_references_are_read_as_their_characters(nlp_annotator: Annotator, text: str,
                                                                 shown: str) -> None:
    """spaCy made three words of "&amp;" ("&", "amp", ";"), none matching the "&" it stands for;
    a text gives the words and annotation of what it shows."""
    s, plain = nlp_annotator(text), nlp_annotator(shown)
    assert (s.tokens, s.tags, s.heads) == (plain.tokens, plain.tags, plain.heads)
    assert list(nlp_annotator.tokenize([text])) == [s.tokens]


@pytest.mark.parametrize("text", ["AT&T and R&D &para; &copy 2024 &nosuchname; &amp", "a &amp;quot; b"])
def test_only_known_closed_references_are_unescaped(text: str) -> None:
    """A reference without its semicolon, or with a name HTML does not know, is text ("AT&T",
    "&copy 2024"); one round only, so an escaped reference shows as written once."""
    from paralign.shown_text import plain_text
    assert plain_text(text) == text.replace("&para;", "\u00b6").replace("&amp;quot;", "&quot;")


@pytest.mark.parametrize("size", [0, -3, 2.5])
def test_a_batch_size_below_one_is_refused_when_the_annotator_is_made(size) -> None:
    """API audit: `Annotator(batch_size=0)` annotated nothing and raised StopIteration at the
    first sentence; -3 was itertools' 'Indices for islice() must be None or an integer'."""
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="batch_size must be"):
        Annotator(batch_size=size)


def test_bytes_are_named_as_bytes_not_as_a_token_list_of_ints(nlp_annotator: Annotator) -> None:
    """API audit: `annotate(b'A cat.')` said 'not a token list holding int 65'."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=r"not bytes b'A cat\.' \(decode it"):
        nlp_annotator(b"A cat.")


@pytest.mark.parametrize(("item", "shown"), [
    (b"x" * 60, r"bytes b'x{35}\.\.\. \(decode it"),
    ({"key": "v" * 60}, r"dict \{'key': 'v{28}\.\.\.$"),
    ([["a"] * 30], r"a token list holding list \['a', 'a', 'a', 'a', 'a', 'a', 'a', '\.\.\.$"),
])
def test_a_long_value_that_is_not_a_sentence_is_quoted_cut_and_marked(nlp_annotator: Annotator, item, shown) -> None:
    """Such a value was quoted cut at 40 characters (a token list's item at 30) with no mark, as
    if whole; now as every message quotes one (errors.shown_value: cut, then '...')."""
    from paralign.errors import InputTypeError

    with pytest.raises(InputTypeError, match=f"list of str., not {shown}"):
        nlp_annotator(item)


def test_a_changed_paralign_spacy_model_loads_the_model_it_names(tmp_path, monkeypatch) -> None:
    """Pipelines were kept per process under the model argument, None for the configured one:
    a process (a notebook, a test) that set PARALIGN_SPACY_MODEL after annotating once kept the
    first model, and model_id (signatures) named it. The setting as it is now is what is used."""
    from paralign.errors import ResourceMissingError
    from paralign.nlp import load_pipeline, model_id

    default = load_pipeline()
    monkeypatch.setenv("PARALIGN_SPACY_MODEL", "no_such_model_package")
    with pytest.raises(ResourceMissingError, match="tried no_such_model_package"):
        load_pipeline()
    assert model_id() == "none"
    monkeypatch.delenv("PARALIGN_SPACY_MODEL")
    assert load_pipeline() is default and model_id() == model_name(default)
