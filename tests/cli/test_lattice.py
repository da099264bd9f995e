"""`paralign lattice ...` commands and the lattice evaluations on real corpus groups."""

from __future__ import annotations

import gzip
import json

import pytest

from paralign.cli import main
from paralign.lattice import LatticeOptions, evaluate_groups, incremental
from paralign.lattice.evaluate import (
    annotate_groups,
    mtreference_groups,
    read_groups,
    sample_groups,
)

GROUP = [
    "at least 12 people were killed in the battle last week .",
    "at least 12 persons died in the fighting last week .",
    "last week 's fighting took the lives of 12 people .",
]


@pytest.fixture()
def group_file(tmp_path):
    path = tmp_path / "group.txt"
    path.write_text("\n".join(GROUP) + "\n")
    return path


def run_json(capsys, *argv: str):
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_build_paths_distance_draw(tmp_path, group_file, capsys):
    lattice_json = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(lattice_json)]) == 0
    data = json.loads(lattice_json.read_text())
    assert data["states"] > 2 and data["edges"]
    paths = run_json(capsys, "lattice", "paths", "--lattice", str(lattice_json), "-k", "2", "--all", "100")
    assert int(paths["paths"]) >= 3 and len(paths["kbest"]) == 2
    assert {" ".join(s.split()) for s in GROUP} <= set(paths["all"])
    rows = run_json(capsys, "lattice", "distance", "--lattice", str(lattice_json), "--tokenized",
                    "--sentence", GROUP[0], "--sentence", "12 people died")
    assert rows[0]["distance"] == 0 and rows[1]["distance"] > 0
    assert main(["lattice", "draw", "--lattice", str(lattice_json), "-o", str(tmp_path / "l.svg")]) == 0
    assert "<svg" in (tmp_path / "l.svg").read_text()  # drawn in Python: no Graphviz needed
    capsys.readouterr()
    assert main(["lattice", "build", str(group_file), "--tokenized", "--method", "msa", "--format", "text"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].isdigit()  # OpenFst: final state last


def test_bad_lattice_file_is_reported(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["lattice", "paths", "--lattice", str(bad)]) == 1
    assert "bad.json" in capsys.readouterr().err


def test_stats_and_paraphrases_on_a_groups_file(tmp_path, capsys):
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n" + "only one sentence here .\n" + "\t".join(GROUP[:2]) + "\n")
    stats = run_json(capsys, "lattice", "stats", "--groups", str(groups), "--tokenized", "--leave-one-out",
                     "--incremental")
    for key in ("groups", "mean_log10_paths", "ed_input", "ed_lattice", "repetition_ratio"):
        assert key in stats
    assert stats["groups"] == 3 and stats["errors"] == []
    assert stats["ed_lattice"] <= stats["ed_input"]
    out = tmp_path / "table.tsv.gz"
    assert main(["lattice", "paraphrases", "--groups", str(groups), "--tokenized", "-o", str(out)]) == 0
    with gzip.open(out, "rt") as handle:
        header, record, *lines = handle
    assert header == "# phrase\tparaphrase\tscore\n"
    assert record.startswith("# paralign: ")  # below it every line is a row, '#' phrases included
    rows = [line.split("\t") for line in lines]
    assert ("persons", "people", 2.0) in {(r[0], r[1], float(r[2])) for r in rows}


def test_a_lattice_tables_count_is_named_score_by_its_header_and_by_paraphrases(tmp_path, capsys):
    """A lattice table's score is the number of groups giving the pair, which `lattice paraphrases
    --format json` calls "score"; `paraphrases --table` called it "probability" in JSON (the TSV
    named no column). The TSV now has pivot's kind of header, `# phrase TAB paraphrase TAB score`,
    and `paraphrases` names the score as the table does (score_column); a table written before,
    without the header, is read alike, its unnamed score "score" too."""
    from paralign.paraphrases import load_source

    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n" + "\t".join(GROUP[:2]) + "\n", encoding="utf-8")
    new = tmp_path / "new.tsv"
    assert main(["lattice", "paraphrases", "--groups", str(groups), "--tokenized", "-o", str(new)]) == 0
    header, record, *rows = new.read_text(encoding="utf-8").splitlines(keepends=True)
    assert header == "# phrase\tparaphrase\tscore\n" and record.startswith("# paralign: ")
    old = tmp_path / "old.tsv"
    old.write_text(record + "".join(rows), encoding="utf-8")  # as lattice paraphrases wrote it before
    answers = {}
    for table in (new, old):
        capsys.readouterr()
        assert main(["paraphrases", "persons", "--table", str(table), "--format", "json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["score_column"] == "score"
        assert result["phrases"][0]["paraphrases"][0] == {"paraphrase": "people", "score": 2.0}
        assert "probability" not in json.dumps(result)
        assert main(["paraphrases", "persons", "--table", str(table)]) == 0
        answers[table.name] = capsys.readouterr().out
        assert dict(load_source(str(table)).paraphrases("persons"))["people"] == 2.0
    assert answers["new.tsv"] == answers["old.tsv"] and "  2\tpeople\n" in answers["new.tsv"]


def test_bible_groups(data):
    path = data / "multitranslation/bible-ot/bible_7versions_ot.tsv"
    groups = sample_groups((g for k, g in zip(range(300), read_groups(path), strict=False)), 6, seed=1)
    annotated = list(annotate_groups(groups))
    summary, results = evaluate_groups(annotated, leave_one_out=True)
    assert summary["errors"] == [] and summary["groups"] == 6
    for res in results:
        assert all(sa <= inp for sa, inp in zip(res.ed_lattice, res.ed_input, strict=True))
    assert summary["ed_lattice"] < summary["ed_input"]


def test_mtreference_groups_syntax_vs_msa(data):
    groups = mtreference_groups(data / "alignment/mtreference/mt-reference.test.json", min_size=4)[:25]
    annotated = list(annotate_groups(groups))
    syntax, _ = evaluate_groups(annotated, leave_one_out=True)
    msa, _ = evaluate_groups(annotated, LatticeOptions(method="msa"))
    assert syntax["ed_lattice"] < syntax["ed_input"]
    assert syntax["repetition_ratio"] < msa["repetition_ratio"]  # the paper's finding
    rows = incremental(annotated[:10], min_size=4)
    assert rows[0]["ed_lattice"] == rows[0]["ed_input"]  # one translation: the lattice is that sentence


def test_draw_json_is_json_and_build_help_is_accurate(tmp_path, group_file, capsys):
    lattice_json = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(lattice_json)]) == 0
    drawn = run_json(capsys, "lattice", "draw", "--lattice", str(lattice_json))
    assert drawn["dot"].startswith("digraph")
    assert main(["lattice", "draw", "--lattice", str(lattice_json)]) == 0
    assert capsys.readouterr().out.startswith("digraph")  # text: DOT as before
    report = run_json(capsys, "lattice", "draw", "--lattice", str(lattice_json), "-o", str(tmp_path / "l.dot"))
    assert report == {"output": str(tmp_path / "l.dot"), "format": "dot"}
    assert (tmp_path / "l.dot").read_text().startswith("digraph")
    with pytest.raises(SystemExit):
        main(["lattice", "build", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "text: OpenFst text format" in help_text and "--lattice of the other actions reads back" in help_text


def test_bad_numbers_are_refused(tmp_path, group_file, capsys):
    lattice_json = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(lattice_json)]) == 0
    for option, value in (("--all", "-2"), ("-k", "-1"), ("--sample", "-3"), ("--all", "x")):
        with pytest.raises(SystemExit):
            main(["lattice", "paths", "--lattice", str(lattice_json), option, value])
        assert option.lstrip("-")[0] in capsys.readouterr().err
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n")
    for value in ("-1", "0"):
        with pytest.raises(SystemExit):
            main(["lattice", "paraphrases", "--groups", str(groups), "--sample", value,
                  "-o", str(tmp_path / "t.tsv")])
        assert "--sample" in capsys.readouterr().err
    assert not (tmp_path / "t.tsv").exists()


def test_distance_with_an_empty_sentences_file(tmp_path, group_file, capsys):
    lattice_json = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(lattice_json)]) == 0
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert main(["lattice", "distance", "--lattice", str(lattice_json), "--sentences", str(empty)]) == 1
    err = capsys.readouterr().err
    assert "empty.txt: no sentences" in err and "give --sentence" not in err
    empty.write_text("\n")  # a batch whose every line is bad (blank): reported in place, exit 1
    assert main(["lattice", "distance", "--lattice", str(lattice_json), "--sentences", str(empty)]) == 1
    out, err = capsys.readouterr()
    assert out == "\n" and "empty.txt:1: empty line" in err and "give --sentence" not in err
    assert main(["lattice", "distance", "--lattice", str(lattice_json)]) == 2  # a usage error (issue 23)
    assert "give --sentence" in capsys.readouterr().err


@pytest.fixture()
def msa_json(tmp_path):
    """A small lattice file (the MSA lattice of GROUP: no parser needed)."""
    from paralign.lattice import msa_lattice

    path = tmp_path / "msa.json"
    lattice = msa_lattice([s.split() for s in GROUP]).with_weights([s.split() for s in GROUP])
    path.write_text(json.dumps(lattice.to_dict()))
    return path, lattice


@pytest.mark.parametrize(("indent", "bom"), [(None, ""), (2, ""), (None, "\ufeff")])
@pytest.mark.parametrize(("argv", "says"), [
    (["paths"], "give it as --lattice {path}"),
    (["distance", "--sentence", "a b"], "give it as --lattice {path}"),
    (["build"], "draw, paths and distance read this one with --lattice {path}"),
])
def test_a_lattice_json_given_as_sentences_is_refused(msa_json, tmp_path, capsys, argv, says, indent, bom):
    """`lattice paths lattice.json` (the --lattice forgotten) read the JSON's lines as a group's
    sentences and counted the paths of a lattice of `{`, `"edges": [` and `0,`: exit 0, no word
    said. It is a usage error naming --lattice (a BOM before it too, as --groups refuses it)."""
    _, lattice = msa_json
    path = tmp_path / "l.json"
    path.write_text(bom + json.dumps(lattice.to_dict(), indent=indent), encoding="utf-8")
    assert main(["lattice", argv[0], str(path), *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert f"{path} holds a lattice (the JSON of lattice build --format json), not sentences" in err, err
    assert says.format(path=path) in err


@pytest.mark.parametrize("action", ["stats", "paraphrases"])
@pytest.mark.parametrize(("indent", "bom"), [(None, ""), (2, ""), (None, "\ufeff"), (2, "\ufeff")])
def test_a_lattice_json_given_as_groups_is_refused(msa_json, tmp_path, capsys, action, indent, bom):
    """`lattice stats --groups lattice.json` said "no usable pairs in the groups file (invalid
    JSON (column 2): ...)" of a valid JSON document, read as gold alignments: now a usage error
    saying what the file is and what --groups takes. With a BOM too, which --lattice reads and
    every sentences input drops: it still said "no usable pairs" there."""
    _, lattice = msa_json
    path = tmp_path / "l.json"
    path.write_text(bom + json.dumps(lattice.to_dict(), indent=indent), encoding="utf-8")
    assert main(["lattice", action, "--groups", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"--groups {path} holds a lattice (the JSON of lattice build --format json), not groups" in err, err


def test_lattice_json_as_lm_training_text_is_refused(msa_json, tmp_path, capsys):
    """--lm-train takes sentences: a lattice's JSON there is refused as a group's is."""
    path, _ = msa_json
    groups = tmp_path / "groups.tsv"
    groups.write_text("a b c\ta b d\n")
    assert main(["lattice", "stats", "--groups", str(groups), "--tokenized", "--lm-train", str(path)]) == 2
    assert "--lm-train takes held-out sentences" in capsys.readouterr().err


def test_a_line_too_long_to_parse(tmp_path, capsys):
    """`lattice build` of a 1.2-million-character line was spaCy's E088 ValueError as a
    traceback; `lattice stats` reported the group as spaCy's paragraph. A data error now, one line
    (exit 1), and in a groups file that group's warning while the others are measured."""
    long = "a b " * 300_000
    group = tmp_path / "group.txt"
    group.write_text(f"the cat sat\n{long}\n")
    assert main(["lattice", "build", str(group)]) == 1
    err = capsys.readouterr().err
    assert "sentence 2 too long to parse (1,199,999 characters" in err and "Traceback" not in err, err
    groups = tmp_path / "groups.tsv"
    groups.write_text(f"the cat sat\t{long}\nthe cat sat\ta cat sat\n")
    assert main(["lattice", "stats", "--groups", str(groups), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["groups"] == 1 and json.loads(out)["sentences"] == 2
    assert "groups.tsv:1: group line 1: FormatError: sentence 2 too long to parse" in err, err
    assert err.count("group line 1") == 1, err  # said "group line 1: FormatError: group line 1: sentence 2 ..."
    assert json.loads(out)["errors"][0]["error"].startswith("FormatError: sentence 2 too long to parse (")


def _svg_parts(root):
    groups = [e for e in root.iter() if e.tag.endswith("}g")]
    states = [g for g in groups if "state" in g.get("class", "").split()]
    edges = [g for g in groups if "edge" in g.get("class", "").split()]
    return states, edges


def test_draw_svg_and_html_without_graphviz(msa_json, tmp_path, capsys, monkeypatch):
    import xml.etree.ElementTree as ET

    path, lattice = msa_json
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))  # no dot, no rsvg-convert
    svg = tmp_path / "l.svg"
    assert run_json(capsys, "lattice", "draw", "--lattice", str(path), "-o", str(svg)) == {
        "output": str(svg), "format": "svg"}
    states, edges = _svg_parts(ET.parse(svg).getroot())
    assert len(states) == lattice.n_states and len(edges) == lattice.n_edges
    assert sorted(e.get("data-word") for e in edges) == sorted(w for _, w, _ in lattice.edges)
    assert ET.parse(svg).getroot().get("viewBox").startswith("0 0 ")
    page = tmp_path / "l.html"
    assert main(["lattice", "draw", "--lattice", str(path), "-o", str(page)]) == 0
    assert capsys.readouterr().out == f"output: {page}\nformat: html\n"
    root = ET.fromstring(page.read_bytes())
    assert root.find("head/title").text == "word lattice of msa.json"
    assert any((p.text or "").startswith("Read left to right") for p in root.iter("p"))  # the key
    states, edges = _svg_parts(root)
    assert len(states) == lattice.n_states and len(edges) == lattice.n_edges
    # the edges as a table too: an edge's word and use were in its tooltip only, out of a
    # keyboard's or a screen reader's reach (the web app's lattice page had the table already)
    rows = [[td.text for td in tr.iter("td")] for tr in root.iter("tr") if tr.get("class") == "edge-row"]
    weights = lattice.weights or [None] * lattice.n_edges
    assert sorted(rows) == sorted([str(s), "ε" if w is None else w, str(d), *([] if n is None else [str(n)])]
                                  for (s, w, d), n in zip(lattice.edges, weights, strict=True))
    gv = tmp_path / "l.gv"
    assert run_json(capsys, "lattice", "draw", "--lattice", str(path), "-o", str(gv))["format"] == "dot"
    assert gv.read_text() == lattice.to_dot()


@pytest.mark.parametrize("given", ["-", "/dev/stdin"])
def test_a_drawing_of_stdin_is_titled_as_every_result_names_stdin(group_file, tmp_path, capsys, monkeypatch, given):
    """A picture drawn from stdin is "word lattice of <stdin>" (`<stdin>`: every result's name
    for it, docs/CLI.md), and otherwise the one of the same bytes from a file but for that name;
    it was "stdin", which reads as a file of that name."""
    import io
    import sys
    import xml.etree.ElementTree as ET

    from_file, from_stdin = tmp_path / "file.html", tmp_path / "stdin.html"
    assert main(["lattice", "draw", str(group_file), "--method", "msa", "-o", str(from_file)]) == 0
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(group_file.read_bytes()), encoding="utf-8"))
    assert main(["lattice", "draw", given, "--method", "msa", "-o", str(from_stdin)]) == 0
    assert ET.fromstring(from_stdin.read_bytes()).find("head/title").text == "word lattice of <stdin>"
    assert from_stdin.read_text() == from_file.read_text().replace("group.txt", "&lt;stdin&gt;")


@pytest.mark.parametrize("action", ["paths", "draw", "distance"])
def test_the_empty_json_of_build_on_no_sentences_is_named_empty_when_read_back(tmp_path, capsys, action):
    """`lattice build --format json` of an empty file writes nothing, exit 0 (docs/CLI.md); that
    file given to `--lattice` was "invalid JSON (column 1): Expecting value". It is the file, empty."""
    empty, built = tmp_path / "none.txt", tmp_path / "none.json"
    empty.write_text("", encoding="utf-8")
    assert main(["lattice", "build", "--format", "json", str(empty), "-o", str(built)]) == 0
    assert built.read_bytes() == b""
    capsys.readouterr()
    extra = ["--sentence", "a b"] if action == "distance" else []
    assert main(["lattice", action, "--lattice", str(built), *extra]) == 1
    err = capsys.readouterr().err
    assert f"{built}: empty: no lattice" in err and "invalid JSON" not in err, err


def test_draw_refuses_an_unknown_suffix(msa_json, tmp_path, capsys):
    path, _ = msa_json
    assert main(["lattice", "draw", "--lattice", str(path), "-o", str(tmp_path / "l.txt")]) == 2
    err = capsys.readouterr().err
    assert "l.txt" in err and ".svg" in err and ".png" in err
    assert not (tmp_path / "l.txt").exists()


@pytest.mark.parametrize(("name", "kind"), [("l.svg.gz", "svg"), ("l.html.GZ", "html"), ("l.dot.gz", "dot")])
def test_draw_compresses_a_gz_name(msa_json, tmp_path, capsys, name, kind):
    """`lattice draw -o l.svg.gz` was refused ("cannot tell what to write to l.svg.gz"), though
    every other command writes gzip to a .gz name (align -o FILE.svg.gz): it is the picture the
    name without .gz gets, gzip-compressed."""
    import gzip

    path, _ = msa_json
    plain, packed = tmp_path / name.rsplit(".", 1)[0], tmp_path / name
    assert run_json(capsys, "lattice", "draw", "--lattice", str(path), "-o", str(packed)) == {
        "output": str(packed), "format": kind}
    assert main(["lattice", "draw", "--lattice", str(path), "-o", str(plain)]) == 0
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()


@pytest.mark.parametrize(("name", "says"), [("l.png.gz", "a PNG is compressed already"),
                                            ("l.svgz", "give -o FILE.svg.gz"), ("l.gz", "cannot tell what")])
def test_draw_refuses_gzip_it_cannot_write(msa_json, tmp_path, capsys, name, says):
    """A PNG is not written through gzip, .svgz is named .svg.gz as align names it, and .gz alone says nothing."""
    path, _ = msa_json
    assert main(["lattice", "draw", "--lattice", str(path), "-o", str(tmp_path / name)]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / name).exists()


def test_draw_refuses_a_lattice_too_large_to_draw_and_writes_its_dot(tmp_path, capsys):
    """`lattice draw -o chain.svg` of a 2,000-state chain wrote a picture 247,205 px wide. It is
    a usage error now (exit 2, no file), naming the size and the DOT output, which still works:
    per docs/CLI.md's exit status, the input is no wrong data (its DOT is written, exit 0), the
    command line asks for an output that cannot hold it, and another -o is the remedy."""
    chain = tmp_path / "chain.json"
    chain.write_text(json.dumps({"states": 2000, "start": 0, "end": 1999,
                                 "edges": [[k, "word", k + 1] for k in range(1999)]}), encoding="utf-8")
    for name in ("chain.svg", "chain.html"):
        assert main(["lattice", "draw", "--lattice", str(chain), "-o", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert "too large to draw" in err and "-o FILE.dot" in err, err
        assert not (tmp_path / name).exists()
    assert main(["lattice", "draw", "--lattice", str(chain), "-o", str(tmp_path / "chain.dot")]) == 0
    assert (tmp_path / "chain.dot").read_text(encoding="utf-8").count("->") == 1999


def test_the_too_large_message_names_commands_that_write_what_it_promises(tmp_path, capsys):
    """The refusal named `paralign lattice build` for the OpenFst text of whatever was drawn, but
    `lattice build` reads sentences and has no --lattice: for `lattice draw --lattice big.json`
    the command it named could not write it. Each command it names is run as it says: `lattice
    draw -o FILE.dot` on the same --lattice, `lattice build` on the sentences the lattice was built
    from (the message says so), which writes the OpenFst text of the same lattice."""
    import re

    sentences = tmp_path / "chain.txt"
    sentences.write_text(" ".join(f"w{k}" for k in range(2000)) + "\n", encoding="utf-8")
    built = tmp_path / "chain.json"
    assert main(["lattice", "build", "--tokenized", str(sentences), "--format", "json", "-o", str(built)]) == 0
    assert main(["lattice", "draw", "--lattice", str(built), "-o", str(tmp_path / "chain.svg")]) == 2
    err = capsys.readouterr().err
    named = re.findall(r"`paralign (lattice \w+)([^`]*)`([^,)]*)", err)
    assert [action for action, _, _ in named] == ["lattice draw", "lattice build"], err
    assert main(["lattice", "draw", "--lattice", str(built), "-o", str(tmp_path / "chain.dot")]) == 0
    _, _, build_reads = named[1]
    assert build_reads.strip() == "of the sentences it was built from", err
    with pytest.raises(SystemExit) as usage:  # build reads no lattice JSON: the message cannot send one there
        main(["lattice", "build", "--lattice", str(built)])
    assert usage.value.code == 2
    capsys.readouterr()
    assert main(["lattice", "build", "--tokenized", str(sentences), "-o", str(tmp_path / "chain.fst")]) == 0
    assert len((tmp_path / "chain.fst").read_text(encoding="utf-8").splitlines()) == 2001  # 2,000 edges, the end state


#: A stand-in converter: copies its input to the file named by its last argument.
COPY = "import sys\nopen(sys.argv[-1], 'wb').write(sys.stdin.buffer.read())\n"
FAIL = "import sys\nsys.stderr.write('cannot render\\n')\nsys.exit(3)\n"


def _fake(folder, name: str, body: str) -> None:
    """A program `name` in `folder`: Python `body` run by this interpreter."""
    import sys

    script = folder / name
    script.write_text(f"#!{sys.executable}\n{body}")
    script.chmod(0o755)


def test_draw_png_needs_a_converter(msa_json, tmp_path, capsys, monkeypatch):
    path, lattice = msa_json
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    png = tmp_path / "l.png"
    assert main(["lattice", "draw", "--lattice", str(path), "-o", str(png)]) == 2
    err = capsys.readouterr().err
    assert "rsvg-convert" in err and "dot" in err and not png.exists()
    # Graphviz only: it is given the DOT text (the last argument is the output file)
    _fake(bin_dir, "dot", COPY)
    assert run_json(capsys, "lattice", "draw", "--lattice", str(path), "-o", str(png)) == {
        "output": str(png), "format": "png"}
    assert png.read_text() == lattice.to_dot()
    # rsvg-convert is preferred: it is given the SVG drawing
    _fake(bin_dir, "rsvg-convert", COPY)
    assert main(["lattice", "draw", "--lattice", str(path), "-o", str(png)]) == 0
    assert png.read_text().startswith("<?xml") and "<svg" in png.read_text()
    _fake(bin_dir, "rsvg-convert", FAIL)
    assert main(["lattice", "draw", "--lattice", str(path), "-o", str(png)]) == 1
    err = capsys.readouterr().err
    assert "rsvg-convert could not write" in err and "cannot render" in err


@pytest.mark.parametrize("stdin", [False, True])
def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path, capsys, monkeypatch, stdin):
    """`lattice build` from a file or stdin starting with a UTF-8 BOM gives the lattice of the
    text without it (the mark once made an edge `\\ufeffthe` beside `a`)."""
    import io
    import sys

    text = "The cat sat .\nA cat sat .\n"
    (tmp_path / "plain.txt").write_text(text, encoding="utf-8")
    assert main(["lattice", "build", str(tmp_path / "plain.txt"), "--tokenized", "--method", "msa"]) == 0
    expected = capsys.readouterr().out
    data = b"\xef\xbb\xbf" + text.encode("utf-8")
    if stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        source = "-"
    else:
        (tmp_path / "bom.txt").write_bytes(data)
        source = str(tmp_path / "bom.txt")
    assert main(["lattice", "build", source, "--tokenized", "--method", "msa"]) == 0
    out = capsys.readouterr().out
    assert "\ufeff" not in out and out == expected


def test_paraphrases_are_written_in_the_same_order_whatever_the_hash_seed(tmp_path):
    """`lattice paraphrases` rows are sorted (phrase, score highest first, paraphrase): runs
    under different PYTHONHASHSEED values write the same bytes, to stdout and to -o (they
    once came in the iteration order of a set of strings)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import paralign

    groups = tmp_path / "groups.tsv"
    groups.write_text("The cat sat on the mat.\tA cat was sitting on the mat.\tThe cat was sitting on the rug.\n"
                      "He left early.\tHe departed early.\tHe went away early.\n", encoding="utf-8")
    src = str(Path(paralign.__file__).parents[1])
    outputs = {}
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": os.pathsep.join(filter(None, (src, os.environ.get("PYTHONPATH"))))}
        out = tmp_path / f"t{seed}.json"
        done = subprocess.run([sys.executable, "-m", "paralign", "lattice", "paraphrases", "--groups", str(groups)],
                              env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert subprocess.run([sys.executable, "-m", "paralign", "lattice", "paraphrases", "--groups", str(groups),
                               "--format", "json", "-o", str(out)], env=env, check=False).returncode == 0
        outputs[seed] = (done.stdout, out.read_bytes())
    rows = [line.split("\t") for line in outputs["1"][0].splitlines()[2:]]  # below the table's header and record
    assert len(rows) > 10 and rows == sorted(rows, key=lambda r: (r[0], -float(r[2]), r[1]))
    assert outputs["1"] == outputs["2"] == outputs["3"]


def test_distance_keeps_a_blank_line_of_sentences_in_its_place(tmp_path, group_file, capsys):
    """`--sentences` is a batch (docs/CLI.md): a blank line is reported as FILE:LINE and its row
    stays in place (an empty line in text, an error record in JSON), so rows match lines."""
    lattice_json = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(lattice_json)]) == 0
    sentences = tmp_path / "s.txt"
    sentences.write_text(f"{GROUP[0]}\n\n12 people died\n  \n", encoding="utf-8")
    base = ["lattice", "distance", "--lattice", str(lattice_json), "--tokenized", "--sentences", str(sentences)]
    assert main(base) == 0
    out, err = capsys.readouterr()
    lines = out.split("\n")
    assert len(lines) == 5 and lines[1] == lines[3] == lines[4] == ""
    assert lines[0] == f"0\t{len(GROUP[0].split())}\t{GROUP[0]}" and lines[2].endswith("\t3\t12 people died")
    assert "s.txt:2: empty line" in err and "s.txt:4: empty line" in err and "2 of 4 input lines bad" in err
    assert "s.txt:2: empty line (empty output line)" in err
    assert main([*base, "--format", "json"]) == 0
    err = capsys.readouterr().err  # the warning says what JSON holds there, not "empty output line"
    assert 's.txt:2: empty line (an "error" object in its place)' in err and "empty output line" not in err
    rows = run_json(capsys, *base)
    assert [r.get("line") for r in rows] == [None, 2, None, 4] and rows[1]["error"] == "empty line"
    assert rows[1]["distance"] is None and rows[2]["distance"] > 0
    sentences.write_bytes(b"12 people died\ncaf\xe9\n")  # not UTF-8: skipped in place (--encoding-errors skip)
    assert main(base) == 0
    out, err = capsys.readouterr()
    assert out.endswith("12 people died\n\n") and "s.txt:2: not UTF-8" in err
    assert main([*base, "--strict"]) == 1
    assert main([*base, "--encoding-errors", "strict"]) == 1
    assert "s.txt:2: not UTF-8" in capsys.readouterr().err


def test_stats_incremental_text_has_its_heading_gain_and_minimum(tmp_path, capsys):
    """--incremental rows come under their own heading with their gain (not under `paths by mean
    sentence length:`), and a run whose groups are all under --incremental-min-size says so."""
    five = [*GROUP, "12 people were killed in last week 's battle .", "the battle last week killed 12 people ."]
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(five) + "\n" + "\t".join(GROUP) + "\n", encoding="utf-8")
    base = ["lattice", "stats", "--groups", str(groups), "--tokenized", "--incremental"]
    assert main(base) == 0
    lines = capsys.readouterr().out.splitlines()
    heading = lines.index("incremental (one sentence held out vs n others, groups of 4 or more sentences):")
    assert lines.index("paths by mean sentence length:") < heading
    rows = lines[heading + 1:-1]
    assert [r.split(":")[0] for r in rows] == ["  n=1", "  n=2", "  n=3", "  n=4"] and lines[-1] == "errors: 0"
    assert all(r.startswith(f"  n={n}: 1 group, ed_input ") and ", gain " in r for n, r in enumerate(rows, 1))
    stats = run_json(capsys, *base)
    assert stats["incremental_min_size"] == 4 and len(stats["incremental"]) == 4
    assert rows[0].endswith(f"gain {stats['incremental'][0]['gain']:.2f}")
    assert main([*base, "--incremental-min-size", "6"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "  none: no group has 6 or more distinct sentences (--incremental-min-size)", "errors: 0"]
    assert [r["groups"] for r in run_json(capsys, *base, "--incremental-min-size", "3")["incremental"]] == [2, 2, 1, 1]
    with pytest.raises(SystemExit) as stop:  # refused as the options are parsed, naming the flag
        main([*base, "--incremental-min-size", "1"])
    assert stop.value.code == 2
    assert "argument --incremental-min-size: must be at least 2, got 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["lattice", "stats", "--help"])
    assert "--incremental-min-size" in capsys.readouterr().out


@pytest.mark.parametrize("keep_case", [True, False])
def test_distance_to_a_saved_lattice_uses_the_case_it_was_built_with(tmp_path, capsys, keep_case):
    """`build --keep-case --format json` then `distance --lattice` without --keep-case lower-cased
    the sentence and compared it with capitalised words: a sentence of the lattice was 2 edits
    away from it. The case is now recorded in the JSON and the query follows it."""
    group = tmp_path / "g.txt"
    group.write_text("The Cat sat on the mat .\nThe Cat lay on the mat .\n", encoding="utf-8")
    saved = tmp_path / "l.json"
    assert main(["lattice", "build", str(group), "--tokenized", "--format", "json", "-o", str(saved),
                 *(["--keep-case"] if keep_case else [])]) == 0
    assert json.loads(saved.read_text())["lowercase"] is (not keep_case)
    for flags in ([], ["--keep-case"]):
        rows = run_json(capsys, "lattice", "distance", "--lattice", str(saved), "--tokenized", *flags,
                        "--sentence", "The Cat sat on the mat .")
        assert rows[0]["distance"] == 0


def test_distance_to_an_unrecorded_lattice_with_capitals_keeps_the_case(tmp_path, capsys):
    """A lattice JSON without the record (an older build) that holds capitals was built with
    --keep-case: the sentences are not lower-cased for it."""
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps({"states": 3, "start": 0, "end": 2, "edges": [[0, "The", 1], [1, "Cat", 2]],
                                 "weights": [1, 1]}), encoding="utf-8")
    rows = run_json(capsys, "lattice", "distance", "--lattice", str(saved), "--tokenized",
                    "--sentence", "The Cat")
    assert rows[0]["distance"] == 0


def test_mtreference_groups_on_stdin_are_read_as_json(tmp_path, capsys, monkeypatch):
    """`lattice stats --groups -` (and a .json.gz) with jacana JSON was read as a TSV groups file:
    one group of one 'sentence', the JSON text. The format is now told by the contents."""
    import io
    import sys

    pairs = [{"id": f"DOC.1.{k}", "source": GROUP[0], "target": GROUP[k], "sureAlign": "0-0",
              "possibleAlign": ""} for k in (1, 2)]
    text = json.dumps(pairs, indent=2)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    stats = run_json(capsys, "lattice", "stats", "--groups", "-")
    assert (stats["groups"], stats["sentences"]) == (1, 3)
    packed = tmp_path / "gold.json.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as handle:
        handle.write(text)
    assert run_json(capsys, "lattice", "stats", "--groups", str(packed))["sentences"] == 3


@pytest.mark.parametrize("command", ["stats", "paraphrases"])
def test_a_bad_pair_of_json_groups_is_skipped_and_the_others_measured(tmp_path, capsys, command):
    """A jacana groups file with one malformed link (pair 2 of 3) stopped `lattice stats` and
    `lattice paraphrases` with exit 1. The pair is now reported as evaluate-aligner reports a
    bad gold pair (FILE:LINE: reason; pair N (gold ID) skipped; `skipped_rows` in the stats),
    and the other groups are measured; a file of bad pairs only is exit 1 (docs/CLI.md)."""
    pairs = [{"id": f"DOC.{g}.{k}", "source": GROUP[0], "target": GROUP[k], "sureAlign": "0-0",
              "possibleAlign": ""} for g in (1, 2) for k in (1, 2)]
    pairs[1]["sureAlign"] = "0-0 1-x"
    path = tmp_path / "gold.json"
    path.write_text(json.dumps(pairs, indent=1), encoding="utf-8")
    assert main(["lattice", command, "--groups", str(path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    out, err = json.loads(captured.out), captured.err
    assert f"{path}:9: malformed link '1-x' in pair 'DOC.1.2' (expected i-j); pair 2 (gold 'DOC.1.2') skipped" in err
    if command == "stats":
        assert (out["groups"], out["sentences"]) == (2, 5)
        assert out["skipped_rows"] == [{"pair": 2, "id": "DOC.1.2", "file": str(path), "line": 9,
                                        "reason": "malformed link '1-x' in pair 'DOC.1.2' (expected i-j)"}]
    else:
        assert out
    path.write_text(json.dumps(pairs[1:2]), encoding="utf-8")
    assert main(["lattice", command, "--groups", str(path)]) == 1
    assert "gold.json: no usable pairs in the groups file (malformed link" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["t.parquet", "t.PQ"])
def test_paraphrases_refuse_a_parquet_name(tmp_path, group_file, capsys, name):
    """`lattice paraphrases -o FILE.parquet` wrote TSV text under a Parquet name, which
    `paralign paraphrases --table FILE.parquet` then refused as 'not a Parquet table'. It is a usage
    error before any lattice is built, and nothing is written. The names it asks for are written
    as --help writes a file (FILE.tsv; it said X.tsv, X being a number's placeholder)."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n", encoding="utf-8")
    out = tmp_path / name
    assert main(["lattice", "paraphrases", "--groups", str(groups), "--tokenized", "-o", str(out)]) == 2
    assert f"writes TSV (phrase TAB paraphrase TAB score) or JSON, not Parquet: give -o FILE.tsv or FILE.tsv.gz instead of {out}" \
        in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(("name", "fmt", "wanted"), [
    ("t.tsv", "json", "--format text"), ("t.TSV.gz", "json", "--format text"),
    ("t.json", "text", "--format json"), ("t.json.gz", "text", "--format json"),
])
def test_paraphrases_refuse_a_name_of_the_other_format(tmp_path, capsys, name, fmt, wanted):
    """`lattice paraphrases --format json -o t.tsv` wrote JSON rows under a table's name, which
    `paralign paraphrases --table t.tsv` then refused ('bad table row (1 TAB-separated field')
    after the lattices were built; `-o t.json` without --format json held TSV. Either is a usage
    error before any lattice is built (docs/CLI.md: a suffix that names another format), and
    nothing is written."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n", encoding="utf-8")
    out = tmp_path / name
    argv = ["lattice", "paraphrases", "--groups", str(groups), "--tokenized", "--format", fmt, "-o", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"-o {out}: " in err and wanted in err, err
    assert not out.exists()
    assert main([*argv[:-4], "-o", str(tmp_path / ("t.json" if fmt == "json" else "t.tsv")), "--format", fmt]) == 0


@pytest.mark.parametrize(("name", "flags", "said"), [
    ("l.json", [], "the suffix .json is for --format json, but --format text writes OpenFst text"),
    ("l.JSON.gz", [], "the suffix .json is for --format json"),
    ("l.svg", [], "lattice build writes no picture: draw it with lattice draw -o"),
    ("l.html", ["--format", "json"], "lattice build writes no picture: draw it with lattice draw -o"),
])
def test_build_refuses_a_name_of_another_format(tmp_path, group_file, capsys, name, flags, said):
    """`lattice build group.txt -o lattice.json` wrote OpenFst text under a JSON name, and the
    next step, `lattice draw --lattice lattice.json`, failed with 'lattice.json:1: invalid JSON
    (column 3): Extra data'; `-o lattice.svg` held OpenFst text too. Each is a usage error
    before the lattice is built, and nothing is written."""
    out = tmp_path / name
    assert main(["lattice", "build", str(group_file), "--tokenized", *flags, "-o", str(out)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"-o {out}: {said}" in err, err
    assert not out.exists()
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(out)]) == (
        0 if name.lower().startswith("l.json") else 2)


@pytest.mark.parametrize(("lines", "flags", "said"), [
    (GROUP, [], "every group (3) holds one distinct sentence"),
    (["\t".join(GROUP)], ["--min-size", "4"], "no group of --min-size 4 or more distinct sentences"),
])
def test_paraphrases_say_why_the_table_is_empty(tmp_path, capsys, lines, flags, said):
    """A group's sentences one a line (`lattice build`'s input) given as --groups are groups of
    one sentence each, and --min-size above every group's size leaves none: either wrote an
    empty table and exited 0 without a word, as if the groups held no paraphrase. The table is
    still written (empty, exit 0), and stderr says why."""
    groups = tmp_path / "groups.txt"
    groups.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "t.tsv"
    assert main(["lattice", "paraphrases", "--groups", str(groups), "--tokenized", *flags, "-o", str(out)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"{groups}: {said}" in err and "the table is empty" in err, err
    assert out.read_text(encoding="utf-8").count("\n") == 2  # the header and record lines alone
    groups.write_text("\t".join(GROUP) + "\n", encoding="utf-8")
    assert main(["lattice", "paraphrases", "--groups", str(groups), "--tokenized", "-o", str(out)]) == 0
    assert capsys.readouterr().err == ""


def test_stats_say_when_every_group_holds_one_sentence(tmp_path, capsys):
    """`lattice stats --groups group.txt` with a group's sentences one a line measured that many
    groups of one sentence (mean_group_size 1, every lattice one path) without a word. The
    figures are still given, and stderr says why they compare nothing."""
    groups = tmp_path / "group.txt"
    groups.write_text("\n".join(GROUP) + "\n", encoding="utf-8")
    argv = ["lattice", "stats", "--groups", str(groups), "--tokenized", "--format", "json"]
    assert main(argv) == 0
    shown = capsys.readouterr()
    stats, err = json.loads(shown.out), " ".join(shown.err.split())
    assert stats["groups"] == 3 and stats["mean_group_size"] == 1
    assert f"{groups}: every group (3) holds one distinct sentence" in err, err
    groups.write_text("\t".join(GROUP) + "\n", encoding="utf-8")
    assert main(argv) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("argv", "needs"), [
    (["paths"], "--sample"),
    (["paraphrases"], "--sample"),
    (["stats"], "--sample or --lm-train or --incremental"),
])
def test_seed_without_what_it_seeds_is_a_usage_error(tmp_path, group_file, capsys, argv, needs):
    """--seed seeds --sample (and stats' sampled LM paths and incremental shuffles); typed without
    them it was silently ignored, and the user believed the run was seeded their way."""
    source = (["--lattice", str(tmp_path / "lattice.json")] if argv == ["paths"]
              else ["--groups", str(group_file), "--tokenized"])
    if argv == ["paths"]:
        assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", source[1]]) == 0
    capsys.readouterr()
    assert main(["lattice", *argv, *source, "--seed", "0"]) == 2
    assert f"--seed only matters with {needs}: add " in capsys.readouterr().err
    seeded = ["--sample", "1"] if argv != ["stats"] else ["--incremental"]
    assert main(["lattice", *argv, *source, "--seed", "3", *seeded]) == 0


def test_incremental_min_size_without_incremental_is_a_usage_error(group_file, capsys):
    """`lattice stats --incremental-min-size N` without --incremental sizes a table that is never
    made: it exited 0 with the figures and no word that N was unused, as --seed was before."""
    argv = ["lattice", "stats", "--groups", str(group_file), "--tokenized", "--incremental-min-size", "3"]
    assert main(argv) == 2
    assert "--incremental-min-size only matters with --incremental: add --incremental, or leave it out" in \
        capsys.readouterr().err
    assert run_json(capsys, *argv, "--incremental", "--format", "json")["incremental_min_size"] == 3


@pytest.mark.parametrize("keep_case", [False, True])
def test_build_json_is_the_librarys_to_dict(group_file, capsys, keep_case):
    """`lattice build --format json` added a "lowercase" key that Lattice.to_dict lacked, so the
    command's JSON and the library's record of the same lattice were two shapes. The lattice now
    records the case it was built with, to_dict writes it, from_dict reads it back, and the
    command writes to_dict."""
    from paralign import Lattice, build_lattice

    cli = run_json(capsys, "lattice", "build", str(group_file), "--tokenized", *(["--keep-case"] if keep_case else []))
    lattice = build_lattice([s.split() for s in GROUP], LatticeOptions(lowercase=not keep_case))
    assert lattice.lowercase is (not keep_case)
    assert cli == lattice.to_dict() and cli["lowercase"] is (not keep_case)
    assert Lattice.from_dict(cli).lowercase is (not keep_case) and Lattice.from_dict(cli).to_dict() == cli
    unrecorded = {k: v for k, v in cli.items() if k != "lowercase"}
    assert Lattice.from_dict(unrecorded).lowercase is None  # an older build's JSON: not known


@pytest.fixture()
def a_group_that_fails(monkeypatch):
    """Any lattice holding the word 'boom' fails to build (no real group is known to fail: the
    batch contract is checked with one that does)."""
    from paralign.errors import LatticeError
    from paralign.lattice.evaluate import GroupLattices

    build = GroupLattices.lattice

    def failing(self, indices=None, method=None):
        if any("boom" in tokens for tokens in self.tokens):
            raise LatticeError("cannot build this one")
        return build(self, indices, method)

    monkeypatch.setattr(GroupLattices, "lattice", failing)


def test_stats_reports_a_bad_group_at_its_line_and_keeps_the_others(tmp_path, capsys, a_group_that_fails):
    """One group that could not be built lost every group's results under --incremental (the
    table had no per-group guard: exit 1, nothing written), and a failing group was reported as
    'group Genesis.1.2' with no file or line. It is now reported on stderr as FILE:LINE, listed
    in "errors" with its line, and the others are measured, by every table."""
    groups = tmp_path / "bible.tsv"
    good = "\t".join(GROUP)
    groups.write_text("verse_id\tbook\tchapter\tverse\tA\tB\tC\n"
                      f"Gen.1.1\tGen\t1\t1\t{good}\n"
                      "Gen.1.2\tGen\t1\t2\tthe boom came .\ta boom came .\tthe boom was heard .\n"
                      f"Gen.1.3\tGen\t1\t3\t{good}\n", encoding="utf-8")
    assert main(["lattice", "stats", "--groups", str(groups), "--tokenized", "--leave-one-out",
                 "--incremental", "--incremental-min-size", "2", "--format", "json"]) == 0
    captured = capsys.readouterr()
    stats = json.loads(captured.out)
    assert stats["groups"] == 2 and stats["incremental"][0]["groups"] == 2
    assert stats["errors"] == [{"group": "Gen.1.2", "line": 3, "error": "LatticeError: cannot build this one"}]
    assert f"{groups}:3: group Gen.1.2: LatticeError: cannot build this one" in captured.err
    assert captured.err.count("Gen.1.2") == 1  # once, though two tables failed on it


def test_paraphrases_reports_a_bad_group_at_its_line(tmp_path, capsys, a_group_that_fails):
    groups = tmp_path / "groups.tsv"
    groups.write_text("the boom came .\ta boom came .\n" + "\t".join(GROUP) + "\n", encoding="utf-8")
    assert main(["lattice", "paraphrases", "--groups", str(groups), "--tokenized"]) == 0
    captured = capsys.readouterr()
    assert "persons\tpeople\t1" in captured.out
    assert f"{groups}:1: group line 1: LatticeError: cannot build this one" in captured.err


@pytest.mark.parametrize("action", ["stats", "paraphrases"])
def test_every_group_bad_is_exit_1(tmp_path, capsys, a_group_that_fails, action):
    """When every group failed, stats wrote a summary of 0 groups and paraphrases an empty
    table, both exit 0: a batch exits 1 only when every item was bad (docs/CLI.md), and then."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("the boom came .\ta boom came .\n", encoding="utf-8")
    assert main(["lattice", action, "--groups", str(groups), "--tokenized"]) == 1
    err = capsys.readouterr().err
    assert f"{groups}:1: group line 1:" in err and "every group failed" in err


@pytest.fixture()
def measure_log(monkeypatch):
    """A log to which each group's measuring (evaluate_group) appends ("measured", its id)."""
    import paralign.lattice.evaluate as evaluate

    log = []
    measure = evaluate.evaluate_group

    def measuring(gid, *a, **k):
        log.append(("measured", gid))
        return measure(gid, *a, **k)

    monkeypatch.setattr(evaluate, "evaluate_group", measuring)
    return log


def test_stats_progress_advances_as_groups_are_measured(tmp_path, monkeypatch, measure_log):
    """stats showed a bar only while the groups were parsed; building and measuring their
    lattices (most of the run with --leave-one-out: a lattice per held-out sentence) and the
    --incremental table ran with no sign of life after it was full. The bar now moves one group
    when a group has been parsed, added to the table, and measured."""
    import paralign.cli.lattice as command

    log = measure_log

    def recording(items, desc="", total=None, disable=None):
        for item in items:
            log.append((desc, total))
            yield item

    monkeypatch.setattr(command, "progress", recording)
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n" + "\t".join(GROUP[:2]) + "\n", encoding="utf-8")
    assert main(["lattice", "stats", "--groups", str(groups), "--tokenized", "--leave-one-out",
                 "--incremental", "-o", str(tmp_path / "s.txt")]) == 0
    # the bar takes each group once it is measured (with --workers, as each chunk comes back)
    assert log == [("measured", "line 1"), ("groups", 2), ("measured", "line 2"), ("groups", 2)]


def test_paths_as_text_says_which_list_each_path_is_in(group_file, capsys):
    """`paths --sample 2 --all 3` as text wrote the sampled and the enumerated paths one after
    the other with nothing between them, so no reader could tell where the sample ended. Each
    list now comes under its own heading, k-best with what its numbers are."""
    assert main(["lattice", "paths", str(group_file), "--tokenized", "-k", "1", "--sample", "2",
                 "--all", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("paths: ")
    assert lines[1] == "k-best (log probability TAB path):" and lines[2].split("\t")[0].startswith("-")
    assert lines[3] == "sample (2 uniformly sampled):" and lines[6] == "all (first 3):"
    assert len(lines) == 10


def test_paths_all_reaching_every_path_has_the_heading_its_help_names(tmp_path, capsys):
    """`--all N` past the path count heads its list 'all:', not 'all (first N):', which was
    the only heading `paths --help` named."""
    group = tmp_path / "g.txt"
    group.write_text("the cat sat\na cat sat\n", encoding="utf-8")
    assert main(["lattice", "paths", str(group), "--tokenized", "--all", "10"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "all:"
    with pytest.raises(SystemExit):
        main(["lattice", "paths", "--help"])
    assert "('all:' when --all reaches every path)" in " ".join(capsys.readouterr().out.split())


def test_paths_all_with_a_limit_above_sys_maxsize_enumerates_every_path(group_file, capsys):
    """`--all 99999999999999999999` (an N Python cannot use as a size) reached islice() and
    stopped with a traceback; such an N is no limit: every path is listed."""
    every = run_json(capsys, "lattice", "paths", str(group_file), "--tokenized", "--all", "1000000")
    huge = run_json(capsys, "lattice", "paths", str(group_file), "--tokenized", "--all", "99999999999999999999")
    assert huge["all"] == every["all"] and len(every["all"]) == int(every["paths"])


@pytest.mark.parametrize(("action", "said"), [
    ("build", ["Identical sentences count once", "SRC TAB DST TAB WORD", "weights", "lowercase"]),
    ("draw", ["Draw the lattice", "start state"]),
    ("paths", ["Count the lattice's paths", "(weight + 1)", "k-best (log probability TAB path)"]),
    ("distance", ["word edit distance", "DISTANCE TAB TOKENS TAB SENTENCE", "nearest path"]),
    ("paraphrases", ["phrase TAB paraphrase TAB score", "same two states"]),
    ("stats", ["ed_input", "ed_lattice", "repetition_ratio", "ent_paths", "log10", "paths_by_length"]),
])
def test_each_actions_help_says_what_it_does_and_what_its_output_means(capsys, action, said):
    """`lattice build --help` and most other actions had no description, and none said what
    the columns or keys of its output are (stats: ed_input, repetition_ratio, ... unexplained)."""
    with pytest.raises(SystemExit):
        main(["lattice", action, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in said:
        assert words in text, words


@pytest.mark.parametrize(("action", "said"), [
    ("draw", ["in brackets after its word in DOT", "thickness and tooltip in .svg and .html"]),
    ("paraphrases", ["longest sub-path in words (default: 5)", "every cell of a line is a sentence", "verse_id"]),
    ("stats", ["every cell of a line is a sentence"]),
    ("paths", ["logprob: the natural log of its probability"]),
])
def test_help_says_what_a_user_gets(capsys, action, said):
    """`lattice draw --help` said every edge is labelled with its word and, in brackets, its
    sentences: only DOT is (the .svg and .html pictures label the word and show the count as the
    edge's thickness and tooltip). `--max-length` named no default (5). `--groups` said "one
    group a line", and a user's file with an id column or a header line had its ids and column
    names merged into the lattices as sentences (`g2 <-> he went home .` rows). `paths` named
    its k-best scores a "log probability" beside log10 path counts: they are natural logs
    (-1.792 is 1/6), not log10."""
    with pytest.raises(SystemExit):
        main(["lattice", action, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in said:
        assert words in text, words


def test_paraphrases_to_stdout_and_to_a_file_are_the_same_bytes(tmp_path, capsys):
    """`lattice paraphrases` as text wrote its scores as 2 on stdout but 2.0 with -o t.tsv (the
    table's own writer), so `> t.tsv` and `-o t.tsv` gave two files. Both are now the table's
    TSV, the one `paralign paraphrases --table` reads."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n" + "\t".join(GROUP[:2]) + "\n", encoding="utf-8")
    argv = ["lattice", "paraphrases", "--groups", str(groups), "--tokenized"]
    assert main(argv) == 0
    shown = capsys.readouterr().out
    assert main([*argv, "-o", str(tmp_path / "t.tsv")]) == 0
    assert shown == (tmp_path / "t.tsv").read_text(encoding="utf-8")
    assert "persons\tpeople\t2.0\n" in shown


@pytest.mark.parametrize("flags", [[], ["--incremental", "--incremental-min-size", "2"]])
def test_stats_measures_each_group_before_parsing_the_next(tmp_path, monkeypatch, measure_log, flags):
    """stats parsed every group into memory before measuring the first (for --incremental, which
    reads the groups again): 1.2 GB after six minutes of the 22,342 Bible verses, growing with
    the corpus. Each group is now measured, and added to the --incremental table, as it is
    parsed, and let go."""
    import paralign.lattice.evaluate as evaluate

    log = measure_log
    annotate = evaluate.annotate_groups

    def annotating(groups, *a, **k):
        for gid, sentences in annotate(groups, *a, **k):
            log.append(("parsed", gid))
            yield gid, sentences

    monkeypatch.setattr(evaluate, "annotate_groups", annotating)
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n" + "\t".join(GROUP[:2]) + "\n" + "\t".join(GROUP[1:]) + "\n",
                      encoding="utf-8")
    out = tmp_path / "s.json"
    assert main(["lattice", "stats", "--groups", str(groups), "--tokenized", *flags, "--format", "json",
                 "-o", str(out)]) == 0
    assert log == [(step, f"line {n}") for n in (1, 2, 3) for step in ("parsed", "measured")]
    if flags:
        assert [r["groups"] for r in json.loads(out.read_text())["incremental"]] == [3, 1]


CASE_GROUPS = ("The cat sat on the mat.\tthe cat sat on the mat .\n"  # one sentence to the lattice
               "the cat sat on the mat .\ta cat sat on the mat .\n")


@pytest.mark.parametrize(("flags", "groups", "sentences"), [
    ([], 1, 2),
    (["--keep-case"], 2, 4),  # with the case kept, "The" and "the" are two sentences
    (["--tokenized"], 1, 2),
])
def test_min_size_counts_a_groups_sentences_as_its_lattice_does(tmp_path, capsys, flags, groups, sentences):
    """--min-size counted a group's sentences as exact strings, the lattice as its words
    (lower-cased unless --keep-case, tokenised): a group of "The cat sat on the mat." and "the cat
    sat on the mat ." passed --min-size 2 and was measured as a group of one sentence. Both now
    count what the lattice counts."""
    path = tmp_path / "groups.tsv"
    text = CASE_GROUPS.replace("mat.", "mat .") if "--tokenized" in flags else CASE_GROUPS
    path.write_text(text, encoding="utf-8")
    stats = run_json(capsys, "lattice", "stats", "--groups", str(path), "--min-size", "2", *flags)
    assert (stats["groups"], stats["sentences"]) == (groups, sentences)
    assert stats["mean_group_size"] == sentences / groups


def test_min_size_counts_the_sentences_of_a_json_groups_file_as_the_lattice_does(tmp_path, capsys):
    """The same rule for gold alignments as JSON (MTReference): their token lists, lower-cased."""
    pairs = [{"id": "DOC.1.1", "source": "The cat sat .", "target": "the cat sat .", "sureAlign": "0-0",
              "possibleAlign": ""},
             {"id": "DOC.2.1", "source": "the cat sat .", "target": "a cat sat .", "sureAlign": "0-0",
              "possibleAlign": ""}]
    path = tmp_path / "gold.json"
    path.write_text(json.dumps(pairs), encoding="utf-8")
    stats = run_json(capsys, "lattice", "stats", "--groups", str(path), "--min-size", "2")
    assert (stats["groups"], stats["sentences"]) == (1, 2)
    assert [k for k, _ in mtreference_groups(path, min_size=2)] == ["DOC.2"]
    assert [k for k, _ in mtreference_groups(path, min_size=2, lowercase=False)] == ["DOC.1", "DOC.2"]


def test_read_groups_keeps_one_text_of_each_sentence_of_the_lattice(tmp_path):
    """read_groups hands on the first text of each distinct sentence (as the lattice keeps it),
    so the same sentence is not parsed twice; in file order."""
    path = tmp_path / "groups.tsv"
    path.write_text("The cat sat on the mat.\ta cat sat on the mat .\tthe cat sat on the mat .\n",
                    encoding="utf-8")
    assert list(read_groups(path)) == [("line 1", ["The cat sat on the mat.", "a cat sat on the mat ."])]
    assert list(read_groups(path, min_size=3)) == []
    assert len(list(read_groups(path, min_size=3, lowercase=False))[0][1]) == 3


@pytest.mark.parametrize("case", [[], ["--keep-case"]])
def test_a_lattice_table_records_how_its_phrases_were_split_and_cased(tmp_path, capsys, case):
    """`lattice paraphrases` wrote spaCy's tokens (the man 's) under a record that named no
    tokenizer, so `paraphrases "the man's"` found nothing; and with --keep-case it lower-cased
    them anyway. The record names spaCy's tokenizer (or whitespace, for --tokenized groups) and
    the lattice's case, so every command asks the table for a phrase as it holds it."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("I like the man's car.\tI like his car.\nThe US team won.\tThe America team won.\n",
                      encoding="utf-8")
    out = tmp_path / "t.tsv"
    assert main(["lattice", "paraphrases", "--groups", str(groups), "-o", str(out), *case]) == 0
    record = json.loads(out.read_text(encoding="utf-8").splitlines()[1].removeprefix("# paralign: "))
    assert record["options"] == {"tokenizer": "spacy", "lowercase": not case}
    found = run_json(capsys, "paraphrases", "the man's", "US", "us", "--table", str(out))["phrases"]
    shown = [[row["paraphrase"] for row in entry["paraphrases"]] for entry in found]
    assert shown == ([["his"], ["America"], []] if case else [["his"], ["america"], ["america"]])
    assert found[0]["looked_up_as"] == "the man 's"
    tokenized = tmp_path / "tokens.tsv"
    tokenized.write_text("I like the man 's car .\tI like his car .\n", encoding="utf-8")
    assert main(["lattice", "paraphrases", "--groups", str(tokenized), "--tokenized", "-o", str(out)]) == 0
    assert '"tokenizer": "whitespace"' in out.read_text(encoding="utf-8").splitlines()[1]


@pytest.mark.timeout(60)  # each of these never ended
@pytest.mark.parametrize("option", ["--sample", "--kbest", "--all"])
def test_paths_lists_no_memory_holds_are_one_out_of_memory_line(tmp_path, capsys, option):
    """`lattice paths --sample 100000000000000000000` made path after path and never ended, with
    nothing written: its lists are whole before the output is. --kbest and --all with such a
    count on a lattice of 2**70 paths alike. Each is one line (exit 1), before any list is made."""
    wide = tmp_path / "wide.json"
    wide.write_text(json.dumps({"states": 71, "edges": [[i, w + str(i), i + 1] for i in range(70) for w in "ab"]}))
    assert main(["lattice", "paths", "--lattice", str(wide), option, "100000000000000000000"]) == 1
    out, err = capsys.readouterr()
    also = " and the k-best candidates" if option == "--kbest" else ""
    assert out == "" and err.startswith("paralign lattice paths: error: out of memory: 100000000000000000000 paths "
                                        f"of 70 or more words{also} need at least ") and err.count("\n") == 1


@pytest.mark.timeout(60)  # 10**20 states never ended
def test_a_lattice_file_with_states_no_edge_reaches_names_the_file_and_line(tmp_path, group_file, capsys):
    """A lattice JSON whose "states" is 10**20 made a list per state and never ended; one past
    the edges' last state was a traceback (log10 of 0 paths). Both are one data error naming
    the file, the line of "states" and what is wrong (exit 1), as every bad field (lattice.record)."""
    saved = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(saved)]) == 0
    good = json.loads(saved.read_text())
    for states, said in ((10**20, f"'states' is {10**20}, but {len(good['edges'])} edges can reach at most"),
                         (good["states"] + 1, f"'states' is {good['states'] + 1}, but no edge goes further than state")):
        saved.write_text(json.dumps({**good, "states": states, "end": None}, indent=2))
        assert main(["lattice", "paths", "--lattice", str(saved)]) == 1
        assert capsys.readouterr().err.startswith(f"paralign lattice paths: error: {saved}:2: not a lattice: {said}")


@pytest.mark.parametrize("action", [["draw", "-o", "s.dot"], ["paths", "-k", "3"]])
def test_a_lattice_word_of_half_a_surrogate_pair_is_an_input_error(tmp_path, capsys, monkeypatch, action) -> None:
    r"""A word ``"\ud800"`` (no character) ended `lattice draw` and `paths -k` in a
    UnicodeEncodeError traceback while writing it: the file is refused, naming its line."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.json").write_text('{"states": 2,\n "edges": [[0, "\\ud800", 1]]}\n', encoding="utf-8")
    assert main(["lattice", action[0], "--lattice", "s.json", *action[1:]]) == 1
    err = capsys.readouterr().err
    assert f'paralign lattice {action[0]}: error: s.json:2: "\\ud800" (column 17) is half of a UTF-16 surrogate' in err
    assert not (tmp_path / "s.dot").exists()


def test_stats_lm_train_text_is_split_as_the_groups_are(tmp_path, capsys):
    """--lm-train was split on white space while an untokenized group's sentences are split by
    spaCy: the LM learnt `man's` and `dog.`, and every path's `man 's dog .` was unknown words.
    Raw text now teaches it what the same text split by spaCy does."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("The man's dog barked.\tThe dog of the man barked.\n")
    raw, split = tmp_path / "raw.txt", tmp_path / "split.txt"
    raw.write_text("The man's dog barked.\nThe dog of the man barked.\n")
    split.write_text("The man 's dog barked .\nThe dog of the man barked .\n")
    by_raw = run_json(capsys, "lattice", "stats", "--groups", str(groups), "--lm-train", str(raw))
    by_split = run_json(capsys, "lattice", "stats", "--groups", str(groups), "--lm-train", str(split))
    assert by_raw["ent_inputs"] == pytest.approx(by_split["ent_inputs"])
    assert by_raw["ent_paths"] == pytest.approx(by_split["ent_paths"])


def test_stats_refuses_an_lm_train_file_of_no_sentence(tmp_path, capsys):
    """A model of no text gave every word the probability 1: ent_inputs and ent_paths were 0
    bits, a perfect score, for any group."""
    groups, empty = tmp_path / "groups.tsv", tmp_path / "empty.txt"
    groups.write_text("a b c\ta c b\n")
    empty.write_text("\n \n")
    assert main(["lattice", "stats", "--groups", str(groups), "--tokenized", "--lm-train", str(empty)]) == 1
    assert "empty.txt: no sentences: the --lm-train language model needs at least one" in capsys.readouterr().err


def test_sentences_on_stdin_when_the_group_is_on_stdin_too_is_a_usage_error(group_file, monkeypatch, capsys):
    """`lattice distance --sentences -` without --lattice reads the group from stdin (its input's
    default) and then the sentences from the stdin it had read whole: `<stdin>: no sentences`,
    exit 1, a data error for a command line that cannot work. It is now the usage error that
    '-' given twice is (docs/CLI.md: '-' given to two inputs, or by a command whose input is
    stdin by default), before anything is read."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(group_file.read_bytes()), encoding="utf-8"))
    assert main(["lattice", "distance", "--tokenized", "--sentences", "-"]) == 2
    err = capsys.readouterr().err
    assert "stdin can be read only once" in err and "--sentences" in err
    assert sys.stdin.read() == group_file.read_text()  # nothing was read


@pytest.mark.parametrize("action", [["paths"], ["draw"], ["distance", "--sentence", "a b"]])
@pytest.mark.parametrize("given", [["GROUP"], ["--method", "msa"], ["--max-gaps", "2"], ["--no-squeeze"],
                                   ["--no-keyword-check"], ["--wordnet"]])
def test_what_lattice_json_leaves_unused_is_a_usage_error(tmp_path, group_file, capsys, action, given):
    """With --lattice JSON the lattice is built already: a sentences file given too, or an option
    of how to build one, was silently ignored (`lattice paths group.txt --lattice l.json` counted
    l.json's paths, `--method msa` drew the JSON's lattice as it was). Both are now a usage error
    naming what would be unused."""
    lattice_json = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(lattice_json)]) == 0
    argv = [str(group_file) if g == "GROUP" else g for g in given]
    assert main(["lattice", *action, "--lattice", str(lattice_json), *argv]) == 2
    err = capsys.readouterr().err
    assert "--lattice" in err and (str(group_file) if given == ["GROUP"] else given[0]) in err


@pytest.mark.parametrize("action", [["build"], ["paths"], ["draw"], ["distance", "--sentence", "a b"],
                                    ["paraphrases", "--groups", "GROUPS"], ["stats", "--groups", "GROUPS"]])
@pytest.mark.parametrize("given", [["--method", "msa", "--max-gaps", "2"], ["--method", "msa", "--no-squeeze"],
                                   ["--method", "msa", "--no-keyword-check"], ["--method", "msa", "--wordnet"],
                                   ["--no-keyword-check", "--wordnet"]])
def test_options_the_lattice_method_does_not_read_are_a_usage_error(tmp_path, group_file, capsys, action, given):
    """The MSA baseline has no trees to merge and no squeezing: --max-gaps, --no-squeeze,
    --no-keyword-check and --wordnet were silently ignored with --method msa (the same lattice
    as without them), and --wordnet (synonyms as shared keywords) with --no-keyword-check.
    Each is now a usage error naming the option, before any sentence is parsed."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n")
    argv = [str(groups) if a == "GROUPS" else a for a in action]
    if action[0] not in ("paraphrases", "stats"):
        argv.insert(1, str(group_file))
    assert main(["lattice", *argv, "--tokenized", *given]) == 2
    err = capsys.readouterr().err
    assert all(flag in err for flag in given if flag.startswith("--") and flag != "--method")


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_sentence_argument_is_a_usage_error(group_file, capsys, blank):
    """`lattice distance --sentence ""` (an unset shell variable) was measured as a sentence of
    no word: '3 TAB 0 TAB', the length of the lattice's shortest path, while a blank line of
    --sentences is a bad item. It is now a usage error naming --sentence."""
    with pytest.raises(SystemExit) as stop:
        main(["lattice", "distance", str(group_file), "--tokenized", "--sentence", "a b", "--sentence", blank])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--sentence" in err and "must hold a word" in err


@pytest.mark.parametrize("action", ["paths", "draw"])
@pytest.mark.parametrize("given", ["--tokenized", "--keep-case"])
def test_how_sentences_are_read_is_unused_by_paths_and_draw_of_lattice_json(tmp_path, group_file, capsys, action,
                                                                             given):
    """`lattice paths|draw --lattice l.json` read no sentence, so --tokenized and --keep-case
    (how sentences are split and cased) changed nothing and were silently ignored; `distance`
    reads its sentences with them. They are now a usage error there."""
    lattice_json = tmp_path / "lattice.json"
    assert main(["lattice", "build", str(group_file), "--tokenized", "--format", "json", "-o", str(lattice_json)]) == 0
    assert main(["lattice", action, "--lattice", str(lattice_json), given]) == 2
    assert given in capsys.readouterr().err
    assert main(["lattice", "distance", "--lattice", str(lattice_json), "--sentence", "a b", given]) == 0


def test_stats_path_counts_are_the_built_lattices_paths_counted_one_by_one(tmp_path, capsys):
    """`lattice stats`'s mean_log10_paths and max_log10_paths against the paths of each group's
    lattice (paralign.build_lattice, what `lattice build` writes) enumerated one by one, and its
    sentences against the distinct ones (identical after lower-casing count once)."""
    import math

    from paralign import build_lattice

    groups = [
        ["twelve people died in the battle", "twelve persons were killed in the battle",
         "the battle killed twelve people", "Twelve people died in the battle"],
        ["the cat sat on the mat", "a cat sat on the mat", "the cat was sitting on the mat"],
        ["only one sentence"],
    ]
    path = tmp_path / "groups.tsv"
    path.write_text("".join("\t".join(g) + "\n" for g in groups))
    stats = run_json(capsys, "lattice", "stats", "--groups", str(path))
    logs = [math.log10(sum(1 for _ in build_lattice(g).paths())) for g in groups]
    assert stats["groups"] == 3 and stats["sentences"] == 3 + 3 + 1
    assert stats["mean_log10_paths"] == pytest.approx(sum(logs) / 3)
    assert stats["max_log10_paths"] == pytest.approx(max(logs)) and max(logs) > 0


@pytest.mark.parametrize("action", ["stats", "paraphrases"])
def test_groups_on_two_workers_give_the_output_of_one_process(tmp_path, capsys, action):
    """`lattice stats` and `lattice paraphrases` parsed, built and measured every group in the
    command's one process (the 22,219 Bible verses: most of an hour), with no --workers or
    --scheduler where the other batch commands run on the shared Dask runner. With --workers 2
    the chunks of --chunk-size groups run on a local cluster and are added up here in input
    order: the same bytes as one process (the --incremental shuffles too)."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("".join("\t".join(g) + "\n" for g in (GROUP, GROUP[:2], GROUP[1:], GROUP[::2], GROUP)),
                      encoding="utf-8")
    argv = ["lattice", action, "--groups", str(groups), "--tokenized", "--chunk-size", "2", "--format", "json"]
    if action == "stats":
        argv += ["--leave-one-out", "--incremental", "--incremental-min-size", "2"]
    outputs = {}
    for workers in ("1", "2"):
        assert main([*argv, "--workers", workers]) == 0
        outputs[workers], err = capsys.readouterr()
        assert ("with 2 workers" in err) == (workers == "2")  # a cluster ran the chunks
    assert outputs["1"] == outputs["2"]
    result = json.loads(outputs["1"])
    if action == "stats":
        assert result["groups"] == 5 and result["incremental"][0]["groups"] == 5
    else:
        assert {"phrase": "persons", "paraphrase": "people", "score": 3.0} in result


def test_paths_no_inputs_lists_only_the_sentences_the_lattice_makes_up(tmp_path, capsys):
    """Every sentence of a group is a path of its lattice, so `paths --all`, `-k` and `--sample`
    gave the group's own sentences back among the paths, and nothing left them out: a user after
    the lattice's new sentences had to filter their input out of the output. --no-inputs counts
    and lists only the paths that spell no input sentence (as the lattice spells them: spaCy's
    tokens, lower-cased); with --lattice, which records no sentence, it is a usage error."""
    group = tmp_path / "g.txt"
    group.write_text("The cat sat on the mat.\nA cat sat on the mat.\nThe cat was sitting on the mat.\n",
                     encoding="utf-8")
    every = run_json(capsys, "lattice", "paths", str(group), "--all", "100")
    new = run_json(capsys, "lattice", "paths", str(group), "--all", "100", "-k", "5", "--sample", "4", "--no-inputs")
    inputs = {"the cat sat on the mat .", "a cat sat on the mat .", "the cat was sitting on the mat ."}
    assert inputs <= set(every["all"]) and new["paths"] == every["paths"] == "4"
    assert new["new_paths"] == "1" and new["all"] == sorted(set(every["all"]) - inputs)
    assert [x["sentence"] for x in new["kbest"]] == new["all"] and set(new["sample"]) == set(new["all"])
    assert main(["lattice", "paths", str(group), "--all", "100", "--no-inputs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("new paths (no input sentence") and lines[2:] == ["all:", "a cat was sitting on the mat ."]
    lattice = tmp_path / "l.json"
    assert main(["lattice", "build", str(group), "--format", "json", "-o", str(lattice)]) == 0
    assert main(["lattice", "paths", "--lattice", str(lattice), "--all", "5", "--no-inputs"]) == 2
    assert "--no-inputs" in capsys.readouterr().err


@pytest.mark.parametrize("action", ["stats", "paraphrases"])
def test_missing_wordnet_is_one_error_not_a_failure_per_group(tmp_path, capsys, monkeypatch, action):
    """`--wordnet` without WordNet data failed every group alike: one warning per group (22,219 on
    the Bible), then 'every group failed'. Missing data is one ResourceMissingError line naming
    it (docs/CLI.md, missing data), as every batch stops on a setup error, on a worker or here."""
    import paralign.lattice.evaluate as evaluate
    from paralign.errors import ResourceMissingError

    def missing():
        raise ResourceMissingError("WordNet not found: set NLTK_DATA")

    monkeypatch.setattr(evaluate, "wordnet_synonym_fn", missing)
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n" + "\t".join(GROUP[:2]) + "\n", encoding="utf-8")
    assert main(["lattice", action, "--groups", str(groups), "--tokenized", "--wordnet"]) == 1
    err = capsys.readouterr().err
    assert err.count("WordNet not found") == 1 and "group line" not in err and "every group failed" not in err


def test_paths_no_inputs_counts_the_new_paths_once(tmp_path, capsys, monkeypatch):
    """`paths --no-inputs -k K --sample N` counted the paths spelling an input three times for
    one lattice (for the count, then again inside the k best and inside the sample): one
    :class:`paralign.lattice.new_paths.NewPaths` now counts them once and answers all, with the
    same output."""
    from paralign.lattice.new_paths import NewPaths

    counted = []
    original = NewPaths._new_counts
    monkeypatch.setattr(NewPaths, "_new_counts", lambda self: counted.append(1) or original(self))
    group = tmp_path / "g.txt"
    group.write_text("the cat sat\na cat sat\nthe cat was sitting\n", encoding="utf-8")
    new = run_json(capsys, "lattice", "paths", str(group), "--tokenized", "--all", "9", "-k", "5", "--sample", "4",
                   "--no-inputs")
    assert new["new_paths"] == "1" and new["all"] == ["a cat was sitting"] and new["sample"] == new["all"] * 4
    assert counted == [1]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("action", ["stats", "paraphrases"])
def test_a_worker_killed_mid_run_changes_nothing(tmp_path, capsys, monkeypatch, action):
    """`lattice stats|paraphrases --workers 2` with one of the local cluster's workers killed
    (SIGKILL, as the kernel's OOM killer would) once the first group is summed, the others still
    to come: one running a chunk (as it was in every run seen), else either. Dask runs the dead
    worker's chunks again elsewhere and its nanny starts another, and the output is that of one
    process, no group failed. The cluster is the command's own (127.0.0.1), closed with it; as the
    pivot's test_a_worker_killed_mid_run_changes_nothing."""
    import os
    import signal

    from distributed import Client

    import paralign.cli.lattice as command
    import paralign.cluster as cluster_module

    groups = tmp_path / "groups.tsv"
    variants = (GROUP, GROUP[:2], GROUP[1:], GROUP[::2])
    groups.write_text("".join("\t".join(variants[k % 4]) + "\n" for k in range(30)), encoding="utf-8")
    argv = ["lattice", action, "--groups", str(groups), "--tokenized", "--chunk-size", "2", "--format", "json"]
    if action == "stats":
        argv += ["--leave-one-out", "--incremental", "--incremental-min-size", "2"]
    assert main([*argv, "--workers", "1"]) == 0
    clean = capsys.readouterr().out

    started, killed = [], []
    start_local = cluster_module._start_local
    monkeypatch.setattr(cluster_module, "_start_local", lambda options: started.append(start_local(options))
                        or started[-1])

    def kill_one_busy_worker(done: int, total: int) -> None:
        with Client(started[0].scheduler_address, set_as_default=False, timeout=60) as client:
            busy = [address for address, keys in client.processing().items() if keys]
            pid = client.run(os.getpid, workers=busy[:1] or None)
            os.kill(next(iter(pid.values())), signal.SIGKILL)
        killed.append((done, total))

    def progress_then_kill(items, desc, total=None, **_):
        for done, item in enumerate(items, start=1):
            yield item
            if done == 1 and started:  # one group summed here, the others still to come
                kill_one_busy_worker(done, total)

    monkeypatch.setattr(command, "progress", progress_then_kill)
    assert main([*argv, "--workers", "2"]) == 0
    out, err = capsys.readouterr()
    assert len(started) == 1 and killed == [(1, 30)]
    assert "failed" not in err
    assert out == clean


def _help(capsys, *argv: str) -> str:
    """An action's --help, its white space made single spaces (argparse wraps to the terminal)."""
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_each_action_help_says_what_its_options_do_there(capsys):
    """Read as a user reads them: `draw --help` and `paths --help` said under --lattice how
    `distance` lower-cases sentences (they read none), `paraphrases --help` that --seed seeds
    stats' LM paths and shuffles (it has neither), and `paths --sample` did not say a path may
    come more than once (drawn with replacement), as the sample shows."""
    note = "lower-cased as the lattice was built"
    assert note in _help(capsys, "lattice", "distance")
    assert all(note not in _help(capsys, "lattice", action) for action in ("draw", "paths"))
    assert "--seed N seed of --sample (default: 0)" in _help(capsys, "lattice", "paraphrases")
    assert "--incremental's shuffles" in _help(capsys, "lattice", "stats")
    assert "with replacement: a path may come more than once" in _help(capsys, "lattice", "paths")


def test_stats_of_no_group_says_min_size_only_when_it_was_typed(tmp_path, group_file, capsys):
    """An empty groups file said `no groups of --min-size 1 or more sentences`, naming an option
    the user never typed; it says `no groups` now, and --min-size N when it left every group
    out (distinct sentences, as paraphrases says it and as --min-size counts)."""
    empty = tmp_path / "empty.tsv"
    empty.write_text("", encoding="utf-8")
    assert main(["lattice", "stats", "--groups", str(empty)]) == 1
    assert capsys.readouterr().err.strip().endswith(f"{empty}: no groups: nothing to measure")
    assert main(["lattice", "stats", "--groups", str(group_file), "--tokenized", "--min-size", "2"]) == 1
    assert "no groups of --min-size 2 or more distinct sentences: nothing to measure" in capsys.readouterr().err


def test_stats_text_writes_large_figures_without_an_exponent():
    """`lattice stats` wrote its figures with 4 significant digits by `.4g`, so a group of
    10,000-token sentences had `mean_length: 1e+04`, and an edit distance of 12,345.5 read
    1.235e+04: from 10,000 up every digit before the point is written, below as before."""
    from paralign.cli.lattice import render_stats

    figures = {"mean_length": 10000.0, "ed_input": 12345.5, "ed_lattice": 9999.5, "ed_input_per_word": 0.0176,
               "mean_log10_paths": 0.30103, "groups": 1, "paths_by_length": [], "errors": []}
    lines = dict(line.split(": ", 1) for line in render_stats(figures).splitlines() if ": " in line)
    assert (lines["mean_length"], lines["ed_input"], lines["ed_lattice"]) == ("10000", "12346", "10000")
    assert (lines["ed_input_per_word"], lines["mean_log10_paths"], lines["groups"]) == ("0.0176", "0.301", "1")
    assert lines["ed_lattice_per_word"] == "n/a"


@pytest.mark.parametrize("action", ["stats", "paraphrases"])
def test_the_min_size_help_says_its_default(capsys, action):
    """Every option of --groups' group said its default in --help but --min-size (1: every group)."""
    with pytest.raises(SystemExit):
        main(["lattice", action, "--help"])
    assert "are one (default: 1: every group)" in " ".join(capsys.readouterr().out.split())


def test_text_outputs_keep_a_path_and_a_sentence_on_one_line(tmp_path, capsys):
    """A --lattice JSON's word may hold a tab, a line break, ESC or an RLO (the record takes any
    text), and a --sentences line a tab or ESC: `lattice paths` wrote such a path across two
    lines or drove the terminal, `lattice distance` a row of four columns. Text now writes them
    escaped, as `paralign paraphrases` and `paraeval` write a cell's, so each path is one line and
    each row three columns; JSON keeps the exact text."""
    words = ["a\nb", "x\ty", "\x1b[2J", "r\u202el"]
    lattice = tmp_path / "odd.json"
    lattice.write_text(json.dumps({"states": 3, "start": 0, "end": 2,
                                   "edges": [*([0, w, 1] for w in words), [1, "end", 2]]}), encoding="utf-8")
    assert main(["lattice", "paths", "--lattice", str(lattice), "--all", "9", "--kbest", "4", "--sample", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 + (1 + 4) + (1 + 2) + (1 + 4), out  # the count, then three lists under their headings
    assert out[-4:] == ["a\\nb end", "x\\ty end", "\\x1b[2J end", "r\\u202el end"]
    assert not any(c in line for line in out for c in "\x1b\u202e"), out
    assert [p for p in run_json(capsys, "lattice", "paths", "--lattice", str(lattice), "--all", "9")["all"]] == [
        f"{w} end" for w in words]
    sentences = tmp_path / "sentences.txt"
    sentences.write_text("a\tb end\nr\u202el \x1b[31m end\n", encoding="utf-8")
    assert main(["lattice", "distance", "--lattice", str(lattice), "--tokenized", "--sentences", str(sentences)]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert rows == [["2", "3", "a\\tb end"], ["1", "3", "r\\u202el \\x1b[31m end"]], rows
    exact = run_json(capsys, "lattice", "distance", "--lattice", str(lattice), "--tokenized", "--sentences",
                     str(sentences))
    assert [r["sentence"] for r in exact] == ["a\tb end", "r\u202el \x1b[31m end"]


def test_a_path_of_no_word_listed_last_is_an_empty_line(tmp_path, capsys):
    """A path of no word (the one path of a one-state lattice; an epsilon edge from start to end)
    listed last was an empty last line, swallowed by the output's final line break: `--all`
    listed "a" alone of the lattice's two paths, and nothing under "all:" for the one-state
    lattice, where the JSON listed [""]. Each listed path is a line, an empty one too."""
    optional = tmp_path / "optional.json"
    optional.write_text(json.dumps({"states": 2, "edges": [[0, "a", 1], [0, None, 1]]}), encoding="utf-8")
    single = tmp_path / "single.json"
    single.write_text(json.dumps({"states": 1, "edges": []}), encoding="utf-8")
    for lattice, paths in ((optional, ["a", ""]), (single, [""])):
        assert run_json(capsys, "lattice", "paths", "--lattice", str(lattice), "--all", "5")["all"] == paths
        assert main(["lattice", "paths", "--lattice", str(lattice), "--all", "5"]) == 0
        out = capsys.readouterr().out
        assert out.split("\n")[1:] == ["all:", *paths, ""], out  # the count, the heading, a line a path


def test_stats_text_shows_every_figure_of_its_json(tmp_path, capsys):
    """The text left out three figures of the JSON: share_groups_lattice_worse (so 'better: 0.5'
    did not say whether the other groups were worse or equal), ed_gain_sd and repetition_words."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(GROUP) + "\n" + "a cat sat on the mat .\tthe cat sat on a mat .\n", encoding="utf-8")
    argv = ["lattice", "stats", "--groups", str(groups), "--tokenized", "--leave-one-out"]
    assert main([*argv, "--format", "json"]) == 0
    figures = {k: v for k, v in json.loads(capsys.readouterr().out).items() if not isinstance(v, list)}
    assert main(argv) == 0
    shown = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines() if ": " in line)
    assert set(figures) <= set(shown), set(figures) - set(shown)


@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_a_lattice_json_given_as_distances_sentences_is_refused(msa_json, tmp_path, capsys, bom):
    """`lattice distance --sentences lattice.json` measured each line of the JSON as a sentence
    (`{`, `"states": 19,` ...), exit 0, where every other input of sentences refuses a lattice."""
    path, lattice = msa_json
    sentences = tmp_path / "s.json"
    sentences.write_text(bom + json.dumps(lattice.to_dict(), indent=2), encoding="utf-8")
    assert main(["lattice", "distance", "--lattice", str(path), "--sentences", str(sentences)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (f"--sentences {sentences} holds a lattice (the JSON of lattice build --format json), not sentences one "
            "a line: --sentences takes the sentences to measure, one a line; a lattice is given as --lattice") in err, err


@pytest.mark.parametrize("action", ["build", "paths", "draw"])
def test_a_groups_file_given_as_one_groups_sentences_is_warned_of(tmp_path, capsys, action):
    """`lattice paths groups.tsv` (a groups file where one group's sentences go) made each line, its
    sentences joined, one sentence of a lattice of them all, without a word said."""
    groups = tmp_path / "groups.tsv"
    groups.write_text("a b c\ta b d\nx y\tx z\n", encoding="utf-8")
    assert main(["lattice", action, str(groups), "--tokenized", "--method", "msa"]) == 0
    err = capsys.readouterr().err
    assert (f"{groups}: every line holds a tab, and each line is one sentence of the group here (its tabs spaces): "
            "a groups file (a group a line, its sentences separated by tabs) is read by lattice stats and "
            "lattice paraphrases --groups") in err, err
    group = tmp_path / "group.txt"
    group.write_text("a b c\ta b d\nx y z\n", encoding="utf-8")  # a tab in one sentence: no warning
    assert main(["lattice", action, str(group), "--tokenized", "--method", "msa"]) == 0
    assert "every line holds a tab" not in capsys.readouterr().err
