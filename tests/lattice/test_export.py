"""lattice.word_lattice exports (lattice audit after the trees): what a reader of the format
reads back is the lattice, whatever its words look like."""

from __future__ import annotations

from paralign.lattice import Lattice, msa_lattice


def test_openfst_writes_a_word_spelled_eps_as_a_word() -> None:
    """A sentence holding the word <eps> was written with it as `<eps>`, the epsilon: the FST
    accepted "a b", which no sentence is."""
    lattice = msa_lattice([["a", "<eps>", "b"], ["a", "\\<eps>", "b"], ["a", "c", "b"]])
    labels = [line.split("\t")[2] for line in lattice.to_openfst().splitlines()[:-1]]
    assert "<eps>" not in labels and sorted(labels) == ["\\<eps>", "\\\\<eps>", "a", "b", "c"]


def test_openfst_keeps_an_epsilon_edge_and_ordinary_words() -> None:
    lattice = Lattice(3, ((0, "a b", 1), (0, None, 1), (1, "<eps>x", 2)))
    assert lattice.to_openfst() == "0\t1\ta_b\n0\t1\t<eps>\n1\t2\t<eps>x\n2\n"


def dot_strings(dot: str) -> list[str]:
    """The quoted strings of a DOT text as Graphviz's scanner reads them (\\" a quote, \\\\ one
    backslash kept as two, as labels then show one), checking that every string is closed."""
    out, k = [], 0
    while (k := dot.find('"', k)) >= 0:
        k, chars = k + 1, []
        while dot[k] != '"':
            pair = dot[k:k + 2]
            chars.append(pair if pair in ('\\"', "\\\\") else dot[k])
            k += len(chars[-1])
        out.append("".join(c if len(c) == 1 else c[1] for c in chars))
        k += 1
    return out


def test_dot_quotes_the_graph_name() -> None:
    """The name was written inside quotes unescaped: a quote in it ended the string, a backslash
    at its end escaped the closing quote."""
    lattice = Lattice(2, ((0, "a", 1),))
    for name in ('say "hi"', "back\\", "x"):
        dot = lattice.to_dot(name)
        assert dot_strings(dot)[0] == name and dot.count("{") == dot.count("}") == 1


def test_dot_labels_show_the_words() -> None:
    words = ['q"x', "a\\", "\\n", "{b}", "<c>", "<eps>"]
    lattice = Lattice(2, tuple((0, w, 1) for w in words), (1,) * len(words))
    labels = [s for s in dot_strings(lattice.to_dot()) if s not in ("lattice", "")]
    assert labels == [f"{w} (1)" for w in words]


def test_dot_tells_an_epsilon_edge_from_a_word_spelled_eps() -> None:
    """Both were written `0 -> 1 [label="<eps> (1)"];`: a drawing showed a sentence holding the
    word <eps> and a sentence skipping the words there alike. An epsilon edge is now dashed,
    as the SVG drawing (viz.lattice) draws it; a word's edge is not."""
    lattice = Lattice(2, ((0, None, 1), (0, "<eps>", 1)), (1, 1))
    epsilon, word = [line.strip() for line in lattice.to_dot().splitlines() if "->" in line]
    assert epsilon != word
    assert "style=dashed" in epsilon and "style" not in word
    assert dot_strings(epsilon) == dot_strings(word) == ["<eps> (1)"]


def test_openfst_writes_a_words_control_characters_as_escapes() -> None:
    """A word's control characters (NUL, ESC, DEL, a C1 control) were written raw into the text
    format, where JSON writes them escaped: each symbol is now printable, one a word, white space
    still '_'."""
    lattice = Lattice(3, ((0, "man\x00", 1), (0, "went\x1b[31m", 1), (0, "ran\x7f\x9b", 1), (1, "a\x0bb", 2)))
    assert lattice.to_openfst() == "0\t1\tman\\x00\n0\t1\twent\\x1b[31m\n0\t1\tran\\x7f\\x9b\n1\t2\ta_b\n2\n"
    assert all(line.replace("\t", "").isprintable() for line in lattice.to_openfst().splitlines())


def test_dot_labels_show_a_words_control_characters_as_escapes() -> None:
    """DOT wrote a word's control characters raw inside its label (a NUL among them), where the
    OpenFst text and JSON escape them: a label now shows the escape, the DOT text holds none."""
    lattice = Lattice(2, ((0, "a\x00", 1), (0, "went\x1b[31m", 1), (0, "b\\\x7f", 1)), (1, 1, 1))
    dot = lattice.to_dot("n\x01")
    assert all(line.isprintable() for line in dot.splitlines())
    assert dot_strings(dot)[0] == "n\\x01"
    assert [s for s in dot_strings(dot) if s.endswith("(1)")] == ["a\\x00 (1)", "went\\x1b[31m (1)", "b\\\\x7f (1)"]
