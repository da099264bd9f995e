"""paralign.signature: the pieces of every sacrebleu-style signature."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign._version import __version__
from paralign.corpora.wmt import HumanScore, WMTPair
from paralign.errors import ConfigurationError
from paralign.signature import LINE_BREAKS, join_signature, part_fault, signature_parts, with_parts


def test_join_puts_the_version_last_and_leaves_out_none() -> None:
    assert join_signature({"a": 1, "b": None, "version": "x", "c": "y"}) == f"a:1|c:y|version:{__version__}"


def test_parts_added_later_go_before_the_version() -> None:
    signature = join_signature({"config": "default"})
    assert with_parts(signature, {"bs": 1000, "seed": 12345, "none": None}) == (
        f"config:default|bs:1000|seed:12345|version:{__version__}")
    assert with_parts("config:paper", {"bs": 10}) == "config:paper|bs:10"  # no version part: at the end


def test_a_value_holding_a_bar_cannot_be_a_part_one_holding_a_colon_can() -> None:
    """``|`` ends a part (signature_parts would read two, the second with no key); ``:`` does not
    (a part's key ends at its first), as ``aligner:sultan:default`` holds one."""
    assert part_fault("run|1.tsv") == "'run|1.tsv' holds '|', which separates a signature's parts"
    assert part_fault("sultan:default") is None
    assert signature_parts(join_signature({"aligner": "sultan:default"}))["aligner"] == "sultan:default"


@pytest.mark.parametrize("char", LINE_BREAKS)
def test_a_name_or_file_name_holding_a_line_break_is_refused_naming_the_character(char: str, tmp_path) -> None:
    """A line break (any str.splitlines ends a line at) read back from the signature string, but
    text output printed it raw: ``--table 't<LF>x.tsv'`` printed ``...|res:t`` and, on the next
    line, ``x.tsv#HASH|...``. Refused where ``|`` is, with the message naming the character."""
    from paralign.signature import file_name_part, name_part

    assert len(f"a{char}b".splitlines()) == 2  # LINE_BREAKS is every character that breaks a line
    assert part_fault(f"t{char}x") == f"{f't{char}x'!r} holds {char!r}, a line break, which would split the signature's line"
    with pytest.raises(ConfigurationError, match="^" + re.escape(f"a Signal's name: {f'm{char}2'!r} holds {char!r}, a line break")):
        name_part(f"m{char}2", "signal:NAME", what="a Signal's name")
    broken = tmp_path / f"t{char}x.tsv"
    with pytest.raises(ConfigurationError, match="^" + re.escape(f"argument --table: {broken}: the file's name "
                                                                f"{broken.name!r} holds {char!r}, a line break")):
        file_name_part(broken, "res:FILE#HASH", option="--table")


def test_a_file_name_holding_a_bar_is_refused_naming_the_file_and_the_option(tmp_path) -> None:
    """Every signature part that writes a file's name writes it through file_name_part: its last
    component as written, or a ConfigurationError naming the file (and the command's option, when
    one gave it) where the name holds ``|``, which signature_parts would read as two parts."""
    import pytest

    from paralign.errors import ConfigurationError
    from paralign.signature import file_name_part

    assert file_name_part(tmp_path / "run:1#x.tsv", "model:FILE#HASH") == "run:1#x.tsv"
    assert file_name_part("dir\\t.tsv", "t:FILE", name="t.tsv") == "t.tsv"  # as the caller writes it
    bar = tmp_path / "run|1.tsv"
    with pytest.raises(ConfigurationError) as caught:
        file_name_part(bar, "model:FILE#HASH", option="--model")
    assert str(caught.value) == (f"argument --model: {bar}: the file's name 'run|1.tsv' holds '|', which separates "
                                 "a signature's parts (the signature names it: model:FILE#HASH): copy or link the "
                                 "file under another name")
    with pytest.raises(ConfigurationError, match=r"^x/run\|1\.tsv: the file's name"):
        file_name_part("x/run|1.tsv", "system:FILE#HASH")


# Names as users give them: any text, with the characters a signature reads (| : + #) and line
# breaks (LINE_BREAKS: \n, \r, NEL, U+2028, ...) often among them, and the built-in sources' names.
_NAMES = st.one_of(st.text(st.one_of(st.sampled_from("ab|:+#=~ \n"), st.sampled_from(LINE_BREAKS),
                                     st.characters(exclude_categories=("Cs",))), min_size=1, max_size=10),
                   st.sampled_from(["ppdb", "wordnet", "none", "spelling", "wordnet-3.0", "ppdb-1.0-xxxl-lexical",
                                    "features+cross-encoder", "features-model", "sultan2014"]))


def _reads_back(signature: str, key: str, value: str) -> None:
    """`signature` reads back to the parts it was written with: the part `key` holds `value`, and
    the parts read, joined again, are the signature byte for byte (no part cut, none keyless);
    and it is one line, as a command's text output prints it."""
    parts = signature_parts(signature)
    assert parts[key] == value, (key, signature)
    assert join_signature(parts) == signature
    assert len(signature.splitlines()) == 1, signature


def _refused_for(name: str, marks: str = "") -> str | None:
    """The character a name is refused for, as name_part names it: ``|``, else its first line
    break, else the first of the part's own `marks` it holds; None: it is signed."""
    if "|" in name:
        return "|"
    return next((char for char in name if char in LINE_BREAKS), None) or next(
        (mark for mark in marks if mark in name), None)


def _signed_or_refused(sign: Callable[[], str], name: str, key: str, marks: str = "", *,
                       source: bool = False, signal: bool = False) -> None:
    """`sign()` writes `name` as the part `key` reads back, or (a name holding ``|``, a line break
    or one of the part's own `marks`, and only then) refuses it with a ConfigurationError naming
    the character; a `source`'s or a `signal`'s (one of the caller's own) also when it is a
    built-in's name (``ppdb``, ``none``, ...: paraphrases.is_built_in_name; ``sultan2014``,
    ``features+cross-encoder``, ...: similarity.signals.is_built_in_name), which signed as the built-in."""
    from paralign.paraphrases import is_built_in_name
    from paralign.similarity.signals import is_built_in_name as is_built_in_signal

    held = _refused_for(name, marks)
    if held is None and (source and is_built_in_name(name) or signal and is_built_in_signal(name)):
        with pytest.raises(ConfigurationError, match=f"is a built-in {'source' if source else 'signal'}'s name"):
            sign()
        return
    if held is None:
        _reads_back(sign(), key, name)
        return
    with pytest.raises(ConfigurationError, match=re.escape(f"holds {held!r}")):
        sign()


@settings(max_examples=40, deadline=None)
@given(name=_NAMES)
def test_every_signature_holding_a_name_reads_back_to_its_parts(name: str) -> None:
    """Every free-text name a signature writes (a signal's, a paraphrase source's, an alignment
    function's, a meta-evaluation's reference labels and language pair, a file's or a model directory's) is signed
    so that signature_parts reads the signature back to the parts it was written with, or is
    refused where it enters: exactly the names holding ``|`` or a line break, which split the
    signature's line where text output prints it (and ``+``, which joins the items of ``refs``,
    ``res`` and ``signal``, but in the built-in ``features+cross-encoder``; and a source or a
    signal of the caller's own named as a built-in); no other name is refused, so every signature that read back is as it was."""
    from paralign.aligners.registry import get_aligner
    from paralign.aligners.signature import alignment_signature
    from paralign.metrics.meta_signature import meta_signature
    from paralign.metrics.paraeval import scorer
    from paralign.similarity.signals import JOINED_NAMES
    from paralign.similarity.signature import similarity_signature

    class Named:
        def __init__(self, given: str) -> None:
            self.name = given

        def __call__(self, pair: object) -> float:
            return 0.5

        def paraphrases(self, phrase: str) -> dict[str, float | None]:
            return {}

    def function(source: object, target: object) -> object:
        return None

    function.__qualname__ = name
    _signed_or_refused(lambda: similarity_signature(Named(name), get_aligner("exact")), name, "signal",
                       "" if name in JOINED_NAMES else "+", signal=True)
    _signed_or_refused(lambda: scorer("default", sources=[Named(name)]).signature(1), name, "res", "+", source=True)
    _signed_or_refused(lambda: alignment_signature(function), name, "aligner")
    _signed_or_refused(lambda: meta_signature(_wmt_pair(name), [name], "system", 10, 1), name, "refs", "+")
    _signed_or_refused(lambda: meta_signature(_wmt_pair("A", name), ["A"], "system", 10, 1), name, "pair")


@settings(max_examples=25, deadline=None)
@given(name=_NAMES.filter(lambda n: not {"/", "\\", "\0"} & set(n) and n not in (".", "..")
                          and not n.lower().endswith((".gz", ".parquet"))))
def test_every_signature_holding_a_file_name_reads_back_to_its_parts(name: str) -> None:
    """A table file's name (ParaEval's ``res``, as the aligners' ``sim`` and ParaMetric's
    ``table`` write it: NAME#HASH) and a model directory's (``encoder:DIR``) read back, or are
    refused: exactly the names holding ``|`` or a line break. (A table's name is cut at a ``\\`` as at a ``/``, a
    Windows path's separator, so none is generated; nor a name that says gzip or Parquet.)"""
    import tempfile

    from paralign.metrics.paraeval.signature import source_signature
    from paralign.neural.model_files import encoder_id
    from paralign.paraphrases import load_table

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text("big\tlarge\t0.9\n", encoding="utf-8")
        held = _refused_for(name)
        if held is not None:
            with pytest.raises(ConfigurationError, match=re.escape(f"holds {held!r}")):
                source_signature(load_table(path))
        else:
            signed = source_signature(load_table(path))
            assert signed.startswith(f"{name}#")
            _reads_back(join_signature({"res": signed, "maxlen": 4}), "res", signed)
        path.unlink()
        path.mkdir()
        _signed_or_refused(lambda: join_signature({"encoder": encoder_id(path)}), name, "encoder")


def _wmt_pair(label: str, pair: str = "de-en") -> WMTPair:
    """One reference set of that label, one judged system."""
    return WMTPair(pair, {label: ("x",)}, {"Good": ("x",)}, {"Good": HumanScore("Good", "g", 80.0, 0.5, 1, 1)})
