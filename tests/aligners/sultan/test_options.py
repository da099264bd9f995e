"""The Sultan aligner's options are cheap to import: checking a preset name loads no spaCy."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_importing_the_options_does_not_load_spacy() -> None:
    code = (
        "import sys\n"
        "from paralign.aligners.sultan.options import PRESETS, preset_options\n"
        "assert preset_options('paper') == PRESETS['paper']\n"
        "print('spacy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]


def test_config_values_are_checked_and_lists_kept_hashable() -> None:
    """API audit (second pass): ppdb_sim='0.9' was a TypeError from a comparison, and
    entity_types given as a list made the frozen config unhashable."""
    from paralign.aligners.sultan import AlignerConfig
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="ppdb_sim must be a number in .0, 1., got '0.9'"):
        AlignerConfig(ppdb_sim="0.9")
    config = AlignerConfig(entity_types=[["PERSON", "PERSON"]], partial_mention_types=["PERSON"])
    assert config.entity_types == (("PERSON", "PERSON"),) and config.partial_mention_types == ("PERSON",)
    assert hash(config) == hash(AlignerConfig(entity_types=(("PERSON", "PERSON"),)))


@pytest.mark.parametrize("links", [-1, 1.5, None])
def test_context_only_links_must_be_a_count(links) -> None:
    """API audit: `Aligner(context_only_links=-1)` was taken: bool(-1) switched the module on
    and every pair of free content words of one category met the evidence needed (at least -1),
    so 'sponsored' aligned to 'drafted' with none, silently; --context-links refused it."""
    from paralign.aligners.sultan import AlignerConfig
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="context_only_links must be"):
        AlignerConfig(context_only_links=links)
    assert AlignerConfig(context_only_links=0).context_only_links == 0


def test_entity_types_taken_as_a_dict_and_bad_type_lists_named() -> None:
    """entity_types given as a dict (the shape of DEFAULT_ENTITY_TYPES) was read as its keys,
    each split into characters: a bare ValueError ('dictionary update sequence element #0 has
    length 6') when the aligner was made; partial_mention_types='PERSON' became the letters
    P, E, R, ... and silently spread no partial mention; None was 'unknown aligner option'."""
    from paralign.aligners.sultan import DEFAULT_ENTITY_TYPES, Aligner, AlignerConfig
    from paralign.errors import ConfigurationError

    assert AlignerConfig(entity_types=DEFAULT_ENTITY_TYPES) == AlignerConfig()
    assert Aligner(entity_types={"PERSON": "PERSON"}).config.entity_types == (("PERSON", "PERSON"),)
    for bad in ("PERSON", None, ["PERSON"], [("PERSON", "PERSON", "X")]):
        with pytest.raises(ConfigurationError, match="^entity_types must map spaCy entity labels"):
            AlignerConfig(entity_types=bad)
    for bad in ("PERSON", None, 5, [1]):
        with pytest.raises(ConfigurationError, match="^partial_mention_types must be a list"):
            Aligner(partial_mention_types=bad)


@pytest.mark.parametrize("value", ["no", "False", None, 2, 0.5])
def test_an_on_off_option_must_be_a_bool(value) -> None:
    """Aligner(use_word_similarity="no") kept word similarity on (a non-empty str is true) and
    None switched an option off, silently."""
    from paralign.aligners.sultan import Aligner, AlignerConfig
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="^use_word_similarity must be True or False"):
        Aligner(use_word_similarity=value)
    with pytest.raises(ConfigurationError, match="^align_quotes must be True or False"):
        AlignerConfig(align_quotes=value)
    assert AlignerConfig(align_quotes=0).align_quotes is False
