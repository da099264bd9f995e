"""Alignment-corpus loaders: every format, the sure/sure+poss pairing, bad input, README counts."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from paralign.alignment import Alignment
from paralign.corpora import (
    AlignedPair,
    BadPair,
    combine_sure_possible,
    detect_format,
    group_key,
    iter_pairs,
    load_groups,
    load_pairs,
    read_pairs,
    split_bad,
)
from paralign.errors import AlignmentIndexError, FormatError, InputFileError, MismatchError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "alignment"
GOLD_FILES = {
    "gold.json": "jacana",
    "gold.sure.json": "jacana",
    "gold.sure+poss.json": "jacana",
    "gold.jsonl": "jsonl",
    "gold.giza.txt": "giza",
    "gold.tsv": "multimwa",
}


def content(pairs: list[AlignedPair]) -> list[tuple]:
    return [(p.source, p.target, p.alignment) for p in pairs]


# -- the hand-written examples -----------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GOLD_FILES))
def test_examples_agree_across_formats(name: str) -> None:
    path = EXAMPLES / name
    assert detect_format(path) == GOLD_FILES[name]
    reference = load_pairs(EXAMPLES / "gold.json")
    assert content(load_pairs(path)) == content(reference)


def test_example_values() -> None:
    pairs = load_pairs(EXAMPLES / "gold.json")
    assert [p.id for p in pairs] == ["ex1", "ex2", "ex3"]
    first = pairs[0]
    assert first.source == ("The", "cat", "sat", "on", "the", "mat", ".")
    assert first.sure == {(0, 0), (1, 1), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)}
    assert first.alignment.possible_only == {(2, 2)}
    assert isinstance(first.source, tuple) and first.line == 2
    with pytest.raises(AttributeError):
        first.id = "x"  # type: ignore[misc]


def test_giza_ids_are_pair_numbers() -> None:
    assert [p.id for p in load_pairs(EXAMPLES / "gold.giza.txt")] == ["1", "2", "3"]


def test_sure_and_sure_poss_files_combine() -> None:
    alone_sure = load_pairs(EXAMPLES / "gold.sure.json", possible_path=None)
    alone_merged = load_pairs(EXAMPLES / "gold.sure+poss.json", possible_path=None)
    assert all(not p.alignment.possible_only for p in alone_sure + alone_merged)
    combined = combine_sure_possible(alone_sure, alone_merged)
    assert content(combined) == content(load_pairs(EXAMPLES / "gold.json"))
    explicit = load_pairs(EXAMPLES / "gold.sure.json", possible_path=EXAMPLES / "gold.sure+poss.json")
    assert content(explicit) == content(combined)


def test_possible_links_source_names_the_companion_read() -> None:
    """What a signature records of where the gold's possible links came from: the sure+poss file
    `read_pairs` combines (basename and hash of its bytes), whichever of the two is given, or
    `gold` when the file is read alone."""
    from paralign.corpora.alignments import possible_links_source
    from paralign.signature import short_hash

    merged = EXAMPLES / "gold.sure+poss.json"
    named = f"gold.sure+poss.json#{short_hash(merged.read_bytes())}"
    assert possible_links_source(EXAMPLES / "gold.sure.json") == named
    assert possible_links_source(merged) == named
    assert possible_links_source(EXAMPLES / "gold.sure.json", possible_path=merged) == named
    assert possible_links_source(EXAMPLES / "gold.sure.json", possible_path=None) == "gold"
    assert possible_links_source(EXAMPLES / "gold.jsonl") == "gold"


def test_combine_rejects_different_files() -> None:
    sure = load_pairs(EXAMPLES / "gold.sure.json", possible_path=None)
    with pytest.raises(MismatchError, match="3 pairs.*2"):
        combine_sure_possible(sure, sure[:2])
    with pytest.raises(MismatchError, match="different sentences"):
        combine_sure_possible(sure, sure[::-1])


def test_pharaoh_system_file() -> None:
    pairs = load_pairs(EXAMPLES / "system.pharaoh")
    assert detect_format(EXAMPLES / "system.pharaoh") == "pharaoh"
    assert [p.id for p in pairs] == ["1", "2", "3"]
    assert pairs[1].source == () and pairs[1].sure == {(0, 3), (1, 4), (3, 0), (4, 1), (5, 7)}


def test_iter_pairs_streams() -> None:
    iterator = iter_pairs(EXAMPLES / "gold.jsonl")
    assert next(iterator).id == "ex1"


def test_groups_strip_last_dot_field(tmp_path: Path) -> None:
    items = [
        {"id": f"DOC1.{seg}.{hit}", "source": "a b", "target": "a c", "sureAlign": "0-0"}
        for seg, hit in [(1, "X"), (1, "Y"), (2, "X"), (1, "Z")]
    ]
    path = tmp_path / "mtref.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    groups = load_groups(path)
    assert list(groups) == ["DOC1.1", "DOC1.2"]
    assert [p.id for p in groups["DOC1.1"]] == ["DOC1.1.X", "DOC1.1.Y", "DOC1.1.Z"]
    assert group_key("nodots") == "nodots"


# -- traps: BOMs, CRLF, repeated ids, gzip -----------------------------------------------------
def test_giza_with_boms_and_crlf(tmp_path: Path) -> None:
    text = (
        "\ufeff\ufeff# sentence pair 1\r\n\ufeffA b c .\r\n"
        "NULL ({ / / }) \ufeffX ({ 1 p2 / / }) y ({  / / }) . ({ 4 / / }) \r\n"
    )
    path = tmp_path / "orig.txt"
    path.write_text(text, encoding="utf-8", newline="")
    (pair,) = load_pairs(path)
    assert pair.source == ("A", "b", "c", ".") and pair.target == ("X", "y", ".")
    assert pair.alignment == Alignment.from_links([(0, 0), (3, 2)], [(1, 0)])


def test_multimwa_repeated_ids_get_line_numbers(tmp_path: Path) -> None:
    row = "0:0\ta b\tN/A\ta b\tN/A\t1\t1\t0-0 1-1\t\t"
    path = tmp_path / "arxiv.tsv"
    path.write_text(f"{row}\n{row}\n1:1\ta\tN/A\tb\tN/A\t1\t1\t0-0\t0-0\t\t", encoding="utf-8")
    assert [p.id for p in load_pairs(path)] == ["0:0", "0:0#2", "1:1"]


def test_gzip_input(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "gold.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write((EXAMPLES / "gold.jsonl").read_text(encoding="utf-8"))
    assert content(load_pairs(path)) == content(load_pairs(EXAMPLES / "gold.jsonl"))


# -- bad input: errors name the file and line --------------------------------------------------
def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def jacana_text(sure: str, source: str = "a b c", target: str = "a b") -> str:
    return (
        '[\n  {"id": "p1", "source": "a", "target": "a", "sureAlign": "0-0"},\n'
        f'  {{"id": "p2", "source": "{source}", "target": "{target}", "sureAlign": "{sure}"}}\n]\n'
    )


def test_jacana_malformed_link(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", jacana_text("0-0 1_1"))
    with pytest.raises(FormatError) as info:
        load_pairs(path)
    assert f"{path}:3:" in str(info.value) and "'1_1'" in str(info.value) and "p2" in str(info.value)


def test_jacana_link_outside_sentence(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", jacana_text("0-0 3-1"))
    with pytest.raises(AlignmentIndexError) as info:
        load_pairs(path)
    assert f"{path}:3:" in str(info.value) and "3-1" in str(info.value) and "'p2'" in str(info.value)


def test_jacana_invalid_json(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", '[\n {"id": "1", "source": "a", "target": "a"},\n {"id": \n]')
    with pytest.raises(FormatError, match=rf"{path.name}:4:.*invalid JSON"):
        load_pairs(path, format="jacana")
    path = write(tmp_path, "obj.json", '[{"id": "1", "target": "a"}]')
    with pytest.raises(FormatError, match="lacks 'source'"):
        load_pairs(path)


def test_giza_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.txt", "# sentence pair 1\na b\nNULL ({ / / }) a ({ 1 / / }) b ({ x / / })\n")
    with pytest.raises(FormatError, match=rf"{path.name}:3:.*'x'"):
        load_pairs(path)
    path = write(tmp_path, "short.txt", "# sentence pair 1\na b\n")
    with pytest.raises(FormatError, match=rf"{path.name}:1:.*cut short"):
        load_pairs(path)
    path = write(tmp_path, "out.txt", "# sentence pair 1\na b\nNULL ({ / / }) a ({ 3 / / })\n")
    with pytest.raises(AlignmentIndexError, match=rf"{path.name}:1:.*2-0"):
        load_pairs(path)
    path = write(tmp_path, "open.txt", "# sentence pair 1\na b\nNULL ({ / / }) a ({ 1 / / }\n")
    with pytest.raises(FormatError, match="unclosed"):
        load_pairs(path)


def test_jsonl_errors(tmp_path: Path) -> None:
    good = '{"id": "a", "source": "x y", "target": "x", "sure": [[0, 0]]}'
    path = write(tmp_path, "bad.jsonl", f'{good}\n{{"id": "b", "source": "x", "target": "x", "sure": [[0]]}}\n')
    with pytest.raises(FormatError, match=rf"{path.name}:2:.*'b'"):
        load_pairs(path)
    path = write(tmp_path, "broken.jsonl", f"{good}\n{{oops\n")
    with pytest.raises(FormatError, match=rf"{path.name}:2:.*invalid JSON"):
        load_pairs(path)
    path = write(tmp_path, "out.jsonl", f'{good}\n{{"id": "c", "source": "x", "target": "x", "sure": "0-1"}}\n')
    with pytest.raises(AlignmentIndexError, match=rf"{path.name}:2:.*0-1"):
        load_pairs(path)


def test_multimwa_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.tsv", "0:0\ta\tN/A\ta\tN/A\t1\t1\t0-0\t\t\n1:1\ta b\tN/A\n")
    with pytest.raises(FormatError, match=rf"{path.name}:2:.*at least 8"):
        load_pairs(path)
    path = write(tmp_path, "bad2.tsv", "0:0\ta\tN/A\ta\tN/A\t1\t1\t0-0\t0=0\t\n")
    with pytest.raises(FormatError, match=rf"{path.name}:1:.*'0=0'"):
        load_pairs(path)


def test_pharaoh_error_names_line(tmp_path: Path) -> None:
    path = write(tmp_path, "sys.txt", "0-0\n1-1 2x2\n")
    with pytest.raises(FormatError, match=rf"{path.name}:2:.*'2x2'"):
        load_pairs(path, format="pharaoh")


def test_unknown_format_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "prose.txt", "Hello world\n")
    with pytest.raises(FormatError, match=rf"{path.name}:1:.*cannot tell"):
        load_pairs(path)
    with pytest.raises(FormatError, match="unknown alignment format"):
        load_pairs(EXAMPLES / "gold.json", format="xml")
    with pytest.raises(InputFileError, match="no such file"):
        load_pairs(tmp_path / "absent.json")


# -- read_pairs: a bad item keeps its place ----------------------------------------------------
def kinds(items: list) -> list[str]:
    """'ok' for a pair, else `line:reason-start` for a BadPair."""
    return ["ok" if isinstance(i, AlignedPair) else f"{i.line}:{i.reason[:12]}" for i in items]


def test_read_pairs_pharaoh_keeps_bad_lines_in_place(tmp_path: Path) -> None:
    path = tmp_path / "sys.pharaoh"
    path.write_bytes(b"0-0\n0-3 x-4\n\n1-1 caf\xe9\n2-2\n")
    items = read_pairs(path)
    assert kinds(items) == ["ok", "2:malformed li", "ok", "4:not UTF-8 (b", "ok"]
    bad = items[1]
    assert isinstance(bad, BadPair) and bad.source == str(path) and str(bad).startswith(f"{path}:2: ")
    assert isinstance(bad.error, FormatError) and bad.id == "2"
    good, rejected = split_bad(items)
    assert [p.line for p in good] == [1, 3, 5] and rejected == [items[1], items[3]]
    with pytest.raises(FormatError, match=rf"{path.name}:2:.*'x-4'"):
        load_pairs(path)


def test_read_pairs_jsonl_multimwa_giza(tmp_path: Path) -> None:
    good = '{"id": "a", "source": "x y", "target": "x", "sure": [[0, 0]]}'
    path = write(tmp_path, "g.jsonl", f'{good}\n{{"id": "b", "source": "x"\n\n'
                 f'{{"id": "c", "source": "x", "target": "x", "sure": "0-1"}}\n{good}\n')
    items = read_pairs(path)
    assert kinds(items) == ["ok", "2:invalid JSON", "4:pair 'c': li", "ok"]
    assert isinstance(items[2], BadPair) and isinstance(items[2].error, AlignmentIndexError)
    assert items[2].id == "c"
    path = write(tmp_path, "g.tsv", "0:0\ta\tN/A\ta\tN/A\t1\t1\t0-0\t\t\n1:1\ta b\tN/A\n"
                 "2:2\ta\tN/A\ta\tN/A\t1\t1\t0-0\t\t\n")
    assert kinds(read_pairs(path)) == ["ok", "2:expected at ", "ok"]
    path = write(tmp_path, "g.txt", "# sentence pair 1\na b\nNULL ({ / / }) a ({ 1 / / }) b ({ x / / })\n"
                 "# sentence pair 2\na\nNULL ({ / / }) a ({ 1 / / })\n")
    items = read_pairs(path)
    assert kinds(items) == ["3:malformed li", "ok"] and items[0].id == "1"


def test_read_pairs_jacana_and_companion(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", jacana_text("0-0 3-1"))
    items = read_pairs(path)
    assert kinds(items) == ["ok", "3:pair 'p2': l"] and items[1].id == "p2"
    sure = write(tmp_path, "x.sure.json", jacana_text("0-0 1_1"))
    write(tmp_path, "x.sure+poss.json", jacana_text("0-0 1-1"))
    assert kinds(read_pairs(sure)) == ["ok", "3:malformed li"]
    broken = write(tmp_path, "broken.json", '[\n {"id": "1", "source": "a", "target": "a"},\n {"id": \n]')
    with pytest.raises(FormatError, match="invalid JSON"):  # the list cannot be read past it
        read_pairs(broken)


def test_read_pairs_names_the_file_as_told(tmp_path: Path) -> None:
    path = write(tmp_path, "copy", "0-0\nbad\n")
    items = read_pairs(path, name="<stdin>")
    assert str(items[1]).startswith("<stdin>:2: ")
    with pytest.raises(FormatError, match="^<stdin>:1: cannot tell"):
        read_pairs(write(tmp_path, "prose", "Hello world\n"), name="<stdin>")


def test_detect_format_looks_past_a_bad_first_line(tmp_path: Path) -> None:
    assert detect_format(write(tmp_path, "p.txt", "0-0 x-1\n0-0 1-1\n")) == "pharaoh"
    latin = tmp_path / "l.txt"
    latin.write_bytes(b"caf\xe9\n")
    with pytest.raises(FormatError, match=r"l.txt:1: not UTF-8"):
        detect_format(latin)


# -- the real corpora: README counts -----------------------------------------------------------
COUNTS = [
    # path, pairs, sure links, possible-only links (None: not checked)
    ("msr-rte2/converted/RTE2_test_M.align.json", 800, 5697, 0),
    ("msr-rte2/converted/RTE2_test_M.align.txt", 800, 5697, None),
    ("msr-rte2/derived/RTE2_test_M.jsonl", 800, 5697, None),
    ("msr-rte2/converted/RTE2_dev_M.align.txt", 800, None, None),
    ("msr-rte2/orig/RTE2_test_A.align.txt", 800, None, None),
    ("edinburgh-pp/gold/gold.test.sure.json", 306, 5766, 871),
    ("edinburgh-pp/gold/gold.test.sure+poss.json", 306, 5766, 871),
    ("edinburgh-pp/gold/gold.train.sure.json", 714, 13314, 2532),
    ("mtreference/mt-reference.dev.json", 2000, 34348, None),
    ("mtreference/mt-reference.test.json", 1998, 36065, None),
    ("multimwa-mtref/mtref-train.tsv", 2398, 51040, 0),
    ("multimwa-mtref/mtref-dev.tsv", 800, 13693, 2072),
    ("multimwa-mtref/mtref-test.tsv", 800, 14425, 1927),
]


@pytest.mark.data
@pytest.mark.parametrize(("name", "pairs", "sure", "possible"), COUNTS)
def test_readme_counts(data: Path, name: str, pairs: int, sure: int | None, possible: int | None) -> None:
    path = data / "alignment" / name
    loaded = load_pairs(path)
    assert len(loaded) == pairs
    if sure is not None:
        assert sum(len(p.sure) for p in loaded) == sure
    if possible is not None:
        assert sum(len(p.alignment.possible_only) for p in loaded) == possible


def _dash(text: str) -> set[tuple[int, int]]:
    return {(int(i), int(j)) for i, j in (link.split("-") for link in text.split())}


def _giza_line(line: str) -> tuple[list[str], set, set]:
    """Target tokens, sure and possible links of a GIZA line, read by a regex (1-based, NULL first)."""
    words = re.findall(r"(\S+) \(\{([^}]*)\}\)", line)[1:]
    links = [(index, j) for j, (_, indexes) in enumerate(words) for index in indexes.split("/")[0].split()]
    sure = {(int(index) - 1, j) for index, j in links if not index.startswith("p")}
    return [word for word, _ in words], sure, sure | {(int(index[1:]) - 1, j) for index, j in links if index[0] == "p"}


def _independent(path: Path) -> list[tuple]:
    """(id, source, target, sure, sure and possible) of each pair, read with json and str.split."""
    if path.suffix == ".json":
        return [(o["id"], o["source"].split(), o["target"].split(), _dash(o["sureAlign"]),
                 _dash(o["sureAlign"]) | _dash(o["possibleAlign"])) for o in json.loads(path.read_text("utf-8"))]
    lines = path.read_text("utf-8").splitlines()
    if path.suffix == ".jsonl":
        records = [json.loads(line) for line in lines]
        return [(str(o["id"]), o["source"].split(), o["target"].split(), set(map(tuple, o["sure"])),
                 set(map(tuple, o["sure"] + o["possible"]))) for o in records]
    if path.suffix == ".tsv":
        rows = [line.split("\t") for line in lines]
        return [(f[0], f[1].split(), f[3].split(), _dash(f[7]), _dash(f[7]) | _dash(f[8])) for f in rows]
    triples = [lines[k:k + 3] for k in range(0, len(lines), 3)]
    return [(header.split()[-1], source.split(), *_giza_line(target)) for header, source, target in triples]


@pytest.mark.data
@pytest.mark.parametrize("name", ["edinburgh-pp/gold/gold.train.sure.json", "mtreference/mt-reference.test.json",
                                  "msr-rte2/converted/RTE2_dev_M.align.txt", "msr-rte2/derived/RTE2_dev_M.jsonl",
                                  "multimwa-mtref/mtref-dev.tsv"])
def test_each_pair_as_an_independent_read_finds_it(data: Path, name: str) -> None:
    """Ids, tokens (exact), sure links and possible links of every pair of a real file of each
    format as json, str.split and a regex read them: none dropped, merged, moved or altered."""
    path = data / "alignment" / name
    pairs = [(p.id, list(p.source), list(p.target), set(p.sure), set(p.possible))
             for p in read_pairs(path, possible_path=None)]
    assert pairs == _independent(path)


@pytest.mark.data
def test_msr_test_gold_files_agree(data: Path) -> None:
    root = data / "alignment" / "msr-rte2"
    json_pairs = load_pairs(root / "converted" / "RTE2_test_M.align.json")
    txt_pairs = load_pairs(root / "converted" / "RTE2_test_M.align.txt")
    jsonl_pairs = load_pairs(root / "derived" / "RTE2_test_M.jsonl")
    assert [p.sure for p in json_pairs] == [p.sure for p in txt_pairs] == [p.sure for p in jsonl_pairs]
    assert [p.alignment for p in txt_pairs] == [p.alignment for p in jsonl_pairs]
    assert [p.id for p in json_pairs] == [p.id for p in txt_pairs]


@pytest.mark.data
def test_msr_dev_json_is_lossy(data: Path) -> None:
    """README: dev M .json misses 180 sure links in 101 pairs; the .txt is complete."""
    root = data / "alignment" / "msr-rte2" / "converted"
    lossy = load_pairs(root / "RTE2_dev_M.align.json")
    full = load_pairs(root / "RTE2_dev_M.align.txt")
    assert sum(len(f.sure - j.sure) for j, f in zip(lossy, full, strict=True)) == 180
    assert sum(j.sure != f.sure for j, f in zip(lossy, full, strict=True)) == 101


@pytest.mark.data
def test_orig_files_with_boms_load(data: Path) -> None:
    pairs = load_pairs(data / "alignment" / "msr-rte2" / "orig" / "RTE2_test_B.align.txt")
    assert len(pairs) == 800
    assert not any("\ufeff" in tok for p in pairs for tok in p.source + p.target)
    assert pairs[0].target[0] == "Shukla"


@pytest.mark.data
def test_mtreference_groups(data: Path) -> None:
    groups = load_groups(data / "alignment" / "mtreference" / "mt-reference.test.json")
    assert len(groups) == 1154
    sizes = Counter(
        len({" ".join(s) for p in pairs for s in (p.source, p.target)}) for pairs in groups.values()
    )
    assert sizes == {2: 710, 3: 173, 4: 114, 5: 82, 6: 39, 7: 20, 8: 14, 9: 2}
    assert len(load_groups(data / "alignment" / "mtreference" / "mt-reference.dev.json")) == 1151


@pytest.mark.data
def test_truncated_orig_file_is_reported_with_its_line(data: Path) -> None:
    """orig/RTE2_dev_C.align.txt is cut off inside pair 800; the error names file and line."""
    path = data / "alignment" / "msr-rte2" / "orig" / "RTE2_dev_C.align.txt"
    with pytest.raises(FormatError, match=r"RTE2_dev_C.align.txt:2400: unclosed"):
        load_pairs(path)
    assert len(list(zip(range(799), iter_pairs(path), strict=False))) == 799  # the rest streams fine


def test_unreadable_inputs_are_input_file_errors_naming_the_file(tmp_path: Path) -> None:
    """Every reader reports a missing file, a directory or a broken gzip file the same way."""
    from paralign.corpora.parallel import count_lines, iter_parallel
    from paralign.corpora.wmt import iter_lines

    fake = tmp_path / "fake.txt.gz"
    fake.write_bytes(b"not gzip at all\n")
    for path in (tmp_path / "missing.txt", fake):
        for read in (lambda p: read_pairs(p, "pharaoh"), count_lines, lambda p: list(iter_lines(p)),
                     lambda p: list(iter_parallel(p, p, check_counts=False))):
            with pytest.raises(InputFileError, match=path.name):
                read(path)
    with pytest.raises(InputFileError, match="is a directory, not a file"):
        load_pairs(tmp_path)


def test_invalid_json_names_the_column_in_the_line_as_read(tmp_path: Path) -> None:
    good = '{"id": "a", "source": "x y", "target": "x", "sure": [[0, 0]]}'
    path = write(tmp_path, "cut.jsonl", f'{good}\n  {{"id": "b", "source": "x\n')  # indented: column as read
    items = read_pairs(path)
    assert str(items[1].error) == f"{path}:2: invalid JSON (column 25): Unterminated string starting here"
    path = write(tmp_path, "cut.json", '[\n {"id": "1", "source": "a", "target": "a"},\n {"id": "2", "source": "a\n]')
    with pytest.raises(FormatError) as info:
        load_pairs(path, format="jacana")
    assert str(info.value) == f"{path}:3: invalid JSON (column 26): Invalid control character here"


def test_a_jsonl_link_key_of_another_spelling_is_read_or_refused_not_ignored(tmp_path: Path) -> None:
    """jacana's ``sureAlign``/``possibleAlign`` written one pair a line were ignored without a
    word, so such a gold read as pairs without links and scored 0 everywhere: they are now read
    as jacana's reader reads them; a key naming links in another spelling (``possible_links``),
    or both spellings of one, is an error naming it."""
    path = write(tmp_path, "jacana.jsonl",
                 '{"id": "b", "source": "x y", "target": "x z", "sureAlign": "0-0", "possibleAlign": "1-1"}\n')
    (pair,) = load_pairs(path)
    assert pair.alignment.sure == {(0, 0)} and pair.alignment.possible == {(0, 0), (1, 1)}
    path = write(tmp_path, "possible.jsonl", '{"source": "x", "target": "x", "sure": [], "possible_links": [[0, 0]]}\n')
    with pytest.raises(FormatError, match=rf"{path.name}:1:.*'possible_links'.*'possible'"):
        load_pairs(path)
    path = write(tmp_path, "both.jsonl", '{"source": "x", "target": "x", "sure": [], "sureAlign": "0-0"}\n')
    with pytest.raises(FormatError, match=rf"{path.name}:1:.*both 'sureAlign' and 'sure'"):
        load_pairs(path)


def test_half_a_surrogate_pair_is_a_bad_pair_at_its_line(tmp_path: Path) -> None:
    r"""A string escape that is half a surrogate pair (``"\ud800"`` alone) decodes to no
    character: the pair read, and failed later (annotation, writing a token file). It is a bad
    pair named at the line of the escape, as a bad byte is: a JSONL line is skipped, a jacana
    element too (its line the escape's, not the element's first); an id that holds one is not
    the pair's name."""
    good = '{"id": "a", "source": "x y", "target": "x", "sure": [[0, 0]]}'
    path = write(tmp_path, "s.jsonl", f'{good}\n{{"id": "b", "source": "x \\udfff", "target": "x", "sure": []}}\n'
                                      f'{{"id": "\\ud800", "source": "x", "target": "x"}}\n')
    items = read_pairs(path)
    assert [type(item).__name__ for item in items] == ["AlignedPair", "BadPair", "BadPair"]
    assert str(items[1].error) == f'{path}:2: "\\udfff" (column 26) is half of a UTF-16 surrogate pair, no character'
    assert (items[1].id, items[2].id, items[2].line) == ("b", "3", 3)
    path = write(tmp_path, "s.json", '[\n {"id": "1", "source": "a", "target": "a"},\n {"id": "2",\n'
                                     '  "source": "a \\uD800", "target": "a"}\n]')
    items = read_pairs(path, format="jacana")
    assert isinstance(items[1], BadPair) and items[1].id == "2"
    assert str(items[1].error) == f'{path}:4: "\\uD800" (column 16) is half of a UTF-16 surrogate pair, no character'
    with pytest.raises(FormatError, match=r"s\.json:4: .* is half of a UTF-16 surrogate pair"):
        load_pairs(path, format="jacana")


@pytest.mark.parametrize("links", ['"sure": [[-1, 2]]', '"sure": [[0, 0]], "possible": [[2, -3]]'])
def test_a_negative_index_in_a_links_only_jsonl_record_names_file_line_and_pair(tmp_path: Path, links: str) -> None:
    """A system output of links only (no tokens) with a negative index was a bad item whose
    error named neither the file nor the line ('Alignment sure: a link must be ...'), where the
    same link in a record with tokens, or a link past the end, names both."""
    path = write(tmp_path, "system.jsonl", f'{{"id": "a", "sure": [[0, 0]]}}\n{{"id": "b", {links}}}\n')
    items = read_pairs(path)
    assert isinstance(items[0], AlignedPair) and isinstance(items[1], BadPair)
    assert (items[1].id, items[1].source, items[1].line) == ("b", str(path), 2)
    assert items[1].reason.startswith("pair 'b': ") and "non-negative" in items[1].reason
    with pytest.raises(FormatError, match=rf"{path.name}:2: pair 'b'"):
        load_pairs(path)


@pytest.mark.parametrize("possible", ['"possible": [[1, 1]]', '"possible": "1-1"', '"possibleAlign": "1-1"'])
def test_possible_links_beside_a_pharaoh_alignment_are_read(tmp_path: Path, possible: str) -> None:
    """A JSONL record's "possible" (or jacana's "possibleAlign") beside an "alignment" string
    was ignored without a word (beside "sure" it is read): the gold lost its possible links."""
    path = write(tmp_path, "gold.jsonl", f'{{"source": "a b", "target": "c d", "alignment": "0-0", {possible}}}\n')
    (pair,) = load_pairs(path)
    assert pair.alignment.sure == {(0, 0)} and pair.alignment.possible == {(0, 0), (1, 1)}


def test_sure_links_come_from_elsewhere_only_for_a_sure_poss_gold_with_its_sure_companion(tmp_path: Path) -> None:
    """ParaMetric's --links sure signs the companion only where it gives the sure links."""
    import shutil

    from paralign.corpora.alignments import sure_links_elsewhere

    assert not sure_links_elsewhere(EXAMPLES / "gold.sure.json")  # its companion gives possible links only
    assert sure_links_elsewhere(EXAMPLES / "gold.sure+poss.json")  # its sure links: gold.sure.json's
    assert not sure_links_elsewhere(EXAMPLES / "gold.jsonl")
    alone = tmp_path / "gold.sure+poss.json"
    shutil.copy(EXAMPLES / "gold.sure+poss.json", alone)
    assert not sure_links_elsewhere(alone)  # read alone: all its links are its own sure ones


def test_a_companion_whose_name_holds_a_bar_is_refused(tmp_path) -> None:
    """A jacana gold ``g|1.sure.json`` whose sure+poss companion is read signed
    ``possible:g|1.sure+poss.json#HASH``, read back as ``possible:g`` and a keyless part; now a
    ConfigurationError naming the companion."""
    from paralign.corpora.alignments import possible_links_source
    from paralign.errors import ConfigurationError

    for name in ("sure", "sure+poss"):
        (tmp_path / f"g|1.{name}.json").write_bytes((EXAMPLES / f"gold.{name}.json").read_bytes())
    with pytest.raises(ConfigurationError, match=re.escape(f"{tmp_path / 'g|1.sure+poss.json'}: the file's name")):
        possible_links_source(tmp_path / "g|1.sure.json")


def test_a_file_of_sentence_pairs_is_told_as_one(tmp_path: Path) -> None:
    """evaluate-aligner --gold pairs.tsv (a file of sentence pairs, no links) said only "cannot
    tell the alignment format ... (known: jacana, ...)": it now says the line looks like sentence
    pairs and what to do; a line of another kind is told as before."""
    from paralign.corpora import load_pairs
    from paralign.errors import FormatError

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A cat sat .\tA cat sits .\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"pairs.tsv:1: cannot tell the alignment format .*\(known: .*\); it looks "
                                          r"like a line of sentence pairs, with no links: a gold alignment file gives each pair's links"):
        load_pairs(pairs)
    other = tmp_path / "other.txt"
    other.write_text("hello world\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"\(known: jacana, jsonl, giza, multimwa, pharaoh\)$"):
        load_pairs(other)


def test_a_groups_file_of_eight_or_more_fields_is_no_multimwa_gold(tmp_path: Path) -> None:
    """A line of 8 tab-separated fields or more was MultiMWA whatever they held, so a Bible TSV
    (11 fields: verse_id, book, chapter, verse and 7 versions) given as a gold was read as
    MultiMWA pairs, each line a 'malformed link' of a verse's words ('DRA' in pair 'verse_id'):
    `parametric table` said no gold pair could be read, naming a link. MultiMWA's 8th field is
    its sure links; a line without links there is no MultiMWA line, and one of 4 or more fields
    without any link is said to hold none, as a groups file does."""
    from paralign.corpora import detect_format, load_pairs
    from paralign.errors import FormatError

    bible = tmp_path / "bible.tsv"
    bible.write_text("verse_id\tbook\tchapter\tverse\tASV\tBBE\tDARBY\tDRA\tKJV\n"
                     "Gen.1.1\tGen\t1\t1\tIn the beginning\tAt the first\tIn the beginning\tIn the beginning\tIn the "
                     "beginning\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bible\.tsv:1: cannot tell the alignment format .*; it holds 9 "
                                          r"tab-separated fields and no links, as a groups file"):
        load_pairs(bible)
    groups = tmp_path / "groups.tsv"
    groups.write_text("a b c\ta b d\ta c d\ta d e\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"it holds 4 tab-separated fields and no links"):
        detect_format(groups)
    multimwa = tmp_path / "m.tsv"
    multimwa.write_text("0:0\ta b\tN/A\ta c\tN/A\t1\t1\t0-0\t\t\n1:1\ta\tN/A\ta\tN/A\t1\t1\t\t\t\n", encoding="utf-8")
    assert detect_format(multimwa) == "multimwa" and len(load_pairs(multimwa)) == 2


@pytest.mark.parametrize("bad", [b"caf\xe9", b"caf\x00"], ids=["not-utf8", "nul"])
def test_jacana_pair_with_a_bad_byte_is_one_bad_pair_the_others_read(tmp_path: Path, bad: bytes) -> None:
    """One byte that is not UTF-8 (or a NUL) in one pair's sentence stopped the whole jacana file,
    every other pair with it, where the GIZA, MultiMWA, Pharaoh and JSONL readers skip that line
    alone. Now that pair is a BadPair naming its line and column, as theirs, and the others are read;
    a bad byte that spoils the JSON itself still stops the file, with the byte's message."""
    from paralign.corpora.base import BadPair

    path = tmp_path / "g.json"
    path.write_bytes(b'[\n {"id": "p1", "source": "a", "target": "a", "sureAlign": "0-0"},\n'
                     b' {"id": "p2",\n  "source": "' + bad + b' b", "target": "b", "sureAlign": "1-0"},\n'
                     b' {"id": "p3", "source": "c", "target": "c", "sureAlign": "0-0"}\n]\n')
    items = read_pairs(path)
    assert [item.id for item in items] == ["p1", "p2", "p3"] and isinstance(items[1], BadPair)
    reason = "not UTF-8 (byte 0xe9" if bad.endswith(b"\xe9") else "a NUL byte (0x00"
    assert str(items[1].error).startswith(f"{path}:4: {reason} at column 17)")
    assert [item.alignment.to_pharaoh() for item in (items[0], items[2])] == ["0-0", "0-0"]
