"""lattice.evaluate.read_groups / distinct_texts: a group's distinct sentences are those its
lattice counts (lattice audit after the trees)."""

from __future__ import annotations

import pytest

from paralign.lattice import build_lattice, read_groups
from paralign.lattice.evaluate import distinct_texts


@pytest.mark.parametrize("texts", [
    ["the cat &amp; dog sat", "the cat & dog sat"],      # an entity: spaCy is given "&"
    ["the caf\u00e9 sat", "the cafe\u0301 sat"],         # NFC and NFD
    ["the c\u200bat sat", "the cat sat"],                # an invisible character
])
def test_texts_spacy_reads_alike_are_one_sentence(texts, tmp_path) -> None:
    """Texts that differed only where spaCy is not given them (plain_text) were two sentences to
    --min-size and `lattice stats` while their lattice had one path."""
    assert build_lattice(texts).path_count() == 1 and set(build_lattice(texts).weights) == {1}
    assert distinct_texts(texts) == texts[:1]
    groups = tmp_path / "groups.tsv"
    groups.write_text("\t".join(texts) + "\n", encoding="utf-8")
    assert list(read_groups(groups, min_size=2)) == []
