"""The fast 13a tokenizer gives exactly sacrebleu's 13a tokens."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paralign.settings import data_dir
from paralign.tok13a import tokenize_13a

Tokenizer13a = pytest.importorskip("sacrebleu.tokenizers.tokenizer_13a").Tokenizer13a
SACRE = Tokenizer13a()

TRAPS = [
    "", " ", "a", "Hello, world.", "x.,5", "5.,", "1,.", "a..", "3.14 and 2,000.5", "1990-2000",
    "e-mail - dash", "&quot;quoted&quot; &amp; &lt;b&gt; &nbsp;", "<skipped> line", "end-\nline",
    "tab\there", "U.S. $5,000.00!", "{[(<>)]}~`^_|\\@#%*+=/:;?'\"", "a-\n-b", "3-4-5", "..,,--",
    "non-ASCII: café – “quotes” … ½", "\u00a0nbsp\u2009thin", "1.a,b.2,c", "x,5.y",
]


@pytest.mark.parametrize("line", TRAPS)
def test_traps(line: str) -> None:
    assert tokenize_13a(line) == SACRE(line)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab09 .,-&;quotamp<>\n\t{}[]~`@/:!'\"é–", max_size=30))
def test_arbitrary_strings(line: str) -> None:
    assert tokenize_13a(line) == SACRE(line)


def test_every_wmt21_line() -> None:
    root = data_dir()
    files = sorted(glob.glob(str(root / "mt" / "wmt21-toEnglish" / "txt" / "**" / "*"),
                             recursive=True)) if root is not None else []
    files = [f for f in files if f.endswith((".en", ".de", ".cs", ".ru"))]
    if not files:
        pytest.skip("WMT21 data not found (PARALIGN_DATA)")
    lines = [line for f in files for line in Path(f).read_text(encoding="utf-8").split("\n")]
    assert len(lines) > 40_000
    assert [tokenize_13a(x) for x in lines] == [SACRE(x) for x in lines]
