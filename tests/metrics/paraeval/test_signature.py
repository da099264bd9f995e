"""paralign.metrics.paraeval.signature: how a paraphrase source appears in a signature."""

from __future__ import annotations

import re

import pytest

from paralign.errors import ConfigurationError
from paralign.metrics.paraeval.signature import source_signature
from paralign.paraphrases import load_table
from paralign.signature import signature_parts


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
